"""Write euchresim/policies/win_table.py: P(win the game) by score, for the search bots' ``objective=game``.

    python scripts/make_win_table.py --hands 1000000 --seed 21

The table is the win-probability dynamic program (analysis/winprob.py,
docs/win-probability.md) over the outcome distribution of one hand, which
``heuristic`` at every seat measures here (4 players, 24 cards; the seats
pooled relative to the dealer). A kernel cannot read pandas, so the
distribution and the solved table are written out as plain Python data;
tests/test_objective_game.py checks that the table is the program's
solution of the distribution written beside it, and that the distribution
is heuristic's within its sampling error.
"""
import argparse
import pprint

import numpy as np

from euchresim import ENGINE_VERSION
from euchresim.analysis import winprob as wp
from euchresim.rules import Rules
from euchresim.policies import seats
from euchresim.run import runner

TARGETS = (5, 7, 10)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--out", default="euchresim/policies/win_table.py")
    a = ap.parse_args()
    spec = runner.RunSpec(rules=Rules(), policies=seats(["heuristic"], 4), seed=a.seed, count=a.hands)
    rows = np.concatenate([runner.play_chunk(spec, c).hands.copy() for c in range(spec.n_chunks)])
    dist = wp.outcome_distribution(rows, 4, pool_seats=True)
    outcomes = [(int(r.dealer), int(r.pts0), int(r.pts1), int(r.maker), int(r.count))
                for r in dist.itertuples(index=False)]
    tables = {t: np.round(wp.solve(dist, 4, t), 12).tolist() for t in TARGETS}
    with open(a.out, "w", encoding="utf-8") as fh:
        fh.write(f'"""P(win the game) by score, 4 players: made by ``python scripts/make_win_table.py --hands '
                 f'{a.hands} --seed {a.seed}`` (engine {ENGINE_VERSION}); do not edit.\n\n'
                 "OUTCOMES: (dealer, side 0's points, side 1's points, maker's side or -1, hands seen) of\n"
                 "heuristic at every seat, the seats pooled relative to the dealer. P_WIN[target][s0][s1][dealer][side]:\n"
                 "the side's P(win) at that score with that seat to deal, by analysis.winprob.solve.\n\"\"\"\n")
        fh.write(f"HANDS = {a.hands}\nSEED = {a.seed}\n")
        fh.write("OUTCOMES = " + pprint.pformat(outcomes, width=110, compact=True) + "\n")
        fh.write("P_WIN = " + pprint.pformat(tables, width=110, compact=True) + "\n")
    print(f"wrote {a.out}: {len(outcomes)} outcomes from {a.hands:,} hands")


if __name__ == "__main__":
    main()
