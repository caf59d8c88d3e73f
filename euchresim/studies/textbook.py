"""Textbook hands: situations whose answer published Euchre strategy agrees on, to hold ``advise`` to (issue 34).

Each ``Textbook`` is one question as ``euchresim advise`` takes it (hand,
upcard, seat, round, calls, decision, score, players, deck, stick the
dealer), the answer the strategy texts give, written as the advisor labels
its options ("order", "pass", "pick up", "order alone", "hearts" for a suit
named in round two, a card such as "AH" for a lead or a discard), the
principle in a few words and the page it comes from. An answer "not JS"
means the texts rule that option out without naming one of the others.

scripts/textbook.py runs the advisor on each and writes the table of
docs/advise.md ("Textbook hands"); tests/test_textbook.py holds the advisor
to the situations the table marks as agreeing. The sources are public
strategy pages, named by address; where they disagree among themselves the
principle says so.
"""
from __future__ import annotations

from dataclasses import dataclass

# the pages the principles come from (each was read for the principle it is cited for)
RAREPIKE = "https://rarepike.com/euchre/trump-calling-strategy"
EUCHREVERSE = "https://www.euchreverse.com/learn/calling"
ANDREWS = "http://safeharborgames.net/aboutgames/columns/201412_joe_andrews_Euchre.php"
ASSIST = "http://euchreuniverse.blogspot.com/2006/03/renegade-euchre.html"
HOOKS = "http://euchreuniverse.blogspot.com/2006/06/euchre-strategy-double-hooks-two-bower.html"
JACK_UP = "http://euchreuniverse.blogspot.com/2006/05/euchre-strategy-when-jack-is-up-card.html"
WEAK_LADY = "http://euchreuniverse.blogspot.com/2006/03/weak-lady-and-her-pips.html"
LEADING = "http://euchreuniverse.blogspot.com/2006/02/lead-up-to-leading.html"
OHIO_JJ = "http://ohioeuchre.com/E_When-Should_You-Bid-JJ-example.php"
OHIO_ROUND2 = "https://ohioeuchre.com/E_When-Should_You-Bid-2.php"
OHIO_NEXT = "https://ohioeuchre.com/E_next.php"
OHIO_TWO_HAND = "http://ohioeuchre.com/E_TwoThreeHanded.php"
VEGAS_NEXT = "https://vegaseuchre.homestead.com/strategy.html"
VEGAS_DEFENSE = "https://vegaseuchre.homestead.com/strategy2.html"
HOYLE_ELDEST = "https://playingcardgames.net/CardGames/Eldest-Or-First-Hand.html"
HOYLE_DEALER = "http://www.playingcardgames.net/m/CardGames/The-Dealer.html"
DUMMIES_ALONE = ("https://www.dummies.com/article/home-auto-hobbies/games/card-games/general-card-games/"
                 "how-to-go-alone-in-euchre-193768/")
DISCARD = "https://euchreinfo.com/discarding"
BIG_TRUMP = "https://www.euchrefun.com/2013/11/1112-euchre-tuesday-tip.html?m=1"
STICK = "https://euchre.cards/variations/stick-the-dealer"
CUTTHROAT = "https://rarepike.com/euchre/three-handed-euchre"
BRITISH = "http://www.netplaces.com/card-games/euchre/british-euchre.htm"


@dataclass(frozen=True)
class Textbook:
    """One textbook situation: the advise arguments, the answer the texts give, why, and where it is written."""
    id: str
    hand: str
    upcard: str
    seat: str
    answer: str
    principle: str
    source: str
    round: int = 1
    calls: str | None = None
    decision: str | None = None
    score: str | None = None
    players: int = 4
    deck: int = 24
    stick_the_dealer: bool = False

    def argv(self) -> list[str]:
        """The ``euchresim advise`` arguments of the situation (without samples, seed or output options)."""
        out = ["advise", "--hand", self.hand, "--upcard", self.upcard, "--seat", self.seat]
        if self.round != 1:
            out += ["--round", str(self.round)]
        for opt, val in (("--calls", self.calls), ("--decision", self.decision), ("--score", self.score)):
            if val is not None:
                out += [opt, val]
        if self.players != 4:
            out += ["--players", str(self.players)]
        if self.deck != 24:
            out += ["--deck", str(self.deck)]
        if self.stick_the_dealer:
            out += ["--stick-the-dealer"]
        return out

    def agrees(self, recommended: str | None) -> bool:
        """Whether the advisor's recommendation is the textbook answer ("not X": anything but X)."""
        if recommended is None:
            return False
        if self.answer.startswith("not "):
            return recommended != self.answer[4:]
        return recommended == self.answer


T = Textbook
SITUATIONS: tuple[Textbook, ...] = (
    # --- round one, the dealer's left (first hand) ---
    T("left-both-bowers-ace", "JH JD AH KS 9C", "TH", "left", "order",
      "first hand orders with both bowers and the ace", RAREPIKE),
    T("left-three-trump-off-ace", "AH KH 9H AS TC", "QH", "left", "order",
      "order the dealer up with three trumps headed by the ace and a side ace", RAREPIKE),
    T("left-lone-bower", "JH KS QC TD 9D", "TH", "left", "pass",
      "first hand passes a lone bower with no other trump", RAREPIKE),
    T("left-two-middle-trumps", "QH 9H KS TC 9D", "TH", "left", "pass",
      "first hand passes two middle trumps without a bower or the ace", RAREPIKE),
    T("left-double-hooks", "JH JD QS TC 9C", "9H", "left", "pass",
      "first hand never orders two bare bowers: pass, and make it next in round two", HOOKS),
    T("left-bridge-block", "9H KS QC TC 9D", "TH", "left", "order",
      "at 9 against 6 or 7, order (even weak) to stop a loner that wins the game", ANDREWS, score="9-7"),
    # --- round one, the dealer's partner (second hand) ---
    T("partner-bower-and-one", "JH TH AS 9C QD", "KH", "partner", "order",
      "the dealer's partner orders any bower with another trump", ASSIST),
    T("partner-ten-nine-off-ace", "TH 9H AS QC TD", "KH", "partner", "order",
      "the dealer's partner orders the ten and nine of trump with an off ace", ASSIST),
    T("partner-lone-ace", "AH QS TC 9C TD", "9H", "partner", "pass",
      "never assist with one trump, a lone ace of trump included", ANDREWS),
    # --- round one, the dealer's right (third hand) ---
    T("right-both-bowers-only", "JH JD QS TC 9C", "9H", "right", "pass",
      "both bowers alone are not enough to order the dealer from third seat", OHIO_JJ),
    T("right-two-top-and-ace", "JH AH AS QC 9D", "TH", "right", "order",
      "third hand orders with two of the top three trumps and a side ace", ANDREWS),
    # --- round one, the dealer ---
    T("dealer-three-small-trumps", "QH 9H 9S 9C TD", "TH", "dealer", "pick up",
      "the dealer cannot pass three trumps, even the queen, ten and nine", EUCHREVERSE),
    T("dealer-right-and-ace", "JH AH QS TC 9D", "9H", "dealer", "pick up",
      "the dealer takes up the right and the ace", HOYLE_DEALER),
    T("dealer-jack-up-weak", "TD 9D TH 9H 9S", "JC", "dealer", "pick up",
      "almost never turn down a bower, even on the worst hand", JACK_UP),
    T("dealer-jack-up-weak-at-8", "TD 9D TH 9H 9S", "JC", "dealer", "pass",
      "... but turn it down on a really weak hand when the other side has 8", JACK_UP, score="4-8"),
    T("dealer-weak-lady-at-8", "TC 9C KH TD 9D", "QC", "dealer", "pass",
      "three small trumps: pass when the other side has 8 (a euchre ends the game)", WEAK_LADY, score="5-8"),
    T("dealer-weak-lady-at-9", "TC 9C KH TD 9D", "QC", "dealer", "pick up",
      "three small trumps: pick up when the other side has 9 (better than 50/50)", WEAK_LADY, score="5-9"),
    T("dealer-weak-lady-with-ace", "TC 9C AH TD 9D", "QC", "dealer", "pick up",
      "three trumps with an ace: you have to pick that up", WEAK_LADY),
    # --- going alone ---
    T("dealer-alone-top-three-off-ace", "JH JD AH AS KS", "9H", "dealer", "pick up alone",
      "the top three trumps and an off ace: go alone", DUMMIES_ALONE),
    T("left-no-alone-without-right", "JD AH KH AS 9C", "QH", "left", "order",
      "no loner without the right bower: three sure tricks are not there (ohioeuchre.com argues for more lones)",
      DUMMIES_ALONE),
    # --- round two ---
    T("left-next-king-nine-ace", "KC 9C AH TD 9D", "JS", "left", "clubs",
      "next: the jack of spades turned down, first hand makes clubs with K9 and a side ace, void in one suit",
      VEGAS_NEXT, round=2),
    T("left-next-three", "JD QD 9D AS KC", "TH", "left", "diamonds",
      "next: three or more of the same colour's suit, from first hand", OHIO_NEXT, round=2),
    T("left-double-hooks-next", "JH JD QS TC 9C", "9H", "left", "diamonds",
      "both red bowers, hearts turned down: make it next (diamonds)", HOOKS, round=2),
    T("left-round-two-nothing", "QS TC 9C KD 9H", "TH", "left", "pass",
      "one card of next and no ace: not a next call", OHIO_NEXT, round=2),
    T("partner-reverse-next", "KS 9S AD QC 9H", "TH", "partner", "spades",
      "second seat calls reverse next with at least king-nine and an off ace", OHIO_ROUND2, round=2),
    # --- the play ---
    T("lead-trump-partner-called", "JS AD KD QC 9H", "9S", "left", "JS",
      "always lead a trump when your partner ordered up", HOYLE_ELDEST, calls="pass,pass,order",
      decision="play"),
    T("defense-lead-off-ace", "AS KS AH QD 9C", "JS", "left", "AH",
      "the other side ordered: do not lead trump, lead an ace", LEADING, calls="pass,pass,pass,order",
      decision="play"),
    T("defense-not-the-right", "JS KD 9D TH 9C", "QS", "left", "not JS",
      "against the dealer's pick-up, do not lead the bare right with no aces to make good", VEGAS_DEFENSE,
      calls="pass,pass,pass,order", decision="play"),
    # --- discards ---
    T("discard-green-singleton", "AD 9D QH TC 9S", "TS", "dealer", "QH",
      "void a suit, a green one first (the worked example of the page)", DISCARD, calls="order",
      decision="discard"),
    T("discard-lone-off-card", "JH AH KH QS AC", "9H", "dealer", "QS",
      "discard a lone off-suit card that is not an ace", DISCARD, calls="pass,pass,pass,order",
      decision="discard"),
    T("discard-keep-aces", "JC 9C AH KH AD", "QC", "dealer", "KH",
      "three trumps, ace-king of one suit and an ace: discard the king", HOYLE_DEALER,
      calls="pass,pass,pass,order", decision="discard"),
    # --- other variants ---
    T("two-hand-strong-order", "JH JD AH AS KC", "TH", "opponent", "order",
      "2-hand: both bowers and the ace of trump order", OHIO_TWO_HAND, players=2),
    T("two-hand-weak-pass", "9H KS QC TD 9D", "TH", "opponent", "pass",
      "2-hand: one small trump and no ace pass", OHIO_TWO_HAND, players=2),
    T("cutthroat-strong-order", "JH JD AH KS 9C", "TH", "left", "order, take the dummy",
      "Cutthroat: both bowers and the ace order (the maker plays against two)", CUTTHROAT, players=3),
    T("cutthroat-weak-pass", "QH 9H KS TC 9D", "TH", "left", "pass",
      "Cutthroat: two middle trumps and no ace pass (the maker plays against two)", CUTTHROAT, players=3),
    T("joker-benny-order", "JK JH 9H KS 9C", "TH", "left", "order",
      "joker deck: the benny, the right and a third trump order (the benny is the top trump)", BRITISH, deck=25),
    T("joker-lead-benny", "JK 9H AS KD QC", "TH", "left", "JK",
      "joker deck: your partner made it, lead your highest trump, the benny", BIG_TRUMP, deck=25,
      calls="pass,pass,order", decision="play"),
    T("stuck-dealer-best-suit", "AS KS 9S QD 9C", "TH", "dealer", "spades",
      "stick the dealer: the stuck dealer names the suit it holds most of (reverse next)", STICK, round=2,
      stick_the_dealer=True),
    T("stuck-left-next", "KC 9C AH TD 9D", "JS", "left", "clubs",
      "stick the dealer: next from first hand as without the rule", VEGAS_NEXT, round=2,
      stick_the_dealer=True),
)
