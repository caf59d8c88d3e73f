"""The solver for a user's policy: a world the seat cannot tell from the truth, and each card's value in it.

A fair policy sees its own cards and what was played; to search it deals
the rest in a way it cannot rule out (``deal_world``, pimc's own sampler:
the voids shown, the upcard the dealer took, each seat's count) and asks
the double-dummy solver what each of its cards is worth there
(``dd_tricks``). Averaged over worlds, that is pimc; on the true deal,
which a fair policy never has, it is dd. Both allocate the solver's
workspace at each call (some hundred kB), so they suit prototyping and
studies more than the hot loop, where pimc keeps one per chunk.
"""
import numpy as np
from numba import njit

from euchresim.engine import solver as S
from euchresim.engine.layout import POS_SIZE, RES_SIZE, R_CARD, R_CVAL, R_VALUE, WS_SIZE
from euchresim.engine.layout import PRIV_SIZE
from euchresim.policies.sampler import sample_world
from euchresim.policies.position import load_position


@njit(cache=True)
def deal_world(st, hand, away, seat, tab, rng):
    """A deal (a private-state array: every seat's cards now in its HAND slots) consistent with what ``seat`` saw."""
    world = np.zeros(PRIV_SIZE, np.int64)
    sample_world(st, hand, away, seat, tab, rng, world)
    return world


@njit(cache=True)
def dd_tricks(st, world, tab, out):
    """The makers' tricks at the end of the hand, every seat then playing perfectly with every card seen,
    after each card the seat to play may play in ``world``: ``out[c]`` for each such card ``c`` (a
    33-slot array), -1 for every other. In the play only; returns the best value for the seat's side."""
    pos = np.zeros(POS_SIZE, np.int64)
    res = np.zeros(RES_SIZE, np.int64)
    load_position(st, world, tab, pos)
    S.solve_position(np.zeros(WS_SIZE, np.int64), tab, pos, res, np.int64(S.MODE_EXACT | S.MODE_CARDS))
    out[:] = -1
    for k in range(5):
        c = res[R_CARD + k]
        if c >= 0 and res[R_CVAL + k] >= 0:
            out[c] = res[R_CVAL + k]
    return res[R_VALUE]
