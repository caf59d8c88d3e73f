"""Win probability by score: a dynamic program over measured hand outcomes (pandas).

A game (R12) is a chain of hands.  If what one hand scores does not depend
on the score (true here: no policy in euchresim looks at the score), the
game is a Markov chain whose state is (the scores, the dealer), and
P(win | state) follows exactly from the per-hand outcome distribution that
a run of hands measures, by working back from the target.  That turns a
few hundred thousand simulated hands into a whole table of P(win) by
score, which no simulation of whole games could fill for the rare scores,
and lets a decision be rated by what it does to P(win) rather than to
points ("at 8-9, order or pass?").

Parties: with 4 players the two sides (party 0 = seats 0 and 2, party 1 =
seats 1 and 3, who show one score, C6); with 2 and 3 players each seat.
A shared Cutthroat win (C8) counts as a win for each winner, so with 3
players the parties' P(win) can add up to more than 1.

The method and its assumptions are in docs/win-probability.md.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from euchresim.rules import CUTTHROAT_TIE_CHOICES
from euchresim.stats import Z95, normal_interval

TIES = CUTTHROAT_TIE_CHOICES        # R12's Cutthroat tie rules, by their option names


def parties(players: int) -> int:
    """How many scores a game keeps: two sides with 4 players, else one a seat."""
    if players not in (2, 3, 4):
        raise ValueError(f"players must be 2, 3 or 4, not {players}")
    return 2 if players == 4 else players


def outcome_distribution(hands, players: int, pool_seats: bool = False) -> pd.DataFrame:
    """The joint distribution of what one hand scores, for each dealer seat.

    ``hands`` are hand rows (a numpy record array from ``runner.play_chunk`` or
    a DataFrame with ``dealer``, ``points0..``, ``maker``, ``redeal``).  One
    row per distinct outcome and dealer: ``dealer``, ``pts0..`` (points a
    party scored), ``maker`` (the maker's party, -1 if none: the Cutthroat
    tie rule C8 needs it), ``redeal`` (a joker redeal keeps the dealer,
    R7/C10), ``count`` and ``prob`` (within the dealer).

    ``pool_seats`` pools the rows of every dealer by seat relative to the
    dealer and deals them back out to each dealer seat: right when every
    seat plays the same policy (the table is then the same up to a
    rotation), and it uses every hand for every dealer.  Leave it off when
    the seats play different policies.
    """
    df = pd.DataFrame(hands) if not isinstance(hands, pd.DataFrame) else hands
    k = parties(players)
    if players == 4 and not ((df["points0"] == df["points2"]).all() and (df["points1"] == df["points3"]).all()):
        raise ValueError("4-player rows must show a side's points at both partners (C6)")
    dealer = df["dealer"].to_numpy(np.int64)
    pts = np.stack([df[f"points{p}"].to_numpy(np.int64) for p in range(k)], axis=1)
    maker = df["maker"].to_numpy(np.int64)
    maker = np.where(maker >= 0, maker % 2 if players == 4 else maker, -1)
    redeal = df["redeal"].to_numpy(bool) if "redeal" in df else np.zeros(len(df), bool)
    if pool_seats:
        # relative party r of a dealer d is party (d + r) mod k (for 4 players the dealer's side is d mod 2)
        rel = (np.arange(k)[None, :] + dealer[:, None]) % k
        rpts = np.take_along_axis(pts, rel, axis=1)
        rmaker = np.where(maker >= 0, (maker - dealer) % k, -1)
        parts = []
        for d in range(players):
            back = (np.arange(k)[None, :] - d) % k
            parts.append(pd.DataFrame({"dealer": d, **{f"pts{p}": rpts[:, back[0, p]] for p in range(k)},
                                       "maker": np.where(rmaker >= 0, (rmaker + d) % k, -1), "redeal": redeal}))
        frame = pd.concat(parts, ignore_index=True)
    else:
        frame = pd.DataFrame({"dealer": dealer, **{f"pts{p}": pts[:, p] for p in range(k)},
                              "maker": maker, "redeal": redeal})
    keys = ["dealer", *[f"pts{p}" for p in range(k)], "maker", "redeal"]
    out = frame.groupby(keys, sort=True).size().rename("count").reset_index()
    out["prob"] = out["count"] / out.groupby("dealer")["count"].transform("sum")
    return out


def party_winners(after: np.ndarray, maker: int, players: int, target: int, tie: str) -> np.ndarray:
    """R12/C8 as engine.game.game_winners plays it: a 0/1 vector over the parties, all 0 if the game goes on."""
    reached = after >= target
    if not reached.any() or players == 4 or reached.sum() == 1:
        return reached.astype(float)
    if tie == "maker" and maker >= 0 and reached[maker]:
        w = np.zeros(len(after))
        w[maker] = 1.0
        return w
    if tie == "shared":
        return reached.astype(float)
    top = after[reached].max()
    return (reached & (after == top)).astype(float)


def _transitions(dist: pd.DataFrame, players: int):
    """Per dealer seat: a list of (prob, points vector, maker party, next dealer)."""
    k = parties(players)
    by = {d: [] for d in range(players)}
    for row in dist.itertuples(index=False):
        d = int(row.dealer)
        pts = np.array([getattr(row, f"pts{p}") for p in range(k)], np.int64)
        nxt = d if bool(row.redeal) else (d + 1) % players
        by[d].append((float(row.prob), pts, int(row.maker), nxt))
    return by


def _check_dist(dist: pd.DataFrame, players: int):
    seen = set(dist["dealer"].unique())
    if seen != set(range(players)):
        raise ValueError(f"the outcome distribution needs every dealer seat 0..{players - 1}, has {sorted(seen)}")
    tot = dist.groupby("dealer")["prob"].sum()
    if not np.allclose(tot.to_numpy(), 1.0):
        raise ValueError("the outcome probabilities of each dealer must add up to 1")


def solve(dist: pd.DataFrame, players: int, target: int, tie: str = "maker") -> np.ndarray:
    """P(win) as an array ``V[s_0, .., s_{k-1}, dealer, party]`` over scores 0..target-1.

    States are solved from the highest total score down: every hand that
    scores moves to a higher total, so its value is known; hands that score
    nothing (thrown in) only move the deal, which ties the dealers of one
    score together into a small linear system, solved exactly.
    """
    if tie not in TIES:
        raise ValueError(f"tie must be one of {TIES}, not {tie!r}")
    if target < 1:
        raise ValueError("the target must be at least 1")
    _check_dist(dist, players)
    k = parties(players)
    trans = _transitions(dist, players)
    V = np.zeros((target,) * k + (players, k))
    states = sorted(itertools.product(range(target), repeat=k), key=sum, reverse=True)
    for s in states:
        sv = np.array(s, np.int64)
        A = np.eye(players)
        b = np.zeros((players, k))
        for d in range(players):
            for p, pts, maker, nxt in trans[d]:
                if not pts.any():
                    A[d, nxt] -= p
                    continue
                after = sv + pts
                w = party_winners(after, maker, players, target, tie)
                if w.any():
                    b[d] += p * w
                else:
                    b[d] += p * V[tuple(after) + (nxt,)]
        try:
            V[s] = np.linalg.solve(A, b)
        except np.linalg.LinAlgError:
            raise ValueError("no hand ever scores from some score: the game would never end") from None
    return V


def win_probability(dist: pd.DataFrame, players: int, target: int, tie: str = "maker") -> pd.DataFrame:
    """P(win) of each party from every score below the target and every dealer.

    Columns ``score0..`` (each party's score), ``dealer`` (a seat), then
    ``win0..`` (P(party wins the game)).  With 4 players a side's P(win) at
    (our score, their score) is the row with our side's score in its column.
    """
    V = solve(dist, players, target, tie)
    k = parties(players)
    idx = list(itertools.product(*(range(target),) * k, range(players)))
    arr = np.array(idx, np.int64)
    out = pd.DataFrame({**{f"score{p}": arr[:, p] for p in range(k)}, "dealer": arr[:, k]})
    vals = V.reshape(-1, k)
    for p in range(k):
        out[f"win{p}"] = vals[:, p]
    return out


def resampled_se(dist: pd.DataFrame, players: int, target: int, tie: str = "maker", reps: int = 20,
                 seed: int = 0) -> np.ndarray:
    """Standard error of ``solve``'s P(win) from the sampling error of ``dist``.

    The distribution is measured, not known: redraw each dealer's counts
    from the multinomial it estimates (a parametric bootstrap) and solve
    again.  Same shape as ``solve``'s array.  Pooled tables (``pool_seats``)
    repeat one sample for every dealer, so each dealer's counts are redrawn
    alike there, as they were measured.
    """
    rng = np.random.default_rng(seed)
    pooled = dist.groupby("dealer")["count"].sum().nunique() == 1 and _rotations_match(dist, players)
    draws = []
    for _ in range(reps):
        d = dist.copy()
        if pooled:
            first = d["dealer"] == 0
            c0 = d.loc[first, "count"].to_numpy()
            new = rng.multinomial(c0.sum(), c0 / c0.sum())
            lookup = dict(zip(_rel_keys(d.loc[first], players), new))
            d["count"] = [lookup[key] for key in _rel_keys(d, players)]
        else:
            d["count"] = d.groupby("dealer")["count"].transform(
                lambda c: rng.multinomial(c.sum(), c / c.sum()))
        d["prob"] = d["count"] / d.groupby("dealer")["count"].transform("sum")
        draws.append(solve(d[d["count"] > 0], players, target, tie))
    return np.std(draws, axis=0, ddof=1)


def _rel_keys(d: pd.DataFrame, players: int):
    """Each outcome seen from its dealer: the points and maker of party (dealer + r)."""
    k = parties(players)
    dl = d["dealer"].to_numpy()
    pts = np.stack([d[f"pts{p}"].to_numpy() for p in range(k)], axis=1)
    rel = (np.arange(k)[None, :] + dl[:, None]) % k
    rp = np.take_along_axis(pts, rel, axis=1)
    mk = d["maker"].to_numpy()
    rm = np.where(mk >= 0, (mk - dl) % k, -1)
    return [(tuple(a), int(b), bool(c)) for a, b, c in zip(rp, rm, d["redeal"].to_numpy())]


def _rotations_match(dist: pd.DataFrame, players: int) -> bool:
    """Every dealer's table is the same up to the rotation (as ``pool_seats`` makes it)."""
    seen = None
    for dl in range(players):
        part = dist[dist["dealer"] == dl]
        key = sorted(zip(_rel_keys(part, players), part["count"]))
        if seen is not None and key != seen:
            return False
        seen = key
    return True


def p_win(table: pd.DataFrame, scores, dealer: int, party: int) -> float:
    """One value of a ``win_probability`` table."""
    k = sum(1 for c in table.columns if c.startswith("score"))
    m = (table["dealer"] == dealer)
    for p in range(k):
        m &= table[f"score{p}"] == scores[p]
    hit = table.loc[m, f"win{party}"]
    if len(hit) != 1:
        raise KeyError(f"no state scores={tuple(scores)} dealer={dealer}")
    return float(hit.iloc[0])


def after_one_hand(V: np.ndarray, option: pd.DataFrame, players: int, target: int, tie: str = "maker"):
    """P(win) of each party once one hand with outcome distribution ``option`` is played.

    ``option`` is a distribution as ``outcome_distribution`` gives (one
    hand, the one being decided), for some or all dealers.  Returns an
    array ``[s_0, .., dealer, party]`` (NaN for a dealer it has no rows for):
    the expected P(win) after that hand, with the game going on from
    ``V`` (``solve``) afterwards.
    """
    k = parties(players)
    out = np.full(V.shape, np.nan)
    trans = _transitions(option, players)
    for d in range(players):
        rows = trans[d]
        if not rows:
            continue
        total = sum(p for p, *_ in rows)
        for s in itertools.product(range(target), repeat=k):
            sv = np.array(s, np.int64)
            acc = np.zeros(k)
            for p, pts, maker, nxt in rows:
                after = sv + pts
                w = party_winners(after, maker, players, target, tie)
                acc += p * (w if w.any() else V[tuple(after) + (nxt,)])
            out[s + (d,)] = acc / total
    return out


def decision_delta(dist: pd.DataFrame, option_a: pd.DataFrame, option_b: pd.DataFrame, players: int,
                   target: int, party: int, tie: str = "maker") -> pd.DataFrame:
    """The change in P(win) of choosing A over B for one hand, at every score.

    ``dist`` is the ordinary per-hand distribution (the rest of the game);
    ``option_a`` and ``option_b`` are the outcome distributions of this one
    hand if ``party`` takes option A or B (e.g. hands where the dealer's
    left held such a hand and ordered up, against the same hands passed).
    Columns ``score0..``, ``dealer``, ``win_a``, ``win_b``, ``delta`` (A - B)
    for ``party``, one row per score and dealer both options have rows for.
    A points-only view can rate an option well that loses games: at 9-8
    a euchre ends the game, a made hand only wins it if it scores.
    """
    V = solve(dist, players, target, tie)
    a = after_one_hand(V, option_a, players, target, tie)[..., party]
    b = after_one_hand(V, option_b, players, target, tie)[..., party]
    k = parties(players)
    idx = np.array(list(itertools.product(*(range(target),) * k, range(players))), np.int64)
    out = pd.DataFrame({**{f"score{p}": idx[:, p] for p in range(k)}, "dealer": idx[:, k],
                        "win_a": a.reshape(-1), "win_b": b.reshape(-1)})
    out["delta"] = out["win_a"] - out["win_b"]
    return out.dropna().reset_index(drop=True)


def visited_states(games, players: int) -> pd.DataFrame:
    """Each (scores, dealer) that simulated games stood at before some hand, and who won them.

    ``games`` is a ``runner.play_chunk`` result of a ``--games`` run (its
    ``.hands`` and ``.games``).  A game counts once per state, at its first
    visit (it can come back only through thrown-in hands); by the Markov
    property its outcome from there is a draw from P(win | state), which
    is what checks the DP away from 0-0.  Columns ``score0..``, ``dealer``,
    ``games``, ``wins0..``.
    """
    k = parties(players)
    keys = ["chunk", "rubber", "game"]
    cols = [f"score{p}" for p in range(k)]
    h = pd.DataFrame(games.hands)[keys + cols + ["dealer"]].merge(
        pd.DataFrame(games.games)[keys + ["winners"]], on=keys, validate="many_to_one")
    h = h.drop_duplicates(keys + cols + ["dealer"])
    won = h["winners"].to_numpy(np.int64)
    for p in range(k):
        h[f"wins{p}"] = (won >> p) & 1
    out = h.groupby(cols + ["dealer"]).agg(games=("winners", "size"), **{f"wins{p}": (f"wins{p}", "sum")
                                                                         for p in range(k)})
    return out.reset_index()


def paired_se(diff: np.ndarray) -> np.ndarray:
    """The standard error of the mean over deals (axis 0) of per-deal paired differences, at every state."""
    return diff.std(axis=0, ddof=1) / np.sqrt(len(diff))



def first_dealer_at_zero(V: np.ndarray, se: np.ndarray, players: int) -> tuple[float, float]:
    """P(win) at 0-0 of the party that deals first, averaged over the seat that deals, with its error.

    Games start with a dealer drawn at random, so a game's first dealer wins
    with the mean of the program's values at 0-0 over the dealing seats; the
    error is the root mean square of those states' resampled errors.
    """
    k = parties(players)
    zero = (0,) * k
    p = float(np.mean([V[zero + (d, d % k)] for d in range(players)]))
    return p, float(np.sqrt(np.mean([se[zero + (d, d % k)] ** 2 for d in range(players)])))


def against_games(chk: pd.DataFrame) -> pd.DataFrame:
    """The program's P(win) beside whole games' share of wins, at each checked state.

    ``chk`` has ``games``, ``wins``, ``p_dp`` and its resampled ``dp_se``.
    The games' share gets a normal interval; ``z`` is the difference over
    both errors (the games and the program's distribution are independent
    runs), and the two agree where it is within the 95% bound.
    """
    chk = chk.copy()
    chk["p_games"] = chk["wins"] / chk["games"]
    gse = np.sqrt(chk["p_games"] * (1 - chk["p_games"]) / chk["games"])
    chk["games_low"], chk["games_high"] = normal_interval(chk["p_games"], gse)
    chk["z"] = (chk["p_games"] - chk["p_dp"]) / np.sqrt(gse ** 2 + chk["dp_se"] ** 2)
    chk["agree"] = chk["z"].abs() <= Z95
    return chk
