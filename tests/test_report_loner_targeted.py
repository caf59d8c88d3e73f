"""The loner report's headline cells from targeted deals (--classes, --class-deals): small heuristic runs."""
import json
import math
import os
import shutil
import tempfile

import numpy as np
import pandas as pd
import pytest

from euchresim.analysis.targeted import pooled_by_reach
from euchresim.engine.tables import build_tables
from euchresim.report import ReportContext
from euchresim.report import loner_targeted as targeted
from euchresim.report.loner import deal_frame
from euchresim.rules import Rules
from euchresim.stats import Z95
from tests.helpers import csv_texts, drop_targeted_chunks, one_error_line, run

CLASSES = ["3T RL", "4+T R", "4+T RL"]         # the engine's order (CLASS_NAMES)
N = 1500
HANDS = 20000
ARGS = ["report", "loner", "--hands", str(HANDS), "--seed", "11", "--policy", "heuristic", "--policy",
        "heuristic:human", "--model-hands", "1000", "--classes", "4+T RL,4+T R, 3T RL", "--class-deals", str(N),
        "--workers", "1", "--quiet"]
PLAIN = ARGS[:ARGS.index("--classes")] + ["--workers", "1", "--quiet"]
POSITIONS = ["left", "partner", "right", "dealer"]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    cwd = tmp_path_factory.mktemp("t")
    r = run(ARGS + ["--out", "lo"], cwd=cwd)
    assert r.exit_code == 0, r.output
    return cwd


def _se(row, prefix=""):
    return (row[f"{prefix}ci_high"] - row[f"{prefix}ci_low"]) / (2 * Z95)


def test_every_counted_deal_is_a_round_one_maker_of_a_class_asked_for():
    ctx = ReportContext(kind="loner", out=tempfile.mkdtemp(), hands=1000, seed=3, rules=Rules(),
                        policies=("heuristic",), classes=tuple(CLASSES), class_deals=300)
    df, shares = targeted.simulate(ctx, build_tables(ctx.rules), deal_frame)
    # deal_frame classes the maker's hand from its cards under the trump made (analysis.calls), not the kernel
    # that kept the deal: the dealer's hand as dealt, before the pick-up, in both
    assert len(df) and set(df["hand_class"]) <= set(CLASSES)
    assert (df["round"] == 1).all() and (df["who"] == "maker").all()
    assert sorted(set(df["position"])) == sorted(POSITIONS)
    assert sorted(zip(shares["position"], shares["hand_class"])) == sorted((p, c) for p in POSITIONS for c in CLASSES)
    assert (shares.groupby("position")["deals_kept"].sum() == 300).all()


def test_round_two_makers_are_left_out_because_their_class_is_not_the_one_kept():
    from euchresim.report.targeted import targeted_deals
    ctx = ReportContext(kind="loner", out=tempfile.mkdtemp(), hands=1000, seed=3, rules=Rules(),
                        policies=("heuristic",), classes=("3T RL",), class_deals=400)
    played, _ = targeted_deals(ctx, "alone", [1], "maker alone", with_trump=True)
    f = deal_frame(played[0][1], "maker", 4, build_tables(ctx.rules), "heuristic")
    assert set(f["round"]) == {1, 2}
    assert set(f.loc[f["round"] == 1, "hand_class"]) == {"3T RL"}
    assert (f.loc[f["round"] == 2, "hand_class"] != "3T RL").any()     # under another trump, another class


def test_each_seat_deals_from_a_stream_of_its_own():
    """One seed for every seat deals the same stream at each, so the seats keep many of the same deals and
    their sums are not of independent counts; the loner's seats each have a stream of their own."""
    from euchresim.report.targeted import targeted_deals
    ctx = ReportContext(kind="loner", out=tempfile.mkdtemp(), hands=1000, seed=3, rules=Rules(),
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
    from euchresim.run.runner import RunSpec, play_chunk as ordinary
    from euchresim.studies.counterfactual import play_chunk
    spec = RunSpec(rules=Rules(defend_alone=True), policies=("heuristic",), seed=5, count=3000, chunk_size=3000)
    res, rows = play_chunk(spec, 0, decision), ordinary(spec, 0).hands
    r = res.reached
    assert r.sum() > 20 and set(res.make_round[r]) == {1, 2}
    assert np.array_equal(res.trump[r], rows["trump"][r]) and np.array_equal(res.make_round[r], rows["make_round"][r])
    assert (res.trump[~r] == -1).all() and (res.make_round[~r] == -1).all()


def test_the_headline_table_has_every_seat_and_class_and_all_seats_weighted_by_reach(made):
    head = pd.read_csv(made / "lo" / "loner_headline.csv")
    assert sorted(zip(head["position"], head["hand_class"])) == sorted(
        (p, c) for p in POSITIONS + ["all seats"] for c in CLASSES)
    assert (head["policy"] == "heuristic").all()
    seats = head[head["position"] != "all seats"]
    assert (seats.groupby("position")["deals_kept"].sum() == N).all()
    assert ((seats["reached"] <= seats["deals_kept"]) & (seats["reached"] > 0)).all()
    assert np.allclose(seats["share"], seats["deals_kept"] / seats["deals_dealt"])
    for c in CLASSES:        # all seats: the mean of the seats' shares (the dealer's class counts its upcard)
        mean = seats.loc[seats["hand_class"] == c, "share"].mean()
        assert head.loc[(head["position"] == "all seats") & (head["hand_class"] == c), "share"].item() == \
            pytest.approx(mean)
    assert ((head["share_low"] < head["share"]) & (head["share"] < head["share_high"])).all()
    assert ((head["share"] > 0) & (head["share"] < 1)).all()
    for c in CLASSES:
        s, pooled = seats[seats["hand_class"] == c], head[(head["position"] == "all seats") & (head["hand_class"] == c)]
        w = s["reached"] / s["deals_dealt"]
        assert pooled["gain"].item() == pytest.approx((w * s["gain"]).sum() / w.sum())
        assert pooled["reached"].item() == s["reached"].sum()
        assert pooled["cell_share"].item() == pytest.approx(w.sum())
        # seats weighted equally would be another number: the weights differ enough to tell
        assert abs(pooled["gain"].item() - s["gain"].mean()) > 1e-9


def test_targeted_cells_agree_with_the_untargeted_cells_of_their_class(made):
    """The same gain (round one, the seat the maker) from independent deals: within 3 SE of the difference."""
    head = pd.read_csv(made / "lo" / "loner_headline.csv")
    checked = 0
    for _, h in head[head["untargeted_n"] >= 30].iterrows():
        se = math.hypot(_se(h), _se(h, "untargeted_"))
        assert abs(h["gain"] - h["untargeted_gain"]) <= 3 * se, h.to_dict()      # a sure march: both 2, SE 0
        checked += 1
    assert checked >= 5 and (head.loc[head["position"] == "all seats", "untargeted_n"] >= 30).all()


def test_shares_match_an_untargeted_runs_frequencies(made):
    """A class's share at a seat against its frequency on untargeted deals, and the share of deals reaching
    a cell against the untargeted report's makers of that cell: each within 3 SE."""
    from euchresim.run.runner import RunSpec
    from euchresim.studies.counterfactual import play_chunk
    head = pd.read_csv(made / "lo" / "loner_headline.csv")
    n = 40000
    spec = RunSpec(rules=Rules(), policies=("random",), seed=2, count=n, chunk_size=n)
    held = {p: play_chunk(spec, 0, "bid1", p).hand_classes() for p in range(4)}
    for c in CLASSES:
        freqs = [float((held[p] == c).mean()) for p in range(4)]
        # the seats' streams independent, all seats' interval honest; the dealer's class counts its upcard
        for where, freq, n_ref in (("left", freqs[1], n), ("dealer", freqs[0], n),
                                   ("all seats", float(np.mean(freqs)), 4 * n)):
            h = head[(head["position"] == where) & (head["hand_class"] == c)].iloc[0]
            half = (h["share_high"] - h["share_low"]) / 2 / 1.96       # the table's own standard error
            se = math.sqrt(freq * (1 - freq) / n_ref + half ** 2)
            assert abs(h["share"] - freq) < 3 * se, (c, where, h["share"], freq)
        a = head[(head["position"] == "all seats") & (head["hand_class"] == c)].iloc[0]
        p = a["untargeted_n"] / HANDS
        s = head[(head["position"] != "all seats") & (head["hand_class"] == c)]
        w = s["reached"] / s["deals_dealt"]
        se = math.sqrt(p * (1 - p) / HANDS + (w * (1 - w) / s["deals_dealt"]).sum())
        assert abs(a["cell_share"] - p) < 3 * se, (c, a["cell_share"], p)


def test_the_targeted_deals_are_in_no_other_table_nor_the_fitted_count(made):
    r = run(PLAIN + ["--out", "plain"], cwd=made)
    assert r.exit_code == 0, r.output
    mine = csv_texts(made / "lo")
    assert mine.pop("loner_headline.csv")
    assert "loner_count_points.csv" in mine
    assert mine == csv_texts(made / "plain")
    assert "loner_headline.csv" not in os.listdir(made / "plain")


def test_the_readme_takes_the_makers_headline_from_the_targeted_cells(made):
    """Each class's line gives every seat's targeted cell, the other models' untargeted cells at that seat, and
    the seats pooled only where Cochran's Q finds they agree (issue 36: a pooled answer was wrong advice for
    two seats)."""
    from euchresim.analysis.targeted import seats_agree
    readme = (made / "lo" / "README.md").read_text()
    head = pd.read_csv(made / "lo" / "loner_headline.csv")
    assert f"heuristic's figures from {N:,} targeted deals per seat" in readme
    assert "round one only" in readme and "Each answer is per seat" in readme
    lines = readme.splitlines()
    for _, h in head[head["position"] == "all seats"].iterrows():
        k = next(i for i, ln in enumerate(lines) if ln.startswith(f"- maker with `{h['hand_class']}`"))
        line = lines[k]
        assert "trump made in round one" in line and f"the hand {h['share']:.2%} of a seat's deals" in line
        seats = head[(head["hand_class"] == h["hand_class"]) & (head["position"] != "all seats")]
        test = seats_agree(seats["gain"], seats["ci_low"], seats["ci_high"])
        half = (h["ci_high"] - h["ci_low"]) / 2
        pooled = f"{h['gain']:+.2f} points a hand (±{half:.2f}, {h['reached']:,} hands, heuristic, targeted, seats"
        assert (pooled in line) is test["agree"]
        assert ("the seats differ" in line) is not test["agree"]
        below = lines[k + 1:k + 1 + len(seats)]
        for (_, s), sub in zip(seats.iterrows(), below):
            shalf = (s["ci_high"] - s["ci_low"]) / 2
            assert sub.startswith(f"  - {s['position']}: {s['gain']:+.2f} points a hand (±{shalf:.2f}, "
                                  f"{s['reached']:,} hands, heuristic, targeted)")
        assert any("heuristic:human, untargeted)" in sub for sub in below)


def test_a_resume_gives_identical_tables_and_other_classes_are_refused(made, tmp_path):
    out = tmp_path / "lo"
    shutil.copytree(made / "lo", out)
    assert drop_targeted_chunks(out)
    before = csv_texts(out)
    r = run(ARGS + ["--out", "lo", "--resume"], cwd=tmp_path)
    assert r.exit_code == 0, r.output
    assert csv_texts(out) == before
    meta = json.loads((out / "meta.json").read_text())
    assert meta["classes"] == CLASSES and meta["class_deals"] == N
    other = [a if a != "4+T RL,4+T R, 3T RL" else "4+T RL" for a in ARGS]
    line = one_error_line(run(other + ["--out", "lo", "--resume"], cwd=tmp_path))
    assert "other classes" in line and "--force" in line
    line = one_error_line(run(PLAIN + ["--out", "lo", "--resume"], cwd=tmp_path))
    assert "other class_deals, classes" in line


@pytest.mark.parametrize("kind", ["euchre-rates", "all"])
def test_only_order_up_and_loner_take_classes(tmp_path, kind):
    line = one_error_line(run(["report", kind, "--out", "r", "--classes", "4+T RL", "--class-deals", "10"],
                              cwd=tmp_path))
    assert f"only order-up and loner play targeted deals, not {kind}" in line
    assert not (tmp_path / "r").exists()


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


def test_each_seats_headline_cell_is_measured_again(made):
    head = pd.read_csv(made / "lo" / "loner_headline.csv")
    seats = head[(head["position"] != "all seats") & (head["reached"] > 0)]
    assert (seats["replicate_n"] > 0).all() and not head["beyond_chance"].any()
    assert np.isfinite(seats["z_replicate"]).all()
    readme = (made / "lo" / "README.md").read_text()
    assert readme.count("measured again on deals of its own") == len(seats)


def test_the_readme_has_a_decision_table_per_seat_for_going_and_defending_alone(made):
    """Per who, round and seat: where going alone pays, costs, or cannot be told, each class with its cell's
    gain (the untargeted round-one makers' cells of the main model) or its hand count."""
    readme = (made / "lo" / "README.md").read_text()
    table = readme.split("## The decision table", 1)[1].split("\n## ", 1)[0]
    one = table.split("Going alone, trump made in round one:")[1].split("\n\n", 2)[1]
    for pos in POSITIONS:
        assert any(ln.startswith(f"- **{pos}**: ") for ln in one.splitlines()), pos
    assert "it pays" in one and "it costs" in one and "Defending alone" in table
