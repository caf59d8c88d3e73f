"""The advisor: one seat's decision in one hand, every option played out on the deals the seat cannot rule out.

A ``Situation`` is what the seat knows: the rules, who deals, its own
cards, the upcard, the calls and cards so far, the score.  It is built
from a player's description (``from_hand``) or from a hand record cut at
a decision (``from_record``); ``advise`` then samples deals consistent with
it (``loops.advise``: uniform, narrowed by rejection to those on which the
hand so far could have happened and, with inference, on which the other
seats' policies would have called as they did), plays every option on each
(paired), and stops once the best option is separated from the rest by the
sequential rule of ``stats.sequential_z``, or at ``samples``.

Batches of samples are chunks of the one runner (``run.jobs``): batch b
draws from the streams of chunk b of the seed, so the numbers depend on
the seed and the samples played, never on the workers or the backend.  The
table a player reads (points, P(win), intervals) is made from these
arrays in ``analysis.advice``.
"""
from __future__ import annotations

import io
import itertools
from dataclasses import dataclass, field

import numpy as np

from euchresim.cards import SUITS, card_str
from euchresim.engine.layout import (BID2_PASS, ERR_SCRIPT_SHORT, EXCHANGED, MAKER, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DUMMY, PH_JOKER, PH_PLAY, PHASE_NAMES, PLAY_SEAT)
from euchresim.records.format import Record
from euchresim.rules import Rules
from euchresim.run.errors import SimError
from euchresim.run.jobs import Job, Played, run_job
from euchresim.run.runner import chunk_states
from euchresim.stats import sequential_z

SEARCH_POLICIES = ("pimc", "dd")
MAX_TRIES_PER_SAMPLE = 2000     # tries at a consistent deal, per sample asked for, before the advisor gives up


@dataclass(frozen=True)
class Situation:
    """What the deciding seat knows, in the record's terms (docs/hand-record.md) -- and nothing else.

    ``fixed[s]`` are the cards seat s is known to have been dealt: the
    seat's own hand, and for each other seat the cards it has played (the
    dealer's upcard excepted).  ``discard`` and ``keep`` are -1 unless the
    seat made them.  ``steps`` is how many actions of the hand so far are
    replayed before the decision.
    """
    rules: Rules
    dealer: int
    seat: int
    fixed: tuple                    # 4 boards
    upcard: int
    steps: int
    calls: tuple = ()
    alone: int = 0                  # seat mask of those who went alone so far
    discard: int = -1
    keep: int = -1
    plays: tuple = ()
    joker_suit: int = -1
    fixed_dummy: int = 0
    score: tuple = (0, 0, 0, 0)     # each seat's game score before the hand (a side's, on both its seats)

    def arrays(self):
        i64 = np.int64
        return (i64(self.dealer), i64(self.seat), np.array(self.fixed, np.int64), i64(self.fixed_dummy),
                i64(self.upcard), np.array(self.score, np.int64), i64(self.joker_suit),
                np.array(self.calls, np.int64), i64(self.alone), i64(self.discard), i64(self.keep),
                np.array(self.plays, np.int64), i64(self.steps))

    @property
    def position(self) -> int:
        """Seats left of the dealer (0: the dealer)."""
        return (self.seat - self.dealer) % self.rules.players


@dataclass(frozen=True)
class Decision:
    """The decision a situation leads to: its phase and the options, as (action, alone follow-up) rows."""
    phase: int
    legal: int
    options: np.ndarray = field(compare=False)      # int64[k, 2] (loops.advise.OPT_*)
    labels: tuple = ()

    @property
    def kind(self) -> str:
        return PHASE_NAMES[self.phase]


class AdviceError(ValueError):
    """A situation that cannot be: the message names what and where."""


def _tables(rules):
    from euchresim.engine.tables import cached_tables
    return cached_tables(rules)


def _policy_arrays(policy, players):
    from euchresim.policies import functions, resolve
    names = [policy] if isinstance(policy, str) else list(policy)
    pids, params, canon = resolve(names, players)
    return pids, params, functions(names, players), canon


def probe(sit: Situation, tries: int = 20000) -> tuple:
    """Where ``sit.steps`` actions lead (loops.advise.probe): (status, phase, to act, legal, calls, plays, tries)."""
    from euchresim.loops.advise import probe as probe_kernel
    pids, params, fns, _ = _policy_arrays("random", sit.rules.players)
    drng, prng = chunk_states(0, 0)
    out = probe_kernel(_tables(sit.rules), *sit.arrays(), pids, params, fns, drng, prng, np.int64(tries))
    return tuple(int(x) for x in out)


def _bits(mask: int) -> list[int]:
    return [c for c in range(64) if (mask >> c) & 1]


def decision_of(sit: Situation) -> Decision:
    """The seat's decision in ``sit`` and its options; an AdviceError if the hand so far reaches none."""
    from euchresim.loops.advise import KEPT, SCRIPT_ERROR
    status, phase, to_act, legal, _, _, _ = probe(sit)
    if status == SCRIPT_ERROR or (status == KEPT and to_act != sit.seat):
        raise AdviceError(f"the calls and cards given do not lead to a decision of seat {sit.seat} "
                          "under these rules")
    if status != KEPT:
        raise AdviceError("no deal fits the cards played: some seat would have had to follow suit (R10)")
    players = sit.rules.players
    if phase == PH_DUMMY and sit.fixed_dummy == 0:
        raise AdviceError("the dummy keep is decided with the dummy in view: give the dummy's five cards (--dummy)")
    alone_next = players in (3, 4)       # R8/R9: the maker is asked whether to go alone (Cutthroat: or take the dummy)
    rows, labels = [], []
    if phase == PH_BID1:
        rows.append((0, -1))
        labels.append("pass")
        if alone_next:
            rows += [(1, 0), (1, 1)]
            labels += ["order", "order alone"] if players == 4 else ["order, take the dummy", "order alone"]
        else:
            rows.append((1, -1))
            labels.append("order")
    elif phase == PH_BID2:
        for a in _bits(legal):
            if a == BID2_PASS:
                rows.append((a, -1))
                labels.append("pass")
                continue
            name = SUITS[a]
            if alone_next:
                rows += [(a, 0), (a, 1)]
                labels += [name, f"{name} alone"] if players == 4 else [f"{name}, take the dummy", f"{name} alone"]
            else:
                rows.append((a, -1))
                labels.append(name)
        order = sorted(range(len(rows)), key=lambda k: (rows[k][0] == BID2_PASS, rows[k]))
        rows, labels = [rows[k] for k in order], [labels[k] for k in order]
    elif phase == PH_ALONE:
        rows = [(0, -1), (1, -1)]
        labels = ["with partner", "alone"] if players == 4 else ["take the dummy", "alone"]
    elif phase == PH_DEFEND:
        rows = [(0, -1), (1, -1)]
        labels = ["defend with partner", "defend alone"]
    elif phase in (PH_DISCARD, PH_PLAY):
        rows = [(c, -1) for c in _bits(legal)]
        labels = [card_str(c) for c in _bits(legal)]
    elif phase == PH_DUMMY:
        for keep in itertools.combinations(_bits(legal), 5):
            rows.append((sum(1 << c for c in keep), -1))
            labels.append(" ".join(card_str(c) for c in sorted(keep, reverse=True)))
    elif phase == PH_JOKER:
        rows = [(s, -1) for s in range(4)]
        labels = list(SUITS)
    return Decision(phase, legal, np.array(rows, np.int64).reshape(-1, 2), tuple(labels))


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


class AdviseJob(Job):
    """Batches ``first .. first + count - 1`` of one situation's samples, as chunks of the one runner."""
    stop_label = "batch"

    def __init__(self, sit: Situation, decision: Decision, policy, infer: bool, batch: int, seed: int,
                 first: int, count: int, infer_policy=None):
        self.sit, self.decision, self.policy, self.infer = sit, decision, policy, infer
        self.batch, self.seed, self.first, self.n_chunks = batch, seed, first, count
        self.infer_policy = infer_policy

    def header(self) -> dict:
        return {"advise": repr(self.sit), "policy": str(self.policy), "infer": self.infer, "batch": self.batch,
                "seed": self.seed, "first": self.first, "infer_policy": str(self.infer_policy)}

    def label(self, chunk: int) -> int:
        return self.first + chunk

    def play(self, chunk: int) -> Played:
        return Played({}, {"result": _to_bytes(play_batch(self.sit, self.decision, self.policy, self.infer,
                                                          self.batch, self.seed, self.first + chunk,
                                                          self.infer_policy))})


def play_batch(sit: Situation, decision: Decision, policy, infer: bool, n: int, seed: int, batch: int,
               infer_policy=None) -> Samples:
    """Batch ``batch`` of ``n`` kept deals (the streams of chunk ``batch`` of ``seed``).

    ``infer_policy`` (default ``policy``) is what the other seats' calls are
    evidence of, and who makes the discard or keep the seat did not see.
    """
    from euchresim.loops.advise import POLICY_ERROR, SCRIPT_ERROR, play_options
    players = sit.rules.players
    pids, params, fns, _ = _policy_arrays(policy, players)
    ipids, iparams, ifns, _ = _policy_arrays(infer_policy or policy, players)
    drng, prng = chunk_states(seed, batch)
    k = len(decision.options)
    points = np.zeros((n, k, 4), np.int64)
    maker = np.zeros((n, k), np.int64)
    tricks = np.zeros((n, k), np.int64)
    chosen = np.zeros((n, 2), np.int64)
    deals = np.zeros((n, 6), np.int64)
    kept, tries, err = play_options(_tables(sit.rules), *sit.arrays(), np.int64(1 if infer else 0), ipids, iparams,
                                    ifns, pids, params, fns, drng, prng, np.int64(n), np.int64(MAX_TRIES_PER_SAMPLE * n),
                                    decision.options, points, maker, tricks, chosen, deals)
    if err == -SCRIPT_ERROR:
        raise AdviceError(f"the calls and cards given do not lead to a decision of seat {sit.seat}")
    if err == -POLICY_ERROR:
        raise SimError(f"policy {policy}: an illegal discard or dummy keep for a seat the advisor modelled")
    if err:
        raise SimError(f"policy {policy} made an illegal move in a played-out option (engine error {int(err)})")
    if kept < n:
        raise AdviceError(f"only {int(kept)} of {int(tries)} deals fit what the seat knows"
                          + (" and the calls heard (try --infer-policy heuristic, or --no-inference)" if infer else "")
                          + ": the calls or cards given are (nearly) impossible")
    return Samples(points, maker, tricks, chosen, deals, int(tries))


def default_batch(policy) -> int:
    names = [policy] if isinstance(policy, str) else list(policy)
    slow = any(str(p).split(":")[0] in SEARCH_POLICIES for p in names)
    return 25 if slow else 1000


def default_workers(policy) -> int:
    """Every core for the search bots; one for the fast bots, whose answer is quicker than a process pool."""
    from euchresim.run.runner import default_workers as all_cores
    return all_cores() if default_batch(policy) < 1000 else 1


def default_model_hands(policy) -> int:
    """Hands behind the P(win) model (analysis.advice.win_model): fewer for the search bots, at ms a hand."""
    return 2_000 if default_batch(policy) < 1000 else 20_000


def look_schedule(max_batches: int) -> list[int]:
    """The cumulative batch counts at which the stopping rule looks: 1, 2, 4, ... and the last (fixed in advance)."""
    out, b = [], 1
    while b < max_batches:
        out.append(b)
        b *= 2
    out.append(max_batches)
    return out


@dataclass
class Advice:
    """A decision's samples and how the sampling stopped ("separated": the best option stood apart; "samples")."""
    situation: Situation
    decision: Decision
    policy: str
    samples: Samples
    stopped: str
    alpha: float
    looks: int
    infer: bool
    seed: int


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


def net_points(points: np.ndarray, seat: int, players: int) -> np.ndarray:
    """The seat's side's points less the other side's (Cutthroat, 2-hand: less the mean of the others)."""
    own = points[..., seat]
    if players == 4:
        return own - points[..., (seat + 1) % 4]
    others = [s for s in range(players) if s != seat]
    return own - points[..., others].mean(axis=-1)


def advise(sit: Situation, policy="heuristic", samples: int | None = None, batch: int | None = None,
           seed: int = 0, infer: bool = True, alpha: float = 0.05, workers: int = 1, backend: str = "local",
           address: str | None = None, on_batch=None, stop: bool = True, infer_policy=None) -> Advice:
    """Sample and play out ``sit``'s options until the best stands apart (module docstring).

    ``stop`` False plays every sample asked for (the benchmark's fixed cost).
    ``infer_policy``: the model of the other seats' calls, if not ``policy``.
    """
    decision = decision_of(sit)
    batch = batch or default_batch(policy)
    if samples is None:
        samples = 500 if default_batch(policy) < 1000 else 10_000
    if samples < 1 or batch < 1:
        raise AdviceError("samples and batch must be at least 1")
    max_batches = -(-samples // batch)
    schedule = look_schedule(max_batches) if stop else [max_batches]
    k = len(decision.options)
    z = sequential_z(alpha, max(1, k - 1), len(schedule))
    parts: list[Samples] = []
    stopped = "samples"
    done = 0
    for upto in schedule:
        job = AdviseJob(sit, decision, policy, infer, batch, seed, done, upto - done, infer_policy)
        out = run_job(job, workers=workers, backend=backend, address=address, collect=("result",),
                      on_chunk=(lambda d, t, base=done: on_batch(base + d, max_batches)) if on_batch else None)
        parts += [_from_bytes(b) for b in out.files["result"]]
        done = upto
        got = _concat(parts)
        if stop and separated(net_points(got.points, sit.seat, sit.rules.players), z):
            stopped = "separated"
            break
    _, _, _, canon = _policy_arrays(policy, sit.rules.players)
    return Advice(sit, decision, canon[0] if len(set(canon)) == 1 else ",".join(canon), _concat(parts), stopped,
                  alpha, len(schedule), infer, seed)


# ---------------------------------------------------------------- building situations
def seat_of(position: int, dealer: int, players: int) -> int:
    return (dealer + position) % players


def default_calls(rnd: int, position: int, players: int) -> tuple:
    """Everyone before the seat passed (in round two, everyone passed round one too)."""
    return (0,) * ((position - 1) % players + (players if rnd == 2 else 0))


def from_hand(rules: Rules, hand: int, upcard: int, position: int, calls: tuple | None = None, score=None,
              decision: str | None = None, dealer: int = 0, joker_suit: int = -1, alone: int = 0,
              discard: int = -1, rnd: int = 1, dummy: int = 0) -> Situation:
    """The seat ``position`` left of the dealer, holding ``hand``, after ``calls`` (codes, from the dealer's left).

    ``calls`` None: everyone before the seat passed, in round ``rnd``.
    ``dummy``: the Cutthroat dummy, for a maker's keep (the maker sees it).
    ``decision`` (a PHASE_NAMES name) picks among the decisions the seat
    meets once the calls are made (after an order, the maker's alone and the
    dealer's discard come in turn); by default its first.
    """
    players = rules.players
    if calls is None:
        calls = default_calls(rnd, position, players)
    seat = seat_of(position, dealer, players)
    fixed = [0, 0, 0, 0]
    fixed[seat] = hand
    base = Situation(rules, dealer, seat, tuple(fixed), upcard, 0, tuple(calls), alone, discard, -1, (), joker_suit,
                     dummy, _score_tuple(score, players, seat))
    return _first_decision(base, len(calls), 0, decision)


def _score_tuple(score, players, seat):
    if score is None:
        return (0, 0, 0, 0)
    score = tuple(int(x) for x in score)
    out = [0, 0, 0, 0]
    if players == 4:
        us, them = score
        for s in range(4):
            out[s] = us if s % 2 == seat % 2 else them
    else:
        for k, s in enumerate([(seat + j) % players for j in range(players)]):
            out[s] = score[k]
    return tuple(out)


def _first_decision(base: Situation, n_calls: int, n_plays: int, decision: str | None) -> Situation:
    """``base`` at the first step where every given call and play is made and ``base.seat`` is to act.

    With ``decision`` (a PHASE_NAMES name), the first such step of that
    kind: after an order the maker's alone call and the dealer's discard
    come in turn, with nothing more given.
    """
    from euchresim.loops.advise import KEPT, SCRIPT_ERROR
    if decision is not None and decision not in PHASE_NAMES[:-1]:
        raise AdviceError(f"unknown decision {decision!r}: one of {', '.join(PHASE_NAMES[:-1])}")
    want = None if decision is None else PHASE_NAMES.index(decision)
    steps = n_calls + n_plays
    while True:
        sit = Situation(**{**base.__dict__, "steps": steps})
        status, phase, to_act, _, ci, pi, _ = probe(sit)
        if status == SCRIPT_ERROR and 0 < ci <= n_calls and pi == 0 and ci == _failed_at(base, steps):
            from euchresim.records.format import call_str
            raise AdviceError(f"--calls: call {ci} ({call_str(base.calls[ci - 1])!r}) cannot be made there "
                              "(round one takes pass or order, R5; round two pass or a suit not turned down, R6)")
        if status != KEPT:
            break
        if ci == n_calls and pi == n_plays and to_act == base.seat and (want is None or phase == want):
            return sit
        if pi > n_plays or (ci > n_calls):
            break
        steps += 1
    what = f"{decision} decision" if decision else "decision"
    raise AdviceError(f"seat {base.seat} has no {what} right after the calls and cards given (whose turn is it?)")


def _failed_at(base: Situation, steps: int) -> int:
    """The number of calls replayed when ``steps`` steps fail, if one step fewer goes through (else -1)."""
    from euchresim.loops.advise import KEPT
    ok = probe(Situation(**{**base.__dict__, "steps": steps - 1, "seat": -1}))
    return ok[4] + 1 if ok[0] == KEPT and steps > 0 else -1


def from_record(rec: Record, calls: int | None = None, plays: int | None = None,
                decision: str | None = None, known: str = "seat") -> Situation:
    """The decision of a hand record after ``calls`` calls and ``plays`` cards, as its seat saw it.

    The seat sees its own dealt hand, the upcard, every call, who went
    alone, every card played, its own discard (if it dealt and took the
    upcard) and the dummy if it is the Cutthroat maker who took it; the
    rest of the record (the other hands, the kitty) is hidden from it.
    ``known="all"`` gives it the whole deal instead (a double-dummy view:
    nothing is left to sample).
    """
    from euchresim.loops.records import replay_states
    if known not in ("seat", "all"):
        raise AdviceError(f"known must be 'seat' or 'all', not {known!r}")
    calls = len(rec.calls) if calls is None else int(calls)
    plays = 0 if plays is None else int(plays)
    if not 0 <= calls <= len(rec.calls):
        raise AdviceError(f"the record has {len(rec.calls)} calls, not {calls}")
    if not 0 <= plays <= len(rec.plays):
        raise AdviceError(f"the record has {len(rec.plays)} cards played, not {plays}")
    if plays > 0 and calls < len(rec.calls):
        raise AdviceError("cards are played only once the bidding is over")
    players = rec.rules.players
    found, states = replay_states([rec], _tables(rec.rules))
    code, phase_at, _ = (int(x) for x in found[0])
    if code and not (code == ERR_SCRIPT_SHORT and phase_at == PH_PLAY):     # a record cut in the play is a hand so far
        raise AdviceError("the record does not replay: check it with `euchresim replay`")
    st = states[0]
    hands = tuple(rec.hands) + (0,) * (4 - players)
    script = dict(calls=tuple(rec.calls[:calls]), alone=sum(1 << s for s in rec.alone),
                  plays=tuple(rec.plays[:plays]), joker_suit=-1 if rec.joker_suit is None else rec.joker_suit)
    # the whole deal known: where the prefix leads, and whose turn it is, without sampling
    full = Situation(rec.rules, rec.dealer, -1, hands, rec.upcard, 0,
                     discard=-1 if rec.discard is None else rec.discard,
                     keep=-1 if rec.dummy_keep is None else rec.dummy_keep, fixed_dummy=rec.dummy, **script)
    seat, phase = -1, -1
    for seat_try in range(players):
        try:
            found_sit = _first_decision(Situation(**{**full.__dict__, "seat": seat_try}), calls, plays, decision)
        except AdviceError:
            continue
        seat, phase = seat_try, probe(found_sit)[1]
        break
    if known == "all" and seat >= 0:
        return found_sit
    if seat < 0:
        raise AdviceError(f"the record has no {decision + ' ' if decision else ''}decision right after {calls} "
                          f"calls and {plays} cards")
    exchanged = bool(st[EXCHANGED])
    fixed = [0, 0, 0, 0]
    for k in range(plays):
        s = int(st[PLAY_SEAT + k])
        c = rec.plays[k]
        if not (exchanged and s == rec.dealer and c == rec.upcard):
            fixed[s] |= 1 << c
    fixed[seat] = hands[seat]
    discard = rec.discard if (seat == rec.dealer and rec.discard is not None) else -1
    maker = int(st[MAKER])
    took_dummy = rec.dummy_keep is not None and seat == maker and phase >= PH_DUMMY    # seen from its keep on
    base = Situation(rec.rules, rec.dealer, seat, tuple(fixed), rec.upcard, 0, discard=discard,
                     keep=rec.dummy_keep if took_dummy else -1, fixed_dummy=rec.dummy if took_dummy else 0,
                     **script)
    return _first_decision(base, calls, plays, decision)
