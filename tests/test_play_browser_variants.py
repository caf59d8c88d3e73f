"""Every variant the table plays, a hand of each played by clicks in headless Chromium (issue 33, "Every variant
the engine plays"): the 2-hand game, Cutthroat with the player's keep of five of ten and a defender alone, the
joker pack and its suit, 32 and 33 cards, stick the dealer, and a 4-hand defender alone.

At each of the player's decisions the page's options are the engine's legal actions (the view's ``options``
with ``legal``, and the buttons drawn from them); each hand ends with its written record replaying
(loops.record_steps.replay) to the outcome the page showed.  The seeds were found with ``Session`` and the same
choices (``pick``) before the browser saw them: each deals the first hand that reaches the decision the test is
about.  Fixtures and helpers are test_play_browser's; the advisor is off (its verdicts are the same code for
every variant, and its first compile would dominate these tests).  With ``EUCHRESIM_SCREENSHOTS=DIR`` the
Cutthroat table at the keep and the 2-hand table are saved as DIR/play-cutthroat.png and DIR/play-two-hand.png
(docs/play.md shows them).
"""
import json
import re

import pytest

from euchresim.loops.record_steps import replay
from euchresim.play import open_table
from euchresim.records.format import parse_record
from euchresim.rules import Rules
from tests.test_play_browser import _click_and_wait, _shot, browser, open_page  # noqa: F401
from tests.test_play_browser_table import PHONE, STATE
from tests.helpers import serve

pytestmark = pytest.mark.slow
# the player's choice where it has one: make trump (order, pick up, name a suit), take the dummy
MAKE = ("order", "pick up", "clubs", "diamonds", "hearts", "spades", "take the dummy")
POSITIONS = {4: ["bottom", "left", "top", "right"], 3: ["bottom", "left", "right"], 2: ["bottom", "top"]}


def pick(v, prefer):
    """The option the test clicks: the first legal one whose label ``prefer`` names (in its order), else the first
    legal one; a Cutthroat keep is the first five of the ten cards."""
    legal = [o for o in v["options"] if o["legal"]]
    if v.get("keep"):
        return legal[:v["keep"]]
    for want in prefer:
        for o in legal:
            if o["label"] == want:
                return o
    return legal[0]


@pytest.fixture
def open_variant(tmp_path):
    """open_variant(rules, seed) -> (url, session): a table of those rules, served until the test ends."""
    opened = []

    def start(rules, seed):
        server, session, _ = open_table(rules, "heuristic", seed, str(tmp_path / f"s{len(opened)}"), advise=False)
        url = serve(server) + "/"
        opened.append((server, session))
        return url, session
    yield start
    for server, session in opened:
        server.shutdown()
        server.server_close()
        session.close()


def _engine_legal(session) -> set:
    legal = session.h.legal()
    return {a for a in range(64) if (legal >> a) & 1}


def _page_legal(page, v) -> set:
    """The codes of the options the page offers as legal, read off its buttons (cards by their data-card)."""
    if v.get("keep"):
        return {int(b.get_attribute("data-code")) for b in page.locator("#hand button.keep-card").all()}
    if v["phase"] in ("play", "discard"):
        code = {o["label"]: o["code"] for o in v["options"]}
        drawn = [b.get_attribute("data-card") for b in page.locator("#hand button.card").all()]
        assert sorted(drawn) == sorted(code)                   # every option drawn, the refused ones greyed
        return {code[b.get_attribute("data-card")] for b in page.locator("#hand button.card.legal").all()}
    drawn = [int(b.get_attribute("data-code")) for b in page.locator("#calls button").all()]
    assert drawn == [o["code"] for o in v["options"]]
    return {int(b.get_attribute("data-code")) for b in page.locator("#calls button.legal").all()}


def _keep_by_clicks(page, five, ten, shot=None):
    """Pick the keep by toggling cards: Keep is enabled with exactly five picked, not with four or six."""
    keep = page.locator("#keep-button")
    toggle = (lambda o: page.locator(f"#hand button.keep-card[data-code='{o['code']}']").click())
    for o in five[:4]:
        toggle(o)
    assert keep.is_disabled() and page.locator("#keep-count").text_content().startswith("4 of 5")
    sixth = next(o for o in ten if o not in five)
    toggle(sixth)
    toggle(five[4])
    assert keep.is_disabled()                                  # six picked
    toggle(sixth)                                              # put back
    assert keep.is_enabled() and page.locator("#hand button.keep-card.chosen").count() == 5
    if shot:
        _shot(page, shot)
    _click_and_wait(page, keep)


def play_by_clicks(page, session, prefer, seen, shot=None, phone=False):
    """Play the hand by clicking ``pick``'s option at each decision, checking the page's legal options against
    the engine's; ``seen`` collects the decisions met (phase, label). Returns the hand's written record."""
    page.wait_for_selector("#calls button, #hand button.card", timeout=60_000)
    while page.locator("#next").is_hidden():
        v = page.evaluate(STATE)
        assert v["turn"] == 0 and not v["done"]
        engine = _engine_legal(session)
        assert {o["code"] for o in v["options"] if o["legal"]} == engine == _page_legal(page, v)
        if phone:
            assert page.evaluate(PHONE) == {"width": 390, "clipped": 0, "outside": 0}, v["phase"]
        if shot and shot[0] == v["phase"] and not v.get("keep"):
            _shot(page, shot[1])
            shot = None
        o = pick(v, prefer)
        if v.get("keep"):
            _keep_by_clicks(page, o, v["options"], shot[1] if shot and shot[0] == "dummy_keep" else None)
            seen.append(("dummy_keep", sorted(x["label"] for x in o)))
            continue
        seen.append((v["phase"], o["label"]))
        seen += [("refused:" + v["phase"], b.get_attribute("title")) for b in page.locator("#calls button.illegal").all()]
        where = "#hand button.card" if v["phase"] in ("play", "discard") else "#calls button"
        key = f"[data-card='{o['label']}']" if v["phase"] in ("play", "discard") else f"[data-code='{o['code']}']"
        _click_and_wait(page, page.locator(where + key))
    return json.loads(open(session.path).read().splitlines()[-1])


def _check_outcome(page, session, obj):
    """The written record replays to the outcome the page showed: maker, the maker's tricks, the points."""
    outcome, err = replay(parse_record(obj))
    assert err is None
    for key in ("maker", "trump", "trick_winners", "tricks", "points"):
        assert outcome[key] == obj[key], key
    result = page.locator("#result").text_content()
    names = session.seat_names
    said = dict((who, int(n)) for n, who in re.findall(r"(\d+) to (\w+)", result.split("; points ")[1]))
    points = outcome["points"]
    if session.players == 4:
        assert said == {"you": points[0], "them": points[1]}
    else:
        assert said == {names[x]: points[x] for x in range(session.players)}
    maker = outcome["maker"]
    assert result.startswith(f"{names[maker]} made ")
    made = sum(outcome["tricks"][x] for x in range(session.players) if session.party(x) == session.party(maker))
    assert re.search(rf": [\w ]+ took {made} tricks? \(", result), result
    shown = page.locator("#tricks li.trick").all()
    assert len(shown) == len(outcome["trick_winners"]) == 5


def _check_seats(page, players):
    """Each seat at its place around the table, named; no seat beyond the players (Cutthroat's dummy across)."""
    for seat in range(4):
        box = page.locator(f"#seat-{seat}")
        if seat < players:
            assert box.is_visible() and box.get_attribute("data-pos") == POSITIONS[players][seat]
        elif players == 3 and seat == 3:
            assert box.is_visible() and box.get_attribute("data-pos") == "top"
            assert box.text_content().startswith("Dummy")
        else:
            assert box.is_hidden()


@pytest.mark.parametrize("width", [1200, 390])
def test_cutthroat_the_player_makes_takes_the_dummy_and_keeps_five_by_clicks(browser, open_variant, width):
    url, session = open_variant(Rules(players=3), 2)          # seed 2: the player orders and takes the dummy
    for page in open_page(browser, pace="instant", viewport={"width": width, "height": 900}):
        page.goto(url)
        page.wait_for_selector("#calls button")
        _check_seats(page, 3)
        assert page.locator("#score").text_content() == "you 0, left 0, right 0 (game to 10)"
        assert page.locator("#seat-3").text_content() == "Dummythe dummy: five cards face down"
        seen = []
        obj = play_by_clicks(page, session, MAKE, seen, shot=("dummy_keep", "play-cutthroat.png") if width > 390 else None,
                             phone=width == 390)
        assert [k for k, _ in seen[:3]] == ["bid1", "alone", "dummy_keep"]
        assert seen[1] == ("alone", "take the dummy")
        assert sorted(obj["dummy_keep"]) == seen[2][1]                  # the five clicked are the five the record keeps
        assert page.locator("#partnership").text_content() == "left and right defend together against you, with the dummy"
        assert page.locator("#seat-3").text_content() == "Dummythe dummy: taken up by you"
        _check_outcome(page, session, obj)
        score = ", ".join(f"{n} {p}" for n, p in zip(session.seat_names, obj["points"]))
        assert page.locator("#score").text_content() == score + " (game to 10)"
        assert page.locator("#tricks-won").text_content() == "tricks: " + ", ".join(
            f"{n} {t}" for n, t in zip(session.seat_names, obj["tricks"]))


def test_cutthroat_the_player_defends_alone_and_the_other_defender_sits_out(browser, open_variant):
    url, session = open_variant(Rules(players=3), 1)          # seed 1: right makes; the player is asked first
    for page in open_page(browser, pace="instant"):
        page.goto(url)
        page.wait_for_selector("#calls button")
        seen = []
        obj = play_by_clicks(page, session, ("defend alone",), seen)
        assert seen[0] == ("defend_alone", "defend alone")
        assert obj["alone"] == [0] and obj["maker"] == 2
        assert page.locator("#partnership").text_content() == (
            "you defend alone against right, with the dummy; left sits out")
        assert "sits out" in page.locator("#seat-1").text_content()
        _check_outcome(page, session, obj)


@pytest.mark.parametrize("width", [1200, 390])
def test_two_hand_a_hand_played_by_clicks(browser, open_variant, width):
    url, session = open_variant(Rules(players=2), 1)          # seed 1: the player picks up and discards
    for page in open_page(browser, pace="instant", viewport={"width": width, "height": 900}):
        page.goto(url)
        page.wait_for_selector("#calls button")
        _check_seats(page, 2)
        assert page.locator("#seat-1 .name").text_content().startswith("Opponent")
        seen = []
        obj = play_by_clicks(page, session, MAKE, seen, shot=("play", "play-two-hand.png") if width > 390 else None,
                             phone=width == 390)
        assert {k for k, _ in seen} >= {"bid1", "discard", "play"}
        assert page.locator("#partnership").text_content() == ""
        _check_outcome(page, session, obj)
        assert page.locator("#score").text_content() == (
            f"you {obj['points'][0]}, opponent {obj['points'][1]} (game to 10)")


@pytest.mark.parametrize("rules,seed,prefer,met", [
    (Rules(deck=25), 329, MAKE, "joker_suit"),                  # the joker turned up: the player (dealer) names its suit
    (Rules(deck=32), 2, MAKE, "play"),
    (Rules(deck=33), 1, MAKE, "discard"),
    (Rules(stick_the_dealer=True), 83, ("pass",), "bid2"),       # the dealer may not pass round two
    (Rules(defend_alone=True), 56, ("defend alone",), "defend_alone"),
], ids=["joker", "deck32", "deck33", "stick", "defend-alone"])
def test_four_hand_packs_and_options_a_hand_played_by_clicks(browser, open_variant, rules, seed, prefer, met):
    url, session = open_variant(rules, seed)
    for page in open_page(browser, pace="instant"):
        page.goto(url)
        page.wait_for_selector("#calls button, #hand button.card")
        _check_seats(page, 4)
        seen = []
        obj = play_by_clicks(page, session, prefer, seen)
        assert met in {k for k, _ in seen}
        _check_outcome(page, session, obj)
        if met == "joker_suit":
            suit = next(label for k, label in seen if k == "joker_suit")
            assert obj["upcard"] == "JK" and obj["joker_suit"] == suit[0].upper()
            assert "JK" in page.locator("#upcard").text_content()
        if met == "bid2":
            assert ("refused:bid2", "stick the dealer: the dealer must name a suit in round two (R6)") in seen
            assert obj["calls"][:7] == ["pass"] * 7 and obj["calls"][7] != "pass" and obj["dealer"] == 0
        if met == "defend_alone":
            assert 0 in obj["alone"] and page.locator("#seat-2").text_content().count("sits out") == 1


@pytest.mark.parametrize("players,seed", [(3, 2), (2, 1)])
def test_the_verdicts_on_a_cutthroat_and_a_2_hand_hand_are_the_advisors(browser, tmp_path, players, seed):
    """With the advisor on, the hand's verdicts appear as for four players: each of the player's decisions with a
    choice, the keep of five included, the very numbers of review_hand on the written record."""
    from euchresim.analysis.advisor_table import review_hand
    from euchresim.play.words import say_cards
    server, session, advisor = open_table(Rules(players=players), "heuristic", seed, str(tmp_path / "s"), samples=200)
    url = serve(server) + "/"
    try:
        for page in open_page(browser, pace="instant"):
            page.goto(url)
            obj = play_by_clicks(page, session, MAKE, [])
            rows = "#verdicts .hand-verdicts[data-hand='0'] .verdict[data-step]"
            page.wait_for_selector(rows, timeout=300_000)
            inferred = advisor.state()["hands"]["0"]["rows"][0]["inference"]
            mine = review_hand(parse_record(obj), session.table, 200, seed=0, infer=inferred, seats=(0,))
            shown = page.locator(rows).all()
            assert len(shown) == len(mine) > 0
            assert ("dummy_keep" in set(mine["kind"])) == (players == 3)
            for row, (_, r) in zip(shown, mine.iterrows()):
                assert int(row.get_attribute("data-step")) == r["step"] and say_cards(str(r["did"])) in row.text_content()
                if r["did"] != r["best"] and r["gave_up"] != 0:
                    assert f"gave up {r['gave_up']:.2f} points a hand" in row.text_content()
    finally:
        server.shutdown()
        server.server_close()
        session.close()
        advisor.stop()
