"""``euchresim advise``: one seat's decision, every option played out on the deals it cannot rule out.

click only: the player's words are read in studies/advisor/situation_words.py,
the situation sampled in studies/advisor/evaluate.py, the table made in
analysis/advisor_table.py and the answer written in analysis/advice_text.py
(docs/advise.md says what the numbers mean).
"""
from __future__ import annotations

import click

from euchresim.cli.options import InputError, read_seats, rules_options
from euchresim.cli.options import advisor_compiled as _advisor_compiled   # a module name: the tests plant a cold cache here
from euchresim.studies.advisor.situation_words import BOTS, PEOPLE


@click.command()
@click.option("--hand", metavar="CARDS", help='The seat\'s five cards, e.g. "JH JD AH KS 9C".')
@click.option("--upcard", metavar="CARD",
              help="The card turned up (R4); in round two the card turned down. J\u2665 is JH.")
@click.option("--seat", default=None, metavar="SEAT",
              help="Who decides, by where it sits from the dealer: left (first hand), partner (second hand), "
                   "right (third hand), dealer (fourth hand); 3 players: left, right, dealer; 2: opponent, "
                   "dealer (docs/advise.md lists every spelling).")
@click.option("--round", "rnd", type=click.Choice(["1", "2"]), default="1", show_default=True,
              help="The bidding round (2: everyone passed the upcard).")
@click.option("--calls", "calls_text", metavar="CALLS",
              help="The calls before the seat's, from the dealer's left, e.g. pass,pass or pass,pass,pass,pass,"
                   "hearts (default: all passed).")
@click.option("--decision", type=click.Choice(["bid1", "bid2", "alone", "defend_alone", "discard", "dummy_keep",
                                               "joker_suit", "play"]),
              help="Which of the seat's decisions after the calls (default: its next one).")
@click.option("--discard", "discard_text", metavar="CARD", help="The dealer's own discard, for its decisions after it.")
@click.option("--alone", "alone_text", metavar="SEATS",
              help="Who went alone so far, by seat as --seat names it, e.g. left (for defend_alone).")
@click.option("--dummy", "dummy_text", metavar="CARDS", help="Cutthroat: the dummy, for the maker's keep.")
@click.option("--score", "score_text", metavar="US-THEM",
              help="The game score before the hand (default 0-0, or with --record the record's own score).")
@click.option("--record", "record_file", metavar="FILE", help="A file of hand records (docs/hand-record.md) ...")
@click.option("--line", type=int, default=1, show_default=True, help="... the record's line in FILE ...")
@click.option("--after", "after_plays", type=int, default=None,
              help="... the decision after this many cards played (the card to play) ...")
@click.option("--after-calls", type=int, default=None, help="... or after this many calls.")
@click.option("--policy", default=None, metavar="POLICY",
              help="Who the other seats are: plays every seat after the decision, and is what the other seats' "
                   f"calls are evidence of [default: {PEOPLE}, calling as people do at online tables, with the "
                   f"answer against {BOTS} beside it when the two differ].")
@click.option("--models", default=None, metavar="P,Q,...", help="Several policies side by side (dd: a cheating bound).")
@click.option("--samples", type=int, default=None,
              help="At most this many deals (default 10,000; pimc and dd 500).")
@click.option("--fixed", is_flag=True,
              help="Play exactly --samples deals, with no early stop (plain 95% intervals).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--no-inference", is_flag=True, help="Ignore what the other seats' calls say about their hands.")
@click.option("--stray", type=float, default=None, metavar="P",
              help="The chance the inference model gives another seat of calling otherwise than --policy "
                   "would (0 up to 0.5) [default: 0.1]: a call no bot makes narrows the deals less instead "
                   "of leaving none; 0 takes the policy exactly.")
@click.option("--infer-policy", default=None, metavar="POLICY",
              help="Whose calls the other seats' calls are taken to be [default: --policy]; heuristic is "
                   "cheap where pimc's searched bids keep few deals.")
@click.option("--alpha", type=float, default=0.05, show_default=True,
              help="The stopping rule's error rate: the chance it stops on an option that is not the best "
                   "(1e-12 up to 1).")
@click.option("--model-hands", type=int, default=None,
              help="Hands of the policy behind the P(win) model (default 20,000; pimc and dd 2,000).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes [default: every core for pimc and dd, 1 for the fast bots, whose answer takes less "
                   "time than starting a process]; the numbers do not depend on it.")
@click.option("--json", "as_json", is_flag=True, help="Print the answer as JSON.")
@click.option("--quiet", is_flag=True, help="No progress bar or compile notice.")
@rules_options
def advise(hand, upcard, seat, rnd, calls_text, decision, discard_text, alone_text, dummy_text, score_text,
           record_file, line, after_plays, after_calls, policy, models, samples, fixed, seed, no_inference, stray,
           infer_policy, alpha, model_hands, workers, as_json, quiet, rules):
    """Should I order up?  Every option of one decision, valued on deals the seat cannot tell apart.

    \b
    Examples:
        euchresim advise --hand "JH JD AH KS 9C" --upcard TH --seat left
        euchresim advise --hand "AD KD QC TC 9S" --upcard JD --seat dealer --score 9-9
        euchresim advise --record game.jsonl --line 12 --after 7
    """
    from euchresim.analysis.advice_text import answer, answers_json, answers_text
    from euchresim.cli.options import COMPILING, say_if_compiling
    from euchresim.run.errors import SimError
    from euchresim.run.progress import batch_bar
    from euchresim.studies.advisor import evaluate as A
    from euchresim.studies.advisor import situation as S

    stray = _check_numbers(A, samples, alpha, stray, fixed, model_hands)
    compare = None
    if models:
        names = [m.strip() for m in models.split(",")]
    elif policy:
        names = [policy]
    else:
        names, compare = [PEOPLE], BOTS
    cold = not _advisor_compiled()
    if cold and not (quiet or as_json):
        click.echo(COMPILING, err=True)            # reading the hand already runs the advisor's kernels
    try:
        sit, score_said = _situation(hand, upcard, seat, rnd, calls_text, decision, discard_text, alone_text,
                                     dummy_text, score_text, record_file, line, after_plays, after_calls, rules)
        S.decision_of(sit)
    except S.AdviceError as e:
        raise InputError(str(e)) from None
    say_if_compiling(quiet or as_json or cold)
    answers = []
    inferring = None                    # --infer-policy as read (once, here, where it was first read before)
    for name in names + ([compare] if compare else []):
        bar = batch_bar(name, quiet or as_json)
        try:
            played = read_seats(name, sit.rules.players)      # read once, here
            S.policy_arrays(played, sit.rules.players)           # a bad or plain-Python one refused before any work
            n_workers = workers or A.default_workers(played)
            if infer_policy is not None and inferring is None:
                inferring = read_seats(infer_policy, sit.rules.players)
            if cold and n_workers > 1:
                _compile_here(A, sit, played, not no_inference, seed, inferring)
            adv, table = answer(sit, played, name, model_hands=model_hands, seed=seed,
                                say=None if quiet or as_json else _say, samples=samples, infer=not no_inference,
                                alpha=alpha, workers=n_workers, on_batch=bar, infer_policy=inferring, stray=stray,
                                stop=not fixed)
        except S.AdviceError as e:
            raise InputError(str(e)) from None
        except (SimError, ValueError) as e:
            said = str(e)
            raise InputError(said if said.startswith("--") else f"--policy {name}: {said}") from None
        answers.append((name, adv, table))
    against = answers.pop() if compare else None
    if as_json:
        click.echo(answers_json(answers, against))
    else:
        click.echo(answers_text(sit, answers, against, score_said))


def _check_numbers(A, samples, alpha, stray, fixed, model_hands) -> float:
    """The options' numbers, each refused in one line (the library's checks, and the two that are the
    command's); returns the stray chance (default ``A.STRAY``)."""
    stray = A.STRAY if stray is None else stray
    try:
        A.check_settings(samples, alpha, stray)
    except A.AdviceError as e:
        raise InputError(str(e)) from None
    if fixed and samples is None:
        raise InputError("--fixed: give --samples, the number of deals to play")
    if model_hands is not None and model_hands < 100:
        raise InputError(f"--model-hands {model_hands}: at least 100")
    return stray


def _compile_here(A, sit, name, infer, seed, infer_policy):
    """One deal in this process first, so the worker processes read the compiled kernels, not compile each their own."""
    from euchresim.studies.advisor import situation as S
    try:
        A.play_batch(sit, S.decision_of(sit), name, infer, 1, seed, 0, infer_policy)
    except S.AdviceError:
        pass                     # a deal hard to find: the run proper says so


def _say(text):
    click.echo(text, err=True)


def _situation(hand, upcard, seat, rnd, calls_text, decision, discard_text, alone_text, dummy_text, score_text,
               record_file, line, after_plays, after_calls, rules):
    """The situation the options describe, and the line that says --score replaced a record's: the reading is
    the library's (``situation_words``), the options that go together or not are the command's."""
    from euchresim.studies.advisor.situation import from_record
    from euchresim.studies.advisor.situation_words import read_record_line, situation_from_words
    if record_file is not None:
        if hand or upcard or seat or calls_text or discard_text or dummy_text or alone_text:
            raise InputError("--record takes the hand, upcard, seat and calls from the record: "
                             "give --line and --after (or --after-calls), not --hand/--upcard/--seat/--calls")
        from euchresim.rules import Rules
        if rules != Rules():
            raise InputError("--record: the record states its own rules; leave out the rule options "
                             "(--players, --deck, ...)")
        rec = read_record_line(record_file, line)
        from euchresim.analysis.advice_text import with_score
        return with_score(from_record(rec, calls=after_calls, plays=after_plays, decision=decision), rec, score_text)
    if after_plays is not None or after_calls is not None:
        raise InputError("--after and --after-calls go with --record")
    return situation_from_words(rules, hand, upcard, seat, rnd, calls_text, decision, discard_text, alone_text,
                                dummy_text, score_text), None
