"""What OpenSpiel's IS-MCTS searches over (docs/policies.md, "Against OpenSpiel's IS-MCTS").

IS-MCTS deals the cards a seat cannot see again for each simulation, with
the game's own ``ResampleFromInfostate``.  In OpenSpiel 2.0.2's euchre that
keeps the kitty as it really is (so the search knows which three cards are
out of play, as no player at the table does) and deals a seat cards of a
suit it has shown it lacks (so some of its worlds cannot be).  This plays
hands of OpenSpiel's euchre (OpenSpiel's defaults) with heuristic at every
seat, stops at random decisions from the second trick on, draws worlds there
for the seat to act, and prints how many kept the kitty and how many cannot
be (euchresim's replay refuses them: a seat that did not follow suit holds
that suit).

    python scripts/openspiel_worlds.py
"""
import random

import pyspiel

from euchresim.interop import openspiel as osp

HANDS, WORLDS, SEED = 400, 20, 1


def dealt(state):
    """The kitty of an OpenSpiel euchre history: the cards neither dealt (20 after the dealer) nor turned up."""
    h = state.history()
    return set(range(24)) - set(h[1:22])


def main():
    game, rng = pyspiel.load_game("euchre"), random.Random(SEED)
    bots = [osp.EuchresimBot(game, p, "heuristic", seed=SEED + p) for p in range(4)]
    decisions = kept = impossible = worlds = 0
    for _ in range(HANDS):
        state = game.new_initial_state()
        for b in bots:
            b.restart_at(state)
        stop = None
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            if stop is None and len(osp.record_of(state)["plays"]) >= 4:
                stop = rng.randrange(0, 12)           # a decision from the second trick on
            if stop == 0:
                decisions += 1
                seat, kitty = state.current_player(), dealt(state)
                for _ in range(WORLDS):
                    world = state.resample_from_infostate(seat, rng.random)
                    worlds += 1
                    kept += dealt(world) == kitty
                    try:
                        osp.record_of(world)
                    except RuntimeError as e:       # the replay's refusal of a move; anything else is a bug
                        if "refused action" not in str(e):
                            raise
                        impossible += 1
                break
            stop = None if stop is None else stop - 1
            state.apply_action(bots[state.current_player()].step(state))
    print(f"{decisions} decisions from the second trick on, {worlds} worlds drawn for the seat to act")
    print(f"kitty as it really is: {kept} of {worlds} ({100 * kept / worlds:.1f}%)")
    print(f"worlds that cannot be (a seat holds a suit it did not follow): {impossible} of {worlds} "
          f"({100 * impossible / worlds:.1f}%)")


if __name__ == "__main__":
    main()
