"""Every estimator of the analysis layer against numbers worked by hand, and by its coverage.

The estimators: ``analysis.wilson`` (a rate), ``analysis.mean_ci`` (a mean
from n, a sum and a sum of squares), the paired-difference rows of
``analysis.summary_frame`` ("edge of the dealer's side", whose tally holds
twice the edge, and "seats 0+2 less 1+3"), ``aggregates.group_frame``'s
per-cell intervals, ``duel.paired_win_rate`` / ``duel.ratio_of_sums`` /
``duel.summarize`` (A's win rate and points per hand), and
``ladder.bradley_terry`` / ``ladder.rate`` (the ratings).

Each is pinned twice:

* against a value worked out by hand in the comments and written as a
  literal to 9 digits, checked to 1e-7 (absolute).  That is fine enough to
  fail on z = 1.96 in place of 1.959964 (the bounds move by ~1e-5), on a
  standard deviation in place of a standard error (a factor sqrt(n)), on n
  in place of n - 1 in the sample variance (the code uses n - 1 everywhere:
  ``mean_ci`` by ``* n / (n - 1)``, the duel by ``ddof=1`` and
  ``n (n - 1)``), and on a wrong denominator;
  ``test_the_hand_values_tell_the_usual_mistakes_apart`` checks that each
  of those mistakes does miss the literal by more than the tolerance;
* by coverage: a known truth simulated 2000 times with numpy's seeded
  generator; the share of 95% intervals that cover it must lie within 3
  binomial standard errors, 3 sqrt(0.95 * 0.05 / 2000) = 0.0146, of 0.95.
"""
import math
from statistics import NormalDist
from math import log, sqrt

import numpy as np
import pytest

from euchresim import analysis, stats
from euchresim.run import runner
from euchresim.studies import duel as du
from euchresim.studies import ladder
from euchresim.analysis.aggregates import group_frame
from euchresim.engine.features import MEASURES
from euchresim.engine.layout import HAND_DTYPE
from euchresim.run.groups import radices
from euchresim.rules import Rules

Z = 1.959964                   # the 97.5% normal point to 7 digits, as printed tables give it
Z2 = 3.841458821               # Z * Z (with the full 1.959963984540054)
TOL = 1e-7                     # literals below carry 9 digits
REPS = 2000
COVER_TOL = 3 * sqrt(0.95 * 0.05 / REPS)      # 0.01462


def near(got, want, tol=TOL):
    got, want = tuple(got), tuple(want)
    assert len(got) == len(want), (got, want)
    assert all(abs(g - w) <= tol for g, w in zip(got, want)), (got, want)


def wilson_by_hand(k, n, z=Z):
    """(k + z^2/2 -/+ z sqrt(k (n - k) / n + z^2 / 4)) / (n + z^2): the score interval times n/n."""
    c, h = k + z * z / 2, z * sqrt(k * (n - k) / n + z * z / 4)
    return (c - h) / (n + z * z), (c + h) / (n + z * z)


def mean_by_hand(n, s, q, z=Z, ddof=1, se=True):
    """mean -/+ z s / sqrt(n), s^2 = (q - n mean^2) / (n - ddof); se=False: the SD in place of the SE."""
    m = s / n
    sd = sqrt((q - n * m * m) / (n - ddof))
    half = z * (sd / sqrt(n) if se else sd)
    return m, m - half, m + half


# ------------------------------------------------------------------ Wilson, by hand

def test_wilson_7_of_20_by_hand():
    # p = 0.35, z^2 = 3.841458821, n = 20
    # d      = 1 + z^2 / n                 = 1.192072941
    # centre = (p + z^2 / (2n)) / d        = (0.35 + 0.096036471) / 1.192072941 = 0.374168774
    # half   = z sqrt(p(1-p)/n + z^2/(4n^2)) / d
    #        = 1.959964 * sqrt(0.011375 + 0.002400912) / 1.192072941 = 0.192976950
    # bounds = 0.181191824, 0.567145723
    near(analysis.wilson(7, 20), (0.181191824, 0.567145723))
    near(wilson_by_hand(7, 20), (0.181191824, 0.567145723))
    # the score statistic (k - n t) / sqrt(n t (1 - t)) is -/+ z at the bounds
    for t, sign in zip(analysis.wilson(7, 20), (1, -1)):
        assert abs((7 - 20 * t) / sqrt(20 * t * (1 - t)) - sign * Z) < 1e-6


@pytest.mark.parametrize("k,n,want", [
    # (k + z^2/2 -/+ z sqrt(k(n-k)/n + z^2/4)) / (n + z^2)
    (2, 9, (0.063225107, 0.547411031)),      # written out in test_wilson_2_of_9_arithmetic
    (7, 9, (0.452588969, 0.936774893)),      # the mirror image of 2 of 9: 1 - hi, 1 - lo
    (2, 5, (0.117620774, 0.769275719)),
    (3, 5, (0.230724281, 0.882379226)),
    (1, 7, (0.025679624, 0.513127829)),
    (9, 9, (0.700854952, 1.0)),              # k = n: n / (n + z^2) = 9 / 12.841459, and 1
    (0, 5, (0.0, 0.434482465)),              # k = 0: 0, and z^2 / (n + z^2) = 3.841459 / 8.841459
    (0, 11, (0.0, 0.258832967)),             # 3.841459 / 14.841459
    (1, 1, (0.206549314, 1.0)),              # 1 / 4.841459
])
def test_wilson_against_hand_values(k, n, want):
    near(analysis.wilson(k, n), want)
    near(wilson_by_hand(k, n), want)


def test_wilson_2_of_9_arithmetic():
    # one case above written out: z^2/2 = 1.920729411, k(n-k)/n = 14/9 = 1.555555556,
    # z^2/4 = 0.960364705, sqrt(2.515920261) = 1.586165269, times z: 3.108826801
    # bounds (3.920729411 -/+ 3.108826801) / (9 + 3.841458821) = 0.811902610 / 12.841458821, 7.029556212 / ...
    c = 2 + 1.920729411
    h = 1.959964 * sqrt(14 / 9 + 0.960364705)
    assert abs(h - 3.108826801) < 1e-6
    near(((c - h) / (9 + Z2), (c + h) / (9 + Z2)), (0.063225107, 0.547411031))


def test_wilson_uses_the_z_it_is_given():
    z90 = 1.644854
    near(analysis.wilson(7, 20, z90), wilson_by_hand(7, 20, z90))
    assert analysis.wilson(7, 20, z90)[0] > 0.181191824 + 0.01


# ------------------------------------------------------------------ mean_ci, by hand

def test_mean_ci_by_hand():
    # 8 values [1, 0, 2, 0, 4, 0, 1, 0]: n 8, sum 8, squares 22
    # mean 1; s^2 = (22 - 8 * 1) / 7 = 2 (n - 1, the sample variance); se = sqrt(2 / 8) = 0.5
    # half = 1.959964 * 0.5 = 0.979982
    near(analysis.mean_ci(8, 22, 8), (1.0, 0.020018008, 1.979981992))
    # [1, -1, 2, -2, 4, 0, 1, -1]: n 8, sum 4, squares 28
    # mean 0.5; s^2 = (28 - 8 * 0.25) / 7 = 26/7; se = sqrt(26/56) = 0.681385144; half 1.335490342
    near(analysis.mean_ci(4, 28, 8), (0.5, -0.835490342, 1.835490342))
    # [1, 1, 2, 0, 4, 1, 1]: n 7, sum 10, squares 24
    # mean 10/7; s^2 = (24 - 100/7) / 6 = 68/42; se = sqrt(68/294) = 0.480928807; half 0.942602...
    near(analysis.mean_ci(10, 24, 7), (1.428571429, 0.485968289, 2.371174569))
    # [0, 0, 0, 2, 0, 0, 0]: n 7, sum 2, squares 4: s^2 = (4 - 4/7) / 6 = 4/7, se = sqrt(4/49) = 2/7
    near(analysis.mean_ci(2, 4, 7), (0.285714286, 0.285714286 - Z * 2 / 7, 0.285714286 + Z * 2 / 7))
    near(analysis.mean_ci(2, 4, 7), (0.285714286, -0.274275424, 0.845703996))
    # floats (the summary's halved sums): [0.5, 1.5, 2.5]: n 3, sum 4.5, squares 8.75
    # mean 1.5, s^2 = (8.75 - 6.75) / 2 = 1, se = 1 / sqrt 3
    near(analysis.mean_ci(4.5, 8.75, 3), (1.5, 1.5 - Z / sqrt(3), 1.5 + Z / sqrt(3)))
    near(mean_by_hand(8, 4, 28), (0.5, -0.835490342, 1.835490342))


def test_mean_ci_uses_the_z_it_is_given():
    m, lo, hi = analysis.mean_ci(8, 22, 8, z=1.0)
    near((m, lo, hi), (1.0, 0.5, 1.5))          # +- one standard error, sqrt(2 / 8)


# ------------------------------------------------------------------ the tests' power

def test_the_hand_values_tell_the_usual_mistakes_apart():
    """Each usual mistake misses the literals above by far more than TOL."""
    lo, hi = 0.181191824, 0.567145723           # 7 of 20
    wrong_z = wilson_by_hand(7, 20, z=1.96)
    assert min(abs(wrong_z[0] - lo), abs(wrong_z[1] - hi)) > 20 * TOL     # 2.3e-6 and 3.8e-6
    wrong_n = wilson_by_hand(7, 21)              # a wrong denominator
    assert abs(wrong_n[0] - lo) > 1e-3
    want = (0.5, -0.835490342, 1.835490342)     # the mean of n 8, sum 4, squares 28
    for name, bad in (("z 1.96", mean_by_hand(8, 4, 28, z=1.96)),
                      ("SD for SE", mean_by_hand(8, 4, 28, se=False)),
                      ("n for n - 1", mean_by_hand(8, 4, 28, ddof=0)),
                      ("n + 1 hands", mean_by_hand(9, 4, 28))):
        assert max(abs(b - w) for b, w in zip(bad, want)) > 50 * TOL, name


# ------------------------------------------------------------------ coverage

def _wilson_covers(ks, n, p):
    return np.mean([lo <= p <= hi for lo, hi in (analysis.wilson(int(k), n) for k in ks)])


@pytest.mark.parametrize("p,n,seed", [(0.02, 1000, 11), (0.3, 1000, 12), (0.5, 1000, 13), (0.3, 300, 14)])
def test_wilson_covers_a_known_rate_95_percent_of_the_time(p, n, seed):
    # Wilson's exact coverage oscillates with n; at these (p, n) it is 0.9467, 0.9509, 0.9463, 0.9494
    ks = np.random.default_rng(seed).binomial(n, p, size=REPS)
    share = _wilson_covers(ks, n, p)
    assert abs(share - 0.95) <= COVER_TOL, share


# points of one hand from a maker's or a defender's seat: skewed, a few values
POINTS = np.array([-2, -1, 0, 1, 2, 4])
POINTS_P = np.array([0.05, 0.15, 0.30, 0.30, 0.12, 0.08])
POINTS_MEAN = float(POINTS @ POINTS_P)          # -0.1 - 0.15 + 0 + 0.3 + 0.24 + 0.32 = 0.61


@pytest.mark.parametrize("n,seed", [(200, 21), (400, 22)])
def test_mean_ci_covers_a_known_mean_95_percent_of_the_time(n, seed):
    x = np.random.default_rng(seed).choice(POINTS, p=POINTS_P, size=(REPS, n))
    s, q = x.sum(axis=1), (x * x).sum(axis=1)
    cover = [lo <= POINTS_MEAN <= hi for lo, hi in
             (analysis.mean_ci(int(a), int(b), n)[1:] for a, b in zip(s, q))]
    assert abs(np.mean(cover) - 0.95) <= COVER_TOL, np.mean(cover)


# ------------------------------------------------------------------ summary_frame, a tiny tally

# Eight hands of four players (dealer seats 0, 1, 2, 3, 0, 1, 2, 3).  D: the dealer's side,
# O: the other; "pos" is the maker's position from the dealer (0 dealer, 1 left, 2 partner, 3 right).
#  hand dealer maker pos round  what                   D pts O pts  maker's pts  defender's pts
#   0    0     D    0    1    3 tricks                 1     0      1            0
#   1    1     O    1    1    3 tricks                 0     1      1            0
#   2    2     D    2    1    march                    2     0      2            0
#   3    3     D    2    2    euchred                  0     2      0            2
#   4    0     D    0    1    alone, march             4     0      4            0
#   5    1     -    -    -    thrown in                0     0      -            -
#   6    2     D    0    2    3 tricks                 1     0      1            0
#   7    3     O    3    1    3 tricks                 0     1      1            0
# edge of the dealer's side (D - O): 1, -1, 2, -2, 4, 0, 1, -1   (sum 4, squares 28)
# seat 0's side less seat 1's:       1,  1, 2,  2, 4, 0, 1,  1   (sum 12, squares 28)
# The tally holds the edge twice (runner.tally_names: 4 x the dealer's points less all four seats'),
# so dealer_edge = 2 * 4 = 8 and dealer_edge_sq = 4 * 28 = 112.
TINY = {
    "hands": 8, "made": 7, "thrown_in": 1, "redeal": 0, "made_ok": 6, "euchred": 1, "march": 2,
    "maker_alone": 1, "defender_alone": 0, "alone_made_ok": 1, "alone_march": 1, "alone_euchred": 0,
    "maker_points": 10, "maker_points_sq": 24, "defender_points": 2, "defender_points_sq": 4,
    "dealer_edge": 8, "dealer_edge_sq": 112, "side_diff": 12, "side_diff_sq": 28,
    "made_r1_pos0": 2, "made_r2_pos0": 1, "made_ok_pos0": 3, "made_pos0": 3, "points_pos0": 8, "points_sq_pos0": 22,
    "made_r1_pos1": 1, "made_r2_pos1": 0, "made_ok_pos1": 1, "made_pos1": 1, "points_pos1": 4, "points_sq_pos1": 6,
    "made_r1_pos2": 1, "made_r2_pos2": 1, "made_ok_pos2": 1, "made_pos2": 2, "points_pos2": 8, "points_sq_pos2": 22,
    "made_r1_pos3": 1, "made_r2_pos3": 0, "made_ok_pos3": 1, "made_pos3": 1, "points_pos3": 4, "points_sq_pos3": 6,
    # by seat: makers h0 s0, h1 s2, h2 s0, h3 s1, h4 s0, h6 s2, h7 s2; seat 0 and 2 score every hand's
    # side-0 points above, seats 1 and 3 nothing
    "made_seat0": 3, "made_ok_seat0": 3, "euchred_seat0": 0, "march_seat0": 2, "alone_seat0": 1,
    "points_seat0": 12, "points_sq_seat0": 28,
    "made_seat1": 1, "made_ok_seat1": 0, "euchred_seat1": 1, "march_seat1": 0, "alone_seat1": 0,
    "points_seat1": 0, "points_sq_seat1": 0,
    "made_seat2": 3, "made_ok_seat2": 3, "euchred_seat2": 0, "march_seat2": 0, "alone_seat2": 0,
    "points_seat2": 12, "points_sq_seat2": 28,
    "made_seat3": 0, "made_ok_seat3": 0, "euchred_seat3": 0, "march_seat3": 0, "alone_seat3": 0,
    "points_seat3": 0, "points_sq_seat3": 0,
}
# (dealer, maker seat or -1, maker_pos, make_round, maker_tricks, alone, euchred, march, thrown_in,
#  points of seats 0..3)
TINY_HANDS = [
    (0, 0, 0, 1, 3, 0, 0, 0, 0, (1, 0, 1, 0)),
    (1, 2, 1, 1, 3, 0, 0, 0, 0, (1, 0, 1, 0)),
    (2, 0, 2, 1, 5, 0, 0, 1, 0, (2, 0, 2, 0)),
    (3, 1, 2, 2, 1, 0, 1, 0, 0, (2, 0, 2, 0)),
    (0, 0, 0, 1, 5, 1, 0, 1, 0, (4, 0, 4, 0)),
    (1, -1, -1, 0, 0, 0, 0, 0, 1, (0, 0, 0, 0)),
    (2, 2, 0, 2, 3, 0, 0, 0, 0, (1, 0, 1, 0)),
    (3, 2, 3, 1, 4, 0, 0, 0, 0, (1, 0, 1, 0)),
]


def _row(df, label):
    hit = df[df["statistic"] == label]
    assert len(hit) == 1, f"{len(hit)} rows labelled {label!r}"
    return hit.iloc[0]


def test_the_tiny_tally_is_what_the_kernel_counts_from_its_hands():
    """The hand-built tally agrees with runner.tally of the eight hands, so its doubled edge is the kernel's."""
    rows = np.zeros(len(TINY_HANDS), HAND_DTYPE)
    for r, (dealer, maker, pos, rnd, tricks, alone, euch, march, thrown, pts) in zip(rows, TINY_HANDS):
        r["dealer"], r["maker"], r["maker_pos"], r["make_round"] = dealer, maker, pos, rnd
        r["maker_tricks"], r["maker_alone"], r["euchred"], r["march"], r["thrown_in"] = tricks, alone, euch, march, thrown
        for s in range(4):
            r[f"points{s}"] = pts[s]
    c = runner.tally(runner.ChunkResult(0, rows, np.zeros((len(rows), 20), np.int8)), 4)
    assert {k: c[k] for k in TINY} == TINY


def test_summary_rows_of_the_tiny_tally_by_hand():
    df = analysis.summary_frame(TINY, players=4, policies=["a", "b", "a", "b"])
    rates = {                                          # label: (count, of, Wilson bounds by hand)
        "trump made": (7, 8, (0.529111818, 0.977582509)),
        "thrown in": (1, 8, (0.022417491, 0.470888182)),
        "makers took 3+ tricks": (6, 7, (0.486872171, 0.974320376)),     # of made hands, not of hands
        "makers euchred": (1, 7, (0.025679624, 0.513127829)),
        "march": (2, 7, (0.082218924, 0.641065548)),
        "maker alone": (1, 7, (0.025679624, 0.513127829)),
        "defender alone": (0, 7, (0.0, Z2 / (7 + Z2))),
        "lone maker took 3+": (1, 1, (0.206549314, 1.0)),
        "trump made by the dealer's side": (5, 8, wilson_by_hand(5, 8)),
        "makers from the dealer's side took 3+": (4, 5, wilson_by_hand(4, 5)),
        "makers from dealer took 3+": (3, 3, (3 / (3 + Z2), 1.0)),
        "makers from partner took 3+": (1, 2, wilson_by_hand(1, 2)),
        "made round 2": (2, 8, wilson_by_hand(2, 8)),
        "seat 0 (a) as maker took 3+": (3, 3, (3 / (3 + Z2), 1.0)),
        "seat 1 (b) made trump": (1, 8, (0.022417491, 0.470888182)),
    }
    for label, (k, n, bounds) in rates.items():
        r = _row(df, label)
        assert (r["kind"], r["count"], r["of"]) == ("rate", k, n), label
        assert abs(r["value"] - k / n) < 1e-12, label
        near((r["ci_low"], r["ci_high"]), bounds, 1e-6)
    means = {                                          # label: (count, of, (mean, low, high) by hand)
        # D's points each hand [1, 0, 2, 0, 4, 0, 1, 0]: mean 1, s^2 2, se 0.5
        "points per hand, dealer": (8, 8, (1.0, 0.020018008, 1.979981992)),
        "points per hand, partner": (8, 8, (1.0, 0.020018008, 1.979981992)),
        # O's [0, 1, 0, 2, 0, 0, 0, 1]: mean 0.5, s^2 (6 - 2) / 7, se sqrt(4/56) = 0.267261242
        "points per hand, left": (4, 8, (0.5, -0.023822409, 1.023822409)),
        # the edge: the tally's 8 and 112 halved (and quartered): sum 4, squares 28 over 8 hands
        "edge of the dealer's side, points per hand": (4.0, 8, (0.5, -0.835490342, 1.835490342)),
        # seats 0+2 less 1+3: sum 12, squares 28; mean 1.5, s^2 (28 - 18) / 7, se sqrt(10/56) = 0.422577127
        "points per hand, seats 0+2 less 1+3": (12, 8, (1.5, 0.671764050, 2.328235950)),
        "points per hand, seat 0 (a)": (12, 8, (1.5, 0.671764050, 2.328235950)),
        # per made hand (7 of them, not 8)
        "points per made hand, makers": (10, 7, (1.428571429, 0.485968289, 2.371174569)),
        "points per made hand, each defender": (2, 7, (0.285714286, -0.274275424, 0.845703996)),
    }
    for label, (total, n, want) in means.items():
        r = _row(df, label)
        assert (r["kind"], r["count"], r["of"]) == ("mean", total, n), label
        near((r["value"], r["ci_low"], r["ci_high"]), want, 1e-6)
    # one policy at every seat: no seat rows, and no "seats 0+2 less 1+3"
    alone = analysis.summary_frame(TINY, players=4)
    assert not alone["statistic"].str.contains("seat").any()


def test_the_two_player_edge_is_not_halved():
    # 2 players: dealer_edge is once the edge (2 x dealer's points less both seats'): [1, -1, 2, -2, 4, 0, 1, -1]
    c = {"hands": 8, "dealer_edge": 4, "dealer_edge_sq": 28, "side_diff": 12, "side_diff_sq": 28}
    df = analysis.summary_frame(c, players=2, policies=["a", "b"])
    near(tuple(_row(df, "edge of the dealer, points per hand")[["value", "ci_low", "ci_high"]]),
         (0.5, -0.835490342, 1.835490342), 1e-6)
    near(tuple(_row(df, "points per hand, seat 0 less seat 1")[["value", "ci_low", "ci_high"]]),
         (1.5, 0.671764050, 2.328235950), 1e-6)
    # 3 players: twice the edge over the mean opponent, halved as with 4
    c3 = {"hands": 8, "dealer_edge": 8, "dealer_edge_sq": 112}
    near(tuple(_row(analysis.summary_frame(c3, players=3), "edge of the dealer, points per hand")
               [["value", "ci_low", "ci_high"]]), (0.5, -0.835490342, 1.835490342), 1e-6)


@pytest.mark.parametrize("seed", [31])
def test_summary_paired_differences_cover_their_mean_95_percent_of_the_time(seed):
    """The edge and 0+2 less 1+3 rows, fed a tally of simulated hands whose true mean differences are known."""
    n = 200
    rng = np.random.default_rng(seed)
    # each hand: the dealer's side's points and the other's (drawn independently: the rows see only
    # their differences), means 0.61 and 0.52, so the edge's true mean is 0.09
    d = rng.choice(POINTS, p=POINTS_P, size=(REPS, n))
    o = rng.choice(POINTS, p=POINTS_P[::-1], size=(REPS, n))
    edge = d - o
    true_edge = POINTS_MEAN - float(POINTS @ POINTS_P[::-1])
    assert abs(true_edge - 0.09) < 1e-12
    side0_deals = rng.random((REPS, n)) < 0.5          # whether seats 0 and 2 are the dealer's side
    side = np.where(side0_deals, edge, -edge)          # true mean 0 (each side deals half the hands)
    cover_edge, cover_side = [], []
    for e, s in zip(edge, side):
        c = {"hands": n, "dealer_edge": 2 * int(e.sum()), "dealer_edge_sq": 4 * int((e * e).sum()),
             "side_diff": int(s.sum()), "side_diff_sq": int((s * s).sum())}
        df = analysis.summary_frame(c, players=4, policies=["a", "b", "a", "b"])
        r = _row(df, "edge of the dealer's side, points per hand")
        cover_edge.append(r["ci_low"] <= true_edge <= r["ci_high"])
        r = _row(df, "points per hand, seats 0+2 less 1+3")
        cover_side.append(r["ci_low"] <= 0.0 <= r["ci_high"])
    assert abs(np.mean(cover_edge) - 0.95) <= COVER_TOL, np.mean(cover_edge)
    assert abs(np.mean(cover_side) - 0.95) <= COVER_TOL, np.mean(cover_side)


# ------------------------------------------------------------------ group_frame

def _cells(grouping, values):
    """A counts dict with one tallied grouping: ``values`` maps a cell's index tuple to its measures."""
    shape = radices(grouping)
    cells = {m: np.zeros(shape, np.int64) for m in MEASURES}
    for at, ms in values.items():
        for m, v in ms.items():
            cells[m][at] = v
    return {"groups": {",".join(grouping): {m: a.ravel().tolist() for m, a in cells.items()}}}


def test_group_frame_intervals_by_hand_after_summing_out_a_feature():
    # tallied by (maker_pos, make_round); asked by maker_pos alone, so round 1 and 2 add up
    c = _cells(("maker_pos", "make_round"), {
        (0, 0): dict(hands=6, made=6, made_ok=4, euchred=2, march=1, maker_points=6, maker_points_sq=10,
                     defender_points=4, defender_points_sq=8),
        (0, 1): dict(hands=3, made=3, made_ok=3, euchred=0, march=1, maker_points=5, maker_points_sq=9),
        (1, 0): dict(hands=5, made=5, made_ok=2, euchred=3, march=0, maker_points=2, maker_points_sq=2,
                     defender_points=6, defender_points_sq=12),
        (4, 2): dict(hands=11),                          # thrown in: no maker, no round
    })
    df = group_frame(c, "maker_pos", 4)
    assert list(df["maker_pos"]) == ["dealer", "left", "none"]      # partner and right saw no hand
    dealer, left, none = (df.iloc[i] for i in range(3))
    assert (dealer["hands"], dealer["made"], dealer["made_ok"], dealer["euchred"], dealer["march"]) == (9, 9, 7, 2, 2)
    # dealer: made_ok 7 of 9 (of made hands), euchred 2 of 9, march 2 of 9, made 9 of 9 (of hands)
    near((dealer["made_ok_rate"], dealer["made_ok_low"], dealer["made_ok_high"]), (7 / 9, 0.452588969, 0.936774893))
    near((dealer["euchred_rate"], dealer["euchred_low"], dealer["euchred_high"]), (2 / 9, 0.063225107, 0.547411031))
    near((dealer["march_low"], dealer["march_high"]), (0.063225107, 0.547411031))
    near((dealer["made_rate"], dealer["made_low"], dealer["made_high"]), (1.0, 0.700854952, 1.0))
    # makers' points: n 9 (made hands), sum 11, squares 19: mean 11/9, s^2 = (19 - 121/9) / 8 = 50/72,
    # se = sqrt(50/648) = 5/18; half = 1.959964 * 5/18 = 0.544434
    near((dealer["maker_points_mean"], dealer["maker_points_low"], dealer["maker_points_high"]),
         (1.222222222, 0.677787782, 1.766656662))
    # defenders' points: n 9, sum 4, squares 8: mean 4/9, s^2 = (8 - 16/9) / 8 = 7/9, se = sqrt(7)/9
    near((dealer["defender_points_mean"], dealer["defender_points_low"], dealer["defender_points_high"]),
         (0.444444444, -0.131730809, 1.020619698))
    # left: made_ok 2 of 5, euchred 3 of 5, march 0 of 5
    near((left["made_ok_low"], left["made_ok_high"]), (0.117620774, 0.769275719))
    near((left["euchred_low"], left["euchred_high"]), (0.230724281, 0.882379226))
    near((left["march_rate"], left["march_low"], left["march_high"]), (0.0, 0.0, 0.434482465))
    # n 5, sum 2, squares 2: mean 0.4, s^2 = (2 - 0.8) / 4 = 0.3, se = sqrt(0.06)
    near((left["maker_points_mean"], left["maker_points_low"], left["maker_points_high"]),
         (0.4, -0.080091168, 0.880091168))
    # n 5, sum 6, squares 12: mean 1.2, s^2 = (12 - 7.2) / 4 = 1.2, se = sqrt(0.24)
    near((left["defender_points_mean"], left["defender_points_low"], left["defender_points_high"]),
         (1.2, 0.239817665, 2.160182335))
    # none: 0 of 11 made, (0, z^2 / (11 + z^2)); nothing made, so no made-hand rate or mean
    near((none["made_rate"], none["made_low"], none["made_high"]), (0.0, 0.0, 0.258832967))
    assert all(math.isnan(none[k]) for k in ("made_ok_rate", "made_ok_low", "made_ok_high",
                                             "maker_points_mean", "maker_points_low"))


def test_group_frame_rates_cover_a_known_rate():
    """Cells whose makers succeed with a known rate: the cells' Wilson intervals cover it about 95% of the time."""
    rng = np.random.default_rng(41)
    p = (0.3, 0.7)                                     # made_ok rate of round-1 and round-2 makers
    made = rng.integers(40, 200, size=(REPS, 2))
    ok = rng.binomial(made, p)
    cover = []
    for m, k in zip(made, ok):
        c = _cells(("make_round",), {(0,): dict(hands=m[0], made=m[0], made_ok=k[0]),
                                     (1,): dict(hands=m[1], made=m[1], made_ok=k[1])})
        df = group_frame(c, "make_round", 4)
        cover += [lo <= q <= hi for lo, hi, q in zip(df["made_ok_low"], df["made_ok_high"], p)]
    assert len(cover) == 2 * REPS
    se = sqrt(0.95 * 0.05 / len(cover))
    assert abs(np.mean(cover) - 0.95) <= 3 * se, np.mean(cover)


# ------------------------------------------------------------------ the duel

def test_duel_z_is_the_normal_point():
    assert du.Z95 is stats.Z95 and ladder.Z95 is stats.Z95
    assert abs(NormalDist().cdf(stats.Z95) - 0.975) < 1e-9


def test_paired_win_rate_three_players_by_hand():
    # 3 players: six arrangements a unit; A's credits [1, .5, 0, 1, 1, 0] = 3.5 and [0, 0, 0, 1, .5, 1] = 2.5
    # d = 2 * credit - 6 = 1, -1; rate = 1/2 + mean(d) / (2 * 6) = 1/2 (6 of 12 games)
    # sd(d) = sqrt(((1 - 0)^2 + (-1 - 0)^2) / (2 - 1)) = sqrt 2; se = sqrt 2 / (2 * 6 * sqrt 2) = 1/12
    rate, se = du.paired_win_rate([1, -1], games_per_unit=6)
    near((rate, se), (0.5, 1 / 12))
    near((rate, se), (0.5, 0.083333333))
    near(du.interval(rate, se), (0.5 - 1.959964 / 12, 0.5 + 1.959964 / 12), TOL)
    near(du.interval(rate, se), (0.336669667, 0.663330333))


def test_summarize_two_players_two_games_a_sequence_by_hand():
    spec = du.DuelSpec(Rules(players=2), "baseline", "random", deals=3, chunk_size=2)
    assert spec.seatings == ("AB", "BA") and spec.games == 12
    rows = np.zeros(6, du.UNIT_DTYPE)
    # unit, arrangement, games, A's credit, A's points less B's, hands
    rows[:] = [(0, 0, 2, 2, 5, 14), (0, 1, 2, 1, -1, 16),      # credit 3 of 4, points 4 over 30 hands
               (1, 0, 2, 1, 2, 12), (1, 1, 2, 0, -6, 15),      # credit 1 of 4, points -4 over 27 hands
               (2, 0, 2, 2, 7, 11), (2, 1, 2, 2, 3, 13)]       # credit 4 of 4, points 10 over 24 hands
    o = du.summarize(spec, rows)
    assert (o["games"], o["hands"], o["a_wins"]) == (12, 81, 8)
    # per-unit rates 3/4, 1/4, 1: mean 2/3; deviations 1/12, -5/12, 4/12; sample sd
    # sqrt((1 + 25 + 16) / 144 / 2) = sqrt(42/288) = 0.381881308; se = 0.381881308 / sqrt 3 = 0.220479275
    # (the games per unit are 2 arrangements x 2 games = 4: d = 2, -2, 4, sd(d) / (2 * 4 * sqrt 3), the same)
    near((o["a_win_rate"], o["a_win_rate_se"]), (0.666666667, 0.220479275))
    # 0.666666667 -/+ 1.959964 * 0.220479275 = 0.234536..., 1.098797...: the top cut to 1
    near(o["a_win_rate_ci"], (0.666666667 - 1.959964 * 0.220479275, 1.0))
    near(o["a_win_rate_ci"], (0.234536, 1.0), 1e-6)
    # points per hand: R = (4 - 4 + 10) / (30 + 27 + 24) = 10/81; residuals x - R h = 24/81, -594/81, 570/81;
    # squares sum 678312/6561 = 103.385459; / (3 * 2) = 17.230910; sqrt = 4.151013; / mean h 27 = 0.153741
    want_se = sqrt(678312 / 6561 / 6) / 27
    near((o["points_per_hand"], o["points_per_hand_se"]), (10 / 81, want_se), 1e-12)
    near((o["points_per_hand"], o["points_per_hand_se"]), (0.123456790, 0.153741241))
    z = NormalDist().inv_cdf(0.975)          # to the last digit: this tolerance tells z from its six digits
    near(o["points_per_hand_ci"], (10 / 81 - z * want_se, 10 / 81 + z * want_se), 1e-9)


def test_duel_mistakes_are_told_apart():
    d = np.array([2.0, -2.0, 4.0])
    assert abs(d.std(ddof=0) / (8 * sqrt(3)) - 0.220479275) > 1e-2   # n in place of n - 1
    assert abs(d.std(ddof=1) / 8 - 0.220479275) > 1e-1              # SD in place of SE
    assert abs(d.std(ddof=1) / (4 * sqrt(3)) - 0.220479275) > 1e-1  # m in place of 2m


def _duel_rows(rng, spec, p_fav, p_unfav, mu, luck):
    """4-player units: the deals favour seats 0+2 or 1+3 (a coin); A wins the favoured seating with p_fav,
    the other with p_unfav.  A's points less B's per hand: mu plus the deal's luck (+-luck, cancelling
    between the two seatings) plus noise; 4 to 14 hands a game."""
    n = spec.deals
    fav0 = rng.random(n) < 0.5                        # the deals favour seats 0 and 2
    rows = np.zeros(2 * n, du.UNIT_DTYPE)
    rows["unit"] = np.repeat(np.arange(n), 2)
    rows["arr"] = np.tile([0, 1], n)
    rows["games"] = 1
    a_fav = np.stack([fav0, ~fav0], axis=1)           # arrangement 0: A at 0 and 2; 1: A at 1 and 3
    p = np.where(a_fav, p_fav, p_unfav)
    rows["a_wins"] = (rng.random((n, 2)) < p).ravel()
    hands = rng.integers(4, 15, size=(n, 2))
    noise = rng.choice(POINTS, p=POINTS_P, size=(n, 2, 14)) - POINTS_MEAN
    noise *= np.arange(14)[None, None, :] < hands[:, :, None]
    rows["points"] = (hands * (mu + np.where(a_fav, luck, -luck)) + noise.sum(axis=2)).ravel()
    rows["hands"] = hands.ravel()
    return rows


def test_duel_intervals_cover_the_true_win_rate_and_points_per_hand():
    spec = du.DuelSpec(Rules(players=4), "baseline", "random", deals=150)
    rng = np.random.default_rng(51)
    p_fav, p_unfav, mu = 0.8, 0.35, 0.15
    true_rate = (p_fav + p_unfav) / 2                 # 0.575
    cover_rate, cover_pph = [], []
    for _ in range(REPS):
        o = du.summarize(spec, _duel_rows(rng, spec, p_fav, p_unfav, mu, luck=0.6))
        lo, hi = o["a_win_rate_ci"]
        cover_rate.append(lo <= true_rate <= hi)
        lo, hi = o["points_per_hand_ci"]
        cover_pph.append(lo <= mu <= hi)
    assert abs(np.mean(cover_rate) - 0.95) <= COVER_TOL, np.mean(cover_rate)
    assert abs(np.mean(cover_pph) - 0.95) <= COVER_TOL, np.mean(cover_pph)


# ------------------------------------------------------------------ the ladder

def test_bradley_terry_three_policies_by_hand():
    # With one virtual tie a pair, (w + 1/2) / (g + 1) is the observed share.  Choose shares the model
    # meets exactly: ratings (ln 3, 0, -ln 3) give odds 3 between neighbours (p = 0.75) and 9 between
    # 0 and 2 (p = 0.9).  39 games a pair (40 with the tie): 29.5 wins (30 of 40) and 35.5 (36 of 40).
    results = [(0, 1, 29.5, 39), (0, 2, 35.5, 39), (1, 2, 29.5, 39)]
    r, cov = ladder.bradley_terry(3, results)
    near(r, (log(3), 0.0, -log(3)), 1e-9)
    # information: a Laplacian with weights g p (1 - p): 40 * .75 * .25 = 7.5 (neighbours), 40 * .9 * .1 = 3.6
    # its eigenvectors off the ones: (1, 0, -1)/sqrt 2 with 7.5 + 2 * 3.6 = 14.7 and (1, -2, 1)/sqrt 6 with
    # 3 * 7.5 = 22.5; the pseudo-inverse is u u' / 14.7 + v v' / 22.5:
    # var r0 = 1/(2 * 14.7) + 1/(6 * 22.5) = 0.034013605 + 0.007407407 = 0.041421012
    # var r1 = 4/(6 * 22.5) = 0.029629630; cov r0 r2 = -0.034013605 + 0.007407407 = -0.026606198
    # cov r0 r1 = -2/(6 * 22.5) = -0.014814815
    near(np.diag(cov), (0.041421012, 0.029629630, 0.041421012))
    near((cov[0, 2], cov[0, 1], cov[1, 2]), (-0.026606198, -0.014814815, -0.014814815))

    duels = [{"a_wins": w, "games": g, "a_win_rate": w / g} for _, _, w, g in results]
    o = ladder.rate(["x", "y", "z"], duels)
    elo = 400 / log(10)                                # 173.717793 Elo points a natural-log unit
    top = o["ratings"][0]
    assert [t["policy"] for t in o["ratings"]] == ["x", "y", "z"] and [t["rank"] for t in o["ratings"]] == [1, 2, 3]
    # x: 173.717793 * ln 3 = 190.848501; se 173.717793 * sqrt(0.041421012) = 35.355311; ci -/+ 1.959964 se
    se0 = elo * sqrt(0.041421012)
    near((top["elo"], top["elo_se"]), (190.848502, 35.355311), 1e-6)
    near((top["elo"], top["elo_se"]), (elo * log(3), se0), 1e-6)
    near(top["elo_ci"], (elo * log(3) - 1.959964 * se0, elo * log(3) + 1.959964 * se0), 1e-6)
    near((o["ratings"][1]["elo"], o["ratings"][1]["elo_se"]), (0.0, elo * sqrt(0.029629630)), 1e-6)
    assert [t["games"] for t in o["ratings"]] == [78, 78, 78] and o["games"] == 117
    assert o["win_rate"][2][0] == pytest.approx(1 - 35.5 / 39)


def test_ladder_ratings_cover_the_true_ratings():
    """Three policies with known ratings, 300 games a pair: each 95% Elo interval covers the true rating
    (mean 0) about 95% of the time (1000 repetitions: 3 standard errors are 0.0207)."""
    reps, games = 1000, 300
    true = np.array([0.4, 0.0, -0.4])                 # mean 0, as the fit's
    rng = np.random.default_rng(61)
    pairs = ladder.pairs(3)
    p = [1 / (1 + math.exp(true[j] - true[i])) for i, j in pairs]
    wins = rng.binomial(games, p, size=(reps, len(pairs)))
    cover = []
    for w in wins:
        duels = [{"a_wins": float(x), "games": games, "a_win_rate": x / games} for x in w]
        o = ladder.rate(["p0", "p1", "p2"], duels)
        for row in o["ratings"]:
            t = ladder.ELO * true[int(row["policy"][1])]
            cover.append(row["elo_ci"][0] <= t <= row["elo_ci"][1])
    share = np.mean(cover)
    assert abs(share - 0.95) <= 3 * sqrt(0.95 * 0.05 / reps), share
