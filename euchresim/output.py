"""Turning kernel rows into files: Parquet tables and hand records.

Part of the ``sim`` layer: it knows the row layout (engine/layout.py) and
the hand-record format (records.py), and nothing above them.
"""
from __future__ import annotations

import json


from .records import Record, format_record
from .rules import Rules


def hands_table(res):
    """One Parquet-ready Arrow table of a chunk's hand rows (docs/schema.md)."""
    import pyarrow as pa
    rows = res.hands
    return pa.table({name: rows[name] for name in rows.dtype.names})


def row_record(rules: Rules, row, plays) -> tuple[Record, dict]:
    """A hand record and its outcome fields from one kernel row."""
    P = rules.players
    alone_mask = int(row["alone"])
    calls = tuple(int(row[f"call{k}"]) for k in range(1, int(row["n_calls"]) + 1))
    maker = int(row["maker"])
    rec = Record(
        rules=rules,
        dealer=int(row["dealer"]),
        hands=tuple(int(row[f"hand{s}"]) for s in range(P)),
        dummy=int(row["dummy"]),
        upcard=int(row["upcard"]).bit_length() - 1,     # the row holds a one-card board
        kitty=int(row["kitty"]),
        joker_suit=None if row["joker_suit"] < 0 else int(row["joker_suit"]),
        calls=calls,
        alone=tuple(s for s in range(P) if (alone_mask >> s) & 1),
        discard=None if row["discard"] < 0 else int(row["discard"]),
        dummy_keep=None if row["dummy_keep"] == 0 else int(row["dummy_keep"]),
        plays=tuple(int(c) for c in plays if c >= 0),
    )
    outcome = {
        "maker": None if maker < 0 else maker,
        "trump": None if row["trump"] < 0 else int(row["trump"]),
        "trick_winners": [int(row[f"trick{k}"]) for k in range(1, 6) if row[f"trick{k}"] >= 0],
        "tricks": [int(row[f"tricks{s}"]) for s in range(P)],
        "points": [int(row[f"points{s}"]) for s in range(P)],
    }
    return rec, outcome


def records_lines(rules: Rules, res):
    """JSON Lines of every hand in a chunk, outcome fields included."""
    for row, plays in zip(res.hands, res.plays):
        rec, outcome = row_record(rules, row, plays)
        yield json.dumps(format_record(rec, outcome), separators=(",", ":"))


