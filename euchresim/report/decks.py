"""``euchresim report decks``: 24, 25, 32 and 33 cards with 2, 3 and 4 players, side by side.

Every variant (pack x players, the other rule options as given, those
that do not apply to a variant at their defaults) plays ``--hands`` hands
of the main model for the summary rows (how trump is made, makers'
success, marches, loners, points, the dealer's edge), ``--hands / 10``
games for hands per game, and ``--hands`` paired counterfactuals of the
first round-one call (the dealer's left orders up or passes, the same deal
played both ways, ``counterfactual``) for how the order-up threshold
moves with the pack: the mean gain of ordering over passing by the trumps
the caller holds, and the fewest trumps at which it turns positive.
"""
from __future__ import annotations

import functools
from dataclasses import replace

import numpy as np
import pandas as pd

from euchresim.analysis import summary_frame
from euchresim.stats import mean_ci, wilson
from euchresim.cards import JOKER, has_joker
from euchresim.report import Section, chunked, md_table, spec_key
from euchresim.report import decks_models as M
from euchresim.report.appendix import appendix, deal_rows
from euchresim.report.euchre_rates import pct, pts, run_spec, tally_chunks
from euchresim.report.replicate import again_words, rates_again

PACKS = (24, 25, 32, 33)
PLAYERS = (2, 3, 4)
MIN_CELL = 30
# statistic: (words, a rate?)
STATS = {
    "made in round one": ("trump made in round one (share of hands)", True),
    "made in round two": ("trump made in round two (share of hands)", True),
    "thrown in": ("thrown in (share of hands)", True),
    "makers took 3+": ("makers took 3+ tricks (share of made hands)", True),
    "march": ("makers marched (share of made hands)", True),
    "maker alone": ("maker went alone (share of made hands)", True),
    "makers' points per made hand": ("makers' points per made hand", False),
    "dealer's edge": ("edge of the dealer's side, points per hand", False),
    "hands per game": ("hands per game", False),
}
SUMMARY_ROW = {"made in round two": "made round 2", "thrown in": "thrown in",
               "makers took 3+": "makers took 3+ tricks", "march": "march", "maker alone": "maker alone",
               "makers' points per made hand": "points per made hand, makers"}


def variant_rules(base, players: int, deck: int):
    """``base`` with this pack and player count; options that do not apply go back to their defaults."""
    kw = {"players": players, "deck": deck}
    if players != 4:
        kw["defend_alone"] = False
    if players != 3:
        kw.update(both_alone_lead="defender", cutthroat_tie="maker")
    if not has_joker(deck):
        kw["joker_upcard"] = "dealer-names"
    return replace(base, **kw)


def _cf_job(spec, i):
    """Chunk i's order-up gains by the caller's trumps: deals, policy orders, sum and sum of squares.

    The gain is in the hand's points of the caller's side less the other
    side's (with 3 players less the mean opponent's), as the dealer's edge
    is counted: a seat's own points alone would not charge a euchre with 2
    or 3 players, where only the defenders score.
    """
    from euchresim.studies import counterfactual as cf
    from euchresim.analysis.odds import special
    r = cf.play_chunk(spec, i, "bid1", position=1)
    players = spec.rules.players
    c1, c0 = r.column(1), r.column(0)
    idx = np.nonzero(r.reached & (r.upcard != JOKER) & (c1 >= 0) & (c0 >= 0))[0]
    pts = r.points[idx][:, :, :players].astype(np.float64)             # deal, option, seat
    own = pts[np.arange(len(idx)), :, r.seat[idx]]
    side = 2 if players == 4 else 1
    rel = own - (pts.sum(axis=2) - side * own) / (players - side)
    g = rel[np.arange(len(idx)), c1[idx]] - rel[np.arange(len(idx)), c0[idx]]
    suit = r.upcard[idx] >> 3
    boards = np.array([special(spec.rules.deck, s, "trumps") for s in range(4)], np.uint64)
    hand = r.hands[idx, r.seat[idx]].astype(np.uint64)
    k = np.bitwise_count(hand & boards[suit]).astype(np.int64)
    return {"deals": np.bincount(k, minlength=6), "ordered": np.bincount(k, r.chosen[idx] == 1, 6),
            "sum": np.bincount(k, g, 6), "sum_sq": np.bincount(k, g * g, 6)}


def _order_gains(ctx, rules, pol) -> pd.DataFrame:
    spec = run_spec(ctx, rules, pol, ctx.hands)
    meta = dict(spec.meta(), what="bid1 position 1 by trumps")
    parts = chunked(ctx, f"decks-cf-{spec_key(meta)}", meta, spec.n_chunks, functools.partial(_cf_job, spec),
                    label=f"order-up {rules.players}p {rules.deck}")
    tot = {k: sum(p[k] for p in parts) for k in ("deals", "ordered", "sum", "sum_sq")}
    rows = []
    for k in range(6):
        n = int(tot["deals"][k])
        if not n:
            continue
        m, lo, hi = mean_ci(float(tot["sum"][k]), float(tot["sum_sq"][k]), n)
        rows.append({"players": rules.players, "deck": rules.deck, "trumps": k, "deals": n,
                     "policy_orders": int(round(tot["ordered"][k])), "gain_mean": m, "gain_low": lo, "gain_high": hi})
    return pd.DataFrame(rows)


def _stat_rows(players, deck, hand_counts, game_counts) -> list[dict]:
    s = summary_frame(hand_counts, players)
    g = summary_frame(game_counts, players)
    out = []

    def add(stat, r):
        out.append({"players": players, "deck": deck, "statistic": stat, "kind": r["kind"], "count": r["count"],
                    "of": r["of"], "value": r["value"], "ci_low": r["ci_low"], "ci_high": r["ci_high"]})

    n = hand_counts["hands"]
    k1 = sum(hand_counts.get(f"made_r1_pos{p}", 0) for p in range(players))
    lo, hi = wilson(k1, n)
    add("made in round one", {"kind": "rate", "count": k1, "of": n, "value": k1 / n, "ci_low": lo, "ci_high": hi})
    for stat, row in SUMMARY_ROW.items():
        hit = s[s["statistic"] == row]
        if len(hit):
            add(stat, hit.iloc[0])
    add("dealer's edge", s[s["statistic"].str.startswith("edge of")].iloc[0])
    add("hands per game", g[g["statistic"] == "hands per game"].iloc[0])
    return out


def build(ctx) -> Section:
    pol = ctx.policies[0]
    games = max(100, ctx.hands // 10)
    stats, gains, deals, heads, variants = _variants(ctx, pol, games)
    summary = pd.DataFrame(stats)
    summary["count"] = summary["count"].astype(object)
    by_trumps = pd.concat(gains, ignore_index=True)
    thresh = _thresholds(by_trumps)
    tables = {"decks_summary": summary, "decks_order_up_by_trumps": by_trumps, "decks_order_up_threshold": thresh}

    def cap(extra=""):
        return (f"policy {ctx.played(pol)} · {ctx.hands:,} hands per variant ({games:,} games for hands per game) · "
                f"seed {ctx.seed} · 95% intervals" + (f" · {extra}" if extra else ""))

    charts, titles = _charts(ctx, summary, by_trumps, cap)
    more_models = len(ctx.policies) > 1
    text = (_findings_text(summary, pol, ctx.hands, more_models) + _threshold_text(thresh) + _tables_text(tables)
            + _charts_text(charts, titles, cap, ctx.rules.players))
    more, refused = M.play_models(ctx, variants) if len(ctx.policies) > 1 else ([], [])
    keys = ["players", "deck", "statistic", "policy"]
    tables["decks_replicate"] = rates_again(ctx.out, M.models_table(heads, more, ctx.policies),
                                            pd.DataFrame(M.again_rows(ctx, variants), columns=M.COLUMNS), keys)
    again = ["", again_words(tables["decks_replicate"], "headline rate of every model in every variant",
                             "decks_replicate.csv",
                             lambda r: f"{r['players']} players, {r['deck']} cards, {r['statistic']}, {r['policy']}")]
    if len(ctx.policies) > 1:
        models = M.models_table(heads, more, ctx.policies)
        tables["decks_models"] = models
        hands = [ctx.hands_for(k) for k in range(len(ctx.policies))]

        def mcap(extra=""):
            return (" · ".join(f"policy {ctx.played(p)}, {n:,} hands per variant" for p, n in zip(ctx.policies, hands))
                    + f" · seed {ctx.seed} · 95% intervals" + (f" · {extra}" if extra else ""))

        mcharts, mtitles = M.models_charts(ctx, models, mcap)
        charts.update(mcharts)
        from euchresim.report.strength import variant_calls
        # docs/policies.md measures the calls in the plain variants: under other rule options, no line is theirs
        plain = replace(type(ctx.rules)(), players=ctx.rules.players, deck=ctx.rules.deck) == ctx.rules
        calls = {p: variant_calls(ctx.canonical(p)) if plain else {} for p in ctx.policies}
        first = M.models_text(models, ctx.policies, hands, refused, calls, plain) + again
        first += ["", "### the headline rates by model (`decks_models.csv`)", "", md_table(models), ""]
        for name in mcharts:
            first += [f"![{mtitles[name]}]({name}.png)", "", f"*{mtitles[name]}: {mcap()}.*", ""]
        text = first + [""] + text
    else:
        text += again
    md, app = appendix(ctx, deals, decks=PACKS)
    tables.update(app)
    return Section(title="Packs and players side by side", text="\n".join(text) + "\n\n" + md, tables=tables,
                   charts=charts)


def _variants(ctx, pol: str, games: int) -> tuple[list, list, dict, list, list]:
    """Every pack and table size: its summary rows, its order-up gains by trumps, the appendix's deals,
    the main model's headline rows and the variants' rules (for the further models)."""
    stats, gains, deals, heads, variants = [], [], {}, [], []
    for players in PLAYERS:
        for deck in PACKS:
            rules = variant_rules(ctx.rules, players, deck)
            hc, _ = tally_chunks(ctx, "decks-hands", run_spec(ctx, rules, pol, ctx.hands),
                                 label=f"hands {players}p {deck}")
            gc, _ = tally_chunks(ctx, "decks-games", run_spec(ctx, rules, pol, games, mode="games"),
                                 label=f"games {players}p {deck}")
            if players == ctx.rules.players:
                deals[deck] = deal_rows(ctx, rules)
            stats += _stat_rows(players, deck, hc, gc)
            gains.append(_order_gains(ctx, rules, pol))
            heads += M.headline_rows(players, deck, pol, hc)
            variants.append((players, deck, rules))
    return stats, gains, deals, heads, variants


def _charts(ctx, summary: pd.DataFrame, by_trumps: pd.DataFrame, cap) -> tuple[dict, dict]:
    """A bar chart a statistic (packs by table size), and the order-up gain by trumps a table size."""
    from euchresim import plots
    charts, titles = {}, {}
    plot = summary.assign(pack=summary["deck"].map(lambda d: f"{d} cards"),
                          table=summary["players"].map(lambda p: f"{p} players"))
    for stat, (words, rate) in STATS.items():
        df = plot[plot["statistic"] == stat]
        if df.empty:
            continue
        name = M.chart_name("decks_", stat)
        titles[name] = f"{words[0].upper()}{words[1:]}, by pack and players"
        charts[name] = plots.bars(df, "pack", "value", ctx.path(f"{name}.png"), title=titles[name], caption=cap(),
                                  ci_low="ci_low", ci_high="ci_high", group="table", value_label=words,
                                  percent=rate, category_label="pack")
    for players in PLAYERS:
        df = by_trumps[(by_trumps["players"] == players) & (by_trumps["deals"] >= MIN_CELL)]
        df = df.assign(pack=df["deck"].map(lambda d: f"{d} cards"))
        name = f"decks_order_up_gain_{players}p"
        titles[name] = f"Order up less pass for the first to speak, by trumps held ({players} players)"
        charts[name] = plots.threshold(df, "trumps", "gain_mean", ctx.path(f"{name}.png"), title=titles[name],
                                       caption=cap(f"paired counterfactuals; cells with {MIN_CELL}+ deals"),
                                       ci_low="gain_low", ci_high="gain_high", group="pack",
                                       x_label="trumps in the caller's hand (upcard's suit)",
                                       y_label="side's edge in the hand, order less pass")
    return charts, titles


def _findings_text(summary: pd.DataFrame, pol: str, hands: int, more_models: bool = False) -> list[str]:
    """The main model's every statistic; beside further models, under its name as the finer statistics of the
    game (the headline rates of every model come first: ``decks_models.models_text``)."""
    text = [f"## More of the game under {pol} ({hands:,} hands per variant)" if more_models
            else f"## Findings ({pol}, {hands:,} hands per variant)", ""]
    text.append("Each line gives the value with its 95% interval, pack by pack, for 2, 3 and 4 players.")
    for stat, (words, rate) in STATS.items():
        df = summary[summary["statistic"] == stat]
        if df.empty:
            continue
        text += ["", f"**{words[0].upper()}{words[1:]}**", ""]
        for players in PLAYERS:
            part = df[df["players"] == players]
            if part.empty:
                continue
            fmt = pct if rate else (pts if stat == "dealer's edge" else num)
            say = [f"{r.deck} cards {fmt(r.value, r.ci_low, r.ci_high)}"
                   for r in part.itertuples(index=False)]
            text.append(f"- {players} players: " + "; ".join(say) + ".")
    return text


def _threshold_text(thresh: pd.DataFrame) -> list[str]:
    text = ["", "**How the order-up threshold moves with the pack.** The first seat to speak (the dealer's "
                "left) was made to order up and to pass on the very same deals (paired counterfactuals); the "
                "gain is, ordering less passing, the points of that hand for its side less the other side's "
                "(with 3 players less the mean opponent's), by the trumps it held "
                "(the upcard's suit, bowers and joker counted). The threshold is the fewest trumps at which "
                f"the mean gain is above 0 (cells with {MIN_CELL}+ deals); \"sure\" the fewest at which its "
                "whole interval is. It is a threshold in trump count alone: hands with the same count differ "
                "in bowers, aces and voids.", ""]
    for players in PLAYERS:
        say = []
        for r in thresh[thresh["players"] == players].itertuples(index=False):
            if r.threshold != r.threshold:
                say.append(f"{r.deck} cards: not positive up to {_trumps(r.most_trumps_seen)}")
                continue
            s = (f"{r.deck} cards: {_trumps(r.threshold)}, gain "
                 f"{pts(r.gain_mean, r.gain_low, r.gain_high)} ({r.deals:,} deals)")
            if r.sure == r.sure:
                s += f", sure from {_trumps(r.sure)}"
            say.append(s)
        text.append(f"- {players} players: " + "; ".join(say) + ".")
    return text


def _tables_text(tables: dict) -> list[str]:
    text = ["", "## Tables", ""]
    for name, words in (("decks_summary", "every variant's rates and means"),
                        ("decks_order_up_threshold", "the order-up threshold by variant"),
                        ("decks_order_up_by_trumps", "the order-up gain by trumps held")):
        text += [f"### {words} (`{name}.csv`)", "", md_table(tables[name]), ""]
    return text


def _charts_text(charts: dict, titles: dict, cap, players: int) -> list[str]:
    text = ["## Charts", ""]
    for name in charts:
        text += [f"![{titles[name]}]({name}.png)", "", f"*{titles[name]}: {cap()}.*", ""]
    text.append(f"Rule options that do not apply to a variant are at their defaults there; the appendix's "
                f"simulated deals are dealt at the {players}-player table from the appendix's own seed.")
    return text


def _trumps(k) -> str:
    return f"{int(k)} trump" + ("" if int(k) == 1 else "s")


def num(v, lo, hi) -> str:
    return "– (no hands)" if v != v else f"{v:.2f} ({lo:.2f}–{hi:.2f})"


def _thresholds(by_trumps: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for (players, deck), df in by_trumps.groupby(["players", "deck"], sort=True):
        big = df[df["deals"] >= MIN_CELL].sort_values("trumps")
        up = big[big["gain_mean"] > 0]
        sure = big[big["gain_low"] > 0]
        row = {"players": players, "deck": deck, "threshold": float("nan"), "deals": 0, "gain_mean": float("nan"),
               "gain_low": float("nan"), "gain_high": float("nan"),
               "sure": float(sure["trumps"].iloc[0]) if len(sure) else float("nan"),
               "most_trumps_seen": int(big["trumps"].max()) if len(big) else 0}
        if len(up):
            r = up.iloc[0]
            row.update(threshold=float(r["trumps"]), deals=int(r["deals"]), gain_mean=r["gain_mean"],
                       gain_low=r["gain_low"], gain_high=r["gain_high"])
        rows.append(row)
    return pd.DataFrame(rows)
