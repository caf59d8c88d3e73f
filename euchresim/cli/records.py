"""``euchresim replay`` and ``euchresim solve``: a file of hand records in, the same records out, checked or solved."""
from __future__ import annotations

import sys

import click

from euchresim.cli.options import InputError, check_outputs
from euchresim.run.progress import count_lines, progress_bar
from euchresim.run.files import JSONL


def _file_options(what: str):
    """The arguments and options replay and solve share (``what``: how the output's records differ)."""
    def add(f):
        for option in reversed([
            click.argument("src", type=click.Path(dir_okay=False, allow_dash=True)),
            click.option("-o", "--output", "dst", default="-", show_default=True,
                         help=f"Where to write the {what} records: FILE.jsonl, or - for standard output."),
            click.option("--force", is_flag=True, help="Overwrite an existing output file."),
            click.option("--quiet", "-q", is_flag=True, help="No progress bar (as when not on a terminal)."),
            click.option("--workers", type=click.IntRange(min=1, max=256), default=1, show_default=True,
                         help="Processes for a file's blocks of records (standard input is read by one)."),
            click.option("--resume", is_flag=True, help="Continue a stopped run from the blocks kept in OUTPUT.parts/."),
        ]):
            f = option(f)
        return f
    return add


@click.command()
@_file_options("checked")
def replay(src, dst, force, quiet, workers, resume):
    """Check every hand record in SRC and write it back with its outcome.

    Each record is played through the rules step by step. A broken record
    is written back with an `error` naming the step and the rule id; a
    record whose stated outcome (maker, trump, tricks, points...) differs
    from the replay's gets the replay's outcome and a `mismatch` object;
    the others go on. Exit status 1 if any record was broken or differed.
    See docs/hand-record.md.

    \b
    Example:
        euchresim replay hands.jsonl -o checked.jsonl
    """
    from euchresim.studies.replay_file import replay_file
    found, more = _records_command(src, dst, force, quiet, replay_file, workers, resume)
    click.echo(f"{found.records} records replayed: {found.broken} broken, {found.differ} whose outcome "
               f"differs from the record{more(found.broken)}", err=True)
    if found.broken or found.differ:
        sys.exit(1)


def _records_command(src, dst, force, quiet, file_fn, workers=1, resume=False):
    """What ``replay`` and ``solve`` share: the paths checked, the file run with a bar, the findings shown.

    Returns the file's summary and ``more(errors)``: the summary line's
    note that only the first findings of each kind were shown.
    """
    from euchresim.run.files import OutputPathError, check_distinct
    try:      # the files themselves, not their names: a hard link, or `- < X` with -o X, is one file
        check_distinct([("SRC", src), ("-o", dst)], streams={"SRC": sys.stdin, "-o": sys.stdout})
    except OutputPathError as e:
        raise InputError(str(e).replace("one would be lost", "reading and writing it at once would lose it"))
    check_outputs([("-o", dst, JSONL, "hand records", True)], force)
    from euchresim.records.format import RecordError
    from euchresim.studies.record_files import SHOWN
    source = getattr(sys.stdin, "buffer", sys.stdin) if src == "-" else src   # bytes, so binary is told apart
    name = "<stdin>" if src == "-" else src
    bar = progress_bar(None if src == "-" else count_lines(src), "record", quiet)
    from euchresim.run.errors import SimError
    from euchresim.run.jobs import RunStopped
    if src == "-" and (resume or workers > 1):
        raise InputError("--workers and --resume need SRC to be a file; standard input is read once, in order")
    run_options = {} if src == "-" else {"workers": workers, "resume": resume, "force": force}
    try:
        found = file_fn(source, sys.stdout if dst == "-" else dst, name,
                        on_batch=(lambda n: bar.update(min(n, bar.total or n) - bar.n)) if bar else None,
                        **run_options)
    except (RecordError, SimError) as e:
        raise InputError(str(e)) from None
    except RunStopped as stop:
        from euchresim.analysis.run_text import stopped_line
        click.echo(stopped_line(stop, "blocks of records"), err=True)
        sys.exit(130)
    finally:
        if bar:
            bar.close()
    for line in found.lines:
        click.echo(f"{name}: {line}", err=True)

    def more(errors):
        return " (the first %d of each kind shown)" % SHOWN if max(errors, found.differ) > SHOWN else ""
    return found, more


@click.command()
@_file_options("solved")
def solve(src, dst, force, quiet, workers, resume):
    """Write every hand record in SRC back with its double-dummy values.

    Each record is replayed as `replay` does it, to where its plays stop
    (a record cut inside the play is a hand in progress), and solved with
    every card seen and every seat playing perfectly: `dd_tricks` is the
    makers' tricks, `dd_card_values` each legal card of the seat to play
    and the makers' tricks after it. A record that fixes no trump or
    breaks a rule gets an `error`; the others go on. Exit status 1 if any
    record had an error or stated an outcome that differs. See
    docs/hand-record.md.

    \b
    Example:
        euchresim solve hands.jsonl -o solved.jsonl
    """
    from euchresim.studies.solve import solve_file
    found, more = _records_command(src, dst, force, quiet, solve_file, workers, resume)
    click.echo(f"{found.records} records: {found.solved} solved, {found.failed} with an error, {found.differ} "
               f"whose outcome differs from the record{more(found.failed)}", err=True)
    if found.failed or found.differ:
        sys.exit(1)
