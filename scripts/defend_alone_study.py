"""The measurement behind baseline's defend-alone rule (docs/policies.md, "Defend alone").

The same deals are played with the rule's threshold set to each value and
with defending alone switched off (threshold 99); baseline draws no random
numbers, so the hands differ only where a defender went alone, and the
per-hand difference in (a defender's points - the maker's points) is the
rule's paired gain for the defenders.

    python scripts/defend_alone_study.py            # about a minute on one core
"""
import numpy as np

from euchresim.run import runner
from euchresim.policies import POLICIES, seats
from euchresim.policies.builtin import B_DEFEND, B_DEFEND_CUTTHROAT
from euchresim.rules import Rules

SEED, CHUNKS = 5, 8


def defenders_margin(rules, slot, threshold):
    base = POLICIES["baseline"].defaults
    saved = base[slot]
    base[slot] = threshold
    try:
        spec = runner.RunSpec(rules=rules, policies=seats(["baseline"], rules.players), seed=SEED, count=CHUNKS * runner.DEFAULT_CHUNK["hands"])
        h = np.concatenate([runner.play_chunk(spec, c).hands.copy() for c in range(CHUNKS)])
    finally:
        base[slot] = saved
    P = rules.players
    made = h["maker"] >= 0
    maker = np.where(made, h["maker"], 0).astype(np.int64)
    idx = np.arange(len(h))
    pts = np.stack([h[f"points{s}"] for s in range(P)]).astype(np.int64)
    return (pts[(maker + 1) % P, idx] - pts[maker, idx]) * made, int(h["defender_alone"].sum())


for rules, slot in ((Rules(players=4, defend_alone=True), B_DEFEND), (Rules(players=3), B_DEFEND_CUTTHROAT)):
    off, _ = defenders_margin(rules, slot, 99.0)
    for threshold in (1.0, 2.0, 3.0):
        on, n = defenders_margin(rules, slot, threshold)
        d = on - off
        print(f"{rules.players} players, {threshold:.0f}+ trumps with a top one: {n} lone defenders in {len(d)} hands, "
              f"defenders' gain {d.mean():+.6f} ± {1.96 * d.std(ddof=1) / np.sqrt(len(d)):.6f} a hand"
              + (f", {d.sum() / n:+.4f} a lone defence" if n else ""))
