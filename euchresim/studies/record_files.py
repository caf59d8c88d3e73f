"""``replay`` and ``solve`` of a large file on the one runner: a chunk is a block of lines.

A file of 10^8 hand records takes hours to solve on one core, and before
this it ran in one process, wrote its output in place and lost everything
on a stop.  As a job of run/jobs.py it gets what every job gets: workers
(or a Ray cluster), a progress bar, a stop that keeps the finished blocks in
``OUTPUT.parts/`` with their checksums, ``--resume`` that plays only the rest,
and an output that appears, whole, under its name only at the end.

The blocks are the batches the single-process loop used (``BATCH`` lines),
so every output line is the one the loop wrote.  A block is found by its
first byte (one pass over the file counts the lines), and the run folder's
header names the file by path, size and modification time, so a resume
against a file that changed since is refused.
"""
from __future__ import annotations

import gc
import io
import json
import os

from euchresim.loops.record_steps import differences
from euchresim.records.format import RecordError, parse_record
from euchresim.records.jsonl import decode_line, iter_jsonl, write_jsonl
from euchresim.run.jobs import Job, Played, run_job

SHOWN = 5             # findings of each kind a file's summary lists
BATCH = 4096          # records per kernel call (and held in memory at once), unless a caller says

KINDS = {"replay": ("broken", "differ"), "solve": ("failed", "differ")}
# This process's index of the file (a block's first byte and line): made once, not sent with every
# block to the workers (forked workers inherit it; a Ray worker makes its own, once).
_INDEX: dict = {}


def check_items(items, dst, check_many, summary, error_kind: str, on_batch=None, batch_size: int = BATCH,
                found: list | None = None):
    """:func:`check_file` on ``(line number, decoded value)`` pairs: a whole file, or one chunk of it.

    ``found``, if given, hears ``(kind, line)`` for every finding shown, so
    the chunks of a file (studies/record_files.py) can keep the first of each
    kind over the whole file.
    """
    shown = {error_kind: 0, "differ": 0}
    counts_ok = hasattr(summary, "solved")

    def note(kind: str, line_no: int, text: str) -> None:
        setattr(summary, kind, getattr(summary, kind) + 1)
        if shown[kind] < SHOWN:
            shown[kind] += 1
            summary.lines.append(f"line {line_no}: {text}")
            if found is not None:
                found.append((kind, f"line {line_no}: {text}"))

    def flush(batch):
        checked = iter(check_many([v for _, v in batch if isinstance(v, dict)]))
        for line_no, value in batch:
            summary.records += 1
            if isinstance(value, RecordError):
                out = {"line": line_no, "error": str(value)}
            elif not isinstance(value, dict):
                out = {"line": line_no, "error": why_not_a_record(value)}
            else:
                out = next(checked)
            if "error" in out:
                note(error_kind, line_no, out["error"])
            else:
                if counts_ok:
                    summary.solved += 1
                if "mismatch" in out:
                    note("differ", line_no, differences(out["mismatch"]))
            yield out
        if on_batch:
            on_batch(summary.records)

    def gen():
        batch = []
        for item in items:
            batch.append(item)
            if len(batch) >= batch_size:
                yield from flush(batch)
                batch = []
                gc.collect(0)
        yield from flush(batch)

    # A batch is many small dicts and lists alive at once, and CPython's
    # automatic collections kept promoting them and rescanning the whole heap
    # (numba's included): half the replay's time.  The replay's own objects
    # are freed by reference counts, so it collects only the youngest objects,
    # once a batch, in case anything made a cycle: memory stays bounded and
    # nothing older is scanned again.
    collecting = gc.isenabled()
    gc.disable()
    try:
        write_jsonl(dst, gen())
    finally:
        if collecting:
            gc.enable()
    return summary


def why_not_a_record(value) -> str:
    try:
        parse_record(value)
    except RecordError as e:
        return str(e)
    return "record: not a JSON object"        # pragma: no cover - parse_record refuses every non-dict



def _blocks(path: str, lines_per_block: int) -> tuple[list[tuple[int, int]], int]:
    """(first byte, first line number) of every block of ``lines_per_block`` lines, and the lines in all."""
    starts, line, pos = [(0, 1)], 1, 0
    with open(path, "rb") as fh:
        for raw in fh:
            line += 1
            pos += len(raw)
            if (line - 1) % lines_per_block == 0:
                starts.append((pos, line))
    if starts and len(starts) > 1 and starts[-1][0] == pos:
        starts.pop()                   # the file ends on a block boundary: no empty block after it
    if pos == 0:
        return [], 0
    return starts, line - 1


class RecordsFileJob(Job):
    """Every line of a file of hand records replayed (or solved), block by block."""

    def __init__(self, src: str, what: str, lines_per_block: int, check_many, summary_type, to_stdout: bool = False):
        if what not in KINDS:
            raise ValueError(f"what must be replay or solve, not {what!r}")
        self.src, self.what, self.size, self.to_stdout = os.path.abspath(src), what, lines_per_block, to_stdout
        self.check_many, self.summary_type = check_many, summary_type
        st = os.stat(self.src)
        self.stamp = {"path": self.src, "bytes": st.st_size, "mtime_ns": st.st_mtime_ns}
        self.n_chunks = len(self.starts)
        self.end = st.st_size
        self.stop_label = "block of records"

    @property
    def starts(self) -> list:
        return self._index()[0]

    @property
    def lines(self) -> int:
        return self._index()[1]

    def _index(self):
        key = (self.src, self.stamp["bytes"], self.stamp["mtime_ns"], self.size)
        if key not in _INDEX:
            _INDEX.clear()                      # one file at a time: the index of the last one is enough
            _INDEX[key] = _blocks(self.src, self.size)
        return _INDEX[key]

    def header(self) -> dict:
        return {"job": self.what, "file": self.stamp, "lines_per_block": self.size}

    def play(self, chunk: int) -> Played:
        start, first_line = self.starts[chunk]
        end = self.starts[chunk + 1][0] if chunk + 1 < self.n_chunks else self.end
        with open(self.src, "rb") as fh:
            fh.seek(start)
            data = fh.read(end - start)
        pieces = data.split(b"\n")
        lines = [p + b"\n" for p in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
        items = ((first_line + k, decode_line(line)) for k, line in enumerate(lines))
        summary, kind = self.summary_type(), KINDS[self.what][0]
        out, found = io.StringIO(), []
        check_items(items, out, self.check_many, summary, kind, batch_size=self.size, found=found)
        counts = {k: getattr(summary, k) for k in ("records", "solved", "broken", "failed", "differ")
                  if hasattr(summary, k)}
        text = out.getvalue()
        files = {"result": json.dumps(found).encode()}
        if self.to_stdout:
            return Played(counts, files, text)
        files["records"] = text.encode()
        return Played(counts, files)


def check_path(src: str, dst, what: str, lines_per_block: int, check_many, summary_type, workers: int = 1,
               resume: bool = False, force: bool = False, on_batch=None, backend: str = "local",
               address: str | None = None):
    """Replay (or solve) the file ``src`` into ``dst`` (a path, or a stream for standard output) on the runner.

    Returns the summary the single-process loop returns, the same numbers
    and the first findings of each kind in file order.
    """
    next(iter_jsonl(src), None)         # not JSON Lines at all (Parquet, binary): one line, before any output
    to_file = isinstance(dst, (str, os.PathLike))
    job = RecordsFileJob(src, what, lines_per_block, check_many, summary_type, to_stdout=not to_file)
    folder = os.fspath(dst) + ".parts" if to_file else None
    progress = (lambda done, total: on_batch(min(done * lines_per_block, job.lines))) if on_batch else None
    out = run_job(job, workers=workers, folder=folder, resume=resume,
                  force=force, backend=backend, address=address, on_chunk=progress, collect=("result",),
                  joins={"records": os.fspath(dst)} if to_file else None, keep_folder=False,
                  stdout=None if to_file else dst)
    summary = summary_type()
    for k, v in out.counts.items():
        setattr(summary, k, v)
    shown: dict = {}
    for data in out.files["result"]:
        for kind, line in json.loads(data):
            if shown.get(kind, 0) < SHOWN:
                shown[kind] = shown.get(kind, 0) + 1
                summary.lines.append(line)
    return summary
