"""The table's extras in a real browser (static/extras.js): the hint, the review, the session's picture.

Each is clicked as a player clicks it in headless Chromium (the fixtures
and helpers of tests/test_play_browser.py, which say why the system's
Chromium and why these fail rather than skip without it): the hint's
options on the page are the advisor's answer the server holds and the
hand's record keeps; the review's previous/next buttons step through the
player's decisions and show what /api/review says of each; the picture's
bars are the numbers of the tally.  With ``EUCHRESIM_SCREENSHOTS=DIR``
they are saved as DIR/play-hint.png, play-review.png, play-picture.png
(docs/play.md shows them).
"""
import json
import time

import pytest

from tests.test_play_browser import (_click_and_wait, _shot, browser, page, play_hand_by_clicking,  # noqa: F401
                                     table)

ADVISOR = 300_000        # ms: the first verdicts may wait for the advisor's compile


def _api(page, path):
    return page.evaluate(f"fetch({json.dumps(path)}).then(r => r.json())")


def _verdicts_done(advisor, hands):
    """Wait for the advisor to have judged ``hands`` hands and to have nothing left to do."""
    end = time.time() + ADVISOR / 1000
    while True:
        st = advisor.state()
        if st["pending"] == 0 and sum(h["status"] == "done" for h in st["hands"].values()) >= hands:
            return
        assert time.time() < end, "the advisor did not judge the hands in time"
        time.sleep(0.2)


@pytest.mark.slow
def test_a_hint_shows_the_advisors_options_before_the_player_acts_and_the_record_keeps_it(page, table):
    url, session, advisor = table
    page.goto(url)
    page.wait_for_selector("#calls button, #hand button.card")
    ask = page.locator("#hint-ask")
    ask.wait_for(state="visible")          # extras.js draws from its own fetch of /api/state, after app.js
    assert page.locator("#hint .hint-option").count() == 0
    step = session.step
    ask.click()
    page.locator("#hint .hint-option").first.wait_for(timeout=ADVISOR)
    assert session.step == step                                  # asking played nothing
    held = session.hints.of_hand(0)[0]
    assert held["step"] == step and held["status"] == "done"
    rows = page.locator("#hint .hint-option").all()
    assert sorted(r.get_attribute("data-action") for r in rows) == sorted(o["action"] for o in held["options"])
    best = page.locator("#hint .hint-option[data-best='true']")
    assert best.count() == 1 and best.get_attribute("data-action") == held["best"]
    o = next(o for o in held["options"] if o["best"])
    assert f"[{o['low']:+.2f}, {o['high']:+.2f}]" in best.text_content()
    assert ask.is_disabled()
    _shot(page, "play-hint.png")
    play_hand_by_clicking(page, session)
    # the hand is over: no decision to ask about (extras.js hides the button on its own fetch, after app.js
    # has shown "Next hand": wait for it rather than look once)
    page.locator("#hint-ask").wait_for(state="hidden", timeout=30_000)
    obj = json.loads(open(session.path).read().splitlines()[0])
    assert obj["hints"][0]["step"] == step and obj["hints"][0]["best"] == held["best"]
    # its verdict is marked, and the tally says it leaves it out
    row = page.locator(f"#verdicts .hand-verdicts[data-hand='0'] .verdict[data-step='{step}']")
    row.wait_for(timeout=ADVISOR)
    assert row.text_content().endswith("(you asked a hint)")
    page.wait_for_selector("#hinted-note:not([hidden])")
    assert page.locator("#hinted-note").text_content().startswith("1 decision you asked a hint about")


@pytest.mark.slow
def test_a_finished_hand_is_reviewed_decision_by_decision_with_previous_and_next(page, table):
    url, session, advisor = table
    page.goto(url)
    play_hand_by_clicking(page, session)
    _verdicts_done(advisor, 1)
    data = _api(page, "/api/review?hand=0")
    steps = data["steps"]
    assert len(steps) >= 2
    box = page.locator("#review-step")
    page.wait_for_function("document.querySelector('#review-step .verdict') && "
                           "!document.querySelector('#review-step .verdict').textContent.includes('judging')")
    assert page.locator("#review-prev").is_disabled()
    for i, s in enumerate(steps):
        page.wait_for_function(f"document.getElementById('review-step').dataset.step === '{s['step']}'")
        assert page.locator("#review-pos").text_content() == f"decision {i + 1} of {len(steps)}"
        assert box.locator(".where").text_content() == f"hand 1, {s['where']}"
        assert [c.get_attribute("data-card") for c in box.locator(".your-hand .card").all()] == s["your_hand"]
        assert box.locator(".verdict").text_content() == "the advisor: " + s["verdict"]["text"]
        assert box.locator(".did").text_content() == "you: " + s["did"]
        assert box.locator(".trick").count() == len(s["tricks"])
        if i == 1:
            _shot(page, "play-review.png")
        if i < len(steps) - 1:
            page.locator("#review-next").click()
    assert page.locator("#review-next").is_disabled()
    page.locator("#review-prev").click()
    page.wait_for_function(f"document.getElementById('review-step').dataset.step === '{steps[-2]['step']}'")


@pytest.mark.slow
def test_the_session_is_drawn_per_hand_and_per_kind_of_decision(page, table):
    url, session, advisor = table
    page.goto(url)
    play_hand_by_clicking(page, session)
    _click_and_wait(page, page.locator("#next"))
    play_hand_by_clicking(page, session)
    _verdicts_done(advisor, 2)
    page.wait_for_function("document.querySelectorAll('#picture-hands-svg rect[data-hand]').length === 2")
    pic = _api(page, "/api/state")["picture"]
    bars = page.locator("#picture-hands-svg rect[data-hand]").all()
    assert [int(b.get_attribute("data-hand")) for b in bars] == [h["hand"] for h in pic["hands"]]
    for b, h in zip(bars, pic["hands"]):
        assert float(b.get_attribute("data-gave-up")) == pytest.approx(h["gave_up"], abs=1e-4)
    kinds = page.locator("#picture-kinds-svg rect[data-kind]").all()
    assert [k.get_attribute("data-kind") for k in kinds] == ["calls", "leads", "follows", "discards"]
    for k, want in zip(kinds, pic["kinds"]):
        assert float(k.get_attribute("data-gave-up")) == pytest.approx(want["gave_up"], abs=1e-4)
    # the bars are the tally's numbers: the summary table drawn by the page says the same
    total = float(page.locator("#summary tr[data-kind='follows'] td").nth(2).text_content())
    assert total == pytest.approx(pic["kinds"][2]["gave_up"], abs=0.005)
    _shot(page, "play-picture.png")


@pytest.mark.slow
def test_the_review_stays_where_the_player_stepped_while_its_verdicts_are_fetched_again(page, table):
    """The review fetches a hand again when its verdicts come; the player may step on meanwhile.

    The first answer is made to say the verdicts are still coming, and the
    fetch again is held until the player has stepped twice: when it
    arrives, the review shows the decision the player is at, not the one
    shown when the fetch was asked (it went back there).
    """
    url, session, advisor = table
    answers, held = [], []

    def review(route):
        if not answers:                                   # the first: "still judging", as when a hand ends
            data = route.fetch().json()
            data["verdicts"] = "waiting"
            answers.append(data)
            route.fulfill(json=data)
        else:
            held.append(route)

    page.route("**/api/review?*", review)
    page.goto(url)
    play_hand_by_clicking(page, session)
    _verdicts_done(advisor, 1)
    page.wait_for_function("(document.getElementById('review-pos').textContent || '').startsWith('decision 1 of')")
    n = len(answers[0]["steps"])
    assert n >= 3
    # the page looks at the state again (as on any step it draws) and sees the verdicts done: it fetches again
    page.evaluate("document.body.setAttribute('data-step', document.body.dataset.step || '')")
    end = time.time() + 30
    while not held:
        assert time.time() < end, "the review did not fetch its hand again"
        page.wait_for_timeout(50)
    page.locator("#review-next").click()
    page.locator("#review-next").click()
    assert page.locator("#review-pos").text_content() == f"decision 3 of {n}"
    page.evaluate("document.getElementById('review-step').append(Object.assign("
                  "document.createElement('span'), {id: 'drawn-before'}))")
    held[0].continue_()
    page.wait_for_function("!document.getElementById('drawn-before')")           # the answer was drawn
    assert page.locator("#review-pos").text_content() == f"decision 3 of {n}"
    assert page.locator("#review-step").get_attribute("data-step") == str(answers[0]["steps"][2]["step"])
