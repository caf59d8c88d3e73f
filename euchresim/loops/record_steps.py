"""Hand records through the replay kernel: where a record meets the state machine.

The record's static shape (cards, the deal, field types) is checked by
``records.parse_record``; every step of the hand (a call in turn, going
alone, the discard, the dummy keep, each card played) is checked by the
same state machine that simulates, so a rule lives in one place.  A broken
record comes back with ``error``: the step, what was wrong, the rule id.

A record that plays through is also a claim about what the hand came to,
if it states an outcome: each stated outcome field that differs from the
replay's is a finding of its own kind, ``mismatch``, not a rule error.

Records are replayed in batches, one kernel call per batch and set of rules
(``loops.replay_kernels.replay_hands``): a kernel call per record cost more than the
replay itself.  The file loop (``replay`` of a whole file) is in
``studies.replay_file``.
"""
from __future__ import annotations

import json

import numpy as np

from euchresim.cards import SUITS, card_str
from euchresim.engine.layout import (Layout, BIDSUIT, CALL_PASS, DEALER, ERR_ALONE_UNASKED, ERR_CALLS_EXTRA, ERR_DISCARD_UNUSED, ERR_DUMMY_UNUSED, ERR_ILLEGAL, ERR_JOKER_UNUSED, ERR_NOT_HELD, ERR_PLAYS_EXTRA, ERR_SCRIPT_KIND, ERR_SCRIPT_SHORT, LED, MAKER, NO_CARD, NO_KEEP, ST, PH_BID1, PH_BID2, PH_DISCARD, PH_DUMMY, PH_JOKER, PH_PLAY, REDEAL, ROUND, ST_SIZE, TO_ACT)
from euchresim.engine.tables import cached_tables
from euchresim.records.format import (FINDING_FIELDS, JOIN_FIELDS, OUTCOME_FIELDS, RECORD_FIELDS, Record, RecordError, is_int, call_str, cards_desc, parse_record)


def replay_many(recs: list[Record]) -> list[tuple[dict | None, str | None]]:
    """Replay parsed Records; for each, (outcome dict, None) or (None, error text)."""
    out: list = [None] * len(recs)
    groups: dict[int, list[int]] = {}
    for i, rec in enumerate(recs):
        groups.setdefault(id(rec.rules), []).append(i)      # parse_record shares equal Rules
    for idx in groups.values():
        for i, result in zip(idx, _replay_group([recs[i] for i in idx])):
            out[i] = result
    return out


def replay(rec: Record) -> tuple[dict | None, str | None]:
    """Replay one parsed Record; returns (outcome dict, None) or (None, error text)."""
    return replay_many([rec])[0]


def replay_states(recs: list[Record], tab, held: bool = False):
    """The replay kernel over records of one set of rules, in one call: (found, states[, hands]).

    ``found[i]`` is (error code, phase, step) and ``states[i]`` the whole
    public state where record i's replay stopped (its end, or where it went
    wrong); ``solve`` needs the whole state, ``replay_many`` only its outcome.
    With ``held``, also each seat's cards there (k x 4 boards), as the
    state machine holds them: what a solver's position is made of.
    """
    from euchresim.loops.replay_kernels import replay_hands
    pad = (0,) * (4 - recs[0].rules.players)
    calls: list[int] = []
    plays: list[int] = []
    call_at = [0]
    play_at = [0]
    for r in recs:
        calls.extend(r.calls)
        call_at.append(len(calls))
        plays.extend(r.plays)
        play_at.append(len(plays))

    def col(values):
        return np.array(values, dtype=np.int64)

    k = len(recs)
    found = np.zeros((k, 3), np.int64)
    states = np.zeros((k, ST_SIZE), np.int64)
    hands_now = np.zeros((k if held else 0, 4), np.int64)
    replay_hands(
        tab, col([r.dealer for r in recs]), col([r.hands + pad for r in recs]).reshape(k, 4),
        col([r.dummy for r in recs]), col([r.upcard for r in recs]), col([r.kitty for r in recs]),
        col([-1 if r.joker_suit is None else r.joker_suit for r in recs]), col(calls), col(call_at),
        col([sum(1 << s for s in r.alone) for r in recs]),
        col([NO_CARD if r.discard is None else r.discard for r in recs]),
        col([NO_KEEP if r.dummy_keep is None else r.dummy_keep for r in recs]), col(plays), col(play_at),
        found, states, hands_now)
    return (found, states, hands_now) if held else (found, states)


def _replay_group(recs: list[Record]) -> list[tuple[dict | None, str | None]]:
    P = recs[0].rules.players
    found, states = replay_states(recs, cached_tables(recs[0].rules))
    # only the outcome's slots as Python ints: the whole state of every record cost more than the replay
    outcomes = states[:, OUTCOME_SLOTS].tolist()
    results = []
    for i, (rec, (code, phase, step), o) in enumerate(zip(recs, found.tolist(), outcomes)):
        if code:
            results.append((None, error_message(rec, code, phase, step, states[i].tolist())))
            continue
        results.append((outcome_of(o, P), None))
    return results


# The public state's outcome fields, gathered into one row per record (one
# fancy index, then .tolist()): the row's layout is the fields' own, read by name.
_OUTCOME = Layout("outcome", 15, tuple((name, ST.span(name)[1] - ST.span(name)[0])
                                       for name in ("MAKER", "TRUMP", "TRICK_WINNER", "TRICKS", "POINTS")))
OUTCOME_SLOTS = np.concatenate([np.arange(*ST.span(name)) for name, _ in _OUTCOME.fields])


def outcome_of(o: list, players: int) -> dict:
    """A hand's outcome fields from its gathered outcome row (``states[:, OUTCOME_SLOTS]``)."""
    def field(name):
        a, b = _OUTCOME.span(name)
        return o[a:b]
    maker, trump = o[_OUTCOME.span("MAKER")[0]], o[_OUTCOME.span("TRUMP")[0]]
    return {
        "maker": None if maker < 0 else maker,
        "trump": None if trump < 0 else SUITS[trump],
        "trick_winners": [w for w in field("TRICK_WINNER") if w >= 0],
        "tricks": field("TRICKS")[:players],
        "points": field("POINTS")[:players],
    }


def error_message(rec, code, phase, step, st) -> str:
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
        if rec.calls[step] == CALL_PASS and seat == int(st[DEALER]):
            return f"{where}: the dealer (seat {seat}) may not pass in round two: stick the dealer (R6)"
        return f"{where}: seat {seat} may not say {said!r} here ({rule})"
    if code == ERR_CALLS_EXTRA:
        return f"calls[{step}]: the bidding was over after {step} calls ({ended_rule(st)})"
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
        return f"{what}: the hand was thrown in ({ended_rule(st)})"
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
            return f"plays[{step}]: the hand was thrown in, nothing is played ({ended_rule(st)})"
        return f"plays[{step}]: the hand was over after {step} cards (R10)"
    return f"record: engine error {code} (phase {phase}, step {step})"


def ended_rule(st) -> str:
    """The rule that ended the bidding: R7 joker redeal, R5 round one, else R6."""
    if st[REDEAL]:
        return "R7"
    return "R5" if st[ROUND] == 1 else "R6"


# ---------------------------------------------------------------- written back

def outcome_agrees(key: str, stated, computed) -> bool:
    """Whether a record's stated outcome field says what the replay computed.

    Read as forgivingly as the record's inputs (a suit in any case), but a
    number must be a number: ``"3"`` is not seat 3.
    """
    if stated == computed and type(stated) is type(computed) and (
            type(stated) is not list or all(type(a) is int for a in stated)):
        return True                  # the common case: written by simulate, or by an earlier replay
    if computed is None or stated is None:
        return stated is None and computed is None
    if key == "trump":
        return isinstance(stated, str) and stated.strip().upper() == computed
    if key == "maker":
        return is_int(stated) and stated == computed
    return (isinstance(stated, (list, tuple)) and len(stated) == len(computed)
            and all(is_int(a) and a == b for a, b in zip(stated, computed)))


def _show(key: str, value) -> str:
    if key == "trump" and isinstance(value, str):
        return value
    try:
        return json.dumps(value, separators=(",", ":"))
    except (TypeError, ValueError):
        return repr(value)


def differences(mismatch: dict) -> str:
    """One line for a record's ``mismatch``: ``outcome differs: maker 0 in the record, 3 on replay``."""
    return "outcome differs: " + "; ".join(
        f"{k} {_show(k, v['record'])} in the record, {_show(k, v['replay'])} on replay" for k, v in mismatch.items())


def as_written(obj: dict, rec: Record, outcome: dict) -> dict:
    """The record as given, in hand-record field order, with what the replay fills in.

    A missing ``kitty`` is written as the deal left it, and a null
    ``joker_suit`` as the suit a fixed ``joker_upcard`` rule gives, so a
    checked record reads as ``simulate`` writes it.  Stated outcome fields
    are replaced by the replay's; those that differed are kept in
    ``mismatch``.
    """
    out = {}
    for key in RECORD_FIELDS:
        v = obj.get(key)
        if v is None:
            if key == "kitty":
                out[key] = cards_desc(rec.kitty)
                continue
            if key == "joker_suit" and rec.joker_suit is not None:
                out[key] = SUITS[rec.joker_suit]
                continue
            if key not in obj:
                continue
        out[key] = v
    for key in JOIN_FIELDS:
        if key in obj:
            out[key] = obj[key]
    mismatch = {}
    for key in OUTCOME_FIELDS:
        computed = outcome[key]
        if key in obj and not outcome_agrees(key, obj[key], computed):
            mismatch[key] = {"record": obj[key], "replay": computed}
        out[key] = computed
    if mismatch:
        out["mismatch"] = mismatch
    return out


def with_error(obj, msg: str, also: tuple = ()) -> dict:
    """A broken record back with ``error``: what an earlier run found of it is dropped, not trusted.

    The outcome and findings always go; ``also`` names more fields to drop
    (solve's double-dummy values, which replay keeps).  Something that is
    not an object comes back wrapped, as ``record``.
    """
    if not isinstance(obj, dict):
        return {"record": obj, "error": msg}
    dropped = OUTCOME_FIELDS + FINDING_FIELDS + tuple(also)
    out = {k: v for k, v in obj.items() if k not in dropped}
    out["error"] = msg
    return out


def check_records(objs: list) -> list[dict]:
    """Each decoded record back as replay_record returns it."""
    out: list = [None] * len(objs)
    parsed = []
    for i, obj in enumerate(objs):
        try:
            parsed.append((i, parse_record(obj)))
        except RecordError as e:
            out[i] = with_error(obj, str(e))
    results = replay_many([rec for _, rec in parsed])
    for (i, rec), (outcome, err) in zip(parsed, results):
        out[i] = with_error(objs[i], err) if err else as_written(objs[i], rec, outcome)
    return out


def replay_record(obj) -> dict:
    """A record dict back with its outcome fields, or with ``error`` if broken.

    The outcome fields are the replay's; if the record stated some of them
    otherwise, the dict also has ``mismatch``: ``{field: {"record": stated,
    "replay": computed}}``.  An ``error`` or ``mismatch`` the record had
    from an earlier replay is dropped and the record checked afresh.
    """
    return check_records([obj])[0]
