"""Users' own policies: loaded by name, run inside the jitted loop, refused in one line when broken.

The user policy ``tests.user_policies:copy_of_baseline`` calls the built-in
baseline function; run through the first-class function slot it must give
exactly the rows the built-in id gives, which holds the user path to the
built-in one (same state, same legal set, same application of the action).
"""
import json

import numpy as np
import pytest

from euchresim.run import runner
from euchresim.policies import POLICIES, PolicyError, functions, resolve
from euchresim.policies.dispatch import BASELINE, HEURISTIC, NSLOTS, RANDOM, SLOTTED, USER, no_policy, no_search
from euchresim.rules import Rules
from tests.helpers import run_spec, one_error_line as _one_error_line, run
from tests.helpers import VARIANTS

COPY = "tests.user_policies:copy_of_baseline"


@pytest.mark.parametrize("players,deck", VARIANTS)
def test_a_user_copy_of_baseline_plays_exactly_as_baseline(players, deck):
    rules = Rules(players=players, deck=deck, **({"defend_alone": True} if players == 4 else {}))
    rows = []
    mixed = (COPY,) + ("random",) * (players - 1)
    for names in (("baseline",), (COPY,), mixed):
        spec = run_spec(rules=rules, policies=names, count=3000, seed=11)
        rows.append(runner.play_chunk(spec, 0).hands.copy())
    assert np.array_equal(rows[0], rows[1])
    assert not np.array_equal(rows[0], rows[2])          # a different line-up plays differently


def test_games_with_a_user_policy_match_the_builtin():
    out = []
    for pol in ("baseline", COPY):
        spec = run_spec(rules=Rules(), policies=(pol, "random", pol, "random"), mode="games", count=30,
                           seed=4)
        res = runner.play_chunk(spec, 0)
        out.append((res.hands.copy(), res.games.copy()))
    assert np.array_equal(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1])


def test_user_slots_are_the_seats_and_the_rest_are_filled():
    names = ["baseline", COPY, "random", "tests.user_policies:random_player"]
    pids, params, canon = resolve(names, 4)
    assert list(pids) == [POLICIES["baseline"].pid, USER + 1, POLICIES["random"].pid, USER + 3]
    fns, search = functions(names, 4)
    assert len(fns) == 4 and fns[0] is no_policy and fns[2] is no_policy
    assert search == (no_search,) * NSLOTS           # no search bot in the line-up: none compiled
    assert fns[1].py_func.__name__ == "copy_of_baseline" and canon[1] == COPY


def test_search_slots_are_filled_only_for_the_bots_a_line_up_uses():
    assert functions(["baseline"], 4)[1] == (no_search,) * NSLOTS
    _, search = functions(["dd", "baseline", "dd", "baseline"], 4)
    assert search[0].py_func.__name__ == "dd_act" and search[1] is no_search
    _, again = functions(["pimc", "dd", "pimc", "dd"], 4)
    assert again[0] is search[0] and again[1].py_func.__name__ == "pimc_act"     # compiled once


@pytest.mark.slow
def test_a_python_file_path_names_a_module(tmp_path):
    src = open("tests/user_policies.py", encoding="utf-8").read()
    path = tmp_path / "my_bots.py"
    path.write_text(src, encoding="utf-8")
    spec = run_spec(rules=Rules(), policies=(f"{path}:copy_of_baseline",), count=500, seed=2)
    base = run_spec(rules=Rules(), policies=("baseline",), count=500, seed=2)
    assert np.array_equal(runner.play_chunk(spec, 0).hands, runner.play_chunk(base, 0).hands)


def test_two_workers_give_one_worker_numbers():
    spec = run_spec(rules=Rules(), policies=(COPY, "random", COPY, "random"), count=4000, chunk_size=1000,
                       seed=8)
    a = runner.run(spec, workers=1)
    b = runner.run(spec, workers=2)
    assert a == b and a["hands"] == 4000


def test_an_illegal_move_is_one_line_naming_the_policy_the_decision_and_the_hand():
    r = run(["simulate", "--hands", "500", "--workers", "1",
             "--policy", "baseline,tests.user_policies:plays_a_card_it_lacks,baseline,baseline"])
    line = _one_error_line(r)
    assert "seat 1's policy 'tests.user_policies:plays_a_card_it_lacks' made an illegal move" in line
    assert "seat 1 is to play (R10)" in line
    record = json.loads(line[line.index("{"):])
    assert record["players"] == 4 and len(record["hands"]) == 4 and record["plays"] is not None


def test_an_illegal_move_in_a_game_is_reported_the_same_way():
    r = run(["simulate", "--games", "5", "--workers", "1",
             "--policy", "tests.user_policies:plays_a_card_it_lacks"])
    line = _one_error_line(r)
    assert "made an illegal move" in line and "the hand so far: {" in line


@pytest.mark.parametrize("spec,words", [
    ("tests.bad_policy_module:x", "cannot load module 'tests.bad_policy_module': RuntimeError: this module is broken"),
    ("no_such_module_here:f", "cannot load module 'no_such_module_here': ModuleNotFoundError"),
    ("tests.user_policies:nosuch", "module 'tests.user_policies' has no 'nosuch'"),
    ("tests.user_policies:not_jitted", "tests.user_policies:not_jitted is not a policy: decorate it with "
                                       "@euchresim.policies.user_policy"),
    ("tests.user_policies:bare_njit_copy_of_baseline", "is a plain @njit function: decorate it with "
                                                       "@euchresim.policies.user_policy"),
    ("tests.user_policies:not_jitted:python", "not_jitted is not a policy: decorate it with"),
    ("tests.uncompilable_policy:wrong_arguments",
     "tests.uncompilable_policy:wrong_arguments does not compile for the policy signature"),
    ("tests/none_such.py:f", "no file tests/none_such.py"),
    ("heuristic:order_1=99", "order_1=99 is out of range"),
    ("heuristic:nosuch=1", "heuristic has no parameter 'nosuch'"),
    ("pimc:worlds=many", "'many' is not a number"),
    ("baseline:order=nan", "is not a finite number"),
    ("baseline:missing.json", "cannot read parameters from missing.json"),
    ("nonsense", "unknown policy 'nonsense'"),
])
def test_a_bad_policy_is_one_line(spec, words):
    with pytest.raises(PolicyError, match=None) as e:
        resolve([spec], 4)
    assert words in str(e.value) and "\n" not in str(e.value)
    r = run(["simulate", "--hands", "100", "--workers", "1", "--policy", spec])
    assert words in _one_error_line(r)


def test_parameters_from_a_json_file(tmp_path):
    f = tmp_path / "p.json"
    f.write_text(json.dumps({"order": 6, "alone": 9.5}), encoding="utf-8")
    _, params, canon = resolve([f"baseline:{f}"], 4)
    assert canon[0] == "baseline:order=6:alone=9.5"
    _, params2, _ = resolve(["baseline:order=6:alone=9.5"], 4)
    assert np.array_equal(params, params2)
    for one in ("baseline:order=6", "baseline:alone=9.5"):        # each key of the file is read, neither dropped
        assert not np.array_equal(params, resolve([one], 4)[1])
    bad = tmp_path / "b.json"
    bad.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(PolicyError, match="must hold a JSON object"):
        resolve([f"baseline:{bad}"], 4)


def test_a_parameter_changes_play_without_a_new_compile():
    from euchresim.loops.hands import _play_hands          # the jitted loop (run_hands is Python around it)
    before = len(_play_hands.signatures)
    a = runner.play_chunk(run_spec(rules=Rules(), policies=("baseline:order=3",), count=2000, seed=1), 0)
    b = runner.play_chunk(run_spec(rules=Rules(), policies=("baseline:order=6",), count=2000, seed=1), 0)
    assert (a.hands["make_round"] == 1).sum() > (b.hands["make_round"] == 1).sum()
    assert len(_play_hands.signatures) == max(before, 1)


def test_each_builtin_is_one_declaration_inlined_or_in_its_own_slot():
    from euchresim.policies import BY_PID
    inlined = {p.pid for p in POLICIES.values() if not p.kernel}
    assert inlined == {RANDOM, BASELINE, HEURISTIC}              # dispatch.plain_act's branches, and no others
    slotted = sorted(p.pid for p in POLICIES.values() if p.kernel)
    assert slotted == list(range(SLOTTED, SLOTTED + len(slotted))) and len(slotted) <= NSLOTS
    assert BY_PID == {p.pid: p for p in POLICIES.values()}
    for name in ("dd", "pimc"):                                  # each slot's kernel is the declared one
        _, search = functions([name], 4)
        assert search[POLICIES[name].pid - SLOTTED].py_func.__name__ == POLICIES[name].kernel.split(":")[1]


def test_a_new_slotted_builtin_is_a_declaration_and_nothing_else(monkeypatch):
    """Declared with its kernel, it plays through its slot: the same rows as the same moves as a user's function."""
    import euchresim.policies as P
    from euchresim.policies.params import defaults_row
    info = P.PolicyInfo("slotted_random", SLOTTED + 2, defaults_row(()), "random, as a declared kernel", (),
                        "tests.user_policies:search_random_player")
    monkeypatch.setitem(P.POLICIES, info.name, info)
    monkeypatch.setitem(P.BY_PID, info.pid, info)
    rules = Rules(players=3, deck=25)
    declared = runner.play_chunk(run_spec(rules=rules, policies=("slotted_random", "baseline", "heuristic"),
                                          count=500, seed=6), 0)
    user = runner.play_chunk(run_spec(rules=rules, policies=("tests.user_policies:random_player", "baseline",
                                                             "heuristic"), count=500, seed=6), 0)
    assert np.array_equal(declared.hands, user.hands) and np.array_equal(declared.plays, user.plays)
    assert resolve(["slotted_random"], 3)[0][0] == SLOTTED + 2 and functions(["slotted_random"], 3)[1][2] is not no_search
