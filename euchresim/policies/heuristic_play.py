"""The heuristic policy's point count and card play (docs/heuristic.md).

Everything here reads only the public state ``st``, the seat's own ``hand``
and ``away``, and the rule tables ``tab``; nothing draws random numbers.
The parameter slots (``H_*``) are indexes into the seat's params row.
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import U, lowbit, popcount
from euchresim.policies.builtin import cheapest_by_power
from euchresim.policies.view import cheapest, played_cards, shown_voids, strongest, teammate
from euchresim.engine.layout import (BEST_POWER, BEST_SEAT, CFG_PACK, CFG_PLAYERS, DEALER, EXCHANGED, LED, MAKER, NACTIVE, NINTRICK, OUT, TRUMP, UPCARD, T_EFF, T_NEXT, T_ORDER, T_POWER, T_SUIT_OF)

from euchresim.cards import JOKER  # noqa: E402  (the one definition)
ONE = np.int64(1)

from euchresim.policies.heuristic_params import (H_JOKER, H_LEAD_TRUMP, H_LEFT, H_OFF_ACE,  # noqa: E402
                                                  H_OFF_KING, H_RIGHT, H_THROUGH, H_TRUMP_ACE, H_TRUMP_KING,
                                                  H_TRUMP_LOW, H_VOID)


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def card_points(c, t, params):
    """The point value of one card with ``t`` trump (voids are counted by ``points``)."""
    if c == JOKER:
        return params[H_JOKER]
    if c == 8 * t + 4:
        return params[H_RIGHT]
    if c == 8 * (3 - t) + 4:
        return params[H_LEFT]
    r = c & 7
    if (c >> 3) == t:
        if r == 7:
            return params[H_TRUMP_ACE]
        if r == 6:
            return params[H_TRUMP_KING]
        return params[H_TRUMP_LOW]
    if r == 7:
        return params[H_OFF_ACE]
    if r == 6:
        return params[H_OFF_KING]
    return 0.0


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def points(hand, t, params, tab):
    """The hand's point count with ``t`` trump: its cards' values, plus ``void``
    for each off suit (effective suit) it lacks when it holds two or more trumps."""
    v = 0.0
    m = hand
    while m:
        c = lowbit(m)
        m &= m - 1
        v += card_points(c, t, params)
    if popcount(hand & tab[U(T_EFF + 5 * t)]) >= 2:
        for s in range(4):
            if s != t and (hand & tab[U(T_EFF + 4 * t + s)]) == 0:
                v += params[H_VOID]
    return v


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def best_discard(cards, t, params, tab):
    """The card of ``cards`` whose removal leaves the highest point count
    (ties: the lowest card by R2 order)."""
    best = -1
    bv = -1e300
    bo = 1 << 30
    m = cards
    while m:
        c = lowbit(m)
        m &= m - 1
        v = points(cards & ~(ONE << c), t, params, tab)
        o = tab[U(T_ORDER + 33 * t + c)]
        if v > bv + 1e-9 or (v > bv - 1e-9 and o < bo):
            bv = v
            bo = o
            best = c
    return best


# the cheapest and the strongest card by R2 order: the one scan (engine.bits.lowest_by), ties the lowest index
lowest = cheapest
highest = strongest


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def knowledge(st, hand, away, seat, tab):
    """(unseen, voids): the cards this seat cannot place (not played, not its own,
    not a dead upcard) and a 16-bit mask, bit 4*seat+suit, of suits each seat showed out of."""
    unseen = tab[CFG_PACK] & ~played_cards(st) & ~hand & ~away
    if st[EXCHANGED] == 0 or seat == st[DEALER]:
        unseen &= ~(ONE << st[UPCARD])       # turned down, declined, or this seat's own
    return unseen, shown_voids(st, tab)


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def later_seats(st, seat, tab):
    """Seat mask of the seats still to play to the current trick after ``seat``."""
    rem = st[NACTIVE] - st[NINTRICK] - 1
    m = np.int64(0)
    s = seat
    for _ in range(rem):
        s = tab[U(T_NEXT + 4 * st[OUT] + s)]
        m |= ONE << s
    return m


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def is_boss(c, t, unseen, tab):
    """No card this seat cannot place ranks above ``c`` in its effective suit."""
    s = tab[U(T_SUIT_OF + 33 * t + c)]
    o = tab[U(T_ORDER + 33 * t + c)]
    m = unseen & tab[U(T_EFF + 4 * t + s)]
    while m:
        x = lowbit(m)
        m &= m - 1
        if tab[U(T_ORDER + 33 * t + x)] > o:
            return False
    return True


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def secure(p, led, t, opps, unseen, voids, tab):
    """Can no opponent in the seat mask ``opps`` still beat trick power ``p``?

    A higher card of the led suit is a threat if one of them may hold the
    suit (is not known void).  A higher trump, on an off-suit lead, is a
    threat if one of them is known void in the led suit (or the led suit has
    at most one unseen card left) and is not known void in trump."""
    if opps == 0:
        return True
    may_led = False
    may_ruff = False
    short = popcount(unseen & tab[U(T_EFF + 4 * t + led)]) <= 1
    for o in range(4):
        if (opps >> o) & 1:
            vl = (voids >> (4 * o + led)) & 1
            if vl == 0:
                may_led = True
            if (vl == 1 or short) and ((voids >> (4 * o + t)) & 1) == 0:
                may_ruff = True
    m = unseen
    while m:
        x = lowbit(m)
        m &= m - 1
        if tab[U(T_POWER + 132 * t + 33 * led + x)] > p:
            xs = tab[U(T_SUIT_OF + 33 * t + x)]
            if xs == led and may_led:
                return False
            if xs == t and xs != led and may_ruff:
                return False
    return True


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def throw_off(legal, t, unseen, tab):
    """The card to give up when not trying to win: follow with the lowest card;
    when void, the cheapest off-suit non-boss card, a singleton first (it makes a
    void), trumps only when nothing else is left."""
    trumps = tab[U(T_EFF + 5 * t)]
    offs = legal & ~trumps
    if offs == 0:
        return lowest(legal, t, tab)
    best = -1
    bv = 1 << 30
    m = offs
    while m:
        c = lowbit(m)
        m &= m - 1
        s = tab[U(T_SUIT_OF + 33 * t + c)]
        v = tab[U(T_ORDER + 33 * t + c)]
        if popcount(legal & tab[U(T_EFF + 4 * t + s)]) == 1:
            v -= 10
        if is_boss(c, t, unseen, tab):
            v += 20
        if v < bv:
            bv = v
            best = c
    return best


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def secure_cards(cards, led, t, opps, unseen, voids, tab):
    """The cards of ``cards`` that would win the trick whatever the opponents still to play hold."""
    sure = np.int64(0)
    m = cards
    while m:
        c = lowbit(m)
        m &= m - 1
        if secure(tab[U(T_POWER + 132 * t + 33 * led + c)], led, t, opps, unseen, voids, tab):
            sure |= ONE << c
    return sure


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def partner_ruff_lead(offs, mate, t, voids, tab):
    """The lowest off-suit card of a suit the partner is known void in while it may still hold trump (it may
    ruff), or -1: the leader's last try before throwing off."""
    pb = -1
    pv = 1 << 30
    m = offs
    while m:
        c = lowbit(m)
        m &= m - 1
        s = tab[U(T_SUIT_OF + 33 * t + c)]
        if (voids >> (4 * mate + s)) & 1 and ((voids >> (4 * mate + t)) & 1) == 0:
            v = tab[U(T_ORDER + 33 * t + c)]
            if v < pv:
                pv = v
                pb = c
    return pb


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def lead_card(st, hand, seat, legal, params, tab, unseen, voids, mate, players):
    t = st[TRUMP]
    maker = st[MAKER]
    trumpb = tab[U(T_EFF + 5 * t)]
    mine = legal & trumpb
    opps = np.int64(0)
    for o in range(players):
        if o != seat and o != mate and ((st[OUT] >> o) & 1) == 0:
            opps |= ONE << o
    # may an opponent still hold a trump?
    opp_trumps = False
    if unseen & trumpb:
        for o in range(players):
            if (opps >> o) & 1 and ((voids >> (4 * o + t)) & 1) == 0:
                opp_trumps = True
    boss_trump = np.int64(-1)
    if mine:
        h = highest(mine, t, tab)
        if is_boss(h, t, unseen, tab):
            boss_trump = h
    if seat == maker:
        # draw trump: the top trump, or a low one from length
        if mine and opp_trumps:
            if boss_trump >= 0:
                return boss_trump
            if popcount(mine) >= params[H_LEAD_TRUMP]:
                return lowest(mine, t, tab)
    elif mate == maker and mate >= 0 and players == 4:
        # lead trump to a partner who called: the top one if held, else the lowest
        if mine and opp_trumps and ((voids >> (4 * mate + t)) & 1) == 0:
            if boss_trump >= 0:
                return boss_trump
            return lowest(mine, t, tab)
    else:
        # a defender leading through the maker (the maker plays next) leads trump from length
        nxt = tab[U(T_NEXT + 4 * st[OUT] + seat)]
        if players > 2 and nxt == maker and mine and popcount(mine) >= params[H_THROUGH] and popcount(mine) < popcount(legal):
            return lowest(mine, t, tab)
    # cash an off-suit boss, in a suit no opponent can ruff (known void, with trumps)
    best = -1
    bv = 1 << 30
    m = legal & ~trumpb
    while m:
        c = lowbit(m)
        m &= m - 1
        if not is_boss(c, t, unseen, tab):
            continue
        s = tab[U(T_SUIT_OF + 33 * t + c)]
        ruff = False
        for o in range(players):
            if (opps >> o) & 1 and (voids >> (4 * o + s)) & 1 and ((voids >> (4 * o + t)) & 1) == 0 \
                    and (unseen & trumpb):
                ruff = True
        v = tab[U(T_ORDER + 33 * t + c)] + (100 if ruff else 0)
        if v < bv:
            bv = v
            best = c
    if best >= 0 and bv < 100:
        return best
    if seat == maker and mine and boss_trump >= 0:
        return boss_trump
    offs = legal & ~trumpb
    if mate >= 0 and offs:
        pb = partner_ruff_lead(offs, mate, t, voids, tab)
        if pb >= 0:
            return pb
    if offs:
        return throw_off(offs, t, unseen, tab)
    if boss_trump >= 0:
        return boss_trump
    return lowest(legal, t, tab)


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def play_card(st, hand, away, seat, legal, params, tab):
    """The heuristic's card (docs/heuristic.md, 'Leading' and 'Following')."""
    players = tab[CFG_PLAYERS]
    t = st[TRUMP]
    mate = teammate(st, seat, players)
    unseen, voids = knowledge(st, hand, away, seat, tab)
    if popcount(legal) == 1:
        return lowbit(legal)
    if st[NINTRICK] == 0:
        return lead_card(st, hand, seat, legal, params, tab, unseen, voids, mate, players)
    led = st[LED]
    bp = st[BEST_POWER]
    later = later_seats(st, seat, tab)
    opps_later = later
    if mate >= 0:
        opps_later &= ~(ONE << mate)
    mate_later = mate >= 0 and ((later >> mate) & 1) == 1
    winners = np.int64(0)
    m = legal
    while m:
        c = lowbit(m)
        m &= m - 1
        if tab[U(T_POWER + 132 * t + 33 * led + c)] > bp:
            winners |= ONE << c
    if st[BEST_SEAT] == mate and mate >= 0:
        # the partner is winning: never trump it; overtake only with a sure winner
        # of the led suit when the partner's card may still be beaten
        if secure(bp, led, t, opps_later, unseen, voids, tab):
            return throw_off(legal, t, unseen, tab)
        follow = winners & tab[U(T_EFF + 4 * t + led)]
        sure = secure_cards(follow, led, t, opps_later, unseen, voids, tab)
        if sure:
            return cheapest_by_power(sure, t, led, tab)
        return throw_off(legal, t, unseen, tab)
    if winners == 0:
        return throw_off(legal, t, unseen, tab)
    sure = secure_cards(winners, led, t, opps_later, unseen, voids, tab)
    if sure:
        return cheapest_by_power(sure, t, led, tab)
    if opps_later == 0:
        return cheapest_by_power(winners, t, led, tab)
    follow = winners & tab[U(T_EFF + 4 * t + led)]
    if mate_later:
        # second hand low: win only to ruff a card the partner is unlikely to beat
        if follow == 0 and led != t and secure(bp, led, t, ONE << mate, unseen, voids, tab):
            return cheapest_by_power(winners, t, led, tab)
        return throw_off(legal, t, unseen, tab)
    # third hand high: the highest card of the led suit, or the cheapest ruff
    if follow:
        return highest(follow, t, tab)
    return cheapest_by_power(winners, t, led, tab)
