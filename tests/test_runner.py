"""euchresim.run.runner: seeds, chunks, workers, output and resume (nothing lost, and the same numbers whatever the workers)."""
import json
import os

import numpy as np
import pyarrow.parquet as pq
import pytest

from euchresim.run import runner
from euchresim.rules import Rules
from tests.helpers import run_spec

DEAL_COLS = ["dealer", "hand0", "hand1", "hand2", "hand3", "dummy", "upcard", "kitty"]


def _stop_after(n):
    """An ``on_chunk`` that stops the run, as Ctrl-C would, when ``n`` chunks are done."""
    def stop(done, total):
        if done == n:
            raise KeyboardInterrupt
    return stop


def spec(**kw):
    base = dict(rules=Rules(players=4, deck=24), policies=("random",), seed=7, count=4000, chunk_size=1000)
    base.update(kw)
    return run_spec(**base)


def test_same_seed_same_numbers_whatever_the_workers(tmp_path):
    a = runner.run(spec(), workers=1, outputs=runner.Outputs(parquet=str(tmp_path / "a.parquet")))
    b = runner.run(spec(), workers=2, outputs=runner.Outputs(parquet=str(tmp_path / "b.parquet")))
    assert a == b
    ta = pq.read_table(tmp_path / "a.parquet")
    tb = pq.read_table(tmp_path / "b.parquet")
    assert ta.equals(tb)
    assert ta.num_rows == 4000
    assert sorted(os.listdir(tmp_path / "a.parquet")) == ["_manifest.json"] + [f"chunk-{i:06d}.parquet" for i in range(4)]


def test_different_seed_different_numbers():
    assert runner.run(spec(seed=1), workers=1) != runner.run(spec(seed=2), workers=1)


def test_a_longer_run_starts_with_the_shorter_runs_chunks():
    short = runner.play_chunk(spec(count=2000), 1)
    long = runner.play_chunk(spec(count=9000), 1)
    assert np.array_equal(short.hands, long.hands)


@pytest.mark.parametrize("players,deck", [(4, 24), (3, 25), (2, 32)])
def test_deals_do_not_depend_on_the_policies(players, deck):
    r = Rules(players=players, deck=deck)
    a = runner.play_chunk(spec(rules=r, policies=("random",)), 0).hands
    b = runner.play_chunk(spec(rules=r, policies=("baseline",)), 0).hands
    for col in DEAL_COLS:
        assert np.array_equal(a[col], b[col]), col
    assert not np.array_equal(a["maker"], b["maker"])


def test_a_stopped_run_keeps_its_chunks_and_resumes_to_the_same_file(tmp_path):
    out = str(tmp_path / "r.parquet")
    rec = str(tmp_path / "r.jsonl")
    outputs = runner.Outputs(parquet=out, records=rec)

    with pytest.raises(KeyboardInterrupt) as exc:
        runner.run(spec(), workers=1, outputs=outputs, on_chunk=_stop_after(2))
    assert exc.value.done == 2 and exc.value.partial["hands"] == 2000
    assert "_chunks.jsonl" in os.listdir(out)        # the chunks wait where Parquet readers do not look
    assert {"chunk-000000.parquet", "chunk-000001.parquet"} <= set(os.listdir(os.path.join(out, "_unfinished")))
    assert not any(f.endswith(".parquet") for f in os.listdir(out))
    assert os.path.exists(os.path.join(out, "_records", "chunk-000001.jsonl"))
    assert not os.path.exists(rec)                 # joined only when every chunk is there

    with pytest.raises(runner.SimError, match="--resume"):
        runner.run(spec(), workers=1, outputs=outputs)
    with pytest.raises(runner.SimError, match="differs in seed"):
        runner.run(spec(seed=8), workers=1, outputs=outputs, resume=True)

    seen = []
    counts = runner.run(spec(), workers=1, outputs=outputs, resume=True, on_chunk=lambda d, t: seen.append(d))
    assert seen == [3, 4]                     # only the two missing chunks were played
    whole = runner.run(spec(), workers=1, outputs=runner.Outputs(parquet=str(tmp_path / "w.parquet"),
                                                           records=str(tmp_path / "w.jsonl")))
    assert counts == whole
    assert pq.read_table(out).equals(pq.read_table(tmp_path / "w.parquet"))
    with open(rec) as f1, open(tmp_path / "w.jsonl") as f2:
        assert f1.read() == f2.read()


def test_parquet_carries_the_run_metadata(tmp_path):
    out = str(tmp_path / "m.parquet")
    runner.run(spec(count=1000), workers=1, outputs=runner.Outputs(parquet=out))
    meta = json.loads(pq.read_schema(os.path.join(out, "chunk-000000.parquet")).metadata[b"euchresim"])
    assert meta["seed"] == 7 and meta["rules"] == {"players": 4, "deck": 24}
    assert meta["policies"] == ["random"] * 4 and "engine_version" in meta
    with open(os.path.join(out, "_manifest.json")) as fh:
        manifest = json.load(fh)
    assert manifest["complete"] and manifest["seed"] == 7 and manifest["chunk_size"] == 1000
    assert manifest["chunks"]["0"]["files"]["parquet"]["bytes"] == os.path.getsize(
        os.path.join(out, "chunk-000000.parquet"))


def test_rubbers_need_four_players():
    with pytest.raises(runner.SimError, match="R13"):
        spec(rules=Rules(players=3), mode="rubbers")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_reused_buffers_give_the_same_rows_as_fresh_ones(players):
    """The kernel must write every field: garbage left in a lent buffer must not show."""
    s = spec(rules=Rules(players=players, deck=25))
    fresh = runner.play_chunk(s, 1)
    scratch = {}
    runner.play_chunk(s, 0, scratch)
    rows, plays = scratch["rows"]
    rows.view(np.uint8)[:] = 0xA5
    plays[:] = 77
    reused = runner.play_chunk(s, 1, scratch)
    assert scratch["rows"][0] is rows and np.shares_memory(reused.hands, rows)    # the buffer was lent again
    assert np.array_equal(fresh.hands, reused.hands)
    assert np.array_equal(fresh.plays, reused.plays)


@pytest.mark.parametrize("players,policy", [(4, "random"), (3, "baseline"), (2, "random")])
def test_a_run_that_keeps_no_rows_counts_the_same(players, policy):
    """keep_rows=False writes the rows round a small ring: the same hands, the same counts."""
    s = spec(rules=Rules(players=players), policies=(policy,), count=3 * runner.ROW_RING + 123,
             chunk_size=3 * runner.ROW_RING + 123)
    kept = runner.play_chunk(s, 0)
    scratch = {}
    ringed = runner.play_chunk(s, 0, scratch, keep_rows=False)
    assert len(kept.hands) == s.count and len(ringed.hands) == 0 and len(ringed.plays) == 0
    assert runner.tally(kept, players) == runner.tally(ringed, players)
    assert len(scratch["ring"][0]) == runner.ROW_RING        # no buffer for the whole chunk was made
    # the ring holds the last rows, each in slot index % ring
    rows, plays = scratch["ring"]
    last = kept.hands[-runner.ROW_RING:]
    order = np.argsort(last["index"] % runner.ROW_RING)
    assert np.array_equal(rows, last[order])
    assert np.array_equal(plays, kept.plays[-runner.ROW_RING:][order])


def test_a_ring_of_rows_must_be_a_power_of_two():
    from euchresim.loops.hands import run_hands
    from euchresim.engine.layout import HAND_DTYPE, TALLY_SIZE
    from euchresim.policies import functions, resolve
    from euchresim.engine.tables import build_tables
    rules = Rules()
    pids, params, _ = resolve(["random"], 4)
    fns = functions(["random"], 4)
    drng, prng = runner.chunk_states(0, 0)
    with pytest.raises(ValueError, match="power of two"):
        run_hands(build_tables(rules), 5000, drng, prng, pids, params, fns, np.zeros(3000, HAND_DTYPE),
                  np.zeros((3000, 20), np.int8), 0, np.zeros(TALLY_SIZE, np.int64))


@pytest.mark.parametrize("damage", ["truncate", "flip", "delete"])
def test_a_damaged_chunk_file_is_found_and_played_again(tmp_path, damage):
    out = str(tmp_path / "r.parquet")
    outputs = runner.Outputs(parquet=out, records=str(tmp_path / "r.jsonl"))
    with pytest.raises(KeyboardInterrupt):
        runner.run(spec(), workers=1, outputs=outputs, on_chunk=_stop_after(3))
    victim = os.path.join(out, "_unfinished", "chunk-000001.parquet") if damage != "flip" else \
        os.path.join(out, "_records", "chunk-000000.jsonl")
    if damage == "truncate":
        with open(victim, "r+b") as fh:
            fh.truncate(os.path.getsize(victim) // 2)
    elif damage == "flip":
        data = bytearray(open(victim, "rb").read())
        data[10] ^= 1
        open(victim, "wb").write(bytes(data))
    else:
        os.remove(victim)
    seen = []
    counts = runner.run(spec(), workers=1, outputs=outputs, resume=True, on_chunk=lambda d, t: seen.append(d))
    assert len(seen) == 2                    # the damaged chunk and the one never played
    whole = runner.run(spec(), workers=1, outputs=runner.Outputs(parquet=str(tmp_path / "w.parquet"),
                                                           records=str(tmp_path / "w.jsonl")))
    assert counts == whole and pq.read_table(out).equals(pq.read_table(tmp_path / "w.parquet"))
    assert open(tmp_path / "r.jsonl").read() == open(tmp_path / "w.jsonl").read()


def test_a_log_line_cut_short_by_a_crash_only_costs_its_chunk(tmp_path):
    out = str(tmp_path / "r.parquet")
    with pytest.raises(KeyboardInterrupt):
        runner.run(spec(), workers=1, outputs=runner.Outputs(parquet=out), on_chunk=_stop_after(2))
    log = os.path.join(out, "_chunks.jsonl")
    text = open(log).read()
    open(log, "w").write(text[:-40])            # the second line half written
    seen = []
    runner.run(spec(), workers=1, outputs=runner.Outputs(parquet=out), resume=True, on_chunk=lambda d, t: seen.append(d))
    assert seen == [2, 3, 4]
    assert pq.read_table(out).num_rows == 4000


def test_a_checkpoint_resumes_a_run_that_writes_no_rows(tmp_path):
    ck = str(tmp_path / "ck")
    with pytest.raises(KeyboardInterrupt):
        runner.run(spec(), workers=1, outputs=runner.Outputs(checkpoint=ck), on_chunk=_stop_after(2))
    seen = []
    counts = runner.run(spec(), workers=1, outputs=runner.Outputs(checkpoint=ck), resume=True,
                     on_chunk=lambda d, t: seen.append(d))
    assert seen == [3, 4] and counts == runner.run(spec(), workers=1)
    assert sorted(os.listdir(ck)) == ["_manifest.json"]
    again = runner.run(spec(), workers=1, outputs=runner.Outputs(checkpoint=ck), resume=True)   # finished: nothing to play
    assert again == counts
    with pytest.raises(runner.SimError, match="holds a finished run"):
        runner.run(spec(), workers=1, outputs=runner.Outputs(checkpoint=ck))


def test_a_folder_that_is_not_a_run_is_never_taken(tmp_path):
    d = tmp_path / "mine.parquet"
    d.mkdir()
    (d / "precious.txt").write_text("keep")
    for force in (False, True):
        with pytest.raises(runner.SimError, match="not a euchresim run"):
            runner.run(spec(), workers=1, outputs=runner.Outputs(parquet=str(d)), force=force)
    assert (d / "precious.txt").read_text() == "keep"


@pytest.mark.parametrize("policy", ["random", "heuristic", "dd", "pimc", "best", "tests.user_policies:random_player"])
def test_the_one_chunk_rule_gives_the_sizes_the_seeds_were_made_with(policy):
    """Chunk sizes are part of what a seed means: the one rule (runner.chunk_size) gives what each caller gave before."""
    from euchresim.policies import seats
    from euchresim.report.paired_chunks import plan
    c = seats([policy], 4).cost
    assert [runner.chunk_size(m) for m in ("hands", "games", "rubbers")] == [1 << 16, 2048, 512]
    assert run_spec(rules=Rules(), mode="games", count=5).chunk_size == 2048
    for n in (1, 3, 999, 3000, 400_000):
        slow = c.searches
        old = min(50_000, max(1, -(-n // 4)), 250 if slow else 50_000)      # report/paired_chunks.py's plan, as it was
        assert plan(n, 50_000, c) == (old, -(-n // old))
        assert runner.chunk_size("hands", n, hands=50_000, cost=c) == min(50_000, n, *([250] if slow else []))
        assert runner.chunk_size("games", n, hands=50_000) == min(5_000, n)        # euchre_rates, win_probability
    assert c.share == (100 if policy in ("pimc", "best") else 10)                # cli/report's further model hands
    assert c.batch == (25 if c.searches else 1000)
