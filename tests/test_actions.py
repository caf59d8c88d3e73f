"""``euchresim.actions``, the one table of action names (issue 37): every action the engine offers in every
variant has its words, every row is an action the engine offers, and a name read back gives its code."""
import random

import numpy as np
import pytest

from euchresim import actions
from euchresim.actions import ACTIONS, CALL_WORDS, call_word, code_of, entry, name, with_alone
from euchresim.cards import card_str
from euchresim.engine import layout
from euchresim.engine.hand import call_action
from euchresim.engine.layout import CFG_NPACK, PH_BID1, PH_BID2, PH_DUMMY, T_PACK
from euchresim.engine.tables import build_tables
from euchresim.engine.state import Hand
from euchresim.policies.decision import _actions
from euchresim.records.format import call_str, parse_call
from euchresim.rules import Rules
from euchresim.run import runner
from tests.helpers import VARIANTS

COLUMNS = ("record", "bot", "said", "advice")
HANDS = 60


def _options(players):
    yield {}
    yield {"stick_the_dealer": True}
    if players == 4:
        yield {"defend_alone": True}


def _offered(rules, seed) -> set[tuple[int, int]]:
    """(phase, code) of every legal action met stepping HANDS hands of random choices (the keep: its board)."""
    tab = build_tables(rules)
    drng, _ = runner.chunk_states(seed, 0)
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    pick = random.Random(seed)
    seen = set()
    for k in range(HANDS):
        h = Hand(tab)
        h.deal_next(work, drng, np.zeros(4, np.int64), k % rules.players)
        while not h.done:
            legal = h.legal()
            if h.phase == PH_DUMMY:
                cards = [c for c in range(legal.bit_length()) if legal >> c & 1]
                a = sum(1 << c for c in pick.sample(cards, 5))
                seen.add((h.phase, a))
            else:
                codes = h.legal_list()
                seen.update((h.phase, c) for c in codes)
                a = pick.choice(codes)
            assert not h.apply(a)
    return seen


@pytest.fixture(scope="module")
def offered():
    """Per variant and option set, every (phase, code) the engine offered."""
    out = {}
    for players, deck in VARIANTS:
        for opts in _options(players):
            rules = Rules(players=players, deck=deck, **opts)
            out[players, deck, tuple(opts)] = _offered(rules, seed=players * 100 + deck)
    return out


def test_the_phases_and_codes_are_the_engines():
    assert layout.PHASE_NAMES is actions.PHASE_NAMES
    by = {"JOKER": "joker_suit", "BID1": "bid1", "BID2": "bid2", "ALONE": "alone", "DEFEND": "defend_alone",
          "DISCARD": "discard", "DUMMY": "dummy_keep", "PLAY": "play", "DONE": "done"}
    assert {actions.PHASE_NAMES[getattr(layout, "PH_" + k)]: k for k in by} == {v: k for k, v in by.items()}
    assert (layout.BID2_PASS, layout.CALL_PASS, layout.CALL_ORDER, layout.CALL_SUIT0) == (4, 0, 1, 2)


def test_every_offered_action_of_every_variant_has_every_name(offered):
    for (players, deck, opts), seen in offered.items():
        for ph, code in seen:
            phase = actions.PHASE_NAMES[ph]
            for col in COLUMNS:
                for dealer in (False, True):
                    word = name(ph, code, col, players, dealer)
                    assert isinstance(word, str) and word, (players, deck, opts, phase, code, col)
            if phase in actions.CARD_PHASES:
                assert {name(ph, code, col, players) for col in COLUMNS} == {card_str(code)}
            elif phase != "dummy_keep":
                assert entry(ph, code) is ACTIONS[phase, code], (players, deck, opts, phase, code)


def test_every_row_is_an_action_the_engine_offers(offered):
    met = {(actions.PHASE_NAMES[ph], code) for seen in offered.values() for ph, code in seen}
    assert set(ACTIONS) <= met, sorted(set(ACTIONS) - met)
    for phase in ("bid1", "bid2", "alone", "discard", "play"):
        assert any(p == phase for p, _ in met), phase


@pytest.mark.parametrize("players", [2, 3, 4])
def test_names_round_trip(players):
    for (phase, code) in ACTIONS:
        for col in ("bot", "said"):
            for dealer in (False, True):
                assert code_of(phase, name(phase, code, col, players, dealer), col, players) == code
        legal = (1 << code)
        assert [a.name for a in _actions(actions.PHASE_NAMES.index(phase), legal)] == [name(phase, code)]
        assert _actions(actions.PHASE_NAMES.index(phase), legal)[0].code == code


def test_the_record_call_words_round_trip_and_stay_as_published():
    assert CALL_WORDS == ("pass", "order", "C", "D", "H", "S")          # docs/hand-record.md: never changes
    for c, word in enumerate(CALL_WORDS):
        assert call_str(c) == call_word(c) == word and parse_call(word) == c == parse_call(word.lower())
        phase = PH_BID1 if c == 1 else PH_BID2
        assert name(phase, call_action(phase, c), "record") == word
    assert name("bid1", call_action(PH_BID1, 0), "record") == "pass"
    assert call_action(PH_BID1, 2) == call_action(PH_BID2, 1) == -1        # a suit in round one, order in two


def test_the_words_a_player_is_shown_depend_on_players_and_the_dealer():
    assert [name("alone", a, "said", 4) for a in (0, 1)] == ["with partner", "alone"]
    assert [name("alone", a, "said", 3) for a in (0, 1)] == ["take the dummy", "alone"]
    assert [name("alone", a, "bot", 3) for a in (0, 1)] == ["not alone", "alone"]
    assert [name("defend_alone", a, "said") for a in (0, 1)] == ["defend with partner", "defend alone"]
    assert name("bid1", 1, "said", dealer=True) == "pick up" and name("bid1", 1, "record", dealer=True) == "order"
    assert name("joker_suit", 2, "said") == "hearts" and name("joker_suit", 2, "advice") == "H"
    assert [with_alone("order", a, 4) for a in (0, 1)] == ["order", "order alone"]
    assert [with_alone("hearts", a, 3) for a in (0, 1)] == ["hearts, take the dummy", "hearts alone"]
    keep = sum(1 << c for c in (0, 1, 2, 3, 31))
    assert name("dummy_keep", keep, "bot") == "keep 7C 8C 9C TC AS"
    assert name("dummy_keep", keep, "record") == "AS TC 9C 8C 7C"
