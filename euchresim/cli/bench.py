"""``euchresim bench``: speed figures for docs/benchmarks.md."""
from __future__ import annotations

import json

import click


@click.command()
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
              help="Play decisions for pimc's figure at 50 worlds (pimc_decisions_per_second), and a hundredth as "
                   "many whole hands of best at every seat (hands and decisions a second, and each decision timed: "
                   "mean, 99th percentile, slowest); 0 skips them.")
@click.option("--advise-samples", type=click.IntRange(min=0), default=10_000, show_default=True,
              help="Deals for the advisor's figures (heuristic; pimc at a twentieth); 0 skips them.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of measurements.")
def bench(hands, players_, decks, policies, workers, repeat, no_compile, dd_deals, pimc_decisions, advise_samples,
          as_json):
    """Complete hands per second for each variant, compile times, the solver's, pimc's and the advisor's speed.

    \b
    Example:
        euchresim bench --players 4 --deck 24 --json
    """
    from euchresim.studies.benchmark import run_bench
    try:
        rows = run_bench(hands=hands, players=[int(p) for p in players_] or [2, 3, 4],
                         decks=[int(d) for d in decks] or [24, 25, 32, 33],
                         policies=list(policies) or ["random", "baseline"], workers=workers,
                         compile_times=not no_compile, repeat=repeat, dd_deals=dd_deals,
                         pimc_decisions=pimc_decisions, advise_samples=advise_samples,
                         echo=None if as_json else (lambda s: click.echo(s)))
    except RuntimeError as e:          # the compile measurement's process failed: its last line, no traceback
        raise click.ClickException(str(e)) from None
    if as_json:
        from euchresim.analysis import json_ready
        click.echo(json.dumps(json_ready(rows), allow_nan=False))
