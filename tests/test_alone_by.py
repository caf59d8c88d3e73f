"""pimc's ``alone_by``: who makes the alone and defend-alone decisions (issue 35, bold loners).

A double-dummy rollout plays a lone hand as if the maker saw every card,
so it finds the march more often than a player does and values going
alone too highly; ``alone_by`` hands those two decisions to heuristic's
thresholds, or to rollouts played out by heuristic at every seat (fair),
and leaves every other decision as it was.
"""
import numpy as np
import pytest

from euchresim.engine.bits import seed_state
from euchresim.engine.hand import legal_actions
from euchresim.engine.layout import AWAY, HAND, PH_ALONE, PH_DEFEND, PHASE, TO_ACT
from euchresim.loops.hands import new_workspace
from euchresim.policies import resolve
from euchresim.policies.heuristic import heuristic_decide
from euchresim.policies.pimc import pimc_decide
from euchresim.rules import Rules
from tests.test_search_bots import _states


def _decisions(names, states, tab, players):
    rows = [resolve([n], players)[1][0] for n in names]
    out = []
    for i, (st, priv) in enumerate(states):
        seat = np.int64(st[TO_ACT])
        legal = legal_actions(st, priv, tab)
        got = []
        for row in rows:
            rng = seed_state(np.random.SeedSequence(i))       # the same worlds for each
            got.append(int(pimc_decide(st, priv[HAND + seat], priv[AWAY + seat], seat, legal, row, rng, tab,
                                       new_workspace())))
        out.append(got)
    return out


@pytest.mark.parametrize("players", [4, 3])
def test_alone_by_heuristic_is_heuristics_alone_and_nothing_else(players):
    rules = Rules(players=players, defend_alone=players == 4)
    tab, states = _states(rules, 1500, seed=9, stop_in_play=False)
    alone = [(st, priv) for st, priv in states if st[PHASE] in (PH_ALONE, PH_DEFEND)]
    other = [(st, priv) for st, priv in states if st[PHASE] not in (PH_ALONE, PH_DEFEND)][:40]
    assert len(alone) >= 10
    row = resolve(["heuristic"], players)[1][0]
    for (st, priv), (got,) in zip(alone, _decisions(["pimc:bid_worlds=10:alone_by=heuristic"], alone, tab, players)):
        seat = np.int64(st[TO_ACT])
        assert got == heuristic_decide(st, priv[HAND + seat], priv[AWAY + seat], seat, legal_actions(st, priv, tab),
                                       row, tab)
    pairs = _decisions(["pimc:bid_worlds=10:worlds=10", "pimc:bid_worlds=10:worlds=10:alone_by=heuristic"],
                       other, tab, players)
    assert all(a == b for a, b in pairs)


def test_alone_by_fair_is_fair_bids_at_the_alone_decisions_only():
    rules = Rules(defend_alone=True)
    tab, states = _states(rules, 1500, seed=4, stop_in_play=False)
    alone = [(st, priv) for st, priv in states if st[PHASE] in (PH_ALONE, PH_DEFEND)]
    other = [(st, priv) for st, priv in states if st[PHASE] not in (PH_ALONE, PH_DEFEND)][:40]
    assert len(alone) >= 10
    names = ["pimc:bid_worlds=10", "pimc:bid_worlds=10:alone_by=fair", "pimc:bid_worlds=10:fair_bids=1"]
    at_alone = _decisions(names, alone, tab, 4)
    assert all(fair == fair_bids for _, fair, fair_bids in at_alone)
    assert any(plain != fair for plain, fair, _ in at_alone)           # it changes something
    assert all(plain == fair for plain, fair in _decisions(names[:2], other, tab, 4))
