"""The win-probability report's gate: each order-or-pass class's gain against its measure again, the DP against
whole games, and a refused class judged on further streams of its own (kept apart from ``report.win_probability``,
which plays the streams, so each module stays under the limit).

The rule, as docs/reports.md states it: a headline a fresh run would not
reproduce is never printed, and a refusal is never answered by trying
another seed; the further streams a refused class is measured on are fixed
by the report's one seed.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from euchresim.stats import Z95


def replicated(out: str, gains: pd.DataFrame, rep: pd.DataFrame, chk: pd.DataFrame,
                alpha: float = 0.05, follow: bool = False) -> pd.DataFrame:
    """``gains`` with each class's points gain measured again on deals of its own (``rep``, of the replicate
    runs) and the z of the two.  Where Holm's method, over those z's and the DP's checks against whole games,
    finds one too large for two measures of one quantity (family-wise ``alpha``), the report stops with one line
    naming them: a headline a fresh run would not reproduce is never printed.  With ``follow`` a class's
    disagreement is only marked (``refused``), for ``followed_up`` to measure on further streams of its own;
    a check of the DP against games has no further stream and stops the report as before."""
    from statistics import NormalDist
    from euchresim.report import ReportError
    from euchresim.stats import holm
    res = pd.concat([gains.reset_index(drop=True), rep.reset_index(drop=True)], axis=1)
    se = lambda lo, hi: (res[hi] - res[lo]) / (2 * Z95)
    res["z_replicate"] = (res["points_gain"] - res["replicate_gain"]) / np.hypot(se("low", "high"),
                                                                                se("replicate_low", "replicate_high"))
    # an infinite z (two measures without spread that differ) is a disagreement, tested with p 0; NaN is untested
    zs = [(f"{r['class']}: {r['points_gain']:+.3f}, again {r['replicate_gain']:+.3f}", r["z_replicate"], i)
          for i, r in res.iterrows() if not np.isnan(r["z_replicate"])]
    zs += [(f"P(win) at {r['state']}: the DP {r['p_dp']:.3f}, games {r['p_games']:.3f}", r["z"], None)
           for _, r in chk.iterrows() if not np.isnan(r["z"])]
    rejected = holm([2 * (1 - NormalDist().cdf(abs(z))) for _, z, _ in zs], alpha)
    res["refused"] = False
    bad = []
    for (what, z, i), no in zip(zs, rejected):
        if no and follow and i is not None:
            res.loc[i, "refused"] = True
        elif no:
            bad.append(f"{what} (z {z:+.1f})")
    if bad:
        raise ReportError(f"{out}: headline figures disagree with their measures again beyond chance (Holm, "
                          f"{alpha:.0%} over {len(zs)} comparisons): {'; '.join(bad)}; the report is not "
                          "written, its kept work is")
    res.attrs["tests"] = len(zs)
    return res if follow else res.drop(columns="refused")


def followed_up(out: str, res: pd.DataFrame, streams: pd.DataFrame, pooled: pd.DataFrame,
                 alpha: float = 0.05) -> pd.DataFrame:
    """The classes ``replicated`` refused, judged on the further streams each was measured on (``streams``:
    a row a class and stream, ``win_probability._stream_rows``), their figure pooled over every stream
    (``pooled``: ``win_probability._gains`` over all the class's deals); the others as they were.

    A refusal's pair was picked for its difference, so that difference is not
    tested again (over all four streams it would be, and found too large by
    the very choice); their mean is not picked (of two normal measures of
    equal error, the sum is independent of the difference).  So the pair's
    mean and each further stream must agree, Cochran's Q on (streams - 2)
    degrees of freedom, Holm's method over the classes followed up at
    ``alpha`` family-wise, or the report stops naming them with every stream.
    No new seed is tried after a refusal: the further streams are fixed by
    the report's seed, and the first pair is printed beside the pool."""
    from euchresim.report import ReportError
    from euchresim.stats import holm
    res = res.assign(streams=2, streams_q=np.nan, streams_p=np.nan)
    followed = [i for i in res.index if res.loc[i, "refused"]]
    tests = []
    for i in followed:
        s = streams[streams["class"] == res.loc[i, "class"]].sort_values("stream")
        t = streams_test(s, alpha)
        tests.append(t)
        for c, v in (("deals", pooled.loc[i, "deals"]), ("points_gain", pooled.loc[i, "points_gain"]),
                     ("low", pooled.loc[i, "low"]), ("high", pooled.loc[i, "high"]), ("streams", len(s)),
                     ("streams_q", t["q"]), ("streams_p", t["p"])):
            res.loc[i, c] = v
    rejected = holm([t["p"] if t["p"] == t["p"] else 1.0 for t in tests], alpha)   # untestable: refused below
    said = lambda i: ", ".join(f"{x:+.3f}" for x in streams[streams["class"] == res.loc[i, "class"]]
                               .sort_values("stream")["gain"])
    bad = [f"{res.loc[i, 'class']}: {said(i)} (p {t['p']:.4f})"
           for i, t, no in zip(followed, tests, rejected) if no or t["p"] != t["p"]]
    if bad:
        raise ReportError(f"{out}: measured on further streams of their own, the streams still disagree "
                          f"(Cochran's Q, Holm {alpha:.0%} over {len(tests)} classes): {'; '.join(bad)}; the "
                          "report is not written, its kept work is")
    res["streams"] = res["streams"].astype(int)
    return res.drop(columns="refused")


def streams_test(s: pd.DataFrame, alpha: float = 0.05) -> dict:
    """``followed_up``'s test of one class's streams (``s``, in stream order: the refused pair, then the further
    ones): Cochran's Q over the pair's mean (its standard error half the pair's in quadrature) and each further
    stream (``analysis.targeted_stats.seats_agree``: q, df, p); the report's words read it here too, so they give
    the test the gate made, its degrees of freedom those of the streams with a spread."""
    from euchresim.analysis.targeted_stats import seats_agree
    se = ((s["high"] - s["low"]) / (2 * Z95)).to_numpy(float)
    gain = s["gain"].to_numpy(float)
    g = np.r_[gain[:2].mean(), gain[2:]]
    e = np.r_[np.hypot(se[0], se[1]) / 2, se[2:]]
    return seats_agree(g, g - Z95 * e, g + Z95 * e, alpha)
