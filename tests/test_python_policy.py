"""A policy played as plain Python (``MODULE:FUNCTION:python``, loops/slow.py): the same decisions, the same rows.

A jitted user function played through its own Python code must give, bit
for bit, the rows, plays, games, rubbers and counts the jitted loop gives:
that holds the slow loop's steps (the deal, the state machine, the other
seats' dispatch, both random streams, the row, the tally) to the fast one's.
``random_player`` draws from the shared policy stream at every decision, so
a draw out of place anywhere would show.
"""
import json
import os

import numpy as np
import pytest

from euchresim.policies import python_functions, resolve
from euchresim.policies.dispatch import USER
from euchresim.rules import Rules
from euchresim.run import runner
from tests.helpers import run_spec, one_error_line, run

M = "tests.user_policies"


def _chunk(rules, policies, mode="hands", count=300, seed=3, chunk=0, chunk_size=0):
    spec = run_spec(rules=rules, policies=tuple(policies), seed=seed, mode=mode, count=count, chunk_size=chunk_size)
    return runner.play_chunk(spec, chunk)


def _same(a, b):
    assert np.array_equal(a.hands, b.hands) and np.array_equal(a.plays, b.plays)
    assert np.array_equal(a.games, b.games) and np.array_equal(a.rubbers, b.rubbers)
    assert (a.counts is None) == (b.counts is None)
    if a.counts is not None:
        assert np.array_equal(a.counts, b.counts)


@pytest.mark.parametrize("players,deck,mode,count", [
    (4, 24, "hands", 400), (4, 24, "games", 12), (4, 24, "rubbers", 4), (3, 25, "hands", 300), (3, 25, "games", 8),
    (2, 33, "hands", 300)])
def test_a_jitted_policy_played_as_python_gives_the_same_rows(players, deck, mode, count):
    rules = Rules(players=players, deck=deck)
    others = ("heuristic", "random", "baseline")[:players - 1]
    for fn in ("random_player", "copy_of_baseline"):
        jitted = _chunk(rules, (f"{M}:{fn}",) + others, mode, count)
        python = _chunk(rules, (f"{M}:{fn}:python",) + others, mode, count)
        _same(jitted, python)
        assert len(python.hands) > 0
    differs = _chunk(rules, (f"{M}:random_player:python",) + others, mode, count, seed=4)
    assert not np.array_equal(differs.hands, python.hands)           # another seed plays other hands


def test_every_seat_in_python_and_a_later_chunk_too():
    rules = Rules(defend_alone=True)
    jitted = _chunk(rules, [f"{M}:random_player"] * 4, count=200, chunk=3, chunk_size=50)
    python = _chunk(rules, [f"{M}:random_player:python"] * 4, count=200, chunk=3, chunk_size=50)
    _same(jitted, python)
    with pytest.raises(runner.SimError, match="chunk 4"):
        _chunk(rules, [f"{M}:random_player:python"] * 4, count=200, chunk=4, chunk_size=50)


def test_the_slow_loop_asks_only_the_python_seats_from_python():
    names = ["baseline", f"{M}:copy_of_baseline:python", "random", f"{M}:copy_of_baseline"]
    pids, _, canon = resolve(names, 4)
    assert list(pids[[1, 3]]) == [USER + 1, USER + 3] and canon[1] == f"{M}:copy_of_baseline:python"
    slots = python_functions(names, 4)
    assert slots[0] is None and slots[2] is None and slots[3] is None
    assert slots[1].fn.__name__ == "copy_of_baseline" and not hasattr(slots[1].fn, "py_func")   # its Python code
    assert python_functions(["baseline", f"{M}:copy_of_baseline"], 2) is None


def test_a_python_raise_names_the_seat_the_decision_the_message_and_the_line():
    r = run(["simulate", "--hands", "50", "--workers", "1",
             "--policy", f"baseline,{M}:bot_raises_at_play,baseline,baseline"])
    line = one_error_line(r)
    import inspect
    from tests import user_policies
    lines, first = inspect.getsourcelines(user_policies.bot_raises_at_play)
    raise_line = first + next(k for k, ln in enumerate(lines) if "raise ValueError" in ln)
    assert (f"seat 1's policy '{M}:bot_raises_at_play' raised ValueError at its 'play' decision: "
            f"seat 1 has no card it likes (user_policies.py:{raise_line})") in line
    with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs", "policies.md"),
              encoding="utf-8") as fh:
        assert f"(user_policies.py:{raise_line})" in fh.read()         # the page quotes the line it says
    record = json.loads(line[line.index("{"):])
    assert record["hands"] and len(record["calls"]) >= 1


def test_a_python_illegal_move_and_an_answer_that_is_no_action_are_one_line_each():
    line = one_error_line(run(["simulate", "--games", "2", "--workers", "1",
                               "--policy", f"{M}:plays_a_card_it_lacks:python"]))
    assert "made an illegal move at its 'play' decision: it returned 33 (no card); the legal cards: " in line
    line = one_error_line(run(["simulate", "--hands", "20", "--workers", "1",
                               "--policy", f"random,random,{M}:bot_returns_none_at_play,random"]))
    assert "raised ValueError at its 'play' decision: None is not a legal action at this play decision" in line


def test_check_and_python_together_are_refused_and_so_is_python_policy():
    line = one_error_line(run(["simulate", "--hands", "20", "--policy", f"{M}:copy_of_baseline:check:python"]))
    assert "name one" in line
    with pytest.raises(ImportError, match=r"no python_policy: .* decorated with @euchresim.policies.bot"):
        from euchresim.policies import python_policy      # noqa: F401


@pytest.mark.parametrize("args", [
    ["advise", "--hand", "JH,JD,AH,KS,9C", "--upcard", "TH", "--seat", "left", "--samples", "100"],
    ["report", "order-up", "--hands", "1000", "--quiet"]])
def test_the_compiled_only_studies_refuse_a_python_policy_in_one_line(args, tmp_path):
    extra = ["--out", str(tmp_path / "r")] if args[0] == "report" else []
    line = one_error_line(run(args + extra + ["--policy", f"{M}:copy_of_baseline:python"]))
    assert line.endswith("plays whole hands and games (simulate, duel, ladder), not this; drop ':python'")


def test_records_workers_and_the_summary_are_the_jitted_ones(tmp_path):
    out = {}
    for tag, pol, workers in (("jit", f"{M}:random_player", "1"), ("py", f"{M}:random_player:python", "2")):
        path = tmp_path / f"{tag}.jsonl"
        r = run(["simulate", "--hands", "600", "--chunk-size", "200", "--seed", "9", "--workers", workers,
                 "--policy", f"{pol},heuristic,{pol},baseline", "--records", str(path), "--json", "--quiet"])
        assert r.exit_code == 0, r.output
        out[tag] = (path.read_text(), json.loads(r.output)["counts"])
    assert out["jit"] == out["py"] and out["jit"][0].count("\n") == 600


def test_a_bot_is_refused_by_the_compiled_only_callers_naming_the_form_that_plays_there():
    from euchresim.policies import PolicyError, seats
    table = seats(["tests.decision_bots:all_heuristic"], 4)
    assert table.python_functions() is not None and table.functions(python_ok=True)
    with pytest.raises(PolicyError, match=r"\(a @bot, or ':python'\) .*; a @user_policy function plays everywhere$"):
        table.functions()
