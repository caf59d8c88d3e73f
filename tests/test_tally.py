"""The jitted per-chunk tally against a slow numpy twin."""
import numpy as np
import pytest

from euchresim.run import jobs, runner
from tests.helpers import VARIANTS, rows_of


def slow_tally(h, players):
    c = {"hands": len(h)}
    played = h["maker"] >= 0
    c["thrown_in"] = int(h["thrown_in"].sum())
    c["redeal"] = int(h["redeal"].sum())
    c["made"] = int(played.sum())
    c["made_ok"] = int((played & (h["maker_tricks"] >= 3)).sum())
    c["euchred"] = int(h["euchred"].sum())
    c["march"] = int(h["march"].sum())
    c["maker_alone"] = int(h["maker_alone"].sum())
    c["defender_alone"] = int(h["defender_alone"].sum())
    alone = h["maker_alone"]
    c["alone_made_ok"] = int((alone & (h["maker_tricks"] >= 3)).sum())
    c["alone_march"] = int((alone & h["march"]).sum())
    c["alone_euchred"] = int((alone & h["euchred"]).sum())
    dealer = h["dealer"].astype(np.int64)
    maker = h["maker"].astype(np.int64)
    points = np.stack([h[f"points{s}"].astype(np.int64) for s in range(players)])
    rows = np.arange(len(h))
    mk = np.where(played, points[maker % players, rows], 0)
    df = np.where(played, points[(maker + 1) % players, rows], 0)
    for name, v in (("maker_points", mk), ("defender_points", df)):
        c[name], c[name + "_sq"] = int(v.sum()), int((v * v).sum())
    at_pos = [points[(dealer + p) % players, rows] for p in range(players)]
    # twice the dealer's side's edge with 3 and 4 players (over the mean opponent), once with 2
    if players == 2:
        edge = at_pos[0] - at_pos[1]
    elif players == 3:
        edge = 2 * at_pos[0] - at_pos[1] - at_pos[2]
    else:
        edge = 2 * (at_pos[0] - at_pos[1])
    c["dealer_edge"], c["dealer_edge_sq"] = int(edge.sum()), int((edge * edge).sum())
    if players != 3:
        side = points[0] - points[1]
        c["side_diff"], c["side_diff_sq"] = int(side.sum()), int((side * side).sum())
    for s in range(players):
        by = played & (maker == s)
        c[f"made_seat{s}"] = int(by.sum())
        c[f"made_ok_seat{s}"] = int((by & (h["maker_tricks"] >= 3)).sum())
        c[f"euchred_seat{s}"] = int((by & h["euchred"]).sum())
        c[f"march_seat{s}"] = int((by & h["march"]).sum())
        c[f"alone_seat{s}"] = int((by & h["maker_alone"]).sum())
        c[f"points_seat{s}"] = int(points[s].sum())
        c[f"points_sq_seat{s}"] = int((points[s] * points[s]).sum())
    for p in range(players):
        at = played & (h["maker_pos"] == p)
        c[f"made_r1_pos{p}"] = int((at & (h["make_round"] == 1)).sum())
        c[f"made_r2_pos{p}"] = int((at & (h["make_round"] == 2)).sum())
        c[f"made_ok_pos{p}"] = int((at & (h["maker_tricks"] >= 3)).sum())
        c[f"made_pos{p}"] = int(at.sum())
        seat = (dealer + p) % players
        pts = np.zeros(len(h), np.int64)
        for s in range(players):
            pts += np.where(seat == s, h[f"points{s}"].astype(np.int64), 0)
        c[f"points_pos{p}"] = int(pts.sum())
        c[f"points_sq_pos{p}"] = int((pts * pts).sum())
    return c


@pytest.mark.parametrize("players,deck", VARIANTS)
@pytest.mark.parametrize("policy", ["random", "baseline"])
def test_tally_matches_its_slow_twin(players, deck, policy):
    opts = {"defend_alone": True} if players == 4 else {}
    _, res = rows_of(players, deck, policy, seed=deck + players, n=3000, **opts)
    fast = runner.tally(res, players)
    slow = slow_tally(res.hands, players)
    assert {k: fast[k] for k in slow} == slow
    assert set(fast) == set(slow)          # every slot the kernel fills has a twin
    assert slow["made"] > 0 and slow["points_pos0"] > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_hand_loops_tally_equals_a_pass_over_its_rows(players):
    """run_hands tallies each row as it writes it; a second pass must agree."""
    from euchresim.loops.tally import tally_hands
    from euchresim.engine.layout import TALLY_SIZE
    _, res = rows_of(players, 24, "baseline", seed=11, n=2000)
    assert res.counts is not None
    again = np.zeros(TALLY_SIZE, np.int64)
    tally_hands(res.hands, players, again)
    assert np.array_equal(res.counts, again) and again[0] == 2000


def test_tallies_merge_exactly():
    _, a = rows_of(4, 24, "random", seed=1, n=1000)
    _, b = rows_of(4, 24, "random", seed=2, n=1000)
    both = runner.ChunkResult(0, np.concatenate([a.hands, b.hands]), np.concatenate([a.plays, b.plays]))
    assert jobs.merge(runner.tally(a, 4), runner.tally(b, 4)) == runner.tally(both, 4)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_tally_counts_every_winner_once(players):
    _, res = rows_of(players, 24, "random", seed=players, n=400, mode="games")
    c = runner.tally(res, players)
    wins = sum(c[f"wins_pos{p}"] for p in range(players))
    winners = sum(bin(int(w)).count("1") for w in res.games["winners"])
    assert c["games"] == 400 and wins == winners
    assert wins == {4: 800, 2: 400, 3: 400 + c["shared_wins"]}[players]
    assert c["game_hands"] == len(res.hands) == c["hands"]


def test_rubbers_tally():
    _, res = rows_of(4, 24, "random", seed=3, n=100, mode="rubbers")
    c = runner.tally(res, 4)
    assert c["rubbers"] == 100 and c["rubber_games"] == len(res.games)
    assert c["rubber_margin"] == int(res.rubbers["margin"].sum())
    assert 0 < c["rubber_side0"] < 100
