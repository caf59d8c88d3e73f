"""Replay a file of hand records: JSON Lines in batches, one line out per line in.

The replay of each record (every step checked by the simulator's own state
machine, the outcome compared) is ``loops.records``; this module is the file
loop that ``replay`` and ``solve`` share, and the summary of what it found.
"""
from __future__ import annotations

import gc
import os
from dataclasses import dataclass, field

from euchresim.loops.records import (_check_many, differences, replay, replay_many,  # noqa: F401
                                     replay_record, replay_states, _with_error)
from euchresim.records.format import RecordError, parse_record
from euchresim.records.jsonl import iter_jsonl, write_jsonl

BATCH = 4096          # records per kernel call (and held in memory at once)
SHOWN = 5             # findings of each kind a file's summary lists


@dataclass
class ReplaySummary:
    """What a file's replay found: counts, and the first findings of each kind as lines."""
    records: int = 0
    broken: int = 0
    differ: int = 0
    lines: list[str] = field(default_factory=list)    # "line N: ...", in file order


def replay_file(src, dst, name: str | None = None, on_batch=None, **run_options) -> ReplaySummary:
    """Replay every line of ``src`` into ``dst``, one output line per input line.

    ``src`` is opened and checked to be JSON Lines before ``dst`` is
    opened, so a wrong file (Parquet, say) leaves no output behind;
    :class:`RecordError` then says what is wrong with which file (``name``,
    if given, else its path or stream name).  ``on_batch(records)`` hears
    how many records are done after each batch (a progress bar).  A file
    (not a stream) runs on the one runner, block by block
    (studies/record_files.py): ``run_options`` are its ``workers``,
    ``resume``, ``force``, ``backend`` and ``address``.
    """
    if isinstance(src, (str, os.PathLike)):
        from euchresim.studies.record_files import check_path
        return check_path(src, dst, "replay", BATCH, on_batch=on_batch, **run_options)
    return check_file(src, dst, name, _check_many, ReplaySummary(), "broken", on_batch)


def check_file(src, dst, name, check_many, summary, error_kind: str, on_batch=None, batch_size: int = BATCH):
    """The file loop ``replay`` and ``solve`` share: JSON Lines in batches, one line out per line in.

    ``check_many(dicts)`` turns a batch's records into output dicts (one
    each, in order); a line that is not a record gets its ``error`` here.
    ``summary`` counts records, ``error_kind`` (its name for an error),
    ``differ`` and, if it has one, ``solved`` (records without an error),
    and keeps the first ``SHOWN`` findings of each kind as lines.
    """
    return check_items(iter_jsonl(src, name), dst, check_many, summary, error_kind, on_batch, batch_size)


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
                out = {"line": line_no, "error": _not_object(value)}
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


def _not_object(value) -> str:
    try:
        parse_record(value)
    except RecordError as e:
        return str(e)
    return "record: not a JSON object"        # pragma: no cover - parse_record refuses every non-dict


__all__ = ["replay", "replay_many", "replay_record", "replay_file", "differences", "ReplaySummary"]
