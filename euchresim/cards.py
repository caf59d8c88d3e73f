"""Cards as bits, and their text form for people (R1).

A card is an integer index; a set of cards (a hand, a pack, a kitty) is an
int64 *board* with one bit per card::

    bit = 8 * suit + rank            joker = bit 32

    suit:  C=0  D=1  H=2  S=3        rank:  7=0 8=1 9=2 T=3 J=4 Q=5 K=6 A=7

    bit  31 ............ 24 23 ............ 16 15 ............. 8 7 .............. 0
         A K Q J T 9 8 7    A K Q J T 9 8 7    A K Q J T 9 8 7   A K Q J T 9 8 7
         spades             hearts             diamonds          clubs

Same-colour suits are ``suit`` and ``3 - suit`` (C<->S, D<->H), which is how
the left bower is found (R2).  A pack (R1) is a board too: deck 24 keeps ranks
9..A, 32 keeps every rank, 25 and 33 add the joker.

Text lives here, never in kernels: ``parse_card("10h") == card("TH")``.
"""
from __future__ import annotations

from typing import Iterable

SUITS = "CDHS"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")     # the suits as a player calls them, in SUITS order
RANKS = "789TJQKA"
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
RANK_9, RANK_J, RANK_A = 2, 4, 7
JOKER = 32
NCARDS = 33
# "none" where a card index or a board of cards is kept (the state, the hand rows, the kernels' scripts)
NO_CARD = -1        # a card slot left empty (the dealer's discard when there was no exchange): no index is -1
NO_KEEP = 0         # the Cutthroat dummy keep when there was none: no board of 5 cards is empty
DECKS = (24, 25, 32, 33)


class CardError(ValueError):
    """A card string that names no card, or a card not in the chosen pack."""


def card_index(suit: int, rank: int) -> int:
    return 8 * suit + rank


def suit_of(card: int) -> int:
    """Printed suit; the joker has none (-1)."""
    return -1 if card == JOKER else card >> 3


def same_colour(suit: int) -> int:
    return 3 - suit


def pack_mask(deck: int) -> int:
    """The board of every card in a pack of ``deck`` cards (R1)."""
    if deck not in DECKS:
        raise CardError(f"deck {deck} is not one of 24, 25, 32, 33 (R1)")
    low_rank = 0 if deck >= 32 else RANK_9
    mask = 0
    for suit in range(4):
        for rank in range(low_rank, 8):
            mask |= 1 << card_index(suit, rank)
    if deck in (25, 33):
        mask |= 1 << JOKER
    return mask


def has_joker(deck: int) -> bool:
    return deck in (25, 33)


def card_str(card: int) -> str:
    if card == JOKER:
        return "JK"
    if not 0 <= card < 32:
        raise CardError(f"card index {card} is out of range 0..32")
    return RANKS[card & 7] + SUITS[card >> 3]


# the suit signs people write (and ``show --suits symbols`` prints), black and white alike
SUIT_SYMBOLS = {"\u2663": "C", "\u2667": "C", "\u2666": "D", "\u2662": "D", "\u2665": "H", "\u2661": "H",
                "\u2660": "S", "\u2664": "S"}


def parse_card(text: str, deck: int | None = None) -> int:
    """Card index from ``"TH"``, ``"10h"``, ``"jk"``, ``"J\u2665"``; checks the pack if given."""
    if not isinstance(text, str):
        raise CardError(f"{text!r} is not a card string")
    s = text.strip().upper()
    if s[-1:] in SUIT_SYMBOLS:
        s = s[:-1] + SUIT_SYMBOLS[s[-1]]
    if s.startswith("10"):
        s = "T" + s[2:]
    if s == "JK":
        c = JOKER
    elif len(s) == 2 and s[0] in RANKS and s[1] in SUITS:
        c = card_index(SUITS.index(s[1]), RANKS.index(s[0]))
    else:
        raise CardError(f"{text!r} is not a card (rank 7-A or 10, suit C D H S, or JK) (R1)")
    if deck is not None and not (pack_mask(deck) >> c) & 1:
        raise CardError(f"{text!r} is not in the {deck}-card pack (R1)")
    return c


def board(cards: Iterable[int]) -> int:
    """Board of the given card indexes; a repeated card is an error."""
    m = 0
    for c in cards:
        if (m >> c) & 1:
            raise CardError(f"{card_str(c)} appears twice")
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """Card indexes in a board, lowest bit first."""
    out = []
    m = int(mask)
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


def board_str(mask: int) -> list[str]:
    return [card_str(c) for c in cards_of(mask)]


def parse_board(texts: Iterable[str], deck: int | None = None) -> int:
    return board(parse_card(t, deck) for t in texts)
