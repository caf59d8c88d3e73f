"""The advisor's kernels: deals a seat cannot tell from the true one, and every option played out on each.

A player's question ("should I order up?") is about one seat's view of one
hand: its own cards, the upcard, the calls and cards so far.  The answer
is an average over the deals that view allows, so this module samples
them by the plainest method that is exactly right (docs/advise.md):

1. deal the cards the seat has not seen uniformly at random: each other
   seat keeps the cards it is known to hold (those it has played), the
   rest of its hand, the dummy and the kitty are filled from the pool;
2. replay the hand so far on that deal through the state machine that
   simulates (``engine.hand``), and reject the deal if the record cannot
   have happened on it: a card played that was not held, a failure to
   follow suit while holding the suit (a void broken), or -- with
   inference -- keep it with the probability that the other seats would
   have called as they did holding those cards (rejection sampling from
   the posterior).  The model of a seat is its policy softened by
   ``stray``: with chance 1 - stray the seat does what its policy does,
   with chance ``stray`` one of its other legal options, split evenly.  A
   call the policy makes is kept; a call it would not make is kept with
   chance stray / ((options - 1)(1 - stray)), the ratio of the two
   likelihoods.  A stochastic policy is asked once, which is the same
   ratio averaged over its draw.  A call no bot would make (people make
   them) so narrows less, instead of leaving no deal; stray 0 is the
   policy as it stands.

What the seat did not see and the record cannot say -- another dealer's
discard, another Cutthroat maker's dummy keep -- is left to that seat's
policy, softened as its calls are, and among the cards the play leaves
possible: a dealer seen to play a card kept it, so the discard is one of
its six cards it has not been seen to play (the upcard too: discarding it
is legal, R5).  Without inference the discard is any such card of the
dealer's own five, drawn at random, as ``pimc``'s sampler assumes the
upcard kept, and the upcard only when the play shows the dealer kept all
five.
A rejected deal costs a try, never a biased sample: the kept ones are
uniform among the deals consistent with everything the seat knows.

On each kept deal the seat's own policy is asked once (its choice is kept
as ``chosen``), and then every option is played out from the same state
and the same policy stream, the option the only difference: paired, as
``loops.forced`` plays a counterfactual.
"""
import numpy as np
from numba import njit

from euchresim.engine.bits import U, popcount, random_bit, random_float
from euchresim.engine.hand import apply_legal, legal_actions, scripted_action, start_hand
from euchresim.engine.layout import (CFG_PACK, CFG_PLAYERS, DEAL, DEAL_DUMMY, ERR, ERR_NOT_HELD, HAND, NO_CARD, KITTY, MAKER, MAKER_TRICKS, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DONE, PH_DUMMY, PH_PLAY, PHASE, POINTS, PRIV_SIZE, SCORE, ST_SIZE, TO_ACT, NO_KEEP)
from euchresim.loops.hands import all_seats_random, play_out_with
from euchresim.policies.dispatch import WS_COLS, WS_ROWS, act
from euchresim.policies.sampler import deal_unseen

# what ``sample_deal`` says of one try
KEPT = 0
REJECTED = 1        # the hand so far could not have happened on this deal (or, inferring, would not have)
SCRIPT_ERROR = 2    # the hand so far does not reach a decision of the seat: a caller's error
POLICY_ERROR = 3    # a policy asked for an unseen discard or keep made an illegal one

# columns of ``options``: the action, then the seat's own alone call when it comes next (-1: none)
OPT_ACTION = 0
OPT_ALONE = 1


@njit(cache=True, _nrt=False)
def _deal_unseen(tab, fixed, fixed_dummy, upcard, rng, hands):
    """Fill every hand, the dummy and the kitty from the cards nobody is known to hold.

    Each hand keeps its ``fixed`` cards and the rest are dealt by the one
    sampler (``policies.sampler.deal_unseen``) with no voids to avoid: each
    hand's draw is uniform from the pool, so the deal is uniform among
    those with the fixed cards where they are (the replay then rejects what
    could not have happened). Returns (dummy, kitty), or (-1, -1) when the
    fixed cards leave too few (a caller's error).
    """
    players = tab[CFG_PLAYERS]
    pool = tab[CFG_PACK] & ~(np.int64(1) << upcard) & ~fixed_dummy
    for s in range(players):
        pool &= ~fixed[s]
    none = np.int64(0)
    preset = (fixed[0], fixed[1], fixed[2] if players > 2 else none, fixed[3] if players > 3 else none)
    need = (5 - popcount(preset[0]), 5 - popcount(preset[1]), 5 - popcount(preset[2]) if players > 2 else none,
            5 - popcount(preset[3]) if players > 3 else none)
    for s in range(4):
        hands[s] = preset[s]
    dealt, pool = deal_unseen(rng, pool, need, (none, none, none, none), (none, none, none, none), preset, hands,
                              np.int64(0), np.int64(0))
    if dealt < 0:
        return np.int64(-1), np.int64(-1)
    dummy = fixed_dummy
    if players == 3:
        for _ in range(5 - popcount(dummy)):
            if pool == 0:
                return np.int64(-1), np.int64(-1)
            c = random_bit(rng, pool)
            dummy |= np.int64(1) << c
            pool &= ~(np.int64(1) << c)
    return dummy, pool


@njit(cache=True, _nrt=False)
def _ask(pid, st, priv, seat, legal, params, rng, tab, ws, fns):
    """``act``, compiled once: ``act`` is inlined wherever it is called, and the advisor asks it in six places.

    Each inlined copy is the whole dispatch over every policy, for numba
    to copy, type and lower again on a fresh install; one function keeps
    it one copy, and a call costs nanoseconds beside a decision.
    """
    return act(pid, st, priv, seat, legal, params, rng, tab, ws, fns)


@njit(cache=True, _nrt=False)
def _apply(st, priv, tab, a, legal):
    """``apply_legal`` (inlined wherever it is called), compiled once for the advisor's four steps, as ``_ask``."""
    return apply_legal(st, priv, tab, a, legal)


@njit(cache=True, _nrt=False)
def _strays(options, stray, rng):
    """Keep a deal on which the seat's policy would have called otherwise? With chance
    stray / ((options - 1)(1 - stray)): the softened model's likelihood of the call heard over that of the
    policy's own call (module docstring)."""
    if options < 2 or stray <= 0.0:
        return False
    return random_float(rng) * (options - 1) * (1.0 - stray) < stray


@njit(cache=True, _nrt=False)
def _modelled_discard(choice, possible, legal, stray, rng):
    """The unseen discard of another dealer, from its policy's ``choice`` softened by ``stray`` and the cards
    the play leaves ``possible`` (those of its six it has not been seen to play): -1 to reject the deal.

    Under the softened model card d is discarded with chance 1 - stray if it is the policy's choice, else
    stray / (n - 1), n the legal discards; the deal is kept with the chance that the discard was one of the
    possible cards (at most 1, so no normalising), and the discard drawn among them by those chances.
    """
    if (possible >> choice) & 1 and stray <= 0.0:
        return choice
    n = popcount(legal)
    m = popcount(possible)
    if m == 0 or n < 2:
        return np.int64(-1)
    other = stray / (n - 1)
    mine = (1.0 - stray) if (possible >> choice) & 1 else 0.0
    others = m - 1 if mine > 0.0 else m
    keep = mine + others * other
    u = random_float(rng)
    if u >= keep:
        return np.int64(-1)
    if u < mine:
        return choice
    return random_bit(rng, possible & ~(np.int64(1) << choice))


@njit(cache=True, _nrt=False)
def _unseen(ph, s, st, priv, legal, played, upbit, infer, stray, pids, params, fns, drng, prng, tab, ws):
    """The discard or dummy keep of seat ``s`` that the advising seat did not see and the record cannot say:
    (action, modelled by the policy); a discard of -1 rejects the deal (module docstring).

    Apart from ``sample_deal`` because the record has no action here for ``engine.hand.scripted_action`` to
    read: the sampler makes one up, the inference model's (softened) or, without inference, a card drawn.
    """
    if ph == PH_DUMMY:
        return _ask(pids[U(s)], st, priv, s, legal, params[U(s)], prng, tab, ws, fns), True
    if infer != 0:
        return _modelled_discard(_ask(pids[U(s)], st, priv, s, legal, params[U(s)], prng, tab, ws, fns),
                                 legal & ~played, legal, stray, drng), True
    own = priv[U(HAND + s)] & ~upbit & ~played
    if own == 0:
        own = upbit & ~played
    if own == 0:
        return np.int64(-1), False
    return random_bit(drng, own), False


@njit(cache=True, _nrt=False)
def sample_deal(tab, dealer, seat, fixed, fixed_dummy, upcard, score, joker_suit, calls, alone, discard, keep,
                plays, steps, turn, infer, stray, pids, params, fns, drng, prng, st, priv, ws, hands, at):
    # ``pids``, ``params``, ``fns``: the policies the other seats' calls are evidence of (and that make the
    # discard or keep the seat did not see) -- the inference model, which may differ from who plays on
    """One try at a deal the seat cannot tell from the true one, replayed up to its decision (module docstring).

    ``calls``, ``alone`` (seat mask), ``discard``, ``keep``, ``plays`` and
    ``joker_suit`` are the hand so far as a record writes it (-1 for a
    discard or keep the seat did not see); ``steps`` actions of it are
    replayed, after which seat ``turn`` must be to act (-1: any seat). Each
    is read by ``engine.hand.scripted_action``, as the replay of records
    reads it, but for an unseen discard or keep, which ``_unseen`` makes.
    ``at`` gets the calls and plays replayed (so far, when it fails).  Returns KEPT (``st``,
    ``priv`` hold the state at the decision), REJECTED, SCRIPT_ERROR or
    POLICY_ERROR.
    """
    dummy, kitty = _deal_unseen(tab, fixed, fixed_dummy, upcard, drng, hands)
    if dummy < 0:
        return SCRIPT_ERROR
    for s in range(4):
        st[U(SCORE + s)] = score[s]
    start_hand(st, priv, tab, dealer, hands, dummy, upcard, kitty)
    played = np.int64(0)
    for k in range(plays.shape[0]):
        played |= np.int64(1) << plays[k]
    upbit = np.int64(1) << upcard
    ci = 0
    pi = 0
    at[0] = 0
    at[1] = 0
    for _ in range(steps):
        ph = st[PHASE]
        if ph == PH_DONE:
            return SCRIPT_ERROR
        s = st[TO_ACT]
        legal = legal_actions(st, priv, tab)
        modelled = False
        if s != seat and ((ph == PH_DISCARD and discard == NO_CARD) or (ph == PH_DUMMY and keep == NO_KEEP)):
            a, modelled = _unseen(ph, s, st, priv, legal, played, upbit, infer, stray, pids, params, fns, drng,
                                  prng, tab, ws)
            if a < 0 and ph == PH_DISCARD:
                return REJECTED
        else:
            a, _, ci, pi = scripted_action(ph, s, priv[U(HAND + s)], joker_suit, calls, alone, discard, keep, plays,
                                           ci, pi)
            at[0] = ci
            at[1] = pi
            if a < 0:
                return REJECTED if a == -ERR_NOT_HELD and s != seat else SCRIPT_ERROR
            if infer != 0 and s != seat and (ph == PH_BID1 or ph == PH_BID2 or ph == PH_ALONE or ph == PH_DEFEND):
                b = _ask(pids[U(s)], st, priv, s, legal, params[U(s)], prng, tab, ws, fns)
                if b != a and not _strays(popcount(legal), stray, drng):
                    return REJECTED
        if _apply(st, priv, tab, a, legal):
            if modelled:
                return POLICY_ERROR
            # a card another seat could not play here breaks a void: this deal is not the one; any other
            # illegal step is illegal on every deal
            return REJECTED if ph == PH_PLAY and s != seat else SCRIPT_ERROR
    if st[PHASE] == PH_DONE or (turn >= 0 and st[TO_ACT] != turn):
        return SCRIPT_ERROR
    return KEPT


@njit(cache=True, _nrt=False)
def _copy(dst, src, n):
    for j in range(n):
        dst[j] = src[j]


def probe(tab, dealer, seat, fixed, fixed_dummy, upcard, score, joker_suit, calls, alone, discard, keep, plays,
          steps, pids, params, fns, drng, prng, tries):
    """Where ``steps`` actions of the hand so far lead, from one kept deal (whoever is to act then).

    Returns (status, phase, seat to act, legal, calls replayed, plays
    replayed, tries used).

    The phase and the legal set depend only on what the seat sees, so one
    deal tells them; inference is off here (it narrows deals, not options).
    A loop in Python over the compiled ``sample_deal``, not a kernel of its
    own: a kernel would be one more compile of everything ``sample_deal``
    reaches on a fresh install (some seconds), and a try is microseconds.
    """
    st = np.zeros(ST_SIZE, dtype=np.int64)
    priv = np.zeros(PRIV_SIZE, dtype=np.int64)
    ws = np.zeros((WS_ROWS, WS_COLS), dtype=np.int64)
    hands = np.zeros(4, dtype=np.int64)
    at = np.zeros(2, dtype=np.int64)
    status = REJECTED
    t = 0
    while t < tries:
        t += 1
        status = sample_deal(tab, dealer, seat, fixed, fixed_dummy, upcard, score, joker_suit, calls, alone,
                             discard, keep, plays, steps, np.int64(-1), np.int64(0), 0.0, pids, params, fns, drng,
                             prng,
                             st, priv, ws, hands, at)
        if status != REJECTED:
            break
    if status != KEPT:
        return int(status), -1, -1, 0, int(at[0]), int(at[1]), t
    legal = legal_actions(st, priv, tab)
    return int(status), int(st[PHASE]), int(st[TO_ACT]), int(legal), int(at[0]), int(at[1]), t


@njit(cache=True, _nrt=False, inline='always')
def _play_rest(st, priv, tab, pids, params, fns, rng, ws, all_random):
    """``loops.hands.play_out`` through ``_ask`` and ``_apply``: its one loop, without a fourth copy of the dispatch.

    Inlined (a few calls): as a kernel of its own it would be one more
    compile and link of everything ``_ask`` reaches.  The same loop
    (``play_out_with``), so the same draws and the same hands;
    tests/test_advise_compile.py holds the two to identical states.
    """
    return play_out_with(_ask, _apply, st, priv, tab, pids, params, fns, rng, ws, all_random)


@njit(cache=True)
def play_options(tab, dealer, seat, fixed, fixed_dummy, upcard, score, joker_suit, calls, alone, discard, keep,
                 plays, steps, infer, stray, ipids, iparams, ifns, pids, params, fns, drng, prng, n, max_tries,
                 options, points, maker, tricks, chosen, deals):
    """Up to ``n`` kept deals, every option of ``options`` played out on each (module docstring).

    ``ipids``/``iparams``/``ifns`` are the inference model (``sample_deal``);
    ``pids``/``params``/``fns`` play the seat's own choice and every option out.

    Per kept deal i: ``points[i, k, s]`` seat s's points with option k,
    ``maker[i, k]`` the maker and ``tricks[i, k]`` the makers' tricks
    (both -1 when the hand is thrown in), ``chosen[i]`` the
    seat's own policy's action there (and its alone call, in ``chosen[i, 1]``,
    when that comes next), ``deals[i]`` the hands as dealt (4 boards, dummy,
    kitty).  Returns (kept, tries, error): error is -SCRIPT_ERROR for a
    hand so far that reaches no decision, -POLICY_ERROR for a modelled
    discard or keep that was illegal, or the engine's code of a policy's
    illegal move.
    """
    st = np.zeros(ST_SIZE, dtype=np.int64)
    priv = np.zeros(PRIV_SIZE, dtype=np.int64)
    ws = np.zeros((WS_ROWS, WS_COLS), dtype=np.int64)
    st0 = np.zeros(ST_SIZE, dtype=np.int64)
    priv0 = np.zeros(PRIV_SIZE, dtype=np.int64)
    rng0 = np.zeros(6, dtype=np.uint64)
    hands = np.zeros(4, dtype=np.int64)
    at = np.zeros(2, dtype=np.int64)
    players = tab[CFG_PLAYERS]
    all_random = all_seats_random(pids, players)
    kept = np.int64(0)
    t = np.int64(0)
    while kept < n and t < max_tries:
        t += 1
        status = sample_deal(tab, dealer, seat, fixed, fixed_dummy, upcard, score, joker_suit, calls, alone,
                             discard, keep, plays, steps, seat, infer, stray, ipids, iparams, ifns, drng, prng, st,
                             priv, ws, hands, at)
        if status == REJECTED:
            continue
        if status != KEPT:
            return kept, t, -status
        i = U(kept)
        for s in range(4):
            deals[i, s] = priv[U(DEAL + s)]
        deals[i, 4] = priv[DEAL_DUMMY]
        deals[i, 5] = priv[KITTY]
        legal = legal_actions(st, priv, tab)
        a = _ask(pids[U(seat)], st, priv, seat, legal, params[U(seat)], prng, tab, ws, fns)
        chosen[i, 0] = a
        chosen[i, 1] = -1
        _copy(st0, st, ST_SIZE)
        _copy(priv0, priv, PRIV_SIZE)
        _copy(rng0, prng, 6)
        if _apply(st, priv, tab, a, legal) == 0 and st[PHASE] == PH_ALONE and st[TO_ACT] == seat:
            chosen[i, 1] = _ask(pids[U(seat)], st, priv, seat, legal_actions(st, priv, tab), params[U(seat)],
                                prng, tab, ws, fns)
        for k in range(options.shape[0]):
            _copy(st, st0, ST_SIZE)
            _copy(priv, priv0, PRIV_SIZE)
            _copy(prng, rng0, 6)
            if _apply(st, priv, tab, options[k, OPT_ACTION], legal):
                return kept, t, st[ERR]
            if options[k, OPT_ALONE] >= 0 and st[PHASE] == PH_ALONE and st[TO_ACT] == seat:
                # asked all the same, so that the option the policy takes draws what its own hand draws
                m = legal_actions(st, priv, tab)
                _ask(pids[U(seat)], st, priv, seat, m, params[U(seat)], prng, tab, ws, fns)
                if _apply(st, priv, tab, options[k, OPT_ALONE], m):
                    return kept, t, st[ERR]
            err = _play_rest(st, priv, tab, pids, params, fns, prng, ws, all_random)
            if err:
                return kept, t, err
            for s in range(4):
                points[i, k, s] = st[U(POINTS + s)]
            maker[i, k] = st[MAKER]
            tricks[i, k] = st[MAKER_TRICKS] if st[MAKER] >= 0 else -1
        _copy(prng, rng0, 6)        # the next deal's policies draw on from the decision, not from the last option
        kept += 1
    return kept, t, np.int64(0)

