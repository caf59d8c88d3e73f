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
from euchresim.report import Section, targeted_words
from euchresim.analysis.call_stats import (HAND_CLASS_NOTE, PUBLISHED_CALL, TOSS_UP, best_suit, class_order,
                                      count_points, gain_table, hand_class, model_compare, played_features,
                                      table_calls)
from euchresim.report.paired_chunks import MIN_INTERVAL_HANDS, chose_note, collect
from euchresim.report.order_up_count import count_text, hands_counted, count_tables
from euchresim.report.order_up_text import (_at_the_table_text, _by_seat_text, _decision_text, _heat_name,
                                            _heatmap_text, _like_people, _method_text, _models_text, _sorted_calls,
                                            _tables_text, _upcard_text, people_model)

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
    t = _tables(df, policies, order, cheats=[p for p in policies if ctx.model(p).cheats])
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
    text = (_at_the_table_text(ctx, t, charts, policies)
            + _decision_text(t, policies, order, ctx.canonical, ctx.rules.stick_the_dealer) + _method_text()
            + _by_seat_text(t, order, strong, policies[0])
            + _heatmap_text(ctx, counts, policies)
            + (human[0] if human is not None else []) + _models_text(t["order_up_models"], policies)
            + _upcard_text(t["order_up_by_upcard"], policies[0])
            + count_text(ctx, t, charts, policies, counts) + _tables_text() + chose_note(policies, ctx.models))
    if human is not None:
        t["order_up_like_people"] = human[1]
    return Section(title="When to order up: paired counterfactuals", text="\n".join(text), tables=t,
                   charts=charts)


def _tables(df: pd.DataFrame, policies: list, order: list, cheats=()) -> dict:
    """The gain tables by seat and round, hand class, upcard and feature, and the fair models side by side
    (``cheats``, a model that sees every card, left out there: its cell is a bound, no advice, and a list of
    cells where "the call depends on the model" counted dd's 24 times in 31)."""
    by_pos = gain_table(df, ["policy", "round", "position"])
    by_class = gain_table(df, ["policy", "round", "position", "hand_class"])
    by_up = gain_table(df[df["round"] == 1], ["policy", "position", "up_rank"])
    feats = []
    for feat in FEATURES:
        t = gain_table(df, ["policy", "round", "position", feat]).rename(columns={feat: "level"})
        t.insert(3, "feature", feat)
        feats.append(t)
    by_feat = pd.concat(feats, ignore_index=True)
    fair = [p for p in policies if str(p) not in {str(c) for c in cheats}]
    models = model_compare(by_class, ["round", "position", "hand_class"], fair) if len(fair) >= 2 else \
        pd.DataFrame({"round": [], "position": [], "hand_class": [], "models": []})
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
    few = by_pos["n"] < MIN_INTERVAL_HANDS         # a normal interval on a handful of hands is no interval
    charts["bars_position"] = plots.bars(
        by_pos.assign(where=by_pos["position"].astype(str) + " r" + by_pos["round"].astype(str),
                      ci_low=by_pos["ci_low"].mask(few), ci_high=by_pos["ci_high"].mask(few)),
        "where", "gain", ctx.path("bars_position.png"), title="Gain of calling over passing by seat and round",
        caption=ctx.caption(", ".join(policies), counts["bars_position"], "one bar per play model; a bar on "
                            f"under {MIN_INTERVAL_HANDS} hands has no interval"),
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
                               f"({human})", _sorted_calls(calls)))           # its definition: the caption
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
