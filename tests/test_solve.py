"""`euchresim solve` (docs/hand-record.md): double-dummy values of hand records.

Records are played by `simulate`'s chunks with random plays, for every
variant and pack (lone hands and lone defenders included), and cut at
every point of the play.  Each position is rebuilt from the record by the
slow reference (tests/reference.py: the bidding, the lone hands, the
exchange, the dummy, the plays so far), which shares no code with
euchresim's replay, and solved by the brute-force minimax twin of
tests/test_solver.py; solve must give its value and every card's value.
"""
import copy
import json
import os
import re

import numpy as np
import pytest

from euchresim.cards import card_str, parse_card
from euchresim.loops.record_steps import replay_record
from euchresim.studies.solve import solve_file, solve_records
from tests import reference as ref
from tests.helpers import fast_and_full, record_lines, run, write_lines as write
from tests.test_solver import brute

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(ROOT, "docs", "hand-record.md"), encoding="utf-8") as _fh:
    DOC = _fh.read()
FOUR, LONER, TWO, THREE, JOKER = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", DOC, re.S)]
OUTCOME = ("maker", "trump", "trick_winners", "tricks", "points")


def chunk_records(players, deck, count, seed, **opts):
    return [json.loads(x) for x in record_lines(players, deck, policy="random", count=count, seed=seed, **opts)]


# ------------------------------------------------------------ the reference's position

def reference_position(rec, k):
    """The position after ``rec``'s first ``k`` plays, by the reference's rules, for the twin."""
    r = ref.read_static(rec)
    p, deck, up, opts = r["players"], r["deck"], r["upcard"], r["opts"]
    bid_suit = up[1] if up != ref.JOKER else (r["joker_suit"] or opts["joker_upcard"])
    maker, trump, rnd = ref.bidding(r, bid_suit)
    lone_defender, out = ref.lone_hands(r, maker)
    hands = [list(h) for h in r["hands"]]
    ref.exchange(r, hands, maker, rnd, out, up)
    ref.take_dummy(r, hands, maker)
    seat = ref.opening_leader(r, maker, lone_defender, out)
    makers = {maker, (maker + 2) % 4} - out if p == 4 else {maker}
    active = [s for s in range(p) if s not in out]
    table, mtricks = [], 0
    for card in r["plays"][:k]:
        hands[seat].remove(card)
        table.append((seat, card))
        if len(table) == len(active):
            led = ref.suit_in_play(table[0][1], trump)
            seat = max(table, key=lambda sc: ref.power(sc[1], trump, led))[0]
            mtricks += seat in makers
            table = []
        else:
            seat = active[(active.index(seat) + 1) % len(active)]
    index = lambda c: parse_card(c, deck)     # noqa: E731
    return dict(players=p, trump=ref.SUITS.index(trump), seat=seat, mtricks=mtricks,
                hands=[[index(c) for c in hands[s]] if s in active else [] for s in range(4)],
                table=[(s, index(c)) for s, c in table], makers=sum(1 << s for s in makers),
                out=sum(1 << s for s in out))


def twin(rec, k):
    p = reference_position(rec, k)
    value, per = brute(p["players"], p["trump"], p["hands"], p["seat"], p["table"], p["makers"], p["out"],
                       p["mtricks"])
    ordered = sorted(per.items(), reverse=True)        # highest card first, as solve writes them
    return value, {card_str(c): v for c, v in ordered}


# ------------------------------------------------------------ against the twin

VARIANTS = [
    (2, 24, {}), (2, 25, {"stick_the_dealer": True}), (2, 33, {}),
    (3, 24, {}), (3, 25, {"joker_upcard": "H"}), (3, 32, {"both_alone_lead": "maker"}), (3, 33, {}),
    (4, 24, {}), (4, 24, {"defend_alone": True}), (4, 25, {"defend_alone": True}),
    (4, 32, {"defend_alone": True}), (4, 33, {"joker_upcard": "S"}),
]


@pytest.mark.parametrize("players,deck,opts", VARIANTS, ids=lambda v: str(v))
@fast_and_full("costly_cuts", 1, 5)
def test_every_cut_of_random_hands_matches_brute_force(players, deck, opts, costly_cuts):
    """Each record cut at a point of the play drawn in turn from a shuffle of them all.

    With 4 players in a hand every seat plays, the twin takes half a second
    from the opening lead, so such cuts are kept to a few per variant (one in the fast tier).
    """
    rng = np.random.default_rng(100 * players + deck + len(opts))
    records = [r for r in chunk_records(players, deck, 300, seed=deck + players, **opts) if r["maker"] is not None]
    cases, seen, costly = [], set(), 0
    points = {}                                                  # by the seats in play, the cuts not yet made
    for rec in records:
        nact = len(rec["plays"]) // 5
        if not points.get(nact):
            points[nact] = list(rng.permutation(5 * nact + 1))
        k = int(points[nact].pop())
        if nact == 4 and k < 4:
            if costly >= costly_cuts:
                continue
            costly += 1
        cases.append(dict(copy.deepcopy(rec), plays=rec["plays"][:k]))
        seen.add((nact, k))
        main = {k for n, k in seen if n == players}
        if len(cases) >= (40 if players == 4 else 60) and len(main) >= 5 * players + 1 - 3 * (players == 4):
            break
    assert len(main) >= 5 * players + 1 - 3 * (players == 4)     # every seat in: every trick, every point of it
    assert {k // players for k in main} == set(range(6)) and {k % players for k in main} == set(range(players))
    if players == 4 and opts.get("defend_alone") or players == 3:
        assert len({n for n, _ in seen}) >= 2                    # lone hands, lone defenders
    got = solve_records(cases)
    for rec, out in zip(cases, got):
        assert "error" not in out and "mismatch" not in out, out
        k = len(rec["plays"])
        full = next(r for r in records if r["hands"] == rec["hands"] and r["dealer"] == rec["dealer"])
        if k == len(full["plays"]):                              # complete: its actual tricks, no card to play
            side = [full["maker"], (full["maker"] + 2) % 4] if players == 4 else [full["maker"]]
            assert out["dd_tricks"] == sum(full["tricks"][s] for s in side)
            assert out["dd_card_values"] == {}
            assert {f: out[f] for f in OUTCOME} == {f: full[f] for f in OUTCOME}
            continue
        value, values = twin(full, k)
        assert out["dd_tricks"] == value, (rec, out)
        assert out["dd_card_values"] == values, (rec, out)
        assert list(out["dd_card_values"]) == list(values)      # highest card first
        assert (out["maker"], out["trump"]) == (full["maker"], full["trump"])
        assert not set(OUTCOME[2:]) & set(out)                  # a hand in progress has no tricks or points yet


def test_the_doc_examples_at_every_point_of_their_play():
    """The five records of hand-record.md, cut after each card, one batch of mixed rules."""
    cases = [dict(copy.deepcopy(rec), plays=rec["plays"][:k])
             for rec in (FOUR, LONER, TWO, THREE, JOKER) for k in range(len(rec["plays"]))
             if k >= 4 or rec["players"] < 4 or rec["alone"]]
    for rec, out in zip(cases, solve_records(cases)):
        full = next(r for r in (FOUR, LONER, TWO, THREE, JOKER) if r["hands"] == rec["hands"])
        assert (out["dd_tricks"], out["dd_card_values"]) == twin(full, len(rec["plays"])), rec
    for rec in (FOUR, LONER, TWO, THREE, JOKER):
        side = [rec["maker"], (rec["maker"] + 2) % 4] if rec["players"] == 4 else [rec["maker"]]
        assert solve_records([rec])[0] == dict(rec, dd_tricks=sum(rec["tricks"][s] for s in side),
                                               dd_card_values={})


def test_values_follow_perfect_play():
    """Playing a card of the position's value, seat after seat, keeps the value to the hand's end."""
    for base in (THREE, LONER, JOKER):
        rec = dict(copy.deepcopy(base), plays=[])
        value = solve_records([rec])[0]["dd_tricks"]
        while len(rec["plays"]) < len(base["plays"]):
            out = solve_records([rec])[0]
            vals = out["dd_card_values"]
            assert out["dd_tricks"] == value and value in (max(vals.values()), min(vals.values()))
            rec["plays"].append(next(c for c, v in vals.items() if v == value))
        done = solve_records([rec])[0]
        side = [done["maker"], (done["maker"] + 2) % 4] if base["players"] == 4 else [done["maker"]]
        assert done["dd_tricks"] == value == sum(done["tricks"][s] for s in side) and done["dd_card_values"] == {}


# ------------------------------------------------------------ records that cannot be solved

def test_records_that_fix_no_trump_or_break_a_rule_get_replays_error():
    thrown = dict(copy.deepcopy(TWO), calls=["pass"] * 4, plays=[])
    for k in ("maker", "trump", "trick_winners", "tricks", "points"):
        thrown.pop(k)
    illegal = dict(copy.deepcopy(FOUR), plays=FOUR["plays"][:6] + ["KS"])
    unfinished = dict(copy.deepcopy(FOUR), calls=["pass"], plays=[])
    no_discard = dict(copy.deepcopy(FOUR), discard=None, plays=FOUR["plays"][:3])
    got = solve_records([thrown, illegal, unfinished, no_discard])
    assert [g["error"] for g in got] == [
        "calls: the hand was thrown in (R6); there is no play to solve",
        "plays[6]: seat 1 played KS but must follow D (R2, R10)",
        "calls: 1 calls, but the bidding is not over; seat 2 is to speak in round one (R5)",
        "discard: missing; the dealer (seat 0) took the upcard's suit as trump and must discard or decline (R5)"]
    for rec, g in zip([illegal, unfinished, no_discard], got[1:]):
        assert g["error"] == replay_record(copy.deepcopy(rec))["error"]
    for g in got:
        assert not {"dd_tricks", "dd_card_values", "maker", "tricks"} & set(g)
    redealt = [r for r in chunk_records(4, 25, 400, seed=3, joker_upcard="redeal") if r["upcard"] == "JK"][0]
    assert solve_records([redealt])[0]["error"] == "calls: the hand was thrown in (R7); there is no play to solve"


@pytest.mark.parametrize("edit", [
    {"calls": FOUR["calls"] + ["pass"]},           # a call after the bidding ended
    {"rec": "TWO", "discard": "9C"},               # a discard in a hand with no exchange
    {"rec": "LONER", "discard": "9D"},             # ... and where the dealer sits out
])
def test_a_cut_record_is_judged_as_its_whole_self_would_be(edit):
    """What the replay checks only at a hand's end is checked for a cut record too, in the same words."""
    edit = dict(edit)
    base = {"FOUR": FOUR, "TWO": TWO, "LONER": LONER}[edit.pop("rec", "FOUR")]
    whole = dict(copy.deepcopy(base), **edit)
    want = replay_record(copy.deepcopy(whole))["error"]
    for k in (0, 3, len(base["plays"]) - 1, len(base["plays"])):
        assert solve_records([dict(copy.deepcopy(whole), plays=base["plays"][:k])])[0]["error"] == want


def test_a_keep_the_dummy_had_no_use_for():
    rec = dict(copy.deepcopy(THREE), alone=[1], plays=[])
    assert solve_records([rec])[0]["error"] == \
        "dummy_keep: the dummy is not used (the maker went alone, or no trump was made) (R9)"


def test_stated_outcomes_and_earlier_values():
    """A complete record states its outcome (compared, as replay does); a cut one keeps only maker and trump."""
    wrong = dict(copy.deepcopy(FOUR), maker=0, dd_tricks=9, dd_card_values={"AH": 1}, error="old")
    out = solve_records([wrong])[0]
    assert out["mismatch"] == {"maker": {"record": 0, "replay": 2}}
    assert (out["dd_tricks"], out["dd_card_values"], out["maker"]) == (4, {}, 2) and "error" not in out
    assert list(out)[-3:] == ["dd_tricks", "dd_card_values", "mismatch"]
    cut = dict(copy.deepcopy(FOUR), plays=FOUR["plays"][:5], dd_tricks=0)
    out = solve_records([cut])[0]
    assert "mismatch" not in out and out["maker"] == 2 and out["dd_tricks"] == 4
    assert solve_records([dict(cut, trump="H")])[0]["mismatch"] == {"trump": {"record": "H", "replay": "C"}}
    again = solve_records([copy.deepcopy(out)])[0]
    assert again == out                                   # its own output back: the same
    assert "mismatch" not in replay_record(solve_records([copy.deepcopy(FOUR)])[0])   # replay reads the fields


# ------------------------------------------------------------ the command

def test_cli_solves_the_good_and_reports_the_rest(tmp_path):
    lines = [json.dumps(FOUR), json.dumps(dict(FOUR, plays=FOUR["plays"][:1])), "not json",
             json.dumps(dict(TWO, calls=["pass"] * 4, plays=[])),
             json.dumps(dict(FOUR, plays=FOUR["plays"][:6] + ["KS"])), json.dumps(dict(FOUR, calls=["pass"])),
             json.dumps(dict(THREE, plays=THREE["plays"][:7]))]
    src = write(tmp_path / "in.jsonl", lines)
    out = tmp_path / "out.jsonl"
    r = run(["solve", str(src), "-o", str(out)])
    assert r.exit_code == 1, r.output
    assert r.stderr.replace(str(src), "in.jsonl").splitlines() == [
        "in.jsonl: line 3: not JSON: Expecting value at column 1",
        "in.jsonl: line 4: calls: the hand was thrown in (R6); there is no play to solve",
        "in.jsonl: line 5: plays[6]: seat 1 played KS but must follow D (R2, R10)",
        "in.jsonl: line 6: calls: 1 calls, but the bidding is not over; seat 2 is to speak in round one (R5)",
        "7 records: 3 solved, 4 with an error, 0 whose outcome differs from the record"]
    back = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(back) == 7 and back[2] == {"line": 3, "error": "not JSON: Expecting value at column 1"}
    assert [b.get("dd_tricks") for b in back] == [4, 4, None, None, None, None, 4]
    assert back[:2] + back[3:] == solve_records([json.loads(x) for x in lines[:2] + lines[3:]])
    ok = write(tmp_path / "ok.jsonl", lines[:2])
    r = run(["solve", str(ok)])                                  # standard output by default
    assert r.exit_code == 0 and [json.loads(x) for x in r.stdout.splitlines()] == back[:2]
    assert r.stderr == "2 records: 2 solved, 0 with an error, 0 whose outcome differs from the record\n"


def test_cli_output_convention(tmp_path):
    src = write(tmp_path / "in.jsonl", [json.dumps(FOUR)])
    old = write(tmp_path / "old.jsonl", ["keep me"])

    def one_line(args):
        r = run(["solve", *args])
        lines = [x for x in r.output.splitlines() if x.strip()]
        assert r.exit_code != 0 and len(lines) == 1 and "Traceback" not in r.output, r.output
        return lines[0]
    assert one_line([str(src), "-o", str(old)]).endswith(f"-o {old}: exists; add --force to overwrite it")
    assert old.read_text() == "keep me\n"
    assert "this writes hand records; name it NAME.jsonl or NAME.ndjson" in one_line([str(src), "-o", "x.csv"])
    assert "reading and writing it at once would lose it" in one_line([str(src), "-o", str(src), "--force"])
    assert one_line([str(tmp_path / "none.jsonl")]).endswith("none.jsonl: cannot read (No such file or directory)")
    assert "does not exist" in one_line([str(src), "-o", str(tmp_path / "no" / "x.jsonl")])
    r = run(["solve", str(src), "-o", str(old), "--force"])
    assert r.exit_code == 0 and json.loads(old.read_text())["dd_tricks"] == 4
    r = run(["solve", "-", "-o", "-"], input=json.dumps(FOUR) + "\n")
    assert r.exit_code == 0 and json.loads(r.stdout)["dd_tricks"] == 4
    r = run(["solve"])
    assert r.exit_code == 2 and r.output.strip() == "euchresim solve: error: Missing argument 'SRC'."


def test_solve_file_api(tmp_path):
    src = write(tmp_path / "in.jsonl", [json.dumps(FOUR)] * 3)
    seen = []
    summary = solve_file(str(src), str(tmp_path / "o.jsonl"), on_batch=seen.append)
    assert (summary.records, summary.solved, summary.failed, summary.differ) == (3, 3, 0, 0) and seen == [3]


# ------------------------------------------------------------ the page

@pytest.mark.slow
def test_the_solve_example_in_hand_record_md_is_what_the_command_writes(tmp_path):
    """The page's example is the joker example cut as it says, and what the command writes for it."""
    section = DOC[DOC.index("## Double-dummy values: `euchresim solve`"):]
    shown = json.loads(" ".join(re.search(r"```text\n(.*?)```", section, re.S).group(1).split("\n")))
    k = len(shown["plays"])
    assert shown["hands"] == JOKER["hands"] and shown["plays"] == JOKER["plays"][:k]
    assert f'with its `plays` emptied (`"plays": {json.dumps(JOKER["plays"][:k])}`)' in section
    src = write(tmp_path / "cut.jsonl", [json.dumps(dict(JOKER, plays=JOKER["plays"][:k]))])
    r = run(["solve", str(src), "-o", str(tmp_path / "solved.jsonl")])
    assert r.exit_code == 0, r.output
    written = json.loads((tmp_path / "solved.jsonl").read_text())
    assert list(written.items()) == list(shown.items())
    assert twin(JOKER, k) == (shown["dd_tricks"], shown["dd_card_values"])
