"""The loops again, in plain Python, for a policy written in plain Python (``MODULE:FUNCTION:python``).

A policy being written wants ``print``, a debugger and any Python at all,
not numba's subset; it can have them at the price of speed (some thousands
of hands a second, against millions). The jitted loop cannot call Python,
so a chunk with a Python seat is played here: the same steps as
``loops.hands._play_hands`` and ``run_games`` in the same order, through
the same kernels (the deal, the state machine through ``engine.state.Hand``,
the built-in policies' ``decide_one``, the row writer, the tally), drawing from the same two
random streams. A Python seat is handed exactly what a jitted policy is
handed, the policy stream included, so a jitted function played this way
(its ``py_func``) makes the same decisions and the chunk the same rows,
bit for bit (tests/test_python_policy.py).

A Python seat that raises, returns something that is not an integer, or
an illegal action stops the chunk with ``Failed``: the row of the hand so
far is written, and the decision (run.blame.FailedDecision) is known at once.
"""
from __future__ import annotations

import os
import traceback

import numpy as np
from numba import njit

from euchresim.engine.bits import randbelow
from euchresim.engine.game import at_the_bridge, game_winners, rubber_margin, rubber_points
from euchresim.engine.hand import legal_actions
from euchresim.engine.layout import (AWAY, CFG_GAME_TO, CFG_NPACK, CFG_PLAYERS, CFG_TIE, HAND, PHASE,
                                     POINTS, PRIV_SIZE, REDEAL, SCORE, ST_SIZE, T_NEXT, T_PACK, TO_ACT)
from euchresim.engine.state import Hand
from euchresim.loops.hands import decide_one, new_workspace, write_row
from euchresim.loops.tally import tally_hands
from euchresim.policies.dispatch import SLOTTED, USER, plain_act


class Failed(Exception):
    """A Python seat's decision stopped the chunk: ``at`` the row, ``seat``/``phase``/``legal`` and what came back."""

    def __init__(self, at, seat, phase, legal, action=None, error=None, where=""):
        super().__init__(f"hand {at}: seat {seat}")
        self.at, self.seat, self.phase, self.legal, self.action, self.error = at, seat, phase, legal, action, error
        self.where = where


def _raised_at(e: BaseException) -> str:
    """``file.py:line`` of the innermost frame that raised ``e`` (the user's own line, most often)."""
    frames = traceback.extract_tb(e.__traceback__)
    return f"{os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""


@njit(cache=True, _nrt=False)
def _row(rows, plays, i, mask, st, priv, players, chunk, game, rubber):
    write_row(rows, plays, i, mask, st, priv, players, chunk, game, rubber)


@njit(cache=True, _nrt=False)
def _decide(pid, st, priv, tab, params, rng):
    """A built-in's action (random, baseline, heuristic): ``act`` without the function slots.

    Handing numba the slots from Python costs a lookup per function per
    call, which made this loop three times slower; the seats that need
    them (the search bots, a jitted user function) go through ``decide_one``.
    """
    seat = st[TO_ACT]
    legal = legal_actions(st, priv, tab)
    return plain_act(pid, st, priv, seat, legal, params, rng, tab), legal


@njit(cache=True, _nrt=False)
def first_dealer(drng, players) -> int:
    """A chunk's first dealer, drawn from its deal stream as the hot loop draws it (one draw, before any deal)."""
    return int(randbelow(drng, players))


def _ask(fn, st, priv, seat, legal, params, prng, tab, at):
    """The Python seat's action, as an int64; ``Failed`` when it raises or returns no integer."""
    phase = int(st[PHASE])
    try:
        a = fn(st, priv[HAND + seat], priv[AWAY + seat], np.int64(seat), np.int64(legal), params, prng, tab)
    except Exception as e:     # the user's code: any exception is its own, reported in one line
        raise Failed(at, seat, phase, int(legal), error=e, where=_raised_at(e)) from None
    if isinstance(a, (bool, np.bool_)) or not isinstance(a, (int, np.integer)) or not -(1 << 63) <= a < (1 << 63):
        err = TypeError(f"it returned {a!r} ({type(a).__name__}), not an int64 action")
        raise Failed(at, seat, phase, int(legal), error=err)
    return np.int64(a)


def _play_out(h, pids, params, fns, pyfns, prng, ws, at):
    """``loops.hands.play_out``, a decision at a time: Python seats asked here, the others by ``decide_one``."""
    st, priv, tab = h.st, h.priv, h.tab
    while not h.done:
        seat = h.to_act
        pid = int(pids[seat])
        fn = pyfns[pid - USER] if pid >= USER else None
        phase = h.phase
        if fn is None and pid < SLOTTED:
            a, legal = _decide(np.int64(pid), st, priv, tab, params[seat], prng)
        elif fn is None:
            a, legal = decide_one(st, priv, tab, pids, params, fns, prng, ws)
        else:
            legal = h.legal()
            a = _ask(fn, st, priv, seat, legal, params[seat], prng, tab, at)
        if h.apply(a, legal):
            return Failed(at, seat, phase, int(legal), action=int(a))
    return None


def _play_hands(tab, drng, prng, pids, params, fns, pyfns, rows, plays, mask, st, priv, ws, work, hands, chunk,
                counts, dealer, start, stop, game, rubber, scores):
    """``loops.hands._play_hands`` step for step; returns (0, rows used, next dealer, winners) or raises Failed."""
    players = int(tab[CFG_PLAYERS])
    in_game = game >= 0
    h = Hand(tab, st, priv)
    i = start
    while i < stop:
        if in_game:
            st[SCORE:SCORE + 4] = scores
        h.deal_next(work, drng, hands, dealer)
        try:
            failed = _play_out(h, pids, params, fns, pyfns, prng, ws, i)
        except Failed as f:           # raised, or no integer: the row still gets the hand so far
            failed = f
        _row(rows, plays, np.int64(i), np.int64(mask), st, priv, np.int64(players), np.int64(chunk),
             np.int64(game), np.int64(rubber))
        if failed is not None:
            raise failed
        if not in_game:
            k = i & mask
            tally_hands(rows[k:k + 1], np.int64(players), counts)
        i += 1
        if st[REDEAL] == 0:
            dealer = int(tab[T_NEXT + dealer])
        if in_game:
            scores[:players] += st[POINTS:POINTS + players]
            winners = game_winners(st, scores, np.int64(players), tab[CFG_GAME_TO], tab[CFG_TIE])
            if winners:
                return 0, i, dealer, winners
    return 0, i, dealer, 0


def _state():
    return np.zeros(ST_SIZE, np.int64), np.zeros(PRIV_SIZE, np.int64), new_workspace()


def run_hands(tab, n, drng, prng, pids, params, fns, pyfns, rows, plays, chunk, counts):
    """``loops.hands.run_hands`` with Python seats ``pyfns`` (a callable per user slot, or None)."""
    ring = rows.shape[0]
    mask = -1 if ring >= n else ring - 1
    st, priv, ws = _state()
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    hands = np.zeros(4, np.int64)
    dealer = first_dealer(drng, tab[CFG_PLAYERS])
    _play_hands(tab, drng, prng, pids, params, fns, pyfns, rows, plays, mask, st, priv, ws, work, hands, chunk,
                counts, dealer, 0, n, -1, -1, np.zeros(4, np.int64))
    return 0, n


def _play_game(tab, st, priv, ws, work, hands, dealer, drng, prng, pids, params, fns, pyfns, rows, plays,
               nrows, game, rubber, games, gi, chunk, start):
    """``loops.hands._play_game``: (rows used or -1 if full, next dealer, winners)."""
    players = int(tab[CFG_PLAYERS])
    scores = np.array(start, np.int64)
    first = dealer
    _, end, dealer, winners = _play_hands(tab, drng, prng, pids, params, fns, pyfns, rows, plays, -1, st, priv,
                                          ws, work, hands, chunk, np.zeros(0, np.int64), dealer, nrows,
                                          rows.shape[0], game, rubber, scores)
    if winners == 0:
        return -1, dealer, 0
    bridge = at_the_bridge(rows, np.int64(nrows), np.int64(end), np.int64(players), tab[CFG_GAME_TO])
    g = games[gi]
    g["game"], g["rubber"], g["first_dealer"], g["hands"] = game, rubber, first, end - nrows
    for s in range(4):
        g[f"score{s}"] = scores[s]
    g["winners"], g["bridge"] = winners, bridge
    return end, dealer, winners


def run_games(tab, ngames, nrubbers, drng, prng, pids, params, fns, pyfns, rows, plays, games, rubbers, chunk, start):
    """``loops.hands.run_games`` with Python seats: hand rows written, or -1 when ``rows`` is too small."""
    st, priv, ws = _state()
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    hands = np.zeros(4, np.int64)
    dealer = first_dealer(drng, tab[CFG_PLAYERS])
    nrows = gi = 0
    args = (drng, prng, pids, params, fns, pyfns, rows, plays)
    if nrubbers == 0:
        for game in range(ngames):
            nrows, dealer, _ = _play_game(tab, st, priv, ws, work, hands, dealer, *args, nrows, game, -1, games,
                                          gi, chunk, start)
            if nrows < 0:
                return nrows
            gi += 1
        return nrows
    for rb in range(nrubbers):
        wins, rp, ng = [0, 0], [0, 0], 0
        while wins[0] < 2 and wins[1] < 2:
            nrows, dealer, w = _play_game(tab, st, priv, ws, work, hands, dealer, *args, nrows, ng, rb, games,
                                          gi, chunk, np.zeros(4, np.int64))
            if nrows < 0:
                return nrows
            side = 0 if w & 1 else 1
            loser = games[gi]["score1"] if side == 0 else games[gi]["score0"]
            wins[side] += 1
            rp[side] += rubber_points(np.int64(loser))
            gi += 1
            ng += 1
        wside = 0 if wins[0] == 2 else 1
        r = rubbers[rb]
        r["rubber"], r["games"], r["winner_side"] = rb, ng, wside
        r["winner_points"], r["loser_points"] = rp[wside], rp[1 - wside]
        r["margin"] = rubber_margin(np.int64(rp[wside]), np.int64(rp[1 - wside]))
    return nrows
