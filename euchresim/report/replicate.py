"""Rates measured again: a report's headline rates on hands of their own, and the refusal of one that differs.

The order-up and loner reports measure every targeted headline cell again
(``replicated``); the rates reports (``euchre-rates``,
``decks``) do the same for the rates their readers quote: the same run
again, the same size, from a seed derived apart (``again_seed``), its own
kept work, and a two-proportion z for each rate.  Where Holm's method over
all of a report's z's finds one beyond chance, the report is not written.
"""
from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from euchresim.analysis.targeted_stats import rate_replication

AGAIN_KEY = 0xA6A1


def again_seed(seed: int) -> int:
    """The seed of a report's runs measured again: the first 32-bit word of SeedSequence([seed, 0xA6A1]),
    derived so a report stays one seed, another stream so the hands are their own."""
    return int(np.random.SeedSequence([int(seed), AGAIN_KEY]).generate_state(1)[0])


def again_spec(spec):
    """``spec`` (a ``runner.RunSpec``) from the seed measured again."""
    return dataclasses.replace(spec, seed=again_seed(spec.seed))


def rates_again(out: str, head: pd.DataFrame, again: pd.DataFrame, keys: list) -> pd.DataFrame:
    """``head``'s rates with their measures again and z's (``analysis.targeted_stats.rate_replication``);
    a rate beyond chance stops the report with one line naming it."""
    from euchresim.report import ReportError
    for name, df in (("its rates", head), ("their measures again", again)):
        twice = df[df.duplicated(keys, keep=False)]
        if len(twice):
            raise ReportError(f"{out}: {name} hold a rate twice ({', '.join(map(str, twice[keys].iloc[0]))}): "
                              "is a model given twice?")
    missing = head.merge(again[keys], on=keys, how="left", indicator=True)
    missing = missing[missing["_merge"] == "left_only"]
    if len(missing):
        raise ReportError(f"{out}: a rate with no measure again ({', '.join(map(str, missing[keys].iloc[0]))})")
    res = rate_replication(head, again, keys)
    bad = res[res["beyond_chance"]]
    if len(bad):
        said = "; ".join(" ".join(str(r[k]) for k in keys) + f": {100 * r['value']:.1f}%, again "
                         f"{100 * r['again_value']:.1f}% (z {r['z_again']:+.1f})" for _, r in bad.iterrows())
        raise ReportError(f"{out}: headline rates disagree with their measures again beyond chance (Holm, 5% "
                          f"over {res.attrs['tests']} comparisons): {said}; the report is not written, its kept "
                          "work is")
    return res.drop(columns=["beyond_chance"])


def again_words(res: pd.DataFrame, what: str, table: str, name) -> str:
    """The paragraph a README gives its rates measured again: how many, the largest z and where (``name`` of a
    row says where in words)."""
    z = res["z_again"].abs()
    if not z.notna().any():
        return ""
    w = res.loc[z.idxmax()]
    where = name(w)
    digits = next((d for d in (1, 2, 3) if f"{100 * w['value']:.{d}f}" != f"{100 * w['again_value']:.{d}f}"), 3)
    return (f"Each {what} is measured again on hands of its own, as many, from a seed derived apart "
            f"(`again_count`, `again_of`, `again_value`, `z_again` in `{table}`): {int(z.notna().sum())} "
            f"comparisons, the largest |z| {z.max():.1f} ({where}: {100 * w['value']:.{digits}f}% against "
            f"{100 * w['again_value']:.{digits}f}%), none beyond chance (Holm's method, 5% family-wise; one that "
            f"were would stop the report).")


# ---- the targeted headline cells measured again (order-up, loner): kept apart from report/targeted_cells.py,
# whose dealing is part of the play code's fingerprint, so that a change of these words never voids kept work

def replicated(ctx, head: pd.DataFrame, simulate_again, keys=("position", "hand_class")) -> pd.DataFrame:
    """``head`` with every headline cell measured again on deals of its own (``simulate_again(ctx)`` is the
    report's targeted simulation, run with ``ctx.replicate`` 1: its own seeds, its own kept work), the z's
    of ``analysis.targeted_stats.replication``; a cell that disagrees beyond chance stops the report (ReportError,
    one line naming the cells), so that a headline no fresh run reproduces is never printed."""
    from euchresim.analysis.call_stats import gain_table
    from euchresim.analysis.targeted_stats import replication
    from euchresim.report import ReportError
    again_df = simulate_again(dataclasses.replace(ctx, replicate=1))
    keys = list(keys)
    again = gain_table(again_df, keys) if len(again_df) else pd.DataFrame(
        columns=keys + ["n", "gain", "ci_low", "ci_high"])
    again = again.assign(**{k: again[k].astype(str) for k in keys if k == "position"})
    out = replication(head, again, keys)
    missing = out[out["not_again"] & (out["position"].astype(str) != "all seats")] if "position" in out else \
        out[out["not_again"]]
    if len(missing):
        said = "; ".join(f"{r['position']} {r['hand_class']}: {int(r['reached'])} hands, again "
                         f"{int(0 if r['replicate_n'] != r['replicate_n'] else r['replicate_n'])}"
                         for _, r in missing.iterrows())
        raise ReportError(f"{ctx.out}: headline cells not measured again (under 30 hands on deals of their own): "
                          f"{said}; the report is not written, its kept work is")
    bad = out[out["beyond_chance"]]
    if len(bad):
        said = "; ".join(f"{r['position']} {r['hand_class']}: {r['gain']:+.2f}, again {r['replicate_gain']:+.2f} "
                         f"(z {r['z_replicate']:+.1f})"
                         + (f", untargeted {r['untargeted_gain']:+.2f} (z {r['z_untargeted']:+.1f})"
                            if "z_untargeted" in r and np.isfinite(r["z_untargeted"]) else "")
                         for _, r in bad.iterrows())
        raise ReportError(f"{ctx.out}: headline cells disagree with their measures again beyond chance "
                          f"(Holm, 5% over {out.attrs['tests']} comparisons): {said}; the report is not written, "
                          "its kept work is")
    return out


def replication_words(h) -> str:
    """A headline cell's replicate and its z's, as the README says them."""
    if "replicate_n" not in h or not np.isfinite(h.get("replicate_gain", np.nan)):
        return ""
    out = (f"measured again on deals of its own {h['replicate_gain']:+.2f} ({int(h['replicate_n']):,} hands, "
           f"z {h['z_replicate']:+.1f}")
    if np.isfinite(h.get("z_untargeted", np.nan)):
        out += f"; against the untargeted cell z {h['z_untargeted']:+.1f}"
    return out + ")"


def short_words(reached: int, asked: int) -> str:
    """A targeted cell that stopped short of ``--class-reached``'s count (the seat reaches it on under one deal in
    twenty of its kind: ``targeted_cells.until_reached``), said in brackets after its figures; nothing otherwise."""
    if not asked or reached >= asked:
        return ""
    return f" (short of the {asked:,} asked: the seat reaches it on few of the deals that hold it)"
