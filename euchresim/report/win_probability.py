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

from euchresim.report import Section, chunked
from euchresim.studies import counterfactual as cf
from euchresim.run import runner
from euchresim.analysis import winprob as wp
from euchresim.cards import has_joker
from euchresim.report.win_probability_text import _text
from euchresim.report.win_probability_checks import followed_up, replicated
from euchresim.stats import Z95

CHECK_STATES = 4          # often-visited states checked besides 0-0
FURTHER_STREAMS = 2       # a class whose measure again is refused is measured on this many more (followed_up)
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


def _cf_job(spec: runner.RunSpec, position: int, i: int, classes=None, only: int = -1) -> dict:
    """Deals of one chunk whose deciding hand falls in a class of ``position``: points under order and pass.
    ``classes``: the chunk's deals targeted (engine class names, ``_class_names``); ``only``: keep the deals of that
    ``CLASSES`` entry alone (a targeted run is one entry's)."""
    c = cf.play_chunk(spec, i, "bid1", position, classes)
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
    keep = (cls >= 0) & (ka >= 0) & (kb >= 0) & (c.upcard < 32) & ((cls == only) | (only < 0))
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


def _stream_rows(j: int, first: int, parts: list[dict], pl: int) -> list[dict]:
    """Class ``j``'s gain on each of ``parts``, streams numbered from ``first`` (0 the first measure, 1 the
    measure again, 2 on the further streams of ``followed_up``), a row of ``order_pass_streams.csv`` each."""
    pos, label, _, _ = CLASSES[j]
    rows = []
    for r, part in enumerate(parts, first):
        ra, _, g = _class_gain(part, j, pos, pl)
        rows.append({"class": label, "stream": r, "deals": len(ra), "gain": g["mean"], "low": g["low"],
                     "high": g["high"]})
    return rows


def _decisions(ctx, dist, cfd, targets, tie):
    """Order against pass for each hand class: the change in P(win) at every score, with the class's points gain
    (``_gains``) beside it, and the scores where the two differ in sign."""
    pl = ctx.rules.players
    k = wp.parties(pl)
    deltas = []
    for j, (pos, label, _, _) in enumerate(CLASSES):
        party = pos % k
        ra, rb, g = _class_gain(cfd[pos], j, pos, pl)
        n = len(ra)
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
    return dec.reset_index(drop=True), flips.reset_index(drop=True)


def _gains(cfd: dict, pl: int) -> pd.DataFrame:
    """Each class's paired points gain of ordering over its deals in ``cfd``, a row a class in CLASSES' order."""
    rows = []
    for j, (pos, label, _, _) in enumerate(CLASSES):
        ra, _, g = _class_gain(cfd[pos], j, pos, pl)
        rows.append({"class": label, "position": pos, "deals": len(ra), "points_gain": g["mean"],
                     "low": g["low"], "high": g["high"]})
    return pd.DataFrame(rows)


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
    gains = replicated(ctx.out, _gains(cfd, pl), _again_gains(again, pl), chk, follow=True)
    streams = [row for j in range(len(CLASSES))
               for row in _stream_rows(j, 0, [cfd[CLASSES[j][0]], again[CLASSES[j][0]]], pl)]
    for j in [j for j in gains.index if gains.loc[j, "refused"]]:
        pos = CLASSES[j][0]
        more = [_further(ctx, j, r) for r in range(2, 2 + FURTHER_STREAMS)]
        streams += _stream_rows(j, 2, more, pl)
        cfd[pos] = _cat([cfd[pos], _only(again[pos], j), *more])
    streams = pd.DataFrame(streams).sort_values(["class", "stream"], kind="stable", key=_class_order)
    gains = followed_up(ctx.out, gains, streams, _gains(cfd, pl))
    dec, flips = _decisions(ctx, dist, cfd, targets, rules.cutthroat_tie)
    tables.update(order_pass_points=gains, order_pass_streams=streams.reset_index(drop=True),
                  order_pass_by_score=dec, order_pass_flips=flips)
    charts.update(_decision_charts(ctx, gains, dec, T))
    return Section(title=f"Win probability by score ({pl} players, {rules.deck} cards)",
                   text=_text(ctx, targets, T, n_games, dist, tables["headline"], chk, gains, dec, flips, reps,
                              tables["order_pass_streams"]),
                   tables=tables, charts=charts)


def _work(ctx, n_games: int) -> tuple[dict, dict, dict, dict]:
    """The runs: hands for the outcome distribution, whole games to check it, the order-or-pass counterfactuals
    and their measures again."""
    hspec = _spec(ctx, "hands", ctx.hands, ctx.seed)
    hands = _run(ctx, "hands", hspec, partial(_hands_job, hspec), "hands")
    gspec = _spec(ctx, "games", n_games, ctx.seed + 7919)
    games = _run(ctx, "games", gspec, partial(_games_job, gspec), "games")
    cfd, again = {}, {}
    if ctx.class_reached:               # each class on targeted deals, to its own count
        for pos in sorted({c[0] for c in CLASSES}):
            mine = [j for j, c in enumerate(CLASSES) if c[0] == pos]
            cfd[pos] = _cat([_cf_reached(ctx, j) for j in mine])
            again[pos] = _cat([_cf_reached(ctx, j, replicate=1) for j in mine])
        return hands, games, cfd, again
    for pos in sorted({c[0] for c in CLASSES}):
        cspec = _spec(ctx, "hands", ctx.hands, ctx.seed + 15838 + pos)
        cfd[pos] = _run(ctx, f"order-pass-pos{pos}", cspec, partial(_cf_job, cspec, pos),
                        f"order vs pass, {pos} left of the dealer", classes=[list(c) for c in CLASSES])
    for pos in sorted({c[0] for c in CLASSES}):
        rspec = _spec(ctx, "hands", ctx.hands, _again_seed(ctx.seed, pos))
        again[pos] = _run(ctx, f"order-pass-pos{pos}-again", rspec, partial(_cf_job, rspec, pos),
                          f"order vs pass again, {pos} left of the dealer", classes=[list(c) for c in CLASSES])
    return hands, games, cfd, again


def _class_names(rules, trumps: int, need_bower: bool) -> tuple[str, ...]:
    """The engine's hand classes (``engine.classes``) that hold every hand of a ``CLASSES`` entry: its trumps'
    bucket, and where it needs a bower, those holding one. The joker is a bower to ``CLASSES`` but not to the
    engine's classes, so with a joker every class of the bucket is let in: the targeted deals are a superset,
    and ``_cf_job`` keeps the entry's own."""
    bucket = {2: "2T", 3: "3T"}.get(trumps, "4+T" if trumps >= 4 else "0-1T")
    bowers = ("L", "R", "RL") if need_bower and not has_joker(rules.deck) else ("-", "L", "R", "RL")
    return tuple(f"{bucket} {b}" for b in bowers)


def _batch_seed(seed: int, entry: int, batch: int, replicate: int = 0) -> int:
    """A targeted batch's seed: SeedSequence([seed, 0x5750, replicate, entry + 1, batch + 1])'s first word, so
    every class, batch and measure again deals a stream of its own, all from the report's one seed."""
    key = [int(seed), 0x5750, int(replicate), int(entry) + 1, int(batch) + 1]
    return int(np.random.SeedSequence(key).generate_state(1)[0])


def _cf_reached(ctx, j: int, replicate: int = 0) -> dict:
    """``--class-reached N``: ``CLASSES[j]``'s counterfactuals on deals targeted to its hands, in batches until
    ``N`` reach the call (the seat still to speak with the upcard up) or ``MAX_KEPT`` N were kept.

    Untargeted, a class is played only as often as it is dealt: 20,000 deals gave the dealer's left 1,651 with
    three trumps (±0.087 points), where the paired gain needs some 5,000 for ±0.05, and every deal of the other
    hands was played for nothing. The batches are ``targeted_cells.in_batches``'s, sized from the counts alone;
    every batch is kept and resumable under a seed of its own (``_batch_seed``)."""
    from euchresim.report.targeted_cells import in_batches
    pos, label, t, need_bower = CLASSES[j]
    names = _class_names(ctx.rules, t, need_bower)
    again = "" if not replicate else "-again" if replicate == 1 else f"-stream{replicate}"
    said = "" if not replicate else ", again" if replicate == 1 else f", stream {replicate}"
    parts = []

    def play_batch(k, size):
        spec = _spec(ctx, "hands", size, _batch_seed(ctx.seed, j, k, replicate))
        d = _run(ctx, f"order-pass-class{j}{again}-batch{k}", spec, partial(_cf_job, spec, pos, classes=names, only=j),
                 f"order vs pass{said}: {label}, batch {k + 1}", classes=list(names), entry=list(CLASSES[j]))
        parts.append(d)
        return len(d["cls"])

    in_batches(ctx.class_reached, play_batch)
    return _cat(parts)


def _again_seed(seed: int, position: int, stream: int = 1) -> int:
    """The seed of a position's replicate counterfactuals: numpy's SeedSequence([seed, 0x4A61, position + 1]),
    derived so the report stays one seed, another stream so its deals are its own; a further stream's
    (``followed_up``) with the stream's number appended."""
    key = [int(seed), 0x4A61, int(position) + 1] + ([int(stream)] if stream > 1 else [])
    return int(np.random.SeedSequence(key).generate_state(1)[0])


def _further(ctx, j: int, stream: int) -> dict:
    """Class ``j``'s deals on further stream ``stream`` (2, 3, ...): targeted to its own count as its first
    measures were (``_cf_reached``), or a position's run of ``--hands`` deals, the class's own kept."""
    if ctx.class_reached:
        return _cf_reached(ctx, j, replicate=stream)
    pos, label = CLASSES[j][:2]
    spec = _spec(ctx, "hands", ctx.hands, _again_seed(ctx.seed, pos, stream))
    return _run(ctx, f"order-pass-class{j}-stream{stream}", spec, partial(_cf_job, spec, pos, only=j),
                f"order vs pass, stream {stream}: {label}", entry=list(CLASSES[j]))


def _only(part: dict, j: int) -> dict:
    """The deals of ``part`` in class ``j``."""
    keep = part["cls"] == j
    return {k: v[keep] for k, v in part.items()}


def _class_order(col: pd.Series) -> pd.Series:
    """Sorts ``order_pass_streams`` by class in CLASSES' order (the other tables' order), not alphabetically."""
    if col.name != "class":
        return col
    return col.map({label: j for j, (_, label, _, _) in enumerate(CLASSES)})


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
