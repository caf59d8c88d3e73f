"""The ``euchresim`` command group: a thin shell over the library.

Each command lives in its own module (simulate, records, match, report,
bench) and imports the layer it needs when it runs, so ``euchresim --help``
is instant.  Every input error ends as one line on stderr and a non-zero
exit, never a traceback.
"""
from __future__ import annotations

import sys

import click

from euchresim.cli.bench import bench
from euchresim.cli.match import duel, ladder
from euchresim.cli.records import replay, solve
from euchresim.cli.report import report
from euchresim.cli.simulate import simulate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="euchresim")
def cli():
    """Euchre strategy by Monte Carlo simulation.

    \b
    Example:
        euchresim simulate --hands 1000000
    """


for _command in (simulate, replay, solve, bench, duel, ladder, report):
    cli.add_command(_command)


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
