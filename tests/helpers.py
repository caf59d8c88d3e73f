"""Helpers shared by the tests: no test lives here.

- ``fast_and_full``: a test's size, small in the fast tier and full in the slow one;
- ``run_spec``, ``duel_spec`` and ``report_context``: a run's, a duel's and a report's spec from policy names (read here, the edge);
- ``rows_of``: one chunk played through the runner, ``record_lines`` its hand records; ``VARIANTS``: every
  (players, deck); ``write_lines``: a JSON-lines file;
- slow, obvious twins of the card tables (R1, R2, R10) and of the legal-action kernel;
- ``run`` and ``one_error_line``: the command line through ``main()``, as a user sees it; ``run_ok`` and
  ``report`` for a command that must succeed;
- ``serve``: a table's web server on a thread, stopped without a wait;
- ``wait_for``: a subprocess watched until something happens, or it ends, or time is up;
- ``hears_ctrl_c``: for a subprocess the test stops with SIGINT.
"""
import os
import signal
import time

import pytest
from click.testing import CliRunner

from euchresim.engine.layout import (BIDSUIT, BID2_PASS, DEALER, DUMMY, HAND, LED, NINTRICK, PH_ALONE, PH_BID1,
                                     PH_BID2, PH_DEFEND, PH_DISCARD, PH_DONE, PH_DUMMY, PH_JOKER, PH_PLAY, PHASE,
                                     TO_ACT, TRUMP, UPCARD)
from euchresim.rules import Rules
from euchresim.run.runner import RunSpec, play_chunk

VARIANTS = [(p, d) for p in (2, 3, 4) for d in (24, 25, 32, 33)]

RANKS = "789TJQKA"
SUITS = "CDHS"
TRUMP_ORDER_BELOW_BOWERS = "AKQT987"
JOKER_INDEX = 32          # the joker's card index (bit = 8*suit + rank; the joker is bit 32, R1)


def fast_and_full(name, fast, full):
    """Parametrize a test's size ``name`` twice: ``fast`` in the fast tier and ``full``, marked slow, in the full
    suite.  For a test whose size only buys more cases of the same rule (more hands checked against a twin, more
    cuts solved): the fast tier keeps the rule, on fewer cases, and the full suite the power."""
    return pytest.mark.parametrize(name, [pytest.param(fast, id=f"{name}={fast}"),
                                          pytest.param(full, id=f"{name}={full}", marks=pytest.mark.slow)])


def run_spec(rules=Rules(), policies=("random",), **kw):
    """A ``RunSpec`` from policy names, read here as a script reads them (``policies.seats``: the edge); a
    ``Seats`` passes as it is.  What a test of what a run plays says; the tests of ``RunSpec`` itself use it."""
    from euchresim.policies import seats
    return RunSpec(rules=rules, policies=seats(policies, rules.players), **kw)


def report_context(rules=Rules(), policies=("heuristic",), **kw):
    """A ``ReportContext`` whose play models are read here from their names, as the command line reads them."""
    from euchresim.policies import seats
    from euchresim.report import ReportContext
    kw.setdefault("kind", "order-up")
    kw.setdefault("out", "unused")
    kw.setdefault("hands", 10)
    kw.setdefault("seed", 1)
    return ReportContext(rules=rules, policies=tuple(policies),
                         models=tuple(seats([p], rules.players) for p in policies), **kw)


def duel_spec(rules, a, b, **kw):
    """A ``DuelSpec`` from its sides' names, read here as a script reads them (one of OpenSpiel's bots by name)."""
    from euchresim.interop.openspiel_match import is_openspiel
    from euchresim.policies import seats
    from euchresim.studies.duel import DuelSpec
    side = [x if isinstance(x, str) and is_openspiel(x) else seats([x] if isinstance(x, str) else x, rules.players)
            for x in (a, b)]
    return DuelSpec(rules, *side, **kw)


def rows_of(players=4, deck=24, policy="random", seed=0, n=2000, mode="hands", **options):
    """Play one chunk of ``n`` hands (games, rubbers) and return (rules, its ChunkResult)."""
    rules = Rules(players=players, deck=deck, **options)
    spec = run_spec(rules, (policy,) if isinstance(policy, str) else tuple(policy),
                    seed=seed, mode=mode, count=n, chunk_size=n)
    return rules, play_chunk(spec, 0)


def record_lines(players=4, deck=24, policy="baseline", mode="hands", count=300, seed=5, **options):
    """One chunk's hand records (JSON lines, as ``simulate --records`` writes them), played as ``rows_of`` plays."""
    from euchresim.records.rows import records_lines
    rules, res = rows_of(players, deck, policy=policy, seed=seed, n=count, mode=mode, **options)
    return list(records_lines(rules, res))


def write_lines(path, items):
    """A JSON-lines file: each item a line, a string as it is, anything else as its JSON; ``path``."""
    import json
    path.write_text("".join((o if isinstance(o, str) else json.dumps(o)) + "\n" for o in items), encoding="utf-8")
    return path


def replay_by_reference(rules, res):
    """Every hand of a ChunkResult as a hand record, replayed step by step by tests/reference.py (which shares
    no code with the package): it raises on any move the rules forbid.  Returns how many hands, and fails
    if a record's outcome is not the one the reference reaches."""
    import json

    from euchresim.records.rows import records_lines
    from tests.reference import replay
    n = 0
    for line in records_lines(rules, res):
        rec = json.loads(line)
        ref = replay(rec)
        for k in ("maker", "trump", "trick_winners", "tricks", "points"):
            assert rec[k] == ref[k], (k, line)
        n += 1
    return n


def bits(mask):
    """The set bits of a board, lowest first."""
    mask = int(mask)
    return [i for i in range(64) if (mask >> i) & 1]


# ------------------------------------------------------------------ cards, written out (R1, R2, R10)

def slow_card_name(c):
    return "JK" if c == JOKER_INDEX else RANKS[c % 8] + SUITS[c // 8]


def slow_is_trump(name, t):
    """R2 written out: joker, right bower, left bower, the trump suit."""
    if name == "JK":
        return True
    rank, suit = name[0], name[1]
    if suit == SUITS[t]:
        return True
    same_colour = {"C": "S", "S": "C", "D": "H", "H": "D"}[SUITS[t]]
    return rank == "J" and suit == same_colour


def slow_rank_in_trump(name, t):
    """Higher is stronger: joker 10, right 9, left 8, A..7 of trump 7..1."""
    if name == "JK":
        return 10
    if name == "J" + SUITS[t]:
        return 9
    if name[0] == "J":
        return 8
    return 7 - TRUMP_ORDER_BELOW_BOWERS.index(name[0])


def slow_beats(a, b, t, led):
    """Does card a beat card b in a trick where `led` (a suit index) was led? (R10)"""
    na, nb = slow_card_name(a), slow_card_name(b)
    ta, tb = slow_is_trump(na, t), slow_is_trump(nb, t)
    if ta and tb:
        return slow_rank_in_trump(na, t) > slow_rank_in_trump(nb, t)
    if ta != tb:
        return ta
    fa = na[1] == SUITS[led]
    fb = nb[1] == SUITS[led]
    if fa and fb:
        return RANKS.index(na[0]) > RANKS.index(nb[0])
    return fa and not fb


def slow_suit(c, t):
    """The suit a card counts as with trump ``t`` (R2: the bowers and the joker are trump)."""
    return t if slow_is_trump(slow_card_name(c), t) else c // 8


def slow_legal(st, priv, stick_the_dealer):
    """What the seat to act may do, from the rules alone: a set of action codes, or of card indexes.

    The twin of ``engine.hand.legal_actions``, phase by phase (docs/rules.md):
    R7 the dealer names any suit for a joker upcard; R5 pass or order; R6 any
    suit but the one turned down, and pass unless the dealer is stuck; R8/R9
    go alone (or defend alone) or not; R5 the dealer discards any card of hand
    and upcard; R9 the maker keeps cards of hand and dummy; R10 follow the suit
    led if able, else any card; a finished hand allows nothing.
    """
    ph = int(st[PHASE])
    seat = int(st[TO_ACT])
    if ph == PH_JOKER:
        return {0, 1, 2, 3}
    if ph == PH_BID1:
        return {0, 1}                                   # pass, order
    if ph == PH_BID2:
        allowed = {s for s in range(4) if s != st[BIDSUIT]}
        if not (stick_the_dealer and seat == st[DEALER]):
            allowed.add(BID2_PASS)
        return allowed
    if ph in (PH_ALONE, PH_DEFEND):
        return {0, 1}                                   # not alone, alone
    if ph == PH_DISCARD:
        return set(bits(priv[HAND + seat])) | {int(st[UPCARD])}    # the state holds the card index
    if ph == PH_DUMMY:
        return set(bits(priv[HAND + seat] | priv[DUMMY]))
    if ph == PH_PLAY:
        hand = bits(priv[HAND + seat])
        if st[NINTRICK] == 0:
            return set(hand)
        follow = [c for c in hand if slow_suit(c, st[TRUMP]) == st[LED]]
        return set(follow or hand)
    if ph == PH_DONE:
        return set()
    raise ValueError(f"no such phase {ph}")


def random_action(rng, st, legal):
    """A random legal action: one code or card, or for the dummy five of the cards on offer."""
    choices = bits(legal)
    if st[PHASE] == PH_DUMMY:
        return sum(1 << c for c in rng.choice(choices, 5, replace=False))
    return int(rng.choice(choices))


# ------------------------------------------------------------------ the command line

def run_cli(args):
    """``run``, as (exit status, standard output, standard error)."""
    r = run(args)
    return r.exit_code, r.stdout, r.stderr


def run(args, cwd=None, input=None):
    """Through main(), so errors are formatted as users see them; ``input`` is standard input."""
    from euchresim.cli.app import main
    runner = CliRunner()

    class _Main:
        name = "euchresim"

        def main(self, args=None, prog_name=None, **kw):
            main(list(args))
            raise SystemExit(0)
    if cwd is None:
        return runner.invoke(_Main(), args, input=input)
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return runner.invoke(_Main(), args, input=input)
    finally:
        os.chdir(old)


def run_ok(args, cwd=None, input=None):
    """``run``, failing the test with what the command printed unless it exits 0."""
    r = run(args, cwd=cwd, input=input)
    assert r.exit_code == 0, (r.output, r.exception)
    return r


def report(kind, out, hands, *extra, seed=7):
    """``euchresim report KIND`` of ``hands`` hands on one worker, quietly, into ``out``; fails unless it exits
    0.  Returns ``out``."""
    run_ok(["report", kind, "--hands", str(hands), "--seed", str(seed), "--workers", "1", "--quiet",
            "--out", str(out), *extra])
    return out


def one_error_line(r):
    """The one line a bad input prints; fails on a zero exit, more lines or a traceback.

    The compile notice (cli.options.COMPILING) is no part of an error: on a cold cache a run that
    compiled before it failed (an illegal move) says it too, on a line of its own.
    """
    from euchresim.cli.options import COMPILING
    lines = [ln for ln in r.output.splitlines() if ln.strip() and ln != COMPILING]
    assert r.exit_code != 0, r.output
    assert len(lines) == 1 and "Traceback" not in r.output, r.output
    return lines[0]



def serve(server):
    """Serve an ``http.server`` (the practice table's) on a thread of its own; its base URL, ``http://host:port``.

    It looks for a shutdown every 10 ms, not socketserver's default 0.5 s: each fixture that stops its table
    would otherwise wait half a second for nothing.
    """
    import threading
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()
    host, port = server.server_address[:2]
    return f"http://{host}:{port}"


def wait_for(pred, proc, what, timeout):
    """Poll ``pred()`` while the subprocess ``proc`` runs: fail, naming ``what``, if it ends or ``timeout`` passes."""
    deadline = time.monotonic() + timeout
    while not pred():
        if proc.poll() is not None:
            pytest.fail(f"the run ended (rc {proc.returncode}) before {what}: {proc.stderr.read()}")
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.02)


def hears_ctrl_c():
    """``preexec_fn`` for a child the test will stop with SIGINT: a shell that starts the suite in the
    background ignores SIGINT, its children inherit that, and the stop under test would never land."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def started_hand(tab, row):
    """Fresh engine state (st, priv) for a chunk's hand row, as dealt: where two loops play the same hand."""
    import numpy as np
    from euchresim.engine.hand import start_hand
    from euchresim.engine.layout import PRIV_SIZE, ST_SIZE
    st = np.zeros(ST_SIZE, np.int64)
    priv = np.zeros(PRIV_SIZE, np.int64)
    hands = np.array([row[f"hand{s}"] for s in range(4)], np.int64)
    start_hand(st, priv, tab, np.int64(row["dealer"]), hands, np.int64(row["dummy"]), np.int64(row["upcard"]),
               np.int64(row["kitty"]))
    return st, priv


def csv_texts(folder):
    """Every CSV table a report wrote, by name: two reports' tables compare equal only byte for byte."""
    return {f: (folder / f).read_text() for f in sorted(os.listdir(folder)) if f.endswith(".csv")}


def drop_targeted_chunks(out):
    """Delete every tenth kept chunk (names ending in 1) of a report's targeted work, as a crash might have lost
    them; how many went.  A resume must play them again to the same tables."""
    import json
    removed = 0
    for root, _, files in os.walk(out / "_work"):
        if "_manifest.json" in files and "classes" in json.load(open(os.path.join(root, "_manifest.json")))[
                "report_work"]:
            for f in os.listdir(os.path.join(root, "_results")):
                if f.endswith("1.bin"):
                    os.remove(os.path.join(root, "_results", f))
                    removed += 1
    return removed


def child_pids(pid):
    """The processes ``pid`` started that still run (Linux's /proc): a run's workers, found without asking it."""
    kids = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as fh:
            kids += [int(x) for x in fh.read().split()]
    return kids


def stopped_duel_and_resumed(spec, tmp_path, monkeypatch, stop_in: int = 4):
    """A duel never stopped, the same duel stopped by Ctrl-C in its ``stop_in``-th batch and then resumed:
    (whole, the RunStopped raised, the partial result it gives, the resumed result).

    The stop is planted in ``studies.duel._batch_job``, where a real Ctrl-C lands between batches.
    """
    from euchresim.run.jobs import RunStopped
    from euchresim.studies import duel as d
    whole = d.duel(spec, 1)
    real = d._batch_job
    calls = []

    def stop_there(args):
        calls.append(args[1])
        if len(calls) == stop_in:
            raise KeyboardInterrupt
        return real(args)
    monkeypatch.setattr(d, "_batch_job", stop_there)
    folder = str(tmp_path / "match")
    with pytest.raises(RunStopped) as e:
        d.duel(spec, 1, folder=folder)
    part = d.partial(spec, e.value)
    monkeypatch.setattr(d, "_batch_job", real)
    return whole, e.value, part, d.duel(spec, 1, folder=folder, resume=True)
