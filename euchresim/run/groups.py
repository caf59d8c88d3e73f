"""Groupings a run tallies as it goes: the features, their labels, the kernel's arrays.

A run of 10^9 hands keeps no rows, so a question like "how often is a
dealer with three trumps euchred?" must be declared before the run:
``RunSpec(groups=(("maker_pos", "maker_trumps"),))``.  Each chunk then adds
every hand into one cell of each grouping (``engine.features``), the cells
merge exactly across chunks (integers), and ``aggregates.group_frame``
turns them into rates and means with intervals.  A grouping is data, not
code: declaring a new one compiles nothing.

In a chunk's counts the cells are ``counts["groups"][name][measure]``, a
list of ints (JSON, like the rest of the counts), ``name`` the features
joined by commas and ``measure`` one of ``MEASURES``; cell ``c`` is the
mixed-radix number of the features' values, the first feature the most
significant digit.
"""
from __future__ import annotations

import math

import numpy as np

from euchresim.engine.features import FEATURES, MEASURES, NMEAS, RADIX
from euchresim.rules import POSITION_NAMES

MAX_CELLS = 1 << 16     # per grouping: every chunk's counts carry every cell, as JSON

_NONE = "none"
_YES_NO = ("no", "yes", _NONE)
_TRICKS = ("0", "1", "2", "3", "4", "5", _NONE)
_FEW = ("0", "1", "2", "3", _NONE)

# value labels, by value; a callable takes the number of players (None: a value that cannot occur)
LABELS = {
    "maker_pos": lambda players: [_position(p, players) for p in range(4)] + [_NONE],
    "maker_seat": lambda players: [str(s) if s < players else None for s in range(4)] + [_NONE],
    "make_round": ("1", "2", _NONE),
    "maker_alone": _YES_NO,
    "defender_alone": _YES_NO,
    "maker_trumps": _TRICKS,
    "maker_right_bower": _YES_NO,
    "maker_left_bower": _YES_NO,
    "maker_joker": _YES_NO,
    "maker_offsuit_aces": _FEW,
    "maker_voids": _FEW,
    "upcard_rank": ("7", "8", "9", "T", "J", "Q", "K", "A", "joker"),
    "upcard_to_makers": _YES_NO,
    "trump_vs_upcard": ("upcard", "next", "cross", _NONE),
    "outcome": ("euchred", "made", "march", _NONE),
    "maker_tricks": _TRICKS,
}
if tuple(LABELS) != FEATURES or not all(callable(v) or len(v) == r for v, r in zip(LABELS.values(), RADIX)):
    raise RuntimeError("run/groups.py: LABELS must name every feature of FEATURES, in order, one label per value")

_ID = {name: i for i, name in enumerate(FEATURES)}
_RADIX = np.array(RADIX, np.int64)


class GroupingError(ValueError):
    """A grouping that cannot be tallied: an unknown feature, a repeat, too many cells."""


_POSITIONS = POSITION_NAMES       # rules.POSITION_NAMES: analysis.position_names' too


def _position(p: int, players: int):
    names = _POSITIONS[players]
    return names[p] if p < players else None


def parse_grouping(grouping) -> tuple[str, ...]:
    """A grouping as a tuple of feature names, from that tuple or from ``"maker_pos,make_round"``."""
    names = tuple(n.strip() for n in grouping.split(",")) if isinstance(grouping, str) else tuple(grouping)
    if not names:
        raise GroupingError("a grouping needs at least one feature")
    for n in names:
        if n not in _ID:
            raise GroupingError(f"unknown feature {n!r} in grouping {','.join(map(str, names))}; "
                                f"the features are: {', '.join(FEATURES)}")
    if len(set(names)) != len(names):
        raise GroupingError(f"a feature appears twice in grouping {','.join(names)}")
    if cells(names) > MAX_CELLS:
        raise GroupingError(f"grouping {','.join(names)} has {cells(names):,} cells, more than "
                            f"{MAX_CELLS:,}: split it into smaller groupings")
    return names


def parse_groups(groups) -> tuple[tuple[str, ...], ...]:
    """Every grouping of ``RunSpec.groups`` checked, a repeat dropped (it would tally the same cells)."""
    if isinstance(groups, str):
        groups = (groups,)
    out = []
    for g in groups:
        g = parse_grouping(g)
        if g not in out:
            out.append(g)
    return tuple(out)


def radices(grouping) -> list[int]:
    return [RADIX[_ID[n]] for n in grouping]


def cells(grouping) -> int:
    return math.prod(radices(grouping))


def labels(feature: str, players: int) -> list:
    """Value labels of ``feature``, by value (None for a value that cannot occur with these players)."""
    v = LABELS[feature]
    return list(v(players)) if callable(v) else list(v)


class Plan:
    """The kernel's arrays for a tuple of groupings (``engine.features.tally_groups``)."""

    def __init__(self, groups):
        self.groups = parse_groups(groups)
        ids = [_ID[n] for g in self.groups for n in g]
        self.feats = np.array(ids, np.int64)
        self.starts = np.cumsum([0] + [len(g) for g in self.groups]).astype(np.int64)
        sizes = [cells(g) for g in self.groups]
        self.bases = np.cumsum([0] + sizes[:-1]).astype(np.int64)
        self.radix = _RADIX
        self.size = NMEAS * sum(sizes)

    def args(self):
        return self.feats, self.starts, self.bases, self.radix

    def zeros(self) -> np.ndarray:
        return np.zeros(self.size, np.int64)

    def counts(self, out: np.ndarray) -> dict:
        """The kernel's ``out`` as JSON-ready counts: grouping name -> measure -> a list over cells."""
        res = {}
        for g, base in zip(self.groups, self.bases):
            block = out[NMEAS * base:NMEAS * (base + cells(g))].reshape(-1, NMEAS)
            res[",".join(g)] = {m: block[:, j].tolist() for j, m in enumerate(MEASURES)}
        return res
