"""One table of action names: every action code of every phase, and each word it goes by (issue 37).

The engine takes an integer whose meaning depends on the phase (the
decision's kind, ``PHASE_NAMES``); people read words, and not the same
words everywhere on purpose:

* ``record``: the word a hand record and ``show`` write (the record's
  call words ``pass``, ``order``, a suit letter are a published format,
  docs/hand-record.md: they never change; ``alone``/``not alone`` is how
  ``show`` says the record's ``alone`` list);
* ``bot``: the ``Action`` name a bot author reads and returns
  (``policies.decision``: ``pass``, ``order``, ``hearts``, ``alone``);
* ``said``: the words shown to a player (the practice table's buttons,
  the advisor's options): they depend on the players (``with partner`` in
  4 players, ``take the dummy`` in Cutthroat) and, ordering the upcard, on
  whether the seat deals (``pick up``);
* ``advice``: the advisor's option label where it is not ``said``'s
  (the joker's suit, labelled by its letter).

Cards (a discard, a play) are named by ``cards.card_str`` in every
column, a Cutthroat keep by its five cards.  Pure Python, below the
engine: it imports ``cards`` only, and ``engine.layout`` takes
``PHASE_NAMES`` and the action codes from here (as it takes ``NO_CARD``
from ``cards``), so a record reader names calls without numpy.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass

from euchresim.cards import SUIT_NAMES, SUITS, card_str

# The phases (one per kind of decision), in the engine's order: engine.layout's PH_* index this.
PHASE_NAMES = ("joker_suit", "bid1", "bid2", "alone", "defend_alone", "discard", "dummy_keep", "play", "done")
CARD_PHASES = ("discard", "play")            # the code is a card index
BID2_PASS = 4                                # round two: 0..3 name a suit, 4 passes (R6)
# Call codes as a record (and st[CALLS]) keeps them: 0 pass, 1 order, 2 + suit (C9)
CALL_NONE, CALL_PASS, CALL_ORDER, CALL_SUIT0 = -1, 0, 1, 2


@dataclass(frozen=True)
class ActionName:
    """One action of one phase: its code and its words (see the module docstring for the columns)."""
    phase: str
    code: int
    record: str
    bot: str
    said: str
    said3: str | None = None        # Cutthroat's word where it differs from ``said``
    dealer: str | None = None       # the dealer's word where it differs (ordering the upcard: "pick up")
    advice: str | None = None       # the advisor's label where it differs from ``said``


def _table() -> dict[tuple[str, int], ActionName]:
    rows = [ActionName("joker_suit", s, SUITS[s], SUIT_NAMES[s], SUIT_NAMES[s], advice=SUITS[s]) for s in range(4)]
    rows += [ActionName("bid1", 0, "pass", "pass", "pass"),
             ActionName("bid1", 1, "order", "order", "order", dealer="pick up")]
    rows += [ActionName("bid2", s, SUITS[s], SUIT_NAMES[s], SUIT_NAMES[s]) for s in range(4)]
    rows += [ActionName("bid2", BID2_PASS, "pass", "pass", "pass"),
             ActionName("alone", 0, "not alone", "not alone", "with partner", said3="take the dummy"),
             ActionName("alone", 1, "alone", "alone", "alone"),
             ActionName("defend_alone", 0, "not alone", "not alone", "defend with partner"),
             ActionName("defend_alone", 1, "alone", "alone", "defend alone")]
    return {(r.phase, r.code): r for r in rows}


ACTIONS = _table()
WORD_PHASES = tuple(dict.fromkeys(p for p, _ in ACTIONS))      # the phases named by words, not cards


def _phase(phase) -> str:
    return phase if isinstance(phase, str) else PHASE_NAMES[int(phase)]


def _cards(board: int) -> list[int]:
    return [c for c in range(int(board).bit_length()) if board >> c & 1]


def entry(phase, code: int) -> ActionName:
    """The table's row for ``code`` in ``phase`` (a name or a PH_* index); a KeyError for no such action."""
    return ACTIONS[_phase(phase), int(code)]


def name(phase, code: int, column: str = "bot", players: int = 4, dealer: bool = False) -> str:
    """Action ``code`` of ``phase`` in one column: ``record``, ``bot``, ``said`` or ``advice``.

    ``said`` and ``advice`` take the players (Cutthroat's words) and whether the seat deals.
    Cards are ``card_str`` in every column; a keep its five cards: in the card order after ``keep`` for a bot
    and on the page, ace first as a record (``show``) and the advisor write them.
    """
    ph = _phase(phase)
    if ph in CARD_PHASES:
        return card_str(int(code))
    if ph == "dummy_keep":
        if column in ("bot", "said"):
            return "keep " + " ".join(card_str(c) for c in _cards(code))
        return " ".join(card_str(c) for c in sorted(_cards(code), reverse=True))
    row = ACTIONS[ph, int(code)]
    if column in ("record", "bot"):
        return getattr(row, column)
    if column == "advice" and row.advice is not None:
        return row.advice
    if column not in ("said", "advice"):
        raise ValueError(f"{column!r} is not a column of the action table (record, bot, said, advice)")
    if dealer and row.dealer is not None:
        return row.dealer
    return row.said3 if players == 3 and row.said3 is not None else row.said


def code_of(phase, word: str, column: str = "bot", players: int = 4) -> int:
    """The code of the action ``word`` names in ``phase`` (any case); a KeyError when none does."""
    ph, w = _phase(phase), " ".join(word.strip().lower().split())
    for (p, code), row in ACTIONS.items():
        if p == ph and w in {name(p, code, column, players).lower(), name(p, code, column, players, True).lower()}:
            return code
    raise KeyError(word)


def with_alone(call: str, alone: int, players: int) -> str:
    """A call with the maker's going alone or not, as the advisor offers both at once:
    ``order`` / ``order alone`` with 4 players, ``order, take the dummy`` / ``order alone`` in Cutthroat."""
    if alone:
        return f"{call} {name('alone', 1, 'said', players)}"
    return call if players == 4 else f"{call}, {name('alone', 0, 'said', players)}"


# ---- the record's calls: one code for both rounds (0 pass, 1 order, 2 + suit)
CALL_WORDS = tuple(ACTIONS["bid1", c].record for c in (CALL_PASS, CALL_ORDER)) + tuple(
    ACTIONS["bid2", s].record for s in range(4))
_CALL_OF = {w.lower(): c for c, w in enumerate(CALL_WORDS)}


def call_action(call: int) -> tuple[str, int]:
    """A record's call code as the (phase, code) its words are looked up by: pass and order in round one, a
    suit in round two. The action a call is in a given round is the engine's ``engine.hand.call_action``."""
    return ("bid1", call) if call in (CALL_PASS, CALL_ORDER) else ("bid2", call - CALL_SUIT0)


def call_word(code) -> str:
    """``"pass"``, ``"order"`` or the named suit's letter (C9): the record's word for a call code."""
    try:
        c = operator.index(code)            # ints, numpy ints; not floats
    except TypeError:
        c = -1
    if 0 <= c < len(CALL_WORDS):
        return CALL_WORDS[c]
    raise ValueError(f"{code!r} is not a call code (0 pass, 1 order, 2..5 a suit)")


def call_of_word(text) -> int | None:
    """The call code of a record's word (any case, spaces around), None for no call word."""
    return _CALL_OF.get(text.strip().lower()) if isinstance(text, str) else None


def call_said(call: int, dealer: bool = False) -> str:
    """A record's call as the page says it: ``pass``, ``order`` (the dealer's: ``pick up``), ``hearts``."""
    return name(*call_action(call), "said", dealer=dealer)


# Words a person may type for a call (advise --calls, show), beside the record's own words.
CALL_SYNONYMS = {**{n.rstrip("s"): s for s, n in zip(SUITS, SUIT_NAMES)}, **dict(zip(SUIT_NAMES, SUITS)),
                 "\u2663": "C", "\u2666": "D", "\u2665": "H", "\u2660": "S",
                 "order up": "order", "pick up": "order", "ordered": "order", "picked up": "order", "passed": "pass"}
