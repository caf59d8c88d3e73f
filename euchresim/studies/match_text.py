"""A duel's and a ladder's results as ``euchresim duel`` and ``euchresim ladder`` print them.

The text lives here, beside the matches (``duel.py``, ``ladder.py``), so a
script that plays a match gets the command's words from the result it
holds: ``duel_text(duel(spec), spec.rules)`` is what ``euchresim duel``
prints on standard output, ``ladder_text(out, rules, seed)`` what
``euchresim ladder`` prints.  Only strings here: no policy is read (a
result names its players canonically; each built-in's declaration says which
cheat when the caller does not).
"""
from __future__ import annotations

import math


def _pct(x):
    return "-" if x is None or math.isnan(x) else f"{100 * x:.1f}%"


def _signed(x, digits=3):
    return "-" if x is None or math.isnan(x) else f"{x:+.{digits}f}"


def _ms(x) -> str:
    return "-" if x is None or math.isnan(x) else f"{x:.2f}"


def rules_line(rules) -> str:
    """The rules a match plays, in one line: players, deck, target, and any option changed from the default."""
    changed = rules.changed()
    extra = ", ".join(f"{k}={v}" if k != "scoring" else "scoring=custom" for k, v in changed.items())
    return f"players {rules.players}  deck {rules.deck}  game to {rules.game_to}" + (f"  ({extra})" if extra else "")


def game_line(rules, o=None) -> str:
    """What the match plays: euchresim's rules, or OpenSpiel's euchre (one hand a game) with its two options."""
    if o is not None and o.get("game") == "openspiel euchre":
        return (f"OpenSpiel euchre, one hand a game  (stick_the_dealer={str(rules.stick_the_dealer).lower()}, "
                f"allow_lone_defender={str(rules.defend_alone).lower()})")
    return rules_line(rules)


def named(name: str, given: str | None = None, cheat: bool = False) -> str:
    """A player as shown: ``best`` with what it stands for, a cheat marked as one."""
    from euchresim.policies import head
    shown = f"best ({name})" if given is not None and head(given) == "best" else name
    return f"{shown} (cheats: sees every hand)" if cheat else shown


def _cheating(names, marked) -> set:
    """Which of ``names`` (canonical) cheat: ``marked``, as the models read at the edge say, or, for a result
    printed without them (None: a saved ``--json``), as each canonical name's built-in declares (looked up by
    its family, nothing read: a saved result's names were written out when it was played)."""
    if marked is not None:
        return set(marked)
    from euchresim.policies import POLICIES, head
    return {n for n in names if (info := POLICIES.get(head(n))) is not None and info.cheats}


def format_duel(o: dict, given=(None, None), cheats=None) -> str:
    """The duel as a reader wants it: who, how many, A's win rate and points per hand with intervals.

    ``o``: ``duel.duel``'s result (or ``duel.partial``'s); ``given``: A and B
    as the user named them (``best`` is shown with what it stands for);
    ``cheats``: the canonical names whose models cheat (the sides as read;
    None: as each name declares).
    """
    cheat = _cheating((o["a"], o["b"]), cheats)
    lo, hi = o["a_win_rate_ci"]
    plo, phi = o["points_per_hand_ci"]
    outside = o.get("game") == "openspiel euchre"
    count = (f"deals {o['deals']:,}  hands {o['hands']:,} (each deal once a seating)" if outside else
             f"deals {o['deals']:,}  games {o['games']:,}  hands {o['hands']:,}")
    lines = [
        f"A: {named(o['a'], given[0], o['a'] in cheat)}",
        f"B: {named(o['b'], given[1], o['b'] in cheat)}",
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


def duel_text(o: dict, rules, given=(None, None), cheats=None, planned: int | None = None) -> str:
    """All that ``euchresim duel`` prints of a result: the game's line, then ``format_duel``.

    ``planned``: the deal sequences asked for, when ``o`` is the partial
    result of a stopped duel (``duel.partial``); the first line then says
    how many of them were played.
    """
    head = f"duel  {game_line(rules, o)}"
    if planned is not None:
        head += f"  (partial: {o['deals']:,} of {planned:,} deal sequences)"
    return head + "\n" + format_duel(o, given, cheats)


def format_ladder(o: dict, given=None, cheats=None) -> str:
    """The rating table, best first, then who beat whom (``given``: the policies as named, for ``best``;
    ``cheats``: as ``format_duel``'s)."""
    given = list(given) if given is not None else [None] * len(o["policies"])
    cheat = _cheating(o["policies"], cheats)
    shown = {n: named(n, g, n in cheat) for n, g in zip(o["policies"], given)}
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


def ladder_text(o: dict, rules, seed: int, given=None, cheats=None) -> str:
    """All that ``euchresim ladder`` prints of a result (``ladder.ladder``'s): the game's line with the seed
    and the games played, then ``format_ladder``."""
    unit = "hands" if o["duels"][0].get("game") == "openspiel euchre" else "games"
    return (f"ladder  {game_line(rules, o['duels'][0])}  seed {seed}  {unit} {o['games']:,} "
            f"({o['duels'][0]['games']:,} a pair)\n" + format_ladder(o, given, cheats))
