"""``euchresim report order-up``: when calling trump beats passing, by seat, round, upcard and hand class.

Every deal is played twice from the decision on (order up and pass in
round one; in round two, name the suit the hand is strongest in, or pass),
the same policies for everything else; the difference in the hand's net
points (the caller's side less the other side) is the deal's gain of
calling.  Each play model (heuristic, pimc, dd by default) plays its own
deals; the tables say which model every number comes from.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from euchresim.analysis import position_names, speaking_order
from euchresim.cards import JOKER
from euchresim.engine.tables import build_tables
from euchresim.report import Section, md_table, targeted_words
from euchresim.analysis.call_stats import (HAND_CLASS_NOTE, PUBLISHED_CALL, TOSS_UP, answer_flips, best_suit, class_order,
                                      count_points, gain_table, hand_class, model_compare, played_features,
                                      table_calls)
from euchresim.report.paired_chunks import MIN_INTERVAL_HANDS, chose_note, collect, fmt_gain
from euchresim.report.order_up_count import count_text, hands_counted, count_tables

FEATURES = ("trumps", "right", "left", "off_aces", "voids")


def deal_frame(d: dict, rnd: int, players: int, tab, policy: str) -> pd.DataFrame:
    """One row per deal that reached the call: the deciding hand's classes and the gain of calling."""
    n = len(d["seat"])
    hand = d["hands"][np.arange(n), d["seat"]]
    opts = d["options"]
    if rnd == 1:
        keep = d["upcard"] != JOKER                       # a joker upcard's suit is the dealer's call (R7)
        trump = np.where(keep, d["upcard"] >> 3, 0)
        call = 1
        col_call = np.argmax(opts == 1, axis=1)
        ok = keep & (opts == 1).any(axis=1) & (opts == 0).any(axis=1)
        took = d["chosen"] == 1
    else:
        legal = np.stack([(opts == s).any(axis=1) for s in range(4)], axis=1)
        trump = best_suit(hand, legal, tab)
        call = trump
        col_call = np.argmax(opts == trump[:, None], axis=1)
        ok = (trump >= 0) & (opts == 4).any(axis=1)        # a stuck dealer has no pass to compare with
        took = d["chosen"] == trump
    col_pass = np.argmax(opts == (0 if rnd == 1 else 4), axis=1)
    rows = np.arange(n)
    gain = d["net"][rows, col_call] - d["net"][rows, col_pass]
    f = played_features(hand, np.maximum(trump, 0), d["upcard"], d["pos"], np.full(n, rnd == 1), players, tab)
    names = position_names(players)
    f.insert(0, "policy", policy)
    f.insert(1, "round", rnd)
    f.insert(2, "position", [names[p] for p in d["pos"]])
    f["pos"] = d["pos"]
    f["chunk"] = d["chunk"]
    f["hand_class"] = hand_class(f)
    f["gain"] = gain
    f["took"] = took.astype(int)
    f["call"] = call
    return f[ok].reset_index(drop=True)


def simulate(ctx) -> pd.DataFrame:
    """Every model's deals at every position, both rounds, as one frame."""
    tab = build_tables(ctx.rules)
    frames = []
    players = ctx.rules.players
    for k, policy in enumerate(ctx.policies):
        for rnd, decision in ((1, "bid1"), (2, "bid2")):
            for p in speaking_order(players):
                d = collect(ctx, k, decision, p, f"round {rnd}, position {p}")
                if len(d["seat"]):
                    frames.append(deal_frame(d, rnd, players, tab, policy))
    return pd.concat(frames, ignore_index=True)


def build(ctx) -> Section:
    policies = list(ctx.policies)
    players = ctx.rules.players
    df = simulate(ctx)
    df["policy"] = pd.Categorical(df["policy"], policies, ordered=True)
    order = [position_names(players)[p] for p in speaking_order(players)]
    t = _tables(df, policies, order)
    pts, thr, ev, fits, refit_t = count_tables(df, policies)
    t.update({"order_up_count_points": pts, "order_up_count_thresholds": thr, "order_up_count_eval": ev,
              "order_up_count_refits": refit_t})
    strong = None
    if ctx.classes:             # the headline cells from targeted deals (report/order_up_targeted.py)
        from euchresim.report import order_up_targeted as targeted
        from euchresim.report.replicate import replicated
        tab = build_tables(ctx.rules)
        tdf, shares = targeted.simulate(ctx, tab, speaking_order(players), deal_frame)
        head = targeted.headline_table(tdf, shares, t["order_up_by_class"], policies[0], order)
        t["order_up_headline"] = replicated(
            ctx, head, lambda c: targeted.simulate(c, tab, speaking_order(players), deal_frame)[0])
        strong = targeted.headline_text(t["order_up_headline"], t["order_up_by_class"], policies,
                                        targeted_words(ctx), ctx.class_reached)
    counts: dict = {}               # the hands behind each chart: its caption in the PNG and in the README
    charts = _charts(ctx, df, t, fits, policies, counts)
    human = _like_people(t["order_up_by_position"], t["order_up_by_class"], policies, players, order, ctx.canonical)
    text = (_at_the_table_text(ctx, t, charts, policies) + _decision_text(t, policies, order, ctx.canonical) + _method_text()
            + _by_seat_text(t, order, strong, policies[0])
            + _heatmap_text(ctx, counts, policies)
            + (human[0] if human is not None else []) + _models_text(t["order_up_models"], policies)
            + _upcard_text(t["order_up_by_upcard"], policies[0])
            + count_text(ctx, t, charts, policies, counts) + _tables_text() + chose_note(policies, ctx.models))
    if human is not None:
        t["order_up_like_people"] = human[1]
    return Section(title="When to order up: paired counterfactuals", text="\n".join(text), tables=t,
                   charts=charts)


def _tables(df: pd.DataFrame, policies: list, order: list) -> dict:
    """The gain tables by seat and round, hand class, upcard and feature, and the models side by side."""
    by_pos = gain_table(df, ["policy", "round", "position"])
    by_class = gain_table(df, ["policy", "round", "position", "hand_class"])
    by_up = gain_table(df[df["round"] == 1], ["policy", "position", "up_rank"])
    feats = []
    for feat in FEATURES:
        t = gain_table(df, ["policy", "round", "position", feat]).rename(columns={feat: "level"})
        t.insert(3, "feature", feat)
        feats.append(t)
    by_feat = pd.concat(feats, ignore_index=True)
    models = model_compare(by_class, ["round", "position", "hand_class"], policies)
    for t in (by_pos, by_class, by_up, by_feat, models):
        t["position"] = pd.Categorical(t["position"], order, ordered=True)
    sort = lambda t, extra: t.sort_values([c for c in ["policy", "round", "position"] if c in t] + extra) \
        .reset_index(drop=True)
    models = sort(models, ["hand_class"])
    for c in [c for c in models if c.startswith("n_")]:
        models[c] = models[c].fillna(0).astype(int)
    return {"order_up_by_position": sort(by_pos, []), "order_up_by_class": sort(by_class, ["hand_class"]),
            "order_up_by_upcard": sort(by_up, ["up_rank"]), "order_up_by_feature": sort(by_feat, ["feature", "level"]),
            "order_up_models": models}


def _charts(ctx, df: pd.DataFrame, t: dict, fits: dict, policies: list, counts: dict) -> dict:
    """A round-one heatmap per model, bars by seat and model, the fitted count's threshold, the counts' record;
    ``counts`` gets the hands behind each chart, which the README's caption gives as the chart's own does."""
    from euchresim import plots
    by_class, by_pos, ev = t["order_up_by_class"], t["order_up_by_position"], t["order_up_count_eval"]
    n_of, _ = hands_counted(df, policies)
    charts = {}
    for rnd in (1, 2):
        targeted = rnd == 1 and "order_up_headline" in t
        if targeted:
            from euchresim.report.order_up_targeted import with_targeted
        calls = table_calls(with_targeted(by_class, t["order_up_headline"], policies[0]) if targeted else by_class,
                            policies, rnd, advisers=[p for p in policies[1:] if not ctx.model(p).cheats])
        if targeted:            # only then: an untargeted report's tables stay as they were
            calls["targeted"] = calls["hand_class"].isin(ctx.classes)
        if rnd == 2:
            calls["call"] = calls["call"].replace("order", "call")
        t[f"order_up_calls_round{rnd}"] = calls
        if len(calls):
            word = "order up" if rnd == 1 else "name a suit"
            charts[f"calls_round{rnd}"] = plots.call_grid(
                _sorted_calls(calls), "position", "hand_class", "call",
                ctx.path(f"calls_round{rnd}.png"), marked="differ", value="gain", count="n",
                title=f"Round {rnd}: {word} or pass, by seat and hand ({policies[0]})",
                caption=ctx.caption(policies[0], int(calls["n"].sum()),
                                    f"the gain of calling under each word; close: within ±{TOSS_UP:.2f} of 0 "
                                    "either way; few: too few hands to say (the interval holds 0 and reaches "
                                    "past that, or under 30 hands, printed n=K, its count, not its mean); "
                                    "outlined: another fair model gives the "
                                    "opposite call (Holm-corrected); " + HAND_CLASS_NOTE
                                    + (f"; {', '.join(ctx.classes)} from targeted deals" if targeted else ""),
                                    intervals=False),
                row_label="seat", col_label="trumps held, bowers")
    charts.update(_decision_card(ctx, t, policies, people_model(policies[1:], ctx.canonical)))
    shown = by_class
    if "order_up_headline" in t:          # the main model's targeted cells, as the text and the call chart give
        from euchresim.report.order_up_targeted import with_targeted
        shown = with_targeted(by_class, t["order_up_headline"], policies[0])
    for policy in policies:
        c = shown[(shown["policy"] == policy) & (shown["round"] == 1)].copy()
        c["hand_class"] = pd.Categorical(c["hand_class"], [k for k in class_order() if k in set(c["hand_class"])],
                                         ordered=True)
        c = c.sort_values(["position", "hand_class"])
        name = _heat_name(policy, policies)
        counts[name] = int(c["n"].sum())
        charts[name] = plots.heatmap(
            c, "position", "hand_class", "gain", ctx.path(f"{name}.png"),
            title=f"Round one: points a hand gained by ordering up over passing ({policy})",
            caption=ctx.caption(policy, counts[name], "round one, all seats; the hands behind the cells"
                                + ("; the targeted classes from their targeted deals" if policy == policies[0]
                                   and "order_up_headline" in t else "")
                                + "; cells under 30 hands hatched, no interval; " + HAND_CLASS_NOTE),
            ci_low="ci_low", ci_high="ci_high", row_label="seat", col_label="trumps held, bowers",
            value_label="gain (points)", count="n")
    counts["bars_position"] = sum(n_of.values())
    charts["bars_position"] = plots.bars(
        by_pos.assign(where=by_pos["position"].astype(str) + " r" + by_pos["round"].astype(str)),
        "where", "gain", ctx.path("bars_position.png"), title="Gain of calling over passing by seat and round",
        caption=ctx.caption(", ".join(policies), counts["bars_position"], "one bar per play model"),
        ci_low="ci_low", ci_high="ci_high", group="policy", value_label="points a hand",
        category_label="seat and round (r1: round one, r2: round two)")
    charts.update(_count_charts(ctx, df, fits, ev, policies, counts))
    return charts


def _count_charts(ctx, df: pd.DataFrame, fits: dict, ev: pd.DataFrame, policies: list, counts: dict) -> dict:
    """The fitted count's threshold chart and the counts' record (points given up), their hands in ``counts``."""
    from euchresim import plots
    charts = {}
    first = policies[0]
    if 1 in fits:
        r1 = df[(df["policy"] == first) & (df["round"] == 1)].copy()
        r1["points"] = np.clip(count_points(r1, fits[1]["points"]), -4, 24)
        tc = gain_table(r1, ["position", "points"])
        tc = tc[tc["n"] >= MIN_INTERVAL_HANDS]             # no normal interval under 30 hands
        counts["threshold"] = int(tc["n"].sum())
        charts["threshold"] = plots.threshold(
            tc, "points", "gain", ctx.path("threshold.png"),
            title="Round one: gain of ordering up by the fitted point count",
            caption=ctx.caption(first, counts["threshold"], f"points clipped to -4..24; groups with "
                                f"{MIN_INTERVAL_HANDS}+ deals, the hands behind them"),
            ci_low="ci_low", ci_high="ci_high", group="position", x_label="fitted points",
            y_label="gain of ordering (points)")
    if len(ev):
        e = ev[ev["rule"].isin(["fitted count", f"published count (call at {PUBLISHED_CALL}+)"])]
        e = e.assign(what=e["policy"] + " r" + e["round"].astype(str))       # the model as named, not a file label
        counts["bars_counts"] = int(e["deals"].sum() // 2)
        charts["bars_counts"] = plots.bars(
            e, "what", "given_up", ctx.path("bars_counts.png"),
            title="Points a hand a point count gives up against the simulation's best call",
            caption=ctx.caption(", ".join(policies), counts["bars_counts"],
                                "fitted count judged on deals it was not fitted on"),
            ci_low="given_up_low", ci_high="given_up_high", group="rule", value_label="points a hand given up",
            category_label="play model and round (r1: round one, r2: round two)")
    return charts


def _decision_card(ctx, t: dict, policies: list, human: str | None = None) -> dict:
    """Both rounds' call charts on one page a player keeps (``plots.decision_card``), when a round has cells;
    with a people-like model (``human``), each round again as that table answers it: where the answer rests on
    how the other seats call, the card a player keeps gives both (issue 36), as the decision table does."""
    from euchresim import plots
    main = policies[0]
    card = [(f"Round {'one' if r == 1 else 'two'}: {'order up' if r == 1 else 'name a suit'} or pass ({main})",
             frame) for r in (1, 2) if len(frame := _sorted_calls(t[f"order_up_calls_round{r}"]))]
    if not card:
        return {}
    people = []
    if human:
        by = t["order_up_by_class"]
        for r in (1, 2):
            calls = table_calls(by[by["policy"] != main], [human], r)
            if len(calls):
                people.append((f"Round {'one' if r == 1 else 'two'} at a table that calls as people do "
                               f"({ctx.played(human)})", _sorted_calls(calls)))
    pages = card + people
    return {"decision_card": plots.decision_card(
        pages, "position", "hand_class", "call", ctx.path("decision_card.png"), value="gain", marked="differ", count="n",
        title=f"When to call: every seat, both rounds ({main}" + (f"; and {human}'s table" if people else "") + ")",
        caption=ctx.caption(", ".join([main] + ([human] if people else [])), sum(int(f["n"].sum()) for _, f in pages),
                            "the report's two call charts on one page, drawn by the same rules"
                            + (f"; below them each round as {human}'s table answers it (every seat played by it, "
                               "its seats calling as people do; the deciding seat's call forced)" if people else "")
                            + "; "
                            + HAND_CLASS_NOTE, intervals=False),
        row_label="seat", col_label="trumps held, bowers")}


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
                    + (f"{len(differ)} of {len(calls)} cells are outlined in yellow: there "
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


def _decision_text(t: dict, policies: list, order: list, canonical) -> list[str]:
    """The decision table a guide prints: per round and seat, the classes to call with and to pass with under
    the main model, each cell's gain and interval beside it, and where the other seats calling as people do
    (heuristic:human) changes the answer, that answer too."""
    from euchresim.analysis.call_stats import decision_table
    human = people_model(policies[1:], canonical)
    text = ["## The decision table\n",
            f"Read off the cells above ({policies[0]}; {HAND_CLASS_NOTE}): call with the classes listed, pass "
            "with the rest. Each class has its gain of calling over passing in points a hand and the 95% "
            "interval's half-width, or its hand count where there are too few to say"
            + (" (the two charts above on one page to keep"
               + (", with the same calls at a table that calls as people do below them: " if human else ": ")
               + "[decision_card.png](decision_card.png))" if "order_up_calls_round1" in t else "") + "."
            + (f" Where {human}'s cell gives the opposite call (the cells the chart outlines for it: its gain "
               "tested against the call, Holm-corrected over the chart's tests), its cell follows the seat's line."
               if human else "") + "\n"]
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
        for pos in order:
            seat = table[table["position"] == pos]
            if not len(seat):
                continue
            said = []
            for _, r in seat.iterrows():
                cells = ", ".join(f"`{c}` " + (f"{g:+.2f} ±{(hi - lo) / 2:.2f}" if n >= 30 else
                                                f"{n} hand{'s' if n != 1 else ''}")
                                  for c, g, lo, hi, n in r["cells"])
                verb = {"order": word, "close": "either (a toss-up)", "too few hands": "too few hands to say",
                        "pass": "pass"}[r["call"]]
                said.append(f"{verb}: {cells}")
            line = f"- **{pos}**: " + "; ".join(said)
            mine = calls[calls["position"].astype(str) == pos]
            other = [(c, theirs.loc[(pos, c)]) for c, d in zip(mine["hand_class"], mine["differ"].fillna(""))
                     if human in str(d).split(", ") and (pos, c) in theirs.index] if theirs is not None else []
            if other:
                line += (f". Against seats that call as people do ({human}): " + ", ".join(
                    f"`{c}` {'order' if r['gain'] > 0 else 'pass'} ({r['gain']:+.2f} ±{(r['ci_high'] - r['ci_low']) / 2:.2f})"
                    for c, r in other))
            text.append(line + ".")
        text.append("")
    return text


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
                right = "" if not len(mine) else (
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
    text = ["## Where the play models agree\n"]
    if len(policies) > 1:
        counts = models["models"].value_counts()
        text.append("Per seat, round and hand class, the models' 95% intervals overlap (`agree`) or not "
                    "(`differ`); cells with fewer than 30 hands in a model are left out: "
                    + ", ".join(f"{v} {k}" for k, v in counts.items()) + " (`order_up_models.csv`).\n")
        shown = models[models["models"].str.startswith("differ")].head(12)
        if len(shown):
            text.append("Where the answer depends on the model:\n\n" + md_table(shown, "{:+.2f}") + "\n")
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
