"""The chunk's tally: one hand row added to the counts while it is in cache.

The slots are declared once, in engine/layout.py (``TALLY`` and its three
blocks); ``run.runner.tally_names`` reads their names from the same declaration,
so the kernel writes and the run reads each slot by one name.
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import U
from euchresim.engine.layout import (
    TALLY_ALONE_EUCHRED, TALLY_ALONE_MADE_OK, TALLY_ALONE_MARCH, TALLY_ALONE_SEAT, TALLY_DEALER_EDGE,
    TALLY_DEALER_EDGE_SQ, TALLY_DEFENDER_ALONE, TALLY_DEFENDER_POINTS, TALLY_DEFENDER_POINTS_SQ, TALLY_EUCHRED,
    TALLY_EUCHRED_SEAT, TALLY_FIXED, TALLY_HANDS, TALLY_MADE, TALLY_MADE_OK, TALLY_MADE_OK_POS, TALLY_MADE_OK_SEAT,
    TALLY_MADE_POS, TALLY_MADE_R1_POS, TALLY_MADE_R2_POS, TALLY_MADE_SEAT, TALLY_MAKER_ALONE, TALLY_MAKER_POINTS,
    TALLY_MAKER_POINTS_SQ, TALLY_MARCH, TALLY_MARCH_SEAT, TALLY_POINTS_POS, TALLY_POINTS_SEAT, TALLY_POINTS_SQ_POS,
    TALLY_POINTS_SQ_SEAT, TALLY_POS, TALLY_POS_STRIDE, TALLY_REDEAL, TALLY_SEAT, TALLY_SEAT_STRIDE,
    TALLY_SIDE_DIFF, TALLY_SIDE_DIFF_SQ, TALLY_THROWN_IN)

F = TALLY_FIXED       # the fixed block's start (0): every slot below is written by its declared name


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
    seat 1's (engine.layout.TALLY_FIXED_SLOTS declares every slot).
    """
    dealer = r["dealer"]
    # Straight-line loads and adds: seats past ``players`` hold 0 points and
    # add 0 to slots no name reads, which is cheaper than a branch per seat.
    p0, p1 = np.int64(r["points0"]), np.int64(r["points1"])
    p2, p3 = np.int64(r["points2"]), np.int64(r["points3"])
    out[TALLY_SEAT + TALLY_POINTS_SEAT] += p0
    out[TALLY_SEAT + TALLY_POINTS_SQ_SEAT] += p0 * p0
    out[TALLY_SEAT + TALLY_SEAT_STRIDE + TALLY_POINTS_SEAT] += p1
    out[TALLY_SEAT + TALLY_SEAT_STRIDE + TALLY_POINTS_SQ_SEAT] += p1 * p1
    out[TALLY_SEAT + 2 * TALLY_SEAT_STRIDE + TALLY_POINTS_SEAT] += p2
    out[TALLY_SEAT + 2 * TALLY_SEAT_STRIDE + TALLY_POINTS_SQ_SEAT] += p2 * p2
    out[TALLY_SEAT + 3 * TALLY_SEAT_STRIDE + TALLY_POINTS_SEAT] += p3
    out[TALLY_SEAT + 3 * TALLY_SEAT_STRIDE + TALLY_POINTS_SQ_SEAT] += p3 * p3
    pd = p0 if dealer == 0 else p1 if dealer == 1 else p2 if dealer == 2 else p3
    edge = players * pd - (p0 + p1 + p2 + p3)     # 2 players: once the edge; 3 and 4: twice it
    out[F + TALLY_DEALER_EDGE] += edge
    out[F + TALLY_DEALER_EDGE_SQ] += edge * edge
    side = p0 - p1
    out[F + TALLY_SIDE_DIFF] += side
    out[F + TALLY_SIDE_DIFF_SQ] += side * side
    for s in range(players):          # points by seat position (1 = dealer's left)
        pts = p0 if s == 0 else p1 if s == 1 else p2 if s == 2 else p3
        pos = s - dealer
        base = TALLY_POS + TALLY_POS_STRIDE * (pos + players if pos < 0 else pos)
        out[U(base + TALLY_POINTS_POS)] += pts
        out[U(base + TALLY_POINTS_SQ_POS)] += pts * pts
    out[F + TALLY_HANDS] += 1
    out[F + TALLY_THROWN_IN] += r["thrown_in"]
    out[F + TALLY_REDEAL] += r["redeal"]
    maker = r["maker"]
    if maker < 0:
        return
    ok = r["maker_tricks"] >= 3
    alone = r["maker_alone"]
    out[F + TALLY_MADE] += 1
    out[F + TALLY_MADE_OK] += ok
    out[F + TALLY_EUCHRED] += r["euchred"]
    out[F + TALLY_MARCH] += r["march"]
    out[F + TALLY_MAKER_ALONE] += alone
    out[F + TALLY_DEFENDER_ALONE] += r["defender_alone"]
    out[F + TALLY_ALONE_MADE_OK] += alone and ok
    out[F + TALLY_ALONE_MARCH] += alone and r["march"]
    out[F + TALLY_ALONE_EUCHRED] += alone and r["euchred"]
    d = maker + 1 if maker + 1 < players else 0
    mk = p0 if maker == 0 else p1 if maker == 1 else p2 if maker == 2 else p3
    df = p0 if d == 0 else p1 if d == 1 else p2 if d == 2 else p3
    out[F + TALLY_MAKER_POINTS] += mk
    out[F + TALLY_MAKER_POINTS_SQ] += mk * mk
    out[F + TALLY_DEFENDER_POINTS] += df
    out[F + TALLY_DEFENDER_POINTS_SQ] += df * df
    base = TALLY_POS + TALLY_POS_STRIDE * r["maker_pos"]
    out[U(base + (TALLY_MADE_R1_POS if r["make_round"] == 1 else TALLY_MADE_R2_POS))] += 1
    out[U(base + TALLY_MADE_OK_POS)] += ok
    out[U(base + TALLY_MADE_POS)] += 1
    seat = TALLY_SEAT + TALLY_SEAT_STRIDE * maker
    out[U(seat + TALLY_MADE_SEAT)] += 1
    out[U(seat + TALLY_MADE_OK_SEAT)] += ok
    out[U(seat + TALLY_EUCHRED_SEAT)] += r["euchred"]
    out[U(seat + TALLY_MARCH_SEAT)] += r["march"]
    out[U(seat + TALLY_ALONE_SEAT)] += alone
