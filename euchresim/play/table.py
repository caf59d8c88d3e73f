"""One player's session at the practice table: the deals, the bots' turns, the player's actions, the records.

The player sits at seat 0 (``YOU``) of a 4-hand, 2-hand or Cutthroat
game; the bots fill the other seats and decide through ``loops.hands.seat_decider``, the hot
loop's very call, so the table plays what ``simulate`` plays.  Hand ``i`` of a session
is dealt from the streams of chunk ``i`` of the seed (``runner.chunk_states``):
a session's deals depend on the seed and the hand's number only, so a
restart deals the unfinished hand again, the same cards, and the same seed
gives another player the same deals.

Every finished hand is appended to ``hands.jsonl`` in the session folder
(docs/hand-record.md, with its game and score) and flushed before the page
hears of it: a reload or a restart loses no finished hand, and ``--resume``
reads the file back to go on where it stopped.
"""
from __future__ import annotations

import json
import os
import re
import threading

import numpy as np

from euchresim.actions import name as action_name
from euchresim.cards import SUIT_NAMES as CARD_SUIT_NAMES, SUITS, card_str, cards_of
from euchresim.engine.game import game_winners
from euchresim.engine.layout import (BIDSUIT, BID2_PASS, CFG_GAME_TO, CFG_NPACK, CFG_TIE, DEALER, LED, NINTRICK,
                                     PH_BID2, PH_DISCARD, PH_DUMMY, PH_PLAY, PHASE_NAMES, POINTS, REDEAL, SCORE,
                                     T_NEXT, T_PACK, T_SUIT_OF, TRUMP)
from euchresim.engine.tables import cached_tables
from euchresim.loops.hands import new_workspace, seat_decider
from euchresim.loops.record_steps import replay
from euchresim.engine.state import Hand
from euchresim.play.words import card_text
from euchresim.records.format import Record, format_record, parse_record
from euchresim.records.jsonl import iter_jsonl
from euchresim.run.runner import chunk_states

YOU = 0
SEAT_NAMES = ("you", "left", "partner", "right")
# the seats by players at the table, the player first and then clockwise (the player's left first)
SEATS_BY_PLAYERS = {4: SEAT_NAMES, 3: ("you", "left", "right"), 2: ("you", "opponent")}
SUIT_NAMES = dict(zip(SUITS, CARD_SUIT_NAMES))       # by letter: "H" -> "hearts" (cards.SUIT_NAMES, the one list)
RECORDS = "hands.jsonl"
META = "session.json"


class TableError(ValueError):
    """A request the table refuses: ``status`` is the HTTP status it answers with, the message one line."""

    def __init__(self, message: str, status: int = 409):
        super().__init__(message)
        self.status = status


def policy_message(e: Exception) -> str:
    """A policy's error without the seat it names: every seat of the table's bots is the one policy."""
    return re.sub(r"^--policy \(seat \d\): ", "", str(e))


def _suit_name(s: int) -> str:
    return SUIT_NAMES[SUITS[s]]


def _read_meta(path: str) -> dict:
    """A session's session.json as a dict; one that cannot be read or is not an object is a TableError."""
    try:
        with open(path, encoding="utf-8") as fh:
            kept = json.load(fh)
    except (OSError, ValueError) as e:
        raise TableError(f"--resume: {path}: cannot read the session ({e})", 400) from None
    if not isinstance(kept, dict):
        raise TableError(f"--resume: {path}: cannot read the session (not a JSON object)", 400)
    return kept


def read_bot(rules, name: str, flag: str = "--bot"):
    """A policy named to the table read once (a ``policies.Seats``), or a TableError (one line, a 400)."""
    from euchresim.policies import seats
    try:
        return seats([name], rules.players)
    except ValueError as e:
        raise TableError(f"{flag}: {policy_message(e)}", 400) from None


class Session:
    """The game at the table: scores to ``rules.game_to``, the hand being played, the records written.

    Methods that change it (``act``, ``next_hand``) hold ``lock``; the
    server answers each request with ``view()`` taken under the same lock.
    """

    @staticmethod
    def check(rules, bot: str, folder: str, resume: bool, read=None):
        """What a start would refuse, found before anything is compiled or written: the bot, and a --resume
        with no session there (a TableError, one line). The command line asks this first, so a typo is
        one line, not a compile notice and then the refusal. Returns the bot read (a policies.Seats):
        ``read``, the bot as the caller read it already (what ``check`` returned), is taken as it is."""
        if read is None:
            read = read_bot(rules, bot)
        if any(p.python for p in read):           # as the policy declares it, not read off its name
            raise TableError(f"--bot {bot}: a policy played as plain Python (a @bot, or ':python') cannot sit "
                             f"at the table; give it jitted", 400)
        if resume and not (os.path.exists(os.path.join(folder, RECORDS)) or os.path.exists(os.path.join(folder, META))):
            raise TableError(f"--resume: there is no session in {folder} to go on with", 400)
        return read

    @staticmethod
    def kept(folder: str):
        """The rules, bot and seed a session in ``folder`` was played with (its session.json), or None where
        there is none (a --resume there is refused by ``check``); an unreadable one is a TableError."""
        from euchresim.rules import Rules, RulesError
        path = os.path.join(folder, META)
        if not os.path.exists(path):
            return None
        kept = _read_meta(path)
        try:
            d = dict(kept["rules"])
            rules = Rules.from_record(d.pop("players"), d.pop("deck"), d)
        except (KeyError, TypeError, ValueError, RulesError) as e:
            raise TableError(f"--resume: {path}: cannot read the session ({e})", 400) from None
        return rules, kept.get("bot"), kept.get("seed")

    def __init__(self, rules, bot: str, seed: int, folder: str, resume: bool = False, on_hand=None,
                 on_decision=None, read=None):
        self.table = Session.check(rules, bot, folder, resume, read)     # the bot, read once (``read``: already)
        self.pids, self.params = self.table.pids, self.table.params
        self.rules, self.seed, self.folder = rules, int(seed), folder
        self.players = rules.players
        self.parties = 2 if self.players == 4 else self.players     # who scores: sides, or each player
        self.seat_names = SEATS_BY_PLAYERS[self.players]
        try:
            self.fns = self.table.functions()
        except ValueError as e:
            raise TableError(f"--bot: {policy_message(e)}", 400) from None
        self.bot = self.table.names[0]             # canonical: the parameter string the records and the advisor use
        self.bot_name = bot.strip()       # as the player gave it, for the page ('heuristic:human')
        self.tab = cached_tables(rules)
        self.ws = new_workspace()
        self.lock = threading.RLock()
        self.on_hand = on_hand            # called with (index, record dict, decisions) once a hand is written
        self.on_decision = on_decision    # called with (index, decision, a record) after each of the player's
        self.each_decision = False        # ... when the player asks for a verdict after each decision
        self.path = os.path.join(folder, RECORDS)
        self.finished: list[dict] = []    # the records written, as dicts, in order
        self.resumed: list[tuple] = []    # the hands read back by --resume: (record, the player's decisions)
        self.game, self.score, self.dealer = 0, [0] * self.parties, None
        self.game_over = None             # the side that won the game just finished, until the next hand
        self._open(resume)
        if self.game_over is not None:    # resumed after a game's last hand: the next hand opens a game
            self.game, self.score, self.game_over = self.game + 1, [0] * self.parties, None
        self._deal()

    # ---------------------------------------------------------------- the folder
    def _meta(self) -> dict:
        return {"rules": self.rules.to_dict(), "bot": self.bot, "seed": self.seed, "bot_name": self.bot_name}

    def _open(self, resume: bool) -> None:
        meta_path = os.path.join(self.folder, META)
        exists = os.path.exists(self.path) or os.path.exists(meta_path)
        if exists and not resume:
            raise TableError(f"{self.folder}: a session is there already; add --resume to go on with it, "
                             "or give another --session folder", 400)
        if resume and not exists:
            raise TableError(f"--resume: there is no session in {self.folder} to go on with", 400)
        os.makedirs(self.folder, exist_ok=True)          # only once the checks pass: a refused start writes nothing
        if resume:
            kept = _read_meta(meta_path)
            mine = json.loads(json.dumps(self._meta()))
            for key in ("bot", "seed", "rules"):
                if kept.get(key) != mine[key]:
                    raise TableError(f"--resume: the session in {self.folder} was played with {key} "
                                     f"{json.dumps(kept.get(key))}, not {json.dumps(mine[key])}", 400)
            self.bot_name = kept.get("bot_name", self.bot_name)
            self._read_back()
        else:
            with open(meta_path, "w", encoding="utf-8") as fh:
                json.dump(self._meta(), fh, indent=1)
        self._out = open(self.path, "a", encoding="utf-8")

    def _read_back(self) -> None:
        """The finished hands of the file: where the game stands, and who deals next."""
        if not os.path.exists(self.path):
            return
        for n, obj in iter_jsonl(self.path):
            try:
                if isinstance(obj, Exception):
                    raise obj
                rec = parse_record(obj)
                _, err = replay(rec)             # a broken file is refused with replay's words, not played on
                if err:
                    raise ValueError(err)
            except ValueError as e:
                raise TableError(f"{self.path}: line {n}: {e}", 400) from None
            h = Hand.of_record(rec, self.tab)
            mine = []
            for d in h.steps(rec):
                if d.seat == YOU:
                    lead = d.phase == PH_PLAY and h.st[NINTRICK] == 0
                    mine.append({"step": d.step, "kind": PHASE_NAMES[d.phase], "lead": bool(lead),
                                 "did": h.action_name(d.code)})
            self.finished.append(obj)
            self.resumed.append((obj, mine))
            before = self._before(rec, path_line=f"{self.path}: line {n}")
            self._score_hand(h, rec.dealer, int(obj.get("game", 0)), before)

    # ---------------------------------------------------------------- a hand
    def _deal(self) -> None:
        i = len(self.finished)
        drng, self.prng = chunk_states(self.seed, i)
        if self.dealer is None:
            from euchresim.loops.slow import first_dealer
            self.dealer = first_dealer(drng, self.players)
        work = self.tab[T_PACK:T_PACK + self.tab[CFG_NPACK]].copy()
        self.h = Hand(self.tab)
        self.h.st[SCORE:SCORE + 4] = [self.score[self.party(s)] if s < self.players else 0 for s in range(4)]
        self.h.deal_next(work, drng, np.zeros(4, np.int64), self.dealer)
        self.step = 0
        self.mine: list[dict] = []        # the player's decisions this hand: step, kind, what was done
        self._bots()

    def _bots(self) -> None:
        """The bots' turns, up to the player's or the end of the hand."""
        self.step += self.h.play_out(self._bot(self.prng), until=lambda h: h.to_act == YOU)
        if self.h.done:
            self._finish()

    def _bot(self, prng):
        """The bots' deciding, drawing on ``prng``: ``Hand.play_out``'s ``decide`` at every seat."""
        return seat_decider(self.pids, self.params, self.fns, prng, self.ws)

    def act(self, hand: int, step: int, action: int) -> None:
        """The player's action ``action`` (an engine code) at ``step`` of hand ``hand``; a TableError if refused."""
        with self.lock:
            h = self.h
            if not 0 <= action < (1 << 33 if self.h.phase == PH_DUMMY else 64):
                raise TableError(f"action {action} is not one of this decision's (engine codes are 0 to 63; "
                                 "a Cutthroat keep is a board of five cards)", 400)
            if hand != len(self.finished) or h.done:
                raise TableError(f"hand {hand} is over; the table is at hand {len(self.finished) + (not h.done)}")
            if step != self.step:
                raise TableError(f"that action was for step {step}; the hand is at step {self.step} (sent twice?)")
            if h.to_act != YOU:
                raise TableError(f"it is {self.seat_names[h.to_act]}'s turn, not yours")
            legal = h.legal()
            if not self.allows(action, legal):
                raise TableError(self.why_not(action) or f"action {action} is not one of this decision's", 400)
            phase = h.phase
            lead = phase == PH_PLAY and h.st[NINTRICK] == 0
            label = self.label(phase, action)
            if h.apply(action, legal):
                raise TableError(f"the engine refused {label} (error {h.error})", 400)
            self.mine.append({"step": self.step, "kind": PHASE_NAMES[phase], "lead": bool(lead), "did": label})
            self.step += 1
            if self.on_decision is not None and self.each_decision and not h.done:
                self.on_decision(len(self.finished), self.mine[-1], self.finished_by_bots())
            self._bots()

    def next_hand(self, hand: int) -> None:
        """Deal hand ``hand`` once the one before it is over (a new game after a game's end)."""
        with self.lock:
            if not self.h.done:
                raise TableError(f"hand {len(self.finished)} is still being played")
            if hand != len(self.finished):
                raise TableError(f"the next hand is {len(self.finished)}, not {hand} (sent twice?)")
            if self.game_over is not None:
                self.game, self.score, self.game_over = self.game + 1, [0] * self.parties, None
            self._deal()

    def allows(self, action: int, legal: int) -> bool:
        """Whether the engine takes ``action`` now: a bit of ``legal``, or for a Cutthroat maker's keep five
        of the ten cards ``legal`` holds (the keep is a board, not a code)."""
        if self.h.phase == PH_DUMMY:
            return bin(action).count("1") == 5 and action & ~legal == 0
        return 0 <= action < 64 and bool((legal >> action) & 1)

    def party(self, seat: int) -> int:
        """Who scores for ``seat``: its side with 4 players (seats 0+2, 1+3), the seat itself with 2 or 3."""
        return seat % 2 if self.players == 4 else seat

    # ---------------------------------------------------------------- the end of a hand
    def record(self, h=None) -> tuple[Record, dict]:
        """The finished hand (or ``h``) as a hand record and its outcome (docs/hand-record.md)."""
        h = self.h if h is None else h
        return h.record(self.rules, self.game), h.outcome()

    def finished_by_bots(self) -> dict:
        """The hand so far played out by the bots at every seat, the player's too, as a record: what the
        advisor needs to judge a decision now (it sees only what the seat knew then, never this ending)."""
        h = self.h.copy()
        h.play_out(self._bot(self.prng.copy()))           # the hand's own stream is left as it is
        return format_record(*self.record(h))

    def _finish(self) -> None:
        rec, outcome = self.record()
        obj = format_record(rec, outcome)
        self._out.write(json.dumps(obj, separators=(",", ":")) + "\n")
        self._out.flush()
        os.fsync(self._out.fileno())
        self.finished.append(obj)
        self._score_hand(self.h, rec.dealer, self.game, self.score)
        if self.on_hand is not None:
            self.on_hand(len(self.finished) - 1, obj, list(self.mine))

    def _before(self, rec: Record, path_line: str) -> list[int]:
        """The game score before a read-back hand, from its record: a replayed deal starts at 0-0, so the
        record's ``score`` is the only place the running total survives a restart."""
        if rec.score is None:
            raise TableError(f"{path_line}: the record has no score, so the game cannot be resumed", 400)
        # party p scores on seat p: a side of 4 on its seat 0 or 1, a player of 2 or 3 on its own
        return [int(rec.score[p]) for p in range(self.parties)]

    def _score_hand(self, h, dealer: int, game: int, before) -> None:
        """Where the game stands after hand ``h``: ``before`` (the parties' scores when it was dealt) plus
        its points, the game over once one reaches the target (who won by the engine's own rule, R12, ties
        in Cutthroat included), and the next dealer."""
        st = h.st
        self.game = game
        before = list(before)
        for p in range(self.parties):
            self.score[p] = int(before[p]) + int(st[POINTS + p])      # party p's points, on its seat p
        self.dealer = dealer if st[REDEAL] else int(self.tab[T_NEXT + dealer])
        seats = np.array([self.score[self.party(s)] for s in range(self.players)], np.int64)
        won = int(game_winners(st, seats, np.int64(self.players), self.tab[CFG_GAME_TO], self.tab[CFG_TIE]))
        self.game_over = self.party((won & -won).bit_length() - 1) if won else None

    def close(self) -> None:
        self._out.close()

    # ---------------------------------------------------------------- words
    def label(self, phase: int, a: int) -> str:
        """An action as a player says it (the ``said`` words of euchresim.actions: the dealer picks the upcard
        up, Cutthroat's maker takes the dummy, not a partner)."""
        return action_name(phase, a, "said", self.players, dealer=YOU == int(self.h.st[DEALER]))

    def why_not(self, a: int) -> str:
        """Why the rules refuse action ``a`` to the player now ('' when they allow it)."""
        h = self.h
        if h.done or h.to_act != YOU:
            return "it is not your turn"
        legal = h.legal()
        if self.allows(a, legal):
            return ""
        if h.phase == PH_DUMMY:
            return ("keep five of the ten cards: your hand and the dummy (R9)" if bin(a).count("1") != 5
                    else "keep only cards of your hand and the dummy (R9)")
        phase, st = h.phase, h.st
        if phase == PH_PLAY:
            hand = h.hand_of(YOU)
            if not (0 <= a < 33 and (hand >> a) & 1):
                return f"{a} is not a card in your hand"
            trump, led = int(st[TRUMP]), int(st[LED])
            follow = [card_text(card_str(c)) for c in cards_of(hand) if self.tab[T_SUIT_OF + 33 * trump + c] == led]
            what = "trump" if led == trump else SUIT_NAMES[SUITS[led]]
            return (f"{card_text(card_str(a))} cannot be played: {what} was led and you hold {', '.join(follow)}; "
                    f"you must follow suit (R10)")
        if phase == PH_BID2:
            if a == BID2_PASS:
                return "stick the dealer: the dealer must name a suit in round two (R6)"
            if a == int(st[BIDSUIT]):
                return f"{_suit_name(a)} was turned down: round two names another suit (R6)"
        if phase == PH_DISCARD:
            return f"{card_text(card_str(a))} is not in your hand or the upcard"
        return f"{self.label(phase, a) if 0 <= a < 64 else a} is not allowed here (docs/rules.md)"

