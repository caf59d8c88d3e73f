"""How likely a sampled world made the hand so far: pimc's inference from the calls *and* the cards played.

``calls_fit`` (sampler.py) accepts or rejects a world by the calls alone.
The cards a seat plays say as much about the cards it holds (a seat that
ducks with the right bower in a world was probably not dealt it), so
``play_weight`` replays the whole hand in the world and weighs it by how
likely the other seats' decisions seen were under a model of them:
heuristic, softened, since nobody plays exactly as heuristic does (and a
world in which one decision is not heuristic's must keep some weight).
Each decision seen with ``k`` legal options counts ``1 - eps`` when
heuristic would have taken it and ``eps / (k - 1)`` when not (policy-based
inference, as Rebstock et al. 2019 for Skat; Buro et al. 2009).
``sampler.sample_weighted_world`` keeps one of several candidate worlds
with chance proportional to this weight (importance resampling).
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import U, lowbit, popcount, random_bit
from euchresim.engine.hand import apply_legal, legal_actions, scripted_action, start_hand
from euchresim.engine.layout import (ALONE, AWAY, CALLS, CFG_PACK,
                                     CFG_PLAYERS, DEALER, DUMMY, EXCHANGED, HAND, JOKER_SUIT, MAKER, NCALLS,
                                     NO_CARD, NO_KEEP, NPLAYS, OUT, PH_DISCARD, PH_DONE, PH_JOKER, PHASE,
                                     PLAY_SEAT, PLAYS, TO_ACT, UPCARD)
from euchresim.policies.heuristic import heuristic_decide
from euchresim.policies.search_layout import S_INFER_EPS, WR_PRIV, WR_ST, WR_ST2
from euchresim.policies.view import dummy_taken

MAX_STEPS = 64      # more decisions than a hand has: a bound on the replay, whatever the state


@njit(cache=True, _nrt=False)
def deal_of_world(st, world, seat, tab, rng, hands):
    """The hands the world's seats were dealt, into ``hands[0..3]``; returns the dealer's discard (-1: none known).

    A seat's cards now and those it has played; the dealer who took the
    upcard gives it back and gets its discard: the seat's own when it
    dealt, else a card of the unseen pool (nobody else saw it). A seat
    that sits out holds no unseen cards in the world: it is dealt five of
    the pool here, since its calls before it sat out are replayed.
    """
    players = tab[CFG_PLAYERS]
    dealer = st[DEALER]
    upbit = np.int64(1) << st[UPCARD]
    played = np.int64(0)
    for k in range(st[NPLAYS]):
        played |= np.int64(1) << st[U(PLAYS + k)]
    pool = tab[CFG_PACK] & ~played & ~upbit & ~world[DUMMY]
    for s in range(players):
        pool &= ~world[U(HAND + s)] & ~world[U(AWAY + s)]
    disc = np.int64(-1)
    for s in range(4):
        h = np.int64(0)
        if s < players:
            h = world[U(HAND + s)]
            for k in range(st[NPLAYS]):
                if st[U(PLAY_SEAT + k)] == s:
                    h |= np.int64(1) << st[U(PLAYS + k)]
            if s != seat and (st[OUT] >> s) & 1:
                for _ in range(5 - popcount(h)):
                    if pool != 0:
                        c = random_bit(rng, pool)
                        h |= np.int64(1) << c
                        pool &= ~(np.int64(1) << c)
            if s == dealer and st[EXCHANGED] == 1:
                h &= ~upbit
                if s == seat:
                    if popcount(world[U(AWAY + s)]) == 1:
                        disc = lowbit(world[U(AWAY + s)])
                elif pool != 0:
                    disc = random_bit(rng, pool)
                    pool &= ~(np.int64(1) << disc)
                if disc >= 0:
                    h |= np.int64(1) << disc
        hands[s] = h
    if st[EXCHANGED] == 0:
        disc = st[UPCARD]          # the dealer turned the upcard down in the exchange, or none was made
    return disc


@njit(cache=True, _nrt=False)
def play_weight(st, world, seat, tab, params, rng, ws):
    """How likely the other seats' calls and plays so far were in ``world``, heuristic softened by ``infer_eps``.

    The hand is replayed from the world's deal up to ``st``; each decision
    of a seat other than ``seat`` with more than one legal option is asked
    of heuristic, the action being the one ``engine.hand.scripted_action``
    reads off ``st`` (as every walk of a record reads it). Not weighed: the joker's suit, the dealer's discard
    (unseen), and a Cutthroat maker who took the dummy (its hand as dealt
    cannot be told from the five it kept: the replay stops at the keep,
    the calls weighed). A world in which a card seen could not have been
    played (a void dropped by the sampler) counts ``eps`` more, once.
    """
    eps = params[S_INFER_EPS]
    if st[NCALLS] == 0:
        return 1.0
    st2 = ws[WR_ST]
    priv2 = ws[WR_PRIV]
    hands = ws[WR_ST2]
    disc = deal_of_world(st, world, seat, tab, rng, hands)
    start_hand(st2, priv2, tab, st[DEALER], hands, world[DUMMY], st[UPCARD], np.int64(0))
    skip = st[MAKER] if dummy_taken(st, tab) else np.int64(-1)
    discard = disc if skip < 0 else np.int64(NO_CARD)     # none once a maker took the dummy: the replay stops
    calls = st[CALLS:CALLS + st[NCALLS]]
    plays = st[PLAYS:PLAYS + st[NPLAYS]]
    w = 1.0
    for _ in range(MAX_STEPS):
        ph = st2[PHASE]
        if ph == PH_DONE or (ph == st[PHASE] and st2[TO_ACT] == st[TO_ACT] and st2[NCALLS] == st[NCALLS]
                             and st2[NPLAYS] == st[NPLAYS]):
            break
        s = st2[TO_ACT]
        legal = legal_actions(st2, priv2, tab)
        # the replay's own counts are the cursors; an action the hand so far does not say ends the replay
        a, _, _, _ = scripted_action(ph, s, np.int64(-1), st[JOKER_SUIT], calls, st[ALONE], discard,
                                     np.int64(NO_KEEP), plays, st2[NCALLS], st2[NPLAYS])
        if a < 0:
            break
        if ph != PH_JOKER and ph != PH_DISCARD:
            k = popcount(legal)
            if s != seat and s != skip and k > 1 and (legal >> a) & 1:
                h = heuristic_decide(st2, priv2[U(HAND + s)], priv2[U(AWAY + s)], s, legal, params, tab)
                w *= (1.0 - eps) if h == a else eps / (k - 1)
        if apply_legal(st2, priv2, tab, a, legal):
            w *= eps
            break
    return w
