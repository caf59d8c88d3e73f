"""Double-dummy values of hand records: what perfect play with every card seen gives.

A record is replayed step by step as ``replay`` does it (the same kernel,
the same messages), and where its ``plays`` stop is the position solved:
a record cut short inside the play is a hand in progress, a complete one
is solved from its end (nothing is left to play).  So anything that
reads a record can ask "what was this position worth, and what did each
card throw away?", which the strategy reports and the search bots need.

The replay kernel stops a short record at its first missing card, before
the checks it makes only at a hand's end (calls, discard, keep or joker
suit left over); those are made here, with replay's own messages, so a
cut record is judged exactly as its uncut self would be.  The replay
gives back the public state only, so each seat's cards now are rebuilt
from the deal, the exchange and the plays, as the rules make them.

Positions are solved in batches, one kernel call per set of rules and one
workspace for all (``engine/solver.py``), as the replay batches its
kernel: no Python and no allocation between one position and the next.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from euchresim.cards import JOKER, SUITS, card_str
from euchresim.engine import solver as S
from euchresim.engine.layout import POS_SIZE, RES_SIZE, R_CARD, R_CVAL, R_VALUE
from euchresim.engine.layout import (ALONE, ERR_CALLS_EXTRA, ERR_DISCARD_UNUSED, ERR_DUMMY_UNUSED, ERR_JOKER_UNUSED, ERR_SCRIPT_SHORT, HAND, JOKER_SUIT, MAKER, MAKER_TRICKS, NCALLS, OUT, PH_DONE, PH_PLAY, PRIV_SIZE, ROUND, TRUMP)
from euchresim.records.format import (OUTCOME_FIELDS, SOLVED_FIELDS, Record, RecordError, parse_record)
from euchresim.engine.tables import cached_tables
from euchresim.loops.record_steps import OUTCOME_SLOTS, ended_rule, with_error as _replay_error, error_message, as_written, outcome_of, replay_states
from euchresim.studies.replay_file import check_file

BATCH = 1024          # records per batch: a progress bar's step, about a second of solving from the lead

_WS = S.new_workspace()     # the solver's one workspace: each solve starts it afresh


def solve_records(objs) -> list[dict]:
    """Each decoded record back with ``dd_tricks`` and ``dd_card_values``, or with ``error``.

    As ``replay_record`` writes it, plus the two fields; a record cut
    inside the play has only the outcome fields its calls fix (``maker``,
    ``trump``).  An ``error``, ``mismatch`` or double-dummy value the
    record had from an earlier run is dropped and found afresh.
    """
    return _solve_many(list(objs))


def with_error(obj, msg: str) -> dict:
    return _replay_error(obj, msg, SOLVED_FIELDS)


def _solve_many(objs: list) -> list[dict]:
    out: list = [None] * len(objs)
    groups: dict[int, list] = {}
    for i, obj in enumerate(objs):
        try:
            rec = parse_record(obj)
        except RecordError as e:
            out[i] = with_error(obj, str(e))
            continue
        groups.setdefault(id(rec.rules), []).append((i, rec))     # parse_record shares equal Rules
    for members in groups.values():
        for (i, rec), result in zip(members, _solve_group([rec for _, rec in members])):
            kind, a, b = result
            out[i] = with_error(objs[i], a) if kind == "error" else _write_back(objs[i], rec, a, b)
    return out


def _write_back(obj: dict, rec: Record, outcome: dict, values: dict) -> dict:
    """The record as replay writes it, less what a hand in progress has not got, plus the values.

    Outcome fields the record states for an unfinished hand (a cut record
    keeps its whole hand's) are dropped, not compared: the hand in the
    record has not come to them.
    """
    stated = {k: v for k, v in obj.items() if k in outcome or k not in OUTCOME_FIELDS}
    out = as_written(stated, rec, dict(dict.fromkeys(OUTCOME_FIELDS), **outcome))
    mismatch = out.pop("mismatch", None)
    for key in OUTCOME_FIELDS:
        if key not in outcome:
            del out[key]
    out.update(values)
    if mismatch:
        out["mismatch"] = mismatch
    return out


def _solve_group(recs: list[Record]) -> list[tuple]:
    """Replay records sharing one set of rules, then solve the positions they reach.

    Each result is ``("error", message, None)`` or ``("solved", outcome,
    {"dd_tricks": ..., "dd_card_values": ...})``.
    """
    rules = recs[0].rules
    tab = cached_tables(rules)
    found, states, held = replay_states(recs, tab, held=True)
    results: list = [None] * len(recs)
    rows, at = [], []
    outcomes = states[:, OUTCOME_SLOTS].tolist()
    for i, (rec, (code, phase, step)) in enumerate(zip(recs, found.tolist())):
        st = states[i].tolist()
        if code == ERR_SCRIPT_SHORT and phase == PH_PLAY:
            msg = _left_over(rec, st)
            if msg:
                results[i] = ("error", msg, None)
                continue
            rows.append(_position(states[i], held[i], tab))
            at.append(i)
            results[i] = ("solved", {"maker": st[MAKER], "trump": SUITS[st[TRUMP]]}, None)
        elif code:
            results[i] = ("error", error_message(rec, code, phase, step, st), None)
        elif st[MAKER] < 0:
            results[i] = ("error", f"calls: the hand was thrown in ({ended_rule(st)}); there is no play to solve",
                          None)
        else:
            outcome = outcome_of(outcomes[i], rules.players)
            results[i] = ("solved", outcome, {"dd_tricks": st[MAKER_TRICKS], "dd_card_values": {}})
    if rows:
        pos = np.array(rows, dtype=np.int64).reshape(len(rows), POS_SIZE)
        res = np.zeros((len(rows), RES_SIZE), np.int64)
        S.solve_batch(_WS, tab, pos, res, np.int64(S.MODE_EXACT | S.MODE_CARDS))
        for i, r in zip(at, res.tolist()):
            cards = [(c, v) for c, v in zip(r[R_CARD:R_CARD + 5], r[R_CVAL:R_CVAL + 5]) if c >= 0 and v >= 0]
            values = {card_str(c): v for c, v in sorted(cards, reverse=True)}   # highest first, as hands are written
            results[i] = ("solved", results[i][1], {"dd_tricks": r[R_VALUE], "dd_card_values": values})
    return results


def _exchanged(rec: Record, st: list) -> bool:
    """Whether the dealer took part in an exchange: trump from round one, the dealer playing (C1, C2)."""
    return st[ROUND] == 1 and not (st[OUT] >> rec.dealer) & 1


def _uses_dummy(rec: Record, st: list) -> bool:
    """Cutthroat, the maker not alone: the maker took the dummy (R9)."""
    return rec.rules.players == 3 and not (st[ALONE] >> st[MAKER]) & 1


def _left_over(rec: Record, st: list) -> str | None:
    """What the replay kernel checks only at a hand's end, for a record cut inside the play.

    Same order and messages as ``loops.replay_kernels.replay_hand``: a call after
    the bidding, a discard or a keep the hand had no use for, a joker suit
    the rules did not ask for.  Lone hands were checked on the way.
    """
    if len(rec.calls) > st[NCALLS]:
        return error_message(rec, ERR_CALLS_EXTRA, PH_DONE, st[NCALLS], st)
    if rec.discard is not None and not _exchanged(rec, st):
        return error_message(rec, ERR_DISCARD_UNUSED, PH_DONE, -1, st)
    if rec.dummy_keep is not None and not _uses_dummy(rec, st):
        return error_message(rec, ERR_DUMMY_UNUSED, PH_DONE, -1, st)
    named = rec.upcard == JOKER and rec.rules.joker_upcard == "dealer-names"
    if rec.joker_suit is not None and not named and rec.joker_suit != st[JOKER_SUIT]:
        return error_message(rec, ERR_JOKER_UNUSED, PH_DONE, -1, st)
    return None


def _position(st, held, tab) -> np.ndarray:
    """The solver's position row (``engine/solver.py`` ``P_*``) where a replay stopped.

    ``held``: each seat's cards there, as the replay's state machine holds
    them (the dealer's exchange, the Cutthroat keep and the plays applied):
    the hand as played is the engine's, never rebuilt here.
    """
    from euchresim.policies.position import load_position
    priv = np.zeros(PRIV_SIZE, np.int64)
    priv[HAND:HAND + 4] = held
    pos = np.zeros(POS_SIZE, np.int64)
    load_position(np.asarray(st, np.int64), priv, tab, pos)
    return pos


# ---------------------------------------------------------------- files

@dataclass
class SolveSummary:
    """What a file's solve found: counts, and the first findings of each kind as lines."""
    records: int = 0
    solved: int = 0
    failed: int = 0
    differ: int = 0
    lines: list[str] = field(default_factory=list)    # "line N: ...", in file order


def solve_file(src, dst, name: str | None = None, on_batch=None, **run_options) -> SolveSummary:
    """Solve every line of ``src`` into ``dst``, one output line per input line.

    As ``replay.replay_file``: ``src`` is checked to be JSON Lines before
    ``dst`` is opened (:class:`RecordError` names the file), ``on_batch(records)``
    hears how many records are done after each batch, and a file runs on the
    one runner with ``run_options`` (workers, resume, force, backend, address).
    """
    if isinstance(src, (str, os.PathLike)):
        from euchresim.studies.record_files import check_path
        return check_path(src, dst, "solve", BATCH, _solve_many, SolveSummary, on_batch=on_batch, **run_options)
    return check_file(src, dst, name, _solve_many, SolveSummary(), "failed", on_batch, BATCH)


__all__ = ["solve_records", "solve_file", "SolveSummary"]


def opening_positions(rules, n: int, seed: int):
    """``n`` deals trump was made on, by ``baseline``, as solver rows at the opening lead.

    What the solver's benchmark solves (``euchresim bench``, scripts/bench_solver.py):
    plausible trump, every variant's exchange and dummy applied.
    """
    from euchresim.policies.presets import declared_seats
    from euchresim.run import runner
    rows = []
    chunk = 0
    size = max(2 * n, 1000)
    while len(rows) < n:
        res = runner.play_chunk(runner.RunSpec(rules=rules, policies=declared_seats("baseline", rules.players), seed=seed, count=size * (chunk + 1),
                                         chunk_size=size), chunk)
        rows.extend(r for r in res.hands if r["maker"] >= 0)
        chunk += 1
    from euchresim.records.rows import row_record
    # each deal as a record cut at the opening lead, replayed: the position is the engine's (_position)
    recs = [row_record(rules, r, np.full(20, -1, np.int8))[0] for r in rows[:n]]
    tab = cached_tables(rules)
    _, states, held = replay_states(recs, tab, held=True)
    return np.stack([_position(states[i], held[i], tab) for i in range(n)])
