"""``euchresim report euchre-rates``: euchre, march and lone-march rates by seat, round and trump count.

One run of the main play model tallies every hand into the cells of
(maker's position, bidding round, maker's trumps, maker alone); the
analysis layer turns those into rates with Wilson intervals, the plots
layer into bar charts and a heatmap, and this module says in words what
they show.  The dealer's side's edge comes from the run's summary rows.
Each further ``--policy`` adds its overall rates, on the same deals.

``tally_chunks`` (also used by ``decks``) plays a ``runner.RunSpec`` chunk by
chunk through ``report.chunked``, so the work is resumable, and merges
the chunks' tallies.
"""
from __future__ import annotations

import functools

import numpy as np
import pandas as pd

from euchresim.run import jobs, runner
from euchresim.analysis import position_names, side_names, summary_frame
from euchresim.analysis.aggregates import group_frame
from euchresim.report import Section, chunked, md_table, spec_key
from euchresim.report.appendix import SAMPLE, appendix, deal_rows
from euchresim.report.replicate import again_spec, again_words, rates_again

GROUPING = ("maker_pos", "make_round", "maker_trumps", "maker_alone")
MIN_CELL = 30                # made hands a cell needs before the text names it
ROUND_MADE = "round trump was made"      # the legend's title, not the column's name
# the one convention of every report (analysis.call_stats.HAND_CLASS_NOTE), in this report's words: a maker's
# trumps are those of the hand it played, the dealer's after taking up the upcard (engine.features maker_trumps)
TRUMPS_NOTE = "trumps of the hand the maker played: the dealer's with the upcard it took up"
CHART_TITLES = {
    "euchred_by_position_round": "Makers euchred, by the maker's seat and bidding round (share of made hands)",
    "march_by_position_round": "Makers marched, by the maker's seat and bidding round (share of made hands)",
    "rates_by_trumps": "Euchres and marches by the trumps the maker held",
    "euchred_heatmap": "Euchre rate by the maker's seat and trumps (grey: fewer than 30 made hands)",
    "lone_march_by_position": "Lone makers who took all five tricks, by seat",
    "trump_made_by_side": "Who makes trump: the dealer's side and the other (share of all hands)",
}
RATE_COLS = ["made", "euchred", "march", "euchred_rate", "euchred_low", "euchred_high",
             "march_rate", "march_low", "march_high", "maker_points_mean", "maker_points_low",
             "maker_points_high"]


# ---------------------------------------------------------------- resumable tallies
def _flat(c: dict, prefix: str = "") -> dict:
    out = {}
    for k, v in c.items():
        if isinstance(v, dict):
            out.update(_flat(v, f"{prefix}{k}|"))
        else:
            out[f"{prefix}{k}"] = np.asarray(v, np.int64)
    return out


def _unflat(arrays: dict) -> dict:
    out: dict = {}
    for name, a in arrays.items():
        *path, leaf = name.split("|")
        d = out
        for p in path:
            d = d.setdefault(p, {})
        d[leaf] = int(a) if np.ndim(a) == 0 else [int(x) for x in a]
    return out


def _tally_job(spec, keep, i):
    """Chunk i's tally as arrays (and its first ``keep`` deals, for the appendix)."""
    res = runner.play_chunk(spec, i, keep_rows=keep > 0)
    out = {"t|" + k: v for k, v in _flat(runner.tally(res, spec.rules.players)).items()}
    if keep:
        out["rows|upcard"] = res.hands["upcard"][:keep].astype(np.int64)
        out["rows|hand0"] = res.hands["hand0"][:keep].astype(np.int64)
    return out


def tally_chunks(ctx, name: str, spec: "runner.RunSpec", keep_deals: bool = False, label: str = ""):
    """(merged tallies, the first deals as rows or None) of ``spec``, chunk by chunk, resumable."""
    keep = -(-min(spec.count, SAMPLE) // spec.n_chunks) if keep_deals else 0
    meta = dict(spec.meta(), keep=keep)
    parts = chunked(ctx, f"{name}-{spec_key(meta)}", meta, spec.n_chunks,
                    functools.partial(_tally_job, spec, keep), label=label or name)
    total: dict = {}
    for p in parts:
        jobs.merge(total, _unflat({k[2:]: v for k, v in p.items() if k.startswith("t|")}))
    rows = None
    if keep:
        rows = pd.DataFrame({f: np.concatenate([p[f"rows|{f}"] for p in parts]) for f in ("upcard", "hand0")})
    return total, rows


def run_spec(ctx, rules, policy: str, count: int, mode: str = "hands", groups=(), cost=None) -> "runner.RunSpec":
    """One play model's run of ``count`` hands (games) in the report's chunks; ``cost`` caps a search bot's (decks).

    ``policy`` as the report was given it: the model the context read, seated for ``rules``' players."""
    size = runner.chunk_size(mode, count, hands=ctx.chunk_size, cost=cost)
    return runner.RunSpec(rules=rules, policies=ctx.model(policy).for_players(rules.players), seed=ctx.seed, mode=mode, count=count, chunk_size=size,
                       groups=groups)


# ---------------------------------------------------------------- words
def pct(v, lo, hi) -> str:
    """A rate and its interval in words: '67.3% (67.0–67.6%)'; a rate that is not certain is never printed as
    certain (81,435 of 81,445 is 99.99%, not 100.0%: ``plots.drawing.fmt_value`` takes the digits it needs)."""
    from euchresim.plots.drawing import fmt_value
    if v != v:
        return "– (no hands)"
    one = lambda x: fmt_value("{:.1%}", x)          # noqa: E731
    return f"{one(v)} ({one(lo).rstrip('%')}–{one(hi)})"


def pts(v, lo, hi) -> str:
    if v != v:
        return "– (no hands)"
    return f"{v:+.3f} ({lo:+.3f} to {hi:+.3f})"


def row_of(summary: pd.DataFrame, statistic: str):
    hit = summary[summary["statistic"] == statistic]
    return None if hit.empty else hit.iloc[0]


def said(summary, statistic, what="rate") -> str:
    r = row_of(summary, statistic)
    if r is None:
        return "–"
    return (pct if what == "rate" else pts)(r["value"], r["ci_low"], r["ci_high"])


def _seats_words(cells: pd.DataFrame, measure: str, what: str, where: str = "") -> str:
    """Whether the seats' rates are one rate (Pearson's chi-square of homogeneity,
    ``analysis.targeted_stats.rates_agree``): a pooled rate is every seat's only where they are. Cells with a
    ``make_round`` are tested within each round (the rounds differ for reasons of their own)."""
    from euchresim.analysis.targeted_stats import chi_words, rates_agree, seats_verdict
    if "make_round" in cells:
        return " ".join(_seats_words(g.drop(columns="make_round"), measure, what, f" in round {r}")
                        for r, g in cells.groupby("make_round", sort=True) if len(g) >= 2)
    test = rates_agree(cells[measure], cells["made"])
    if test.get("small"):
        return f"The {what} by seat{where}: not tested (a cell expects fewer than 5 hands)."
    said = seats_verdict(test, "the rate of them all together is none of theirs; read each one's",
                         words=chi_words)
    return f"The {what} by seat{where}: {said}."


def _cells(counts, grouping, players, where=None) -> pd.DataFrame:
    df = group_frame(counts, grouping, players)
    keep = np.ones(len(df), bool)
    for f in grouping:
        keep &= (df[f] != "none").to_numpy()
    df = df[keep]
    if where is not None:
        df = df[where(df)]
    cols = list(grouping) + RATE_COLS
    return df[cols].reset_index(drop=True)


# ---------------------------------------------------------------- the report
def build(ctx) -> Section:
    rules, players, pol = ctx.rules, ctx.rules.players, ctx.policies[0]
    spec = run_spec(ctx, rules, pol, ctx.hands, groups=(GROUPING,))
    counts, _ = tally_chunks(ctx, "rates", spec, label=f"euchre-rates {pol}")
    n = counts["hands"]
    cap = lambda extra="": ctx.caption(pol, n, extra)     # noqa: E731
    tables = _tables(counts, players)
    charts = _charts(ctx, tables, cap, players)
    text = _findings_text(tables, pol, n, players)
    extra = _other_policies(ctx, rules, tables["summary"], n)
    if extra is not None:
        tables["by_policy"] = extra
        text += _policies_text(extra)
    tables["replicate"] = _again(ctx, spec, tables["summary"], players)
    text += ["", again_words(tables["replicate"], "rate of the run's summary", "replicate.csv", lambda r: r["statistic"])]
    text += _tables_text(tables) + _charts_text(charts, cap, players)
    md, app = appendix(ctx, deal_rows(ctx))
    tables.update(app)
    return Section(title="Euchre and march rates", text="\n".join(text) + "\n\n" + md, tables=tables,
                   charts=charts)


def _again(ctx, spec, summary: pd.DataFrame, players: int) -> pd.DataFrame:
    """The summary's rates measured again on hands of their own (``report.replicate``); one beyond chance stops
    the report."""
    counts, _ = tally_chunks(ctx, "rates-again", again_spec(spec), label="euchre-rates again")
    rates = lambda s: s[(s["kind"] == "rate") & (s["of"] > 0)].drop_duplicates("statistic")    # noqa: E731
    head = rates(summary)[["statistic", "count", "of", "value", "ci_low", "ci_high"]]
    return rates_again(ctx.out, head, rates(summary_frame(counts, players)), ["statistic"])


def _tables(counts: dict, players: int) -> dict:
    """The summary rows, the rates by round, seat and trumps, lone makers, and the dealer's side's rows."""
    summary = summary_frame(counts, players)
    tables = {"summary": summary, "by_round": _cells(counts, ("make_round",), players),
              "by_position_round": _cells(counts, ("maker_pos", "make_round"), players),
              "by_trumps": _cells(counts, ("maker_trumps",), players),
              "by_position_trumps": _cells(counts, ("maker_pos", "maker_trumps"), players)}
    if players > 2:
        tables["lone_by_position"] = _cells(counts, ("maker_alone", "maker_pos"), players,
                                            lambda d: d["maker_alone"] == "yes")
    mine, other = side_names(players)
    side_rows = [s for s in summary["statistic"] if mine in s or other in s]
    tables["dealer_side"] = summary[summary["statistic"].isin(side_rows)].reset_index(drop=True)
    return tables


def _charts(ctx, tables: dict, cap, players: int) -> dict:
    """Euchres and marches by seat and round and by trumps, the euchre heatmap, lone marches, who makes trump."""
    from euchresim import plots
    summary, by_pos_round, by_trumps = tables["summary"], tables["by_position_round"], tables["by_trumps"]
    lone = tables.get("lone_by_position")
    charts = {}
    for measure, words in (("euchred", "Makers euchred"), ("march", "Makers marched")):
        charts[f"{measure}_by_position_round"] = plots.bars(
            by_pos_round.assign(**{ROUND_MADE: by_pos_round["make_round"]}), "maker_pos", f"{measure}_rate",
            ctx.path(f"{measure}_by_position_round.png"),
            title=f"{words}, by the maker's seat and bidding round", caption=cap("share of made hands"),
            ci_low=f"{measure}_low", ci_high=f"{measure}_high", group=ROUND_MADE,
            value_label=f"{words.lower()} (% of made hands)", percent=True, category_label="maker's seat")
    long = pd.concat([by_trumps.assign(measure=m, rate=by_trumps[f"{m}_rate"], low=by_trumps[f"{m}_low"],
                                       high=by_trumps[f"{m}_high"]) for m in ("euchred", "march")])
    long = long[long["made"] >= MIN_CELL]
    charts["rates_by_trumps"] = plots.bars(
        long, "maker_trumps", "rate", ctx.path("rates_by_trumps.png"),
        title="Euchres and marches by the trumps the maker held", caption=cap(f"cells with {MIN_CELL}+ made hands"),
        ci_low="low", ci_high="high", group="measure", value_label="% of made hands", percent=True,
        category_label="trumps in the hand the maker played (the dealer's with the upcard it took up)")
    mean_euchre = row_of(summary, "makers euchred")["value"]
    charts["euchred_heatmap"] = plots.heatmap(
        tables["by_position_trumps"], "maker_pos", "maker_trumps", "euchred_rate", ctx.path("euchred_heatmap.png"),
        title="Euchre rate by the maker's seat and trumps", caption=cap(
            f"colour centred on the overall {100 * mean_euchre:.1f}%; {TRUMPS_NOTE}"),
        ci_low="euchred_low", ci_high="euchred_high", fmt="{:.0%}", center=float(mean_euchre), row_label="maker's seat", col_label="maker's trumps",
        value_label="euchred (share of made hands)", count="made", cmap="RdBu_r")
    if lone is not None and len(lone):
        charts["lone_march_by_position"] = plots.bars(
            lone, "maker_pos", "march_rate", ctx.path("lone_march_by_position.png"),
            title="Lone makers who took all five tricks, by seat", caption=cap("share of lone hands"),
            ci_low="march_low", ci_high="march_high", value_label="lone march (% of lone hands)", percent=True,
            category_label="lone maker's seat")
    sides = pd.DataFrame([{"side": s, "value": r["value"], "ci_low": r["ci_low"], "ci_high": r["ci_high"]}
                          for s in side_names(players) if (r := row_of(summary, f"trump made by {s}")) is not None])
    charts["trump_made_by_side"] = plots.bars(
        sides, "side", "value", ctx.path("trump_made_by_side.png"), title="Who makes trump",
        caption=cap("share of all hands"), ci_low="ci_low", ci_high="ci_high",
        value_label="trump made (% of hands)", percent=True, category_label="side")
    return charts


def _findings_text(tables: dict, pol: str, n: int, players: int) -> list[str]:
    """The findings in words: made, euchred and marched, by round, seat and trumps, alone, the dealer's side."""
    summary, by_pos_round, by_trumps = tables["summary"], tables["by_position_round"], tables["by_trumps"]
    lone = tables.get("lone_by_position")
    mine, other = side_names(players)
    text = [f"## Findings ({pol}, {n:,} hands)", ""]
    text.append(f"Trump was made in {said(summary, 'trump made')} of the {n:,} hands. Of the made hands, "
                f"the makers were euchred in {said(summary, 'makers euchred')} and marched (took all five "
                f"tricks) in {said(summary, 'march')}.")
    for r in tables["by_round"].itertuples(index=False):
        text.append(f"Made in round {r.make_round} ({r.made:,} hands): euchred "
                    f"{pct(r.euchred_rate, r.euchred_low, r.euchred_high)}, marched "
                    f"{pct(r.march_rate, r.march_low, r.march_high)}.")
    big = by_pos_round[by_pos_round["made"] >= MIN_CELL]
    if len(big):
        hi, lo = big.loc[big["euchred_rate"].idxmax()], big.loc[big["euchred_rate"].idxmin()]
        text.append(f"By seat and round, the makers most often euchred were the {hi.maker_pos} in round "
                    f"{hi.make_round}: {pct(hi.euchred_rate, hi.euchred_low, hi.euchred_high)} of "
                    f"{hi.made:,} hands; the least, the {lo.maker_pos} in round {lo.make_round}: "
                    f"{pct(lo.euchred_rate, lo.euchred_low, lo.euchred_high)} of {lo.made:,}. "
                    + _seats_words(big, "euchred", "euchre rate"))
    text += ["", f"By the trumps the maker held ({TRUMPS_NOTE}):", ""]
    for r in by_trumps[by_trumps["made"] >= MIN_CELL].itertuples(index=False):
        text.append(f"- {r.maker_trumps} trump{'' if str(r.maker_trumps) == '1' else 's'} ({r.made:,} hands): euchred "
                    f"{pct(r.euchred_rate, r.euchred_low, r.euchred_high)}, marched "
                    f"{pct(r.march_rate, r.march_low, r.march_high)}.")
    if lone is not None:
        text += ["", f"Makers went alone in {said(summary, 'maker alone')} of made hands; lone makers marched "
                     f"in {said(summary, 'lone maker marched')} and made their bid in "
                     f"{said(summary, 'lone maker took 3+')}."]
        for r in lone[lone["made"] >= MIN_CELL].itertuples(index=False):
            text.append(f"Alone from the {r.maker_pos} ({r.made:,} hands): marched "
                        f"{pct(r.march_rate, r.march_low, r.march_high)}.")
        if len(lone[lone["made"] >= MIN_CELL]) >= 2:
            text.append(_seats_words(lone[lone["made"] >= MIN_CELL], "march", "lone march rate"))
    text += ["", f"{mine[0].upper() + mine[1:]} made trump in {said(summary, f'trump made by {mine}')} of hands "
                 f"and {other} in {said(summary, f'trump made by {other}')}. The edge of {mine} is "
                 f"{said(summary, f'edge of {mine}, points per hand', 'mean')} points per hand."]
    return text


def _policies_text(extra: pd.DataFrame) -> list[str]:
    text = ["", "Each play model, on the same deals (a slower model plays the first of them):", ""]
    for r in extra.itertuples(index=False):
        text.append(f"- {r.policy} ({r.hands:,} hands): euchred {pct(r.euchred, r.euchred_low, r.euchred_high)}"
                    f", marched {pct(r.march, r.march_low, r.march_high)}.")
    return text


def _tables_text(tables: dict) -> list[str]:
    text = ["", "## Tables", ""]
    captions = {"by_round": "by bidding round", "by_position_round": "by the maker's seat and round",
                "by_trumps": "by the maker's trumps", "by_position_trumps": "by seat and trumps",
                "lone_by_position": "lone makers by seat", "dealer_side": "the dealer's side and the other",
                "by_policy": "each play model", "summary": "the run's summary rows"}
    for name in captions:
        if name in tables:
            text += [f"### {captions[name]} (`{name}.csv`)", "", md_table(tables[name]), ""]
    return text


def _charts_text(charts: dict, cap, players: int) -> list[str]:
    text = ["## Charts", ""]
    for name in charts:
        text += [f"![{CHART_TITLES[name]}]({name}.png)", "", f"*{CHART_TITLES[name]}: {cap()}.*", ""]
    text.append("Rates of euchres and marches are out of made hands; seats are named relative to the "
                f"hand's dealer ({', '.join(position_names(players))}); trumps are counted as the maker "
                "played them (after the dealer's exchange, bowers and joker included).")
    return text


def _other_policies(ctx, rules, main_summary, main_hands):
    """One row per play model: its euchre and march rates (None with one model)."""
    if len(ctx.policies) < 2:
        return None
    rows = []
    for k, pol in enumerate(ctx.policies):
        s, hands = main_summary, main_hands
        if k:
            counts = counts_for(ctx, rules, pol, ctx.hands_for(k))
            s, hands = summary_frame(counts, rules.players), counts["hands"]
        e, m = row_of(s, "makers euchred"), row_of(s, "march")
        rows.append({"policy": pol, "hands": hands, "euchred": e["value"], "euchred_low": e["ci_low"],
                     "euchred_high": e["ci_high"], "march": m["value"], "march_low": m["ci_low"],
                     "march_high": m["ci_high"]})
    return pd.DataFrame(rows)


def counts_for(ctx, rules, pol, hands):
    spec = run_spec(ctx, rules, pol, hands)
    return tally_chunks(ctx, "rates-model", spec, label=f"euchre-rates {pol}")[0]
