"""The statistics every printed interval comes from (pure numpy and math: layer 0).

One module so that a rate, a mean or a paired difference gets the same
interval wherever it is printed: the summary table (from tallies, so only
sums reach it), the reports (from per-deal arrays), the duel and the ladder
(from an estimate and its standard error).  Proportions get Wilson score
intervals, good near 0 and 1 where euchre and march rates live; means get a
normal interval with the sample standard deviation (n - 1), not a t
interval.
"""
from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054     # the 97.5% point of the standard normal: statistics.NormalDist().inv_cdf(0.975)


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials (no trials: NaN ends)."""
    if n == 0:
        return (math.nan, math.nan)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    # exactly 0 (1) when k is 0 (n): the formula gives it up to rounding
    return (0.0 if k == 0 else max(0.0, centre - half), 1.0 if k == n else min(1.0, centre + half))


def mean_ci(total: float, total_sq: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Mean and normal interval from a sum and a sum of squares: tallies keep only those.

    One value has no spread and so no interval (NaN ends); no values, no mean.
    """
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = total / n
    if n == 1:
        return (m, math.nan, math.nan)
    var = max(0.0, total_sq / n - m * m) * (n / (n - 1))
    half = z * math.sqrt(var / n)
    return (m, m - half, m + half)


def normal_interval(est, se, z: float = Z95):
    """est -/+ z se, for floats or arrays alike (a NaN error gives NaN ends)."""
    return est - z * se, est + z * se


def mean_interval(d, z: float = Z95) -> dict:
    """n, mean, sample sd and the mean's normal interval of per-deal values (paired differences, mostly).

    Pairing is done by the caller (the differences of one deal played two
    ways); the interval of their mean is the honest one, never the overlap of
    two intervals.  Under two values there is no sd (NaN).
    """
    d = np.asarray(d, dtype=np.float64)
    n = int(len(d))
    if n == 0:
        return {"n": 0, "mean": math.nan, "sd": math.nan, "low": math.nan, "high": math.nan}
    m = float(d.mean())
    sd = float(d.std(ddof=1)) if n > 1 else math.nan
    half = z * sd / math.sqrt(n) if n > 1 else math.nan
    return {"n": n, "mean": m, "sd": sd, "low": m - half, "high": m + half}


def sequential_z(alpha: float, comparisons: int, looks: int) -> float:
    """The z a paired difference must clear at every look for a sequential stop with error at most ``alpha``.

    The advisor looks at its samples at a schedule of sample counts fixed
    in advance and stops when the best option's paired lower bound clears
    every other option's.  A wrong stop needs one of ``comparisons`` one-sided
    tests to fail at one of ``looks`` looks, so by the union bound each test
    at level alpha / (comparisons * looks) holds the whole rule's error at
    ``alpha`` (conservative: the looks overlap), under the normal
    approximation of each mean.
    """
    if not 0 < alpha < 1 or comparisons < 1 or looks < 1:
        raise ValueError("alpha must be in (0, 1), comparisons and looks at least 1")
    from statistics import NormalDist
    return NormalDist().inv_cdf(1 - alpha / (comparisons * looks))


def holm(p_values, alpha: float = 0.05) -> list[bool]:
    """Holm's step-down procedure: which of ``p_values`` are rejected with family-wise error at most ``alpha``.

    Sorted ascending, the k-th smallest (from 0) is rejected while
    p <= alpha / (m - k), and every one after the first that is not stays
    accepted. Uniformly more powerful than Bonferroni, with no assumption on
    how the tests depend on each other: the right tool for "which of these
    many cells really differ" (a report flagging cells from hundreds of
    separate 95% tests flags some by chance alone).
    """
    p = [float(x) for x in p_values]
    m = len(p)
    out = [False] * m
    for k, i in enumerate(sorted(range(m), key=lambda j: p[j])):
        if p[i] > alpha / (m - k):
            break
        out[i] = True
    return out
