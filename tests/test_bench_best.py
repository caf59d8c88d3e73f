"""bench's figure for ``best``: hands and decisions a second, the decisions counted from the rows.

The count must be the number of times a policy is asked: checked against
the same hands stepped with Hand, one ``decide`` a decision.
"""
import numpy as np

from euchresim.engine.layout import CFG_NPACK, CFG_PLAYERS, REDEAL, T_NEXT, T_PACK
from euchresim.engine.tables import build_tables
from euchresim.loops.hands import new_workspace, seat_decider
from euchresim.loops.slow import first_dealer
from euchresim.engine.state import Hand
from euchresim.policies import seats
from euchresim.rules import Rules
from euchresim.run import runner
from euchresim.studies import benchmark as bench
from tests.helpers import fast_and_full


def _asked(policy, n, seed):
    """Decisions asked in chunk 0's first ``n`` hands, stepped from Python in the kernel's order."""
    tab = build_tables(Rules())
    table = seats(policy, 4)
    pids, params, fns = table.pids, table.params, table.functions()
    drng, prng = runner.chunk_states(seed, 0)
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    ws = new_workspace()
    dealer = first_dealer(drng, tab[CFG_PLAYERS])
    h = Hand(tab)
    asked = 0
    for _ in range(n):
        h.deal_next(work, drng, np.zeros(4, np.int64), dealer)
        asked += h.play_out(seat_decider(pids, params, fns, prng, ws))
        if h.st[REDEAL] == 0:
            dealer = int(tab[T_NEXT + dealer])
    return asked


@fast_and_full("n", 100, 300)
def test_the_decisions_a_second_count_every_decision_a_hand_asks(monkeypatch, n):
    times = iter([0.0, 2.0])
    monkeypatch.setattr(bench.time, "perf_counter", lambda: next(times))
    hps, dps = bench.measure_policy_hands(seats(["heuristic"], 4), n, repeat=1, seed=6)
    assert hps == n / 2.0
    assert dps == _asked("heuristic", n, 6) / 2.0


def test_each_decision_timed_is_every_decision_a_hand_asks():
    """The slowest-decision figure times chunk 0's hands one decision each: its count is theirs, its figures
    ordered, the slowest named by its phase."""
    ticks = iter(float(k) for k in range(100_000))      # each reading 1 s after the last: every decision 1 s
    got = bench.measure_decision_times(seats(["heuristic"], 4), 12, seed=6, clock=lambda: next(ticks))
    assert got["decisions"] == _asked("heuristic", 12, 6)
    assert got["mean_ms"] == got["p99_ms"] == got["max_ms"] == 1000.0


def test_the_slowest_decision_is_the_one_that_took_longest():
    readings = []

    def clock():
        # decision j is read at 2j-1 (start) and 2j (end): the seventh takes 5 s, every other 1 s
        readings.append(None)
        k = len(readings)
        return float(k) + (4.0 if k >= 14 else 0.0)
    got = bench.measure_decision_times(seats(["heuristic"], 4), 2, seed=6, clock=clock)
    assert got["max_ms"] == 5000.0
    assert abs(got["mean_ms"] - 1000.0 * (got["decisions"] + 4) / got["decisions"]) < 1e-9
    assert got["max_phase"] in ("bid1", "bid2", "alone", "discard", "play")
