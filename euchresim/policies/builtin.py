"""Built-in policies, dispatched by integer id inside the jitted loop.

Every policy answers one call per decision,
``decide(pid, st, hand, away, seat, legal, params, rng, tab)``:

* ``st``     -- the public state (see engine/layout.py): upcard, calls,
  alone/out masks, every card played and by whom, the tricks so far;
* ``hand``   -- this seat's own cards; ``away`` -- the cards this seat put
  face down (the dealer's discard, the Cutthroat dummy rejects);
* ``legal``  -- the legal actions: a mask of action codes for a choice, a
  board of cards for a discard or a play, the hand+dummy board for the
  Cutthroat keep (answer a board of 5 of them);
* ``params`` -- a float64 row, so a parameter sweep never recompiles;
* ``rng``    -- this chunk's policy stream (never the deal stream).

It never sees another seat's cards.  Ids: 0 ``random``, 1 ``baseline``.
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import U, digit_bit, lowbit, lowest_by, popcount, random_bit
from euchresim.engine.layout import (BEST_POWER, BEST_SEAT, BIDSUIT, BID2_PASS, CFG_PLAYERS, DEALER, LED, MAKER, NINTRICK, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DUMMY, PH_JOKER, PH_PLAY, PHASE, ROUND, TRUMP, UPCARD, T_EFF, T_ORDER, T_POWER)

RANDOM = 0
BASELINE = 1

from euchresim.policies.params import declare, defaults_row, param, slot_of  # noqa: E402
from euchresim.policies.view import cheapest, strongest, teammate  # noqa: E402

# baseline's parameters, declared once: the command line's names and ranges, the defaults row and the slots
BASELINE_PARAMS = declare((
    param("order", 4.0, 0.0, 20.0, "round one: strength needed to order, assist or take up"),
    param("name", 4.0, 0.0, 20.0, "round two: strength needed to name a suit"),
    param("alone", 7.0, 0.0, 20.0, "strength needed for the maker to go alone"),
    param("defend", 2.0, 0.0, 6.0, "trumps (one a top one) needed to defend alone, 4 players"),
    param("partner_up", 0.5, -5.0, 5.0, "round one: + when the upcard goes to partner, - to an opponent"),
    param("defend_cutthroat", 3.0, 0.0, 6.0, "as defend, in Cutthroat"),
), "baseline")
BASELINE_DEFAULTS = defaults_row(BASELINE_PARAMS)
B_ORDER = slot_of(BASELINE_PARAMS, "order")
B_NAME = slot_of(BASELINE_PARAMS, "name")
B_ALONE = slot_of(BASELINE_PARAMS, "alone")
B_DEFEND = slot_of(BASELINE_PARAMS, "defend")
B_PARTNER_UP = slot_of(BASELINE_PARAMS, "partner_up")
B_DEFEND_CUTTHROAT = slot_of(BASELINE_PARAMS, "defend_cutthroat")

from euchresim.cards import JOKER  # noqa: E402  (the one definition)


@njit(cache=True, _nrt=False, inline='always')
def random_choice(legal, rng):
    """Uniform over the legal actions; six or fewer (every call and card) take a digit."""
    if popcount(legal) <= 6:
        return digit_bit(rng, legal)
    return random_bit(rng, legal)


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def random_keep(legal, rng):
    """A uniformly random 5 of the cards in ``legal``."""
    keep = np.int64(0)
    left = legal
    for _ in range(5):
        c = random_bit(rng, left)
        keep |= np.int64(1) << c
        left &= ~(np.int64(1) << c)
    return keep


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def strength(hand, t, tab):
    """A rule-of-thumb count of a hand with suit ``t`` as trump.

    One point a trump, plus 1.5 for the joker, 1.25 the right bower, 1.0 the
    left, 0.5 the ace of trump; 0.6 an off-suit ace; 0.4 an off-suit void
    when holding two or more trumps.
    """
    trumps = hand & tab[U(T_EFF + 4 * (t) + (t))]
    n = popcount(trumps)
    v = np.float64(n)
    if (trumps >> JOKER) & 1:
        v += 1.5
    if (trumps >> (8 * t + 4)) & 1:
        v += 1.25
    if (trumps >> (8 * (3 - t) + 4)) & 1:
        v += 1.0
    if (trumps >> (8 * t + 7)) & 1:
        v += 0.5
    for s in range(4):
        if s == t:
            continue
        off = hand & tab[U(T_EFF + 4 * (t) + (s))]
        if (off >> (8 * s + 7)) & 1:
            v += 0.6
        if off == 0 and n >= 2:
            v += 0.4
    return v


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def cheapest_by_power(cards, t, led, tab):
    """The card of ``cards`` with the least trick-taking power (R2, R10); ties the lowest index."""
    return lowest_by(cards, tab, T_POWER + 132 * t + 33 * led)


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def baseline_discard(cards, t, tab):
    """Put away the lowest off-suit card, preferring one that leaves a void."""
    trumps = cards & tab[U(T_EFF + 4 * (t) + (t))]
    best = -1
    bv = 1 << 30
    for s in range(4):
        if s == t:
            continue
        off = cards & tab[U(T_EFF + 4 * (t) + (s))]
        if off == 0:
            continue
        c = cheapest(off, t, tab)
        if (c & 7) == 7:   # keep off-suit aces when possible
            continue
        v = tab[U(T_ORDER + 33 * (t) + (c))] - (10 if popcount(off) == 1 else 0)
        if v < bv:
            bv = v
            best = c
    if best >= 0:
        return best
    offs = cards & ~trumps
    if offs:
        return cheapest(offs, t, tab)
    return cheapest(cards, t, tab)


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def baseline_keep(cards, t, tab):
    """Keep the five strongest cards by R2 order (trumps first, then aces)."""
    keep = np.int64(0)
    left = cards
    for _ in range(5):
        c = strongest(left, t, tab)
        keep |= np.int64(1) << c
        left &= ~(np.int64(1) << c)
    return keep


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def baseline_play(st, hand, seat, legal, tab, players):
    t = st[TRUMP]
    trumps = legal & tab[U(T_EFF + 4 * (t) + (t))]
    maker_side = seat == st[MAKER] or (players == 4 and (seat + 2) & 3 == st[MAKER])
    if st[NINTRICK] == 0:
        if maker_side and trumps:
            return strongest(trumps, t, tab)
        aces = np.int64(0)
        for s in range(4):
            if s != t:
                aces |= legal & (np.int64(1) << (8 * s + 7)) & tab[U(T_EFF + 4 * (t) + (s))]
        if aces:
            return lowbit(aces)
        return cheapest(legal, t, tab)
    if st[BEST_SEAT] == teammate(st, seat, players):
        return cheapest(legal, t, tab)
    led = st[LED]
    winners = np.int64(0)
    m = legal
    while m:
        c = lowbit(m)
        m &= m - 1
        if tab[U(T_POWER + 132 * (t) + 33 * (led) + (c))] > st[BEST_POWER]:
            winners |= np.int64(1) << c
    if winners:
        return cheapest_by_power(winners, t, led, tab)     # the cheapest card that wins
    return cheapest(legal, t, tab)


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def baseline_decide(st, hand, away, seat, legal, params, tab):
    ph = st[PHASE]
    players = tab[CFG_PLAYERS]
    if ph == PH_PLAY:
        return baseline_play(st, hand, seat, legal, tab, players)
    if ph == PH_BID1:
        t = st[BIDSUIT]
        dealer = st[DEALER]
        if seat == dealer:
            up = np.int64(1) << st[UPCARD]
            with_up = hand | up
            h = with_up & ~(np.int64(1) << baseline_discard(with_up, t, tab))
            v = strength(h, t, tab)
        else:
            v = strength(hand, t, tab)
            if players == 4 and (seat + 2) & 3 == dealer:
                v += params[B_PARTNER_UP]
            else:
                v -= params[B_PARTNER_UP]
        return 1 if v >= params[B_ORDER] else 0
    if ph == PH_BID2:
        best = -1
        bv = -1.0
        for s in range(4):
            if (legal >> s) & 1:
                v = strength(hand, s, tab)
                if v > bv:
                    bv = v
                    best = s
        if bv >= params[B_NAME] or not (legal >> BID2_PASS) & 1:
            return best
        return BID2_PASS
    if ph == PH_ALONE:
        t = st[TRUMP]
        h = hand
        if seat == st[DEALER] and st[ROUND] == 1:     # the exchange comes after (C1): count the upcard in
            with_up = hand | (np.int64(1) << st[UPCARD])
            h = with_up & ~(np.int64(1) << baseline_discard(with_up, t, tab))
        return 1 if strength(h, t, tab) >= params[B_ALONE] else 0
    if ph == PH_DEFEND:
        # Against a lone maker a defender's side wins more only with sure
        # trump tricks (docs/policies.md has the measurement): enough
        # trumps, one of them the joker or a bower.
        t = st[TRUMP]
        trumps = hand & tab[U(T_EFF + 4 * (t) + (t))]
        tops = (np.int64(1) << JOKER) | (np.int64(1) << (8 * t + 4)) | (np.int64(1) << (8 * (3 - t) + 4))
        need = params[B_DEFEND_CUTTHROAT] if players == 3 else params[B_DEFEND]
        return 1 if popcount(trumps) >= need and (trumps & tops) != 0 else 0
    if ph == PH_DISCARD:
        return baseline_discard(legal, st[TRUMP], tab)
    if ph == PH_DUMMY:
        return baseline_keep(legal, st[TRUMP], tab)
    if ph == PH_JOKER:
        best = 0
        bv = -1.0
        for s in range(4):
            v = strength(hand | (np.int64(1) << JOKER), s, tab)
            if v > bv:
                bv = v
                best = s
        return best
    return -1


@njit(cache=True, _nrt=False, inline='always')
def decide(pid, st, hand, away, seat, legal, params, rng, tab):
    """The one entry point the hot loop calls for every decision."""
    if pid == BASELINE:
        return baseline_decide(st, hand, away, seat, legal, params, tab)
    if st[PHASE] == PH_DUMMY:
        return random_keep(legal, rng)
    return random_choice(legal, rng)
