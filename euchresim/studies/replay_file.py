"""Replay a file of hand records: JSON Lines in batches, one line out per line in.

The replay of each record (every step checked by the simulator's own state
machine, the outcome compared) is ``loops.record_steps``; this module is the file
loop that ``replay`` and ``solve`` share, and the summary of what it found.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from euchresim.loops.record_steps import check_records
from euchresim.records.jsonl import iter_jsonl
from euchresim.studies.record_files import BATCH, check_items, check_path



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
        return check_path(src, dst, "replay", BATCH, check_records, ReplaySummary, on_batch=on_batch, **run_options)
    return check_file(src, dst, name, check_records, ReplaySummary(), "broken", on_batch)


def check_file(src, dst, name, check_many, summary, error_kind: str, on_batch=None, batch_size: int = BATCH):
    """The file loop ``replay`` and ``solve`` share: JSON Lines in batches, one line out per line in.

    ``check_many(dicts)`` turns a batch's records into output dicts (one
    each, in order); a line that is not a record gets its ``error`` here.
    ``summary`` counts records, ``error_kind`` (its name for an error),
    ``differ`` and, if it has one, ``solved`` (records without an error),
    and keeps the first ``SHOWN`` findings of each kind as lines.
    """
    return check_items(iter_jsonl(src, name), dst, check_many, summary, error_kind, on_batch, batch_size)




__all__ = ["replay_file", "ReplaySummary"]
