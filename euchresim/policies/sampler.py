"""Dealing the cards a seat has not seen: the one sampler, for pimc's worlds and the advisor's deals.

``deal_unseen`` deals unseen cards to seats, each a given number, each
from the cards it may hold; ``sample_world`` says what a seat may hold at
a decision (its voids, the upcard the dealer took) and deals the world
pimc searches; the advisor (``loops/advisor_kernels.py``) deals whole hands with it
and keeps those on which the hand so far replays. ``calls_fit`` asks
whether heuristic would have made the calls heard in a world: pimc's
inference; with ``play_infer`` pimc weighs worlds by the calls and the
cards played instead (``inference.play_weight``, ``sample_weighted_world``).
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import U, popcount, random_bit, random_float
from euchresim.engine.hand import apply_action, legal_actions, start_hand
from euchresim.engine.layout import (AWAY, BID2_PASS, CALLS, CFG_PACK, CFG_PLAYERS, DEALER, DUMMY, EXCHANGED, HAND,
                                     JOKER_SUIT, MAKER, NCALLS, NPLAYS, OUT, PH_BID1, PH_DUMMY, PH_JOKER, PHASE,
                                     PLAY_SEAT, PLAYS, PRIV_SIZE, T_EFF, TO_ACT, TRUMP, UPCARD)
from euchresim.policies.heuristic import heuristic_decide
from euchresim.policies.inference import play_weight
from euchresim.policies.search_layout import (MAX_TRIES, S_INFER, S_PLAY_INFER, WR_CAND, WR_PRIV, WR_ST, WR_ST2,
                                              WR_WORLD)
from euchresim.policies.view import dummy_taken, shown_voids


@njit(cache=True, _nrt=False)
def deal_unseen(rng, unknown, need, avoid, extra, preset, out, off, tries):
    """Deal each seat ``s`` its ``need[s]`` cards from ``unknown`` (and its ``extra``), none of its ``avoid``.

    The one way the unseen cards are dealt, by pimc's worlds and by the
    advisor's deals. The seat with the fewest cards it may hold for its need
    goes first, and each draws uniformly among the cards it may hold; a
    deal that leaves a seat short is tried again, ``tries`` times, then
    once with every ``avoid`` ignored. Seat ``s``'s hand, its ``preset``
    cards and those drawn, goes to ``out[off + s]`` (seats that need none
    are left alone). Returns (1 when every ``avoid`` held, 0 when it was
    dropped, -1 when even then the cards ran short; the cards left over).
    """
    for attempt in range(tries + 1):
        strict = attempt < tries
        rem = unknown
        ok = True
        done = np.int64(0)
        for _ in range(4):
            pick = np.int64(-1)
            slack = np.int64(1 << 20)
            for s in range(4):
                if need[s] <= 0 or (done >> s) & 1:
                    continue
                allow = rem | extra[s]
                if strict:
                    allow &= ~avoid[s]
                sl = popcount(allow) - need[s]
                if sl < slack:
                    slack = sl
                    pick = s
            if pick < 0:
                break
            done |= np.int64(1) << pick
            allow = rem | extra[pick]
            if strict:
                allow &= ~avoid[pick]
            if popcount(allow) < need[pick]:
                ok = False
                break
            h = preset[pick]
            for _ in range(need[pick]):
                c = random_bit(rng, allow)
                b = np.int64(1) << c
                h |= b
                allow &= ~b
                rem &= ~b
            out[U(off + pick)] = h
        if ok:
            return np.int64(1) if strict else np.int64(0), rem
        for s in range(4):
            if need[s] > 0:
                out[U(off + s)] = preset[s]
    return np.int64(-1), unknown


@njit(cache=True, _nrt=False)
def void_cards(st, tab, seat):
    """The cards ``seat`` cannot hold: every effective suit it failed to follow (R10, ``view.shown_voids``)."""
    suits = (shown_voids(st, tab) >> (4 * seat)) & 15
    out = np.int64(0)
    for s in range(4):
        if (suits >> s) & 1:
            out |= tab[U(T_EFF + 4 * st[TRUMP] + s)]
    return out


@njit(cache=True, _nrt=False)
def sample_world(st, hand, away, seat, tab, rng, world):
    """Deal the cards ``seat`` has not seen to the other seats, as far as it knows consistently.

    What the seat knows: its own hand and what it put away, every card
    played and by whom, the upcard (face up until the dealer takes it:
    then in the dealer's hand until played), each seat's number of cards,
    and each void shown by failing to follow (``deal_unseen``'s ``avoid``:
    after MAX_TRIES short deals they are ignored, a world the seat thinks
    impossible still being a world). Returns 1, or 0 when the voids were
    dropped.
    """
    players = tab[CFG_PLAYERS]
    played = np.int64(0)
    for k in range(st[NPLAYS]):
        played |= np.int64(1) << st[U(PLAYS + k)]
    upbit = np.int64(1) << st[UPCARD]
    dealer = st[DEALER]
    unknown = tab[CFG_PACK] & ~hand & ~away & ~played & ~upbit
    up_to_dealer = st[EXCHANGED] == 1 and seat != dealer and (played & upbit) == 0
    up_maybe = np.int64(0)          # the upcard, where only the dealer may hold it, or not: its rejects
    if up_to_dealer and dummy_taken(st, tab) and st[MAKER] == dealer:
        # a Cutthroat maker who dealt kept 5 of hand and dummy unseen: the upcard may be among the rejects
        up_to_dealer = False
        up_maybe = upbit
    need = _seat_need(st, seat, players, 0, up_to_dealer, dealer), _seat_need(st, seat, players, 1, up_to_dealer, dealer), \
        _seat_need(st, seat, players, 2, up_to_dealer, dealer), _seat_need(st, seat, players, 3, up_to_dealer, dealer)
    avoid = (void_cards(st, tab, 0), void_cards(st, tab, 1), void_cards(st, tab, 2), void_cards(st, tab, 3))
    none = np.int64(0)
    extra = (up_maybe if dealer == 0 else none, up_maybe if dealer == 1 else none,
             up_maybe if dealer == 2 else none, up_maybe if dealer == 3 else none)
    held = upbit if up_to_dealer else none
    preset = (held if dealer == 0 else none, held if dealer == 1 else none,
              held if dealer == 2 else none, held if dealer == 3 else none)
    for s in range(4):
        world[U(HAND + s)] = preset[s]
        world[U(AWAY + s)] = 0            # what the others put away is unseen (in the pool)
    world[U(HAND + seat)] = hand
    world[U(AWAY + seat)] = away
    exact, rem = deal_unseen(rng, unknown, need, avoid, extra, preset, world, np.int64(HAND), np.int64(MAX_TRIES))
    # the dummy, for a rollout that reaches the maker's keep: only while the keep is still to come
    if players == 3 and st[PHASE] <= PH_DUMMY and popcount(rem) >= 5:
        d = np.int64(0)
        for _ in range(5):
            c = random_bit(rng, rem)
            d |= np.int64(1) << c
            rem &= ~(np.int64(1) << c)
        world[DUMMY] = d
    return max(exact, np.int64(0))


@njit(cache=True, _nrt=False, inline='always')
def _seat_need(st, seat, players, s, up_to_dealer, dealer):
    """How many unseen cards seat ``s`` holds now: 5 less those it played (and the upcard the dealer took)."""
    if s >= players or s == seat or (st[OUT] >> s) & 1:
        return np.int64(0)
    n = np.int64(5)
    for k in range(st[NPLAYS]):
        if st[U(PLAY_SEAT + k)] == s:
            n -= 1
    if up_to_dealer and s == dealer:
        n -= 1
    return n


@njit(cache=True, _nrt=False)
def calls_fit(st, world, seat, tab, params, rng, ws):
    """Would ``heuristic`` have made every call the other seats made, holding the world's cards?

    The bidding is replayed from each seat's hand as dealt in the world
    (its cards now and those it has played; the dealer who took the upcard
    gives it back and gets a card of the unseen pool in its place: its
    discard, which nobody else saw), and each other seat's call is asked
    of ``heuristic``.  A Cutthroat maker who took the dummy is not asked
    (its hand as dealt cannot be told from the cards it kept).
    """
    players = tab[CFG_PLAYERS]
    if st[NCALLS] == 0:
        return True
    dealer = st[DEALER]
    upbit = np.int64(1) << st[UPCARD]
    played = np.int64(0)
    st2 = ws[WR_ST]
    priv2 = ws[WR_PRIV]
    for k in range(st[NPLAYS]):
        played |= np.int64(1) << st[U(PLAYS + k)]
    pool = tab[CFG_PACK] & ~played & ~upbit
    for s in range(players):
        pool &= ~world[U(HAND + s)] & ~world[U(AWAY + s)]
    pool &= ~world[DUMMY]
    skip = np.int64(-1)
    if dummy_taken(st, tab):
        skip = st[MAKER]
    hands = ws[WR_ST2]           # scratch: the four hands as dealt (slots 0..3)
    for s in range(4):
        h = np.int64(0)
        if s < players:
            h = world[U(HAND + s)]
            for k in range(st[NPLAYS]):
                if st[U(PLAY_SEAT + k)] == s:
                    h |= np.int64(1) << st[U(PLAYS + k)]
            if s == dealer and st[EXCHANGED] == 1:
                h &= ~upbit
                if s == seat:
                    h |= world[U(AWAY + s)]
                elif pool != 0:
                    c = random_bit(rng, pool)
                    h |= np.int64(1) << c
                    pool &= ~(np.int64(1) << c)
        hands[s] = h
    start_hand(st2, priv2, tab, dealer, hands, world[DUMMY], st[UPCARD], np.int64(0))
    if st2[PHASE] == PH_JOKER:
        apply_action(st2, priv2, tab, st[JOKER_SUIT])
    for k in range(st[NCALLS]):
        s = st2[TO_ACT]
        code = st[U(CALLS + k)]
        if st2[PHASE] == PH_BID1:
            a = np.int64(1) if code == 1 else np.int64(0)
        else:
            a = np.int64(BID2_PASS) if code == 0 else code - 2
        legal = legal_actions(st2, priv2, tab)
        if s != seat and s != skip:
            if heuristic_decide(st2, priv2[U(HAND + s)], np.int64(0), s, legal, params, tab) != a:
                return False
        if apply_action(st2, priv2, tab, a):
            return False             # pragma: no cover - the calls were legal when made
    return True


@njit(cache=True, _nrt=False)
def sample_fitting_world(st, hand, away, seat, tab, params, rng, ws):
    """``sample_world`` into ``ws[WR_WORLD]``, tried up to ``params[S_INFER]`` times for a world ``calls_fit`` accepts.

    When none fits (calls heuristic would rarely make, or other policies'
    calls), the last world sampled stands: inference narrows the worlds,
    it never leaves the seat without one. With ``play_infer`` the worlds
    are weighed instead (``sample_weighted_world``).
    """
    if params[S_PLAY_INFER] >= 1:
        return sample_weighted_world(st, hand, away, seat, tab, params, rng, ws)
    world = ws[WR_WORLD]
    tries = np.int64(params[S_INFER])
    sample_world(st, hand, away, seat, tab, rng, world)
    for _ in range(tries - 1):
        if calls_fit(st, world, seat, tab, params, rng, ws):
            return 1
        sample_world(st, hand, away, seat, tab, rng, world)
    return 0


@njit(cache=True, _nrt=False)
def sample_weighted_world(st, hand, away, seat, tab, params, rng, ws):
    """One of ``params[S_PLAY_INFER]`` candidate worlds into ``ws[WR_WORLD]``, kept with chance by ``play_weight``.

    Importance resampling, one pass (a weighted reservoir of one): the
    k-th candidate replaces the kept world with chance its weight over the
    weights so far, so each is kept with chance its share of them all,
    and only two worlds are ever held. Returns 1.
    """
    world = ws[WR_WORLD]
    cand = ws[WR_CAND]
    total = 0.0
    for i in range(np.int64(params[S_PLAY_INFER])):
        sample_world(st, hand, away, seat, tab, rng, cand)
        w = play_weight(st, cand, seat, tab, params, rng, ws)
        total += w
        if i == 0 or random_float(rng) * total < w:
            for j in range(PRIV_SIZE):
                world[j] = cand[j]
    return 1
