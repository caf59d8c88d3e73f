"""``euchresim show``: hand records as a person reads them (docs/hand-record.md)."""
from __future__ import annotations

import json
import sys

import click

from euchresim.cli.options import InputError


@click.command()
@click.argument("src", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--line", "line_no", type=click.IntRange(min=1), default=None,
              help="Show only the record on this line of SRC (1 is the first line).")
@click.option("--suits", type=click.Choice(["letters", "symbols"]), default="letters", show_default=True,
              help="Cards as JH, or as J\u2665.")
@click.option("--json", "as_json", is_flag=True, help="Each hand's story as one line of JSON instead of text.")
@click.option("--advise", "with_advice", is_flag=True,
              help="Beside each decision, the advisor's verdict from that seat's view then (docs/advise.md).")
@click.option("--policy", default="heuristic", show_default=True, help="With --advise: who plays after each decision.")
@click.option("--samples", type=click.IntRange(min=1), default=2000, show_default=True,
              help="With --advise: at most this many deals per decision.")
def show(src, line_no, suits, as_json, with_advice, policy, samples):
    """Show the hand records of SRC as a person reads them.

    For each record: the deal by seat, the upcard, the bidding, trump and
    who made it, lone hands, the dealer's discard, the dummy kept, one
    line per trick (who led, each card, who won) and the points. A record
    that does not replay is named with its line and the replay's message,
    and the exit status is 1. See docs/hand-record.md. To see the third
    hand that simulate plays: `euchresim simulate --hands 3 --records
    h.jsonl`, then `euchresim show h.jsonl --line 3`.

    \b
    Example (SRC - is standard input, e.g. a file piped in):
        euchresim show -
    """
    from euchresim.records.format import RecordError, parse_record
    from euchresim.records.jsonl import iter_jsonl
    from euchresim.studies.record_text import format_story, hand_story

    name = "<stdin>" if src == "-" else src
    source = getattr(sys.stdin, "buffer", sys.stdin) if src == "-" else src   # bytes, so binary is told apart
    broken = shown = 0
    read: dict = {}            # --policy as read, once for each number of players the records have
    try:
        lines = iter_jsonl(source, name)
        seen = 0
        for n, obj in lines:
            seen = n
            if line_no is not None and n != line_no:
                continue
            try:
                if isinstance(obj, RecordError):
                    raise obj
                story = hand_story(parse_record(obj), obj)
            except RecordError as e:
                click.echo(f"{name}: line {n}: {e}", err=True)
                broken += 1
            else:
                if shown and not as_json:
                    click.echo("")
                click.echo(json.dumps(story, separators=(",", ":")) if as_json else format_story(story, suits))
                if with_advice:
                    _advise(parse_record(obj), policy, samples, as_json, read)
                shown += 1
            if line_no is not None:
                break
    except RecordError as e:
        raise InputError(str(e)) from None
    if line_no is not None and seen < line_no:
        has = "is empty" if seen == 0 else f"has {seen} line{'s' if seen != 1 else ''}"
        raise InputError(f"{name}: there is no line {line_no} (the file {has})")
    if broken:
        sys.exit(1)


def _advise(rec, policy, samples, as_json, read):
    from euchresim.analysis.advisor_table import format_review, review_hand
    from euchresim.cli.options import read_seats
    from euchresim.run.errors import SimError
    from euchresim.studies.advisor.situation import AdviceError
    try:
        players = rec.rules.players
        if players not in read:
            read[players] = read_seats([policy], players)          # read once, here: every decision plays it
        review = review_hand(rec, read[players], samples)
    except (AdviceError, SimError, ValueError) as e:
        raise InputError(f"--advise: {e}") from None
    if as_json:
        click.echo(review.to_json(orient="records"))
    else:
        click.echo("")
        click.echo(format_review(review, policy))
