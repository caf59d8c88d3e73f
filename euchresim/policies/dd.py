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

from euchresim.engine.bits import U, lowbit, popcount
from euchresim.engine.layout import (AWAY, HAND, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_PLAY, PHASE)
from euchresim.policies.heuristic import heuristic_decide
from euchresim.policies.search import (P_SEARCH_BIDS, best_action, card_values, clear_sums, pick_card, points_table, value_actions)


@njit(cache=True, _nrt=False)
def dd_decide(st, priv, seat, legal, params, rng, tab, ws):
    ph = st[PHASE]
    if ph == PH_PLAY:
        if popcount(legal) == 1:
            return lowbit(legal)
        clear_sums(ws)
        points_table(st, tab, seat, ws)
        card_values(st, priv, tab, ws, seat, 1)
        return pick_card(legal, priv[U(HAND + seat)], ws, st, tab)
    if (ph == PH_BID1 or ph == PH_BID2 or ph == PH_ALONE or ph == PH_DEFEND or ph == PH_DISCARD) \
            and params[P_SEARCH_BIDS] != 0:
        clear_sums(ws)
        value_actions(st, priv, tab, ws, seat, legal, params)
        return best_action(legal, ws)
    return heuristic_decide(st, priv[U(HAND + seat)], priv[U(AWAY + seat)], seat, legal, params, tab)


def dd_act(st, priv, seat, legal, params, rng, tab, ws):
    """``dd`` as the driver's search slot calls it (``dispatch.SEARCH_SIG``), compiled when a run uses it."""
    return dd_decide(st, priv, seat, legal, params, rng, tab, ws)
