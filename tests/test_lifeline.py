"""A job's worker processes end when the process that started them does, however it goes (run/lifeline.py).

A parent killed with SIGKILL (or by the out-of-memory killer) runs no
code: its workers must see it gone by themselves, whether they wait for a
job or are deep in one that holds the interpreter's lock (as a numba
kernel does, where no watchdog thread can run).  Each case waits for the
workers' pids to go, polled, with a generous bound that only turns a hang
into a failure.
"""
import os
import signal
import subprocess
import sys
import time

import pytest

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="watches the workers through /proc")

GONE = 60          # seconds a killed parent's workers may take to go: a hang guard, not a measure
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def alive(pid):
    """Whether ``pid`` runs (a zombie, dead but not yet reaped by whoever adopted it, does not)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_gone(pids, timeout=GONE):
    """Poll until none of ``pids`` runs; past ``timeout``, kill the survivors (no orphan of a failed test) and fail."""
    deadline = time.monotonic() + timeout
    while any(alive(p) for p in pids):
        if time.monotonic() > deadline:
            left = [p for p in pids if alive(p)]
            for p in left:
                os.kill(p, signal.SIGKILL)
            pytest.fail(f"workers {left} outlived their parent by {timeout} s")
        time.sleep(0.05)


POOL = """
import sys, time
from euchresim.run.backends.local import WorkerPool

def hold(n):
    return sum(range(n))          # one C call: the interpreter's lock held throughout, no thread runs

def run(jobs, fn):
    pool = WorkerPool(2)
    print(" ".join(str(w.proc.pid) for w in pool._workers), flush=True)
    if jobs:
        it = pool.map(fn, jobs)
        next(it)
    time.sleep(600)

if __name__ == "__main__":
    how = sys.argv[1]
    if how == "idle":
        run([], None)
    elif how == "sleeping":
        run([600, 600, 600], time.sleep)
    elif how == "holding":
        run([10 ** 14] * 3, hold)
    else:                         # the pool made off the main thread, by a thread that lives on
        import threading
        threading.Thread(target=run, args=([600, 600, 600], time.sleep), daemon=True).start()
        time.sleep(600)
"""


@pytest.mark.parametrize("how", ["idle", "sleeping", "holding", "thread"])
def test_the_local_pools_workers_exit_when_their_parent_is_killed(tmp_path, how):
    script = tmp_path / "pool.py"
    script.write_text(POOL)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    p = subprocess.Popen([sys.executable, str(script), how], stdout=subprocess.PIPE, text=True, env=env)
    try:
        pids = [int(x) for x in p.stdout.readline().split()]
        assert len(pids) == 2 and all(alive(x) for x in pids)
        if how != "idle":
            time.sleep(0.5)             # let the jobs reach the workers (no assertion rests on it)
        os.kill(p.pid, signal.SIGKILL)
        p.wait(timeout=60)
        wait_gone(pids)
    finally:
        if p.poll() is None:
            p.kill()
        p.stdout.close()


def test_a_worker_started_after_its_parent_went_exits_at_once():
    """The parent may die before the worker asks the kernel to be told: the worker checks once it has asked."""
    code = ("import os, sys; from euchresim.run.lifeline import die_with_parent; "
            "die_with_parent(os.getppid() + 1); print('survived')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "survived" not in out.stdout
