"""Placeholder: the sampling policy is being written (not registered in POLICIES yet)."""
from numba import njit

from .heuristic import heuristic_decide


@njit(cache=True, _nrt=False)
def pimc_decide(st, hand, away, seat, legal, params, rng, tab, ws):
    return heuristic_decide(st, hand, away, seat, legal, params, tab)
