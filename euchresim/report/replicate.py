"""Rates measured again: a report's headline rates on hands of their own, and the refusal of one that differs.

The order-up and loner reports measure every targeted headline cell again
(``targeted_cells.replicated``); the rates reports (``euchre-rates``,
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
