"""Games started at a given score (``RunSpec.start_score``, ``simulate --start-score``).

Late scores are where the score decides a call; a game that starts there
must be the rest of a game that got there: the same rules from that score,
in the kernel and in its plain-Python twin.
"""
import numpy as np
import pytest

from euchresim.cli.app import main
from euchresim.rules import Rules
from euchresim.run import runner
from tests.helpers import run_spec


def _games(policy, start, players=4, n=300, seed=4):
    spec = run_spec(rules=Rules(players=players), policies=(policy,) * players, seed=seed, mode="games",
                          count=n, start_score=start)
    return runner.play_chunk(spec, 0)


def test_from_nine_all_the_first_scored_hand_ends_the_game():
    res = _games("heuristic", (9, 9))
    hands, games = res.hands, res.games
    i = 0
    for g in games:
        rows = hands[i:i + g["hands"]]
        i += g["hands"]
        scored = [k for k, r in enumerate(rows) if r["points0"] or r["points1"]]
        assert scored == [len(rows) - 1]                              # thrown-in hands first, if any
        scored = [rows[-1]]
        assert (g["score0"], g["score1"]) == (9 + scored[0]["points0"], 9 + scored[0]["points1"])
        assert all((r["score0"], r["score1"]) == (9, 9) for r in rows)   # each hand is dealt at 9-9
        assert g["winners"] == (0b0101 if scored[0]["points0"] else 0b1010)


def test_each_side_starts_at_its_own_score_and_zeros_are_a_new_game():
    res = _games("heuristic", (7, 3), n=50)
    first = res.hands[0]
    assert (first["score0"], first["score1"], first["score2"], first["score3"]) == (7, 3, 7, 3)
    a, b = _games("heuristic", (0, 0), n=40), _games("heuristic", (), n=40)
    assert a.hands.tobytes() == b.hands.tobytes() and a.games.tobytes() == b.games.tobytes()
    three = _games("heuristic", (4, 2, 1), players=3, n=20)
    assert tuple(three.hands[0][f"score{s}"] for s in range(3)) == (4, 2, 1)


@pytest.mark.parametrize("players,start", [(4, (8, 6)), (3, (3, 6, 5))])
def test_the_plain_python_loop_starts_where_the_kernel_does(players, start):
    fast = _games("heuristic", start, players=players, n=30)
    slow = _games("tests.decision_bots:all_heuristic", start, players=players, n=30)
    assert fast.hands.tobytes() == slow.hands.tobytes() and fast.games.tobytes() == slow.games.tobytes()


def test_the_dealers_side_wins_more_from_nine_all_than_from_love_all():
    """At 9-9 the hand decides the game and the dealing side makes most hands: its edge grows (about 69%
    against 52% from 0-0, docs/win-probability.md). Both rates against the paired standard error."""
    late, early = _games("heuristic", (9, 9), n=2000), _games("heuristic", (), n=2000)

    def first_dealer_side_won(res):
        return np.array([bool(g["winners"] >> g["first_dealer"] & 1) for g in res.games], float)
    w9, w0 = first_dealer_side_won(late), first_dealer_side_won(early)
    se = np.sqrt(w9.var() / len(w9) + w0.var() / len(w0))
    assert w9.mean() - w0.mean() > 4 * se


@pytest.mark.parametrize("args,message", [
    (["--games", "5", "--start-score", "9-10"], "start score 9-10: each side from 0 to 9"),
    (["--hands", "5", "--start-score", "9-1"], "a start score is for whole games (--games), not hands"),
    (["--games", "5", "--players", "3", "--start-score", "9-1"], "give 3 whole numbers, one per side"),
    (["--games", "5", "--start-score", "nine-one"], "is not scores like 9-8"),
])
def test_a_bad_start_score_is_one_line(args, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as e:
        main(["simulate", *args])
    err = capsys.readouterr().err.strip().splitlines()
    assert e.value.code != 0 and len(err) == 1 and message in err[0]


def test_the_start_score_is_part_of_what_a_run_is():
    spec = run_spec(rules=Rules(), policies=("heuristic",) * 4, mode="games", count=10, start_score=(9, 8))
    assert spec.meta()["start_score"] == [9, 8]
    assert "start_score" not in run_spec(rules=Rules(), mode="games", count=10).meta()


def test_zeros_are_checked_as_any_score_then_read_as_a_new_game():
    assert run_spec(rules=Rules(), mode="games", count=5, start_score=(0, 0)).start_score == ()
    for mode, start in (("hands", (0, 0)), ("games", (0, 0, 0)), ("games", (0,))):
        with pytest.raises(runner.SimError):
            run_spec(rules=Rules(), mode=mode, count=5, start_score=start)
