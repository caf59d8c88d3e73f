"""Duplicate matches between two policies: the same deals, the seats swapped.

Card luck is most of the variance of a Euchre result.  A duel plays every
*deal sequence* once per seating ("arrangement") of the two policies, so a
good hand dealt to seat 0 helps A in one arrangement and B in another and
cancels out of the difference; what is left is mostly the policies' skill.

The deal sequence is a chunk of run/runner.py: the deals a chunk plays depend only
on (seed, chunk), never on the policies, and its hands consume the deal
stream one after another.  A chunk of one game (the default) therefore
plays every hand of its game on the same deals in every arrangement, up to
the hand where the shorter game ends; with several games per chunk only the
first is dealt alike.  The chunk is the pairing unit of the statistics.

Only numpy here: the click commands are in cli/match.py, the ratings of
several policies in ladder.py, the text they print in match_text.py.  Every number depends only on the seed, the
rules, the two policies and the games per chunk, never on the workers: each
unit's results come back tagged with its number and are summed in order.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from euchresim.rules import Rules
from euchresim.run.jobs import Job, Played, run_job
from euchresim.stats import Z95, normal_interval

MAX_BATCH = 4           # pairing units per worker job: a slow policy's progress still moves (jobs cost ~0.1 ms)

UNIT_DTYPE = np.dtype([("unit", np.int64), ("arr", np.int8), ("games", np.int32), ("a_wins", np.float64),
                       ("points", np.float64), ("hands", np.int64)])
# a deal in OpenSpiel's euchre also times each side: seconds and decisions (the only numbers no seed fixes)
OPENSPIEL_DTYPE = np.dtype(UNIT_DTYPE.descr + [("a_seconds", np.float64), ("a_decisions", np.int64),
                                               ("b_seconds", np.float64), ("b_decisions", np.int64)])


def arrangements(players: int) -> tuple[str, ...]:
    """Which policy sits at each seat, one string per arrangement ("ABAB": A at seats 0 and 2).

    4 players: the two partnerships, then swapped.  2 players: A,B then B,A.
    3 players (every player for himself): all six mixed seatings, three with
    one A seat and three with two, so each seat is played by A in exactly
    half of them and equal policies win half the games by symmetry.
    """
    if players == 4:
        return ("ABAB", "BABA")
    if players == 2:
        return ("AB", "BA")
    if players == 3:
        return ("ABB", "BAB", "BBA", "BAA", "ABA", "AAB")
    raise ValueError(f"players must be 2, 3 or 4, not {players}")


@dataclass(frozen=True)
class DuelSpec:
    """What a duel plays; with the seed it fixes every number.

    ``a`` and ``b``: each a ``policies.Seats`` read where its name entered
    (``policies.seats(["best"], 4)`` in a script), which becomes its
    canonical name, or one of OpenSpiel's bots by name
    (``openspiel:ismcts:sims=1000``); ``models`` holds each side as read
    (None for OpenSpiel's), so ``run_spec`` reads no name again.  An
    OpenSpiel duel's sides are played by name, by interop.  The duel
    plays deal sequences ``first_deal`` .. ``first_deal + deals - 1`` of the
    seed (a ladder gives each pair its own range, so the pairs are
    independent); each is a chunk of ``chunk_size`` games.

    ``openspiel`` (set whenever A or B is one of OpenSpiel's bots, and by a
    ladder for every pair of a ladder with one) plays the duel in
    OpenSpiel's euchre, one hand a game: a deal sequence is one deal
    (interop/openspiel_match.py).
    """
    rules: Rules
    a: object                      # a policies.Seats, or one of OpenSpiel's bots by name; its canonical name once made
    b: object
    seed: int = 0
    deals: int = 100
    chunk_size: int = 1
    first_deal: int = 0
    start_score: tuple = ()        # every game starts at this score (seat 0's side first): RunSpec.start_score
    openspiel: bool = False
    models: tuple | None = field(default=None, compare=False, repr=False)   # (A, B) as read: policies.Seats

    def __post_init__(self):
        from euchresim.interop.openspiel_match import game_params, is_openspiel, parse as openspiel_bot
        from euchresim.policies import PolicyError, handed
        models = list(self.models or (None, None))
        for k, side in enumerate(("a", "b")):
            x = getattr(self, side)
            if isinstance(x, str) and is_openspiel(x):
                object.__setattr__(self, side, openspiel_bot(x).name)     # OpenSpiel's bot, its settings written out
                models[k] = None
                continue
            table = handed(models[k] if isinstance(x, str) and models[k] is not None else x, self.rules.players,
                           f"DuelSpec({side}=...)")
            if len(set(table.names)) != 1:
                raise PolicyError(f"DuelSpec({side}=...): {table.text}: a side plays one policy at every seat")
            if isinstance(x, str) and x != table.names[0]:
                raise PolicyError(f"DuelSpec({side}={x!r}): its model plays {table.names[0]}")
            models[k] = table
            object.__setattr__(self, side, table.names[0])
        object.__setattr__(self, "models", tuple(models))
        object.__setattr__(self, "start_score", tuple(self.start_score) if any(self.start_score) else ())
        if self.deals < 1:
            raise ValueError("a duel needs at least one deal sequence")
        if self.chunk_size < 1:
            raise ValueError("games per deal sequence must be at least 1")
        if is_openspiel(self.a) or is_openspiel(self.b):
            object.__setattr__(self, "openspiel", True)
        if self.openspiel:
            game_params(self.rules)            # a one-line ValueError for rules OpenSpiel has no game for
            if self.chunk_size != 1:
                raise ValueError("an OpenSpiel game is one hand: a deal is played once a seating "
                                 f"(--chunk-size 1), not {self.chunk_size} games")
            if self.start_score:
                raise ValueError("an OpenSpiel game is one hand, with no score to start from (--start-score)")

    @property
    def dtype(self) -> np.dtype:
        return OPENSPIEL_DTYPE if self.openspiel else UNIT_DTYPE

    @property
    def seatings(self) -> tuple[str, ...]:
        return arrangements(self.rules.players)

    @property
    def games(self) -> int:
        return self.deals * len(self.seatings) * self.chunk_size

    def run_spec(self, k: int):
        """The run of arrangement k: its chunk i is deal sequence i of every arrangement."""
        from euchresim.policies import Seats
        from euchresim.run.runner import RunSpec
        a, b = self.models
        table = Seats(tuple((a if c == "A" else b).policies[s] for s, c in enumerate(self.seatings[k])))
        return RunSpec(rules=self.rules, policies=table, seed=self.seed, mode="games",
                       count=(self.first_deal + self.deals) * self.chunk_size, chunk_size=self.chunk_size,
                       start_score=self.start_score)


def deals_for(games: int, players: int, chunk_size: int = 1) -> int:
    """Deal sequences for at least ``games`` games: whole units, so every deal is played in every seating."""
    per = len(arrangements(players)) * chunk_size
    return max(1, -(-games // per))


# ---------------------------------------------------------------- playing
def play_unit(spec: DuelSpec, unit: int) -> list:
    """The ChunkResult of every arrangement of one deal sequence (``unit`` counts from ``first_deal``)."""
    from euchresim.run.runner import play_chunk
    return [play_chunk(spec.run_spec(k), spec.first_deal + unit) for k in range(len(spec.seatings))]


def unit_rows(spec: DuelSpec, unit: int, results) -> np.ndarray:
    """One UNIT_DTYPE row per arrangement: A's share of the game wins, A's points less B's, hands.

    A game's win is one credit, split equally among its winning seats (a
    shared Cutthroat win, R12 ``shared``/a tie, gives half to each), so A's
    credit plus B's is the number of games.  A hand's points are the mean
    over A's seats less the mean over B's: with 4 players the partnerships'
    points, with 3 (one seat against two) the fair comparison of one seat
    with the average of the others.
    """
    players = spec.rules.players
    out = np.zeros(len(results), UNIT_DTYPE)
    for k, res in enumerate(results):
        seats = spec.seatings[k]
        a_mask = np.array([c == "A" for c in seats])
        winners = res.games["winners"].astype(np.int64)
        won = np.stack([(winners >> s) & 1 for s in range(players)], axis=1).astype(np.float64)
        credit = (won[:, a_mask].sum(axis=1) / won.sum(axis=1)).sum()
        pts = np.stack([res.hands[f"points{s}"] for s in range(players)], axis=1).astype(np.float64)
        diff = pts[:, a_mask].mean(axis=1) - pts[:, ~a_mask].mean(axis=1)
        out[k] = (unit, k, len(res.games), credit, diff.sum(), len(res.hands))
    return out


def openspiel_rows(spec: DuelSpec, unit: int, game=None) -> np.ndarray:
    """One OPENSPIEL_DTYPE row per arrangement of one deal played in OpenSpiel's euchre: a game is its one hand.

    A's game win is the hand's: one credit to the side that scored, half
    each for a hand thrown in (no points).
    """
    from euchresim.interop.openspiel_match import load_game, play_deal
    game = game or load_game(spec.rules)
    out = np.zeros(len(spec.seatings), OPENSPIEL_DTYPE)
    for k, seating in enumerate(spec.seatings):
        a, b = (m if m is not None else x for m, x in zip(spec.models, (spec.a, spec.b)))    # as read
        ret, a_s, a_n, b_s, b_n = play_deal(game, a, b, seating, spec.seed, spec.first_deal + unit)
        credit = 1.0 if ret > 0 else 0.0 if ret < 0 else 0.5
        out[k] = (unit, k, 1, credit, ret, 1, a_s, a_n, b_s, b_n)
    return out


def _batch_job(args):
    """A worker's job: several consecutive units, every arrangement of each."""
    spec, units = args
    if spec.openspiel:
        from euchresim.interop.openspiel_match import load_game
        game = load_game(spec.rules)
        return np.concatenate([openspiel_rows(spec, u, game) for u in units])
    return np.concatenate([unit_rows(spec, u, play_unit(spec, u)) for u in units])


def batch_size(deals: int) -> int:
    """Units a chunk plays: a slow policy's progress still moves, and the size is fixed by the deals alone
    (never by the workers), so a stopped duel resumes into the very same chunks."""
    return max(1, min(MAX_BATCH, -(-deals // 16)))


class DuelJob(Job):
    """A duel as a job of the one runner: a chunk is a few consecutive deal sequences, its rows as bytes."""

    def __init__(self, spec: DuelSpec):
        self.spec = spec
        self.size = batch_size(spec.deals)
        self.n_chunks = -(-spec.deals // self.size)
        self.stop_label = "deal sequence"

    def units(self, chunk: int) -> list:
        return list(range(chunk * self.size, min((chunk + 1) * self.size, self.spec.deals)))

    def header(self) -> dict:
        s = self.spec
        return {"duel": [s.a, s.b], "rules": s.rules.to_dict(), "seed": s.seed, "deals": s.deals,
                "chunk_size": s.chunk_size, "first_deal": s.first_deal, "batch": self.size,
                **({"game": "openspiel euchre"} if s.openspiel else {}),
                **({"start_score": list(s.start_score)} if s.start_score else {})}

    def label(self, chunk: int) -> int:
        return self.spec.first_deal + chunk * self.size

    def play(self, chunk: int) -> Played:
        rows = _batch_job((self.spec, self.units(chunk)))
        return Played({"games": int(rows["games"].sum())}, {"result": rows.tobytes()})


def rows_of(parts, dtype=UNIT_DTYPE) -> np.ndarray:
    """Chunks' row bytes as one array sorted by (unit, arrangement)."""
    rows = np.concatenate([np.frombuffer(b, dtype) for b in parts]) if parts else np.zeros(0, dtype)
    return rows[np.lexsort((rows["arr"], rows["unit"]))]


def play_rows(spec: DuelSpec, workers: int = 1, pool=None,
              on_progress: Callable[[int, int], None] | None = None, folder: str | None = None,
              resume: bool = False, force: bool = False, backend: str = "local",
              address: str | None = None) -> np.ndarray:
    """Every unit's rows, sorted by (unit, arrangement) whatever order the workers finish in.

    The duel runs on the one runner (run/jobs.py): a worker that dies is
    replaced and its chunk replayed, Ctrl-C stops them all (``RunStopped``
    carries the finished chunks' rows), and with a ``folder`` finished chunks
    are kept and ``resume`` plays the rest.  ``on_progress(games done,
    games in all)`` after each chunk.
    """
    job = DuelJob(spec)
    per_unit = len(spec.seatings) * spec.chunk_size

    def progress(done, total):
        if on_progress:
            on_progress(min(done * job.size, spec.deals) * per_unit, spec.games)
    out = run_job(job, workers=workers, folder=folder, resume=resume, force=force, backend=backend,
                  address=address, pool=pool, on_chunk=progress, collect=("result",))
    return rows_of(out.files["result"], spec.dtype)


def partial(spec: DuelSpec, stop) -> dict | None:
    """The duel's numbers over the deal sequences a stopped run finished (every seating of each), or None."""
    done = sorted(stop.files.get("result", {}))
    if not done:
        return None
    rows = rows_of([stop.files["result"][c] for c in done], spec.dtype)
    units = sorted(set(rows["unit"].tolist()))
    part = DuelSpec(spec.rules, spec.a, spec.b, seed=spec.seed, deals=len(units), chunk_size=spec.chunk_size,
                    first_deal=spec.first_deal, start_score=spec.start_score, openspiel=spec.openspiel,
                    models=spec.models)
    rows = rows.copy()
    rows["unit"] = np.searchsorted(np.array(units), rows["unit"])
    return summarize(part, rows)


# ---------------------------------------------------------------- statistics
def paired_win_rate(d, games_per_unit: int) -> tuple[float, float]:
    """A's game win rate and its standard error from the units' paired differences.

    ``d[u]`` is A's win credit less B's over unit u's ``games_per_unit``
    games.  Every game gives one credit to A or B, so A's rate is
    1/2 + mean(d) / (2m) with m the games per unit; its standard error is
    sd(d) / (2m sqrt(n)) (sample sd, n - 1), the units being independent
    and the games within one unit not (they share the deals: that is the
    point).  With fewer than two units the error is NaN.
    """
    d = np.asarray(d, dtype=np.float64)
    n = len(d)
    rate = 0.5 + d.mean() / (2 * games_per_unit)
    se = d.std(ddof=1) / (2 * games_per_unit * math.sqrt(n)) if n > 1 else math.nan
    return float(rate), float(se)


def ratio_of_sums(x, h) -> tuple[float, float]:
    """sum(x) / sum(h) and its delta-method standard error, over independent units.

    Points per hand weights each unit by its hands (a long game says more
    than a short one), so it is the ratio R = sum x / sum h, not a mean of
    ratios.  Linearised: se(R) = sqrt(sum (x - R h)^2 / (n (n - 1))) / mean(h).
    """
    x = np.asarray(x, dtype=np.float64)
    h = np.asarray(h, dtype=np.float64)
    n = len(x)
    r = x.sum() / h.sum()
    se = math.sqrt(((x - r * h) ** 2).sum() / (n * (n - 1))) / h.mean() if n > 1 else math.nan
    return float(r), float(se)


def interval(est: float, se: float, z: float = Z95) -> tuple[float, float]:
    """The normal interval est -/+ z se (NaN ends when se is)."""
    return normal_interval(est, se, z)


def summarize(spec: DuelSpec, rows: np.ndarray) -> dict:
    """The duel's numbers from its sorted unit rows (play_rows).

    The win rate's interval is cut to 0..1: a normal interval near a sweep
    reaches past it, and a rate cannot.
    """
    k = len(spec.seatings)
    by_unit = rows.reshape(spec.deals, k)
    games = by_unit["games"].sum(axis=1)
    credit = by_unit["a_wins"].sum(axis=1)
    d = 2 * credit - games
    per_unit = k * spec.chunk_size
    rate, rate_se = paired_win_rate(d, per_unit)
    pph, pph_se = ratio_of_sums(by_unit["points"].sum(axis=1), by_unit["hands"].sum(axis=1))
    return {
        "a": spec.a, "b": spec.b, "rules": spec.rules.to_dict(), "seed": spec.seed,
        "chunk_size": spec.chunk_size, "first_deal": spec.first_deal, "arrangements": list(spec.seatings),
        **({"start_score": list(spec.start_score)} if spec.start_score else {}),
        "deals": spec.deals, "games": int(games.sum()), "hands": int(rows["hands"].sum()),
        "a_wins": float(credit.sum()),
        "a_win_rate": rate, "a_win_rate_se": rate_se,
        "a_win_rate_ci": [min(max(x, 0.0), 1.0) for x in interval(rate, rate_se)],
        "points_per_hand": pph, "points_per_hand_se": pph_se, "points_per_hand_ci": list(interval(pph, pph_se)),
        **(_openspiel_numbers(spec, rows) if spec.openspiel else {}),
    }


def _openspiel_numbers(spec: DuelSpec, rows: np.ndarray) -> dict:
    """What a duel in OpenSpiel's euchre adds: its game, each side's ms a decision, whether a rerun repeats it."""
    from euchresim.interop.openspiel_match import is_openspiel, parse

    def ms(side):
        n = int(rows[f"{side}_decisions"].sum())
        return 1000 * float(rows[f"{side}_seconds"].sum()) / n if n else math.nan
    random_sides = [x for x in (spec.a, spec.b) if is_openspiel(x) and not parse(x).deterministic]
    return {"game": "openspiel euchre", "ms_per_decision": {"a": ms("a"), "b": ms("b")},
            "deterministic": not random_sides}


def duel(spec: DuelSpec, workers: int = 1, pool=None, on_progress=None, **run_options) -> dict:
    """Play a duel and return its numbers (:func:`summarize`); ``run_options`` go to :func:`play_rows`
    (folder, resume, force, backend, address)."""
    return summarize(spec, play_rows(spec, workers, pool, on_progress, **run_options))
