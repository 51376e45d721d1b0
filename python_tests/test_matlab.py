"""MATLAB AIs through GNU Octave (LudoGame.matlab) in the sandbox (LudoGame.sandbox): the
bridge plays the coursework's contract, and hostile AI files (written here) lose with a
clear reason, reach nothing outside, and leave the next game unharmed.

Skipped without Octave and bubblewrap; a failure under LUDOGAME_REQUIRE_OCTAVE=1 (CI)."""

from __future__ import annotations

import http.server
import os
import pickle
import socketserver
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import matlab_support as ms
from LudoGame import matlab, onitama, sandbox

FIRST = ms.TEST_AIS / "AIFirst.m"
HEADER = (
    "function [cardPicked, moveFrom, moveTo, wDir] = {name}(currentPlayer, board, "
    "cardA1, cardA2, cardB1, cardB2, sideCard, turn)\n"
)
MOVE_TIME = 3.0


@pytest.fixture(autouse=True)
def _octave() -> None:
    ms.require()


def write_ai(folder: Path, name: str, body: str) -> Path:
    """An AI file `name`.m in `folder` whose body is `body` (MATLAB)."""
    path = folder / f"{name}.m"
    path.write_text(HEADER.format(name=name) + body + "\nend\n", encoding="utf-8")
    return path


def play(path: Path, **kw: object) -> onitama.MatchRecord:
    """A game of the AI in `path` (A) against AIFirst (B) on setup 21."""
    ai = matlab.matlab_ai(path, move_time=kw.pop("move_time", MOVE_TIME), **kw)  # type: ignore[arg-type]
    first = matlab.matlab_ai(FIRST)
    return onitama.play_match(ai, first, 21, time_budget=ai.move_time)


def next_game_runs() -> None:
    """A normal game still plays to its end after a hostile one."""
    record = play(FIRST)
    assert record.failed is None and record.plies > 1


def test_the_arguments_are_the_coursework_referees(tmp_path: Path) -> None:
    # the AI writes its arguments to its private tmp... and reports them in an error
    ai = write_ai(
        tmp_path,
        "AIArgs",
        "error('%s|%s|%s|%s|%s|%s|%s|%d|%s', currentPlayer, board', cardA1', cardA2', "
        "cardB1', cardB2', sideCard', turn, class(board));",
    )
    record = play(ai)
    game = onitama.Onitama.setup(21)
    player, board, a1, a2, b1, b2, side, turn = game.ai_arguments()

    def cols(rows: list[str]) -> str:  # MATLAB's board' read column-major: row by row
        return "".join(rows)

    expected = "|".join([player, *(cols(g) for g in (board, a1, a2, b1, b2, side)), str(turn)])
    assert f"Error Message:\n{expected}|char" in record.detail
    assert record.reason == "programming_error" and record.failed == "A"


def test_a_game_between_two_matlab_ais_and_the_same_ai_on_both_sides() -> None:
    ai = matlab.matlab_ai(FIRST)
    record = onitama.play_match(ai, ai, 22, time_budget=ai.move_time)
    assert record.failed is None and record.plies >= 2
    again = onitama.play_match(ai, ai, 22, time_budget=ai.move_time)
    assert again.actions == record.actions  # a fresh process a game: nothing carries over


def test_an_ai_pickles_by_its_settings() -> None:
    ai = matlab.matlab_ai(FIRST, move_time=4, memory_mb=700)
    copy = pickle.loads(pickle.dumps(ai))
    assert (copy.path, copy.move_time, copy.memory_mb, copy.sandbox) == (ai.path, 4.0, 700, True)


def test_an_endless_loop_is_a_timeout_and_the_process_is_killed(tmp_path: Path) -> None:
    record = play(write_ai(tmp_path, "AILoop", "while true\nend"), move_time=1.0)
    assert (record.reason, record.failed, record.winner) == ("timeout", "A", "B")
    assert "time budget of 1.000 s" in record.detail
    next_game_runs()


def test_an_error_loses_with_the_coursework_words_and_the_ais_message(tmp_path: Path) -> None:
    record = play(write_ai(tmp_path, "AIBoom", "x = 1;\nerror('my AI is broken: %d', x + 1);"))
    assert (record.reason, record.failed) == ("programming_error", "A")
    assert "Error in function AIBoom() at line 3." in record.detail
    assert "Error Message:\nmy AI is broken: 2" in record.detail
    next_game_runs()


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("cardPicked = 7; moveFrom = 'e1'; moveTo = 'd1'; wDir = 's';", "card 7 does not exist"),
        ("cardPicked = 1; moveFrom = 'e1'; moveTo = 'z9'; wDir = 's';", "end position is invalid"),
        ("cardPicked = 1; moveFrom = 'e1'; moveTo = 'd1'; wDir = 'x';", "wall direction 'x'"),
        ("cardPicked = 1; moveFrom = 'e1'; moveTo = 'd1';", "undefined"),  # no wDir at all
        ("cardPicked = 'a'; moveFrom = 'e1'; moveTo = 'd1'; wDir = 's';", "not a tuple"),
        ("cardPicked = 1; moveFrom = [1 2; 3 4]; moveTo = 'd1'; wDir = 's';", "2x2 double"),
    ],
)
def test_wrong_outputs_lose_as_invalid(tmp_path: Path, answer: str, reason: str) -> None:
    record = play(write_ai(tmp_path, "AIWrong", answer))
    assert record.failed == "A" and record.winner == "B"
    assert record.reason in ("invalid_move", "programming_error")
    assert reason in record.detail


def test_a_huge_allocation_is_refused(tmp_path: Path) -> None:
    record = play(write_ai(tmp_path, "AIHog", "x = ones(20000);\ncardPicked = numel(x);"))
    assert (record.reason, record.failed) == ("programming_error", "A")
    assert "memory" in record.detail
    next_game_runs()


def test_writes_outside_its_folder_do_not_land(tmp_path: Path) -> None:
    outside = tmp_path / "escaped.txt"
    home = Path.home() / "ludogame-escaped.txt"
    body = "\n".join(
        [
            f"targets = {{'{outside}', '{home}', '/usr/ludogame-escaped.txt', '../escaped.txt'}};",
            "got = '';",
            "for k = 1:numel(targets)",
            "  fid = fopen(targets{k}, 'w');",
            "  if fid >= 0",
            "    fprintf(fid, 'escaped'); fclose(fid); got = [got ' wrote ' targets{k}];",
            "  else",
            "    got = [got ' refused ' targets{k}];",
            "  end",
            "end",
            "fid = fopen('mine.txt', 'w'); fprintf(fid, 'ok'); fclose(fid);",  # its own tmp
            "error('%s', got);",
        ]
    )
    record = play(write_ai(tmp_path, "AIWriter", body))
    assert record.reason == "programming_error"
    assert f"refused {outside}" in record.detail and "refused /usr/" in record.detail
    assert not outside.exists() and not home.exists()
    assert not Path("/usr/ludogame-escaped.txt").exists()
    assert not (tmp_path.parent / "escaped.txt").exists()
    next_game_runs()


@pytest.fixture
def web_server() -> Iterator[tuple[str, list[str]]]:
    """A web server on this machine's loopback, and the paths it was asked for."""
    asked: list[str] = []

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the stdlib's name)
            asked.append(self.path)
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"REACHED")

        def log_message(self, *args: object) -> None:
            pass

    with socketserver.TCPServer(("127.0.0.1", 0), Handler) as server:
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        yield f"http://127.0.0.1:{server.server_address[1]}/ai", asked
        server.shutdown()


def test_no_network(tmp_path: Path, web_server: tuple[str, list[str]]) -> None:
    url, asked = web_server
    body = "\n".join(
        [
            "try",
            f"  s = urlread('{url}');",
            "catch e",
            "  s = ['no network: ' e.message];",
            "end",
            f"[status, out] = system('python3 -c \"import urllib.request as u; "
            f"print(u.urlopen(''{url}'', timeout=2).read())\" 2>&1');",
            "error('%s | %s', s, out);",
        ]
    )
    record = play(write_ai(tmp_path, "AINet", body))
    assert record.reason == "programming_error"
    assert "REACHED" not in record.detail and asked == []
    assert "no network" in record.detail


def test_files_above_its_folder_and_the_users_files_are_not_there(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET-42", encoding="utf-8")
    project = Path(onitama.__file__).resolve().parent / "onitama.py"
    body = "\n".join(
        [
            "got = '';",
            f"files = {{'{secret}', '../secret.txt', '{project}', '/etc/passwd', "
            "'/root/.bashrc'};",
            "for k = 1:numel(files)",
            "  fid = fopen(files{k}, 'r');",
            "  if fid >= 0",
            "    got = [got ' read ' files{k} ':' fread(fid, [1 40], 'char=>char')]; fclose(fid);",
            "  else",
            "    got = [got ' missing ' files{k}];",
            "  end",
            "end",
            "d = dir('/'); got = [got ' root:' sprintf('%s,', d.name)];",
            "error('%s', got);",
        ]
    )
    record = play(write_ai(tmp_path, "AIReader", body))
    assert record.reason == "programming_error"
    assert "SECRET-42" not in record.detail and "read " not in record.detail
    assert f"missing {project}" in record.detail
    assert "home" not in record.detail.split("root:")[1]  # no /home, no /work, no /root
    assert "work" not in record.detail.split("root:")[1]


def test_printing_to_stdout_does_not_corrupt_the_answers(tmp_path: Path) -> None:
    body = "\n".join(
        [
            "disp('READY'); fprintf('OK n7 c7a.39. c64.31. c73.\\n');",
            "fprintf(1, '%s\\n', repmat('x', 1, 200000));",
            "fprintf(2, 'noise on stderr\\n');",
            "[cardPicked, moveFrom, moveTo, wDir] = first(currentPlayer, board, "
            "cardA1, cardA2, cardB1, cardB2);",
            "end",
            "",
            "function [cardPicked, moveFrom, moveTo, wDir] = first(currentPlayer, board, "
            "cardA1, cardA2, cardB1, cardB2)",
            "if currentPlayer == 'A'",
            "  cards = {cardA1, cardA2};",
            "else",
            "  cards = {rot90(cardB1, 2), rot90(cardB2, 2)};",
            "end",
            "wDir = 's';",
            "for cardPicked = 1:2",
            "  [ro, co] = find(cards{cardPicked} == 'o');",
            "  [rx, cx] = find(cards{cardPicked} == 'x');",
            "  [rp, cp] = find(upper(board) == currentPlayer);",
            "  for p = 1:numel(rp)",
            "    for m = 1:numel(rx)",
            "      r = rp(p) + rx(m) - ro; c = cp(p) + cx(m) - co;",
            "      if r >= 1 && r <= 5 && c >= 1 && c <= 5 && upper(board(r, c)) ~= currentPlayer "
            "&& board(r, c) ~= 'W'",
            "        moveFrom = [char('a' + rp(p) - 1), char('0' + cp(p))];",
            "        moveTo = [char('a' + r - 1), char('0' + c)];",
            "        return;",
            "      end",
            "    end",
            "  end",
            "end",
            "cardPicked = 1; moveFrom = 'XX'; moveTo = 'XX';",
        ]
    )
    noisy = play(write_ai(tmp_path, "AINoisy", body))
    quiet = play(FIRST)
    assert noisy.failed is None
    assert noisy.actions == quiet.actions  # the same moves as AIFirst's, noise or not


def test_a_huge_answer_is_not_read(tmp_path: Path) -> None:
    """An answer longer than `MAX_LINE_BYTES` ends the AI's process unread, a long error
    message is cut by the worker: the game is lost as a programming error either way, and
    no huge text is kept in the record."""
    for name, body, detail in [
        (
            "AIHuge",
            "cardPicked = 1; moveFrom = repmat('x', 1, 100000); moveTo = 'b2'; wDir = 's';",
            "longer than 16,384 bytes",
        ),
        ("AIHugeError", "error('%s', repmat('y', 1, 100000));", "y... (98059 more characters)"),
    ]:
        record = play(write_ai(tmp_path, name, body))
        assert (record.reason, record.failed) == ("programming_error", "A"), name
        assert detail in record.detail, record.detail[-200:]
        assert len(record.to_json()) < 50_000
    next_game_runs()


def test_exit_and_a_killed_process_lose(tmp_path: Path) -> None:
    record = play(write_ai(tmp_path, "AIQuit", "exit(3);"))
    assert (record.reason, record.failed) == ("programming_error", "A")
    assert "Octave process ended" in record.detail
    next_game_runs()


def test_the_name_must_be_a_matlab_function_name(tmp_path: Path) -> None:
    bad = tmp_path / "AI-1; system('x').m"
    bad.write_text("x", encoding="utf-8")
    with pytest.raises(ValueError, match="function name"):
        matlab.matlab_ai(bad)
    with pytest.raises(ValueError, match="not a MATLAB file"):
        matlab.matlab_ai(tmp_path / "AI1.py")
    with pytest.raises(ValueError, match="no MATLAB AI file"):
        matlab.matlab_ai(tmp_path / "AI1.m")
    # a link is not followed: it could name any file the host may read
    (tmp_path / "AI2.m").symlink_to(FIRST)
    with pytest.raises(ValueError, match="a symbolic link"):
        matlab.matlab_ai(tmp_path / "AI2.m")
    (tmp_path / "AI3.m").symlink_to(tmp_path / "nowhere.m")
    with pytest.raises(ValueError, match="a symbolic link"):
        matlab.matlab_ai(tmp_path / "AI3.m")
    os.mkfifo(tmp_path / "AI4.m")
    with pytest.raises(ValueError, match="not a regular file"):
        matlab.matlab_ai(tmp_path / "AI4.m")
    with pytest.raises(ValueError, match="at least 512"):
        matlab.matlab_ai(FIRST, memory_mb=300)


def test_a_missing_octave_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(matlab.OctaveNotFoundError) as e:
        matlab.matlab_ai(FIRST)
    assert str(e.value) == "install GNU Octave: apt-get install octave"


def test_without_the_sandbox_untrusted_code_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "_probe", lambda: (None, "bubblewrap is not installed"))
    with pytest.raises(sandbox.SandboxUnavailableError, match="--no-sandbox"):
        matlab.matlab_ai(FIRST)
    ai = matlab.matlab_ai(FIRST, sandbox=False)  # asked for: runs unsandboxed
    record = onitama.play_match(ai, ai, 21)
    assert record.failed is None


def test_a_syntax_error_loses_with_octaves_message(tmp_path: Path) -> None:
    record = play(write_ai(tmp_path, "AISyntax", "x = (1 + ;"))
    assert (record.reason, record.failed) == ("programming_error", "A")
    assert "parse error" in record.detail
    next_game_runs()


@pytest.mark.slow
def test_round_robin_on_ray_and_in_processes_is_the_local_one(ray_cluster: Any) -> None:
    ais = {
        "AIFirst": matlab.matlab_ai(FIRST),
        "AIWall": matlab.matlab_ai(ms.TEST_AIS / "AIWall.m"),
        "L1": onitama.builtin_ai(1, seed=3),
    }

    def games(standings: onitama.Standings) -> list[tuple[object, ...]]:
        return [(g.a, g.b, g.setup, g.record.actions, g.record.reason) for g in standings.games]

    local = onitama.round_robin(ais, [21], time_budget=10)
    assert games(onitama.round_robin(ais, [21], time_budget=10, jobs=2)) == games(local)
    on_ray = onitama.round_robin(ais, [21], time_budget=10, backend="ray")
    assert games(on_ray) == games(local)
