"""Bars with error bars, threshold charts and line charts with interval bands."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from matplotlib.ticker import PercentFormatter

from euchresim.plots import drawing as B


def _aligned(df, key, keys, cols):
    """Arrays of each column in cols (None -> all NaN) aligned to keys by df[key]."""
    dups = df[key].duplicated()
    if dups.any():
        dup = df[key][dups].iloc[0]
        raise ValueError(f"more than one row for {key} = {B.label_of(dup)}; aggregate first "
                         "(or pass group=)")
    pos = {k: i for i, k in enumerate(keys)}
    out = []
    for c in cols:
        a = np.full(len(keys), np.nan)
        if c is not None:
            for k, v in zip(df[key], B.floats(df[c])):
                if k in pos:
                    a[pos[k]] = v
        out.append(a)
    return out


def _groups(df, group):
    if group is None:
        return [(None, df)]
    return [(g, df[df[group] == g]) for g in B.order(df[group])]


def _rotate_if_long(ax, labels) -> None:
    if sum(len(s) for s in labels) > 60 or max((len(s) for s in labels), default=0) > 12:
        for t in ax.get_xticklabels():
            t.set_rotation(30)
            t.set_ha("right")


def bars_figure(df: pd.DataFrame, category, value, title: str = "", caption: str = "",
                ci_low=None, ci_high=None, group=None, value_label=None, percent: bool = False,
                category_label=None, fmt=None, annotate: bool = True, figsize=B.FIGSIZE):
    """The bar chart as a Figure (not saved); see bars."""
    B.need(df, category, value, ci_low, ci_high, group)
    fig, ax = B.new_figure(figsize)
    B.titles(ax, title, category if category_label is None else category_label,
             value if value_label is None else value_label)
    cats = B.order(df[category])
    groups = _groups(df, group)
    if not cats or not groups:
        B.no_data(ax)
        return B.finish(fig, caption)
    fmt = fmt or ("{:.1%}" if percent else "{:.2f}")
    width = 0.8 / len(groups)
    xs = np.arange(len(cats), dtype=float)
    annotate = annotate and len(cats) * len(groups) <= 30
    pt = B.TICK_PT - 1 if len(cats) * len(groups) <= 12 else B.TICK_PT - 2
    any_neg = False
    data = [_aligned(sub, category, cats, [value, ci_low, ci_high]) for _, sub in groups]
    # A label goes above a positive bar and below a negative one.  A zero bar's goes above only when
    # some bar or interval rises above 0: otherwise the axis' top is the zero line itself (bars stick
    # to 0, so the margins add no headroom there) and a label above it runs out of the axes into the title.
    room_above = any(np.any(a[np.isfinite(a)] > 0) for v, _, hi in data for a in (v, hi))
    for k, ((g, _), (v, lo, hi)) in enumerate(zip(groups, data)):
        x = xs + (k - (len(groups) - 1) / 2) * width
        label = None if g is None else B.label_of(g)
        ax.bar(x, v, width=width * 0.92, color=B.color(k), label=label, zorder=2)
        if ci_low is not None or ci_high is not None:
            below = np.clip(v - lo, 0, None)
            above = np.clip(hi - v, 0, None)
            ok = np.isfinite(v) & (np.isfinite(below) | np.isfinite(above))
            if ok.any():
                err = np.vstack([np.nan_to_num(below[ok]), np.nan_to_num(above[ok])])
                ax.errorbar(x[ok], v[ok], yerr=err, fmt="none", ecolor="#222222",
                            elinewidth=1.1, capsize=3, zorder=3)
        any_neg |= bool(np.any(v[np.isfinite(v)] < 0) or np.any(lo[np.isfinite(lo)] < 0))
        if annotate:
            for xi, vi, li, hi_ in zip(x, v, lo, hi):
                if not math.isfinite(vi):
                    continue
                if vi > 0 or (vi == 0 and room_above):
                    top = hi_ if math.isfinite(hi_) else vi
                    ax.annotate(B.fmt_value(fmt, vi), (xi, top), xytext=(0, 2),
                                textcoords="offset points", ha="center", va="bottom",
                                fontsize=pt, gid="bar-value")
                else:
                    bot = li if math.isfinite(li) else vi
                    ax.annotate(B.fmt_value(fmt, vi), (xi, bot), xytext=(0, -2),
                                textcoords="offset points", ha="center", va="top",
                                fontsize=pt, gid="bar-value")
    labels = [B.label_of(c) for c in cats]
    ax.set_xticks(xs, labels=labels)
    _rotate_if_long(ax, labels)
    if any_neg:
        ax.axhline(0.0, color="#444444", linewidth=0.8, zorder=1)
    if percent:
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.margins(y=0.12)
    ax.grid(axis="y", color="#e5e5e5", zorder=0)
    ax.set_axisbelow(True)
    for s in ("top", "right"):
        ax.spines[s].set_visible(False)
    if group is not None:
        ax.legend(title=str(group), fontsize=B.TICK_PT - 1, title_fontsize=B.TICK_PT,
                  frameon=False)
    return B.finish(fig, caption)


def bars(df: pd.DataFrame, category, value, path, title: str = "", caption: str = "",
         ci_low=None, ci_high=None, group=None, value_label=None, percent: bool = False,
         category_label=None, fmt=None, annotate: bool = True, figsize=B.FIGSIZE,
         dpi: int = B.DPI):
    """Bars of df[value] by category with 95% error bars (ci_low..ci_high).

    With `group`, one bar per group side by side within each category and a
    legend (e.g. pack within player count).  percent=True reads values as
    fractions and shows the axis in %.  Each bar is labelled with its value
    (fmt, "{:.1%}"/"{:.2f}" by default) when there are at most 30 bars.
    Writes the PNG at path and returns path.
    """
    fig = bars_figure(df, category, value, title, caption, ci_low, ci_high, group, value_label,
                      percent, category_label, fmt, annotate, figsize)
    return B.save(fig, path, dpi)


def zero_crossing(xs, ys):
    """x where the line first goes from below 0 to 0 or above (linear between points), or None."""
    xs = np.asarray(xs, dtype=float)
    ys = np.asarray(ys, dtype=float)
    for i in range(len(xs) - 1):
        y0, y1 = ys[i], ys[i + 1]
        if not (math.isfinite(y0) and math.isfinite(y1) and math.isfinite(xs[i])
                and math.isfinite(xs[i + 1])):
            continue
        if y0 < 0 <= y1:
            return float(xs[i] + (xs[i + 1] - xs[i]) * (-y0) / (y1 - y0))
    return None


def lines_figure(df: pd.DataFrame, x, y, title: str = "", caption: str = "", group=None,
                 ci_low=None, ci_high=None, x_label=None, y_label=None, zero_line: bool = False,
                 mark_crossings: bool = False, percent: bool = False, figsize=B.FIGSIZE):
    """The line chart as a Figure (not saved); see lines."""
    B.need(df, x, y, ci_low, ci_high, group)
    fig, ax = B.new_figure(figsize)
    B.titles(ax, title, x if x_label is None else x_label, y if y_label is None else y_label)
    groups = _groups(df, group)
    if df.empty or not groups:
        B.no_data(ax)
        return B.finish(fig, caption)
    is_num = B.numeric(df[x])
    if is_num:
        keys = sorted(v for v in pd.unique(B.floats(df[x])) if math.isfinite(v))
        xs = np.asarray(keys, dtype=float)
    else:
        keys = B.order(df[x])
        xs = np.arange(len(keys), dtype=float)
    for k, (g, sub) in enumerate(groups):
        if is_num:
            sub = sub.assign(**{x: B.floats(sub[x])})
        v, lo, hi = _aligned(sub, x, keys, [y, ci_low, ci_high])
        label = None if g is None else B.label_of(g)
        if mark_crossings and is_num:
            xc = zero_crossing(xs, v)
            if xc is not None:
                label = f"{label + ' ' if label else ''}(0 at \u2248{xc:.1f})"
                ax.plot([xc], [0.0], marker="|", markersize=14, markeredgewidth=2,
                        color=B.color(k), zorder=4, gid="crossing")
        ax.plot(xs, v, color=B.color(k), marker=B.marker(k), markersize=4, linewidth=1.8,
                label=label, zorder=3)
        if ci_low is not None and ci_high is not None:
            band = np.isfinite(lo) & np.isfinite(hi)
            if band.any():
                ax.fill_between(xs, lo, hi, where=band, color=B.color(k), alpha=0.2,
                                linewidth=0, zorder=2, interpolate=False)
    if not is_num:
        labels = [B.label_of(c) for c in keys]
        ax.set_xticks(xs, labels=labels)
        _rotate_if_long(ax, labels)
    if zero_line:
        ax.axhline(0.0, color="#444444", linewidth=1.0, linestyle="--", zorder=1, gid="zero")
    if percent:
        ax.yaxis.set_major_formatter(PercentFormatter(1.0))
    ax.grid(color="#e5e5e5", zorder=0)
    ax.set_axisbelow(True)
    for s in ("top", "right"):
        ax.spines[s].set_visible(False)
    if group is not None or any(t.get_label() and not t.get_label().startswith("_")
                                for t in ax.get_lines()):
        ax.legend(title=None if group is None else str(group), fontsize=B.TICK_PT - 1,
                  title_fontsize=B.TICK_PT, frameon=False)
    return B.finish(fig, caption)


def lines(df: pd.DataFrame, x, y, path, title: str = "", caption: str = "", group=None,
          ci_low=None, ci_high=None, x_label=None, y_label=None, zero_line: bool = False,
          percent: bool = False, figsize=B.FIGSIZE, dpi: int = B.DPI):
    """Line(s) of df[y] against df[x], one per group, with a shaded ci_low..ci_high band.

    Numeric x is sorted; other x keeps its first-appearance (or categorical)
    order.  NaN values leave gaps.  Writes the PNG at path and returns path.
    """
    fig = lines_figure(df, x, y, title, caption, group, ci_low, ci_high, x_label, y_label,
                       zero_line, False, percent, figsize)
    return B.save(fig, path, dpi)


def threshold_figure(df: pd.DataFrame, x, y, title: str = "", caption: str = "", ci_low=None,
                     ci_high=None, group=None, x_label=None, y_label=None,
                     zero_line: bool = True, figsize=B.FIGSIZE):
    """The threshold chart as a Figure (not saved); see threshold."""
    return lines_figure(df, x, y, title, caption, group, ci_low, ci_high, x_label, y_label,
                        zero_line, True, False, figsize)


def threshold(df: pd.DataFrame, x, y, path, title: str = "", caption: str = "", ci_low=None,
              ci_high=None, group=None, x_label=None, y_label=None, zero_line: bool = True,
              figsize=B.FIGSIZE, dpi: int = B.DPI):
    """E.g. the mean gain of ordering up against the hand's point count, one line per seat.

    A dashed zero line; where a line first rises through 0 (the threshold) a
    tick marks it and the legend reads "(0 at ~x)".  Bands are the intervals.
    Writes the PNG at path and returns path.
    """
    fig = threshold_figure(df, x, y, title, caption, ci_low, ci_high, group, x_label, y_label,
                           zero_line, figsize)
    return B.save(fig, path, dpi)
