"""OpenSpiel's bots as duel players: ``openspiel:ismcts:sims=1000``, ``openspiel:random``.

A bot from outside is the measure of our bots that our own bots cannot
be: a duel that names one is played in OpenSpiel's ``euchre`` (one hand a
game), our side through the adapter (interop/openspiel.py's EuchresimBot),
theirs as OpenSpiel builds it.  Each deal sequence of the duel is one deal
(OpenSpiel's chance outcomes, drawn from the seed and the deal's number)
played once per partnership seating, as a duel of euchresim's games plays
its deal sequences; the rows it gives are the duel's (studies/duel.py), so
the statistics, the run folder and ``--resume`` are the duel's too.

Every random stream of a deal is seeded from (seed, deal, seating, seat),
never from the chunk it falls in, so a resumed match plays each deal as a
match never stopped would.  OpenSpiel's IS-MCTS is not deterministic under
a fixed seed (OpenSpiel's own behaviour): its side repeats as statistics,
not to the digit; every other bot here repeats exactly.

Only parsing here imports nothing of OpenSpiel; playing imports pyspiel.
"""
from __future__ import annotations

import importlib.util
import time
from dataclasses import dataclass

import numpy as np

from euchresim.policies import PolicyError
from euchresim.rules import Rules

PREFIX = "openspiel"
BOTS = {"ismcts": {"sims": 1000}, "random": {}}     # each bot's settings, with their defaults
UCT_C = 2.0                                         # IS-MCTS's exploration constant, OpenSpiel's example value
MAX_SIMS = 10 ** 7


def is_openspiel(name) -> bool:
    """Whether a player's name names one of OpenSpiel's bots (``openspiel:...``)."""
    from euchresim.policies import head
    return isinstance(name, str) and head(name) == PREFIX


@dataclass(frozen=True)
class OpenSpielBot:
    """One of OpenSpiel's bots, read from its name: ``kind`` and its ``sims`` (IS-MCTS's simulations a move)."""
    kind: str
    sims: int = 0

    @property
    def name(self) -> str:
        return f"{PREFIX}:{self.kind}" + (f":sims={self.sims}" if self.kind == "ismcts" else "")

    @property
    def deterministic(self) -> bool:
        return self.kind != "ismcts"

    def make(self, seat: int, seed: int):
        """The pyspiel bot for ``seat``, its streams seeded by ``seed``."""
        import pyspiel
        if self.kind == "random":
            return pyspiel.make_uniform_random_bot(seat, seed)
        return pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed), UCT_C, self.sims, -1,
                                 pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT, False, False)


def parse(spec: str) -> OpenSpielBot:
    """``openspiel:KIND[:KEY=VALUE...]`` as an OpenSpielBot; anything else a one-line PolicyError."""
    parts = [p.strip() for p in str(spec).strip().split(":")]
    kinds = ", ".join(f"{PREFIX}:{k}" for k in BOTS)
    if len(parts) < 2 or parts[1].lower() not in BOTS:
        got = parts[1] if len(parts) > 1 and parts[1] else "(none)"
        raise PolicyError(f"{spec.strip()}: unknown OpenSpiel bot {got!r}; known: {kinds}")
    kind = parts[1].lower()
    settings = dict(BOTS[kind])
    for part in parts[2:]:
        key, eq, value = part.partition("=")
        key = key.strip().lower()
        if not eq or key not in settings:
            takes = ", ".join(settings) or "no settings"
            raise PolicyError(f"{spec.strip()}: {part!r} is no setting of {PREFIX}:{kind} (it takes {takes})")
        try:
            number = int(value.strip())
        except ValueError:
            number = None
        if number is None or not 1 <= number <= MAX_SIMS:
            raise PolicyError(f"{spec.strip()}: {key} must be a whole number 1..{MAX_SIMS:,}, not {value.strip()!r}")
        settings[key] = number
    if importlib.util.find_spec("pyspiel") is None:
        raise PolicyError(f"{spec.strip()}: OpenSpiel's bots need OpenSpiel: pip install 'euchresim[openspiel]'")
    return OpenSpielBot(kind, **settings)


def game_params(rules: Rules) -> dict:
    """OpenSpiel euchre's parameters for the duel's rules; rules it has no game for are a one-line ValueError.

    OpenSpiel's euchre is 4 players and 24 cards with two options
    (stick the dealer, a lone defender); its game is one hand, so the
    target score does not matter.  Any other rule has no OpenSpiel game.
    """
    from dataclasses import replace
    params = {"stick_the_dealer": rules.stick_the_dealer, "allow_lone_defender": rules.defend_alone}
    mirrored = Rules(players=4, deck=24, stick_the_dealer=rules.stick_the_dealer, defend_alone=rules.defend_alone)
    if rules.players != 4 or rules.deck != 24 or replace(rules, game_to=mirrored.game_to) != mirrored:
        other = {k: v for k, v in rules.changed().items() if k not in ("stick_the_dealer", "defend_alone", "game_to")}
        shown = ", ".join(f"{k}={v}" for k, v in other.items()) or f"players {rules.players}, deck {rules.deck}"
        raise ValueError(f"an OpenSpiel player plays OpenSpiel's euchre (4 players, 24 cards, with or without "
                         f"--stick-the-dealer and --defend-alone), which has no game with {shown}")
    return params


# ---------------------------------------------------------------- playing
class _Timed:
    """A bot's steps, timed: the duel's milliseconds a decision per side."""

    def __init__(self, bot):
        self.bot, self.seconds, self.steps = bot, 0.0, 0

    def step(self, state):
        t = time.perf_counter()
        a = self.bot.step(state)
        self.seconds += time.perf_counter() - t
        self.steps += 1
        return a


def chance_outcomes(game, seed: int, deal: int) -> list[int]:
    """The deal's chance actions (dealer, the 20 cards, the upcard), drawn from (seed, deal) alone."""
    rng = np.random.default_rng([seed, deal])
    state = game.new_initial_state()
    out = []
    while state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes())
        a = int(rng.choice(actions, p=np.array(probs) / sum(probs)))
        state.apply_action(a)
        out.append(a)
    return out


def _player(side, game, seat: int, seed: int):
    if isinstance(side, str) and is_openspiel(side):
        return parse(side).make(seat, seed)
    from euchresim.interop.openspiel import EuchresimBot
    return EuchresimBot(game, seat, side, seed=seed)


def play_deal(game, a, b, seating: str, seed: int, deal: int):
    """One deal in one seating: (A's return, A's seconds, A's decisions, B's seconds, B's decisions).

    ``a`` and ``b``: each one of OpenSpiel's bots by name, or euchresim's
    policy as read (a ``policies.Seats``; its name would be read again).

    ``seating`` is the duel's arrangement ("ABAB"); A's return is its
    seats' points less the other side's, as OpenSpiel scores the hand.
    A seat's bot is seeded alike in every seating, so a policy against
    itself plays the same hand twice and comes out exactly even.
    """
    seeds = np.random.SeedSequence([seed, deal]).generate_state(4) >> 1    # a seat's streams alike in every seating
    bots = [_Timed(_player(a if c == "A" else b, game, s, int(seeds[s]))) for s, c in enumerate(seating)]
    state = game.new_initial_state()
    for x in chance_outcomes(game, seed, deal):
        state.apply_action(x)
    while not state.is_terminal():
        state.apply_action(bots[state.current_player()].step(state))
    seat_a = seating.index("A")
    side = [[bot for s, bot in enumerate(bots) if seating[s] == c] for c in "AB"]
    return (float(state.returns()[seat_a]), *(sum(getattr(t, f) for t in side[k]) for k in (0, 1)
                                              for f in ("seconds", "steps")))


def load_game(rules: Rules):
    import pyspiel
    return pyspiel.load_game("euchre", game_params(rules))


__all__ = ["is_openspiel", "parse", "OpenSpielBot", "game_params", "play_deal", "chance_outcomes", "load_game"]
