"""A user's policy: baseline's calls (with baseline's numbers), but it always plays its cheapest legal card.

Named on the command line as ``euchresim.examples.low_leads:low_leads``;
a copy of this file anywhere on the Python path (or named by its path,
``my_bots.py:low_leads``) works the same way.
"""
import numpy as np

from euchresim.engine.layout import PH_PLAY, PHASE, T_ORDER, TRUMP
from euchresim.policies import user_policy
from euchresim.policies.builtin import BASELINE_DEFAULTS, baseline_decide


@user_policy
def low_leads(st, hand, away, seat, legal, params, rng, tab):
    if st[PHASE] != PH_PLAY:
        return baseline_decide(st, hand, away, seat, legal, BASELINE_DEFAULTS, tab)
    best, best_order = -1, 1 << 30
    for c in range(33):                      # every card of the pack, the joker (32) included
        if (legal >> c) & 1:
            order = tab[T_ORDER + 33 * st[TRUMP] + c]   # strength ignoring the lead
            if order < best_order:
                best, best_order = c, order
    return np.int64(best)
