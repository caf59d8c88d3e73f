"""What the search bots (``dd``, ``pimc``) share: a position from a hand's state, rollouts, worlds.

Both bots value an action by the points it gives the deciding seat's side
when the cards are then played double-dummy (``engine/solver.py``):

* a card is valued by the solver directly (every legal card of the seat
  to play, in one call);
* any other decision (a call, a pass, alone or not, defend alone or not,
  the dealer's discard) by a *rollout*: the action is applied to a copy
  of the hand, every later decision before the play is made by
  ``heuristic`` (for every seat: a pass lets the others bid as heuristic
  would), and the play from the opening lead is solved.  A hand that is
  thrown in is worth 0.

``dd`` does this on the true deal (it sees every hand); ``pimc`` on deals
of the unseen cards sampled consistently with what the seat knows
(``sampler.sample_world``), averaging over them.  Points, not tricks, are the
objective, so a march (or a lone march) and a euchre weigh what they
score (R11) rather than one trick each.

Everything lives in the chunk's workspace ``ws`` (``dispatch.new_workspace``),
one int64 row per use: no allocation in the search.
"""
import numpy as np
from numba import njit

from euchresim.engine import solver as S
from euchresim.engine.layout import R_CVAL
from euchresim.engine.bits import U, lowbit, popcount
from euchresim.engine.hand import apply_action, legal_actions
from euchresim.engine.layout import (AWAY, HAND, MAKER_TRICKS, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DONE,
                                     PH_PLAY, PHASE, T_ORDER, TO_ACT, TRUMP)
from euchresim.policies.heuristic import heuristic_decide
from euchresim.policies.position import copy_to_scratch, load_position
from euchresim.policies.postpone import postponed_values
from euchresim.policies.sampler import sample_fitting_world
from euchresim.policies.search_layout import (G_OPTIONS, S_ALONE_BY, S_BID_WORLDS, S_FAIR_BIDS, S_MAX_WORLDS, S_POSTPONE,
                                              S_SEARCH_BIDS, S_WORLDS, V_N, V_PTS, V_SQ, V_SUM, WR_POS, WR_PRIV, WR_RES,
                                              WR_SOLVER, WR_ST, WR_VAL, WR_WORLD)
from euchresim.policies.values import hand_values, thrown_in_value


@njit(cache=True, _nrt=False)
def fair_playout(st, priv, tab, ws, seat, params):
    """``seat``'s value (``points_table``'s units) of the hand played out from the lead by heuristic at every seat.

    Double-dummy play values a call as if every seat saw every card: the
    makers' side and the defenders both play perfectly, which misprices a
    marginal call. A fair playout plays the cards as a player who sees only
    its own would; the sampled worlds average over what the seat cannot see.
    """
    hand_values(st, tab, seat, ws, params)
    while st[PHASE] != PH_DONE:
        s = st[TO_ACT]
        legal = legal_actions(st, priv, tab)
        b = heuristic_decide(st, priv[U(HAND + s)], priv[U(AWAY + s)], s, legal, params, tab)
        if apply_action(st, priv, tab, b):
            return np.int64(0)          # pragma: no cover - heuristic plays legally (tests)
    return ws[WR_VAL][U(V_PTS + st[MAKER_TRICKS])]


@njit(cache=True, _nrt=False)
def rollout(st0, priv0, tab, ws, a, seat, params):
    """``seat``'s points after action ``a`` in (``st0``, ``priv0``): heuristic to the lead, then solved."""
    return rollout_as(st0, priv0, tab, ws, a, seat, params, params[S_FAIR_BIDS] != 0)


@njit(cache=True, _nrt=False)
def rollout_as(st0, priv0, tab, ws, a, seat, params, fair):
    """``rollout``, the play from the lead solved or (``fair``) played out by heuristic (``fair_playout``)."""
    copy_to_scratch(st0, priv0, ws)
    st = ws[WR_ST]
    priv = ws[WR_PRIV]
    apply_action(st, priv, tab, a)     # not inlined: one compiled copy serves every caller
    while st[PHASE] != PH_DONE and st[PHASE] != PH_PLAY:
        s = st[TO_ACT]
        legal = legal_actions(st, priv, tab)
        b = heuristic_decide(st, priv[U(HAND + s)], priv[U(AWAY + s)], s, legal, params, tab)
        if apply_action(st, priv, tab, b):
            return np.int64(0)          # pragma: no cover - heuristic plays legally (tests)
    if st[PHASE] == PH_DONE:
        return thrown_in_value(st, tab, seat, params)
    if fair:
        return fair_playout(st, priv, tab, ws, seat, params)
    pos = ws[WR_POS]
    load_position(st, priv, tab, pos)
    mt = S.solve_position(ws[WR_SOLVER], tab, pos, ws[WR_RES], S.MODE_EXACT)
    hand_values(st, tab, seat, ws, params)
    return ws[WR_VAL][U(V_PTS + mt)]


@njit(cache=True, _nrt=False)
def best_action(legal, ws):
    """The legal action with the best mean in ``ws[WR_VAL]`` (by place in ``legal``); ties to the lowest."""
    val = ws[WR_VAL]
    best = np.int64(-1)
    bn = np.int64(0)
    bs = np.int64(0)
    m = legal
    k = np.int64(0)
    while m != 0:
        a = lowbit(m)
        m &= m - 1
        n = val[U(V_N + k)]
        s = val[U(V_SUM + k)]
        # compare s / n with bs / bn without division: s * bn > bs * n
        if n > 0 and (best < 0 or s * bn > bs * n):
            best, bs, bn = a, s, n
        k += 1
    return best


@njit(cache=True, _nrt=False)
def card_values(st, hands, tab, ws, seat, add_k):
    """Add each card's points for ``seat`` (one solve, every card) to ``ws[WR_VAL][V_SUM + k]``.

    ``k`` is the card's place among the seat's cards, lowest index first
    (the solver's ``R_CARD`` order), the same in every world.
    """
    pos = ws[WR_POS]
    res = ws[WR_RES]
    load_position(st, hands, tab, pos)
    S.solve_position(ws[WR_SOLVER], tab, pos, res, S.MODE_EXACT | S.MODE_CARDS)
    val = ws[WR_VAL]
    for k in range(5):
        v = res[U(R_CVAL + k)]
        if v >= 0:
            val[U(V_SUM + k)] += val[U(V_PTS + v)]
            val[U(V_SQ + k)] += val[U(V_PTS + v)] * val[U(V_PTS + v)]
            val[U(V_N + k)] += add_k
    return 0


@njit(cache=True, _nrt=False)
def value_actions(st, priv, tab, ws, seat, legal, params, fair):
    """Add each legal action's rollout points to ``ws[WR_VAL]`` (by place in ``legal``)."""
    val = ws[WR_VAL]
    m = legal
    k = np.int64(0)
    while m != 0:
        a = lowbit(m)
        m &= m - 1
        r = rollout_as(st, priv, tab, ws, a, seat, params, fair)
        val[U(V_SUM + k)] += r
        val[U(V_SQ + k)] += r * r
        val[U(V_N + k)] += 1
        k += 1


@njit(cache=True, _nrt=False)
def clear_sums(ws):
    val = ws[WR_VAL]
    for k in range(40):
        val[U(V_SUM + k)] = 0
        val[U(V_N + k)] = 0
        val[U(V_SQ + k)] = 0


@njit(cache=True, _nrt=False)
def too_close(ws, options):
    """True while the two best means of ``ws[WR_VAL]`` (by place, ``options`` of them) are within two standard
    errors of their difference (each mean's own, added: a bound on the paired one): more worlds may tell them apart."""
    val = ws[WR_VAL]
    b1 = -1
    b2 = -1
    for k in range(options):
        if val[U(V_N + k)] == 0:
            continue
        m = val[U(V_SUM + k)] / val[U(V_N + k)]
        if b1 < 0 or m > val[U(V_SUM + b1)] / val[U(V_N + b1)]:
            b2 = b1
            b1 = k
        elif b2 < 0 or m > val[U(V_SUM + b2)] / val[U(V_N + b2)]:
            b2 = k
    if b2 < 0:
        return False
    var = 0.0
    for k in (b1, b2):
        n = val[U(V_N + k)]
        if n < 2:
            return True
        m = val[U(V_SUM + k)] / n
        var += max(val[U(V_SQ + k)] / n - m * m, 0.0) / (n - 1)
    gap = val[U(V_SUM + b1)] / val[U(V_N + b1)] - val[U(V_SUM + b2)] / val[U(V_N + b2)]
    return gap * gap < 4.0 * var


@njit(cache=True, _nrt=False)
def pick_card(legal, hand, ws, st, tab):
    """The legal card with the best mean (sums by place in ``hand``); ties to the cheapest card."""
    val = ws[WR_VAL]
    trump = st[TRUMP]
    best = np.int64(-1)
    bs = np.int64(0)
    bn = np.int64(1)
    bo = np.int64(0)
    m = hand
    k = np.int64(0)
    while m != 0:
        c = lowbit(m)
        m &= m - 1
        if (legal >> c) & 1:
            s = val[U(V_SUM + k)]
            n = val[U(V_N + k)]
            o = tab[U(T_ORDER + 33 * trump + c)]
            if n > 0:
                better = best < 0 or s * bn > bs * n or (s * bn == bs * n and o < bo)
                if better:
                    best, bs, bn, bo = c, s, n, o
        k += 1
    return best


@njit(cache=True, _nrt=False)
def search_decide(st, priv, hand, away, seat, legal, params, rng, tab, ws, sees_all):
    """The search bots' decision: ``pimc`` over sampled worlds, ``dd`` (``sees_all``) over the true deal.

    A card is valued by the solver and any other searched decision (a call,
    alone, defend alone, the discard; with ``search_bids``) by rollouts, in
    each world, summed, the best mean taken.  ``dd``'s one world is
    ``priv``; ``pimc`` draws ``worlds`` (``bid_worlds``) worlds that fit
    what the seat has seen and heard, and never reads ``priv``.  The joker's
    suit and the dummy keep are heuristic's.
    """
    ph = st[PHASE]
    play = ph == PH_PLAY
    if not play and not ((ph == PH_BID1 or ph == PH_BID2 or ph == PH_ALONE or ph == PH_DEFEND or ph == PH_DISCARD)
                         and params[S_SEARCH_BIDS] != 0):
        return heuristic_decide(st, hand, away, seat, legal, params, tab)
    if popcount(legal) == 1:
        return lowbit(legal)
    fair = params[S_FAIR_BIDS] != 0
    if (ph == PH_ALONE or ph == PH_DEFEND) and not sees_all:
        if params[S_ALONE_BY] == 1:
            return heuristic_decide(st, hand, away, seat, legal, params, tab)
        fair = fair or params[S_ALONE_BY] == 2
    clear_sums(ws)
    if play:
        hand_values(st, tab, seat, ws, params)
    n = np.int64(1) if sees_all else np.int64(params[S_WORLDS] if play else params[S_BID_WORLDS])
    most = np.int64(params[S_MAX_WORLDS]) if not sees_all else np.int64(0)
    options = popcount(hand) if play else popcount(legal)
    if (params[S_POSTPONE] != 0 and options <= G_OPTIONS and not sees_all and not fair
            and (not play or popcount(hand) > 2)):
        postponed_values(st, hand, away, seat, legal, params, rng, tab, ws, play, n, options)
        return pick_card(legal, hand, ws, st, tab) if play else best_action(legal, ws)
    done = np.int64(0)
    while done == 0 or (done + n <= most and too_close(ws, options)):
        for _ in range(n):
            world = priv
            if not sees_all:
                sample_fitting_world(st, hand, away, seat, tab, params, rng, ws)
                world = ws[WR_WORLD]
            if play:
                card_values(st, world, tab, ws, seat, 1)
            else:
                value_actions(st, world, tab, ws, seat, legal, params, fair)
        done += n
    return pick_card(legal, hand, ws, st, tab) if play else best_action(legal, ws)
