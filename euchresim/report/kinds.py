"""The report kinds and the rules each sets on what it is asked: which options it takes, its models by default.

``euchresim report`` reads its options and hands them here, so a script
that makes a report meets the same checks, with the same one-line
``ReportError``, and gets the same folder: ``check_request`` before any
work, ``context_models`` for the further models' hands, ``make`` for one
kind, ``write_index`` for ``all``.
"""
from __future__ import annotations

import importlib
import os
import time

from euchresim.report import ReportError

# the command's name of each kind -> its module here
KINDS = {
    "order-up": "order_up",
    "loner": "loner",
    "euchre-rates": "euchre_rates",
    "decks": "decks",
    "win-probability": "win_probability",
}
TARGETED = ("order-up", "loner")          # the kinds whose headline cells --classes plays on targeted deals
REACHED_ONLY = ("win-probability",)       # its classes are its own: --class-reached alone targets them
SEARCHED = ("order-up", "loner")          # the kinds that compare the main model with pimc and dd by default


def check_out(out, resume, force) -> None:
    """The report's folder: its parent must exist, and it must be a folder, empty unless resumed or forced."""
    parent = os.path.dirname(os.path.abspath(out))
    if not os.path.isdir(parent):
        raise ReportError(f"--out {out}: the folder {parent} does not exist")
    if os.path.exists(out) and not os.path.isdir(out):
        raise ReportError(f"--out {out}: exists and is not a folder")
    if os.path.isdir(out) and os.listdir(out) and not (resume or force):
        raise ReportError(f"--out {out}: exists and is not empty; --resume goes on with its kept work, "
                          f"--force makes the report afresh")


def check_classes(kind, classes, class_deals, class_reached=None) -> tuple:
    """--classes as the engine's class names (in their order), or () when not given; one line when wrong:
    --classes goes with one count, --class-deals (deals kept per seat) or --class-reached (per seat and class);
    win-probability, whose classes are its own, takes --class-reached alone (and gets () here)."""
    if classes is None and class_deals is None and class_reached is None:
        return ()
    if kind in REACHED_ONLY:
        if classes is not None or class_deals is not None:
            raise ReportError(f"--classes, --class-deals: {kind} plays its own hand classes "
                              "(docs/reports.md); --class-reached N alone targets them")
        return ()
    if kind not in TARGETED:
        raise ReportError(f"--classes, --class-deals, --class-reached: only order-up, loner and win-probability "
                          f"(--class-reached alone) play targeted deals, not {kind}")
    if class_deals is not None and class_reached is not None:
        raise ReportError("--class-deals and --class-reached: one count or the other (deals kept per seat, or per "
                          "seat and class until that many reach the decision)")
    if classes is None or (class_deals is None and class_reached is None):
        raise ReportError("--classes and --class-deals (or --class-reached) go together: the classes and how many "
                          "deals")
    from euchresim.studies.counterfactual import class_mask, class_names
    try:
        return class_names(class_mask(classes))
    except ValueError as e:
        raise ReportError(f"--classes {classes!r}: {e}") from None


def check_request(kind, classes, class_deals, defend_hands, out, resume, force, class_reached=None) -> tuple:
    """Every check a report's request meets before any work, in the command's order (``kind``: one of
    ``KINDS`` or ``all``); returns the targeted classes as ``check_classes`` does."""
    names = check_classes(kind, classes, class_deals, class_reached)
    if defend_hands is not None and kind != "loner":
        raise ReportError(f"--defend-hands: only loner plays the defender's choice, not {kind}")
    check_out(out, resume, force)
    return names


def default_policies(kind, main) -> tuple:
    """The play models of a kind when none is named: ``main``, and for order-up and loner pimc and dd beside
    it (the searched and the cheating bound the main model's calls are compared with)."""
    return (main, "pimc", "dd") if kind in SEARCHED else (main,)


def context_models(ctx, given=()) -> tuple:
    """The further models' hands (``ReportContext.model_hands``): ``given``, one for each model after the
    first, or a share of ``ctx.hands`` as each model's declaration says (a hand of pimc costs most)."""
    mh = tuple(given) or tuple(max(1000, ctx.hands // m.cost.share) for m in ctx.models[1:])
    if len(mh) != len(ctx.policies) - 1:
        raise ReportError(f"--model-hands: give one count for each --policy after the first "
                          f"({len(ctx.policies) - 1}), not {len(mh)}")
    return mh


def make(ctx) -> dict:
    """One report in ``ctx.out``: the folder claimed (a resume checks its kept work), the kind's ``build``, then
    README.md, the tables and meta.json written; returns the meta."""
    from euchresim.report import claim, write_section
    os.makedirs(ctx.out, exist_ok=True)
    claim(ctx)
    started = time.time()
    section = importlib.import_module(f"euchresim.report.{KINDS[ctx.kind]}").build(ctx)
    return write_section(ctx, section, started)


def write_index(out, kinds) -> None:
    """``all``'s README.md in ``out``: a link to each kind's own folder."""
    from euchresim.report import write_atomic
    write_atomic(os.path.join(out, "README.md"),
                 ("# Strategy reports\n\n" + "".join(f"- [{k}]({k}/README.md)\n" for k in kinds)).encode())
