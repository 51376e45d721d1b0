"""`ludo check` (#25): a student's LudoGame.py against the engine, sandboxed.

The files under data/check/ are ours: `agree/` implements the rules as the engine reads them,
the other folders each read one rule another way (a decision left open or a common mistake),
and `hostile/` holds files that misbehave (an endless loop, exits, prints, escapes, ...).
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

import matlab_support as ms
from LudoGame import LudoGame, _check_runner, check_grade, check_student, checker, sandbox
from LudoGame.cli import main
from LudoGame.untrusted import visible

DATA = Path(__file__).parent / "data" / "check"
HOSTILE = DATA / "hostile"


@pytest.fixture(autouse=True)
def _sandbox() -> None:
    ms.require_sandbox()


def _module(path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(f"student_{path.parent.name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_agreeing_file_agrees_with_exit_status_0(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(DATA / "agree"), "--games", "120", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    assert "agrees with the engine on 120 games (10/10 published cases" in out
    assert "\x1b[" not in out  # no colour when not a tty


def test_the_agreeing_file_is_not_the_engine_in_disguise() -> None:
    # the check can fail: the same file with one rule changed differs
    report = checker.check(str(DATA / "no_bounce"), games=60, seed=0)
    assert not report.agrees and not report.passes


def _replays_alike(path: Path, report: checker.Report) -> None:
    """Every shrunk list of the report, played again through the check, shows the same
    kind of difference (and the first turn where it parts is its last)."""
    for d in report.differences:
        if d.turn < 0 or d.field.startswith(("D11", "D12")):
            continue
        assert checker.replay(str(path), d.shrunk_players, d.shrunk, d.readings) == d.kind, d.kind
        if len(d.shrunk) > 1:
            earlier = d.shrunk[:-1]
            assert checker.replay(str(path), d.shrunk_players, earlier, d.readings) is None


@pytest.mark.parametrize(
    ("folder", "decision", "question", "games"),
    [
        ("no_bounce", "D5", "play_game", 60),
        ("enter_any_roll", "D4", "play_game", 30),
        ("always_p", "D9.4", "play_game", 30),
        ("rule2_first", "D9.1", "play_game", 30),
        ("tie_on_r", "D9.4", "play_game", 200),  # a p/q tie on R is rule 4's, not D5
        ("missed_kick", "D7", "play_game", 30),  # a missed plain kick is no reading of D7
        ("board_position_steps", "D1", "step counts", 30),  # a board space as a step count
        ("stack_kicked_apart", "D7", "reading", 30),  # kick=one: ruled out by instructor case 6
        ("no_stacking", "D8", "reading", 30),  # stacking=none: ruled out by the worked example
    ],
)
def test_a_fixed_rule_difference_is_labelled_by_what_the_engine_did(
    folder: str, decision: str, question: str, games: int
) -> None:
    """Each file breaks one rule the assignment or its published cases fix: its difference
    is named by the decision that turn's engine tags and the student's answers show,
    never as open; its shrunk list ends at the turn where the answers part, shows the
    same kind, and replays to it."""
    path = DATA / folder / "LudoGame.py"
    report = checker.check(str(path), games=games, seed=3)
    assert report.failure is None and not report.passes
    first = report.differences[0]
    assert (first.decision, first.weight, first.open) == (decision, "fixed rule", False)
    assert f"[{question}" in first.kind or (question == "reading" and " read as " in first.kind)
    text = first.explain()
    assert "board before that turn" in text and "costs nothing" not in text
    assert 0 < len(first.shrunk) <= first.turn + 1
    assert set(first.shrunk_players) <= set(first.players)
    _replays_alike(path, report)


def test_a_kick_apart_is_the_ruled_out_reading_and_shown_on_the_case_that_rules_it_out() -> None:
    report = checker.check(str(DATA / "stack_kicked_apart"), games=50, seed=0)
    (diff,) = [d for d in report.differences if d.decision == "D7"]
    assert (
        "kick=one" in diff.kind
        and "ruled out by the published cases instructor_case_6" in diff.kind
    )
    assert diff.source == "instructor_case_6" and len(diff.shrunk) <= 12
    assert report.readings == ["kick=one"]


def test_json_report_and_exit_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(DATA / "no_stacking"), "--json", "--games", "40", "--seed", "0"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["agrees"] is False and data["passes"] is False
    assert data["seed"] == 0 and data["cases"] == 10 and data["readings"] == ["stacking=none"]
    (diff,) = data["differences"]
    assert diff["decision"] == "D8" and diff["open"] is False
    assert diff["shrunk_ours"]["v"] != diff["shrunk_theirs"]["v"]


def test_a_report_reproduces_from_its_seed() -> None:
    one = checker.check(str(DATA / "stack_kicked_apart"), games=80, seed=7).to_json()
    two = checker.check(str(DATA / "stack_kicked_apart"), games=80, seed=7).to_json()
    one.pop("seconds")
    two.pop("seconds")
    assert one == two


def test_summary_of_a_class(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    files = [str(p) for p in sorted(DATA.glob("*/LudoGame.py"))] + [str(HOSTILE / "loop_x.py")]
    page = tmp_path / "class.html"
    table_csv = tmp_path / "class.csv"
    argv = ["check", *files, "--summary", "--games", "40", "--jobs", "2", "--seed", "0"]
    code = main([*argv, "--html", str(page), "--csv", str(table_csv)])
    assert code == 1
    table, seed = capsys.readouterr().out.rstrip("\n").split("\n\n")
    assert seed == "seed 0: --seed 0 plays these games again"
    rows = table.splitlines()
    assert len(rows) == 1 + len(files)
    agree = next(r for r in rows if "agree/" in r).split()
    assert agree[1:4] == ["100/100", "10/10", "40/40"]
    assert "D8" in next(r for r in rows if "no_stacking" in r)
    assert "move_stack=token" in next(r for r in rows if "move_token_alone" in r)
    assert "no such file" in rows[-1]
    assert "<h2>" in page.read_text()
    import csv

    lines = list(csv.DictReader(table_csv.open()))
    assert [x["file"] for x in lines] == [visible(f) for f in files]
    by_name = {Path(x["file"]).parent.name: x for x in lines}
    assert by_name["agree"]["score"] == "100.0" and by_name["agree"]["verdict"] == "agrees"
    assert by_name["move_token_alone"]["verdict"] == "passes"
    assert by_name["move_token_alone"]["allowed_readings"] == "move_stack=token"
    assert by_name["crash_half"]["crash_differences"] == "D7"
    assert int(by_name["crash_half"]["crash_games"]) > 0
    assert float(by_name["rule2_first"]["score"]) < 100


# ---------------------------------------------------------------- the symptoms


def test_a_crash_in_half_the_games_comes_first_before_two_allowed_readings() -> None:
    """The file raises ValueError in many games and follows two allowed readings (D11,
    D12): the crash is the first kind, with its count, then the readings; nothing is
    dropped."""
    report = checker.check(str(DATA / "crash_half"), games=200, seed=3)
    weights = [d.weight for d in report.differences]
    assert weights == ["crash", "allowed reading", "allowed reading"]
    crash = report.differences[0]
    assert "raised ValueError" in crash.kind and crash.count > 40
    assert crash.decision == "D7"  # it raises at a kick
    assert {d.reading for d in report.differences[1:]} == {"games=continued", "move_stack=token"}
    assert report.crash_games >= crash.count and not report.passes
    assert "student: raised ValueError: a kick with C playing" in crash.explain()


def test_a_wrong_not_found_string_masks_nothing() -> None:
    """ "Player Not Found!" is one difference (D2, on its own question) among the others:
    the published cases pass on their own answers, and the file's real differences (no
    bounce, get_completed never True) are found and named."""
    report = checker.check(str(DATA / "not_found_caps"), games=200, seed=3)
    assert report.cases_passed == report.cases == 10
    kinds = {d.decision: d for d in report.differences}
    assert set(kinds) == {"D2", "D5", "D10"}
    assert "'Player not found!' vs 'Player Not Found!'" in kinds["D2"].kind
    assert kinds["D10"].shrunk_field.endswith(".completed")
    assert (kinds["D10"].shrunk_ours, kinds["D10"].shrunk_theirs) == (
        {"t": "bool", "v": True},
        {"t": "bool", "v": False},
    )
    assert report.agreeing > 0  # the games' play is compared on its own


def test_a_yard_step_count_of_zero_is_one_named_difference() -> None:
    report = checker.check(str(DATA / "yard_step_zero"), games=60, seed=3)
    assert report.cases_passed == 10
    (diff,) = report.differences
    assert diff.decision == "D1" and "step counts" in diff.kind and diff.turn == -1
    assert (diff.ours, diff.theirs) == ({"t": "int", "v": -1}, {"t": "int", "v": 0})
    assert report.agreeing == report.checked  # the positions all agree


def test_state_shared_between_objects_is_named_not_a_timeout() -> None:
    """A class attribute shared by every LudoGame: the answers depend on earlier games and
    the calls slow down as games pile up. The report names the shared state, checks every
    game again in a fresh process, and reports no timeout and no made-up difference."""
    for timeout in (5.0, 0.3):
        report = checker.check(str(DATA / "class_attribute"), games=60, seed=3, timeout=timeout)
        assert report.failure is None and report.shared_state
        assert any("state shared between objects" in d.kind for d in report.differences)
        assert all(d.decision == "D11" for d in report.differences)
        text = checker.render(report)
        assert "state shared between LudoGame objects (e.g. a class attribute)" in text
        assert "timeout" not in text


def test_an_endless_loop_stays_a_timeout_in_a_fresh_process() -> None:
    report = checker.check(str(HOSTILE / "endless_loop.py"), timeout=1.0, seed=0, games=12)
    assert report.failure is not None and "in a fresh process" in report.failure
    assert not report.shared_state


STALLING = """
import time as _time

_play_game = LudoGame.play_game


def _stalling(self, *args, **kwargs):
    _time.sleep(0.1)
    return _play_game(self, *args, **kwargs)


LudoGame.play_game = _stalling
"""


def test_a_file_answering_each_request_in_time_cannot_hold_the_grader_past_its_budget(
    tmp_path: Path,
) -> None:
    """The agreeing file, each game 0.1 s slower: every request is answered within its
    limit, so only the check's budget for the whole file ends it, saying so; with the
    default budget (BUDGET_REQUESTS times the limit of a request) the same file agrees."""
    slow = tmp_path / "LudoGame.py"
    slow.write_text((DATA / "agree" / "LudoGame.py").read_text() + STALLING)
    report = checker.check(str(slow), timeout=1.0, budget=0.5, seed=0, games=12)
    assert report.failure is not None and report.failure.startswith("budget: "), report.failure
    assert "past its 0.5 s in all" in report.failure and not report.agrees
    assert not report.shared_state  # no fresh process was asked to answer again
    # held to its budget, not to the 12 requests' limits, plus one load of its process
    assert report.seconds < 0.5 + check_student.LOAD_SECONDS
    report = checker.check(str(slow), timeout=1.0, seed=0, games=12)
    assert report.failure is None and report.agrees
    with pytest.raises(ValueError, match="budget must be a positive"):
        checker.check(str(slow), budget=0.0)
    for bad in (
        ["check", str(slow), "--budget", "0"],
        ["check", "--autograder", "x", "--budget", "nan"],
    ):
        with pytest.raises(SystemExit) as exit_:
            main(bad)
        assert exit_.value.code == 2
    assert main(["check", str(slow), "--budget", "0.5", "--games", "12", "--seed", "0"]) == 1


def test_no_fresh_process_is_started_past_the_budget() -> None:
    """After a timeout the request is asked again of a fresh process (to tell slowness from
    earlier games from an endless loop): not once the budget is spent; the verdict is the
    budget's."""
    from types import SimpleNamespace

    spent = check_student.Budget(3.0, time.monotonic() - 1.0)
    # a process started for this file could not load it
    student = SimpleNamespace(
        budget=spent, timeout=1.0, use_sandbox=True, path="/nonexistent/LudoGame.py", source=b""
    )
    asked = SimpleNamespace(failure="timeout: ...", failed_request=(["A", "B"], [[]], 0, 0))
    assert not checker._fresh_answers(student, asked)  # type: ignore[arg-type]
    assert asked.failure == "budget: the check of this file ran past its 3 s in all (stalling?)"


def test_a_difference_whose_naive_shrink_changes_kind_keeps_its_kind() -> None:
    """Two rules broken at once (rule 4 and the bounce): shrinking the bounce's game while
    any play_game difference remains would end on rule 4's; each shrunk list shows, and
    replays to, its own kind."""
    path = DATA / "always_p_no_bounce" / "LudoGame.py"
    report = checker.check(str(path), games=200, seed=3)
    assert [d.decision for d in report.differences] == ["D9.4", "D5"]
    _replays_alike(path, report)


def test_open_readings_cost_nothing_by_default_and_count_under_strict(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A D12-only file (move_token moves the named token of a stack alone): it passes with
    its reading reported, exit 0, full marks; --strict makes it a difference, exit 1."""
    folder = str(DATA / "move_token_alone")
    assert main(["check", folder, "--games", "30", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "passes" in out and "D12 read as move_stack=token" in out and "costs nothing" in out
    assert main(["check", folder, "--games", "30", "--seed", "1", "--strict"]) == 1
    assert "differs" in capsys.readouterr().out
    report = checker.check(folder, games=30, seed=1)
    assert report.passes and not report.agrees
    assert check_grade.results_json(report, check_grade.Rubric())["score"] == 100
    strict = check_grade.results_json(report, check_grade.Rubric(), strict=True)
    assert strict["score"] == 100 - check_grade.DEFAULT_POINTS["D12"]


def test_a_second_play_game_on_the_same_object_d11() -> None:
    report = checker.check(str(DATA / "keeps_state"), games=30, seed=0)
    (diff,) = report.differences
    assert diff.decision == "D11" and diff.open and diff.reading == "games=continued"
    assert "played by the LudoGame object" in diff.source and report.passes


def test_move_token_from_the_yard_with_any_steps_d12() -> None:
    report = checker.check(str(DATA / "move_token_from_yard"), games=30, seed=0)
    (diff,) = report.differences
    assert diff.decision == "D12" and diff.open and diff.reading == "move_from_yard=any"
    assert ", then move_token(" in diff.source and diff.field.endswith((".p", ".q"))


def test_a_wrong_space_name_is_found_before_any_game_d1() -> None:
    report = checker.check(str(DATA / "space_zero"), games=80, seed=0)
    names = report.differences[0]
    assert names.decision == "D1" and names.field == "B.get_space_name(42)"
    assert (names.ours, names.theirs) == ({"t": "str", "v": "56"}, {"t": "str", "v": "0"})
    assert "get_space_name" in names.source and not names.open
    assert "game.get_player_by_position('B').get_space_name(42)" in names.explain()


# ---------------------------------------------------------------- grades


SPEC_TOP = {"score", "execution_time", "output", "visibility", "stdout_visibility", "tests"}
SPEC_TEST = {"name", "number", "score", "max_score", "status", "output", "visibility"}
VISIBILITIES = {"visible", "hidden", "after_due_date", "after_published"}


def _valid_results(data: dict[str, Any]) -> None:
    """results.json as Gradescope's autograder specification describes it."""
    assert set(data) <= SPEC_TOP | {"extra_data"} and {"score", "tests"} <= set(data)
    assert isinstance(data["score"], (int, float)) and isinstance(data["execution_time"], int)
    assert isinstance(data["output"], str)
    assert data["visibility"] in VISIBILITIES and data["stdout_visibility"] in VISIBILITIES
    assert data["tests"]
    for test in data["tests"]:
        assert set(test) <= SPEC_TEST and {"name", "score", "max_score"} <= set(test)
        assert isinstance(test["name"], str) and isinstance(test["output"], str)
        assert 0 <= test["score"] <= test["max_score"]
        assert test["status"] in ("passed", "failed") and test["visibility"] in VISIBILITIES
    assert abs(sum(t["score"] for t in data["tests"]) - data["score"]) < 0.05


@pytest.mark.parametrize(
    ("folder", "full"),
    [("agree", True), ("move_token_alone", True), ("rule2_first", False), ("always_p", False)],
)
def test_gradescope_results_json(tmp_path: Path, folder: str, full: bool) -> None:
    """The engine's readings and an allowed reading get full marks; rule 2 before rule 1
    and rule 4 broken lose the points of D9 and of the games they fail."""
    out = tmp_path / "results" / "results.json"
    code = main(
        ["check", str(DATA / folder), "--games", "40", "--seed", "2", "--gradescope", str(out)]
    )
    assert code == (0 if full else 1)
    data = json.loads(out.read_text())
    _valid_results(data)
    assert (data["score"] == 100) is full
    d9 = next(t for t in data["tests"] if t["name"].startswith("D9:"))
    assert (d9["status"] == "passed") is full
    if not full:
        assert "D9." in d9["output"] and "play_game([" in d9["output"]


def test_raising_keeps_no_decisions_points(tmp_path: Path) -> None:
    """A file that raises where it is unsure does not keep the decisions' points: a crash
    on a turn of a decision costs that decision (crash_half raises on some kicks: D7),
    and a decision no game could be compared on is not confirmed (a class whose every call
    raises gets nothing, not the points of the decisions it never answered)."""
    rubric = check_grade.Rubric(points=dict(check_grade.DEFAULT_POINTS))

    def graded(folder: Path, games: int = 60) -> dict[str, float]:
        report = checker.check(str(folder), games=games, seed=3)
        return {t.key: t.score for t in check_grade.grade(report, rubric)}

    half = graded(DATA / "crash_half")
    assert half["D7"] == 0 and half["D4"] == check_grade.DEFAULT_POINTS["D4"]
    for name, body in [
        ("empty", "class LudoGame:\n    pass\n"),
        ("refuses", "class LudoGame:\n    def __init__(self):\n        raise ValueError\n"),
    ]:
        (tmp_path / name).mkdir()
        (tmp_path / name / "LudoGame.py").write_text(body)
        assert sum(graded(tmp_path / name).values()) == 0, name
    agree = checker.check(str(DATA / "agree"), games=60, seed=3)
    assert agree.answered == [f"D{k}" for k in range(1, 13)]
    # a difference that is no crash costs its own decision only, however few the games
    wrong = checker.check(str(DATA / "enter_any_roll"), games=20, seed=3)
    assert wrong.crash_games == 0 and wrong.answered == agree.answered
    lost = {k: p for k, p in graded(DATA / "enter_any_roll", 20).items() if k.startswith("D")}
    assert [k for k, p in lost.items() if p < check_grade.DEFAULT_POINTS[k]] == ["D4"]


def test_a_secret_seed_plays_games_of_each_files_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a secret seed the games are drawn from the seed and the file's bytes: a file
    that leaks its games (through a crash's message) learns nothing a changed file could
    use; the same file plays the same games again; a named seed plays the same games for
    every file."""
    text = (DATA / "always_p" / "LudoGame.py").read_bytes()
    for name, extra in [("one", b""), ("two", b"\n# changed\n")]:
        (tmp_path / name).mkdir()
        (tmp_path / name / "LudoGame.py").write_bytes(text + extra)
    seen: list[int] = []
    real = checker.plan_games
    monkeypatch.setattr(
        checker, "plan_games", lambda seed, games: seen.append(seed) or real(seed, games)
    )
    for name, secret in [
        ("one", True),
        ("two", True),
        ("one", True),
        ("one", False),
        ("two", False),
    ]:
        report = checker.check(str(tmp_path / name), seed=5, games=30, secret_seed=secret)
        assert (report.seed is None) is secret and not report.agrees
    one, two = checker.file_seed(5, text), checker.file_seed(5, text + b"\n# changed\n")
    assert seen == [one, two, one, 5, 5]
    random_games = [[g.turns for g in real(s, 30) if g.group == "random"] for s in (one, two)]
    assert random_games[0] and random_games[0] != random_games[1]


def test_a_rubric_sets_points_and_visibility(tmp_path: Path) -> None:
    rubric = tmp_path / "rubric.toml"
    rubric.write_text(
        'visibility = "after_due_date"\nstrict = true\n[points]\npublished = 10\nD12 = 5\n'
        '[test_visibility]\nD12 = "hidden"\n'
    )
    out = tmp_path / "results.json"
    argv = ["check", str(DATA / "move_token_alone"), "--games", "20", "--seed", "2"]
    assert main([*argv, "--rubric", str(rubric), "--gradescope", str(out)]) == 1  # strict
    data = json.loads(out.read_text())
    _valid_results(data)
    assert [t["max_score"] for t in data["tests"]] == [10, 5]
    assert data["score"] == 10 and data["visibility"] == "after_due_date"
    assert [t["visibility"] for t in data["tests"]] == ["after_due_date", "hidden"]
    rubric.write_text("[points]\nD14 = 3\n")
    assert main([*argv, "--rubric", str(rubric)]) == 2


@pytest.mark.parametrize("name", ["no_class.py", "endless_loop.py", "nowhere.py"])
def test_a_file_that_cannot_be_graded_still_gets_a_valid_results_json(
    tmp_path: Path, name: str
) -> None:
    out = tmp_path / "results.json"
    argv = ["check", str(HOSTILE / name), "--games", "12", "--timeout", "1"]
    assert main([*argv, "--gradescope", str(out)]) in (1, 2)
    data = json.loads(out.read_text())
    _valid_results(data)
    assert data["score"] == 0 and all(t["status"] == "failed" for t in data["tests"])


def test_the_autograder_folder_grades_a_submission(tmp_path: Path) -> None:
    """`ludo check --autograder DIR` writes setup.sh, run_autograder, the rubric and a
    secret seed; run_autograder, run against a temporary root, writes a valid results.json
    that names the seed nowhere, and the same seed grades every submission alike."""
    import subprocess
    import sys

    source = tmp_path / "root" / "source"
    wheel = tmp_path / "ludogame-0.0.0-py3-none-any.whl"
    wheel.write_bytes(b"not really a wheel")
    assert main(["check", "--autograder", str(source), "--wheel", str(wheel), "--games", "30"]) == 0
    assert (source / "seed").stat().st_mode & 0o777 == 0o600
    seed = (source / "seed").read_text().strip()
    assert os.access(source / "run_autograder", os.X_OK) and os.access(source / "setup.sh", os.X_OK)
    assert (source / "wheels" / wheel.name).read_bytes() == wheel.read_bytes()
    assert "--find-links" in (source / "setup.sh").read_text()
    # each submission's check ends within the budget, under Gradescope's 10 minutes
    assert "--budget 420\n" in (source / "run_autograder").read_text()
    root = tmp_path / "root"
    env = dict(os.environ, AUTOGRADER_ROOT=str(root), LUDO_PYTHON=sys.executable)
    scores = []
    for folder in ("agree", "rule2_first"):
        (root / "submission").mkdir(exist_ok=True)
        (root / "submission" / "LudoGame.py").write_text(
            (DATA / folder / "LudoGame.py").read_text()
        )
        done = subprocess.run([str(source / "run_autograder")], env=env, capture_output=True)
        assert done.returncode == 0, done.stderr
        data = json.loads((root / "results" / "results.json").read_text())
        _valid_results(data)
        assert seed not in json.dumps(data) and "secret seed" in data["output"]
        scores.append(data["score"])
    assert scores[0] == 100 and scores[1] < 100


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("syntax_error.py", "syntax error at line 2"),
        ("no_class.py", "defines no LudoGame class"),
        ("missing_module.py", "imports a missing module: numpy_that_does_not_exist"),
        ("not_python.py", "not a Python file"),
        ("../../known_cases.json", "not a Python file"),
        ("nowhere.py", "no such file"),
        ("exits_on_import.py", "its process ended while loading it (exit status 3)"),
        ("", "a folder with no LudoGame.py"),
    ],
)
def test_a_file_that_cannot_be_checked_is_one_line_and_exit_2(
    name: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(HOSTILE / name)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert message in captured.err and captured.err.count("\n") == 1


def test_an_endless_loop_is_a_timeout_not_a_hang() -> None:
    started = time.monotonic()
    report = checker.check(str(HOSTILE / "endless_loop.py"), timeout=1.0, seed=0)
    assert time.monotonic() - started < 10
    assert report.failure is not None and report.failure.startswith("timeout")
    assert not report.agrees


@pytest.mark.parametrize(
    ("name", "failure"),
    [
        ("writes_ahead.py", "protocol: the student's process wrote to the checker's answer pipe"),
        ("closes_its_pipes.py", "timeout: "),
    ],
)
def test_a_process_that_stops_reading_or_closes_its_pipes_cannot_block_the_checker(
    name: str, failure: str
) -> None:
    """A file whose process writes replies ahead and never reads its requests (the pipe
    to it fills) or closes its pipes and lives on: the check ends, saying so."""
    started = time.monotonic()
    report = checker.check(str(HOSTILE / name), timeout=1.0, seed=0, games=20)
    assert time.monotonic() - started < 60
    assert report.failure is not None and report.failure.startswith(failure), report.failure
    assert not report.agrees


def test_a_runner_that_closes_its_answer_pipe_and_lives_on_is_ended() -> None:
    """The answer pipe closed while the process lives on (a student's code can do it when
    nothing else holds the pipe): the read ends as a crash within seconds, the process
    killed, instead of waiting for it to end."""
    import subprocess
    import sys

    from LudoGame import sandbox
    from LudoGame.check_student import Student

    student = Student.__new__(Student)  # its process only: a runner of its own
    student._buffer = bytearray()
    student._empty = None
    code = "import os, time; os.close(1); time.sleep(60)"
    student.box = sandbox.popen(
        [sys.executable, "-c", code],
        sandbox=False,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    try:
        started = time.monotonic()
        got = student._read(30.0, 1000)
        assert got[0] == "died" and time.monotonic() - started < 10
        assert student.box.process.poll() is not None
    finally:
        student.box.close()


def test_a_hard_exit_is_a_crash() -> None:
    report = checker.check(str(HOSTILE / "hard_exit.py"), timeout=2.0, seed=0)
    assert report.failure is not None and "crash" in report.failure and "status 4" in report.failure


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("exits.py", "raised SystemExit: sys.exit(3)"),
        ("raises.py", "raised KeyError: 'oops'"),
        ("wrong_type.py", "tuple(['H', 'H'"),
    ],
)
def test_misbehaving_calls_are_reported_as_such(name: str, shown: str) -> None:
    report = checker.check(str(HOSTILE / name), games=20, seed=0)
    assert report.failure is None
    assert any(shown in d.explain() for d in report.differences)


def test_nothing_escapes_the_sandbox(tmp_path: Path) -> None:
    project = str(Path(__file__).resolve().parent.parent)
    hostile = (HOSTILE / "escapes.py").read_text().replace("@PROJECT@", project)
    (tmp_path / "escapes.py").write_text(hostile)
    report = checker.check(str(tmp_path / "escapes.py"), games=12, seed=0)
    assert report.failure is None
    diffs = [d for d in report.differences if d.field == "play_game"]
    seen = [answer["v"] for diff in diffs for answer in diff.theirs["v"]]
    assert seen
    assert "network" not in seen and "imported the engine" not in seen
    assert not [s for s in seen if s.startswith("packages visible")]
    assert not any(
        s.startswith((f"wrote {project}", "wrote /etc", f"read {project}", "read /etc"))
        for s in seen
    )
    assert not os.path.exists(os.path.join(project, "ludo-check-escape.txt"))


def test_a_folder_whose_file_cannot_be_loaded_is_named_by_that_file(tmp_path: Path) -> None:
    """A class's row names the student's file whether it loaded or not (and on Ray too, in
    `test_a_class_on_ray_gets_the_local_reports`), its error without the name again."""
    from LudoGame import check_cli

    folder = tmp_path / "student a"
    folder.mkdir()
    (folder / "LudoGame.py").write_text((HOSTILE / "exits_on_import.py").read_text())
    (report,) = check_cli.run_all([str(folder)], check_cli.Settings(3, 20))
    assert report.path == str(folder / "LudoGame.py")
    assert report.error == "its process ended while loading it (exit status 3)"


def test_a_submission_link_is_never_followed(tmp_path: Path) -> None:
    """A student's LudoGame.py (or folder) that is a symbolic link is refused, whatever it
    names: followed, it would make the grader read any file it may (a good LudoGame.py of
    the grader's here, which would pass; /etc/shadow for root) into the student's check."""
    from LudoGame import check_cli

    good = DATA / "agree" / "LudoGame.py"
    linked_file = tmp_path / "file link"
    linked_file.mkdir()
    (linked_file / "LudoGame.py").symlink_to(good)
    linked_folder = tmp_path / "folder link"
    linked_folder.symlink_to(good.parent, target_is_directory=True)
    direct = tmp_path / "direct.py"
    direct.symlink_to(good)
    dangling = tmp_path / "dangling"
    dangling.mkdir()
    (dangling / "LudoGame.py").symlink_to(tmp_path / "nothing here")
    middle = tmp_path / "alice"
    middle.mkdir()
    (middle / "code").symlink_to(good.parent, target_is_directory=True)
    cases = {
        str(middle / "code" / "LudoGame.py"): middle / "code",  # a link on the way
        str(linked_file): linked_file / "LudoGame.py",
        str(linked_folder): linked_folder,
        f"{linked_folder}/": linked_folder,
        str(direct): direct,
        str(dangling): dangling / "LudoGame.py",
    }
    for given, link in cases.items():
        with pytest.raises(checker.CheckUsageError) as e:
            checker.check(given, seed=3, games=20)
        assert str(e.value).endswith(f": {sandbox.LINK_REFUSED}"), given
        assert str(link) in str(e.value)
    reports = check_cli.run_all(list(cases), check_cli.Settings(3, 20))
    assert all(r.error and r.error.endswith(sandbox.LINK_REFUSED) for r in reports)
    assert not any(r.agrees for r in reports)
    with pytest.raises(checker.CheckUsageError, match="a symbolic link"):
        checker.replay(str(middle / "code" / "LudoGame.py"), ["A"], [["A", 6]])
    # the same file, not linked, passes: the refusal is the link's alone
    (tmp_path / "copy").mkdir()
    (tmp_path / "copy" / "LudoGame.py").write_bytes(good.read_bytes())
    assert checker.check(str(tmp_path / "copy"), seed=3, games=20).agrees


def test_a_submission_that_is_no_regular_file_or_is_huge_is_refused_at_once(
    tmp_path: Path,
) -> None:
    """A LudoGame.py that is a FIFO (reading it would wait for a writer forever), a folder
    or larger than `sandbox.MAX_SOURCE_BYTES` is refused with its reason, before any copy."""
    fifo = tmp_path / "fifo"
    fifo.mkdir()
    os.mkfifo(fifo / "LudoGame.py")
    huge = tmp_path / "huge"
    huge.mkdir()
    with open(huge / "LudoGame.py", "wb") as f:
        f.write(b"#" * (sandbox.MAX_SOURCE_BYTES + 1))
    folder = tmp_path / "folder"
    (folder / "LudoGame.py").mkdir(parents=True)
    started = time.monotonic()
    for given, why in [
        (fifo, "not a regular file"),
        (huge, f"larger than {sandbox.MAX_SOURCE_BYTES >> 20} MB"),
        (folder / "LudoGame.py", "a folder with no LudoGame.py"),
    ]:
        with pytest.raises(checker.CheckUsageError, match=re.escape(why)):
            checker.check(str(given), seed=3, games=20)
    assert time.monotonic() - started < 30  # not waiting on the FIFO
    # exactly the limit is read
    with open(huge / "LudoGame.py", "r+b") as f:
        f.truncate(sandbox.MAX_SOURCE_BYTES)
    assert len(sandbox.read_untrusted(huge / "LudoGame.py")) == sandbox.MAX_SOURCE_BYTES


def test_a_check_whose_process_died_names_the_folders_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file whose check's worker process died is reported as such, named as its other
    reports are (a folder by its LudoGame.py), and the other files are checked."""
    import concurrent.futures
    from concurrent.futures.process import BrokenProcessPool

    from LudoGame import check_cli

    class DiedPool:
        """A pool whose first worker dies; the others run their calls here."""

        def __init__(self, workers: int) -> None:
            self.calls = 0

        def __enter__(self) -> DiedPool:
            return self

        def __exit__(self, *exc: object) -> None:
            pass

        def submit(self, fn: Any, *args: Any) -> concurrent.futures.Future[Any]:
            future: concurrent.futures.Future[Any] = concurrent.futures.Future()
            self.calls += 1
            if self.calls == 1:
                future.set_exception(BrokenProcessPool("a worker process died"))
            else:
                future.set_result(fn(*args))
            return future

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", DiedPool)
    folder = tmp_path / "student b"
    folder.mkdir()
    (folder / "LudoGame.py").write_text((DATA / "agree" / "LudoGame.py").read_text())
    died, checked = check_cli.run_all(
        [str(folder), str(DATA / "agree")], check_cli.Settings(3, 20), jobs=2
    )
    assert died.path == str(folder / "LudoGame.py")
    assert died.failure == "the check of this file failed: BrokenProcessPool: a worker process died"
    assert checked.agrees and checked.path == str(DATA / "agree" / "LudoGame.py")


def test_check_is_exported_and_a_folder_means_its_ludogame_py() -> None:
    import LudoGame

    assert LudoGame.check is checker.check
    report = LudoGame.check(str(DATA / "no_stacking"), games=20, seed=0)
    assert report.path.endswith("no_stacking/LudoGame.py") and not report.agrees


# ---------------------------------------------------------------- the engine's side


def test_the_engines_answers_at_every_turn_are_the_runners() -> None:
    """The checker asks the engine's game at every turn (play_turn, then the questions);
    those are the answers the runner gets from a fresh play_game of each prefix, under
    every reading."""
    import random

    rng = random.Random(4)
    engine = checker.Engine()
    for n in range(12):
        players, turns = checker.random_turns(rng)
        reading = [(), (("kick", "one"),), (("ready", "start_space"), ("stacking", "none"))][n % 3]
        game = checker.Game(n, "g", players, turns, "random")
        ks = sorted(rng.sample(range(len(turns) + 1), 5))
        for k, ours in engine.at(reading, game, ks).items():
            factory = (lambda r=reading: LudoGame(**dict(r))) if reading else LudoGame
            assert ours == _check_runner.answers(factory, players, turns[:k])


def test_the_generated_games_reach_every_decision_they_name() -> None:
    import random

    found = checker.scenarios(random.Random(0))
    assert len(found) >= 9
    for source, players, turns in found:
        decision = source.rsplit(" ", 1)[-1]
        assert decision in checker.trace(players, turns)[-1]


@pytest.mark.slow
def test_a_class_on_ray_gets_the_local_reports(tmp_path: Path, ray_cluster: Any) -> None:
    """`ludo check --ray`: each file is a Ray task that gets the file's bytes (a cluster's
    machines share no files); the reports are those of the local run, in the given order,
    and a file that cannot be read is reported as locally."""
    from LudoGame import check_cli

    unloadable = tmp_path / "unloadable"
    unloadable.mkdir()
    (unloadable / "LudoGame.py").write_text((HOSTILE / "exits_on_import.py").read_text())
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "LudoGame.py").symlink_to(DATA / "agree" / "LudoGame.py")
    files = [
        str(DATA / "agree"),
        str(DATA / "no_bounce" / "LudoGame.py"),
        str(tmp_path / "x.py"),
        str(unloadable),
        str(linked),
    ]
    local = check_cli.run_all(files, check_cli.Settings(3, 30))
    on_ray = check_cli.run_all_ray(files, check_cli.Settings(3, 30), "")

    def same(r: checker.Report) -> dict[str, Any]:
        data = r.to_json()
        del data["seconds"]
        return data

    assert [same(r) for r in on_ray] == [same(r) for r in local]
    assert on_ray[0].agrees and not on_ray[1].agrees and on_ray[2].error and on_ray[3].error
    assert on_ray[3].path == str(unloadable / "LudoGame.py")
    assert on_ray[4].error == sandbox.LINK_REFUSED  # the link's target was not sent


# ---------------------------------------------------------------- a check that cannot be gamed

RECORDER = """
import importlib.util, json, sys
_spec = importlib.util.spec_from_file_location("agree", {agree!r})
_agree = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_agree)
_runner = sys.modules["__main__"]
_handle = _runner.handle


def _recording(cls, request):
    reply = _handle(_agree.LudoGame, request)
    with open({record!r}, "a") as f:
        f.write(json.dumps([json.dumps(request, sort_keys=True), reply]) + "\\n")
    return reply


_runner.handle = _recording


class LudoGame:
    pass
"""


def _replaying_file(tmp_path: Path, seed: int, games: int) -> Path:
    """The hostile file that replays recorded answers, with the answers of every request a
    check with `seed` sends (recorded from the agreeing file, run unsandboxed to write them
    down: our own code)."""
    record = tmp_path / "record.jsonl"
    recorder = tmp_path / "recorder.py"
    agree = str(DATA / "agree" / "LudoGame.py")
    recorder.write_text(RECORDER.format(agree=agree, record=str(record)))
    assert checker.check(str(recorder), seed=seed, games=games, sandboxed=False).agrees
    recorded = dict(json.loads(line) for line in record.read_text().splitlines())
    template = (HOSTILE / "replays_recorded_answers.py").read_text()
    replaying = tmp_path / "replays.py"
    replaying.write_text(template.replace('"@RECORDED@"', repr(json.dumps(recorded))))
    return replaying


def test_answers_recorded_for_a_known_seed_do_not_pass_a_fresh_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The issue's file: it implements no rule, replaces the runner's functions in its own
    interpreter and replays the answers recorded for seed 0. With seed 0 it passes (the
    attack is real: a known seed can be recorded); a default run draws a fresh seed, names
    it, and the file differs; that seed plays the same games again."""
    replaying = _replaying_file(tmp_path, seed=0, games=30)
    assert checker.check(str(replaying), seed=0, games=30).agrees
    report = checker.check(str(replaying), games=30)
    assert not report.agrees and report.failure is None
    assert isinstance(report.seed, int) and report.seed != 0
    assert report.cases_passed == report.cases == 10  # the published games are the same
    assert report.differing > 0
    assert main(["check", str(replaying), "--games", "30", "--json"]) == 1
    first = json.loads(capsys.readouterr().out)
    assert first["seed"] != 0 and first["agrees"] is False
    again = ["check", str(replaying), "--games", "30", "--json", "--seed", str(first["seed"])]
    assert main(again) == 1
    second = json.loads(capsys.readouterr().out)
    del first["seconds"], second["seconds"]
    assert first == second


def test_two_default_runs_play_different_games(capsys: pytest.CaptureFixture[str]) -> None:
    seeds = set()
    for _ in range(2):
        assert main(["check", str(DATA / "agree"), "--games", "12"]) == 0
        line = capsys.readouterr().out
        assert "agrees with the engine on " in line
        seeds.add(int(line.split("; seed ")[1].split(",")[0]))
    assert len(seeds) == 2


def test_a_secret_seed_is_kept_in_its_file_and_named_nowhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seed_file = tmp_path / "grader.seed"
    page = tmp_path / "class.html"
    files = [str(DATA / "agree"), str(DATA / "no_stacking")]
    argv = ["check", *files, "--games", "20", "--seed-file", str(seed_file)]
    assert main([*argv, "--json"]) == 1
    assert seed_file.stat().st_mode & 0o777 == 0o600
    seed = int(seed_file.read_text())
    first = json.loads(capsys.readouterr().out)
    assert [r["seed"] for r in first] == [None, None]
    assert all(d["seed"] is None for d in first[1]["differences"])
    assert str(seed) not in json.dumps(first)
    assert main([*argv, "--summary", "--html", str(page)]) == 1  # the same file: same games
    out = capsys.readouterr().out
    assert out.rstrip().endswith(
        "secret seed: the same --seed-file plays these games again (each file its own)"
    )
    assert str(seed) not in out and str(seed) not in page.read_text()
    assert "secret seed" in page.read_text()
    assert main(argv) == 1
    text = capsys.readouterr().out
    assert "published cases; secret seed," in text and str(seed) not in text
    # whoever holds the file repeats the run
    again = json.loads(
        json.dumps(checker.check(files[1], seed=seed, secret_seed=True, games=20).to_json())
    )
    del again["seconds"], first[1]["seconds"]
    assert again == first[1]


@pytest.mark.parametrize(
    ("content", "message"),
    [("12x\n", "holds no seed"), (str(2**64), "holds no seed"), ("", "holds no seed")],
)
def test_a_seed_file_without_a_seed_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    seed_file = tmp_path / "grader.seed"
    seed_file.write_text(content)
    assert main(["check", str(DATA / "agree"), "--seed-file", str(seed_file)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert seed_file.read_text() == content  # left as it was


@pytest.mark.parametrize("seed", ["-1", str(2**64), "1.5", "0x10"])
def test_a_seed_out_of_range_is_refused(seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["check", str(DATA / "agree"), "--seed", seed])
    assert exit_.value.code == 2 and "--seed" in capsys.readouterr().err
    with pytest.raises(ValueError, match="seed"):
        checker.check(str(DATA / "agree"), seed=2**64)


MALFORMED = [
    ("no_type", "an object with other fields than t and v, or x and m"),
    ("wrong_types", "a type name that is not a text of 1-100 characters"),
    ("long_string", "a text of more than 300 characters"),
    ("long_list", "a list of more than 64 items"),
    ("huge_int", "a whole number out of range"),
    ("deep", "a reply nested deeper than 8 levels"),
    ("many_objects", "a reply with more objects than its length allows"),
    ("nan", "a reply that is not JSON"),
    ("not_json", "a reply that is not JSON"),
    ("unasked", "an answer to a question not asked"),
    ("wrong_count", "a reply with another number of games than asked"),
]
FLOODS = ["million", "huge_string", "endless"]


def _malformed(tmp_path: Path, mode: str) -> Path:
    path = tmp_path / f"{mode}.py"
    path.write_text((HOSTILE / "writes_malformed_replies.py").read_text().replace("@MODE@", mode))
    return path


@pytest.mark.parametrize(("mode", "label"), MALFORMED)
def test_a_malformed_reply_is_that_calls_wrong_answer(
    tmp_path: Path, mode: str, label: str
) -> None:
    """The file writes its own replies to the reply descriptor; each malformed one is the
    wrong answer of the call it replies to, with its reason, and the check goes on."""
    report = checker.check(str(_malformed(tmp_path, mode)), seed=0, games=12)
    assert not report.agrees and report.failure is None and report.error is None
    assert report.checked == report.games == report.differing  # every game, every one wrong
    shown = [d.theirs for d in report.differences]
    assert {"bad": label} in shown
    assert f"student: a malformed answer: {label}" in checker.render(report)


@pytest.mark.parametrize("mode", FLOODS)
def test_a_flood_ends_its_own_check(tmp_path: Path, mode: str) -> None:
    report = checker.check(str(_malformed(tmp_path, mode)), seed=0, games=12)
    assert report.failure is not None and report.failure.startswith("flood: ")
    assert "of more than 73,728 bytes" in report.failure  # the first question's limit
    assert not report.agrees and report.checked == 0


def test_hostile_files_do_not_stop_a_class_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every hostile file of ours with the agreeing one, two at a time: one row each, the
    agreeing file agrees, the others differ or fail, and the report is whole."""
    hostile = [_malformed(tmp_path, mode) for mode, _ in MALFORMED] + [
        _malformed(tmp_path, mode) for mode in FLOODS
    ]
    hostile += [HOSTILE / "control_characters.py", HOSTILE / "hard_exit.py"]
    files = [str(DATA / "agree" / "LudoGame.py"), *map(str, hostile)]
    page = tmp_path / "class.html"
    argv = ["check", *files, "--summary", "--jobs", "2", "--games", "12", "--seed", "0"]
    assert main([*argv, "--html", str(page)]) == 1
    table, seed = capsys.readouterr().out.rstrip("\n").split("\n\n")
    rows = table.splitlines()[1:]
    assert [r.split()[0] for r in rows] == [visible(f) for f in files]
    assert rows[0].split()[1:] == ["100/100", "10/10", "20/20", "-", "-"]
    for row in rows[1:]:
        assert "20/20" not in row and "100/100" not in row
    assert sum("flood:" in r for r in rows) == len(FLOODS)
    assert "crash" in rows[-1]
    sections = page.read_text().split("<h2>")[1:]
    assert len(sections) == len(files)
    assert [": agrees with" in s for s in sections] == [True] + [False] * len(hostile)
    assert all(": differs: " in s for s in sections[1:])


CONTROL = re.compile(r"[^\n -~\u00a0-\uffff]|[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def _no_control_characters(text: str) -> None:
    assert not CONTROL.search(text), repr(CONTROL.search(text))


def test_no_control_character_of_a_student_reaches_a_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The file's type names, reprs, exception names and messages hold a cleared screen and
    a fake green verdict: every report shows them escaped, and the verdict is "differs"."""
    path = str(HOSTILE / "control_characters.py")
    report = checker.check(path, seed=0, games=12)
    assert not report.agrees
    text = checker.render(report, colour=True)
    for ours in ("\x1b[31m", "\x1b[0m"):  # the verdict's colour, the only escapes
        text = text.replace(ours, "")
    _no_control_characters(text)
    assert "\\x1b[2J\\x1b[H\\x1b[32magrees\\x1b[0m with the engine\\r\\n\\x07" in text
    assert "\\x9b2J\\u202e" in text and "raised Loud" in text and "'B\\x1b[2J" in text
    page = tmp_path / "page.html"
    assert main(["check", path, "--games", "12", "--summary", "--html", str(page)]) == 1
    _no_control_characters(capsys.readouterr().out)
    _no_control_characters(page.read_text())
    assert main(["check", path, "--games", "12", "--json"]) == 1
    out = capsys.readouterr().out
    assert all(c == "\n" or " " <= c <= "~" for c in out)
    data = json.loads(out)  # escaped by JSON itself, not lost
    assert any("\x1b[2J" in d["theirs"].get("m", "") for d in data["differences"])


def test_a_load_error_and_a_files_name_are_shown_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", str(HOSTILE / "control_characters_on_import.py")]) == 2
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "\\x1b[2J\\x1b[H\\x1b[32mLudoGame.py" in captured.err
    _no_control_characters(captured.err)
    with pytest.raises(checker.CheckUsageError) as info:
        checker.check(str(HOSTILE / "control_characters_on_import.py"))
    _no_control_characters(str(info.value))
    folder = tmp_path / "evil\x1b[2J\r\u202e"
    folder.mkdir()
    (folder / "LudoGame.py").write_text((DATA / "agree" / "LudoGame.py").read_text())
    assert main(["check", str(folder), str(folder), "--games", "12", "--summary"]) == 0
    out = capsys.readouterr().out
    _no_control_characters(out)
    assert "evil\\x1b[2J\\r\\u202e/LudoGame.py" in out
