"""A bot author's mistakes, one line each; a user policy's declared parameters.

Each failing policy is in tests/user_policies.py.  The lines are read as a
user reads them, through the command line (``_one_error_line``: one line,
no traceback, a non-zero exit).
"""
import json

import numpy as np
import pytest

from euchresim.cards import parse_board, parse_card
from euchresim.policies import POLICIES, NPARAMS, PolicyError, resolve
from euchresim.policies.params import check_declared, defaults_row, declare, param
from euchresim.rules import Rules
from euchresim.run import runner
from tests.helpers import run_spec, one_error_line as _one_error_line, run

M = "tests.user_policies"


def _record(line):
    return json.loads(line[line.index("{"):])


def _left_in_hand(record, seat):
    """The cards seat still holds where the record stops (its dealt hand less what it played)."""
    held = parse_board(record["hands"][seat])
    for c in record["plays"] or []:
        held &= ~(1 << parse_card(c))
    return held


def test_an_illegal_move_names_the_action_returned_and_the_legal_cards():
    r = run(["simulate", "--hands", "50", "--workers", "1",
             "--policy", f"baseline,{M}:plays_a_card_it_lacks,baseline,baseline"])
    line = _one_error_line(r)
    assert "made an illegal move at its 'play' decision: it returned 33 (no card); the legal cards: " in line
    legal = line.split("the legal cards: ")[1].split(" (")[0].split()
    held = _left_in_hand(_record(line), 1)
    assert legal and all((held >> parse_card(c)) & 1 for c in legal)    # cards seat 1 holds, nothing invented


def test_an_illegal_call_is_named_in_the_words_a_bot_returns_and_so_are_the_legal_ones():
    """The same words as ``policies.decision.Action`` and the action table (``actions.name``, column bot)."""
    from euchresim.actions import name
    from euchresim.cards import SUITS, SUIT_NAMES
    r = run(["simulate", "--hands", "200", "--workers", "1",
             "--policy", f"{M}:names_the_turned_down_suit,baseline,baseline,baseline"])
    line = _one_error_line(r)
    assert "made an illegal move at its 'bid2' decision: it returned " in line, line
    returned, legal = line.split("it returned ")[1].split("; the legal actions: ")
    code = int(returned.split()[0])
    turned = SUITS.index(_record(line)["upcard"][-1])           # the upcard's suit, turned down
    assert code == turned and returned.startswith(f"{code} ({SUIT_NAMES[code]})")
    legal = legal.split(" {")[0].split(" (hand")[0]
    want = ", ".join(f"{a} ({name('bid2', a)})" for a in range(5) if a != turned)
    assert legal.startswith(want), (legal, want)
    assert name("bid2", 4) == "pass" and name("alone", 0) == "not alone"


def test_a_policy_that_raises_is_one_line_naming_it_the_seat_the_decision_and_the_message():
    r = run(["simulate", "--hands", "50", "--workers", "1", "--policy", f"baseline,baseline,{M}:raises_at_play,random"])
    line = _one_error_line(r)
    assert (f"seat 2's policy '{M}:raises_at_play' raised ValueError at its 'play' decision: "
            "no card here suits me") in line


def test_a_raise_in_a_game_is_one_line_too():
    r = run(["simulate", "--games", "3", "--workers", "1", "--policy", f"{M}:raises_at_play"])
    assert "raised ValueError at its 'play' decision: no card here suits me" in _one_error_line(r)


def test_the_raise_is_found_again_at_its_own_hand_and_decision_with_random_seats_drawing_too():
    """The policy raises on a random draw, late in the chunk: found again only if both streams are replayed."""
    spec = run_spec(rules=Rules(), policies=("random", f"{M}:random_until_the_ace_of_spades", "random", "random"),
                       count=3000, seed=5)
    with pytest.raises(runner.SimError) as e:
        runner.play_chunk(spec, 0)
    line = str(e.value)
    assert "\n" not in line and "raised ValueError at its 'play' decision: drew the ace of spades" in line
    record = _record(line)
    assert (_left_in_hand(record, 1) >> parse_card("AS")) & 1      # seat 1 still holds it where the hand stops


def test_an_index_out_of_bounds_is_one_line_when_checked():
    r = run(["simulate", "--hands", "50", "--workers", "1", "--policy", f"{M}:reads_past_the_tables:check"])
    line = _one_error_line(r)
    assert "raised IndexError at its 'play' decision: index is out of bounds" in line


def test_the_checked_build_plays_the_same_numbers():
    plain = run_spec(rules=Rules(), policies=(f"{M}:copy_of_baseline",), count=1000, seed=3)
    checked = run_spec(rules=Rules(), policies=(f"{M}:copy_of_baseline:check",), count=1000, seed=3)
    assert np.array_equal(runner.play_chunk(plain, 0).hands, runner.play_chunk(checked, 0).hands)
    assert resolve([f"{M}:copy_of_baseline:check"], 4)[2][0] == f"{M}:copy_of_baseline:check"


# ---------------------------------------------------------------- parameters
def test_a_user_policys_parameters_reach_its_params_row():
    """A setting by name reaches the function: it plays as baseline with the same thresholds (the user's
    declared defaults, order 4 and alone 7, where a name is not set), and a setting that moves play is seen."""
    _, params, canon = resolve([f"{M}:baseline_with_two_numbers:order=6"], 4)
    assert np.array_equal(params, resolve([f"{M}:baseline_with_two_numbers:alone=7:order=6"], 4)[1])
    assert canon[0] == f"{M}:baseline_with_two_numbers:order=6"

    def hands(policy):
        return runner.play_chunk(run_spec(rules=Rules(), policies=(policy,), count=2000, seed=9), 0).hands
    for mine, theirs in (("", ":order=4:alone=7"), (":order=6:alone=5.5", ":order=6:alone=5.5"),
                         (":order=6", ":order=6:alone=7")):
        assert np.array_equal(hands(f"{M}:baseline_with_two_numbers{mine}"), hands("baseline" + theirs))
    assert not np.array_equal(hands(f"{M}:baseline_with_two_numbers:order=6"), hands(f"{M}:baseline_with_two_numbers"))


def test_a_user_policys_parameters_from_a_json_file(tmp_path):
    f = tmp_path / "p.json"
    f.write_text(json.dumps({"alone": 9}), encoding="utf-8")
    _, params, canon = resolve([f"{M}:baseline_with_two_numbers:{f}"], 4)
    assert np.array_equal(params, resolve([f"{M}:baseline_with_two_numbers:alone=9"], 4)[1])
    assert not np.array_equal(params, resolve([f"{M}:baseline_with_two_numbers"], 4)[1])
    assert canon[0] == f"{M}:baseline_with_two_numbers:alone=9"


@pytest.mark.parametrize("setting,words", [
    ("order=99", "order=99 is out of range 0..20"),
    ("nosuch=1", f"{M}:baseline_with_two_numbers has no parameter 'nosuch'; its parameters: order, alone"),
    ("order", "'order' is neither KEY=VALUE, a .json file of parameters nor a preset of"),
])
def test_a_bad_user_parameter_is_one_line(setting, words):
    spec = f"{M}:baseline_with_two_numbers:{setting}"
    with pytest.raises(PolicyError) as e:
        resolve([spec], 4)
    assert words in str(e.value)
    assert words in _one_error_line(run(["simulate", "--hands", "10", "--workers", "1", "--policy", spec]))


def test_a_policy_without_parameters_refuses_one():
    with pytest.raises(PolicyError, match="copy_of_baseline has no parameter 'order'; its parameters: none"):
        resolve([f"{M}:copy_of_baseline:order=5"], 4)


@pytest.mark.parametrize("params,words", [
    ((param("a", 1, 0, 2), param("a", 1, 0, 2)), "declared twice"),
    ((param("a", 5, 0, 2),), "default 5 is not in 0..2"),
    ((param("Bad name", 1, 0, 2),), "must be a lower-case identifier"),
    (tuple(param(f"p{k}", 0, 0, 1) for k in range(NPARAMS + 1)), f"slot {NPARAMS}"),
    (("a",), "must be made with euchresim.policies.param"),
])
def test_a_bad_declaration_is_refused(params, words):
    with pytest.raises(PolicyError, match=words):
        declare(params, "m:f")


# ---------------------------------------------------------------- the built-ins' declarations
@pytest.mark.parametrize("name", sorted(POLICIES))
def test_each_builtins_parameters_fit_the_row_without_overlap_and_its_defaults_are_declared(name):
    info = POLICIES[name]
    check_declared(info.params, name)               # unique names and slots, all below NPARAMS, defaults in range
    assert info.defaults.shape == (NPARAMS,)
    assert np.array_equal(info.defaults, defaults_row(info.params))     # no default outside a declared slot


def test_check_policy_flag_checks_users_policies_only():
    r = run(["simulate", "--hands", "50", "--workers", "1", "--check-policy",
             "--policy", f"baseline,{M}:reads_past_the_tables,heuristic,random"])
    line = _one_error_line(r)
    assert f"seat 1's policy '{M}:reads_past_the_tables:check' raised IndexError" in line
    from euchresim.policies import with_checks
    assert with_checks(["baseline:order=5", f"{M}:f", f"{M}:f:check", f"{M}:f:x=1"]) == [
        "baseline:order=5", f"{M}:f:check", f"{M}:f:check", f"{M}:f:x=1:check"]
