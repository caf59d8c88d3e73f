"""The ``euchresim`` command: click only, one module per command group.

Importing it loads no numba, pandas or engine, so ``--help`` is instant;
each command imports the layer it needs when it runs.
"""
from euchresim.cli.app import cli, main

__all__ = ["cli", "main"]
