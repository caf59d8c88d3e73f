"""What the page shows: the table as the player at seat 0 sees it, and nothing it could not see.

The other seats' hands, the kitty and the bots' discards stay on the
server; a bot's card appears once it is played.  Each option of the
player's decision carries ``legal`` and, when the rules refuse it, ``why``
in words, so the page greys it out and says why instead of guessing the
rules itself.
"""
from __future__ import annotations

from euchresim.cards import SUITS, card_str, cards_of
from euchresim.engine.layout import (ALONE, BID2_PASS, BIDSUIT, CALLS, DEALER, EXCHANGED, JOKER_SUIT, MAKER, NCALLS,
                                     NPLAYS, OUT, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DUMMY,
                                     PH_JOKER, PH_PLAY, PHASE_NAMES, PLAY_SEAT, PLAYS, POINTS, ROUND, TRICK_WINNER,
                                     TRUMP, UPCARD)
from euchresim.play.table import SEAT_NAMES, SUIT_NAMES, YOU
from euchresim.play.words import bid1_label, card_text
from euchresim.records.format import call_str

PROMPTS = {PH_JOKER: "the joker is turned up: name its suit", PH_BID1: "round one: order the upcard up, or pass",
           PH_BID2: "round two: name a suit, or pass", PH_ALONE: "you made trump: go alone?",
           PH_DEFEND: "the maker went alone: defend alone?", PH_DISCARD: "you picked up the upcard: discard a card",
           PH_PLAY: "your lead", PH_DUMMY: "keep five cards"}


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
    else:
        codes = cards_of(h.hand_of(YOU))
    out = []
    for a in codes:
        ok = bool((legal >> a) & 1)
        out.append({"code": int(a), "label": s.label(phase, a), "legal": ok, "why": "" if ok else s.why_not(a)})
    return out


def _tricks(st) -> list[dict]:
    """The tricks so far, each from its leader: who played what, and who won the finished ones."""
    tricks: list[dict] = []
    n = int(st[NPLAYS])
    out = int(st[OUT])
    per = 4 - bin(out).count("1")
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
    said = SUIT_NAMES.get(call_str(c), call_str(c))
    return bid1_label(seat, dealer) if rnd == 1 and said == "order" else said


def upcard_note(st, n_calls: int) -> str:
    """What became of the upcard, said for as long as the hand lasts: 'upcard Q♥, picked up by right'.

    Whether a bot dealer then discarded the upcard itself stays on the
    server (a discard is private), so a pick-up is said as one either way.
    """
    up = card_text(card_str(int(st[UPCARD])))
    dealer = int(st[DEALER])
    if st[MAKER] >= 0 and st[ROUND] == 1:
        if (int(st[OUT]) >> dealer) & 1:
            return f"upcard {up}, ordered up; the dealer sits out"
        return f"upcard {up}, picked up by {SEAT_NAMES[dealer]}"
    return f"upcard {up}, turned down" if n_calls >= 4 else f"upcard {up}"


def table_view(s) -> dict:
    """The JSON the page draws (docs/play.md)."""
    h, st = s.h, s.h.st
    dealer = int(st[DEALER])
    calls = [int(c) for c in st[CALLS:CALLS + st[NCALLS]]]
    first = (dealer + 1) % 4
    bidding = [{"seat": (first + k) % 4, "round": 1 + k // 4,
                "call": _call(c, (first + k) % 4, 1 + k // 4, dealer)} for k, c in enumerate(calls)]
    maker = int(st[MAKER])
    upcard = int(st[UPCARD])
    bid_suit = int(st[BIDSUIT])
    turn = None if h.done else h.to_act
    tricks = _tricks(st)
    won = [0, 0]
    for t in tricks:
        if t["winner"] is not None:
            won[t["winner"] % 2] += 1
    view = {
        "hand": len(s.finished) - (1 if h.done else 0), "step": s.step, "game": s.game,
        "score": list(s.score), "game_to": s.rules.game_to, "game_over": s.game_over,
        "dealer": dealer, "seats": list(SEAT_NAMES), "turn": turn, "done": bool(h.done),
        "phase": PHASE_NAMES[h.phase],
        "your_hand": [card_str(c) for c in reversed(cards_of(h.hand_of(YOU)))],
        "upcard": card_str(upcard), "upcard_note": upcard_note(st, len(calls)),
        "bid_suit": SUIT_NAMES[SUITS[bid_suit]] if bid_suit >= 0 else None,
        "joker_suit": None if st[JOKER_SUIT] < 0 else SUITS[int(st[JOKER_SUIT])],
        "upcard_taken": bool(st[EXCHANGED]), "round": int(st[ROUND]) or None, "bidding": bidding,
        "maker": None if maker < 0 else maker, "trump": None if st[TRUMP] < 0 else SUIT_NAMES[SUITS[int(st[TRUMP])]],
        "alone": [x for x in range(4) if (int(st[ALONE]) >> x) & 1],
        "sitting_out": [x for x in range(4) if (int(st[OUT]) >> x) & 1],
        "tricks": tricks, "tricks_won": won, "your_decisions": list(s.mine),
        "bot": s.bot_name, "bot_params": s.bot, "seed": s.seed, "deck": s.rules.deck,
        "records": f"/records/{s.path.rsplit('/', 1)[-1]}",
        "hands_played": len(s.finished), "each_decision": s.each_decision,
    }
    if turn == YOU:
        view["prompt"] = PROMPTS.get(h.phase, "")
        if h.phase == PH_BID1 and dealer == YOU:
            view["prompt"] = "round one: pick up the upcard, or pass"
        if h.phase == PH_PLAY and tricks and len(tricks[-1]["cards"]) < 4 - len(view["sitting_out"]):
            view["prompt"] = "your turn: follow"
        view["options"] = _options(s)
    if h.done:
        pts = [int(p) for p in st[POINTS:POINTS + 2]]
        view["points"] = pts
        if maker < 0:
            view["result"] = "everyone passed: the hand is thrown in"
        else:
            side = maker % 2
            made = won[side]
            what = "march" if made == 5 else "made it" if made >= 3 else "euchred"
            who = "you and your partner" if side == 0 else "left and right"
            view["result"] = (f"{SEAT_NAMES[maker]} made {view['trump']}: {who} took {made} trick"
                              f"{'s' if made != 1 else ''} ({what}); points {pts[0]} to you, {pts[1]} to them")
    return view
