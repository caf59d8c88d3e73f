"""One hand of the engine, stepped from Python: the one place Python code meets the state machine.

The jitted loops (loops/hands.py for play, loops/replay_kernels.py for checking
records by the million) step the state arrays inside compiled code. Every
piece of Python that walks a hand a decision at a time -- a chunk with a
Python seat (loops/slow.py), the decision that broke a chunk (run/blame.py),
a record told as a story (studies/record_text.py), an OpenSpiel state mirrored
(interop/openspiel.py), the positions the benchmark times -- goes through
``HandState``: it owns the two state arrays and calls the same kernels the
loops inline, so what Python sees is what the loops do.

Actions are the engine's codes (docs/policies.md, "Actions"): a card index
to play or to put away, 0/1 for pass/order and for no/yes to alone, a
suit or ``BID2_PASS`` in round two, a five-card board for the Cutthroat
keep. ``legal()`` is the engine's mask of them.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from euchresim.engine.deal import deal
from euchresim.engine.hand import apply_legal, legal_actions, start_hand
from euchresim.engine.layout import AWAY, ERR, HAND, PH_DONE, PH_DUMMY, PHASE, PRIV_SIZE, SCORE, ST_SIZE, TO_ACT
from euchresim.loops.hands import decide_one


@njit(cache=True, _nrt=False)
def _begin(tab, work, drng, hands, st, priv, dealer):
    """Deal from the stream and open the bidding: the hot loop's first two steps, in one call."""
    dummy, upcard, kitty = deal(tab, work, drng, hands)
    start_hand(st, priv, tab, dealer, hands, dummy, upcard, kitty)


@njit(cache=True, _nrt=False)
def _legal(st, priv, tab):
    return legal_actions(st, priv, tab)


@njit(cache=True, _nrt=False)
def _apply(st, priv, tab, a, legal):
    return apply_legal(st, priv, tab, a, legal)


class HandState:
    """A hand in the engine's state arrays (``st`` public, ``priv`` private), a decision at a time.

    ``to_act`` and ``phase`` say whose decision it is and which; ``legal()``
    gives the actions the rules allow, ``apply(a)`` takes one (``False``
    when the engine accepts it, ``True`` when it refuses it, its code then
    in ``error``); ``done`` once the hand is scored.
    """

    __slots__ = ("tab", "st", "priv")

    def __init__(self, tab, st=None, priv=None):
        self.tab = tab
        self.st = np.zeros(ST_SIZE, np.int64) if st is None else st
        self.priv = np.zeros(PRIV_SIZE, np.int64) if priv is None else priv

    # ---- how a hand starts
    @classmethod
    def dealt(cls, tab, dealer, hands, dummy, upcard, kitty, scores=None) -> "HandState":
        """The bidding opened on a given deal (``hands`` a board per seat, 4 of them)."""
        h = cls(tab)
        if scores is not None:
            h.st[SCORE:SCORE + len(scores)] = scores
        start_hand(h.st, h.priv, tab, np.int64(dealer), np.asarray(hands, np.int64), np.int64(dummy),
                   np.int64(upcard), np.int64(kitty))
        return h

    @classmethod
    def of_row(cls, tab, row) -> "HandState":
        """The deal of a hand row (its dealt hands, dummy, upcard, kitty and the score it was dealt at)."""
        return cls.dealt(tab, int(row["dealer"]), [int(row[f"hand{s}"]) for s in range(4)], int(row["dummy"]),
                         int(row["upcard"]), int(row["kitty"]), [int(row[f"score{s}"]) for s in range(4)])

    @classmethod
    def of_record(cls, rec, tab) -> "HandState":
        """The deal of a hand record (``records.format.Record``)."""
        hands = tuple(rec.hands) + (0,) * (4 - rec.rules.players)
        return cls.dealt(tab, rec.dealer, hands, rec.dummy, rec.upcard, rec.kitty)

    def deal_next(self, work, drng, hands, dealer) -> None:
        """Deal the next hand from the deal stream ``drng`` (the hot loop's deal, in its order)."""
        _begin(self.tab, work, drng, hands, self.st, self.priv, np.int64(dealer))

    # ---- where it stands
    @property
    def to_act(self) -> int:
        return int(self.st[TO_ACT])

    @property
    def phase(self) -> int:
        return int(self.st[PHASE])

    @property
    def done(self) -> bool:
        return self.st[PHASE] == PH_DONE

    @property
    def error(self) -> int:
        """The engine's code for the last refused action (engine/layout.py ERR_*), 0 if none."""
        return int(self.st[ERR])

    def hand_of(self, seat: int) -> int:
        """The seat's cards now (a board)."""
        return int(self.priv[HAND + seat])

    def away_of(self, seat: int) -> int:
        """The cards the seat has put away (a board): its discard, the dummy's rejects."""
        return int(self.priv[AWAY + seat])

    # ---- a step
    def legal(self) -> int:
        """The mask of legal actions (bit ``a`` set: action ``a`` is legal; the keep's cards in PH_DUMMY)."""
        return int(_legal(self.st, self.priv, self.tab))

    def legal_list(self) -> list[int]:
        """The legal actions, lowest code first (the keep, a choice of five cards, has no such list)."""
        if self.st[PHASE] == PH_DUMMY:
            raise ValueError("the Cutthroat keep is five of the legal cards, not one action of a list")
        m = self.legal()
        return [a for a in range(m.bit_length()) if (m >> a) & 1]

    def apply(self, a, legal=None) -> bool:
        """Take action ``a`` (``legal``: the mask if already asked); True when the engine refuses it."""
        mask = self.legal() if legal is None else legal
        return bool(_apply(self.st, self.priv, self.tab, np.int64(a), np.int64(mask)))

    def decide(self, pids, params, fns, prng, ws):
        """The action the seat to act's policy takes here, and the legal mask: the hot loop's very call."""
        a, legal = decide_one(self.st, self.priv, self.tab, pids, params, fns, prng, ws)
        return int(a), int(legal)

    def copy(self) -> "HandState":
        return HandState(self.tab, self.st.copy(), self.priv.copy())
