"""The table's words, one vocabulary for the page, the reasons and the verdicts.

Cards are said as the page draws them (``10♥``, not the engine's ``TH``),
so a reason ("10♠ cannot be played ...") or a verdict ("trick 3, your
lead: A♥ gave up ...") names the card the player sees on the button.  The
calls are the ``said`` words of ``euchresim.actions`` (the advisor's labels:
"pick up" for the dealer, "order" for the others), which the page's
buttons use too, so a verdict says the word that was clicked.
"""
from __future__ import annotations

import re

from euchresim.cards import RANKS, SUIT_NAMES, SUITS

SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
_CARD = re.compile(rf"\b[{RANKS}][CDHS]\b")
WHERE = {"joker_suit": "the joker's suit", "bid1": "round one", "bid2": "round two", "alone": "going alone",
         "defend_alone": "against a lone hand", "discard": "your discard", "dummy_keep": "your keep"}
SUIT_WORDS = dict(zip(SUITS, SUIT_NAMES))          # by letter (cards.SUIT_NAMES, the one list)


def card_text(card: str) -> str:
    """One card as the page draws it: 'TH' -> '10♥'; the joker stays 'JK'."""
    if card == "JK":
        return card
    return card[:-1].replace("T", "10") + SUIT_SYMBOLS[card[-1]]


def say_cards(text: str) -> str:
    """Every card code in ``text`` ('TS', 'JD') as the page draws it; the words around it unchanged."""
    return _CARD.sub(lambda m: card_text(m.group(0)), text)


def say_option(kind: str | None, label: str) -> str:
    """An advisor's option as the page's button says it: cards with their symbols, the joker's suit by name
    (the advisor labels it 'H'; the button says 'hearts')."""
    if kind == "joker_suit" and label in SUIT_WORDS:
        return SUIT_WORDS[label]
    return say_cards(label)


def where(kind: str, lead: bool = False, trick: int | None = None) -> str:
    """Which decision of the hand a verdict is about: 'trick 3, your lead', 'round one', 'your discard'."""
    if kind == "play":
        what = "your lead" if lead else "you follow"
        return what if trick is None else f"trick {trick}, {what}"
    return WHERE.get(kind, kind)


def party_names(seats) -> list[str]:
    """Who scores, as the page says it: the two sides with 4 players, each player with 2 or 3."""
    return ["you and partner", "left and right"] if len(seats) == 4 else list(seats)


def together(names: list[str]) -> str:
    """'left and right', 'you and right': two or more names joined as said aloud."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def partnership(seats, maker: int, alone: list[int], out: list[int], decided: bool = True) -> str | None:
    """Cutthroat's partnership of one hand, once there is a maker (R9): the other two defend together, or one
    of them alone while the other sits out. None with 2 or 4 players, whose sides never change. ``decided``:
    whether the maker has said yet if it goes alone or takes the dummy."""
    if len(seats) != 3 or maker < 0:
        return None
    defenders = [x for x in range(3) if x != maker]
    lone = [x for x in defenders if x in alone]
    against = seats[maker] + ("" if not decided else " alone" if maker in alone else ", with the dummy")
    if lone:
        sits = [seats[x] for x in defenders if x in out and x not in lone]
        verb = "defend" if lone[0] == 0 else "defends"
        return f"{seats[lone[0]]} {verb} alone against {against}" + (f"; {sits[0]} sits out" if sits else "")
    return f"{together([seats[x] for x in defenders])} defend together against {against}"


def result_line(seats, maker: int, trump: str, tricks: list[int], points: list[int], alone: list[int]) -> str:
    """The hand's end in words for each variant: who made, who took how many tricks, the points to whom.

    ``tricks`` and ``points`` are per seat (4 players: the side's points at seats 0 and 1)."""
    players = len(seats)
    plural = (lambda n: f"{n} trick{'s' if n != 1 else ''}")
    if players == 4:
        side = maker % 2
        made = tricks[side] + tricks[side + 2]
        who = "you and your partner" if side == 0 else "left and right"
    else:
        made, who = tricks[maker], seats[maker]
    what = "march" if made == 5 else "made it" if made >= 3 else "euchred"
    line = f"{seats[maker]} made {trump}{' alone' if maker in alone else ''}: {who} took {plural(made)} ({what})"
    if players == 3:
        defenders = [x for x in range(3) if x != maker]
        lone = [x for x in defenders if x in alone]
        line += f", {seats[lone[0]] + ' alone' if lone else together([seats[x] for x in defenders])} {5 - made}"
    if players == 4:
        return line + f"; points {points[0]} to you, {points[1]} to them"
    return line + "; points " + ", ".join(f"{points[x]} to {seats[x]}" for x in range(players))


def game_over_line(seats, party: int) -> str:
    """Who won the game: a side with 4 players, a player with 2 or 3."""
    if len(seats) == 4:
        return "you and your partner win" if party == 0 else "left and right win"
    return "you win" if party == 0 else f"{seats[party]} wins"


def trick_numbers(rec) -> dict:
    """The trick (1 to 5) each card play of a hand record went to, by step, for a verdict to name it.

    Read off the engine as it replays the record (its count of tricks
    completed), not worked out from seats: a lone hand's trick has fewer
    cards, and the 2- and 3-hand games fewer still.
    """
    from euchresim.engine.layout import PH_PLAY, TRICK
    from euchresim.engine.state import Hand
    from euchresim.engine.tables import cached_tables
    h = Hand.of_record(rec, cached_tables(rec.rules))
    return {d.step: int(h.st[TRICK]) + 1 for d in h.steps(rec) if d.phase == PH_PLAY}
