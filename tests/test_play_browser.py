"""The practice table in a real browser: headless Chromium driven by Playwright, clicking as a player clicks.

A whole hand is played by clicking the page's buttons and cards; a card
the rules refuse is clicked too, and the page must say why and change
nothing; the hand's record must replay to the outcome the page showed;
the advisor's verdict must appear with the numbers ``show --advise`` gives
for that record.  The browser is the system's Chromium (Playwright's own
download is not reachable here): when it or Playwright is missing these
tests fail, loudly, rather than skip -- .ci/run installs both.

With ``EUCHRESIM_SCREENSHOTS=DIR`` the table and a verdict are saved as
DIR/play-table.png and DIR/play-verdict.png (docs/play.md shows them:
``EUCHRESIM_SCREENSHOTS=docs/img python -m pytest tests/test_play_browser.py``).
"""
import json
import os
import re

import pytest

from euchresim.loops.record_steps import replay
from euchresim.play import open_table
from euchresim.play.words import card_text, say_cards
from euchresim.records.format import parse_record
from euchresim.rules import Rules
from tests.helpers import serve

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SAMPLES = 400
SEED = 2         # a first hand with a call, a lead, follows and a card the rules refuse


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("playwright is not installed: pip install playwright (.ci/run does)")
    if not os.path.exists(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def table(tmp_path):
    server, session, advisor = open_table(Rules(), "heuristic", SEED, str(tmp_path / "s"), samples=SAMPLES)
    yield serve(server) + "/", session, advisor
    server.shutdown()
    server.server_close()
    session.close()
    advisor.stop()


@pytest.fixture
def page(browser, table):
    """A fresh page, the bots' cards at once; closed before the table's server stops (its polling would fail
    otherwise)."""
    yield from open_page(browser, pace="instant")


def open_page(browser, pace=None, viewport=None):
    """A page of a fresh browser context, ``pace`` the bots' cards' pace it starts with (the page's own setting,
    kept in localStorage); checks at the end that it fetched nothing from outside and logged no error."""
    ctx = browser.new_context(viewport=viewport or {"width": 1200, "height": 900})
    if pace:
        ctx.add_init_script(f"localStorage.setItem('euchresim.pace', {json.dumps(pace)})")
    pg = ctx.new_page()
    outside = []
    pg.on("request", lambda r: outside.append(r.url) if not r.url.startswith("http://127.0.0.1:") else None)
    errors = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield pg
    ctx.close()
    assert outside == []                    # the page fetches nothing from outside the server
    assert [e for e in errors if "409" not in e and "400" not in e] == []     # refusals the test asked for aside


def _step(page) -> str:
    return page.evaluate("document.body.dataset.step || ''")


WHERE = "(document.body.dataset.hand || '') + ':' + (document.body.dataset.step || '')"


def _click_and_wait(page, locator):
    """Click, and wait for the page to draw the table the server answered with (every action moves the step)."""
    before = page.evaluate(WHERE)
    locator.click()
    page.wait_for_function(f"{WHERE} !== {json.dumps(before)}", timeout=30_000)


def _shot(page, name):
    where = os.environ.get("EUCHRESIM_SCREENSHOTS")
    if where:
        os.makedirs(where, exist_ok=True)
        page.screenshot(path=os.path.join(where, name), full_page=True)


def play_hand_by_clicking(page, session, shots=False) -> int:
    """Click the first legal option until the hand is over; on the way, click every refused card once.

    Returns how many refused cards were clicked.
    """
    refused = 0
    page.wait_for_selector("#calls button, #hand button.card", timeout=30_000)
    while page.locator("#next").is_hidden():
        illegal = page.locator("#hand button.card.illegal")
        if illegal.count():
            card = illegal.first
            name, why = card.get_attribute("data-card"), card.get_attribute("title")
            before, server_step = _step(page), session.step
            card.click(force=True)          # aria-disabled: a person can still click it; the page answers why
            page.wait_for_function("document.getElementById('why').textContent.length > 0")
            said = page.locator("#why").text_content()
            assert said == why and "you must follow suit" in said and card_text(name) in said
            assert _step(page) == before and session.step == server_step        # nothing was played
            assert page.locator(f"#hand button.card[data-card='{name}']").count() == 1
            refused += 1
            if shots:
                _shot(page, "play-table.png")
                shots = False
        legal = page.locator("#hand button.card.legal, #calls button.legal")
        assert legal.count() >= 1
        _click_and_wait(page, legal.first)
    return refused


@pytest.mark.slow
def test_a_hand_played_by_clicking_replays_and_the_verdict_shows_the_advisors_numbers(page, table):
    url, session, advisor = table
    page.goto(url)
    page.wait_for_selector("#calls button, #hand button.card")
    assert page.locator("#turn").text_content() == "your turn"
    assert len(page.locator("#hand .card").all()) == 5
    refused = play_hand_by_clicking(page, session, shots=True)
    result = page.locator("#result").text_content()
    points = [int(x) for x in re.search(r"points (\d) to you, (\d) to them", result).groups()]
    obj = json.loads(open(session.path).read().splitlines()[0])
    outcome, err = replay(parse_record(obj))
    assert err is None and outcome["points"][:2] == points == obj["points"][:2]
    shown = [c.text_content() for c in page.locator("#tricks li.trick").all()]
    assert len(shown) == len(obj["trick_winners"])
    # the verdict: each of the player's decisions with a choice, the very numbers of review_hand on the record
    page.wait_for_selector("#verdicts .hand-verdicts[data-hand='0'] .verdict[data-step]", timeout=300_000)
    from euchresim.analysis.advisor_table import review_hand
    inferred = advisor.state()["hands"]["0"]["rows"][0]["inference"]
    review = review_hand(parse_record(obj), session.table, SAMPLES, seed=0, infer=inferred)
    mine = review[review["seat"] == 0]
    rows = page.locator("#verdicts .hand-verdicts[data-hand='0'] .verdict[data-step]").all()
    assert len(rows) == len(mine) > 0
    for row, (_, r) in zip(rows, mine.iterrows()):
        text = row.text_content()
        assert int(row.get_attribute("data-step")) == r["step"] and say_cards(str(r["did"])) in text
        if r["kind"] == "play":                 # the verdict names the trick
            assert re.match(r"trick [1-5], (your lead|you follow): ", text), text
        if r["did"] == r["best"] or r["gave_up"] == 0:
            assert text.endswith(": the best")
        else:
            assert (f"gave up {r['gave_up']:.2f} points a hand [{r['gave_up_low']:+.2f}, "
                    f"{r['gave_up_high']:+.2f}] against {say_cards(str(r['best']))}") in text
    total = float(page.locator("#summary tr[data-kind='calls'] td").nth(2).text_content())
    calls = mine[mine["kind"].isin(["bid1", "bid2", "alone", "defend_alone", "joker_suit"])]
    assert total == pytest.approx(round(float(calls["gave_up"].sum()), 2), abs=0.005)
    assert page.locator("#progress").is_hidden()
    _shot(page, "play-verdict.png")
    # the next hands go on while nothing blocks; one of them meets a refused card if the first did not
    for _ in range(6):
        if refused:
            break
        _click_and_wait(page, page.locator("#next"))
        refused += play_hand_by_clicking(page, session)
    assert refused, "no hand offered a card the rules refuse"


@pytest.mark.slow
def test_a_reload_keeps_the_hand_and_a_call_the_rules_refuse_says_why(page, table):
    url, session, _ = table
    page.goto(url)
    page.wait_for_selector("#calls button, #hand button.card")
    _click_and_wait(page, page.locator("#hand button.card.legal, #calls button.legal").first)
    step = _step(page)
    page.reload()
    page.wait_for_function(f"document.body.dataset.step === {json.dumps(step)}")
    # round two: the suit turned down cannot be named; the page says so and sends nothing
    for _ in range(300):
        if page.locator("#calls button.illegal").count():
            break
        if not page.locator("#next").is_hidden():
            _click_and_wait(page, page.locator("#next"))
            continue
        legal = page.locator("#calls button.legal[data-code='0'], #calls button.legal[data-code='4']")
        _click_and_wait(page, legal.first if legal.count() else page.locator("#hand button.card.legal, #calls button.legal").first)
    bad = page.locator("#calls button.illegal").first
    before = _step(page)
    bad.click(force=True)
    page.wait_for_function("document.getElementById('why').textContent.length > 0")
    assert "turned down" in page.locator("#why").text_content()
    assert _step(page) == before


@pytest.mark.slow
def test_with_a_verdict_after_each_decision_it_comes_while_the_hand_is_played(page, table):
    url, session, advisor = table
    page.goto(url)
    page.wait_for_selector("#calls button, #hand button.card")
    page.locator("#each").check()
    page.wait_for_function("() => fetch('/api/state').then(r => r.json()).then(s => s.each_decision)")
    assert session.each_decision
    first = session.step
    _click_and_wait(page, page.locator("#hand button.card.legal, #calls button.legal").first)
    row = page.locator(f"#verdicts .hand-verdicts[data-hand='0'] .verdict.now[data-step='{first}']")
    row.wait_for(timeout=300_000)
    assert page.locator("#next").is_hidden() and not session.h.done          # the hand waits for the player
    text = row.text_content()
    hand = page.locator("#verdicts .hand-verdicts[data-hand='0']")
    assert hand.locator(".now-note").text_content().startswith("judged at once")       # said once, not on each line
    assert hand.text_content().count("judged at once") == 1
    assert re.search(r": the best|gave up \d\.\d\d points a hand \[[+-]\d\.\d\d, [+-]\d\.\d\d\] against ", text)
