"""numba kernels only: no I/O, no pandas, no Rules objects (see STYLE.md).

Kernels that allocate nothing are compiled with ``_nrt=False`` (numba's
flag for "no reference counting"): with it, every array argument and every
view stopped costing an atomic increment and decrement per call, which made
the hot loop several times faster (docs/benchmarks.md).  The flag is not in
numba's public documentation; a kernel that must allocate (``np.zeros``)
keeps the default and calls the others.

numba's on-disk cache notices when a kernel's own file changes, but not when
a function it calls (and inlined) changes in another file, and then it loads
stale machine code.  So the cache lives in a folder named after a hash of
every kernel source: any edit gives a fresh folder.  This must run before
any ``@njit(cache=True)`` decorator, which is why it sits here, in the
package every kernel module imports first.
"""
import hashlib
import os

import numba

_PKG = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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


def _cache_dir() -> str:
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "euchresim")
    path = os.path.join(base, "numba-" + _kernel_source_hash())
    try:
        os.makedirs(path, exist_ok=True)
        if os.access(path, os.W_OK):
            return path
    except OSError:
        pass
    import tempfile   # a read-only home: cache in the temp folder instead
    return os.path.join(tempfile.gettempdir(), f"euchresim-{os.getuid() if hasattr(os, 'getuid') else 0}",
                        "numba-" + _kernel_source_hash())


numba.config.CACHE_DIR = _cache_dir()


def kernels_cached() -> bool:
    """Whether the hot loop's machine code is in the cache (else the first call compiles it, ~20-30 s)."""
    try:
        return any(name.startswith("hands.") and name.endswith(".nbi") for name in os.listdir(numba.config.CACHE_DIR))
    except OSError:
        return False
