"""The kernels against the slow pure-Python reference, field by field.

Every variant and pack, both policies and the rule options: the engine
plays seeded hands, each is written as a hand record, and the reference
(tests/reference.py, which shares no code with the package) replays it,
checking every step, and must reach the same outcome.
"""
import json

import pytest

from euchresim.records.rows import records_lines
from tests.reference import replay as reference_replay
from tests.helpers import VARIANTS, fast_and_full, rows_of

OUTCOME = ("maker", "trump", "trick_winners", "tricks", "points")


def options(players, deck):
    """A few option sets per variant, so every option is exercised."""
    sets = [{}, {"stick_the_dealer": True}]
    if players == 4:
        sets.append({"defend_alone": True})
    if players == 3:
        sets.append({"both_alone_lead": "maker"})
    if deck in (25, 33):
        sets += [{"joker_upcard": "redeal"}, {"joker_upcard": "H"}]
    return sets


@pytest.mark.parametrize("players,deck", VARIANTS)
@pytest.mark.parametrize("policy", ["random", "baseline"])
@fast_and_full("hands", 100, 400)
def test_kernels_agree_with_the_reference(players, deck, policy, hands):
    n = 0
    for i, opts in enumerate(options(players, deck)):
        rules, res = rows_of(players, deck, policy, seed=1000 + i, n=hands, **opts)
        for line in records_lines(rules, res):
            rec = json.loads(line)
            ref = reference_replay(rec)
            for k in OUTCOME:
                assert rec[k] == ref[k], (k, line)
            n += 1
    assert n >= 2 * hands                      # two sets of options or more, every hand of each replayed
