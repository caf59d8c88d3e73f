"""engine/layout.py: every integer array declared once, and each side reading the declaration.

A layout is (name, size) pairs with offsets computed, so the tests check
what hand-kept offsets got wrong before: two fields on one slot, a field
past the array's end, a name a kernel imports that the layout lacks, a
state slot ``start_hand`` does not reset, a tally slot the kernel writes
that no name reads.
"""
import ast
import os

import numpy as np
import pytest

from euchresim.engine import layout as L
from euchresim.engine.layout import Layout
from euchresim.engine.tables import build_tables
from euchresim.rules import Rules

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "euchresim")
LAYOUTS = [L.CFG, L.ST, L.PRIV, L.TAB, L.TALLY, L.TALLY_FIXED_SLOTS, L.TALLY_POS_SLOTS, L.TALLY_SEAT_SLOTS]


@pytest.mark.parametrize("lay", LAYOUTS, ids=lambda x: x.array)
def test_fields_are_disjoint_and_inside_the_array(lay):
    taken = np.zeros(lay.size, int)
    for name, k in lay.fields:
        if name and k:
            a, b = lay.span(name)
            assert 0 <= a < b <= lay.size, name
            taken[a:b] += 1
    assert taken.max() <= 1
    names = lay.slot_names()
    assert len(names) == lay.size


@pytest.mark.parametrize("lay,prefix", [(L.CFG, ""), (L.ST, ""), (L.PRIV, ""), (L.TAB, ""), (L.TALLY, ""),
                                        (L.TALLY_FIXED_SLOTS, "TALLY_"), (L.TALLY_POS_SLOTS, "TALLY_"),
                                        (L.TALLY_SEAT_SLOTS, "TALLY_")], ids=lambda x: getattr(x, "array", x))
def test_every_declared_name_is_a_plain_module_int_at_its_offset(lay, prefix):
    """numba reads a global int as a constant: the made names must be real ints, not lookups."""
    for name, at in lay.offsets().items():
        v = getattr(L, prefix + name.upper())
        assert type(v) is int and v == at, name
        k = dict(lay.fields)[name]
        if k > 1:
            assert getattr(L, prefix + name.upper() + "_END") == at + k
        assert prefix + name.upper() in L.__all__


def test_sizes_the_arrays_are_made_with():
    """Each size is its layout's, every field fits in it, and the tables a variant builds fill exactly TAB's."""
    for name in ("ST", "PRIV", "TAB", "CFG", "TALLY"):
        lay = getattr(L, name)
        assert getattr(L, name + "_SIZE") == lay.size >= lay.used > 0, name
        assert all(at + dict(lay.fields)[f] <= lay.size for f, at in lay.offsets().items()), name
    assert L.TAB.used == L.TAB_SIZE and L.TALLY.used == L.TALLY_SIZE        # read whole: no spare slot
    for players, deck in ((4, 24), (3, 25), (2, 33)):
        assert len(build_tables(Rules(players=players, deck=deck))) == L.TAB_SIZE
    assert L.PRIV_STATE == L.PRIV.span("DUMMY_KEEP")[1]              # the state ends after the last state slot
    assert (L.ST_KEEP, L.ST_KEEP_END) == L.ST.span("SCORE")


def test_a_layout_refuses_overlap_overflow_and_a_name_twice():
    with pytest.raises(ValueError):
        Layout("x", 3, (("A", 2), ("B", 2)))
    with pytest.raises(ValueError):
        Layout("x", 4, (("A", 1), ("A", 1)))
    with pytest.raises(ValueError):
        Layout.export({"A": 0}, Layout("x", 2, (("A", 1),)))
    lay = Layout("x", 6, (("A", 2), ("", 1), ("B", 0), ("C", 3)))
    assert lay.offsets() == {"A": 0, "B": 3, "C": 3}
    assert lay.slot_names() == ["A", "A", "", "C", "C", "C"]
    assert Layout.export({}, lay, prefix="P_") == {"P_A": 0, "P_A_END": 2, "P_B": 3, "P_C": 3, "P_C_END": 6}


def _layout_imports():
    """Every name any module takes from engine.layout, lazy imports and ``layout.NAME`` included."""
    used = []
    for folder, _, files in os.walk(ROOT):
        for f in files:
            if not f.endswith(".py"):
                continue
            path = os.path.join(folder, f)
            tree = ast.parse(open(path, encoding="utf-8").read())
            aliases = set()
            for node in ast.walk(tree):
                if isinstance(node, ast.ImportFrom) and node.module == "euchresim.engine.layout":
                    used += [(path, a.name) for a in node.names]
                if isinstance(node, ast.ImportFrom) and node.module == "euchresim.engine":
                    aliases |= {a.asname or a.name for a in node.names if a.name == "layout"}
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
                    used.append((path, node.attr))
    return used


def test_every_name_the_code_takes_from_the_layout_exists():
    used = _layout_imports()
    assert len(used) > 100                 # the scan does find the kernels' imports
    missing = [f"{os.path.relpath(p, ROOT)}: {n}" for p, n in used if not hasattr(L, n)]
    assert not missing, missing


def test_start_hand_resets_every_state_slot_but_the_game_score():
    """Every slot, those declared after SCORE too, starts each hand afresh; only the game score carries over."""
    from euchresim.engine.hand import start_hand
    from euchresim.engine.tables import build_tables
    from euchresim.rules import Rules
    tab = build_tables(Rules())
    st = np.full(L.ST_SIZE, 77, np.int64)
    priv = np.full(L.PRIV_SIZE, 77, np.int64)
    hands = np.array([0b11111, 0b11111 << 5, 0b11111 << 10, 0b11111 << 15], np.int64)
    start_hand(st, priv, tab, np.int64(0), hands, np.int64(0), np.int64(20), np.int64(1 << 21 | 1 << 22 | 1 << 23))
    keep = np.zeros(L.ST_SIZE, bool)
    keep[L.ST_KEEP:L.ST_KEEP_END] = True
    assert (st[keep] == 77).all()
    stale = [L.ST.slot_names()[i] or f"spare {i}" for i in np.flatnonzero((st == 77) & ~keep)]
    assert not stale, stale
    assert st[L.ST_SIZE - 1] == 0                   # the array's last slot, declared or spare
    assert not (priv[:L.PRIV_STATE] == 77).any()


def test_the_tally_kernel_writes_only_named_slots():
    from euchresim.engine.layout import HAND_DTYPE
    from euchresim.loops.tally import tally_hands
    from euchresim.run.runner import tally_names
    rng = np.random.default_rng(5)
    for players in (2, 3, 4):
        rows = np.zeros(500, HAND_DTYPE)
        rows["dealer"] = rng.integers(0, players, 500)
        rows["maker"] = rng.integers(-1, players, 500)
        rows["maker_pos"] = (rows["maker"] - rows["dealer"]) % players
        rows["make_round"] = rng.integers(1, 3, 500)
        rows["maker_tricks"] = rng.integers(0, 6, 500)
        rows["maker_alone"] = players > 2 and rng.integers(0, 2, 500)
        for s in range(players):
            rows[f"points{s}"] = rng.integers(0, 5, 500)
        out = np.zeros(L.TALLY_SIZE, np.int64)
        tally_hands(rows, np.int64(players), out)
        names = tally_names(players)
        assert len(names) == L.TALLY_SIZE
        # with 3 players the kernel adds seat 0 less seat 1 all the same (no branch); no name reads it
        read = {i for i, n in enumerate(names) if n} | {L.TALLY_FIXED + L.TALLY_SIDE_DIFF,
                                                       L.TALLY_FIXED + L.TALLY_SIDE_DIFF_SQ}
        written = [i for i in np.flatnonzero(out) if i not in read]
        assert not written, (players, written)
        assert out[names.index("hands")] == 500


def test_the_outcome_slots_are_read_by_name():
    from euchresim.loops.record_steps import OUTCOME_SLOTS
    want = ([L.MAKER, L.TRUMP] + list(range(*L.ST.span("TRICK_WINNER"))) + list(range(*L.ST.span("TRICKS")))
            + list(range(*L.ST.span("POINTS"))))
    assert list(OUTCOME_SLOTS) == want


ST_ARRAYS = {"st", "st0", "st2", "state"}          # arrays laid out as ST in the kernels
PRIV_ARRAYS = {"priv", "priv0", "priv2", "world"}  # arrays laid out as PRIV (a search bot's world is one)


def _index_names(node):
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id.isupper()}


def test_no_kernel_indexes_the_public_state_with_a_private_field_or_back():
    """``st[DUMMY_KEEP]`` read st[TRUMP] in pimc's Cutthroat sampler: an index from the other array's layout."""
    st_names = {n for n, _ in L.ST.fields if n}
    priv_names = {n for n, _ in L.PRIV.fields if n}
    assert not st_names & priv_names
    wrong, seen = [], 0
    for folder in ("engine", "policies", "loops"):
        for base, _, files in os.walk(os.path.join(ROOT, folder)):
            for f in files:
                if not f.endswith(".py"):
                    continue
                path = os.path.join(base, f)
                with open(path, encoding="utf-8") as fh:
                    tree = ast.parse(fh.read())
                for node in ast.walk(tree):
                    if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)):
                        continue
                    names = _index_names(node.slice)
                    arr = node.value.id
                    if arr in ST_ARRAYS:
                        seen += 1
                        bad = names & priv_names
                    elif arr in PRIV_ARRAYS:
                        seen += 1
                        bad = names & st_names
                    else:
                        continue
                    wrong += [f"{os.path.relpath(path, ROOT)}:{node.lineno}: {arr}[{n}]" for n in sorted(bad)]
    assert seen > 300                      # the scan does see the kernels' state reads
    assert not wrong, wrong


def test_one_sentinel_each_for_no_discard_and_no_keep_in_state_rows_and_records():
    from euchresim.records.rows import row_record
    from tests.helpers import rows_of
    for players, deck in ((3, 25), (4, 24)):
        rules, res = rows_of(players=players, deck=deck, policy="baseline", seed=2, n=600)
        rows = res.hands
        took = rows["dummy_keep"] != L.NO_KEEP
        assert (took.any() if players == 3 else not took.any())
        assert (rows["discard"] == L.NO_CARD).any() and (rows["discard"] != L.NO_CARD).any()
        for i in (np.flatnonzero(took)[:3].tolist() + np.flatnonzero(~took)[:3].tolist()):
            rec, _ = row_record(rules, rows[i], res.plays[i])
            assert (rec.dummy_keep is None) == (not took[i])
            assert (rec.discard is None) == (rows["discard"][i] == L.NO_CARD)
    assert {L.NO_CARD, L.NO_KEEP} == {-1, 0}      # a card index is never -1, a 5-card board never 0
