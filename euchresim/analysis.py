"""Rates with confidence intervals from a run's merged tallies (pandas).

Tallies are integer counts that add up across chunks (sim.tally), so a
billion-hand run summarises in flat memory.  Proportions get Wilson score
intervals (good near 0 and 1, where euchre and march rates live); means get
a normal interval from the sum of squares.
"""
from __future__ import annotations

import math

import pandas as pd

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for k successes in n trials."""
    if n == 0:
        return (math.nan, math.nan)
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(total: float, total_sq: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = total / n
    var = max(0.0, total_sq / n - m * m) * (n / (n - 1) if n > 1 else 0.0)
    half = z * math.sqrt(var / n)
    return (m, m - half, m + half)


def position_names(players: int) -> list[str]:
    """Seat positions relative to the dealer: 1 is the dealer's left."""
    if players == 4:
        return ["dealer", "left", "partner", "right"]
    if players == 3:
        return ["dealer", "left", "right"]
    return ["dealer", "non-dealer"]


def summary_frame(c: dict, players: int) -> pd.DataFrame:
    """One row a statistic: what, kind (rate or mean), count, of, value, 95% interval."""
    rows = []
    names = position_names(players)

    def rate(label, k, n):
        lo, hi = wilson(k, n)
        rows.append({"statistic": label, "kind": "rate", "count": k, "of": n,
                     "value": (k / n) if n else math.nan, "ci_low": lo, "ci_high": hi})

    def mean(label, key, key_sq, n):
        m, lo, hi = mean_ci(c.get(key, 0), c.get(key_sq, 0), n)
        rows.append({"statistic": label, "kind": "mean", "count": c.get(key, 0), "of": n,
                     "value": m, "ci_low": lo, "ci_high": hi})

    hands = c.get("hands", 0)
    made = c.get("made", 0)
    rate("trump made", made, hands)
    order = [1 % players] + [p for p in range(2, players)] + [0]   # speaking order from the left
    for p in order:
        rate(f"made round 1 by {names[p]}", c.get(f"made_r1_pos{p}", 0), hands)
    rate("made round 2", sum(c.get(f"made_r2_pos{p}", 0) for p in range(players)), hands)
    for p in order:
        rate(f"made round 2 by {names[p]}", c.get(f"made_r2_pos{p}", 0), hands)
    rate("thrown in", c.get("thrown_in", 0), hands)
    if c.get("redeal", 0):
        rate("joker redeal", c["redeal"], hands)
    rate("makers took 3+ tricks", c.get("made_ok", 0), made)
    rate("makers euchred", c.get("euchred", 0), made)
    rate("march", c.get("march", 0), made)
    for p in order:
        rate(f"makers from {names[p]} took 3+", c.get(f"made_ok_pos{p}", 0), c.get(f"made_pos{p}", 0))
    if players > 2:
        rate("maker alone", c.get("maker_alone", 0), made)
        rate("lone maker took 3+", c.get("alone_made_ok", 0), c.get("maker_alone", 0))
        rate("lone maker marched", c.get("alone_march", 0), c.get("maker_alone", 0))
        rate("defender alone", c.get("defender_alone", 0), made)
    for p in order:
        mean(f"points per hand, {names[p]}", f"points_pos{p}", f"points_sq_pos{p}", hands)
    games = c.get("games", 0)
    if games:
        for p in order:
            label = f"games won by first dealer's {names[p]}" if p else "games won by first dealer"
            rate(label, c.get(f"wins_pos{p}", 0), games)
        mean("hands per game", "game_hands", "game_hands_sq", games)
        if c.get("bridge", 0):
            rate("games with a side at the bridge", c["bridge"], games)
        if players == 3:
            rate("shared wins", c.get("shared_wins", 0), games)
    rubbers = c.get("rubbers", 0)
    if rubbers:
        rate("rubbers won by seats 0 and 2", c.get("rubber_side0", 0), rubbers)
        mean("rubber margin", "rubber_margin", "rubber_margin_sq", rubbers)
        rows.append({"statistic": "games per rubber", "kind": "mean", "count": c.get("rubber_games", 0),
                     "of": rubbers, "value": c.get("rubber_games", 0) / rubbers,
                     "ci_low": math.nan, "ci_high": math.nan})
    return pd.DataFrame(rows)


def format_summary(df: pd.DataFrame) -> str:
    """A plain-text table a person reads at a glance."""
    lines = [f"{'statistic':38} {'value':>9}  {'95% interval':>19}  {'count':>10} {'of':>10}"]
    for r in df.itertuples(index=False):
        if r.kind == "rate":
            val = f"{100 * r.value:8.2f}%"
            ci = f"[{100 * r.ci_low:6.2f}, {100 * r.ci_high:6.2f}]%"
        else:
            val = f"{r.value:9.4f}"
            ci = "" if math.isnan(r.ci_low) else f"[{r.ci_low:7.4f}, {r.ci_high:7.4f}] "
        lines.append(f"{r.statistic:38} {val:>9}  {ci:>19}  {r.count:>10} {r.of:>10}")
    return "\n".join(lines)
