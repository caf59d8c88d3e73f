"""What a hand is worth to a seat when the makers take k tricks: points, or the chance of winning the game.

A search values every action by the makers' tricks it leads to; these
turn tricks into the seat's objective: its side's points less the
opponents' (``points_table``; in Cutthroat the seat's points less the mean
of the other two's, ``net_points``), or, with ``objective=game``, its side's
P(win the game) from the score after the hand (``win_value``, from the
win-probability table in ``win_table.py``). Either way ties go to the
side's tricks.
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import U
from euchresim.engine.hand import score_hand
from euchresim.engine.layout import (CFG_DECK, CFG_DEFEND, CFG_GAME_TO, CFG_STICK, CFG_PLAYERS, DEALER, MAKER, POINTS, SCORE, ST_SIZE,
                                     TRICKS)
from euchresim.policies.search_layout import S_OBJECTIVE, V_PTS, WR_ST2, WR_VAL
from euchresim.policies.win_table import P_WIN as _WIN_TABLES   # by target; here one array, indexed by WIN_TARGETS

# P(win the game) by score for objective=game (policies/win_table.py, 4 players), one block per target
WIN_TARGETS = (5, 7, 10)
P_WIN_ARRAY = np.zeros((len(WIN_TARGETS), 10, 10, 4, 2))
for _i, _t in enumerate(WIN_TARGETS):
    P_WIN_ARRAY[_i, :_t, :_t] = np.array(_WIN_TABLES[_t])
WIN_SCALE = 1 << 20       # a game value: P(win) in 2**-20ths, times 8, plus the side's tricks (ties to tricks)


@njit(cache=True, _nrt=False, inline='always')
def makers_mask(st, players):
    maker = st[MAKER]
    m = np.int64(1) << maker
    if players == 4:
        m |= np.int64(1) << ((maker + 2) & 3)
    return m


@njit(cache=True, _nrt=False, inline='always')
def net_points(s2, players, seat, opp):
    """16 times ``seat``'s points less its opponents' in the scored hand ``s2``: the zero-sum stake of a hand.

    With 2 or 4 players there is one other side, ``opp`` any seat of it.
    In Cutthroat every player plays for himself and the two defenders of a
    hand are rivals in the game too: a defender who passed and then
    euchres the maker has gained 2 on the maker but nothing on the other
    defender, who scored the same 2. So the stake is the seat's points less
    the *mean* of the other two's (16 * (3p - total) / 2): for the maker
    the same as less a defender's, for a defender half of less the
    maker's. Valuing a defender against the maker alone doubled what every
    other seat's call was worth to it, which made passing look twice as
    costly as it is and had the dealer's left call on 90% of deals (issue
    35); the duel and the reports measure Cutthroat as here.
    """
    if players == 3:
        return 8 * (3 * s2[U(POINTS + seat)] - s2[POINTS] - s2[POINTS + 1] - s2[POINTS + 2])
    return 16 * (s2[U(POINTS + seat)] - s2[U(POINTS + opp)])


@njit(cache=True, _nrt=False)
def _tricks_table(st, tab, seat, ws, game):
    """``ws[WR_VAL][V_PTS + k]``: what ``seat`` gets when the makers end with k tricks (R11, by score_hand).

    In points: the seat's points less its opponents' (``net_points``: the
    maker's, for a defender; a defender's, for the makers): a defender
    gains nothing in its own points by stopping a march, but the makers
    score less.  Points first (times 16), then the side's tricks, to break ties between equal
    scores (a defender still takes a trick that changes no score).  With
    ``game``, the side's P(win) from the score after the hand instead
    (``win_value``), where the rules have a table.
    """
    players = tab[CFG_PLAYERS]
    s2 = ws[WR_ST2]
    val = ws[WR_VAL]
    for i in range(ST_SIZE):
        s2[i] = st[i]
    maker = st[MAKER]
    on_makers = (makers_mask(st, players) >> seat) & 1
    opp = maker
    if on_makers:
        opp = maker + 1 if maker + 1 < players else 0      # the seat after the maker defends
    for k in range(6):
        for s in range(4):
            s2[TRICKS + s] = 0
        s2[U(TRICKS + maker)] = k
        score_hand(s2, tab)
        side = k if on_makers else 5 - k
        v = np.int64(-1)
        if game:
            v = win_value(tab, st[DEALER], st[SCORE] + s2[POINTS], st[SCORE + 1] + s2[POINTS + 1], seat, side)
        if v < 0:
            v = net_points(s2, players, seat, opp) + side
        val[U(V_PTS + k)] = v
    return players


@njit(cache=True, _nrt=False)
def points_table(st, tab, seat, ws):
    """``_tricks_table`` in points."""
    return _tricks_table(st, tab, seat, ws, False)


@njit(cache=True, _nrt=False)
def hand_values(st, tab, seat, ws, params):
    """``_tricks_table`` by the policy's objective: points, or (``objective=game``) the game."""
    return _tricks_table(st, tab, seat, ws, params[S_OBJECTIVE] != 0)


@njit(cache=True, _nrt=False)
def win_value(tab, dealer, scores0, scores1, seat, side_tricks):
    """``seat``'s game value at side scores (``scores0``, ``scores1``) with the next hand dealt after ``dealer``.

    A side at or past the target has won; else P(win) from the table of
    the target (``P_WIN_ARRAY``). Returns -1 where there is no table (rules other
    than the table's: 4 players, 24 cards, no stick-the-dealer, no lone
    defender, a target of 5, 7 or 10): the caller keeps points.
    """
    target = tab[CFG_GAME_TO]
    ti = -1
    for i in range(len(WIN_TARGETS)):
        if WIN_TARGETS[i] == target:
            ti = i
    # the table is heuristic's hands under the standard rules (4 players, 24 cards, no stick, no lone defender)
    if ti < 0 or tab[CFG_PLAYERS] != 4 or tab[CFG_DECK] != 24 or tab[CFG_STICK] != 0 or tab[CFG_DEFEND] != 0:
        return np.int64(-1)
    side = seat & 1
    mine = scores0 if side == 0 else scores1
    theirs = scores1 if side == 0 else scores0
    if mine >= target:
        p = 1.0
    elif theirs >= target:
        p = 0.0
    else:
        p = P_WIN_ARRAY[ti, scores0, scores1, (dealer + 1) & 3, side]
    return np.int64(np.round(p * WIN_SCALE)) * 8 + side_tricks


@njit(cache=True, _nrt=False)
def thrown_in_value(st, tab, seat, params):
    """A hand nobody called: no points, and the deal moves on (which the game objective sees)."""
    if params[S_OBJECTIVE] == 0:
        return np.int64(0)
    v = win_value(tab, st[DEALER], st[SCORE], st[SCORE + 1], seat, np.int64(0))
    return np.int64(0) if v < 0 else v
