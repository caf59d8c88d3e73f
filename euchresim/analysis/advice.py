"""The advisor's table: per option, the points and P(win the game), each with its 95% interval.

``studies.advise`` plays every option on the same sampled deals; here
those paired arrays become what a player reads.  Points are the hand's
**net** points (the seat's side less the other side's, as the reports
count them; 3 and 2 players: less the mean of the others) and, beside
them, the seat's side's own points.  P(win) is the seat's side's chance
of winning the game once this hand is scored at ``score``, the rest of the
game played by the same policy: the win-probability model of
``analysis.winprob`` (a dynamic program over that policy's per-hand
outcomes, measured on ``model_hands`` hands).  The intervals are over the
advisor's sampled deals, the model taken as given (docs/advise.md).

The recommended option has the best mean net points; how sure it is, is
the paired difference to the next best with its interval.
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

from euchresim.analysis.winprob import _winners, outcome_distribution, parties, solve
from euchresim.policies import cheats
from euchresim.stats import Z95, mean_interval

MODEL_HANDS = 20_000


@functools.lru_cache(maxsize=8)
def win_model(rules, policy: str, hands: int = MODEL_HANDS, seed: int = 0) -> np.ndarray:
    """P(win) by score and dealer (``winprob.solve``) under ``policy`` at every seat, from ``hands`` hands.

    Kept on disk beside the compiled kernels (engine.cache_dir, whose name
    changes with the kernels' source, so a changed policy never finds an
    old model): ``pimc``'s 2,000 hands take seconds, and every ``advise``
    is a new process.  Written under a temporary name and renamed.
    """
    path = _model_path(rules, policy, hands, seed)
    try:
        V = np.load(path, allow_pickle=False)
        if V.shape == (rules.game_to,) * parties(rules.players) + (rules.players, parties(rules.players)):
            return V
    except (OSError, ValueError):
        pass
    from euchresim.run.runner import RunSpec, play_chunk
    spec = RunSpec(rules, (policy,), seed=seed, count=hands)
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


def _model_path(rules, policy: str, hands: int, seed: int) -> str:
    from euchresim.engine import cache_dir
    from euchresim.policies import resolve
    _, _, names = resolve([policy], rules.players)
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
            w = _winners(after, mk, players, target, tie)
            d = dealer if (redeal is not None and redeal) else nxt
            v = float(w[party]) if w.any() else float(V[tuple(after) + (d, party)])
            cache[key] = v
        res[i] = v
    return out


def advice_table(adv, model: np.ndarray | None = None, z: float = Z95) -> pd.DataFrame:
    """One row per option: net and own points, P(win), each with its interval; the policy's own share."""
    from euchresim.studies.advise import net_points
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
    if len(df):
        best = int(df["points"].idxmax())
        df["best"] = False
        df.loc[best, "best"] = True
        gaps = []
        for k in range(len(df)):
            g = mean_interval(net[:, best] - net[:, k], z)
            gaps.append((g["mean"], g["low"], g["high"]))
        df["gap"], df["gap_low"], df["gap_high"] = zip(*gaps)
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


def advice_json(adv, table: pd.DataFrame) -> dict:
    """The advisor's answer as JSON (docs/advise.md): recommended, stopped, samples, and the options."""
    s = adv.samples
    best = table.loc[table["best"]].iloc[0] if len(table) else None
    rest = table.loc[~table["best"]].sort_values("gap") if len(table) else table
    sure = None
    if best is not None and len(rest):
        r = rest.iloc[0]
        sure = {"next_best": r["action"], "gap": r["gap"], "gap_ci": [r["gap_low"], r["gap_high"]]}
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
    return {"recommended": None if best is None else best["action"], "confidence": sure,
            "decision": adv.decision.kind, "seat": sit.seat, "dealer": sit.dealer, "policy": adv.policy,
            # dd sees every hand: its values bound what any fair player could get, and say so
            "cheating": cheats(adv.policy),
            "stopped": adv.stopped, "alpha": adv.alpha, "samples": int(len(s)), "effective_samples": int(len(s)),
            "tries": int(s.tries), "inference": adv.infer, "seed": adv.seed, "actions": actions}


def _f(x, d=2, signed=True):
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:+.{d}f}" if signed else f"{x:.{d}f}"


def format_advice(adv, table: pd.DataFrame) -> str:
    """The table as a player reads it: best first, intervals in brackets, a line on how sure."""
    s = adv.samples
    lines = []
    order = table.sort_values("points", ascending=False)
    w = max(len("action"), *(len(a) for a in table["action"]))
    has_win = "win_probability" in table
    head = f"{'action':<{w}}  {'points':>7}  {'95% interval':>15}  {'own':>6}"
    if has_win:
        head += f"  {'P(win)':>6}  {'95% interval':>13}  {'change':>6}"
    head += f"  {'bot':>4}"
    lines.append(head)
    for _, r in order.iterrows():
        line = (f"{r['action']:<{w}}  {_f(r['points']):>7}  "
                f"{'[' + _f(r['points_low']) + ', ' + _f(r['points_high']) + ']':>15}  {_f(r['own_points']):>6}")
        if has_win:
            line += (f"  {r['win_probability']:>6.1%}  "
                     f"{'[' + format(r['win_probability_low'], '.1%') + ', ' + format(r['win_probability_high'], '.1%') + ']':>13}"
                     f"  {100 * r['win_change']:>+6.1f}")
        line += f"  {r['policy_share']:>4.0%}"
        lines.append(line)
    best = order.iloc[0]
    lines.append("")
    if len(order) > 1:
        nxt = order.iloc[1]
        lines.append(f"best: {best['action']}, by {_f(nxt['gap'])} points "
                     f"a hand over {nxt['action']} [{_f(nxt['gap_low'])}, {_f(nxt['gap_high'])}]")
    else:
        lines.append(f"best: {best['action']} (the only option)")
    how = ("stopped when the best stood apart (error at most "
           f"{adv.alpha:.0%})" if adv.stopped == "separated" else "stopped at the sample limit: the best is not yet "
           f"separated from the rest at {adv.alpha:.0%} error")
    lines.append(f"{len(s):,} deals the seat cannot tell apart ({s.tries:,} tried), {adv.policy} after the decision; "
                 + how)
    if cheats(adv.policy):
        lines.append("dd sees every card: its values are a cheating bound, not a fair player's")
    return "\n".join(lines)


def review_hand(rec, policy: str = "heuristic", samples: int = 2000, seed: int = 0, infer: bool = True,
                alpha: float = 0.05) -> pd.DataFrame:
    """Each decision of a played hand, judged from its seat's knowledge then: what it did, the best, the cost.

    One row per decision with more than one option (studies.show.decisions):
    ``did`` and ``best`` (the advisor's labels), ``gave_up`` = the best's
    net points less those of what was done, paired on the same deals, with
    its interval (0 when the seat took the best).  The question a player
    brings from a game: which of my decisions cost us this hand?
    """
    from euchresim.studies import advise as A
    from euchresim.studies.show import decisions
    steps = decisions(rec)
    rows = []
    for i, d in enumerate(steps):
        sit = A.from_record(rec, calls=d["calls"], plays=d["plays"], decision=d["kind"])
        dec = A.decision_of(sit)
        if len(dec.options) < 2:
            continue
        nxt = steps[i + 1] if i + 1 < len(steps) else None
        alone = nxt["code"] if (nxt and nxt["kind"] == "alone" and nxt["seat"] == d["seat"]) else -1
        did = [k for k, (a, b) in enumerate(dec.options.tolist()) if a == d["code"] and (b < 0 or b == alone)]
        adv = A.advise(sit, policy, samples=samples, seed=seed, infer=infer, alpha=alpha)
        table = advice_table(adv)          # the best, and each option's paired gap to it, as advise shows them
        best = table.loc[table["best"]].iloc[0]
        got = table.iloc[did[0]] if did else None
        rows.append({"step": d["step"], "seat": d["seat"], "kind": d["kind"],
                     "did": d["action"] if got is None else got["action"], "best": best["action"],
                     "gave_up": math.nan if got is None else got["gap"],
                     "gave_up_low": math.nan if got is None else got["gap_low"],
                     "gave_up_high": math.nan if got is None else got["gap_high"],
                     "samples": len(adv.samples), "stopped": adv.stopped})
    return pd.DataFrame(rows)


def format_review(review: pd.DataFrame, policy: str) -> str:
    """One line per decision; the costly ones marked, with their interval."""
    if not len(review):
        return "no decision in this hand had more than one option"
    lines = [f"each decision from its seat's view ({policy} after it; net points given up against the best, 95% "
             "interval):"]
    w = max(len(str(x)) for x in review["did"])
    for _, r in review.iterrows():
        cost = r["gave_up"]
        if r["did"] == r["best"] or cost == 0:
            verdict = "best"
        else:
            sure = "" if r["gave_up_low"] > 0 else " (not clearly worse)"
            verdict = (f"best {r['best']}: gave up {cost:.2f} [{r['gave_up_low']:+.2f}, {r['gave_up_high']:+.2f}]"
                       f"{sure}")
        lines.append(f"  step {r['step']:>2}  seat {r['seat']}  {r['kind']:<12} {str(r['did']):<{w}}  {verdict}")
    return "\n".join(lines)
