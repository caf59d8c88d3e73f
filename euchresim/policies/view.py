"""What a seat can see, by name: jitted accessors for policy authors.

A policy gets the public state ``st``, its own cards and the rule tables
``tab`` as flat int64 arrays (docs/policies.md); these read them so that a
policy never writes an offset (``tab[T_ORDER + 33 * st[TRUMP] + c]``) or
a slot of ``st`` by hand, and so that the offsets stay the engine's
business.  Each is a small numba function, inlined where it is called:
use them freely inside ``@user_policy`` functions (or from Python, to try
one on a state).  Cards are indexes 0..32 (``8 * suit + rank``, the joker
32) and sets of cards are boards (bit ``c`` set for card ``c``).
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import U, highest_by, lowest_by
from euchresim.engine.layout import (ALONE, BEST_SEAT, CFG_PACK, CFG_PLAYERS, LED, MAKER, NACTIVE, NINTRICK, NPLAYS, PHASE, PH_DUMMY, PLAYS, PLAY_SEAT, TRUMP, T_EFF, T_ORDER, T_POWER, T_SUIT_OF, UPCARD)


@njit(cache=True, _nrt=False, inline='always')
def trump(st):
    """The trump suit 0..3 (C D H S), or -1 while it is not yet made."""
    return st[TRUMP]


@njit(cache=True, _nrt=False, inline='always')
def players(tab):
    """The number of players, 2..4."""
    return tab[CFG_PLAYERS]


@njit(cache=True, _nrt=False, inline='always')
def leading(st):
    """True when the seat to play leads the trick (no card on the table yet)."""
    return st[NINTRICK] == 0


@njit(cache=True, _nrt=False, inline='always')
def led_suit(st):
    """The effective suit led to the current trick (a led left bower or joker is trump), -1 when leading."""
    return np.int64(-1) if st[NINTRICK] == 0 else st[LED]


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def trick_cards(st):
    """Board of the cards on the table in the current trick."""
    b = np.int64(0)
    n = st[NPLAYS]
    for k in range(n - st[NINTRICK], n):
        b |= np.int64(1) << st[U(PLAYS + k)]
    return b


@njit(cache=True, _nrt=False, inline='always')
def trick_card(st, k):
    """The k-th card played to the current trick (0 the lead) and its seat: (card, seat); (-1, -1) if none."""
    if k < 0 or k >= st[NINTRICK]:
        return np.int64(-1), np.int64(-1)
    i = st[NPLAYS] - st[NINTRICK] + k
    return st[U(PLAYS + i)], st[U(PLAY_SEAT + i)]


@njit(cache=True, _nrt=False, inline='always')
def winning_seat(st):
    """The seat winning the current trick so far (-1 when leading)."""
    return np.int64(-1) if st[NINTRICK] == 0 else st[BEST_SEAT]


@njit(cache=True, _nrt=False, inline='always')
def teammate(st, seat, players):
    """``seat``'s side-mate this hand with ``players`` at the table: the partner with 4 players, the
    other defender in Cutthroat; else -1 (2 players, a Cutthroat maker, no maker yet)."""
    if players == 4:
        return (seat + 2) & 3
    if players == 3 and st[MAKER] >= 0 and seat != st[MAKER]:
        return 3 - st[MAKER] - seat
    return np.int64(-1)


@njit(cache=True, _nrt=False, inline='always')
def partner(st, seat, tab):
    """``seat``'s side-mate this hand: the partner with 4 players, the other defender in Cutthroat; else -1."""
    return teammate(st, seat, tab[CFG_PLAYERS])


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def shown_voids(st, tab):
    """Bit ``4 * seat + suit`` set when ``seat`` failed to follow that effective suit (R10): it holds none.

    What every seat has seen; the one place the rule is read off the plays.
    """
    t = st[TRUMP]
    voids = np.int64(0)
    if t < 0:
        return voids
    nact = st[NACTIVE]
    led = np.int64(0)
    for i in range(st[NPLAYS]):
        suit = tab[U(T_SUIT_OF + 33 * t + st[U(PLAYS + i)])]
        if i % nact == 0:
            led = suit
        elif suit != led:
            voids |= np.int64(1) << (4 * st[U(PLAY_SEAT + i)] + led)
    return voids


@njit(cache=True, _nrt=False, inline='always')
def dummy_taken(st, tab):
    """True once a Cutthroat maker has taken the dummy (R9): its hand since is five of ten, chosen unseen.

    Public: every seat sees that the maker did not go alone and that the
    keep is over; which five it kept only the maker knows.
    """
    maker = st[MAKER]
    return (tab[CFG_PLAYERS] == 3 and maker >= 0 and (st[ALONE] >> maker) & 1 == 0
            and st[PHASE] > PH_DUMMY)


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def played_cards(st):
    """Board of every card played so far this hand."""
    b = np.int64(0)
    for k in range(st[NPLAYS]):
        b |= np.int64(1) << st[U(PLAYS + k)]
    return b


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def cards_unseen(st, hand, away, tab):
    """Board of the pack's cards this seat has not seen: not in its hand, not put away by it, not played, not the upcard."""
    return tab[CFG_PACK] & ~hand & ~away & ~played_cards(st) & ~(np.int64(1) << st[UPCARD])


@njit(cache=True, _nrt=False, inline='always')
def suit_cards(cards, suit, t, tab):
    """The cards of ``cards`` whose effective suit is ``suit`` with ``t`` trump (the left bower and joker are trump, R2)."""
    return cards & tab[U(T_EFF + 4 * t + suit)]


@njit(cache=True, _nrt=False, inline='always')
def card_order(card, t, tab):
    """A card's strength with ``t`` trump, ignoring the lead: every trump above every other card (R2)."""
    return tab[U(T_ORDER + 33 * t + card)]


@njit(cache=True, _nrt=False, inline='always')
def card_power(card, t, led, tab):
    """A card's trick-taking power with ``t`` trump and suit ``led`` led: 0 cannot win (R2, R10)."""
    return tab[U(T_POWER + 132 * t + 33 * led + card)]


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def cheapest(cards, t, tab):
    """The card of ``cards`` with the lowest ``card_order`` (ties the lowest index); -1 when empty."""
    return lowest_by(cards, tab, T_ORDER + 33 * t)


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def strongest(cards, t, tab):
    """The card of ``cards`` with the highest ``card_order`` (ties the lowest index); -1 when empty."""
    return highest_by(cards, tab, T_ORDER + 33 * t)
