"""How often the dealer takes up a turned right bower, pimc against heuristic (docs/policies.md).

A strategy-fusion check: a PIMC bot that bids by solving sampled worlds is
known to take up the right bower as dealer almost always.  4 players, 24
cards, seed 11, 4,000 hands each, every seat the one policy: among hands
whose upcard is a jack and whose first three seats passed, how many the
dealer ordered.  Run: ``python scripts/pimc_bidding.py``.
"""
import numpy as np

from euchresim.policies import seats
from euchresim.run import runner
from euchresim.rules import Rules

for pol in ("pimc", "heuristic"):
    n = 4000
    r = runner.play_chunk(runner.RunSpec(rules=Rules(), policies=seats([pol], 4), count=n, chunk_size=n, seed=11), 0).hands
    up = r["upcard"].astype(np.int64)
    jack = (up < 32) & ((up & 7) == 4)
    reached = jack & (r["call1"] == 0) & (r["call2"] == 0) & (r["call3"] == 0)
    took = reached & (r["call4"] == 1)
    print(f"{pol}: right bower turned and the dealer asked in {int(reached.sum())} hands; took it up in {int(took.sum())}")
