"""The heuristic policy's parameters, declared once: names, ranges, defaults and the slots its kernels read.

Positions count from the dealer's left (1), and the dealer is always
position 4 (``order_4``, ``name_4``), whatever the number of players; the
four ``order_*`` (and ``name_*``) are declared in a row, so a kernel reads
position ``pos``'s threshold at ``H_ORDER + pos - 1``.
"""
from euchresim.policies.params import declare, defaults_row, param, slot_of

HEURISTIC_PARAMS = declare((
    param("order_1", 7.0, 0.0, 30.0, "round one, position 1 (the dealer's left): count needed to order"),
    param("order_2", 6.0, 0.0, 30.0, "round one, position 2 (4 players: the dealer's partner; 3: right of the dealer)"),
    param("order_3", 6.0, 0.0, 30.0, "round one, position 3 (4 players: the dealer's right)"),
    param("order_4", 5.5, 0.0, 30.0, "round one, the dealer: count after the exchange needed to take up"),
    param("name_1", 6.0, 0.0, 30.0, "round two, position 1: count needed to name a suit"),
    param("name_2", 5.0, 0.0, 30.0, "round two, position 2"),
    param("name_3", 5.0, 0.0, 30.0, "round two, position 3"),
    param("name_4", 5.5, 0.0, 30.0, "round two, the dealer (when not stuck)"),
    param("alone", 10.4, 0.0, 40.0, "4 players: count needed for the maker to go alone"),
    param("defend", 9.5, 0.0, 40.0, "4 players (--defend-alone): count needed to defend alone"),
    param("defend_cutthroat", 12.0, 0.0, 40.0, "Cutthroat: count needed to defend alone"),
    param("joker", 3.5, 0.0, 10.0, "points: the joker"),
    param("right", 3.0, 0.0, 10.0, "points: the right bower"),
    param("left", 2.5, 0.0, 10.0, "points: the left bower"),
    param("trump_ace", 2.0, 0.0, 10.0, "points: the ace of trump"),
    param("trump_king", 2.0, 0.0, 10.0, "points: the king of trump"),
    param("trump_low", 1.9, 0.0, 10.0, "points: any lower trump (queen down)"),
    param("off_ace", 0.7, 0.0, 10.0, "points: an off-suit ace"),
    param("off_king", 0.0, 0.0, 10.0, "points: an off-suit king"),
    param("void", 0.5, 0.0, 10.0, "points: each off suit the hand lacks, with two or more trumps"),
    param("up_partner", 0.5, -2.0, 2.0, "round one: times the upcard's points, added when it goes to partner"),
    param("up_opponent", 0.5, -2.0, 2.0, "round one: times the upcard's points, taken off when it goes to an opponent"),
    param("dummy", 3.0, -10.0, 20.0, "Cutthroat: points added to every bid for the dummy the maker takes up"),
    param("two_hand", 1.0, -10.0, 10.0, "2 players: points added to every bid"),
    param("next", 1.0, -5.0, 5.0, "round two: added for naming next (the turned-down suit's colour) at positions 1, 3"),
    param("lead_trump", 3.0, 0.0, 6.0, "play: trumps a maker needs, without the top one, to lead a low trump"),
    param("through", 3.0, 0.0, 6.0, "play: trumps a defender needs to lead trump through a maker on its left"),
    param("alone_top", 1.0, 0.0, 3.0, "4 players: of the joker and both bowers, how many a lone maker must hold"),
), "heuristic")
HEURISTIC_DEFAULTS = defaults_row(HEURISTIC_PARAMS)

H_ORDER = slot_of(HEURISTIC_PARAMS, "order_1")
H_NAME = slot_of(HEURISTIC_PARAMS, "name_1")
H_ALONE = slot_of(HEURISTIC_PARAMS, "alone")
H_DEFEND = slot_of(HEURISTIC_PARAMS, "defend")
H_DEFEND_CUTTHROAT = slot_of(HEURISTIC_PARAMS, "defend_cutthroat")
H_JOKER = slot_of(HEURISTIC_PARAMS, "joker")
H_RIGHT = slot_of(HEURISTIC_PARAMS, "right")
H_LEFT = slot_of(HEURISTIC_PARAMS, "left")
H_TRUMP_ACE = slot_of(HEURISTIC_PARAMS, "trump_ace")
H_TRUMP_KING = slot_of(HEURISTIC_PARAMS, "trump_king")
H_TRUMP_LOW = slot_of(HEURISTIC_PARAMS, "trump_low")
H_OFF_ACE = slot_of(HEURISTIC_PARAMS, "off_ace")
H_OFF_KING = slot_of(HEURISTIC_PARAMS, "off_king")
H_VOID = slot_of(HEURISTIC_PARAMS, "void")
H_UP_PARTNER = slot_of(HEURISTIC_PARAMS, "up_partner")
H_UP_OPPONENT = slot_of(HEURISTIC_PARAMS, "up_opponent")
H_DUMMY = slot_of(HEURISTIC_PARAMS, "dummy")
H_TWO_HAND = slot_of(HEURISTIC_PARAMS, "two_hand")
H_NEXT = slot_of(HEURISTIC_PARAMS, "next")
H_LEAD_TRUMP = slot_of(HEURISTIC_PARAMS, "lead_trump")
H_THROUGH = slot_of(HEURISTIC_PARAMS, "through")
H_ALONE_TOP = slot_of(HEURISTIC_PARAMS, "alone_top")

for _pos in range(2, 5):        # the kernels index the positions from the first: they must stay in a row
    if slot_of(HEURISTIC_PARAMS, f"order_{_pos}") != H_ORDER + _pos - 1 or \
            slot_of(HEURISTIC_PARAMS, f"name_{_pos}") != H_NAME + _pos - 1:
        raise RuntimeError("heuristic: order_1..order_4 and name_1..name_4 must be declared in a row")
