"""The practice table's page at the table (issue 33, "At the table"), in headless Chromium as in test_play_browser.

What the page shows while a hand is played: the upcard and what became
of it, the tricks each side has won, the last trick with who played each
card, the bots' cards one at a time at the page's pace (kept in
localStorage), the dealer's "pick up", the bots' name as given, the
verdicts folded by hand with a hand's note said once, and all of it at a
phone's width.  Fixtures and helpers are test_play_browser's.

With ``EUCHRESIM_SCREENSHOTS=DIR`` the phone's view is saved as
DIR/play-phone.png (docs/play.md shows it).
"""
import json
import threading

import pytest

from euchresim.play import open_table
from euchresim.play.table import SEAT_NAMES
from euchresim.play.verdicts import NO_INFERENCE, verdict_text
from euchresim.play.words import card_text
from euchresim.rules import Rules
from tests.test_play_browser import SEED, _click_and_wait, _shot, browser, open_page, page, table  # noqa: F401
from tests.helpers import serve

STATE = "() => fetch('/api/state').then(r => r.json())"
LEGAL = "#hand button.card.legal, #calls button.legal"


def states(page, hands):
    """Click the first legal option through ``hands`` hands; yield the server's table before each click and at
    each hand's end (the page drawn from it by then)."""
    page.wait_for_selector("#calls button, #hand button.card", timeout=30_000)
    for n in range(hands):
        while page.locator("#next").is_hidden():
            yield page.evaluate(STATE)
            _click_and_wait(page, page.locator(LEGAL).first)
        yield page.evaluate(STATE)
        if n + 1 < hands:
            _click_and_wait(page, page.locator("#next"))


@pytest.mark.slow
def test_the_upcard_the_tricks_won_and_the_last_trick_stay_in_view(page, table):
    url, session, _ = table
    page.goto(url)
    seen = set()
    for s in states(page, 6):
        up = page.locator("#upcard").text_content()
        fate = s["upcard_note"].split(", ", 1)[1:]
        assert f"upcard {card_text(s['upcard'])}" in up and all(f in up for f in fate)
        if s["maker"] is not None:
            seen.add("picked up" if "picked up by" in up else "turned down" if "turned down" in up else up)
            assert page.locator("#tricks-won").text_content() == (
                f"tricks: you and partner {s['tricks_won'][0]}, left and right {s['tricks_won'][1]}")
            seen.add(sum(s["tricks_won"]))
        done = [t for t in s["tricks"] if t["winner"] is not None]
        if done and s["tricks"][-1]["winner"] is not None:        # between tricks: the last one, who played what
            shown = [(int(e.get_attribute("data-seat")), e.text_content())
                     for e in page.locator("#trick .played-by").all()]
            assert shown == [(c["seat"], f"{SEAT_NAMES[c['seat']]} {card_text(c['card'])}") for c in done[-1]["cards"]]
            seen.add("last trick")
        if s.get("options") and s["phase"] == "bid1":             # the dealer picks up; the others order
            buttons = [b.text_content() for b in page.locator("#calls button").all()]
            assert buttons == ["pass", "pick up" if s["dealer"] == 0 else "order"]
            seen.add(("bid1", s["dealer"] == 0))
    assert {"picked up", "turned down", "last trick", 3, ("bid1", True), ("bid1", False)} <= seen, seen


WATCH = """() => {
  window.seen = [];
  new MutationObserver(() => window.seen.push({
    t: performance.now(), cards: document.querySelectorAll('#tricks .card').length,
    arriving: document.body.dataset.arriving === '1',
    buttons: document.querySelectorAll('#hand button, #calls button').length,
  })).observe(document.getElementById('tricks'), { childList: true, subtree: true });
}"""


def _hand_seen(page):
    """Play the next hand by clicking; what #tricks showed on the way: [(ms, cards shown, arriving, buttons)]."""
    page.evaluate("() => { window.seen = []; }")
    _click_and_wait(page, page.locator("#next"))
    for _ in states(page, 1):
        pass
    return [(e["t"], e["cards"], e["arriving"], e["buttons"]) for e in page.evaluate("() => window.seen")]


@pytest.mark.slow
def test_the_bots_cards_arrive_one_by_one_at_the_pace_the_page_keeps(browser, table):
    url, session, _ = table
    for pg in open_page(browser):
        pg.goto(url)
        pg.wait_for_selector("#calls button, #hand button.card")
        assert pg.locator("#pace").input_value() == "normal"              # one by one unless asked otherwise
        pg.select_option("#pace", "fast")                                   # the page's control, kept over a reload
        assert pg.evaluate("localStorage.getItem('euchresim.pace')") == "fast"
        pg.reload()
        pg.wait_for_selector("#calls button, #hand button.card")
        assert pg.locator("#pace").input_value() == "fast"
        pg.evaluate(WATCH)
        for _ in states(pg, 1):
            pass
        for _ in range(6):                       # a hand with its cards played, not thrown in
            seen = _hand_seen(pg)
            total = sum(len(t["cards"]) for t in pg.evaluate(STATE)["tricks"])
            if total >= 12:
                break
        counts = [c for _, c, _, _ in seen]
        assert sorted(set(counts)) == list(range(min(counts), total + 1)) and min(counts) <= 1  # every card alone
        firsts = {}
        for t, c, _, _ in seen:
            firsts.setdefault(c, t)
        gaps = [firsts[c + 1] - firsts[c] for c in range(1, total) if c + 1 in firsts]
        assert sorted(gaps)[len(gaps) // 2] >= 200          # the pace (fast: 250 ms a card), not all at once
        assert all(b == 0 for _, _, arriving, b in seen if arriving)   # nothing to click while cards arrive
        pg.select_option("#pace", "instant")                # at once: several cards in one drawing
        for _ in range(6):
            seen = _hand_seen(pg)
            if max([c for _, c, _, _ in seen] or [0]) >= 12:
                break
        assert len({c for _, c, _, _ in seen}) < max(c for _, c, _, _ in seen)


@pytest.mark.slow
def test_older_hands_verdicts_fold_and_the_one_opened_stays_open(page, table):
    url, session, _ = table
    page.goto(url)
    for _ in states(page, 2):
        pass
    folds = "() => [...document.querySelectorAll('#verdicts details')].map(d => [d.dataset.hand, d.open])"
    page.wait_for_function(f"({folds})().length >= 2")
    assert page.evaluate(folds)[:2] == [["1", True], ["0", False]]
    page.locator("#verdicts details[data-hand='0'] summary").click()
    page.wait_for_timeout(1600)                              # the page redraws as the advisor reports
    assert page.evaluate(folds)[:2] == [["1", True], ["0", True]]
    _click_and_wait(page, page.locator("#next"))
    for _ in states(page, 1):
        pass
    page.wait_for_function(f"({folds})().length >= 3")
    assert page.evaluate(folds)[:3] == [["2", True], ["1", False], ["0", True]]


def _rows(inference):
    rows = []
    for k, (kind, did, best, where, gave) in enumerate([("bid1", "pass", "order", "round one", 0.3),
                                                         ("play", "AH", "KS", "trick 2, your lead", 0.0),
                                                         ("play", "9C", "9C", "trick 4, you follow", 0.0)]):
        r = {"step": k + 1, "kind": kind, "group": "calls" if kind == "bid1" else "leads", "did": did,
             "best": best, "gave_up": gave, "gave_up_low": 0.1 if gave else 0.0, "gave_up_high": 0.5 if gave else 0.0,
             "samples": 400, "inference": inference[k], "interval_z": 1.96, "where": where}
        r["text"] = verdict_text(r)
        rows.append(r)
    return rows


def test_a_note_for_the_whole_hand_is_said_once(page, table):
    """The advisor's answer is replaced on the way (page.route): a hand whose every row was judged on deals not
    narrowed by the calls, and one where only one row was."""
    url, session, _ = table
    fake = {"0": _rows([False, False, False]), "1": _rows([True, False, True])}

    def answer(route):
        response = route.fetch()
        s = response.json()
        s["advice"]["hands"] = {h: {"status": "done", "rows": rows, "error": None, "now": [], "now_waiting": 0}
                                for h, rows in fake.items()}
        s["advice"]["pending"] = 0
        route.fulfill(response=response, json=s)
    page.route("**/api/state", answer)
    page.goto(url)
    page.wait_for_selector("#verdicts details[data-hand='0']")
    page.locator("#verdicts details[data-hand='0'] summary").click()
    every = page.locator("#verdicts details[data-hand='0']")
    assert every.text_content().count("narrowed") == 1
    assert every.locator(".hand-note").text_content() == NO_INFERENCE
    assert [r.text_content() for r in every.locator(".verdict[data-step]").all()] == [r["text"] for r in fake["0"]]
    assert "trick 2, your lead: A\u2665: the best" in every.text_content()
    one = page.locator("#verdicts details[data-hand='1']")
    assert one.text_content().count("narrowed") == 1
    assert one.locator(".hand-note").text_content() == "* " + NO_INFERENCE
    assert [r.text_content().endswith(" *") for r in one.locator(".verdict[data-step]").all()] == [False, True, False]


PHONE = """() => ({ width: document.documentElement.scrollWidth,
  clipped: [...document.querySelectorAll('main > section')].filter(e => e.scrollWidth > e.clientWidth).length,
  outside: [...document.querySelectorAll('button, select, input, summary, a')].filter(b => b.offsetParent !== null)
    .map(b => b.getBoundingClientRect()).filter(r => r.left < 0 || r.right > 390).length })"""


@pytest.mark.slow
def test_the_page_works_at_a_phones_width(browser, table):
    url, session, _ = table
    for pg in open_page(browser, pace="instant", viewport={"width": 390, "height": 844}):
        pg.goto(url)
        shot = True
        for s in states(pg, 2):             # every click is Playwright's: each button in view and not covered
            assert pg.evaluate(PHONE) == {"width": 390, "clipped": 0, "outside": 0}, s["phase"]
            if shot and s["phase"] == "play" and s.get("options"):
                _shot(pg, "play-phone.png")
                shot = False
        pg.locator("#pace").select_option("fast")
        assert pg.evaluate(PHONE) == {"width": 390, "clipped": 0, "outside": 0}


@pytest.fixture
def human_table(tmp_path):
    server, session, advisor = open_table(Rules(), "heuristic:human", SEED, str(tmp_path / "h"), advise=False)
    yield serve(server) + "/", session, advisor
    server.shutdown()
    server.server_close()
    session.close()


def test_the_bots_name_is_the_one_given(browser, human_table):
    url, session, _ = human_table
    for pg in open_page(browser, pace="instant"):
        pg.goto(url)
        pg.wait_for_selector("#calls button, #hand button.card")
        about = pg.locator("#about").text_content()
        assert "bots: heuristic:human;" in about and session.bot not in about
