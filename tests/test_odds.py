"""Exact deal odds (analysis/odds.py) against enumeration and against simulated deals."""
import itertools
import math
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pytest

from euchresim.run import runner
from euchresim.analysis import odds
from euchresim.cards import JOKER, cards_of, pack_mask, parse_card
from euchresim.rules import Rules
from tests.helpers import run_spec


def plays_as_trump(c, t):
    """R2 read directly: the joker, the trump suit, the jack of trump's colour."""
    return c == JOKER or c >> 3 == t or c == 8 * (3 - t) + 4


def suit_as_played(c, t):
    return t if plays_as_trump(c, t) else c >> 3


def enumerate_hands(deck, upcard, t, count):
    """P(k) by listing every 5-card hand of the cards other than the upcard."""
    rest = [c for c in cards_of(pack_mask(deck)) if c != upcard]
    tally = {}
    for h in itertools.combinations(rest, 5):
        k = count(h, t)
        tally[k] = tally.get(k, 0) + 1
    n = math.comb(len(rest), 5)
    return {k: Fraction(v, n) for k, v in tally.items()}


COUNTS = {
    "trumps": lambda h, t: sum(plays_as_trump(c, t) for c in h),
    "bowers": lambda h, t: sum(c in (8 * t + 4, 8 * (3 - t) + 4) for c in h),
    "aces": lambda h, t: sum(c != JOKER and c & 7 == 7 for c in h),
    "voids": lambda h, t: 4 - len({suit_as_played(c, t) for c in h}),
    "joker": lambda h, t: sum(c == JOKER for c in h),
}


def as_dict(frame):
    return dict(zip(frame["k"].tolist(), frame["exact"].tolist()))


SMALL = [(24, "9H"), (24, "JH"), (25, "AS")]
CASES = ([(d, u, w) for d, u in SMALL for w in ("trumps", "bowers", "aces", "voids")]
         + [(25, "AS", "joker"), (32, "7C", "trumps"), (32, "7C", "voids")])


@pytest.mark.parametrize("deck,up,what", CASES)
def test_exact_odds_match_enumeration_for_one_upcard(deck, up, what):
    c = parse_card(up, deck)
    assert as_dict(odds.distribution(deck, what, upcard=c)) == enumerate_hands(deck, c, c >> 3, COUNTS[what])


@pytest.mark.parametrize("deck", [24, 25])
def test_unconditional_odds_match_enumeration(deck):
    # no upcard: 5 of all the cards, trump hearts
    rest = cards_of(pack_mask(deck))
    n = math.comb(len(rest), 5)
    tally = {}
    for h in itertools.combinations(rest, 5):
        k = COUNTS["trumps"](h, 2)
        tally[k] = tally.get(k, 0) + 1
    assert as_dict(odds.distribution(deck, "trumps", upcard=None, trump=2)) == {k: Fraction(v, n)
                                                                               for k, v in tally.items()}


@pytest.mark.parametrize("deck", [24, 25, 32, 33])
def test_known_values(deck):
    n_trumps = {24: 7, 25: 8, 32: 9, 33: 10}[deck]
    d = odds.distribution(deck, "trumps")
    assert sum(d["exact"]) == 1
    # upcard trump: n - 1 trumps left among deck - 1 cards; the mean of a hypergeometric
    assert odds.expected(deck) == Fraction(5 * (n_trumps - 1), deck - 1)
    assert odds.expected(deck, upcard=None) == Fraction(5 * n_trumps, deck)
    # all five trumps: C(n - 1, 5) hands of C(deck - 1, 5)
    assert d["exact"].iloc[-1] == Fraction(math.comb(n_trumps - 1, 5), math.comb(deck - 1, 5))
    # the right bower is the upcard one time in (cards of the suit): fewer bowers than with no upcard
    assert odds.expected(deck, "bowers") < odds.expected(deck, "bowers", upcard=None)
    shapes = odds.shape_distribution(deck)
    assert sum(shapes["exact"]) == 1 and (shapes[["trump", "next", "other_a", "other_b"]].sum(axis=1) == 5).all()


def test_the_average_upcard_is_the_mean_of_single_upcards():
    for what in ("bowers", "aces"):
        singles = [as_dict(odds.distribution(24, what, upcard=c)) for c in cards_of(pack_mask(24) & 0xFF00)]
        avg = {k: sum(s.get(k, 0) for s in singles) / len(singles) for k in range(6)}
        assert as_dict(odds.distribution(24, what)) == {k: v for k, v in avg.items() if v}


def test_refusals():
    with pytest.raises(ValueError, match="what"):
        odds.distribution(24, "kings")
    with pytest.raises(ValueError, match="upcard"):
        odds.distribution(25, upcard=JOKER)
    with pytest.raises(ValueError, match="upcard"):
        odds.distribution(24, upcard=parse_card("7C"))        # not in the 24-card pack


N = 120_000


@pytest.mark.parametrize("players,deck", [(4, 24), (4, 25), (2, 32), (3, 33)])
def test_exact_odds_inside_the_simulated_intervals(players, deck):
    hands = runner.play_chunk(run_spec(rules=Rules(players=players, deck=deck), policies=("random",), count=N,
                                       seed=7, chunk_size=N), 0).hands
    whats = ["trumps", "bowers", "aces", "voids"] + (["joker"] if deck in (25, 33) else [])
    tables = {w: odds.odds_table(deck, w, hands, seat=1) for w in whats}
    cells = sum(len(t) for t in tables.values())
    z = NormalDist().inv_cdf(1 - 0.005 / cells)          # 1% over every cell of every table
    for w, t in tables.items():
        n = int(t["of"].iloc[0])
        joker_ups = int((hands["upcard"] == JOKER).sum())
        assert n == N - joker_ups and t["count"].sum() == n
        for row in t.itertuples():
            se = math.sqrt(row.exact * (1 - row.exact) / n)
            assert abs(row.simulated - row.exact) <= z * se + 1e-12, (w, row)
    # a seat's count agrees with a direct count of its cards, row by row
    got = odds.observed(hands[:500], deck, "trumps", seat=1)
    keep = [r for r in hands[:500] if r["upcard"] != JOKER]
    want = [COUNTS["trumps"](cards_of(int(r["hand1"])), int(r["upcard"]) >> 3) for r in keep]
    assert got.tolist() == want


def test_odds_table_without_simulation():
    t = odds.odds_table(24, "trumps")
    assert list(t.columns) == ["k", "exact"] and np.isclose(t["exact"].sum(), 1.0)
