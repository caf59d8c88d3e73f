"""Grouped tallies: the jitted features and cells against a slow twin, the ring, merge, the table."""
import json
import math

import numpy as np
import pandas as pd
import pytest

from euchresim.run import groups
from euchresim.run import jobs, runner
from euchresim.analysis.aggregates import cell_array, feature_frame, group_frame
from euchresim.analysis import position_names
from euchresim.cards import JOKER, RANKS, SUITS
from euchresim.engine.features import FEATURES, MEASURES, RADIX
from euchresim.rules import Rules
from tests.helpers import run_spec, slow_card_name, slow_is_trump
from tests.helpers import VARIANTS, bits, fast_and_full

NONE = {f: r - 1 for f, r in zip(FEATURES, RADIX)}
# every feature in a grouping of its own, and four joint ones (mixed radix, several digits)
GROUPINGS = tuple((f,) for f in FEATURES) + (
    ("maker_pos", "make_round", "outcome"),
    ("upcard_rank", "trump_vs_upcard", "maker_trumps"),
    ("maker_right_bower", "maker_left_bower", "maker_joker", "maker_offsuit_aces", "maker_voids"),
    ("maker_tricks", "maker_seat", "maker_alone", "defender_alone", "upcard_to_makers"),
)


def slow_features(r, players):
    """Each feature from the row, by the rules (R2, R5, R8, R9, C2) rather than by the kernel's shortcuts."""
    up = int(r["upcard"])
    f = dict(NONE)
    f["upcard_rank"] = 8 if up == JOKER else RANKS.index(slow_card_name(up)[0])
    maker = int(r["maker"])
    if maker < 0:
        return f
    dealer, trump, rnd = int(r["dealer"]), int(r["trump"]), int(r["make_round"])
    alone = int(r["alone"])
    dealer_out = (int(r["out"]) >> dealer) & 1
    if players == 3 and not (alone >> maker) & 1:            # R9: a Cutthroat maker takes the dummy
        hand = set(bits(r["dummy_keep"]))
        assert len(hand) == 5
    else:
        hand = set(bits(r[f"hand{maker}"]))
        if maker == dealer and rnd == 1 and not dealer_out:   # R5: the dealer's exchange
            hand = (hand | {up}) - {int(r["discard"])}
    names = [slow_card_name(c) for c in hand]
    suit = SUITS[trump]
    left_suit = {"C": "S", "S": "C", "D": "H", "H": "D"}[suit]
    f["maker_pos"] = (maker - dealer) % players
    f["maker_seat"] = maker
    f["make_round"] = rnd - 1
    f["maker_alone"] = (alone >> maker) & 1
    f["defender_alone"] = int(alone & ~(1 << maker) != 0)
    f["maker_trumps"] = sum(slow_is_trump(n, trump) for n in names)
    f["maker_right_bower"] = int("J" + suit in names)
    f["maker_left_bower"] = int("J" + left_suit in names)
    f["maker_joker"] = int("JK" in names)
    f["maker_offsuit_aces"] = sum(n[0] == "A" and n[1] != suit for n in names)
    plain = [n[1] for n in names if not slow_is_trump(n, trump)]
    f["maker_voids"] = sum(s not in plain for s in SUITS if s != suit)
    partners = {maker, (maker + 2) % 4} if players == 4 else {maker}
    f["upcard_to_makers"] = int(rnd == 1 and dealer in partners and not dealer_out)
    up_suit = int(r["joker_suit"]) if up == JOKER else up // 8
    f["trump_vs_upcard"] = 0 if rnd == 1 else 1 if SUITS[trump] == {"C": "S", "S": "C", "D": "H",
                                                                     "H": "D"}[SUITS[up_suit]] else 2
    tricks = int(r["maker_tricks"])
    f["outcome"] = 0 if tricks < 3 else 2 if tricks == 5 else 1
    f["maker_tricks"] = tricks
    return f


def slow_cells(rows, players, grouping):
    """A grouping's cells, measure by measure, from the twin's features."""
    shape = [RADIX[FEATURES.index(g)] for g in grouping]
    out = {m: np.zeros(shape, np.int64) for m in MEASURES}
    for r in rows:
        f = slow_features(r, players)
        at = tuple(f[g] for g in grouping)
        maker = int(r["maker"])
        tricks = int(r["maker_tricks"])
        mk = int(r[f"points{maker}"]) if maker >= 0 else 0
        df = int(r[f"points{(maker + 1) % players}"]) if maker >= 0 else 0
        for m, v in (("hands", 1), ("made", maker >= 0), ("made_ok", maker >= 0 and tricks >= 3),
                     ("euchred", maker >= 0 and tricks < 3), ("march", maker >= 0 and tricks == 5),
                     ("maker_points", mk), ("maker_points_sq", mk * mk),
                     ("defender_points", df), ("defender_points_sq", df * df)):
            out[m][at] += v
    return {m: a.ravel().tolist() for m, a in out.items()}


def spec_of(players=4, deck=24, policy="random", n=1500, seed=0, grouping=GROUPINGS, mode="hands", **opts):
    return run_spec(rules=Rules(players=players, deck=deck, **opts), policies=(policy,), seed=seed,
                       mode=mode, count=n, chunk_size=n, groups=grouping)


@pytest.mark.parametrize("players,deck", VARIANTS)
@pytest.mark.parametrize("policy", ["random", "baseline"])
@fast_and_full("n", 300, 1500)
def test_features_and_cells_match_their_slow_twin(players, deck, policy, n):
    opts = {"defend_alone": True} if players == 4 else {}
    s = spec_of(players, deck, policy, n=n, seed=players * deck, **opts)
    res = runner.play_chunk(s, 0)
    fast = feature_frame(res.hands, s.rules)
    values = {f: [groups.labels(f, players).index(x) for x in fast[f]] for f in FEATURES}
    for i, r in enumerate(res.hands):
        want = slow_features(r, players)
        got = {f: values[f][i] for f in FEATURES}
        assert got == want, (i, {f: (got[f], want[f]) for f in FEATURES if got[f] != want[f]})
    counts = runner.tally(res, players)["groups"]
    assert list(counts) == [",".join(g) for g in GROUPINGS]
    for g in GROUPINGS:
        assert counts[",".join(g)] == slow_cells(res.hands, players, g), g
    # the cells add up to the chunk's own tally
    assert sum(counts["maker_pos"]["hands"]) == len(res.hands)
    assert sum(counts["outcome"]["euchred"]) == int(res.hands["euchred"].sum())


@pytest.mark.parametrize("opts", [{"joker_upcard": "redeal"}, {"joker_upcard": "H", "stick_the_dealer": True}])
def test_joker_upcards_in_the_twin(opts):
    """Joker upcards are rare: a run of them (a redeal, a fixed suit in round two) to be sure they are seen."""
    s = spec_of(4, 33, "baseline", n=4000, seed=3, defend_alone=True, **opts)
    res = runner.play_chunk(s, 0)
    joker = res.hands["upcard"] == JOKER
    assert joker.sum() > 50
    if opts["joker_upcard"] == "H":
        assert (joker & (res.hands["make_round"] == 2)).sum() > 5
    counts = runner.tally(res, 4)["groups"]
    for g in GROUPINGS[-4:] + (("upcard_rank",), ("trump_vs_upcard",)):
        assert counts[",".join(g)] == slow_cells(res.hands, 4, g), g


def test_every_value_of_every_feature_is_seen():
    """So the twin test compares something: each value that can occur occurs, in one variant or another."""
    seen = {f: set() for f in FEATURES}
    for players, deck, policy in ((4, 33, "random"), (3, 25, "baseline"), (4, 32, "baseline"), (2, 24, "random")):
        opts = {"defend_alone": True} if players == 4 else {}
        s = spec_of(players, deck, policy, n=4000, seed=1, grouping=(), **opts)
        df = feature_frame(runner.play_chunk(s, 0).hands, s.rules)
        for f in FEATURES:
            seen[f] |= {groups.labels(f, players).index(x) for x in df[f].unique()}
    for f, r in zip(FEATURES, RADIX):
        assert seen[f] == set(range(r)), f


@pytest.mark.parametrize("players,policy", [(4, "random"), (3, "baseline"), (2, "random"), (4, "baseline")])
def test_the_ring_counts_as_the_kept_rows_do(players, policy):
    """keep_rows=False tallies the ring block by block: the same cells, the same tally."""
    opts = {"defend_alone": True} if players == 4 else {}
    s = spec_of(players, 25, policy, n=3 * runner.ROW_RING + 123, seed=5, **opts)
    kept = runner.play_chunk(s, 0)
    scratch = {}
    ringed = runner.play_chunk(s, 0, scratch, keep_rows=False)
    assert len(ringed.hands) == 0 and len(scratch["ring"][0]) == runner.ROW_RING
    assert runner.tally(kept, players) == runner.tally(ringed, players)
    plain = runner.play_chunk(spec_of(players, 25, policy, n=s.count, seed=5, grouping=(), **opts), 0,
                           keep_rows=False)
    without = runner.tally(plain, players)
    assert "groups" not in without and without == {k: v for k, v in runner.tally(ringed, players).items()
                                                   if k != "groups"}


def _direct(players, n, ring, grouped):
    """A chunk through run_hands or run_hands_grouped with a ring of ``ring`` rows."""
    from euchresim.loops.hands import run_hands, run_hands_grouped
    from euchresim.engine.layout import HAND_DTYPE, TALLY_SIZE
    from euchresim.policies import functions, resolve
    from euchresim.engine.tables import build_tables
    rules = Rules(players=players, deck=32)
    tab = build_tables(rules)
    pids, params, _ = resolve(["baseline"], players)
    fns = functions(["baseline"], players)
    drng, prng = runner.chunk_states(9, 0)
    rows, plays = np.zeros(ring, HAND_DTYPE), np.zeros((ring, 20), np.int8)
    counts = np.zeros(TALLY_SIZE, np.int64)
    plan = groups.Plan(GROUPINGS)
    cells = plan.zeros()
    if grouped:
        err, _ = run_hands_grouped(tab, n, drng, prng, pids, params, fns, rows, plays, 0, counts, *plan.args(), cells)
    else:
        err, _ = run_hands(tab, n, drng, prng, pids, params, fns, rows, plays, 0, counts)
    assert err == 0
    return rows, plays, counts, cells


@pytest.mark.parametrize("players", [2, 3, 4])
def test_blocks_are_run_hands_hand_for_hand(players):
    """Every block of run_hands_grouped's ring holds exactly run_hands's rows (a block ends the chunk)."""
    ring, n = 64, 64 * 6 + 17
    full, full_plays, full_counts, _ = _direct(players, n, n, False)
    for stop in list(range(ring, n, ring)) + [n]:
        rows, plays, counts, _ = _direct(players, stop, ring, True)
        first = (stop - 1) // ring * ring
        assert np.array_equal(rows[:stop - first], full[first:stop])
        assert np.array_equal(plays[:stop - first], full_plays[first:stop])
    assert np.array_equal(counts, full_counts)
    res = runner.ChunkResult(0, full, full_plays)
    from euchresim.engine.features import tally_groups
    from euchresim.engine.tables import build_tables
    plan = groups.Plan(GROUPINGS)
    want = plan.zeros()
    tally_groups(res.hands, build_tables(Rules(players=players, deck=32)), *plan.args(), want)
    assert np.array_equal(_direct(players, n, ring, True)[3], want)


def test_one_compiled_kernel_serves_every_grouping():
    from euchresim.loops.hands import run_hands_grouped
    from euchresim.engine.features import tally_groups
    for g in ((("maker_pos",),), (("outcome", "maker_trumps"), ("upcard_rank",))):
        s = spec_of(4, 24, "random", n=3000, grouping=g)
        runner.play_chunk(s, 0)
        runner.play_chunk(s, 0, keep_rows=False)
    assert len(tally_groups.signatures) == 1
    assert len(run_hands_grouped.signatures) == 1


def test_games_and_rubbers_are_tallied_from_their_rows():
    for mode, n in (("games", 40), ("rubbers", 10)):
        s = spec_of(4, 24, "baseline", n=n, mode=mode, grouping=GROUPINGS[-4:])
        res = runner.play_chunk(s, 0)
        counts = runner.tally(res, 4)["groups"]
        assert sum(counts["maker_pos,make_round,outcome"]["hands"]) == len(res.hands) > n
        for g in GROUPINGS[-4:]:
            assert counts[",".join(g)] == slow_cells(res.hands, 4, g)


def test_merge_is_exact_and_shares_nothing():
    s = run_spec(rules=Rules(), policies=("baseline",), seed=2, count=7000, chunk_size=3000,
                    groups=GROUPINGS[-4:])
    parts = [json.loads(json.dumps(runner.tally(runner.play_chunk(s, i, keep_rows=False), 4))) for i in range(3)]
    before = json.dumps(parts)
    total = {}
    for p in parts:
        jobs.merge(total, p)
    assert json.dumps(parts) == before          # no part was changed by the merge
    for name in total["groups"]:
        for m in MEASURES:
            assert total["groups"][name][m] == [a + b + c for a, b, c in
                                                zip(*(p["groups"][name][m] for p in parts))]
    assert total["hands"] == 7000 == sum(total["groups"][",".join(GROUPINGS[-1])]["hands"])
    assert total == runner.run(s, workers=1)
    with pytest.raises(runner.SimError, match="cells"):
        jobs.merge({"groups": {"x": {"hands": [1, 2]}}}, {"groups": {"x": {"hands": [1]}}})
    assert jobs.merge({"a": 1}, {"a": 2, "b": 3}) == {"a": 3, "b": 3}     # numbers as before


def test_a_run_that_writes_files_counts_the_same_cells(tmp_path):
    """Kept rows tallied after the kernel, through the parts folder's JSON, as the ring would count."""
    s = run_spec(rules=Rules(players=3, deck=25), policies=("baseline",), seed=4, count=5000,
                    chunk_size=2500, groups=(("maker_pos", "maker_trumps"),))
    written = runner.run(s, workers=1, outputs=runner.Outputs(parquet=str(tmp_path / "g.parquet")))
    assert written == runner.run(s, workers=1)
    assert sum(written["groups"]["maker_pos,maker_trumps"]["made"]) == written["made"]


def test_meta_is_unchanged_without_groups():
    plain = run_spec(rules=Rules(), count=10)
    assert set(plain.meta()) == {"euchresim", "engine_version", "rules", "policies", "seed", "mode",
                                 "count", "chunk_size"}
    grouped = run_spec(rules=Rules(), count=10, groups=("maker_pos, make_round", ["outcome"], ("outcome",)))
    assert grouped.groups == (("maker_pos", "make_round"), ("outcome",))
    assert grouped.meta()["groups"] == [["maker_pos", "make_round"], ["outcome"]]
    assert json.loads(json.dumps(grouped.meta())) == grouped.meta()


def test_an_unknown_feature_is_named_with_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown feature 'trumps'.*maker_pos, maker_seat, make_round"):
        run_spec(rules=Rules(), groups=(("maker_pos", "trumps"),))
    with pytest.raises(groups.GroupingError, match="twice"):
        groups.parse_grouping("outcome,outcome")
    with pytest.raises(groups.GroupingError, match="at least one"):
        groups.parse_grouping(())
    with pytest.raises(groups.GroupingError, match="cells"):
        groups.parse_grouping(FEATURES[:10])


def test_position_labels_are_the_summary_tables():
    for players in (2, 3, 4):
        assert [x for x in groups.labels("maker_pos", players) if x is not None] == position_names(players) + ["none"]
    assert all(len(groups.labels(f, 4)) == r for f, r in zip(FEATURES, RADIX))


def _hand_built():
    """maker_alone x make_round: (no, 1) 10 made hands, (yes, 2) 4, (none, none) 6 thrown in."""
    g = ("maker_alone", "make_round")
    cells = {m: np.zeros((3, 3), np.int64) for m in MEASURES}
    for m, v in (("hands", 10), ("made", 10), ("made_ok", 8), ("euchred", 2), ("march", 3),
                 ("maker_points", 12), ("maker_points_sq", 18), ("defender_points", 4), ("defender_points_sq", 8)):
        cells[m][0, 0] = v
    for m, v in (("hands", 4), ("made", 4), ("made_ok", 4), ("march", 2),
                 ("maker_points", 8), ("maker_points_sq", 22)):
        cells[m][1, 1] = v
    cells["hands"][2, 2] = 6
    return {"hands": 20, "groups": {",".join(g): {m: a.ravel().tolist() for m, a in cells.items()}}}


def test_the_table_of_a_hand_built_tally():
    df = group_frame(_hand_built(), ("maker_alone", "make_round"), 4)
    assert list(df["maker_alone"]) == ["no", "yes", "none"] and list(df["make_round"]) == ["1", "2", "none"]
    assert list(df["hands"]) == [10, 4, 6] and list(df["made"]) == [10, 4, 0]
    no, yes, none = (df.iloc[i] for i in range(3))
    # Wilson 95% by hand, z = 1.96: 8/10 -> (0.4902, 0.9433), 2/10 -> (0.0567, 0.5098),
    # 3/10 -> (0.1078, 0.6032), 4/4 -> (0.5101, 1), 0/6 -> (0, 0.3903)
    assert no["made_ok_rate"] == 0.8
    assert (no["made_ok_low"], no["made_ok_high"]) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert (no["euchred_low"], no["euchred_high"]) == pytest.approx((0.0567, 0.5098), abs=1e-4)
    assert (no["march_low"], no["march_high"]) == pytest.approx((0.1078, 0.6032), abs=1e-4)
    assert (yes["made_ok_low"], yes["made_ok_high"]) == pytest.approx((0.5101, 1.0), abs=1e-4)
    assert none["made_rate"] == 0 and none["made_high"] == pytest.approx(0.3903, abs=1e-4)
    assert math.isnan(none["made_ok_rate"]) and math.isnan(none["maker_points_mean"])
    # makers' points of the lone hands: 4 values summing to 8, squares 22: mean 2, sample variance
    # (22 - 4 * 2 * 2) / 3 = 2, half-width 1.96 * sqrt(2 / 4) = 1.3859
    assert (yes["maker_points_mean"], yes["maker_points_low"], yes["maker_points_high"]) == pytest.approx(
        (2.0, 0.6141, 3.3859), abs=1e-4)
    assert no["defender_points_mean"] == 0.4


def test_a_narrower_grouping_sums_out_the_rest():
    c = _hand_built()
    df = group_frame(c, "make_round", 4)
    assert list(df["make_round"]) == ["1", "2", "none"] and list(df["hands"]) == [10, 4, 6]
    swapped = group_frame(c, ("make_round", "maker_alone"), 4)
    assert list(swapped["hands"]) == [10, 4, 6] and list(swapped["maker_alone"]) == ["no", "yes", "none"]
    assert cell_array(c, ("make_round", "maker_alone"))["hands"].tolist() == [[10, 0, 0], [0, 4, 0], [0, 0, 6]]
    with pytest.raises(groups.GroupingError, match="no grouping with outcome"):
        group_frame(c, "outcome", 4)
    assert isinstance(df["make_round"].dtype, pd.CategoricalDtype)
