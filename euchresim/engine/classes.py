"""A hand's class (trumps and bowers of the hand the seat plays) in numba, for the deals a targeted study keeps.

The class is ``analysis.call_stats.hand_class`` of ``hand_features``: the
trumps counted in the trump suit as the rules make it (``T_EFF``: the left
bower and the joker included), bucketed 0-1, 2, 3, 4+, and which bowers
the hand holds (none, left, right, both).  A targeted run deals until the
deciding seat holds a class asked for, so the test must cost next to
nothing beside a deal: two table reads and a popcount.

Codes follow ``analysis.call_stats.class_order()``: ``4 * bucket + bowers``,
bucket 0 = "0-1", 1 = "2", 2 = "3", 3 = "4+"; bowers 0 = "-", 1 = "L",
2 = "R", 3 = "RL".  A set of classes is a 16-bit mask of codes.
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import U, popcount
from euchresim.engine.layout import T_EFF

# the labels of analysis.call_stats.hand_class, by code
CLASS_NAMES = tuple(f"{t}T {b}" for t in ("0-1", "2", "3", "4+") for b in ("-", "L", "R", "RL"))
NCLASSES = 16
NO_CLASS = -1           # a joker upcard: no suit, so no class (the dealer names trump, R7)
from euchresim.cards import JOKER as _JOKER  # noqa: E402  (the one definition)


@njit(cache=True, _nrt=False, inline='always')
def class_code(tab, hand, trump):
    """The class code (module docstring) of ``hand`` (a board) under ``trump`` (a suit 0-3)."""
    n = popcount(hand & tab[U(T_EFF + 4 * trump + trump)])
    bucket = np.int64(0) if n <= 1 else (np.int64(3) if n >= 4 else n - 1)
    right = (hand >> (8 * trump + 4)) & 1
    left = (hand >> (8 * (3 - trump) + 4)) & 1
    return 4 * bucket + 2 * right + left


@njit(cache=True, _nrt=False, inline='always')
def upcard_class(tab, hand, upcard, dealer):
    """The class of the hand the seat would play under the upcard's suit, ``NO_CLASS`` for a joker upcard.

    The dealer (``dealer`` nonzero) plays its hand with the upcard taken up
    (R5), so its class counts the upcard as one of its trumps: a dealer
    "as dealt" with four trumps and both bowers holds five once it picks up,
    a sure march, and a class that hid that would mislabel every answer
    about the dealer (analysis.call_stats.played_hand, the one convention).
    """
    if upcard == _JOKER:
        return np.int64(NO_CLASS)
    if dealer != 0:
        hand = hand | (np.int64(1) << upcard)
    return class_code(tab, hand, upcard >> 3)


@njit(cache=True)
def class_codes(tab, hands, trumps):
    """Per hand, ``class_code`` (the kernel a test holds against ``analysis.call_stats.hand_class``)."""
    out = np.empty(hands.shape[0], np.int64)
    for i in range(hands.shape[0]):
        out[i] = class_code(tab, hands[i], trumps[i])
    return out
