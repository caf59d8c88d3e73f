"""Paired counterfactuals: one deal played out once per option of one decision.

A strategy question ("should this seat order up?") is answered by the
difference an option makes on the same deal, never by comparing the
averages of two sets of hands that merely happened to go each way.  So for
every deal of a chunk this kernel plays the hand with the run's policies
up to the first decision of a chosen phase (by a seat at a chosen
position relative to the dealer, if asked), asks the seat's policy what it
would do there, and then plays the hand to the end once per legal option,
the option forced and every later decision left to the policies.  Each
continuation starts from the same copy of the state and the same copy of
the policy stream (taken just after the seat's policy was asked), so the
option is the only difference between them.

The continuation of the option the policy chose *is* the ordinary hand,
and its stream is the one carried to the next deal: the deals, the dealer
and every hand are those ``loops.hands.run_hands`` plays for the same chunk
(tests/test_counterfactual.py holds them equal), so a counterfactual run
is the ordinary run with the alternatives added.

Output arrays (``run_forced``), one row per deal:

* ``info[i, F_*]``: the deal, the decision and its outcome (F_ names);
* ``options[i, k]``: the k-th legal option (action codes, or card indexes
  for the discard), lowest first, -1 past ``F_NOPT``;
* ``points[i, k, s]``: seat s's points when option k is forced;
* ``maker[i, k]``, ``tricks[i, k]``: the maker and the makers' tricks then
  (-1 when the hand is thrown in, or past ``F_NOPT``).

Targeted deals (``want_classes``, a mask of ``engine.classes`` codes, 0
for every deal): a deal whose seat at ``want_pos`` does not hold, as dealt
and under the upcard's suit, a class of the mask (a joker upcard has none)
is skipped before any policy acts: only the deal stream moves, the policy
stream and the dealer stay as they were, so the next deal is dealt by the
same dealer, as if the skipped one had never been dealt.  The chunk deals
on until it keeps ``n``; ``counts`` gets the deals dealt and skipped.

A deal whose hand never reaches such a decision (thrown in first, a call
before the seat's turn, ...) has ``F_STATUS`` 0 and no options; its
ordinary hand's points are still in ``info`` (``F_BASE``).
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import U, lowbit, randbelow
from euchresim.engine.classes import upcard_class
from euchresim.engine.deal import deal
from euchresim.engine.hand import apply_legal, legal_actions, start_hand
from euchresim.engine.layout import (Layout, CFG_NPACK, CFG_PLAYERS, DEAL, DEAL_DUMMY, ERR, KITTY, MAKER, MAKER_TRICKS, PH_DONE, PH_PLAY, PHASE, POINTS, PRIV_SIZE, REDEAL, ROUND, ST_SIZE, T_NEXT, T_PACK, TO_ACT, TRUMP, UPCARD)
from euchresim.loops.hands import all_seats_random, play_out
from euchresim.policies.dispatch import WS_COLS, WS_ROWS, act

NO_KEPT_DEAL = -1       # returned as the error: ``max_misses`` deals in a row held no class asked for
MAX_OPTIONS = 6         # the dealer's discard: five cards and the upcard

# columns of ``info``: F_DEALER, F_HAND (4) ... declared once, offsets computed (engine.layout.Layout)
INFO = Layout("info", 24, (
    ("dealer", 1),
    ("hand", 4),            # the hands as dealt (boards)
    ("dummy", 1),           # board
    ("upcard", 1),          # card index
    ("kitty", 1),           # board
    ("status", 1),          # 1: the decision was reached, 0: not
    ("seat", 1),            # the deciding seat (-1 if not reached)
    ("pos", 1),             # its position: seats left of the dealer, 0 = the dealer
    ("phase", 1),           # the phase decided in (PH_*), -1 if not reached
    ("legal", 1),           # the legal mask (or board) at the decision
    ("nopt", 1),            # number of options
    ("chosen", 1),          # the option the seat's own policy took (action code or card)
    ("chosen_k", 1),        # its place among the options
    ("base", 4),            # each seat's points in the ordinary hand
    ("redeal", 1),          # 1: a redeal (the deal does not pass, R7)
    ("trump", 1),           # trump at the decision (a suit once called: alone, defend, discard), else -1
    ("round", 1),           # the round it was called in (1, 2; 0 before a call), -1 if not reached
))
globals().update(Layout.export(globals(), INFO, prefix="F_"))
NINFO = INFO.size


@njit(cache=True, _nrt=False, inline='always')
def _copy(dst, src, n):
    for j in range(n):
        dst[j] = src[j]


@njit(cache=True, _nrt=False)
def _deal_kept(tab, work, drng, hands, counts, dealer, want_pos, want_classes, max_misses):
    """Deals until the seat ``want_pos`` seats from the dealer holds a wanted class (every deal when none is
    wanted), counting the deals dealt and skipped: (dummy, upcard, kitty, kept); not kept after ``max_misses``."""
    misses = np.int64(0)
    while True:
        dummy, upcard, kitty = deal(tab, work, drng, hands)
        counts[0] += 1
        if want_classes == 0:
            return dummy, upcard, kitty, True
        seat = dealer
        for _ in range(want_pos):
            seat = tab[U(T_NEXT + seat)]
        c = upcard_class(tab, hands[U(seat)], upcard, want_pos == 0)
        if c >= 0 and (want_classes >> c) & 1:
            return dummy, upcard, kitty, True
        counts[1] += 1
        misses += 1
        if misses >= max_misses:
            return dummy, upcard, kitty, False


@njit(cache=True, _nrt=False)
def _new_row(row, i, dealer, st, priv, options, maker, tricks, points):
    """Deal ``i``'s info row and option rows as a dealt hand starts them: the deal, nothing decided yet."""
    for j in range(NINFO):
        row[j] = 0
    row[F_DEALER] = dealer
    for s in range(4):
        row[F_HAND + s] = priv[DEAL + s]
    row[F_DUMMY] = priv[DEAL_DUMMY]
    row[F_UPCARD] = st[UPCARD]
    row[F_KITTY] = priv[KITTY]
    for f in (F_SEAT, F_POS, F_PHASE, F_CHOSEN, F_CHOSEN_K, F_TRUMP, F_ROUND):
        row[f] = -1
    for k in range(MAX_OPTIONS):
        options[U(i), k] = -1
        maker[U(i), k] = -1
        tricks[U(i), k] = -1
        for s in range(4):
            points[U(i), k, s] = 0


@njit(cache=True, _nrt=False)
def _found_row(row, st, seat, pos, kind, legal, a):
    """The decision found: who decided, where, among what, and what the policy chose."""
    row[F_STATUS] = 1
    row[F_SEAT] = seat
    row[F_POS] = pos
    row[F_PHASE] = kind
    row[F_LEGAL] = legal
    row[F_CHOSEN] = a
    row[F_TRUMP] = st[TRUMP]
    row[F_ROUND] = st[ROUND]


@njit(cache=True, _nrt=False)
def _forced_hands(tab, n, drng, prng, pids, params, fns, kind, want_pos, want_classes, max_misses, counts, info,
                  options, points, maker, tricks, st, priv, ws, work, hands, st0, priv0, rng0, rng1, dealer):
    """The loop of ``run_forced`` over preallocated state (nothing allocated here).

    Per deal: the policies act until the decision is found (or play starts,
    or the hand is done); then one continuation per option (or one, the
    ordinary hand, when no decision was found) through ``play_out``, the
    only copy of it here.  Returns (0, n) or (error code, failing deal).
    """
    players = tab[CFG_PLAYERS]
    all_random = all_seats_random(pids, players)
    for i in range(n):
        dummy, upcard, kitty, kept = _deal_kept(tab, work, drng, hands, counts, dealer, want_pos, want_classes,
                                                max_misses)
        if not kept:
            return np.int64(NO_KEPT_DEAL), i
        start_hand(st, priv, tab, dealer, hands, dummy, upcard, kitty)
        row = info[U(i)]
        _new_row(row, i, dealer, st, priv, options, maker, tricks, points)
        found = False
        legal = np.int64(0)
        chosen = np.int64(-1)
        while st[PHASE] != PH_DONE and st[PHASE] != PH_PLAY:
            seat = st[TO_ACT]
            legal = legal_actions(st, priv, tab)
            a = act(pids[U(seat)], st, priv, seat, legal, params[U(seat)], prng, tab, ws, fns)
            pos = seat - dealer
            pos = pos + players if pos < 0 else pos
            if st[PHASE] == kind and (want_pos < 0 or pos == want_pos):
                found = True
                chosen = a
                _found_row(row, st, seat, pos, kind, legal, a)
                break
            if apply_legal(st, priv, tab, a, legal):
                return st[ERR], i
        # the state after the policy was asked: every continuation starts here
        _copy(st0, st, ST_SIZE)
        _copy(priv0, priv, PRIV_SIZE)
        _copy(rng0, prng, 6)
        nopt = np.int64(0)
        m = legal if found else np.int64(0)
        while True:
            a = np.int64(-1)
            if found:
                if m == 0:
                    break
                a = lowbit(m)
                m &= m - 1
                options[U(i), nopt] = a
                _copy(st, st0, ST_SIZE)
                _copy(priv, priv0, PRIV_SIZE)
            _copy(rng1, rng0, 6)
            if found:
                apply_legal(st, priv, tab, a, legal)     # a listed option: legal by construction
            err = play_out(st, priv, tab, pids, params, fns, rng1, ws, all_random)
            if err:
                return err, i
            if (not found) or a == chosen:          # the ordinary hand: its stream goes on
                _copy(prng, rng1, 6)
                for s in range(4):
                    row[F_BASE + s] = st[U(POINTS + s)]
                if found:
                    row[F_CHOSEN_K] = nopt
            if not found:
                break
            for s in range(4):
                points[U(i), nopt, s] = st[U(POINTS + s)]
            mk = st[MAKER]
            maker[U(i), nopt] = mk
            tricks[U(i), nopt] = st[MAKER_TRICKS] if mk >= 0 else -1
            nopt += 1
        row[F_NOPT] = nopt
        row[F_REDEAL] = st[REDEAL]
        if st[REDEAL] == 0:       # the deal passes left, not on a redeal (as in loops.hands._play_hands)
            dealer = tab[U(T_NEXT + dealer)]
    return np.int64(0), n


@njit(cache=True)
def run_forced(tab, n, drng, prng, pids, params, fns, kind, want_pos, want_classes, max_misses, counts, info,
               options, points, maker, tricks):
    """Counterfactuals of ``n`` deals of one chunk at the first ``kind`` decision (module docstring).

    ``kind`` is a phase (PH_*); ``want_pos`` a seat position relative to
    the dealer (0 the dealer, 1 on its left, ...), or -1 for any seat.
    ``want_classes`` (0: every deal; else it needs ``want_pos`` >= 0)
    keeps only the deals whose seat there holds one of those classes
    (module docstring), giving up with ``NO_KEPT_DEAL`` after
    ``max_misses`` skipped deals in a row; ``counts`` (int64[2]) receives
    the deals dealt and skipped.
    ``drng``/``prng`` are the chunk's two streams (runner.chunk_states), used
    as ``loops.hands.run_hands`` uses them.  Returns (0, n), or (error code,
    index of the deal whose hand a policy broke).
    """
    st = np.zeros(ST_SIZE, dtype=np.int64)
    priv = np.zeros(PRIV_SIZE, dtype=np.int64)
    ws = np.zeros((WS_ROWS, WS_COLS), dtype=np.int64)
    st0 = np.zeros(ST_SIZE, dtype=np.int64)
    priv0 = np.zeros(PRIV_SIZE, dtype=np.int64)
    rng0 = np.zeros(6, dtype=np.uint64)
    rng1 = np.zeros(6, dtype=np.uint64)
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    hands = np.zeros(4, dtype=np.int64)
    dealer = randbelow(drng, tab[CFG_PLAYERS])
    return _forced_hands(tab, np.int64(n), drng, prng, pids, params, fns, np.int64(kind), np.int64(want_pos),
                         np.int64(want_classes), np.int64(max_misses), counts, info, options, points, maker,
                         tricks, st, priv, ws, work, hands, st0, priv0, rng0, rng1, np.int64(dealer))
