"""Chunks, seeds and workers: the only place Python objects meet kernels.

A run is cut into fixed-size chunks.  Chunk ``i`` gets two generators,
``SeedSequence(seed, spawn_key=(i, 0))`` for the deal and ``(i, 1)`` for the
policies, so its output depends only on the seed, the chunk size and ``i``:
never on the number of workers, and the deals never on the policies.

Workers run whole chunks and hand back per-chunk tallies (integer counts
that merge exactly); when a run writes Parquet or hand records, each chunk's
files go to the run folder as they finish (run/folder.py).  A stopped run keeps
them and ``resume`` picks up from them.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from euchresim import ENGINE_VERSION, __version__
from euchresim.run.errors import SimError
from euchresim.run.jobs import Job, Played, run_job
from euchresim.engine.bits import seed_state
from euchresim.engine.layout import (GAME_DTYPE, HAND_DTYPE, RUBBER_DTYPE, TALLY_FIXED, TALLY_FIXED_SLOTS, TALLY_POS,
                                     TALLY_POS_SLOTS, TALLY_SEAT, TALLY_SEAT_SLOTS, TALLY_SIZE)
from euchresim.rules import Rules

DEFAULT_CHUNK = {"hands": 1 << 16, "games": 2048, "rubbers": 512}
MAX_CHUNK = {"hands": 1 << 20, "games": 1 << 15, "rubbers": 1 << 13}   # about 150 MB of rows at most
HANDS_A_GAME = 10     # a game is about ten hands: a chunk of games asked in hands holds a tenth as many
ROW_RING = 1 << 11     # rows a run that keeps none writes round (play_chunk): 280 KB, in a core's cache


def chunk_size(mode: str = "hands", count: int = 0, hands: int = 0, parts: int = 1, cost=None) -> int:
    """The one rule for how many hands (games, rubbers) a chunk plays.

    A chunk size is part of what a seed means (each chunk has its own
    generators), so this rule only changes with a new engine version.
    ``hands``: the size asked, in hands (a report's ``chunk_size``), a tenth
    of it for games; 0: ``DEFAULT_CHUNK[mode]``.  ``count``: the run's
    length, cut into at least ``parts`` chunks (0: no cut).  ``cost``: the
    table's declared ``policies.Cost``, whose ``chunk`` caps a search bot's
    chunks, so one is seconds and progress moves; given where a run's cost
    has always capped it (a report's calls and its further models' decks),
    not where the numbers were fixed without it.
    """
    if hands:
        size = hands if mode == "hands" else max(1, hands // HANDS_A_GAME)
    else:
        size = DEFAULT_CHUNK[mode]
    if count:
        size = min(size, max(1, -(-count // parts)))
    if cost is not None and cost.chunk:
        size = min(size, cost.chunk)
    return max(1, min(size, MAX_CHUNK[mode]))


@dataclass(frozen=True)
class RunSpec:
    """What a run plays; with the seed it fixes every number the run gives.

    ``policies``: a ``policies.Seats`` (every seat's policy, read once
    where its name entered: ``policies.seats(["heuristic"], 4)`` in a
    script); None plays every seat ``random``. A worker gets it as its
    canonical names and rebuilds it once.
    """
    rules: Rules
    policies: object = None          # a policies.Seats (None: every seat random)
    seed: int = 0
    mode: str = "hands"            # hands | games | rubbers
    count: int = 1_000_000
    chunk_size: int = 0            # 0: DEFAULT_CHUNK[mode]
    groups: tuple = ()             # groupings to tally as the hands are played (euchresim.run.groups)
    start_score: tuple = ()        # games: each side's score when every game starts (() or zeros: a new game)

    def __post_init__(self):
        from euchresim.policies import handed
        from euchresim.policies.presets import random_seats
        object.__setattr__(self, "policies", random_seats(self.rules.players) if self.policies is None
                           else handed(self.policies, self.rules.players, "RunSpec(policies=...)"))
        if self.mode not in DEFAULT_CHUNK:
            raise ValueError(f"mode must be hands, games or rubbers, not {self.mode!r}")
        if self.mode == "rubbers" and self.rules.players != 4:
            raise SimError(f"rubbers are a 4-player rule, not for {self.rules.players} players (R13)")
        if self.count < 1:
            raise ValueError("count must be at least 1")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool) or self.seed < 0:
            raise SimError(f"seed must be a whole number >= 0, not {self.seed!r}")
        self._check_start_score()
        if self.chunk_size == 0:
            object.__setattr__(self, "chunk_size", chunk_size(self.mode))
        if not 1 <= self.chunk_size <= MAX_CHUNK[self.mode]:
            raise SimError(f"chunk size must be 1..{MAX_CHUNK[self.mode]} {self.mode} (a chunk's rows are held "
                           f"in memory), not {self.chunk_size}")
        if self.groups:
            from euchresim.run.groups import parse_groups   # a GroupingError (ValueError) names an unknown feature
            object.__setattr__(self, "groups", parse_groups(self.groups))
        elif not isinstance(self.groups, tuple):
            object.__setattr__(self, "groups", ())

    def _check_start_score(self):
        start = tuple(self.start_score)
        if not start:
            return
        sides = 2 if self.rules.players == 4 else self.rules.players
        shown = "-".join(map(str, start))
        if self.mode != "games":
            raise SimError(f"a start score is for whole games (--games), not {self.mode}")
        if len(start) != sides or not all(isinstance(s, int) and not isinstance(s, bool) for s in start):
            raise SimError(f"start score {shown}: give {sides} whole numbers, one per side, as {'-'.join('9' * sides)}")
        if not all(0 <= s < self.rules.game_to for s in start):
            raise SimError(f"start score {shown}: each side from 0 to {self.rules.game_to - 1} (the game is to "
                           f"{self.rules.game_to}, R12)")
        object.__setattr__(self, "start_score", start if any(start) else ())     # 0-0: a new game

    def start_scores(self) -> np.ndarray:
        """Each seat's score when a game starts, as the kernels take it: a side's score at each of its seats."""
        out = np.zeros(4, np.int64)
        for seat in range(self.rules.players):
            side = seat % 2 if self.rules.players == 4 else seat
            out[seat] = self.start_score[side] if self.start_score else 0
        return out

    @property
    def n_chunks(self) -> int:
        return -(-self.count // self.chunk_size)

    def chunk_count(self, i: int) -> int:
        return min(self.chunk_size, self.count - i * self.chunk_size)

    def meta(self) -> dict:
        """What a result file carries so it can be traced and resumed."""
        names = self.policies.names
        return {
            "euchresim": __version__, "engine_version": ENGINE_VERSION,
            "rules": self.rules.to_dict(), "policies": names, "seed": self.seed,
            "mode": self.mode, "count": self.count, "chunk_size": self.chunk_size,
            # only when asked: the meta of a run without groupings stays what it was (resume)
            **({"groups": [list(g) for g in self.groups]} if self.groups else {}),
            **({"start_score": list(self.start_score)} if self.start_score else {}),
        }


def chunk_states(seed: int, chunk: int):
    """(deal, policy) generator states of one chunk."""
    deal = seed_state(np.random.SeedSequence(seed, spawn_key=(chunk, 0)))
    pol = seed_state(np.random.SeedSequence(seed, spawn_key=(chunk, 1)))
    return deal, pol


@dataclass
class ChunkResult:
    chunk: int
    hands: np.ndarray                 # HAND_DTYPE rows
    plays: np.ndarray                 # int8[n, 20]
    games: np.ndarray = field(default_factory=lambda: np.zeros(0, GAME_DTYPE))
    rubbers: np.ndarray = field(default_factory=lambda: np.zeros(0, RUBBER_DTYPE))
    counts: np.ndarray | None = None  # the hands' tally, when the kernel kept it (loops.tally.tally_row)
    groups: dict | None = None        # the cells of spec.groups (groups.Plan.counts), when asked for


def play_chunk(spec: RunSpec, chunk: int, scratch: dict | None = None, keep_rows: bool = True) -> ChunkResult:
    """Play one chunk in this process.

    ``scratch`` (a dict the caller keeps) lends row buffers from one chunk to
    the next, which spares the page faults of fresh memory; the result then
    lives in those buffers and is only good until the next call.

    ``keep_rows=False`` (a run of hands that writes no file) plays every
    hand and writes every row, but into a small ring (``loops.hands.run_hands``)
    that stays in the core's cache; the result then has only its
    ``counts``, and no ``hands`` or ``plays`` rows.

    ``spec.groups``: the chunk's cells of each grouping (euchresim.run.groups)
    come back as the result's ``groups`` attribute, for ``tally``.  Kept
    rows are tallied after the kernel; rows round the ring, block by block
    as they are played (``loops.hands.run_hands_grouped``).
    """
    from euchresim.loops.hands import run_games, run_hands, run_hands_grouped
    from euchresim.engine.features import tally_groups
    from euchresim.engine.tables import build_tables

    if not 0 <= chunk < spec.n_chunks:
        raise SimError(f"chunk {chunk}: the run has chunks 0..{spec.n_chunks - 1}")
    tab = build_tables(spec.rules)
    table = spec.policies                   # read where the name entered (in a worker: rebuilt once a process)
    pids, params = table.pids, table.params
    fns = table.functions(python_ok=True)
    pyfns = table.python_functions()
    if pyfns is not None:                 # a seat in plain Python: the same steps, from Python (loops/slow.py)
        run_hands, run_games = _python_seats(spec, chunk, pyfns)
    n = spec.chunk_count(chunk)
    plan = gcounts = None
    if spec.groups:
        from euchresim.run.groups import Plan
        plan = Plan(spec.groups)
        gcounts = plan.zeros()
    if spec.mode == "hands":
        drng, prng = chunk_states(spec.seed, chunk)
        ring = not keep_rows and n > ROW_RING and pyfns is None    # the slow loop tallies groups from kept rows
        rows, plays = _buffers(scratch, ROW_RING if ring else n, "ring" if ring else "rows")
        counts = np.zeros(TALLY_SIZE, np.int64)
        if ring and plan is not None:
            err, at = run_hands_grouped(tab, n, drng, prng, pids, params, fns, rows, plays, chunk, counts,
                                        *plan.args(), gcounts)
        else:
            err, at = run_hands(tab, n, drng, prng, pids, params, fns, rows, plays, chunk, counts)
        if err:
            raise SimError(_policy_error(spec, chunk, int(at), rows[int(at) & (len(rows) - 1 if ring else -1)],
                                         plays[int(at) & (len(rows) - 1 if ring else -1)]))
        used = 0 if ring else n
        games = np.zeros(0, GAME_DTYPE)
        rubbers = np.zeros(0, RUBBER_DTYPE)
    else:
        ngames = n if spec.mode == "games" else 0
        nrub = n if spec.mode == "rubbers" else 0
        cap_games = ngames if ngames else 3 * nrub
        cap = 32 * cap_games
        while True:
            drng, prng = chunk_states(spec.seed, chunk)   # a retry replays the same chunk
            rows = np.zeros(cap, HAND_DTYPE)
            plays = np.zeros((cap, 20), np.int8)
            games = np.zeros(cap_games, GAME_DTYPE)
            rubbers = np.zeros(nrub, RUBBER_DTYPE)
            used = run_games(tab, ngames, nrub, drng, prng, pids, params, fns, rows, plays, games, rubbers, chunk,
                             spec.start_scores())
            if used != -1:
                break
            cap *= 2
        if used < -1:
            at = (-2 - used) // 64           # run_games: -2 - (code + 64 * failing row)
            raise SimError(_policy_error(spec, chunk, at, rows[at], plays[at]))
        ng = int((games["hands"] > 0).sum())
        games = games[:ng]
        games["chunk"] = chunk
        rubbers["chunk"] = chunk
        # run-wide numbers: games (or rubbers) count on from chunk to chunk
        offset = chunk * spec.chunk_size
        if spec.mode == "games":
            rows["game"][:used] += offset
            games["game"] += offset
        else:
            rows["rubber"][:used] += offset
            games["rubber"] += offset
            rubbers["rubber"] += offset
        counts = None
    rows = rows[:used]          # the kernel wrote chunk and index
    res = ChunkResult(chunk, rows, plays[:used], games, rubbers, counts)
    if plan is not None:
        if used:               # rows round the ring were tallied as they were played
            tally_groups(rows, tab, *plan.args(), gcounts)
        res.groups = plan.counts(gcounts)
    return res


def _buffers(scratch, n, name="rows"):
    """Row and play buffers for n hands; every field is written by the kernel."""
    if scratch is None:
        return np.zeros(n, HAND_DTYPE), np.zeros((n, 20), np.int8)
    if name not in scratch or len(scratch[name][0]) < n:
        scratch[name] = (np.zeros(n, HAND_DTYPE), np.zeros((n, 20), np.int8))
    rows, plays = scratch[name]
    return rows[:n], plays[:n]


def _python_seats(spec, chunk, pyfns):
    """loops/slow.py's run_hands and run_games for a chunk with Python seats, as the jitted ones are called.

    A Python seat's stop (``slow.Failed``) becomes the run's one line at
    once: the decision is known, so the chunk is not played again to find it.
    """
    from euchresim.loops import slow
    from euchresim.run.blame import FailedDecision

    def stopped(f, rows, plays):
        decision = FailedDecision(f.seat, f.phase, f.legal, action=f.action, error=f.error, where=f.where)
        return SimError(_policy_error(spec, chunk, f.at, rows[f.at], plays[f.at], decision))

    def hands(tab, n, drng, prng, pids, params, fns, rows, plays, chunk_, counts):
        try:
            return slow.run_hands(tab, n, drng, prng, pids, params, fns, pyfns, rows, plays, chunk_, counts)
        except slow.Failed as f:
            raise stopped(f, rows, plays) from None

    def games(tab, ngames, nrub, drng, prng, pids, params, fns, rows, plays, games_, rubbers, chunk_, start):
        try:
            return slow.run_games(tab, ngames, nrub, drng, prng, pids, params, fns, pyfns, rows, plays, games_,
                                  rubbers, chunk_, start)
        except slow.Failed as f:
            raise stopped(f, rows, plays) from None
    return hands, games


def _policy_error(spec, chunk, at, row, plays, decision=None) -> str:
    """One line: whose policy, at which decision, in which hand (the hand record up to it).

    The row holds the hand up to the refused action, so replaying it
    stops at that very decision: its state names the seat and the phase.
    """
    from euchresim.engine.layout import PHASE, PHASE_NAMES, TO_ACT
    from euchresim.records.rows import row_record
    from euchresim.records.format import format_record
    from euchresim.loops.record_steps import replay_record, replay_states
    from euchresim.engine.tables import build_tables
    names = spec.policies.names
    rec, _ = row_record(spec.rules, row, plays)
    _, states = replay_states([rec], build_tables(spec.rules))
    seat, phase = int(states[0][TO_ACT]), PHASE_NAMES[int(states[0][PHASE])]
    who = f"seat {seat}'s policy {names[seat]!r}" if 0 <= seat < len(names) else f"a policy ({', '.join(names)})"
    obj = format_record(rec)
    where = replay_record(obj).get("error", "")          # the replay's own words for where the hand stands
    from euchresim.run import blame                      # the chunk played again: what the policy returned or raised
    if decision is None:
        decision = blame.failing_decision(spec, chunk, at, row, chunk_states)
    who, did, detail = blame.line(decision, names) or (
        who, "made an illegal move", "")
    return (f"chunk {chunk}, hand {at}: {who} {did} at its {phase!r} decision{': ' + detail if detail else ''} "
            f"({where}); the hand so far: " + json.dumps(obj, separators=(",", ":")))


# ---------------------------------------------------------------- tallies
def tally(res: ChunkResult, players: int) -> dict:
    """Integer counts of one chunk; they add up exactly across chunks."""
    from euchresim.loops.tally import tally_hands
    out = res.counts
    if out is None:
        out = np.zeros(TALLY_SIZE, np.int64)
        tally_hands(res.hands, players, out)
    c = {name: int(out[i]) for i, name in enumerate(tally_names(players)) if name}
    if res.groups:                     # play_chunk's cells of spec.groups: lists that merge elementwise
        c["groups"] = res.groups
    g = res.games
    if len(g):
        c["games"] = len(g)
        _sum_and_squares(c, "game_hands", g["hands"])
        c["bridge"] = int(g["bridge"].sum())
        shared = np.array([bin(int(w)).count("1") for w in g["winners"]])
        c["shared_wins"] = int((shared > 1).sum()) if players == 3 else 0
        first = g["first_dealer"].astype(np.int64)
        for p in range(players):
            seat = (first + p) % players
            c[f"wins_pos{p}"] = int(((g["winners"].astype(np.int64) >> seat) & 1).sum())
    r = res.rubbers
    if len(r):
        c["rubbers"] = len(r)
        _sum_and_squares(c, "rubber_margin", r["margin"])
        c["rubber_games"] = int(r["games"].sum())
        c["rubber_side0"] = int((r["winner_side"] == 0).sum())
    return c


def _sum_and_squares(c: dict, name: str, values) -> None:
    """``name`` and ``name_sq``: what analysis needs for a mean and its interval."""
    v = values.astype(np.int64)
    c[name] = int(v.sum())
    c[name + "_sq"] = int((v * v).sum())


def tally_names(players: int) -> list[str]:
    """Names of ``loops.tally.tally_row``'s slots ('' for slots unused with this many players).

    Read from the declaration the kernel writes by (engine.layout.TALLY and
    its blocks).  ``dealer_edge`` is, per hand, ``players`` times the
    dealer's points less all seats' points: the dealer's side's edge over the
    other side (with 3 players over the mean opponent), once with 2 players
    and twice with 3 or 4; ``side_diff`` seat 0's points less seat 1's (2 and
    4 players); ``maker_points`` and ``defender_points`` are per made hand.
    """
    names = [""] * TALLY_SIZE
    for name, at in TALLY_FIXED_SLOTS.offsets().items():
        if not (players == 3 and name.startswith("side_diff")):
            names[TALLY_FIXED + at] = name
    for block, start in ((TALLY_POS_SLOTS, TALLY_POS), (TALLY_SEAT_SLOTS, TALLY_SEAT)):
        for p in range(players):          # a position or a seat past ``players``: no name
            for name, at in block.offsets().items():
                names[start + block.size * p + at] = f"{name}{p}"
    return names


# ---------------------------------------------------------------- running
@dataclass(frozen=True)
class Outputs:
    """Where a run writes; all optional.

    ``parquet`` is a folder: a partitioned dataset, one file per chunk
    (run/folder.py).  ``records`` may be ``"-"``: standard output.
    ``checkpoint`` keeps only the chunks' tallies, so a run that writes no
    rows can still be stopped and resumed.
    """
    parquet: str | None = None
    records: str | None = None
    checkpoint: str | None = None

    @property
    def records_file(self) -> str | None:
        return None if self.records in (None, "-") else self.records

    @property
    def parts_dir(self) -> str | None:
        """The run folder: the dataset itself, else the records' parts, else the checkpoint."""
        if self.parquet:
            return self.parquet
        if self.records_file:
            return self.records_file + ".parts"
        return self.checkpoint

    @property
    def keeps_rows(self) -> bool:
        return self.parquet is not None or self.records is not None

    def check(self, resume: bool) -> None:
        """The combinations that would lose chunks, refused here so that a library caller gets them too."""
        if resume and self.records == "-":
            raise SimError("--resume cannot continue records sent to standard output; write them to a file")
        if self.checkpoint and (self.parquet or self.records_file):
            raise SimError("--checkpoint is for runs that write no files; --out and --records keep their own")
        if resume and not self.parts_dir:
            raise SimError("--resume has nothing to continue: give the --out, --records or --checkpoint "
                           "the stopped run was given")


_SCRATCH: dict = {}   # this process's reusable row buffers (see play_chunk)


def chunk_payload(spec: RunSpec, chunk: int, outputs: Outputs):
    """Play one chunk: (chunk, tally, records text for stdout or None, {file kind: bytes})."""
    from euchresim.records.rows import parquet_bytes, records_lines
    res = play_chunk(spec, chunk, _SCRATCH, keep_rows=outputs.keeps_rows)
    counts = tally(res, spec.rules.players)
    text = None
    files = {}
    if outputs.records is not None:
        text = "".join(line + "\n" for line in records_lines(spec.rules, res))
        if outputs.records_file:
            files["records"], text = text.encode(), None
    if outputs.parquet:
        files["parquet"] = parquet_bytes(res, spec.meta())
    return chunk, counts, text, files


@dataclass(frozen=True)
class SimulateJob(Job):
    """``simulate`` as a job of the one runner (run/jobs.py): a chunk's tally, rows and records."""
    spec: RunSpec
    outputs: Outputs

    @property
    def n_chunks(self) -> int:
        return self.spec.n_chunks

    def header(self) -> dict:
        return dict(self.spec.meta(), outputs={"parquet": self.outputs.parquet, "records": self.outputs.records_file})

    def play(self, chunk: int) -> Played:
        _, counts, text, files = chunk_payload(self.spec, chunk, self.outputs)
        return Played(counts, files, text)


def default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def run(spec: RunSpec, workers: int | None = None, outputs: Outputs | None = None,
        resume: bool = False, on_chunk: Callable[[int, int], None] | None = None,
        pool=None, force: bool = False, stdout=None, backend: str = "local", address: str | None = None,
        before_play: Callable[[], None] | None = None) -> dict:
    """Play every chunk and return the merged tallies.

    ``backend`` "local" plays chunks in this machine's processes (``pool``,
    from :func:`worker_pool`, reuses them across runs; one worker: this
    process); "ray" on a Ray cluster at ``address`` (a local one if None).
    The numbers are the same either way.

    ``on_chunk(done, total)`` is called as chunks finish.  On Ctrl-C the
    workers are stopped at once (a chunk in play is dropped, never half
    kept), the finished chunks stay in the run folder (if any), and
    :class:`euchresim.run.jobs.RunStopped` carries their merged ``partial`` tally and how many
    are ``done``.  ``force`` starts over where the folder of another run is
    in the way.  Records for standard output (``outputs.records == "-"``)
    go to ``stdout`` in chunk order.
    """
    outputs = outputs or Outputs()
    outputs.check(resume)
    out = run_job(SimulateJob(spec, outputs), workers=workers or default_workers(), folder=outputs.parts_dir,
                  resume=resume, force=force, backend=backend, address=address, pool=pool, on_chunk=on_chunk,
                  stdout=stdout, joins={"records": outputs.records_file}, before_play=before_play,
                  keep_folder=outputs.parquet is not None or outputs.checkpoint is not None)
    return out.counts


def worker_pool(workers: int):
    """Worker processes for ``run(pool=...)``: several runs, one start-up (forked, so they
    inherit the kernels the parent already loaded)."""
    from euchresim.run.backends.local import WorkerPool
    return WorkerPool(workers)
