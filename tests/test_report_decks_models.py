"""The decks report with several play models: every variant's headline rates under each, side by side."""
import json
import shutil

import pandas as pd
import pytest
from click.testing import CliRunner

from euchresim.analysis import summary_frame
from euchresim.cli.app import cli
from euchresim.report.decks import PACKS, PLAYERS, variant_rules
from euchresim.report.decks_models import HEADLINE
from euchresim.rules import Rules
from euchresim.run import runner

VARIANTS = {(p, d) for p in PLAYERS for d in PACKS}


def _report(out, *extra):
    r = CliRunner().invoke(cli, ["report", "decks", "--hands", "1000", "--seed", "7", "--workers", "1", "--quiet",
                                 "--out", str(out), *extra])
    assert r.exit_code == 0, (r.output, r.exception)
    return out


@pytest.mark.slow
def test_two_models_every_variant_as_a_direct_run_and_resumable(tmp_path):
    out = _report(tmp_path / "d", "--policy", "heuristic", "--policy", "baseline", "--model-hands", "1000")
    t = pd.read_csv(out / "decks_models.csv")
    for pol in ("heuristic", "baseline"):
        mine = t[t["policy"] == pol]
        assert set(zip(mine["players"], mine["deck"], mine["statistic"])) == {
            (p, d, s) for p, d in VARIANTS for s in HEADLINE}
    assert (t["hands"] == 1000).all()
    # the main model's rows are the summary's
    s = pd.read_csv(out / "decks_summary.csv").set_index(["players", "deck", "statistic"])
    h = t[t["policy"] == "heuristic"].set_index(["players", "deck", "statistic"])
    for key in ("made in round one", "made in round two", "makers took 3+", "march"):
        for p, d in VARIANTS:
            if (p, d, key) in s.index:
                assert int(h.loc[(p, d, key), "count"]) == int(s.loc[(p, d, key), "count"]), (p, d, key)
    # the second model's rows are those of a direct run of it: the same seed, the same chunking
    b = t[t["policy"] == "baseline"].set_index(["players", "deck", "statistic"])
    for p, d in sorted(VARIANTS):
        spec = runner.RunSpec(rules=variant_rules(Rules(), p, d), policies=("baseline",), seed=7, count=1000,
                              chunk_size=1000)
        c = runner.run(spec, workers=1)
        f = summary_frame(c, p).set_index("statistic")
        r1 = sum(c.get(f"made_r1_pos{k}", 0) for k in range(p))
        assert int(b.loc[(p, d, "made in round one"), "count"]) == r1
        for stat, row in (("made in round two", "made round 2"), ("makers took 3+", "makers took 3+ tricks"),
                          ("euchred", "makers euchred"), ("march", "march")):
            assert int(b.loc[(p, d, stat), "count"]) == int(f.loc[row, "count"]), (p, d, stat)
            assert int(b.loc[(p, d, stat), "of"]) == int(f.loc[row, "of"]), (p, d, stat)
    meta = json.loads((out / "meta.json").read_text())
    assert meta["policies"] == ["heuristic", "baseline"] and meta["model_hands"] == [1000]
    assert "decks_models.csv" in meta["tables"]
    assert {f"decks_models_{n}.png" for n in ("euchred", "march", "makers_took_3")} <= set(meta["charts"])
    readme = (out / "README.md").read_text()
    assert "1,000 hands for heuristic, 1,000 for baseline" in readme
    # heuristic makes trump in round one at 3 players far more often than baseline (R: it orders on fewer trumps)
    line = [x for x in readme.splitlines() if x.startswith("- 3 players, 24 cards: heuristic")][0]
    assert ("— differ" in line) == (h.loc[(3, 24, "made in round one"), "ci_low"]
                                    > b.loc[(3, 24, "made in round one"), "ci_high"]
                                    or b.loc[(3, 24, "made in round one"), "ci_low"]
                                    > h.loc[(3, 24, "made in round one"), "ci_high"])
    # lose the second model's work, resume: the same tables
    before = {f: (out / f).read_bytes() for f in meta["tables"]}
    lost = 0
    for d in (out / "_work").glob("decks-hands-*"):
        m = json.loads((d / "_manifest.json").read_text())["report_work"]
        if m["policies"][0] == "baseline":
            shutil.rmtree(d)
            lost += 1
    assert lost == 12
    _report(out, "--policy", "heuristic", "--policy", "baseline", "--model-hands", "1000", "--resume")
    assert {f: (out / f).read_bytes() for f in meta["tables"]} == before


@pytest.mark.slow
def test_a_search_bot_plays_every_variant(tmp_path):
    """pimc (the base of `best`) plays 2 and 3 players, 32 and 33 cards and the joker, in chunks of 250 hands."""
    out = _report(tmp_path / "p", "--policy", "heuristic", "--policy", "pimc:worlds=2", "--model-hands", "300")
    t = pd.read_csv(out / "decks_models.csv")
    mine = t[t["policy"] == "pimc:worlds=2"]
    assert set(zip(mine["players"], mine["deck"])) == VARIANTS
    assert (mine["hands"] == 300).all()
    kept = [json.loads((d / "_manifest.json").read_text()) for d in (out / "_work").glob("decks-hands-*")]
    searched = [m for m in kept if m["report_work"]["policies"][0] == "pimc:worlds=2"]
    assert len(searched) == 12
    assert all(m["report_work"]["chunk_size"] == 250 and len(m["chunks"]) == 2 for m in searched)
    assert all(m["report_work"]["chunk_size"] == 1000 for m in kept if m not in searched)
    assert "refused" not in (out / "README.md").read_text()
