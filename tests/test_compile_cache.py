"""Where the kernels are cached, the compile notice, and a stop while kernels compile.

euchresim caches its own kernels in a folder named after their sources and
leaves numba's settings, and every other function's cache, as they were
(engine/__init__.py).  The notice that kernels are compiling is said once,
on standard error, when it is true, terminal or not, unless --quiet
(cli/options.py).  A fresh cache makes the first run compile: minutes on a
busy machine, so one module-wide cold cache serves the tests that need it.
They run a snapshot of the package taken when the module starts: the cache
folder is named after the kernel sources, so an edit to them between two
runs would rightly make the second compile afresh.  The timeouts only turn
a hang into a failure.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys

import click
import pytest

from euchresim.cli.app import cli, main
from euchresim.cli.options import COMPILING

from tests.helpers import hears_ctrl_c, wait_for

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HANG = 1800


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    """A copy of the package as it is now, for the subprocesses to import (ahead of any installed one)."""
    src = tmp_path_factory.mktemp("src")
    shutil.copytree(os.path.join(ROOT, "euchresim"), src / "euchresim",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return src


def _env(package, xdg):
    """The snapshot ``package``, euchresim's cache under ``xdg`` (XDG_CACHE_HOME), numba's own settings as
    numba has them."""
    env = dict(os.environ, XDG_CACHE_HOME=str(xdg),
               PYTHONPATH=os.pathsep.join([str(package)] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    env.pop("NUMBA_CACHE_DIR", None)
    return env


# main() as the installed command calls it (``python -m euchresim.cli.app`` would add a runpy warning)
SIMULATE = [sys.executable, "-c", "from euchresim.cli.app import main; main()", "simulate", "--hands", "300",
            "--workers", "1", "--policy", "random", "--seed", "1"]


def _simulate(env, cwd, *extra):
    return subprocess.run(SIMULATE + list(extra), env=env, cwd=cwd, capture_output=True, text=True, timeout=HANG)


@pytest.fixture(scope="module")
def cold(tmp_path_factory, package):
    """A fresh, empty cache and the first run into it, off a terminal (its output is piped)."""
    base = tmp_path_factory.mktemp("cold")
    env = _env(package, base / "xdg")
    return env, base, _simulate(env, base)


@pytest.mark.slow
def test_a_first_run_says_once_on_stderr_that_it_compiles(cold):
    env, base, first = cold
    assert first.returncode == 0, first.stderr
    assert first.stderr.splitlines().count(COMPILING) == 1, first.stderr
    assert "compiling" not in first.stdout


@pytest.mark.slow
def test_a_second_run_says_nothing_of_compiling_and_prints_the_same(cold):
    env, base, first = cold
    second = _simulate(env, base)
    assert second.returncode == 0, second.stderr
    assert "compiling" not in second.stderr, second.stderr
    assert second.stdout == first.stdout


USER_MODULE = """
from numba import njit

@njit(cache=True)
def triple(x):
    return 3 * x
"""

USER_POLICY = """
import numpy as np
from euchresim.policies import user_policy

@user_policy
def lowest(st, hand, away, seat, legal, params, rng, tab):
    return np.int64(0)
"""

PROBE = """
import json, sys
import numba
before = numba.config.CACHE_DIR
if sys.argv[2] == "euchresim":
    import euchresim.engine as E
    from euchresim.rules import FOUR_HAND
    from euchresim.run import runner
    runner.run(runner.RunSpec(rules=FOUR_HAND, seed=1, count=300, chunk_size=300), workers=1)     # every seat random
sys.path.insert(0, sys.argv[1])
import userfn
userfn.triple(2)
out = {"before": before, "after": numba.config.CACHE_DIR, "user": userfn.triple._cache._cache_path}
if sys.argv[2] == "euchresim":
    from euchresim.loops.hands import _play_hands
    import userpol
    out["policy"] = userpol.lowest._cache._cache_path
    out.update(ours=_play_hands._cache._cache_path, folder=E.cache_dir(), cached=E.kernels_cached(),
               file=E.__file__)
print(json.dumps(out))
"""


@pytest.mark.slow
def test_only_euchresim_s_own_kernels_are_cached_in_its_folder(cold, tmp_path, package):
    env, base, first = cold
    assert first.returncode == 0, first.stderr
    (tmp_path / "userfn.py").write_text(USER_MODULE)
    (tmp_path / "probe.py").write_text(PROBE)
    (tmp_path / "userpol.py").write_text(USER_POLICY)

    def probe(what, where):
        r = subprocess.run([sys.executable, str(tmp_path / "probe.py"), str(where), what], env=env,
                           capture_output=True, text=True, timeout=HANG)
        assert r.returncode == 0, r.stderr
        return json.loads(r.stdout)

    alone = tmp_path / "alone"           # the same user module where euchresim is never imported
    alone.mkdir()
    (alone / "userfn.py").write_text(USER_MODULE)
    numba_only = probe("numba", alone)
    ours = probe("euchresim", tmp_path)
    assert ours["after"] == ours["before"] == numba_only["before"]          # numba.config.CACHE_DIR untouched
    # the user's function is cached where numba alone puts it (beside its module), never in euchresim's folder
    assert ours["user"] == str(tmp_path / "__pycache__") and numba_only["user"] == str(alone / "__pycache__")
    assert any(n.startswith("userfn.triple-") and n.endswith(".nbi") for n in os.listdir(ours["user"]))
    folder = ours["folder"]
    assert folder.startswith(str(base / "xdg" / "euchresim")) and ours["ours"] == os.path.join(folder, "loops")
    assert not any("userfn" in n for _, _, names in os.walk(folder) for n in names)
    assert any(n.startswith("hands._play_hands-") and n.endswith(".nbi") for n in os.listdir(ours["ours"]))
    assert ours["cached"] is True
    assert ours["file"].startswith(str(package))          # the snapshot ran, not the tree being edited
    # a policy compiled by euchresim's user_policy may inline its kernels: it is cached beside them
    assert ours["policy"].startswith(os.path.join(folder, "user") + os.sep)
    assert any(n.startswith("userpol.lowest-") and n.endswith(".nbi") for n in os.listdir(ours["policy"]))


@pytest.mark.slow
def test_quiet_says_nothing_and_a_stop_while_compiling_is_one_line(tmp_path, package):
    """--quiet on a fresh cache: no notice; Ctrl-C once the compile is under way: the one-line stop, 130."""
    xdg = tmp_path / "xdg"
    # hands enough that the run cannot end before the signal lands (it once did, between kernels, on a quiet machine)
    proc = subprocess.Popen(SIMULATE + ["--quiet", "--hands", "100000000"], env=_env(package, xdg), cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=hears_ctrl_c)
    # numba writes a kernel's index file as soon as that kernel is compiled: the compile is under way,
    # and any notice would have been said before it began
    wait_for(lambda: any(n.endswith(".nbi") for _, _, names in os.walk(xdg) for n in names), proc,
             "a kernel was compiled", HANG)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the run did not stop after SIGINT")
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "compiling" not in err, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and re.fullmatch(r"stopped: 0 of \d+ chunks finished|euchresim: stopped", lines[0]), err


# ---------------------------------------------------------------- main(): errors during a stop

def _with_command(fn, args):
    cmd = click.command("probe-stop")(fn)
    cli.add_command(cmd)
    try:
        with pytest.raises(SystemExit) as e:
            main(args)
    finally:
        cli.commands.pop("probe-stop", None)
    return e.value.code


def test_an_error_raised_while_a_stop_is_handled_ends_as_the_stop(capsys):
    """As when Ctrl-C lands inside llvmlite and its clean-up then fails: one line, status 130."""
    def probe():
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise AttributeError("'ObjectRef' object has no attribute '_as_parameter_'")
    assert _with_command(probe, ["probe-stop"]) == 130
    err = capsys.readouterr().err
    assert [ln for ln in err.splitlines() if ln.strip()] == ["euchresim: stopped"]


def test_an_error_with_no_stop_behind_it_is_not_called_a_stop():
    def probe():
        raise AttributeError("a bug")
    cli.add_command(click.command("probe-stop")(probe))
    try:
        with pytest.raises(AttributeError, match="a bug"):
            main(["probe-stop"])
    finally:
        cli.commands.pop("probe-stop", None)


def test_say_if_compiling_speaks_only_when_the_kernels_are_not_cached(monkeypatch, capsys):
    import euchresim.engine as E
    from euchresim.cli.options import say_if_compiling
    for cached, quiet, said in ((False, False, [COMPILING]), (False, True, []), (True, False, [])):
        monkeypatch.setattr(E, "kernels_cached", lambda: cached)
        say_if_compiling(quiet)
        assert capsys.readouterr().err.splitlines() == said, (cached, quiet)


def test_after_a_stop_llvmlites_late_teardown_says_nothing_and_other_errors_still_speak():
    """Ctrl-C while kernels load can leave an llvmlite object half built; its __del__ fails at exit."""
    import types
    from euchresim.cli.app import _Stop
    saved = sys.unraisablehook
    heard = []
    sys.unraisablehook = heard.append        # what Python would print
    try:
        with _Stop() as stop:
            stop.heard = True          # as if Ctrl-C had been pressed
        hook = sys.unraisablehook

        def unraisable(filename):
            try:
                exec(compile("raise AttributeError('_ptr')", filename, "exec"))
            except AttributeError as e:
                return types.SimpleNamespace(exc_type=AttributeError, exc_value=e, exc_traceback=e.__traceback__,
                                             err_msg="Exception ignored in", object=None)
        hook(unraisable("/site-packages/llvmlite/binding/ffi.py"))
        assert heard == []
        other = unraisable("/somewhere/else.py")
        hook(other)
        assert heard == [other]
    finally:
        sys.unraisablehook = saved


def test_the_collector_thresholds_change_only_while_a_euchresim_kernel_compiles():
    """A user's numba function compiles under the user's own thresholds; a euchresim kernel under
    the raised ones; and both leave them as they found them."""
    import gc
    import numba
    from numba.core import event
    import euchresim.engine as engine

    seen = {}

    class Record(event.Listener):
        def on_start(self, ev):
            seen.setdefault(ev.data["dispatcher"].py_func.__module__, gc.get_threshold())

        def on_end(self, ev):
            pass

    def users(x):
        return x + 1

    def ours(x):
        return x + 2

    ours.__module__ = "euchresim.probe"       # a kernel of the package, as the listener tells them apart
    before = gc.get_threshold()
    assert before != engine._FewerCollectionsWhileCompiling.THRESHOLD
    with event.install_listener("numba:compile", Record()):
        assert numba.njit(users)(1) == 2
        assert numba.njit(ours)(1) == 3
    assert seen[users.__module__] == before
    assert seen["euchresim.probe"] == engine._FewerCollectionsWhileCompiling.THRESHOLD
    assert gc.get_threshold() == before


@pytest.mark.slow
def test_cold_then_cached_start_give_the_same_numbers(tmp_path):
    """A fresh cache under NUMBA_CACHE_DIR (compile) and a warm one (load) must both run, alike."""
    code = ("from euchresim.run import runner; from euchresim.rules import Rules;"
            "from euchresim.policies import seats;"
            "s=runner.RunSpec(rules=Rules(players=3, deck=25), policies=seats(['baseline'], 3), count=500, "
            "chunk_size=500);"
            "print(runner.run(s, workers=1)['euchred'])")
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    outs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                           check=True).stdout for _ in range(2)]
    assert outs[0] == outs[1] and outs[0].strip().isdigit()
    assert any(p.suffix == ".nbc" for p in tmp_path.rglob("*"))


# two threads stand for two processes (flock locks an open file, whichever process or thread opened it):
# `a` has read the function's index and waits there until `b` is saving the same function's other signature
RACE = """
import json, os, sys, threading, time
import euchresim.engine as E
from numba.core.caching import IndexDataCacheFile

ours, other = os.path.join(E.cache_dir(), "loops"), sys.argv[1]
for folder in (ours, other):
    os.makedirs(folder, exist_ok=True)
a, b = (IndexDataCacheFile(ours, "race.f-1.py311", source_stamp=(0.0, 1)) for _ in range(2))
read, saving = threading.Event(), threading.Event()
load = a._load_index


def slow_load():
    index = load()
    read.set()
    saving.wait(60)
    time.sleep(0.5)
    return index


a._load_index = slow_load
ta = threading.Thread(target=a.save, args=("a", "code of a"))
ta.start()
read.wait(60)
tb = threading.Thread(target=lambda: (saving.set(), b.save("b", "code of b")))
tb.start()
ta.join(60)
tb.join(60)
IndexDataCacheFile(other, "race.f-1.py311", source_stamp=(0.0, 1)).save("c", "code of c")
check = IndexDataCacheFile(ours, "race.f-1.py311", source_stamp=(0.0, 1))
print(json.dumps({"loaded": {k: check.load(k) for k in "ab"}, "ours": sorted(os.listdir(ours)),
                  "other": sorted(os.listdir(other))}))
"""


@pytest.mark.slow
def test_two_processes_saving_one_kernel_at_once_keep_both_signatures(tmp_path):
    """numba reads a function's index, picks a free data file name and writes the index back: a second
    process saving another signature in between picks the same name, and one entry is lost or names the
    other's code.  In euchresim's folder the save is done under a lock (engine/__init__.py); anywhere
    else numba saves as it always has (no lock file)."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=ROOT)
    r = subprocess.run([sys.executable, "-c", RACE, str(tmp_path / "other")], env=env, cwd=tmp_path,
                       capture_output=True, text=True, timeout=HANG)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    assert out["loaded"] == {"a": "code of a", "b": "code of b"}
    assert out["ours"] == [".lock", "race.f-1.py311.1.nbc", "race.f-1.py311.2.nbc", "race.f-1.py311.nbi"]
    assert out["other"] == ["race.f-1.py311.1.nbc", "race.f-1.py311.nbi"]
