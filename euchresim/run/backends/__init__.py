"""Where a run's chunks are played: this machine's processes, or a Ray cluster.

Every backend offers one thing, ``map_chunks(job, jobs, workers, ...)``: an
iterator of ``job(j)`` for every ``j`` in ``jobs``, in the order they finish.
A chunk's result depends only on the seed, the chunk size and its number
(run/runner.py), so the numbers are the same whatever the backend or the number
of workers.  A backend plays a chunk again when the process playing it
dies, up to ``MAX_TRIES`` times, then stops naming it; on Ctrl-C it stops
its workers at once, and a chunk in play is dropped, never half kept.
"""
MAX_TRIES = 3
BACKENDS = ("local", "ray")


class ChunkFailed(RuntimeError):
    """A chunk whose worker died ``MAX_TRIES`` times (the runner turns it into SimError)."""

    def __init__(self, chunk: int, tries: int, why: str):
        super().__init__(f"chunk {chunk} failed {tries} times ({why}); the run stops")
        self.chunk, self.tries, self.why = chunk, tries, why


class Pending:
    """The jobs still to hand out, drawn lazily from an iterator whose length is known.

    A run of 10^15 hands is some 10^10 chunks: a list of their jobs would
    fill memory before the first is played, so a backend pulls them one at a
    time.  A job whose worker died goes back to the front (``appendleft``).
    """

    def __init__(self, items, n: int | None = None):
        if n is None:
            items = list(items)
            n = len(items)
        self._it, self._n, self._back = iter(items), n, []

    def __len__(self) -> int:
        return self._n + len(self._back)

    def __bool__(self) -> bool:
        return len(self) > 0

    def popleft(self):
        if self._back:
            return self._back.pop()
        self._n -= 1
        return next(self._it)

    def appendleft(self, job) -> None:
        self._back.append(job)
