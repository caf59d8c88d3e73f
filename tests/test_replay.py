"""`euchresim replay` as a checker (docs/hand-record.md): outcomes, messages, files.

The records are the examples of docs/hand-record.md (each written by
`simulate`), edited one field at a time, and seeded chunks played here;
every expected outcome is either the record's own (written by the engine
that played it) or the slow reference's (tests/reference.py).
"""
import contextlib
import copy
import gzip
import io
import json
import os
import re

import pytest

from euchresim.studies import record_files, replay_file as replay_mod
from euchresim.records.rows import hands_table
from euchresim.studies.replay_file import replay_file
from euchresim.loops.record_steps import differences
from euchresim.loops.record_steps import replay_record
from euchresim.rules import Rules
from euchresim.run.runner import play_chunk
from tests.helpers import run_spec, record_lines, run, write_lines as write
from tests.reference import replay as reference_replay

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTCOME = ("maker", "trump", "trick_winners", "tricks", "points")


def _doc():
    with open(os.path.join(ROOT, "docs", "hand-record.md"), encoding="utf-8") as fh:
        return fh.read()


DOC = _doc()
EXAMPLES = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", DOC, re.S)]
FOUR, LONER, TWO, THREE, JOKER = EXAMPLES


# ------------------------------------------------------------ the examples of hand-record.md

def test_every_example_in_hand_record_md_replays_to_the_outcome_it_shows():
    assert len(EXAMPLES) == 5
    for rec in EXAMPLES:
        out = replay_record(copy.deepcopy(rec))
        assert "error" not in out and "mismatch" not in out, out
        assert {k: out[k] for k in OUTCOME} == {k: rec[k] for k in OUTCOME}
        assert out == rec                                  # and nothing else changed
        ref = reference_replay(copy.deepcopy(rec))         # an implementation that shares no code
        assert {k: ref[k] for k in OUTCOME} == {k: rec[k] for k in OUTCOME}


def test_every_example_is_what_its_command_writes(tmp_path):
    """Each example follows the `simulate` command it quotes: run it, find the record by its join fields."""
    commands = re.findall(r"^`euchresim (simulate [^`]*) --records \S+`:", DOC, re.M)
    assert len(commands) == len(EXAMPLES)
    for k, (command, rec) in enumerate(zip(commands, EXAMPLES)):
        path = tmp_path / f"ex{k}.jsonl"
        r = run(command.split() + ["--workers", "1", "--records", str(path), "--json"])
        assert r.exit_code == 0, r.output
        key = tuple(rec.get(f) for f in ("chunk", "index", "game", "rubber"))
        written = [json.loads(x) for x in path.read_text().splitlines()]
        assert [w for w in written if tuple(w.get(f) for f in ("chunk", "index", "game", "rubber")) == key] == [rec]


def test_the_examples_cover_every_variant_the_page_names():
    assert (FOUR["players"], FOUR["deck"], FOUR["alone"]) == (4, 24, [])
    assert LONER["players"] == 4 and LONER["alone"] and {"game", "rubber", "score"} <= set(LONER)
    assert TWO["players"] == 2
    assert THREE["players"] == 3 and THREE["dummy"] and THREE["dummy_keep"]
    assert JOKER["deck"] in (25, 33) and JOKER["upcard"] == "JK" and JOKER["joker_suit"]


def _bad_file(tmp_path):
    """The five-line file the Messages section of hand-record.md describes."""
    plays = FOUR["plays"][:6] + ["KS"] + FOUR["plays"][7:]
    return write(tmp_path / "bad.jsonl", [json.dumps(FOUR), "not json",
                                         json.dumps(dict(TWO, calls=["pass", "pass", "H"])),
                                         json.dumps(dict(FOUR, plays=plays)),
                                         json.dumps(dict(FOUR, maker=0, points=[0, 1, 0, 1]))])


def test_the_messages_shown_in_hand_record_md_are_what_replay_prints(tmp_path):
    src = _bad_file(tmp_path)
    out = tmp_path / "out.jsonl"
    r = run(["replay", str(src), "-o", str(out)])
    assert r.exit_code == 1
    shown = re.search(r"```text\n(.*?)```", DOC, re.S).group(1).splitlines()
    assert r.stderr.replace(str(src), "bad.jsonl").splitlines() == shown
    back = [json.loads(x) for x in out.read_text().splitlines()]
    quoted = re.search(r'`"mismatch": (\{.*?\}\})`', DOC, re.S).group(1)
    assert back[4]["mismatch"] == json.loads(quoted)
    assert {k: back[4][k] for k in OUTCOME} == {k: FOUR[k] for k in OUTCOME}


def test_the_python_example_in_hand_record_md_prints_what_it_says():
    code = re.search(r"```python\n(.*?)```", DOC, re.S).group(1)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "docs/hand-record.md", "exec"), {})
    said = re.search(r"prints `(.*?)`", DOC).group(1)
    assert printed.getvalue().strip() == said


# ------------------------------------------------------------ outcome check (mismatch)

@pytest.mark.parametrize("field,wrong", [
    ("maker", 0), ("trump", "H"), ("trick_winners", [3, 0, 0, 0, 0]), ("tricks", [2, 0, 2, 1]),
    ("points", [0, 1, 0, 1]),
])
def test_a_wrong_outcome_field_is_a_mismatch_and_corrected(field, wrong):
    assert FOUR[field] != wrong
    out = replay_record(dict(copy.deepcopy(FOUR), **{field: wrong}))
    assert "error" not in out
    assert out["mismatch"] == {field: {"record": wrong, "replay": FOUR[field]}}
    assert {k: out[k] for k in OUTCOME} == {k: FOUR[k] for k in OUTCOME}


def test_every_differing_field_is_reported_and_absent_ones_are_not():
    rec = {k: v for k, v in copy.deepcopy(FOUR).items() if k not in ("trick_winners", "tricks")}
    rec.update(maker=1, trump=None)
    out = replay_record(rec)
    assert set(out["mismatch"]) == {"maker", "trump"}
    assert out["mismatch"]["trump"] == {"record": None, "replay": "C"}
    assert differences(out["mismatch"]) == \
        "outcome differs: maker 1 in the record, 2 on replay; trump null in the record, C on replay"
    bare = {k: v for k, v in FOUR.items() if k not in OUTCOME}
    out = replay_record(copy.deepcopy(bare))
    assert "mismatch" not in out and {k: out[k] for k in OUTCOME} == {k: FOUR[k] for k in OUTCOME}


def test_stated_values_are_read_like_inputs_but_numbers_must_be_numbers():
    assert "mismatch" not in replay_record(dict(copy.deepcopy(FOUR), trump=" c"))
    for field, wrong in (("maker", "2"), ("maker", 2.0), ("maker", None), ("tricks", [3, 0, True, 1]),
                         ("points", "1,0,1,0"), ("tricks", [3, 0, 1])):
        out = replay_record(dict(copy.deepcopy(FOUR), **{field: wrong}))
        assert out["mismatch"] == {field: {"record": wrong, "replay": FOUR[field]}}, (field, wrong)
    bare = {k: v for k, v in copy.deepcopy(TWO).items() if k not in OUTCOME}
    thrown = replay_record(dict(bare, calls=["pass"] * 4, plays=[], maker=1))
    assert thrown["mismatch"] == {"maker": {"record": 1, "replay": None}} and thrown["maker"] is None


def test_findings_of_an_earlier_replay_are_checked_afresh():
    first = replay_record(dict(copy.deepcopy(FOUR), maker=0))
    assert "mismatch" in first
    assert replay_record(copy.deepcopy(first)) == FOUR            # now it states the replay's outcome
    stale = dict(copy.deepcopy(FOUR), error="plays[3]: something once wrong (R10)",
                 mismatch={"maker": {"record": 1, "replay": 2}})
    assert replay_record(stale) == FOUR
    wrong = dict(copy.deepcopy(FOUR), points=[9, 9, 9, 9], mismatch={"maker": {"record": 1, "replay": 2}})
    assert replay_record(wrong)["mismatch"] == {"points": {"record": [9, 9, 9, 9], "replay": [1, 0, 1, 0]}}
    broken = replay_record(dict(copy.deepcopy(FOUR), plays=FOUR["plays"][:3]))
    assert "error" in broken and not set(OUTCOME) & set(broken)
    assert replay_record(dict(broken, plays=FOUR["plays"])) == {k: v for k, v in FOUR.items()}


def test_cli_counts_broken_and_differing_records_apart(tmp_path):
    ok = tmp_path / "ok.jsonl"
    write(ok, [json.dumps(r) for r in EXAMPLES])
    r = run(["replay", str(ok), "-o", str(tmp_path / "o.jsonl")])
    assert r.exit_code == 0, r.output
    assert r.stderr.strip() == "5 records replayed: 0 broken, 0 whose outcome differs from the record"
    differ = write(tmp_path / "differ.jsonl", [json.dumps(dict(FOUR, maker=0))] + [json.dumps(TWO)])
    r = run(["replay", str(differ), "-o", str(tmp_path / "o2.jsonl")])
    assert r.exit_code == 1
    assert r.stderr.splitlines() == [
        f"{differ}: line 1: outcome differs: maker 0 in the record, 2 on replay",
        "2 records replayed: 0 broken, 1 whose outcome differs from the record"]


def test_cli_shows_the_first_five_findings_of_each_kind(tmp_path):
    lines = [json.dumps(dict(FOUR, maker=0))] * 7 + [json.dumps(dict(FOUR, plays=FOUR["plays"][:3]))] * 2
    src = write(tmp_path / "many.jsonl", lines)
    r = run(["replay", str(src), "-o", str(tmp_path / "o.jsonl")])
    assert r.exit_code == 1
    *err, summary = r.stderr.splitlines()
    assert [int(x.split("line ")[1].split(":")[0]) for x in err] == [1, 2, 3, 4, 5, 8, 9]
    assert sum("outcome differs" in x for x in err) == 5 and sum("plays:" in x for x in err) == 2
    assert summary == "9 records replayed: 2 broken, 7 whose outcome differs from the record " \
                      "(the first 5 of each kind shown)"
    assert len((tmp_path / "o.jsonl").read_text().splitlines()) == 9


# ------------------------------------------------------------ one prefix per message

def test_every_message_names_file_and_line_once(tmp_path, monkeypatch):
    monkeypatch.setattr(record_files, "SHOWN", 10)          # every finding below on its own line
    monkeypatch.setattr("euchresim.studies.record_files.SHOWN", 10)   # where the file loop reads it
    src = tmp_path / "bad.jsonl"
    src.write_bytes(b"\n".join([
        json.dumps(FOUR).encode(), b"not json", b"", b"[1, 2]", b"\xff\xfe{}",
        json.dumps(dict(FOUR, dealer=7)).encode(),                       # static: parse_record
        json.dumps(dict(TWO, calls=["pass", "pass", "H"])).encode(),     # a step: the replay
        json.dumps(dict(FOUR, maker=3)).encode()]) + b"\n")
    out = tmp_path / "out.jsonl"
    r = run(["replay", str(src), "-o", str(out)])
    assert r.exit_code == 1
    *found, summary = r.stderr.splitlines()
    assert [int(re.match(re.escape(str(src)) + r": line (\d+): ", x).group(1)) for x in found] == [2, 3, 4, 5, 6, 7, 8]
    for x in found:
        assert len(re.findall(r"line \d+", x)) == 1, x
    assert summary == "8 records replayed: 6 broken, 1 whose outcome differs from the record"
    back = [json.loads(x) for x in out.read_text().splitlines()]
    assert [b.get("line") for b in back[1:5]] == [2, 3, 4, 5]
    assert [b["error"] for b in back[1:5]] == [
        "not JSON: Expecting value at column 1", "not JSON: the line is blank",
        "record: list is not a JSON object of hand-record fields", "not JSON: not UTF-8 text (byte 1)"]
    assert back[5]["error"].startswith("dealer: 7 is not a seat") and back[6]["error"].startswith("calls[2]: ")


# ------------------------------------------------------------ not a JSON Lines file

def test_a_parquet_file_is_one_line_and_no_output(tmp_path):
    import pyarrow.parquet as pq
    rules = Rules()
    src = tmp_path / "games.parquet"
    pq.write_table(hands_table(play_chunk(run_spec(rules=rules, count=50, chunk_size=50), 0)), src)
    out = tmp_path / "out.jsonl"
    r = run(["replay", str(src), "-o", str(out)])
    assert r.exit_code == 1
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and lines[0].endswith(f"{src}: not a JSON Lines file (it looks like Parquet)")
    assert not out.exists()
    r = run(["replay", "-"], input=src.read_bytes())               # the same from standard input
    assert r.exit_code == 1 and "not a JSON Lines file (it looks like Parquet)" in r.output
    assert len([x for x in r.output.splitlines() if x.strip()]) == 1


@pytest.mark.parametrize("data", [
    b"\x00\x01\x02\x03 some bytes\n",
    gzip.compress((json.dumps(FOUR) + "\n").encode() * 20, mtime=0),   # no clock: every xdist worker, one id
    b"{\"players\": 4, \xe9\xff}\n",
])
def test_a_binary_file_is_one_line(tmp_path, data):
    src = tmp_path / "x.jsonl"
    src.write_bytes(data)
    r = run(["replay", str(src), "-o", str(tmp_path / "o.jsonl")])
    assert r.exit_code == 1
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1
    assert lines[0].endswith(f"{src}: not a JSON Lines file (it looks like a binary file)")
    assert not (tmp_path / "o.jsonl").exists()


# ------------------------------------------------------------ joker_suit, kitty, join fields

@pytest.mark.parametrize("players", [2, 3, 4])
def test_r7_fixed_joker_suit_is_filled_in_as_simulate_writes_it(tmp_path, players):
    lines = record_lines(players, 25, policy="random", count=600, joker_upcard="H")
    jokers = [json.loads(x) for x in lines if '"upcard":"JK"' in x]
    assert jokers                                 # 600 deals: a joker upcard is all but certain (p > 1 - 1e-10)
    for rec in jokers:
        assert rec["joker_suit"] == "H"
        assert replay_record(dict(copy.deepcopy(rec), joker_suit=None)) == rec
        assert replay_record({k: v for k, v in rec.items() if k != "joker_suit"}) == rec
        assert replay_record(dict(copy.deepcopy(rec), joker_suit="h"))["joker_suit"] == "h"   # as given
        assert replay_record(dict(copy.deepcopy(rec), joker_suit="S"))["error"].startswith("joker_suit:")
    src = write(tmp_path / "in.jsonl", [x.replace('"joker_suit":"H"', '"joker_suit":null') for x in lines])
    out = tmp_path / "out.jsonl"
    replay_file(str(src), str(out))
    assert out.read_text().splitlines() == lines


def test_r7_dealer_names_and_redeal_joker_suit():
    named = replay_record(dict(copy.deepcopy(JOKER), joker_suit=None))
    assert named["error"] == "joker_suit: the upcard is the joker and the dealer must name a suit (R7)"
    redealt = [json.loads(x) for x in record_lines(4, 25, count=400, joker_upcard="redeal") if '"upcard":"JK"' in x]
    assert redealt
    for rec in redealt:
        assert rec["joker_suit"] is None and rec["calls"] == [] and rec["maker"] is None
        assert replay_record(copy.deepcopy(rec)) == rec
        assert replay_record(dict(copy.deepcopy(rec), joker_suit="C"))["error"].startswith("joker_suit:")


def test_r4_a_missing_kitty_is_the_rest_of_the_pack():
    for rec in EXAMPLES:
        assert replay_record({k: v for k, v in rec.items() if k != "kitty"}) == rec
        assert replay_record(dict(copy.deepcopy(rec), kitty=None)) == rec
        wrong = dict(copy.deepcopy(rec), kitty=rec["kitty"][:-1] + [rec["hands"][0][0]])
        assert replay_record(wrong)["error"].startswith("kitty: ")


@pytest.mark.parametrize("mode", ["hands", "games", "rubbers"])
def test_records_replay_byte_for_byte_join_fields_included(tmp_path, monkeypatch, mode):
    """Mixed rules in one file and batches cut mid-way must not change a byte."""
    lines = []
    if mode == "rubbers":
        lines += record_lines(4, 24, mode="rubbers", count=3, game_to=5)
        lines += record_lines(4, 33, policy="random", mode="rubbers", count=2, defend_alone=True)
    else:
        count = 150 if mode == "hands" else 4
        for players, deck, opts in [(4, 25, {}), (3, 33, {"both_alone_lead": "maker"}), (2, 32, {}),
                                    (4, 24, {"stick_the_dealer": True})]:
            lines += record_lines(players, deck, mode=mode, count=count, **opts)
    keys = {"hands": {"chunk", "index"}, "games": {"chunk", "index", "game", "score"},
            "rubbers": {"chunk", "index", "game", "rubber", "score"}}[mode]
    assert all(keys <= set(json.loads(x)) for x in lines)
    assert not any(({"game", "rubber", "score"} - keys) & set(json.loads(x)) for x in lines)
    monkeypatch.setattr(replay_mod, "BATCH", 37)
    src = write(tmp_path / "in.jsonl", lines)
    out = tmp_path / "out.jsonl"
    found = replay_file(str(src), str(out))
    assert (found.records, found.broken, found.differ) == (len(lines), 0, 0)
    assert out.read_bytes() == src.read_bytes()


def test_join_fields_are_checked_and_carried_unchanged():
    rec = dict(copy.deepcopy(FOUR), game=4, rubber=1, score=[3, 4, 3, 4])
    out = replay_record(copy.deepcopy(rec))
    assert out == rec and list(out)[-10:-5] == ["chunk", "index", "game", "rubber", "score"]
    assert replay_record(dict(copy.deepcopy(FOUR), score=[1, 2]))["error"].startswith("score: ")
    assert replay_record(dict(copy.deepcopy(FOUR), index=-1))["error"].startswith("index: ")


def test_standard_input_is_named_once_per_message():
    r = run(["replay", "-"], input=(json.dumps(FOUR) + "\nnot json\n").encode())
    assert r.exit_code == 1
    assert r.stderr.splitlines()[0] == "<stdin>: line 2: not JSON: Expecting value at column 1"
    assert [json.loads(x) for x in r.stdout.splitlines()] == [
        FOUR, {"line": 2, "error": "not JSON: Expecting value at column 1"}]
