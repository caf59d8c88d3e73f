"""The order-up report's headline cells from targeted deals (``report order-up --classes ... --class-deals N``).

The round-one cells a player asks about first ("the dealer with two trumps
and the right") are a few percent of deals each, so an untargeted run
spends most of a slow bot's time on hands nobody asks about.  Here the
main model plays, at every seat, only deals whose seat holds one of the
classes (of the hand it plays: the dealer's with the upcard;
``studies.counterfactual``, targeted deals): N kept
deals per seat, of which those that reach the seat's call give the cells.

A targeted cell estimates the same quantity as the untargeted cell of its
class (the gain of ordering up, given the hand and that the call reached
the seat), on more deals.  The targeted deals are not a natural mix, so
they go into the headline cells only: never into the by-seat, upcard or
feature tables or the fitted count.  Their seed is derived from the
report's (``report.targeted_cells.targeted_seed``), so they are not the
untargeted run's deals and the two cells side by side are independent
estimates.  Each class's share of all deals comes from the deals dealt
and skipped (``analysis.targeted_stats``).
"""
from __future__ import annotations

import pandas as pd

from euchresim.analysis.call_stats import gain_table
from euchresim.report.paired_chunks import fmt_gain
from euchresim.report.replicate import replication_words, short_words
from euchresim.report.targeted_cells import targeted_deals

GAIN = ["n", "gain", "ci_low", "ci_high"]


def simulate(ctx, tab, order_positions: list[int], deal_frame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The main model's targeted round-one deals at every seat (rows of order_up's ``deal_frame``, passed in so
    the two modules do not import each other), and each class's share of all deals by seat."""
    played, shares = targeted_deals(ctx, "bid1", order_positions, "round 1")
    frames = [deal_frame(d, 1, ctx.rules.players, tab, ctx.policies[0]) for _, d in played if len(d["seat"])]
    df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(columns=["policy", "round", "position",
                                                                                  "hand_class", "gain", "took"])
    return df, shares


def headline_table(targeted: pd.DataFrame, shares: pd.DataFrame, by_class: pd.DataFrame, main: str,
                   order: list) -> pd.DataFrame:
    """One row per seat and class: the targeted cell, the class's share of all deals, the untargeted cell beside."""
    cells = gain_table(targeted, ["position", "hand_class"]) if len(targeted) else pd.DataFrame(
        columns=["position", "hand_class"] + GAIN)
    out = shares.merge(cells[["position", "hand_class"] + GAIN], on=["position", "hand_class"], how="left")
    out = out.rename(columns={"n": "reached"})
    out["reached"] = out["reached"].fillna(0).astype(int)
    out.insert(2, "policy", main)
    plain = by_class[(by_class["policy"] == main) & (by_class["round"] == 1)][["position", "hand_class"] + GAIN]
    plain = plain.assign(position=plain["position"].astype(str)).rename(
        columns={c: f"untargeted_{c}" for c in GAIN})
    out = out.merge(plain, on=["position", "hand_class"], how="left")
    out["untargeted_n"] = out["untargeted_n"].fillna(0).astype(int)
    rank = {p: i for i, p in enumerate(order)}
    out = out.sort_values(["position", "hand_class"], key=lambda s: s.map(rank) if s.name == "position" else s)
    return out.reset_index(drop=True)


def headline_text(head: pd.DataFrame, by_class: pd.DataFrame, policies: list, counted: str,
                  asked: int = 0) -> list[str]:
    """The "With a bower and two or three trumps" lines: the main model's targeted cells, the others' untargeted."""
    main = policies[0]
    classes = list(dict.fromkeys(head["hand_class"]))
    text = [f"With a bower and two or three trumps in round one ({main}'s figures from {counted}: "
            f"deals dealt until the seat held {', '.join(f'`{c}`' for c in classes)}, the rest "
            "skipped, and only those reaching the seat's call counted; the same gain as the untargeted cell of "
            "the class, on more hands, from deals of their own. The other models' figures are from their "
            "untargeted deals; `order_up_headline.csv` has the main model's untargeted cell beside and each "
            "class's share of all deals):\n"]
    r1 = by_class[(by_class["round"] == 1) & (by_class["policy"] != main)]
    for _, h in head.iterrows():
        share = f"{h['share']:.1%} of deals, {h['share_low']:.1%}-{h['share_high']:.1%}"
        parts = [fmt_gain({"gain": h["gain"], "ci_low": h["ci_low"], "ci_high": h["ci_high"], "n": h["reached"]},
                          f"{main}, targeted")]
        others = r1[(r1["position"].astype(str) == h["position"]) & (r1["hand_class"] == h["hand_class"])]
        again = replication_words(h)
        if again:
            parts[0] += f", {again}"
        parts[0] += short_words(int(h["reached"]), asked)
        parts += [fmt_gain(r, r["policy"]) for _, r in others.iterrows()]
        text.append(f"- {h['position']}, `{h['hand_class']}` ({share}): " + "; ".join(parts) + ".")
    text.append("")
    return text


def with_targeted(by_class: pd.DataFrame, head, main: str) -> pd.DataFrame:
    """``by_class`` with the main model's round-one cells of the targeted classes taken from their targeted deals.

    The targeted cell estimates the same gain on many more hands (this module), so the call a
    player reads off the opening chart is the better-measured one; the other models' cells are untouched.
    """
    if head is None or not len(head):
        return by_class
    out = by_class.copy()
    cells = head[head["reached"] > 0].set_index(["position", "hand_class"])
    rows = (out["policy"] == main) & (out["round"] == 1)
    for i in out.index[rows]:
        key = (str(out.at[i, "position"]), out.at[i, "hand_class"])
        if key in cells.index:
            c = cells.loc[key]
            out.loc[i, ["n", "gain", "ci_low", "ci_high"]] = [int(c["reached"]), c["gain"], c["ci_low"], c["ci_high"]]
    return out
