"""``pimc``: perfect-information Monte Carlo, the sampling bot.

At each decision it deals the cards its seat has not seen in ``worlds``
ways consistent with what the seat knows (``search.sample_world``: its
hand, the upcard and who took it, its own discard, every card played and
the voids they show), values each action in every world as ``dd`` values
it on the true deal (the solver for cards, a rollout for calls, alone,
defend alone and the discard), and takes the action with the best mean.
The same sampled worlds value every action of a decision, so their
differences are paired.

Its known weakness is strategy fusion: in each world the rest of the hand
is played as if every card were seen, which makes a call look better than
a player who must guess could make it; docs/policies.md has the
measurement against heuristic bidding with the same play.
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import lowbit, popcount
from euchresim.engine.hand import legal_actions
from euchresim.engine.layout import (AWAY, HAND, TO_ACT, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_PLAY, PHASE)
from euchresim.policies.heuristic import heuristic_decide
from euchresim.policies.search import (P_BID_WORLDS, P_SEARCH_BIDS, P_WORLDS, WR_WORLD, best_action, card_values, clear_sums, pick_card, points_table, sample_fitting_world, value_actions)


@njit(cache=True, _nrt=False)
def pimc_decide(st, hand, away, seat, legal, params, rng, tab, ws):
    ph = st[PHASE]
    if ph == PH_PLAY:
        if popcount(legal) == 1:
            return lowbit(legal)
        clear_sums(ws)
        points_table(st, tab, seat, ws)
        for _ in range(np.int64(params[P_WORLDS])):
            sample_fitting_world(st, hand, away, seat, tab, params, rng, ws)
            card_values(st, ws[WR_WORLD], tab, ws, seat, 1)
        return pick_card(legal, hand, ws, st, tab)
    if (ph == PH_BID1 or ph == PH_BID2 or ph == PH_ALONE or ph == PH_DEFEND or ph == PH_DISCARD) \
            and params[P_SEARCH_BIDS] != 0:
        if popcount(legal) == 1:
            return lowbit(legal)
        clear_sums(ws)
        for _ in range(np.int64(params[P_BID_WORLDS])):
            sample_fitting_world(st, hand, away, seat, tab, params, rng, ws)
            value_actions(st, ws[WR_WORLD], tab, ws, seat, legal, params)
        return best_action(legal, ws)
    return heuristic_decide(st, hand, away, seat, legal, params, tab)


@njit(cache=True)
def decide_many(sts, privs, tab, params, rng, ws, out):
    """``pimc``'s action in each state (rows of ``sts``, ``privs``): the benchmark's one jitted call."""
    for i in range(sts.shape[0]):
        st = sts[i]
        priv = privs[i]
        seat = st[TO_ACT]
        out[i] = pimc_decide(st, priv[HAND + seat], priv[AWAY + seat], seat, legal_actions(st, priv, tab),
                             params, rng, tab, ws)


def pimc_act(st, priv, seat, legal, params, rng, tab, ws):
    """``pimc`` as the driver's search slot calls it (``dispatch.SEARCH_SIG``): it reads its own cards only."""
    return pimc_decide(st, priv[HAND + seat], priv[AWAY + seat], seat, legal, params, rng, tab, ws)
