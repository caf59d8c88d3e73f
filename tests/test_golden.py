"""Golden hands: what a seed plays is pinned, and every record replays.

If this fails after an engine change, review `git diff tests/golden` like
code; when outcomes for a seed really changed, bump ENGINE_VERSION and run
`python scripts/make_golden.py`.
"""
import importlib.util
import json
import os

from euchresim.studies.replay import replay_record
from tests.reference import replay as reference_replay

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GOLDEN = os.path.join(ROOT, "tests", "golden", "hands.jsonl")


def _script():
    spec = importlib.util.spec_from_file_location("make_golden", os.path.join(ROOT, "scripts", "make_golden.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_seed_still_plays_the_golden_hands():
    with open(GOLDEN, encoding="utf-8") as fh:
        pinned = fh.read().splitlines()
    assert list(_script().golden_lines()) == pinned


def test_golden_hands_replay_to_their_outcomes_in_both_implementations():
    with open(GOLDEN, encoding="utf-8") as fh:
        records = [json.loads(line) for line in fh]
    assert {(r["players"], r["deck"]) for r in records} == {(p, d) for p in (2, 3, 4) for d in (24, 25, 32, 33)}
    for rec in records:
        assert replay_record(rec) == rec
        ref = reference_replay(rec)
        assert all(rec[k] == ref[k] for k in ref)
