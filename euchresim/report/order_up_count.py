"""The order-up report's point count: fitted from the main model's deals, judged on deals it was not fitted on.

A count a player can use at the table (points per card class, a threshold
per seat), fitted by least squares on the main model's even chunks and
judged beside the published count, the bot's own calls and always passing,
on the odd chunks; refitted on seeded halves for its spread
(``analysis.count_error``). Split from ``order_up`` so each stays short.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from euchresim.analysis.call_stats import (PUBLISHED_CALL, PUBLISHED_URL, count_points, evaluate, fit_count,
                                      published_points, recovered)
from euchresim.analysis.count_error import REFITS, refits, spread
from euchresim.report import md_table


def count_tables(df: pd.DataFrame, policies: list) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, dict]:
    """Fit a count per round on the first model's even chunks; judge it and the published one on the rest."""
    first = policies[0]
    pts_rows, thr_rows, ev_rows, fits = [], [], [], {}
    spreads = []
    for rnd in (1, 2):
        sub = df[df["round"] == rnd]
        fitting = sub[(sub["policy"] == first) & (sub["chunk"] % 2 == 0)]
        if len(fitting) < 20:
            continue
        fit = fit_count(fitting)
        fits[rnd] = fit
        mine = sub[sub["policy"] == first]
        sp = spread(refits(mine, _baselines(mine, rnd, first))).assign(round=rnd)
        seat = dict(zip(sub["pos"].astype(str), sub["position"]))
        sp["name"] = np.where(sp["what"] == "threshold", sp["name"].map(seat), sp["name"])
        spreads.append(sp)
        for c, v in fit["points"].items():
            pts_rows.append({"round": rnd, "card_class": c, "points": v, "fitted_gain": fit["weights"][c]})
        for p, t in fit["thresholds"].items():
            name = sub[sub["pos"] == p]["position"].iloc[0]
            thr_rows.append({"round": rnd, "position": name, "pos": p, "fitted_threshold": t,
                             "published_threshold": PUBLISHED_CALL})
        for policy in policies:
            held = sub[(sub["policy"] == policy) & ((sub["chunk"] % 2 == 1) | (policy != first))]
            if not len(held):
                continue
            gain = held["gain"].to_numpy(float)
            score = count_points(held, fit["points"])
            thr = held["pos"].map(fit["thresholds"]).fillna(np.inf).to_numpy()
            rules = {"fitted count": score >= thr, **_baselines(held, rnd, policy),
                     "always call": np.ones(len(held), bool)}
            own = rules[f"{policy}'s own call"]
            for name, call in rules.items():
                ev_rows.append({"policy": policy, "round": rnd,
                                "deals_from": "odd chunks (held out)" if policy == first else "all",
                                "rule": name, **evaluate(gain, call), **recovered(gain, call, own)})
    spread_t = pd.concat(spreads, ignore_index=True) if spreads else pd.DataFrame()
    if len(spread_t):
        spread_t = spread_t[["round"] + [c for c in spread_t if c != "round"]]
    thr = with_refit_range(pd.DataFrame(thr_rows), spread_t)
    return pd.DataFrame(pts_rows), thr, pd.DataFrame(ev_rows), fits, spread_t


def with_refit_range(thr: pd.DataFrame, sp: pd.DataFrame, name_as: str = "position",
                     on=("round", "position")) -> pd.DataFrame:
    """Each fitted threshold beside the range its refits on other halves gave (refits_min, refits_max), and
    ``within`` whether the table's value lies in it: a table that its own refits never reproduce (the
    partner's 7 beside refits of 8 and 9) is a count fitted to one half's noise, and says so.  The refits'
    ``name`` is the threshold's ``name_as`` column (order-up: the seat; loner: the round, a number); a
    threshold without refits is not known to lie within (None), never "outside"."""
    if not len(thr) or not len(sp):
        return thr
    r = sp[sp["what"] == "threshold"][[c for c in on if c != name_as and c in sp] + ["name", "min", "max"]]
    r = r.rename(columns={"min": "refits_min", "max": "refits_max"})
    r = r.assign(**{name_as: r["name"].astype(thr[name_as].dtype)}).drop(columns="name")
    out = thr.merge(r, on=list(on), how="left")
    inside = (out["fitted_threshold"] >= out["refits_min"]) & (out["fitted_threshold"] <= out["refits_max"])
    out["within"] = inside.astype(object).where(out["refits_min"].notna(), None)
    return out


def outside_refits(thr: pd.DataFrame) -> pd.DataFrame:
    """The thresholds the refits never gave (``within`` False; None, no refits, is not among them)."""
    return thr[thr["within"].map(lambda w: w is False or w == False)]      # noqa: E712


def _baselines(held: pd.DataFrame, rnd: int, policy: str) -> dict:
    """The rules a fitted count is judged beside, as calls on every row of ``held``."""
    return {f"published count (call at {PUBLISHED_CALL}+)":
            published_points(held, with_upcard=rnd == 1) >= PUBLISHED_CALL,
            f"{policy}'s own call": held["took"].to_numpy(bool), "always pass": np.zeros(len(held), bool)}


def hands_counted(df: pd.DataFrame, policies: list) -> tuple[dict, dict]:
    """Each model's deals, and its round-one deals: the counts the captions give."""
    n_of = {p: int((df["policy"] == p).sum()) for p in policies}
    n_r1 = {p: int(((df["policy"] == p) & (df["round"] == 1)).sum()) for p in policies}
    return n_of, n_r1


TRUMP_RANKS = ("right", "left", "trump_ace", "trump_kq", "trump_low")      # high to low


def doubted_values_text(pts: pd.DataFrame) -> str:
    """A sentence where the fitted count gives a lower trump more points than a higher one (a trump nine
    worth 3 beside a left bower worth 1): why a player may trust it, and how far.  ``pts`` has a ``round``
    column for a count per round (order-up), none for one count of both rounds (loner)."""
    out = []
    groups = pts.groupby("round") if "round" in pts else [(None, pts)]
    for rnd, g in groups:
        v = dict(zip(g["card_class"], g["points"]))
        pairs = [(hi, lo) for k, hi in enumerate(TRUMP_RANKS) for lo in TRUMP_RANKS[k + 1:]
                 if hi in v and lo in v and v[lo] > v[hi]]
        if pairs:
            said = ", ".join(f"`{lo}` {v[lo]:g} above `{hi}` {v[hi]:g}" for hi, lo in pairs[:3])
            out.append(f"{f'Round {rnd}' if rnd is not None else 'The count'} gives some lower trumps more points than higher ones ({said}). A "
                       "weight is what a card adds to the gain with the rest of the hand held, fitted jointly: "
                       "every trump also counts toward the trumps a hand holds, and a hand with the left bower "
                       "is one that lacks it in its own suit, so the fit splits their worth between classes "
                       "that go together; the sum over a hand, not a card's weight alone, is what the count "
                       "says. How firmly each weight is fitted is in the refits below.")
    return ("\n".join(out) + "\n") if out else ""


def count_text(ctx, t: dict, charts: dict, policies: list, counts: dict) -> list[str]:
    """The fitted count, its thresholds, and both counts judged on the same deals; the charts' captions count
    the hands behind each chart (``counts``, as the charts' own captions do)."""
    pts, thr, ev = t["order_up_count_points"], t["order_up_count_thresholds"], t["order_up_count_eval"]
    if not len(pts):
        return []
    first = policies[0]
    text = ["## A point count to use at the table\n",
            f"Fitted by least squares of the paired gain on the hand's card classes, on the even "
            f"chunks of the {first} deals (right bower scaled to 4 points, whole points); each "
            "seat's threshold is the total from which calling maximised the net points of those "
            "deals. `up_signed` is the upcard: +1 when it goes to the seat's side (the dealer or "
            "the dealer's partner), -1 when it goes to the other side.\n",
            md_table(pts.assign(fitted_gain=pts["fitted_gain"].round(3))) + "\n",
            doubted_values_text(pts),
            md_table(thr.drop(columns=["pos"])) + "\n",
            _outside_refits_text(thr),
            f"Compared with the published count of euchrestrategy.info, \"Euchre Point System\" "
            f"({PUBLISHED_URL}): trump right bower 4, left 3, ace 3, king 2, queen 2, ten and nine 1 "
            "(7 and 8 of a 32-card pack also 1, the joker 4); the up-card's value (right 4, ace 3, "
            "king 2, queen 2, ten and nine 1) added when it goes to one's own side and subtracted "
            "when it goes to the opponents (round one only); 2 for each off-suit ace; 1 for being "
            f"two-suited. Applied as: call at {PUBLISHED_CALL} or more (the page's 7-9 \"call\"), "
            "pass below. Both are judged on the same deals, the fitted count on deals it was not "
            "fitted on: *agree* is the share of deals where the count's choice is the better (or an "
            "equal) option, *given up* the points a hand lost against the better option.\n"]
    for _, r in ev[ev["rule"].isin(["fitted count", f"published count (call at {PUBLISHED_CALL}+)"])].iterrows():
        text.append(f"- {r['rule']}, round {r['round']}, {r['policy']} ({r['deals']:,} deals, "
                    f"{r['deals_from']}): keeps {r['recovered']:.0%} ({r['recovered_low']:.0%}-"
                    f"{r['recovered_high']:.0%}) of {r['policy']}'s own gain over always passing, in points "
                    f"given up; gives up {r['given_up']:.3f} points a hand ({r['given_up_low']:.3f}-"
                    f"{r['given_up_high']:.3f}); picks the better call on {r['agree']:.1%} of the deals "
                    f"({r['agree_low']:.1%}-{r['agree_high']:.1%}; a tie counts as picking it, so this share "
                    "says little about the points at stake).")
    text.append("")
    text += _refit_text(t["order_up_count_refits"], first)
    if "threshold" in charts:
        text.append(f"![Threshold](threshold.png)\n\n*{ctx.caption(first, counts['threshold'], 'round one')}*\n")
    if "bars_counts" in charts:
        text.append(f"![Counts](bars_counts.png)\n\n*{ctx.caption(', '.join(policies), counts['bars_counts'])}*\n")
    return text


def _outside_refits_text(thr: pd.DataFrame) -> str:
    """A sentence naming the thresholds the refits never gave: read the refits' range for those seats."""
    if "within" not in thr:
        return ""
    off = outside_refits(thr)
    if not len(off):
        return ("Every threshold in the table lies within the range its refits on other halves of the deals "
                "gave (`refits_min`, `refits_max`).\n")
    said = "; ".join(f"round {r['round']}, {r['position']}: {r['fitted_threshold']:g} (refits "
                     f"{r['refits_min']:g}-{r['refits_max']:g})" for _, r in off.iterrows())
    return (f"Some thresholds lie outside the range their refits gave ({said}): a threshold is where calling "
            "stops paying on one half of the deals, and where the gain near it is flat it moves from half to "
            "half; use the refits' range for those seats.\n")


def refit_rule_lines(sp: pd.DataFrame) -> list[str]:
    """Each rule's held-out points given up over the refits, then its agreement (a tie counts as agreeing, so
    the share says little of the points at stake): "fitted count: gives up 0.374 points a hand held out ..."."""
    out = []
    given = sp[sp["what"] == "given_up"].set_index("name")
    for _, r in sp[sp["what"] == "agree"].iterrows():
        g = given.loc[r["name"]] if r["name"] in given.index else None
        out.append(f"{r['name']}: "
                   + (f"gives up {g['mean']:.3f} points a hand held out ({g['min']:.3f} to {g['max']:.3f}, "
                      f"SD {g['sd']:.3f}); " if g is not None else "")
                   + f"agrees {r['mean']:.2%} ({r['min']:.2%} to {r['max']:.2%}, SD {r['sd']:.2%}).")
    return out


def _refit_text(sp: pd.DataFrame, first: str) -> list[str]:
    """The count's own error: its points, thresholds and held-out agreement over refits on other halves."""
    if not len(sp):
        return []
    text = [f"How much the count moves with the deals it is fitted on: refitted {REFITS} times on the "
            f"{first} deals, each time on a seeded random half and judged on the other half, beside the "
            "baselines judged on the same held-out half (mean, and min to max over refits; "
            "`order_up_count_refits.csv` has the SD too):\n"]
    for rnd, g in sp.groupby("round", sort=True):
        pts = g[g["what"] == "points"]
        thr = g[g["what"] == "threshold"]
        text.append(f"- round {rnd}, points: " + ", ".join(
            f"{r['name']} {r['mean']:.1f} ({r['min']:.0f} to {r['max']:.0f})" for _, r in pts.iterrows())
            + "; thresholds by seat: " + ", ".join(
            f"{r['name']} {r['mean']:.1f} ({r['min']:.0f} to {r['max']:.0f})" for _, r in thr.iterrows()) + ".")
        for line in refit_rule_lines(g):
            text.append(f"- round {rnd}, {line}")
    text.append("")
    return text
