"""The reports' verdicts read off a table of cells, each judged by its interval: the order-up report beside
heuristic:human (report/order_up.py: labels, and where the answer changes) and the loner report's check that a
bot goes alone where it pays (report/loner.py, _alone_where_it_pays)."""
import pandas as pd

from euchresim.report.loner import _alone_where_it_pays
from euchresim.report.order_up_text import _heat_name, _label, _like_people


def test_two_variants_of_one_policy_get_distinct_labels_and_files():
    pols = ["heuristic", "pimc:worlds=20", "heuristic:human"]
    assert [_label(p, pols) for p in pols] == ["heuristic", "pimc", "heuristic_1"]
    assert len({_heat_name(p, pols) for p in pols}) == 3


def _row(policy, pos, cls, n, gain, lo, hi):
    return {"policy": policy, "round": 1, "position": pos, "hand_class": cls, "n": n, "gain": gain,
            "ci_low": lo, "ci_high": hi, "right": 0.5, "right_low": 0.4, "right_high": 0.6}


def test_a_class_flips_only_when_the_sign_changes_with_both_intervals_clear_of_zero():
    from euchresim.policies import canonical        # the report's ctx.canonical, for the models it read
    rows = [_row("heuristic", "partner", "2T -", 900, -0.1, -0.15, -0.05),
            _row("heuristic:human", "partner", "2T -", 900, 0.2, 0.15, 0.25),      # flips
            _row("heuristic", "partner", "2T L", 900, -0.1, -0.15, -0.05),
            _row("heuristic:human", "partner", "2T L", 900, 0.05, -0.01, 0.11),    # interval holds 0: no flip
            _row("heuristic", "dealer", "3T R", 900, 1.0, 0.9, 1.1),
            _row("heuristic:human", "dealer", "3T R", 900, 1.2, 1.1, 1.3),         # same sign
            _row("heuristic", "left", "3T R", 100, -0.3, -0.5, -0.1),
            _row("heuristic:human", "left", "3T R", 100, 0.3, 0.1, 0.5)]           # too few deals
    by_class = pd.DataFrame(rows)
    by_pos = by_class.groupby(["policy", "round", "position"], as_index=False).first()
    text, both = _like_people(by_pos, by_class, ["heuristic", "heuristic:human"], 4,
                              ["left", "partner", "right", "dealer"], canonical)
    assert both.loc[both["flips"], ["position", "hand_class"]].values.tolist() == [["partner", "2T -"]]
    assert len(both) == 3
    assert any("changes at 1," in t for t in text)
    assert _like_people(by_pos, by_class, ["heuristic"], 4, ["left"], canonical) is None      # only with both


# ---- the loner report: goes alone where it pays

def test_classes_are_judged_by_their_interval_and_dd_is_left_out():
    rows = [("heuristic", "maker", "4+T RL", 500, 0.9, 0.8, 1.0, 0.8),      # pays
            ("heuristic", "maker", "2T -", 900, -0.8, -0.9, -0.7, 0.0),      # costs
            ("heuristic", "maker", "4+T L", 300, 0.0, -0.1, 0.1, 0.2),       # cannot tell
            ("heuristic", "maker", "3T RL", 150, 0.3, 0.2, 0.4, 0.1),        # too few deals
            ("heuristic", "defender", "2T -", 900, -0.5, -0.6, -0.4, 0.0),   # a defender: not a maker's class
            ("dd", "maker", "4+T RL", 900, 1.0, 0.9, 1.1, 0.9)]              # dd's choice is not its own
    by_class = pd.DataFrame(rows, columns=["policy", "who", "hand_class", "n", "gain", "ci_low", "ci_high",
                                           "policy_chose"])
    fit = _alone_where_it_pays(by_class, cheats=["dd"])         # the models say dd cheats (ReportContext.models)
    assert fit[["hand_class", "verdict", "alone_rate"]].values.tolist() == [
        ["4+T RL", "pays", 0.8], ["2T -", "costs", 0.0], ["4+T L", "cannot tell", 0.2]]
