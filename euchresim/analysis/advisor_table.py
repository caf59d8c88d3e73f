"""The advisor's table: per option, the points and P(win the game), each with its 95% interval.

``studies.advisor.evaluate`` plays every option on the same sampled deals; here
those paired arrays become what a player reads.  Points are the hand's
**net** points (the seat's side less the other side's, as the reports
count them; 3 and 2 players: less the mean of the others) and, beside
them, the seat's side's own points.  P(win) is the seat's side's chance
of winning the game once this hand is scored at ``score``, the rest of the
game played by the same policy: the win-probability model of
``analysis.winprob`` (a dynamic program over that policy's per-hand
outcomes, measured on ``model_hands`` hands).  The intervals are over the
advisor's sampled deals, the model taken as given (docs/advise.md).

The recommended option is the one that wins the game most often (the
points decide only without a P(win) model): a player plays for the game,
and at 9-9 a hand's points say little about it.  Both are shown, and the
answer says when they disagree.  Options that give the same on every
deal are equal, and the pick among them is the bot's.  How sure the
answer is, is the paired difference to the next best; every interval
allows for the looks of the sequential stop (``interval_z``), so stopping
early does not narrow it.
"""
from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os

import numpy as np
import pandas as pd

from euchresim.analysis.winprob import party_winners, outcome_distribution, parties, solve
from euchresim.stats import mean_interval

MODEL_HANDS = 20_000


@functools.lru_cache(maxsize=8)
def win_model(rules, table, hands: int = MODEL_HANDS, seed: int = 0, say=None, name: str = "") -> np.ndarray:
    """P(win) by score and dealer (``winprob.solve``) under ``table``'s policies, from ``hands`` hands.

    Kept on disk beside the compiled kernels (engine.cache_dir, whose name
    changes with the kernels' source, so a changed policy never finds an
    old model): ``pimc``'s 2,000 hands take seconds, and every ``advise``
    is a new process.  Written under a temporary name and renamed.
    ``say`` (text -> None) is told when the model is made, which is slow.
    ``table``: the policy as read where it was named (a ``policies.Seats``); ``name`` what ``say`` calls it,
    if not its canonical text.
    """
    stored = stored_model(rules, table) if hands == MODEL_HANDS else None
    if stored is not None:
        return stored
    path = _model_path(rules, table, hands, seed)
    try:
        V = np.load(path, allow_pickle=False)
        if V.shape == (rules.game_to,) * parties(rules.players) + (rules.players, parties(rules.players)):
            return V
    except (OSError, ValueError):
        pass
    from euchresim.run.runner import RunSpec, play_chunk
    if say is not None:
        say(f"making the P(win) model: {hands:,} hands of {name or table.text} (once; kept for the next run)...")
    spec = RunSpec(rules, table, seed=seed, count=hands)
    rows = [pd.DataFrame(play_chunk(spec, i).hands) for i in range(spec.n_chunks)]
    dist = outcome_distribution(pd.concat(rows, ignore_index=True), rules.players, pool_seats=True)
    V = solve(dist, rules.players, rules.game_to, rules.cutthroat_tie)
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as fh:
            np.save(fh, V, allow_pickle=False)
        os.replace(tmp, path)
    except OSError:           # a cache that cannot be written costs time next run, nothing else
        with contextlib.suppress(OSError):
            os.remove(tmp)
    return V


def stored_model(rules, table) -> np.ndarray | None:
    """The model shipped for ``heuristic`` under the standard rules (policies/win_table.py), else None.

    ``table``: the policy at every seat, as read (a ``policies.Seats``).

    A million hands, solved once when the package was made: the first
    ``advise`` on a fresh install neither compiles the whole-hand kernel
    nor plays 20,000 hands for it, and the model is a fiftieth as noisy.
    """
    from euchresim.policies.win_table import P_WIN
    from euchresim.rules import Rules
    if rules.game_to not in P_WIN or rules != Rules(game_to=rules.game_to):
        return None
    names = table.names
    if list(names) != ["heuristic"] * len(names):
        return None
    return np.array(P_WIN[rules.game_to], dtype=float)


def _model_path(rules, table, hands: int, seed: int) -> str:
    from euchresim.engine import cache_dir
    names = table.names
    key = json.dumps({"rules": rules.to_dict(), "policies": names, "hands": hands, "seed": seed}, sort_keys=True)
    return os.path.join(cache_dir(), "winmodel-" + hashlib.sha256(key.encode()).hexdigest()[:20] + ".npy")


def party_of(seat: int, players: int) -> int:
    return seat % 2 if players == 4 else seat


def win_after(V: np.ndarray, points: np.ndarray, maker: np.ndarray, score, dealer: int, seat: int,
              players: int, target: int, tie: str, redeal=None) -> np.ndarray:
    """The seat's side's P(win) after each sampled hand (same shape as ``maker``)."""
    k = parties(players)
    party = party_of(seat, players)
    base = np.array([score[p] for p in range(k)], np.int64)       # seats 0..k-1 carry each party's score
    out = np.zeros(maker.shape)
    nxt = (dealer + 1) % players
    flat_pts = points.reshape(-1, 4)[:, :k]
    flat_mk = maker.reshape(-1)
    res = out.reshape(-1)
    cache: dict = {}
    for i in range(len(flat_mk)):
        key = (tuple(flat_pts[i]), int(flat_mk[i]))
        v = cache.get(key)
        if v is None:
            after = base + flat_pts[i]
            mk = -1 if flat_mk[i] < 0 else party_of(int(flat_mk[i]), players)
            w = party_winners(after, mk, players, target, tie)
            d = dealer if (redeal is not None and redeal) else nxt
            v = float(w[party]) if w.any() else float(V[tuple(after) + (d, party)])
            cache[key] = v
        res[i] = v
    return out


def interval_z(adv, level: float = 0.95) -> float:
    """The z of intervals that hold at every look of ``adv``'s stopping schedule at once (Bonferroni).

    The sampling stops when the best looks best, so the interval of the
    sample it stopped on is no plain 95% interval; spending the error over
    the schedule's looks (fixed in advance) makes it one again.  A fixed
    sample has one look: the plain z.
    """
    from statistics import NormalDist
    return NormalDist().inv_cdf(1 - (1 - level) / (2 * max(1, int(adv.looks))))


def deal_values(adv, model: np.ndarray | None) -> tuple[np.ndarray, str]:
    """Per deal and option, what decides ("P(win)" when there is a model, else "points") and its name."""
    from euchresim.studies.advisor.evaluate import net_points
    sit, s = adv.situation, adv.samples
    if model is None:
        return net_points(s.points, sit.seat, sit.rules.players).astype(float), "points"
    return win_after(model, s.points, s.maker, sit.score, sit.dealer, sit.seat, sit.rules.players,
                     sit.rules.game_to, sit.rules.cutthroat_tie), "P(win)"


def _pick(values: np.ndarray, share: list[float], points: np.ndarray) -> tuple[int, list[int]]:
    """The best option by mean, and the options equal to it on every deal; among equals the bot's pick."""
    means = values.mean(axis=0)
    top = int(np.argmax(means))
    equal = [k for k in range(values.shape[1]) if np.array_equal(values[:, k], values[:, top])]
    best = max(equal, key=lambda k: (share[k], points[k], -k))
    return best, [k for k in equal if k != best]


def advice_table(adv, model: np.ndarray | None = None, z: float | None = None) -> pd.DataFrame:
    """One row per option: net and own points, P(win), each with its interval; the policy's own share.

    ``best`` marks the recommendation (by P(win) with a model, else by
    points), ``equal`` the options that gave what it gave on every deal,
    ``points_best`` the option the points alone would pick; ``gap`` is the
    best's paired lead over each option in the deciding measure,
    ``points_gap`` the points-best's lead in points and ``best_points_gap``
    the best's lead in points.  ``z`` defaults to
    ``interval_z(adv)``.  ``table.attrs["decided_by"]`` names the measure.
    """
    from euchresim.studies.advisor.evaluate import net_points
    z = interval_z(adv) if z is None else z
    sit, s = adv.situation, adv.samples
    players = sit.rules.players
    net = net_points(s.points, sit.seat, players).astype(float)
    own = s.points[:, :, sit.seat].astype(float)
    win = None
    if model is not None:
        win = win_after(model, s.points, s.maker, sit.score, sit.dealer, sit.seat, players, sit.rules.game_to,
                        sit.rules.cutthroat_tie)
    opts = adv.decision.options
    share = [float(np.mean((s.chosen[:, 0] == a) & ((b < 0) | (s.chosen[:, 1] == b)))) if len(s) else math.nan
             for a, b in opts]
    rows = []
    for k, label in enumerate(adv.decision.labels):
        p, o = mean_interval(net[:, k], z), mean_interval(own[:, k], z)
        row = {"action": label, "points": p["mean"], "points_low": p["low"], "points_high": p["high"],
               "own_points": o["mean"], "own_points_low": o["low"], "own_points_high": o["high"]}
        if win is not None:
            w = mean_interval(win[:, k], z)
            # a mean of probabilities lies in [0, 1]: so do the ends shown for it
            row.update(win_probability=w["mean"], win_probability_low=max(0.0, w["low"]),
                       win_probability_high=min(1.0, w["high"]))
        made = s.maker[:, k] >= 0
        ours = made & (np.array([party_of(int(m), players) for m in s.maker[:, k]]) == party_of(sit.seat, players)
                       if len(s) else made)
        row["makers_ours"] = float(ours.mean()) if len(s) else math.nan
        row["policy_share"] = share[k]
        rows.append(row)
    df = pd.DataFrame(rows)
    df.attrs["decided_by"] = "P(win)" if win is not None else "points"
    if len(df) and len(s):
        pts = net.mean(axis=0)
        decide = win if win is not None else net
        best, equal = _pick(decide, [0.0 if math.isnan(x) else x for x in share], pts)
        pbest, _ = _pick(net, [0.0 if math.isnan(x) else x for x in share], pts)
        df["best"] = [k == best for k in range(len(df))]
        df["equal"] = [k in equal for k in range(len(df))]
        df["points_best"] = [k == pbest for k in range(len(df))]
        for col, vals, top in (("gap", decide, best), ("points_gap", net, pbest), ("best_points_gap", net, best)):
            gaps = [mean_interval(vals[:, top] - vals[:, k], z) for k in range(len(df))]
            df[col] = [g["mean"] for g in gaps]
            df[col + "_low"] = [g["low"] for g in gaps]
            df[col + "_high"] = [g["high"] for g in gaps]
        if win is not None:
            now = win_now(model, sit.score, sit.dealer, sit.seat, players)
            df["win_change"] = df["win_probability"] - now
            df["win_change_low"] = df["win_probability_low"] - now
            df["win_change_high"] = df["win_probability_high"] - now
    return df


def win_now(V: np.ndarray, score, dealer: int, seat: int, players: int) -> float:
    """The seat's side's P(win) at the score before this hand is dealt, by the same model."""
    k = parties(players)
    return float(V[tuple(int(score[p]) for p in range(k)) + (dealer, party_of(seat, players))])


def _next_best(table: pd.DataFrame):
    """The best option's row and its nearest rival that is not equal to it (None if every option is equal)."""
    best = table.loc[table["best"]].iloc[0]
    rest = table.loc[~table["best"] & ~table["equal"]].sort_values("gap")
    return best, (rest.iloc[0] if len(rest) else None)


def advice_json(adv, table: pd.DataFrame) -> dict:
    """The advisor's answer as JSON (docs/advise.md): recommended, stopped, samples, and the options."""
    s = adv.samples
    has = len(table) and "best" in table
    best, nxt = _next_best(table) if has else (None, None)
    sure = None
    if nxt is not None:
        sure = {"next_best": nxt["action"], "gap": nxt["gap"], "gap_ci": [nxt["gap_low"], nxt["gap_high"]],
                # the gap's interval holds 0: the recommendation is not separated from its rival
                "too_close": not nxt["gap_low"] > 0}
    actions = []
    for _, r in table.iterrows():
        a = {"action": r["action"], "points": r["points"], "points_ci": [r["points_low"], r["points_high"]],
             "own_points": r["own_points"], "own_points_ci": [r["own_points_low"], r["own_points_high"]]}
        if "win_probability" in table:
            a.update(win_probability=r["win_probability"],
                     win_probability_ci=[r["win_probability_low"], r["win_probability_high"]],
                     win_probability_change=r["win_change"],
                     win_probability_change_ci=[r["win_change_low"], r["win_change_high"]])
        a.update(makers_ours=r["makers_ours"], policy_share=r["policy_share"])
        actions.append(a)
    sit = adv.situation
    points_best = table.loc[table["points_best"], "action"].iloc[0] if has else None
    return {"recommended": None if best is None else best["action"], "decided_by": table.attrs.get("decided_by"),
            "points_recommend": points_best,
            "equal_to_recommended": [] if not has else list(table.loc[table["equal"], "action"]),
            "confidence": sure,
            "decision": adv.decision.kind, "seat": sit.seat, "position": position_name(sit), "dealer": sit.dealer,
            "policy": adv.policy, "policy_name": adv.shown,
            # dd sees every hand: its values bound what any fair player could get, and say so
            "cheating": adv.cheats,
            "stopped": adv.stopped, "alpha": adv.alpha, "looks": int(adv.looks), "interval_z": interval_z(adv),
            "samples": int(len(s)), "effective_samples": int(len(s)),
            "tries": int(s.tries), "inference": adv.infer, "seed": adv.seed, "actions": actions}


def position_name(sit) -> str:
    """The deciding seat as a player names it: where it sits from the dealer."""
    from euchresim.rules import POSITION_NAMES
    return POSITION_NAMES[sit.rules.players][sit.position]


def _f(x, d=2, signed=True):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:+.{d}f}" if signed else f"{x:.{d}f}"


def percent(x: float) -> str:
    """An error rate as a percentage with its digits: 5%, 0.1%, 1e-10% (never a 0% that is not zero)."""
    return f"{100 * x:.3g}%"


def score_phrase(sit) -> str:
    players = sit.rules.players
    us = sit.score[sit.seat]
    them = [sit.score[(sit.seat + k) % players] for k in range(1, 2 if players == 4 else players)]
    return "-".join(str(x) for x in [us] + them)


def _verdict(adv, table: pd.DataFrame) -> list[str]:
    """The recommendation, by how much, which measure decided and why, and what the other measure says."""
    best, nxt = _next_best(table)
    by_win = table.attrs.get("decided_by") == "P(win)"
    out = []
    if nxt is None:
        return [f"best: {best['action']}: every option gave the same on every deal, and the pick among equals "
                "is the bot's"]
    if not nxt["gap_low"] > 0:
        return _too_close(adv, table, best, nxt, by_win)
    if by_win:
        out.append(f"best: {best['action']}, winning the game {best['win_probability']:.1%} of the time against "
                   f"{nxt['win_probability']:.1%} for {nxt['action']}, by {100 * nxt['gap']:+.1f} "
                   f"[{100 * nxt['gap_low']:+.1f}, {100 * nxt['gap_high']:+.1f}] percentage points")
        pb = table.loc[table["points_best"]].iloc[0]
        if pb["action"] == best["action"]:
            out.append("P(win the game) decides, as the game is what counts; the points agree")
        elif not table.loc[table["action"] == best["action"]].iloc[0]["points_gap_low"] > 0:
            gap = table.loc[table["action"] == best["action"]].iloc[0]
            out.append(f"P(win the game) decides, as the game is what counts; the points favour {pb['action']} by "
                       f"{_f(gap['points_gap'])} a hand [{_f(gap['points_gap_low'])}, "
                       f"{_f(gap['points_gap_high'])}], too close to call on these deals")
        else:
            gap = table.loc[table["action"] == best["action"]].iloc[0]
            out.append(f"P(win the game) decides, as the game is what counts; the points disagree: they favour "
                       f"{pb['action']} by {_f(gap['points_gap'])} a hand [{_f(gap['points_gap_low'])}, "
                       f"{_f(gap['points_gap_high'])}], but {best['action']} wins more games"
                       + (f" at {score_phrase(adv.situation)}" if any(adv.situation.score) else ""))
    else:
        out.append(f"best: {best['action']}, by {_f(nxt['gap'])} points a hand over {nxt['action']} "
                   f"[{_f(nxt['gap_low'])}, {_f(nxt['gap_high'])}]")
    eq = list(table.loc[table["equal"], "action"])
    if eq:
        out.append(f"{', '.join(eq)} gave the same as {best['action']} on every deal: equal, and the pick among "
                   "equals is the bot's")
    return out


def _too_close(adv, table: pd.DataFrame, best, nxt, by_win: bool) -> list[str]:
    """The best and its rival not separated (the gap's interval holds 0): no recommendation, both measures shown.

    A gap that may be 0 is no reason to leave the bot's own choice; what the
    player reads is how far apart the two options may be, in points and in
    P(win), and which one the bot takes.
    """
    pts = (f"{_f(nxt['best_points_gap'])} points a hand [{_f(nxt['best_points_gap_low'])}, "
           f"{_f(nxt['best_points_gap_high'])}]")
    out = [f"too close to call on these deals: {best['action']} against {nxt['action']}"]
    if by_win:
        out.append(f"  P(win): {best['win_probability']:.1%} against {nxt['win_probability']:.1%}, a gap of "
                   f"{100 * nxt['gap']:+.1f} [{100 * nxt['gap_low']:+.1f}, {100 * nxt['gap_high']:+.1f}] "
                   "percentage points")
    out.append(f"  points: {pts}")
    shares = table.set_index("action")["policy_share"]
    pick = shares.idxmax() if shares.notna().any() else None
    if pick is not None and shares[pick] > 0:
        out.append(f"  the bot takes {pick} here ({shares[pick]:.0%} of the deals); more deals "
                   "(--samples) may separate them")
    eq = list(table.loc[table["equal"], "action"])
    if eq:
        out.append(f"{', '.join(eq)} gave the same as {best['action']} on every deal: equal, and the pick among "
                   "equals is the bot's")
    return out


def format_advice(adv, table: pd.DataFrame) -> str:
    """The table as a player reads it: best first, intervals in brackets, a line on how sure."""
    s = adv.samples
    lines = []
    has_win = "win_probability" in table
    key = "win_probability" if has_win else "points"
    order = table.assign(_b=table["best"], _e=table["equal"]).sort_values(
        ["_b", "_e", key, "points"], ascending=False, kind="stable")
    w = max(len("action"), *(len(a) for a in table["action"]))
    level = "95% interval"
    head = f"{'action':<{w}}  {'points':>7}  {level:>15}  {'own':>6}"
    if has_win:
        head += f"  {'P(win)':>6}  {level:>15}  {'change':>6}"
    head += f"  {'bot':>4}"
    lines.append(head)
    for _, r in order.iterrows():
        line = (f"{r['action']:<{w}}  {_f(r['points']):>7}  "
                f"{'[' + _f(r['points_low']) + ', ' + _f(r['points_high']) + ']':>15}  {_f(r['own_points']):>6}")
        if has_win:
            line += (f"  {r['win_probability']:>6.1%}  "
                     f"{'[' + format(r['win_probability_low'], '.1%') + ', ' + format(r['win_probability_high'], '.1%') + ']':>15}"
                     f"  {100 * r['win_change']:>+6.1f}")
        line += f"  {r['policy_share']:>4.0%}"
        lines.append(line)
    if has_win:
        lines.append("change: P(win) after the hand less before it, in percentage points")
    lines.append("")
    if len(order) > 1:
        lines += _verdict(adv, table)
    else:
        lines.append(f"best: {order.iloc[0]['action']} (the only option)")
    how = {"separated": f"stopped when the best stood apart (error at most {percent(adv.alpha)})",
           "equal": "stopped: every option gave the same on every deal",
           "fixed": "a fixed sample, no early stop",
           "samples": f"stopped at the sample limit: the best is not yet separated from the rest at "
                      f"{percent(adv.alpha)} error"}[adv.stopped]
    if adv.looks > 1:
        how += f"; the intervals hold at all {adv.looks} looks at once"
    lines.append(f"{len(s):,} deals the seat cannot tell apart ({s.tries:,} tried), {adv.shown} after the decision; "
                 + how)
    if adv.cheats:
        lines.append("dd sees every card: its values are a cheating bound, not a fair player's")
    return "\n".join(lines)


def review_hand(rec, policy, samples: int = 2000, seed: int = 0, infer: bool = True,
                alpha: float = 0.05, seats=None) -> pd.DataFrame:
    """Each decision of a played hand, judged from its seat's knowledge then: what it did, the best, the cost.

    One row per decision with more than one option (studies.record_text.decisions):
    ``did`` and ``best`` (the advisor's labels), ``gave_up`` = the best's
    net points less those of what was done, paired on the same deals, with
    its interval (0 when the seat took the best; ``interval_z`` its z,
    widened for the stopping rule's looks).  The question a player
    brings from a game: which of my decisions cost us this hand?

    A call and the alone call after it are one decision (the call's options
    are "order", "order alone", ...): the alone step is not judged again.
    Where the calls heard leave too few deals even with the softened model
    (loops/advisor_kernels.py), the decision is judged on every deal the cards allow
    and its row says ``inference`` False, instead of stopping the review.
    ``seats``: judge only these seats' decisions (the practice table's player).
    ``policy``: the play model, a ``policies.Seats`` for the record's players.
    """
    from euchresim.studies.advisor import evaluate as A
    from euchresim.studies.advisor import situation as S
    from euchresim.studies.record_text import decisions
    steps = decisions(rec)
    rows = []
    judged_alone = set()                   # alone steps their call's options already judged
    for i, d in enumerate(steps):
        if d["step"] in judged_alone or (seats is not None and d["seat"] not in seats):
            continue
        sit = S.from_record(rec, calls=d["calls"], plays=d["plays"], decision=d["kind"])
        dec = S.decision_of(sit)
        if len(dec.options) < 2:
            continue
        nxt = steps[i + 1] if i + 1 < len(steps) else None
        alone = nxt["code"] if (nxt and nxt["kind"] == "alone" and nxt["seat"] == d["seat"]) else -1
        if alone >= 0 and any(b >= 0 for _, b in dec.options.tolist()):
            judged_alone.add(nxt["step"])
        did = [k for k, (a, b) in enumerate(dec.options.tolist()) if a == d["code"] and (b < 0 or b == alone)]
        inferred = infer
        try:
            adv = A.advise(sit, policy, samples=samples, seed=seed, infer=infer, alpha=alpha)
        except S.AdviceError:
            if not infer:
                raise
            adv, inferred = A.advise(sit, policy, samples=samples, seed=seed, infer=False, alpha=alpha), False
        table = advice_table(adv)          # the best, and each option's paired gap to it, as advise shows them
        best = table.loc[table["best"]].iloc[0]
        got = table.iloc[did[0]] if did else None
        rows.append({"step": d["step"], "seat": d["seat"], "position": position_name(sit), "kind": d["kind"],
                     "did": d["action"] if got is None else got["action"], "best": best["action"],
                     "gave_up": math.nan if got is None else got["gap"],
                     "gave_up_low": math.nan if got is None else got["gap_low"],
                     "gave_up_high": math.nan if got is None else got["gap_high"],
                     "samples": len(adv.samples), "stopped": adv.stopped, "interval_z": interval_z(adv),
                     "inference": inferred})
    return pd.DataFrame(rows)


NOT_NARROWED = ("judged on every deal the cards allow: the calls heard are ones the model would (nearly) never "
                "make, so they say nothing it can use about the hands")


def format_review(review: pd.DataFrame, policy: str) -> str:
    """One line per decision; the costly ones marked, with their interval."""
    if not len(review):
        return "no decision in this hand had more than one option"
    lines = [f"each decision from its seat's view ({policy} after it; net points given up against the best, 95% "
             "interval):"]
    w = max(len(str(x)) for x in review["did"])
    where = [f"seat {r['seat']} ({r['position']})" if "position" in review else f"seat {r['seat']}"
             for _, r in review.iterrows()]
    ws = max(map(len, where))
    for (_, r), seat in zip(review.iterrows(), where):
        cost = r["gave_up"]
        if r["did"] == r["best"] or cost == 0:
            verdict = "best"
        else:
            sure = "" if r["gave_up_low"] > 0 else " (not clearly worse)"
            verdict = (f"best {r['best']}: gave up {cost:.2f} [{r['gave_up_low']:+.2f}, {r['gave_up_high']:+.2f}]"
                       f"{sure}")
        mark = " *" if "inference" in review and not r["inference"] else ""
        lines.append(f"  step {r['step']:>2}  {seat:<{ws}}  {r['kind']:<12} {str(r['did']):<{w}}  {verdict}{mark}")
    if "inference" in review and not review["inference"].all():
        lines.append(f"  * {NOT_NARROWED}")
    return "\n".join(lines)
