"""`best`: the strongest fair bot, by the measurements docs/policies.md quotes, and a name usable anywhere."""
import os
import re

import pytest

from euchresim.policies import BEST, PolicyError, cheats, parse, seats

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _section(text, heading):
    """The text under ``heading`` up to the next heading of its level or above."""
    level = heading.split(" ", 1)[0]
    start = text.index(heading + "\n")
    rest = text[start + len(heading) + 1:]
    ends = [m.start() for m in re.finditer(r"^(#+) ", rest, re.M) if len(m.group(1)) <= len(level)]
    return rest[:ends[0]] if ends else rest


def _tables(section):
    """The markdown tables in ``section``, each a list of rows of cells (its rule line left out)."""
    tables, rows = [], None
    for line in section.splitlines() + [""]:
        if line.startswith("|"):
            if rows is None:
                rows = []
                tables.append(rows)
            if not set(line) <= set("|-: "):
                rows.append([c.strip().strip("`").replace(" (cheats)", "").strip("`")
                             for c in line.strip("|").split("|")])
        else:
            rows = None
    return tables


def _table(section, first_header):
    """The body of the first table whose header starts with ``first_header``."""
    return next(t[1:] for t in _tables(section) if t[0][0] == first_header)


def _pct(cell):
    return float(cell.rstrip("%"))


def _docs():
    with open(os.path.join(ROOT, "docs", "policies.md"), encoding="utf-8") as f:
        text = f.read()
    duels = {(r[0], r[1]): r for r in _table(_section(text, "## Which is stronger"), "A")}
    ranking = _table(_section(text, "### `best`"), "rank")
    return duels, ranking


def test_best_is_the_first_of_the_docs_ranking_and_every_rank_is_measured():
    """The ranking's first line is best's definition; each line beats the next in a duel of the table
    above it (interval above 50%), and no fair bot of that table beats the first."""
    duels, ranking = _docs()
    assert ranking, "docs/policies.md has no ranking under ### `best`"
    assert parse(ranking[0][1]).name == parse("best").name
    for upper, lower in zip(ranking, ranking[1:]):
        assert upper[2] == lower[1], f"rank {upper[0]} should name the bot it beats, {lower[1]}"
        line = duels[(upper[1], lower[1])]
        low = _pct(line[3].replace("–", "-").split(" - ")[0])
        assert low > 50 and line[2].strip("*") == upper[3], f"{upper[1]} over {lower[1]} is not measured so"
    fair = {a for a, _ in duels if not cheats(a)} | {b for _, b in duels if not cheats(b)}
    assert set(r[1] for r in ranking) <= fair
    for (a, b), line in duels.items():
        if b == ranking[0][1] and not cheats(a):
            assert _pct(line[3].replace("–", "-").split(" - ")[0]) <= 50, f"{a} beats best's {b}"


def test_best_is_a_fair_bot_read_as_its_definition():
    p, q = parse("best"), parse(BEST)
    assert (p.name, p.pid) == (q.name, q.pid) and (p.row == q.row).all()
    assert not p.cheats and not cheats("best") and not cheats("BEST:worlds=20")
    assert parse(" Best:worlds=20").name == parse(BEST + ":worlds=20").name       # settings on top of it
    assert seats(["best", "heuristic", "best", "heuristic"], 4).names[0] == q.name
    with pytest.raises(PolicyError, match="nokey"):
        parse("best:nokey=1")


@pytest.mark.slow
def test_best_works_wherever_a_policy_is_named():
    from tests.helpers import run_cli
    code, out, _ = run_cli(["simulate", "--policy", "best:worlds=4", "--hands", "8", "--workers", "1", "--json"])
    assert code == 0 and "worlds=4" in out
    code, out, _ = run_cli(["duel", "best:worlds=4", "heuristic", "--games", "2", "--workers", "1"])
    assert code == 0 and f"A: best ({parse(BEST + ':worlds=4').name})" in out
    code, out, _ = run_cli(["ladder", "best:worlds=4", "heuristic", "--games", "2", "--workers", "1"])
    assert code == 0 and f"best ({parse(BEST + ':worlds=4').name})" in out
