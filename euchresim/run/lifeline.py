"""A worker process ends when the process that started it does, however that one goes.

A parent stopped by Ctrl-C or SIGTERM stops its workers itself; one killed
by SIGKILL or the out-of-memory killer runs no code at all, and its
workers would otherwise sleep on for good, each holding its memory (a
worker blocked on its job pipe never sees it close: a sibling forked later
holds a copy of the parent's end).  So each worker watches its parent two
ways, from its first moment:

* on Linux, ``prctl(PR_SET_PDEATHSIG, SIGKILL)``: the kernel kills the
  worker when its parent goes, even in the middle of a numba kernel that
  holds the interpreter's lock and would let no Python thread run;
* everywhere, a daemon thread that looks at ``os.getppid()`` twice a
  second: a worker whose parent is gone has been handed to another
  process, and exits.

The kernel's signal comes when the *thread* that started the worker ends,
not the process; a worker started off the main thread by a thread that
may end before the process (``thread_bound=False``) is watched by the
thread alone.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
import time

PR_SET_PDEATHSIG = 1
POLL = 0.5          # seconds between the watchdog's looks at the parent


def started_on_main_thread() -> bool:
    """Whether a worker started now dies with its parent's process (and not with a thread that ends earlier)."""
    return threading.current_thread() is threading.main_thread()


def die_with_parent(parent_pid: int, thread_bound: bool = True, ignore_sigint: bool = True) -> None:
    """Call first thing in a worker: exit when ``parent_pid`` (the parent, as it knew itself) is gone.

    ``ignore_sigint``: Ctrl-C at a terminal reaches every process of its
    group; the parent alone hears it and stops its workers, so a worker
    prints no traceback of its own.
    """
    if ignore_sigint:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    if thread_bound and sys.platform.startswith("linux"):
        _pdeathsig(signal.SIGKILL)
    if os.getppid() != parent_pid:          # it went before the signal was asked for
        os._exit(1)
    threading.Thread(target=_watch, args=(parent_pid,), name="lifeline", daemon=True).start()


def _pdeathsig(sig: int) -> None:
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, int(sig), 0, 0, 0)
    except (OSError, AttributeError):       # no prctl here: the watchdog thread alone
        pass


def _watch(parent_pid: int) -> None:
    while os.getppid() == parent_pid:
        time.sleep(POLL)
    os._exit(1)
