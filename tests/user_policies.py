"""Users' policies for tests/test_user_policy.py: a copy of a built-in, and broken ones."""
import numpy as np
from numba import njit

from euchresim.engine.layout import PH_PLAY, PHASE
from euchresim.policies import POLICY_SIG, user_policy
from euchresim.policies.builtin import BASELINE_DEFAULTS, baseline_decide

PLAYS_SEEN = 30      # st[NPLAYS]: always >= 0 (keeps the broken policy's branch honest for numba)
assert POLICY_SIG is not None


@user_policy
def copy_of_baseline(st, hand, away, seat, legal, params, rng, tab):
    return baseline_decide(st, hand, away, seat, legal, BASELINE_DEFAULTS, tab)


@njit                       # lazily compiled: loading compiles it for the policy signature
def lazy_copy_of_baseline(st, hand, away, seat, legal, params, rng, tab):
    return baseline_decide(st, hand, away, seat, legal, BASELINE_DEFAULTS, tab)


@user_policy
def plays_a_card_it_lacks(st, hand, away, seat, legal, params, rng, tab):
    if st[PHASE] == PH_PLAY and st[PLAYS_SEEN] >= 0:
        return np.int64(33)            # no such card
    return baseline_decide(st, hand, away, seat, legal, BASELINE_DEFAULTS, tab)


def not_jitted(st, hand, away, seat, legal, params, rng, tab):
    return 0


@njit
def returns_a_float(st, hand, away, seat, legal, params, rng, tab):
    return 0.5


@njit
def wrong_arguments(st, hand):
    return 0

