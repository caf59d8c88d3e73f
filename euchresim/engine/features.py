"""Per-hand features of a hand row, and per-cell tallies over any grouping of them.

A billion-hand run keeps no rows, so a report cannot group them after the
fact: it declares its groupings first (``RunSpec.groups``) and each chunk
adds its hands into cells.  A grouping is only data (feature ids and their
radices, runtime arrays): one compiled kernel serves every grouping, so a
new report compiles nothing.

Every feature takes a small fixed number of values (its radix); a feature
about the maker takes its last value, "none", on a hand nobody made, so a
grouping never lumps thrown-in hands with made ones.  The names, their
order (a feature's id) and radices are here, next to the code whose values
they describe; ``euchresim.run.groups`` adds the labels people read.
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import U, popcount
from euchresim.engine.layout import CFG_PLAYERS, NO_CARD, NO_KEEP, T_EFF

FEATURES = (
    "maker_pos",           # 0..3: the maker's seat relative to the dealer (0 dealer, 1 dealer's left)
    "maker_seat",          # 0..3: the maker's seat (so its policy, with one policy per seat)
    "make_round",          # 0, 1: rounds 1 and 2
    "maker_alone",         # 0, 1
    "defender_alone",      # 0, 1
    "maker_trumps",        # 0..5: trumps (bowers, joker included) in the hand the maker played
    "maker_right_bower",   # 0, 1
    "maker_left_bower",    # 0, 1
    "maker_joker",         # 0, 1
    "maker_offsuit_aces",  # 0..3
    "maker_voids",         # 0..3: plain suits the maker held none of (ruffing chances, loners)
    "upcard_rank",         # 0..7: rank 7..A; 8: the joker (never "none": every hand has an upcard)
    "upcard_to_makers",    # 0, 1: round 1 and the dealer, on the makers' side, took the upcard in
    "trump_vs_upcard",     # 0: the upcard's suit (round 1); 1: next (its colour); 2: cross
    "outcome",             # 0 euchred, 1 made (3 or 4 tricks), 2 march
    "maker_tricks",        # 0..5
)
RADIX = (5, 5, 3, 3, 3, 7, 3, 3, 3, 5, 5, 9, 3, 4, 4, 7)
NFEAT = len(FEATURES)
(F_MAKER_POS, F_MAKER_SEAT, F_MAKE_ROUND, F_MAKER_ALONE, F_DEFENDER_ALONE, F_MAKER_TRUMPS,
 F_RIGHT, F_LEFT, F_JOKER, F_ACES, F_VOIDS, F_UPCARD_RANK, F_UPCARD_TO_MAKERS, F_TRUMP_VS_UPCARD,
 F_OUTCOME, F_MAKER_TRICKS) = range(NFEAT)

# what each cell adds up: counts, and sums and sums of squares for means with intervals
MEASURES = ("hands", "made", "made_ok", "euchred", "march",
            "maker_points", "maker_points_sq", "defender_points", "defender_points_sq")
NMEAS = len(MEASURES)

RADIX_NONE = np.array(RADIX, np.int64) - 1     # a constant: numba freezes it into the compiled code
_ACES = np.int64(0x80808080)
from euchresim.cards import JOKER as _JOKER  # noqa: E402  (the one definition)


@njit(cache=True, _nrt=False, inline='always')
def _hand_of(r, seat):
    return r["hand0"] if seat == 0 else r["hand1"] if seat == 1 else r["hand2"] if seat == 2 else r["hand3"]


@njit(cache=True, _nrt=False, inline='always')
def _points_of(r, seat):
    p = r["points0"] if seat == 0 else r["points1"] if seat == 1 else r["points2"] if seat == 2 else r["points3"]
    return np.int64(p)


@njit(cache=True, _nrt=False, inline='always')
def maker_hand(r):
    """The five cards the maker played with: as dealt, after the dealer's exchange, after the dummy."""
    maker = r["maker"]
    keep = np.int64(r["dummy_keep"])
    if keep != NO_KEEP:                 # Cutthroat: what the maker kept of hand + dummy (exchange included)
        return keep
    h = np.int64(_hand_of(r, maker))
    disc = np.int64(r["discard"])
    if maker == r["dealer"] and disc != NO_CARD:   # the discard may be the upcard itself (exchange declined)
        h = (h | (np.int64(1) << np.int64(r["upcard"]))) & ~(np.int64(1) << disc)
    return h


@njit(cache=True, _nrt=False, inline='always')
def row_features(r, tab, f):
    """Every feature of hand row ``r`` into ``f`` (NFEAT int64)."""
    up = np.int64(r["upcard"])
    maker = np.int64(r["maker"])
    if maker < 0:
        for k in range(NFEAT):
            f[k] = RADIX_NONE[k]
        f[F_UPCARD_RANK] = 8 if up == _JOKER else up & 7
        return
    f[F_UPCARD_RANK] = 8 if up == _JOKER else up & 7
    players = tab[CFG_PLAYERS]
    dealer = np.int64(r["dealer"])
    trump = np.int64(r["trump"])
    rnd = np.int64(r["make_round"])
    h = maker_hand(r)
    eff = T_EFF + 4 * trump
    f[F_MAKER_POS] = r["maker_pos"]
    f[F_MAKER_SEAT] = maker
    f[F_MAKE_ROUND] = rnd - 1
    f[F_MAKER_ALONE] = r["maker_alone"]
    f[F_DEFENDER_ALONE] = r["defender_alone"]
    f[F_MAKER_TRUMPS] = popcount(h & tab[U(eff + trump)])
    f[F_RIGHT] = (h >> (8 * trump + 4)) & 1
    f[F_LEFT] = (h >> (8 * (3 - trump) + 4)) & 1
    f[F_JOKER] = (h >> _JOKER) & 1
    f[F_ACES] = popcount(h & _ACES & ~(np.int64(1) << (8 * trump + 7)))
    # arithmetic rather than `if` from here on: on random hands a branch mispredicts often
    voids = np.int64(0)
    for s in range(4):                 # the plain suits with none of their cards (trump's own taken off)
        voids += (h & tab[U(eff + s)]) == 0
    f[F_VOIDS] = voids - ((h & tab[U(eff + trump)]) == 0)
    # the dealer's side: the dealer, or (4 players) the dealer's partner
    dealer_side = (maker == dealer) | ((players == 4) & ((maker ^ dealer) & 1 == 0))
    f[F_UPCARD_TO_MAKERS] = (rnd == 1) & dealer_side & (r["discard"] != NO_CARD)   # C2: a dealer sitting out takes none
    up_suit = np.int64(r["joker_suit"]) if up == _JOKER else up >> 3
    f[F_TRUMP_VS_UPCARD] = (rnd - 1) * (1 + np.int64(trump != 3 - up_suit))
    mt = np.int64(r["maker_tricks"])
    f[F_OUTCOME] = np.int64(mt >= 3) + np.int64(mt == 5)
    f[F_MAKER_TRICKS] = mt


@njit(cache=True, _nrt=False)
def tally_groups_into(rows, tab, feats, starts, bases, radix, out, f):
    """Add every row into one cell of each grouping; ``f`` is NFEAT int64 of scratch.

    Grouping ``g`` is the features ``feats[starts[g]:starts[g + 1]]`` (ids),
    the first the most significant digit of its cell; its cells start at
    ``bases[g]``, and cell ``c`` holds NMEAS int64 from ``out[NMEAS * c]``
    in ``MEASURES`` order.  ``radix`` is ``RADIX`` as an array.
    """
    players = tab[CFG_PLAYERS]
    ng = bases.shape[0]
    for i in range(rows.shape[0]):
        r = rows[U(i)]
        row_features(r, tab, f)
        maker = np.int64(r["maker"])
        made = maker >= 0
        mt = np.int64(r["maker_tricks"])
        mk = np.int64(0)
        df = np.int64(0)
        if made:
            d = maker + 1 if maker + 1 < players else 0
            mk = _points_of(r, maker)
            df = _points_of(r, d)
        for g in range(ng):
            cell = np.int64(0)
            for k in range(starts[U(g)], starts[U(g + 1)]):
                fid = feats[U(k)]
                cell = cell * radix[U(fid)] + f[U(fid)]
            o = NMEAS * (bases[U(g)] + cell)
            out[U(o)] += 1
            out[U(o + 1)] += made
            out[U(o + 2)] += made & (mt >= 3)
            out[U(o + 3)] += made & (mt < 3)
            out[U(o + 4)] += made & (mt == 5)
            out[U(o + 5)] += mk
            out[U(o + 6)] += mk * mk
            out[U(o + 7)] += df
            out[U(o + 8)] += df * df


@njit(cache=True)
def tally_groups(rows, tab, feats, starts, bases, radix, out):
    """``tally_groups_into`` with its own scratch: for rows already in memory (runner.play_chunk)."""
    f = np.zeros(NFEAT, np.int64)
    tally_groups_into(rows, tab, feats, starts, bases, radix, out, f)


@njit(cache=True)
def features_of(rows, tab, out):
    """Every row's features into ``out`` (int64 [rows, NFEAT]): the same values the cells are counted by."""
    for i in range(rows.shape[0]):
        row_features(rows[i], tab, out[i])
