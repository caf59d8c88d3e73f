"""How much a fitted point count moves with the deals it is fitted on (pandas).

One fit on one half of the deals says nothing of its own error: the
points, the thresholds and the held-out agreement are themselves
estimates.  Here the count is refitted on several seeded halves of the
same deals, each judged on the other half beside the baselines (always
pass, the bot's own calls, the published count) on exactly those held-out
deals, and the spread over refits is what the reports print.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from euchresim.analysis.call_stats import COUNT_CLASSES, count_points, evaluate, fit_count

REFITS = 5


def halves(n: int, seed: int) -> np.ndarray:
    """bool[n]: True for the deals a refit is fitted on (half, rounded down), False for those it is judged on.

    Seeded per refit so refit s is the same split on every run; deals,
    not chunks, are split, so a run of 4 chunks still has many splits.
    """
    fit = np.zeros(n, bool)
    fit[np.random.default_rng([seed, 0x28]).permutation(n)[: n // 2]] = True
    return fit


def refits(df: pd.DataFrame, baselines: dict, gain: str = "gain", group: str = "pos", seeds=range(REFITS),
           classes=COUNT_CLASSES) -> pd.DataFrame:
    """Long rows, one per refit and quantity: ``what`` (points, threshold, agree, given_up), ``name``, ``value``.

    ``baselines`` maps a rule's name to its calls (bool) on every row of
    ``df``; each is judged on the same held-out half as the fitted count.
    """
    rows = []
    g = df[gain].to_numpy(float)
    for s in seeds:
        fit_rows = halves(len(df), s)
        fitting, held = df[fit_rows], df[~fit_rows]
        if len(fitting) < 20 or not len(held):
            continue
        fit = fit_count(fitting, gain=gain, group=group, classes=classes)
        rows += [{"refit": s, "what": "points", "name": c, "value": float(v)} for c, v in fit["points"].items()]
        rows += [{"refit": s, "what": "threshold", "name": str(k), "value": float(v)}
                 for k, v in fit["thresholds"].items()]
        thr = held[group].map(fit["thresholds"]).astype(float).fillna(np.inf).to_numpy()
        calls = {"fitted count": count_points(held, fit["points"]) >= thr,
                 **{k: np.asarray(v, bool)[~fit_rows] for k, v in baselines.items()}}
        for name, call in calls.items():
            e = evaluate(g[~fit_rows], call)
            rows += [{"refit": s, "what": "agree", "name": name, "value": e["agree"]},
                     {"refit": s, "what": "given_up", "name": name, "value": e["given_up"]}]
    return pd.DataFrame(rows, columns=["refit", "what", "name", "value"])


def spread(long: pd.DataFrame, by=("what", "name")) -> pd.DataFrame:
    """Per quantity over refits: refits, mean, sd (n-1; 0 for one refit), min and max, in first-seen order."""
    by = list(by)
    out = long.groupby(by, sort=False)["value"].agg(refits="count", mean="mean", sd="std", min="min", max="max")
    out["sd"] = out["sd"].fillna(0.0)
    return out.reset_index()
