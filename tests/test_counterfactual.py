"""Paired counterfactuals (loops.forced, studies.counterfactual) against a slow twin and the ordinary run.

The twin is the obvious version, in Python: the same deal stream, every
decision asked through ``loops.hands.decide_one``, and at the decision a plain
loop over the options, each from a copy of the state and of the policy
stream.  The kernel must agree with it number for number, and the
option each policy chose must reproduce ``runner.play_chunk``'s hand.
"""
import numpy as np
import pytest

from euchresim.studies import counterfactual as cf
from euchresim.loops.hands import decide_one, new_workspace
from euchresim.engine.bits import randbelow
from euchresim.engine.deal import deal
from euchresim.engine.hand import apply_legal, start_hand
from euchresim.engine.layout import (BID2_PASS, CFG_NPACK, MAKER, MAKER_TRICKS, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DONE, PH_PLAY, PHASE, POINTS, PRIV_SIZE, REDEAL, ST_SIZE, T_PACK, TO_ACT)
from euchresim.policies import functions, resolve
from euchresim.rules import Rules
from euchresim.run.runner import chunk_states, play_chunk
from euchresim.engine.tables import build_tables
from tests.helpers import run_spec, bits

MIX4 = ("random", "heuristic", "baseline", "random")


def spec_of(players, deck, policies, n, seed=7, **opts):
    return run_spec(rules=Rules(players=players, deck=deck, **opts), policies=policies, seed=seed,
                   count=n, chunk_size=n)


def _play_to_end(st, priv, tab, pids, params, fns, rng, ws):
    while st[PHASE] != PH_DONE:
        a, legal = decide_one(st, priv, tab, pids, params, fns, rng, ws)
        assert apply_legal(st, priv, tab, a, legal) == 0


def twin(spec, chunk, phase, position):
    """Per deal: None if the decision is not reached, else (seat, pos, legal, chosen, [(option, points, maker, tricks)])."""
    players = spec.rules.players
    tab = build_tables(spec.rules)
    pids, params, _ = resolve(list(spec.policies), players)
    fns = functions(list(spec.policies), players)
    drng, prng = chunk_states(spec.seed, chunk)
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    hands = np.zeros(4, np.int64)
    ws = new_workspace()
    dealer = int(randbelow(drng, players))
    out = []
    for _ in range(spec.chunk_count(chunk)):
        dummy, up, kitty = deal(tab, work, drng, hands)
        st = np.zeros(ST_SIZE, np.int64)
        priv = np.zeros(PRIV_SIZE, np.int64)
        start_hand(st, priv, tab, np.int64(dealer), hands, dummy, up, kitty)
        found = None
        while st[PHASE] not in (PH_DONE, PH_PLAY):
            seat = int(st[TO_ACT])
            a, legal = decide_one(st, priv, tab, pids, params, fns, prng, ws)
            pos = (seat - dealer) % players
            if st[PHASE] == phase and (position is None or pos == position):
                found = (seat, pos, int(legal), int(a))
                break
            assert apply_legal(st, priv, tab, a, legal) == 0
        if found is None:
            _play_to_end(st, priv, tab, pids, params, fns, prng, ws)
            out.append(None)
        else:
            seat, pos, legal, chosen = found
            r0 = prng.copy()
            results, after = [], None
            for o in bits(legal):
                s, p, r = st.copy(), priv.copy(), r0.copy()
                assert apply_legal(s, p, tab, np.int64(o), np.int64(legal)) == 0
                _play_to_end(s, p, tab, pids, params, fns, r, ws)
                results.append((o, [int(x) for x in s[POINTS:POINTS + 4]], int(s[MAKER]),
                                int(s[MAKER_TRICKS]) if s[MAKER] >= 0 else -1))
                if o == chosen:
                    after = r
            prng[:] = after
            out.append((seat, pos, legal, chosen, results))
            st = s
        if not st[REDEAL]:
            dealer = (dealer + 1) % players
    return out


CASES = [   # players, deck, policies, decision, position, rule options, deals
    (4, 24, MIX4, "bid1", None, {}, 200),
    (4, 24, MIX4, "bid1", 0, {}, 200),
    (4, 33, ("heuristic", "random", "heuristic", "random"), "bid2", 2, {"stick_the_dealer": True}, 200),
    (4, 24, MIX4, "alone", None, {"defend_alone": True}, 200),
    (4, 24, ("heuristic", "random", "heuristic", "random"), "defend_alone", None, {"defend_alone": True}, 200),
    (4, 24, MIX4, "discard", None, {}, 100),
    (3, 33, ("random", "heuristic", "baseline"), "alone", None, {}, 200),      # Cutthroat: dummy or alone
    (3, 24, ("heuristic", "random", "random"), "defend_alone", 1, {}, 200),
    (3, 24, ("random",), "discard", None, {}, 100),
    (2, 24, ("random", "heuristic"), "bid1", 1, {}, 200),
    (2, 33, ("baseline", "random"), "discard", None, {"joker_upcard": "redeal"}, 200),
    (4, 24, ("dd",), "bid1", None, {}, 12),
]


def _check_twin(spec, decision, position):
    got = cf.play_chunk(spec, 0, decision, position)
    want = twin(spec, 0, cf.decision_phase(decision), position)
    assert len(got) == len(want)
    for i, w in enumerate(want):
        if w is None:
            assert not got.reached[i] and got.n_options[i] == 0 and got.seat[i] == -1 and got.chosen[i] == -1
            continue
        seat, pos, legal, chosen, results = w
        assert got.reached[i]
        assert (got.seat[i], got.pos[i], got.legal[i], got.chosen[i]) == (seat, pos, legal, chosen)
        assert got.n_options[i] == len(results)
        for k, (o, pts, mk, mt) in enumerate(results):
            assert got.options[i, k] == o
            assert list(got.points[i, k]) == pts
            assert got.value[i, k] == pts[seat]
            assert (got.maker[i, k], got.maker_tricks[i, k]) == (mk, mt)
        assert (got.options[i, len(results):] == -1).all()
        assert got.options[i, got.chosen_k[i]] == chosen
    return got


@pytest.mark.slow
@pytest.mark.parametrize("players,deck,policies,decision,position,opts,n", CASES)
def test_kernel_agrees_with_twin(players, deck, policies, decision, position, opts, n):
    got = _check_twin(spec_of(players, deck, policies, n, **opts), decision, position)
    assert got.reached.sum() >= min(5, n // 4)            # the case tests something
    if position is not None:
        assert (got.pos[got.reached] == position).all()
    assert (got.n_options[got.reached] >= 2).all() or decision == "bid2"


@pytest.mark.parametrize("players,deck,policies,decision,position,opts,n", CASES[:-1] + [
    (4, 24, ("pimc", "heuristic", "random", "heuristic"), "bid1", 1, {}, 16)])
def test_chosen_option_is_the_ordinary_hand(players, deck, policies, decision, position, opts, n):
    spec = spec_of(players, deck, policies, n, seed=11, **opts)
    got = cf.play_chunk(spec, 0, decision, position)
    rows = play_chunk(spec, 0).hands
    assert (got.dealer == rows["dealer"]).all()
    for s in range(4):
        assert (got.hands[:, s] == rows[f"hand{s}"]).all()
        assert (got.base_points[:, s] == rows[f"points{s}"]).all()
    assert (got.upcard == rows["upcard"]).all()
    assert (got.dummy == rows["dummy"]).all() and (got.kitty == rows["kitty"]).all()
    r = got.reached
    assert (got.points[r, got.chosen_k[r]] == got.base_points[r]).all()
    mt = got.maker_tricks[r, got.chosen_k[r]]
    assert (mt == np.where(rows["maker"][r] >= 0, rows["maker_tricks"][r], -1)).all()


def test_reached_matches_the_ordinary_hands():
    """bid2 is reached exactly when round one was passed out; lone hands never exist with 2 players."""
    spec = spec_of(4, 33, ("heuristic",), 300, seed=3, joker_upcard="redeal")
    got = cf.play_chunk(spec, 0, "bid2")
    rows = play_chunk(spec, 0).hands
    passed_out = rows["n_calls"] > 4          # round one went round: four passes
    assert (got.reached == passed_out).all()
    assert 0 < got.reached.sum() < len(got)
    assert got.redeal.any() and (got.redeal == rows["redeal"]).all()
    assert not got.reached[got.redeal].any()
    assert np.isnan(got.option_value(1)[~got.reached]).all()
    two = cf.play_chunk(spec_of(2, 24, ("heuristic",), 100), 0, "alone")
    assert not two.reached.any() and (two.n_options == 0).all() and (two.seat == -1).all()


def test_every_option_is_legal():
    """Options against the rules themselves (R5, R6, R8): calls, suits, the dealer's six cards."""
    spec = spec_of(4, 24, MIX4, 200, seed=5, stick_the_dealer=True)
    b1 = cf.play_chunk(spec, 0, "bid1")
    assert (b1.options[b1.reached, :2] == [0, 1]).all() and (b1.n_options[b1.reached] == 2).all()
    b2 = cf.play_chunk(spec, 0, "bid2")
    for i in np.flatnonzero(b2.reached):
        turned = int(b2.upcard[i]) >> 3
        want = [s for s in range(4) if s != turned] + ([] if b2.pos[i] == 0 else [BID2_PASS])
        assert list(b2.options[i, :b2.n_options[i]]) == want
    d = cf.play_chunk(spec, 0, "discard")
    assert d.reached.sum() > 20
    for i in np.flatnonzero(d.reached):
        assert d.seat[i] == d.dealer[i] and d.pos[i] == 0
        held = bits(int(d.hands[i, d.dealer[i]]) | (1 << int(d.upcard[i])))
        assert list(d.options[i, :d.n_options[i]]) == held and len(held) == 6
        assert d.phase == PH_DISCARD


def test_dd_choice_is_never_worse():
    """dd discards by a rollout that solves the play; with dd at every seat the play is dd's own.

    dd values every card and every rollout by its side's points less its
    opponents' (so a defender fights a march as a maker fights a euchre),
    which is the solver's own max/min of the makers' tricks: the hand then
    plays out as the rollout solved it, and dd's discard is never worse
    than another.
    """
    for players in (4, 3):
        got = cf.play_chunk(spec_of(players, 24, ("dd",), 40, seed=2), 0, "discard")
        r = got.reached
        assert r.sum() >= 8
        n = np.arange(len(got))
        opt = np.arange(6) < got.n_options[:, None]
        best = np.where(opt, got.value, -99).max(axis=1)
        chosen = got.value[n, got.chosen_k]
        for i in np.flatnonzero(r):
            assert (got.maker[i, :got.n_options[i]] == got.maker[i, 0]).all()    # the discard names no maker
            assert chosen[i] == best[i], (players, i, got.value[i], got.chosen_k[i])


def test_paired_differences_and_workers():
    spec = run_spec(rules=Rules(players=4), policies=("heuristic",), seed=9, count=300, chunk_size=100)
    one = cf.run(spec, "bid1", position=1)
    two = cf.run(spec, "bid1", position=1, workers=2)
    assert (one.chunk == np.repeat([0, 1, 2], 100)).all()
    for name in ("points", "options", "hands", "chosen"):
        assert (getattr(one, name) == getattr(two, name)).all()
    d = one.differences(1, 0)
    r = one.reached
    assert len(d) == r.sum()
    assert (d == one.value[r, 1] - one.value[r, 0]).all()
    s = one.paired(1, 0)
    assert s["n"] == len(d) and s["low"] < s["mean"] < s["high"]
    assert one.take(r).reached.all()
    with pytest.raises(ValueError):
        cf.run(spec, "play")
    with pytest.raises(ValueError):
        cf.play_chunk(spec, 0, "bid1", position=4)


def test_phase_numbers():
    assert [cf.decision_phase(x) for x in ("order", "name", "alone", "defend", "discard")] == \
        [PH_BID1, PH_BID2, PH_ALONE, PH_DEFEND, PH_DISCARD]
