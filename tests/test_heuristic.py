"""The heuristic policy: its point count, each decision on hand-built states,
legality on every variant, parameters without recompiling, and its edge on baseline."""
import numpy as np
import pytest

from euchresim.run import runner
from euchresim.cards import parse_card
from euchresim.loops.hands import run_hands
from euchresim.engine.layout import (BEST_POWER, BEST_SEAT, BIDSUIT, DEALER, EXCHANGED, HAND_DTYPE, LED, MAKER, NACTIVE, NINTRICK, NPLAYS, PH_BID1, PH_DISCARD, PH_DUMMY, PH_PLAY, PHASE, PLAY_SEAT, PLAYS, ROUND, ST_SIZE, T_POWER, T_SUIT_OF, TALLY_SIZE, TO_ACT, TRUMP, UPCARD, JOKER_SUIT)
from euchresim.policies import PolicyError, functions, parse, resolve
from euchresim.policies.params import NPARAMS
from euchresim.policies.heuristic import heuristic_decide
from euchresim.policies.heuristic_params import HEURISTIC_DEFAULTS, HEURISTIC_PARAMS
from euchresim.policies.heuristic_play import points
from euchresim.rules import Rules
from euchresim.engine.tables import build_tables

from tests.helpers import run_spec, VARIANTS, replay_by_reference

H = 2
TAB = build_tables(Rules(players=4, deck=24))
P = HEURISTIC_DEFAULTS.copy()


def board(text):
    b = 0
    for c in text.split():
        b |= 1 << parse_card(c)
    return np.int64(b)


def card(text):
    return parse_card(text)


def state(trump=H, dealer=3, maker=0, upcard="9D", phase=PH_PLAY, exchanged=0):
    st = np.zeros(ST_SIZE, np.int64)
    st[DEALER] = dealer
    st[UPCARD] = card(upcard)
    st[JOKER_SUIT] = -1
    st[BIDSUIT] = card(upcard) >> 3
    st[PHASE] = phase
    st[TRUMP] = trump
    st[MAKER] = maker
    st[ROUND] = 1 if trump == card(upcard) >> 3 else 2
    st[EXCHANGED] = exchanged
    st[NACTIVE] = 4
    return st


def play(st, seat, text, tab=TAB):
    """Append one card to the current trick, as the engine would."""
    c = card(text)
    t = st[TRUMP]
    i = st[NPLAYS]
    st[PLAYS + i] = c
    st[PLAY_SEAT + i] = seat
    st[NPLAYS] = i + 1
    if st[NINTRICK] == 0:
        st[LED] = tab[T_SUIT_OF + 33 * t + c]
        st[BEST_SEAT] = seat
        st[BEST_POWER] = tab[T_POWER + 132 * t + 33 * st[LED] + c]
    else:
        p = tab[T_POWER + 132 * t + 33 * st[LED] + c]
        if p > st[BEST_POWER]:
            st[BEST_SEAT] = seat
            st[BEST_POWER] = p
    st[NINTRICK] += 1
    st[TO_ACT] = (seat + 1) % 4


def decide(st, seat, hand, legal=None, params=P):
    hand = board(hand) if isinstance(hand, str) else hand
    if legal is None:
        legal = hand
        if st[PHASE] == PH_PLAY and st[NINTRICK]:
            t = st[TRUMP]
            follow = [c for c in range(33) if (int(hand) >> c) & 1 and TAB[T_SUIT_OF + 33 * t + c] == st[LED]]
            if follow:
                legal = np.int64(sum(1 << c for c in follow))
    return int(heuristic_decide(st, hand, np.int64(0), seat, np.int64(legal), params, TAB))


# ---- the contract ------------------------------------------------------------

def row(spec="heuristic"):
    """A seat's parameters as the command line reads them: by name, never by where they sit in the row."""
    return parse(spec).row


def test_each_parameter_is_set_by_its_name_alone_and_refused_out_of_range():
    """The defaults are the row ``heuristic`` names; each name moves one value of it, its own, and no other
    name's; a value outside the declared range is one line naming it; the order of the settings is no matter."""
    base = row()
    assert np.array_equal(base, P)                            # the kernels' default row is the one the name gives
    assert not base[len(HEURISTIC_PARAMS):].any() and len(HEURISTIC_PARAMS) <= NPARAMS
    moved = {}
    for p in HEURISTIC_PARAMS:
        assert p.lo <= p.default <= p.hi and p.lo < p.hi and p.doc
        assert np.array_equal(row(f"heuristic:{p.name}={p.default!r}"), base)       # the default written out
        other = p.hi if p.default != p.hi else p.lo
        changed = np.flatnonzero(row(f"heuristic:{p.name}={other!r}") != base)
        assert len(changed) == 1, (p.name, changed)
        moved[p.name] = int(changed[0])
        with pytest.raises(PolicyError) as e:
            parse(f"heuristic:{p.name}={p.hi + 1!r}")
        assert f"{p.name}={p.hi + 1:g} is out of range" in str(e.value) and "\n" not in str(e.value)
    assert len(set(moved.values())) == len(moved)             # no two names move the same value
    _, params, canon = resolve(["heuristic:order_2=4.5:alone=7"], 4)
    assert np.array_equal(params[0], row("heuristic:alone=7:order_2=4.5")) and not np.array_equal(params[0], base)
    assert canon[0] == "heuristic:order_2=4.5:alone=7"


# ---- the point count -----------------------------------------------------------

@pytest.mark.parametrize("hand,trump,value", [
    ("JH JD AH KS 9C", H, 3.0 + 2.5 + 2.0 + 0.5),             # right, left, ace; void in diamonds
    ("AH KH QH TH 9H", H, 2.0 + 2.0 + 3 * 1.9 + 3 * 0.5),     # five trumps, three voids
    ("JH 9H TH AC 9S", H, 3.0 + 1.9 + 1.9 + 0.7 + 0.5),       # void in diamonds; the ace of clubs
    ("JD AC AS KS 9C", H, 2.5 + 0.7 + 0.7),                   # one trump: no void counted
    ("JD AC AS KS 9C", 1, 3.0 + 0.7 + 0.7),                   # diamonds trump: the right bower
])
def test_point_count_by_hand(hand, trump, value):
    assert points(board(hand), trump, P, TAB) == pytest.approx(value)


def test_the_joker_counts_as_trump_in_packs_with_it():
    tab = build_tables(Rules(players=4, deck=25))
    assert points(board("JK JH 9C 9D 9S"), H, P, tab) == pytest.approx(3.5 + 3.0)
    assert points(board("JK JH AH 9C 9S"), H, P, tab) == pytest.approx(3.5 + 3.0 + 2.0 + 0.5)


# ---- bidding, alone, discard, keep ----------------------------------------------

def test_round_one_order_threshold_by_position_and_params():
    st = state(trump=-1, maker=-1, upcard="9H", phase=PH_BID1)
    hand = "JH AH 9C TC 9S"        # 3.0 + 2.0 + void in diamonds 0.5 = 5.5, less 0.95 (the upcard to the dealer)
    assert decide(st, 0, hand, legal=0b11) == 0                 # position 1 needs 7
    assert decide(st, 0, hand, legal=0b11, params=row("heuristic:order_1=4")) == 1
    assert decide(st, 1, hand, legal=0b11) == 1                 # the dealer's partner: 5.5 + 0.95 = 6.45 >= 6
    assert decide(st, 2, hand, legal=0b11) == 0                 # position 3: 4.55 < 6
    # each position reads its own threshold: order_2 moves the dealer's partner and not position 1
    assert decide(st, 1, hand, legal=0b11, params=row("heuristic:order_2=7")) == 0
    assert decide(st, 0, hand, legal=0b11, params=row("heuristic:order_2=4")) == 0
    assert decide(st, 2, hand, legal=0b11, params=row("heuristic:order_3=4.5")) == 1


def test_dealer_discard_makes_a_void_and_keeps_the_ace():
    st = state(trump=H, upcard="QH", phase=PH_DISCARD)
    cards = board("JH AH AC TS 9S QH")           # the dealer's hand and the upcard
    c = decide(st, 3, cards, legal=cards)
    assert c == card("9S")                       # not the ace (a club void is worth less); the lower spade
    cards = board("JH AH AC 9S KD QH")           # either singleton makes a void: the lower card goes
    assert decide(st, 3, cards, legal=cards) == card("9S")
    cards = board("JH KH AC 9C 9S QH")             # two clubs and a singleton spade: the spade goes (a void)
    assert decide(st, 3, cards, legal=cards) == card("9S")


def test_dummy_keep_keeps_the_trumps():
    st = state(trump=H, upcard="9D", phase=PH_DUMMY)
    st[NACTIVE] = 3
    tab3 = build_tables(Rules(players=3, deck=24))
    cards = board("JH JD AH 9C TC 9H KS QS AS AD")
    keep = int(heuristic_decide(st, cards, np.int64(0), 0, cards, P, tab3))
    assert bin(keep).count("1") == 5 and keep & ~int(cards) == 0
    assert keep & int(board("JH JD AH 9H")) == int(board("JH JD AH 9H"))


def test_alone_needs_the_count_and_a_top_trump():
    st = state(trump=H, upcard="9D", phase=3)
    assert decide(st, 0, "JH JD AH KH AC", legal=0b11) == 1     # 3+2.5+2+2+0.7+2*0.5 = 11.2
    assert decide(st, 0, "AH KH QH TH 9H", legal=0b11) == 0     # 11.2 too, but no bower


# ---- card play --------------------------------------------------------------------

def test_maker_leads_the_top_trump():
    st = state(trump=H, maker=0)
    assert decide(st, 0, "JH 9H AC 9S TD") == card("JH")


def test_partner_of_the_maker_leads_trump():
    st = state(trump=H, maker=2)
    assert decide(st, 0, "9H AC 9S TD QD") == card("9H")


def test_second_hand_plays_low():
    st = state(trump=H, maker=0)
    play(st, 0, "9C")
    assert decide(st, 1, "KC TC 9D 9S TS") == card("TC")       # the king would win, but not surely


def test_second_hand_takes_a_sure_trick():
    st = state(trump=H, maker=0)
    play(st, 0, "KC")
    assert decide(st, 1, "AC TC 9D 9S TS") == card("AC")


def test_third_hand_plays_high():
    st = state(trump=H, maker=1)
    play(st, 0, "9C")
    play(st, 1, "TC")
    assert decide(st, 2, "KC QC 9D 9S TS") == card("KC")


def test_does_not_trump_the_partners_winner():
    st = state(trump=H, maker=1)
    play(st, 0, "AC")
    play(st, 1, "9C")
    assert decide(st, 2, "9H QD 9D 9S TS") in (card("9D"), card("9S"), card("TS"), card("QD"))
    st2 = state(trump=H, maker=1)
    play(st2, 0, "9C")
    play(st2, 1, "AC")
    assert decide(st2, 2, "9H QD 9D 9S TS") == card("9H")      # an opponent's winner is trumped


# ---- legality on every variant, and parameters without a compile --------------------

def _spec(players, deck, policies, **opts):
    if players == 4:
        opts.setdefault("defend_alone", True)
    rules = Rules(players=players, deck=deck, **opts)
    return run_spec(rules=rules, policies=policies, seed=11, count=2000, chunk_size=2000)


@pytest.mark.slow
@pytest.mark.parametrize("players,deck", VARIANTS)
def test_every_variant_plays_legally(players, deck):
    for stick in (False, True):
        for pol in (("heuristic",), ("heuristic", "random", "baseline", "heuristic")[:players]):
            spec = _spec(players, deck, pol, stick_the_dealer=stick)
            res = runner.play_chunk(spec, 0)
            # every call, discard, dummy keep and card checked against the rules by the reference replay
            assert replay_by_reference(spec.rules, res) == spec.count


def test_a_new_params_row_needs_no_new_compile():
    st = state(trump=-1, maker=-1, upcard="9H", phase=PH_BID1)
    hand = board("JH AH 9C TC 9S")
    a = row()
    b = row("heuristic:order_1=0")
    ra = heuristic_decide(st, hand, np.int64(0), 0, np.int64(3), a, TAB)
    compiled = len(heuristic_decide.signatures)      # other tests may have compiled it for a read-only row too
    rb = heuristic_decide(st, hand, np.int64(0), 0, np.int64(3), b, TAB)
    assert (ra, rb) == (0, 1)
    assert len(heuristic_decide.signatures) == compiled


# ---- strength: paired against baseline, on points per hand ----------------------------

def _points(names, n, seed):
    rules = Rules(players=4, deck=24)
    tab = build_tables(rules)
    pids, params, _ = resolve(names, 4)
    fns = functions(names, 4)
    drng, prng = runner.chunk_states(seed=seed, chunk=0)
    rows = np.zeros(n, HAND_DTYPE)
    plays = np.zeros((n, 20), np.int8)
    counts = np.zeros(TALLY_SIZE, np.int64)
    err, at = run_hands(tab, n, drng, prng, pids, params, fns, rows, plays, 0, counts)
    assert err == 0
    return rows["points0"].astype(float) - rows["points1"].astype(float)


def test_heuristic_beats_baseline_on_the_same_deals():
    n = 40_000
    a = _points(["heuristic", "baseline", "heuristic", "baseline"], n, seed=2024)
    b = _points(["baseline", "heuristic", "baseline", "heuristic"], n, seed=2024)
    d = (a - b) / 2                      # heuristic's side's edge per hand, seats swapped, same deals
    se = d.std() / np.sqrt(n)
    assert d.mean() > 3 * se, (d.mean(), se)
