"""The order-up report's headline cells from targeted deals (--classes, --class-deals): a small heuristic run."""
import json
import os

import numpy as np
import pandas as pd
import pytest

from euchresim.engine.tables import build_tables
from euchresim.report import ReportContext
from euchresim.report import order_up_targeted as targeted
from euchresim.analysis import speaking_order
from euchresim.report.order_up import deal_frame
from euchresim.rules import Rules
from tests.helpers import csv_texts, drop_targeted_chunks, one_error_line, run

CLASSES = ["2T R", "3T L", "3T R"]
N = 300
ARGS = ["report", "order-up", "--hands", "1000", "--seed", "7", "--policy", "heuristic", "--policy",
        "heuristic:human", "--model-hands", "1000", "--classes", "3T R, 2T R,3T L", "--class-deals", str(N),
        "--workers", "1", "--quiet"]
POSITIONS = ["left", "partner", "right", "dealer"]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    cwd = tmp_path_factory.mktemp("t")
    r = run(ARGS + ["--out", "ou"], cwd=cwd)
    assert r.exit_code == 0, r.output
    return cwd


def _deals(seed=7):
    """The targeted deals as the report plays them, in a folder of their own (resume would share it)."""
    import tempfile
    ctx = ReportContext(kind="order-up", out=tempfile.mkdtemp(), hands=1000, seed=seed, rules=Rules(),
                        policies=("heuristic",), classes=tuple(CLASSES), class_deals=N)
    return targeted.simulate(ctx, build_tables(ctx.rules), speaking_order(4), deal_frame)


def test_the_headline_table_has_every_seat_and_class_from_the_targeted_deals(made):
    head = pd.read_csv(made / "ou" / "order_up_headline.csv")
    assert sorted(zip(head["position"], head["hand_class"])) == sorted((p, c) for p in POSITIONS for c in CLASSES)
    assert (head["policy"] == "heuristic").all()
    assert (head.groupby("position")["deals_kept"].sum() == N).all()       # N kept deals a seat, split by class
    assert ((head["reached"] <= head["deals_kept"]) & (head["reached"] > 0)).all()
    assert np.allclose(head["share"], head["deals_kept"] / head["deals_dealt"])
    assert ((head["share_low"] < head["share"]) & (head["share"] < head["share_high"])).all()
    # the untargeted cell beside is the main model's round-one cell of the same seat and class
    by_class = pd.read_csv(made / "ou" / "order_up_by_class.csv")
    cell = by_class[(by_class["policy"] == "heuristic") & (by_class["round"] == 1)]
    both = head.merge(cell, on=["position", "hand_class"])
    assert len(both) == len(head)
    assert np.allclose(both["untargeted_gain"], both["gain_y"]) and (both["untargeted_n"] == both["n"]).all()


def test_the_targeted_deals_are_in_no_other_table(made):
    plain = [a for a in ARGS[:ARGS.index("--classes")]] + ["--workers", "1", "--quiet"]
    r = run(plain + ["--out", "plain"], cwd=made)
    assert r.exit_code == 0, r.output
    mine, theirs = csv_texts(made / "ou"), csv_texts(made / "plain")
    assert mine.pop("order_up_headline.csv")
    mine.pop("order_up_calls_round1.csv")            # the opening chart's cells: the next test
    theirs.pop("order_up_calls_round1.csv")
    assert "targeted" not in pd.read_csv(made / "plain" / "order_up_calls_round1.csv")
    assert mine == theirs


def test_every_reached_deal_holds_a_class_asked_for_and_gives_the_cells(made):
    df, shares = _deals()
    # deal_frame classes each reached hand from its cards with analysis.calls (not the kernel that kept it)
    assert len(df) and set(df["hand_class"]) == set(CLASSES)
    assert sorted(set(df["position"])) == sorted(POSITIONS) and (df["round"] == 1).all()
    head = pd.read_csv(made / "ou" / "order_up_headline.csv")
    for _, h in head.iterrows():
        g = df[(df["position"] == h["position"]) & (df["hand_class"] == h["hand_class"])]["gain"]
        assert len(g) == h["reached"] and g.mean() == pytest.approx(h["gain"])
    # a share is the kept deals of the class over all dealt at that seat, on the report's own numbers
    assert shares.set_index(["position", "hand_class"])["deals_kept"].to_dict() == \
        head.set_index(["position", "hand_class"])["deals_kept"].to_dict()



def test_a_resume_gives_identical_tables_and_other_classes_are_refused(made, tmp_path):
    import shutil
    out = tmp_path / "ou"
    shutil.copytree(made / "ou", out)
    assert drop_targeted_chunks(out)                    # targeted chunks were kept, and some are gone
    before = csv_texts(out)
    r = run(ARGS + ["--out", "ou", "--resume"], cwd=tmp_path)
    assert r.exit_code == 0, r.output
    assert csv_texts(out) == before
    meta = json.loads((out / "meta.json").read_text())
    assert meta["classes"] == CLASSES and meta["class_deals"] == N
    readme = (out / "README.md").read_text()
    assert f"{N:,} targeted deals per seat for heuristic, round one, hands 2T R, 3T L, 3T R" in readme
    line = one_error_line(run([a if a != str(N) else str(N + 1) for a in ARGS] + ["--out", "ou", "--resume"],
                              cwd=tmp_path))
    assert "other class_deals (class_deals 300)" in line and "--force" in line
    plain = [a for a in ARGS[:ARGS.index("--classes")]] + ["--workers", "1", "--quiet"]
    line = one_error_line(run(plain + ["--out", "ou", "--resume"], cwd=tmp_path))
    assert "other class_deals, classes" in line


def test_the_readme_takes_the_main_models_headline_from_the_targeted_cells(made):
    readme = (made / "ou" / "README.md").read_text()
    head = pd.read_csv(made / "ou" / "order_up_headline.csv")
    assert f"heuristic's figures from {N:,} targeted deals per seat" in readme
    for _, h in head.iterrows():
        line = next(ln for ln in readme.splitlines() if ln.startswith(f"- {h['position']}, `{h['hand_class']}` ("))
        half = (h["ci_high"] - h["ci_low"]) / 2
        assert f"{h['gain']:+.2f} points a hand (±{half:.2f}, {h['reached']:,} hands, heuristic, targeted)" in line
        assert "heuristic:human)" in line                    # the other model's untargeted cell beside
        assert f"{h['share']:.1%} of deals" in line


@pytest.mark.parametrize("extra,needle", [
    (["--classes", "2T R,2T X", "--class-deals", "10"], "--classes '2T R,2T X': unknown hand class '2T X'"),
    (["--classes", "2T R"], "--classes and --class-deals go together"),
    (["--class-deals", "10"], "--classes and --class-deals go together"),
])
def test_bad_classes_are_one_line(tmp_path, extra, needle):
    line = one_error_line(run(["report", "order-up", "--out", "r", "--workers", "1", "--quiet", *extra],
                              cwd=tmp_path))
    assert needle in line
    assert not (tmp_path / "r").exists()


def test_only_order_up_and_loner_take_classes(tmp_path):
    line = one_error_line(run(["report", "decks", "--out", "r", "--classes", "2T R", "--class-deals", "10"],
                              cwd=tmp_path))
    assert "only order-up and loner play targeted deals, not decks" in line


def test_make_reports_order_up_entry_targets_the_headline_classes():
    import importlib.util
    from euchresim.cli.report import _check_classes
    spec = importlib.util.spec_from_file_location("make_reports", os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "make_reports.py"))
    mr = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mr)
    args = dict(mr.REPORTS)["order-up"]
    assert args[args.index("--policy") + 1] == "best"
    classes = args[args.index("--classes") + 1]
    assert _check_classes("order-up", classes, int(args[args.index("--class-deals") + 1])) == tuple(CLASSES)


def test_the_opening_chart_takes_the_targeted_classes_cells_from_their_targeted_deals(made):
    """The call a player reads off the chart is the better-measured one: for the targeted classes the main
    model's cell (n, gain, interval, call) is the targeted cell; for every other class the untargeted one."""
    calls = pd.read_csv(made / "ou" / "order_up_calls_round1.csv")
    head = pd.read_csv(made / "ou" / "order_up_headline.csv")
    by_class = pd.read_csv(made / "ou" / "order_up_by_class.csv")
    mine = calls[calls["targeted"]].merge(head, on=["position", "hand_class"], suffixes=("", "_head"))
    assert len(mine) == len(head) and set(mine["hand_class"]) == set(CLASSES)
    assert (mine["n"] == mine["reached"]).all() and np.allclose(mine["gain"], mine["gain_head"])
    assert np.allclose(mine["ci_low"], mine["ci_low_head"]) and np.allclose(mine["ci_high"], mine["ci_high_head"])
    toss_up = (mine["ci_low"] > -0.1) & (mine["ci_high"] < 0.1)
    words = np.where(mine["ci_low"] > 0, "order", np.where(mine["ci_high"] < 0, "pass",
                                                          np.where(toss_up, "close", "too few hands")))
    assert (mine["call"] == words).all()
    rest = calls[~calls["targeted"]].merge(
        by_class[(by_class["policy"] == "heuristic") & (by_class["round"] == 1)], on=["position", "hand_class"])
    assert len(rest) == (~calls["targeted"]).sum() and not set(rest["hand_class"]) & set(CLASSES)
    assert np.allclose(rest["gain_x"], rest["gain_y"]) and (rest["n_x"] == rest["n_y"]).all()
    readme = (made / "ou" / "README.md").read_text()
    assert "the cells of `2T R`, `3T L`, `3T R` from its targeted deals" in readme


def test_every_headline_cell_is_measured_again_and_its_z_printed(made):
    """Each targeted cell has a replicate on deals of its own (another seed, other kept work) and two z's,
    against the replicate and against the untargeted cell; the README prints them beside the cell."""
    from euchresim.stats import Z95
    head = pd.read_csv(made / "ou" / "order_up_headline.csv")
    assert {"replicate_n", "replicate_gain", "z_replicate", "z_untargeted", "beyond_chance"} <= set(head)
    reached = head[head["reached"] > 0]
    assert (reached["replicate_n"] > 0).all() and not head["beyond_chance"].any()
    se = lambda lo, hi: (hi - lo) / (2 * Z95)
    want = (reached["gain"] - reached["replicate_gain"]) / np.hypot(
        se(reached["ci_low"], reached["ci_high"]), se(reached["replicate_ci_low"], reached["replicate_ci_high"]))
    assert np.allclose(reached["z_replicate"], want)
    assert not np.allclose(reached["gain"], reached["replicate_gain"])        # other deals, not a copy
    readme = (made / "ou" / "README.md").read_text()
    for _, h in reached.iterrows():
        assert f"measured again on deals of its own {h['replicate_gain']:+.2f} ({int(h['replicate_n']):,} " \
               f"hands, z {h['z_replicate']:+.1f}" in readme


def test_a_headline_cell_that_does_not_replicate_stops_the_report(tmp_path, monkeypatch):
    """The replicate shifted by a point a hand (as a bug or a mixed kept work would): the build refuses in one
    line naming the cells, and writes no README."""
    import euchresim.report.order_up_targeted as T
    real = T.simulate

    def shifted(ctx, *a, **k):
        df, shares = real(ctx, *a, **k)
        return (df.assign(gain=df["gain"] + 1.0) if ctx.replicate else df), shares
    monkeypatch.setattr(T, "simulate", shifted)
    r = run(ARGS + ["--out", "ou"], cwd=tmp_path)
    line = [ln for ln in r.output.splitlines() if ln.strip() and "compil" not in ln]
    assert r.exit_code != 0 and len(line) == 1 and "Traceback" not in r.output, r.output
    assert "headline cells disagree with their measures again beyond chance" in line[0] and "2T R" in line[0]
    assert not (tmp_path / "ou" / "README.md").exists()


def test_the_readme_has_a_decision_table_read_off_the_call_cells(made):
    """Per round and seat: the classes to call with, a toss-up, too few hands, pass, each with the number its
    cell in order_up_calls_round{1,2}.csv holds (the gain and half-width, or the hand count under 30)."""
    readme = (made / "ou" / "README.md").read_text()
    assert "## The decision table" in readme
    table = readme.split("## The decision table", 1)[1].split("\n## ", 1)[0]
    calls = pd.read_csv(made / "ou" / "order_up_calls_round1.csv")
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
