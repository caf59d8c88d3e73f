"""A hint before the player acts: the advisor on the decision in front of them, asked by a button.

The question is the one ``euchresim advise --record`` asks of a hand cut at
that decision (studies/advisor/situation.py ``from_record``, studies/advisor/evaluate.py ``advise``, the table
of ``analysis.advisor_table.advice_table``): every option with its net points a
hand and interval, the best marked.  It is asked of the hand so far
finished by the bots (``Session.finished_by_bots``): the seat's view at the
decision does not depend on how the hand ends, so with the advisor's
samples and seed this is the very computation the hand's verdict makes of
that decision once the hand is over.

The hint runs in the advisor's worker process (``Advisor.call``), never on
the request's thread; the page asks again until it is there.  Each hint
asked is written into the hand's record (``hints``, docs/hand-record.md):
the step, and the advisor's answer if it came before the hand ended.  A
hinted decision is still judged when the hand ends, and its verdict says
so, but the session's tally leaves it out (``tally``): the tally measures
the player's own play, and a decision the advisor was asked about first
is the advisor's.
"""
from __future__ import annotations

import math
import threading

from euchresim.engine.layout import PHASE_NAMES
from euchresim.play.table import YOU, Session, TableError
from euchresim.play.verdicts import failed, summary
from euchresim.play.words import say_option

HINTED = " (you asked a hint)"


def _num(x):
    x = float(x)
    return None if math.isnan(x) else x


def hint(record: dict, step: int, policy, samples: int, seed: int = 0) -> dict:
    """The advisor's table for decision ``step`` of ``record``, as plain JSON values (run in the worker).

    Like ``review_hand``: a decision whose calls heard leave too few deals
    even for the softened model is asked on every deal the cards allow,
    and the answer says ``inference`` False.
    """
    from euchresim.analysis.advisor_table import advice_table, interval_z
    from euchresim.records.format import parse_record
    from euchresim.studies.advisor import evaluate as A
    from euchresim.studies.advisor import situation as S
    from euchresim.studies.record_text import decisions
    rec = parse_record(record)
    d = decisions(rec)[step]
    sit = S.from_record(rec, calls=d["calls"], plays=d["plays"], decision=d["kind"])
    dec = S.decision_of(sit)
    if len(dec.options) < 2:
        label = str(dec.labels[0])
        return {"best": label, "options": [{"action": label, "said": say_option(d["kind"], label), "best": True}],
                "samples": 0, "inference": True, "only": True}
    inferred = True
    try:
        adv = A.advise(sit, policy, samples=samples, seed=seed)
    except S.AdviceError:
        adv, inferred = A.advise(sit, policy, samples=samples, seed=seed, infer=False), False
    table = advice_table(adv)
    options = []
    for _, r in table.iterrows():
        options.append({"action": str(r["action"]), "said": say_option(d["kind"], str(r["action"])),
                        "points": _num(r["points"]), "low": _num(r["points_low"]), "high": _num(r["points_high"]),
                        "gap": _num(r["gap"]), "gap_low": _num(r["gap_low"]), "gap_high": _num(r["gap_high"]),
                        "best": bool(r["best"]), "equal": bool(r["equal"])})
    best = next(o["action"] for o in options if o["best"])
    return {"best": best, "options": options, "samples": int(len(adv.samples)), "inference": inferred,
            "stopped": adv.stopped, "interval_z": float(interval_z(adv))}


class Hints:
    """The hints asked at one table, by hand and step; what the page shows and what the records keep."""

    def __init__(self, session, advisor):
        self.session, self.advisor = session, advisor
        self.lock = threading.Lock()
        self.asked: dict[int, dict[int, dict]] = {}
        for i, obj in enumerate(session.finished):       # a resumed session's hints, as its records kept them
            for h in obj.get("hints") or []:
                self.asked.setdefault(i, {})[int(h["step"])] = {"status": "done" if h.get("best") else "late", **h}

    def ask(self, hand: int, step: int) -> None:
        """Ask the advisor about the player's decision at ``step`` of hand ``hand``; a TableError if not theirs.

        Asking twice for one decision asks once: the page may be reloaded,
        or the button clicked again, while the answer is on its way.
        """
        s = self.session
        if self.advisor is None:
            raise TableError("the advisor is off (--no-advice): there is no one to ask", 409)
        with s.lock:
            if hand != len(s.finished) or s.h.done:
                raise TableError(f"hand {hand} is over; a hint is for the decision in front of you")
            if step != s.step:
                raise TableError(f"that hint was for step {step}; the hand is at step {s.step}")
            if s.h.to_act != YOU:
                raise TableError("it is not your turn: a hint is for your decision")
            with self.lock:
                if step in self.asked.get(hand, {}):
                    return
                entry = {"step": step, "kind": PHASE_NAMES[s.h.phase], "status": "waiting"}
                self.asked.setdefault(hand, {})[step] = entry
            record = s.finished_by_bots()
        a = self.advisor
        fut = a.call(hint, record, step, a.model, a.samples, a.seed)
        fut.add_done_callback(lambda f: self._answered(entry, f))

    def _answered(self, entry: dict, fut) -> None:
        try:
            answer, error = fut.result(), None
        except Exception as e:              # the page says the hint failed, and why; the game goes on
            answer, error = {}, failed(f"the hint for step {entry['step']}", e)
        with self.lock:
            entry.update(answer)
            entry.update({"status": "failed", "error": error} if error else {"status": "done"})

    def of_hand(self, hand: int) -> list[dict]:
        """The hints of a hand, in the order of its steps, as the page shows them."""
        with self.lock:
            return [dict(v) for _, v in sorted(self.asked.get(hand, {}).items())]

    def steps(self, hand: int) -> set[int]:
        with self.lock:
            return set(self.asked.get(hand, {}))

    def for_record(self, hand: int) -> list[dict]:
        """What the hand's record keeps of its hints: the step and kind, and the answer if it came in time
        (``best`` null: asked, but the hand ended before the advisor answered)."""
        out = []
        for h in self.of_hand(hand):
            kept = {k: v for k, v in h.items() if k not in ("status", "error")}
            if h["status"] != "done":
                kept = {"step": h["step"], "kind": h["kind"], "best": None}
            out.append(kept)
        return out

    def pending(self) -> int:
        with self.lock:
            return sum(v["status"] == "waiting" for hand in self.asked.values() for v in hand.values())


class HintedSession(Session):
    """The table's session, whose hand records keep the hints asked (``hints``, docs/hand-record.md)."""

    hints: Hints | None = None

    def record(self, h=None):
        """The finished hand's record with its hints; a hand finished by the bots for the advisor has none."""
        rec, outcome = super().record(h)
        if h is None and self.hints is not None:
            asked = self.hints.for_record(len(self.finished))
            if asked:
                outcome = {**outcome, "hints": asked}
        return rec, outcome


def tally(advice: dict, hints: Hints | None) -> dict:
    """The advisor's state with each hinted decision's verdict marked, and the tally without them.

    A hinted decision is judged like any other and its verdict shown, but
    the session's points given up are the player's own decisions only;
    ``hinted`` says how many judged decisions the tally leaves out.
    """
    if hints is None:
        return {**advice, "hinted": 0}
    hinted = 0
    kept = []
    hands = {}
    for index, v in advice["hands"].items():
        steps = hints.steps(int(index))
        v = hands[index] = {**v, "rows": [_marked(r, steps) for r in v["rows"]],
                            "now": [_marked(r, steps) for r in v["now"]]}
        if v["status"] == "done":
            rows = [r for r in v["rows"] if r["step"] not in steps]
            hinted += len(v["rows"]) - len(rows)
            kept.append(rows)
    return {**advice, "hands": hands, "summary": summary(kept), "hinted": hinted}


def _marked(row: dict, steps: set) -> dict:
    """A verdict's row, marked if the player asked a hint at its step (a copy: the advisor's own stays as it is)."""
    if row.get("step") not in steps or "error" in row:
        return row
    return {**row, "hinted": True, "text": row["text"] + HINTED}
