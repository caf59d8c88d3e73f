"""Annotated grids: calling gain by seat x hand class, P(win) by score."""
from __future__ import annotations

import math
import re

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from euchresim.plots import drawing as B


def _cmap(name: str):
    return matplotlib.colormaps[name].with_extremes(bad="#ffffff")


def _grid(df, row, col, cols_values, rows=None, cols=None):
    """Matrices (rows x cols) of each column in cols_values; keys missing from df are NaN."""
    rows = B.order(df[row]) if rows is None else list(rows)
    cols = B.order(df[col]) if cols is None else list(cols)
    ri = {r: i for i, r in enumerate(rows)}
    ci = {c: j for j, c in enumerate(cols)}
    keys = df[[row, col]]
    if keys.duplicated().any():
        dup = keys[keys.duplicated()].iloc[0].tolist()
        raise ValueError(f"more than one value for ({row}, {col}) = {tuple(dup)}; aggregate first")
    out = {name: np.full((len(rows), len(cols)), np.nan) for name in cols_values if name}
    rpos = [ri.get(r) for r in df[row]]
    cpos = [ci.get(c) for c in df[col]]
    for name in out:
        vals = B.floats(df[name])
        for k, (i, j) in enumerate(zip(rpos, cpos)):
            if i is not None and j is not None:
                out[name][i, j] = vals[k]
    return rows, cols, out


def _text_colour(cmap, norm, v) -> str:
    r, g, b, _ = cmap(norm(v))
    return "white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else "black"


def _annotation_pt(fig, nrows, ncols, chars: int, lines: int = 1) -> float:
    w_in, h_in = fig.get_size_inches()
    cell_w = w_in * 0.72 * 72 / max(ncols, 1)
    cell_h = h_in * 0.70 * 72 / max(nrows, 1)
    return float(max(B.NUMBER_PT, min(11.0, cell_w / (0.62 * max(chars, 1)), cell_h / (1.5 * lines + 0.3))))


def _fit_size(figsize, nrows, ncols, chars: int, lines: int) -> tuple[float, float]:
    """figsize, widened and heightened so that every cell holds its text at NUMBER_PT (what _annotation_pt assumes)."""
    w = ncols * 0.62 * (max(chars, 1) + 1) * B.NUMBER_PT / 72 / 0.72       # a glyph's room either side
    h = nrows * (1.5 * lines + 0.3) * B.NUMBER_PT / 72 / 0.70
    return max(figsize[0], w), max(figsize[1], h)


def interval_text(fmt: str, x: float, lo: float, hi: float) -> str:
    """"±h" when the interval is symmetric about x as printed (a normal interval), else "[lo, hi]" (Wilson).

    The short form is what lets the interval be printed as large as the value.
    """
    half = (hi - lo) / 2
    if B.fmt_value(fmt, x - half) == B.fmt_value(fmt, lo) and B.fmt_value(fmt, x + half) == B.fmt_value(fmt, hi):
        return "±" + B.fmt_value(fmt, half).lstrip("+")
    return f"[{B.fmt_value(fmt, lo)}, {B.fmt_value(fmt, hi)}]"


def _ticks(ax, rows, cols) -> None:
    xl = [B.label_of(c) for c in cols]
    yl = [B.label_of(r) for r in rows]
    ax.set_xticks(range(len(cols)), labels=xl)
    ax.set_yticks(range(len(rows)), labels=yl)
    if sum(len(s) for s in xl) > 60 or max((len(s) for s in xl), default=0) > 10:
        for t in ax.get_xticklabels():
            t.set_rotation(30)
            t.set_ha("right")
    # thin white lines between cells
    ax.set_xticks(np.arange(-0.5, len(cols), 1), minor=True)
    ax.set_yticks(np.arange(-0.5, len(rows), 1), minor=True)
    ax.grid(which="minor", color="white", linewidth=1.0)
    ax.tick_params(which="minor", length=0)
    for s in ax.spines.values():
        s.set_visible(False)


def _percent_ticks(sign: str, half: float):
    """A colorbar's tick labels in percent, with the digits the scale needs (a scale of +-1.2 points in whole
    percents read -1%, -0%, 0%, +1%, +1%) and a tick at zero as 0%."""
    digits = 0 if half >= 0.05 else 1 if half >= 0.005 else 2

    def label(x, _):
        s = f"{{:{sign}.{digits}%}}".format(x)
        return s if any(c in "123456789" for c in s) else "0%"
    return label


def heatmap_figure(df: pd.DataFrame, row, col, value, title: str = "", caption: str = "",
                   ci_low=None, ci_high=None, fmt: str = "{:+.2f}", center: float = 0.0,
                   row_label=None, col_label=None, value_label=None, count=None,
                   min_count: int = B.MIN_COUNT, cmap: str = "RdBu", figsize=B.FIGSIZE):
    """The heatmap as a Figure (not saved); see heatmap."""
    B.need(df, row, col, value, ci_low, ci_high, count)
    rows, cols, m = _grid(df, row, col, [value, ci_low, ci_high, count])
    with_ci = ci_low is not None and ci_high is not None
    labels, cis = {}, {}
    for (i, j), x in np.ndenumerate(m[value]):
        if math.isfinite(x):
            labels[i, j] = B.fmt_value(fmt, x)
            if with_ci and math.isfinite(m[ci_low][i, j]) and math.isfinite(m[ci_high][i, j]):
                cis[i, j] = interval_text(fmt, x, m[ci_low][i, j], m[ci_high][i, j])
    # a cell of too few hands prints "n<30" in place of its number: its width counts too, or it spills out of
    # a cell sized for "5%" (issue 36)
    low_label = f"n<{min_count}" if count is not None else ""
    chars = max([len(t) for t in list(labels.values()) + list(cis.values()) + ([low_label] if low_label else [])]
                or [5])
    fig, ax = B.new_figure(_fit_size(figsize, len(rows), len(cols), chars, 2 if with_ci else 1))
    B.titles(ax, title, col if col_label is None else col_label, row if row_label is None else row_label)
    if not rows or not cols:
        B.no_data(ax)
        return B.finish(fig, caption)
    v = m[value]
    low = np.zeros(v.shape, dtype=bool)
    if count is not None:
        n = m[count]
        low = ~np.isnan(v) & ~(n >= min_count)          # NaN count: unknown, so not trusted
    shown = np.where(low, np.nan, v)
    finite = shown[np.isfinite(shown)]
    half = float(np.max(np.abs(finite - center))) if finite.size else 0.0
    half = half if half > 0 else 1.0
    cm = _cmap(cmap)
    norm = Normalize(center - half, center + half)
    im = ax.imshow(np.ma.masked_invalid(shown), cmap=cm, norm=norm, aspect="auto",
                   interpolation="nearest")
    # the scale in the cells' unit: percentage-point cells beside a scale of fractions (+22.8% against 0.2)
    # made the reader convert
    pct = re.fullmatch(r"\{:([+ ]?)\.\d+%\}", fmt)
    cb = fig.colorbar(im, ax=ax, shrink=0.9, format=_percent_ticks(pct.group(1), half) if pct else None)
    cb.ax.tick_params(labelsize=B.TICK_PT - 1)
    cb.set_label(value if value_label is None else value_label, fontsize=B.LABEL_PT)
    _ticks(ax, rows, cols)

    pt = _annotation_pt(fig, len(rows), len(cols), chars, 2 if with_ci else 1)
    for i in range(len(rows)):
        for j in range(len(cols)):
            x = v[i, j]
            if low[i, j]:
                ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor="#d9d9d9",
                                       edgecolor="#8c8c8c", hatch="///", linewidth=0.0,
                                       gid="low-count"))
                ax.text(j, i, low_label, ha="center", va="center", fontsize=pt,
                        color="#404040", gid="low-count")
                continue
            if not math.isfinite(x):
                continue                                # blank cell
            tc = _text_colour(cm, norm, x)
            if with_ci:
                ax.text(j, i, labels[i, j], ha="center", va="bottom", fontsize=pt, color=tc, gid="value")
                if (i, j) in cis:
                    ax.text(j, i, cis[i, j], ha="center", va="top", fontsize=max(B.NUMBER_PT, pt * 0.9),
                            color=tc, gid="ci")
            else:
                ax.text(j, i, labels[i, j], ha="center", va="center", fontsize=pt, color=tc, gid="value")
    ax.set_xlim(-0.5, len(cols) - 0.5)
    ax.set_ylim(len(rows) - 0.5, -0.5)                  # first row on top
    return B.finish(fig, caption)


def heatmap(df: pd.DataFrame, row, col, value, path, title: str = "", caption: str = "",
            ci_low=None, ci_high=None, fmt: str = "{:+.2f}", center: float = 0.0,
            row_label=None, col_label=None, value_label=None, count=None,
            min_count: int = B.MIN_COUNT, cmap: str = "RdBu", figsize=B.FIGSIZE, dpi: int = B.DPI):
    """Grid of df[value] by (row, col) on a diverging colormap centred on `center`.

    With "RdBu" (the default) values below `center` are red and above it blue,
    e.g. calling gain: red where passing is better, blue where calling is.
    Each cell shows fmt.format(value) (and "[low, high]" under it when ci_low
    and ci_high are given).  With `count`, cells with fewer than min_count
    hands are grey, hatched and read "n<30" instead.  Rows and columns come in
    the order they first appear in df (or their categorical order); missing or
    NaN cells stay blank.  Writes the PNG at path and returns path.
    """
    fig = heatmap_figure(df, row, col, value, title, caption, ci_low, ci_high, fmt, center,
                         row_label, col_label, value_label, count, min_count, cmap, figsize)
    return B.save(fig, path, dpi)


def score_heatmap_figure(df: pd.DataFrame, ours, theirs, value, title: str = "", caption: str = "",
                         target=None, ours_label: str = "our score",
                         theirs_label: str = "their score", value_label: str = "P(win)",
                         fmt: str = "{:.0%}", cmap: str = "viridis", figsize=(8.0, 6.5)):
    """The score heatmap as a Figure (not saved); see score_heatmap."""
    B.need(df, ours, theirs, value)
    fig, ax = B.new_figure(figsize)
    B.titles(ax, title, theirs_label, ours_label)
    o = B.floats(df[ours])
    t = B.floats(df[theirs])
    if target is None:
        finite = np.concatenate([o[np.isfinite(o)], t[np.isfinite(t)]])
        target = int(finite.max()) + 1 if finite.size else 0
    target = int(target)
    if target <= 0:
        B.no_data(ax)
        return B.finish(fig, caption)
    keep = np.isfinite(o) & np.isfinite(t) & (o >= 0) & (o < target) & (t >= 0) & (t < target)
    sub = pd.DataFrame({"o": o[keep].astype(int), "t": t[keep].astype(int),
                        "v": B.floats(df[value])[keep]})
    _, _, m = _grid(sub, "o", "t", ["v"], rows=range(target), cols=range(target))
    v = m["v"]
    cm = _cmap(cmap)
    norm = Normalize(0.0, 1.0)
    im = ax.imshow(np.ma.masked_invalid(v), cmap=cm, norm=norm, origin="lower", aspect="auto",
                   interpolation="nearest")
    cb = fig.colorbar(im, ax=ax, shrink=0.9, format=lambda x, _: f"{x:.0%}")
    cb.ax.tick_params(labelsize=B.TICK_PT - 1)
    cb.set_label(value_label, fontsize=B.LABEL_PT)
    ticks = list(range(target))
    ax.set_xticks(ticks, labels=[str(k) for k in ticks])
    ax.set_yticks(ticks, labels=[str(k) for k in ticks])
    ax.set_xticks(np.arange(-0.5, target, 1), minor=True)
    ax.set_yticks(np.arange(-0.5, target, 1), minor=True)
    ax.grid(which="minor", color="white", linewidth=0.8)
    ax.tick_params(which="minor", length=0)
    for s in ax.spines.values():
        s.set_visible(False)
    pt = _annotation_pt(fig, target, target, 4)
    for i in range(target):
        for j in range(target):
            x = v[i, j]
            if math.isfinite(x):
                ax.text(j, i, B.fmt_value(fmt, x), ha="center", va="center", fontsize=pt,
                        color=_text_colour(cm, norm, x), gid="value")
    return B.finish(fig, caption)


def score_heatmap(df: pd.DataFrame, ours, theirs, value, path, title: str = "",
                  caption: str = "", target=None, ours_label: str = "our score",
                  theirs_label: str = "their score", value_label: str = "P(win)",
                  fmt: str = "{:.0%}", cmap: str = "viridis", figsize=(8.0, 6.5),
                  dpi: int = B.DPI):
    """P(win) (0..1) by (our score, their score): a sequential heatmap annotated in percent.

    Our score runs up the y axis, theirs along x, ticks 0..target-1 (target
    defaults to the largest score in df plus one); scores outside are dropped,
    missing cells stay blank.  Writes the PNG at path and returns path.
    """
    fig = score_heatmap_figure(df, ours, theirs, value, title, caption, target, ours_label,
                               theirs_label, value_label, fmt, cmap, figsize)
    return B.save(fig, path, dpi)


CALL_COLOURS = {"order": "#2166ac", "call": "#2166ac", "alone": "#2166ac", "defend": "#2166ac",
                "pass": "#b2182b", "don't": "#b2182b", "close": "#e0e0e0", "too few hands": "#ffffff"}


def call_grid_figure(df: pd.DataFrame, row, col, call, marked=None, title: str = "", caption: str = "",
                     row_label=None, col_label=None, figsize=B.FIGSIZE, value=None, fmt: str = "{:+.2f}",
                     count=None):
    """The call as a word in each cell ("order" or "call", "pass", "close", "too few hands"), coloured, with
    the gain under it when ``value`` is given; cells in df[marked] outlined.

    A chart to read at the table: words large, the number small under them;
    "too few hands" is white and hatched, so it never reads as a toss-up; a
    thick outline (not a colour, so it reads in grey too) says where another
    model gives the opposite answer (df[marked] non-empty). With ``count``
    (the hands behind each cell), a cell under 30 hands prints "n=12", not a
    mean of a dozen hands that would read as a measured gain.
    """
    B.need(df, row, col, call, marked, value, count)
    rows, cols = B.order(df[row]), B.order(df[col])
    chars, lines = _call_chars(df, call), 2 if value else 1
    fig, ax = B.new_figure(_fit_size(figsize, len(rows), len(cols), chars, lines))
    B.titles(ax, title, col if col_label is None else col_label, row if row_label is None else row_label)
    if not rows or not cols:
        B.no_data(ax)
        return B.finish(fig, caption)
    pt = max(B.NUMBER_PT + 1, _annotation_pt(fig, len(rows), len(cols), chars + 1, lines))   # bold: a glyph wider
    _call_cells(ax, df, row, col, call, marked, value, fmt, pt, count=count)
    return B.finish(fig, caption)


def _call_chars(df, call) -> int:
    """The longest word a cell prints ("too few hands" prints "few")."""
    return max([len(str(w)) for w in df[call] if str(w) != "too few hands"] or [5])


FEW = 30                        # hands under which a cell prints its count, not its mean (no normal interval)


def _call_cells(ax, df, row, col, call, marked, value, fmt, pt, cols=None, count=None) -> None:
    """Draw one grid of calls on ``ax``: its cells, words, gains and outlines (call_grid_figure's rules);
    ``cols`` the columns to show (a card's panels share theirs), else those of ``df``."""
    rows, cols = B.order(df[row]), B.order(df[col]) if cols is None else cols
    values = df[value] if value else [math.nan] * len(df)
    counts = df[count] if count else [math.inf] * len(df)
    cells = {(r, c): (w, bool(m) if marked else False, x, k)
             for r, c, w, m, x, k in zip(df[row], df[col], df[call], df[marked] if marked else [""] * len(df),
                                         values, counts)}
    _ticks(ax, rows, cols)
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            if (r, c) not in cells:
                continue
            word, mark, x, k = cells[r, c]
            few = str(word) == "too few hands"
            colour = CALL_COLOURS.get(str(word), "#ffffff")
            ax.add_patch(Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor=colour, edgecolor="#bdbdbd" if few else "white",
                                   hatch="///" if few else None, linewidth=1.0, gid="call"))
            text_colour = "black" if word in ("close", "too few hands") else "white"
            shown = "few" if few else str(word)              # the word that fits a cell; the caption says it
            ax.text(j, i, shown, ha="center", va="bottom" if value else "center", fontsize=pt,
                    color=text_colour, fontweight="normal" if word in ("close", "too few hands") else "bold",
                    gid="value")
            if value and (math.isfinite(x) or k < FEW):
                ax.text(j, i, f"n={int(k)}" if k < FEW else B.fmt_value(fmt, x), ha="center", va="top",
                        fontsize=max(B.NUMBER_PT, pt * 0.8), color=text_colour, gid="gain")
            if mark:
                ax.add_patch(Rectangle((j - 0.44, i - 0.42), 0.88, 0.84, fill=False, edgecolor="#ffbf00",
                                       linewidth=4.0, gid="marked"))
    ax.set_xlim(-0.5, len(cols) - 0.5)
    ax.set_ylim(len(rows) - 0.5, -0.5)


def decision_card_figure(panels, row, col, call, title: str = "", caption: str = "", row_label=None,
                         col_label=None, value=None, fmt: str = "{:+.2f}", marked=None, count=None):
    """Every decision of a report on one page a player can keep: one call grid per panel, stacked.

    ``panels`` is a list of (panel title, frame); each frame is drawn as
    call_grid_figure draws one (the same words, colours, gains and outlines),
    so the card and the report's own charts never disagree. The page is
    sized so that its largest panel's cells hold their words at the size
    the single charts use.
    """
    panels = [(t, d) for t, d in panels if len(d)]
    if not panels:
        raise ValueError("a decision card needs at least one panel with cells")
    for _, d in panels:
        B.need(d, row, col, call, marked, value, count)
    lines = 2 if value else 1
    chars = max(_call_chars(d, call) for _, d in panels)
    cols = _shared_columns([d[col] for _, d in panels])
    n_cols = len(cols)
    heights = [len(B.order(d[row])) + 1.2 for _, d in panels]          # a panel's rows and its title
    w, h1 = _fit_size((8.0, 0.0), 1, n_cols, chars, lines)
    fig = Figure(figsize=(w, max(4.0, h1 * sum(heights) + 1.5)), dpi=B.DPI, layout="constrained")
    FigureCanvasAgg(fig)
    axes = fig.subplots(len(panels), 1, gridspec_kw={"height_ratios": heights}, squeeze=False)[:, 0]
    fig.suptitle(title, fontsize=B.TITLE_PT)
    pt = B.NUMBER_PT + 1
    for ax, (sub, d) in zip(axes, panels):
        ax.tick_params(labelsize=B.TICK_PT)
        B.titles(ax, sub, col if col_label is None else col_label, row if row_label is None else row_label)
        _call_cells(ax, d, row, col, call, marked, value, fmt, pt, cols, count)
    return B.finish(fig, caption)


def _shared_columns(series: list) -> list:
    """The columns every panel of a card shows, so a column means one hand class down the page: the union
    of the panels' values, in the first's category order where the keys are categorical (the report gives
    them all the same categories), else in order of first appearance."""
    present = [v for s in series for v in B.order(s)]
    first = series[0]
    if isinstance(first.dtype, pd.CategoricalDtype) and set(present) <= set(first.cat.categories):
        return [c for c in first.cat.categories if c in set(present)]
    return list(dict.fromkeys(present))


def decision_card(panels, row, col, call, path, title: str = "", caption: str = "", row_label=None,
                  col_label=None, value=None, fmt: str = "{:+.2f}", marked=None, dpi: int = B.DPI, count=None):
    """Write decision_card_figure's page as a PNG at path; returns path."""
    return B.save(decision_card_figure(panels, row, col, call, title, caption, row_label, col_label, value, fmt,
                                       marked, count), path, dpi)


def call_grid(df: pd.DataFrame, row, col, call, path, marked=None, title: str = "", caption: str = "",
              row_label=None, col_label=None, figsize=B.FIGSIZE, dpi: int = B.DPI, value=None,
              fmt: str = "{:+.2f}", count=None):
    """Write call_grid_figure's chart as a PNG at path; returns path."""
    return B.save(call_grid_figure(df, row, col, call, marked, title, caption, row_label, col_label, figsize,
                                   value, fmt, count), path, dpi)
