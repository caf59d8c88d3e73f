"""``policies.decision``: the bot author's view of a decision, and ``@bot``.

The view is checked against the engine's own arrays, read here the long
way (the reference's voids from the plays, each seat's cards from the
private state), at every decision of hands stepped with ``Hand``; and
a bot that hands every decision to a built-in must play that built-in's
hands, row for row, in every variant.
"""
import numpy as np
import pytest

from euchresim.cards import SUITS, card_str
from euchresim.cli.app import main
from euchresim.engine.layout import (BID2_PASS, CFG_NPACK, JOKER_SUIT, NINTRICK, NPLAYS, PH_BID1, PH_BID2, PH_DUMMY,
                                     PH_PLAY, PLAY_SEAT, PLAYS, SCORE, T_PACK, UPCARD)
from euchresim.engine.tables import build_tables
from euchresim.loops.hands import new_workspace, seat_decider
from euchresim.engine.state import Hand
from euchresim.policies import PolicyError, parse, seats, view
from euchresim.policies.decision import Action, Decision
from euchresim.rules import Rules
from euchresim.run import runner
from tests.helpers import run_spec, fast_and_full

VARIANTS = [(4, 24), (4, 25), (3, 24), (2, 32)]


def _rows(policy, players, deck, n=120, seed=5, mode="hands"):
    spec = run_spec(rules=Rules(players=players, deck=deck), policies=(policy,) * players, seed=seed,
                          mode=mode, count=n)
    res = runner.play_chunk(spec, 0)
    return res.hands.tobytes(), res.plays.tobytes(), res.games.tobytes()


@pytest.mark.parametrize("players,deck", VARIANTS)
@pytest.mark.parametrize("bot,builtin", [("all_heuristic", "heuristic"), ("all_baseline", "baseline"),
                                         ("all_random", "random"), ("by_name", "heuristic")])
def test_a_bot_that_falls_back_plays_the_builtins_hands(players, deck, bot, builtin):
    assert _rows(f"tests.decision_bots:{bot}", players, deck) == _rows(builtin, players, deck)


def test_a_bot_plays_whole_games_as_its_fallback_does():
    assert _rows("tests.decision_bots:all_heuristic", 4, 24, n=6, mode="games") == \
        _rows("heuristic", 4, 24, n=6, mode="games")


def test_a_bot_that_leads_low_plays_differently_and_still_legally():
    assert _rows("tests.decision_bots:low_leads", 4, 24) != _rows("heuristic", 4, 24)


def test_parameters_reach_the_bot_by_name():
    p = parse("tests.decision_bots:ordering:order_at=2")
    assert p.python and p.name == "tests.decision_bots:ordering:order_at=2"
    low = _rows("tests.decision_bots:ordering:order_at=2", 4, 24)
    assert low == _rows("heuristic:order_1=2:order_2=2:order_3=2:order_4=2", 4, 24) != _rows("heuristic", 4, 24)


def test_choice_draws_from_the_runs_policy_stream():
    a = _rows("tests.decision_bots:drawn", 4, 24, seed=9)
    assert a == _rows("tests.decision_bots:drawn", 4, 24, seed=9) and a != _rows("tests.decision_bots:drawn", 4, 24)


def _voids(st, tab, seat, trump, players):
    """Suits ``seat`` failed to follow, the long way: each trick's led suit against what the seat played."""
    from euchresim.engine.layout import NACTIVE, T_SUIT_OF
    out, led, n = set(), None, int(st[NACTIVE])
    for k in range(int(st[NPLAYS])):
        suit = int(tab[T_SUIT_OF + 33 * trump + int(st[PLAYS + k])])
        if k % n == 0:
            led = suit
        elif suit != led and int(st[PLAY_SEAT + k]) == seat:
            out.add(SUITS[led])
    return out


ALL_VARIANTS = [(p, d) for p in (2, 3, 4) for d in (24, 25, 32, 33)]


def _trump_of(card: str, trump: str) -> bool:
    """Trump by R2, written plainly: the trump suit, the jack of the same colour, the joker."""
    colour = {"C": "S", "S": "C", "D": "H", "H": "D"}
    return card == "JK" or card[1] == trump or card == "J" + colour[trump]


def _beats(card: str, best: str, led: str, trump: str) -> bool:
    """Does ``card`` take ``best`` in a trick led ``led`` (R10), written plainly: trumps by bower order, then
    the led suit by rank; anything else loses."""
    order = "789TJQKA"

    def rank(c):
        if not _trump_of(c, trump):
            return (1, order.index(c[0])) if c[1] == led else (0, 0)
        if c == "JK":
            return (2, 30)
        if c == "J" + trump:
            return (2, 20)
        if c[0] == "J":
            return (2, 19)
        return (2, order.index(c[0]))
    return rank(card) > rank(best)


def _partner(seat, players, maker):
    """The seat's side-mate, plainly: 4 players the seat across; Cutthroat the other defender once a maker
    is known (the maker has none); 2 players none."""
    if players == 4:
        return (seat + 2) % 4
    if players == 3 and maker is not None and seat != maker:
        return ({0, 1, 2} - {seat, maker}).pop()
    return None


PHASES = ["joker_suit", "bid1", "bid2", "alone", "defend_alone", "discard", "dummy_keep", "play"]   # docs/policies.md


def _check_seats(d, st, tab, players, made):
    """Every field with a seat or a side in it, the Decision's and policies.view's, against ``made`` (the
    maker, trump and alone as the loop saw them called) and the plain rules above, for every seat."""
    maker, trump, alone, kept = made
    assert d.maker == maker and d.trump == trump and d.maker_alone == alone
    for s in range(players):
        expect = _partner(s, players, maker)
        assert view.partner(st, np.int64(s), tab) == (-1 if expect is None else expect)
        assert view.teammate(st, np.int64(s), np.int64(players)) == (-1 if expect is None else expect)
        assert expect is None or (expect != s and 0 <= expect < players and (players == 4 or expect != maker))
    assert view.dummy_taken(st, tab) == (players == 3 and maker is not None and not alone and kept)
    trick = d.trick
    if d.phase == "play" and trick:
        best_seat, best = trick[0]
        for s, c in trick[1:]:
            if _beats(c, best, d.led, trump):
                best_seat, best = s, c
        assert view.winning_seat(st) == best_seat
        assert d.led == (trump if _trump_of(trick[0][1], trump) else trick[0][1][1])
        for k, (s, c) in enumerate(trick):
            card, who = view.trick_card(st, np.int64(k))
            assert (card_str(int(card)), int(who)) == (c, s)
    elif d.phase == "play":
        assert view.winning_seat(st) == -1 and d.led is None


def _check_strength(d):
    """``strength`` ranks as the rules do: while bidding by rank in the card's own suit (the joker above all);
    with a trump, every trump above every other card, the trumps in bower order."""
    order = "789TJQKA"
    if d.trump is None:
        ranks = [9 if c == "JK" else order.index(c[0]) for c in d.hand]
        for a, ra in zip(d.hand, ranks):
            for b, rb in zip(d.hand, ranks):
                assert (d.strength(a) > d.strength(b)) == (ra > rb)
        return
    for a in d.hand:
        for b in d.hand:
            if d.is_trump(a) and not d.is_trump(b):
                assert d.strength(a) > d.strength(b)
            if d.is_trump(a) and d.is_trump(b):
                assert (d.strength(a) > d.strength(b)) == _beats(a, b, d.trump, d.trump)


def _check_trump_helpers(d, seat, players):
    """is_trump, effective_suit, bowers, count, winners and partner against the plain rules above."""
    assert d.partner == _partner(seat, players, d.maker)
    if d.trump is None:
        assert not any(d.is_trump(c) for c in d.hand) and d.effective_suit(d.hand[0]) is None
        return
    t = d.trump
    assert [d.is_trump(c) for c in d.hand] == [_trump_of(c, t) for c in d.hand]
    for c in d.hand:
        assert d.effective_suit(c) == (t if _trump_of(c, t) else c[1])
    colour = {"C": "S", "S": "C", "D": "H", "H": "D"}
    assert d.bowers() == ("J" + t, "J" + colour[t]) and d.bowers("hearts") == ("JH", "JD")
    assert d.count() == sum(_trump_of(c, t) for c in d.hand)
    for s in SUITS:
        if s != t:
            assert d.count(s) == sum(1 for c in d.hand if c != "JK" and c[1] == s and not _trump_of(c, t))
    if d.phase == "play" and not d.leading:
        led = d.led
        best = d.trick[0][1]
        for _, c in d.trick[1:]:
            best = c if _beats(c, best, led, t) else best
        assert [a.name for a in d.winners()] == [a.name for a in d.legal if _beats(a.name, best, led, t)]


@pytest.mark.parametrize("players,deck", ALL_VARIANTS)
@fast_and_full("hands", 8, 25)
def test_the_view_says_what_the_arrays_hold(players, deck, hands):
    rules = Rules(players=players, deck=deck)
    tab = build_tables(rules)
    table = seats("heuristic", players)
    pids, params, fns = table.pids, table.params, table.functions()
    drng, prng = runner.chunk_states(3, 0)
    work = tab[T_PACK:T_PACK + tab[CFG_NPACK]].copy()
    ws = new_workspace()
    seen = set()
    for hand_no in range(hands):
        h = Hand(tab)
        h.deal_next(work, drng, np.zeros(4, np.int64), hand_no % players)
        score = [(hand_no + 3 * s) % 9 for s in range(players)]
        h.st[SCORE:SCORE + players] = score
        made = [None, None, False, False]         # maker, trump, alone, dummy kept: as the loop sees them called
        while not h.done:
            seat, legal = h.to_act, h.legal()
            d = Decision(h.st, h.hand_of(seat), h.away_of(seat), seat, legal, params[seat], prng, tab)
            seen.add(d.phase)
            assert d.phase == PHASES[int(h.phase)] and d.score == tuple(score)
            _check_seats(d, h.st, tab, players, made)
            _check_strength(d)
            assert d.seat == seat and d.players == players and d.dealer == hand_no % players
            assert d.hand == [card_str(c) for c in range(64) if h.hand_of(seat) >> c & 1]
            assert d.upcard == card_str(int(h.st[UPCARD]))
            codes = [a.code for a in d.legal]
            if h.phase == PH_DUMMY:
                assert all(bin(c).count("1") == 5 and c & ~legal == 0 for c in codes) and len(codes) == 252
            else:
                assert codes == [a for a in range(64) if legal >> a & 1]
            if h.phase == PH_BID1:
                assert [a.name for a in d.legal] == ["pass", "order"]
            if h.phase == PH_BID2:
                if legal >> BID2_PASS & 1:
                    assert d.action(BID2_PASS) is d.action("pass")
                assert all(a.suit in SUITS for a in d.legal if a.name != "pass")
            if h.phase == PH_PLAY:
                plays = [(int(h.st[PLAY_SEAT + k]), card_str(int(h.st[PLAYS + k]))) for k in range(int(h.st[NPLAYS]))]
                assert d.played == plays and d.trump in SUITS
                assert d.trick == plays[len(plays) - int(h.st[NINTRICK]):] if h.st[NINTRICK] else d.trick == []
                assert d.leading == (d.trick == []) and (d.led is None) == d.leading
                trump = SUITS.index(d.trump)
                for s in range(players):
                    if s != seat:
                        assert d.voids.get(s, set()) == _voids(h.st, tab, s, trump, players)
            _check_trump_helpers(d, seat, players)
            if h.phase != PH_BID1 and h.phase != PH_BID2:
                assert d.maker is not None or h.phase == PH_DUMMY or d.phase == "joker_suit"
            a, _ = seat_decider(pids, params, fns, prng, ws)(h)
            if d.phase == "bid1" and a == 1:
                made[:2] = seat, (d.upcard[1] if d.upcard != "JK" else SUITS[int(h.st[JOKER_SUIT])])
            elif d.phase == "bid2" and a < BID2_PASS:
                made[:2] = seat, SUITS[a]
            elif d.phase == "alone":
                made[2] = bool(a == 1)
            elif d.phase == "dummy_keep":
                made[3] = True
            assert not h.apply(a, legal)
    assert {"bid1", "play"} <= seen


def test_an_answer_that_is_no_legal_action_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--hands", "20", "--policy", "tests.decision_bots:says_nonsense", "--workers", "1"])
    err = capsys.readouterr().err.strip().splitlines()
    assert e.value.code != 0 and len(err) == 1
    assert "'shuffle the deck' is not a legal action at this bid1 decision; legal: pass, order" in err[-1]


def test_a_fallback_to_a_search_bot_is_refused_by_name(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as e:
        main(["simulate", "--hands", "20", "--policy", "tests.decision_bots:falls_back_to_pimc", "--workers", "1"])
    err = capsys.readouterr().err
    assert e.value.code != 0 and "a fallback is one of random, baseline, heuristic" in err and "Traceback" not in err


def test_actions_equal_their_names():
    a = Action("order", 1)
    assert a == "order" and a == " ORDER " and a != "pass" and str(a) == "order"
    assert {a, Action("order", 1)} == {a}
    assert "order" in {a} and hash("order") == hash(a)          # equal things hash alike
    assert "order" in {a: 1} and "pass" not in {a}


def test_strength_while_bidding_is_the_rank_in_its_suit_and_a_fallback_is_a_builtin():
    from euchresim.cards import parse_card
    from euchresim.engine.layout import TRUMP
    tab = build_tables(Rules(deck=25))
    st = np.zeros(96, np.int64)
    st[TRUMP] = -1
    d = Decision(st, 0, 0, 0, 0b11, np.zeros(48), np.zeros(6, np.uint64), tab)
    ranks = [d.strength(c) for c in ("9C", "TC", "JC", "QC", "KC", "AC")]
    assert ranks == sorted(ranks) and len(set(ranks)) == 6 and d.strength("JS") == d.strength("JC")
    assert d.strength("JK") > d.strength("AS")
    st[TRUMP] = 3                                     # spades: the jack of clubs is the left bower
    assert d.strength("JC") > d.strength("AS") > d.strength("AC")
    with pytest.raises(PolicyError, match="a fallback is a built-in"):
        d.fallback("tests.decision_bots:all_heuristic")
    assert parse_card("JK") == 32
    with pytest.raises(PolicyError):
        parse("tests.decision_bots:ordering:order_at=99")
