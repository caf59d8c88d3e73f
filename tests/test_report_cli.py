"""The report command's own checks: where it writes, what it is asked to play, one line each."""
import json
import os
import shutil

import pytest

from tests.helpers import report_context, one_error_line as _one_error_line, run


@pytest.mark.parametrize("args,needle", [
    (["euchre-rates", "--out", "no/such/folder/r"], "does not exist"),
    (["euchre-rates", "--out", "full"], "--out full: exists and is not empty; --resume"),
    (["euchre-rates", "--out", "afile"], "--out afile: exists and is not a folder"),
    (["euchre-rates", "--out", "r", "--policy", "nosuch"], "unknown policy 'nosuch'"),
    (["euchre-rates", "--out", "r", "--policy", "heuristic:order_1=99"], "out of range"),
    (["order-up", "--out", "r", "--policy", "heuristic", "--policy", "dd", "--model-hands", "100",
      "--model-hands", "100"], "--model-hands: give one count for each --policy after the first (1), not 2"),
    (["euchre-rates", "--out", "r", "--hands", "10"], "--hands"),
    (["nonsense", "--out", "r"], "nonsense"),
    (["order-up", "--out", "r", "--defend-hands", "5000"], "--defend-hands: only loner plays the defender's choice"),
    (["loner", "--out", "r", "--defend-hands", "10"], "--defend-hands"),
])
def test_bad_report_input_is_one_line(tmp_path, args, needle):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "mine.txt").write_text("keep me")
    (tmp_path / "afile").write_text("keep me")
    line = _one_error_line(run(["report", *args, "--workers", "1", "--quiet"], cwd=tmp_path))
    assert needle in line
    assert (tmp_path / "full" / "mine.txt").read_text() == "keep me"


@pytest.mark.parametrize("args,request_", [
    (["order-up", "--out", "r", "--classes", "2T R"], ("order-up", "2T R", None, None, "r", False, False)),
    (["decks", "--out", "r", "--classes", "2T R", "--class-deals", "5"], ("decks", "2T R", 5, None, "r", False,
                                                                          False)),
    (["order-up", "--out", "r", "--classes", "9T X", "--class-deals", "5"], ("order-up", "9T X", 5, None, "r",
                                                                            False, False)),
    (["order-up", "--out", "r", "--defend-hands", "5000"], ("order-up", None, None, 5000, "r", False, False)),
    (["euchre-rates", "--out", "full"], ("euchre-rates", None, None, None, "full", False, False)),
])
def test_a_script_meets_the_report_commands_checks_word_for_word(tmp_path, monkeypatch, args, request_):
    """``report.kinds.check_request`` refuses what the command refuses, with the line the command prints."""
    from euchresim.report import ReportError
    from euchresim.report.kinds import check_request
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "mine.txt").write_text("keep me")
    line = _one_error_line(run(["report", *args, "--workers", "1", "--quiet"], cwd=tmp_path))
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ReportError) as e:
        check_request(*request_)
    assert line == f"euchresim: error: {e.value}"


def test_the_default_models_and_their_hands_are_the_libraries():
    """Without --policy order-up compares heuristic with pimc and dd, each further model playing the share of
    the hands its declaration says; euchre-rates plays heuristic alone; a count per further model or none."""
    from euchresim.report import ReportError
    from euchresim.report.kinds import context_models, default_policies
    from euchresim.rules import Rules
    assert default_policies("order-up", "heuristic") == ("heuristic", "pimc", "dd")
    assert default_policies("euchre-rates", "heuristic") == ("heuristic",)
    ctx = report_context(kind="order-up", out="r", hands=200_000, seed=0, rules=Rules(),
                        policies=("heuristic", "pimc", "dd"))
    mh = context_models(ctx)
    assert mh == tuple(max(1000, 200_000 // m.cost.share) for m in ctx.models[1:]) and mh[0] < mh[1] < 200_000
    assert context_models(ctx, (5000, 6000)) == (5000, 6000)
    with pytest.raises(ReportError, match="give one count for each --policy after the first"):
        context_models(ctx, (5000,))


RATES = ["report", "euchre-rates", "--hands", "2000", "--seed", "4", "--out", "r", "--workers", "1", "--quiet"]


@pytest.fixture(scope="module")
def rates(tmp_path_factory):
    """One euchre-rates report (seed 4, into ``r``), made once: each test resumes or remakes a copy of it."""
    cwd = tmp_path_factory.mktemp("rates")
    assert run(RATES, cwd=cwd).exit_code == 0
    return cwd / "r"


@pytest.mark.slow
def test_meta_states_the_command_as_typed(tmp_path, rates):
    args = RATES
    shutil.copytree(rates, tmp_path / "r")
    meta = json.loads((tmp_path / "r" / "meta.json").read_text())
    assert meta["command"] == "euchresim " + " ".join(args)
    assert meta["seed"] == 4 and meta["hands"] == 2000 and meta["policies"] == ["heuristic"]
    import euchresim
    assert meta["engine_version"] == euchresim.ENGINE_VERSION               # the engine that made it, not a copy
    assert meta["machine"].startswith(f"{os.cpu_count()} cores (") and "1 worker, local backend" in meta["machine"]
    assert "euchresim report euchre-rates --hands 2000 --seed 4" in (tmp_path / "r" / "README.md").read_text()
    again = run(args, cwd=tmp_path)           # a second run into the same folder needs --resume or --force
    assert again.exit_code != 0 and "--resume" in again.output
    assert run(args + ["--resume"], cwd=tmp_path).exit_code == 0


def test_make_reports_index_says_run_time_machine_and_engine(tmp_path):
    import importlib.util
    spec = importlib.util.spec_from_file_location("make_reports", os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts", "make_reports.py"))
    mr = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mr)
    name = mr.REPORTS[0][0]
    (tmp_path / name).mkdir()
    (tmp_path / name / "meta.json").write_text(json.dumps({"command": "euchresim report x", "run_seconds": 61.4,
                                                           "machine": "2 cores (a CPU)", "engine_version": 5}))
    (tmp_path / name / "README.md").write_text("# A title\n")
    mr.write_index(str(tmp_path))
    index = (tmp_path / "README.md").read_text()
    assert f"| [A title]({name}/README.md) | `euchresim report x` | 61 s | 2 cores (a CPU) | engine 5 |" in index
    assert mr._machine(str(tmp_path / name)) == "2 cores (a CPU)"


def test_make_reports_states_what_each_committed_report_cost(tmp_path):
    """The script's COST is each committed report's meta.json run time and sittings (a remade report that
    took other hours fails here until the script says so), and --costs prints them from meta.json."""
    import importlib.util
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spec = importlib.util.spec_from_file_location("make_reports", os.path.join(root, "scripts", "make_reports.py"))
    mr = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mr)
    assert set(mr.COST) == {name for name, _ in mr.REPORTS}
    for name, (seconds, sittings) in mr.COST.items():
        meta = json.loads(open(os.path.join(root, "reports", name, "meta.json"), encoding="utf-8").read())
        assert seconds == round(meta["run_seconds"]) and sittings == meta.get("sittings", 1), name
    lines = mr.costs()
    assert len(lines) == len(mr.REPORTS)
    assert any(ln.startswith(f"order-up: {mr.COST['order-up'][0]:,} s (") for ln in lines)
    (tmp_path / mr.REPORTS[0][0]).mkdir()                   # a folder without its meta.json
    assert mr.costs(str(tmp_path))[0] == f"{mr.REPORTS[0][0]}: not made"


@pytest.mark.slow
def test_resume_with_another_seed_is_refused_naming_it(tmp_path, rates):
    args = ["report", "euchre-rates", "--hands", "2000", "--out", "r", "--workers", "1", "--quiet"]
    shutil.copytree(rates, tmp_path / "r")                          # RATES: args with --seed 4
    line = _one_error_line(run(args + ["--seed", "5", "--resume"], cwd=tmp_path))
    assert "other seed (seed 4)" in line and "--force" in line
    assert run(args + ["--seed", "5", "--force"], cwd=tmp_path).exit_code == 0
    assert json.loads((tmp_path / "r" / "meta.json").read_text())["seed"] == 5


@pytest.mark.slow
def test_resume_of_work_other_code_made_is_refused(tmp_path, monkeypatch, rates):
    """A report made over sittings must be one code's: kept chunks of another engine, bot or loop would mix
    two runs (a headline cell of the committed order-up report did not replicate after such a remake)."""
    import euchresim.report as report
    args = RATES
    shutil.copytree(rates, tmp_path / "r")
    assert run(args + ["--resume"], cwd=tmp_path).exit_code == 0          # the same code resumes
    monkeypatch.setattr(report, "code_fingerprint", lambda: "0123456789abcdef")
    line = _one_error_line(run(args + ["--resume"], cwd=tmp_path))
    assert "made by other code" in line and "0123456789abcdef now" in line and "--force" in line
    fp = report.code_fingerprint
    assert fp() == "0123456789abcdef"
    monkeypatch.undo()
    assert len(report.code_fingerprint()) == 16 and report.code_fingerprint() == report.code_fingerprint()


def test_a_fresh_start_drops_every_piece_kept_before_it(tmp_path, rates):
    """--force (or a first run) clears OUT/_work: a piece the fresh run had not reached when it stopped would
    otherwise stay as an older run (maybe an older code) made it, and a later --resume would take it as its own."""
    shutil.copytree(rates, tmp_path / "r")
    work = tmp_path / "r" / "_work"
    kept = sorted(p.name for p in work.iterdir())
    stale = work / "bid1-0-000000000000"              # a piece only an older run had made
    stale.mkdir()
    (stale / "_manifest.json").write_text('{"complete": true}')
    assert run(RATES + ["--force"], cwd=tmp_path).exit_code == 0
    assert not stale.exists() and sorted(p.name for p in work.iterdir()) == kept
    stale.mkdir()                                      # a resume keeps what its own run made
    assert run(RATES + ["--resume"], cwd=tmp_path).exit_code == 0
    assert stale.exists()


def test_an_unwritable_out_is_one_line(tmp_path, monkeypatch):
    """A read-only --out (root ignores chmod, so the refusal is the operating system's, simulated)."""
    import euchresim.report as report
    real = report.write_atomic

    def refuse(path, data):
        if "r" in os.path.relpath(path, tmp_path).split(os.sep)[0]:
            raise PermissionError(13, "Permission denied", path)
        return real(path, data)
    monkeypatch.setattr(report, "write_atomic", refuse)
    line = _one_error_line(run(["report", "euchre-rates", "--hands", "1000", "--out", "r", "--workers", "1",
                                "--quiet"], cwd=tmp_path))
    assert "--out r: cannot write" in line and "Permission denied" in line


def test_an_unwritable_out_folder_really_read_only(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    os.chmod(ro, 0o555)
    try:
        if os.access(ro, os.W_OK):
            pytest.skip("this user (root) may write to a read-only folder")
        line = _one_error_line(run(["report", "euchre-rates", "--hands", "1000", "--out", str(ro / "r"),
                                    "--workers", "1", "--quiet"], cwd=tmp_path))
        assert "cannot" in line
    finally:
        os.chmod(ro, 0o755)


@pytest.mark.slow
def test_defend_hands_plays_the_main_models_defenders_on_their_own_count(tmp_path):
    """--defend-hands N: the main model's defender rows are those of a report of N hands, its maker rows those of
    --hands, the other models' rows untouched; meta.json and the README say it, and a resume with another N is
    refused (the kept work is another's)."""
    import pandas as pd
    base = ["report", "loner", "--seed", "3", "--policy", "heuristic", "--policy", "heuristic:human",
            "--model-hands", "1000", "--workers", "1", "--quiet"]
    for name, extra in (("mix", ["--hands", "1000", "--defend-hands", "3000"]), ("few", ["--hands", "1000"]),
                        ("many", ["--hands", "3000"])):
        r = run(base + extra + ["--out", name], cwd=tmp_path)
        assert r.exit_code == 0, r.output
    rows = {n: pd.read_csv(tmp_path / n / "loner_by_round.csv") for n in ("mix", "few", "many")}

    def part(n, who, policy="heuristic"):
        t = rows[n]
        return t[(t["who"] == who) & (t["policy"] == policy)].reset_index(drop=True)
    pd.testing.assert_frame_equal(part("mix", "defender"), part("many", "defender"))
    pd.testing.assert_frame_equal(part("mix", "maker"), part("few", "maker"))
    assert part("mix", "defender")["n"].sum() > part("few", "defender")["n"].sum()
    for who in ("maker", "defender"):
        pd.testing.assert_frame_equal(part("mix", who, "heuristic:human"), part("few", who, "heuristic:human"))
    assert json.loads((tmp_path / "mix" / "meta.json").read_text())["defend_hands"] == 3000
    assert "3,000 hands for heuristic's defenders" in (tmp_path / "mix" / "README.md").read_text()
    line = _one_error_line(run(base + ["--hands", "1000", "--defend-hands", "4000", "--out", "mix", "--resume"],
                               cwd=tmp_path))
    assert "other defend_hands" in line


def test_make_reports_never_drops_kept_work_it_was_not_told_to(tmp_path):
    """A report folder holding kept work (a remake carried in git between sittings) is refused without --resume
    or --force, naming the folder, before any work; a quick --scale set is refused into reports/ itself."""
    import importlib.util
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spec = importlib.util.spec_from_file_location("make_reports", os.path.join(root, "scripts", "make_reports.py"))
    mr = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mr)
    work = tmp_path / "r" / "order-up" / "_work"
    work.mkdir(parents=True)
    (work / "report.json").write_text("{}")
    with pytest.raises(SystemExit) as e:
        mr.main(["--only", "order-up", "--out", str(tmp_path / "r")])
    assert "order-up hold kept work" in str(e.value.code) and "--resume goes on with it" in str(e.value.code)
    assert (work / "report.json").exists()
    with pytest.raises(SystemExit) as e:
        mr.main(["--only", "euchre-rates", "--scale", "0.1"])
    assert "--scale makes a quick set, not one to commit" in str(e.value.code)
