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
  ``.py`` path): a ``@user_policy`` function, jitted, or a ``@bot`` function of a ``Decision``, played
  as plain Python; with the parameters it declares (``params=...``); with ``check`` a ``@user_policy``
  function built with bounds checks, with ``python`` played uncompiled, as plain Python (policies/user.py).
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from euchresim.policies.builtin import BASELINE_PARAMS
from euchresim.policies.decision import Action, Decision, bot
from euchresim.policies.dispatch import (BASELINE, HEURISTIC, NFNS, NSLOTS, POLICY_SIG, RANDOM, SEARCH_SIG, SLOTTED, USER, PolicySlots, SearchSlots, no_policy, no_search)
from euchresim.policies.heuristic_params import HEURISTIC_PARAMS
from euchresim.policies.params import (NPARAMS, Param, PolicyError, apply_settings, check_declared, defaults_row,
                                       param)
from euchresim.policies.search_layout import DD_PARAMS, PIMC_PARAMS
from euchresim.policies.user import (CHECK, PYTHON, PythonPolicy, declared_params, load_function,
                                     load_python_function, split_spec, user_policy)


@dataclass(frozen=True)
class Cost:
    """What a policy's hand costs, declared with it, so no caller guesses it from the name.

    A search bot takes ms a decision where a compiled one takes ns: its work
    goes in chunks of at most ``chunk`` hands (0: no cap), so a chunk is
    seconds and progress moves; the advisor deals ``batch`` deals at a time;
    a further play model of a report plays ``hands // share`` hands (pimc's
    worlds make its hand ten times dd's).  ``run.runner.chunk_size`` reads
    ``chunk``; these numbers are part of what a seed means, so they only move
    with a new engine version.
    """
    searches: bool = False      # solves deals at each decision (ms, not ns)
    chunk: int = 0
    batch: int = 1000
    share: int = 10

    def join(self, other: "Cost") -> "Cost":
        """A table's cost: as slow as its slowest seat (the smallest cap, batch; the largest share)."""
        caps = [c for c in (self.chunk, other.chunk) if c]
        return Cost(self.searches or other.searches, min(caps) if caps else 0, min(self.batch, other.batch),
                    max(self.share, other.share))


FAST = Cost()                                                  # the inlined bots and a user's compiled function
SEARCH = Cost(searches=True, chunk=250, batch=25)              # dd: one solve a decision
SEARCH_WORLDS = Cost(searches=True, chunk=250, batch=25, share=100)    # pimc: a solve for each sampled world


@dataclass(frozen=True)
class PolicyInfo:
    name: str
    pid: int
    defaults: np.ndarray
    summary: str
    params: tuple = ()          # Param, by name
    kernel: str = ""            # "module:function" of SEARCH_SIG: the function slot's kernel (a slotted built-in)
    cost: Cost = FAST           # what a hand costs: chunk sizes, batches and sample counts follow it
    cheats: bool = False        # sees every hand: a bound no fair player reaches, named so wherever shown

    @property
    def searches(self) -> bool:
        return self.cost.searches

    def param(self, key: str) -> Param | None:
        return next((p for p in self.params if p.name == key), None)


# Each built-in is one declaration: its parameters (name, slot, default, range), a summary and how it
# is reached. Three are inlined into the loop (their ids are dispatch.plain_act's branches); every other
# names its kernel (a SEARCH_SIG function) and gets the next function slot, SLOTTED + k, filled from the
# declaration by ``functions``: a new built-in of that kind is one entry below and nothing else. Its
# defaults row is made from the parameters, never written apart.
def _info(name, pid, summary, params=(), kernel="", cost=FAST, cheats=False):
    check_declared(params, name)          # names and slots once each, every slot in the row
    return PolicyInfo(name, pid, defaults_row(params), summary, tuple(params), kernel, cost, cheats)


_INLINED = (
    _info("random", RANDOM, "uniform over the legal actions at every decision"),
    _info("baseline", BASELINE, "a fixed rule of thumb for every decision", BASELINE_PARAMS),
    _info("heuristic", HEURISTIC, "a tunable point count and sound card play (docs/policies.md)",
          HEURISTIC_PARAMS),
)
# every slotted built-in searches (dd solves each deal, pimc each sampled world): ms a decision where the inlined
# bots take ns, which sets their chunk sizes, sample counts and workers (``Cost``)
_SLOTTED = tuple(_info(name, SLOTTED + k, summary, params, kernel, cost, cheats)
                 for k, (name, summary, params, kernel, cost, cheats) in enumerate((
    ("dd", "CHEATS: sees every hand and plays double-dummy (an upper bound, not a player)", DD_PARAMS,
     "euchresim.policies.dd:dd_act", SEARCH, True),
    ("pimc", "samples the unseen cards, solves each world double-dummy, takes the best mean", PIMC_PARAMS,
     "euchresim.policies.pimc:pimc_act", SEARCH_WORLDS, False),
)))
if len(_SLOTTED) > NSLOTS:
    raise RuntimeError(f"{len(_SLOTTED)} slotted built-ins, room for dispatch.NSLOTS = {NSLOTS}")
POLICIES = {p.name: p for p in _INLINED + _SLOTTED[::-1]}          # listed as they were: ..., pimc, dd
BY_PID = {p.pid: p for p in POLICIES.values()}
DD, PIMC = POLICIES["dd"].pid, POLICIES["pimc"].pid

# ``best``: the strongest fair bot with its settings, by the duels of docs/policies.md ("`best`"; the test
# in tests/test_best.py holds it to the first line of that table). A name for a definition, read as BEST
# wherever a policy is named, so a run's canonical name records what played.
BEST = "pimc:bid_worlds=100:max_worlds=200"


def head(spec) -> str:
    """A written policy name's first part, lower-cased: ``best`` of ``best:worlds=20``, ``openspiel`` of
    ``openspiel:ismcts:sims=1000``.  Which family a name belongs to, told without reading the name (nothing
    is loaded or checked): what a caption or a player's label asks of a name it shows."""
    return str(spec).strip().split(":", 1)[0].strip().lower()


def identity(spec) -> tuple:
    """A written-out policy name's identity as text: (name, its settings sorted, its flags sorted), a later
    setting of a key overriding an earlier one, so ``pimc:bid_worlds=100:max_worlds=200`` and
    ``pimc:max_worlds=200:bid_worlds=100`` are one bot.  Like ``head``, nothing is read or loaded (a
    ``best`` stays ``best``): for comparing names quoted in text, such as the docs' duel tables."""
    from euchresim.policies.user import split_spec
    text = str(spec).strip()
    name, rest = ((head(text), text.split(":")[1:]) if head(text) in POLICIES or ":" not in text
                  else split_spec(text))
    settings = dict(p.split("=", 1) for p in rest if "=" in p)
    flags = tuple(sorted(p for p in rest if p and "=" not in p))
    return name.lower(), tuple(sorted(settings.items())), flags


def split_name(spec: str):
    """The one reading of a policy's name: (built-in PolicyInfo or None, name, settings, flags).

    ``heuristic:order_2=5`` is (heuristic's info, "heuristic", ["order_2=5"], set());
    ``mymod:bot:risk=0.2:check`` is (None, "mymod:bot", ["risk=0.2"], {"check"}).  A
    name that is neither a built-in nor ``MODULE:FUNCTION`` is a PolicyError.
    """
    if not isinstance(spec, str) or not spec.strip():
        raise PolicyError(f"empty policy name; known: {known()}")
    spec = spec.strip()
    head, _, tail = spec.partition(":")
    if head.strip().lower() == "best":
        head, _, tail = (BEST + (":" + tail if tail else "")).partition(":")
    info = POLICIES.get(head.strip().lower())
    if info is not None:
        return info, info.name, tail.split(":") if tail else [], set()
    if ":" not in spec:
        raise PolicyError(f"unknown policy {spec!r}; known: {known()}, or MODULE:FUNCTION")
    name, rest = split_spec(spec)
    flags = {part.strip().lower() for part in rest} & {CHECK, PYTHON}
    return None, name, [part for part in rest if part.strip().lower() not in flags], flags


def _declared(spec) -> list:
    """Each seat's built-in declaration in ``spec``: None for a user's policy or a name refused later, with its seat.

    ``spec``: a policy as given, several joined by commas (one per seat), a
    list of them, a ``Policy`` or a ``Seats``.
    """
    if isinstance(spec, (Policy, Seats)):
        return [p.info for p in (spec.policies if isinstance(spec, Seats) else [spec])]
    parts = [spec] if isinstance(spec, str) else [str(p) for p in spec]

    def one(part):
        try:
            return split_name(part)[0]
        except PolicyError:
            return None
    return [one(q) for part in parts for q in str(part).split(",")]


def cheats(spec) -> bool:
    """Whether a policy sees every hand (``dd``): a bound no fair player can reach, to be named so wherever shown.

    ``spec`` is a policy as given (``dd:search_bids=0``), several joined by
    commas (one per seat), a ``Policy`` or a ``Seats``: any seat that cheats
    makes the result a bound.  Declared with each built-in (``PolicyInfo.cheats``).
    """
    return any(info is not None and info.cheats for info in _declared(spec))


def known() -> str:
    return ", ".join(POLICIES) + ", best"


@dataclass(frozen=True, eq=False)
class Policy:
    """One seat's policy, read from its name once: what the loop, the slow loop and the outputs each need.

    ``pid`` is the built-in's id, or ``USER`` for a user's function ``fn``
    (numba-compiled, or a ``PythonPolicy`` played as plain Python);
    ``row`` its parameters; ``name`` its canonical name (every setting
    written out, so a run's record does not depend on presets staying).
    """
    name: str
    pid: int
    row: np.ndarray
    fn: object = None

    @property
    def info(self) -> PolicyInfo | None:
        """The built-in's declaration; None for a user's function."""
        return None if self.pid == USER else BY_PID.get(self.pid)

    @property
    def cheats(self) -> bool:
        return self.info is not None and self.info.cheats

    @property
    def cost(self) -> Cost:
        return self.info.cost if self.info is not None else FAST

    @property
    def searches(self) -> bool:
        return self.cost.searches

    @property
    def python(self) -> bool:
        return isinstance(self.fn, PythonPolicy)


def parse(spec: str, seat: int = 0) -> Policy:
    """Read one seat's policy from its name, loading a user's module (see the module docstring for the forms)."""
    where = f"--policy (seat {seat})"
    try:
        info, name, rest, flags = split_name(spec)
    except PolicyError as e:
        raise PolicyError(f"{where}: {e}") from None
    if info is not None:
        row = info.defaults.astype(np.float64).copy()
        canon = [info.name] + apply_settings(info.name, info.params, row, rest, f"{where} {info.name}")
        return Policy(":".join(canon), info.pid, row)
    if flags == {CHECK, PYTHON}:
        raise PolicyError(f"{where}: {spec.strip()}: '{CHECK}' builds a jitted function with bounds checks, "
                          f"'{PYTHON}' plays it uncompiled (Python checks every index itself): name one")
    fn = load_python_function(name, where) if PYTHON in flags else load_function(name, where, CHECK in flags)
    declared = declared_params(fn)
    row = defaults_row(declared)
    canon = [name] + apply_settings(name, declared, row, rest, where) + sorted(flags)
    return Policy(":".join(canon), USER, row, fn)


def _split(names, players):
    if isinstance(names, (str, Policy)):
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
        if isinstance(n, Policy):
            out.append(n)             # read already, as it was named
            continue
        try:
            info, _, _, flags = split_name(n)
        except PolicyError:
            out.append(n)             # refused with its seat when resolved
            continue
        out.append(n + ":" + CHECK if info is None and not flags else n)
    return out


@dataclass(frozen=True, eq=False)
class Seats:
    """Every seat's policy, parsed once where it is named: what a run, a table, an advisor and a bot carry.

    ``pids`` and ``params`` are the kernel's arrays (4 rows; a user's
    function sits in user slot ``seat``), ``names`` the canonical names.
    Two tables of the same canonical names are equal.  Pickled (to a
    worker) it is its canonical names, rebuilt once per process
    (``rebuilt``): a compiled function does not cross processes, a name does.
    """
    policies: tuple

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.policies]

    @property
    def text(self) -> str:
        """The canonical text: every seat's canonical name, joined by commas."""
        return ",".join(self.names)

    def __iter__(self):
        return iter(self.policies)

    def __len__(self) -> int:
        return len(self.policies)

    def __eq__(self, other) -> bool:
        return isinstance(other, Seats) and self.names == other.names

    def __hash__(self) -> int:
        return hash(tuple(self.names))

    def __reduce__(self):
        return rebuilt, (tuple(self.names),)

    def __repr__(self) -> str:
        return f"Seats({self.text!r})"

    def for_players(self, players: int) -> "Seats":
        """This table's one policy at every seat of a table of ``players`` (a report's other variants), read
        already: nothing is parsed again.  A table whose seats differ has no one policy to seat."""
        if len(self) == players:
            return self
        first = self.policies[0]
        if any(p.name != first.name for p in self.policies):
            raise PolicyError(f"{self.text}: the seats play different policies; "
                              f"only one policy for every seat is seated at another table")
        return Seats((first,) * players)

    @property
    def pids(self) -> np.ndarray:
        pids = np.zeros(4, dtype=np.int64)
        for s, p in enumerate(self.policies):
            pids[s] = USER + s if p.pid == USER else p.pid
        return pids

    @property
    def params(self) -> np.ndarray:
        params = np.zeros((4, NPARAMS), dtype=np.float64)
        for s, p in enumerate(self.policies):
            params[s] = p.row
        return params

    @property
    def cheats(self) -> bool:
        return any(p.cheats for p in self.policies)

    @property
    def cost(self) -> Cost:
        """The table's cost: its slowest seat's (``Cost.join``)."""
        out = FAST
        for p in self.policies:
            out = out.join(p.cost)
        return out

    def functions(self, python_ok=False):
        """The first-class functions ``pids`` point into: (NFNS user slots, NSLOTS built-in slots).

        Unused slots hold ``no_policy`` and ``no_search`` (never called).  A
        seat played as plain Python (``:python``) is asked by loops/slow.py,
        which only whole hands and games use (``python_ok``, the runner's);
        every other caller plays its kernels compiled, and refuses it here.
        """
        fns = [no_policy] * NFNS
        search = [no_search] * NSLOTS
        for s, p in enumerate(self.policies):
            if p.python:
                if not python_ok:
                    fix = (f"drop ':{PYTHON}'" if p.name.endswith(":" + PYTHON) else
                           "a @user_policy function plays everywhere")
                    raise PolicyError(f"--policy {p.name}: a policy played as plain Python (a @bot, or ':{PYTHON}') "
                                      f"plays whole hands and games (simulate, duel, ladder), not this; {fix}")
                continue              # asked from Python by loops/slow.py; the jitted slot is never called
            if p.fn is not None:
                fns[s] = p.fn
            elif BY_PID[p.pid].kernel and search[p.pid - SLOTTED] is no_search:
                search[p.pid - SLOTTED] = _slot_function(BY_PID[p.pid].kernel)
        return PolicySlots(fns), SearchSlots(search)

    def python_functions(self):
        """Each user slot's plain-Python function (``MODULE:FUNCTION:python``), or None when no seat has one.

        A chunk with any is played by loops/slow.py, which asks these seats
        from Python and every other seat through the jitted dispatch.
        """
        slots = [None] * NFNS
        for s, p in enumerate(self.policies):
            if p.python:
                slots[s] = p.fn
        return tuple(slots) if any(f is not None for f in slots) else None


def seats(names, players, check: bool = False) -> Seats:
    """Read one policy for every seat, or one per seat: the parse at the edge, each name once.

    A ``Seats`` of ``players`` seats is taken as it is, and so is a
    ``Policy``; a name given for several seats is read once (at its first
    seat, which an error names).  ``check``: every user's policy built
    with bounds checks (``with_checks``, the CLI's --check-policy).
    """
    if isinstance(names, Seats) and len(names) == players and not check:
        return names
    names = _split(list(names) if isinstance(names, Seats) else names, players)
    if check:
        names = with_checks(names)
    read: dict = {}
    out = []
    for s, n in enumerate(names):
        if isinstance(n, Policy):
            out.append(n)
            continue
        if n not in read:
            read[n] = parse(n, s)
        out.append(read[n])
    return Seats(tuple(out))


def handed(table, players: int, door: str) -> Seats:
    """What a library door (``RunSpec``, ``DuelSpec``, ``advise``) was handed, checked: a ``Seats`` of
    ``players`` seats, read where its name entered; a name is refused in one line saying how to read it."""
    if not isinstance(table, Seats):
        raise PolicyError(f"{door}: {table!r} is not a policies.Seats; read the name where it enters: "
                          f"policies.seats({[table] if isinstance(table, str) else table!r}, {players})")
    if len(table) != players:
        raise PolicyError(f"{door}: {len(table)} seats' policies for {players} players")
    return table


def canonical(spec) -> str:
    """What a policy given as text stands for, every setting written out (``best`` is ``pimc:...``): several
    joined by commas (one per seat) each become theirs; a ``Seats`` is its ``text``.

    For a script that names a policy where no table is to be made (the
    library itself writes out the tables it was handed: ``Seats.text``); a
    PolicyError for a name that cannot be read.  Each name is read as
    ``parse`` reads it (at seat 0).
    """
    if isinstance(spec, Seats):
        return spec.text
    return ",".join(parse(p.strip()).name for p in str(spec).split(","))


@functools.lru_cache(maxsize=None)
def rebuilt(names: tuple) -> Seats:
    """A ``Seats`` from its canonical names, once per process: how a table crosses to a worker (``Seats.__reduce__``)."""
    return Seats(tuple(parse(n, s) for s, n in enumerate(names)))


def resolve(names, players):
    """Per-seat (pids, params, canonical names) from one policy or one per seat."""
    t = seats(names, players)
    return t.pids, t.params, t.names


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
    """``seats(names, players).functions(python_ok)``: the loop's function slots."""
    return seats(names, players).functions(python_ok)


def python_functions(names, players):
    """``seats(names, players).python_functions()``: the plain-Python seats, or None."""
    return seats(names, players).python_functions()


__all__ = ["bot", "head", "Decision", "Action", "Policy", "Seats", "parse", "seats", "canonical", "rebuilt", "handed", "split_name", "cheats", "Cost", "with_checks", "POLICIES", "NPARAMS", "Param", "PolicyError", "PolicyInfo", "POLICY_SIG", "resolve", "functions",
           "user_policy", "python_functions", "param", "load_function"]


def __getattr__(name):
    """A name of no form of policy: the one-line error says which forms there are."""
    if name == "python_policy":
        raise ImportError("euchresim.policies has no python_policy: a policy in plain Python is a function of a "
                          "Decision, decorated with @euchresim.policies.bot (docs/policies.md, 'A first bot')")
    raise AttributeError(f"module 'euchresim.policies' has no attribute {name!r}")
