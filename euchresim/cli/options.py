"""What every command shares: the rule flags, the policy names, one-line errors, bars, output checks.

Kept apart from the commands so each command module imports this one and
nothing imports a command: no cycles (docs/layout.md).
"""
from __future__ import annotations

import functools

import click

from euchresim.rules import (BOTH_ALONE_LEAD_CHOICES, CUTTHROAT_TIE_CHOICES, JOKER_UPCARD_CHOICES, Rules, RulesError,
                             ScoringTable)

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


def backend_options(f):
    """--backend and --address, as every command that runs jobs takes them (simulate, duel, ladder, report)."""
    from euchresim.run.backends import BACKENDS
    f = click.option("--address", help="--backend ray: the cluster's address [default: a local Ray instance].")(f)
    return click.option("--backend", type=click.Choice(BACKENDS, case_sensitive=False), default="local",
                        show_default=True, help="Where the work runs: this machine's processes, or a Ray cluster "
                                                "(pip install 'euchresim[ray]'; docs/scaling.md); the numbers "
                                                "are the same.")(f)


def check_backend(backend, address) -> str:
    """The backend's name as the runner takes it; --address without Ray refused in one line."""
    if address and backend.lower() != "ray":
        raise InputError("--address names a Ray cluster; add --backend ray")
    return backend.lower()


def start_score(ctx, param, value):
    """``--start-score 9-8``: each side's score when every game starts (a click callback), as a tuple."""
    if value is None:
        return ()
    from euchresim.rules import read_scores
    scores = read_scores(value)
    if scores is None:
        raise click.BadParameter(f"{value!r} is not scores like 9-8 (4 players: us-them; 3 players: 9-8-7)")
    return scores


start_score_option = click.option(
    "--start-score", callback=start_score, metavar="A-B[-C]",
    help="Start every game at this score, side by side (seat 0's side first): games at late scores, "
         "where the score decides (whole games only).")


def policy_names(values) -> list[str]:
    names: list[str] = []
    for v in values or (DEFAULT_POLICY,):
        names.extend(p.strip() for p in v.split(","))
    return names


# The command line reads a policy's name here and nowhere else (tests/test_layers.py holds it): every command
# hands the library the ``policies.Seats`` this returns, which a run, a report, the advisor and a worker carry.
def read_seats(names, players: int, check: bool = False, label: str = ""):
    """``names`` (one policy for every seat, or one per seat) read once: a ``policies.Seats``.

    ``check``: every user's policy built with bounds checks (--check-policy).
    A bad name is a PolicyError; ``label`` (``A``, ``policy 3``) replaces
    the ``--policy (seat 0)`` its message starts with.  One of OpenSpiel's
    bots (``openspiel:ismcts``, a duel's side) is no euchresim policy:
    ``read_side`` reads it.
    """
    from euchresim.policies import PolicyError, seats
    try:
        return seats(names, players, check=check)
    except PolicyError as e:
        if not label:
            raise
        raise PolicyError(str(e).replace("--policy (seat 0)", label, 1)) from None


def read_side(name: str, players: int, label: str = ""):
    """A duel's or a ladder's side read once: (its canonical name, a ``policies.Seats`` at every seat, or None
    for one of OpenSpiel's bots, which interop plays by name)."""
    from euchresim.interop.openspiel_match import is_openspiel, parse as openspiel_bot
    from euchresim.policies import PolicyError
    if is_openspiel(name):
        try:
            return openspiel_bot(name).name, None
        except PolicyError as e:
            raise PolicyError(f"{label or '--policy (seat 0)'}: {e}") from None
    table = read_seats([name], players, label=label)
    return table.names[0], table



def terminate(signum, frame):
    """SIGTERM stops a run as Ctrl-C does: finished chunks kept, nothing half-written counted."""
    raise KeyboardInterrupt


def os_error(e: OSError) -> str:
    where = e.filename or ""
    return f"{where}: {e.strerror}" if where else str(e.strerror or e)


def check_outputs(outputs, force, own=()):
    """Every output named on the command line, checked before anything runs (run/files.py).

    ``own``: paths that may exist because they are the resumed run's own
    (a finished run's joined ``--records`` file, cut back into its chunks).
    """
    from euchresim.run.files import OutputPathError, check_distinct, check_output
    try:
        for option, path, suffixes, what, dash_ok, *folder in outputs:
            if path is not None:
                check_output(path, option, suffixes, what, force or path in own, dash_ok, *folder)
        check_distinct([(option, path) for option, path, *_ in outputs])
    except OutputPathError as e:
        raise InputError(str(e)) from None


COMPILING = "compiling kernels (first run only; a minute or more on a busy machine)..."


def say_if_compiling(quiet):
    """Say on standard error, terminal or not, that the kernels are about to compile, when they are.

    Only when the cache lacks them (engine.kernels_cached), and never with ``quiet``: how long a
    compile takes depends on the machine and its load, so no time is promised.
    """
    if quiet:
        return
    from euchresim.engine import kernels_cached
    if not kernels_cached():
        click.echo(COMPILING, err=True)


def kernel_cached(prefix: str, layer: str = "loops") -> bool:
    """Whether numba's cache holds a kernel of ``layer`` (its index file ``<module>.<function>-...nbi``): a command
    that would otherwise compile first says so (COMPILING) before the wait."""
    import os

    from euchresim.engine import cache_dir
    try:
        names = os.listdir(os.path.join(cache_dir(), layer))
    except OSError:
        return False
    return any(n.startswith(prefix) and n.endswith(".nbi") for n in names)


def advisor_compiled() -> bool:
    """Whether the advisor's kernel is in the cache (else its first answer compiles it: tens of seconds)."""
    return kernel_cached("advise.play_options-")
