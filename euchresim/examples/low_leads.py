"""A user's policy, jitted: heuristic's calls (with heuristic's numbers), but it always plays its cheapest legal card.

Named on the command line as ``euchresim.examples.low_leads:low_leads``;
a copy of this file anywhere on the Python path (or named by its path,
``my_bots.py:low_leads``) works the same way.
"""
from euchresim.engine.layout import PH_PLAY, PHASE
from euchresim.policies import user_policy
from euchresim.policies.heuristic import heuristic_decide
from euchresim.policies.heuristic_params import HEURISTIC_DEFAULTS
from euchresim.policies.view import cheapest, trump


@user_policy
def low_leads(st, hand, away, seat, legal, params, rng, tab):
    if st[PHASE] != PH_PLAY:      # every decision but the card: heuristic's, its jitted kernel called directly
        return heuristic_decide(st, hand, away, seat, legal, HEURISTIC_DEFAULTS, tab)
    return cheapest(legal, trump(st), tab)   # its weakest legal card by strength ignoring the lead (view.card_order)
