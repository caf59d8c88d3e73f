"""pimc's ``postpone`` (EPIMC one turn deep): the kernel against a slow, obvious twin, and what it must keep.

The twin plays each world forward in Python: the other seats' cards by
solving every child position (not the solver's per-card mode the kernel
uses), the worlds grouped in a dict by the cards the seat has seen, each
group's best card by its summed points.  Two facts hold whatever the
worlds: with one world, postponing changes nothing (a seat that sees the
whole deal loses nothing by choosing later), and it never values an option
above PIMC (one card shared by a group can do no better than the best card
of each world).
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from euchresim.engine import solver as S
from euchresim.engine.bits import seed_state
from euchresim.engine.hand import apply_action, legal_actions
from euchresim.engine.layout import (AWAY, CFG_PLAYERS, HAND, MAKER_TRICKS, OUT, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND,
                                     PH_DISCARD, PH_DONE, PH_DUMMY, PH_PLAY, PHASE, TO_ACT)
from euchresim.loops.hands import new_workspace
from euchresim.policies import resolve
from euchresim.policies.heuristic import heuristic_decide
from euchresim.policies.sampler import sample_fitting_world
from euchresim.policies.position import load_position
from euchresim.policies.postpone import clear_groups, group_total, postpone_actions, postpone_cards
from euchresim.policies.search import card_values, clear_sums, rollout
from euchresim.policies.search_layout import V_PTS, V_SUM, WR_VAL, WR_WORLD
from euchresim.policies.values import hand_values, makers_mask
from euchresim.rules import Rules
from tests.helpers import run_spec, VARIANTS, replay_by_reference
from tests.test_search_bots import _states

BIDS = (PH_BID1, PH_BID2, PH_ALONE, PH_DEFEND, PH_DISCARD)


def _row(players):
    return resolve(["pimc:postpone=1"], players)[1][0]


def _draw(st, priv, tab, params, n, seed):
    """``n`` worlds that fit what the seat to act has seen (the sampler pimc draws from): its own cards only."""
    ws = new_workspace()
    rng = seed_state(np.random.SeedSequence(seed))
    seat = np.int64(st[TO_ACT])
    out = []
    for _ in range(n):
        sample_fitting_world(st, priv[HAND + seat], priv[AWAY + seat], seat, tab, params, rng, ws)
        out.append(ws[WR_WORLD].copy())
    return out


def _solved(st, priv, tab, ws):
    """The makers' final tricks from a position, solved as a whole (a hand over: its count)."""
    if st[PHASE] == PH_DONE:
        return int(st[MAKER_TRICKS])
    load_position(st, priv, tab, ws[4])
    return int(S.solve_position(ws[0], tab, ws[4], ws[5], S.MODE_EXACT))


def _cards(mask):
    return [c for c in range(33) if (int(mask) >> c) & 1]


def _twin_next_turn(st, priv, tab, ws, seat, pts, key, groups, direct):
    """The twin's play to ``seat``'s next turn: others' cards by solving each child; files the world."""
    players = int(tab[CFG_PLAYERS])
    if (int(st[OUT]) >> seat) & 1:
        direct.append(pts[_solved(st, priv, tab, ws)])
        return
    while st[PHASE] == PH_PLAY and int(st[TO_ACT]) != seat:
        s = int(st[TO_ACT])
        makers = (int(makers_mask(st, players)) >> s) & 1
        best = None
        for c in _cards(legal_actions(st, priv, tab)):
            st2, priv2 = st.copy(), priv.copy()
            apply_action(st2, priv2, tab, c)
            v = _solved(st2, priv2, tab, ws)
            if best is None or (makers and v > best[0]) or (not makers and v < best[0]):
                best = (v, c)
        key = key + (best[1],)
        apply_action(st, priv, tab, best[1])
    if st[PHASE] == PH_DONE:
        direct.append(pts[int(st[MAKER_TRICKS])])
        return
    hand = _cards(priv[HAND + seat])
    legal = set(_cards(legal_actions(st, priv, tab)))
    vals = {}
    for place, c in enumerate(hand):
        if c in legal:
            st2, priv2 = st.copy(), priv.copy()
            apply_action(st2, priv2, tab, c)
            vals[place] = pts[_solved(st2, priv2, tab, ws)]
    g = groups.setdefault(key, {})
    for place, v in vals.items():
        g[place] = g.get(place, 0) + v


def _twin_total(groups, direct):
    return sum(direct) + sum(max(g.values()) for g in groups.values())


def _twin_cards(st, worlds, tab, seat, params):
    """Option (card place) -> total over ``worlds``, by the twin."""
    ws = new_workspace()
    hand_values(st, tab, np.int64(seat), ws, params)
    pts = ws[WR_VAL][V_PTS:V_PTS + 6].copy()
    legal = set(_cards(legal_actions(st, worlds[0], tab)))
    out = {}
    for place, c in enumerate(_cards(worlds[0][HAND + seat])):
        if c not in legal:
            continue
        groups, direct = {}, []
        for w in worlds:
            st2, priv2 = st.copy(), w.copy()
            apply_action(st2, priv2, tab, c)
            _twin_next_turn(st2, priv2, tab, ws, seat, pts, (), groups, direct)
        out[place] = _twin_total(groups, direct)
    return out


def _kernel_cards(st, worlds, tab, seat, params):
    ws = new_workspace()
    hand = worlds[0][HAND + seat]
    legal = legal_actions(st, worlds[0], tab)
    n = len(_cards(hand))
    clear_groups(ws, np.int64(n))
    hand_values(st, tab, np.int64(seat), ws, params)
    for w in worlds:
        postpone_cards(st, w, tab, ws, np.int64(seat), hand, legal)
    return {p: int(group_total(ws, np.int64(p))) for p, c in enumerate(_cards(hand)) if (int(legal) >> c) & 1}


def _pimc_cards(st, worlds, tab, seat, params):
    ws = new_workspace()
    clear_sums(ws)
    hand_values(st, tab, np.int64(seat), ws, params)
    for w in worlds:
        card_values(st, w, tab, ws, np.int64(seat), np.int64(1))
    return ws[WR_VAL][V_SUM:V_SUM + 5].copy()


def _play_states(players, deck, n, seed):
    """Play states where the seat to act holds three cards or more: a later choice to postpone to."""
    tab, states = _states(Rules(players=players, deck=deck), n, seed=seed)
    keep = []
    for st, priv in states:
        seat = int(st[TO_ACT])
        if len(_cards(priv[HAND + seat])) >= 3 and len(_cards(legal_actions(st, priv, tab))) >= 2:
            keep.append((st, priv))
    return tab, keep


@pytest.mark.parametrize("players,deck", [(4, 24), (3, 25), (2, 32)])
def test_the_postponed_card_values_are_the_twins(players, deck):
    tab, states = _play_states(players, deck, 30, seed=40 + players)
    params = _row(players)
    assert len(states) >= 5
    for i, (st, priv) in enumerate(states[:8]):
        seat = int(st[TO_ACT])
        worlds = _draw(st, priv, tab, params, 12, seed=i)
        assert _kernel_cards(st, worlds, tab, seat, params) == _twin_cards(st, worlds, tab, seat, params)


def test_one_world_postponed_is_pimc():
    """A seat that sees the whole deal loses nothing by choosing its next card later: PIMC's value exactly."""
    tab, states = _play_states(4, 24, 30, seed=7)
    params = _row(4)
    for st, priv in states[:10]:
        seat = int(st[TO_ACT])
        worlds = [priv] * 3
        pimc = _pimc_cards(st, worlds, tab, seat, params)
        for place, total in _kernel_cards(st, worlds, tab, seat, params).items():
            assert total == pimc[place]


@settings(max_examples=15, deadline=None)
@given(hs.integers(0, 10_000))
def test_postponing_never_values_a_card_above_pimc(seed):
    tab, states = _play_states(4, 24, 6, seed=seed)
    params = _row(4)
    for st, priv in states[:2]:
        seat = int(st[TO_ACT])
        worlds = _draw(st, priv, tab, params, 10, seed=seed)
        pimc = _pimc_cards(st, worlds, tab, seat, params)
        for place, total in _kernel_cards(st, worlds, tab, seat, params).items():
            assert total <= pimc[place]


def _twin_actions(st, worlds, tab, seat, params):
    """A call's options by the twin: heuristic to the lead, the calls heard the key's start, then as for cards."""
    ws = new_workspace()
    out = {}
    for k, a in enumerate(_cards(legal_actions(st, worlds[0], tab))):
        groups, direct = {}, []
        for w in worlds:
            st2, priv2 = st.copy(), w.copy()
            apply_action(st2, priv2, tab, a)
            key = ()
            while st2[PHASE] not in (PH_DONE, PH_PLAY):
                s = int(st2[TO_ACT])
                ph = int(st2[PHASE])
                b = heuristic_decide(st2, priv2[HAND + s], priv2[AWAY + s], np.int64(s),
                                     legal_actions(st2, priv2, tab), params, tab)
                if not (ph in (PH_DISCARD, PH_DUMMY) and s != seat):
                    key = key + (("call", ph, int(b)),)
                apply_action(st2, priv2, tab, b)
            if st2[PHASE] == PH_DONE:
                direct.append(0)        # thrown in: no points (objective points)
                continue
            hand_values(st2, tab, np.int64(seat), ws, params)
            pts = ws[WR_VAL][V_PTS:V_PTS + 6].copy()
            _twin_next_turn(st2, priv2, tab, ws, seat, pts, key, groups, direct)
        out[k] = _twin_total(groups, direct)
    return out


def _kernel_actions(st, worlds, tab, seat, params):
    ws = new_workspace()
    legal = legal_actions(st, worlds[0], tab)
    n = len(_cards(legal))
    clear_groups(ws, np.int64(n))
    for w in worlds:
        postpone_actions(st, w, tab, ws, np.int64(seat), legal, params)
    return {k: int(group_total(ws, np.int64(k))) for k in range(n)}


def _bid_states(players, deck, n, seed):
    tab, states = _states(Rules(players=players, deck=deck), 30 * n, seed=seed, stop_in_play=False)
    return tab, [(st, priv) for st, priv in states if st[PHASE] in BIDS][:n]


@pytest.mark.parametrize("players,deck", [(4, 24), (3, 24), (2, 25)])
def test_the_postponed_call_values_are_the_twins(players, deck):
    tab, states = _bid_states(players, deck, 6, seed=60 + players)
    params = _row(players)
    assert len(states) >= 3
    for i, (st, priv) in enumerate(states):
        seat = int(st[TO_ACT])
        worlds = _draw(st, priv, tab, params, 8, seed=i)
        assert _kernel_actions(st, worlds, tab, seat, params) == _twin_actions(st, worlds, tab, seat, params)


def test_one_world_postponed_call_is_the_rollout():
    tab, states = _bid_states(4, 24, 8, seed=5)
    params = _row(4)
    ws = new_workspace()
    for st, priv in states:
        seat = np.int64(st[TO_ACT])
        got = _kernel_actions(st, [priv] * 2, tab, int(seat), params)
        for k, a in enumerate(_cards(legal_actions(st, priv, tab))):
            assert got[k] == 2 * rollout(st, priv, tab, ws, np.int64(a), seat, params)


@pytest.mark.slow
@pytest.mark.parametrize("players,deck", VARIANTS)
def test_postponing_plays_legally_in_every_variant(players, deck):
    from euchresim.run import runner
    opts = {"defend_alone": True} if players == 4 else {"stick_the_dealer": True}
    rules = Rules(players=players, deck=deck, **opts)
    res = runner.play_chunk(run_spec(rules=rules, policies=("pimc:worlds=4:bid_worlds=3:postpone=1",),
                                           count=30, seed=players + deck), 0)
    assert replay_by_reference(rules, res) == 30


def test_postpone_changes_pimcs_play_and_calls():
    """The parameter reaches both kinds of decision: over the same states and worlds some card's and some call's
    value differ (a decision itself changes rarely: few sampled worlds show the seat the same cards)."""
    from euchresim.policies.pimc import pimc_decide
    off = resolve(["pimc:worlds=30:bid_worlds=30"], 4)[1][0]
    on = resolve(["pimc:worlds=30:bid_worlds=30:postpone=1"], 4)[1][0]
    changed = {"play": 0, "call": 0}
    for kind, (tab, states) in (("play", _play_states(4, 24, 40, seed=3)), ("call", _bid_states(4, 24, 40, seed=3))):
        for i, (st, priv) in enumerate(states):
            seat = np.int64(st[TO_ACT])
            legal = legal_actions(st, priv, tab)
            sums = []
            for row in (off, on):
                ws = new_workspace()
                rng = seed_state(np.random.SeedSequence(i))       # the same worlds for both
                pimc_decide(st, priv[HAND + seat], priv[AWAY + seat], seat, legal, row, rng, tab, ws)
                sums.append(ws[WR_VAL][V_SUM:V_SUM + 5].copy())
            changed[kind] += not np.array_equal(sums[0], sums[1])
    assert changed["play"] > 0 and changed["call"] > 0, changed
