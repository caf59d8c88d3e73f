"""The deal against exact odds (R4); tolerances from the binomial standard error.

Each cell's tolerance is z * sqrt(p(1-p)/n), with z chosen so that all cells
of a test together fail by chance with probability ALPHA (Bonferroni).
"""
from math import comb, sqrt
from statistics import NormalDist

import numpy as np
import pytest

from euchresim.cards import JOKER, RANK_J, card_index, cards_of, pack_mask
from tests.util import rows_of

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
    up = np.array([int(m).bit_length() - 1 for m in res.hands["upcard"]])   # one-card boards
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
