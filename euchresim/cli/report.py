"""``euchresim report``: the click command that makes the strategy reports (euchresim/report/)."""
from __future__ import annotations

import dataclasses
import importlib
import os
import shlex
import time

import click

from euchresim.cli.options import DEFAULT_POLICY, InputError, backend_options, check_backend, rules_options

KINDS = {
    "order-up": "order_up",
    "loner": "loner",
    "euchre-rates": "euchre_rates",
    "decks": "decks",
    "win-probability": "win_probability",
}
TARGETED = ("order-up", "loner")          # the kinds whose headline cells --classes plays on targeted deals


def _check_out(out, resume, force):
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):
        raise InputError(f"--out {out}: the folder {parent} does not exist")
    if os.path.exists(out) and not os.path.isdir(out):
        raise InputError(f"--out {out}: exists and is not a folder")
    if os.path.isdir(out) and os.listdir(out) and not (resume or force):
        raise InputError(f"--out {out}: exists and is not empty; --resume goes on with its kept work, "
                         f"--force makes the report afresh")


def _check_classes(kind, classes, class_deals) -> tuple:
    """--classes as the engine's class names (in their order), or () when not given; one line when wrong."""
    if classes is None and class_deals is None:
        return ()
    if kind not in TARGETED:
        raise InputError(f"--classes, --class-deals: only order-up and loner play targeted deals, not {kind}")
    if classes is None or class_deals is None:
        raise InputError("--classes and --class-deals go together: the classes and the deals kept per seat")
    from euchresim.studies.counterfactual import class_mask, class_names
    try:
        return class_names(class_mask(classes))
    except ValueError as e:
        raise InputError(f"--classes {classes!r}: {e}") from None


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
                   'deals (with --class-deals): the caller\'s in order-up, e.g. "2T R,3T L,3T R"; the maker\'s '
                   'in loner, e.g. "4+T RL,4+T R,3T RL".')
@click.option("--class-deals", type=click.IntRange(min=1), metavar="N",
              help="order-up and loner: deals kept per seat for --classes, each holding one of them as dealt.")
@click.option("--defend-hands", type=click.IntRange(min=1000), metavar="N",
              help="loner: hands the main model plays for the defender's choice [default: --hands]; defending "
                   "alone follows a maker's loner, so its cells need more hands than the maker's.")
@click.option("--out", required=True, help="The report's folder (its parent must exist).")
@click.option("--workers", type=click.IntRange(min=1, max=256), help="Processes [default: all cores].")
@click.option("--resume", is_flag=True, help="Go on with the work kept in --out.")
@click.option("--force", is_flag=True, help="Make the report afresh where --out holds another.")
@click.option("--quiet", is_flag=True, help="No progress bars.")
@backend_options
def report(kind, rules, hands, seed, policies, model_hands, classes, class_deals, defend_hands, out, workers, resume,
           force, quiet, backend, address):
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
    from euchresim.report import ReportContext, ReportError, claim, write_atomic, write_section
    kind = kind.lower()
    backend = check_backend(backend, address)
    classes = _check_classes(kind, classes, class_deals)
    if defend_hands is not None and kind != "loner":
        raise InputError(f"--defend-hands: only loner plays the defender's choice, not {kind}")
    _check_out(out, resume, force)
    kinds = list(KINDS) if kind == "all" else [kind]
    bars = LabelledBars(quiet)
    argv = (click.get_current_context().obj or {}).get("argv")     # as typed (cli.main keeps it)
    command = ("euchresim " + " ".join(shlex.quote(a) for a in argv) if argv
               else f"euchresim report {kind} --hands {hands} --seed {seed} --out {out}")
    try:
        for k in kinds:
            pols = tuple(policies) or ((DEFAULT_POLICY, "pimc", "dd") if k in ("order-up", "loner")
                                      else (DEFAULT_POLICY,))
            ctx = ReportContext(kind=k, out=os.path.join(out, k) if kind == "all" else out, hands=hands,
                                seed=seed, rules=rules, policies=pols,       # each model read here, once:
                                models=tuple(read_seats([p], rules.players) for p in pols),
                                workers=workers or runner.default_workers(), resume=resume, force=force,
                                progress=bars, command=command, backend=backend,
                                address=address, classes=classes if k in TARGETED else (),
                                class_deals=class_deals or 0 if k in TARGETED else 0,
                                defend_hands=defend_hands or 0)
            # a further model plays a share of the hands, as its declaration says (a hand of pimc costs most)
            mh = tuple(model_hands) or tuple(max(1000, hands // m.cost.share) for m in ctx.models[1:])
            if len(mh) != len(pols) - 1:
                raise InputError(f"--model-hands: give one count for each --policy after the first "
                                 f"({len(pols) - 1}), not {len(mh)}")
            ctx = dataclasses.replace(ctx, model_hands=mh)
            os.makedirs(ctx.out, exist_ok=True)
            claim(ctx)
            started = time.time()
            module = importlib.import_module(f"euchresim.report.{KINDS[k]}")
            section = module.build(ctx)
            write_section(ctx, section, started)
            click.echo(f"{k}: {ctx.out}/README.md")
        if kind == "all":
            write_atomic(os.path.join(out, "README.md"),
                         ("# Strategy reports\n\n" + "".join(f"- [{k}]({k}/README.md)\n" for k in kinds)).encode())
    except (ReportError, PolicyError, runner.SimError) as e:
        raise InputError(str(e)) from None
    except OSError as e:          # a read-only or full --out: the file and the reason, one line
        where = e.filename or out
        raise InputError(f"--out {out}: cannot write {where} ({e.strerror or e})") from None
    finally:
        bars.close()
