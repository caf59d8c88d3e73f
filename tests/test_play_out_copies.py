"""The jitted play-out loop is written once, the dispatch its parameter.

``loops.hands.play_out_with(ask, apply, ...)`` is the loop. ``play_out`` and
the hot loop ``_play_hands`` pass it ``act`` and ``apply_legal``; the
advisor's ``_play_rest`` passes its compiled-once ``_ask`` and ``_apply``.
It used to be written three times by hand and held equal here by text; a
change to one copy that skipped another would have had the advisor or the
hot loop play other hands than ``play_out``'s callers.

The parameter costs nothing only under two conditions, which these tests
hold. The loop must only ever be inlined: a compiled call that takes a
function is keyed by that function's identity, so numba's on-disk cache
misses it in every new process (numba 0.68, measured) and a cold compile
follows. And numba's inliner must follow a global passed through an
inlined function's parameter to the global and inline it: the hot loop
then has ``act`` and ``apply_legal`` inlined as its written-out copy had
them, not called.
"""
import inspect
import os

import numba
import pytest
from numba import njit
from numba.core import ir
from numba.core.compiler import Flags
from numba.core.inline_closurecall import InlineWorker
from numba.core.registry import cpu_target

from euchresim.engine.hand import apply_legal
from euchresim.loops import advisor_kernels, hands
from euchresim.policies.dispatch import act

LOOPS = os.path.dirname(hands.__file__)
LOOP_LINE = "if all_random and st[PHASE] == PH_PLAY:"        # the loop's own line: its fast path


def _src(fn) -> str:
    return inspect.getsource(getattr(fn, "py_func", fn))


def test_the_loop_is_written_once():
    found = []
    for name in sorted(os.listdir(LOOPS)):
        if name.endswith(".py"):
            with open(os.path.join(LOOPS, name), encoding="utf-8") as fh:
                found += [name] * fh.read().count(LOOP_LINE)
    assert found == ["hands.py"]
    assert LOOP_LINE in _src(hands.play_out_with)


def test_each_caller_plays_the_one_loop_with_its_dispatch():
    for fn, ask, apply in ((hands.play_out, "act", "apply_legal"), (hands._play_hands, "act", "apply_legal"),
                           (advisor_kernels._play_rest, "_ask", "_apply")):
        assert f"play_out_with({ask}, {apply}, st, priv, tab, pids, params, fns, " in _src(fn), fn.__name__
    assert hands.act is act and hands.apply_legal is apply_legal
    assert advisor_kernels._ask.targetoptions.get("inline") is None        # the advisor's: compiled once, called


def test_the_loop_is_only_inlined():
    """Never a compiled function of its own: its dispatch argument would miss the cache in every process."""
    assert hands.play_out_with.targetoptions.get("inline") == "always"
    for fn in (hands.play_out, advisor_kernels._play_rest):
        assert fn.targetoptions.get("inline") == "always"


def _calls(py_func) -> set:
    """The globals ``py_func``'s IR still calls once numba's untyped passes ran: what was not inlined.

    numba's own inliner (``InlineWorker``, as the ``InlineInlinables`` pass
    runs it) without typing or machine code: seconds, not a compile.  Its
    ``pipeline`` is only handed on to the passes, which need none here.
    """
    flags = Flags()
    flags.nrt = False
    worker = InlineWorker(cpu_target.typing_context, cpu_target.target_context, {}, object(), flags)
    fir = worker.run_untyped_passes(py_func)
    names = set()
    for block in fir.blocks.values():
        for expr in block.find_exprs(op="call"):
            callee = fir.get_definition(expr.func)
            if isinstance(callee, (ir.Global, ir.FreeVar)):
                names.add(getattr(callee.value, "__name__", str(callee.value)))
    return names


def test_the_advisor_calls_its_dispatch_through_the_loop():
    """The parameter resolved to the advisor's globals: ``_ask`` and ``_apply`` called, compiled once."""
    rest = _calls(advisor_kernels._play_rest.py_func)
    assert {"_ask", "_apply", "random_tricks"} <= rest
    assert not {"play_out_with", "act", "apply_legal"} & rest


@pytest.mark.slow
def test_the_hot_loop_has_the_dispatch_inlined():
    """The hot loop calls neither ``act`` nor ``apply_legal``: both inlined through the parameter, as in
    the written-out copy it had (some 20 s: the inliner copies every policy in)."""
    hot = _calls(hands._play_hands.py_func)
    assert {"random_tricks", "heuristic_decide"} <= hot                  # the loop and the dispatch, inlined
    assert not {"act", "apply_legal", "play_out_with"} & hot


@njit(inline="always")
def _twice(f, x):
    return f(x) + f(x + 1)


@njit(inline="always")
def _inlined(x):
    return x * 3


@njit
def _called(x):
    return x * 5


@njit
def _through_inlined(x):
    return _twice(_inlined, x)


@njit
def _through_called(x):
    return _twice(_called, x)


def test_numba_follows_a_global_through_an_inlined_parameter():
    """The numba behaviour the loop rests on, in small: typed, compiled, and the calls as lowered."""
    assert _through_inlined(2) == 15 and _through_called(2) == 25

    def dispatch_calls(fn):
        cres = fn.overloads[fn.signatures[0]]
        ta = cres.type_annotation
        return [str(ta.typemap[e.func.name]) for e in ta.calltypes if getattr(e, "op", "") == "call"
                and isinstance(ta.typemap[e.func.name], numba.core.types.Dispatcher)]

    assert dispatch_calls(_through_inlined) == []
    assert len(dispatch_calls(_through_called)) == 2 and "_called" in dispatch_calls(_through_called)[0]
