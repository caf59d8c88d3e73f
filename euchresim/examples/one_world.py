"""A user's policy that calls the solver: baseline's calls; in play, the best card in one world it deals.

It sees only what a player sees: ``deal_world`` deals the cards it has not
seen as pimc does (consistent with the voids shown and the upcard), and
``dd_tricks`` says what each legal card makes in that world. pimc does
the same over 50 worlds and keeps the solver's workspace from call to call.
"""
import numpy as np

from euchresim.cards import NCARDS
from euchresim.engine.layout import MAKER, PH_PLAY, PHASE
from euchresim.policies import user_policy
from euchresim.policies.builtin import BASELINE_DEFAULTS, baseline_decide
from euchresim.policies.view import partner
from euchresim.policies.worlds import dd_tricks, deal_world


@user_policy
def one_world(st, hand, away, seat, legal, params, rng, tab):
    if st[PHASE] != PH_PLAY:
        return baseline_decide(st, hand, away, seat, legal, BASELINE_DEFAULTS, tab)
    tricks = np.zeros(NCARDS, np.int64)
    dd_tricks(st, deal_world(st, hand, away, seat, tab, rng), tab, tricks)
    making = seat == st[MAKER] or partner(st, seat, tab) == st[MAKER]
    best, value = np.int64(-1), np.int64(0)
    for c in range(NCARDS):
        if (legal >> c) & 1 and tricks[c] >= 0:
            v = tricks[c] if making else -tricks[c]          # the makers want tricks, the defenders none
            if best < 0 or v > value:
                best, value = np.int64(c), v
    return best
