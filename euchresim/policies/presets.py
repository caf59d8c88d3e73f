"""Named settings of a built-in policy: ``heuristic:human`` is ``heuristic`` with the settings below.

``human`` calls in round one as people do at online tables (4 players, 24
cards: the dealer's left orders on 5% of deals, its partner on 17%, its
right on 5%, the dealer takes up on 30%; about 57% in all, where
``heuristic`` as it comes orders far more).  The thresholds were fitted by
``python scripts/fit_human_calls.py --hands 100000 --seed 11`` and the
rates below measured by it on 100,000 fresh hands (seed 12); a hand's count
moves in steps, so the fit lands near the target, not on it
(tests/test_policy_presets.py measures them again).

Below them, the built-ins and presets by their ids, as tables: what the
library's own probes seat (bench, the compile warm-up, a deal stream) and
what a report looks for among the models it was given, nothing a user named.
"""
import functools

PRESETS = {
    "heuristic": {
        "human": {"order_1": 6.401, "order_2": 6.599, "order_3": 6.348, "order_4": 6.899},
    },
}

# what the fit measured: share of deals ordered up in round one, by seats left of the dealer (0: the dealer)
HUMAN_TARGETS = {1: 0.05, 2: 0.17, 3: 0.05, 0: 0.30}
HUMAN_MEASURED = {"hands": 100_000, "seed": 12, "rates": {1: 0.0483, 2: 0.1763, 3: 0.0503, 0: 0.3067}}


def declared_seats(family: str, players: int):
    """A built-in at every seat, by its id (``random``, ``heuristic``, ``best``) at its declared settings: what
    the library's own probes play (bench, the compile warm-up, a deal stream), nothing a user named."""
    return _declared_table(family).for_players(players)


@functools.lru_cache(maxsize=None)
def _declared_table(family: str):
    from euchresim.policies import POLICIES, PolicyError, Seats, parse
    if family not in POLICIES and family != "best":
        raise PolicyError(f"{family!r}: not a built-in ({', '.join(POLICIES)} or best)")
    return Seats((parse(family),))


@functools.lru_cache(maxsize=None)
def preset_name(family: str, preset: str) -> str:
    """A declared preset's canonical name (``preset_name("heuristic", "human")``): what a report looks for
    among the models it was given, by the preset's ids rather than a name to read."""
    from euchresim.policies import parse
    return parse(f"{family}:{preset}").name


def random_seats(players: int):
    """Every seat ``random``: the advisor's probe of where calls lead, a run given no policy."""
    return declared_seats("random", players)
