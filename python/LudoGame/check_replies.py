"""What `ludo check` accepts from the student's process: each reply read with limits.

The runner (`LudoGame._check_runner`) shares its interpreter with the student's code, which
may replace any of its functions or write to its reply stream directly. So nothing it sends
is trusted: a reply line is refused unread past a size that grows with the question
(`reply_limit`), its nesting is measured before it is parsed (`json_depth`), and what
parses is checked against the exact shape an answer of the runner has (the fields ``t`` and
``v``, or ``x`` and ``m``, with the limits of `LudoGame._check_runner`) and against the
questions asked. Anything else becomes a malformed answer, ``{"bad": why}``, which never
equals the engine's: it is that call's wrong answer, reported with its reason.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from array import array
from collections.abc import Sequence
from typing import Any

from LudoGame import _check_runner as runner

#: The deepest JSON a reply needs: a list of games > a game's answers > an answer > a list
#: > an answer > a list > an answer (7); one more is refused before parsing.
MAX_JSON_DEPTH = 8
#: The fewest bytes of an object of a reply, its own (``{"t": "x", "v": 0}`` has 18): a line
#: with more objects for its length is refused before parsing (no line of a few megabytes
#: can make a million objects).
MIN_OBJECT_BYTES = 15
#: The most answers one game can get (play_game, the first play_game or "new", move_token,
#: the probe of a position not playing, four questions for each of up to four positions).
ANSWERS_PER_GAME = 20
#: The answers of the space-name question (every step count from -1 to 57 and the setup).
ANSWERS_PER_NAMES = 64
#: Bytes for a key, its quotes and separators, and a line's brackets.
KEY_BYTES = 64
LINE_SLACK = 4096
#: The longest first line (the load report).
LOAD_LINE_BYTES = 8192

#: The load reports the runner sends, by their "load" field.
LOAD_KINDS = ("ok", "not_python", "exit", "syntax", "import", "error", "no_class")

#: The key of a game whose answers are malformed as a whole (not an object of answers).
WHOLE = "answer"


def reply_limit(answers: int) -> int:
    """The longest reply line accepted for a question with `answers` answers: an honest
    runner's answers are at most `runner.MAX_ANSWER_BYTES` each."""
    return answers * (runner.MAX_ANSWER_BYTES + KEY_BYTES) + LINE_SLACK


def bad(why: str) -> dict[str, str]:
    """A malformed answer saying why (one of this module's texts, never the runner's)."""
    return {"bad": why}


_STRINGS = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


def _skeleton(line: bytes) -> bytes:
    """The brackets of a JSON text, outside its strings."""
    return _STRINGS.sub(b"", line).translate(None, _NOT_BRACKETS)


def json_depth(line: bytes) -> int:
    """How deeply the brackets of a JSON text nest (strings skipped), in C-speed passes:
    no recursion, whatever the text."""
    return _depth(_skeleton(line))


def _depth(skeleton: bytes) -> int:
    return max(itertools.accumulate(array("b", skeleton.translate(_STEPS))), default=0)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


class Malformed:
    """A reply line that cannot be read (every answer of its question is malformed)."""

    def __init__(self, why: str) -> None:
        self.why = why

    def __repr__(self) -> str:
        return f"Malformed({self.why!r})"


def parse(line: bytes) -> Any:
    """A reply line as JSON, or `Malformed` when it nests deeper than `MAX_JSON_DEPTH`, holds
    more objects than its length allows (`MIN_OBJECT_BYTES`), is not JSON (NaN and Infinity
    included) or not UTF-8."""
    skeleton = _skeleton(line)
    if _depth(skeleton) > MAX_JSON_DEPTH:
        return Malformed(f"a reply nested deeper than {MAX_JSON_DEPTH} levels")
    if skeleton.count(b"{") * MIN_OBJECT_BYTES > len(line) + LINE_SLACK:
        return Malformed("a reply with more objects than its length allows")
    try:
        return json.loads(line, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return Malformed("a reply that is not JSON")


def answer(data: Any, depth: int = 0) -> dict[str, Any]:
    """`data` if it has the shape of an answer of the runner, else a malformed answer."""
    if type(data) is not dict:
        return bad("not an answer object")
    if data.keys() == {"x", "m"}:
        name, message = data["x"], data["m"]
        if type(name) is not str or not 0 < len(name) <= runner.MAX_NAME:
            return bad(f"an exception name that is not a text of 1-{runner.MAX_NAME} characters")
        if type(message) is not str or len(message) > runner.MAX_TEXT:
            return bad(f"an exception message that is not a text of {runner.MAX_TEXT} at most")
        return {"x": name, "m": message}
    if data.keys() != {"t", "v"}:
        return bad("an object with other fields than t and v, or x and m")
    name, value = data["t"], data["v"]
    if type(name) is not str or not 0 < len(name) <= runner.MAX_NAME:
        return bad(f"a type name that is not a text of 1-{runner.MAX_NAME} characters")
    if value is None or type(value) is bool:
        return {"t": name, "v": value}
    if type(value) is int:
        if not -runner.MAX_INT < value < runner.MAX_INT:
            return bad("a whole number out of range")
        return {"t": name, "v": value}
    if type(value) is float:
        return {"t": name, "v": value} if math.isfinite(value) else bad("a number not finite")
    if type(value) is str:
        if len(value) > runner.MAX_TEXT:
            return bad(f"a text of more than {runner.MAX_TEXT} characters")
        return {"t": name, "v": value}
    if type(value) is list:
        if depth >= runner.MAX_LIST_DEPTH:
            return bad(f"lists nested deeper than {runner.MAX_LIST_DEPTH}")
        if len(value) > runner.MAX_ITEMS:
            return bad(f"a list of more than {runner.MAX_ITEMS} items")
        items = [answer(x, depth + 1) for x in value]
        wrong = next((x for x in items if "bad" in x), None)
        return wrong if wrong is not None else {"t": name, "v": items}
    return bad("a value that is not null, true, false, a number, a text or a list")


def _answers(data: Any, allowed: set[str]) -> dict[str, Any]:
    """One question's answers (a JSON object of answers under the keys `allowed`)."""
    if type(data) is not dict:
        return {WHOLE: bad("not an object of answers")}
    unasked = next((k for k in data if k not in allowed), None)
    if unasked is not None:
        return {WHOLE: bad("an answer to a question not asked")}
    return {key: answer(value) for key, value in data.items()}


def game_keys(players: Sequence[str]) -> set[str]:
    """The keys a game's answers may have (`LudoGame._check_runner.answers`)."""
    keys = {"new", "first play_game", "play_game", "move_token"}
    for pos in players:
        keys |= {f"{pos}.player", f"{pos}.p", f"{pos}.q", f"{pos}.completed"}
    keys.add(f"get_player_by_position({runner.missing_position(players)!r})")
    return keys


def name_keys(position: str) -> set[str]:
    """The keys of the space-name answers (`LudoGame._check_runner.space_names`)."""
    keys = {"new", "play_game", f"{position}.player"}
    return keys | {f"{position}.get_space_name({steps})" for steps in range(-1, 58)}


def games_reply(got: Any, players: Sequence[str], games: int) -> list[dict[str, Any]]:
    """The answers of `games` games of `players`, each checked; a reply that is not a list
    of that many objects makes every game's answers malformed."""
    if isinstance(got, Malformed):
        return [{WHOLE: bad(got.why)}] * games
    if type(got) is not list or len(got) != games:
        why = bad("a reply with another number of games than asked")
        return [{WHOLE: why}] * games
    allowed = game_keys(players)
    return [_answers(g, allowed) for g in got]


def names_reply(got: Any, position: str) -> dict[str, Any]:
    """The space-name answers of `position`, checked."""
    if isinstance(got, Malformed):
        return {WHOLE: bad(got.why)}
    return _answers(got, name_keys(position))


def load_reply(got: Any) -> dict[str, str]:
    """The runner's first line (whether the file loaded), checked: a malformed one is a
    load error."""
    if (
        type(got) is dict
        and got.get("load") in LOAD_KINDS
        and type(got.get("message", "")) is str
        and len(got.get("message", "")) <= 2 * runner.MAX_TEXT
        and got.keys() <= {"load", "message"}
    ):
        return got
    return {"load": "error", "message": "the student's process did not report loading the file"}


__all__ = [
    "LOAD_LINE_BYTES",
    "MAX_JSON_DEPTH",
    "Malformed",
    "WHOLE",
    "answer",
    "games_reply",
    "json_depth",
    "load_reply",
    "names_reply",
    "parse",
    "reply_limit",
]
