"""``euchresim advise``: one seat's decision, every option played out on the deals it cannot rule out.

click only: the situation is built and sampled in studies/advisor/evaluate.py, the
table made in analysis/advisor_table.py (docs/advise.md says what the numbers
mean).
"""
from __future__ import annotations

import json
import math

import click

from euchresim.cli.options import InputError, read_seats, rules_options

# the table the answer assumes by default: the model closest to people (docs/policies.md, heuristic:human), and
# the strong bot whose answer is shown beside it when the two differ (it calls far more than people do)
PEOPLE = "heuristic:human"
BOTS = "heuristic"
TABLES = {PEOPLE: "the other seats call as people do at online tables",
          BOTS: "the other seats are bots that call far more than people"}

from euchresim.studies.advisor.situation_words import (CALL_WORDS, POSITIONS, SYNONYMS, parse_calls,  # noqa: F401
                                               parse_cards, parse_position, parse_score, seat_words)


def _said(fn, *args):
    """A library reading of the player's words, its refusal as the command line's one line."""
    from euchresim.studies.advisor.situation import AdviceError
    try:
        return fn(*args)
    except AdviceError as e:
        raise InputError(str(e)) from None


def _position(text: str, players: int) -> int:
    return _said(parse_position, text, players)


def _cards(text: str, option: str, deck: int) -> list[int]:
    return _said(parse_cards, text, option, deck)


def _calls(text: str | None) -> list[int]:
    return _said(parse_calls, text)


def _score(text: str | None, players: int, target: int):
    return _said(parse_score, text, players, target)


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
    from euchresim.analysis.advisor_table import advice_table, deal_values, win_model
    from euchresim.cli.options import COMPILING, say_if_compiling
    from euchresim.run.errors import SimError
    from euchresim.run.progress import batch_bar
    from euchresim.studies.advisor import evaluate as A

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
        sit, score_said = _situation(A, hand, upcard, seat, rnd, calls_text, decision, discard_text, alone_text,
                                     dummy_text, score_text, record_file, line, after_plays, after_calls, rules)
        A.decision_of(sit)
    except A.AdviceError as e:
        raise InputError(str(e)) from None
    say_if_compiling(quiet or as_json or cold)
    answers = []
    inferring = None                    # --infer-policy as read (once, here, where it was first read before)
    for name in names + ([compare] if compare else []):
        bar = batch_bar(name, quiet or as_json)
        try:
            played = read_seats(name, sit.rules.players)      # read once, here
            A.policy_arrays(played, sit.rules.players)           # a bad or plain-Python one refused before any work
            model = win_model(sit.rules, played, model_hands or A.default_model_hands(played), seed,
                              say=None if quiet or as_json else _say, name=name)
            n_workers = workers or A.default_workers(played)
            if infer_policy is not None and inferring is None:
                inferring = read_seats(infer_policy, sit.rules.players)
            if cold and n_workers > 1:
                _compile_here(A, sit, played, not no_inference, seed, inferring)
            adv = A.advise(sit, played, name=name, samples=samples, seed=seed, infer=not no_inference, alpha=alpha,
                           workers=n_workers, on_batch=bar, infer_policy=inferring, stray=stray,
                           stop=not fixed, value=lambda got, m=model: deal_values(_Adv(sit, got), m)[0])
        except A.AdviceError as e:
            raise InputError(str(e)) from None
        except (SimError, ValueError) as e:
            said = str(e)
            raise InputError(said if said.startswith("--") else f"--policy {name}: {said}") from None
        table = advice_table(adv, model)
        answers.append((name, adv, table))
    against = answers.pop() if compare else None
    if as_json:
        _print_json(answers, against)
    else:
        _print_answers(sit, score_said, answers, against)


def _check_numbers(A, samples, alpha, stray, fixed, model_hands) -> float:
    """The options' numbers, each refused in one line; returns the stray chance (default ``A.STRAY``)."""
    if samples is not None and samples < 1:
        raise InputError(f"--samples {samples}: at least 1")
    if not A.MIN_ALPHA <= alpha < 1:
        raise InputError(f"--alpha {alpha:g}: an error rate from {A.MIN_ALPHA:g} up to (not including) 1")
    stray = A.STRAY if stray is None else stray
    if not 0.0 <= stray < 0.5:
        raise InputError(f"--stray {stray:g}: a chance from 0 up to (not including) 0.5")
    if fixed and samples is None:
        raise InputError("--fixed: give --samples, the number of deals to play")
    if model_hands is not None and model_hands < 100:
        raise InputError(f"--model-hands {model_hands}: at least 100")
    return stray


def _print_json(answers, against) -> None:
    from euchresim.analysis.advisor_table import advice_json
    out = [advice_json(adv, table) for _, adv, table in answers]
    one = out[0] if len(out) == 1 else {"models": out}
    if against is not None:
        one["table"] = TABLES[PEOPLE]
        one["against_bots"] = advice_json(against[1], against[2])
    click.echo(json.dumps(_finite(one), indent=2))


def _print_answers(sit, score_said, answers, against) -> None:
    """The situation, which table, each model's table and verdict, and the answer at a table of bots."""
    from euchresim.analysis.advisor_table import format_advice
    click.echo(_describe(sit))
    if score_said:
        click.echo(score_said)
    if len(answers) == 1:
        click.echo(_table_line(answers[0][0]))
    for name, adv, table in answers:
        if len(answers) > 1:
            click.echo(f"\n== {name}{' (sees every card: a cheating bound)' if adv.cheats else ''}")
        click.echo(format_advice(adv, table))
    if len(answers) > 1:
        picks = {name: table.loc[table["best"], "action"].iloc[0] for name, _, table in answers}
        if len(set(picks.values())) > 1:
            click.echo("\nthe models disagree: " + "; ".join(f"{n} says {a}" for n, a in picks.items()))
        else:
            click.echo(f"\nthe models agree: {next(iter(picks.values()))}")
    if against is not None:
        click.echo(_against_bots(answers[0][2], against))


def _table_line(name: str) -> str:
    """Which table the answer assumes, in one line."""
    return f"table: {name}: {TABLES.get(name, 'every other seat plays as this policy')}"


def _against_bots(table, against) -> str:
    """The default answer's rival at a table of strong bots: one line when both agree, its verdict when not."""
    from euchresim.analysis.advisor_table import format_advice
    name, adv, other = against
    mine = table.loc[table["best"], "action"].iloc[0]
    theirs = other.loc[other["best"], "action"].iloc[0]
    if mine == theirs:
        return f"\nagainst {name} ({TABLES[name]}): {theirs} too"
    return (f"\nagainst {name} ({TABLES[name]}) the answer differs:\n" + format_advice(adv, other))


def _advisor_compiled() -> bool:
    """Whether the advisor's kernel is in the cache; reading the hand compiles it otherwise (tens of seconds)."""
    import os
    from euchresim.engine import cache_dir
    try:
        names = os.listdir(os.path.join(cache_dir(), "loops"))
    except OSError:
        return False
    return any(n.startswith("advise.play_options-") and n.endswith(".nbi") for n in names)


def _compile_here(A, sit, name, infer, seed, infer_policy):
    """One deal in this process first, so the worker processes read the compiled kernels, not compile each their own."""
    try:
        A.play_batch(sit, A.decision_of(sit), name, infer, 1, seed, 0, infer_policy)
    except A.AdviceError:
        pass                     # a deal hard to find: the run proper says so


class _Adv:
    """What ``deal_values`` reads of an answer, for the samples so far."""

    def __init__(self, situation, samples):
        self.situation, self.samples = situation, samples


def _say(text):
    click.echo(text, err=True)


def _finite(v):
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {k: _finite(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_finite(x) for x in v]
    return v


def _situation(A, hand, upcard, seat, rnd, calls_text, decision, discard_text, alone_text, dummy_text, score_text,
               record_file, line, after_plays, after_calls, rules):
    if record_file is not None:
        if hand or upcard or seat or calls_text or discard_text or dummy_text or alone_text:
            raise InputError("--record takes the hand, upcard, seat and calls from the record: "
                             "give --line and --after (or --after-calls), not --hand/--upcard/--seat/--calls")
        from euchresim.rules import Rules
        if rules != Rules():
            raise InputError("--record: the record states its own rules; leave out the rule options "
                             "(--players, --deck, ...)")
        rec = _read_record(record_file, line)
        sit = A.from_record(rec, calls=after_calls, plays=after_plays, decision=decision)
        if score_text is not None:
            from euchresim.analysis.advisor_table import score_phrase
            sc = _score(score_text, rec.rules.players, rec.rules.game_to)
            was = score_phrase(sit) if rec.score is not None else None
            sit = A.Situation(**{**sit.__dict__, "score": A.score_tuple(sc, rec.rules.players, sit.seat)})
            said = (f"the score is {score_phrase(sit)}, from --score"
                    + (f", in place of the record's {was}" if was is not None else " (the record has none)"))
            return sit, said
        return sit, None
    if after_plays is not None or after_calls is not None:
        raise InputError("--after and --after-calls go with --record")
    if not hand or not upcard or seat is None:
        what = [n for n, v in (("--hand", hand), ("--upcard", upcard), ("--seat", seat)) if not v]
        up = (" (in round two the upcard is the card turned down)" if "--upcard" in what and rnd == "2" else "")
        raise InputError(f"give {', '.join(what)}{up} (or --record FILE)")
    deck = rules.deck
    cards = _cards(hand, "--hand", deck)
    if len(cards) != 5:
        raise InputError(f"--hand: {len(cards)} cards given; a hand is 5 (R4)")
    up = _cards(upcard, "--upcard", deck)
    if len(up) != 1:
        raise InputError("--upcard: give one card")
    if up[0] in cards:
        raise InputError(f"--upcard: {upcard.strip().upper()} is also in --hand")
    pos = _position(seat, rules.players)
    calls = _calls(calls_text) if calls_text is not None else A.default_calls(int(rnd), pos, rules.players)
    if calls_text is not None and int(rnd) == 2 and len(calls) < rules.players:
        raise InputError(f"--round 2: the calls must include round one's {rules.players} passes")
    discard = -1
    if discard_text:
        d = _cards(discard_text, "--discard", deck)
        if len(d) != 1 or (d[0] not in cards and d[0] != up[0]):
            raise InputError("--discard: one card of the dealer's hand or the upcard")
        discard = d[0]
    dummy = 0
    if dummy_text:
        if rules.players != 3:
            raise InputError("--dummy: only Cutthroat (--players 3) has a dummy (R9)")
        dc = _cards(dummy_text, "--dummy", deck)
        if len(dc) != 5 or set(dc) & (set(cards) | {up[0]}):
            raise InputError("--dummy: five cards, none of them in --hand or the upcard (R9)")
        dummy = sum(1 << c for c in dc)
    sc = _score(score_text, rules.players, rules.game_to)
    alone = 0
    for name in (alone_text or "").replace(",", " ").split():
        alone |= 1 << A.seat_of(_position(name, rules.players), 0, rules.players)
    return A.from_hand(rules, sum(1 << c for c in cards), up[0], pos, tuple(calls), sc, decision, discard=discard,
                       dummy=dummy, alone=alone), None


def _read_record(path, line):
    from euchresim.records.format import RecordError, parse_record
    from euchresim.records.jsonl import iter_jsonl
    if line < 1:
        raise InputError(f"--line {line}: lines are numbered from 1")
    n = 0
    try:
        for n, obj in iter_jsonl(path):
            if n == line:
                try:
                    return parse_record(obj)
                except RecordError as e:
                    raise InputError(f"{path}:{line}: {e}") from None
    except OSError as e:
        raise InputError(f"--record {path}: {e.strerror or e}") from None
    except ValueError as e:
        raise InputError(f"--record {path}: {e}") from None
    raise InputError(f"--record {path}: there is no line {line} (the file has {n} lines)")


def _describe(sit) -> str:
    from euchresim.cards import card_str
    from euchresim.records.format import cards_desc
    players = sit.rules.players
    who = list(POSITIONS[players])[sit.position]
    hand = " ".join(cards_desc(sit.fixed[sit.seat]))
    turned = "turned down" if len(sit.calls) >= players and not any(sit.calls[:players]) else "upcard"
    parts = [f"{who}, holding {hand}; {turned} {card_str(sit.upcard)}"]
    if sit.calls:
        from euchresim.actions import call_word
        parts.append("calls so far: " + ", ".join(call_word(c) for c in sit.calls))
    if sit.plays:
        parts.append("cards played: " + " ".join(card_str(c) for c in sit.plays))
    if any(sit.score):
        from euchresim.analysis.advisor_table import score_phrase
        parts.append("score " + score_phrase(sit))
    return "; ".join(parts)

