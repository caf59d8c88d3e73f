"""Layering and the numba cache (docs/layout.md)."""
import os
import subprocess
import sys


def _imported(code):
    out = subprocess.run([sys.executable, "-c", code + "; import sys; print(sorted(m for m in "
                          "('pandas','matplotlib','click','pyarrow') if m in sys.modules))"],
                         capture_output=True, text=True, check=True).stdout
    return out.strip()


def test_engine_and_loops_import_no_pandas_matplotlib_click():
    assert _imported("import euchresim.loops.hands, euchresim.engine.hand, euchresim.policies") == "[]"


def test_records_module_needs_no_numba():
    code = "import sys, euchresim.records; print('numba' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True).stdout.strip() == "False"


def test_cold_then_cached_start_give_the_same_numbers(tmp_path):
    """A fresh cache (compile) and a warm one (load) must both run, alike."""
    code = ("from euchresim.run import runner; from euchresim.rules import Rules;"
            "s=runner.RunSpec(rules=Rules(players=3, deck=25), policies=('baseline',), count=500, chunk_size=500);"
            "print(runner.run(s, workers=1)['euchred'])")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    outs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           check=True).stdout for _ in range(2)]
    assert outs[0] == outs[1] and outs[0].strip().isdigit()
    assert any(p.suffix == ".nbc" for p in tmp_path.rglob("*"))
