"""What the order-up and loner reports' targeted headline cells share: their seed and their deals at every seat.

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


MAX_BATCHES = 40


def until_reached(ctx, decision: str, positions: list[int], label: str, counted, with_trump: bool = False,
                  max_batches: int = MAX_BATCHES) -> tuple[list[tuple[int, dict]], pd.DataFrame]:
    """``--class-reached N``: at each position and for each class alone, batches of targeted deals until ``N`` of
    them count (``counted(d)``: the batch's deals that reach the cell, as the report keeps them), or
    ``max_batches`` (a cell the seat never reaches stops there, its count printed); and each class's share of
    all deals there, from every batch's deals dealt.

    Why: one stream for all the classes keeps them in their natural mix, so a common class got five times the
    deals its interval needed while a rare one, or one rarely reached at a seat, decided the run's size; each
    (seat, class) to its own count spends the hours where the intervals are wide.  A batch holds a quarter of
    ``N`` kept deals; how many batches run depends only on how many deals reached the cell, never on their
    gains, so the cell's mean stays unbiased; each batch is a piece of work of its own seed (``batch_seed``),
    kept and resumable, and the same seed gives the same batches whatever the workers.
    """
    names = position_names(ctx.rules.players)
    size = max(1, -(-ctx.class_reached // 4))
    played, shares = [], []
    for p in positions:
        for c in ctx.classes:
            dealt, kept, reached = [], [], 0
            for k in range(max_batches):
                if reached >= ctx.class_reached:
                    break
                bctx = dataclasses.replace(ctx, seed=batch_seed(ctx.seed, p, c, k, ctx.replicate))
                d = collect(bctx, 0, decision, p, f"{label}, position {p}, {c}, batch {k + 1}", classes=(c,),
                            count=size, with_trump=with_trump)
                played.append((p, d))
                dealt.append(np.atleast_1d(d["dealt"]))
                kept.append(np.atleast_1d(d["class_kept"]))
                reached += int(counted(d))
            shares += class_shares(np.concatenate(dealt), np.concatenate(kept), [c], names[p])
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


def replicated(ctx, head: pd.DataFrame, simulate_again, keys=("position", "hand_class")) -> pd.DataFrame:
    """``head`` with every headline cell measured again on deals of its own (``simulate_again(ctx)`` is the
    report's targeted simulation, run with ``ctx.replicate`` 1: its own seeds, its own kept work), the z's
    of ``analysis.targeted_stats.replication``; a cell that disagrees beyond chance stops the report (ReportError,
    one line naming the cells), so that a headline no fresh run reproduces is never printed."""
    from euchresim.analysis.call_stats import gain_table
    from euchresim.analysis.targeted_stats import replication
    from euchresim.report import ReportError
    again_df = simulate_again(dataclasses.replace(ctx, replicate=1))
    keys = list(keys)
    again = gain_table(again_df, keys) if len(again_df) else pd.DataFrame(
        columns=keys + ["n", "gain", "ci_low", "ci_high"])
    again = again.assign(**{k: again[k].astype(str) for k in keys if k == "position"})
    out = replication(head, again, keys)
    missing = out[out["not_again"] & (out["position"].astype(str) != "all seats")] if "position" in out else \
        out[out["not_again"]]
    if len(missing):
        said = "; ".join(f"{r['position']} {r['hand_class']}: {int(r['reached'])} hands, again "
                         f"{int(0 if r['replicate_n'] != r['replicate_n'] else r['replicate_n'])}"
                         for _, r in missing.iterrows())
        raise ReportError(f"{ctx.out}: headline cells not measured again (under 30 hands on deals of their own): "
                          f"{said}; the report is not written, its kept work is")
    bad = out[out["beyond_chance"]]
    if len(bad):
        said = "; ".join(f"{r['position']} {r['hand_class']}: {r['gain']:+.2f}, again {r['replicate_gain']:+.2f} "
                         f"(z {r['z_replicate']:+.1f})"
                         + (f", untargeted {r['untargeted_gain']:+.2f} (z {r['z_untargeted']:+.1f})"
                            if "z_untargeted" in r and np.isfinite(r["z_untargeted"]) else "")
                         for _, r in bad.iterrows())
        raise ReportError(f"{ctx.out}: headline cells disagree with their measures again beyond chance "
                          f"(Holm, 5% over {out.attrs['tests']} comparisons): {said}; the report is not written, "
                          "its kept work is")
    return out


def replication_words(h) -> str:
    """A headline cell's replicate and its z's, as the README says them."""
    if "replicate_n" not in h or not np.isfinite(h.get("replicate_gain", np.nan)):
        return ""
    out = (f"measured again on deals of its own {h['replicate_gain']:+.2f} ({int(h['replicate_n']):,} hands, "
           f"z {h['z_replicate']:+.1f}")
    if np.isfinite(h.get("z_untargeted", np.nan)):
        out += f"; against the untargeted cell z {h['z_untargeted']:+.1f}"
    return out + ")"
