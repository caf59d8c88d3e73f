"""One test (or more) per rule of docs/rules.md (R1..R13) and docs/choices.md (C1..C6).

Every test builds its hand record explicitly (``rec`` fills the kitty with
the rest of the pack) and runs it through two implementations, the pure
Python reference ``tests/reference.py`` and the engine's
``euchresim.replay.replay_record``, behind one interface: ``run(record)``
returns the outcome fields or raises :class:`Broken` (step, rule id).
Plays are written trick by trick, ``|`` between tricks, leader first.
"""
import copy
import re

import pytest

from tests.reference import RefError
from tests.reference import replay as reference_replay

OUTCOME = ("maker", "trump", "trick_winners", "tricks", "points")


class Broken(Exception):
    """A record step that breaks a rule, as either implementation reports it."""

    def __init__(self, step, rule, message=""):
        super().__init__(message or f"{step} ({rule})")
        self.step, self.rule = step, rule


def _normal(out):
    return {"maker": None if out["maker"] is None else int(out["maker"]),
            "trump": out["trump"],
            "trick_winners": [int(s) for s in out["trick_winners"]],
            "tricks": [int(t) for t in out["tricks"]],
            "points": [int(p) for p in out["points"]]}


@pytest.fixture(params=["reference", "engine"])
def impl(request):
    return request.param


@pytest.fixture
def run(impl):
    if impl == "reference":
        def run_reference(record):
            try:
                return _normal(reference_replay(copy.deepcopy(record)))
            except RefError as e:
                raise Broken(e.step, e.rule, str(e)) from e
        return run_reference

    engine = pytest.importorskip("euchresim.loops.record_steps")

    def run_engine(record):
        out = engine.replay_record(copy.deepcopy(record))
        if out.get("error") is not None:
            msg = str(out["error"])
            groups = re.findall(r"\((R\d+(?:, *R\d+)*)\)", msg)      # "(R10)" or "(R2, R10)"
            rule = re.findall(r"R\d+", groups[-1])[-1] if groups else None
            raise Broken(msg.split(":", 1)[0].strip(), rule, msg)
        missing = [k for k in record if k not in out]
        assert not missing, f"the engine dropped input fields {missing}"
        return _normal(out)
    return run_engine


def broken(run, record):
    """(step, rule) of the error the record must raise."""
    with pytest.raises(Broken) as e:
        run(record)
    return e.value.step, e.value.rule


def outcome(maker, trump, winners, points):
    return {"maker": maker, "trump": trump, "trick_winners": winners,
            "tricks": [winners.count(s) for s in range(len(points))], "points": points}


THROWN_IN = {2: outcome(None, None, [], [0, 0]), 3: outcome(None, None, [], [0, 0, 0]),
             4: outcome(None, None, [], [0, 0, 0, 0])}


# ------------------------------------------------------------------ building records

def pack(deck):
    ranks = "789TJQKA" if deck >= 32 else "9TJQKA"
    return [r + s for s in "CDHS" for r in ranks] + (["JK"] if deck in (25, 33) else [])


def rec(hands, upcard, calls, plays="", deck=24, dealer=3, dummy=None, alone=(), discard=None,
        dummy_keep=None, joker_suit=None, rules=None):
    """A full legal deal from the given hands; the kitty is the rest of the pack."""
    hands = [h.split() for h in hands]
    dummy = dummy.split() if dummy else None
    used = {c for h in hands for c in h} | set(dummy or ()) | {upcard}
    r = {"players": len(hands), "deck": deck}
    if rules:
        r["rules"] = dict(rules)
    r["dealer"] = dealer
    r["hands"] = hands
    if dummy:
        r["dummy"] = dummy
    r.update(upcard=upcard, kitty=[c for c in pack(deck) if c not in used], joker_suit=joker_suit,
             calls=list(calls), alone=list(alone), discard=discard,
             dummy_keep=dummy_keep.split() if dummy_keep else None,
             plays=plays.replace("|", " ").split())
    return r


def changed(record, **fields):
    r = copy.deepcopy(record)
    for k, v in fields.items():
        r[k] = v.replace("|", " ").split() if k in ("plays", "dummy_keep") and isinstance(v, str) else v
    return r


def play_changed(record, i, card):
    r = copy.deepcopy(record)
    r["plays"][i] = card
    return r


PASS4, PASS3 = ["pass"] * 4, ["pass"] * 3


# 4 players, deck 24, dealer 3: seat 0 orders hearts up, dealer discards KD; seat 0 holds the five top trumps.
def deal_a(deck=24, **kw):
    return rec(["JH JD AH KH QH", "TH AC KC AS KS", "QC JC TC 9C AD", "QS JS TS 9S KD"], "9H", ["order"],
               kw.pop("plays", "JH TH QC 9H | JD AC JC QS | AH KC TC JS | KH AS 9C TS | QH KS AD 9S"),
               deck=deck, discard="KD", **kw)


A_MARCH = outcome(0, "H", [0, 0, 0, 0, 0], [2, 0, 2, 0])
A_ALONE_PLAYS = "JH TH 9H | JD AC QS | AH KC JS | KH AS TS | QH KS 9S"          # seat 2 sits out


# Round two: seat 0 names hearts (spades turned down); the makers take 4 tricks.
def deal_d(**kw):
    return rec(["TC 9S QC KC AC", "JC JS KS AS JD", "9C QS JH AH KH", "AD KD QD TD 9D"], "TS",
               kw.pop("calls", PASS4 + ["H"]),
               kw.pop("plays", "TC JC 9C 9D | JS QS TD 9S | JH QD QC JD | AH KD KC KS | KH AD AC AS"), **kw)


# Round two, seat 0 names hearts: seat 1's left bower beats the ace of trump.
def deal_r2a(**kw):
    return rec(["AH AC KC QC JC", "JD AS KS QS JS", "9H AD KD QD TD", "QH TC 9C TS 9D"], "9S", PASS4 + ["H"],
               "AH JD 9H QH | AS AD TS AC | KS KD 9D KC | QS QD TC QC | JS TD 9C JC", **kw)


# 2 players, dealer 0: seat 1 orders hearts, the dealer discards KS; seat 1 marches.
def deal_t(deck=24, calls=("order",), **kw):
    return rec(["AC KC QC AS KS", "JH JD AH KH QH"], "9H", calls,
               "JH 9H | JD AC | AH KC | KH QC | QH AS", deck=deck, dealer=0, discard="KS", **kw)


# 3 players, dealer 2: seat 0 orders hearts, the dealer discards 9D; seat 0 takes the dummy.
def deal_x(deck=24, **kw):
    kw.setdefault("dummy_keep", "JH JD AH KH QH")
    kw.setdefault("plays", "JH TH 9H | JD AC AD | AH JC KD | KH TC QD | QH 9C TD")
    return rec(["JH AH KC QC 9S", "TH AC JC TC 9C", "AD KD QD TD 9D"], "9H", ["order"], deck=deck,
               dealer=2, dummy="JD KH QH AS KS", discard="9D", **kw)


# 3 players, dealer 2: seat 0 names spades in round two with a weak hand.
def deal_z(**kw):
    return rec(["9S AD KD QD TD", "JS AS KS AC KC", "JC QS TS AH KH"], "9H", PASS3 + ["S"],
               dealer=2, dummy="9C TC QC 9D JD", **kw)


Z_LONE_DEFENDER_MARCH = "AD JS | AS 9S | KS KD | AC QD | KC TD"               # seat 0 leads


# 4 players, deck 25, the joker upcard: the dealer names spades, seat 0 orders, the dealer takes the joker.
def deal_k(**kw):
    kw.setdefault("joker_suit", "S")
    kw.setdefault("discard", "9D")
    return rec(["JS AS KS AH KH", "AC KC QC TC 9C", "AD KD QD TD JD", "9D QH TH JH 9H"], "JK",
               kw.pop("calls", ["order"]),
               kw.pop("plays", "JS AC AD JK | 9H AH KC KD | AS QC QD TH | KS TC TD JH | KH 9C JD QH"),
               deck=25, **kw)


K_OUTCOME = outcome(0, "S", [3, 0, 0, 0, 0], [1, 0, 1, 0])


def thrown_in_deal(players, deck):
    """The pack cut in slices, everyone passes twice."""
    cards = pack(deck)
    r = {"players": players, "deck": deck, "dealer": players - 1,
         "hands": [cards[5 * s:5 * s + 5] for s in range(players)]}
    k = 5 * players
    if players == 3:
        r["dummy"], k = cards[k:k + 5], k + 5
    r.update(upcard=cards[k], kitty=cards[k + 1:], joker_suit=None, calls=["pass"] * 2 * players,
             alone=[], discard=None, dummy_keep=None, plays=[])
    return r


# ------------------------------------------------------------------ R1 the pack

def test_r1_card_text_is_case_insensitive_and_accepts_10(run):
    r = deal_a()
    low = lambda c: c.lower().replace("t", "10") if c[0] == "T" else c.lower()      # noqa: E731
    r["hands"] = [[low(c) for c in h] for h in r["hands"]]
    r["kitty"], r["upcard"], r["discard"] = [low(c) for c in r["kitty"]], low(r["upcard"]), low(r["discard"])
    r["plays"] = [low(c) for c in r["plays"]]
    assert "10h" in r["plays"]
    assert run(r) == A_MARCH


def test_r1_card_not_in_the_pack(run):
    r = deal_a()
    r["hands"][0][4] = "8H"                       # no 8s in the 24-card pack
    assert broken(run, r) == ("hands[0][4]", "R1")
    r["hands"][0][4] = "JK"                       # no joker either
    assert broken(run, r) == ("hands[0][4]", "R1")
    r = deal_a()
    r["kitty"][1] = "1H"                          # no card at all
    assert broken(run, r) == ("kitty[1]", "R1")


def test_r1_every_card_exactly_once(run):
    r = deal_a()
    r["kitty"][0] = "JH"                          # also in seat 0's hand
    assert broken(run, r) == ("kitty", "R1")
    r = deal_a()
    r["hands"][2][0] = "QH"                       # seat 0 holds it already
    assert broken(run, r) == ("hands[2]", "R1")


def test_r1_joker_deck_deals_the_joker(run):
    r = deal_a(deck=25)
    assert "JK" in r["kitty"] and len(r["kitty"]) == 4
    assert run(r) == A_MARCH
    r["kitty"].remove("JK")
    assert broken(run, r) == ("kitty", "R4")


# ------------------------------------------------------------------ R2 rank of cards

def test_r2_left_bower_is_trump(run):
    assert run(deal_r2a()) == outcome(0, "H", [1, 1, 1, 1, 1], [0, 2, 0, 2])


def test_r2_right_bower_beats_left_bower(run):
    r = rec(["AH AC KC QC JC", "JD AS KS QS JS", "9H AD KD QD TD", "JH TC 9C TS 9D"], "9S", PASS4 + ["H"],
            "AH JD 9H JH | TS AC AS AD | KS KD 9D KC | QS QD TC QC | JS TD 9C JC")
    assert run(r) == outcome(0, "H", [3, 1, 1, 1, 1], [0, 2, 0, 2])


def test_r2_joker_is_the_highest_trump(run):
    r = rec(["JH AC KC QC JC", "JD AS KS QS JS", "JK AD KD QD TD", "AH TC 9C TS 9D"], "9S", PASS4 + ["H"],
            "JH JD JK AH | AD 9D AC AS | KD TS KC KS | QD TC QC QS | TD 9C JC JS", deck=25)
    assert run(r) == outcome(0, "H", [2, 2, 2, 2, 2], [2, 0, 2, 0])


def test_r2_seven_of_trump_beats_the_ace_led_in_deck_32(run):
    r = rec(["AC KC QC JC TC", "7H AS KS QS JS", "AD KD QD TD 9D", "9C 8S 8D 7D 7C"], "7S", PASS4 + ["H"],
            "AC 7H AD 9C | AS 9D 8S KC | KS TD 8D QC | QS QD 7D JC | JS KD 7C TC", deck=32)
    assert len(r["kitty"]) == 11
    assert run(r) == outcome(0, "H", [1, 1, 1, 1, 1], [0, 2, 0, 2])


def test_r2_plain_jack_ranks_between_queen_and_ten(run):
    # Trick 1: JC beats TC; trick 2: QS beats JS (neither jack is a bower with hearts trump).
    assert run(deal_d()) == outcome(0, "H", [1, 2, 2, 2, 2], [1, 0, 1, 0])


# ------------------------------------------------------------------ R3 seats, partners, dealer

def test_r3_partners_are_seats_0_2_and_1_3(run):
    assert run(deal_d()) == outcome(0, "H", [1, 2, 2, 2, 2], [1, 0, 1, 0])
    # The same play with seat 1 the maker: seats 1 and 3 took one trick, euchred.
    assert run(deal_d(calls=["pass"] * 5 + ["H"])) == outcome(1, "H", [1, 2, 2, 2, 2], [2, 0, 2, 0])


def test_r3_dealer_and_players_must_be_valid(run):
    assert broken(run, changed(deal_a(), dealer=4)) == ("dealer", "R3")
    assert broken(run, changed(deal_a(), players=5)) == ("players", "R3")


# ------------------------------------------------------------------ R4 the deal

KITTY = {(4, 24): 4, (4, 25): 5, (4, 32): 12, (4, 33): 13, (3, 24): 4, (3, 25): 5, (3, 32): 12,
         (3, 33): 13, (2, 24): 14, (2, 25): 15, (2, 32): 22, (2, 33): 23}


@pytest.mark.parametrize("players,deck", sorted(KITTY))
def test_r4_kitty_size_of_every_variant(run, players, deck):
    r = thrown_in_deal(players, deck)
    assert 1 + len(r["kitty"]) == KITTY[players, deck]
    assert run(r) == THROWN_IN[players]
    r["kitty"].pop()
    assert broken(run, r) == ("kitty", "R4")


def test_r4_five_cards_a_hand(run):
    r = deal_a()
    r["kitty"].append(r["hands"][1].pop())
    assert broken(run, r) == ("hands[1]", "R4")
    r = deal_a()
    r["hands"].pop()
    assert broken(run, r) == ("hands", "R4")


def test_r4_cutthroat_deals_a_dummy_of_five(run):
    r = deal_x()
    r["kitty"].append(r["dummy"].pop())
    assert broken(run, r) == ("dummy", "R9")
    r = deal_a()
    r["dummy"] = r["kitty"][:3]
    assert broken(run, r) == ("dummy", "R9")


# ------------------------------------------------------------------ R5 round one

def test_r5_order_makes_the_upcards_suit_trump_and_dealer_takes_it(run):
    # The dealer plays the upcard 9H in trick 1 (and must: it is a trump).
    assert run(deal_a()) == A_MARCH


def test_r5_discard_is_required_and_from_hand_or_upcard(run):
    assert broken(run, changed(deal_a(), discard=None)) == ("discard", "R5")
    assert broken(run, changed(deal_a(), discard="AC")) == ("discard", "R5")


def test_r5_discarding_the_upcard_declines_the_exchange(run):
    r = changed(deal_a(), discard="9H")
    assert broken(run, r) == ("plays[3]", "R10")             # the dealer no longer holds 9H


def test_r5_discarded_card_is_out_of_play(run):
    assert broken(run, play_changed(deal_a(), 7, "KD")) == ("plays[7]", "R10")


def test_r5_first_acceptance_ends_the_bidding(run):
    assert broken(run, changed(deal_a(), calls=["order", "pass"])) == ("calls[1]", "R5")


def test_r5_round_one_is_pass_or_order_until_someone_accepts(run):
    assert broken(run, changed(deal_a(), calls=["H"])) == ("calls[0]", "R5")
    assert broken(run, changed(deal_a(), calls=["bid"])) == ("calls[0]", "R5")
    assert broken(run, changed(deal_a(), calls=["pass", "pass"])) == ("calls", "R5")     # unfinished


def test_r5_two_hand_non_dealer_speaks_first(run):
    assert run(deal_t()) == outcome(1, "H", [1, 1, 1, 1, 1], [0, 2])
    # The non-dealer passes, the dealer accepts: the same play now euchres the dealer.
    assert run(deal_t(calls=["pass", "order"])) == outcome(0, "H", [1, 1, 1, 1, 1], [0, 2])


# ------------------------------------------------------------------ R6 round two

def test_r6_round_two_names_a_suit_no_exchange(run):
    assert run(deal_d()) == outcome(0, "H", [1, 2, 2, 2, 2], [1, 0, 1, 0])
    assert broken(run, deal_d(discard="9S")) == ("discard", "R5")


def test_r6_round_two_cannot_name_the_turned_down_suit(run):
    assert broken(run, deal_d(calls=PASS4 + ["S"])) == ("calls[4]", "R6")
    assert broken(run, deal_d(calls=PASS4 + ["order"])) == ("calls[4]", "R6")


def test_r6_all_pass_twice_throws_the_hand_in(run):
    r = deal_d(calls=["pass"] * 8, plays="")
    assert run(r) == THROWN_IN[4]
    assert broken(run, deal_d(calls=["pass"] * 8)) == ("plays[0]", "R6")
    assert broken(run, changed(r, calls=["pass"] * 9)) == ("calls[8]", "R6")
    assert broken(run, changed(r, calls=["pass"] * 6)) == ("calls", "R6")


def test_r6_stick_the_dealer_forbids_dealer_pass(run):
    stick = {"stick_the_dealer": True}
    assert broken(run, deal_d(calls=["pass"] * 8, plays="", rules=stick)) == ("calls[7]", "R6")
    # The dealer (seat 3) names hearts: seats 1 and 3 take one trick and are euchred.
    r = deal_d(calls=["pass"] * 7 + ["H"], rules=stick)
    assert run(r) == outcome(3, "H", [1, 2, 2, 2, 2], [2, 0, 2, 0])


# ------------------------------------------------------------------ R7 the joker as upcard

def test_r7_dealer_names_the_joker_suit_and_takes_the_joker(run):
    assert run(deal_k()) == K_OUTCOME                         # the dealer wins trick 1 with JK
    assert run(deal_k(joker_suit="s")) == K_OUTCOME


def test_r7_dealer_names_requires_a_joker_suit(run):
    assert broken(run, deal_k(joker_suit=None)) == ("joker_suit", "R7")


def test_r7_fixed_joker_suit_option(run):
    assert run(deal_k(rules={"joker_upcard": "S"})) == K_OUTCOME
    assert broken(run, deal_k(rules={"joker_upcard": "S"}, joker_suit="H")) == ("joker_suit", "R7")


def test_r7_round_two_excludes_the_joker_suit(run):
    assert broken(run, deal_k(calls=PASS4 + ["S"], discard=None)) == ("calls[4]", "R6")
    # Naming hearts is allowed: the record then only lacks its plays.
    assert broken(run, deal_k(calls=PASS4 + ["H"], discard=None, plays="")) == ("plays", "R10")


def test_r7_redeal_throws_the_hand_in_without_calls(run):
    r = deal_k(rules={"joker_upcard": "redeal"}, joker_suit=None, calls=[], discard=None, plays="")
    assert run(r) == THROWN_IN[4]
    assert broken(run, changed(r, calls=["pass"])) == ("calls[0]", "R7")
    assert broken(run, changed(r, joker_suit="S")) == ("joker_suit", "R7")


def test_r7_joker_option_needs_a_joker_pack(run):
    assert broken(run, deal_a(rules={"joker_upcard": "redeal"})) == ("rules", "R7")


def test_r7_joker_led_calls_for_trump(run):
    r = rec(["JK AC KC QC JC", "9H AS KS QS JS", "AD KD QD TD 9D", "AH TC 9C TS KH"], "9S", PASS4 + ["H"],
            "JK 9H AD KH | AC AS 9D TC | KC KS TD 9C | QC QS QD AH | TS JC JS KD", deck=25)
    assert run(r) == outcome(0, "H", [0, 0, 0, 3, 1], [1, 0, 1, 0])
    assert broken(run, play_changed(r, 1, "AS")) == ("plays[1]", "R10")     # seat 1 holds 9H


# ------------------------------------------------------------------ R8 going alone (4 players)

def test_r8_alone_partner_sits_out(run):
    r = deal_a(alone=[0])
    assert broken(run, r) == ("plays[2]", "R10")             # seat 2's QC: seat 3 is next to play
    assert run(changed(r, plays=A_ALONE_PLAYS)) == outcome(0, "H", [0, 0, 0, 0, 0], [4, 0, 4, 0])


def test_r8_only_the_maker_goes_alone(run):
    assert broken(run, deal_a(alone=[2])) == ("alone", "R8")     # the maker's partner
    assert broken(run, deal_a(alone=[1])) == ("alone", "R8")     # a defender, no defend_alone


def test_r8_defend_alone_needs_the_option_and_a_lone_maker(run):
    plays = "TC JC | JS 9S | JD QC | KS KC | AS AC"                   # seats 2 and 3 sit out
    assert broken(run, deal_d(alone=[0, 1], plays=plays)) == ("alone", "R8")
    on = {"defend_alone": True}
    assert broken(run, deal_d(alone=[1], rules=on)) == ("alone", "R8")
    assert run(deal_d(alone=[0, 1], plays=plays, rules=on)) == outcome(0, "H", [1] * 5, [0, 4, 0, 4])


def test_r8_nobody_goes_alone_in_the_two_hand_game(run):
    assert broken(run, deal_t(alone=[1])) == ("alone", "R8")


# ------------------------------------------------------------------ R9 Cutthroat

def test_r9_maker_takes_the_dummy_and_keeps_five(run):
    assert run(deal_x()) == outcome(0, "H", [0] * 5, [3, 0, 0])


def test_r9_dummy_keep_is_five_cards_of_hand_and_dummy(run):
    assert broken(run, deal_x(dummy_keep=None)) == ("dummy_keep", "R9")
    assert broken(run, deal_x(dummy_keep="JH JD AH KH")) == ("dummy_keep", "R9")
    assert broken(run, deal_x(dummy_keep="JH JD AH KH TS")) == ("dummy_keep", "R9")   # TS is in the kitty
    assert broken(run, changed(deal_x(), plays="9S")) == ("plays[0]", "R10")         # 9S was put away


def test_r9_lone_maker_does_not_use_the_dummy(run):
    lone = "JS JC 9S | AS QS AD | KS TS KD | AC AH QD | KC KH TD"          # left of the maker leads
    assert run(deal_z(alone=[0], plays=lone)) == outcome(0, "S", [1] * 5, [0, 2, 2])
    keep = "9S AD KD QD TD"
    assert broken(run, deal_z(alone=[0], plays=lone, dummy_keep=keep)) == ("dummy_keep", "R9")


def test_r9_lone_defender_partner_sits_out(run):
    r = deal_z(alone=[1], dummy_keep="9S AD KD QD TD", plays=Z_LONE_DEFENDER_MARCH)
    assert run(r) == outcome(0, "S", [1] * 5, [0, 4, 4])
    assert broken(run, changed(r, plays="AD JS JC")) == ("plays[2]", "R10")       # seat 2 sits out


def test_r9_maker_and_one_defender_both_alone(run):
    r = deal_z(alone=[0, 1], plays=Z_LONE_DEFENDER_MARCH)
    assert run(r) == outcome(0, "S", [1] * 5, [0, 4, 4])
    assert broken(run, deal_z(alone=[1, 2], plays=Z_LONE_DEFENDER_MARCH)) == ("alone", "R9")
    assert broken(run, changed(r, alone=[0, 1, 2])) == ("alone", "R9")


# ------------------------------------------------------------------ R10 the play

def test_r10_opening_lead_left_of_dealer(run):
    assert broken(run, play_changed(deal_a(), 0, "TH")) == ("plays[0]", "R10")


def test_r10_must_follow_suit(run):
    assert broken(run, play_changed(deal_d(), 7, "QC")) == ("plays[7]", "R10")     # seat 0 holds 9S


def test_r10_must_follow_suit_left_bower_counts_as_trump(run):
    assert broken(run, play_changed(deal_r2a(), 1, "AS")) == ("plays[1]", "R10")   # JD is a trump
    assert broken(run, play_changed(deal_d(), 11, "KS")) == ("plays[11]", "R10")


def test_r10_left_bower_does_not_follow_its_printed_suit(run):
    # Trick 1: diamonds led, seat 1 holds JD but no diamond, so JS is legal; trick 2: JD trumps a club.
    r = rec(["AD AC KC QC JC", "JD AS KS QS JS", "KD QD TD TC 9C", "9D TS AH KH QH"], "9S", PASS4 + ["H"],
            "AD JS KD 9D | AC JD TC AH | AS 9C TS KC | KS TD KH QC | QH JC QS QD")
    assert run(r) == outcome(0, "H", [0, 1, 1, 3, 3], [0, 2, 0, 2])


def test_r10_a_card_the_player_holds(run):
    assert broken(run, play_changed(deal_a(), 1, "AH")) == ("plays[1]", "R10")


def test_r10_trick_winner_leads_next(run):
    r = changed(deal_a(), plays="JH TH QC 9H | AC JD JC QS")
    assert broken(run, r) == ("plays[4]", "R10")


def test_r10_a_hand_is_five_tricks(run):
    r = deal_a()
    assert broken(run, changed(r, plays=r["plays"] + ["9D"])) == ("plays[20]", "R10")
    assert broken(run, changed(r, plays=r["plays"][:-1])) == ("plays", "R10")


def test_r10_four_hand_opposite_dealer_leads_when_left_sits_out(run):
    # Dealer 3; seat 2 orders alone, so seat 0 (left of the dealer) sits out and seat 1 leads.
    r = rec(["QC JC TC 9C AD", "TH AC KC AS KS", "JH JD AH KH QH", "QS JS TS 9S KD"], "9H",
            ["pass", "pass", "order"], "AC JH QS | JD 9H TH | AH JS KC | KH TS AS | QH 9S KS",
            alone=[2], discard="KD")
    assert run(r) == outcome(2, "H", [2] * 5, [4, 0, 4, 0])
    assert broken(run, changed(r, plays="QC")) == ("plays[0]", "R10")


def test_r10_cutthroat_left_of_a_lone_player_leads(run):
    lone = "JS JC 9S | AS QS AD | KS TS KD | AC AH QD | KC KH TD"
    assert run(deal_z(alone=[0], plays=lone)) == outcome(0, "S", [1] * 5, [0, 2, 2])
    assert broken(run, deal_z(alone=[0], plays=Z_LONE_DEFENDER_MARCH)) == ("plays[0]", "R10")


def test_r10_both_alone_lead_option(run):
    # Seat 0 makes alone, seat 1 defends alone, seat 2 sits out.
    default = deal_z(alone=[0, 1], plays=Z_LONE_DEFENDER_MARCH)   # left of the lone defender: seat 2, skipped
    assert run(default)["trick_winners"] == [1] * 5
    maker = {"both_alone_lead": "maker"}                           # left of the maker: seat 1
    assert broken(run, changed(default, rules=maker)) == ("plays[0]", "R10")
    r = deal_z(alone=[0, 1], rules=maker, plays="JS 9S | AS AD | KS KD | AC QD | KC TD")
    assert run(r) == outcome(0, "S", [1] * 5, [0, 4, 4])


# ------------------------------------------------------------------ R11 scoring one hand

@pytest.mark.parametrize("deck", [24, 25, 32, 33])
def test_r11_partnership_march_scores_2(run, deck):
    assert run(deal_a(deck=deck)) == A_MARCH


def test_r11_partnership_made_scores_1_and_euchre_2(run):
    assert run(deal_d())["points"] == [1, 0, 1, 0]
    assert run(deal_r2a())["points"] == [0, 2, 0, 2]


def test_r11_alone_march_scores_4(run):
    assert run(deal_a(alone=[0], plays=A_ALONE_PLAYS))["points"] == [4, 0, 4, 0]


def test_r11_alone_made_scores_1(run):
    r = rec(["JH JD AH KH KC", "TH AC QH AS KS", "QC JC TC 9C AD", "QS JS TS 9S KD"], "9H", ["order"],
            "JH TH 9H | JD QH QS | AH AS JS | KH KS TS | KC AC 9S", alone=[0], discard="KD")
    assert run(r) == outcome(0, "H", [0, 0, 0, 0, 1], [1, 0, 1, 0])


def test_r11_alone_euchred_scores_2(run):
    r = deal_d(alone=[0], plays="TC JC 9D | JS TD 9S | JD QD QC | KS KD KC | AS AD AC")
    assert run(r) == outcome(0, "H", [1] * 5, [0, 2, 0, 2])


def test_r11_lone_defender_euchres_a_loner_scores_4(run):
    r = deal_d(alone=[0, 1], rules={"defend_alone": True}, plays="TC JC | JS 9S | JD QC | KS KC | AS AC")
    assert run(r)["points"] == [0, 4, 0, 4]


@pytest.mark.parametrize("deck", [24, 25, 32, 33])
def test_r11_two_hand_march_2_euchre_2(run, deck):
    r = deal_t(deck=deck)
    assert len(r["kitty"]) + 1 == KITTY[2, deck]
    assert run(r)["points"] == [0, 2]
    assert run(deal_t(deck=deck, calls=["pass", "order"])) == outcome(0, "H", [1] * 5, [0, 2])


def test_r11_two_hand_made_scores_1(run):
    r = rec(["QH AC KC QC AS", "JH JD AH KH KS"], "9H", ["order"],
            "JH 9H | JD QH | AH QC | KS AS | AC KH", dealer=0, discard="KC")
    assert run(r) == outcome(1, "H", [1, 1, 1, 0, 1], [0, 1])


@pytest.mark.parametrize("deck", [24, 25, 32, 33])
def test_r11_cutthroat_march_scores_3(run, deck):
    assert run(deal_x(deck=deck)) == outcome(0, "H", [0] * 5, [3, 0, 0])


def test_r11_cutthroat_made_1_euchred_2_each(run):
    made = deal_x(dummy_keep="JH JD AH QC 9S", plays="JH TH 9H | JD 9C AD | AH TC KD | QC AC QD | JC TD 9S")
    assert run(made) == outcome(0, "H", [0, 0, 0, 1, 1], [1, 0, 0])
    lone = "JS JC 9S | AS QS AD | KS TS KD | AC AH QD | KC KH TD"
    assert run(deal_z(alone=[0], plays=lone))["points"] == [0, 2, 2]


def test_r11_cutthroat_lone_defender_4_for_all_five_else_2(run):
    keep = "9S AD KD QD TD"
    assert run(deal_z(alone=[1], dummy_keep=keep, plays=Z_LONE_DEFENDER_MARCH))["points"] == [0, 4, 4]
    r = deal_z(alone=[1], dummy_keep=keep, plays="AD AC | KD JS | AS 9S | KS QD | KC TD")
    assert run(r) == outcome(0, "S", [0, 1, 1, 1, 1], [0, 2, 2])


def test_r11_scoring_table_is_data(run):
    r = deal_a(rules={"scoring": {"partnership": {"makers": [0, 0, 0, 1, 1, 5]}}})
    assert run(r)["points"] == [5, 0, 5, 0]


# ------------------------------------------------------------------ C1..C6 (docs/choices.md)

def test_c1_cutthroat_dealer_exchanges_before_taking_the_dummy(run):
    # Dealer 0 takes 9H up (discarding KC), then keeps 9H among the best of hand + dummy.
    r = rec(["JH AH KC QC 9S", "TH AC JC TC 9C", "AD KD QD TD 9D"], "9H", ["pass", "pass", "order"],
            "AC AD JH | JD TH 9D | AH JC KD | KH TC QD | 9H 9C TD", dealer=0, dummy="JD KH QH AS KS",
            discard="KC", dummy_keep="JH JD AH KH 9H")
    assert run(r) == outcome(0, "H", [0] * 5, [3, 0, 0])
    assert broken(run, changed(r, dummy_keep="JH JD AH KH KC")) == ("dummy_keep", "R9")


def test_c1_cutthroat_defender_alone_needs_no_option(run):
    r = deal_z(alone=[2], dummy_keep="9S AD KD QD TD", plays="AD")     # seat 1 sits out, seat 0 leads
    assert broken(run, r) == ("plays", "R10")                          # only the plays are short


def test_c2_sitting_out_dealer_makes_no_exchange(run):
    # Dealer 3; seat 1 orders hearts alone, so the dealer sits out and 9H stays out of play.
    r = rec(["TH AC KC AS KS", "JH JD AH KH QH", "QC JC TC 9C AD", "QS JS TS 9S KD"], "9H", ["pass", "order"],
            "AC JH QC | JD JC TH | AH TC KC | KH 9C AS | QH AD KS", alone=[1])
    assert run(r) == outcome(1, "H", [1] * 5, [0, 4, 0, 4])
    assert broken(run, changed(r, discard="KD")) == ("discard", "R5")


def test_c3_joker_suit_only_for_a_joker_upcard(run):
    assert broken(run, deal_a(joker_suit="H")) == ("joker_suit", "R7")
    r = deal_k(joker_suit="D", calls=PASS4 + ["D"], discard=None, plays="")
    assert broken(run, r) == ("calls[4]", "R6")                         # the dealer named diamonds


def test_c4_joker_belongs_to_trump(run):
    # Seat 1's only trump is the joker: on a trump lead it must be played, and it wins.
    r = rec(["AH AC KC QC JC", "JK AS KS QS JS", "9H AD KD QD TD", "QH TC 9C TS 9D"], "9S", PASS4 + ["H"],
            "AH JK 9H QH | AS AD TS AC | KS KD 9D KC | QS QD TC QC | JS TD 9C JC", deck=25)
    assert run(r) == outcome(0, "H", [1] * 5, [0, 2, 0, 2])
    assert broken(run, play_changed(r, 1, "AS")) == ("plays[1]", "R10")


def test_c5_opening_lead_two_hand_non_dealer_cutthroat_left_of_dealer(run):
    assert broken(run, changed(deal_t(), plays="9H JH")) == ("plays[0]", "R10")     # dealer 0 led
    assert broken(run, changed(deal_x(), plays="TH JH")) == ("plays[0]", "R10")     # seat 1 led, dealer 2


def test_c6_sitting_out_seats_take_no_tricks_but_show_their_sides_points(run):
    r = deal_d(alone=[0, 1], rules={"defend_alone": True}, plays="TC JC | JS 9S | JD QC | KS KC | AS AC")
    out = run(r)
    assert out["tricks"] == [0, 5, 0, 0] and out["points"] == [0, 4, 0, 4]   # seats 2, 3 sat out
    r = deal_z(alone=[1], dummy_keep="9S AD KD QD TD", plays=Z_LONE_DEFENDER_MARCH)
    out = run(r)
    assert out["tricks"] == [0, 5, 0] and out["points"] == [0, 4, 4]        # seat 2 sat out


def test_a_score_is_read_one_way_wherever_it_is_given():
    """rules.read_scores: "-", ":" and "," between scores, spaces forgiven; None for anything not a whole
    number (a sign, a fraction, an empty part), so each caller refuses in its own words."""
    from euchresim.rules import read_scores
    assert read_scores("9-8") == read_scores("9:8") == read_scores(" 9 , 8 ") == (9, 8)
    assert read_scores("9-8-7") == (9, 8, 7) and read_scores("0") == (0,)
    for bad in ("9-", "-1-2", "9.5-8", "a-b", "", "9--8"):
        assert read_scores(bad) is None, bad
