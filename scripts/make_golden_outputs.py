"""Pin what fixed commands print for fixed seeds: the redesign's safety net.

Each command runs in-process through ``euchresim.cli.app`` (one worker, so no
process pool), its standard output is kept, and every file it writes is kept
too (hand records, replayed and solved records, a report's text and tables).
``tests/test_golden.py`` runs the same commands and compares. A change
that moves code must leave ``tests/golden/outputs.json`` as it is; a change that
means to alter a number regenerates it with this script and says why in the
commit and the docs.

    python scripts/make_golden_outputs.py          # rewrite tests/golden/outputs.json
"""
import json
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "golden", "outputs.json")

# (name, argv); "{d}" is a scratch folder shared by the commands of one run, in order.
COMMANDS = [
    ("simulate_random", ["simulate", "--hands", "3000", "--seed", "1", "--policy", "random"]),
    ("simulate_3p_json", ["simulate", "--players", "3", "--deck", "25", "--hands", "2000", "--seed", "2",
                          "--policy", "baseline", "--json"]),
    ("simulate_2p_groups", ["simulate", "--players", "2", "--deck", "33", "--hands", "2000", "--seed", "3",
                            "--policy", "heuristic", "--group", "maker_pos,maker_trumps", "--group", "upcard_rank"]),
    ("simulate_games", ["simulate", "--games", "60", "--game-to", "5", "--seed", "4", "--policy", "baseline"]),
    ("simulate_rubbers_json", ["simulate", "--rubbers", "20", "--seed", "4", "--policy", "heuristic", "--json"]),
    ("simulate_per_seat", ["simulate", "--policy", "baseline,random,baseline,random", "--hands", "2000",
                           "--seed", "7"]),
    ("simulate_options", ["simulate", "--players", "4", "--deck", "25", "--joker-upcard", "H", "--defend-alone",
                          "--stick-the-dealer", "--hands", "1500", "--seed", "8", "--json"]),
    ("simulate_records", ["simulate", "--hands", "150", "--seed", "5", "--stick-the-dealer", "--policy",
                          "heuristic", "--records", "{d}/deals.jsonl", "--out", "{d}/deals.parquet"]),
    ("replay", ["replay", "{d}/deals.jsonl", "-o", "{d}/checked.jsonl"]),
    ("solve", ["solve", "{d}/deals.jsonl", "-o", "{d}/solved.jsonl"]),
    ("duel", ["duel", "baseline", "random", "--games", "30", "--seed", "1", "--json"]),
    ("ladder", ["ladder", "random", "baseline", "heuristic", "--games", "12", "--seed", "1", "--json"]),
    ("duel_search", ["duel", "pimc", "dd", "--games", "2", "--seed", "2", "--json"]),
    ("report_order_up", ["report", "order-up", "--hands", "2000", "--seed", "3", "--policy", "baseline",
                         "--out", "{d}/order", "--quiet"]),
    ("report_rates", ["report", "euchre-rates", "--hands", "4000", "--seed", "1", "--policy", "baseline",
                      "--out", "{d}/rates", "--quiet"]),
]

# Files written by the commands that are pinned too (Parquet is pinned through its table, below).
FILES = ["deals.jsonl", "checked.jsonl", "solved.jsonl"]
# What legitimately differs between two runs: time, the machine, the scratch folder, versions.
_VOLATILE = re.compile(r"(\d+(\.\d+)?\s*(s|ms|min)\b(?! ?[-–]))|(/tmp/\S+)")
_VOLATILE_KEYS = {"elapsed_s", "seconds", "wall_s", "started", "finished", "machine", "python", "numba",
                  "version", "engine_version", "command", "hands_per_second", "out", "records", "path"}


def _scrub(obj):
    if isinstance(obj, dict):
        return {k: ("*" if k in _VOLATILE_KEYS else _scrub(v)) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_scrub(v) for v in obj]
    return obj


def normalise(text: str, d: str) -> str:
    """Blank what is not a number the program computed (times, paths), keep the rest byte for byte."""
    text = text.replace(d, "{d}")
    try:
        return json.dumps(_scrub(json.loads(text)), sort_keys=True, indent=1)
    except ValueError:
        pass
    lines = []
    for line in text.splitlines():
        try:
            lines.append(json.dumps(_scrub(json.loads(line)), sort_keys=True))
        except ValueError:
            lines.append(_VOLATILE.sub("*", line))
    return "\n".join(lines)


def _invoke(argv):
    from click.testing import CliRunner

    from euchresim.cli.app import main

    class _Main:
        name = "euchresim"

        def main(self, args=None, prog_name=None, **kw):
            main(list(args))
            sys.exit(0)

    r = CliRunner().invoke(_Main(), argv)
    if r.exit_code != 0:
        raise RuntimeError(f"{' '.join(argv)} exited {r.exit_code}: {r.output[-2000:]}")
    return r.stdout


def golden_outputs() -> dict:
    import pandas as pd

    out = {}
    with tempfile.TemporaryDirectory() as d:
        for name, argv in COMMANDS:
            args = [a.replace("{d}", d) for a in argv]
            if args[0] in ("simulate", "duel", "ladder", "report"):
                args += ["--workers", "1"]
            out[name] = normalise(_invoke(args), d)
        for f in FILES:
            with open(os.path.join(d, f), encoding="utf-8") as fh:
                out["file:" + f] = normalise(fh.read(), d)
        table = pd.read_parquet(os.path.join(d, "deals.parquet"))
        out["file:deals.parquet"] = table.to_csv(index=False)
        for report in ("rates", "order"):
            for f in sorted(os.listdir(os.path.join(d, report))):
                if f.endswith(".csv") or f == "README.md":
                    with open(os.path.join(d, report, f), encoding="utf-8") as fh:
                        out[f"file:{report}/{f}"] = normalise(fh.read(), d)
    return out


if __name__ == "__main__":
    outputs = golden_outputs()
    with open(OUT, "w", encoding="utf-8") as fh:
        json.dump(outputs, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"{len(outputs)} outputs pinned in {os.path.relpath(OUT, ROOT)}")
