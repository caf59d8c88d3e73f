"""The advisor's own playing loop against the engine's: identical hands.

``loops.advisor_kernels._play_rest`` is ``loops.hands.play_out`` written through the
advisor's once-compiled ``_ask`` and ``_apply`` (a fresh install compiles
the policies' dispatch once instead of once per caller, issue 27); it must
leave exactly the state and the policy stream ``play_out`` leaves, for every
policy the dispatch inlines and for the all-random fast path.
"""
import numpy as np
import pytest

from euchresim.engine.bits import seed_state
from euchresim.engine.layout import NPLAYS, PRIV_STATE
from euchresim.engine.tables import build_tables
from euchresim.loops.advisor_kernels import _play_rest
from euchresim.loops.hands import all_seats_random, new_workspace, play_out
from euchresim.policies import functions, resolve
from tests.helpers import rows_of, started_hand

CASES = [(4, 24, "random"), (4, 24, "heuristic"), (4, 24, ("heuristic", "baseline", "random", "heuristic")),
         (3, 25, "baseline"), (2, 32, ("random", "heuristic"))]


@pytest.mark.parametrize("players,deck,policy", CASES)
def test_play_rest_equals_play_out(players, deck, policy):
    rules, res = rows_of(players, deck, "random", seed=31, n=150)
    tab = build_tables(rules)
    pids, params, _ = resolve(policy, players)
    fns, ws = functions(policy, players), new_workspace()
    fast = all_seats_random(pids, np.int64(players))
    base = seed_state(np.random.SeedSequence(9))
    played = 0
    for row in res.hands:
        out = []
        for loop in (play_out, _play_rest):
            st, priv = started_hand(tab, row)
            rng = base.copy()
            assert loop(st, priv, tab, pids, params, fns, rng, ws, fast) == 0
            out.append((st, priv, rng))
        (a, pa, ra), (b, pb, rb) = out
        assert np.array_equal(a, b) and np.array_equal(ra, rb)
        assert np.array_equal(pa[:PRIV_STATE], pb[:PRIV_STATE])   # the rest is scratch
        played += a[NPLAYS] > 0
        base = ra
    assert played > 50                   # hands played out to the cards, not only thrown in
