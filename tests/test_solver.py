"""The double-dummy solver against a brute-force minimax twin (R2, R8-R10).

The twin knows none of the solver's devices (normalised boards, pruning,
equivalent cards, sure tricks, the transposition table): it plays every
legal card of every seat in turn, with follow-suit and the trick winner
taken from tests/reference.py, and takes the max for the makers and the
min for the defenders.  It memoises whole positions, which changes no
value, only how long the twin takes.  Positions come from seeded
generators: random ones of every variant, pack and lone-hand case, and
positions along hands the ``baseline`` policy played.
"""
import os
import subprocess
import sys
from functools import lru_cache

import numpy as np
import pytest

from euchresim.cards import DECKS, card_str, cards_of, pack_mask, parse_board, parse_card
from euchresim.engine import solver as S
from euchresim.engine.layout import (POS_SIZE, P_HAND, P_MAKERS, P_MTRICKS, P_NTABLE, P_OUT, P_SEAT, P_TCARD, P_TRUMP, P_TSEAT, RES_SIZE, R_CARD, R_CVAL, R_NODES, R_VALUE)
from euchresim.rules import Rules
from euchresim.engine.tables import build_tables
from tests import reference as ref
from tests.helpers import rows_of

EXACT_CARDS = S.MODE_EXACT | S.MODE_CARDS
CLASS_CARDS = S.MODE_CLASS | S.MODE_CARDS
ALL_MODES = (EXACT_CARDS, CLASS_CARDS, S.MODE_EXACT, S.MODE_CLASS)


# ------------------------------------------------------------------ the twin

def brute(players, trump, hands, seat, table, makers, out, mtricks):
    """Makers' final tricks under perfect play, and each legal card's value for ``seat``.

    ``hands``: card-index lists per seat; ``table``: [(seat, card), ...] of
    the current trick.  Returns (value, {card: value}).
    """
    T = ref.SUITS[trump]
    active = [s for s in range(players) if not (out >> s) & 1]

    def nxt(s):
        s = (s + 1) % players
        while s not in active:
            s = (s + 1) % players
        return s

    def legal(hand, tbl):
        if not tbl:
            return list(hand)
        led = ref.suit_in_play(card_str(tbl[0][1]), T)
        follow = [c for c in hand if ref.suit_in_play(card_str(c), T) == led]
        return follow or list(hand)

    def play(hs, s, tbl, mt, c):
        hs = tuple(tuple(x for x in h if x != c) if i == s else h for i, h in enumerate(hs))
        tbl = tbl + ((s, c),)
        if len(tbl) < len(active):
            return hs, nxt(s), tbl, mt
        led = ref.suit_in_play(card_str(tbl[0][1]), T)
        w = max(tbl, key=lambda sc: ref.power(card_str(sc[1]), T, led))[0]
        return hs, w, (), mt + ((makers >> w) & 1)

    @lru_cache(maxsize=None)
    def value(hs, s, tbl, mt):
        if not hs[s]:
            return mt
        vals = [value(*play(hs, s, tbl, mt, c)) for c in legal(hs[s], tbl)]
        return max(vals) if (makers >> s) & 1 else min(vals)

    hs = tuple(tuple(sorted(h)) if (s < players and not (out >> s) & 1) else () for s, h in enumerate(hands))
    per = {c: value(*play(hs, seat, tuple(table), mtricks, c)) for c in legal(hs[seat], tuple(table))}
    v = max(per.values()) if (makers >> seat) & 1 else min(per.values())
    return v, per


def twin(p):
    return brute(p["players"], p["trump"], p["hands"], p["seat"], p["table"], p["makers"], p["out"],
                 p["mtricks"])


def outcome_class(v):
    return 0 if v < 3 else (1 if v < 5 else 2)


# ------------------------------------------------------------------ positions

def random_position(rng, players, deck, nleft, kind):
    """A random position with ``nleft`` tricks to go, at a random point of the trick.

    kind: "plain"; "alone" (4 players: the maker's partner sits out);
    "both" (4 players: a lone defender too); "lone_def" (Cutthroat: the
    other defender sits out).
    """
    trump = int(rng.integers(4))
    maker = int(rng.integers(players))
    out = 0
    if players == 4:
        makers = (1 << maker) | (1 << ((maker + 2) % 4))
        if kind in ("alone", "both"):
            out |= 1 << ((maker + 2) % 4)
        if kind == "both":
            d = (maker + 1 + 2 * int(rng.integers(2))) % 4
            out |= 1 << ((d + 2) % 4)
    else:
        makers = 1 << maker
        if players == 3 and kind == "lone_def":
            d = (maker + 1 + int(rng.integers(2))) % 3
            out |= 1 << (3 - maker - d)
    active = [s for s in range(players) if not (out >> s) & 1]
    cards = [int(c) for c in rng.permutation(cards_of(pack_mask(deck)))]
    hands = [[] for _ in range(4)]
    for i, s in enumerate(active + [s for s in range(players) if s not in active]):
        hands[s] = cards[i * nleft:(i + 1) * nleft]    # a seat that sits out keeps cards it never plays
    s = active[int(rng.integers(len(active)))]
    table = []
    T = ref.SUITS[trump]
    for _ in range(int(rng.integers(len(active)))):
        h = hands[s]
        follow = []
        if table:
            led = ref.suit_in_play(card_str(table[0][1]), T)
            follow = [c for c in h if ref.suit_in_play(card_str(c), T) == led]
        choice = follow or h
        c = choice[int(rng.integers(len(choice)))]
        h.remove(c)
        table.append((s, c))
        s = active[(active.index(s) + 1) % len(active)]
    return dict(players=players, deck=deck, trump=trump, hands=hands, seat=s, table=table,
                makers=makers, out=out, mtricks=int(rng.integers(5 - nleft + 1)))


def played_positions(players, deck, n, seed, rng=None):
    """Positions along hands ``baseline`` played: each deal at the opening lead, then (with
    ``rng``) a random number of its plays on."""
    options = {"defend_alone": True} if players == 4 else {}       # lone defenders too (R8)
    _, res = rows_of(players, deck, "baseline", seed=seed, n=n, **options)
    out = []
    for r, plays in zip(res.hands, res.plays):
        if r["maker"] < 0:
            continue
        hands = [int(r[f"hand{s}"]) for s in range(4)]
        if r["discard"] >= 0:
            d = int(r["dealer"])
            hands[d] = (hands[d] | 1 << int(r["upcard"])) & ~(1 << int(r["discard"]))
        maker = int(r["maker"])
        if r["dummy_keep"]:
            hands[maker] = int(r["dummy_keep"])
        makers = (1 << maker) | ((1 << ((maker + 2) % 4)) if players == 4 else 0)
        p = dict(players=players, deck=deck, trump=int(r["trump"]), hands=[cards_of(h) for h in hands],
                 seat=int(r["leader"]), table=[], makers=makers, out=int(r["out"]), mtricks=0)
        nact = players - bin(int(r["out"])).count("1")
        k = int(rng.integers(5 * nact)) if rng is not None else 0
        for c in plays[:k]:            # replay k cards: trick winners from the twin's own rules
            p = after(p, int(c), nact)
        out.append(p)
    return out


def after(p, c, nact):
    """The position after the seat to play plays ``c`` (R10)."""
    T = ref.SUITS[p["trump"]]
    hands = [list(h) for h in p["hands"]]
    hands[p["seat"]].remove(c)
    table = p["table"] + [(p["seat"], c)]
    q = dict(p, hands=hands, table=table)
    if len(table) == nact:
        led = ref.suit_in_play(card_str(table[0][1]), T)
        w = max(table, key=lambda sc: ref.power(card_str(sc[1]), T, led))[0]
        q.update(seat=w, table=[], mtricks=p["mtricks"] + ((p["makers"] >> w) & 1))
    else:
        s = (p["seat"] + 1) % p["players"]
        while (p["out"] >> s) & 1:
            s = (s + 1) % p["players"]
        q["seat"] = s
    return q


def pos_row(p):
    row = np.zeros(POS_SIZE, np.int64)
    row[P_TRUMP] = p["trump"]
    for s in range(4):
        row[P_HAND + s] = sum(1 << c for c in p["hands"][s])
    row[P_SEAT] = p["seat"]
    row[P_NTABLE] = len(p["table"])
    for k, (s, c) in enumerate(p["table"]):
        row[P_TCARD + k] = c
        row[P_TSEAT + k] = s
    row[P_MAKERS] = p["makers"]
    row[P_OUT] = p["out"]
    row[P_MTRICKS] = p["mtricks"]
    return row


_TABS = {}


def tab_for(players, deck):
    if (players, deck) not in _TABS:
        _TABS[(players, deck)] = build_tables(Rules(players=players, deck=deck))
    return _TABS[(players, deck)]


def solve(p, mode, ws=None):
    res = np.zeros(RES_SIZE, np.int64)
    ws = S.new_workspace() if ws is None else ws
    S.solve_position(ws, tab_for(p["players"], p["deck"]), pos_row(p), res, np.int64(mode))
    return res


def check(p, ws, modes=ALL_MODES):
    """Solver and twin agree on the value and on every card's value, in every mode."""
    want, per = twin(p)
    for mode in modes:
        cls = mode & S.MODE_CLASS
        res = solve(p, mode, ws)
        assert res[R_VALUE] == (outcome_class(want) if cls else want), (p, mode, res)
        assert list(res[R_CARD:R_CARD + 5]) == (sorted(p["hands"][p["seat"]]) + [-1] * 5)[:5]
        for k in range(5):
            c = int(res[R_CARD + k])
            v = int(res[R_CVAL + k])
            if not mode & S.MODE_CARDS or c not in per:
                assert v == -1, (p, mode, c, v)
            else:
                assert v == (outcome_class(per[c]) if cls else per[c]), (p, mode, card_str(c), v, per[c])
    return want


KINDS = {2: ("plain",), 3: ("plain", "lone_def"), 4: ("plain", "alone", "both")}
VARIANTS = [(pl, d) for pl in (2, 3, 4) for d in DECKS]


# ------------------------------------------------------------------ the twin itself

def test_twin_r2_left_bower_follows_trump_not_its_suit():
    """Spades trump: JC is a spade, so a hand of JC and TC must follow a club lead with TC."""
    c = parse_card
    p = dict(players=2, deck=24, trump=3, hands=[[c("9D")], [c("JC"), c("TC")], [], []], seat=1,
             table=[(0, c("AC"))], makers=1, out=0, mtricks=2)
    want, per = twin(p)
    assert per == {c("TC"): 3} and want == 3       # AC wins, then JC ruffs the 9D
    assert check(p, S.new_workspace()) == 3


def test_twin_r7_led_joker_calls_for_trump():
    """A led joker asks for trump (C4): the 9D must follow it, the AH may not be played."""
    c = parse_card
    p = dict(players=2, deck=25, trump=1, hands=[[c("AS")], [c("9D"), c("AH")], [], []], seat=1,
             table=[(0, c("JK"))], makers=1, out=0, mtricks=0)
    want, per = twin(p)
    assert per == {c("9D"): 2} and want == 2       # the joker, then the AS over the AH
    assert check(p, S.new_workspace()) == 2


def test_top_five_trumps_march_and_none_are_euchred():
    """The right, left, A, K, Q of trump in one hand take every trick, whoever leads (R2)."""
    hands = [cards_of(parse_board(["JH", "JD", "AH", "KH", "QH"])),
             cards_of(parse_board(["AS", "KS", "QS", "JS", "TS"])),
             cards_of(parse_board(["AC", "KC", "QC", "JC", "TC"])),
             cards_of(parse_board(["AD", "KD", "QD", "TD", "9D"]))]
    ws = S.new_workspace()
    for makers, want in ((5, 5), (10, 0)):
        for leader in range(4):
            p = dict(players=4, deck=24, trump=2, hands=hands, seat=leader, table=[], makers=makers,
                     out=0, mtricks=0)
            for mode in ALL_MODES:
                res = solve(p, mode, ws)
                w = outcome_class(want) if mode & S.MODE_CLASS else want
                assert res[R_VALUE] == w
                assert list(res[R_CVAL:R_CVAL + 5]) == [w if mode & S.MODE_CARDS else -1] * 5


# ------------------------------------------------------------------ against the twin

@pytest.mark.parametrize("players,deck", VARIANTS)
def test_short_positions_match_brute_force(players, deck):
    """Every variant and pack, 1-3 tricks to go, any point of a trick, every lone-hand case."""
    rng = np.random.default_rng(1000 * players + deck)
    ws = S.new_workspace()
    for i in range(600):
        kind = KINDS[players][i % len(KINDS[players])]
        check(random_position(rng, players, deck, int(rng.integers(1, 4)), kind), ws)


@pytest.mark.slow
@pytest.mark.parametrize("players,deck", VARIANTS)
def test_long_positions_match_brute_force(players, deck):
    """Four and five tricks to go (whole deals from the first lead or mid-trick)."""
    rng = np.random.default_rng(7000 + 100 * players + deck)
    ws = S.new_workspace()
    n4, n5 = {2: (60, 40), 3: (20, 10), 4: (10, 5)}[players]
    for nleft, n in ((4, n4), (5, n5)):
        for i in range(n * len(KINDS[players])):
            kind = KINDS[players][i % len(KINDS[players])]
            check(random_position(rng, players, deck, nleft, kind), ws, modes=(EXACT_CARDS, S.MODE_CLASS))


@pytest.mark.slow
@pytest.mark.parametrize("players,deck", [(4, 24), (4, 33), (3, 25), (2, 32)])
def test_positions_along_played_hands_match_brute_force(players, deck):
    """Deals ``baseline`` made trump on, from the opening lead and after some of the plays."""
    rng = np.random.default_rng(deck)
    ws = S.new_workspace()
    long_ones = 0
    for p in played_positions(players, deck, 120, seed=players + deck, rng=rng):
        nleft = len(p["hands"][p["seat"]])
        if nleft <= 3 or long_ones < 10:
            long_ones += nleft > 3
            check(p, ws, modes=(EXACT_CARDS, S.MODE_CLASS))


# ------------------------------------------------------------------ the solver's own promises

def test_batch_equals_one_at_a_time_and_order_does_not_matter():
    """One workspace over a batch of every variant gives what a fresh workspace per position gives."""
    rng = np.random.default_rng(11)
    ws = S.new_workspace()
    for players, deck in ((4, 24), (3, 33), (2, 25)):
        kinds = KINDS[players]
        ps = [random_position(rng, players, deck, int(rng.integers(2, 6)), kinds[i % len(kinds)])
              for i in range(150)]
        pos = np.array([pos_row(p) for p in ps])
        tab = tab_for(players, deck)
        for mode in ALL_MODES:
            want = np.array([solve(p, mode) for p in ps])
            for order in (np.arange(len(ps)), np.arange(len(ps))[::-1]):
                res = np.zeros((len(ps), RES_SIZE), np.int64)
                S.solve_batch(ws, tab, pos[order], res, np.int64(mode))
                skip = [c for c in range(RES_SIZE) if c != R_NODES]
                assert (res[:, skip] == want[order][:, skip]).all()


def test_card_values_are_the_values_after_the_card_along_the_hand():
    """Each card's value is what solving after it gives, and the value is the best card's (R10).

    Deals ``baseline`` made, played out on the solver's own verdicts: each
    card drawn from the best ones and a random half of the others.
    """
    rng = np.random.default_rng(5)
    ws = S.new_workspace()
    for players, deck in ((4, 24), (4, 32), (3, 24), (2, 33)):
        for p in played_positions(players, deck, 60, seed=9)[:40]:
            nact = players - bin(p["out"]).count("1")
            expected = None
            for _ in range(5 * nact):
                res = solve(p, EXACT_CARDS, ws)
                vals = {int(c): int(v) for c, v in zip(res[R_CARD:R_CARD + 5], res[R_CVAL:R_CVAL + 5])
                        if c >= 0 and v >= 0}
                best = (max if (p["makers"] >> p["seat"]) & 1 else min)(vals.values())
                assert res[R_VALUE] == best and expected in (None, best)
                assert solve(p, S.MODE_EXACT, ws)[R_VALUE] == best
                assert solve(p, S.MODE_CLASS, ws)[R_VALUE] == outcome_class(best)
                choice = sorted(c for c, v in vals.items() if v == best or rng.random() < 0.5)
                c = choice[int(rng.integers(len(choice)))]
                expected = vals[c]
                p = after(p, c, nact)
            assert p["mtricks"] == expected


def test_table_key_is_exact_up_to_relative_ranks():
    """Two trick starts share a table key exactly when they differ only in which cards are gone.

    The canonical form written out: the seat to lead and, per effective
    suit, who holds each live card from the top.  Drawing the cards from
    one to four suits makes positions of different sizes look alike, which
    a key that lost where one suit ends and the next begins would confuse.
    """
    rng = np.random.default_rng(8)
    ws = S.new_workspace()
    key_to_form, form_to_key = {}, {}
    for _ in range(6000):
        players, deck = VARIANTS[int(rng.integers(len(VARIANTS)))]
        tab = tab_for(players, deck)
        trump = int(rng.integers(4))
        suits = rng.permutation(4)[:int(rng.integers(1, 5))]
        pool = [c for c in cards_of(pack_mask(deck)) if c == 32 or c // 8 in suits]
        nleft = int(rng.integers(1, min(5, len(pool) // players) + 1))
        cards = [int(c) for c in rng.permutation(pool)[:nleft * players]]
        hands = [cards[s * nleft:(s + 1) * nleft] if s < players else [] for s in range(4)]
        bits = {S.norm_bit(tab, trump, c): s for s in range(4) for c in hands[s]}
        for s in range(4):
            ws[s] = sum(1 << b for b, o in bits.items() if o == s)
        seat = int(rng.integers(players))
        form = (seat,) + tuple(tuple(bits[b] for b in sorted(bits, reverse=True) if b // 16 == f) for f in range(4))
        key = int(S._tt_key(ws, np.int64(seat)))
        assert key_to_form.setdefault(key, form) == form
        assert form_to_key.setdefault(form, key) == key
    assert len(key_to_form) > 3000


COLD_WARM_SCRIPT = """
import numpy as np
from euchresim.rules import FOUR_HAND
from euchresim.engine.tables import build_tables
from euchresim.engine import solver as S
from euchresim.engine.layout import POS_SIZE, P_HAND, P_MAKERS, P_SEAT, P_TRUMP, RES_SIZE, R_CVAL, R_VALUE

rng = np.random.default_rng(0)
pack = [c for c in range(32) if c % 8 >= 2]
pos = np.zeros((40, POS_SIZE), np.int64)
for i in range(40):
    deal = rng.permutation(pack)
    pos[i, P_HAND:P_HAND + 4] = [sum(1 << int(c) for c in deal[5 * s:5 * s + 5]) for s in range(4)]
    pos[i, P_TRUMP] = pos[i, P_SEAT] = i % 4
    pos[i, P_MAKERS] = 5
res = np.zeros((40, RES_SIZE), np.int64)
S.solve_batch(S.new_workspace(), build_tables(FOUR_HAND), pos, res, np.int64(S.MODE_EXACT | S.MODE_CARDS))
print(res[:, [R_VALUE] + list(range(R_CVAL, R_CVAL + 5))].tolist())
"""


@pytest.mark.slow
def test_cold_then_cached_start_give_the_same_numbers(tmp_path):
    """A recursive kernel loaded from numba's cache must run as the freshly compiled one did."""
    script = tmp_path / "solve.py"
    script.write_text(COLD_WARM_SCRIPT)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"))
    outs = [subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True,
                           check=True).stdout for _ in range(2)]
    assert outs[0] == outs[1] and outs[0].startswith("[[")
    assert any(p.suffix == ".nbc" for p in (tmp_path / "cache").rglob("*"))


def test_pext_twin():
    from euchresim.engine.pext import pext_soft
    """The software ``pext`` (CPUs without BMI2) and the one in use agree with the definition."""
    rng = np.random.default_rng(3)
    for _ in range(2000):
        x, m = (int(v) for v in rng.integers(0, 2 ** 62, 2))
        m &= int(rng.integers(0, 2 ** 62))
        want = sum(1 << j for j, i in enumerate(i for i in range(64) if m >> i & 1) if x >> i & 1)
        assert pext_soft(np.int64(x), np.int64(m)) == want
        assert _pext_in_use(np.int64(x), np.int64(m)) == want


from numba import njit  # noqa: E402


@njit
def _pext_in_use(x, m):
    return S.pext(x, m)
