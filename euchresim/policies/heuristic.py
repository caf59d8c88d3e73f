"""Placeholder: the heuristic policy is being written (not registered in POLICIES yet)."""
import numpy as np
from numba import njit

from .builtin import NPARAMS, baseline_decide

HEURISTIC_DEFAULTS = np.zeros(NPARAMS)
HEURISTIC_PARAMS = ()


@njit(cache=True, _nrt=False)
def heuristic_decide(st, hand, away, seat, legal, params, tab):
    return baseline_decide(st, hand, away, seat, legal, params, tab)
