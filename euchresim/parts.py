"""The parts folder of a run that writes files: what makes a stop lose nothing.

Every finished chunk is written to ``<FILE>.parts/`` as its own files, each
under a temporary name first and then renamed, its tally last: a chunk
counts as finished exactly when its ``.counts.json`` exists, so a run
killed at any instant leaves whole chunks or none.  ``meta.json`` records
what the run plays; a resume with other settings is refused, naming them.
When every chunk is there, the parts are joined in chunk order into the
final files and the folder goes.

Part of the ``sim`` layer; ``sim.run`` drives it.
"""
from __future__ import annotations

import json
import os
import shutil


class PartsError(RuntimeError):
    """A parts folder that cannot be used as asked (sim turns it into SimError)."""


def chunk_stem(parts_dir: str, chunk: int) -> str:
    return os.path.join(parts_dir, f"chunk-{chunk:06d}")


def _write_atomic(path: str, write) -> None:
    tmp = path + ".tmp"
    write(tmp)
    os.replace(tmp, path)


def write_chunk(parts_dir: str, res, rules, counts: dict, parquet: bool, records: bool) -> None:
    """One finished chunk's files, its tally last (what marks it finished)."""
    from .output import hands_table, records_lines
    stem = chunk_stem(parts_dir, res.chunk)
    if parquet:
        import pyarrow.parquet as pq
        _write_atomic(stem + ".parquet", lambda p: pq.write_table(hands_table(res), p))
    if records:
        def write_lines(p):
            with open(p, "w", encoding="utf-8") as fh:
                for line in records_lines(rules, res):
                    fh.write(line + "\n")
        _write_atomic(stem + ".jsonl", write_lines)

    def write_counts(p):
        with open(p, "w", encoding="utf-8") as fh:
            json.dump(counts, fh)
    _write_atomic(stem + ".counts.json", write_counts)


def finished(parts_dir: str, n_chunks: int) -> dict[int, dict]:
    """Tallies of the chunks whose files are complete, by chunk number."""
    done = {}
    for i in range(n_chunks):
        p = chunk_stem(parts_dir, i) + ".counts.json"
        if os.path.exists(p):
            try:
                with open(p, encoding="utf-8") as fh:
                    done[i] = json.load(fh)
            except (OSError, ValueError):
                continue          # unreadable: the chunk is played again
    return done


def prepare(parts_dir: str, meta: dict, n_chunks: int, resume: bool, force: bool = False) -> dict[int, dict]:
    """Create or reopen the parts folder; returns the tallies of chunks already done.

    A folder left by another run is refused unless ``resume`` (same
    settings: continue) or ``force`` (start over).  Half-written files of a
    killed run (``*.tmp``) are removed.
    """
    meta_path = os.path.join(parts_dir, "meta.json")
    if os.path.isdir(parts_dir) and not resume:
        if not force:
            raise PartsError(f"{parts_dir} holds an unfinished run; add --resume to continue it, "
                             "or --force to start over")
        shutil.rmtree(parts_dir)
    if os.path.isdir(parts_dir):
        try:
            with open(meta_path, encoding="utf-8") as fh:
                old = json.load(fh)
        except (OSError, ValueError):
            raise PartsError(f"{meta_path}: missing or unreadable; cannot resume, remove {parts_dir}") from None
        if old != meta:
            diff = sorted(k for k in set(old) | set(meta) if old.get(k) != meta.get(k))
            raise PartsError(f"{parts_dir}: the run there differs in {', '.join(diff)}; "
                             "cannot resume it with these options")
        for name in os.listdir(parts_dir):
            if name.endswith(".tmp"):
                os.remove(os.path.join(parts_dir, name))
        return finished(parts_dir, n_chunks)
    if os.path.exists(parts_dir):
        raise PartsError(f"{parts_dir}: exists and is not a folder; remove it or choose another output name")
    os.makedirs(parts_dir)
    with open(meta_path, "w", encoding="utf-8") as fh:
        json.dump(meta, fh, indent=1)
    return {}


def join(parts_dir: str, n_chunks: int, parquet: str | None, records: str | None, file_meta: dict) -> None:
    """Join the chunk parts, in chunk order, into the final files; then remove the folder."""
    if parquet:
        import pyarrow.parquet as pq
        meta = {b"euchresim": json.dumps(file_meta).encode()}
        writer = None
        tmp = parquet + ".tmp"
        for i in range(n_chunks):
            t = pq.read_table(chunk_stem(parts_dir, i) + ".parquet")
            if writer is None:
                writer = pq.ParquetWriter(tmp, t.schema.with_metadata(meta))
            writer.write_table(t.replace_schema_metadata(meta))
        writer.close()
        os.replace(tmp, parquet)
    if records:
        tmp = records + ".tmp"
        with open(tmp, "w", encoding="utf-8") as out:
            for i in range(n_chunks):
                with open(chunk_stem(parts_dir, i) + ".jsonl", encoding="utf-8") as fh:
                    shutil.copyfileobj(fh, out)
        os.replace(tmp, records)
    shutil.rmtree(parts_dir)
