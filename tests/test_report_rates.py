"""The euchre-rates and decks reports (the decks report with one play model and with several side by side) and
the deal-odds appendix, on small runs with fixed seeds."""
import json
import os
import re
import shutil

import pandas as pd
import pytest

from euchresim.analysis import summary_frame
from euchresim.analysis.odds import distribution
from euchresim.report import write_section
from euchresim.report import euchre_rates
from euchresim.report.appendix import appendix, deal_rows
from euchresim.report.decks import PACKS, PLAYERS, variant_rules
from euchresim.report.decks_models import HEADLINE
from euchresim.rules import Rules
from euchresim.run import runner
from tests.helpers import report_context, run_spec, report

VARIANTS = {(p, d) for p in PLAYERS for d in PACKS}


def _check_folder(out, kind, hands):
    meta = json.loads((out / "meta.json").read_text())
    for key in ("command", "seed", "hands", "policies", "euchresim", "engine_version", "run_seconds"):
        assert key in meta
    assert meta["report"] == kind and meta["seed"] == 7 and meta["hands"] == hands
    assert meta["policies"] == ["heuristic"]
    assert meta["tables"] and meta["charts"]
    readme = (out / "README.md").read_text()
    for f in meta["tables"] + meta["charts"]:
        assert (out / f).is_file() and (out / f).stat().st_size > 0, f
    for f in meta["charts"]:
        assert f"]({f})" in readme, f              # every chart is embedded
        assert (out / f).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for f in meta["tables"]:
        assert f"`{f}`" in readme, f
    assert "| --- |" not in readme and "|---|" in readme     # tables filled
    assert "policy heuristic" in readme and "seed 7" in readme
    return meta, readme


def _pct(text):
    return float(text.rstrip("%"))


@pytest.fixture(scope="module")
def rates(tmp_path_factory):
    out = tmp_path_factory.mktemp("r") / "rates"
    report("euchre-rates", out, 4000)
    return out


@pytest.mark.slow
def test_euchre_rates_folder_and_numbers(rates):
    meta, readme = _check_folder(rates, "euchre-rates", 4000)
    assert {"summary.csv", "by_position_round.csv", "by_trumps.csv", "lone_by_position.csv",
            "appendix_deal_odds.csv"} <= set(meta["tables"])
    s = pd.read_csv(rates / "summary.csv").set_index("statistic")
    m = re.search(r"euchred in ([\d.]+)% \(([\d.]+)–([\d.]+)%\) and marched .*? in ([\d.]+)%", readme)
    assert m, readme[:2000]
    e = s.loc["makers euchred"]
    assert [_pct(m.group(i)) for i in (1, 2, 3)] == [round(100 * e[c], 1) for c in ("value", "ci_low", "ci_high")]
    assert _pct(m.group(4)) == round(100 * s.loc["march", "value"], 1)
    m = re.search(r"lone makers marched in ([\d.]+)%", readme)
    assert _pct(m.group(1)) == round(100 * s.loc["lone maker marched", "value"], 1)
    m = re.search(r"edge of the dealer's side is ([+-][\d.]+)", readme)
    assert float(m.group(1)) == round(s.loc["edge of the dealer's side, points per hand", "value"], 3)
    # the tables agree with each other and with the summary
    t = pd.read_csv(rates / "by_trumps.csv")
    assert t["made"].sum() == s.loc["trump made", "count"]
    assert t["euchred"].sum() == s.loc["makers euchred", "count"]
    for r in t[t["made"] >= 30].itertuples():
        word = "trump" if r.maker_trumps == 1 else "trumps"
        assert f"- {r.maker_trumps} {word} ({r.made:,} hands): euchred {100 * r.euchred_rate:.1f}%" in readme
    pr = pd.read_csv(rates / "by_position_round.csv")
    assert pr["march"].sum() == s.loc["march", "count"]
    lone = pd.read_csv(rates / "lone_by_position.csv")
    assert lone["made"].sum() == s.loc["maker alone", "count"]
    # a rate pooled over seats stands beside the test of whether the seats share it (issue 36)
    from euchresim.analysis.targeted_stats import chi_words, rates_agree
    big = pr[pr["made"] >= 30]
    for rnd, g in big.groupby("make_round"):                 # the seats within each round
        if len(g) >= 2:
            test = rates_agree(g["euchred"], g["made"])
            if not test.get("small"):
                assert f"The euchre rate by seat in round {rnd}: the test finds " \
                       f"{'no difference between the seats' if test['agree'] else 'the seats differ'} " \
                       f"({chi_words(test)})" in readme


def test_appendix_exact_and_simulated(rates):
    odds = pd.read_csv(rates / "appendix_deal_odds.csv")
    for what, df in odds.groupby("what"):
        exact = distribution(24, what)
        assert list(df["k"]) == list(exact["k"])
        assert df["exact"].tolist() == pytest.approx(exact["prob"].tolist(), abs=1e-15)
        assert df["exact_fraction"].tolist() == [str(f) for f in exact["exact"]]
        assert (df["ci_low"] <= df["simulated"]).all() and (df["simulated"] <= df["ci_high"]).all()
        assert df["count"].sum() == df["of"].iloc[0] > 3000       # joker upcards (none here) left out
    assert odds["inside"].mean() > 0.7                            # exact odds mostly inside the intervals
    summ = pd.read_csv(rates / "appendix_summary.csv").set_index("statistic")
    readme = (rates / "README.md").read_text()
    assert f"holds {summ.loc['mean trumps', 'exact']:.3f} trumps on average (exactly 30/23)" in readme


def test_appendix_without_rows_and_several_packs(tmp_path):
    ctx = report_context(kind="x", out=str(tmp_path), hands=2000, seed=1, rules=Rules(deck=33), chunk_size=1000)
    md, tables = appendix(ctx, None, decks=(24, 33))
    full = tables["appendix_deal_odds"]
    assert set(full["deck"]) == {24, 33} and "simulated" not in full.columns
    assert set(full[full["deck"] == 33]["what"]) == {"trumps", "bowers", "voids", "joker"}
    rows = deal_rows(ctx)
    assert len(rows) == 2000
    md, tables = appendix(ctx, rows)
    t = tables["appendix_deal_odds"]
    tr = t[t["what"] == "trumps"]
    assert tr["exact"].tolist() == pytest.approx(distribution(33, "trumps")["prob"].tolist())
    assert tr["of"].iloc[0] < 2000                  # joker upcards are left out
    assert "simulated" in md


def test_the_appendix_checks_deals_of_its_own_seed_not_the_reports(tmp_path):
    """Its deals are those of appendix_seed(seed), none of them the report's own (same seed, same chunking)."""
    import numpy as np
    from euchresim.report.appendix import appendix_seed
    from euchresim.run import runner
    assert appendix_seed(7) == int(np.random.SeedSequence([7, 0xA99E]).generate_state(1)[0])
    assert len({appendix_seed(s) for s in range(50)} | set(range(50))) == 100
    ctx = report_context(kind="x", out=str(tmp_path), hands=2000, seed=7, rules=Rules(), chunk_size=1000)
    rows = deal_rows(ctx)
    spec = run_spec(rules=Rules(), policies=("random",), seed=7, count=2000, chunk_size=1000)
    own = np.concatenate([runner.play_chunk(spec, i, keep_rows=True).hands["hand0"] for i in range(2)])
    twin = run_spec(rules=Rules(), policies=("random",), seed=appendix_seed(7), count=2000, chunk_size=1000)
    theirs = np.concatenate([runner.play_chunk(twin, i, keep_rows=True).hands["hand0"] for i in range(2)])
    assert np.array_equal(rows["hand0"].to_numpy(), theirs.astype(np.int64))
    assert (rows["hand0"].to_numpy() != own.astype(np.int64)).mean() > 0.99
    md, _ = appendix(ctx, rows)
    assert f"its own seed {appendix_seed(7)} (derived from the report's seed 7" in md


@pytest.mark.slow
def test_decks_report(tmp_path):
    out = report("decks", tmp_path / "decks", 2000)
    meta, readme = _check_folder(out, "decks", 2000)
    s = pd.read_csv(out / "decks_summary.csv")
    assert set(zip(s["players"], s["deck"])) == {(p, d) for p in (2, 3, 4) for d in (24, 25, 32, 33)}
    r1 = s[s["statistic"] == "made in round one"].set_index(["players", "deck"])["value"]
    line = re.search(r"- 4 players: 24 cards ([\d.]+)%.*?; 25 cards ([\d.]+)%", readme.split(
        "**Trump made in round one")[1]).groups()
    assert [_pct(x) for x in line] == [round(100 * r1[(4, 24)], 1), round(100 * r1[(4, 25)], 1)]
    hpg = s[s["statistic"] == "hands per game"]
    assert (hpg["of"] == 200).all() and (hpg["value"] > 3).all()
    assert "decks_order_up_gain_4p.png" in meta["charts"]
    assert "decks_models.csv" not in meta["tables"] and "under each model" not in readme
    assert [x for x in readme.splitlines() if x.startswith("## ")][0] == "## Findings (heuristic, 2,000 hands per variant)"
    by = pd.read_csv(out / "decks_order_up_by_trumps.csv")
    assert (by.groupby(["players", "deck"])["deals"].sum() <= 2000).all()
    th = pd.read_csv(out / "decks_order_up_threshold.csv")
    assert len(th) == 12
    app = pd.read_csv(out / "appendix_deal_odds.csv")
    assert set(app["deck"]) == {24, 25, 32, 33} and app["simulated"].notna().all()
    rep = pd.read_csv(out / "decks_replicate.csv")                  # every headline rate measured again
    assert len(rep) == len(HEADLINE) * 12 - 4 and rep["again_of"].gt(0).all() and "z_again" in rep   # no 2p loners
    assert f"{int(rep['z_again'].notna().sum())} comparisons, the largest |z|" in readme


def test_a_rate_measured_again_gets_the_two_proportion_z_and_holm_marks_the_one_beyond_chance():
    """Known values: 300 of 1,000 against 260 of 1,000, pooled 0.28, z = 0.04 / sqrt(0.28 * 0.72 * 0.002) = 1.992;
    alone it is beyond chance at 5% (p 0.046), beside a second test Holm asks p <= 0.025 of the smallest; a rate
    with no hands or pooled at 0 has no z and is not counted."""
    import math
    from euchresim.analysis.targeted_stats import rate_replication
    head = pd.DataFrame({"statistic": ["a", "b", "c", "d"], "count": [300, 50, 0, 0], "of": [1000, 1000, 0, 1000],
                         "value": [0.3, 0.05, math.nan, 0.0]})
    again = pd.DataFrame({"statistic": ["a", "b", "c", "d"], "count": [260, 52, 0, 0], "of": [1000, 1000, 0, 1000],
                          "value": [0.26, 0.052, math.nan, 0.0]})
    out = rate_replication(head, again, ["statistic"])
    assert abs(out["z_again"][0] - 0.04 / math.sqrt(0.28 * 0.72 * 0.002)) < 1e-12
    assert out["z_again"][2:].isna().all() and out.attrs["tests"] == 2
    assert not out["beyond_chance"].any()                 # two tests: p 0.046 > 0.05 / 2, Holm's first step
    one = rate_replication(head.drop(1), again.drop(1), ["statistic"])
    assert one.attrs["tests"] == 1 and list(one["beyond_chance"]) == [True, False, False]   # p 0.046 <= 0.05


def test_a_rate_its_measure_again_does_not_reproduce_stops_the_report_in_one_line():
    from euchresim.report import ReportError
    from euchresim.report.replicate import again_seed, rates_again
    head = pd.DataFrame({"statistic": ["makers euchred"], "count": [1500], "of": [10000], "value": [0.15]})
    again = head.assign(count=[1700], value=[0.17])
    with pytest.raises(ReportError) as e:
        rates_again("out", head, again, ["statistic"])
    assert "\n" not in str(e.value) and "makers euchred: 15.0%, again 17.0% (z -3.9)" in str(e.value)
    with pytest.raises(ReportError, match="hold a rate twice .makers euchred.: is a model given twice"):
        rates_again("out", pd.concat([head, head]), pd.concat([again, again]), ["statistic"])
    with pytest.raises(ReportError, match="a rate with no measure again .march."):
        rates_again("out", pd.concat([head, head.assign(statistic="march")]), again, ["statistic"])
    same = rates_again("out", head, head, ["statistic"])
    assert same["z_again"][0] == 0 and "beyond_chance" not in same
    assert again_seed(1) != 1 and again_seed(1) == again_seed(1) and again_seed(1) != again_seed(2)


@pytest.mark.slow
def test_every_summary_rate_and_decks_headline_rate_is_measured_again(rates, tmp_path):
    """The rates reports measure their quoted rates again on hands of their own: the table has both and the z,
    the measure again is a direct run from the derived seed, and the README's paragraph names the largest z."""
    from euchresim.report.replicate import again_seed
    rep = pd.read_csv(rates / "replicate.csv")
    s = pd.read_csv(rates / "summary.csv")
    assert set(rep["statistic"]) == set(s[(s["kind"] == "rate") & (s["of"] > 0)]["statistic"])
    import dataclasses
    ctx = report_context(kind="euchre-rates", out=str(tmp_path), hands=4000, seed=7, rules=Rules())
    spec = euchre_rates.run_spec(ctx, Rules(), "heuristic", 4000)          # the report's run and chunking
    c = runner.run(dataclasses.replace(spec, seed=again_seed(7)), workers=1)
    direct = summary_frame(c, 4).set_index("statistic")
    r = rep.set_index("statistic").loc["makers euchred"]
    assert (r["again_count"], r["again_of"]) == (direct.loc["makers euchred", "count"], direct.loc["makers euchred", "of"])
    z = rep["z_again"].abs()
    readme = (rates / "README.md").read_text()
    assert f"{int(z.notna().sum())} comparisons, the largest |z| {z.max():.1f}" in readme


@pytest.mark.slow
def test_resume_gives_identical_tables(tmp_path, monkeypatch):
    def ctx(out, resume=False):
        return report_context(kind="euchre-rates", out=str(out), hands=4000, seed=3, rules=Rules(players=3),
                             chunk_size=1000, resume=resume, command="test")
    whole = tmp_path / "whole"
    os.makedirs(whole)
    write_section(ctx(whole), euchre_rates.build(ctx(whole)), 0.0)

    real, calls = euchre_rates._tally_job, []

    def stops(*args):
        calls.append(args[-1])
        if len(calls) > 2:
            raise KeyboardInterrupt
        return real(*args)

    part = tmp_path / "part"
    os.makedirs(part)
    monkeypatch.setattr(euchre_rates, "_tally_job", stops)
    with pytest.raises(KeyboardInterrupt):
        euchre_rates.build(ctx(part))
    monkeypatch.setattr(euchre_rates, "_tally_job", real)
    kept = [f for d, _, fs in os.walk(part / "_work") for f in fs if f.startswith("chunk-")]
    assert len(kept) == 2

    played = []
    monkeypatch.setattr(euchre_rates, "_tally_job", lambda *a: played.append(a[-1]) or real(*a))
    write_section(ctx(part, resume=True), euchre_rates.build(ctx(part, resume=True)), 0.0)
    assert sorted(played) == [0, 1, 2, 2, 3, 3]     # only the missing chunks: 2 and 3, and the measure again's four
    names = sorted(f for f in os.listdir(whole) if f.endswith(".csv"))
    assert names == sorted(f for f in os.listdir(part) if f.endswith(".csv"))
    for f in names:
        assert (whole / f).read_bytes() == (part / f).read_bytes(), f


@pytest.mark.slow
def test_a_resumed_report_states_the_time_of_every_sitting(tmp_path, monkeypatch):
    """A report remade over several sittings (stopped, resumed the next day) says what all of them took, not
    only the last: each finished chunk brings its sitting's time up to date, so a kill loses at most one chunk's."""
    import time as time_mod
    from euchresim import report as R
    clock = [1000.0]
    monkeypatch.setattr(time_mod, "time", lambda: clock[0])

    def ctx(resume):
        return report_context(kind="euchre-rates", out=str(tmp_path), hands=4000, seed=3, rules=Rules(players=3),
                             chunk_size=1000, resume=resume, command="test")
    monkeypatch.setattr(R, "machine", lambda c: "2 cores (AMD EPYC)")
    R.claim(ctx(False))
    clock[0] += 30.0
    R.sitting_seconds(ctx(False))       # a finished chunk; then the process is killed
    clock[0] += 5000.0                  # a night between the sittings, not counted
    monkeypatch.setattr(R, "machine", lambda c: "2 cores (Intel Xeon)")    # resumed on another machine
    R.claim(ctx(True))
    clock[0] += 12.5
    meta = write_section(ctx(True), euchre_rates.build(ctx(True)), 0.0)
    assert (meta["run_seconds"], meta["sittings"]) == (42.5, 2)
    assert "42.5 s over 2 sittings, resumed from the kept work" in (tmp_path / "README.md").read_text()
    assert meta["sitting_machines"] == ["2 cores (AMD EPYC)", "2 cores (Intel Xeon)"]
    assert R.machines_words(meta) == "2 cores (AMD EPYC) — then 2 cores (Intel Xeon)"
    assert R.machines_words({"machine": "M"}) == "M"          # one sitting: its machine
    sittings = json.loads((tmp_path / "_work" / "sittings.json").read_text())
    del sittings["sittings"][0]["machine"]                   # kept before machines were recorded
    (tmp_path / "_work" / "sittings.json").write_text(json.dumps(sittings))
    assert R.sitting_machines(ctx(True)) == ["a machine not recorded", "2 cores (Intel Xeon)"]
    R.claim(ctx(False))                 # --force and the like: afresh, one sitting
    clock[0] += 3.0
    assert R.sitting_seconds(ctx(False)) == (3.0, 1)


# ---------------------------------------------------------------- the decks report with several play models

def test_precision_line_names_the_widest_interval_of_each_model():
    """The half-width printed is the widest Wilson half-width among a model's rates, found where it is."""
    from euchresim.report.decks_models import precision_lines
    from euchresim.stats import wilson
    rows = []
    for players, k, n in ((3, 1050, 3000), (4, 600, 3000), (2, 100, 4000)):     # 35% of 3,000 is the widest
        lo, hi = wilson(k, n)
        rows.append({"policy": "best", "players": players, "deck": 24, "statistic": "euchred", "count": k,
                     "of": n, "value": k / n, "ci_low": lo, "ci_high": hi})
    rows.append({"policy": "heuristic", "players": 4, "deck": 24, "statistic": "march", "count": 0, "of": 0,
                 "value": float("nan"), "ci_low": float("nan"), "ci_high": float("nan")})
    lines = precision_lines(pd.DataFrame(rows), ["best", "heuristic"])
    lo, hi = wilson(1050, 3000)
    assert lines == [f"best: every headline rate within ±{100 * (hi - lo) / 2:.1f} points (95%); the widest, "
                     "euchred at 3 players, 24 cards (1,050 of 3,000)"]
    assert f"{100 * (hi - lo) / 2:.1f}" == "1.7"        # 1.96 * sqrt(.35 * .65 / 3000) = 0.0171

def test_soundness_lines_quote_each_variant_played_and_count_the_gains_above_zero():
    """A model's calls in each variant it played, as docs/policies.md measured them: the count of intervals above
    0 is of the variants measured (a gain whose interval reaches below 0, minus sign or not, is not counted), a
    variant played but not measured is said, a model without measurements gets no lines."""
    from euchresim.report.decks_models import soundness_text
    table = pd.DataFrame({"policy": ["best"] * 3 + ["heuristic"], "players": [4, 3, 2, 4], "deck": [24, 25, 33, 24]})
    cmd = "euchresim duel x y --games 1000"
    calls = {"best": {(4, 24): {"games": 1000, "gain": "+0.061", "interval": "+0.044 – +0.078", "won": "54.3%",
                                "won_interval": "52.1% – 56.5%", "command": cmd},
                      (3, 25): {"games": 12000, "gain": "+0.013", "interval": "−0.003 – +0.029", "won": None,
                                "won_interval": None, "command": cmd},
                      (4, 32): {"games": 1000, "gain": "+0.9", "interval": "+0.8 – +1.0", "won": None,
                                "won_interval": None, "command": cmd}}}
    text = soundness_text(table, ["best", "heuristic"], calls)
    assert "above 0 in 1 of the 2 variants measured (of 3 played here):" in text[1]
    assert text[3:] == ["- 4 players, 24 cards: +0.061 a hand (+0.044 – +0.078), games won 54.3% (52.1% – 56.5%), "
                        f"1,000 games: `{cmd}`",
                        f"- 3 players, 25 cards: +0.013 a hand (−0.003 – +0.029), 12,000 games: `{cmd}`"]
    assert not any(t.startswith("How soundly heuristic") for t in text) and soundness_text(table, ["heuristic"], calls) == []


def test_a_soundness_line_gives_the_variants_smaller_duels_and_whether_each_clears_zero():
    """The largest duel is quoted first; the smaller ones follow with their own intervals, and the line says how
    many clear 0 alone (Cutthroat with the joker: 12,000 games show a gain the 1,000 and 3,000 did not)."""
    from euchresim.report.decks_models import soundness_text
    table = pd.DataFrame({"policy": ["best"], "players": [3], "deck": [25]})
    small = lambda g, iv, n: {"games": n, "gain": g, "interval": iv, "won": None, "won_interval": None,  # noqa: E731
                              "command": f"duel --games {n}"}
    big = {**small("+0.030", "+0.022 – +0.037", 12000),
           "others": [small("+0.013", "−0.003 – +0.029", 3000), small("+0.024", "−0.003 – +0.051", 1000)]}
    line = soundness_text(table, ["best"], {"best": {(3, 25): big}})[-1]
    assert line == ("- 3 players, 25 cards: +0.030 a hand (+0.022 – +0.037), 12,000 games: `duel --games 12000`; "
                    "smaller duels gave +0.013 (−0.003 – +0.029) over 3,000 games: `duel --games 3000`, +0.024 "
                    "(−0.003 – +0.051) over 1,000 games: `duel --games 1000` (none above 0 alone)")
    one = {**big, "others": [small("+0.040", "+0.010 – +0.070", 1000)]}
    assert soundness_text(table, ["best"], {"best": {(3, 25): one}})[-1].endswith(
        "; a smaller duel gave +0.040 (+0.010 – +0.070) over 1,000 games: `duel --games 1000` (above 0 alone)")


@pytest.mark.slow
def test_two_models_every_variant_as_a_direct_run_and_resumable(tmp_path):
    out = report("decks", tmp_path / "d", 1000, "--policy", "heuristic", "--policy", "baseline", "--model-hands", "1000")
    t = pd.read_csv(out / "decks_models.csv")
    for pol in ("heuristic", "baseline"):
        mine = t[t["policy"] == pol]
        assert set(zip(mine["players"], mine["deck"], mine["statistic"])) == {     # nobody goes alone with 2 (R8)
            (p, d, s) for p, d in VARIANTS for s in HEADLINE if not (p == 2 and s == "maker alone")}
    assert (t["hands"] == 1000).all()
    # the main model's rows are the summary's
    s = pd.read_csv(out / "decks_summary.csv").set_index(["players", "deck", "statistic"])
    h = t[t["policy"] == "heuristic"].set_index(["players", "deck", "statistic"])
    for key in ("made in round one", "made in round two", "makers took 3+", "march"):
        for p, d in VARIANTS:
            if (p, d, key) in s.index:
                assert int(h.loc[(p, d, key), "count"]) == int(s.loc[(p, d, key), "count"]), (p, d, key)
    # the second model's rows are those of a direct run of it: the same seed, the same chunking
    b = t[t["policy"] == "baseline"].set_index(["players", "deck", "statistic"])
    for p, d in sorted(VARIANTS):
        spec = run_spec(rules=variant_rules(Rules(), p, d), policies=("baseline",), seed=7, count=1000,
                              chunk_size=1000)
        c = runner.run(spec, workers=1)
        f = summary_frame(c, p).set_index("statistic")
        r1 = sum(c.get(f"made_r1_pos{k}", 0) for k in range(p))
        assert int(b.loc[(p, d, "made in round one"), "count"]) == r1
        for stat, row in (("made in round two", "made round 2"), ("makers took 3+", "makers took 3+ tricks"),
                          ("euchred", "makers euchred"), ("march", "march")):
            assert int(b.loc[(p, d, stat), "count"]) == int(f.loc[row, "count"]), (p, d, stat)
            assert int(b.loc[(p, d, stat), "of"]) == int(f.loc[row, "of"]), (p, d, stat)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["policies"] == ["heuristic", "baseline"] and meta["model_hands"] == [1000]
    assert "decks_models.csv" in meta["tables"]
    assert {f"decks_models_{n}.png" for n in ("euchred", "march", "makers_took_3")} <= set(meta["charts"])
    readme = (out / "README.md").read_text()
    assert "1,000 hands for heuristic, 1,000 for baseline" in readme
    # the findings are every model's headline rates, the main model's finer statistics after them
    heads = [x for x in readme.splitlines() if x.startswith("## ")]
    assert heads[:2] == ["## Findings: the headline rates under each model",
                         "## More of the game under heuristic (1,000 hands per variant)"]
    # heuristic makes trump in round one at 3 players far more often than baseline (R: it orders on fewer trumps)
    line = [x for x in readme.splitlines() if x.startswith("- 3 players, 24 cards: heuristic")][0]
    assert ("— differ" in line) == (h.loc[(3, 24, "made in round one"), "ci_low"]
                                    > b.loc[(3, 24, "made in round one"), "ci_high"]
                                    or b.loc[(3, 24, "made in round one"), "ci_low"]
                                    > h.loc[(3, 24, "made in round one"), "ci_high"])
    # lose the second model's work, resume: the same tables
    before = {f: (out / f).read_bytes() for f in meta["tables"]}
    lost = 0
    for d in (out / "_work").glob("decks-hands-*"):
        m = json.loads((d / "_manifest.json").read_text())["report_work"]
        if m["policies"][0] == "baseline":
            shutil.rmtree(d)
            lost += 1
    assert lost == 24                               # its twelve runs and their twelve measures again
    report("decks", out, 1000, "--policy", "heuristic", "--policy", "baseline", "--model-hands", "1000", "--resume")
    assert {f: (out / f).read_bytes() for f in meta["tables"]} == before


@pytest.mark.slow
def test_a_search_bot_plays_every_variant(tmp_path):
    """pimc (the base of `best`) plays 2 and 3 players, 32 and 33 cards and the joker, in chunks of 250 hands."""
    out = report("decks", tmp_path / "p", 1000, "--policy", "heuristic", "--policy", "pimc:worlds=2", "--model-hands", "300")
    t = pd.read_csv(out / "decks_models.csv")
    mine = t[t["policy"] == "pimc:worlds=2"]
    assert set(zip(mine["players"], mine["deck"])) == VARIANTS
    assert (mine["hands"] == 300).all()
    kept = [json.loads((d / "_manifest.json").read_text()) for d in (out / "_work").glob("decks-hands-*")]
    searched = [m for m in kept if m["report_work"]["policies"][0] == "pimc:worlds=2"]
    assert len(searched) == 24                      # twelve runs and their twelve measures again
    assert all(m["report_work"]["chunk_size"] == 250 and len(m["chunks"]) == 2 for m in searched)
    assert all(m["report_work"]["chunk_size"] == 1000 for m in kept if m not in searched)
    assert "refused" not in (out / "README.md").read_text()


@pytest.mark.slow
def test_every_decks_caption_names_what_played_written_out(tmp_path):
    """A preset or best is named in full beside its name on every chart (issue 36: captions said `best`
    where `pimc:bid_worlds=100` played)."""
    from euchresim.policies import canonical
    out = report("decks", tmp_path / "h", 1000, "--policy", "heuristic", "--policy", "heuristic:human",
                 "--model-hands", "1000")
    readme = (out / "README.md").read_text()
    captions = [line for line in readme.splitlines() if line.startswith("*") and "policy " in line]
    models = [c for c in captions if "heuristic:human" in c]
    assert models and all(f"policy heuristic:human = {canonical('heuristic:human')}, 1,000 hands" in c
                          for c in models)


def test_the_seats_rates_test_is_pearsons_chi_square_and_a_near_certain_rate_is_not_printed_certain():
    """Known values: 10 of 100 against 20 of 100 pool to 0.15, expected 15, 15, 85, 85, chi-square
    25/15 * 2 + 25/85 * 2 = 3.9216 on one degree of freedom, tail erfc(sqrt(3.9216 / 2)) = 0.0477; equal
    rates give 0. And 81,435 lone makers of 81,445 making their bid is 99.99%, not 100.0%."""
    import math
    from euchresim.analysis.targeted_stats import chi_words, rates_agree
    from euchresim.report.euchre_rates import pct
    t = rates_agree([10, 20], [100, 100])
    assert t["q"] == pytest.approx(50 / 15 + 50 / 85) and t["df"] == 1
    assert t["p"] == pytest.approx(math.erfc(math.sqrt(t["q"] / 2)), rel=1e-12) and not t["agree"]
    assert chi_words(t) == "chi-square 3.9 on 1 degree of freedom, p = 0.0477"
    assert rates_agree([1, 2], [10, 10]).get("small")          # expected counts under 5: not tested
    same = rates_agree([10, 20, 30], [100, 200, 300])
    assert same["q"] == pytest.approx(0.0) and same["p"] == pytest.approx(1.0) and same["agree"]
    assert rates_agree([5, 0], [10, 0])["q"] != rates_agree([5, 0], [10, 0])["q"]        # one seat: no test
    assert pct(81435 / 81445, 0.9997, 0.99995).startswith("99.99% (")
    assert "100.0%" not in pct(81435 / 81445, 0.9997, 0.99995)


def test_no_soundness_line_is_quoted_under_rule_options_the_docs_did_not_measure():
    """docs/policies.md's lines are for the plain rules: a decks report under other options (stick the dealer)
    quotes none, and says why, rather than quote the plain variants' duels as its own."""
    from euchresim.report.decks_models import models_text
    table = pd.DataFrame([{"players": 4, "deck": 24, "statistic": "euchred", "policy": "best", "hands": 4500,
                           "count": 800, "of": 4000, "value": 0.2, "ci_low": 0.19, "ci_high": 0.21}])
    calls = {"best": {(4, 24): {"games": 1000, "gain": "+0.061", "interval": "+0.044 – +0.078", "won": None,
                                "won_interval": None, "command": "euchresim duel a b"}}}
    plain = "\n".join(models_text(table, ["best"], [4500], [], calls))
    other = "\n".join(models_text(table, ["best"], [4500], [], calls, plain=False))
    assert "How soundly best calls" in plain and "+0.061 a hand" in plain
    assert "How soundly best calls" not in other and "+0.061" not in other
    assert "none is quoted under this report's other rule options" in other
