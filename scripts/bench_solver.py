"""Speed of the double-dummy solver: whole deals solved from the opening lead.

Deals are played by the ``baseline`` policy, so trump is what a plausible
bidder made (thrown-in hands are skipped); each is rebuilt as it stood at
the opening lead (docs/schema.md: a dealer who took the upcard holds hand
+ upcard - discard, a Cutthroat maker the dummy keep) and solved on one
core.  A Python call per deal would cost more than the solve, so each
deal is timed inside one jitted loop by the CPU's cycle counter, scaled to
microseconds by the wall clock of the whole batch.  Solve times are
heavy-tailed: the report gives the mean, the median, the 99th percentile
and the worst, each deal's time the best of ``--repeat`` runs (a shared
machine only ever slows a run down), and the plain wall-clock mean.

    python scripts/bench_solver.py                       # 20,000 4-hand 24-card deals, exact count
    python scripts/bench_solver.py --mode cards --deals 5000 --compile --json
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

from euchresim.engine import layout as L
from euchresim.engine import solver as S
from euchresim.studies.solve import opening_positions as first_lead_positions

MODES = {"exact": S.MODE_EXACT, "class": S.MODE_CLASS, "cards": S.MODE_EXACT | S.MODE_CARDS,
         "class-cards": S.MODE_CLASS | S.MODE_CARDS}


@intrinsic
def cycles(typingctx):
    """The CPU's cycle counter (``rdtsc`` on x86-64): constant-rate ticks, cheap to read."""
    sig = types.int64()

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.readcyclecounter",
                                              fnty=ir.FunctionType(ir.IntType(64), []))
        return builder.call(fn, [])

    return sig, codegen


@njit   # not cached: a cached caller keeps its own copy of the solver and would not see an edit
def timed_batch(ws, tab, pos, res, mode, ticks):
    for i in range(pos.shape[0]):
        t0 = cycles()
        S.solve_position(ws, tab, pos[i], res[i], mode)
        ticks[i] = cycles() - t0


COMPILE_SCRIPT = """
import time
t = time.perf_counter()
import numpy as np
from euchresim.rules import FOUR_HAND
from euchresim.engine.tables import build_tables
from euchresim.engine import layout as L
from euchresim.engine import solver as S
pos = np.zeros((1, L.POS_SIZE), np.int64)
pos[0, L.P_HAND:L.P_HAND + 4] = [0xFC, 0xFC00, 0xFC0000, 0xFC000000]
pos[0, L.P_MAKERS] = 5
res = np.zeros((1, L.RES_SIZE), np.int64)
for mode in (S.MODE_EXACT, S.MODE_CLASS | S.MODE_CARDS):
    S.solve_batch(S.new_workspace(), build_tables(FOUR_HAND), pos, res, np.int64(mode))
print(time.perf_counter() - t)
"""


def compile_times():
    """Seconds to import the solver and solve once: with an empty numba cache, then from it."""
    out = []
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, NUMBA_CACHE_DIR=d)
        for _ in range(2):
            r = subprocess.run([sys.executable, "-c", COMPILE_SCRIPT], env=env, capture_output=True,
                               text=True, check=True)
            out.append(float(r.stdout.strip().splitlines()[-1]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--players", type=int, default=4, choices=[2, 3, 4])
    ap.add_argument("--deck", type=int, default=24, choices=[24, 25, 32, 33])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--mode", default="exact", choices=list(MODES),
                    help="exact count, outcome class only, and/or each legal opening card's value")
    ap.add_argument("--compile", action="store_true", help="also time a cold and a cached start")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    from euchresim.rules import Rules
    from euchresim.engine.tables import build_tables
    rules = Rules(players=a.players, deck=a.deck)
    mode = np.int64(MODES[a.mode])
    tab = build_tables(rules)
    pos = first_lead_positions(rules, a.deals, a.seed)
    res = np.zeros((len(pos), L.RES_SIZE), np.int64)
    ticks = np.zeros(len(pos), np.int64)
    ws = S.new_workspace()
    timed_batch(ws, tab, pos[:10], res[:10], mode, ticks[:10])   # compile, outside the clock
    walls, per_run = [], []
    for _ in range(a.repeat):
        t = time.perf_counter()
        timed_batch(ws, tab, pos, res, mode, ticks)
        wall = time.perf_counter() - t
        walls.append(wall / len(pos) * 1e6)
        per_run.append(ticks * (wall * 1e6 / ticks.sum()))
    per_deal = np.min(np.stack(per_run), axis=0)      # each deal's best run
    out = {"players": a.players, "deck": a.deck, "deals": len(pos), "mode": a.mode,
           "mean_us": round(float(per_deal.mean()), 2),
           "median_us": round(float(np.median(per_deal)), 2),
           "p99_us": round(float(np.percentile(per_deal, 99)), 1),
           "worst_us": round(float(per_deal.max()), 1),
           "wall_mean_us_per_run": [round(w, 2) for w in walls],
           "mean_nodes": round(float(res[:, L.R_NODES].mean()), 1),
           "worst_nodes": int(res[:, L.R_NODES].max()),
           "values": np.bincount(res[:, L.R_VALUE], minlength=3 if "class" in a.mode else 6).tolist(),
           "load_1min": round(os.getloadavg()[0], 2)}
    if a.compile:
        out["compile_cold_s"], out["compile_cached_s"] = (round(x, 2) for x in compile_times())
    print(json.dumps(out) if a.json else "\n".join(f"{k}: {v}" for k, v in out.items()))


if __name__ == "__main__":
    main()
