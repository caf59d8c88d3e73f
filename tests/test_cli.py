"""The command line: help everywhere, one-line errors, the main jobs end to end; and what a new user types:
every --help example runs, every output path follows one convention, every bad input is one line, and the
summary answers "which policy did better"."""
import json
import shlex
import subprocess
import sys

import numpy as np
import pytest
from click.testing import CliRunner

from euchresim.cli.app import cli
from tests.helpers import run_spec, one_error_line, run


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
    from euchresim.studies.benchmark import compile_every_kernel
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


# ================================================================ what a new user types
_one_error_line = one_error_line


# ---------------------------------------------------------------- --help examples
# The examples quote real counts; the test plays fewer so the suite stays quick.
SHRINK = {"--hands": 3000, "--games": 60, "--rubbers": 10}


def _shrunk(argv):
    out = list(argv)
    for i, a in enumerate(out[:-1]):
        if a in SHRINK:
            out[i + 1] = str(min(int(out[i + 1]), SHRINK[a]))
    if out[0] == "bench":
        out += ["--hands", "1000", "--repeat", "1", "--no-compile", "--workers", "1", "--advise-samples", "200"]
    if out[0] == "play":             # the table serves until stopped: bind a free port, deal, print the URL, stop
        out += ["--no-browser", "--port", "0", "--stop-after", "0"]
    if out[0] == "simulate" and "--workers" not in out:
        out += ["--workers", "1"]
    return out


def _help_examples():
    """(command, argv) for every line under 'Example(s):' in every command's --help."""
    found = []
    for name in [None, *cli.commands]:
        text = CliRunner().invoke(cli, ([name] if name else []) + ["--help"]).output
        block = text.split("Example", 1)[1] if "Example" in text else ""
        for line in block.splitlines()[1:]:
            line = line.strip()
            if not line.startswith("euchresim "):
                break
            found.append((name or "euchresim", shlex.split(line)[1:]))
    return found


def test_every_command_has_help_examples():
    names = {name for name, _ in _help_examples()}
    assert names == {"euchresim", *cli.commands}


@pytest.mark.slow
@pytest.mark.parametrize("argv", [a for _, a in _help_examples()], ids=lambda a: " ".join(a)[:60])
def test_every_help_example_runs(tmp_path, argv):
    if argv[0] in ("replay", "solve") or "--record" in argv:   # an input to read: made first, by simulate
        src = argv[argv.index("--record") + 1] if "--record" in argv else argv[1]
        # solve, advise: with no hand thrown in (nothing to solve, no card to play)
        sticky = ["--stick-the-dealer"] if argv[0] != "replay" else []
        assert run(["simulate", "--hands", "200", "--workers", "1", *sticky, "--records", src],
                   cwd=tmp_path).exit_code == 0
    r = run(_shrunk(argv), cwd=tmp_path)
    assert r.exit_code == 0, r.output


# ---------------------------------------------------------------- output paths
@pytest.mark.parametrize("args,needle", [
    (["--out", "x.csv"], "--out x.csv: this writes a Parquet dataset; name it NAME.parquet or NAME.pq"),
    (["--records", "x.parquet"], "--records x.parquet: this writes hand records; name it NAME.jsonl"),
    (["--out", "-"], "--out -: a Parquet dataset cannot go to standard output"),
    (["--out", "no/such/folder/x.parquet"], "does not exist"),
    (["--out", "old.parquet"], "--out old.parquet: exists and is a file, where a Parquet dataset is a folder; "
                               "add --force to replace it"),
    (["--records", "old.jsonl"], "--records old.jsonl: exists; add --force"),
    (["--out", "dir.parquet"], "dir.parquet: a folder that is not a euchresim run"),
    (["--out", "x.parquet", "--checkpoint", "ck"], "--checkpoint is for runs that write no files"),
    (["--address", "127.0.0.1:6379"], "--address names a Ray cluster; add --backend ray"),
    (["--records", "-", "--resume"], "--resume cannot continue records sent to standard output"),
])
def test_output_paths_follow_one_convention(tmp_path, args, needle):
    (tmp_path / "old.parquet").write_text("keep me")
    (tmp_path / "old.jsonl").write_text("keep me")
    (tmp_path / "dir.parquet").mkdir()
    (tmp_path / "dir.parquet" / "notes.txt").write_text("mine")
    line = _one_error_line(run(["simulate", "--hands", "10", "--workers", "1", *args], cwd=tmp_path))
    assert needle in line
    assert (tmp_path / "old.parquet").read_text() == "keep me"
    assert not (tmp_path / "no").exists()


def test_two_outputs_that_are_one_file_clash(tmp_path):
    (tmp_path / "same.parquet").write_text("")
    (tmp_path / "same.jsonl").symlink_to(tmp_path / "same.parquet")
    line = _one_error_line(run(["simulate", "--hands", "10", "--out", "same.parquet", "--records", "same.jsonl",
                                "--force"], cwd=tmp_path))
    assert "--out and --records name the same file" in line


def test_force_replaces_a_finished_dataset_and_it_is_kept_without_it(tmp_path):
    import pandas as pd
    args = ["simulate", "--hands", "300", "--workers", "1", "--out", "h.parquet"]
    assert run(args, cwd=tmp_path).exit_code == 0
    first = pd.read_parquet(tmp_path / "h.parquet")
    line = _one_error_line(run(args + ["--seed", "9"], cwd=tmp_path))
    assert "h.parquet holds a finished run; add --resume to continue it, or --force to start over" in line
    assert pd.read_parquet(tmp_path / "h.parquet").equals(first)
    assert run(args + ["--seed", "9", "--force"], cwd=tmp_path).exit_code == 0
    assert not pd.read_parquet(tmp_path / "h.parquet").equals(first)
    r = run(args + ["--seed", "9", "--resume", "--json"], cwd=tmp_path)     # finished: reported again, not replayed
    assert r.exit_code == 0 and json.loads(r.output)["counts"]["hands"] == 300


def test_an_unfinished_run_is_resumed_or_forced_never_silently_replaced(tmp_path):
    args = ["simulate", "--hands", "3000", "--chunk-size", "1000", "--workers", "1", "--out", "h.parquet"]
    (tmp_path / "h.parquet").mkdir()
    (tmp_path / "h.parquet" / "_manifest.json").write_text('{"complete": false, "seed": 5}')
    line = _one_error_line(run(args, cwd=tmp_path))
    assert "holds an unfinished run; add --resume" in line and "--force" in line
    line = _one_error_line(run(args + ["--resume"], cwd=tmp_path))
    assert "differs in" in line and "seed" in line
    r = run(args + ["--force"], cwd=tmp_path)
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "h.parquet" / "_manifest.json").read_text())["complete"] is True


def test_records_to_standard_output_and_the_summary_to_standard_error():
    r = CliRunner().invoke(cli, ["simulate", "--hands", "50", "--workers", "1", "--records", "-", "--json"])
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert len(lines) == 50 and all(json.loads(x)["players"] == 4 for x in lines)
    assert json.loads(r.stderr)["counts"]["hands"] == 50


def test_records_to_standard_output_are_those_a_file_gets(tmp_path):
    """Several chunks, two workers: stdout gets them in chunk order, as the file does."""
    args = ["simulate", "--hands", "900", "--chunk-size", "100", "--workers", "2"]
    r = CliRunner().invoke(cli, args + ["--records", "-"])
    assert r.exit_code == 0, r.stderr
    f = tmp_path / "h.jsonl"
    assert CliRunner().invoke(cli, args + ["--records", str(f)]).exit_code == 0
    assert r.stdout == f.read_text()


# ---------------------------------------------------------------- bad input, one line
@pytest.mark.parametrize("args,needle", [
    (["--seed", "-1"], "--seed"),
    (["--seed", "x"], "--seed"),
    (["--hands", "0"], "--hands"),
    (["--hands", str(10 ** 16)], "--hands"),
    (["--workers", "0"], "--workers"),
    (["--workers", "100000"], "--workers"),
    (["--chunk-size", str(10 ** 9)], "chunk size must be"),
    (["--policy", "baseline,,baseline,random"], "empty policy name"),
    (["--deck", "52"], "--deck"),
])
def test_bad_options_are_one_line(args, needle):
    assert needle in _one_error_line(run(["simulate", "--hands", "10", "--workers", "1", *args]
                                         if "--hands" not in args else ["simulate", "--workers", "1", *args]))


def test_a_scoring_file_that_is_not_utf8_is_one_line(tmp_path):
    bad = tmp_path / "s.json"
    bad.write_bytes(b'\xff\xfe{"alone": {}}')
    line = _one_error_line(run(["simulate", "--hands", "10", "--scoring", str(bad)]))
    assert str(bad) in line and "not UTF-8" in line


def test_a_scoring_file_with_a_byte_order_mark_loads(tmp_path):
    f = tmp_path / "s.json"
    f.write_bytes("\ufeff".encode() + json.dumps({"partnership": {"makers": [0, 0, 0, 1, 1, 3]}}).encode())
    r = run(["simulate", "--hands", "10", "--workers", "1", "--scoring", str(f), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["meta"]["rules"]["scoring"]["partnership"]["makers"] == [0, 0, 0, 1, 1, 3]


def test_json_is_strict_null_where_a_rate_has_no_hands():
    r = CliRunner().invoke(cli, ["simulate", "--hands", "3", "--workers", "1", "--players", "3", "--json"])
    assert r.exit_code == 0, r.output

    def refuse(token):
        raise ValueError(f"not strict JSON: {token}")
    d = json.loads(r.stdout, parse_constant=refuse)
    empty = [s for s in d["summary"] if s["of"] == 0]
    assert empty and all(s["value"] is None and s["ci_low"] is None for s in empty)


def test_no_arguments_prints_usage_and_succeeds():
    r = run([])
    assert r.exit_code == 0 and "Usage: euchresim" in r.output and "error" not in r.output


def test_choices_are_case_blind_alike():
    r = run(["simulate", "--hands", "200", "--workers", "1", "--policy", "BASELINE,Random,baseline,RANDOM",
             "--players", "4", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["meta"]["policies"] == ["baseline", "random", "baseline", "random"]
    r = run(["simulate", "--games", "20", "--workers", "1", "--players", "3", "--cutthroat-tie", "HIGHER",
             "--both-alone-lead", "Maker", "--deck", "25", "--joker-upcard", "REDEAL", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["meta"]["rules"] == {
        "players": 3, "deck": 25, "joker_upcard": "redeal", "both_alone_lead": "maker", "cutthroat_tie": "higher"}


@pytest.mark.parametrize("args,warned", [
    (["--hands", "100", "--game-to", "5"], "--game-to has no effect with --hands"),
    (["--hands", "100", "--players", "3", "--cutthroat-tie", "shared"], "--cutthroat-tie has no effect"),
    (["--games", "10", "--game-to", "5"], None),
])
def test_an_option_that_cannot_take_effect_is_warned_about(args, warned):
    r = CliRunner().invoke(cli, ["simulate", "--workers", "1", *args])
    assert r.exit_code == 0, r.output
    if warned:
        assert warned in r.stderr
    else:
        assert "warning" not in r.stderr


def test_resume_with_nothing_kept_is_refused_not_played_afresh(tmp_path):
    """--resume without a run folder, or naming a folder no run left, would silently play everything again."""
    r = run(["simulate", "--hands", "100", "--workers", "1", "--resume"])
    assert r.exit_code != 0 and "--resume has nothing to continue" in r.output
    r = run(["simulate", "--hands", "100", "--workers", "1", "--resume", "--records", str(tmp_path / "x.jsonl")])
    assert r.exit_code != 0 and "no stopped run" in r.output, r.output
    assert not (tmp_path / "x.jsonl").exists()


def test_the_library_refuses_what_would_lose_chunks():
    from euchresim.rules import FOUR_HAND
    from euchresim.run import runner
    spec = run_spec(rules=FOUR_HAND, policies=("random",), count=100, chunk_size=100)
    for outputs, resume, why in [(runner.Outputs(records="-"), True, "standard output"),
                                 (runner.Outputs(records="a.jsonl", checkpoint="c"), False, "--checkpoint is for"),
                                 (runner.Outputs(), True, "nothing to continue")]:
        with pytest.raises(runner.SimError, match=why):
            runner.run(spec, workers=1, outputs=outputs, resume=resume)


# ---------------------------------------------------------------- the summary by side and by seat
def test_one_policy_per_seat_shows_each_seat_and_the_side_difference():
    r = run(["simulate", "--hands", "20000", "--seed", "4", "--workers", "1",
             "--policy", "baseline,random,baseline,random", "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    rows = {s["statistic"]: s for s in d["summary"]}
    diff = rows["points per hand, seats 0+2 less 1+3"]
    p0, p1 = rows["points per hand, seat 0 (baseline)"], rows["points per hand, seat 1 (random)"]
    assert diff["value"] == pytest.approx(p0["value"] - p1["value"])
    assert diff["ci_low"] > 0                  # baseline beats random by far more than the noise
    assert rows["seat 0 (baseline) made trump"]["count"] == d["counts"]["made_seat0"]
    assert sum(rows[f"seat {s} ({'baseline' if s % 2 == 0 else 'random'}) made trump"]["count"]
               for s in range(4)) == d["counts"]["made"]


def test_one_policy_for_all_seats_shows_no_seat_rows():
    r = run(["simulate", "--hands", "2000", "--workers", "1", "--json"])
    assert not any(s["statistic"].startswith("seat ") for s in json.loads(r.output)["summary"])


def test_the_side_rows_split_the_made_hands():
    r = run(["simulate", "--hands", "5000", "--workers", "1", "--json"])
    rows = {s["statistic"]: s for s in json.loads(r.output)["summary"]}
    ours, theirs = rows["trump made by the dealer's side"], rows["trump made by the other side"]
    assert ours["count"] + theirs["count"] == rows["trump made"]["count"]
    edge = rows["edge of the dealer's side, points per hand"]
    assert edge["value"] == pytest.approx(rows["points per hand, dealer"]["value"]
                                          - rows["points per hand, left"]["value"])


# ---------------------------------------------------------------- baseline defends alone sensibly
@pytest.mark.parametrize("players,trumps,want", [
    (4, ["JH", "9H"], 1),          # right bower and one more: the default needs 2 trumps with a top one
    (4, ["JD", "AH"], 1),          # the left bower counts as a trump and a top one
    (4, ["AH", "KH", "QH"], 0),    # three trumps, no bower: no
    (4, ["JH"], 0),                # a lone bower: too few
    (3, ["JH", "9H"], 0),          # Cutthroat asks for 3
    (3, ["JH", "9H", "TH"], 1),
])
def test_baseline_defends_alone_with_enough_trumps_and_a_top_one(players, trumps, want):
    from euchresim.cards import board, parse_card
    from euchresim.engine.layout import PH_DEFEND, PHASE, ST_SIZE, TRUMP
    from euchresim.policies import resolve
    from euchresim.policies.builtin import baseline_decide
    from euchresim.rules import Rules
    from euchresim.engine.tables import build_tables
    tab = build_tables(Rules(players=players))
    st = np.zeros(ST_SIZE, np.int64)
    st[PHASE], st[TRUMP] = PH_DEFEND, 2             # hearts
    fill = ["9C", "TC", "QC", "KC", "AC"]
    hand = board(parse_card(c) for c in trumps + fill[:5 - len(trumps)])
    _, params, _ = resolve("baseline", players)
    assert baseline_decide(st, np.int64(hand), np.int64(0), np.int64(1), np.int64(3),
                                         params[1], tab) == want



@pytest.mark.parametrize("args,needle", [
    (["in.jsonl", "-o", "in.jsonl"], "SRC and -o name the same file in.jsonl; reading and writing it at once"),
    (["in.jsonl", "-o", "old.jsonl"], "-o old.jsonl: exists; add --force to overwrite it"),
    (["in.jsonl", "-o", "out.txt"], "-o out.txt: this writes hand records; name it NAME.jsonl"),
    (["in.jsonl", "-o", "no/such/out.jsonl"], "does not exist"),
])
def test_replay_output_follows_the_convention(tmp_path, args, needle):
    assert run(["simulate", "--hands", "20", "--workers", "1", "--records", "in.jsonl"], cwd=tmp_path).exit_code == 0
    (tmp_path / "old.jsonl").write_text("keep me")
    before = (tmp_path / "in.jsonl").read_text()
    assert needle in _one_error_line(run(["replay", *args], cwd=tmp_path))
    assert (tmp_path / "in.jsonl").read_text() == before and (tmp_path / "old.jsonl").read_text() == "keep me"


def test_replay_force_overwrites_and_dash_is_standard_output(tmp_path):
    assert run(["simulate", "--hands", "20", "--workers", "1", "--records", "in.jsonl"], cwd=tmp_path).exit_code == 0
    (tmp_path / "old.jsonl").write_text("keep me")
    assert run(["replay", "in.jsonl", "-o", "old.jsonl", "--force"], cwd=tmp_path).exit_code == 0
    assert (tmp_path / "old.jsonl").read_text() == (tmp_path / "in.jsonl").read_text()
    r = CliRunner().invoke(cli, ["replay", str(tmp_path / "in.jsonl")])
    assert r.exit_code == 0 and r.stdout == (tmp_path / "in.jsonl").read_text()


def test_progress_bars_show_on_a_terminal_only(tmp_path, monkeypatch):
    """The bar is tqdm's, on standard error, and only when it is a terminal (never under --json)."""
    import io
    import sys
    import euchresim.cli.records as records_cmd
    import euchresim.run.progress as progress

    class Tty(io.StringIO):
        def isatty(self):
            return True
    seen = []
    real = progress.progress_bar
    for mod in (progress, records_cmd):         # simulate's bar is run.progress.ChunkBar's
        monkeypatch.setattr(mod, "progress_bar", lambda total, unit, quiet: seen.append((total, unit, quiet))
                            or real(total, unit, quiet))
    err = Tty()
    monkeypatch.setattr(sys, "stderr", err)
    assert run(["simulate", "--hands", "3000", "--chunk-size", "1000", "--workers", "1", "--records", "h.jsonl"],
               cwd=tmp_path).exit_code == 0
    assert run(["replay", "h.jsonl", "-o", "c.jsonl"], cwd=tmp_path).exit_code == 0
    assert run(["simulate", "--hands", "100", "--workers", "1", "--json"], cwd=tmp_path).exit_code == 0
    assert seen == [(3000, "hand", False), (3000, "record", False), (100, "hand", True)]
    bar = real(3000, "hand", False)                 # outside the runner, stderr is our terminal
    bar.update(3000)
    bar.refresh()                                   # tqdm draws at most every 0.1 s by itself
    bar.close()
    assert "3.00k/3.00k" in err.getvalue() and "hand/s" in err.getvalue()
    assert real(3000, "hand", True) is None


def test_a_full_disk_is_one_line_and_the_finished_chunks_resume(tmp_path, monkeypatch):
    import errno
    import os

    import euchresim.run.folder as parts
    real_replace = os.replace

    def full_at_chunk_two(src, dst):
        if dst.endswith("chunk-000002.parquet"):
            raise OSError(errno.ENOSPC, "No space left on device", src)
        real_replace(src, dst)
    monkeypatch.setattr(parts.os, "replace", full_at_chunk_two)
    args = ["simulate", "--hands", "5000", "--chunk-size", "1000", "--workers", "1", "--out", "h.parquet", "--json"]
    line = _one_error_line(run(args, cwd=tmp_path))
    assert line == ("euchresim: error: h.parquet/_unfinished/chunk-000002.parquet: No space left on device; the "
                    "finished chunks are kept in h.parquet: rerun with --resume")
    assert not any(n.endswith(".tmp") for n in os.listdir(tmp_path / "h.parquet" / "_unfinished"))
    monkeypatch.setattr(parts.os, "replace", real_replace)
    r = run(args + ["--resume"], cwd=tmp_path)
    assert r.exit_code == 0 and json.loads(r.output)["counts"]["hands"] == 5000


def test_a_folder_that_cannot_be_made_is_one_line(tmp_path):
    (tmp_path / "afile").write_text("")
    line = _one_error_line(run(["simulate", "--hands", "10", "--checkpoint", "afile/ck"], cwd=tmp_path))
    assert "afile/ck" in line


def test_group_tables_in_text_and_json():
    r = run(["simulate", "--hands", "5000", "--workers", "1", "--group", "outcome", "--group", "maker_pos,make_round",
             "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert [g["grouping"] for g in d["groups"]] == [["outcome"], ["maker_pos", "make_round"]]
    cells = {c["outcome"]: c for c in d["groups"][0]["cells"]}
    assert sum(c["hands"] for c in cells.values()) == d["counts"]["hands"] == 5000
    assert cells["euchred"]["hands"] == d["counts"]["euchred"] and cells["march"]["hands"] == d["counts"]["march"]
    assert "groups" not in d["counts"]                   # the raw cells stay out of the tallies
    r = run(["simulate", "--hands", "5000", "--workers", "1", "--group", "outcome"])
    assert "by outcome (hands 5000)" in r.output and "\neuchred " in r.output
    assert "unknown feature 'nope'" in _one_error_line(run(["simulate", "--hands", "10", "--group", "nope"]))


def test_a_script_gets_what_simulate_prints(tmp_path):
    """The command only echoes analysis.run_text: a script that runs the same RunSpec prints the same report,
    text and --json, grouped tables and rule changes included."""
    from euchresim.analysis.run_text import summary_text
    from euchresim.policies import seats
    from euchresim.rules import Rules
    from euchresim.run import runner
    args = ["simulate", "--hands", "2000", "--seed", "5", "--players", "4", "--stick-the-dealer",
            "--group", "maker_pos", "--workers", "1", "--quiet"]
    rules = Rules(stick_the_dealer=True)
    spec = run_spec(rules=rules, policies=seats(["heuristic"], 4), seed=5, count=2000,
                          groups=(("maker_pos",),))
    counts = runner.run(spec, workers=1)
    r = run(args)
    assert r.exit_code == 0 and r.stdout == summary_text(spec, counts) + "\n"
    assert "rules: stick_the_dealer=True" in r.stdout and "by maker_pos" in r.stdout
    r = run(args + ["--json"])
    assert r.exit_code == 0 and r.stdout == summary_text(spec, counts, as_json=True) + "\n"
