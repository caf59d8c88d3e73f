"""Whole games (R12) and rubbers (R13): who has won, and what a game counts for.

Pure rule kernels, apart from the loops that play the hands so that the
game's logic is found in one place (and tested against analysis.winprob's
reading of the same rules).
"""
from numba import njit

from euchresim.engine.layout import MAKER


@njit(cache=True, _nrt=False)
def game_winners(st, scores, players, target, tie):
    """R12: seats (mask) that won, 0 if the game goes on."""
    reached = 0
    for s in range(players):
        if scores[s] >= target:
            reached |= 1 << s
    if reached == 0 or players == 4 or (reached & (reached - 1)) == 0:
        return reached
    maker = st[MAKER]
    if tie == 0 and maker >= 0 and (reached >> maker) & 1:   # C8 maker
        return 1 << maker
    if tie == 2:                                              # C8 shared
        return reached
    top = -1
    for s in range(players):
        if (reached >> s) & 1 and scores[s] > top:
            top = scores[s]
    win = 0
    for s in range(players):
        if (reached >> s) & 1 and scores[s] == top:
            win |= 1 << s
    return win


@njit(cache=True)
def rubber_points(loser_score):
    """R13: rubber points a game counts for its winners."""
    if loser_score <= 0:
        return 3
    if loser_score <= 2:
        return 2
    return 1


@njit(cache=True, _nrt=False)
def rubber_margin(winner_points, loser_points):
    """R13: a rubber's margin, the 2 for winning it and the games' rubber points."""
    return 2 + winner_points - loser_points


@njit(cache=True, _nrt=False)
def at_the_bridge(rows, start, stop, players, target):
    """R12 "at the bridge" (a label, no rule of play): in a 4-player game to 5, after some hand of
    ``rows[start:stop]`` one side stood on 4 and the other on 2 or less."""
    if players != 4 or target != 5:
        return False
    for k in range(start, stop):
        a = rows[k]["score0"] + rows[k]["points0"]
        b = rows[k]["score1"] + rows[k]["points1"]
        if (a == 4 and b <= 2) or (b == 4 and a <= 2):
            return True
    return False
