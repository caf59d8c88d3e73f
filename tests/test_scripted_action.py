"""One reading of a record's script: ``engine.hand.scripted_action`` and every walk of a record that uses it.

Four walks turn a hand record's history into engine actions: the replay
that checks records (``loops.replay_kernels.replay_hand``), the advisor's
sampler (``loops.advisor_kernels.sample_deal``), pimc's inference
(``policies.inference.play_weight``) and the Python face
(``engine.state.Hand.steps``). Each once had its own copy of the branches
(issue 37); a copy that drifted would check one hand, sample another and
tell a third. So: the one function against a slow twin written from
docs/hand-record.md (C9's call codes), no caller holding a copy of the
branches, and three of the walks stepping through random records together
to the same states and the same faults.
"""
import dataclasses
import inspect
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from euchresim.engine import state as state_mod
from euchresim.engine.hand import scripted_action
from euchresim.engine.layout import (BID2_PASS, ERR_NOT_HELD, ERR_SCRIPT_KIND, ERR_SCRIPT_SHORT, PH_ALONE, PH_BID1,
                                     PH_BID2, PH_DEFEND, PH_DISCARD, PH_DUMMY, PH_JOKER, PH_PLAY, PRIV_SIZE, ST_SIZE,
                                     NO_CARD, NO_KEEP)
from euchresim.engine.state import Hand
from euchresim.engine.tables import build_tables
from euchresim.loops import advisor_kernels, replay_kernels
from euchresim.policies import inference
from euchresim.policies.dispatch import WS_COLS, WS_ROWS
from euchresim.records.format import RecordError
from tests.helpers import JOKER_INDEX, VARIANTS, bits, random_action, rows_of

I64 = np.int64


def slow_scripted(ph, seat, held, joker_suit, calls, alone, discard, keep, plays, ci, pi):
    """The script's action as docs/hand-record.md reads a record: C9's calls (0 pass, 1 order in round one,
    2 + suit in round two), the alone seats, the one discard, keep and joker suit, the plays in order."""
    if ph == PH_JOKER:
        return (joker_suit if joker_suit >= 0 else -ERR_SCRIPT_SHORT), -1, ci, pi
    if ph in (PH_BID1, PH_BID2):
        if ci == len(calls):
            return -ERR_SCRIPT_SHORT, ci, ci, pi
        words = {PH_BID1: {0: 0, 1: 1}, PH_BID2: {0: BID2_PASS, 2: 0, 3: 1, 4: 2, 5: 3}}[ph]
        return words.get(calls[ci], -ERR_SCRIPT_KIND), ci, ci + 1, pi
    if ph in (PH_ALONE, PH_DEFEND):
        return int(seat in bits(alone)), seat, ci, pi
    if ph == PH_DISCARD:
        return (discard if discard != NO_CARD else -ERR_SCRIPT_SHORT), -1, ci, pi
    if ph == PH_DUMMY:
        return (keep if keep != NO_KEEP else -ERR_SCRIPT_SHORT), -1, ci, pi
    if pi == len(plays):
        return -ERR_SCRIPT_SHORT, pi, ci, pi
    card = plays[pi]
    return (card if held == -1 or card in bits(held) else -ERR_NOT_HELD), pi, ci, pi + 1


@hs.composite
def scripts(draw):
    calls = draw(hs.lists(hs.integers(0, 5), max_size=8))
    plays = draw(hs.lists(hs.integers(0, 32), max_size=20))
    return (draw(hs.sampled_from([PH_JOKER, PH_BID1, PH_BID2, PH_ALONE, PH_DEFEND, PH_DISCARD, PH_DUMMY, PH_PLAY])),
            draw(hs.integers(0, 3)), draw(hs.one_of(hs.just(-1), hs.integers(0, (1 << 33) - 1))),
            draw(hs.integers(-1, 3)), calls, draw(hs.integers(0, 15)), draw(hs.integers(NO_CARD, 32)),
            draw(hs.sampled_from([NO_KEEP, 0b11111, 0b1011110000])), plays,
            draw(hs.integers(0, len(calls))), draw(hs.integers(0, len(plays))))


@settings(max_examples=400, deadline=None)
@given(scripts())
def test_the_one_reading_is_its_slow_twin(script):
    ph, seat, held, joker, calls, alone, discard, keep, plays, ci, pi = script
    got = scripted_action(I64(ph), I64(seat), I64(held), I64(joker), np.array(calls, I64), I64(alone),
                          I64(discard), I64(keep), np.array(plays, I64), I64(ci), I64(pi))
    assert tuple(int(x) for x in got) == slow_scripted(*script)


# the marks of a copy of the branches: the call translation, the alone bit, the next play read by hand
COPY_MARKS = (r"\bcall_action\b", r"alone\]? *>>", r"\bseat in rec\.alone\b", r"\bplays\[(pi|n|plays)\]",
              r"PLAYS \+ n\b")
WALKS = [replay_kernels.replay_hand, advisor_kernels.sample_deal, inference.play_weight, Hand._scripted]


@pytest.mark.parametrize("walk", WALKS, ids=lambda f: f.__name__)
def test_every_walk_of_a_record_reads_it_through_the_one_function(walk):
    fn = getattr(walk, "py_func", walk)
    src = inspect.getsource(fn)
    assert "scripted_action" in fn.__code__.co_names
    assert [m for m in COPY_MARKS if re.search(m, src)] == []
    for module in (replay_kernels, advisor_kernels, inference, state_mod):     # nor in a helper beside it
        assert not re.search(r"\bcall_action\b", inspect.getsource(module)), module.__name__


# ------------------------------------------------------------ the walks together, step by step

def _records(players, deck, n=6):
    """``n`` hands played at random to the end, as records (a joker swapped into every other upcard of a joker
    pack, so the dealer names its suit, R7)."""
    rules, res = rows_of(players, deck, "random", seed=deck + players, n=n)
    tab = build_tables(rules)
    rng = np.random.default_rng(players * 100 + deck)
    out = []
    for i, row in enumerate(res.hands[:n]):
        hands = [int(row[f"hand{s}"]) for s in range(4)]
        dummy, kitty, up = int(row["dummy"]), int(row["kitty"]), int(row["upcard"])
        if deck in (25, 33) and i % 2 == 0 and up != JOKER_INDEX:
            joker = 1 << JOKER_INDEX
            swap = lambda b: b & ~joker | (1 << up) if b & joker else b    # noqa: E731
            hands, dummy, kitty, up = [swap(h) for h in hands], swap(dummy), swap(kitty), JOKER_INDEX
        h = Hand.dealt(tab, int(row["dealer"]), hands, dummy, up, kitty)
        h.play_out(lambda x: random_action(rng, x.st, x.legal()))
        out.append(h.record(rules))
    return tab, out


def _replay(tab, rec, calls=None, plays=None):
    calls = rec.calls if calls is None else calls
    plays = rec.plays if plays is None else plays
    hands = np.array(tuple(rec.hands) + (0,) * (4 - len(rec.hands)), I64)
    st, priv = np.zeros(ST_SIZE, I64), np.zeros(PRIV_SIZE, I64)
    found = replay_kernels.replay_hand(
        tab, I64(rec.dealer), hands, I64(rec.dummy), I64(rec.upcard), I64(rec.kitty),
        I64(-1 if rec.joker_suit is None else rec.joker_suit), np.array(calls, I64),
        I64(sum(1 << s for s in rec.alone)), I64(NO_CARD if rec.discard is None else rec.discard),
        I64(NO_KEEP if rec.dummy_keep is None else rec.dummy_keep), np.array(plays, I64), st, priv)
    return tuple(int(x) for x in found), st, priv


def _sample(tab, rec, steps, seat=0, calls=None, plays=None):
    """sample_deal with every hand known (one deal: the record's) and no inference, as ``probe`` calls it."""
    from euchresim.policies.presets import random_seats
    from euchresim.run.runner import chunk_states
    from euchresim.studies.advisor.situation import policy_arrays
    players = len(rec.hands)
    pids, params, fns, _ = policy_arrays(random_seats(players), players)
    drng, prng = chunk_states(0, 0)
    st, priv = np.zeros(ST_SIZE, I64), np.zeros(PRIV_SIZE, I64)
    at = np.zeros(2, I64)
    status = advisor_kernels.sample_deal(
        tab, I64(rec.dealer), I64(seat), np.array(tuple(rec.hands) + (0,) * (4 - players), I64), I64(rec.dummy),
        I64(rec.upcard), np.zeros(4, I64), I64(-1 if rec.joker_suit is None else rec.joker_suit),
        np.array(rec.calls if calls is None else calls, I64), I64(sum(1 << s for s in rec.alone)),
        I64(NO_CARD if rec.discard is None else rec.discard), I64(NO_KEEP if rec.dummy_keep is None else rec.dummy_keep),
        np.array(rec.plays if plays is None else plays, I64), I64(steps), I64(-1), I64(0), 0.0, pids, params, fns,
        drng, prng, st, priv, np.zeros((WS_ROWS, WS_COLS), I64), np.zeros(4, I64), at)
    return int(status), st, priv, (int(at[0]), int(at[1]))


@pytest.mark.parametrize("players,deck", VARIANTS)
def test_the_replay_the_sampler_and_the_python_face_walk_a_record_alike(players, deck):
    tab, recs = _records(players, deck)
    seen = set()
    for rec in recs:
        h = Hand.of_record(rec, tab)
        n = 0
        for step in h.steps(rec):
            seen.add(step.phase)
            status, st, priv, at = _sample(tab, rec, step.step)
            assert status == advisor_kernels.KEPT and at == (step.calls, step.plays)
            assert (st == h.st).all() and (priv == h.priv).all(), step
            n += 1
        assert h.done
        found, st, priv = _replay(tab, rec)
        assert found == (0, h.phase, -1) and (st == h.st).all() and (priv == h.priv).all()
        assert _sample(tab, rec, n)[0] == advisor_kernels.SCRIPT_ERROR          # past the last decision
    # every kind of entry a record of this variant has was read, not only calls and plays
    want = {PH_BID1, PH_DISCARD, PH_PLAY} | ({PH_ALONE} if players > 2 else set())
    want |= ({PH_DUMMY} if players == 3 else set()) | ({PH_JOKER} if deck in (25, 33) else set())
    assert want <= seen


@pytest.mark.parametrize("players,deck", [(4, 24), (3, 25), (2, 33)])
def test_the_walks_find_the_same_faults(players, deck):
    tab, recs = _records(players, deck)
    SCRIPT_ERROR, REJECTED = advisor_kernels.SCRIPT_ERROR, advisor_kernels.REJECTED
    for rec in recs:
        steps = list(Hand.of_record(rec, tab).steps(rec))
        n = len(steps)
        # a suit named in round one (C9): read, and counted as read
        k = next(s.calls for s in steps if s.phase == PH_BID1)
        wrong = rec.calls[:k] + (2,) + rec.calls[k + 1:]
        assert _replay(tab, rec, calls=wrong)[0] == (ERR_SCRIPT_KIND, PH_BID1, k)
        assert _sample(tab, rec, n, calls=wrong)[0::3] == (SCRIPT_ERROR, (k + 1, 0))
        with pytest.raises(RecordError, match=rf"calls\[{k}\]: call 2 is not one of round {PH_BID1}"):
            Hand.of_record(rec, tab).replay(dataclasses.replace(rec, calls=wrong))
        if not rec.plays:           # thrown in
            continue
        # the record one play short: the replay names the play missing, the sampler cannot reach the end
        short = rec.plays[:-1]
        assert _replay(tab, rec, plays=short)[0] == (ERR_SCRIPT_SHORT, PH_PLAY, len(short))
        assert _sample(tab, rec, n, plays=short)[0::3] == (SCRIPT_ERROR, (len(rec.calls), len(short)))
        with pytest.raises(RecordError, match="plays: the record ends after"):
            Hand.of_record(rec, tab).replay(dataclasses.replace(rec, plays=short))
        # the first card led is one the leader does not hold: the replay says so, the sampler rejects the
        # deal for another seat's card and calls its own an error, the Python face leaves it to the engine
        first = next(s for s in steps if s.phase == PH_PLAY)
        held = Hand.of_record(rec, tab)
        for s in steps[:first.step]:
            held.apply(s.code)
        other = bits(sum(held.hand_of(x) for x in range(4) if x != first.seat))[0]
        plays = (other,) + rec.plays[1:]
        assert _replay(tab, rec, plays=plays)[0] == (ERR_NOT_HELD, PH_PLAY, 0)
        assert _sample(tab, rec, n, seat=(first.seat + 1) % players, plays=plays)[0::3] == (REJECTED,
                                                                                            (len(rec.calls), 1))
        assert _sample(tab, rec, n, seat=first.seat, plays=plays)[0] == SCRIPT_ERROR
        with pytest.raises(RecordError, match="the engine refused"):
            Hand.of_record(rec, tab).replay(dataclasses.replace(rec, plays=plays))
