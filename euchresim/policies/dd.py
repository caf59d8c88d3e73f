"""``dd``: the double-dummy bot.  It cheats, by design: it sees every hand.

Every card is the solver's best for its side's points; every call, alone,
defend-alone and discard decision is the action whose rollout (the rest
of the decisions before the play by ``heuristic``, the play solved) gives
its side the most points on the true deal (``search.py``).  The joker's
suit and the Cutthroat dummy keep are heuristic's.  An upper bound on
what card play can get from a deal, and a fast strong opponent for
studies: never a model of a player, who cannot see the other hands.
"""
from numba import njit

from euchresim.engine.bits import U
from euchresim.engine.layout import AWAY, HAND
from euchresim.policies.search import search_decide


@njit(cache=True, _nrt=False)
def dd_decide(st, priv, seat, legal, params, rng, tab, ws):
    """``search_decide`` with the true deal as its one world."""
    return search_decide(st, priv, priv[U(HAND + seat)], priv[U(AWAY + seat)], seat, legal, params, rng, tab, ws,
                         True)


def dd_act(st, priv, seat, legal, params, rng, tab, ws):
    """``dd`` as the hot loop's search slot calls it (``dispatch.SEARCH_SIG``), compiled when a run uses it."""
    return dd_decide(st, priv, seat, legal, params, rng, tab, ws)
