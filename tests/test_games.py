"""Whole games (R12) and rubbers (R13), checked against their hand rows."""
import numpy as np
import pytest

from tests.helpers import rows_of


def games_with_hands(res):
    h = res.hands
    for g in res.games:
        yield g, h[(h["game"] == g["game"]) & (h["rubber"] == g["rubber"])]


@pytest.mark.parametrize("players,deck,target", [(4, 24, 10), (4, 32, 5), (4, 24, 7), (2, 24, 10), (3, 25, 10)])
def test_r12_game_ends_when_a_side_reaches_the_target(players, deck, target):
    _, res = rows_of(players, deck, "baseline", seed=3, n=300, mode="games", game_to=target)
    assert len(res.games) == 300
    for g, hands in games_with_hands(res):
        assert len(hands) == g["hands"]
        score = np.zeros(4, int)
        for row in hands:
            assert [row[f"score{s}"] for s in range(4)] == list(score)
            assert max(score) < target                      # nobody had won yet
            for s in range(players):
                score[s] += row[f"points{s}"]
        assert [g[f"score{s}"] for s in range(4)] == list(score)
        winners = [s for s in range(players) if (g["winners"] >> s) & 1]
        assert winners and all(score[s] >= target for s in winners)
        if players == 4:
            assert score[0] == score[2] and score[1] == score[3]   # partners share a score
            assert winners in ([0, 2], [1, 3])


def test_r12_bridge_label_in_a_five_point_game():
    _, res = rows_of(4, 24, "baseline", seed=4, n=400, mode="games", game_to=5)
    seen = 0
    for g, hands in games_with_hands(res):
        after = [(r["score0"] + r["points0"], r["score1"] + r["points1"]) for r in hands]
        bridge = any((a == 4 and b <= 2) or (b == 4 and a <= 2) for a, b in after)
        assert bool(g["bridge"]) == bridge
        seen += bridge
    assert seen > 0


@pytest.mark.parametrize("tie", ["maker", "higher", "shared"])
def test_r12_cutthroat_two_players_past_the_target(tie):
    _, res = rows_of(3, 24, "random", seed=9, n=3000, mode="games", cutthroat_tie=tie)
    ties = 0
    for g, hands in games_with_hands(res):
        final = [g[f"score{s}"] for s in range(3)]
        reached = [s for s in range(3) if final[s] >= 10]
        winners = [s for s in range(3) if (g["winners"] >> s) & 1]
        last_maker = hands[-1]["maker"]
        if len(reached) == 1:
            assert winners == reached
            continue
        ties += 1
        top = max(final[s] for s in reached)
        if tie == "shared":
            assert winners == reached
        elif tie == "maker" and last_maker in reached:
            assert winners == [last_maker]
        else:
            assert winners == [s for s in reached if final[s] == top]
    assert ties > 0


def test_r13_rubber_points_and_margin():
    _, res = rows_of(4, 24, "baseline", seed=6, n=200, mode="rubbers")
    assert len(res.rubbers) == 200
    for r in res.rubbers:
        games = res.games[res.games["rubber"] == r["rubber"]]
        assert len(games) == r["games"] and 2 <= len(games) <= 3
        wins = [0, 0]
        pts = [0, 0]
        for g in games:
            side = 0 if g["winners"] & 1 else 1
            loser = g["score1"] if side == 0 else g["score0"]
            wins[side] += 1
            pts[side] += 3 if loser <= 0 else 2 if loser <= 2 else 1
        w = r["winner_side"]
        assert wins[w] == 2 and wins[1 - w] < 2
        assert r["winner_points"] == pts[w] and r["loser_points"] == pts[1 - w]
        assert r["margin"] == 2 + pts[w] - pts[1 - w]


@pytest.mark.parametrize("players,policy,mode", [(4, "random", "games"), (3, "baseline", "games"),
                                                 (2, "random", "games"), (4, "baseline", "rubbers")])
def test_games_play_the_same_hands_as_a_run_of_hands(players, policy, mode):
    """R3/R12: a game only cuts the stream of hands where a side reaches the target.

    The deal passes on from game to game and the policies draw from the same
    stream, so whole games replay a run of independent hands with the same
    seed, hand for hand; only the game bookkeeping differs.
    """
    _, games = rows_of(players, 24, policy, seed=21, n=30, mode=mode)
    n = len(games.hands)
    _, hands = rows_of(players, 24, policy, seed=21, n=n)
    assert len(hands.hands) == n > 100
    bookkeeping = {"game", "rubber", "score0", "score1", "score2", "score3"}
    for field in games.hands.dtype.names:
        if field not in bookkeeping:
            assert np.array_equal(games.hands[field], hands.hands[field]), field
    assert np.array_equal(games.plays, hands.plays)
