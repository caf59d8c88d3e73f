"""euchresim.plots: each chart writes a valid PNG of the promised size and draws what it was given."""
import math
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
from matplotlib.image import imread

from euchresim import plots as P

CAPTION = "policy heuristic · 2,000,000 hands · seed 1 · 95% intervals"


def _png_ok(path, figsize=P.FIGSIZE, dpi=P.DPI):
    assert os.path.getsize(path) > 1000
    with open(path, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    img = imread(path)
    assert img.shape[:2] == (round(figsize[1] * dpi), round(figsize[0] * dpi))
    assert img.std() > 0                       # something drawn, not a blank page


def _texts(ax, gid):
    return [t.get_text() for t in ax.texts if t.get_gid() == gid]


def _gain_frame():
    seats = ["dealer", "left of dealer", "partner", "right of dealer"]
    classes = ["weak", "two trumps", "three trumps"]
    rows = []
    for i, s in enumerate(seats):
        for j, c in enumerate(classes):
            g = (i - 1.5) * 0.3 + (j - 1) * 0.5
            rows.append(dict(seat=s, hand=c, gain=g, lo=g - 0.1, hi=g + 0.1, n=1000))
    return pd.DataFrame(rows)


@pytest.mark.slow
def test_importing_and_drawing_never_touches_pyplot_or_the_backend(tmp_path):
    out = tmp_path / "h.png"
    code = ("import sys, matplotlib; b = matplotlib.rcParams._get_backend_or_none();"
            "import euchresim.plots as P, pandas as pd;"
            "a = 'matplotlib.pyplot' in sys.modules;"
            "P.heatmap(pd.DataFrame(dict(r=[1], c=[2], v=[0.5])), 'r', 'c', 'v', "
            f"{str(out)!r}, 't', 'c');"
            "print(a, 'matplotlib.pyplot' in sys.modules, "
            "matplotlib.rcParams._get_backend_or_none() == b)")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == ["False", "False", "True"]
    assert out.exists()


def test_heatmap_png_labels_annotations_and_order(tmp_path):
    df = _gain_frame()
    path = tmp_path / "sub" / "gain.png"          # missing folder is made
    got = P.heatmap(df, "seat", "hand", "gain", path, "Calling gain", CAPTION,
                    row_label="seat position", col_label="hand class",
                    value_label="points per hand")
    assert got == path
    _png_ok(path)

    fig = P.heatmap_figure(df, "seat", "hand", "gain", "Calling gain", CAPTION,
                           row_label="seat position", col_label="hand class",
                           value_label="points per hand")
    ax, cbar = fig.axes
    assert ax.get_title() == "Calling gain"
    assert ax.get_ylabel() == "seat position" and ax.get_xlabel() == "hand class"
    assert cbar.get_ylabel() == "points per hand"
    assert P.caption_of(fig) == CAPTION
    assert [t.get_text() for t in ax.get_yticklabels()] == list(pd.unique(df.seat))
    assert [t.get_text() for t in ax.get_xticklabels()] == list(pd.unique(df.hand))
    # one annotation per cell, row-major, each the formatted value
    assert _texts(ax, "value") == ["{:+.2f}".format(v) for v in df.gain]
    # colours centred on 0: symmetric limits, the largest |value| at an end
    im = ax.images[0]
    assert im.norm.vmin == pytest.approx(-im.norm.vmax)
    assert im.norm.vmax == pytest.approx(df.gain.abs().max())


def test_heatmap_diverges_red_below_blue_above_center():
    df = pd.DataFrame(dict(r=["a", "a", "a"], c=["x", "y", "z"], v=[1.0, 2.0, 3.0]))
    fig = P.heatmap_figure(df, "r", "c", "v", center=2.0)
    im = fig.axes[0].images[0]
    r_lo, _, b_lo, _ = im.cmap(im.norm(1.0))
    r_mid, g_mid, b_mid, _ = im.cmap(im.norm(2.0))
    r_hi, _, b_hi, _ = im.cmap(im.norm(3.0))
    assert r_lo > b_lo and b_hi > r_hi
    assert min(r_mid, g_mid, b_mid) > 0.9                  # the centre is near white


def test_heatmap_low_counts_nan_and_intervals():
    df = _gain_frame()
    df.loc[1, "n"] = 12                                   # too few hands
    df.loc[4, "gain"] = np.nan                            # missing value: blank
    df = df[df.index != 7]                                # missing cell: blank
    fig = P.heatmap_figure(df, "seat", "hand", "gain", "t", CAPTION, ci_low="lo",
                           ci_high="hi", count="n")
    ax = fig.axes[0]
    assert _texts(ax, "low-count") == ["n<30"]
    hatched = [p for p in ax.patches if p.get_gid() == "low-count"]
    assert len(hatched) == 1 and hatched[0].get_hatch() == "///"
    assert hatched[0].get_xy() == (1 - 0.5, 0 - 0.5)        # row 0 (dealer), column 1
    keep = df[(df.n >= 30) & df.gain.notna()]
    assert _texts(ax, "value") == ["{:+.2f}".format(v) for v in keep.gain]
    assert _texts(ax, "ci") == ["±0.10"] * len(keep)          # a symmetric interval as its half-width
    data = ax.images[0].get_array()
    assert data.mask[0, 1] and data.mask[1, 1] and data.mask[2, 1]   # low, NaN, absent
    assert data.shape == (4, 3)


def test_heatmap_categorical_order_fmt_and_bad_input():
    df = pd.DataFrame(dict(r=["b", "a"], c=["x", "x"], v=[0.25, 0.5]))
    df["r"] = pd.Categorical(df.r, categories=["a", "b", "unused"])
    fig = P.heatmap_figure(df, "r", "c", "v", fmt="{:.0%}")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["a", "b"]
    assert _texts(ax, "value") == ["50%", "25%"]
    with pytest.raises(KeyError, match="nope"):
        P.heatmap_figure(df, "r", "c", "nope")
    with pytest.raises(ValueError, match="aggregate"):
        P.heatmap_figure(pd.DataFrame(dict(r=[1, 1], c=[1, 1], v=[0, 1])), "r", "c", "v")


def test_all_nan_and_empty_frames_draw_without_error(tmp_path):
    nan = pd.DataFrame(dict(r=["a"], c=["x"], v=[np.nan], n=[np.nan]))
    _png_ok(P.heatmap(nan, "r", "c", "v", tmp_path / "nan.png", "t", CAPTION, count="n"))
    empty = pd.DataFrame(dict(r=[], c=[], v=[]))
    fig = P.heatmap_figure(empty, "r", "c", "v", "t", CAPTION)
    assert _texts(fig.axes[0], "no-data") == ["no data"]
    _png_ok(P.bars(empty, "r", "v", tmp_path / "b.png", "t", CAPTION))
    _png_ok(P.lines(empty, "r", "v", tmp_path / "l.png", "t", CAPTION))
    _png_ok(P.score_heatmap(empty, "r", "c", "v", tmp_path / "s.png", "t", CAPTION),
            figsize=(8.0, 6.5))


def test_bars_error_bars_and_labels(tmp_path):
    df = pd.DataFrame(dict(seat=["dealer", "left", "partner", "right"],
                           gain=[0.3, -0.2, np.nan, 0.1]))
    df["lo"], df["hi"] = df.gain - 0.05, df.gain + 0.08
    path = P.bars(df, "seat", "gain", tmp_path / "b.png", "Gain by seat", CAPTION, "lo", "hi",
                  value_label="points per hand")
    _png_ok(path)
    fig = P.bars_figure(df, "seat", "gain", "Gain by seat", CAPTION, "lo", "hi",
                        value_label="points per hand")
    ax = fig.axes[0]
    assert ax.get_title() == "Gain by seat"
    assert ax.get_xlabel() == "seat" and ax.get_ylabel() == "points per hand"
    assert P.caption_of(fig) == CAPTION
    assert [t.get_text() for t in ax.get_xticklabels()] == list(df.seat)
    heights = [p.get_height() for p in ax.patches]
    assert heights[:2] == [0.3, -0.2] and math.isnan(heights[2]) and heights[3] == 0.1
    # the error bars span lo..hi for each finite bar
    segs = ax.collections[0].get_segments()
    spans = sorted((round(s[0][1], 6), round(s[1][1], 6)) for s in segs)
    want = sorted((round(lo, 6), round(hi, 6)) for lo, hi in zip(df.lo, df.hi) if not math.isnan(lo))
    assert spans == want
    assert _texts(ax, "bar-value") == ["0.30", "-0.20", "0.10"]
    assert any(abs(line.get_ydata()[0]) == 0 for line in ax.get_lines())   # zero line


def test_grouped_bars_percent_and_legend(tmp_path):
    df = pd.DataFrame(dict(players=[4, 4, 6, 6, 8], pack=["24", "32", "24", "32", "32"],
                           rate=[0.20, 0.25, 0.18, 0.22, 0.3]))
    df["lo"], df["hi"] = df.rate - 0.02, df.rate + 0.02
    _png_ok(P.bars(df, "players", "rate", tmp_path / "g.png", "Euchre rate", CAPTION, "lo",
                   "hi", group="pack", value_label="% of hands", percent=True,
                   category_label="players"))
    fig = P.bars_figure(df, "players", "rate", "Euchre rate", CAPTION, "lo", "hi",
                        group="pack", value_label="% of hands", percent=True)
    ax = fig.axes[0]
    leg = ax.get_legend()
    assert leg.get_title().get_text() == "pack"
    assert [t.get_text() for t in leg.get_texts()] == ["24", "32"]
    assert len(ax.patches) == 6                            # 3 categories x 2 packs
    x24 = [p.get_x() for p in ax.patches[:3]]
    x32 = [p.get_x() for p in ax.patches[3:]]
    assert all(a < b for a, b in zip(x24, x32))           # side by side
    assert math.isnan(ax.patches[2].get_height())          # no 24-card 8-player run
    assert float(ax.yaxis.get_major_formatter()(0.25, 0).rstrip("%")) == 25
    assert "20.0%" in _texts(ax, "bar-value")


def test_threshold_zero_line_bands_and_crossings(tmp_path):
    rows = []
    for seat in (1, 2):
        for pts in range(0, 12):
            y = (pts - 5 - seat) * 0.1
            rows.append(dict(seat=seat, pts=pts, y=y, lo=y - 0.05, hi=y + 0.05))
    df = pd.DataFrame(rows).sample(frac=1.0, random_state=1)   # unsorted x is sorted
    df.loc[df.pts == 2, "y"] = np.nan                         # a gap, not an error
    path = P.threshold(df, "pts", "y", tmp_path / "t.png", "Ordering up", CAPTION, "lo", "hi",
                       group="seat", x_label="hand points", y_label="points per hand")
    _png_ok(path)
    fig = P.threshold_figure(df, "pts", "y", "Ordering up", CAPTION, "lo", "hi", group="seat",
                             x_label="hand points", y_label="points per hand")
    ax = fig.axes[0]
    assert ax.get_title() == "Ordering up"
    assert ax.get_xlabel() == "hand points" and ax.get_ylabel() == "points per hand"
    assert P.caption_of(fig) == CAPTION
    assert [ln.get_gid() for ln in ax.get_lines()].count("zero") == 1
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    first = {1: "1 (0 at \u22486.0)", 2: "2 (0 at \u22487.0)"}
    assert legend == [first[g] for g in pd.unique(df.seat)]    # groups in order of appearance
    assert len(ax.collections) == 2                           # one band per seat
    data = [ln for ln in ax.get_lines() if ln.get_gid() is None]
    assert list(data[0].get_xdata()) == list(range(12))
    assert math.isnan(data[0].get_ydata()[2])


def test_zero_crossing():
    assert P.zero_crossing([0, 1, 2], [-1.0, -0.5, 0.5]) == pytest.approx(1.5)
    assert P.zero_crossing([0, 1, 2], [1.0, 2.0, 3.0]) is None
    assert P.zero_crossing([0, 1, 2, 3], [-1.0, np.nan, -0.5, 0.5]) == pytest.approx(2.5)


def test_score_heatmap_percent_ticks_and_nan(tmp_path):
    target = 5
    rows = [dict(us=i, them=j, p=1 / (1 + math.exp(-(i - j) / 2)))
            for i in range(target) for j in range(target)]
    df = pd.DataFrame(rows)
    df.loc[(df.us == 0) & (df.them == 3), "p"] = np.nan
    path = P.score_heatmap(df, "us", "them", "p", tmp_path / "s.png", "P(win)", CAPTION,
                           target=10)
    _png_ok(path, figsize=(8.0, 6.5))
    fig = P.score_heatmap_figure(df, "us", "them", "p", "P(win) by score", CAPTION)
    ax, cbar = fig.axes
    assert ax.get_title() == "P(win) by score"
    assert ax.get_ylabel() == "our score" and ax.get_xlabel() == "their score"
    assert cbar.get_ylabel() == "P(win)"
    assert P.caption_of(fig) == CAPTION
    ticks = [str(k) for k in range(target)]                  # target inferred: 5
    assert [t.get_text() for t in ax.get_xticklabels()] == ticks
    assert [t.get_text() for t in ax.get_yticklabels()] == ticks
    want = ["{:.0%}".format(v) for v in df.p if not math.isnan(v)]
    assert _texts(ax, "value") == want
    im = ax.images[0]
    assert (im.norm.vmin, im.norm.vmax) == (0.0, 1.0)
    assert im.get_array().mask[0, 3]
    assert im.get_array()[2, 2] == pytest.approx(0.5)


def test_lines_numeric_and_categorical_x(tmp_path):
    df = pd.DataFrame(dict(size=["24", "28", "32", "24", "28", "32"],
                           players=[4, 4, 4, 6, 6, 6], rate=[0.2, 0.22, 0.25, 0.15, np.nan, 0.2]))
    df["lo"], df["hi"] = df.rate - 0.01, df.rate + 0.01
    _png_ok(P.lines(df, "size", "rate", tmp_path / "l.png", "Rate by pack", CAPTION,
                    group="players", ci_low="lo", ci_high="hi", x_label="pack (cards)",
                    y_label="% of hands"))
    fig = P.lines_figure(df, "size", "rate", "Rate by pack", CAPTION, group="players",
                         x_label="pack (cards)", y_label="% of hands", percent=True)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "pack (cards)" and ax.get_ylabel() == "% of hands"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["24", "28", "32"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["4", "6"]
    assert not any(ln.get_gid() == "zero" for ln in ax.get_lines())
    fig = P.lines_figure(df[df.players == 4], "size", "rate", zero_line=True)
    assert fig.axes[0].get_legend() is None
    assert [ln.get_gid() for ln in fig.axes[0].get_lines()].count("zero") == 1
    with pytest.raises(ValueError, match="aggregate"):
        P.lines_figure(df, "players", "rate")               # two rows per x, no group


def test_values_rounding_to_zero_read_as_zero():
    df = pd.DataFrame(dict(r=["a", "a"], c=["x", "y"], v=[-0.001, 0.5], lo=[-0.2, 0.4],
                           hi=[-0.0001, 0.6]))
    ax = P.heatmap_figure(df, "r", "c", "v", ci_low="lo", ci_high="hi").axes[0]
    assert _texts(ax, "value") == ["+0.00", "+0.50"]
    assert _texts(ax, "ci")[0] == "[-0.20, +0.00]"


def test_every_number_in_a_heatmap_cell_is_readable_at_the_size_shown():
    """16 columns of value and interval (the order-up heatmap): no number under NUMBER_PT, the figure widened."""
    from euchresim.plots.grids import interval_text
    rows = [dict(r=r, c=c, v=-0.62 + 0.1 * c, lo=-0.64 + 0.1 * c, hi=-0.60 + 0.1 * c)
            for r in range(4) for c in range(16)]
    fig = P.heatmap_figure(pd.DataFrame(rows), "r", "c", "v", ci_low="lo", ci_high="hi")
    sizes = [t.get_fontsize() for t in fig.axes[0].texts if t.get_gid() in ("value", "ci")]
    assert len(sizes) == 128 and min(sizes) >= P.drawing.NUMBER_PT
    assert fig.get_size_inches()[0] > P.FIGSIZE[0]
    assert interval_text("{:+.2f}", 0.5, 0.4, 0.6) == "±0.10"
    assert interval_text("{:+.1%}", 0.5, 0.41, 0.58) == "[+41.0%, +58.0%]"   # a Wilson interval keeps both ends



def test_call_grid_words_colours_and_outlines():
    df = pd.DataFrame(dict(seat=["dealer", "dealer", "left", "left"], hand=["2T R", "3T R", "2T R", "3T R"],
                           call=["order", "close", "pass", "order"], differ=["dd", "", "", ""]))
    fig = P.call_grid_figure(df, "seat", "hand", "call", marked="differ", title="t", caption=CAPTION)
    ax = fig.axes[0]
    assert _texts(ax, "value") == ["order", "close", "pass", "order"]
    assert min(t.get_fontsize() for t in ax.texts if t.get_gid() == "value") >= P.drawing.NUMBER_PT
    cells = [p for p in ax.patches if p.get_gid() == "call"]
    from matplotlib.colors import to_hex
    assert [to_hex(p.get_facecolor()) for p in cells] == ["#2166ac", "#e0e0e0", "#b2182b", "#2166ac"]
    marked = [p for p in ax.patches if p.get_gid() == "marked"]
    assert len(marked) == 1 and marked[0].get_x() == pytest.approx(-0.44)      # row 0, column 0 only


def test_decision_card_draws_each_panel_as_the_call_grid_does(tmp_path):
    """The one-page card (issue 36) is the report's call grids stacked: each panel's words, gains, colours and
    outlines are those call_grid_figure draws for the same frame, so the card and the charts never disagree."""
    r1 = pd.DataFrame(dict(seat=["dealer", "dealer", "left"], hand=["2T R", "3T R", "4+T RL"],
                           call=["order", "close", "too few hands"], gain=[1.37, 0.04, 0.3], differ=["", "dd", ""]))
    r2 = pd.DataFrame(dict(seat=["left", "right"], hand=["3T R", "2T R"], call=["call", "pass"],
                           gain=[0.5, -0.61], differ=["", ""]))
    fig = P.decision_card_figure([("Round one", r1), ("Round two", r2), ("empty", r1.iloc[:0])], "seat", "hand",
                                 "call", title="When to call", caption=CAPTION, value="gain", marked="differ")
    assert len(fig.axes) == 2 and [ax.get_title() for ax in fig.axes] == ["Round one", "Round two"]
    for ax, df in zip(fig.axes, (r1, r2)):
        one = P.call_grid_figure(df, "seat", "hand", "call", value="gain", marked="differ").axes[0]
        for gid in ("value", "gain"):
            assert _texts(ax, gid) == _texts(one, gid)
        from matplotlib.colors import to_hex
        assert [to_hex(p.get_facecolor()) for p in ax.patches if p.get_gid() == "call"] == \
            [to_hex(p.get_facecolor()) for p in one.patches if p.get_gid() == "call"]
        assert len([p for p in ax.patches if p.get_gid() == "marked"]) == int((df["differ"] != "").sum())
    assert _texts(fig.axes[1], "gain") == ["+0.50", "-0.61"]
    loner = P.decision_card_figure([("alone", r2.assign(call=["alone", "don't"]))], "seat", "hand", "call")
    assert [to_hex(p.get_facecolor()) for p in loner.axes[0].patches if p.get_gid() == "call"] == \
        ["#2166ac", "#b2182b"]          # a loner card's words take the colours of order and pass
    # a column is one hand class down the page: round two's panel has round one's columns, in their order
    assert [t.get_text() for t in fig.axes[1].get_xticklabels()] == ["2T R", "3T R", "4+T RL"]
    assert [p.get_x() for p in fig.axes[1].patches if p.get_gid() == "call"] == [0.5, -0.5]    # 3T R, 2T R
    assert P.caption_of(fig) == CAPTION
    with pytest.raises(ValueError, match="at least one panel"):
        P.decision_card_figure([("x", r1.iloc[:0])], "seat", "hand", "call")
    path = P.decision_card([("Round one", r1)], "seat", "hand", "call", tmp_path / "card.png", value="gain")
    assert (tmp_path / "card.png").stat().st_size > 0 and str(path).endswith("card.png")


def test_call_grid_prints_each_cells_gain_and_tells_too_few_hands_from_close():
    """A toss-up ("close", grey) and an unmeasured cell ("few", white and hatched) never look alike, and each
    cell prints the gain the word stands for (issue 36: "close" on 51 hands read as a toss-up)."""
    df = pd.DataFrame(dict(seat=["dealer", "dealer", "left"], hand=["2T R", "3T R", "4+T RL"],
                           call=["order", "close", "too few hands"], gain=[1.37, 0.04, 0.3]))
    fig = P.call_grid_figure(df, "seat", "hand", "call", title="t", caption=CAPTION, value="gain")
    ax = fig.axes[0]
    assert _texts(ax, "value") == ["order", "close", "few"]
    assert _texts(ax, "gain") == ["+1.37", "+0.04", "+0.30"]
    from matplotlib.colors import to_hex
    cells = [p for p in ax.patches if p.get_gid() == "call"]
    assert [to_hex(p.get_facecolor()) for p in cells] == ["#2166ac", "#e0e0e0", "#ffffff"]
    assert [bool(p.get_hatch()) for p in cells] == [False, False, True]


def test_a_call_cell_under_30_hands_prints_its_count_not_a_mean():
    """No mean of a handful of hands printed as a gain (issue 36: "+2.00" from one hand): with ``count``, a cell
    under 30 hands prints n=K, the card as the chart."""
    df = pd.DataFrame(dict(seat=["dealer", "left", "left"], hand=["2T R", "3T R", "0-1T L"],
                           call=["order", "too few hands", "too few hands"], gain=[1.37, 0.3, 2.0], n=[400, 29, 1]))
    ax = P.call_grid_figure(df, "seat", "hand", "call", value="gain", count="n").axes[0]
    assert _texts(ax, "gain") == ["+1.37", "n=29", "n=1"]
    card = P.decision_card_figure([("one", df)], "seat", "hand", "call", value="gain", count="n").axes[0]
    assert _texts(card, "gain") == ["+1.37", "n=29", "n=1"]
    assert _texts(P.call_grid_figure(df, "seat", "hand", "call", value="gain").axes[0], "gain") == \
        ["+1.37", "+0.30", "+2.00"]                       # without counts, as before


def test_a_share_that_is_not_certain_is_never_printed_as_certain():
    from euchresim.plots.drawing import fmt_value
    assert fmt_value("{:.0%}", 0.995) == "99.5%" and fmt_value("{:.0%}", 0.9996) == "99.96%"
    assert fmt_value("{:.0%}", 1.0) == "100%" and fmt_value("{:.0%}", 0.0) == "0%"
    assert fmt_value("{:.0%}", 0.003) == "0.3%" and fmt_value("{:.0%}", 0.5) == "50%"
    assert fmt_value("{:+.2f}", -0.001) == "+0.00"
    assert fmt_value("{:+.1%}", 0.0001) == "+0.0%" and fmt_value("{:+.1%}", 0.228) == "+22.8%"   # a difference


def test_a_heatmap_of_percentages_has_its_scale_in_percent():
    """The win-probability report's order-minus-pass cells read +22.8% beside a scale that read 0.2."""
    import pandas as pd
    from euchresim.plots.grids import heatmap_figure
    df = pd.DataFrame({"ours": [9, 9, 8, 8], "theirs": [9, 8, 9, 8], "delta": [0.228, 0.09, -0.116, -0.083]})
    for fmt, want in (("{:+.1%}", "%"), ("{:+.2f}", None)):
        fig = heatmap_figure(df, "ours", "theirs", "delta", fmt=fmt)
        fig.canvas.draw()
        ticks = [t.get_text() for t in fig.axes[1].get_yticklabels() if t.get_text()]
        assert ticks and all(t.endswith("%") for t in ticks) is (want == "%"), (fmt, ticks)
        if want:
            assert any(t.startswith("+") for t in ticks) and "+0%" not in ticks, ticks
    small = df.assign(delta=[-0.008, 0.004, 0.012, 0.0])      # a scale of +-1.2 points: whole percents repeat
    fig = heatmap_figure(small, "ours", "theirs", "delta", fmt="{:+.1%}")
    fig.canvas.draw()
    ticks = [t.get_text() for t in fig.axes[1].get_yticklabels() if t.get_text()]
    assert len(set(ticks)) == len(ticks) and "-0%" not in ticks and "-0.0%" not in ticks, ticks


def test_every_report_bar_chart_names_its_category_axis():
    """Axes named after a scratch column ('what', 'where') or a file label ('heuristic_1') were defects: every
    bars(...) call of the reports gives category_label."""
    import glob
    import euchresim.report
    folder = os.path.dirname(euchresim.report.__file__)
    calls = 0
    for path in glob.glob(os.path.join(folder, "*.py")):
        text = open(path).read()
        start = text.find("plots.bars(")
        while start >= 0:
            depth, i = 0, start + len("plots.bars")
            while True:                                  # the call's text, to its matching parenthesis
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
                if depth == 0:
                    break
            assert "category_label=" in text[start:i], (path, text[start:start + 120])
            calls += 1
            start = text.find("plots.bars(", i)
    assert calls >= 3


def test_a_caption_of_long_names_and_digits_stays_inside_the_figure():
    """The order-up card's caption (two bots' whole definitions and a hand count) ran past the right edge at the
    characters-per-line estimate: the caption is measured and wrapped until it fits, and says the same words."""
    long = ("policy best, heuristic:human = pimc:bid_worlds=100:max_worlds=200,heuristic:order_1=6.401:"
            "order_2=6.599:order_3=6.348:order_4=6.899 · 1,784,167 hands · seed 1 · 4 players, 24 cards · no "
            "intervals drawn: each cell's 95% interval is in the report's CSV · " * 2)
    r1 = pd.DataFrame(dict(seat=["dealer"], hand=["2T R"], call=["order"], gain=[1.37]))
    for fig in (P.decision_card_figure([("Round one", r1)], "seat", "hand", "call", caption=long, value="gain"),
                P.call_grid_figure(r1, "seat", "hand", "call", caption=long, value="gain")):
        text = next(t for t in fig.texts if t.get_gid() == "caption")
        fig.canvas.draw()
        assert text.get_window_extent(fig.canvas.get_renderer()).x1 <= fig.bbox.width
        assert P.caption_of(fig).split() == long.split()
