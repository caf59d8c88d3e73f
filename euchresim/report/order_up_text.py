"""The order-up report's words: the decision table, the seats' findings, the models and the upcard, and the
people-like table's answers, read from the tables ``report.order_up`` builds (kept apart so the play and the
charts stay in one module and the prose in another)."""
from __future__ import annotations

import pandas as pd

from euchresim.analysis.call_stats import HAND_CLASS_NOTE, TOSS_UP, answer_flips, class_order
from euchresim.report import md_table
from euchresim.report.paired_chunks import fmt_gain


def _sorted_calls(calls: pd.DataFrame) -> pd.DataFrame:
    """A call table's cells in the charts' order: by seat, then the hand classes weakest to strongest."""
    if not len(calls):
        return calls
    order = list(class_order())
    order += sorted(set(calls["hand_class"]) - set(order))
    return calls.assign(hand_class=pd.Categorical(calls["hand_class"], order, ordered=True)).sort_values(
        ["position", "hand_class"])


def _at_the_table_text(ctx, t: dict, charts: dict, policies: list) -> list[str]:
    """The README's opening: the call by seat and hand class under the main model, where the models differ."""
    text = []
    for rnd, word in ((1, "order up"), (2, "name your best suit")):
        name = f"calls_round{rnd}"
        if name not in charts:
            continue
        calls = t[f"order_up_calls_round{rnd}"]
        differ = calls[calls["differ"] != ""]
        text.append(f"![Round {rnd}: the call]({name}.png)\n")
        text.append(f"Round {rnd}, at the table: **{word}** in the blue cells, pass in the red, either in the grey "
                    f"(\"close\": {policies[0]}'s gain is within ±{TOSS_UP:.2f} points of 0 either way; the white "
                    "hatched \"few\" cells have too few hands to say, their interval holding 0 but reaching past "
                    "that, or under 30 hands; each cell prints its gain, or under 30 hands n=K, its count"
                    + (f"; the cells of {', '.join(f'`{c}`' for c in ctx.classes)} from its targeted deals"
                       if "targeted" in calls and calls["targeted"].any() else "") + "). "
                    + (f"{len(differ)} of {len(calls)} cells {'is' if len(differ) == 1 else 'are'} outlined in "
                       "yellow: there "
                       + ", ".join(sorted({p for d in differ["differ"] for p in d.split(', ')}))
                       + " gives the opposite call" if len(differ) else
                       "No other model gives the opposite call in any cell")
                    + f" (one-sided tests of each other model against {policies[0]}'s call, "
                      f"{calls.attrs.get('tests', 0)} of them, corrected by Holm's method so that the chance of "
                      "any false flag is at most 5%"
                    + ("; " + ", ".join(p for p in policies if ctx.model(p).cheats)
                       + " sees every card: a bound, never counted as advice"
                       if any(ctx.model(p).cheats for p in policies) else "")
                    + "). "
                    + f"`order_up_calls_round{rnd}.csv` has every cell's gain and interval.\n")
    return text


def _decision_text(t: dict, policies: list, order: list, canonical, stuck: bool = False) -> list[str]:
    """The decision table a guide prints: per round and seat, the classes to call with and to pass with under
    the main model, each cell's gain and interval beside it, and where the other seats calling as people do
    (heuristic:human) changes the answer, that answer too. A seat none of whose deals reached the call is
    said to be so, not left out (a bold main model calls before the dealer's round two on every deal); the
    stuck dealer (``stuck``: stick the dealer), who has no choice there, is left out."""
    from euchresim.analysis.call_stats import decision_table, table_calls
    human = people_model(policies[1:], canonical)
    text = ["## The decision table\n",
            f"Read off the cells above ({policies[0]}; {HAND_CLASS_NOTE}): call with the classes listed, pass "
            "with the rest. Each class has its gain of calling over passing in points a hand and the 95% "
            "interval's half-width, or its hand count where there are too few to say"
            + (" (the two charts above on one page to keep"
               + (", with the same calls at a table that calls as people do below them: " if human else ": ")
               + "[decision_card.png](decision_card.png))" if "order_up_calls_round1" in t else "") + "."
            + (f" Where {human}'s cell gives the opposite call (the cells the chart outlines for it: its gain "
               "tested against the call, Holm-corrected over the chart's tests), its cell follows the seat's line"
               + (f", and beside it {bot_of(policies, canonical)}'s (the same play with a bot's calls), which says "
                  "whether the people-like calling turns the answer or the bots' table does"
                  if bot_of(policies, canonical) else "")
               + f". Where {policies[0]} gives a seat no answer (its deals never reached the call, or too few "
               f"to say), the line gives {human}'s for that seat." if human else "") + "\n"]
    for rnd, word in ((1, "order up"), (2, "name your best suit")):
        calls = t.get(f"order_up_calls_round{rnd}")
        if calls is None or not len(calls):
            continue
        calls = calls.assign(call=calls["call"].replace("call", "order"))   # round two's chart word, read as a call
        text.append(f"Round {'one' if rnd == 1 else 'two'}:\n")
        table = decision_table(calls, order)
        theirs = None           # the people-like model's cells where the chart outlines it as calling the other way
        if human:
            by = t["order_up_by_class"]
            theirs = by[(by["policy"] == human) & (by["round"] == rnd)].assign(
                position=lambda f: f["position"].astype(str)).set_index(["position", "hand_class"])
        verbs = {"order": word, "close": "either (a toss-up)", "too few hands": "too few hands to say", "pass": "pass"}
        bot, plain = _plain_cells(t["order_up_by_class"], policies, canonical, rnd)
        people = (decision_table(table_calls(t["order_up_by_class"], [human], rnd), order)
                  if human else table.iloc[:0])
        for pos in order:
            seat = table[table["position"] == pos]
            if not len(seat):
                if not (stuck and rnd == 2 and pos == order[-1]):
                    text.append(f"- **{pos}**: none of {policies[0]}'s deals reached this call (the seats before "
                                f"it called first){people_line(people, pos, human, verbs)}.")
                continue
            line = f"- **{pos}**: " + seat_cells(seat, verbs)
            mine = calls[calls["position"].astype(str) == pos]
            other = [(c, theirs.loc[(pos, c)]) for c, d in zip(mine["hand_class"], mine["differ"].fillna(""))
                     if human in str(d).split(", ") and (pos, c) in theirs.index] if theirs is not None else []
            if other:
                line += (f". Against seats that call as people do ({human}): " + ", ".join(
                    f"`{c}` {'order' if r['gain'] > 0 else 'pass'} ({r['gain']:+.2f} ±{(r['ci_high'] - r['ci_low']) / 2:.2f}"
                    + beside_bot(bot, plain.get((pos, c)), r["gain"]) + ")"
                    for c, r in other))
            text.append(line + (people_line(people, pos, human, verbs) if not answered(seat) else "") + ".")
        text.append("")
    return text


def seat_cells(seat: pd.DataFrame, verbs: dict) -> str:
    """One seat's rows of a decision table (``decision_table``) as the line prints them: each answer's word, then
    its classes, each with its gain and the 95% interval's half-width, or its hand count under 30 hands."""
    return "; ".join(f"{verbs[r['call']]}: " + ", ".join(
        f"`{c}` " + (f"{g:+.2f} ±{(hi - lo) / 2:.2f}" if n >= 30 else f"{n} hand{'s' if n != 1 else ''}")
        for c, g, lo, hi, n in r["cells"]) for _, r in seat.iterrows())


def answered(seat: pd.DataFrame) -> bool:
    """Whether a seat's rows give any answer (call, pass or a toss-up), not only cells too thin to say."""
    return bool(seat["call"].isin(["order", "close", "pass"]).any())


def people_line(people: pd.DataFrame, pos: str, human: str | None, verbs: dict) -> str:
    """Where the main model gives a seat no answer (its deals never reached the call, or too few to say), the
    people-like table's line for that seat, so a guide has the answer the cells can give (a bold main model
    calls before the dealer's round two on every deal; the people-like table's dealer gets there)."""
    seat = people[people["position"] == pos] if human else people
    if not len(seat) or not answered(seat):
        return ""
    return f"; at a table that calls as people do ({human}): " + seat_cells(seat, verbs)


def _plain_cells(by_class: pd.DataFrame, policies: list, canonical, rnd: int):
    """``heuristic`` (the people-like model's play with a bot's calls), if the report ran it, and its cells of
    round ``rnd`` by (seat, class): beside a people-like flip they say whether the calling or the play flips it."""
    bot = bot_of(policies, canonical)
    if bot is None:
        return None, {}
    return bot, by_seat_class(by_class[(by_class["policy"] == bot) & (by_class["round"] == rnd)])


def by_seat_class(cells: pd.DataFrame) -> dict:
    """A model's cells (gain, interval, hands) by (seat, hand class): what ``beside_bot`` looks a cell up in."""
    if not len(cells):
        return {}
    return {(str(p), c): r for p, c, (_, r) in zip(cells["position"], cells["hand_class"], cells.iterrows())}


def bot_of(policies: list, canonical) -> str | None:
    """The report's ``heuristic`` (as it was given) among the models after the main one, or None."""
    return next((p for p in policies[1:] if canonical(p) == "heuristic"), None)


def beside_bot(bot: str | None, cell, gain_people: float) -> str:
    """``heuristic``'s cell beside a people-like answer that differs from the main model's.  heuristic:human is
    heuristic with the other seats calling as people do, so the two differ in that calling alone: where heuristic
    gives the people-like answer too (its 95% interval clear of zero on that side), the people-like calling does
    not turn it, heuristic's table does (its play and its bots' calls, which decide what reaches the cell, against
    the main model's); where heuristic gives the main model's answer, the people-like calling does turn it.
    "" without heuristic's cell of 30 hands or more."""
    if bot is None or cell is None or int(cell["n"]) < 30:
        return ""
    lo, hi = float(cell["ci_low"]), float(cell["ci_high"])
    said = f"; {bot}, the same play with a bot's calls, {float(cell['gain']):+.2f} ±{(hi - lo) / 2:.2f}"
    if (lo > 0 and gain_people > 0) or (hi < 0 and gain_people < 0):
        return said + f": not the people-like calling, {bot}'s table turns it"
    if (lo > 0 and gain_people < 0) or (hi < 0 and gain_people > 0):
        return said + ": the people-like calling turns it"
    return said


def _method_text() -> list[str]:
    return ["Each deal is played out once with the call and once with a pass, the same policies for "
            "every later decision; the gain is the difference in the hand's **net points** (the caller's "
            "side less the other side's), deal by deal. In round two the call is the suit the hand is "
            "strongest in (most trump points on the published scale below); the stuck dealer, who may "
            "not pass, is left out. Hand classes are of the hand the seat plays: the dealer's in round one "
            "with the upcard it takes up (its six cards before the discard), every other hand as dealt; "
            "`3T R` is three trumps (bowers counted) with the right bower, `L` the left, `RL` both, `-` "
            "neither.\n"]


def _by_seat_text(t: dict, order: list, strong_text: list | None = None, main: str | None = None) -> list[str]:
    """The gain of calling by seat and round, then round one's classes with a bower and two or three trumps
    (``strong_text`` in their place when the main model's come from targeted deals).  How often calling is
    right is the main model's (``main``), and left out where it has no hands: another model's, a cheat's
    perhaps, was quoted in its place."""
    by_pos, by_class = t["order_up_by_position"], t["order_up_by_class"]
    text = ["## Calling over passing, by seat\n"]
    for pos in order:
        for rnd in (1, 2):
            rows = by_pos[(by_pos["position"] == pos) & (by_pos["round"] == rnd)]
            if len(rows):
                parts = "; ".join(fmt_gain(r, r["policy"]) for _, r in rows.iterrows())
                mine = rows[rows["policy"].astype(str) == str(main)]       # the main model's, never another's
                right = (f"; none of {main}'s deals reached this call (the seats before it called first)"
                         if main is not None and (by_pos["policy"].astype(str) == str(main)).any() else "") \
                    if not len(mine) else (
                    f"; calling is right on {mine.iloc[0]['right']:.1%} of hands ({mine.iloc[0]['right_low']:.1%}-"
                    f"{mine.iloc[0]['right_high']:.1%}, {main})")
                text.append(f"- **{pos}**, round {rnd}: calling gains {parts}{right}.")
    text.append("")
    if strong_text is not None:
        return text + strong_text
    strong = by_class[(by_class["round"] == 1) & by_class["hand_class"].isin(["3T R", "3T L", "2T R"])]
    if len(strong):
        text.append("With a bower and two or three trumps in round one:\n")
        for (pos, cls), g in strong.groupby(["position", "hand_class"], observed=True):
            text.append(f"- {pos}, `{cls}`: " + "; ".join(fmt_gain(r, r["policy"]) for _, r in g.iterrows()) + ".")
        text.append("")
    return text


def _heatmap_text(ctx, counts: dict, policies: list) -> list[str]:
    """The heatmaps and the bars by seat, each caption counting the hands behind its chart (``counts``)."""
    first = policies[0]
    text = ["![Round one heatmap]({}) \n\n*{}*\n".format(
        f"{_heat_name(first, policies)}.png", ctx.caption(first, counts[_heat_name(first, policies)],
                                                          "round one, all seats"))]
    for policy in policies[1:]:
        text.append(f"![{policy}]({_heat_name(policy, policies)}.png)\n\n"
                    f"*{ctx.caption(policy, counts[_heat_name(policy, policies)], 'round one, all seats')}*\n")
    text.append(f"![By seat](bars_position.png)\n\n*{ctx.caption(', '.join(policies), counts['bars_position'])}*\n")
    return text


def _models_text(models: pd.DataFrame, policies: list) -> list[str]:
    """The fair models side by side by cell (``order_up_models``: a model that sees every card left out): whether
    their intervals overlap, a description; the test of which calls differ is the call chart's (Holm)."""
    text = ["## Where the play models agree\n"]
    fair = [c[len("gain_"):] for c in models if c.startswith("gain_")]
    if len(fair) > 1:
        counts = models["models"].value_counts()
        text.append("Per seat, round and hand class, the fair models' (" + ", ".join(fair) + "; a model that "
                    "sees every card is a bound, not advice, and is left out) 95% intervals overlap (`agree`) or not "
                    "(`differ`); cells with fewer than 30 hands in a model are left out. An overlap is a "
                    "description, not a test corrected for the number of cells (the call chart's outlines are "
                    "that test, Holm-corrected): "
                    + ", ".join(f"{v} {k}" for k, v in counts.items()) + " (`order_up_models.csv`).\n")
        flips = models[models["models"] == "differ"]
        if len(flips):
            text.append(f"Cells where the fair models' gains have opposite signs and their intervals do not "
                        f"overlap ({len(flips)} cell{'s' if len(flips) != 1 else ''}"
                        + (", the first 12 shown" if len(flips) > 12 else "") + "; \"differ (same sign)\" cells give "
                        "the same call at another size):\n\n"
                        + md_table(flips.head(12), "{:+.2f}") + "\n")
        elif (models["models"] == "differ (same sign)").any():
            text.append("No cell's call depends on the model: where intervals fail to overlap, the gains have the "
                        "same sign.\n")
        else:
            text.append("No cell with 30+ hands in two models has intervals that fail to overlap.\n")
    return text


def _upcard_text(by_up: pd.DataFrame, first: str) -> list[str]:
    text = ["## By upcard, and by what the hand holds\n",
            "`order_up_by_upcard.csv` has the round-one gain by seat and the upcard's rank, "
            "`order_up_by_feature.csv` by trumps held, right and left bower, off-suit aces and voids.\n"]
    for _, r in by_up[(by_up["policy"] == first) & by_up["up_rank"].isin(["jack", "nine"])].iterrows():
        text.append(f"- {r['position']}, a {r['up_rank']} turned: ordering gains {fmt_gain(r, first)}.")
    text.append("")
    return text


def _tables_text() -> list[str]:
    return ["## Tables\n\n- `order_up_by_position.csv`, `order_up_by_class.csv`, `order_up_by_upcard.csv`, "
            "`order_up_by_feature.csv`: n, gain with `ci_low`/`ci_high`, `right` (share of hands where "
            "calling scores more, Wilson interval), `ties`, `policy_chose` (share the policy called);\n"
            "- `order_up_models.csv`: the models side by side; `order_up_count_points.csv`, "
            "`order_up_count_thresholds.csv`, `order_up_count_eval.csv`: the point counts; "
            "`order_up_calls_round1.csv`, `order_up_calls_round2.csv`: the opening charts' cells (the main "
            "model's `call`: order, pass or close; `differ`: the models giving the opposite call); "
            "`order_up_count_refits.csv`: per round, each fitted quantity (`what`: points, threshold, agree, "
            "given_up; `name`: the card class, seat or rule) over refits on seeded halves: refits, mean, sd, "
            "min, max.\n"]


def _label(policy: str, policies: list) -> str:
    """A policy's short name, made unique when two share one (heuristic, heuristic:human): heuristic_1."""
    from euchresim.policies import head as family
    same = [p for p in policies if family(p) == family(policy)]
    return family(policy) if same[0] == policy else f"{family(policy)}_{same.index(policy)}"


def _heat_name(policy: str, policies: list) -> str:
    return f"heatmap_{_label(policy, policies)}"


def people_model(policies, canonical):
    """The model among ``policies`` that calls as people do (``heuristic:human`` however it was given), or None."""
    from euchresim.policies.presets import preset_name
    return next((p for p in policies if canonical(p) == preset_name("heuristic", "human")), None)


def _like_people(by_pos, by_class, policies, players, order, canonical):
    """Round one under ``heuristic`` beside ``heuristic:human``, whose seats call as people do (policies/presets).

    The deciding seat's call is forced either way; what changes is how the
    other three call after a pass (and before it: who gets to decide).  A
    class whose gain changes sign, both clear of zero after Holm's correction, is one
    where the answer rests on how the table calls.  None unless both run.
    ``canonical``: a name's canonical name (the report's ``ctx.canonical``, the models as read).
    """
    if players != 4:
        return None
    bot = next((p for p in policies if canonical(p) == "heuristic"), None)
    people = people_model(policies, canonical)
    if bot is None or people is None:
        return None
    text = ["## When the other seats call like people\n",
            "`heuristic:human`" + ("" if people == "heuristic:human" else f" (given as `{people}`)")
            + " is heuristic with round-one thresholds at which each seat orders up "
            "as often as people at online tables (the dealer's left on 5% of deals, its partner 17%, its "
            "right 5%, the dealer 30%; docs/policies.md). The same deals played under it give the gain of "
            "ordering up when the other three seats call like people, beside heuristic's own:\n"]
    for pos in order:
        rows = by_pos[(by_pos["position"] == pos) & (by_pos["round"] == 1) & by_pos["policy"].isin([bot, people])]
        if len(rows) == 2:
            a, b = (rows[rows["policy"] == p].iloc[0] for p in (bot, people))
            text.append(f"- **{pos}**: {fmt_gain(a, 'heuristic')}; {fmt_gain(b, 'heuristic:human')}.")
    r1 = by_class[by_class["round"] == 1]
    both = answer_flips(r1[r1["policy"] == bot], r1[r1["policy"] == people], ["position", "hand_class"])
    flips = both[both["flips"]]
    text.append(f"\nOf {len(both)} seat and hand classes with 200+ deals under both, the answer (order or pass) "
                f"changes at {len(flips)}, both clear of zero after Holm's correction (`order_up_like_people.csv`)"
                + (":\n\n" + md_table(flips.drop(columns=["flips", "p_flip"]), "{:+.2f}") if len(flips) else ".") + "\n")
    return text, both
