"""What the order-up and loner reports' targeted headline cells share: their seed and their deals at every seat.

A headline cell ("the dealer with two trumps and the right") is a few
percent of deals, so a slow main model plays it on targeted deals
(``studies.counterfactual``, ``classes=``): at each seat position, deals
dealt until that seat holds one of the classes, the rest skipped.  Both
reports ask for them the same way, from a seed of their own, and read
each class's share of all deals from the deals dealt and skipped
(``analysis.targeted``).
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from euchresim.analysis import position_names
from euchresim.analysis.targeted import class_shares
from euchresim.report.calls import collect


def targeted_seed(seed: int, position: int | None = None) -> int:
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
    return int(np.random.SeedSequence(key).generate_state(1)[0])


def targeted_deals(ctx, decision: str, positions: list[int], label: str, with_trump: bool = False,
                   own_streams: bool = False) -> tuple[list[tuple[int, dict]], pd.DataFrame]:
    """The main model's ``ctx.class_deals`` targeted deals of ``decision`` at each position (kept, resumable),
    and each class's share of all deals there; ``own_streams``: each position from a seed of its own
    (``targeted_seed``), so that the seats can be pooled."""
    names = position_names(ctx.rules.players)
    played, shares = [], []
    for p in positions:
        tctx = dataclasses.replace(ctx, seed=targeted_seed(ctx.seed, p if own_streams else None))
        d = collect(tctx, 0, decision, p, f"{label}, position {p}, targeted", classes=ctx.classes,
                    count=ctx.class_deals, with_trump=with_trump)
        played.append((p, d))
        shares += class_shares(d["dealt"], d["class_kept"], ctx.classes, names[p])
    return played, pd.DataFrame(shares)
