"""The figures of docs/scaling.md: the local backend against a local Ray instance, and peak memory.

    python scripts/scaling_bench.py throughput --hands 20000000 --policy random --repeat 3
    python scripts/scaling_bench.py throughput --hands 10000000 --policy random --repeat 3 --out
    python scripts/scaling_bench.py cold --hands 20000000 --policy random --repeat 3
    python scripts/scaling_bench.py memory -- euchresim simulate --hands 100000000 --policy random -q --json

``throughput`` times ``runner.run`` on the same run (seed, hands, policy) for
the local backend and for Ray, at 1 and 2 workers, the four taking turns
``--repeat`` times, and keeps each one's best (other work on a shared
machine only ever slows a run down).  It is steady state, as ``euchresim
bench`` is: before each timed run the same configuration plays a warm-up
run, so that Ray's start-up, its workers' start-up and the kernels' loading
are not counted (``cold`` times them, end to end, as a user's first run
sees them).  ``--out`` writes the run's Parquet dataset too, to a temporary
folder removed after each run.  The Ray runs are made in a child process that starts a fresh
Ray instance for each and stops it after: the local backend forks its
workers, which is best not done from a process that runs Ray's threads, and
an idle Ray instance would otherwise sit beside the local runs.

``memory`` runs a command and samples, every 20 ms, the resident memory
of it and all its descendants (the workers): the peak of their sum of RSS
and of PSS (which shares a forked worker's pages with its parent fairly
rather than counting them twice), and the command's wall time.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import subprocess
import sys
import tempfile
import time

from euchresim.policies import seats
from euchresim.run import runner
from euchresim.rules import FOUR_HAND

CONFIGS = [("local", 1), ("local", 2), ("ray", 1), ("ray", 2)]


def _spec(hands, policy, seed):
    return runner.RunSpec(rules=FOUR_HAND, policies=seats([policy], 4), seed=seed, count=hands)


def _timed(backend, workers, spec, warm, out=False):
    with tempfile.TemporaryDirectory() as d:
        def outputs(name):
            return runner.Outputs(parquet=os.path.join(d, name)) if out else None
        runner.run(warm, workers=workers, backend=backend, outputs=outputs("warm.parquet"))
        t = time.perf_counter()
        counts = runner.run(spec, workers=workers, backend=backend, outputs=outputs("run.parquet"))
        return time.perf_counter() - t, counts["hands"]


def _ray_child(conn):
    """Plays what the parent asks on a fresh local Ray instance each time."""
    import ray
    while True:
        item = conn.recv()
        if item is None:
            return
        try:
            conn.send(_timed("ray", *item))
        finally:
            ray.shutdown()


def throughput(args):
    spec = _spec(args.hands, args.policy, args.seed)
    ctx = mp.get_context("spawn")
    parent, child = ctx.Pipe()
    proc = ctx.Process(target=_ray_child, args=(child,))
    proc.start()
    best = {c: 0.0 for c in CONFIGS}
    try:
        for r in range(args.repeat):
            for backend, workers in CONFIGS:
                # warm-up: 48 chunks a worker, so that every worker has started and loaded its kernels
                warm = runner.RunSpec(rules=FOUR_HAND, policies=seats([args.policy], 4), seed=args.seed + 1,
                                   count=48 * workers * spec.chunk_size)
                if backend == "ray":
                    parent.send((workers, spec, warm, args.out))
                    secs, hands = parent.recv()
                else:
                    secs, hands = _timed("local", workers, spec, warm, args.out)
                rate = hands / secs
                best[(backend, workers)] = max(best[(backend, workers)], rate)
                print(f"repeat {r + 1}: {backend} {workers} worker(s): {secs:.2f} s, {rate:,.0f} hands/s",
                      file=sys.stderr, flush=True)
    finally:
        parent.send(None)
        proc.join()
    out = {f"{b}_{w}": round(v) for (b, w), v in best.items()}
    out.update(local_2_over_1=round(best["local", 2] / best["local", 1], 3),
               ray_1_over_local_1=round(best["ray", 1] / best["local", 1], 3),
               ray_2_over_local_2=round(best["ray", 2] / best["local", 2], 3),
               ray_2_over_1=round(best["ray", 2] / best["ray", 1], 3),
               hands=spec.count, policy=args.policy, chunks=spec.n_chunks, repeat=args.repeat, out=args.out)
    print(json.dumps(out))


def cold(args):
    """End to end, as a user runs it: a fresh process each, Ray's start-up and the kernels' loading included."""
    out = {}
    for r in range(args.repeat):
        for backend, workers in CONFIGS:
            cmd = [sys.executable, "-m", "euchresim.cli", "simulate", "--hands", str(args.hands), "--policy",
                   args.policy, "--seed", str(args.seed), "--workers", str(workers), "--backend", backend,
                   "--json", "-q"]
            t = time.perf_counter()
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            secs = time.perf_counter() - t
            key = f"{backend}_{workers}_seconds"
            out[key] = round(min(out.get(key, secs), secs), 2)
            print(f"repeat {r + 1}: {backend} {workers} worker(s): {secs:.2f} s", file=sys.stderr, flush=True)
    print(json.dumps(dict(out, hands=args.hands, policy=args.policy)))


def _tree(root):
    """root and every process below it."""
    children = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(name))
    found, todo = [], [root]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(children.get(p, ()))
    return found


def _rss_pss(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as fh:
            fields = {line.split(":")[0]: int(line.split()[1]) for line in fh if line.split()[-1] == "kB"}
        return fields.get("Rss", 0), fields.get("Pss", 0)
    except (OSError, ValueError, IndexError):
        return 0, 0


def memory(args):
    t = time.perf_counter()
    proc = subprocess.Popen(args.command, stdout=subprocess.DEVNULL)
    peak_rss = peak_pss = most = 0
    while proc.poll() is None:
        pids = _tree(proc.pid)
        sizes = [_rss_pss(p) for p in pids]
        peak_rss = max(peak_rss, sum(r for r, _ in sizes))
        peak_pss = max(peak_pss, sum(p for _, p in sizes))
        most = max(most, len(pids))
        time.sleep(0.02)
    secs = time.perf_counter() - t
    if proc.returncode:
        sys.exit(f"the command exited {proc.returncode}")
    print(json.dumps({"command": " ".join(args.command), "seconds": round(secs, 2), "processes": most,
                      "peak_rss_mib": round(peak_rss / 1024, 1), "peak_pss_mib": round(peak_pss / 1024, 1)}))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="what", required=True)
    for name in ("throughput", "cold"):
        s = sub.add_parser(name)
        s.add_argument("--hands", type=int, default=20_000_000)
        s.add_argument("--policy", default="random")
        s.add_argument("--seed", type=int, default=1)
        s.add_argument("--repeat", type=int, default=3)
        if name == "throughput":
            s.add_argument("--out", action="store_true", help="write the Parquet dataset too")
    m = sub.add_parser("memory")
    m.add_argument("command", nargs="+")
    args = p.parse_args()
    {"throughput": throughput, "cold": cold, "memory": memory}[args.what](args)


if __name__ == "__main__":
    main()
