"""What the order-up and loner reports' targeted headline cells share: their seeds and their deals at every seat.

A headline cell ("the dealer with two trumps and the right") is a few
percent of deals, so a slow main model plays it on targeted deals
(``studies.counterfactual``, ``classes=``): at each seat position, deals
dealt until that seat holds one of the classes, the rest skipped.  Both
reports ask for them the same way, from a seed of their own, and read
each class's share of all deals from the deals dealt and skipped
(``analysis.targeted_stats``).
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from euchresim.analysis import position_names
from euchresim.analysis.targeted_stats import class_shares
from euchresim.report.paired_chunks import collect


def targeted_seed(seed: int, position: int | None = None, replicate: int = 0) -> int:
    """The targeted runs' seed: the first 32-bit word of numpy's SeedSequence([seed, 0x7A26]), or of
    SeedSequence([seed, 0x7A26, position + 1]) for a position's own stream (+ 1: SeedSequence reads its
    words as one number, so a trailing 0 would give the shared seed).

    Derived, so a report stays one seed; another stream, so the targeted
    deals are not the untargeted run's deals of the same classes.  One
    seed for every position deals the same stream at each (a skipped deal
    moves only the deal stream), so the seats' kept deals are drawn from
    the same deals and their counts are correlated: right for each seat
    alone, wrong for a sum over seats.  A position's own stream makes the
    seats independent.
    """
    key = [int(seed), 0x7A26] + ([] if position is None else [int(position) + 1])
    if replicate:               # the same cells measured again, on deals of their own (report.replication)
        key = [int(seed), 0x7A27, int(replicate)] + key[2:]
    return int(np.random.SeedSequence(key).generate_state(1)[0])


def batch_seed(seed: int, position: int, hand_class: str, batch: int, replicate: int = 0) -> int:
    """A batch's seed with ``--class-reached``: the first 32-bit word of SeedSequence([seed, 0x7A28, replicate,
    position + 1, the class's index + 1, batch + 1]): every seat, class and batch a deal stream of its own (the
    + 1s as in ``targeted_seed``), the measure again (``replicate`` 1) others still."""
    from euchresim.engine.classes import CLASS_NAMES
    key = [int(seed), 0x7A28, int(replicate), int(position) + 1, CLASS_NAMES.index(hand_class) + 1, int(batch) + 1]
    return int(np.random.SeedSequence(key).generate_state(1)[0])


MAX_KEPT = 20                   # a cell stops at this many times N kept deals: reached on under 5%, it is short


def next_batch(wanted: int, reached: int, kept: int, last: int) -> int:
    """The kept deals of the next batch for a cell that wants ``wanted`` reached and has ``reached`` of ``kept``:
    the first half of ``wanted``; then what the reach rate so far says the rest needs, a tenth more so that one
    more batch nearly always finishes it, never under an eighth of ``wanted`` (the rate of a few deals is rough);
    twice the last where none reached yet.  A function of the counts alone, never of the gains."""
    if not kept:
        return max(1, -(-wanted // 2))
    if not reached:
        return 2 * last
    need = -(-((wanted - reached) * kept * 11) // (reached * 10))          # in integers: no rounding drift
    return max(-(-wanted // 8), need)


def in_batches(wanted: int, play_batch, max_kept: int = MAX_KEPT) -> int:
    """Batches of targeted deals until ``wanted`` of them reach the cell, or ``max_kept`` times ``wanted`` were
    kept: ``play_batch(k, size)`` plays batch ``k`` of ``size`` kept deals and returns how many reached.  The
    batches played; every report that fills a cell to its own count (the order-up and loner cells, the
    win-probability classes) goes through this one loop.

    Each batch's size (``next_batch``) and whether one more runs depend only on how many deals reached the
    cell, never on their gains, so the cell's mean stays unbiased."""
    reached, kept, size, k = 0, 0, 0, 0
    while reached < wanted and kept < max_kept * wanted:
        size = min(next_batch(wanted, reached, kept, size), max_kept * wanted - kept)
        reached += int(play_batch(k, size))
        kept += size
        k += 1
    return k


def until_reached(ctx, decision: str, positions: list[int], label: str, counted, with_trump: bool = False,
                  max_kept: int = MAX_KEPT) -> tuple[list[tuple[int, dict]], pd.DataFrame]:
    """``--class-reached N``: at each position and for each class alone, batches of targeted deals until ``N`` of
    them count (``counted(d)``: the batch's deals that reach the cell, as the report keeps them), or ``max_kept``
    times ``N`` kept deals (a cell the seat rarely reaches stops short, its count printed); and each class's share
    of all deals there, from every batch's deals dealt.

    Why: one stream for all the classes keeps them in their natural mix, so a common class got seven times the
    deals its interval needed while a rare one, or one rarely reached at a seat, decided the run's size; each
    (seat, class) to its own count spends the hours where the intervals are wide (``in_batches``).  Each batch
    is a piece of work of its own seed (``batch_seed``), kept and resumable, and the same seed gives the same
    batches whatever the workers.
    """
    names = position_names(ctx.rules.players)
    played, shares = [], []
    for p in positions:
        for c in ctx.classes:
            dealt, kept_by_class = [], []

            def play_batch(k, size, p=p, c=c, dealt=dealt, kept_by_class=kept_by_class):
                bctx = dataclasses.replace(ctx, seed=batch_seed(ctx.seed, p, c, k, ctx.replicate))
                d = collect(bctx, 0, decision, p, f"{label}, position {p}, {c}, batch {k + 1}", classes=(c,),
                            count=size, with_trump=with_trump)
                played.append((p, d))
                dealt.append(np.atleast_1d(d["dealt"]))
                kept_by_class.append(np.atleast_1d(d["class_kept"]))
                return counted(d)

            in_batches(ctx.class_reached, play_batch, max_kept)
            shares += class_shares(np.concatenate(dealt), np.concatenate(kept_by_class), [c], names[p])
    return played, pd.DataFrame(shares)


def targeted_deals(ctx, decision: str, positions: list[int], label: str, with_trump: bool = False,
                   own_streams: bool = False, counted=None) -> tuple[list[tuple[int, dict]], pd.DataFrame]:
    """The main model's ``ctx.class_deals`` targeted deals of ``decision`` at each position (kept, resumable),
    and each class's share of all deals there; ``own_streams``: each position from a seed of its own
    (``targeted_seed``), so that the seats can be pooled.  With ``ctx.class_reached``, each position and class
    to its own count instead (``until_reached``; ``counted(d)``: a batch's deals that reach the cell, default
    all it returns)."""
    if ctx.class_reached:
        return until_reached(ctx, decision, positions, label, counted or (lambda d: len(d["seat"])), with_trump)
    names = position_names(ctx.rules.players)
    played, shares = [], []
    for p in positions:
        tctx = dataclasses.replace(ctx, seed=targeted_seed(ctx.seed, p if own_streams else None, ctx.replicate))
        d = collect(tctx, 0, decision, p, f"{label}, position {p}, targeted", classes=ctx.classes,
                    count=ctx.class_deals, with_trump=with_trump)
        played.append((p, d))
        shares += class_shares(d["dealt"], d["class_kept"], ctx.classes, names[p])
    return played, pd.DataFrame(shares)
