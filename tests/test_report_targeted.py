"""The order-up and loner reports' headline cells from targeted deals (--classes, --class-deals): small
heuristic runs, one of each report shared by its tests; the checks both reports share (resume, the kinds that
take classes) run on both."""
import dataclasses
import itertools
import json
import math
import os
import shutil
import tempfile

import numpy as np
import pandas as pd
import pytest

from euchresim.analysis import speaking_order
from euchresim.analysis.targeted_stats import pooled_by_reach
from euchresim.engine.classes import CLASS_NAMES
from euchresim.engine.tables import build_tables
from euchresim.report import loner_targeted, order_up_targeted
from euchresim.report.loner import deal_frame as loner_deal_frame
from euchresim.report.order_up import deal_frame as order_up_deal_frame
from euchresim.rules import Rules
from euchresim.stats import Z95
from tests.helpers import report_context, run_spec, csv_texts, drop_targeted_chunks, one_error_line, run

POSITIONS = ["left", "partner", "right", "dealer"]

# ---------------------------------------------------------------- the order-up report

OU_CLASSES = ["2T R", "3T L", "3T R"]
OU_N = 300
OU_ARGS = ["report", "order-up", "--hands", "1000", "--seed", "7", "--policy", "heuristic", "--policy",
        "heuristic:human", "--model-hands", "1000", "--classes", "3T R, 2T R,3T L", "--class-deals", str(OU_N),
        "--workers", "1", "--quiet"]


def _made(tmp_path_factory, args, out):
    """A folder holding the report ``args`` wrote to ``out``: one run, shared by a module's tests."""
    cwd = tmp_path_factory.mktemp("t")
    r = run(args + ["--out", out], cwd=cwd)
    assert r.exit_code == 0, r.output
    return cwd


@pytest.fixture(scope="module")
def order_up(tmp_path_factory):
    """The report, made once; every heatmap it draws kept in ``DRAWN`` (file name -> the frame and caption
    handed to ``plots.heatmap``), so a test reads the numbers a chart prints, not only the CSV's."""
    import euchresim.plots as plots
    real = plots.heatmap

    def keeping(df, row, col, value, path, *a, caption="", **k):
        DRAWN[os.path.basename(path)] = (df.copy(), caption)
        return real(df, row, col, value, path, *a, caption=caption, **k)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(plots, "heatmap", keeping)
        return _made(tmp_path_factory, OU_ARGS, "ou")


DRAWN = {}


def _deals(seed=7):
    """The targeted deals as the report plays them, in a folder of their own (resume would share it)."""
    ctx = report_context(kind="order-up", out=tempfile.mkdtemp(), hands=1000, seed=seed, rules=Rules(),
                        policies=("heuristic",), classes=tuple(OU_CLASSES), class_deals=OU_N)
    return order_up_targeted.simulate(ctx, build_tables(ctx.rules), speaking_order(4), order_up_deal_frame)


@pytest.mark.slow
def test_the_headline_table_has_every_seat_and_class_from_the_targeted_deals(order_up):
    head = pd.read_csv(order_up / "ou" / "order_up_headline.csv")
    assert sorted(zip(head["position"], head["hand_class"])) == sorted((p, c) for p in POSITIONS for c in OU_CLASSES)
    assert (head["policy"] == "heuristic").all()
    assert (head.groupby("position")["deals_kept"].sum() == OU_N).all()       # OU_N kept deals a seat, split by class
    assert ((head["reached"] <= head["deals_kept"]) & (head["reached"] > 0)).all()
    assert np.allclose(head["share"], head["deals_kept"] / head["deals_dealt"])
    assert ((head["share_low"] < head["share"]) & (head["share"] < head["share_high"])).all()
    # the untargeted cell beside is the main model's round-one cell of the same seat and class
    by_class = pd.read_csv(order_up / "ou" / "order_up_by_class.csv")
    cell = by_class[(by_class["policy"] == "heuristic") & (by_class["round"] == 1)]
    both = head.merge(cell, on=["position", "hand_class"])
    assert len(both) == len(head)
    assert np.allclose(both["untargeted_gain"], both["gain_y"]) and (both["untargeted_n"] == both["n"]).all()


@pytest.mark.slow
def test_the_targeted_deals_are_in_no_other_table(order_up):
    plain = [a for a in OU_ARGS[:OU_ARGS.index("--classes")]] + ["--workers", "1", "--quiet"]
    r = run(plain + ["--out", "plain"], cwd=order_up)
    assert r.exit_code == 0, r.output
    mine, theirs = csv_texts(order_up / "ou"), csv_texts(order_up / "plain")
    assert mine.pop("order_up_headline.csv")
    mine.pop("order_up_calls_round1.csv")            # the opening chart's cells: the next test
    theirs.pop("order_up_calls_round1.csv")
    assert "targeted" not in pd.read_csv(order_up / "plain" / "order_up_calls_round1.csv")
    assert mine == theirs


def test_every_reached_deal_holds_a_class_asked_for_and_gives_the_cells(order_up):
    df, shares = _deals()
    # deal_frame classes each reached hand from its cards with analysis.call_stats (not the kernel that kept it)
    assert len(df) and set(df["hand_class"]) == set(OU_CLASSES)
    assert sorted(set(df["position"])) == sorted(POSITIONS) and (df["round"] == 1).all()
    head = pd.read_csv(order_up / "ou" / "order_up_headline.csv")
    for _, h in head.iterrows():
        g = df[(df["position"] == h["position"]) & (df["hand_class"] == h["hand_class"])]["gain"]
        assert len(g) == h["reached"] and g.mean() == pytest.approx(h["gain"])
    # a share is the kept deals of the class over all dealt at that seat, on the report's own numbers
    assert shares.set_index(["position", "hand_class"])["deals_kept"].to_dict() == \
        head.set_index(["position", "hand_class"])["deals_kept"].to_dict()


@pytest.mark.slow
def test_order_up_resume_gives_identical_tables_and_other_classes_are_refused(order_up, tmp_path):
    out = tmp_path / "ou"
    shutil.copytree(order_up / "ou", out)
    assert drop_targeted_chunks(out)                    # targeted chunks were kept, and some are gone
    before = csv_texts(out)
    r = run(OU_ARGS + ["--out", "ou", "--resume"], cwd=tmp_path)
    assert r.exit_code == 0, r.output
    assert csv_texts(out) == before
    meta = json.loads((out / "meta.json").read_text())
    assert meta["classes"] == OU_CLASSES and meta["class_deals"] == OU_N
    readme = (out / "README.md").read_text()
    assert f"{OU_N:,} targeted deals per seat for heuristic, round one, hands 2T R, 3T L, 3T R" in readme
    line = one_error_line(run([a if a != str(OU_N) else str(OU_N + 1) for a in OU_ARGS] + ["--out", "ou", "--resume"],
                              cwd=tmp_path))
    assert "other class_deals (class_deals 300)" in line and "--force" in line
    plain = [a for a in OU_ARGS[:OU_ARGS.index("--classes")]] + ["--workers", "1", "--quiet"]
    line = one_error_line(run(plain + ["--out", "ou", "--resume"], cwd=tmp_path))
    assert "other class_deals, classes" in line


def test_the_readme_takes_the_main_models_headline_from_the_targeted_cells(order_up):
    readme = (order_up / "ou" / "README.md").read_text()
    head = pd.read_csv(order_up / "ou" / "order_up_headline.csv")
    assert f"heuristic's figures from {OU_N:,} targeted deals per seat" in readme
    for _, h in head.iterrows():
        line = next(ln for ln in readme.splitlines() if ln.startswith(f"- {h['position']}, `{h['hand_class']}` ("))
        half = (h["ci_high"] - h["ci_low"]) / 2
        assert f"{h['gain']:+.2f} points a hand (±{half:.2f}, {h['reached']:,} hands, heuristic, targeted)" in line
        assert "heuristic:human)" in line                    # the other model's untargeted cell beside
        assert f"{h['share']:.1%} of deals" in line


@pytest.mark.parametrize("extra,needle", [
    (["--classes", "2T R,2T X", "--class-deals", "10"], "--classes '2T R,2T X': unknown hand class '2T X'"),
    (["--classes", "2T R"], "--classes and --class-deals (or --class-reached) go together"),
    (["--class-deals", "10"], "--classes and --class-deals (or --class-reached) go together"),
    (["--class-reached", "40"], "--classes and --class-deals (or --class-reached) go together"),
    (["--classes", "2T R", "--class-deals", "10", "--class-reached", "40"], "one count or the other"),
])
def test_bad_classes_are_one_line(tmp_path, extra, needle):
    line = one_error_line(run(["report", "order-up", "--out", "r", "--workers", "1", "--quiet", *extra],
                              cwd=tmp_path))
    assert needle in line
    assert not (tmp_path / "r").exists()


def test_make_reports_order_up_entry_targets_the_headline_classes():
    import importlib.util
    from euchresim.report.kinds import check_classes
    spec = importlib.util.spec_from_file_location("make_reports", os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "make_reports.py"))
    mr = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mr)
    args = dict(mr.REPORTS)["order-up"]
    assert args[args.index("--policy") + 1] == "best"
    classes = args[args.index("--classes") + 1]
    assert check_classes("order-up", classes, None, int(args[args.index("--class-reached") + 1])) == tuple(OU_CLASSES)


def test_the_opening_chart_takes_the_targeted_classes_cells_from_their_targeted_deals(order_up):
    """The call a player reads off the chart is the better-measured one: for the targeted classes the main
    model's cell (n, gain, interval, call) is the targeted cell; for every other class the untargeted one."""
    calls = pd.read_csv(order_up / "ou" / "order_up_calls_round1.csv")
    head = pd.read_csv(order_up / "ou" / "order_up_headline.csv")
    by_class = pd.read_csv(order_up / "ou" / "order_up_by_class.csv")
    mine = calls[calls["targeted"]].merge(head, on=["position", "hand_class"], suffixes=("", "_head"))
    assert len(mine) == len(head) and set(mine["hand_class"]) == set(OU_CLASSES)
    assert (mine["n"] == mine["reached"]).all() and np.allclose(mine["gain"], mine["gain_head"])
    assert np.allclose(mine["ci_low"], mine["ci_low_head"]) and np.allclose(mine["ci_high"], mine["ci_high_head"])
    toss_up = (mine["ci_low"] > -0.1) & (mine["ci_high"] < 0.1)
    words = np.where(mine["ci_low"] > 0, "order", np.where(mine["ci_high"] < 0, "pass",
                                                          np.where(toss_up, "close", "too few hands")))
    assert (mine["call"] == words).all()
    rest = calls[~calls["targeted"]].merge(
        by_class[(by_class["policy"] == "heuristic") & (by_class["round"] == 1)], on=["position", "hand_class"])
    assert len(rest) == (~calls["targeted"]).sum() and not set(rest["hand_class"]) & set(OU_CLASSES)
    assert np.allclose(rest["gain_x"], rest["gain_y"]) and (rest["n_x"] == rest["n_y"]).all()
    readme = (order_up / "ou" / "README.md").read_text()
    assert "the cells of `2T R`, `3T L`, `3T R` from its targeted deals" in readme


def test_the_main_models_heatmap_prints_the_targeted_cells_and_its_caption_counts_its_hands(order_up):
    """The round-one heatmap of the main model prints what the text and the call chart say: the targeted
    classes' cells from their targeted deals, every other class's from the untargeted run; its caption's count
    is the hands behind the cells drawn (not the run's hands)."""
    import re
    df, caption = DRAWN["heatmap_heuristic.png"]
    head = pd.read_csv(order_up / "ou" / "order_up_headline.csv")
    by_class = pd.read_csv(order_up / "ou" / "order_up_by_class.csv")
    df = df.assign(position=df["position"].astype(str), hand_class=df["hand_class"].astype(str))
    mine = df.merge(head, on=["position", "hand_class"], suffixes=("", "_head"))
    assert set(mine["hand_class"]) == set(OU_CLASSES) and len(mine) == len(head[head["reached"] > 0])
    assert (mine["n"] == mine["reached"]).all() and np.allclose(mine["gain"], mine["gain_head"])
    rest = df[~df["hand_class"].isin(OU_CLASSES)].merge(
        by_class[(by_class["policy"] == "heuristic") & (by_class["round"] == 1)], on=["position", "hand_class"])
    assert len(rest) == (~df["hand_class"].isin(OU_CLASSES)).sum() > 0
    assert np.allclose(rest["gain_x"], rest["gain_y"]) and (rest["n_x"] == rest["n_y"]).all()
    hands = int(re.search(r"· ([\d,]+) hands ·", caption).group(1).replace(",", ""))
    assert hands == int(df["n"].sum()) and hands != 1000
    other, other_caption = DRAWN["heatmap_heuristic_1.png"]          # the second model: untargeted throughout
    assert int(re.search(r"· ([\d,]+) hands ·", other_caption).group(1).replace(",", "")) == int(other["n"].sum())
    # the README's caption under each chart counts what the chart's own caption counts (issue 36: 64,795 in the
    # README beside 248,836 in the chart)
    readme = (order_up / "ou" / "README.md").read_text()
    for png, (_, cap) in DRAWN.items():
        if f"]({png})" in readme:
            below = readme.split(f"]({png})", 1)[1].split("\n\n", 2)[1]
            assert re.search(r"· ([\d,]+) hands ·", below).group(1) == re.search(r"· ([\d,]+) hands ·", cap).group(1), png


def test_every_headline_cell_is_measured_again_and_its_z_printed(order_up):
    """Each targeted cell has a replicate on deals of its own (another seed, other kept work) and two z's,
    against the replicate and against the untargeted cell; the README prints them beside the cell."""
    from euchresim.stats import Z95
    head = pd.read_csv(order_up / "ou" / "order_up_headline.csv")
    assert {"replicate_n", "replicate_gain", "z_replicate", "z_untargeted", "beyond_chance"} <= set(head)
    reached = head[head["reached"] > 0]
    assert (reached["replicate_n"] > 0).all() and not head["beyond_chance"].any()
    se = lambda lo, hi: (hi - lo) / (2 * Z95)
    want = (reached["gain"] - reached["replicate_gain"]) / np.hypot(
        se(reached["ci_low"], reached["ci_high"]), se(reached["replicate_ci_low"], reached["replicate_ci_high"]))
    assert np.allclose(reached["z_replicate"], want)
    assert not np.allclose(reached["gain"], reached["replicate_gain"])        # other deals, not a copy
    readme = (order_up / "ou" / "README.md").read_text()
    for _, h in reached.iterrows():
        assert f"measured again on deals of its own {h['replicate_gain']:+.2f} ({int(h['replicate_n']):,} " \
               f"hands, z {h['z_replicate']:+.1f}" in readme


@pytest.mark.slow
def _refused(tmp_path, monkeypatch, on_replicate) -> str:
    """The order-up report built with its replicate's deals passed through ``on_replicate``: the one line it
    stops with (a non-zero exit, no traceback, no README written)."""
    import euchresim.report.order_up_targeted as T
    real = T.simulate

    def changed(ctx, *a, **k):
        df, shares = real(ctx, *a, **k)
        return (on_replicate(df) if ctx.replicate else df), shares
    monkeypatch.setattr(T, "simulate", changed)
    r = run(OU_ARGS + ["--out", "ou"], cwd=tmp_path)
    line = [ln for ln in r.output.splitlines() if ln.strip() and "compil" not in ln]
    assert r.exit_code != 0 and len(line) == 1 and "Traceback" not in r.output, r.output
    assert not (tmp_path / "ou" / "README.md").exists()
    return line[0]


def test_a_headline_cell_that_does_not_replicate_stops_the_report(tmp_path, monkeypatch):
    """The replicate shifted by a point a hand (as a bug or a mixed kept work would): the build refuses in one
    line naming the cells, and writes no README."""
    line = _refused(tmp_path, monkeypatch, lambda df: df.assign(gain=df["gain"] + 1.0))
    assert "headline cells disagree with their measures again beyond chance" in line and "2T R" in line


def test_a_headline_cell_not_measured_again_stops_the_report(tmp_path, monkeypatch):
    """The replicate's deals of one class dropped (as a lost piece of kept work would): a headline cell with no
    measure again is refused in one line naming it, not printed with its z left out."""
    line = _refused(tmp_path, monkeypatch, lambda df: df[df["hand_class"] != "2T R"])
    assert "headline cells not measured again" in line and "2T R" in line


def test_the_readme_has_a_decision_table_read_off_the_call_cells(order_up):
    """Per round and seat: the classes to call with, a toss-up, too few hands, pass, each with the number its
    cell in order_up_calls_round{1,2}.csv holds (the gain and half-width, or the hand count under 30)."""
    readme = (order_up / "ou" / "README.md").read_text()
    assert "## The decision table" in readme
    table = readme.split("## The decision table", 1)[1].split("\n## ", 1)[0]
    calls = pd.read_csv(order_up / "ou" / "order_up_calls_round1.csv")
    one = table.split("Round two:")[0]
    for pos in POSITIONS:
        line = next(ln for ln in one.splitlines() if ln.startswith(f"- **{pos}**: "))
        for _, c in calls[calls["position"] == pos].iterrows():
            shown = (f"`{c['hand_class']}` {c['gain']:+.2f} ±{(c['ci_high'] - c['ci_low']) / 2:.2f}"
                     if c["n"] >= 30 else f"`{c['hand_class']}` {c['n']} hand")
            assert shown in line, (pos, shown)
            verb = {"order": "order up", "pass": "pass", "close": "either (a toss-up)",
                    "too few hands": "too few hands to say"}[c["call"]]
            assert line.index(verb) < line.index(f"`{c['hand_class']}`")


# ---------------------------------------------------------------- the loner report

LONER_CLASSES = ["3T RL", "4+T R", "4+T RL"]         # the engine's order (CLASS_NAMES)
LONER_N = 1500
LONER_HANDS = 20000
LONER_ARGS = ["report", "loner", "--hands", str(LONER_HANDS), "--seed", "11", "--policy", "heuristic", "--policy",
        "heuristic:human", "--model-hands", "1000", "--classes", "4+T RL,4+T R, 3T RL", "--class-deals", str(LONER_N),
        "--workers", "1", "--quiet"]
LONER_PLAIN = LONER_ARGS[:LONER_ARGS.index("--classes")] + ["--workers", "1", "--quiet"]


@pytest.fixture(scope="module")
def loner(tmp_path_factory):
    return _made(tmp_path_factory, LONER_ARGS, "lo")


def _se(row, prefix=""):
    return (row[f"{prefix}ci_high"] - row[f"{prefix}ci_low"]) / (2 * Z95)


def test_every_counted_deal_is_a_round_one_maker_of_a_class_asked_for():
    ctx = report_context(kind="loner", out=tempfile.mkdtemp(), hands=1000, seed=3, rules=Rules(),
                        policies=("heuristic",), classes=tuple(LONER_CLASSES), class_deals=300)
    df, shares = loner_targeted.simulate(ctx, build_tables(ctx.rules), loner_deal_frame)
    # deal_frame classes the maker's hand from its cards under the trump made (analysis.call_stats), not the kernel
    # that kept the deal: the dealer's hand as dealt, before the pick-up, in both
    assert len(df) and set(df["hand_class"]) <= set(LONER_CLASSES)
    assert (df["round"] == 1).all() and (df["who"] == "maker").all()
    assert sorted(set(df["position"])) == sorted(POSITIONS)
    assert sorted(zip(shares["position"], shares["hand_class"])) == sorted((p, c) for p in POSITIONS for c in LONER_CLASSES)
    assert (shares.groupby("position")["deals_kept"].sum() == 300).all()


def test_round_two_makers_are_left_out_because_their_class_is_not_the_one_kept():
    from euchresim.report.targeted_cells import targeted_deals
    ctx = report_context(kind="loner", out=tempfile.mkdtemp(), hands=1000, seed=3, rules=Rules(),
                        policies=("heuristic",), classes=("3T RL",), class_deals=400)
    played, _ = targeted_deals(ctx, "alone", [1], "maker alone", with_trump=True)
    f = loner_deal_frame(played[0][1], "maker", 4, build_tables(ctx.rules), "heuristic")
    assert set(f["round"]) == {1, 2}
    assert set(f.loc[f["round"] == 1, "hand_class"]) == {"3T RL"}
    assert (f.loc[f["round"] == 2, "hand_class"] != "3T RL").any()     # under another trump, another class


def test_each_seat_deals_from_a_stream_of_its_own():
    """One seed for every seat deals the same stream at each, so the seats keep many of the same deals and
    their sums are not of independent counts; the loner's seats each have a stream of their own."""
    from euchresim.report.targeted_cells import targeted_deals
    ctx = report_context(kind="loner", out=tempfile.mkdtemp(), hands=1000, seed=3, rules=Rules(),
                        policies=("heuristic",), classes=("3T RL",), class_deals=200)

    def shared(own):
        # two seats that class the hand as dealt (the dealer's counts the upcard, so it keeps other deals)
        played, _ = targeted_deals(ctx, "alone", [1, 2], "maker alone", own_streams=own)
        deals = [{tuple(sorted(h)) for h in d["hands"].tolist()} for _, d in played]
        return len(deals[0] & deals[1])
    assert shared(False) > 10 and shared(True) == 0
    mine = os.listdir(os.path.join(ctx.out, "_work"))
    assert len({json.load(open(os.path.join(ctx.out, "_work", k, "_manifest.json")))["report_work"]["seed"]
                for k in mine}) == 3                     # one seed shared by two seats, one seat apiece


@pytest.mark.parametrize("decision", ["alone", "defend_alone"])
def test_the_kernels_trump_and_round_are_the_ordinary_hands(decision):
    from euchresim.run.runner import play_chunk as ordinary
    from euchresim.studies.counterfactual import play_chunk
    spec = run_spec(rules=Rules(defend_alone=True), policies=("heuristic",), seed=5, count=3000, chunk_size=3000)
    res, rows = play_chunk(spec, 0, decision), ordinary(spec, 0).hands
    r = res.reached
    assert r.sum() > 20 and set(res.make_round[r]) == {1, 2}
    assert np.array_equal(res.trump[r], rows["trump"][r]) and np.array_equal(res.make_round[r], rows["make_round"][r])
    assert (res.trump[~r] == -1).all() and (res.make_round[~r] == -1).all()


@pytest.mark.slow
def test_the_headline_table_has_every_seat_and_class_and_all_seats_weighted_by_reach(loner):
    head = pd.read_csv(loner / "lo" / "loner_headline.csv")
    assert sorted(zip(head["position"], head["hand_class"])) == sorted(
        (p, c) for p in POSITIONS + ["all seats"] for c in LONER_CLASSES)
    assert (head["policy"] == "heuristic").all()
    seats = head[head["position"] != "all seats"]
    assert (seats.groupby("position")["deals_kept"].sum() == LONER_N).all()
    assert ((seats["reached"] <= seats["deals_kept"]) & (seats["reached"] > 0)).all()
    assert np.allclose(seats["share"], seats["deals_kept"] / seats["deals_dealt"])
    for c in LONER_CLASSES:        # all seats: the mean of the seats' shares (the dealer's class counts its upcard)
        mean = seats.loc[seats["hand_class"] == c, "share"].mean()
        assert head.loc[(head["position"] == "all seats") & (head["hand_class"] == c), "share"].item() == \
            pytest.approx(mean)
    assert ((head["share_low"] < head["share"]) & (head["share"] < head["share_high"])).all()
    assert ((head["share"] > 0) & (head["share"] < 1)).all()
    for c in LONER_CLASSES:
        s, pooled = seats[seats["hand_class"] == c], head[(head["position"] == "all seats") & (head["hand_class"] == c)]
        w = s["reached"] / s["deals_dealt"]
        assert pooled["gain"].item() == pytest.approx((w * s["gain"]).sum() / w.sum())
        assert pooled["reached"].item() == s["reached"].sum()
        assert pooled["cell_share"].item() == pytest.approx(w.sum())
        # seats weighted equally would be another number: the weights differ enough to tell
        assert abs(pooled["gain"].item() - s["gain"].mean()) > 1e-9


def test_targeted_cells_agree_with_the_untargeted_cells_of_their_class(loner):
    """The same gain (round one, the seat the maker) from independent deals: within 3 SE of the difference."""
    head = pd.read_csv(loner / "lo" / "loner_headline.csv")
    checked = 0
    for _, h in head[head["untargeted_n"] >= 30].iterrows():
        se = math.hypot(_se(h), _se(h, "untargeted_"))
        assert abs(h["gain"] - h["untargeted_gain"]) <= 3 * se, h.to_dict()      # a sure march: both 2, SE 0
        checked += 1
    assert checked >= 5 and (head.loc[head["position"] == "all seats", "untargeted_n"] >= 30).all()


def test_shares_match_an_untargeted_runs_frequencies(loner):
    """A class's share at a seat against its frequency on untargeted deals, and the share of deals reaching
    a cell against the untargeted report's makers of that cell: each within 3 SE."""
    from euchresim.studies.counterfactual import play_chunk
    head = pd.read_csv(loner / "lo" / "loner_headline.csv")
    n = 40000
    spec = run_spec(rules=Rules(), policies=("random",), seed=2, count=n, chunk_size=n)
    held = {p: play_chunk(spec, 0, "bid1", p).hand_classes() for p in range(4)}
    for c in LONER_CLASSES:
        freqs = [float((held[p] == c).mean()) for p in range(4)]
        # the seats' streams independent, all seats' interval honest; the dealer's class counts its upcard
        for where, freq, n_ref in (("left", freqs[1], n), ("dealer", freqs[0], n),
                                   ("all seats", float(np.mean(freqs)), 4 * n)):
            h = head[(head["position"] == where) & (head["hand_class"] == c)].iloc[0]
            half = (h["share_high"] - h["share_low"]) / 2 / 1.96       # the table's own standard error
            se = math.sqrt(freq * (1 - freq) / n_ref + half ** 2)
            assert abs(h["share"] - freq) < 3 * se, (c, where, h["share"], freq)
        a = head[(head["position"] == "all seats") & (head["hand_class"] == c)].iloc[0]
        p = a["untargeted_n"] / LONER_HANDS
        s = head[(head["position"] != "all seats") & (head["hand_class"] == c)]
        w = s["reached"] / s["deals_dealt"]
        se = math.sqrt(p * (1 - p) / LONER_HANDS + (w * (1 - w) / s["deals_dealt"]).sum())
        assert abs(a["cell_share"] - p) < 3 * se, (c, a["cell_share"], p)


@pytest.mark.slow
def test_the_targeted_deals_are_in_no_other_table_nor_the_fitted_count(loner):
    r = run(LONER_PLAIN + ["--out", "plain"], cwd=loner)
    assert r.exit_code == 0, r.output
    mine = csv_texts(loner / "lo")
    assert mine.pop("loner_headline.csv")
    assert "loner_count_points.csv" in mine
    assert mine == csv_texts(loner / "plain")
    assert "loner_headline.csv" not in os.listdir(loner / "plain")


def test_the_readme_takes_the_makers_headline_from_the_targeted_cells(loner):
    """Each class's line gives every seat's targeted cell, the other models' untargeted cells at that seat, and
    the seats pooled only where Cochran's Q finds they agree (issue 36: a pooled answer was wrong advice for
    two seats)."""
    from euchresim.analysis.targeted_stats import seats_agree
    readme = (loner / "lo" / "README.md").read_text()
    head = pd.read_csv(loner / "lo" / "loner_headline.csv")
    assert f"heuristic's figures from {LONER_N:,} targeted deals per seat" in readme
    assert "round one only" in readme and "Each answer is per seat" in readme
    lines = readme.splitlines()
    for _, h in head[head["position"] == "all seats"].iterrows():
        k = next(i for i, ln in enumerate(lines) if ln.startswith(f"- maker with `{h['hand_class']}`"))
        line = lines[k]
        assert "trump made in round one" in line and f"the hand {h['share']:.2%} of a seat's deals" in line
        seats = head[(head["hand_class"] == h["hand_class"]) & (head["position"] != "all seats")]
        ok = seats[seats["reached"] >= 30]              # a seat without an interval is left out of the test
        test = seats_agree(ok["gain"], ok["ci_low"], ok["ci_high"])
        tested = test["q"] == test["q"]
        half = (h["ci_high"] - h["ci_low"]) / 2
        pooled = f"{h['gain']:+.2f} points a hand (±{half:.2f}, {h['reached']:,} hands, heuristic, targeted, seats"
        assert (pooled in line) is (test["agree"] and tested)
        assert ("the test finds the seats differ" in line) is (tested and not test["agree"])
        below = lines[k + 1:k + 1 + len(seats)]
        for (_, s), sub in zip(seats.iterrows(), below):
            shalf = (s["ci_high"] - s["ci_low"]) / 2
            assert sub.startswith(f"  - {s['position']}: {s['gain']:+.2f} points a hand (±{shalf:.2f}, "
                                  f"{s['reached']:,} hands, heuristic, targeted)")
        assert any("heuristic:human, untargeted)" in sub for sub in below)


@pytest.mark.slow
def test_loner_resume_gives_identical_tables_and_other_classes_are_refused(loner, tmp_path):
    out = tmp_path / "lo"
    shutil.copytree(loner / "lo", out)
    assert drop_targeted_chunks(out)
    before = csv_texts(out)
    r = run(LONER_ARGS + ["--out", "lo", "--resume"], cwd=tmp_path)
    assert r.exit_code == 0, r.output
    assert csv_texts(out) == before
    meta = json.loads((out / "meta.json").read_text())
    assert meta["classes"] == LONER_CLASSES and meta["class_deals"] == LONER_N
    other = [a if a != "4+T RL,4+T R, 3T RL" else "4+T RL" for a in LONER_ARGS]
    line = one_error_line(run(other + ["--out", "lo", "--resume"], cwd=tmp_path))
    assert "other classes" in line and "--force" in line
    line = one_error_line(run(LONER_PLAIN + ["--out", "lo", "--resume"], cwd=tmp_path))
    assert "other class_deals, classes" in line


@pytest.mark.parametrize("kind,classes", [("decks", "2T R"), ("euchre-rates", "4+T RL"), ("all", "4+T RL")])
def test_only_the_targeted_kinds_take_classes(tmp_path, kind, classes):
    line = one_error_line(run(["report", kind, "--out", "r", "--classes", classes, "--class-deals", "10"],
                              cwd=tmp_path))
    assert f"only order-up, loner and win-probability (--class-reached alone) play targeted deals, not {kind}" in line
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("extra", [["--classes", "2T R", "--class-reached", "100"], ["--class-deals", "10"]])
def test_win_probability_takes_class_reached_alone(tmp_path, extra):
    """win-probability's classes are its own: --class-reached targets them, --classes or --class-deals is one line
    naming that, before any work."""
    line = one_error_line(run(["report", "win-probability", "--out", "r"] + extra, cwd=tmp_path))
    assert "win-probability plays its own hand classes" in line and "--class-reached N alone" in line
    assert not (tmp_path / "r").exists()


@pytest.mark.slow
def test_the_pooled_interval_covers_as_its_variance_says():
    """Seats of unequal reach and gain, drawn again and again: the spread of the pooled cell is the SE it gives."""
    rng = np.random.default_rng(4)
    reach, mean, sd, dealt = np.array([0.002, 0.004, 0.001, 0.003]), np.array([2.0, 0.0, -1.5, 1.0]), 0.5, 60000
    got, ses = [], []
    for _ in range(1500):
        r = rng.binomial(dealt, reach)
        deals = pd.DataFrame({"position": np.repeat(np.arange(4), r), "gain": rng.normal(np.repeat(mean, r), sd)})
        c = pooled_by_reach(deals, pd.Series(dealt, index=np.arange(4)))
        got.append(c["gain"])
        ses.append((c["ci_high"] - c["ci_low"]) / (2 * Z95))
    truth = (reach * mean).sum() / reach.sum()
    spread, se = np.std(got, ddof=1), np.mean(ses)
    assert abs(np.mean(got) - truth) < 3 * spread / math.sqrt(len(got))
    assert abs(spread / se - 1) < 0.1             # the SD of a 1,500-draw SD is under 2% of it
    # the seats' means alone would give too narrow an interval here: the weights' part is needed
    means_only = math.sqrt(((reach / reach.sum()) ** 2 * sd ** 2 / (reach * dealt)).sum())
    assert means_only < 0.8 * spread


def test_each_seats_headline_cell_is_measured_again(loner):
    head = pd.read_csv(loner / "lo" / "loner_headline.csv")
    seats = head[(head["position"] != "all seats") & (head["reached"] > 0)]
    assert (seats["replicate_n"] > 0).all() and not head["beyond_chance"].any()
    assert np.isfinite(seats["z_replicate"]).all()
    readme = (loner / "lo" / "README.md").read_text()
    assert readme.count("measured again on deals of its own") == len(seats)


def test_the_readme_has_a_decision_table_per_seat_for_going_and_defending_alone(loner):
    """Per who, round and seat: where going alone pays, costs, or cannot be told, each class with its cell's
    gain (the untargeted round-one makers' cells of the main model) or its hand count."""
    readme = (loner / "lo" / "README.md").read_text()
    table = readme.split("## The decision table", 1)[1].split("\n## ", 1)[0]
    one = table.split("Going alone, trump made in round one:")[1].split("\n\n", 2)[1]
    for pos in POSITIONS:
        assert any(ln.startswith(f"- **{pos}**: ") for ln in one.splitlines()), pos
    assert "it pays" in one and "it costs" in one and "Defending alone" in table


def test_the_decision_tables_targeted_cells_print_the_headline_lines_numbers(loner):
    """The round-one makers' cells of the targeted classes in the decision table are the targeted cells the
    headline lines give (issue 36: "the heatmaps print the same numbers as the text"), each seat's; the
    other cells stay the untargeted ones."""
    readme = (loner / "lo" / "README.md").read_text()
    head = pd.read_csv(loner / "lo" / "loner_headline.csv")
    table = readme.split("## The decision table", 1)[1].split("\n## ", 1)[0]
    assert "come from the targeted deals, as the lines above give them" in table
    one = table.split("Going alone, trump made in round one:")[1].split("\n\n", 2)[1]
    checked = 0
    for _, h in head[(head["position"] != "all seats") & (head["reached"] >= 30)].iterrows():
        line = next(ln for ln in one.splitlines() if ln.startswith(f"- **{h['position']}**: "))
        half = (h["ci_high"] - h["ci_low"]) / 2
        assert f"`{h['hand_class']}` {h['gain']:+.2f} ±{half:.2f}" in line, (h["position"], h["hand_class"])
        checked += 1
    assert checked >= 6


# ---------------------------------------------------------------- each seat and class to its own count (--class-reached)

def test_the_next_batch_is_sized_from_the_reach_so_far():
    """Half the count first; then the rest at the rate so far, a tenth more, never under an eighth; twice the
    last where nothing reached yet."""
    from euchresim.report.targeted_cells import next_batch
    assert next_batch(1000, 0, 0, 0) == 500
    assert next_batch(1000, 250, 500, 500) == 1650           # 750 more at 1 in 2, and a tenth
    assert next_batch(1000, 990, 1100, 600) == 125          # 10 more at 0.9 is 12.2: an eighth of 1000
    assert next_batch(1000, 0, 500, 500) == 1000
    assert next_batch(7, 0, 0, 0) == 4


def test_the_one_batch_loop_stops_at_the_count_or_the_cap():
    """in_batches, the loop every to-its-own-count cell goes through: each batch sized by next_batch from the
    counts before it, none after the count is reached, and at most max_kept times the count kept."""
    from euchresim.report.targeted_cells import in_batches, next_batch
    sizes = []

    def a_third_reach(k, size):
        assert k == len(sizes)
        sizes.append(size)
        return size // 3
    assert in_batches(100, a_third_reach) == len(sizes)
    reached, kept, last, want = 0, 0, 0, []
    for s in sizes:
        last = next_batch(100, reached, kept, last)
        want.append(last)
        reached, kept = reached + s // 3, kept + s
    assert sizes == want and reached >= 100 and reached - sizes[-1] // 3 < 100
    sizes.clear()
    assert in_batches(40, lambda k, size: sizes.append(size) or 0, max_kept=3) == 3
    assert sizes == [20, 40, 60]                    # twice the last while none reach, cut at 3 x 40 kept


def test_batches_run_until_each_seat_and_class_reaches_its_count_and_no_further():
    """--class-reached N: per seat and class, batches of that class alone, each from a seed of its own and sized
    from the counts so far (next_batch), until N of them count; the batch before the last had fewer, so no batch
    was played for nothing. The shares come from every batch's deals dealt; the same seed gives the same
    batches; the measure again (replicate 1) deals from other seeds."""
    from euchresim.report.targeted_cells import batch_seed, next_batch, until_reached
    n = 60
    ctx = report_context(kind="loner", out=tempfile.mkdtemp(), hands=1000, seed=3, rules=Rules(),
                        policies=("heuristic",), classes=("4+T R", "3T RL"), class_reached=n)
    counted = lambda d: int((d["make_round"] == 1).sum())
    played, shares = until_reached(ctx, "alone", [1, 0], "maker alone", counted, with_trump=True)

    def manifests(out):
        return [json.load(open(os.path.join(out, "_work", k, "_manifest.json")))["report_work"]
                for k in sorted(os.listdir(os.path.join(out, "_work")))]
    kept = manifests(ctx.out)
    assert all(len(w["classes"]) == 1 for w in kept)
    assert len({w["seed"] for w in kept}) == len(kept) == len(played)

    def batch_class(d):
        held = np.asarray(d["class_kept"]).reshape(-1, len(CLASS_NAMES)).sum(axis=0)
        assert np.count_nonzero(held) == 1          # a batch keeps deals of its one class
        return CLASS_NAMES[int(np.argmax(held))]
    groups = [(k, [d for _, d in g]) for k, g in itertools.groupby(played, key=lambda x: (x[0], batch_class(x[1])))]
    assert [k for k, _ in groups] == [(1, "4+T R"), (1, "3T RL"), (0, "4+T R"), (0, "3T RL")]
    for (p, c), mine in groups:
        counts = np.cumsum([counted(d) for d in mine])
        assert counts[-1] >= n and (len(counts) == 1 or counts[-2] < n), (p, c, counts)
        sizes, reached, total, last = [], 0, 0, 0
        for d in mine:                                # each batch as big as the counts before it said
            last = next_batch(n, reached, total, last)
            sizes.append(last)
            reached, total = reached + counted(d), total + last
        assert [int(np.asarray(d["class_kept"]).sum()) for d in mine] == sizes, (p, c)
        row = shares[(shares["position"] == ("left" if p == 1 else "dealer")) & (shares["hand_class"] == c)].iloc[0]
        assert row["deals_dealt"] == sum(int(np.sum(d["dealt"])) for d in mine)
        assert row["deals_kept"] == sum(sizes)
    assert max(len(m) for _, m in groups) > 1        # 3T RL at the left is reached on few of its deals
    assert len({batch_seed(3, 1, "3T RL", 0), batch_seed(3, 1, "3T RL", 1), batch_seed(3, 1, "3T RL", 0, replicate=1),
                batch_seed(3, 0, "3T RL", 0), batch_seed(3, 1, "4+T R", 0)}) == 5
    again, shares2 = until_reached(dataclasses.replace(ctx, resume=True), "alone", [1, 0], "maker alone", counted,
                                   with_trump=True)                                      # from its kept work
    assert len(again) == len(played) and shares2.equals(shares)
    other = dataclasses.replace(ctx, out=tempfile.mkdtemp(), replicate=1)
    until_reached(other, "alone", [1, 0], "maker alone", counted, with_trump=True)
    assert not {w["seed"] for w in manifests(other.out)} & {w["seed"] for w in kept}


def test_a_cell_the_seat_never_reaches_stops_at_its_cap_of_kept_deals():
    from euchresim.report.targeted_cells import until_reached
    ctx = report_context(kind="loner", out=tempfile.mkdtemp(), hands=1000, seed=3, rules=Rules(),
                        policies=("heuristic",), classes=("3T RL",), class_reached=40)
    played, shares = until_reached(ctx, "alone", [2], "maker alone", lambda d: 0, max_kept=3)
    assert [int(np.asarray(d["class_kept"]).sum()) for _, d in played] == [20, 40, 60]   # 20, then twice the last
    assert int(shares["deals_kept"].iloc[0]) == 120


@pytest.mark.slow
def test_the_order_up_report_with_each_cell_to_its_own_count(tmp_path):
    """Through the command: every headline cell reaches the count, meta.json and the README say how the deals
    were counted, the replicate is measured the same way, and a resume with another count is refused."""
    n = 40
    base = ["report", "order-up", "--hands", "1000", "--seed", "7", "--policy", "heuristic", "--classes", "3T R,2T R",
            "--workers", "1", "--quiet"]
    r = run(base + ["--class-reached", str(n), "--out", "o"], cwd=tmp_path)
    assert r.exit_code == 0, r.output
    head = pd.read_csv(tmp_path / "o" / "order_up_headline.csv")
    assert (head["reached"] >= n).all() and (head["replicate_n"] >= n).all()
    meta = json.loads((tmp_path / "o" / "meta.json").read_text())
    assert meta["class_reached"] == n and "class_deals" not in meta
    readme = (tmp_path / "o" / "README.md").read_text()
    assert (f"targeted deals per seat and class, in batches until {n} of them reached the seat's call (at most "
            f"{20 * n} kept)") in readme
    r = run(base + ["--class-reached", str(n + 10), "--out", "o", "--resume"], cwd=tmp_path)
    assert r.exit_code != 0 and "class_reached" in one_error_line(r)
    both = run(base + ["--class-reached", str(n), "--class-deals", "300", "--out", "p"], cwd=tmp_path)
    assert both.exit_code != 0 and "one count or the other" in one_error_line(both)


def test_the_cell_of_all_seats_weighs_each_seat_by_its_own_classs_deals_dealt():
    """With --class-reached each seat and class has its own deals dealt; the loner's cell of all seats weighs a
    seat by its reached over that class's dealt there (pooled_by_reach), never by another class's count: known
    cells, the weights worked by hand."""
    shares = pd.DataFrame([
        {"position": "left", "hand_class": "4+T R", "deals_kept": 250, "deals_dealt": 10_000},   # 100 reached
        {"position": "dealer", "hand_class": "4+T R", "deals_kept": 100, "deals_dealt": 5_000},
        {"position": "left", "hand_class": "3T RL", "deals_kept": 400, "deals_dealt": 2_000},   # another class's
        {"position": "dealer", "hand_class": "3T RL", "deals_kept": 400, "deals_dealt": 8_000},  # counts: unused
    ]).assign(share=lambda f: f["deals_kept"] / f["deals_dealt"], share_low=0.0, share_high=1.0)
    rows = [("left", "4+T R", 1.0)] * 50 + [("left", "4+T R", 3.0)] * 50 + [("dealer", "4+T R", -1.0)] * 80 \
        + [("dealer", "4+T R", 1.0)] * 20 + [("left", "3T RL", 0.5)] * 300 + [("dealer", "3T RL", 0.5)] * 300
    targeted = pd.DataFrame(rows, columns=["position", "hand_class", "gain"])
    empty = pd.DataFrame(columns=["policy", "who", "round", "position", "hand_class", "gain", "up_rank"])
    head = loner_targeted.headline_table(targeted, shares, empty, "heuristic", 4)
    cell = head[(head["position"] == loner_targeted.ALL_SEATS) & (head["hand_class"] == "4+T R")].iloc[0]
    w_left, w_dealer = 100 / 10_000, 100 / 5_000     # reached (not kept) over this class's dealt at each seat
    assert cell["gain"] == pytest.approx((w_left * 2.0 + w_dealer * -0.6) / (w_left + w_dealer))
    assert cell["deals_dealt"] == 15_000 and cell["reached"] == 200 and cell["deals_kept"] == 350


def test_a_cell_short_of_its_count_says_so_in_its_line():
    """A cell stopped at its cap of kept deals (the seat reaches it on under one deal in twenty) prints its figures
    as always, and says it fell short of the count asked; a cell that reached it, or a run by --class-deals, does
    not."""
    from euchresim.report.replicate import short_words
    assert short_words(640, 700) == " (short of the 700 asked: the seat reaches it on few of the deals that hold it)"
    assert short_words(700, 700) == "" and short_words(10, 0) == ""
    head = pd.DataFrame([{"position": "dealer", "hand_class": "3T R", "share": 0.05, "share_low": 0.04,
                          "share_high": 0.06, "reached": 640, "gain": 0.3, "ci_low": 0.2, "ci_high": 0.4},
                         {"position": "left", "hand_class": "3T R", "share": 0.05, "share_low": 0.04,
                          "share_high": 0.06, "reached": 900, "gain": 0.3, "ci_low": 0.2, "ci_high": 0.4}])
    by_class = pd.DataFrame(columns=["policy", "round", "position", "hand_class", "n", "gain", "ci_low", "ci_high"])
    lines = order_up_targeted.headline_text(head, by_class, ["best"], "some words", asked=700)
    dealer = next(ln for ln in lines if ln.startswith("- dealer"))
    left = next(ln for ln in lines if ln.startswith("- left"))
    assert "short of the 700 asked" in dealer and "short of" not in left
