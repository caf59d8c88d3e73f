"""Deprecated: ``euchresim.sim`` is now ``euchresim.run.runner`` (kept importable for one release; docs/layout.md)."""
from euchresim.run.runner import *  # noqa: F401,F403
from euchresim.run.runner import (ChunkResult, Outputs, RunSpec, RunStopped, SimError, chunk_states,  # noqa: F401
                                  default_workers, merge, play_chunk, run, tally, tally_names)
