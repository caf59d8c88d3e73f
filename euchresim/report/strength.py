"""How strong a report's main model is, in the measurements docs/policies.md keeps, with their commands.

A report's numbers are only as good as the bot that played them, so each
report says how that bot fared: its duplicate duels against the other
bots ("Which is stronger") and its matches against OpenSpiel's IS-MCTS.
The figures are read from docs/policies.md, where every measurement is
recorded once with its command, rather than copied into the code, so a
report made after a new measurement quotes it.

Only lines that name the bot by its full definition count. A line that
names ``best`` was measured against the ``best`` of its day, and ``best``
moves (docs/policies.md, "`best`"), so such a line is never quoted as
evidence for today's ``best``: the report's main model is matched by its
settings, written out.
"""
from __future__ import annotations

import os
import re

from euchresim.policies import head, identity

DOCS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "docs",
                    "policies.md")
SECTION = "## Which is stronger"


def _key(spec: str):
    """A bot's identity in written-out text (``policies.identity``): compared as text, without the policy
    reader: the report hands in its main model written out (``ReportContext.canonical``), and a docs line that
    names ``best`` is never read (``_explicit``)."""
    return identity(spec)


def _section(text: str, heading: str = SECTION) -> str:
    """From ``heading`` to the next heading of its level or above (its own subsections kept)."""
    start = text.find(heading)
    if start < 0:
        return ""
    level = "\n" + heading.split(" ")[0] + " "
    end = min([i for i in (text.find(level, start + len(heading)), text.find("\n## ", start + len(heading)))
               if i >= 0], default=-1)
    return text[start:] if end < 0 else text[start:end]


def _tables(section: str):
    """Every markdown table of the section as (header cells, body rows of cells)."""
    out, rows = [], None
    for line in section.splitlines() + [""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if rows is None:
                rows = []
                out.append((cells, rows))
            elif not set(line) <= set("|-: "):
                rows.append(cells)
        else:
            rows = None
    return out


def _names(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def _explicit(cell: str):
    """The policy a cell names by its definition: the last name in backticks (``best`` (``pimc:...``) is
    the parenthesis), and none if that name starts with ``best`` (a name whose meaning moves)."""
    names = _names(cell)
    if not names or head(names[-1]) == "best":
        return None
    return names[-1]


def _duel_commands(section: str) -> dict:
    """The section's ``euchresim duel A B ...`` lines, by the pair of bots they play."""
    out = {}
    for line in section.splitlines():
        words = line.strip().split()
        if len(words) > 3 and words[:2] == ["euchresim", "duel"]:
            a, b = _key(words[2]), _key(words[3])
            if not words[2].lower().startswith("best") and not words[3].lower().startswith("best"):
                out.setdefault((a, b), line.strip().split("  #")[0].strip())
    return out


def strength_lines(policy: str, path: str = DOCS) -> list[str]:
    """docs/policies.md's measurements of ``policy``, written out (``best`` as its definition), matched by
    its settings, one line each with the
    command that made it: its duels as side A and its matches against IS-MCTS on stated deals and seed."""
    me = _key(policy)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        section = _section(f.read())
    commands = _duel_commands(section)
    lines = []
    for header, rows in _tables(section):
        if header[:2] == ["A", "B"] and len(header) >= 6:
            for r in rows:
                a, b = _explicit(r[0]), _explicit(r[1])
                if a and b and _key(a) == me:
                    cmd = commands.get((me, _key(b)))
                    at = 2 if "won" in header[2] else 3           # a "games, seed" column before the games won
                    lines.append(f"against `{b}` it wins {r[at].strip('*')} of duplicate games "
                                 f"({r[at + 1]}), {r[at + 2].strip('*')} points a hand ({r[at + 3]})"
                                 + (f": `{cmd}`" if cmd else ""))
        elif header[:3] == ["ours", "against", "deals, seed"]:
            for r in rows:
                mine = _explicit(r[0])
                sims = re.fullmatch(r"IS-MCTS ([\d,]+)", r[1])
                if mine and sims and _key(mine) == me:
                    deals, seed = (x.strip().replace(",", "") for x in r[2].rsplit(",", 1))
                    lines.append(f"against OpenSpiel's IS-MCTS at {sims.group(1)} simulations, "
                                 f"{r[3].strip('*')} points a hand ({r[4]}) on {int(deals):,} deals: "
                                 f"`euchresim duel {mine} openspiel:ismcts:sims={sims.group(1).replace(',', '')} "
                                 f"--deals {deals} --seed {seed}`")
    return lines


def strength_text(policy: str, shown: str | None = None, path: str = DOCS) -> str:
    """One paragraph for a report's head: how strong its main model is, with the commands, or where to
    look when docs/policies.md has no line for it."""
    lines = strength_lines(policy, path)
    who = shown or policy
    if not lines:
        return (f"How strong {who} is, against the other bots and OpenSpiel's IS-MCTS, with the commands that "
                "measured it: docs/policies.md, 'Which is stronger'.")
    return (f"How strong {who} is (docs/policies.md, 'Which is stronger', 4 players, 24 cards): "
            + "; ".join(lines) + "."
            + (" IS-MCTS is not deterministic under a seed: a rerun of its lines agrees as statistics, within "
               "the intervals, not to the digit." if any("IS-MCTS" in x for x in lines) else ""))


CALLS_SECTION = "### `best`'s calls in every variant"
_VARIANT = re.compile(r"(4 players|2-hand|Cutthroat), (\d\d) cards(?: \(joker\))?")
_PLAYERS = {"4 players": 4, "2-hand": 2, "Cutthroat": 3}


def _tables_after_runs(section: str):
    """Every markdown table of the section with the words of the last ``euchresim duel`` line above it (the run
    that made it): (header cells, body rows of cells, the run's words)."""
    out, rows, words = [], None, []
    for line in section.splitlines() + [""]:
        if line.strip().startswith("euchresim duel "):
            words = line.split("#")[0].split()
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if rows is None:
                rows = []
                out.append((cells, rows, words))
            elif not set(line) <= set("|-: "):
                rows.append(cells)
        else:
            rows = None
    return out


def _variant_command(words: list[str], definition: str, players: int, deck: int) -> str:
    """The duel line of one variant, its bots written out (``best`` as ``definition``), --players and --deck its own:
    the docs write one line for several packs ('# and --deck 25, 32, 33')."""
    out, skip = [], False
    for w in words:
        if skip:
            skip = False
            continue
        if w in ("--players", "--deck"):
            skip = True
            continue
        out.append(definition + w[4:] if head(w) == "best" else w)
    return " ".join(out + ([f"--players {players}"] if players != 4 else []) + ([f"--deck {deck}"] if deck != 24 else []))


def variant_calls(policy: str, path: str = DOCS) -> dict:
    """docs/policies.md's duels of ``policy``'s own calls against heuristic's under the same play, per plain variant
    ((players, deck): the line with the most games, and in ``others`` every other duel of that variant, most
    games first), from the columns that name ``policy`` by its definition.

    The other duels are kept because a reader should see them: Cutthroat with the joker shows its gain above 0
    on 12,000 games where the 1,000- and 3,000-game duels on other seeds did not; quoting the largest alone
    would hide that the gain is small enough to need them.

    A report made under ``best`` in every pack and table (decks) says from these how soundly its main model
    calls in each: a column headed by another definition (the ``best`` of an earlier day) is never read.
    """
    me = _key(policy)
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        section = _section(f.read(), CALLS_SECTION)
    out, seen = {}, {}
    for header, rows, words in _tables_after_runs(section):
        col = next((i for i, h in enumerate(header) if h.endswith(": points a hand") and _names(h)
                    and _key(_names(h)[-1]) == me), None)
        if col is None or header[0] != "variant":
            continue
        won = col + 2 if col + 3 < len(header) and header[col + 2] == "games won" else None   # its own, or none
        for r in rows:
            m = _VARIANT.fullmatch(r[0])
            if not m or not r[col].strip("*").strip():
                continue
            players, deck = _PLAYERS[m.group(1)], int(m.group(2))
            games = int(r[header.index("games")].replace(",", "")) if "games" in header else \
                int(words[words.index("--games") + 1])
            line = {"games": games, "gain": r[col].strip("*"), "interval": r[col + 1],
                    "won": r[won].strip("*") if won is not None else None,
                    "won_interval": r[won + 1] if won is not None else None,
                    "command": _variant_command(words, policy, players, deck)}
            seen.setdefault((players, deck), []).append(line)
    for key, lines in seen.items():         # the most games first; ties keep the docs' order
        lines = sorted(lines, key=lambda c: -c["games"])
        out[key] = {**lines[0], "others": lines[1:]}
    return out
