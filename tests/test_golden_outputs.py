"""Fixed commands and seeds print what they printed before the redesign.

The redesign moves files, not numbers: `scripts/make_golden_outputs.py`
pinned each command's standard output and the files it writes (with times
and scratch paths blanked) in tests/golden/outputs.json. A change that means
to alter a number regenerates that file and says why in docs.
"""
import importlib.util
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _script():
    spec = importlib.util.spec_from_file_location(
        "make_golden_outputs", os.path.join(ROOT, "scripts", "make_golden_outputs.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_every_pinned_command_prints_and_writes_what_it_did():
    mod = _script()
    with open(mod.OUT, encoding="utf-8") as fh:
        pinned = json.load(fh)
    now = mod.golden_outputs()
    assert sorted(now) == sorted(pinned)
    changed = [k for k in pinned if now[k] != pinned[k]]
    assert not changed, f"outputs changed: {changed}"


def test_the_normaliser_blanks_times_and_paths_but_not_numbers():
    mod = _script()
    assert mod.normalise("took 3.2 s in /tmp/abc/x", "/tmp/abc") == "took * in {d}/x"
    assert mod.normalise("euchred 0.1523 (0.14-0.16)", "/nowhere") == "euchred 0.1523 (0.14-0.16)"
    assert mod.normalise('{"elapsed_s": 3, "value": 0.25}', "/nowhere") == '{\n "elapsed_s": "*",\n "value": 0.25\n}'
