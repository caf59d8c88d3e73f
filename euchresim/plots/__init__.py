"""Charts for the strategy reports (matplotlib only; DataFrames in, PNG files out).

Every chart takes a tidy DataFrame and the names of its columns, a title, a
caption (e.g. "policy heuristic · 2,000,000 hands · seed 1 · 95% intervals",
drawn as small text under the axes) and a .png path; it writes the PNG
(8 x 5 inches at 120 dpi unless told otherwise) and returns the path.  Each
also has a ``*_figure`` twin that returns the ``matplotlib.figure.Figure``
unsaved, for tests or for composing; ``save(fig, path)`` writes one.

No pyplot: figures are built on ``matplotlib.figure.Figure`` with an Agg
canvas, so importing or using this package changes no global matplotlib state
(backend, open figures).  NaN values are drawn as blank cells or gaps.

- heatmap: value by (row, col), diverging colormap centred on `center`,
  annotated cells, low-count cells hatched and marked "n<30".
- bars: bars with 95% error bars, optionally grouped side by side.
- threshold: lines of y against x with interval bands, a zero line and where
  each line crosses it.
- score_heatmap: P(win) by (our score, their score), annotated in percent.
- call_grid: a call as a word by (row, col), coloured, cells where another model
  disagrees outlined: a chart to use at the table.
- decision_card: several call grids stacked on one page (each round, each
  decision), drawn by the same rules as call_grid: the page a player keeps.
- lines: a generic line chart with bands.
"""
from euchresim.plots.drawing import DPI, FIGSIZE, MIN_COUNT, PALETTE, caption_of, save
from euchresim.plots.charts import (bars, bars_figure, lines, lines_figure, threshold, threshold_figure, zero_crossing)
from euchresim.plots.grids import (call_grid, call_grid_figure, decision_card, decision_card_figure, heatmap,
                                   heatmap_figure, score_heatmap, score_heatmap_figure)

__all__ = ["heatmap", "heatmap_figure", "call_grid", "call_grid_figure", "decision_card", "decision_card_figure",
           "bars", "bars_figure", "threshold", "threshold_figure",
           "score_heatmap", "score_heatmap_figure", "lines", "lines_figure", "save",
           "caption_of", "zero_crossing", "DPI", "FIGSIZE", "MIN_COUNT", "PALETTE"]
