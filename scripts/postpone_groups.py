"""How many groups ``pimc:postpone=1`` makes of its worlds (docs/policies.md, "A remedy for strategy fusion").

Worlds that show the seat the same cards and calls by its next turn share
one choice there; few groups per world means postponing changes little.
Heuristic plays hands of 4 players, 24 cards, stopped at a random decision
of the seat to act (a play decision with three cards or more in hand, or a
call, alone, defend-alone or discard decision); at each, 100 worlds are
drawn and every option filed; printed: the mean number of groups an option
makes (worlds valued on their own, a hand over or the seat sitting out,
are in none).

    python scripts/postpone_groups.py
"""
import numpy as np

from euchresim.engine.bits import seed_state
from euchresim.engine.deal import deal
from euchresim.engine.hand import apply_legal, legal_actions, start_hand
from euchresim.engine.layout import (AWAY, CFG_NPACK, HAND, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DONE,
                                     PH_PLAY, PHASE, PRIV_SIZE, ST_SIZE, T_PACK, TO_ACT)
from euchresim.engine.tables import build_tables
from euchresim.loops.hands import new_workspace
from euchresim.policies import resolve
from euchresim.policies.heuristic import heuristic_decide
from euchresim.policies.sampler import sample_fitting_world
from euchresim.policies.postpone import clear_groups, postpone_actions, postpone_cards
from euchresim.policies.search_layout import G_COUNT, G_REGION, WR_GROUPS, WR_WORLD
from euchresim.policies.values import hand_values
from euchresim.rules import Rules

WORLDS = 100


def popcount(x):
    return bin(int(x)).count("1")

STATES = 30
CALLS = (PH_BID1, PH_BID2, PH_ALONE, PH_DEFEND, PH_DISCARD)


def states(tab, row, kind, seed):
    """Decisions of heuristic's hands: play ones with three cards or more in hand, or calls."""
    drng = seed_state(np.random.SeedSequence(seed))
    pick = np.random.default_rng(seed)
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    out = []
    while len(out) < STATES:
        hands = np.zeros(4, np.int64)
        dummy, up, kitty = deal(tab, work, drng, hands)
        st, priv = np.zeros(ST_SIZE, np.int64), np.zeros(PRIV_SIZE, np.int64)
        start_hand(st, priv, tab, np.int64(len(out) % 4), hands, dummy, up, kitty)
        stop = int(pick.integers(0, 12 if kind == "play" else 4))
        k = 0
        while st[PHASE] != PH_DONE:
            seat = int(st[TO_ACT])
            legal = legal_actions(st, priv, tab)
            wanted = (st[PHASE] == PH_PLAY and popcount(priv[HAND + seat]) >= 3) if kind == "play" \
                else st[PHASE] in CALLS
            if wanted and popcount(legal) >= 2 and k >= stop:
                out.append((st.copy(), priv.copy()))
                break
            a = heuristic_decide(st, priv[HAND + seat], priv[AWAY + seat], np.int64(seat), legal, row, tab)
            apply_legal(st, priv, tab, a, legal)
            k += 1
    return out


def mean_groups(kind, seed=12):
    rules = Rules()
    tab = build_tables(rules)
    row = resolve(["pimc:postpone=1"], 4)[1][0]
    counts = []
    for i, (st, priv) in enumerate(states(tab, resolve(["heuristic"], 4)[1][0], kind, seed)):
        seat = np.int64(st[TO_ACT])
        hand, away = priv[HAND + seat], priv[AWAY + seat]
        legal = legal_actions(st, priv, tab)
        ws = new_workspace()
        rng = seed_state(np.random.SeedSequence(i))
        options = popcount(hand) if kind == "play" else popcount(legal)
        clear_groups(ws, np.int64(options))
        if kind == "play":
            hand_values(st, tab, seat, ws, row)
        for _ in range(WORLDS):
            sample_fitting_world(st, hand, away, seat, tab, row, rng, ws)
            world = ws[WR_WORLD].copy()
            if kind == "play":
                postpone_cards(st, world, tab, ws, seat, hand, legal)
            else:
                postpone_actions(st, world, tab, ws, seat, legal, row)
        places = range(options)
        if kind == "play":          # only the legal cards were filed
            cards = [c for c in range(33) if (int(hand) >> c) & 1]
            places = [k for k, c in enumerate(cards) if (int(legal) >> c) & 1]
        counts += [int(ws[WR_GROUPS][k * G_REGION + G_COUNT]) for k in places]
    return float(np.mean(counts))


if __name__ == "__main__":
    for kind in ("play", "call"):
        print(f"{kind}: {mean_groups(kind):.0f} groups an option, of {WORLDS} worlds")
