"""One hand of the engine, stepped from Python: the game's Python face, as OpenSpiel's ``State`` is.

The jitted loops (loops/hands.py for play, loops/replay_kernels.py for checking
records by the million) step the state arrays inside compiled code. Every
piece of Python that walks a hand a decision at a time -- the practice
table's bots and player (play/table.py), a chunk with a Python seat
(loops/slow.py), the decision that broke a chunk (run/blame.py), a record
told as a story (studies/record_text.py), an OpenSpiel state mirrored
(interop/openspiel.py), the positions the benchmark times -- goes through
``Hand``: it owns the two state arrays and calls the same kernels the loops
inline, so what Python sees is what the loops do.

Actions are the engine's codes (docs/policies.md, "Actions"): a card index
to play or to put away, 0/1 for pass/order and for no/yes to alone, a
suit or ``BID2_PASS`` in round two, a five-card board for the Cutthroat
keep. ``legal()`` is the engine's mask of them.

The engine decides nothing: ``play_out`` takes the deciding as a callable
(``loops.hands.seat_decider`` gives the seats' policies as one), so this
module imports nothing above the engine.
"""
from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np
from numba import njit

from euchresim.actions import name as action_word
from euchresim.cards import NO_CARD, NO_KEEP
from euchresim.engine.deal import deal
from euchresim.engine.hand import apply_legal, legal_actions, scripted_action, start_hand
from euchresim.engine.layout import (ALONE, AWAY, CALLS, CFG_PLAYERS, DEAL, DEAL_DUMMY, DEALER, DISCARD, DUMMY_KEEP,
                                     ERR, ERR_SCRIPT_KIND, HAND, JOKER_SUIT, KITTY, MAKER, NCALLS, NPLAYS, PH_BID1,
                                     PH_BID2, PH_DISCARD, PH_DONE, PH_DUMMY, PH_JOKER, PHASE, PLAYS, POINTS,
                                     PRIV_SIZE, SCORE, ST_SIZE, TO_ACT, TRICK_WINNER, TRICKS, TRUMP, UPCARD)
from euchresim.records.format import Record, RecordError


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


class Step(NamedTuple):
    """One decision of a record as ``Hand.steps`` meets it, before it is taken.

    ``step`` counts the decisions before it; ``calls`` and ``plays`` how
    much of the record's ``calls`` and ``plays`` precede it (the record
    prefix that leads here); ``code`` the action as ``Hand.apply`` takes it.
    """

    step: int
    seat: int
    phase: int
    code: int
    calls: int
    plays: int


Decide = Callable[["Hand"], "int | tuple[int, int]"]


class Hand:
    """A hand in the engine's state arrays (``st`` public, ``priv`` private), a decision at a time.

    ``to_act`` and ``phase`` say whose decision it is and which; ``legal()``
    gives the actions the rules allow, ``apply(a)`` takes one (``False``
    when the engine accepts it, ``True`` when it refuses it, its code then
    in ``error``); ``done`` once the hand is scored, ``returns()`` then
    the points each seat shows.
    """

    __slots__ = ("tab", "st", "priv")

    def __init__(self, tab, st=None, priv=None):
        self.tab = tab
        self.st = np.zeros(ST_SIZE, np.int64) if st is None else st
        self.priv = np.zeros(PRIV_SIZE, np.int64) if priv is None else priv

    # ---- how a hand starts
    @classmethod
    def dealt(cls, tab, dealer, hands, dummy, upcard, kitty, scores=None) -> "Hand":
        """The bidding opened on a given deal (``hands`` a board per seat, 4 of them)."""
        h = cls(tab)
        if scores is not None:
            h.st[SCORE:SCORE + len(scores)] = scores
        start_hand(h.st, h.priv, tab, np.int64(dealer), np.asarray(hands, np.int64), np.int64(dummy),
                   np.int64(upcard), np.int64(kitty))
        return h

    @classmethod
    def of_row(cls, tab, row) -> "Hand":
        """The deal of a hand row (its dealt hands, dummy, upcard, kitty and the score it was dealt at)."""
        return cls.dealt(tab, int(row["dealer"]), [int(row[f"hand{s}"]) for s in range(4)], int(row["dummy"]),
                         int(row["upcard"]), int(row["kitty"]), [int(row[f"score{s}"]) for s in range(4)])

    @classmethod
    def of_record(cls, rec: Record, tab) -> "Hand":
        """The deal of a hand record (``records.format.Record``), before its first decision."""
        hands = tuple(rec.hands) + (0,) * (4 - rec.rules.players)
        return cls.dealt(tab, rec.dealer, hands, rec.dummy, rec.upcard, rec.kitty)

    def deal_next(self, work, drng, hands, dealer) -> None:
        """Deal the next hand from the deal stream ``drng`` (the hot loop's deal, in its order)."""
        _begin(self.tab, work, drng, hands, self.st, self.priv, np.int64(dealer))

    # ---- where it stands
    @property
    def players(self) -> int:
        return int(self.tab[CFG_PLAYERS])

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

    def returns(self) -> list[int]:
        """The points each seat shows once the hand is scored (R11, C6): both partners their side's with
        4 players, each defender the defenders' with 3; all 0 for a hand thrown in or redealt."""
        return [int(p) for p in self.st[POINTS:POINTS + self.players]]

    def action_name(self, a: int, column: str = "record") -> str:
        """Action ``a`` of the decision now in a column of ``euchresim.actions`` (record, bot, said, advice)."""
        return action_word(self.phase, a, column, self.players, dealer=self.to_act == int(self.st[DEALER]))

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

    def copy(self) -> "Hand":
        return Hand(self.tab, self.st.copy(), self.priv.copy())

    # ---- many steps
    def play_out(self, decide: Decide, until: Callable[["Hand"], bool] | None = None) -> int:
        """Take ``decide(self)``'s action at each decision until the hand is done or ``until(self)`` holds.

        ``decide`` returns the action, or (action, legal mask) when it
        asked the mask already (``loops.hands.seat_decider``, the hot loop's
        call). The number of decisions taken; a RuntimeError names the seat
        whose action the engine refused.
        """
        n = 0
        while not self.done and (until is None or not until(self)):
            got = decide(self)
            a, legal = got if isinstance(got, tuple) else (got, None)
            if self.apply(a, legal):
                raise RuntimeError(f"the engine refused seat {self.to_act}'s action {a} (error {self.error})")
            n += 1
        return n

    def scripted(self, rec: Record, calls: int, plays: int) -> int:
        """The action record ``rec`` says the seat to act takes now, ``calls`` and ``plays`` of it taken.

        Read by the kernels' one reading of a record (``engine.hand.scripted_action``), so Python tells
        the hand the replay checks; a RecordError when the record has no action for this decision.
        """
        return self._scripted(rec, calls, plays)[0]

    def _scripted(self, rec: Record, calls: int, plays: int) -> tuple[int, int, int]:
        """``scripted``'s action and the record's calls and plays used once it is taken."""
        ph = self.phase
        a, _, ci, pi = scripted_action(
            np.int64(ph), np.int64(self.to_act), np.int64(-1),      # a card not held: the engine refuses it
            np.int64(-1 if rec.joker_suit is None else rec.joker_suit), np.asarray(rec.calls, np.int64),
            np.int64(sum(1 << s for s in rec.alone)), np.int64(NO_CARD if rec.discard is None else rec.discard),
            np.int64(NO_KEEP if rec.dummy_keep is None else rec.dummy_keep), np.asarray(rec.plays, np.int64),
            np.int64(calls), np.int64(plays))
        if a >= 0:
            return int(a), int(ci), int(pi)
        if a == -ERR_SCRIPT_KIND:
            raise RecordError(f"calls[{calls}]: call {rec.calls[calls]} is not one of round {ph} (C9)")
        if ph in (PH_BID1, PH_BID2):
            raise RecordError(f"calls: the record ends after {calls} calls, before the bidding does")
        what = {PH_JOKER: "joker_suit", PH_DISCARD: "discard", PH_DUMMY: "dummy_keep"}.get(ph)
        if what is not None:
            raise RecordError(f"{what}: the record has none, and the hand asks for it")
        raise RecordError(f"plays: the record ends after {plays} plays, before the hand does")

    def steps(self, rec: Record):
        """Walk record ``rec`` from this hand (its deal, ``Hand.of_record``): a ``Step`` for each decision,
        yielded before its action is taken, the action taken when the caller asks for the next.

        A RecordError when the record runs out or the engine refuses one of
        its actions (``loops.record_steps.replay`` says why in the record's
        words; a record that replays walks here to the end).
        """
        ci = pi = k = 0
        while not self.done:
            ph, seat = self.phase, self.to_act
            code, ci_next, pi_next = self._scripted(rec, ci, pi)
            yield Step(k, seat, ph, code, ci, pi)
            if self.apply(code):
                raise RecordError(f"the engine refused {self.action_name(code)!r} from seat {seat} at step {k} "
                                  f"(error {self.error})")
            ci, pi = ci_next, pi_next
            k += 1

    def replay(self, rec: Record) -> "Hand":
        """Take every action of record ``rec`` (``steps`` without a look at each); this hand, for chaining."""
        for _ in self.steps(rec):
            pass
        return self

    # ---- the hand as a record
    def record(self, rules, game: int | None = None) -> Record:
        """The hand so far as a hand record of ``rules`` (docs/hand-record.md), with its game and score."""
        st, priv, players = self.st, self.priv, rules.players
        return Record(
            rules=rules, dealer=int(st[DEALER]), hands=tuple(int(priv[DEAL + s]) for s in range(players)),
            dummy=int(priv[DEAL_DUMMY]), upcard=int(st[UPCARD]), kitty=int(priv[KITTY]),
            joker_suit=None if st[JOKER_SUIT] < 0 else int(st[JOKER_SUIT]),
            calls=tuple(int(c) for c in st[CALLS:CALLS + st[NCALLS]]),
            alone=tuple(s for s in range(players) if (int(st[ALONE]) >> s) & 1),
            discard=None if priv[DISCARD] == NO_CARD else int(priv[DISCARD]),
            dummy_keep=None if priv[DUMMY_KEEP] == NO_KEEP else int(priv[DUMMY_KEEP]),
            plays=tuple(int(c) for c in st[PLAYS:PLAYS + st[NPLAYS]]),
            game=game, score=tuple(int(x) for x in st[SCORE:SCORE + players]))

    def outcome(self) -> dict:
        """The record's outcome fields of the scored hand (maker, trump, trick winners, tricks, points)."""
        st, players = self.st, self.players
        maker = int(st[MAKER])
        return {"maker": None if maker < 0 else maker, "trump": None if st[TRUMP] < 0 else int(st[TRUMP]),
                "trick_winners": [int(w) for w in st[TRICK_WINNER:TRICK_WINNER + 5] if w >= 0],
                "tricks": [int(t) for t in st[TRICKS:TRICKS + players]], "points": self.returns()}
