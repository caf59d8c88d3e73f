"""The practice table as a web server stands alone: what it refuses, whom it serves, how it starts and stops.

Every refusal is a 4xx with one line (the standard library's own 501
pages and a JSON parser's RecursionError included); a page of another
site in the player's browser cannot act at the table (Host, Origin,
Content-Type); ``--host`` beyond this machine needs ``--allow-remote``; a
start that fails writes nothing; a cold start says it compiles; and
Ctrl-C, SIGTERM or SIGKILL of the table leaves no advisor worker behind.
"""
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

from euchresim.play import open_table
from euchresim.play.table import Session, TableError
from euchresim.rules import Rules
from tests.helpers import child_pids, hears_ctrl_c, one_error_line, run
from tests.test_lifeline import wait_gone
from tests.test_play_server import _cli, call, table  # noqa: F401  (the fixture)

def raw(base, method, path, body=None, headers=None):
    """(status, headers, body text) of one request with exactly the headers given (Host included)."""
    host, port = base[len("http://"):].rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=60)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        if body is not None:
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders(body)
        r = conn.getresponse()
        return r.status, r.headers, r.read().decode()
    finally:
        conn.close()


def own(base, **extra):
    """The headers the table's own page sends with a POST."""
    return {"Host": base[len("http://"):], "Content-Type": "application/json", **extra}


def one_line(text):
    return text.count("\n") == 1 and text.strip() and "Traceback" not in text and "<" not in text


# ------------------------------------------------------------------ every refusal is a 4xx with one line

def test_json_nested_deeper_than_the_parser_goes_is_a_400_not_a_500(table):
    base, _ = table
    for body in (b"[" * 4000, b'{"":[' * 800):
        assert len(body) <= 4096
        status, _, text = raw(base, "POST", "/api/act", body, own(base))
        assert status == 400 and "nested too deep" in text and one_line(text), (status, text)
    assert call(base, "/api/state")[0] == 200


@pytest.mark.parametrize("method", ["TRACE", "CONNECT", "FROB", "PUT", "DELETE", "PATCH", "OPTIONS"])
@pytest.mark.parametrize("path,allow", [("/", "GET, HEAD"), ("/api/act", "POST"), ("/api/state", "GET, HEAD")])
def test_any_other_method_is_a_405_with_allow_not_a_501_page(table, method, path, allow):
    base, _ = table
    status, headers, text = raw(base, method, path, None, {"Host": base[len("http://"):]})
    assert status == 405 and headers["Allow"] == allow, (status, text)
    assert headers["Content-Type"].startswith("text/plain") and one_line(text) and "not served here" in text


@pytest.mark.parametrize("method,path,allow", [("GET", "/api/act", "POST"), ("GET", "/api/next", "POST"),
                                               ("GET", "/api/options", "POST"), ("POST", "/api/state", "GET, HEAD"),
                                               ("POST", "/", "GET, HEAD")])
def test_every_405_says_what_the_path_takes(table, method, path, allow):
    base, _ = table
    status, headers, text = raw(base, method, path, b"{}" if method == "POST" else None, own(base))
    assert status == 405 and headers["Allow"] == allow and one_line(text), (status, text)


def test_a_malformed_request_line_is_one_line_too(table):
    base, _ = table
    host, port = base[len("http://"):].rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=60) as s:
        many = b"".join(b"X-%d: 1\r\n" % i for i in range(200))         # more headers than it reads
        s.sendall(b"GET / HTTP/1.1\r\nHost: " + base[len("http://"):].encode() + b"\r\n" + many + b"\r\n")
        answer = b""
        while chunk := s.recv(4096):
            answer += chunk
    head, _, body = answer.decode().partition("\r\n\r\n")
    assert head.split()[1] == "431" and body.count("\n") == 1 and "<" not in body, answer


# ------------------------------------------------------------------ another site cannot act at the table

@pytest.mark.parametrize("ctype", [None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"])
def test_a_post_not_declared_json_is_refused_415(table, ctype):
    base, session = table
    _, _, state = call(base, "/api/state")
    body = json.dumps({"hand": state["hand"], "step": state["step"], "action": 0}).encode()
    headers = {"Host": base[len("http://"):]} | ({"Content-Type": ctype} if ctype else {})
    status, _, text = raw(base, "POST", "/api/act", body, headers)
    assert status == 415 and "application/json" in text and one_line(text), (status, text)
    assert call(base, "/api/state")[2]["step"] == state["step"]            # nothing was played


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "https://127.0.0.1", "http://127.0.0.1:1"])
def test_a_post_from_another_origin_is_refused_403(table, origin):
    base, _ = table
    _, _, state = call(base, "/api/state")
    body = json.dumps({"hand": state["hand"], "step": state["step"], "action": 0}).encode()
    status, _, text = raw(base, "POST", "/api/act", body, own(base, Origin=origin))
    assert status == 403 and "Origin" in text and one_line(text), (status, text)
    assert call(base, "/api/state")[2]["step"] == state["step"]


def test_the_tables_own_origin_and_names_are_served(table):
    base, _ = table
    port = base.rsplit(":", 1)[1]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LOCALHOST:{port}"):
        status, _, _ = raw(base, "GET", "/api/state", None, {"Host": host})
        assert status == 200, host
    status, _, text = raw(base, "POST", "/api/options", b'{"each_decision": 0}',
                          own(base, Origin=base))
    assert status == 409 and "advisor is off" in text     # past the checks: refused by the route itself


@pytest.mark.parametrize("host", ["evil.example:{port}", "evil.example", "127.0.0.1:1", "localhost",
                                  "192.168.1.5:{port}", "localhost.evil.example:{port}", None])
def test_a_request_for_another_host_is_refused_dns_rebinding(table, host):
    base, _ = table
    port = base.rsplit(":", 1)[1]
    headers = {} if host is None else {"Host": host.format(port=port)}
    status, _, text = raw(base, "GET", "/api/state", None, headers)
    assert status == 403 and "Host" in text and one_line(text), (status, text)
    status, _, text = raw(base, "GET", "/", None, headers)
    assert status == 403


def test_host_beyond_this_machine_needs_allow_remote_and_warns(tmp_path):
    folder = tmp_path / "s"
    r = run(["play", "--no-browser", "--port", "0", "--stop-after", "0", "--session", str(folder),
             "--host", "0.0.0.0", "--no-advice"])
    assert "--allow-remote" in one_error_line(r) and not folder.exists()
    r = run(["play", "--no-browser", "--port", "0", "--stop-after", "0", "--session", str(folder),
             "--host", "0.0.0.0", "--allow-remote", "--no-advice"])
    assert r.exit_code == 0, r.output
    assert "warning: --allow-remote" in r.stderr and "the table is at http://0.0.0.0:" in r.stdout
    for host in ("127.0.0.1", "localhost", "127.0.0.2"):
        r = run(["play", "--no-browser", "--port", "0", "--stop-after", "0", "--session", str(tmp_path / host),
                 "--host", host, "--no-advice"])
        assert r.exit_code == 0 and "warning" not in r.output, r.output


# ------------------------------------------------------------------ a failed start writes nothing

def test_a_busy_port_writes_no_session_and_the_same_command_works_later(tmp_path):
    folder = tmp_path / "s"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        args = ["play", "--no-browser", "--port", str(port), "--stop-after", "0", "--session", str(folder),
                "--no-advice"]
        assert "cannot serve there" in one_error_line(run(args))
        assert not folder.exists()
        with pytest.raises(OSError):
            open_table(Rules(), "heuristic", 1, str(folder), advise=False, port=port)
        assert not folder.exists()
    r = run(args)
    assert r.exit_code == 0 and "the table is at" in r.output, r.output


def test_a_resume_of_no_session_writes_no_folder(tmp_path):
    folder = tmp_path / "typo"
    line = one_error_line(run(["play", "--no-browser", "--port", "0", "--stop-after", "0", "--session",
                               str(folder), "--resume", "--no-advice"]))
    assert "no session in" in line and not folder.exists()
    with pytest.raises(TableError, match="no session in"):
        open_table(Rules(), "heuristic", 1, str(folder), resume=True, advise=False)
    assert not folder.exists()
    kept = tmp_path / "mine"                      # a folder that was there before is left as it was
    kept.mkdir()
    (kept / "notes.txt").write_text("x")
    with pytest.raises(TableError):
        open_table(Rules(), "heuristic", 1, str(kept), resume=True, advise=False)
    assert os.listdir(kept) == ["notes.txt"]


@pytest.mark.parametrize("text", ["{not json", '{"bot": "heuristic"}', '{"rules": {"players": 7, "deck": 24}}'])
def test_a_resume_of_an_unreadable_session_is_one_line_naming_the_file(tmp_path, text):
    """session.json broken, missing its rules, or with rules no game has: one line naming it, nothing written."""
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "session.json").write_text(text)
    line = one_error_line(run(["play", "--no-browser", "--port", "0", "--stop-after", "0", "--session",
                               str(folder), "--resume", "--no-advice"]))
    assert f"--resume: {folder / 'session.json'}: cannot read the session (" in line, line
    assert os.listdir(folder) == ["session.json"] and (folder / "session.json").read_text() == text
    with pytest.raises(TableError, match="cannot read the session"):
        Session.kept(str(folder))


def test_a_resume_takes_the_sessions_own_rules_bot_and_seed(tmp_path):
    """What session.json kept is what --resume plays with, unless the command line says otherwise."""
    folder = str(tmp_path / "s")
    Session(Rules(players=3, deck=32), "heuristic:human", 7, folder).close()
    rules, bot, seed = Session.kept(folder)
    assert (rules, seed) == (Rules(players=3, deck=32), 7) and bot == Session.check(
        Rules(players=3), "heuristic:human", folder, True).names[0]
    assert Session.kept(str(tmp_path / "none")) is None
    r = run(["play", "--no-browser", "--port", "0", "--stop-after", "0", "--session", folder, "--resume",
             "--no-advice"])
    assert r.exit_code == 0, r.output                     # no rule, bot or seed given: the kept ones, no refusal


# ------------------------------------------------------------------ a cold start says it compiles

def test_a_cold_start_says_it_is_compiling_and_a_warm_one_does_not(tmp_path, monkeypatch):
    from euchresim.cli import play as cli_play
    from euchresim.cli.options import COMPILING
    args = ["play", "--no-browser", "--port", "0", "--stop-after", "0", "--no-advice"]
    monkeypatch.setattr(cli_play, "_table_compiled", lambda: False)
    r = run(args + ["--session", str(tmp_path / "cold")])
    assert r.exit_code == 0 and COMPILING in r.stderr, r.output
    assert r.output.index(COMPILING) < r.output.index("the table is at")    # said before the wait, not after
    monkeypatch.setattr(cli_play, "_table_compiled", lambda: True)
    r = run(args + ["--session", str(tmp_path / "warm")])
    assert r.exit_code == 0 and "compil" not in r.output, r.output
    # the advisor's own kernels compile in its worker, started as the table opens: said too, when they will
    monkeypatch.setattr(cli_play, "_advisor_compiled", lambda: False)
    r = run(args[:-1] + ["--session", str(tmp_path / "advice")])
    assert r.exit_code == 0 and "the advisor compiles its kernels" in r.stderr, r.output
    r = run(args + ["--session", str(tmp_path / "no-advice")])
    assert r.exit_code == 0 and "compil" not in r.output, r.output


def test_the_compile_checks_read_the_cache_the_kernels_are_in():
    """Dealing a hand compiles (or loads) the table's kernels, so after one the check says they are there."""
    from euchresim.cli import play as cli_play
    from euchresim.play.table import Session
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        Session(Rules(), "heuristic", 1, os.path.join(d, "s")).close()
    assert cli_play._table_compiled()


# ------------------------------------------------------------------ stopping leaves no worker behind

def _own_group():
    hears_ctrl_c()
    os.setpgrp()            # a terminal's Ctrl-C reaches the whole group: the test sends it so


@pytest.fixture
def started_table(tmp_path):
    """``play`` in a process group of its own, its advisor's worker at work: (process, base URL, its children).

    Whatever the test's end, nothing of the group is left running."""
    p = subprocess.Popen([sys.executable, "-m", "euchresim.cli", "play", "--no-browser", "--port", "0",
                          "--session", str(tmp_path / "s")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, preexec_fn=_own_group)
    try:
        line = p.stdout.readline()
        assert line.startswith("the table is at http://127.0.0.1:"), (line, p.stderr.read() if p.poll() else "")
        deadline = time.monotonic() + 300
        # the advisor's worker starts as the table opens (its warm-up); its watchdog thread says it is at work
        while not any("spawn_main" in _cmdline(k) and _threads(k) >= 2 for k in child_pids(p.pid)):
            assert p.poll() is None and time.monotonic() < deadline, p.stderr.read()
            time.sleep(0.05)
        yield p, line.split()[4].rstrip("/"), child_pids(p.pid)
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        p.wait(timeout=60)
        p.stdout.close()
        p.stderr.close()


def _threads(pid):
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except FileNotFoundError:
        return 0


def _ignores_sigint(pid):
    with open(f"/proc/{pid}/status") as fh:
        ignored = next(int(line.split()[1], 16) for line in fh if line.startswith("SigIgn:"))
    return bool(ignored >> (signal.SIGINT - 1) & 1)


def _cmdline(pid):
    try:
        with open(f"/proc/{pid}/cmdline") as fh:
            return fh.read()
    except FileNotFoundError:
        return ""


needs_proc = pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="finds the workers through /proc")


@pytest.mark.slow
@needs_proc
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_a_stopped_table_says_one_line_and_its_advisor_worker_goes(started_table, how):
    p, base, workers = started_table
    assert call(base, "/api/state")[0] == 200
    if how == "ctrl-c":
        # the worker hears the terminal's Ctrl-C too: it must ignore it (the parent stops it) or print a traceback
        # of its own, in a race with the parent's kill; so its disposition is read, not raced
        assert all(_ignores_sigint(w) for w in workers if "spawn_main" in _cmdline(w))
        os.killpg(p.pid, signal.SIGINT)
    else:
        p.send_signal(signal.SIGTERM)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0 and "stopped after 0 hands;" in out, (out, err)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert all(line == "" or "compil" in line for line in err.splitlines()), err
    wait_gone(workers)


@pytest.mark.slow
@needs_proc
def test_a_table_killed_with_sigkill_leaves_no_advisor_worker(started_table):
    p, _, workers = started_table
    p.kill()
    p.wait(timeout=60)
    wait_gone(workers)


@pytest.mark.slow
@pytest.mark.parametrize("players", ["2", "3"])
def test_the_command_seats_2_and_3_players(tmp_path, players):
    """The page draws the 2-hand and Cutthroat tables (tests/test_play_browser_variants.py), so the command
    opens them: a start deals the first hand and keeps the rules for a resume."""
    folder = str(tmp_path / "s")
    out = _cli("play", "--no-browser", "--port", "0", "--stop-after", "0", "--no-advice", "--players", players,
               "--session", folder)
    assert out.returncode == 0 and "the table is at http://127.0.0.1:" in out.stdout, out.stderr
    assert json.load(open(os.path.join(folder, "session.json")))["rules"]["players"] == int(players)


def test_an_advise_policy_given_by_name_is_read_at_the_table_and_a_bad_one_refused_before_anything_is_written(
        tmp_path):
    """``open_table(advise_policy=NAME)`` without the caller's read: the table reads the name (the advisor is
    handed a ``Seats``, never a name it would fail on in its worker); a name it cannot read is one line naming
    the option, and no session folder is left."""
    from euchresim.play import open_table
    from euchresim.rules import Rules
    folder = tmp_path / "s"
    with pytest.raises(TableError, match=r"^--advise-policy: .*nonesuch"):
        open_table(Rules(), "heuristic", 1, str(folder), advise_policy="nonesuch")
    assert not folder.exists()
    from euchresim.play.table import read_bot
    assert read_bot(Rules(players=3), "heuristic").names == ["heuristic"] * 3


def test_a_plain_python_bot_is_refused_at_the_table_as_it_declares_itself_not_by_its_name(tmp_path):
    """A ``@bot`` (plain Python, no ':python' in its name) cannot sit at the table any more than a ':python' one:
    the table asks the policy read, not the spelling of its name."""
    from euchresim.rules import Rules
    for name in ("tests.decision_bots:all_baseline", "euchresim.examples.low_leads:low_leads:python"):
        with pytest.raises(TableError, match="cannot sit at the table"):
            Session.check(Rules(), name, str(tmp_path / "s"), False)
    assert Session.check(Rules(), "euchresim.examples.low_leads:low_leads", str(tmp_path / "s"), False)
