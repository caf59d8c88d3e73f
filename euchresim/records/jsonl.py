"""JSON Lines for hand records: read a file (or a stream) line by line, write one.

Kept apart from the record format so the reader of a large file and the
writer of a chunk's lines share one tested path: a binary file given where
JSON Lines was wanted is one line saying so, and a bad line names its number.
"""
from __future__ import annotations

import json
import os
from typing import IO, Iterable, Iterator

from euchresim.records.format import RecordError


_SNIFF = 1 << 16      # bytes of the first line looked at to tell a binary file


def _not_jsonl(first) -> str | None:
    """Why a file whose first line (up to _SNIFF bytes) is ``first`` is no JSON Lines, or None.

    A Parquet file (``simulate --out``) given for its ``--records`` twin is
    the usual mistake; one line saying so beats a "not JSON" per line.
    """
    if isinstance(first, str):                  # a text stream: its reader decoded it already
        first = first.encode("utf-8", "surrogateescape")
    if first.startswith(b"PAR1"):
        return "it looks like Parquet"
    if b"\x00" in first:
        return "it looks like a binary file"
    try:
        first.decode("utf-8")
    except UnicodeDecodeError as e:
        # a line cut at _SNIFF bytes may end inside a character: that is no proof
        if not (len(first) == _SNIFF and e.start >= len(first) - 3 and e.reason == "unexpected end of data"):
            return "it looks like a binary file"
    return None


def iter_jsonl(path_or_file, name: str | None = None) -> Iterator[tuple[int, object]]:
    """Yield ``(line number, decoded value)`` for every line, 1-based.

    A line that is not JSON, a blank one included, yields ``(n,
    RecordError("not JSON: ..."))`` instead, so a replay can write one
    output line per input line.  A file that cannot be opened or read, or
    that is not text at all (Parquet, or a NUL byte or non-UTF-8 bytes in
    its first line), raises :class:`RecordError` naming the file; the open
    and that check happen at the call, not at the first ``next``.  ``name``
    is the file's name in those messages (the path, or the stream's name).
    """
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        name = name or os.fsdecode(path_or_file)
        try:
            fh = open(path_or_file, "rb")
        except OSError as e:
            raise RecordError(f"{name}: cannot read ({e.strerror})") from None
        close = True
    else:
        fh, name, close = path_or_file, name or str(getattr(path_or_file, "name", path_or_file)), False
    try:
        first = _readline(fh, name, _SNIFF)
        why = _not_jsonl(first)
        if why:
            raise RecordError(f"{name}: not a JSON Lines file ({why})")
        if len(first) == _SNIFF and not first.endswith(b"\n" if isinstance(first, bytes) else "\n"):
            first += _readline(fh, name)
    except BaseException:
        if close:
            fh.close()
        raise
    return _lines(fh, name, close, first)


def _readline(fh: IO, name: str, limit: int = -1):
    try:
        return fh.readline(limit)
    except OSError as e:
        raise RecordError(f"{name}: cannot read ({e.strerror})") from None


def _lines(fh: IO, name: str, close: bool, first) -> Iterator[tuple[int, object]]:
    try:
        n = 0
        line = first
        while line:
            n += 1
            yield n, decode_line(line)
            line = _readline(fh, name)
    finally:
        if close:
            fh.close()


def decode_line(line):
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as e:
            return RecordError(f"not JSON: not UTF-8 text (byte {e.start + 1})")
    try:
        return json.loads(line, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        if not line.strip():
            return RecordError("not JSON: the line is blank")
        return RecordError(f"not JSON: {e.msg} at column {e.colno}")
    except RecordError as e:
        return e
    except RecursionError:
        return RecordError("not JSON: nested too deeply")


def _no_constant(name: str):
    """Python's reader takes NaN and Infinity, which JSON has not: written back, they would not be JSON."""
    raise RecordError(f"not JSON: {name} is not a JSON value")


def _json_default(v):
    """numpy scalars and arrays (from kernel outcomes) as plain JSON values."""
    if hasattr(v, "tolist"):
        return v.tolist()
    raise TypeError(f"{type(v).__name__} is not JSON serialisable")


def write_jsonl(path_or_file, dicts: Iterable[dict]) -> int:
    """Write one compact JSON object per line; returns the number of lines.

    A failed write (a full disk, a closed pipe) is a :class:`RecordError`
    naming the file, like a failed read.  A file is written under a
    temporary name in its own folder and renamed only when whole, so a stop
    or a failure halfway leaves what was there before (the input itself,
    when a command rewrites a file in place with --force) untouched.
    """
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        name = os.fsdecode(path_or_file)
        tmp = f"{name}.{os.getpid()}.tmp"
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                n = _write(fh, dicts)
            os.replace(tmp, name)
            return n
        except OSError as e:
            raise RecordError(f"{name}: cannot write ({e.strerror})") from None
        finally:
            if os.path.exists(tmp):
                os.remove(tmp)
    try:
        return _write(path_or_file, dicts)
    except OSError as e:
        raise RecordError(f"{getattr(path_or_file, 'name', 'output')}: cannot write ({e.strerror})") from None


def _write(fh: IO, dicts: Iterable[dict]) -> int:
    n = 0
    dumps = json.JSONEncoder(separators=(",", ":"), default=_json_default, allow_nan=False).encode
    for d in dicts:
        fh.write(dumps(d) + "\n")
        n += 1
    return n
