"""The practice table's server (euchresim/play/): the game through HTTP, what it refuses, what it keeps.

A player's hand goes through ``/api/act`` a decision at a time and ends as
a hand record that ``replay`` accepts with the outcome the page showed;
every bad request is a 4xx with one line of text; a session folder is
never overwritten, and a resumed session goes on from its last finished
hand with the deals the seed gives.
"""
import json
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from euchresim.engine.layout import UPCARD
from euchresim.loops.record_steps import replay
from euchresim.play import open_table
from euchresim.play.table import Session, TableError
from euchresim.records.format import parse_record
from euchresim.rules import Rules
from tests.helpers import hears_ctrl_c, serve


@pytest.fixture
def table(tmp_path):
    server, session, _ = open_table(Rules(), "heuristic", 5, str(tmp_path / "s"), advise=False)
    yield serve(server), session
    server.shutdown()
    server.server_close()
    session.close()


def call(base, path, body=None, raw=None, method=None, headers=None):
    """(status, content type, body text) of one request; JSON bodies parsed."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(base + path, data=data, method=method or ("POST" if data is not None else "GET"),
                                 headers=headers or {"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            status, ctype, text = r.status, r.headers["Content-Type"], r.read().decode()
    except urllib.error.HTTPError as e:
        status, ctype, text = e.code, e.headers["Content-Type"], e.read().decode()
    return status, ctype, (json.loads(text) if ctype == "application/json" else text)


def first_legal(state):
    return next(o for o in state["options"] if o["legal"])


def play_hand(base):
    """Play the current hand to its end through the API, the first legal option each time; the last state."""
    _, _, state = call(base, "/api/state")
    while not state["done"]:
        assert state["turn"] == 0 and state["options"], state
        status, _, state = call(base, "/api/act", {"hand": state["hand"], "step": state["step"],
                                                   "action": first_legal(state)["code"]})
        assert status == 200, state
    return state


def test_a_hand_played_through_the_api_is_a_record_that_replays_to_what_the_page_showed(table, tmp_path):
    base, session = table
    state = play_hand(base)
    assert state["hands_played"] == 1 and state["points"] is not None
    lines = open(session.path).read().splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    outcome, err = replay(parse_record(obj))
    assert err is None
    assert outcome["points"][:2] == state["points"] == obj["points"][:2]
    assert obj["game"] == 0 and obj["score"] == [0, 0, 0, 0]
    assert state["score"] == state["points"]
    # the page's own story of the tricks is the record's
    assert [c["card"] for t in state["tricks"] for c in t["cards"]] == obj["plays"]
    assert [t["winner"] for t in state["tricks"]] == obj["trick_winners"]
    # the records are served as written
    status, _, text = call(base, "/records/hands.jsonl")
    assert status == 200 and text == open(session.path).read()
    # the next hand is dealt on request, at the score
    status, _, nxt = call(base, "/api/next", {"hand": 1})
    assert status == 200 and nxt["hand"] == 1 and not nxt["done"] and nxt["score"] == state["score"]


def test_the_page_never_sees_a_bots_cards_before_they_are_played(table):
    base, session = table
    _, _, state = call(base, "/api/state")
    text = json.dumps(state)
    mine = set(state["your_hand"]) | {state["upcard"]}
    played = {c["card"] for t in state["tricks"] for c in t["cards"]}
    for seat in (1, 2, 3):
        for card in session.record()[0].hands[seat:seat + 1]:
            from euchresim.records.format import cards_desc
            hidden = set(cards_desc(card)) - mine - played
            assert all(f'"{c}"' not in text for c in hidden), hidden


def test_an_illegal_card_is_refused_with_the_rule_and_the_hand_goes_on(table):
    base, session = table
    _, _, state = call(base, "/api/state")
    seen = 0
    while not state["done"]:
        bad = [o for o in state["options"] if not o["legal"]]
        for o in bad:
            assert o["why"]
            status, ctype, text = call(base, "/api/act", {"hand": state["hand"], "step": state["step"],
                                                          "action": o["code"]})
            assert status == 400 and ctype.startswith("text/plain")
            assert text.strip() == o["why"] and "\n" not in text.strip()
            seen += 1
        _, _, again = call(base, "/api/state")
        assert again["step"] == state["step"]            # a refusal changes nothing
        _, _, state = call(base, "/api/act", {"hand": state["hand"], "step": state["step"],
                                              "action": first_legal(state)["code"]})
        if state["done"] and seen == 0:                  # no refusal met in this hand: play another
            _, _, state = call(base, "/api/next", {"hand": state["hands_played"]})
    assert seen


def test_an_action_sent_twice_or_after_the_hand_is_refused_cleanly(table):
    base, _ = table
    _, _, state = call(base, "/api/state")
    body = {"hand": state["hand"], "step": state["step"], "action": first_legal(state)["code"]}
    assert call(base, "/api/act", body)[0] == 200
    status, _, text = call(base, "/api/act", body)
    assert status == 409 and "sent twice" in text
    status, _, text = call(base, "/api/next", {"hand": 1})
    assert status == 409 and "still being played" in text
    end = play_hand(base)
    status, _, text = call(base, "/api/act", {"hand": end["hand"], "step": end["step"], "action": 0})
    assert status == 409 and "is over" in text
    assert call(base, "/api/next", {"hand": 1})[0] == 200
    status, _, text = call(base, "/api/next", {"hand": 1})
    assert status == 409 and "still being played" in text


@pytest.mark.parametrize("method,path,body,status,words", [
    ("GET", "/nothing", None, 404, "not found"),
    ("GET", "/static/../table.py", None, 404, "not found"),
    ("GET", "/static/table.py", None, 404, "not found"),
    ("GET", "/records/session.json", None, 404, "not found"),
    ("GET", "/api/act", None, 405, "POST it"),
    ("GET", "/api/nothing", None, 404, "no such API"),
    ("PUT", "/api/act", b"{}", 405, "not served"),
    ("DELETE", "/", None, 405, "not served"),
    ("POST", "/api/act", b"", 400, "1 to 4096 bytes"),
    ("POST", "/api/act", b"{not json", 400, "not JSON"),
    ("POST", "/api/act", b"[1, 2]", 400, "JSON object"),
    ("POST", "/api/act", b'{"hand": 0, "step": 0}', 400, "'action' must be a whole number"),
    ("POST", "/api/act", b'{"hand": 0, "step": 0, "action": "9C"}', 400, "'action' must be a whole number"),
    ("POST", "/api/act", b'{"hand": 0, "step": 0, "action": true}', 400, "'action' must be a whole number"),
    ("POST", "/api/act", b'{"hand": 0, "step": 0, "action": 1, "x": 1}', 400, "unknown field 'x'"),
    ("POST", "/api/act", b'{"hand": 0, "step": 0, "action": 99999999999999999999}', 400, "not one of"),
    ("POST", "/api/act", b'{"hand": 0, "step": 0, "action": -3}', 400, "not"),
    ("POST", "/api/act", b'{"hand": 7, "step": 0, "action": 0}', 409, "is over"),
    ("POST", "/api/act", b'{"hand": 0, "step": 99, "action": 0}', 409, "sent twice"),
    ("POST", "/api/next", b'{"hand": "x"}', 400, "'hand' must be"),
    ("POST", "/api/state", b'{}', 405, "nothing to POST"),
    ("POST", "/elsewhere", b'{}', 404, "nothing to POST"),
    ("POST", "/api/act", b"x" * 5000, 413, "1 to 4096 bytes"),
    ("POST", "/api/options", b'{"each_decision": 2}', 400, "'each_decision' is 0"),
    ("POST", "/api/options", b'{"each_decision": 1}', 409, "the advisor is off"),
    ("GET", "/api/options", None, 405, "POST it"),
])
def test_bad_requests_get_a_4xx_and_one_line(table, method, path, body, status, words):
    base, _ = table
    got, ctype, text = call(base, path, raw=body, method=method)
    assert got == status, text
    assert ctype.startswith("text/plain")
    assert words in text and text.count("\n") == 1 and "Traceback" not in text
    assert call(base, "/api/state")[0] == 200            # and the server goes on


def test_the_page_and_its_files_are_served_from_the_package(table):
    base, _ = table
    for path, kind in (("/", "text/html"), ("/static/app.js", "text/javascript"), ("/static/style.css", "text/css")):
        status, ctype, text = call(base, path)
        assert status == 200 and ctype.startswith(kind) and len(text) > 100
    status, _, page = call(base, "/")
    assert "http://" not in page and "https://" not in page        # nothing fetched from outside at run time
    js = call(base, "/static/app.js")[2]
    assert "http://" not in js and "https://" not in js


def test_a_session_folder_is_never_overwritten_and_a_resume_goes_on(tmp_path):
    folder = str(tmp_path / "s")
    s = Session(Rules(), "heuristic", 9, folder)
    first_deal = s.record()[0].hands
    while not s.h.done:
        opts = [a for a in range(64) if (s.h.legal() >> a) & 1]
        s.act(len(s.finished), s.step, opts[0])
    rec_line = open(s.path).read()
    score = list(s.score)
    s.next_hand(1)
    second_deal = s.record()[0].hands
    s.close()
    with pytest.raises(TableError, match="add --resume"):
        Session(Rules(), "heuristic", 9, folder)
    with pytest.raises(TableError, match="seed 9, not 10"):
        Session(Rules(), "heuristic", 10, folder, resume=True)
    with pytest.raises(TableError, match="bot"):
        Session(Rules(), "random", 9, folder, resume=True)
    r = Session(Rules(), "heuristic", 9, folder, resume=True)
    assert open(r.path).read() == rec_line                        # the finished hand kept, byte for byte
    assert len(r.finished) == 1 and r.score == score
    assert r.record()[0].hands == second_deal != first_deal       # the unfinished hand dealt again, the same
    assert len(r.resumed) == 1 and all(d["step"] >= 0 for d in r.resumed[0][1])
    r.close()
    # the same seed deals the same hands in another folder
    other = Session(Rules(), "heuristic", 9, str(tmp_path / "t"))
    assert other.record()[0].hands == first_deal
    other.close()


def test_a_broken_records_file_is_refused_on_resume(tmp_path):
    folder = str(tmp_path / "s")
    Session(Rules(), "heuristic", 1, folder).close()
    with open(os.path.join(folder, "hands.jsonl"), "w") as fh:
        fh.write('{"players": 4, "deck": 24}\n')
    with pytest.raises(TableError, match="line 1"):
        Session(Rules(), "heuristic", 1, folder, resume=True)


def test_a_game_ends_at_the_target_and_the_next_hand_opens_a_new_game(tmp_path):
    s = Session(Rules(game_to=5), "heuristic", 2, str(tmp_path / "s"))
    games = set()
    for _ in range(60):
        while not s.h.done:
            opts = [a for a in range(64) if (s.h.legal() >> a) & 1]
            s.act(len(s.finished), s.step, opts[-1])
        if s.game_over is not None:
            assert max(s.score) >= 5 and s.score[s.game_over] == max(s.score)
            games.add(s.game)
            s.next_hand(len(s.finished))
            assert s.score == [0, 0] and s.game == max(games) + 1
            break
        s.next_hand(len(s.finished))
    assert games == {0}
    recs = [json.loads(x) for x in open(s.path)]
    scores = [0, 0]
    for obj in recs:                                  # each record's score is the one before it, side by side
        assert obj["score"] == [scores[0], scores[1], scores[0], scores[1]]
        scores = [scores[k] + obj["points"][k] for k in (0, 1)]
    s.close()


def _cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "euchresim.cli", *args], capture_output=True, text=True,
                          timeout=300, **kw)


@pytest.mark.slow
@pytest.mark.parametrize("args,words", [
    (["--players", "3", "--defend-alone"], "defend_alone is a 4-player rule"),
    (["--bot", "nosuch"], "unknown policy 'nosuch'"),
    (["--advise-policy", "nosuch"], "--advise-policy: unknown policy"),
    (["--resume"], "--resume: name the session's folder"),
    (["--resume", "--session", "NEW"], "--resume: there is no session in"),
    (["--bot", "euchresim.examples.low_leads:low_leads:python"], "cannot sit at the table"),
])
def test_bad_options_are_one_line(tmp_path, args, words):
    where = [] if "--resume" in args else ["--session", str(tmp_path / "s")]
    out = _cli("play", "--no-browser", "--port", "0", *where, *[str(tmp_path / "new") if a == "NEW" else a for a in args])
    assert out.returncode == 1 and words in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_the_command_serves_the_table_on_a_free_port_and_stops_on_ctrl_c(tmp_path):
    folder = str(tmp_path / "s")
    p = subprocess.Popen([sys.executable, "-m", "euchresim.cli", "play", "--no-browser", "--port", "0",
                          "--session", folder, "--no-advice"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, preexec_fn=hears_ctrl_c)
    try:
        line = p.stdout.readline()
        assert line.startswith("the table is at http://127.0.0.1:"), (line, p.stderr.read() if p.poll() else "")
        base = line.split()[4].rstrip("/")
        assert call(base, "/")[0] == 200
        state = play_hand(base)
        assert state["hands_played"] == 1
    finally:
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    assert "stopped after 1 hand;" in out and "--resume" in out and "Traceback" not in err
    assert len(open(os.path.join(folder, "hands.jsonl")).read().splitlines()) == 1
    busy = _cli("play", "--no-browser", "--port", "0", "--session", folder)
    assert busy.returncode == 1 and "add --resume" in busy.stderr


@pytest.mark.slow
def test_a_resume_takes_the_sessions_own_bot_seed_and_rules_unless_given_others(tmp_path):
    folder = str(tmp_path / "s")
    quick = ["play", "--no-browser", "--port", "0", "--stop-after", "0", "--session", folder]
    assert _cli(*quick, "--seed", "7", "--bot", "heuristic:human", "--game-to", "5").returncode == 0
    again = _cli(*quick, "--resume")
    assert again.returncode == 0 and "the table is at http://127.0.0.1:" in again.stdout, again.stderr
    other = _cli(*quick, "--resume", "--seed", "3")
    assert other.returncode == 1 and "played with seed 7, not 3" in other.stderr
    rules = _cli(*quick, "--resume", "--game-to", "10")
    assert rules.returncode == 1 and "played with rules" in rules.stderr


@pytest.mark.parametrize("bot,deck,hands", [("pimc", 24, 2), ("heuristic:human", 24, 4), ("heuristic", 25, 12),
                                            ("random", 32, 4)])
def test_other_bots_and_packs_play_at_the_table_and_their_records_replay(tmp_path, bot, deck, hands):
    from euchresim.play.page_view import table_view
    s = Session(Rules(deck=deck), bot, 3, str(tmp_path / "s"))
    phases = set()
    for _ in range(hands):
        while not s.h.done:
            v = table_view(s)
            assert v["turn"] == 0 and v["options"] and any(o["legal"] for o in v["options"])
            phases.add(v["phase"])
            json.dumps(v)
            s.act(v["hand"], v["step"], next(o for o in v["options"] if o["legal"])["code"])
        s.next_hand(len(s.finished))
    s.close()
    for line in open(s.path):
        outcome, err = replay(parse_record(json.loads(line)))
        assert err is None and outcome["points"] == json.loads(line)["points"]
    assert "play" in phases and len(s.finished) == hands


def test_the_dealer_names_the_jokers_suit_with_25_cards(tmp_path):
    """Seed 329 turns the joker up with the player dealing (R7: the dealer names its suit before the bidding)."""
    from euchresim.play.page_view import table_view
    s = Session(Rules(deck=25), "heuristic", 329, str(tmp_path / "s"))
    v = table_view(s)
    assert v["phase"] == "joker_suit" and v["upcard"] == "JK" and v["dealer"] == 0
    assert [o["label"] for o in v["options"]] == ["clubs", "diamonds", "hearts", "spades"]
    s.act(0, v["step"], 2)
    assert table_view(s)["joker_suit"] == "H" and table_view(s)["bid_suit"] == "hearts"
    while not s.h.done:
        s.act(0, s.step, next(a for a in range(64) if (s.h.legal() >> a) & 1))
    obj = json.loads(open(s.path).read())
    assert obj["joker_suit"] == "H" and replay(parse_record(obj))[1] is None
    s.close()


def _play_on(s, upto: int, stop_after_new_game: bool = False) -> None:
    """Play the session's hands by a fixed rule (the last legal option) until ``upto`` hands are written;
    a finished hand is followed by the next deal (a new game after a game's end), as the page's button does."""
    while len(s.finished) < upto:
        while not s.h.done:
            opts = [a for a in range(64) if (s.h.legal() >> a) & 1]
            s.act(len(s.finished), s.step, opts[(len(s.finished) + s.step) % len(opts)])
        if len(s.finished) < upto or stop_after_new_game:
            s.next_hand(len(s.finished))


@pytest.mark.slow
def test_a_resume_keeps_the_game_score_and_dealer_and_later_records_go_on_from_them(tmp_path):
    """Stopped after any hand (mid-game, at a game's last hand, just after New game), a resumed session is at
    the same game, score and dealer as one played without a stop, and writes the same records after it."""
    hands = 14
    whole = Session(Rules(game_to=5), "heuristic", 4, str(tmp_path / "whole"))
    states = []                                       # after each hand: (game, score, dealer, game over)
    while len(whole.finished) < hands:
        _play_on(whole, len(whole.finished) + 1)
        states.append((whole.game, list(whole.score), whole.dealer, whole.game_over))
    expected = open(whole.path).read()
    whole.close()
    games = {json.loads(line)["game"] for line in expected.splitlines()}
    ends = [i for i, st in enumerate(states) if st[3] is not None]
    assert len(games) >= 2 and ends, "the fixed seed must span a game's end for this test to mean anything"
    scores = {tuple(json.loads(line)["score"]) for line in expected.splitlines()}
    assert len(scores) >= 5                           # several scores to resume at
    for stop in sorted({1, 2, 3, ends[0], ends[0] + 1, hands - 2}):
        for new_game in (False, True):
            folder = str(tmp_path / f"stop{stop}{new_game}")
            s = Session(Rules(game_to=5), "heuristic", 4, folder)
            _play_on(s, stop + 1, stop_after_new_game=new_game)
            live = (s.game, list(s.score), s.dealer)
            if s.game_over is not None:               # stopped on a game's last hand: New game is implied
                live = (s.game + 1, [0, 0], s.dealer)
            s.close()
            r = Session(Rules(game_to=5), "heuristic", 4, folder, resume=True)
            assert (r.game, list(r.score), r.dealer) == live, (stop, new_game)
            game, score, dealer, over = states[stop]
            if over is not None:                      # the resumed table opens the next game at 0-0
                assert (r.game, r.score) == (game + 1, [0, 0])
            else:
                assert (r.game, r.score, r.dealer) == (game, score, dealer)
            assert r.record()[0].score == tuple(r.score[s % 2] for s in range(4))
            _play_on(r, hands)
            r.close()
            assert open(r.path).read() == expected, (stop, new_game)


@pytest.mark.parametrize("deck,seed", [(24, 5), (25, 6), (32, 7)])
def test_every_decision_offers_exactly_the_engines_legal_actions_and_the_written_hand_is_its_replay(
        tmp_path, deck, seed):
    """At every decision of many hands (bids, alone, the discard after a pick-up, leads and follows), the page's
    legal options are the engine's legal actions, no more and no fewer (the upcard is a discard option); the
    player's leads are the cards that opened a trick, whatever the trick; and every written outcome
    (trick winners, tricks, points, maker, trump) is what a replay of the written record gives."""
    from euchresim.play.page_view import table_view
    s = Session(Rules(deck=deck), "heuristic", seed, str(tmp_path / "s"))
    kinds, leads = set(), 0
    for _ in range(30):
        while not s.h.done:
            v = table_view(s)
            legal = s.h.legal()
            engine = sorted(a for a in range(64) if (legal >> a) & 1)
            assert sorted(o["code"] for o in v["options"] if o["legal"]) == engine, v["phase"]
            if v["phase"] == "discard":
                assert int(s.h.st[UPCARD]) in engine      # the dealer may discard the upcard itself (R5)
            kinds.add(v["phase"])
            pick = engine[(len(s.finished) + s.step) % len(engine)]
            opens = v["phase"] == "play" and (not v["tricks"] or len(v["tricks"][-1]["cards"])
                                              == 4 - len(v["sitting_out"]))
            s.act(v["hand"], v["step"], pick)
            assert s.mine[-1]["lead"] == opens, s.mine[-1]
            leads += opens and bool(v["tricks"])
        s.next_hand(len(s.finished))
    s.close()
    assert {"bid1", "discard", "alone", "play"} <= kinds and leads > 0   # later leads (not a hand's first card) were met
    for line in open(s.path):
        obj = json.loads(line)
        outcome, err = replay(parse_record(obj))
        assert err is None
        for key in ("trick_winners", "tricks", "points", "maker", "trump"):
            assert obj[key] == outcome[key], key


def test_a_refused_resume_makes_no_folder(tmp_path):
    """Session(..., resume=True) on a folder that holds no session refuses before it writes anything."""
    folder = tmp_path / "typo"
    with pytest.raises(TableError, match="there is no session"):
        Session(Rules(), "heuristic", 1, str(folder), resume=True)
    assert not folder.exists()


def _pick(s, k):
    """The k-th legal option of the player's decision (a Cutthroat keep: the k-th five of the ten cards)."""
    from itertools import combinations
    from euchresim.engine.layout import PH_DUMMY
    legal = s.h.legal()
    if s.h.phase == PH_DUMMY:
        cards = [c for c in range(33) if (legal >> c) & 1]
        keeps = [sum(1 << c for c in five) for five in combinations(cards, 5)]
        return keeps[k % len(keeps)]
    opts = [a for a in range(64) if (legal >> a) & 1]
    return opts[k % len(opts)]


@pytest.mark.parametrize("players,deck", [(2, 24), (3, 24), (3, 32), (2, 25)])
def test_two_hand_and_cutthroat_tables_play_score_and_resume_like_the_engine(tmp_path, players, deck):
    """The table seats 2 (the player and an opponent) and 3 (Cutthroat, with the maker's keep of five of
    ten): every record replays to the outcome written, each player keeps its own score, a game ends by the
    engine's rule (R12), and a resume at any hand goes on with the same game, scores and dealer."""
    rules = Rules(players=players, deck=deck, game_to=5)
    s = Session(rules, "heuristic", 12, str(tmp_path / "s"))
    assert s.seat_names[0] == "you" and len(s.seat_names) == players and len(s.score) == players
    kinds, states = set(), []
    for _ in range(16):
        while not s.h.done:
            kinds.add(s.h.phase)
            s.act(len(s.finished), s.step, _pick(s, len(s.finished) + s.step))
        states.append((s.game, list(s.score), s.dealer, s.game_over))
        s.next_hand(len(s.finished))
    s.close()
    lines = open(s.path).read().splitlines()
    for line in lines:
        obj = json.loads(line)
        outcome, err = replay(parse_record(obj))
        assert err is None and len(obj["hands"]) == players and len(obj["score"]) == players
        for key in ("trick_winners", "tricks", "points", "maker", "trump"):
            assert obj[key] == outcome[key], key
    # every score is the sum of its own points since the game began; a game ends when one reaches 5
    for k, line in enumerate(lines[1:], 1):
        prev, obj = json.loads(lines[k - 1]), json.loads(line)
        if obj["game"] == prev["game"]:
            assert obj["score"] == [a + b for a, b in zip(prev["score"], prev["points"])]
        else:
            assert obj["game"] == prev["game"] + 1 and obj["score"] == [0] * players
            assert max(a + b for a, b in zip(prev["score"], prev["points"])) >= 5
    assert any(st[3] is not None for st in states)
    if players == 3:
        from euchresim.engine.layout import PH_DUMMY
        assert PH_DUMMY in kinds                      # the player kept five of ten at least once
    r = Session(rules, "heuristic", 12, str(tmp_path / "s"), resume=True)
    game, score, dealer, over = states[-1]
    assert (r.game, r.score, r.dealer) == ((game + 1, [0] * players, dealer) if over is not None
                                           else (game, score, dealer))
    r.close()
