"""A decision as a bot author reads it: named fields, named actions, and one call to hand the rest on.

A policy in the engine's own terms takes eight arguments (the state
arrays, boards, a mask of action codes, the params row, the random
stream, the rule tables) and answers an integer whose meaning depends on
the phase. That is what the jitted loop needs, not what a person writing
a bot thinks in. ``@bot`` turns a function of one ``Decision`` into such a
policy, played as plain Python (``loops/slow.py``):

    @bot
    def my_bot(d):
        if d.phase == "play" and d.leading:
            return min(d.legal, key=d.strength)      # lead the lowest card
        return d.fallback("heuristic")                # heuristic decides the rest

``d.legal`` is the list of legal ``Action``s, each with a name a player
uses (``pass``, ``order``, ``hearts``, ``alone``, ``9C``); the function
returns one of them, or its name. Everything a seat may see is a field
(``hand``, ``upcard``, ``trump``, ``maker``, ``trick``, ``played``,
``voids``, ``partner``, ``score`` ...); no public field shows what it may
not see (the arrays underneath are the engine's, private by convention).
The view reads the engine's arrays through ``policies.view`` and the
state layout, never an offset of its own.
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

import numpy as np

from euchresim.actions import name as action_name
from euchresim.cards import JOKER, SUIT_NAMES, SUITS, card_index, card_str, parse_card, same_colour
from euchresim.engine.bits import randbelow
from euchresim.engine.layout import (ALONE, BID2_PASS, CFG_PLAYERS, DEALER, MAKER, NINTRICK, NPLAYS, PH_ALONE,
                                     PH_BID1, PH_BID2, PH_DEFEND, PH_DUMMY, PH_JOKER, PHASE,
                                     PHASE_NAMES, PLAY_SEAT, PLAYS, SCORE, T_ORDER, T_POWER, T_SUIT_OF, TRUMP,
                                     UPCARD)
from euchresim.policies.params import PolicyError, declare
from euchresim.policies.user import BOT_MARK
from euchresim.policies.view import led_suit, shown_voids, teammate



@dataclass(frozen=True)
class Action:
    """One legal action: ``name`` as a player says it, ``code`` as the engine takes it.

    A card action (a play, a discard) has its ``card`` ("9C"); a Cutthroat
    keep has its five ``cards``; a suit action (round two, the joker's
    suit) its ``suit`` letter. An action equals its name: ``a == "pass"``.
    """
    name: str
    code: int
    card: str | None = None
    suit: str | None = None
    cards: tuple = ()

    def __eq__(self, other):
        if isinstance(other, str):
            return self.name.lower() == other.strip().lower()
        return isinstance(other, Action) and (self.name, self.code) == (other.name, other.code)

    def __hash__(self):
        return hash(self.name.lower())         # as its name's: equal things hash alike ("order" in {action})

    def __str__(self):
        return self.name


def _cards(board) -> list[int]:
    board = int(board)
    return [c for c in range(board.bit_length()) if board >> c & 1]


def _actions(phase: int, legal: int) -> list[Action]:
    """Every legal action of ``phase`` by name (the engine's codes: docs/policies.md, 'Decisions and their actions')."""
    if phase in (PH_BID1, PH_BID2, PH_JOKER, PH_ALONE, PH_DEFEND):      # the bot column of euchresim.actions
        suited = phase in (PH_JOKER, PH_BID2)
        return [Action(action_name(phase, a), a, suit=SUITS[a] if suited and a < 4 else None)
                for a in range(BID2_PASS + 1) if legal >> a & 1]
    if phase == PH_DUMMY:
        return [Action(action_name(phase, sum(1 << c for c in keep)), sum(1 << c for c in keep),
                       cards=tuple(card_str(c) for c in keep)) for keep in itertools.combinations(_cards(legal), 5)]
    return [Action(card_str(c), c, card=card_str(c)) for c in _cards(legal)]


@functools.lru_cache(maxsize=64)
def _fallback(spec: str):
    from euchresim.policies import POLICIES, parse
    from euchresim.policies.dispatch import SLOTTED
    p = parse(spec)
    if p.fn is not None:
        raise PolicyError(f"fallback({spec!r}): a fallback is a built-in; call your own function yourself")
    if p.pid >= SLOTTED:
        inlined = ", ".join(n for n, i in POLICIES.items() if i.pid < SLOTTED)
        raise PolicyError(f"fallback({spec!r}): a fallback is one of {inlined} (with settings), not a search bot")
    return np.int64(p.pid), p.row.copy()       # a writable row, as every params row (a read-only one compiles anew)


class Decision:
    """What the seat to act sees at one decision, by name (read-only); see the module docstring."""

    __slots__ = ("_st", "_hand", "_away", "_seat", "_legal", "_row", "_rng", "_tab", "_params", "_actions")

    def __init__(self, st, hand, away, seat, legal, row, rng, tab, params=()):
        self._st, self._hand, self._away, self._seat = st, int(hand), int(away), int(seat)
        self._legal, self._row, self._rng, self._tab, self._params = int(legal), row, rng, tab, params
        self._actions = None

    # ---- whose decision, which
    @property
    def phase(self) -> str:
        """``bid1``, ``bid2``, ``alone``, ``defend_alone``, ``discard``, ``dummy_keep``, ``joker_suit`` or ``play``."""
        return PHASE_NAMES[int(self._st[PHASE])]

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def players(self) -> int:
        return int(self._tab[CFG_PLAYERS])

    @property
    def dealer(self) -> int:
        return int(self._st[DEALER])

    @property
    def partner(self) -> int | None:
        """The seat on this seat's side (4 players: the partner; Cutthroat: the other defender), or None."""
        s = int(teammate(self._st, np.int64(self._seat), self._tab[CFG_PLAYERS]))
        return None if s < 0 else s

    @property
    def score(self) -> tuple:
        """Each seat's game score before this hand (0s in a run of independent hands)."""
        return tuple(int(x) for x in self._st[SCORE:SCORE + self.players])

    # ---- the cards
    @property
    def hand(self) -> list[str]:
        return [card_str(c) for c in _cards(self._hand)]

    @property
    def upcard(self) -> str:
        return card_str(int(self._st[UPCARD]))

    @property
    def trump(self) -> str | None:
        """The trump suit's letter (C D H S), None while bidding."""
        t = int(self._st[TRUMP])
        return None if t < 0 else SUITS[t]

    @property
    def maker(self) -> int | None:
        m = int(self._st[MAKER])
        return None if m < 0 else m

    @property
    def maker_alone(self) -> bool:
        m = self.maker
        return m is not None and bool(int(self._st[ALONE]) >> m & 1)

    @property
    def leading(self) -> bool:
        return self.phase == "play" and int(self._st[NINTRICK]) == 0

    @property
    def led(self) -> str | None:
        """The effective suit led to this trick (a led left bower is trump), None when leading."""
        s = int(led_suit(self._st))
        return None if s < 0 or self._st[NINTRICK] == 0 else SUITS[s]

    @property
    def played(self) -> list[tuple[int, str]]:
        """Every card played this hand, in order, as (seat, card)."""
        return [(int(self._st[PLAY_SEAT + k]), card_str(int(self._st[PLAYS + k]))) for k in range(int(self._st[NPLAYS]))]

    @property
    def trick(self) -> list[tuple[int, str]]:
        """The cards on the table in the current trick, as (seat, card)."""
        n = int(self._st[NINTRICK])
        return self.played[len(self.played) - n:] if n else []

    @property
    def voids(self) -> dict[int, set[str]]:
        """For each other seat, the suits it has shown it holds none of (it did not follow them)."""
        bits = int(shown_voids(self._st, self._tab))
        return {s: {SUITS[k] for k in range(4) if bits >> (4 * s + k) & 1}
                for s in range(self.players) if s != self._seat and bits >> (4 * s) & 15}

    @property
    def params(self) -> dict[str, float]:
        """The bot's declared parameters (``@bot(params=...)``) as set on the command line."""
        return {p.name: float(self._row[p.slot]) for p in self._params}

    # ---- what it may do
    @property
    def legal(self) -> list[Action]:
        if self._actions is None:
            self._actions = _actions(int(self._st[PHASE]), self._legal)
        return self._actions

    def strength(self, card) -> int:
        """A card's rank, higher wins (for ``min``/``max``): under the trump, ignoring the suit led; while
        bidding, with no trump yet, its rank in its own suit (9 lowest, ace highest, the joker above all)."""
        c = card.code if isinstance(card, Action) else parse_card(str(card))
        t = int(self._st[TRUMP])
        if t < 0:
            return 8 if c == JOKER else c & 7
        return int(self._tab[T_ORDER + 33 * t + c])

    # ---- trump, by the rules (R2): what a bot gets wrong when it reads a card's printed suit
    def _code(self, card) -> int:
        return card.code if isinstance(card, Action) else parse_card(str(card))

    def _suit(self, suit) -> int:
        """A suit as an index: a letter (``"H"``), a name (``"hearts"``), None for trump."""
        if suit is None:
            t = int(self._st[TRUMP])
            if t < 0:
                raise ValueError("no trump yet: name the suit")
            return t
        text = str(suit).strip().lower()
        for k, (letter, name) in enumerate(zip(SUITS, SUIT_NAMES)):
            if text in (letter.lower(), name, name[:-1]):
                return k
        raise ValueError(f"{suit!r} is not a suit (C, D, H, S or its name)")

    def effective_suit(self, card) -> str | None:
        """The suit a card follows and is followed as under this hand's trump: the left bower (and the joker)
        is trump; None while bidding (no trump yet; use ``strength`` or the printed suit then)."""
        t = int(self._st[TRUMP])
        if t < 0:
            return None
        return SUITS[int(self._tab[T_SUIT_OF + 33 * t + self._code(card)])]

    def is_trump(self, card) -> bool:
        """Whether a card is trump this hand: the trump suit, its left bower (the jack of the same colour)
        and the joker; False while bidding."""
        return self.effective_suit(card) == self.trump if self.trump is not None else False

    def bowers(self, suit=None) -> tuple[str, str]:
        """The right and left bowers of ``suit`` (default trump): its jack and the jack of its colour."""
        k = self._suit(suit)
        return card_str(card_index(k, 4)), card_str(card_index(same_colour(k), 4))

    def count(self, suit=None) -> int:
        """How many cards of the hand would follow ``suit`` (default trump) under the trump that ``suit``
        would make: with spades trump, the jack of clubs counts as a spade and not a club."""
        k = self._suit(suit)
        t = int(self._st[TRUMP])
        t = k if t < 0 else t
        return sum(1 for c in _cards(self._hand) if int(self._tab[T_SUIT_OF + 33 * t + c]) == k)

    def winners(self) -> list[Action]:
        """The legal cards that would take the trick as it stands now (every legal card when leading)."""
        if self.phase != "play":
            return []
        if self.leading:
            return list(self.legal)
        t = int(self._st[TRUMP])
        led = int(led_suit(self._st))
        base = T_POWER + 33 * (4 * t + led)
        best = max(int(self._tab[base + parse_card(c)]) for _, c in self.trick)
        return [a for a in self.legal if int(self._tab[base + a.code]) > best]

    def choice(self, actions=None) -> Action:
        """An action drawn uniformly (from ``actions``, else the legal ones) with the run's policy stream."""
        pool = list(self.legal if actions is None else actions)
        return pool[int(randbelow(self._rng, np.int64(len(pool))))]

    def fallback(self, policy: str = "heuristic") -> Action:
        """The action a built-in (``random``, ``baseline``, ``heuristic``, with settings) takes here."""
        from euchresim.policies.builtin import BASELINE
        from euchresim.policies.builtin import decide as builtin_decide
        from euchresim.policies.heuristic import heuristic_decide
        pid, row = _fallback(policy)
        args = (self._st, np.int64(self._hand), np.int64(self._away), np.int64(self._seat), np.int64(self._legal))
        if pid <= BASELINE:
            code = builtin_decide(pid, *args, row, self._rng, self._tab)
        else:
            code = heuristic_decide(*args, row, self._tab)
        return self.action(int(code))

    def action(self, answer) -> Action:
        """The legal action ``answer`` names: an Action, its name ("order", "9C", "hearts") or its engine code."""
        if isinstance(answer, Action) and answer in self.legal:
            return answer
        if isinstance(answer, str):
            for a in self.legal:
                if a == answer:
                    return a
        if isinstance(answer, (int, np.integer)) and not isinstance(answer, bool):
            for a in self.legal:
                if a.code == answer:
                    return a
        raise ValueError(f"{answer!r} is not a legal action at this {self.phase} decision; "
                         f"legal: {', '.join(a.name for a in self.legal[:12])}")


def bot(fn=None, *, params=()):
    """Decorator: a policy written as ``fn(decision) -> action`` (module docstring), played as plain Python.

    ``params`` declares its parameters as ``user_policy`` does
    (``param(name, default, lo, hi, doc)``), read as ``d.params[name]``.
    Named on the command line as ``MODULE:FUNCTION`` (``:python`` is implied).
    """
    def build(f):
        declared = declare(params, f"{f.__module__}:{f.__name__}")

        @functools.wraps(f)
        def policy(st, hand, away, seat, legal, row, rng, tab):
            d = Decision(st, hand, away, seat, legal, row, rng, tab, declared)
            return d.action(f(d)).code

        policy.policy_params = declared
        setattr(policy, BOT_MARK, True)
        return policy
    return build if fn is None else build(fn)
