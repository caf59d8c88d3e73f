"""Paired counterfactuals of one decision, chunk by chunk (loops.forced does the playing).

``run(spec, "bid1", position=1)`` plays every deal of ``spec`` (a run of
hands) as ``runner.run`` would, and at the first round-one call of the seat
left of the dealer plays the hand out once per option, everything else by
the run's policies.  The per-option points of the deciding seat's side on
the same deal give paired differences (``Counterfactuals.paired``), the
only honest way to value an option: comparing the average hand where a
seat ordered with the average hand where it passed mixes the option with
the hands that led to it.

Chunks use the seeds of ``runner.play_chunk`` (``runner.chunk_states``), so the
deals, and the choices the policies make, are those of the ordinary run
with the same seed and chunk size.

``classes=("2T R", "3T L")`` targets the deals: only those whose seat at
``position`` holds one of those hand classes under the upcard's suit (of
the hand it plays: the dealer's with the upcard, ``engine.classes``) are played, each chunk dealing until it keeps its count (a hand-class
cell that is 1% of deals costs 1% of the playing).  The deals dealt and
skipped are kept per chunk, so a class's share of all deals is known
(``Counterfactuals.share``).  A targeted run is not the ordinary run's
deals filtered: skipping changes which deals follow (loops.forced).
"""
from __future__ import annotations

import io
from dataclasses import dataclass, fields

import numpy as np

from euchresim.cards import JOKER
from euchresim.engine.classes import CLASS_NAMES
from euchresim.engine.layout import PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_JOKER, PHASE_NAMES
from euchresim.run.jobs import Job, Played, run_job
from euchresim.run.runner import RunSpec, SimError, chunk_states
from euchresim.stats import Z95, mean_interval, wilson

# the decisions that can be forced, by name (PHASE_NAMES), with a few plain aliases
DECISIONS = {
    "bid1": PH_BID1, "order": PH_BID1,
    "bid2": PH_BID2, "name": PH_BID2,
    "alone": PH_ALONE, "dummy_or_alone": PH_ALONE,
    "defend_alone": PH_DEFEND, "defend": PH_DEFEND,
    "discard": PH_DISCARD,
    "joker_suit": PH_JOKER,
}


# skipped deals in a row after which a chunk gives up: a class held by one deal in 10,000 misses that many
# with odds e**-100, and a million deals take well under a second
MAX_MISSES = 1_000_000
# fields with one entry a chunk, not a deal: ``take`` leaves them whole
PER_CHUNK = ("chunk_ids", "dealt", "skipped")


def class_mask(classes) -> int:
    """The mask of ``engine.classes`` codes for hand-class names ("3T R", as analysis.call_stats.hand_class), 0 for None."""
    if classes is None:
        return 0
    if isinstance(classes, str):
        classes = [c for c in classes.split(",")]
    names = [" ".join(str(c).split()) for c in classes]
    if not names:
        raise ValueError("classes: give at least one hand class, or None for every deal")
    mask = 0
    for c in names:
        if c not in CLASS_NAMES:
            raise ValueError(f"unknown hand class {c!r}: one of {', '.join(CLASS_NAMES)}")
        mask |= 1 << CLASS_NAMES.index(c)
    return mask


def class_names(mask: int) -> tuple[str, ...]:
    return tuple(c for k, c in enumerate(CLASS_NAMES) if (mask >> k) & 1)


def decision_phase(decision) -> int:
    """The phase (PH_*) a decision name or number stands for."""
    if isinstance(decision, str):
        if decision not in DECISIONS:
            raise ValueError(f"unknown decision {decision!r}: one of {', '.join(sorted(DECISIONS))}")
        return DECISIONS[decision]
    ph = int(decision)
    if ph not in set(DECISIONS.values()):
        raise ValueError(f"phase {ph} is not a decision that can be forced")
    return ph


@dataclass
class Counterfactuals:
    """One row per deal; option columns k < ``n_options`` (the rest hold -1, or 0 points).

    ``value[i, k]`` is the deciding seat's points (its side's, in the
    partnership game) when option k is forced on deal i;
    ``points[i, k, s]`` every seat's.  ``chosen`` is the option the seat's
    own policy took, ``chosen_k`` its column: that continuation is the
    ordinary hand, whose points are ``base_points`` (for every deal, reached
    or not).  A targeted run (``class_mask`` not 0) keeps only deals of
    those classes; ``dealt`` and ``skipped`` count, per chunk
    (``chunk_ids``), every deal dealt and those skipped.  ``trump`` and
    ``make_round`` are the state's at the decision: a targeted run's deals
    are not the ordinary run's, so only the kernel can say which trump a
    kept deal's maker made, and in which round.
    """
    phase: int
    position: int                 # -1: the first such decision of any seat
    players: int
    chunk: np.ndarray             # int64[n]
    index: np.ndarray             # the deal's place in its chunk
    dealer: np.ndarray
    hands: np.ndarray             # int64[n, 4] boards, as dealt
    dummy: np.ndarray             # board (Cutthroat), else 0
    upcard: np.ndarray            # card index
    kitty: np.ndarray             # board
    redeal: np.ndarray            # bool: a redeal (R7), the deal does not pass
    reached: np.ndarray           # bool: the decision was reached
    seat: np.ndarray              # -1 if not reached
    pos: np.ndarray               # seats left of the dealer, 0 = dealer; -1 if not reached
    legal: np.ndarray             # the legal mask (a board for the discard)
    n_options: np.ndarray
    options: np.ndarray           # int64[n, 6]: action codes (cards for the discard), lowest first
    chosen: np.ndarray            # the option the policy took, -1 if not reached
    chosen_k: np.ndarray          # its column, -1 if not reached
    points: np.ndarray            # int64[n, 6, 4]
    value: np.ndarray             # int64[n, 6]: points[i, k, seat[i]], 0 if not reached
    maker: np.ndarray             # int64[n, 6]: -1 thrown in
    maker_tricks: np.ndarray      # int64[n, 6]: -1 thrown in
    base_points: np.ndarray       # int64[n, 4]: the ordinary hand
    class_mask: int = 0           # engine.classes codes kept; 0: every deal
    chunk_ids: np.ndarray = None  # int64[chunks]: the chunks, in order
    dealt: np.ndarray = None      # int64[chunks]: deals dealt (kept and skipped)
    skipped: np.ndarray = None    # int64[chunks]: deals skipped (not of a class asked for)
    trump: np.ndarray = None      # int64[n]: trump at the decision once called, else -1 (loops.forced F_TRUMP)
    make_round: np.ndarray = None  # int64[n]: the round it was called in, 0 before a call, -1 if not reached

    def __len__(self) -> int:
        return len(self.chunk)

    @property
    def kind(self) -> str:
        return PHASE_NAMES[self.phase]

    def column(self, option) -> np.ndarray:
        """Per deal, the column of ``option`` (an action code, a card for the discard), -1 if not legal."""
        hit = (self.options == int(option)) & self.reached[:, None]
        return np.where(hit.any(axis=1), hit.argmax(axis=1), -1)

    def option_value(self, option) -> np.ndarray:
        """The deciding side's points with ``option`` forced (NaN where it was not an option)."""
        k = self.column(option)
        v = self.value[np.arange(len(self)), np.maximum(k, 0)].astype(float)
        return np.where(k >= 0, v, np.nan)

    def differences(self, a, b) -> np.ndarray:
        """Paired differences value(a) - value(b), one per deal where both were options."""
        d = self.option_value(a) - self.option_value(b)
        return d[~np.isnan(d)]

    def paired(self, a, b, z: float = Z95) -> dict:
        """Mean paired difference of ``a`` over ``b`` with its normal interval (the deals where both are legal)."""
        return summarize(self.differences(a, b), z)

    def regret(self, z: float = Z95) -> dict:
        """What the policy's own choice gave up against the best option, deal by deal (>= 0)."""
        r = self.reached
        v = np.where(np.arange(6)[None, :] < self.n_options[:, None], self.value, np.iinfo(np.int64).min)[r]
        got = self.value[r, self.chosen_k[r]]
        return summarize((v.max(axis=1) - got).astype(float), z)

    @property
    def classes(self) -> tuple[str, ...]:
        """The hand classes kept (analysis.call_stats.hand_class labels); empty: every deal."""
        return class_names(self.class_mask)

    def hand_classes(self) -> np.ndarray:
        """Per deal, the class (analysis.call_stats.hand_class) of the hand the seat at ``position`` plays under
        the upcard's suit (the dealer's with the upcard: engine.classes.upcard_class, the targeting's own);
        "" for a joker upcard, or every deal when no position was asked."""
        from euchresim.engine.classes import class_codes
        from euchresim.engine.tables import build_tables
        from euchresim.rules import Rules
        out = np.full(len(self), "", dtype=object)
        ok = self.upcard != JOKER
        if self.position < 0 or not ok.any():
            return out
        tab = build_tables(Rules(players=self.players))      # the trump suits (T_EFF) are every pack's
        seat = (self.dealer + self.position) % self.players
        hand = self.hands[np.arange(len(self)), seat]
        if self.position == 0:
            hand = hand | np.where(ok, np.int64(1) << np.where(ok, self.upcard, 0), 0)
        out[ok] = np.array(CLASS_NAMES, dtype=object)[class_codes(tab, hand[ok], self.upcard[ok] >> 3)]
        return out

    def share(self, z: float = Z95) -> dict:
        """The kept deals' share of all deals dealt, with its Wilson interval: how common the classes are."""
        dealt, skipped = int(self.dealt.sum()), int(self.skipped.sum())
        low, high = wilson(dealt - skipped, dealt, z)
        return {"dealt": dealt, "skipped": skipped, "kept": dealt - skipped,
                "share": (dealt - skipped) / dealt if dealt else float("nan"), "low": low, "high": high}

    def take(self, mask) -> "Counterfactuals":
        """The deals where ``mask`` holds (a filter of the rows, fields and all; the per-chunk counts stay whole)."""
        kw = {f.name: getattr(self, f.name) for f in fields(self)}
        for k, v in kw.items():
            if isinstance(v, np.ndarray) and k not in PER_CHUNK:
                kw[k] = v[mask]
        return Counterfactuals(**kw)


def summarize(d: np.ndarray, z: float = Z95) -> dict:
    """n, mean, standard deviation and a normal interval of paired differences (stats.mean_interval)."""
    return mean_interval(d, z)


def play_chunk(spec: RunSpec, chunk: int, decision, position: int | None = None, classes=None) -> Counterfactuals:
    """The counterfactuals of one chunk of ``spec`` (a run of hands), of the deals of ``classes`` only if given."""
    from euchresim.loops.forced import MAX_OPTIONS, NINFO, NO_KEPT_DEAL, run_forced
    from euchresim.loops.forced import (F_BASE, F_CHOSEN, F_CHOSEN_K, F_DEALER, F_DUMMY, F_HAND, F_KITTY, F_LEGAL, F_NOPT, F_POS, F_REDEAL, F_ROUND, F_SEAT, F_STATUS, F_TRUMP, F_UPCARD)
    from euchresim.engine.tables import build_tables

    if spec.mode != "hands":
        raise SimError(f"counterfactuals are of independent hands, not {spec.mode}")
    phase = decision_phase(decision)
    players = spec.rules.players
    pos = -1 if position is None else int(position)
    if not -1 <= pos < players:
        raise ValueError(f"position must be 0..{players - 1} (seats left of the dealer) or None, not {position}")
    mask = class_mask(classes)
    if mask and pos < 0:
        raise ValueError("classes: targeted deals need a position (the seat whose hand is classed)")
    tab = build_tables(spec.rules)
    table = spec.policies
    pids, params, fns = table.pids, table.params, table.functions()
    n = spec.chunk_count(chunk)
    drng, prng = chunk_states(spec.seed, chunk)
    info = np.zeros((n, NINFO), np.int64)
    options = np.zeros((n, MAX_OPTIONS), np.int64)
    points = np.zeros((n, MAX_OPTIONS, 4), np.int64)
    maker = np.zeros((n, MAX_OPTIONS), np.int64)
    tricks = np.zeros((n, MAX_OPTIONS), np.int64)
    counts = np.zeros(2, np.int64)
    err, at = run_forced(tab, n, drng, prng, pids, params, fns, phase, pos, mask, MAX_MISSES, counts, info, options,
                         points, maker, tricks)
    if err == NO_KEPT_DEAL:
        raise SimError(f"chunk {chunk}, deal {int(at)}: {MAX_MISSES:,} deals in a row and none had a hand of "
                       f"{', '.join(class_names(mask))} at position {pos}: can a hand hold it?")
    if err:
        raise SimError(f"chunk {chunk}, deal {int(at)}: a policy made an illegal move (error {int(err)})")
    reached = info[:, F_STATUS] == 1
    seat = info[:, F_SEAT]
    value = np.where(reached[:, None], points[np.arange(n), :, np.maximum(seat, 0)], 0)
    return Counterfactuals(
        phase=phase, position=pos, players=players,
        chunk=np.full(n, chunk, np.int64), index=np.arange(n, dtype=np.int64),
        dealer=info[:, F_DEALER].copy(), hands=info[:, F_HAND:F_HAND + 4].copy(),
        dummy=info[:, F_DUMMY].copy(), upcard=info[:, F_UPCARD].copy(), kitty=info[:, F_KITTY].copy(),
        redeal=info[:, F_REDEAL] == 1, reached=reached, seat=seat.copy(), pos=info[:, F_POS].copy(),
        legal=info[:, F_LEGAL].copy(), n_options=info[:, F_NOPT].copy(), options=options,
        chosen=info[:, F_CHOSEN].copy(), chosen_k=info[:, F_CHOSEN_K].copy(), points=points, value=value,
        maker=maker, maker_tricks=tricks, base_points=info[:, F_BASE:F_BASE + 4].copy(), class_mask=mask,
        chunk_ids=np.array([chunk], np.int64), dealt=counts[:1].copy(), skipped=counts[1:].copy(),
        trump=info[:, F_TRUMP].copy(), make_round=info[:, F_ROUND].copy())


def concat(parts: list[Counterfactuals]) -> Counterfactuals:
    """Chunks' counterfactuals as one (of the same decision and position)."""
    first = parts[0]
    kw = {}
    for f in fields(Counterfactuals):
        v = getattr(first, f.name)
        kw[f.name] = np.concatenate([getattr(p, f.name) for p in parts]) if isinstance(v, np.ndarray) else v
    return Counterfactuals(**kw)


def to_bytes(c: Counterfactuals) -> bytes:
    """One chunk's counterfactuals as .npz bytes: what the run folder keeps (run/jobs.py)."""
    buf = io.BytesIO()
    np.savez(buf, **{f.name: np.asarray(getattr(c, f.name)) for f in fields(Counterfactuals)})
    return buf.getvalue()


def from_bytes(data: bytes) -> Counterfactuals:
    """``to_bytes`` undone; a chunk kept before targeting existed has every deal kept (dealt = its rows)."""
    with np.load(io.BytesIO(data)) as z:
        kw = {f.name: z[f.name] if z[f.name].ndim else z[f.name].item() for f in fields(Counterfactuals)
              if f.name in z.files}
    if "dealt" not in kw:
        chunk = kw["chunk"]
        kw.update(class_mask=0, chunk_ids=np.unique(chunk).astype(np.int64), dealt=np.array([len(chunk)], np.int64),
                  skipped=np.zeros(1, np.int64))
    if "trump" not in kw:          # kept before the kernel recorded them: not known, as for a deal not reached
        kw.update(trump=np.full(len(kw["chunk"]), -1, np.int64), make_round=np.full(len(kw["chunk"]), -1, np.int64))
    return Counterfactuals(**kw)


class CounterfactualJob(Job):
    """Paired counterfactuals of one decision as a job of the one runner: a chunk's arrays as .npz bytes."""

    def __init__(self, spec: RunSpec, decision, position: int | None = None, classes=None):
        decision_phase(decision)          # a bad name fails here, not in a worker
        self.mask = class_mask(classes)
        if self.mask and position is None:
            raise ValueError("classes: targeted deals need a position (the seat whose hand is classed)")
        self.spec, self.decision, self.position = spec, decision, position
        self.n_chunks = spec.n_chunks

    def header(self) -> dict:
        """What a resume must match; the classes only when targeted (an untargeted header names none)."""
        h = dict(self.spec.meta(), counterfactual=str(self.decision), position=self.position)
        if self.mask:
            h["classes"] = list(class_names(self.mask))
        return h

    def play(self, chunk: int) -> Played:
        res = play_chunk(self.spec, chunk, self.decision, self.position, class_names(self.mask) or None)
        return Played({}, {"result": to_bytes(res)})


def run(spec: RunSpec, decision, position: int | None = None, workers: int = 1, folder: str | None = None,
        resume: bool = False, force: bool = False, backend: str = "local", address: str | None = None,
        on_chunk=None, classes=None) -> Counterfactuals:
    """Every chunk of ``spec``, in chunk order, on the one runner (run/jobs.py).

    The result does not depend on ``workers`` or the backend: each chunk's
    deals and streams depend only on the seed and the chunk's index.  With a
    ``folder``, finished chunks are kept there and ``resume`` plays the rest.
    ``classes`` targets the deals (module docstring): ``count`` is then the
    deals kept, and a resume with other classes is refused.
    """
    out = run_job(CounterfactualJob(spec, decision, position, classes), workers=workers, folder=folder, resume=resume,
                  force=force, backend=backend, address=address, on_chunk=on_chunk, collect=("result",))
    return concat([from_bytes(b) for b in out.files["result"]])
