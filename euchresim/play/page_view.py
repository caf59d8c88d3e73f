"""What the page shows: the table as the player at seat 0 sees it, and nothing it could not see.

The other seats' hands, the kitty and the bots' discards stay on the
server; a bot's card appears once it is played.  Each option of the
player's decision carries ``legal`` and, when the rules refuse it, ``why``
in words, so the page greys it out and says why instead of guessing the
rules itself.
"""
from __future__ import annotations

from euchresim.actions import call_said
from euchresim.cards import SUITS, card_str, cards_of
from euchresim.engine.layout import (ALONE, BID2_PASS, BIDSUIT, CALLS, DEALER, EXCHANGED, JOKER_SUIT, MAKER, NCALLS,
                                     NPLAYS, OUT, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DUMMY,
                                     PH_JOKER, PH_PLAY, PHASE_NAMES, PLAY_SEAT, PLAYS, POINTS, ROUND, TRICK_WINNER,
                                     TRUMP, UPCARD)
from euchresim.play.table import SUIT_NAMES, YOU
from euchresim.play.words import card_text, game_over_line, partnership, party_names, result_line

PROMPTS = {PH_JOKER: "the joker is turned up: name its suit", PH_BID1: "round one: order the upcard up, or pass",
           PH_BID2: "round two: name a suit, or pass", PH_ALONE: "you made trump: go alone?",
           PH_DEFEND: "the maker went alone: defend alone?", PH_DISCARD: "you picked up the upcard: discard a card",
           PH_PLAY: "your lead", PH_DUMMY: "you took up the dummy: keep five of the ten cards"}
KEEP = 5          # a Cutthroat maker's keep: five of its hand and the dummy (R9)


def _options(s) -> list[dict]:
    """Every action the decision could name, legal or not; cards are the hand's (and the upcard to discard)."""
    h = s.h
    phase, legal = h.phase, h.legal()
    if phase == PH_BID1:
        codes = [0, 1]
    elif phase == PH_BID2:
        codes = [0, 1, 2, 3, BID2_PASS]
    elif phase == PH_JOKER:
        codes = [0, 1, 2, 3]
    elif phase in (PH_ALONE, PH_DEFEND):
        codes = [0, 1]
    elif phase == PH_DISCARD:
        codes = cards_of(h.hand_of(YOU) | legal)
    elif phase == PH_DUMMY:
        return _keep_options(s)
    else:
        codes = cards_of(h.hand_of(YOU))
    out = []
    for a in codes:
        ok = bool((legal >> a) & 1)
        out.append({"code": int(a), "label": s.label(phase, a), "legal": ok, "why": "" if ok else s.why_not(a)})
    return out


def _keep_options(s) -> list[dict]:
    """The Cutthroat keep's ten cards, each its own toggle: the keep is any five of them, sent as one board
    (the sum of ``1 << code`` of the five), so the page offers the cards and the server judges the five.
    Each says whether it came from the dummy, the five the player had not seen before."""
    legal, mine = s.h.legal(), s.h.hand_of(YOU)
    return [{"code": int(c), "label": card_str(c), "legal": True, "why": "", "from": "hand" if (mine >> c) & 1
             else "dummy"} for c in reversed(cards_of(legal))]


def _tricks(st, players: int) -> list[dict]:
    """The tricks so far, each from its leader: who played what, and who won the finished ones."""
    tricks: list[dict] = []
    n = int(st[NPLAYS])
    out = int(st[OUT])
    per = players - bin(out).count("1")
    for k in range(n):
        if k % per == 0:
            tricks.append({"cards": [], "winner": None})
        tricks[-1]["cards"].append({"seat": int(st[PLAY_SEAT + k]), "card": card_str(int(st[PLAYS + k]))})
    for t, tr in enumerate(tricks):
        if len(tr["cards"]) == per:
            w = int(st[TRICK_WINNER + t])
            tr["winner"] = w if w >= 0 else None
    return tricks


def _call(c: int, seat: int, rnd: int, dealer: int) -> str:
    """A call as the buttons and the verdicts say it: the dealer's order of the upcard is a pick-up."""
    return call_said(c, dealer=rnd == 1 and seat == dealer)     # euchresim.actions' said words


def upcard_note(st, n_calls: int, seats=("you", "left", "partner", "right")) -> str:
    """What became of the upcard, said for as long as the hand lasts: 'upcard Q♥, picked up by right'.

    Whether a bot dealer then discarded the upcard itself stays on the
    server (a discard is private), so a pick-up is said as one either way.
    """
    up = card_text(card_str(int(st[UPCARD])))
    dealer = int(st[DEALER])
    if st[MAKER] >= 0 and st[ROUND] == 1:
        if (int(st[OUT]) >> dealer) & 1:
            return f"upcard {up}, ordered up; the dealer sits out"
        return f"upcard {up}, picked up by {seats[dealer]}"
    return f"upcard {up}, turned down" if n_calls >= len(seats) else f"upcard {up}"


def _dummy(st, players: int, seats, decided: bool) -> str | None:
    """What became of Cutthroat's dummy, all anyone sees of it: face down, taken up by the maker, or set aside
    when the maker went alone. None with 2 or 4 players, who have none."""
    if players != 3:
        return None
    maker = int(st[MAKER])
    if maker < 0 or st[TRUMP] < 0 or not decided:
        return "the dummy: five cards face down"
    if (int(st[ALONE]) >> maker) & 1:
        return f"the dummy: set aside ({seats[maker]} went alone)"
    return f"the dummy: taken up by {seats[maker]}"


def _prompt(s, view: dict) -> str:
    """What the player is asked, in the variant's words (Cutthroat's maker goes alone without the dummy; either
    defender may go alone there, the maker alone or not)."""
    h, seats = s.h, s.seat_names
    if h.phase == PH_BID1 and view["dealer"] == YOU:
        return "round one: pick up the upcard, or pass"
    if h.phase == PH_PLAY and view["tricks"] and len(view["tricks"][-1]["cards"]) < s.players - len(view["sitting_out"]):
        return "your turn: follow"
    if s.players == 3 and h.phase == PH_ALONE:
        return "you made trump: take up the dummy, or go alone without it?"
    if s.players == 3 and h.phase == PH_DEFEND:
        maker = view["maker"]
        other = [seats[x] for x in range(3) if x not in (maker, YOU)][0]
        return (f"{seats[maker]} made trump{' alone' if maker in view['alone'] else ''}: defend alone "
                f"(then {other} sits out), or with {other}?")
    return PROMPTS.get(h.phase, "")


def table_view(s) -> dict:
    """The JSON the page draws (docs/play.md): the seats and who scores with whom come from the session, so one
    page draws 4 players, Cutthroat and the 2-hand game."""
    h, st = s.h, s.h.st
    players, seats = s.players, list(s.seat_names)
    dealer = int(st[DEALER])
    calls = [int(c) for c in st[CALLS:CALLS + st[NCALLS]]]
    first = (dealer + 1) % players
    bidding = [{"seat": (first + k) % players, "round": 1 + k // players,
                "call": _call(c, (first + k) % players, 1 + k // players, dealer)} for k, c in enumerate(calls)]
    maker = int(st[MAKER])
    bid_suit = int(st[BIDSUIT])
    tricks = _tricks(st, players)
    won = [0] * s.parties
    for t in tricks:
        if t["winner"] is not None:
            won[s.party(t["winner"])] += 1
    alone = [x for x in range(players) if (int(st[ALONE]) >> x) & 1]
    out = [x for x in range(players) if (int(st[OUT]) >> x) & 1]
    trump = None if st[TRUMP] < 0 else SUIT_NAMES[SUITS[int(st[TRUMP])]]
    decided = h.done or h.phase != PH_ALONE          # the maker has said whether it goes alone
    view = {
        "hand": len(s.finished) - (1 if h.done else 0), "step": s.step, "game": s.game,
        "players": players, "parties": party_names(seats), "party_of": [s.party(x) for x in range(players)],
        "score": list(s.score), "game_to": s.rules.game_to, "game_over": s.game_over,
        "dealer": dealer, "seats": seats, "turn": None if h.done else h.to_act, "done": bool(h.done),
        "phase": PHASE_NAMES[h.phase],
        "your_hand": [card_str(c) for c in reversed(cards_of(h.hand_of(YOU)))],
        "upcard": card_str(int(st[UPCARD])), "upcard_note": upcard_note(st, len(calls), seats),
        "bid_suit": SUIT_NAMES[SUITS[bid_suit]] if bid_suit >= 0 else None,
        "joker_suit": None if st[JOKER_SUIT] < 0 else SUITS[int(st[JOKER_SUIT])],
        "upcard_taken": bool(st[EXCHANGED]), "round": int(st[ROUND]) or None, "bidding": bidding,
        "maker": None if maker < 0 else maker, "trump": trump, "alone": alone, "sitting_out": out,
        "partnership": partnership(seats, maker if trump else -1, alone, out, decided),
        "dummy": _dummy(st, players, seats, decided),
        "tricks": tricks, "tricks_won": won, "your_decisions": list(s.mine),
        "bot": s.bot_name, "bot_params": s.bot, "seed": s.seed, "deck": s.rules.deck,
        "records": f"/records/{s.path.rsplit('/', 1)[-1]}",
        "hands_played": len(s.finished), "each_decision": s.each_decision,
    }
    if view["turn"] == YOU:
        view["prompt"] = _prompt(s, view)
        view["options"] = _options(s)
        if h.phase == PH_DUMMY:
            view["keep"] = KEEP
    if h.done:
        _result(s, view, tricks)
    return view


def _result(s, view: dict, tricks: list[dict]) -> None:
    """The hand's points per party and the result line; the game's end in words."""
    st = s.h.st
    view["points"] = [int(p) for p in st[POINTS:POINTS + s.parties]]
    if view["maker"] is None:
        view["result"] = "everyone passed: the hand is thrown in"
    else:
        per_seat = [sum(t["winner"] == x for t in tricks) for x in range(s.players)]
        view["result"] = result_line(view["seats"], view["maker"], view["trump"], per_seat,
                                     [int(p) for p in st[POINTS:POINTS + s.players]], view["alone"])
    if s.game_over is not None:
        view["game_over_text"] = game_over_line(view["seats"], s.game_over)
