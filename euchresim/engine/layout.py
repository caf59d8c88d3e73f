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
import numpy as np

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
PHASE_NAMES = ("joker_suit", "bid1", "bid2", "alone", "defend_alone", "discard", "dummy_keep", "play", "done")

BID2_PASS = 4

# call codes as stored in st[CALLS+k] and in the hand rows
CALL_NONE = -1
CALL_PASS = 0
CALL_ORDER = 1
CALL_SUIT0 = 2   # 2..5 = named C, D, H, S

# ---- rule configuration: Tables.cfg ----------------------------------------
CFG_PLAYERS = 0
CFG_DECK = 1
CFG_PACK = 2          # board of the pack
CFG_STICK = 3         # R6 stick the dealer
CFG_DEFEND = 4        # R8 defend alone
CFG_JOKER_MODE = 5    # R7: -2 dealer names, -1 redeal, 0..3 fixed suit
CFG_BOTH_LEAD = 6     # R10: 0 left of lone defender, 1 left of maker
CFG_GAME_TO = 7       # R12
CFG_TIE = 8           # R12 Cutthroat tie: 0 maker, 1 higher, 2 shared
CFG_NPACK = 9         # cards in the pack
CFG_SIZE = 16
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
DEALER = 0
UPCARD = 1
JOKER_SUIT = 2      # -1 unless the upcard is the joker
BIDSUIT = 3         # the suit round one bids on (turned down in round two)
PHASE = 4
TO_ACT = 5
NCALLS = 6
CALLS = 7           # 8 slots
MAKER = 15
TRUMP = 16
ROUND = 17          # 0 none, 1, 2
ALONE = 18          # seat mask
OUT = 19            # seat mask of seats that sit out
EXCHANGED = 20      # the dealer took the upcard into hand
ASKED = 21          # defenders asked so far (PH_DEFEND)
FIRST_LEADER = 22
LEADER = 23
TRICK = 24          # tricks completed
NINTRICK = 25       # cards played to the current trick
LED = 26            # effective suit led
BEST_SEAT = 27
BEST_POWER = 28
NACTIVE = 29
NPLAYS = 30
PLAYS = 31          # 20 slots: card indexes in order
PLAY_SEAT = 51      # 20 slots: who played each
TRICK_WINNER = 71   # 5 slots
TRICKS = 76         # 4 slots
POINTS = 80         # 4 slots
MAKER_TRICKS = 84
THROWN_IN = 85
REDEAL = 86
ERR = 87
ERR_ARG = 88
SCORE = 89          # 4 slots: game score before this hand, per seat
ST_SIZE = 96

# ---- private state priv -----------------------------------------------------
HAND = 0            # 4 slots: current hands
DUMMY = 4
KITTY = 5           # undealt cards, upcard excluded
AWAY = 6            # 4 slots: cards each seat put face down
DEAL = 10           # 4 slots: the hands as dealt
DEAL_DUMMY = 14
DISCARD = 15        # the dealer's discard, -1 if none
DUMMY_KEEP = 16     # board the maker kept, 0 if the dummy was not used
PRIV_STATE = 17     # the slots above are the state; those below are scratch
# scratch of the all-random trick loop (loops.hands.random_tricks), meaningless
# outside it: each hand as a list of cards, lowest bit first, so a legal set
# is a 5-bit mask of positions and a random pick is one table lookup
RT_REM = 20         # 4 slots: positions not yet played, per seat
RT_SUITS = 24       # 4 slots: bit 8*suit + position set when that card is of that (effective) suit
RT_CARDS = 28       # [4 seat][8]: the card at each position
PRIV_SIZE = 60

# ---- error codes (st[ERR]); sim turns them into messages -------------------
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


# ---- the flat table array ``tab`` (built by euchresim.tables) --------------
# One int64 array rather than a tuple of arrays: numba reference-counts an
# array each time it is taken out of a tuple, which cost 20x in the hot loop.
T_CFG = 0          # CFG_SIZE slots of rule configuration (CFG_*)
T_EFF = 16         # [4 trump][4 suit]: board of cards whose suit is `suit` under `trump` (R2)
T_SUIT_OF = 32     # [4 trump][33 card]: effective suit of each card
T_POWER = 164      # [4 trump][4 led][33 card]: trick-taking power, 0 = cannot win (R2, R10)
T_ORDER = 692      # [4 trump][33 card]: strength ignoring the lead (trumps above all)
T_SCORE = 824      # [6 case][6 maker tricks][2]: makers' / each defender's points (R11)
T_PACK = 896       # [CFG_NPACK]: card indexes of the pack
T_NEXT = 932       # [16 out mask][4 seat]: next seat clockwise that does not sit out (R10)
TAB_SIZE = 996


# per-chunk counts (names in run.runner.tally_names): 24 fixed slots, then 8 per seat
# position relative to the dealer, then 8 per seat
TALLY_POS = 24
TALLY_SEAT = 56
TALLY_SIZE = 88

# ---- one row per hand --------------------------------------------------------
HAND_FIELDS = [
    ("chunk", np.int32), ("index", np.int64), ("game", np.int64), ("rubber", np.int64),
    ("dealer", np.int8),
    ("hand0", np.int64), ("hand1", np.int64), ("hand2", np.int64), ("hand3", np.int64),
    ("dummy", np.int64), ("upcard", np.int64), ("kitty", np.int64), ("joker_suit", np.int8),
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
