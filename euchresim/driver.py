"""Deprecated: ``euchresim.driver`` is now ``euchresim.loops.hands`` (kept importable for one release; docs/layout.md)."""
from euchresim.loops.hands import *  # noqa: F401,F403
from euchresim.loops.hands import decide_one, new_workspace, play_out, run_games, run_hands  # noqa: F401
