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

And every path around the kernels keeps what was there: no half-written
output, no input destroyed (the section at the end).
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

from euchresim.records.jsonl import write_jsonl
from euchresim.run import jobs, runner
from euchresim.run.files import OutputPathError, check_distinct
from euchresim.rules import FOUR_HAND

from tests.helpers import run_spec, child_pids, hears_ctrl_c, run, wait_for
from tests.test_lifeline import wait_gone

HANG = 120         # seconds after SIGINT before a run counts as hung
START = 900        # seconds a run may take to reach a point the test waits for: a hang guard, not a wait


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(scope="module", autouse=True)
def _compiled(tmp_path_factory):
    """Every kernel the runs below use, compiled (or loaded) into the cache they read, before any starts."""
    d = tmp_path_factory.mktemp("warm")
    spec = run_spec(rules=FOUR_HAND, policies=("random",), seed=1, count=2_000, chunk_size=1_000)
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
    spec = run_spec(rules=FOUR_HAND, policies=("random",), seed=3, count=hands, chunk_size=chunk)
    outputs = runner.Outputs(parquet=str(ref / "run.parquet") if want_out else None,
                          records=str(ref / "run.jsonl") if want_rec else None)
    whole = runner.run(spec, workers=1, outputs=outputs)
    assert resumed["counts"] == whole
    if want_out:
        assert pq.read_table(tmp_path / "run.parquet").equals(pq.read_table(ref / "run.parquet"))
    if want_rec:
        assert (tmp_path / "run.jsonl").read_bytes() == (ref / "run.jsonl").read_bytes()


# two workers in the full suite: the fast tier keeps the same stop, one worker, through the same subprocess
@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=pytest.mark.slow)])
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


@pytest.mark.slow
@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="finds the workers through Linux's /proc")
def test_a_worker_killed_mid_run_has_its_chunk_played_again(tmp_path):
    """As the out-of-memory killer would: the run goes on and ends with the uninterrupted result."""
    hands, chunk = 600_000, 2_000
    args = ["--hands", str(hands), "--chunk-size", str(chunk), "--seed", "5", "--workers", "2", "--policy",
            "random", "--out", "run.parquet", "--json"]
    parts = tmp_path / "run.parquet"
    proc = _start(args, tmp_path)
    _wait_for(lambda: len(_finished_on_disk(parts)) >= 2 and child_pids(proc.pid), proc, "two chunks were finished")
    os.kill(child_pids(proc.pid)[0], signal.SIGKILL)
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0 and "Traceback" not in err, err
    spec = run_spec(rules=FOUR_HAND, policies=("random",), seed=5, count=hands, chunk_size=chunk)
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
    _wait_for(lambda: len(_finished_on_disk(folder)) >= 3 and len(child_pids(proc.pid)) == 2, proc,
              "three chunks were finished")
    workers = child_pids(proc.pid)
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
    spec = run_spec(rules=FOUR_HAND, policies=("random",), seed=11, count=hands, chunk_size=chunk)
    whole = runner.run(spec, workers=1, outputs=runner.Outputs(parquet=str(ref / "run.parquet"),
                                                         records=str(ref / "run.jsonl")))
    assert json.loads(out)["counts"] == whole
    assert pq.read_table(folder).equals(pq.read_table(ref / "run.parquet"))
    assert (tmp_path / "run.jsonl").read_bytes() == (ref / "run.jsonl").read_bytes()
    assert not any(name.endswith(".tmp") for _, _, names in os.walk(folder) for name in names)


# ------------------------------------------------------------------ nothing lost around the kernels
def test_a_write_stopped_halfway_leaves_the_old_file_whole(tmp_path):
    p = tmp_path / "checked.jsonl"
    write_jsonl(p, [{"n": i} for i in range(100)])
    before = p.read_bytes()

    def stopped():
        for i in range(50):
            yield {"n": -i}
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        write_jsonl(p, stopped())
    assert p.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == ["checked.jsonl"]       # no temporary left behind


def test_two_names_of_one_file_clash_whatever_the_names(tmp_path):
    a = tmp_path / "a.jsonl"
    a.write_text("{}\n")
    os.link(a, tmp_path / "b.jsonl")
    os.symlink(a, tmp_path / "c.jsonl")
    for other in ("b.jsonl", "c.jsonl", "./sub/../a.jsonl"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        with pytest.raises(OutputPathError, match="name the same file"):
            check_distinct([("SRC", str(a)), ("-o", str(tmp_path / other))])
    check_distinct([("SRC", str(a)), ("-o", str(tmp_path / "new.jsonl"))])


def _records(tmp_path, n=30):
    assert run(["simulate", "--hands", str(n), "--workers", "1", "--records", "h.jsonl", "--quiet"],
               cwd=tmp_path).exit_code == 0
    return (tmp_path / "h.jsonl").read_bytes()


def test_replay_onto_a_hard_link_of_its_input_is_refused_and_the_input_kept(tmp_path):
    data = _records(tmp_path)
    os.link(tmp_path / "h.jsonl", tmp_path / "link.jsonl")
    r = run(["replay", "h.jsonl", "-o", "link.jsonl", "--force"], cwd=tmp_path)
    assert r.exit_code != 0 and "same file" in r.output
    assert (tmp_path / "h.jsonl").read_bytes() == data


def test_replay_of_standard_input_onto_the_file_it_comes_from_is_refused(tmp_path):
    data = _records(tmp_path)
    with open(tmp_path / "h.jsonl", "rb") as fh:
        r = subprocess.run([sys.executable, "-m", "euchresim.cli", "replay", "-", "-o", "h.jsonl", "--force"],
                           stdin=fh, cwd=tmp_path, capture_output=True, text=True,
                           env=dict(os.environ, PYTHONPATH=ROOT))
    assert r.returncode != 0 and "same file" in r.stderr and "Traceback" not in r.stderr
    assert (tmp_path / "h.jsonl").read_bytes() == data


@pytest.mark.slow
def test_the_largest_allowed_run_starts_at_once_in_flat_memory():
    """--hands 10^15 is 1.5e10 chunks: a list of their numbers alone would be hundreds of GB, so the bug was
    memory growing without bound before any hand was played. The first chunks must play, and the peak stays
    within what one chunk's buffers and the loaded kernels take (well under 1 GiB).

    The peak is the process's own high-water mark (``VmHWM``), not ``ru_maxrss``: Linux carries a
    process's ``ru_maxrss`` across the exec that started it, so there it is at least the peak of the
    pytest process that forked it (1.16 GB once, late in a full suite that compiled every kernel cold)."""
    code = (
        "import resource\n"
        "def peak_kb():\n"
        "    try:\n"
        "        with open('/proc/self/status') as fh:\n"
        "            return next(int(l.split()[1]) for l in fh if l.startswith('VmHWM:'))\n"
        "    except OSError:\n"
        "        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "from euchresim.run import jobs, runner\n"
        "from euchresim.policies import seats\n"
        "from euchresim.rules import FOUR_HAND\n"
        "spec = runner.RunSpec(rules=FOUR_HAND, policies=seats(['random'], 4), count=10**15)\n"
        "def on(done, total):\n"
        "    if done >= 2:\n"
        "        raise KeyboardInterrupt\n"
        "try:\n"
        "    runner.run(spec, workers=2, on_chunk=on)\n"
        "except jobs.RunStopped as e:\n"
        "    print(e.done, e.total, peak_kb())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         env=dict(os.environ, PYTHONPATH=ROOT)).stdout.split()
    done, total, peak_kb = map(int, out)
    assert done >= 2 and total == -(-10 ** 15 // (1 << 16))
    assert peak_kb < 1 << 20


def test_an_interrupted_parquet_dataset_does_not_read_as_a_complete_table(tmp_path):
    import pandas as pd

    from euchresim.rules import FOUR_HAND
    from euchresim.run import runner
    spec = run_spec(rules=FOUR_HAND, policies=("random",), seed=2, count=4000, chunk_size=1000)
    out = str(tmp_path / "h.parquet")

    def stop(done, total):
        if done == 2:
            raise KeyboardInterrupt
    with pytest.raises(jobs.RunStopped):
        runner.run(spec, workers=1, outputs=runner.Outputs(parquet=out), on_chunk=stop)
    try:
        got = len(pd.read_parquet(out))
    except Exception:          # pyarrow finds no data file: refusing is as good as an empty table
        got = 0
    assert got == 0
    runner.run(spec, workers=1, outputs=runner.Outputs(parquet=out), resume=True)
    assert len(pd.read_parquet(out)) == 4000
    assert not os.path.exists(os.path.join(out, "_unfinished"))


def test_a_stopped_runs_table_says_partial_in_its_header(monkeypatch):
    from euchresim.run import runner
    real, calls = runner.tally, []

    def stop_at_the_third(res, players):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(res, players)
    monkeypatch.setattr(runner, "tally", stop_at_the_third)
    r = run(["simulate", "--hands", "5000", "--chunk-size", "1000", "--workers", "1", "--policy", "random"])
    assert r.exit_code == 130
    head = next(ln for ln in r.stdout.splitlines() if ln.startswith("euchresim "))
    assert "PARTIAL: 2,000 of 5,000 hands, the run was stopped" in head
    assert "stopped: 2 of 5 chunks finished" in r.stderr


def test_replay_of_a_file_runs_on_the_runner_alike_for_any_workers_and_resumes(tmp_path, monkeypatch):
    """A large file's replay and solve run block by block: the same lines and findings with 1 or 2 workers,
    a stop keeps finished blocks in OUTPUT.parts/ and never touches OUTPUT, --resume finishes it alike."""
    from euchresim.run.jobs import RunStopped
    from euchresim.studies import record_files
    from euchresim.studies.replay_file import replay_file
    from euchresim.studies.solve import solve_file
    _records(tmp_path, n=300)
    lines = (tmp_path / "h.jsonl").read_text().splitlines()
    lines[7] = lines[7].replace('"dealer": 0', '"dealer": 9').replace('"dealer":0', '"dealer":9')
    lines[200] = "not json"
    (tmp_path / "h.jsonl").write_text("\n".join(lines) + "\n")
    src = str(tmp_path / "h.jsonl")
    one = replay_file(src, str(tmp_path / "one.jsonl"), workers=1)
    monkeypatch.setattr("euchresim.studies.replay_file.BATCH", 64)       # several blocks, to have workers share them
    monkeypatch.setattr("euchresim.studies.solve.BATCH", 64)
    two = replay_file(src, str(tmp_path / "two.jsonl"), workers=2)
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()
    assert (one.records, one.broken, one.differ, one.lines) == (two.records, two.broken, two.differ, two.lines)
    assert one.records == 300 and one.broken >= 1 and any(ln.startswith("line 201:") for ln in one.lines)

    real, calls = record_files.RecordsFileJob.play, []

    def stop_in_the_third(self, chunk):
        calls.append(chunk)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(self, chunk)
    monkeypatch.setattr(record_files.RecordsFileJob, "play", stop_in_the_third)
    out = tmp_path / "solved.jsonl"
    with pytest.raises(RunStopped):
        solve_file(src, str(out), workers=1)
    assert not out.exists() and os.path.isdir(str(out) + ".parts")
    monkeypatch.setattr(record_files.RecordsFileJob, "play", real)
    done = solve_file(src, str(out), workers=1, resume=True)
    whole = solve_file(src, str(tmp_path / "whole.jsonl"), workers=1)
    assert out.read_bytes() == (tmp_path / "whole.jsonl").read_bytes() and done.lines == whole.lines
    assert not os.path.exists(str(out) + ".parts")


def test_no_compile_notice_before_an_error_that_plays_nothing(tmp_path, monkeypatch):
    """A refused run folder is found before any kernel would compile: the notice must not precede it."""
    import euchresim.engine as engine
    monkeypatch.setattr(engine, "kernels_cached", lambda: False)
    (tmp_path / "dir.parquet").mkdir()
    (tmp_path / "dir.parquet" / "notes.txt").write_text("mine")
    r = run(["simulate", "--hands", "10", "--workers", "1", "--out", "dir.parquet"], cwd=tmp_path)
    assert r.exit_code != 0 and "compiling" not in r.output
    r = run(["simulate", "--hands", "10", "--workers", "1", "--policy", "random"], cwd=tmp_path)
    assert r.exit_code == 0 and "compiling kernels" in r.stderr


def test_a_finished_datasets_lost_chunk_is_played_again_on_resume(tmp_path):
    import pandas as pd

    from euchresim.rules import FOUR_HAND
    from euchresim.run import runner
    spec = run_spec(rules=FOUR_HAND, policies=("random",), seed=4, count=3000, chunk_size=1000)
    out = str(tmp_path / "h.parquet")
    runner.run(spec, workers=1, outputs=runner.Outputs(parquet=out))
    whole = pd.read_parquet(out)
    os.remove(os.path.join(out, "chunk-000001.parquet"))
    seen = []
    runner.run(spec, workers=1, outputs=runner.Outputs(parquet=out), resume=True, on_chunk=lambda d, t: seen.append(d))
    assert seen == [3]                                   # one chunk played, the other two kept
    pd.testing.assert_frame_equal(pd.read_parquet(out).sort_values(["chunk", "index"]).reset_index(drop=True),
                                  whole.sort_values(["chunk", "index"]).reset_index(drop=True))


@pytest.mark.parametrize("loss", ["a parquet chunk", "the records file", "a changed records file"])
def test_a_finished_run_with_records_resumes_after_a_loss_to_the_same_files(tmp_path, loss):
    """The joined --records file is cut back into its chunks (or, lost itself, every chunk is played again)."""
    import pandas as pd
    from tests.helpers import run
    out, recs = tmp_path / "h.parquet", tmp_path / "h.jsonl"
    args = ["simulate", "--hands", "3000", "--chunk-size", "1000", "--seed", "4", "--policy", "random",
            "--workers", "1", "--quiet", "--out", str(out), "--records", str(recs)]
    assert run(args).exit_code == 0
    whole, lines = pd.read_parquet(out), recs.read_bytes()
    if loss == "a parquet chunk":
        os.remove(out / "chunk-000001.parquet")
    elif loss == "the records file":
        os.remove(recs)
    else:
        recs.write_bytes(lines[:-200])
    r = run(args + ["--resume"])
    assert r.exit_code == 0, r.output
    assert recs.read_bytes() == lines
    pd.testing.assert_frame_equal(pd.read_parquet(out).sort_values(["chunk", "index"]).reset_index(drop=True),
                                  whole.sort_values(["chunk", "index"]).reset_index(drop=True))
    assert run(args + ["--resume"]).exit_code == 0 and recs.read_bytes() == lines     # whole: nothing to do
    other = tmp_path / "other.jsonl"
    other.write_text("mine\n")
    r = run(args[:-1] + [str(other), "--resume"])                 # a file the run never wrote is not its own
    assert r.exit_code != 0 and "exists; add --force" in r.output and other.read_text() == "mine\n"
