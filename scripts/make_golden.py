"""Regenerate tests/golden/hands.jsonl: a few hands of every variant.

The golden file pins what a seed plays.  If an engine change alters it,
tests/test_golden.py fails: review the diff like code, bump ENGINE_VERSION
in euchresim/__init__.py if outcomes for a seed changed, then run

    python scripts/make_golden.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from euchresim.records.rows import records_lines   # noqa: E402
from euchresim.policies import seats   # noqa: E402
from euchresim.rules import Rules   # noqa: E402
from euchresim.run.runner import RunSpec, play_chunk   # noqa: E402

# (players, deck, policy, options): every variant, every option at least once
CASES = [
    (4, 24, "baseline", {}), (4, 25, "random", {"defend_alone": True}),
    (4, 32, "baseline", {"stick_the_dealer": True}), (4, 33, "random", {"joker_upcard": "redeal"}),
    (3, 24, "random", {}), (3, 25, "baseline", {"joker_upcard": "S"}),
    (3, 32, "random", {"both_alone_lead": "maker"}), (3, 33, "baseline", {}),
    (2, 24, "baseline", {}), (2, 25, "random", {}), (2, 32, "random", {"stick_the_dealer": True}),
    (2, 33, "baseline", {}),
]
SEED = 2026
HANDS = 6
PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests", "golden", "hands.jsonl")


def golden_lines():
    for players, deck, policy, opts in CASES:
        rules = Rules(players=players, deck=deck, **opts)
        spec = RunSpec(rules=rules, policies=seats([policy], rules.players), seed=SEED, count=HANDS, chunk_size=HANDS)
        yield from records_lines(rules, play_chunk(spec, 0))


if __name__ == "__main__":
    with open(PATH, "w", encoding="utf-8") as fh:
        for line in golden_lines():
            fh.write(line + "\n")
    print(f"wrote {PATH}")
