"""Where a run's chunks are played: this machine's processes, or a Ray cluster.

Every backend offers one thing, ``map_chunks(job, jobs, workers, ...)``: an
iterator of ``job(j)`` for every ``j`` in ``jobs``, in the order they finish.
A chunk's result depends only on the seed, the chunk size and its number
(sim.py), so the numbers are the same whatever the backend or the number
of workers.  A backend plays a chunk again when the process playing it
dies, up to ``MAX_TRIES`` times, then stops naming it; on Ctrl-C it stops
its workers at once, and a chunk in play is dropped, never half kept.
"""
MAX_TRIES = 3
BACKENDS = ("local", "ray")


class ChunkFailed(RuntimeError):
    """A chunk whose worker died ``MAX_TRIES`` times (sim turns it into SimError)."""

    def __init__(self, chunk: int, tries: int, why: str):
        super().__init__(f"chunk {chunk} failed {tries} times ({why}); the run stops")
        self.chunk, self.tries, self.why = chunk, tries, why
