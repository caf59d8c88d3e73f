"""Turning kernel rows into files: Parquet tables and hand records.

Part of the runner layer: it knows the row layout (engine/layout.py) and
the hand-record format (records.py), and nothing above them.
"""
from __future__ import annotations

import json

import numpy as np

from euchresim.cards import SUITS, card_str
from euchresim.cards import NO_CARD, NO_KEEP
from euchresim.records.format import Record, call_str, format_record
from euchresim.rules import Rules


def parquet_bytes(res, meta: dict) -> bytes:
    """One chunk's rows as a Parquet file's bytes, stamped with the run's metadata (docs/schema.md)."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    table = hands_table(res)
    table = table.replace_schema_metadata({b"euchresim": json.dumps(meta).encode()})
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


def hands_table(res):
    """One Parquet-ready Arrow table of a chunk's hand rows (docs/schema.md)."""
    import pyarrow as pa
    rows = res.hands
    return pa.table({name: rows[name] for name in rows.dtype.names})


def _join(rules: Rules, row) -> dict:
    """What joins a row's record to the row and its game (docs/hand-record.md)."""
    out = {"chunk": int(row["chunk"]), "index": int(row["index"])}
    if row["game"] >= 0:
        out["game"] = int(row["game"])
        if row["rubber"] >= 0:
            out["rubber"] = int(row["rubber"])
        out["score"] = tuple(int(row[f"score{s}"]) for s in range(rules.players))
    return out


def row_record(rules: Rules, row, plays) -> tuple[Record, dict]:
    """A hand record and its outcome fields from one kernel row.

    The plain, field-by-field form of one row: ``records_lines`` writes the
    same text faster, and the tests hold the two to the same bytes.
    """
    P = rules.players
    alone_mask = int(row["alone"])
    calls = tuple(int(row[f"call{k}"]) for k in range(1, int(row["n_calls"]) + 1))
    maker = int(row["maker"])
    rec = Record(
        rules=rules,
        dealer=int(row["dealer"]),
        hands=tuple(int(row[f"hand{s}"]) for s in range(P)),
        dummy=int(row["dummy"]),
        upcard=int(row["upcard"]),
        kitty=int(row["kitty"]),
        joker_suit=None if row["joker_suit"] < 0 else int(row["joker_suit"]),
        calls=calls,
        alone=tuple(s for s in range(P) if (alone_mask >> s) & 1),
        discard=None if row["discard"] == NO_CARD else int(row["discard"]),
        dummy_keep=None if row["dummy_keep"] == NO_KEEP else int(row["dummy_keep"]),
        plays=tuple(int(c) for c in plays if c >= 0),
        **_join(rules, row),
    )
    outcome = {
        "maker": None if maker < 0 else maker,
        "trump": None if row["trump"] < 0 else int(row["trump"]),
        "trick_winners": [int(row[f"trick{k}"]) for k in range(1, 6) if row[f"trick{k}"] >= 0],
        "tricks": [int(row[f"tricks{s}"]) for s in range(P)],
        "points": [int(row[f"points{s}"]) for s in range(P)],
    }
    return rec, outcome


# The JSON text of cards, so records_lines can build a record's line itself:
# json.dumps of format_record's dict, byte for byte.
CARD_JSON = tuple('"' + card_str(c) + '"' for c in range(33))
CALL_JSON = tuple(json.dumps(call_str(c)) for c in range(6))
SUIT_JSON = tuple(f'"{s}"' for s in SUITS)
_ALONE_JSON = tuple("[" + ",".join(str(s) for s in range(4) if (m >> s) & 1) + "]" for m in range(16))


def _suit_pieces(suit: int) -> tuple[str, ...]:
    """For each byte of a board's suit: its cards' JSON, ace first, each with a comma after."""
    return tuple("".join(CARD_JSON[8 * suit + r] + "," for r in range(7, -1, -1) if (b >> r) & 1)
                 for b in range(256))


_PIECES = tuple(_suit_pieces(s) for s in range(4))


def board_json(mask: int) -> str:
    """A board as the JSON text of records.cards_desc's list: five lookups, not a loop over bits."""
    c, d, h, s = _PIECES
    text = (('"JK",' if (mask >> 32) & 1 else "") + s[(mask >> 24) & 255] + h[(mask >> 16) & 255]
            + d[(mask >> 8) & 255] + c[mask & 255])
    return "[" + text[:-1] + "]"        # "[]" for an empty board: the slice of "" is ""


def records_lines(rules: Rules, res):
    """JSON Lines of every hand in a chunk, outcome fields included.

    Each line is ``json.dumps(format_record(*row_record(...)))`` byte for
    byte, but built as text a field at a time over a slice of the chunk's
    columns: going through a ``Record``, a dict and ``json.dumps`` per hand
    made ``--records`` runs five times slower than ``--out`` ones.
    """
    head = f'{{"players":{rules.players},"deck":{rules.deck},'
    changed = rules.changed()
    if changed:
        head += '"rules":' + json.dumps(changed, separators=(",", ":")) + ","
    for start in range(0, len(res.hands), _SLICE):
        yield from _lines(rules, head, res.hands[start:start + _SLICE], res.plays[start:start + _SLICE])


_SLICE = 4096     # rows turned into text at a time: the columns' text stays small


def _lines(rules: Rules, head: str, rows, plays) -> list[str]:
    """The lines of some rows, one comprehension per field over the columns.

    numpy gives each column as Python ints in one call and each field's
    text is a table lookup; text stays out of the kernels (cards.py says
    why), and this is close to the fastest Python gets.
    """
    P = rules.players

    def col(name):
        return rows[name].tolist()

    def ints(names):
        return [",".join(map(str, t)) for t in zip(*[col(n) for n in names])]

    def boards(name):
        a = rows[name].astype(np.int64)
        c, d, h, s = _PIECES
        return ["[" + (('"JK",' if j else "") + s[w] + h[x] + d[y] + c[z])[:-1] + "]" for j, w, x, y, z in zip(
            ((a >> 32) & 1).tolist(), ((a >> 24) & 255).tolist(), ((a >> 16) & 255).tolist(),
            ((a >> 8) & 255).tolist(), (a & 255).tolist())]

    hands = [",".join(t) for t in zip(*[boards(f"hand{s}") for s in range(P)])]
    dummy = [',"dummy":' + t for t in boards("dummy")] if rules.has_dummy else [""] * len(rows)
    upcard = [CARD_JSON[u] for u in col("upcard")]
    joker = [SUIT_JSON[j] if j >= 0 else "null" for j in col("joker_suit")]
    calls = [",".join([CALL_JSON[c] for c in cs[:k]])
             for k, *cs in zip(col("n_calls"), *[col(f"call{k}") for k in range(1, 9)])]
    alone = [_ALONE_JSON[m] for m in col("alone")]
    discard = [CARD_JSON[c] if c >= 0 else "null" for c in col("discard")]
    keep = [board_json(k) if k != NO_KEEP else "null" for k in col("dummy_keep")]
    played = [",".join([CARD_JSON[c] for c in p if c >= 0]) for p in plays.tolist()]
    def game(g, r, score):          # what a --games or --rubbers run adds (docs/hand-record.md)
        if g < 0:
            return ""
        return f',"game":{g}' + (f',"rubber":{r}' if r >= 0 else "") + f',"score":[{score}]'

    scores = ints([f"score{s}" for s in range(P)]) if (rows["game"] >= 0).any() else [""] * len(rows)
    join = [f',"chunk":{c},"index":{i}{game(g, r, sc)}'
            for c, i, g, r, sc in zip(col("chunk"), col("index"), col("game"), col("rubber"), scores)]
    maker = [str(m) if m >= 0 else "null" for m in col("maker")]
    trump = [SUIT_JSON[t] if t >= 0 else "null" for t in col("trump")]
    winners = [",".join([str(w) for w in t if w >= 0]) for t in zip(*[col(f"trick{k}") for k in range(1, 6)])]
    tricks = ints([f"tricks{s}" for s in range(P)])
    points = ints([f"points{s}" for s in range(P)])
    return [f'{head}"dealer":{dl},"hands":[{hs}]{dm},"upcard":{up},"kitty":{kt},"joker_suit":{js},'
            f'"calls":[{cl}],"alone":{al},"discard":{dc},"dummy_keep":{kp},"plays":[{pl}]{jn},'
            f'"maker":{mk},"trump":{tr},"trick_winners":[{tw}],"tricks":[{tk}],"points":[{pt}]}}'
            for dl, hs, dm, up, kt, js, cl, al, dc, kp, pl, jn, mk, tr, tw, tk, pt in zip(
                col("dealer"), hands, dummy, upcard, boards("kitty"), joker, calls, alone, discard, keep,
                played, join, maker, trump, winners, tricks, points)]


__all__ = ["hands_table", "row_record", "records_lines", "board_json", "format_record"]
