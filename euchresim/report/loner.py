"""``euchresim report loner``: going alone against playing with partner (Cutthroat: the dummy), and defending alone.

Every deal that reaches the maker's choice is played out both ways, the
same policies for the rest; the gain of going alone is the difference in
the hand's net points (the maker's side less the other side; Cutthroat:
the maker less the mean of the other two).  The trump the maker chose is
the ordinary hand's (the ordinary hand passes the decision).  Defending
alone likewise, for the defender asked.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from euchresim.analysis import position_names
from euchresim.engine.tables import build_tables
from euchresim.report import Section, md_table, targeted_words
from euchresim.analysis.call_stats import (PUBLISHED_ALONE, PUBLISHED_URL, class_order, count_points, evaluate, fit_count,
                                      recovered,
                                      HAND_CLASS_NOTE, gain_table, hand_class, interval_sign, model_compare,
                                      played_features, published_points)
from euchresim.analysis.count_error import REFITS, refits, spread
from euchresim.report import loner_decisions
from euchresim.report.order_up_count import outside_refits, with_refit_range
from euchresim.report.paired_chunks import MIN_INTERVAL_HANDS, chose_note, collect, fmt_gain

FEATURES = ("trumps", "right", "left", "off_aces", "voids")


def deal_frame(d: dict, who: str, players: int, tab, policy: str) -> pd.DataFrame:
    """One row per deal that reached the choice: the deciding hand's classes under the trump made, the gain."""
    n = len(d["seat"])
    rows = np.arange(n)
    hand = d["hands"][rows, d["seat"]]
    opts = d["options"]
    ok = (opts == 1).any(axis=1) & (opts == 0).any(axis=1) & (d["trump"] >= 0)
    gain = d["net"][rows, np.argmax(opts == 1, axis=1)] - d["net"][rows, np.argmax(opts == 0, axis=1)]
    r1 = d["make_round"] == 1
    f = played_features(hand, np.maximum(d["trump"], 0), d["upcard"], d["pos"], r1, players, tab)
    f["up_signed"] = np.where(r1, f["up_signed"], 0)           # the upcard is in play in round one only
    f.insert(0, "policy", policy)
    f.insert(1, "who", who)
    f.insert(2, "round", d["make_round"])
    f.insert(3, "position", [position_names(players)[p] for p in d["pos"]])
    f["pos"] = d["pos"]
    f["chunk"] = d["chunk"]
    f["hand_class"] = hand_class(f)
    f["published"] = published_points(f)
    f["gain"] = gain
    f["took"] = (d["chosen"] == 1).astype(int)
    return f[ok].reset_index(drop=True)


def build(ctx) -> Section:
    policies = list(ctx.policies)
    players = ctx.rules.players
    if players == 2:
        return Section(title="Going alone", text="Nobody goes alone with two players (R8): there is nothing "
                                                 "to compare.\n")
    maker_word = "with the dummy" if players == 3 else "with partner"
    df, note_def = _deals(ctx, policies)
    t = _tables(df, policies, [p for p, m in zip(policies, ctx.models) if m.cheats])
    t.update(_fitted_count(df, policies, maker_word))
    charts, counts = _charts(ctx, df, t, policies)
    strong = None
    if ctx.classes:             # the makers' headline cells from targeted deals (report/loner_targeted.py)
        from euchresim.report import loner_targeted as targeted
        from euchresim.report.replicate import replicated
        tab = build_tables(ctx.rules)
        tdf, shares = targeted.simulate(ctx, tab, deal_frame)
        head = targeted.headline_table(tdf, shares, df, policies[0], players)
        t["loner_headline"] = replicated(ctx, head, lambda c: targeted.simulate(c, tab, deal_frame)[0])
        strong = targeted.headline_text(t["loner_headline"], df, policies, targeted_words(ctx), ctx.class_reached)
    decisions = loner_decisions.decisions(df, policies[0], players, t.get("loner_headline"))
    if decisions:
        from euchresim.report.order_up_text import people_model
        charts["decision_card"] = loner_decisions.decision_card(ctx, decisions, policies[0], df,
                                                                people_model(policies[1:], ctx.canonical))
    text = (_method_text(players, maker_word, note_def) + _gain_text(t, players, strong, df, policies[0])
            + loner_decisions.decision_text(decisions, policies, players, df, ctx.canonical)
            + _where_it_pays_text(t["loner_fit"], t["loner_fit_by_seat"]) + _chart_text(ctx, charts, counts, policies)
            + _threshold_text(t) + count_text(t, policies[0]) + _models_text(t["loner_models"], policies)
            + chose_note(policies, ctx.models))
    return Section(title="Going alone: paired counterfactuals", text="\n".join(text), tables=t, charts=charts)


def _deals(ctx, policies: list) -> tuple[pd.DataFrame, str]:
    """Every model's makers' and defenders' deals, one frame; and a note when defending alone needed other rules."""
    players = ctx.rules.players
    rules_def = ctx.rules
    note_def = ""
    if players == 4 and not ctx.rules.defend_alone:
        rules_def = replace(ctx.rules, defend_alone=True)
        note_def = ("The run's rules do not allow defending alone (R8), so that part was played with "
                    "`defend_alone` on and everything else the same; the maker's part uses the run's rules.")
    frames = []
    for k, policy in enumerate(policies):
        tab = build_tables(ctx.rules)
        d = collect(ctx, k, "alone", None, "maker alone?", with_trump=True)
        if len(d["seat"]):
            frames.append(deal_frame(d, "maker", players, tab, policy))
        d = collect(ctx, k, "defend_alone", None, "defend alone?", rules=rules_def, with_trump=True,
                    count=ctx.defend_hands if k == 0 and ctx.defend_hands else None)
        if len(d["seat"]):
            frames.append(deal_frame(d, "defender", players, build_tables(rules_def), policy))
    df = pd.concat(frames, ignore_index=True)
    df["policy"] = pd.Categorical(df["policy"], policies, ordered=True)
    return df, note_def


def _tables(df: pd.DataFrame, policies: list, cheats=()) -> dict:
    """The gain tables: by round made, hand class, feature, published points; the models side by side.

    ``cheats``: those of ``policies`` whose models cheat (left out of ``loner_fit``).
    """
    by_class = _with_seats_test(gain_table(df, ["policy", "who", "hand_class"]),
                                gain_table(df, ["policy", "who", "round", "position", "hand_class"]))
    feats = []
    for feat in FEATURES:
        t = gain_table(df, ["policy", "who", feat]).rename(columns={feat: "level"})
        t.insert(2, "feature", feat)
        feats.append(t)
    fair = [p for p in policies if str(p) not in {str(c) for c in cheats}]     # a cheat's cell is no advice
    models = model_compare(by_class, ["who", "hand_class"], fair) if len(fair) >= 2 else pd.DataFrame()
    for c in [c for c in models if c.startswith("n_")]:
        models[c] = models[c].fillna(0).astype(int)
    return {"loner_by_round": gain_table(df, ["policy", "who", "round"]), "loner_by_class": by_class,
            "loner_by_feature": pd.concat(feats, ignore_index=True), "loner_fit": _alone_where_it_pays(by_class, cheats),
            "loner_fit_by_seat": _alone_where_it_pays(
                gain_table(df[df["who"] == "maker"], ["policy", "who", "round", "position", "hand_class"]), cheats,
                min_deals=MIN_INTERVAL_HANDS),
            "loner_by_points": gain_table(df.assign(points=np.clip(df["published"], 0, 24)),
                                          ["policy", "who", "points"]),
            "loner_models": models}


def _fitted_count(df: pd.DataFrame, policies: list, maker_word: str) -> dict:
    """A loner count fitted to the first model's makers (even chunks), judged on the rest beside other rules."""
    first = policies[0]
    maker = df[df["who"] == "maker"]
    fitting = maker[(maker["policy"] == first) & (maker["chunk"] % 2 == 0)]
    pts = thr = spread_t = pd.DataFrame()
    ev_rows = []
    if len(fitting) >= 20:
        fit = fit_count(fitting, group="round")
        pts = pd.DataFrame([{"card_class": c, "points": v, "fitted_gain": fit["weights"][c]}
                            for c, v in fit["points"].items()])
        thr = pd.DataFrame([{"round": r, "fitted_threshold": t, "published_threshold": PUBLISHED_ALONE}
                            for r, t in fit["thresholds"].items()])
        for policy in policies:
            held = maker[(maker["policy"] == policy) & ((maker["chunk"] % 2 == 1) | (policy != first))]
            if not len(held):
                continue
            gain = held["gain"].to_numpy(float)
            rules = {"fitted count": count_points(held, fit["points"])
                     >= held["round"].map(fit["thresholds"]).fillna(np.inf).to_numpy(),
                     **_baselines(held, policy, maker_word)}
            own = rules[f"{policy}'s own choice"]
            for name, call in rules.items():
                ev_rows.append({"policy": policy, "deals_from": "odd chunks (held out)" if policy == first else "all",
                                "rule": name, **evaluate(gain, call), **recovered(gain, call, own)})
        mine = maker[maker["policy"] == first]
        spread_t = spread(refits(mine, _baselines(mine, first, maker_word), group="round"))
        thr = with_refit_range(thr, spread_t, name_as="round", on=("round",))
    return {"loner_count_points": pts, "loner_count_thresholds": thr, "loner_count_eval": pd.DataFrame(ev_rows),
            "loner_count_refits": spread_t}


def _baselines(held: pd.DataFrame, policy: str, maker_word: str) -> dict:
    """The rules a fitted loner count is judged beside, as calls on every row of ``held``."""
    return {f"published count (alone at {PUBLISHED_ALONE}+)": held["published"].to_numpy() >= PUBLISHED_ALONE,
            f"{policy}'s own choice": held["took"].to_numpy(bool),
            f"never alone ({maker_word})": np.zeros(len(held), bool)}


def _charts(ctx, df: pd.DataFrame, t: dict, policies: list) -> tuple[dict, dict]:
    """Heatmaps and threshold curves for the maker and the defender, and the bars by round made; and the
    hands behind each chart, which its caption in the chart and in the README both give."""
    from euchresim import plots
    by_class, by_points, by_who = t["loner_by_class"], t["loner_by_points"], t["loner_by_round"]
    n_of = {(p, w): int(((df["policy"] == p) & (df["who"] == w)).sum()) for p in policies for w in ("maker", "defender")}
    charts, counts = {}, {}
    for who in ("maker", "defender"):
        c = by_class[by_class["who"] == who].copy()
        if not len(c):
            continue
        c["hand_class"] = pd.Categorical(c["hand_class"], [k for k in class_order() if k in set(c["hand_class"])],
                                         ordered=True)
        counts[f"heatmap_{who}"] = sum(n_of[(p, who)] for p in policies)
        charts[f"heatmap_{who}"] = plots.heatmap(
            c.sort_values(["policy", "hand_class"]), "policy", "hand_class", "gain", ctx.path(f"heatmap_{who}.png"),
            title=f"Gain of {'going alone' if who == 'maker' else 'defending alone'} by hand class and play model",
            caption=ctx.caption(", ".join(policies), counts[f"heatmap_{who}"],
                                f"the {who}'s choices, every seat and both rounds together: "
                                + _differ_words(c, policies[0]) + f" (each seat's cells: the decision table); "
                                f"{HAND_CLASS_NOTE}"),
            ci_low="ci_low", ci_high="ci_high", row_label="play model", col_label="trumps held, bowers",
            value_label="gain (points)", count="n")
        tp = by_points[(by_points["who"] == who) & (by_points["n"] >= MIN_INTERVAL_HANDS)]
        counts[f"threshold_{who}"] = int(tp["n"].sum())
        charts[f"threshold_{who}"] = plots.threshold(
            tp, "points", "gain", ctx.path(f"threshold_{who}.png"),
            title=f"Gain of {'going alone' if who == 'maker' else 'defending alone'} by the published point count",
            caption=ctx.caption(", ".join(policies), counts[f"threshold_{who}"],
                                f"points with {MIN_INTERVAL_HANDS}+ deals, the hands behind them"),
            ci_low="ci_low", ci_high="ci_high", group="policy", x_label="published points (euchrestrategy.info)",
            y_label="gain (points)")
    counts["bars_round"] = len(df)
    few = by_who["n"] < MIN_INTERVAL_HANDS         # a normal interval on a handful of hands is no interval
    charts["bars_round"] = plots.bars(
        by_who.assign(what=by_who["who"] + " r" + by_who["round"].astype(str),
                      ci_low=by_who["ci_low"].mask(few), ci_high=by_who["ci_high"].mask(few)), "what", "gain",
        ctx.path("bars_round.png"), title="Gain of going alone (maker) and defending alone, by round made",
        caption=ctx.caption(", ".join(policies), len(df), "one bar per play model; a bar on under "
                            f"{MIN_INTERVAL_HANDS} hands has no interval"),
        ci_low="ci_low", ci_high="ci_high", group="policy", value_label="points a hand",
        category_label="who chose, and the round trump was made (r1, r2)")
    return charts, counts


def _differ_words(c: pd.DataFrame, main: str) -> str:
    """How many of the main model's pooled classes have seats and rounds that differ (``_with_seats_test``)."""
    mine = c[(c["policy"] == main) & c["seats_p"].notna()]
    differ = mine["seats_p"] < 0.05
    return (f"under {main} the seats and rounds differ in {int(differ.sum())} of {len(mine)} classes tested "
            f"(Cochran's Q, 5%), with opposite answers in {int((differ & mine['seats_split']).sum())} "
            "(seats_p, seats_split in loner_by_class.csv)")


def _alone_word(players: int) -> str:
    return "Going alone" if players == 4 else "Going alone instead of taking the dummy"


def _method_text(players: int, maker_word: str, note_def: str) -> list[str]:
    text = [f"Every deal that reaches the maker's choice is played out alone and {maker_word}, the same "
            "policies for the rest; the gain is the difference in the hand's **net points** ("
            + ("the maker's side less the other side" if players == 4 else "the maker less the mean of the "
               "other two") + "), deal by deal. Defending alone: the defender asked, alone or not ("
            + ("only once the maker has gone alone, R8" if players == 4 else "whether or not the maker went "
               "alone, R9") + "). Hand "
            "classes are of the hand the seat plays under the trump made: the dealer's, when trump is the "
            "upcard's suit, with the upcard it takes up (its six cards before the discard), every other hand "
            "as dealt (`3T R`: three trumps with the right bower).\n"]
    if note_def:
        text.append(note_def + "\n")
    return text


def _gain_text(t: dict, players: int, strong: tuple | None = None, df: pd.DataFrame | None = None,
               main: str | None = None) -> list[str]:
    """The gain of going and of defending alone by round made, and for the strongest makers' classes
    (``strong``: the words and the lines of the classes whose main-model cells come from targeted deals).

    Each round's line pools the seats, so the main model's cell at each seat
    follows it (``df``, ``main``), with the test of whether the seats agree:
    a pooled figure is an answer for one seat only where they do (issue 36)."""
    by_who, by_class = t["loner_by_round"], t["loner_by_class"]
    alone = _alone_word(players)
    text = [f"## {alone}\n"]
    for who, word in (("maker", alone.lower()), ("defender", "defending alone")):
        for rnd in (1, 2):
            rows = by_who[(by_who["who"] == who) & (by_who["round"] == rnd)]
            if len(rows):
                text.append(f"- {who}, trump made in round {rnd}: {word} gains "
                            + "; ".join(fmt_gain(r, r["policy"]) for _, r in rows.iterrows())
                            + _right_words(rows, main) + "."
                            + (seat_words(df, main, who, rnd, players) if df is not None else ""))
    text.append("")
    targeted = strong[1] if strong else {}
    if strong:
        text.append(strong[0])
    for cls in [c for c in class_order()[::-1] if c in {"4+T RL", "4+T R", "3T RL", *targeted}]:
        if cls in targeted:
            text.append(targeted[cls])
            continue
        rows = by_class[(by_class["who"] == "maker") & (by_class["hand_class"] == cls)]
        if len(rows):
            text.append(f"- maker with `{cls}`: " + "; ".join(fmt_gain(r, r["policy"]) for _, r in rows.iterrows()) + ".")
    text.append("")
    return text


def _right_words(rows: pd.DataFrame, main: str | None) -> str:
    """How often going (defending) alone was right, the main model's (``main``; the first row where not
    given), and nothing where the main model has no hands: never another model's in its place."""
    mine = rows[rows["policy"].astype(str) == str(main)] if main is not None else rows.iloc[:1]
    return f"; right on {mine.iloc[0]['right']:.1%} of hands ({mine.iloc[0]['policy']})" if len(mine) else ""


def seat_words(df: pd.DataFrame, main: str, who: str, rnd: int, players: int) -> str:
    """The main model's cell of one who and round at each seat, in speaking order, and whether the seats
    agree (Cochran's Q, ``analysis.targeted_stats.seats_agree``): "" when fewer than two seats have deals."""
    from euchresim.analysis import speaking_order
    from euchresim.analysis.targeted_stats import seats_agree, seats_verdict
    sub = df[(df["policy"] == main) & (df["who"] == who) & (df["round"] == rnd)]
    if not len(sub):
        return ""
    cells = gain_table(sub, ["position"]).set_index("position")
    order = [p for p in (position_names(players)[s] for s in speaking_order(players)) if p in cells.index]
    if len(order) < 2:
        return ""
    parts = []
    for pos in order:
        c = cells.loc[pos]
        half = (c["ci_high"] - c["ci_low"]) / 2
        digits = 3 if half < 0.01 else 2           # two digits that say something, not ±0.00 (as fmt_gain)
        parts.append(f"{pos} {c['gain']:+.{digits}f} ±{half:.{digits}f}"
                     if int(c["n"]) >= MIN_INTERVAL_HANDS and half == half
                     else f"{pos} {c['gain']:+.2f} ({int(c['n'])} hand{'s' if int(c['n']) != 1 else ''})")
    tested = [p for p in order if int(cells.loc[p, "n"]) >= MIN_INTERVAL_HANDS]   # a seat without an interval
    test = seats_agree(cells.loc[tested, "gain"], cells.loc[tested, "ci_low"], cells.loc[tested, "ci_high"])
    verdict = seats_verdict(test, "the pooled figure is no seat's answer")
    return f" By seat ({main}): " + ", ".join(parts) + f"; {verdict}."


def _where_it_pays_text(fit: pd.DataFrame, by_seat: pd.DataFrame | None = None) -> list[str]:
    if not len(fit):
        return []
    text = ["## Does the bot go alone where it pays?\n",
            "For each maker's hand class with 200 or more deals: the gain of going alone (95% interval), "
            "whether it pays (the interval above 0), costs (below 0) or cannot be told, and how often "
            "the policy itself went alone there. A policy that plays for points goes alone where it "
            "pays and not where it costs (`loner_fit.csv`). The classes pool the seats and both rounds, so "
            "beside each is whether its cells per seat and round (30 or more hands each) share one gain, "
            "Cochran's Q (`seats_p`: under 5%, the pooled gain is no seat's figure); where they differ and "
            "give opposite answers (one cell above 0 and another below, each tested against 0 with Holm's "
            "correction over the class's cells: `seats_split`), the class's verdict is \"differs by seat\" (each "
            "seat's answer: the decision table, whose round-one cells of the targeted classes come from their "
            "targeted deals; these from the untargeted).\n"]
    for policy, g in fit.groupby("policy", sort=False):
        pays, costs = g[g["verdict"] == "pays"], g[g["verdict"] == "costs"]
        differ = int((g["verdict"] == "differs by seat").sum())
        text.append(f"- {policy}: " + _alone_in(pays, "classes", "it pays") + ", and " + _alone_in(costs, "", "it costs")
                    + (f" ({differ} more differ by seat)" if differ else "") + ".")
    if by_seat is not None and len(by_seat):
        text.append("\nPer seat, round and class (the untargeted deals, "
                    f"{MIN_INTERVAL_HANDS} or more each, `loner_fit_by_seat.csv`):\n")
        for policy, g in by_seat.groupby("policy", sort=False):
            pays, costs = g[g["verdict"] == "pays"], g[g["verdict"] == "costs"]
            text.append(f"- {policy}: alone on {_share_alone(pays):.1%} of the deals in the {len(pays)} cells "
                        f"where it pays, and on {_share_alone(costs):.1%} of those in the {len(costs)} where "
                        "it costs.")
    shown = fit[[c for c in ("policy", "hand_class", "n", "gain", "ci_low", "ci_high", "seats_p", "verdict",
                             "alone_rate") if c in fit]].copy()
    if "seats_p" in shown:
        shown["seats_p"] = [("–" if p != p else "< 0.001" if p < 0.001 else f"{p:.3f}") for p in shown["seats_p"]]
    from euchresim.plots.drawing import fmt_value        # 99.5% is not printed as 100% (issue 36)
    shown["alone_rate"] = [fmt_value("{:.0%}", x) for x in shown["alone_rate"]]
    text.append("\n" + md_table(shown, "{:+.2f}") + "\n")
    return text


def _chart_text(ctx, charts: dict, counts: dict, policies: list) -> list[str]:
    """Each chart under its caption, with the hands behind that chart (as the chart's own caption gives)."""
    return [f"![{name}]({name}.png)\n\n*{ctx.caption(', '.join(policies), counts[name])}*\n"
            for name in ("heatmap_maker", "threshold_maker", "bars_round", "heatmap_defender", "threshold_defender")
            if name in charts]


def _threshold_text(t: dict) -> list[str]:
    """Where going (defending) alone first gains, on the published count."""
    text = ["## Thresholds\n"]
    for (policy, who), g in t["loner_by_points"].groupby(["policy", "who"], observed=True):
        g = g[g["n"] >= MIN_INTERVAL_HANDS].sort_values("points")
        pos = g[g["gain"] > 0]
        if len(g):
            text.append(f"- {who}, {policy}: {'going' if who == 'maker' else 'defending'} alone first gains at "
                        + (f"{int(pos['points'].iloc[0])} published points ({fmt_gain(pos.iloc[0], policy)})"
                           if len(pos) else f"no count with {MIN_INTERVAL_HANDS}+ deals")
                        + f" (the page says {PUBLISHED_ALONE}+ to consider it).")
    text.append("")
    return text


def count_text(t: dict, first: str) -> list[str]:
    """The fitted loner count: its points (with a sentence where a lower trump outweighs a higher one), its
    thresholds beside their refits' range, and every rule judged first in points given up and the share of
    the bot's own gain over never going alone it keeps (agreement counts a tie as a pick, so it comes last)."""
    from euchresim.report.order_up_count import doubted_values_text, refit_rule_lines
    pts, thr, ev = t["loner_count_points"], t["loner_count_thresholds"], t["loner_count_eval"]
    if not len(pts):
        return []
    text = [f"A fitted loner count (least squares on the {first} makers' even chunks, right bower = 4) "
            "and per-round thresholds:\n\n" + md_table(pts.assign(fitted_gain=pts["fitted_gain"].round(3)))
            + "\n", doubted_values_text(pts), md_table(thr) + "\n", _outside_refits_text(thr),
            f"Against the published count ({PUBLISHED_URL}, alone at {PUBLISHED_ALONE}+), on the same deals: "
            "*given up* is the points a hand lost against the better choice, *keeps* the share of the "
            "bot's own gain over never going alone that a rule keeps in those points (over 100% where the rule "
            "does better than the bot's own choices), *agrees* the share of "
            "deals where the rule picks the better choice (a tie counts as a pick, so it says little of the "
            "points at stake):\n"]
    for _, r in ev.iterrows():
        keeps = ""
        if r["rule"].startswith(("fitted", "published")) and r.get("recovered") == r.get("recovered"):
            keeps = (f"keeps {r['recovered']:.0%} ({r['recovered_low']:.0%}-{r['recovered_high']:.0%}) of "
                     f"{r['policy']}'s own gain over never going alone; ")
        text.append(f"- {r['rule']}, {r['policy']} ({r['deals']:,} deals, {r['deals_from']}): {keeps}gives up "
                    f"{r['given_up']:.3f} points a hand ({r['given_up_low']:.3f}-{r['given_up_high']:.3f}); agrees "
                    f"{r['agree']:.1%} ({r['agree_low']:.1%}-{r['agree_high']:.1%}).")
    text.append("")
    sp = t["loner_count_refits"]
    if len(sp):
        text.append(f"How much the count moves with the deals it is fitted on: refitted {REFITS} times on the "
                    f"{first} makers, each time on a seeded random half and judged on the other half, beside the "
                    "baselines on the same held-out half (mean, and min to max over refits; "
                    "`loner_count_refits.csv` has the SD too):\n")
        for what, unit in (("points", "points"), ("threshold", "thresholds by round")):
            g = sp[sp["what"] == what]
            text.append(f"- {unit}: " + ", ".join(f"{r['name']} {r['mean']:.1f} ({r['min']:.0f} to {r['max']:.0f})"
                                                for _, r in g.iterrows()) + ".")
        text += [f"- {line}" for line in refit_rule_lines(sp)]
        text.append("")
    return text


def _outside_refits_text(thr: pd.DataFrame) -> str:
    """A sentence naming the rounds whose threshold the refits never gave, or saying every one lies within."""
    if "within" not in thr:
        return ""
    off = outside_refits(thr)
    if not len(off):
        if thr["within"].isna().all():
            return ""
        return ("Each round's threshold lies within the range its refits on other halves of the deals gave "
                f"(`refits_min`, `refits_max`; {REFITS} refits: a range, not an interval).\n")
    said = "; ".join(f"round {r['round']}: {r['fitted_threshold']:g} (refits {r['refits_min']:g}-"
                     f"{r['refits_max']:g})" for _, r in off.iterrows())
    return (f"Some thresholds lie outside the range their {REFITS} refits gave ({said}; a range of {REFITS}, not "
            "an interval: a sixth fit falls outside it now and then by chance alone): where the gain near the "
            "threshold is flat it moves from half to half of the deals; use the refits' range there.\n")


def _models_text(models: pd.DataFrame, policies: list) -> list[str]:
    """The fair play models side by side by class (a model that sees every card is left out: its cells are
    no advice); whether their intervals overlap is a description, not a test corrected for its number."""
    if len(policies) < 2 or not len(models) or "models" not in models:
        return []
    counts = models["models"].value_counts()
    fair = [c[len("gain_"):] for c in models if c.startswith("gain_")]
    if len(fair) < 2:
        return []
    text = ["## Where the play models agree\n\nBy hand class, the fair models (" + ", ".join(fair) + "; a "
            "model that sees every card is left out), their 95% intervals overlapping or not, cells of 30 or "
            "more hands in each model (an overlap is a description, not a test corrected for the number of "
            "cells): " + ", ".join(f"{v} {k}" for k, v in counts.items()) + " (`loner_models.csv`).\n"]
    shown = models[models["models"].str.startswith("differ")].head(12)
    if len(shown):
        text.append(md_table(shown, "{:+.2f}") + "\n")
    return text


def _with_seats_test(by_class: pd.DataFrame, cells: pd.DataFrame) -> pd.DataFrame:
    """``by_class`` (pooled over seats and rounds) with whether its cells per seat and round (``cells``, 30 or
    more hands each) share one gain, Cochran's Q (``seats_q``, ``seats_p``; NaN under two such cells), and
    whether they give opposite answers (``seats_split``, Holm-corrected).  A pooled figure is every seat's only
    where Q does not reject; a pooled answer is none where they split: three trumps with both bowers pooled to
    "pays" where it costs at the dealer's partner and right."""
    from euchresim.analysis.targeted_stats import seats_agree, seats_split
    cells = cells[cells["n"] >= MIN_INTERVAL_HANDS]
    groups = {k: g for k, g in cells.groupby(["policy", "who", "hand_class"], observed=True)}
    found = [groups.get(key) for key in zip(by_class["policy"], by_class["who"], by_class["hand_class"])]
    cols = [(g["gain"], g["ci_low"], g["ci_high"]) if g is not None else None for g in found]
    tests = [seats_agree(*c) if c is not None else {"q": np.nan, "p": np.nan} for c in cols]
    return by_class.assign(seats_q=[t["q"] for t in tests], seats_p=[t["p"] for t in tests],
                           seats_split=[c is not None and seats_split(*c) for c in cols])


def _alone_where_it_pays(by_class: pd.DataFrame, cheats, min_deals: int = 200) -> pd.DataFrame:
    """The makers' classes with their gain, its verdict and the policy's own alone rate (``policy_chose``).

    Cheats (``dd``; ``cheats``: the play models, as given, whose models say
    they cheat) are left out: their ``policy_chose`` comes from rollouts
    that make later calls as ``heuristic`` would (``report.paired_chunks.chose_note``).
    """
    cheats = {str(p) for p in cheats}
    t = by_class[(by_class["who"] == "maker") & (by_class["n"] >= min_deals)
                 & ~by_class["policy"].astype(str).isin(cheats)].copy()
    sign = interval_sign(t["ci_low"], t["ci_high"])
    t["verdict"] = np.where(sign > 0, "pays", np.where(sign < 0, "costs", "cannot tell"))
    if "seats_p" in t:          # pooled over seats and rounds with opposite answers: no answer (_with_seats_test)
        t["verdict"] = np.where((t["seats_p"] < 0.05) & t["seats_split"].astype(bool), "differs by seat",
                                t["verdict"])
    t["alone_rate"] = t["policy_chose"]
    return t.reset_index(drop=True)


def _alone_in(t: pd.DataFrame, noun: str, where: str) -> str:
    """How often the policy went alone in the cells ``t``, as the summary says it: "alone on 51.0% of the deals
    in the 4 classes where it pays"; "in no class where it pays" where there is none (no rate of nothing)."""
    if not len(t):
        return f"no class where {where}"
    return (f"alone on {_share_alone(t):.1%} of the deals in the {len(t)}{' ' + noun if noun else ''} where {where}"
            if noun else f"on {_share_alone(t):.1%} of those in the {len(t)} where {where}")


def _share_alone(t: pd.DataFrame) -> float:
    """The share of deals in cells ``t`` where the policy went alone (cells weighted by their deals)."""
    return float((t["n"] * t["alone_rate"]).sum() / t["n"].sum()) if len(t) else float("nan")
