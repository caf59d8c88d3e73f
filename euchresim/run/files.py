"""One convention for every file a command writes, checked before any work.

- ``-`` is standard output, for text formats (hand records); a binary
  format (Parquet) cannot go there.
- The name's suffix says the format, and must match what is written: a
  file called ``x.csv`` never silently holds Parquet.  Parquet rows are a
  folder (a partitioned dataset, one file per chunk), named ``NAME.parquet``.
- The folder must exist: a mistyped folder is an error, not a new folder.
- An existing file is never overwritten without ``--force``.
- Two outputs (or an output and an input) that are the same file are a
  clash, named in one line.

Pure Python and cheap: the CLI calls it before it imports the engine.
"""
from __future__ import annotations

import os
import stat

PARQUET = (".parquet", ".pq")
JSONL = (".jsonl", ".ndjson")


class OutputPathError(ValueError):
    """An output that would be lost, misnamed or clobbered: one line."""


def check_output(path: str, option: str, suffixes: tuple[str, ...], what: str, force: bool,
                 dash_ok: bool, folder: bool = False) -> None:
    """Refuse ``path`` as the target of ``option`` unless it follows the convention above.

    ``folder``: the output is a folder (a Parquet dataset, a checkpoint); an
    existing folder is the run folder's to judge (resume, start over, or
    refuse), an existing file is refused unless ``force``.
    """
    if path == "-":
        if not dash_ok:
            raise OutputPathError(f"{option} -: {what} cannot go to standard output; give a file name "
                                  f"ending {' or '.join(suffixes)}")
        return
    if suffixes and not path.lower().rstrip("/").endswith(suffixes):
        names = " or ".join("NAME" + x for x in suffixes)
        raise OutputPathError(f"{option} {path}: this writes {what}; name it {names}")
    if folder:
        if os.path.isdir(path):
            return
        if os.path.lexists(path) and not force:
            raise OutputPathError(f"{option} {path}: exists and is a file, where {what} is a folder; "
                                  "add --force to replace it")
        path = path.rstrip("/") or path
    elif os.path.isdir(path):
        raise OutputPathError(f"{option} {path}: is a folder; give a file name")
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise OutputPathError(f"{option} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise OutputPathError(f"{option} {path}: cannot write in the folder {folder}")
    if os.path.lexists(path) and not force:
        raise OutputPathError(f"{option} {path}: exists; add --force to overwrite it")


def file_id(path: str | None, stream=None):
    """What makes two names one file: (device, inode) where it exists, else its real path.

    Names are not enough: a hard link, a symbolic link or a second path to the
    same file compare unequal as text.  ``-`` is the file ``stream`` reads
    from or writes to (standard input piped from a file), if it is a regular file.
    """
    if path is None:
        return None
    if path == "-":
        try:
            st = os.fstat(stream.fileno()) if stream is not None else None
        except (AttributeError, OSError, ValueError):
            return None
        return (st.st_dev, st.st_ino) if st is not None and stat.S_ISREG(st.st_mode) else None
    try:
        st = os.stat(path)
        return st.st_dev, st.st_ino
    except OSError:
        return os.path.realpath(path)


def check_distinct(named: list[tuple], streams: dict | None = None) -> None:
    """Refuse two of ``(option, path)`` that are one file (None never clashes; ``-`` only through ``streams``,
    option -> the stream it stands for)."""
    seen: dict = {}
    for option, path in named:
        key = file_id(path, (streams or {}).get(option)) if path == "-" else file_id(path)
        if key is None:
            continue
        if key in seen:
            raise OutputPathError(f"{seen[key]} and {option} name the same file {path}; one would be lost")
        seen[key] = option
