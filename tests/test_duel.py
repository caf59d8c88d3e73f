"""euchresim duel and ladder: duplicate matches, their statistics, the ratings, the commands."""
import json
import math

import numpy as np
import pytest

from euchresim.studies import duel as d
from euchresim.studies.ladder import bradley_terry, pairs, rate
from euchresim.rules import Rules
from euchresim.run.runner import ChunkResult
from euchresim.engine.layout import GAME_DTYPE, HAND_DTYPE
from tests.helpers import duel_spec, run_cli


# ---------------------------------------------------------------- the estimators, by hand
def test_paired_win_rate_against_a_hand_computed_value():
    # four units of two games each; A's credit less B's per unit
    rate, se = d.paired_win_rate([2, 0, -2, 2], games_per_unit=2)
    assert rate == pytest.approx(0.625)                          # 5 of 8 games: 1/2 + 0.5 / 4
    # deviations 1.5, -0.5, -2.5, 1.5: sum of squares 11, sd = sqrt(11/3); se = sd / (2 * 2 * sqrt 4)
    assert se == pytest.approx(math.sqrt(11 / 3) / 8)
    assert se == pytest.approx(0.2393568, abs=1e-7)
    lo, hi = d.interval(rate, se)
    assert (lo, hi) == pytest.approx((0.625 - 1.959964 * 0.2393568, 0.625 + 1.959964 * 0.2393568), abs=1e-6)
    assert math.isnan(d.paired_win_rate([2], 2)[1])              # one unit: no spread to measure


def test_ratio_of_sums_against_a_hand_computed_value():
    r, se = d.ratio_of_sums([3, -1, 2], [10, 12, 8])
    assert r == pytest.approx(4 / 30)
    # residuals x - R h: 5/3, -2.6, 14/15; squares sum 10.40889; / (3 * 2); sqrt; / mean h (10)
    assert se == pytest.approx(math.sqrt((25 / 9 + 6.76 + 196 / 225) / 6) / 10)
    assert se == pytest.approx(0.1317123, abs=1e-7)


def test_summarize_a_tiny_table_of_paired_results():
    spec = duel_spec(Rules(players=4), "baseline", "random", deals=3)
    rows = np.zeros(6, d.UNIT_DTYPE)
    # unit, arrangement, games, A's credit, A's points less B's, hands
    rows[:] = [(0, 0, 1, 1, 6, 8), (0, 1, 1, 0, -4, 10),      # split: d = 0
               (1, 0, 1, 1, 9, 7), (1, 1, 1, 1, 5, 9),        # A both: d = 2
               (2, 0, 1, 0, -3, 12), (2, 1, 1, 1, 2, 6)]      # split: d = 0
    o = d.summarize(spec, rows)
    assert (o["deals"], o["games"], o["hands"], o["a_wins"]) == (3, 6, 52, 4)
    assert o["a_win_rate"] == pytest.approx(4 / 6)
    # d = 0, 2, 0: sd = sqrt(4/3); se = sd / (2 * 2 * sqrt 3) = 1/6
    assert o["a_win_rate_se"] == pytest.approx(1 / 6)
    assert o["a_win_rate_ci"] == pytest.approx([4 / 6 - 1.959964 / 6, 4 / 6 + 1.959964 / 6])
    # per unit: points 2, 14, -1 over hands 18, 16, 18
    r, se = d.ratio_of_sums([2, 14, -1], [18, 16, 18])
    assert o["points_per_hand"] == pytest.approx(15 / 52) and o["points_per_hand_se"] == pytest.approx(se)


def _fake(winners, points):
    """A ChunkResult of one game (winner seat mask) and its hands' points per seat."""
    g = np.zeros(1, GAME_DTYPE)
    g["winners"] = winners
    h = np.zeros(len(points), HAND_DTYPE)
    for s in range(3):
        h[f"points{s}"] = [p[s] for p in points]
    return ChunkResult(0, h, np.zeros((len(points), 20), np.int8), g)


def test_a_cutthroat_game_is_credited_by_seat_and_a_shared_win_is_split():
    spec = duel_spec(Rules(players=3), "baseline", "random", deals=1)
    assert spec.seatings == ("ABB", "BAB", "BBA", "BAA", "ABA", "AAB")
    hands = [(3, 0, 0), (0, 1, 1)]
    res = [_fake(0b011, hands)] * 6             # seats 0 and 1 share the win every time
    rows = d.unit_rows(spec, 0, res)
    assert list(rows["a_wins"]) == [0.5, 0.5, 0, 0.5, 0.5, 1]
    assert rows["a_wins"].sum() == 3             # the same game seated all six ways: half of it to A
    # ABB: (3 - 0) + (0 - 1); BAB: (0 - 1.5) + (1 - 0.5); BAA: (0 - 3) + (1 - 0)
    assert list(rows["points"]) == [2, -1, -1, -2, 1, 1]
    assert list(rows["hands"]) == [2] * 6 and list(rows["games"]) == [1] * 6


def test_bradley_terry_two_policies_by_hand():
    r, cov = bradley_terry(2, [(0, 1, 7, 9)])
    # one virtual tie: 7.5 wins of 10, so r0 - r1 = logit(0.75) = ln 3, mean 0
    assert r == pytest.approx([math.log(3) / 2, -math.log(3) / 2])
    # var(r0 - r1) = 1 / (10 * 0.75 * 0.25); r0 = (r0 - r1) / 2
    assert cov[0, 0] == pytest.approx(1 / (4 * 1.875)) and cov[0, 1] == pytest.approx(-1 / (4 * 1.875))


def test_bradley_terry_meets_its_score_equations():
    results = [(0, 1, 30, 50), (0, 2, 45, 50), (1, 2, 33.5, 50)]
    r, _ = bradley_terry(3, results)
    assert r.sum() == pytest.approx(0, abs=1e-12)
    for k in range(3):            # each policy's wins (virtual ties included) = its expected wins
        won = sum((w + 0.5) if i == k else (g - w + 0.5) for i, j, w, g in results if k in (i, j))
        expected = sum(51 / (1 + math.exp(r[j if i == k else i] - r[k])) for i, j, w, g in results if k in (i, j))
        assert won == pytest.approx(expected, abs=1e-9)
    assert r[0] > r[1] > r[2]


# ---------------------------------------------------------------- the duplicate itself
@pytest.mark.parametrize("players", [4, 2, 3])
def test_every_arrangement_plays_the_same_deals(players):
    spec = duel_spec(Rules(players=players), "baseline", "random", seed=3, deals=6)
    deal = ["dealer", "upcard", "kitty", "dummy"] + [f"hand{s}" for s in range(players)]
    firsts = []
    for u in range(spec.deals):
        res = d.play_unit(spec, u)
        assert len(res) == len(spec.seatings)
        n = min(len(r.hands) for r in res)
        assert n >= 1
        for r in res[1:]:        # every hand both games reached was dealt alike
            for f in deal:
                assert np.array_equal(r.hands[f][:n], res[0].hands[f][:n]), (u, f)
        firsts.append(tuple(res[0].hands[0][f] for f in deal))
    assert len(set(firsts)) == spec.deals        # and the units are different deals


@pytest.mark.parametrize("players", [4, 2, 3])
def test_a_policy_against_itself_is_exactly_even(players):
    """Equal policies on the same deals play the same games, seated each way: every difference is 0."""
    spec = duel_spec(Rules(players=players), "baseline", "baseline:order=4", seed=1, deals=40)
    o = d.duel(spec)
    assert o["a_win_rate"] == 0.5 and o["a_win_rate_ci"] == [0.5, 0.5]
    assert o["points_per_hand"] == 0 and o["points_per_hand_ci"] == [0, 0]
    assert o["games"] == 40 * len(spec.seatings) and o["hands"] > o["games"]


@pytest.mark.parametrize("players", [4, 2, 3])
def test_baseline_beats_random_clearly(players):
    spec = duel_spec(Rules(players=players), "baseline", "random", seed=2,
                      deals=d.deals_for(200, players))
    o = d.duel(spec)
    assert o["a_win_rate_ci"][0] > 0.5 and o["points_per_hand_ci"][0] > 0
    swapped = d.duel(duel_spec(spec.rules, "random", "baseline", seed=2, deals=spec.deals))
    assert swapped["a_win_rate"] == pytest.approx(1 - o["a_win_rate"])      # the same games, named the other way
    assert swapped["points_per_hand"] == pytest.approx(-o["points_per_hand"])


def test_games_round_up_to_whole_deal_sequences():
    assert d.deals_for(200, 3) == 34 and d.deals_for(200, 4) == 100 and d.deals_for(7, 2, chunk_size=2) == 2
    spec = duel_spec(Rules(players=2), "baseline", "random", seed=5, deals=3, chunk_size=4)
    o = d.duel(spec)
    assert o["games"] == 3 * 2 * 4 == spec.games


def test_the_numbers_do_not_depend_on_the_order_jobs_finish_in(monkeypatch):
    import euchresim.run.backends.local as local
    spec = duel_spec(Rules(players=4), "baseline", "random", seed=6, deals=40)
    first = d.duel(spec, workers=1)
    real = local.map_chunks
    monkeypatch.setattr(local, "map_chunks", lambda *a, **k: reversed(list(real(*a, **k))))
    assert d.duel(spec, workers=2) == first


# ---------------------------------------------------------------- the commands
def test_duel_json_has_the_fields_and_does_not_depend_on_the_workers():
    args = ["duel", "baseline", "random", "--players", "3", "--games", "120", "--seed", "4", "--json"]
    code1, out1, _ = run_cli(args + ["--workers", "1"])
    code2, out2, _ = run_cli(args + ["--workers", "2"])
    assert code1 == code2 == 0
    assert out1 == out2
    o = json.loads(out1)
    for k in ("games", "a_win_rate", "a_win_rate_ci", "points_per_hand", "points_per_hand_ci", "deals", "hands"):
        assert k in o
    assert o["games"] == 120 and o["deals"] == 20 and len(o["a_win_rate_ci"]) == 2
    assert o["a_win_rate_ci"][0] <= o["a_win_rate"] <= o["a_win_rate_ci"][1]


def test_duel_prints_its_table():
    code, out, _ = run_cli(["duel", "baseline", "random", "--players", "2", "--games", "100", "--workers", "1"])
    assert code == 0
    assert "A game win rate" in out and "95% CI" in out and "deals 50  games 100" in out


@pytest.mark.parametrize("args,needle", [
    (["duel", "baseline", "nosuch"], "unknown policy 'nosuch'"),
    (["duel", "baseline:order=99", "random"], "out of range"),
    (["duel", "baseline:nokey=1", "random"], "has no parameter 'nokey'"),
    (["duel", "baseline", "nosuchmodule_xyz:fn"], "cannot load module"),
    (["duel", "baseline", "random", "--games", "0"], "--games"),
    (["ladder", "baseline"], "at least two policies"),
    (["ladder", "baseline", "random", "baseline"], "give each policy once"),
    (["ladder", "baseline", "nosuch"], "unknown policy"),
])
def test_bad_input_is_one_line(args, needle):
    code, out, err = run_cli(args + ["--workers", "1"])
    lines = [ln for ln in (out + err).splitlines() if ln.strip()]
    assert code != 0 and len(lines) == 1 and "Traceback" not in out + err, out + err
    assert needle in lines[0]


def test_ladder_orders_the_policies_and_has_its_fields():
    code, out, _ = run_cli(["ladder", "random", "baseline", "baseline:order=6", "--games", "200", "--seed", "1",
                            "--workers", "1", "--json"])
    assert code == 0
    o = json.loads(out)
    assert o["policies"] == ["random", "baseline", "baseline:order=6"] and o["games"] == 600
    rows = {r["policy"]: r for r in o["ratings"]}
    assert rows["random"]["rank"] == 3
    for name in ("baseline", "baseline:order=6"):       # random is clearly below both
        assert rows["random"]["elo_ci"][1] < rows[name]["elo_ci"][0]
        assert rows[name]["elo_ci"][0] < rows[name]["elo"] < rows[name]["elo_ci"][1]
    assert sum(r["elo"] for r in o["ratings"]) == pytest.approx(0, abs=1e-6)
    m = o["win_rate"]
    assert all(m[i][i] is None for i in range(3))
    assert all(m[i][j] + m[j][i] == pytest.approx(1) for i, j in pairs(3))
    assert [x["first_deal"] for x in o["duels"]] == [0, 100, 200]        # each pair its own deals
    again = rate(o["policies"], o["duels"])
    assert [r["policy"] for r in again["ratings"]] == [r["policy"] for r in o["ratings"]]


def test_a_stopped_duel_keeps_its_deal_sequences_and_resumes_to_the_same_numbers(tmp_path, monkeypatch):
    """Ctrl-C in the middle of a duel: the finished deal sequences are kept with their checksums and give a
    partial result; --resume plays the rest, to the numbers of a duel never stopped."""
    import numpy as np

    from euchresim.rules import FOUR_HAND
    from euchresim.studies import duel as d
    from tests.helpers import stopped_duel_and_resumed
    spec = duel_spec(FOUR_HAND, "baseline", "random", seed=3, deals=40)
    whole, stopped, part, again = stopped_duel_and_resumed(spec, tmp_path, monkeypatch)
    assert stopped.done == 3 and part["deals"] == 3 * d.batch_size(40)
    assert part["games"] == part["deals"] * 2 and 0 <= part["a_win_rate"] <= 1
    assert again == whole
    assert not np.isnan(again["points_per_hand"])


def test_duel_checkpoint_options_are_checked_before_playing(tmp_path):
    code, out, err = run_cli(["duel", "baseline", "random", "--games", "4", "--resume"])
    assert code != 0 and "--resume has nothing to continue" in err
    (tmp_path / "f").write_text("x")
    code, out, err = run_cli(["duel", "baseline", "random", "--games", "4", "--checkpoint", str(tmp_path / "f")])
    assert code != 0 and "exists and is not a folder" in err


def test_a_script_gets_the_text_the_duel_and_ladder_commands_print():
    """``duel_text`` and ``ladder_text`` of a match a script plays are the commands' standard output, word for
    word, ``best`` written out as the command writes it (the sides named as given)."""
    from euchresim.studies.ladder import ladder
    from euchresim.studies.match_text import duel_text, ladder_text
    rules = Rules(players=2, game_to=5)
    code, out, _ = run_cli(["duel", "best", "random", "--players", "2", "--game-to", "5", "--deals", "3",
                            "--seed", "4", "--workers", "1", "--quiet"])
    assert code == 0, out
    from euchresim.policies import seats
    spec = duel_spec(rules, seats(["best"], 2), seats(["random"], 2), seed=4, deals=3)
    assert out == duel_text(d.duel(spec, 1), rules, ("best", "random")) + "\n"
    assert "A: best (" in out
    code, out, _ = run_cli(["ladder", "random", "baseline", "--players", "2", "--game-to", "5", "--deals", "2",
                            "--seed", "3", "--workers", "1", "--quiet"])
    assert code == 0, out
    played = ladder(rules, [seats(["random"], 2), seats(["baseline"], 2)], 3, 2, 1, 1)
    assert out == ladder_text(played, rules, 3) + "\n"
    assert out.startswith("ladder  players 2  deck 24  game to 5  (game_to=5)  seed 3  games 4")


def test_dd_is_marked_as_cheating_wherever_a_match_prints_it():
    from euchresim.studies.match_text import format_ladder
    o = {"policies": ["heuristic", "dd"],
         "ratings": [{"rank": 1, "policy": "dd", "elo": 200.0, "elo_ci": [150.0, 250.0], "games": 10},
                     {"rank": 2, "policy": "heuristic", "elo": -200.0, "elo_ci": [-250.0, -150.0], "games": 10}],
         "win_rate": [[None, 0.1], [0.9, None]]}
    text = format_ladder(o)
    assert text.count("dd (cheats: sees every hand)") == 2          # the rating row and the matrix row
    assert "heuristic (cheats" not in text


def test_one_place_says_which_policies_cheat():
    from euchresim.policies import cheats
    assert cheats("dd") and cheats("dd:search_bids=0") and cheats("heuristic,dd,heuristic,dd") and cheats(" DD")
    assert not cheats("pimc") and not cheats("heuristic:human") and not cheats("mymod:ddish")
