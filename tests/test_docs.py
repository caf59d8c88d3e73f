"""The documentation's runnable examples still run, and still print what they say."""
import contextlib
import io
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def _read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as fh:
        return fh.read()


def _run(code, name):
    """Run a block as a script; what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, name, "exec"), {})
    return out.getvalue()


def test_the_parameter_sweep_in_policies_md_runs_as_is():
    text = _read("docs/policies.md")
    tail = text[text.index("This runs as is:"):]
    printed = [line.split() for line in _run(BLOCK.search(tail).group(1), "docs/policies.md").splitlines()]
    assert [p[0] for p in printed] == ["3.0", "4.0", "5.0"]
    # the rates the text quotes after the block are the ones it prints
    quoted = re.search(r"euchre rate of ([\d.]+), ([\d.]+) and ([\d.]+)", tail).groups()
    assert [p[1] for p in printed] == list(quoted)


def test_the_readme_python_api_example_runs():
    (code,) = BLOCK.findall(_read("README.md"))
    code = code.replace("count=200_000", "count=20_000")     # the same calls, a smaller run
    printed = _run(code, "README.md")
    assert all(col in printed for col in ("statistic", "value", "ci_low", "ci_high"))


def test_the_schema_examples_run(tmp_path):
    from click.testing import CliRunner
    from euchresim.cli import cli
    parquet = str(tmp_path / "s.parquet")
    r = CliRunner().invoke(cli, ["simulate", "--hands", "2000", "--workers", "1", "--out", parquet, "--json"])
    assert r.exit_code == 0, r.output
    from_file, in_memory = BLOCK.findall(_read("docs/schema.md"))
    assert "hands 2000" in _run(from_file.replace("/tmp/s.parquet", parquet), "docs/schema.md")
    assert "game" in _run(in_memory, "docs/schema.md")
