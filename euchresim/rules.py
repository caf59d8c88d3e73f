"""Rule options as frozen data, checked once at the edge.

Every option of the rule book (``docs/rules.md``, rules R1..R13) is a field
of :class:`Rules`; a combination that makes no sense raises
:class:`RulesError` naming the rule id.  Presets are values, changed with
:func:`dataclasses.replace`::

    rules = replace(FOUR_HAND, deck=32, stick_the_dealer=True)

The R11 scoring table is data (:class:`ScoringTable`) a user may replace, for
instance from a JSON file of house rules.
"""
from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from euchresim.cards import DECKS, SUITS, has_joker

JOKER_UPCARD_CHOICES = ("dealer-names", "redeal", "C", "D", "H", "S")
BOTH_ALONE_LEAD_CHOICES = ("defender", "maker")
CUTTHROAT_TIE_CHOICES = ("maker", "higher", "shared")
# seat positions counted clockwise from the dealer (0), by players: what every table calls them
POSITION_NAMES = MappingProxyType({4: ("dealer", "left", "partner", "right"), 3: ("dealer", "left", "right"),
                                   2: ("dealer", "non-dealer")})
GAME_TO_CHOICES = (5, 7, 10)

# Scoring cases (R11): one row of the table each.  The kernels index by these.
SCORE_CASES = (
    "partnership",            # 4 players, maker's side plays with both partners
    "alone",                  # 4 players, maker alone
    "alone_vs_lone_defender",  # 4 players, maker alone and a defender alone (defend_alone)
    "two_hand",               # 2 players
    "cutthroat",              # 3 players, no defender alone (maker with or without dummy)
    "cutthroat_lone_defender",  # 3 players, a defender alone
)


class RulesError(ValueError):
    """An option value or combination the rule book does not allow."""


def _row(made: int, march: int, euchre: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Makers' and each defender's points indexed by the makers' tricks 0..5."""
    makers = (0, 0, 0, made, made, march)
    defenders = (euchre, euchre, euchre, 0, 0, 0)
    return makers, defenders


def _r11_default() -> dict[str, dict[str, tuple[int, ...]]]:
    table = {}
    for case, (made, march, euchre) in {
        "partnership": (1, 2, 2),
        "alone": (1, 4, 2),
        "alone_vs_lone_defender": (1, 4, 4),
        "two_hand": (1, 2, 2),
        "cutthroat": (1, 3, 2),
        "cutthroat_lone_defender": (1, 3, 2),
    }.items():
        makers, defenders = _row(made, march, euchre)
        table[case] = {"makers": makers, "defenders": defenders}
    # R11: a lone Cutthroat defender whose side takes all 5 tricks (maker 0)
    # scores 4 for each defender, 3-4 tricks score 2.
    table["cutthroat_lone_defender"]["defenders"] = (4, 2, 2, 0, 0, 0)
    return table


@dataclass(frozen=True)
class ScoringTable:
    """R11 as data: points by scoring case and the makers' trick count.

    ``makers[case][t]`` is what each seat on the making side scores when it
    took ``t`` tricks; ``defenders[case][t]`` what *each* defender scores
    (partners both show their side's points).  Replace a row to try a house
    rule: ``ScoringTable.from_dict({"alone": {"makers": [0,0,0,1,1,5]}})``.
    """

    table: dict = field(default_factory=_r11_default)

    def __post_init__(self):
        if not isinstance(self.table, dict):
            raise RulesError("scoring table must be a JSON object of cases (R11)")
        for case in SCORE_CASES:
            if not isinstance(self.table.get(case), dict):
                raise RulesError(f"scoring table lacks case {case!r} (R11)")
            for side in ("makers", "defenders"):
                row = self.table[case].get(side)
                if not isinstance(row, (list, tuple)) or len(row) != 6:
                    raise RulesError(f"scoring {case}.{side} must list 6 numbers, for 0..5 maker tricks (R11)")
                for v in row:
                    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 100:
                        raise RulesError(f"scoring {case}.{side} holds {v!r}; points are whole numbers 0..100 (R11)")
        unknown = set(self.table) - set(SCORE_CASES)
        if unknown:
            raise RulesError(f"scoring table has unknown case {sorted(unknown)[0]!r}; cases are {', '.join(SCORE_CASES)} (R11)")

    @classmethod
    def from_dict(cls, overrides: dict) -> "ScoringTable":
        """The R11 defaults with some rows replaced."""
        if not isinstance(overrides, dict):
            raise RulesError("scoring overrides must be a JSON object of cases (R11)")
        table = _r11_default()
        for case, sides in overrides.items():
            if case not in table:
                raise RulesError(f"scoring table has unknown case {case!r}; cases are {', '.join(SCORE_CASES)} (R11)")
            if not isinstance(sides, dict):
                raise RulesError(f"scoring case {case!r} must be an object with makers/defenders (R11)")
            for side, row in sides.items():
                if side not in ("makers", "defenders"):
                    raise RulesError(f"scoring {case}.{side}: sides are 'makers' and 'defenders' (R11)")
                table[case][side] = tuple(row) if isinstance(row, (list, tuple)) else row
        return cls(table=table)

    @classmethod
    def from_json_file(cls, path: str) -> "ScoringTable":
        try:        # utf-8-sig: a byte-order mark, as some editors write, is not an error
            with open(path, encoding="utf-8-sig") as fh:
                data = json.load(fh)
        except OSError as e:
            raise RulesError(f"{path}: cannot read scoring table ({e.strerror})") from None
        except UnicodeDecodeError as e:
            raise RulesError(f"{path}: not UTF-8 text (byte {e.start + 1}); a scoring table is a JSON file") from None
        except json.JSONDecodeError as e:
            raise RulesError(f"{path}: line {e.lineno}: not JSON ({e.msg})") from None
        except RecursionError:
            raise RulesError(f"{path}: not a scoring table (JSON nested too deeply)") from None
        try:
            return cls.from_dict(data)
        except RulesError as e:
            raise RulesError(f"{path}: {e}") from None

    def is_default(self) -> bool:
        return self.table == _r11_default()

    def __hash__(self):
        return hash(json.dumps(self.table, sort_keys=True, default=list))


@dataclass(frozen=True, kw_only=True)
class Rules:
    """Every option of docs/rules.md; defaults are the rule book's defaults."""

    players: int = 4                      # R3
    deck: int = 24                        # R1
    stick_the_dealer: bool = False        # R6
    defend_alone: bool = False            # R8 (4 players only)
    joker_upcard: str = "dealer-names"    # R7 (decks 25 and 33 only)
    both_alone_lead: str = "defender"     # R10 (3 players only)
    game_to: int = 10                     # R12
    cutthroat_tie: str = "maker"          # R12 (3 players only)
    scoring: ScoringTable = field(default_factory=ScoringTable)  # R11

    def __post_init__(self):
        for name, rule in (("players", "R3"), ("deck", "R1"), ("game_to", "R12")):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool):   # 3.0 == 3, but kernels need ints
                raise RulesError(f"{name} must be a whole number, not {v!r} ({rule})")
        if self.players not in (2, 3, 4):
            raise RulesError(f"players must be 2, 3 or 4, not {self.players!r} (R3)")
        if self.deck not in DECKS:
            raise RulesError(f"deck must be 24, 25, 32 or 33, not {self.deck!r} (R1)")
        if isinstance(self.joker_upcard, str):
            object.__setattr__(self, "joker_upcard", self.joker_upcard.strip())
            if self.joker_upcard.upper() in SUITS:
                object.__setattr__(self, "joker_upcard", self.joker_upcard.upper())
        if self.joker_upcard not in JOKER_UPCARD_CHOICES:
            raise RulesError(
                f"joker_upcard must be one of {', '.join(JOKER_UPCARD_CHOICES)}, not {self.joker_upcard!r} (R7)")
        if self.joker_upcard != "dealer-names" and not has_joker(self.deck):
            raise RulesError(f"joker_upcard={self.joker_upcard} needs a pack with a joker (deck 25 or 33), not {self.deck} (R7)")
        if not isinstance(self.stick_the_dealer, bool):
            raise RulesError("stick_the_dealer must be true or false (R6)")
        if not isinstance(self.defend_alone, bool):
            raise RulesError("defend_alone must be true or false (R8)")
        if self.defend_alone and self.players != 4:
            raise RulesError(
                f"defend_alone is a 4-player rule; with {self.players} players "
                + ("a defender may always go alone (R9)" if self.players == 3 else "nobody goes alone (R8)"))
        if self.both_alone_lead not in BOTH_ALONE_LEAD_CHOICES:
            raise RulesError(f"both_alone_lead must be defender or maker, not {self.both_alone_lead!r} (R10)")
        if self.both_alone_lead != "defender" and self.players != 3:
            raise RulesError("both_alone_lead applies to 3 players (Cutthroat) only (R10)")
        if self.game_to not in GAME_TO_CHOICES:
            raise RulesError(f"game_to must be 5, 7 or 10, not {self.game_to!r} (R12)")
        if self.cutthroat_tie not in CUTTHROAT_TIE_CHOICES:
            raise RulesError(f"cutthroat_tie must be one of {', '.join(CUTTHROAT_TIE_CHOICES)}, not {self.cutthroat_tie!r} (R12)")
        if self.cutthroat_tie != "maker" and self.players != 3:
            raise RulesError("cutthroat_tie applies to 3 players (Cutthroat) only (R12)")
        if not isinstance(self.scoring, ScoringTable):
            raise RulesError("scoring must be a ScoringTable (R11)")

    @property
    def has_dummy(self) -> bool:
        return self.players == 3

    @property
    def kitty_size(self) -> int:
        """R4: cards left after the deal, the upcard included."""
        dealt = 5 * self.players + (5 if self.has_dummy else 0)
        return self.deck - dealt

    def changed(self) -> dict:
        """Options that differ from the defaults, as a hand record's ``rules``."""
        out = {}
        base = Rules(players=self.players, deck=self.deck)
        for f in dataclasses.fields(self):
            if f.name in ("players", "deck", "scoring"):
                continue
            v = getattr(self, f.name)
            if v != getattr(base, f.name):
                out[f.name] = v
        if not self.scoring.is_default():
            out["scoring"] = {k: {s: list(r) for s, r in v.items()} for k, v in self.scoring.table.items()}
        return out

    def to_dict(self) -> dict:
        return {"players": self.players, "deck": self.deck, **self.changed()}

    @classmethod
    def from_record(cls, players, deck, options: dict | None) -> "Rules":
        """Rules from a hand record's ``players``, ``deck`` and ``rules`` fields."""
        options = dict(options or {})
        known = {f.name for f in dataclasses.fields(cls)} - {"players", "deck"}
        for k in options:
            if k not in known:
                raise RulesError(f"unknown rule option {k!r}; options are {', '.join(sorted(known))}")
        if "scoring" in options:
            options["scoring"] = ScoringTable.from_dict(options["scoring"])
        return cls(players=players, deck=deck, **options)


FOUR_HAND = Rules(players=4, deck=24)
TWO_HAND = Rules(players=2, deck=24)
CUTTHROAT = Rules(players=3, deck=24)
PRESETS = {"four-hand": FOUR_HAND, "two-hand": TWO_HAND, "cutthroat": CUTTHROAT}

__all__ = ["Rules", "RulesError", "ScoringTable", "FOUR_HAND", "TWO_HAND", "CUTTHROAT", "PRESETS",
           "SCORE_CASES", "replace"]


def read_scores(text: str) -> tuple[int, ...] | None:
    """Scores as a player writes them, side by side ("9-8", "9:8", "9,8,7"): the numbers, or None when a part
    is not a whole number.  The one reading of a score given as text (``simulate --start-score``, ``advise
    --score``); how many there must be, and how high, each caller checks against its own rules."""
    parts = text.replace(":", "-").replace(",", "-").split("-")
    if not all(p.strip().isdigit() for p in parts):
        return None
    return tuple(int(p) for p in parts)
