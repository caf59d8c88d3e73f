"""A policy's named parameters, and the ``:KEY=VALUE`` / ``:FILE.json`` settings that fill its row.

Built-in and users' policies share this, so ``heuristic:order_2=5`` and
``mymod:my_bot:risk=0.2`` are read, checked and refused by the same code.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

NPARAMS = 48     # the width of every seat's params row (policies/builtin.py's kernels read it)


class PolicyError(ValueError):
    """An unknown policy or parameter, a value out of range, a module that does not load."""


@dataclass(frozen=True)
class Param:
    name: str
    slot: int
    default: float
    lo: float
    hi: float
    doc: str = ""
    names: tuple = ()      # words for the values 0, 1, ... (``objective=game`` for 1), when it is a choice


def param(name: str, default: float, lo: float, hi: float, doc: str = "", names: tuple = ()) -> Param:
    """A policy's parameter, built-in's or user's alike: its slot is its place in the tuple ``declare`` is given.

    ``names`` makes it a choice: the k-th word stands for the value k (``lo`` 0, ``hi`` the last).
    """
    return Param(name, -1, float(default), float(lo), float(hi), doc, tuple(names))


def declare(params, owner: str, first: int = 0) -> tuple:
    """``params`` with slots ``first``, ``first + 1``, ... in order, checked: unique names, defaults in range.

    The one way parameters are declared, by the built-ins and by a user's
    ``user_policy(params=...)``: nobody writes a slot number, so two
    parameters can never share one, and a kernel reads a slot by name
    (``slot_of``) once, at import.
    """
    out = []
    for k, p in enumerate(params):
        if not isinstance(p, Param):
            raise PolicyError(f"{owner}: parameter {k} must be made with euchresim.policies.param(...), not {p!r}")
        out.append(Param(p.name, first + k, p.default, p.lo, p.hi, p.doc, p.names))
    check_declared(out, owner)
    return tuple(out)


def slot_of(params, name: str) -> int:
    """The slot of the parameter called ``name``: what a kernel indexes its params row with."""
    for p in params:
        if p.name == name:
            return p.slot
    raise KeyError(f"no parameter {name!r} among {', '.join(p.name for p in params)}")


def check_declared(params, owner: str) -> None:
    """Each name once, each slot below NPARAMS and once, each default within its range."""
    names, slots = set(), set()
    for p in params:
        if not p.name or not p.name.isidentifier() or p.name != p.name.lower():
            raise PolicyError(f"{owner}: parameter name {p.name!r} must be a lower-case identifier")
        if p.name in names:
            raise PolicyError(f"{owner}: parameter {p.name!r} is declared twice")
        if not 0 <= p.slot < NPARAMS:
            raise PolicyError(f"{owner}: parameter {p.name!r} has slot {p.slot}: a row has slots 0..{NPARAMS - 1}")
        if p.slot in slots:
            raise PolicyError(f"{owner}: parameters share slot {p.slot} ({p.name!r})")
        if not (np.isfinite(p.lo) and np.isfinite(p.hi) and p.lo <= p.default <= p.hi):
            raise PolicyError(f"{owner}: parameter {p.name!r}: default {p.default:g} is not in {p.lo:g}..{p.hi:g}")
        names.add(p.name)
        slots.add(p.slot)


def defaults_row(params) -> np.ndarray:
    """A params row of zeros with each declared default in its slot."""
    row = np.zeros(NPARAMS, dtype=np.float64)
    for p in params:
        row[p.slot] = p.default
    return row


def _number(text: str, where: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise PolicyError(f"{where}: {text!r} is not a number") from None
    if not np.isfinite(v):
        raise PolicyError(f"{where}: {text!r} is not a finite number")
    return v


def _set(name: str, params, row: np.ndarray, key: str, value, where: str) -> str:
    """Set one parameter in ``row``, checked; its canonical ``key=value`` part."""
    p = next((q for q in params if q.name == key), None)
    if p is None:
        names = ", ".join(q.name for q in params) or "none"
        raise PolicyError(f"{where}: {name} has no parameter {key!r}; its parameters: {names}")
    words = [w.lower() for w in p.names]
    if isinstance(value, str) and value.strip().lower() in words:
        v = float(words.index(value.strip().lower()))
    elif p.names and isinstance(value, str) and not value.strip().lstrip("-").replace(".", "", 1).isdigit():
        raise PolicyError(f"{where}: {key}={value.strip()}: choose one of {', '.join(p.names)}")
    else:
        v = _number(str(value), f"{where}: {key}") if not isinstance(value, (int, float)) or isinstance(value, bool) \
            else float(value)
    if not (p.lo <= v <= p.hi):
        raise PolicyError(f"{where}: {key}={v:g} is out of range {p.lo:g}..{p.hi:g}")
    if p.names and v != int(v):
        raise PolicyError(f"{where}: {key}={v:g}: choose one of {', '.join(p.names)}")
    row[p.slot] = v
    return f"{key}={p.names[int(v)]}" if p.names else f"{key}={row[p.slot]:g}"


def apply_settings(name: str, params, row: np.ndarray, parts, where: str) -> list[str]:
    """Set ``row`` from ``KEY=VALUE``, ``FILE.json`` and preset parts, in order; the ``key=value`` canonical parts.

    A preset (policies/presets.py, e.g. ``heuristic:human``) stands for its
    settings, written out in the canonical name so that a run's record of
    its policies does not depend on the preset table staying the same.  A
    key set twice is one setting, its last value, where it first stood
    (``best:max_worlds=300`` is ``pimc:bid_worlds=100:max_worlds=300``), so
    one bot has one canonical name.
    """
    from euchresim.policies.presets import PRESETS
    canon = []
    for part in parts:
        part = part.strip()
        preset = PRESETS.get(name, {}).get(part.lower())
        if preset is not None:
            canon += [_set(name, params, row, key, val, f"{where} ({part})") for key, val in preset.items()]
        elif "=" in part:
            key, _, val = part.partition("=")
            canon.append(_set(name, params, row, key.strip().lower(), val.strip(), where))
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
                canon.append(_set(name, params, row, str(key).lower(), val, f"{where} ({part})"))
        else:
            named = ", ".join(PRESETS.get(name, {})) or "none"
            raise PolicyError(f"{where}: {part!r} is neither KEY=VALUE, a .json file of parameters nor a preset "
                              f"of {name} (its presets: {named})")
    last = {}
    for setting in canon:
        last[setting.partition("=")[0]] = setting          # a dict keeps the key where it first stood
    return list(last.values())
