"""Policies (bots): who decides what at each decision of a hand.

Built-in policies are integer ids dispatched inside the jitted loop
(``dispatch.act``), each with a float64 parameter row, so comparing or
sweeping policies never recompiles the engine.  A user's policy is a
jitted function in the user's own module, named ``module:function``; it
is handed to the loop as a first-class function (``dispatch.POLICY_SIG``).

A policy is named on the command line as

* ``NAME`` -- a built-in with its defaults;
* ``NAME:KEY=VALUE[:KEY=VALUE...]`` -- a built-in with some parameters set;
* ``NAME:FILE.json`` -- a built-in with the parameters in a JSON object;
* ``MODULE:FUNCTION[:KEY=VALUE...][:check|:python]`` -- a user's policy (MODULE importable, or a
  ``.py`` path), with the parameters it declares (``user_policy(params=...)``); with ``check``
  built with bounds checks, with ``python`` played uncompiled, as plain Python (policies/user.py).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from euchresim.policies.builtin import BASELINE_PARAMS
from euchresim.policies.dispatch import (BASELINE, HEURISTIC, NFNS, NSLOTS, POLICY_SIG, RANDOM, SEARCH_SIG, SLOTTED, USER, PolicySlots, SearchSlots, no_policy, no_search)
from euchresim.policies.heuristic import HEURISTIC_PARAMS
from euchresim.policies.params import (NPARAMS, Param, PolicyError, apply_settings, check_declared, defaults_row,
                                       param)
from euchresim.policies.search import dd_params, pimc_params
from euchresim.policies.user import (CHECK, PYTHON, PythonPolicy, declared_params, load_function, load_python_function,
                                     python_policy, split_spec, user_policy)


@dataclass(frozen=True)
class PolicyInfo:
    name: str
    pid: int
    defaults: np.ndarray
    summary: str
    params: tuple = ()          # Param, by name
    kernel: str = ""            # "module:function" of SEARCH_SIG: the function slot's kernel (a slotted built-in)

    def param(self, key: str) -> Param | None:
        return next((p for p in self.params if p.name == key), None)


# Each built-in is one declaration: its parameters (name, slot, default, range), a summary and how it
# is reached. Three are inlined into the loop (their ids are dispatch.plain_act's branches); every other
# names its kernel (a SEARCH_SIG function) and gets the next function slot, SLOTTED + k, filled from the
# declaration by ``functions``: a new built-in of that kind is one entry below and nothing else. Its
# defaults row is made from the parameters, never written apart.
def _info(name, pid, summary, params=(), kernel=""):
    check_declared(params, name)          # names and slots once each, every slot in the row
    return PolicyInfo(name, pid, defaults_row(params), summary, tuple(params), kernel)


_INLINED = (
    _info("random", RANDOM, "uniform over the legal actions at every decision"),
    _info("baseline", BASELINE, "a fixed rule of thumb for every decision", BASELINE_PARAMS),
    _info("heuristic", HEURISTIC, "a tunable point count and sound card play (docs/policies.md)",
          tuple(Param(*p) for p in HEURISTIC_PARAMS)),
)
_SLOTTED = tuple(_info(name, SLOTTED + k, summary, params, kernel) for k, (name, summary, params, kernel) in enumerate((
    ("dd", "CHEATS: sees every hand and plays double-dummy (an upper bound, not a player)", dd_params(),
     "euchresim.policies.dd:dd_act"),
    ("pimc", "samples the unseen cards, solves each world double-dummy, takes the best mean", pimc_params(),
     "euchresim.policies.pimc:pimc_act"),
)))
if len(_SLOTTED) > NSLOTS:
    raise RuntimeError(f"{len(_SLOTTED)} slotted built-ins, room for dispatch.NSLOTS = {NSLOTS}")
POLICIES = {p.name: p for p in _INLINED + _SLOTTED[::-1]}          # listed as they were: ..., pimc, dd
BY_PID = {p.pid: p for p in POLICIES.values()}
DD, PIMC = POLICIES["dd"].pid, POLICIES["pimc"].pid


def cheats(spec: str) -> bool:
    """Whether a policy sees every hand (``dd``): a bound no fair player can reach, to be named so wherever shown.

    ``spec`` is a policy as given (``dd:search_bids=0``) or several joined
    by commas (one per seat): any seat that cheats makes the result a bound.
    """
    return any(part.strip().split(":")[0].lower() == "dd" for part in str(spec).split(","))


def known() -> str:
    return ", ".join(POLICIES)


def _builtin(info: PolicyInfo, rest: list[str], where: str):
    row = info.defaults.astype(np.float64).copy()
    canon = [info.name] + apply_settings(info.name, info.params, row, rest, where)
    return row, ":".join(canon)


def _one(spec: str, seat: int):
    """(pid kind, params row, canonical name, user function or None) of one seat's policy."""
    where = f"--policy (seat {seat})"
    if not isinstance(spec, str) or not spec.strip():
        raise PolicyError(f"{where}: empty policy name; known: {known()}")
    spec = spec.strip()
    head, _, tail = spec.partition(":")
    info = POLICIES.get(head.strip().lower())
    if info is not None:
        row, canon = _builtin(info, tail.split(":") if tail else [], f"{where} {info.name}")
        return info.pid, row, canon, None
    if ":" not in spec:
        raise PolicyError(f"{where}: unknown policy {spec!r}; known: {known()}, or MODULE:FUNCTION")
    name, rest = split_spec(spec)
    flags = {part.strip().lower() for part in rest} & {CHECK, PYTHON}
    if flags == {CHECK, PYTHON}:
        raise PolicyError(f"{where}: {spec}: '{CHECK}' builds a jitted function with bounds checks, '{PYTHON}' "
                          "plays it uncompiled (Python checks every index itself): name one")
    rest = [part for part in rest if part.strip().lower() not in flags]
    fn = load_python_function(name, where) if PYTHON in flags else load_function(name, where, CHECK in flags)
    declared = declared_params(fn)
    row = defaults_row(declared)
    canon = [name] + apply_settings(name, declared, row, rest, where) + sorted(flags)
    return USER, row, ":".join(canon), fn


def _split(names, players):
    if isinstance(names, str):
        names = [names]
    names = list(names)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise PolicyError(f"--policy: give one policy or one per seat ({players}), not {len(names)}")
    return names


def with_checks(names) -> list[str]:
    """``names`` with every user's policy built with bounds checks (``:check``; the CLI's --check-policy).

    A policy played as plain Python (``:python``) is left as it is: Python checks every index itself.
    """
    out = []
    for n in names:
        head = n.strip().partition(":")[0].lower()
        user = head not in POLICIES and ":" in n
        flags = [p.strip().lower() for p in n.split(":")[2:]]
        out.append(n + ":" + CHECK if user and CHECK not in flags and PYTHON not in flags else n)
    return out


def resolve(names, players):
    """Per-seat (pids, params, canonical names) from one policy or one per seat."""
    names = _split(names, players)
    pids = np.zeros(4, dtype=np.int64)
    params = np.zeros((4, NPARAMS), dtype=np.float64)
    out = []
    for s, n in enumerate(names):
        pid, row, canon, _ = _one(n, s)
        pids[s] = USER + s if pid == USER else pid     # a user's function sits in slot `seat`
        params[s] = row
        out.append(canon)
    return pids, params, out


@functools.lru_cache(maxsize=None)
def _slot_function(kernel: str):
    """A slotted built-in's kernel (``module:function``), compiled (or loaded from the cache) when a run first uses it.

    Compiled for the one signature (as ``@njit(SEARCH_SIG)`` would at
    import), which is what lets numba pass it as a first-class function;
    once per process, like an import.
    """
    import importlib

    from numba import njit
    module, _, name = kernel.partition(":")
    return njit(SEARCH_SIG, cache=True, _nrt=False)(getattr(importlib.import_module(module), name))


def functions(names, players, python_ok=False):
    """The first-class functions ``resolve``'s ids point into: (NFNS user slots, NSLOTS built-in slots).

    Unused slots hold ``no_policy`` and ``no_search`` (never called).  A
    seat played as plain Python (``:python``) is asked by loops/slow.py,
    which only whole hands and games use (``python_ok``, the runner's);
    every other caller plays its kernels compiled, and refuses it here.
    """
    names = _split(names, players)
    fns = [no_policy] * NFNS
    search = [no_search] * NSLOTS
    for s, n in enumerate(names):
        pid, _, _, fn = _one(n, s)
        if isinstance(fn, PythonPolicy):
            if not python_ok:
                raise PolicyError(f"--policy {n}: a policy played as plain Python (':{PYTHON}') plays whole hands "
                                  f"and games (simulate, duel, ladder), not this; drop ':{PYTHON}'")
            continue                  # asked from Python by loops/slow.py; the jitted slot is never called
        if fn is not None:
            fns[s] = fn
        elif pid in BY_PID and BY_PID[pid].kernel and search[pid - SLOTTED] is no_search:
            search[pid - SLOTTED] = _slot_function(BY_PID[pid].kernel)
    return PolicySlots(fns), SearchSlots(search)


def python_functions(names, players):
    """Each user slot's plain-Python function (``MODULE:FUNCTION:python``), or None when no seat has one.

    A chunk with any is played by loops/slow.py, which asks these seats
    from Python and every other seat through the jitted dispatch.
    """
    names = _split(names, players)
    slots = [None] * NFNS
    for s, n in enumerate(names):
        fn = _one(n, s)[3]
        if isinstance(fn, PythonPolicy):
            slots[s] = fn
    return tuple(slots) if any(f is not None for f in slots) else None


__all__ = ["with_checks", "POLICIES", "NPARAMS", "Param", "PolicyError", "PolicyInfo", "POLICY_SIG", "resolve", "functions",
           "user_policy", "python_policy", "python_functions", "param", "load_function"]
