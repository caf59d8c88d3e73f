"""The chunk's tally: one hand row added to the counts while it is in cache.

The slots are declared once, in engine/layout.py (``TALLY``); ``run.runner.tally_names``
reads their names from the same declaration.
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import U
from euchresim.engine.layout import TALLY_POS, TALLY_SEAT


@njit(cache=True, _nrt=False)
def tally_hands(rows, players, out):
    """Per-chunk counts in one pass over the rows (run.runner.tally names the slots)."""
    for i in range(rows.shape[0]):
        tally_row(rows[U(i)], players, out)


@njit(cache=True, _nrt=False, inline='always')
def tally_row(r, players, out):
    """Add one hand's row to the counts: ``run_hands`` calls it while the row is in cache.

    Besides counts by seat position relative to the dealer (the strategy
    view) it keeps counts by seat (which seat, so which policy, did
    better) and two paired differences whose means need their own sums of
    squares: the dealer's side less the other side, and seat 0's side less
    seat 1's (run.runner.tally_names lists every slot).
    """
    dealer = r["dealer"]
    # Straight-line loads and adds: seats past ``players`` hold 0 points and
    # add 0 to slots no name reads, which is cheaper than a branch per seat.
    p0, p1 = np.int64(r["points0"]), np.int64(r["points1"])
    p2, p3 = np.int64(r["points2"]), np.int64(r["points3"])
    out[TALLY_SEAT + 5] += p0
    out[TALLY_SEAT + 6] += p0 * p0
    out[TALLY_SEAT + 13] += p1
    out[TALLY_SEAT + 14] += p1 * p1
    out[TALLY_SEAT + 21] += p2
    out[TALLY_SEAT + 22] += p2 * p2
    out[TALLY_SEAT + 29] += p3
    out[TALLY_SEAT + 30] += p3 * p3
    pd = p0 if dealer == 0 else p1 if dealer == 1 else p2 if dealer == 2 else p3
    edge = players * pd - (p0 + p1 + p2 + p3)     # 2 players: once the edge; 3 and 4: twice it
    out[16] += edge
    out[17] += edge * edge
    side = p0 - p1
    out[18] += side
    out[19] += side * side
    for s in range(players):          # points by seat position (1 = dealer's left)
        pts = p0 if s == 0 else p1 if s == 1 else p2 if s == 2 else p3
        pos = s - dealer
        base = TALLY_POS + 8 * (pos + players if pos < 0 else pos)
        out[U(base + 4)] += pts
        out[U(base + 5)] += pts * pts
    out[0] += 1
    out[1] += r["thrown_in"]
    out[2] += r["redeal"]
    maker = r["maker"]
    if maker < 0:
        return
    ok = r["maker_tricks"] >= 3
    alone = r["maker_alone"]
    out[3] += 1
    out[4] += ok
    out[5] += r["euchred"]
    out[6] += r["march"]
    out[7] += alone
    out[8] += r["defender_alone"]
    out[9] += alone and ok
    out[10] += alone and r["march"]
    out[11] += alone and r["euchred"]
    d = maker + 1 if maker + 1 < players else 0
    mk = p0 if maker == 0 else p1 if maker == 1 else p2 if maker == 2 else p3
    df = p0 if d == 0 else p1 if d == 1 else p2 if d == 2 else p3
    out[12] += mk
    out[13] += mk * mk
    out[14] += df
    out[15] += df * df
    base = TALLY_POS + 8 * r["maker_pos"]
    out[U(base + (0 if r["make_round"] == 1 else 1))] += 1
    out[U(base + 2)] += ok
    out[U(base + 3)] += 1
    seat = TALLY_SEAT + 8 * maker
    out[U(seat)] += 1
    out[U(seat + 1)] += ok
    out[U(seat + 2)] += r["euchred"]
    out[U(seat + 3)] += r["march"]
    out[U(seat + 4)] += alone
