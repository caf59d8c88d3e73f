"""The search bots' parameters and workspace rows, declared once: search, values and the sampler read them here.

``pimc`` and ``dd`` take heuristic's parameters (their rollouts and
inference call as heuristic) and their own after them in the same row;
their scratch lives in the chunk's workspace ``ws``
(``dispatch.new_workspace``), one int64 row per use, so nothing is
allocated during a search.
"""
from euchresim.engine.layout import WS_SIZE
from euchresim.engine.layout import Layout
from euchresim.policies.heuristic_params import HEURISTIC_PARAMS
from euchresim.policies.params import declare, defaults_row, param, slot_of

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
    param("play_infer", 0.0, 0.0, 1000.0,
          "pimc: candidate deals per world, one kept with chance by how likely heuristic (softened by infer_eps) "
          "made the calls and plays seen in it (0: off; on, it replaces infer)"),
    param("infer_eps", 0.1, 0.001, 0.999,
          "play_infer: the chance a seat strays from heuristic's choice (split among its other legal options)"),
    param("postpone", 0.0, 0.0, 1.0,
          "1: value an option at the seat's next turn, its next card one choice over the worlds that show it the "
          "same (EPIMC, one turn deep); 0: solved from the option on (PIMC)"),
    param("alone_by", 0.0, 0.0, 2.0,
          "how the alone and defend-alone decisions are made: search (the rollouts solved, as every call), "
          "heuristic (heuristic's thresholds), fair (rollouts played out by heuristic at every seat)",
          names=("search", "heuristic", "fair")),
), "pimc", first=len(HEURISTIC_PARAMS))
S_WORLDS = slot_of(SEARCH_PARAMS, "worlds")
S_BID_WORLDS = slot_of(SEARCH_PARAMS, "bid_worlds")
S_SEARCH_BIDS = slot_of(SEARCH_PARAMS, "search_bids")
S_INFER = slot_of(SEARCH_PARAMS, "infer")
S_FAIR_BIDS = slot_of(SEARCH_PARAMS, "fair_bids")
S_OBJECTIVE = slot_of(SEARCH_PARAMS, "objective")
S_MAX_WORLDS = slot_of(SEARCH_PARAMS, "max_worlds")
S_PLAY_INFER = slot_of(SEARCH_PARAMS, "play_infer")
S_INFER_EPS = slot_of(SEARCH_PARAMS, "infer_eps")
S_POSTPONE = slot_of(SEARCH_PARAMS, "postpone")
S_ALONE_BY = slot_of(SEARCH_PARAMS, "alone_by")
PIMC_PARAMS = SEARCH_PARAMS[:2] + SEARCH_PARAMS[3:4] + SEARCH_PARAMS[2:3] + SEARCH_PARAMS[4:] + HEURISTIC_PARAMS
# dd samples no worlds and plays every card double-dummy: of pimc's own, search_bids and objective; of
# heuristic's, all but its card play (declared, they would be settings that change nothing)
DD_PARAMS = SEARCH_PARAMS[2:3] + SEARCH_PARAMS[5:6] + tuple(p for p in HEURISTIC_PARAMS
                                                          if p.name not in ("lead_trump", "through"))
PIMC_DEFAULTS = defaults_row(PIMC_PARAMS)

# the chunk's workspace: one int64 row per use (WR_*), each row as wide as the solver's workspace
WS_COLS = WS_SIZE
ROWS = Layout("workspace rows", 10, (
    ("solver", 1),          # the solver's own workspace
    ("st", 1),              # a rollout's copy of the public state
    ("priv", 1),            # a rollout's copy of the private state
    ("pos", 1),             # a solver position (P_*)
    ("res", 1),             # a solver result (R_*)
    ("world", 1),           # a sampled world's private state (pimc)
    ("val", 1),             # sums per action, and the points per makers' trick count (V_*)
    ("st2", 1),             # scratch public state (points per trick count)
    ("cand", 1),            # a candidate world, weighed before it may take WR_WORLD's place (play_infer)
    ("groups", 1),          # postpone: per option, the worlds grouped by what the seat sees by its next turn (G_*)
))
WS_ROWS = ROWS.used
# WR_VAL's slots
VALUES = Layout("WR_VAL", WS_COLS, (
    ("pts", 6),             # the deciding seat's points when the makers end with k tricks
    ("", 2),
    ("sum", 40),            # the sum over worlds of action k's points
    ("n", 40),              # worlds in which action k was valued
    ("sq", 40),             # the sum over worlds of action k's squared points (for max_worlds)
))
# WR_GROUPS: G_OPTIONS regions, one per option, each its counts then G_MAX groups of GROUP's slots
G_OPTIONS = 12              # options a decision may have (a dealer's discard has six)
G_REGION = WS_COLS // G_OPTIONS
REGION = Layout("a WR_GROUPS region", G_REGION, (
    ("count", 1),           # groups so far
    ("direct", 1),          # the summed points of worlds valued on their own (a hand over, the seat out, no room)
    ("first", 0),           # the first group
))
GROUP = Layout("a group", 7, (
    ("key", 1),             # what the seat has seen
    ("legal", 1),           # the seat's legal places at its turn
    ("sums", 5),            # each place's summed points over the group's worlds
))
globals().update(Layout.export(globals(), ROWS, prefix="WR_"))
globals().update(Layout.export(globals(), VALUES, prefix="V_"))
globals().update(Layout.export(globals(), REGION, GROUP, prefix="G_"))
G_WIDTH = GROUP.size
G_MAX = (G_REGION - G_FIRST) // G_WIDTH
MAX_TRIES = 64      # attempts at a world that respects every void before the voids are dropped
