"""The table's web server: the standard library's threading HTTP server, three files and a small JSON API.

Nothing is served but the page's own files (``euchresim/play/static``, by
name from a fixed list) and the session's hand records.  Every refusal is
a 4xx with one line of plain text; an unexpected failure is a 500 with
one line, never a traceback in the page.

    GET  /                   the page (static/index.html)
    GET  /static/NAME        app.js, style.css
    GET  /api/state          the table (play.view.table_view) and the advisor's verdicts
    POST /api/act            {"hand": n, "step": k, "action": code}: the player's action
    POST /api/next           {"hand": n}: deal hand n once the one before it is over
    POST /api/options        {"each_decision": 0 or 1}: a verdict after each decision, or at the hand's end
    GET  /records/hands.jsonl  the session's records (docs/hand-record.md)
"""
from __future__ import annotations

import json
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources

from euchresim.play.table import RECORDS, TableError
from euchresim.play.view import table_view

STATIC = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
          "style.css": "text/css; charset=utf-8"}
MAX_BODY = 4096


class Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def _static(name: str) -> bytes:
    return resources.files("euchresim.play").joinpath("static", name).read_bytes()


class Handler(BaseHTTPRequestHandler):
    server_version = "euchresim-play"
    session = None            # set on the subclass make_server builds
    advisor = None

    def log_message(self, format, *args):     # quiet: the terminal shows the URL and errors only
        pass

    # ---------------------------------------------------------------- answers
    def _send(self, status: int, body: bytes, ctype: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _text(self, status: int, message: str) -> None:
        self._send(status, (message.splitlines()[0] if message else "error").encode() + b"\n",
                   "text/plain; charset=utf-8")

    def _json(self, obj) -> None:
        self._send(200, json.dumps(obj, separators=(",", ":")).encode(), "application/json")

    def _state(self) -> dict:
        s = self.session
        with s.lock:
            view = table_view(s)
        view["advice"] = self.advisor.state() if self.advisor is not None else None
        return view

    def _guarded(self, route) -> None:
        try:
            route()
        except Refused as e:
            self._text(e.status, str(e))
        except TableError as e:
            self._text(e.status, str(e))
        except Exception as e:                  # a bug of the table: one line, the server keeps serving
            self._text(500, f"internal error: {type(e).__name__}: {e}")

    # ---------------------------------------------------------------- routes
    def do_GET(self):
        self._guarded(self._get)

    def do_HEAD(self):
        self._guarded(self._get)

    def do_POST(self):
        self._guarded(self._post)

    def do_PUT(self):
        self._text(405, f"{self.command} is not served here: GET the page, POST /api/act or /api/next")

    do_DELETE = do_PATCH = do_OPTIONS = do_PUT

    def _path(self) -> str:
        return self.path.split("?", 1)[0]

    def _get(self) -> None:
        path = self._path()
        if path in ("/", "/index.html"):
            self._send(200, _static("index.html"), STATIC["index.html"])
        elif path.startswith("/static/") and path[len("/static/"):] in STATIC:
            name = path[len("/static/"):]
            self._send(200, _static(name), STATIC[name])
        elif path == "/api/state":
            self._json(self._state())
        elif path == f"/records/{RECORDS}":
            with self.session.lock:
                with open(self.session.path, "rb") as fh:
                    body = fh.read()
            self._send(200, body, "application/x-ndjson; charset=utf-8")
        elif path.startswith("/api/"):
            posted = ("/api/act", "/api/next", "/api/options")
            raise Refused(405 if path in posted else 404, f"{path}: POST it" if path in posted else f"{path}: no such API")
        else:
            raise Refused(404, f"{path[:200]}: not found (the table serves its page, /api/state and "
                               f"/records/{RECORDS})")

    def _body(self, fields: tuple) -> dict:
        try:
            n = int(self.headers.get("Content-Length", ""))
        except ValueError:
            raise Refused(411, "a JSON body with its Content-Length is needed") from None
        if not 0 < n <= MAX_BODY:
            raise Refused(413 if n > MAX_BODY else 400, f"the body must be 1 to {MAX_BODY} bytes, not {n}")
        raw = self.rfile.read(n)
        try:
            obj = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise Refused(400, "the body is not JSON") from None
        if not isinstance(obj, dict):
            raise Refused(400, "the body must be a JSON object")
        for f in fields:
            v = obj.get(f)
            if isinstance(v, bool) or not isinstance(v, int):
                raise Refused(400, f"{f!r} must be a whole number, not {json.dumps(v)}")
        extra = sorted(set(obj) - set(fields))
        if extra:
            raise Refused(400, f"unknown field {extra[0]!r}: the body takes {', '.join(fields)}")
        return obj

    def _post(self) -> None:
        path = self._path()
        if path == "/api/act":
            b = self._body(("hand", "step", "action"))
            self.session.act(b["hand"], b["step"], b["action"])
        elif path == "/api/next":
            b = self._body(("hand",))
            self.session.next_hand(b["hand"])
        elif path == "/api/options":
            b = self._body(("each_decision",))
            if b["each_decision"] not in (0, 1):
                raise Refused(400, f"'each_decision' is 0 (verdicts at the hand's end) or 1, not {b['each_decision']}")
            if self.advisor is None:
                raise Refused(409, "the advisor is off (--no-advice)")
            with self.session.lock:
                self.session.each_decision = bool(b["each_decision"])
        else:
            raise Refused(404 if not path.startswith(("/static/", "/records/", "/api/state")) and path != "/" else 405,
                          f"{path[:200]}: nothing to POST to here (POST /api/act, /api/next or /api/options)")
        self._json(self._state())


def make_server(session, advisor=None, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """A server bound to ``host:port`` (0: a free port, read it from ``server.server_address``), not yet serving."""
    handler = type("TableHandler", (Handler,), {"session": session, "advisor": advisor})
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server
