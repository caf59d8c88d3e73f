"""Users' policies for tests/test_user_policy.py and test_python_policy.py: a copy of a built-in, and broken ones."""
import numpy as np
from numba import njit

from euchresim.engine.layout import PH_BID2, PH_DUMMY, PH_PLAY, PHASE
from euchresim.policies import POLICY_SIG, bot, param, user_policy
from euchresim.policies.builtin import (BASELINE_DEFAULTS, B_ALONE, B_ORDER, baseline_decide, random_choice,
                                        random_keep)

PLAYS_SEEN = 30      # st[NPLAYS]: always >= 0 (keeps the broken policy's branch honest for numba)
assert POLICY_SIG is not None


@user_policy
def copy_of_baseline(st, hand, away, seat, legal, params, rng, tab):
    return baseline_decide(st, hand, away, seat, legal, BASELINE_DEFAULTS, tab)


@njit                       # a bare @njit function: refused, with the two forms named
def bare_njit_copy_of_baseline(st, hand, away, seat, legal, params, rng, tab):
    return baseline_decide(st, hand, away, seat, legal, BASELINE_DEFAULTS, tab)


@user_policy
def plays_a_card_it_lacks(st, hand, away, seat, legal, params, rng, tab):
    if st[PHASE] == PH_PLAY and st[PLAYS_SEEN] >= 0:
        return np.int64(33)            # no such card
    return baseline_decide(st, hand, away, seat, legal, BASELINE_DEFAULTS, tab)


def not_jitted(st, hand, away, seat, legal, params, rng, tab):
    return 0


@user_policy
def raises_at_play(st, hand, away, seat, legal, params, rng, tab):
    if st[PHASE] == PH_PLAY and st[PLAYS_SEEN] >= 0:
        raise ValueError("no card here suits me")
    return baseline_decide(st, hand, away, seat, legal, BASELINE_DEFAULTS, tab)


ACE_OF_SPADES = 31


@user_policy
def random_until_the_ace_of_spades(st, hand, away, seat, legal, params, rng, tab):
    """Random play (it draws from the shared policy stream) that raises when it draws the ace of spades to play."""
    a = random_choice(legal, rng) if st[PHASE] != PH_DUMMY else random_keep(legal, rng)
    if st[PHASE] == PH_PLAY and a == ACE_OF_SPADES:
        raise ValueError("drew the ace of spades")
    return a


@user_policy
def reads_past_the_tables(st, hand, away, seat, legal, params, rng, tab):
    if st[PHASE] == PH_PLAY:
        return np.int64(tab[tab.shape[0] + 1000 * (seat + 1)])    # out of bounds: caught only when checked
    return baseline_decide(st, hand, away, seat, legal, BASELINE_DEFAULTS, tab)


@user_policy(params=(param("order", 4.0, 0.0, 20.0, "round one: baseline's strength needed to order"),
                     param("alone", 7.0, 0.0, 20.0, "baseline's strength needed to go alone")))
def baseline_with_two_numbers(st, hand, away, seat, legal, params, rng, tab):
    """baseline, with its order and alone thresholds from this policy's own declared parameters."""
    row = BASELINE_DEFAULTS.copy()
    row[B_ORDER] = params[0]
    row[B_ALONE] = params[1]
    return baseline_decide(st, hand, away, seat, legal, row, tab)


@user_policy
def random_player(st, hand, away, seat, legal, params, rng, tab):
    """The random policy's draws from the shared policy stream, in a user's function (played jitted or as Python)."""
    return random_choice(legal, rng) if st[PHASE] != PH_DUMMY else random_keep(legal, rng)


# ---- @bot: a function of a Decision, played as plain Python, so any Python goes
@bot
def bot_raises_at_play(d):
    if d.phase == "play":
        raise ValueError(f"seat {d.seat} has no card it likes")
    return d.fallback("baseline")


@bot
def bot_returns_none_at_play(d):
    if d.phase == "play":
        return None
    return d.fallback("baseline")


def search_random_player(st, priv, seat, legal, params, rng, tab, ws):
    """``random_player`` as a slotted built-in's kernel (dispatch.SEARCH_SIG): tests/test_user_policy.py declares it."""
    return random_choice(legal, rng) if st[PHASE] != PH_DUMMY else random_keep(legal, rng)


@user_policy
def names_the_turned_down_suit(st, hand, away, seat, legal, params, rng, tab):
    if st[PHASE] == PH_BID2:
        for a in range(4):
            if not (legal >> a) & 1:
                return np.int64(a)         # the one suit round two does not allow (R6)
    return baseline_decide(st, hand, away, seat, legal, BASELINE_DEFAULTS, tab)
