"""Loading a user's policy leaves the user's process as it was, and its two names share one module.

Each check runs in a fresh Python process: warnings filters, ``sys.path``
and numba's on-disk cache are what a process starts with and keeps.
"""
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

BOT = textwrap.dedent('''
    from euchresim.policies import user_policy
    from euchresim.policies.builtin import BASELINE_DEFAULTS, baseline_decide


    @user_policy
    def copy(st, hand, away, seat, legal, params, rng, tab):
        return baseline_decide(st, hand, away, seat, legal, BASELINE_DEFAULTS, tab)
''')

PLAY = textwrap.dedent('''
    import hashlib, json, sys, warnings
    before = (list(sys.path), list(warnings.filters))
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("always")
        import euchresim.policies
        from euchresim.rules import Rules
        from euchresim.run import runner
        table = euchresim.policies.seats([sys.argv[1], "random"] * 2, 4)
        rows = runner.play_chunk(runner.RunSpec(rules=Rules(), policies=table, count=300, seed=4), 0).hands
    numba_said = [str(w.message) for w in heard if "numba" in type(w.message).__module__]
    print(json.dumps({"same": (list(sys.path), list(warnings.filters)) == before, "numba_warnings": numba_said,
                      "rows": hashlib.sha256(rows.tobytes()).hexdigest()}))
''')


def _play(policy, cwd):
    env = dict(os.environ, PYTHONPATH=ROOT)       # euchresim itself; the bot's folder is never on the path
    r = subprocess.run([sys.executable, "-c", PLAY, policy], cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=1200)
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_a_module_name_and_a_path_name_one_module_and_neither_spoils_the_others_cache(tmp_path):
    """Before the fix, the path's module name differed from the import's, and the cache entry one
    name wrote failed to load under the other (ModuleNotFoundError until the cache was deleted)."""
    bots = tmp_path / "bots"
    bots.mkdir()
    (bots / "mybots.py").write_text(BOT, encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    runs = [_play("mybots:copy", bots),                                  # compiles and caches it
            _play(str(bots / "mybots.py") + ":copy", elsewhere),         # the path: loads that cache entry
            _play("mybots:copy", bots)]                                  # and the name again
    assert len({r["rows"] for r in runs}) == 1
    from euchresim.engine import cache_dir                              # the cache was there to be shared:
    where = [bots / "__pycache__", Path(cache_dir())]                   # beside the file, or with the kernels
    assert any(list(w.rglob("mybots.copy-*.nbi")) for w in where if w.exists())


@pytest.mark.slow
def test_loading_and_playing_a_user_policy_leaves_sys_path_and_the_warning_filters_as_they_were(tmp_path):
    (tmp_path / "mybots.py").write_text(BOT, encoding="utf-8")
    for policy in ("mybots:copy", str(tmp_path / "mybots.py") + ":copy"):
        r = _play(policy, tmp_path)
        assert r["same"], policy
        assert r["numba_warnings"] == [], r["numba_warnings"]    # no first-class-function warning, no filter needed
