"""pimc's ``fair_bids``: a call valued by playing the hand out with heuristic at every seat, not double-dummy.

The rollout is checked against the same hand stepped by hand (Hand,
heuristic at every seat, the value then read off the finished hand by
score_hand's own points), at bidding decisions of every variant; and the
setting must change pimc's calls (else it would be a parameter without an
effect).
"""
import numpy as np
import pytest

from euchresim.engine.layout import MAKER, MAKER_TRICKS, TO_ACT, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DONE, PHASE
from euchresim.loops.hands import new_workspace, seat_decider
from euchresim.engine.state import Hand
from euchresim.policies import parse, seats
from euchresim.policies.search import rollout
from euchresim.rules import Rules
from euchresim.run import runner
from tests.helpers import run_spec, VARIANTS
from tests.test_search_bots import _side_points, _states

BIDS = (PH_BID1, PH_BID2, PH_ALONE, PH_DEFEND, PH_DISCARD)


@pytest.mark.parametrize("players,deck", VARIANTS)
def test_a_fair_rollout_is_the_hand_played_out_by_heuristic(players, deck):
    rules = Rules(players=players, deck=deck)
    tab, states = _states(rules, 40, seed=players * 100 + deck, stop_in_play=False)
    row = parse("pimc:fair_bids=1").row
    table = seats("heuristic", players)
    ws = new_workspace()
    checked = 0
    for st, priv in states:
        if st[PHASE] not in BIDS:
            continue
        seat = int(st[TO_ACT])
        h0 = Hand(tab, st.copy(), priv.copy())
        for a in h0.legal_list():
            got = rollout(st, priv, tab, ws, np.int64(a), np.int64(seat), row)
            h = h0.copy()
            assert not h.apply(a)
            h.play_out(seat_decider(table.pids, table.params, table.functions(), np.zeros(6, np.uint64), ws))
            if h.st[MAKER_TRICKS] < 0 or h.st[PHASE] != PH_DONE or int(h.st[MAKER]) < 0:
                want = 0
            else:
                want = _side_points(tab, h.st, seat, ws, int(h.st[MAKER_TRICKS]))
            assert got == want, (a, got, want)
            checked += 1
    assert checked >= 10


def test_fair_bids_changes_pimcs_calls():
    def rows(policy):
        spec = run_spec(rules=Rules(), policies=(policy,) * 4, seed=3, count=60)
        r = runner.play_chunk(spec, 0).hands
        return [(int(x["maker"]), int(x["trump"]), int(x["alone"])) for x in r]
    assert rows("pimc:worlds=4:bid_worlds=8:fair_bids=1") != rows("pimc:worlds=4:bid_worlds=8")


# ---- max_worlds: more worlds only while the two best options are too close to tell apart

def test_too_close_is_two_standard_errors_of_the_gap():
    from euchresim.policies.search import too_close
    from euchresim.policies.search_layout import V_N, V_SQ, V_SUM, WR_VAL
    ws = new_workspace()

    def load(samples):
        val = ws[WR_VAL]
        val[:] = 0
        for k, xs in enumerate(samples):
            val[V_SUM + k], val[V_SQ + k], val[V_N + k] = sum(xs), sum(x * x for x in xs), len(xs)

    def by_hand(samples):
        means = sorted(((np.mean(x), np.var(x, ddof=1) / len(x)) for x in samples), reverse=True)
        (m1, v1), (m2, v2) = means[:2]
        return (m1 - m2) ** 2 < 4 * (v1 + v2)
    rng = np.random.default_rng(1)
    for _ in range(200):
        k = int(rng.integers(2, 6))
        samples = [list(rng.integers(-40, 40, size=int(rng.integers(2, 30)))) for _ in range(k)]
        load(samples)
        assert bool(too_close(ws, np.int64(k))) == by_hand(samples)
    load([[10, 10], []])
    assert not too_close(ws, np.int64(2))            # one option valued: nothing to tell apart


def test_max_worlds_at_or_below_the_batch_is_pimc_and_above_it_changes_play():
    def rows(policy):
        spec = run_spec(rules=Rules(), policies=(policy,) * 4, seed=3, count=40)
        return runner.play_chunk(spec, 0).hands.tobytes()
    base = "pimc:worlds=4:bid_worlds=4"
    assert rows(f"{base}:max_worlds=4") == rows(base)
    assert rows(f"{base}:max_worlds=64") != rows(base)
