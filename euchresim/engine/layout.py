"""The engine's data layout: state slots, phases, action codes, error codes.

A hand in progress is two int64 arrays:

* ``st`` -- what every seat may see (the upcard, every call, who went alone,
  every card played and by whom, the tricks so far, the game score);
* ``priv`` -- what only some seats know (each hand, the dummy, the kitty, the
  cards each seat put face down).

A policy is handed ``st`` plus its own hand and its own put-away cards, never
``priv``, so it cannot see more than its seat may know.  Everything the
roadmap's solvers and samplers need to replay a hand from any point is in
these two arrays.

Rule options and tables travel in one int64 array ``tab``, built once per run by
``euchresim.tables`` (kernels never read configuration from globals).
"""
import keyword
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Layout:
    """An int64 array's slots declared once: (name, size) pairs in order, offsets computed.

    Writing offsets by hand let two slots overlap and let a slot escape the
    code that resets them; here an offset is the sum of the sizes before
    it.  A name ``""`` is a spare run of slots; a size 0 names a place (the
    end of a part) without taking a slot.  ``size`` is the array's length:
    the fields must fit in it.
    """
    array: str
    size: int
    fields: tuple

    def __post_init__(self):
        names = [n for n, _ in self.fields if n]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.array}: a name declared twice")
        if any(k < 0 for _, k in self.fields) or self.used > self.size:
            raise ValueError(f"{self.array}: {self.used} slots declared, the array has {self.size}")

    @property
    def used(self) -> int:
        return sum(k for _, k in self.fields)

    def offsets(self) -> dict:
        """Each named field's first slot."""
        out, at = {}, 0
        for name, k in self.fields:
            if name:
                out[name] = at
            at += k
        return out

    def span(self, name: str) -> tuple:
        """The field's slots as (first, one past the last)."""
        return self.offsets()[name], self.offsets()[name] + dict(self.fields)[name]

    def slot_names(self) -> list:
        """One entry per slot of the array: the field's name ('' for a spare slot or past the fields)."""
        out = []
        for name, k in self.fields:
            out += [name] * k
        return out + [""] * (self.size - len(out))

    @staticmethod
    def export(namespace: dict, *layouts, prefix: str = "") -> dict:
        """Module-level names for the layouts' offsets: NAME, and NAME_END after a field of several slots.

        Checked, since the names are made, not written: each is a new
        identifier (none declared twice, none already in ``namespace``).
        """
        made: dict = {}
        for lay in layouts:
            for name, at in lay.offsets().items():
                full = prefix + name.upper()
                k = dict(lay.fields)[name]
                entries = {full: at, **({full + "_END": at + k} if k > 1 else {})}
                for key, v in entries.items():
                    if not key.isidentifier() or keyword.iskeyword(key) or key in made or key in namespace:
                        raise ValueError(f"{lay.array}: the name {key} is taken or not a name")
                    made[key] = v
        return made

# ---- phases: one per kind of decision (OpenSpiel style) -------------------
PH_JOKER = 0     # R7: dealer names the joker upcard's suit
PH_BID1 = 1      # R5: pass (0) or order (1)
PH_BID2 = 2      # R6: name suit 0..3, or pass (4)
PH_ALONE = 3     # R8/R9: maker goes alone? 0/1
PH_DEFEND = 4    # R8/R9: defender goes alone? 0/1
PH_DISCARD = 5   # R5: dealer puts one card of hand+upcard away (a card index)
PH_DUMMY = 6     # R9: maker keeps 5 of hand+dummy (a board)
PH_PLAY = 7      # R10: a card index
PH_DONE = 8
# The phases' names, round two's pass and the call codes as stored in st[CALLS+k] and in the hand rows
# (CALL_NONE -1, CALL_PASS 0, CALL_ORDER 1, CALL_SUIT0 2: 2..5 = named C, D, H, S): euchresim.actions
# declares them, beside every action's names
from euchresim.actions import (BID2_PASS, CALL_NONE, CALL_ORDER, CALL_PASS, CALL_SUIT0,  # noqa: E402,F401
                               PHASE_NAMES)

# ---- rule configuration: Tables.cfg ----------------------------------------
CFG = Layout("cfg", 16, (
    ("CFG_PLAYERS", 1),
    ("CFG_DECK", 1),
    ("CFG_PACK", 1),          # board of the pack
    ("CFG_STICK", 1),         # R6 stick the dealer
    ("CFG_DEFEND", 1),        # R8 defend alone
    ("CFG_JOKER_MODE", 1),    # R7: -2 dealer names, -1 redeal, 0..3 fixed suit
    ("CFG_BOTH_LEAD", 1),     # R10: 0 left of lone defender, 1 left of maker
    ("CFG_GAME_TO", 1),       # R12
    ("CFG_TIE", 1),           # R12 Cutthroat tie: 0 maker, 1 higher, 2 shared
    ("CFG_NPACK", 1),         # cards in the pack
))
CFG_SIZE = CFG.size
from euchresim.cards import NO_CARD, NO_KEEP  # noqa: E402,F401  ("none" for a card and a keep: cards.py declares them)
JOKER_DEALER_NAMES = -2
JOKER_REDEAL = -1

# ---- scoring cases (R11): rows of Tables.score -----------------------------
SC_PARTNERSHIP = 0
SC_ALONE = 1
SC_ALONE_VS_DEFENDER = 2
SC_TWO_HAND = 3
SC_CUTTHROAT = 4
SC_CUTTHROAT_DEFENDER = 5

# ---- public state st --------------------------------------------------------
# hand.start_hand resets every slot but the game score (ST_KEEP..ST_KEEP_END),
# so a slot declared here is reset without a change there.
ST = Layout("st", 96, (
    ("DEALER", 1),
    ("UPCARD", 1),          # card index, as in the hand rows, the records and every kernel: one card is an index
    ("JOKER_SUIT", 1),      # -1 unless the upcard is the joker
    ("BIDSUIT", 1),         # the suit round one bids on (turned down in round two)
    ("PHASE", 1),
    ("TO_ACT", 1),
    ("NCALLS", 1),
    ("CALLS", 8),
    ("MAKER", 1),
    ("TRUMP", 1),
    ("ROUND", 1),           # 0 none, 1, 2
    ("ALONE", 1),           # seat mask
    ("OUT", 1),             # seat mask of seats that sit out
    ("EXCHANGED", 1),       # the dealer took the upcard into hand
    ("ASKED", 1),           # defenders asked so far (PH_DEFEND)
    ("FIRST_LEADER", 1),
    ("LEADER", 1),
    ("TRICK", 1),           # tricks completed
    ("NINTRICK", 1),        # cards played to the current trick
    ("LED", 1),             # effective suit led
    ("BEST_SEAT", 1),
    ("BEST_POWER", 1),
    ("NACTIVE", 1),
    ("NPLAYS", 1),
    ("PLAYS", 20),          # card indexes in order
    ("PLAY_SEAT", 20),      # who played each
    ("TRICK_WINNER", 5),
    ("TRICKS", 4),
    ("POINTS", 4),
    ("MAKER_TRICKS", 1),
    ("THROWN_IN", 1),
    ("REDEAL", 1),
    ("ERR", 1),
    ("ERR_ARG", 1),
    ("SCORE", 4),           # game score before this hand, per seat: the caller's, kept by start_hand
))
ST_SIZE = ST.size
ST_KEEP, ST_KEEP_END = ST.span("SCORE")

# ---- private state priv -----------------------------------------------------
PRIV = Layout("priv", 60, (
    ("HAND", 4),            # current hands
    ("DUMMY", 1),
    ("KITTY", 1),           # undealt cards, upcard excluded
    ("AWAY", 4),            # cards each seat put face down
    ("DEAL", 4),            # the hands as dealt
    ("DEAL_DUMMY", 1),
    ("DISCARD", 1),         # the dealer's discard, NO_CARD if none
    ("DUMMY_KEEP", 1),      # board the maker kept, NO_KEEP if the dummy was not used
    ("PRIV_STATE", 0),      # the slots above are the state (start_hand resets them all); below is scratch
    ("", 3),
    # scratch of the all-random trick loop (loops.hands.random_tricks), meaningless
    # outside it: each hand as a list of cards, lowest bit first, so a legal set
    # is a 5-bit mask of positions and a random pick is one table lookup
    ("RT_REM", 4),          # positions not yet played, per seat
    ("RT_SUITS", 4),        # bit 8*suit + position set when that card is of that (effective) suit
    ("RT_CARDS", 32),       # [4 seat][8]: the card at each position
))
PRIV_SIZE = PRIV.size

# ---- error codes (st[ERR]); the runner turns them into messages -------------------
ERR_NONE = 0
ERR_ILLEGAL = 1       # an action not legal in this phase (ERR_ARG = the action)

# replay only: the script did not match the hand
ERR_SCRIPT_SHORT = 10     # no scripted action left for this phase
ERR_SCRIPT_KIND = 11      # e.g. a suit named in round one
ERR_CALLS_EXTRA = 12
ERR_PLAYS_EXTRA = 13
ERR_ALONE_UNASKED = 14    # a seat in `alone` was never allowed to go alone
ERR_DISCARD_UNUSED = 15
ERR_DUMMY_UNUSED = 16
ERR_JOKER_UNUSED = 17
ERR_NOT_HELD = 18


# ---- the flat table array ``tab`` (built by euchresim.engine.tables) -------
# One int64 array rather than a tuple of arrays: numba reference-counts an
# array each time it is taken out of a tuple, which cost 20x in the hot loop.
TAB = Layout("tab", 996, (
    ("T_CFG", CFG.size),      # rule configuration (CFG_*)
    ("T_EFF", 4 * 4),         # [4 trump][4 suit]: board of cards whose suit is `suit` under `trump` (R2)
    ("T_SUIT_OF", 4 * 33),    # [4 trump][33 card]: effective suit of each card
    ("T_POWER", 4 * 4 * 33),  # [4 trump][4 led][33 card]: trick-taking power, 0 = cannot win (R2, R10)
    ("T_ORDER", 4 * 33),      # [4 trump][33 card]: strength ignoring the lead (trumps above all)
    ("T_SCORE", 6 * 6 * 2),   # [6 case][6 maker tricks][2]: makers' / each defender's points (R11)
    ("T_PACK", 36),           # [CFG_NPACK]: card indexes of the pack (33 at most)
    ("T_NEXT", 16 * 4),       # [16 out mask][4 seat]: next seat clockwise that does not sit out (R10)
))
TAB_SIZE = TAB.size

# ---- per-chunk counts (loops.tally writes them, run.runner.tally_names names them)
# Three blocks: fixed slots, one block per seat position relative to the
# dealer (0 = dealer, 1 = the dealer's left), one block per seat.  The
# names are the run's count names; a kernel reads TALLY_<NAME> (an offset in
# its block) and the block's start.
TALLY_FIXED_SLOTS = Layout("tally fixed", 24, (
    ("hands", 1), ("thrown_in", 1), ("redeal", 1),
    ("made", 1), ("made_ok", 1), ("euchred", 1), ("march", 1), ("maker_alone", 1),
    ("defender_alone", 1), ("alone_made_ok", 1), ("alone_march", 1), ("alone_euchred", 1),
    ("maker_points", 1), ("maker_points_sq", 1), ("defender_points", 1), ("defender_points_sq", 1),
    ("dealer_edge", 1), ("dealer_edge_sq", 1),      # players x the dealer's points less all seats'
    ("side_diff", 1), ("side_diff_sq", 1),          # seat 0's points less seat 1's (2 and 4 players)
))
TALLY_POS_SLOTS = Layout("tally by position", 8, (
    ("made_r1_pos", 1), ("made_r2_pos", 1), ("made_ok_pos", 1), ("made_pos", 1),
    ("points_pos", 1), ("points_sq_pos", 1),
))
TALLY_SEAT_SLOTS = Layout("tally by seat", 8, (
    ("made_seat", 1), ("made_ok_seat", 1), ("euchred_seat", 1), ("march_seat", 1), ("alone_seat", 1),
    ("points_seat", 1), ("points_sq_seat", 1),
))
TALLY = Layout("tally", 88, (
    ("TALLY_FIXED", TALLY_FIXED_SLOTS.size),
    ("TALLY_POS", 4 * TALLY_POS_SLOTS.size),
    ("TALLY_SEAT", 4 * TALLY_SEAT_SLOTS.size),
))
TALLY_SIZE = TALLY.size
TALLY_POS_STRIDE = TALLY_POS_SLOTS.size
TALLY_SEAT_STRIDE = TALLY_SEAT_SLOTS.size

# Every declared name as a plain module-level int: numba reads a global int
# as a compile-time constant.  The update is checked (Layout.export): no
# name twice, none shadowing a name written out above.
globals().update(Layout.export(globals(), CFG, ST, PRIV, TAB, TALLY, prefix=""))
globals().update(Layout.export(globals(), TALLY_FIXED_SLOTS, TALLY_POS_SLOTS, TALLY_SEAT_SLOTS, prefix="TALLY_"))

# ---- the double-dummy solver's rows (engine/solver.py) -------------------------
TT_BITS = 12
TT_SIZE = 1 << TT_BITS
SOLVER_WS = Layout("solver workspace", 144 + 2 * TT_SIZE, (
    ("hand", 4),            # the hands, normalised (the search indexes them by seat)
    ("next", 4),            # the next seat clockwise that plays (R10)
    ("makers", 1),          # seat mask of the makers' side, seats that play only
    ("nact", 1),            # seats that play
    ("nodes", 1),           # searches entered in this solve
    ("stamp", 1),           # solves so far: a table entry of an earlier solve is stale
    ("", 68),
    ("cval", 64),           # per normalised bit, the value after playing it (root only)
    ("tt", 2 * TT_SIZE),    # the transposition table: TT_SIZE entries of (key, stamp|upper|lower)
))
SOLVER_POS = Layout("solver position", 16, (     # a position row (the batch's input)
    ("trump", 1),           # 0..3 = C D H S
    ("hand", 4),            # each seat's cards now (boards as in cards.py); seats that sit out ignored
    ("seat", 1),            # the seat to play
    ("ntable", 1),          # cards already played to the current trick (0..3)
    ("tcard", 3),           # their card indexes, in the order played
    ("tseat", 3),           # the seats that played them
    ("makers", 1),          # seat mask of the makers' side (4 players: the maker and partner)
    ("out", 1),             # seat mask of the seats that sit out (R8, R9)
    ("mtricks", 1),         # tricks the makers already took
))
SOLVER_RES = Layout("solver result", 12, (
    ("value", 1),           # the makers' final tricks, or with MODE_CLASS the class 0/1/2
    ("nodes", 1),           # searches entered (how hard the position was)
    ("card", 5),            # the seat to play's cards, lowest card index first, -1 after the last
    ("cval", 5),            # with MODE_CARDS each card's value (as R_VALUE), -1 if it may not be played
))
globals().update(Layout.export(globals(), SOLVER_WS, prefix="W_"))
globals().update(Layout.export(globals(), SOLVER_POS, prefix="P_"))
globals().update(Layout.export(globals(), SOLVER_RES, prefix="R_"))
WS_SIZE = SOLVER_WS.size
POS_SIZE = SOLVER_POS.size
RES_SIZE = SOLVER_RES.size

# ---- one row per hand --------------------------------------------------------
HAND_FIELDS = [
    ("chunk", np.int32), ("index", np.int64), ("game", np.int64), ("rubber", np.int64),
    ("dealer", np.int8),
    ("hand0", np.int64), ("hand1", np.int64), ("hand2", np.int64), ("hand3", np.int64),
    ("dummy", np.int64), ("upcard", np.int8), ("kitty", np.int64), ("joker_suit", np.int8),
    ("n_calls", np.int8),
] + [(f"call{k}", np.int8) for k in range(1, 9)] + [
    ("maker", np.int8), ("maker_pos", np.int8), ("make_round", np.int8), ("trump", np.int8),
    ("alone", np.int8), ("out", np.int8), ("maker_alone", np.bool_), ("defender_alone", np.bool_),
    ("discard", np.int8), ("dummy_keep", np.int64), ("leader", np.int8),
] + [(f"trick{k}", np.int8) for k in range(1, 6)] + [
    ("tricks0", np.int8), ("tricks1", np.int8), ("tricks2", np.int8), ("tricks3", np.int8),
    ("points0", np.int8), ("points1", np.int8), ("points2", np.int8), ("points3", np.int8),
    ("maker_tricks", np.int8), ("euchred", np.bool_), ("march", np.bool_),
    ("thrown_in", np.bool_), ("redeal", np.bool_),
    ("score0", np.int16), ("score1", np.int16), ("score2", np.int16), ("score3", np.int16),
]
HAND_DTYPE = np.dtype(HAND_FIELDS)

GAME_FIELDS = [
    ("chunk", np.int32), ("game", np.int64), ("rubber", np.int64), ("first_dealer", np.int8),
    ("hands", np.int32),
    ("score0", np.int16), ("score1", np.int16), ("score2", np.int16), ("score3", np.int16),
    ("winners", np.int8),      # seat mask; two seats in a shared Cutthroat win, partners in 4-hand
    ("bridge", np.bool_),      # R12: a side was at the bridge (4 to 2 or less) in a 5-point game
]
GAME_DTYPE = np.dtype(GAME_FIELDS)

RUBBER_FIELDS = [
    ("chunk", np.int32), ("rubber", np.int64), ("games", np.int8), ("winner_side", np.int8),
    ("winner_points", np.int8), ("loser_points", np.int8), ("margin", np.int8),
]
RUBBER_DTYPE = np.dtype(RUBBER_FIELDS)

# what ``from euchresim.engine.layout import *`` gives: every name above, made or written
__all__ = tuple(n for n in globals() if not n.startswith("_") and n not in ("keyword", "dataclass", "np"))
