"""Exact deal odds for a 5-card hand, by counting (pandas out).

The deal is a uniform split of the pack (R4), so what one hand holds is a
draw of 5 cards without replacement from the cards that hand can get:
every question here ("how many trumps?", "a bower?", "a void?") is a
hypergeometric count, computed exactly with ``math.comb`` and
``fractions.Fraction``.  A report's appendix prints them next to the rates
its simulation measured (``odds_table``), which checks the deal and tells
the reader how much of a policy's result is the cards.

Conditions (``upcard``):

* ``"trump"`` (the default): the upcard is not the joker and its suit is
  trump, as when round one is decided (R5); the hand is 5 of the other
  ``deck - 1`` cards.  The upcard is equally likely to be any card of the
  trump suit, which matters for counts of particular cards (bowers, aces).
* a card index (``cards.parse_card("9H")``): that upcard, its suit trump.
* ``None``: no upcard; trump is a given suit and the hand is 5 of all
  ``deck`` cards.

Trumps are counted as R2 plays them: the trump suit, the left bower (the
jack of the same-colour suit) and the joker (C4).  A void is a suit the
hand has no card of *as played*: the left bower is not of its printed
suit, so with trump fixed the four suits are trump (with both bowers and
the joker), next (trump's colour, less its jack) and the two others.
"""
from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pandas as pd

from euchresim.cards import JOKER, RANK_A, RANK_J, card_index, cards_of, pack_mask
from euchresim.stats import wilson

HAND = 5
WHATS = ("trumps", "bowers", "aces", "voids", "joker")


def groups(deck: int, trump: int) -> dict[str, int]:
    """The pack as boards by suit as played with ``trump``: trump, next, and the two other suits."""
    pack = pack_mask(deck)
    byte = lambda s: pack & (0xFF << (8 * s))          # noqa: E731
    left = 1 << card_index(3 - trump, RANK_J)
    others = [s for s in range(4) if s not in (trump, 3 - trump)]
    return {"trump": byte(trump) | left | (pack & (1 << JOKER)), "next": byte(3 - trump) & ~left,
            "other_a": byte(others[0]), "other_b": byte(others[1])}


def special(deck: int, trump: int, what: str) -> int:
    """The board of the cards ``what`` counts (not voids, which count suits)."""
    if what == "trumps":
        return groups(deck, trump)["trump"]
    if what == "bowers":       # right and left bower: the two jacks that are trumps
        return (1 << card_index(trump, RANK_J)) | (1 << card_index(3 - trump, RANK_J))
    if what == "aces":
        return sum(1 << card_index(s, RANK_A) for s in range(4))
    if what == "joker":
        return pack_mask(deck) & (1 << JOKER)
    raise ValueError(f"what must be one of {WHATS}, not {what!r}")


def _upcards(deck: int, upcard, trump: int):
    """(trump, the upcard's board or 0) pairs, equally likely, for a condition."""
    if upcard is None:
        return [(trump, 0)]
    if upcard == "trump":
        return [(trump, 1 << c) for c in cards_of(pack_mask(deck) & (0xFF << (8 * trump)))]
    c = int(upcard)
    if c == JOKER or not (pack_mask(deck) >> c) & 1:
        raise ValueError("the upcard must be a card of the pack other than the joker (its suit is trump)")
    return [(c >> 3, 1 << c)]


def hypergeom(pool: int, marked: int, hand: int = HAND) -> list[Fraction]:
    """P(k marked cards) for k = 0..hand in a draw of ``hand`` from ``pool`` holding ``marked``."""
    total = math.comb(pool, hand)
    return [Fraction(math.comb(marked, k) * math.comb(pool - marked, hand - k), total) for k in range(hand + 1)]


def shape_distribution(deck: int, upcard="trump", trump: int = 0) -> pd.DataFrame:
    """The joint distribution of cards in each suit as played: ``trump``, ``next``, ``other_a``, ``other_b``.

    One row per split of 5 cards among the four suits, with ``exact``
    (a Fraction) and ``prob``.  Where the upcard is among the trumps does
    not change the split, so the conditions differ only in the trump
    suit's size.
    """
    rows = {}
    for t, up in _upcards(deck, upcard, trump):
        g = groups(deck, t)
        sizes = [bin(g[n] & ~up).count("1") for n in ("trump", "next", "other_a", "other_b")]
        pool = sum(sizes)
        total = math.comb(pool, HAND)
        for split in itertools.product(range(HAND + 1), repeat=4):
            if sum(split) != HAND:
                continue
            ways = math.prod(math.comb(n, k) for n, k in zip(sizes, split))
            if ways:
                rows[split] = rows.get(split, Fraction(0)) + Fraction(ways, total)
    m = len(_upcards(deck, upcard, trump))
    out = pd.DataFrame([(*k, v / m) for k, v in sorted(rows.items())],
                       columns=["trump", "next", "other_a", "other_b", "exact"])
    out["prob"] = out["exact"].astype(float)
    return out


def distribution(deck: int, what: str = "trumps", upcard="trump", trump: int = 0) -> pd.DataFrame:
    """P(the hand holds k of ``what``), k = 0..5: columns ``k``, ``exact`` (Fraction), ``prob``.

    ``what``: ``trumps``, ``bowers`` (right and left), ``aces`` (printed
    aces, the trump ace included), ``joker``, or ``voids`` (suits as played
    that the hand has no card of, 0..3).  Values of k that cannot happen
    are left out.
    """
    if what == "voids":
        shapes = shape_distribution(deck, upcard, trump)
        k = (shapes[["trump", "next", "other_a", "other_b"]] == 0).sum(axis=1)
        acc = {}
        for kk, e in zip(k, shapes["exact"]):
            acc[int(kk)] = acc.get(int(kk), Fraction(0)) + e
    else:
        ups = _upcards(deck, upcard, trump)
        acc = {}
        for t, up in ups:
            marked = bin(special(deck, t, what) & ~up).count("1")
            pool = bin(pack_mask(deck) & ~up).count("1")
            for kk, p in enumerate(hypergeom(pool, marked)):
                if p:
                    acc[kk] = acc.get(kk, Fraction(0)) + p / len(ups)
    out = pd.DataFrame(sorted(acc.items()), columns=["k", "exact"])
    out["prob"] = out["exact"].astype(float)
    return out


def _popcount(a: np.ndarray) -> np.ndarray:
    return np.bitwise_count(a.astype(np.uint64)).astype(np.int64)


def observed(hands, deck: int, what: str = "trumps", seat: int = 0) -> np.ndarray:
    """``what`` counted in one seat's dealt hand, from simulated hand rows, under ``upcard="trump"``.

    Rows whose upcard is the joker are left out (the condition excludes
    them).  One seat a row, so the counts are independent draws.
    """
    df = pd.DataFrame(hands) if not isinstance(hands, pd.DataFrame) else hands
    up = df["upcard"].to_numpy(np.int64)
    keep = up != JOKER
    up = up[keep]
    hand = df[f"hand{seat}"].to_numpy(np.int64)[keep]
    suit = up >> 3
    pack = pack_mask(deck)
    boards = {}
    for t in range(4):
        if what == "voids":
            g = groups(deck, t)
            boards[t] = list(g.values())
        else:
            boards[t] = [special(deck, t, what)]
    out = np.zeros(len(hand), np.int64)
    for t in range(4):
        m = suit == t
        if what == "voids":
            out[m] = sum((_popcount(hand[m] & b) == 0).astype(np.int64) for b in boards[t])
        else:
            out[m] = _popcount(hand[m] & boards[t][0] & pack)
    return out


def odds_table(deck: int, what: str = "trumps", hands=None, seat: int = 0) -> pd.DataFrame:
    """The exact odds (upcard trump) next to the simulated ones, for a report's appendix.

    Columns ``k``, ``exact`` (a float), and with ``hands`` (simulated hand
    rows of this pack): ``count``, ``of``, ``simulated``, ``ci_low``,
    ``ci_high`` (Wilson 95%), ``inside`` (the exact value lies in the
    interval; about 1 in 20 rows misses by chance).
    """
    ex = distribution(deck, what)
    out = pd.DataFrame({"k": ex["k"], "exact": ex["prob"]})
    if hands is None:
        return out
    got = observed(hands, deck, what, seat)
    n = len(got)
    counts = np.bincount(got, minlength=HAND + 1)
    out["count"] = [int(counts[k]) for k in out["k"]]
    out["of"] = n
    out["simulated"] = out["count"] / n
    ci = [wilson(c, n) for c in out["count"]]
    out["ci_low"] = [a for a, _ in ci]
    out["ci_high"] = [b for _, b in ci]
    out["inside"] = (out["ci_low"] <= out["exact"]) & (out["exact"] <= out["ci_high"])
    return out


def expected(deck: int, what: str = "trumps", upcard="trump") -> Fraction:
    """The mean count, exactly (a quick line for a report: 'a hand holds 1.67 trumps')."""
    d = distribution(deck, what, upcard)
    return sum((int(k) * e for k, e in zip(d["k"], d["exact"])), Fraction(0))


__all__ = ["groups", "special", "hypergeom", "shape_distribution", "distribution", "observed",
           "odds_table", "expected"]
