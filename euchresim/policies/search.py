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
(``sample_world``), averaging over them.  Points, not tricks, are the
objective, so a march (or a lone march) and a euchre weigh what they
score (R11) rather than one trick each.

Everything lives in the chunk's workspace ``ws`` (``dispatch.new_workspace``),
one int64 row per use: no allocation in the search.
"""
import numpy as np
from numba import njit

from euchresim.engine import solver as S
from euchresim.engine.bits import U, lowbit, popcount, random_bit
from euchresim.engine.hand import apply_action, legal_actions, score_hand, start_hand
from euchresim.engine.layout import (AWAY, BID2_PASS, CALLS, CFG_GAME_TO, CFG_PACK, CFG_PLAYERS, DEALER, DUMMY, EXCHANGED, HAND, JOKER_SUIT, MAKER, NCALLS, NINTRICK, NPLAYS, OUT, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DONE, PH_DUMMY, PH_JOKER, PH_PLAY, PHASE, MAKER_TRICKS, PLAY_SEAT, PLAYS, POINTS, PRIV_SIZE, SCORE, ST_SIZE, T_EFF, T_ORDER, TO_ACT, TRICKS, TRUMP, UPCARD)
from euchresim.policies.heuristic import HEURISTIC_PARAMS, heuristic_decide
from euchresim.policies.params import declare, defaults_row, param, slot_of
from euchresim.policies.view import dummy_taken, shown_voids
from euchresim.policies.win_table import P_WIN as _WIN_TABLES

# pimc's own parameters, after heuristic's (its rollouts and inference bid as heuristic, from the same row)
SEARCH_PARAMS = declare((
    param("worlds", 50.0, 1.0, 1000.0, "pimc: deals of the unseen cards sampled per card played"),
    param("bid_worlds", 20.0, 1.0, 1000.0, "pimc: deals sampled per call, alone, defend-alone and discard decision"),
    param("search_bids", 1.0, 0.0, 1.0,
          "1: calls, alone, defend alone and the discard by search; 0: by heuristic (the card play still searched)"),
    param("infer", 20.0, 0.0, 1000.0,
          "pimc: tries per world at a deal on which heuristic would have made the calls heard (0: no inference)"),
    param("fair_bids", 0.0, 0.0, 1.0,
          "1: a call's rollout plays the hand out with heuristic at every seat (fair); 0: solved double-dummy"),
    param("objective", 0.0, 0.0, 1.0,
          "points: the most points a hand (less the opponents'); game: the best P(win the game) from the score "
          "(4 players; elsewhere points)", names=("points", "game")),
    param("max_worlds", 0.0, 0.0, 5000.0,
          "pimc: more worlds, a batch at a time, while the two best options are within two standard errors, up to "
          "this many (0: never; worlds and bid_worlds are the batches)"),
), "pimc", first=len(HEURISTIC_PARAMS))
S_WORLDS = slot_of(SEARCH_PARAMS, "worlds")
S_BID_WORLDS = slot_of(SEARCH_PARAMS, "bid_worlds")
S_SEARCH_BIDS = slot_of(SEARCH_PARAMS, "search_bids")
S_INFER = slot_of(SEARCH_PARAMS, "infer")
S_FAIR_BIDS = slot_of(SEARCH_PARAMS, "fair_bids")
S_OBJECTIVE = slot_of(SEARCH_PARAMS, "objective")
S_MAX_WORLDS = slot_of(SEARCH_PARAMS, "max_worlds")
PIMC_PARAMS = SEARCH_PARAMS[:2] + SEARCH_PARAMS[3:4] + SEARCH_PARAMS[2:3] + SEARCH_PARAMS[4:] + HEURISTIC_PARAMS
DD_PARAMS = SEARCH_PARAMS[2:3] + SEARCH_PARAMS[5:] + HEURISTIC_PARAMS      # dd samples no worlds
PIMC_DEFAULTS = defaults_row(PIMC_PARAMS)

# rows of the workspace
WR_SOLVER = 0       # the solver's own workspace
WR_ST = 1           # a rollout's copy of the public state
WR_PRIV = 2         # a rollout's copy of the private state
WR_POS = 3          # a solver position (P_*)
WR_RES = 4          # a solver result (R_*)
WR_WORLD = 5        # a sampled world's private state (pimc)
WR_VAL = 6          # sums per action, and the points per makers' trick count
WR_ST2 = 7          # scratch public state (points per trick count)
V_PTS = 0           # WR_VAL[0..5]: the deciding seat's points when the makers end with k tricks
V_SUM = 8           # WR_VAL[8 + k]: the sum over worlds of action k's points
V_N = 48            # WR_VAL[48 + k]: worlds in which action k was valued
V_SQ = 88           # WR_VAL[88 + k]: the sum over worlds of action k's squared points (for max_worlds)
MAX_TRIES = 64      # attempts at a world that respects every void before the voids are dropped

# P(win the game) by score for objective=game (policies/win_table.py, 4 players), one block per target
WIN_TARGETS = (5, 7, 10)
P_WIN = np.zeros((len(WIN_TARGETS), 10, 10, 4, 2))
for _i, _t in enumerate(WIN_TARGETS):
    P_WIN[_i, :_t, :_t] = np.array(_WIN_TABLES[_t])
WIN_SCALE = 1 << 20       # a game value: P(win) in 2**-20ths, times 8, plus the side's tricks (ties to tricks)


@njit(cache=True, _nrt=False, inline='always')
def makers_mask(st, players):
    maker = st[MAKER]
    m = np.int64(1) << maker
    if players == 4:
        m |= np.int64(1) << ((maker + 2) & 3)
    return m


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
def points_table(st, tab, seat, ws):
    """``ws[WR_VAL][V_PTS + k]``: what ``seat`` gets when the makers end with k tricks (R11, by score_hand).

    The value is the seat's points less its opponents' (the maker's, for a
    defender; a defender's, for the makers): a defender gains nothing in
    its own points by stopping a march, but the makers score less.  Points
    first (times 16), then the side's tricks, to break ties between equal
    scores (a defender still takes a trick that changes no score).
    """
    players = tab[CFG_PLAYERS]
    s2 = ws[WR_ST2]
    val = ws[WR_VAL]
    for i in range(ST_SIZE):
        s2[i] = st[i]
    maker = st[MAKER]
    on_makers = (makers_mask(st, players) >> seat) & 1
    opp = maker
    if on_makers:
        opp = maker + 1 if maker + 1 < players else 0      # the seat after the maker defends
    for k in range(6):
        for s in range(4):
            s2[TRICKS + s] = 0
        s2[U(TRICKS + maker)] = k
        score_hand(s2, tab)
        side = k if on_makers else 5 - k
        val[U(V_PTS + k)] = 16 * (s2[U(POINTS + seat)] - s2[U(POINTS + opp)]) + side
    return players


@njit(cache=True, _nrt=False)
def win_value(tab, dealer, scores0, scores1, seat, side_tricks):
    """``seat``'s game value at side scores (``scores0``, ``scores1``) with the next hand dealt after ``dealer``.

    A side at or past the target has won; else P(win) from the table of
    the target (``P_WIN``). Returns -1 where there is no table (not 4
    players, or a target without one): the caller keeps points.
    """
    target = tab[CFG_GAME_TO]
    ti = -1
    for i in range(len(WIN_TARGETS)):
        if WIN_TARGETS[i] == target:
            ti = i
    if ti < 0 or tab[CFG_PLAYERS] != 4:
        return np.int64(-1)
    side = seat & 1
    mine = scores0 if side == 0 else scores1
    theirs = scores1 if side == 0 else scores0
    if mine >= target:
        p = 1.0
    elif theirs >= target:
        p = 0.0
    else:
        p = P_WIN[ti, scores0, scores1, (dealer + 1) & 3, side]
    return np.int64(np.round(p * WIN_SCALE)) * 8 + side_tricks


@njit(cache=True, _nrt=False)
def game_table(st, tab, seat, ws):
    """``points_table`` in game values (``win_value``): what ``seat``'s side's P(win) becomes with k makers' tricks.

    Leaves the points where the rules have no table. Called after
    ``points_table``, whose scratch state holds the hand's maker and mode.
    """
    s2 = ws[WR_ST2]
    val = ws[WR_VAL]
    maker = st[MAKER]
    on_makers = (makers_mask(st, tab[CFG_PLAYERS]) >> seat) & 1
    for k in range(6):
        for s in range(4):
            s2[TRICKS + s] = 0
        s2[U(TRICKS + maker)] = k
        score_hand(s2, tab)
        side = k if on_makers else 5 - k
        v = win_value(tab, st[DEALER], st[SCORE] + s2[POINTS], st[SCORE + 1] + s2[POINTS + 1], seat, side)
        if v < 0:
            return 0
        val[U(V_PTS + k)] = v
    return 0


@njit(cache=True, _nrt=False)
def hand_values(st, tab, seat, ws, params):
    """``ws[WR_VAL][V_PTS + k]`` by the policy's objective: points (``points_table``) or the game (``game_table``)."""
    points_table(st, tab, seat, ws)
    if params[S_OBJECTIVE] != 0:
        game_table(st, tab, seat, ws)
    return 0


@njit(cache=True, _nrt=False)
def thrown_in_value(st, tab, seat, params):
    """A hand nobody called: no points, and the deal moves on (which the game objective sees)."""
    if params[S_OBJECTIVE] == 0:
        return np.int64(0)
    v = win_value(tab, st[DEALER], st[SCORE], st[SCORE + 1], seat, np.int64(0))
    return np.int64(0) if v < 0 else v


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
    if params[S_FAIR_BIDS] != 0:
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
def value_actions(st, priv, tab, ws, seat, legal, params):
    """Add each legal action's rollout points to ``ws[WR_VAL]`` (by place in ``legal``)."""
    val = ws[WR_VAL]
    m = legal
    k = np.int64(0)
    while m != 0:
        a = lowbit(m)
        m &= m - 1
        r = rollout(st, priv, tab, ws, a, seat, params)
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


# ---------------------------------------------------------------- sampling (pimc)
@njit(cache=True, _nrt=False)
def void_cards(st, tab, seat):
    """The cards ``seat`` cannot hold: every effective suit it failed to follow (R10, ``view.shown_voids``)."""
    suits = (shown_voids(st, tab) >> (4 * seat)) & 15
    out = np.int64(0)
    for s in range(4):
        if (suits >> s) & 1:
            out |= tab[U(T_EFF + 4 * st[TRUMP] + s)]
    return out


@njit(cache=True, _nrt=False)
def sample_world(st, hand, away, seat, tab, rng, world):
    """Deal the cards ``seat`` has not seen to the other seats, as far as it knows consistently.

    What the seat knows: its own hand and what it put away, every card
    played and by whom, the upcard (face up until the dealer takes it:
    then in the dealer's hand until played), each seat's number of cards,
    and each void shown by failing to follow.  The most constrained seat
    is dealt first, each from the cards it may hold; a draw that leaves a
    seat short is tried again, and after MAX_TRIES the voids are ignored
    (a world the seat thinks impossible is still a world).  Returns 1, or
    0 when the voids were dropped.
    """
    players = tab[CFG_PLAYERS]
    played = np.int64(0)
    for k in range(st[NPLAYS]):
        played |= np.int64(1) << st[U(PLAYS + k)]
    upbit = np.int64(1) << st[UPCARD]
    dealer = st[DEALER]
    unknown = tab[CFG_PACK] & ~hand & ~away & ~played & ~upbit
    need0 = np.int64(0)
    need1 = np.int64(0)
    need2 = np.int64(0)
    need3 = np.int64(0)
    up_to_dealer = st[EXCHANGED] == 1 and seat != dealer and (played & upbit) == 0
    up_maybe = np.int64(0)          # the upcard, where only the dealer may hold it, or not: its rejects
    if up_to_dealer and dummy_taken(st, tab) and st[MAKER] == dealer:
        # a Cutthroat maker who dealt kept 5 of hand and dummy unseen: the upcard may be among the rejects
        up_to_dealer = False
        up_maybe = upbit
    for s in range(4):
        world[U(HAND + s)] = 0
        world[U(AWAY + s)] = 0            # what the others put away is unseen (in the pool)
        n = np.int64(0)
        if s < players and s != seat and not (st[OUT] >> s) & 1:
            n = 5
            for k in range(st[NPLAYS]):
                if st[U(PLAY_SEAT + k)] == s:
                    n -= 1
            if up_to_dealer and s == dealer:
                n -= 1
                world[U(HAND + s)] = upbit
        if s == 0:
            need0 = n
        elif s == 1:
            need1 = n
        elif s == 2:
            need2 = n
        else:
            need3 = n
    world[U(HAND + seat)] = hand
    world[U(AWAY + seat)] = away
    exact = np.int64(1)
    for attempt in range(MAX_TRIES + 1):
        strict = attempt < MAX_TRIES
        rem = unknown
        ok = True
        done = np.int64(0)
        for _ in range(4):
            # the seat still to deal with the fewest cards it may hold, relative to its need
            pick = np.int64(-1)
            slack = np.int64(1 << 20)
            for s in range(4):
                n = need0 if s == 0 else need1 if s == 1 else need2 if s == 2 else need3
                if n == 0 or (done >> s) & 1:
                    continue
                allow = rem | (up_maybe if s == dealer else 0)
                allow = allow & ~void_cards(st, tab, s) if strict else allow
                sl = popcount(allow) - n
                if sl < slack:
                    slack = sl
                    pick = s
            if pick < 0:
                break
            done |= np.int64(1) << pick
            n = need0 if pick == 0 else need1 if pick == 1 else need2 if pick == 2 else need3
            allow = rem | (up_maybe if pick == dealer else 0)
            allow = allow & ~void_cards(st, tab, pick) if strict else allow
            if popcount(allow) < n:
                ok = False
                break
            h = world[U(HAND + pick)] & upbit
            for _ in range(n):
                c = random_bit(rng, allow)
                b = np.int64(1) << c
                h |= b
                allow &= ~b
                rem &= ~b
            world[U(HAND + pick)] = h
        if ok:
            # the dummy, for a rollout that reaches the maker's keep: only while the keep is still to come
            if players == 3 and st[PHASE] <= PH_DUMMY and popcount(rem) >= 5:
                d = np.int64(0)
                for _ in range(5):
                    c = random_bit(rng, rem)
                    d |= np.int64(1) << c
                    rem &= ~(np.int64(1) << c)
                world[DUMMY] = d
            return exact
        for s in range(4):
            if s != seat:
                world[U(HAND + s)] &= upbit if (up_to_dealer and s == dealer) else 0
        exact = 0
    return exact      # pragma: no cover - the last, unconstrained attempt always deals


@njit(cache=True, _nrt=False)
def calls_fit(st, world, seat, tab, params, rng, ws):
    """Would ``heuristic`` have made every call the other seats made, holding the world's cards?

    The bidding is replayed from each seat's hand as dealt in the world
    (its cards now and those it has played; the dealer who took the upcard
    gives it back and gets a card of the unseen pool in its place: its
    discard, which nobody else saw), and each other seat's call is asked
    of ``heuristic``.  A Cutthroat maker who took the dummy is not asked
    (its hand as dealt cannot be told from the cards it kept).
    """
    players = tab[CFG_PLAYERS]
    if st[NCALLS] == 0:
        return True
    dealer = st[DEALER]
    upbit = np.int64(1) << st[UPCARD]
    played = np.int64(0)
    st2 = ws[WR_ST]
    priv2 = ws[WR_PRIV]
    for k in range(st[NPLAYS]):
        played |= np.int64(1) << st[U(PLAYS + k)]
    pool = tab[CFG_PACK] & ~played & ~upbit
    for s in range(players):
        pool &= ~world[U(HAND + s)] & ~world[U(AWAY + s)]
    pool &= ~world[DUMMY]
    skip = np.int64(-1)
    if dummy_taken(st, tab):
        skip = st[MAKER]
    hands = ws[WR_ST2]           # scratch: the four hands as dealt (slots 0..3)
    for s in range(4):
        h = np.int64(0)
        if s < players:
            h = world[U(HAND + s)]
            for k in range(st[NPLAYS]):
                if st[U(PLAY_SEAT + k)] == s:
                    h |= np.int64(1) << st[U(PLAYS + k)]
            if s == dealer and st[EXCHANGED] == 1:
                h &= ~upbit
                if s == seat:
                    h |= world[U(AWAY + s)]
                elif pool != 0:
                    c = random_bit(rng, pool)
                    h |= np.int64(1) << c
                    pool &= ~(np.int64(1) << c)
        hands[s] = h
    start_hand(st2, priv2, tab, dealer, hands, world[DUMMY], st[UPCARD], np.int64(0))
    if st2[PHASE] == PH_JOKER:
        apply_action(st2, priv2, tab, st[JOKER_SUIT])
    for k in range(st[NCALLS]):
        s = st2[TO_ACT]
        code = st[U(CALLS + k)]
        if st2[PHASE] == PH_BID1:
            a = np.int64(1) if code == 1 else np.int64(0)
        else:
            a = np.int64(BID2_PASS) if code == 0 else code - 2
        legal = legal_actions(st2, priv2, tab)
        if s != seat and s != skip:
            if heuristic_decide(st2, priv2[U(HAND + s)], np.int64(0), s, legal, params, tab) != a:
                return False
        if apply_action(st2, priv2, tab, a):
            return False             # pragma: no cover - the calls were legal when made
    return True


@njit(cache=True, _nrt=False)
def sample_fitting_world(st, hand, away, seat, tab, params, rng, ws):
    """``sample_world`` into ``ws[WR_WORLD]``, tried up to ``params[S_INFER]`` times for a world ``calls_fit`` accepts.

    When none fits (calls heuristic would rarely make, or other policies'
    calls), the last world sampled stands: inference narrows the worlds,
    it never leaves the seat without one.
    """
    world = ws[WR_WORLD]
    tries = np.int64(params[S_INFER])
    sample_world(st, hand, away, seat, tab, rng, world)
    for _ in range(tries - 1):
        if calls_fit(st, world, seat, tab, params, rng, ws):
            return 1
        sample_world(st, hand, away, seat, tab, rng, world)
    return 0


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
    clear_sums(ws)
    if play:
        hand_values(st, tab, seat, ws, params)
    n = np.int64(1) if sees_all else np.int64(params[S_WORLDS] if play else params[S_BID_WORLDS])
    most = np.int64(params[S_MAX_WORLDS]) if not sees_all else np.int64(0)
    options = popcount(hand) if play else popcount(legal)
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
                value_actions(st, world, tab, ws, seat, legal, params)
        done += n
    return pick_card(legal, hand, ws, st, tab) if play else best_action(legal, ws)
