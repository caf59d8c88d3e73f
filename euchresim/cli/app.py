"""The ``euchresim`` command group: a thin shell over the library.

Each command lives in its own module (simulate, records, match, report,
bench) and imports the layer it needs when it runs, so ``euchresim --help``
is instant.  Every input error ends as one line on stderr and a non-zero
exit, never a traceback.
"""
from __future__ import annotations

import signal
import sys

import click

from euchresim.cli.advise import advise
from euchresim.cli.bench import bench
from euchresim.cli.match import duel, ladder
from euchresim.cli.records import replay, solve
from euchresim.cli.report import report
from euchresim.cli.play import play
from euchresim.cli.show import show
from euchresim.cli.simulate import simulate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="euchresim")
def cli():
    """Euchre strategy by Monte Carlo simulation.

    \b
    Example:
        euchresim simulate --hands 1000000
    """


for _command in (simulate, replay, solve, show, bench, duel, ladder, report, advise, play):
    cli.add_command(_command)


class _Stop:
    """Whether Ctrl-C has been pressed during this ``main``: from then on, any error is the stop's."""

    def __init__(self):
        self.heard = False
        self._previous = None
        self._hook = None

    def __enter__(self):
        try:
            if signal.getsignal(signal.SIGINT) is signal.default_int_handler:   # not where SIGINT is ignored
                self._previous = signal.signal(signal.SIGINT, self._on_sigint)
        except ValueError:         # not the main thread: Python's own handling stands
            self._previous = None
        self._hook = sys.unraisablehook
        sys.unraisablehook = self._unraisable
        return self

    def __exit__(self, *exc):
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
        # after a stop, llvmlite's half-built objects can still be torn down later (at exit): their
        # complaint is the stop's too, so a hook that drops just those outlives this main
        sys.unraisablehook = _after_stop(self._hook) if self.heard else self._hook
        return False

    def _on_sigint(self, signum, frame):
        self.heard = True
        raise KeyboardInterrupt

    def _unraisable(self, unraisable):
        # an object torn down half-built by the interrupt (llvmlite's, while kernels load) says nothing
        if not (self.heard or _from_interrupt(unraisable.exc_value)):
            self._hook(unraisable)

    def caused(self, e: BaseException) -> bool:
        return self.heard or _from_interrupt(e)


def _after_stop(previous):
    def hook(unraisable):
        tb = unraisable.exc_traceback
        while tb is not None:
            if "llvmlite" in tb.tb_frame.f_code.co_filename:
                return
            tb = tb.tb_next
        previous(unraisable)
    return hook


def _from_interrupt(e: BaseException | None) -> bool:
    """A KeyboardInterrupt (a stop), or an error raised while one was being handled."""
    seen = set()
    while e is not None and id(e) not in seen:
        if isinstance(e, (KeyboardInterrupt, click.exceptions.Abort)):
            return True
        seen.add(id(e))
        e = e.__context__ if e.__context__ is not None else e.__cause__
    return False


def main(argv=None):
    """Entry point: click's errors and ours as one line each; no arguments is a request for help.

    Ctrl-C (and SIGTERM, which the commands turn into one) ends as the one line
    "euchresim: stopped" and status 130, and so does any error raised while a
    stop was under way: an interrupt can land inside a library (numba's
    compiler, llvmlite, pyarrow) and leave it to fail on the way out.  A command
    that stops a run itself says what was kept first.
    """
    args = sys.argv[1:] if argv is None else list(argv)
    if not args:
        click.echo(cli.get_help(click.Context(cli, info_name="euchresim", **cli.context_settings)))
        return
    with _Stop() as stop:
        try:
            cli.main(args=args, prog_name="euchresim", standalone_mode=False, obj={"argv": list(args)})
        except SystemExit:
            raise
        except BaseException as e:      # noqa: B036 - every way out is sorted below; the rest re-raised
            if stop.caused(e):
                click.echo("euchresim: stopped", err=True)
                sys.exit(130)
            if isinstance(e, click.exceptions.UsageError):
                ctx = f"{e.ctx.command_path}: " if e.ctx else "euchresim: "
                click.echo(f"{ctx}error: {e.format_message()}", err=True)
                sys.exit(2)
            if isinstance(e, click.ClickException):
                click.echo(f"euchresim: error: {e.format_message()}", err=True)
                sys.exit(e.exit_code)
            raise


if __name__ == "__main__":  # pragma: no cover
    main()
