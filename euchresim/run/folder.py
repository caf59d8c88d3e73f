"""The run folder: what makes a stop, a crash or ``kill -9`` lose nothing.

A run that writes files (or keeps a ``--checkpoint``) has one folder:

- ``--out NAME.parquet``: the folder *is* the output, a partitioned Parquet
  dataset (``chunk-000000.parquet``, ...), read as one table by
  ``pandas.read_parquet`` or ``pyarrow.dataset``; no 10^8-row file is ever
  joined in memory.  Until the run is complete the chunks wait in
  ``_unfinished/``, which readers skip: a stopped run's dataset is no
  table at all, never one that looks whole with chunks missing.  Hand records, if asked for too, wait in ``_records/``
  until the last chunk and are then joined into the ``--records`` file.
- ``--records NAME.jsonl`` alone: ``NAME.jsonl.parts/``, removed once joined.
- ``--checkpoint DIR``: no rows, only the chunks' tallies.

``_manifest.json`` names what the run plays (seed, rules, policies, chunk
size, versions, outputs).  Every chunk's file is written to a temporary
name and renamed; then the parent appends one line to ``_chunks.jsonl``:
the chunk's tally and each file's size and SHA-256.  A chunk counts as
finished only through that line, so a crash at any instant leaves whole
chunks or none; a resume checks every listed file against its checksum
and plays a damaged or missing one again.  At the end the lines are
folded into the manifest (``complete: true``), with each joined file's
(``--records``) size and checksum and every chunk's part of it, so a later
resume can cut it back into its chunks if a kept chunk is lost.  Names starting ``_`` are
skipped by Parquet readers, so the dataset reads cleanly with them in it.

Every job of the package runs on it through ``run.jobs.run_job``.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil

MANIFEST = "_manifest.json"
LOG = "_chunks.jsonl"
# Every kind of file a chunk can leave, and where; names starting "_" are skipped by Parquet readers.
# "result" is any job's own per-chunk bytes (a report's arrays, a duel's rows: run/jobs.py ``collect``).
# A Parquet chunk waits in "_unfinished/" until the run is complete and only then moves to the top
# (FINAL): readers skip "_" names, so an interrupted dataset reads as no table rather than as a
# complete-looking one that is missing chunks.
FILES = {"parquet": os.path.join("_unfinished", "chunk-{:06d}.parquet"),
         "records": os.path.join("_records", "chunk-{:06d}.jsonl"),
         "result": os.path.join("_results", "chunk-{:06d}.bin")}
FINAL = {"parquet": "chunk-{:06d}.parquet"}


class PartsError(RuntimeError):
    """A run folder that cannot be used as asked (the runner turns it into SimError)."""


def chunk_path(folder: str, kind: str, chunk: int) -> str:
    return os.path.join(folder, FILES[kind].format(chunk))


def _digest(data: bytes) -> dict:
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def _file_digest(path: str) -> dict | None:
    h = hashlib.sha256()
    size = 0
    try:
        with open(path, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
                size += len(block)
    except OSError:
        return None
    return {"bytes": size, "sha256": h.hexdigest()}


def _write_atomic(path: str, data: bytes) -> None:
    """A temporary name of this process's own, then a rename: never half a file under the real name."""
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError as e:           # a full disk, say: name the file meant, not the temporary one
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise OSError(e.errno, e.strerror, path) from None


def store_chunk(folder: str, chunk: int, files: dict[str, bytes]) -> dict[str, dict]:
    """Write a chunk's files (kind -> bytes); returns each file's size and checksum for the log."""
    entries = {}
    for kind, data in files.items():
        _write_atomic(chunk_path(folder, kind, chunk), data)
        entries[kind] = _digest(data)
    return entries


def log_chunk(folder: str, chunk: int, counts: dict, entries: dict) -> None:
    """The line that makes a chunk finished (only the parent writes it, so lines never interleave)."""
    line = json.dumps({"chunk": chunk, "counts": counts, "files": entries}, separators=(",", ":"))
    with open(os.path.join(folder, LOG), "a", encoding="utf-8") as fh:
        fh.write(line + "\n")
        fh.flush()
        os.fsync(fh.fileno())


def _read_log(folder: str, n_chunks: int) -> dict[int, dict]:
    done = {}
    try:
        with open(os.path.join(folder, LOG), encoding="utf-8") as fh:
            for line in fh:
                try:
                    entry = json.loads(line)
                    i = int(entry["chunk"])
                except (ValueError, KeyError, TypeError):
                    continue             # a line cut short by a crash: that chunk is played again
                if 0 <= i < n_chunks:
                    done[i] = entry
    except FileNotFoundError:
        pass
    return done


def _manifest(folder: str) -> dict | None:
    try:
        with open(os.path.join(folder, MANIFEST), encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError):
        return None


def finished(folder: str, n_chunks: int) -> dict[int, dict]:
    """Tallies of the chunks the folder counts as finished, by chunk number."""
    m = _manifest(folder) or {}
    entries = {int(k): v for k, v in m.get("chunks", {}).items()} if m.get("complete") else _read_log(folder, n_chunks)
    return {i: e["counts"] for i, e in entries.items()}


def _intact(folder: str, chunk: int, entry: dict) -> bool:
    return all(_file_digest(chunk_path(folder, kind, chunk)) == want for kind, want in entry["files"].items())


def prepare(folder: str, header: dict, n_chunks: int, resume: bool, force: bool = False) -> dict[int, dict]:
    """Create or reopen the run folder; returns the tallies of chunks already finished.

    A folder of another run is refused unless ``resume`` (the same settings:
    go on) or ``force`` (start over).  On resume every finished chunk's
    files are checked against their checksums; a damaged one is played again.
    """
    if os.path.isdir(folder):
        old = _manifest(folder)
        if old is None:
            if os.listdir(folder):
                raise PartsError(f"{folder}: a folder that is not a euchresim run (no readable {MANIFEST}); "
                                 "remove it or choose another name")
        elif not resume:
            if not force:
                state = "holds a finished run" if old.get("complete") else "holds an unfinished run"
                raise PartsError(f"{folder} {state}; add --resume to continue it, or --force to start over")
            shutil.rmtree(folder)
        else:
            mine = {k: v for k, v in old.items() if k not in ("complete", "chunks", "joined")}
            if mine != header:
                diff = sorted(k for k in set(mine) | set(header) if mine.get(k) != header.get(k))
                raise PartsError(f"{folder}: the run there differs in {', '.join(diff)}; "
                                 "cannot resume it with these options")
            return _reopen(folder, old, n_chunks)
    elif os.path.exists(folder):
        raise PartsError(f"{folder}: exists and is not a folder; remove it or choose another name")
    elif resume:       # never start afresh under --resume: the stopped run's chunks may be elsewhere
        raise PartsError(f"{folder}: no stopped run to resume here; give the same --out, --records and "
                         "--checkpoint the stopped run was given, or drop --resume to start afresh")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as e:
        raise PartsError(f"{folder}: cannot make the run folder ({e.strerror})") from None
    _write_atomic(os.path.join(folder, MANIFEST), json.dumps(dict(header, complete=False), indent=1).encode())
    return {}


def _final_path(folder: str, kind: str, chunk: int) -> str:
    return os.path.join(folder, FINAL[kind].format(chunk)) if kind in FINAL else chunk_path(folder, kind, chunk)


def joined_file(folder: str, kind: str) -> str | None:
    """The file a finished run in ``folder`` joined its chunks' ``kind`` into (``--records``), or None."""
    m = _manifest(folder) or {}
    return (m.get("joined") or {}).get(kind, {}).get("file") if m.get("complete") else None


def _unjoin(folder: str, manifest: dict, entries: dict[int, dict]) -> bool:
    """Cut each joined file back into its chunks' parts, as they were before ``finish``; False if one cannot be.

    A joined file that is gone or changed since the run finished has lost
    what its chunks wrote: the caller plays them all again.
    """
    for kind, j in (manifest.get("joined") or {}).items():
        if _file_digest(j["file"]) != {k: v for k, v in j.items() if k != "file"}:
            return False
        with open(j["file"], "rb") as fh:
            for i in sorted(entries):
                part = entries[i].get("joined", {}).get(kind)
                data = fh.read(part["bytes"])
                if _digest(data) != part:
                    return False
                _write_atomic(chunk_path(folder, kind, i), data)
                entries[i]["files"][kind] = part
    for e in entries.values():
        e.pop("joined", None)
    return True


def _reopen(folder: str, manifest: dict, n_chunks: int) -> dict[int, dict]:
    if manifest.get("complete"):
        entries = {int(k): v for k, v in manifest.get("chunks", {}).items()}
        damaged = [i for i, e in entries.items()
                   if any(_file_digest(_final_path(folder, k, i)) != want for k, want in e["files"].items())]
        lost = [j["file"] for j in (manifest.get("joined") or {}).values()
                if _file_digest(j["file"]) != {k: v for k, v in j.items() if k != "file"}]
        if not damaged and not lost:
            return {i: e["counts"] for i, e in entries.items()}
        # a kept file lost or changed since the run finished: the run is unfinished again, its good
        # chunks back where an unfinished run keeps them (a joined --records file cut back into its
        # chunks' parts), the damaged ones to be played again
        if not _unjoin(folder, manifest, entries):
            for i, e in entries.items():      # the joined file is lost: every chunk is played again
                for kind in e["files"]:
                    if kind in FINAL and os.path.exists(_final_path(folder, kind, i)):
                        os.remove(_final_path(folder, kind, i))
            entries = {}
        for i, e in entries.items():
            for kind in e["files"]:
                if kind in FINAL and os.path.exists(_final_path(folder, kind, i)):
                    os.makedirs(os.path.dirname(chunk_path(folder, kind, i)), exist_ok=True)
                    os.replace(_final_path(folder, kind, i), chunk_path(folder, kind, i))
        lines = "".join(json.dumps({"chunk": i, **e}, separators=(",", ":")) + "\n" for i, e in sorted(entries.items()))
        _write_atomic(os.path.join(folder, LOG), lines.encode())
        manifest = {k: v for k, v in manifest.items() if k not in ("chunks", "joined")}
        _write_atomic(os.path.join(folder, MANIFEST), json.dumps(dict(manifest, complete=False), indent=1).encode())
    for root, _, names in os.walk(folder):          # half-written files of a killed run
        for name in names:
            if name.endswith(".tmp"):
                os.remove(os.path.join(root, name))
    done, good = {}, []
    for i, entry in _read_log(folder, n_chunks).items():
        if _intact(folder, i, entry):
            done[i] = entry["counts"]
            good.append(json.dumps(entry, separators=(",", ":")) + "\n")
        else:
            for kind in entry["files"]:
                try:
                    os.remove(chunk_path(folder, kind, i))
                except FileNotFoundError:
                    pass
    # the log again, of whole lines only: a line cut short by a crash would otherwise swallow the
    # next chunk's line appended after it, and that chunk would be lost from the finished run
    _write_atomic(os.path.join(folder, LOG), "".join(good).encode())
    return done


def read_kind(folder: str, kind: str, n_chunks: int) -> list[bytes]:
    """Every chunk's file of ``kind``, in chunk order, each checked against the checksum its log line gave."""
    m = _manifest(folder) or {}
    entries = {int(k): v for k, v in m.get("chunks", {}).items()} if m.get("complete") else _read_log(folder, n_chunks)
    out = []
    for i in range(n_chunks):
        path = chunk_path(folder, kind, i)
        try:
            with open(path, "rb") as fh:
                data = fh.read()
        except OSError as e:
            raise PartsError(f"{path}: cannot read a finished chunk's file ({e.strerror}); rerun with --resume")
        want = entries.get(i, {}).get("files", {}).get(kind)
        if want is not None and _digest(data) != want:
            raise PartsError(f"{path}: does not match its checksum; rerun with --resume to play it again")
        out.append(data)
    return out


def read_finished(folder: str, kind: str, n_chunks: int) -> dict[int, bytes]:
    """The files of ``kind`` of the chunks finished so far whose bytes match their log line (a stop's partial)."""
    out = {}
    for i, entry in _read_log(folder, n_chunks).items():
        want = entry.get("files", {}).get(kind)
        try:
            with open(chunk_path(folder, kind, i), "rb") as fh:
                data = fh.read()
        except OSError:
            continue
        if want is None or _digest(data) == want:
            out[i] = data
    return out


def finish(folder: str, n_chunks: int, joins: dict[str, str], keep_folder: bool) -> None:
    """Join the kinds named in ``joins`` (kind -> file) in chunk order, fold the log into the manifest, tidy up.

    A joined file is written under a temporary name and renamed when whole.
    """
    if (_manifest(folder) or {}).get("complete"):
        return                    # a resume of a finished run: nothing was played, nothing to do
    entries = _read_log(folder, n_chunks)
    joined = {}
    for kind, target in joins.items():
        if not target:
            continue
        tmp = f"{target}.{os.getpid()}.tmp"
        with open(tmp, "wb") as out:
            for i in range(n_chunks):
                with open(chunk_path(folder, kind, i), "rb") as fh:
                    shutil.copyfileobj(fh, out)
        os.replace(tmp, target)
        # each chunk's part of the joined file stays known (size, checksum): a resume after a kept
        # chunk is lost can cut the joined file back into its chunks and join them again (_unjoin)
        joined[kind] = {"file": os.path.abspath(target), **_file_digest(target)}
        for e in entries.values():
            e.setdefault("joined", {})[kind] = e["files"].pop(kind)
    if not keep_folder:
        shutil.rmtree(folder)
        return
    for kind, final in FINAL.items():       # the dataset appears whole, or not at all
        for i, e in entries.items():
            if kind in e["files"]:
                os.replace(chunk_path(folder, kind, i), os.path.join(folder, final.format(i)))
        shutil.rmtree(os.path.dirname(chunk_path(folder, kind, 0)), ignore_errors=True)
    m = _manifest(folder) or {}
    m.update(complete=True, chunks={str(i): entries[i] for i in sorted(entries)}, **({"joined": joined} if joined else {}))
    _write_atomic(os.path.join(folder, MANIFEST), json.dumps(m, indent=1).encode())
    os.remove(os.path.join(folder, LOG))
    for kind in joins:
        shutil.rmtree(os.path.dirname(chunk_path(folder, kind, 0)), ignore_errors=True)
