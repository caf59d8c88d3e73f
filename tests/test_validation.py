"""Negative cases for every check of ``rules.Rules``, ``rules.ScoringTable``
and the ``records.parse_record`` checks that tests/test_records.py and
tests/test_rules.py leave out; and the kernel's own dummy-keep check (R9).

Each refusal must name the field and the rule id, and where an option is
only for some player counts (or packs) every combination is tried both
ways: refused where it does not apply, accepted where it does.
"""
import json
from dataclasses import replace

import numpy as np
import pytest

from euchresim.cards import card_str, cards_of, pack_mask, parse_board
from euchresim.records.format import RecordError, parse_record
from euchresim.rules import CUTTHROAT, FOUR_HAND, SCORE_CASES, TWO_HAND, Rules, RulesError, ScoringTable


def refused(rule, *fields, **options):
    """The RulesError message for Rules(**options); it must name the rule id and each field."""
    with pytest.raises(RulesError) as ei:
        Rules(**options)
    return checked(str(ei.value), rule, *fields)


def checked(msg, rule, *fields):
    assert "\n" not in msg
    assert f"({rule})" in msg, msg
    for f in fields:
        assert f in msg, (f, msg)
    return msg


# ------------------------------------------------------------------ Rules: each value

@pytest.mark.parametrize("bad", [0, 1, 5, "4", None, True])
def test_r3_rules_players_must_be_2_3_or_4(bad):
    refused("R3", "players", repr(bad), players=bad)


@pytest.mark.parametrize("bad", [23, 26, 52, "24", None])
def test_r1_rules_deck_must_be_24_25_32_or_33(bad):
    refused("R1", "deck", repr(bad), deck=bad, players=4)


@pytest.mark.parametrize("bad", ["X", "joker", "", "SS", None, 3])
def test_r7_rules_joker_upcard_must_be_a_choice(bad):
    refused("R7", "joker_upcard", deck=25, joker_upcard=bad)


@pytest.mark.parametrize("bad", [1, 0, "true", None])
def test_r8_rules_defend_alone_must_be_true_or_false(bad):
    refused("R8", "defend_alone", defend_alone=bad)


@pytest.mark.parametrize("bad", ["left", "", None, 1])
def test_r10_rules_both_alone_lead_must_be_a_choice(bad):
    refused("R10", "both_alone_lead", players=3, both_alone_lead=bad)


@pytest.mark.parametrize("bad", [0, 6, 11, "10", None])
def test_r12_rules_game_to_must_be_5_7_or_10(bad):
    refused("R12", "game_to", game_to=bad)


@pytest.mark.parametrize("bad", ["lower", "", None, 0])
def test_r12_rules_cutthroat_tie_must_be_a_choice(bad):
    refused("R12", "cutthroat_tie", players=3, cutthroat_tie=bad)


@pytest.mark.parametrize("bad", [{}, None, "default", ScoringTable().table])
def test_r11_rules_scoring_must_be_a_scoring_table(bad):
    refused("R11", "scoring", scoring=bad)


@pytest.mark.parametrize("field,bad,rule", [("players", 3.0, "R3"), ("deck", 24.0, "R1"),
                                            ("game_to", 5.0, "R12")])
def test_rules_whole_number_options_refuse_floats(field, bad, rule):
    refused(rule, field, **{field: bad})


# ------------------------------------------------------------------ Rules: options for some variants

@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("tie", ["maker", "higher", "shared"])
def test_r12_cutthroat_tie_only_with_3_players(players, tie):
    if tie == "maker" or players == 3:
        assert Rules(players=players, cutthroat_tie=tie).cutthroat_tie == tie
    else:
        refused("R12", "cutthroat_tie", "3 players", players=players, cutthroat_tie=tie)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("lead", ["defender", "maker"])
def test_r10_both_alone_lead_maker_only_with_3_players(players, lead):
    if lead == "defender" or players == 3:
        assert Rules(players=players, both_alone_lead=lead).both_alone_lead == lead
    else:
        refused("R10", "both_alone_lead", "3 players", players=players, both_alone_lead=lead)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r8_defend_alone_only_with_4_players(players):
    assert Rules(players=players, defend_alone=False).defend_alone is False
    if players == 4:
        assert Rules(players=4, defend_alone=True).defend_alone is True
    else:
        # 3 players: a defender may always go alone (R9); 2 players: nobody goes alone (R8)
        refused("R9" if players == 3 else "R8", "defend_alone", players=players, defend_alone=True)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("deck", [24, 25, 32, 33])
@pytest.mark.parametrize("mode", ["redeal", "C", "D", "H", "S"])
def test_r7_joker_upcard_option_only_with_a_joker_pack(players, deck, mode):
    assert Rules(players=players, deck=deck).joker_upcard == "dealer-names"
    if deck in (25, 33):
        assert Rules(players=players, deck=deck, joker_upcard=mode).joker_upcard == mode
    else:
        refused("R7", "joker_upcard", str(deck), players=players, deck=deck, joker_upcard=mode)


def test_presets_changed_with_replace_are_checked_too():
    for preset, change, rule in [(FOUR_HAND, {"cutthroat_tie": "shared"}, "R12"),
                                 (TWO_HAND, {"cutthroat_tie": "higher"}, "R12"),
                                 (FOUR_HAND, {"both_alone_lead": "maker"}, "R10"),
                                 (TWO_HAND, {"defend_alone": True}, "R8"),
                                 (CUTTHROAT, {"defend_alone": True}, "R9"),
                                 (CUTTHROAT, {"players": 4, "cutthroat_tie": "shared"}, "R12"),
                                 (FOUR_HAND, {"joker_upcard": "redeal"}, "R7")]:
        with pytest.raises(RulesError) as ei:
            replace(preset, **change)
        checked(str(ei.value), rule, *[k for k in change if k != "players"])
    assert replace(CUTTHROAT, cutthroat_tie="shared").cutthroat_tie == "shared"


# ------------------------------------------------------------------ ScoringTable (R11)

def default_table():
    return json.loads(json.dumps(ScoringTable().table))       # lists, a deep copy


def table_refused(table, *fields):
    with pytest.raises(RulesError) as ei:
        ScoringTable(table=table)
    return checked(str(ei.value), "R11", *fields)


def test_r11_table_must_be_an_object_of_cases():
    for bad in ([1], "partnership", None):
        table_refused(bad, "scoring")


@pytest.mark.parametrize("case", SCORE_CASES)
def test_r11_table_must_have_every_case(case):
    t = default_table()
    del t[case]
    table_refused(t, repr(case))
    t[case] = [0, 0, 0, 1, 1, 2]                                   # a row, not {makers, defenders}
    table_refused(t, repr(case))


@pytest.mark.parametrize("side", ["makers", "defenders"])
@pytest.mark.parametrize("bad", ["x", True, 101, -1, 2.5, None])
def test_r11_points_are_whole_numbers_0_to_100(side, bad):
    t = default_table()
    t["alone"][side][5] = bad
    table_refused(t, f"alone.{side}", repr(bad))
    t["alone"][side][5] = 100                                      # the bounds are allowed
    t["alone"][side][0] = 0
    assert ScoringTable(table=t).table["alone"][side][5] == 100


def test_r11_table_with_an_unknown_case():
    t = default_table()
    t["solo"] = {"makers": [0, 0, 0, 1, 1, 2], "defenders": [2, 2, 2, 0, 0, 0]}
    table_refused(t, "'solo'")


def overrides_refused(overrides, *fields):
    with pytest.raises(RulesError) as ei:
        ScoringTable.from_dict(overrides)
    return checked(str(ei.value), "R11", *fields)


def test_r11_overrides_must_be_an_object():
    for bad in ([1], "alone", None, 5):
        overrides_refused(bad, "scoring")


def test_r11_overrides_name_known_cases_and_sides():
    overrides_refused({"solo": {"makers": [0, 0, 0, 1, 1, 2]}}, "'solo'")
    overrides_refused({"alone": [0, 0, 0, 1, 1, 4]}, "'alone'")
    overrides_refused({"alone": {"maker": [0, 0, 0, 1, 1, 4]}}, "alone.maker", "makers", "defenders")
    overrides_refused({"alone": {"defenders": [2, 2, 2, 0, 0]}}, "alone.defenders")
    overrides_refused({"two_hand": {"makers": [0, 0, 0, 1, 1, "2"]}}, "two_hand.makers")


def test_r11_scoring_file_errors_name_the_file(tmp_path):
    missing = tmp_path / "none.json"
    with pytest.raises(RulesError) as ei:
        ScoringTable.from_json_file(str(missing))
    assert str(ei.value).startswith(f"{missing}: cannot read scoring table")
    broken = tmp_path / "broken.json"
    broken.write_text('{"alone": ', encoding="utf-8")
    with pytest.raises(RulesError) as ei:
        ScoringTable.from_json_file(str(broken))
    assert str(ei.value).startswith(f"{broken}: line 1: not JSON")
    bad = tmp_path / "bad.json"
    bad.write_text('{"alone": {"makers": [0, 0, 0, 1, 1, 500]}}', encoding="utf-8")
    with pytest.raises(RulesError) as ei:
        ScoringTable.from_json_file(str(bad))
    assert str(ei.value).startswith(f"{bad}: ")
    checked(str(ei.value), "R11", "alone.makers", "500")
    not_text = tmp_path / "latin1.json"
    not_text.write_bytes(b'{"alone": {"makers": [0, 0, 0, 1, 1, 5]}} \xe9')
    with pytest.raises(RulesError) as ei:
        ScoringTable.from_json_file(str(not_text))
    assert str(ei.value).startswith(f"{not_text}: not UTF-8") and "\n" not in str(ei.value)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    with pytest.raises(RulesError) as ei:
        ScoringTable.from_json_file(str(deep))
    assert str(ei.value).startswith(f"{deep}: ")
    good = tmp_path / "good.json"
    good.write_text('{"alone": {"makers": [0, 0, 0, 1, 1, 5]}}', encoding="utf-8")
    assert ScoringTable.from_json_file(str(good)).table["alone"]["makers"] == (0, 0, 0, 1, 1, 5)


# ------------------------------------------------------------------ records: what test_records leaves out

def deal(players, deck=24, dealer=0):
    """A deal-only record: the pack in order, cut in slices."""
    pack = [card_str(c) for c in cards_of(pack_mask(deck))]
    obj = {"players": players, "deck": deck, "dealer": dealer,
           "hands": [pack[5 * s:5 * s + 5] for s in range(players)]}
    k = 5 * players
    if players == 3:
        obj["dummy"], k = pack[k:k + 5], k + 5
    obj["upcard"], obj["kitty"] = pack[k], pack[k + 1:]
    return obj


def record_refused(obj, field, rule):
    with pytest.raises(RecordError) as ei:
        parse_record(obj)
    msg = str(ei.value)
    assert msg.startswith(field + ":"), msg
    return checked(msg, rule)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r3_record_dealer_is_a_seat_of_this_game(players):
    for seat in range(players):
        assert parse_record(deal(players, dealer=seat)).dealer == seat
    for bad in range(players, 5):
        msg = record_refused(deal(players, dealer=bad), "dealer", "R3")
        assert f"{players}-player" in msg
    record_refused(deal(players, dealer=True), "dealer", "R3")


def test_r1_record_deck_is_a_number_not_true():
    record_refused(dict(deal(4), deck=True), "deck", "R1")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_r8_r9_record_alone_seats_are_seats_of_this_game(players):
    rule = "R9" if players == 3 else "R8"
    for seat in range(players):
        assert parse_record(dict(deal(players), alone=[seat])).alone == (seat,)
    for bad in range(players, 5):
        record_refused(dict(deal(players), alone=[bad]), "alone[0]", rule)
    record_refused(dict(deal(players), alone=[-1]), "alone[0]", rule)


def test_rules_options_in_a_record_are_checked_with_their_rule_id():
    record_refused(dict(deal(4), rules={"cutthroat_tie": "shared"}), "rules", "R12")
    record_refused(dict(deal(2), rules={"both_alone_lead": "maker"}), "rules", "R10")
    record_refused(dict(deal(2), rules={"defend_alone": True}), "rules", "R8")
    record_refused(dict(deal(4), rules={"scoring": [1]}), "rules", "R11")
    record_refused(dict(deal(4), rules={"scoring": {"solo": {}}}), "rules", "R11")
    assert parse_record(dict(deal(3), rules={"cutthroat_tie": "shared"})).rules.cutthroat_tie == "shared"


# ------------------------------------------------------------------ the kernel's dummy keep (R9, C1)

# 3 players, dealer 2: seat 0 orders hearts up, the dealer takes 9H and puts 9D
# away, seat 0 takes the dummy and keeps the five top hearts (tests/test_rules.py deal_x).
KEEP_RECORD = {
    "players": 3, "deck": 24, "dealer": 2,
    "hands": [["JH", "AH", "KC", "QC", "9S"], ["TH", "AC", "JC", "TC", "9C"], ["AD", "KD", "QD", "TD", "9D"]],
    "dummy": ["JD", "KH", "QH", "AS", "KS"], "upcard": "9H", "kitty": ["TS", "JS", "QS"],
    "calls": ["order"], "alone": [], "discard": "9D", "dummy_keep": ["JH", "JD", "AH", "KH", "QH"],
    "plays": "JH TH 9H JD AC AD AH JC KD KH TC QD QH 9C TD".split(),
}


def replay_with_keep(keep_board):
    """Run loops.replay_kernels.replay_hand as loops.replay_kernels.replay_hands calls it, with any board as the keep."""
    from euchresim.loops.replay_kernels import replay_hand
    from euchresim.engine.layout import PRIV_SIZE, ST_SIZE
    from euchresim.engine.tables import build_tables
    rec = parse_record(KEEP_RECORD)
    hands = np.zeros(4, np.int64)
    for s, h in enumerate(rec.hands):
        hands[s] = h
    st = np.zeros(ST_SIZE, np.int64)
    priv = np.zeros(PRIV_SIZE, np.int64)
    code, phase, _ = replay_hand(
        build_tables(rec.rules), rec.dealer, hands, np.int64(rec.dummy), rec.upcard, np.int64(rec.kitty),
        -1, np.array(rec.calls, dtype=np.int64), 0, rec.discard, np.int64(keep_board),
        np.array(rec.plays, dtype=np.int64), st, priv)
    return int(code), int(phase), st, priv


def test_r9_kernel_keeps_exactly_five_cards_of_hand_and_dummy():
    from euchresim.engine.layout import DUMMY_KEEP, ERR, ERR_ARG, ERR_ILLEGAL, PH_DUMMY
    good = parse_board("JH JD AH KH QH".split())
    code, _, _, priv = replay_with_keep(good)
    assert code == 0 and priv[DUMMY_KEEP] == good
    for cards in ["JH JD AH KH QH AS",              # 6 cards
                  "JH JD AH KH",                    # 4 cards
                  "JH AH KC QC 9S JD KH QH AS KS",  # all 10
                  "JH JD AH KH TS",                 # TS is in the kitty
                  "JH JD AH KH TH",                 # TH is seat 1's
                  "JH JD AH KH 9D"]:                # 9D is the dealer's discard
        bad = parse_board(cards.split())
        code, phase, st, _ = replay_with_keep(bad)
        assert (code, phase) == (ERR_ILLEGAL, PH_DUMMY), cards
        assert st[ERR] == ERR_ILLEGAL and st[ERR_ARG] == bad, cards
    # nothing kept is NO_KEEP, "no keep given": the script is short at the keep (a record with an empty
    # keep never gets here, its reader refuses it: 0 cards, the maker keeps 5)
    from euchresim.engine.layout import ERR_SCRIPT_SHORT, NO_KEEP
    assert replay_with_keep(NO_KEEP)[:2] == (ERR_SCRIPT_SHORT, PH_DUMMY)
