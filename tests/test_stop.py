"""Ctrl-C on a real run: it ends at once, keeps every finished chunk, counts them right, and resumes.

Each case starts ``euchresim simulate`` as a subprocess, waits until the
run has finished a chunk, sends SIGINT, and checks what a user sees and
what is on disk; then ``--resume`` must finish with the very files and
tallies of a run that was never stopped.  Each waits for what it needs on
disk or on a pipe, never for a time; the timeouts below only turn a hang
into a failure, and no test asserts how fast anything is.  The kernels are
compiled once before the runs start, so a stop lands in a run under way,
not in a compile that takes minutes on a busy machine (a stop during a
compile: tests/test_compile_cache.py).
"""
import json
import os
import re
import signal
import subprocess
import sys
import threading

import pyarrow.parquet as pq
import pytest

from euchresim.run import runner
from euchresim.rules import FOUR_HAND

from tests.helpers import hears_ctrl_c, wait_for
from tests.test_lifeline import wait_gone

HANG = 120         # seconds after SIGINT before a run counts as hung
START = 900        # seconds a run may take to reach a point the test waits for: a hang guard, not a wait


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module", autouse=True)
def _compiled(tmp_path_factory):
    """Every kernel the runs below use, compiled (or loaded) into the cache they read, before any starts."""
    d = tmp_path_factory.mktemp("warm")
    spec = runner.RunSpec(rules=FOUR_HAND, policies=("random",), seed=1, count=2_000, chunk_size=1_000)
    runner.run(spec, workers=1, outputs=runner.Outputs(parquet=str(d / "w.parquet"), records=str(d / "w.jsonl")))


def _start(args, cwd):
    """The package under test, whatever copy of it pip last installed."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    return subprocess.Popen([sys.executable, "-m", "euchresim.cli", "simulate", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=hears_ctrl_c)


def _wait_for(pred, proc, what):
    wait_for(pred, proc, what, START)


def _finished_on_disk(folder):
    """The chunks the run folder counts as finished: the lines of its log."""
    try:
        with open(os.path.join(folder, "_chunks.jsonl")) as fh:
            return [json.loads(line)["chunk"] for line in fh]
    except (FileNotFoundError, ValueError):
        return []


def _interrupt(proc):
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the run did not stop after SIGINT")
    return out, err


# (--out, --records, hands, chunk): sizes that take a few seconds, so the stop lands mid-run
CASES = {
    "parquet": (True, False, 600_000, 2_000),
    "records": (False, True, 200_000, 1_000),
    "both": (True, True, 200_000, 1_000),
}


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("case", sorted(CASES))
def test_sigint_keeps_finished_chunks_and_resume_gives_the_uninterrupted_result(tmp_path, case, workers):
    want_out, want_rec, hands, chunk = CASES[case]
    args = ["--hands", str(hands), "--chunk-size", str(chunk), "--seed", "3", "--workers", str(workers),
            "--policy", "random", "--json"]
    files = []
    if want_out:
        args += ["--out", "run.parquet"]
        files.append("run.parquet")
    if want_rec:
        args += ["--records", "run.jsonl"]
        files.append("run.jsonl")
    parts = tmp_path / ("run.parquet" if want_out else "run.jsonl.parts")
    proc = _start(args, tmp_path)
    _wait_for(lambda: len(_finished_on_disk(parts)) >= 2, proc, "two chunks were finished")
    out, err = _interrupt(proc)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    n_chunks = -(-hands // chunk)
    m = re.search(r"stopped: (\d+) of (\d+) chunks finished, kept in (\S+);", err)
    assert m, err
    on_disk = _finished_on_disk(parts)
    assert int(m.group(1)) == len(on_disk) >= 2 and int(m.group(2)) == n_chunks
    assert int(m.group(1)) < n_chunks, "the stop came after the run had finished"
    partial = json.loads(out)
    assert partial["partial"] is True and partial["counts"]["hands"] == len(on_disk) * chunk
    assert not (tmp_path / "run.jsonl").exists()          # records are joined only with the last chunk
    assert json.loads((parts / "_manifest.json").read_text())["complete"] is False

    proc = _start(args + ["--resume"], tmp_path)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    resumed = json.loads(out)
    if want_out:
        assert json.loads((parts / "_manifest.json").read_text())["complete"] is True
    else:
        assert not parts.exists()

    ref = tmp_path / "ref"
    ref.mkdir()
    spec = runner.RunSpec(rules=FOUR_HAND, policies=("random",), seed=3, count=hands, chunk_size=chunk)
    outputs = runner.Outputs(parquet=str(ref / "run.parquet") if want_out else None,
                          records=str(ref / "run.jsonl") if want_rec else None)
    whole = runner.run(spec, workers=1, outputs=outputs)
    assert resumed["counts"] == whole
    if want_out:
        assert pq.read_table(tmp_path / "run.parquet").equals(pq.read_table(ref / "run.parquet"))
    if want_rec:
        assert (tmp_path / "run.jsonl").read_bytes() == (ref / "run.jsonl").read_bytes()


@pytest.mark.parametrize("workers", [1, 2])
def test_sigint_without_files_ends_with_the_partial_tally(tmp_path, workers):
    """No file to keep (the records go to standard output): the stop still ends at once, the tally it
    prints is of whole chunks, and the records it wrote are in order."""
    chunk = 2_000
    proc = _start(["--hands", str(10 ** 9), "--chunk-size", str(chunk), "--workers", str(workers),
                   "--policy", "random", "--json", "--records", "-"], tmp_path)
    records = []

    def read():
        for line in proc.stdout:
            records.append(line)
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    _wait_for(lambda: len(records) >= 2 * chunk, proc, "two chunks of records were written")
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=HANG)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the run did not stop after SIGINT")
    reader.join(timeout=HANG)
    err = proc.stderr.read()
    assert proc.returncode == 130 and "Traceback" not in err, err
    lines = err.strip().splitlines()
    stops = [m for m in map(re.compile(r"stopped: (\d+) of (\d+) chunks finished$").match, lines) if m]
    assert len(stops) == 1, err
    done = int(stops[0].group(1))
    assert done >= 2 and int(stops[0].group(2)) == 10 ** 9 // chunk
    assert json.loads(lines[-1])["counts"]["hands"] == done * chunk      # the summary goes to stderr here
    # standard output cannot be taken back, so a chunk's records go out with the stop held back (run/jobs.py
    # _whole): what came out is whole chunks of the run's records, in order, none the tally does not count
    assert all(line.endswith("\n") for line in records) and len(records) % chunk == 0, len(records)
    whole = [json.loads(line) for line in records]
    assert 2 * chunk <= len(whole) <= done * chunk, (len(whole), done)
    assert [(r["chunk"], r["index"]) for r in whole] == [divmod(k, chunk) for k in range(len(whole))]
    assert os.listdir(tmp_path) == []


def _children(pid):
    kids = []
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as fh:
            kids += [int(x) for x in fh.read().split()]
    return kids


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="finds the workers through Linux's /proc")
def test_a_worker_killed_mid_run_has_its_chunk_played_again(tmp_path):
    """As the out-of-memory killer would: the run goes on and ends with the uninterrupted result."""
    hands, chunk = 600_000, 2_000
    args = ["--hands", str(hands), "--chunk-size", str(chunk), "--seed", "5", "--workers", "2", "--policy",
            "random", "--out", "run.parquet", "--json"]
    parts = tmp_path / "run.parquet"
    proc = _start(args, tmp_path)
    _wait_for(lambda: len(_finished_on_disk(parts)) >= 2 and _children(proc.pid), proc, "two chunks were finished")
    os.kill(_children(proc.pid)[0], signal.SIGKILL)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0 and "Traceback" not in err, err
    spec = runner.RunSpec(rules=FOUR_HAND, policies=("random",), seed=5, count=hands, chunk_size=chunk)
    assert json.loads(out)["counts"] == runner.run(spec, workers=1)
    assert pq.read_table(tmp_path / "run.parquet").num_rows == hands


@pytest.mark.slow
def test_kill_9_of_the_run_itself_resumes_to_the_uninterrupted_result(tmp_path):
    """No handler runs on SIGKILL: only the temporary names and the chunk log keep the folder sound."""
    hands, chunk = 200_000, 1_000
    args = ["--hands", str(hands), "--chunk-size", str(chunk), "--seed", "11", "--workers", "2", "--policy",
            "random", "--out", "run.parquet", "--records", "run.jsonl", "--json"]
    folder = tmp_path / "run.parquet"
    proc = _start(args, tmp_path)
    _wait_for(lambda: len(_finished_on_disk(folder)) >= 3 and len(_children(proc.pid)) == 2, proc,
              "three chunks were finished")
    workers = _children(proc.pid)
    proc.kill()
    proc.wait(timeout=HANG)
    wait_gone(workers)        # no handler ran, yet the workers see their parent gone and leave (run/lifeline.py)
    proc.stdout.close()
    proc.stderr.close()
    proc = _start(args + ["--resume"], tmp_path)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    ref = tmp_path / "ref"
    ref.mkdir()
    spec = runner.RunSpec(rules=FOUR_HAND, policies=("random",), seed=11, count=hands, chunk_size=chunk)
    whole = runner.run(spec, workers=1, outputs=runner.Outputs(parquet=str(ref / "run.parquet"),
                                                         records=str(ref / "run.jsonl")))
    assert json.loads(out)["counts"] == whole
    assert pq.read_table(folder).equals(pq.read_table(ref / "run.parquet"))
    assert (tmp_path / "run.jsonl").read_bytes() == (ref / "run.jsonl").read_bytes()
    assert not any(name.endswith(".tmp") for _, _, names in os.walk(folder) for name in names)
