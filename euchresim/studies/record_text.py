"""A hand record as a person reads it: the deal, the bidding, the tricks, the points.

A record is written for machines (one line of JSON, the plays in one flat
list), so a reader has to redo the rules to see who led each trick or
who sat out.  Here the record is first replayed (``loops.record_steps.replay``),
so a broken record is refused with replay's own message, and then stepped
through the same state machine once more, decision by decision
(``engine.state.Hand.steps``): every
seat, trick leader and trump below is what the engine says, not a second
copy of the rules that could drift from it.

``decisions`` is that stepping laid bare, one entry per decision in the
order the engine asks them; an advisor's verdict is attached to each, so
each names the record prefix (``calls``, ``plays``) that leads to it.
"""
from __future__ import annotations

from euchresim.cards import SUITS, card_str
from euchresim.engine.layout import (EXCHANGED, LED, NINTRICK, OUT, PH_DUMMY, PH_PLAY, PHASE_NAMES, REDEAL, ROUND,
                                     T_SUIT_OF, TRICK, TRUMP)
from euchresim.engine.state import Hand
from euchresim.engine.tables import cached_tables
from euchresim.loops.record_steps import replay
from euchresim.records.format import Record, RecordError, cards_desc

SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}


def role(seat: int, dealer: int, players: int) -> str:
    """Where a seat sits from the dealer: what a player says at the table, not a seat number."""
    from euchresim.rules import POSITION_NAMES
    return POSITION_NAMES[players][(seat - dealer) % players]


def _walk(rec: Record) -> tuple[list[dict], list[dict], dict]:
    """Step the engine through the record (``Hand.steps``): (decisions, the plays with their tricks, the final facts).

    The record has replayed already, so every action is legal here; a
    refusal would be a bug of this walk.
    """
    rules = rec.rules
    tab = cached_tables(rules)
    h = Hand.of_record(rec, tab)
    st = h.st
    decisions: list[dict] = []
    plays: list[dict] = []
    put_away = None
    for d in h.steps(rec):
        if d.phase == PH_DUMMY:
            put_away = h.legal() & ~d.code
        text = h.action_name(d.code)                   # the record's words (euchresim.actions)
        decisions.append({"step": d.step, "seat": d.seat, "kind": PHASE_NAMES[d.phase], "action": text,
                          "code": d.code, "calls": d.calls, "plays": d.plays})
        if d.phase == PH_PLAY:
            trump, lead = int(st[TRUMP]), st[NINTRICK] == 0
            led = int(tab[T_SUIT_OF + 33 * trump + d.code]) if lead else int(st[LED])   # a lead names the suit
            plays.append({"trick": int(st[TRICK]), "lead": bool(lead), "seat": d.seat, "card": text,
                          "led": SUITS[led], "trump": int(tab[T_SUIT_OF + 33 * trump + d.code]) == trump})
    final = {"round": int(st[ROUND]) or None, "out": [s for s in range(rules.players) if (int(st[OUT]) >> s) & 1],
             "exchanged": bool(st[EXCHANGED]), "redeal": bool(st[REDEAL]), "put_away": put_away}
    return decisions, plays, final


def _checked(rec: Record):
    outcome, err = replay(rec)
    if err:
        raise RecordError(err)
    return (outcome,) + _walk(rec)


def decisions(rec: Record) -> list[dict]:
    """Every decision of the hand in the engine's order, the card plays included.

    Each is ``{"step", "seat", "kind", "action", "code", "calls", "plays"}``:
    ``kind`` is the engine's phase name (``engine.layout.PHASE_NAMES``:
    joker_suit, bid1, bid2, alone, defend_alone, discard, dummy_keep,
    play), ``action`` as a person reads it ("pass", "order", "H", "alone",
    "not alone", "9C", the kept cards), ``code`` the action as
    ``engine.hand.apply_action`` takes it, ``calls`` and ``plays`` how much
    of the record precedes it, ``step`` how many decisions do.  Raises
    :class:`RecordError` with replay's message if the record is broken.
    """
    return _checked(rec)[1]


def _sides(players: int, maker) -> list[list[int]]:
    """Who plays together: fixed partners with 4; with 3 the defenders pair up for this hand only (R9)."""
    if players == 4:
        return [[0, 2], [1, 3]]
    if players == 3 and maker is not None:
        return [[maker], sorted(s for s in range(3) if s != maker)]
    return [[s] for s in range(players)]


def hand_story(rec: Record, stated: dict | None = None) -> dict:
    """The whole hand as plain JSON values, for ``format_story`` and for ``show --json``.

    ``stated``: the record as written (its JSON object); an outcome field
    it states (trump, maker, tricks, ...) that the replay does not bear out
    goes in ``mismatch``, since the story shows the replay and a reader
    must not take it for the record's word.  Raises :class:`RecordError`
    with replay's message if the record does not replay.
    """
    outcome, steps, plays, final = _checked(rec)
    r = rec.rules
    P = r.players
    maker, trump = outcome["maker"], outcome["trump"]
    story: dict = {"players": P, "deck": r.deck, "rules": r.changed(), "dealer": rec.dealer}
    for key in ("chunk", "index", "game", "rubber", "score"):
        v = getattr(rec, key)
        if v is not None:
            story[key] = list(v) if key == "score" else v
    story["seats"] = [{"seat": s, "role": role(s, rec.dealer, P), "hand": cards_desc(rec.hands[s])} for s in range(P)]
    story["dummy"] = cards_desc(rec.dummy) if r.has_dummy else None
    story["upcard"] = card_str(rec.upcard)
    story["kitty"] = cards_desc(rec.kitty)
    story["joker_suit"] = None if rec.joker_suit is None else SUITS[rec.joker_suit]
    story["joker_named"] = any(d["kind"] == "joker_suit" for d in steps)
    story["bidding"] = [{"seat": d["seat"], "round": 1 if d["kind"] == "bid1" else 2, "call": d["action"]}
                        for d in steps if d["kind"] in ("bid1", "bid2")]
    story["maker"], story["trump"], story["round"] = maker, trump, final["round"]
    if stated:
        from euchresim.loops.record_steps import outcome_agrees
        from euchresim.records.format import OUTCOME_FIELDS
        differ = {k: {"record": stated[k], "replay": outcome[k]} for k in OUTCOME_FIELDS
                  if k in stated and not outcome_agrees(k, stated[k], outcome[k])}
        if differ:
            story["mismatch"] = differ
    story["alone"] = sorted(d["seat"] for d in steps if d["kind"] in ("alone", "defend_alone") and d["code"])
    story["defender_alone"] = next((d["seat"] for d in steps if d["kind"] == "defend_alone" and d["code"]), None)
    story["sitting_out"] = final["out"]
    story["discard"] = None if rec.discard is None else card_str(rec.discard)
    story["picked_up"] = final["exchanged"]
    story["dummy_keep"] = None if rec.dummy_keep is None else cards_desc(rec.dummy_keep)
    story["dummy_put_away"] = None if final["put_away"] is None else cards_desc(final["put_away"])
    tricks = []
    for p in plays:
        if p["lead"]:
            tricks.append({"leader": p["seat"], "led": p["led"], "cards": []})
        tricks[-1]["cards"].append({"seat": p["seat"], "card": p["card"], "trump": p["trump"]})
    for t, w in zip(tricks, outcome["trick_winners"]):
        t["winner"] = w
    story["tricks"] = tricks
    story["tricks_won"] = list(outcome["tricks"])
    story["points"] = list(outcome["points"])
    story["sides"] = [{"seats": side, "makers": maker in side, "tricks": sum(outcome["tricks"][s] for s in side),
                       "points": outcome["points"][side[0]]} for side in _sides(P, maker)]
    if maker is None:
        story["result"] = "redeal" if final["redeal"] else "thrown in"
    else:
        made = next(s["tricks"] for s in story["sides"] if s["makers"])
        story["result"] = "march" if made == 5 else "made" if made >= 3 else "euchred"
    return story


# ---------------------------------------------------------------- text

def _suits(suits: str):
    if suits not in ("letters", "symbols"):
        raise ValueError(f"suits: {suits!r} is not letters or symbols")
    if suits == "letters":
        return lambda text: text
    return lambda text: text if text == "JK" else text[:-1] + SUIT_SYMBOLS.get(text[-1], text[-1])


def _rule_text(rules: dict) -> str:
    parts = []
    for k, v in rules.items():
        if k == "scoring":
            parts.append("scoring table changed")
        else:
            parts.append(f"{k}={str(v).lower() if isinstance(v, bool) else v}")
    return ", ".join(parts)


def _who(seats: list[int]) -> str:
    return "seat " + str(seats[0]) if len(seats) == 1 else "seats " + "+".join(map(str, seats))


def _header(story: dict) -> str:
    head = f"{story['players']} players, {story['deck']} cards"
    if story["rules"]:
        head += f" ({_rule_text(story['rules'])})"
    where = [f"{k}={story[k]}" for k in ("chunk", "index", "rubber", "game") if k in story]
    if where:
        head += "; " + " ".join(where)
    if "score" in story:
        score = story["score"]
        sides = _sides(story["players"], None)
        head += "; score before the hand: " + ", ".join(f"{_who(s)} at {score[s[0]]}" for s in sides)
    return head


def format_story(story: dict, suits: str = "letters") -> str:
    """The story as plain text, one fact a line, columns aligned; ``suits``: letters (JH) or symbols."""
    cs = _suits(suits)
    P, dealer = story["players"], story["dealer"]
    label = {s["seat"]: f"seat {s['seat']} ({s['role']})" for s in story["seats"]}
    width = max(map(len, label.values()))
    lines = [_header(story)]
    if story.get("mismatch"):
        from euchresim.loops.record_steps import differences
        lines.append(f"the record and its replay differ ({differences(story['mismatch'])}): shown as replayed")
    for s in story["seats"]:
        lines.append(f"{label[s['seat']]:<{width}}  {' '.join(map(cs, s['hand']))}")
    if story["dummy"] is not None:
        lines.append(f"{'dummy':<{width}}  {' '.join(map(cs, story['dummy']))}")
    up = cs(story["upcard"])
    lines.append(f"upcard {up}, kitty {' '.join(map(cs, story['kitty']))}")
    if story["result"] == "redeal":
        lines.append("the joker is turned up: thrown in, and the same dealer deals again (R7)")
        return "\n".join(lines)
    bid_suit = story["joker_suit"] if story["upcard"] == "JK" else story["upcard"][-1]
    if story["joker_named"]:
        lines.append(f"{label[dealer]} names {cs(bid_suit)} for the joker (R7)")
    elif story["upcard"] == "JK":
        lines.append(f"the joker stands for {cs(bid_suit)} (R7)")
    for rnd in (1, 2):
        calls = [b for b in story["bidding"] if b["round"] == rnd]
        if calls:
            if rnd == 2:
                lines.append(f"round 2, {cs(bid_suit)} turned down:")
            else:
                lines.append(f"round 1, on {cs(bid_suit)} (the joker):" if story["upcard"] == "JK" else
                             f"round 1, on {up}:")
            lines += [f"  {label[b['seat']] + ':':<{width + 1}} {cs(b['call']) if len(b['call']) == 1 else b['call']}"
                      for b in calls]
    maker = story["maker"]
    if maker is None:
        lines.append("everyone passed twice: the hand is thrown in (R6)")
        return "\n".join(lines)
    lines.append(f"trump {cs(story['trump'])}, made by {label[maker]} in round {story['round']}")
    lone = [f"seat {maker} goes alone{' (without the dummy)' if P == 3 else ''}"] if maker in story["alone"] else []
    if story["defender_alone"] is not None:
        lone.append(f"seat {story['defender_alone']} defends alone")
    out = story["sitting_out"]
    if out:
        lone.append(f"seat {out[0]} sits out" if len(out) == 1 else f"seats {out[0]} and {out[1]} sit out")
    if lone:
        lines.append(", ".join(lone))
    if story["discard"] is not None:
        if story["picked_up"]:
            lines.append(f"{label[dealer]} picks up {up} and discards {cs(story['discard'])}")
        else:
            lines.append(f"{label[dealer]} puts {up} away: no exchange (R5)")
    elif story["round"] == 1:
        lines.append(f"no exchange: the dealer sits out, so {up} stays out of play (C2)")
    if story["dummy_keep"] is not None:
        lines.append(f"seat {maker} takes the dummy, keeps {' '.join(map(cs, story['dummy_keep']))}, "
                     f"puts away {' '.join(map(cs, story['dummy_put_away']))}")
    lines += _trick_lines(story["tricks"], story["trump"], cs)
    sides = story["sides"]
    result = {"march": "a march", "made": "made", "euchred": "euchred"}[story["result"]]
    lines.append("tricks: " + ", ".join(f"{s['tricks']} to {_who(s['seats'])}{_makers(s)}" for s in sides)
                 + f": {result}")
    lines.append("points: " + ", ".join(f"{s['points']} to {_who(s['seats'])}" for s in sides))
    return "\n".join(lines)


def _makers(side: dict) -> str:
    if not side["makers"]:
        return ""
    return " (maker)" if len(side["seats"]) == 1 else " (makers)"


def _trick_lines(tricks: list[dict], trump: str, cs) -> list[str]:
    """One line a trick, each seat's card in a column of its own so the tricks read down the page."""
    rows = []
    for t in tricks:
        cells = []
        for k, c in enumerate(t["cards"]):
            # a trump is marked where it is not plain to see: played to another suit's lead, or a bower or joker
            mark = " (trump)" if c["trump"] and (t["led"] != trump or c["card"][-1] != trump) else ""
            cells.append(f"seat {c['seat']} {'leads ' if k == 0 else ''}{cs(c['card'])}{mark}")
        rows.append((cells, t["winner"]))
    n = max((len(cells) for cells, _ in rows), default=0)
    widths = [max((len(cells[k]) for cells, _ in rows if k < len(cells)), default=0) for k in range(n)]
    full = sum(widths) + 2 * (n - 1)
    out = []
    for i, (cells, winner) in enumerate(rows):
        text = "".join(f"{c + ',':<{widths[k] + 2}}" for k, c in enumerate(cells[:-1])) + cells[-1]
        out.append(f"trick {i + 1}: {text:<{full}} \u2014 seat {winner} wins")
    return out
