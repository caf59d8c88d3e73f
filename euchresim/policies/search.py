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
from euchresim.engine.bits import U, lowbit, popcount
from euchresim.engine.hand import apply_action, legal_actions
from euchresim.engine.layout import (AWAY, CFG_PLAYERS, HAND, MAKER_TRICKS, OUT, NINTRICK, NPLAYS, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND,
                                     PH_DISCARD, PH_DONE, PH_DUMMY, PH_PLAY, PHASE, PLAY_SEAT, PLAYS, PRIV_SIZE, ST_SIZE, T_ORDER,
                                     TO_ACT, TRICKS, TRUMP)
from euchresim.policies.heuristic import heuristic_decide
from euchresim.policies.sampler import sample_fitting_world
from euchresim.policies.search_layout import (G_COUNT, G_DIRECT, G_FIRST, G_KEY, G_LEGAL, G_MAX, G_OPTIONS, G_REGION, G_SUMS, G_WIDTH,
                                              S_ALONE_BY, S_BID_WORLDS, S_FAIR_BIDS, S_MAX_WORLDS, S_POSTPONE, S_SEARCH_BIDS,
                                              S_WORLDS, V_N, V_PTS, V_SQ, V_SUM, WR_GROUPS, WR_POS, WR_PRIV, WR_RES,
                                              WR_SOLVER, WR_ST, WR_VAL, WR_WORLD)
from euchresim.policies.values import hand_values, makers_mask, thrown_in_value


@njit(cache=True, _nrt=False)
def load_position(st, hands, tab, pos):
    """The solver's position (``S.P_*``) of a hand in its play phase, with the seats' cards ``hands``."""
    players = tab[CFG_PLAYERS]
    pos[S.P_TRUMP] = st[TRUMP]
    for s in range(4):
        pos[U(S.P_HAND + s)] = hands[U(HAND + s)]
    pos[S.P_SEAT] = st[TO_ACT]
    nin = st[NINTRICK]
    n = st[NPLAYS]
    pos[S.P_NTABLE] = nin
    for k in range(nin):
        pos[U(S.P_TCARD + k)] = st[U(PLAYS + n - nin + k)]
        pos[U(S.P_TSEAT + k)] = st[U(PLAY_SEAT + n - nin + k)]
    makers = makers_mask(st, players)
    pos[S.P_MAKERS] = makers
    pos[S.P_OUT] = st[OUT]
    mt = np.int64(0)
    for s in range(players):
        if (makers >> s) & 1:
            mt += st[U(TRICKS + s)]
    pos[S.P_MTRICKS] = mt


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
    st = ws[WR_ST]
    priv = ws[WR_PRIV]
    for i in range(ST_SIZE):
        st[i] = st0[i]
    for i in range(PRIV_SIZE):
        priv[i] = priv0[i]
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
        v = res[U(S.R_CVAL + k)]
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


# --- postpone: the seat's next card chosen once per information set (EPIMC, one turn deep) --------------------
#
# PIMC values an option by solving each world as if the seat then saw every
# card: in one world it will lead the king, in another the ace, whichever
# wins there, though at the table it must play one card in every world it
# cannot tell apart (strategy fusion).  With ``postpone`` the solver's
# values are taken one turn later, at the seat's next card: the cards
# played in between are the solver's in each world (the other seats play
# as if they saw every card, as in PIMC), and the worlds that show the
# seat the same cards by then (the same key) share one choice, the card
# whose summed points over them is best.  The option's value is the sum
# of those choices' points; a world whose hand ends first, or in which the
# seat sits out, is valued on its own as PIMC values it.  Arjonilla,
# Saffidine and Cazenave (2024) postpone the solver to a depth d; here d
# is the seat's next turn, where its next choice is.

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
        v = res[U(S.R_CVAL + k)]
        if v < 0:
            continue
        if best < 0 or (makers == 1 and v > bv) or (makers == 0 and v < bv):
            best = res[U(S.R_CARD + k)]
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
            v = res[U(S.R_CVAL + p)]
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
            if res[U(S.R_CVAL + p)] >= 0:
                legal |= np.int64(1) << p
        g[U(at + G_LEGAL)] = legal
    for p in range(5):
        v = res[U(S.R_CVAL + p)]
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
def _copy_in(st0, priv0, ws):
    st = ws[WR_ST]
    priv = ws[WR_PRIV]
    for i in range(ST_SIZE):
        st[i] = st0[i]
    for i in range(PRIV_SIZE):
        priv[i] = priv0[i]


@njit(cache=True, _nrt=False)
def postpone_cards(st0, world, tab, ws, seat, hand, legal):
    """File one world under each legal card of ``seat`` (by place in ``hand``), valued at its next turn."""
    k = np.int64(0)
    m = hand
    while m != 0:
        c = lowbit(m)
        m &= m - 1
        if (legal >> c) & 1:
            _copy_in(st0, world, ws)
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
        _copy_in(st0, priv0, ws)
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
        return postponed_decide(st, hand, away, seat, legal, params, rng, tab, ws, play, n, options)
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


@njit(cache=True, _nrt=False)
def postponed_decide(st, hand, away, seat, legal, params, rng, tab, ws, play, n, options):
    """``search_decide`` with ``postpone``: ``n`` worlds, each option valued at the seat's next turn.

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
    return pick_card(legal, hand, ws, st, tab) if play else best_action(legal, ws)
