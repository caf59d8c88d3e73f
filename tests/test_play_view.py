"""What the table's JSON says (euchresim/play/page_view.py ``table_view``), in one vocabulary with the advisor.

The upcard and what became of it stay in the view all hand; the bots'
name is the one the player gave; cards are said with the symbols the page
draws, in the reasons too; the dealer's button says "pick up" as the
advisor's options do; the verdicts name the trick and leave a hand's note
to be said once.  Sessions are driven directly (no HTTP): the server adds
nothing to these fields.
"""
import json
import re

import pytest

from euchresim.play.table import SEAT_NAMES, Session
from euchresim.play.verdicts import NO_INFERENCE, verdict_text
from euchresim.play.page_view import table_view
from euchresim.play.words import card_text, say_cards, trick_numbers
from euchresim.records.format import parse_record
from euchresim.rules import Rules
from euchresim.studies.record_text import decisions
from euchresim.studies.advisor.situation import decision_of, from_record

CODE = re.compile(r"\b[789TJQKA][CDHS]\b")      # a card as the engine writes it, never shown to the player


def hands(session, n, choose=None):
    """Play ``n`` hands, ``choose(view)`` picking each option (the first legal one by default); yield every view
    at the player's decisions and at each hand's end."""
    for _ in range(n):
        while not session.h.done:
            v = table_view(session)
            yield v
            o = (choose or (lambda v: next(o for o in v["options"] if o["legal"])))(v)
            session.act(v["hand"], v["step"], o["code"])
        yield table_view(session)
        session.next_hand(len(session.finished))


def test_the_upcard_stays_in_view_with_what_became_of_it(tmp_path):
    s = Session(Rules(), "heuristic", 3, str(tmp_path / "s"))
    seen = set()
    for v in hands(s, 8):
        up = card_text(v["upcard"])
        assert v["upcard_note"].startswith(f"upcard {up}")
        if v["maker"] is None:
            assert v["upcard_note"] == (f"upcard {up}, turned down" if len(v["bidding"]) >= 4 else f"upcard {up}")
        elif v["bidding"][-1]["round"] == 1:
            assert v["upcard_note"] == f"upcard {up}, picked up by {SEAT_NAMES[v['dealer']]}"
            seen.add("picked up")
        else:
            assert v["upcard_note"] == f"upcard {up}, turned down"
            seen.add("turned down")
    assert seen == {"picked up", "turned down"}         # both, during the play and at the hand's end


def test_the_bots_name_is_the_one_given_and_a_resume_keeps_it(tmp_path):
    s = Session(Rules(), "heuristic:human", 1, str(tmp_path / "s"))
    v = table_view(s)
    assert v["bot"] == "heuristic:human"
    assert v["bot_params"] == s.bot and s.bot.startswith("heuristic:") and s.bot != "heuristic:human"
    assert json.load(open(tmp_path / "s" / "session.json"))["bot"] == s.bot       # the records keep the canonical one
    s.close()
    again = Session(Rules(), s.bot, 1, str(tmp_path / "s"), resume=True)     # as cli/play.py resumes it
    assert table_view(again)["bot"] == "heuristic:human"
    again.close()


def test_cards_are_said_with_the_pages_symbols_in_the_reasons(tmp_path):
    s = Session(Rules(), "heuristic", 2, str(tmp_path / "s"))
    whys = [o["why"] for v in hands(s, 3) for o in v.get("options", []) if not o["legal"]]
    follow = [w for w in whys if "you must follow suit" in w]
    assert follow, "no hand offered a card the rules refuse"
    for w in whys:
        assert not CODE.search(w), w
    assert any(ch in follow[0] for ch in "\u2663\u2666\u2665\u2660")
    assert say_cards("TS cannot be played: you hold JD, 9H") == "10\u2660 cannot be played: you hold J\u2666, 9\u2665"


def test_the_dealers_button_says_pick_up_as_the_advisor_labels_it(tmp_path):
    """Round one's buttons and calls say the advisor's words: whatever the page shows is one of its options."""
    s = Session(Rules(), "heuristic", 4, str(tmp_path / "s"))
    seen = set()
    always_order = lambda v: next(o for o in v["options"] if o["legal"] and (v["phase"] != "bid1" or o["code"] == 1))
    for v in hands(s, 6, always_order):
        if v.get("options") and v["phase"] == "bid1":
            rec = parse_record(s.finished_by_bots())
            advisor = decision_of(from_record(rec, calls=len(v["bidding"]), plays=0, decision="bid1")).labels
            labels = [o["label"] for o in v["options"]]
            assert set(labels) <= set(advisor), (labels, advisor)
            assert labels == ["pass", "pick up" if v["dealer"] == 0 else "order"]
            assert ("pick up" in v["prompt"]) == (v["dealer"] == 0)
            seen.add(v["dealer"] == 0)
        for b in v["bidding"]:
            if b["round"] == 1 and b["call"] != "pass":
                assert b["call"] == ("pick up" if b["seat"] == v["dealer"] else "order")
    assert seen == {True, False}


def test_a_verdict_names_the_trick_and_its_cards_and_leaves_the_hands_note_out():
    r = {"did": "AH", "best": "KS", "gave_up": 0.25, "gave_up_low": 0.1, "gave_up_high": 0.4,
         "where": "trick 3, your lead", "inference": False}
    assert verdict_text(r) == ("trick 3, your lead: A\u2665 gave up 0.25 points a hand [+0.10, +0.40] "
                               "against K\u2660")
    assert verdict_text({**r, "did": "KS", "gave_up": 0.0}) == "trick 3, your lead: K\u2660: the best"
    assert NO_INFERENCE not in verdict_text(r) and "narrowed" not in verdict_text(r)
    joker = {**r, "kind": "joker_suit", "where": "the joker's suit", "did": "H", "best": "S"}
    assert verdict_text(joker).startswith("the joker's suit: hearts gave up 0.25")          # as its button says
    assert verdict_text(joker).endswith("against spades")


@pytest.mark.parametrize("seed", [2, 3])         # 3: a partner goes alone in the first hand (3 cards a trick)
def test_each_play_is_given_the_trick_it_was_played_to(tmp_path, seed):
    """The trick a verdict names: the tricks on the table when the card was played, plus one, counted from the
    record's own cards (tricks of 4, or of 3 when a seat goes alone) -- not from the engine that numbers them."""
    s = Session(Rules(), "heuristic", seed, str(tmp_path / "s"))
    for _ in hands(s, 4):
        pass
    for obj in s.finished:
        rec = parse_record(obj)
        per = 4 - len(rec.alone)
        plays = [d for d in decisions(rec) if d["kind"] == "play"]
        assert trick_numbers(rec) == {d["step"]: k // per + 1 for k, d in enumerate(plays)}
        assert sorted(set(trick_numbers(rec).values())) == ([1, 2, 3, 4, 5] if rec.plays else [])


@pytest.mark.parametrize("players", [2, 3])
def test_the_tricks_named_in_the_2_and_3_hand_games(tmp_path, players):
    """Fewer seats, fewer cards a trick: five tricks of equal size, in the order played."""
    s = Session(Rules(players=players), "heuristic", 5, str(tmp_path / "s"))
    for _ in range(3):
        while not s.h.done:
            s.act(len(s.finished), s.step, next(a for a in range(64) if (s.h.legal() >> a) & 1))
        s.next_hand(len(s.finished))
    for obj in s.finished:
        numbers = list(trick_numbers(parse_record(obj)).values())
        if numbers:
            assert numbers == sorted(numbers) and sorted(set(numbers)) == [1, 2, 3, 4, 5]
            assert len({numbers.count(t) for t in range(1, 6)}) == 1 and numbers.count(1) <= players


def _makes(v):
    """The player's choice that makes trump where it can (order, name a suit), takes the dummy, keeps the first
    five of the ten, defends alone; else the first legal option: a code, or a Cutthroat keep's board."""
    legal = [o for o in v["options"] if o["legal"]]
    if v.get("keep"):
        return sum(1 << o["code"] for o in legal[:v["keep"]])
    wanted = {"order", "pick up", "clubs", "diamonds", "hearts", "spades", "take the dummy", "defend alone"}
    return next((o for o in legal if o["label"] in wanted), legal[0])["code"]


def _legal_codes(s):
    legal = s.h.legal()
    return {a for a in range(64) if (legal >> a) & 1}


@pytest.mark.parametrize("players,seed", [(2, 5), (3, 2), (3, 1)])
def test_the_2_hand_and_cutthroat_views_name_their_seats_parties_keep_and_partnership(tmp_path, players, seed):
    """Seats and scores by the variant's parties; the options are the engine's legal actions (Cutthroat's keep:
    the ten cards, any five of them); the partnership once there is a maker; the result line per variant."""
    s = Session(Rules(players=players), "heuristic", seed, str(tmp_path / "s"))
    names = {2: ["you", "opponent"], 3: ["you", "left", "right"]}[players]
    seen = set()
    for _ in range(3):
        while not s.h.done:
            v = table_view(s)
            assert v["seats"] == v["parties"] == names and len(v["score"]) == len(v["tricks_won"]) == players
            assert all(b["seat"] < players for b in v["bidding"]) and v["party_of"] == list(range(players))
            legal = {o["code"] for o in v["options"] if o["legal"]}
            assert legal == _legal_codes(s)                      # the keep: the ten cards the engine offers
            if v.get("keep"):
                assert v["keep"] == 5 and len(v["options"]) == 10 and v["phase"] == "dummy_keep"
                assert sorted(o["from"] for o in v["options"]) == ["dummy"] * 5 + ["hand"] * 5
                seen.add("keep")
            if players == 3 and v["maker"] is not None and v["phase"] != "alone":
                maker = names[v["maker"]]
                against = f"against {maker}" + (" alone" if v["maker"] in v["alone"] else ", with the dummy")
                assert v["partnership"].split("; ")[0].endswith(against)
                assert v["dummy"] in (f"the dummy: taken up by {maker}", f"the dummy: set aside ({maker} went alone)")
                seen.add("partnership")
            if v["phase"] == "defend_alone":
                assert v["prompt"].startswith(f"{names[v['maker']]} made trump") and "sits out" in v["prompt"]
                seen.add("defend")
            a = _makes(v)
            s.act(v["hand"], v["step"], a)
            if v["phase"] == "defend_alone" and a == 1:
                w = table_view(s)
                assert w["partnership"].startswith("you defend alone against ") and "sits out" in w["partnership"]
                assert len(w["sitting_out"]) == 1
        v = table_view(s)
        assert v["points"] == [int(p) for p in s.finished[-1]["points"]]
        if v["maker"] is not None:
            made = s.finished[-1]["tricks"][v["maker"]]
            assert v["result"].startswith(f"{names[v['maker']]} made {v['trump']}")
            assert f": {names[v['maker']]} took {made} trick" in v["result"]
            assert v["result"].endswith("; points " + ", ".join(f"{p} to {n}" for p, n in zip(v["points"], names)))
        s.next_hand(len(s.finished))
    assert {"keep", "partnership"} <= seen if seed == 2 else True
    assert "defend" in seen if (players, seed) == (3, 1) else True
    s.close()
