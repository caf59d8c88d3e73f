"""Win probability by score (analysis/winprob.py): known values, properties, and whole games.

The hand-made distributions have answers worked out by hand; the
simulated checks compare the DP, fed by one run of hands, with an
independent run of whole games (other seed), within intervals that add
the games' binomial error to the DP's own (resampled) error.
"""
import math
from statistics import NormalDist

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from euchresim.run import runner
from euchresim.analysis import winprob as wp
from euchresim.rules import Rules
from tests.helpers import run_spec


def dist_of(players, rows):
    """A distribution from (dealer, points per party, maker party, redeal, prob) rows."""
    k = wp.parties(players)
    recs = []
    for dealer, pts, maker, redeal, prob in rows:
        recs.append({"dealer": dealer, **{f"pts{p}": pts[p] for p in range(k)}, "maker": maker,
                     "redeal": redeal, "count": 1, "prob": prob})
    return pd.DataFrame(recs)


def rotated(players, rel_rows):
    """The same outcomes (points by party relative to the dealer's party) at every dealer seat."""
    k = wp.parties(players)
    rows = []
    for d in range(players):
        for pts, mrel, redeal, prob in rel_rows:
            abs_pts = [0] * k
            for r in range(k):
                abs_pts[(d + r) % k] = pts[r]
            rows.append((d, abs_pts, -1 if mrel < 0 else (mrel + d) % k, redeal, prob))
    return dist_of(players, rows)


# ---------------------------------------------------------------- known values

@pytest.mark.parametrize("target", [1, 5, 10])
def test_a_point_to_the_dealers_side_every_hand(target):
    # the deal alternates sides, so the dealer's side scores on hands 1, 3, ..: it needs
    # target - a of them (hand 2(target - a) - 1), the other side needs hand 2(target - b)
    V = wp.solve(rotated(4, [((1, 0), 0, False, 1.0)]), 4, target)
    for a in range(target):
        for b in range(target):
            for d in range(4):
                ours = d % 2
                scores = [0, 0]
                scores[ours], scores[1 - ours] = a, b
                assert V[scores[0], scores[1], d, ours] == (1.0 if a >= b else 0.0)


def test_fair_coin_is_the_negative_binomial():
    t = 7
    V = wp.solve(rotated(4, [((1, 0), 0, False, 0.5), ((0, 1), 1, False, 0.5)]), 4, t)
    for a in range(t):
        for b in range(t):
            need, other = t - a, t - b          # our wins needed before `other` of theirs
            exact = sum(math.comb(need - 1 + j, j) / 2 ** (need + j) for j in range(other))
            for d in range(4):
                assert V[a, b, d, 0] == pytest.approx(exact, abs=1e-12)
                assert V[a, b, d, 1] == pytest.approx(1 - exact, abs=1e-12)
    assert np.allclose(V[np.arange(t), np.arange(t), :, 0], 0.5)


def test_thrown_in_hands_pass_the_deal_and_redeals_keep_it():
    # target 1: the first hand that scores wins.  u = P(dealer's side wins).
    # 0.3 to the dealer's side, 0.5 to the other, 0.2 thrown in (deal passes): u = 0.3 + 0.2 (1 - u)
    V = wp.solve(rotated(4, [((2, 0), 0, False, 0.3), ((0, 1), 1, False, 0.5), ((0, 0), -1, False, 0.2)]), 4, 1)
    for d in range(4):
        assert V[0, 0, d, d % 2] == pytest.approx(5 / 12, abs=1e-12)
    # half the hands a joker redeal: the same dealer deals until the dealer's side scores
    same = wp.solve(rotated(4, [((1, 0), 0, False, 0.5), ((0, 0), -1, True, 0.5)]), 4, 1)
    passes = wp.solve(rotated(4, [((1, 0), 0, False, 0.5), ((0, 0), -1, False, 0.5)]), 4, 1)
    assert same[0, 0, 0, 0] == pytest.approx(1.0)
    assert passes[0, 0, 0, 0] == pytest.approx(2 / 3)      # u = 0.5 + 0.5 (1 - u)


def test_two_players_target_one_first_to_score():
    V = wp.solve(rotated(2, [((1, 0), 0, False, 0.6), ((0, 2), 1, False, 0.4)]), 2, 1)
    assert V[0, 0, 0, 0] == pytest.approx(0.6) and V[0, 0, 1, 1] == pytest.approx(0.6)


@pytest.mark.parametrize("tie,start,expected", [
    ("maker", (0, 0, 0), (1, 0, 1)),      # defenders 0 and 2 reach 2 level: the maker did not, so shared
    ("higher", (1, 0, 0), (1, 0, 0)),     # 3 against 2: the higher
    ("higher", (0, 0, 0), (1, 0, 1)),     # level: shared
    ("shared", (1, 0, 0), (1, 0, 1)),
])
def test_cutthroat_ties_on_the_same_hand(tie, start, expected):
    # C8: the dealer's left (seat 1 when seat 0 deals) makes and is euchred: both defenders score 2
    V = wp.solve(rotated(3, [((2, 0, 2), 1, False, 1.0)]), 3, 2, tie)
    assert tuple(V[start + (0,)]) == expected


def test_cutthroat_maker_among_those_who_reach_wins_alone():
    # a house table that pays everyone 1: all three reach 2 from 1-1-1; the maker (dealer's left) wins
    dist = rotated(3, [((1, 1, 1), 1, False, 1.0)])
    assert tuple(wp.solve(dist, 3, 2, "maker")[1, 1, 1, 0]) == (0, 1, 0)
    assert tuple(wp.solve(dist, 3, 2, "higher")[1, 1, 1, 0]) == (1, 1, 1)


def test_a_game_that_never_scores_is_refused():
    with pytest.raises(ValueError, match="never end"):
        wp.solve(rotated(4, [((0, 0), -1, False, 1.0)]), 4, 5)
    with pytest.raises(ValueError, match="every dealer"):
        wp.solve(dist_of(4, [(0, (1, 0), 0, False, 1.0)]), 4, 5)


def test_table_and_lookup():
    dist = rotated(4, [((1, 0), 0, False, 0.5), ((0, 1), 1, False, 0.5)])
    tab = wp.win_probability(dist, 4, 5)
    assert len(tab) == 5 * 5 * 4
    assert list(tab.columns) == ["score0", "score1", "dealer", "win0", "win1"]
    assert wp.p_win(tab, (4, 0), 2, 0) == pytest.approx(1 - 0.5 ** 5)


# ---------------------------------------------------------------- outcome_distribution

def test_outcome_distribution_from_rows():
    rows = pd.DataFrame({
        "dealer": [0, 0, 1, 1], "maker": [1, 0, -1, 2],
        "points0": [2, 1, 0, 0], "points1": [0, 0, 0, 1], "points2": [2, 1, 0, 0], "points3": [0, 0, 0, 1],
        "redeal": [False, False, False, False]})
    d = wp.outcome_distribution(rows, 4)
    assert set(d["dealer"]) == {0, 1}
    assert d.groupby("dealer")["prob"].sum().tolist() == [1.0, 1.0]
    # maker seat 2 is party 0
    assert ((d["dealer"] == 1) & (d["maker"] == 0) & (d["pts1"] == 1)).sum() == 1
    pooled = wp.outcome_distribution(rows, 4, pool_seats=True)
    assert set(pooled["dealer"]) == {0, 1, 2, 3} and pooled["count"].sum() == 4 * 4
    # dealer 1's euchre of the makers (dealer 0, maker seat 1) pays the dealer's side, seen from dealer 1
    one = pooled[pooled["dealer"] == 1]
    assert ((one["pts1"] == 2) & (one["maker"] == 0)).any()
    with pytest.raises(ValueError, match="partners"):
        wp.outcome_distribution(rows.assign(points2=0), 4)


# ---------------------------------------------------------------- properties

one_side = st.lists(st.tuples(st.integers(0, 1), st.integers(1, 4), st.floats(0.05, 1.0)), min_size=1, max_size=5)


def one_side_dist(players, spec, zero):
    k = wp.parties(players)
    rel = []
    for party, pts, w in spec:
        v = [0] * k
        v[party] = pts
        rel.append((tuple(v), party, False, w))
    if zero:
        rel.append(((0,) * k, -1, False, zero))
    tot = sum(r[3] for r in rel)
    return rotated(players, [(a, b, c, w / tot) for a, b, c, w in rel])


@settings(max_examples=25, deadline=None)
@given(spec=one_side, zero=st.sampled_from([0.0, 0.3]), players=st.sampled_from([2, 4]),
       target=st.sampled_from([3, 5]))
def test_probabilities_sum_to_one_and_are_monotone_and_symmetric(spec, zero, players, target):
    if all(p == 0 for p, _, _ in spec) or all(p == 1 for p, _, _ in spec):
        spec = spec + [(1 - spec[0][0], 1, 0.5)]       # both sides can score
    V = wp.solve(one_side_dist(players, spec, zero), players, target)
    eps = 1e-12
    assert (V >= -eps).all() and (V <= 1 + eps).all()
    assert np.allclose(V.sum(axis=-1), 1.0)                       # one side wins
    assert (np.diff(V[..., 0], axis=0) >= -eps).all()            # more of our points: no worse
    assert (np.diff(V[..., 0], axis=1) <= eps).all()             # more of theirs: no better
    for d in range(players):                                      # the same table seen from the other side
        assert np.allclose(V[:, :, d, 0], V[:, :, (d + 1) % players, 1].T)


# ---------------------------------------------------------------- decisions

def test_decision_delta_at_the_end_of_a_game():
    dist = rotated(4, [((1, 0), 0, False, 0.5), ((0, 1), 1, False, 0.5)])
    order = dist_of(4, [(0, (1, 0), 0, False, 1.0)])              # one point for seat 0's side, surely
    euchre = dist_of(4, [(0, (0, 2), 0, False, 1.0)])             # two points to the others, surely
    d = wp.decision_delta(dist, order, euchre, 4, 10, party=0)
    assert set(d["dealer"]) == {0}
    row = d[(d["score0"] == 9) & (d["score1"] == 8)].iloc[0]
    assert (row["win_a"], row["win_b"], row["delta"]) == (1.0, 0.0, 1.0)
    same = wp.decision_delta(dist, order, order, 4, 10, party=0)
    assert (same["delta"] == 0).all()
    # at 0-0 one point is worth less than at 9-8, but still something
    first = d[(d["score0"] == 0) & (d["score1"] == 0)].iloc[0]
    assert 0 < first["delta"] < 1


# ---------------------------------------------------------------- against whole games

HANDS, GAMES = 300_000, 20_000


def measured(players, target):
    rules = Rules(players=players, deck=24, game_to=target)
    hands = runner.play_chunk(run_spec(rules=rules, policies=("heuristic",), count=HANDS, seed=101,
                                       chunk_size=HANDS), 0).hands
    dist = wp.outcome_distribution(hands, players, pool_seats=True)
    games = runner.play_chunk(run_spec(rules=rules, policies=("heuristic",), mode="games", count=GAMES,
                                       seed=202, chunk_size=GAMES), 0)
    return dist, games


def check(pred, se_dp, wins, n, z):
    p = wins / n
    se = math.sqrt(pred * (1 - pred) / n + se_dp ** 2)
    assert abs(p - pred) <= z * se, (p, pred, se, n)


@pytest.mark.slow
@pytest.mark.parametrize("players,target", [(4, 10), (4, 5), (2, 10), (3, 10)])
def test_dp_matches_whole_games(players, target):
    dist, games = measured(players, target)
    V = wp.solve(dist, players, target)
    se = wp.resampled_se(dist, players, target, reps=12, seed=1)
    k = wp.parties(players)
    g = pd.DataFrame(games.games)
    # from 0-0: the first dealer's side (player) wins a share the DP must match
    fd = g["first_dealer"].to_numpy()
    ours = fd % 2 if players == 4 else fd
    won = int(((g["winners"].to_numpy() >> ours) & 1).sum())
    pred = float(np.mean([V[(0,) * k + (d, d % k)] for d in range(players)]))
    sd = float(np.sqrt(np.mean([se[(0,) * k + (d, d % k)] ** 2 for d in range(players)])))
    check(pred, sd, won, GAMES, NormalDist().inv_cdf(0.995))
    # from later scores: every state some 400 games stood at, checked at 1% over all of them
    seen = wp.visited_states(games, players)
    seen = seen[(seen["games"] >= 400) & (seen[[f"score{p}" for p in range(k)]].sum(axis=1) > 0)]
    assert len(seen) >= 10
    z = NormalDist().inv_cdf(1 - 0.005 / len(seen))
    spread = []
    for row in seen.itertuples(index=False):
        at = tuple(int(getattr(row, f"score{p}")) for p in range(k)) + (int(row.dealer),)
        for p in range(k):
            check(float(V[at + (p,)]), float(se[at + (p,)]), int(getattr(row, f"wins{p}")), int(row.games), z)
        spread.append(float(V[at + (0,)]))
    assert max(spread) - min(spread) > 0.3          # the states checked are far from one another
