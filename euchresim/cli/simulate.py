"""``euchresim simulate``: play many hands, games or rubbers and print how they went."""
from __future__ import annotations

import functools
import os
import signal
import sys
import time

import click
from click.core import ParameterSource

from euchresim.cli.options import (MAX_COUNT, InputError, backend_options, check_backend, check_outputs, os_error, policy_names, read_seats, start_score_option,
                                   rules_options, say_if_compiling, terminate)
from euchresim.run.files import JSONL, PARQUET
from euchresim.run.progress import ChunkBar


@click.command()
@rules_options
@click.option("--hands", type=click.IntRange(min=1, max=MAX_COUNT), help="Play N independent hands [default: 1000000].")
@click.option("--games", type=click.IntRange(min=1, max=MAX_COUNT), help="Play N whole games to the target (R12).")
@click.option("--rubbers", type=click.IntRange(min=1, max=MAX_COUNT),
              help="Play N rubbers, best of three games (R13, 4 players).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="One seed (a whole number >= 0) fixes every number.")
@click.option("--policy", "policy", multiple=True, metavar="NAME[,NAME...]",
              help="random, baseline, heuristic (default), pimc, dd (sees every hand: cheats), best (the strongest "
                   "fair bot), "
                   "NAME:KEY=VALUE[:KEY=VALUE], NAME:FILE.json, or your MODULE:FUNCTION (docs/policies.md); "
                   "one for all seats, or one per seat (repeat or comma-separate).")
@click.option("--workers", type=click.IntRange(min=1, max=256), help="Processes [default: all cores].")
@click.option("--chunk-size", type=click.IntRange(min=1),
              help="Hands (games, rubbers) per chunk; part of what a seed means.")
@click.option("--out", help="Write one row per hand to NAME.parquet, a folder of one Parquet file per chunk "
                            "that pandas.read_parquet reads as one table (docs/schema.md).")
@click.option("--records", help="Write every hand as a hand record to FILE.jsonl, or - for standard output "
                                "(docs/hand-record.md).")
@click.option("--checkpoint", metavar="DIR", help="Keep each finished chunk's tally in DIR, so a run that writes "
                                                  "no rows can be resumed too.")
@click.option("--resume", is_flag=True, help="Continue a stopped run that wrote --out/--records/--checkpoint.")
@click.option("--force", is_flag=True, help="Overwrite existing output files (and an unfinished run's parts).")
@click.option("--group", "groups", multiple=True, metavar="FEATURE[,FEATURE...]",
              help="Also tally the hands by these features and print a table a cell (repeat for more tables; "
                   "features in docs/aggregates.md), e.g. --group maker_pos,maker_trumps.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar and no closing line (as when not on a terminal).")
@backend_options
@click.option("--check-policy", is_flag=True, help="Build your own policies with bounds checks: an index out of "
                                                   "range is one line, not a crash (slower; same numbers).")
@start_score_option
def simulate(rules, hands, games, rubbers, seed, policy, workers, chunk_size, out, records, checkpoint, resume,
             force, groups, as_json, quiet, backend, address, check_policy, start_score):
    """Play many hands (or games, or rubbers) and print how they went.

    The summary table is explained row by row in docs/summary.md.  With
    --records - the records go to standard output and the summary to
    standard error.

    \b
    Examples:
        euchresim simulate --hands 1000000
        euchresim simulate --players 3 --deck 25 --policy baseline --hands 200000 --json
        euchresim simulate --games 10000 --game-to 5 --policy baseline,random,baseline,random --out games.parquet
        euchresim simulate --hands 100 --records - --json
    """
    given = [(m, v) for m, v in (("hands", hands), ("games", games), ("rubbers", rubbers)) if v]
    if len(given) > 1:
        raise InputError("give only one of --hands, --games, --rubbers")
    mode, count = given[0] if given else ("hands", 1_000_000)
    _warn_unused(mode)
    check_outputs([("--out", out, PARQUET, "a Parquet dataset", False, True),
                    ("--records", records, JSONL, "hand records", True, False),
                    ("--checkpoint", checkpoint, (), "a checkpoint", False, True)], force,
                  own=_resumed_records(out, records) if resume else ())
    from euchresim.run import jobs, runner
    outputs = runner.Outputs(parquet=out, records=records, checkpoint=checkpoint)   # one run folder holds all
    try:
        outputs.check(resume)       # the library's own checks: a caller of runner.run gets the same
    except runner.SimError as e:
        raise InputError(str(e)) from None
    backend = check_backend(backend, address)
    for path in (out, checkpoint):
        if path and force and os.path.isfile(path):
            os.remove(path)          # --force: a file where the folder goes is replaced

    from euchresim.analysis.run_text import stopped_line, summary_text
    from euchresim.policies import PolicyError
    try:
        table = read_seats(policy_names(policy), rules.players, check=check_policy)      # read once, here
        spec = runner.RunSpec(rules=rules, policies=table, seed=seed, mode=mode, count=count,
                           chunk_size=chunk_size or 0, groups=tuple(groups), start_score=start_score)
    except (PolicyError, runner.SimError, ValueError) as e:
        raise InputError(str(e)) from None
    echo = functools.partial(click.echo, err=records == "-")
    quiet = quiet or as_json
    progress = ChunkBar(spec.count, spec.chunk_size, spec.mode[:-1], quiet)
    previous = signal.signal(signal.SIGTERM, terminate)
    started = time.monotonic()
    try:
        counts = runner.run(spec, workers=workers, outputs=outputs, resume=resume, force=force, on_chunk=progress,
                         stdout=sys.stdout, backend=backend, address=address,
                         before_play=lambda: say_if_compiling(quiet))   # once the run folder is accepted
    except runner.SimError as e:
        raise InputError(str(e)) from None
    except OSError as e:
        kept = f"; the finished chunks are kept in {outputs.parts_dir}: rerun with --resume" \
            if outputs.parts_dir and os.path.isdir(outputs.parts_dir) else ""
        raise InputError(os_error(e) + kept) from None
    except jobs.RunStopped as e:
        progress.close()
        click.echo(stopped_line(e), err=True)
        if e.partial:
            echo(summary_text(spec, e.partial, outputs, as_json, partial=True))
        sys.exit(130)
    finally:
        progress.close()
        signal.signal(signal.SIGTERM, previous)
    echo(summary_text(spec, counts, outputs, as_json))
    if not quiet:
        wrote = [p for p in (outputs.parquet, outputs.records_file) if p]
        click.echo(f"done: {counts.get(spec.mode, 0):,} {spec.mode} in {time.monotonic() - started:.1f} s"
                   + (f"; wrote {' and '.join(wrote)}" if wrote else ""), err=True)


def _warn_unused(mode):
    """An option given on the command line that cannot change this run: say so, once."""
    ctx = click.get_current_context()
    given = lambda name: ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE   # noqa: E731
    if mode == "hands":
        for name in ("game_to", "cutthroat_tie"):
            if given(name):
                flag = "--" + name.replace("_", "-")
                click.echo(f"warning: {flag} has no effect with --hands (independent hands are not played "
                           "to a target); use --games or --rubbers", err=True)


def _resumed_records(out, records) -> tuple:
    """``records`` when it is the file the finished run in ``out`` joined its records into: a resume may
    cut it back into its chunks (a lost Parquet chunk played again) and join them anew."""
    from euchresim.run import folder
    from euchresim.run.files import file_id
    if not out or not records or records == "-" or not os.path.isdir(out):
        return ()
    joined = folder.joined_file(out, "records")
    return (records,) if joined and os.path.exists(records) and file_id(joined) == file_id(records) else ()
