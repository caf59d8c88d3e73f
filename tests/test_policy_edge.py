"""A policy's name is read where it enters, and carried as a ``policies.Seats`` from there (docs/policies.md).

The entry points are the command line (one function, ``cli/options.py``),
the web table (``play/table.py``), the OpenSpiel bot
(``interop/openspiel.EuchresimBot``) and a Python caller's script, which
reads its names with ``policies.seats`` and hands the library's doors
(``RunSpec``, ``DuelSpec``, ``advise``, ``ReportContext``) the ``Seats``:
the doors refuse a name. The first test reads the source with ``ast`` and fails
when any other module calls a reader, so the count cannot creep back; the
second checks the checker on a planted call; the last count the reads a
command makes.
"""
import ast
import os

from click.testing import CliRunner

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.join(ROOT, "euchresim")

# what reads a policy's name: policies' parser and the rules that read a declaration from a name
READERS = {"parse", "seats", "split_name", "canonical", "rebuilt", "with_checks", "resolve", "cheats", "cost",
           "searches", "functions", "python_functions", "read_policy"}
ENTRY_POINTS = {
    "euchresim/cli/options.py": "the command line: read_seats, read_side",
    "euchresim/play/table.py": "the web table: Session.check",
    "euchresim/interop/openspiel.py": "the OpenSpiel bot: EuchresimBot",
}
PARSER = "euchresim/policies/"          # the parser itself (and a fallback's built-in, read inside it)


def reader_calls(source: str, path: str = "<source>") -> list[tuple[int, str]]:
    """(line, name) of every call in ``source`` of a reader imported from ``euchresim.policies``
    (``from euchresim.policies import seats``, ``policies.seats(...)``), or of one named ``read_policy``."""
    tree = ast.parse(source, path)
    names, modules = {"read_policy": "read_policy"}, set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "euchresim.policies":
            names.update({a.asname or a.name: a.name for a in node.names if a.name in READERS})
        elif isinstance(node, ast.ImportFrom) and node.module == "euchresim":
            modules.update(a.asname or a.name for a in node.names if a.name == "policies")
        elif isinstance(node, ast.Import):
            modules.update(a.asname for a in node.names if a.name == "euchresim.policies" and a.asname)
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in names:
            out.append((node.lineno, names[f.id]))
        elif (isinstance(f, ast.Attribute) and f.attr in READERS and isinstance(f.value, ast.Name)
              and f.value.id in modules):
            out.append((node.lineno, f.attr))
    return out


def _sources():
    for dirpath, _, files in os.walk(PKG):
        for f in sorted(files):
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                with open(path, encoding="utf-8") as fh:
                    yield os.path.relpath(path, ROOT).replace(os.sep, "/"), fh.read()


def test_only_the_entry_points_read_a_policys_name():
    """Everything below an entry point is handed a ``Seats`` and reads no name again."""
    stray = [f"{rel}:{line} calls {name}" for rel, src in _sources()
             if not rel.startswith(PARSER) and rel not in ENTRY_POINTS
             and "euchresim/examples/" not in rel for line, name in reader_calls(src, rel)]
    assert not stray, "a policy's name read below the edge (hand it a policies.Seats):\n" + "\n".join(stray)


def test_each_entry_point_reads_names_and_the_list_has_no_dead_entry():
    """An entry point that no longer reads is dropped from the list, so the list is the count."""
    calls = {rel: reader_calls(src, rel) for rel, src in _sources()}
    assert all(calls[rel] for rel in ENTRY_POINTS), [rel for rel in ENTRY_POINTS if not calls[rel]]


def test_the_checker_finds_a_planted_read():
    """A read planted in a module below the edge, in each form an import can take, is found."""
    forms = [
        "from euchresim.policies import seats\ndef f(x):\n    return seats(x, 4)\n",
        "from euchresim.policies import parse as p\ndef f(x):\n    return p(x)\n",
        "from euchresim import policies\ndef f(x):\n    return policies.canonical(x)\n",
        "import euchresim.policies as P\ndef f(x):\n    return P.cost(x)\n",
        "from euchresim.studies.advisor.situation import read_policy\nread_policy('best', 4)\n",
    ]
    for src in forms:
        assert reader_calls(src), src
    assert not reader_calls("from euchresim.policies import Seats\ndef f(t):\n    return t.cost\n")
    # and in the tree: the same source under a module below the edge fails the first test's rule
    rel = "euchresim/analysis/advisor_table.py"
    with open(os.path.join(ROOT, rel), encoding="utf-8") as fh:
        planted = fh.read() + "\n\ndef _again(name):\n    from euchresim.policies import seats\n    return seats(name, 4)\n"
    assert rel not in ENTRY_POINTS and reader_calls(planted, rel)


def _count_parses(monkeypatch):
    import euchresim.policies as P
    seen = []
    real = P.parse

    def counting(spec, seat=0):
        seen.append(spec)
        return real(spec, seat)
    monkeypatch.setattr(P, "parse", counting)
    return seen


def test_simulate_reads_each_name_once(monkeypatch):
    """``simulate --policy heuristic,baseline,heuristic,baseline``: two names, two reads, however many chunks."""
    from euchresim.cli.app import cli
    seen = _count_parses(monkeypatch)
    res = CliRunner().invoke(cli, ["simulate", "--hands", "400", "--chunk-size", "100", "--workers", "1",
                                   "--policy", "heuristic,baseline,heuristic,baseline", "--quiet"])
    assert res.exit_code == 0, res.output
    assert sorted(seen) == ["baseline", "heuristic"]


def test_a_duel_reads_each_side_once(monkeypatch):
    """A duel's two sides are read at the command line and carried to every seating's run."""
    from euchresim.cli.app import cli
    seen = _count_parses(monkeypatch)
    res = CliRunner().invoke(cli, ["duel", "baseline", "random", "--deals", "2", "--workers", "1", "--json"])
    assert res.exit_code == 0, res.output
    assert sorted(seen) == ["baseline", "random"]


def test_the_librarys_doors_refuse_a_name_and_say_how_to_read_it():
    """A script reads its names (``policies.seats``) and hands the doors a ``Seats``: a name given to a door is
    refused in one line naming the door and the call that reads it, not read a second way below the edge."""
    import pytest
    from euchresim.policies import PolicyError, seats
    from euchresim.report import ReportContext, ReportError
    from euchresim.rules import Rules
    from euchresim.run.runner import RunSpec
    from euchresim.studies.advisor.evaluate import advise
    from euchresim.studies.advisor.situation import from_hand
    from euchresim.studies.duel import DuelSpec
    from euchresim.cards import parse_board, parse_card
    rules = Rules()
    with pytest.raises(PolicyError, match=r"RunSpec\(policies=\.\.\.\): \('best',\) is not a policies.Seats; .*: "
                       r"policies.seats\(\('best',\), 4\)$"):
        RunSpec(rules=rules, policies=("best",))
    with pytest.raises(PolicyError, match="3 seats' policies for 4 players"):
        RunSpec(rules=rules, policies=seats(["heuristic"], 3))
    with pytest.raises(PolicyError, match=r"DuelSpec\(b=\.\.\.\): 'random' is not a policies.Seats"):
        DuelSpec(rules, seats(["heuristic"], 4), "random")
    h, b = seats(["heuristic"], 4), seats(["baseline"], 4)
    again = DuelSpec(rules, "heuristic", "baseline", models=(h, b))     # a part of a duel: its names with its models
    assert (again.a, again.b, again.models) == ("heuristic", "baseline", (h, b))
    with pytest.raises(PolicyError, match=r"DuelSpec\(a='best'\): its model plays heuristic"):
        DuelSpec(rules, "best", "baseline", models=(h, b))                # a name its model does not play
    with pytest.raises(PolicyError, match="is not a policies.Seats"):
        DuelSpec(rules, "heuristic", "baseline", models=("heuristic", "baseline"))
    with pytest.raises(PolicyError, match="a side plays one policy at every seat"):
        DuelSpec(rules, seats(["heuristic", "random", "heuristic", "random"], 4), b)
    sit = from_hand(rules, parse_board(["JH", "JD", "AH", "KS", "9C"]), parse_card("TH"), position=1)
    with pytest.raises(PolicyError, match=r"advise\(policy=\.\.\.\): 'heuristic' is not .*policies.seats\(\['heuristic'\], 4\)"):
        advise(sit, "heuristic")
    with pytest.raises(PolicyError, match=r"advise\(infer_policy=\.\.\.\): 'heuristic'"):
        advise(sit, seats(["heuristic"], 4), infer_policy="heuristic")
    with pytest.raises(ReportError, match="ReportContext: models, one policies.Seats for each of policies"):
        ReportContext(kind="order-up", out="x", hands=10, seed=1, rules=rules, policies=("best",))
    with pytest.raises(ReportError, match="ReportContext: models"):
        ReportContext(kind="order-up", out="x", hands=10, seed=1, rules=rules)       # no play model at all
    with pytest.raises(PolicyError, match=r"ReportContext\(models=\.\.\.\) for best: 3 seats' policies"):
        ReportContext(kind="order-up", out="x", hands=10, seed=1, rules=rules, policies=("best",),
                      models=(seats(["best"], 3),))
    from euchresim.play.verdicts import Advisor
    with pytest.raises(PolicyError, match=r"Advisor\(model=\.\.\.\): 'heuristic' is not a policies.Seats"):
        Advisor("heuristic", 10, model="heuristic")


def test_a_seats_moves_to_another_table_only_when_every_seat_plays_one_policy():
    """``Seats.for_players``: a report's other variants seat the model it read, nothing parsed again."""
    import pytest
    from euchresim.policies import PolicyError, seats
    from euchresim.policies.presets import declared_seats
    t = seats(["heuristic"], 4)
    mixed = seats(["heuristic", "random", "heuristic", "random"], 4)
    assert mixed.for_players(4) is mixed                       # its own table as it is
    three = t.for_players(3)
    assert len(three) == 3 and three.names == ["heuristic"] * 3 and three.policies[0] is t.policies[0]
    with pytest.raises(PolicyError, match="the seats play different policies"):
        mixed.for_players(3)
    assert declared_seats("best", 4) == seats(["best"], 4) and declared_seats("random", 2) == seats(["random"], 2)
    with pytest.raises(PolicyError, match="not a built-in"):
        declared_seats("nonesuch", 4)
