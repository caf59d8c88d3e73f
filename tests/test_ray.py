"""--backend ray on a real local Ray instance: the local backend's numbers, files and records, bit for bit.

One Ray instance (2 CPUs) serves the whole module, since its start-up is
seconds.  The local backend's reference results are made before it
starts: the local backend forks its workers, and a fork of a process
running Ray's threads is best avoided.  Ray's workers import this module
to run the small jobs below, hence the repository root on PYTHONPATH.
The timeouts only turn a hang into a failure; no test asserts how fast
anything is.
"""
import json
import logging
import os
import subprocess
import sys
import time

import pytest
from tests.helpers import run_spec

ray = pytest.importorskip("ray")

import pyarrow.dataset as ds  # noqa: E402
from click.testing import CliRunner  # noqa: E402

from euchresim.run import jobs, runner   # noqa: E402
from euchresim.run.backends import MAX_TRIES, ChunkFailed   # noqa: E402
from euchresim.run.backends.ray import MAX_BATCH, TASK_SECONDS, _batch_size, map_chunks   # noqa: E402
from euchresim.cli.app import main   # noqa: E402
from euchresim.rules import FOUR_HAND   # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SPECS = {
    "hands": run_spec(rules=FOUR_HAND, policies=("baseline",), seed=11, count=6_000, chunk_size=1_000),
    "games": run_spec(rules=FOUR_HAND, policies=("baseline", "random", "baseline", "random"), seed=12,
                         mode="games", count=40, chunk_size=8),
}
RING = run_spec(rules=FOUR_HAND, policies=("random",), seed=13, count=300_000)   # no files: rows round the ring
CLI_ARGS = ["simulate", "--hands", "200000", "--policy", "random", "--seed", "4", "--json"]
REPORT_ARGS = ["report", "euchre-rates", "--hands", "4000", "--seed", "5", "--quiet"]


# ---------------------------------------------------------------- fixtures
def _outputs(folder, mode):
    return runner.Outputs(parquet=str(folder / f"{mode}.parquet"), records=str(folder / f"{mode}.jsonl"))


def _files(outputs):
    """What a run left: the dataset as one table, each chunk file's checksum, the records' bytes."""
    with open(os.path.join(outputs.parquet, "_manifest.json")) as fh:
        chunks = json.load(fh)["chunks"]
    with open(outputs.records, "rb") as fh:
        records = fh.read()
    return ds.dataset(outputs.parquet, format="parquet").to_table(), chunks, records


def _cli(args):
    """``euchresim ARGS`` through main(), in this process (so on this module's Ray instance)."""
    class _Main:
        name = "euchresim"

        def main(self, args=None, prog_name=None, **kw):
            main(list(args))
            sys.exit(0)
    return CliRunner().invoke(_Main(), args)


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The local backend's results, made before Ray starts."""
    folder = tmp_path_factory.mktemp("local")
    ref = {}
    for mode, spec in SPECS.items():
        outputs = _outputs(folder, mode)
        ref[mode] = (runner.run(spec, workers=2, outputs=outputs), _files(outputs))
    ref["ring"] = runner.run(RING, workers=2)
    r = _cli(CLI_ARGS + ["--workers", "1"])
    assert r.exit_code == 0, r.output
    ref["cli"] = json.loads(r.stdout)
    r = _cli(REPORT_ARGS + ["--out", str(folder / "report"), "--workers", "1"])
    assert r.exit_code == 0, r.output
    ref["report"] = _tables(folder / "report")
    return ref


def _tables(folder):
    """A report's CSV tables by name: its numbers."""
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.csv"))}


@pytest.fixture(scope="module")
def cluster(reference):
    old = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = os.pathsep.join([ROOT] + ([old] if old else []))
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level=logging.ERROR,
             log_to_driver=False)
    try:
        yield reference
    finally:
        ray.shutdown()
        if old is None:
            os.environ.pop("PYTHONPATH", None)
        else:
            os.environ["PYTHONPATH"] = old


# ---------------------------------------------------------------- jobs Ray's workers run
def square(x):
    return x * x


def fails(x):
    raise ValueError(f"bad item {x}")


def fails_in_sim(x):
    raise runner.SimError(f"chunk {x}: a policy made an illegal move (engine code 7)")


def disk_full(path):
    raise OSError(28, "No space left on device", path)


def dies_once(arg):
    """Dies the first time it sees the item named ``killer`` (a marker file remembers), then answers."""
    x, killer, marker = arg
    if x == killer and not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(9)
    return x * x


def dies_on(arg):
    x, killer = arg
    if x == killer:
        os._exit(9)          # as a worker killed mid-chunk: no answer, no exception
    return x * x


def sleeps(arg):
    """Item 0 answers at once; every other item notes its worker's pid and plays on for minutes."""
    x, folder = arg
    if x == 0:
        return os.getpid()
    with open(os.path.join(folder, f"{x}.pid.tmp"), "w") as fh:
        fh.write(str(os.getpid()))
    os.replace(os.path.join(folder, f"{x}.pid.tmp"), os.path.join(folder, f"{x}.pid"))
    time.sleep(300)
    return x


# ---------------------------------------------------------------- the same numbers
@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("mode", sorted(SPECS))
def test_the_same_counts_dataset_and_records_as_the_local_backend(cluster, tmp_path, mode, workers):
    want_counts, (want_table, want_chunks, want_records) = cluster[mode]
    outputs = _outputs(tmp_path, mode)
    counts = runner.run(SPECS[mode], workers=workers, outputs=outputs, backend="ray")
    table, chunks, records = _files(outputs)
    assert counts == want_counts and counts[mode] == SPECS[mode].count
    assert chunks == want_chunks          # every chunk's file, byte for byte (size and SHA-256)
    assert table.equals(want_table) and table.num_rows == counts["hands"] > 0
    assert records == want_records and records.count(b"\n") == counts["hands"]


@pytest.mark.slow
@pytest.mark.parametrize("workers", [1, 2])
def test_the_same_counts_without_files(cluster, workers):
    assert runner.run(RING, workers=workers, backend="ray") == cluster["ring"]


@pytest.mark.slow
def test_the_command_line_on_ray_prints_the_local_numbers(cluster):
    r = _cli(CLI_ARGS + ["--backend", "ray", "--workers", "2"])
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    assert got["counts"] == cluster["cli"]["counts"] and got["counts"]["hands"] == 200_000
    assert got["summary"] == cluster["cli"]["summary"]


@pytest.mark.slow
def test_a_report_on_ray_has_the_local_numbers(cluster, tmp_path):
    r = _cli(REPORT_ARGS + ["--out", str(tmp_path / "report"), "--backend", "ray", "--workers", "2"])
    assert r.exit_code == 0, r.output
    got = _tables(tmp_path / "report")
    assert got == cluster["report"] and len(got) >= 2 and all(got.values())


# ---------------------------------------------------------------- errors, deaths, stops
@pytest.mark.slow
def test_a_job_s_own_error_comes_back_as_itself(cluster):
    with pytest.raises(ValueError, match="bad item") as e:
        list(map_chunks(fails, [1, 2, 3], workers=2))
    assert type(e.value) is ValueError          # not Ray's RayTaskError wrapper
    with pytest.raises(runner.SimError, match="illegal move") as e:
        list(map_chunks(fails_in_sim, [5], workers=2))
    assert type(e.value) is runner.SimError
    with pytest.raises(OSError) as e:
        list(map_chunks(disk_full, ["/data/run.parquet"], workers=2))
    assert type(e.value) is OSError and e.value.errno == 28 and e.value.filename == "/data/run.parquet"


# item 2 is in the first tasks, one item each; item 150 comes when tasks play batches of items
@pytest.mark.slow
@pytest.mark.parametrize("killer", [2, 150])
def test_a_worker_that_dies_has_its_chunk_played_again(cluster, tmp_path, killer):
    marker = str(tmp_path / "died")
    out = sorted(map_chunks(dies_once, [(x, killer, marker) for x in range(200)], workers=2, label=lambda a: a[0]))
    assert out == [x * x for x in range(200)] and os.path.exists(marker)


@pytest.mark.slow
@pytest.mark.parametrize("killer", [3, 150])
def test_a_chunk_that_kills_every_worker_stops_the_run_naming_it(cluster, killer):
    with pytest.raises(ChunkFailed) as e:
        list(map_chunks(dies_on, [(x, killer) for x in range(200)], workers=2, label=lambda a: a[0]))
    assert e.value.chunk == killer and e.value.tries == MAX_TRIES
    assert f"chunk {killer} failed 3 times" in str(e.value) and "WorkerCrashedError" in str(e.value)


def test_a_task_plays_about_a_quarter_second_of_chunks_but_leaves_every_cpu_some_at_the_end():
    assert _batch_size(None, 1000, 4) == 1                       # nothing timed yet
    assert _batch_size(0.0156, 1000, 4) == int(TASK_SECONDS / 0.0156) > 1
    assert _batch_size(10.0, 1000, 4) == 1
    assert _batch_size(1e-9, 10**6, 4) == MAX_BATCH
    assert _batch_size(1e-3, 40, 4) == 10 and _batch_size(1e-3, 3, 4) == 1


@pytest.mark.slow
def test_closing_the_results_kills_the_tasks_still_playing(cluster, tmp_path):
    results = map_chunks(sleeps, [(x, str(tmp_path)) for x in range(10)], workers=2, label=lambda a: a[0])
    assert next(results) > 0                 # item 0
    deadline = time.monotonic() + 60
    while not _pids(tmp_path):
        assert time.monotonic() < deadline, "no other item started playing"
        time.sleep(0.01)
    results.close()
    pids = _pids(tmp_path)
    deadline = time.monotonic() + 60
    while any(_alive(p) for p in pids):
        assert time.monotonic() < deadline, "a cancelled task's worker is still running"
        time.sleep(0.05)


def _pids(folder):
    return [int((folder / name).read_text()) for name in os.listdir(folder) if name.endswith(".pid")]


def _alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split(")")[-1].split()[0] != "Z"      # a zombie has stopped
    except FileNotFoundError:
        return False


@pytest.mark.slow
def test_a_stopped_run_keeps_its_chunks_and_resumes_to_the_same_files(cluster, tmp_path):
    want_counts, want_files = cluster["hands"]
    outputs = _outputs(tmp_path, "hands")

    def stop_after_two(done, total):
        if done >= 2:
            raise KeyboardInterrupt

    with pytest.raises(jobs.RunStopped) as e:
        runner.run(SPECS["hands"], workers=2, outputs=outputs, backend="ray", on_chunk=stop_after_two)
    assert e.value.done == 2 < e.value.total == SPECS["hands"].n_chunks
    assert e.value.partial["hands"] == 2 * SPECS["hands"].chunk_size
    counts = runner.run(SPECS["hands"], workers=2, outputs=outputs, backend="ray", resume=True)
    assert counts == want_counts
    table, chunks, records = _files(outputs)
    assert (table.equals(want_files[0]), chunks, records) == (True, want_files[1], want_files[2])


# ---------------------------------------------------------------- one line, no traceback
def _simulate_subprocess(code_prefix, args):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    code = f"{code_prefix}; from euchresim.cli import main; main({['simulate', '--hands', '100'] + args!r})"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.slow
def test_without_ray_installed_one_line_says_how_to_get_it():
    r = _simulate_subprocess("import sys; sys.modules['ray'] = None", ["--backend", "ray"])
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert r.stderr.strip().count("\n") == 0 and "pip install 'euchresim[ray]'" in r.stderr


@pytest.mark.slow
def test_an_address_nobody_answers_at_is_one_line():
    r = _simulate_subprocess("pass", ["--backend", "ray", "--address", "127.0.0.1:1"])
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert r.stderr.strip().count("\n") == 0 and "no Ray cluster answers at 127.0.0.1:1" in r.stderr
    r = _simulate_subprocess("pass", ["--backend", "ray", "--address", "head-node"])
    assert r.returncode != 0 and "--address must be HOST:PORT" in r.stderr and "Traceback" not in r.stderr
