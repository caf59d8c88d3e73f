"""The statistics a run prints: intervals, rates and their denominators, tallies.

* ``stats.wilson`` and ``stats.mean_ci`` against the textbook formulas
  (written here in another, equivalent form), against published and
  hand-worked numbers, and by their coverage: the exact coverage (summing
  the sampling distribution over the outcomes whose interval covers the
  truth) must be near 95%, and a fixed-seed simulation must agree with the
  exact figure within 4 binomial standard errors.
* ``analysis.summary_frame``: every row's count, denominator (``of``),
  value and interval from a hand-built tally whose keys all hold different
  numbers, so a row divided by the wrong count cannot pass.  Rows are found
  by their ``statistic`` label, never by position.
* ``runner.tally``: games won by seat position (R3, R12) from hand-made game
  rows, and the rows' ``maker_pos`` from real chunks.
"""
import math
from math import comb, sqrt
from statistics import NormalDist, mean, stdev

import numpy as np
import pytest

from euchresim import analysis, stats
from euchresim.run import runner
from euchresim.engine.layout import GAME_DTYPE, HAND_DTYPE
from tests.helpers import rows_of

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
def test_wilson_covers_a_known_rate_95_percent_of_the_time(n, p, seed):
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
