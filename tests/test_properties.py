"""Hypothesis property tests: invariants that hold for every hand played.

Hands come from the engine with random seeds, variants, options and
policies; each is checked with slow, obvious code (tests/test_tables.py's
rule helpers), never against what a seed happens to deal.
"""
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euchresim.cards import JOKER, card_index, card_str, pack_mask, parse_card
from tests.helpers import slow_beats, slow_card_name, slow_is_trump
from tests.helpers import bits, rows_of

SUITS = "CDHS"

variants = st.sampled_from([(p, d) for p in (2, 3, 4) for d in (24, 25, 32, 33)])
policies = st.sampled_from(["random", "baseline"])


def options_for(players, deck, data):
    opts = {"stick_the_dealer": data.draw(st.booleans())}
    if players == 4:
        opts["defend_alone"] = data.draw(st.booleans())
    if deck in (25, 33):
        opts["joker_upcard"] = data.draw(st.sampled_from(["dealer-names", "redeal", "C", "D", "H", "S"]))
    if players == 3:
        opts["both_alone_lead"] = data.draw(st.sampled_from(["defender", "maker"]))
    return opts


def eff_suit(c, t):
    return t if slow_is_trump(slow_card_name(c), t) else c // 8


def check_hand(row, plays, players, deck):
    P = players
    hands = [int(row[f"hand{s}"]) for s in range(P)]
    dummy = int(row["dummy"])
    up = int(row["upcard"])
    assert 0 <= up <= 32                     # one card: an index
    kitty = int(row["kitty"])
    # every card dealt exactly once (R4)
    parts = hands + [dummy, 1 << up, kitty]
    union = 0
    for m in parts:
        assert union & m == 0
        union |= m
    assert union == pack_mask(deck)
    assert all(bin(h).count("1") == 5 for h in hands)
    assert bin(dummy).count("1") == (5 if P == 3 else 0)

    played = [int(c) for c in plays if c >= 0]
    maker = int(row["maker"])
    if maker < 0:
        assert played == [] and all(row[f"points{s}"] == 0 for s in range(P))
        assert bool(row["thrown_in"])
        return
    t = int(row["trump"])
    out = int(row["out"])
    active = [s for s in range(P) if not (out >> s) & 1]
    assert len(played) == 5 * len(active)
    assert len(set(played)) == len(played)          # every card played at most once

    holding = {s: hands[s] for s in range(P)}
    dealer = int(row["dealer"])
    disc = int(row["discard"])
    if disc >= 0:
        assert int(row["make_round"]) == 1 and not (out >> dealer) & 1
        holding[dealer] = (holding[dealer] | (1 << up)) & ~(1 << disc)
    if int(row["dummy_keep"]):
        keep = int(row["dummy_keep"])
        assert bin(keep).count("1") == 5 and keep & ~(holding[maker] | dummy) == 0
        holding[maker] = keep

    # replay the tricks with the slow rules
    leader = int(row["leader"])
    assert leader in active
    tricks = [0] * P
    k = 0
    for trick in range(5):
        seats = []
        s = leader
        while len(seats) < len(active):
            if s in active:
                seats.append(s)
            s = (s + 1) % P
        cards = played[k:k + len(active)]
        k += len(active)
        led = eff_suit(cards[0], t)
        for seat, c in zip(seats, cards):
            assert (holding[seat] >> c) & 1, "a card the player holds (R10)"
            if seat != seats[0]:
                could = [x for x in bits(holding[seat]) if eff_suit(x, t) == led]
                if could:
                    assert eff_suit(c, t) == led, "follow suit (R10)"
            holding[seat] &= ~(1 << c)
        best = 0
        for i in range(1, len(cards)):
            if slow_beats(cards[i], cards[best], t, led):
                best = i
        winner = seats[best]
        assert int(row[f"trick{trick + 1}"]) == winner
        tricks[winner] += 1
        leader = winner
    assert all(h == 0 for s, h in holding.items() if s in active)   # 5 tricks empty every hand
    for s in range(P):
        assert int(row[f"tricks{s}"]) == tricks[s]
        if (out >> s) & 1:
            assert tricks[s] == 0                   # a seat that sits out takes nothing
    assert sum(tricks) == 5


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=variants, policy=policies, seed=st.integers(0, 2**32 - 1), data=st.data())
def test_every_hand_keeps_the_invariants(variant, policy, seed, data):
    players, deck = variant
    opts = options_for(players, deck, data)
    _, res = rows_of(players, deck, policy, seed, n=40, **opts)
    for row, plays in zip(res.hands, res.plays):
        check_hand(row, plays, players, deck)


R11 = {  # (made, march, euchre) straight from the R11 table of docs/rules.md
    "partnership": (1, 2, 2), "alone": (1, 4, 2), "alone_vs_lone": (1, 4, 4),
    "two": (1, 2, 2), "cut": (1, 3, 2),
}


@settings(max_examples=40, deadline=None)
@given(variant=variants, policy=policies, seed=st.integers(0, 2**32 - 1), data=st.data())
def test_r11_points_follow_the_table(variant, policy, seed, data):
    players, deck = variant
    opts = options_for(players, deck, data)
    _, res = rows_of(players, deck, policy, seed, n=60, **opts)
    for row in res.hands:
        maker = int(row["maker"])
        if maker < 0:
            continue
        alone = int(row["alone"])
        mt = int(row["maker_tricks"])
        side = [maker, (maker + 2) % 4] if players == 4 else [maker]
        assert mt == sum(int(row[f"tricks{s}"]) for s in side)
        lone_def = [s for s in range(players) if s != maker and (alone >> s) & 1]
        if players == 4:
            key = ("alone_vs_lone" if lone_def else "alone") if (alone >> maker) & 1 else "partnership"
        else:
            key = "two" if players == 2 else "cut"
        made, march, euchre = R11[key]
        if players == 3 and lone_def and mt == 0:
            euchre = 4
        for s in range(players):
            pts = int(row[f"points{s}"])
            if s in side:
                assert pts == (march if mt == 5 else made if mt >= 3 else 0)
            else:
                assert pts == (euchre if mt < 3 else 0)
        assert bool(row["euchred"]) == (mt < 3) and bool(row["march"]) == (mt == 5)


def test_the_joker_is_one_card_apart_from_the_suits_in_the_packs_that_have_it():
    """Its bit is no suit's card, named JK both ways, in the 25 and 33 packs only."""
    suits = [card_index(s, r) for s in range(4) for r in range(8)]
    assert JOKER not in suits and (pack_mask(33) >> JOKER) & 1 and (pack_mask(25) >> JOKER) & 1
    assert not (pack_mask(24) >> JOKER) & 1 and not (pack_mask(32) >> JOKER) & 1
    assert card_str(JOKER) == slow_card_name(JOKER) == "JK" and parse_card("JK", 25) == JOKER
