"""The advisor at a table of people: the seat's words, the record's score, the calls as printed, who the other
seats are, no recommendation on noise, and the settings a search bot gets (issue 34)."""
from euchresim.policies import seats
import json
import os
import re

import numpy as np
import pandas as pd
import pytest

from euchresim.studies.advisor import evaluate as A

from euchresim.studies.advisor import situation as S
from tests.helpers import one_error_line, run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _docs_seat_table():
    """The rows of docs/advise.md's table of --seat spellings: (players, seat, [spellings])."""
    text = open(os.path.join(ROOT, "docs", "advise.md"), encoding="utf-8").read()
    rows = re.findall(r"^\| (\d) \| ([a-z-]+) \| ([^|]+) \|$", text, re.M)
    return [(int(p), seat, [w.strip() for w in also.split(",")]) for p, seat, also in rows]


def test_every_seat_spelling_is_the_seat_the_docs_table_says_and_the_table_lists_every_spelling():
    """First hand speaks first (the dealer's left), second hand is the dealer's partner, third the right,
    fourth the dealer (3 players: left, right, dealer; 2: the non-dealer, then the dealer)."""
    from euchresim.studies.advisor.situation_words import POSITIONS, SYNONYMS, seat_words
    from euchresim.studies.advisor.situation_words import parse_position as _position
    rows = _docs_seat_table()
    assert {p for p, _, _ in rows} == {2, 3, 4}
    documented = {p: set() for p in (2, 3, 4)}
    for players, seat, words in rows:
        for w in [seat] + words:
            documented[players].add(seat_words(w))
            assert _position(w, players) == POSITIONS[players][seat], (players, w)
            assert _position(w.upper().replace(" ", "-"), players) == POSITIONS[players][seat]
    for players in (2, 3, 4):
        assert set(SYNONYMS[players]) | set(POSITIONS[players]) == documented[players], players
    assert _position("second hand", 4) == 2 and _position("third hand", 4) == 3 and _position("first hand", 4) == 1
    assert _position("fourth hand", 4) == 0


def _game_record(tmp_path, score):
    """One hand record of a game at ``score`` (us-them for seats 0+2 and 1+3)."""
    r = run(["simulate", "--hands", "3", "--seed", "2", "--records", str(tmp_path / "g.jsonl")])
    assert r.exit_code == 0, r.output
    obj = json.loads(open(tmp_path / "g.jsonl").readline())
    obj["score"] = [score[0], score[1], score[0], score[1]]
    obj["game"] = 0
    path = tmp_path / "scored.jsonl"
    path.write_text(json.dumps(obj) + "\n")
    return str(path), obj


def test_a_records_score_is_the_advices_and_score_overrides_it_saying_so(tmp_path):
    path, obj = _game_record(tmp_path, (9, 8))
    base = ["advise", "--record", path, "--after-calls", "0", "--samples", "300", "--fixed", "--json",
            "--policy", "heuristic"]
    at_record = json.loads(run(base).output)
    seat = at_record["seat"]
    assert seat == (obj["dealer"] + 1) % 4
    us, them = (9, 8) if seat % 2 == 0 else (8, 9)         # --score is the deciding seat's side first
    zero = json.loads(run(base + ["--score", "0-0"]).output)
    again = json.loads(run(base + ["--score", f"{us}-{them}"]).output)
    assert again == at_record                       # the record's score is the default
    assert zero["actions"] != at_record["actions"]  # and it matters: P(win) at 9-8 is not at 0-0
    from euchresim.records.format import parse_record
    sit = S.from_record(parse_record(obj), calls=0)
    assert sit.score == (9, 8, 9, 8)
    text = run(base[:-3] + ["--policy", "heuristic", "--score", "3-2"]).output
    assert f"the score is 3-2, from --score, in place of the record's {us}-{them}" in text
    assert "score 3-2" in text


def test_calls_take_the_words_advise_prints():
    from euchresim.studies.advisor.situation_words import parse_calls as _calls
    assert _calls("pass, Hearts,order up, pick up,spades, \u2663") == _calls("pass,H,order,order,S,C")
    assert _calls("clubs,diamonds,hearts,spades") == [2, 3, 4, 5]
    bad = one_error_line(run(["advise", "--hand", "JS JC AS KS 9C", "--upcard", "TH", "--seat", "dealer",
                              "--calls", "pass,bid"]))
    assert "--calls: call 2 ('bid')" in bad and "hearts" in bad


def _table(gap_low, gap, by_win=True, shares=(0.0, 1.0)):
    """An advice table of two options as analysis.advisor_table makes it, best first, with the rival's gap."""
    rows = [{"action": "pick up", "best": True, "equal": False, "points_best": True, "gap": 0.0, "gap_low": 0.0,
             "gap_high": 0.0, "points": 1.0, "win_probability": 0.6, "best_points_gap": 0.0,
             "best_points_gap_low": 0.0, "best_points_gap_high": 0.0, "points_gap": 0.0, "points_gap_low": 0.0,
             "points_gap_high": 0.0, "policy_share": shares[0]},
            {"action": "pick up alone", "best": False, "equal": False, "points_best": False, "gap": gap,
             "gap_low": gap_low, "gap_high": 2 * gap - gap_low, "points": 0.9, "win_probability": 0.598,
             "best_points_gap": 0.1, "best_points_gap_low": -0.2, "best_points_gap_high": 0.4,
             "points_gap": 0.1, "points_gap_low": -0.2, "points_gap_high": 0.4, "policy_share": shares[1]}]
    df = pd.DataFrame(rows)
    df.attrs["decided_by"] = "P(win)" if by_win else "points"
    return df


class _Adv:
    class situation:
        score = (0, 0, 0, 0)


def test_a_gap_whose_interval_holds_zero_is_too_close_to_call_with_both_measures():
    from euchresim.analysis.advisor_table import _verdict
    close = _verdict(_Adv, _table(-0.033, 0.002))
    text = "\n".join(close)
    assert close[0].startswith("too close to call on these deals: pick up against pick up alone")
    assert "P(win): 60.0% against 59.8%, a gap of +0.2 [-3.3, +3.7] percentage points" in text
    assert "points: +0.10 points a hand [-0.20, +0.40]" in text
    assert "the bot takes pick up alone" in text and "best:" not in text and "wins more games" not in text
    apart = "\n".join(_verdict(_Adv, _table(0.01, 0.02)))
    assert apart.startswith("best: pick up") and "too close" not in apart.split("\n")[0]
    by_points = _verdict(_Adv, _table(-0.1, 0.1, by_win=False))
    assert by_points[0].startswith("too close to call") and not any("P(win)" in x for x in by_points)


def test_the_default_table_is_people_and_the_bots_answer_is_beside_it_when_it_differs():
    """JH JD AH with TH up from the dealer's left at 0-0: strong players order; against heuristic:human the
    advice orders, against heuristic (which calls far more) it passes (issue 34's own case)."""
    r = run(["advise", "--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "left", "--quiet"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[1] == "table: heuristic:human: the other seats call as people do at online tables"
    assert any(ln.startswith("best: order,") for ln in lines)
    assert "against heuristic (the other seats are bots that call far more than people) the answer differs:" \
        in r.output
    assert "heuristic:human after the decision" in r.output and "order_1=" not in r.output
    given = run(["advise", "--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "left", "--quiet",
                 "--policy", "heuristic"])
    assert "\nagainst heuristic" not in given.output and "table: heuristic: " in given.output
    js = json.loads(run(["advise", "--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "left",
                         "--json"]).output)
    assert js["recommended"] == "order" and js["against_bots"]["recommended"] == "pass"
    assert js["policy_name"] == "heuristic:human"


@pytest.mark.parametrize("policy", ["best", "pimc", "pimc:worlds=5", "dd", "heuristic", "heuristic:human",
                                    "random", "baseline"])
def test_a_search_bots_settings_follow_its_declaration(policy):
    """advise --policy best ran with the fast bots' settings (batches of 1,000, 10,000 deals, one worker, a
    20,000-hand P(win) model): whether a policy searches is declared with the built-in and read here."""
    from euchresim.policies import POLICIES, parse, seats
    declared = POLICIES[parse(policy).name.split(":")[0]].searches
    table = seats([policy], 4)
    assert table.cost.searches == declared == parse(policy).searches
    assert (policy.split(":")[0] in ("best", "pimc", "dd")) == declared
    assert A.default_batch(table) == (25 if declared else 1000)
    assert A.default_model_hands(table) == (2_000 if declared else 20_000)
    from euchresim.run.runner import default_workers
    assert A.default_workers(table) == (default_workers() if declared else 1)
    assert seats(["heuristic", policy, "heuristic", "heuristic"], 4).cost.searches == declared   # any seat that searches


@pytest.mark.slow
def test_show_advise_judges_a_call_no_bot_makes_and_a_discarded_upcard(tmp_path):
    """A pass holding the right bower, the ace and another trump of the turned suit, then a dealer who
    discards the upcard itself (R5): every decision judged, exit 0, one verdict for a call and its alone."""
    from euchresim.play.table import Session
    from euchresim.engine.layout import PH_BID1, PH_BID2, PH_DISCARD, UPCARD, BID2_PASS
    from euchresim.rules import Rules
    s = Session(Rules(), "heuristic", 5, str(tmp_path / "s"))
    found = {}
    for _ in range(300):
        while not s.h.done:
            legal = s.h.legal()
            opts = [a for a in range(64) if (legal >> a) & 1]
            ph = s.h.phase
            a = {PH_BID1: 0, PH_BID2: BID2_PASS if BID2_PASS in opts else opts[0],
                 PH_DISCARD: int(s.h.st[UPCARD])}.get(ph, opts[0])
            s.act(len(s.finished), s.step, a)
        rec = s.finished[-1]
        suit = rec["upcard"][1]
        mine = rec["hands"][0]
        if ("J" + suit) in mine and ("A" + suit) in mine and sum(c[1] == suit for c in mine) >= 3:
            found.setdefault("odd", rec)
        if rec.get("discard") and rec["discard"] == rec["upcard"] and rec["dealer"] == 0:
            found.setdefault("upcard", rec)
        if len(found) == 2:
            break
        s.next_hand(len(s.finished))
    s.close()
    assert set(found) == {"odd", "upcard"}
    path = tmp_path / "two.jsonl"
    path.write_text("".join(json.dumps(found[k]) + "\n" for k in ("odd", "upcard")))
    for line in (1, 2):
        r = run(["show", str(path), "--line", str(line), "--advise"])
        assert r.exit_code == 0 and "Traceback" not in r.output, r.output
        assert "--no-inference" not in r.output
        judged = [ln for ln in r.output.splitlines() if re.match(r"\s+step\s+\d+", ln)]
        assert len(judged) >= 5
    r = run(["show", str(path), "--line", "2", "--advise"])
    assert re.search(r"seat 0 \(dealer\)\s+discard\s+" + found["upcard"]["upcard"], r.output), r.output


@pytest.mark.slow
def test_a_call_and_its_alone_step_are_one_decision_with_one_verdict(tmp_path):
    """show --advise judged a missed loner twice (at the call, whose options include "order alone", and again
    at the alone step): the call's verdict covers both."""
    from euchresim.analysis.advisor_table import review_hand
    from euchresim.records.format import parse_record
    from euchresim.studies.record_text import decisions
    r = run(["simulate", "--hands", "30", "--seed", "4", "--records", str(tmp_path / "g.jsonl")])
    assert r.exit_code == 0, r.output
    checked = 0
    for line in open(tmp_path / "g.jsonl"):
        rec = parse_record(json.loads(line))
        steps = decisions(rec)
        alone_steps = [d["step"] for d in steps if d["kind"] == "alone"]
        if not alone_steps:
            continue
        review = review_hand(rec, seats(["heuristic"], 4), samples=200)
        assert not set(review["step"]) & set(alone_steps)
        call = [d for d in steps if d["step"] == alone_steps[0] - 1 or (d["kind"] in ("bid1", "bid2")
                                                                          and d["step"] < alone_steps[0])][-1]
        row = review.loc[review["step"] == call["step"]]
        assert len(row) == 1 and ("alone" in row.iloc[0]["did"]) == (rec.alone != ())
        checked += 1
        if checked == 2:
            break
    assert checked == 2
