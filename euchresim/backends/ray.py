"""A Ray cluster's CPUs, or a local Ray instance: the same chunks, as Ray tasks.

A chunk's numbers depend only on the seed, the chunk size and its number,
so playing it as a Ray task on another machine gives what the local backend
gives.  The job (``sim.remote_chunk_job``) hands back its files' bytes
rather than writing them, since a cluster worker may share no disk with the
driver; ``sim.run`` writes them into the run folder.

Each chunk is one task of one CPU, and only ``IN_FLIGHT`` tasks per CPU are
submitted at once: a billion-hand run is some 15,000 chunks, and their
results (with ``--out``, megabytes each) would otherwise pile up in the
object store faster than the driver writes them.  Ray's own retries are off
(``max_retries=0``) so that this module counts each chunk's deaths itself
and can stop the run naming the chunk, as the local backend does.

A local instance is started once and kept for the process (its start-up
is seconds): a second run in the same process reuses it, unless it asks
for another number of workers.  An instance the caller started itself
(``ray.init`` before ``sim.run``) is used as it is.
"""
from __future__ import annotations

import logging
import socket
from collections import deque

from . import MAX_TRIES, ChunkFailed

IN_FLIGHT = 2            # tasks submitted per CPU: one playing, one waiting, so no CPU idles between chunks
_OURS: dict = {}         # the local instance this module started: {"cpus": n}
_TASK = None             # the remote function, made once per process


def map_chunks(job, jobs, workers: int, address: str | None = None, label=lambda j: j, tries: int = MAX_TRIES):
    """``job(j)`` for every j, as Ray tasks, yielded in the order they finish.

    A task whose worker dies (killed, out of memory, its node lost) is
    submitted again; its ``tries``-th death raises :class:`ChunkFailed`
    naming ``label(j)``.  The job's own exception comes back as itself.
    Any way out of this generator (an error, Ctrl-C, the caller closing
    it) cancels every task still out, so nothing goes on playing.
    """
    ray = _import_ray()
    slots = _connect(ray, workers, address)
    task = _remote(ray)
    queue = deque(jobs)
    pending: dict = {}
    deaths: dict = {}
    try:
        if queue and address is None and not _kernels_cached():
            # a cold cache: one task compiles the kernels while the others wait,
            # rather than every worker compiling the same code at once
            first = queue.popleft()
            pending[task.remote(job, first)] = first
            yield from _collect(ray, pending, queue, deaths, label, tries, wait_all=True)
        while queue or pending:
            while queue and len(pending) < IN_FLIGHT * slots:
                j = queue.popleft()
                pending[task.remote(job, j)] = j
            yield from _collect(ray, pending, queue, deaths, label, tries)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def _collect(ray, pending, queue, deaths, label, tries, wait_all=False):
    """Results of the tasks finished now (of all of them if ``wait_all``); a dead one goes back on the queue."""
    from ray.exceptions import RayError, RayTaskError
    ready, _ = ray.wait(list(pending), num_returns=len(pending) if wait_all else 1)
    for ref in ready:
        j = pending.pop(ref)
        try:
            value = ray.get(ref)
        except RayTaskError as e:          # the job raised: its own error, not Ray's wrapper
            raise (e.cause if isinstance(e.cause, BaseException) else e) from None
        except RayError as e:              # the worker or its node died, or the result was lost
            key = label(j)
            deaths[key] = deaths.get(key, 0) + 1
            if deaths[key] >= tries:
                raise ChunkFailed(key, deaths[key], _why(e)) from None
            queue.appendleft(j)
            continue
        yield value


def _why(e) -> str:
    first = str(e).strip().split("\n")[0].split(". ")[0].rstrip(".")
    return f"{type(e).__name__}: {first}" if first else type(e).__name__


def _play(fn, arg):
    """The task itself: a module function, so every worker imports it rather than unpickling code."""
    return fn(arg)


def _remote(ray):
    global _TASK
    if _TASK is None:
        _TASK = ray.remote(num_cpus=1, max_retries=0)(_play)
    return _TASK


def _import_ray():
    try:
        import ray
    except ImportError:
        from ..sim import SimError
        raise SimError("--backend ray needs Ray, which is not installed: pip install 'euchresim[ray]'") from None
    return ray


def _kernels_cached() -> bool:
    from ..engine import kernels_cached
    return kernels_cached()


def _connect(ray, workers: int, address: str | None) -> int:
    """Start or reach the Ray instance; returns how many CPUs play chunks at once."""
    from ..sim import SimError
    if ray.is_initialized():
        if not _OURS or (address is None and _OURS["cpus"] == workers):
            return _slots(ray, workers, address)
        ray.shutdown()                     # ours, but sized for another run or not the cluster asked for
        _OURS.clear()
    quiet = dict(include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False,
                 ignore_reinit_error=True)
    if address is None:
        ray.init(address="local", num_cpus=workers, **quiet)
        _OURS["cpus"] = workers
        return workers
    _check_reachable(address)
    try:
        ray.init(address=address, **quiet)
    except Exception as e:                 # version mismatch, not a Ray head, ...: one line
        line = str(e).strip().split("\n")[0]
        raise SimError(f"cannot join the Ray cluster at {address}: {line}") from None
    return _slots(ray, workers, address)


def _slots(ray, workers: int, address: str | None) -> int:
    """A cluster plays on all its CPUs (the driver's --workers default knows only the driver's cores)."""
    if address is None:
        return workers
    return max(workers, int(ray.cluster_resources().get("CPU", 0)))


def _check_reachable(address: str) -> None:
    """Ray waits minutes for an address nobody answers at; a plain connect says so in seconds."""
    from ..sim import SimError
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
