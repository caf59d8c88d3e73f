"""Kernels called one step at a time against slow, obvious twins.

The legal-action kernel must allow exactly what the rules allow, not just
choose legal moves: at every decision of many hands, its answer is compared
with a set built card by card from R2/R6/R10.
"""
import numpy as np
import pytest

from euchresim.engine.hand import apply_action, legal_actions, start_hand
from euchresim.engine.layout import (BIDSUIT, BID2_PASS, DEALER, HAND, LED, NINTRICK, PH_BID2, PH_DISCARD, PH_DONE, PH_DUMMY, PH_PLAY, PHASE, PRIV_SIZE, ST_SIZE, TO_ACT, TRUMP, UPCARD, DUMMY)
from euchresim.engine.tables import build_tables
from tests.test_tables import slow_card_name, slow_is_trump
from tests.util import VARIANTS, bits, rows_of


def slow_suit(c, t):
    return t if slow_is_trump(slow_card_name(c), t) else c // 8


def slow_legal(st, priv, rules):
    ph = st[PHASE]
    seat = st[TO_ACT]
    if ph == PH_PLAY:
        hand = bits(priv[HAND + seat])
        if st[NINTRICK] == 0:
            return set(hand)
        follow = [c for c in hand if slow_suit(c, st[TRUMP]) == st[LED]]
        return set(follow or hand)
    if ph == PH_BID2:
        allowed = {s for s in range(4) if s != st[BIDSUIT]}
        if not (rules.stick_the_dealer and seat == st[DEALER]):
            allowed.add(BID2_PASS)
        return allowed
    if ph == PH_DISCARD:
        return set(bits(priv[HAND + seat])) | {int(st[UPCARD])}    # the state holds the card index
    if ph == PH_DUMMY:
        return set(bits(priv[HAND + seat] | priv[DUMMY]))
    return None


@pytest.mark.parametrize("players,deck", VARIANTS)
def test_legal_actions_twin(players, deck):
    rng = np.random.default_rng(players * 100 + deck)
    for opts in ({}, {"stick_the_dealer": True}):
        rules, res = rows_of(players, deck, "random", seed=deck, n=150, **opts)
        tab = build_tables(rules)
        checked = 0
        for row in res.hands:
            st = np.zeros(ST_SIZE, np.int64)
            priv = np.zeros(PRIV_SIZE, np.int64)
            hands = np.array([row[f"hand{s}"] for s in range(4)], np.int64)
            start_hand(st, priv, tab, np.int64(row["dealer"]), hands, np.int64(row["dummy"]),
                       np.int64(int(row["upcard"]).bit_length() - 1), np.int64(row["kitty"]))
            while st[PHASE] != PH_DONE:
                legal = int(legal_actions(st, priv, tab))
                want = slow_legal(st, priv, rules)
                if want is not None:
                    assert set(bits(legal)) == want
                    checked += 1
                choices = bits(legal)
                if st[PHASE] == PH_DUMMY:
                    a = sum(1 << c for c in rng.choice(choices, 5, replace=False))
                else:
                    a = int(rng.choice(choices))
                assert apply_action(st, priv, tab, np.int64(a)) == 0
        assert checked > 150
