"""Every pair of several policies dueled, and one rating each (Bradley-Terry).

A duel says how A does against B; with three or more policies the pairs'
results need not line up (A beats B by a lot, B beats C by a little...),
and a rating per policy is the summary a reader wants.  Bradley-Terry
models P(i beats j) = 1 / (1 + exp(r_j - r_i)); it is fitted by maximum
likelihood on the pairs' game results, every game once.

Each pair plays its own deal sequences of the one seed (pair p, in the
order of :func:`pairs`, plays sequences p*D .. p*D + D - 1), so the pairs'
results are independent, as the intervals assume.
"""
from __future__ import annotations

import math

import os

import numpy as np

from euchresim.stats import Z95, normal_interval
from euchresim.studies.duel import DuelSpec, duel

ELO = 400 / math.log(10)        # one rating unit in Elo points: a 400-point gap is 10:1 odds
VIRTUAL_TIE = 1.0               # games per pair added as half a win each way: keeps a sweep's rating finite


def pairs(n: int) -> list[tuple[int, int]]:
    """Every unordered pair (i < j), in reading order."""
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def bradley_terry(n: int, results, virtual_tie: float = VIRTUAL_TIE, tol: float = 1e-12, max_iter: int = 100):
    """Ratings (mean 0, natural-log units) and their covariance from (i, j, wins of i, games) rows.

    Newton's method on the log-likelihood sum w log p_ij + (g - w) log p_ji,
    p_ij = 1 / (1 + exp(r_j - r_i)); it is concave, and the Newton step
    with the Moore-Penrose inverse of the information (a Laplacian, singular
    along the all-ones direction) keeps the ratings at mean 0.  The
    covariance is that inverse at the optimum: the observed information,
    which for a binomial model is also the expected one.  Each pair gets
    ``virtual_tie`` extra games split evenly, so a policy that wins every
    game still has a finite rating (a pull toward 0 worth one game).
    Wins may be fractional (a shared Cutthroat win is half a win).
    """
    r = np.zeros(n)
    rows = [(i, j, w + virtual_tie / 2, g + virtual_tie) for i, j, w, g in results]
    for _ in range(max_iter):
        grad = np.zeros(n)
        info = np.zeros((n, n))
        for i, j, w, g in rows:
            p = 1 / (1 + math.exp(r[j] - r[i]))
            grad[i] += w - g * p
            grad[j] -= w - g * p
            v = g * p * (1 - p)
            info[i, i] += v
            info[j, j] += v
            info[i, j] -= v
            info[j, i] -= v
        cov = np.linalg.pinv(info)
        step = cov @ grad
        r += step
        r -= r.mean()
        if np.abs(step).max() < tol:
            break
    return r, cov


def ladder(rules, policies: list[str], seed: int, deals: int, chunk_size: int = 1, workers: int = 1,
           on_progress=None, folder: str | None = None, resume: bool = False, force: bool = False,
           backend: str = "local", address: str | None = None, openspiel: bool = False) -> dict:
    """Duel every pair, then rate them.  ``policies``: each a ``policies.Seats`` read where its name entered,
    or one of OpenSpiel's bots by name, as ``DuelSpec`` takes them; each once.

    ``on_progress(games done, games in all)`` counts over every duel.  One
    worker pool serves all the duels (one start-up).  With a ``folder``,
    each pair's duel keeps its chunks in ``folder/pair-N`` (run/jobs.py), so
    a stopped ladder resumes where it stopped.  ``openspiel`` plays every pair in OpenSpiel's euchre
    (one hand a game), as a ladder with one of OpenSpiel's bots must, so all its pairs count alike.
    """
    from euchresim.policies import Seats
    from euchresim.run.runner import worker_pool
    specs = [DuelSpec(rules, policies[i], policies[j], seed=seed, deals=deals, chunk_size=chunk_size,
                      first_deal=p * deals, openspiel=openspiel) for p, (i, j) in enumerate(pairs(len(policies)))]
    total = sum(s.games for s in specs)
    pool = worker_pool(workers) if workers > 1 and backend == "local" else None
    if folder:
        os.makedirs(folder, exist_ok=True)
    duels, before = [], 0
    try:
        for s in specs:
            prog = (lambda d, _t, b=before: on_progress(b + d, total)) if on_progress else None
            sub = os.path.join(folder, f"pair-{len(duels)}") if folder else None
            duels.append(duel(s, workers, pool if backend == "local" else None, prog, folder=sub,
                              resume=resume and os.path.isdir(sub or ""), force=force, backend=backend,
                              address=address))
            before += s.games
    finally:
        if pool is not None:
            pool.shutdown()
    return rate([p.names[0] if isinstance(p, Seats) else p for p in policies], duels)


def rate(policies: list[str], duels: list[dict]) -> dict:
    """The rating table and the win-rate matrix from the pairs' duels (in :func:`pairs` order)."""
    n = len(policies)
    results = [(i, j, d["a_wins"], d["games"]) for (i, j), d in zip(pairs(n), duels)]
    r, cov = bradley_terry(n, results)
    se = np.sqrt(np.clip(np.diag(cov), 0, None))
    matrix = [[None] * n for _ in range(n)]
    games = [0] * n
    for (i, j), d in zip(pairs(n), duels):
        matrix[i][j] = d["a_win_rate"]
        matrix[j][i] = 1 - d["a_win_rate"]
        games[i] += d["games"]
        games[j] += d["games"]
    table = [{"policy": policies[i], "elo": ELO * r[i], "elo_se": ELO * se[i],
              "elo_ci": [ELO * x for x in normal_interval(r[i], se[i], Z95)], "games": games[i]}
             for i in range(n)]
    table.sort(key=lambda row: -row["elo"])
    for k, row in enumerate(table):
        row["rank"] = k + 1
    return {"policies": list(policies), "ratings": table, "win_rate": matrix,
            "games": sum(d["games"] for d in duels), "duels": duels}
