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
from euchresim.policies.builtin import NPARAMS
from euchresim.policies.heuristic_play import (H_ALONE, H_ALONE_TOP, H_DEFEND, H_DEFEND_CUTTHROAT, H_DUMMY, H_NAME, H_NEXT, H_ORDER, H_TWO_HAND, H_UP_OPPONENT, H_UP_PARTNER, JOKER, ONE, best_discard, card_points, play_card, points)

# (name, slot, default, lo, hi, doc); positions count from the dealer's left (1),
# and the dealer is always position 4 (order_4, name_4), whatever the number of players
HEURISTIC_PARAMS = (
    ("order_1", 0, 7.0, 0.0, 30.0, "round one, position 1 (the dealer's left): count needed to order"),
    ("order_2", 1, 6.0, 0.0, 30.0, "round one, position 2 (4 players: the dealer's partner; 3: right of the dealer)"),
    ("order_3", 2, 6.0, 0.0, 30.0, "round one, position 3 (4 players: the dealer's right)"),
    ("order_4", 3, 5.5, 0.0, 30.0, "round one, the dealer: count after the exchange needed to take up"),
    ("name_1", 4, 6.0, 0.0, 30.0, "round two, position 1: count needed to name a suit"),
    ("name_2", 5, 5.0, 0.0, 30.0, "round two, position 2"),
    ("name_3", 6, 5.0, 0.0, 30.0, "round two, position 3"),
    ("name_4", 7, 5.5, 0.0, 30.0, "round two, the dealer (when not stuck)"),
    ("alone", 8, 10.4, 0.0, 40.0, "4 players: count needed for the maker to go alone"),
    ("defend", 9, 9.5, 0.0, 40.0, "4 players (--defend-alone): count needed to defend alone"),
    ("defend_cutthroat", 10, 12.0, 0.0, 40.0, "Cutthroat: count needed to defend alone"),
    ("joker", 11, 3.5, 0.0, 10.0, "points: the joker"),
    ("right", 12, 3.0, 0.0, 10.0, "points: the right bower"),
    ("left", 13, 2.5, 0.0, 10.0, "points: the left bower"),
    ("trump_ace", 14, 2.0, 0.0, 10.0, "points: the ace of trump"),
    ("trump_king", 15, 2.0, 0.0, 10.0, "points: the king of trump"),
    ("trump_low", 16, 1.9, 0.0, 10.0, "points: any lower trump (queen down)"),
    ("off_ace", 17, 0.7, 0.0, 10.0, "points: an off-suit ace"),
    ("off_king", 18, 0.0, 0.0, 10.0, "points: an off-suit king"),
    ("void", 19, 0.5, 0.0, 10.0, "points: each off suit the hand lacks, with two or more trumps"),
    ("up_partner", 20, 0.5, -2.0, 2.0, "round one: times the upcard's points, added when it goes to partner"),
    ("up_opponent", 21, 0.5, -2.0, 2.0, "round one: times the upcard's points, taken off when it goes to an opponent"),
    ("dummy", 22, 3.0, -10.0, 20.0, "Cutthroat: points added to every bid for the dummy the maker takes up"),
    ("two_hand", 23, 1.0, -10.0, 10.0, "2 players: points added to every bid"),
    ("next", 24, 1.0, -5.0, 5.0, "round two: added for naming next (the turned-down suit's colour) at positions 1, 3"),
    ("lead_trump", 25, 3.0, 0.0, 6.0, "play: trumps a maker needs, without the top one, to lead a low trump"),
    ("through", 26, 3.0, 0.0, 6.0, "play: trumps a defender needs to lead trump through a maker on its left"),
    ("alone_top", 27, 1.0, 0.0, 3.0, "4 players: of the joker and both bowers, how many a lone maker must hold"),
)
HEURISTIC_DEFAULTS = np.zeros(NPARAMS)
for _p in HEURISTIC_PARAMS:
    HEURISTIC_DEFAULTS[_p[1]] = _p[2]


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
