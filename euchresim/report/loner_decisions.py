"""The loner report's decision table: per who (maker, defender), round and seat, where going (defending) alone
pays, is a toss-up, has too few hands to say, or costs, under the main model; the same on one page a player
keeps (``decision_card.png``); and where the other seats calling as people do give the opposite answer.

Split from ``report.loner`` so each stays short; the round-one makers' cells of the targeted classes come
from their targeted deals (``report.loner_targeted``), as the headline lines give them.
"""
from __future__ import annotations

import pandas as pd

from euchresim.analysis import position_names
from euchresim.analysis.call_stats import HAND_CLASS_NOTE, TOSS_UP, answer_flips, class_order, gain_table


WHAT = (("maker", "Going alone"), ("defender", "Defending alone"))
CARD_WORDS = {"maker": {"order": "alone", "pass": "don't"}, "defender": {"order": "defend", "pass": "don't"}}


def decisions(df: pd.DataFrame, main: str, players: int, head: pd.DataFrame | None = None) -> list[tuple]:
    """Per who (maker, defender) and round made: the main model's call table by seat and hand class
    (``table_calls``: it pays, a toss-up, too few hands, it costs), as (who, words, round, calls).

    The round-one makers' cells of the targeted classes come from their targeted deals (``head``, the
    headline table), as the headline lines give them: the table a player keeps prints the same number
    as the line above it, the better-measured one."""
    from euchresim.analysis.call_stats import table_calls
    from euchresim.report.order_up_targeted import with_targeted
    mine = df[df["policy"] == main]
    out = []
    for who, what in WHAT:
        for rnd in (1, 2):
            sub = mine[(mine["who"] == who) & (mine["round"] == rnd)]
            if len(sub):
                cells = gain_table(sub.assign(policy=main), ["policy", "round", "position", "hand_class"])
                if who == "maker" and rnd == 1 and head is not None:
                    cells = with_targeted(cells, head, main)
                calls = table_calls(cells, [main], rnd)
                swapped = set() if not (who == "maker" and rnd == 1 and head is not None) else {
                    (str(p), c) for p, c, n in zip(head["position"], head["hand_class"], head["reached"]) if n > 0}
                calls["targeted"] = [(str(p), c) in swapped for p, c in zip(calls["position"], calls["hand_class"])]
                out.append((who, what, rnd, calls))
    return out


def decision_card(ctx, decisions: list[tuple], main: str, df: pd.DataFrame | None = None, human: str | None = None):
    """Every row of the decision table on one page a player keeps: a panel per who and round; with a people-like
    model (``human``, its deals in ``df``), the cells where that table gives the opposite answer outlined, as the
    decision table's lines give both answers (``flip_cells``, the same cells the lines give)."""
    from euchresim import plots
    from euchresim.analysis import speaking_order
    seats = [position_names(ctx.rules.players)[p] for p in speaking_order(ctx.rules.players)]
    classes = list(class_order())
    panels, outlined = [], 0
    for who, what, rnd, calls in decisions:
        flips = flip_cells(calls, df, human, who, rnd) if human else set()
        outlined += len(flips)
        c = calls.assign(call=calls["call"].replace(CARD_WORDS[who]),
                         position=pd.Categorical(calls["position"].astype(str), seats, ordered=True),
                         hand_class=pd.Categorical(calls["hand_class"], classes, ordered=True),
                         flips=["people" if (str(p), h) in flips else ""
                                for p, h in zip(calls["position"], calls["hand_class"])])
        panels.append((f"{what}, trump made in round {'one' if rnd == 1 else 'two'}",
                       c.sort_values(["position", "hand_class"])))
    return plots.decision_card(
        panels, "position", "hand_class", "call", ctx.path("decision_card.png"), value="gain", count="n",
        marked="flips",
        title=f"When to go alone and to defend alone, by seat ({main})",
        caption=ctx.caption(main, sum(int(c["n"].sum()) for _, c in panels),
                            "the gain of going (defending) alone over not, per seat; alone/defend where it pays, "
                            f"don't where it costs, close within ±{TOSS_UP:.2f} of 0, few: too few hands to say (n=K: under 30 "
                            "hands, its count, not its mean); "
                            + (f"outlined ({outlined}): the opposite answer where the other seats call as people do "
                               f"({human}; 200+ hands under each, both clear of 0, Holm-corrected: the README's lines "
                               "give it); " if human else "")
                            + _card_targeted(decisions) + HAND_CLASS_NOTE, intervals=False),
        row_label="seat", col_label="trumps held, bowers")


def flip_table(calls: pd.DataFrame, df: pd.DataFrame | None, human: str, who: str, rnd: int) -> pd.DataFrame:
    """The cells of one who and round where the people-like table gives the opposite answer
    (``analysis.call_stats.answer_flips`` over all of them, Holm-corrected), with both tables' gains: the
    decision table's lines and the card take them from here, so they mark the same cells."""
    people = _model_cells(df, human, who, rnd) if df is not None else pd.DataFrame()
    if not len(people):
        return pd.DataFrame(columns=["position", "hand_class"])
    flips = answer_flips(calls.assign(position=calls["position"].astype(str)), people, ["position", "hand_class"])
    return flips[flips["flips"]]


def flip_cells(calls: pd.DataFrame, df: pd.DataFrame | None, human: str, who: str, rnd: int) -> set:
    """``flip_table``'s cells as (seat, class): the cells the card outlines."""
    flips = flip_table(calls, df, human, who, rnd)
    return {(str(p), c) for p, c in zip(flips["position"], flips["hand_class"])}


def _targeted_note(decisions: list[tuple]) -> str:
    """Which cells of the decision table come from targeted deals (the headline lines' cells), if any."""
    classes = sorted({c for who, _, rnd, calls in decisions if "targeted" in calls
                      for c in calls.loc[calls["targeted"].astype(bool), "hand_class"]},
                     key=lambda c: -class_order().index(c))
    if not classes:
        return ""
    return (" The round-one makers' cells of " + ", ".join(f"`{c}`" for c in classes)
            + " come from the targeted deals, as the lines above give them.")


def _card_targeted(decisions: list[tuple]) -> str:
    classes = _targeted_note(decisions)
    return "round one's targeted classes from their targeted deals; " if classes else ""


def decision_text(decisions: list[tuple], policies: list, players: int, df: pd.DataFrame | None = None,
                   canonical=None) -> list[str]:
    """The decision table for going alone and defending alone: per who, round and seat, the classes where it
    pays, is a toss-up, has too few hands to say, or costs, each with its gain and half-width (or its hand
    count), under the main model; every answer per seat, as the seats differ (a pooled answer was wrong for
    two of them). Where the report also ran a model whose other seats call as people do (``heuristic:human``)
    and its cell gives the opposite answer (both clear of zero after Holm's correction: ``flip_table``), that
    answer follows the seat's line: the
    answer that rests on how the table calls."""
    from euchresim.analysis import speaking_order
    from euchresim.analysis.call_stats import decision_table, table_calls
    from euchresim.report.order_up_text import (answered, beside_bot, bot_of, by_seat_class, people_line,
                                                people_model, seat_cells)
    main = policies[0]
    order = [position_names(players)[p] for p in speaking_order(players)]
    human = people_model(policies[1:], canonical) if canonical is not None and df is not None else None
    text = ["## The decision table\n",
            f"Per seat and round ({main}; {HAND_CLASS_NOTE}): go alone (or defend alone) with the classes "
            "where it pays, not with those where it costs; each class with its gain in points a hand and the "
            "95% interval's half-width, or its hand count where there are too few to say"
            + (" (all of it on one page to keep: [decision_card.png](decision_card.png)"
               + (", the cells where the people-like table gives the opposite answer outlined" if human else "")
               + ")" if decisions else "")
            + "." + _targeted_note(decisions)
            + (f" Where the same deals played with the other seats calling as people do ({human}) give the "
               "opposite answer (200 or more hands under each, both clear of zero after Holm's correction over "
               "the cells compared), that answer follows the seat's line. The hands that reach a cell there are "
               f"the ones that table lets reach it (its callers make trump with other hands than {main}'s), so a "
               "flip says what the cell gains at such a table, not what one hand gains at both"
               + (f"; beside it, {bot_of(policies, canonical)}'s cell (the same play with a bot's calls) says "
                  "whether the people-like calling turns the answer or the bots' table does" if bot_of(policies, canonical)
                  else "")
               + f". Where {main} gives a seat no answer (too few hands to say), the line gives {human}'s for "
               "that seat." if human else "")
            + "\n"]
    words = {"order": "it pays", "close": "a toss-up", "too few hands": "too few hands to say", "pass": "it costs"}
    bot = bot_of(policies, canonical) if human else None
    for who, what, rnd, calls in decisions:
        text.append(f"{what}, trump made in round {'one' if rnd == 1 else 'two'}:\n")
        table = decision_table(calls, order)
        flipped = flip_table(calls, df, human, who, rnd) if human else pd.DataFrame()
        people = _model_cells(df, human, who, rnd) if human else pd.DataFrame()
        people = decision_table(table_calls(people.assign(policy=human, round=rnd), [human], rnd), order) \
            if len(people) else table.iloc[:0]
        plain = by_seat_class(_model_cells(df, bot, who, rnd)) if bot else {}
        for pos in order:
            seat = table[table["position"] == pos]
            if not len(seat):
                continue
            line = f"- **{pos}**: " + seat_cells(seat, words)
            flips = flipped[flipped["position"] == pos] if len(flipped) else flipped
            if len(flips):
                line += (f". Against seats that call as people do ({human}): " + ", ".join(
                    f"`{r['hand_class']}` {'it pays' if r['gain_human'] > 0 else 'it costs'} "
                    f"({r['gain_human']:+.2f} ±{(r['ci_high_human'] - r['ci_low_human']) / 2:.2f}"
                    + beside_bot(bot, plain.get((pos, r["hand_class"])), r["gain_human"]) + ")"
                    for _, r in flips.iterrows()))
            text.append(line + (people_line(people, pos, human, words) if not answered(seat) else "") + ".")
        text.append("")
    return text


def _model_cells(df: pd.DataFrame, policy: str, who: str, rnd: int) -> pd.DataFrame:
    """A model's cells per seat and class for one who and round (their gains and intervals): the people-like
    table's, or heuristic's beside a flip."""
    sub = df[(df["policy"] == policy) & (df["who"] == who) & (df["round"] == rnd)]
    if not len(sub):
        return pd.DataFrame()
    cells = gain_table(sub, ["position", "hand_class"])
    return cells.assign(position=cells["position"].astype(str))
