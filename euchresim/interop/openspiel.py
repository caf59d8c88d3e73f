"""euchresim policies as OpenSpiel bots for OpenSpiel's ``euchre`` (docs/openspiel.md).

``EuchresimBot(game, player_id, policy)`` is a ``pyspiel.Bot``: at each of
its turns it rebuilds the hand so far in euchresim's engine from the
OpenSpiel state's history (the chance outcomes give the dealer and the
whole deal), asks the euchresim policy for the decision in euchresim's
order of decisions (docs/choices.md C1) and answers it in OpenSpiel's
action encoding.  Where the two games ask in a different order, or
OpenSpiel offers a choice euchresim's rules never do, the adapter's answer
is fixed and documented (docs/openspiel.md, "Where the two games differ"):

* OpenSpiel's dealer discards *before* the maker's alone question; the
  dealer's bot answers it by playing euchresim's order on a copy of the
  state (its own alone answer if it is the maker, remembered for when
  OpenSpiel asks; every other seat's alone answer taken as no);
* OpenSpiel's dealer must take the upcard; a policy that would put the
  upcard itself away (decline the exchange) discards its lowest card in
  trump order instead;
* OpenSpiel asks the defenders from the dealer's left, euchresim from the
  maker's left; a defender asked before its turn in euchresim's order takes
  the other defender's unspoken answer as no;
* OpenSpiel lets a defender go alone against a maker with a partner, which
  euchresim never does: our bots answer "Partner"; another bot's "Alone" is
  mirrored for play (its partner sits out) but has no euchresim score.

Card and suit encodings (both 0..3 = clubs, diamonds, hearts, spades):
OpenSpiel card ``4 * rank + suit`` with rank 0..5 = 9 T J Q K A; euchresim
card ``8 * suit + rank`` with rank 2..7 = 9 T J Q K A (euchresim.cards).

This module imports ``pyspiel``; ``import euchresim`` never imports it.
"""
from __future__ import annotations

try:
    import pyspiel
except ImportError as e:          # pragma: no cover - exercised only without the extra
    raise ImportError("euchresim.interop.openspiel needs OpenSpiel: pip install 'euchresim[openspiel]' "
                      f"(the open-spiel wheel); {e}") from None

import numpy as np

from euchresim.engine.tables import cached_tables
from euchresim.actions import CALL_ORDER, CALL_PASS, CALL_SUIT0, call_word
from euchresim.cards import card_str
from euchresim.engine import hand as H
from euchresim.engine.bits import seed_state
from euchresim.engine.layout import (ALONE, BIDSUIT, DEALER, OUT, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_PLAY, PHASE, T_ORDER, TO_ACT, TRUMP, UPCARD)
from euchresim.engine.state import Hand
from euchresim.rules import Rules

# ---- OpenSpiel's euchre action ids (open_spiel/games/euchre/euchre.h) -------
OS_NUM_CARDS = 24        # actions 0..23: cards (and, at the very start, 0..3: the dealer)
OS_PASS = 24
OS_SUIT0 = 25            # 25..28: clubs, diamonds, hearts, spades
OS_ALONE = 29
OS_PARTNER = 30
OS_NUM_ACTIONS = 31
_OS_PARAMS = {"allow_lone_defender": "defend_alone", "stick_the_dealer": "stick_the_dealer"}
_DEAL_END = 22           # history: [dealer, 20 dealt cards, upcard], then the decisions


# ---- cards and actions ------------------------------------------------------
def card_from_openspiel(a: int) -> int:
    """euchresim card index of OpenSpiel card action ``a`` (0..23)."""
    a = int(a)
    if not 0 <= a < OS_NUM_CARDS:
        raise ValueError(f"OpenSpiel card action {a} is not a card (0..23)")
    return 8 * (a & 3) + (a >> 2) + 2


def card_to_openspiel(c: int) -> int:
    """OpenSpiel card action of euchresim card index ``c`` (a card of the 24-card pack)."""
    c = int(c)
    if not 0 <= c < 32 or (c & 7) < 2:
        raise ValueError(f"euchresim card {c} is not in OpenSpiel's 24-card pack (9 to ace)")
    return 4 * ((c & 7) - 2) + (c >> 3)


def action_to_openspiel(phase: int, action: int, bidsuit: int = -1) -> int:
    """OpenSpiel action for euchresim's ``action`` in ``phase`` (``bidsuit``: the upcard's suit, round one)."""
    if phase == PH_BID1:
        if action == 1 and not 0 <= bidsuit < 4:
            raise ValueError("an order in round one needs the upcard's suit")
        return OS_SUIT0 + bidsuit if action == 1 else OS_PASS
    if phase == PH_BID2:
        return OS_PASS if action == 4 else OS_SUIT0 + int(action)
    if phase in (PH_ALONE, PH_DEFEND):
        return OS_ALONE if action == 1 else OS_PARTNER
    if phase in (PH_DISCARD, PH_PLAY):
        return card_to_openspiel(action)
    raise ValueError(f"OpenSpiel's euchre has no decision like euchresim phase {phase}")


def action_from_openspiel(phase: int, a: int) -> int:
    """euchresim action for OpenSpiel action ``a`` taken where euchresim is in ``phase``."""
    a = int(a)
    if phase == PH_BID1:
        if a == OS_PASS:
            return 0
        if OS_SUIT0 <= a < OS_SUIT0 + 4:
            return 1
    elif phase == PH_BID2:
        if a == OS_PASS:
            return 4
        if OS_SUIT0 <= a < OS_SUIT0 + 4:
            return a - OS_SUIT0
    elif phase in (PH_ALONE, PH_DEFEND):
        if a in (OS_ALONE, OS_PARTNER):
            return 1 if a == OS_ALONE else 0
    elif phase in (PH_DISCARD, PH_PLAY):
        return card_from_openspiel(a)
    raise ValueError(f"OpenSpiel action {a} is no answer to euchresim phase {phase}")


# ---- rules --------------------------------------------------------------------
def rules_for(game) -> Rules:
    """euchresim Rules for an OpenSpiel euchre game (or a dict of its parameters).

    ``stick_the_dealer`` is our ``stick_the_dealer``; ``allow_lone_defender``
    is our ``defend_alone`` (OpenSpiel also lets a defender go alone against
    a partnership, which our bots never do: docs/openspiel.md).  Anything
    else (another game, another parameter) raises a one-line ValueError.
    """
    if isinstance(game, dict):
        params = dict(game)
    else:
        name = game.get_type().short_name
        if name != "euchre":
            raise ValueError(f"euchresim mirrors OpenSpiel's 'euchre' only, not {name!r}")
        params = dict(game.get_parameters())
    unknown = sorted(set(params) - set(_OS_PARAMS))
    if unknown:
        raise ValueError(f"OpenSpiel euchre parameter {unknown[0]!r} has no euchresim rule to mirror it; "
                         f"mirrored: {', '.join(_OS_PARAMS)}")
    opts = {}
    for os_name, ours in _OS_PARAMS.items():
        v = params.get(os_name, os_name == "stick_the_dealer")      # OpenSpiel's defaults
        if not isinstance(v, bool):
            raise ValueError(f"OpenSpiel euchre parameter {os_name} must be true or false, not {v!r}")
        opts[ours] = v
    return Rules(players=4, deck=24, **opts)


# ---- the hand so far, rebuilt in euchresim's engine ---------------------------
class _Mirror:
    """An OpenSpiel euchre state's history, read and replayed in euchresim's engine.

    ``st``/``priv`` hold the hand advanced as far as the history allows in
    euchresim's order of decisions (C1); ``pending`` says what it waits for.
    """

    def __init__(self, history, rules: Rules, tab):
        self.rules, self.tab = rules, tab
        hist = [(int(p), int(a)) for p, a in history]
        if len(hist) < _DEAL_END:
            raise ValueError("the OpenSpiel state is still in its deal (no upcard yet)")
        self.dealer = hist[0][1]
        hands = [0, 0, 0, 0]
        for i, (_, a) in enumerate(hist[1:21]):
            hands[(self.dealer + i) % 4] |= 1 << card_from_openspiel(a)
        self.hands = hands
        self.upcard = card_from_openspiel(hist[21][1])
        dealt = hands[0] | hands[1] | hands[2] | hands[3] | (1 << self.upcard)
        pack = sum(1 << (8 * s + r) for s in range(4) for r in range(2, 8))
        self.kitty = pack & ~dealt

        # the decisions, sorted by kind
        self.bids: list[int] = []       # OpenSpiel bid actions, in turn
        self.maker = -1
        self.round = 0
        self.discard = None             # euchresim card
        self.maker_alone = None
        self.defend: dict[int, bool] = {}   # defender seat -> went alone, in OpenSpiel's asking order
        self.plays: list[int] = []      # euchresim cards
        passes = 0
        for p, a in hist[_DEAL_END:]:
            if self.maker < 0:
                self.bids.append(a)
                if a == OS_PASS:
                    passes += 1
                else:
                    self.maker, self.round = p, (1 if passes < 4 else 2)
            elif a < OS_NUM_CARDS and self.round == 1 and self.discard is None and self.maker_alone is None:
                self.discard = card_from_openspiel(a)
            elif a in (OS_ALONE, OS_PARTNER) and self.maker_alone is None:
                self.maker_alone = a == OS_ALONE
            elif a in (OS_ALONE, OS_PARTNER):
                self.defend[p] = a == OS_ALONE
            else:
                self.plays.append(card_from_openspiel(a))
        self.lone_defender = next((s for s, yes in self.defend.items() if yes), -1)

        self.hand = Hand.dealt(tab, self.dealer, hands, 0, self.upcard, self.kitty)
        self.st = self.hand.st
        self.unmirrored = False         # a lone defender against a partnership (no euchresim score)
        self._advance()

    def apply(self, a, hand: Hand | None = None):
        """Action ``a`` on the mirrored hand (or on ``hand``, a copy of it)."""
        h = self.hand if hand is None else hand
        if h.apply(a):
            raise RuntimeError(f"euchresim refused action {a} in phase {h.phase} for seat {h.to_act}; "
                               "the OpenSpiel history does not mirror (a bug of the adapter)")

    def _defenders_done(self) -> bool:
        return self.lone_defender >= 0 or len(self.defend) == 2 or bool(self.plays)

    def _advance(self):
        st = self.st
        nbid = nplay = 0
        while True:
            ph = st[PHASE]
            if ph in (PH_BID1, PH_BID2):
                if nbid == len(self.bids):
                    return
                self.apply(action_from_openspiel(ph, self.bids[nbid]))
                nbid += 1
            elif ph == PH_ALONE:
                if self.maker_alone is None:
                    return
                self.apply(int(self.maker_alone))
                if not self.maker_alone and self.lone_defender >= 0:
                    self._patch_lone_defender()
            elif ph == PH_DEFEND:
                seat = int(st[TO_ACT])
                if seat in self.defend:
                    self.apply(int(self.defend[seat]))
                elif self._defenders_done():      # never asked by OpenSpiel: the other said yes first
                    self.apply(0)
                else:
                    return
            elif ph == PH_DISCARD:
                if self.discard is None:
                    return
                self.apply(self.discard)
            elif ph == PH_PLAY:
                if nplay == len(self.plays):
                    return
                self.apply(self.plays[nplay])
                nplay += 1
            else:
                return

    def _patch_lone_defender(self):
        """OpenSpiel's lone defender against a partnership: the partner sits out (no such rule of ours)."""
        st, d = self.st, self.lone_defender
        self.unmirrored = True
        st[ALONE] |= np.int64(1) << d
        st[OUT] |= np.int64(1) << ((d + 2) & 3)
        if st[PHASE] == PH_PLAY or (st[PHASE] == PH_DISCARD and (st[OUT] >> st[DEALER]) & 1):
            H._start_play(st, self.tab)       # who leads and how many play, with the partner out

    # what the OpenSpiel state is asking now
    def os_phase(self) -> str:
        if self.maker < 0:
            return "bid"
        if self.round == 1 and self.discard is None:
            return "discard"
        if self.maker_alone is None:
            return "alone"
        if self.rules.defend_alone and not self._defenders_done():
            return "defend"
        return "play"


def _history(state):
    return [(pa.player, pa.action) for pa in state.full_history()]


# ---- hand records ----------------------------------------------------------------
def record_of(state) -> dict:
    """euchresim hand record (docs/hand-record.md) of an OpenSpiel euchre state's history.

    The decisions are written in euchresim's order (C1): the defenders' alone
    answers as euchresim asks them, the dealer's discard null when the
    dealer sits out.  Feed it to ``euchresim.loops.record_steps.replay_record`` for our
    outcome.  A lone defender against a partnership (OpenSpiel only) is a
    ValueError: no euchresim hand has one.
    """
    rules = rules_for(state.get_game())
    m = _Mirror(_history(state), rules, cached_tables(rules))
    if m.unmirrored:
        raise ValueError(f"seat {m.lone_defender} defended alone against a maker with a partner, which no "
                         "euchresim hand can do (docs/openspiel.md); there is no hand record of it")
    calls = []
    for k, a in enumerate(m.bids):
        if a == OS_PASS:
            calls.append(call_word(CALL_PASS))          # the record's words (euchresim.actions)
        else:
            calls.append(call_word(CALL_ORDER if k < 4 else CALL_SUIT0 + a - OS_SUIT0))
    alone = []
    if m.maker_alone:
        alone.append(m.maker)
        if m.lone_defender >= 0:
            alone.append(m.lone_defender)
    st = m.st
    dealer_out = bool((st[OUT] >> m.dealer) & 1)
    discard = None
    if m.discard is not None and not (m.maker_alone is not None and dealer_out):
        discard = card_str(m.discard)

    def cards(mask):
        return [card_str(c) for c in sorted((c for c in range(32) if (mask >> c) & 1), reverse=True)]

    rec = {"players": 4, "deck": 24}
    if rules.changed():
        rec["rules"] = rules.changed()
    rec.update({"dealer": m.dealer, "hands": [cards(h) for h in m.hands], "upcard": card_str(m.upcard),
                "kitty": cards(m.kitty), "joker_suit": None, "calls": calls, "alone": alone,
                "discard": discard, "dummy_keep": None, "plays": [card_str(c) for c in m.plays]})
    return rec


# ---- the bot ---------------------------------------------------------------------
class EuchresimBot(pyspiel.Bot):
    """A euchresim policy playing seat ``player_id`` of an OpenSpiel ``euchre`` game.

    ``policy`` is any policy the command line's ``--policy`` takes (``random``,
    ``baseline``, ``heuristic:order_2=4.5``, ``MODULE:FUNCTION``, ...);
    ``seed`` seeds the policy's random stream, so a bot with the same seed
    facing the same game makes the same decisions.  ``restart`` and
    ``restart_at`` keep the stream going (successive games differ) and
    forget the remembered alone answer; ``inform_action`` needs nothing,
    since each ``step`` rebuilds the hand from the state's history.
    """

    def __init__(self, game, player_id: int, policy: str = "baseline", seed: int = 0):
        pyspiel.Bot.__init__(self)
        from euchresim.loops.hands import new_workspace, seat_decider
        from euchresim.policies import PolicyError, seats
        self._rules = rules_for(game)
        if isinstance(player_id, bool) or not isinstance(player_id, (int, np.integer)) or not 0 <= player_id < 4:
            raise ValueError(f"player_id must be a seat 0..3 of OpenSpiel's euchre, not {player_id!r}")
        self._seat = int(player_id)
        try:
            self.table = seats(policy, 4)          # read once (a Seats is taken as it is)
            self._pids, self._params = self.table.pids, self.table.params
            self._fns = self.table.functions()
        except PolicyError as e:
            raise PolicyError(str(e).replace("--policy (seat 0)", f"EuchresimBot policy (seat {self._seat})", 1)) \
                from None
        self.policy = self.table.names[0]
        self._tab = cached_tables(self._rules)
        self._rng = seed_state(np.random.SeedSequence(seed))
        self._decide_at = seat_decider(self._pids, self._params, self._fns, self._rng, new_workspace())
        self._plan = None           # (history before the discard, the dealer-maker's alone answer)

    # pyspiel.Bot
    def player_id(self):
        return self._seat

    def restart(self):
        self._plan = None

    def restart_at(self, state):
        self._plan = None

    def inform_action(self, state, player_id, action):
        pass

    def inform_actions(self, state, actions):
        pass

    def provides_policy(self):
        return False

    def step(self, state):
        if state.current_player() != self._seat:
            raise ValueError(f"EuchresimBot for seat {self._seat} asked to act for player {state.current_player()}")
        hist = _history(state)
        m = _Mirror(hist, self._rules, self._tab)
        a = self._answer(m, hist)
        if a not in state.legal_actions():
            raise RuntimeError(f"EuchresimBot ({self.policy}, seat {self._seat}) chose {state.action_to_string(a)}, "
                               f"not legal in OpenSpiel here: {state.legal_actions()}")
        return a

    # the decision, in euchresim's terms
    def _decide(self, h: Hand, phase):
        if h.phase != phase or h.to_act != self._seat:
            raise RuntimeError(f"euchresim mirror out of step: phase {h.phase} seat {h.to_act}, "
                               f"expected phase {phase} seat {self._seat}")
        a, legal = self._decide_at(h)
        if a < 0 or a > 32 or not (legal >> a) & 1:
            raise RuntimeError(f"policy {self.policy} answered {a}, not legal in euchresim phase {phase}")
        return a

    def _answer(self, m: _Mirror, hist) -> int:
        h = m.hand
        kind = m.os_phase()
        if kind == "bid":
            return action_to_openspiel(h.phase, self._decide(h, h.phase), int(h.st[BIDSUIT]))
        if kind == "discard":
            return self._discard(m, hist)
        if kind == "alone":
            if self._plan is not None and self._plan[0] == hist[:-1]:
                return OS_ALONE if self._plan[1] else OS_PARTNER
            return action_to_openspiel(PH_ALONE, self._decide(h, PH_ALONE))
        if kind == "defend":
            if not m.maker_alone:
                return OS_PARTNER          # euchresim never defends alone against a partnership
            h = h.copy()
            if h.to_act != self._seat:     # euchresim asks the other defender first: take its no
                m.apply(0, h)
            return action_to_openspiel(PH_DEFEND, self._decide(h, PH_DEFEND))
        return action_to_openspiel(PH_PLAY, self._decide(h, PH_PLAY))

    def _discard(self, m: _Mirror, hist) -> int:
        """OpenSpiel's discard comes before the alone questions: play C1's order on a copy."""
        h = m.hand.copy()
        while h.phase in (PH_ALONE, PH_DEFEND):
            if h.phase == PH_ALONE and h.to_act == self._seat:     # the dealer is the maker
                yes = self._decide(h, PH_ALONE)
                self._plan = (hist, bool(yes))
                m.apply(yes, h)
            else:
                m.apply(0, h)           # another seat's answer, not known yet: no
        c = self._decide(h, PH_DISCARD)
        if c == h.st[UPCARD]:                    # declined; OpenSpiel's dealer must take it up
            trump = int(h.st[TRUMP])
            hand = h.hand_of(self._seat)
            held = [x for x in range(32) if (hand >> x) & 1]
            c = min(held, key=lambda x: (int(self._tab[T_ORDER + 33 * trump + x]), x))
        return card_to_openspiel(c)


def points_to_returns(points) -> list[float]:
    """OpenSpiel's zero-sum returns from euchresim's points per seat: mine minus my opponents'."""
    return [float(points[s] - points[(s + 1) & 3]) for s in range(4)]


__all__ = ["EuchresimBot", "rules_for", "record_of", "card_from_openspiel", "card_to_openspiel",
           "action_to_openspiel", "action_from_openspiel", "points_to_returns",
           "OS_PASS", "OS_SUIT0", "OS_ALONE", "OS_PARTNER"]
