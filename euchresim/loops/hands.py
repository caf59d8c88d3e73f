"""The jitted loops: deal, ask each seat's policy, apply, write a row.

This layer sits between ``policies`` and the runner (``run/``): it is the only numba code
that knows both the engine's state machine and the policy dispatch.  One
call plays one chunk (a fixed number of hands, games or rubbers) from its
own deal stream and policy stream, so a chunk's output depends only on the
seed and its index.
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import PICK, U, digit_next, inline_copy, lowbit, popcount, randbelow
from euchresim.engine.deal import deal
from euchresim.engine.hand import apply_legal, legal_actions, score_hand, start_hand
from euchresim.engine.layout import (ALONE, CALLS, CFG_GAME_TO, CFG_PLAYERS, CFG_TIE, DEAL, DEAL_DUMMY, DISCARD, DUMMY_KEEP, ERR, FIRST_LEADER, HAND, JOKER_SUIT, KITTY, MAKER, MAKER_TRICKS, NCALLS, NPLAYS, OUT, PH_DONE, PHASE, PLAYS, POINTS, PRIV_SIZE, REDEAL, ROUND, SCORE, ST_SIZE, THROWN_IN, TO_ACT, TRICK_WINNER, TRICKS, TRUMP, UPCARD, DEALER, CFG_NPACK, T_PACK, T_SUIT_OF, T_POWER, T_NEXT, NACTIVE, LEADER, RT_CARDS, RT_REM, RT_SUITS, TRICK, NINTRICK, LED, BEST_SEAT, BEST_POWER, PH_PLAY, PLAY_SEAT)
from euchresim.engine.game import at_the_bridge, game_winners, rubber_margin, rubber_points
from euchresim.loops.tally import tally_row
from euchresim.policies.dispatch import RANDOM, WS_COLS, WS_ROWS, act


_score_hand_in = inline_copy(score_hand)


@njit(cache=True, _nrt=False, inline='always')
def play_out_with(ask, apply, st, priv, tab, pids, params, fns, rng, ws, all_random):
    """The play-out loop, written once: ask each seat's policy (``ask``) and apply (``apply``) until the hand is over.

    The dispatch is the parameter so that the loop's three callers play the
    same hands: ``play_out`` and the hot loop ``_play_hands`` pass ``act`` and
    ``apply_legal``, the advisor's ``_play_rest`` its compiled-once ``_ask``
    and ``_apply``.  Only ever inlined, and passed a module's global: numba's
    inliner follows the argument to the global and inlines ``act`` into the
    caller as if written there, as the hot loop's written-out copy had it;
    a compiled call taking a function is instead
    keyed by the function's identity and misses the on-disk cache in every
    new process (tests/test_play_out_copies.py holds both).

    When every seat plays ``random``, the tricks are played by
    ``random_tricks``, a tight loop that draws the very same random numbers
    (tests/test_fast_path.py holds the two paths to identical rows).
    """
    while st[PHASE] != PH_DONE:
        if all_random and st[PHASE] == PH_PLAY:
            random_tricks(st, priv, tab, rng)
            return 0
        seat = st[TO_ACT]
        legal = legal_actions(st, priv, tab)
        a = ask(pids[U(seat)], st, priv, seat, legal, params[U(seat)], rng, tab, ws, fns)
        if apply(st, priv, tab, a, legal):
            return st[ERR]
    return 0


@njit(cache=True, _nrt=False, inline='always')
def play_out(st, priv, tab, pids, params, fns, rng, ws, all_random):
    """Ask the policies for every decision until the hand is over: ``play_out_with`` through ``act``.

    Returns 0, or the engine's error code of a policy's illegal move.
    """
    return play_out_with(act, apply_legal, st, priv, tab, pids, params, fns, rng, ws, all_random)


@njit(cache=True, _nrt=False, inline='always')
def _play_random(st, priv, rng, seat, n, rem, legal, r, left):
    """Play a random one of ``seat``'s ``legal`` positions as the n-th card: (card, r, left)."""
    u, r, left = digit_next(r, left, rng)
    pos = np.int64(PICK[U(64 * legal + u)])
    priv[U(RT_REM + seat)] = rem & ~(np.int64(1) << pos)
    a = priv[U(RT_CARDS + 8 * seat + pos)]
    st[U(PLAYS + n)] = a
    st[U(PLAY_SEAT + n)] = seat
    return a, r, left


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def random_tricks(st, priv, tab, rng):
    """Play out every trick with uniformly random legal cards (R10), fast.

    Same digits, same order and same state as asking the ``random`` policy
    card by card through ``legal_actions``/``apply_legal`` (``digit_bit``):
    each hand is first laid out as a list of its cards, lowest bit first, so
    following suit is a 5-bit mask of positions and the k-th legal card is
    one lookup in ``PICK``.
    """
    trump = st[TRUMP]
    nact = st[NACTIVE]
    nxt = T_NEXT + 4 * st[OUT]
    suit_of = T_SUIT_OF + 33 * trump
    power = T_POWER + 132 * trump
    n = st[NPLAYS]
    leader = st[LEADER]
    seat = leader
    for _ in range(nact):
        h = priv[U(HAND + seat)]
        cnt = popcount(h)
        suits = np.int64(0)
        for j in range(cnt):
            c = lowbit(h)
            h &= h - 1
            priv[U(RT_CARDS + 8 * seat + j)] = c
            suits |= np.int64(1) << (8 * tab[U(suit_of + c)] + j)
        priv[U(RT_SUITS + seat)] = suits
        priv[U(RT_REM + seat)] = (np.int64(1) << cnt) - 1
        seat = tab[U(nxt + seat)]
    r = rng[4]
    left = rng[5]
    led = np.int64(0)
    best_seat = leader
    best_p = np.int64(-1)
    for trick in range(st[TRICK], 5):
        # the lead: any card (R10)
        seat = leader
        rem = priv[U(RT_REM + seat)]
        a, r, left = _play_random(st, priv, rng, seat, n, rem, rem, r, left)
        n += 1
        led = tab[U(suit_of + a)]            # R7/C4: a led joker calls for trump
        led_power = power + 33 * led
        best_seat = seat
        best_p = tab[U(led_power + a)]
        seat = tab[U(nxt + seat)]
        for k in range(1, nact):
            rem = priv[U(RT_REM + seat)]
            # R10 follow suit if able.  Arithmetic, not `if`: on random data
            # a branch mispredicts half the time.
            follow = (priv[U(RT_SUITS + seat)] >> (8 * led)) & rem
            legal = rem ^ ((rem ^ follow) & -np.int64(follow != 0))
            a, r, left = _play_random(st, priv, rng, seat, n, rem, legal, r, left)
            n += 1
            p = tab[U(led_power + a)]
            better = -np.int64(p > best_p)        # all ones when this card wins so far
            best_seat = best_seat ^ ((best_seat ^ seat) & better)
            best_p = best_p ^ ((best_p ^ p) & better)
            seat = tab[U(nxt + seat)]
        st[U(TRICK_WINNER + trick)] = best_seat
        st[U(TRICKS + best_seat)] += 1
        leader = best_seat
    rng[4] = r
    rng[5] = left
    seat = leader
    for _ in range(nact):
        h = np.int64(0)                        # what is left in hand: nothing, after five tricks
        rem = priv[U(RT_REM + seat)]
        while rem:
            h |= np.int64(1) << priv[U(RT_CARDS + 8 * seat + lowbit(rem))]
            rem &= rem - 1
        priv[U(HAND + seat)] = h
        seat = tab[U(nxt + seat)]
    st[NPLAYS] = n
    st[TRICK] = 5
    st[NINTRICK] = 0
    st[LED] = led
    st[BEST_SEAT] = best_seat
    st[BEST_POWER] = best_p
    st[LEADER] = leader
    _score_hand_in(st, tab)
    st[PHASE] = PH_DONE
    st[TO_ACT] = -1


@njit(cache=True, _nrt=False, inline='always')
def write_row(rows, plays, i, mask, st, priv, players, chunk, game, rubber):
    """Row ``i`` of the chunk, into slot ``i & mask`` (``mask`` -1: slot i; a ring, see run_hands)."""
    slot = i & mask
    r = rows[U(slot)]
    r["chunk"] = chunk
    r["index"] = i
    r["game"] = game
    r["rubber"] = rubber
    dealer = st[DEALER]
    r["dealer"] = dealer
    r["hand0"] = priv[DEAL + 0]
    r["hand1"] = priv[DEAL + 1]
    r["hand2"] = priv[DEAL + 2]
    r["hand3"] = priv[DEAL + 3]
    r["dummy"] = priv[DEAL_DUMMY]
    r["upcard"] = st[UPCARD]                    # one card: an index (a set of cards is a board)
    r["kitty"] = priv[KITTY]
    r["joker_suit"] = st[JOKER_SUIT]
    r["n_calls"] = st[NCALLS]
    r["call1"] = st[CALLS + 0]
    r["call2"] = st[CALLS + 1]
    r["call3"] = st[CALLS + 2]
    r["call4"] = st[CALLS + 3]
    r["call5"] = st[CALLS + 4]
    r["call6"] = st[CALLS + 5]
    r["call7"] = st[CALLS + 6]
    r["call8"] = st[CALLS + 7]
    maker = st[MAKER]
    r["maker"] = maker
    pos = maker - dealer
    r["maker_pos"] = -1 if maker < 0 else (pos + players if pos < 0 else pos)
    r["make_round"] = st[ROUND]
    r["trump"] = st[TRUMP]
    r["alone"] = st[ALONE]
    r["out"] = st[OUT]
    r["maker_alone"] = maker >= 0 and (st[ALONE] >> maker) & 1 == 1
    r["defender_alone"] = maker >= 0 and (st[ALONE] & ~(1 << maker)) != 0
    r["discard"] = priv[DISCARD]
    r["dummy_keep"] = priv[DUMMY_KEEP]
    r["leader"] = st[FIRST_LEADER]
    r["trick1"] = st[TRICK_WINNER + 0]
    r["trick2"] = st[TRICK_WINNER + 1]
    r["trick3"] = st[TRICK_WINNER + 2]
    r["trick4"] = st[TRICK_WINNER + 3]
    r["trick5"] = st[TRICK_WINNER + 4]
    r["tricks0"] = st[TRICKS + 0]
    r["tricks1"] = st[TRICKS + 1]
    r["tricks2"] = st[TRICKS + 2]
    r["tricks3"] = st[TRICKS + 3]
    r["points0"] = st[POINTS + 0]
    r["points1"] = st[POINTS + 1]
    r["points2"] = st[POINTS + 2]
    r["points3"] = st[POINTS + 3]
    mt = st[MAKER_TRICKS]
    r["maker_tricks"] = mt
    played = maker >= 0
    r["euchred"] = played and mt < 3
    r["march"] = played and mt == 5
    r["thrown_in"] = st[THROWN_IN] == 1
    r["redeal"] = st[REDEAL] == 1
    r["score0"] = st[SCORE + 0]
    r["score1"] = st[SCORE + 1]
    r["score2"] = st[SCORE + 2]
    r["score3"] = st[SCORE + 3]
    for k in range(20):                   # start_hand set the unplayed slots to -1
        plays[U(slot), k] = st[PLAYS + k]


_start_hand_in = inline_copy(start_hand)     # replay_hand calls start_hand itself


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def all_seats_random(pids, players):
    for s in range(players):
        if pids[s] != RANDOM:
            return False
    return True


@njit(cache=True, no_cfunc_wrapper=True)
def new_state():
    """A hand's two state arrays, and the search bots' workspace (policies.dispatch)."""
    return (np.zeros(ST_SIZE, dtype=np.int64), np.zeros(PRIV_SIZE, dtype=np.int64),
            np.zeros((WS_ROWS, WS_COLS), dtype=np.int64))


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def _first_dealer(drng, players):
    """The chunk's first dealer: the deal stream's first draw, before any deal."""
    return randbelow(drng, players)


def run_hands(tab, n, drng, prng, pids, params, fns, rows, plays, chunk, counts):
    """Play ``n`` independent hands (R3: the deal passes left, not on a redeal).

    ``counts`` (TALLY_SIZE int64) gets each row's tally as it is written, so
    the rows are not read back from memory.  ``rows`` and ``plays`` hold
    every row when they have ``n`` or more; with fewer (a power of two) they
    are a ring that keeps only the last rows, for a run that wants only the
    counts: the rows then stay in the core's own cache, which matters when
    several workers share the machine's memory.  Returns (0, n), or (error
    code, index of the failing row).

    Plain Python around the jitted loop: a jitted caller of ``_play_hands``
    has numba link, optimise and generate the whole loop (every policy in it)
    once more, some 2 s of a cold start, for a set-up done once a chunk.
    """
    ring = rows.shape[0]
    if ring < n and (ring < 1 or ring & (ring - 1) != 0):
        raise ValueError("rows for fewer hands than n must be a ring: a power of two")
    mask = np.int64(-1) if ring >= n else np.int64(ring - 1)
    st, priv, ws = new_state()
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    hands = np.zeros(4, dtype=np.int64)
    scores = np.zeros(4, dtype=np.int64)
    dealer = _first_dealer(drng, tab[CFG_PLAYERS])
    err, at, dealer, winners = _play_hands(tab, drng, prng, pids, params, fns, rows, plays, mask, st, priv, ws,
                                             work, hands, np.int64(chunk), counts, np.int64(dealer),
                                             np.int64(0), np.int64(n), np.int64(-1), np.int64(-1), scores)
    if err:
        return err, at
    return 0, n


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def _play_hands(tab, drng, prng, pids, params, fns, rows, plays, mask, st, priv, ws, work, hands, chunk, counts,
                dealer, start, stop, game, rubber, scores):
    """The one hot loop: hands into ``rows[start:stop]``, the deal passing from ``dealer``.

    Row i goes to slot ``i & mask``: -1 for every row in its own slot, a
    ring's size - 1 for a ring (``run_hands``).
    In a whole game (``game`` >= 0, R12) ``scores`` carry from hand to hand
    and the loop stops when a hand gives the game its winners; a run of
    independent hands (``game`` -1) fills every row, tallying each into
    ``counts``.  Compiled without reference counting: nothing is allocated.
    Returns (0, rows used, next dealer, winners: a seat mask, 0 when the
    rows ran out first), or (error code, the failing row, dealer, 0).
    """
    players = tab[CFG_PLAYERS]
    all_random = all_seats_random(pids, players)
    in_game = game >= 0
    i = start
    while i < stop:
        if in_game:
            for s in range(4):
                st[SCORE + s] = scores[s]
        # deal, the play-out loop and write_row are inlined (bits.inline_copy says why); the loop as
        # play_out_with, not play_out: numba inlines by copying the callee's whole IR, once per level,
        # and play_out whole (the policies, the state machine) was the cold compile's largest copy
        dummy, upcard, kitty = deal(tab, work, drng, hands)
        _start_hand_in(st, priv, tab, dealer, hands, dummy, upcard, kitty)
        err = play_out_with(act, apply_legal, st, priv, tab, pids, params, fns, prng, ws, all_random)
        write_row(rows, plays, i, mask, st, priv, players, chunk, game, rubber)
        if err:
            return err, i, dealer, 0
        if not in_game:
            tally_row(rows[U(i & mask)], players, counts)
        i += 1
        if st[REDEAL] == 0:
            dealer = tab[T_NEXT + dealer]
        if in_game:
            for s in range(players):
                scores[s] += st[POINTS + s]
            winners = game_winners(st, scores, players, tab[CFG_GAME_TO], tab[CFG_TIE])
            if winners:
                return 0, i, dealer, winners
    return 0, i, dealer, 0


@njit(cache=True, no_cfunc_wrapper=True)
def _play_game(tab, st, priv, ws, work, hands, dealer, drng, prng, pids, params, fns, rows, plays,
               nrows, game, rubber, games, gi, chunk, start):
    """Play one game to the target from the scores ``start`` (per seat); returns (rows used or -1 if full, next dealer, winners)."""
    players = tab[CFG_PLAYERS]
    scores = start.copy()
    counts = np.zeros(0, dtype=np.int64)       # games are tallied from their rows (run.runner.tally)
    first = dealer
    # every scalar as int64, never a literal: numba compiles the loop once
    err, end, dealer, winners = _play_hands(tab, drng, prng, pids, params, fns, rows, plays, np.int64(-1),
                                            st, priv, ws, work, hands, np.int64(chunk), counts, np.int64(dealer),
                                            np.int64(nrows), np.int64(rows.shape[0]), np.int64(game),
                                            np.int64(rubber), scores)
    if err:
        return -2 - (err + 64 * end), dealer, 0     # the failing row too (runner.play_chunk decodes it)
    if winners == 0:
        return -1, dealer, 0
    bridge = at_the_bridge(rows, np.int64(nrows), np.int64(end), players, tab[CFG_GAME_TO])
    g = games[gi]
    g["game"] = game
    g["rubber"] = rubber
    g["first_dealer"] = first
    g["hands"] = end - nrows
    g["score0"] = scores[0]
    g["score1"] = scores[1]
    g["score2"] = scores[2]
    g["score3"] = scores[3]
    g["winners"] = winners
    g["bridge"] = bridge
    return end, dealer, winners


@njit(cache=True, no_cfunc_wrapper=True)
def run_games(tab, ngames, nrubbers, drng, prng, pids, params, fns, rows, plays, games, rubbers, chunk, start):
    """Play whole games (R12) from the scores ``start`` (per seat; zeros: a new game), or rubbers (R13) when
    ``nrubbers`` > 0 (from zeros).

    Returns the number of hand rows written, -1 if ``rows`` was too small
    (the caller retries the chunk with more room), or -2 - (error code + 64
    * the failing row) when a policy made an illegal move.
    """
    players = tab[CFG_PLAYERS]
    st, priv, ws = new_state()
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    hands = np.zeros(4, dtype=np.int64)
    dealer = randbelow(drng, players)
    nrows = 0
    gi = 0
    if nrubbers == 0:
        for game in range(ngames):
            nrows, dealer, w = _play_game(tab, st, priv, ws, work, hands, dealer, drng, prng, pids,
                                          params, fns, rows, plays, nrows, game, -1, games, gi, chunk, start)
            if nrows < 0:
                return nrows
            gi += 1
        return nrows
    for rb in range(nrubbers):
        wins = np.zeros(2, dtype=np.int64)
        rp = np.zeros(2, dtype=np.int64)
        ng = 0
        while wins[0] < 2 and wins[1] < 2:
            nrows, dealer, w = _play_game(tab, st, priv, ws, work, hands, dealer, drng, prng, pids,
                                          params, fns, rows, plays, nrows, ng, rb, games, gi, chunk,
                                          np.zeros(4, dtype=np.int64))
            if nrows < 0:
                return nrows
            side = 0 if w & 1 else 1
            loser = games[gi]["score1"] if side == 0 else games[gi]["score0"]
            wins[side] += 1
            rp[side] += rubber_points(loser)
            gi += 1
            ng += 1
        wside = 0 if wins[0] == 2 else 1
        r = rubbers[rb]
        r["rubber"] = rb
        r["games"] = ng
        r["winner_side"] = wside
        r["winner_points"] = rp[wside]
        r["loser_points"] = rp[1 - wside]
        r["margin"] = rubber_margin(rp[wside], rp[1 - wside])
    return nrows


# ---------------------------------------------------------------- grouped tallies
from euchresim.engine.features import NFEAT, tally_groups_into   # noqa: E402  (kept with the one function that uses it)


@njit(cache=True, no_cfunc_wrapper=True)
def run_hands_grouped(tab, n, drng, prng, pids, params, fns, rows, plays, chunk, counts,
                      feats, starts, bases, radix, gcounts):
    """``run_hands`` round a ring of rows, each ring-full also tallied into groupings' cells.

    A run that keeps no rows can only group its hands while they exist:
    the chunk is played in blocks of the ring's size (a power of two)
    through the same ``_play_hands``, the dealer, the pack and both
    generator streams carried from block to block as ``run_hands`` carries
    them within its one call, so every row and every count is the same;
    each block is tallied (``engine.features``: groupings ``feats``,
    ``starts``, ``bases``, ``radix`` into ``gcounts``) right after it is
    played, while its rows are still in the core's cache.  Returns (0, n),
    or (error code, index of the failing row).
    """
    ring = rows.shape[0]
    if ring < 1 or ring & (ring - 1) != 0:
        raise ValueError("a ring of rows must be a power of two")
    mask = np.int64(ring - 1)
    st, priv, ws = new_state()
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    hands = np.zeros(4, dtype=np.int64)
    scores = np.zeros(4, dtype=np.int64)
    f = np.zeros(NFEAT, dtype=np.int64)
    dealer = np.int64(randbelow(drng, tab[CFG_PLAYERS]))
    start = np.int64(0)
    while start < n:
        stop = np.int64(min(start + ring, n))
        err, at, dealer, winners = _play_hands(tab, drng, prng, pids, params, fns, rows, plays, mask, st, priv, ws,
                                                 work, hands, np.int64(chunk), counts, dealer,
                                                 start, stop, np.int64(-1), np.int64(-1), scores)
        if err:
            return err, at
        tally_groups_into(rows[:stop - start], tab, feats, starts, bases, radix, gcounts, f)
        start = stop
    return 0, n


# ---------------------------------------------------------------- one decision
@njit(cache=True, no_cfunc_wrapper=True)
def decide_one(st, priv, tab, pids, params, fns, rng, ws):
    """The action the seat to act's policy takes in the state (``st``, ``priv``).

    For callers that hold a hand's state themselves (an adapter to another
    program's game, a test): the very call ``play_out`` makes, once.
    Returns (action, legal) so the caller can check the action.
    """
    seat = st[TO_ACT]
    legal = legal_actions(st, priv, tab)
    return act(pids[U(seat)], st, priv, seat, legal, params[U(seat)], rng, tab, ws, fns), legal


def new_workspace():
    """The search bots' workspace ``decide_one`` takes (one per thread of play)."""
    return new_state()[2]


def seat_decider(pids, params, fns, rng, ws):
    """The seats' policies as ``engine.state.Hand.play_out``'s ``decide``: ``decide_one``, the hot loop's
    very call, drawing on the stream ``rng``; it returns (action, legal mask) as ``decide_one`` does."""
    def decide(h):
        a, legal = decide_one(h.st, h.priv, h.tab, pids, params, fns, rng, ws)
        return int(a), int(legal)
    return decide
