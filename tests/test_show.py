"""``euchresim show`` and ``studies.record_text``: a hand record as a person reads it, and its decisions one by one.

Records come from ``simulate --records`` (every variant, lone hands and
lone defenders included) and from a few hands written here, whose
expected text is worked out by hand from docs/rules.md.  The decisions
list is checked against the state machine on a path of its own: each
prefix of the record is replayed by the replay kernel, which stops where
the record runs out and says whose turn it is; the lone-hand asking is
checked against R8, R9 and C1 as written.
"""
import dataclasses
import json
import re

import pytest

from euchresim.engine.layout import ERR_SCRIPT_SHORT, PH_BID1, PH_BID2, PH_DISCARD, PH_DUMMY, PH_JOKER, PH_PLAY, TO_ACT
from euchresim.engine.tables import cached_tables
from euchresim.loops.record_steps import replay_states
from euchresim.records.format import parse_record
from euchresim.studies.record_text import decisions, format_story, hand_story
from tests.helpers import one_error_line, run, write_lines as write

VARIANTS = {
    "4": ["--players", "4"],
    "3": ["--players", "3"],
    "2": ["--players", "2"],
    "joker": ["--deck", "25"],
    # random bots go alone and defend alone often: every kind of decision is met
    "4-lone": ["--players", "4", "--defend-alone", "--policy", "random"],
    "3-lone": ["--players", "3", "--deck", "33", "--policy", "random"],
}


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    out = {}
    for name, flags in VARIANTS.items():
        path = tmp_path_factory.mktemp("show") / f"{name}.jsonl"
        r = run(["simulate", "--hands", "50", "--records", str(path), "--seed", "3", "--workers", "1"] + flags)
        assert r.exit_code == 0, r.output
        out[name] = path
    return out


def records(path):
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def by_name(files, name):
    return [(obj, parse_record(obj)) for obj in records(files[name])]


# ------------------------------------------------------------------ the story

@pytest.mark.parametrize("name", VARIANTS)
def test_each_trick_is_the_records_own(files, name):
    """Winners as the record states them; the cards in order are its plays; the winner leads the next trick."""
    for obj, rec in by_name(files, name):
        story = hand_story(rec)
        assert [t["winner"] for t in story["tricks"]] == obj["trick_winners"]
        assert [c["card"] for t in story["tricks"] for c in t["cards"]] == obj["plays"]
        active = obj["players"] - len(story["sitting_out"])
        for k, t in enumerate(story["tricks"]):
            assert len(t["cards"]) == active and t["leader"] == t["cards"][0]["seat"]
            assert len({c["seat"] for c in t["cards"]}) == active
            assert not set(story["sitting_out"]) & {c["seat"] for c in t["cards"]}
            if k:
                assert t["leader"] == story["tricks"][k - 1]["winner"]
        assert story["tricks_won"] == obj["tricks"] and story["points"] == obj["points"]
        assert (story["maker"], story["trump"]) == (obj["maker"], obj["trump"])
        assert story["alone"] == sorted(obj["alone"])
        lone_defenders = [s for s in obj["alone"] if s != obj["maker"]]
        assert story["defender_alone"] == (lone_defenders[0] if lone_defenders else None)
        for side in story["sides"]:
            assert side["tricks"] == sum(obj["tricks"][s] for s in side["seats"])
            assert all(obj["points"][s] == side["points"] for s in side["seats"])
        if obj["maker"] is not None:
            made = sum(obj["tricks"][s] for s in next(x["seats"] for x in story["sides"] if x["makers"]))
            assert story["result"] == ("march" if made == 5 else "made" if made >= 3 else "euchred")
        json.dumps(story)                   # plain JSON values


SYMBOL = {"\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S"}


def read_text(text, players):
    """What a reader takes from the text: each seat's hand, and each trick's (seat, card)s and winner."""
    lines = text.splitlines()
    for sym, letter in SYMBOL.items():
        lines = [ln.replace(sym, letter) for ln in lines]
    hands = {}
    for ln in lines[1:1 + players]:
        m = re.fullmatch(r"seat (\d) \([a-z-]+\) +((?:\S\S ?){5})", ln)
        assert m, ln
        hands[int(m.group(1))] = m.group(2).split()
    tricks = []
    for ln in lines:
        if ln.startswith("trick "):
            cards = re.findall(r"seat (\d) (?:leads )?(\S\S)", ln.split("\u2014")[0])
            winner = re.search(r"\u2014 seat (\d) wins$", ln)
            tricks.append(([(int(s), c) for s, c in cards], int(winner.group(1))))
    return hands, tricks


@pytest.mark.parametrize("suits", ["letters", "symbols"])
@pytest.mark.parametrize("name", VARIANTS)
def test_the_text_shows_the_dealt_hands_and_each_trick(files, name, suits):
    for obj, rec in by_name(files, name):
        text = format_story(hand_story(rec), suits)
        assert (suits == "symbols") == any(sym in text for sym in SYMBOL)
        hands, tricks = read_text(text, obj["players"])
        assert hands == {s: h for s, h in enumerate(obj["hands"])}
        assert [c for cards, _ in tricks for _, c in cards] == obj["plays"]
        assert [w for _, w in tricks] == obj["trick_winners"]
        # each trick's k-th card, and the winner, start in one column down the page
        columns = {tuple(m.start() for m in re.finditer(r"seat \d|\u2014", ln))
                   for ln in text.splitlines() if ln.startswith("trick ")}
        assert len(columns) <= 1, text


# ------------------------------------------------------------------ the decisions

KIND_PHASE = {"joker_suit": PH_JOKER, "bid1": PH_BID1, "bid2": PH_BID2, "discard": PH_DISCARD,
              "dummy_keep": PH_DUMMY, "play": PH_PLAY}


def prefix(rec, d):
    """The record cut just before decision ``d``: the replay stops there, at the seat to act."""
    kind = d["kind"]
    cut = {"plays": rec.plays[:d["plays"]]}
    if kind != "play":
        cut.update(dummy_keep=None, plays=())
    if kind not in ("play", "dummy_keep"):
        cut.update(discard=None)
    if kind in ("joker_suit", "bid1", "bid2"):
        cut.update(alone=(), calls=rec.calls[:d["calls"]])
    if kind == "joker_suit":
        cut.update(joker_suit=None)
    return dataclasses.replace(rec, **cut)


def asked_alone(obj, rules):
    """R8, R9, C1: the maker is asked (not with 2 players); then the defenders from the maker's left,
    with 3 players always and with 4 only under defend_alone against a lone maker, until one says yes."""
    maker, players = obj["maker"], obj["players"]
    if maker is None or players == 2:
        return []
    asked = [("alone", maker)]
    if players == 3 or (rules.defend_alone and maker in obj["alone"]):
        order = [(maker + 1) % 4, (maker + 3) % 4] if players == 4 else [(maker + 1) % 3, (maker + 2) % 3]
        for s in order:
            asked.append(("defend_alone", s))
            if s in obj["alone"]:
                break
    return asked


@pytest.mark.parametrize("name", VARIANTS)
def test_the_decisions_are_the_record_step_by_step(files, name):
    kinds_seen = set()
    for obj, rec in by_name(files, name):
        ds = decisions(rec)
        kinds_seen.update(d["kind"] for d in ds)
        assert [d["step"] for d in ds] == list(range(len(ds)))
        plays = [d for d in ds if d["kind"] == "play"]
        bids = [d for d in ds if d["kind"] in ("bid1", "bid2")]
        assert len(plays) == len(obj["plays"]) and len(bids) == len(obj["calls"])
        assert [d["plays"] for d in plays] == list(range(len(plays)))
        assert [d["calls"] for d in bids] == list(range(len(bids)))
        assert [d["action"] for d in plays] == obj["plays"]
        assert [d["action"] for d in bids] == obj["calls"]
        for a, b in zip(ds, ds[1:]):
            assert a["calls"] <= b["calls"] and a["plays"] <= b["plays"]
            assert b["calls"] == a["calls"] + (a["kind"] in ("bid1", "bid2"))
            assert b["plays"] == a["plays"] + (a["kind"] == "play")
        # every bid in round one, then round two; lone hands; discard; dummy; plays (C1)
        order = ["joker_suit", "bid1", "bid2", "alone", "defend_alone", "discard", "dummy_keep", "play"]
        assert [order.index(d["kind"]) for d in ds] == sorted(order.index(d["kind"]) for d in ds)
        assert sum(d["kind"] == "bid1" for d in ds) == min(len(obj["calls"]), obj["players"])
        assert [d["action"] for d in ds if d["kind"] == "discard"] == [obj["discard"]] * (obj["discard"] is not None)
        assert [d["action"].split() for d in ds if d["kind"] == "dummy_keep"] == \
            [obj["dummy_keep"]] * (obj["dummy_keep"] is not None)
        assert [(d["kind"], d["seat"]) for d in ds if d["kind"] in ("alone", "defend_alone")] == \
            asked_alone(obj, rec.rules)
        assert all((d["action"] == "alone") == (d["seat"] in obj["alone"]) == bool(d["code"])
                   for d in ds if d["kind"] in ("alone", "defend_alone"))
        # whose turn: the replay kernel, stopped at each decision by the record cut there
        stop = [d for d in ds if d["kind"] in KIND_PHASE]
        found, states = replay_states([prefix(rec, d) for d in stop], cached_tables(rec.rules))
        for d, (code, phase, _), st in zip(stop, found.tolist(), states.tolist()):
            assert (code, phase, st[TO_ACT]) == (ERR_SCRIPT_SHORT, KIND_PHASE[d["kind"]], d["seat"]), (obj, d)
    if name.endswith("lone"):
        assert {"alone", "defend_alone", "discard", "play"} <= kinds_seen
    if name == "joker":
        assert "joker_suit" in kinds_seen
    if name.startswith("3"):
        assert "dummy_keep" in kinds_seen


# ------------------------------------------------------------------ hands written here

TWO = {"players": 2, "deck": 24, "dealer": 0,
       "hands": [["JS", "TS", "QD", "KC", "QC"], ["9S", "9H", "AD", "JD", "AC"]],
       "upcard": "QH", "calls": ["pass", "pass", "D"],
       "plays": ["JD", "QD", "AD", "TS", "AC", "QC", "9H", "JS", "9S", "KC"]}

# Seat 1, left of the dealer, leads (R10); diamonds are trump, so the jack of diamonds is the right
# bower, seat 0 follows with the queen, then has no diamond left; seat 1 wins all five: a march, 2 (R11).
TWO_TEXT = """\
2 players, 24 cards
seat 0 (dealer)      JS TS QD KC QC
seat 1 (non-dealer)  9S 9H AD JD AC
upcard QH, kitty AS KS QS AH KH JH TH KD TD 9D JC TC 9C
round 1, on QH:
  seat 1 (non-dealer): pass
  seat 0 (dealer):     pass
round 2, H turned down:
  seat 1 (non-dealer): D
trump D, made by seat 1 (non-dealer) in round 2
trick 1: seat 1 leads JD, seat 0 QD \u2014 seat 1 wins
trick 2: seat 1 leads AD, seat 0 TS \u2014 seat 1 wins
trick 3: seat 1 leads AC, seat 0 QC \u2014 seat 1 wins
trick 4: seat 1 leads 9H, seat 0 JS \u2014 seat 1 wins
trick 5: seat 1 leads 9S, seat 0 KC \u2014 seat 1 wins
tricks: 0 to seat 0, 5 to seat 1 (maker): a march
points: 0 to seat 0, 2 to seat 1"""

# Four players, seat 1 deals and everyone passes twice (R6): thrown in, 8 calls from the dealer's left.
THROWN = {"players": 4, "deck": 24, "dealer": 1,
          "hands": [["9C", "TC", "JC", "QC", "KC"], ["9D", "TD", "JD", "QD", "KD"],
                    ["9H", "TH", "JH", "QH", "KH"], ["9S", "TS", "JS", "QS", "KS"]],
          "upcard": "AC", "calls": ["pass"] * 8}
THROWN_TEXT = """\
4 players, 24 cards
seat 0 (right)    KC QC JC TC 9C
seat 1 (dealer)   KD QD JD TD 9D
seat 2 (left)     KH QH JH TH 9H
seat 3 (partner)  KS QS JS TS 9S
upcard AC, kitty AS AH AD
round 1, on AC:
  seat 2 (left):    pass
  seat 3 (partner): pass
  seat 0 (right):   pass
  seat 1 (dealer):  pass
round 2, C turned down:
  seat 2 (left):    pass
  seat 3 (partner): pass
  seat 0 (right):   pass
  seat 1 (dealer):  pass
everyone passed twice: the hand is thrown in (R6)"""

# Cutthroat (docs/hand-record.md's example): seat 1 deals, takes the queen of spades up after two
# passes; the maker is asked to go alone, then the defenders from the maker's left (R9, C1); the
# dealer discards, the maker keeps five of hand and dummy; seat 2, the dealer's left, leads (R10).
THREE = {"players": 3, "deck": 24, "dealer": 1,
         "hands": [["AH", "9H", "QD", "9D", "AC"], ["AS", "TS", "KH", "QH", "TD"], ["TH", "KD", "JD", "QC", "JC"]],
         "dummy": ["KS", "9S", "JH", "AD", "TC"], "upcard": "QS",
         "calls": ["pass", "pass", "order"], "discard": "TD", "dummy_keep": ["AS", "KS", "QS", "TS", "9S"],
         "plays": ["TH", "9H", "9S", "AS", "JC", "9D", "JD", "QD", "TS", "KS", "QC", "AC", "QS", "KD", "AH"]}
THREE_DECISIONS = [
    (2, "bid1", "pass", 0, 0), (0, "bid1", "pass", 1, 0), (1, "bid1", "order", 2, 0),
    (1, "alone", "not alone", 3, 0), (2, "defend_alone", "not alone", 3, 0), (0, "defend_alone", "not alone", 3, 0),
    (1, "discard", "TD", 3, 0), (1, "dummy_keep", "AS KS QS TS 9S", 3, 0),
    (2, "play", "TH", 3, 0), (0, "play", "9H", 3, 1), (1, "play", "9S", 3, 2),      # seat 1 trumps: leads next
    (1, "play", "AS", 3, 3), (2, "play", "JC", 3, 4), (0, "play", "9D", 3, 5),      # JC follows spades (R2)
    (2, "play", "JD", 3, 6), (0, "play", "QD", 3, 7), (1, "play", "TS", 3, 8),
    (1, "play", "KS", 3, 9), (2, "play", "QC", 3, 10), (0, "play", "AC", 3, 11),
    (1, "play", "QS", 3, 12), (2, "play", "KD", 3, 13), (0, "play", "AH", 3, 14),
]

# Four players, defend_alone: seat 0 orders and goes alone, so seat 2, the dealer, sits out and makes
# no exchange (C2); the defenders are asked from the maker's left, seat 1 then seat 3 (R8, C1);
# the lead is the first seat from the dealer's left that plays: seat 3 (R10).
LONER = {"players": 4, "deck": 24, "rules": {"defend_alone": True}, "dealer": 2,
         "hands": [["KS", "JH", "QD", "JD", "TD"], ["QS", "TS", "AH", "TH", "QC"],
                   ["JS", "KH", "QH", "KD", "TC"], ["AS", "9S", "AC", "JC", "9C"]],
         "upcard": "9D", "calls": ["pass", "order"], "alone": [0],
         "plays": ["AC", "TD", "QC", "JD", "TH", "9C", "JH", "TS", "9S", "QD", "QS", "JC", "KS", "AH", "AS"]}
LONER_DECISIONS = [
    (3, "bid1", "pass", 0, 0), (0, "bid1", "order", 1, 0),
    (0, "alone", "alone", 2, 0), (1, "defend_alone", "not alone", 2, 0), (3, "defend_alone", "not alone", 2, 0),
    (3, "play", "AC", 2, 0), (0, "play", "TD", 2, 1), (1, "play", "QC", 2, 2),      # seat 0 trumps
    (0, "play", "JD", 2, 3),
]


def test_a_two_hand_march_reads_as_worked_out_by_hand():
    assert format_story(hand_story(parse_record(TWO))) == TWO_TEXT


def test_a_thrown_in_hand_reads_as_worked_out_by_hand():
    assert format_story(hand_story(parse_record(THROWN))) == THROWN_TEXT
    assert [(d["seat"], d["kind"]) for d in decisions(parse_record(THROWN))] == \
        [((1 + 1 + k) % 4, "bid1" if k < 4 else "bid2") for k in range(8)]


def test_cutthroat_decisions_as_worked_out_by_hand():
    got = [(d["seat"], d["kind"], d["action"], d["calls"], d["plays"]) for d in decisions(parse_record(THREE))]
    assert got == THREE_DECISIONS
    text = format_story(hand_story(parse_record(THREE)))
    assert "seat 1 (dealer) picks up QS and discards TD" in text
    assert "seat 1 takes the dummy, keeps AS KS QS TS 9S, puts away KH QH JH AD TC" in text
    assert "tricks: 4 to seat 1 (maker), 1 to seats 0+2: made" in text
    assert "trick 2: seat 1 leads AS, seat 2 JC (trump), seat 0 9D" in text     # the left bower marked


def test_a_loner_against_asked_defenders_as_worked_out_by_hand():
    got = [(d["seat"], d["kind"], d["action"], d["calls"], d["plays"]) for d in decisions(parse_record(LONER))]
    assert got[:len(LONER_DECISIONS)] == LONER_DECISIONS and len(got) == 5 + 15
    text = format_story(hand_story(parse_record(LONER)))
    assert "seat 0 goes alone, seat 2 sits out" in text
    assert "no exchange: the dealer sits out, so 9D stays out of play (C2)" in text
    assert "(defend_alone=true)" in text.splitlines()[0]
    assert text.splitlines()[-1] == "points: 1 to seats 0+2, 0 to seats 1+3"


def test_a_broken_record_is_refused_with_the_replays_message():
    bad = dict(TWO, plays=["JD", "TS"] + TWO["plays"][2:])       # seat 0 holds QD: must follow (R10)
    with pytest.raises(ValueError, match=r"^plays\[1\]: seat 0 played TS but must follow D \(R2, R10\)$"):
        hand_story(parse_record(bad))
    with pytest.raises(ValueError, match=r"^plays: 9 cards, but the hand is not over"):
        decisions(parse_record(dict(TWO, plays=TWO["plays"][:9])))


# ------------------------------------------------------------------ the command

def test_show_prints_every_record_with_a_blank_line_between(files):
    objs = records(files["3"])
    r = run(["show", str(files["3"])])
    assert r.exit_code == 0, r.output
    expected = [format_story(hand_story(parse_record(o))) for o in objs]
    assert r.output == "\n\n".join(expected) + "\n"


def test_show_line_n_and_json_and_stdin(files, tmp_path):
    path = files["joker"]
    objs = records(path)
    r = run(["show", str(path), "--line", "7", "--suits", "symbols"])
    assert r.exit_code == 0 and r.output == format_story(hand_story(parse_record(objs[6])), "symbols") + "\n"
    r = run(["show", str(path), "--line", "7", "--json"])
    assert r.exit_code == 0 and json.loads(r.output) == hand_story(parse_record(objs[6]))
    r = run(["show", "-", "--line", "2"], input=path.read_bytes())
    assert r.exit_code == 0 and r.output == format_story(hand_story(parse_record(objs[1]))) + "\n"
    r = run(["show", str(path), "--json"])
    assert [json.loads(ln) for ln in r.output.splitlines()] == [hand_story(parse_record(o)) for o in objs]


def test_errors_are_one_line_and_a_non_zero_exit(files, tmp_path):
    path = files["4"]
    n = len(records(path))
    assert one_error_line(run(["show", str(path), "--line", "99"])) == \
        f"euchresim: error: {path}: there is no line 99 (the file has {n} lines)"
    missing = tmp_path / "missing.jsonl"
    assert one_error_line(run(["show", str(missing)])) == \
        f"euchresim: error: {missing}: cannot read (No such file or directory)"
    parquet = tmp_path / "games.parquet"
    parquet.write_bytes(b"PAR1\x00\x00binary")
    assert one_error_line(run(["show", str(parquet)])) == \
        f"euchresim: error: {parquet}: not a JSON Lines file (it looks like Parquet)"
    illegal = write(tmp_path / "illegal.jsonl", [TWO, dict(TWO, plays=["JD", "TS"] + TWO["plays"][2:])])
    assert one_error_line(run(["show", str(illegal), "--line", "2"])) == \
        f"{illegal}: line 2: plays[1]: seat 0 played TS but must follow D (R2, R10)"
    notjson = write(tmp_path / "notjson.jsonl", ["{not json"])
    assert one_error_line(run(["show", str(notjson)])) == \
        f"{notjson}: line 1: not JSON: Expecting property name enclosed in double quotes at column 2"
    r = run(["show", str(illegal)])          # the good record is shown, the broken one named: status 1
    assert r.exit_code == 1 and TWO_TEXT in r.output
    assert f"{illegal}: line 2: plays[1]:" in r.output and "Traceback" not in r.output
    assert run(["show", str(path), "--line", "0"]).exit_code == 2
