"""What the deciding seat knows, as the advisor's kernels take it; built from a description or a record.

A ``Situation`` holds the rules, the dealer, the seat, the cards it is known
to hold and that others have shown, the hand so far as a record writes it,
and how many of its steps lead to the decision.  ``from_hand`` builds one
from what a player says ("left of the dealer, holding ..., ten of hearts
turned"), ``from_record`` from a hand record cut at a decision, each time
with only what that seat saw.  ``decision_of`` reads the decision and its
options off one probe (loops/advisor_kernels.py: a Python loop over the compiled
sample_deal); studies/advisor/evaluate.py samples and plays them.
"""
from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, field

import numpy as np

from euchresim.actions import call_word, name as action_name, with_alone
from euchresim.engine.tables import cached_tables
from euchresim.engine.layout import (BID2_PASS, ERR_SCRIPT_SHORT, EXCHANGED, MAKER, PH_ALONE, PH_BID1, PH_BID2, PH_DEFEND, PH_DISCARD, PH_DUMMY, PH_JOKER, PH_PLAY, PHASE_NAMES, PLAY_SEAT, NO_CARD, NO_KEEP)
from euchresim.records.format import Record
from euchresim.rules import Rules

from euchresim.run.runner import chunk_states

@dataclass(frozen=True)
class Situation:
    """What the deciding seat knows, in the record's terms (docs/hand-record.md) -- and nothing else.

    ``fixed[s]`` are the cards seat s is known to have been dealt: the
    seat's own hand, and for each other seat the cards it has played (the
    dealer's upcard excepted).  ``discard`` and ``keep`` are NO_CARD and NO_KEEP unless the
    seat made them.  ``steps`` is how many actions of the hand so far are
    replayed before the decision.
    """
    rules: Rules
    dealer: int
    seat: int
    fixed: tuple                    # 4 boards
    upcard: int
    steps: int
    calls: tuple = ()
    alone: int = 0                  # seat mask of those who went alone so far
    discard: int = NO_CARD
    keep: int = NO_KEEP
    plays: tuple = ()
    joker_suit: int = -1
    fixed_dummy: int = 0
    score: tuple = (0, 0, 0, 0)     # each seat's game score before the hand (a side's, on both its seats)

    def arrays(self):
        i64 = np.int64
        return (i64(self.dealer), i64(self.seat), np.array(self.fixed, np.int64), i64(self.fixed_dummy),
                i64(self.upcard), np.array(self.score, np.int64), i64(self.joker_suit),
                np.array(self.calls, np.int64), i64(self.alone), i64(self.discard), i64(self.keep),
                np.array(self.plays, np.int64), i64(self.steps))

    @property
    def position(self) -> int:
        """Seats left of the dealer (0: the dealer)."""
        return (self.seat - self.dealer) % self.rules.players


@dataclass(frozen=True)
class Options:
    """The decision a situation leads to: its phase and the options, as (action, alone follow-up) rows.

    Named for what it holds, not ``Decision``: that is the bot author's view of a decision
    (policies.decision.Decision), and run.blame.FailedDecision the one a policy got wrong.
    """
    phase: int
    legal: int
    options: np.ndarray = field(compare=False)      # int64[k, 2] (loops.advisor_kernels.OPT_*)
    labels: tuple = ()

    @property
    def kind(self) -> str:
        return PHASE_NAMES[self.phase]


class AdviceError(ValueError):
    """A situation that cannot be: the message names what and where."""


def policy_arrays(table, players):
    """The kernel's arrays of ``table``, a ``policies.Seats`` as read (read once where its name entered)."""
    return table.pids, table.params, table.functions(), table.names


def probe(sit: Situation, tries: int = 20000) -> tuple:
    """Where ``sit.steps`` actions lead (loops.advisor_kernels.probe): (status, phase, to act, legal, calls, plays, tries)."""
    from euchresim.loops.advisor_kernels import probe as probe_kernel
    from euchresim.policies.presets import random_seats
    pids, params, fns, _ = policy_arrays(random_seats(sit.rules.players), sit.rules.players)
    drng, prng = chunk_states(0, 0)
    out = probe_kernel(cached_tables(sit.rules), *sit.arrays(), pids, params, fns, drng, prng, np.int64(tries))
    return tuple(int(x) for x in out)


def _bits(mask: int) -> list[int]:
    return [c for c in range(64) if (mask >> c) & 1]


def decision_of(sit: Situation) -> Options:
    """The seat's decision in ``sit`` and its options; an AdviceError if the hand so far reaches none."""
    from euchresim.loops.advisor_kernels import KEPT, SCRIPT_ERROR
    status, phase, to_act, legal, _, _, _ = probe(sit)
    if status == SCRIPT_ERROR or (status == KEPT and to_act != sit.seat):
        raise AdviceError(f"the calls and cards given do not lead to a decision of {seat_name(sit)} "
                          "under these rules")
    if status != KEPT:
        raise AdviceError("no deal fits the cards played: some seat would have had to follow suit (R10)")
    players = sit.rules.players
    if phase == PH_DUMMY and sit.fixed_dummy == 0:
        raise AdviceError("the dummy keep is decided with the dummy in view: give the dummy's five cards (--dummy)")
    alone_next = players in (3, 4)       # R8/R9: the maker is asked whether to go alone (Cutthroat: or take the dummy)
    rows, labels = [], []
    said = functools.partial(action_name, phase, column="advice", players=players, dealer=sit.seat == sit.dealer)
    if phase == PH_BID1:
        rows.append((0, -1))
        labels.append(said(0))
        call = said(1)                  # the dealer orders the card into its own hand: "pick up"
        if alone_next:
            rows += [(1, 0), (1, 1)]
            labels += [with_alone(call, 0, players), with_alone(call, 1, players)]
        else:
            rows.append((1, -1))
            labels.append(call)
    elif phase == PH_BID2:
        for a in _bits(legal):
            if a == BID2_PASS:
                rows.append((a, -1))
                labels.append(said(a))
                continue
            name = said(a)
            if alone_next:
                rows += [(a, 0), (a, 1)]
                labels += [with_alone(name, 0, players), with_alone(name, 1, players)]
            else:
                rows.append((a, -1))
                labels.append(name)
        order = sorted(range(len(rows)), key=lambda k: (rows[k][0] == BID2_PASS, rows[k]))
        rows, labels = [rows[k] for k in order], [labels[k] for k in order]
    elif phase in (PH_ALONE, PH_DEFEND):
        rows = [(0, -1), (1, -1)]
        labels = [said(0), said(1)]
    elif phase in (PH_DISCARD, PH_PLAY):
        rows = [(c, -1) for c in _bits(legal)]
        labels = [said(c) for c in _bits(legal)]
    elif phase == PH_DUMMY:
        for keep in itertools.combinations(_bits(legal), 5):
            rows.append((sum(1 << c for c in keep), -1))
            labels.append(said(rows[-1][0]))
    elif phase == PH_JOKER:
        rows = [(s, -1) for s in range(4)]
        labels = [said(s) for s in range(4)]
    return Options(phase, legal, np.array(rows, np.int64).reshape(-1, 2), tuple(labels))



# ---------------------------------------------------------------- building situations
def seat_name(sit: Situation, seat: int | None = None) -> str:
    """A seat as a player names it, by where it sits from the dealer ("left"), with its number in a record."""
    from euchresim.rules import POSITION_NAMES
    seat = sit.seat if seat is None else seat
    return f"seat {seat} ({POSITION_NAMES[sit.rules.players][(seat - sit.dealer) % sit.rules.players]})"


def seat_of(position: int, dealer: int, players: int) -> int:
    return (dealer + position) % players


def default_calls(rnd: int, position: int, players: int) -> tuple:
    """Everyone before the seat passed (in round two, everyone passed round one too)."""
    return (0,) * ((position - 1) % players + (players if rnd == 2 else 0))


def from_hand(rules: Rules, hand: int, upcard: int, position: int, calls: tuple | None = None, score=None,
              decision: str | None = None, dealer: int = 0, joker_suit: int = -1, alone: int = 0,
              discard: int = NO_CARD, rnd: int = 1, dummy: int = 0) -> Situation:
    """The seat ``position`` left of the dealer, holding ``hand``, after ``calls`` (codes, from the dealer's left).

    ``calls`` None: everyone before the seat passed, in round ``rnd``.
    ``dummy``: the Cutthroat dummy, for a maker's keep (the maker sees it).
    ``decision`` (a PHASE_NAMES name) picks among the decisions the seat
    meets once the calls are made (after an order, the maker's alone and the
    dealer's discard come in turn); by default its first.
    """
    players = rules.players
    if calls is None:
        calls = default_calls(rnd, position, players)
    seat = seat_of(position, dealer, players)
    fixed = [0, 0, 0, 0]
    fixed[seat] = hand
    base = Situation(rules, dealer, seat, tuple(fixed), upcard, 0, tuple(calls), alone, discard, NO_KEEP, (), joker_suit,
                     dummy, score_tuple(score, players, seat))
    return _first_decision(base, len(calls), 0, decision)


def score_tuple(score, players, seat):
    if score is None:
        return (0, 0, 0, 0)
    score = tuple(int(x) for x in score)
    out = [0, 0, 0, 0]
    if players == 4:
        us, them = score
        for s in range(4):
            out[s] = us if s % 2 == seat % 2 else them
    else:
        for k, s in enumerate([(seat + j) % players for j in range(players)]):
            out[s] = score[k]
    return tuple(out)


def _first_decision(base: Situation, n_calls: int, n_plays: int, decision: str | None) -> Situation:
    """``base`` at the first step where every given call and play is made and ``base.seat`` is to act.

    With ``decision`` (a PHASE_NAMES name), the first such step of that
    kind: after an order the maker's alone call and the dealer's discard
    come in turn, with nothing more given.
    """
    from euchresim.loops.advisor_kernels import KEPT, SCRIPT_ERROR
    if decision is not None and decision not in PHASE_NAMES[:-1]:
        raise AdviceError(f"unknown decision {decision!r}: one of {', '.join(PHASE_NAMES[:-1])}")
    want = None if decision is None else PHASE_NAMES.index(decision)
    steps = n_calls + n_plays
    while True:
        sit = Situation(**{**base.__dict__, "steps": steps})
        status, phase, to_act, _, ci, pi, _ = probe(sit)
        if status == SCRIPT_ERROR and 0 < ci <= n_calls and pi == 0 and ci == _failed_at(base, steps):
            raise AdviceError(f"--calls: call {ci} ({call_word(base.calls[ci - 1])!r}) cannot be made there "
                              "(round one takes pass or order, R5; round two pass or a suit not turned down, R6)")
        if status != KEPT:
            break
        if ci == n_calls and pi == n_plays and to_act == base.seat and (want is None or phase == want):
            return sit
        if pi > n_plays or (ci > n_calls):
            break
        steps += 1
    what = f"{decision} decision" if decision else "decision"
    raise AdviceError(f"{seat_name(base)} has no {what} right after the calls and cards given (whose turn is it?)")


def _failed_at(base: Situation, steps: int) -> int:
    """The number of calls replayed when ``steps`` steps fail, if one step fewer goes through (else -1)."""
    from euchresim.loops.advisor_kernels import KEPT
    ok = probe(Situation(**{**base.__dict__, "steps": steps - 1, "seat": -1}))
    return ok[4] + 1 if ok[0] == KEPT and steps > 0 else -1


def from_record(rec: Record, calls: int | None = None, plays: int | None = None,
                decision: str | None = None, known: str = "seat") -> Situation:
    """The decision of a hand record after ``calls`` calls and ``plays`` cards, as its seat saw it.

    The seat sees its own dealt hand, the upcard, every call, who went
    alone, every card played, its own discard (if it dealt and took the
    upcard) and the dummy if it is the Cutthroat maker who took it; the
    rest of the record (the other hands, the kitty) is hidden from it.
    ``known="all"`` gives it the whole deal instead (a double-dummy view:
    nothing is left to sample).
    """
    from euchresim.loops.record_steps import replay_states
    if known not in ("seat", "all"):
        raise AdviceError(f"known must be 'seat' or 'all', not {known!r}")
    calls = len(rec.calls) if calls is None else int(calls)
    plays = 0 if plays is None else int(plays)
    if not 0 <= calls <= len(rec.calls):
        raise AdviceError(f"the record has {len(rec.calls)} calls, not {calls}")
    if not 0 <= plays <= len(rec.plays):
        raise AdviceError(f"the record has {len(rec.plays)} cards played, not {plays}")
    if plays > 0 and calls < len(rec.calls):
        raise AdviceError("cards are played only once the bidding is over")
    players = rec.rules.players
    found, states = replay_states([rec], cached_tables(rec.rules))
    code, phase_at, _ = (int(x) for x in found[0])
    if code and not (code == ERR_SCRIPT_SHORT and phase_at == PH_PLAY):     # a record cut in the play is a hand so far
        raise AdviceError("the record does not replay: check it with `euchresim replay`")
    st = states[0]
    hands = tuple(rec.hands) + (0,) * (4 - players)
    # the record's game score is the situation's (a game record states it; a lone hand is at 0-0)
    score = (0, 0, 0, 0) if rec.score is None else tuple(int(x) for x in rec.score) + (0,) * (4 - players)
    script = dict(calls=tuple(rec.calls[:calls]), alone=sum(1 << s for s in rec.alone),
                  plays=tuple(rec.plays[:plays]), joker_suit=-1 if rec.joker_suit is None else rec.joker_suit,
                  score=score)
    # the whole deal known: where the prefix leads, and whose turn it is, without sampling
    full = Situation(rec.rules, rec.dealer, -1, hands, rec.upcard, 0,
                     discard=NO_CARD if rec.discard is None else rec.discard,
                     keep=NO_KEEP if rec.dummy_keep is None else rec.dummy_keep, fixed_dummy=rec.dummy, **script)
    seat, phase = -1, -1
    for seat_try in range(players):
        try:
            found_sit = _first_decision(Situation(**{**full.__dict__, "seat": seat_try}), calls, plays, decision)
        except AdviceError:
            continue
        seat, phase = seat_try, probe(found_sit)[1]
        break
    if known == "all" and seat >= 0:
        return found_sit
    if seat < 0:
        raise AdviceError(f"the record has no {decision + ' ' if decision else ''}decision right after {calls} "
                          f"calls and {plays} cards")
    exchanged = bool(st[EXCHANGED])
    fixed = [0, 0, 0, 0]
    for k in range(plays):
        s = int(st[PLAY_SEAT + k])
        c = rec.plays[k]
        if not (exchanged and s == rec.dealer and c == rec.upcard):
            fixed[s] |= 1 << c
    fixed[seat] = hands[seat]
    discard = rec.discard if (seat == rec.dealer and rec.discard is not None) else NO_CARD
    maker = int(st[MAKER])
    took_dummy = rec.dummy_keep is not None and seat == maker and phase >= PH_DUMMY    # seen from its keep on
    base = Situation(rec.rules, rec.dealer, seat, tuple(fixed), rec.upcard, 0, discard=discard,
                     keep=rec.dummy_keep if took_dummy else NO_KEEP, fixed_dummy=rec.dummy if took_dummy else 0,
                     **script)
    return _first_decision(base, calls, plays, decision)

