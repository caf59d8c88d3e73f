"""The advisor's answer as ``euchresim advise`` prints it: the situation in words, which table, each model's
table and verdict, and the answer at a table of bots; or the same as JSON.

A script gets the command's text word for word: ``answer`` is one model's
answer as the command makes it (the advice, stopped on the side's chance of
winning the game when a score is set, and its table), and ``answers_text``
(or ``answers_json``) prints a list of them.
"""
from __future__ import annotations

import json
import math

from euchresim.studies.advisor.situation_words import PEOPLE, TABLES


def describe(sit) -> str:
    """The situation in one line: who, holding what, the upcard, the calls and cards so far, the score."""
    from euchresim.cards import card_str
    from euchresim.records.format import cards_desc
    from euchresim.studies.advisor.situation_words import POSITIONS
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


def with_score(sit, rec, score_text):
    """``sit`` (read from the record ``rec``) at the score ``score_text`` (``--score``), and the line that says
    so, naming the record's own score it replaces; (``sit``, None) when no score is given."""
    if score_text is None:
        return sit, None
    from euchresim.analysis.advisor_table import score_phrase
    from euchresim.studies.advisor.situation import Situation, score_tuple
    from euchresim.studies.advisor.situation_words import parse_score
    sc = parse_score(score_text, rec.rules.players, rec.rules.game_to)
    was = score_phrase(sit) if rec.score is not None else None
    sit = Situation(**{**sit.__dict__, "score": score_tuple(sc, rec.rules.players, sit.seat)})
    said = (f"the score is {score_phrase(sit)}, from --score"
            + (f", in place of the record's {was}" if was is not None else " (the record has none)"))
    return sit, said


def table_line(name: str) -> str:
    """Which table the answer assumes, in one line."""
    return f"table: {name}: {TABLES.get(name, 'every other seat plays as this policy')}"


def against_bots(table, against) -> str:
    """The default answer's rival at a table of strong bots: one line when both agree, its verdict when not."""
    from euchresim.analysis.advisor_table import format_advice
    name, adv, other = against
    mine = table.loc[table["best"], "action"].iloc[0]
    theirs = other.loc[other["best"], "action"].iloc[0]
    if mine == theirs:
        return f"\nagainst {name} ({TABLES[name]}): {theirs} too"
    return (f"\nagainst {name} ({TABLES[name]}) the answer differs:\n" + format_advice(adv, other))


def answer(sit, played, name: str = "", *, model_hands: int | None = None, seed: int = 0, say=None, **options):
    """One model's answer to ``sit`` as ``advise`` makes it: (``Advice``, its ``advice_table``).

    ``played`` a ``policies.Seats`` (the caller reads the name); ``options``
    go to ``studies.advisor.evaluate.advise`` (samples, infer, alpha,
    workers, on_batch, infer_policy, stray, stop). The P(win) model is made
    (or read from its cache) first, because the sampling stops on what the
    table compares: the chance of winning the game where a score is set.
    """
    from euchresim.analysis.advisor_table import advice_table, deal_values, win_model
    from euchresim.studies.advisor import evaluate as A
    model = win_model(sit.rules, played, model_hands or A.default_model_hands(played), seed, say=say, name=name)
    adv = A.advise(sit, played, name=name, seed=seed, value=lambda got: deal_values(_SoFar(sit, got), model)[0],
                   **options)
    return adv, advice_table(adv, model)


class _SoFar:
    """What ``deal_values`` reads of an answer, for the samples played so far (the stop's measure)."""

    def __init__(self, situation, samples):
        self.situation, self.samples = situation, samples


def answers_text(sit, answers, against=None, score_said=None) -> str:
    """All that ``advise`` prints of its answers: ``answers`` a list of (policy as named, ``Advice``, its
    ``advice_table``), ``against`` the same for the table of bots shown beside the default answer (or None),
    ``score_said`` the line ``with_score`` returns."""
    from euchresim.analysis.advisor_table import format_advice
    lines = [describe(sit)]
    if score_said:
        lines.append(score_said)
    if len(answers) == 1:
        lines.append(table_line(answers[0][0]))
    for name, adv, table in answers:
        if len(answers) > 1:
            lines.append(f"\n== {name}{' (sees every card: a cheating bound)' if adv.cheats else ''}")
        lines.append(format_advice(adv, table))
    if len(answers) > 1:
        picks = {name: table.loc[table["best"], "action"].iloc[0] for name, _, table in answers}
        if len(set(picks.values())) > 1:
            lines.append("\nthe models disagree: " + "; ".join(f"{n} says {a}" for n, a in picks.items()))
        else:
            lines.append(f"\nthe models agree: {next(iter(picks.values()))}")
    if against is not None:
        lines.append(against_bots(answers[0][2], against))
    return "\n".join(lines)


def answers_json(answers, against=None) -> str:
    """``advise --json``: the answers (as ``answers_text`` takes them) as one JSON text, infinities as null."""
    from euchresim.analysis.advisor_table import advice_json
    out = [advice_json(adv, table) for _, adv, table in answers]
    one = out[0] if len(out) == 1 else {"models": out}
    if against is not None:
        one["table"] = TABLES[PEOPLE]
        one["against_bots"] = advice_json(against[1], against[2])
    return json.dumps(_finite(one), indent=2)


def _finite(v):
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {k: _finite(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_finite(x) for x in v]
    return v
