"""pimc's inference from the play (``play_infer``): each world weighed by how likely heuristic made the hand so far.

* the weight of a world is the product a plain-Python twin finds by
  replaying the same deal with ``Hand`` and asking heuristic at each
  other seat's decision;
* the true deal outweighs a sampled world more often than the reverse
  (heuristic played the hands, so the true deal fits every decision);
* off, pimc plays as it did (its ``infer_eps`` read nowhere); on, it plays
  differently.
"""
import numpy as np
import pytest

from euchresim.engine.bits import seed_state
from euchresim.engine.deal import deal
from euchresim.engine.hand import apply_legal, legal_actions, start_hand
from euchresim.engine.layout import (ALONE, AWAY, BID2_PASS, CALL_ORDER, CALL_PASS, CALL_SUIT0, CALLS, CFG_NPACK,
                                     DEAL, DEALER, DUMMY, EXCHANGED, HAND, JOKER_SUIT, MAKER, NCALLS, NPLAYS, OUT,
                                     PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DONE, PH_JOKER, PH_PLAY,
                                     PHASE, PLAYS, PRIV_SIZE, ST_SIZE, T_PACK, TO_ACT, UPCARD)
from euchresim.engine.tables import build_tables
from euchresim.loops.hands import new_workspace
from euchresim.engine.state import Hand
from euchresim.policies import resolve
from euchresim.policies.heuristic import heuristic_decide
from euchresim.policies.inference import deal_of_world, play_weight
from euchresim.policies.sampler import sample_world
from euchresim.policies.search_layout import S_INFER_EPS, S_PLAY_INFER, WR_ST2
from euchresim.policies.view import dummy_taken
from euchresim.rules import Rules
from euchresim.run import runner
from tests.helpers import run_spec

EPS = 0.1


def _states(rules, n, seed):
    """(st, priv) of hands heuristic played at every seat, each stopped at a random decision after the first call."""
    tab = build_tables(rules)
    _, params, _ = resolve(["heuristic"], rules.players)
    drng = seed_state(np.random.SeedSequence(seed))
    pick = np.random.default_rng(seed)
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    out = []
    for tries in range(50 * n):
        if len(out) == n:
            break
        hands = np.zeros(4, np.int64)
        dummy, up, kitty = deal(tab, work, drng, hands)
        st, priv = np.zeros(ST_SIZE, np.int64), np.zeros(PRIV_SIZE, np.int64)
        start_hand(st, priv, tab, np.int64(tries % rules.players), hands, dummy, up, kitty)
        stop = int(pick.integers(1, 30))
        k = 0
        while st[PHASE] != PH_DONE:
            legal = legal_actions(st, priv, tab)
            if k >= stop:
                out.append((st.copy(), priv.copy()))
                break
            seat = int(st[TO_ACT])
            a = heuristic_decide(st, priv[HAND + seat], priv[AWAY + seat], np.int64(seat), legal, params[0], tab)
            assert apply_legal(st, priv, tab, a, legal) == 0
            k += 1
    return tab, params[0], out


def _pimc_row(players, play_infer=5, eps=EPS):
    _, params, _ = resolve([f"pimc:play_infer={play_infer}:infer_eps={eps}"], players)
    return params[0]


def _true_world(st, priv, seat, players):
    """The true deal as the seat's world: what the others put away is unseen (left out, as the sampler does)."""
    world = priv.copy()
    for s in range(players):
        if s != seat:
            world[AWAY + s] = 0
    return world


def _twin(st, world, seat, tab, params, hands, disc, eps):
    """``play_weight`` by hand: the deal replayed in Hand, each other seat's decision asked of heuristic."""
    if st[NCALLS] == 0:
        return 1.0
    h = Hand.dealt(tab, int(st[DEALER]), [int(x) for x in hands], int(world[DUMMY]), int(st[UPCARD]), 0)
    calls = [int(st[CALLS + k]) for k in range(int(st[NCALLS]))]
    plays = [int(st[PLAYS + k]) for k in range(int(st[NPLAYS]))]
    skip = int(st[MAKER]) if dummy_taken(st, tab) else -1
    w = 1.0
    while not h.done:
        here = (h.phase, h.to_act, int(h.st[NCALLS]), int(h.st[NPLAYS]))
        if here == (int(st[PHASE]), int(st[TO_ACT]), len(calls), len(plays)):
            break
        s, ph, legal = h.to_act, h.phase, h.legal()
        weigh = True
        if ph == PH_JOKER:
            a, weigh = int(st[JOKER_SUIT]), False
        elif ph == PH_DISCARD:
            if disc < 0 or skip >= 0:
                break
            a, weigh = disc, False
        elif ph in (PH_BID1, PH_BID2):
            k = int(h.st[NCALLS])
            if k == len(calls):
                break
            if ph == PH_BID1:
                a = 1 if calls[k] == CALL_ORDER else 0
            else:
                a = BID2_PASS if calls[k] == CALL_PASS else calls[k] - CALL_SUIT0
        elif ph in (PH_ALONE, PH_DEFEND):
            a = (int(st[ALONE]) >> s) & 1
        elif ph == PH_PLAY:
            n = int(h.st[NPLAYS])
            if n == len(plays):
                break
            a = plays[n]
        else:
            break
        options = [b for b in range(64) if (legal >> b) & 1]
        if weigh and s != seat and s != skip and len(options) > 1 and a in options:
            choice = heuristic_decide(h.st, h.priv[HAND + s], h.priv[AWAY + s], np.int64(s), np.int64(legal),
                                      params, tab)
            w *= (1 - eps) if choice == a else eps / (len(options) - 1)
        if h.apply(a, legal):
            w *= eps
            break
    return w


@pytest.mark.parametrize("players,deck", [(4, 24), (3, 25), (2, 32)])
def test_the_weight_is_the_twins_product(players, deck):
    opts = {"defend_alone": True} if players == 4 else {}
    tab, _, states = _states(Rules(players=players, deck=deck, **opts), 40, seed=players)
    params = _pimc_row(players)
    ws = new_workspace()
    rng = seed_state(np.random.SeedSequence(3))
    weighed = 0
    for i, (st, priv) in enumerate(states):
        seat = int(st[TO_ACT])
        world = _true_world(st, priv, seat, players) if i % 2 else np.zeros(PRIV_SIZE, np.int64)
        if i % 2 == 0:
            sample_world(st, priv[HAND + seat], priv[AWAY + seat], np.int64(seat), tab, rng, world)
        before = rng.copy()
        w = play_weight(st, world, np.int64(seat), tab, params, rng, ws)
        # the same draws for the unseen discard and the hands of seats sitting out
        disc = deal_of_world(st, world, np.int64(seat), tab, before, ws[WR_ST2])
        hands = ws[WR_ST2][:4].copy()
        assert w == pytest.approx(_twin(st, world, seat, tab, params, hands, disc, EPS), rel=1e-12)
        weighed += w < 1.0
    assert weighed >= 10        # the decisions are weighed, not skipped


def test_the_deal_of_the_true_world_is_the_true_deal():
    """Where nothing unseen is drawn (no discard seen by the dealer only, nobody sitting out), the hands as dealt."""
    tab, _, states = _states(Rules(), 60, seed=7)
    rng = seed_state(np.random.SeedSequence(0))
    checked = 0
    for st, priv in states:
        seat = int(st[TO_ACT])
        hands = np.zeros(ST_SIZE, np.int64)
        disc = deal_of_world(st, _true_world(st, priv, seat, 4), np.int64(seat), tab, rng, hands)
        for s in range(4):
            drawn = (st[EXCHANGED] == 1 and s == st[DEALER] and s != seat) or (s != seat and (st[OUT] >> s) & 1)
            if not drawn:
                assert hands[s] == priv[DEAL + s], (s, seat)
                checked += 1
        if st[EXCHANGED] == 1 and seat == st[DEALER]:
            assert (priv[AWAY + seat] >> disc) & 1
    assert checked >= 150


def test_the_true_deal_outweighs_a_sampled_world():
    """Heuristic played these hands: the true deal fits every decision, a sampled world not always (sign test)."""
    tab, _, states = _states(Rules(), 150, seed=11)
    params = _pimc_row(4)
    ws = new_workspace()
    rng = seed_state(np.random.SeedSequence(5))
    true_more = sampled_more = 0
    for st, priv in states:
        seat = int(st[TO_ACT])
        w_true = play_weight(st, _true_world(st, priv, seat, 4), np.int64(seat), tab, params, rng, ws)
        world = np.zeros(PRIV_SIZE, np.int64)
        sample_world(st, priv[HAND + seat], priv[AWAY + seat], np.int64(seat), tab, rng, world)
        w_sampled = play_weight(st, world, np.int64(seat), tab, params, rng, ws)
        true_more += w_true > w_sampled
        sampled_more += w_sampled > w_true
    n = true_more + sampled_more
    assert n >= 30
    # under "no better than a sampled world" each untied pair goes either way with chance 1/2
    assert true_more - n / 2 > 3 * (n / 4) ** 0.5, (true_more, sampled_more)


def _rows(policy, players=4, count=24, seed=4):
    res = runner.play_chunk(run_spec(rules=Rules(players=players), policies=(policy,), count=count, seed=seed), 0)
    return res.hands, res.plays


def test_off_it_plays_as_pimc_and_eps_is_read_nowhere():
    """play_infer=0 with any infer_eps: pimc's rows exactly, whatever the eps."""
    hands, plays = _rows("pimc:worlds=4:bid_worlds=3")
    hands2, plays2 = _rows("pimc:worlds=4:bid_worlds=3:play_infer=0:infer_eps=0.7")
    assert np.array_equal(hands, hands2) and np.array_equal(plays, plays2)
    assert _pimc_row(4, 0)[S_PLAY_INFER] == 0 and resolve(["pimc"], 4)[1][0][S_PLAY_INFER] == 0


def test_on_it_changes_play_and_eps_matters():
    base = _rows("pimc:worlds=4:bid_worlds=3")[1]
    on = _rows("pimc:worlds=4:bid_worlds=3:play_infer=6")[1]
    other_eps = _rows("pimc:worlds=4:bid_worlds=3:play_infer=6:infer_eps=0.9")[1]
    assert not np.array_equal(base, on)
    assert not np.array_equal(on, other_eps)
    assert np.array_equal(on, _rows("pimc:worlds=4:bid_worlds=3:play_infer=6")[1])     # same seed, same rows
    assert _pimc_row(4, 6, 0.9)[S_INFER_EPS] == 0.9
