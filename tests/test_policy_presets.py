"""Presets (policies/presets.py): a name for settings, and the call rates ``heuristic:human`` was fitted to."""
import math

import numpy as np
import pytest

from euchresim.policies import PolicyError, resolve
from euchresim.policies.presets import HUMAN_MEASURED, HUMAN_TARGETS, PRESETS  # noqa: F401  (the targets: docs)
from euchresim.rules import Rules
from euchresim.run.runner import play_chunk
from tests.helpers import run_spec


def test_a_preset_is_its_settings_written_out():
    settings = PRESETS["heuristic"]["human"]
    spelled = "heuristic:" + ":".join(f"{k}={v}" for k, v in settings.items())
    _, by_name, canon = resolve(["heuristic:human"], 4)
    _, by_hand, canon2 = resolve([spelled], 4)
    assert np.array_equal(by_name, by_hand) and canon == canon2
    assert "human" not in canon[0] and "order_4=6.899" in canon[0]
    _, plain, _ = resolve(["heuristic"], 4)
    assert not np.array_equal(plain, by_name)
    # a later setting still wins, as KEY=VALUE parts do in order
    _, later, _ = resolve(["heuristic:human:order_1=9"], 4)
    assert later[0][0] == 9


def test_an_unknown_preset_names_the_known_ones():
    with pytest.raises(PolicyError, match="its presets: human"):
        resolve(["heuristic:robot"], 4)


def test_human_calls_in_round_one_at_the_rates_the_fit_measured():
    """On a fresh seed, each seat's round-one order rate agrees with the fit's within 3 standard errors."""
    n = HUMAN_MEASURED["hands"]
    spec = run_spec(Rules(), ("heuristic:human",), seed=HUMAN_MEASURED["seed"] + 1000, count=n, chunk_size=50_000)
    counts = dict.fromkeys(HUMAN_TARGETS, 0)
    for i in range(spec.n_chunks):
        h = play_chunk(spec, i).hands
        pos = (h["maker"] - h["dealer"]) % 4
        for p in counts:
            counts[p] += int(np.sum((h["make_round"] == 1) & (pos == p)))
    for p, then in HUMAN_MEASURED["rates"].items():
        now = counts[p] / n
        se = math.sqrt(2 * then * (1 - then) / n)           # the difference of two independent rates
        assert abs(now - then) < 3 * se, (p, now, then)
