"""policies/view.py's accessors, read on real positions, against the hand record they stand in.

Each position is a played hand's record cut after k cards and replayed
(``loops.record_steps.replay_states``: the state where the record stops), so
the expected answer comes from the record, not from the accessors' own
arithmetic.
"""
import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as hs

from euchresim.cards import pack_mask
from euchresim.engine.layout import NACTIVE, PLAY_SEAT, TO_ACT, TRUMP
from euchresim.engine.tables import build_tables
from euchresim.loops.record_steps import replay_states
from euchresim.policies import view
from euchresim.records.rows import row_record
from euchresim.rules import Rules
from euchresim.run import runner
from tests.helpers import run_spec


def _positions(players, n=60):
    rules = Rules(players=players)
    res = runner.play_chunk(run_spec(rules=rules, policies=("baseline",), count=n, seed=13), 0)
    tab = build_tables(rules)
    for row, plays in zip(res.hands, res.plays):
        rec, _ = row_record(rules, row, plays)
        if not rec.plays:
            continue                     # thrown in: no play to stop in
        for k in (0, 1, len(rec.plays) // 2, len(rec.plays) - 1):
            cut = dataclasses.replace(rec, plays=rec.plays[:k])
            _, states = replay_states([cut], tab)
            yield rules, tab, cut, states[0]


def test_the_trick_the_cards_played_and_the_cards_unseen_are_the_records():
    seen = 0
    for players in (2, 3, 4):
        for rules, tab, rec, st in _positions(players):
            seat = int(st[TO_ACT])
            nact = int(st[NACTIVE])
            k = len(rec.plays)
            on_table = rec.plays[k - k % nact:]
            assert view.leading(st) == (k % nact == 0)
            assert view.trick_cards(st) == sum(1 << c for c in on_table)
            assert view.played_cards(st) == sum(1 << c for c in rec.plays)
            for j, c in enumerate(on_table):
                assert view.trick_card(st, j)[0] == c
            assert view.trick_card(st, len(on_table)) == (-1, -1)
            if not on_table:
                assert view.led_suit(st) == -1 and view.winning_seat(st) == -1
            seen += 1
            if players == 3:
                continue                  # the Cutthroat maker's dummy keep: its hand is not the record's deal
            hand = rec.hands[seat] & ~view.played_cards(st)
            if rec.discard is not None and seat == rec.dealer:
                hand = (hand | (1 << rec.upcard)) & ~(1 << rec.discard) & ~view.played_cards(st)
            away = (1 << rec.discard) if rec.discard is not None and seat == rec.dealer else 0
            unseen = view.cards_unseen(st, np.int64(hand), np.int64(away), tab)
            everyone_else = 0
            for s in range(players):
                if s != seat:
                    everyone_else |= rec.hands[s]
            expect = (everyone_else | rec.dummy | rec.kitty) & ~(1 << rec.upcard) & ~view.played_cards(st)
            if rec.discard is not None and seat != rec.dealer:
                expect |= 1 << rec.discard          # the dealer's discard is unseen by the others
            assert unseen == expect & pack_mask(rules.deck)
    assert seen > 300


def test_partner_and_the_card_tables():
    tab4 = build_tables(Rules())
    st = np.zeros(200, np.int64)
    assert [view.partner(st, s, tab4) for s in range(4)] == [2, 3, 0, 1]
    assert view.players(tab4) == 4
    # the right bower of hearts beats the ace of trump, and an off-suit ace cannot win a heart trick
    jh, ah, ac = 8 * 2 + 4, 8 * 2 + 7, 8 * 0 + 7
    assert view.card_order(jh, 2, tab4) > view.card_order(ah, 2, tab4) > view.card_order(ac, 2, tab4)
    assert view.card_power(ac, 2, 2, tab4) == 0 < view.card_power(ah, 2, 2, tab4)
    assert view.cheapest(np.int64((1 << jh) | (1 << ac)), 2, tab4) == ac
    assert view.suit_cards(np.int64(1 << (8 * 1 + 4)), 2, 2, tab4) == 1 << (8 * 1 + 4)    # JD is a heart


@settings(max_examples=200, deadline=None)
@given(hs.integers(0, (1 << 33) - 1), hs.integers(0, 3), hs.integers(-1, 3))
def test_the_best_card_scans_are_min_and_max_of_the_order_ties_the_lowest_card(cards, t, led):
    """view.cheapest / strongest and builtin.cheapest_by_power against a plain min / max over the cards."""
    from euchresim.policies.builtin import cheapest_by_power
    tab = build_tables(Rules(deck=33))
    cards &= pack_mask(33)
    held = [c for c in range(33) if cards >> c & 1]
    if not held:
        assert view.cheapest(np.int64(cards), t, tab) == -1 == view.strongest(np.int64(cards), t, tab)
        return
    order = [int(view.card_order(c, t, tab)) for c in held]
    assert view.cheapest(np.int64(cards), t, tab) == held[order.index(min(order))]
    assert view.strongest(np.int64(cards), t, tab) == held[order.index(max(order))]
    lead = led if led >= 0 else t
    power = [int(view.card_power(c, t, lead, tab)) for c in held]
    assert cheapest_by_power(np.int64(cards), t, lead, tab) == held[power.index(min(power))]


def test_a_void_shown_is_a_suit_the_seat_holds_none_of_and_every_failure_to_follow_shows_one():
    from tests.reference import SUITS as REF_SUITS, suit_in_play
    from euchresim.cards import card_str
    seen = shown = 0
    for players in (2, 3, 4):
        for rules, tab, rec, st in _positions(players):
            _, states, held = replay_states([rec], tab, held=True)
            voids = int(view.shown_voids(st, tab))
            trump = REF_SUITS[int(st[TRUMP])] if st[TRUMP] >= 0 else None
            nact = int(st[NACTIVE])
            want = 0
            for i, c in enumerate(rec.plays):          # the reference's suits: the twin of the kernel's
                led = suit_in_play(card_str(rec.plays[i - i % nact]), trump)
                if suit_in_play(card_str(c), trump) != led:
                    want |= 1 << (4 * int(st[PLAY_SEAT + i]) + REF_SUITS.index(led))
            assert voids == want
            for s in range(4):
                for suit in range(4):
                    if voids >> (4 * s + suit) & 1:
                        shown += 1
                        assert int(held[0][s]) & int(view.suit_cards(np.int64(-1), suit, st[TRUMP], tab)) == 0
            seen += 1
    assert seen > 300 and shown > 20
