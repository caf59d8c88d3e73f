"""The digit buffer the ``random`` policy draws its calls and cards from.

One generator output gives ten base-60 digits (engine/bits.py); each digit
picks among up to six legal actions.  Checked three ways: the method is
exact (exhaustively, on a 16-bit model of it), the kernel draws what a slow
twin built another way draws, and the lookup tables match their definitions.
"""
from collections import Counter

import numpy as np
from numba import njit

from euchresim.engine.bits import (DIGIT_REJECT, DIGIT_SPAN, DIGITS, PICK, RADIX, digit_bit, digit_index, seed_state)

M64 = (1 << 64) - 1


def slow_xoshiro(state):
    """xoshiro256** written from its paper, one output per call."""
    s = [int(x) for x in state[:4]]

    def rotl(x, k):
        return ((x << k) | (x >> (64 - k))) & M64

    def step():
        out = (rotl((s[1] * 5) & M64, 7) * 9) & M64
        t = (s[1] << 17) & M64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = rotl(s[3], 45)
        return out

    return step


def slow_digits(state):
    """The digits as the base-60 figures of one number K < 60**10, top first."""
    step = slow_xoshiro(state)
    while True:
        r = step()
        if (r * 60 ** 10) % 2 ** 64 < 2 ** 64 % 60 ** 10:
            continue                                   # the rare output that would bias K
        k = (r * 60 ** 10) >> 64
        for j in range(9, -1, -1):
            yield (k // 60 ** j) % 60


def slow_pick(mask, u):
    bits = [b for b in range(64) if mask >> b & 1]
    return bits[u * len(bits) // 60]


@njit      # not cached: numba's cache would not notice an edit to the kernel it calls
def _draw_all(state, masks, out):
    for i in range(masks.shape[0]):
        out[i] = digit_bit(state, masks[i])


@njit
def _digit_index_all(out):
    for u in range(60):
        for n in range(1, 7):
            out[u, n] = digit_index(u, n)


def test_a_digit_serves_every_count_of_actions_and_the_reject_bound_is_exact():
    assert all(RADIX % n == 0 for n in range(1, 7))          # a digit serves every count of legal actions
    assert DIGIT_SPAN == RADIX ** DIGITS < 2 ** 64 and DIGIT_REJECT == 2 ** 64 % DIGIT_SPAN


def test_the_method_is_exact_on_every_16_bit_word():
    """The same method with 16-bit words and two digits: every pair equally often."""
    span = 60 * 60
    counts = Counter()
    for r in range(1 << 16):
        if (r * span) % (1 << 16) < (1 << 16) % span:
            continue
        m = r * 60
        u1, rest = m >> 16, m & 0xFFFF                  # peel a digit off the top, as the kernel does
        u2 = (rest * 60) >> 16
        counts[(u1, u2)] += 1
    assert len(counts) == span and set(counts.values()) == {(1 << 16) // span}


def test_digit_index_is_floor_u_n_over_60():
    out = np.zeros((60, 7), np.int64)
    _digit_index_all(out)
    assert all(out[u, n] == u * n // 60 for u in range(60) for n in range(1, 7))


def test_pick_table_is_the_kth_legal_position():
    for mask in range(1, 32):
        for u in range(60):
            assert PICK[mask * 64 + u] == slow_pick(mask, u)


def test_digit_bit_draws_what_the_slow_twin_draws():
    rng = np.random.default_rng(8)
    masks = []
    for _ in range(3000):                               # boards of 1 to 6 cards or actions
        n = int(rng.integers(1, 7))
        masks.append(sum(1 << int(b) for b in rng.choice(33, n, replace=False)))
    masks = np.array(masks, np.int64)
    state = seed_state(np.random.SeedSequence(99))
    digits = slow_digits(state.copy())
    want = [slow_pick(int(m), next(digits)) for m in masks]
    got = np.zeros(len(masks), np.int64)
    _draw_all(state, masks, got)
    assert got.tolist() == want
    assert state[5] == (-len(masks)) % DIGITS           # digits left in the buffer's last word
