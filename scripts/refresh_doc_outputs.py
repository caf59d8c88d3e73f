"""Write again the output a page quotes after each of its Python examples, from a run of the example.

    python scripts/refresh_doc_outputs.py docs/advise.md [docs/play.md ...]

tests/test_docs.py runs every ```python block of README.md and docs/*.md and
holds it to the bare block after it (the output it quotes). When a change
moves what an example prints on purpose (a new line, other numbers), this
script runs each example exactly as that test does (its section's bash
setup first, in a fresh folder) and puts what it printed in place of the
quoted block. Quoted outputs with a ``...`` line (an excerpt) are left
alone and named, to be brought up to date by hand. Read the diff before
committing: the script trusts the code, the reader should not.
"""
from __future__ import annotations

import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from tests import test_docs as T  # noqa: E402  (the test's own readers and runners, so the two agree)


def refresh(page: str) -> int:
    """Rewrite ``page``'s quoted outputs in place; the number changed."""
    blocks = T._blocks(page)
    lines = T._read(page).splitlines()
    changed = 0
    for k in reversed(range(len(blocks))):                  # from the end: earlier line numbers stay right
        b = blocks[k]
        quoted = T._quoted_output(blocks, k)
        if b["lang"] != "python" or quoted is None:
            continue
        if "..." in quoted.split("\n"):
            print(f"{page}:{b['line']}: an excerpt (a '...' line): left as it is")
            continue
        here = os.getcwd()
        with tempfile.TemporaryDirectory() as tmp:
            os.chdir(tmp)
            try:
                for setup in T._setup(blocks, k):
                    for line, words in T._commands(setup):
                        T._run_line(line, words, tmp, shrunk=False)
                printed, _ = T._run_python(b["text"].replace("/tmp/", f"{tmp}/"), f"{page}:{b['line']}")
            finally:
                os.chdir(here)
        new = [ln.rstrip() for ln in printed.splitlines()]
        old = [ln.rstrip() for ln in quoted.splitlines()]
        if new == old:
            continue
        out = blocks[k + 1]
        first = out["line"]                                  # the quoted block's first line (after its fence)
        lines[first:first + len(quoted.splitlines())] = new
        changed += 1
        print(f"{page}:{b['line']}: quoted output written again ({len(old)} lines -> {len(new)})")
    if changed:
        with open(os.path.join(ROOT, page), "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
    return changed


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for p in sys.argv[1:]:
        refresh(os.path.relpath(os.path.abspath(p), ROOT))
