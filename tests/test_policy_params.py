"""Every parameter of every built-in moves play the way its doc says, and only where its doc says.

A parameter no test tells apart is untested: swapping two thresholds (the
defend-alone counts of Cutthroat and of four players, say) would pass every
other test.  So each declared name of ``POLICIES[...].params`` has a case
here, and ``test_every_declared_parameter_has_a_case`` fails on a new one
without.  A case plays the same seeded deals twice, with the default and
with the parameter moved, and counts what the doc says should change (the
orders at one position, the lone makers, the lone defenders ...); the deals
do not depend on the policies, so the difference is paired and the margin is
3 standard errors of a difference of counts, 3 sqrt(a + b).  A parameter
scoped to a variant (``dummy``, ``two_hand``, ``alone``, ``defend``,
``defend_cutthroat``) must also change nothing, not one row, in the others.

``dd`` and ``pimc`` take heuristic's parameters: with ``search_bids=0`` they
call as heuristic, so each bidding parameter must give their calls exactly
as ``heuristic`` with the same setting gives its own, on deals where that
setting changes heuristic's calls.  heuristic's card-play parameters reach
pimc only through ``fair_bids``' rollouts; in ``dd``, which plays every card
double-dummy and samples no worlds, ``lead_trump``, ``through`` and
``max_worlds`` would reach nothing, so dd does not declare them (refused by name).
Parameters are named, never slots:
``heuristic:order_2=0`` is read by ``policies.parse`` as the command line
reads it.
"""
from math import sqrt

import numpy as np
import pytest

from euchresim.policies import POLICIES, parse
from euchresim.rules import Rules
from euchresim.run import runner
from tests.test_heuristic import card, decide, state
from tests.helpers import run_spec

N = 6000          # hands per count: heuristic and baseline play thousands in a few hundredths of a second

FOUR = dict(players=4, deck=24)
FOUR_DEFEND = dict(players=4, deck=24, defend_alone=True)
FOUR_JOKER = dict(players=4, deck=25)
THREE = dict(players=3, deck=24)
TWO = dict(players=2, deck=24)
VARIANTS = {"4": FOUR_DEFEND, "3": THREE, "2": TWO}


def hands(policy, rules, n=N, seed=1):
    spec = run_spec(rules=Rules(**rules), policies=(policy,), seed=seed, count=n, chunk_size=n)
    return runner.play_chunk(spec, 0).hands


# ---- what a case counts, from the hand rows ----------------------------------------------------

def made(round_, *positions):
    """Hands made in ``round_`` by a maker at heuristic's ``positions`` (1 the dealer's left ... 4 the dealer)."""
    pos = [0 if p == 4 else p for p in positions]          # maker_pos counts from the dealer, 0

    def count(r):
        return (r["make_round"] == round_) & np.isin(r["maker_pos"], pos) & (r["maker"] >= 0)
    count.__name__ = f"made in round {round_} at positions {positions}"
    return count


def made_r1(r):
    return (r["make_round"] == 1) & (r["maker"] >= 0)


def lone_makers(r):
    return r["maker_alone"]


def lone_defenders(r):
    return r["defender_alone"]


# every seat passes round one, so round two is reached on every deal
PASS_1 = "order_1=30:order_2=30:order_3=30:order_4=30"

# (rules, setting, what it counts by hand, +1: the count rises / -1: it falls[, the other settings of both])
HEURISTIC = {
    "order_1": (FOUR, "order_1=0", made(1, 1), +1),
    "order_2": (FOUR, "order_2=0", made(1, 2), +1),
    "order_3": (FOUR, "order_3=0", made(1, 3), +1),
    "order_4": (FOUR, "order_4=0", made(1, 4), +1),
    "name_1": (FOUR, "name_1=0", made(2, 1), +1, PASS_1),
    "name_2": (FOUR, "name_2=0", made(2, 2), +1, PASS_1),
    "name_3": (FOUR, "name_3=0", made(2, 3), +1, PASS_1),
    "name_4": (FOUR, "name_4=0", made(2, 4), +1, PASS_1),
    "alone": (FOUR, "alone=6", lone_makers, +1),
    "alone_top": (FOUR, "alone_top=2", lone_makers, -1),
    "defend": (FOUR_DEFEND, "defend=4", lone_defenders, +1),
    "defend_cutthroat": (THREE, "defend_cutthroat=4", lone_defenders, +1),
    "joker": (FOUR_JOKER, "joker=10", made_r1, +1),
    "right": (FOUR, "right=10", made_r1, +1),
    "left": (FOUR, "left=10", made_r1, +1),
    "trump_ace": (FOUR, "trump_ace=10", made_r1, +1),
    "trump_king": (FOUR, "trump_king=10", made_r1, +1),
    "trump_low": (FOUR, "trump_low=10", made_r1, +1),
    "off_ace": (FOUR, "off_ace=10", made_r1, +1),
    "off_king": (FOUR, "off_king=10", made_r1, +1),
    "void": (FOUR, "void=10", made_r1, +1),
    "up_partner": (FOUR, "up_partner=2", made(1, 2), +1),
    "up_opponent": (FOUR, "up_opponent=2", made(1, 1, 3), -1),
    "dummy": (THREE, "dummy=-10", made_r1, -1),
    "two_hand": (TWO, "two_hand=10", made_r1, +1),
    "next": (FOUR, "next=5", made(2, 1, 3), +1, PASS_1),
    "lead_trump": "test_lead_trump_is_the_trumps_a_maker_needs_to_lead_a_low_one",
    "through": "test_through_is_the_trumps_a_defender_needs_to_lead_through_the_maker",
}

BASELINE = {
    "order": (FOUR, "order=2", made_r1, +1),
    "name": (FOUR, "name=2", made(2, 1, 2, 3, 4), +1, "order=20"),
    "alone": (FOUR, "alone=5", lone_makers, +1),
    "defend": (FOUR_DEFEND, "defend=1", lone_defenders, +1),
    "partner_up": (FOUR, "partner_up=3", made(1, 2), +1),
    "defend_cutthroat": (THREE, "defend_cutthroat=1", lone_defenders, +1),
}

# the variants in which a parameter must change nothing at all (its doc scopes it to the others)
NOWHERE_ELSE = {
    "heuristic": {"alone": ("3", "2"), "alone_top": ("3", "2"), "defend": ("3", "2"), "defend_cutthroat": ("4", "2"),
                  "dummy": ("4", "2"), "two_hand": ("4", "3"), "up_partner": ("3", "2")},
    "baseline": {"defend": ("3", "2"), "defend_cutthroat": ("4", "2")},
}

# the search bots: heuristic's parameters reach their calls (search_bids=0); their own, each by its test
SEARCH_OWN = {
    "worlds": "test_worlds_change_the_card_play_and_not_the_calls",
    "bid_worlds": "test_bid_worlds_change_the_calls_only_when_they_are_searched",
    "search_bids": "test_search_bids_0_calls_as_heuristic_and_1_by_search",
    "infer": "test_infer_changes_pimcs_play",
    "play_infer": "test_play_infer_weighs_the_worlds_by_the_play_seen_and_infer_eps_softens_it",
    "infer_eps": "test_play_infer_weighs_the_worlds_by_the_play_seen_and_infer_eps_softens_it",
    "fair_bids": "test_fair_bids_plays_calls_out_with_heuristic_so_its_play_parameters_reach_them",
    "objective": "tests/test_objective_game.py::test_objective_game_plays_differently_where_the_score_decides_and_"
                 "points_is_pimc",
    "max_worlds": "tests/test_fair_bids.py::test_max_worlds_at_or_below_the_batch_is_pimc_and_above_it_changes_play",
    "postpone": "tests/test_postpone.py::test_postpone_changes_pimcs_play_and_calls",
    "alone_by": "tests/test_alone_by.py::test_alone_by_fair_is_fair_bids_at_the_alone_decisions_only",
}
# heuristic's card-play parameters: reached in pimc by fair_bids' rollouts; dd plays every card double-dummy
PLAY = ("lead_trump", "through")
DD_OBJECTIVE = "test_dd_objective_game_changes_play_in_games"


def cases():
    out = {("heuristic", k): v for k, v in HEURISTIC.items()}
    out.update({("baseline", k): v for k, v in BASELINE.items()})
    for bot in ("dd", "pimc"):
        for p in POLICIES[bot].params:
            if p.name in SEARCH_OWN:
                out[(bot, p.name)] = DD_OBJECTIVE if (bot, p.name) == ("dd", "objective") else SEARCH_OWN[p.name]
            elif p.name in PLAY:
                out[(bot, p.name)] = "test_fair_bids_plays_calls_out_with_heuristic_so_its_play_parameters_reach_them"
            elif p.name in HEURISTIC:
                out[(bot, p.name)] = "test_heuristics_bidding_parameters_reach_the_search_bots_calls"
    return out


def test_every_declared_parameter_has_a_case():
    declared = {(bot, p.name) for bot in ("baseline", "heuristic", "dd", "pimc") for p in POLICIES[bot].params}
    assert declared - set(cases()) == set(), "a parameter without a test of its effect"
    assert set(cases()) - declared == set(), "a case for a parameter no longer declared"
    here = set(globals())
    for case in cases().values():
        if isinstance(case, str) and "::" not in case:
            assert case in here, case
        elif isinstance(case, str):
            path, name = case.split("::")
            with open(path, encoding="utf-8") as fh:
                assert f"def {name}(" in fh.read(), case


def _moves(policy, rules, setting, count, direction, context=""):
    """The count moves by more than 3 standard errors of a paired difference: sqrt(the hands that differ)."""
    base = f"{policy}:{context}" if context else policy
    x, y = count(hands(base, rules)), count(hands(f"{base}:{setting}", rules))
    a, b, margin = int(x.sum()), int(y.sum()), 3 * sqrt(int((x != y).sum()))
    assert direction * (b - a) > max(margin, 0), f"{base}:{setting} {count.__name__}: {a} -> {b} (margin {margin:.1f})"


@pytest.mark.parametrize("name", sorted(k for k, v in HEURISTIC.items() if isinstance(v, tuple)))
def test_a_heuristic_parameter_moves_what_its_doc_says(name):
    _moves("heuristic", *HEURISTIC[name])


@pytest.mark.parametrize("name", sorted(BASELINE))
def test_a_baseline_parameter_moves_what_its_doc_says(name):
    _moves("baseline", *BASELINE[name])


@pytest.mark.parametrize("policy,name,variant", sorted((pol, name, v) for pol, d in NOWHERE_ELSE.items()
                                                        for name, vs in d.items() for v in vs))
def test_a_variants_parameter_changes_nothing_in_the_others(policy, name, variant):
    info = POLICIES[policy].param(name)
    moved = info.lo if info.default != info.lo else info.hi
    rules = VARIANTS[variant]
    assert hands(f"{policy}:{name}={moved:g}", rules, n=500).tobytes() == hands(policy, rules, n=500).tobytes()


def test_the_defend_alone_thresholds_are_told_apart():
    """Four players read ``defend``, Cutthroat ``defend_cutthroat``: each moves its own variant's lone defenders."""
    for policy in ("heuristic", "baseline"):
        for name, rules, other in (("defend", FOUR_DEFEND, THREE), ("defend_cutthroat", THREE, FOUR_DEFEND)):
            setting = HEURISTIC[name][1] if policy == "heuristic" else BASELINE[name][1]
            assert lone_defenders(hands(f"{policy}:{setting}", rules)).sum() > lone_defenders(hands(policy, rules)).sum()
            assert (lone_defenders(hands(f"{policy}:{setting}", other)) == lone_defenders(hands(policy, other))).all()


# ---- heuristic's card play, on hand-built positions ----------------------------------------------

def _row(spec):
    return parse(spec).row


def test_lead_trump_is_the_trumps_a_maker_needs_to_lead_a_low_one():
    hand = "QH TH 9H AC KD"           # three trumps, none the top one: the bowers and the ace are out
    assert decide(state(maker=0), 0, hand, params=_row("heuristic")) == card("9H")        # lead_trump 3
    assert decide(state(maker=0), 0, hand, params=_row("heuristic:lead_trump=4")) != card("9H")
    assert decide(state(maker=0), 0, "TH 9H AC KD QS", params=_row("heuristic:lead_trump=2")) == card("9H")
    assert decide(state(maker=0), 0, "TH 9H AC KD QS", params=_row("heuristic")) != card("9H")


def test_through_is_the_trumps_a_defender_needs_to_lead_through_the_maker():
    hand = "QH TH 9H AC KD"           # seat 3 leads and the maker, seat 0, plays next
    assert decide(state(maker=0), 3, hand, params=_row("heuristic")) == card("9H")        # through 3
    assert decide(state(maker=0), 3, hand, params=_row("heuristic:through=4")) != card("9H")
    assert decide(state(maker=0), 3, "TH 9H AC KD QS", params=_row("heuristic:through=2")) == card("9H")
    assert decide(state(maker=0), 1, hand, params=_row("heuristic:through=2")) != card("9H")   # the maker is behind


# ---- the search bots ------------------------------------------------------------------------------

CALLS = ["n_calls"] + [f"call{k}" for k in range(1, 9)] + ["maker", "trump", "alone", "maker_alone",
                                                           "defender_alone", "discard", "dummy_keep"]
PLAYED = [f"trick{k}" for k in range(1, 6)] + ["tricks0", "tricks1", "tricks2", "tricks3"]
FAST = "worlds=2:bid_worlds=2"


def _columns(r, names):
    return np.stack([r[c].astype(np.int64) for c in names]).tobytes()


def calls(policy, rules, n=300):
    return _columns(hands(policy, rules, n=n), CALLS)


def played(policy, rules, n=300):
    return _columns(hands(policy, rules, n=n), PLAYED)


@pytest.mark.parametrize("bot", ["dd", "pimc"])
@pytest.mark.parametrize("name", sorted(k for k, v in HEURISTIC.items() if isinstance(v, tuple)))
def test_heuristics_bidding_parameters_reach_the_search_bots_calls(bot, name):
    rules, setting = HEURISTIC[name][:2]
    context = ":" + HEURISTIC[name][4] if len(HEURISTIC[name]) > 4 else ""
    base = f"{bot}:search_bids=0" + (f":{FAST}:infer=0" if bot == "pimc" else "") + context
    heuristic = "heuristic" + context
    assert calls(f"{heuristic}:{setting}", rules) != calls(heuristic, rules), "no deal here tells the setting apart"
    assert calls(f"{base}:{setting}", rules) == calls(f"{heuristic}:{setting}", rules)


def test_search_bids_0_calls_as_heuristic_and_1_by_search():
    for bot in ("dd", f"pimc:{FAST}"):
        assert calls(f"{bot}:search_bids=0", FOUR) == calls("heuristic", FOUR)
        assert calls(f"{bot}:search_bids=1", FOUR) != calls("heuristic", FOUR)


def test_worlds_change_the_card_play_and_not_the_calls():
    """With the calls by heuristic (no draws), worlds moves the play; bid_worlds (below) moves nothing."""
    one, eight = "pimc:worlds=1:bid_worlds=2:search_bids=0", "pimc:worlds=8:bid_worlds=2:search_bids=0"
    assert calls(one, FOUR) == calls(eight, FOUR)
    assert played(one, FOUR) != played(eight, FOUR)


def test_bid_worlds_change_the_calls_only_when_they_are_searched():
    assert calls("pimc:worlds=2:bid_worlds=1", FOUR) != calls("pimc:worlds=2:bid_worlds=8", FOUR)
    assert hands("pimc:worlds=2:bid_worlds=1:search_bids=0", FOUR, n=300).tobytes() == \
        hands("pimc:worlds=2:bid_worlds=8:search_bids=0", FOUR, n=300).tobytes()


def test_play_infer_weighs_the_worlds_by_the_play_seen_and_infer_eps_softens_it():
    assert played(f"pimc:{FAST}:play_infer=4", FOUR) != played(f"pimc:{FAST}", FOUR)
    assert played(f"pimc:{FAST}:play_infer=4:infer_eps=0.5", FOUR) != played(f"pimc:{FAST}:play_infer=4", FOUR)
    assert hands(f"pimc:{FAST}:infer_eps=0.5", FOUR, n=300).tobytes() == hands(f"pimc:{FAST}", FOUR, n=300).tobytes()


def test_infer_changes_pimcs_play():
    assert played(f"pimc:{FAST}:infer=0", FOUR) != played(f"pimc:{FAST}", FOUR)


@pytest.mark.slow
def test_fair_bids_plays_calls_out_with_heuristic_so_its_play_parameters_reach_them():
    fair = f"pimc:{FAST}:fair_bids=1"
    assert calls(fair, FOUR) != calls(f"pimc:{FAST}", FOUR)
    for name, moved in (("lead_trump", 6), ("through", 1)):
        assert calls(f"{fair}:{name}={moved}", FOUR) != calls(fair, FOUR), name
        assert hands(f"pimc:{FAST}:{name}={moved}", FOUR).tobytes() == hands(f"pimc:{FAST}", FOUR).tobytes(), name


def test_dd_objective_game_changes_play_in_games():
    def games(policy):
        spec = run_spec(rules=Rules(), policies=(policy,), seed=3, count=20, mode="games")
        return runner.play_chunk(spec, 0).hands.tobytes()
    assert games("dd:objective=game") != games("dd")


@pytest.mark.parametrize("name", ("lead_trump", "through", "max_worlds"))
def test_dd_refuses_what_would_reach_nothing(name):
    """dd plays every card double-dummy and samples no worlds: heuristic's card play and max_worlds are not its."""
    from euchresim.policies import PolicyError
    assert POLICIES["dd"].param(name) is None and POLICIES["pimc"].param(name) is not None
    with pytest.raises(PolicyError, match=f"dd has no parameter '{name}'"):
        parse(f"dd:{name}=1")


def test_a_key_set_twice_is_one_setting_its_last_value_where_it_first_stood():
    """One bot, one canonical name: ``best:max_worlds=300`` is best's definition with max_worlds changed, not
    the definition with a second max_worlds after it (two names for one bot split a run's resume and a
    report's quotes); the row is the one the name written once gives."""
    import numpy as np
    from euchresim.policies import BEST, canonical, parse
    assert BEST.count("max_worlds=") == 1
    twice = parse("best:max_worlds=300:worlds=20")
    once = parse(BEST.replace(BEST.split("max_worlds=")[1].split(":")[0], "300", 1) + ":worlds=20")
    assert twice.name == once.name and twice.name.count("max_worlds=") == 1 and "max_worlds=300" in twice.name
    assert np.array_equal(twice.row, once.row)
    assert canonical("heuristic:order_1=5:order_2=6:order_1=7") == "heuristic:order_1=7:order_2=6"
    human = canonical("heuristic:human:order_1=5")
    assert human.startswith("heuristic:order_1=5:") and human.count("order_1=") == 1


def test_a_names_head_is_its_family_read_without_loading_it():
    """policies.head: the first part, lower-cased and stripped; a user's module is never imported for it."""
    from euchresim.policies import head
    assert head("best:worlds=20") == "best" and head(" OpenSpiel:ismcts:sims=10 ") == "openspiel"
    assert head("heuristic") == "heuristic" and head("no_such_module:bot:check") == "no_such_module"


def test_identity_of_a_written_out_name_ignores_the_order_of_its_settings_and_reads_nothing():
    from euchresim.policies import identity
    assert identity("pimc:bid_worlds=100:max_worlds=200") == identity(" PIMC:max_worlds=200:bid_worlds=100 ")
    assert identity("pimc:worlds=20:worlds=30") == ("pimc", (("worlds", "30"),), ())      # the later setting
    assert identity("pimc:worlds=20") != identity("pimc:worlds=30")
    assert identity("best") == ("best", (), ())                                           # not read as pimc
    assert identity("mymod:bot:risk=0.2:check") == ("mymod:bot", (("risk", "0.2"),), ("check",))
    assert identity("no.such.module:f") == ("no.such.module:f", (), ())                   # nothing loaded
