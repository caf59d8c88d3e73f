"""euchresim policies as OpenSpiel bots (euchresim.interop.openspiel, docs/openspiel.md).

Complete OpenSpiel euchre games with our bots at every seat, under both
parameters: every action legal in OpenSpiel, and OpenSpiel's returns equal
to the points of euchresim's own replay of the same hand (``record_of`` ->
``replay_record``).  Skipped where OpenSpiel is not installed.
"""
import subprocess
import sys

import pytest

pyspiel = pytest.importorskip("pyspiel")

from euchresim.cards import card_str   # noqa: E402
from euchresim.engine.layout import PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_PLAY   # noqa: E402
from euchresim.interop import openspiel as osp   # noqa: E402
from euchresim.policies import PolicyError   # noqa: E402
from euchresim.loops.record_steps import replay_record   # noqa: E402
from euchresim.rules import Rules   # noqa: E402

SETTINGS = [
    {"allow_lone_defender": False, "stick_the_dealer": True},     # OpenSpiel's defaults
    {"allow_lone_defender": True, "stick_the_dealer": False},
]
LINEUPS = [
    ("random",) * 4,
    ("baseline",) * 4,
    ("baseline", "random", "random", "baseline"),
]


def _game(params):
    return pyspiel.load_game("euchre", params)


def _play(game, bots, seed, seen=None):
    """One complete game, chance sampled from `seed`; every bot action checked legal."""
    import random
    rng = random.Random(seed)
    state = game.new_initial_state()
    for b in bots:
        b.restart_at(state)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = [a for a, _ in state.chance_outcomes()]
            a = rng.choice(outcomes)
        else:
            p = state.current_player()
            legal = state.legal_actions()
            a = bots[p].step(state)
            assert a in legal, (p, state.action_to_string(a), legal, str(state))
            if seen is not None:
                seen(state, p, a, bots[p])
        state.apply_action(a)
    return state


# ---- mappings ---------------------------------------------------------------------
def test_card_mapping_round_trips():
    state = _game(SETTINGS[0]).new_initial_state()
    state.apply_action(0)                       # the dealer: now actions name cards
    ours = set()
    for a in range(24):
        c = osp.card_from_openspiel(a)
        assert osp.card_to_openspiel(c) == a
        # OpenSpiel writes suit then rank ("C9"), euchresim rank then suit ("9C")
        assert card_str(c) == state.action_to_string(a)[::-1]
        ours.add(c)
    assert ours == {8 * s + r for s in range(4) for r in range(2, 8)}      # the 24-card pack, 9..A
    for c in ours:
        assert osp.card_from_openspiel(osp.card_to_openspiel(c)) == c
    for bad in (0, 1, 8, 32):                   # sevens, eights, the joker
        with pytest.raises(ValueError, match="24-card pack"):
            osp.card_to_openspiel(bad)
    with pytest.raises(ValueError, match="not a card"):
        osp.card_from_openspiel(24)


def test_action_mapping_round_trips():
    state = _game(SETTINGS[0]).new_initial_state()
    state.apply_action(0)
    names = {a: state.action_to_string(a) for a in range(24, 31)}
    assert [names[a] for a in range(24, 31)] == ["Pass", "Clubs", "Diamonds", "Hearts", "Spades",
                                                 "Alone", "Partner"]
    for bidsuit in range(4):
        for ours in (0, 1):
            a = osp.action_to_openspiel(PH_BID1, ours, bidsuit)
            assert a == (osp.OS_SUIT0 + bidsuit if ours else osp.OS_PASS)
            assert osp.action_from_openspiel(PH_BID1, a) == ours
    for ours in range(5):                       # a suit 0..3, or 4 = pass
        a = osp.action_to_openspiel(PH_BID2, ours)
        assert names[a] == ("Pass" if ours == 4 else ["Clubs", "Diamonds", "Hearts", "Spades"][ours])
        assert osp.action_from_openspiel(PH_BID2, a) == ours
    for ph in (PH_ALONE, PH_DEFEND):
        for ours in (0, 1):
            a = osp.action_to_openspiel(ph, ours)
            assert names[a] == ("Alone" if ours else "Partner")
            assert osp.action_from_openspiel(ph, a) == ours
    for ph in (PH_DISCARD, PH_PLAY):
        for a in range(24):
            assert osp.action_to_openspiel(ph, osp.action_from_openspiel(ph, a)) == a
    with pytest.raises(ValueError):
        osp.action_from_openspiel(PH_ALONE, osp.OS_PASS)


def test_points_to_returns():
    assert osp.points_to_returns([1, 0, 1, 0]) == [1.0, -1.0, 1.0, -1.0]
    assert osp.points_to_returns([0, 4, 0, 4]) == [-4.0, 4.0, -4.0, 4.0]
    assert osp.points_to_returns([0, 0, 0, 0]) == [0.0] * 4


# ---- rules ---------------------------------------------------------------------------
def test_rules_for_both_parameters():
    for lone in (False, True):
        for stick in (False, True):
            r = osp.rules_for(_game({"allow_lone_defender": lone, "stick_the_dealer": stick}))
            assert r == Rules(players=4, deck=24, stick_the_dealer=stick, defend_alone=lone)
    assert osp.rules_for(pyspiel.load_game("euchre")) == Rules(stick_the_dealer=True)   # OpenSpiel's defaults
    assert osp.rules_for({}) == Rules(stick_the_dealer=True)


def _one_line_error(exc_type, fn, *args, match=None):
    with pytest.raises(exc_type, match=match) as info:
        fn(*args)
    msg = str(info.value)
    assert msg and "\n" not in msg
    return msg


def test_what_cannot_be_mirrored_is_one_line():
    msg = _one_line_error(ValueError, osp.rules_for, pyspiel.load_game("kuhn_poker"), match="'euchre' only")
    assert "kuhn_poker" in msg
    _one_line_error(ValueError, osp.rules_for, {"stick_the_dealer": True, "num_decks": 2}, match="num_decks")
    _one_line_error(ValueError, osp.rules_for, {"stick_the_dealer": "yes"}, match="true or false")
    _one_line_error(ValueError, osp.EuchresimBot, pyspiel.load_game("kuhn_poker"), 0, match="'euchre' only")
    game = _game(SETTINGS[0])
    msg = _one_line_error(PolicyError, osp.EuchresimBot, game, 2, "nosuchbot", match="unknown policy")
    assert "seat 2" in msg and "random" in msg
    _one_line_error(PolicyError, osp.EuchresimBot, game, 0, "baseline:nope=1", match="no parameter")
    _one_line_error(ValueError, osp.EuchresimBot, game, 4, match="seat 0..3")


def test_import_euchresim_never_imports_pyspiel():
    code = ("import sys, euchresim, euchresim.interop, euchresim.cli, euchresim.run.runner; "
            "assert 'pyspiel' not in sys.modules, 'pyspiel imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


# ---- complete games ------------------------------------------------------------------
class Paths:
    """Which of the adapter's mappings the games went through (so the test knows it tested them)."""

    def __init__(self):
        self.n = dict(dealer_alone_plan=0, defend_out_of_order=0, lone_defender=0,
                      maker_alone=0, thrown_in=0, dealer_out_discarded=0, partner_answer=0)

    def seen(self, state, p, a, bot):
        m = osp._Mirror(osp._history(state), bot._rules, bot._tab)
        kind = m.os_phase()
        if kind == "alone" and p == m.dealer and bot._plan is not None:
            assert (a == osp.OS_ALONE) == bot._plan[1]          # the answer given at the discard
            self.n["dealer_alone_plan"] += 1
        if kind == "defend":
            if not m.maker_alone:
                assert a == osp.OS_PARTNER
                self.n["partner_answer"] += 1
            elif m.st[osp.TO_ACT] != p:
                self.n["defend_out_of_order"] += 1


def _check_game(state, paths):
    rec = osp.record_of(state)
    out = replay_record(rec)
    assert "error" not in out and "mismatch" not in out, (rec, out)
    assert osp.points_to_returns(out["points"]) == state.returns(), (rec, out, state.returns())
    if out["maker"] is not None:        # every card of the hand played (5 tricks of the active seats)
        assert len(rec["plays"]) == 5 * (4 - (len(rec["alone"]) if rec["alone"] else 0))
    n = paths.n
    n["thrown_in"] += out["maker"] is None
    if rec["alone"]:
        n["maker_alone"] += 1
        n["lone_defender"] += len(rec["alone"]) == 2
    if len(rec["calls"]) <= 4 and rec["calls"][-1] == "order" and rec["discard"] is None:
        n["dealer_out_discarded"] += 1             # OpenSpiel's dealer discarded, then sat out
    if rec["discard"] is not None:
        # the dealer discarded a held card, never the upcard (OpenSpiel forces the pick-up)
        assert rec["discard"] != rec["upcard"]
        assert rec["discard"] in rec["hands"][rec["dealer"]]


@pytest.mark.slow
@pytest.mark.parametrize("params", SETTINGS, ids=["defaults", "lone-defender"])
def test_complete_games_legal_and_equal_to_our_replay(params):
    game = _game(params)
    paths = Paths()
    games = 0
    for li, lineup in enumerate(LINEUPS):
        bots = [osp.EuchresimBot(game, s, lineup[s], seed=100 * li + s) for s in range(4)]
        for g in range(200 if li < 2 else 100):
            state = _play(game, bots, seed=10_000 * li + g, seen=paths.seen)
            _check_game(state, paths)
            games += 1
    n = paths.n
    assert games == 500
    assert n["maker_alone"] > 0 and n["dealer_alone_plan"] > 0 and n["dealer_out_discarded"] > 0
    if params["allow_lone_defender"]:
        assert n["lone_defender"] > 0 and n["defend_out_of_order"] > 0 and n["partner_answer"] > 0
    else:
        assert n["lone_defender"] == 0 and n["partner_answer"] == 0
    if params["stick_the_dealer"]:
        assert n["thrown_in"] == 0
    else:
        assert n["thrown_in"] > 0


@pytest.mark.slow
def test_declined_exchange_discards_the_lowest_card():
    """A random dealer puts the upcard away 1 time in 6; OpenSpiel gets the lowest held card instead."""
    game = _game(SETTINGS[0])
    bots = [osp.EuchresimBot(game, s, "random", seed=7 + s) for s in range(4)]
    declined = 0
    for g in range(120):
        state = game.new_initial_state()
        import random
        rng = random.Random(g)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            p = state.current_player()
            bot = bots[p]
            m = osp._Mirror(osp._history(state), bot._rules, bot._tab)
            if m.os_phase() == "discard":
                rng_before = bot._rng.copy()
                a = bot.step(state)
                # what the policy chose in euchresim's terms, from the same random stream
                bot._rng[:] = rng_before
                h = m.hand.copy()
                while h.phase in (PH_ALONE, PH_DEFEND):
                    if h.phase == PH_ALONE and h.to_act == p:
                        m.apply(bot._decide(h, PH_ALONE), h)
                    else:
                        m.apply(0, h)
                wanted = bot._decide(h, PH_DISCARD)
                if wanted == m.upcard:
                    declined += 1
                    trump = int(h.st[osp.TRUMP])
                    held = [c for c in range(32) if (h.hand_of(p) >> c) & 1]
                    order = [int(bot._tab[osp.T_ORDER + 33 * trump + c]) for c in held]
                    assert osp.card_from_openspiel(a) == held[order.index(min(order))]
                else:
                    assert osp.card_from_openspiel(a) == wanted
            else:
                a = bot.step(state)
            assert a in state.legal_actions()
            state.apply_action(a)
        out = replay_record(osp.record_of(state))
        assert osp.points_to_returns(out["points"]) == state.returns()
    assert declined > 0


def test_heuristic_at_some_seats_plays_legally():
    for params in SETTINGS:
        game = _game(params)
        lineup = ("heuristic", "baseline", "heuristic:order_2=4.5", "random")
        bots = [osp.EuchresimBot(game, s, lineup[s], seed=s) for s in range(4)]
        for g in range(40):
            state = _play(game, bots, seed=500 + g)
            out = replay_record(osp.record_of(state))
            assert "error" not in out
            assert osp.points_to_returns(out["points"]) == state.returns()


def test_against_openspiel_random_bots():
    """Our bots among OpenSpiel's own: legal throughout, even against its lone defender vs a partnership."""
    game = _game(SETTINGS[1])
    unmirrored = 0
    for g in range(150):
        bots = [osp.EuchresimBot(game, 0, "baseline", seed=g), pyspiel.make_uniform_random_bot(1, g),
                osp.EuchresimBot(game, 2, "random", seed=g), pyspiel.make_uniform_random_bot(3, g + 1)]
        state = _play(game, bots, seed=900 + g)
        m = osp._Mirror(osp._history(state), osp.rules_for(game), osp.cached_tables(osp.rules_for(game)))
        if m.unmirrored:
            unmirrored += 1
            msg = _one_line_error(ValueError, osp.record_of, state, match="against a maker with a partner")
            assert f"seat {m.lone_defender}" in msg
        else:
            out = replay_record(osp.record_of(state))
            assert "error" not in out, out
            assert osp.points_to_returns(out["points"]) == state.returns()
    assert unmirrored > 0


def test_evaluate_bots_and_restart():
    game = _game(SETTINGS[1])
    bots = [osp.EuchresimBot(game, s, "baseline", seed=s) for s in range(4)]
    assert [b.player_id() for b in bots] == [0, 1, 2, 3]
    results = []
    for seed in range(20):
        state = game.new_initial_state()
        returns = pyspiel.evaluate_bots(state, bots, seed)
        assert state.is_terminal() and list(returns) == state.returns()
        out = replay_record(osp.record_of(state))
        assert osp.points_to_returns(out["points"]) == list(returns)
        results.append(list(returns))
    again = [osp.EuchresimBot(game, s, "baseline", seed=s) for s in range(4)]
    assert [list(pyspiel.evaluate_bots(game.new_initial_state(), again, seed)) for seed in range(20)] == results
    with pytest.raises(ValueError, match="asked to act for player"):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.legal_actions()[0])
        bots[(state.current_player() + 1) % 4].step(state)


def test_record_of_a_game_in_progress():
    game = _game(SETTINGS[0])
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="still in its deal"):
        osp.record_of(state)
    for a in [2] + list(range(21)):            # dealer 2, cards 0..19 dealt, the upcard 20 (AC)
        state.apply_action(a)
    rec = osp.record_of(state)
    assert rec["dealer"] == 2 and rec["upcard"] == "AC" and rec["calls"] == [] and rec["plays"] == []
    assert rec["rules"] == {"stick_the_dealer": True}
    assert sorted(rec["kitty"]) == sorted(["AD", "AH", "AS"])
    # the first card dealt goes to the dealer (OpenSpiel deals from the dealer round)
    assert "9C" in rec["hands"][2] and "9D" in rec["hands"][3] and "9H" in rec["hands"][0]




def _dealt(state):
    """The hands as dealt and the kitty, read from an OpenSpiel euchre history (the dealer, 20 cards from the
    dealer round, the upcard; the kitty the cards never dealt), without replaying the play."""
    h = state.history()
    dealer, cards = h[0], h[1:21]
    hands = [set() for _ in range(4)]
    for i, c in enumerate(cards):
        hands[(dealer + i) % 4].add(c)
    return hands, set(range(24)) - set(cards) - {h[21]}


def test_openspiels_resampling_keeps_the_kitty_and_ignores_shown_voids():
    """What docs/policies.md says of IS-MCTS against our bots.  OpenSpiel's euchre, when it deals the unseen cards
    again for a seat (``ResampleFromInfostate``, the worlds its IS-MCTS searches), keeps the kitty as it really
    is: the search knows which three cards are out of play, where our bots deal them among the unseen cards.  And
    it deals a seat cards of a suit the seat has shown it lacks: some of its worlds cannot be, which our replay
    refuses (a seat that did not follow suit holding that suit).  The other seats' cards are dealt afresh (checked
    too, or the kitty's check says nothing)."""
    import random
    game, rng = _game(SETTINGS[0]), random.Random(13)
    worlds, moved, impossible = 0, 0, 0
    for _ in range(300):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        stop = rng.randrange(len(state.history()) + 1, len(state.history()) + 30)
        while not state.is_terminal() and len(state.history()) < stop:
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        seat, (hands, kitty) = state.current_player(), _dealt(state)
        in_play = len(osp.record_of(state)["plays"]) >= 5
        for _ in range(5):
            world = state.resample_from_infostate(seat, rng.random)
            again, again_kitty = _dealt(world)
            worlds += 1
            assert again_kitty == kitty and again[seat] == hands[seat]
            moved += any(again[p] != hands[p] for p in range(4) if p != seat)
            if in_play:
                try:
                    osp.record_of(world)
                except RuntimeError as e:
                    assert "refused action" in str(e)
                    impossible += 1
    assert worlds >= 500 and moved >= worlds // 2 and impossible >= 20, (worlds, moved, impossible)


@pytest.mark.slow
def test_the_worlds_docs_policies_quotes_are_what_the_script_prints(capsys):
    """docs/policies.md quotes scripts/openspiel_worlds.py (IS-MCTS's worlds): the script, run here, prints them."""
    import importlib.util
    import os
    import re
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spec = importlib.util.spec_from_file_location("openspiel_worlds", os.path.join(root, "scripts", "openspiel_worlds.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.main()
    out = capsys.readouterr().out
    decisions, worlds = re.search(r"(\d+) decisions from the second trick on, (\d+) worlds", out).groups()
    kept = re.search(r"kitty as it really is: (\d+) of", out).group(1)
    impossible, pct = re.search(r"cannot be \(.*\): (\d+) of \d+ \(([\d.]+)%\)", out).groups()
    assert kept == worlds
    page = " ".join(open(os.path.join(root, "docs", "policies.md"), encoding="utf-8").read().split())
    assert (f"of {int(worlds):,} worlds drawn at {int(decisions):,} decisions from the second trick on" in page
            and f"{int(impossible):,} ({pct}%) cannot be" in page), out
