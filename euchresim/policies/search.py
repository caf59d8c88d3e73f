"""What the search bots (``dd``, ``pimc``) share: parameters, positions, rollouts."""
import numpy as np

from .builtin import NPARAMS
from .heuristic import HEURISTIC_DEFAULTS

P_WORLDS = 28       # pimc: sampled deals per play decision
P_BID_WORLDS = 29   # pimc: sampled deals per bidding decision (calls, alone, discard)

SEARCH_PARAMS = (
    ("worlds", P_WORLDS, 50.0, 1.0, 1000.0, "pimc: deals of the unseen cards sampled per card played"),
    ("bid_worlds", P_BID_WORLDS, 20.0, 1.0, 1000.0, "pimc: deals sampled per call, alone and discard decision"),
)


def pimc_defaults():
    row = HEURISTIC_DEFAULTS.astype(np.float64).copy()
    row[P_WORLDS] = 50.0
    row[P_BID_WORLDS] = 20.0
    return row


def dd_defaults():
    return HEURISTIC_DEFAULTS.astype(np.float64).copy()


assert NPARAMS > P_BID_WORLDS
