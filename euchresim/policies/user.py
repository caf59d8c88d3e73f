"""Users' own policies: the decorator, loading a module by name or by path, the checked build.

Two ways to name a policy file must give one module: numba caches a
function's machine code per source file, and the cached code remembers the
name of the module it was compiled in (it imports that name to load).  A
file loaded as ``mymod`` one day and as some other name the next would
find the other's cache entry and fail until the cache was deleted.  So
``path/to/mymod.py`` is imported as ``mymod``, just as ``mymod`` is from
its folder (a file inside a package as its dotted name, as ``python -m``
names it), and never under a name of our own.

Neither kind of import leaves the current folder, or the file's, on
``sys.path``: the folder is searched for that one import only.
"""
from __future__ import annotations

import functools
import importlib
import os
import sys
from dataclasses import dataclass

from euchresim.policies.dispatch import POLICY_SIG
from euchresim.policies.params import PolicyError, declare

CHECK = "check"     # the setting (``mymod:fn:check``, or --check-policy) that builds the function with bounds checks
PYTHON = "python"   # the setting (``mymod:fn:python``) that plays the function as plain Python (loops/slow.py)
BOT_MARK = "_euchresim_bot"   # set by ``policies.decision.bot``: a function of a Decision, always played as Python
FORMS = ("decorate it with @euchresim.policies.user_policy (a jitted function of the policy signature) or "
         "@euchresim.policies.bot (a function of a Decision, played as plain Python); docs/policies.md, 'Your own policy'")


@dataclass(frozen=True)
class PythonPolicy:
    """A policy played as plain Python: the function itself (a jitted one's ``py_func``) and what it declares."""
    fn: object
    params: tuple = ()

    def __call__(self, *args):
        return self.fn(*args)


def user_policy(fn=None, *, params=()):
    """Decorator: compile ``fn`` as a policy function (``@njit`` with POLICY_SIG, cached).

    ``@user_policy(params=(param("risk", 0.5, 0.0, 1.0, "..."), ...))``
    declares the function's parameters: the k-th is ``params[k]`` in the
    function, set on the command line as ``mymod:fn:risk=0.3``.
    """
    def build(f):
        from numba import njit
        owner = f"{f.__module__}:{f.__name__}"
        declared = declare(params, owner)
        from euchresim.engine import KERNEL_MARK
        setattr(f, KERNEL_MARK, True)      # cached with the kernels it may call (engine/__init__.py)
        try:
            try:
                disp = njit(POLICY_SIG, cache=True)(f)
            except RuntimeError:     # numba has no file to cache it by (code run from a string, some notebooks)
                disp = njit(POLICY_SIG)(f)
        except Exception as e:       # numba's typing error, pages long: its first line names the problem
            first = next((ln for ln in str(e).splitlines() if ln.strip()), type(e).__name__)
            raise PolicyError(f"{owner} does not compile for the policy signature: {first.strip()}") from None
        disp.policy_params = declared
        return disp
    return build if fn is None else build(fn)


def declared_params(fn) -> tuple:
    """The parameters a user's function declared (``user_policy(params=...)`` or ``bot(params=...)``)."""
    if isinstance(fn, PythonPolicy):
        return fn.params
    return getattr(fn, "policy_params", ())


def load_python_function(spec: str, where: str) -> PythonPolicy:
    """The function ``module:function`` names, to be called from Python: a jitted one's own Python code."""
    mod_name, _, fn_name = spec.rpartition(":")
    if not mod_name or not fn_name:
        raise PolicyError(f"{where}: {spec!r} is not MODULE:FUNCTION")
    fn = getattr(load_module(mod_name, where), fn_name, None)
    if fn is None:
        raise PolicyError(f"{where}: module {mod_name!r} has no {fn_name!r}")
    _check_form(fn, spec, where)
    return PythonPolicy(getattr(fn, "py_func", fn), fn.policy_params)


def _check_form(fn, spec: str, where: str) -> None:
    """Refuse anything but the two forms of a user's policy, ``@user_policy`` and ``@bot``, in one line naming them.

    Both declare the function's parameters (``policy_params``), which is
    how a function made by either is told from a bare ``@njit`` or an
    undecorated one.
    """
    if not callable(fn) or not hasattr(fn, "policy_params"):
        what = "a plain @njit function" if hasattr(fn, "py_func") else "not a policy"
        raise PolicyError(f"{where}: {spec} is {what}: {FORMS}")


def _import(name: str, folder: str):
    """``import name`` with ``folder`` searched first, for this import only."""
    added = folder not in sys.path
    if added:
        sys.path.insert(0, folder)
    try:
        return importlib.import_module(name)
    finally:
        if added and folder in sys.path:
            sys.path.remove(folder)


def _module_name(path: str):
    """(the module name a plain import gives the file at ``path``, the folder that import searches)."""
    folder, base = os.path.split(os.path.abspath(path))
    parts = [os.path.splitext(base)[0]]
    while os.path.isfile(os.path.join(folder, "__init__.py")):      # a package: name it from above its top
        folder, pkg = os.path.split(folder)
        parts.insert(0, pkg)
    return ".".join(parts), folder


def _same_file(a, b) -> bool:
    try:
        return a is not None and os.path.samefile(a, b)
    except OSError:
        return False


def load_module(mod_name: str, where: str):
    """The module ``mod_name`` names: importable (the current folder searched too) or a ``.py`` path."""
    try:
        if mod_name.endswith(".py"):
            if not os.path.isfile(mod_name):
                raise FileNotFoundError(f"no file {mod_name}")
            name, folder = _module_name(mod_name)
            module = _import(name, folder)
            if not _same_file(getattr(module, "__file__", None), mod_name):
                raise ImportError(f"the name {name!r} is taken by {getattr(module, '__file__', None)}: rename one")
            return module
        return _import(mod_name, os.getcwd())
    except PolicyError as e:      # a declaration the module makes as it loads (user_policy(params=...))
        raise PolicyError(f"{where}: {e}") from None
    except Exception as e:        # any failure of the user's module is one line, not a traceback
        msg = str(e).splitlines()[0] if str(e) else ""
        raise PolicyError(f"{where}: cannot load module {mod_name!r}: {type(e).__name__}: {msg}") from None


def load_function(spec: str, where: str, checked: bool = False):
    """The jitted function ``module:function`` names, compiled for POLICY_SIG (with bounds checks if ``checked``)."""
    mod_name, _, fn_name = spec.rpartition(":")
    if not mod_name or not fn_name:
        raise PolicyError(f"{where}: {spec!r} is not MODULE:FUNCTION")
    module = load_module(mod_name, where)
    fn = getattr(module, fn_name, None)
    if fn is None:
        raise PolicyError(f"{where}: module {mod_name!r} has no {fn_name!r}")
    if getattr(fn, BOT_MARK, False):
        return PythonPolicy(fn, fn.policy_params)
    _check_form(fn, spec, where)
    return _checked(fn) if checked else fn


@functools.lru_cache(maxsize=None)
def _checked(fn):
    """``fn`` built again with numba's bounds checks: an index out of range raises IndexError, not a crash.

    Never cached on disk: numba's cache does not tell a checked build from
    the plain one, so a checked entry could be loaded for the plain one
    (and the other way round).  Only the user's own function is checked,
    not the kernels it calls.
    """
    from numba import njit
    disp = njit(POLICY_SIG, boundscheck=True)(fn.py_func)
    disp.policy_params = declared_params(fn)
    return disp


def split_spec(spec: str):
    """``MODULE:FUNCTION[:SETTING...]`` as (MODULE:FUNCTION, [SETTING...]); a Windows drive stays in MODULE."""
    parts = spec.split(":")
    if len(parts) > 2 and len(parts[0]) == 1 and parts[0].isalpha() and parts[1][:1] in ("\\", "/"):
        parts = [parts[0] + ":" + parts[1]] + parts[2:]
    return ":".join(parts[:2]), parts[2:]
