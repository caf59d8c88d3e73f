"""The deal against exact odds (R4); tolerances from the binomial standard error.

Each cell's tolerance is z * sqrt(p(1-p)/n), with z chosen so that all cells
of a test together fail by chance with probability ALPHA (Bonferroni).  The
last tests check that consecutive deals of one chunk are independent, with
their own standard errors and an exact chi-square critical value (below).
"""
from math import comb, erfc, exp, gamma, sqrt
from statistics import NormalDist

import numpy as np
import pytest

from euchresim.cards import JOKER, RANK_J, card_index, cards_of, pack_mask
from tests.helpers import rows_of

ALPHA = 1e-6
N = 60_000


def z_for(cells):
    return NormalDist().inv_cdf(1 - ALPHA / (2 * cells))


def assert_freqs(observed_counts, probs, n):
    z = z_for(len(probs))
    for k, (obs, p) in enumerate(zip(observed_counts, probs)):
        tol = z * sqrt(p * (1 - p) / n)
        assert abs(obs / n - p) <= tol, (k, obs / n, p, tol)


def popcount(a):
    a = np.asarray(a, dtype=np.int64)
    return np.array([bin(int(x)).count("1") for x in a])


@pytest.mark.parametrize("players,deck", [(4, 24), (2, 32), (3, 25), (4, 33)])
def test_r4_jacks_in_a_hand_are_hypergeometric(players, deck):
    _, res = rows_of(players, deck, "random", seed=11, n=N)
    jacks = sum(1 << card_index(s, RANK_J) for s in range(4))
    k = popcount(res.hands["hand0"] & jacks)
    counts = np.bincount(k, minlength=5)
    probs = [comb(4, j) * comb(deck - 4, 5 - j) / comb(deck, 5) for j in range(5)]
    assert_freqs(counts, probs, N)


@pytest.mark.parametrize("players,deck", [(4, 24), (3, 33)])
def test_r4_upcard_is_uniform_over_the_pack(players, deck):
    _, res = rows_of(players, deck, "random", seed=12, n=N)
    cards = cards_of(pack_mask(deck))
    up = res.hands["upcard"].astype(np.int64)          # one card: its index
    counts = np.bincount(up, minlength=33)[cards]
    assert_freqs(counts, [1 / deck] * deck, N)


def test_r4_r9_dummy_holds_the_joker_one_time_in_five():
    _, res = rows_of(3, 25, "random", seed=13, n=N)
    has = ((res.hands["dummy"] >> JOKER) & 1).astype(bool)
    assert_freqs([has.sum()], [5 / 25], N)


@pytest.mark.parametrize("players,deck,kitty", [
    (4, 24, 4), (4, 25, 5), (4, 32, 12), (3, 24, 4), (3, 25, 5), (3, 32, 12),
    (2, 24, 14), (2, 25, 15), (2, 32, 22), (2, 33, 23), (4, 33, 13), (3, 33, 13)])
def test_r4_kitty_sizes(players, deck, kitty):
    _, res = rows_of(players, deck, "random", seed=1, n=200)
    assert set(popcount(res.hands["kitty"]) + 1) == {kitty}   # the upcard is part of the kitty


def test_r3_dealer_passes_left_except_after_a_joker_redeal():
    _, res = rows_of(4, 25, "random", seed=5, n=5000, joker_upcard="redeal")
    d = res.hands["dealer"].astype(int)
    redeal = res.hands["redeal"]
    assert redeal.sum() > 0
    for i in range(1, len(d)):
        assert d[i] == (d[i - 1] if redeal[i - 1] else (d[i - 1] + 1) % 4)


# ------------------------------------------------------------------ consecutive deals are independent
#
# The deal stream simulate uses is one generator per chunk, dealing hand after
# hand from a pack array that keeps its order between deals.  Each card's
# frequencies above can be right while consecutive deals are tied together,
# so these tests look at pairs of consecutive deals of one chunk.  Under an
# independent shuffle a card's place in deal k+1 is independent of its place
# in deal k, and each place has the exact probability size / deck.

PAIR_N = 60_000
PAIR_VARIANTS = [(4, 24, 31), (3, 25, 32), (2, 32, 33)]


def deal_places(res, players, deck, relative):
    """(n x deck) place of every card in every deal, and each place's probability.

    Places: the hands (by seat, or by position from the dealer), the dummy
    (3 players), the upcard, the rest of the kitty.
    """
    h = res.hands
    seats = [h[f"hand{s}"].astype(np.int64) for s in range(players)]
    if relative:
        d = h["dealer"].astype(np.int64)
        seats = [np.choose((d + p) % players, seats) for p in range(players)]
    boards = seats + ([h["dummy"].astype(np.int64)] if players == 3 else []) + \
        [np.int64(1) << h["upcard"].astype(np.int64), h["kitty"].astype(np.int64)]
    sizes = [5] * players + ([5] if players == 3 else []) + [1, deck - 5 * players - (5 if players == 3 else 0) - 1]
    assert sum(sizes) == deck
    b = np.stack(boards, axis=1)                       # n x places
    cards = cards_of(pack_mask(deck))
    bit = (b[:, None, :] >> np.array(cards, dtype=np.int64)[None, :, None]) & 1   # n x deck x places
    assert (bit.sum(axis=2) == 1).all()                # every card in exactly one place
    return bit.argmax(axis=2), np.array(sizes) / deck


def same_place_z(places, p):
    """z of the count of consecutive deals (all n - 1 overlapping pairs) with a card in the same place.

    Under independence P(same) = q = sum p_l^2.  The pair indicators are
    1-dependent: neighbours share a deal and both hold with probability
    s3 = sum p_l^3, others are independent, so the count of m pairs has
    variance m q (1 - q) + 2 (m - 1) (s3 - q^2).
    """
    m = places.shape[0] - 1
    q, s3 = float((p ** 2).sum()), float((p ** 3).sum())
    same = (places[1:] == places[:-1]).sum(axis=0)
    var = m * q * (1 - q) + 2 * (m - 1) * (s3 - q * q)
    return (same - m * q) / sqrt(var)


def chi2_sf(x, df):
    """P(chi-square with df degrees of freedom > x), exactly, for whole df.

    Even df = 2k: exp(-x/2) sum_{i<k} (x/2)^i / i!.  Odd df = 2k+1:
    erfc(sqrt(x/2)) + exp(-x/2) sum_{i=1..k} (x/2)^(i-1/2) / Gamma(i+1/2).
    """
    h = x / 2
    if df % 2 == 0:
        term, total = 1.0, 1.0
        for i in range(1, df // 2):
            term *= h / i
            total += term
        return exp(-h) * total
    term, total = sqrt(h) / gamma(1.5), 0.0
    for i in range(1, (df - 1) // 2 + 1):
        total += term
        term *= h / (i + 0.5)
    return erfc(sqrt(h)) + exp(-h) * total


def chi2_isf(alpha, df):
    """The x with chi2_sf(x, df) = alpha, by bisection."""
    lo, hi = 0.0, df + 10.0
    while chi2_sf(hi, df) > alpha:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if chi2_sf(mid, df) > alpha else (lo, mid)
    return hi


def test_chi2_critical_values_against_the_tables():
    # the 5% points of the usual tables (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4), to 3 decimals
    for df, x in {1: 3.841, 2: 5.991, 3: 7.815, 10: 18.307, 15: 24.996, 35: 49.802, 48: 65.171}.items():
        assert abs(chi2_isf(0.05, df) - x) < 6e-4, df
    assert abs(chi2_isf(0.001, 10) - 29.588) < 6e-4
    assert abs(chi2_sf(3.841458820694124, 1) - 0.05) < 1e-12        # (1.95996...)^2


@pytest.mark.parametrize("players,deck,seed", PAIR_VARIANTS)
def test_r4_a_card_is_no_likelier_to_stay_put_from_one_deal_to_the_next(players, deck, seed):
    _, res = rows_of(players, deck, "random", seed=seed, n=PAIR_N)
    places, p = deal_places(res, players, deck, relative=True)     # the dealer moves: places from the dealer
    z = same_place_z(places, p)
    bound = z_for(deck)
    assert (np.abs(z) <= bound).all(), (np.abs(z).max(), bound)


@pytest.mark.parametrize("players,deck,seed", PAIR_VARIANTS)
def test_r4_where_a_card_goes_next_deal_is_independent_of_where_it_was(players, deck, seed):
    """Chi-square over the (place in deal k, place in deal k+1) table of each card.

    Pairs (0,1), (2,3), ... and, separately, (1,2), (3,4), ...: within one
    offset the pairs share no deal, so under independence each card's table
    is a multinomial sample with cells p_a p_b (df = places^2 - 1).  The
    critical value is the exact chi-square point at ALPHA over all tables.
    """
    _, res = rows_of(players, deck, "random", seed=seed, n=PAIR_N)
    places, p = deal_places(res, players, deck, relative=False)
    L = len(p)
    crit = chi2_isf(ALPHA / (2 * deck), L * L - 1)
    for offset in (0, 1):
        a, b = places[offset::2], places[offset + 1::2]
        m = min(len(a), len(b))
        cells = a[:m] * L + b[:m]                                      # m x deck
        expected = m * np.outer(p, p).ravel()
        for c in range(deck):
            observed = np.bincount(cells[:, c], minlength=L * L)
            x2 = float(((observed - expected) ** 2 / expected).sum())
            assert x2 <= crit, (offset, c, x2, crit)
