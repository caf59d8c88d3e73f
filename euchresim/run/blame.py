"""Which decision of which seat's policy stopped a chunk, found by playing the chunk again.

The jitted loop reports only that a hand failed (and which, for an illegal
move); a policy that raises reports nothing but its exception.  Everything
a chunk does depends on its seed and index alone, so playing it again
reaches the same state: the hands before the failing one in the loop (both
random streams then stand where they stood), and the failing hand one
decision at a time from Python, through the very call the loop makes
(``loops.hands.decide_one``).  That decision gives the seat, the phase,
the action returned and the legal set, or the exception and its message.
This costs a second play of the chunk up to the failure, on the error path only.

A user's function that raises inside the loop returns ``dispatch.RAISED``
there (numba cannot carry the exception out of a compiled loop and still
say where it was), which the engine refuses as an illegal move; played
again here, the function is called once more from Python at that decision,
with the same inputs, and raises its own exception and message.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from euchresim.actions import name as action_name
from euchresim.cards import board_str, card_str
from euchresim.engine.layout import AWAY, GAME_DTYPE, HAND, HAND_DTYPE, PH_DISCARD, PH_DUMMY, PH_PLAY, RUBBER_DTYPE, TALLY_SIZE

RING = 1 << 11        # rows kept while playing a chunk again (a ring: only the last ones matter)


@dataclass(frozen=True)
class FailedDecision:
    """The decision a chunk failed at: whose, which, what came back (an action, or an exception)."""
    seat: int
    phase: int
    legal: int
    action: int | None = None
    error: BaseException | None = None
    where: str = ""            # the file and line that raised, when known (a policy played as plain Python)


def _setup(spec):
    """What play_chunk hands the loop: the tables, the seats' ids, parameter rows and functions, their names."""
    from euchresim.engine.tables import build_tables
    table = spec.policies
    return build_tables(spec.rules), table.pids, table.params, table.functions(), table.names


def _play_to(spec, chunk, stop, tab, pids, params, fns, chunk_states):
    """Play the chunk's hands before row ``stop`` again: the policy stream as it stood at that hand."""
    from euchresim.loops.hands import run_games, run_hands
    n = spec.chunk_count(chunk)
    drng, prng = chunk_states(spec.seed, chunk)
    if spec.mode == "hands":
        rows = np.zeros(max(1, stop) if stop <= RING else RING, HAND_DTYPE)
        run_hands(tab, stop, drng, prng, pids, params, fns, rows, np.zeros((len(rows), 20), np.int8), chunk,
                  np.zeros(TALLY_SIZE, np.int64))
        return prng
    ngames = n if spec.mode == "games" else 0
    nrub = n if spec.mode == "rubbers" else 0
    cap_games = ngames if ngames else 3 * nrub
    # rows for exactly `stop` hands: the loop stops when they are full, before the failing hand
    run_games(tab, ngames, nrub, drng, prng, pids, params, fns, np.zeros(stop, HAND_DTYPE),
              np.zeros((stop, 20), np.int8), np.zeros(cap_games, GAME_DTYPE), np.zeros(nrub, RUBBER_DTYPE), chunk,
              spec.start_scores())
    return prng


def failing_decision(spec, chunk, at: int, row, chunk_states) -> FailedDecision | None:
    """Hand ``at`` (its row ``row``: the deal, the dealer, the score) played again decision by decision.

    ``chunk_states(seed, chunk)`` gives a chunk's two random streams (the runner's, passed in: the
    runner calls this module).

    The first decision whose policy raises or returns an illegal action, or
    None when the hand plays out (the failure was not a policy's).
    """
    from euchresim.engine.state import Hand
    from euchresim.loops.hands import new_workspace, seat_decider
    from euchresim.policies.dispatch import RAISED, USER
    tab, pids, params, fns, _ = _setup(spec)
    prng = _play_to(spec, chunk, at, tab, pids, params, fns, chunk_states)
    h = Hand.of_row(tab, row)
    decide = seat_decider(pids, params, fns, prng, new_workspace())
    while not h.done:
        seat, phase = h.to_act, h.phase
        before = prng.copy()
        a, legal = decide(h)
        if a == RAISED and pids[seat] >= USER:
            fn = fns[0][int(pids[seat]) - USER]
            try:
                fn(h.st, h.priv[HAND + seat], h.priv[AWAY + seat], np.int64(seat), np.int64(legal), params[seat],
                   before, tab)
            except Exception as e:
                return FailedDecision(seat, phase, legal, error=e)
        if h.apply(a, legal):
            return FailedDecision(seat, phase, legal, action=a)
    return None


def _action(phase: int, a: int) -> str:
    if phase == PH_DUMMY:
        try:
            return f"{a} (" + (" ".join(board_str(a)) or "no cards") + ")"
        except Exception:
            return f"{a} (not a board of cards)"
    if phase in (PH_DISCARD, PH_PLAY):
        return card_str(a) if 0 <= a <= 32 else f"{a} (no card)"
    try:
        return f"{a} ({action_name(phase, a)})"        # the words a bot returns (actions.name, column bot)
    except (KeyError, ValueError, IndexError):
        return f"{a} (no such action)"


def _legal(phase: int, legal: int) -> str:
    if phase in (PH_DISCARD, PH_PLAY):
        return "the legal cards: " + " ".join(board_str(legal))
    if phase == PH_DUMMY:
        return "a board of 5 of " + " ".join(board_str(legal))
    return "the legal actions: " + ", ".join(f"{a} ({action_name(phase, a)})" for a in range(8) if (legal >> a) & 1)


def returned(decision: FailedDecision | None) -> str:
    """``it returned X; the legal ...: ...`` for an illegal move's line ('' when it was not found again)."""
    if decision is None or decision.action is None:
        return ""
    return f"it returned {_action(decision.phase, decision.action)}; {_legal(decision.phase, decision.legal)}"


def line(decision: FailedDecision | None, names) -> tuple[str, str, str] | None:
    """(who, what it did, detail) for a failure's one line, or None when the decision was not found again."""
    if decision is None or not 0 <= decision.seat < len(names):
        return None
    who = f"seat {decision.seat}'s policy {names[decision.seat]!r}"
    if decision.error is not None:
        first = next((ln.strip() for ln in str(decision.error).splitlines() if ln.strip()), "")
        return who, f"raised {type(decision.error).__name__}", first + (f" ({decision.where})" if decision.where else "")
    return who, "made an illegal move", \
        f"it returned {_action(decision.phase, decision.action)}; {_legal(decision.phase, decision.legal)}"
