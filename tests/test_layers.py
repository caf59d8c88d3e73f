"""The staircase of docs/layout.md, checked on the source and on what an import loads: every import points down.

Each folder of ``euchresim/`` is a layer; a module may import its own
folder and the layers below, never above, and no two modules import each
other even through a chain (lazy imports inside functions included: they
are arrows too). The test reads the source with ``ast``, so it needs no
import of the package and fails on a wrong arrow before anything runs; the
last tests import the kernels' layers in a fresh interpreter and look at
what was loaded.
"""
import ast
import os
import subprocess
import sys
from collections import defaultdict

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PKG = os.path.join(ROOT, "euchresim")

# lowest first; a module's layer is that of its first dotted part below euchresim
LAYERS = [
    {"", "cards", "rules", "actions", "stats", "records"},   # the vocabulary: pure data, no numba
    {"engine"},                                   # numba kernels and their tables
    {"policies"},                                 # bots: kernels too
    {"loops"},                                    # the jitted loops, and where Python meets them
    {"run"},                                      # chunks, seeds, workers, backends, run folders
    {"interop"},                                  # OpenSpiel's bridge: our bots in its game, its bots as players
    {"studies"},                                  # jobs on the runner (a duel with OpenSpiel's bots included)
    {"analysis"},                                 # pandas
    {"plots"},                                    # matplotlib
    {"report", "play"},                           # the strategy reports; the practice table (a web server)
    {"cli"},
]
# Worked examples are user code: they may import anything a user may.
OUTSIDE = ("euchresim.examples",)


def _modules():
    for dirpath, _, files in os.walk(PKG):
        for f in files:
            if f.endswith(".py"):
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, ROOT)[:-3].replace(os.sep, ".")
                yield (rel[: -len(".__init__")] if rel.endswith(".__init__") else rel), path


def _imports(mod, path):
    """Every euchresim module that ``mod`` imports, anywhere in its body."""
    is_pkg = path.endswith("__init__.py")
    with open(path, encoding="utf-8") as fh:
        tree = ast.parse(fh.read(), path)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "euchresim")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = mod.split(".") if is_pkg else mod.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "euchresim":
                continue
            found.add(target)
            for a in node.names:        # `from euchresim.x import y` where y is a module
                found.add(f"{target}.{a.name}")
    return found


def _existing(name, modules):
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name


def layer_of(mod):
    part = mod.split(".")[1] if mod.count(".") else ""
    for i, names in enumerate(LAYERS):
        if part in names:
            return i
    raise AssertionError(f"{mod}: in no layer of docs/layout.md")


def _graph():
    modules = dict(_modules())
    graph = defaultdict(set)
    for mod, path in modules.items():
        for target in _imports(mod, path):
            t = _existing(target, modules)
            if t and t != mod:
                graph[mod].add(t)
    return modules, graph


def wrong_arrows(graph):
    bad = []
    for mod, targets in graph.items():
        if mod.startswith(OUTSIDE):
            continue
        for t in targets:
            if layer_of(t) > layer_of(mod):
                bad.append(f"{mod} -> {t}")
            elif layer_of(t) == layer_of(mod) and t.split(".")[:2] != mod.split(".")[:2] and layer_of(t):
                bad.append(f"{mod} -> {t} (another folder of the same layer)")
    return sorted(bad)


def cycles(graph):
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_every_import_points_down_the_staircase():
    _, graph = _graph()
    assert wrong_arrows(graph) == []


def test_no_import_cycles():
    _, graph = _graph()
    # a package's __init__ importing its own modules is no cycle of design: drop package -> child
    real = {m: {t for t in ts if not t.startswith(m + ".")} for m, ts in graph.items()}
    assert cycles(real) == []


def test_the_checker_catches_a_wrong_arrow_and_a_cycle():
    graph = {"euchresim.engine.hand": {"euchresim.run.runner"}, "euchresim.run.runner": {"euchresim.engine.hand"},
             "euchresim.play.table": {"euchresim.report.order_up"}}
    assert wrong_arrows(graph) == ["euchresim.engine.hand -> euchresim.run.runner",
                                   "euchresim.play.table -> euchresim.report.order_up (another folder of the "
                                   "same layer)"]
    assert cycles(graph) == [["euchresim.engine.hand", "euchresim.run.runner"]]


def test_no_module_at_the_top_but_the_vocabulary():
    top = sorted(f[:-3] for f in os.listdir(PKG) if f.endswith(".py"))
    assert top == ["__init__", "actions", "cards", "rules", "stats"]


def test_no_module_name_repeats_in_another_folder():
    """A name says what a module is: ``advise.py`` in three folders made a newcomer open all three to find the
    advisor. Only the CLI's modules are named after their commands, and no library module takes such a name."""
    where = defaultdict(list)
    for mod, path in _modules():
        if not path.endswith("__init__.py"):
            where[os.path.basename(path)].append(mod)
    assert {name: mods for name, mods in where.items() if len(mods) > 1} == {}


@pytest.mark.parametrize("mod,path", sorted(_modules()))
def test_no_module_is_over_500_lines(mod, path):
    with open(path, encoding="utf-8") as fh:
        n = sum(1 for _ in fh)
    assert n <= 500, f"{mod}: {n} lines"


FORBIDDEN = {   # layers that must not load a heavy library even lazily: the kernels stay pure
    "engine": ("pandas", "pyarrow", "matplotlib", "click", "ray"),
    "policies": ("pandas", "pyarrow", "matplotlib", "click", "ray"),
    "loops": ("pandas", "pyarrow", "matplotlib", "click", "ray"),
    "records": ("numba", "matplotlib", "click", "ray"),
}


def test_kernel_layers_import_no_io_libraries():
    bad = []
    for mod, path in _modules():
        part = mod.split(".")[1] if mod.count(".") else ""
        if part not in FORBIDDEN:
            continue
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), path)
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
            bad += [f"{mod} imports {n}" for n in names if n.split(".")[0] in FORBIDDEN[part]]
    assert bad == []


def _imported(code):
    out = subprocess.run([sys.executable, "-c", code + "; import sys; print(sorted(m for m in "
                          "('pandas','matplotlib','click','pyarrow') if m in sys.modules))"],
                         capture_output=True, text=True, check=True).stdout
    return out.strip()


@pytest.mark.slow
def test_engine_and_loops_import_no_pandas_matplotlib_click():
    """What the source says (above) holds for what an import really loads, through every package __init__."""
    assert _imported("import euchresim.loops.hands, euchresim.engine.hand, euchresim.policies") == "[]"


def test_records_module_needs_no_numba():
    code = "import sys, euchresim.records; print('numba' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"


# the two plain-Python functions kept whole: a record's one parse, and the chunk's one pass over its rows
LONG_PLAIN = {("euchresim.records.format", "parse_record"), ("euchresim.run.runner", "play_chunk")}


def _is_jitted(fn) -> bool:
    for d in fn.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("njit", "jit", "generated_jit"):
            return True
    return False


def test_no_function_is_over_80_lines_outside_the_hot_kernels():
    """A function a reader must hold at once stays under 80 lines; a jitted kernel (numba inlines nothing a
    reader could split without a cost in the hot loop) and the two named above may run longer."""
    long = []
    for mod, path in _modules():
        with open(path, encoding="utf-8") as fh:
            tree = ast.parse(fh.read(), path)
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > 80 and not _is_jitted(node) and (mod, node.name) not in LONG_PLAIN:
                    long.append(f"{mod}.{node.name}: {lines} lines")
    assert not long, long


def test_the_length_check_finds_a_long_plain_function():
    src = "def f():\n" + "    x = 1\n" * 85
    node = ast.parse(src).body[0]
    assert node.end_lineno - node.lineno + 1 > 80 and not _is_jitted(node)
    assert _is_jitted(ast.parse("@njit(cache=True)\ndef g():\n    pass\n").body[0])
