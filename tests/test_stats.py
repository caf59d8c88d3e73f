"""euchresim.stats: each estimator against a value worked by hand, and that it is the only copy.

Literals carry 9 digits and are checked to 1e-8, fine enough to fail on
z = 1.96 (bounds move ~1e-5), on n in place of n - 1, or on an sd in place
of a standard error.  The last tests fail when a module grows its own z or
its own interval again (the issue found Z95 four times with two values).
"""
import math
import os
import re
from statistics import NormalDist

import numpy as np
import pytest

from euchresim import stats

TOL = 1e-8
ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "euchresim")


def near(got, want, tol=TOL):
    assert len(got) == len(want) and all(abs(g - w) <= tol for g, w in zip(got, want)), (got, want)


def test_z95_is_the_975_point_of_the_normal():
    assert abs(stats.Z95 - NormalDist().inv_cdf(0.975)) < 1e-15
    assert not hasattr(stats, "Z95_6")


def test_wilson_7_of_20():
    # p = .35, z^2 = 3.841458821; centre (.35 + .096036471) / 1.192072941 = .374168774
    # half 1.959964 sqrt(.011375 + .002400912) / 1.192072941 = .192976950
    near(stats.wilson(7, 20), (0.181191824, 0.567145723))


def test_wilson_ends_none_all_and_no_trials():
    z2 = stats.Z95 ** 2
    near(stats.wilson(0, 10), (0.0, z2 / (10 + z2)))         # 0.277532800
    near(stats.wilson(10, 10), (10 / (10 + z2), 1.0))
    assert stats.wilson(0, 10)[0] == 0.0 and stats.wilson(10, 10)[1] == 1.0
    assert all(math.isnan(v) for v in stats.wilson(0, 0))


def test_mean_ci_of_one_to_five_from_sum_and_sum_of_squares():
    # 1..5: sum 15, squares 55, mean 3, s^2 = (55 - 45) / 4 = 2.5, se = sqrt(.5); half = 1.385903824
    near(stats.mean_ci(15, 55, 5), (3.0, 1.614096176, 4.385903824))
    m, lo, hi = stats.mean_ci(3, 9, 1)
    assert m == 3 and math.isnan(lo) and math.isnan(hi)       # one value: no interval
    assert all(math.isnan(v) for v in stats.mean_ci(0, 0, 0))
    near(stats.mean_ci(8, 16, 4), (2.0, 2.0, 2.0))             # no spread: zero width


def test_normal_interval_floats_and_arrays():
    near(stats.normal_interval(2.0, 0.5), (1.020018008, 2.979981992))     # 2 -/+ 0.979981992
    near(stats.normal_interval(2.0, 0.5, 1.0), (1.5, 2.5))
    lo, hi = stats.normal_interval(np.array([0.0, 1.0]), np.array([1.0, 0.0]))
    near(lo, (-stats.Z95, 1.0))
    near(hi, (stats.Z95, 1.0))
    assert all(math.isnan(v) for v in stats.normal_interval(1.0, math.nan))


def test_mean_interval_of_paired_differences():
    # 2, -1, 0, 3: mean 1, squares of deviations 1+4+1+4 = 10, sd = sqrt(10/3) = 1.825741858,
    # se = sd / 2 = 0.912870929, half = 1.789194144
    r = stats.mean_interval([2, -1, 0, 3])
    assert r["n"] == 4
    near((r["mean"], r["sd"], r["low"], r["high"]), (1.0, 1.825741858, -0.789194144, 2.789194144))
    one = stats.mean_interval(np.array([4.0]))
    assert one["n"] == 1 and one["mean"] == 4.0 and all(math.isnan(one[k]) for k in ("sd", "low", "high"))
    none = stats.mean_interval(np.zeros(0))
    assert none["n"] == 0 and all(math.isnan(none[k]) for k in ("mean", "sd", "low", "high"))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_two_mean_intervals_agree(seed):
    """From sums (tallies) or from the values (reports): the same interval for the same data."""
    x = np.random.default_rng(seed).integers(-4, 5, size=37).astype(float)
    m, lo, hi = stats.mean_ci(x.sum(), (x * x).sum(), len(x))
    r = stats.mean_interval(x)
    near((m, lo, hi), (r["mean"], r["low"], r["high"]), 1e-12)


def test_every_caller_uses_the_one_module():
    from euchresim import analysis
    from euchresim.report import calls
    from euchresim.studies import counterfactual as cf
    from euchresim.studies import duel, ladder
    assert analysis.wilson is stats.wilson and analysis.mean_ci is stats.mean_ci
    assert cf.summarize(np.array([2.0, -1.0, 0.0, 3.0])) == stats.mean_interval([2, -1, 0, 3])
    assert duel.Z95 is stats.Z95 and ladder.Z95 is stats.Z95          # one z everywhere (they had six digits)
    d = np.array([1.0, 0.0, 3.0])
    row = calls.gain_table(__import__("pandas").DataFrame({"g": [0, 0, 0], "gain": d}), ["g"]).iloc[0]
    want = stats.mean_interval(d)
    assert (row["gain"], row["ci_low"], row["ci_high"]) == (want["mean"], want["low"], want["high"])


def test_no_module_writes_its_own_normal_quantile():
    """A z literal (1.96, 1.959964...) or a Wilson formula anywhere but stats.py is a second copy."""
    z = re.compile(r"1\.9599|(?<![\w.])1\.96(?![\d])")
    found = []
    for folder, _, names in os.walk(ROOT):
        for name in names:
            path = os.path.join(folder, name)
            if not name.endswith(".py") or path == os.path.join(ROOT, "stats.py"):
                continue
            with open(path, encoding="utf-8") as fh:
                for i, line in enumerate(fh, 1):
                    if z.search(line) or re.search(r"def (wilson|mean_ci)\b|Z95\s*=", line):
                        found.append(f"{os.path.relpath(path, ROOT)}:{i}: {line.strip()}")
    assert not found, "\n".join(found)
