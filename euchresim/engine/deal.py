"""R4: a uniformly random deal from the deal stream."""
import numpy as np
from numba import njit

from euchresim.engine.bits import U, xo_below, xo_below2
from euchresim.engine.layout import CFG_PACK, CFG_PLAYERS


@njit(cache=True, _nrt=False, inline='always')
def deal(tab, work, rng, hands):
    """Deal 5 cards a seat (and the Cutthroat dummy), then the upcard.

    ``work`` is a per-chunk copy of the pack (``tab[T_PACK:]``), shuffled in
    place: a partial Fisher-Yates over the cards dealt gives a uniform deal
    whatever order ``work`` was left in.  Returns (dummy, upcard, kitty); ``hands`` is filled.
    """
    players = tab[CFG_PLAYERS]
    n = work.shape[0]
    ndealt = 5 * players + (5 if players == 3 else 0) + 1
    s0, s1, s2, s3 = rng[0], rng[1], rng[2], rng[3]
    i = 0
    while i + 1 < ndealt:           # two positions per generator output
        k1, k2, s0, s1, s2, s3 = xo_below2(s0, s1, s2, s3, n - i, n - i - 1)
        j = i + k1
        c = work[U(i)]
        work[U(i)] = work[U(j)]
        work[U(j)] = c
        j = i + 1 + k2
        c = work[U(i + 1)]
        work[U(i + 1)] = work[U(j)]
        work[U(j)] = c
        i += 2
    if i < ndealt:
        k1, s0, s1, s2, s3 = xo_below(s0, s1, s2, s3, n - i)
        j = i + k1
        c = work[U(i)]
        work[U(i)] = work[U(j)]
        work[U(j)] = c
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3
    dealt = np.int64(0)
    for s in range(4):
        h = np.int64(0)
        if s < players:
            for k in range(5):
                h |= np.int64(1) << work[5 * s + k]
        hands[s] = h
        dealt |= h
    dummy = np.int64(0)
    if players == 3:
        for k in range(15, 20):
            dummy |= np.int64(1) << work[k]
    upcard = work[ndealt - 1]
    kitty = tab[CFG_PACK] & ~(dealt | dummy | (np.int64(1) << upcard))
    return dummy, upcard, kitty
