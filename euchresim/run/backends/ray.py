"""A Ray cluster's CPUs, or a local Ray instance: the same chunks, as Ray tasks.

A chunk's numbers depend only on the seed, the chunk size and its number,
so playing it as a Ray task on another machine gives what the local backend
gives.  The job (``runner.remote_chunk_job``) hands back its files' bytes
rather than writing them, since a cluster worker may share no disk with the
driver; ``runner.run`` writes them into the run folder.

A task takes one CPU.  It plays a batch of chunks, sized from the chunks
timed so far to last about ``TASK_SECONDS``: each task costs some 2 ms of
Ray's own (submission, the hand-back, a worker idle in between), which is
13% of a 65,536-hand chunk of random play on one core, and under 1% of a
quarter-second batch (docs/scaling.md).  Batches shrink as the run nears
its end, so that no CPU idles while another plays a long last batch.

Only ``IN_FLIGHT`` tasks per CPU are out at once: a billion-hand run is
some 15,000 chunks, and their results (with ``--out``, megabytes each)
would otherwise pile up in the object store faster than the driver writes
them.  Ray's own retries are off (``max_retries=0``) so that this module
counts each chunk's deaths itself and can stop the run naming the chunk, as
the local backend does; the chunks of a batch whose worker died are played
again one to a task, so that a chunk that kills its worker is found.

A local instance is started once and kept for the process (its start-up
is seconds): a second run in the same process reuses it, unless it asks
for another number of workers.  An instance the caller started itself
(``ray.init`` before ``runner.run``) is used as it is.
"""
from __future__ import annotations

import logging
import socket
import time
from collections import deque

from euchresim.run.backends import MAX_TRIES, ChunkFailed, Pending

IN_FLIGHT = 2            # tasks out per CPU: one playing, one waiting, so no CPU idles between tasks
TASK_SECONDS = 0.25      # what a batch of chunks aims to last
MAX_BATCH = 256          # chunks a task plays at most, however short they are
_OURS: dict = {}         # the local instance this module started: {"cpus": n}
_TASK = None             # the remote function, made once per process


def map_chunks(job, jobs, workers: int, address: str | None = None, label=lambda j: j, tries: int = MAX_TRIES):
    """``job(j)`` for every j, as Ray tasks, yielded in the order they finish.

    A chunk whose worker dies (killed, out of memory, its node lost) is
    played again; its ``tries``-th death raises :class:`ChunkFailed`
    naming ``label(j)``.  The job's own exception comes back as itself.
    Any way out of this generator (an error, Ctrl-C, the caller closing
    it) cancels every task still out, so nothing goes on playing.
    """
    ray = _import_ray()
    from ray.exceptions import RayError, RayTaskError
    slots = _connect(ray, workers, address)
    task = _remote(ray)
    queue = jobs if isinstance(jobs, Pending) else Pending(jobs)
    alone: deque = deque()       # chunks of a batch that died: played one to a task
    pending: dict = {}           # task -> its batch of jobs
    deaths: dict = {}
    per_chunk = None             # seconds a chunk takes, as timed in the workers
    try:
        if len(queue) > 1 and slots > 1 and address is None and not _kernels_cached():
            # a cold cache: one task compiles the kernels (and caches them) while the
            # others wait, rather than every worker compiling the same code at once
            batch = [queue.popleft()]
            pending[task.remote(job, batch)] = batch
            ray.wait(list(pending), num_returns=1)
        while queue or alone or pending:
            while (queue or alone) and len(pending) < IN_FLIGHT * slots:
                if alone:
                    batch = [alone.popleft()]
                else:
                    k = _batch_size(per_chunk, len(queue), IN_FLIGHT * slots)
                    batch = [queue.popleft() for _ in range(k)]
                pending[task.remote(job, batch)] = batch
            (ref,), _ = ray.wait(list(pending), num_returns=1)
            batch = pending.pop(ref)
            try:
                results, seconds = ray.get(ref)
            except RayTaskError as e:          # a job raised: its own error, not Ray's wrapper
                raise (e.cause if isinstance(e.cause, BaseException) else e) from None
            except RayError as e:              # the worker or its node died, or the result was lost
                for j in batch:
                    key = label(j)
                    deaths[key] = deaths.get(key, 0) + 1
                    if deaths[key] >= tries:
                        raise ChunkFailed(key, deaths[key], _why(e)) from None
                alone.extend(batch)
                continue
            t = seconds / len(batch)
            per_chunk = t if per_chunk is None else (per_chunk + t) / 2
            yield from results
    finally:
        for ref in pending:
            try:
                ray.cancel(ref, force=True)
            except Exception:          # a cluster already gone: nothing left to stop, and the
                pass                   # error (or Ctrl-C) that brought us here is the one to report


def _batch_size(per_chunk, left: int, tasks: int) -> int:
    """Chunks for the next task: one until a chunk has been timed, never so many that CPUs idle at the end."""
    if per_chunk is None:
        return 1
    k = min(MAX_BATCH, max(1, int(TASK_SECONDS / max(per_chunk, 1e-6))))
    return max(1, min(k, left // tasks, left))


def _why(e) -> str:
    first = str(e).strip().split("\n")[0].split(". ")[0].rstrip(".")
    return f"{type(e).__name__}: {first}" if first else type(e).__name__


def _play(fn, batch):
    """The task itself (a module function, so every worker imports it rather than unpickling code):
    its results, and how long they took, to size the next batches."""
    t = time.perf_counter()
    results = [fn(arg) for arg in batch]
    return results, time.perf_counter() - t


def _remote(ray):
    global _TASK
    if _TASK is None:
        _TASK = ray.remote(num_cpus=1, max_retries=0)(_play)
    return _TASK


def _import_ray():
    try:
        import ray
    except ImportError:
        from euchresim.run.errors import SimError
        raise SimError("--backend ray needs Ray, which is not installed: pip install 'euchresim[ray]'") from None
    return ray


def _kernels_cached() -> bool:
    from euchresim.engine import kernels_cached
    return kernels_cached()


def _connect(ray, workers: int, address: str | None) -> int:
    """Start or reach the Ray instance; returns how many CPUs play chunks at once."""
    from euchresim.run.errors import SimError
    if ray.is_initialized():
        if not _OURS or (address is None and _OURS["cpus"] == workers):
            return _slots(ray, workers, address)
        ray.shutdown()                     # ours, but sized for another run or not the cluster asked for
    _OURS.clear()
    quiet = dict(include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False,
                 ignore_reinit_error=True)
    if address is None:
        try:
            ray.init(address="local", num_cpus=workers, **quiet)
        except Exception as e:             # no room in /dev/shm, no free port, ...: one line
            line = str(e).strip().split("\n")[0]
            raise SimError(f"cannot start a local Ray instance: {line}") from None
        _OURS["cpus"] = workers
        return workers
    _check_reachable(address)
    try:
        ray.init(address=address, **quiet)
    except Exception as e:                 # version mismatch, not a Ray head, ...: one line
        line = str(e).strip().split("\n")[0]
        hint = ("; a cluster with token authentication also needs RAY_AUTH_MODE=token here and the head's "
                "~/.ray/auth_token (docs/scaling.md)") if isinstance(e, ConnectionError) else ""
        raise SimError(f"cannot join the Ray cluster at {address}: {line}{hint}") from None
    return _slots(ray, workers, address)


def _slots(ray, workers: int, address: str | None) -> int:
    """A cluster plays on all its CPUs (the driver's --workers default knows only the driver's cores)."""
    if address is None:
        return workers
    return max(workers, int(ray.cluster_resources().get("CPU", 0)))


def _check_reachable(address: str) -> None:
    """Ray waits minutes for an address nobody answers at; a plain connect says so in seconds."""
    from euchresim.run.errors import SimError
    if address == "auto":
        return
    hostport = address.split("://", 1)[-1].rstrip("/")
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit():
        raise SimError(f"--address must be HOST:PORT (the head's `ray start --head` port, e.g. 10.0.0.1:6379), "
                       f"not {address!r}")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as e:
        raise SimError(f"no Ray cluster answers at {address} ({e.strerror or e}); start one there with "
                       "`ray start --head`, or leave out --address for a local instance") from None
