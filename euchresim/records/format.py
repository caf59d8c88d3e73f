"""Hand records (``docs/hand-record.md``): read, check the deal, write.

A hand record is one JSON object per line.  This module turns the decoded
object into a :class:`Record` of ints and boards (the form the engine and
the test reference take) and back.  It is pure Python on purpose: reading a
file of records must not pull in numba (or numpy).

Only the *static* facts of a record are checked here: field types and
shapes, the pack, and that the deal uses every card of the pack exactly once
(R1, R4).  Whether each call, discard and play was legal *in turn* needs the
rules engine and is checked by the replay, not here.  Every error is a
:class:`RecordError` whose message is one line that starts with the field
path (``hands[2][3]: ...``) and names the rule id, so a replay can write it
back into the record's ``error`` field as it is.

Reading is on the path of every replayed hand, so the common case is table
lookups, and the ``Rules`` of each distinct ``rules`` object is built once.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from euchresim.actions import CALL_ORDER, CALL_PASS, CALL_WORDS, call_of_word, call_word
from euchresim.cards import DECKS, JOKER, SUITS, CardError, board, card_str, cards_of, pack_mask, parse_card
from euchresim.rules import Rules, RulesError

PASS, ORDER = CALL_PASS, CALL_ORDER          # call codes; naming suit s is 2 + s (C9; euchresim.actions)

# What the hand is (read by a replay); what joins it to its Parquet row and game
# (carried, never computed); what it came to (computed and compared); what a
# replay found (dropped on input: a replay finds them afresh).
RECORD_FIELDS = ("players", "deck", "rules", "dealer", "hands", "dummy", "upcard", "kitty",
                 "joker_suit", "calls", "alone", "discard", "dummy_keep", "plays")
JOIN_FIELDS = ("chunk", "index", "game", "rubber", "score")
OUTCOME_FIELDS = ("maker", "trump", "trick_winners", "tricks", "points")
FINDING_FIELDS = ("mismatch", "error")
# What `solve` found (docs/hand-record.md): read without complaint, found afresh by solve.
SOLVED_FIELDS = ("dd_tricks", "dd_card_values")
# What a player at the practice table asked (docs/hand-record.md, docs/play.md): read and checked for shape,
# taking no part in the hand; the advisor's answers are the player's help, not part of the deal.
NOTE_FIELDS = ("hints",)
_KNOWN = frozenset(RECORD_FIELDS + JOIN_FIELDS + OUTCOME_FIELDS + FINDING_FIELDS + SOLVED_FIELDS + NOTE_FIELDS)


class RecordError(ValueError):
    """A record that cannot be a hand: one line, field path first, rule id."""


@dataclass(frozen=True)
class Record:
    """One hand as ints: seats, card indexes and boards (see ``cards``).

    ``kitty`` is the board of the undealt cards *other than* the upcard, as
    in the JSON.  ``calls`` are codes: 0 pass, 1 order, 2 + suit for naming
    a suit (C9).  A record of a deal only has empty ``calls``/``alone``/
    ``plays`` and ``None`` for ``discard``/``dummy_keep``/``joker_suit``.
    The join fields are ``None`` when the record does not carry them.
    """

    rules: Rules
    dealer: int
    hands: tuple[int, ...]
    dummy: int
    upcard: int
    kitty: int
    joker_suit: int | None = None
    calls: tuple[int, ...] = ()
    alone: tuple[int, ...] = ()
    discard: int | None = None
    dummy_keep: int | None = None
    plays: tuple[int, ...] = ()
    chunk: int | None = None
    index: int | None = None
    game: int | None = None
    rubber: int | None = None
    score: tuple[int, ...] | None = None


def call_str(code: int) -> str:
    """``"pass"``, ``"order"`` or the named suit's letter (C9): the record words of ``euchresim.actions``."""
    return call_word(code)


def parse_call(text) -> int:
    """Call code from ``"pass"``, ``"order"`` or a suit letter, any case (R5, R6)."""
    c = call_of_word(text)
    if c is None:
        raise RecordError(f"{text!r} is not pass, order or a suit letter (R5)")
    return c


_CALL_OF = {w: c for c, w in enumerate(CALL_WORDS)}      # the written words exactly: the fast path of reading


# ---------------------------------------------------------------- parsing

_PACK = {d: pack_mask(d) for d in DECKS}
# Each pack's cards by their written form; other spellings (any case, "10")
# and errors go through cards.parse_card.
_CARD_OF = {d: {card_str(c): c for c in cards_of(m)} for d, m in _PACK.items()}


def is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _list(obj: dict, key: str, rule: str, what: str) -> list:
    v = obj.get(key)
    if not isinstance(v, (list, tuple)):
        raise RecordError(f"{key}: {v!r} is not a list of {what} ({rule})")
    return v


def _n_cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _card(value, path: str, deck: int) -> int:
    if isinstance(value, str):
        c = _CARD_OF[deck].get(value)
        if c is not None:
            return c
    else:
        raise RecordError(f"{path}: {value!r} is not a card; cards are strings like 'JH' (R1)")
    try:
        return parse_card(value, deck)
    except CardError as e:
        raise RecordError(f"{path}: {e}") from None


class _Deal:
    """Parses the cards of the deal; a repeated card is reported with both places.

    The common case, every card in its written form and none repeated, is a
    dict lookup per card and one mask test per field; anything else goes
    the careful way, card by card, to find the first fault.
    """

    def __init__(self, deck: int):
        self.deck = deck
        self.mask = 0
        self.fields: list[tuple[str, object, bool]] = []    # (field, its cards as given, single): for errors

    def card(self, value, field: str) -> int:
        return self.cards((value,), field, single=True).bit_length() - 1

    def cards(self, values, field: str, single: bool = False) -> int:
        table = _CARD_OF[self.deck]
        m = 0
        try:
            for v in values:
                m |= 1 << table[v]
        except (KeyError, TypeError):       # another spelling, or no card at all
            return self._careful(values, field, single)
        if m.bit_count() != len(values) or m & self.mask:
            return self._careful(values, field, single)
        self.mask |= m
        self.fields.append((field, values, single))
        return m

    def _careful(self, values, field: str, single: bool) -> int:
        m = 0
        for i, v in enumerate(values):
            path = field if single else f"{field}[{i}]"
            c = _card(v, path, self.deck)
            if ((self.mask | m) >> c) & 1:
                raise RecordError(f"{field}: {card_str(c)} appears twice ({self._first(c, field, values[:i])} "
                                  f"and {path}) (R1)")
            m |= 1 << c
        self.mask |= m
        self.fields.append((field, values, single))
        return m

    def _first(self, c: int, field: str, earlier) -> str:
        """Where card ``c`` was seen first: every card seen so far parsed, so no error here."""
        for f, vals, single in self.fields + [(field, earlier, False)]:
            for j, v in enumerate(vals):
                if _card(v, f, self.deck) == c:
                    return f if single else f"{f}[{j}]"
        raise AssertionError(f"{card_str(c)} was not seen")     # pragma: no cover


def _require(obj: dict, key: str, why: str) -> None:
    if obj.get(key) is None:
        raise RecordError(f"{key}: missing or null; {why}")


_RULES_CACHE: dict = {}


def _parse_rules(obj: dict) -> Rules:
    players, deck, options = obj.get("players"), obj.get("deck"), obj.get("rules")
    key = None
    if type(players) is int and type(deck) is int and (options is None or type(options) is dict):
        try:                     # a file's records mostly share one rules object: build it once
            key = (players, deck, None if options is None else json.dumps(options, sort_keys=True))
        except (TypeError, ValueError):
            key = None
        if key in _RULES_CACHE:
            return _RULES_CACHE[key]
    rules = _build_rules(obj)
    if key is not None:
        if len(_RULES_CACHE) >= 1024:
            _RULES_CACHE.clear()
        _RULES_CACHE[key] = rules
    return rules


def _build_rules(obj: dict) -> Rules:
    for key, rule in (("players", "R3"), ("deck", "R1")):
        _require(obj, key, f"every record names its {'variant' if key == 'players' else 'pack'} ({rule})")
    players, deck = obj["players"], obj["deck"]
    if not is_int(players) or players not in (2, 3, 4):
        raise RecordError(f"players: {players!r} is not 2, 3 or 4 (R3)")
    if not is_int(deck) or deck not in (24, 25, 32, 33):
        raise RecordError(f"deck: {deck!r} is not 24, 25, 32 or 33 (R1)")
    options = obj.get("rules")
    if options is not None and not isinstance(options, dict):
        raise RecordError(f"rules: {options!r} is not an object of rule options, e.g. {{\"game_to\": 5}}")
    try:
        return Rules.from_record(players, deck, options)
    except RulesError as e:
        raise RecordError(f"rules: {e}") from None
    except (TypeError, ValueError) as e:   # a malformed scoring row, e.g. a number for a list
        raise RecordError(f"rules: malformed scoring table ({e}); each side is a list of 6 numbers (R11)") from None


def parse_record(obj) -> Record:
    """Check a decoded JSON value statically and return it as a :class:`Record`.

    Missing ``calls``, ``alone`` and ``plays`` mean empty lists; missing
    ``discard``, ``dummy_keep`` and ``joker_suit`` mean null, so a record of
    a deal alone is valid.  A missing ``kitty`` is the rest of the pack; a
    null ``joker_suit`` under a fixed ``joker_upcard`` suit is that suit.
    Raises :class:`RecordError`.
    """
    if not isinstance(obj, dict):
        raise RecordError(f"record: {type(obj).__name__} is not a JSON object of hand-record fields")
    rules = _parse_rules(obj)
    players, deck = rules.players, rules.deck

    _require(obj, "dealer", "every record names the dealer (R3)")
    dealer = obj["dealer"]
    if not is_int(dealer) or not 0 <= dealer < players:
        raise RecordError(f"dealer: {dealer!r} is not a seat of a {players}-player game (R3)")

    deal = _Deal(deck)
    _require(obj, "hands", "every record lists the deal, one hand per seat (R4)")
    hands_in = _list(obj, "hands", "R4", "hands")
    if len(hands_in) != players:
        raise RecordError(f"hands: {len(hands_in)} hands, a {players}-player game deals {players} (R4)")
    hands = []
    for s, hand in enumerate(hands_in):
        if not isinstance(hand, (list, tuple)):
            raise RecordError(f"hands[{s}]: {hand!r} is not a list of 5 cards (R4)")
        if len(hand) != 5:
            raise RecordError(f"hands[{s}]: {_n_cards(len(hand))}, each hand has 5 (R4)")
        hands.append(deal.cards(hand, f"hands[{s}]"))

    dummy = 0
    if rules.has_dummy:
        _require(obj, "dummy", "a 3-player deal has a dummy of 5 cards (R9)")
        dummy_in = _list(obj, "dummy", "R9", "5 cards")
        if len(dummy_in) != 5:
            raise RecordError(f"dummy: {_n_cards(len(dummy_in))}, the dummy has 5 (R9)")
        dummy = deal.cards(dummy_in, "dummy")
    elif obj.get("dummy") is not None:
        raise RecordError(f"dummy: only a 3-player deal has a dummy, this is a {players}-player one (R9)")

    _require(obj, "upcard", "every record names the upcard (R4)")
    upcard = deal.card(obj["upcard"], "upcard")

    if obj.get("kitty") is None:
        kitty = _PACK[deck] & ~deal.mask            # the deal fixes it: the rest of the pack (R4)
    else:
        kitty_in = _list(obj, "kitty", "R4", "cards")
        want = rules.kitty_size - 1
        if len(kitty_in) != want:
            deal_name = f"{players}-player {deck}-card deal" + (" with a dummy" if rules.has_dummy else "")
            raise RecordError(f"kitty: {_n_cards(len(kitty_in))}, but a {deal_name} leaves {rules.kitty_size} "
                              f"undealt: the upcard and {want} in the kitty (R4)")
        kitty = deal.cards(kitty_in, "kitty")
        # Every field has its size, no card repeats and all are in the pack, so
        # the deal holds every card of the pack exactly once (R1, R4).
        if deal.mask != _PACK[deck]:
            raise RecordError(f"the deal does not hold each card of the {deck}-card pack exactly once (R1, R4)")

    joker_suit = _parse_joker_suit(obj.get("joker_suit"), upcard, rules)

    calls = ()
    if obj.get("calls") is not None:
        calls_in = _list(obj, "calls", "R5", "calls")
        try:
            calls = tuple([_CALL_OF[text] for text in calls_in])
        except (KeyError, TypeError):       # another spelling, or no call at all
            calls = tuple(_call(text, i) for i, text in enumerate(calls_in))

    alone_in = ()
    if obj.get("alone") is not None:
        lone_rule = "R9" if players == 3 else "R8"
        alone_in = _list(obj, "alone", lone_rule, "seats")
        for i, seat in enumerate(alone_in):
            if not is_int(seat) or not 0 <= seat < players:
                raise RecordError(f"alone[{i}]: {seat!r} is not a seat (0..{players - 1}) ({lone_rule})")
            if seat in alone_in[:i]:
                raise RecordError(f"alone[{i}]: seat {seat} is listed twice ({lone_rule})")

    discard = None if obj.get("discard") is None else _card(obj["discard"], "discard", deck)

    dummy_keep = None
    if obj.get("dummy_keep") is not None:
        if not rules.has_dummy:
            raise RecordError(f"dummy_keep: only a 3-player game has a dummy, this is a {players}-player one (R9)")
        keep_in = _list(obj, "dummy_keep", "R9", "5 cards")
        if len(keep_in) != 5:
            raise RecordError(f"dummy_keep: {_n_cards(len(keep_in))}, the maker keeps 5 (R9)")
        keep = [_card(v, f"dummy_keep[{i}]", deck) for i, v in enumerate(keep_in)]
        try:
            dummy_keep = board(keep)
        except CardError as e:
            raise RecordError(f"dummy_keep: {e} (R9)") from None

    plays = ()
    if obj.get("plays") is not None:
        table = _CARD_OF[deck]
        plays_in = _list(obj, "plays", "R10", "cards")
        try:
            plays = tuple([table[v] for v in plays_in])
        except (KeyError, TypeError):
            plays = tuple(_card(v, f"plays[{i}]", deck) for i, v in enumerate(plays_in))

    join = _parse_join(obj, players)
    if obj.get("hints") is not None:
        _check_hints(obj["hints"])

    # Last, so a misspelt field is first reported as the missing one.
    if not _KNOWN.issuperset(obj):
        key = next(k for k in obj if k not in _KNOWN)
        raise RecordError(f"{key}: not a hand-record field (fields are {', '.join(RECORD_FIELDS + JOIN_FIELDS)})")
    return Record(rules=rules, dealer=dealer, hands=tuple(hands), dummy=dummy, upcard=upcard,
                  kitty=kitty, joker_suit=joker_suit, calls=calls, alone=tuple(alone_in),
                  discard=discard, dummy_keep=dummy_keep, plays=plays, **join)


def _check_hints(hints) -> None:
    """``hints``: a list of objects, each naming the decision (``step``, a whole number) the player asked about.

    Only the shape is checked: a hint is what the advisor said then, which
    no replay could find again without its samples, so it is carried as
    written (its other keys are the advisor's, docs/play.md).
    """
    if not isinstance(hints, list):
        raise RecordError(f"hints: {json.dumps(hints)[:60]} is not a list of the hints asked")
    for i, h in enumerate(hints):
        if not isinstance(h, dict):
            raise RecordError(f"hints[{i}]: {json.dumps(h)[:60]} is not an object with the step asked about")
        step = h.get("step")
        if not is_int(step) or step < 0:
            raise RecordError(f"hints[{i}].step: {json.dumps(step)[:60]} is not a step of the hand (a whole number >= 0)")


def _call(text, i: int) -> int:
    try:
        return parse_call(text)
    except RecordError as e:
        raise RecordError(f"calls[{i}]: {e}") from None


def _parse_join(obj: dict, players: int) -> dict:
    """The join fields, each a whole number >= 0 (``score``: one per seat) or absent."""
    out = {}
    for key, what in (("chunk", "the chunk of its Parquet row"), ("index", "its row's index in the chunk"),
                      ("game", "its game's number"), ("rubber", "its rubber's number")):
        v = obj.get(key)
        if v is not None:
            if not is_int(v) or v < 0:
                raise RecordError(f"{key}: {v!r} is not a whole number >= 0 ({what})")
            out[key] = v
    v = obj.get("score")
    if v is not None:
        if (not isinstance(v, (list, tuple)) or len(v) != players
                or not all(is_int(x) and x >= 0 for x in v)):
            raise RecordError(f"score: {v!r} is not {players} game scores before the hand, whole numbers "
                              f">= 0, one per seat (R12)")
        out["score"] = tuple(v)
    return out


def _parse_joker_suit(value, upcard: int, rules: Rules) -> int | None:
    """``joker_suit`` says which suit a joker upcard stood for (R7, C3).

    A suit must agree with the upcard and with a fixed ``joker_upcard``
    option.  Null is accepted here (a deal-only record, or a redeal; with
    ``dealer-names`` the replay then finds the dealer's naming missing);
    under a fixed suit a joker upcard's null means that suit, since the rule
    leaves no choice, so the record reads as ``simulate`` writes it.
    """
    if value is None:
        if upcard == JOKER and rules.joker_upcard in SUITS:
            return SUITS.index(rules.joker_upcard)
        return None
    if not isinstance(value, str) or value.strip().upper() not in SUITS or len(value.strip()) != 1:
        raise RecordError(f"joker_suit: {value!r} is not a suit letter (C, D, H or S) or null (R7)")
    suit = SUITS.index(value.strip().upper())
    if upcard != JOKER:
        raise RecordError("joker_suit: the upcard is not the joker (R7)")
    if rules.joker_upcard == "redeal":
        raise RecordError("joker_suit: with joker_upcard=redeal a joker upcard is thrown in, so it has no suit (R7)")
    if rules.joker_upcard in SUITS and rules.joker_upcard != SUITS[suit]:
        raise RecordError(f"joker_suit: {SUITS[suit]}, but the rules fix a joker upcard's suit as "
                          f"{rules.joker_upcard} (R7)")
    return suit


# ---------------------------------------------------------------- writing

def cards_desc(mask: int) -> list[str]:
    """A board's cards highest bit first: the joker, then spades A..7, hearts,
    diamonds, clubs.  A board forgets the order a record gave, so writing
    always uses this one order and equal hands always print alike."""
    return [card_str(c) for c in reversed(cards_of(mask))]


def format_record(rec: Record, outcome: dict | None = None) -> dict:
    """The JSON-ready dict of ``rec`` in docs/hand-record.md field order.

    ``rules`` appears only when an option differs from the defaults,
    ``dummy`` only for 3 players, a join field only when ``rec`` has it;
    boards are written by :func:`cards_desc`.  ``outcome`` fields (maker,
    trump, trick_winners, tricks, points) follow as given, trump turned into
    a letter if it is an int (a negative one, a kernel's "no trump", becomes
    None); any other outcome keys (e.g. ``error``) come after them.
    """
    r = rec.rules
    out: dict = {"players": r.players, "deck": r.deck}
    changed = r.changed()
    if changed:
        out["rules"] = changed
    out["dealer"] = rec.dealer
    out["hands"] = [cards_desc(h) for h in rec.hands]
    if r.has_dummy:
        out["dummy"] = cards_desc(rec.dummy)
    out["upcard"] = card_str(rec.upcard)
    out["kitty"] = cards_desc(rec.kitty)
    out["joker_suit"] = None if rec.joker_suit is None else SUITS[rec.joker_suit]
    out["calls"] = [call_str(c) for c in rec.calls]
    out["alone"] = list(rec.alone)
    out["discard"] = None if rec.discard is None else card_str(rec.discard)
    out["dummy_keep"] = None if rec.dummy_keep is None else cards_desc(rec.dummy_keep)
    out["plays"] = [card_str(c) for c in rec.plays]
    for key in JOIN_FIELDS:
        v = getattr(rec, key)
        if v is not None:
            out[key] = list(v) if key == "score" else v
    if outcome:
        for key in OUTCOME_FIELDS + tuple(k for k in outcome if k not in OUTCOME_FIELDS):
            if key in outcome:
                v = outcome[key]
                if key == "trump" and v is not None and not isinstance(v, str):
                    v = SUITS[int(v)] if 0 <= int(v) < 4 else None   # kernels say -1 for none
                out[key] = v
    return out
