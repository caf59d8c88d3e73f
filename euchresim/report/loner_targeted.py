"""The loner report's headline cells from targeted deals (``report loner --classes ... --class-deals N``).

"Go alone with four trumps and both bowers?" is asked of a hand one deal
in a few hundred holds, so a slow main model would spend nearly all its
time on makers nobody asks about.  Here it plays, at every seat position,
N deals whose seat holds one of the classes under the upcard's suit, of
the hand it plays (the dealer's with the upcard: ``analysis.call_stats.played_hand``;
``studies.counterfactual``, targeted deals), each played out alone
and with partner at the maker's choice; a deal counts only where that
seat made trump in round one.

Round one only, because only there is it exact: trump is then the
upcard's suit, so the class the deal was kept for (of the hand the seat
plays, the dealer's with the upcard) is the class ``loner.deal_frame``
gives the maker's hand under the trump made.  In round two trump is another
suit and the kept hand's class under it is not the one asked for, so
those deals are dropped; a joker upcard has no suit and is never kept.

The cell of all seats weighs each seat by how often a deal reaches the
cell there (``analysis.targeted_stats.pooled_by_reach``), as the untargeted cell
of all seats does by its nature; each seat's deals come from a stream of
its own (``report.targeted_cells.targeted_seed``), so the seats are independent
and their sums and the pooled interval honest.  The targeted deals go
into ``loner_headline.csv`` and the headline lines only: never into the
other tables or the fitted count.
"""
from __future__ import annotations

import pandas as pd

from euchresim.analysis import position_names, speaking_order
from euchresim.analysis.call_stats import class_order, gain_table
from euchresim.analysis.targeted_stats import mean_share, pooled_by_reach, seats_agree, seats_verdict
from euchresim.report.paired_chunks import fmt_gain
from euchresim.report.replicate import replication_words, short_words
from euchresim.report.targeted_cells import targeted_deals


ALL_SEATS = "all seats"
GAIN = ["n", "gain", "ci_low", "ci_high"]


def simulate(ctx, tab, deal_frame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The main model's targeted makers who made trump in round one, every seat (rows of loner's ``deal_frame``,
    passed in so the two modules do not import each other), and each class's share of all deals by seat."""
    players = ctx.rules.players
    played, shares = targeted_deals(ctx, "alone", speaking_order(players), "maker alone", with_trump=True,
                                    own_streams=True, counted=lambda d: int((d["make_round"] == 1).sum()))
    frames = [deal_frame(d, "maker", players, tab, ctx.policies[0]) for _, d in played if len(d["seat"])]
    df = pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["policy", "who", "round", "position", "hand_class", "gain", "took"])
    return df[df["round"] == 1].reset_index(drop=True), shares


def round_one(df: pd.DataFrame, policy: str) -> pd.DataFrame:
    """An untargeted model's makers in round one, upcard not the joker: the deals a targeted cell stands for."""
    return df[(df["policy"] == policy) & (df["who"] == "maker") & (df["round"] == 1) & (df["up_rank"] != "joker")]


def headline_table(targeted: pd.DataFrame, shares: pd.DataFrame, df: pd.DataFrame, main: str,
                   players: int) -> pd.DataFrame:
    """One row per seat and class, then one of all seats per class: the targeted cell, the class's share of
    all deals and the share reaching the cell (``cell_share``), the main model's untargeted cell beside."""
    cells = gain_table(targeted, ["position", "hand_class"]) if len(targeted) else pd.DataFrame(
        columns=["position", "hand_class"] + GAIN)
    out = shares.merge(cells[["position", "hand_class"] + GAIN], on=["position", "hand_class"], how="left")
    out = out.rename(columns={"n": "reached"})
    out["reached"] = out["reached"].fillna(0).astype(int)
    rows = []
    for c in dict.fromkeys(shares["hand_class"]):
        seats = out[out["hand_class"] == c]
        kept, dealt = int(seats["deals_kept"].sum()), int(seats["deals_dealt"].sum())
        mean = mean_share(seats["share"], seats["deals_dealt"])      # the dealer's class counts its upcard
        pooled = pooled_by_reach(targeted[targeted["hand_class"] == c],
                                 seats.set_index("position")["deals_dealt"])
        rows.append({"position": ALL_SEATS, "hand_class": c, "deals_kept": kept, "deals_dealt": dealt,
                     **mean,
                     "reached": pooled["n"], **{k: pooled[k] for k in GAIN[1:]}})
    out = pd.concat([out, pd.DataFrame(rows)], ignore_index=True)
    out.insert(2, "policy", main)
    seat = out["position"] != ALL_SEATS
    out.insert(out.columns.get_loc("reached") + 1, "reach_rate", out["reached"] / out["deals_kept"])
    cell = (out["reached"] / out["deals_dealt"]).where(seat)
    out.insert(out.columns.get_loc("reach_rate") + 1, "cell_share",
               cell.fillna(out["hand_class"].map(cell.groupby(out["hand_class"]).sum())))
    plain = round_one(df, main)
    untargeted = pd.concat([gain_table(plain, ["position", "hand_class"]),
                            gain_table(plain, ["hand_class"]).assign(position=ALL_SEATS)], ignore_index=True) \
        if len(plain) else pd.DataFrame(columns=["position", "hand_class"] + GAIN)
    untargeted = untargeted.assign(position=untargeted["position"].astype(str))[["position", "hand_class"] + GAIN]
    out = out.merge(untargeted.rename(columns={c: f"untargeted_{c}" for c in GAIN}), on=["position", "hand_class"],
                    how="left")
    out["untargeted_n"] = out["untargeted_n"].fillna(0).astype(int)
    rank = {p: i for i, p in enumerate([position_names(players)[p] for p in speaking_order(players)] + [ALL_SEATS])}
    classes = {c: -i for i, c in enumerate(class_order())}           # the strongest first, as the lines
    out = out.sort_values(["hand_class", "position"], key=lambda s: s.map(rank if s.name == "position" else classes))
    return out.reset_index(drop=True)


def headline_text(head: pd.DataFrame, df: pd.DataFrame, policies: list, counted: str,
                  asked: int = 0) -> tuple[str, dict]:
    """The words before the makers' class lines, and a line for each targeted class: the main model's targeted
    cell at each seat, the other models' untargeted round-one cells at each seat beside, and the seats pooled
    only where a test finds they agree (``analysis.targeted_stats.seats_agree``)."""
    main = policies[0]
    classes = list(dict.fromkeys(head["hand_class"]))
    intro = (f"The makers' classes {', '.join(f'`{c}`' for c in classes)} are of round one only, where trump is the "
             f"upcard's suit ({main}'s figures from {counted}: deals dealt until the "
             "seat held one of those classes under the upcard's suit (the dealer's hand with the upcard it takes "
             "up), the rest skipped, and only those where that seat made trump in round one counted. Each answer "
             "is per seat: a seat's cell says what going alone gains there. The seats pooled (each weighted by "
             "how often a deal reaches the cell there) are shown only where Cochran's Q finds no difference "
             "between the seats at 5%. The other models' figures are from their untargeted round-one makers; "
             "`loner_headline.csv` has each seat's targeted cell, the class's share and the main model's "
             "untargeted cell beside):\n")
    lines = {}
    order = [p for p in head["position"].drop_duplicates() if p != ALL_SEATS]
    others = {policy: round_one(df, policy) for policy in policies[1:]}        # read once, not per cell
    for c in classes:
        seats = head[(head["hand_class"] == c) & (head["position"] != ALL_SEATS)].set_index("position")
        pooled = head[(head["hand_class"] == c) & (head["position"] == ALL_SEATS)].iloc[0]
        ok = seats["reached"] >= 30            # a seat without an interval tells the test nothing
        test = seats_agree(seats.loc[ok, "gain"], seats.loc[ok, "ci_low"], seats.loc[ok, "ci_high"])
        per_seat = []
        for pos in order:
            h = seats.loc[pos]
            parts = [fmt_gain({"gain": h["gain"], "ci_low": h["ci_low"], "ci_high": h["ci_high"],
                               "n": h["reached"]}, f"{main}, targeted")]
            again = replication_words(h)
            if again:
                parts[0] += f", {again}"
            parts[0] += short_words(int(h["reached"]), asked)
            for policy, mine in others.items():
                cell = gain_table(mine[(mine["hand_class"] == c) & (mine["position"] == pos)], ["hand_class"])
                if len(cell):
                    parts.append(fmt_gain(cell.iloc[0], f"{policy}, untargeted"))
            per_seat.append(f"  - {pos}: " + "; ".join(parts))
        if test["agree"] and test["q"] == test["q"]:
            together = (seats_verdict(test, "") + "; pooled: " + fmt_gain(
                {"gain": pooled["gain"], "ci_low": pooled["ci_low"], "ci_high": pooled["ci_high"],
                 "n": pooled["reached"]}, f"{main}, targeted, seats weighted by reach"))
        else:
            together = seats_verdict(test, "no answer for all seats")
        lines[c] = (f"- maker with `{c}`, trump made in round one (the hand {pooled['share']:.2%} of a seat's "
                    f"deals, {pooled['share_low']:.2%}-{pooled['share_high']:.2%}); {together}:\n"
                    + "\n".join(per_seat))
    return intro, lines
