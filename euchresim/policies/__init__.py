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
* ``MODULE:FUNCTION`` -- a user's policy (MODULE importable, or a ``.py`` path).
"""
from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import os
import sys
import warnings
from dataclasses import dataclass

import numpy as np
from numba.core.errors import NumbaExperimentalFeatureWarning

from euchresim.policies.builtin import BASELINE_DEFAULTS, NPARAMS, RANDOM_DEFAULTS
from euchresim.policies.dispatch import (BASELINE, DD, HEURISTIC, NFNS, PIMC, POLICY_SIG, RANDOM, SEARCH_SIG, USER, no_policy, no_search)
from euchresim.policies.heuristic import HEURISTIC_DEFAULTS, HEURISTIC_PARAMS
from euchresim.policies.search import SEARCH_PARAMS, dd_defaults, pimc_defaults


# the user policies' tuple of first-class functions is the feature numba calls experimental; it
# is held to the built-in path by tests/test_user_policy.py, so the warning says nothing to a user
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)


class PolicyError(ValueError):
    """An unknown policy or parameter, a value out of range, a module that does not load."""


@dataclass(frozen=True)
class Param:
    name: str
    slot: int
    default: float
    lo: float
    hi: float
    doc: str


@dataclass(frozen=True)
class PolicyInfo:
    name: str
    pid: int
    defaults: np.ndarray
    summary: str
    params: tuple = ()          # Param, by name

    def param(self, key: str) -> Param | None:
        return next((p for p in self.params if p.name == key), None)


_BASELINE_PARAMS = tuple(Param(*p) for p in (
    ("order", 0, 4.0, 0.0, 20.0, "round one: strength needed to order, assist or take up"),
    ("name", 1, 4.0, 0.0, 20.0, "round two: strength needed to name a suit"),
    ("alone", 2, 7.0, 0.0, 20.0, "strength needed for the maker to go alone"),
    ("defend", 3, 2.0, 0.0, 6.0, "trumps (one a top one) needed to defend alone, 4 players"),
    ("partner_up", 4, 0.5, -5.0, 5.0, "round one: + when the upcard goes to partner, - to an opponent"),
    ("defend_cutthroat", 5, 3.0, 0.0, 6.0, "as defend, in Cutthroat"),
))
_HEURISTIC = tuple(Param(*p) for p in HEURISTIC_PARAMS)

POLICIES = {
    "random": PolicyInfo("random", RANDOM, RANDOM_DEFAULTS,
                         "uniform over the legal actions at every decision"),
    "baseline": PolicyInfo("baseline", BASELINE, BASELINE_DEFAULTS,
                           "a fixed rule of thumb for every decision", _BASELINE_PARAMS),
    "heuristic": PolicyInfo("heuristic", HEURISTIC, HEURISTIC_DEFAULTS,
                            "a tunable point count and sound card play (docs/policies.md)", _HEURISTIC),
    "pimc": PolicyInfo("pimc", PIMC, pimc_defaults(),
                       "samples the unseen cards, solves each world double-dummy, takes the best mean",
                       tuple(Param(*p) for p in SEARCH_PARAMS) + _HEURISTIC),
    "dd": PolicyInfo("dd", DD, dd_defaults(),
                     "CHEATS: sees every hand and plays double-dummy (an upper bound, not a player)",
                     tuple(Param(*p) for p in SEARCH_PARAMS if "worlds" not in p[0]) + _HEURISTIC),
}


def known() -> str:
    return ", ".join(POLICIES)


def _number(text: str, where: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise PolicyError(f"{where}: {text!r} is not a number") from None
    if not np.isfinite(v):
        raise PolicyError(f"{where}: {text!r} is not a finite number")
    return v


def _set(info: PolicyInfo, row: np.ndarray, key: str, value, where: str) -> None:
    p = info.param(key)
    if p is None:
        names = ", ".join(q.name for q in info.params) or "none"
        raise PolicyError(f"{where}: {info.name} has no parameter {key!r}; its parameters: {names}")
    v = _number(str(value), f"{where}: {key}") if not isinstance(value, (int, float)) or isinstance(value, bool) \
        else float(value)
    if not (p.lo <= v <= p.hi):
        raise PolicyError(f"{where}: {key}={v:g} is out of range {p.lo:g}..{p.hi:g}")
    row[p.slot] = v


def _builtin(info: PolicyInfo, rest: list[str], where: str):
    row = info.defaults.astype(np.float64).copy()
    canon = [info.name]
    for part in rest:
        part = part.strip()
        if "=" in part:
            key, _, val = part.partition("=")
            key = key.strip().lower()
            _set(info, row, key, val.strip(), where)
            canon.append(f"{key}={row[info.param(key).slot]:g}")
        elif part.lower().endswith(".json"):
            try:
                with open(part, encoding="utf-8-sig") as fh:
                    obj = json.load(fh)
            except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
                raise PolicyError(f"{where}: cannot read parameters from {part}: {e}") from None
            if not isinstance(obj, dict):
                raise PolicyError(f"{where}: {part} must hold a JSON object of parameter: value")
            for key, val in obj.items():
                if isinstance(val, bool) or not isinstance(val, (int, float, str)):
                    raise PolicyError(f"{where}: {part}: {key} must be a number")
                _set(info, row, str(key).lower(), val, f"{where} ({part})")
                canon.append(f"{str(key).lower()}={row[info.param(str(key).lower()).slot]:g}")
        else:
            raise PolicyError(f"{where}: {part!r} is neither KEY=VALUE nor a .json file of parameters")
    return row, ":".join(canon)


def load_function(spec: str, where: str):
    """The jitted function ``module:function`` names, compiled for POLICY_SIG."""
    mod_name, _, fn_name = spec.rpartition(":")
    if not mod_name or not fn_name:
        raise PolicyError(f"{where}: unknown policy {spec!r}; known: {known()}, or MODULE:FUNCTION")
    try:
        if mod_name.endswith(".py"):
            if not os.path.isfile(mod_name):
                raise FileNotFoundError(f"no file {mod_name}")
            name = "euchresim_user_" + os.path.splitext(os.path.basename(mod_name))[0]
            module = sys.modules.get(name)
            if module is None or getattr(module, "__file__", None) != os.path.abspath(mod_name):
                s = importlib.util.spec_from_file_location(name, os.path.abspath(mod_name))
                module = importlib.util.module_from_spec(s)
                sys.modules[name] = module
                s.loader.exec_module(module)
        else:
            if "" not in sys.path and os.getcwd() not in sys.path:
                sys.path.insert(0, os.getcwd())     # as `python -m` does: modules next to the user
            module = importlib.import_module(mod_name)
    except Exception as e:        # any failure of the user's module is one line, not a traceback
        msg = str(e).splitlines()[0] if str(e) else ""
        raise PolicyError(f"{where}: cannot load module {mod_name!r}: {type(e).__name__}: {msg}") from None
    fn = getattr(module, fn_name, None)
    if fn is None:
        raise PolicyError(f"{where}: module {mod_name!r} has no {fn_name!r}")
    if not hasattr(fn, "compile") or not hasattr(fn, "py_func"):
        raise PolicyError(f"{where}: {spec} is not a numba @njit function (docs/policies.md, 'Your own policy')")
    try:
        if POLICY_SIG.args not in fn.overloads:      # @user_policy compiled it already
            fn.compile(POLICY_SIG.args)
    except Exception as e:
        first = next((ln for ln in str(e).splitlines() if ln.strip()), type(e).__name__)
        raise PolicyError(f"{where}: {spec} does not compile for the policy signature: {first.strip()}") from None
    ret = fn.overloads[POLICY_SIG.args].signature.return_type
    if str(ret) != "int64":
        raise PolicyError(f"{where}: {spec} must return an int64 action, not {ret}")
    return fn


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
    return USER, np.zeros(NPARAMS), spec, load_function(spec, where)


def _split(names, players):
    if isinstance(names, str):
        names = [names]
    names = list(names)
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise PolicyError(f"--policy: give one policy or one per seat ({players}), not {len(names)}")
    return names


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
def _search_function(pid):
    """dd's or pimc's slot function, compiled (or loaded from the cache) only when a run first uses it.

    Compiled for the one signature (as ``@njit(SEARCH_SIG)`` would at
    import), which is what lets numba pass it as a first-class function;
    once per process, like an import.
    """
    from numba import njit
    if pid == DD:
        from euchresim.policies.dd import dd_act as py
    else:
        from euchresim.policies.pimc import pimc_act as py
    return njit(SEARCH_SIG, cache=True, _nrt=False)(py)


def functions(names, players):
    """The first-class functions ``resolve``'s ids point into: (NFNS user slots, the dd and pimc slots).

    Unused slots hold ``no_policy`` and ``no_search`` (never called).
    """
    names = _split(names, players)
    fns = [no_policy] * NFNS
    search = [no_search, no_search]
    for s, n in enumerate(names):
        pid, _, _, fn = _one(n, s)
        if fn is not None:
            fns[s] = fn
        elif pid in (DD, PIMC) and search[pid - DD] is no_search:
            search[pid - DD] = _search_function(pid)
    return tuple(fns), tuple(search)


def user_policy(fn):
    """Decorator: compile ``fn`` as a policy function (``@njit`` with POLICY_SIG, cached)."""
    from numba import njit
    return njit(POLICY_SIG, cache=True)(fn)


__all__ = ["POLICIES", "PolicyError", "PolicyInfo", "POLICY_SIG", "resolve", "functions", "user_policy",
           "load_function"]
