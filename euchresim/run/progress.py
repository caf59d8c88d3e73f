"""Progress bars for a job's callback: tqdm on a terminal's standard error, nothing anywhere else.

Every job on the runner reports ``on_progress(done, total)`` (or a
labelled or a batch form); these turn that into the bar the commands show,
so a script that runs the same job gets the same bar by passing one of
them.  No bar ever writes to standard output (a run may write its records
there) or into a file or pipe (a log is not a terminal): with ``quiet``, or
when standard error is no terminal, each is silent.
"""
from __future__ import annotations

import sys


def progress_bar(total, unit, quiet):
    """A tqdm bar on a terminal (rate, time left when the total is known), else None."""
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm
    return tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr, dynamic_ncols=True, leave=False)


def count_lines(path):
    """Lines of a file, for a bar's total: a fast pass over the bytes, None if unreadable."""
    try:
        with open(path, "rb") as fh:
            return sum(block.count(b"\n") for block in iter(lambda: fh.read(1 << 20), b""))
    except OSError:
        return None


class CountBar:
    """``on_progress(done, total)`` of a job that counts what it plays (a match's games): a bar of ``total``
    ``unit``s on a terminal; nothing elsewhere.  ``close()`` when the job ends, however it ends."""

    def __init__(self, total, unit, quiet):
        self.bar = progress_bar(total, unit, quiet)

    def __call__(self, done, total):
        if self.bar is not None:
            self.bar.update(done - self.bar.n)

    def close(self):
        if self.bar is not None:
            self.bar.close()
            self.bar = None


class ChunkBar(CountBar):
    """``on_chunk(done, total)`` of a run that counts chunks of ``chunk_size`` (``runner.run``), shown as the
    ``count`` hands, games or rubbers they hold (``unit``: hand, game, rubber)."""

    def __init__(self, count, chunk_size, unit, quiet):
        super().__init__(count, unit, quiet)
        self.count, self.chunk_size = count, chunk_size

    def __call__(self, done, total):
        if self.bar is not None:       # chunks are the same size but the last: near enough until the end
            self.bar.update(min(done * self.chunk_size, self.count) - self.bar.n)


class LabelledBars:
    """``progress(label, done, total)`` of a report's pieces of work: one bar per label on a terminal, each
    closed when its piece is done; silent anywhere else (or with ``quiet``)."""

    def __init__(self, quiet):
        self.on = not quiet and sys.stderr.isatty()
        self.bars = {}

    def __call__(self, label, done, total):
        if not self.on:
            return
        from tqdm import tqdm
        bar = self.bars.get(label)
        if bar is None:
            bar = self.bars[label] = tqdm(total=total, desc=label, unit="chunk", file=sys.stderr,
                                          dynamic_ncols=True, leave=False)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    def close(self):
        for bar in self.bars.values():
            bar.close()


def batch_bar(name, quiet):
    """``on_batch(done, total)`` of the advisor (its batches of deals), a bar named ``name`` made at the first
    call, when the total is known; None with ``quiet`` or off a terminal."""
    if quiet or not sys.stderr.isatty():
        return None
    from tqdm import tqdm
    state = {}

    def update(done, total):
        if "bar" not in state:
            state["bar"] = tqdm(total=total, unit="batch", desc=name, file=sys.stderr, leave=False)
        state["bar"].update(done - state["bar"].n)
    return update
