"""One hand of euchre as a state machine: start, legal actions, apply.

Phases follow docs/choices.md C1: joker suit (R7) -> round one (R5) ->
round two (R6) -> maker alone (R8, R9) -> defender alone (R8, R9) ->
dealer's exchange (R5) -> Cutthroat dummy (R9) -> play (R10) -> score (R11).
A loop calls ``legal_actions`` / ``apply_action`` and asks a policy for
each decision, so the same machine serves simulation, the replay of a hand
record, and the search bots, which start from any point of a hand.
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import U, popcount
from euchresim.engine.layout import (ALONE, ASKED, AWAY, BEST_POWER, BEST_SEAT, BID2_PASS, BIDSUIT, CALL_ORDER, CALL_PASS, CALL_SUIT0, CALLS, CALLS_END, CFG_BOTH_LEAD, CFG_DEFEND, CFG_JOKER_MODE, CFG_PLAYERS, CFG_STICK, DEAL, DEAL_DUMMY, DEALER, DISCARD, DUMMY, DUMMY_KEEP, ERR, ERR_ARG, ERR_ILLEGAL, ERR_NOT_HELD, ERR_SCRIPT_KIND, ERR_SCRIPT_SHORT, EXCHANGED, FIRST_LEADER, HAND, JOKER_DEALER_NAMES, JOKER_REDEAL, JOKER_SUIT, KITTY, LED, LEADER, MAKER, MAKER_TRICKS, NACTIVE, NO_CARD, NO_KEEP, NCALLS, NINTRICK, NPLAYS, OUT, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DONE, PH_DUMMY, PH_JOKER, PH_PLAY, PHASE, PLAY_SEAT, PLAY_SEAT_END, PLAYS, PLAYS_END, POINTS, PRIV_STATE, REDEAL, ROUND, SC_ALONE, SC_ALONE_VS_DEFENDER, SC_CUTTHROAT, SC_CUTTHROAT_DEFENDER, SC_PARTNERSHIP, SC_TWO_HAND, ST_KEEP, ST_KEEP_END, ST_SIZE, T_EFF, T_NEXT, T_POWER, T_SCORE, T_SUIT_OF, THROWN_IN, TO_ACT, TRICK, TRICK_WINNER, TRICK_WINNER_END, TRICKS, TRUMP, UPCARD)

from euchresim.cards import JOKER  # noqa: E402  (the one definition)


@njit(cache=True, _nrt=False, inline='always')
def next_active(st, tab, seat):
    """R10: the next seat clockwise that does not sit out (a table lookup)."""
    return tab[U(T_NEXT + 4 * st[OUT] + seat)]


@njit(cache=True, _nrt=False)
def start_hand(st, priv, tab, dealer, hands, dummy, upcard, kitty):
    """Lay a deal out and open the bidding (R4, R5, R7).

    Every slot of ``st`` and ``priv``'s state is reset, whatever
    engine.layout declares, except the game score (``st[ST_KEEP:ST_KEEP_END]``),
    which the caller sets.
    """
    players = tab[CFG_PLAYERS]
    st[:ST_KEEP] = 0
    st[ST_KEEP_END:ST_SIZE] = 0
    st[CALLS:CALLS_END] = -1
    st[PLAYS:PLAYS_END] = -1
    st[PLAY_SEAT:PLAY_SEAT_END] = -1
    st[TRICK_WINNER:TRICK_WINNER_END] = -1
    priv[:PRIV_STATE] = 0
    st[DEALER] = dealer
    st[UPCARD] = upcard
    st[JOKER_SUIT] = -1
    st[MAKER] = -1
    st[TRUMP] = -1
    st[FIRST_LEADER] = -1
    for s in range(4):
        h = hands[s] if s < players else np.int64(0)
        priv[U(HAND + s)] = h
        priv[DEAL + s] = h
    priv[DUMMY] = dummy
    priv[DEAL_DUMMY] = dummy
    priv[KITTY] = kitty
    priv[DISCARD] = NO_CARD
    priv[DUMMY_KEEP] = NO_KEEP
    st[TO_ACT] = tab[U(T_NEXT + dealer)]      # nobody sits out yet: the next seat
    st[PHASE] = PH_BID1
    if upcard == JOKER:
        mode = tab[CFG_JOKER_MODE]
        if mode == JOKER_REDEAL:            # R7 redeal: thrown in at once
            st[THROWN_IN] = 1
            st[REDEAL] = 1
            st[PHASE] = PH_DONE
            st[TO_ACT] = -1
        elif mode == JOKER_DEALER_NAMES:    # R7 default: the dealer names a suit
            st[PHASE] = PH_JOKER
            st[TO_ACT] = dealer
        else:                               # R7 fixed suit
            st[JOKER_SUIT] = mode
            st[BIDSUIT] = mode
    else:
        st[BIDSUIT] = upcard >> 3


@njit(cache=True, _nrt=False, inline='always')
def legal_actions(st, priv, tab):
    """What the seat to act may do: a mask of action codes, or a board of cards."""
    ph = st[PHASE]
    seat = st[TO_ACT]
    if ph == PH_PLAY:
        hand = priv[U(HAND + seat)]
        if st[NINTRICK] == 0:
            return hand
        follow = hand & tab[U(T_EFF + 4 * st[TRUMP] + st[LED])]   # R10 follow suit (R2 bowers moved)
        return follow if follow else hand
    if ph == PH_BID1 or ph == PH_ALONE or ph == PH_DEFEND:
        return np.int64(3)
    if ph == PH_BID2:
        m = np.int64(15) & ~(np.int64(1) << st[BIDSUIT])       # R6: not the turned-down suit
        if not (tab[CFG_STICK] and seat == st[DEALER]):       # R6 stick the dealer
            m |= np.int64(1) << BID2_PASS
        return m
    if ph == PH_DISCARD:
        return priv[U(HAND + seat)] | (np.int64(1) << st[UPCARD])
    if ph == PH_DUMMY:
        return priv[U(HAND + seat)] | priv[DUMMY]
    if ph == PH_JOKER:
        return np.int64(15)
    return np.int64(0)


@njit(cache=True, _nrt=False)
def _after_trump(st, tab, maker, trump, rnd):
    st[MAKER] = maker
    st[TRUMP] = trump
    st[ROUND] = rnd
    if tab[CFG_PLAYERS] == 2:          # no lone hands in the 2-hand game
        _after_defend(st, tab)
    else:
        st[PHASE] = PH_ALONE
        st[TO_ACT] = maker


@njit(cache=True, _nrt=False, inline='always')
def _defender(st, players, k):
    """The k-th defender (1 or 2) clockwise from the maker's left (C1)."""
    m = st[MAKER]
    if players == 4:
        return (m + 1) & 3 if k == 1 else (m + 3) & 3
    d = m + k
    return d - 3 if d >= 3 else d


@njit(cache=True, _nrt=False)
def _after_alone(st, tab):
    players = tab[CFG_PLAYERS]
    maker_alone = (st[ALONE] >> st[MAKER]) & 1
    if players == 3 or (players == 4 and tab[CFG_DEFEND] and maker_alone):
        st[PHASE] = PH_DEFEND
        st[ASKED] = 1
        st[TO_ACT] = _defender(st, players, 1)
    else:
        _after_defend(st, tab)


@njit(cache=True, _nrt=False)
def _after_defend(st, tab):
    dealer = st[DEALER]
    if st[ROUND] == 1 and not (st[OUT] >> dealer) & 1:   # C1/C2: dealer exchange
        st[PHASE] = PH_DISCARD
        st[TO_ACT] = dealer
    else:
        _after_discard(st, tab)


@njit(cache=True, _nrt=False)
def _after_discard(st, tab):
    if tab[CFG_PLAYERS] == 3 and not (st[ALONE] >> st[MAKER]) & 1:   # R9 dummy
        st[PHASE] = PH_DUMMY
        st[TO_ACT] = st[MAKER]
    else:
        _start_play(st, tab)


@njit(cache=True, _nrt=False)
def first_leader(st, tab):
    """R10 / C5: who makes the opening lead."""
    players = tab[CFG_PLAYERS]
    dealer = st[DEALER]
    if players != 3 or st[ALONE] == 0:
        return next_active(st, tab, dealer)
    maker = st[MAKER]
    maker_alone = (st[ALONE] >> maker) & 1
    lone_def = -1
    for s in range(3):
        if s != maker and (st[ALONE] >> s) & 1:
            lone_def = s
    if maker_alone and lone_def >= 0:
        anchor = maker if tab[CFG_BOTH_LEAD] == 1 else lone_def
    elif maker_alone:
        anchor = maker
    else:
        anchor = lone_def
    return next_active(st, tab, anchor)


@njit(cache=True, _nrt=False)
def _start_play(st, tab):
    players = tab[CFG_PLAYERS]
    st[NACTIVE] = players - popcount(st[OUT])
    lead = first_leader(st, tab)
    st[FIRST_LEADER] = lead
    st[LEADER] = lead
    st[TO_ACT] = lead
    st[PHASE] = PH_PLAY


@njit(cache=True, _nrt=False)
def score_hand(st, tab):
    """R11: points per seat from the scoring table (C6 for who shows them)."""
    players = tab[CFG_PLAYERS]
    maker = st[MAKER]
    if players == 4:
        mt = st[U(TRICKS + maker)] + st[U(TRICKS + ((maker + 2) & 3))]
        if (st[ALONE] >> maker) & 1:
            case = SC_ALONE_VS_DEFENDER if popcount(st[ALONE]) == 2 else SC_ALONE
        else:
            case = SC_PARTNERSHIP
    elif players == 2:
        mt = st[U(TRICKS + maker)]
        case = SC_TWO_HAND
    else:
        mt = st[U(TRICKS + maker)]
        case = SC_CUTTHROAT_DEFENDER if st[ALONE] & ~(np.int64(1) << maker) else SC_CUTTHROAT
    mk = tab[U(T_SCORE + 12 * (case) + 2 * (mt) + (0))]
    df = tab[U(T_SCORE + 12 * (case) + 2 * (mt) + (1))]
    for s in range(players):
        on_makers = s == maker or (players == 4 and s == (maker + 2) & 3)
        st[U(POINTS + s)] = mk if on_makers else df
    st[MAKER_TRICKS] = mt


@njit(cache=True, _nrt=False, inline='always')
def call_action(ph, call):
    """A record's call (C9: 0 pass, 1 order, 2 + suit) as the action code of bidding round ``ph``; -1 for a
    call that is none of that round's. The one translation: ``scripted_action`` reads a record's calls
    through it for every walk of a record."""
    if call == CALL_PASS:
        return np.int64(0) if ph == PH_BID1 else np.int64(BID2_PASS)
    if ph == PH_BID1 and call == CALL_ORDER:
        return np.int64(1)
    if ph == PH_BID2 and call >= CALL_SUIT0:
        return np.int64(call - CALL_SUIT0)
    return np.int64(-1)


@njit(cache=True, _nrt=False)
def scripted_action(ph, seat, held, joker_suit, calls, alone, discard, keep, plays, ci, pi):
    """The action a hand's script says ``seat`` takes now, in phase ``ph``, ``ci`` calls and ``pi`` plays of it used.

    The script is the hand so far as a record writes it (docs/hand-record.md):
    ``calls`` (C9), the ``alone`` seat mask, the dealer's ``discard``
    (NO_CARD: none), the Cutthroat dummy ``keep`` (NO_KEEP: none), ``plays``
    and the named ``joker_suit`` (-1: none). Returns (action, step, ci, pi):
    the cursors past the entry read (one read counts as used even when it is
    wrong, so a caller's count says where the fault is); ``step`` the index
    into ``calls`` or ``plays`` of the entry read or missing, the seat for an
    alone call, else -1. An action below 0 is the fault, the engine's code
    negated: -ERR_SCRIPT_SHORT (nothing left for the decision),
    -ERR_SCRIPT_KIND (a call of the other round), -ERR_NOT_HELD (a card
    ``held`` lacks; -1 holds every card, for a caller that leaves the check
    to the engine).

    One function because the replay of records (``loops.replay_kernels``),
    the advisor's sampler (``loops.advisor_kernels``), inference
    (``policies.inference``) and ``engine.state.Hand`` all walk a record
    through the state machine, and a walk that read one field otherwise
    would check, sample and tell a different hand than the one recorded.
    Not inlined: one compile for every caller.
    """
    if ph == PH_JOKER:
        return (np.int64(joker_suit) if joker_suit >= 0 else np.int64(-ERR_SCRIPT_SHORT)), np.int64(-1), ci, pi
    if ph == PH_BID1 or ph == PH_BID2:
        if ci >= calls.shape[0]:
            return np.int64(-ERR_SCRIPT_SHORT), np.int64(ci), ci, pi
        a = call_action(ph, calls[ci])
        return (a if a >= 0 else np.int64(-ERR_SCRIPT_KIND)), np.int64(ci), ci + 1, pi
    if ph == PH_ALONE or ph == PH_DEFEND:
        return np.int64((alone >> seat) & 1), np.int64(seat), ci, pi
    if ph == PH_DISCARD:
        return (np.int64(discard) if discard != NO_CARD else np.int64(-ERR_SCRIPT_SHORT)), np.int64(-1), ci, pi
    if ph == PH_DUMMY:
        return (np.int64(keep) if keep != NO_KEEP else np.int64(-ERR_SCRIPT_SHORT)), np.int64(-1), ci, pi
    if pi >= plays.shape[0]:
        return np.int64(-ERR_SCRIPT_SHORT), np.int64(pi), ci, pi
    a = np.int64(plays[pi])
    return (a if (held >> a) & 1 else np.int64(-ERR_NOT_HELD)), np.int64(pi), ci, pi + 1


@njit(cache=True, _nrt=False, inline='always')
def _illegal(st, a):
    st[ERR] = ERR_ILLEGAL
    st[ERR_ARG] = a
    return ERR_ILLEGAL


@njit(cache=True, _nrt=False)
def apply_action(st, priv, tab, a):
    """Carry out the seat-to-act's action ``a``; an illegal one sets st[ERR]."""
    return apply_legal(st, priv, tab, a, legal_actions(st, priv, tab))


@njit(cache=True, _nrt=False, inline='always')
def apply_legal(st, priv, tab, a, legal):
    """``apply_action`` when the caller already has ``legal_actions``."""
    ph = st[PHASE]
    seat = st[TO_ACT]
    players = tab[CFG_PLAYERS]
    if ph == PH_DUMMY:
        if (a & ~legal) != 0 or popcount(a) != 5:
            return _illegal(st, a)
    elif a < 0 or a > 32 or not (legal >> a) & 1:
        return _illegal(st, a)

    if ph == PH_PLAY:
        bit = np.int64(1) << a
        priv[U(HAND + seat)] &= ~bit
        n = st[NPLAYS]
        st[U(PLAYS + n)] = a
        st[U(PLAY_SEAT + n)] = seat
        st[NPLAYS] = n + 1
        trump = st[TRUMP]
        # written without data-dependent branches (selects): in random play
        # "does this card win?" is a coin toss a branch predictor loses
        lead = st[NINTRICK] == 0
        led = tab[U(T_SUIT_OF + 33 * trump + a)] if lead else st[LED]   # R7/C4: a led joker calls for trump
        st[LED] = led
        p = tab[U(T_POWER + 132 * trump + 33 * led + a)]
        better = lead or p > st[BEST_POWER]
        st[BEST_SEAT] = seat if better else st[BEST_SEAT]
        st[BEST_POWER] = p if better else st[BEST_POWER]
        st[NINTRICK] += 1
        if st[NINTRICK] == st[NACTIVE]:        # trick complete (R10)
            w = st[BEST_SEAT]
            st[U(TRICK_WINNER + st[TRICK])] = w
            st[U(TRICKS + w)] += 1
            st[TRICK] += 1
            st[NINTRICK] = 0
            st[LEADER] = w
            st[TO_ACT] = w
            if st[TRICK] == 5:
                score_hand(st, tab)
                st[PHASE] = PH_DONE
                st[TO_ACT] = -1
        else:
            st[TO_ACT] = next_active(st, tab, seat)
    elif ph == PH_BID1:
        k = st[NCALLS]
        st[U(CALLS + k)] = CALL_ORDER if a == 1 else CALL_PASS
        st[NCALLS] = k + 1
        if a == 1:
            _after_trump(st, tab, seat, st[BIDSUIT], 1)
        elif k + 1 == players:
            st[PHASE] = PH_BID2
            st[TO_ACT] = tab[U(T_NEXT + st[DEALER])]
        else:
            st[TO_ACT] = tab[U(T_NEXT + seat)]
    elif ph == PH_BID2:
        k = st[NCALLS]
        st[U(CALLS + k)] = CALL_PASS if a == BID2_PASS else CALL_SUIT0 + a
        st[NCALLS] = k + 1
        if a != BID2_PASS:
            _after_trump(st, tab, seat, a, 2)
        elif k + 1 == 2 * players:               # R6: all passed twice, thrown in
            st[THROWN_IN] = 1
            st[PHASE] = PH_DONE
            st[TO_ACT] = -1
        else:
            st[TO_ACT] = tab[U(T_NEXT + seat)]
    elif ph == PH_ALONE:
        if a == 1:
            st[ALONE] |= np.int64(1) << seat
            if players == 4:                       # R8: partner sits out
                st[OUT] |= np.int64(1) << ((seat + 2) & 3)
        _after_alone(st, tab)
    elif ph == PH_DEFEND:
        if a == 1:
            st[ALONE] |= np.int64(1) << seat
            if players == 4:
                partner = (seat + 2) & 3
            else:
                partner = 3 - st[MAKER] - seat       # R9: the other defender
            st[OUT] |= np.int64(1) << partner
            _after_defend(st, tab)
        elif st[ASKED] == 2:
            _after_defend(st, tab)
        else:
            st[ASKED] = 2
            st[TO_ACT] = _defender(st, players, 2)
    elif ph == PH_DISCARD:
        priv[U(HAND + seat)] = legal & ~(np.int64(1) << a)
        priv[U(AWAY + seat)] |= np.int64(1) << a
        priv[DISCARD] = a
        st[EXCHANGED] = 1 if a != st[UPCARD] else 0
        _after_discard(st, tab)
    elif ph == PH_DUMMY:
        priv[U(HAND + seat)] = a
        priv[U(AWAY + seat)] |= legal & ~a
        priv[DUMMY_KEEP] = a
        _start_play(st, tab)
    elif ph == PH_JOKER:
        st[JOKER_SUIT] = a
        st[BIDSUIT] = a
        st[PHASE] = PH_BID1
        st[TO_ACT] = tab[U(T_NEXT + st[DEALER])]
    return 0
