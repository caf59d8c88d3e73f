"""One entry point for every policy: built-in, search bots, and users' own.

The driver calls ``act`` for each decision.  Built-in policies are integer
ids (so a sweep over them or over their parameter rows compiles nothing);
a user's policy is a jitted function passed in ``fns``, a tuple of four
first-class functions of one signature (``POLICY_SIG``), so the driver is
compiled, and cached, once for any user code: seats whose id is
``USER + k`` call ``fns[k]``.  Seats without a user policy hold
``no_policy``, which is never called.

``ws`` is the chunk's workspace for the search bots (the solver's table
and the sampler's scratch), made once per chunk by the driver.
"""
import numpy as np
from numba import njit, types

from ..engine import solver as S
from ..engine.bits import U
from ..engine.layout import AWAY, HAND
from .builtin import decide as builtin_decide

RANDOM = 0
BASELINE = 1
HEURISTIC = 2
DD = 3
PIMC = 4
USER = 8            # USER + k: the user function fns[k], k = 0..3 (one slot per seat)
NFNS = 4

# what a policy function takes and returns (docs/policies.md, "Your own policy")
POLICY_SIG = types.int64(types.int64[::1], types.int64, types.int64, types.int64, types.int64,
                         types.float64[::1], types.uint64[::1], types.int64[::1])

# the workspace: rows of one int64 array (a row of a C array is itself C-contiguous,
# so each row goes to the solver and the state machine as the arrays they take)
WS_ROWS = 8
WS_COLS = S.WS_SIZE


@njit(POLICY_SIG, cache=True, _nrt=False)
def no_policy(st, hand, away, seat, legal, params, rng, tab):
    """The filler of an unused user slot: never called (an id names only filled slots)."""
    return -1


def new_workspace():
    return np.zeros((WS_ROWS, WS_COLS), dtype=np.int64)


from .dd import dd_decide                # noqa: E402  (they import the constants above)
from .heuristic import heuristic_decide  # noqa: E402
from .pimc import pimc_decide            # noqa: E402


@njit(cache=True, _nrt=False, inline='always')
def act(pid, st, priv, seat, legal, params, rng, tab, ws, fns):
    """The action of ``seat``'s policy ``pid``; only ``dd`` (which cheats, by name) reads ``priv``."""
    hand = priv[U(HAND + seat)]
    away = priv[U(AWAY + seat)]
    if pid <= BASELINE:
        return builtin_decide(pid, st, hand, away, seat, legal, params, rng, tab)
    if pid == HEURISTIC:
        return heuristic_decide(st, hand, away, seat, legal, params, tab)
    if pid == DD:
        return dd_decide(st, priv, seat, legal, params, rng, tab, ws)
    if pid == PIMC:
        return pimc_decide(st, hand, away, seat, legal, params, rng, tab, ws)
    return fns[pid - USER](st, hand, away, seat, legal, params, rng, tab)
