"""euchresim: Euchre strategy questions answered by Monte Carlo simulation.

Import what you need from the submodules; this package module stays light so
that ``euchresim --help`` is instant.
"""
__version__ = "0.1.0"
# Changes only when an outcome for the same seed and rules can change, or the hand rows' format does
# (5: pimc in Cutthroat fixed; the rows' upcard a card index, was a one-card board).
ENGINE_VERSION = 5
