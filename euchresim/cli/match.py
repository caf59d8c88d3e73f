"""``euchresim duel`` and ``euchresim ladder``: click only, the work is in studies/duel.py and studies/ladder.py.

The group (cli/app.py) adds them; this module imports only cli/options.py,
so nothing here can form a cycle.
"""
from __future__ import annotations

import json
import math
import os
import sys
import time

import click

from euchresim.cli.options import InputError, backend_options, check_backend, rules_options, start_score_option
from euchresim.run.errors import SimError
from euchresim.run.jobs import RunStopped

MAX_GAMES = 10 ** 12
DEFAULT_GAMES = 2000


def _pct(x):
    return "-" if x is None or math.isnan(x) else f"{100 * x:.1f}%"


def _signed(x, digits=3):
    return "-" if x is None or math.isnan(x) else f"{x:+.{digits}f}"


def _rules_line(rules) -> str:
    changed = rules.changed()
    extra = ", ".join(f"{k}={v}" if k != "scoring" else "scoring=custom" for k, v in changed.items())
    return f"players {rules.players}  deck {rules.deck}  game to {rules.game_to}" + (f"  ({extra})" if extra else "")


def _named(name: str, given: str | None = None, cheat: bool = False) -> str:
    """A player as shown: ``best`` with what it stands for, a cheat marked as one."""
    shown = f"best ({name})" if given is not None and given.strip().lower().split(":", 1)[0] == "best" else name
    return f"{shown} (cheats: sees every hand)" if cheat else shown


def _cheating(names, marked) -> set:
    """Which of ``names`` (canonical) cheat: ``marked``, as the models read at the edge say, or, for a result
    printed without them (None: a saved ``--json``), as each name declares (``policies.cheats``)."""
    if marked is not None:
        return set(marked)
    from euchresim.cli.options import declared_cheats
    return declared_cheats(names)


def _cheats(sides) -> set:
    """The canonical names of the sides read at the edge (``studies.duel.read``) whose models cheat."""
    return {name for name, model in sides if model is not None and model.cheats}


def _game_line(rules, o=None) -> str:
    """What the match plays: euchresim's rules, or OpenSpiel's euchre (one hand a game) with its two options."""
    if o is not None and o.get("game") == "openspiel euchre":
        return (f"OpenSpiel euchre, one hand a game  (stick_the_dealer={str(rules.stick_the_dealer).lower()}, "
                f"allow_lone_defender={str(rules.defend_alone).lower()})")
    return _rules_line(rules)


def format_duel(o: dict, given=(None, None), cheats=None) -> str:
    """The duel as a reader wants it: who, how many, A's win rate and points per hand with intervals.

    ``given``: A and B as the user named them (``best`` is shown with what it stands for); ``cheats``: the
    canonical names whose models cheat (the sides as read; None: as each name declares).
    """
    cheat = _cheating((o["a"], o["b"]), cheats)
    lo, hi = o["a_win_rate_ci"]
    plo, phi = o["points_per_hand_ci"]
    outside = o.get("game") == "openspiel euchre"
    count = (f"deals {o['deals']:,}  hands {o['hands']:,} (each deal once a seating)" if outside else
             f"deals {o['deals']:,}  games {o['games']:,}  hands {o['hands']:,}")
    lines = [
        f"A: {_named(o['a'], given[0], o['a'] in cheat)}",
        f"B: {_named(o['b'], given[1], o['b'] in cheat)}",
        f"seatings {' '.join(o['arrangements'])}  seed {o['seed']}"
        + (f"  every game from {'-'.join(map(str, o['start_score']))}" if o.get("start_score") else ""),
        count,
        f"A {'hand' if outside else 'game'} win rate    {_pct(o['a_win_rate']):>7}   95% CI {_pct(lo)} .. {_pct(hi)}",
        f"A points per hand  {_signed(o['points_per_hand']):>7}   95% CI {_signed(plo)} .. {_signed(phi)}"
        "   (A's points less B's)",
    ]
    if outside:
        ms = o["ms_per_decision"]
        lines.append(f"ms a decision      A {_ms(ms['a'])}  B {_ms(ms['b'])}")
        if not o["deterministic"]:
            lines.append("note: OpenSpiel's IS-MCTS is not deterministic under a fixed seed: a rerun repeats "
                         "these numbers as statistics, not to the digit")
    if o["a_win_rate_se"] == 0:
        lines.append("note: every deal sequence gave the same win difference, so the normal interval has no "
                     "width (docs/duel.md)")
    return "\n".join(lines)


def _ms(x) -> str:
    return "-" if x is None or math.isnan(x) else f"{x:.2f}"


def format_ladder(o: dict, given=None, cheats=None) -> str:
    """The rating table, best first, then who beat whom (``given``: the policies as named, for ``best``;
    ``cheats``: as ``format_duel``'s)."""
    given = list(given) if given is not None else [None] * len(o["policies"])
    cheat = _cheating(o["policies"], cheats)
    shown = {n: _named(n, g, n in cheat) for n, g in zip(o["policies"], given)}
    names = [shown[n] for n in o["policies"]]
    w = max([6] + [len(n) for n in names])
    lines = [f"{'rank':<4}  {'policy':<{w}}  {'elo':>6}  {'95% CI':>15}  {'games':>7}"]
    for r in o["ratings"]:
        lo, hi = r["elo_ci"]
        lines.append(f"{r['rank']:<4}  {shown[r['policy']]:<{w}}  {r['elo']:>+6.0f}  {lo:>+7.0f} .. {hi:<+6.0f}  "
                     f"{r['games']:>7,}")
    outside = bool(o.get("duels")) and o["duels"][0].get("game") == "openspiel euchre"
    lines += ["", f"{'hand' if outside else 'game'} win rate of the row against the column"]
    order = [o["policies"].index(r["policy"]) for r in o["ratings"]]      # best first, as the table above
    lines.append(" " * (w + 6) + "".join(f"{'#' + str(k + 1):>8}" for k in range(len(order))))
    for k, i in enumerate(order):
        cells = "".join(f"{'':>8}" if i == j else f"{_pct(o['win_rate'][i][j]):>8}" for j in order)
        lines.append(f"{'#' + str(k + 1):<4}  {names[i]:<{w}}{cells}".rstrip())
    return "\n".join(lines)


class _Bar:
    """A games bar on a terminal; nothing elsewhere."""

    def __init__(self, total, quiet):
        from euchresim.cli.options import progress_bar as _bar
        self.bar = _bar(total, "game", quiet)

    def __call__(self, done, total):
        if self.bar is not None:
            self.bar.update(done - self.bar.n)

    def close(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None


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
    from euchresim.run.runner import SimError
    quiet = quiet or as_json
    _say_if_compiling(quiet)
    bar = _Bar(total, quiet)
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


def _say_stopped(stop, what) -> None:
    where = f", kept in {stop.parts_dir}; rerun the same command with --resume to finish" if stop.parts_dir else ""
    click.echo(f"stopped: {stop.done} of {stop.total} {what} finished{where}", err=True)


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
        _say_stopped(stop, "deal sequences")
        if part is not None:
            click.echo(json.dumps(json_ready(dict(part, partial=True)), allow_nan=False) if as_json else
                       f"duel  {_game_line(rules, part)}  (partial: {part['deals']:,} of {spec.deals:,} deal "
                       f"sequences)\n" + format_duel(part, (a, b), cheats))
        sys.exit(130)
    if as_json:
        click.echo(json.dumps(json_ready(out), allow_nan=False))
    else:
        click.echo(f"duel  {_game_line(rules, out)}")
        click.echo(format_duel(out, (a, b), cheats))
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
        _say_stopped(stop, "chunks of the pair in play")
        sys.exit(130)
    if as_json:
        click.echo(json.dumps(json_ready(out), allow_nan=False))
    else:
        unit = "hands" if outside else "games"
        click.echo(f"ladder  {_game_line(rules, out['duels'][0])}  seed {seed}  {unit} {out['games']:,} "
                   f"({out['duels'][0]['games']:,} a pair)")
        click.echo(format_ladder(out, policies, _cheats(sides)))
    if not (quiet or as_json):
        click.echo(f"done: {out['games']:,} {'hands' if outside else 'games'} in {took:.1f} s", err=True)

__all__ = ["duel", "ladder", "format_duel", "format_ladder"]
