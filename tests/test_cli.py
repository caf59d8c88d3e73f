"""The command line: help everywhere, one-line errors, the main jobs end to end."""
import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from euchresim.cli.app import cli, main


def run(args, input=None):
    """Run through main() so errors are formatted exactly as users see them."""
    runner = CliRunner()
    return runner.invoke(_Main(), args, input=input)


class _Main:
    """Adapter so CliRunner drives main() (our one-line error handling)."""
    name = "euchresim"

    def main(self, args=None, prog_name=None, **kw):
        main(list(args))
        sys.exit(0)


def test_every_command_has_help_with_an_example():
    for name, cmd in cli.commands.items():
        r = CliRunner().invoke(cli, [name, "--help"])
        assert r.exit_code == 0, name
        assert "Example" in r.output, name


def test_help_does_not_import_the_engine():
    code = "import sys; from euchresim.cli import cli; print('numba' in sys.modules, 'pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False False"


def test_simulate_json_summary():
    r = run(["simulate", "--hands", "3000", "--seed", "1", "--workers", "1", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["counts"]["hands"] == 3000
    stats = {s["statistic"]: s for s in d["summary"]}
    assert 0 < stats["makers euchred"]["value"] < 1
    assert d["meta"]["seed"] == 1


def test_simulate_table_names_positions():
    r = run(["simulate", "--players", "3", "--deck", "25", "--hands", "2000", "--workers", "1",
             "--policy", "baseline"])
    assert r.exit_code == 0, r.output
    assert "made round 1 by left" in r.output and "points per hand, dealer" in r.output


@pytest.mark.parametrize("args,needle", [
    (["simulate", "--players", "3", "--defend-alone", "--hands", "10"], "defend_alone"),
    (["simulate", "--deck", "24", "--joker-upcard", "redeal", "--hands", "10"], "R7"),
    (["simulate", "--policy", "nosuch", "--hands", "10"], "unknown policy"),
    (["simulate", "--policy", "random,baseline", "--hands", "10"], "one per seat"),
    (["simulate", "--players", "5"], "--players"),
    (["simulate", "--hands", "10", "--games", "3"], "only one of"),
    (["simulate", "--players", "2", "--rubbers", "3"], "R13"),
    (["simulate", "--scoring", "/nonexistent.json", "--hands", "10"], "cannot read"),
    (["replay", "/nonexistent.jsonl"], "cannot read"),
])
def test_bad_input_is_one_line_and_nonzero(args, needle):
    from euchresim.cli.options import COMPILING
    r = run(args)
    assert r.exit_code != 0
    lines = [ln for ln in r.output.splitlines() if ln.strip() and ln != COMPILING]
    assert len(lines) == 1, r.output
    assert needle in lines[0]
    assert "Traceback" not in r.output


def test_records_replay_to_identical_outcomes(tmp_path):
    rec = tmp_path / "h.jsonl"
    for players, deck in [(4, 25), (3, 33), (2, 24)]:
        r = run(["simulate", "--players", str(players), "--deck", str(deck), "--hands", "400",
                 "--workers", "1", "--records", str(rec), "--json", "--force"])
        assert r.exit_code == 0, r.output
        out = tmp_path / f"o{players}.jsonl"
        r = run(["replay", str(rec), "-o", str(out)])
        assert r.exit_code == 0, r.output
        a = [json.loads(x) for x in rec.read_text().splitlines()]
        b = [json.loads(x) for x in out.read_text().splitlines()]
        assert len(a) == len(b) == 400
        assert a == b


def test_replay_marks_broken_records_and_goes_on(tmp_path):
    good = {"players": 2, "deck": 24, "dealer": 0,
            "hands": [["9C", "TC", "JC", "QC", "KC"], ["9D", "TD", "JD", "QD", "KD"]],
            "upcard": "AC", "kitty": ["AD", "9H", "TH", "JH", "QH", "KH", "AH",
                                      "9S", "TS", "JS", "QS", "KS", "AS"],
            "calls": ["pass", "pass", "pass", "pass"], "alone": [], "discard": None, "plays": []}
    bad = dict(good, calls=["pass", "pass", "C", "pass"])          # names the turned-down suit
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps(good) + "\nnot json\n" + json.dumps(bad) + "\n")
    out = tmp_path / "out.jsonl"
    r = run(["replay", str(src), "-o", str(out)])
    assert r.exit_code == 1
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(lines) == 3
    assert "error" not in lines[0] and lines[0]["maker"] is None and lines[0]["points"] == [0, 0]
    assert lines[1]["line"] == 2 and "not JSON" in lines[1]["error"]
    assert lines[2]["error"].startswith("calls[2]:") and "(R6)" in lines[2]["error"]


@pytest.mark.slow
def test_games_and_rubbers_summaries():
    r = run(["simulate", "--games", "200", "--game-to", "5", "--policy", "baseline", "--workers", "1"])
    assert r.exit_code == 0, r.output
    assert "hands per game" in r.output
    r = run(["simulate", "--rubbers", "50", "--workers", "1", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["counts"]["rubbers"] == 50


def test_parquet_output_schema(tmp_path):
    import pyarrow.parquet as pq
    out = tmp_path / "h.parquet"
    r = run(["simulate", "--hands", "1500", "--workers", "2", "--chunk-size", "500", "--out", str(out), "--json"])
    assert r.exit_code == 0, r.output
    t = pq.read_table(out)
    assert t.num_rows == 1500
    for col in ["chunk", "index", "dealer", "hand0", "upcard", "kitty", "call1", "maker", "make_round",
                "trump", "alone", "discard", "tricks0", "points0", "euchred", "march"]:
        assert col in t.column_names


@pytest.mark.slow
def test_bench_json_lists_measurements():
    r = run(["bench", "--players", "2", "--deck", "24", "--policy", "random", "--hands", "20000",
             "--workers", "2", "--repeat", "2", "--no-compile", "--dd-deals", "0", "--pimc-decisions", "0",
             "--advise-samples", "0", "--json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.output)
    assert {(x["players"], x["deck"], x["policy"], x["workers"]) for x in rows} == {
        (2, 24, "random", 1), (2, 24, "random", 2)}
    assert all(x["hands_per_second"] > 0 and "machine" in x for x in rows)
    # each worker plays --hands (in equal chunks: 4 of 5,000), best of --repeat runs
    assert all(x["hands"] == 20000 * x["workers"] and x["repeat"] == 2 for x in rows)


@pytest.mark.slow
def test_bench_as_a_user_runs_it_measures_the_compile_too():
    """No --no-compile: the cold and cached compile figures come from fresh processes, on every row."""
    r = run(["bench", "--players", "4", "--deck", "24", "--policy", "random", "--hands", "1000", "--workers", "1",
             "--repeat", "1", "--dd-deals", "0", "--pimc-decisions", "0", "--advise-samples", "0", "--json"])
    assert r.exit_code == 0, r.output
    rows = json.loads(r.output)
    assert rows and all(x["compile_cold_seconds"] > 0 and x["compile_cached_seconds"] > 0 for x in rows)


@pytest.mark.slow
def test_the_compile_probe_plays_every_variant_and_replays_a_record():
    from euchresim.studies.bench import compile_every_kernel
    assert compile_every_kernel() > 0


@pytest.mark.slow
def test_bench_times_the_advisors_three_questions():
    r = run(["bench", "--players", "2", "--deck", "24", "--policy", "random", "--hands", "1000", "--workers", "1",
             "--repeat", "1", "--no-compile", "--dd-deals", "0", "--pimc-decisions", "0", "--advise-samples", "200",
             "--json"])
    assert r.exit_code == 0, r.output
    rows = {(x["measure"], x["workers"]): x for x in json.loads(r.output) if "measure" in x}
    assert {m for m, _ in rows} == {"advise_bid1_heuristic", "advise_bid1_pimc", "advise_lead_pimc"}
    assert {w for m, w in rows if m == "advise_bid1_heuristic"} == {1}
    rows = {m: x for (m, w), x in rows.items() if w == 1}
    assert rows["advise_bid1_heuristic"]["samples"] == 200 and rows["advise_lead_pimc"]["samples"] == 10
    assert all(x["seconds"] > 0 and "machine" in x for x in rows.values())


def test_r11_scoring_file_changes_the_points(tmp_path):
    table = tmp_path / "house.json"
    table.write_text(json.dumps({"partnership": {"makers": [0, 0, 0, 1, 1, 3]}}))
    rec = tmp_path / "h.jsonl"
    r = run(["simulate", "--scoring", str(table), "--policy", "baseline", "--hands", "3000",
             "--workers", "1", "--records", str(rec), "--json"])
    assert r.exit_code == 0, r.output
    hands = [json.loads(x) for x in rec.read_text().splitlines()]
    marches = [h for h in hands if h["maker"] is not None and not h["alone"]
               and h["tricks"][h["maker"]] + h["tricks"][(h["maker"] + 2) % 4] == 5]
    assert marches and all(h["points"][h["maker"]] == 3 for h in marches)
    assert all("scoring" in h["rules"] for h in hands)
    out = tmp_path / "o.jsonl"
    assert run(["replay", str(rec), "-o", str(out)]).exit_code == 0   # the record carries its table
    bad = tmp_path / "bad.json"
    bad.write_text('{"alone": {"makers": 5}}')
    r = run(["simulate", "--scoring", str(bad), "--hands", "10"])
    assert r.exit_code == 1 and str(bad) in r.output and "(R11)" in r.output


@pytest.mark.slow
def test_bench_json_has_the_double_dummy_row():
    r = run(["bench", "--players", "2", "--deck", "24", "--policy", "random", "--hands", "1000",
             "--workers", "1", "--repeat", "1", "--no-compile", "--dd-deals", "300", "--pimc-decisions", "40",
             "--json"])
    assert r.exit_code == 0, r.output
    (pm,) = [x for x in json.loads(r.output) if x.get("measure") == "pimc_play"]
    assert pm["decisions"] == 40 and pm["worlds"] == 50 and pm["pimc_decisions_per_second"] > 0
    (dd,) = [x for x in json.loads(r.output) if x.get("measure") == "dd_solve"]
    assert dd["deals"] == 300 and dd["dd_solve_mean_us"] > 0 and (dd["players"], dd["deck"]) == (4, 24)
