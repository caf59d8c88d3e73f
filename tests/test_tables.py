"""Cards and per-trump tables against slow, obvious definitions (R1, R2)."""
import pytest

from euchresim.cards import CardError, JOKER, board, card_str, cards_of, pack_mask, parse_card, parse_board
from euchresim.engine.layout import T_EFF, T_ORDER, T_POWER, T_SUIT_OF
from euchresim.rules import Rules
from euchresim.engine.tables import build_tables

from tests.helpers import (RANKS, SUITS, TRUMP_ORDER_BELOW_BOWERS, slow_beats, slow_card_name,  # noqa: F401
                           slow_is_trump, slow_rank_in_trump)


@pytest.mark.parametrize("deck,size", [(24, 24), (25, 25), (32, 32), (33, 33)])
def test_r1_pack_sizes_and_joker(deck, size):
    m = pack_mask(deck)
    assert bin(m).count("1") == size
    names = {slow_card_name(c) for c in cards_of(m)}
    assert ("JK" in names) == (deck in (25, 33))
    assert ("7H" in names) == (deck >= 32)
    assert "9C" in names and "AS" in names


def test_r1_card_text_round_trip_and_aliases():
    for c in cards_of(pack_mask(33)):
        assert parse_card(card_str(c)) == c
        assert parse_card(card_str(c).lower()) == c
    assert parse_card("10h") == parse_card("TH")
    assert parse_card("jk") == JOKER


@pytest.mark.parametrize("text", ["1H", "TX", "", "JKK", "10", "QQ"])
def test_r1_bad_card_strings_are_errors(text):
    with pytest.raises(CardError):
        parse_card(text)


def test_r1_card_not_in_pack_is_an_error():
    with pytest.raises(CardError, match="not in the 24-card pack"):
        parse_card("7H", deck=24)
    with pytest.raises(CardError, match="not in the 24-card pack"):
        parse_card("JK", deck=24)


def test_r1_duplicate_card_in_a_board_is_an_error():
    with pytest.raises(CardError, match="twice"):
        parse_board(["JH", "jh"])
    assert board([1, 2]) == 6


@pytest.mark.parametrize("t", range(4))
def test_r2_effective_suit_table_matches_slow_definition(t):
    tab = build_tables(Rules(players=4, deck=33))
    for c in cards_of(pack_mask(33)):
        name = slow_card_name(c)
        want = t if slow_is_trump(name, t) else SUITS.index(name[1])
        assert tab[T_SUIT_OF + 33 * t + c] == want, name
        for s in range(4):
            assert bool((int(tab[T_EFF + 4 * t + s]) >> c) & 1) == (s == want), (name, s)


@pytest.mark.parametrize("t", range(4))
def test_r2_r10_power_table_orders_every_pair_like_the_rules(t):
    """Exhaustive: every led suit, every pair of cards of the 33-card pack."""
    tab = build_tables(Rules(players=4, deck=33))
    cards = cards_of(pack_mask(33))
    for led in range(4):
        for a in cards:
            pa = tab[T_POWER + 132 * t + 33 * led + a]
            for b in cards:
                if a == b:
                    continue
                pb = tab[T_POWER + 132 * t + 33 * led + b]
                assert (pa > pb) == slow_beats(a, b, t, led), (slow_card_name(a), slow_card_name(b), t, led)


@pytest.mark.parametrize("t", range(4))
def test_r2_order_puts_every_trump_above_every_plain_card(t):
    tab = build_tables(Rules(players=4, deck=33))
    cards = cards_of(pack_mask(33))
    trumps = [c for c in cards if slow_is_trump(slow_card_name(c), t)]
    plain = [c for c in cards if c not in trumps]
    assert len(trumps) == 10  # 8 of the suit, the left bower, the joker
    assert min(tab[T_ORDER + 33 * t + c] for c in trumps) > max(tab[T_ORDER + 33 * t + c] for c in plain)
