"""Turning kernel rows into files: Parquet tables and hand records.

Part of the ``sim`` layer: it knows the row layout (engine/layout.py) and
the hand-record format (records.py), and nothing above them.
"""
from __future__ import annotations

import json

from .cards import SUITS, card_str
from .records import Record, call_str, format_record
from .rules import Rules


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
        upcard=int(row["upcard"]).bit_length() - 1,     # the row holds a one-card board
        kitty=int(row["kitty"]),
        joker_suit=None if row["joker_suit"] < 0 else int(row["joker_suit"]),
        calls=calls,
        alone=tuple(s for s in range(P) if (alone_mask >> s) & 1),
        discard=None if row["discard"] < 0 else int(row["discard"]),
        dummy_keep=None if row["dummy_keep"] == 0 else int(row["dummy_keep"]),
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
    byte, but built as text from the chunk's columns: going through a
    ``Record``, a dict and ``json.dumps`` per hand made ``--records`` runs
    several times slower than ``--out`` ones.
    """
    rows = res.hands
    n = len(rows)
    if n == 0:
        return
    P = rules.players
    col = {name: rows[name].tolist() for name in rows.dtype.names}
    plays = res.plays.tolist()
    head = f'{{"players":{P},"deck":{rules.deck},'
    changed = rules.changed()
    if changed:
        head += '"rules":' + json.dumps(changed, separators=(",", ":")) + ","
    hand_cols = [col[f"hand{s}"] for s in range(P)]
    call_cols = [col[f"call{k}"] for k in range(1, 9)]
    trick_cols = [col[f"trick{k}"] for k in range(1, 6)]
    tricks_cols = [col[f"tricks{s}"] for s in range(P)]
    points_cols = [col[f"points{s}"] for s in range(P)]
    score_cols = [col[f"score{s}"] for s in range(P)]
    dummy_col = col["dummy"] if rules.has_dummy else None
    for i in range(n):
        parts = [head, '"dealer":', str(col["dealer"][i]), ',"hands":[',
                 ",".join([board_json(h[i]) for h in hand_cols]), "]"]
        if dummy_col is not None:
            parts += [',"dummy":', board_json(dummy_col[i])]
        js = col["joker_suit"][i]
        discard = col["discard"][i]
        keep = col["dummy_keep"][i]
        parts += [',"upcard":', CARD_JSON[col["upcard"][i].bit_length() - 1],
                  ',"kitty":', board_json(col["kitty"][i]),
                  ',"joker_suit":', "null" if js < 0 else SUIT_JSON[js],
                  ',"calls":[', ",".join([CALL_JSON[c[i]] for c in call_cols[:col["n_calls"][i]]]),
                  '],"alone":', _ALONE_JSON[col["alone"][i]],
                  ',"discard":', "null" if discard < 0 else CARD_JSON[discard],
                  ',"dummy_keep":', "null" if keep == 0 else board_json(keep),
                  ',"plays":[', ",".join([CARD_JSON[c] for c in plays[i] if c >= 0]),
                  '],"chunk":', str(col["chunk"][i]), ',"index":', str(col["index"][i])]
        game = col["game"][i]
        if game >= 0:
            parts += [',"game":', str(game)]
            rubber = col["rubber"][i]
            if rubber >= 0:
                parts += [',"rubber":', str(rubber)]
            parts += [',"score":[', ",".join([str(c[i]) for c in score_cols]), "]"]
        maker = col["maker"][i]
        trump = col["trump"][i]
        parts += [',"maker":', "null" if maker < 0 else str(maker),
                  ',"trump":', "null" if trump < 0 else SUIT_JSON[trump],
                  ',"trick_winners":[', ",".join([str(c[i]) for c in trick_cols if c[i] >= 0]),
                  '],"tricks":[', ",".join([str(c[i]) for c in tricks_cols]),
                  '],"points":[', ",".join([str(c[i]) for c in points_cols]), "]}"]
        yield "".join(parts)


__all__ = ["hands_table", "row_record", "records_lines", "board_json", "format_record"]
