"""Two checkouts' speed compared in one sitting: hands a CPU second of the jitted loop, and the advisor's seconds.

    python scripts/compare_trees.py BEFORE AFTER --rounds 6

BEFORE and AFTER are two checkouts (``git worktree add /tmp/before REV``).
Each measurement is a fresh process with its tree first on ``PYTHONPATH``,
the trees taking turns, so that a slow spell of a shared machine falls on
both alike.  Time is the process's CPU time (``time.process_time``), not
the wall clock: on a machine shared with other work the wall clock of one
tree's runs moved by a factor of two within minutes, the CPU time by about
1% (docs/benchmarks.md).  One worker, kernels loaded before any timing
(each tree compiles into its own numba cache folder under ``--cache``).
Prints one JSON line a measurement and, at the end, each figure's best
run per tree and their ratio (AFTER over BEFORE: above 1 is faster for
hands a second, slower for the advisor's seconds).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

# (players, deck, policy) of the hands-a-second figures
LOOPS = ((4, 24, "heuristic"), (3, 24, "heuristic"), (4, 25, "baseline"), (4, 24, "random"))


def measure(hands: int, advise_samples: int) -> dict:
    """One process's figures, in the tree it imported: {figure: hands a CPU second, or CPU seconds}."""
    import time

    import euchresim.studies.benchmark as B
    from euchresim.rules import Rules
    from euchresim.run import runner
    try:
        from euchresim.policies import seats          # a tree whose RunSpec takes a Seats only
    except ImportError:                               # a tree older than the Seats value: a name's tuple
        def seats(names, players):
            return tuple(names)
    out = {}
    for players, deck, policy in LOOPS:
        rules = Rules(players=players, deck=deck)
        chunk = max(1000, hands // 4)
        runner.run(runner.RunSpec(rules=rules, policies=seats([policy], rules.players), count=chunk, chunk_size=chunk, seed=1), workers=1)
        spec = runner.RunSpec(rules=rules, policies=seats([policy], rules.players), count=4 * chunk, chunk_size=chunk, seed=2)
        best = float("inf")
        for _ in range(3):
            t = time.process_time()
            runner.run(spec, workers=1)
            best = min(best, time.process_time() - t)
        out[f"{players}p{deck} {policy}"] = spec.count / best
    if advise_samples:
        # measure_advise reads time.perf_counter; the tree measured may be an older one, with no clock to hand
        # in, so the clock is swapped in this child process (which ends after it): CPU seconds, one worker
        B.time.perf_counter = time.process_time
        for row in B.measure_advise(advise_samples, repeat=3):
            if row["workers"] == 1:
                out[row["measure"]] = row["seconds"]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--rounds", type=int, default=6, help="measurements of each tree, taking turns")
    ap.add_argument("--hands", type=int, default=200_000, help="hands a figure of the loop")
    ap.add_argument("--advise-samples", type=int, default=4000, help="the advisor's figures' deals (0: none)")
    ap.add_argument("--cache", default=None, help="numba's cache folder for both trees [default: a temporary one]")
    ap.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)     # the child's side
    args = ap.parse_args(argv)
    if args.measure:
        print(json.dumps(measure(args.hands, args.advise_samples)))
        return
    import tempfile
    cache = args.cache or tempfile.mkdtemp(prefix="compare-trees-")
    trees = {"before": os.path.abspath(args.before), "after": os.path.abspath(args.after)}
    got = {"before": [], "after": []}
    for r in range(args.rounds):
        for name, tree in trees.items():
            env = dict(os.environ, PYTHONPATH=tree, XDG_CACHE_HOME=cache)
            env.pop("NUMBA_CACHE_DIR", None)
            p = subprocess.run([sys.executable, os.path.abspath(__file__), tree, tree, "--measure",
                                "--hands", str(args.hands), "--advise-samples", str(args.advise_samples)],
                               cwd=tree, env=env, capture_output=True, text=True)
            if p.returncode:
                sys.exit(f"{tree}: the measurement failed: {p.stderr.strip().splitlines()[-1:]}")
            figures = json.loads(p.stdout.strip().splitlines()[-1])
            got[name].append(figures)
            print(json.dumps({"round": r + 1, "tree": name, "figures": figures}), flush=True)
    print(summary(got))


def summary(got: dict) -> str:
    """Each figure's best run per tree and the ratio, as a Markdown table."""
    lines = ["| figure | before, best | after, best | after / before |", "|---|---|---|---|"]
    for k in got["before"][0]:
        rate = not k.startswith("advise")
        pick = max if rate else min
        b, a = pick(f[k] for f in got["before"]), pick(f[k] for f in got["after"])
        unit = "{:,.0f} hands/s" if rate else "{:.3f} s"
        lines.append(f"| {k} | {unit.format(b)} | {unit.format(a)} | {a / b:.3f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
