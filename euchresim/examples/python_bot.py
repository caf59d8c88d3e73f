"""A policy in plain Python, no numba: baseline's calls; in play, its cheapest card when its partner is
winning the trick, else its strongest.

Named on the command line as ``euchresim.examples.python_bot:high_unless_partner_wins:python``: the
``python`` setting plays the function uncompiled, in a loop of plain Python (loops/slow.py), so
``print()``, ``breakpoint()`` and any library work in it, at thousands of hands a second.
"""
from euchresim.engine.layout import PH_PLAY, PHASE
from euchresim.policies import python_policy
from euchresim.policies.builtin import BASELINE_DEFAULTS, baseline_decide
from euchresim.policies.view import card_order, cheapest, leading, partner, trump, winning_seat


def cards(board):
    return [c for c in range(64) if board >> c & 1]


@python_policy
def high_unless_partner_wins(st, hand, away, seat, legal, params, rng, tab):
    if st[PHASE] != PH_PLAY:
        return baseline_decide(st, hand, away, seat, legal, BASELINE_DEFAULTS, tab)
    t = trump(st)
    if not leading(st) and winning_seat(st) == partner(st, seat, tab):
        return cheapest(legal, t, tab)
    return max(cards(legal), key=lambda c: card_order(c, t, tab))
