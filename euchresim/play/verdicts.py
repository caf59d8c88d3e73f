"""The advisor's verdict on the player's decisions, worked out beside the game, and the session's tally of them.

Each finished hand's record goes to one worker thread, which hands it to
one worker process, which asks the advisor the very question
``show --advise`` asks of it (``analysis.advisor_table.review_hand``: every
decision judged from its seat's view then, the best option's net points
less those of what was done, paired on the same deals, with a 95%
interval); the player's rows are kept.  A process, not a thread: numba
holds the interpreter's lock while it compiles and while a kernel runs,
so an advisor in the server's process would stall the page for the
seconds a first verdict takes to compile.  The game goes on meanwhile: a
request never waits for the advisor.  The worker is started, and its
kernels compiled, as the table opens (``warm``), while the player reads
the first hand; it ignores Ctrl-C, is killed by ``stop``, and exits by
itself when the table's process is killed (run/lifeline.py).

The session's tally adds the points given up by kind of decision (calls,
leads, follows, discards).  Each decision is judged on its own sampled
deals, so the sum's interval adds the half-widths in quadrature.
"""
from __future__ import annotations

import math
import os
import queue
import sys
import threading
import traceback
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool

from euchresim.play.table import YOU
from euchresim.play.words import say_option, trick_numbers, where
from euchresim.stats import Z95

KINDS = ("calls", "leads", "follows", "discards")
WARM_SAMPLES = 8     # deals a decision in the warm-up: enough to compile every kernel a verdict runs
NO_INFERENCE = "deals not narrowed by the calls heard (the hand's calls are ones the bots would not make)"


def kind_of(decision: dict) -> str:
    if decision["kind"] == "play":
        return "leads" if decision["lead"] else "follows"
    return "discards" if decision["kind"] in ("discard", "dummy_keep") else "calls"


def verdict_text(r: dict) -> str:
    """One decision in words, where it was in the hand and with the cards the page draws, so the player finds it:
    'trick 3, your lead: A♥ gave up 0.25 points a hand [+0.10, +0.40] against K♠'.

    A note that holds for the whole hand (the deals not narrowed by the
    calls heard, ``NO_INFERENCE``) is not repeated here: the page says it
    once under the hand's verdicts.
    """
    at = f"{r['where']}: " if r.get("where") else ""
    did, best = say_option(r.get("kind"), str(r["did"])), say_option(r.get("kind"), str(r["best"]))
    g = r["gave_up"]
    if g is None:
        return f"{at}{did}: the advisor has no verdict"
    if r["did"] == r["best"] or g == 0:
        return f"{at}{did}: the best"
    sure = "" if r["gave_up_low"] > 0 else " (not clearly worse)"
    return (f"{at}{did} gave up {g:.2f} points a hand [{r['gave_up_low']:+.2f}, {r['gave_up_high']:+.2f}] "
            f"against {best}{sure}")


def _num(x):
    x = float(x)
    return None if math.isnan(x) else x



def failed(what: str, e: BaseException, err=None) -> str:
    """The one line the page shows for a hint or verdict that failed, also written, with the worker's traceback,
    to the terminal the table was started from: the page's line names the error, the terminal says where it came
    from (a worker's error arrives with its traceback as the cause), so a bug in the advisor can be reported."""
    said = next((ln.strip() for ln in str(e).splitlines() if ln.strip()), "")
    line = f"{type(e).__name__}: {said}" if said else type(e).__name__
    err = sys.stderr if err is None else err
    cause = getattr(e, "__cause__", None)
    detail = str(cause) if cause is not None and "Traceback" in str(cause) else "".join(traceback.format_exception(e))
    try:                                    # a terminal gone (a closed pipe) must not stop the advisor's thread
        print(f"euchresim play: {what} failed: {line}", file=err)
        print(detail.rstrip(), file=err)
    except (OSError, ValueError):
        pass
    return line

class Advisor:
    """One thread that judges finished hands in the order they end; ``state()`` is what the page shows."""

    def __init__(self, policy: str, samples: int, seed: int = 0, model=None):
        """``policy``: the model as the page names it; ``model``: what plays after each decision, a
        ``policies.Seats`` as the table read it (None until the table seats its own bot, ``play._seat``)."""
        from euchresim.policies import PolicyError, Seats
        if model is not None and not isinstance(model, Seats):
            raise PolicyError(f"Advisor(model=...): {model!r} is not a policies.Seats; the table reads the name")
        self.policy, self.samples, self.seed = policy, samples, seed
        self.model = model
        self.lock = threading.Lock()
        self.hands: dict[int, dict] = {}
        self._queue: queue.Queue = queue.Queue()
        self._pool = None
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="advisor", daemon=True)
        self._thread.start()

    def _hand(self, index: int) -> dict:
        return self.hands.setdefault(index, {"status": "playing", "rows": [], "error": None, "now": [],
                                             "now_waiting": 0})

    def submit(self, index: int, record: dict, mine: list[dict]) -> None:
        """Judge hand ``index`` (its record as written, the player's decisions in it) when its turn comes."""
        with self.lock:
            self._hand(index).update(status="waiting")
        self._queue.put((index, record, mine, False))

    def warm(self, record: dict) -> None:
        """Start the worker and compile the advisor's kernels now, on ``record`` (any hand finished by the
        bots), rather than after the player's first hand: a first compile takes tens of seconds."""
        self._queue.put((None, record, [], False))

    def submit_decision(self, index: int, decision: dict, record: dict) -> None:
        """Judge one decision of hand ``index`` now, on ``record``: the hand so far, finished by the bots.

        The seat's view at the decision is the same whatever the ending, so
        this is the verdict the hand's own record will give (the bots'
        later calls aside: see docs/play.md); the hand's verdict replaces
        it when the hand ends.
        """
        with self.lock:
            self._hand(index)["now_waiting"] += 1
        self._queue.put((index, record, [decision], True))

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            if item[0] == "call":              # a hint (play/hints.py): fn(*args) in the worker, its answer to fut
                self._call(*item[1:])
                continue
            index, record, mine, now = item
            if index is None:
                try:
                    self.judge(record, mine, WARM_SAMPLES)
                except Exception:            # the verdicts that follow say what is wrong, if anything is
                    pass
                continue
            with self.lock:
                if not now:
                    self.hands[index]["status"] = "running"
            try:
                rows = self.judge(record, mine)
                error = None
            except Exception as e:       # the game goes on; the page says the verdict failed, and why
                rows, error = [], failed(f"the verdict on hand {index}", e)
            with self.lock:
                h = self.hands[index]
                if now:
                    h["now_waiting"] -= 1
                    h["now"] += rows if error is None else [{"step": mine[0]["step"], "error": error}]
                elif error is None:
                    h.update(status="done", rows=rows)
                else:
                    h.update(status="failed", error=error)

    def judge(self, record: dict, mine: list[dict], samples: int | None = None) -> list[dict]:
        """The player's decisions of one hand with the advisor's verdict on each, worked out in the worker process."""
        try:
            return self._worker().submit(judge, record, mine, self.model, samples or self.samples,
                                         self.seed).result()
        except BrokenProcessPool:
            self._pool = None               # the next hand gets a fresh process
            raise

    def _worker(self):
        """The worker process's pool, started on the advisor's thread (only there: see ``call``)."""
        if self._pool is None:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            from euchresim.run.lifeline import die_with_parent
            if self._stopped:
                raise RuntimeError("the advisor was stopped")
            # started by this thread, which lives as long as the pool: it may die with the thread
            self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=die_with_parent, initargs=(os.getpid(), True))
        return self._pool

    def call(self, fn, *args) -> Future:
        """``fn(*args)`` in the worker process, from any thread, without waiting: a hint asked at the table.

        Once the worker runs, the call goes straight to its pool, where it
        waits behind the one verdict under way (the advisor's thread hands
        the pool one job at a time), not behind the hands queued after it:
        a hint is for the decision in front of the player now.  Before that
        it goes through the advisor's thread, the one that may start the
        worker (a worker started by a short-lived thread would die with it).
        """
        pool = self._pool
        if pool is not None and not self._stopped:
            try:
                return pool.submit(fn, *args)
            except (BrokenProcessPool, RuntimeError):
                pass                          # a broken or shut pool: the advisor's thread starts a fresh one
        fut: Future = Future()
        if self._stopped:
            fut.set_exception(RuntimeError("the advisor was stopped"))
        else:
            self._queue.put(("call", fn, args, fut))
        return fut

    def _call(self, fn, args, fut: Future) -> None:
        try:
            fut.set_result(self._worker().submit(fn, *args).result())
        except BrokenProcessPool as e:
            self._pool = None
            fut.set_exception(e)
        except Exception as e:               # the hint says it failed, and why; the advisor goes on
            fut.set_exception(e)

    def state(self) -> dict:
        """Every hand's verdicts (or where they stand), and the session's tally."""
        with self.lock:
            hands = {str(i): {**v, "rows": list(v["rows"]), "now": list(v["now"])} for i, v in sorted(self.hands.items())}
        pending = sum(int(v["status"] in ("waiting", "running")) + v["now_waiting"] for v in hands.values())
        return {"policy": self.policy, "samples": self.samples, "hands": hands, "pending": pending,
                "no_inference": NO_INFERENCE,        # said once under a hand whose rows have inference False
                "summary": summary(v["rows"] for v in hands.values() if v["status"] == "done")}

    def stop(self) -> None:
        """Stop judging and kill the worker now: a verdict under way would otherwise run to its end."""
        self._stopped = True
        self._queue.put(None)
        pool = self._pool
        if pool is not None:
            procs = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for p in procs:
                p.kill()
            for p in procs:
                p.join(timeout=10)


def judge(record: dict, mine: list[dict], policy, samples: int, seed: int = 0) -> list[dict]:
    """The player's decisions of one hand with the advisor's verdict on each (those with one option left out)."""
    from euchresim.analysis.advisor_table import review_hand
    from euchresim.records.format import parse_record
    rec = parse_record(record)
    # a decision whose calls heard leave too few deals even for the softened model is judged on every deal the
    # cards allow, and its row says so (review_hand: the same for the table as for show --advise)
    review = review_hand(rec, policy, samples, seed=seed, seats=(YOU,))
    by_step = {d["step"]: d for d in mine}
    trick_of = trick_numbers(rec)
    rows = []
    for r in review.to_dict("records"):
        if int(r["seat"]) != YOU or int(r["step"]) not in by_step:
            continue
        row = {"step": int(r["step"]), "kind": str(r["kind"]), "group": kind_of(by_step[int(r["step"])]),
               "did": str(r["did"]), "best": str(r["best"]), "gave_up": _num(r["gave_up"]),
               "gave_up_low": _num(r["gave_up_low"]), "gave_up_high": _num(r["gave_up_high"]),
               "samples": int(r["samples"]), "inference": bool(r["inference"]),
               "interval_z": float(r["interval_z"]) if "interval_z" in r and r["interval_z"] == r["interval_z"] else Z95}
        d = by_step[row["step"]]
        row["where"] = where(row["kind"], bool(d.get("lead")), trick_of.get(row["step"]))
        row["text"] = verdict_text(row)
        rows.append(row)
    return rows


def summary(hands_rows) -> dict:
    """Points given up by kind of decision over the judged hands: total, interval, decisions, a hand."""
    total = {k: 0.0 for k in KINDS}
    var = {k: 0.0 for k in KINDS}
    count = {k: 0 for k in KINDS}
    n_hands = 0
    for rows in hands_rows:
        n_hands += 1
        for r in rows:
            if r["gave_up"] is None:
                continue
            k = r["group"]
            total[k] += r["gave_up"]
            # the interval's own z (wider than Z95 after a sequential stop): back to a standard error
            var[k] += ((r["gave_up_high"] - r["gave_up_low"]) / (2 * r.get("interval_z", Z95))) ** 2
            count[k] += 1
    out = {"hands": n_hands, "kinds": []}
    for k in KINDS:
        half = Z95 * math.sqrt(var[k])
        out["kinds"].append({"kind": k, "decisions": count[k], "gave_up": total[k], "low": total[k] - half,
                             "high": total[k] + half, "per_hand": total[k] / n_hands if n_hands else None})
    return out
