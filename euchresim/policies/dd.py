"""Placeholder: the double-dummy policy is being written (not registered in POLICIES yet)."""
from numba import njit

from ..engine.bits import U
from ..engine.layout import AWAY, HAND
from .heuristic import heuristic_decide


@njit(cache=True, _nrt=False)
def dd_decide(st, priv, seat, legal, params, rng, tab, ws):
    return heuristic_decide(st, priv[U(HAND + seat)], priv[U(AWAY + seat)], seat, legal, params, tab)
