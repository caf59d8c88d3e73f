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


CALLS_DOC = """# Policies

### `best`'s calls in every variant

```bash
euchresim duel best best:search_bids=0 --games 1000 --seed 33 --workers 1 --players 3    # and --deck 25
```

| variant | before: points a hand | 95% interval | today's `best`, `pimc:bid_worlds=100:max_worlds=200`: points a hand | 95% interval | games won | 95% interval |
|---|---|---|---|---|---|---|
| Cutthroat, 24 cards | −0.052 | −0.086 – −0.018 | **+0.064** | +0.034 – +0.095 | 55.8% | 53.1% – 58.6% |
| Cutthroat, 25 cards (joker) | −0.077 | −0.111 – −0.043 | +0.024 | −0.003 – +0.051 | 55.8% | 53.0% – 58.6% |

```bash
euchresim duel best best:search_bids=0 --games 1000 --seed 33 --workers 1 --players 2 --deck 25
```

| variant | today's `best`, `pimc:bid_worlds=100:max_worlds=200`: points a hand | 95% interval | games won | 95% interval | `pimc:bid_worlds=100`: points a hand | 95% interval |
|---|---|---|---|---|---|---|
| 4 players, 24 cards | **+0.061** | +0.044 – +0.078 | 54.3% | 52.1% – 56.5% | +0.069 | +0.051 – +0.087 |
| 2-hand, 25 cards (joker) | **+0.070** | +0.057 – +0.083 | 57.2% | 55.2% – 59.2% | +0.072 | +0.058 – +0.086 |
| 4 players, 24 cards, stick the dealer | **+0.063** | +0.046 – +0.081 | 55.1% | 52.9% – 57.3% | +0.068 | +0.050 – +0.086 |

```bash
euchresim duel best best:search_bids=0 --games 12000 --seed 35 --workers 1 --players 3 --deck 25
```

| variant | games | today's `best`, `pimc:bid_worlds=100:max_worlds=200`: points a hand | 95% interval | games won | 95% interval |
|---|---|---|---|---|---|
| Cutthroat, 25 cards (joker) | 12,000 | **+0.030** | +0.022 – +0.037 | 55.5% | 54.7% – 56.2% |

### Another subsection

| variant | today's `best`, `pimc:bid_worlds=100:max_worlds=200`: points a hand | 95% interval |
|---|---|---|
| 4 players, 32 cards | +9.999 | +9.9 – +9.9 |
"""


def test_a_models_calls_in_every_variant_are_read_from_the_columns_naming_it(tmp_path):
    """Per plain variant the line with the most games (the variant's other duels under ``others``), from the
    column headed by the bot's definition, its duel line written out with the variant's own --players and
    --deck; another definition's column and another section are not read, nor a variant with an option (stick
    the dealer)."""
    from euchresim.report.strength import variant_calls
    p = tmp_path / "policies.md"
    p.write_text(CALLS_DOC, encoding="utf-8")
    got = variant_calls("pimc:bid_worlds=100:max_worlds=200", str(p))
    assert set(got) == {(3, 24), (3, 25), (4, 24), (2, 25)}
    assert got[(3, 25)] == {"games": 12000, "gain": "+0.030", "interval": "+0.022 – +0.037", "won": "55.5%",
                            "won_interval": "54.7% – 56.2%",
                            "command": "euchresim duel pimc:bid_worlds=100:max_worlds=200 "
                                       "pimc:bid_worlds=100:max_worlds=200:search_bids=0 --games 12000 --seed 35 "
                                       "--workers 1 --players 3 --deck 25",
                            "others": [{"games": 1000, "gain": "+0.024", "interval": "−0.003 – +0.051",
                                        "won": "55.8%", "won_interval": "53.0% – 58.6%",
                                        "command": "euchresim duel pimc:bid_worlds=100:max_worlds=200 "
                                                   "pimc:bid_worlds=100:max_worlds=200:search_bids=0 --games 1000 "
                                                   "--seed 33 --workers 1 --players 3 --deck 25"}]}
    assert got[(3, 24)]["others"] == [] and got[(4, 24)]["others"] == []
    assert got[(3, 24)]["gain"] == "+0.064" and got[(3, 24)]["command"].endswith("--workers 1 --players 3")
    assert got[(4, 24)]["command"].endswith("--seed 33 --workers 1")          # 4 players, 24 cards: no option
    assert got[(2, 25)]["command"].endswith("--players 2 --deck 25")
    old = variant_calls("pimc:bid_worlds=100", str(p))                       # that definition's own column
    assert set(old) == {(4, 24), (2, 25)} and old[(4, 24)]["gain"] == "+0.069"
    assert old[(4, 24)]["won"] is None                          # the games-won column beside is today's, not its
    assert old[(4, 24)]["command"].startswith("euchresim duel pimc:bid_worlds=100 pimc:bid_worlds=100:search_bids=0")
    assert variant_calls("heuristic", str(p)) == {}


def test_the_projects_docs_measure_bests_calls_in_all_twelve_variants_of_the_decks_report():
    from euchresim.report.decks import PACKS, PLAYERS
    from euchresim.report.strength import variant_calls
    from euchresim.policies import canonical
    best = canonical("best")                        # today's: when best moves, its docs must be measured again
    got = variant_calls(best)
    assert set(got) == {(p, d) for p in PLAYERS for d in PACKS}
    assert all(c["command"].startswith(f"euchresim duel {best} ") for c in got.values())
