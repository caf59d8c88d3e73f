"""The advisor (studies/advisor/evaluate.py, loops/advisor_kernels.py): what it samples, what it plays, when it stops, what it refuses.

Each property is checked against something the advisor's own code does not
compute: the solver through ``euchresim solve``, exact hypergeometric odds,
the rules' follow-suit law read off the record, the heuristic asked
directly, a hand played straight through by the state machine.
"""
import json
import math
import statistics

import numpy as np
import pytest
from click.testing import CliRunner
from numba import njit

from euchresim.cards import cards_of, pack_mask, parse_board, parse_card
from euchresim.cli.app import cli
from euchresim.engine.hand import apply_action, legal_actions, start_hand
from euchresim.engine.layout import HAND, PHASE, PH_DONE, POINTS, PRIV_SIZE, ST_SIZE, TO_ACT
from euchresim.engine.tables import build_tables
from euchresim.policies import seats
from euchresim.policies.dispatch import WS_COLS, WS_ROWS, act
from euchresim.records.format import parse_record
from euchresim.rules import Rules
from euchresim.stats import sequential_z
from euchresim.studies.advisor import evaluate as A
from euchresim.studies.advisor import situation as S

from tests.helpers import one_error_line, run

R4 = Rules()
HAND1 = parse_board("JH JD AH KS 9C".split(), 24)
TH = parse_card("TH", 24)


def _records(tmp_path, players=4, deck=24, hands=40, seed=5):
    path = tmp_path / f"r{players}{deck}.jsonl"
    res = CliRunner().invoke(cli, ["simulate", "--hands", str(hands), "--seed", str(seed), "--players", str(players),
                                   "--deck", str(deck), "--records", str(path), "--quiet", "--workers", "1"])
    assert res.exit_code == 0, res.output
    return [json.loads(line) for line in path.read_text().splitlines()]


def _read(policy, sit):
    """A policy as play_batch takes it: read once, a policies.Seats (None stays None)."""
    return None if policy is None else seats(policy, sit.rules.players)


def _pimc_free(policy="heuristic"):
    pids, params, fns, _ = S.policy_arrays(seats(policy, 4), 4)
    return pids, params, fns


# ---------------------------------------------------------------- the deals sampled
@pytest.mark.slow
def test_with_no_calls_heard_the_unseen_cards_fall_as_hypergeometric_odds_say():
    """Left of the dealer, first to speak: the partner's count of the 3 unseen hearts-suit trumps is hypergeometric."""
    sit = S.from_hand(R4, HAND1, TH, 1)
    dec = S.decision_of(sit)
    s = A.play_batch(sit, dec, _read("random", sit), False, 6000, 11, 0)
    assert s.tries == len(s)                       # nothing to reject: no calls, no plays
    pool = pack_mask(24) & ~HAND1 & ~(1 << TH)
    hearts = sum(1 << c for c in cards_of(pool) if c >> 3 == 2)      # the unseen plain hearts
    m = bin(hearts).count("1")
    partner = s.deals[:, 2]
    counts = np.bincount([bin(int(h) & hearts).count("1") for h in partner], minlength=m + 1)
    N, K, n = bin(pool).count("1"), m, 5
    expected = np.array([math.comb(K, k) * math.comb(N - K, n - k) / math.comb(N, n) for k in range(m + 1)]) * len(s)
    chi2 = float(((counts - expected) ** 2 / expected).sum())
    # 99.9% point of chi-square with m degrees of freedom (m <= 4 here): 18.47 at 4
    assert m <= 4 and chi2 < 18.47, (counts, expected)
    # and every deal is a deal: 24 distinct cards, the seat's own hand where it is
    for row in s.deals:
        assert row[1] == HAND1
        assert bin(int(row[0] | row[1] | row[2] | row[3] | row[5])).count("1") == 23


def _effective_suit(card, trump):
    """The suit a card follows as (R2): the left bower is trump, the joker too."""
    from euchresim.cards import JOKER, same_colour
    if card == JOKER:
        return trump
    suit, rank = card >> 3, card & 7
    if rank == 4 and suit == same_colour(trump):   # the jack of the same colour
        return trump
    return suit


@pytest.mark.slow
def test_no_sampled_deal_breaks_a_void_the_record_shows(tmp_path):
    """A seat that did not follow suit holds none of the led suit in any sampled deal (R10)."""
    objs = _records(tmp_path, hands=200, seed=7)
    checked = 0
    for obj in objs:
        rec = parse_record(obj)
        if rec.rules.players != 4 or obj["trump"] is None or len(rec.plays) < 12:
            continue
        trump = "CDHS".index(obj["trump"])
        plays = list(rec.plays)
        # who played each card, from the trick winners (the leader of each trick)
        from euchresim.engine.tables import cached_tables as _tables
        from euchresim.loops.record_steps import replay_states
        _, states = replay_states([rec], _tables(rec.rules))
        from euchresim.engine.layout import PLAY_SEAT, NACTIVE
        seats = [int(states[0][PLAY_SEAT + k]) for k in range(len(plays))]
        nact = int(states[0][NACTIVE])
        cut = 8
        voids = {}
        for t in range(cut // nact):
            led = _effective_suit(plays[t * nact], trump)
            for j in range(1, nact):
                if _effective_suit(plays[t * nact + j], trump) != led:
                    voids.setdefault(seats[t * nact + j], set()).add(led)
        if not voids:
            continue
        sit = S.from_record(rec, plays=cut)
        if any(s == sit.seat for s in voids) and len(voids) == 1:
            continue
        samples = A.play_batch(sit, S.decision_of(sit), _read("heuristic", sit), False, 200, 3, 0)
        for row in samples.deals:
            for s, suits in voids.items():
                if s == sit.seat:
                    continue
                unplayed = [c for c in cards_of(int(row[s])) if c not in plays[:cut]]
                held = {_effective_suit(c, trump) for c in unplayed if not (s == rec.dealer and c == rec.upcard)}
                # the dealer's hand as dealt also holds its unseen discard, which may be of any suit
                assert not (held & suits) or s == rec.dealer, (obj, s, suits)
        checked += 1
        if checked >= 5:
            break
    assert checked >= 3


@pytest.mark.parametrize("policy, infer_policy", [("heuristic", None), ("random", "heuristic")])
def test_with_inference_every_sampled_deal_is_one_on_which_the_passers_would_have_passed(policy, infer_policy):
    """The dealer decides after three passes: each passer, holding its sampled cards, passes when heuristic is asked
    (with ``stray`` 0, the model as it stands; the softened model is tested below).

    Also when another policy plays on (``infer_policy``): the calls are evidence of the inference model.
    """
    from euchresim.policies import resolve
    from euchresim.policies.heuristic import heuristic_decide
    hand = parse_board("9H TD QD 9S TS".split(), 24)
    up = parse_card("AH", 24)
    sit = S.from_hand(R4, hand, up, 0)              # the dealer: the three others passed
    dec = S.decision_of(sit)
    assert sit.calls == (0, 0, 0)
    s = A.play_batch(sit, dec, _read(policy, sit), True, 300, 5, 0, _read(infer_policy, sit), stray=0.0)     # the model exactly
    tab = build_tables(R4)
    _, params, _ = resolve(["heuristic"], 4)
    refused = 0
    for row in s.deals:
        hands = np.array(row[:4], np.int64)
        st = np.zeros(ST_SIZE, np.int64)
        priv = np.zeros(PRIV_SIZE, np.int64)
        start_hand(st, priv, tab, 0, hands, 0, up, int(row[5]))
        for seat in (1, 2, 3):
            assert st[TO_ACT] == seat
            call = heuristic_decide(st, priv[HAND + seat], 0, seat, legal_actions(st, priv, tab), params[seat], tab)
            assert call == 0, "a sampled hand the passer would have ordered with"
            apply_action(st, priv, tab, 0)
    # and without inference some sampled deals are ones a passer would have ordered on: the test can fail
    s2 = A.play_batch(sit, dec, _read(policy, sit), False, 300, 5, 0, _read(infer_policy, sit))
    for row in s2.deals:
        st = np.zeros(ST_SIZE, np.int64)
        priv = np.zeros(PRIV_SIZE, np.int64)
        start_hand(st, priv, tab, 0, np.array(row[:4], np.int64), 0, up, int(row[5]))
        for seat in (1, 2, 3):
            if heuristic_decide(st, priv[HAND + seat], 0, seat, legal_actions(st, priv, tab), params[seat], tab):
                refused += 1
                break
            apply_action(st, priv, tab, 0)
    assert refused > 30
    assert s.tries > len(s)                         # rejection did the narrowing


def _orderers(deals, up, tab, params):
    """Per deal, how many of the three passers would have ordered up holding their cards (heuristic asked)."""
    from euchresim.policies.heuristic import heuristic_decide
    out = []
    for row in deals:
        st = np.zeros(ST_SIZE, np.int64)
        priv = np.zeros(PRIV_SIZE, np.int64)
        start_hand(st, priv, tab, 0, np.array(row[:4], np.int64), 0, up, int(row[5]))
        k = 0
        for seat in (1, 2, 3):
            k += int(heuristic_decide(st, priv[HAND + seat], 0, seat, legal_actions(st, priv, tab), params[seat],
                                      tab) != 0)
            apply_action(st, priv, tab, 0)
        out.append(k)
    return np.array(out)


def test_the_softened_model_keeps_a_deal_by_the_likelihood_of_the_calls_heard():
    """A known value: with stray e, a deal on which j passers would have ordered is kept with chance r^j,
    r = e / (1 - e) (two options a call), so the share of kept deals with j >= 1 is sum_j>=1 p_j r^j /
    sum_j p_j r^j, p_j the shares among deals not narrowed at all. Both sides measured on fixed seeds; the
    tolerance is 4 standard errors of the difference (binomial for the kept share, the delta method for
    the prediction from p)."""
    from euchresim.policies import resolve
    hand = parse_board("9H TD QD 9S TS".split(), 24)
    up = parse_card("AH", 24)
    sit = S.from_hand(R4, hand, up, 0)
    dec = S.decision_of(sit)
    tab = build_tables(R4)
    _, params, _ = resolve(["heuristic"], 4)
    e = 0.25
    r = e / (1 - e)
    free = _orderers(A.play_batch(sit, dec, _read("heuristic", sit), False, 6000, 7, 0).deals, up, tab, params)
    kept = _orderers(A.play_batch(sit, dec, _read("heuristic", sit), True, 3000, 8, 0, stray=e).deals, up, tab, params)
    w = r ** free.astype(float)
    predicted = float((w * (free >= 1)).sum() / w.sum())
    # delta method for a ratio of means: var of (w 1{j>=1} - predicted w) / mean(w), over n deals
    g = (w * (free >= 1) - predicted * w) / w.mean()
    se_pred = float(g.std(ddof=1) / np.sqrt(len(free)))
    observed = float((kept >= 1).mean())
    se_obs = float(np.sqrt(observed * (1 - observed) / len(kept)))
    assert 0.05 < predicted < 0.95                   # a share the test can tell apart from 0 and from 1
    assert abs(observed - predicted) < 4 * np.hypot(se_pred, se_obs), (observed, predicted, se_pred, se_obs)
    # and the exact model keeps none of them (the test above), the unnarrowed sample many
    assert (free >= 1).mean() > predicted + 0.1


def test_the_stray_chance_and_the_modelled_discard_draw_their_stated_frequencies():
    """The two draws of the softened model, against their formulas over 200,000 draws each (tolerance 4
    binomial standard errors): a call not the policy's is kept with chance e / ((n - 1)(1 - e)); an unseen
    discard is drawn among the cards the play leaves possible with chances 1 - e (the policy's choice) and
    e / (n - 1) (each other), the deal kept with their sum."""
    from euchresim.engine.bits import seed_state
    from euchresim.loops.advisor_kernels import _modelled_discard, _strays
    rng = seed_state(np.random.SeedSequence(3))
    draws = 200_000

    def close(count, p):
        return abs(count / draws - p) < 4 * np.sqrt(p * (1 - p) / draws) + 1e-12

    for n, e in ((2, 0.1), (4, 0.1), (2, 0.3)):
        kept = sum(_strays(n, e, rng) for _ in range(draws))
        assert close(kept, e / ((n - 1) * (1 - e))), (n, e, kept)
    assert not any(_strays(2, 0.0, rng) for _ in range(1000))
    legal = sum(1 << c for c in (0, 3, 5, 7, 9, 11))          # six cards to discard from
    e = 0.2
    for choice, possible in ((3, (1 << 3) | (1 << 9)), (3, (1 << 5) | (1 << 9) | (1 << 11))):
        got: dict = {}
        for _ in range(draws):
            d = int(_modelled_discard(np.int64(choice), np.int64(possible), np.int64(legal), e, rng))
            got[d] = got.get(d, 0) + 1
        for c in range(12):
            if (possible >> c) & 1:
                assert close(got.get(c, 0), (1 - e) if c == choice else e / 5), (choice, c, got)
            else:
                assert c in (-1,) or got.get(c, 0) == 0
        inside = (1 - e if (possible >> choice) & 1 else 0) + e / 5 * (bin(possible).count("1")
                                                                          - ((possible >> choice) & 1))
        assert close(got.get(-1, 0), 1 - inside)


# ---------------------------------------------------------------- what is played on them
@njit(cache=True)
def _play_through(tab, dealer, hands, dummy, upcard, kitty, pids, params, fns):
    """A whole hand on a given deal, every decision by the policies: the ordinary hand, nothing forced."""
    st = np.zeros(ST_SIZE, np.int64)
    priv = np.zeros(PRIV_SIZE, np.int64)
    ws = np.zeros((WS_ROWS, WS_COLS), np.int64)
    rng = np.zeros(6, np.uint64)
    start_hand(st, priv, tab, dealer, hands, dummy, upcard, kitty)
    while st[PHASE] != PH_DONE:
        seat = st[TO_ACT]
        a = act(pids[seat], st, priv, seat, legal_actions(st, priv, tab), params[seat], rng, tab, ws, fns)
        apply_action(st, priv, tab, a)
    return st[POINTS:POINTS + 4].copy()


@pytest.mark.slow
def test_the_option_the_policy_takes_is_its_own_hand_on_the_same_deal():
    sit = S.from_hand(R4, HAND1, TH, 1)
    dec = S.decision_of(sit)
    s = A.play_batch(sit, dec, _read("heuristic", sit), False, 200, 9, 0)
    pids, params, fns = _pimc_free()
    tab = build_tables(R4)
    for i in range(len(s)):
        a, alone = s.chosen[i]
        k = [j for j, (x, y) in enumerate(dec.options.tolist()) if x == a and (y < 0 or y == alone)]
        assert len(k) == 1
        own = _play_through(tab, 0, s.deals[i, :4].copy(), 0, TH, int(s.deals[i, 5]), pids, params, fns)
        assert s.points[i, k[0]].tolist() == own.tolist()


@pytest.mark.slow
def test_with_every_hand_known_dd_values_each_card_as_euchresim_solve_does(tmp_path):
    from euchresim.studies.solve import solve_records
    objs = _records(tmp_path, hands=30, seed=2)
    compared = 0
    for obj in objs:
        if obj["trump"] is None or len(obj["plays"]) < 8:
            continue
        cut = dict(obj, plays=obj["plays"][:5])
        for key in ("maker", "trump", "trick_winners", "tricks", "points"):
            cut.pop(key, None)
        solved = solve_records([cut])[0]
        sit = S.from_record(parse_record(cut), plays=5, known="all")
        dec = S.decision_of(sit)
        s = A.play_batch(sit, dec, _read("dd", sit), False, 1, 0, 0)
        got = {label: int(s.tricks[0, k]) for k, label in enumerate(dec.labels)}
        assert got == solved["dd_card_values"], (obj, got, solved["dd_card_values"])
        compared += 1
    assert compared >= 10


# ---------------------------------------------------------------- when it stops
def test_the_sequential_stop_wrongly_separates_equal_options_at_most_as_often_as_it_says():
    """Three options with the same mean (discrete, euchre-like points): a 'separated' stop is an error."""
    rng = np.random.default_rng(1)
    alpha, batch, max_batches = 0.05, 50, 16
    schedule = A.look_schedule(max_batches)
    z = sequential_z(alpha, 2, len(schedule))
    reps, wrong = 600, 0
    vals = np.array([-2, -1, 0, 1, 2, 4])
    probs = np.array([0.15, 0.05, 0.2, 0.4, 0.15, 0.05])
    for _ in range(reps):
        data = rng.choice(vals, p=probs, size=(batch * max_batches, 3)).astype(float)
        for upto in schedule:
            if A.separated(data[: upto * batch], z):
                wrong += 1
                break
    se = math.sqrt(alpha * (1 - alpha) / reps)
    assert wrong / reps <= alpha + 3 * se


def test_the_sequential_stop_finds_a_clearly_better_option():
    rng = np.random.default_rng(2)
    schedule = A.look_schedule(16)
    z = sequential_z(0.05, 2, len(schedule))
    data = rng.normal(0, 1, size=(800, 3))
    data[:, 1] += 0.5
    assert any(A.separated(data[: u * 50], z) for u in schedule)
    assert int(np.argmax(data.mean(axis=0))) == 1


def test_sequential_z_is_the_bonferroni_point():
    assert sequential_z(0.05, 1, 1) == pytest.approx(statistics.NormalDist().inv_cdf(0.95))
    assert sequential_z(0.05, 2, 5) == pytest.approx(statistics.NormalDist().inv_cdf(1 - 0.005))


def test_the_numbers_depend_on_the_seed_not_on_the_workers():
    sit = S.from_hand(R4, HAND1, TH, 1)
    a = A.advise(sit, seats(["heuristic"], sit.rules.players), samples=4000, batch=500, seed=4)
    b = A.advise(sit, seats(["heuristic"], sit.rules.players), samples=4000, batch=500, seed=4, workers=2)
    assert np.array_equal(a.samples.points, b.samples.points) and a.stopped == b.stopped
    c = A.advise(sit, seats(["heuristic"], sit.rules.players), samples=4000, batch=500, seed=5)
    assert not np.array_equal(a.samples.points[: len(c.samples)], c.samples.points[: len(a.samples)])


# ---------------------------------------------------------------- the command
def _advise(*args):
    return run(["advise", *args, "--quiet"])


def test_json_answer_has_the_documented_fields():
    res = _advise("--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "left", "--json", "--samples", "2000")
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert {"recommended", "stopped", "samples", "effective_samples", "actions"} <= set(out)
    assert [a["action"] for a in out["actions"]] == ["pass", "order", "order alone"]
    best = max(out["actions"], key=lambda a: a["points"])
    assert out["recommended"] == best["action"]
    for a in out["actions"]:
        assert a["points_ci"][0] <= a["points"] <= a["points_ci"][1]
        assert 0 <= a["win_probability_ci"][0] <= a["win_probability"] <= a["win_probability_ci"][1] <= 1


def test_round_two_offers_every_suit_but_the_turned_down_one_and_alone():
    res = _advise("--hand", "JH JD AH KS 9C", "--upcard", "TS", "--seat", "left", "--round", "2", "--json",
                  "--samples", "1000")
    assert res.exit_code == 0, res.output
    acts = [a["action"] for a in json.loads(res.output)["actions"]]
    assert acts == ["clubs", "clubs alone", "diamonds", "diamonds alone", "hearts", "hearts alone", "pass"]


def test_the_dealer_may_be_asked_its_discard():
    res = _advise("--hand", "AD KD QC TC 9S", "--upcard", "JD", "--seat", "dealer", "--calls", "order",
                  "--decision", "discard", "--json", "--samples", "1000")
    assert res.exit_code == 0, res.output
    acts = sorted(a["action"] for a in json.loads(res.output)["actions"])
    assert acts == sorted(["AD", "KD", "QC", "TC", "9S", "JD"])


@pytest.mark.parametrize("args, says", [
    (["--hand", "JH JD AH KS 7C", "--upcard", "TH", "--seat", "left"], "7C"),
    (["--hand", "JH JD AH KS JH", "--upcard", "TH", "--seat", "left"], "twice"),
    (["--hand", "JH JD AH KS 9C", "--upcard", "JH", "--seat", "left"], "also in --hand"),
    (["--hand", "JH JD AH KS", "--upcard", "TH", "--seat", "left"], "4 cards"),
    (["--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "partner", "--players", "3"], "--seat"),
    (["--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "left", "--round", "3"], "--round"),
    (["--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "left", "--score", "10-3"], "already won"),
    (["--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "partner", "--calls", "H"], "--calls"),
    (["--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "partner", "--calls", "pass,pass"], "seat"),
    (["--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "left", "--samples", "0"], "--samples"),
])
def test_bad_input_is_one_line_naming_it(args, says):
    res = _advise(*args)
    assert res.exit_code != 0
    line = one_error_line(res)
    assert says in line, line


def test_a_record_line_that_does_not_exist_is_one_line(tmp_path):
    _records(tmp_path, hands=3)
    res = _advise("--record", str(tmp_path / "r424.jsonl"), "--line", "9", "--after", "2")
    assert res.exit_code != 0
    assert "no line 9" in one_error_line(res)
    # the record's rules are the record's: a rule option beside it is refused, not silently dropped
    res = _advise("--record", str(tmp_path / "r424.jsonl"), "--line", "1", "--players", "3")
    assert "own rules" in one_error_line(res)
    res = _advise("--record", str(tmp_path / "r424.jsonl"), "--line", "1", "--after", "99")
    assert "cards played, not 99" in one_error_line(res)


def test_a_played_hand_is_reviewed_decision_by_decision_as_its_seats_saw_it(tmp_path):
    from euchresim.analysis.advisor_table import review_hand
    from euchresim.studies.record_text import decisions
    objs = _records(tmp_path, hands=12, seed=3)
    rec = next(parse_record(o) for o in objs if len(o["plays"]) == 20)
    review = review_hand(rec, seats(["heuristic"], 4), samples=500)
    steps = {d["step"]: d for d in decisions(rec)}
    plays = review[review["kind"] == "play"]
    assert len(plays) >= 10
    for _, r in plays.iterrows():
        assert r["did"] == steps[r["step"]]["action"]          # the card the record played at that step
        assert (r["gave_up"] == 0) == (r["did"] == r["best"])
    res = run(["show", str(tmp_path / "r424.jsonl"), "--line", "1", "--advise", "--samples", "200"])
    assert res.exit_code == 0, res.output
    assert "each decision from its seat's view" in res.output


@pytest.mark.parametrize("args, options", [
    # Cutthroat: the maker takes the dummy or goes alone
    (["--players", "3", "--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "left"],
     ["pass", "order, take the dummy", "order alone"]),
    # 2-hand: nobody goes alone
    (["--players", "2", "--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "opponent"], ["pass", "order"]),
    # the joker turned: the dealer names its suit (R7)
    (["--deck", "25", "--hand", "JH JD AH KS 9C", "--upcard", "JK", "--seat", "dealer", "--calls", ""],
     ["C", "D", "H", "S"]),
    # a lone maker on the left: the dealer's partner may defend alone
    (["--defend-alone", "--hand", "JH JD AH KS 9C", "--upcard", "TS", "--seat", "partner", "--calls", "order",
      "--alone", "left", "--decision", "defend_alone"], ["defend with partner", "defend alone"]),
])
def test_every_kind_of_decision_gets_its_options(args, options):
    res = _advise(*args, "--json", "--samples", "300")
    assert res.exit_code == 0, res.output
    assert [a["action"] for a in json.loads(res.output)["actions"]] == options


def test_a_cutthroat_dummy_keep_needs_the_dummy_and_then_offers_every_five_of_ten():
    args = ["--players", "3", "--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "left", "--calls", "order",
            "--decision", "dummy_keep"]
    assert "--dummy" in one_error_line(_advise(*args))
    res = _advise(*args, "--dummy", "QH KH AS QS 9D", "--json", "--samples", "50")
    assert res.exit_code == 0, res.output
    assert len(json.loads(res.output)["actions"]) == math.comb(10, 5)


def test_several_models_side_by_side_and_dd_named_a_cheating_bound():
    res = _advise("--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "left", "--models", "heuristic,dd",
                  "--samples", "100")
    assert res.exit_code == 0, res.output
    assert "== dd (sees every card: a cheating bound)" in res.output
    assert "the models agree" in res.output or "the models disagree" in res.output
    res = _advise("--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "left", "--models", "heuristic,dd",
                  "--samples", "100", "--json")
    assert res.exit_code == 0, res.output
    assert [(m["policy"], m["cheating"]) for m in json.loads(res.output)["models"]] == [("heuristic", False),
                                                                                        ("dd", True)]


def test_the_win_model_is_kept_on_disk_and_read_back(tmp_path, monkeypatch):
    from euchresim.analysis import advisor_table as advice
    import euchresim.engine as engine
    monkeypatch.setattr(engine, "cache_dir", lambda: str(tmp_path))     # a cache folder of our own
    rules = Rules(game_to=5)
    V = advice.win_model.__wrapped__(rules, seats("baseline", 4), 500, 3)
    assert list(tmp_path.rglob("winmodel-*.npy"))
    import euchresim.run.runner as runner

    def boom(*a, **k):
        raise AssertionError("played hands instead of reading the model")
    monkeypatch.setattr(runner, "play_chunk", boom)
    assert np.array_equal(advice.win_model.__wrapped__(rules, seats("baseline", 4), 500, 3), V)
    with pytest.raises(AssertionError):
        advice.win_model.__wrapped__(rules, seats("baseline", 4), 501, 3)     # another model: played, not read


@pytest.mark.slow
def test_a_cold_first_run_says_it_is_compiling_and_then_that_it_makes_the_win_model(tmp_path, monkeypatch):
    """What a fresh install prints while it works, in order: the compile notice before the hand is read (it
    runs the kernels), the P(win) model when one has to be played; never a silent wait with no word."""
    import euchresim.cli.advise as cli_advise
    import euchresim.engine as engine
    from euchresim.cli.options import COMPILING
    monkeypatch.setattr(cli_advise, "_advisor_compiled", lambda: False)      # as on a fresh install
    monkeypatch.setattr(engine, "cache_dir", lambda: str(tmp_path))          # no P(win) model kept yet
    r = run(["advise", "--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "left", "--policy", "baseline",
             "--model-hands", "100", "--samples", "200", "--game-to", "5"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    making = [i for i, ln in enumerate(lines) if ln.startswith("making the P(win) model: 100 hands of baseline")]
    assert lines[0] == COMPILING and making and making[0] < next(i for i, ln in enumerate(lines) if "best" in ln)
    monkeypatch.setattr(cli_advise, "_advisor_compiled", lambda: True)       # the second run: nothing of either
    monkeypatch.setattr(engine, "kernels_cached", lambda: True)   # the hot loop too (cache_dir above is empty)
    again = run(["advise", "--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "left", "--policy", "baseline",
                 "--model-hands", "100", "--samples", "200", "--game-to", "5"])
    assert again.exit_code == 0 and COMPILING not in again.output and "making the P(win)" not in again.output


@pytest.mark.slow
def test_the_advisors_own_stop_spends_its_error_over_every_look_it_takes():
    """advise() itself, not a copy of its rule: with three options equal in mean (their values drawn afresh
    for each seed, whatever the deals), a 'separated' stop is an error, and over 300 seeds it happens at most
    alpha of the time (within 3 binomial standard errors). The schedule has 5 looks here; a rule that spent
    alpha on one look (the bug an example caught) errs about twice as often as allowed, which this fails."""
    sit = S.from_hand(R4, HAND1, TH, 1)
    alpha, batch, samples = 0.2, 25, 1600
    looks = len(A.look_schedule(samples // batch, -(-A.MIN_STOP_DEALS // batch)))
    assert looks == 5
    reps, wrong = 300, 0
    vals = np.array([-2.0, -1.0, 1.0, 2.0, 4.0])
    probs = np.array([0.2, 0.1, 0.45, 0.2, 0.05])
    for rep in range(reps):
        data = np.random.default_rng(1000 + rep).choice(vals, p=probs, size=(samples, 3))

        def value(got, data=data):
            return data[: len(got)]
        adv = A.advise(sit, seats(["heuristic"], sit.rules.players), samples=samples, batch=batch, seed=0, alpha=alpha, value=value)
        assert adv.looks == looks
        wrong += adv.stopped == "separated"
    se = math.sqrt(alpha * (1 - alpha) / reps)
    assert wrong / reps <= alpha + 3 * se, wrong


def test_a_stop_said_to_stand_apart_shows_a_gap_interval_clear_of_zero():
    """'stopped when the best stood apart' beside a gap interval holding 0 ([-0.1, +2.2]) was the stop
    ignoring its looks: the interval shown is the stop's own (interval_z), so a separated stop's gap to the
    next best is clear of 0 in the measure that decided."""
    from euchresim.analysis.advisor_table import advice_table, interval_z
    from euchresim.stats import sequential_z as z_of
    for hand, up, pos, calls in (("QC KD KS JH TD", "JS", 0, None), ("JH JD AH KS 9C", "TH", 1, None),
                                 ("AS KS AH QD 9C", "JS", 1, (0, 0, 0, 1))):
        sit = S.from_hand(R4, parse_board(hand.split(), 24), parse_card(up, 24), pos, calls)
        adv = A.advise(sit, seats(["heuristic"], sit.rules.players), samples=4000, seed=3)
        table = advice_table(adv)
        # the stop's one-sided z over k - 1 rivals and the looks is at least the shown interval's z
        assert z_of(adv.alpha, max(1, len(adv.decision.options) - 1), adv.looks) >= interval_z(adv)
        if adv.stopped == "separated":
            rest = table.loc[~table["best"] & ~table["equal"]]
            assert (rest["gap_low"] > 0).all(), table[["action", "gap", "gap_low", "gap_high"]]


@pytest.mark.parametrize("words", [
    dict(hand="JH JD AH KS", upcard="TH", seat="left"),
    dict(hand="JH JD AH KS 9C", upcard="JH", seat="left"),
    dict(hand="JH JD AH KS 9C", upcard="TH", seat="seat 2"),
    dict(hand="JH JD AH KS 9C", upcard="TH", seat="left", calls="pass,pass,pass,pass", rnd="2", dummy="9H"),
    dict(hand="JH JD AH KS 9C", upcard="TH", seat="dealer", score="10-2"),
    dict(hand=None, upcard="TH", seat="left", rnd="2"),
])
def test_a_script_reads_a_players_words_as_advise_does(words):
    """``situation_words.situation_from_words`` refuses what ``advise`` refuses, with the line it prints."""
    from euchresim.studies.advisor.situation import AdviceError
    from euchresim.studies.advisor.situation_words import situation_from_words
    flags = {"hand": "--hand", "upcard": "--upcard", "seat": "--seat", "calls": "--calls", "rnd": "--round",
             "dummy": "--dummy", "score": "--score"}
    args = [x for k, v in words.items() if v is not None for x in (flags[k], v)]
    line = one_error_line(run(["advise", *args, "--policy", "baseline"]))
    with pytest.raises(AdviceError) as e:
        situation_from_words(Rules(), **{k: words.get(k) for k in ("hand", "upcard", "seat")},
                             **{k: v for k, v in words.items() if k not in ("hand", "upcard", "seat")})
    assert line == f"euchresim: error: {e.value}"


def test_a_script_gets_the_situation_line_advise_prints():
    """The first line of ``advise``'s answer is ``advice_text.describe`` of the situation the words make."""
    from euchresim.analysis.advice_text import describe
    from euchresim.studies.advisor.situation_words import situation_from_words
    r = run(["advise", "--hand", "AD KD QC TC 9S", "--upcard", "JD", "--seat", "dealer", "--score", "6-8",
             "--calls", "pass,pass,pass", "--policy", "baseline", "--samples", "100", "--fixed", "--quiet"])
    assert r.exit_code == 0, r.output
    sit = situation_from_words(Rules(), "AD KD QC TC 9S", "JD", "dealer", calls="pass,pass,pass", score="6-8")
    assert r.stdout.splitlines()[0] == describe(sit)
    assert "score" in describe(sit) and "calls so far: pass, pass, pass" in describe(sit)


def test_a_script_gets_the_whole_answer_advise_prints():
    """``advice_text.answer`` then ``answers_text`` is ``advise``'s text word for word: the P(win) model, the
    stop on it and the table are the library's, not the command's (a score set, so the model decides)."""
    from euchresim.analysis.advice_text import answer, answers_text
    from euchresim.policies import seats
    from euchresim.studies.advisor.situation_words import situation_from_words
    r = run(["advise", "--hand", "JH JD AH KS 9C", "--upcard", "TH", "--seat", "left", "--score", "8-9",
             "--policy", "baseline", "--samples", "300", "--model-hands", "200", "--seed", "3", "--quiet"])
    assert r.exit_code == 0, r.output
    sit = situation_from_words(Rules(), "JH JD AH KS 9C", "TH", "left", score="8-9")
    adv, table = answer(sit, seats("baseline", 4), "baseline", model_hands=200, seed=3, samples=300)
    assert r.stdout.rstrip("\n") == answers_text(sit, [("baseline", adv, table)])
    assert "win" in r.stdout          # the table is the P(win) one: the model was used
