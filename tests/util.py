"""Small helpers shared by the tests."""
from euchresim.rules import Rules
from euchresim.run.runner import RunSpec, play_chunk

VARIANTS = [(p, d) for p in (2, 3, 4) for d in (24, 25, 32, 33)]


def rows_of(players=4, deck=24, policy="random", seed=0, n=2000, mode="hands", **options):
    """Play one chunk of ``n`` hands (games, rubbers) and return its ChunkResult."""
    rules = Rules(players=players, deck=deck, **options)
    spec = RunSpec(rules=rules, policies=(policy,) if isinstance(policy, str) else tuple(policy),
                   seed=seed, mode=mode, count=n, chunk_size=n)
    return rules, play_chunk(spec, 0)


def bits(mask):
    mask = int(mask)
    return [i for i in range(64) if (mask >> i) & 1]
