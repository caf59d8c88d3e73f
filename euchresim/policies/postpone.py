"""``postpone``: the seat's next card chosen once per information set (EPIMC, one turn deep).

PIMC values an option by solving each world as if the seat then saw every
card: in one world it will lead the king, in another the ace, whichever
wins there, though at the table it must play one card in every world it
cannot tell apart (strategy fusion).  With ``postpone`` the solver's
values are taken one turn later, at the seat's next card: the cards
played in between are the solver's in each world (the other seats play
as if they saw every card, as in PIMC), and the worlds that show the
seat the same cards by then (the same key) share one choice, the card
whose summed points over them is best.  The option's value is the sum
of those choices' points; a world whose hand ends first, or in which the
seat sits out, is valued on its own as PIMC values it.  Arjonilla,
Saffidine and Cazenave (2024) postpone the solver to a depth d; here d
is the seat's next turn, where its next choice is.  The groups live in
the workspace row ``WR_GROUPS`` (``search_layout``: ``G_*``).
"""
import numpy as np
from numba import njit

from euchresim.engine import solver as S
from euchresim.engine.layout import R_CARD, R_CVAL
from euchresim.engine.bits import U, lowbit
from euchresim.engine.hand import apply_action, legal_actions
from euchresim.engine.layout import (AWAY, CFG_PLAYERS, HAND, MAKER_TRICKS, OUT, PH_DISCARD, PH_DONE, PH_DUMMY, PH_PLAY, PHASE,
                                     TO_ACT)
from euchresim.policies.heuristic import heuristic_decide
from euchresim.policies.position import copy_to_scratch, load_position
from euchresim.policies.sampler import sample_fitting_world
from euchresim.policies.search_layout import (G_COUNT, G_DIRECT, G_FIRST, G_KEY, G_LEGAL, G_MAX, G_REGION, G_SUMS, G_WIDTH,
                                              V_N, V_PTS, V_SUM, WR_GROUPS, WR_POS, WR_PRIV, WR_RES, WR_SOLVER, WR_ST,
                                              WR_VAL, WR_WORLD)
from euchresim.policies.values import hand_values, makers_mask, thrown_in_value

_KEY_MUL = np.int64(-7046029254386353131)      # 0x9E3779B97F4A7C15, a multiplicative hash of what the seat sees


@njit(cache=True, _nrt=False, inline='always')
def _mix(key, what):
    return (key ^ (what + np.int64(1))) * _KEY_MUL


@njit(cache=True, _nrt=False)
def solver_card(st, priv, tab, ws):
    """The card the solver plays for the seat to act: the most tricks for the makers, the fewest for a defender.

    Ties go to the lowest card index, so every world plays the same card
    where the solver does not tell cards apart.
    """
    s = st[TO_ACT]
    res = ws[WR_RES]
    load_position(st, priv, tab, ws[WR_POS])
    S.solve_position(ws[WR_SOLVER], tab, ws[WR_POS], res, S.MODE_EXACT | S.MODE_CARDS)
    makers = (makers_mask(st, tab[CFG_PLAYERS]) >> s) & 1
    best = np.int64(-1)
    bv = np.int64(0)
    for k in range(5):
        v = res[U(R_CVAL + k)]
        if v < 0:
            continue
        if best < 0 or (makers == 1 and v > bv) or (makers == 0 and v < bv):
            best = res[U(R_CARD + k)]
            bv = v
    return best


@njit(cache=True, _nrt=False)
def clear_groups(ws, options):
    g = ws[WR_GROUPS]
    for k in range(options):
        g[U(k * G_REGION + G_COUNT)] = 0
        g[U(k * G_REGION + G_DIRECT)] = 0


@njit(cache=True, _nrt=False)
def postponed_world(st, priv, tab, ws, seat, k, key):
    """Play the solver's cards from (``st``, ``priv``) to ``seat``'s next turn and file the world under option ``k``.

    ``st``, ``priv`` are a scratch copy (it is played on); ``key`` is what
    the seat has seen since the decision; ``ws[WR_VAL][V_PTS..]`` must hold
    this hand's points by the makers' tricks.  At the seat's turn each of
    its cards' solved points go to the group of worlds with the same key.
    """
    val = ws[WR_VAL]
    g = ws[WR_GROUPS]
    base = k * G_REGION
    if (st[OUT] >> seat) & 1:           # the seat sits out: it has no choice to make
        load_position(st, priv, tab, ws[WR_POS])
        mt = S.solve_position(ws[WR_SOLVER], tab, ws[WR_POS], ws[WR_RES], S.MODE_EXACT)
        g[U(base + G_DIRECT)] += val[U(V_PTS + mt)]
        return 0
    while st[PHASE] == PH_PLAY and st[TO_ACT] != seat:
        c = solver_card(st, priv, tab, ws)
        key = _mix(key, c)
        apply_action(st, priv, tab, c)
    if st[PHASE] == PH_DONE:
        g[U(base + G_DIRECT)] += val[U(V_PTS + st[MAKER_TRICKS])]
        return 0
    res = ws[WR_RES]
    load_position(st, priv, tab, ws[WR_POS])
    S.solve_position(ws[WR_SOLVER], tab, ws[WR_POS], res, S.MODE_EXACT | S.MODE_CARDS)
    n = g[U(base + G_COUNT)]
    at = np.int64(-1)
    for i in range(n):
        if g[U(base + G_FIRST + G_WIDTH * i + G_KEY)] == key:
            at = base + G_FIRST + G_WIDTH * i
            break
    if at < 0 and n == G_MAX:           # no room: the world alone, its best card its own
        best = np.int64(-1)
        for p in range(5):
            v = res[U(R_CVAL + p)]
            if v >= 0 and (best < 0 or val[U(V_PTS + v)] > best):
                best = val[U(V_PTS + v)]
        g[U(base + G_DIRECT)] += best
        return 0
    if at < 0:
        at = base + G_FIRST + G_WIDTH * n
        g[U(base + G_COUNT)] = n + 1
        g[U(at + G_KEY)] = key
        legal = np.int64(0)
        for p in range(5):
            g[U(at + G_SUMS + p)] = 0
            if res[U(R_CVAL + p)] >= 0:
                legal |= np.int64(1) << p
        g[U(at + G_LEGAL)] = legal
    for p in range(5):
        v = res[U(R_CVAL + p)]
        if v >= 0:
            g[U(at + G_SUMS + p)] += val[U(V_PTS + v)]
    return 0


@njit(cache=True, _nrt=False)
def group_total(ws, k):
    """Option ``k``'s summed points: each group's best shared card, and the worlds valued on their own."""
    g = ws[WR_GROUPS]
    base = k * G_REGION
    total = g[U(base + G_DIRECT)]
    for i in range(g[U(base + G_COUNT)]):
        at = base + G_FIRST + G_WIDTH * i
        legal = g[U(at + G_LEGAL)]
        best = np.int64(0)
        first = True
        for p in range(5):
            if (legal >> p) & 1 and (first or g[U(at + G_SUMS + p)] > best):
                best = g[U(at + G_SUMS + p)]
                first = False
        total += best
    return total


@njit(cache=True, _nrt=False)
def postpone_cards(st0, world, tab, ws, seat, hand, legal):
    """File one world under each legal card of ``seat`` (by place in ``hand``), valued at its next turn."""
    k = np.int64(0)
    m = hand
    while m != 0:
        c = lowbit(m)
        m &= m - 1
        if (legal >> c) & 1:
            copy_to_scratch(st0, world, ws)
            apply_action(ws[WR_ST], ws[WR_PRIV], tab, c)
            postponed_world(ws[WR_ST], ws[WR_PRIV], tab, ws, seat, k, np.int64(0))
        k += 1


@njit(cache=True, _nrt=False)
def postpone_actions(st0, priv0, tab, ws, seat, legal, params):
    """File one world under each legal option of a call, alone, defend-alone or discard decision.

    The option's rollout bids as heuristic to the lead (``rollout``); what
    the seat hears of it (every call, not another seat's discard or dummy
    keep) starts the key, and the play goes to the seat's first card.
    """
    m = legal
    k = np.int64(0)
    while m != 0:
        a = lowbit(m)
        m &= m - 1
        copy_to_scratch(st0, priv0, ws)
        st = ws[WR_ST]
        priv = ws[WR_PRIV]
        apply_action(st, priv, tab, a)
        key = np.int64(0)
        while st[PHASE] != PH_DONE and st[PHASE] != PH_PLAY:
            s = st[TO_ACT]
            ph = st[PHASE]
            b = heuristic_decide(st, priv[U(HAND + s)], priv[U(AWAY + s)], s, legal_actions(st, priv, tab), params, tab)
            if not ((ph == PH_DISCARD or ph == PH_DUMMY) and s != seat):
                key = _mix(key, b * 16 + ph)
            if apply_action(st, priv, tab, b):
                return 0                # pragma: no cover - heuristic plays legally (tests)
        if st[PHASE] == PH_DONE:
            ws[WR_GROUPS][U(k * G_REGION + G_DIRECT)] += thrown_in_value(st, tab, seat, params)
        else:
            hand_values(st, tab, seat, ws, params)
            postponed_world(st, priv, tab, ws, seat, k, key)
        k += 1
    return 0


@njit(cache=True, _nrt=False)
def postponed_sums(ws, options, worlds):
    """Each option's value over ``worlds`` worlds into ``ws[WR_VAL]`` (by place), as the PIMC sums are kept."""
    val = ws[WR_VAL]
    for k in range(options):
        val[U(V_SUM + k)] = group_total(ws, k)
        val[U(V_N + k)] = worlds


@njit(cache=True, _nrt=False)
def postponed_values(st, hand, away, seat, legal, params, rng, tab, ws, play, n, options):
    """``search_decide``'s sums with ``postpone``: ``n`` worlds, each option valued at the seat's next turn.

    A hand of two cards or fewer has no later choice to postpone to (the
    last card is forced), so its play stays PIMC's; ``max_worlds`` does
    not extend a postponed search (a group's shared choice has no
    per-world value whose spread would say when to stop).
    """
    clear_groups(ws, options)
    if play:
        hand_values(st, tab, seat, ws, params)
    for _ in range(n):
        sample_fitting_world(st, hand, away, seat, tab, params, rng, ws)
        if play:
            postpone_cards(st, ws[WR_WORLD], tab, ws, seat, hand, legal)
        else:
            postpone_actions(st, ws[WR_WORLD], tab, ws, seat, legal, params)
    postponed_sums(ws, options, n)
