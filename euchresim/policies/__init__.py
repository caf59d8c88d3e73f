"""Policies (bots): who decides what at each decision of a hand.

Built-in policies are integer ids dispatched inside the jitted loop (see
``builtin.decide``), each with a float64 parameter row, so comparing or
sweeping policies never recompiles the engine.
"""
from dataclasses import dataclass

import numpy as np

from .builtin import BASELINE, BASELINE_DEFAULTS, NPARAMS, RANDOM, RANDOM_DEFAULTS


class PolicyError(ValueError):
    """An unknown policy name, or a wrong number of per-seat policies."""


@dataclass(frozen=True)
class PolicyInfo:
    name: str
    pid: int
    defaults: np.ndarray
    summary: str


POLICIES = {
    "random": PolicyInfo("random", RANDOM, RANDOM_DEFAULTS,
                         "uniform over the legal actions at every decision"),
    "baseline": PolicyInfo("baseline", BASELINE, BASELINE_DEFAULTS,
                           "a documented rule of thumb for every decision (docs/policies.md)"),
}


def resolve(names, players):
    """Per-seat (pids, params) arrays from one name or one name per seat."""
    if isinstance(names, str):
        names = [names]
    names = list(names)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise PolicyError(f"--policy: give one policy or one per seat ({players}), not {len(names)}")
    pids = np.zeros(4, dtype=np.int64)
    params = np.zeros((4, NPARAMS), dtype=np.float64)
    for s, n in enumerate(names):
        if not isinstance(n, str) or not n.strip():
            raise PolicyError(f"--policy: seat {s} has an empty policy name; known: {', '.join(POLICIES)}")
        n = names[s] = n.strip().lower()       # names are case-blind, like every other choice
        info = POLICIES.get(n)
        if info is None:
            raise PolicyError(f"--policy: unknown policy {n!r} for seat {s}; known: {', '.join(POLICIES)}")
        pids[s] = info.pid
        params[s] = info.defaults
    return pids, params, names
