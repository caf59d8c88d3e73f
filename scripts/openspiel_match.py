"""A euchresim bot against OpenSpiel's own IS-MCTS (or uniform random), on duplicate deals, in OpenSpiel's euchre.

Each deal's chance outcomes (the dealer, the 20 cards, the upcard) are
drawn once from the seed and played twice, the partnerships swapped: our
bot at seats 0 and 2, then at 1 and 3. A deal's score is our side's
margin (points less the other side's, OpenSpiel's returns) averaged over
its two plays; the table gives the mean with its 95% interval from those
paired scores, and each side's time per decision. IS-MCTS runs in C++
(pyspiel.ISMCTSBot, random rollouts), and is not deterministic under a
fixed seed (OpenSpiel's own behaviour), so its figures repeat as
statistics, not to the digit; ours are fixed by the seed.

    python scripts/openspiel_match.py --policy heuristic --opponent ismcts:1000 --deals 400 --seed 1 --workers 2

Rules: OpenSpiel's euchre with stick-the-dealer off, as euchresim's
default (4 players, 24 cards, no lone defender).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np

GAME = ("euchre", {"stick_the_dealer": False, "allow_lone_defender": False})


def _opponent(game, spec: str, seat: int, seed: int):
    import pyspiel
    kind, _, arg = spec.partition(":")
    if kind == "ismcts":
        sims = int(arg or 1000)
        return pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed), 2.0, sims, -1,
                                 pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)
    if kind == "random":
        return pyspiel.make_uniform_random_bot(seat, seed)
    raise SystemExit(f"--opponent {spec}: ismcts[:SIMS] or random")


class _Timed:
    """A bot's step, timed."""

    def __init__(self, bot):
        self.bot, self.seconds, self.steps = bot, 0.0, 0

    def step(self, state):
        t = time.perf_counter()
        a = self.bot.step(state)
        self.seconds += time.perf_counter() - t
        self.steps += 1
        return a


def _play(game, chance, bots) -> list[float]:
    state = game.new_initial_state()
    for a in chance:
        state.apply_action(a)
    while not state.is_terminal():
        p = state.current_player()
        state.apply_action(bots[p].step(state))
    return state.returns()


def _chance(game, rng) -> list[int]:
    state = game.new_initial_state()
    out = []
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        a = int(rng.choice(actions, p=np.array(probs) / sum(probs)))
        state.apply_action(a)
        out.append(a)
    return out


def _deals(args):
    """Play deals [lo, hi): per deal our side's mean margin over the two seatings; the time spent."""
    policy, opponent, seed, lo, hi = args
    import pyspiel
    from euchresim.interop.openspiel import EuchresimBot
    game = pyspiel.load_game(*GAME)
    ours = [_Timed(EuchresimBot(game, s, policy, seed=seed * 1000 + s)) for s in range(4)]
    theirs = [_Timed(_opponent(game, opponent, s, seed * 1000 + 10 + s)) for s in range(4)]
    scores = []
    for k in range(lo, hi):
        chance = _chance(game, np.random.default_rng([seed, k]))
        a = _play(game, chance, [ours[0], theirs[1], ours[2], theirs[3]])
        for b in ours + theirs:
            if hasattr(b.bot, "restart"):
                b.bot.restart()
        b_ = _play(game, chance, [theirs[0], ours[1], theirs[2], ours[3]])
        for b in ours + theirs:
            if hasattr(b.bot, "restart"):
                b.bot.restart()
        scores.append((a[0] + b_[1]) / 2)
    return scores, sum(b.seconds for b in ours), sum(b.steps for b in ours), \
        sum(b.seconds for b in theirs), sum(b.steps for b in theirs)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--policy", default="heuristic", help="a euchresim policy, as --policy takes it")
    ap.add_argument("--opponent", default="ismcts:1000", help="ismcts:SIMS or random")
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    from euchresim.stats import mean_interval
    cuts = np.linspace(0, a.deals, a.workers + 1).astype(int)
    jobs = [(a.policy, a.opponent, a.seed, int(lo), int(hi)) for lo, hi in zip(cuts[:-1], cuts[1:]) if hi > lo]
    t = time.time()
    if len(jobs) == 1:
        parts = [_deals(jobs[0])]
    else:
        with ProcessPoolExecutor(len(jobs)) as pool:
            parts = list(pool.map(_deals, jobs))
    scores = [s for p in parts for s in p[0]]
    ours_s, ours_n, th_s, th_n = (sum(p[i] for p in parts) for i in range(1, 5))
    ci = mean_interval(np.array(scores))
    out = {"policy": a.policy, "opponent": a.opponent, "deals": a.deals, "seed": a.seed,
           "points_per_hand": ci["mean"], "ci95": [ci["low"], ci["high"]],
           "ms_per_decision": {"ours": 1000 * ours_s / max(ours_n, 1), "opponent": 1000 * th_s / max(th_n, 1)},
           "elapsed_s": round(time.time() - t, 1)}
    if a.json:
        print(json.dumps(out, indent=1))
    else:
        print(f"{a.policy} vs {a.opponent}: {ci['mean']:+.3f} points a hand (95% {ci['low']:+.3f} .. "
              f"{ci['high']:+.3f}), {a.deals} duplicate deals, seed {a.seed}; ms a decision: ours "
              f"{out['ms_per_decision']['ours']:.2f}, theirs {out['ms_per_decision']['opponent']:.2f}; "
              f"{out['elapsed_s']} s")


if __name__ == "__main__":
    sys.exit(main())
