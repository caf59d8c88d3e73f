"""The ``win-probability`` report: P(win) by score, checked against whole games, and decisions by score.

One run of hands gives the per-hand outcome distribution (pooled by seat
relative to the dealer: every seat plays the same policy); the dynamic
program of ``analysis.winprob`` turns it into P(win) at every score and
dealer, for each target (4 players: 5, 7 and 10 from the one distribution;
2 and 3 players: the run's ``game_to``).  An independent run of whole games
(``hands // 10`` of them) checks the DP from 0-0 and at the states the
games visit most.  Paired counterfactuals of the round-one call (the same
deal played once ordered up, once passed) give, for a few hand classes,
the outcome distribution of the hand under each option, and with it the
change in P(win) at every score: the scores where that change and the
points gained disagree in sign are the decisions whose answer turns on
the score.
"""
from __future__ import annotations

from functools import partial

import numpy as np
import pandas as pd

from euchresim.report import Section, chunked, md_table
from euchresim.studies import counterfactual as cf
from euchresim.run import runner
from euchresim.analysis import winprob as wp
from euchresim.stats import Z95

CHECK_STATES = 4          # often-visited states checked besides 0-0
SE_REPS = 20              # resamples for the DP's standard error (10 with 3 players: 10x the states)
# (position left of the dealer, label, trumps in the hand the seat plays -- the dealer's with the upcard it takes
# up, analysis.call_stats.played_hand -- needs a bower)
CLASSES = ((1, "dealer's left, 2 trumps with a bower", 2, True), (1, "dealer's left, 3 trumps", 3, False),
           (0, "dealer, 2 trumps with a bower", 2, True), (0, "dealer, 3 trumps", 3, False))
HAND_COLS = ("dealer", "points0", "points1", "points2", "points3", "maker", "redeal")
CLASS_NOTE = "trumps of the hand the seat plays, the dealer's with the upcard it takes up; the joker a bower"


# ---------------------------------------------------------------- chunk jobs (module level: picklable)

def _hands_job(spec: runner.RunSpec, i: int) -> dict:
    h = runner.play_chunk(spec, i).hands
    return {c: np.array(h[c]) for c in HAND_COLS}


def _games_job(spec: runner.RunSpec, i: int) -> dict:
    r = runner.play_chunk(spec, i)
    k = wp.parties(spec.rules.players)
    out = {f"h_{c}": np.array(r.hands[c]) for c in ("chunk", "rubber", "game", "dealer",
                                                     *(f"score{p}" for p in range(k)))}
    out.update({f"g_{c}": np.array(r.games[c]) for c in ("chunk", "rubber", "game", "winners", "first_dealer")})
    return out


def _trumps(hand: np.ndarray, upcard: np.ndarray):
    """Trumps held (the upcard's suit, its left bower, the joker) and whether a bower or the joker is among them."""
    suit = np.where(upcard < 32, upcard >> 3, 0).astype(np.int64)
    one = np.int64(1)
    right = one << (8 * suit + 4)
    left = one << (8 * (3 - suit) + 4)
    mask = (np.int64(0xFF) << (8 * suit)) | left | (one << 32)
    held = np.bitwise_count(hand & mask).astype(np.int64)
    bower = (hand & (right | left | (one << 32))) != 0
    return held, bower


def _cf_job(spec: runner.RunSpec, position: int, i: int) -> dict:
    """Deals of one chunk whose deciding hand falls in a class of ``position``: points under order and pass."""
    c = cf.play_chunk(spec, i, "bid1", position)
    n, pl = len(c), spec.rules.players
    seat = (c.dealer + position) % pl
    from euchresim.analysis.call_stats import played_hand
    hand = played_hand(c.hands[np.arange(n), seat], c.upcard, np.full(n, position), np.ones(n, bool))
    held, bower = _trumps(hand, c.upcard)
    ka, kb = c.column(1), c.column(0)
    cls = np.full(n, -1, np.int64)
    for j, (pos, _, t, need_bower) in enumerate(CLASSES):
        if pos == position:
            cls = np.where((held == t) & (bower | (not need_bower)), j, cls)
    keep = (cls >= 0) & (ka >= 0) & (kb >= 0) & (c.upcard < 32)
    rows = np.nonzero(keep)[0]
    return {"cls": cls[rows], "dealer": c.dealer[rows], "redeal": c.redeal[rows],
            "pa": c.points[rows, ka[rows]], "pb": c.points[rows, kb[rows]],
            "ma": c.maker[rows, ka[rows]], "mb": c.maker[rows, kb[rows]]}


# ---------------------------------------------------------------- helpers

def _cat(parts: list[dict]) -> dict:
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _spec(ctx, mode: str, count: int, seed: int) -> runner.RunSpec:
    """The main model's run; a search bot's chunks capped by its declared cost (``runner.chunk_size``), so a
    stop keeps all but seconds of work and both cores play: under ``best`` a 20,000-deal piece was one chunk, one
    core and an hour a stop could lose.  A fast model's chunks are as they were (its numbers unchanged)."""
    model = ctx.model(ctx.policies[0])
    return runner.RunSpec(rules=ctx.rules, policies=model, mode=mode, count=count, seed=seed,
                          chunk_size=runner.chunk_size(mode, count, hands=ctx.chunk_size, cost=model.cost))


def _run(ctx, key: str, spec: runner.RunSpec, job, label: str, **extra) -> dict:
    desc = {"what": key, "rules": ctx.rules.to_dict(), "policy": ctx.policies[0], "mode": spec.mode,
            "count": spec.count, "seed": spec.seed, "chunk_size": spec.chunk_size, **extra}
    return _cat(chunked(ctx, key, desc, spec.n_chunks, job, label))


def _pct(p: float, se: float | None = None) -> str:
    """A probability in percent, with its 95% interval's half-width (Z95 standard errors) in percentage points.

    The README says every figure carries a 95% interval: a bare standard
    error after a ± would be read as one and be too narrow by half.
    """
    if se is None:
        return f"{100 * p:.1f}%"
    half = Z95 * se
    return f"{100 * p:.1f}%" + (f" (±{100 * half:.1f})" if half >= 0.0005 else f" (±{100 * half:.2f})")


def _view(tab: pd.DataFrame, se: np.ndarray, players: int, party: int = 0) -> pd.DataFrame:
    """P(win) of ``party`` by (our score, their score), we to deal next (dealer = our seat) or the next seat.

    With 3 players the two others stand on the same score.
    """
    k = wp.parties(players)
    others = [p for p in range(k) if p != party]
    t = tab[tab["dealer"].isin([party, (party + 1) % players])]
    for p in others[1:]:
        t = t[t[f"score{p}"] == t[f"score{others[0]}"]]
    idx = tuple(t[f"score{p}"].to_numpy() for p in range(k)) + (t["dealer"].to_numpy(), np.full(len(t), party))
    return pd.DataFrame({"ours": t[f"score{party}"].to_numpy(), "theirs": t[f"score{others[0]}"].to_numpy(),
                         "deals": np.where(t["dealer"].to_numpy() == party, "we deal", "they deal"),
                         "p_win": t[f"win{party}"].to_numpy(), "se": se[idx]}).reset_index(drop=True)


def _rotated(d: dict, which: str, players: int) -> pd.DataFrame:
    """One option's hands seen with seat 0 dealing (the deal rotated by the dealer)."""
    pts, mk, dl = d[f"p{which}"], d[f"m{which}"], d["dealer"]
    cols = {"dealer": np.zeros(len(dl), np.int64)}
    for r in range(4):
        cols[f"points{r}"] = pts[np.arange(len(dl)), (r + dl) % players] if r < players else 0
    cols["maker"] = np.where(mk >= 0, (mk - dl) % players, -1)
    cols["redeal"] = d["redeal"].astype(np.int64)
    return pd.DataFrame(cols)


def _per_deal(V, rows: pd.DataFrame, players, target, tie, party) -> np.ndarray:
    """P(win) of ``party`` after each deal's own outcome, at every score (seat 0 dealing): [deals, scores]."""
    keys = [c for c in rows.columns if c != "dealer"]
    uniq, inv = np.unique(rows[keys].to_numpy(np.int64), axis=0, return_inverse=True)
    vals = [wp.after_one_hand(V, wp.outcome_distribution(pd.DataFrame([{"dealer": 0, **dict(zip(keys, u))}]),
                                                         players), players, target, tie)[..., 0, party].reshape(-1)
            for u in uniq]
    return np.array(vals)[inv.ravel()]


def _class_gain(part: dict, j: int, pos: int, pl: int):
    """Class ``j``'s deals of a position's run, rotated (ordered, passed), and the paired points gain of ordering:
    the deciding party's points less the others' mean, order minus pass, deal by deal."""
    k = wp.parties(pl)
    party = pos % k
    d = {key: v[part["cls"] == j] for key, v in part.items()}
    ra, rb = _rotated(d, "a", pl), _rotated(d, "b", pl)
    net = []
    for r in (ra, rb):
        own = r[f"points{party}"].to_numpy(float)
        rest = np.mean([r[f"points{p}"].to_numpy(float) for p in range(k) if p != party], axis=0)
        net.append(own - rest)
    return ra, rb, cf.summarize(net[0] - net[1]) if len(d["cls"]) else cf.summarize(np.zeros(0))


def _again_gains(again: dict, pl: int) -> pd.DataFrame:
    """Each class's points gain on the replicate runs' deals, a row a class in CLASSES' order."""
    rep = []
    for j, (pos, _, _, _) in enumerate(CLASSES):
        ra, _, g = _class_gain(again[pos], j, pos, pl)
        rep.append({"replicate_deals": len(ra), "replicate_gain": g["mean"], "replicate_low": g["low"],
                    "replicate_high": g["high"]})
    return pd.DataFrame(rep)


def _replicated(out: str, gains: pd.DataFrame, rep: pd.DataFrame, chk: pd.DataFrame,
                alpha: float = 0.05) -> pd.DataFrame:
    """``gains`` with each class's points gain measured again on deals of its own (``rep``, of the replicate
    runs) and the z of the two.  Where Holm's method, over those z's and the DP's checks against whole games,
    finds one too large for two measures of one quantity (family-wise ``alpha``), the report stops with one line
    naming them: a headline a fresh run would not reproduce is never printed."""
    from statistics import NormalDist
    from euchresim.report import ReportError
    from euchresim.stats import holm
    res = pd.concat([gains.reset_index(drop=True), rep.reset_index(drop=True)], axis=1)
    se = lambda lo, hi: (res[hi] - res[lo]) / (2 * Z95)
    res["z_replicate"] = (res["points_gain"] - res["replicate_gain"]) / np.hypot(se("low", "high"),
                                                                                se("replicate_low", "replicate_high"))
    # an infinite z (two measures without spread that differ) is a disagreement, tested with p 0; NaN is untested
    zs = [(f"{r['class']}: {r['points_gain']:+.3f}, again {r['replicate_gain']:+.3f}", r["z_replicate"])
          for _, r in res.iterrows() if not np.isnan(r["z_replicate"])]
    zs += [(f"P(win) at {r['state']}: the DP {r['p_dp']:.3f}, games {r['p_games']:.3f}", r["z"])
           for _, r in chk.iterrows() if not np.isnan(r["z"])]
    rejected = holm([2 * (1 - NormalDist().cdf(abs(z))) for _, z in zs], alpha)
    bad = [f"{what} (z {z:+.1f})" for (what, z), no in zip(zs, rejected) if no]
    if bad:
        raise ReportError(f"{out}: headline figures disagree with their measures again beyond chance (Holm, "
                          f"{alpha:.0%} over {len(zs)} comparisons): {'; '.join(bad)}; the report is not "
                          "written, its kept work is")
    res.attrs["tests"] = len(zs)
    return res


def _decisions(ctx, dist, cfd, targets, tie):
    """Order against pass for each hand class: points gained, and the change in P(win) at every score."""
    pl = ctx.rules.players
    k = wp.parties(pl)
    gains, deltas = [], []
    for j, (pos, label, _, _) in enumerate(CLASSES):
        party = pos % k
        ra, rb, g = _class_gain(cfd[pos], j, pos, pl)
        n = len(ra)
        gains.append({"class": label, "position": pos, "deals": n, "points_gain": g["mean"],
                      "low": g["low"], "high": g["high"]})
        if n < 2:
            continue
        oa, ob = wp.outcome_distribution(ra, pl), wp.outcome_distribution(rb, pl)
        for t in targets:
            V = wp.solve(dist, pl, t, tie)
            dd = wp.decision_delta(dist, oa, ob, pl, t, party, tie)
            diff = _per_deal(V, ra, pl, t, tie, party) - _per_deal(V, rb, pl, t, tie, party)
            se = wp.paired_se(diff)
            others = [p for p in range(k) if p != party]
            dd = dd.assign(se=se, ours=dd[f"score{party}"], theirs=dd[f"score{others[0]}"])
            keep = np.ones(len(dd), bool)
            for p in others[1:]:
                keep &= (dd[f"score{p}"] == dd[f"score{others[0]}"]).to_numpy()
            dd = dd[keep]
            deltas.append(pd.DataFrame({"target": t, "class": label, "ours": dd["ours"], "theirs": dd["theirs"],
                                        "p_win_order": dd["win_a"], "p_win_pass": dd["win_b"],
                                        "delta": dd["delta"], "se": dd["se"], "points_gain": g["mean"]}))
    dec = pd.concat(deltas, ignore_index=True) if deltas else pd.DataFrame(
        columns=["target", "class", "ours", "theirs", "p_win_order", "p_win_pass", "delta", "se", "points_gain"])
    dec["clear"] = dec["delta"].abs() > Z95 * dec["se"]
    flips = dec[(np.sign(dec["delta"].round(12)) != np.sign(dec["points_gain"])) & (dec["delta"].abs() > 1e-12)]
    return pd.DataFrame(gains), dec.reset_index(drop=True), flips.reset_index(drop=True)


# ---------------------------------------------------------------- the report

def build(ctx) -> Section:
    rules, pl = ctx.rules, ctx.rules.players
    targets = (5, 7, 10) if pl == 4 else (rules.game_to,)
    n_games = max(200, ctx.hands // 10)
    hands, games, cfd, again = _work(ctx, n_games)
    dist = wp.outcome_distribution(pd.DataFrame(hands), pl, pool_seats=True)
    reps = SE_REPS if pl != 3 else SE_REPS // 2
    tables, charts, ses = _p_win(ctx, dist, targets, reps)
    T = rules.game_to
    tables["dp_vs_games"] = chk = _against_games(ctx, dist, games, ses[T])
    gains, dec, flips = _decisions(ctx, dist, cfd, targets, rules.cutthroat_tie)
    gains = _replicated(ctx.out, gains, _again_gains(again, pl), chk)
    tables.update(order_pass_points=gains, order_pass_by_score=dec, order_pass_flips=flips)
    charts.update(_decision_charts(ctx, gains, dec, T))
    return Section(title=f"Win probability by score ({pl} players, {rules.deck} cards)",
                   text=_text(ctx, targets, T, n_games, dist, tables["headline"], chk, gains, dec, flips, reps),
                   tables=tables, charts=charts)


def _work(ctx, n_games: int) -> tuple[dict, dict, dict, dict]:
    """The runs: hands for the outcome distribution, whole games to check it, the order-or-pass counterfactuals
    and their measures again."""
    hspec = _spec(ctx, "hands", ctx.hands, ctx.seed)
    hands = _run(ctx, "hands", hspec, partial(_hands_job, hspec), "hands")
    gspec = _spec(ctx, "games", n_games, ctx.seed + 7919)
    games = _run(ctx, "games", gspec, partial(_games_job, gspec), "games")
    cfd, again = {}, {}
    for pos in sorted({c[0] for c in CLASSES}):
        cspec = _spec(ctx, "hands", ctx.hands, ctx.seed + 15838 + pos)
        cfd[pos] = _run(ctx, f"order-pass-pos{pos}", cspec, partial(_cf_job, cspec, pos),
                        f"order vs pass, {pos} left of the dealer", classes=[list(c) for c in CLASSES])
    for pos in sorted({c[0] for c in CLASSES}):
        rspec = _spec(ctx, "hands", ctx.hands, _again_seed(ctx.seed, pos))
        again[pos] = _run(ctx, f"order-pass-pos{pos}-again", rspec, partial(_cf_job, rspec, pos),
                          f"order vs pass again, {pos} left of the dealer", classes=[list(c) for c in CLASSES])
    return hands, games, cfd, again


def _again_seed(seed: int, position: int) -> int:
    """The seed of a position's replicate counterfactuals: numpy's SeedSequence([seed, 0x4A61, position + 1]),
    derived so the report stays one seed, another stream so its deals are its own."""
    return int(np.random.SeedSequence([int(seed), 0x4A61, int(position) + 1]).generate_state(1)[0])


def _p_win(ctx, dist: pd.DataFrame, targets, reps: int) -> tuple[dict, dict, dict]:
    """P(win) at every score for each target with its resampled error, the heatmaps, and the headline states."""
    from euchresim import plots
    pl, pol, tie = ctx.rules.players, ctx.policies[0], ctx.rules.cutthroat_tie
    tables = {"outcome_distribution": dist}
    charts, heads, ses = {}, [], {}
    for t in targets:
        tab = wp.win_probability(dist, pl, t, tie)
        se = wp.resampled_se(dist, pl, t, tie, reps=reps, seed=ctx.seed)
        ses[t] = se
        tables[f"p_win_to{t}"] = tab
        v = _view(tab, se, pl)
        tables[f"p_win_view_to{t}"] = v.assign(target=t)
        for who in ("we deal", "they deal"):
            charts[f"p_win_to{t}_{who.replace(' ', '_')}"] = plots.score_heatmap(
                v[v["deals"] == who], "ours", "theirs", "p_win",
                ctx.path(f"p_win_to{t}_{who.replace(' ', '_')}.png"),
                title=f"P(win) by score, game to {t}, {who} next", target=t,
                caption=ctx.caption(pol, ctx.hands, "the two others on the same score" if pl == 3 else "",
                                    intervals=False))
        for o, th in ((0, 0), (t - 2, t - 1), (t - 1, t - 2), (t - 1, t - 1), (t - 1, 0)):
            for who in ("we deal", "they deal"):
                r = v[(v["ours"] == o) & (v["theirs"] == th) & (v["deals"] == who)].iloc[0]
                heads.append({"target": t, "ours": o, "theirs": th, "deals": who, "p_win": r["p_win"],
                              "se": r["se"]})
    tables["headline"] = pd.DataFrame(heads)
    return tables, charts, ses


def _against_games(ctx, dist: pd.DataFrame, games: dict, se: np.ndarray) -> pd.DataFrame:
    """The program at the run's target beside whole games: from 0-0, and at the states the games visit most."""
    pl, T = ctx.rules.players, ctx.rules.game_to
    k = wp.parties(pl)
    V = wp.solve(dist, pl, T, ctx.rules.cutthroat_tie)
    g = pd.DataFrame({c[2:]: v for c, v in games.items() if c.startswith("g_")})
    fd = g["first_dealer"].to_numpy(np.int64)
    ours = fd % 2 if pl == 4 else fd
    won = int(((g["winners"].to_numpy(np.int64) >> ours) & 1).sum())
    p0, se0 = wp.first_dealer_at_zero(V, se, pl)
    checks = [{"state": "0-0, first dealer", "dealer": -1, "party": "first dealer",
               "games": len(g), "wins": won, "p_dp": p0, "dp_se": se0}]
    gres = type("G", (), {"hands": {c[2:]: v for c, v in games.items() if c.startswith("h_")}, "games": g})
    seen = wp.visited_states(gres, pl)
    seen = seen[seen[[f"score{p}" for p in range(k)]].sum(axis=1) > 0]
    for row in seen.sort_values(["games", "dealer"], ascending=[False, True]).head(CHECK_STATES).itertuples():
        at = tuple(int(getattr(row, f"score{p}")) for p in range(k)) + (int(row.dealer),)
        checks.append({"state": "-".join(map(str, at[:-1])) + f", seat {at[-1]} deals", "dealer": at[-1],
                       "party": "seat 0's side" if pl == 4 else "seat 0", "games": int(row.games),
                       "wins": int(row.wins0), "p_dp": float(V[at + (0,)]), "dp_se": float(se[at + (0,)])})
    return wp.against_games(pd.DataFrame(checks))


def _decision_charts(ctx, gains: pd.DataFrame, dec: pd.DataFrame, T: int) -> dict:
    """For each hand class, order minus pass in P(win) at every score of a game to the run's target."""
    from euchresim import plots
    charts = {}
    for j, (_, label, _, _) in enumerate(CLASSES):
        sub = dec[(dec["class"] == label) & (dec["target"] == T)].sort_values(["ours", "theirs"],
                                                                               ascending=[False, True])
        if len(sub):
            charts[f"order_pass_class{j}"] = plots.heatmap(
                sub, "ours", "theirs", "delta", ctx.path(f"order_pass_class{j}_to{T}.png"),
                title=f"Order minus pass, change in P(win): {label}, game to {T}", fmt="{:+.1%}",
                row_label="the deciding side's score", col_label="the others' score", value_label="ΔP(win)",
                caption=ctx.caption(ctx.policies[0], int(gains.loc[j, "deals"]), "deals of the class, paired; the "
                                    f"rest of the game from the outcome distribution; {CLASS_NOTE}", intervals=False))
    return charts


def _text(ctx, targets, T, n_games, dist, head, chk, gains, dec, flips, reps) -> str:
    pl = ctx.rules.players
    side = "side" if pl == 4 else "player"
    out = (_method_text(ctx, targets, dist, reps) + _findings_text(targets, head, pl, side)
           + _check_text(ctx, T, n_games, chk, side) + _decisions_text(T, gains, dec, flips, pl, ctx.policies[0]))
    return "\n".join(out) + "\n"


def _score(o: int, th: int, players: int) -> str:
    """A score as the table says it: ours first (with 3 players the two others on the same score)."""
    return f"{o}-{th}" + (f"-{th}" if players == 3 else "")


def _method_text(ctx, targets, dist: pd.DataFrame, reps: int) -> list[str]:
    pl = ctx.rules.players
    return ["## Method\n",
            f"{ctx.hands:,} hands of `{ctx.policies[0]}` at every seat (seed {ctx.seed}) give the outcome "
            f"distribution of one hand ({len(dist) // pl} distinct outcomes, pooled by seat relative to the "
            f"dealer; `outcome_distribution.csv`). A dynamic program over (scores, dealer) turns it into "
            f"P(win) at every score for games to {', '.join(map(str, targets))} (`p_win_to*.csv`: every "
            f"score and dealer; `p_win_view_to*.csv`: our score, their score, who deals next"
            + ("; with 3 players the two others on the same score" if pl == 3 else "")
            + f"). Every ± is the half-width of a 95% interval: {Z95:.2f} standard errors, resampled from "
              f"the distribution ({reps} redraws). See docs/win-probability.md.\n"]


def _findings_text(targets, head: pd.DataFrame, pl: int, side: str) -> list[str]:
    """P(win) from 0-0 and at the close scores, for each target."""
    sc = lambda o, th: _score(o, th, pl)
    hc = lambda t, o, th, who: head[(head["target"] == t) & (head["ours"] == o) & (head["theirs"] == th)
                                    & (head["deals"] == who)].iloc[0]
    out = ["## Findings\n"]
    for t in targets:
        a, b = hc(t, 0, 0, "we deal"), hc(t, t - 1, t - 1, "we deal")
        c, d = hc(t, t - 2, t - 1, "we deal"), hc(t, t - 2, t - 1, "they deal")
        e = hc(t, t - 1, t - 2, "they deal")
        out.append(f"- **Game to {t}.** From 0-0 the {side} that deals first wins {_pct(a.p_win, a.se)}; "
                   f"at {sc(t - 1, t - 1)} the dealing {side} wins {_pct(b.p_win, b.se)}. At {sc(t - 2, t - 1)} "
                   f"behind, a {side} wins {_pct(c.p_win, c.se)} with its own deal next and "
                   f"{_pct(d.p_win, d.se)} when the others deal; at {sc(t - 1, t - 2)} ahead with the others "
                   f"to deal, {_pct(e.p_win, e.se)}. (`headline.csv`; heatmaps `p_win_to{t}_*.png`.)")
    return out


def _check_text(ctx, T: int, n_games: int, chk: pd.DataFrame, side: str) -> list[str]:
    z0 = chk.iloc[0]
    agree = int(chk["agree"].sum())
    return ["", f"## The DP against whole games (game to {T})\n",
            f"{n_games:,} whole games (`simulate --games`, a tenth of the hands, at least 200; seed "
            f"{ctx.seed + 7919}, independent of the hands above): from 0-0 the first dealer's {side} won "
            f"{_pct(z0.p_games)} (95% {_pct(z0.games_low)} to {_pct(z0.games_high)}), the DP says "
            f"{_pct(z0.p_dp, z0.dp_se)}. "
            + (f"DP and games agree within their intervals at all {len(chk)} states checked"
               if agree == len(chk) else
               f"They agree within their 95% intervals at {agree} of {len(chk)} states checked (at 95% each, "
               f"one in twenty may miss by chance)")
            + " (0-0 and the most-visited later states; z is the difference over both errors; "
              "`dp_vs_games.csv`):\n",
            md_table(chk[["state", "games", "p_games", "games_low", "games_high", "p_dp", "dp_se", "z",
                          "agree"]]), ""]


def _late_scores_text(sub: pd.DataFrame, T: int, pl: int) -> str:
    """At the scores where a side is two points or less from the target, the call's clearest gains and losses
    of P(win), both signs: one score alone (9-9) makes the call look always right or always wrong."""
    late = sub[((sub["ours"] >= T - 2) | (sub["theirs"] >= T - 2)) & sub["clear"]]
    ups = late[late["delta"] > 0].sort_values("delta", ascending=False).head(3)
    downs = late[late["delta"] < 0].sort_values("delta").head(3)
    if not len(ups) and not len(downs):
        return ""

    def said(rows):
        return "; ".join(f"{_score(int(x.ours), int(x.theirs), pl)} {100 * x.delta:+.1f} (±{100 * Z95 * x.se:.1f})"
                         for x in rows.itertuples())
    parts = []
    if len(ups):
        parts.append(f"ordering raises P(win) most at {said(ups)}")
    if len(downs):
        parts.append(f"lowers it most at {said(downs)}")
    return (f" Late in the game (a side within 2 of {T}; percentage points, clear of their noise): "
            + ", and ".join(parts) + ".")


def _again_words(r) -> str:
    """A class's gain measured again on deals of its own, and the z of the two, as the README says them."""
    if "replicate_gain" not in r or not np.isfinite(r["replicate_gain"]) or not np.isfinite(r["z_replicate"]):
        return ""
    return (f"; measured again on deals of its own {r['replicate_gain']:+.3f} ({int(r['replicate_deals']):,} "
            f"deals, z {r['z_replicate']:+.1f})")


def _points_call(r) -> str:
    """The call the points gain gives, or that it gives none: a gain whose interval holds 0 is a toss-up on these
    deals, and "order" on a +0.03 with an interval from -0.06 would be advice the numbers do not give."""
    if r["low"] <= 0 <= r["high"]:
        return "too close to call (the interval holds 0)"
    return "order" if r["points_gain"] > 0 else "pass"


def _decisions_text(T: int, gains: pd.DataFrame, dec: pd.DataFrame, flips: pd.DataFrame, pl: int,
                    policy: str = "") -> list[str]:
    """Each hand class's points gain, the scores where the change in P(win) has the other sign, and at the late
    scores the largest changes both ways (the same call can win a game at 9-9 and lose one at 9-8)."""
    out = ["## Order or pass: the decisions whose answer changes with the score\n",
           (f"Under {policy}, as every figure here. " if policy else "") + "Paired counterfactuals (`euchresim.studies.counterfactual`, round-one call): each deal where the seat "
           "held a hand of the class and the call was open is played once ordered up and once passed, "
           "everything else by the policy. Points gain: our points less the others' (on average), order "
           "minus pass, 95% interval. The change in P(win) (`order_pass_by_score.csv`) is the mean, over "
           "the same deals, of P(win) after the hand ordered minus passed, the rest of the game from the "
           f"distribution above; its ± is the half-width of the paired 95% interval over deals ({Z95:.2f} "
           "standard errors; the distribution's own error left out). Trumps are counted in the hand the seat plays, "
           "the dealer's with the upcard it takes up; the joker counts as a bower. Each class's gain is measured "
           "again on deals of its own (a seed derived apart, `replicate_*` and `z_replicate` in "
           "`order_pass_points.csv`); where Holm's method over those z's and the whole-game checks above "
           f"finds one beyond chance (5% family-wise, {gains.attrs.get('tests', 0)} comparisons here), the "
           "report is not written.\n",
           md_table(gains), ""]
    for _, r in gains.iterrows():
        sub = dec[(dec["class"] == r["class"]) & (dec["target"] == T)]
        if not len(sub):
            out.append(f"- **{r['class']}**: {r['deals']} deals, too few to rate.")
            continue
        f = flips[(flips["class"] == r["class"]) & (flips["target"] == T)]
        line = (f"- **{r['class']}** ({r['deals']:,} deals): ordering gains {r['points_gain']:+.3f} points "
                f"(95% {r['low']:+.3f} to {r['high']:+.3f}){_again_words(r)}, so on points: {_points_call(r)}. "
                f"Game to {T}: ")
        if not len(f):
            line += "the change in P(win) has the sign of the points gain at every score."
        else:
            fc = f[f["clear"]]
            show = (fc if len(fc) else f).reindex((fc if len(fc) else f)["delta"].abs()
                                                  .sort_values(ascending=False).index).head(6)
            line += (f"the sign of the change in P(win) differs at {len(f)} of {len(sub)} scores "
                     f"({len(fc)} of them by more than {Z95:.2f} standard errors), e.g. "
                     + "; ".join(f"{_score(int(x.ours), int(x.theirs), pl)}: {100 * x.delta:+.1f} percentage "
                                 f"points of P(win) (±{100 * Z95 * x.se:.1f})" for x in show.itertuples()) + ".")
        out.append(line + _late_scores_text(sub, T, pl))
    out.append(f"\nAll scores, every target: `order_pass_by_score.csv`; where the signs differ: "
               f"`order_pass_flips.csv` ({len(flips)} rows).")
    return out
