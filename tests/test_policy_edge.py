"""A policy's name is read where it enters, and carried as a ``policies.Seats`` from there (docs/policies.md).

The entry points are the command line (one function, ``cli/options.py``),
the web table (``play/table.py``), the OpenSpiel bot
(``interop/openspiel.EuchresimBot``) and a Python caller's script, whose
name the library's entry points read with the one edge helper,
``policies.seats`` (``RunSpec``, ``DuelSpec``, ``advise``,
``ReportContext``). The first test reads the source with ``ast`` and fails
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
    "euchresim/run/runner.py": "a script's run: RunSpec(policies=NAMES)",
    "euchresim/studies/duel.py": "a script's duel: DuelSpec(rules, A, B); a saved result's cheats",
    "euchresim/studies/advisor/evaluate.py": "a script's advice: advise(sit, NAME)",
    "euchresim/report/__init__.py": "a script's report: ReportContext(policies=NAMES)",
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
