"""The runner of `ludo check`: asks a LudoGame class the assignment's questions.

Standard library only, and no import of the package: the checker copies this file alone into
the sandbox, where it loads the student's ``LudoGame.py`` by path and answers requests (one
JSON line each on stdin, one JSON line back on the protocol stream). The checker also calls
`answers` in its own process on the engine's `LudoGame`, so both sides are asked the very
same questions through the assignment's API only.

Before the student's file is loaded, the protocol stream is moved to a private descriptor
and the student's stdout goes to stderr, so a ``print`` cannot corrupt the answers.

In the sandbox the runner shares its interpreter with the student's code, which may replace
any function here or write to the protocol stream itself: the checker trusts nothing this
process sends (`LudoGame.check_replies` reads each reply with limits). The limits below are
those an honest runner keeps.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

NOT_FOUND_PROBE = "Z"
#: The command-line flag that plays every game in a process of its own (a fork of the
#: runner made after the file was loaded): for a file whose answers depend on earlier games.
ISOLATED = "--isolated"

# The shape of an answer, in one place: the runner writes answers within these limits and the
# checker refuses anything outside them (the runner shares its process with the student's
# code, so what arrives may have been written by anything).
#: Longest type or exception name kept.
MAX_NAME = 100
#: Longest text kept: a string answer, a repr of another type, an exception's message.
MAX_TEXT = 300
#: Most items of a list or tuple kept.
MAX_ITEMS = 64
#: Lists within lists kept (deeper ones are shown by their repr).
MAX_LIST_DEPTH = 2
#: Largest whole number sent as a number (a larger one is sent as text).
MAX_INT = 2**63
#: Largest answer, as ASCII-only JSON (``json.dumps``' default, where a character may take
#: 12 bytes): a list's answer larger than this is sent as its repr, and texts are cut
#: further until the answer fits (`_fit`). It bounds a whole reply (`check_replies`).
MAX_ANSWER_BYTES = 1024


def _name(obj: Any) -> str:
    """The name of `obj`'s type, cut to `MAX_NAME` (a metaclass may make it anything)."""
    try:
        name = type(obj).__name__
    except BaseException:  # noqa: BLE001
        return "?"
    return name[:MAX_NAME] if type(name) is str else "?"


def _repr(v: Any) -> str:
    try:
        text = repr(v)
    except BaseException:  # noqa: BLE001 - the student's __repr__ may do anything
        return "?"
    return text[:MAX_TEXT] if type(text) is str else "?"


def _fit(answer: dict[str, Any]) -> dict[str, Any]:
    """`answer` with its longest text halved until its JSON fits `MAX_ANSWER_BYTES`."""
    while len(json.dumps(answer)) > MAX_ANSWER_BYTES:
        key = max((k for k in answer if type(answer[k]) is str), key=lambda k: len(answer[k]))
        answer[key] = answer[key][: len(answer[key]) // 2]
    return answer


def _surely_fits(answer: dict[str, Any]) -> bool:
    """Whether `answer` fits `MAX_ANSWER_BYTES` for sure, counted without writing its JSON
    (12 bytes a character at most; 40 for the rest of an answer, a number included, and 44
    for an item of a list with its separator): the common small answers are not written
    twice."""
    v = answer["v"]
    if type(v) is not list:
        return 12 * (len(answer["t"]) + (len(v) if type(v) is str else 0)) + 40 <= MAX_ANSWER_BYTES
    chars = len(answer["t"])
    for item in v:
        if type(item["v"]) is list:
            return False
        chars += len(item["t"]) + (len(item["v"]) if type(item["v"]) is str else 0)
    return 12 * chars + 44 * (len(v) + 1) <= MAX_ANSWER_BYTES


def value(v: Any, depth: int = 0) -> dict[str, Any]:
    """An answer as JSON: its type name and its value (a repr for other types, cut to
    `MAX_TEXT`), at most `MAX_ANSWER_BYTES`. Only the exact built-in types are sent as
    values: a subclass of ``str`` or ``list`` may redefine anything, so it is shown by its
    repr."""
    answer = _value(v, depth)
    if depth == 0 and not _surely_fits(answer) and len(json.dumps(answer)) > MAX_ANSWER_BYTES:
        if type(answer["v"]) is list:
            answer["v"] = _repr(v)
        answer = _fit(answer)
    return answer


def _value(v: Any, depth: int) -> dict[str, Any]:
    kind = type(v)
    name = _name(v)
    if v is None or kind is bool:
        return {"t": name, "v": v}
    if kind is int:
        return {"t": name, "v": v if -MAX_INT < v < MAX_INT else f"{v.bit_length()} bits"}
    if kind is float:
        return {"t": name, "v": v if v == v and abs(v) != float("inf") else repr(v)}
    if kind is str:
        return {"t": name, "v": v[:MAX_TEXT]}
    if kind in (list, tuple) and depth < MAX_LIST_DEPTH:
        return {"t": name, "v": [_value(x, depth + 1) for x in v[:MAX_ITEMS]]}
    return {"t": name, "v": _repr(v)}


def call(f: Callable[..., Any], *args: Any) -> tuple[dict[str, Any], Any]:
    """Call `f`: its answer as JSON (or the exception it raised), and the raw answer."""
    try:
        raw = f(*args)
    except SystemExit as e:
        return _fit({"x": "SystemExit", "m": f"sys.exit({_repr(e.code)})"[:MAX_TEXT]}), None
    except BaseException as e:  # noqa: BLE001 - the student's code may raise anything
        try:
            message = str(e)
        except BaseException:  # noqa: BLE001
            message = "?"
        message = message[:MAX_TEXT] if type(message) is str else "?"
        return _fit({"x": _name(e), "m": message}), None
    return value(raw), raw


def method(obj: Any, name: str, *args: Any) -> tuple[dict[str, Any], Any]:
    """Call the method `name` of `obj` (a missing method is an answer too: AttributeError)."""
    return call(lambda: getattr(obj, name)(*args))


def missing_position(players: Sequence[str]) -> str:
    """The position asked for as one that does not play: the first of A-D not in `players`
    (`NOT_FOUND_PROBE` when all four play)."""
    return next(p for p in "ABCD" + NOT_FOUND_PROBE if p not in players)


def answers(
    cls: Any,
    players: Sequence[str],
    turns: Sequence[Sequence[Any]],
    before: Sequence[Any] | None = None,
    move: Sequence[Any] | None = None,
) -> dict[str, Any]:
    """Every answer of one game: ``play_game``, each player's step counts and completion,
    and ``get_player_by_position`` of a position that does not play. With `before` (a
    players list and a turns list), the same object plays that game first (D11). With
    `move` (position, token name, steps), ``move_token`` is called after ``play_game`` on
    that position's player (D12; what it returns is not compared, only whether it raises)."""
    new, game = call(cls)
    if game is None:
        return {"new": new}
    if before is not None:
        first, _ = method(game, "play_game", list(before[0]), [tuple(t) for t in before[1]])
        if "x" in first:
            return {"first play_game": first}
    played, _ = method(game, "play_game", list(players), [tuple(t) for t in turns])
    return questions(game, players, played, move)


def questions(
    game: Any, players: Sequence[str], played: dict[str, Any], move: Sequence[Any] | None = None
) -> dict[str, Any]:
    """The answers of a game after its ``play_game`` answered `played`: `answers` without
    the playing (the checker asks the engine's games these at every turn)."""
    out: dict[str, Any] = {"play_game": played}
    if move is not None:
        found, player = method(game, "get_player_by_position", move[0])
        if player is None or type(player) is str:
            out["move_token"] = found
        else:
            moved, _ = method(game, "move_token", player, move[1], move[2])
            out["move_token"] = moved if "x" in moved else {"t": "ok", "v": None}
    for pos in players:
        found, player = method(game, "get_player_by_position", pos)
        if player is None or type(player) is str:
            out[f"{pos}.player"] = found
            continue
        out[f"{pos}.p"], _ = method(player, "get_token_p_step_count")
        out[f"{pos}.q"], _ = method(player, "get_token_q_step_count")
        out[f"{pos}.completed"], _ = method(player, "get_completed")
    missing = missing_position(players)
    out[f"get_player_by_position({missing!r})"], _ = method(game, "get_player_by_position", missing)
    return out


def space_names(cls: Any, position: str) -> dict[str, Any]:
    """``get_space_name(steps)`` for every step count -1..57 of `position`'s player."""
    out: dict[str, Any] = {}
    new, game = call(cls)
    if game is None:
        return {"new": new}
    started, _ = method(game, "play_game", [position], [])
    if "x" in started:
        return {"play_game": started}
    found, player = method(game, "get_player_by_position", position)
    if player is None or type(player) is str:
        return {f"{position}.player": found}
    for steps in range(-1, 58):
        out[f"{position}.get_space_name({steps})"], _ = method(player, "get_space_name", steps)
    return out


def in_fork(f: Callable[..., Any], *args: Any) -> Any:
    """`f(*args)` computed in a fork of this process (so that it starts from the state the
    process had before, whatever `f` changes). A fork that ends without an answer ends this
    process with the same status, as the call would have done here."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        os.close(read)
        status = 0
        try:
            data = json.dumps(f(*args)).encode()
            view = memoryview(data)
            while view:
                view = view[os.write(write, view) :]
        except BaseException:  # noqa: BLE001
            status = 70
        os._exit(status)
    os.close(write)
    chunks = []
    while chunk := os.read(read, 1 << 16):
        chunks.append(chunk)
    os.close(read)
    _, status = os.waitpid(pid, 0)
    if not chunks:
        os._exit(os.waitstatus_to_exitcode(status) or 70)
    return json.loads(b"".join(chunks))


def handle(cls: Any, request: dict[str, Any], isolated: bool = False) -> Any:
    """One request: ``{"op": "games", "players", "games": [turns...]}`` or
    ``{"op": "names", "position"}``; with `isolated`, each game in a fork of its own."""
    if request["op"] == "names":
        if isolated:
            return in_fork(space_names, cls, request["position"])
        return space_names(cls, request["position"])
    before, move = request.get("before"), request.get("move")
    play = (lambda *a: in_fork(answers, *a)) if isolated else answers
    return [play(cls, request["players"], turns, before, move) for turns in request["games"]]


def _load(path: str) -> tuple[Any, dict[str, str]]:
    """The student's LudoGame class, or None and why not."""
    try:
        spec = importlib.util.spec_from_file_location("student_LudoGame", path)
        if spec is None or spec.loader is None:
            return None, {"load": "not_python", "message": "not a Python file"}
        module = importlib.util.module_from_spec(spec)
        sys.modules["student_LudoGame"] = module
        spec.loader.exec_module(module)
    except SystemExit as e:
        why = f"the file calls sys.exit({_repr(e.code)}) on import"
        return None, {"load": "exit", "message": why}
    except (SyntaxError, ValueError) as e:
        if not isinstance(e, SyntaxError) or e.lineno is None:
            return None, {
                "load": "not_python",
                "message": "not a Python file (it cannot be read as Python source)",
            }
        why = (
            f"syntax error at line {_repr(e.lineno)}: {e.msg[:200] if type(e.msg) is str else '?'}"
        )
        return None, {"load": "syntax", "message": why}
    except ModuleNotFoundError as e:
        missing = e.name if type(e.name) is str else "?"
        return None, {"load": "import", "message": f"it imports a missing module: {missing}"}
    except BaseException as e:  # noqa: BLE001
        try:
            message = str(e)
        except BaseException:  # noqa: BLE001
            message = "?"
        message = message[:200] if type(message) is str else "?"
        return None, {"load": "error", "message": f"loading it raised {_name(e)}: {message}"}
    try:
        cls = module.__dict__.get("LudoGame")
    except BaseException:  # noqa: BLE001
        cls = None
    if not issubclass(type(cls), type):  # a class (isinstance may call the student's code)
        return None, {"load": "no_class", "message": "the file defines no LudoGame class"}
    return cls, {"load": "ok"}


class Zygote:
    """A fork of the runner made right after the student's file is loaded, that plays each
    game it is asked in a fork of its own: the answers of a fresh interpreter, for a request
    marked ``"fresh"`` (the checker compares them with the long-running process's to find
    state shared between games)."""

    def __init__(self, cls: Any) -> None:
        ask_r, self._ask = os.pipe()
        self._reply, reply_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # pragma: no cover - the zygote
            os.close(self._ask)
            os.close(self._reply)
            with os.fdopen(ask_r, "r", encoding="utf-8") as requests:
                with os.fdopen(reply_w, "w", encoding="utf-8") as replies:
                    for line in requests:
                        replies.write(json.dumps(handle(cls, json.loads(line), True)) + "\n")
                        replies.flush()
            os._exit(0)
        os.close(ask_r)
        os.close(reply_w)
        self._replies = os.fdopen(self._reply, "r", encoding="utf-8")

    def ask(self, request: dict[str, Any]) -> Any:
        """The zygote's reply; an empty list when it has ended (no answers: the checker
        takes that as no evidence)."""
        try:
            os.write(self._ask, (json.dumps(request) + "\n").encode())
            line = self._replies.readline()
        except OSError:
            return []
        return json.loads(line) if line else []


def main() -> None:
    """Serve requests for the file named on the command line."""
    proto_in = os.fdopen(os.dup(0), "r", encoding="utf-8")
    proto_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(2, 1)  # the student's prints go to stderr, never into the answers
    sys.stdin = open(os.devnull, encoding="utf-8")  # noqa: SIM115
    sys.stdout = sys.stderr

    def send(obj: Any) -> None:
        proto_out.write(json.dumps(obj) + "\n")
        proto_out.flush()

    cls, loaded = _load(sys.argv[1])
    send(loaded)
    if cls is None:
        return
    isolated = ISOLATED in sys.argv[2:]
    zygote = None if isolated else Zygote(cls)
    for line in proto_in:
        request = json.loads(line)
        if zygote is not None and request.get("fresh"):
            send(zygote.ask(request))
        else:
            send(handle(cls, request, True) if isolated else handle(cls, request))


if __name__ == "__main__":
    main()
