"""``engine.state.Hand``, the one Python stepper: it plays what the jitted loop plays, and refuses what the rules refuse.

Every Python caller of the engine (the practice table, the slow loop,
blame, show, the OpenSpiel mirror, the benchmark's positions) steps hands
through ``Hand``; if it drifted from ``loops.hands._play_hands`` those
callers would all tell a different hand from the one the run played. So a
chunk is stepped here by hand, a decision at a time from the chunk's own
two random streams, and every row must match the kernel's row for row; and
a hand played at random through ``Hand`` must be the hand the jitted replay
makes of its record, and score as R11 says.
"""
import dataclasses

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from euchresim.cards import SUITS
from euchresim.engine.layout import (ALONE, CFG_NPACK, CFG_PLAYERS, ERR_ILLEGAL, MAKER, PH_DUMMY, POINTS, REDEAL,
                                     T_NEXT, T_PACK, THROWN_IN, TRICKS)
from euchresim.engine.tables import build_tables
from euchresim.engine.state import Hand
from euchresim.loops.hands import new_workspace, seat_decider
from euchresim.loops.record_steps import replay
from euchresim.loops.slow import first_dealer
from euchresim.policies import functions, resolve
from euchresim.records.format import RecordError
from euchresim.rules import Rules
from euchresim.run import runner
from tests.helpers import run_spec, fast_and_full

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
    h = Hand(tab)
    out = []
    for _ in range(n):
        h.deal_next(work, drng, hands, dealer)
        h.play_out(seat_decider(pids, params, fns, prng, ws))
        out.append((dealer, tuple(h.returns())))
        if h.st[REDEAL] == 0:
            dealer = int(tab[T_NEXT + dealer])
    return out


@pytest.mark.parametrize("players,deck", VARIANTS)
@pytest.mark.parametrize("policy", ["random", "heuristic"])
@fast_and_full("n", 40, 150)
def test_stepping_a_chunk_from_python_gives_the_kernels_rows(players, deck, policy, n):
    rules = Rules(players=players, deck=deck)
    seed = 11
    spec = run_spec(rules=rules, policies=(policy,) * players, seed=seed, mode="hands", count=n)
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
    h = Hand(tab)
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


def _r11(rules, h) -> list[int]:
    """The points each seat shows, read off the rules' own scoring table (R11, C6), not the engine's copy of it."""
    st, players = h.st, rules.players
    if st[REDEAL] or st[THROWN_IN]:
        return [0] * players
    maker = int(st[MAKER])
    alone = {s for s in range(players) if (int(st[ALONE]) >> s) & 1}
    makers = {maker, (maker + 2) % 4} if players == 4 else {maker}
    if players == 4:
        case = ("alone_vs_lone_defender" if alone - makers else "alone") if maker in alone else "partnership"
    else:
        case = "two_hand" if players == 2 else ("cutthroat_lone_defender" if alone - makers else "cutthroat")
    row = rules.scoring.table[case]
    t = sum(int(st[TRICKS + s]) for s in makers)
    return [row["makers"][t] if s in makers else row["defenders"][t] for s in range(players)]


def _play_at_random(h, data) -> list[tuple[int, int, int]]:
    """Play ``h`` out with actions hypothesis draws from the legal ones: the (seat, phase, action) taken."""
    taken = []

    def draw(hand):
        if hand.phase == PH_DUMMY:
            cards = [c for c in range(64) if (hand.legal() >> c) & 1]
            a = sum(1 << c for c in data.draw(hs.permutations(cards))[:5])
        else:
            a = data.draw(hs.sampled_from(hand.legal_list()))
        taken.append((hand.to_act, hand.phase, a))
        return a
    h.play_out(draw)
    return taken


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=hs.sampled_from(VARIANTS), seed=hs.integers(0, 2**32 - 1), data=hs.data())
def test_random_play_is_the_hand_the_jitted_replay_makes_of_its_record(variant, seed, data):
    players, deck = variant
    rules = Rules(players=players, deck=deck)
    tab = build_tables(rules)
    drng, _ = runner.chunk_states(seed, 0)
    h = Hand(tab)
    h.deal_next(tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy(), drng, np.zeros(4, np.int64), seed % players)
    taken = _play_at_random(h, data)
    rec = h.record(rules)
    outcome, err = replay(rec)                      # the jitted replay kernel, on the record Hand wrote
    assert err is None, err
    mine = h.outcome()
    assert outcome == {**mine, "trump": None if mine["trump"] is None else SUITS[mine["trump"]]}
    walked = Hand.of_record(rec, tab)               # and Hand's own walk of the record: the same steps
    assert [(s.seat, s.phase, s.code) for s in walked.steps(rec)] == taken
    assert (walked.st == h.st).all() and (walked.priv == h.priv).all()
    assert h.returns() == _r11(rules, h)
    assert sum(h.returns()) == sum(_r11(rules, h))


def test_a_record_that_runs_out_is_refused_where_it_ends():
    rules = Rules()
    tab = build_tables(rules)
    drng, prng = runner.chunk_states(5, 0)
    h = Hand(tab)
    h.deal_next(tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy(), drng, np.zeros(4, np.int64), 0)
    pids, params, _ = resolve(["heuristic"] * 4, 4)
    h.play_out(seat_decider(pids, params, functions(["heuristic"] * 4, 4), prng, new_workspace()))
    rec = h.record(rules)
    short = dataclasses.replace(rec, plays=rec.plays[:-1])
    with pytest.raises(RecordError, match="plays: the record ends after"):
        Hand.of_record(short, tab).replay(short)
    assert (Hand.of_record(rec, tab).replay(rec).st == h.st).all()
