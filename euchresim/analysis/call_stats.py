"""The statistics of a call: hand classes, point counts fitted and judged, tables of paired gains (pandas).

The input is one row a deal of paired counterfactuals (report.paired_chunks
collects them): a deal's *gain* of an option is the net points of the hand
with the option forced less the same with the alternative forced.  Every
interval is euchresim.stats': Wilson for the share of deals where an option
is right, a normal interval for a mean gain.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from euchresim.cards import JOKER, RANKS, card_index
from euchresim.stats import Z95, mean_interval, wilson

JACK, ACE, KING, QUEEN, TEN = 4, 7, 6, 5, 3
# euchrestrategy.info "Euchre Point System": trump cards and the up-card's value (7 and 8 count as the nine)
PUBLISHED_TRUMP = {"right": 4, "left": 3, "ace": 3, "king": 2, "queen": 2, "ten": 1, "low": 1}
PUBLISHED_URL = "http://www.euchrestrategy.info/basic-strategy-of-euchre/euchre-point-system/"
PUBLISHED_CALL = 7
PUBLISHED_ALONE = 10
# the card classes a fitted count gives points to (columns of hand_features)
COUNT_CLASSES = ("right", "left", "trump_ace", "trump_kq", "trump_low", "off_aces", "voids", "up_signed")



# ---- hand classes -------------------------------------------------------------

def card_matrix(boards) -> np.ndarray:
    """bool[n, 33]: which cards each board holds."""
    b = np.asarray(boards, dtype=np.int64)
    return ((b[:, None] >> np.arange(33, dtype=np.int64)[None, :]) & 1).astype(bool)


def rank_name(card: int, deck: int) -> str:
    return "joker" if card == JOKER else {"J": "jack", "A": "ace", "K": "king", "Q": "queen", "T": "ten",
                                          "9": "nine", "8": "eight", "7": "seven"}[RANKS[card & 7]]


def hand_features(hands, trump, upcard, pos, players: int, tab) -> pd.DataFrame:
    """The deciding seat's hand (boards as dealt) under ``trump``: the classes the tables and counts use.

    trumps (left bower and joker included), right, left, joker, trump_ace,
    trump_kq (king and queen of trump), trump_low (ten and below), off_aces
    (aces of the other suits), voids (other suits with no card), two_suited
    (cards in two suits or fewer), up_rank (the upcard's rank), up_side
    (1: the upcard goes to the seat's side, dealer or the dealer's partner;
    -1: to the other side) and up_signed (up_side where the upcard is of
    the trump suit, else 0).
    """
    from euchresim.engine.layout import T_EFF
    hands = np.asarray(hands, dtype=np.int64)
    trump = np.asarray(trump, dtype=np.int64)
    upcard = np.asarray(upcard, dtype=np.int64)
    pos = np.asarray(pos, dtype=np.int64)
    n = len(hands)
    m = card_matrix(hands)
    eff = np.zeros((n, 4), np.int64)                             # cards in each effective suit
    for t in range(4):
        sel = trump == t
        if sel.any():
            for s in range(4):
                eff[sel, s] = card_matrix(hands[sel] & np.int64(tab[T_EFF + 4 * t + s])).sum(axis=1)
    rows = np.arange(n)
    right = m[rows, 8 * trump + JACK]
    left = m[rows, 8 * (3 - trump) + JACK]
    joker = m[:, JOKER]
    t_ace, t_king, t_queen = (m[rows, 8 * trump + r] for r in (ACE, KING, QUEEN))
    n_trump = eff[rows, trump]
    t_low = n_trump - right - left - joker - t_ace - t_king - t_queen
    off_aces = sum(m[:, card_index(s, ACE)] & (trump != s) for s in range(4))
    other = np.ones((n, 4), bool)
    other[rows, trump] = False
    voids = ((eff == 0) & other).sum(axis=1)
    side = (pos == 0) | ((pos == 2) & (players == 4))
    up_side = np.where(side, 1, -1)
    up_trump = np.where(upcard == JOKER, True, (upcard >> 3) == trump)
    return pd.DataFrame({
        "trumps": n_trump, "right": right.astype(int), "left": left.astype(int), "joker": joker.astype(int),
        "trump_ace": t_ace.astype(int), "trump_kq": (t_king.astype(int) + t_queen), "trump_low": t_low,
        "off_aces": off_aces.astype(int), "voids": voids, "two_suited": ((eff > 0).sum(axis=1) <= 2).astype(int),
        "up_rank": [rank_name(int(c), 0) for c in upcard], "up_side": up_side,
        "up_signed": np.where(up_trump, up_side, 0)})


def played_hand(hands, upcard, pos, made_in_round_one) -> np.ndarray:
    """The hand each seat would play, the one convention of every report's hand classes: the hand as dealt,
    and the dealer's (``pos`` 0) with the upcard taken up when trump is the upcard's suit (round one, R5).

    "As dealt", the dealer's four trumps with both bowers would be five once it
    picks up, a sure march; and a dealer with the jack turned up holds the
    right bower, which an as-dealt count leaves out.  The dealer's six cards
    before its discard are counted (its discard is its own choice, made after
    the call); a joker upcard, whose suit the dealer names (R7), is not added.
    """
    hands = np.asarray(hands, dtype=np.int64)
    upcard = np.asarray(upcard, dtype=np.int64)
    take = (np.asarray(pos) == 0) & np.asarray(made_in_round_one, bool) & (upcard != JOKER)
    return np.where(take, hands | (np.int64(1) << np.where(take, upcard, 0)), hands)


def played_features(hands, trump, upcard, pos, made_in_round_one, players: int, tab) -> pd.DataFrame:
    """``hand_features`` of the hand the seat plays (``played_hand``): the dealer's upcard counted once, as
    one of its cards, so its ``up_signed`` (the upcard's worth to the side, for a seat that does not hold
    it) is 0 there; every other seat's features are as dealt."""
    took = (np.asarray(pos) == 0) & np.asarray(made_in_round_one, bool) & (np.asarray(upcard) != JOKER)
    f = hand_features(played_hand(hands, upcard, pos, made_in_round_one), trump, upcard, pos, players, tab)
    f["up_signed"] = np.where(took, 0, f["up_signed"])
    return f


HAND_CLASS_NOTE = ("hand classes are of the hand the seat plays: the dealer's with the upcard it takes up in "
                   "round one")


def hand_class(f: pd.DataFrame) -> pd.Series:
    """One label a hand: trumps (0-1, 2, 3, 4+) and bowers (none, left, right, both), e.g. "3T R"."""
    t = np.minimum(np.maximum(f["trumps"].to_numpy(), 1), 4)
    tl = np.where(t == 1, "0-1", np.where(t == 4, "4+", t.astype(str)))
    bw = np.select([(f["right"] == 1) & (f["left"] == 1), f["right"] == 1, f["left"] == 1], ["RL", "R", "L"], "-")
    return pd.Series([f"{a}T {b}" for a, b in zip(tl, bw)], index=f.index)


def class_order() -> list[str]:
    return [f"{t}T {b}" for t in ("0-1", "2", "3", "4+") for b in ("-", "L", "R", "RL")]


def best_suit(hands, legal_suits, tab) -> np.ndarray:
    """Per hand, the legal suit whose trump cards score most on the published scale (ties: lowest suit)."""
    hands = np.asarray(hands, dtype=np.int64)
    best = np.full(len(hands), -1)
    top = np.full(len(hands), -1.0)
    for s in range(4):
        f = hand_features(hands, np.full(len(hands), s), np.full(len(hands), JOKER), np.ones(len(hands)), 4, tab)
        score = published_trump_points(f) + 0.01 * f["trumps"].to_numpy()
        ok = legal_suits[:, s] & (score > top)
        best = np.where(ok, s, best)
        top = np.where(ok, score, top)
    return best


# ---- point counts -------------------------------------------------------------

def published_trump_points(f: pd.DataFrame) -> np.ndarray:
    p = PUBLISHED_TRUMP
    return (p["right"] * f["right"] + p["left"] * f["left"] + p["right"] * f["joker"] + p["ace"] * f["trump_ace"]
            + 2 * f["trump_kq"] + p["low"] * f["trump_low"]).to_numpy(dtype=float)


def published_points(f: pd.DataFrame, with_upcard: bool = True) -> np.ndarray:
    """euchrestrategy.info's count: trumps, the up-card (+ to one's side, - to the other), 2 an off ace, 1 two-suited."""
    up = {"jack": 4, "joker": 4, "ace": 3, "king": 2, "queen": 2}
    upv = np.array([up.get(r, 1) for r in f["up_rank"]], float) * f["up_signed"].to_numpy() if with_upcard else 0.0
    return published_trump_points(f) + upv + 2 * f["off_aces"].to_numpy() + f["two_suited"].to_numpy()


def fit_count(df: pd.DataFrame, gain: str = "gain", group: str = "pos", classes=COUNT_CLASSES) -> dict:
    """A table-side count fitted to paired gains: points per card class, a threshold per group.

    Least squares of the gain on the class counts (one intercept per
    group); the weights scaled so the right bower is 4 points (as in the
    published count) and rounded to whole points.  Each group's threshold is the whole-point total from which
    calling maximises the mean net points of the fitting deals.
    """
    classes = [c for c in classes if df[c].std() > 0] or list(classes[:1])
    groups = sorted(df[group].unique())
    X = np.column_stack([df[c].to_numpy(float) for c in classes]
                        + [(df[group] == g).to_numpy(float) for g in groups])
    w, *_ = np.linalg.lstsq(X, df[gain].to_numpy(float), rcond=None)
    wc = dict(zip(classes, w[:len(classes)]))
    unit = wc.get("right", 0) / 4 if wc.get("right", 0) > 0 else (max(abs(v) for v in wc.values()) / 4 or 1.0)
    points = {c: int(round(v / unit)) for c, v in wc.items()}
    score = count_points(df, points)
    thresholds = {}
    for g in groups:
        sel = (df[group] == g).to_numpy()
        s, d = score[sel], df[gain].to_numpy(float)[sel]
        cands = np.arange(int(s.min()) if sel.any() else 0, (int(s.max()) if sel.any() else 0) + 2)
        totals = [d[s >= t].sum() for t in cands]
        thresholds[g] = int(cands[int(np.argmax(totals))])
    return {"points": points, "weights": wc, "thresholds": thresholds}


def count_points(df: pd.DataFrame, points: dict) -> np.ndarray:
    return sum(df[c].to_numpy(float) * v for c, v in points.items()) if points else np.zeros(len(df))


def evaluate(gain: np.ndarray, call: np.ndarray) -> dict:
    """A rule's calls against the simulation's best per deal: agreement and points a hand given up (>= 0)."""
    gain = np.asarray(gain, float)
    call = np.asarray(call, bool)
    n = len(gain)
    right = np.where(call, gain >= 0, gain <= 0)
    lost = np.where(call, np.maximum(-gain, 0), np.maximum(gain, 0))
    k = int(right.sum())
    lo, hi = wilson(k, n)
    g = mean_interval(lost)
    return {"deals": n, "calls": int(call.sum()), "agree": k / n if n else math.nan, "agree_low": lo,
            "agree_high": hi, "given_up": g["mean"], "given_up_low": g["low"], "given_up_high": g["high"]}


def recovered(gain, call, own, z: float = Z95) -> dict:
    """The share of a policy's own gain over always passing that a rule keeps, in points given up.

    Per deal, ``lost(rule)`` is the points a rule's choice gives up against
    the better option (``evaluate``); always passing gives up ``lost(pass)``.
    The share is mean(lost(pass) - lost(rule)) / mean(lost(pass) - lost(own)),
    ``own`` the policy's own calls: 1 where the rule does as well as the bot,
    0 where no better than never calling. A ratio of paired means, so its
    interval is the delta method's. Agreement (the share of deals where the
    rule picks the better call) counts a tie as agreement and says little
    about the points at stake; this says how many of them a player keeps.
    """
    gain = np.asarray(gain, float)

    def lost(c):
        c = np.asarray(c, bool)
        return np.where(c, np.maximum(-gain, 0), np.maximum(gain, 0))
    never = lost(np.zeros(len(gain), bool))
    num, den = never - lost(call), never - lost(own)
    n = len(gain)
    if n < 2 or den.mean() <= 0:
        return {"recovered": math.nan, "recovered_low": math.nan, "recovered_high": math.nan}
    r = float(num.mean() / den.mean())
    se = float(np.std(num - r * den, ddof=1) / math.sqrt(n) / den.mean())
    return {"recovered": r, "recovered_low": r - z * se, "recovered_high": r + z * se}


# ---- tables -------------------------------------------------------------------

def gain_table(df: pd.DataFrame, by: list, gain: str = "gain") -> pd.DataFrame:
    """Per group: deals, mean gain with a normal interval, the share where the option is right (gain > 0, Wilson)."""
    rows = []
    for key, g in df.groupby(by, sort=True, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        d = g[gain].to_numpy(float)
        n = len(d)
        ci = mean_interval(d)
        k = int((d > 0).sum())
        lo, hi = wilson(k, n)
        rows.append(dict(zip(by, key), n=n, gain=ci["mean"], ci_low=ci["low"], ci_high=ci["high"], right=k / n,
                         right_low=lo, right_high=hi, ties=float((d == 0).mean()),
                         policy_chose=float(g["took"].mean()) if "took" in g else math.nan))
    return pd.DataFrame(rows)


def model_compare(table: pd.DataFrame, keys: list, models: list, min_n: int = 30) -> pd.DataFrame:
    """One row per cell: each model's gain and interval side by side, and whether the intervals overlap."""
    out = None
    for p in models:
        t = table[table["policy"] == p][keys + ["n", "gain", "ci_low", "ci_high"]]
        t = t.rename(columns={c: f"{c}_{p}" for c in ("n", "gain", "ci_low", "ci_high")})
        out = t if out is None else out.merge(t, on=keys, how="outer")
    verdicts = []
    for _, r in out.iterrows():
        ok = [p for p in models if r.get(f"n_{p}", 0) >= min_n and not math.isnan(r.get(f"ci_low_{p}", math.nan))]
        if len(ok) < 2:
            verdicts.append("too few hands")
            continue
        lo = max(r[f"ci_low_{p}"] for p in ok)
        hi = min(r[f"ci_high_{p}"] for p in ok)
        signs = {np.sign(r[f"gain_{p}"]) for p in ok}
        verdicts.append("agree" if lo <= hi else ("differ (same sign)" if len(signs) == 1 else "differ"))
    out["models"] = verdicts
    return out


def interval_sign(low, high) -> np.ndarray:
    """+1 where a 95% interval lies above 0, -1 below, 0 where it holds 0: the answer the interval gives."""
    low, high = np.asarray(low, float), np.asarray(high, float)
    return np.where(low > 0, 1, np.where(high < 0, -1, 0))


# a call whose gain lies within this many points of 0 either way is a toss-up ("close"); one whose interval holds
# 0 but reaches past it is unmeasured ("too few hands")
TOSS_UP = 0.10
TOO_FEW = "too few hands"


def beyond_zero_p(toward: float, se: float) -> float:
    """One-sided p that a gain ``toward`` points past zero (positive: on the side claimed) lies there by chance, from
    its normal standard error ``se``. A zero-width interval (every deal gave the same gain) is certain: p 0 when
    its gain is on the claimed side, 1 when it is not or is zero; a missing one (NaN) claims nothing (1).
    answer_flips and table_calls both read their tests here, so a cell is flagged the same way by both."""
    if math.isnan(toward) or math.isnan(se):
        return 1.0
    if se <= 0:
        return 0.0 if toward > 0 else 1.0
    return 0.5 * math.erfc(toward / se / math.sqrt(2))


def answer_flips(bot: pd.DataFrame, people: pd.DataFrame, keys: list, min_n: int = 200,
                 alpha: float = 0.05) -> pd.DataFrame:
    """Cells measured under two tables (``bot``: every seat calls as the bot does; ``people``: as people do),
    side by side (``_heuristic``, ``_human``), those with ``min_n``+ deals under both; ``flips`` where the answer
    changes: the two gains on opposite sides of zero, each clear of it, corrected for the number of cells.

    A flip claims two things at once (this gain above zero and that one below), so its p-value is the larger
    of the two one-sided p's (``p_flip``, from each interval's normal standard error); Holm's method over every
    cell compared (``attrs["tests"]``) keeps the chance of any false flip at most ``alpha``: two 95% intervals
    just clear of zero, somewhere among a hundred cells, happen by chance."""
    from euchresim.stats import holm
    cols = ["n", "gain", "ci_low", "ci_high"]
    both = bot[keys + cols].merge(people[keys + cols], on=keys, suffixes=("_heuristic", "_human"))
    both = both[(both["n_heuristic"] >= min_n) & (both["n_human"] >= min_n)].reset_index(drop=True)
    se = {side: (both[f"ci_high_{side}"] - both[f"ci_low_{side}"]) / (2 * Z95) for side in ("heuristic", "human")}
    opposite = np.sign(both["gain_heuristic"]) * np.sign(both["gain_human"]) < 0
    both["p_flip"] = [max(beyond_zero_p(abs(a), sa), beyond_zero_p(abs(b), sb)) if o else 1.0
                      for a, sa, b, sb, o in zip(both["gain_heuristic"], se["heuristic"], both["gain_human"],
                                                 se["human"], opposite)]
    both["flips"] = np.array(holm(both["p_flip"], alpha) if len(both) else [], dtype=bool)   # bool even when empty
    both.attrs["tests"] = len(both)
    return both


def table_calls(by_class: pd.DataFrame, policies: list, rnd: int = 1, min_n: int = 30, alpha: float = 0.05,
                advisers=None) -> pd.DataFrame:
    """The call a player can take to the table: per seat and hand class, the main model's answer and who differs.

    ``call`` is "order" where the main model's (``policies[0]``) interval
    lies above 0, "pass" below, "close" where it lies within ±``TOSS_UP``
    points (a real toss-up: either call is worth the same to a tenth of a
    point), and "too few hands" where it holds 0 but reaches past that (the
    cell is not measured well enough to say) or the cell has under
    ``min_n`` hands: "close" on 51 hands was noise read as a toss-up.  ``differ``
    names the other models (``min_n``+ hands) that give the opposite call,
    by a one-sided test of each such model's gain against the main model's
    sign, corrected for the number of tests (Holm, family-wise error
    ``alpha``): a cell flagged because one of some hundred separate 95%
    tests fell on the other side by chance is no disagreement.  Only
    ``advisers`` (default every other model) can differ: a model that sees
    every card (dd) is a bound, never advice.  ``differ_z`` is the weakest
    flagged z, ``tests`` the number of tests made.
    """
    from euchresim.stats import Z95, holm
    t = by_class[by_class["round"] == rnd]
    words = {1: "order", -1: "pass", 0: "close"}
    main = t[t["policy"] == policies[0]]
    out = main[["position", "hand_class", "n", "gain", "ci_low", "ci_high"]].copy()
    sign = np.where(out["n"] >= min_n, interval_sign(out["ci_low"], out["ci_high"]), 0)
    toss_up = (out["ci_low"] > -TOSS_UP) & (out["ci_high"] < TOSS_UP) & (out["n"] >= min_n)
    out["call"] = [words[int(s)] if s != 0 or close else TOO_FEW for s, close in zip(sign, toss_up)]
    others = [p for p in policies[1:] if advisers is None or p in advisers]
    tests = []                      # (row, model, z toward the opposite call, p-value)
    for p in others:
        o = t[(t["policy"] == p) & (t["n"] >= min_n)].set_index(["position", "hand_class"])
        for k, (key, s) in enumerate(zip(zip(out["position"], out["hand_class"]), sign)):
            if s != 0 and key in o.index:
                r = o.loc[key]
                se = (r["ci_high"] - r["ci_low"]) / (2 * Z95)
                toward = -s * r["gain"]
                z = toward / se if se > 0 else math.copysign(math.inf, toward)
                tests.append((k, str(p), z, beyond_zero_p(toward, se)))
    rejected = holm([x[3] for x in tests], alpha)
    differ = [[] for _ in range(len(out))]
    weakest = [math.nan] * len(out)
    for (k, p, z, _), yes in zip(tests, rejected):
        if yes:
            differ[k].append(p)
            weakest[k] = z if math.isnan(weakest[k]) else min(weakest[k], z)
    out["differ"] = [", ".join(d) for d in differ]
    out["differ_z"] = weakest
    out.attrs["tests"] = len(tests)
    return out.reset_index(drop=True)


def decision_table(calls: pd.DataFrame, order: list) -> pd.DataFrame:
    """A guide's decision table read off a call table (``table_calls``): per seat, the hand classes where the
    answer is to call, to pass, a toss-up, or not measured, each class with its gain and interval, the
    seats in ``order`` (speaking order) and the classes strongest first."""
    rank = {c: -i for i, c in enumerate(class_order())}
    rows = []
    for pos in order:
        mine = calls[calls["position"].astype(str) == pos]
        mine = mine.assign(_r=mine["hand_class"].map(rank)).sort_values("_r")
        for word in ("order", "close", "too few hands", "pass"):
            cells = mine[mine["call"] == word]
            if len(cells):
                rows.append({"position": pos, "call": word, "classes": list(cells["hand_class"]),
                             "cells": [(c, g, lo, hi, n) for c, g, lo, hi, n in
                                       zip(cells["hand_class"], cells["gain"], cells["ci_low"], cells["ci_high"],
                                           cells["n"])]})
    return pd.DataFrame(rows, columns=["position", "call", "classes", "cells"])
