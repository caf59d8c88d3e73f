"""``euchresim bench``: hands per second per variant, and compile times.

Speed is measured here, never asserted in tests: a shared machine's timings are noise.  A
measurement plays whole chunks through ``runner.run`` -- deal, both bidding
rounds, play, score and the per-hand row -- after one warm-up chunk, so
compile time is excluded; compile time is measured on its own, cold (an
empty numba cache in a fresh process) and warm (the same cache reused).
"""
from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile
import time

from euchresim.policies.presets import declared_seats
from euchresim.run import runner
from euchresim.rules import Rules

def compile_every_kernel() -> float:
    """Seconds to import and compile the kernels a user's first runs need, in this process.

    Plain code rather than a snippet in a string: a name it uses that moves
    breaks it where tests see it (tests/test_bench.py runs it).  Every
    variant with random, baseline and heuristic, whole rubbers, and the
    replay of a hand record.
    """
    t = time.perf_counter()
    import json

    from euchresim.loops.record_steps import replay_record
    from euchresim.records.rows import records_lines
    for p in (2, 3, 4):
        for pol in ("random", "baseline", "heuristic"):
            runner.play_chunk(runner.RunSpec(rules=Rules(players=p, deck=25), policies=declared_seats(pol, p), count=50,
                                             chunk_size=50), 0)
    runner.play_chunk(runner.RunSpec(rules=Rules(players=4), mode="rubbers", count=1, chunk_size=1), 0)
    rules = Rules(players=4)
    res = runner.play_chunk(runner.RunSpec(rules=rules, policies=declared_seats("baseline", 4), count=1, chunk_size=1), 0)
    out = replay_record(json.loads(next(records_lines(rules, res))))
    if "error" in out or "mismatch" in out:
        raise RuntimeError(f"the compile probe's record did not replay: {out.get('error') or out['mismatch']}")
    return time.perf_counter() - t


def measure_compile() -> tuple[float, float]:
    """Seconds to import and compile every kernel: (cold, from cache), each in a fresh process."""
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, NUMBA_CACHE_DIR=d)
        code = "from euchresim.studies.benchmark import compile_every_kernel as f; print(f())"
        out = []
        for _ in range(2):
            t = time.perf_counter()
            r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
            if r.returncode != 0:
                last = (r.stderr.strip().splitlines() or ["no message"])[-1]
                raise RuntimeError(f"the compile-time measurement failed: {last}")
            out.append(time.perf_counter() - t)       # the import of the package counts too
    return out[0], out[1]


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {runner.default_workers()} cores, Python {platform.python_version()}"


def measure(rules: Rules, policy: str, hands: int, workers, pools, repeat: int = 3):
    """Steady-state hands per second for each count of ``workers``: {workers: (rate, hands)}.

    The kernels are loaded and the workers started first.  Each worker plays
    about ``hands``, in the same number of equal chunks (at most 65,536
    hands each): the run's fixed costs (handing out the first chunks, a last
    chunk finishing alone) then weigh the same on one core and on all, as in
    the long runs the figure is for.  Each figure is the best of ``repeat``
    runs, as ``timeit`` advises (other work on the machine only ever slows a
    run down), and the runs for one core and for all take turns, so that a
    slow spell of a shared machine falls on both alike.
    """
    per_worker = max(4, -(-hands // (1 << 16)))
    chunk = max(1000, hands // per_worker)
    specs = {}
    for w in workers:
        # two warm-up chunks a worker, so that every worker has its row buffers
        table = declared_seats(policy, rules.players)
        warm = runner.RunSpec(rules=rules, policies=table, count=2 * chunk * w, chunk_size=chunk, seed=1)
        runner.run(warm, workers=w, pool=pools.get(w))
        specs[w] = runner.RunSpec(rules=rules, policies=table, count=chunk * per_worker * w,
                               chunk_size=chunk, seed=2)
    best = dict.fromkeys(workers, 0.0)
    for _ in range(repeat):
        for w in workers:
            t = time.perf_counter()
            runner.run(specs[w], workers=w, pool=pools.get(w))
            best[w] = max(best[w], specs[w].count / (time.perf_counter() - t))
    return {w: (best[w], specs[w].count) for w in workers}


def measure_dd(deals: int, repeat: int = 3, seed: int = 1) -> float:
    """Mean microseconds to solve a 4-player 24-card deal exactly from the opening lead, one core.

    The deals' trump is what ``baseline`` made; all are solved in one jitted
    call (``solve_batch``, one workspace), so no Python call per deal
    counts; the fastest of ``repeat`` batches, as for the hands figures.
    """
    import numpy as np

    from euchresim.engine import solver as S
    from euchresim.engine.layout import RES_SIZE
    from euchresim.rules import FOUR_HAND
    from euchresim.studies.solve import opening_positions
    from euchresim.engine.tables import build_tables
    tab = build_tables(FOUR_HAND)
    pos = opening_positions(FOUR_HAND, deals, seed)
    res = np.zeros((deals, RES_SIZE), np.int64)
    ws = S.new_workspace()
    S.solve_batch(ws, tab, pos[:10], res[:10], np.int64(S.MODE_EXACT))      # loaded, not timed
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        S.solve_batch(ws, tab, pos, res, np.int64(S.MODE_EXACT))
        best = min(best, time.perf_counter() - t)
    return best / deals * 1e6


def pimc_positions(n: int, seed: int = 1):
    """``n`` play decisions of 4-player 24-card hands with a real choice (two or more legal cards).

    Hands are dealt and played by ``heuristic`` (its calls fix trump), and
    each is stopped at a random card of its play where the seat to play
    has a choice: the positions a ``pimc`` seat meets.  Returns the public
    and private states, one row each.
    """
    import numpy as np

    from euchresim.engine.bits import seed_state
    from euchresim.engine.layout import CFG_NPACK, NPLAYS, PH_PLAY, PRIV_SIZE, ST_SIZE, T_PACK
    from euchresim.engine.state import Hand
    from euchresim.policies.heuristic import heuristic_decide
    from euchresim.policies.heuristic_params import HEURISTIC_DEFAULTS
    from euchresim.rules import FOUR_HAND
    from euchresim.engine.tables import build_tables
    tab = build_tables(FOUR_HAND)
    drng = seed_state(np.random.SeedSequence(seed))
    pick = np.random.default_rng(seed)
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    sts, privs = np.zeros((n, ST_SIZE), np.int64), np.zeros((n, PRIV_SIZE), np.int64)
    got = 0
    def heuristic(h):
        seat, legal = h.to_act, h.legal()
        return int(heuristic_decide(h.st, np.int64(h.hand_of(seat)), np.int64(h.away_of(seat)), np.int64(seat),
                                    np.int64(legal), HEURISTIC_DEFAULTS, tab)), legal

    while got < n:
        h = Hand(tab)
        h.deal_next(work, drng, np.zeros(4, np.int64), got % 4)
        stop = int(pick.integers(0, 16))
        h.play_out(heuristic, until=lambda h: h.phase == PH_PLAY and h.st[NPLAYS] >= stop
                   and bin(h.legal()).count("1") >= 2)
        if not h.done:
            sts[got], privs[got] = h.st, h.priv
            got += 1
    return tab, sts, privs


def measure_pimc(decisions: int, worlds: int = 50, repeat: int = 3, seed: int = 1) -> float:
    """``pimc``'s play decisions per second at ``worlds`` sampled deals each, one core.

    All decisions in one jitted call (``pimc.decide_many``), the best of
    ``repeat``; the positions are ``pimc_positions``' (a real choice each).
    """
    import numpy as np

    from euchresim.engine.bits import seed_state
    from euchresim.policies.dispatch import new_workspace
    from euchresim.policies.pimc import decide_many
    from euchresim.policies.search_layout import PIMC_DEFAULTS, S_WORLDS
    tab, sts, privs = pimc_positions(decisions, seed)
    params = PIMC_DEFAULTS.copy()
    params[S_WORLDS] = worlds
    ws = new_workspace()
    out = np.zeros(decisions, np.int64)
    rng = seed_state(np.random.SeedSequence(seed + 1))
    decide_many(sts[:5].copy(), privs[:5].copy(), tab, params, rng, ws, out[:5])     # loaded, not timed
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        decide_many(sts, privs, tab, params, rng, ws, out)
        best = min(best, time.perf_counter() - t)
    return decisions / best


def measure_policy_hands(policy, hands: int, repeat: int = 3, seed: int = 1) -> tuple[float, float]:
    """(hands a second, decisions a second) with ``policy`` at every seat, 4 players, 24 cards, one core.

    ``policy``: a ``policies.Seats`` of 4 seats.

    Whole hands through the runner (deal, every decision, the row), the
    best of ``repeat``; a decision is every call, alone or defend-alone
    question, discard and card played (the row's calls, plays and answers),
    forced ones included, as a hand asks them.
    """
    spec = runner.RunSpec(rules=Rules(), policies=policy, seed=seed, count=hands, chunk_size=hands)
    runner.play_chunk(runner.RunSpec(rules=Rules(), policies=spec.policies, count=4, chunk_size=4), 0)  # loaded
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        res = runner.play_chunk(spec, 0)
        best = min(best, time.perf_counter() - t)
    rows, plays = res.hands, res.plays
    made = rows["maker"] >= 0
    decisions = (int(rows["n_calls"].sum()) + int((plays >= 0).sum()) + int((rows["discard"] >= 0).sum())
                 + int(made.sum()))               # the maker's alone question, once a hand is made
    return hands / best, decisions / best


def measure_decision_times(policy, hands: int, seed: int = 1, clock=time.perf_counter) -> dict:
    """Each decision of ``policy`` at every seat timed on its own, 4 players, 24 cards, one core: mean and slowest.

    A mean hides the decisions a player waits on (a dealer's discard values
    six options over every world); the slowest of a few hundred is the
    figure to hold against a time a decision.  Hands are stepped one
    decision at a time (``engine.state.Hand``), each asked through the
    hot loop's own call (``decide_one``), kernels loaded first; forced
    decisions (one legal action) count, as a hand asks them.
    ``policy``: a ``policies.Seats`` of 4 seats.
    """
    import numpy as np
    from euchresim.engine.layout import CFG_NPACK, CFG_PLAYERS, PHASE_NAMES, REDEAL, T_NEXT, T_PACK
    from euchresim.engine.tables import build_tables
    from euchresim.engine.state import Hand
    from euchresim.loops.hands import new_workspace, seat_decider
    from euchresim.loops.slow import first_dealer
    table = policy
    pids, params, fns = table.pids, table.params, table.functions()
    tab = build_tables(Rules())
    ws = new_workspace()
    times, phases = [], []
    for timed, stream in ((False, runner.chunk_states(seed + 1, 0)), (True, runner.chunk_states(seed, 0))):
        drng, prng = stream                     # first one hand untimed: the kernels loaded
        work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()       # the pack as a chunk starts it
        dealer = first_dealer(drng, tab[CFG_PLAYERS])
        h = Hand(tab)
        policies = seat_decider(pids, params, fns, prng, ws)

        def timed_decide(h, timed=timed):
            t = clock() if timed else 0.0
            got = policies(h)
            if timed:
                times.append(clock() - t)
                phases.append(PHASE_NAMES[h.phase])
            return got
        for _ in range(hands if timed else 1):  # chunk 0's hands, in the kernel's order
            h.deal_next(work, drng, np.zeros(4, np.int64), dealer)
            h.play_out(timed_decide)
            if h.st[REDEAL] == 0:
                dealer = int(tab[T_NEXT + dealer])
    slowest = int(np.argmax(times))
    return {"decisions": len(times), "mean_ms": 1000 * float(np.mean(times)),
            "p99_ms": 1000 * float(np.percentile(times, 99)), "max_ms": 1000 * times[slowest],
            "max_phase": phases[slowest]}


def measure_advise(samples: int, repeat: int = 3) -> list:
    """Seconds for the advisor's three questions of docs/advise.md, kernels loaded, best of ``repeat``.

    A round-one call from the left with ``heuristic`` at ``samples`` deals,
    the dealer's pick-up with ``pimc`` at ``samples // 20`` and a lead with
    ``pimc`` at the same: every deal played (the stop is not allowed to end
    early, so the figure is the cost of the deals asked for).  The P(win)
    model (analysis.advisor_table.win_model, made once per policy and rules) is
    not in these figures.
    """
    from euchresim.cards import parse_board, parse_card
    from euchresim.studies.advisor.evaluate import advise
    from euchresim.studies.advisor.situation import from_hand
    rules = Rules()
    cases = {
        "advise_bid1_heuristic": (from_hand(rules, parse_board("JH JD AH KS 9C".split()), parse_card("TH"), 1),
                                  "heuristic", samples),
        "advise_bid1_pimc": (from_hand(rules, parse_board("AD KD QC TC 9S".split()), parse_card("JD"), 0),
                             "pimc", max(1, samples // 20)),
        "advise_lead_pimc": (from_hand(rules, parse_board("AS KS AH QD 9C".split()), parse_card("JS"), 1,
                                       calls=(0, 0, 0, 1), decision="play"), "pimc", max(1, samples // 20)),
    }
    out = []
    for name, (sit, policy, n) in cases.items():
        # the search bots' answers use every core by default (cli/advise.py); the fast bots' one
        for w in sorted({1, runner.default_workers()}) if policy == "pimc" else [1]:
            advise(sit, declared_seats(policy, 4), samples=min(n, 25), stop=False, workers=w)     # loaded, not timed
            best = float("inf")
            for _ in range(repeat):
                t = time.perf_counter()
                advise(sit, declared_seats(policy, 4), samples=n, stop=False, workers=w)
                best = min(best, time.perf_counter() - t)
            out.append({"measure": name, "samples": n, "seconds": best, "policy": policy, "workers": w})
    return out


def best_rows(n: int, repeat: int, echo=None) -> list:
    """``best`` at every seat on ``n`` hands: hands and decisions a second, then each decision timed on its own."""
    table = declared_seats("best", 4)
    rows = []
    hps, dps = measure_policy_hands(table, n, repeat)
    best = table.names[0]                     # what best stands for
    rows.append({"measure": "best_hands", "players": 4, "deck": 24, "policy": best,
                 "workers": 1, "hands": n, "repeat": repeat, "hands_per_second": round(hps, 2),
                 "decisions_per_second": round(dps, 1)})
    if echo:
        echo(f"best ({best}) at every seat, 4 players, 24 cards: {hps:,.1f} hands a second, "
             f"{dps:,.0f} decisions a second ({n:,} hands, one core)")
    each = measure_decision_times(table, n)
    rows.append({"measure": "best_decision_ms", "players": 4, "deck": 24, "policy": best, "workers": 1,
                 "hands": n, "decisions": each["decisions"], "mean_ms": round(each["mean_ms"], 2),
                 "p99_ms": round(each["p99_ms"], 2), "max_ms": round(each["max_ms"], 2),
                 "max_phase": each["max_phase"]})
    if echo:
        echo(f"best a decision, each timed: {each['mean_ms']:.1f} ms on average, {each['p99_ms']:.1f} ms at "
             f"the 99th percentile, {each['max_ms']:.1f} ms the slowest ({each['max_phase']}; "
             f"{each['decisions']:,} decisions, one core)")
    return rows


def run_bench(hands, players, decks, policies, workers=None, compile_times=True, echo=None, repeat=3,
              dd_deals=0, pimc_decisions=0, advise_samples=0):
    """A list of measurements (dicts), echoing a table as it goes if asked."""
    allw = workers or runner.default_workers()
    worker_counts = sorted({1, allw})
    rows = []
    if echo:
        echo(f"machine: {machine()}")
        echo(f"{'players':>7} {'deck':>4} {'policy':>9} {'workers':>7} {'hands/s':>12}")
    # warm every kernel in this process first, so forked workers inherit them
    for p in players:
        for pol in policies:
            runner.play_chunk(runner.RunSpec(rules=Rules(players=p, deck=25), policies=declared_seats(pol, p), count=100,
                                       chunk_size=100), 0)
    pools = {allw: runner.worker_pool(allw)} if allw > 1 else {}
    try:
        for p in players:
            for d in decks:
                rules = Rules(players=p, deck=d)
                for pol in policies:
                    for w, (hps, total) in measure(rules, pol, hands, worker_counts, pools, repeat).items():
                        rows.append({"players": p, "deck": d, "policy": pol, "workers": w,
                                     "hands": total, "repeat": repeat,
                                     "hands_per_second": round(hps)})
                        if echo:
                            echo(f"{p:>7} {d:>4} {pol:>9} {w:>7} {hps:>12,.0f}")
    finally:
        for pool in pools.values():
            pool.shutdown()
    if dd_deals:
        us = measure_dd(dd_deals, repeat)
        rows.append({"measure": "dd_solve", "players": 4, "deck": 24, "policy": "baseline", "workers": 1,
                     "deals": dd_deals,
                     "repeat": repeat, "dd_solve_mean_us": round(us, 2)})
        if echo:
            echo(f"double-dummy solve, 4 players, 24 cards, baseline's trump: {us:.1f} µs a deal "
                 f"(mean of {dd_deals:,}, one core)")
    if pimc_decisions:
        rate = measure_pimc(pimc_decisions, 50, repeat)
        rows.append({"measure": "pimc_play", "players": 4, "deck": 24, "policy": "pimc", "workers": 1,
                     "worlds": 50, "decisions": pimc_decisions, "repeat": repeat,
                     "pimc_decisions_per_second": round(rate, 1)})
        if echo:
            echo(f"pimc play decisions, 4 players, 24 cards, 50 worlds: {rate:,.0f} a second "
                 f"({pimc_decisions:,} decisions with a choice, one core)")
    if pimc_decisions:
        rows += best_rows(max(4, pimc_decisions // 100), repeat, echo)
    if advise_samples:
        for m in measure_advise(advise_samples, repeat):
            name = m["measure"]
            rows.append({"measure": name, "players": 4, "deck": 24, "policy": m["policy"], "workers": m["workers"],
                         "samples": m["samples"],
                         "repeat": repeat, "seconds": round(m["seconds"], 3)})
            if echo:
                echo(f"{name}: {m['seconds']:.2f} s for {m['samples']:,} deals ({m['workers']} worker"
                     f"{'s' if m['workers'] > 1 else ''})")
    extra = {"machine": machine()}
    if compile_times:
        cold, warm = measure_compile()
        extra.update(compile_cold_seconds=round(cold, 2), compile_cached_seconds=round(warm, 2))
        if echo:
            echo(f"compile: cold {cold:.1f} s, from cache {warm:.1f} s")
    for r in rows:        # every object carries the machine and compile figures
        r.update(extra)
    return rows
