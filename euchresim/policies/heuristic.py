"""The ``heuristic`` policy: a parameterised point count and sound card play.

Every decision of every variant (docs/heuristic.md has the whole story):

* a **point count** per card class (joker, bowers, trump ace and king, lower
  trumps, off-suit aces and kings, voids) scores a hand for a trump suit;
* **bids** compare it with a threshold per seat position and round, after
  counting the upcard in for whoever gets it (the dealer's exchange, a
  partner's or an opponent's gain), the Cutthroat dummy and the 2-hand game;
* **alone / defend alone** are thresholds on the same count;
* the **dealer's discard** and the **Cutthroat dummy keep** maximise the
  count of what is kept (which short-suits the hand: voids score);
* the **joker's suit** is the suit of the best count;
* **card play** (``heuristic_play``) tracks voids and the unseen trumps:
  draw trump as maker, lead trump to a partner who called, cash sure
  winners, second hand low, third hand high, never trump a partner's winner.

Its parameters are the seat's params row (slots 0..27), so a sweep never
recompiles; ``HEURISTIC_PARAMS`` names them for the command line.  It draws
no random numbers.
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import U, lowbit, popcount
from euchresim.engine.layout import (BID2_PASS, BIDSUIT, CFG_PLAYERS, DEALER, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DUMMY, PH_JOKER, PH_PLAY, PHASE, ROUND, TRUMP, UPCARD, T_ORDER)
from euchresim.policies.heuristic_params import H_ALONE, H_ALONE_TOP, H_DEFEND, H_DEFEND_CUTTHROAT, H_DUMMY, H_NAME, H_NEXT, H_ORDER, H_TWO_HAND, H_UP_OPPONENT, H_UP_PARTNER
from euchresim.policies.heuristic_play import JOKER, ONE, best_discard, card_points, play_card, points



@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def position(seat, dealer, players):
    """1 for the dealer's left, 2, 3 on round the table; the dealer is always 4."""
    p = (seat - dealer) % players
    return 4 if p == 0 else p


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def variant_bonus(params, players):
    if players == 3:
        return params[H_DUMMY]
    if players == 2:
        return params[H_TWO_HAND]
    return 0.0


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def dealer_count(hand, up, t, params, tab):
    """The count of the dealer's best five after taking the upcard."""
    cards = hand | (ONE << up)
    return points(cards & ~(ONE << best_discard(cards, t, params, tab)), t, params, tab)


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def bid1_count(st, hand, seat, params, tab):
    """The round-one count: the upcard counted in for whoever gets it."""
    players = tab[CFG_PLAYERS]
    t = st[BIDSUIT]
    dealer = st[DEALER]
    up = st[UPCARD]
    if seat == dealer:
        v = dealer_count(hand, up, t, params, tab)
    else:
        v = points(hand, t, params, tab)
        uv = card_points(up, t, params)
        if players == 4 and (seat + 2) & 3 == dealer:
            v += params[H_UP_PARTNER] * uv
        else:
            v -= params[H_UP_OPPONENT] * uv
    return v + variant_bonus(params, players)


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def tops_held(hand, t):
    return ((hand >> JOKER) & 1) + ((hand >> (8 * t + 4)) & 1) + ((hand >> (8 * (3 - t) + 4)) & 1)


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def keep_best(cards, t, params, tab):
    """The five of ``cards`` (the maker's hand and the dummy) with the highest
    count; ties go to the higher total R2 order."""
    best = np.int64(0)
    bv = -1e300
    bo = -1
    n = popcount(cards)
    for pat in range(1 << n):
        if popcount(np.int64(pat)) != 5:
            continue
        keep = np.int64(0)
        m = cards
        k = 0
        while m:
            c = lowbit(m)
            m &= m - 1
            if (pat >> k) & 1:
                keep |= ONE << c
            k += 1
        v = points(keep, t, params, tab)
        o = 0
        m = keep
        while m:
            c = lowbit(m)
            m &= m - 1
            o += tab[U(T_ORDER + 33 * t + c)]
        if v > bv + 1e-9 or (v > bv - 1e-9 and o > bo):
            bv = v
            bo = o
            best = keep
    return best


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def heuristic_decide(st, hand, away, seat, legal, params, tab):
    ph = st[PHASE]
    players = tab[CFG_PLAYERS]
    if ph == PH_PLAY:
        return play_card(st, hand, away, seat, legal, params, tab)
    if ph == PH_BID1:
        pos = position(seat, st[DEALER], players)
        v = bid1_count(st, hand, seat, params, tab)
        return 1 if v >= params[H_ORDER + pos - 1] and (legal >> 1) & 1 else 0
    if ph == PH_BID2:
        pos = position(seat, st[DEALER], players)
        turned = st[BIDSUIT]
        best = -1
        bv = -1e300
        for s in range(4):
            if (legal >> s) & 1:
                v = points(hand, s, params, tab)
                if s == 3 - turned and (pos == 1 or pos == 3):
                    v += params[H_NEXT]
                if v > bv:
                    bv = v
                    best = s
        bv += variant_bonus(params, players)
        if best >= 0 and (bv >= params[H_NAME + pos - 1] or not (legal >> BID2_PASS) & 1):
            return best
        return BID2_PASS if (legal >> BID2_PASS) & 1 else lowbit(legal)
    if ph == PH_ALONE:
        if players != 4:       # Cutthroat: a lone maker scores no more and loses the dummy
            return 0
        t = st[TRUMP]
        h = hand
        if seat == st[DEALER] and st[ROUND] == 1:   # the exchange comes after (C1)
            cards = hand | (ONE << st[UPCARD])
            h = cards & ~(ONE << best_discard(cards, t, params, tab))
        ok = points(h, t, params, tab) >= params[H_ALONE] and tops_held(h, t) >= params[H_ALONE_TOP]
        return 1 if ok and (legal >> 1) & 1 else 0
    if ph == PH_DEFEND:
        need = params[H_DEFEND_CUTTHROAT] if players == 3 else params[H_DEFEND]
        return 1 if points(hand, st[TRUMP], params, tab) >= need and (legal >> 1) & 1 else 0
    if ph == PH_DISCARD:
        return best_discard(legal, st[TRUMP], params, tab)
    if ph == PH_DUMMY:
        return keep_best(legal, st[TRUMP], params, tab)
    if ph == PH_JOKER:
        best = -1
        bv = -1e300
        for s in range(4):
            if (legal >> s) & 1:
                v = points(hand | (ONE << JOKER), s, params, tab)
                if v > bv:
                    bv = v
                    best = s
        return best
    return lowbit(legal)
