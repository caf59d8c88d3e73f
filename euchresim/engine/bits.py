"""Bit tricks and the random stream the kernels use.

numba has no public popcount, so LLVM intrinsics give ``popcnt``, ``tzcnt``
and the high half of a 64x64-bit product.  The generator is xoshiro256** on
a uint64 state array (4 words, then the 2-word digit buffer) that the runner
seeds from a ``numpy.random.SeedSequence``: owning the stream (rather than
numba's global one) is what makes every chunk reproducible, and keeps the
deal stream apart from the policy stream.
"""
import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


@intrinsic
def highbit(typingctx, x):
    """Index of the highest set bit of a non-empty board."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        lz = builder.ctlz(args[0], ir.Constant(ir.IntType(1), 0))
        return builder.sub(ir.Constant(ir.IntType(64), 63), lz)

    return sig, codegen


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of an int64 board."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen


@intrinsic
def lowbit(typingctx, x):
    """Index of the lowest set bit (64 for an empty board)."""
    if not isinstance(x, types.Integer):
        return None
    sig = types.int64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


def inline_copy(kernel):
    """A copy of a kernel that numba inlines into its caller.

    numba passes each array argument as about seven machine words, so a call
    with four arrays stores some thirty words on the stack: in the
    all-random hand loop the calls to the deal, the hand's set-up, the
    policy loop and the row took a sixth of the time.  Kernels only the hot
    loop calls are simply ``inline='always'``; one that other kernels call
    as well (``start_hand``, ``score_hand``) stays a compiled function for
    them, and the hot loop takes this copy, so as not to inline it into
    every caller (compile time).
    """
    return njit(cache=True, _nrt=False, inline='always')(kernel.py_func)


@intrinsic
def U(typingctx, i):
    """An array index as unsigned, for indexes known to be >= 0.

    numba adds "if i < 0: i += len" to every signed index (Python's
    negative indexing); an unsigned one skips it.  Three instructions a
    lookup, which the hot loops do several times a card.  An intrinsic
    (the cast ``np.uint64(i)`` is) rather than an inlined kernel: numba
    inlines a kernel by copying its IR at every call site, hundreds here.
    """
    if not isinstance(i, (types.Integer, types.Boolean)):
        return None
    sig = types.uint64(i)

    def codegen(context, builder, signature, args):
        return context.cast(builder, args[0], signature.args[0], types.uint64)

    return sig, codegen


@intrinsic
def xo_step(typingctx, s0, s1, s2, s3):
    """One xoshiro256** step on a state held in locals: (output, new state).

    An intrinsic for the same reason as ``U``: every draw in the hot loop
    inlined a jitted step and its two rotations.  The same LLVM code.
    """
    u64 = types.uint64
    if not all(a == u64 for a in (s0, s1, s2, s3)):
        return None
    sig = types.UniTuple(u64, 5)(u64, u64, u64, u64)

    def codegen(context, builder, signature, args):
        s0, s1, s2, s3 = args

        def rotl(x, k):
            return builder.or_(builder.shl(x, ir.Constant(x.type, k)), builder.lshr(x, ir.Constant(x.type, 64 - k)))

        result = builder.mul(rotl(builder.mul(s1, ir.Constant(s1.type, 5)), 7), ir.Constant(s1.type, 9))
        t = builder.shl(s1, ir.Constant(s1.type, 17))
        s2 = builder.xor(s2, s0)
        s3 = builder.xor(s3, s1)
        s1 = builder.xor(s1, s2)
        s0 = builder.xor(s0, s3)
        s2 = builder.xor(s2, t)
        s3 = rotl(s3, 45)
        return context.make_tuple(builder, signature.return_type, [result, s0, s1, s2, s3])

    return sig, codegen


@njit(cache=True, _nrt=False, inline='always')
def next_u64(s):
    """xoshiro256** step on the state ``s`` (its first four words)."""
    result, s0, s1, s2, s3 = xo_step(s[0], s[1], s[2], s[3])
    s[0] = s0
    s[1] = s1
    s[2] = s2
    s[3] = s3
    return result


@njit(cache=True, _nrt=False, inline='always')
def randbelow(s, n):
    """Unbiased integer in [0, n) for 0 < n < 2**32 (Lemire's method)."""
    nn = np.uint64(n)
    x = next_u64(s) >> np.uint64(32)
    m = x * nn
    low = m & np.uint64(0xFFFFFFFF)
    if low < nn:
        t = (np.uint64(0x100000000) - nn) % nn
        while low < t:
            x = next_u64(s) >> np.uint64(32)
            m = x * nn
            low = m & np.uint64(0xFFFFFFFF)
    return np.int64(m >> np.uint64(32))


@njit(cache=True, _nrt=False, inline='always')
def kth_bit(mask, k):
    """Index of the k-th lowest set bit (from 0) of a mask, for k < 6.

    A fixed count of conditional clears, no data-dependent branch: the
    choice is random, so a branch here would mispredict half the time.
    """
    for j in range(5):
        mask = mask & ((mask - 1) | (np.int64(j < k) - 1))   # clear the low bit while j < k
    return lowbit(mask)


@njit(cache=True, _nrt=False, inline='always')
def random_bit(s, mask):
    """A uniformly chosen set bit of a non-empty mask, as its index."""
    n = popcount(mask)
    k = randbelow(s, n)
    if n <= 6:
        return kth_bit(mask, k)
    for _ in range(k):
        mask &= mask - 1
    return lowbit(mask)


@njit(cache=True, _nrt=False, inline='always')
def xo_below(s0, s1, s2, s3, n):
    """``randbelow`` on a state held in locals: (value, s0, s1, s2, s3).

    The same numbers as ``randbelow`` on the state array, but a tight loop
    that keeps the state in registers avoids a store and reload per draw.
    """
    nn = np.uint64(n)
    while True:
        result, s0, s1, s2, s3 = xo_step(s0, s1, s2, s3)
        m = (result >> np.uint64(32)) * nn
        low = m & np.uint64(0xFFFFFFFF)
        if low >= nn or low >= (np.uint64(0x100000000) - nn) % nn:
            return np.int64(m >> np.uint64(32)), s0, s1, s2, s3


@njit(cache=True, _nrt=False, inline='always')
def xo_below2(s0, s1, s2, s3, n1, n2):
    """Two bounded draws from one 64-bit output: (k1, k2, s0, s1, s2, s3).

    The high half serves ``n1`` and the low half ``n2`` by Lemire's method;
    a half that must be rejected (rarely: under n/2**32) is drawn afresh
    with ``xo_below``, so both draws stay exactly uniform.
    """
    result, s0, s1, s2, s3 = xo_step(s0, s1, s2, s3)
    nn1 = np.uint64(n1)
    nn2 = np.uint64(n2)
    m1 = (result >> np.uint64(32)) * nn1
    m2 = (result & np.uint64(0xFFFFFFFF)) * nn2
    k1 = np.int64(m1 >> np.uint64(32))
    k2 = np.int64(m2 >> np.uint64(32))
    low1 = m1 & np.uint64(0xFFFFFFFF)
    low2 = m2 & np.uint64(0xFFFFFFFF)
    if low1 < nn1 and low1 < (np.uint64(0x100000000) - nn1) % nn1:
        k1, s0, s1, s2, s3 = xo_below(s0, s1, s2, s3, n1)
    if low2 < nn2 and low2 < (np.uint64(0x100000000) - nn2) % nn2:
        k2, s0, s1, s2, s3 = xo_below(s0, s1, s2, s3, n2)
    return k1, k2, s0, s1, s2, s3


@intrinsic
def mulhi(typingctx, a, b):
    """High 64 bits of the 128-bit product of two uint64 (one x86 ``mul``)."""
    if not (a == types.uint64 and b == types.uint64):
        return None
    sig = types.uint64(types.uint64, types.uint64)

    def codegen(context, builder, signature, args):
        wide = ir.IntType(128)
        p = builder.mul(builder.zext(args[0], wide), builder.zext(args[1], wide))
        return builder.trunc(builder.lshr(p, ir.Constant(wide, 64)), ir.IntType(64))

    return sig, codegen


# ---- digits: many small uniform draws from one 64-bit output --------------
# A card is chosen from at most 6 legal ones, and 60 = lcm(1..6), so a digit
# uniform on [0, 60) picks among any n <= 6 choices exactly: choice
# floor(u * n / 60).  A word r is accepted when r * 60**10 mod 2**64 is at
# least 2**64 mod 60**10 (1.7% are not): then floor(r * 60**10 / 2**64) is
# exactly uniform on [0, 60**10) (Lemire's argument), and its ten base-60
# digits, peeled off the top by multiplying by 60, are independent and
# exactly uniform.  One generator step serves ten cards instead of one.
RADIX = 60
DIGITS = 10
DIGIT_SPAN = RADIX ** DIGITS
DIGIT_REJECT = 2 ** 64 % DIGIT_SPAN


def _build_pick():
    """PICK[mask * 64 + u]: position of the floor(u * n / 60)-th set bit of a 5-bit mask."""
    pick = np.zeros(32 * 64, dtype=np.uint8)
    for mask in range(1, 32):
        pos = [j for j in range(5) if mask >> j & 1]
        for u in range(RADIX):
            pick[mask * 64 + u] = pos[u * len(pos) // RADIX]
    return pick


PICK = _build_pick()   # a constant: numba freezes it into the compiled code


@njit(cache=True, _nrt=False, inline='always')
def digit_refill(s):
    """The next generator output that holds ten exact uniform base-60 digits."""
    while True:
        r = next_u64(s)
        if r * np.uint64(DIGIT_SPAN) >= np.uint64(DIGIT_REJECT):
            return r


@njit(cache=True, _nrt=False, inline='always')
def digit_next(r, left, s):
    """The next digit from a buffer word ``r`` with ``left`` digits: (digit, r, left)."""
    if left == 0:
        r = digit_refill(s)
        left = np.uint64(DIGITS)
    return np.int64(mulhi(r, np.uint64(RADIX))), r * np.uint64(RADIX), left - np.uint64(1)


@njit(cache=True, _nrt=False, inline='always')
def digit_index(u, n):
    """floor(u * n / 60) for a digit u < 60 and n <= 6, without a division.

    1093 / 2**16 is 1/60 within 1.2e-5, too little to cross an integer below
    360 (tests/test_kernel_twins.py checks all of them).
    """
    return (u * n * 1093) >> 16


@njit(cache=True, _nrt=False, inline='always')
def digit_bit(s, mask):
    """A uniformly chosen set bit of a mask of at most 6 bits, from the digit buffer.

    The buffer is ``s[4]`` (the word) and ``s[5]`` (digits left in it);
    ``loops.hands.random_tricks`` draws the same digits in the same order.
    """
    u, r, left = digit_next(s[4], s[5], s)
    s[4] = r
    s[5] = left
    return kth_bit(mask, digit_index(u, popcount(mask)))


@njit(cache=True)
def random_float(s):
    """Uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def seed_state(seed_sequence):
    """A generator state from a ``numpy.random.SeedSequence``.

    uint64[6]: the xoshiro256** state, then the digit buffer (word, digits
    left), empty at the start.
    """
    st = np.zeros(6, dtype=np.uint64)
    st[:4] = seed_sequence.generate_state(4, dtype=np.uint64)
    if not st[:4].any():  # the all-zero state is the one xoshiro cannot leave
        st[0] = 1
    return st


@njit(cache=True, _nrt=False, inline='always')
def lowest_by(cards, tab, base):
    """The card ``c`` of ``cards`` with the least ``tab[base + c]`` (ties: the lowest index); -1 when empty.

    The one best-card scan: ``base`` picks the table row, R2's order with a
    trump (``T_ORDER``) or the power with a suit led (``T_POWER``).
    """
    best = np.int64(-1)
    bv = np.int64(1) << 62
    m = cards
    while m:
        c = lowbit(m)
        m &= m - 1
        v = tab[U(base + c)]
        if v < bv:
            bv = v
            best = c
    return best


@njit(cache=True, _nrt=False, inline='always')
def highest_by(cards, tab, base):
    """The card ``c`` of ``cards`` with the greatest ``tab[base + c]`` (ties: the lowest index); -1 when empty."""
    best = np.int64(-1)
    bv = -(np.int64(1) << 62)
    m = cards
    while m:
        c = lowbit(m)
        m &= m - 1
        v = tab[U(base + c)]
        if v > bv:
            bv = v
            best = c
    return best
