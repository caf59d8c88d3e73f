"""This machine's cores: forked worker processes, each playing one chunk at a time.

The parent hands each worker one job over its own pipe, so it always knows
which chunk a worker holds.  That is what lets a worker that dies (killed,
out of memory) have its chunk played again by a fresh worker, and a chunk
that kills ``MAX_TRIES`` workers stop the run by name, where a generic pool
only reports that "a process died".  Workers ignore Ctrl-C: the parent
alone hears it and kills them all at once.  A parent that is killed itself
(SIGKILL, out of memory) cannot; its workers see it gone and exit
(run/lifeline.py).
"""
from __future__ import annotations

import multiprocessing as mp
import os
from multiprocessing.connection import wait

from euchresim.run.backends import MAX_TRIES, ChunkFailed, Pending
from euchresim.run.lifeline import die_with_parent, started_on_main_thread


def _serve(conn, parent_pid, thread_bound):
    """A worker's loop: (function, argument) in, (True, result) or (False, exception) out."""
    die_with_parent(parent_pid, thread_bound)
    while True:
        try:
            item = conn.recv()
        except (EOFError, OSError):
            return
        if item is None:
            return
        fn, arg = item
        try:
            out = (True, fn(arg))
        except Exception as e:        # the job's own error (an illegal move, a full disk): the parent's to report
            out = (False, e)
        conn.send(out)


class _Worker:
    def __init__(self, ctx):
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, os.getpid(), started_on_main_thread()), daemon=True)
        self.proc.start()
        child.close()
        self.job = None


class WorkerPool:
    """``workers`` forked processes for ``map``; several runs can share one (``euchresim bench``)."""

    def __init__(self, workers: int):
        self._ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
        self.size = workers
        self._workers = [_Worker(self._ctx) for _ in range(workers)]

    def map(self, fn, items, label=lambda item: item, tries: int = MAX_TRIES):
        """``fn(item)`` for every item, yielded as each finishes.

        A worker that dies is replaced and its item tried again; the
        ``tries``-th death of one item raises :class:`ChunkFailed`.  Any
        other way out (an error, Ctrl-C, the caller closing this generator)
        kills every worker first, so nothing keeps running behind the caller.
        """
        if not self._workers:
            raise RuntimeError("this pool was stopped; make a new one")
        queue = items if isinstance(items, Pending) else Pending(items)
        deaths: dict = {}
        try:
            while True:
                for w in self._workers:
                    if w.job is None and queue:
                        w.job = queue.popleft()
                        w.conn.send((fn, w.job))
                busy = [w for w in self._workers if w.job is not None]
                if not busy:
                    return
                ready = set(wait([w.conn for w in busy] + [w.proc.sentinel for w in busy]))
                for w in busy:
                    if w.conn in ready:
                        try:
                            ok, value = w.conn.recv()
                        except (EOFError, OSError):        # died as it answered
                            self._died(w, queue, deaths, label, tries)
                            continue
                        w.job = None
                        if not ok:
                            raise value
                        yield value
                    elif w.proc.sentinel in ready:
                        self._died(w, queue, deaths, label, tries)
        except BaseException:
            self.terminate()
            raise

    def _died(self, w, queue, deaths, label, tries):
        job = w.job
        key = label(job)
        deaths[key] = deaths.get(key, 0) + 1
        # Its pipe closes as it exits, a moment before it can be reaped: wait for the exit status.
        w.proc.join(timeout=60)
        if w.proc.exitcode is None:        # the pipe closed yet it still runs: stop it
            w.proc.kill()
            w.proc.join()
        code = w.proc.exitcode
        why = f"its worker was killed by signal {-code}" if code is not None and code < 0 else \
            f"its worker exited with status {code}"
        w.conn.close()
        self._workers[self._workers.index(w)] = _Worker(self._ctx)
        if deaths[key] >= tries:
            raise ChunkFailed(key, deaths[key], why)
        queue.appendleft(job)

    def terminate(self) -> None:
        """Stop now: a worker deep in a kernel would otherwise finish its chunk first."""
        for w in self._workers:
            if w.proc.is_alive():
                w.proc.kill()
        for w in self._workers:
            w.proc.join(timeout=2)
            w.conn.close()
            w.job = None
        self._workers = []

    def shutdown(self) -> None:
        for w in self._workers:
            try:
                w.conn.send(None)
            except OSError:
                pass
        for w in self._workers:
            w.proc.join(timeout=5)
            if w.proc.is_alive():
                w.proc.kill()
            w.conn.close()
        self._workers = []


def map_chunks(job, jobs, workers: int, pool: WorkerPool | None = None, label=lambda j: j):
    """``job(j)`` for every j: in this process for one worker, else on a pool (``pool`` or a new one)."""
    jobs = jobs if isinstance(jobs, Pending) else Pending(jobs)
    if pool is None and (workers <= 1 or len(jobs) <= 1):
        while jobs:
            yield job(jobs.popleft())
        return
    own = pool is None
    if own:
        pool = WorkerPool(min(workers, len(jobs)))
    yield from pool.map(job, jobs, label)
    if own:
        pool.shutdown()
