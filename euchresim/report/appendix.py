"""The appendix of every report: the exact deal odds next to the simulated ones.

A 5-card hand is a uniform draw from the cards it can get (R4), so how
many trumps, bowers or voids it holds has exact odds (``analysis.odds``,
by counting).  The appendix prints them for each pack the report played,
next to the same counts in the report's own simulated deals (seat 0's
hand, upcard's suit trump, joker upcards left out), each with its Wilson
interval: a check of the deal, and a reminder of how much of a result is
the cards.

``appendix(ctx, hands)``: ``hands`` is simulated hand rows of
``ctx.rules.deck`` (anything with ``upcard`` and ``hand0`` columns), a
dict ``{deck: rows}`` for several packs, or None (exact odds only).
``deal_rows(ctx, rules, count)`` plays such rows (resumably) from the
appendix's own seed (``appendix_seed``), so the check is made on deals
independent of those the report's findings come from, and two reports of
one seed do not check the same deals their findings used.
"""
from __future__ import annotations

import functools
from fractions import Fraction

import numpy as np
import pandas as pd

from euchresim.stats import mean_ci, wilson
from euchresim.analysis.odds import distribution, expected, odds_table
from euchresim.cards import has_joker
from euchresim.report import chunked, md_table, spec_key

SAMPLE = 100_000           # simulated deals the appendix looks at, at most
COLUMNS = ["what", "deck", "k", "exact", "exact_fraction", "count", "of", "simulated", "ci_low", "ci_high",
           "inside"]
WHAT_WORDS = {"trumps": "trumps", "bowers": "bowers (right and left)", "voids": "void suits (as played)",
              "joker": "jokers"}


def whats(deck: int) -> tuple:
    return ("trumps", "bowers", "voids") + (("joker",) if has_joker(deck) else ())


def _rows_frame(rows) -> pd.DataFrame | None:
    if rows is None:
        return None
    if isinstance(rows, pd.DataFrame):
        return rows[["upcard", "hand0"]]
    return pd.DataFrame({"upcard": np.asarray(rows["upcard"], np.int64), "hand0": np.asarray(rows["hand0"], np.int64)})


def odds_frames(hands_by_deck: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the full table: every what, pack and k; the summary: mean trumps and P(3+ trumps) per pack)."""
    parts, summary = [], []
    for deck, rows in hands_by_deck.items():
        rows = _rows_frame(rows)
        for what in whats(deck):
            t = odds_table(deck, what, rows)
            ex = distribution(deck, what)
            t.insert(0, "deck", deck)
            t.insert(0, "what", what)
            t["exact_fraction"] = [str(f) for f in ex["exact"]]
            parts.append(t[[c for c in COLUMNS if c in t.columns]])
        tr = distribution(deck, "trumps")
        three = sum((e for k, e in zip(tr["k"], tr["exact"]) if k >= 3), Fraction(0))
        mean = expected(deck, "trumps")
        row3 = {"deck": deck, "statistic": "P(3+ trumps)", "exact": float(three), "exact_fraction": str(three)}
        rowm = {"deck": deck, "statistic": "mean trumps", "exact": float(mean), "exact_fraction": str(mean)}
        if rows is not None:
            t = parts[-len(whats(deck))]          # this pack's trumps table
            n = int(t["of"].iloc[0]) if len(t) else 0
            k3 = int(t.loc[t["k"] >= 3, "count"].sum())
            lo, hi = wilson(k3, n)
            row3.update(count=k3, of=n, simulated=k3 / n if n else float("nan"), ci_low=lo, ci_high=hi)
            s = int((t["k"] * t["count"]).sum())
            s2 = int((t["k"] * t["k"] * t["count"]).sum())
            m, lo, hi = mean_ci(s, s2, n)
            rowm.update(count=s, of=n, simulated=m, ci_low=lo, ci_high=hi)
        summary += [rowm, row3]
    full = pd.concat(parts, ignore_index=True)
    if "inside" in full.columns:
        full["inside"] = full["inside"].astype(bool)
    return full, pd.DataFrame(summary)


def appendix_seed(seed: int) -> int:
    """The seed of the appendix's deals: the first 32-bit word of numpy's SeedSequence([seed, 0xA99E]).

    Derived, so a report stays one seed; hashed, so it is not the seed (or
    seed + 1) of any other run a user is likely to make.
    """
    return int(np.random.SeedSequence([int(seed), 0xA99E]).generate_state(1)[0])


def _pct(v) -> str:
    return f"{100 * v:.1f}%"


def appendix(ctx, hands=None, decks=None) -> tuple[str, dict]:
    """(markdown, {name: DataFrame}) of the deal odds for ``decks`` (default: the packs of ``hands``,
    else ``ctx.rules.deck``), with the simulated counts where ``hands`` has rows of that pack."""
    if isinstance(hands, dict):
        by_deck = dict(hands)
    else:
        by_deck = {ctx.rules.deck: hands}
    if decks is not None:
        by_deck = {d: by_deck.get(d) for d in decks}
    have_rows = all(v is not None for v in by_deck.values())
    if not have_rows:                     # one column layout for every pack: exact odds only
        by_deck = dict.fromkeys(by_deck)
    full, summary = odds_frames(by_deck)
    lines = ["## Appendix: the deal's exact odds", ""]
    lines.append("What a 5-card hand holds when the upcard's suit is trump (so the hand is 5 of the other "
                 "cards), computed exactly by counting (hypergeometric; `analysis.odds`)"
                 + (", next to the same counts in deals simulated for this appendix from its own seed "
                    f"{appendix_seed(ctx.seed)} (derived from the report's seed {ctx.seed}: "
                    "`report.appendix.appendix_seed`), independent of the deals the findings come from "
                    "(seat 0's hand; deals with a joker upcard left out), each with its Wilson 95% interval."
                    if have_rows else
                    "; this report kept no deals to set beside them.")
                 + " Tables `appendix_deal_odds.csv` (every count) and `appendix_summary.csv`.")
    lines.append("")
    for deck in by_deck:
        m, t3 = (summary[(summary["deck"] == deck) & (summary["statistic"] == w)].iloc[0]
                 for w in ("mean trumps", "P(3+ trumps)"))
        s = f"- {deck} cards: a hand holds {m.exact:.3f} trumps on average (exactly {m.exact_fraction})"
        if have_rows:
            s += f", simulated {m.simulated:.3f} ({m.ci_low:.3f}–{m.ci_high:.3f}, {m['of']:,} deals)"
        s += f"; 3 or more trumps with probability {_pct(t3.exact)} (exactly {t3.exact_fraction})"
        if have_rows:
            s += f", simulated {_pct(t3.simulated)} ({_pct(t3.ci_low)}–{_pct(t3.ci_high)})"
        lines.append(s + ".")
    if have_rows:
        inside = int(full["inside"].sum())
        lines += ["", f"{inside} of {len(full)} exact values lie inside the simulated 95% interval "
                      f"(about 1 in 20 may miss by chance)."]
    for what in ("trumps", "bowers", "voids", "joker"):
        t = full[full["what"] == what]
        if t.empty:
            continue
        lines += ["", f"### Number of {WHAT_WORDS[what]} in a hand", ""]
        show = t.drop(columns=["what"] + (["inside"] if "inside" in t.columns else []))
        lines.append(md_table(show))
    return "\n".join(lines) + "\n", {"appendix_deal_odds": full, "appendix_summary": summary}


# ---------------------------------------------------------------- simulated deals
def _deal_job(rules, seed, count, chunk_size, keep, i):
    """The first ``keep`` deals of chunk i (the deal stream does not depend on the policies)."""
    from euchresim.run import runner
    spec = runner.RunSpec(rules=rules, seed=seed, count=count, chunk_size=chunk_size)     # every seat random
    res = runner.play_chunk(spec, i, keep_rows=True)
    h = res.hands[:keep]
    return {"upcard": h["upcard"].astype(np.int64), "hand0": h["hand0"].astype(np.int64)}


def deal_rows(ctx, rules=None, count: int | None = None) -> pd.DataFrame:
    """Up to SAMPLE deals of the appendix's own seed (``appendix_seed``), as rows.

    A chunk's deal stream does not depend on the policies (run/runner.py), so the
    cheap ``random`` policy deals them.
    """
    from euchresim.run import runner
    rules = rules or ctx.rules
    count = count or min(ctx.hands, SAMPLE)
    seed = appendix_seed(ctx.seed)
    size = runner.chunk_size("hands", count, hands=ctx.chunk_size)
    n_chunks = -(-count // size)
    keep = -(-min(count, SAMPLE) // n_chunks)
    spec = {"what": "deals", "rules": rules.to_dict(), "seed": seed, "count": count, "chunk": size,
            "keep": keep}
    parts = chunked(ctx, "deals-" + spec_key(spec), spec, n_chunks,
                    functools.partial(_deal_job, rules, seed, count, size, keep), label=f"deals {rules.deck}")
    return pd.DataFrame({k: np.concatenate([p[k] for p in parts]) for k in ("upcard", "hand0")})
