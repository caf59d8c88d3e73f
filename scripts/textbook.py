"""The textbook hands of docs/advise.md: the advisor's answer beside published strategy's (issue 34).

    python scripts/textbook.py            # run every situation, rewrite the table in docs/advise.md
    python scripts/textbook.py --check    # run them and say whether the docs table is up to date

Each situation of euchresim/studies/textbook.py is asked of ``euchresim advise``
as a player would ask it (the default table, heuristic:human, with the answer
against heuristic beside it), with the seed and the number of deals below, so
the table is the same on every run. The table goes between the markers
``<!-- textbook:start -->`` and ``<!-- textbook:end -->`` of docs/advise.md;
the words on the disagreements under it are written by hand.
tests/test_textbook.py reads the same functions: the situations the table
marks as agreeing must still be answered so, and the table must be this
script's.
"""
from __future__ import annotations

import contextlib
import datetime
import io
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from euchresim.studies.textbook import SITUATIONS, Textbook  # noqa: E402

SEED = 0
SAMPLES = 4000          # the most deals a situation plays; the early stop usually ends sooner
DOC = os.path.join(ROOT, "docs", "advise.md")
START, END = "<!-- textbook:start -->", "<!-- textbook:end -->"
COMMAND = "python scripts/textbook.py"


def ask(sit: Textbook, samples: int = SAMPLES, seed: int = SEED) -> dict:
    """The advisor's JSON answer to one situation, at the default table with the answer against heuristic."""
    from euchresim.cli.app import main
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(sit.argv() + ["--samples", str(samples), "--seed", str(seed), "--json", "--quiet"])
    return json.loads(out.getvalue())


def _gap(ans: dict) -> str:
    """The recommendation's margin in P(win) with its interval, or "too close to call"."""
    c = ans.get("confidence")
    if c is None:
        return "every option equal"
    lo, hi = c["gap_ci"]
    text = f"+{100 * c['gap']:.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}] over {c['next_best']}"
    return ("too close to call: " if c["too_close"] else "") + text


def verdict(sit: Textbook, ans: dict) -> dict:
    """What the table shows of one answer: the two tables' picks and whether each is the textbook's."""
    people = ans["recommended"]
    bots = ans.get("against_bots", ans)["recommended"]
    close = bool(ans.get("confidence") and ans["confidence"]["too_close"])
    if sit.answer.startswith("not "):
        # the texts rule one option out and choose none of the rest: the advisor agrees when that option's
        # P(win) interval lies wholly below the recommendation's (stricter than the paired gap)
        win = {a["action"]: a["win_probability_ci"] for a in ans["actions"]}
        agree = sit.agrees(people) and win[sit.answer[4:]][1] < win[people][0]
    else:
        agree = sit.agrees(people) and not close
    return {"id": sit.id, "people": people, "bots": bots, "gap": _gap(ans), "close": close,
            "agree": agree, "agree_bots": sit.agrees(bots)}


def _situation_text(sit: Textbook) -> str:
    parts = [f"`{sit.hand}`", f"{'turned down' if sit.round == 2 else 'up'} `{sit.upcard}`", sit.seat]
    if sit.calls:
        parts.append(f"calls {sit.calls}")
    if sit.decision in ("play", "discard"):
        parts.append("the lead" if sit.decision == "play" else "the discard")
    if sit.score:
        parts.append(f"score {sit.score}")
    rules = []
    if sit.players != 4:
        rules.append({2: "2-hand", 3: "Cutthroat"}[sit.players])
    if sit.deck != 24:
        rules.append(f"deck {sit.deck}")
    if sit.stick_the_dealer:
        rules.append("stick the dealer")
    return ("**" + ", ".join(rules) + "**: " if rules else "") + ", ".join(parts)


def table(rows: list[dict], date: str) -> str:
    """The markdown between the markers: how it was made, then one row a situation."""
    by_id = {s.id: s for s in SITUATIONS}
    n_agree = sum(r["agree"] for r in rows)
    lines = [START, "",
             f"Made by `{COMMAND}` on {date} (seed {SEED}, at most {SAMPLES:,} deals a situation, the default "
             f"table `heuristic:human` with the answer against `heuristic` beside it): "
             f"{n_agree} of {len(rows)} agree.", "",
             "| id | situation | textbook | at a table of people (P(win) gap, percentage points) "
             "| against heuristic | agree | principle (source) |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        s = by_id[r["id"]]
        lines.append(f"| {s.id} | {_situation_text(s)} | {s.answer} | {r['people']}: {r['gap']} | {r['bots']} "
                     f"| {'agree' if r['agree'] else 'disagree'} | {s.principle} ([source]({s.source})) |")
    lines += ["", END]
    return "\n".join(lines)


def run(situations=SITUATIONS, say=print) -> list[dict]:
    rows = []
    for sit in situations:
        r = verdict(sit, ask(sit))
        say(f"{sit.id:34} textbook {sit.answer:22} people {r['people']:22} bots {r['bots']:22} "
            f"{'agree' if r['agree'] else 'DISAGREE'}  {r['gap']}")
        rows.append(r)
    return rows


def doc_rows(text: str) -> dict[str, dict]:
    """The rows of the table in the docs, by id: the textbook answer, the two picks and the agreement."""
    inside = text.split(START, 1)[1].split(END, 1)[0]
    out = {}
    for line in inside.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 7 and cells[0] not in ("id", "---"):
            out[cells[0]] = {"answer": cells[2], "people": cells[3].split(":")[0], "gap": cells[3],
                             "bots": cells[4], "agree": cells[5] == "agree"}
    return out


def write(block: str, path: str = DOC) -> None:
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    head, rest = text.split(START, 1)
    tail = rest.split(END, 1)[1]
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(head + block + tail)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    rows = run()
    if "--check" in argv:
        with open(DOC, encoding="utf-8") as fh:
            have = doc_rows(fh.read())
        want = doc_rows(table(rows, "today"))
        print("the docs table is up to date" if have == want else "the docs table differs: run without --check")
        return 0 if have == want else 1
    write(table(rows, datetime.date.today().isoformat()))
    print(f"{sum(r['agree'] for r in rows)} of {len(rows)} agree; docs/advise.md written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
