"""The advisor: one seat's decision in one hand, every option played out on the deals the seat cannot rule out.

A ``Situation`` is what the seat knows: the rules, who deals, its own
cards, the upcard, the calls and cards so far, the score.  It is built (studies/advisor/situation.py)
from a player's description (``from_hand``) or from a hand record cut at
a decision (``from_record``); ``advise`` then samples deals consistent with
it (``loops.advisor_kernels``: uniform, narrowed by rejection to those on which the
hand so far could have happened and, with inference, on which the other
seats' policies would have called as they did), plays every option on each
(paired), and stops once the best option is separated from the rest by the
sequential rule of ``stats.sequential_z``, or at ``samples``.  The rule
never looks before ``MIN_STOP_DEALS`` deals (a few dozen deals of a search
bot give intervals a point wide), and what it separates is the caller's
measure of an option (``value``: the game's P(win) when the score decides,
the net points by default).

Batches of samples are chunks of the one runner (``run.jobs``): batch b
draws from the streams of chunk b of the seed, so the numbers depend on
the seed and the samples played, never on the workers or the backend.  The
table a player reads (points, P(win), intervals) is made from these
arrays in ``analysis.advisor_table``.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field

import numpy as np

from euchresim.run.errors import SimError
from euchresim.run.jobs import Job, Played, run_job
from euchresim.run.runner import chunk_states
from euchresim.stats import sequential_z
from euchresim.engine.tables import cached_tables
# what a situation is, and how one is built (studies/advisor/situation.py): the advisor's vocabulary, named here too
from euchresim.studies.advisor.situation import AdviceError, Options, Situation, policy_arrays, decision_of, seat_name

MAX_TRIES_PER_SAMPLE = 2000     # tries at a consistent deal, per sample asked for, before the advisor gives up
MIN_ALPHA = 1e-12               # below it 1 - alpha / (options x looks) rounds to 1 and no z exists
MIN_STOP_DEALS = 100            # no look before this many deals: a stop on a handful of deals is luck
# the chance the inference model gives a seat of straying from its policy's call (loops/advisor_kernels.py): people
# make calls no bot makes, and a model that never strays leaves no deal for them; pimc's infer_eps default too
STRAY = 0.1


@dataclass
class Samples:
    """The kept deals of some batches: per deal, each option's points for every seat (paired)."""
    points: np.ndarray          # int64[n, k, 4]
    maker: np.ndarray           # int64[n, k]: -1 thrown in
    tricks: np.ndarray          # int64[n, k]: the makers' tricks, -1 thrown in
    chosen: np.ndarray          # int64[n, 2]: the seat's policy's own action and alone call
    deals: np.ndarray           # int64[n, 6]: 4 hands as dealt, dummy, kitty
    tries: int = 0

    def __len__(self):
        return len(self.points)


def _to_bytes(s: Samples) -> bytes:
    buf = io.BytesIO()
    np.savez(buf, points=s.points, maker=s.maker, tricks=s.tricks, chosen=s.chosen, deals=s.deals, tries=np.int64(s.tries))
    return buf.getvalue()


def _from_bytes(b: bytes) -> Samples:
    with np.load(io.BytesIO(b)) as z:
        return Samples(z["points"], z["maker"], z["tricks"], z["chosen"], z["deals"], int(z["tries"]))


def _concat(parts: list[Samples]) -> Samples:
    k = parts[0].points.shape[1] if parts else 0
    if not parts:
        return Samples(np.zeros((0, k, 4), np.int64), np.zeros((0, k), np.int64), np.zeros((0, k), np.int64),
                       np.zeros((0, 2), np.int64),
                       np.zeros((0, 6), np.int64), 0)
    return Samples(np.concatenate([p.points for p in parts]), np.concatenate([p.maker for p in parts]),
                   np.concatenate([p.tricks for p in parts]),
                   np.concatenate([p.chosen for p in parts]), np.concatenate([p.deals for p in parts]),
                   sum(p.tries for p in parts))


def _head(s: Samples, n: int) -> Samples:
    """The first ``n`` deals: batches are whole, the deals asked for need not be."""
    if len(s) <= n:
        return s
    return Samples(s.points[:n], s.maker[:n], s.tricks[:n], s.chosen[:n], s.deals[:n], s.tries)


class AdviseJob(Job):
    """Batches ``first .. first + count - 1`` of one situation's samples, as chunks of the one runner."""
    stop_label = "batch"

    def __init__(self, sit: Situation, decision: Options, policy, infer: bool, batch: int, seed: int,
                 first: int, count: int, infer_policy=None, stray: float = STRAY):
        self.sit, self.decision, self.policy, self.infer = sit, decision, policy, infer
        self.batch, self.seed, self.first, self.n_chunks = batch, seed, first, count
        self.infer_policy, self.stray = infer_policy, stray

    def header(self) -> dict:
        return {"advise": repr(self.sit), "policy": _text(self.policy), "infer": self.infer, "batch": self.batch,
                "seed": self.seed, "first": self.first, "infer_policy": _text(self.infer_policy),
                "stray": self.stray}

    def label(self, chunk: int) -> int:
        return self.first + chunk

    def play(self, chunk: int) -> Played:
        return Played({}, {"result": _to_bytes(play_batch(self.sit, self.decision, self.policy, self.infer,
                                                          self.batch, self.seed, self.first + chunk,
                                                          self.infer_policy, self.stray))})


def _text(policy) -> str:
    """A policy as a job's header names it: a Seats by its canonical text."""
    return policy.text if hasattr(policy, "text") else str(policy)


def play_batch(sit: Situation, decision: Options, policy, infer: bool, n: int, seed: int, batch: int,
               infer_policy=None, stray: float = STRAY) -> Samples:
    """Batch ``batch`` of ``n`` kept deals (the streams of chunk ``batch`` of ``seed``).

    ``infer_policy`` (default ``policy``) is what the other seats' calls are
    evidence of, and who makes the discard or keep the seat did not see.
    Both as read (a ``policies.Seats``), as ``advise`` hands them on.
    """
    from euchresim.loops.advisor_kernels import POLICY_ERROR, SCRIPT_ERROR, play_options
    players = sit.rules.players
    pids, params, fns, _ = policy_arrays(policy, players)
    ipids, iparams, ifns, _ = policy_arrays(infer_policy or policy, players)
    drng, prng = chunk_states(seed, batch)
    k = len(decision.options)
    points = np.zeros((n, k, 4), np.int64)
    maker = np.zeros((n, k), np.int64)
    tricks = np.zeros((n, k), np.int64)
    chosen = np.zeros((n, 2), np.int64)
    deals = np.zeros((n, 6), np.int64)
    kept, tries, err = play_options(cached_tables(sit.rules), *sit.arrays(), np.int64(1 if infer else 0),
                                    float(stray), ipids, iparams, ifns, pids, params, fns, drng, prng, np.int64(n), np.int64(MAX_TRIES_PER_SAMPLE * n),
                                    decision.options, points, maker, tricks, chosen, deals)
    if err == -SCRIPT_ERROR:
        raise AdviceError(f"the calls and cards given do not lead to a decision of {seat_name(sit)}")
    if err == -POLICY_ERROR:
        raise SimError(f"policy {_text(policy)}: an illegal discard or dummy keep for a seat the advisor modelled")
    if err:
        raise SimError(f"policy {_text(policy)} made an illegal move in a played-out option (engine error {int(err)})")
    if kept < n:
        raise AdviceError(f"only {int(kept)} of {int(tries)} deals fit what the seat knows"
                          + (" and the calls heard" if infer else "")
                          + ": the calls or cards given are (nearly) impossible")
    return Samples(points, maker, tricks, chosen, deals, int(tries))


def _cost(policy):
    """What a hand of the advisor's policy costs, as declared (``policies.Cost``): the table as read."""
    return policy.cost


def default_batch(policy) -> int:
    """Deals a batch, as the policy's declaration gives it (``policies.Cost.batch``): few for a search bot."""
    return _cost(policy).batch


def default_workers(policy) -> int:
    """Every core for the search bots; one for the fast bots, whose answer is quicker than a process pool."""
    from euchresim.run.runner import default_workers as all_cores
    return all_cores() if _cost(policy).searches else 1


def default_model_hands(policy) -> int:
    """Hands behind the P(win) model (analysis.advisor_table.win_model): fewer for the search bots, at ms a hand."""
    return 2_000 if _cost(policy).searches else 20_000


def default_samples(policy) -> int:
    """Samples an answer plays at most: fewer for the search bots, at ms a decision."""
    return 500 if _cost(policy).searches else 10_000


def look_schedule(max_batches: int, first: int = 1) -> list[int]:
    """The cumulative batch counts at which the stopping rule looks: first, 2 first, 4 first, ... and the last.

    Fixed in advance, so the union bound of ``stats.sequential_z`` holds.
    """
    out, b = [], max(1, first)
    while b < max_batches:
        out.append(b)
        b *= 2
    out.append(max_batches)
    return out


@dataclass
class Advice:
    """A decision's samples and how the sampling stopped.

    ``stopped``: "separated" (the best option stood apart), "equal" (every
    option gave the same on every deal), "samples" (the limit, not
    separated) or "fixed" (no early stop was asked for).  ``looks`` is the
    schedule's length: the intervals shown hold at every look at once.
    """
    situation: Situation
    decision: Options
    policy: str
    samples: Samples
    stopped: str
    alpha: float
    looks: int
    infer: bool
    seed: int
    name: str = ""              # the policy as the caller named it (heuristic:human), where ``policy`` is canonical
    seats: object = field(default=None, compare=False)     # the policies.Seats that played, read once

    @property
    def cheats(self) -> bool:
        """Whether the model sees every hand (dd): its values bound a fair player's."""
        return self.seats is not None and self.seats.cheats

    @property
    def shown(self) -> str:
        """The policy as a reader knows it: the name given, not its parameter string."""
        return self.name or self.policy


def separated(values: np.ndarray, z: float) -> bool:
    """Is the option with the best mean above every other by more than ``z`` paired standard errors?

    An option equal to the best on every deal so far (two equivalent cards)
    is no rival: no number of samples could separate them.
    """
    n, k = values.shape
    if k < 2:
        return True
    if n < 2:
        return False
    best = int(np.argmax(values.mean(axis=0)))
    for j in range(k):
        if j == best:
            continue
        d = values[:, best] - values[:, j]
        if not d.any():
            continue            # the same on every deal (equivalent cards): a tie, not a rival
        sd = d.std(ddof=1)
        if not d.mean() - z * sd / np.sqrt(n) > 0:
            return False
    return True


def all_equal(values: np.ndarray) -> bool:
    """Does every option give the same on every deal (nothing to choose, however many deals)?"""
    return len(values) > 0 and bool((values == values[:, :1]).all())


def net_points(points: np.ndarray, seat: int, players: int) -> np.ndarray:
    """The seat's side's points less the other side's (Cutthroat, 2-hand: less the mean of the others)."""
    own = points[..., seat]
    if players == 4:
        return own - points[..., (seat + 1) % 4]
    others = [s for s in range(players) if s != seat]
    return own - points[..., others].mean(axis=-1)


def check_settings(samples: int | None = None, alpha: float = 0.05, stray: float = STRAY) -> None:
    """The answer's numbers, each refused in one line (an AdviceError) before any work: ``advise`` asks this,
    and the command line asks it first, so that a typo is refused before a compile notice."""
    if samples is not None and samples < 1:
        raise AdviceError(f"--samples {samples}: at least 1")
    if not MIN_ALPHA <= alpha < 1:
        raise AdviceError(f"--alpha {alpha:g}: an error rate from {MIN_ALPHA:g} up to (not including) 1")
    if not 0.0 <= stray < 0.5:
        raise AdviceError(f"--stray {stray:g}: a chance from 0 up to (not including) 0.5")


def advise(sit: Situation, policy, samples: int | None = None, batch: int | None = None,
           seed: int = 0, infer: bool = True, alpha: float = 0.05, workers: int = 1, backend: str = "local",
           address: str | None = None, on_batch=None, stop: bool = True, infer_policy=None,
           value=None, stray: float = STRAY, name: str = "") -> Advice:
    """Sample and play out ``sit``'s options until the best stands apart (module docstring).

    ``stop`` False plays every sample asked for: a fixed sample, whose
    intervals need no allowance for the looks.
    ``infer_policy``: the model of the other seats' calls, if not ``policy``; ``stray`` the chance the model
    gives a seat of calling otherwise than it (loops/advisor_kernels.py; 0: the model exactly).
    ``value``: Samples -> float[n, options], the measure the stop separates
    (default the seat's side's net points).
    ``policy`` (and ``infer_policy``) a ``policies.Seats``, read where
    the name entered (``policies.seats(["best"], 4)`` in a script);
    ``name`` the policy as the caller named it (the answer's words), if not its canonical name.
    """
    given = name
    from euchresim.policies import handed
    policy = handed(policy, sit.rules.players, "advise(policy=...)")
    if infer_policy is not None:
        infer_policy = handed(infer_policy, sit.rules.players, "advise(infer_policy=...)")
    decision = decision_of(sit)
    batch = batch or default_batch(policy)
    if samples is None:
        samples = default_samples(policy)
    if batch < 1:
        raise AdviceError(f"batch {batch}: at least 1")
    check_settings(samples, alpha, stray)
    max_batches = -(-samples // batch)
    schedule = look_schedule(max_batches, -(-MIN_STOP_DEALS // batch)) if stop else [max_batches]
    k = len(decision.options)
    z = sequential_z(alpha, max(1, k - 1), len(schedule))
    if value is None:
        def value(got):
            return net_points(got.points, sit.seat, sit.rules.players)
    parts: list[Samples] = []
    stopped = "samples" if stop else "fixed"
    done = 0
    for upto in schedule:
        job = AdviseJob(sit, decision, policy, infer, batch, seed, done, upto - done, infer_policy, stray)
        out = run_job(job, workers=workers, backend=backend, address=address, collect=("result",),
                      on_chunk=(lambda d, t, base=done: on_batch(base + d, max_batches)) if on_batch else None)
        parts += [_from_bytes(b) for b in out.files["result"]]
        done = upto
        got = _head(_concat(parts), samples)
        if stop:
            vals = value(got)
            if separated(vals, z):
                stopped = "equal" if all_equal(vals) else "separated"
                break
    canon = policy.names
    return Advice(sit, decision, canon[0] if len(set(canon)) == 1 else ",".join(canon), got, stopped,
                  alpha, len(schedule), infer, seed, given, policy)

