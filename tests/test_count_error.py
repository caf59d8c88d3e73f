"""The spread of a fitted count over refits (analysis.count_error), checked against values worked out by hand."""
import numpy as np
import pandas as pd
import pytest

from euchresim.analysis.call_stats import evaluate, fit_count
from euchresim.analysis.count_error import halves, refits, spread


def test_halves_split_every_deal_once_and_depend_on_the_seed_only():
    a = halves(101, 3)
    assert a.sum() == 50 and len(a) == 101
    assert np.array_equal(a, halves(101, 3))
    assert not np.array_equal(a, halves(101, 4))


def _linear(n=600, noise=0.0, seed=2):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"right": rng.integers(0, 2, n), "left": rng.integers(0, 2, n),
                       "trump_low": rng.integers(0, 4, n), "pos": rng.integers(0, 2, n),
                       "took": rng.integers(0, 2, n)})
    df["gain"] = (0.8 * df["right"] + 0.4 * df["left"] + 0.2 * df["trump_low"] - 0.5 - 0.3 * df["pos"]
                  + noise * rng.standard_normal(n))
    return df


def test_an_exact_linear_gain_gives_the_same_points_on_every_refit():
    df = _linear()
    long = refits(df, {"always pass": np.zeros(len(df), bool)}, seeds=range(4),
                  classes=("right", "left", "trump_low"))
    sp = spread(long).set_index(["what", "name"])
    for c, v in {"right": 4, "left": 2, "trump_low": 1}.items():
        r = sp.loc[("points", c)]
        assert (r["refits"], r["mean"], r["sd"], r["min"], r["max"]) == (4, v, 0, v, v)
    # the count is exact, so held out it is never on the wrong side of a deal with a nonzero gain
    assert sp.loc[("agree", "fitted count"), "min"] == 1.0


def test_each_refit_is_the_fit_and_the_judgement_of_its_own_halves():
    df = _linear(noise=0.5)
    took = df["took"].to_numpy(bool)
    long = refits(df, {"own": took}, seeds=[7], classes=("right", "left", "trump_low"))
    fit_rows = halves(len(df), 7)
    fit = fit_count(df[fit_rows], classes=("right", "left", "trump_low"))
    got = {(r.what, r.name): r.value for r in long.itertuples()}
    for c, v in fit["points"].items():
        assert got[("points", c)] == v
    for k, v in fit["thresholds"].items():
        assert got[("threshold", str(k))] == v
    held = df[~fit_rows]
    score = sum(held[c] * v for c, v in fit["points"].items()).to_numpy()
    call = score >= held["pos"].map(fit["thresholds"]).to_numpy()
    assert got[("agree", "fitted count")] == evaluate(held["gain"], call)["agree"]
    assert got[("agree", "own")] == evaluate(held["gain"], took[~fit_rows])["agree"]
    assert got[("given_up", "own")] == pytest.approx(evaluate(held["gain"], took[~fit_rows])["given_up"], abs=1e-15)


def test_spread_by_hand():
    long = pd.DataFrame({"refit": [0, 1, 2, 0], "what": ["agree"] * 3 + ["points"],
                         "name": ["a", "a", "a", "right"], "value": [0.80, 0.84, 0.82, 4.0]})
    sp = spread(long)
    a = sp.iloc[0]
    assert (a["what"], a["name"], a["refits"]) == ("agree", "a", 3)
    assert a["mean"] == pytest.approx(0.82) and a["sd"] == pytest.approx(0.02)      # sqrt((.02^2 + .02^2) / 2)
    assert (a["min"], a["max"]) == (0.80, 0.84)
    r = sp.iloc[1]
    assert (r["name"], r["refits"], r["sd"], r["min"], r["max"]) == ("right", 1, 0.0, 4.0, 4.0)


def test_too_few_deals_to_fit_gives_no_rows():
    df = _linear(n=30)
    assert len(refits(df, {}, classes=("right",))) == 0


def test_the_cheats_own_call_is_named_for_what_it_is_and_only_for_a_cheat():
    from euchresim.policies import seats
    from euchresim.report.paired_chunks import chose_note

    def models(names):
        return [seats([n], 4) for n in names]
    assert chose_note(["heuristic", "pimc:bid_worlds=100"], models(["heuristic", "pimc:bid_worlds=100"])) == []
    note = "".join(chose_note(["heuristic", "dd"], models(["heuristic", "dd"])))
    assert "For dd (sees every hand) `policy_chose`" in note and "as heuristic would" in note


def test_table_calls_by_hand():
    from euchresim.analysis.call_stats import table_calls
    rows = []
    for p, cells in {"heuristic": [(0.5, 0.7), (-0.4, -0.2), (-0.08, 0.08), (0.2, 0.4), (-0.3, 0.3)],
                     "dd": [(-0.6, -0.3), (-0.5, -0.1), (0.3, 0.5), (0.1, 0.3), (0.1, 0.3)],
                     "pimc": [(-0.2, -0.1), (0.1, 0.2), (0.1, 0.2), (0.1, 0.2), (0.1, 0.2)]}.items():
        for k, (lo, hi) in enumerate(cells):
            rows.append({"policy": p, "round": 1, "position": "dealer", "hand_class": f"c{k}",
                         "n": 20 if (p, k) == ("pimc", 0) else 100, "gain": (lo + hi) / 2, "ci_low": lo,
                         "ci_high": hi})
    rows.append({"policy": "heuristic", "round": 2, "position": "dealer", "hand_class": "c0", "n": 100,
                 "gain": 1.0, "ci_low": 0.9, "ci_high": 1.1})
    t = table_calls(pd.DataFrame(rows), ["heuristic", "dd", "pimc"])
    # c2: within +-0.10 of 0, a toss-up; c4: holds 0 but reaches +-0.3, not measured well enough to say
    assert list(t["call"]) == ["order", "pass", "close", "order", "too few hands"]
    # c0: dd says pass (pimc has too few hands); c1: pimc says order; c2, c4: no call, so no one differs
    assert list(t["differ"]) == ["dd", "pimc", "", "", ""] and t.attrs["tests"] == 5
    # dd sees every card: left out of the advice, it differs nowhere
    assert list(table_calls(pd.DataFrame(rows), ["heuristic", "dd", "pimc"], advisers=["pimc"])["differ"]) == \
        ["", "pimc", "", "", ""]
    few = pd.DataFrame(rows).assign(n=lambda d: np.where(d["hand_class"] == "c0", 20, d["n"]))
    assert table_calls(few, ["heuristic", "dd", "pimc"])["call"][0] == "too few hands"     # under 30 hands


def test_table_calls_correct_for_the_number_of_tests():
    """Holm over every (cell, model) test: one model a shade past 95% on the other side of the main model's call
    in one cell of 50 is chance, and is not flagged; one far past it still is."""
    from euchresim.analysis.call_stats import table_calls
    from euchresim.stats import Z95
    rows = []
    for k in range(50):
        rows.append({"policy": "main", "round": 1, "position": "dealer", "hand_class": f"c{k}", "n": 100,
                     "gain": 1.0, "ci_low": 0.8, "ci_high": 1.2})
        z = 2.1 if k == 0 else (6.0 if k == 1 else 0.0)          # the other model's z toward "pass"
        se = 0.1
        rows.append({"policy": "other", "round": 1, "position": "dealer", "hand_class": f"c{k}", "n": 100,
                     "gain": -z * se, "ci_low": -z * se - Z95 * se, "ci_high": -z * se + Z95 * se})
    t = table_calls(pd.DataFrame(rows), ["main", "other"])
    assert t.loc[0, "ci_high"] > 0 and list(t["differ"][:3]) == ["", "other", ""]
    assert t.loc[1, "differ_z"] == pytest.approx(6.0) and t.attrs["tests"] == 50


def test_holm_against_a_worked_example():
    from euchresim.stats import holm
    # m = 4, sorted: 0.005 <= 0.05/4, 0.01 <= 0.05/3, 0.03 > 0.05/2 stops (0.04 then stays too)
    assert holm([0.03, 0.01, 0.005, 0.04]) == [False, True, True, False]
    assert holm([0.03, 0.01, 0.005, 0.015]) == [True, True, True, True]     # 0.015 <= 0.05/2, 0.03 <= 0.05
    assert holm([0.03, 0.03]) == [False, False] and holm([0.02, 0.02]) == [True, True] and holm([]) == []
    assert holm([0.04], alpha=0.05) == [True]


def test_recovered_is_the_share_of_the_bots_gain_over_passing_a_rule_keeps():
    """Worked by hand: gains +1, +2, -1, -3 (calling right on the first two). Passing gives up 1+2 = 3 over
    four deals; the bot calls the first two and gives up 0; a rule calling only the first gives up 2: it keeps
    (3 - 2) / (3 - 0) = 1/3 of the bot's gain."""
    from euchresim.analysis.call_stats import recovered
    gain = [1.0, 2.0, -1.0, -3.0]
    own = [True, True, False, False]
    got = recovered(gain, [True, False, False, False], own)
    assert got["recovered"] == pytest.approx(1 / 3)
    assert got["recovered_low"] < 1 / 3 < got["recovered_high"]
    assert recovered(gain, own, own)["recovered"] == pytest.approx(1.0)
    assert recovered(gain, [False] * 4, own)["recovered"] == pytest.approx(0.0)
    assert recovered(gain, [True] * 4, own)["recovered"] == pytest.approx((3 - 4) / 3)   # calling the losers


def test_a_threshold_outside_its_refits_range_is_named():
    """The committed order-up report's table gave the partner 7 where all five refits gave 8 or 9."""
    from euchresim.report.order_up_count import _outside_refits_text, with_refit_range as _with_refit_range
    thr = pd.DataFrame({"round": [1, 1], "position": ["partner", "dealer"], "pos": [2, 0],
                        "fitted_threshold": [7, 5], "published_threshold": [7, 7]})
    sp = pd.DataFrame({"round": [1, 1], "what": ["threshold", "threshold"], "name": ["partner", "dealer"],
                       "refits": [5, 5], "mean": [8.4, 5.4], "sd": [0.5, 0.5], "min": [8.0, 5.0], "max": [9.0, 6.0]})
    out = _with_refit_range(thr, sp)
    assert list(out["within"]) == [False, True]
    text = _outside_refits_text(out)
    assert "round 1, partner: 7 (refits 8-9)" in text and "dealer" not in text
    assert "Every threshold" in _outside_refits_text(out[out["position"] == "dealer"])
