"""``pimc``: perfect-information Monte Carlo, the sampling bot.

At each decision it deals the cards its seat has not seen in ``worlds``
ways consistent with what the seat knows (``sampler.sample_world``: its
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
from numba import njit

from euchresim.engine.hand import legal_actions
from euchresim.engine.layout import AWAY, HAND, TO_ACT
from euchresim.policies.search import search_decide


@njit(cache=True, _nrt=False)
def pimc_decide(st, hand, away, seat, legal, params, rng, tab, ws):
    """``search_decide`` over worlds drawn from what the seat sees: its own cards, never another's.

    The true deal's slot is handed the public state: there is no private
    state here to read, by construction, and it is never read either.
    """
    return search_decide(st, st, hand, away, seat, legal, params, rng, tab, ws, False)


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
    """``pimc`` as the hot loop's search slot calls it (``dispatch.SEARCH_SIG``): it reads its own cards only."""
    return pimc_decide(st, priv[HAND + seat], priv[AWAY + seat], seat, legal, params, rng, tab, ws)
