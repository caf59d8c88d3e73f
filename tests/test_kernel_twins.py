"""Kernels called one step at a time against slow, obvious twins.

The legal-action kernel must allow exactly what the rules allow, not just
choose legal moves: at every decision of many hands, in every phase (R5-R10,
the joker upcard's R7 included), its answer is compared with the set
``tests.helpers.slow_legal`` builds from the rules.
"""
import numpy as np
import pytest

from euchresim.engine.hand import apply_action, legal_actions, start_hand
from euchresim.engine.layout import (PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DONE, PH_DUMMY,
                                     PH_JOKER, PH_PLAY, PHASE, PHASE_NAMES, PRIV_SIZE, ST_SIZE)
from euchresim.engine.tables import build_tables
from tests.helpers import JOKER_INDEX, VARIANTS, bits, random_action, rows_of, slow_legal


def _deals(res, deck, every=4):
    """The chunk's deals as (dealer, hands, dummy, upcard, kitty); in a joker pack every ``every``-th deal
    has the joker swapped into the upcard, so the dealer-names-the-suit phase (R7) comes up often."""
    for i, row in enumerate(res.hands):
        hands = [int(row[f"hand{s}"]) for s in range(4)]
        dummy, kitty = int(row["dummy"]), int(row["kitty"])
        up = int(row["upcard"])
        joker = 1 << JOKER_INDEX
        if deck in (25, 33) and i % every == 0 and up != JOKER_INDEX:
            swap = lambda b: b & ~joker | (1 << up) if b & joker else b    # noqa: E731
            hands, dummy, kitty, up = [swap(h) for h in hands], swap(dummy), swap(kitty), JOKER_INDEX
        yield int(row["dealer"]), hands, dummy, up, kitty


@pytest.mark.parametrize("players,deck", VARIANTS)
def test_legal_actions_twin(players, deck):
    rng = np.random.default_rng(players * 100 + deck)
    option_sets = [{}, {"stick_the_dealer": True}] + ([{"defend_alone": True}] if players == 4 else [])
    seen = set()
    for opts in option_sets:
        rules, res = rows_of(players, deck, "random", seed=deck, n=150, **opts)
        tab = build_tables(rules)
        for dealer, hands, dummy, up, kitty in _deals(res, deck):
            st = np.zeros(ST_SIZE, np.int64)
            priv = np.zeros(PRIV_SIZE, np.int64)
            start_hand(st, priv, tab, np.int64(dealer), np.array(hands, np.int64), np.int64(dummy),
                       np.int64(up), np.int64(kitty))
            while True:
                legal = int(legal_actions(st, priv, tab))
                ph = int(st[PHASE])
                assert set(bits(legal)) == slow_legal(st, priv, rules.stick_the_dealer), \
                    (PHASE_NAMES[ph], opts)
                seen.add(ph)
                if ph == PH_DONE:
                    break
                assert apply_action(st, priv, tab, np.int64(random_action(rng, st, legal))) == 0
    # every phase this variant can reach was compared, not only the easy ones
    want = {PH_BID1, PH_BID2, PH_DISCARD, PH_PLAY, PH_DONE}
    want |= {PH_ALONE} if players > 2 else set()
    want |= {PH_DEFEND} if players > 2 else set()         # 3 players always, 4 with defend_alone
    want |= {PH_DUMMY} if players == 3 else set()
    want |= {PH_JOKER} if deck in (25, 33) else set()
    assert want <= seen, sorted(PHASE_NAMES[p] for p in want - seen)


def test_the_twin_refuses_what_the_rules_refuse():
    """The twin itself is not a copy of the kernel's answer: spot checks written from R6 and R10."""
    from euchresim.engine.layout import BIDSUIT, DEALER, HAND, LED, NINTRICK, TO_ACT, TRUMP
    st = np.zeros(ST_SIZE, np.int64)
    priv = np.zeros(PRIV_SIZE, np.int64)
    st[PHASE], st[TO_ACT], st[DEALER], st[BIDSUIT] = PH_BID2, 2, 2, 1
    assert slow_legal(st, priv, False) == {0, 2, 3, 4}          # any suit but the one turned down, or pass
    assert slow_legal(st, priv, True) == {0, 2, 3}              # the stuck dealer may not pass
    st[PHASE], st[TO_ACT], st[TRUMP], st[LED], st[NINTRICK] = PH_PLAY, 1, 2, 2, 1      # hearts trump, led
    priv[HAND + 1] = (1 << 28) | (1 << 12) | (1 << 5)          # J of spades, J of diamonds (the left), Q of clubs
    assert slow_legal(st, priv, False) == {12}                  # the left bower is a heart: it must follow
    st[LED] = 0                                                 # clubs led
    assert slow_legal(st, priv, False) == {5}
    st[LED] = 3                                                 # spades led: the J of spades follows
    assert slow_legal(st, priv, False) == {28}
