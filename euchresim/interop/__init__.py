"""Bridges from euchresim to other game programs.

Each bridge is a submodule with its own optional dependency, imported only
when asked for, so ``import euchresim`` never loads any of them:

* ``euchresim.interop.openspiel`` -- any euchresim policy as a ``pyspiel.Bot``
  for OpenSpiel's ``euchre`` game (extra ``euchresim[openspiel]``,
  docs/openspiel.md).
"""
