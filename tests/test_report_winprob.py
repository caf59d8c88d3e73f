"""The win-probability report (euchresim/report/win_probability.py) on small runs.

The report is built once per variant into a temporary folder; the tests
read back what it wrote: the files, the numbers its README quotes against
its CSVs, its P(win) tables against ``winprob.win_probability`` on the
distribution of the kept hands, and a resume after losing some chunks.
"""
from tests.helpers import report_context
import glob
import json
import os
import shutil
import time

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from euchresim.analysis import winprob as wp
from euchresim.report import write_section
from euchresim.report import win_probability as W
from euchresim.report import win_probability_text as WT
from euchresim.rules import Rules
from euchresim.stats import Z95

HANDS = 20_000


def make(out, players=4, resume=False, hands=HANDS):
    ctx = report_context(kind="win-probability", out=str(out), hands=hands, seed=5, rules=Rules(players=players),
                        chunk_size=5_000, workers=1, resume=resume, command="pytest")
    os.makedirs(ctx.out, exist_ok=True)
    started = time.time()
    write_section(ctx, W.build(ctx), started)
    return ctx


@pytest.fixture(scope="module")
def four(tmp_path_factory):
    return make(tmp_path_factory.mktemp("wp4") / "r")


def csv(ctx, name):
    return pd.read_csv(ctx.path(f"{name}.csv"))


@pytest.mark.slow
def test_files(four):
    meta = json.load(open(four.path("meta.json")))
    assert meta["report"] == "win-probability" and meta["hands"] == HANDS
    for t in (5, 7, 10):
        for name in (f"p_win_to{t}.csv", f"p_win_view_to{t}.csv", f"p_win_to{t}_we_deal.png",
                     f"p_win_to{t}_they_deal.png"):
            assert os.path.getsize(four.path(name)) > 0, name
    for name in ("headline", "dp_vs_games", "outcome_distribution", "order_pass_points", "order_pass_by_score",
                 "order_pass_flips"):
        assert f"{name}.csv" in meta["tables"]
    assert all(os.path.exists(four.path(c)) for c in meta["charts"])
    assert len(glob.glob(four.path("order_pass_class*_to10.png"))) == len(W.CLASSES)
    with open(four.path("p_win_to10_we_deal.png"), "rb") as fh:
        assert fh.read(8) == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_readme_quotes_the_csvs(four):
    text = open(four.path("README.md"), encoding="utf-8").read()
    head = csv(four, "headline")
    for t in (5, 7, 10):
        at = lambda o, th, who: head[(head.target == t) & (head.ours == o) & (head.theirs == th)
                                     & (head.deals == who)].iloc[0]
        r = at(0, 0, "we deal")
        assert f"From 0-0 the side that deals first wins {WT._pct(r.p_win, r.se)}" in text
        r = at(t - 1, t - 1, "we deal")
        assert f"at {t - 1}-{t - 1} the dealing side wins {WT._pct(r.p_win, r.se)}" in text
        r = at(t - 2, t - 1, "they deal")
        assert WT._pct(r.p_win, r.se) in text
    chk = csv(four, "dp_vs_games")
    z0 = chk.iloc[0]
    assert z0["games"] == HANDS // 10
    assert f"won {WT._pct(z0.p_games)} (95% {WT._pct(z0.games_low)} to {WT._pct(z0.games_high)})" in text
    assert f"the DP says {WT._pct(z0.p_dp, z0.dp_se)}" in text
    agree = int(chk["agree"].sum())
    assert (f"at all {len(chk)} states" in text) if agree == len(chk) else (f"at {agree} of {len(chk)}" in text)
    for r in csv(four, "order_pass_points").itertuples():
        assert f"**{r._1}** ({r.deals:,} deals): ordering gains {r.points_gain:+.3f} points" in text
    # the headline rows are cells of the table written beside them
    view = csv(four, "p_win_view_to10")
    m = head[head.target == 10].merge(view, on=["ours", "theirs", "deals"], suffixes=("", "_v"))
    assert len(m) == (head.target == 10).sum() and np.allclose(m.p_win, m.p_win_v) and np.allclose(m.se, m.se_v)


@pytest.mark.slow
def test_tables_are_the_dp_of_the_kept_hands(four):
    parts = sorted(glob.glob(four.path("_work", "hands", "_results", "chunk-*.bin")))     # .npz bytes
    assert len(parts) == HANDS // 5_000
    rows = pd.concat([pd.DataFrame(dict(np.load(f))) for f in parts], ignore_index=True)
    assert len(rows) == HANDS
    dist = wp.outcome_distribution(rows, 4, pool_seats=True)
    kept = csv(four, "outcome_distribution")
    assert np.array_equal(kept["count"].to_numpy(), dist["count"].to_numpy())
    for t in (5, 7, 10):
        tab = csv(four, f"p_win_to{t}")
        want = wp.win_probability(dist, 4, t)
        assert list(tab.columns) == list(want.columns)
        assert np.array_equal(tab[["score0", "score1", "dealer"]].to_numpy(), want[["score0", "score1", "dealer"]])
        assert np.allclose(tab[["win0", "win1"]].to_numpy(), want[["win0", "win1"]].to_numpy(), atol=1e-12)
        view = csv(four, f"p_win_view_to{t}")
        assert len(view) == 2 * t * t
        r = view[(view.ours == 3) & (view.theirs == 1) & (view.deals == "they deal")].iloc[0]
        assert r.p_win == pytest.approx(wp.p_win(want, (3, 1), dealer=1, party=0))


@pytest.mark.slow
def test_dp_against_games_and_decisions(four):
    chk = csv(four, "dp_vs_games")
    assert len(chk) == 1 + W.CHECK_STATES
    assert ((chk.games_low <= chk.p_games) & (chk.p_games <= chk.games_high)).all()
    # every check may miss at 5%, not by much: a DP or games bug would be far off
    assert (chk.z.abs() < 4).all()
    dec = csv(four, "order_pass_by_score")
    assert np.allclose(dec.p_win_order - dec.p_win_pass, dec.delta)
    assert set(dec.target) == {5, 7, 10} and ((dec.se >= 0) & (dec.p_win_order.between(0, 1))).all()
    flips = csv(four, "order_pass_flips")
    assert (np.sign(flips.delta) != np.sign(flips.points_gain)).all()
    gains = csv(four, "order_pass_points")
    assert (gains.deals > 100).all() and (gains.low <= gains.points_gain).all()
    # the dealer with three trumps in hand (four with the upcard) orders: worth points at every score
    d3 = gains[gains["class"] == "dealer, 3 trumps"].iloc[0]
    assert d3.low > 0
    assert (dec[dec["class"] == "dealer, 3 trumps"].delta > -1e-9).all()


def test_trump_count():
    from euchresim.cards import parse_card as card
    up = np.array([card("9H")])
    hand = np.array([sum(1 << card(c) for c in ("JH", "JD", "AH", "9C", "TS"))])
    held, bower = W._trumps(hand, up)
    assert held[0] == 3 and bower[0]
    held, bower = W._trumps(np.array([sum(1 << card(c) for c in ("AH", "KH", "JC", "9S", "TS"))]), up)
    assert held[0] == 2 and not bower[0]


@pytest.mark.slow
def test_resume_gives_the_same_tables(tmp_path, four):
    out = tmp_path / "r"
    shutil.copytree(four.out, out)
    lost = sorted(glob.glob(str(out / "_work" / "*" / "_results" / "chunk-*.bin")))[::3]
    assert lost
    for f in lost:
        os.remove(f)
    ctx = make(out, resume=True)
    for f in sorted(glob.glob(four.path("*.csv"))):
        a, b = pd.read_csv(f), pd.read_csv(ctx.path(os.path.basename(f)))
        pd.testing.assert_frame_equal(a, b, check_exact=True)
    assert all(os.path.exists(f) for f in lost)


@pytest.mark.slow
def test_three_players_through_the_command(tmp_path):
    from euchresim.cli.app import cli
    out = tmp_path / "wp3"
    r = CliRunner().invoke(cli, ["report", "win-probability", "--players", "3", "--hands", "6000", "--seed", "2",
                                 "--workers", "1", "--quiet", "--out", str(out)])
    assert r.exit_code == 0, r.output
    text = (out / "README.md").read_text(encoding="utf-8")
    head = pd.read_csv(out / "headline.csv")
    assert set(head.target) == {10}
    r9 = head[(head.ours == 9) & (head.theirs == 9) & (head.deals == "we deal")].iloc[0]
    assert f"at 9-9-9 the dealing player wins {WT._pct(r9.p_win, r9.se)}" in text
    tab = pd.read_csv(out / "p_win_to10.csv")
    assert list(tab.columns) == ["score0", "score1", "score2", "dealer", "win0", "win1", "win2"]
    assert (out / "p_win_to10_we_deal.png").exists() and (out / "meta.json").exists()


def test_late_scores_name_the_calls_gains_and_losses_of_p_win_both_ways():
    """At 9-9 the call may win the game (+16.9) and at 9-8 lose it (-8.5): the report names both signs, only
    where a side is within two of the target and the change is clear of its noise."""
    import pandas as pd
    from euchresim.report.win_probability_text import _late_scores_text
    sub = pd.DataFrame({"ours": [9, 9, 8, 2, 9], "theirs": [9, 8, 9, 2, 7], "delta": [0.169, -0.085, 0.03, 0.2, -0.001],
                        "se": [0.01, 0.01, 0.01, 0.01, 0.01], "clear": [True, True, True, True, False]})
    text = _late_scores_text(sub, 10, 4)
    assert "raises P(win) most at 9-9 +16.9" in text and "8-9 +3.0" in text
    assert "lowers it most at 9-8 -8.5" in text and "2-2" not in text and "9-7" not in text
    assert _late_scores_text(sub[sub["ours"] == 2], 10, 4) == ""


def test_the_points_call_is_too_close_where_its_interval_holds_0():
    """best's dealer with two trumps and a bower gains +0.030 (-0.057 to +0.117): no call on points."""
    from euchresim.report.win_probability_text import _points_call
    assert _points_call({"points_gain": 0.030, "low": -0.057, "high": 0.117}).startswith("too close to call")
    assert _points_call({"points_gain": -0.093, "low": -0.180, "high": -0.006}) == "pass"
    assert _points_call({"points_gain": 1.134, "low": 1.075, "high": 1.194}) == "order"


def test_a_headline_gain_or_check_that_its_measure_again_does_not_reproduce_stops_the_report():
    """Each class's gain is measured again on deals of its own; a z beyond chance after Holm's correction over
    those and the DP's checks against games stops the report (one line naming it), one within chance does not."""
    import pandas as pd
    from euchresim.report import ReportError
    from euchresim.report.win_probability_checks import replicated as _replicated
    gains = pd.DataFrame({"class": ["left 3T", "dealer 3T"], "position": [1, 0], "deals": [1651, 4398],
                          "points_gain": [-0.093, 1.134], "low": [-0.180, 1.075], "high": [-0.006, 1.194]})
    chk = pd.DataFrame({"state": ["0-0, first dealer"], "p_dp": [0.518], "p_games": [0.509], "z": [-0.77]})
    se = 0.05 / 1.96
    agree = pd.DataFrame({"replicate_deals": [1700, 4400], "replicate_gain": [-0.05, 1.10],
                          "replicate_low": [-0.14, 1.04], "replicate_high": [0.04, 1.16]})
    out = _replicated("rep", gains, agree, chk)
    assert out.attrs["tests"] == 3 and list(out["replicate_gain"]) == [-0.05, 1.10]
    assert abs(out["z_replicate"][1] - 0.034 / np.hypot(0.119 / 3.92, 0.12 / 3.92)) < 1e-3
    differ = agree.assign(replicate_gain=[-0.093 + 6 * se, 1.10], replicate_low=[-0.093 + 5 * se, 1.04],
                          replicate_high=[-0.093 + 7 * se, 1.16])
    with pytest.raises(ReportError, match=r"rep: headline figures disagree .* over 3 comparisons\): left 3T"):
        _replicated("rep", gains, differ, chk)
    with pytest.raises(ReportError, match=r"P\(win\) at 0-0, first dealer"):        # the DP's check counts too
        _replicated("rep", gains, agree, chk.assign(z=[4.5]))
    flat = gains.assign(low=gains["points_gain"], high=gains["points_gain"])     # no spread, and they differ:
    with pytest.raises(ReportError, match="left 3T"):                            # z infinite, a disagreement
        _replicated("rep", flat, agree.assign(replicate_low=agree["replicate_gain"],
                                              replicate_high=agree["replicate_gain"]), chk)


def test_a_search_bots_pieces_are_cut_into_its_declared_chunks_and_a_fast_bots_are_as_they_were():
    """Under ``best`` each piece was one chunk of 20,000 deals (one core, an hour a stop could lose); a search
    bot's chunks are capped by its declared cost, a fast bot's sizes (and so its numbers) unchanged."""
    best = report_context(policies=("best",), hands=20_000, chunk_size=50_000, kind="win-probability")
    fast = report_context(policies=("heuristic",), hands=20_000, chunk_size=50_000, kind="win-probability")
    cap = best.model("best").cost.chunk
    assert 0 < cap < 20_000
    assert W._spec(best, "hands", 20_000, 1).chunk_size == cap
    assert W._spec(best, "games", 2_000, 1).chunk_size <= cap
    assert W._spec(fast, "hands", 20_000, 1).chunk_size == 20_000
    assert W._spec(fast, "games", 2_000, 1).chunk_size == 2_000


def test_each_order_or_pass_chart_says_how_the_trumps_of_its_class_are_counted(tmp_path, monkeypatch):
    """A chart read apart from the README (order_pass_class*.png) states the trumps convention in its caption:
    the hand the seat plays, the dealer's with the upcard (issue 36)."""
    from euchresim import plots
    got = []
    monkeypatch.setattr(plots, "heatmap", lambda *a, **k: got.append(k["caption"]) or "x.png")
    ctx = report_context(kind="win-probability", out=str(tmp_path / "w"), hands=10, seed=1, rules=Rules(),
                         policies=("heuristic",), command="euchresim report win-probability")
    dec = pd.DataFrame([{"class": label, "target": 10, "ours": 9, "theirs": 9, "delta": 0.1}
                        for _, label, _, _ in W.CLASSES])
    W._decision_charts(ctx, pd.DataFrame({"deals": [11, 12, 13, 14]}), dec, 10)
    assert len(got) == len(W.CLASSES) and all(W.CLASS_NOTE in c for c in got)
    assert "the dealer's with the upcard it takes up" in W.CLASS_NOTE


# ---------------------------------------------------------------- --class-reached: each class on targeted deals

@pytest.mark.parametrize("players,deck", [(p, d) for p in (2, 3, 4) for d in (24, 25, 32, 33)])
def test_class_names_hold_every_hand_of_a_class(players, deck):
    """Every hand of a CLASSES entry, as the report counts it (``_trumps`` of the hand the seat plays), has an
    engine class (``engine.classes``, which the targeting keeps) among ``_class_names``, in every pack and table:
    targeting never drops a hand of the class. 20,000 random hands and upcards a variant, at both seats."""
    from euchresim.analysis.call_stats import played_hand
    from euchresim.cards import JOKER, cards_of, pack_mask
    from euchresim.engine.classes import CLASS_NAMES, class_codes
    from euchresim.engine.tables import build_tables
    rules = Rules(players=players, deck=deck)
    tab = build_tables(rules)
    pack = np.array(cards_of(pack_mask(deck)), np.int64)
    rng = np.random.default_rng(deck * 10 + players)
    pick = pack[rng.random((20_000, len(pack))).argsort(axis=1)[:, :6]]
    pick = pick[pick[:, 5] != JOKER]                            # a joker upcard has no suit, so no class
    dealt, upcard = (np.int64(1) << pick[:, :5]).sum(axis=1), pick[:, 5]
    seen = 0
    for pos, _, t, need_bower in W.CLASSES:
        hand = played_hand(dealt, upcard, np.full(len(dealt), pos), np.ones(len(dealt), bool))
        held, bower = W._trumps(hand, upcard)
        mine = (held == t) & (bower | (not need_bower))
        codes = class_codes(tab, hand[mine], upcard[mine] >> 3)
        assert {CLASS_NAMES[c] for c in codes} <= set(W._class_names(rules, t, need_bower)), (pos, t, need_bower)
        seen += int(mine.sum())
    assert seen > 4000                                          # the classes are common: the check saw them


def test_class_names_by_hand():
    """The trumps' bucket, with a bower where the class needs one; with the joker (a bower to CLASSES, not to the
    engine's classes) the whole bucket."""
    assert W._class_names(Rules(), 2, True) == ("2T L", "2T R", "2T RL")
    assert W._class_names(Rules(), 3, False) == ("3T -", "3T L", "3T R", "3T RL")
    assert W._class_names(Rules(deck=25), 2, True) == ("2T -", "2T L", "2T R", "2T RL")
    assert W._class_names(Rules(), 4, False)[0] == "4+T -"


def test_batch_seeds_differ_by_class_batch_and_measure_again():
    seeds = {W._batch_seed(1, j, b, r) for j in range(4) for b in range(3) for r in (0, 1)}
    assert len(seeds) == 24 and W._batch_seed(1, 0, 0) == W._batch_seed(1, 0, 0, 0)


def make_reached(out, reached, workers=1, resume=False):
    ctx = report_context(kind="win-probability", out=str(out), hands=2000, seed=5, rules=Rules(),
                        chunk_size=500, workers=workers, resume=resume, command="pytest", class_reached=reached)
    os.makedirs(ctx.out, exist_ok=True)
    write_section(ctx, W.build(ctx), time.time())
    return ctx


@pytest.fixture(scope="module")
def reached(tmp_path_factory):
    return make_reached(tmp_path_factory.mktemp("wpr") / "r", 300)


def test_each_class_reaches_its_own_count_on_targeted_deals(reached):
    """Every class and its measure again has 300+ deals that reached the call (the untargeted run of the same
    2,000 hands gives the dealer's left some 160 with three trumps), and the README says how they were drawn."""
    g = csv(reached, "order_pass_points")
    assert (g["deals"] >= 300).all() and (g["replicate_deals"] >= 300).all()
    # targeted: the left (who always reaches the call) kept no deal but its class's; untargeted, three trumps
    # come on some 8% of deals, so its 300 would have cost some 3,700 kept
    kept = sum(json.load(open(f))["report_work"]["count"]
               for f in glob.glob(reached.path("_work", "order-pass-class1-batch*", "_manifest.json")))
    assert kept == g.loc[1, "deals"]
    text = open(reached.path("README.md")).read()
    assert "in batches until 300 of them reached the call" in text
    assert json.load(open(reached.path("meta.json")))["class_reached"] == 300


@pytest.mark.slow
def test_targeted_classes_with_the_joker_keep_only_the_class(tmp_path):
    """With the joker (a bower to the classes, not to the engine's), the targeted deals are a superset of a class
    that needs a bower and the class's own are kept: every class still reaches its count, and the left's two
    trumps with a bower needed more kept deals than reached (those with neither jack nor joker dropped)."""
    ctx = report_context(kind="win-probability", out=str(tmp_path / "j"), hands=2000, seed=3,
                         rules=Rules(deck=25), chunk_size=500, workers=1, command="pytest", class_reached=200)
    os.makedirs(ctx.out, exist_ok=True)
    write_section(ctx, W.build(ctx), time.time())
    g = csv(ctx, "order_pass_points")
    assert (g["deals"] >= 200).all()
    kept = sum(json.load(open(f))["report_work"]["count"]
               for f in glob.glob(ctx.path("_work", "order-pass-class0-batch*", "_manifest.json")))
    assert kept > g.loc[0, "deals"] * 1.2


@pytest.mark.slow
def test_targeted_classes_agree_with_the_untargeted_within_chance(reached, four):
    """Targeting draws a class's deals from the same deals, only more of them: each class's gain against the
    untargeted run's (20,000 hands), z from both standard errors, none beyond 3.3 (a 0.1% two-sided bound for
    each of four: the chance of a false alarm over them under 0.4%)."""
    from euchresim.stats import Z95
    a, b = csv(reached, "order_pass_points"), csv(four, "order_pass_points")
    se = lambda t: (t["high"] - t["low"]) / (2 * Z95)                # noqa: E731
    z = (a["points_gain"] - b["points_gain"]) / np.sqrt(se(a) ** 2 + se(b) ** 2)
    assert list(a["class"]) == list(b["class"]) and (z.abs() < 3.3).all(), z


@pytest.mark.slow
def test_targeted_classes_are_the_same_on_two_workers_and_on_resume(reached, tmp_path):
    """The same seed gives the same batches and deals whatever the workers, and a resume after losing a batch's
    chunks plays only those again, to the same numbers."""
    two = make_reached(tmp_path / "two", 300, workers=2)
    pd.testing.assert_frame_equal(csv(two, "order_pass_points"), csv(reached, "order_pass_points"))
    lost = sorted(glob.glob(two.path("_work", "order-pass-class1-batch1", "_results", "chunk-*")))
    assert lost
    for f in lost:
        os.remove(f) if os.path.isfile(f) else shutil.rmtree(f)
    again = make_reached(tmp_path / "two", 300, resume=True)
    pd.testing.assert_frame_equal(csv(again, "order_pass_points"), csv(reached, "order_pass_points"))


def _streams(label, gains, deals, half=0.047):
    return pd.DataFrame({"class": label, "stream": range(len(gains)), "deals": deals, "gain": gains,
                         "low": np.array(gains) - half, "high": np.array(gains) + half})


def test_a_class_refused_on_its_measure_again_is_judged_on_further_streams_and_pooled():
    """best's dealer with two trumps and a bower: +0.093 and again -0.012 (z +3.1, refused over 9 comparisons);
    two further streams +0.071 and +0.016.  The pair's difference was picked by the refusal and is not tested
    again; the pair's mean (+0.0405, its standard error half the pair's in quadrature) and the two further
    streams are, by Cochran's Q on 2 degrees of freedom, worked here by hand; the class's figure is then the
    pooled one, the other class as it was."""
    from euchresim.report.win_probability_checks import followed_up, replicated
    se = 0.047 / Z95
    gains = pd.DataFrame({"class": ["dealer 2T", "dealer 3T"], "position": [0, 0], "deals": [7506, 7400],
                          "points_gain": [0.093, 1.105], "low": [0.093 - 0.047, 1.058],
                          "high": [0.093 + 0.047, 1.152]})
    rep = pd.DataFrame({"replicate_deals": [7350, 7410], "replicate_gain": [-0.012, 1.131],
                        "replicate_low": [-0.059, 1.084], "replicate_high": [0.035, 1.178]})
    chk = pd.DataFrame({"state": ["0-0, first dealer"], "p_dp": [0.518], "p_games": [0.509], "z": [-0.77]})
    with pytest.raises(Exception, match="dealer 2T: \\+0.093, again -0.012"):
        replicated("rep", gains, rep, chk)                    # without a follow-up the gate refuses, as before
    res = replicated("rep", gains, rep, chk, follow=True)
    assert list(res["refused"]) == [True, False] and res.attrs["tests"] == 3
    with pytest.raises(Exception, match=r"P\(win\) at 0-0"):  # a check of the DP has no further stream
        replicated("rep", gains, rep, chk.assign(z=[4.5]), follow=True)
    streams = pd.concat([_streams("dealer 2T", [0.093, -0.012, 0.071, 0.016], [7506, 7350, 7556, 7469]),
                         _streams("dealer 3T", [1.105, 1.131], [7400, 7410])])
    pooled = gains.assign(deals=[29881, 7400], points_gain=[0.042, 1.105], low=[0.019, 1.058], high=[0.065, 1.152])
    out = followed_up("rep", res, streams, pooled)
    m, e = 0.0405, np.hypot(se, se) / 2
    w = np.array([1 / e ** 2, 1 / se ** 2, 1 / se ** 2])
    x = np.array([m, 0.071, 0.016])
    q = float((w * (x - (w * x).sum() / w.sum()) ** 2).sum())
    assert abs(out.loc[0, "streams_q"] - q) < 1e-9 and abs(out.loc[0, "streams_p"] - np.exp(-q / 2)) < 1e-9
    assert list(out["streams"]) == [4, 2] and np.isnan(out.loc[1, "streams_q"]) and "refused" not in out
    assert out.loc[0, "deals"] == 29881 and out.loc[0, "points_gain"] == 0.042
    assert out.loc[0, "z_replicate"] == res.loc[0, "z_replicate"]       # the refused pair is still printed
    assert out.loc[1].drop(["streams", "streams_q", "streams_p"]).equals(res.drop(columns="refused").loc[1])
    far = pd.concat([_streams("dealer 2T", [0.093, -0.012, 0.30, 0.016], [7506, 7350, 7556, 7469]),
                     _streams("dealer 3T", [1.105, 1.131], [7400, 7410])])
    with pytest.raises(Exception, match=r"rep: measured on further streams .* over 1 classes\): dealer 2T: "
                                        r"\+0.093, -0.012, \+0.300, \+0.016"):
        followed_up("rep", res, far, pooled)


def test_further_streams_have_seeds_and_kept_work_of_their_own():
    """A further stream's batches draw from seeds no first measure or measure again uses (and the untargeted
    runs' from seeds apart from the measure again's), so a follow-up is new deals, never the refused pair's."""
    seeds = {W._batch_seed(1, j, b, r) for j in range(4) for b in range(3) for r in range(4)}
    assert len(seeds) == 48
    assert len({W._again_seed(1, p, s) for p in (0, 1) for s in (1, 2, 3)}) == 6
    assert W._again_seed(1, 0) == W._again_seed(1, 0, 1)


def _refuse(monkeypatch, j):
    """The build's gate made to refuse class ``j`` on its measure again, so its follow-up runs.  The refusal is
    forced on a class whose streams measure one gain: the Q gate (tested on its own above) would still refuse one
    time in twenty by chance, and these tests are of the plumbing, so its alpha is set near 0."""
    from functools import partial
    from euchresim.report import win_probability_checks as C

    def refusing(*a, **k):
        res = C.replicated(*a, **k)
        res.loc[j, "refused"] = True
        return res
    monkeypatch.setattr(W, "replicated", refusing)
    monkeypatch.setattr(W, "followed_up", partial(C.followed_up, alpha=1e-9))


@pytest.mark.slow
def test_a_refused_class_is_played_on_further_streams_kept_and_pooled_in_the_report(tmp_path, monkeypatch, reached):
    """The build's plumbing of a follow-up, with the gate made to refuse the left's three trumps: that class is
    played on two further streams to its own count, each kept under a name of its own; its row pools every
    stream's deals, the streams table holds all four, the README prints them, and a resume replays nothing."""
    _refuse(monkeypatch, 1)
    ctx = make_reached(tmp_path / "f", 300)
    g, s = csv(ctx, "order_pass_points"), csv(ctx, "order_pass_streams")
    assert list(g["streams"]) == [2, 4, 2, 2] and g["streams_q"].notna().tolist() == [False, True, False, False]
    mine = s[s["class"] == W.CLASSES[1][1]]
    assert list(mine["stream"]) == [0, 1, 2, 3] and (mine["deals"] >= 300).all()
    assert g.loc[1, "deals"] == mine["deals"].sum()
    first = csv(reached, "order_pass_points")                    # the same seed without the follow-up
    assert mine["gain"].iloc[0] == first.loc[1, "points_gain"] and mine["gain"].iloc[1] == first.loc[1, "replicate_gain"]
    pd.testing.assert_frame_equal(g.drop(index=1), first.drop(index=1))
    for r in (2, 3):
        assert glob.glob(ctx.path("_work", f"order-pass-class1-stream{r}-batch0", "_manifest.json"))
    assert not glob.glob(ctx.path("_work", "order-pass-class0-stream*"))
    text = open(ctx.path("README.md")).read()
    assert "pooled over 4 streams of its own" in text and f"{mine['gain'].iloc[2]:+.3f}" in text
    def boom(*a, **k):
        raise AssertionError("a kept stream played again")
    monkeypatch.setattr(W, "_cf_job", boom)
    again = make_reached(tmp_path / "f", 300, resume=True)
    pd.testing.assert_frame_equal(csv(again, "order_pass_streams"), s)


@pytest.mark.slow
def test_without_class_reached_a_refused_class_is_followed_up_on_runs_of_its_position(tmp_path, monkeypatch):
    """Untargeted (every deal of ``--hands`` a seat), a refused class's further streams are runs of its position
    of as many deals, from seeds of their own, each class's kept apart: the dealer's three trumps gets streams 2
    and 3 of about as many deals as its first measure, pooled."""
    _refuse(monkeypatch, 3)
    ctx = make(tmp_path / "u", hands=4000)
    g, s = csv(ctx, "order_pass_points"), csv(ctx, "order_pass_streams")
    mine = s[s["class"] == W.CLASSES[3][1]]
    assert list(g["streams"]) == [2, 2, 2, 4] and list(mine["stream"]) == [0, 1, 2, 3]
    assert g.loc[3, "deals"] == mine["deals"].sum() and len(set(mine["gain"])) == 4
    se = (mine["high"] - mine["low"]) / (2 * Z95)           # four streams of one class: within chance of each other
    assert (abs(mine["gain"] - g.loc[3, "points_gain"]) < 4 * se).all()
    for r in (2, 3):
        m = json.load(open(ctx.path("_work", f"order-pass-class3-stream{r}", "_manifest.json")))["report_work"]
        assert m["count"] == 4000 and m["seed"] == W._again_seed(5, 0, r)


def test_a_followed_up_class_prints_every_stream_and_both_tests():
    """The README line of a class followed up: the refused pair, each further stream, the test the gate makes
    (the pair's mean and the further streams) and, beside it, the test over all the streams at once, said to be
    inflated by the choice that picked the pair (a reader who runs it on order_pass_streams.csv finds it there)."""
    from euchresim.report.win_probability_text import _again_words
    s = _streams("dealer 2T", [0.093, -0.012, 0.071, 0.016], [7506, 7489, 7556, 7469])
    row = pd.Series({"class": "dealer 2T", "replicate_gain": -0.012, "replicate_deals": 7489, "z_replicate": 3.07,
                     "streams": 4, "streams_q": 2.62, "streams_p": 0.27})
    se = 0.047 / Z95
    g = np.array([0.093, -0.012, 0.071, 0.016])
    q = float((((g - g.mean()) / se) ** 2).sum())
    text = _again_words(row, s)
    assert "Its first measure, +0.093 (7,506 deals), and its measure again, -0.012 (7,489)" in text
    m, e = (0.093 - 0.012) / 2, np.hypot(se, se) / 2         # the gate's test: the pair's mean and the two
    x, w = np.array([m, 0.071, 0.016]), 1 / np.array([e, se, se]) ** 2
    q2 = float((w * (x - (w * x).sum() / w.sum()) ** 2).sum())
    assert "+0.071 (7,556), +0.016 (7,469)" in text
    assert f"Cochran's Q {q2:.1f} on 2 degrees of freedom, p = {np.exp(-q2 / 2):.3f}" in text
    assert f"Over all the streams at once, Cochran's Q {q:.1f} on 3 degrees of freedom" in text and "inflated" in text
    assert _again_words({**row, "streams": 2}, s).startswith(
        "; measured again on deals of its own -0.012")
