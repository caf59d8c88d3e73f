"""Replaying hand records in the kernels: every step checked by the state machine that simulates.

Apart from loops/hands.py because the hot loops and this replay share nothing
but the state machine (engine/hand.py), and together they made one module
past the size the project keeps.
"""
from numba import njit

from euchresim.engine.bits import lowbit
from euchresim.engine.hand import apply_action, scripted_action, start_hand
from euchresim.engine.layout import (ALONE, ERR_ALONE_UNASKED, ERR_CALLS_EXTRA, ERR_DISCARD_UNUSED, ERR_DUMMY_UNUSED, ERR_ILLEGAL, ERR_JOKER_UNUSED, ERR_PLAYS_EXTRA, HAND, JOKER_SUIT, PH_ALONE, PH_DEFEND, PH_DISCARD, PH_DONE, PH_DUMMY, PH_JOKER, PHASE, TO_ACT, NO_CARD, NO_KEEP)
from euchresim.loops.hands import new_state


@njit(cache=True)
def replay_hand(tab, dealer, hands, dummy, upcard, kitty, joker_suit, calls, alone, discard,
                keep, plays, st, priv):
    """Replay a hand record's actions, checking each (docs/hand-record.md).

    Returns (error code, phase, step): step is the index into ``calls`` or
    ``plays`` where that applies, or the seat for an alone error. Each
    action is the script's by ``engine.hand.scripted_action``, as every other
    walk of a record reads it; what only a check needs (the fields left
    unused, the alone calls never asked) is counted here.
    """
    start_hand(st, priv, tab, dealer, hands, dummy, upcard, kitty)
    ci = 0
    pi = 0
    asked = 0
    used_discard = False
    used_keep = False
    used_joker = False
    alone_checked = False
    while st[PHASE] != PH_DONE:
        ph = st[PHASE]
        seat = st[TO_ACT]
        a, step, ci, pi = scripted_action(ph, seat, priv[HAND + seat], joker_suit, calls, alone, discard, keep,
                                          plays, ci, pi)
        if a < 0:
            return -a, ph, step
        if ph == PH_JOKER:
            used_joker = True
        elif ph == PH_ALONE or ph == PH_DEFEND:
            asked |= 1 << seat
        elif ph == PH_DISCARD:
            used_discard = True
        elif ph == PH_DUMMY:
            used_keep = True
        if apply_action(st, priv, tab, a):
            return ERR_ILLEGAL, ph, step
        if not alone_checked and st[PHASE] >= PH_DISCARD:
            alone_checked = True            # the asking is over (C1): every `alone` seat said yes
            extra = alone & ~(asked & st[ALONE])
            if extra:
                return ERR_ALONE_UNASKED, PH_ALONE, lowbit(extra)
    if ci < calls.shape[0]:
        return ERR_CALLS_EXTRA, PH_DONE, ci
    if pi < plays.shape[0]:
        return ERR_PLAYS_EXTRA, PH_DONE, pi
    if not alone_checked and alone:
        return ERR_ALONE_UNASKED, PH_DONE, lowbit(alone)
    if discard != NO_CARD and not used_discard:
        return ERR_DISCARD_UNUSED, PH_DONE, -1
    if keep != NO_KEEP and not used_keep:
        return ERR_DUMMY_UNUSED, PH_DONE, -1
    if joker_suit >= 0 and not used_joker and joker_suit != st[JOKER_SUIT]:
        return ERR_JOKER_UNUSED, PH_DONE, -1
    return 0, PH_DONE, -1


@njit(cache=True)
def replay_hands(tab, dealer, hands, dummy, upcard, kitty, joker_suit, calls, call_at, alone, discard,
                 keep, plays, play_at, found, states, held):
    """Replay many hand records that share one set of rules, in one call.

    A call per record cost more than the replay itself (argument checks,
    fresh state arrays).  Record ``i``'s calls are ``calls[call_at[i]:
    call_at[i + 1]]`` and its plays likewise; the other arguments are one
    entry (a row of ``hands``) per record, -1 where ``replay_hand`` takes -1.
    ``found[i]`` gets replay_hand's (error code, phase, step) and
    ``states[i]`` the state the replay stopped in: the outcome, or where it
    went wrong; ``held[i]`` each seat's cards there, as the engine holds
    them (the exchange, the dummy keep and the plays applied), when
    ``held`` has rows (a solver's position needs them; no other caller).
    """
    st, priv, _ = new_state()
    for i in range(dealer.shape[0]):
        code, ph, step = replay_hand(tab, dealer[i], hands[i], dummy[i], upcard[i], kitty[i], joker_suit[i],
                                     calls[call_at[i]:call_at[i + 1]], alone[i], discard[i], keep[i],
                                     plays[play_at[i]:play_at[i + 1]], st, priv)
        found[i, 0] = code
        found[i, 1] = ph
        found[i, 2] = step
        states[i, :] = st
        if held.shape[0] > i:
            for s in range(4):
                held[i, s] = priv[HAND + s]
