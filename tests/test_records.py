"""Hand records (docs/hand-record.md): round trips and one test per error kind.

Deals are built explicitly (a fixed slicing of the pack, or the example of
docs/hand-record.md), never drawn from a seed.
"""
import io
import json
from dataclasses import replace

import pytest

from euchresim.cards import JOKER, card_str, cards_of, pack_mask, parse_board, parse_card
from euchresim.records import (
    OUTCOME_FIELDS, Record, RecordError, call_str, format_record, iter_jsonl, parse_call,
    parse_record, write_jsonl)
from euchresim.rules import Rules, ScoringTable

EXAMPLE = {
    "players": 4, "deck": 24, "dealer": 3,
    "hands": [["JH", "AH", "KS", "9C", "TD"], ["JD", "QH", "AC", "9S", "KD"],
              ["AD", "QD", "TH", "QS", "JC"], ["9H", "KH", "AS", "TC", "QC"]],
    "upcard": "9D", "kitty": ["TS", "JS", "KC"],
    "calls": ["pass", "order"], "alone": [], "discard": "TC",
    "plays": ["JH", "JD", "AD", "9D"],
}


def make_deal(players, deck, joker_up=False, rotate=0):
    """A record dict whose deal is the pack (ascending, rotated) cut in slices."""
    pack = [card_str(c) for c in cards_of(pack_mask(deck))]
    pack = pack[rotate:] + pack[:rotate]
    if joker_up:
        pack.remove("JK")
        pack.insert(5 * players + (5 if players == 3 else 0), "JK")
    obj = {"players": players, "deck": deck, "dealer": players - 1,
           "hands": [pack[5 * s:5 * s + 5] for s in range(players)]}
    k = 5 * players
    if players == 3:
        obj["dummy"], k = pack[k:k + 5], k + 5
    obj["upcard"], obj["kitty"] = pack[k], pack[k + 1:]
    return obj


def err(obj) -> str:
    with pytest.raises(RecordError) as ei:
        parse_record(obj)
    msg = str(ei.value)
    assert "\n" not in msg
    return msg


def check(obj, path, rule=None):
    msg = err(obj)
    assert msg.startswith(path + ":"), msg
    if rule:
        assert f"({rule})" in msg or f"{rule})" in msg, msg
    return msg


def with_(obj, **changes):
    out = json.loads(json.dumps(obj))
    for k, v in changes.items():
        if v is ...:
            out.pop(k, None)
        else:
            out[k] = v
    return out


# ------------------------------------------------------------ round trips

@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("deck", [24, 25, 32, 33])
def test_r4_round_trip_every_variant_and_pack(players, deck):
    obj = make_deal(players, deck, rotate=7)
    rec = parse_record(obj)
    assert rec.rules == Rules(players=players, deck=deck)
    assert len(rec.hands) == players and all(bin(h).count("1") == 5 for h in rec.hands)
    assert (rec.dummy != 0) == (players == 3)
    whole = rec.dummy | rec.kitty | (1 << rec.upcard)
    for h in rec.hands:
        whole |= h
    assert whole == pack_mask(deck)
    out = format_record(rec)
    assert parse_record(out) == rec
    assert format_record(parse_record(json.loads(json.dumps(out)))) == out
    # a board keeps no order: each field lists the same cards as given
    for given, written in zip(obj["hands"], out["hands"]):
        assert sorted(given) == sorted(written)
    assert sorted(obj["kitty"]) == sorted(out["kitty"])


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("deck", [25, 33])
def test_r7_joker_upcard_round_trip(players, deck):
    obj = make_deal(players, deck, joker_up=True)
    obj["joker_suit"] = "h"
    obj["calls"] = ["pass"] * players + ["S"]
    rec = parse_record(obj)
    assert rec.upcard == JOKER and rec.joker_suit == 2
    out = format_record(rec)
    assert out["upcard"] == "JK" and out["joker_suit"] == "H"
    assert parse_record(out) == rec


def test_example_of_hand_record_md_round_trip():
    rec = parse_record(EXAMPLE)
    assert rec.dealer == 3 and rec.calls == (0, 1) and rec.discard == parse_card("TC")
    assert rec.plays == tuple(parse_card(c) for c in ["JH", "JD", "AD", "9D"])
    assert rec.dummy == 0 and rec.dummy_keep is None and rec.joker_suit is None
    out = format_record(rec)
    assert list(out) == ["players", "deck", "dealer", "hands", "upcard", "kitty", "joker_suit",
                         "calls", "alone", "discard", "dummy_keep", "plays"]
    # descending suit (S H D C) then rank (A .. 7): the order a board can give back
    assert out["hands"][0] == ["KS", "AH", "JH", "TD", "9C"]
    assert out["kitty"] == ["JS", "TS", "KC"]
    assert out["calls"] == ["pass", "order"] and out["discard"] == "TC"
    assert out["plays"] == ["JH", "JD", "AD", "9D"]
    assert parse_record(out) == rec


def test_joker_written_first():
    obj = make_deal(4, 25)          # unrotated: the joker, highest bit, ends in the kitty
    assert "JK" in obj["kitty"]
    assert format_record(parse_record(obj))["kitty"][0] == "JK"
    obj = make_deal(4, 25, rotate=24)   # now the joker leads the pack: hands[0]
    assert "JK" in obj["hands"][0]
    assert format_record(parse_record(obj))["hands"][0][0] == "JK"


def test_cards_accept_any_case_and_ten():
    obj = with_(EXAMPLE, upcard="9d", kitty=["10s", "js", "Kc"])
    assert parse_record(obj) == parse_record(EXAMPLE)


def test_deal_only_record_defaults():
    obj = {k: EXAMPLE[k] for k in ("players", "deck", "dealer", "hands", "upcard", "kitty")}
    rec = parse_record(obj)
    assert rec.calls == () and rec.alone == () and rec.plays == ()
    assert rec.discard is None and rec.dummy_keep is None and rec.joker_suit is None
    out = format_record(rec)
    assert out["calls"] == [] and out["plays"] == [] and out["discard"] is None


def test_nulls_mean_empty():
    obj = with_(EXAMPLE, calls=None, alone=None, plays=None, discard=None, dummy_keep=None,
                joker_suit=None)
    rec = parse_record(obj)
    assert rec.calls == () and rec.alone == () and rec.plays == () and rec.discard is None


def test_r9_cutthroat_fields_round_trip():
    obj = make_deal(3, 24)
    obj["calls"] = ["order"]
    obj["alone"] = [1]
    keep = obj["hands"][0][:3] + obj["dummy"][:2]
    obj["dummy_keep"] = keep
    obj["discard"] = obj["hands"][2][0]
    rec = parse_record(obj)
    assert rec.dummy_keep == parse_board(keep) and rec.alone == (1,)
    out = format_record(rec)
    assert list(out)[:7] == ["players", "deck", "dealer", "hands", "dummy", "upcard", "kitty"]
    assert sorted(out["dummy_keep"]) == sorted(keep)
    assert parse_record(out) == rec


def test_rules_written_only_when_changed():
    obj = with_(EXAMPLE, rules={})
    assert "rules" not in format_record(parse_record(obj))
    opts = {"stick_the_dealer": True, "defend_alone": True, "game_to": 5,
            "scoring": {"alone": {"makers": [0, 0, 0, 1, 1, 5]}}}
    rec = parse_record(with_(EXAMPLE, rules=opts))
    assert rec.rules.stick_the_dealer and rec.rules.game_to == 5
    assert rec.rules.scoring.table["alone"]["makers"] == (0, 0, 0, 1, 1, 5)
    out = format_record(rec)
    assert list(out)[:4] == ["players", "deck", "rules", "dealer"]
    assert out["rules"]["game_to"] == 5 and out["rules"]["scoring"]["alone"]["makers"] == [0, 0, 0, 1, 1, 5]
    assert parse_record(json.loads(json.dumps(out))) == rec


def test_r7_fixed_joker_suit_rule_round_trip():
    obj = make_deal(4, 25, joker_up=True)
    obj["rules"] = {"joker_upcard": "s"}
    obj["joker_suit"] = "S"
    rec = parse_record(obj)
    assert rec.rules.joker_upcard == "S" and rec.joker_suit == 3
    assert format_record(rec)["rules"] == {"joker_upcard": "S"}


def test_outcome_fields_follow_in_order():
    rec = parse_record(EXAMPLE)
    outcome = {"points": [1, 0, 1, 0], "error": "x", "trump": 1, "maker": 0,
               "trick_winners": [0, 2, 0, 1, 0], "tricks": [3, 1, 1, 0]}
    out = format_record(rec, outcome)
    assert list(out)[-6:] == ["maker", "trump", "trick_winners", "tricks", "points", "error"]
    assert out["trump"] == "D" and out["points"] == [1, 0, 1, 0]
    assert format_record(rec, {"maker": None, "trump": -1})["trump"] is None
    assert format_record(rec, {"trump": "H"})["trump"] == "H"
    assert format_record(rec, {"trump": None})["trump"] is None
    assert set(OUTCOME_FIELDS) >= {"maker", "trump", "trick_winners", "tricks", "points"}
    assert parse_record(out) == rec       # a replay may read its own output


def test_record_is_hashable_value():
    assert hash(parse_record(EXAMPLE)) == hash(parse_record(json.loads(json.dumps(EXAMPLE))))
    assert isinstance(parse_record(EXAMPLE), Record)


# ------------------------------------------------------------ calls

def test_c9_call_codes():
    assert [call_str(c) for c in range(6)] == ["pass", "order", "C", "D", "H", "S"]
    for c in range(6):
        assert parse_call(call_str(c)) == c
    assert parse_call(" PASS ") == 0 and parse_call("Order") == 1 and parse_call("h") == 4
    for bad in (6, -1, 1.0, "x"):
        with pytest.raises(ValueError):
            call_str(bad)
    for bad in ("bid", "", "CD", 3, None):
        with pytest.raises(RecordError, match="is not pass, order or a suit letter"):
            parse_call(bad)


# ------------------------------------------------------------ errors, one per kind

def test_error_not_an_object():
    for bad in ([1, 2], "x", 3, None):
        assert err(bad).startswith("record:")


def test_r3_players_missing_or_wrong():
    check(with_(EXAMPLE, players=...), "players", "R3")
    assert check(with_(EXAMPLE, players=5), "players", "R3") == "players: 5 is not 2, 3 or 4 (R3)"
    check(with_(EXAMPLE, players=True), "players", "R3")
    check(with_(EXAMPLE, players="4"), "players", "R3")


def test_r1_deck_missing_or_wrong():
    check(with_(EXAMPLE, deck=...), "deck", "R1")
    check(with_(EXAMPLE, deck=28), "deck", "R1")


def test_rules_errors_wrap_rules_error():
    check(with_(EXAMPLE, rules=[1]), "rules")
    assert "'nope'" in check(with_(EXAMPLE, rules={"nope": 1}), "rules")
    check(with_(EXAMPLE, rules={"game_to": 6}), "rules", "R12")
    check(with_(EXAMPLE, rules={"stick_the_dealer": "yes"}), "rules", "R6")
    check(with_(EXAMPLE, rules={"joker_upcard": "S"}), "rules", "R7")   # deck 24 has no joker
    check(with_(make_deal(3, 24), rules={"defend_alone": True}), "rules", "R9")
    check(with_(EXAMPLE, rules={"scoring": {"alone": {"makers": [1, 2]}}}), "rules", "R11")
    check(with_(EXAMPLE, rules={"scoring": {"alone": {"makers": 5}}}), "rules", "R11")


def test_r3_dealer():
    check(with_(EXAMPLE, dealer=...), "dealer", "R3")
    assert check(with_(EXAMPLE, dealer=5), "dealer", "R3") == "dealer: 5 is not a seat of a 4-player game (R3)"
    check(with_(EXAMPLE, dealer=-1), "dealer", "R3")
    check(with_(EXAMPLE, dealer=1.0), "dealer", "R3")


def test_r4_hands_shape():
    check(with_(EXAMPLE, hands=...), "hands", "R4")
    check(with_(EXAMPLE, hands="AS"), "hands", "R4")
    check(with_(EXAMPLE, hands=EXAMPLE["hands"][:3]), "hands", "R4")
    check(with_(EXAMPLE, hands=[EXAMPLE["hands"][0], "AS"] + EXAMPLE["hands"][2:]), "hands[1]", "R4")
    short = [EXAMPLE["hands"][0], EXAMPLE["hands"][1][:4]] + EXAMPLE["hands"][2:]
    assert check(with_(EXAMPLE, hands=short), "hands[1]", "R4") == "hands[1]: 4 cards, each hand has 5 (R4)"


def test_r1_card_text_errors():
    hands = json.loads(json.dumps(EXAMPLE["hands"]))
    hands[2][3] = "XQ"
    msg = check(with_(EXAMPLE, hands=hands), "hands[2][3]", "R1")
    assert msg == "hands[2][3]: 'XQ' is not a card (rank 7-A or 10, suit C D H S, or JK) (R1)"
    hands[2][3] = ["QS"]
    check(with_(EXAMPLE, hands=hands), "hands[2][3]", "R1")
    hands[2][3] = 7
    check(with_(EXAMPLE, hands=hands), "hands[2][3]", "R1")


def test_r1_card_not_in_pack():
    hands = json.loads(json.dumps(EXAMPLE["hands"]))
    hands[0][3] = "7C"
    assert "24-card pack" in check(with_(EXAMPLE, hands=hands), "hands[0][3]", "R1")
    check(with_(EXAMPLE, upcard="JK"), "upcard", "R1")


def test_r1_duplicate_names_both_places():
    msg = check(with_(EXAMPLE, kitty=["TS", "JH", "KC"]), "kitty", "R1")
    assert msg == "kitty: JH appears twice (hands[0][0] and kitty[1]) (R1)"
    msg = check(with_(EXAMPLE, upcard="AS"), "upcard", "R1")
    assert "hands[3][2]" in msg and "AS" in msg
    hands = json.loads(json.dumps(EXAMPLE["hands"]))
    hands[1][4] = "jh"
    assert "(hands[0][0] and hands[1][4])" in check(with_(EXAMPLE, hands=hands), "hands[1]", "R1")


def test_r4_kitty_size_and_shape():
    msg = check(with_(EXAMPLE, kitty=["TS", "JS"]), "kitty", "R4")
    assert "2 cards" in msg and "4-player 24-card deal" in msg and "upcard and 3" in msg
    msg = check(with_(make_deal(3, 32), kitty=["9C"]), "kitty", "R4")
    assert "with a dummy" in msg and "upcard and 11" in msg
    check(with_(EXAMPLE, kitty="TS"), "kitty", "R4")
    check(with_(EXAMPLE, kitty=...), "kitty", "R4")
    check(with_(EXAMPLE, upcard=...), "upcard", "R4")


def test_r9_dummy():
    msg = check(with_(EXAMPLE, dummy=["9C"]), "dummy", "R9")
    assert "only a 3-player deal has a dummy" in msg
    three = make_deal(3, 24)
    check(with_(three, dummy=...), "dummy", "R9")
    check(with_(three, dummy=three["dummy"][:4]), "dummy", "R9")
    check(with_(three, dummy="9C"), "dummy", "R9")


def test_r7_joker_suit():
    check(with_(EXAMPLE, joker_suit="X"), "joker_suit", "R7")
    check(with_(EXAMPLE, joker_suit=2), "joker_suit", "R7")
    assert check(with_(EXAMPLE, joker_suit="H"), "joker_suit", "R7") == \
        "joker_suit: the upcard is not the joker (R7)"
    joker = make_deal(4, 25, joker_up=True)
    check(with_(joker, joker_suit="H", rules={"joker_upcard": "redeal"}), "joker_suit", "R7")
    check(with_(joker, joker_suit="H", rules={"joker_upcard": "S"}), "joker_suit", "R7")


def test_r5_calls():
    assert check(with_(EXAMPLE, calls=["pass", "pass", "bid"]), "calls[2]", "R5") == \
        "calls[2]: 'bid' is not pass, order or a suit letter (R5)"
    check(with_(EXAMPLE, calls=[1]), "calls[0]", "R5")
    check(with_(EXAMPLE, calls="pass"), "calls", "R5")


def test_r8_alone():
    assert check(with_(EXAMPLE, alone=[7]), "alone[0]", "R8").startswith("alone[0]: 7 is not a seat")
    check(with_(EXAMPLE, alone=[1, 1]), "alone[1]", "R8")
    check(with_(EXAMPLE, alone=[True]), "alone[0]", "R8")
    check(with_(EXAMPLE, alone=1), "alone", "R8")
    check(with_(make_deal(3, 24), alone=[3]), "alone[0]", "R9")


def test_discard_card():
    check(with_(EXAMPLE, discard="ZZ"), "discard", "R1")
    check(with_(EXAMPLE, discard=["TC"]), "discard", "R1")


def test_r9_dummy_keep():
    three = make_deal(3, 24)
    check(with_(EXAMPLE, dummy_keep=EXAMPLE["hands"][0]), "dummy_keep", "R9")
    check(with_(three, dummy_keep=three["dummy"][:4]), "dummy_keep", "R9")
    check(with_(three, dummy_keep=three["dummy"][:4] + three["dummy"][:1]), "dummy_keep", "R9")
    check(with_(three, dummy_keep="9C"), "dummy_keep", "R9")
    check(with_(three, dummy_keep=three["dummy"][:4] + ["7C"]), "dummy_keep[4]", "R1")


def test_r10_plays_cards():
    check(with_(EXAMPLE, plays=["JH", "JD", "AD", "QQ"]), "plays[3]", "R1")
    check(with_(EXAMPLE, plays="JH"), "plays", "R10")


def test_unknown_field():
    msg = check(with_(EXAMPLE, discrad="TC"), "discrad")
    assert "not a hand-record field" in msg


def test_missing_field_reported_before_unknown_one():
    check(with_(EXAMPLE, dealer=..., dealr=3), "dealer", "R3")


# ------------------------------------------------------------ JSON Lines

def test_iter_jsonl_one_item_per_line(tmp_path):
    p = tmp_path / "in.jsonl"
    p.write_bytes(b'{"a":1}\n\n  \nnot json\n[1,2]\n\xff\xfe\n{"b":2}')
    items = list(iter_jsonl(p))
    assert [n for n, _ in items] == [1, 2, 3, 4, 5, 6, 7]
    assert items[0][1] == {"a": 1} and items[4][1] == [1, 2] and items[6][1] == {"b": 2}
    for n in (2, 3, 4, 6):
        e = items[n - 1][1]
        assert isinstance(e, RecordError) and str(e).startswith(f"line {n}: not JSON: ")
        assert "\n" not in str(e)
    again = list(iter_jsonl(str(p)))
    assert [(n, str(v)) for n, v in again] == [(n, str(v)) for n, v in items]


def test_iter_jsonl_file_objects():
    text = io.StringIO('{"a":1}\n{"a":\n')
    items = list(iter_jsonl(text))
    assert items[0] == (1, {"a": 1}) and isinstance(items[1][1], RecordError)
    assert [v for _, v in iter_jsonl(io.BytesIO(b'1\n2\n'))] == [1, 2]


def test_iter_jsonl_unreadable_file(tmp_path):
    missing = tmp_path / "nope.jsonl"
    with pytest.raises(RecordError) as ei:
        iter_jsonl(missing)
    assert str(ei.value).startswith(f"{missing}: cannot read (")


def test_write_jsonl_round_trip(tmp_path):
    p = tmp_path / "out.jsonl"

    class FakeArray:
        def tolist(self):
            return [0, 1]

    recs = [format_record(parse_record(EXAMPLE), {"trick_winners": FakeArray()}),
            format_record(parse_record(make_deal(3, 33)))]
    assert write_jsonl(p, recs) == 2
    lines = p.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2 and ", " not in lines[0] and '":' in lines[0]
    back = [v for _, v in iter_jsonl(p)]
    assert back[0]["trick_winners"] == [0, 1]
    assert [parse_record(v) for v in back] == [parse_record(EXAMPLE), parse_record(make_deal(3, 33))]
    buf = io.StringIO()
    write_jsonl(buf, [{"x": 1}])
    assert buf.getvalue() == '{"x":1}\n'


def test_write_jsonl_unwritable(tmp_path):
    with pytest.raises(RecordError, match="cannot write"):
        write_jsonl(tmp_path / "no" / "dir" / "x.jsonl", [])


def test_records_module_is_pure_python():
    import subprocess
    import sys
    code = "import sys, euchresim.records; print('numba' in sys.modules, 'numpy' in sys.modules)"
    root = __file__.rsplit("/tests/", 1)[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root)
    assert out.stdout.split() == ["False", "False"], out.stderr


def test_scoring_override_equal_to_default_not_written():
    rules = replace(Rules(), scoring=ScoringTable.from_dict({"alone": {"makers": [0, 0, 0, 1, 1, 4]}}))
    rec = replace(parse_record(EXAMPLE), rules=rules)
    assert "rules" not in format_record(rec)
