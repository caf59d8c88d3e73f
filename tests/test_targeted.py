"""Targeted counterfactuals: only the deals whose deciding seat holds a hand class asked for are played.

The kernel's class (engine.classes) is held against the obvious one
(analysis.call_stats.hand_class of hand_features) on random hands of every
pack.  A targeted run is held against the untargeted run of the same seed:
the deal stream is the same (policies never touch it), so the deals a
targeted chunk dealt are the untargeted chunk's deals in order, and a
Python replay of the stated rule (skip a deal whose seat at the position
lacks the class; the dealer moves only after a kept deal) must give the
kept deals, their dealers and the counts exactly.  With heuristic at every
seat no policy draws from the policy stream, so where a kept deal also has
the untargeted run's dealer its row must be that run's row, number for
number.
"""
import io
from dataclasses import fields

import numpy as np
import pandas as pd
import pytest

from euchresim.analysis.call_stats import class_order, hand_class, hand_features
from euchresim.cards import JOKER, cards_of, pack_mask
from euchresim.engine.classes import CLASS_NAMES, class_codes
from euchresim.engine.tables import build_tables
from euchresim.rules import Rules
from euchresim.run.runner import SimError
from euchresim.studies import counterfactual as cf
from tests.helpers import run_spec

WANT = ("2T R", "3T L", "3T R")


def spec_of(players, deck, n, seed=11, chunk_size=None, policies=("heuristic",)):
    return run_spec(rules=Rules(players=players, deck=deck), policies=policies, seed=seed, count=n,
                   chunk_size=chunk_size or n)


def slow_class(hands, trumps, players, tab):
    """analysis.call_stats' label of each hand under its trump suit: the twin of the kernel."""
    n = len(hands)
    f = hand_features(np.asarray(hands, np.int64), np.asarray(trumps, np.int64), np.zeros(n, np.int64),
                      np.zeros(n, np.int64), players, tab)
    return hand_class(f).to_numpy()


def seat_hands(res):
    """The hand the seat at the run's position plays, per row: as dealt, the dealer's with the upcard (the
    reports' one convention, written here the long way)."""
    seat = (res.dealer + res.position) % res.players
    hands = res.hands[np.arange(len(res)), seat]
    if res.position == 0:
        hands = np.array([h | (1 << int(u)) if u != JOKER else h for h, u in zip(hands, res.upcard)], np.int64)
    return hands


def test_class_names_are_the_analysis_labels():
    assert list(CLASS_NAMES) == class_order()


@pytest.mark.parametrize("deck", [24, 25, 32, 33])
def test_kernel_class_is_hand_class(deck):
    tab = build_tables(Rules(players=4, deck=deck))
    pack = np.array(cards_of(pack_mask(deck)), np.int64)
    rng = np.random.default_rng(deck)
    n = 20000
    hands = np.array([sum(1 << int(c) for c in rng.choice(pack, 5, replace=False)) for _ in range(n)], np.int64)
    trumps = rng.integers(0, 4, n).astype(np.int64)
    fast = np.array(CLASS_NAMES)[class_codes(tab, hands, trumps)]
    slow = slow_class(hands, trumps, 4, tab)
    assert (fast == slow).all(), pd.DataFrame({"fast": fast, "slow": slow})[fast != slow].head()
    # the sample reaches every class a hand can hold (both bowers are two trumps: no "0-1T RL")
    assert set(fast) == set(CLASS_NAMES) - {"0-1T RL"}


def test_the_joker_and_the_left_bower_count_as_trumps():
    tab = build_tables(Rules(players=4, deck=25))
    hearts = 1                                   # suit 1; diamonds (2) is its left's suit
    jack = lambda s: 8 * s + 4
    hand = (1 << jack(2)) | (1 << JOKER) | (1 << 0) | (1 << 1) | (1 << 24)
    assert CLASS_NAMES[class_codes(tab, np.array([hand], np.int64), np.array([hearts], np.int64))[0]] == "2T L"
    assert slow_class([hand], [hearts], 4, tab)[0] == "2T L"


@pytest.mark.parametrize("players,deck", [(2, 24), (2, 33), (3, 25), (3, 32), (4, 24), (4, 33)])
def test_kept_deals_hold_a_class_asked_for(players, deck):
    spec = spec_of(players, deck, 150, policies=("baseline",))
    pos = players - 1
    res = cf.play_chunk(spec, 0, "bid1", pos, WANT)
    tab = build_tables(spec.rules)
    assert len(res) == 150 and (res.upcard != JOKER).all()
    slow = slow_class(seat_hands(res), res.upcard >> 3, players, tab)
    assert set(slow) <= set(WANT) and list(res.hand_classes()) == list(slow)
    share = res.share()
    assert share["kept"] == 150 and share["dealt"] == 150 + share["skipped"] and share["skipped"] > 0
    assert res.classes == WANT and res.class_mask == cf.class_mask("3T R, 2T R,3T L")


def test_the_dealers_class_counts_the_upcard_it_takes_up():
    """The dealer with the jack turned up holds the right bower, and its trumps count the upcard: the
    convention changes some labels (it is no no-op) and every kept deal holds a class asked for."""
    spec = spec_of(4, 24, 200, policies=("baseline",))
    res = cf.play_chunk(spec, 0, "bid1", 0, ["4+T RL", "2T R"])
    tab = build_tables(spec.rules)
    seat = (res.dealer + 0) % 4
    dealt = res.hands[np.arange(len(res)), seat]
    as_dealt = slow_class(dealt, res.upcard >> 3, 4, tab)
    played = slow_class(seat_hands(res), res.upcard >> 3, 4, tab)
    assert set(played) <= {"4+T RL", "2T R"} and list(res.hand_classes()) == list(played)
    assert (as_dealt != played).any()
    jack_up = (res.upcard & 7) == 4
    assert jack_up.any() and all(c.endswith("R") or c.endswith("RL") for c in played[jack_up])


def test_a_rare_class_is_kept_too():
    """Four trumps with both bowers, 2 players, 24 cards: rare (about one deal in 600) but a hand can hold it."""
    spec = spec_of(2, 24, 20, policies=("baseline",))
    res = cf.play_chunk(spec, 0, "bid1", 1, ["4+T RL"])
    assert set(res.hand_classes()) == {"4+T RL"} and res.share()["share"] < 0.01


def test_targeted_deals_are_the_untargeted_stream_filtered():
    """The stated rule, replayed in Python on the untargeted run's deals, gives the targeted rows exactly."""
    players, pos, n = 4, 0, 300
    spec = spec_of(players, 24, n)
    res = cf.play_chunk(spec, 0, "bid1", pos, WANT)
    dealt = int(res.dealt[0])
    full = cf.play_chunk(spec_of(players, 24, dealt), 0, "bid1", pos)
    assert full.dealt[0] == dealt and full.skipped[0] == 0 and full.class_mask == 0
    tab = build_tables(spec.rules)
    dealer = int(full.dealer[0])
    kept, dealers = [], []
    for k in range(dealt):
        seat = (dealer + pos) % players
        up = int(full.upcard[k])
        held = int(full.hands[k, seat]) | ((1 << up) if pos == 0 and up != JOKER else 0)   # the dealer's upcard
        if up != JOKER and slow_class([held], [up >> 3], players, tab)[0] in WANT:
            kept.append(k)
            dealers.append(dealer)
            dealer = (dealer + 1) % players       # the deal passes after a kept deal only
    assert len(kept) == n and kept[-1] == dealt - 1 and int(res.skipped[0]) == dealt - n
    assert (res.hands == full.hands[kept]).all() and (res.upcard == full.upcard[kept]).all()
    assert list(res.dealer) == dealers
    # heuristic draws nothing from the policy stream: the same deal with the same dealer is the same row
    same = res.dealer == full.dealer[kept]
    assert same.sum() > 30
    sub = full.take(np.array(kept)[same])
    for name in ("reached", "seat", "legal", "options", "chosen", "points", "maker", "maker_tricks", "base_points"):
        assert (getattr(res, name)[same] == getattr(sub, name)).all(), name
    # and the skipped deals moved no dealer: kept deals' dealers pass left one by one (no redeals kept)
    assert not res.redeal.any() and ((res.dealer[1:] - res.dealer[:-1]) % players == 1).all()


def test_same_seed_same_rows_whatever_the_workers():
    spec = spec_of(4, 24, 120, chunk_size=40)
    one = cf.run(spec, "bid1", position=1, classes=WANT)
    two = cf.run(spec, "bid1", position=1, classes=WANT, workers=2)
    for name in ("hands", "dealer", "upcard", "points", "dealt", "skipped", "chunk_ids"):
        assert (getattr(one, name) == getattr(two, name)).all(), name
    assert list(one.chunk_ids) == [0, 1, 2] and len(one) == 120
    # take() filters deals, never the per-chunk counts
    assert (one.take(one.reached).dealt == one.dealt).all()


def test_shares_and_gains_agree_with_the_untargeted_run():
    """A class's share of all deals and its paired gain of ordering up, targeted and not (independent seeds), within 4 SE."""
    players, pos = 4, 0
    tab = build_tables(Rules(players=players, deck=24))
    full = cf.play_chunk(spec_of(players, 24, 8000, seed=3), 0, "bid1", pos)
    targ = cf.play_chunk(spec_of(players, 24, 1500, seed=4), 0, "bid1", pos, WANT)
    up_ok = full.upcard != JOKER
    label = np.where(up_ok, slow_class(seat_hands(full), np.where(up_ok, full.upcard >> 3, 0), players, tab), "")
    hit = np.isin(label, WANT)
    p_full, s = hit.mean(), targ.share()
    se = np.sqrt(p_full * (1 - p_full) / len(full) + s["share"] * (1 - s["share"]) / s["dealt"])
    assert abs(s["share"] - p_full) < 4 * se
    a, b = full.take(hit).paired(1, 0), targ.paired(1, 0)
    se = np.sqrt(a["sd"] ** 2 / a["n"] + b["sd"] ** 2 / b["n"])
    assert a["n"] > 500 and abs(a["mean"] - b["mean"]) < 4 * se


def test_bad_classes_are_refused():
    spec = spec_of(4, 24, 10)
    with pytest.raises(ValueError, match="unknown hand class '5T R'"):
        cf.play_chunk(spec, 0, "bid1", 0, ["5T R"])
    with pytest.raises(ValueError, match="need a position"):
        cf.play_chunk(spec, 0, "bid1", None, WANT)
    with pytest.raises(ValueError, match="need a position"):
        cf.CounterfactualJob(spec, "bid1", None, WANT)


def test_a_class_no_hand_holds_stops_with_a_clear_error():
    with pytest.raises(SimError, match=r"1,000,000 deals in a row and none had a hand of 0-1T RL at position 0"):
        cf.play_chunk(spec_of(4, 24, 10), 0, "bid1", 0, ["0-1T RL"])


def test_a_resume_with_other_classes_is_refused(tmp_path):
    spec = spec_of(4, 24, 40, chunk_size=20)
    folder = str(tmp_path / "run")
    first = cf.run(spec, "bid1", position=0, classes=WANT, folder=folder)
    again = cf.run(spec, "bid1", position=0, classes=WANT, folder=folder, resume=True)
    assert (first.hands == again.hands).all() and (first.dealt == again.dealt).all()
    with pytest.raises(SimError, match="differs in classes; cannot resume"):
        cf.run(spec, "bid1", position=0, classes=("2T R",), folder=folder, resume=True)
    with pytest.raises(SimError, match="differs in classes; cannot resume"):
        cf.run(spec, "bid1", position=0, folder=folder, resume=True)


def test_untargeted_header_and_counts_are_as_before():
    spec = spec_of(4, 24, 50)
    assert "classes" not in cf.CounterfactualJob(spec, "bid1", 1).header()
    res = cf.play_chunk(spec, 0, "bid1", 1)
    assert res.class_mask == 0 and res.classes == () and int(res.dealt[0]) == 50 and int(res.skipped[0]) == 0
    buf = io.BytesIO()                       # a chunk kept before targeting: no count fields
    np.savez(buf, **{f.name: np.asarray(getattr(res, f.name)) for f in fields(cf.Counterfactuals)
                     if f.name not in ("class_mask",) + cf.PER_CHUNK})
    back = cf.from_bytes(buf.getvalue())
    assert list(back.dealt) == [50] and list(back.skipped) == [0] and back.class_mask == 0
    assert (cf.from_bytes(cf.to_bytes(res)).points == res.points).all()


def test_the_mean_share_of_seats_is_a_plain_mean_with_added_variances():
    from euchresim.analysis.targeted_stats import mean_share
    from euchresim.stats import Z95
    got = mean_share([0.1, 0.3], [100, 400])
    se = np.sqrt(0.1 * 0.9 / 100 + 0.3 * 0.7 / 400) / 2
    assert got["share"] == pytest.approx(0.2)
    assert got["share_low"] == pytest.approx(0.2 - Z95 * se) and got["share_high"] == pytest.approx(0.2 + Z95 * se)
    assert mean_share([0.0, 0.0], [10, 10])["share_low"] == 0.0


def test_seats_agree_is_cochrans_q_with_the_chi_square_tail():
    """Known values: the chi-square tail against published values (scipy.stats.chi2.sf, written down: scipy is
    no dependency of the project), Q worked by hand, and the committed loner report's
    three-trumps-both-bowers cells (the dealer's left +0.41, the right -0.23: the seats differ)."""
    tail = {(3.84, 1): 0.05004352124870519, (5.99, 2): 0.05003662708658629, (7.81, 3): 0.05010605635000589,
            (0.5, 3): 0.9188914116546758, (12.0, 5): 0.03478778050624185, (2.0, 1): 0.15729920705028105}
    from euchresim.analysis.targeted_stats import _chi2_sf, seats_agree
    from euchresim.stats import Z95
    for (x, df), want in tail.items():
        assert _chi2_sf(x, df) == pytest.approx(want, rel=1e-9)
    # two cells 0 and 1, each se 0.5: weighted mean 0.5, Q = 2 * (0.5 / 0.5)**2 = 2, one degree of freedom
    got = seats_agree([0.0, 1.0], [-Z95 * 0.5, 1 - Z95 * 0.5], [Z95 * 0.5, 1 + Z95 * 0.5])
    assert got["q"] == pytest.approx(2.0) and got["df"] == 1 and got["p"] == pytest.approx(tail[2.0, 1])
    assert got["agree"]
    import os
    import pandas as pd
    h = pd.read_csv(os.path.join(os.path.dirname(__file__), "..", "reports", "loner", "loner_headline.csv"))
    seats = h[(h["hand_class"] == "3T RL") & (h["position"] != "all seats")]
    assert not seats_agree(seats["gain"], seats["ci_low"], seats["ci_high"])["agree"]


def test_the_chi_square_tail_keeps_its_digits_far_out_and_q_is_worded_as_a_reader_can_use_it():
    """Closed forms (df 1: erfc(sqrt(x/2)); df 2: exp(-x/2); df 3: erfc(sqrt(x/2)) + sqrt(2x/pi) exp(-x/2)) from
    the body to the far tail, where 1 - P had printed p = 4e-14 for a tail near 1e-273; and the words."""
    import math
    from euchresim.analysis.targeted_stats import _chi2_sf, q_words
    forms = {1: lambda x: math.erfc(math.sqrt(x / 2)), 2: lambda x: math.exp(-x / 2),
             3: lambda x: math.erfc(math.sqrt(x / 2)) + math.sqrt(2 * x / math.pi) * math.exp(-x / 2)}
    for x in (0.5, 2.0, 3.0, 3.84, 10.0, 50.0, 100.0, 1261.6):
        for df, f in forms.items():
            assert _chi2_sf(x, df) == pytest.approx(f(x), rel=1e-12), (x, df)
    assert q_words({"q": 11.5, "df": 3, "p": 0.0094}) == "Cochran's Q 11.5 on 3 degrees of freedom, p = 0.009"
    assert q_words({"q": 0.5, "df": 1, "p": 0.4805}) == "Cochran's Q 0.5 on 1 degree of freedom, p = 0.480"
    # beside 5%, three digits: 0.0499 never reads "0.05" beside "the seats differ"
    assert q_words({"q": 3.85, "df": 1, "p": 0.0499}).endswith("p = 0.0499")
    assert q_words({"q": 3.8, "df": 1, "p": 0.0512}).endswith("p = 0.0512")
    assert q_words({"q": 0.0, "df": 1, "p": 0.9996}).endswith("p > 0.999")
    assert _chi2_sf(float("nan"), 2) != _chi2_sf(float("nan"), 2)        # no number for no statistic
    assert q_words({"q": 1261.6, "df": 3, "p": _chi2_sf(1261.6, 3)}).endswith("p < 0.001")


def test_a_cell_without_spread_that_differs_again_is_beyond_chance_and_one_not_measured_again_is_marked():
    """Known cells: +2.00 on every deal, again +1.00 on every deal: z is infinite, a disagreement (it was left
    out of Holm's family as not finite); the same constant twice: no test; a 40-hand cell whose measure again
    has 5 hands: not measured again (the report refuses it, report.replicate.replicated)."""
    import pandas as pd
    from euchresim.analysis.targeted_stats import replication
    head = pd.DataFrame({"position": ["dealer", "left", "right"], "hand_class": ["4+T RL"] * 3,
                         "reached": [500, 500, 40], "gain": [2.0, 1.0, 0.3], "ci_low": [2.0, 1.0, 0.1],
                         "ci_high": [2.0, 1.0, 0.5]})
    again = pd.DataFrame({"position": ["dealer", "left", "right"], "hand_class": ["4+T RL"] * 3,
                          "n": [480, 510, 5], "gain": [1.0, 1.0, 0.3], "ci_low": [1.0, 1.0, -0.5],
                          "ci_high": [1.0, 1.0, 1.1]})
    out = replication(head, again, ["position", "hand_class"]).set_index("position")
    assert out.loc["dealer", "z_replicate"] == float("inf") and bool(out.loc["dealer", "beyond_chance"])
    assert not bool(out.loc["left", "beyond_chance"])
    assert bool(out.loc["right", "not_again"]) and not bool(out.loc["dealer", "not_again"])
