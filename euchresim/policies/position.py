"""A hand's state as the double-dummy solver's position: what every search reads before it solves.

The search bots (``search.py``), postponing (``postpone.py``) and a user's
policy (``worlds.py``) hand the solver the same position from a hand in
its play phase, so it is built in one place; the rollouts of the first two
play on the same scratch copy of a hand (``copy_to_scratch``).
"""
import numpy as np
from numba import njit

from euchresim.engine.layout import P_HAND, P_MAKERS, P_MTRICKS, P_NTABLE, P_OUT, P_SEAT, P_TCARD, P_TRUMP, P_TSEAT
from euchresim.engine.bits import U
from euchresim.engine.layout import (CFG_PLAYERS, HAND, NINTRICK, NPLAYS, OUT, PLAY_SEAT, PLAYS, PRIV_SIZE, ST_SIZE, TO_ACT,
                                     TRICKS, TRUMP)
from euchresim.policies.search_layout import WR_PRIV, WR_ST
from euchresim.policies.values import makers_mask


@njit(cache=True, _nrt=False)
def load_position(st, hands, tab, pos):
    """The solver's position (``S.P_*``) of a hand in its play phase, with the seats' cards ``hands``."""
    players = tab[CFG_PLAYERS]
    pos[P_TRUMP] = st[TRUMP]
    for s in range(4):
        pos[U(P_HAND + s)] = hands[U(HAND + s)]
    pos[P_SEAT] = st[TO_ACT]
    nin = st[NINTRICK]
    n = st[NPLAYS]
    pos[P_NTABLE] = nin
    for k in range(nin):
        pos[U(P_TCARD + k)] = st[U(PLAYS + n - nin + k)]
        pos[U(P_TSEAT + k)] = st[U(PLAY_SEAT + n - nin + k)]
    makers = makers_mask(st, players)
    pos[P_MAKERS] = makers
    pos[P_OUT] = st[OUT]
    mt = np.int64(0)
    for s in range(players):
        if (makers >> s) & 1:
            mt += st[U(TRICKS + s)]
    pos[P_MTRICKS] = mt


@njit(cache=True, _nrt=False)
def copy_to_scratch(st0, priv0, ws):
    """A hand's two state arrays into the workspace's scratch rows (``WR_ST``, ``WR_PRIV``), to be played on."""
    st = ws[WR_ST]
    priv = ws[WR_PRIV]
    for i in range(ST_SIZE):
        st[i] = st0[i]
    for i in range(PRIV_SIZE):
        priv[i] = priv0[i]
