"""The statistics a run prints, and every estimator behind them, each against numbers worked by hand.

* ``stats.wilson``, ``stats.mean_ci``, ``stats.normal_interval`` and
  ``stats.mean_interval`` against the textbook formulas (written here in
  another, equivalent form), against published and hand-worked numbers, and
  by their coverage: the exact coverage (summing the sampling distribution
  over the outcomes whose interval covers the truth) must be near 95%, and a
  fixed-seed simulation must agree with the exact figure within 4 binomial
  standard errors.  ``stats`` is the only copy: the last tests of its section
  fail when a module grows its own z or its own interval again.
* ``analysis.summary_frame``: every row's count, denominator (``of``),
  value and interval from a hand-built tally whose keys all hold different
  numbers, so a row divided by the wrong count cannot pass.  Rows are found
  by their ``statistic`` label, never by position.
* ``runner.tally``: games won by seat position (R3, R12) from hand-made game
  rows, and the rows' ``maker_pos`` from real chunks.
* the analysis layer's estimators: the paired-difference rows of
  ``summary_frame`` ("edge of the dealer's side", whose tally holds twice
  the edge, and "seats 0+2 less 1+3"), ``aggregates.group_frame``'s per-cell
  intervals, ``duel.paired_win_rate`` / ``duel.ratio_of_sums`` /
  ``duel.summarize`` and ``ladder.bradley_terry`` / ``ladder.rate``.

Hand-worked literals carry 9 digits and are checked to 1e-8 (``stats``) or
1e-7: fine enough to fail on z = 1.96 in place of 1.959964 (the bounds move
by ~1e-5), on a standard deviation in place of a standard error (a factor
sqrt(n)), on n in place of n - 1 in the sample variance (the code uses n - 1
everywhere: ``mean_ci`` by ``* n / (n - 1)``, the duel by ``ddof=1`` and
``n (n - 1)``), and on a wrong denominator;
``test_the_hand_values_tell_the_usual_mistakes_apart`` checks that each of
those mistakes does miss the literal by more than the tolerance.  Coverage
by simulation: a known truth simulated 2000 times with numpy's seeded
generator; the share of 95% intervals that cover it must lie within 3
binomial standard errors, 3 sqrt(0.95 * 0.05 / 2000) = 0.0146, of 0.95.
"""
import math
import os
import re
from math import comb, log, sqrt
from statistics import NormalDist, mean, stdev

import numpy as np
import pytest

from euchresim import analysis, stats
from euchresim.analysis.aggregates import group_frame
from euchresim.engine.features import MEASURES
from euchresim.engine.layout import GAME_DTYPE, HAND_DTYPE
from euchresim.rules import Rules
from euchresim.run import runner
from euchresim.run.groups import radices
from euchresim.studies import duel as du
from euchresim.studies import ladder
from tests.helpers import duel_spec, rows_of

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "euchresim")

Z = 1.959963984540054          # the 97.5% point of the standard normal: a two-sided 95% interval


def textbook_wilson(k, n, z=Z):
    """The Wilson score interval as the roots of (n + z^2) t^2 - (2k + z^2) t + k^2/n = 0.

    That quadratic is |k/n - t| = z sqrt(t (1 - t) / n) squared; its roots are
    ((2k + z^2) -+ z sqrt(z^2 + 4k(n - k)/n)) / (2 (n + z^2)).
    """
    root = z * sqrt(z * z + 4 * k * (n - k) / n)
    return ((2 * k + z * z - root) / (2 * (n + z * z)), (2 * k + z * z + root) / (2 * (n + z * z)))


def textbook_mean_ci(xs, z=Z):
    """mean +- z s / sqrt(n), s the sample standard deviation (divisor n - 1)."""
    m = mean(xs)
    half = z * stdev(xs) / sqrt(len(xs))
    return m, m - half, m + half


def close(a, b, tol=1e-12):
    return all(math.isclose(x, y, rel_tol=tol, abs_tol=tol) for x, y in zip(a, b, strict=True))


# ------------------------------------------------------------------ the 95% point

def test_z95_is_the_975_percent_point_of_the_normal():
    assert math.isclose(Z, NormalDist().inv_cdf(0.975), rel_tol=1e-12)
    assert math.isclose(stats.Z95, Z, rel_tol=1e-12)


# ------------------------------------------------------------------ Wilson

@pytest.mark.parametrize("k,n", [(0, 1), (1, 1), (0, 7), (3, 7), (7, 7), (1, 10), (50, 100),
                                 (9, 1000), (4999, 10000), (123456, 1000003)])
def test_wilson_by_default_is_the_95_percent_score_interval(k, n):
    lo, hi = stats.wilson(k, n)                   # the default z, as summary_frame calls it
    assert close((lo, hi), textbook_wilson(k, n))
    # the defining property: the score statistic is -+ z at the bounds (with 0 < k < n
    # both lie strictly inside (0, 1); k = 0 and k = n put one bound at 0 or 1)
    for t, sign in ((lo, 1), (hi, -1)):
        if 0 < k < n:
            assert math.isclose((k - n * t) / sqrt(n * t * (1 - t)), sign * Z, rel_tol=1e-9)


def test_wilson_explicit_z_is_used():
    z90 = NormalDist().inv_cdf(0.95)
    assert close(stats.wilson(3, 7, z90), textbook_wilson(3, 7, z90))
    assert stats.wilson(3, 7, z90)[1] < stats.wilson(3, 7)[1]


def test_wilson_published_values():
    # Newcombe (1998), Statistics in Medicine 17:857, Table I, method 3 (score, no continuity correction)
    for (k, n), want in {(81, 263): (0.2553, 0.3662), (15, 148): (0.0624, 0.1605),
                         (0, 20): (0.0000, 0.1611), (1, 29): (0.0061, 0.1718)}.items():
        lo, hi = stats.wilson(k, n)
        assert abs(lo - want[0]) <= 5e-5 and abs(hi - want[1]) <= 5e-5, (k, n, lo, hi)


def test_wilson_hand_worked_values():
    z2 = Z * Z                                       # 3.841458820694124
    assert all(math.isnan(v) for v in stats.wilson(0, 0))          # no trials: no interval
    # k = 0: the lower root is 0 and the upper z^2 / (n + z^2)
    assert close(stats.wilson(0, 10), (0.0, z2 / (10 + z2)))
    assert abs(stats.wilson(0, 10)[1] - 0.2775328) < 1e-7
    # k = n: the mirror image, n / (n + z^2) up to 1
    assert close(stats.wilson(10, 10), (10 / (10 + z2), 1.0))
    assert abs(stats.wilson(10, 10)[0] - 0.7224672) < 1e-7
    # n = 1
    assert close(stats.wilson(0, 1), (0.0, z2 / (1 + z2)))
    assert close(stats.wilson(1, 1), (1 / (1 + z2), 1.0))
    assert abs(stats.wilson(1, 1)[0] - 0.2065493) < 1e-7
    # 5 of 10: centred on 1/2, half-width z sqrt(1/40 + z^2/400) / (1 + z^2/10)
    lo, hi = stats.wilson(5, 10)
    assert math.isclose(lo + hi, 1.0, rel_tol=1e-12)
    assert math.isclose(hi - 0.5, Z * sqrt(1 / 40 + z2 / 400) / (1 + z2 / 10), rel_tol=1e-12)
    assert abs(lo - 0.2366) < 5e-5 and abs(hi - 0.7634) < 5e-5


def binom_pmf(n, p):
    return [comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1)]


@pytest.mark.parametrize("n,p,seed", [(200, 0.1, 1), (200, 0.5, 2)])
def test_wilson_exact_coverage_is_near_95_percent_and_a_simulation_agrees(n, p, seed):
    reps = 4000
    covers = [lo <= p <= hi for lo, hi in (stats.wilson(k, n) for k in range(n + 1))]
    exact = sum(w for w, c in zip(binom_pmf(n, p), covers) if c)
    # Wilson's coverage oscillates around 95%; at these n, p it is within 0.01
    assert abs(exact - 0.95) <= 0.01, exact
    ks = np.random.default_rng(seed).binomial(n, p, size=reps)
    simulated = np.mean([covers[k] for k in ks])
    assert abs(simulated - exact) <= 4 * sqrt(exact * (1 - exact) / reps), (simulated, exact)


# ------------------------------------------------------------------ means

def test_mean_ci_by_default_is_mean_plus_minus_z_standard_errors():
    for xs in ([1, 2, 3, 4, 5], [0, 0, 1, 4, 2, 2, 0, 1], [3, 9], list(range(-5, 40, 3)),
               [0] * 97 + [4] * 3):
        got = stats.mean_ci(sum(xs), sum(x * x for x in xs), len(xs))
        assert close(got, textbook_mean_ci(xs), tol=1e-9), xs


def test_mean_ci_hand_worked_values():
    # 1..5: mean 3, s^2 = 10/4, standard error sqrt(2.5/5) = sqrt(0.5)
    m, lo, hi = stats.mean_ci(15, 55, 5)
    assert m == 3 and math.isclose(hi - m, Z * sqrt(0.5), rel_tol=1e-12)
    assert math.isclose(m - lo, Z * sqrt(0.5), rel_tol=1e-12)
    assert abs(lo - 1.614096) < 1e-6 and abs(hi - 4.385904) < 1e-6
    # no spread: a zero-width interval at the value
    assert close(stats.mean_ci(8, 16, 4), (2.0, 2.0, 2.0))
    assert all(math.isnan(v) for v in stats.mean_ci(0, 0, 0))      # no observations
    assert stats.mean_ci(3, 9, 1)[0] == 3                            # one observation: its value


def test_mean_ci_one_observation_has_no_interval():
    m, lo, hi = stats.mean_ci(3, 9, 1)
    assert m == 3 and math.isnan(lo) and math.isnan(hi)


def dice_sum_and_squares(n, faces=6):
    """P(sum, sum of squares) of n fair dice, exactly, by adding one die at a time."""
    top, top_sq = faces * n, faces * faces * n
    prob = np.zeros((top + 1, top_sq + 1))
    prob[0, 0] = 1.0
    for _ in range(n):
        nxt = np.zeros_like(prob)
        for f in range(1, faces + 1):
            nxt[f:, f * f:] += prob[:top + 1 - f, :top_sq + 1 - f * f]
        prob = nxt / faces
    s, q = np.nonzero(prob)
    return s, q, prob[s, q]


def test_mean_ci_covers_a_die_s_mean_95_percent_of_the_time():
    n, reps, mu = 50, 4000, 3.5
    s, q, pr = dice_sum_and_squares(n)
    assert math.isclose(pr.sum(), 1.0, rel_tol=1e-9)
    covered = {}
    for si, qi in zip(s.tolist(), q.tolist()):
        _, lo, hi = stats.mean_ci(si, qi, n)
        covered[si, qi] = lo <= mu <= hi
    exact = float(sum(p for si, qi, p in zip(s.tolist(), q.tolist(), pr) if covered[si, qi]))
    # a normal interval with the sample s: a little under 95% at n = 50 (it is not a t interval)
    assert abs(exact - 0.95) <= 0.01, exact
    rolls = np.random.default_rng(3).integers(1, 7, size=(reps, n))
    sims = [covered[int(a), int(b)] for a, b in zip(rolls.sum(1), (rolls * rolls).sum(1))]
    simulated = float(np.mean(sims))
    assert abs(simulated - exact) <= 4 * sqrt(exact * (1 - exact) / reps), (simulated, exact)


# ------------------------------------------------------------------ summary_frame rows

NAMES = {4: ["dealer", "left", "partner", "right"], 3: ["dealer", "left", "right"], 2: ["dealer", "non-dealer"]}

# A tally with a different number under every key, so each row's denominator is
# identified.  The numbers need not be a possible run (partners' game wins differ here).
COUNTS4 = {
    "hands": 100_000, "made": 70_170, "thrown_in": 29_830, "redeal": 1_237,
    "made_ok": 52_111, "euchred": 18_059, "march": 9_041,
    "maker_alone": 3_083, "alone_made_ok": 2_087, "alone_march": 1_091, "alone_euchred": 996,
    "defender_alone": 1_097,
    "made_r1_pos0": 12_019, "made_r1_pos1": 20_011, "made_r1_pos2": 15_013, "made_r1_pos3": 9_017,
    "made_r2_pos0": 2_031, "made_r2_pos1": 5_023, "made_r2_pos2": 4_027, "made_r2_pos3": 3_029,
    "made_pos0": 14_050, "made_pos1": 25_034, "made_pos2": 19_040, "made_pos3": 12_046,
    "made_ok_pos0": 10_061, "made_ok_pos1": 18_067, "made_ok_pos2": 14_071, "made_ok_pos3": 9_912,
    "points_pos0": 40_127, "points_sq_pos0": 70_139, "points_pos1": 41_149, "points_sq_pos1": 72_151,
    "points_pos2": 42_157, "points_sq_pos2": 74_159, "points_pos3": 43_163, "points_sq_pos3": 76_171,
    "games": 4_001, "wins_pos0": 2_003, "wins_pos1": 1_999, "wins_pos2": 2_011, "wins_pos3": 1_987,
    "game_hands": 60_017, "game_hands_sq": 1_000_033, "bridge": 613, "shared_wins": 211,
    "rubbers": 1_301, "rubber_side0": 667, "rubber_margin": 5_209, "rubber_margin_sq": 27_011,
    "rubber_games": 3_203,
}


def counts_for(players):
    c = {k: v for k, v in COUNTS4.items()
         if not any(k.endswith(f"pos{p}") for p in range(players, 4))}
    if players != 3:
        c.pop("shared_wins")
    if players != 4:
        for k in [k for k in c if k.startswith("rubber")]:
            c.pop(k)
    return c


def expected_rows(players):
    """label -> ('rate', numerator, denominator) or ('mean', total key, squares key, denominator)."""
    names = NAMES[players]
    order = list(range(1, players)) + [0]
    rows = {"trump made": ("rate", "made", "hands"),
            "made round 2": ("rate", [f"made_r2_pos{p}" for p in range(players)], "hands"),
            "thrown in": ("rate", "thrown_in", "hands"),
            "joker redeal": ("rate", "redeal", "hands"),
            "makers took 3+ tricks": ("rate", "made_ok", "made"),
            "makers euchred": ("rate", "euchred", "made"),
            "march": ("rate", "march", "made"),
            "games won by first dealer": ("rate", "wins_pos0", "games"),
            "hands per game": ("mean", "game_hands", "game_hands_sq", "games"),
            "games with a side at the bridge": ("rate", "bridge", "games")}
    for p in order:
        rows[f"made round 1 by {names[p]}"] = ("rate", f"made_r1_pos{p}", "hands")
        rows[f"made round 2 by {names[p]}"] = ("rate", f"made_r2_pos{p}", "hands")
        rows[f"makers from {names[p]} took 3+"] = ("rate", f"made_ok_pos{p}", f"made_pos{p}")
        rows[f"points per hand, {names[p]}"] = ("mean", f"points_pos{p}", f"points_sq_pos{p}", "hands")
        if p:
            rows[f"games won by first dealer's {names[p]}"] = ("rate", f"wins_pos{p}", "games")
    if players > 2:
        rows.update({"maker alone": ("rate", "maker_alone", "made"),
                     "lone maker took 3+": ("rate", "alone_made_ok", "maker_alone"),
                     "lone maker marched": ("rate", "alone_march", "maker_alone"),
                     "defender alone": ("rate", "defender_alone", "made")})
    if players == 3:
        rows["shared wins"] = ("rate", "shared_wins", "games")
    if players == 4:
        rows.update({"rubbers won by seats 0 and 2": ("rate", "rubber_side0", "rubbers"),
                     "rubber margin": ("mean", "rubber_margin", "rubber_margin_sq", "rubbers")})
    return rows


def row(df, label):
    hit = df[df["statistic"] == label]
    assert len(hit) == 1, f"{len(hit)} rows labelled {label!r}"
    return hit.iloc[0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_summary_rows_count_divide_by_their_own_denominator_with_95_percent_intervals(players):
    c = counts_for(players)
    assert len(set(c.values())) == len(c), "every key must hold a different number"
    df = analysis.summary_frame(c, players=players)
    for label, spec in expected_rows(players).items():
        r = row(df, label)
        if spec[0] == "rate":
            _, num, den = spec
            k = sum(c[x] for x in num) if isinstance(num, list) else c[num]
            n = c[den]
            assert (r["kind"], r["count"], r["of"]) == ("rate", k, n), (label, r["count"], r["of"])
            assert math.isclose(r["value"], k / n, rel_tol=1e-12), label
            assert close((r["ci_low"], r["ci_high"]), textbook_wilson(k, n)), label
        else:
            _, tot, sq, den = spec
            n = c[den]
            m = c[tot] / n
            half = Z * sqrt((c[sq] - n * m * m) / (n - 1) / n)
            assert (r["kind"], r["count"], r["of"]) == ("mean", c[tot], n), label
            assert close((r["value"], r["ci_low"], r["ci_high"]), (m, m - half, m + half), tol=1e-9), label
    if players == 4:
        r = row(df, "games per rubber")
        assert r["of"] == c["rubbers"] and math.isclose(r["value"], c["rubber_games"] / c["rubbers"])
        assert math.isnan(r["ci_low"]) and math.isnan(r["ci_high"])


def test_summary_rate_with_nothing_to_divide_is_nan():
    c = dict(counts_for(4), made_pos2=0, made_ok_pos2=0)
    r = row(analysis.summary_frame(c, players=4), "makers from partner took 3+")
    assert r["of"] == 0 and math.isnan(r["value"]) and math.isnan(r["ci_low"]) and math.isnan(r["ci_high"])


def test_printed_summary_shows_the_euchre_rate_of_made_hands_and_its_95_percent_interval():
    c = counts_for(4)
    text = analysis.format_summary(analysis.summary_frame(c, players=4))
    line = next(ln for ln in text.splitlines() if ln.startswith("makers euchred "))
    k, n = c["euchred"], c["made"]
    lo, hi = textbook_wilson(k, n)
    assert f"{100 * k / n:8.2f}%" in line and f"[{100 * lo:6.2f}, {100 * hi:6.2f}]%" in line, line
    assert line.split()[-2:] == [str(k), str(n)]


# ------------------------------------------------------------------ tallies: positions (R3)

def games_result(rows):
    """A chunk with no hand rows and the given (first_dealer, winners mask) game rows."""
    g = np.zeros(len(rows), GAME_DTYPE)
    for i, (first, winners) in enumerate(rows):
        g[i]["first_dealer"], g[i]["winners"], g[i]["hands"] = first, winners, 10 + i
    return runner.ChunkResult(0, np.zeros(0, HAND_DTYPE), np.zeros((0, 20), np.int8), games=g)


# (first dealer, winners' seat mask, the winners' positions counted from the first
# dealer clockwise: 1 is the first dealer's left, seat first + 1)
GAMES = {
    2: [(0, 0b01, [0]), (0, 0b10, [1]), (1, 0b01, [1]), (1, 0b10, [0]), (1, 0b01, [1])],
    3: [(0, 0b010, [1]), (2, 0b001, [1]), (1, 0b001, [2]), (2, 0b100, [0]), (1, 0b011, [2, 0]),
        (0, 0b100, [2]), (2, 0b010, [2]), (0, 0b001, [0])],
    4: [(0, 0b0101, [0, 2]), (1, 0b0101, [3, 1]), (3, 0b0101, [1, 3]), (2, 0b1010, [3, 1]),
        (1, 0b1010, [0, 2]), (3, 0b1010, [2, 0]), (0, 0b1010, [1, 3])],
}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r3_r12_game_wins_counted_by_position_from_the_first_dealer(players):
    games = GAMES[players]
    c = runner.tally(games_result([(f, w) for f, w, _ in games]), players)
    want = [sum(pos.count(p) for _, _, pos in games) for p in range(players)]
    assert [c[f"wins_pos{p}"] for p in range(players)] == want
    assert c["games"] == len(games) and c["game_hands"] == sum(10 + i for i in range(len(games)))
    if players == 3:
        assert c["shared_wins"] == 1
    if players in (2, 3):          # the cases must tell the positions apart
        assert len(set(want)) == players


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("mode", ["hands", "games"])
def test_r3_maker_pos_is_the_makers_seat_counted_from_the_dealer(players, mode):
    _, res = rows_of(players, 24, "random", seed=20 + players, n=3000 if mode == "hands" else 60, mode=mode)
    h = res.hands
    maker = h["maker"].astype(np.int64)
    dealer = h["dealer"].astype(np.int64)
    made = maker >= 0
    assert np.array_equal(h["maker_pos"][made], (maker[made] - dealer[made]) % players)
    assert (h["maker_pos"][~made] == -1).all()
    # the rows must hold makers on both sides of the dealer, where a wrap by 4 goes wrong
    assert (made & (maker < dealer)).sum() > 0 and (made & (maker > dealer)).sum() > 0


def _side_and_seat_counts(players):
    c = counts_for(players)
    extra = {"maker_points": 51_001, "maker_points_sq": 90_007, "defender_points": 20_011,
             "defender_points_sq": 40_013, "dealer_edge": 9_001, "dealer_edge_sq": 700_003,
             "side_diff": -3_001, "side_diff_sq": 650_009}
    for s in range(players):
        extra.update({f"made_seat{s}": 5_101 + s, f"made_ok_seat{s}": 4_201 + s, f"euchred_seat{s}": 801 + s,
                      f"march_seat{s}": 301 + s, f"alone_seat{s}": 51 + s, f"points_seat{s}": 30_001 + s,
                      f"points_sq_seat{s}": 61_003 + s})
    c.update(extra)
    return c


@pytest.mark.parametrize("players", [2, 3, 4])
def test_side_and_seat_rows_divide_by_their_own_denominator(players):
    c = _side_and_seat_counts(players)
    policies = ["baseline", "random", "baseline", "random"][:players]
    df = analysis.summary_frame(c, players=players, policies=policies)
    mine = [0, 2] if players == 4 else [0]
    other = [p for p in range(players) if p not in mine]
    ours, theirs = ("the dealer's side", "the other side") if players == 4 else (
        "the dealer", "the others" if players == 3 else "the non-dealer")
    want = {f"trump made by {ours}": (sum(c[f"made_pos{p}"] for p in mine), c["hands"]),
            f"trump made by {theirs}": (sum(c[f"made_pos{p}"] for p in other), c["hands"])}
    if len(other) > 1:
        want[f"makers from {theirs} took 3+"] = (sum(c[f"made_ok_pos{p}"] for p in other),
                                                 sum(c[f"made_pos{p}"] for p in other))
    for s in range(players):
        who = f"seat {s} ({policies[s]})"
        want[f"{who} made trump"] = (c[f"made_seat{s}"], c["hands"])
        want[f"{who} as maker took 3+"] = (c[f"made_ok_seat{s}"], c[f"made_seat{s}"])
    for label, (k, n) in want.items():
        r = row(df, label)
        assert (r["count"], r["of"]) == (k, n), label
        assert close((r["ci_low"], r["ci_high"]), textbook_wilson(k, n)), label
    scale = 1 if players == 2 else 2        # 3 and 4 players: the tally holds twice the dealer's edge
    means = {f"edge of {ours}, points per hand": ("dealer_edge", c["hands"], scale),
             "points per made hand, makers": ("maker_points", c["made"], 1),
             "points per made hand, each defender": ("defender_points", c["made"], 1)}
    for s in range(players):
        means[f"points per hand, seat {s} ({policies[s]})"] = (f"points_seat{s}", c["hands"], 1, f"points_sq_seat{s}")
    if players != 3:
        means["points per hand, seats 0+2 less 1+3" if players == 4 else
              "points per hand, seat 0 less seat 1"] = ("side_diff", c["hands"], 1)
    for label, (key, n, k, *sq) in means.items():
        r = row(df, label)
        m = c[key] / k / n
        half = Z * sqrt((c[sq[0] if sq else key + "_sq"] / k ** 2 - n * m * m) / (n - 1) / n)
        assert r["of"] == n and close((r["value"], r["ci_low"], r["ci_high"]), (m, m - half, m + half), 1e-9), label


def test_seat_rows_only_when_the_seats_play_different_policies():
    c = _side_and_seat_counts(4)
    for policies in (None, ["baseline"] * 4):
        df = analysis.summary_frame(c, players=4, policies=policies)
        assert not df["statistic"].str.startswith("seat ").any()


def test_wilson_bounds_at_none_and_all_are_exactly_0_and_1():
    for n in (1, 7, 20, 1000, 10 ** 9):
        assert stats.wilson(0, n)[0] == 0.0 and stats.wilson(n, n)[1] == 1.0


# ------------------------------------------------------------------ the analysis layer's estimators

Z7 = 1.959964                  # the 97.5% normal point to 7 digits, as printed tables give it
Z2 = 3.841458821               # Z7 * Z7 (with the full 1.959963984540054)
TOL = 1e-7                     # literals below carry 9 digits
REPS = 2000
COVER_TOL = 3 * sqrt(0.95 * 0.05 / REPS)      # 0.01462


def near(got, want, tol=TOL):
    got, want = tuple(got), tuple(want)
    assert len(got) == len(want), (got, want)
    assert all(abs(g - w) <= tol for g, w in zip(got, want)), (got, want)


def wilson_by_hand(k, n, z=Z7):
    """(k + z^2/2 -/+ z sqrt(k (n - k) / n + z^2 / 4)) / (n + z^2): the score interval times n/n."""
    c, h = k + z * z / 2, z * sqrt(k * (n - k) / n + z * z / 4)
    return (c - h) / (n + z * z), (c + h) / (n + z * z)


def mean_by_hand(n, s, q, z=Z7, ddof=1, se=True):
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
        assert abs((7 - 20 * t) / sqrt(20 * t * (1 - t)) - sign * Z7) < 1e-6


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
    near(analysis.mean_ci(2, 4, 7), (0.285714286, 0.285714286 - Z7 * 2 / 7, 0.285714286 + Z7 * 2 / 7))
    near(analysis.mean_ci(2, 4, 7), (0.285714286, -0.274275424, 0.845703996))
    # floats (the summary's halved sums): [0.5, 1.5, 2.5]: n 3, sum 4.5, squares 8.75
    # mean 1.5, s^2 = (8.75 - 6.75) / 2 = 1, se = 1 / sqrt 3
    near(analysis.mean_ci(4.5, 8.75, 3), (1.5, 1.5 - Z7 / sqrt(3), 1.5 + Z7 / sqrt(3)))
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


@pytest.mark.slow
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
    spec = duel_spec(Rules(players=2), "baseline", "random", deals=3, chunk_size=2)
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
    spec = duel_spec(Rules(players=4), "baseline", "random", deals=150)
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


# ------------------------------------------------------------------ stats: the one module, by hand

def near8(got, want):
    near(got, want, 1e-8)


def test_wilson_ends_none_all_and_no_trials():
    z2 = stats.Z95 ** 2
    near8(stats.wilson(0, 10), (0.0, z2 / (10 + z2)))         # 0.277532800
    near8(stats.wilson(10, 10), (10 / (10 + z2), 1.0))
    assert stats.wilson(0, 10)[0] == 0.0 and stats.wilson(10, 10)[1] == 1.0
    assert all(math.isnan(v) for v in stats.wilson(0, 0))


def test_mean_ci_of_one_to_five_from_sum_and_sum_of_squares():
    # 1..5: sum 15, squares 55, mean 3, s^2 = (55 - 45) / 4 = 2.5, se = sqrt(.5); half = 1.385903824
    near8(stats.mean_ci(15, 55, 5), (3.0, 1.614096176, 4.385903824))
    m, lo, hi = stats.mean_ci(3, 9, 1)
    assert m == 3 and math.isnan(lo) and math.isnan(hi)       # one value: no interval
    assert all(math.isnan(v) for v in stats.mean_ci(0, 0, 0))
    near8(stats.mean_ci(8, 16, 4), (2.0, 2.0, 2.0))             # no spread: zero width


def test_normal_interval_floats_and_arrays():
    near8(stats.normal_interval(2.0, 0.5), (1.020018008, 2.979981992))     # 2 -/+ 0.979981992
    near8(stats.normal_interval(2.0, 0.5, 1.0), (1.5, 2.5))
    lo, hi = stats.normal_interval(np.array([0.0, 1.0]), np.array([1.0, 0.0]))
    near8(lo, (-stats.Z95, 1.0))
    near8(hi, (stats.Z95, 1.0))
    assert all(math.isnan(v) for v in stats.normal_interval(1.0, math.nan))


def test_mean_interval_of_paired_differences():
    # 2, -1, 0, 3: mean 1, squares of deviations 1+4+1+4 = 10, sd = sqrt(10/3) = 1.825741858,
    # se = sd / 2 = 0.912870929, half = 1.789194144
    r = stats.mean_interval([2, -1, 0, 3])
    assert r["n"] == 4
    near8((r["mean"], r["sd"], r["low"], r["high"]), (1.0, 1.825741858, -0.789194144, 2.789194144))
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
    from euchresim.analysis import call_stats as calls
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
