"""Issue 36, "reports a strategy guide can cite": the defects an outside audit found, each pinned by a test that
fails without its fix (the hand class of the hand the seat plays, captions that promise only what is drawn, a
share never printed as certain, "n<30" inside its cell, no label over a title, meta.json and the README naming
what played and how strong it is, the decision table's answer against seats that call as people do)."""
from tests.helpers import report_context
import glob
import json
import math
import os
import re

import numpy as np
import pandas as pd
import pytest

from euchresim import plots as P
from euchresim.analysis.call_stats import HAND_CLASS_NOTE, class_order, played_hand
from euchresim.cards import parse_card
from euchresim.engine.tables import build_tables
from euchresim.rules import Rules
from euchresim.stats import Z95

REPORT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "euchresim", "report")


def _board(*cards):
    return sum(1 << parse_card(c, 24) for c in cards)


def _calls(name: str):
    """Every ``plots.NAME(...)`` call in report/*.py: (file, the call's text to its matching parenthesis)."""
    out = []
    for path in sorted(glob.glob(os.path.join(REPORT, "*.py"))):
        text = open(path, encoding="utf-8").read()
        start = text.find(f"plots.{name}(")
        while start >= 0:
            depth, i = 0, start + len(f"plots.{name}")
            while True:
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
                if depth == 0:
                    break
            out.append((os.path.basename(path), text[start:i]))
            start = text.find(f"plots.{name}(", i)
    return out


# ---------------------------------------------------------------- the hand class: the hand the seat plays

HAND = _board("JH", "JD", "AH", "AC", "KS")          # hearts trump: right, left, ace; three trumps as dealt
UP = parse_card("9H", 24)                            # a trump turned up


def _deal(pos):
    """One round-one deal at ``pos`` (0 the dealer), the hand above deciding, order worth 2, pass -1."""
    hands = np.zeros((1, 4), np.int64)
    hands[0, pos] = HAND
    return {"seat": np.array([pos]), "hands": hands, "options": np.array([[1, 0]]), "chosen": np.array([1]),
            "net": np.array([[2.0, -1.0]]), "upcard": np.array([UP]), "pos": np.array([pos]),
            "chunk": np.array([0]), "trump": np.array([UP >> 3]), "make_round": np.array([1])}


def test_the_dealers_hand_class_counts_the_upcard_it_takes_up():
    """Counted "as dealt", the dealer's three trumps with both bowers were really four once it picks up (and a
    dealer with the jack turned up held the right bower): one convention, the hand the seat plays."""
    got = played_hand([HAND, HAND, HAND], [UP, UP, UP], [0, 1, 0], [True, True, False])
    assert list(got) == [HAND | (1 << UP), HAND, HAND]            # the dealer in round one only
    from euchresim.report.loner import deal_frame as loner_frame
    from euchresim.report.order_up import deal_frame as order_up_frame
    tab = build_tables(Rules())
    for frame in (lambda d: order_up_frame(d, 1, 4, tab, "heuristic"),
                  lambda d: loner_frame(d, "maker", 4, tab, "heuristic")):
        dealer, left = frame(_deal(0)), frame(_deal(1))
        assert dealer["hand_class"].tolist() == ["4+T RL"] and dealer["trumps"].tolist() == [4]
        assert left["hand_class"].tolist() == ["3T RL"] and left["trumps"].tolist() == [3]
        assert dealer["up_signed"].tolist() == [0]                 # the upcard counted once, as its card


def test_every_chart_of_hand_classes_states_the_convention():
    """Each heatmap, call chart and decision card drawn by hand class says how the classes are counted."""
    checked = 0
    for name in ("heatmap", "call_grid", "decision_card"):
        for path, call in _calls(name):
            if '"hand_class"' in call:
                assert "HAND_CLASS_NOTE" in call, (path, call[:100])
                checked += 1
    assert checked >= 5
    assert "the dealer's with the upcard it takes up in round one" in HAND_CLASS_NOTE


# ---------------------------------------------------------------- captions promise what is drawn

def test_a_caption_promises_intervals_only_on_a_chart_that_draws_them():
    """A call chart prints words and gains, a P(win) grid shares, a heatmap without ci_low values: their
    captions said "95% intervals" over cells that draw none (issue 36)."""
    ctx = report_context(kind="order-up", out="x", hands=10, seed=1, rules=Rules(), policies=("heuristic",))
    assert "· 95% intervals" in ctx.caption("heuristic", 10)
    assert "95% intervals" not in ctx.caption("heuristic", 10, intervals=False).replace("95% interval is", "")
    assert "no intervals drawn" in ctx.caption("heuristic", 10, "x", intervals=False)
    undrawn = [c for n in ("call_grid", "decision_card", "score_heatmap") for c in _calls(n)]
    undrawn += [c for c in _calls("heatmap") if "ci_low=" not in c[1]]
    drawn = [c for c in _calls("heatmap") if "ci_low=" in c[1]]
    assert len(undrawn) >= 5 and len(drawn) >= 3
    for path, call in undrawn:
        assert "intervals=False" in call, (path, call[:100])
    for path, call in drawn:
        assert "intervals=False" not in call, (path, call[:100])


# ---------------------------------------------------------------- numbers as printed

def test_a_bar_label_never_prints_an_uncertain_share_as_certain():
    df = pd.DataFrame(dict(x=["a", "b", "c"], v=[0.995, 0.2, 0.9996], lo=[0.99, 0.1, 0.999], hi=[0.999, 0.3, 1.0]))
    ax = P.bars_figure(df, "x", "v", "t", "c", ci_low="lo", ci_high="hi", percent=True, fmt="{:.0%}").axes[0]
    assert [t.get_text() for t in ax.texts if t.get_gid() == "bar-value"] == ["99.5%", "20%", "99.96%"]
    ax = P.bars_figure(df, "x", "v", percent=True).axes[0]                 # the default "{:.1%}"
    assert [t.get_text() for t in ax.texts if t.get_gid() == "bar-value"][2] == "99.96%"


def test_the_loner_tables_going_alone_rate_is_never_rounded_to_certain():
    from euchresim.report.loner import _where_it_pays_text
    fit = pd.DataFrame({"policy": ["heuristic"], "hand_class": ["4+T RL"], "n": [900], "gain": [1.2],
                        "ci_low": [1.1], "ci_high": [1.3], "seats_p": [0.4], "verdict": ["pays"], "alone_rate": [0.996]})
    text = "\n".join(_where_it_pays_text(fit))
    assert "| 99.6% |" in text and "100%" not in text


def test_a_pooled_loner_class_whose_seats_differ_is_no_seats_answer():
    """Three trumps with both bowers pooled over the seats "pays" (+0.19) where it pays at the dealer (+0.82) and
    the left (+0.41) and costs at the partner (-0.07) and the right (-0.23): beside each pooled class, Cochran's Q
    over its seat-and-round cells of 30+ hands (worked by hand here), and where they differ the verdict is
    "differs by seat", not "pays"; a class whose seats agree keeps its verdict, one with a single cell is untested."""
    from euchresim.report.loner import _alone_where_it_pays, _where_it_pays_text, _with_seats_test
    cell = lambda pos, n, g, half: {"policy": "best", "who": "maker", "round": 1, "position": pos,  # noqa: E731
                                    "hand_class": "3T RL", "n": n, "gain": g, "ci_low": g - half, "ci_high": g + half}
    cells = pd.DataFrame([cell("dealer", 4700, 0.82, 0.04), cell("left", 4700, 0.41, 0.04),
                          cell("partner", 4700, -0.07, 0.03), cell("right", 4700, -0.23, 0.04),
                          cell("right", 12, 3.0, 2.0),                                    # under 30 hands: left out
                          {**cell("dealer", 900, 1.0, 0.05), "hand_class": "4+T RL"},
                          {**cell("left", 900, 1.02, 0.05), "hand_class": "4+T RL"},
                          {**cell("left", 900, -0.5, 0.05), "hand_class": "2T -"},
                          {**cell("dealer", 900, -1.0, 0.05), "hand_class": "3T -"},     # all cost, by
                          {**cell("left", 900, -0.5, 0.05), "hand_class": "3T -"}])      # other amounts
    by_class = pd.DataFrame({"policy": "best", "who": "maker", "hand_class": ["3T RL", "4+T RL", "2T -", "3T -"],
                             "n": [18800, 1800, 900, 1800], "gain": [0.19, 1.01, -0.5, -0.75],
                             "ci_low": [0.17, 0.97, -0.55, -0.79], "ci_high": [0.21, 1.05, -0.45, -0.71],
                             "policy_chose": [0.4, 0.8, 0.0, 0.0]})
    out = _with_seats_test(by_class, cells)
    se = np.array([0.04, 0.04, 0.03, 0.04]) / Z95
    g = np.array([0.82, 0.41, -0.07, -0.23])
    w = 1 / se ** 2
    q = float((w * (g - (w * g).sum() / w.sum()) ** 2).sum())
    assert abs(out.loc[0, "seats_q"] - q) < 1e-6 and out.loc[0, "seats_p"] < 1e-6
    assert out.loc[1, "seats_p"] > 0.5 and np.isnan(out.loc[2, "seats_p"])
    assert out.loc[3, "seats_p"] < 1e-6 and list(out["seats_split"]) == [True, False, False, False]
    from euchresim.analysis.targeted_stats import seats_split   # one of eight cells just clear of 0 at 95%:
    lone = [0.05] + [-0.5] * 7                                     # no split after Holm; clear by far, a split
    assert not seats_split(lone, [0.001] + [-0.55] * 7, [0.099] + [-0.45] * 7)
    assert seats_split([0.2] + [-0.5] * 7, [0.15] + [-0.55] * 7, [0.25] + [-0.45] * 7)
    fit = _alone_where_it_pays(out, [])          # the seats of 3T - differ in size, every one costs: "costs"
    assert list(fit["verdict"]) == ["differs by seat", "pays", "costs", "costs"]
    text = "\n".join(_where_it_pays_text(fit))
    assert "alone on 80.0% of the deals in the 1 classes where it pays, and on 0.0% of those in the 2 where it " \
           "costs (1 more differ by seat)." in text and "| < 0.001 | differs by seat |" in text


def _inside(fig, gid):
    """Each text of ``gid`` (drawn at its cell's centre) against its cell, in pixels: (text box, cell box)."""
    r = fig.canvas.get_renderer()
    fig.canvas.draw()
    out = []
    for ax in fig.axes:
        for t in ax.texts:
            if t.get_gid() == gid:
                x, y = t.get_position()
                (x0, y0), (x1, y1) = ax.transData.transform([[x - 0.5, y - 0.5], [x + 0.5, y + 0.5]])
                out.append((t.get_window_extent(r), (min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1))))
    return out


@pytest.mark.parametrize("fmt,ci", [("{:.0%}", False), ("{:+.2f}", True), ("{:.0%}", True)])
def test_n_under_30_stays_inside_its_cell(fmt, ci):
    """Cells sized for "5%" held "n<30" spilling over their edges: the low-count label counts when sizing."""
    rows = [dict(r=r, c=c, v=0.05 * (c % 9 + 1), lo=0.05 * (c % 9), hi=0.05 * (c % 9 + 2), n=10 if c < 2 else 100)
            for r in range(4) for c in range(16)]
    fig = P.heatmap_figure(pd.DataFrame(rows), "r", "c", "v", "t", "c", fmt=fmt, count="n",
                           ci_low="lo" if ci else None, ci_high="hi" if ci else None)
    found = _inside(fig, "low-count")
    assert len(found) == 8
    for box, (x0, x1, y0, y1) in found:
        assert x0 <= box.x0 and box.x1 <= x1 and y0 <= box.y0 and box.y1 <= y1, (box, (x0, x1, y0, y1))


def _overlaps(a, b):
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _titles_clear(fig):
    """Every (title, text) pair of the figure whose boxes overlap: a label run into a title."""
    r = fig.canvas.get_renderer()
    fig.canvas.draw()
    texts = list(fig.texts)
    for ax in fig.axes:
        texts += list(ax.texts) + ax.get_xticklabels() + ax.get_yticklabels() + [ax.xaxis.label, ax.yaxis.label,
                                                                               ax.title]
    titles = [ax.title for ax in fig.axes if ax.title.get_text()] + ([fig._suptitle] if fig._suptitle else [])
    return [(t.get_text(), o.get_text()) for t in titles for o in texts
            if o is not t and o.get_text() and o.get_visible()
            and _overlaps(t.get_window_extent(r), o.get_window_extent(r))]


def test_no_label_runs_into_a_title():
    seats = ["left", "partner", "right", "dealer"]
    cells = pd.DataFrame([dict(seat=s, hand=c, gain=1.5 - 0.2 * k, lo=1.45 - 0.2 * k, hi=1.55 - 0.2 * k,
                               n=10 if k < 2 else 1000) for s in seats for k, c in enumerate(class_order())])
    calls = cells.assign(call=np.where(cells["n"] < 30, "too few hands", np.where(cells["gain"] > 0, "order", "pass")),
                         differ="")
    long = "Round 1: order up or pass, by seat and hand (best = pimc:bid_worlds=100:max_worlds=200)"
    figs = [P.heatmap_figure(cells, "seat", "hand", "gain", long, "c " * 80, ci_low="lo", ci_high="hi", count="n",
                             row_label="seat", col_label="trumps held, bowers", value_label="gain (points)"),
            P.call_grid_figure(calls, "seat", "hand", "call", marked="differ", value="gain", title=long,
                               caption="c " * 80, row_label="seat", col_label="trumps held, bowers"),
            P.decision_card_figure([("Round one: order up or pass", calls), ("Round two: name a suit or pass", calls)],
                                   "seat", "hand", "call", title=long, caption="c " * 120, value="gain",
                                   marked="differ", row_label="seat", col_label="trumps held, bowers")]
    bars = pd.DataFrame(dict(where=[f"{s} r{r}" for s in seats for r in (1, 2)] * 2,
                             policy=np.repeat(["best", "heuristic:human"], 8), gain=np.linspace(-0.6, 2.4, 16)))
    figs.append(P.bars_figure(bars.assign(lo=bars["gain"] - 0.3, hi=bars["gain"] + 0.3), "where", "gain", long,
                              "c", ci_low="lo", ci_high="hi", group="policy", category_label="seat and round"))
    for fig in figs:
        assert _titles_clear(fig) == []


def test_no_bar_label_runs_into_a_title_or_out_of_the_axes_when_no_bar_is_positive():
    """The loner report's bars_round: every bar -2.87 to 0.00 with intervals, the axis' top at the zero line (bars
    stick to 0, so no headroom) and the zero bar's "0.00" drawn above it, as for a positive bar, over the title."""
    gains = {"best": [-0.83, -0.89, -0.76, -0.85], "heuristic": [-0.47, -0.62, -0.48, -0.59],
             "heuristic:human": [-0.47, -0.61, -0.21, -0.59], "dd": [-0.07, 0.0, -1.41, -2.87]}
    where = ["defender r1", "defender r2", "maker r1", "maker r2"]
    bars = pd.DataFrame([dict(policy=p, what=w, gain=g, lo=g - 0.03 if g else 0.0, hi=g + 0.03 if g else 0.0)
                         for p, gs in gains.items() for w, g in zip(where, gs)])
    fig = P.bars_figure(bars, "what", "gain", "Gain of going alone (maker) and defending alone, by round made",
                        "c " * 80, ci_low="lo", ci_high="hi", group="policy", value_label="points a hand",
                        category_label="who chose, and the round trump was made (r1, r2)")
    assert _titles_clear(fig) == []
    r = fig.canvas.get_renderer()
    ax = fig.axes[0]
    labels = [t for t in ax.texts if t.get_gid() == "bar-value"]
    assert len(labels) == 16 and "0.00" in [t.get_text() for t in labels]
    for t in labels:
        box = t.get_window_extent(r)
        for outer in (fig.bbox, ax.get_window_extent(r)):
            assert outer.x0 <= box.x0 and box.x1 <= outer.x1 and outer.y0 <= box.y0 and box.y1 <= outer.y1, \
                (t.get_text(), box, outer)


# ---------------------------------------------------------------- what played, and how strong it is

def test_meta_json_and_the_readme_name_what_played_and_how_strong_the_main_model_is(tmp_path):
    """meta.json's ``played`` writes every model out (``best`` is pimc with its settings), and the README's
    head says how strong the main model is, pointing to the measurements and their commands."""
    from euchresim.policies import canonical
    from euchresim.report import Section, write_section
    ctx = report_context(kind="order-up", out=str(tmp_path / "r"), hands=10, seed=1, rules=Rules(),
                        policies=("best", "heuristic:human"), command="euchresim report order-up")
    meta = write_section(ctx, Section(title="T", text="body"), 0.0)
    on_disk = json.loads((tmp_path / "r" / "meta.json").read_text())
    assert on_disk["played"] == meta["played"] == {"best": canonical("best"),
                                                   "heuristic:human": canonical("heuristic:human")}
    assert canonical("best").startswith("pimc:") and canonical("heuristic:human").startswith("heuristic:order_1=")
    head = (tmp_path / "r" / "README.md").read_text().split("\n\n")[1]
    assert f"`best` is `{canonical('best')}`." in head
    assert f"`heuristic:human` is `{canonical('heuristic:human')}`." in head
    assert re.search(r"How strong best is\b", head) and "docs/policies.md" in head

    assert "How strong heuristic:human is" not in head          # order-up: the main model's strength alone


def test_the_decks_head_says_how_strong_every_model_is(tmp_path):
    """decks gives every model's rates and a guide quotes best's: its head states best's duels and IS-MCTS
    match too, not only the first model's (heuristic's) strength."""
    from euchresim.report import Section, write_section
    from euchresim.report.strength import strength_lines
    from euchresim.policies import canonical
    ctx = report_context(kind="decks", out=str(tmp_path / "d"), hands=10, seed=1, rules=Rules(),
                        policies=("heuristic", "best"), command="euchresim report decks")
    write_section(ctx, Section(title="T", text="body"), 0.0)
    head = (tmp_path / "d" / "README.md").read_text().split("\n\n")[1]
    assert re.search(r"How strong heuristic is\b", head) and re.search(r"How strong best is\b", head)
    best = strength_lines(canonical("best"))
    assert any("IS-MCTS" in x for x in best) and all(x in head for x in best)


# ---------------------------------------------------------------- the decision table against people-like seats

def test_the_decision_table_gives_the_answer_against_seats_that_call_as_people_do():
    """Where heuristic:human's cell gives the opposite call, the line says so with its number and interval."""
    from euchresim.analysis.call_stats import table_calls
    from euchresim.report.order_up_text import _decision_text
    rows = [("heuristic", "dealer", "2T R", 0.5), ("heuristic:human", "dealer", "2T R", -0.5),
            ("heuristic", "dealer", "3T R", 1.0), ("heuristic:human", "dealer", "3T R", 1.1)]
    by_class = pd.DataFrame([{"policy": p, "round": 1, "position": pos, "hand_class": c, "n": 400, "gain": g,
                              "ci_low": g - 0.1, "ci_high": g + 0.1} for p, pos, c, g in rows])
    policies = ["heuristic", "heuristic:human"]
    t = {"order_up_by_class": by_class, "order_up_calls_round1": table_calls(by_class, policies, 1)}
    from euchresim.policies import canonical
    text = "\n".join(_decision_text(t, policies, ["dealer"], canonical))
    line = next(ln for ln in text.splitlines() if ln.startswith("- **dealer**: "))
    assert "order up: `3T R` +1.00 ±0.10, `2T R` +0.50 ±0.10" in line
    assert "Against seats that call as people do (heuristic:human): `2T R` pass (-0.50 ±0.10)" in line
    assert "`3T R` order" not in line.split("people do")[1]          # the same answer is not repeated
    t["order_up_by_class"] = by_class.replace("heuristic:human", "people")      # the same model given another name
    t["order_up_calls_round1"] = table_calls(t["order_up_by_class"], ["heuristic", "people"], 1)
    other = "\n".join(_decision_text(t, ["heuristic", "people"], ["dealer"],
                                     lambda p: canonical("heuristic:human" if p == "people" else p)))
    assert "Against seats that call as people do (people): `2T R` pass (-0.50 ±0.10)" in other


def _card_ctx(tmp_path, policies):
    ctx = report_context(kind="order-up", out=str(tmp_path / "r"), hands=10, seed=1, rules=Rules(),
                         policies=policies, command="euchresim report order-up")
    os.makedirs(ctx.out, exist_ok=True)
    return ctx


def _capture_card(monkeypatch) -> dict:
    from euchresim import plots
    got = {}
    monkeypatch.setattr(plots, "decision_card", lambda panels, *a, **k: got.update(panels=panels, **k) or "card.png")
    return got


def test_the_order_up_card_gives_the_people_like_tables_answers_below_the_main_models(tmp_path, monkeypatch):
    """Where the answer rests on how the table calls, the card a player keeps gives both: each round as the main
    model calls it, then as the table that calls as people do (heuristic:human) does; without that model, two."""
    from euchresim.analysis.call_stats import table_calls
    from euchresim.policies import canonical
    from euchresim.report.order_up import _decision_card
    rows = [(p, r, "dealer", c, g) for r in (1, 2) for p, c, g in
            (("heuristic", "2T R", 0.5), ("heuristic:human", "2T R", -0.5), ("heuristic", "3T R", 1.0),
             ("heuristic:human", "3T R", 1.1))]
    by_class = pd.DataFrame([{"policy": p, "round": r, "position": pos, "hand_class": c, "n": 400, "gain": g,
                              "ci_low": g - 0.1, "ci_high": g + 0.1} for p, r, pos, c, g in rows])
    policies = ["heuristic", "heuristic:human"]
    t = {"order_up_by_class": by_class, **{f"order_up_calls_round{r}": table_calls(by_class, policies, r)
                                           for r in (1, 2)}}
    got = _capture_card(monkeypatch)
    _decision_card(_card_ctx(tmp_path, tuple(policies)), t, policies, "heuristic:human")
    titles = [p for p, _ in got["panels"]]
    assert titles == ["Round one: order up or pass (heuristic)", "Round two: name a suit or pass (heuristic)",
                      "Round one at a table that calls as people do (heuristic:human)",
                      "Round two at a table that calls as people do (heuristic:human)"]
    # its definition in the caption, beside its own name (not every name before every definition)
    assert got["caption"].startswith(f"policy heuristic, heuristic:human = {canonical('heuristic:human')} · ")
    main, people = got["panels"][0][1].set_index("hand_class"), got["panels"][2][1].set_index("hand_class")
    assert main.loc["2T R", "call"] == "order" and people.loc["2T R", "call"] == "pass"
    assert people.loc["2T R", "gain"] == -0.5 and "as people do" in got["caption"]
    got.clear()
    _decision_card(_card_ctx(tmp_path, tuple(policies)), t, policies, None)
    assert len(got["panels"]) == 2 and "as people do" not in got["caption"]


def test_the_loner_card_outlines_the_cells_the_people_like_table_answers_the_other_way(tmp_path, monkeypatch):
    """The loner card marks the cells the decision table's lines give a second answer for (answer_flips: 200+
    hands under each, opposite signs both clear of 0 after Holm's correction), and only those."""
    from euchresim.report import loner_decisions as D
    rng = np.random.default_rng(3)
    frames = []
    for pol, gains in (("heuristic", {"3T RL": 0.6, "3T R": 0.4, "4+T R": 0.9}),
                       ("heuristic:human", {"3T RL": -0.6, "3T R": 0.02, "4+T R": 1.0})):
        for cls, g in gains.items():
            frames.append(pd.DataFrame({"policy": pol, "who": "maker", "round": 1, "position": "dealer",
                                        "hand_class": cls, "gain": g + rng.normal(0, 0.3, 400)}))
    df = pd.concat(frames, ignore_index=True)
    decisions = D.decisions(df, "heuristic", 4)
    got = _capture_card(monkeypatch)
    D.decision_card(_card_ctx(tmp_path, ("heuristic", "heuristic:human")), decisions, "heuristic", df,
                    "heuristic:human")
    panel = got["panels"][0][1].set_index("hand_class")
    assert got["marked"] == "flips"
    assert panel.loc["3T RL", "flips"] == "people"                   # +0.6 against -0.6: the answer flips
    assert panel.loc["3T R", "flips"] == "" and panel.loc["4+T R", "flips"] == ""   # near 0, or the same answer
    assert "outlined (1)" in got["caption"]
    got.clear()
    D.decision_card(_card_ctx(tmp_path, ("heuristic",)), decisions, "heuristic")
    assert not (got["panels"][0][1]["flips"] != "").any() and "outlined" not in got["caption"]


# ---------------------------------------------------------------- the point count: values a player will doubt

def test_a_lower_trump_worth_more_than_a_higher_one_gets_a_sentence_of_why():
    """The committed count gave the left bower 1 and a low trump 3: the README says why such weights arise."""
    from euchresim.report.order_up_count import doubted_values_text as _doubted_values_text
    pts = pd.DataFrame({"round": [1] * 5 + [2] * 2,
                        "card_class": ["right", "left", "trump_ace", "trump_kq", "trump_low", "right", "left"],
                        "points": [4, 1, 3, 2, 3, 4, 3], "fitted_gain": [0.0] * 7})
    text = _doubted_values_text(pts)
    assert text.startswith("Round 1 gives some lower trumps more points than higher ones (")
    assert "`trump_low` 3 above `left` 1" in text and "`trump_ace` 3 above `left` 1" in text
    assert "fitted jointly" in text and "Round 2" not in text          # round two's weights are in order
    assert _doubted_values_text(pts[pts["round"] == 2]) == ""


def test_a_threshold_its_refits_never_gave_is_named_in_the_readme():
    """The table's partner 7 where all five refits gave 8 or 9: the sentence names the seat and the range."""
    from euchresim.report.order_up_count import _outside_refits_text, with_refit_range as _with_refit_range
    thr = pd.DataFrame({"round": [1, 1], "position": ["partner", "dealer"], "pos": [2, 0],
                        "fitted_threshold": [7, 5], "published_threshold": [7, 7]})
    sp = pd.DataFrame({"round": [1, 1], "what": ["threshold", "threshold"], "name": ["partner", "dealer"],
                       "refits": [5, 5], "mean": [8.4, 5.4], "sd": [0.5, 0.5], "min": [8.0, 5.0], "max": [9.0, 6.0]})
    text = _outside_refits_text(_with_refit_range(thr, sp))
    assert "round 1, partner: 7 (refits 8-9)" in text and "dealer" not in text
    assert _outside_refits_text(_with_refit_range(thr.assign(fitted_threshold=[8, 5]), sp)).startswith(
        "Every threshold in the table lies within")


def test_round_twos_calls_are_in_the_decision_table():
    """Round two's chart and CSV say "call" where round one says "order"; the decision table read only "order"
    and left every round-two call out (the committed report listed none). Each word is read as a call, and the
    people-like seats' opposite answer is given in round two as in round one."""
    from euchresim.analysis.call_stats import table_calls
    from euchresim.policies import canonical
    from euchresim.report.order_up_text import _decision_text
    rows = [("heuristic", "left", "3T R", 0.6), ("heuristic:human", "left", "3T R", 0.7),
            ("heuristic", "left", "2T R", 0.5), ("heuristic:human", "left", "2T R", -0.5),
            ("heuristic", "left", "0-1T -", -0.4), ("heuristic:human", "left", "0-1T -", -0.4)]
    by_class = pd.DataFrame([{"policy": p, "round": 2, "position": pos, "hand_class": c, "n": 400, "gain": g,
                              "ci_low": g - 0.1, "ci_high": g + 0.1} for p, pos, c, g in rows])
    policies = ["heuristic", "heuristic:human"]
    calls = table_calls(by_class, policies, 2)
    calls["call"] = calls["call"].replace("order", "call")          # as the report writes round two
    t = {"order_up_by_class": by_class, "order_up_calls_round2": calls}
    line = next(ln for ln in _decision_text(t, policies, ["left"], canonical) if ln.startswith("- **left**: "))
    assert "name your best suit: `3T R` +0.60 ±0.10, `2T R` +0.50 ±0.10" in line
    assert "pass: `0-1T -` -0.40 ±0.10" in line
    assert "Against seats that call as people do (heuristic:human): `2T R` pass (-0.50 ±0.10)" in line


# ---------------------------------------------------------------- a pooled line beside its seats

def _seat_frame(gains_by_pos: dict, n: int = 400, seed: int = 5):
    """Makers of round one, ``n`` deals at each position, each position's gains normal about its mean, SD 1."""
    rng = np.random.default_rng(seed)
    rows = [{"policy": "best", "who": "maker", "round": 1, "position": pos, "gain": g, "took": 0}
            for pos, mean in gains_by_pos.items() for g in rng.normal(mean, 1.0, n)]
    return pd.DataFrame(rows)


def test_a_pooled_round_line_names_each_seat_and_says_when_the_seats_differ():
    from euchresim.report.loner import seat_words
    # means 1 apart with n = 400 and SD 1: each cell's half-width is 0.1, the seats' Q some 100 on 3 df: differ
    words = seat_words(_seat_frame({"left": 0.5, "partner": -0.5, "right": -0.5, "dealer": 0.5}), "best", "maker",
                       1, 4)
    assert "the test finds the seats differ" in words and "no seat's answer" in words
    for pos in ("left", "partner", "right", "dealer"):
        assert f"{pos} " in words
    assert words.index("left") < words.index("partner") < words.index("right") < words.index("dealer")
    # one mean at every seat: Q is chi-square on 3 df, and this seed's draw agrees at 5%
    same = seat_words(_seat_frame({"left": 0.2, "partner": 0.2, "right": 0.2, "dealer": 0.2}), "best", "maker", 1, 4)
    assert "the test finds no difference between the seats" in same
    # a seat under 30 hands is shown with its count and left out of the test: two large seats alike and a
    # 12-hand seat far off are no difference found
    alike = pd.concat([_seat_frame({"left": 0.3, "partner": 0.3}, n=4000), _seat_frame({"right": 2.7}, n=12)])
    words = seat_words(alike, "best", "maker", 1, 4)
    assert "right +" in words and "(12 hands)" in words and "the test finds no difference" in words
    # the printed cell is the seat's mean and half-width (1.96 SD / sqrt(n))
    df = _seat_frame({"left": 0.0, "partner": 1.0})
    left = df[df["position"] == "left"]["gain"]
    half = 1.959964 * left.std(ddof=1) / np.sqrt(len(left))
    assert f"left {left.mean():+.2f} ±{half:.2f}" in seat_words(df, "best", "maker", 1, 4)
    # a seat under 30 hands gets its count, not an interval; no second seat, no line
    few = _seat_frame({"left": 0.0}).assign(position="left")
    assert seat_words(few, "best", "maker", 1, 4) == ""
    assert "(12 hands)" in seat_words(pd.concat([_seat_frame({"left": 0.0}), _seat_frame({"dealer": 0.0}, n=12)]),
                                      "best", "maker", 1, 4)


def test_the_loner_decision_table_gives_the_answer_against_seats_that_call_as_people_do():
    """Where the people-like table's cell (heuristic:human) gives the opposite answer, clear of zero, the seat's
    line says so with that cell's gain; where both agree, nothing is added."""
    from euchresim.policies.presets import preset_name
    from euchresim.report.loner_decisions import decision_text as _decision_text, decisions as _decisions
    rng = np.random.default_rng(9)
    rows = []
    for policy, dealer_mean in (("best", -0.6), ("heuristic:human", +0.6)):
        for pos, cls, mean in (("dealer", "2T R", dealer_mean), ("left", "3T RL", 0.8)):
            rows += [{"policy": policy, "who": "maker", "round": 1, "position": pos, "hand_class": cls, "gain": g,
                      "took": 0} for g in rng.normal(mean, 1.0, 300)]
    df = pd.DataFrame(rows)
    canonical = lambda p: preset_name("heuristic", "human") if p == "heuristic:human" else p    # noqa: E731
    text = "\n".join(_decision_text(_decisions(df, "best", 4), ["best", "heuristic:human"], 4, df, canonical))
    dealer = next(ln for ln in text.splitlines() if ln.startswith("- **dealer**"))
    left = next(ln for ln in text.splitlines() if ln.startswith("- **left**"))
    human = df[(df["policy"] == "heuristic:human") & (df["position"] == "dealer")]["gain"]
    half = 1.959964 * human.std(ddof=1) / np.sqrt(len(human))
    assert "it costs: `2T R`" in dealer
    assert f"Against seats that call as people do (heuristic:human): `2T R` it pays ({human.mean():+.2f} ±{half:.2f})" in dealer
    assert "people" not in left                      # both say it pays there: nothing added


def test_how_often_calling_is_right_is_the_main_models_and_never_a_cheats():
    """The order-up report quoted "calling is right on 73.6% ... dd" for the dealer in round two, where the main
    model had no hands: the clause is the main model's or absent."""
    from euchresim.report.order_up_text import _by_seat_text
    row = dict(n=100, gain=0.1, ci_low=0.0, ci_high=0.2, right=0.736, right_low=0.7, right_high=0.77, round=2,
               position="dealer")
    by_pos = pd.DataFrame([dict(row, policy="dd")])
    t = {"order_up_by_position": by_pos, "order_up_by_class": pd.DataFrame(columns=["round", "hand_class"])}
    line = next(ln for ln in _by_seat_text(t, ["dealer"], main="best") if ln.startswith("- **dealer**"))
    assert "73.6%" not in line and "right on" not in line and line.endswith("dd).")
    by_pos = pd.DataFrame([dict(row, policy="dd"), dict(row, policy="best", right=0.5, right_low=0.4, right_high=0.6)])
    t["order_up_by_position"] = by_pos
    line = next(ln for ln in _by_seat_text(t, ["dealer"], main="best") if ln.startswith("- **dealer**"))
    assert "calling is right on 50.0% of hands (40.0%-60.0%, best)" in line
    # best played the seat in round one but none of its deals reached round two there: said, not left silent
    t["order_up_by_position"] = pd.DataFrame([dict(row, policy="dd"), dict(row, policy="best", round=1)])
    line = next(ln for ln in _by_seat_text(t, ["dealer"], main="best") if ln.startswith("- **dealer**, round 2"))
    assert line.endswith("dd); none of best's deals reached this call (the seats before it called first).")


def test_answer_flips_needs_both_tables_measured_and_both_answers_clear_of_zero():
    """Known cells: opposite signs, each interval clear of zero and 200+ hands under both: a flip; an interval
    holding zero, or too few hands under one table: none."""
    from euchresim.analysis.call_stats import answer_flips
    cell = lambda pos, n, g, half: {"position": pos, "hand_class": "2T R", "n": n, "gain": g,   # noqa: E731
                                    "ci_low": g - half, "ci_high": g + half}
    bot = pd.DataFrame([cell("dealer", 300, -0.5, 0.1), cell("left", 300, -0.5, 0.1), cell("right", 150, -0.5, 0.1)])
    people = pd.DataFrame([cell("dealer", 300, +0.3, 0.1), cell("left", 300, +0.05, 0.1),
                           cell("right", 300, +0.5, 0.1)])
    got = answer_flips(bot, people, ["position", "hand_class"]).set_index("position")
    assert list(got.index) == ["dealer", "left"]                  # right: 150 hands under the bot's table
    assert bool(got.loc["dealer", "flips"]) and not bool(got.loc["left", "flips"])
    assert got.loc["dealer", "gain_human"] == 0.3 and got.loc["dealer", "gain_heuristic"] == -0.5


def test_a_flip_is_corrected_for_the_number_of_cells_compared():
    """Two 95% intervals just clear of zero on opposite sides are a flip alone, not among a hundred cells (Holm
    over the cells, each flip's p the larger of its two one-sided p's); a flip far beyond noise stays one."""
    from euchresim.analysis.call_stats import answer_flips
    from euchresim.stats import Z95
    cell = lambda pos, g, se: {"position": pos, "hand_class": "2T R", "n": 400, "gain": g,   # noqa: E731
                               "ci_low": g - Z95 * se, "ci_high": g + Z95 * se}
    edge = [cell("edge", 2.2 * 0.1, 0.1)], [cell("edge", -2.2 * 0.1, 0.1)]        # z +2.2 and -2.2: p 0.014
    far = [cell("far", 1.0, 0.1)], [cell("far", -1.0, 0.1)]                       # z 10
    same = [cell(f"s{i}", 0.5, 0.1) for i in range(98)]
    alone = answer_flips(pd.DataFrame(edge[0]), pd.DataFrame(edge[1]), ["position", "hand_class"])
    assert bool(alone["flips"].iloc[0]) and alone.attrs["tests"] == 1
    assert alone["p_flip"].iloc[0] == pytest.approx(0.5 * math.erfc(2.2 / math.sqrt(2)))
    many = answer_flips(pd.DataFrame(edge[0] + far[0] + same), pd.DataFrame(edge[1] + far[1] + same),
                        ["position", "hand_class"]).set_index("position")
    assert many.attrs["tests"] == 100 and bool(many.loc["far", "flips"]) and not bool(many.loc["edge", "flips"])
    assert not many.loc[[f"s{i}" for i in range(98)], "flips"].any() and (many.loc["s0", "p_flip"] == 1.0)


def test_a_cell_without_an_interval_is_never_a_flip():
    """A gain whose interval is NaN (too few hands to have one) gives no p, so no flip, in either table."""
    from euchresim.analysis.call_stats import answer_flips
    nan = float("nan")
    row = lambda g, lo, hi: {"position": "dealer", "hand_class": "2T R", "n": 400, "gain": g,  # noqa: E731
                             "ci_low": lo, "ci_high": hi}
    for bot, people in ((row(0.5, nan, nan), row(-0.5, -0.6, -0.4)), (row(0.5, 0.4, 0.6), row(-0.5, nan, nan))):
        got = answer_flips(pd.DataFrame([bot]), pd.DataFrame([people]), ["position", "hand_class"])
        assert got["p_flip"].iloc[0] == 1.0 and not bool(got["flips"].iloc[0])


def test_a_zero_width_interval_is_read_alike_by_flips_and_table_calls():
    """A cell whose every deal gave the same gain has a zero-width interval: a certain answer, not "no
    evidence". answer_flips and table_calls share one test (beyond_zero_p), so each flags it, and a zero gain
    with zero width claims nothing in either."""
    from euchresim.analysis.call_stats import answer_flips, beyond_zero_p, table_calls
    assert beyond_zero_p(0.4, 0.0) == 0.0 and beyond_zero_p(-0.4, 0.0) == 1.0 and beyond_zero_p(0.0, 0.0) == 1.0
    assert beyond_zero_p(float("nan"), 0.1) == 1.0
    assert beyond_zero_p(0.196, 0.1) == pytest.approx(0.025, abs=1e-3)
    row = lambda p, g, lo, hi: {"policy": p, "round": 1, "position": "dealer", "hand_class": "2T R",  # noqa: E731
                                "n": 400, "gain": g, "ci_low": lo, "ci_high": hi}
    flips = answer_flips(pd.DataFrame([row("a", 0.5, 0.4, 0.6)]), pd.DataFrame([row("b", -2.0, -2.0, -2.0)]),
                         ["position", "hand_class"])
    assert flips["p_flip"].iloc[0] == pytest.approx(beyond_zero_p(0.5, 0.1 / 1.959963984540054))
    assert bool(flips["flips"].iloc[0])
    calls = table_calls(pd.DataFrame([row("a", 0.5, 0.4, 0.6), row("b", -2.0, -2.0, -2.0)]), ["a", "b"])
    assert calls["differ"].iloc[0] == "b" and calls["differ_z"].iloc[0] == math.inf
    zero = table_calls(pd.DataFrame([row("a", 0.5, 0.4, 0.6), row("b", 0.0, 0.0, 0.0)]), ["a", "b"])
    assert zero["differ"].iloc[0] == "" and zero.attrs["tests"] == 1


def test_the_models_section_shows_only_cells_whose_call_depends_on_the_model():
    """"Where the call depends on the model" lists the cells of opposite sign alone ("differ"); a same-sign
    difference gives the same call, so it is counted but never listed as an answer that depends on the model."""
    from euchresim.report.order_up_text import _models_text
    row = lambda cls, verdict: {"round": 1, "position": "left", "hand_class": cls, "n_a": 100, "gain_a": 0.5,  # noqa: E731
                                "n_b": 100, "gain_b": -0.5, "models": verdict}
    both = pd.DataFrame([row("2T R", "differ"), row("3T L", "differ (same sign)"), row("3T R", "agree")])
    text = "\n".join(_models_text(both, ["a", "b"]))
    assert "overlap (1 cell;" in text and "| 2T R |" in text and "| 3T L |" not in text
    assert "a description, not a test" in text and "fair models' (a, b;" in text
    same = "\n".join(_models_text(both.iloc[1:], ["a", "b"]))
    assert "No cell's call depends on the model" in same and "| 3T L |" not in same


def test_order_up_with_one_fair_model_has_no_models_side_by_side():
    """With a cheat as the only other model (or alone), there is nothing fair to compare: an empty table, no crash."""
    from euchresim.report.order_up import FEATURES, _tables
    from euchresim.report.order_up_text import _models_text
    df = pd.DataFrame([{"policy": p, "round": 1, "position": "left", "hand_class": "2T R", "gain": g, "up_rank": 0,
                        **{f: 0 for f in FEATURES}} for p, g in (("best", -0.4), ("dd", 0.5)) for _ in range(40)])
    models = _tables(df, ["best", "dd"], ["left"], cheats=["dd"])["order_up_models"]
    assert len(models) == 0 and _models_text(models, ["best", "dd"]) == ["## Where the play models agree\n"]
    assert len(_tables(df[df["policy"] == "dd"], ["dd"], ["left"], cheats=["dd"])["order_up_models"]) == 0


def test_the_models_side_by_side_leave_out_a_model_that_sees_every_card():
    """The order-up report listed 31 cells where "the call depends on the model", 24 of them only because dd (which
    sees every card: a bound, no advice) had the other sign; the side-by-side table holds the fair models alone,
    as the loner's does."""
    from euchresim.report.order_up import FEATURES, _tables
    rng = np.random.default_rng(3)
    rows = [{"policy": p, "round": 1, "position": pos, "hand_class": "2T R", "gain": g + rng.normal(0, 0.1),
             "up_rank": 0, **{f: 0 for f in FEATURES}}
            for p, g in (("best", -0.4), ("heuristic", -0.4), ("dd", 0.5)) for pos in ("left", "dealer")
            for _ in range(40)]
    df = pd.DataFrame(rows)
    models = _tables(df, ["best", "heuristic", "dd"], ["left", "dealer"], cheats=["dd"])["order_up_models"]
    assert "gain_best" in models and "gain_heuristic" in models and "gain_dd" not in models
    with_dd = _tables(df, ["best", "heuristic", "dd"], ["left", "dealer"])["order_up_models"]
    assert "gain_dd" in with_dd and (with_dd["models"] == "differ").any()


def test_a_seat_no_deal_reached_is_said_in_the_decision_table_and_the_stuck_dealer_left_out():
    """best calls before the dealer's round two on every one of 20,000 deals: the table says so for the dealer
    rather than leave the seat out unsaid; with stick the dealer the dealer has no choice there, so no line."""
    from euchresim.analysis.call_stats import table_calls
    from euchresim.policies import canonical
    from euchresim.report.order_up_text import _decision_text
    by_class = pd.DataFrame([{"policy": "best", "round": 2, "position": "left", "hand_class": "3T R", "n": 400,
                              "gain": 0.6, "ci_low": 0.5, "ci_high": 0.7}])
    t = {"order_up_by_class": by_class, "order_up_calls_round2": table_calls(by_class, ["best"], 2)}
    text = _decision_text(t, ["best"], ["left", "dealer"], canonical)
    assert "- **dealer**: none of best's deals reached this call (the seats before it called first)." in text
    stuck = _decision_text(t, ["best"], ["left", "dealer"], canonical, stuck=True)
    assert not any(ln.startswith("- **dealer**") for ln in stuck) and any(ln.startswith("- **left**") for ln in stuck)


def test_where_best_gives_a_seat_no_answer_the_people_like_tables_line_is_given():
    """best's dealer never reaches round two's call and its right has a handful of hands there; heuristic:human's
    dealer does (2,038 hands in the committed report): the decision table gives that table's answer for the seat,
    named, and none where best answers or where the people-like table has too few hands too."""
    from euchresim.analysis.call_stats import table_calls
    from euchresim.policies import canonical
    from euchresim.report.order_up_text import _decision_text
    cell = lambda p, pos, c, n, g, lo, hi: {"policy": p, "round": 2, "position": pos, "hand_class": c, "n": n,  # noqa: E731
                                            "gain": g, "ci_low": lo, "ci_high": hi}
    by_class = pd.DataFrame([cell("best", "left", "3T R", 400, 0.6, 0.5, 0.7), cell("best", "right", "3T R", 3, 0.2, -1, 1),
                             cell("heuristic:human", "dealer", "3T R", 900, 0.8, 0.7, 0.9),
                             cell("heuristic:human", "dealer", "0-1T -", 600, -0.3, -0.4, -0.2),
                             cell("heuristic:human", "right", "2T R", 12, 0.3, -0.5, 1.1),
                             cell("heuristic:human", "left", "2T R", 500, 0.4, 0.3, 0.5)])
    t = {"order_up_by_class": by_class, "order_up_calls_round2": table_calls(by_class, ["best", "heuristic:human"], 2)}
    text = _decision_text(t, ["best", "heuristic:human"], ["left", "right", "dealer"], canonical)
    dealer = next(ln for ln in text if ln.startswith("- **dealer**"))
    assert dealer == ("- **dealer**: none of best's deals reached this call (the seats before it called first); at a "
                      "table that calls as people do (heuristic:human): name your best suit: `3T R` +0.80 ±0.10; "
                      "pass: `0-1T -` -0.30 ±0.10.")
    assert next(ln for ln in text if ln.startswith("- **right**")) == "- **right**: too few hands to say: `3T R` 3 hands."
    assert "people" not in next(ln for ln in text if ln.startswith("- **left**"))


def test_beside_a_people_like_flip_heuristic_says_whether_the_people_like_calling_turns_it():
    """The loner's partner `3T RL` pays at the people-like table (+0.08 ±0.03) where best's costs (-0.10): under
    heuristic, the same play with a bot's calls, it pays as much (+0.08 ±0.03), so not the people-like calling but
    heuristic's table (its play, its bots' calls) turns it; where heuristic gives best's answer the people-like
    calling does; under 30 hands nothing is said."""
    from euchresim.report.order_up_text import beside_bot
    cell = lambda n, g, lo, hi: pd.Series({"n": n, "gain": g, "ci_low": lo, "ci_high": hi})  # noqa: E731
    assert beside_bot("heuristic", cell(5415, 0.08, 0.05, 0.11), 0.08) == (
        "; heuristic, the same play with a bot's calls, +0.08 ±0.03: not the people-like calling, heuristic's "
        "table turns it")
    assert beside_bot("heuristic", cell(900, -0.2, -0.3, -0.1), 0.27).endswith(": the people-like calling turns it")
    assert beside_bot("heuristic", cell(900, 0.01, -0.1, 0.12), 0.27) == (
        "; heuristic, the same play with a bot's calls, +0.01 ±0.11")
    assert beside_bot("heuristic", cell(20, 0.5, 0.4, 0.6), 0.27) == "" and beside_bot(None, None, 0.3) == ""


def test_a_bar_on_under_30_hands_has_no_interval(tmp_path, monkeypatch):
    """The order-up bars drew best's round-two right seat at +0.41 with a normal interval from -0.36 to +1.19
    on 22 hands: a bar on under 30 hands is drawn without one, and the caption says so."""
    from euchresim import plots
    from euchresim.report import order_up
    got = {}
    real = plots.bars

    def capture(df, category, value, path, **kw):
        got.setdefault(os.path.basename(str(path)), (df.copy(), kw))
        return real(df, category, value, path, **kw)
    monkeypatch.setattr(plots, "bars", capture)
    ctx = report_context(kind="order-up", out=str(tmp_path / "r"), hands=600, seed=4, rules=Rules(),
                         policies=("heuristic",), command="pytest", workers=1)
    os.makedirs(ctx.out, exist_ok=True)
    order_up.build(ctx)
    df, kw = got["bars_position.png"]
    few = df["n"] < 30
    assert few.any() and (~few).any()
    assert df.loc[few, ["ci_low", "ci_high"]].isna().all().all()
    assert df.loc[~few, ["ci_low", "ci_high"]].notna().all().all()
    assert "a bar on under 30 hands has no interval" in kw["caption"]
