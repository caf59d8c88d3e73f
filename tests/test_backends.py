"""The local backend's worker pool: results as they finish, a dead worker's job played again."""
import os

import pytest

from euchresim.run.backends import MAX_TRIES, ChunkFailed
from euchresim.run.backends.local import WorkerPool, map_chunks


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
