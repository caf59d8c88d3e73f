"""bench's figure for ``best``: hands and decisions a second, the decisions counted from the rows.

The count must be the number of times a policy is asked: checked against
the same hands stepped with HandState, one ``decide`` a decision.
"""
import numpy as np

from euchresim.engine.layout import CFG_NPACK, CFG_PLAYERS, REDEAL, T_NEXT, T_PACK
from euchresim.engine.tables import build_tables
from euchresim.loops.hands import new_workspace
from euchresim.loops.slow import _draw
from euchresim.loops.step import HandState
from euchresim.policies import seats
from euchresim.rules import Rules
from euchresim.run import runner
from euchresim.studies import bench
from tests.helpers import fast_and_full


def _asked(policy, n, seed):
    """Decisions asked in chunk 0's first ``n`` hands, stepped from Python in the kernel's order."""
    tab = build_tables(Rules())
    table = seats(policy, 4)
    pids, params, fns = table.pids, table.params, table.functions()
    drng, prng = runner.chunk_states(seed, 0)
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    ws = new_workspace()
    dealer = int(_draw(drng, tab[CFG_PLAYERS]))
    h = HandState(tab)
    asked = 0
    for _ in range(n):
        h.deal_next(work, drng, np.zeros(4, np.int64), dealer)
        while not h.done:
            a, legal = h.decide(pids, params, fns, prng, ws)
            assert not h.apply(a, legal)
            asked += 1
        if h.st[REDEAL] == 0:
            dealer = int(tab[T_NEXT + dealer])
    return asked


@fast_and_full("n", 100, 300)
def test_the_decisions_a_second_count_every_decision_a_hand_asks(monkeypatch, n):
    times = iter([0.0, 2.0])
    monkeypatch.setattr(bench.time, "perf_counter", lambda: next(times))
    hps, dps = bench.measure_policy_hands("heuristic", n, repeat=1, seed=6)
    assert hps == n / 2.0
    assert dps == _asked("heuristic", n, 6) / 2.0
