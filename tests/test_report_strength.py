"""Each report says how strong its main model is, quoting docs/policies.md's measurements with their commands."""
from euchresim.report.strength import strength_lines, strength_text

DOC = """# Policies

## Which is stronger

```bash
euchresim duel heuristic baseline --games 2000 --seed 1
euchresim duel pimc:bid_worlds=100 pimc --games 2000 --seed 2      # a comment
euchresim duel best:alone_by=fair best --games 2000 --seed 37
```

| A | B | A's games won | 95% interval | A's points less B's, per hand | 95% interval | time |
|---|---|---|---|---|---|---|
| `heuristic` | `baseline` | **56.4%** | 54.7% – 58.0% | +0.070 | +0.057 – +0.083 | 2 s |
| `pimc:bid_worlds=100` | `pimc` | **54.4%** | 52.7% – 56.0% | +0.046 | +0.033 – +0.060 | 5 min |
| `dd` (cheats) | `heuristic` | 94.6% | 93.6% – 95.5% | +0.669 | +0.653 – +0.685 | 4 s |

### A subsection

| A | B | games, seed | A's games won | 95% interval | points a hand | 95% interval |
|---|---|---|---|---|---|---|
| `best:alone_by=fair` | `best` | 2,000, 37 | 49.4% | 48.3% – 50.4% | −0.002 | −0.011 – +0.006 |
| `pimc:max_worlds=200:bid_worlds=100` | `pimc:bid_worlds=100` | 2,000, 39 | **52.6%** | 51.2% – 54.0% | +0.027 | +0.015 – +0.040 |

| ours | against | deals, seed | points a hand | 95% interval | ms a decision, ours / theirs |
|---|---|---|---|---|---|
| `best` (`pimc:bid_worlds=100`) | IS-MCTS 1,000 | 2,000, 12 | **+0.200** | +0.161 – +0.239 | 1.7 / 7.5 |
| `best` | IS-MCTS 1,000 | 600, 11 | +0.9 | +0.8 – +1.0 | 1 / 1 |

## dd

| A | B | A's games won | 95% interval | A's points less B's, per hand | 95% interval | time |
|---|---|---|---|---|---|---|
| `heuristic` | `random` | 99.9% | 99.8% – 100% | +1.227 | +1.208 – +1.247 | 2 s |
"""


def _doc(tmp_path):
    path = tmp_path / "policies.md"
    path.write_text(DOC, encoding="utf-8")
    return str(path)


def test_a_models_duels_and_matches_are_quoted_with_their_commands(tmp_path):
    path = _doc(tmp_path)
    assert strength_lines("heuristic", path) == [
        "against `baseline` it wins 56.4% of duplicate games (54.7% – 58.0%), +0.070 points a hand "
        "(+0.057 – +0.083): `euchresim duel heuristic baseline --games 2000 --seed 1`"]   # not the table after ##
    mine = strength_lines("pimc:bid_worlds=100", path)
    assert mine == [
        "against `pimc` it wins 54.4% of duplicate games (52.7% – 56.0%), +0.046 points a hand (+0.033 – +0.060): "
        "`euchresim duel pimc:bid_worlds=100 pimc --games 2000 --seed 2`",
        "against OpenSpiel's IS-MCTS at 1,000 simulations, +0.200 points a hand (+0.161 – +0.239) on 2,000 deals: "
        "`euchresim duel pimc:bid_worlds=100 openspiel:ismcts:sims=1000 --deals 2000 --seed 12`"]


def test_a_bot_is_matched_by_its_settings_and_a_line_naming_best_is_never_evidence(tmp_path):
    """``best`` moves: a line that names it was measured against the best of its day. The order of settings
    and a setting given twice do not make another bot."""
    path = _doc(tmp_path)
    lines = strength_lines("pimc:bid_worlds=100:max_worlds=200:max_worlds=200", path)
    assert lines == ["against `pimc:bid_worlds=100` it wins 52.6% of duplicate games (51.2% – 54.0%), +0.027 "
                     "points a hand (+0.015 – +0.040)"]          # no command line plays that pair
    assert all("+0.9" not in x and "49.4%" not in x for x in strength_lines("best", path))
    assert strength_lines("baseline", path) == []


def test_the_paragraph_points_to_the_docs_when_nothing_is_measured(tmp_path):
    path = _doc(tmp_path)
    assert strength_text("baseline", path=path).startswith("How strong baseline is, against the other bots")
    assert strength_text("nonesuch", path=path).startswith("How strong nonesuch is, against")
    assert strength_text("heuristic", path=str(tmp_path / "missing.md")).startswith("How strong heuristic is, ag")
    said = strength_text("pimc:bid_worlds=100", "best", path)
    assert said.startswith("How strong best is (docs/policies.md, 'Which is stronger', 4 players, 24 cards): "
                           "against `pimc` it wins 54.4%") and "not deterministic" in said


def test_every_explicit_line_of_the_projects_docs_is_quoted_for_its_bot():
    """On docs/policies.md itself: each duel line whose two bots are named by their settings is in the A
    bot's paragraph (the parser misses no table of the section)."""
    import os
    import re
    from euchresim.report.strength import DOCS, SECTION
    text = open(DOCS, encoding="utf-8").read()
    section = text[text.index(SECTION):]
    section = section[:section.index("\n## ", 1)]
    rows = [line for line in section.splitlines() if re.match(r"\| `(?!best)[^`]+`[^|]*\| `(?!best)[^`]+` \|", line)]
    assert len(rows) >= 10 and os.path.exists(DOCS)
    for row in rows:
        a = re.findall(r"`([^`]+)`", row.split("|")[1])[-1]
        won = row.split("|")[3 if "%" in row.split("|")[3] else 4].strip().strip("*")
        assert any(f"wins {won} " in x for x in strength_lines(a)), row
