"""One entry point for every policy: built-in, search bots, and users' own.

The loops (``loops.hands``) call ``act`` for each decision.  Built-in policies are integer
ids (so a sweep over them or over their parameter rows compiles nothing).
Two kinds are reached through first-class functions instead, passed in
``fns`` = (user functions, search functions):

* a user's policy is a jitted function of ``POLICY_SIG``; seats whose id
  is ``USER + k`` call ``fns[0][k]``, so the hot loop is compiled, and
  cached, once for any user code;
* a built-in in a function slot (``dd`` and ``pimc`` today), id
  ``SLOTTED + k``, is ``fns[1][k]``, of ``SEARCH_SIG``: its declaration in
  ``policies/__init__.py`` names its kernel and ``policies.functions`` fills
  the slot from it, so a new built-in of this kind is one declaration and
  no change here; the hot loop is compiled against the signature, not the
  bots, so a run that uses none never compiles them (the sampler and the
  rollouts are most of the package's compile time).
* ``random``, ``baseline`` and ``heuristic`` (ids below ``SLOTTED``) are
  inlined into the loop by ``plain_act``, for speed: their declarations say
  so (``inline=True``) and tests/test_user_policy.py holds the two to each other.

Unused slots hold ``no_policy`` / ``no_search``, which are never called.
``ws`` is the chunk's workspace for the search bots (the solver's table
and the sampler's scratch), made once per chunk by the hot loop (loops/hands.py).
"""
import numpy as np
from numba import njit, types
from numba.extending import typeof_impl

from euchresim.engine.bits import U
from euchresim.engine.layout import AWAY, HAND
from euchresim.policies.builtin import decide as builtin_decide

RANDOM = 0
BASELINE = 1
HEURISTIC = 2
SLOTTED = 3         # SLOTTED + k: the built-in in function slot fns[1][k] (policies/__init__.py declares which)
NSLOTS = 4          # function slots for built-ins (the tuple's length is part of the loop's type: fixed)
USER = 8            # USER + k: the user function fns[0][k], k = 0..3 (one slot per seat)
NFNS = 4
RAISED = -(1 << 62)  # what act hands the engine when a user's function raised: refused as illegal (run/blame.py)

# what a policy function takes and returns (docs/policies.md, "Your own policy")
POLICY_SIG = types.int64(types.int64[::1], types.int64, types.int64, types.int64, types.int64,
                         types.float64[::1], types.uint64[::1], types.int64[::1])

# what a search bot takes: the public and private state (dd reads every hand; pimc only its own)
SEARCH_SIG = types.int64(types.int64[::1], types.int64[::1], types.int64, types.int64, types.float64[::1],
                         types.uint64[::1], types.int64[::1], types.int64[:, ::1])

# the workspace: rows of one int64 array (a row of a C array is itself C-contiguous,
# so each row goes to the solver and the state machine as the arrays they take),
# its rows declared once in search_layout
from euchresim.policies.search_layout import WS_COLS, WS_ROWS  # noqa: E402


@njit(POLICY_SIG, cache=True, _nrt=False)
def no_policy(st, hand, away, seat, legal, params, rng, tab):
    """The filler of an unused user slot: never called (an id names only filled slots)."""
    return -1


@njit(SEARCH_SIG, cache=True, _nrt=False)
def no_search(st, priv, seat, legal, params, rng, tab, ws):
    """The filler of a search slot no seat uses: never called."""
    return -1


class PolicySlots(tuple):
    """The loop's user slots (``fns[0]``): the tuple numba would make of them, typed without asking it.

    numba types a plain tuple of jitted functions by unifying them, and warns
    each time that first-class functions are experimental.  Declaring the
    type (the one that unification gives: tests/test_user_side_effects.py)
    spares the user's process the warning without a global filter.
    """


class SearchSlots(tuple):
    """The loop's search slots (``fns[1]``), typed as :class:`PolicySlots` is."""


@typeof_impl.register(PolicySlots)
def _typeof_policy_slots(val, c):
    return types.UniTuple(types.FunctionType(POLICY_SIG), len(val))


@typeof_impl.register(SearchSlots)
def _typeof_search_slots(val, c):
    return types.UniTuple(types.FunctionType(SEARCH_SIG), len(val))


def new_workspace():
    return np.zeros((WS_ROWS, WS_COLS), dtype=np.int64)


from euchresim.policies.heuristic import heuristic_decide   # noqa: E402  (it imports the constants above)


@njit(cache=True, _nrt=False, inline='always')
def plain_act(pid, st, priv, seat, legal, params, rng, tab):
    """The action of a built-in inlined into the loop: ``random``, ``baseline``, ``heuristic`` (pid < SLOTTED)."""
    hand = priv[U(HAND + seat)]
    away = priv[U(AWAY + seat)]
    if pid <= BASELINE:
        return builtin_decide(pid, st, hand, away, seat, legal, params, rng, tab)
    return heuristic_decide(st, hand, away, seat, legal, params, tab)


@njit(cache=True, _nrt=False, inline='always')
def act(pid, st, priv, seat, legal, params, rng, tab, ws, fns):
    """The action of ``seat``'s policy ``pid``; only ``dd`` (which cheats, by name) reads ``priv``."""
    if pid < SLOTTED:
        return plain_act(pid, st, priv, seat, legal, params, rng, tab)
    if pid < USER:
        return fns[1][pid - SLOTTED](st, priv, seat, legal, params, rng, tab, ws)
    hand = priv[U(HAND + seat)]
    away = priv[U(AWAY + seat)]
    return user_act(fns[0], pid - USER, st, hand, away, seat, legal, params, rng, tab)


@njit(cache=True, _nrt=False, no_cfunc_wrapper=True)
def user_act(users, k, st, hand, away, seat, legal, params, rng, tab):
    """The action of the user's function ``users[k]``, or RAISED when it raised.

    An exception cannot leave the loop and still say where it was raised: the
    engine refuses RAISED as an illegal move, and run/blame.py asks the
    function again from Python for its message.  A call, not inlined into
    ``act``: the try/except is a tenth of the hot loop's code for numba to
    compile, and only a user's seat comes here.
    """
    a = np.int64(RAISED)
    try:
        a = users[k](st, hand, away, seat, legal, params, rng, tab)
    except Exception:
        a = np.int64(RAISED)
    return a
