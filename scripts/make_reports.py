"""Regenerate every committed report under reports/ (one command: ``python scripts/make_reports.py``).

Each report states in its README and meta.json the command, seed, hand
counts, policies and versions that made it, how long it took and on what
machine (meta.json's ``machine``; the script prints both as each report ends).  The
counts below are what the committed set was made with on the 2-core dev
machine, each with what it cost there (``COST``, the committed meta.json's run
time summed over its sittings; ``--costs`` prints them from meta.json without
running anything); ``--scale 0.1`` makes a quick, smaller set (not to be committed).
"""
from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (folder under reports/, arguments after `euchresim report`)
REPORTS = [
    # best's headline cells (round one, a bower and two or three trumps), each seat and class until 7,000 deals
    # reach the call: ±0.048 at the largest gain SD the report of 2026-12-05 measured (2.03, the dealer's 2T R),
    # some 107,000 kept deals in all, where one stream of 55,000 a seat (220,000) gave the left's 2T R 32,356.
    # The committed report was made so over 3 sittings, its kept work carried in git between them (docs/reports.md):
    # every cell ±0.05 or less on 7,340-7,561 reached deals
    ("order-up", ["order-up", "--hands", "20000", "--policy", "best", "--policy", "heuristic",
                  "--policy", "heuristic:human", "--policy", "dd", "--model-hands", "400000", "--model-hands", "400000",
                  "--model-hands", "40000", "--classes", "2T R,3T L,3T R", "--class-reached", "7000"]),
    # best's headline cells (a maker in round one with 4+T RL, 4+T R, 3T RL), each seat and class until 4,500 of
    # its deals made trump in round one: ±0.046 at the largest gain SD the committed report measured (1.57, the
    # right's 3T RL), some 76,000 kept deals in all (its 8,000 a seat of one stream left the left's 4+T RL at 664
    # hands, ±0.09); the defenders on 240,000 hands: a defender in round two is reached on 914 of 40,000 (best),
    # ±0.05 at 5,500 with a gain SD of 1.7. The committed report was made so over 3 sittings, its kept work carried
    # in git between them: every cell ±0.04 or less on 4,677-4,815 hands, 75,501 kept deals a stream
    ("loner", ["loner", "--defend-alone", "--hands", "40000", "--policy", "best", "--policy", "heuristic",
               "--policy", "heuristic:human", "--policy", "dd", "--model-hands", "400000", "--model-hands", "400000",
               "--model-hands", "40000", "--classes", "4+T RL,4+T R,3T RL", "--class-reached", "4500",
               "--defend-hands", "240000"]),
    ("euchre-rates", ["euchre-rates", "--hands", "2000000"]),
    ("decks", ["decks", "--hands", "400000", "--policy", "heuristic", "--policy", "best", "--model-hands", "4500"]),
    # under the main model, as every report (the score changing the call is best's answer): 20,000 hands of best
    # for the outcome distribution, 2,000 games to check it, and each order-or-pass class on targeted deals until
    # 7,000 reach the call: ±0.05 at the largest gain SD the committed report measured (2.13, the dealer's two
    # trumps with a bower, 2,314 deals and ±0.087 from 20,000 untargeted deals a seat), some 40,000 kept deals
    # (doubled by the measure again) where the untargeted run played 40,000 for 1,651-4,398 a class. The committed
    # report was made so over 2 sittings, its kept work carried in git between them: every class on 7,350-7,552
    # reached deals, ±0.05 or less; the dealer's two trumps with a bower, whose first measure and measure again
    # differed (z +3.1), measured on two further streams and pooled over all four (30,020 deals, ±0.024)
    ("win-probability", ["win-probability", "--policy", "best", "--hands", "20000", "--class-reached", "7000"]),
]


# what each committed report cost on the 2-core machine its meta.json names (2 workers): seconds of run time summed
# over its sittings, as its meta.json records (tests/test_report_cli.py keeps the two the same)
COST = {
    "order-up": (13372, 5),            # 3.7 hours over 5 sittings (the third a 35 s rebuild; the fourth, 10 minutes,
                                       # replayed the second's last chunks, whose kept work was not carried, and rebuilt;
                                       # the fifth a 103 s rebuild beside the test suite)
    "loner": (7946, 4),                # 2.2 hours over 4 sittings (the third and fourth rebuilds of 13 and 38 s)
    "euchre-rates": (16, 1),
    "decks": (1720, 1),                # 29 minutes
    "win-probability": (3451, 2),      # 58 minutes over 2 sittings (the second 12 minutes: the further streams)
}


def costs(out="reports") -> list[str]:
    """Each committed report's cost as its meta.json records it: run time over its sittings, and the machine."""
    import json
    from euchresim.report import machines_words
    lines = []
    for name, _ in REPORTS:
        try:
            with open(os.path.join(ROOT, out, name, "meta.json"), encoding="utf-8") as fh:
                meta = json.load(fh)
        except OSError:
            lines.append(f"{name}: not made")
            continue
        sec = meta["run_seconds"]
        took = f"{sec / 3600:.1f} hours" if sec >= 3600 else f"{sec / 60:.0f} minutes" if sec >= 60 else ""
        lines.append(f"{name}: {sec:,.0f} s{f' ({took})' if took else ''}{_over(meta.get('sittings', 1))} on "
                     f"{machines_words(meta)}")
    return lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", help="only these reports (folder names)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every hand count (a quick look: 0.1)")
    ap.add_argument("--out", default="reports", help="relative to the repository root")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--resume", action="store_true", help="go on with each report's kept work (OUT/NAME/_work)")
    ap.add_argument("--force", action="store_true",
                    help="without --resume, make a report afresh even where kept work waits (dropping it)")
    ap.add_argument("--costs", action="store_true", help="print what each committed report cost (meta.json) and stop")
    args = ap.parse_args(argv)
    if args.costs:
        print("\n".join(costs(args.out)))
        return
    os.chdir(ROOT)                     # the commands the reports state name reports/NAME, not this machine's path
    if args.scale != 1.0 and os.path.normpath(args.out) == "reports":
        sys.exit("make_reports: --scale makes a quick set, not one to commit: give --out another folder")
    waiting = [n for n, _ in REPORTS if (not args.only or n in args.only)
               and os.path.exists(os.path.join(args.out, n, "_work", "report.json"))]
    if waiting and not (args.resume or args.force):
        sys.exit(f"make_reports: {', '.join(os.path.join(args.out, n) for n in waiting)} hold kept work (a remake "
                 "under way, carried in git between sittings: docs/reports.md): --resume goes on with it, --force "
                 "starts afresh and drops it")
    from euchresim.cli.app import main as cli
    for name, rest in REPORTS:
        if args.only and name not in args.only:
            continue
        rest = list(rest)
        for flag in ("--hands", "--model-hands", "--class-deals", "--class-reached", "--defend-hands"):
            for i, a in enumerate(rest[:-1]):
                if a == flag:
                    rest[i + 1] = str(max(1000, int(int(rest[i + 1]) * args.scale)))
        cmd = ["report"] + rest + ["--seed", str(args.seed), "--out", os.path.join(args.out, name), "--quiet"]
        cmd += ["--resume"] if args.resume else ["--force"]
        t = time.time()
        print("euchresim " + " ".join(cmd), flush=True)
        try:
            cli(cmd)
        except SystemExit as e:
            if e.code:
                sys.exit(e.code)
        print(f"  {time.time() - t:.0f} s on {_machine(os.path.join(args.out, name))}", flush=True)
    write_index(args.out)


def _machine(folder) -> str:
    import json
    from euchresim.report import NOT_RECORDED, machines_words
    try:
        with open(os.path.join(folder, "meta.json"), encoding="utf-8") as fh:
            return machines_words(json.load(fh))
    except OSError:
        return NOT_RECORDED


def _over(sittings) -> str:
    """A report resumed over several sittings: its run time is their sum (meta.json's sittings)."""
    return f" over {sittings} sittings" if sittings and sittings > 1 else ""


def write_index(out):
    """reports/README.md: each report's title, the command that made it, its hands and run time."""
    import json
    from euchresim.report import machines_words
    lines = ["# Strategy reports", "",
             "Made by `python scripts/make_reports.py` (which runs the commands below), each on the machine "
             "its row names; each folder's README.md has the findings, its CSV tables and charts, and meta.json the "
             "versions. The method: [`docs/reports.md`](../docs/reports.md).", "",
             "| report | command | run time | on what | engine |", "|---|---|---|---|---|"]
    for name, _ in REPORTS:
        meta_file = os.path.join(out, name, "meta.json")
        if not os.path.exists(meta_file):
            continue
        with open(meta_file, encoding="utf-8") as fh:
            meta = json.load(fh)
        with open(os.path.join(out, name, "README.md"), encoding="utf-8") as fh:
            title = fh.readline().lstrip("# ").strip()
        lines.append(f"| [{title}]({name}/README.md) | `{meta['command']}` | {meta['run_seconds']:.0f} s"
                     f"{_over(meta.get('sittings', 1))} "
                     f"| {machines_words(meta)} | engine {meta.get('engine_version', '?')} |")
    with open(os.path.join(out, "README.md"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
