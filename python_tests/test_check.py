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
from LudoGame import LudoGame, _check_runner, checker
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
    assert not report.agrees


@pytest.mark.parametrize(
    ("folder", "decision", "is_open"),
    [
        ("no_bounce", "D5", None),  # (its first bounce may be a stack's: D8 too)
        ("stack_kicked_apart", "D7", True),
        ("enter_any_roll", "D4", False),
        ("no_stacking", "D8", True),
        ("always_p", "D9", None),
    ],
)
def test_other_readings_are_found_explained_and_shrunk(
    folder: str, decision: str, is_open: bool | None
) -> None:
    path = DATA / folder / "LudoGame.py"
    report = checker.check(str(path), games=200, seed=3)
    assert report.differences and report.failure is None
    diff = next(d for d in report.differences if decision in d.decisions)
    text = diff.explain()
    assert f"rule {decision}" in text and "board before that turn" in text
    assert ("the course allows" in text) is diff.open
    if is_open is not None:
        assert diff.open is is_open
    # the first turn where the answers part is one: before it they agree, after it not
    student = _module(path).LudoGame
    first = diff.turns[: diff.turn + 1]
    before = diff.turns[: diff.turn]
    assert _check_runner.answers(LudoGame, diff.players, before) == _check_runner.answers(
        student, diff.players, before
    )
    assert _check_runner.answers(LudoGame, diff.players, first) != _check_runner.answers(
        student, diff.players, first
    )
    # the shrunk list is no longer, still shows the same kind, and no single turn can go
    assert 0 < len(diff.shrunk) <= len(first)
    assert f"play_game({diff.shrunk_players!r}, " in text
    assert set(diff.shrunk_players) <= set(diff.players)
    ours = _check_runner.answers(LudoGame, diff.shrunk_players, diff.shrunk)
    theirs = _check_runner.answers(student, diff.shrunk_players, diff.shrunk)
    key = checker.first_field(ours, theirs)
    assert key is not None and checker.kind_of(key, theirs) == diff.kind
    for k in range(len(diff.shrunk)):
        less = diff.shrunk[:k] + diff.shrunk[k + 1 :]
        o = _check_runner.answers(LudoGame, diff.shrunk_players, less)
        t = _check_runner.answers(student, diff.shrunk_players, less)
        key = checker.first_field(o, t)
        assert key is None or checker.kind_of(key, t) != diff.kind


def test_a_kick_apart_is_shrunk_to_a_short_list() -> None:
    report = checker.check(str(DATA / "stack_kicked_apart"), games=50, seed=0)
    (diff,) = [d for d in report.differences if "D7" in d.decisions]
    assert len(diff.shrunk) <= 12  # enter two tokens, stack them, enter a kicker, kick


def test_json_report_and_exit_status_1(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(DATA / "no_stacking"), "--json", "--games", "40", "--seed", "0"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["agrees"] is False and data["seed"] == 0 and data["cases"] == 10
    (diff,) = data["differences"]
    assert diff["decisions"] == ["D8"] and diff["open"] is True
    assert diff["ours"]["v"] != diff["theirs"]["v"]


def test_a_report_reproduces_from_its_seed() -> None:
    one = checker.check(str(DATA / "stack_kicked_apart"), games=80, seed=7).to_json()
    two = checker.check(str(DATA / "stack_kicked_apart"), games=80, seed=7).to_json()
    one.pop("seconds")
    two.pop("seconds")
    assert one == two


def test_summary_of_a_class(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    files = [str(p) for p in sorted(DATA.glob("*/LudoGame.py"))] + [str(HOSTILE / "loop_x.py")]
    page = tmp_path / "class.html"
    argv = ["check", *files, "--summary", "--games", "40", "--jobs", "2", "--seed", "0"]
    code = main([*argv, "--html", str(page)])
    assert code == 1
    table, seed = capsys.readouterr().out.rstrip("\n").split("\n\n")
    assert seed == "seed 0: --seed 0 plays these games again"
    rows = table.splitlines()
    assert len(rows) == 1 + len(files)
    agree = next(r for r in rows if "agree/" in r)
    assert "10/10" in agree and "40/40" in agree
    assert "D8" in next(r for r in rows if "no_stacking" in r)
    assert "no such file" in rows[-1]
    assert "<h2>" in page.read_text()


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


def test_printing_does_not_corrupt_the_answers() -> None:
    report = checker.check(str(HOSTILE / "prints.py"), games=20, seed=0)
    assert report.failure is None and report.checked == 20
    assert {d.kind for d in report.differences} == {"player: raised AttributeError"}


def test_nothing_escapes_the_sandbox(tmp_path: Path) -> None:
    project = str(Path(__file__).resolve().parent.parent)
    hostile = (HOSTILE / "escapes.py").read_text().replace("@PROJECT@", project)
    (tmp_path / "escapes.py").write_text(hostile)
    report = checker.check(str(tmp_path / "escapes.py"), games=12, seed=0)
    assert report.failure is None
    (diff,) = [d for d in report.differences if d.field == "play_game"]
    seen = [answer["v"] for answer in diff.theirs["v"]]
    assert "network" not in seen and "imported the engine" not in seen
    assert not any(
        s.startswith((f"wrote {project}", "wrote /etc", f"read {project}", "read /etc"))
        for s in seen
    )
    assert not os.path.exists(os.path.join(project, "ludo-check-escape.txt"))


def test_the_generated_games_reach_every_decision_they_name() -> None:
    import random

    for source, players, turns in checker.scenarios(random.Random(0)):
        decision = source.rsplit(" ", 1)[-1]
        assert decision in checker.trace(players, turns)[-1]


@pytest.mark.parametrize(
    ("before", "turn", "after", "decisions"),
    [
        ({"A": (-1, -1, False)}, ("A", 6), {"A": (0, -1, False)}, ["D4", "D9"]),
        ({"A": (0, -1, False)}, ("A", 4), {"A": (4, -1, False)}, ["D4"]),
        ({"A": (4, 9, False)}, ("A", 2), {"A": (6, 9, False)}, ["D9"]),
        ({"A": (55, 55, False)}, ("A", 4), {"A": (53, 53, False)}, ["D5", "D8"]),
        (
            {"A": (5, -1, False), "B": (43, 43, False)},
            ("A", 1),
            {"A": (6, -1, False), "B": (-1, -1, False)},
            ["D7"],
        ),
        ({"A": (57, 57, True)}, ("A", 3), {"A": (57, 57, True)}, ["D10"]),
    ],
)
def test_the_decisions_a_turn_touches(
    before: dict[str, Any], turn: tuple[str, int], after: dict[str, Any], decisions: list[str]
) -> None:
    assert checker.turn_decisions(before, *turn, after) == decisions


def test_without_the_sandbox_on_request() -> None:
    report = checker.check(str(DATA / "agree"), games=30, sandboxed=False, seed=0)
    assert report.agrees and report.checked == 30


def test_check_is_exported_and_a_folder_means_its_ludogame_py() -> None:
    import LudoGame

    assert LudoGame.check is checker.check
    report = LudoGame.check(str(DATA / "no_stacking"), games=20, seed=0)
    assert report.path.endswith("no_stacking/LudoGame.py") and not report.agrees


def test_a_second_play_game_on_the_same_object_starts_afresh_d11() -> None:
    report = checker.check(str(DATA / "keeps_state"), games=30, seed=0)
    (diff,) = report.differences
    assert (
        diff.decisions == ["D11"] and diff.open and "played by the LudoGame object" in diff.source
    )
    assert "board of a fresh game at the end" in diff.explain()


def test_a_wrong_space_name_is_found_before_any_game_d1() -> None:
    report = checker.check(str(DATA / "space_zero"), games=80, seed=0)
    names = report.differences[0]
    assert names.decisions == ["D1"] and names.field == "B.get_space_name(42)"
    assert (names.ours, names.theirs) == ({"t": "str", "v": "56"}, {"t": "str", "v": "0"})
    assert "get_space_name" in names.source and not names.open
    assert "game.get_player_by_position('B').get_space_name(42)" in names.explain()
    (named,) = [d for d in report.differences if d.field == "play_game"]
    assert named.decisions == ["D1"]  # the steps agree: only the name differs


def test_move_token_is_compared_after_the_published_cases_d12() -> None:
    report = checker.check(str(DATA / "move_token_from_yard"), games=30, seed=0)
    (diff,) = report.differences
    assert diff.decisions == ["D12"] and diff.open and ", then move_token(" in diff.source
    assert diff.field.endswith((".p", ".q")) and "after the move_token call" in diff.explain()


@pytest.mark.slow
def test_a_class_on_ray_gets_the_local_reports(tmp_path: Path, ray_cluster: Any) -> None:
    """`ludo check --ray`: each file is a Ray task that gets the file's bytes (a cluster's
    machines share no files); the reports are those of the local run, in the given order,
    and a file that cannot be read is reported as locally."""
    from LudoGame import check_cli

    files = [str(DATA / "agree"), str(DATA / "no_bounce" / "LudoGame.py"), str(tmp_path / "x.py")]
    local = check_cli.run_all(files, 3, 30, 5.0, True, 1)
    on_ray = check_cli.run_all_ray(files, 3, 30, 5.0, True, "")

    def same(r: checker.Report) -> dict[str, Any]:
        data = r.to_json()
        del data["seconds"]
        return data

    assert [same(r) for r in on_ray] == [same(r) for r in local]
    assert on_ray[0].agrees and not on_ray[1].agrees and on_ray[2].error


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
    assert out.rstrip().endswith("secret seed: the same --seed-file plays these games again")
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
    assert rows[0].split()[1:] == ["10/10", "17/17", "-"]
    for row in rows[1:]:
        assert "17/17" not in row
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
