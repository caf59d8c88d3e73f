"""Shared by the order-up and loner reports: the counterfactual chunks they ask for, and a gain in words.

The work is paired counterfactuals (``euchresim.studies.counterfactual``): every
deal is played once per option of a decision, the same policies for the
rest.  A deal's *gain* of an option is the net points of the hand (the
deciding seat's side less the other side; in Cutthroat the seat less the
mean of the other two) with the option forced, less the same with the
alternative forced.  What the gains say (hand classes, tables, the fitted
count) is computed in ``euchresim.analysis.call_stats``.
"""
from __future__ import annotations

from functools import partial

import numpy as np

from euchresim.report import chunked, spec_key

# ---- the simulated work -----------------------------------------------------

def plan(n: int, chunk_size: int, table_cost=None) -> tuple[int, int]:
    """(chunk size, chunks) for n deals: at least 4 chunks (the fit uses even, the check odd), a search bot's small."""
    from euchresim.run.runner import chunk_size as rule
    size = rule("hands", n, hands=chunk_size, parts=4, cost=table_cost)
    return size, -(-n // size)


def decision_job(rules, policy, seed: int, count: int, chunk_size: int, decision: str,
                 position, with_trump: bool, i: int, classes=None) -> dict:
    """One chunk of counterfactuals as plain arrays (reached deals only), for ``report.chunked``.

    Targeted (``classes``), the chunk also gives the deals it dealt and
    skipped and its kept deals by class (``class_kept``, in
    ``engine.classes.CLASS_NAMES`` order, reached or not), from which each
    class's share of all deals is known.  ``policy``: the model's ``Seats``
    (a worker gets its canonical names and rebuilds it once).
    """
    from euchresim.studies.counterfactual import play_chunk
    from euchresim.run.runner import RunSpec
    spec = RunSpec(rules=rules, policies=policy, seed=seed, count=count, chunk_size=chunk_size)
    res = play_chunk(spec, i, decision, position, classes)
    r = res.reached
    players = rules.players
    seat = np.maximum(res.seat, 0)
    pts = res.points.astype(np.float64)                       # n x 6 x seats
    own = pts[np.arange(len(seat)), :, seat]
    if players == 4:
        other = pts[np.arange(len(seat)), :, (seat + 1) % 4]
    else:
        other = (pts[:, :, :players].sum(axis=2) - own) / (players - 1)
    out = {"chunk": res.chunk[r], "index": res.index[r], "dealer": res.dealer[r], "hands": res.hands[r],
           "upcard": res.upcard[r], "seat": res.seat[r], "pos": res.pos[r], "n_options": res.n_options[r],
           "options": res.options[r], "chosen": res.chosen[r], "chosen_k": res.chosen_k[r],
           "net": (own - other)[r], "value": res.value[r], "maker_tricks": res.maker_tricks[r]}
    if with_trump:          # as the kernel saw it at the decision: a targeted run's deals are not the ordinary run's
        out["trump"] = res.trump[r]
        out["make_round"] = res.make_round[r]
        out["maker"] = res.maker[np.arange(len(r)), np.maximum(res.chosen_k, 0)][r]
    if classes:
        from euchresim.engine.classes import CLASS_NAMES
        held = res.hand_classes()
        out.update(dealt=res.dealt, skipped=res.skipped,
                   class_kept=np.array([(held == c).sum() for c in CLASS_NAMES], np.int64))
    return out


def collect(ctx, k: int, decision: str, position, label: str, rules=None, with_trump: bool = False,
            classes=None, count: int | None = None) -> dict:
    """The k-th play model's counterfactuals of one decision, every chunk joined (kept, resumable).

    ``classes`` targets the deals (``studies.counterfactual``): ``count`` deals
    kept whose seat at ``position`` holds one of them; the classes are in the
    work's key, so targeted and untargeted work never share a folder.
    """
    rules = rules or ctx.rules
    policy = ctx.policies[k]
    n = ctx.hands_for(k) if count is None else count
    size, n_chunks = plan(n, ctx.chunk_size, ctx.models[k].cost)
    spec = {"rules": rules.to_dict(), "policy": policy, "seed": ctx.seed, "count": n, "chunk_size": size,
            "decision": decision, "position": position, "with_trump": with_trump}
    if classes:
        spec["classes"] = list(classes)
    key = f"{decision}-{'any' if position is None else position}-{spec_key(spec)}"
    job = partial(decision_job, rules, ctx.models[k].for_players(rules.players), ctx.seed, n, size, decision, position,
                  with_trump)
    if classes:
        job = partial(job, classes=tuple(classes))
    parts = chunked(ctx, key, spec, n_chunks, job, label=f"{label} · {policy}")
    return {f: np.concatenate([p[f] for p in parts]) for f in parts[0]}


# ---- in words -----------------------------------------------------------------

def chose_note(policies, models, column: str = "policy_chose") -> list[str]:
    """What a cheat's own-choice column is: its rollouts play the later calls as heuristic, the counterfactuals as itself.

    ``models``: each of ``policies`` as read (``ReportContext.models``, a
    ``policies.Seats`` each), which says whether it cheats.  Empty when no
    play model is a cheat, so a report of fair bots says nothing of it.
    """
    named = [str(p) for p, m in zip(policies, models) if m.cheats]
    if not named:
        return []
    return [f"For {', '.join(named)} (sees every hand) `{column}` and \"its own call\" are the calls it made "
            "on the true deal by rolling each option out with every later call, its own included, made as "
            "heuristic would and the cards solved; the paired gains play those later calls as "
            f"{named[0]} itself. So they are not the calls that maximise the gains shown: read them as a "
            "one-step look-ahead over heuristic, not as the cheat's best call (with `search_bids=0` they "
            "are heuristic's own calls).\n"]


# below this many hands a mean's normal interval is not trusted (the skew of a hand's points, -4 to +4): the
# reports print the value and the count, never an interval
MIN_INTERVAL_HANDS = 30


def fmt_gain(r, policy: str) -> str:
    """A table row's gain as prose: "+0.41 points a hand (±0.02, 12,345 hands, heuristic)"."""
    half = (r["ci_high"] - r["ci_low"]) / 2
    n = int(r["n"])
    if n < 2 or half != half:                      # one hand: a value, but no interval to give
        return f"{r['gain']:+.2f} points a hand (one hand only, {policy})" if n == 1 else f"no hands ({policy})"
    if n < MIN_INTERVAL_HANDS:                     # a normal interval on a handful of hands is no interval
        return f"{r['gain']:+.2f} points a hand ({n} hands, too few for an interval, {policy})"
    if half < 0.01:                                # two digits that say something, not ±0.00
        return f"{r['gain']:+.3f} points a hand (±{half:.3f}, {n:,} hands, {policy})"
    return f"{r['gain']:+.2f} points a hand (±{half:.2f}, {n:,} hands, {policy})"
