"""A finished hand reviewed decision by decision, and the session's verdicts as numbers for a picture.

``review`` steps the hand's written record through the engine
(studies/record_text.py ``decisions``, the walk ``show`` and the advisor make) and
stops at each of the player's decisions to say what the player could see
then: their own cards, the upcard and what became of it so far, the calls
made, who went alone, the cards played and the tricks won.  It never says
a card the player had not seen at that moment: the other hands, the
kitty, a bot's discard and the cards played later stay out (the test
looks for each of them in every step).  Each step carries the verdict the
advisor gave that decision when the hand ended, and the hint if one was
asked.

``picture`` is the session's verdicts in the shape the page draws: the
points given up in each hand judged, and by kind of decision, each with
its 95% interval (the tally's arithmetic, play/verdicts.py ``summary``).
"""
from __future__ import annotations

import math

from euchresim.actions import CALL_SUIT0, call_said, name as action_name
from euchresim.cards import card_str, cards_of
from euchresim.engine.layout import (ALONE, CALLS, DEALER, MAKER, NCALLS, NINTRICK, NPLAYS, OUT, PH_DISCARD, PH_DUMMY,
                                     PLAY_SEAT, PLAYS, ROUND, TRICK_WINNER, TRUMP, UPCARD)
from euchresim.engine.tables import cached_tables
from euchresim.engine.state import Hand
from euchresim.play.table import YOU
from euchresim.play.words import say_cards, where
from euchresim.records.format import parse_record
from euchresim.stats import Z95


def review(obj: dict, seats, verdicts: dict | None, hints: list[dict]) -> dict:
    """Hand ``obj`` (its record as written) at each of the player's decisions: what they saw, did, and were told.

    ``seats`` names the seats as the page does; ``verdicts`` is the
    advisor's state of this hand (None with the advisor off); ``hints``
    the hints asked in it.
    """
    from euchresim.studies.record_text import decisions
    rec = parse_record(obj)
    steps = decisions(rec)
    h = Hand.of_record(rec, cached_tables(rec.rules))
    players = rec.rules.players
    rows = {r["step"]: r for r in (verdicts or {}).get("rows", [])}
    asked = {x["step"]: x for x in hints}
    out, discard = [], None
    for at in h.steps(rec):
        d = steps[at.step]
        if d["seat"] == YOU:
            moment = _seen(h, players, seats)
            lead = d["kind"] == "play" and int(h.st[NINTRICK]) == 0
            trick = d["plays"] // (players - len(moment["sitting_out"])) + 1 if d["kind"] == "play" else None
            moment.update(step=d["step"], kind=d["kind"], did=_said(d, rec.dealer),
                          where=where(d["kind"], lead, trick), your_discard=discard,
                          verdict=_verdict(rows.get(d["step"]), verdicts), hint=asked.get(d["step"]))
            out.append(moment)
            if d["kind"] == "discard":
                discard = d["action"]
    return {"hand": None, "players": players, "dealer": rec.dealer, "seats": list(seats),
            "score": None if rec.score is None else list(rec.score), "game": rec.game,
            "points": obj.get("points"), "maker": obj.get("maker"), "trump": obj.get("trump"),
            "verdicts": None if verdicts is None else verdicts.get("status"), "steps": out}


def _said(d: dict, dealer: int) -> str:
    """What the player did, in the words of the button they clicked ('pick up', 'hearts', '10♥')."""
    if d["kind"] in ("bid1", "bid2", "joker_suit"):              # the buttons' words: euchresim.actions
        return action_name(d["kind"], d["code"], "said", dealer=YOU == dealer)
    return say_cards(d["action"])


def _seen(h, players: int, seats) -> dict:
    """What the player at seat 0 sees of hand ``h`` now: never another seat's unplayed card."""
    st = h.st
    dealer = int(st[DEALER])
    mine = h.hand_of(YOU)
    if h.phase in (PH_DISCARD, PH_DUMMY):      # the upcard picked up, or the dummy taken: in the player's hand now
        mine |= h.legal()
    calls = [int(c) for c in st[CALLS:CALLS + st[NCALLS]]]
    first = (dealer + 1) % players
    bidding = []
    for k, c in enumerate(calls):
        seat, rnd = (first + k) % players, 1 + k // players
        bidding.append({"seat": seat, "round": rnd, "call": call_said(c, dealer=seat == dealer)})   # euchresim.actions
    maker = int(st[MAKER])
    out = int(st[OUT])
    per = players - bin(out).count("1")
    tricks: list[dict] = []
    for k in range(int(st[NPLAYS])):
        if k % per == 0:
            tricks.append({"cards": [], "winner": None})
        tricks[-1]["cards"].append({"seat": int(st[PLAY_SEAT + k]), "card": card_str(int(st[PLAYS + k]))})
    for t, tr in enumerate(tricks):
        if len(tr["cards"]) == per and st[TRICK_WINNER + t] >= 0:
            tr["winner"] = int(st[TRICK_WINNER + t])
    up = card_str(int(st[UPCARD]))
    fate = ""
    if maker >= 0 and st[ROUND] == 1:
        fate = "ordered up; the dealer sits out" if (out >> dealer) & 1 else f"picked up by {seats[dealer]}"
    elif len(calls) >= players:
        fate = "turned down"
    return {"your_hand": [card_str(c) for c in reversed(cards_of(mine))], "upcard": up, "upcard_fate": fate,
            "bidding": bidding, "maker": None if maker < 0 else maker,
            "trump": None if st[TRUMP] < 0 else call_said(CALL_SUIT0 + int(st[TRUMP])),
            "alone": [s for s in range(players) if (int(st[ALONE]) >> s) & 1],
            "sitting_out": [s for s in range(players) if (out >> s) & 1], "tricks": tricks}


def _verdict(row: dict | None, verdicts: dict | None):
    """The hand's verdict on one decision; where there is none, why (one option, or the advisor not done)."""
    if verdicts is None:
        return {"text": "the advisor is off"}
    if verdicts.get("status") != "done":
        return {"text": "the advisor is " + ("judging this hand" if verdicts.get("status") in ("waiting", "running")
                                             else "not done with this hand"), "pending": True}
    if row is None:
        return {"text": "no choice: the only option"}
    return {k: row.get(k) for k in ("text", "did", "best", "gave_up", "gave_up_low", "gave_up_high", "hinted")}


def picture(advice: dict | None) -> dict:
    """The session's points given up, per hand judged and per kind of decision, with 95% intervals.

    ``advice`` is the advisor's state with the hinted decisions marked and
    left out of the tally (play/hints.py ``tally``): each hand's bar adds
    the same verdicts the tally does, its interval in quadrature.
    """
    if advice is None:
        return {"advice": False, "hands": [], "kinds": [], "hinted": 0}
    hands = []
    for index, v in sorted(advice["hands"].items(), key=lambda kv: int(kv[0])):
        if v["status"] != "done":
            hands.append({"hand": int(index), "status": v["status"]})
            continue
        rows = [r for r in v["rows"] if not r.get("hinted") and r["gave_up"] is not None]
        total = sum(r["gave_up"] for r in rows)
        var = sum(((r["gave_up_high"] - r["gave_up_low"]) / (2 * r.get("interval_z", Z95))) ** 2 for r in rows)
        half = Z95 * math.sqrt(var)
        hands.append({"hand": int(index), "status": "done", "gave_up": total, "low": total - half,
                      "high": total + half, "decisions": len(rows),
                      "hinted": sum(1 for r in v["rows"] if r.get("hinted"))})
    return {"advice": True, "hands": hands, "kinds": advice["summary"]["kinds"], "hinted": advice.get("hinted", 0),
            "judged": advice["summary"]["hands"]}
