"""The table's web server: the standard library's threading HTTP server, three files and a small JSON API.

Nothing is served but the page's own files (``euchresim/play/static``, by
name from a fixed list) and the session's hand records.  Every refusal is
a 4xx with one line of plain text; an unexpected failure is a 500 with
one line, never a traceback in the page.

    GET  /                   the page (static/index.html)
    GET  /static/NAME        app.js, extras.js, style.css
    GET  /api/state          the table (play.page_view.table_view), the advisor's verdicts, the hints, the picture
    GET  /api/review?hand=n  finished hand n at each of the player's decisions (play/review.py)
    POST /api/act            {"hand": n, "step": k, "action": code}: the player's action
    POST /api/next           {"hand": n}: deal hand n once the one before it is over
    POST /api/options        {"each_decision": 0 or 1}: a verdict after each decision, or at the hand's end
    POST /api/hint           {"hand": n, "step": k}: ask the advisor about the decision in front of the player
    GET  /records/hands.jsonl  the session's records (docs/hand-record.md)

A page elsewhere in the player's browser must not act at the table: a
request whose ``Host`` is not the table's own name is refused (a DNS
rebinding attack reaches the table under its own domain name), as is one
whose ``Origin`` is another site's, and a POST whose body is not declared
JSON (the one kind a form of another site cannot send without asking).
"""
from __future__ import annotations

import ipaddress
import json
import socket
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources

from euchresim.play.hints import tally
from euchresim.play.review import picture, review
from euchresim.play.table import RECORDS, SEAT_NAMES, TableError
from euchresim.play.page_view import table_view

STATIC = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
          "extras.js": "text/javascript; charset=utf-8", "style.css": "text/css; charset=utf-8"}
MAX_BODY = 4096
POSTED = ("/api/act", "/api/next", "/api/options", "/api/hint")
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


class Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def _static(name: str) -> bytes:
    return resources.files("euchresim.play").joinpath("static", name).read_bytes()


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only (an address of 127.0.0.0/8 or ::1, or ``localhost``)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name.strip("[]"))
        return True
    except ValueError:
        return False


def split_host(value: str) -> tuple[str, int | None]:
    """A Host header's name and port (None if it gives none, -1 if the port is not a number)."""
    value = value.strip().lower()
    if value.startswith("["):
        name, _, rest = value[1:].partition("]")
        port = rest[1:] if rest.startswith(":") else None
    else:
        name, colon, port = value.rpartition(":")
        if not colon:
            name, port = value, None
    if port is None:
        return name, None
    return name, int(port) if port.isdigit() else -1


class Handler(BaseHTTPRequestHandler):
    server_version = "euchresim-play"
    session = None            # set on the subclass make_server builds
    advisor = None
    port = 0                  # the port served, and the names the table answers to (make_server)
    names = frozenset(LOOPBACK_NAMES)
    any_ip = False            # served beyond this machine (--allow-remote): any address literal is a name

    def log_message(self, format, *args):     # quiet: the terminal shows the URL and errors only
        pass

    # ---------------------------------------------------------------- answers
    def _send(self, status: int, body: bytes, ctype: str, headers: dict | None = None) -> None:
        self.send_response(status)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _text(self, status: int, message: str, headers: dict | None = None) -> None:
        self._send(status, (message.splitlines()[0] if message else "error").encode() + b"\n",
                   "text/plain; charset=utf-8", headers)

    def send_error(self, code, message=None, explain=None):
        """The standard library's own refusals (a malformed request line, headers too long): one line too."""
        self.close_connection = True
        self._text(code, message or self.responses.get(code, ("refused",))[0])

    def _json(self, obj) -> None:
        self._send(200, json.dumps(obj, separators=(",", ":")).encode(), "application/json")

    def _state(self) -> dict:
        s = self.session
        hints = getattr(s, "hints", None)
        with s.lock:
            view = table_view(s)
        advice = tally(self.advisor.state(), hints) if self.advisor is not None else None
        view["advice"] = advice
        # the current hand's hints (the page shows the one for the decision in front of the player)
        view["hints"] = hints.of_hand(len(s.finished) - (1 if view["done"] else 0)) if hints is not None else []
        view["hints_pending"] = hints.pending() if hints is not None else 0
        view["picture"] = picture(advice)
        return view

    def _review(self) -> dict:
        """GET /api/review?hand=N: a finished hand at each of the player's decisions."""
        from urllib.parse import parse_qs
        query = parse_qs(self.path.split("?", 1)[1] if "?" in self.path else "", keep_blank_values=True)
        extra = sorted(set(query) - {"hand"})
        if extra:
            raise Refused(400, f"unknown parameter {extra[0][:40]!r}: /api/review takes hand")
        given = query.get("hand", [""])
        if len(given) != 1 or not given[0].isdigit():
            raise Refused(400, f"'hand' must be a whole number, as in /api/review?hand=0, not {given[-1][:40]!r}")
        n = int(given[0])
        s = self.session
        with s.lock:
            played = len(s.finished)
            obj = s.finished[n] if n < played else None
            seats = list(getattr(s, "seat_names", SEAT_NAMES))
        if obj is None:
            if n == played:
                raise Refused(409, f"hand {n} is still being played: it is reviewed once it ends")
            raise Refused(404, f"hand {n} was not played: the session has hands 0 to {played - 1}"
                          if played else f"hand {n} was not played: no hand has ended yet")
        advice = tally(self.advisor.state(), getattr(s, "hints", None)) if self.advisor is not None else None
        verdicts = None if advice is None else advice["hands"].get(str(n), {"status": "waiting", "rows": []})
        hints = s.hints.of_hand(n) if getattr(s, "hints", None) is not None else list(obj.get("hints") or [])
        out = review(obj, seats, verdicts, hints)
        out["hand"] = n
        return out

    def _guarded(self, route) -> None:
        try:
            self._check_caller()
            route()
        except Refused as e:
            self._text(e.status, str(e), {"Allow": self._allow()} if e.status == 405 else None)
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

    def __getattr__(self, name: str):
        """Any other method (PUT, DELETE, TRACE, CONNECT, made-up ones): a 405, where the standard library
        answers an HTML page with 501."""
        if name.startswith("do_"):
            return self._not_allowed
        raise AttributeError(name)

    def _not_allowed(self) -> None:
        self._guarded(self._refuse_method)

    def _refuse_method(self) -> None:
        raise Refused(405, f"{self.command[:20]} is not served here: GET the page, POST /api/act or /api/next")

    def _path(self) -> str:
        return self.path.split("?", 1)[0]

    def _allow(self) -> str:
        """The methods the path takes, for a 405's Allow header."""
        return "POST" if self._path() in POSTED else "GET, HEAD"

    def _check_caller(self) -> None:
        """Refuse a request made for another site: a Host not the table's, an Origin not the table's own."""
        host = self.headers.get("Host")
        if host is None:
            raise Refused(403, "a request needs a Host header naming the table")
        name, port = split_host(host)
        known = name in self.names or (_ip(name) and (self.any_ip or is_loopback(name)))
        if not known or (port if port is not None else 80) != self.port:
            raise Refused(403, f"Host {host[:100]} is not this table's (it answers to 127.0.0.1:{self.port} "
                               f"or localhost:{self.port})")
        origin = self.headers.get("Origin")
        if origin is not None and origin.strip().lower() != f"http://{host.strip().lower()}":
            raise Refused(403, f"Origin {origin[:100]}: only the table's own page may act at it")

    def _get(self) -> None:
        path = self._path()
        if path in ("/", "/index.html"):
            self._send(200, _static("index.html"), STATIC["index.html"])
        elif path.startswith("/static/") and path[len("/static/"):] in STATIC:
            name = path[len("/static/"):]
            self._send(200, _static(name), STATIC[name])
        elif path == "/api/state":
            self._json(self._state())
        elif path == "/api/review":
            self._json(self._review())
        elif path == f"/records/{RECORDS}":
            with self.session.lock:
                with open(self.session.path, "rb") as fh:
                    body = fh.read()
            self._send(200, body, "application/x-ndjson; charset=utf-8")
        elif path.startswith("/api/"):
            raise Refused(405 if path in POSTED else 404, f"{path}: POST it" if path in POSTED else f"{path}: no such API")
        else:
            raise Refused(404, f"{path[:200]}: not found (the table serves its page, /api/state, /api/review and "
                               f"/records/{RECORDS})")

    def _body(self, fields: tuple) -> dict:
        ctype = self.headers.get("Content-Type", "")
        if ctype.split(";", 1)[0].strip().lower() != "application/json":
            raise Refused(415, f"the body must be sent as Content-Type: application/json, not {ctype[:60] or 'none'}")
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
        except RecursionError:                  # brackets nested a thousand deep: well under MAX_BODY
            raise Refused(400, "the body is JSON nested too deep") from None
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
        elif path == "/api/hint":
            b = self._body(("hand", "step"))
            hints = getattr(self.session, "hints", None)
            if hints is None:
                raise Refused(409, "the advisor is off (--no-advice): there is no one to ask")
            hints.ask(b["hand"], b["step"])
        elif path == "/api/options":
            b = self._body(("each_decision",))
            if b["each_decision"] not in (0, 1):
                raise Refused(400, f"'each_decision' is 0 (verdicts at the hand's end) or 1, not {b['each_decision']}")
            if self.advisor is None:
                raise Refused(409, "the advisor is off (--no-advice)")
            with self.session.lock:
                self.session.each_decision = bool(b["each_decision"])
        else:
            raise Refused(404 if not path.startswith(("/static/", "/records/", "/api/state", "/api/review")) and path != "/" else 405,
                          f"{path[:200]}: nothing to POST to here (POST /api/act, /api/next, /api/options or /api/hint)")
        self._json(self._state())


def make_server(session, advisor=None, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """A server bound to ``host:port`` (0: a free port, read it from ``server.server_address``), not yet serving.

    ``session`` and ``advisor`` may be set later (``serve``): the port is
    bound first, so a busy one is refused before the session writes anything.
    The table answers to its loopback names and ``host``; bound beyond this
    machine, to any address and to the machine's own names too.
    """
    handler = type("TableHandler", (Handler,), {"session": session, "advisor": advisor})
    cls = ThreadingHTTPServer
    if ":" in host:
        cls = type("ThreadingHTTPServer6", (ThreadingHTTPServer,), {"address_family": socket.AF_INET6})
    server = cls((host.strip("[]"), port), handler)
    server.daemon_threads = True
    handler.port = server.server_address[1]
    names = set(LOOPBACK_NAMES) | {host.strip("[]").lower()}
    handler.any_ip = not is_loopback(host)
    if handler.any_ip:
        names |= {socket.gethostname().lower(), socket.getfqdn().lower()}
    handler.names = frozenset(names)
    return server


def serve(server, session, advisor=None) -> None:
    """Seat the session (and its advisor) at a server ``make_server`` bound without one."""
    server.RequestHandlerClass.session = session
    server.RequestHandlerClass.advisor = advisor
