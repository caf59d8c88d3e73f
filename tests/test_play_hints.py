"""The table's hint, review and picture through its API (play/hints.py, play/review.py, server.py).

A hint is the advisor's table for the decision in front of the player,
worked out in the advisor's worker and the very numbers the hand's
verdict later gives that decision; it is written into the hand's record
and left out of the session's tally.  A review steps a finished hand
through the player's decisions and never says a card the player had not
seen then.  The picture's numbers add up to the tally's.
"""
import json
import re
import time

import pytest

from euchresim.play import open_table
from euchresim.play.hints import tally
from euchresim.play.table import SUIT_NAMES
from euchresim.play.words import card_text
from euchresim.records.format import RecordError, parse_record
from euchresim.rules import Rules
from euchresim.studies.record_text import decisions
from tests.test_play_server import call, first_legal, play_hand, table  # noqa: F401  (the fixture)
from tests.helpers import serve

SAMPLES = 200
SEED = 2


@pytest.fixture
def advised(tmp_path):
    server, session, advisor = open_table(Rules(), "heuristic", SEED, str(tmp_path / "advised"), samples=SAMPLES)
    yield serve(server), session, advisor
    server.shutdown()
    server.server_close()
    session.close()
    advisor.stop()


def wait_for(base, done, timeout=300):
    """The state once ``done(state)`` holds (the advisor works in the background)."""
    end = time.time() + timeout
    while True:
        _, _, state = call(base, "/api/state")
        if done(state):
            return state
        assert time.time() < end, "the advisor did not answer in time"
        time.sleep(0.05)


def read_records(session):
    return [json.loads(line) for line in open(session.path).read().splitlines()]


# ------------------------------------------------------------------ the record's hints field

def test_a_record_keeps_its_hints_and_a_malformed_hints_field_is_refused_in_one_line():
    obj = {"players": 4, "deck": 24, "dealer": 0,
           "hands": [["QH", "JH", "TH", "9H", "AC"], ["KS", "AH", "QD", "JD", "9D"],
                     ["JS", "9S", "AD", "TC", "9C"], ["QS", "TS", "KD", "TD", "JC"]],
           "upcard": "QC", "hints": [{"step": 1, "kind": "bid1", "best": "pass", "options": []}]}
    assert parse_record(obj).dealer == 0
    for bad, where in (("pass", "hints:"), ([3], "hints[0]:"), ([{"kind": "bid1"}], "hints[0].step:"),
                       ([{"step": -1}], "hints[0].step:"), ([{"step": True}], "hints[0].step:")):
        with pytest.raises(RecordError) as e:
            parse_record({**obj, "hints": bad})
        assert str(e.value).startswith(where) and "\n" not in str(e.value)
    with pytest.raises(RecordError, match="^hint: not a hand-record field"):
        parse_record({**obj, "hint": []})


# ------------------------------------------------------------------ a hint before the player acts

@pytest.mark.slow
def test_a_hint_is_the_advisors_table_for_the_decision_and_the_verdict_agrees_with_it(advised):
    base, session, advisor = advised
    _, _, state = call(base, "/api/state")
    assert state["hints"] == [] and state["turn"] == 0
    hand, step = state["hand"], state["step"]
    status, _, after = call(base, "/api/hint", {"hand": hand, "step": step})
    assert status == 200 and [h["step"] for h in after["hints"]] == [step]
    assert after["hints"][0]["status"] == "waiting"      # the request does not wait for the advisor
    assert after["step"] == step                          # asking acts on nothing
    call(base, "/api/hint", {"hand": hand, "step": step})  # asked twice: asked once
    state = wait_for(base, lambda s: s["hints"][0]["status"] != "waiting")
    h = state["hints"][0]
    assert h["status"] == "done", h
    legal = [o for o in state["options"] if o["legal"]]
    assert len(h["options"]) >= len(legal) >= 2          # every option (a call's alone variants too)
    for o in h["options"]:
        assert o["low"] <= o["points"] <= o["high"] and o["gap_low"] <= o["gap"] <= o["gap_high"]
    assert sum(o["best"] for o in h["options"]) == 1 and h["samples"] > 0
    # play the option the hint did not recommend, if the page offers it, then the rest of the hand
    other = next(o for o in legal if o["label"] != h["best"])
    status, _, state = call(base, "/api/act", {"hand": hand, "step": step, "action": other["code"]})
    assert status == 200
    while not state["done"]:
        _, _, state = call(base, "/api/act", {"hand": state["hand"], "step": state["step"],
                                              "action": first_legal(state)["code"]})
    state = wait_for(base, lambda s: s["advice"]["hands"]["0"]["status"] == "done")
    rows = state["advice"]["hands"]["0"]["rows"]
    row = next(r for r in rows if r["step"] == step)
    # the hand's verdict on the hinted decision: the hint's best, and the hint's gap for what was done
    assert row["best"] == h["best"] and row["hinted"] and row["text"].endswith("(you asked a hint)")
    did = next(o for o in h["options"] if o["action"] == row["did"])
    assert (row["gave_up"], row["gave_up_low"], row["gave_up_high"]) == pytest.approx(
        (did["gap"], did["gap_low"], did["gap_high"]))
    # kept apart from the tally: the hinted decision is left out, and counted
    assert state["advice"]["hinted"] == 1
    assert sum(k["decisions"] for k in state["advice"]["summary"]["kinds"]) == len(rows) - 1
    # written into the hand's record, which parses and steps as any other
    obj = read_records(session)[0]
    assert [x["step"] for x in obj["hints"]] == [step] and obj["hints"][0]["best"] == h["best"]
    assert obj["hints"][0]["options"] == h["options"]
    assert decisions(parse_record(obj))[step]["seat"] == 0


def test_a_hint_out_of_turn_or_malformed_is_refused_in_one_line(advised, table):
    base, session, _ = advised
    _, _, state = call(base, "/api/state")
    hand, step = state["hand"], state["step"]
    for body, code, words in (({"hand": hand, "step": step + 1}, 409, "the hand is at step"),
                              ({"hand": hand + 1, "step": step}, 409, "is over"),
                              ({"hand": hand, "step": "1"}, 400, "whole number"),
                              ({"hand": hand, "step": step, "action": 0}, 400, "unknown field")):
        status, _, text = call(base, "/api/hint", body)
        assert status == code and words in text and text.count("\n") == 1, (body, status, text)
    status, _, text = call(base, "/api/hint", raw=b'{"hand": 0, "step": 0}', headers={"Content-Type": "text/plain"})
    assert status == 415
    status, _, text = call(base, "/api/hint", method="GET")
    assert status == 405
    # the advisor off: no one to ask
    off, _ = table
    _, _, s = call(off, "/api/state")
    status, _, text = call(off, "/api/hint", {"hand": s["hand"], "step": s["step"]})
    assert status == 409 and "advisor is off" in text


# ------------------------------------------------------------------ a review of a finished hand

def _seen_only(step, rec, plays_before):
    """Every card a step names, as code or as drawn, is one the player held, the upcard, or one played by then."""
    seen = set(rec["hands"][0]) | {rec["upcard"]} | set(rec["plays"][:plays_before])
    hidden = (set(c for h in rec["hands"][1:] for c in h) | set(rec["kitty"])) - seen
    text = json.dumps(step, ensure_ascii=False)
    return [c for c in hidden if re.search(rf"\b{c}\b", text) or card_text(c) in text]


@pytest.mark.slow
def test_a_review_steps_through_the_players_decisions_with_what_they_saw_and_the_verdicts(advised):
    base, session, advisor = advised
    play_hand(base)
    status, _, text = call(base, "/api/review?hand=1")
    assert status == 409 and "still being played" in text
    state = wait_for(base, lambda s: s["advice"]["hands"]["0"]["status"] == "done")
    status, _, rev = call(base, "/api/review?hand=0")
    assert status == 200 and rev["hand"] == 0
    obj = read_records(session)[0]
    mine = [d for d in decisions(parse_record(obj)) if d["seat"] == 0]
    assert [s["step"] for s in rev["steps"]] == [d["step"] for d in mine]
    rows = {r["step"]: r for r in state["advice"]["hands"]["0"]["rows"]}
    for s, d in zip(rev["steps"], mine):
        assert _seen_only(s, obj, d["plays"]) == [], s            # never a card the player had not seen
        assert sum(len(t["cards"]) for t in s["tricks"]) == d["plays"] and len(s["bidding"]) == d["calls"]
        assert s["upcard"] == obj["upcard"]
        # what was done, in the words of its button
        said = {"pass": "pass", **SUIT_NAMES, "order": "pick up" if obj["dealer"] == 0 else "order"}
        assert s["did"] == (card_text(d["action"]) if d["kind"] in ("play", "discard") else
                            said.get(d["action"], d["action"])), s
        if d["step"] in rows:
            assert s["verdict"]["text"] == rows[d["step"]]["text"]
        else:
            assert "only option" in s["verdict"]["text"]
    played = [d["action"] for d in mine if d["kind"] == "play"]
    assert [c for c in played if c in rev["steps"][-1]["your_hand"]] == [played[-1]]   # cards leave the hand
    for path, code in (("/api/review?hand=5", 404), ("/api/review?hand=x", 400), ("/api/review", 400),
                       ("/api/review?hand=0&seat=1", 400)):
        status, _, text = call(base, path)
        assert status == code and text.count("\n") == 1, (path, status, text)
    status, _, _ = call(base, "/api/review?hand=0", {"hand": 0})
    assert status == 405


# ------------------------------------------------------------------ the session in a picture

@pytest.mark.slow
def test_the_picture_adds_up_each_hands_verdicts_and_the_tally_by_kind(advised):
    base, session, advisor = advised
    for hand in range(2):
        if hand:
            call(base, "/api/next", {"hand": hand})
        play_hand(base)
    state = wait_for(base, lambda s: s["advice"]["pending"] == 0)
    pic = state["picture"]
    assert [h["hand"] for h in pic["hands"]] == [0, 1] and pic["judged"] == 2
    for h in pic["hands"]:
        rows = state["advice"]["hands"][str(h["hand"])]["rows"]
        assert h["gave_up"] == pytest.approx(sum(r["gave_up"] for r in rows))
        assert h["low"] <= h["gave_up"] <= h["high"] and h["decisions"] == len(rows)
    assert pic["kinds"] == state["advice"]["summary"]["kinds"]
    assert sum(h["gave_up"] for h in pic["hands"]) == pytest.approx(sum(k["gave_up"] for k in pic["kinds"]))


@pytest.mark.slow
def test_a_resumed_session_reads_its_hints_back_and_keeps_them_out_of_the_tally(advised):
    base, session, advisor = advised
    _, _, state = call(base, "/api/state")
    call(base, "/api/hint", {"hand": state["hand"], "step": state["step"]})
    wait_for(base, lambda s: s["hints"][0]["status"] == "done")
    play_hand(base)
    session.close()
    server, again, judge = open_table(Rules(), "heuristic", SEED, session.folder, resume=True, samples=SAMPLES)
    try:
        assert again.hints.steps(0) == {state["step"]}
        end = time.time() + 300
        while judge.state()["pending"] or judge.state()["hands"]["0"]["status"] != "done":
            assert time.time() < end
            time.sleep(0.05)
        assert tally(judge.state(), again.hints)["hinted"] == 1
    finally:
        judge.stop()
        again.close()
        server.server_close()
