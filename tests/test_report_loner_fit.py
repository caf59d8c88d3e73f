"""The loner report's check that a bot goes alone where it pays (report/loner.py, _alone_where_it_pays)."""
import pandas as pd

from euchresim.report.loner import _alone_where_it_pays


def test_classes_are_judged_by_their_interval_and_dd_is_left_out():
    rows = [("heuristic", "maker", "4+T RL", 500, 0.9, 0.8, 1.0, 0.8),      # pays
            ("heuristic", "maker", "2T -", 900, -0.8, -0.9, -0.7, 0.0),      # costs
            ("heuristic", "maker", "4+T L", 300, 0.0, -0.1, 0.1, 0.2),       # cannot tell
            ("heuristic", "maker", "3T RL", 150, 0.3, 0.2, 0.4, 0.1),        # too few deals
            ("heuristic", "defender", "2T -", 900, -0.5, -0.6, -0.4, 0.0),   # a defender: not a maker's class
            ("dd", "maker", "4+T RL", 900, 1.0, 0.9, 1.1, 0.9)]              # dd's choice is not its own
    by_class = pd.DataFrame(rows, columns=["policy", "who", "hand_class", "n", "gain", "ci_low", "ci_high",
                                           "policy_chose"])
    fit = _alone_where_it_pays(by_class)
    assert fit[["hand_class", "verdict", "alone_rate"]].values.tolist() == [
        ["4+T RL", "pays", 0.8], ["2T -", "costs", 0.0], ["4+T L", "cannot tell", 0.2]]
