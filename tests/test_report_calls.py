"""The order-up and loner reports: small fixed-seed runs through the CLI, checked against direct computations."""
import json
import os
import re

import numpy as np
import pandas as pd
import pytest

from euchresim.studies import counterfactual as cf
from euchresim.cards import parse_card
from euchresim.analysis.call_stats import hand_features, published_points
from euchresim.report.paired_chunks import fmt_gain, plan
from euchresim.rules import Rules
from euchresim.engine.tables import build_tables
from tests.helpers import run_spec, run_ok as run

PIMC = "pimc:worlds=4:bid_worlds=3"
ARGS = ["--hands", "3000", "--seed", "5", "--policy", "heuristic", "--policy", PIMC, "--policy", "dd",
        "--model-hands", "200", "--model-hands", "500", "--workers", "1", "--quiet"]


@pytest.fixture(scope="module")
def order_up(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("r") / "ou")
    run(["report", "order-up", *ARGS, "--out", out])
    return out


@pytest.fixture(scope="module")
def loner(tmp_path_factory):
    out = str(tmp_path_factory.mktemp("r") / "ln")
    run(["report", "loner", *ARGS, "--out", out])
    return out


def board(*cards):
    return sum(1 << parse_card(c, 24) for c in cards)


def test_features_of_hand_built_hands():
    tab = build_tables(Rules(players=4))
    hands = [board("JH", "JD", "AH", "9H", "AC"), board("AS", "KS", "9D", "TC", "AH")]
    f = hand_features(hands, [2, 3], [parse_card("KH", 24), parse_card("JS", 24)], [0, 1], 4, tab)
    a, b = f.iloc[0], f.iloc[1]
    assert (a.trumps, a.right, a.left, a.trump_ace, a.trump_kq, a.trump_low) == (4, 1, 1, 1, 0, 1)
    assert (a.off_aces, a.voids, a.two_suited, a.up_rank, a.up_side, a.up_signed) == (1, 2, 1, "king", 1, 1)
    assert (b.trumps, b.right, b.left, b.trump_ace, b.trump_kq, b.off_aces, b.voids) == (2, 0, 0, 1, 1, 1, 0)
    assert (b.two_suited, b.up_rank, b.up_side, b.up_signed) == (0, "jack", -1, -1)
    # published count: 4+3+3+1 trump, +2 the king turned to the dealer, 2 an off ace, 1 two-suited
    # second: 3+2 trump, -4 the right bower turned to the other side, 2 an off ace
    assert list(published_points(f)) == [16, 3]


@pytest.mark.slow
def test_order_up_files_and_quoted_numbers(order_up):
    for f in ("README.md", "meta.json", "order_up_by_class.csv", "order_up_by_position.csv",
              "order_up_models.csv", "order_up_count_eval.csv", "heatmap_heuristic.png", "threshold.png"):
        assert os.path.exists(os.path.join(order_up, f)), f
    meta = json.load(open(os.path.join(order_up, "meta.json")))
    assert meta["policies"] == ["heuristic", PIMC, "dd"]
    readme = open(os.path.join(order_up, "README.md")).read()
    pos = pd.read_csv(os.path.join(order_up, "order_up_by_position.csv"))
    for _, r in pos.iterrows():
        assert fmt_gain(r, r["policy"]) in readme
    ev = pd.read_csv(os.path.join(order_up, "order_up_count_eval.csv"))
    r = ev[(ev["rule"] == "fitted count") & (ev["round"] == 1) & (ev["policy"] == "heuristic")].iloc[0]
    assert f"keeps {r['recovered']:.0%} ({r['recovered_low']:.0%}-{r['recovered_high']:.0%})" in readme
    assert f"picks the better call on {r['agree']:.1%}" in readme and f"gives up {r['given_up']:.3f}" in readme
    assert "euchrestrategy.info" in readme
    sp = pd.read_csv(os.path.join(order_up, "order_up_count_refits.csv"))
    for rule in ("fitted count", "always pass", "heuristic's own call", "published count (call at 7+)"):
        r = sp[(sp["round"] == 1) & (sp["what"] == "agree") & (sp["name"] == rule)].iloc[0]
        assert r["refits"] == 5 and r["min"] <= r["mean"] <= r["max"]
        g = sp[(sp["round"] == 1) & (sp["what"] == "given_up") & (sp["name"] == rule)].iloc[0]
        assert (f"round 1, {rule}: gives up {g['mean']:.3f} points a hand held out ({g['min']:.3f} to "
                f"{g['max']:.3f}, SD {g['sd']:.3f}); agrees {r['mean']:.2%} ({r['min']:.2%} to {r['max']:.2%}") in readme
    assert set(sp.loc[sp["what"] == "threshold", "name"]) == {"dealer", "left", "partner", "right"}
    assert "For dd (sees every hand) `policy_chose`" in readme       # a cheat's own call says what it is
    # the README opens with the call at the table, the cells another model answers the other way named
    assert readme.split("\n\n")[2] == "![Round 1: the call](calls_round1.png)"
    calls = pd.read_csv(os.path.join(order_up, "order_up_calls_round1.csv"))
    calls["differ"] = calls["differ"].astype(object).fillna("")          # an empty cell: no model differs
    assert set(calls["call"]) <= {"order", "pass", "close", "too few hands"}
    assert (calls.loc[calls["n"] < 30, "call"] == "too few hands").all()     # never a call on under 30 hands
    n_differ = int((calls["differ"] != "").sum())
    assert (f"{n_differ} of {len(calls)} cells {'is' if n_differ == 1 else 'are'} outlined" in readme if n_differ
            else "No other model gives the opposite call" in readme)
    for png in meta["charts"]:
        assert f"({png})" in readme
    # both rounds' call charts on one page to keep, linked from the decision table
    assert "decision_card.png" in meta["charts"] and "one page to keep: [decision_card.png]" in readme


@pytest.mark.slow
def test_order_up_gain_is_the_direct_paired_difference(order_up):
    size, n_chunks = plan(3000, 50_000)
    spec = run_spec(rules=Rules(players=4), policies=("heuristic",), seed=5, count=3000, chunk_size=size)
    gains = []
    for i in range(n_chunks):
        res = cf.play_chunk(spec, i, "bid1", position=1)       # left of the dealer
        res = res.take(res.reached & (res.upcard != 32))
        own = res.points[np.arange(len(res)), :, res.seat]
        other = res.points[np.arange(len(res)), :, (res.seat + 1) % 4]
        net = own - other
        k1, k0 = res.column(1), res.column(0)
        gains.append(net[np.arange(len(res)), k1] - net[np.arange(len(res)), k0])
    g = np.concatenate(gains)
    pos = pd.read_csv(os.path.join(order_up, "order_up_by_position.csv"))
    r = pos[(pos["policy"] == "heuristic") & (pos["round"] == 1) & (pos["position"] == "left")].iloc[0]
    assert r["n"] == len(g) == 3000
    assert r["gain"] == pytest.approx(g.mean(), abs=1e-12)
    assert r["right"] == pytest.approx((g > 0).mean(), abs=1e-12)


@pytest.mark.slow
def test_loner_files(loner):
    for f in ("README.md", "meta.json", "loner_by_class.csv", "loner_by_round.csv", "loner_count_eval.csv",
              "heatmap_maker.png", "threshold_maker.png", "bars_round.png"):
        assert os.path.exists(os.path.join(loner, f)), f
    readme = open(os.path.join(loner, "README.md")).read()
    assert "defend_alone" in readme                     # the default rules lack it: the report says so
    t = pd.read_csv(os.path.join(loner, "loner_by_round.csv"))
    assert set(t["who"]) == {"maker", "defender"}
    r = t[(t["policy"] == "heuristic") & (t["who"] == "maker") & (t["round"] == 1)].iloc[0]
    assert fmt_gain(r, "heuristic") in readme
    sp = pd.read_csv(os.path.join(loner, "loner_count_refits.csv"))
    r = sp[(sp["what"] == "agree") & (sp["name"] == "fitted count")].iloc[0]
    g = sp[(sp["what"] == "given_up") & (sp["name"] == "fitted count")].iloc[0]
    assert r["refits"] == 5 and (f"- fitted count: gives up {g['mean']:.3f} points a hand held out "
                                 f"({g['min']:.3f} to {g['max']:.3f}, SD {g['sd']:.3f}); agrees {r['mean']:.2%}") in readme
    # the fitted count judged first in points: the share of the bot's own gain it keeps, and its thresholds
    # beside the range their refits gave
    ev = pd.read_csv(os.path.join(loner, "loner_count_eval.csv"))
    e = ev[(ev["rule"] == "fitted count") & (ev["policy"] == "heuristic")].iloc[0]
    assert f"keeps {e['recovered']:.0%} ({e['recovered_low']:.0%}-{e['recovered_high']:.0%}) of heuristic's own" in readme
    thr = pd.read_csv(os.path.join(loner, "loner_count_thresholds.csv"))
    assert {"refits_min", "refits_max", "within"} <= set(thr.columns)
    assert ("Each round's threshold lies within" in readme) == bool(thr["within"].all())
    # where going alone pays per seat, round and class, and the policy's share of loners in those cells
    fit = pd.read_csv(os.path.join(loner, "loner_fit_by_seat.csv"))
    assert "heuristic" in set(fit["policy"]) and "dd" not in set(fit["policy"]) and (fit["n"] >= 30).all()  # a cheat out
    g = fit[fit["policy"] == "heuristic"]
    costs = g[g["verdict"] == "costs"]
    share = (costs["n"] * costs["alone_rate"]).sum() / costs["n"].sum()
    assert f"on {share:.1%} of those in the {len(costs)} where it costs." in readme
    # each chart's caption in the README counts the hands behind that chart, not every deal of the report
    caps = re.findall(r"!\[(\w+)\]\(\w+\.png\)\n\n\*[^*]* · ([\d,]+) hands", readme)
    df_n = {name: int(n.replace(",", "")) for name, n in caps}
    assert df_n["bars_round"] > df_n["heatmap_maker"] > df_n["heatmap_defender"]
    # the decision table on one page: a panel per who and round, linked from the table
    meta = json.load(open(os.path.join(loner, "meta.json")))
    assert "decision_card.png" in meta["charts"] and "one page to keep: [decision_card.png]" in readme
    for png in meta["charts"]:
        assert f"({png})" in readme


@pytest.mark.slow
def test_resume_after_deleting_chunks_gives_identical_tables(loner):
    before = {f: open(os.path.join(loner, f)).read() for f in os.listdir(loner) if f.endswith(".csv")}
    removed = 0
    for root, _, files in os.walk(os.path.join(loner, "_work")):
        for f in sorted(files):
            if f.startswith("chunk-") and f.endswith("1.bin"):       # a chunk's arrays in its run folder
                os.remove(os.path.join(root, f))
                removed += 1
    assert removed
    run(["report", "loner", *ARGS, "--out", loner, "--resume"])
    after = {f: open(os.path.join(loner, f)).read() for f in before}
    assert after == before


def test_fit_count_recovers_a_linear_count_and_the_best_threshold():
    """Gains exactly linear in the classes: the count is those weights scaled so the right bower is 4."""
    from euchresim.analysis.call_stats import count_points, fit_count
    rng = np.random.default_rng(3)
    n = 400
    df = pd.DataFrame({"right": rng.integers(0, 2, n), "left": rng.integers(0, 2, n),
                       "trump_low": rng.integers(0, 4, n), "pos": rng.integers(0, 2, n)})
    df["gain"] = 0.8 * df["right"] + 0.4 * df["left"] + 0.2 * df["trump_low"] - 0.5 - 0.3 * df["pos"]
    fit = fit_count(df, classes=("right", "left", "trump_low"))
    assert fit["points"] == {"right": 4, "left": 2, "trump_low": 1}
    assert fit["weights"]["right"] == pytest.approx(0.8, abs=1e-9)
    score = count_points(df, fit["points"])
    for g, t in fit["thresholds"].items():          # no other whole threshold gives the group more net points
        sel = (df["pos"] == g).to_numpy()
        best = max(df["gain"][sel][score[sel] >= c].sum() for c in range(0, int(score.max()) + 2))
        assert df["gain"][sel][score[sel] >= t].sum() == pytest.approx(best, abs=1e-9)


def test_evaluate_against_the_deals_by_hand():
    from euchresim.analysis.call_stats import evaluate
    from euchresim.stats import mean_interval, wilson
    gain = np.array([1.0, -2.0, 0.0, 3.0, -1.0])
    call = np.array([True, True, False, False, False])
    e = evaluate(gain, call)
    # right: called and gain >= 0 (deal 0), passed and gain <= 0 (deals 2 and 4); given up: 2 on deal 1, 3 on deal 3
    assert (e["deals"], e["calls"], e["agree"]) == (5, 2, 3 / 5)
    assert (e["agree_low"], e["agree_high"]) == wilson(3, 5)
    assert e["given_up"] == pytest.approx(1.0) and e["given_up_low"] == mean_interval([0, 2, 0, 3, 0])["low"]


def test_win_probability_check_against_games_by_hand():
    from euchresim.analysis.winprob import against_games, first_dealer_at_zero
    from euchresim.stats import Z95
    chk = against_games(pd.DataFrame({"games": [400, 400], "wins": [230, 210], "p_dp": [0.5, 0.5],
                                      "dp_se": [0.01, 0.01]}))
    for r, wins in zip(chk.itertuples(), (230, 210)):
        p = wins / 400
        gse = np.sqrt(p * (1 - p) / 400)
        assert r.p_games == p and r.games_low == pytest.approx(p - Z95 * gse, abs=1e-15)
        assert r.z == pytest.approx((p - 0.5) / np.sqrt(gse ** 2 + 0.01 ** 2), rel=1e-12)
    assert list(chk["agree"]) == [False, True]      # z 2.81 and 0.93
    V = np.zeros((1, 1, 4, 2))                      # scores 0-0, dealer 0..3, party 0..1
    se = np.zeros((1, 1, 4, 2))
    for d in range(4):
        V[0, 0, d, d % 2], se[0, 0, d, d % 2] = 0.5 + 0.01 * d, 0.01 * (d + 1)
    p, e = first_dealer_at_zero(V, se, 4)
    assert p == pytest.approx(0.515) and e == pytest.approx(np.sqrt((1 + 4 + 9 + 16) / 4) * 0.01)


def test_the_report_layer_computes_no_statistic_itself():
    """report/ assembles: a fit, a spread or an error is computed in analysis/ (or stats.py), never here."""
    import glob
    import re
    import euchresim.report
    formula = re.compile(r"lstsq|np\.linalg|\.std\(|\.var\(|ddof|sqrt\(")
    folder = os.path.dirname(euchresim.report.__file__)
    found = [f"{os.path.basename(p)}:{i}: {line.strip()}" for p in sorted(glob.glob(os.path.join(folder, "*.py")))
             for i, line in enumerate(open(p), 1) if formula.search(line)]
    assert not found, found


def test_a_gain_on_fewer_than_30_hands_is_printed_without_an_interval():
    from euchresim.report.paired_chunks import fmt_gain
    assert fmt_gain({"gain": 1.333, "ci_low": 0.02, "ci_high": 2.64, "n": 3}, "heuristic") == \
        "+1.33 points a hand (3 hands, too few for an interval, heuristic)"
    assert fmt_gain({"gain": 0.4, "ci_low": 0.3, "ci_high": 0.5, "n": 30}, "best") == \
        "+0.40 points a hand (±0.10, 30 hands, best)"


def test_what_played_is_named_in_full_beside_the_name_given():
    from euchresim.report import ReportError
    from tests.helpers import report_context
    ctx = report_context(policies=("best", "heuristic", "heuristic:human"))
    assert ctx.canonical("best") == "pimc:bid_worlds=100:max_worlds=200"
    assert ctx.played("best") == "best = pimc:bid_worlds=100:max_worlds=200"
    assert ctx.played("heuristic") == "heuristic"
    assert ctx.played("heuristic:human").startswith("heuristic:human = heuristic:order_1=")
    assert ctx.caption("best", 10).startswith("policy best = pimc:bid_worlds=100:max_worlds=200 · 10 hands")
    assert ctx.canonical("best, heuristic") == "pimc:bid_worlds=100:max_worlds=200,heuristic"
    with pytest.raises(ReportError, match="nonesuch: not one of this report's play models"):
        ctx.canonical("nonesuch")                     # a caption names only what was read
    from euchresim.policies import PolicyError, canonical as written_out, seats
    assert written_out("best, heuristic") == "pimc:bid_worlds=100:max_worlds=200,heuristic"
    assert written_out(seats(["best"], 2)) == "pimc:bid_worlds=100:max_worlds=200,pimc:bid_worlds=100:max_worlds=200"
    with pytest.raises(PolicyError):
        written_out("nonesuch")
