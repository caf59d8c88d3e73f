"""``euchresim duel`` and ``euchresim ladder``: click only, the work is in studies/duel.py and studies/ladder.py,
the text they print in studies/match_text.py.

The group (cli/app.py) adds them; this module imports only cli/options.py,
so nothing here can form a cycle.
"""
from __future__ import annotations

import json
import os
import sys
import time

import click

from euchresim.cli.options import InputError, backend_options, check_backend, rules_options, start_score_option
from euchresim.run.errors import SimError
from euchresim.run.jobs import RunStopped

MAX_GAMES = 10 ** 12
DEFAULT_GAMES = 2000


def _cheats(sides) -> set:
    """The canonical names of the sides read at the edge (``options.read_side``) whose models cheat."""
    return {name for name, model in sides if model is not None and model.cheats}


def _read(policies, players, labels):
    """Each policy read once (``options.read_side``): (canonical name, ``policies.Seats`` or None for one of
    OpenSpiel's bots); a bad one is one line that says which argument (A, B, policy 3...)."""
    from euchresim.cli.options import read_side
    from euchresim.policies import PolicyError
    out = []
    for p, label in zip(policies, labels):
        try:
            out.append(read_side(p, players, label))
        except PolicyError as e:
            raise InputError(str(e)) from None
    return out


def _play(fn, total, quiet, as_json):
    """Run ``fn(on_progress)`` with a bar; a run's own failures as one line."""
    import signal

    from euchresim.cli.options import say_if_compiling as _say_if_compiling, terminate
    from euchresim.policies import PolicyError
    from euchresim.run.progress import CountBar
    from euchresim.run.runner import SimError
    quiet = quiet or as_json
    _say_if_compiling(quiet)
    bar = CountBar(total, "game", quiet)
    started = time.monotonic()
    previous = signal.signal(signal.SIGTERM, terminate)      # SIGTERM stops a match as Ctrl-C does
    try:
        out = fn(bar)
    except (SimError, PolicyError, ValueError) as e:
        raise InputError(str(e)) from None
    finally:
        bar.close()
        signal.signal(signal.SIGTERM, previous)
    return out, time.monotonic() - started


def _run_options(checkpoint, resume, force, backend, address) -> dict:
    """--checkpoint/--resume/--backend as the runner takes them; the paths checked first (one line each)."""
    backend = check_backend(backend, address)
    if resume and not checkpoint:
        raise InputError("--resume has nothing to continue: give the --checkpoint the stopped match was given")
    if checkpoint and os.path.exists(checkpoint) and not os.path.isdir(checkpoint):
        raise InputError(f"--checkpoint {checkpoint}: exists and is not a folder")
    if checkpoint and not os.path.isdir(os.path.dirname(os.path.abspath(checkpoint))):
        raise InputError(f"--checkpoint {checkpoint}: the folder it goes in does not exist")
    return {"folder": checkpoint, "resume": resume, "force": force, "backend": backend, "address": address}


def _common(f):
    """The options duel and ladder share, after the rules'."""
    f = backend_options(f)
    f = click.option("--force", is_flag=True, help="Start over where --checkpoint holds another match.")(f)
    f = click.option("--resume", is_flag=True, help="Continue a stopped match from its --checkpoint.")(f)
    f = click.option("--checkpoint", metavar="DIR",
                     help="Keep every finished deal sequence's results in DIR, so a stopped match resumes "
                          "(--resume) to the numbers it would have given.")(f)
    f = click.option("--quiet", "-q", is_flag=True, help="No progress bar and no closing line.")(f)
    f = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(f)
    f = click.option("--workers", type=click.IntRange(min=1, max=256), help="Processes [default: all cores].")(f)
    f = click.option("--chunk-size", type=click.IntRange(min=1, max=1 << 15), default=1, show_default=True,
                     help="Games per deal sequence, the pairing unit. Only a sequence's first game is dealt "
                          "alike in every seating, so 1 pairs best; more cuts the overhead per sequence "
                          "(about 0.5 ms) for fast policies. Part of what a seed means.")(f)
    f = click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
                     help="One seed (a whole number >= 0) fixes every number.")(f)
    f = click.option("--deals", type=click.IntRange(min=1, max=MAX_GAMES), default=None,
                     help="Deal sequences (each played once a seating), instead of --games. Against "
                          "OpenSpiel's bots (openspiel:ismcts:sims=N, openspiel:random) a deal is one hand "
                          "played in OpenSpiel's euchre.")(f)
    return f


def _deals(games, deals, players, chunk_size) -> int:
    """The deal sequences asked for: --deals, or --games (2,000 when neither) rounded up to whole ones."""
    if games is not None and deals is not None:
        raise InputError("give --games or --deals, not both")
    from euchresim.studies.duel import deals_for
    return deals if deals is not None else deals_for(games or DEFAULT_GAMES, players, chunk_size)


@click.command()
@rules_options
@click.argument("a", metavar="A")
@click.argument("b", metavar="B")
@click.option("--games", type=click.IntRange(min=1, max=MAX_GAMES), default=None,
              help=f"Games in all, over every seating; rounded up to whole deal sequences [default: {DEFAULT_GAMES}].")
@_common
@start_score_option
def duel(rules, a, b, games, deals, seed, chunk_size, workers, as_json, quiet, checkpoint, resume, force, backend,
         address, start_score):
    """Policy A against policy B, duplicate: the same deals with the seats exchanged.

    A and B are policies as --policy takes them (random, baseline,
    heuristic:order_2=4.5, pimc:worlds=20, MODULE:FUNCTION...). Every
    deal sequence is played once per seating: 4 players A,B,A,B then
    B,A,B,A; 2 players A,B then B,A; 3 players all six mixes. Card luck
    cancels from the differences, so fewer games tell the two apart.
    Prints A's game win rate and A's points less B's per hand, each
    with a 95% interval from the paired differences (docs/duel.md).
    `best` is the strongest fair bot (docs/policies.md). OpenSpiel's
    bots play too (openspiel:ismcts:sims=1000, openspiel:random): such
    a duel is played in OpenSpiel's euchre, one hand a game, and adds
    each side's milliseconds a decision.

    \b
    Examples:
        euchresim duel baseline random --games 2000
        euchresim duel baseline random --players 3 --game-to 5 --games 600 --json
        euchresim duel heuristic openspiel:random --deals 20
    """
    from euchresim.studies import duel as d
    from euchresim.studies.match_text import duel_text
    from euchresim.analysis import json_ready
    from euchresim.run.runner import default_workers
    sides = _read([a, b], rules.players, ["A", "B"])
    cheats = _cheats(sides)
    try:
        spec = d.DuelSpec(rules, *(model if model is not None else name for name, model in sides), seed=seed, deals=_deals(games, deals, rules.players, chunk_size),
                          chunk_size=chunk_size, start_score=start_score)
        if not spec.openspiel:           # OpenSpiel's games are played by interop, never as a RunSpec
            spec.run_spec(0)             # a start score the rules refuse is one line now, not in a worker
    except (SimError, ValueError) as e:
        raise InputError(str(e)) from None
    n = workers or default_workers()
    run = _run_options(checkpoint, resume, force, backend, address)
    try:
        out, took = _play(lambda bar: d.duel(spec, n, on_progress=bar, **run), spec.games, quiet, as_json)
    except RunStopped as stop:
        part = d.partial(spec, stop)
        from euchresim.analysis.run_text import stopped_line
        click.echo(stopped_line(stop, "deal sequences"), err=True)
        if part is not None:
            click.echo(json.dumps(json_ready(dict(part, partial=True)), allow_nan=False) if as_json else
                       duel_text(part, rules, (a, b), cheats, planned=spec.deals))
        sys.exit(130)
    if as_json:
        click.echo(json.dumps(json_ready(out), allow_nan=False))
    else:
        click.echo(duel_text(out, rules, (a, b), cheats))
    if not (quiet or as_json):
        click.echo(f"done: {out['games']:,} {'hands' if spec.openspiel else 'games'} in {took:.1f} s", err=True)

@click.command()
@rules_options
@click.argument("policies", metavar="POLICY...", nargs=-1, required=True)
@click.option("--games", type=click.IntRange(min=1, max=MAX_GAMES), default=None,
              help=f"Games per pair, over every seating; rounded up to whole deal sequences [default: {DEFAULT_GAMES}].")
@_common
def ladder(rules, policies, games, deals, seed, chunk_size, workers, as_json, quiet, checkpoint, resume, force,
           backend, address):
    """Every pair of the policies dueled, then a rating each (Bradley-Terry, Elo scale).

    Each pair plays a duel as `euchresim duel` does (its own deals of
    the one seed); the ratings are fitted to all the game results, mean
    0, with 95% intervals, and the table of pairwise win rates follows
    (docs/duel.md).

    \b
    Example:
        euchresim ladder random baseline baseline:order=6 --games 400
    """
    from euchresim.studies import duel as d
    from euchresim.analysis import json_ready
    from euchresim.studies.ladder import ladder as run_ladder, pairs
    from euchresim.studies.match_text import ladder_text
    from euchresim.interop.openspiel_match import is_openspiel
    from euchresim.run.runner import default_workers
    if len(policies) < 2:
        raise InputError("a ladder needs at least two policies")
    sides = _read(policies, rules.players, [f"policy {k + 1}" for k in range(len(policies))])
    names = [name for name, _ in sides]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise InputError(f"give each policy once: {', '.join(twice)} is named twice")
    deals = _deals(games, deals, rules.players, chunk_size)
    outside = any(is_openspiel(x) for x in names)
    try:
        d.DuelSpec(rules, *(model if model is not None else name for name, model in sides[:2]), deals=deals, chunk_size=chunk_size, openspiel=outside)
    except ValueError as e:
        raise InputError(str(e)) from None
    total = len(pairs(len(names))) * deals * len(d.arrangements(rules.players)) * chunk_size
    n = workers or default_workers()
    run = _run_options(checkpoint, resume, force, backend, address)
    try:
        out, took = _play(lambda bar: run_ladder(rules, [model if model is not None else name for name, model in sides], seed, deals, chunk_size, n, on_progress=bar,
                                                 openspiel=outside, **run), total, quiet, as_json)
    except RunStopped as stop:
        from euchresim.analysis.run_text import stopped_line
        click.echo(stopped_line(stop, "chunks of the pair in play"), err=True)
        sys.exit(130)
    if as_json:
        click.echo(json.dumps(json_ready(out), allow_nan=False))
    else:
        click.echo(ladder_text(out, rules, seed, policies, _cheats(sides)))
    if not (quiet or as_json):
        click.echo(f"done: {out['games']:,} {'hands' if outside else 'games'} in {took:.1f} s", err=True)

__all__ = ["duel", "ladder"]
