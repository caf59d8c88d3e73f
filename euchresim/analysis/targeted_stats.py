"""The statistics of targeted deals (``studies.counterfactual``, ``classes=``): how common a class is, seats pooled.

A targeted run keeps only the deals whose seat holds a class asked for,
so its cells are the gain given the class, as the untargeted cells are,
but its deals say nothing by themselves of how often a deal is of the
class: the deals dealt and skipped at each seat do (``class_shares``).

Pooling the seats of a targeted cell needs the same care.  Each seat
keeps a number of deals set by the run (the same at every seat, or each
seat and class its own), not by nature, so a plain mean of the kept deals
would weigh the seats by those counts, where an untargeted cell of all seats weighs
each by how often a deal reaches the cell there.  ``pooled_by_reach``
weighs each seat by that natural frequency, the class's share at the
seat times the share of those deals that reach the cell, which is the
deals reaching the cell over the deals dealt at that seat: the pooled
targeted cell then estimates what the untargeted cell of all seats
estimates.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from euchresim.engine.classes import CLASS_NAMES
from euchresim.stats import Z95, wilson


def class_shares(dealt, class_kept, classes, position: str) -> list[dict]:
    """One row per class: its deals kept at ``position`` over all dealt there, with the Wilson interval.

    ``dealt`` is the chunks' deals dealt (kept and skipped), ``class_kept``
    their kept deals by class, ``len(CLASS_NAMES)`` a chunk, as
    ``report.paired_chunks.decision_job`` gives them.
    """
    dealt = int(np.sum(dealt))
    kept = np.asarray(class_kept).reshape(-1, len(CLASS_NAMES)).sum(axis=0)
    rows = []
    for c in classes:
        k = int(kept[CLASS_NAMES.index(c)])
        low, high = wilson(k, dealt)
        rows.append({"position": position, "hand_class": c, "deals_kept": k, "deals_dealt": dealt,
                     "share": k / dealt if dealt else math.nan, "share_low": low, "share_high": high})
    return rows


def mean_share(shares, dealt, z: float = Z95) -> dict:
    """The chance a seat holds a class, averaged over the seats, with a normal interval: each seat's share
    (kept over dealt, from a deal stream of its own) counts once, so their variances add.

    Kept over dealt summed over the seats would weigh the seats by the kept counts the run set (the shares'
    harmonic mean where they are equal), a mix where the dealer's class (counting its upcard) is rarer or
    commoner than the others'.
    """
    p = np.asarray(shares, dtype=float)
    n = np.asarray(dealt, dtype=float)
    share = float(p.mean())
    se = math.sqrt(float((p * (1 - p) / n).sum())) / len(p)
    return {"share": share, "share_low": max(0.0, share - z * se), "share_high": min(1.0, share + z * se)}


def seats_agree(gains, lows, highs, alpha: float = 0.05, z: float = Z95) -> dict:
    """Do the seats' cells estimate one gain? Cochran's Q: the inverse-variance weighted squares of each
    cell's distance from their weighted mean, chi-square with (seats - 1) degrees of freedom when they do.

    A pooled figure over seats is an answer for every seat only where this
    does not reject; where it does, the answer is per seat (going alone with
    three trumps and both bowers pays at the dealer's left and costs at its
    partner: a pooled +0.19 is wrong advice for two seats). Cells without an
    interval (one hand, or every deal the same) are left out.
    """
    g = np.asarray(gains, float)
    se = (np.asarray(highs, float) - np.asarray(lows, float)) / (2 * z)
    ok = np.isfinite(g) & np.isfinite(se) & (se > 0)
    g, se = g[ok], se[ok]
    k = len(g)
    if k < 2:
        return {"q": math.nan, "df": max(k - 1, 0), "p": math.nan, "agree": k == 1}
    w = 1 / se ** 2
    mean = float((w * g).sum() / w.sum())
    q = float((w * (g - mean) ** 2).sum())
    p = _chi2_sf(q, k - 1)
    return {"q": q, "df": k - 1, "p": p, "agree": bool(p >= alpha), "mean": mean}


def seats_split(gains, lows, highs, alpha: float = 0.05, z: float = Z95) -> bool:
    """Whether some cell's gain lies above 0 and another's below: each cell's one-sided test against 0 each way,
    corrected by Holm over all of them (two a cell, family-wise ``alpha``), so with eight cells a cell on the far
    side of 0 by chance at 95% is no split.  Where the seats split, a pooled answer ("pays") is no seat's."""
    from euchresim.analysis.call_stats import beyond_zero_p
    from euchresim.stats import holm
    g = np.asarray(gains, float)
    se = (np.asarray(highs, float) - np.asarray(lows, float)) / (2 * z)
    p = [beyond_zero_p(x, e) for x, e in zip(g, se)] + [beyond_zero_p(-x, e) for x, e in zip(g, se)]
    no = holm(p, alpha)
    return bool(any(no[:len(g)]) and any(no[len(g):]))


def rates_agree(successes, totals, alpha: float = 0.05) -> dict:
    """Do the seats' rates estimate one rate? Pearson's chi-square of homogeneity on the 2 x k table of
    successes and failures, (k - 1) degrees of freedom; seats without hands are left out.  The words take
    ``q_words``'s form with "chi-square" for Cochran's Q (``chi_words``).

    A pooled rate (lone makers march in 63%) is every seat's only where this
    does not reject: the seats' lone marches run from 40% to 68%."""
    k_ = np.asarray(successes, float)
    n = np.asarray(totals, float)
    ok = n > 0
    k_, n = k_[ok], n[ok]
    if len(n) < 2 or k_.sum() in (0, n.sum()):
        return {"q": math.nan, "df": max(len(n) - 1, 0), "p": math.nan, "agree": True}
    p = k_.sum() / n.sum()
    expected = np.concatenate([n * p, n * (1 - p)])
    if expected.min() < 5:                  # the chi-square tail is no guide to so few: not tested
        return {"q": math.nan, "df": len(n) - 1, "p": math.nan, "agree": True, "small": True}
    observed = np.concatenate([k_, n - k_])
    chi = float(((observed - expected) ** 2 / expected).sum())
    pv = _chi2_sf(chi, len(n) - 1)
    return {"q": chi, "df": len(n) - 1, "p": pv, "agree": bool(pv >= alpha)}


def chi_words(test: dict) -> str:
    """A ``rates_agree`` result as words: "chi-square 41.2 on 3 degrees of freedom, p < 0.001"."""
    return q_words(test).replace("Cochran's Q", "chi-square", 1)


def _chi2_sf(x: float, df: int) -> float:
    """P(chi-square with ``df`` degrees of freedom > x), the regularised upper gamma Q(df/2, x/2) (no scipy
    needed): below a + 1 by the lower series (Q = 1 - P), above it by the continued fraction for Q itself, so a
    far tail keeps its digits (1 - P would give 4e-14 for a tail near 1e-270)."""
    if x != x:
        return math.nan
    if x <= 0:
        return 1.0
    a, t = df / 2.0, x / 2.0
    scale = math.exp(-t + a * math.log(t) - math.lgamma(a))
    if t < a + 1:
        term = total = 1.0 / a
        n = 1
        while abs(term) > 1e-15 * abs(total) and n < 10_000:
            term *= t / (a + n)
            total += term
            n += 1
        return float(min(1.0, max(0.0, 1.0 - total * scale)))
    tiny = 1e-300                   # Lentz's method for the continued fraction of Q(a, t)
    b = t + 1.0 - a
    c, d = 1.0 / tiny, 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-15:
            break
    return float(min(1.0, max(0.0, scale * h)))


def q_words(test: dict) -> str:
    """A ``seats_agree`` result as words: "Cochran's Q 11.5 on 3 degrees of freedom, p = 0.009"; three digits,
    so a p beside 5% never reads as its verdict's opposite (0.0499 is not "0.05"), and p < 0.001 as that: a
    smaller p says no more, its digits would claim a precision the normal cells do not have."""
    dof = test["df"]
    p = test["p"]
    near = abs(p - 0.05) < 0.005                    # beside the 5% the verdicts use: the digits that decide
    shown = ("p < 0.001" if p < 0.001 else "p > 0.999" if p > 0.999 else f"p = {p:.4f}" if near
             else f"p = {p:.3f}")
    return f"Cochran's Q {test['q']:.1f} on {dof} degree{'s' if dof != 1 else ''} of freedom, {shown}"


def seats_verdict(test: dict, differ_says: str, words=q_words) -> str:
    """Whether the seats (cells) share one value, in words a reader cannot take for more than the test says:
    a rejection is a difference the test finds (``differ_says`` follows it), a non-rejection only that none
    was found; fewer than two cells with an interval: not tested."""
    if test["q"] != test["q"]:
        return "not tested (fewer than two seats with 30 or more hands)"
    if test["agree"]:
        return f"the test finds no difference between the seats ({words(test)})"
    return f"the test finds the seats differ ({words(test)}): {differ_says}"


def pooled_by_reach(deals: pd.DataFrame, dealt: pd.Series, z: float = Z95) -> dict:
    """One cell of all seats from the targeted deals of one cell, each seat weighted by how often it reaches it.

    ``deals`` has a row per deal of the cell (``position``, ``gain``);
    ``dealt`` the deals dealt at each position (kept or skipped), indexed
    by position.  A seat's weight, deals reaching the cell over deals
    dealt, is itself estimated, so the interval's variance (delta method)
    has two parts: the seats' means, each weighted, and the weights, each
    by how far its seat's mean is from the pooled one (a weight's variance
    as a binomial share of the deals dealt).
    """
    g = deals.groupby("position", observed=True)["gain"]
    seats = pd.DataFrame({"reached": g.size(), "gain": g.mean(), "sd": g.std(ddof=1)})
    reached = seats["reached"].to_numpy(float)
    n = int(reached.sum())
    if n == 0:
        return {"n": 0, "gain": math.nan, "ci_low": math.nan, "ci_high": math.nan}
    d = dealt.reindex(seats.index).to_numpy(float)
    w = reached / d
    total = w.sum()
    mean = seats["gain"].to_numpy(float)
    pooled = float((w * mean).sum() / total)
    sd = np.nan_to_num(seats["sd"].to_numpy(float))
    var = ((w / total) ** 2 * sd ** 2 / reached).sum() + (((mean - pooled) / total) ** 2 * w * (1 - w) / d).sum()
    half = z * math.sqrt(var) if n > 1 else math.nan
    return {"n": n, "gain": pooled, "ci_low": pooled - half, "ci_high": pooled + half}


def replication(head: pd.DataFrame, again: pd.DataFrame, keys: list, alpha: float = 0.05,
                z: float = Z95) -> pd.DataFrame:
    """``head`` with each headline cell's replicate beside it (``again``: the same cells on deals of their own)
    and two z's: the cell against its replicate, and against the main model's untargeted cell (where that
    has 30 hands or more). ``beyond_chance`` marks the z's that Holm's method, over every z of the table,
    finds too large for two estimates of one gain at family-wise error ``alpha``.

    A headline cell is what a guide prints; one that a fresh run does not
    reproduce (the committed order-up report's left 2T R: -0.45 +-0.02,
    fresh runs -0.39 +-0.03) must stop the report, not be printed.
    """
    from statistics import NormalDist
    from euchresim.stats import holm
    rep = again[keys + ["n", "gain", "ci_low", "ci_high"]].rename(
        columns={"n": "replicate_n", "gain": "replicate_gain", "ci_low": "replicate_ci_low",
                 "ci_high": "replicate_ci_high"})
    out = head.merge(rep, on=keys, how="left")

    def se(lo, hi):
        return (np.asarray(hi, float) - np.asarray(lo, float)) / (2 * z)

    s0 = se(out["ci_low"], out["ci_high"])
    out["z_replicate"] = (out["gain"] - out["replicate_gain"]) / np.hypot(s0, se(out["replicate_ci_low"],
                                                                                out["replicate_ci_high"]))
    if "untargeted_gain" in out:
        ok = out["untargeted_n"].fillna(0) >= 30
        zu = (out["gain"] - out["untargeted_gain"]) / np.hypot(s0, se(out["untargeted_ci_low"],
                                                                      out["untargeted_ci_high"]))
        out["z_untargeted"] = np.where(ok, zu, np.nan)
    cols = [c for c in ("z_replicate", "z_untargeted") if c in out]
    # an infinite z (two cells without spread that differ: +2.00 on every deal, again +1.00) is a disagreement
    # no chance explains, not a z to leave out; a NaN z (the same constant twice, or no cell) is no test
    zs = [(i, c, float(out.at[i, c])) for i in out.index for c in cols if not np.isnan(out.at[i, c])]
    rejected = holm([2 * (1 - NormalDist().cdf(abs(v))) if np.isfinite(v) else 0.0 for _, _, v in zs], alpha)
    out["beyond_chance"] = False
    for (i, _, _), r in zip(zs, rejected):
        if r:
            out.at[i, "beyond_chance"] = True
    # a headline cell of 30+ hands whose measure again has under 30 was not measured again: the build refuses it
    reached = out["reached"] if "reached" in out else out.get("n", pd.Series(0, index=out.index))
    out["not_again"] = (reached.fillna(0) >= 30) & (out["replicate_n"].fillna(0) < 30)
    out.attrs["tests"] = len(zs)
    return out


def rate_replication(head: pd.DataFrame, again: pd.DataFrame, keys: list, alpha: float = 0.05) -> pd.DataFrame:
    """``head`` (rates: ``count`` of ``of``) with each rate measured again beside it (``again``: the same rates
    on hands of their own, as ``again_count``, ``again_of``, ``again_value``) and ``z_again``, the two-proportion
    z with the pooled rate; ``beyond_chance`` marks the z's Holm's method, over every z of the table, finds too
    large for two measures of one rate at family-wise error ``alpha``.  A rate with no hands, or pooled at 0 or
    1 (no spread to compare), has no z and is not tested.

    The rates a report's readers quote are its headline cells as much as
    a gain is: one a fresh run of the same size does not reproduce must
    stop the report (``replication`` does the same for paired gains).
    """
    from statistics import NormalDist
    from euchresim.stats import holm
    rep = again[keys + ["count", "of", "value"]].rename(
        columns={"count": "again_count", "of": "again_of", "value": "again_value"})
    out = head.merge(rep, on=keys, how="left", validate="one_to_one")
    k1, n1 = out["count"].to_numpy(float), out["of"].to_numpy(float)
    k2, n2 = out["again_count"].to_numpy(float), out["again_of"].to_numpy(float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = (k1 + k2) / (n1 + n2)
        se = np.sqrt(p * (1 - p) * (1 / n1 + 1 / n2))
        z = (k1 / n1 - k2 / n2) / se
    z[~(np.isfinite(z) & (se > 0))] = np.nan
    out["z_again"] = z
    tested = np.flatnonzero(np.isfinite(z))
    rejected = holm([2 * (1 - NormalDist().cdf(abs(z[i]))) for i in tested], alpha)
    out["beyond_chance"] = False
    out.loc[out.index[tested[np.asarray(rejected, bool)]] if len(tested) else [], "beyond_chance"] = True
    out.attrs["tests"] = len(tested)
    return out
