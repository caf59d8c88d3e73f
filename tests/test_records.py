"""Hand records (docs/hand-record.md): round trips and one test per error kind.

Deals are built explicitly (a fixed slicing of the pack, or the example of
docs/hand-record.md), never drawn from a seed.
"""
import io
import json
from dataclasses import replace

import pytest

from euchresim.cards import JOKER, card_str, cards_of, pack_mask, parse_board, parse_card
from euchresim.records.format import (FINDING_FIELDS, JOIN_FIELDS, OUTCOME_FIELDS, Record, RecordError, call_str, format_record, parse_call, parse_record)
from euchresim.records.jsonl import iter_jsonl, write_jsonl
from euchresim.rules import Rules, ScoringTable
from tests.helpers import run_spec

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


def test_example_deal_round_trip():
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
        assert isinstance(e, RecordError) and str(e).startswith("not JSON: ")   # the line number is n
        assert "\n" not in str(e)
    assert str(items[1][1]) == "not JSON: the line is blank"
    assert str(items[5][1]) == "not JSON: not UTF-8 text (byte 1)"
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


# ------------------------------------------------------------ kitty, joker_suit, join fields

@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("deck", [24, 25, 32, 33])
def test_r4_kitty_may_be_left_out(players, deck):
    obj = make_deal(players, deck, rotate=5)
    rec = parse_record(obj)
    assert parse_record(with_(obj, kitty=...)) == rec
    assert parse_record(with_(obj, kitty=None)) == rec
    # the rest of the pack, computed here from the text of the deal alone
    dealt = {c for h in obj["hands"] for c in h} | set(obj.get("dummy", [])) | {obj["upcard"]}
    rest = [card_str(c) for c in cards_of(pack_mask(deck)) if card_str(c) not in dealt]
    assert sorted(format_record(parse_record(with_(obj, kitty=...)))["kitty"]) == sorted(rest)


def test_r4_a_given_kitty_is_still_checked():
    msg = check(with_(EXAMPLE, kitty=["TS", "JS", "JS"]), "kitty", "R1")
    assert msg == "kitty: JS appears twice (kitty[1] and kitty[2]) (R1)"
    check(with_(EXAMPLE, kitty=["TS", "JS", "KC", "QC"]), "kitty", "R4")
    check(with_(EXAMPLE, kitty=[]), "kitty", "R4")


@pytest.mark.parametrize("suit", ["C", "D", "H", "S"])
def test_r7_a_null_joker_suit_under_a_fixed_suit_is_that_suit(suit):
    obj = make_deal(4, 25, joker_up=True)
    obj["rules"] = {"joker_upcard": suit}
    rec = parse_record(obj)                                    # no joker_suit given
    assert rec.joker_suit == "CDHS".index(suit)
    assert parse_record(with_(obj, joker_suit=None)) == rec == parse_record(with_(obj, joker_suit=suit.lower()))
    assert format_record(rec)["joker_suit"] == suit
    # not the joker, or another rule: null stays null
    assert parse_record(with_(make_deal(4, 25), rules={"joker_upcard": suit})).joker_suit is None
    assert parse_record(with_(obj, rules={"joker_upcard": "redeal"})).joker_suit is None
    assert parse_record(with_(obj, rules=...)).joker_suit is None        # dealer-names: the replay asks


def test_join_fields_round_trip_after_the_plays():
    obj = with_(EXAMPLE, chunk=3, index=17, game=2, rubber=0, score=[4, 7, 4, 7])
    rec = parse_record(obj)
    assert (rec.chunk, rec.index, rec.game, rec.rubber, rec.score) == (3, 17, 2, 0, (4, 7, 4, 7))
    out = format_record(rec, {"maker": 1})
    assert list(out)[-7:] == ["plays", "chunk", "index", "game", "rubber", "score", "maker"]
    assert out["score"] == [4, 7, 4, 7] and parse_record(out) == rec
    bare = parse_record(EXAMPLE)
    assert (bare.chunk, bare.index, bare.game, bare.rubber, bare.score) == (None,) * 5
    assert not set(JOIN_FIELDS) & set(format_record(bare))
    assert parse_record(with_(EXAMPLE, chunk=None, score=None)) == bare


@pytest.mark.parametrize("key", ["chunk", "index", "game", "rubber"])
@pytest.mark.parametrize("bad", [-1, 1.5, True, "3", [1]])
def test_join_numbers_are_whole_and_not_negative(key, bad):
    msg = check(with_(EXAMPLE, **{key: bad}), key)
    assert "whole number >= 0" in msg


@pytest.mark.parametrize("bad", [[1, 2, 3], [1, 2, 3, 4, 5], [0, -1, 0, 1], [0, 1.0, 0, 1], "0,0,0,0", 7,
                                 [0, True, 0, 0]])
def test_join_score_is_one_whole_number_per_seat(bad):
    msg = check(with_(EXAMPLE, score=bad), "score", "R12")
    assert "4 game scores" in msg
    assert parse_record(with_(make_deal(3, 24), score=[0, 9, 3])).score == (0, 9, 3)
    check(with_(make_deal(3, 24), score=[0, 9, 3, 0]), "score", "R12")


def test_findings_of_an_earlier_replay_are_accepted_fields():
    assert set(FINDING_FIELDS) == {"mismatch", "error"}
    rec = parse_record(EXAMPLE)
    assert parse_record(with_(EXAMPLE, mismatch={"maker": {"record": 0, "replay": 1}}, error="x")) == rec
    assert "line" not in FINDING_FIELDS and check(with_(EXAMPLE, line=3), "line")


def test_other_spellings_read_as_the_written_form():
    """The lookup of written forms and the careful reading must agree."""
    spelt = json.loads(json.dumps(EXAMPLE).lower().replace('"td"', '"10d"').replace('"ts"', '" 10s "'))
    spelt["calls"] = [" PASS", "Order"]
    assert parse_record(spelt) == parse_record(EXAMPLE)
    # a repeated card is found the same way whichever spelling repeats it
    assert err(with_(EXAMPLE, kitty=["10s", "jh", "KC"])) == "kitty: JH appears twice (hands[0][0] and kitty[1]) (R1)"
    assert err(with_(EXAMPLE, upcard="jh")) == "upcard: JH appears twice (hands[0][0] and upcard) (R1)"
    hands = json.loads(json.dumps(EXAMPLE["hands"]))
    hands[0][4] = "jh"
    assert err(with_(EXAMPLE, hands=hands)) == "hands[0]: JH appears twice (hands[0][0] and hands[0][4]) (R1)"


def test_rules_objects_are_shared_but_never_confused():
    a = parse_record(with_(EXAMPLE, rules={"game_to": 5}))
    b = parse_record(with_(EXAMPLE, rules={"game_to": 5}))
    assert a.rules is b.rules                   # built once for a file's records
    assert parse_record(with_(EXAMPLE, rules={"game_to": 7})).rules.game_to == 7
    check(with_(EXAMPLE, players=4.0), "players", "R3")     # equal to 4 as a key, still not a seat count
    check(with_(EXAMPLE, deck=True), "deck", "R1")
    check(with_(EXAMPLE, rules={"stick_the_dealer": 1}), "rules", "R6")
    assert parse_record(with_(EXAMPLE, rules={"stick_the_dealer": True})).rules.stick_the_dealer


# ------------------------------------------------------------ telling a JSON Lines file

def test_iter_jsonl_refuses_parquet_and_binary_at_the_call(tmp_path):
    cases = {b"PAR1\x15\x04\x15": "it looks like Parquet", b'{"a": 1}\x00\n': "it looks like a binary file",
             b"\x1f\x8b\x08\x00": "it looks like a binary file", b'{"a": "\xe9"}\n{}\n': "it looks like a binary file"}
    for data, why in cases.items():
        p = tmp_path / "x.jsonl"
        p.write_bytes(data)
        with pytest.raises(RecordError) as ei:
            iter_jsonl(p)
        assert str(ei.value) == f"{p}: not a JSON Lines file ({why})"
        with pytest.raises(RecordError, match=f"stream: not a JSON Lines file \\({why}\\)"):
            iter_jsonl(io.BytesIO(data), "stream")
    with pytest.raises(RecordError, match="Parquet"):
        iter_jsonl(io.StringIO("PAR1..."))


def test_iter_jsonl_a_long_first_line_is_read_whole(tmp_path):
    # a character of 2 bytes straddles the 64 KiB cut: no proof of a binary file
    head = '{"a": "' + "x" * ((1 << 16) - 8) + "é" * 3 + '"}\n'
    assert len(head.encode()[:1 << 16].decode("utf-8", "ignore").encode()) < 1 << 16
    p = tmp_path / "long.jsonl"
    p.write_text(head + '{"b": 2}\n', encoding="utf-8")
    items = list(iter_jsonl(p))
    assert [n for n, _ in items] == [1, 2] and items[0][1]["a"].endswith("ééé") and items[1][1] == {"b": 2}
    p.write_bytes(b"\n")
    assert [(n, str(v)) for n, v in iter_jsonl(p)] == [(1, "not JSON: the line is blank")]
    p.write_bytes(b"")
    assert list(iter_jsonl(p)) == []


# ------------------------------------------------------------ records written from kernel rows

def _chunk(players, deck, policy, mode, seed, **opts):
    from euchresim.run.runner import play_chunk
    rules = Rules(players=players, deck=deck, **opts)
    count = 400 if mode == "hands" else 6
    return rules, play_chunk(run_spec(rules=rules, policies=(policy,), seed=seed, mode=mode, count=2 * count,
                                     chunk_size=count), 1)


@pytest.mark.parametrize("players,deck,policy,mode,opts", [
    (4, 24, "baseline", "hands", {}), (4, 25, "random", "hands", {"defend_alone": True, "joker_upcard": "H"}),
    (4, 33, "random", "hands", {"joker_upcard": "redeal"}), (3, 25, "baseline", "hands", {}),
    (3, 32, "random", "games", {"both_alone_lead": "maker", "cutthroat_tie": "shared"}),
    (2, 24, "baseline", "games", {"stick_the_dealer": True}), (2, 33, "random", "hands", {}),
    (4, 24, "baseline", "rubbers", {"game_to": 5}),
    (4, 32, "baseline", "hands", {"scoring": ScoringTable.from_dict({"alone": {"makers": [0, 0, 0, 1, 1, 5]}})}),
])
def test_records_lines_are_the_plain_writer_byte_for_byte(players, deck, policy, mode, opts):
    from euchresim.records.rows import records_lines, row_record
    rules, res = _chunk(players, deck, policy, mode, 21, **opts)
    fast = list(records_lines(rules, res))
    plain = [json.dumps(format_record(*row_record(rules, row, plays)), separators=(",", ":"))
             for row, plays in zip(res.hands, res.plays)]
    assert len(fast) == len(res.hands) > 0
    assert fast == plain
    # what joins each record to its row: the row's own chunk, index, game, rubber and score
    for line, row in zip(fast, res.hands):
        rec = json.loads(line)
        assert (rec["chunk"], rec["index"]) == (1, int(row["index"]))
        assert rec.get("game", -1) == int(row["game"]) and rec.get("rubber", -1) == int(row["rubber"])
        want = [int(row[f"score{s}"]) for s in range(players)] if mode != "hands" else None
        assert rec.get("score") == want
    assert [json.loads(x)["index"] for x in fast] == list(range(len(fast)))


def test_board_json_is_cards_desc_for_every_suit_byte():
    from euchresim.records.rows import board_json
    from euchresim.records.format import cards_desc
    for suit in range(4):
        for b in range(256):
            mask = b << (8 * suit)
            assert json.loads(board_json(mask)) == cards_desc(mask)
    for mask in (0, 1 << 32, (1 << 32) | 0x81_42_24_18, pack_mask(33), pack_mask(24)):
        assert board_json(mask) == json.dumps(cards_desc(mask), separators=(",", ":"))


def test_iter_jsonl_nan_and_infinity_are_not_json():
    items = list(iter_jsonl(io.BytesIO(b'{"maker": NaN}\n[Infinity]\n{"a": -Infinity}\n{"a": 1.5e3}\n')))
    assert [str(v) for _, v in items[:3]] == ["not JSON: NaN is not a JSON value",
                                              "not JSON: Infinity is not a JSON value",
                                              "not JSON: -Infinity is not a JSON value"]
    assert items[3] == (4, {"a": 1500.0})


def test_write_jsonl_a_failed_write_names_the_file():
    import errno

    class Full(io.StringIO):
        name = "out.jsonl"

        def write(self, text):
            raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(RecordError) as ei:
        write_jsonl(Full(), [{"a": 1}])
    assert str(ei.value) == "out.jsonl: cannot write (No space left on device)"
