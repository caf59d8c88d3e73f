"""duel and ladder with OpenSpiel's bots as players: OpenSpiel's euchre, duplicate deals, the runner's resume."""
import json

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from euchresim.interop import openspiel_match as om  # noqa: E402
from euchresim.rules import Rules  # noqa: E402
from euchresim.studies import duel as d  # noqa: E402
from tests.helpers import duel_spec, run_cli  # noqa: E402


def _spec(a, b, deals, seed=1, **kw):
    return duel_spec(Rules(), a, b, seed=seed, deals=deals, **kw)


def test_names_of_openspiel_bots():
    assert om.is_openspiel("openspiel:random") and om.is_openspiel(" OpenSpiel:ismcts") and not om.is_openspiel("pimc")
    assert _spec("heuristic", "openspiel:ismcts", 1).b == "openspiel:ismcts:sims=1000"    # the default written out
    assert _spec("OpenSpiel:ISMCTS:sims=50", "heuristic", 1).a == "openspiel:ismcts:sims=50"
    assert _spec("heuristic", "openspiel:random", 1).b == "openspiel:random"
    assert not om.parse("openspiel:ismcts").deterministic and om.parse("openspiel:random").deterministic
    assert _spec("heuristic", "openspiel:random", 2).openspiel and not _spec("heuristic", "random", 2).openspiel


def test_every_seating_plays_the_deals_chance_outcomes():
    game = om.load_game(Rules())
    deal = om.chance_outcomes(game, 1, 7)
    assert deal == om.chance_outcomes(game, 1, 7) and len(deal) == 22         # the dealer, 20 cards, the upcard
    assert deal != om.chance_outcomes(game, 1, 8) and deal != om.chance_outcomes(game, 2, 7)


@pytest.mark.parametrize("policy", ["heuristic", "random"])
def test_a_policy_against_itself_in_openspiel_is_exactly_even(policy):
    """Each seat's bot is seeded alike in both seatings, so the same hand is played twice with the sides
    exchanged: every deal's two returns cancel."""
    o = d.duel(duel_spec(Rules(), policy, policy, seed=2, deals=12, openspiel=True))
    assert o["points_per_hand"] == 0 and o["a_win_rate"] == 0.5 and o["a_win_rate_se"] == 0
    assert o["games"] == o["hands"] == 24 and o["game"] == "openspiel euchre"


def test_a_deal_row_is_openspiels_return_and_its_credit():
    spec = _spec("baseline", "openspiel:random", 1, seed=4)
    game = om.load_game(Rules())
    rows = d.openspiel_rows(spec, 0, game)
    for k, seating in enumerate(spec.seatings):
        ret, a_s, a_n, b_s, b_n = om.play_deal(game, spec.a, spec.b, seating, 4, 0)
        assert rows["points"][k] == ret and rows["hands"][k] == rows["games"][k] == 1
        assert rows["a_wins"][k] == (1.0 if ret > 0 else 0.0 if ret < 0 else 0.5)
        assert rows["a_decisions"][k] == a_n > 0 and rows["b_decisions"][k] == b_n > 0


@pytest.mark.slow
def test_baseline_beats_openspiels_uniform_random_and_random_is_even_with_it():
    o = d.duel(_spec("baseline", "openspiel:random", 40))
    assert o["points_per_hand_ci"][0] > 0 and o["deterministic"]          # about +1.1 a hand, well clear of 0
    assert o["ms_per_decision"]["a"] > 0 and o["ms_per_decision"]["b"] >= 0
    r = d.duel(_spec("random", "openspiel:random", 40))
    assert abs(r["points_per_hand"]) < 3 * r["points_per_hand_se"]


def test_a_stopped_openspiel_duel_resumes_to_the_same_tallies(tmp_path, monkeypatch):
    """Ctrl-C after three chunks, then --resume: every deal as a duel never stopped plays it (both sides
    here are deterministic; only the timings are not)."""
    from tests.helpers import stopped_duel_and_resumed
    spec = _spec("heuristic", "openspiel:random", 8, seed=3)
    whole, stopped, part, again = stopped_duel_and_resumed(spec, tmp_path, monkeypatch)
    assert stopped.done == 3 and part["deals"] == 3 and part["hands"] == 6 and part["game"] == "openspiel euchre"
    timing = ("ms_per_decision",)
    assert {k: v for k, v in again.items() if k not in timing} == {k: v for k, v in whole.items() if k not in timing}


def test_the_ismcts_duel_prints_its_game_its_times_and_its_note():
    code, out, err = run_cli(["duel", "heuristic", "openspiel:ismcts:sims=20", "--deals", "3", "--workers", "1"])
    assert code == 0, err
    assert out.splitlines()[0].startswith("duel  OpenSpiel euchre, one hand a game")
    assert "B: openspiel:ismcts:sims=20" in out and "deals 3  hands 6" in out and "A hand win rate" in out
    assert "ms a decision      A " in out and "not deterministic under a fixed seed" in out
    code, out, _ = run_cli(["duel", "heuristic", "openspiel:ismcts:sims=20", "--deals", "2", "--workers", "1",
                            "--json"])
    o = json.loads(out)
    assert o["deterministic"] is False and o["games"] == o["hands"] == 4 and o["b"] == "openspiel:ismcts:sims=20"
    assert o["ms_per_decision"]["b"] > 0


def test_a_cheat_stays_marked_in_an_openspiel_duel():
    code, out, _ = run_cli(["duel", "dd", "openspiel:random", "--deals", "2", "--workers", "1"])
    assert code == 0 and "A: dd (cheats: sees every hand)" in out
    assert "deterministic" not in out                        # uniform random repeats to the digit: no note


def test_a_ladder_with_an_openspiel_bot_plays_every_pair_in_openspiels_game():
    code, out, _ = run_cli(["ladder", "heuristic", "openspiel:random", "random", "--deals", "6", "--workers", "1",
                            "--json"])
    assert code == 0
    o = json.loads(out)
    assert [x["game"] for x in o["duels"]] == ["openspiel euchre"] * 3 and o["games"] == 36
    assert [x["first_deal"] for x in o["duels"]] == [0, 6, 12]
    code, out, _ = run_cli(["ladder", "heuristic", "openspiel:random", "--deals", "4", "--workers", "1"])
    assert code == 0 and "hand win rate of the row against the column" in out and "hands 8 (8 a pair)" in out


@pytest.mark.parametrize("args,needle", [
    (["duel", "heuristic", "openspiel:nosuch"], "unknown OpenSpiel bot 'nosuch'"),
    (["duel", "heuristic", "openspiel"], "unknown OpenSpiel bot"),
    (["duel", "heuristic", "openspiel:ismcts:sims=abc"], "sims must be a whole number"),
    (["duel", "heuristic", "openspiel:ismcts:sims=0"], "sims must be a whole number"),
    (["duel", "heuristic", "openspiel:ismcts:depth=3"], "'depth=3' is no setting of openspiel:ismcts"),
    (["duel", "heuristic", "openspiel:random", "--players", "3"], "an OpenSpiel player plays OpenSpiel's euchre"),
    (["duel", "heuristic", "openspiel:random", "--deck", "32"], "an OpenSpiel player plays OpenSpiel's euchre"),
    (["duel", "heuristic", "openspiel:random", "--chunk-size", "2"], "an OpenSpiel game is one hand"),
    (["duel", "heuristic", "openspiel:random", "--start-score", "9-8"], "no score to start from"),
    (["duel", "heuristic", "random", "--games", "10", "--deals", "5"], "give --games or --deals, not both"),
    (["ladder", "heuristic", "random", "openspiel:random", "--players", "2"], "an OpenSpiel player plays"),
    (["ladder", "heuristic", "openspiel:nosuch"], "policy 2"),
])
def test_bad_openspiel_input_is_one_line(args, needle):
    code, out, err = run_cli(args + ["--workers", "1"])
    lines = [ln for ln in (out + err).splitlines() if ln.strip()]
    assert code != 0 and len(lines) == 1 and "Traceback" not in out + err, out + err
    assert needle in lines[0]


def test_the_deal_count_is_deals_or_games_in_hands():
    code, out, _ = run_cli(["duel", "baseline", "openspiel:random", "--games", "7", "--workers", "1", "--json"])
    o = json.loads(out)
    assert code == 0 and o["deals"] == 4 and o["hands"] == 8       # 7 hands rounded up to whole deals
    assert np.isfinite(o["points_per_hand"])
