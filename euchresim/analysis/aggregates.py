"""A run's grouped tallies as tidy tables with intervals (pandas).

The cells a run tallied (``RunSpec.groups``, euchresim.run.groups) become one
row per cell that saw a hand: a column per feature with its value label,
the counts, and rates and means with 95% intervals, each with the
denominator it needs (docs/summary.md's: made out of hands; made_ok,
euchred and march out of made hands; points per made hand).

A report may ask for a grouping the run did not tally, as long as the run
tallied one that has all its features (in any order): the other features
are summed out.  So one wide grouping serves several reports.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from euchresim.stats import mean_ci, wilson
from euchresim.run.groups import GroupingError, labels, parse_grouping, radices

# rate name: (its count, its denominator)
RATES = {"made": ("made", "hands"), "made_ok": ("made_ok", "made"),
         "euchred": ("euchred", "made"), "march": ("march", "made")}
MEANS = ("maker_points", "defender_points")     # per made hand
COUNTS = ("hands", "made", "made_ok", "euchred", "march")


def cell_array(counts: dict, grouping) -> dict[str, np.ndarray]:
    """Each measure of ``grouping`` as an int64 array, one axis per feature (summed out of a wider grouping)."""
    want = parse_grouping(grouping)
    tallied = counts.get("groups", {})
    for name, measures in tallied.items():
        have = tuple(name.split(","))
        if set(want) <= set(have):
            shape = radices(have)
            drop = tuple(i for i, f in enumerate(have) if f not in want)
            kept = [f for f in have if f in want]
            order = [kept.index(f) for f in want]
            return {m: np.asarray(v, np.int64).reshape(shape).sum(axis=drop).transpose(order)
                    for m, v in measures.items()}
    raise GroupingError(f"these counts have no grouping with {','.join(want)}: they have "
                        f"{'; '.join(tallied) or 'none'} (add it to RunSpec.groups)")


def group_frame(counts: dict, grouping, players: int) -> pd.DataFrame:
    """One row per cell of ``grouping`` that saw a hand, in the features' value order.

    Columns: each feature (an ordered categorical of its labels), the counts
    (``hands``, ``made``, ``made_ok``, ``euchred``, ``march``), then for each
    rate ``R`` of ``RATES`` ``R_rate``, ``R_low``, ``R_high`` (Wilson 95%;
    NaN without a denominator), and for each of ``MEANS`` ``M_mean``,
    ``M_low``, ``M_high`` (normal 95% from the sum of squares).
    """
    want = parse_grouping(grouping)
    cells = cell_array(counts, want)
    where = np.nonzero(cells["hands"])
    out = {}
    for axis, feature in enumerate(want):
        names = labels(feature, players)
        cats = [x for x in names if x is not None]
        out[feature] = pd.Categorical([names[v] for v in where[axis]], categories=cats, ordered=True)
    for m in COUNTS:
        out[m] = cells[m][where]
    for rate, (k, n) in RATES.items():
        ks, ns = cells[k][where], cells[n][where]
        bounds = [wilson(int(a), int(b)) for a, b in zip(ks, ns)]
        out[f"{rate}_rate"] = np.where(ns > 0, ks / np.maximum(ns, 1), np.nan)
        out[f"{rate}_low"] = np.array([b[0] for b in bounds], float)
        out[f"{rate}_high"] = np.array([b[1] for b in bounds], float)
    made = cells["made"][where]
    for m in MEANS:
        stats = [mean_ci(int(t), int(t2), int(n)) for t, t2, n in
                 zip(cells[m][where], cells[m + "_sq"][where], made)]
        for j, part in enumerate(("mean", "low", "high")):
            out[f"{m}_{part}"] = np.array([s[j] for s in stats], float)
    return pd.DataFrame(out)


def feature_frame(rows, rules) -> pd.DataFrame:
    """The features of kept hand rows (``play_chunk(...).hands``, a Parquet file's rows as a record
    array), labelled as in ``group_frame``: the same definitions for a question asked after a run."""
    from euchresim.engine.features import FEATURES, NFEAT, features_of
    from euchresim.engine.tables import build_tables
    rows = np.ascontiguousarray(rows)
    values = np.zeros((len(rows), NFEAT), np.int64)
    features_of(rows, build_tables(rules), values)
    out = {}
    for j, feature in enumerate(FEATURES):
        names = labels(feature, rules.players)
        cats = [x for x in names if x is not None]
        out[feature] = pd.Categorical([names[v] for v in values[:, j]], categories=cats, ordered=True)
    return pd.DataFrame(out)


def format_group_frame(df: pd.DataFrame, grouping) -> str:
    """A plain-text table of ``group_frame``: one line a cell, rates of made hands with their intervals."""
    feats = list(grouping)
    width = {f: max(len(f), *(len(str(v)) for v in df[f])) if len(df) else len(f) for f in feats}
    head = "  ".join(f"{f:<{width[f]}}" for f in feats)
    lines = [f"{head}  {'hands':>9} {'made':>7}  {'makers took 3+':>24}  {'euchred':>24}  {'march':>7}  "
             f"{'makers points/made hand':>24}"]

    def pct(r, name):
        v = r[f"{name}_rate"]
        return "-" if v != v else f"{100 * v:6.2f}% [{100 * r[f'{name}_low']:6.2f},{100 * r[f'{name}_high']:6.2f}]"

    for _, r in df.iterrows():
        cells = "  ".join(f"{str(r[f]):<{width[f]}}" for f in feats)
        made = "-" if r["made_rate"] != r["made_rate"] else f"{100 * r['made_rate']:6.2f}%"
        march = "-" if r["march_rate"] != r["march_rate"] else f"{100 * r['march_rate']:6.2f}%"
        m = r["maker_points_mean"]
        pts = "-" if m != m else f"{m:6.3f} [{r['maker_points_low']:6.3f},{r['maker_points_high']:6.3f}]"
        lines.append(f"{cells}  {int(r['hands']):>9} {made:>7}  {pct(r, 'made_ok'):>24}  {pct(r, 'euchred'):>24}  "
                     f"{march:>7}  {pts:>24}")
    return "\n".join(lines)
