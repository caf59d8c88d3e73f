"""``loops.step.HandState``, the one Python stepper: it plays what the jitted loop plays, and refuses what the rules refuse.

Every Python caller of the engine (the slow loop, blame, show, the
OpenSpiel mirror, the benchmark's positions) steps hands through
``HandState``; if it drifted from ``loops.hands._play_hands`` those callers
would all tell a different hand from the one the run played. So a chunk
is stepped here by hand, a decision at a time from the chunk's own two
random streams, and every row must match the kernel's row for row.
"""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from euchresim.engine.layout import (CFG_NPACK, CFG_PLAYERS, ERR_ILLEGAL, PH_DUMMY, POINTS, REDEAL, T_NEXT,
                                     T_PACK, THROWN_IN)
from euchresim.engine.tables import build_tables
from euchresim.loops.hands import new_workspace
from euchresim.loops.slow import first_dealer
from euchresim.loops.step import HandState
from euchresim.policies import functions, resolve
from euchresim.rules import Rules
from euchresim.run import runner
from tests.helpers import fast_and_full

VARIANTS = [(4, 24), (4, 25), (3, 24), (2, 32)]


def _stepped(rules, policies, n, seed):
    """Points of each hand of chunk 0, stepped from Python in the kernel's order."""
    tab = build_tables(rules)
    pids, params, _ = resolve(list(policies), rules.players)
    fns = functions(list(policies), rules.players)
    drng, prng = runner.chunk_states(seed, 0)
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    hands = np.zeros(4, np.int64)
    ws = new_workspace()
    dealer = first_dealer(drng, tab[CFG_PLAYERS])
    h = HandState(tab)
    out = []
    for _ in range(n):
        h.deal_next(work, drng, hands, dealer)
        while not h.done:
            a, legal = h.decide(pids, params, fns, prng, ws)
            assert not h.apply(a, legal), (h.phase, a)
        out.append((dealer, tuple(int(p) for p in h.st[POINTS:POINTS + rules.players])))
        if h.st[REDEAL] == 0:
            dealer = int(tab[T_NEXT + dealer])
    return out


@pytest.mark.parametrize("players,deck", VARIANTS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
@fast_and_full("n", 40, 150)
def test_stepping_a_chunk_from_python_gives_the_kernels_rows(players, deck, policy, n):
    rules = Rules(players=players, deck=deck)
    seed = 11
    spec = runner.RunSpec(rules=rules, policies=(policy,) * players, seed=seed, mode="hands", count=n)
    rows = runner.play_chunk(spec, 0).hands
    want = [(int(r["dealer"]), tuple(int(r[f"points{s}"]) for s in range(players))) for r in rows]
    assert _stepped(rules, (policy,) * players, n, seed) == want


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=hs.sampled_from(VARIANTS), seed=hs.integers(0, 2**32 - 1), data=hs.data())
def test_every_listed_action_is_taken_and_every_other_refused(variant, seed, data):
    players, deck = variant
    tab = build_tables(Rules(players=players, deck=deck))
    drng, _ = runner.chunk_states(seed, 0)
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    h = HandState(tab)
    h.deal_next(work, drng, np.zeros(4, np.int64), 0)
    steps = 0
    while not h.done:
        steps += 1
        assert steps < 60
        if h.phase == PH_DUMMY:          # the keep: five of the legal cards, one board
            cards = [c for c in range(64) if (h.legal() >> c) & 1]
            keep = sum(1 << c for c in data.draw(hs.permutations(cards))[:5])
            assert not h.apply(keep)
            continue
        legal = h.legal_list()
        assert legal, h.phase
        wrong = [a for a in range(64) if a not in legal]
        if wrong:
            bad = data.draw(hs.sampled_from(wrong))
            probe = h.copy()             # a refusal is sticky (the loops stop at it): refuse on a copy
            assert probe.apply(bad) and probe.error == ERR_ILLEGAL
            assert probe.phase == h.phase and probe.to_act == h.to_act
            assert all(probe.hand_of(s) == h.hand_of(s) for s in range(players))
        assert not h.apply(data.draw(hs.sampled_from(legal)))
        assert h.error == 0
    scored = sum(int(p) for p in h.st[POINTS:POINTS + players]) != 0
    assert scored == (not (h.st[REDEAL] or h.st[THROWN_IN]))     # a hand passed out or redealt scores nothing
