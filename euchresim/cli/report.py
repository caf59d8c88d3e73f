"""``euchresim report``: the click command that makes the strategy reports (euchresim/report/; each kind's
rules on what it is asked are report/kinds.py's)."""
from __future__ import annotations

import dataclasses
import os
import shlex

import click

from euchresim.cli.options import DEFAULT_POLICY, InputError, backend_options, check_backend, rules_options
from euchresim.report.kinds import KINDS, REACHED_ONLY, TARGETED


@click.command()
@click.argument("kind", type=click.Choice(list(KINDS) + ["all"], case_sensitive=False))
@rules_options
@click.option("--hands", type=click.IntRange(min=1000), default=200_000, show_default=True,
              help="Hands for the first play model (per variant in decks).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="One seed fixes every number.")
@click.option("--policy", "policies", multiple=True, metavar="NAME",
              help="A play model (repeat for several, the first the main one) [default: heuristic; "
                   "order-up and loner: heuristic, pimc, dd].")
@click.option("--model-hands", type=click.IntRange(min=100), multiple=True,
              help="Hands for each further play model, in --policy order [default: hands/100 for pimc, "
                   "hands/10 for others].")
@click.option("--classes", metavar="CLASSES",
              help='order-up and loner: hand classes whose round-one cells the main model plays on targeted '
                   'deals (with --class-deals or --class-reached): the caller\'s in order-up, e.g. "2T R,3T L,3T R"; the maker\'s '
                   'in loner, e.g. "4+T RL,4+T R,3T RL".')
@click.option("--class-deals", type=click.IntRange(min=1), metavar="N",
              help="order-up and loner: deals kept per seat for --classes, each holding one of them as dealt.")
@click.option("--class-reached", type=click.IntRange(min=30), metavar="N",
              help="order-up and loner, instead of --class-deals: per seat and class, targeted deals in batches "
                   "until N of them count (reach the call; in loner, make trump in round one), each cell to its "
                   "own count; win-probability: each of its four order-or-pass classes to N the same way (no "
                   "--classes or --class-deals).")
@click.option("--defend-hands", type=click.IntRange(min=1000), metavar="N",
              help="loner: hands the main model plays for the defender's choice [default: --hands]; defending "
                   "alone follows a maker's loner, so its cells need more hands than the maker's.")
@click.option("--out", required=True, help="The report's folder (its parent must exist).")
@click.option("--workers", type=click.IntRange(min=1, max=256), help="Processes [default: all cores].")
@click.option("--resume", is_flag=True, help="Go on with the work kept in --out.")
@click.option("--force", is_flag=True, help="Make the report afresh where --out holds another.")
@click.option("--quiet", is_flag=True, help="No progress bars.")
@backend_options
def report(kind, rules, hands, seed, policies, model_hands, classes, class_deals, class_reached, defend_hands, out,
           workers, resume, force, quiet, backend, address):
    """A strategy report: findings in words, CSV tables, PNG charts and meta.json in --out.

    \b
    Kinds: order-up (when calling beats passing), loner (going alone,
    defending alone), euchre-rates (euchre and march rates by seat and
    round), decks (24/25/32/33 cards and 2/3/4 players side by side),
    win-probability (P(win) by score), all (each in its own folder).
    \b
    Example:
        euchresim report euchre-rates --hands 20000 --seed 1 --out rates
    """
    from euchresim.run import runner
    from euchresim.run.progress import LabelledBars
    from euchresim.cli.options import read_seats
    from euchresim.policies import PolicyError
    from euchresim.report import ReportContext, ReportError
    from euchresim.report.kinds import check_request, context_models, default_policies, make, write_index
    kind = kind.lower()
    backend = check_backend(backend, address)
    try:
        classes = check_request(kind, classes, class_deals, defend_hands, out, resume, force, class_reached)
    except ReportError as e:
        raise InputError(str(e)) from None
    kinds = list(KINDS) if kind == "all" else [kind]
    bars = LabelledBars(quiet)
    argv = (click.get_current_context().obj or {}).get("argv")     # as typed (cli.main keeps it)
    command = ("euchresim " + " ".join(shlex.quote(a) for a in argv) if argv
               else f"euchresim report {kind} --hands {hands} --seed {seed} --out {out}")
    try:
        for k in kinds:
            pols = tuple(policies) or default_policies(k, DEFAULT_POLICY)
            ctx = ReportContext(kind=k, out=os.path.join(out, k) if kind == "all" else out, hands=hands,
                                seed=seed, rules=rules, policies=pols,       # each model read here, once:
                                models=tuple(read_seats([p], rules.players) for p in pols),
                                workers=workers or runner.default_workers(), resume=resume, force=force,
                                progress=bars, command=command, backend=backend,
                                address=address, classes=classes if k in TARGETED else (),
                                class_deals=class_deals or 0 if k in TARGETED else 0,
                                class_reached=class_reached or 0 if k in TARGETED + REACHED_ONLY else 0,
                                defend_hands=defend_hands or 0)
            ctx = dataclasses.replace(ctx, model_hands=context_models(ctx, model_hands))
            make(ctx)
            click.echo(f"{k}: {ctx.out}/README.md")
        if kind == "all":
            write_index(out, kinds)
    except (ReportError, PolicyError, runner.SimError) as e:
        raise InputError(str(e)) from None
    except OSError as e:          # a read-only or full --out: the file and the reason, one line
        where = e.filename or out
        raise InputError(f"--out {out}: cannot write {where} ({e.strerror or e})") from None
    finally:
        bars.close()
