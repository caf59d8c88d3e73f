"""euchresim: Euchre strategy questions answered by Monte Carlo simulation.

Import what you need from the submodules; this package module stays light so
that ``euchresim --help`` is instant.
"""
__version__ = "0.1.0"
# Changes only when an outcome for the same seed and rules can change.
ENGINE_VERSION = 4
