"""The one runner (run/jobs.py): any job gets workers, a run folder, checksums, resume and a clean stop; and
the local backend's worker pool under it (run/backends/local.py): results as they finish, a dead worker's job
played again."""
import json
import os
import signal
import time

import pytest

from euchresim.run import folder as parts
from euchresim.run.backends import MAX_TRIES, ChunkFailed
from euchresim.run.backends.local import WorkerPool, map_chunks
from euchresim.run.errors import SimError
from euchresim.run.jobs import Job, Played, RunStopped, run_job


class Squares(Job):
    """A job whose chunk i tallies i and keeps i*i as bytes; ``stop_at`` raises Ctrl-C in that chunk."""

    def __init__(self, n, stop_at=None, tag="a"):
        self.n_chunks, self.stop_at, self.tag = n, stop_at, tag

    def header(self):
        return {"job": "squares", "n": self.n_chunks, "tag": self.tag}

    def play(self, chunk):
        if chunk == self.stop_at:
            raise KeyboardInterrupt
        return Played({"sum": chunk, "chunks": 1}, {"result": str(chunk * chunk).encode()})


def _results(out):
    return [int(b) for b in out.files["result"]]


def test_the_numbers_do_not_depend_on_workers_or_a_folder(tmp_path):
    one = run_job(Squares(7), workers=1, collect=("result",))
    two = run_job(Squares(7), workers=2, collect=("result",))
    kept = run_job(Squares(7), workers=2, folder=str(tmp_path / "run"), collect=("result",))
    for out in (one, two, kept):
        assert out.counts == {"sum": 21, "chunks": 7}
        assert _results(out) == [i * i for i in range(7)]


def test_a_stop_keeps_finished_chunks_and_resume_plays_only_the_rest(tmp_path):
    d = str(tmp_path / "run")
    with pytest.raises(RunStopped) as e:
        run_job(Squares(6, stop_at=4), workers=1, folder=d, collect=("result",))
    assert (e.value.done, e.value.total, e.value.partial) == (4, 6, {"sum": 6, "chunks": 4})
    assert sorted(parts.finished(d, 6)) == [0, 1, 2, 3]
    played = []

    class Counting(Squares):
        def play(self, chunk):
            played.append(chunk)
            return super().play(chunk)

    out = run_job(Counting(6), workers=1, folder=d, resume=True, collect=("result",))
    assert played == [4, 5]
    assert out.counts == {"sum": 15, "chunks": 6} and _results(out) == [i * i for i in range(6)]


class Converts(Squares):
    """A real SIGINT in chunk ``stop_at``, which a library under it turns into an error of its own
    (``chained``: raised while handling the interrupt) or swallows and fails on later (not chained)."""

    def __init__(self, n, stop_at, chained):
        super().__init__(n, tag="conv")
        self.stop_at, self.chained = stop_at, chained

    def play(self, chunk):
        if chunk != self.stop_at:
            return super().play(chunk)
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)                      # the handler runs here, before the sleep ends
        except KeyboardInterrupt:
            if self.chained:
                raise OSError("write failed") from None
        raise ValueError("a library that lost the interrupt fails on its way out")


@pytest.fixture
def ctrl_c_raises():
    """Python's own SIGINT handler for the test, even where the suite was started with SIGINT ignored."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, previous)


@pytest.mark.parametrize("chained", [True, False])
def test_an_error_a_stop_caused_is_a_stop_that_keeps_the_finished_chunks(tmp_path, chained, ctrl_c_raises):
    d = str(tmp_path / "run")
    with pytest.raises(RunStopped) as e:
        run_job(Converts(6, stop_at=3, chained=chained), workers=1, folder=d)
    assert (e.value.done, e.value.partial) == (3, {"sum": 3, "chunks": 3})
    assert sorted(parts.finished(d, 6)) == [0, 1, 2]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler      # the handler put back


def test_an_error_with_no_stop_is_the_error(tmp_path):
    class Fails(Squares):
        def play(self, chunk):
            raise ValueError("a bug")
    with pytest.raises(ValueError, match="a bug"):
        run_job(Fails(3), workers=1, folder=str(tmp_path / "run"))


def test_a_damaged_chunk_is_found_by_its_checksum_and_played_again(tmp_path):
    d = str(tmp_path / "run")
    with pytest.raises(RunStopped):
        run_job(Squares(4, stop_at=3), workers=1, folder=d)
    with open(parts.chunk_path(d, "result", 1), "wb") as fh:
        fh.write(b"999")                       # the same size, other bytes
    out = run_job(Squares(4), workers=1, folder=d, resume=True, collect=("result",))
    assert _results(out) == [0, 1, 4, 9]


def test_resume_refuses_another_job_and_a_folder_no_run_left(tmp_path):
    d = str(tmp_path / "run")
    with pytest.raises(RunStopped):
        run_job(Squares(4, stop_at=2), workers=1, folder=d)
    with pytest.raises(SimError, match="differs in tag"):
        run_job(Squares(4, tag="b"), workers=1, folder=d, resume=True)
    with pytest.raises(SimError, match="no stopped run to resume here"):
        run_job(Squares(4), workers=1, folder=str(tmp_path / "elsewhere"), resume=True)
    with pytest.raises(SimError, match="needs the run folder"):
        run_job(Squares(4), workers=1, resume=True)


def test_joined_files_appear_whole_or_not_at_all(tmp_path):
    d, target = str(tmp_path / "run"), str(tmp_path / "all.txt")

    class Lines(Squares):
        def play(self, chunk):
            out = super().play(chunk)
            return Played(out.counts, {"records": f"{chunk}\n".encode()})

    with pytest.raises(RunStopped):
        run_job(Lines(3, stop_at=2), workers=1, folder=d, joins={"records": target})
    assert not os.path.exists(target)
    run_job(Lines(3), workers=1, folder=d, resume=True, joins={"records": target}, keep_folder=False)
    assert open(target).read() == "0\n1\n2\n" and not os.path.exists(d)


def test_read_kind_refuses_a_file_that_changed_after_it_was_logged(tmp_path):
    d = str(tmp_path / "run")
    run_job(Squares(3), workers=1, folder=d)
    with open(parts.chunk_path(d, "result", 2), "wb") as fh:
        fh.write(b"5")
    with pytest.raises(parts.PartsError, match="does not match its checksum"):
        parts.read_kind(d, "result", 3)
    assert json.load(open(os.path.join(d, parts.MANIFEST)))["complete"] is True


def test_a_file_lost_after_the_run_finished_is_played_again_on_resume(tmp_path):
    d = str(tmp_path / "run")
    run_job(Squares(5), workers=1, folder=d, collect=("result",))
    os.remove(parts.chunk_path(d, "result", 3))
    played = []

    class Counting(Squares):
        def play(self, chunk):
            played.append(chunk)
            return super().play(chunk)
    out = run_job(Counting(5), workers=1, folder=d, resume=True, collect=("result",))
    assert played == [3] and _results(out) == [i * i for i in range(5)]
    assert json.load(open(os.path.join(d, parts.MANIFEST)))["complete"] is True


# ---------------------------------------------------------------- the local backend's worker pool

def square(x):
    return x * x


def dies_on_three(x):
    if x == 3:
        os._exit(9)            # as a worker killed mid-chunk: no answer, no exception
    return x * x


def dies_once(arg):
    """Dies the first time it sees its item (a marker file remembers), then answers."""
    x, marker = arg
    if x == 2 and not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(9)
    return x * x


def fails(x):
    raise ValueError(f"bad item {x}")


def test_every_item_once_whatever_the_order():
    pool = WorkerPool(2)
    try:
        assert sorted(pool.map(square, range(20))) == [x * x for x in range(20)]
        assert sorted(pool.map(square, range(5))) == [0, 1, 4, 9, 16]       # a pool serves several runs
    finally:
        pool.shutdown()


def test_one_worker_runs_in_this_process():
    assert list(map_chunks(square, [1, 2, 3], workers=1)) == [1, 4, 9]


def test_a_worker_that_dies_has_its_item_played_again(tmp_path):
    marker = str(tmp_path / "died")
    out = sorted(map_chunks(dies_once, [(x, marker) for x in range(6)], workers=2, label=lambda a: a[0]))
    assert out == [x * x for x in range(6)] and os.path.exists(marker)


def test_an_item_that_kills_every_worker_stops_the_run_naming_it():
    with pytest.raises(ChunkFailed) as e:
        list(map_chunks(dies_on_three, list(range(8)), workers=2))
    assert e.value.chunk == 3 and e.value.tries == MAX_TRIES
    assert "chunk 3 failed 3 times" in str(e.value) and "exited with status 9" in str(e.value)


def test_a_job_s_own_error_comes_back_as_it_is():
    with pytest.raises(ValueError, match="bad item"):
        list(map_chunks(fails, [1, 2, 3], workers=2))


def test_a_stopped_pool_refuses_work_rather_than_return_nothing():
    pool = WorkerPool(2)
    pool.terminate()
    with pytest.raises(RuntimeError, match="stopped"):
        list(pool.map(square, [1]))
