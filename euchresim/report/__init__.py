"""Strategy reports: a folder of findings in words, CSV tables, PNG charts and ``meta.json``.

Each report kind (``order-up``, ``loner``, ``euchre-rates``, ``decks``,
``win-probability``) is a module with ``build(ctx) -> Section``: it asks
for simulated work through the context (so every piece is chunked,
resumable and shown on the progress bar), turns it into tables with the
analysis layer and into charts with the plots layer, and says in words
what they show, every number with its interval and hand count.  This
layer composes the two below it; it computes no statistic itself.

The work a report asks for is cut into chunks that depend only on the
seed and the chunk's index (as ``simulate``'s chunks do), and runs on the one
runner (run/jobs.py): each finished chunk is kept in the run folder
``OUT/_work/KEY/`` with its checksum, so a stopped run resumes, with
``--resume``, to identical results.
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import platform
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from euchresim import ENGINE_VERSION, __version__
from euchresim.rules import Rules
from euchresim.run.errors import SimError
from euchresim.run.jobs import Job, Played


NOTED_INTERVALS = "95% intervals"
UNDRAWN_INTERVALS = "no intervals drawn: each cell's 95% interval is in the report's CSV"


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
    policies: tuple = ()                    # the play models as given, strongest-fast first (each read: ``models``)
    model_hands: tuple = ()                 # hands for each further model (pimc, dd), if not ``hands``
    workers: int = 1
    resume: bool = False
    force: bool = False
    chunk_size: int = 50_000
    progress: Callable | None = None        # progress(label, done, total)
    command: str = ""
    backend: str = "local"                  # where the chunks run (run/backends): the numbers do not depend on it
    address: str | None = None              # --backend ray: the cluster
    classes: tuple = ()                     # order-up, loner: the hand classes of the main model's targeted deals
    class_deals: int = 0                    # order-up, loner: targeted deals kept per seat (with ``classes``)
    class_reached: int = 0                  # or: per seat and class, batches until this many reach the cell
    defend_hands: int = 0                   # loner: the main model's hands for the defender's choice; 0: ``hands``
    replicate: int = 0                      # the targeted cells' replicate: 0 the cells, 1 their measure again
    models: tuple = field(default=(), compare=False)     # each of ``policies`` read once where it entered, a policies.Seats

    def __post_init__(self):
        from euchresim.policies import handed
        if not self.policies or len(self.models) != len(self.policies):
            raise ReportError(f"ReportContext: models, one policies.Seats for each of policies {list(self.policies)} "
                              f"(read where the names enter: policies.seats([name], {self.rules.players}))")
        for p, m in zip(self.policies, self.models):
            handed(m, self.rules.players, f"ReportContext(models=...) for {p}")

    def model(self, policy: str):
        """The play model named ``policy`` (as given, one of ``policies``), as it was read."""
        return self.models[self.policies.index(policy)]

    def canonical(self, policy: str) -> str:
        """``canonical`` from the models as read: each of ``policy``'s names (commas between) written out in full."""
        parts = [p.strip() for p in str(policy).split(",")]
        missing = [p for p in parts if p not in self.policies]
        if missing:
            raise ReportError(f"{', '.join(missing)}: not one of this report's play models {list(self.policies)}")
        return ",".join(self.model(p).names[0] for p in parts)

    def played(self, policy: str) -> str:
        """``played`` from the models as read; several models ("best, heuristic:human") each with its own
        definition beside it, not every name before every definition."""
        parts = [p.strip() for p in str(policy).split(",")]
        if len(parts) > 1:
            return ", ".join(self.played(p) for p in parts)
        full = self.canonical(policy)
        return policy if full == policy else f"{policy} = {full}"

    def hands_for(self, k: int) -> int:
        """Hands the k-th play model plays (the first plays ``hands``; slow ones fewer)."""
        if k == 0 or k - 1 >= len(self.model_hands):
            return self.hands
        return self.model_hands[k - 1]

    def caption(self, policy: str, hands: int, extra: str = "", intervals: bool = True) -> str:
        """A chart's caption: what played, on how many hands, seed and table; "95% intervals" only for a chart
        that draws them (``intervals``), else where they are (a call chart's words, a P(win) grid: issue 36,
        captions promised intervals no chart drew)."""
        s = f"policy {self.played(policy)} · {hands:,} hands · seed {self.seed} · {self.rules.players} players, " \
            f"{self.rules.deck} cards · " + (NOTED_INTERVALS if intervals else UNDRAWN_INTERVALS)
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
    """``job(i)`` for every chunk i (dicts of numpy arrays), each kept in a run folder once finished.

    The work runs on the one runner (run/jobs.py): ``OUT/_work/KEY`` is a
    run folder whose manifest is ``spec`` (JSON-able, what the chunks are),
    every chunk's arrays are kept with their checksum, and ``--resume``
    plays only the missing or damaged ones; a resumed run must ask for the
    same ``spec`` or it is an error (``--force`` starts the work afresh).
    The result is in chunk order, whatever order the chunks finish in.
    """
    from euchresim.run.jobs import run_job
    folder = ctx.path("_work", key)
    if ctx.progress:
        ctx.progress(label or key, 0, n_chunks)

    def on_chunk(done, total):
        sitting_seconds(ctx)                # a kill after this chunk loses none of this sitting's time
        if ctx.progress:
            ctx.progress(label or key, done, total)
    try:
        out = run_job(_ArraysJob(job, spec, n_chunks), workers=ctx.workers, folder=folder,
                      resume=ctx.resume and os.path.isdir(folder), force=ctx.force, on_chunk=on_chunk,
                      collect=("result",), backend=ctx.backend, address=ctx.address)
    except SimError as e:
        raise ReportError(str(e)) from None
    results = []
    for data in out.files["result"]:
        with np.load(io.BytesIO(data)) as z:
            results.append({k: z[k] for k in z.files})
    return results


class _ArraysJob(Job):
    """A report's piece of work as a job of the one runner: each chunk's arrays as one compressed .npz file.

    Compressed because a remake longer than a sitting carries its kept work
    in git from one sitting to the next (docs/reports.md): a targeted chunk's
    padded option arrays shrink about tenfold.  ``np.load`` reads either kind,
    so work kept before this still resumes.
    """

    def __init__(self, fn, spec: dict, n_chunks: int):
        self.fn, self.spec, self.n_chunks = fn, spec, n_chunks
        self.stop_label = "report chunk"

    def header(self) -> dict:
        return {"report_work": self.spec}

    def play(self, chunk: int) -> Played:
        buf = io.BytesIO()
        np.savez_compressed(buf, **self.fn(chunk))
        return Played({}, {"result": buf.getvalue()})


# the code whose change moves a report's numbers: the engine, the bots, the loops that play a chunk, the rules,
# and the report's own collecting of deals (report/calls, report/targeted, studies/counterfactual)
PLAY_CODE = ("cards.py", "rules.py", "engine", "policies", "loops", "studies/counterfactual.py", "report/paired_chunks.py",
             "report/targeted_cells.py")


def targeted_words(ctx) -> str:
    """How many targeted deals the main model played, as a report's head and headline lines say it."""
    if ctx.class_reached:
        from euchresim.report.targeted_cells import MAX_KEPT
        counted = "made trump in round one at the seat" if ctx.kind == "loner" else "reached the seat's call"
        return (f"targeted deals per seat and class, in batches until {ctx.class_reached:,} of them {counted} "
                f"(at most {MAX_KEPT * ctx.class_reached:,} kept)")
    return f"{ctx.class_deals:,} targeted deals per seat"


def code_fingerprint() -> str:
    """A hash of the source of ``PLAY_CODE``: a report made over several sittings must be made by one code.

    The order-up report of 2026-12-04 was made over four sittings while the
    targeted deals' code changed between them, and one of its headline cells
    did not replicate on fresh runs; a resume now refuses kept work that
    other code made (the engine's version alone did not move).
    """
    import hashlib
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    h = hashlib.sha256()
    for part in PLAY_CODE:
        path = os.path.join(root, part)
        files = [path] if path.endswith(".py") else sorted(
            os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs if f.endswith(".py"))
        for f in files:
            h.update(os.path.relpath(f, root).encode())
            with open(f, "rb") as fh:
                h.update(fh.read())
    return h.hexdigest()[:16]


def claim(ctx: ReportContext) -> None:
    """Say what this report is made from in ``OUT/_work/report.json``; a --resume must match it.

    Each piece of work is kept under a key of its own settings, so a resume
    with another seed (or hands, policies, rules) would find no kept work
    and silently start afresh: refused here, naming what differs.
    """
    want = {"kind": ctx.kind, "seed": ctx.seed, "hands": ctx.hands, "policies": list(ctx.policies),
            "model_hands": list(ctx.model_hands), "rules": ctx.rules.to_dict(), "chunk_size": ctx.chunk_size,
            "code": code_fingerprint()}
    if ctx.classes:             # only when targeted: an untargeted report's header names no classes
        want.update(classes=list(ctx.classes), **({"class_reached": ctx.class_reached} if ctx.class_reached
                                                   else {"class_deals": ctx.class_deals}))
    elif ctx.class_reached:     # win-probability: its own classes, targeted
        want.update(class_reached=ctx.class_reached)
    if ctx.defend_hands:        # likewise
        want.update(defend_hands=ctx.defend_hands)
    path = ctx.path("_work", "report.json")
    if ctx.resume and not ctx.force and os.path.exists(path):
        try:
            with open(path, encoding="utf-8") as fh:
                have = json.load(fh)
        except (OSError, ValueError) as e:
            raise ReportError(f"{path}: cannot read what the kept work was made from ({e}); use --force")
        diff = sorted(k for k in set(have) | set(want) if have.get(k) != want.get(k))
        if diff == ["code"]:
            raise ReportError(f"{ctx.out}: the kept work was made by other code (the engine, bots or loops "
                              f"changed: {have.get('code')} then, {want['code']} now), so its chunks and new ones "
                              "would not be one run; --force makes the report afresh")
        if diff:
            raise ReportError(f"{ctx.out}: the kept work was made with other {', '.join(diff)} "
                              f"({', '.join(f'{k} {have.get(k)}' for k in diff)}); --resume needs the same, "
                              "--force makes the report afresh")
    if not (ctx.resume and not ctx.force):
        _clear_work(ctx)
    write_atomic(path, json.dumps(want, indent=1).encode())
    kept = _sittings(ctx) if ctx.resume and not ctx.force else []
    _write_sittings(ctx, kept + [{"started": time.time(), "seconds": 0.0, "machine": machine(ctx)}])


def _clear_work(ctx: ReportContext) -> None:
    """A report begun afresh drops every piece of work kept before it, not only those it reaches.

    A piece is started afresh when the run reaches it, so a fresh run
    stopped early left the pieces it had not reached yet as an older run
    (maybe an older code) made them, under today's ``report.json``; a later
    ``--resume`` took them as its own and mixed two codes' chunks.
    """
    import shutil
    work = ctx.path("_work")
    if not os.path.isdir(work):
        return
    for name in os.listdir(work):
        p = os.path.join(work, name)
        if os.path.isdir(p) and not os.path.islink(p):
            shutil.rmtree(p)
        else:
            os.remove(p)


def _sittings(ctx: ReportContext) -> list:
    """The sittings of the kept work (``OUT/_work/sittings.json``): when each began and its seconds so far."""
    try:
        with open(ctx.path("_work", "sittings.json"), encoding="utf-8") as fh:
            return list(json.load(fh)["sittings"])
    except (OSError, ValueError, KeyError, TypeError):
        return []


def _write_sittings(ctx: ReportContext, sittings: list) -> None:
    write_atomic(ctx.path("_work", "sittings.json"), json.dumps({"sittings": sittings}, indent=1).encode())


def sitting_seconds(ctx: ReportContext) -> tuple[float, int]:
    """The report's run time over every sitting, and how many: a report resumed over days says all it took.

    The current sitting's time is brought up to now and kept, so a stop or a
    kill loses at most the time since the last finished chunk.  (0, 0) when
    the report was not claimed (its work not kept).
    """
    sittings = _sittings(ctx)
    if not sittings:
        return 0.0, 0
    sittings[-1]["seconds"] = round(time.time() - float(sittings[-1]["started"]), 1)
    _write_sittings(ctx, sittings)
    return round(sum(float(s["seconds"]) for s in sittings), 1), len(sittings)


NOT_RECORDED = "a machine not recorded"


def sitting_machines(ctx: ReportContext) -> list[str]:
    """The machine of each sitting, in order: a report resumed on another machine (the order-up remake ran on an
    AMD EPYC, then an Intel Xeon) names both, where the last alone made its run time unreadable.  A sitting kept
    before the machine was recorded says so."""
    return [str(s.get("machine", NOT_RECORDED)) for s in _sittings(ctx)]


def machines_words(meta: dict) -> str:
    """What meta.json says the report ran on: its one machine, or each machine in the order its sittings ran."""
    seen = list(dict.fromkeys(meta.get("sitting_machines") or [meta.get("machine", NOT_RECORDED)]))
    return " — then ".join(seen)


def write_atomic(path: str, data: bytes) -> None:
    """Under a temporary name, then renamed: a stop never leaves half a file under the real name."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
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


def machine(ctx: ReportContext) -> str:
    """On what the report ran, so its run time can be read: the host's cores and system, the workers, the backend."""
    where = ctx.backend + (f" at {ctx.address}" if ctx.address else "")
    return (f"{os.cpu_count()} cores ({_cpu_model()}), {platform.system()} {platform.machine()}; "
            f"{ctx.workers} worker{'s' if ctx.workers != 1 else ''}, {where} backend")


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "CPU model not known"


def strength_models(ctx: ReportContext) -> list[str]:
    """The models whose strength a report's head states: its main model (the first); in decks every model, since
    its findings give each model's rates and a guide quotes the strongest's (best's at 4,500 hands a variant), not
    the first's (heuristic's, the many hands behind the finer statistics)."""
    return list(ctx.policies) if ctx.kind == "decks" else list(ctx.policies[:1])


def write_section(ctx: ReportContext, section: Section, started: float) -> dict:
    """README.md, the CSV tables and meta.json in ``ctx.out``; the charts are already there."""
    os.makedirs(ctx.out, exist_ok=True)
    seconds, sittings = sitting_seconds(ctx)
    if not sittings:                         # not claimed: this call's own time
        seconds, sittings = round(time.time() - started, 1), 1
    for name, df in section.tables.items():
        write_atomic(ctx.path(f"{name}.csv"), df.to_csv(index=False).encode())
    meta = {
        "report": ctx.kind, "command": ctx.command, "seed": ctx.seed, "hands": ctx.hands,
        "model_hands": list(ctx.model_hands), "policies": list(ctx.policies),
        "played": {p: ctx.canonical(p) for p in ctx.policies}, "rules": ctx.rules.to_dict(),
        "euchresim": __version__, "engine_version": ENGINE_VERSION,
        "python": platform.python_version(), "numpy": np.__version__,
        "run_seconds": seconds, "sittings": sittings, "machine": machine(ctx),
        **({"sitting_machines": sitting_machines(ctx)} if sittings > 1 else {}),
        "tables": sorted(f"{n}.csv" for n in section.tables),
        "charts": sorted(os.path.relpath(p, ctx.out) for p in section.charts.values()),
    }
    if ctx.classes:
        meta.update(classes=list(ctx.classes), **({"class_reached": ctx.class_reached} if ctx.class_reached
                                                   else {"class_deals": ctx.class_deals}))
    elif ctx.class_reached:
        meta.update(class_reached=ctx.class_reached)
    if ctx.defend_hands:
        meta.update(defend_hands=ctx.defend_hands)
    write_atomic(ctx.path("meta.json"), (json.dumps(meta, indent=2) + "\n").encode())
    from euchresim.report.strength import strength_text
    head = (f"# {section.title}\n\n"
            f"Made by `{ctx.command}` (euchresim {__version__}, engine {ENGINE_VERSION}; seed {ctx.seed}; "
            f"{ctx.hands:,} hands for {ctx.policies[0]}"
            + "".join(f", {ctx.hands_for(k):,} for {p}" for k, p in enumerate(ctx.policies) if k)
            + (f"; {targeted_words(ctx)} for {ctx.policies[0]}, round one, hands "
               f"{', '.join(ctx.classes)}" if ctx.classes else
               f"; {targeted_words(ctx)} for {ctx.policies[0]}'s order-or-pass classes" if ctx.class_reached else "")
            + (f"; {ctx.defend_hands:,} hands for {ctx.policies[0]}'s defenders" if ctx.defend_hands else "")
            + f"; {seconds} s" + (f" over {sittings} sittings, resumed from the kept work" if sittings > 1 else "")
            + "). Every figure names the policy that played its hands and "
              "carries a 95% interval."
            + "".join(f" `{p}` is `{ctx.canonical(p)}`." for p in ctx.policies if ctx.canonical(p) != p)
            + "".join(" " + strength_text(ctx.canonical(p), p) for p in strength_models(ctx)) + "\n\n")
    write_atomic(ctx.path("README.md"), (head + section.text.rstrip() + "\n").encode())
    return meta
