"""What ``euchresim simulate`` prints about a run, as text a library caller gets too.

A script that plays a ``RunSpec`` through ``runner.run`` and wants the
command's report calls these: the header line, the rule changes, the
summary table and each grouped table (or the one JSON object of
``--json``), and the line a stopped run ends with.  The CLI only echoes
them, so the two never drift apart.
"""
from __future__ import annotations

import json

from euchresim.analysis import format_summary, json_ready, summary_frame


def summary_text(spec, counts: dict, outputs=None, as_json: bool = False, partial: bool = False) -> str:
    """The run's report: ``counts`` (``runner.run``'s tallies, or a stopped run's ``partial``) of ``spec``;
    ``outputs`` (``runner.Outputs``) adds the "wrote" lines of a finished run's files."""
    m = spec.meta()
    df = summary_frame(counts, spec.rules.players, m["policies"],
                       lone_defenders=spec.rules.players == 3 or spec.rules.defend_alone)
    tables = []
    if spec.groups:
        from euchresim.analysis.aggregates import group_frame
        tables = [(g, group_frame(counts, g, spec.rules.players)) for g in spec.groups]
    if as_json:
        out = {"meta": m, "partial": partial, "counts": {k: v for k, v in counts.items() if k != "groups"},
               "summary": df.to_dict(orient="records")}
        if tables:
            out["groups"] = [{"grouping": list(g), "cells": t.astype({f: str for f in g}).to_dict(orient="records")}
                             for g, t in tables]
        return json.dumps(json_ready(out), allow_nan=False)
    played = counts.get(spec.mode, 0)
    lines = [f"euchresim {m['euchresim']} (engine {m['engine_version']})  players {spec.rules.players}  "
             f"deck {spec.rules.deck}  {spec.mode} {played}  seed {spec.seed}  "
             f"policies {','.join(m['policies'])}"
             + (f"  PARTIAL: {played:,} of {spec.count:,} {spec.mode}, the run was stopped" if partial else "")]
    changed = spec.rules.changed()
    if changed:
        lines.append("rules: " + ", ".join(f"{k}={v}" if k != "scoring" else "scoring=custom"
                                           for k, v in changed.items()))
    lines.append(format_summary(df))
    if tables:
        from euchresim.analysis.aggregates import format_group_frame
        for g, t in tables:
            lines += [f"\nby {', '.join(g)} ({spec.mode} {played})", format_group_frame(t, g)]
    if outputs is not None and not partial:
        lines += [f"wrote {p}" for p in (outputs.parquet, outputs.records_file) if p]
    return "\n".join(lines)


def stopped_line(stop, unit: str = "chunks") -> str:
    """The line a stopped run ends with (``jobs.RunStopped``): how far it got, in ``unit``, and where its work is
    kept (simulate, duel, ladder, replay and solve end with it alike)."""
    where = (f", kept in {stop.parts_dir}; rerun the same command with --resume to finish"
             if stop.parts_dir else "")
    return f"stopped: {stop.done} of {stop.total} {unit} finished{where}"
