"""Strategy reports: a folder of findings in words, CSV tables, PNG charts and ``meta.json``.

Each report kind (``order-up``, ``loner``, ``euchre-rates``, ``decks``,
``win-probability``) is a module with ``build(ctx) -> Section``: it asks
for simulated work through the context (so every piece is chunked,
resumable and shown on the progress bar), turns it into tables with the
analysis layer and into charts with the plots layer, and says in words
what they show, every number with its interval and hand count.  This
layer composes the two below it; it computes no statistic itself.

The work a report asks for is cut into chunks that depend only on the
seed and the chunk's index (as ``sim`` chunks do); each finished chunk is
kept in ``OUT/_work/KEY/`` (written under a temporary name, then renamed),
so a stopped run resumes, with ``--resume``, to identical results.
"""
from __future__ import annotations

import hashlib
import json
import os
import platform
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from euchresim import ENGINE_VERSION, __version__
from euchresim.rules import Rules


class ReportError(ValueError):
    """A report that cannot be made as asked: one line for the user."""


@dataclass(frozen=True)
class ReportContext:
    """What a report is made from; every choice that changes a number is here (and in meta.json)."""
    kind: str
    out: str
    hands: int
    seed: int
    rules: Rules
    policies: tuple = ("heuristic",)        # the play models, strongest-fast first
    model_hands: tuple = ()                 # hands for each further model (pimc, dd), if not ``hands``
    workers: int = 1
    resume: bool = False
    force: bool = False
    chunk_size: int = 50_000
    progress: Callable | None = None        # progress(label, done, total)
    command: str = ""

    def hands_for(self, k: int) -> int:
        """Hands the k-th play model plays (the first plays ``hands``; slow ones fewer)."""
        if k == 0 or k - 1 >= len(self.model_hands):
            return self.hands
        return self.model_hands[k - 1]

    def caption(self, policy: str, hands: int, extra: str = "") -> str:
        s = f"policy {policy} · {hands:,} hands · seed {self.seed} · {self.rules.players} players, " \
            f"{self.rules.deck} cards · 95% intervals"
        return s + (f" · {extra}" if extra else "")

    def path(self, *parts) -> str:
        return os.path.join(self.out, *parts)


@dataclass
class Section:
    """One report's findings: markdown text, CSV tables (name -> DataFrame), charts (name -> png path)."""
    title: str
    text: str
    tables: dict = field(default_factory=dict)
    charts: dict = field(default_factory=dict)


def chunked(ctx: ReportContext, key: str, spec: dict, n_chunks: int, job: Callable[[int], dict],
            label: str = "") -> list[dict]:
    """``job(i)`` for every chunk i (dicts of numpy arrays), each kept on disk once finished.

    ``spec`` (JSON-able) says what the chunks are; a resumed run must ask
    for the same, or it is an error (``--force`` starts the work afresh).
    Chunks run on ``ctx.workers`` processes; the result is in chunk order,
    whatever order they finish in.
    """
    from euchresim.run.backends.local import map_chunks
    d = ctx.path("_work", key)
    os.makedirs(d, exist_ok=True)
    spec_file = os.path.join(d, "spec.json")
    want = json.dumps(spec, sort_keys=True)
    if os.path.exists(spec_file):
        have = open(spec_file, encoding="utf-8").read()
        if have != want and not ctx.force:
            raise ReportError(f"{d}: kept work of another run (its spec.json differs); use --force to redo it")
        if have != want or not ctx.resume:
            for f in os.listdir(d):
                if f.startswith("chunk-"):
                    os.remove(os.path.join(d, f))
    elif any(f.startswith("chunk-") for f in os.listdir(d)):
        raise ReportError(f"{d}: chunk files without a spec.json; remove the folder or use --force")
    _atomic_write(spec_file, want.encode())
    results: dict[int, dict] = {}
    for i in range(n_chunks):
        f = os.path.join(d, f"chunk-{i:06d}.npz")
        if os.path.exists(f):
            try:
                with np.load(f) as z:
                    results[i] = {k: z[k] for k in z.files}
            except (OSError, ValueError):      # a damaged file is played again
                os.remove(f)
    todo = [i for i in range(n_chunks) if i not in results]
    done = len(results)
    if ctx.progress:
        ctx.progress(label or key, done, n_chunks)
    for i, res in map_chunks(_Job(job), todo, ctx.workers):
        f = os.path.join(d, f"chunk-{i:06d}.npz")
        tmp = f + ".tmp.npz"
        np.savez(tmp, **res)
        os.replace(tmp, f)
        results[i] = res
        done += 1
        if ctx.progress:
            ctx.progress(label or key, done, n_chunks)
    return [results[i] for i in range(n_chunks)]


class _Job:
    """A picklable wrapper that hands back the chunk index with its result."""

    def __init__(self, fn):
        self.fn = fn

    def __call__(self, i):
        return i, self.fn(i)


def _atomic_write(path: str, data: bytes) -> None:
    tmp = path + ".tmp"
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)


def spec_key(*parts) -> str:
    """A short stable name for a piece of work from what defines it."""
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:12]


def md_table(df, floatfmt: str = "{:.4g}", index: bool = False) -> str:
    """A DataFrame as a markdown table (numbers formatted, NaN as a dash)."""
    import math
    cols = ([df.index.name or ""] if index else []) + [str(c) for c in df.columns]
    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for idx, row in df.iterrows():
        cells = [str(idx)] if index else []
        for v in row:
            if isinstance(v, float):
                cells.append("–" if math.isnan(v) else floatfmt.format(v))
            else:
                cells.append(str(v))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def write_section(ctx: ReportContext, section: Section, started: float) -> dict:
    """README.md, the CSV tables and meta.json in ``ctx.out``; the charts are already there."""
    os.makedirs(ctx.out, exist_ok=True)
    for name, df in section.tables.items():
        df.to_csv(ctx.path(f"{name}.csv"), index=False)
    meta = {
        "report": ctx.kind, "command": ctx.command, "seed": ctx.seed, "hands": ctx.hands,
        "model_hands": list(ctx.model_hands), "policies": list(ctx.policies), "rules": ctx.rules.to_dict(),
        "euchresim": __version__, "engine_version": ENGINE_VERSION,
        "python": platform.python_version(), "numpy": np.__version__,
        "run_seconds": round(time.time() - started, 1),
        "tables": sorted(f"{n}.csv" for n in section.tables),
        "charts": sorted(os.path.relpath(p, ctx.out) for p in section.charts.values()),
    }
    with open(ctx.path("meta.json"), "w", encoding="utf-8") as fh:
        json.dump(meta, fh, indent=2)
        fh.write("\n")
    head = (f"# {section.title}\n\n"
            f"Made by `{ctx.command}` (euchresim {__version__}, engine {ENGINE_VERSION}; seed {ctx.seed}; "
            f"{ctx.hands:,} hands for {ctx.policies[0]}"
            + "".join(f", {ctx.hands_for(k):,} for {p}" for k, p in enumerate(ctx.policies) if k)
            + f"; {meta['run_seconds']} s). Every figure names the policy that played its hands and "
              "carries a 95% interval.\n\n")
    with open(ctx.path("README.md"), "w", encoding="utf-8") as fh:
        fh.write(head + section.text.rstrip() + "\n")
    return meta
