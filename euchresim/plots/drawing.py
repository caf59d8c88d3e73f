"""Shared pieces of the charts: a pyplot-free Figure, the caption, saving, orders, colours.

Figures are ``matplotlib.figure.Figure`` objects with an Agg canvas attached
directly, so nothing here imports ``matplotlib.pyplot``, touches the global
backend or keeps figures alive in a registry.
"""
from __future__ import annotations

import math
import os
import re
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

FIGSIZE = (8.0, 5.0)        # inches
DPI = 120
TITLE_PT = 12
LABEL_PT = 11
TICK_PT = 10
CAPTION_PT = 8.5
NUMBER_PT = 9.0             # no number printed in a cell is smaller: ~15 px high at DPI, readable when shown at width
MIN_COUNT = 30              # cells/points with fewer hands are marked, not trusted

# Okabe-Ito: distinguishable under the common colour-vision deficiencies.
PALETTE = ("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7",
           "#56B4E9", "#F0E442", "#000000")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def color(i: int) -> str:
    return PALETTE[i % len(PALETTE)]


def marker(i: int) -> str:
    return MARKERS[i % len(MARKERS)]


def need(df: pd.DataFrame, *cols) -> None:
    """Raise a KeyError naming the columns (not None) that df lacks."""
    missing = [c for c in cols if c is not None and c not in df.columns]
    if missing:
        raise KeyError(f"missing column(s) {missing}; the frame has {list(df.columns)}")


def order(series: pd.Series) -> list:
    """Distinct values in a categorical's category order, else in order of first appearance.

    Unused categories are dropped; NaN keys are dropped.
    """
    if isinstance(series.dtype, pd.CategoricalDtype):
        present = set(series.dropna().unique())
        return [c for c in series.cat.categories if c in present]
    return [v for v in pd.unique(series) if not (isinstance(v, float) and math.isnan(v))]


def numeric(series: pd.Series) -> bool:
    return (pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series)
            and not isinstance(series.dtype, pd.CategoricalDtype))


def floats(series) -> np.ndarray:
    return pd.to_numeric(pd.Series(series), errors="coerce").to_numpy(dtype=float)


def label_of(v) -> str:
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))
    return str(v)


def fmt_value(fmt: str, x: float) -> str:
    """fmt.format(x), with a value that rounds to zero shown as zero ("+0.00", never "-0.00"), and a share
    that is not certain never shown as certain: 99.5% is "99.5%", not "100%" (a digit more, as many as it
    takes, up to four), 0.3% is "0.3%", not "0%".  A signed format is a difference, not a share: printed at
    its own precision ("+0.0%" beside "+0.4%", not "+0.01%"), or a chart's cells would mix precisions."""
    s = fmt.format(x)
    if s.lstrip().startswith("-") and not any(c in "123456789" for c in s):
        return fmt.format(0.0)
    m = re.fullmatch(r"\{:( ?)\.(\d+)%\}", fmt)
    if m and math.isfinite(x):
        digits = int(m.group(2))
        while digits < 4 and ((s.lstrip("+ ").startswith("100") and x < 1) or (float(s.rstrip("%")) == 0 and x > 0)):
            digits += 1
            s = f"{{:{m.group(1)}.{digits}%}}".format(x)
    return s


def new_figure(figsize=FIGSIZE) -> tuple[Figure, object]:
    # the layout engine is set before anything is drawn: colorbars then take
    # their space from the layout rather than stealing a fixed slice of the axes
    fig = Figure(figsize=figsize, dpi=DPI, layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    ax.tick_params(labelsize=TICK_PT)
    return fig, ax


def titles(ax, title: str, x_label: str | None, y_label: str | None) -> None:
    ax.set_title(title, fontsize=TITLE_PT)
    if x_label is not None:
        ax.set_xlabel(x_label, fontsize=LABEL_PT)
    if y_label is not None:
        ax.set_ylabel(y_label, fontsize=LABEL_PT)


def finish(fig: Figure, caption: str | None) -> Figure:
    """Put the caption as small text under the axes and lay the figure out around it."""
    width_in, height_in = fig.get_size_inches()
    reserve = 0.0
    if caption:
        # ~ characters per line at CAPTION_PT for this width (average glyph ~0.5 em); then measured: a caption of
        # long names and digits (a bot's whole definition) ran past the figure's right edge at that estimate
        per_line = max(20, int(width_in * 72 / (CAPTION_PT * 0.52)))
        renderer = fig.canvas.get_renderer()
        while True:
            lines = []
            for para in str(caption).splitlines() or [""]:
                lines.extend(textwrap.wrap(para, per_line) or [""])
            shown = fig.text(0.01, 0.01, "\n".join(lines), fontsize=CAPTION_PT, ha="left", va="bottom",
                             color="#333333", gid="caption")
            if per_line <= 20 or shown.get_window_extent(renderer).x1 <= 0.99 * fig.bbox.width:
                break
            shown.remove()
            per_line = max(20, int(per_line * 0.93))
        reserve = (len(lines) * CAPTION_PT * 1.3 + 8) / (height_in * 72)
    bottom = min(reserve, 0.4)
    try:        # constrained: rect is (left, bottom, width, height) in figure fractions
        fig.get_layout_engine().set(rect=(0.0, bottom, 1.0, 1.0 - bottom))
    except TypeError:   # older matplotlib without rect: leave room by hand
        fig.get_layout_engine().set(h_pad=max(0.04, bottom * fig.get_size_inches()[1] / 2))
    return fig


def caption_of(fig: Figure) -> str:
    """The caption text of a figure built here ('' when none), lines joined back with spaces."""
    for t in fig.texts:
        if t.get_gid() == "caption":
            return " ".join(t.get_text().split("\n"))
    return ""


def save(fig: Figure, path, dpi: int = DPI):
    """Write fig as a PNG at path (its folder made if missing), release it, return path."""
    p = Path(os.fspath(path))
    if p.parent and not p.parent.exists():
        p.parent.mkdir(parents=True, exist_ok=True)
    tmp = p.with_name(f"{p.name}.{os.getpid()}.tmp")
    fig.savefig(tmp, dpi=dpi, format="png")       # under a temporary name: a stop leaves no half PNG
    os.replace(tmp, p)
    fig.clear()
    return path


def no_data(ax) -> None:
    ax.text(0.5, 0.5, "no data", transform=ax.transAxes, ha="center", va="center",
            fontsize=LABEL_PT, color="#666666", gid="no-data")
    ax.set_xticks([])
    ax.set_yticks([])
