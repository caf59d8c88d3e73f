"""numba kernels only: no I/O, no pandas, no Rules objects (docs/layout.md).

Kernels that allocate nothing are compiled with ``_nrt=False`` (numba's
flag for "no reference counting"): with it, every array argument and every
view stopped costing an atomic increment and decrement per call, which made
the hot loop several times faster (docs/benchmarks.md).  The flag is not in
numba's public documentation; a kernel that must allocate (``np.zeros``)
keeps the default and calls the others.  ``no_cfunc_wrapper=True`` spares a
kernel numba's C-callable wrapper, which only a first-class function (a
policy slot, ``policies.dispatch``) needs: some tens of milliseconds of a
cold compile each; the slots' functions (``no_policy``, ``no_search``,
users' policies, the slotted built-ins) keep theirs.

numba's on-disk cache notices when a kernel's own file changes, but not when
a function it calls (and inlined) changes in another file, and then it loads
stale machine code.  So euchresim's kernels are cached in a folder named
after a hash of every kernel source: any edit gives a fresh folder.  Only
euchresim's own functions go there: a cache locator (numba's hook for where
a function's cache lives) claims the functions whose source file is inside
this package, and numba's own settings (``numba.config.CACHE_DIR``) and every
other function's cache are left as they were.  The locator must be in place
before any ``@njit(cache=True)`` function is first compiled or loaded, which
is why it is registered here, in the package every kernel module imports
first.
"""
import contextlib
import functools
import gc
import hashlib
import itertools
import os

import numba
from numba.core import caching as _caching, event as _event

_PKG = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_PKG_REAL = os.path.realpath(_PKG)
_KERNEL_SOURCES = ("engine", "policies", "loops")


def _kernel_source_hash() -> str:
    h = hashlib.sha256(numba.__version__.encode())
    for entry in _KERNEL_SOURCES:
        path = os.path.join(_PKG, entry)
        files = [path] if path.endswith(".py") else sorted(
            os.path.join(path, f) for f in os.listdir(path) if f.endswith(".py"))
        for f in files:
            with open(f, "rb") as fh:
                h.update(fh.read())
    return h.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def cache_dir() -> str:
    """The folder euchresim's kernels are cached in: ``numba-<hash of the kernel sources>``.

    Under ``$NUMBA_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/euchresim`` (``~/.cache/euchresim``);
    the temporary folder where that cannot be written.
    """
    name = "numba-" + _kernel_source_hash()
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "euchresim")
    path = os.path.join(base, name)
    try:
        os.makedirs(path, exist_ok=True)
        if os.access(path, os.W_OK):
            return path
    except OSError:
        pass
    import tempfile   # a read-only home: cache in the temp folder instead
    return os.path.join(tempfile.gettempdir(), f"euchresim-{os.getuid() if hasattr(os, 'getuid') else 0}", name)


def _in_package(py_file: str) -> bool:
    try:
        return os.path.commonpath([_PKG_REAL, os.path.realpath(py_file)]) == _PKG_REAL
    except ValueError:      # another drive (Windows)
        return False


# set on a function (not its dispatcher) before numba sees it: a user's policy that euchresim's own
# ``user_policy`` compiles, which may inline euchresim's kernels, is cached with them
KERNEL_MARK = "_euchresim_kernel"


class _EuchresimCacheLocator(_caching._SourceFileBackedLocatorMixin, _caching._CacheLocator):
    """Caches a function defined in a euchresim source file under :func:`cache_dir`, by subfolder.

    ``euchresim/loops/hands.py`` goes to ``cache_dir()/loops``; numba names the
    files in it after the module and the function (``hands._play_hands-229.py311.nbi``).
    A function marked with ``KERNEL_MARK`` (``policies.user_policy``) goes to
    ``cache_dir()/user/<folder>_<hash of its path>``.  Any other function is not
    claimed (``from_function`` gives None) and numba's own locators place it as
    they always would.
    """

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        if _in_package(py_file):
            rel = os.path.relpath(os.path.dirname(os.path.realpath(py_file)), _PKG_REAL)
            parts = () if rel == os.curdir else tuple(rel.split(os.sep))
        else:
            parts = ("user", self.get_suitable_cache_subpath(py_file))
        self._cache_path = os.path.join(cache_dir(), *parts)

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if not (_in_package(py_file) or getattr(py_func, KERNEL_MARK, False)):
            return None
        return super().from_function(py_func, py_file)


def _register_locator() -> None:
    impl = getattr(_caching, "CacheImpl", None) or _caching._CacheImpl     # _CacheImpl before numba 0.61
    classes = impl._locator_classes
    if not any(getattr(c, "__qualname__", None) == _EuchresimCacheLocator.__qualname__
               and getattr(c, "__module__", None) == __name__ for c in classes):
        classes.insert(0, _EuchresimCacheLocator)    # before numba's: it claims euchresim's functions only


_register_locator()


@contextlib.contextmanager
def _folder_lock(folder: str):
    """Holds an exclusive lock on ``folder/.lock``, shared by every process on the machine (POSIX's flock);
    where there is no flock (Windows), no lock, as numba has none."""
    try:
        import fcntl
        fd = os.open(os.path.join(folder, ".lock"), os.O_RDWR | os.O_CREAT, 0o644)
    except (ImportError, OSError):
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)          # closing the file releases the lock


# numba's own save (a re-import of this module must not wrap the wrapper)
_numba_save = getattr(_caching.IndexDataCacheFile.save, "_numba_save", _caching.IndexDataCacheFile.save)


def _inside(path: str, folder: str) -> bool:
    try:
        return os.path.commonpath([os.path.abspath(path), os.path.abspath(folder)]) == os.path.abspath(folder)
    except ValueError:      # another drive (Windows)
        return False


def _save(self, key, data):
    """numba's ``IndexDataCacheFile.save``, made safe for processes saving into one of euchresim's folders.

    numba reads a function's index, picks the first data file name the index does not use, writes the
    index, then the data.  Two processes saving two signatures of one kernel at once (the test suite's
    workers, a run's workers on a cold cache) both read the index before either writes it, pick the same
    name, and one's index entry can end up naming the other's machine code, which numba loads without a
    check, every later run too.  Here the read, the pick and both writes are done under a lock on the
    folder, and the data is written before the index that names it (a reader never finds an entry
    whose file is yet to come).  Every other function's cache saves as numba does.
    """
    # no folder of euchresim's is known before a locator of its own has asked for cache_dir()
    if not (cache_dir.cache_info().currsize and _inside(self._cache_path, cache_dir())):
        return _numba_save(self, key, data)
    with _folder_lock(self._cache_path):
        overloads = self._load_index()
        name = overloads.get(key)
        if name is None:
            used = set(overloads.values())
            name = next(n for n in map(self._data_name, itertools.count(1)) if n not in used)
        self._save_data(name, data)
        if overloads.get(key) != name:
            overloads[key] = name
            self._save_index(overloads)


_save._numba_save = _numba_save
_caching.IndexDataCacheFile.save = _save

# the folder kernels_cached() looks in, and the index numba writes there for the hot loop
# (loops/hands.py, _play_hands: run_hands is Python around it): "<module>.<function>-<first line>.py<version>.nbi"
_HOT_LOOP_FOLDER = "loops"
_HOT_LOOP_INDEX = "hands._play_hands-"


def kernels_cached() -> bool:
    """Whether the hot loop's machine code is in the cache (else its first call compiles it: minutes)."""
    try:
        names = os.listdir(os.path.join(cache_dir(), _HOT_LOOP_FOLDER))
    except OSError:
        return False
    return any(name.startswith(_HOT_LOOP_INDEX) and name.endswith(".nbi") for name in names)


class _FewerCollectionsWhileCompiling(_event.Listener):
    """Python's garbage collector runs less often while numba compiles one of euchresim's kernels.

    A cold compile makes and drops millions of IR objects, and at the
    default thresholds every few hundred allocations start a collection,
    some of them full ones that walk every object alive: 2-5 s of the
    default run's compile.  A young generation of 50,000 objects instead
    of 700 keeps the short-lived garbage collected (the peak memory stays
    where it was) with a few full collections in all.  Only a compile that
    starts at a euchresim kernel (and the compiles nested in it) changes the
    thresholds, and they are put back when it ends: a user's own numba
    functions, compiled in the same process, compile as they would without
    euchresim.  numba compiles under its own lock, so the events come one
    compile at a time.
    """

    THRESHOLD = (50_000, 10, 10)

    def __init__(self):
        self._depth = 0
        self._saved = None

    @staticmethod
    def _ours(event) -> bool:
        dispatcher = (event.data or {}).get("dispatcher")
        module = getattr(getattr(dispatcher, "py_func", None), "__module__", None) or ""
        return module == "euchresim" or module.startswith("euchresim.")

    def on_start(self, event):
        if self._depth:
            self._depth += 1
        elif self._ours(event):
            self._saved = gc.get_threshold()
            gc.set_threshold(*self.THRESHOLD)
            self._depth = 1

    def on_end(self, event):
        if self._depth:
            self._depth -= 1
            if self._depth == 0:
                gc.set_threshold(*self._saved)


_event.register("numba:compile", _FewerCollectionsWhileCompiling())
