"""The table's advisor (euchresim/play/verdicts.py): show --advise's numbers for the player's seat, and their tally.

The verdict on each of the player's decisions must be the row
``analysis.advisor_table.review_hand`` gives for that decision of the saved
record (the function ``show --advise`` calls), worked out in a worker
process; the session's tally adds them by kind with an interval whose
half-width is the root of the summed squared half-widths.
"""
from euchresim.policies import seats
import json
import math
import time

import pytest

from euchresim.studies.advisor import evaluate as A


from euchresim.analysis.advisor_table import review_hand
from euchresim.play.table import Session
from euchresim.play.verdicts import Advisor, failed, judge, kind_of, summary, verdict_text
from euchresim.records.format import parse_record
from euchresim.rules import Rules
from euchresim.stats import Z95

SAMPLES = 300


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A hand played to its end with the player taking the last legal option each time: (record, decisions)."""
    s = Session(Rules(), "heuristic", 6, str(tmp_path_factory.mktemp("v") / "s"))
    while not s.h.done:
        opts = [a for a in range(64) if (s.h.legal() >> a) & 1]
        s.act(len(s.finished), s.step, opts[-1])
    s.close()
    return s.finished[0], list(s.mine)


def test_each_verdict_is_review_hands_row_for_the_players_decision(played):
    record, mine = played
    rows = judge(record, mine, seats(["heuristic"], 4), SAMPLES)
    review = review_hand(parse_record(record), seats(["heuristic"], 4), SAMPLES, seed=0, infer=rows[0]["inference"])
    want = review[review["seat"] == 0]
    assert [r["step"] for r in rows] == list(want["step"]) and rows
    assert {r["step"] for r in rows} <= {d["step"] for d in mine}
    for r, (_, w) in zip(rows, want.iterrows()):
        assert (r["did"], r["best"], r["kind"]) == (w["did"], w["best"], w["kind"])
        assert r["gave_up"] == w["gave_up"] and r["gave_up_low"] == w["gave_up_low"]
        assert r["gave_up_high"] == w["gave_up_high"]
        assert r["group"] == kind_of(next(d for d in mine if d["step"] == r["step"]))


@pytest.mark.slow
@pytest.mark.parametrize("pick", [0, -1])
def test_calls_the_bots_would_never_make_are_judged_and_a_decision_left_without_deals_says_so(tmp_path, pick,
                                                                                               monkeypatch):
    """Taking the first legal option (passes, low cards) is play the bots can explain; the last (every loner,
    the highest suit) is not. The softened model (loops/advisor_kernels.py) judges both with inference. Where it still
    leaves too few deals (here forced: ``stray`` 0, the model exactly, which leaves none for the bots'
    decisions after the player's loner) that decision is judged with no inference, says so, and the review
    goes on: show --advise reviews every seat's decisions, the table the player's."""
    from euchresim.analysis.advisor_table import format_review, review_hand
    from euchresim.records.format import parse_record
    s = Session(Rules(), "heuristic", 6, str(tmp_path / "s"))
    while not s.h.done:
        opts = [a for a in range(64) if (s.h.legal() >> a) & 1]
        s.act(len(s.finished), s.step, opts[pick])
    s.close()
    rows = judge(s.finished[0], s.mine, seats(["heuristic"], 4), SAMPLES)
    assert rows and all(r["inference"] for r in rows)
    assert not any("deals not narrowed" in r["text"] for r in rows)
    exact = A.advise
    monkeypatch.setattr(A, "advise", lambda *a, **k: exact(*a, **{**k, "stray": 0.0}))
    review = review_hand(parse_record(s.finished[0]), seats(["heuristic"], 4), SAMPLES)
    others = review.loc[review["seat"] != 0]
    assert len(others) and bool(others["inference"].all()) is (pick == 0)
    assert review.loc[review["seat"] == 0, "inference"].all()     # the true deal fits the player's own view
    text = format_review(review, "heuristic")
    assert ("judged on every deal the cards allow" in text) is (pick != 0)
    assert text.count(" *\n") + text.endswith(" *") == int((~review["inference"]).sum())


@pytest.mark.slow
def test_the_advisor_works_beside_the_game_and_says_when_it_fails(played, capsys):
    record, mine = played
    adv = Advisor("heuristic", SAMPLES, model=seats(["heuristic"], 4))
    try:
        adv.submit(0, record, mine)
        adv.submit(1, {"players": 4}, [])                   # not a record: that hand fails, the next is judged
        adv.submit(2, record, mine)
        assert adv.state()["pending"] >= 1
        deadline = time.time() + 600
        while adv.state()["pending"] and time.time() < deadline:
            time.sleep(0.2)
        st = adv.state()
    finally:
        adv.stop()
    assert st["pending"] == 0
    assert st["hands"]["0"]["status"] == "done" and st["hands"]["2"]["status"] == "done"
    assert st["hands"]["0"]["rows"] == judge(record, mine, seats(["heuristic"], 4), SAMPLES)
    assert st["hands"]["1"]["status"] == "failed" and "\n" not in st["hands"]["1"]["error"]
    err = capsys.readouterr().err                          # the terminal says where the failure came from
    assert f"the verdict on hand 1 failed: {st['hands']['1']['error']}" in err and "Traceback" in err
    assert st["summary"]["hands"] == 2
    json.dumps(st, allow_nan=False)                        # the page reads it as JSON


def test_a_failure_is_one_line_for_the_page_and_its_traceback_for_the_terminal():
    import io
    from concurrent.futures import ProcessPoolExecutor
    with ProcessPoolExecutor(1) as pool:                    # as the advisor's worker raises it: the cause holds
        fut = pool.submit(int, "not a number")              # the worker's traceback
        with pytest.raises(ValueError) as caught:
            fut.result()
    err = io.StringIO()
    line = failed("the hint for step 3", caught.value, err)
    assert line == "ValueError: invalid literal for int() with base 10: 'not a number'"
    out = err.getvalue()
    assert out.startswith(f"euchresim play: the hint for step 3 failed: {line}\n") and "Traceback" in out
    err = io.StringIO()                                     # raised here: its own traceback
    try:
        raise KeyError("seat")
    except KeyError as e:
        assert failed("the verdict on hand 0", e, err) == "KeyError: 'seat'"
    assert "Traceback" in err.getvalue() and "test_play_verdicts.py" in err.getvalue()
    assert failed("a hint", ValueError("\nthe second line says it"), io.StringIO()) == "ValueError: the second line says it"
    gone = io.StringIO()
    gone.close()                                            # the terminal is gone: the line, and no exception
    assert failed("a hint", KeyError("seat"), gone) == "KeyError: 'seat'"


def test_the_tally_adds_by_kind_with_half_widths_in_quadrature():
    def row(group, g, half):
        return {"group": group, "gave_up": g, "gave_up_low": g - half, "gave_up_high": g + half}
    hands = [[row("calls", 0.3, 0.1), row("leads", 0.0, 0.0), row("follows", 0.2, 0.05)],
             [row("calls", 0.1, 0.2), {"group": "discards", "gave_up": None, "gave_up_low": None,
                                       "gave_up_high": None}]]
    out = summary(hands)
    by = {k["kind"]: k for k in out["kinds"]}
    assert out["hands"] == 2
    assert by["calls"]["gave_up"] == pytest.approx(0.4) and by["calls"]["decisions"] == 2
    half = math.sqrt(0.1 ** 2 + 0.2 ** 2)
    assert by["calls"]["low"] == pytest.approx(0.4 - half) and by["calls"]["high"] == pytest.approx(0.4 + half)
    assert by["calls"]["per_hand"] == pytest.approx(0.2)
    assert by["follows"]["gave_up"] == pytest.approx(0.2) and by["leads"]["decisions"] == 1
    assert by["discards"]["decisions"] == 0 and by["discards"]["gave_up"] == 0
    assert Z95 > 1.95


def test_an_interval_widened_by_a_sequential_stop_is_taken_back_at_its_own_z():
    """A verdict whose interval allows for the stop's looks (z 3 instead of 1.96) carries the same standard
    error as a plain one a third narrower: the tally's 95% interval is built from the errors, not the widths."""
    se = 0.05
    wide = {"group": "calls", "gave_up": 0.3, "gave_up_low": 0.3 - 3 * se, "gave_up_high": 0.3 + 3 * se,
            "interval_z": 3.0}
    plain = {"group": "calls", "gave_up": 0.3, "gave_up_low": 0.3 - Z95 * se, "gave_up_high": 0.3 + Z95 * se}
    a, b = summary([[wide]])["kinds"][0], summary([[plain]])["kinds"][0]
    assert a["low"] == pytest.approx(b["low"]) == pytest.approx(0.3 - Z95 * se)


@pytest.mark.parametrize("decision,kind", [
    ({"kind": "bid1", "lead": False}, "calls"), ({"kind": "bid2", "lead": False}, "calls"),
    ({"kind": "alone", "lead": False}, "calls"), ({"kind": "discard", "lead": False}, "discards"),
    ({"kind": "play", "lead": True}, "leads"), ({"kind": "play", "lead": False}, "follows"),
])
def test_decisions_fall_in_their_kind(decision, kind):
    assert kind_of(decision) == kind


def test_a_verdict_in_words():
    r = {"did": "pass", "best": "order", "gave_up": 0.31, "gave_up_low": 0.22, "gave_up_high": 0.40}
    assert verdict_text(r) == "pass gave up 0.31 points a hand [+0.22, +0.40] against order"
    assert verdict_text({**r, "gave_up_low": -0.01}).endswith("against order (not clearly worse)")
    assert verdict_text({**r, "did": "order", "gave_up": 0.0}) == "order: the best"


@pytest.mark.slow
def test_a_verdict_at_once_is_the_one_the_hands_record_gives(tmp_path):
    """Judged right after the decision, on the hand finished by the bots: the seat's view then is the same
    whatever the ending, so the verdict is the one the hand's own record gets at its end."""
    from euchresim.play import open_table
    server, s, adv = open_table(Rules(), "heuristic", 2, str(tmp_path / "s"), samples=SAMPLES, each_decision=True)
    try:
        while not s.h.done:
            opts = [a for a in range(64) if (s.h.legal() >> a) & 1]
            s.act(len(s.finished), s.step, opts[0])
        deadline = time.time() + 600
        while adv.state()["pending"] and time.time() < deadline:
            time.sleep(0.2)
        hand = adv.state()["hands"]["0"]
    finally:
        adv.stop()
        s.close()
        server.server_close()
    assert hand["status"] == "done" and len(hand["now"]) == len(hand["rows"]) >= 3
    assert sorted(hand["now"], key=lambda r: r["step"]) == hand["rows"]
    assert {r["step"] for r in hand["rows"]} <= {d["step"] for d in s.mine}
