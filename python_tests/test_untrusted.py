"""No text of an untrusted party reaches a terminal or a log unescaped (#34).

`LudoGame.untrusted.visible` is the one helper; here its rules, and the places other than
``ludo check`` (python_tests/test_check.py) that print such text: the Onitama tournaments'
tables and error lists (AI names, AI error messages), an AI file named with escapes, the log
of ``ludo serve``; and the checker's reply limits. The MATLAB AI whose error message clears
the screen is in python_tests/test_matlab_cli.py.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from LudoGame import check_replies
from LudoGame.course import course_tournament
from LudoGame.onitama import builtin_ai, round_robin
from LudoGame.untrusted import visible, visible_lines

#: A cleared screen, the cursor home, a fake green verdict, a carriage return, a bell, a
#: backspace, DEL, a C1 control sequence introducer and a right-to-left override.
FAKE = "\x1b[2J\x1b[H\x1b[32mwins the tournament\x1b[0m\r\x07\x08\x7f\x9b2J\u202e"
SHOWN = "\\x1b[2J\\x1b[H\\x1b[32mwins the tournament\\x1b[0m\\r\\x07\\x08\\x7f\\x9b2J\\u202e"

#: Characters no terminal should receive from a student or an AI (a newline is checked
#: apart: it is a report's own line break).
CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def test_control_characters_are_shown_and_printable_text_kept() -> None:
    assert visible(FAKE) == SHOWN
    assert visible("\x00\t\n") == "\\x00\\t\\n"
    assert visible("\U000e0001 tag") == "\\U000e0001 tag"  # a format character, astral
    kept = "Señor Ludo: 中文, emoji 🎲, a backslash \\ and quotes '\""
    assert visible(kept) == kept
    assert visible_lines("one\x1b[2J\ntwo\r") == "one\\x1b[2J\ntwo\\r"


@given(st.text())
def test_visible_is_printable_and_idempotent(text: str) -> None:
    shown = visible(text)
    assert shown.isprintable()
    assert visible(shown) == shown
    assert all(line.isprintable() for line in visible_lines(text).split("\n"))


def _failing_ai(*_: object) -> tuple[int, str, str, str]:
    raise ValueError("the AI fails" + FAKE)


def test_tournament_tables_and_error_lists_show_names_and_messages_visibly() -> None:
    """An AI named with escapes that fails with escapes in its message: the round robin's
    table and the course format's qualification, table and error list show them escaped,
    and the AI loses every game."""
    shady = "AI" + FAKE
    ais = {"L0": builtin_ai(0, seed=1), shady: _failing_ai}
    standings = round_robin(ais, setups=["21"], max_plies=20)
    assert standings[shady].losses == standings[shady].games == 2
    table = str(standings)
    assert not CONTROL.search(table) and f"AI{SHOWN}" in table
    result = course_tournament(ais, builtin_ai(0, seed=2), games=2, setups=["21"])
    text = str(result)
    assert not CONTROL.search(text)
    assert f"AI{SHOWN}: 4" in text  # 2 qualification games, 2 in the round robin
    assert f"ValueError: the AI fails{SHOWN}" in text


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (b"[" * 1_000_000 + b"]" * 1_000_000, "a reply nested deeper than 8 levels"),
        (b'[{"a": NaN}]', "a reply that is not JSON"),
        (b'[{"a": Infinity}]', "a reply that is not JSON"),
        (b"[1e999999]", None),  # parses (an infinite float), refused by shape
        (b"\xff\xfe[]", "a reply that is not JSON"),
        (b"9" * 5000, "a reply that is not JSON"),  # too many digits for an int
        (b"[" + b"{}," * 10_000 + b"{}]", "a reply with more objects than its length allows"),
    ],
)
def test_a_reply_line_is_measured_before_it_is_parsed(line: bytes, why: str | None) -> None:
    got = check_replies.parse(line)
    if why is None:
        assert check_replies.games_reply(got, ["A", "B"], 1) == [
            {check_replies.WHOLE: {"bad": "not an object of answers"}}
        ]
    else:
        assert isinstance(got, check_replies.Malformed) and got.why == why


def test_brackets_inside_strings_do_not_count_as_depth() -> None:
    line = json.dumps([{"play_game": {"t": "str", "v": "[[[[[[[[[[{{{{{{{{" + '\\"['}}])
    assert check_replies.json_depth(line.encode()) == 3
    assert check_replies.json_depth(b"[[[[]]]][]") == 4


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        ({"t": "str", "v": "H"}, None),
        ({"t": "list", "v": [{"t": "list", "v": [{"t": "str", "v": "H"}]}]}, None),
        ({"x": "KeyError", "m": "'oops'"}, None),
        ({"v": 1}, "an object with other fields than t and v, or x and m"),
        (
            {"t": "str", "v": "H", "extra": 1},
            "an object with other fields than t and v, or x and m",
        ),
        ({"t": "", "v": 1}, "a type name that is not a text of 1-100 characters"),
        ({"t": "x" * 101, "v": 1}, "a type name that is not a text of 1-100 characters"),
        (
            {"t": "dict", "v": {"a": 1}},
            "a value that is not null, true, false, a number, a text or a list",
        ),
        ({"t": "float", "v": float("nan")}, "a number not finite"),
        ({"t": "int", "v": 2**63}, "a whole number out of range"),
        ({"t": "str", "v": "x" * 301}, "a text of more than 300 characters"),
        ({"t": "list", "v": [{"t": "str", "v": "H"}] * 65}, "a list of more than 64 items"),
        (
            {"t": "list", "v": [{"t": "list", "v": [{"t": "list", "v": []}]}]},
            "lists nested deeper than 2",
        ),
        (
            {"t": "list", "v": [{"t": "str"}]},
            "an object with other fields than t and v, or x and m",
        ),
        ({"x": "E", "m": 5}, "an exception message that is not a text of 300 at most"),
        ([], "not an answer object"),
    ],
)
def test_an_answer_has_the_runners_shape_or_is_malformed(answer: object, why: str | None) -> None:
    got = check_replies.answer(answer)
    assert got == (answer if why is None else {"bad": why})


def test_the_runners_own_answers_always_fit_the_limits() -> None:
    """What an honest runner sends of any value (huge, nested, odd) is accepted as is."""
    from LudoGame import _check_runner

    class Odd:
        def __repr__(self) -> str:
            return "é" * 10_000

    odd_type = type("T" * 500, (), {})
    for v in [
        "\U0001f3b2" * 1000,
        list(range(1000)),
        [[[[1]]]] * 100,
        [["é" * 300] * 64] * 64,
        10**100,
        float("inf"),
        Odd(),
        odd_type(),
        (None, True, 1.5),
    ]:
        sent = _check_runner.value(v)
        assert len(json.dumps(sent)) <= _check_runner.MAX_ANSWER_BYTES
        assert check_replies.answer(json.loads(json.dumps(sent))) == sent


ANSWERS = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=400)
    | st.text(alphabet=st.characters(min_codepoint=0x10000), max_size=400),
    lambda inner: st.lists(inner, max_size=80) | st.tuples(inner, inner),
    max_leaves=200,
)


@given(ANSWERS)
def test_any_answer_the_runner_sends_fits_and_is_accepted(v: object) -> None:
    from LudoGame import _check_runner

    sent = _check_runner.value(v)
    assert len(json.dumps(sent)) <= _check_runner.MAX_ANSWER_BYTES
    assert check_replies.answer(json.loads(json.dumps(sent))) == sent


def test_the_servers_log_lines_are_made_visible(capsys: pytest.CaptureFixture[str]) -> None:
    """`ludo serve` logs through uvicorn's loggers, each handler with the filter that
    `serve` adds (`LudoGame.web.SERVER_LOGGERS`): a message, its arguments and a traceback
    that hold escapes are shown visibly."""
    uvicorn = pytest.importorskip("uvicorn")
    from LudoGame import web
    from LudoGame.untrusted import log_visibly

    uvicorn.Config(web.create_app(), log_level="warning")  # uvicorn's logging, as serve has
    log_visibly(web.SERVER_LOGGERS)
    logger = logging.getLogger("uvicorn.error")
    try:
        raise RuntimeError("an AI said" + FAKE)
    except RuntimeError:
        logger.exception("a game of %s failed", "AI" + FAKE, extra={"color_message": "%s"})
    err = capsys.readouterr().err
    assert not CONTROL.search(err)
    assert f"a game of AI{SHOWN} failed" in err and f"RuntimeError: an AI said{SHOWN}" in err


def test_an_ai_file_named_with_escapes_is_refused_in_one_visible_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from LudoGame.onitama_cli import main

    ai = tmp_path / f"AI{FAKE}.m"
    ai.write_text("function [c, f, t, w] = AI(varargin)\nend\n")
    assert main(["match", str(ai), "1", "--no-sandbox"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and not CONTROL.search(err)
    assert "must be a MATLAB function name" in err and "\\x1b[2J" in err
