"""One way to run any job: its chunks on local workers or Ray, kept in a run folder, resumable.

Every job the package runs (simulate, report, counterfactual, duel,
ladder) is a :class:`Job`: a number of chunks, a header that says what the
chunks are, and ``play(chunk)``, which depends only on the job and the
chunk's number.  :func:`run_job` plays the chunks and gives every job the
same guarantees, so none has to build them again:

- the same numbers whatever the number of workers or the backend (chunks
  merge in chunk order, tallies are integers);
- a worker that dies has its chunk played again, ``MAX_TRIES`` times at most
  (run/backends);
- Ctrl-C (or SIGTERM, as the CLI maps it) stops the workers at once and
  raises :class:`RunStopped` with the finished chunks' merged tally;
- with a ``folder`` (run/folder.py), every finished chunk's files are kept
  with their checksums, and ``resume`` plays only the missing or damaged
  ones, to results identical to a run never stopped;
- ``on_chunk(done, total)`` for a progress bar.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable

from euchresim.run.backends import ChunkFailed, Pending
from euchresim.run.errors import SimError


@dataclass
class Played:
    """What one chunk gave: tallies that add up across chunks, files (kind -> bytes), text for stdout."""
    counts: dict
    files: dict
    text: str | None = None


class Job:
    """A job cut into chunks.  Subclasses are picklable (they travel to workers) and set:

    ``n_chunks``; ``header()``, JSON-able, what a resume must match;
    ``play(chunk) -> Played``.  ``stop_label`` names a chunk in messages.
    """
    n_chunks: int = 0
    stop_label: str = "chunk"

    def header(self) -> dict:
        raise NotImplementedError

    def play(self, chunk: int) -> Played:
        raise NotImplementedError

    def label(self, chunk: int) -> int:
        """The number a message gives the chunk (a duel names its first deal sequence)."""
        return chunk


class RunStopped(KeyboardInterrupt):
    """A run stopped by Ctrl-C (or SIGTERM): what was finished, and where it is kept."""

    def __init__(self, partial: dict, done: int, total: int, parts_dir: str | None, files: dict | None = None):
        super().__init__(f"stopped: {done} of {total} chunks finished")
        self.partial, self.done, self.total, self.parts_dir = partial, done, total, parts_dir
        self.files = files or {}      # kind -> {chunk: bytes}: the collected files of the finished chunks


@dataclass
class Outcome:
    """A finished run: the merged tallies, and each chunk's files of the kinds asked for, in chunk order."""
    counts: dict
    files: dict            # kind -> [bytes of chunk 0, chunk 1, ...]


def merge(total: dict, part: dict) -> dict:
    """Add ``part`` into ``total``: numbers add, dicts merge key by key, lists (cells) elementwise.

    The sums are of integers, so the order chunks finish in cannot change them.
    """
    for k, v in part.items():
        if isinstance(v, dict):
            merge(total.setdefault(k, {}), v)
        elif isinstance(v, list):
            have = total.get(k)
            if have is None:
                total[k] = list(v)
            elif len(have) != len(v):
                raise SimError(f"cannot merge tallies of {k!r}: {len(have)} cells against {len(v)}")
            else:
                total[k] = [a + b for a, b in zip(have, v)]
        else:
            total[k] = total.get(k, 0) + v
    return total


def merged(counts_by_chunk: dict) -> dict:
    total: dict = {}
    for i in sorted(counts_by_chunk):
        merge(total, counts_by_chunk[i])
    return total


def _local_job(args):
    """A local worker writes its chunk's files itself and hands back only their checksums."""
    from euchresim.run import folder as parts
    job, chunk, folder = args
    out = job.play(chunk)
    if folder and out.files:
        return chunk, out.counts, out.text, parts.store_chunk(folder, chunk, out.files), None
    return chunk, out.counts, out.text, {}, out.files


def remote_job(args):
    """A cluster worker may share no disk with the run: it hands back the files' bytes instead."""
    job, chunk, _ = args
    out = job.play(chunk)
    return chunk, out.counts, out.text, None, out.files


def _chunk_of(args) -> int:
    return args[0].label(args[1])


def run_job(job: Job, workers: int = 1, folder: str | None = None, resume: bool = False, force: bool = False,
            backend: str = "local", address: str | None = None, pool=None,
            on_chunk: Callable[[int, int], None] | None = None, stdout=None, collect: tuple = (),
            joins: dict | None = None, keep_folder: bool = True,
            before_play: Callable[[], None] | None = None) -> Outcome:
    """Play every chunk of ``job`` not yet finished in ``folder``; the merged tallies and collected files.

    ``collect`` names file kinds whose bytes the caller wants back, in chunk
    order (a report's arrays, a duel's rows): read back from the folder
    (checked against their checksums) when there is one, else kept in
    memory.  ``joins`` maps a file kind to a file that its chunks are joined
    into, in chunk order, once all are finished (hand records).  Text a
    chunk hands back goes to ``stdout`` in chunk order.  ``keep_folder``
    False removes the folder once the run is complete.  ``before_play()`` is
    called once the folder is accepted and before the first chunk plays (the
    CLI's compile notice: never printed before an error that plays nothing).
    """
    from euchresim.run import folder as parts
    if folder is None and resume:
        raise SimError("resume needs the run folder the stopped run kept; none was named")
    done: dict = {}
    if folder:
        try:
            done = parts.prepare(folder, job.header(), job.n_chunks, resume, force)
        except parts.PartsError as e:
            raise SimError(str(e)) from None
    # one running total, not every chunk's tally: memory stays flat however many chunks there are
    total = merged(done)
    n_done = len(done)
    done = set(done)          # chunk numbers only: the tallies are in ``total``

    def todo():               # lazily: a run of 10^15 hands has 10^10 chunks, too many to list
        return (i for i in range(job.n_chunks) if i not in done)
    kept: dict = {k: {} for k in collect} if not folder else {}
    writer = _InOrder(stdout or sys.stdout, todo())
    if before_play and n_done < job.n_chunks:
        before_play()
    heard = _Heard()
    try:
        jobs = Pending(((job, i, folder) for i in todo()), job.n_chunks - len(done))
        for chunk, counts, text, entries, files in _map(jobs, workers, pool, backend, address):
            if folder:
                if entries is None:                 # a remote worker's bytes: stored here
                    entries = parts.store_chunk(folder, chunk, files)
                parts.log_chunk(folder, chunk, counts, entries)
            else:
                for k in collect:
                    kept[k][chunk] = files[k]
            merge(total, counts)
            n_done += 1
            if text is not None:
                writer.add(chunk, text)
            if on_chunk:
                on_chunk(n_done, job.n_chunks)
    except BaseException as e:      # noqa: B036 - a stop, or an error the stop caused; the rest re-raised
        if not (heard.stop or _from_interrupt(e)):
            if isinstance(e, ChunkFailed):
                kept_in = f"; the finished chunks are kept in {folder}: rerun with --resume" if folder else ""
                raise SimError(f"{str(e).replace('chunk', job.stop_label, 1)}{kept_in}") from None
            raise
        if folder:    # the log is the truth: a stop between its line and our bookkeeping must not miscount
            finished = parts.finished(folder, job.n_chunks)
            total, n_done = merged(finished), len(finished)
            kept = {k: parts.read_finished(folder, k, job.n_chunks) for k in collect}
        raise RunStopped(total, n_done, job.n_chunks, folder, kept) from None
    finally:
        heard.close()
    out = {}
    if folder:
        out = {k: parts.read_kind(folder, k, job.n_chunks) for k in collect}
        parts.finish(folder, job.n_chunks, joins or {}, keep_folder=keep_folder)
    else:
        out = {k: [kept[k][i] for i in range(job.n_chunks)] for k in collect}
    return Outcome(total, out)


class _Heard:
    """Whether SIGINT came while the chunks played.

    An interrupt can land inside a library (pyarrow, numba, a pipe) that
    turns it into an error of its own, or loses it and fails later: whatever
    ends the run after a stop is the stop's, and the finished chunks are
    counted and kept as for a plain Ctrl-C.  The handler that was there still
    runs (it raises the KeyboardInterrupt); where SIGINT is ignored, or off
    the main thread, nothing is changed.
    """

    def __init__(self):
        import signal
        import threading
        self.stop, self._previous = False, None
        if threading.current_thread() is not threading.main_thread():
            return
        previous = signal.getsignal(signal.SIGINT)
        if callable(previous):
            self._previous = previous
            signal.signal(signal.SIGINT, self._on_sigint)

    def _on_sigint(self, signum, frame):
        self.stop = True
        self._previous(signum, frame)

    def close(self):
        import signal
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None


def _from_interrupt(e: BaseException | None) -> bool:
    """A KeyboardInterrupt, or an error raised while one was being handled."""
    seen = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, KeyboardInterrupt):
            return True
        seen.add(id(e))
        e = e.__context__ if e.__context__ is not None else e.__cause__
    return False


class _InOrder:
    """Writes each chunk's text once every chunk before it has been written."""

    def __init__(self, fh, order):
        self.fh, self.pending, self.order = fh, {}, order
        self.next = next(self.order, None)

    def add(self, chunk, text):
        self.pending[chunk] = text
        while self.next is not None and self.next in self.pending:
            _whole(self.fh, self.pending.pop(self.next))
            self.next = next(self.order, None)


def _whole(fh, text: str) -> None:
    """Write and flush ``text`` with Ctrl-C and SIGTERM held back: a stop lands between chunks, never in one.

    The signals are blocked, not lost: one that came during the write is
    delivered as soon as it is done.  (Only the main thread can hold them;
    elsewhere the write is as it was.)
    """
    import signal
    import threading
    held = threading.current_thread() is threading.main_thread() and hasattr(signal, "pthread_sigmask")
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM}) if held else None
    try:
        fh.write(text)
        fh.flush()
    finally:
        if held:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _map(jobs, workers, pool, backend, address):
    if backend == "ray":
        from euchresim.run.backends.ray import map_chunks as ray_map
        yield from ray_map(remote_job, jobs, workers, address=address, label=_chunk_of)
        return
    if backend != "local":
        raise SimError(f"backend must be local or ray, not {backend!r}")
    from euchresim.run.backends.local import map_chunks
    yield from map_chunks(_local_job, jobs, workers, pool, label=_chunk_of)
