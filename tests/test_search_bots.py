"""The search bots (``dd``, ``pimc``): legal everywhere, optimal where they can see, honest samplers.

* ``dd`` sees every hand, so each card it plays must be one the solver
  rates best for its side's points (the solver has its own brute-force
  twin, tests/test_solver.py); each call it makes must be the one whose
  rollout scores best, recomputed here by a plain Python loop.
* ``pimc`` deals the unseen cards: every world must hold what the seat
  cannot see and nothing it can (each seat's count, its own cards, the
  cards played, the upcard in the dealer's hand once taken, the voids it
  has shown), and must reach every card a seat could hold.
* the bidding inference accepts the true deal when heuristic made the
  calls (a world that did happen is always a world that fits).
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from euchresim.run import runner
from euchresim.loops.hands import new_workspace
from euchresim.engine import solver as S
from euchresim.engine.layout import POS_SIZE, RES_SIZE, R_CARD, R_CVAL
from euchresim.engine.bits import seed_state
from euchresim.engine.deal import deal
from euchresim.engine.hand import apply_legal, legal_actions, start_hand
from euchresim.engine.layout import (AWAY, CFG_NPACK, DEALER, DUMMY, DUMMY_KEEP, EXCHANGED, MAKER, HAND, NPLAYS, OUT, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DONE, PH_DUMMY, PH_PLAY, PHASE, PLAYS, PRIV_SIZE, ST_SIZE, T_PACK, TO_ACT, TRUMP, UPCARD)
from euchresim.policies import resolve
from euchresim.policies.dd import dd_decide
from euchresim.policies.heuristic import heuristic_decide
from euchresim.policies.sampler import calls_fit, sample_world, void_cards
from euchresim.policies.position import load_position
from euchresim.policies.search import rollout
from euchresim.policies.search_layout import V_N, V_PTS, V_SUM, WR_VAL, WR_WORLD
from euchresim.policies.values import points_table
from euchresim.rules import Rules
from euchresim.engine.tables import build_tables
from tests.helpers import run_spec, VARIANTS, bits, replay_by_reference


def _states(rules, n, seed, stop_in_play=True, policy_row=None):
    """States of hands heuristic played, each stopped at a random decision (in the play, if asked)."""
    tab = build_tables(rules)
    _, params, _ = resolve(["heuristic"], rules.players)
    row = params[0] if policy_row is None else policy_row
    drng = seed_state(np.random.SeedSequence(seed))
    pick = np.random.default_rng(seed)
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    out = []
    tries = 0
    while len(out) < n and tries < 50 * n:
        tries += 1
        hands = np.zeros(4, np.int64)
        dummy, up, kitty = deal(tab, work, drng, hands)
        st, priv = np.zeros(ST_SIZE, np.int64), np.zeros(PRIV_SIZE, np.int64)
        start_hand(st, priv, tab, np.int64(tries % rules.players), hands, dummy, up, kitty)
        stop = int(pick.integers(0, 24))
        k = 0
        while st[PHASE] != PH_DONE:
            legal = legal_actions(st, priv, tab)
            if k >= stop and (st[PHASE] == PH_PLAY or not stop_in_play):
                out.append((st.copy(), priv.copy()))
                break
            seat = int(st[TO_ACT])
            a = heuristic_decide(st, priv[HAND + seat], priv[AWAY + seat], np.int64(seat), legal, row, tab)
            assert apply_legal(st, priv, tab, a, legal) == 0
            k += 1
    return tab, out


@pytest.mark.parametrize("players,deck", VARIANTS)
def test_the_search_bots_play_legally_in_every_variant(players, deck):
    opts = {"defend_alone": True} if players == 4 else {"stick_the_dealer": True}
    rules = Rules(players=players, deck=deck, **opts)
    lineups = [("dd",), ("pimc:worlds=4:bid_worlds=3",),
               ("pimc:worlds=4:bid_worlds=3:search_bids=0",) + ("dd",) * (players - 1)]
    for names in lineups:
        res = runner.play_chunk(run_spec(rules=rules, policies=names, count=60, seed=players + deck), 0)
        assert replay_by_reference(rules, res) == 60      # every move checked against the rules


def _side_points(tab, st, seat, ws, mt):
    """What a search bot maximises, from score_hand on a copy (not from points_table's arithmetic)."""
    from euchresim.engine.hand import score_hand
    from euchresim.engine.layout import MAKER, POINTS, TRICKS
    players = int(tab[0])
    s2 = st.copy()
    s2[TRICKS:TRICKS + 4] = 0
    maker = int(st[MAKER])
    s2[TRICKS + maker] = mt
    score_hand(s2, tab)
    makers = {maker, (maker + 2) % 4} if players == 4 else {maker}
    side = mt if seat in makers else 5 - mt
    if players == 3:          # every player for himself: less the mean of the other two (issue 35)
        others = [int(s2[POINTS + s]) for s in range(3) if s != seat]
        return round(16 * (int(s2[POINTS + seat]) - sum(others) / 2)) + side
    opp = next(s for s in range(players) if s not in makers) if seat in makers else maker
    return 16 * (int(s2[POINTS + seat]) - int(s2[POINTS + opp])) + side


def test_the_value_is_points_less_the_opponents_then_tricks():
    """4 players, seat 0 the maker with its partner: a march, a make and a euchre, valued by hand."""
    rules = Rules()
    tab, states = _states(rules, 30, seed=5)
    ws = new_workspace()
    from euchresim.engine.layout import ALONE, MAKER
    st = next(st for st, _ in states if st[ALONE] == 0)
    maker = int(st[MAKER])
    partner, defender = (maker + 2) % 4, (maker + 1) % 4
    expect = {maker: {5: 16 * 2 + 5, 3: 16 * 1 + 3, 2: 16 * -2 + 2},
              partner: {5: 16 * 2 + 5, 3: 16 * 1 + 3, 2: 16 * -2 + 2},
              defender: {5: 16 * -2 + 0, 3: 16 * -1 + 2, 2: 16 * 2 + 3}}
    for seat, by_tricks in expect.items():
        points_table(st, tab, np.int64(seat), ws)
        for mt, v in by_tricks.items():
            assert ws[WR_VAL][V_PTS + mt] == v == _side_points(tab, st, seat, ws, mt)


def test_a_cutthroat_defender_values_a_hand_against_both_rivals():
    """Cutthroat (issue 35): a defender's stake is its points less the mean of the other two's.

    The other defender scores what this one does, so a euchre gains a
    defender 2 on the maker and nothing on its co-defender: +1 against the
    field, not +2; a made hand costs it 1/2, a march 3/2. The maker's stake
    is unchanged (less either defender's). Valued against the maker alone, a
    defender counted every other seat's call at twice its cost to it, and
    the search called from the dealer's left on 90% of deals.
    """
    rules = Rules(players=3)
    tab, states = _states(rules, 40, seed=5)
    ws = new_workspace()
    from euchresim.engine.layout import ALONE, MAKER
    st = next(st for st, _ in states if st[ALONE] == 0)
    maker = int(st[MAKER])
    defender = (maker + 1) % 3
    expect = {maker: {5: 16 * 3 + 5, 3: 16 * 1 + 3, 2: 16 * -2 + 2},
              defender: {5: 8 * -3 + 0, 3: 8 * -1 + 2, 2: 8 * 2 + 3}}
    for seat, by_tricks in expect.items():
        points_table(st, tab, np.int64(seat), ws)
        for mt, v in by_tricks.items():
            assert ws[WR_VAL][V_PTS + mt] == v == _side_points(tab, st, seat, ws, mt)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_dd_plays_a_card_the_solver_rates_best(players):
    rules = Rules(players=players, deck=24 if players == 4 else 32)
    tab, states = _states(rules, 120, seed=players)
    ws = new_workspace()
    pos = np.zeros(POS_SIZE, np.int64)
    res = np.zeros(RES_SIZE, np.int64)
    _, params, _ = resolve(["dd"], players)
    checked = 0
    for st, priv in states:
        seat = int(st[TO_ACT])
        legal = legal_actions(st, priv, tab)
        if len(bits(legal)) < 2:
            continue
        a = dd_decide(st, priv, np.int64(seat), legal, params[0], seed_state(np.random.SeedSequence(0)), tab, ws)
        load_position(st, priv, tab, pos)
        S.solve_position(S.new_workspace(), tab, pos, res, S.MODE_EXACT | S.MODE_CARDS)
        value = {int(res[R_CARD + k]): int(res[R_CVAL + k]) for k in range(5) if res[R_CVAL + k] >= 0}
        best = max(_side_points(tab, st, seat, ws, v) for v in value.values())
        assert _side_points(tab, st, seat, ws, value[int(a)]) == best
        checked += 1
    assert checked >= 60


def test_dd_calls_are_the_best_rollout():
    rules = Rules(defend_alone=True)
    tab, states = _states(rules, 150, seed=9, stop_in_play=False)
    ws = new_workspace()
    _, params, _ = resolve(["dd"], 4)
    rng = seed_state(np.random.SeedSequence(0))
    seen = set()
    for st, priv in states:
        if st[PHASE] not in (PH_BID1, PH_BID2, PH_ALONE, PH_DEFEND, PH_DISCARD):
            continue
        seat = int(st[TO_ACT])
        legal = legal_actions(st, priv, tab)
        values = {a: rollout(st, priv, tab, ws, np.int64(a), np.int64(seat), params[0]) for a in bits(legal)}
        a = dd_decide(st, priv, np.int64(seat), legal, params[0], rng, tab, ws)
        assert values[int(a)] == max(values.values())
        assert int(a) == min(k for k, v in values.items() if v == max(values.values()))   # ties: the lowest
        seen.add(int(st[PHASE]))
    assert {PH_BID1, PH_BID2} <= seen


def _check_world(st, priv, tab, seat, world, exact, players):
    played = {int(st[PLAYS + k]) for k in range(int(st[NPLAYS]))}
    up = int(st[UPCARD])
    mine = set(bits(priv[HAND + seat])) | set(bits(priv[AWAY + seat]))
    dealt = set()
    for s in range(players):
        h = set(bits(world[HAND + s]))
        assert not (h & dealt)                       # no card twice
        dealt |= h
        if s == seat:
            assert h == set(bits(priv[HAND + s]))
            continue
        if (st[OUT] >> s) & 1:
            assert not h
            continue
        assert len(h) == len(bits(priv[HAND + s]))   # as many cards as the seat holds
        assert not (h & played) and not (h & mine)
        took_up = st[EXCHANGED] == 1 and s == st[DEALER] and up not in played
        # the Cutthroat dealer-maker kept 5 of 10 unseen: it may hold the upcard or not; no one else may
        if not (took_up and players == 3 and priv[DUMMY_KEEP] != 0 and s == st[MAKER]):
            assert (up in h) == bool(took_up)
        if exact:
            assert not (h & set(bits(void_cards(st, tab, s))))
    return dealt


@pytest.mark.parametrize("players,deck", [(4, 24), (4, 33), (3, 25), (2, 32)])
def test_sampled_worlds_hold_what_the_seat_cannot_see(players, deck):
    rules = Rules(players=players, deck=deck)
    tab, states = _states(rules, 80, seed=deck)
    rng = seed_state(np.random.SeedSequence(1))
    world = np.zeros(PRIV_SIZE, np.int64)
    for st, priv in states:
        seat = int(st[TO_ACT])
        for _ in range(8):
            exact = sample_world(st, priv[HAND + seat], priv[AWAY + seat], np.int64(seat), tab, rng, world)
            _check_world(st, priv, tab, seat, world, exact, players)
        # the true deal obeys every void the sampler enforces
        for s in range(players):
            assert priv[HAND + s] & void_cards(st, tab, s) == 0


def test_sampled_worlds_reach_every_card_a_seat_may_hold():
    rules = Rules()
    tab, states = _states(rules, 6, seed=3)
    rng = seed_state(np.random.SeedSequence(2))
    world = np.zeros(PRIV_SIZE, np.int64)
    for st, priv in states:
        seat = int(st[TO_ACT])
        reached = [0] * 4
        for _ in range(400):
            sample_world(st, priv[HAND + seat], priv[AWAY + seat], np.int64(seat), tab, rng, world)
            for s in range(4):
                reached[s] |= int(world[HAND + s])
        for s in range(4):
            if s == seat or (st[OUT] >> s) & 1 or not priv[HAND + s]:
                continue
            may = set()                  # the cards in play the seat does not see, less the voids
            for t in range(4):
                may |= set(bits(priv[HAND + t])) if t != seat and not (st[OUT] >> t) & 1 else set()
            may -= set(bits(void_cards(st, tab, s)))
            if st[EXCHANGED] == 1 and s != st[DEALER]:
                may.discard(int(st[UPCARD]))
            assert may <= set(bits(reached[s])), (s, sorted(may - set(bits(reached[s]))))


def test_dummy_taken_is_what_the_maker_kept_said_publicly():
    """``view.dummy_taken`` reads only the public state; the private keep says the truth (0 until taken)."""
    from euchresim.engine.layout import DUMMY_KEEP
    from euchresim.policies.view import dummy_taken
    seen = set()
    for players, deck in ((3, 25), (3, 24), (4, 24)):
        tab, states = _states(Rules(players=players, deck=deck), 300, seed=deck + players, stop_in_play=False)
        for st, priv in states:
            taken = bool(dummy_taken(st, tab))
            assert taken == (priv[DUMMY_KEEP] != 0), (players, int(st[PHASE]), int(st[TRUMP]))
            seen.add((players, taken))
    assert seen == {(3, True), (3, False), (4, False)}


def test_a_cutthroat_world_has_a_dummy_while_the_keep_is_to_come():
    tab, states = _states(Rules(players=3, deck=25), 200, seed=4, stop_in_play=False)
    rng = seed_state(np.random.SeedSequence(3))
    world = np.zeros(PRIV_SIZE, np.int64)
    before = 0
    for st, priv in states:
        if st[PHASE] > PH_DUMMY:
            continue
        before += 1
        seat = int(st[TO_ACT])
        world[:] = 0
        sample_world(st, priv[HAND + seat], priv[AWAY + seat], np.int64(seat), tab, rng, world)
        dummy = set(bits(world[DUMMY]))
        assert len(dummy) == 5 and not dummy & set(bits(world[HAND] | world[HAND + 1] | world[HAND + 2]))
    assert before >= 50


@settings(max_examples=60, deadline=None)
@given(hs.integers(0, 10**6), hs.sampled_from([(4, 24), (3, 25)]))
def test_the_true_deal_fits_the_calls_heuristic_made(seed, variant):
    players, deck = variant
    rules = Rules(players=players, deck=deck)
    tab, states = _states(rules, 1, seed=seed)
    if not states:
        return
    st, priv = states[0]
    _, params, _ = resolve(["pimc"], players)
    ws = new_workspace()
    seat = int(st[TO_ACT])
    if st[EXCHANGED] == 1 and seat != st[DEALER]:
        return          # the dealer's discard is unseen: the fit draws a stand-in for it
    ws[WR_WORLD][:PRIV_SIZE] = priv
    for s in range(players):
        if s != seat:
            ws[WR_WORLD][AWAY + s] = 0
    assert calls_fit(st, ws[WR_WORLD], np.int64(seat), tab, params[0], seed_state(np.random.SeedSequence(0)), ws)


def test_pimc_sums_are_paired_over_the_same_worlds():
    """With one world equal to the truth, pimc's card values are dd's."""
    rules = Rules()
    tab, states = _states(rules, 40, seed=21)
    ws = new_workspace()
    _, params, _ = resolve(["dd"], 4)
    from euchresim.policies.search import card_values, clear_sums
    for st, priv in states:
        seat = int(st[TO_ACT])
        clear_sums(ws)
        points_table(st, tab, seat, ws)
        card_values(st, priv, tab, ws, np.int64(seat), np.int64(1))
        once = ws[WR_VAL][V_SUM:V_SUM + 5].copy()
        card_values(st, priv, tab, ws, np.int64(seat), np.int64(1))
        assert np.array_equal(ws[WR_VAL][V_SUM:V_SUM + 5], 2 * once)
        assert np.all(ws[WR_VAL][V_N:V_N + 5] <= 2)


def test_worlds_dd_tricks_is_the_brute_force_value_of_each_card_and_deal_world_a_fair_deal():
    """policies.worlds: what a user's policy calls; late positions, so the brute force is quick."""
    from euchresim.engine.layout import MAKER, NINTRICK, PLAY_SEAT, TRICKS
    from euchresim.policies.worlds import dd_tricks, deal_world
    from tests.test_solver import brute
    checked = 0
    for players, deck in ((4, 24), (3, 25), (2, 32)):
        tab, states = _states(Rules(players=players, deck=deck), 60, seed=players)
        for st, priv in states:
            if st[NPLAYS] < 2 * players:
                continue
            seat, maker, n, nin = int(st[TO_ACT]), int(st[MAKER]), int(st[NPLAYS]), int(st[NINTRICK])
            makers = (1 << maker) | ((1 << ((maker + 2) % 4)) if players == 4 else 0)
            hands = [bits(priv[HAND + s]) for s in range(4)]
            table = [(int(st[PLAY_SEAT + k]), int(st[PLAYS + k])) for k in range(n - nin, n)]
            mtricks = sum(int(st[TRICKS + s]) for s in range(4) if (makers >> s) & 1)
            value, per_card = brute(players, int(st[TRUMP]), hands, seat, table, makers, int(st[OUT]), mtricks)
            out = np.zeros(33, np.int64)
            assert dd_tricks(st, priv, tab, out) == value
            assert {c: int(out[c]) for c in range(33) if out[c] >= 0} == per_card
            world = deal_world(st, priv[HAND + seat], priv[AWAY + seat], np.int64(seat), tab,
                               seed_state(np.random.SeedSequence(checked)))
            _check_world(st, priv, tab, seat, world, 1, players)
            checked += 1
    assert checked >= 40
