"""The practice table in a real browser (issue 33, "Tested in a real browser"): a resume at a score, an upcard
discard judged, the refusals of another site's page.

Headless Chromium as in tests/test_play_browser.py (its fixtures and
helpers, which say why the system's Chromium and why these fail rather
than skip without it):

* a game played by clicks to a score that is not 0-0, the table stopped
  and started again with ``resume=True`` on the same folder: the page
  shows the score, the game and the dealer the session had before the
  stop, and the next hand's record goes on from that score;
* the player deals, picks up and discards the upcard itself (R5: the
  page offers it); the advisor judges that discard as any other;
* a page of another origin posts to /api/act (a JSON fetch, a no-cors
  text/plain fetch, a text/plain form) and a page reached under another
  name (DNS rebinding: its own origin, so CORS does not stop it): each is
  refused and the hand does not move, while the very same body from the
  table's own page is played.
"""
import json
import re
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from euchresim.play import open_table
from euchresim.play.page_view import table_view
from euchresim.play.words import say_cards
from euchresim.rules import Rules
from tests.test_play_browser import (ARGS, CHROMIUM, SAMPLES, SEED, _click_and_wait, browser,  # noqa: F401
                                     open_page, play_hand_by_clicking)
from tests.test_play_browser_extras import ADVISOR
from tests.helpers import serve

RESUME_SEED = 0    # first legal clicks: 2-0 after hand 1, 2-1 after hand 2 (the score before hand 2 is not 0-0)
DISCARD_SEED = 1   # the player deals hand 0; picking up the K♣, the upcard is among the cards to discard
STATE = "() => fetch('/api/state').then(r => r.json())"


class Table:
    """A table served in a thread, stopped as the fixtures of test_play_browser stop theirs."""

    def __init__(self, folder, seed, resume=False, advise=False, port=0):
        self.server, self.session, self.advisor = open_table(Rules(), "heuristic", seed, folder, resume=resume,
                                                             advise=advise, samples=SAMPLES, port=port)
        self.url = serve(self.server) + "/"
        self.port = self.server.server_address[1]

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self.session.close()
        if self.advisor is not None:
            self.advisor.stop()


@pytest.fixture
def tables():
    made = []
    yield lambda *a, **k: made.append(Table(*a, **k)) or made[-1]
    for t in made:
        if t.server.socket.fileno() != -1:
            t.stop()


DEALER = """() => [...document.querySelectorAll('.seat')].filter(s => !s.hidden &&
  [...s.querySelectorAll('.name .tag')].some(t => t.textContent === 'dealer')).map(s => +s.id.split('-')[1])"""


def _drawn(page) -> dict:
    """The game's standing as the page draws it: the score line's numbers, the game's and the hand's number, the
    seat tagged dealer."""
    score = page.locator("#score").text_content()
    about = page.locator("#about").text_content()
    game, hand = re.match(r"game (\d+), hand (\d+);", about).groups()
    return {"score_text": score, "score": [int(x) for x in re.findall(r" (\d+)(?:,| \(game to)", score)],
            "game": int(game) - 1, "hand": int(hand) - 1, "dealer": page.evaluate(DEALER)}


def _records(session):
    return [json.loads(line) for line in open(session.path).read().splitlines()]


@pytest.mark.slow
def test_a_game_resumed_at_a_score_shows_it_and_the_next_hand_goes_on_from_it(browser, tables, tmp_path):
    folder = str(tmp_path / "s")
    t = tables(folder, RESUME_SEED)
    for pg in open_page(browser, pace="instant"):
        pg.goto(t.url)
        # hands by clicks until the score is not 0-0, and was not 0-0 before the last hand either (so a resume
        # that kept only the last hand's points would be seen)
        for _ in range(6):
            before = list(t.session.score)
            play_hand_by_clicking(pg, t.session)
            if any(before) and t.session.game_over is None:
                break
            _click_and_wait(pg, pg.locator("#next"))
        assert any(before), "the seed gave no score within the hands played"
        pg.wait_for_function(f"document.getElementById('score').textContent.includes(' {t.session.score[1]} (')")
        shown = _drawn(pg)
    s = t.session
    score, game, dealer, hands = list(s.score), s.game, s.dealer, len(s.finished)
    assert shown["score"] == score and shown["game"] == game and score != [0, 0]
    t.stop()

    t = tables(folder, RESUME_SEED, resume=True)
    assert t.session.score == score and t.session.game == game and t.session.dealer == dealer
    for pg in open_page(browser, pace="instant"):
        pg.goto(t.url)
        pg.wait_for_selector("#calls button, #hand button.card")
        again = _drawn(pg)
        # what the page draws after the restart: the score, the game, the dealer of before the stop; the hand after
        assert again["score_text"] == shown["score_text"]
        assert again["score"] == score and again["game"] == game
        assert again["dealer"] == [dealer] and again["hand"] == hands
        view = pg.evaluate(STATE)
        assert view["score"] == score and view["dealer"] == dealer and view["hands_played"] == hands
        # the next hand, played by clicks, is recorded from the running total
        play_hand_by_clicking(pg, t.session)
        lines = _records(t.session)
        assert len(lines) == hands + 1
        last, prev = lines[-1], lines[-2]
        assert last["game"] == prev["game"] == game
        assert last["score"] == [a + b for a, b in zip(prev["score"], prev["points"])]
        assert [last["score"][p] for p in (0, 1)] == score
        assert t.session.score == [score[p] + last["points"][p] for p in (0, 1)]
        pg.wait_for_function(f"document.getElementById('score').textContent.includes(' {t.session.score[1]} (')")
        assert _drawn(pg)["score"] == t.session.score


@pytest.mark.slow
def test_the_dealer_discards_the_upcard_itself_and_the_advisor_judges_it(browser, tables, tmp_path):
    t = tables(str(tmp_path / "d"), DISCARD_SEED, advise=True)
    assert t.session.dealer == 0
    upcard = table_view(t.session)["upcard"]
    discarded = None
    for pg in open_page(browser, pace="instant"):
        pg.goto(t.url)
        pg.wait_for_selector("#calls button, #hand button.card")
        while pg.locator("#next").is_hidden():
            phase = pg.evaluate("document.body.dataset.phase")
            if phase == "bid1":
                button = pg.locator("#calls button[data-code='1']")
                assert button.text_content() == "pick up"
            elif phase == "alone":
                button = pg.locator("#calls button[data-code='0']")        # with partner
            elif phase == "discard":
                assert pg.locator("#prompt").text_content() == "you picked up the upcard: discard a card"
                button = pg.locator(f"#hand button.card[data-card='{upcard}']")
                assert button.count() == 1 and "legal" in button.get_attribute("class").split()    # R5: offered
                discarded = t.session.step
            else:
                button = pg.locator("#hand button.card.legal, #calls button.legal").first
            _click_and_wait(pg, button)
        assert discarded is not None, "the player never came to discard"
        obj = _records(t.session)[0]
        assert obj["dealer"] == 0 and obj["upcard"] == upcard == obj["discard"] and obj["maker"] is not None
        end = time.time() + ADVISOR / 1000                   # judged or failed: either ends the wait
        while t.advisor.state()["hands"].get("0", {}).get("status") not in ("done", "failed"):
            assert time.time() < end, "the advisor did not judge the hand in time"
            time.sleep(0.2)
        advice = pg.evaluate(STATE)["advice"]["hands"]["0"]
        assert (advice["status"], advice["error"]) == ("done", None)       # judged, not "the advisor failed"
        rows = [r for r in advice["rows"] if r["kind"] == "discard"]
        assert len(rows) == 1 and rows[0]["step"] == discarded and rows[0]["did"] == upcard
        assert rows[0]["samples"] > 0 and rows[0]["gave_up_low"] <= rows[0]["gave_up"] <= rows[0]["gave_up_high"]
        row = pg.locator(f"#verdicts .hand-verdicts[data-hand='0'] .verdict[data-step='{discarded}']")
        row.wait_for(timeout=30_000)
        assert say_cards(upcard) in row.text_content() and rows[0]["text"] in row.text_content()
        assert pg.locator("#verdicts .hand-verdicts[data-hand='0'] .failed").count() == 0
        assert "failed" not in pg.locator("#verdicts .hand-verdicts[data-hand='0']").text_content()


OTHER = """<!doctype html><title>another site</title>
<form id="form" method="POST" enctype="text/plain" action="{act}"><input name='{head}' value='{tail}'></form>
<script>
const ACT = "{act}", BODY = {body};
async function jsonFetch() {{          // needs a preflight: the table must not allow it
  try {{
    const r = await fetch(ACT, {{ method: "POST", headers: {{ "Content-Type": "application/json" }},
                                 body: JSON.stringify(BODY) }});
    return "answered " + r.status;
  }} catch (e) {{ return "blocked: " + e.name; }}
}}
async function plainFetch() {{         // a simple request: sent without asking, its answer opaque
  try {{
    const r = await fetch(ACT, {{ method: "POST", mode: "no-cors", headers: {{ "Content-Type": "text/plain" }},
                                 body: JSON.stringify(BODY) }});
    return "opaque " + r.type;
  }} catch (e) {{ return "blocked: " + e.name; }}
}}
</script>"""


POST_JSON = ("body => fetch('/api/act', { method: 'POST', headers: { 'Content-Type': 'application/json' }, "
             "body: JSON.stringify(body) })")        # from the page's own origin, whatever that is


def _other_site(html: str):
    class H(BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_GET(self):
            body = html.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
    server = ThreadingHTTPServer(("127.0.0.1", 0), H)
    serve(server)
    return server


@pytest.mark.slow
def test_another_sites_page_cannot_act_at_the_table(browser, tables, tmp_path):
    t = tables(str(tmp_path / "r"), SEED)
    s = t.session
    step = s.step
    code = next(o["code"] for o in table_view(s)["options"] if o["legal"])
    body = {"hand": 0, "step": step, "action": code}          # a body the table takes from its own page
    act = t.url + "api/act"
    text = json.dumps(body)
    head, tail = text[:-1] + ', "x": "', '"}'                  # a text/plain form's "name=value" is this JSON
    other = _other_site(OTHER.format(act=act, body=text, head=head, tail=tail))
    try:
        ctx = browser.new_context()
        pg = ctx.new_page()
        statuses = []
        pg.on("response", lambda r: statuses.append((r.request.method, r.url, r.status)) if r.url == act else None)
        pg.goto(f"http://127.0.0.1:{other.server_address[1]}/")
        assert pg.evaluate("jsonFetch()") == "blocked: TypeError"        # the preflight is refused
        assert s.step == step and not s.finished
        assert pg.evaluate("plainFetch()") == "opaque opaque"            # sent, and refused on arrival
        assert s.step == step
        with pg.expect_navigation() as nav:                              # the form: the page becomes the answer
            pg.locator("#form").evaluate("f => f.submit()")
        assert nav.value.status == 403
        assert pg.locator("body").text_content().strip() == (
            f"Origin http://127.0.0.1:{other.server_address[1]}: only the table's own page may act at it")
        assert s.step == step and not s.finished
        # the JSON fetch never posted (its preflight refused); the no-cors fetch and the form were answered 403
        assert statuses == [("POST", act, 403)] * 2, statuses
        ctx.close()
    finally:
        other.shutdown()
        other.server_close()

    # DNS rebinding: a name of the attacker's resolving to this machine; the page is then of the table's own
    # origin by the browser's rules, so only the Host check stands in the way
    b = browser.browser_type.launch(executable_path=CHROMIUM, headless=True,
                                    args=ARGS + ["--host-resolver-rules=MAP rebind.test 127.0.0.1"])
    try:
        pg = b.new_page()
        first = pg.goto(f"http://rebind.test:{t.port}/")
        assert first.status == 403 and "is not this table's" in pg.locator("body").text_content()
        answer = pg.evaluate(POST_JSON + ".then(async r => [r.status, await r.text()])", body)
        assert answer[0] == 403 and answer[1].startswith(f"Host rebind.test:{t.port} is not this table's")
    finally:
        b.close()
    assert s.step == step and not s.finished

    # the very same body from the table's own page is played: the refusals were for who sent it
    for pg in open_page(browser, pace="instant"):
        pg.goto(t.url)
        pg.wait_for_selector("#calls button, #hand button.card")
        status = pg.evaluate(POST_JSON + ".then(r => r.status)", body)
        assert status == 200 and s.step > step
