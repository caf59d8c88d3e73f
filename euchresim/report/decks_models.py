"""The decks report's headline rates under every play model, side by side.

The main model's tables and charts answer "how does the game change with
the pack and the table"; a rule of thumb learned by one bot need not hold
for another, so each further ``--policy`` plays every variant too (its
``--model-hands`` hands, the same seed and chunking as the main model's
run, so a model's numbers are those of a direct run of it) for the rates a
reader quotes: making trump in round one and two, the makers taking 3+
tricks, being euchred, marching.  Models "differ" where their 95%
intervals do not overlap.  A search bot's runs go in chunks of 250 hands
(about 20 s of ``best``), so every core has work and a stop loses little.
"""
from __future__ import annotations

import pandas as pd

from euchresim.analysis import summary_frame
from euchresim.policies import PolicyError
from euchresim.report.euchre_rates import pct, run_spec, tally_chunks
from euchresim.report.replicate import again_spec
from euchresim.stats import wilson

# statistic: (words, summary_frame's row or None for round one)
HEADLINE = {
    "made in round one": ("trump made in round one (share of hands)", None),
    "made in round two": ("trump made in round two (share of hands)", "made round 2"),
    "makers took 3+": ("makers took 3+ tricks (share of made hands)", "makers took 3+ tricks"),
    "euchred": ("makers euchred (share of made hands)", "makers euchred"),
    "march": ("makers marched (share of made hands)", "march"),
    "maker alone": ("maker went alone (share of made hands)", "maker alone"),
}
COLUMNS = ["players", "deck", "statistic", "policy", "hands", "count", "of", "value", "ci_low", "ci_high"]


def headline_rows(players: int, deck: int, policy: str, counts: dict) -> list[dict]:
    """The headline rates of one variant's hand tallies under one policy."""
    s = summary_frame(counts, players)
    n = counts["hands"]
    out = []
    for stat, (_, row) in HEADLINE.items():
        if row is None:
            k, of = sum(counts.get(f"made_r1_pos{p}", 0) for p in range(players)), n
        else:
            hit = s[s["statistic"] == row]
            if hit.empty:           # no loners with 2 or 3 players: the rule has no partner to leave out
                continue
            k, of = int(hit.iloc[0]["count"]), int(hit.iloc[0]["of"])
        lo, hi = wilson(k, of)
        out.append({"players": players, "deck": deck, "statistic": stat, "policy": policy, "hands": n,
                    "count": int(k), "of": int(of), "value": k / of if of else float("nan"),
                    "ci_low": lo, "ci_high": hi})
    return out


def play_models(ctx, variants) -> tuple[list[dict], list[str]]:
    """Every further model's headline rows over ``variants`` ((players, deck, rules)), and the variants it refused."""
    rows, refused = [], []
    for k, pol in enumerate(ctx.policies):
        if k == 0:
            continue
        for players, deck, rules in variants:
            spec = run_spec(ctx, rules, pol, ctx.hands_for(k), cost=ctx.models[k].cost)   # a search bot's chunks small
            try:
                hc, _ = tally_chunks(ctx, "decks-hands", spec, label=f"{pol} {players}p {deck}")
            except PolicyError as e:
                refused.append(f"{pol} at {players} players, {deck} cards: {e}")
                continue
            rows += headline_rows(players, deck, pol, hc)
    return rows, refused


def again_rows(ctx, variants) -> list[dict]:
    """Every model's headline rows measured again on hands of their own (``report.replicate``: the same runs from
    a seed derived apart, their own kept work); a variant a model refused is left out here as in its table."""
    rows = []
    for k, pol in enumerate(ctx.policies):
        for players, deck, rules in variants:
            spec = run_spec(ctx, rules, pol, ctx.hands_for(k), cost=ctx.models[k].cost if k else None)
            try:
                hc, _ = tally_chunks(ctx, "decks-hands-again", again_spec(spec), label=f"again {pol} {players}p {deck}")
            except PolicyError:
                continue
            rows += headline_rows(players, deck, pol, hc)
    return rows


def models_table(main_rows: list[dict], further: list[dict], policies) -> pd.DataFrame:
    """One row per variant x statistic x policy, the policies in --policy order."""
    df = pd.DataFrame(main_rows + further, columns=COLUMNS)
    df["order"] = df["policy"].map({p: i for i, p in enumerate(policies)})
    df["stat_order"] = df["statistic"].map({s: i for i, s in enumerate(HEADLINE)})
    df = df.sort_values(["stat_order", "players", "deck", "order"], kind="stable")
    return df.drop(columns=["order", "stat_order"]).reset_index(drop=True)


def verdicts(table: pd.DataFrame) -> pd.DataFrame:
    """Per variant x statistic: "agree" where every model's interval meets every other's, else "differ"."""
    rows = []
    for (stat, players, deck), g in table.groupby(["statistic", "players", "deck"], sort=False):
        ok = g[g["of"] > 0]
        if len(ok) < 2:
            v = "too few models"
        else:
            v = "agree" if ok["ci_low"].max() <= ok["ci_high"].min() else "differ"
        rows.append({"statistic": stat, "players": players, "deck": deck, "models": v})
    return pd.DataFrame(rows)


def models_text(table: pd.DataFrame, policies, hands: list[int], refused: list[str], calls: dict,
                plain: bool = True) -> list[str]:
    """The report's findings: every headline rate under every model, and how soundly each model calls in each
    variant (``calls``: policy -> ``report.strength.variant_calls`` of its definition, from docs/policies.md).

    The rates a reader quotes come first, under each model and each with its interval, because a rate is a fact
    of the bot that played it: the strongest bot's are the ones a guide should quote, the heuristic's many
    hands give the finer statistics below them.  ``plain``: the report's rules are the plain variants' (only
    those are measured in docs/policies.md); else no soundness line is quoted, and the text says why.
    """
    who = ", ".join(f"{p} ({n:,} hands per variant)" for p, n in zip(policies, hands))
    text = ["## Findings: the headline rates under each model", "",
            f"Every variant played by each model: {who}; the same seed. Each line gives the models' rates "
            "with 95% intervals; \"differ\" where two intervals do not overlap (`decks_models.csv`)."]
    if refused:
        text += ["", "Not played (the model refused the variant): " + "; ".join(refused) + "."]
    text += [""] + [f"- {line}" for line in precision_lines(table, policies)]
    text += soundness_text(table, policies, calls) if plain else [
        "", "How soundly each model calls is quoted from docs/policies.md's lines for the plain rules only, so none "
            "is quoted under this report's other rule options."]
    ver = verdicts(table).set_index(["statistic", "players", "deck"])["models"]
    for stat, (words, _) in HEADLINE.items():
        df = table[table["statistic"] == stat]
        if df.empty:
            continue
        n_diff = int((ver.xs(stat, level="statistic") == "differ").sum()) if stat in ver.index.get_level_values(0) else 0
        text += ["", f"**{words[0].upper()}{words[1:]}** (models differ in {n_diff} of "
                     f"{df.groupby(['players', 'deck']).ngroups} variants)", ""]
        for (players, deck), g in df.groupby(["players", "deck"], sort=False):
            say = "; ".join(f"{r.policy} {pct(r.value, r.ci_low, r.ci_high)}" for r in g.itertuples(index=False))
            mark = " — differ" if ver.get((stat, players, deck)) == "differ" else ""
            text.append(f"- {players} players, {deck} cards: {say}{mark}.")
    return text


def soundness_text(table: pd.DataFrame, policies, calls: dict) -> list[str]:
    """Per model measured in every variant (docs/policies.md, "`best`'s calls in every variant"): what its own
    calls gain over heuristic's under the same play in each variant this report plays, with the duel's command
    and the variant's smaller duels after it (``_other_duels``); beside its rates, so a reader sees where the
    bot's calls are shown sound before quoting them."""
    text = []
    for pol in policies:
        got = calls.get(pol) or {}
        played = table.loc[table["policy"] == pol, ["players", "deck"]].drop_duplicates()
        lines = [(p, d, got[(p, d)]) for p, d in played.itertuples(index=False) if (p, d) in got]
        if not lines:
            continue
        above = sum(1 for _, _, c in lines if _low(c["interval"]) > 0)
        text += ["", f"How soundly {pol} calls in each variant: its own calls against heuristic's, the same play "
                     "otherwise (duplicate games; docs/policies.md, \"`best`'s calls in every variant\"); the gain "
                     f"in points a hand is above 0 in {above} of the {len(lines)} variants measured"
                     + ("" if len(lines) == len(played) else f" (of {len(played)} played here)") + ":", ""]
        for p, d, c in lines:
            won = f", games won {c['won']} ({c['won_interval']})" if c["won"] else ""
            text.append(f"- {p} players, {d} cards: {c['gain']} a hand ({c['interval']}){won}, "
                        f"{c['games']:,} games: `{c['command']}`" + _other_duels(c.get("others") or []))
    return text


def _other_duels(others: list) -> str:
    """The variant's smaller duels after its largest, each with whether its interval alone clears 0: a gain shown
    only by the largest of three duels is a small one, and the line says so rather than quote the largest alone."""
    if not others:
        return ""
    said = [f"{c['gain']} ({c['interval']}) over {c['games']:,} games: `{c['command']}`" for c in others]
    clear = sum(1 for c in others if _low(c["interval"]) > 0)
    if len(others) == 1:
        verdict = "above 0 alone" if clear else "not above 0 alone"
    else:
        verdict = ("each above 0 alone" if clear == len(others) else
                   "none above 0 alone" if clear == 0 else f"{clear} of {len(others)} above 0 alone")
    return f"; {'a smaller duel' if len(others) == 1 else 'smaller duels'} gave " + ", ".join(said) + f" ({verdict})"


def _low(interval: str) -> float:
    """The low end of a docs interval such as '+0.022 – +0.037' or '−0.011 – +0.047' (a minus sign or hyphen)."""
    return float(interval.split(" – ")[0].replace("−", "-"))


def precision_lines(table: pd.DataFrame, policies) -> list[str]:
    """Per model, the widest half of a 95% interval among its headline rates, in points, and where: the
    rate a reader may quote to that precision everywhere (a strategy guide asks ±1.5 points or less)."""
    out = []
    for pol in policies:
        mine = table[(table["policy"] == pol) & (table["of"] > 0)]
        if mine.empty:
            continue
        half = (mine["ci_high"] - mine["ci_low"]) / 2
        w = mine.loc[half.idxmax()]
        out.append(f"{pol}: every headline rate within ±{100 * half.max():.1f} points (95%); the widest, "
                   f"{w['statistic']} at {w['players']} players, {w['deck']} cards ({int(w['count']):,} of {int(w['of']):,})")
    return out


def chart_name(prefix: str, stat: str) -> str:
    """A chart's file name: the prefix and the statistic's words, letters and digits only."""
    return prefix + "".join(c if c.isalnum() else "_" for c in stat).strip("_").replace("__", "_")


def models_charts(ctx, table: pd.DataFrame, cap) -> tuple[dict, dict]:
    """One figure per headline rate: a panel per table size, bars by pack, one bar per model."""
    from euchresim import plots
    charts, titles = {}, {}
    df = table.assign(variant=[f"{p}p · {d}" for p, d in zip(table["players"], table["deck"])])
    for stat, (words, _) in HEADLINE.items():
        part = df[df["statistic"] == stat]
        if part.empty:
            continue
        name = chart_name("decks_models_", stat)
        titles[name] = f"{words[0].upper()}{words[1:]}, by model (players · cards)"
        charts[name] = plots.bars(part, "variant", "value", ctx.path(f"{name}.png"), title=titles[name],
                                  caption=cap("one bar per play model"), ci_low="ci_low", ci_high="ci_high",
                                  group="policy", value_label=words, percent=True,
                                  category_label="players · cards in the pack", annotate=False,
                                  figsize=(13, 5.5))
    return charts, titles
