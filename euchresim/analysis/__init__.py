"""Rates with confidence intervals from a run's merged tallies (pandas).

Tallies are integer counts that add up across chunks (run.runner.tally), so a
billion-hand run summarises in flat memory.  The intervals are euchresim.stats':
Wilson for proportions, a normal interval from the sum of squares for means.
"""
from __future__ import annotations

import math

import pandas as pd

from euchresim.rules import POSITION_NAMES
from euchresim.stats import mean_ci, wilson


def position_names(players: int) -> list[str]:
    """Seat positions relative to the dealer: 1 is the dealer's left (rules.POSITION_NAMES)."""
    return list(POSITION_NAMES[players])


def speaking_order(players: int) -> list[int]:
    """Positions in the order they speak: the dealer's left first, the dealer last."""
    return [p % players for p in range(1, players + 1)]


def side_names(players: int) -> tuple[str, str]:
    """The two sides a hand is seen from: the dealer's and everyone else's."""
    if players == 4:
        return "the dealer's side", "the other side"
    return "the dealer", "the others" if players == 3 else "the non-dealer"


def summary_frame(c: dict, players: int, policies=None, lone_defenders: bool = True) -> pd.DataFrame:
    """One row a statistic: what, kind (rate or mean), count, of, value, 95% interval.

    Rows come in groups (docs/summary.md defines each row and its
    denominator): how trump was made, by position relative to the dealer;
    how the makers fared; lone hands; points per hand by position; the
    same seen by side (the dealer's side, makers and defenders); by seat
    and policy when ``policies`` names more than one policy; whole games
    and rubbers when the run played them.  ``lone_defenders`` False (4
    players without defend-alone) leaves out a row that can only be 0.
    """
    rows = []
    names = position_names(players)

    def rate(label, k, n):
        lo, hi = wilson(k, n)
        rows.append({"statistic": label, "kind": "rate", "count": k, "of": n,
                     "value": (k / n) if n else math.nan, "ci_low": lo, "ci_high": hi})

    def mean(label, key, key_sq, n, scale=1):
        total, total_sq = c.get(key, 0), c.get(key_sq, 0)
        m, lo, hi = mean_ci(total / scale, total_sq / (scale * scale), n)
        rows.append({"statistic": label, "kind": "mean", "count": total / scale if scale != 1 else total,
                     "of": n, "value": m, "ci_low": lo, "ci_high": hi})

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
        if lone_defenders or c.get("defender_alone", 0):
            rate("defender alone", c.get("defender_alone", 0), made)
    for p in order:
        mean(f"points per hand, {names[p]}", f"points_pos{p}", f"points_sq_pos{p}", hands)
    _by_side(c, players, rate, mean)
    if policies is not None and len(set(policies)) > 1:
        _by_seat(c, players, list(policies), rate, mean)
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
    df = pd.DataFrame(rows)
    # counts stay whole numbers where they are (a halved sum is the one exception), not one float column
    df["count"] = pd.Series([r["count"] for r in rows], dtype=object)
    return df


def _dealer_side_positions(players: int) -> list[int]:
    return [0, 2] if players == 4 else [0]


def _by_side(c, players, rate, mean):
    """The dealer's side against the other, and the makers against the defenders."""
    hands, made = c.get("hands", 0), c.get("made", 0)
    mine = _dealer_side_positions(players)
    other = [p for p in range(players) if p not in mine]
    dealer_side, other_side = side_names(players)
    for label, pos in ((dealer_side, mine), (other_side, other)):
        n_made = sum(c.get(f"made_pos{p}", 0) for p in pos)
        rate(f"trump made by {label}", n_made, hands)
        if len(pos) > 1:        # one position: its row is above already
            rate(f"makers from {label} took 3+", sum(c.get(f"made_ok_pos{p}", 0) for p in pos), n_made)
    mean(f"edge of {dealer_side}, points per hand", "dealer_edge", "dealer_edge_sq", hands,
         scale=1 if players == 2 else 2)      # the tally holds twice the edge (run.runner.tally_names)
    mean("points per made hand, makers", "maker_points", "maker_points_sq", made)
    mean("points per made hand, each defender", "defender_points", "defender_points_sq", made)


def _by_seat(c, players, policies, rate, mean):
    """Seat by seat, named with its policy: which policy did better on the same deals."""
    hands = c.get("hands", 0)
    if len(policies) == 1:
        policies = policies * players
    for s in range(players):
        who = f"seat {s} ({policies[s]})"
        rate(f"{who} made trump", c.get(f"made_seat{s}", 0), hands)
        rate(f"{who} as maker took 3+", c.get(f"made_ok_seat{s}", 0), c.get(f"made_seat{s}", 0))
        mean(f"points per hand, {who}", f"points_seat{s}", f"points_sq_seat{s}", hands)
    if players in (2, 4):       # one paired difference, so its interval is not two intervals' overlap
        label = "points per hand, seats 0+2 less 1+3" if players == 4 else "points per hand, seat 0 less seat 1"
        mean(label, "side_diff", "side_diff_sq", hands)


def json_ready(value):
    """``value`` with every NaN as None, so ``json.dumps`` writes strict JSON (null, never NaN)."""
    if isinstance(value, float):
        return None if math.isnan(value) or math.isinf(value) else value
    if isinstance(value, dict):
        return {k: json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if hasattr(value, "item"):          # numpy scalars
        return json_ready(value.item())
    return value


def format_summary(df: pd.DataFrame) -> str:
    """A plain-text table a person reads at a glance; a rate with no hands shows a dash."""
    width = max([38] + [len(x) for x in df["statistic"]])
    lines = [f"{'statistic':{width}} {'value':>9}  {'95% interval':>19}  {'count':>10} {'of':>10}"]
    for r in df.itertuples(index=False):
        if isinstance(r.value, float) and math.isnan(r.value):
            val, ci = "-", ""
        elif r.kind == "rate":
            val = f"{100 * r.value:8.2f}%"
            ci = f"[{100 * r.ci_low:6.2f}, {100 * r.ci_high:6.2f}]%"
        else:
            val = f"{r.value:9.4f}"
            ci = "" if math.isnan(r.ci_low) else f"[{r.ci_low:7.4f}, {r.ci_high:7.4f}] "
        count = f"{r.count:g}" if isinstance(r.count, float) else f"{r.count}"
        lines.append(f"{r.statistic:{width}} {val:>9}  {ci:>19}  {count:>10} {r.of:>10}")
    return "\n".join(lines)
