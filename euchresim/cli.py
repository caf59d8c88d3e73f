"""The ``euchresim`` command: a thin shell over the library.

Heavy modules (numba, pandas, pyarrow) are imported inside each command so
``euchresim --help`` is instant.  Every input error ends as one line on
stderr and a non-zero exit, never a traceback.
"""
from __future__ import annotations

import functools
import json
import os
import signal
import sys
import time

import click
from click.core import ParameterSource

from .outpaths import JSONL, PARQUET

from .rules import (BOTH_ALONE_LEAD_CHOICES, CUTTHROAT_TIE_CHOICES, JOKER_UPCARD_CHOICES,
                    Rules, RulesError, ScoringTable)


MAX_COUNT = 10 ** 15     # hands, games or rubbers in one run: far past any machine, inside int64


class InputError(click.ClickException):
    """One line, exit status 1 (2 is click's own usage errors)."""


def rules_options(f):
    """Every rule option of docs/rules.md as a flag; builds a ``Rules`` value."""
    @click.option("--players", type=click.Choice(["2", "3", "4"]), default="4", show_default=True,
                  help="2-hand, 3-hand Cutthroat (with dummy) or 4-hand partnership (R3).")
    @click.option("--deck", type=click.Choice(["24", "25", "32", "33"]), default="24", show_default=True,
                  help="Pack: 24 (9-A), 25 (+joker), 32 (7-A), 33 (+joker) (R1).")
    @click.option("--stick-the-dealer/--no-stick-the-dealer", default=False,
                  help="The dealer may not pass in round two (R6).")
    @click.option("--defend-alone/--no-defend-alone", default=False,
                  help="After a loner one defender may go alone too; 4 players only (R8).")
    @click.option("--joker-upcard", type=click.Choice(JOKER_UPCARD_CHOICES, case_sensitive=False),
                  default="dealer-names", show_default=True, help="What a joker upcard means (R7).")
    @click.option("--both-alone-lead", type=click.Choice(BOTH_ALONE_LEAD_CHOICES, case_sensitive=False), default="defender",
                  show_default=True, help="Cutthroat: who leads when maker and a defender are alone (R10).")
    @click.option("--game-to", type=click.Choice(["5", "7", "10"]), default="10", show_default=True,
                  help="Game target (R12).")
    @click.option("--cutthroat-tie", type=click.Choice(CUTTHROAT_TIE_CHOICES, case_sensitive=False), default="maker",
                  show_default=True, help="Cutthroat: who wins when two reach the target at once (R12).")
    @click.option("--scoring", "scoring_file", metavar="FILE",
                  help="JSON file of R11 scoring-table overrides (docs/rules.md).")
    @functools.wraps(f)
    def wrapper(*args, players, deck, stick_the_dealer, defend_alone, joker_upcard, both_alone_lead,
                game_to, cutthroat_tie, scoring_file, **kw):
        try:
            scoring = ScoringTable.from_json_file(scoring_file) if scoring_file else ScoringTable()
            rules = Rules(players=int(players), deck=int(deck), stick_the_dealer=stick_the_dealer,
                          defend_alone=defend_alone, joker_upcard=joker_upcard,
                          both_alone_lead=both_alone_lead, game_to=int(game_to),
                          cutthroat_tie=cutthroat_tie, scoring=scoring)
        except RulesError as e:
            raise InputError(str(e)) from None
        return f(*args, rules=rules, **kw)
    return wrapper


# the strongest policy that plays a default run (a million hands) in minutes on a laptop
# (docs/policies.md, "Which is stronger"); pimc is stronger, at thousands of decisions a second
DEFAULT_POLICY = "heuristic"


def _policy_names(values) -> list[str]:
    names: list[str] = []
    for v in values or (DEFAULT_POLICY,):
        names.extend(p.strip() for p in v.split(","))
    return names


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="euchresim")
def cli():
    """Euchre strategy by Monte Carlo simulation.

    \b
    Example:
        euchresim simulate --hands 1000000
    """


@cli.command()
@rules_options
@click.option("--hands", type=click.IntRange(min=1, max=MAX_COUNT), help="Play N independent hands [default: 1000000].")
@click.option("--games", type=click.IntRange(min=1, max=MAX_COUNT), help="Play N whole games to the target (R12).")
@click.option("--rubbers", type=click.IntRange(min=1, max=MAX_COUNT),
              help="Play N rubbers, best of three games (R13, 4 players).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="One seed (a whole number >= 0) fixes every number.")
@click.option("--policy", "policy", multiple=True, metavar="NAME[,NAME...]",
              help="random, baseline, heuristic (default), pimc, dd (sees every hand: cheats), "
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
@click.option("--backend", type=click.Choice(["local", "ray"], case_sensitive=False), default="local",
              show_default=True, help="Where chunks run: this machine's processes, or a Ray cluster "
                                      "(pip install 'euchresim[ray]'; docs/scaling.md).")
@click.option("--address", help="--backend ray: the cluster's address [default: a local Ray instance].")
def simulate(rules, hands, games, rubbers, seed, policy, workers, chunk_size, out, records, checkpoint, resume,
             force, groups, as_json, quiet, backend, address):
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
    _warn_unused(mode, rules, resume, out or records or checkpoint)
    _check_outputs([("--out", out, PARQUET, "a Parquet dataset", False, True),
                    ("--records", records, JSONL, "hand records", True, False),
                    ("--checkpoint", checkpoint, (), "a checkpoint", False, True)], force)
    if resume and records == "-":
        raise InputError("--resume cannot continue records sent to standard output; write them to a file")
    if checkpoint and (out or (records and records != "-")):
        raise InputError("--checkpoint is for runs that write no files; --out and --records keep their own")
    if address and backend != "ray":
        raise InputError("--address names a Ray cluster; add --backend ray")
    for path in (out, checkpoint):
        if path and force and os.path.isfile(path):
            os.remove(path)          # --force: a file where the folder goes is replaced

    from . import sim
    from .analysis import format_summary, summary_frame
    from .policies import PolicyError, resolve
    try:
        _, _, names = resolve(_policy_names(policy), rules.players)
        spec = sim.RunSpec(rules=rules, policies=tuple(names), seed=seed, mode=mode, count=count,
                           chunk_size=chunk_size or 0, groups=tuple(groups))
    except (PolicyError, sim.SimError, ValueError) as e:
        raise InputError(str(e)) from None
    outputs = sim.Outputs(parquet=out, records=records, checkpoint=checkpoint)   # one run folder holds all
    echo = functools.partial(click.echo, err=records == "-")
    quiet = quiet or as_json
    _say_if_compiling(quiet)
    progress = _Progress(spec, quiet)
    previous = signal.signal(signal.SIGTERM, _terminate)
    started = time.monotonic()
    try:
        counts = sim.run(spec, workers=workers, outputs=outputs, resume=resume, force=force, on_chunk=progress,
                         stdout=sys.stdout, backend=backend.lower(), address=address)
    except sim.SimError as e:
        raise InputError(str(e)) from None
    except OSError as e:
        kept = f"; the finished chunks are kept in {outputs.parts_dir}: rerun with --resume" \
            if outputs.parts_dir and os.path.isdir(outputs.parts_dir) else ""
        raise InputError(_os_error(e) + kept) from None
    except sim.RunStopped as e:
        progress.close()
        _stopped(spec, outputs, e, as_json, echo)
        sys.exit(130)
    finally:
        progress.close()
        signal.signal(signal.SIGTERM, previous)
    _print_summary(spec, counts, as_json, summary_frame, format_summary, outputs, echo)
    if not quiet:
        wrote = [p for p in (outputs.parquet, outputs.records_file) if p]
        click.echo(f"done: {counts.get(spec.mode, 0):,} {spec.mode} in {time.monotonic() - started:.1f} s"
                   + (f"; wrote {' and '.join(wrote)}" if wrote else ""), err=True)


def _terminate(signum, frame):
    """SIGTERM stops a run as Ctrl-C does: finished chunks kept, nothing half-written counted."""
    raise KeyboardInterrupt


def _os_error(e: OSError) -> str:
    where = e.filename or ""
    return f"{where}: {e.strerror}" if where else str(e.strerror or e)


def _check_outputs(outputs, force):
    """Every output named on the command line, checked before anything runs (outpaths.py)."""
    from .outpaths import OutputPathError, check_distinct, check_output
    try:
        for option, path, suffixes, what, dash_ok, *folder in outputs:
            if path is not None:
                check_output(path, option, suffixes, what, force, dash_ok, *folder)
        check_distinct([(option, path) for option, path, *_ in outputs])
    except OutputPathError as e:
        raise InputError(str(e)) from None


def _warn_unused(mode, rules, resume, writes):
    """An option given on the command line that cannot change this run: say so, once."""
    ctx = click.get_current_context()
    given = lambda name: ctx.get_parameter_source(name) == ParameterSource.COMMANDLINE   # noqa: E731
    if mode == "hands":
        for name in ("game_to", "cutthroat_tie"):
            if given(name):
                flag = "--" + name.replace("_", "-")
                click.echo(f"warning: {flag} has no effect with --hands (independent hands are not played "
                           "to a target); use --games or --rubbers", err=True)
    if resume and not writes:
        click.echo("warning: --resume has no effect without --out, --records or --checkpoint (nothing was kept "
                   "to resume)", err=True)


def _say_if_compiling(quiet):
    from .engine import kernels_cached
    if not quiet and not kernels_cached() and sys.stderr.isatty():
        click.echo("compiling kernels, first run only (about 20-30 s)...", err=True)


def _bar(total, unit, quiet):
    """A tqdm bar on a terminal (rate, time left when the total is known), else None."""
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm
    return tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr, dynamic_ncols=True, leave=False)


def _count_lines(path):
    """Lines of a file, for a bar's total: a fast pass over the bytes, None if unreadable."""
    try:
        with open(path, "rb") as fh:
            return sum(block.count(b"\n") for block in iter(lambda: fh.read(1 << 20), b""))
    except OSError:
        return None


class _Progress:
    """A bar on a terminal (hands, games or rubbers a second, time left); silent anywhere else."""

    def __init__(self, spec, quiet):
        self.spec, self.bar = spec, _bar(spec.count, spec.mode[:-1], quiet)

    def __call__(self, done, total):
        if self.bar is not None:       # chunks are the same size but the last: near enough until the end
            self.bar.update(min(done * self.spec.chunk_size, self.spec.count) - self.bar.n)

    def close(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None


def _print_summary(spec, counts, as_json, summary_frame, format_summary, outputs, echo, partial=False):
    from .analysis import json_ready
    m = spec.meta()
    df = summary_frame(counts, spec.rules.players, m["policies"],
                       lone_defenders=spec.rules.players == 3 or spec.rules.defend_alone)
    tables = []
    if spec.groups:
        from .analysis.aggregates import format_group_frame, group_frame
        tables = [(g, group_frame(counts, g, spec.rules.players)) for g in spec.groups]
    if as_json:
        out = {"meta": m, "partial": partial, "counts": {k: v for k, v in counts.items() if k != "groups"},
               "summary": df.to_dict(orient="records")}
        if tables:
            out["groups"] = [{"grouping": list(g), "cells": t.astype({f: str for f in g}).to_dict(orient="records")}
                             for g, t in tables]
        echo(json.dumps(json_ready(out), allow_nan=False))
        return
    played = counts.get(spec.mode, 0)
    echo(f"euchresim {m['euchresim']} (engine {m['engine_version']})  players {spec.rules.players}  "
         f"deck {spec.rules.deck}  {spec.mode} {played}  seed {spec.seed}  "
         f"policies {','.join(m['policies'])}")
    changed = spec.rules.changed()
    if changed:
        echo("rules: " + ", ".join(f"{k}={v}" if k != "scoring" else "scoring=custom" for k, v in changed.items()))
    echo(format_summary(df))
    for g, t in tables:
        echo(f"\nby {', '.join(g)} ({spec.mode} {played})")
        echo(format_group_frame(t, g))
    if outputs.parquet and not partial:
        echo(f"wrote {outputs.parquet}")
    if outputs.records_file and not partial:
        echo(f"wrote {outputs.records_file}")


def _stopped(spec, outputs, stop, as_json, echo):
    from .analysis import format_summary, summary_frame
    where = ""
    if stop.parts_dir:
        where = f", kept in {stop.parts_dir}; rerun the same command with --resume to finish"
    click.echo(f"stopped: {stop.done} of {stop.total} chunks finished{where}", err=True)
    if stop.partial:
        _print_summary(spec, stop.partial, as_json, summary_frame, format_summary, outputs, echo, partial=True)


@cli.command()
@click.argument("src", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", "dst", default="-", show_default=True,
              help="Where to write the checked records: FILE.jsonl, or - for standard output.")
@click.option("--force", is_flag=True, help="Overwrite an existing output file.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar (as when not on a terminal).")
def replay(src, dst, force, quiet):
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
    from .replay import replay_file
    found, more = _records_command(src, dst, force, quiet, replay_file)
    click.echo(f"{found.records} records replayed: {found.broken} broken, {found.differ} whose outcome "
               f"differs from the record{more(found.broken)}", err=True)
    if found.broken or found.differ:
        sys.exit(1)


def _records_command(src, dst, force, quiet, file_fn):
    """What ``replay`` and ``solve`` share: the paths checked, the file run with a bar, the findings shown.

    Returns the file's summary and ``more(errors)``: the summary line's
    note that only the first findings of each kind were shown.
    """
    if src != "-":
        from .outpaths import OutputPathError, check_distinct
        try:
            check_distinct([("SRC", src), ("-o", dst)])
        except OutputPathError as e:
            raise InputError(str(e).replace("one would be lost", "reading and writing it at once would lose it"))
    _check_outputs([("-o", dst, JSONL, "hand records", True)], force)
    from .records import RecordError
    from .replay import SHOWN
    source = getattr(sys.stdin, "buffer", sys.stdin) if src == "-" else src   # bytes, so binary is told apart
    name = "<stdin>" if src == "-" else src
    bar = _bar(None if src == "-" else _count_lines(src), "record", quiet)
    try:
        found = file_fn(source, sys.stdout if dst == "-" else dst, name,
                        on_batch=(lambda n: bar.update(n - bar.n)) if bar else None)
    except RecordError as e:
        raise InputError(str(e)) from None
    finally:
        if bar:
            bar.close()
    for line in found.lines:
        click.echo(f"{name}: {line}", err=True)

    def more(errors):
        return " (the first %d of each kind shown)" % SHOWN if max(errors, found.differ) > SHOWN else ""
    return found, more


@cli.command()
@click.argument("src", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", "dst", default="-", show_default=True,
              help="Where to write the solved records: FILE.jsonl, or - for standard output.")
@click.option("--force", is_flag=True, help="Overwrite an existing output file.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar (as when not on a terminal).")
def solve(src, dst, force, quiet):
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
    from .solve import solve_file
    found, more = _records_command(src, dst, force, quiet, solve_file)
    click.echo(f"{found.records} records: {found.solved} solved, {found.failed} with an error, {found.differ} "
               f"whose outcome differs from the record{more(found.failed)}", err=True)
    if found.failed or found.differ:
        sys.exit(1)


@cli.command()
@click.option("--hands", type=click.IntRange(min=1000), default=400_000, show_default=True,
              help="Hands per measurement, per worker.")
@click.option("--players", "players_", type=click.Choice(["2", "3", "4"]), multiple=True,
              help="Only these player counts (repeat) [default: all].")
@click.option("--deck", "decks", type=click.Choice(["24", "25", "32", "33"]), multiple=True,
              help="Only these packs (repeat) [default: all].")
@click.option("--policy", "policies", type=click.Choice(["random", "baseline", "heuristic"]), multiple=True,
              help="Only these policies [default: random and baseline].")
@click.option("--workers", type=click.IntRange(min=1), help="The 'all cores' figure's processes [default: all cores].")
@click.option("--repeat", type=click.IntRange(min=1), default=3, show_default=True,
              help="Runs per measurement; the fastest counts.")
@click.option("--no-compile", is_flag=True, help="Skip the cold/warm compile-time measurement.")
@click.option("--dd-deals", type=click.IntRange(min=0), default=20_000, show_default=True,
              help="Deals for the double-dummy solver's figure (dd_solve_mean_us); 0 skips it.")
@click.option("--pimc-decisions", type=click.IntRange(min=0), default=2000, show_default=True,
              help="Play decisions for pimc's figure at 50 worlds (pimc_decisions_per_second); 0 skips it.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of measurements.")
def bench(hands, players_, decks, policies, workers, repeat, no_compile, dd_deals, pimc_decisions, as_json):
    """Complete hands per second for each variant, compile times, the double-dummy solver's and pimc's speed.

    \b
    Example:
        euchresim bench --players 4 --deck 24 --json
    """
    from .bench import run_bench
    rows = run_bench(hands=hands, players=[int(p) for p in players_] or [2, 3, 4],
                     decks=[int(d) for d in decks] or [24, 25, 32, 33],
                     policies=list(policies) or ["random", "baseline"], workers=workers,
                     compile_times=not no_compile, repeat=repeat, dd_deals=dd_deals,
                     pimc_decisions=pimc_decisions,
                     echo=None if as_json else (lambda s: click.echo(s)))
    if as_json:
        from .analysis import json_ready
        click.echo(json.dumps(json_ready(rows), allow_nan=False))


from .cli_match import register as _register_match   # noqa: E402  (duel, ladder)
_register_match(cli)
from .cli_report import register as _register_report   # noqa: E402  (report)
_register_report(cli)


def main(argv=None):
    """Entry point: click's errors and ours as one line each; no arguments is a request for help."""
    args = sys.argv[1:] if argv is None else list(argv)
    if not args:
        click.echo(cli.get_help(click.Context(cli, info_name="euchresim", **cli.context_settings)))
        return
    try:
        cli.main(args=args, prog_name="euchresim", standalone_mode=False, obj={"argv": list(args)})
    except click.exceptions.Abort:
        click.echo("euchresim: stopped", err=True)
        sys.exit(130)
    except click.exceptions.UsageError as e:
        ctx = f"{e.ctx.command_path}: " if e.ctx else "euchresim: "
        click.echo(f"{ctx}error: {e.format_message()}", err=True)
        sys.exit(2)
    except click.ClickException as e:
        click.echo(f"euchresim: error: {e.format_message()}", err=True)
        sys.exit(e.exit_code)
    except KeyboardInterrupt:
        click.echo("euchresim: stopped", err=True)
        sys.exit(130)


if __name__ == "__main__":  # pragma: no cover
    main()
