"""scripts/compare_trees.py: two checkouts' speed in one sitting (docs/benchmarks.md).

Run on one tree as both sides, small: every figure is measured in a fresh
process with the tree on PYTHONPATH, printed per round, and the summary's
ratios are the best runs' (its arithmetic checked on a made-up pair).
"""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "compare_trees.py")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from compare_trees import LOOPS, summary  # noqa: E402


def test_the_summary_takes_each_trees_best_run_and_divides():
    got = {"before": [{"4p24 random": 100.0, "advise_x": 2.0}, {"4p24 random": 120.0, "advise_x": 1.5}],
           "after": [{"4p24 random": 90.0, "advise_x": 3.0}, {"4p24 random": 150.0, "advise_x": 1.2}]}
    lines = summary(got).splitlines()
    assert lines[2] == "| 4p24 random | 120 hands/s | 150 hands/s | 1.250 |"      # rates: the most
    assert lines[3] == "| advise_x | 1.500 s | 1.200 s | 0.800 |"                   # seconds: the least


@pytest.mark.slow
def test_one_round_of_one_tree_against_itself(tmp_path):
    p = subprocess.run([sys.executable, SCRIPT, ROOT, ROOT, "--rounds", "1", "--hands", "4000",
                        "--advise-samples", "0", "--cache", str(tmp_path)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    out = p.stdout.splitlines()
    rows = [json.loads(line) for line in out[:2]]
    assert [r["tree"] for r in rows] == ["before", "after"]
    assert all(set(r["figures"]) == {f"{a}p{b} {c}" for a, b, c in LOOPS} for r in rows)
    assert all(v > 0 for r in rows for v in r["figures"].values())
    assert out[2].startswith("| figure |") and len(out) == 4 + len(LOOPS)
