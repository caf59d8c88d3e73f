"""The exact double-dummy solver: every card seen, every seat playing perfectly (R2, R8-R10).

Given a position of the play (trump, each active seat's cards, the seat to
play, the cards already in the current trick and who played them, the
makers' seat mask, the seats that sit out, the tricks the makers already
took) it finds how many tricks of the five the makers end with when the
makers maximise that count and the defenders minimise it, and, if asked,
that value after each legal card of the seat to play.  Every variant is
the same search: 4 players in partnerships (a lone maker's partner, and a
lone defender's, simply sit out), 3-player Cutthroat (the defenders play
as one side), 2 players; any pack; any point of the hand.

Why it looks the way it does: each device was measured on the bench
(``scripts/bench_solver.py``: 5,000 4-hand 24-card deals on which
``baseline`` made trump, solved exactly from the opening lead, one core
of the 2-core AMD EPYC dev machine, load about 1; nodes are entries into
the search, which do not depend on the machine; µs the mean per deal,
each deal's best of 3 runs).  Built up one device at a time:

===============================================================  ======  =====
step, each on top of those above                                  nodes   µs
===============================================================  ======  =====
plain zero-window alpha-beta, cards low to high, binary search   24,042  252
the last trick settled without a search                          15,151  145
cards tried high to low                                           8,432   86
one card of each run of equivalent cards                          2,133   25.5
first ask "4 or more?"                                            2,015   23.8
transposition table at trick starts, keyed on the cards in play   1,138   15.5
... keyed on relative ranks instead                                 911   12.4
follow low under partner's winner, else the cheapest winner         767   15.1*
lead the top trump or a side-suit winner, then low                  703   14.7*
quick tricks                                                        485   11.1
walk from the first guess                                           465   10.7
a forced card skips the ordering; 4,096 table entries               466   10.3
first ask "all of them?"                                            438    9.7
===============================================================  ======  =====

(* with run-time switches for the devices in the search loop, which cost
time per node; taken out again, the orderings pay, as below.)  Then each
device taken out of the final solver alone:

==========================================  ======  =====  ==========
without                                      nodes   µs    worst µs
==========================================  ======  =====  ==========
(nothing: the solver as it is)                 438    9.7   111
the transposition table                        766   12.9   162
quick tricks                                   610   13.5   141
the move ordering (all high to low)            646   12.0   112
... the follower rules only                    956   20.7   232
... the leader rules only                      517   10.7    91
equivalent cards                               563   10.4   107
the last-trick shortcut                        458   10.3   115
first guess 4 instead of 5                     466   10.3   109
==========================================  ======  =====  ==========

Tried and dropped: the table only from three tricks left (1,317 nodes
against 911 at the time: two-trick positions repeat a lot); keeping the
table across the solves of a batch (909 against 911: the makers/out
context and the positions rarely recur in time); a best-card hint in
each table entry (465 against 466 nodes, no faster); table sizes from
1,024 to 65,536 entries (within 1%: a deal stores a few hundred).  Kept
out on purpose: passing the workspace to the recursion as a raw address
(two load/store intrinsics) made it 10% faster, but the array keeps the
kernels plain numba, and the target (30 µs) is met three times over.

The search runs on a *normalised board*: each effective suit (R2: the
left bower and the joker moved into trump) is a 16-bit field whose bits
go up with the card's power, trump in the top field::

    bit  62 sentinel | 58..48 trump: 7 8 9 T Q K A left right joker (bit 52 unused)
    bit  46 sentinel | 39..32 | 30 sentinel | 23..16 | 14 sentinel | 7..0
                       the three other suits in suit order, 7 8 9 T J Q K A

so following suit is ``hand & field``, the trick goes to the highest bit
among trumps and the led field, "touching" cards are found by masking the
bits between them, and the relative-rank table key is one ``pext`` per
owner bit (the BMI2 instruction where the CPU has it, else a loop).  The
sentinels keep a run of touching cards from crossing into another suit.

The search (``_search``) answers "can the makers take ``need`` more
tricks?" (a zero-window alpha-beta): the exact count takes one to three
such searches (``_value``), and the class mode (euchred 0-2, made 3-4,
march 5) only the ones that settle the class.  It keeps everything in one
int64 workspace array (made once by ``new_workspace`` and reused for any
number of solves): four hands, the next-seat table, the makers' mask and
the transposition table, so the recursion passes one array and scalars.
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import U, highbit, lowbit, popcount
from euchresim.engine.layout import CFG_PLAYERS, T_NEXT, T_ORDER, T_SUIT_OF
from euchresim.engine.layout import (P_HAND, P_MAKERS, P_MTRICKS, P_NTABLE, P_OUT, P_SEAT, P_TCARD, P_TRUMP, P_TSEAT,
                                     R_CARD, R_CVAL, R_NODES, R_VALUE, TT_BITS, W_CVAL, W_MAKERS, W_NACT, W_NEXT,
                                     W_NODES, W_STAMP, W_TT, WS_SIZE)
from euchresim.engine.pext import pext


# ---- the normalised board ----------------------------------------------------
TRUMP_FIELD = np.int64(0x7FF) << np.int64(48)
SENTINELS = np.int64((1 << 14) | (1 << 30) | (1 << 46) | (1 << 62))

# ---- the workspace, a position row, a result row: declared in engine/layout.py (W_*, P_*, R_*)
_HASH = np.int64(-7046029254386353131)      # 0x9E3779B97F4A7C15, Fibonacci hashing

MODE_EXACT = 0    # the exact trick count
MODE_CLASS = 1    # only euchred (0: under 3) / made (1: 3 or 4) / march (2: all 5)
MODE_CARDS = 2    # flag: each legal card's value too


@njit(cache=True, _nrt=False, inline='always')
def field_of(b):
    """The field (effective suit) of the normalised bit ``b``, as a mask."""
    return np.int64(0xFFFF) << (b & np.int64(-16))


@njit(cache=True, _nrt=False)
def norm_bit(tab, trump, c):
    """The normalised bit of card ``c``: its effective suit's field, its R2 rank within it."""
    p = tab[U(T_ORDER + 33 * trump + c)]
    s = tab[U(T_SUIT_OF + 33 * trump + c)]
    if s == trump:                    # 101..108 plain trumps, 118 left, 119 right, 120 joker
        return 48 + (p - 101 if p <= 108 else p - 110)
    f = s if s < trump else s - 1
    return 16 * f + p - 1


@njit(cache=True, _nrt=False, inline='always')
def _play(c, seat, nin, led, wbit, wseat):
    """The trick after ``seat`` plays ``c``: (led field, winning card, its seat)."""
    if nin == 0:
        return field_of(lowbit(c)), c, seat
    if c > wbit and (c & (led | TRUMP_FIELD)) != 0:
        return led, c, seat
    return led, wbit, wseat


@njit(cache=True, _nrt=False, inline='always')
def _last_trick(ws, seat, nin, led, wbit, wseat):
    """One card left in each hand that has not played: do the makers win the trick?"""
    u = ws[0] | ws[1] | ws[2] | ws[3]
    if nin == 0:
        led = field_of(lowbit(ws[seat]))
    w = np.int64(1) << highbit((u & (led | TRUMP_FIELD)) | wbit)
    makers = ws[W_MAKERS]
    if w == wbit:
        return (makers >> wseat) & 1
    for s in range(4):
        if ws[s] & w:
            return (makers >> s) & 1
    return np.int64(0)


@njit(cache=True, _nrt=False, inline='always')
def _sure_tricks(ws, makers):
    """(makers', defenders') sure tricks: trumps above every opposing trump.

    Each such card wins the trick it falls in for its side, whoever leads
    (only a partner can top it), and one hand's cards fall in different
    tricks; so a side is sure of the count in its best hand.
    """
    mt = np.int64(0)
    dt = np.int64(0)
    for s in range(4):
        if (makers >> s) & 1:
            mt |= ws[s]
        else:
            dt |= ws[s]
    above_d = ~((np.int64(2) << highbit(dt & TRUMP_FIELD)) - 1) if dt & TRUMP_FIELD else np.int64(-1)
    above_m = ~((np.int64(2) << highbit(mt & TRUMP_FIELD)) - 1) if mt & TRUMP_FIELD else np.int64(-1)
    sm = np.int64(0)
    sd = np.int64(0)
    for s in range(4):
        if (makers >> s) & 1:
            sm = max(sm, popcount(ws[s] & TRUMP_FIELD & above_d))
        else:
            sd = max(sd, popcount(ws[s] & TRUMP_FIELD & above_m))
    return sm, sd


@njit(cache=True, _nrt=False, inline='always')
def _tt_key(ws, seat):
    """The position at a trick start by relative ranks, exactly, in one int64.

    Bit i of the first (second) 20 bits: the i-th card still held, counted
    from the bottom of the normalised board, belongs to seat 1 or 3 (2 or
    3); then the four fields' card counts and the seat to lead.  Which low
    cards are already gone does not matter, so positions that differ only
    in that share an entry.
    """
    h1 = ws[1]
    h2 = ws[2]
    h3 = ws[3]
    u = ws[0] | h1 | h2 | h3
    k = pext(h1 | h3, u) | (pext(h2 | h3, u) << 20)
    k |= popcount(u & np.int64(0xFFFF)) << 40
    k |= popcount(u & (np.int64(0xFFFF) << 16)) << 44
    k |= popcount(u & (np.int64(0xFFFF) << 32)) << 48
    k |= popcount(u & (np.int64(0xFFFF) << 48)) << 52
    return k | (seat << 56)


@njit(cache=True, _nrt=False, inline='always')
def _others(ws, wbit, h):
    """The live cards of the other hands, the card winning the trick and the sentinels: what tells runs apart."""
    return (ws[0] | ws[1] | ws[2] | ws[3] | wbit | SENTINELS) & ~h


@njit(cache=True, _nrt=False, inline='always')
def _starts_run(prev, c, others):
    """Whether card ``c`` (taken high to low after ``prev``, 0 at first) begins a new run of equivalent cards.

    Two cards of a hand are interchangeable from here on when no card in
    ``others`` lies between them: the search solves one card a run.
    """
    return prev == 0 or ((prev - 1) & ~((c << 1) - 1) & others) != 0


@njit(cache=True, _nrt=False, inline='always')
def _cards_to_try(ws, h, legal, seat, nin, led, wbit, wseat, maxi):
    """One card of each run of equivalent cards, and the order to try them.

    Two cards of a hand with no card of another hand still live between
    them (nor the card winning the trick) are interchangeable from here
    on.  Returns (cards, first card to try or 0, then low to high?).
    """
    others = _others(ws, wbit, h)
    reps = np.int64(0)
    rest = legal
    prev = np.int64(0)
    while rest != 0:
        c = np.int64(1) << highbit(rest)
        rest ^= c
        if _starts_run(prev, c, others):
            reps |= c
        prev = c
    first = np.int64(0)
    low = False
    if nin > 0:
        if ((ws[W_MAKERS] >> wseat) & 1) == maxi:
            low = True                               # partner is winning: play low
        else:
            beat = reps & (led | TRUMP_FIELD) & ~((wbit << 1) - 1)
            if beat != 0:
                first = beat & -beat                 # win as cheaply as possible
                low = True
    else:                  # lead the top trump, else a side-suit winner; then low to high
        low = True
        u = ws[0] | ws[1] | ws[2] | ws[3]
        bt = u & TRUMP_FIELD
        if bt != 0 and (h >> highbit(bt)) & 1:
            first = np.int64(1) << highbit(bt)
        else:
            bosses = np.int64(0)
            for f in range(3):
                bf = u & (np.int64(0xFFFF) << (16 * f))
                if bf != 0:
                    bosses |= np.int64(1) << highbit(bf)
            bosses &= reps
            if bosses != 0:
                first = np.int64(1) << highbit(bosses)
    return reps, first, low


# No signature given: numba types the recursion itself (the first returns are plain), and a kernel
# with one is compiled when its module is imported, which every run did (policies.dispatch imports
# this module), some 1.5 s of a cold start that only dd and pimc need.
@njit(cache=True, _nrt=False)
def _search(ws, seat, nin, led, wbit, wseat, need, nleft):
    """Can the makers take ``need`` more tricks, the current one included? (1/0)

    ``seat`` is to play, ``nin`` cards are already in the trick (``led``
    field, ``wbit`` winning so far, by ``wseat``), ``nleft`` tricks are not
    finished.  Bounds on the makers' tricks from a trick start are kept in
    the table, so any later search with another ``need`` reuses them.
    """
    if need <= 0:
        return 1
    if need > nleft:
        return 0
    ws[W_NODES] += 1
    makers = ws[W_MAKERS]
    if nleft == 1:
        return _last_trick(ws, seat, nin, led, wbit, wseat)
    slot = np.int64(-1)
    key = np.int64(0)
    lower = np.int64(0)
    upper = nleft
    if nin == 0:
        sm, sd = _sure_tricks(ws, makers)
        if sm >= need:
            return 1
        if nleft - sd < need:
            return 0
        key = _tt_key(ws, seat)
        slot = W_TT + 2 * np.int64(np.uint64(key * _HASH) >> np.uint64(64 - TT_BITS))
        data = ws[slot + 1]
        if ws[slot] == key and (data >> 8) == ws[W_STAMP]:
            lower = data & 15
            upper = (data >> 4) & 15
            if lower >= need:
                return 1
            if upper < need:
                return 0
    h = ws[seat]
    legal = h
    if nin > 0 and (h & led) != 0:
        legal = h & led                                          # R10 follow suit
    maxi = (makers >> seat) & 1
    last = nin + 1 == ws[W_NACT]
    if legal & (legal - 1) == 0:
        rest = legal                                             # a forced card
        first = np.int64(0)
        low = False
    else:
        rest, first, low = _cards_to_try(ws, h, legal, seat, nin, led, wbit, wseat, maxi)
    result = 1 - maxi
    while rest != 0:
        if first != 0:
            c = first
            first = np.int64(0)
        elif low:
            c = rest & -rest
        else:
            c = np.int64(1) << highbit(rest)
        rest &= ~c
        ws[seat] = h ^ c
        nled, nb, ns = _play(c, seat, nin, led, wbit, wseat)
        if last:
            r = _search(ws, ns, np.int64(0), np.int64(0), np.int64(0), np.int64(-1),
                        need - ((makers >> ns) & 1), nleft - 1)
        else:
            r = _search(ws, ws[U(W_NEXT + seat)], nin + 1, nled, nb, ns, need, nleft)
        ws[seat] = h
        if r == maxi:
            result = r
            break
    if slot >= 0:
        if result:
            lower = max(lower, need)
        else:
            upper = min(upper, need - 1)
        ws[slot] = key
        ws[slot + 1] = (ws[W_STAMP] << 8) | (upper << 4) | lower
    return result


@njit(cache=True, _nrt=False)
def _value(ws, seat, nin, led, wbit, wseat, mt, nleft, cls, guess):
    """The makers' final tricks from a position (``cls``: only the class 0/1/2).

    The exact count walks from ``guess`` up after a yes and down after a
    no, each search reusing the bounds the ones before left in the table.
    From the opening lead a guess of 5 ("a march?") did best: a no is
    cheap (the defenders need one trick) and its bounds speed the next.
    The class asks "3 or more?" and, only if so, "all 5?".
    """
    lo = mt
    hi = mt + nleft
    if cls:
        if hi < 3:
            return np.int64(0)
        if lo < 3 and not _search(ws, seat, nin, led, wbit, wseat, 3 - mt, nleft):
            return np.int64(0)
        if hi < 5:
            return np.int64(1)
        return np.int64(2) if _search(ws, seat, nin, led, wbit, wseat, 5 - mt, nleft) else np.int64(1)
    k = min(max(guess, lo + 1), hi)
    while lo < hi:
        if _search(ws, seat, nin, led, wbit, wseat, k - mt, nleft):
            lo = k
            k += 1
        else:
            hi = k - 1
            k -= 1
    return lo


@njit(cache=True, _nrt=False)
def solve_position(ws, tab, pos, res, mode):
    """Solve one position row (``P_*``) into one result row (``R_*``); returns R_VALUE.

    ``mode``: MODE_EXACT or MODE_CLASS, plus MODE_CARDS for each legal
    card's value.  The position must be one the rules allow: each seat
    that plays holds as many cards as tricks remain (one fewer if it has
    played to the current trick), and the seat to play has not.
    """
    players = tab[CFG_PLAYERS]
    trump = pos[P_TRUMP]
    out = pos[P_OUT]
    makers = pos[P_MAKERS] & ~out
    nact = np.int64(0)
    for s in range(4):
        ws[W_NEXT + s] = tab[U(T_NEXT + 4 * out + s)] if s < players else -1
        hb = np.int64(0)
        if s < players and not (out >> s) & 1:
            nact += 1
            m = pos[P_HAND + s]
            while m != 0:
                c = lowbit(m)
                m &= m - 1
                b = norm_bit(tab, trump, c)
                hb |= np.int64(1) << b
        ws[s] = hb
    ws[W_MAKERS] = makers
    ws[W_NACT] = nact
    ws[W_NODES] = 0
    ws[W_STAMP] += 1
    nin = pos[P_NTABLE]
    led = np.int64(0)
    wbit = np.int64(0)
    wseat = np.int64(-1)
    for k in range(nin):
        b = np.int64(1) << norm_bit(tab, trump, pos[P_TCARD + k])
        led, wbit, wseat = _play(b, pos[P_TSEAT + k], np.int64(k), led, wbit, wseat)
    seat = pos[P_SEAT]
    mt = pos[P_MTRICKS]
    h = ws[seat]
    nleft = popcount(h)
    cls = mode & MODE_CLASS
    m = pos[P_HAND + seat]
    for k in range(5):
        res[R_CARD + k] = -1
        res[R_CVAL + k] = -1
        if m != 0:
            res[R_CARD + k] = lowbit(m)
            m &= m - 1
    if not (mode & MODE_CARDS):
        value = _value(ws, seat, nin, led, wbit, wseat, mt, nleft, cls, np.int64(5))
    else:
        legal = h
        if nin > 0 and (h & led) != 0:
            legal = h & led
        others = _others(ws, wbit, h)
        maxi = (makers >> seat) & 1
        value = np.int64(-1) if maxi else np.int64(99)
        guess = np.int64(5)
        v = np.int64(-1)
        rest = legal
        prev = np.int64(0)
        while rest != 0:
            c = np.int64(1) << highbit(rest)
            rest ^= c
            if _starts_run(prev, c, others):
                ws[seat] = h ^ c              # a new run of touching cards: solve it
                nled, nb, ns = _play(c, seat, nin, led, wbit, wseat)
                if nin + 1 == nact:
                    v = _value(ws, ns, np.int64(0), np.int64(0), np.int64(0), np.int64(-1),
                               mt + ((makers >> ns) & 1), nleft - 1, cls, guess)
                else:
                    v = _value(ws, ws[U(W_NEXT + seat)], nin + 1, nled, nb, ns, mt, nleft, cls, guess)
                ws[seat] = h
                if not cls:
                    guess = v
            prev = c
            ws[W_CVAL + lowbit(c)] = v
            value = max(value, v) if maxi else min(value, v)
        for k in range(5):
            c0 = res[R_CARD + k]
            if c0 >= 0:
                b = norm_bit(tab, trump, c0)
                if (legal >> b) & 1:
                    res[R_CVAL + k] = ws[W_CVAL + b]
    res[R_VALUE] = value
    res[R_NODES] = ws[W_NODES]
    return value


@njit(cache=True, _nrt=False)
def solve_batch(ws, tab, pos, res, mode):
    """Solve every row of ``pos`` into the same row of ``res``, with one workspace.

    One jitted call for many positions (the sampling bots' worlds, a
    report's deals): no Python between positions and no allocation.
    """
    for i in range(pos.shape[0]):
        solve_position(ws, tab, pos[i], res[i], mode)


def new_workspace():
    """The int64 workspace the solver kernels take; reuse it for any number of solves."""
    return np.zeros(WS_SIZE, dtype=np.int64)
