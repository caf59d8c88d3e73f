"""The jitted play-out loop, written three times, holds one source.

numba forbids passing the dispatch as a parameter without a compile of its
own per caller, so ``loops.hands.play_out`` has two written-out copies: the
hot loop's (``_play_hands``, out of the inlining's way) and the advisor's
(``advisor_kernels._play_rest``, through its one compiled ``_ask`` and
``_apply``). A change to one that skipped another would make the advisor
or the hot loop play other hands than ``play_out``'s callers; so the
loops' text, names mapped, must be one.
"""
import inspect
import re
import textwrap

from euchresim.loops import advisor_kernels, hands


def _loop(fn, end: str | None = None) -> str:
    """The text of ``fn``'s ``while st[PHASE] != PH_DONE:`` loop, dedented, up to ``end`` (its body's end)."""
    src = inspect.getsource(fn.py_func if hasattr(fn, "py_func") else fn)
    start = src.index("while st[PHASE] != PH_DONE:")
    head = src.rindex("\n", 0, start) + 1
    stop = src.index(end, start) if end else len(src)
    return textwrap.dedent(src[head:stop]).strip()


def _as_play_out(text: str) -> str:
    """A copy's loop in play_out's words: its names for the stream and the calls, its way out of the loop."""
    text = re.sub(r"\bprng\b", "rng", text)
    text = text.replace("_ask(", "act(").replace("_apply(", "apply_legal(")
    text = re.sub(r"random_tricks\(st, priv, tab, rng\)\n(\s*)break", r"random_tricks(st, priv, tab, rng)\n\1return 0",
                  text)
    return re.sub(r"err = st\[ERR\]\n(\s*)break", r"return st[ERR]", text)


def test_the_hot_loop_and_the_advisor_play_out_as_play_out_does():
    one = _loop(hands.play_out, "\n    return 0")
    hot = _as_play_out(_loop(hands._play_hands, "write_row("))
    advisor = _as_play_out(_loop(advisor_kernels._play_rest, "\n    return 0"))
    assert "act(pids[U(seat)]" in one and "apply_legal(st, priv, tab, a, legal)" in one
    assert hot == one
    assert advisor == one
