"""Per-trump tables and the rule configuration, built once per run.

The kernels never branch on "is this the left bower?": R2 is baked into
these tables.  ``eff[trump, suit]`` moves the left bower and the joker into
the trump suit, so following suit is ``hand & eff[trump, led]``;
``power[trump, led, card]`` ranks every card for one trick, so the winner
is the highest power (R10).
"""
import functools

import numpy as np

from euchresim.cards import JOKER, NCARDS, RANK_J, SUITS, card_index, cards_of, pack_mask
from euchresim.engine.layout import (CFG_BOTH_LEAD, CFG_DECK, CFG_DEFEND, CFG_GAME_TO, CFG_JOKER_MODE, CFG_PACK, CFG_PLAYERS, CFG_NPACK, CFG_SIZE, CFG_STICK, CFG_TIE, JOKER_DEALER_NAMES, JOKER_REDEAL, T_CFG, T_CFG_END, T_EFF, T_EFF_END, T_NEXT, T_NEXT_END, T_ORDER, T_ORDER_END, T_PACK, T_POWER, T_POWER_END, T_SCORE, T_SCORE_END, T_SUIT_OF, T_SUIT_OF_END, TAB_SIZE)
from euchresim.rules import CUTTHROAT_TIE_CHOICES, SCORE_CASES, Rules

# trump order above the plain ranks (R2): joker, right, left, then A K Q T 9 8 7
_TRUMP_BASE = 100


def trump_power(trump: int, card: int) -> int:
    """R2 rank of a card within the trump suit; 0 if it is not a trump."""
    if card == JOKER:
        return _TRUMP_BASE + 20
    if card == card_index(trump, RANK_J):
        return _TRUMP_BASE + 19
    if card == card_index(3 - trump, RANK_J):
        return _TRUMP_BASE + 18
    if card >> 3 == trump:
        return _TRUMP_BASE + 1 + (card & 7)
    return 0


def effective_suit(trump: int, card: int) -> int:
    """R2: the left bower and the joker belong to the trump suit."""
    if trump_power(trump, card):
        return trump
    return card >> 3


def build_eff_suit():
    eff = np.zeros((4, 4), dtype=np.int64)
    suit_of = np.zeros((4, NCARDS), dtype=np.int64)
    for t in range(4):
        for c in range(NCARDS):
            s = effective_suit(t, c)
            suit_of[t, c] = s
            eff[t, s] |= np.int64(1) << np.int64(c)
    return eff, suit_of


def build_power():
    power = np.zeros((4, 4, NCARDS), dtype=np.int64)
    order = np.zeros((4, NCARDS), dtype=np.int64)
    for t in range(4):
        for c in range(NCARDS):
            tp = trump_power(t, c)
            order[t, c] = tp if tp else 1 + (c & 7)
            for led in range(4):
                if tp:
                    power[t, led, c] = tp
                elif c >> 3 == led:
                    power[t, led, c] = 1 + (c & 7)
    return power, order


def build_score(rules: Rules):
    score = np.zeros((len(SCORE_CASES), 6, 2), dtype=np.int64)
    for i, case in enumerate(SCORE_CASES):
        row = rules.scoring.table[case]
        score[i, :, 0] = row["makers"]
        score[i, :, 1] = row["defenders"]
    return score


def build_cfg(rules: Rules):
    cfg = np.zeros(CFG_SIZE, dtype=np.int64)
    cfg[CFG_PLAYERS] = rules.players
    cfg[CFG_DECK] = rules.deck
    cfg[CFG_PACK] = pack_mask(rules.deck)
    cfg[CFG_STICK] = int(rules.stick_the_dealer)
    cfg[CFG_DEFEND] = int(rules.defend_alone)
    if rules.joker_upcard == "dealer-names":
        cfg[CFG_JOKER_MODE] = JOKER_DEALER_NAMES
    elif rules.joker_upcard == "redeal":
        cfg[CFG_JOKER_MODE] = JOKER_REDEAL
    else:
        cfg[CFG_JOKER_MODE] = SUITS.index(rules.joker_upcard)
    cfg[CFG_BOTH_LEAD] = 1 if rules.both_alone_lead == "maker" else 0
    cfg[CFG_GAME_TO] = rules.game_to
    cfg[CFG_TIE] = CUTTHROAT_TIE_CHOICES.index(rules.cutthroat_tie)
    return cfg


_EFF, _SUIT_OF = build_eff_suit()
_POWER, _ORDER = build_power()


def build_tables(rules: Rules) -> np.ndarray:
    """The one conversion from a Rules value to the ``tab`` array kernels take."""
    tab = np.zeros(TAB_SIZE, dtype=np.int64)
    cfg = build_cfg(rules)
    pack = cards_of(pack_mask(rules.deck))
    cfg[CFG_NPACK] = len(pack)
    # each block fills its declared span exactly (numpy refuses a size that differs)
    tab[T_CFG:T_CFG_END] = cfg
    tab[T_EFF:T_EFF_END] = _EFF.ravel()
    tab[T_SUIT_OF:T_SUIT_OF_END] = _SUIT_OF.ravel()
    tab[T_POWER:T_POWER_END] = _POWER.ravel()
    tab[T_ORDER:T_ORDER_END] = _ORDER.ravel()
    tab[T_SCORE:T_SCORE_END] = build_score(rules).ravel()
    tab[T_PACK:T_PACK + len(pack)] = pack
    tab[T_NEXT:T_NEXT_END] = build_next(rules.players).ravel()
    return tab


@functools.lru_cache(maxsize=256)
def cached_tables(rules: Rules) -> np.ndarray:
    """``build_tables`` once per set of rules: replay, solve and OpenSpiel take many records of few rules.

    The array is shared: kernels read ``tab`` and never write it.
    """
    return build_tables(rules)


def build_next(players: int):
    """next[out][seat]: the next seat clockwise not in the ``out`` mask (R10)."""
    nxt = np.full((16, 4), -1, dtype=np.int64)
    for out in range(16):
        for seat in range(players):
            s = (seat + 1) % players
            for _ in range(players):
                if not (out >> s) & 1:
                    nxt[out, seat] = s
                    break
                s = (s + 1) % players
    return nxt
