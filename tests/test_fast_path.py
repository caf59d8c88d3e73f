"""The all-random fast path against the generic policy loop: identical state.

``loops.hands.random_tricks`` plays the tricks without asking a policy card by
card; it must leave exactly the state (and RNG) the generic
``legal_actions``/``act``/``apply_legal`` loop leaves.
"""
import numpy as np
import pytest

from euchresim.loops.hands import new_workspace, play_out
from euchresim.engine.bits import seed_state
from euchresim.engine.layout import PRIV_STATE
from euchresim.policies import functions, resolve
from euchresim.engine.tables import build_tables
from tests.helpers import VARIANTS, rows_of, started_hand


@pytest.mark.parametrize("players,deck", VARIANTS)
def test_random_tricks_equals_the_generic_loop(players, deck):
    opts = {"defend_alone": True} if players == 4 else {}
    rules, res = rows_of(players, deck, "random", seed=77, n=300, **opts)
    tab = build_tables(rules)
    pids, params, _ = resolve("random", players)
    fns, ws = functions("random", players), new_workspace()
    base = seed_state(np.random.SeedSequence(5))
    for row in res.hands:
        out = []
        for fast in (True, False):
            st, priv = started_hand(tab, row)
            rng = base.copy()
            assert play_out(st, priv, tab, pids, params, fns, rng, ws, fast) == 0
            out.append((st, priv, rng))
        (a, pa, ra), (b, pb, rb) = out
        assert np.array_equal(a, b) and np.array_equal(ra, rb)
        assert np.array_equal(pa[:PRIV_STATE], pb[:PRIV_STATE])   # the rest is scratch
        base = ra
