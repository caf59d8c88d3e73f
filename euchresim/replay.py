"""Replay hand records through the engine, checking every step.

The record's static shape (cards, the deal, field types) is checked by
``records.parse_record``; every step of the hand (a call in turn, going
alone, the discard, the dummy keep, each card played) is checked by the
same state machine that simulates, so a rule lives in one place.  A broken
record comes back with ``error``: the step, what was wrong, the rule id.
"""
from __future__ import annotations

import numpy as np

from .cards import SUITS, card_str
from .engine.layout import (
    BIDSUIT, DEALER, ERR_ALONE_UNASKED, ERR_CALLS_EXTRA, ERR_DISCARD_UNUSED, ERR_DUMMY_UNUSED,
    ERR_ILLEGAL, ERR_JOKER_UNUSED, ERR_NOT_HELD, ERR_PLAYS_EXTRA, ERR_SCRIPT_KIND,
    ERR_SCRIPT_SHORT, LED, MAKER, PH_BID1, PH_BID2, PH_DISCARD,
    PH_DUMMY, PH_JOKER, PH_PLAY, PRIV_SIZE, REDEAL, ROUND, ST_SIZE, TO_ACT, TRICK_WINNER, TRICKS, POINTS,
    TRUMP,
)
from .records import RecordError, call_str, format_record, iter_jsonl, parse_record, write_jsonl

_TABLES: dict = {}


def _tables(rules):
    from .tables import build_tables
    key = rules
    if key not in _TABLES:
        _TABLES[key] = build_tables(rules)
    return _TABLES[key]


def replay(rec):
    """Replay a parsed Record; returns (outcome dict, None) or (None, error text)."""
    from .driver import replay_hand
    rules = rec.rules
    tab = _tables(rules)
    P = rules.players
    hands = np.zeros(4, np.int64)
    for s in range(P):
        hands[s] = rec.hands[s]
    alone = 0
    for s in rec.alone:
        alone |= 1 << s
    st = np.zeros(ST_SIZE, np.int64)
    priv = np.zeros(PRIV_SIZE, np.int64)
    calls = np.array(rec.calls, dtype=np.int64)
    plays = np.array(rec.plays, dtype=np.int64)
    code, phase, step = replay_hand(
        tab, rec.dealer, hands, np.int64(rec.dummy), rec.upcard, np.int64(rec.kitty),
        -1 if rec.joker_suit is None else rec.joker_suit, calls, alone,
        -1 if rec.discard is None else rec.discard,
        -1 if rec.dummy_keep is None else np.int64(rec.dummy_keep), plays, st, priv)
    if code:
        return None, _message(rec, int(code), int(phase), int(step), st, priv)
    maker = int(st[MAKER])
    return {
        "maker": None if maker < 0 else maker,
        "trump": None if st[TRUMP] < 0 else SUITS[int(st[TRUMP])],
        "trick_winners": [int(w) for w in st[TRICK_WINNER:TRICK_WINNER + 5] if w >= 0],
        "tricks": [int(t) for t in st[TRICKS:TRICKS + P]],
        "points": [int(p) for p in st[POINTS:POINTS + P]],
    }, None


def _message(rec, code, phase, step, st, priv) -> str:
    seat = int(st[TO_ACT])
    if code == ERR_ALONE_UNASKED:
        rule = "R9" if rec.rules.players == 3 else "R8"
        return f"alone: seat {step} may not go alone in this hand ({rule})"
    if phase in (PH_BID1, PH_BID2) and code != ERR_CALLS_EXTRA:
        rnd = "one" if phase == PH_BID1 else "two"
        rule = "R5" if phase == PH_BID1 else "R6"
        if code == ERR_SCRIPT_SHORT:
            return f"calls: {len(rec.calls)} calls, but the bidding is not over; seat {seat} is to speak in round {rnd} ({rule})"
        said = call_str(rec.calls[step])
        where = f"calls[{step}]"
        if code == ERR_SCRIPT_KIND:
            if phase == PH_BID1:
                return f"{where}: seat {seat} said {said!r} in round one, which takes pass or order (R5)"
            return f"{where}: seat {seat} said 'order' in round two, which takes pass or a suit (R6)"
        turned = SUITS[int(st[BIDSUIT])]
        if said == turned:
            return f"{where}: seat {seat} named {said}, the turned-down suit (R6)"
        if said == "pass" and seat == int(st[DEALER]):
            return f"{where}: the dealer (seat {seat}) may not pass in round two: stick the dealer (R6)"
        return f"{where}: seat {seat} may not say {said!r} here ({rule})"
    if code == ERR_CALLS_EXTRA:
        return f"calls[{step}]: the bidding was over after {step} calls ({_ended_rule(st)})"
    if phase == PH_JOKER:
        return "joker_suit: the upcard is the joker and the dealer must name a suit (R7)"
    if code == ERR_JOKER_UNUSED:
        return f"joker_suit: {SUITS[rec.joker_suit]} does not match the joker_upcard rule (R7)"
    if phase == PH_DISCARD:
        if code == ERR_SCRIPT_SHORT:
            return f"discard: missing; the dealer (seat {seat}) took the upcard's suit as trump and must discard or decline (R5)"
        return f"discard: {card_str(rec.discard)} is not in the dealer's hand or the upcard (R5)"
    if code in (ERR_DISCARD_UNUSED, ERR_DUMMY_UNUSED) and st[MAKER] < 0:
        what = "discard" if code == ERR_DISCARD_UNUSED else "dummy_keep"
        return f"{what}: the hand was thrown in ({_ended_rule(st)})"
    if code == ERR_DISCARD_UNUSED:
        return "discard: there was no dealer exchange in this hand (trump from round two, no trump, or the dealer sits out) (R5)"
    if phase == PH_DUMMY:
        if code == ERR_SCRIPT_SHORT:
            return f"dummy_keep: missing; the maker (seat {seat}) did not go alone and takes the dummy (R9)"
        return "dummy_keep: must be 5 cards from the maker's hand and the dummy (R9)"
    if code == ERR_DUMMY_UNUSED:
        return "dummy_keep: the dummy is not used (the maker went alone, or no trump was made) (R9)"
    if phase == PH_PLAY:
        if code == ERR_SCRIPT_SHORT:
            return f"plays: {len(rec.plays)} cards, but the hand is not over; seat {seat} is to play (R10)"
        card = card_str(rec.plays[step])
        where = f"plays[{step}]"
        if code == ERR_NOT_HELD:
            return f"{where}: seat {seat} does not hold {card} (R10)"
        if code == ERR_ILLEGAL:
            return f"{where}: seat {seat} played {card} but must follow {SUITS[int(st[LED])]} (R2, R10)"
    if code == ERR_PLAYS_EXTRA:
        if st[MAKER] < 0:
            return f"plays[{step}]: the hand was thrown in, nothing is played ({_ended_rule(st)})"
        return f"plays[{step}]: the hand was over after {step} cards (R10)"
    return f"record: engine error {code} (phase {phase}, step {step})"


def _ended_rule(st) -> str:
    """The rule that ended the bidding: R7 joker redeal, R5 round one, else R6."""
    if st[REDEAL]:
        return "R7"
    return "R5" if st[ROUND] == 1 else "R6"


def replay_record(obj) -> dict:
    """A record dict back with outcome fields, or with ``error`` if broken."""
    try:
        rec = parse_record(obj)
    except RecordError as e:
        return _with_error(obj, str(e))
    outcome, err = replay(rec)
    if err:
        return _with_error(obj, err)
    out = dict(obj)
    out.update(outcome)
    out.pop("error", None)
    return out


def _with_error(obj, msg: str) -> dict:
    out = dict(obj) if isinstance(obj, dict) else {"record": obj}
    for k in ("maker", "trump", "trick_winners", "tricks", "points"):
        out.pop(k, None)
    out["error"] = msg
    return out


def replay_file(src, dst) -> tuple[int, int, list[str]]:
    """Replay every line of ``src`` into ``dst``; returns (lines, broken, first errors)."""
    n = 0
    broken = 0
    errors: list[str] = []

    def gen():
        nonlocal n, broken
        for line_no, value in iter_jsonl(src):
            n += 1
            if isinstance(value, RecordError):
                out = {"line": line_no, "error": str(value)}
            elif not isinstance(value, dict):
                out = {"line": line_no, "error": f"line {line_no}: not a JSON object"}
            else:
                out = replay_record(value)
            if "error" in out:
                broken += 1
                if len(errors) < 5:
                    errors.append(f"line {line_no}: {out['error']}")
            yield out

    write_jsonl(dst, gen())
    return n, broken, errors


__all__ = ["replay", "replay_record", "replay_file", "format_record"]
