"""The documentation's examples run, and print what they say they print.

Every page is read: README.md and docs/*.md.

Python examples.  Every ```python block runs as a script, in a fresh
namespace, with a fresh temporary folder as the working directory; the few
blocks that are excerpts of the package's own code rather than scripts are
listed in EXCERPTS, each with the check made instead.  A block *quotes its
output* when the next fenced block after it, before any heading, is a bare
``` block; it must then print exactly that text, numbers included, for the
run the block states (seed, counts).  Two conventions of the comparison:

* a line ``...`` on its own in the quoted output stands for any number of
  printed lines (none included);
* trailing spaces at the end of a line are ignored (pandas pads some header
  lines with them, and editors strip them).

A ```bash block in the same section (after the last heading) before a
python block is its setup: its lines run first, as written, except that a
path under /tmp/ is moved into the temporary folder (in the python code too).

Command lines.  Every ``euchresim ...`` command of every ```bash block runs
through ``euchresim.cli.app``, block by block, each block in a fresh
temporary folder and its lines in order (a later line may read a file an
earlier one wrote), and must exit with status 0.  To keep the suite fast,
these substitutions are made (``shrink``), and nothing else:

* ``simulate``: ``--hands N`` -> ``min(N, 20000)``, ``--games N`` ->
  ``min(N, 200)``, ``--rubbers N`` -> ``min(N, 100)``, ``--hands 20000``
  when no count is given (the default is a million), and ``--workers 1``
  (the numbers do not depend on it; a process pool costs seconds);
* ``duel``, ``ladder``: ``--games N`` -> ``min(N, 200)`` (``min(N, 20)`` when a player searches:
  pimc, best, dd or an OpenSpiel bot, some hundred times slower) and ``--workers 1``;
* ``play``: ``--no-browser --port 0 --stop-after 0`` (the table is dealt and its URL printed, nothing served);
* ``bench``: ``--hands 1000 --repeat 1 --no-compile --workers 1 --advise-samples 200`` and a single
  ``--players``/``--deck`` (the first the line gives, else 4 and 24);
* a path under /tmp/ goes into the temporary folder.

A line that is not a ``euchresim`` command must be listed in NOT_RUN with
the reason it cannot run here; any other line fails the test.  The figures
the policies page quotes from its two 200,000-hand runs are checked by
running those commands unshrunk (``--workers 1`` only).
"""
import ast
import contextlib
import glob
import io
import json
import os
import re
import shlex
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))

FENCE = re.compile(r"^([ \t]*)```(\S*)[ \t]*$")

# Bash lines (split at &&) that are not euchresim commands: why each cannot run in a test.
NOT_RUN = {
    ("pip", "install", "-e", "."):
        "installs the package; the tests run with it installed (the README test checks the line against .ci/run)",
    ("pip", "install", "-e", ".[test,ray,openspiel]"):
        "installs the package with its test extras; the tests run with them installed (checked against .ci/run)",
    ("python", "-m", "pytest", "-q"):
        "runs this test suite itself (checked against .ci/run)",
}

SEARCH_GAMES = 20      # a duel or ladder with a search bot: a few games show the command works
CAPS = {"--hands": 20_000, "--games": 200, "--rubbers": 100}


# --- reading the pages --------------------------------------------------------------

def _read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as fh:
        return fh.read()


def _blocks(path):
    """The fenced blocks of a page: dicts of lang, text, section (count of headings before), line."""
    blocks, section, lines, i = [], 0, _read(path).splitlines(), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if m is None:
            if lines[i].startswith("#"):
                section += 1
            i += 1
            continue
        indent, lang, start, body = m.group(1), m.group(2), i + 1, []
        i += 1
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
            i += 1
        assert i < len(lines), f"{path}:{start}: a fenced block that is never closed"
        blocks.append({"lang": lang, "text": "\n".join(body) + "\n", "section": section, "line": start})
        i += 1
    return blocks


def _quoted_output(blocks, k):
    """The bare block that quotes what python block k prints, or None."""
    if k + 1 < len(blocks) and blocks[k + 1]["lang"] == "" and blocks[k + 1]["section"] == blocks[k]["section"]:
        return blocks[k + 1]["text"]
    return None


def _setup(blocks, k):
    """The bash blocks of python block k's section that come before it."""
    return [b["text"] for b in blocks[:k] if b["lang"] == "bash" and b["section"] == blocks[k]["section"]]


def _python_blocks():
    return [(page, k) for page in PAGES for k, b in enumerate(_blocks(page)) if b["lang"] == "python"]


def _bash_blocks():
    return [(page, k) for page in PAGES for k, b in enumerate(_blocks(page)) if b["lang"] == "bash"]


def _commands(text):
    """(line, words) for each command of a bash block: comments dropped, lines split at &&."""
    for line in text.splitlines():
        words, cmd = shlex.split(line, comments=True), []
        for w in words + ["&&"]:
            if w == "&&":
                if cmd:
                    yield line, cmd
                cmd = []
            else:
                cmd.append(w)


# --- running ------------------------------------------------------------------------

def _run_python(code, name):
    """Run a block as a script; what it printed, and its namespace."""
    out, ns = io.StringIO(), {"__name__": "__main__"}
    with contextlib.redirect_stdout(out):
        exec(compile(code, name, "exec"), ns)
    return out.getvalue(), ns


def _euchresim(argv, stdin=None):
    """Run ``euchresim ARGV`` through cli.main: (exit status, stdout, stderr)."""
    from click.testing import CliRunner
    from euchresim.cli.app import main
    code = 0
    with CliRunner().isolation(input=stdin) as streams:
        try:
            main(list(argv))
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        out = streams[0].getvalue().decode()
        err = streams[1].getvalue().decode() if len(streams) > 1 and streams[1] is not None else ""
    return code, out, err


def _run_line(line, words, tmp, shrunk):
    """Run one command of a bash block; fails the test if it is not runnable or exits non-zero."""
    if tuple(words) in NOT_RUN:
        return None
    assert words[0] == "euchresim", (
        f"a documented command the tests cannot run: {line!r}; run it here or list it in NOT_RUN with the reason")
    words = [w.replace("/tmp/", f"{tmp}/") for w in words]
    redirect = None
    for j, w in enumerate(words):
        assert w not in ("|", "<", "2>", "2>&1") and not w.startswith(("<", "|")), f"unsupported shell syntax in {line!r}"
        if w.startswith(">"):
            target = w[1:] or words[j + 1]
            redirect, words = target, words[:j]
            break
    argv = shrink(words[1:]) if shrunk else words[1:]
    code, out, err = _euchresim(argv)
    assert code == 0, f"{line!r} (run as euchresim {' '.join(argv)}) exited {code}:\n{err}{out}"
    if redirect and redirect != "/dev/null":
        with open(redirect, "w", encoding="utf-8") as fh:
            fh.write(out)
    return out


def _options(argv):
    """argv with --opt=value split in two."""
    res = []
    for a in argv:
        res.extend(a.split("=", 1) if a.startswith("--") and "=" in a else [a])
    return res


def _drop(argv, flag, takes_value=True):
    res, i = [], 0
    while i < len(argv):
        if argv[i] == flag:
            i += 2 if takes_value else 1
        else:
            res.append(argv[i])
            i += 1
    return res


def _value(argv, flag, default=None):
    return argv[argv.index(flag) + 1] if flag in argv else default


def shrink(argv):
    """The substitutions of the module docstring, for one command's arguments (after ``euchresim``)."""
    argv = _options(argv)
    if argv[:1] == ["simulate"]:
        for flag, cap in CAPS.items():
            if flag in argv:
                j = argv.index(flag) + 1
                argv[j] = str(min(int(argv[j]), cap))
        if not any(flag in argv for flag in CAPS):
            argv += ["--hands", str(CAPS["--hands"])]
        argv = _drop(argv, "--workers") + ["--workers", "1"]
    elif argv[:1] in (["duel"], ["ladder"]):
        searching = any(a.split(":")[0].lower() in ("pimc", "best", "dd", "openspiel") for a in argv[1:]
                        if not a.startswith("-"))
        cap = SEARCH_GAMES if searching else CAPS["--games"]
        if "--games" in argv:
            j = argv.index("--games") + 1
            argv[j] = str(min(int(argv[j]), cap))
        argv = _drop(argv, "--workers") + ["--workers", "1"]
    elif argv[:1] == ["play"]:       # the table serves until stopped: bind a free port, deal, print the URL, stop
        argv += ["--no-browser", "--port", "0", "--stop-after", "0"]
    elif argv[:1] == ["bench"]:
        players, deck = _value(argv, "--players", "4"), _value(argv, "--deck", "24")
        for flag in ("--hands", "--repeat", "--workers", "--players", "--deck"):
            while flag in argv:
                argv = _drop(argv, flag)
        argv = _drop(argv, "--no-compile", takes_value=False)
        argv = _drop(argv, "--advise-samples")
        argv += ["--hands", "1000", "--repeat", "1", "--no-compile", "--workers", "1",
                 "--players", players, "--deck", deck, "--advise-samples", "200"]
    return argv


def _matches(printed, quoted):
    """Does the printed text match the quoted output, under the docstring's conventions?"""
    got = "".join(line.rstrip() + "\n" for line in printed.splitlines())
    pattern = "".join(r"(?:.*\n)*?" if line.rstrip() == "..." else re.escape(line.rstrip()) + r"\n"
                      for line in quoted.splitlines())
    return re.fullmatch(pattern, got) is not None


# --- excerpts: python blocks that quote the package's code instead of running --------

def _driver_calls_decide(block):
    """policies.md quotes loops.hands.play_out_with's call of the policy, less its U(...) index casts."""
    with open(os.path.join(ROOT, "euchresim", "loops", "hands.py"), encoding="utf-8") as fh:
        src = re.sub(r"\bU\(([^()]*)\)", r"\1", fh.read())
    flat = lambda s: " ".join(s.split())     # noqa: E731
    assert flat(block) in flat(src), "docs/policies.md no longer quotes the call in loops.hands.play_out_with"


def _shows_example(name):
    """policies.md shows euchresim/examples/NAME.py whole, as the file is."""
    def check(block):
        with open(os.path.join(ROOT, "euchresim", "examples", name + ".py"), encoding="utf-8") as fh:
            assert block.strip() == fh.read().strip(), f"docs/policies.md no longer shows examples/{name}.py as it is"
    return check


EXCERPTS = {("docs/policies.md", "a = ask(pids[seat]"): _driver_calls_decide,
            ("docs/policies.md", '"""A first bot'): _shows_example("first_bot"),
            ("docs/policies.md", '"""A user\'s policy that calls the solver'): _shows_example("one_world"),
            ("docs/policies.md", '"""A user\'s policy'): _shows_example("low_leads")}


def _excerpt_check(page, text):
    for (p, start), check in EXCERPTS.items():
        if p == page and text.startswith(start):
            return check
    return None


# --- the tests ----------------------------------------------------------------------

def test_the_pages_have_the_examples_these_tests_run():
    """The reader finds what the pages hold (so a broken reader cannot pass by running nothing)."""
    py = _python_blocks()
    assert sum(p == "README.md" for p, _ in py) >= 1
    assert sum(p == "docs/schema.md" for p, _ in py) >= 2
    assert sum(p == "docs/policies.md" for p, _ in py) >= 2
    quoting = [(p, k) for p, k in py if _quoted_output(_blocks(p), k) is not None]
    assert {p for p, _ in quoting} >= {"docs/schema.md", "docs/policies.md"} and len(quoting) >= 3
    schema = _blocks("docs/schema.md")
    k = next(k for p, k in py if p == "docs/schema.md")
    assert _setup(schema, k) and "--out /tmp/s.parquet" in _setup(schema, k)[0]
    assert {p for p, _ in _bash_blocks()} >= {"README.md", "docs/schema.md", "docs/policies.md",
                                             "docs/benchmarks.md"}
    for (p, start) in EXCERPTS:
        assert any(b["lang"] == "python" and b["text"].startswith(start) for b in _blocks(p)), (p, start)


def test_the_elision_convention():
    assert _matches("a\nb\nc\nd\n", "a\n...\nd\n")
    assert _matches("a\nd\n", "a\n...\nd\n")
    assert _matches("a  \nb\n", "a\nb\n")
    assert not _matches("a\nb\n", "a\nc\n")
    assert not _matches("a\nb\nc\n", "a\nb\n")
    assert not _matches("a\nb\n", "a\n...\nc\n")


def test_the_substitutions():
    assert shrink(["simulate", "--hands", "1000000", "--json"]) == [
        "simulate", "--hands", "20000", "--json", "--workers", "1"]
    assert shrink(["simulate", "--games=20000", "--workers", "2"]) == ["simulate", "--games", "200", "--workers", "1"]
    assert shrink(["simulate", "--policy", "random"]) == ["simulate", "--policy", "random", "--hands", "20000",
                                                          "--workers", "1"]
    assert shrink(["bench", "--players", "3", "--json"]) == [
        "bench", "--json", "--hands", "1000", "--repeat", "1", "--no-compile", "--workers", "1",
        "--players", "3", "--deck", "24", "--advise-samples", "200"]
    assert shrink(["replay", "a.jsonl", "-o", "b.jsonl"]) == ["replay", "a.jsonl", "-o", "b.jsonl"]
    assert shrink(["play", "--seed", "7"]) == ["play", "--seed", "7", "--no-browser", "--port", "0", "--stop-after", "0"]
    assert shrink(["duel", "pimc", "heuristic", "--games", "2000", "--seed", "1"]) == [
        "duel", "pimc", "heuristic", "--games", "20", "--seed", "1", "--workers", "1"]
    assert shrink(["duel", "heuristic", "baseline", "--games", "2000"]) == [
        "duel", "heuristic", "baseline", "--games", "200", "--workers", "1"]


@pytest.mark.parametrize("page,k", _python_blocks(), ids=lambda v: str(v))
def test_python_example(page, k, tmp_path, monkeypatch):
    blocks = _blocks(page)
    code = blocks[k]["text"]
    check = _excerpt_check(page, code)
    if check is not None:
        check(code)
        return
    if re.search(r"^\s*import pyspiel|euchresim\.interop\.openspiel", code, re.M):
        pytest.importorskip("pyspiel")      # the openspiel extra; installed by .ci/run, so it runs there
    monkeypatch.chdir(tmp_path)
    for setup in _setup(blocks, k):
        for line, words in _commands(setup):
            _run_line(line, words, tmp_path, shrunk=False)
    printed, ns = _run_python(code.replace("/tmp/", f"{tmp_path}/"), f"{page}:{blocks[k]['line']}")
    quoted = _quoted_output(blocks, k)
    if quoted is not None:
        if "..." in quoted.split("\n"):
            assert _matches(printed, quoted), f"{page}:{blocks[k]['line']} printed:\n{printed}\nquoted:\n{quoted}"
        else:
            assert [line.rstrip() for line in printed.splitlines()] == [line.rstrip() for line in quoted.splitlines()]
    if page == "README.md":
        _check_readme_api(code, ns)


def _check_readme_api(code, ns):
    """The README example quotes no output; what its comments say it makes, it makes."""
    from euchresim.engine.layout import HAND_DTYPE
    named = re.search(r"# pandas: (.*)", code).group(1)
    assert list(ns["table"].columns) == [c.strip() for c in named.split(",")]
    assert ns["table"].loc[ns["table"]["statistic"] == "trump made", "of"].item() == ns["spec"].count
    assert ns["rows"].dtype == HAND_DTYPE and len(ns["rows"]) > 0


@pytest.mark.slow
@pytest.mark.parametrize("page,k", _bash_blocks(), ids=lambda v: str(v))
def test_command_lines(page, k, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    commands = list(_commands(_blocks(page)[k]["text"]))
    assert commands, f"{page}: an empty bash block"
    for line, words in commands:
        _run_line(line, words, tmp_path, shrunk=True)


def test_the_readme_opens_with_install_and_run_then_the_ci_test_command():
    blocks = _blocks("README.md")
    first = blocks[0]
    assert first["lang"] == "bash" and first["section"] == 1, "the README's first block comes right after the title"
    run, test = first["text"].splitlines()
    run, test = [w for _, w in _commands(run)], [w for _, w in _commands(test)]
    assert run[0] == ["pip", "install", "-e", "."] and run[1][:2] == ["euchresim", "simulate"] and len(run) == 2

    def norm(words):          # the same command, less CI's quiet flags and python3's name
        words = [w for w in words if w not in ("--quiet", "--disable-pip-version-check")]
        return words[2:] if words[:2] in (["python3", "-m"], ["python", "-m"]) else words
    # CI's install of the system's Chromium (for the browser tests) is a system package, not the README's pip line
    ci = [w for line, w in _commands(_read(".ci/run")) if w[0] not in ("set", "cd") and "chromium" not in line]
    assert [norm(w) for w in test] == [norm(w) for w in ci]


@pytest.mark.slow
def test_the_baseline_against_random_figures(tmp_path, monkeypatch):
    """policies.md quotes what its two 200,000-hand runs give, through its own one-line filter."""
    monkeypatch.chdir(tmp_path)
    text = _read("docs/policies.md")
    section = text[text.index("### Baseline against random"):]
    end = re.search(r"\n#{2,} ", section[1:])       # the next heading (a "# comment" in a block is not one)
    section = section[:end.start() + 1] if end else section
    block = next(b for b in _blocks("docs/policies.md") if b["lang"] == "bash" and "--policy random" in b["text"])
    hint = re.search(r"append\s+(\|.*)", block["text"]).group(1)
    filt = shlex.split(hint)
    assert filt[:3] == ["|", "python", "-c"]
    marches = {}
    for line, words in _commands(block["text"]):
        code, out, err = _euchresim(words[1:] + ["--workers", "1"])
        assert code == 0, err
        printed = io.StringIO()
        stdin = sys.stdin
        sys.stdin = io.StringIO(out)
        try:
            with contextlib.redirect_stdout(printed):
                exec(filt[3], {})
        finally:
            sys.stdin = stdin
        r = ast.literal_eval(printed.getvalue().strip())
        policy = words[words.index("--policy") + 1]
        row = (f"| `{policy}` | {r['of']:,} hands | {r['count']:,} = **{r['value']:.2%}** | "
               f"{r['ci_low']:.2%} – {r['ci_high']:.2%} |")
        assert row in section, f"policies.md should quote: {row}"
        marches[policy] = next(s for s in json.loads(out)["summary"] if s["statistic"] == "march")["value"]
    assert (f"marches {marches['baseline']:.1%} of its made hands against random's {marches['random']:.1%}"
            in " ".join(section.split()))


def _bash_with_output():
    """(page, k) of each one-command bash block followed by the output it quotes."""
    found = []
    for page in PAGES:
        blocks = _blocks(page)
        for k, b in enumerate(blocks):
            if b["lang"] == "bash" and _quoted_output(blocks, k) is not None and len(list(_commands(b["text"]))) == 1:
                found.append((page, k))
    return found


def test_the_summary_page_quotes_its_commands():
    assert sum(page == "docs/summary.md" for page, _ in _bash_with_output()) == 2


@pytest.mark.slow
@pytest.mark.parametrize("page,k", _bash_with_output(), ids=lambda v: str(v))
def test_a_quoted_command_prints_what_the_page_quotes(page, k, tmp_path, monkeypatch):
    """Run as written (no shrinking): the quoted output is exactly what it prints, `...` eliding lines."""
    monkeypatch.chdir(tmp_path)
    blocks = _blocks(page)
    ((line, words),) = _commands(blocks[k]["text"])
    printed = _run_line(line, words, tmp_path, shrunk=False)
    quoted = _quoted_output(blocks, k)
    assert _matches(printed, quoted), f"{page}:{blocks[k]['line']} printed:\n{printed}\nquoted:\n{quoted}"
