"""The ``onitama engine`` line protocol: other programs and GUIs play the built-in search.

One command a line on stdin, one answer a line on stdout (flushed after each); see
docs/onitama-engine.md for the protocol. Bad input gets one ``error <message>`` line and
changes nothing; the engine goes on until ``quit`` or the end of its input. A search runs
on a thread of its own while the engine reads on: ``stop`` ends it (its ``bestmove`` is
answered at once), ``isready`` is answered ``readyok``; any other command waits for a
search with a limit to end, and is an error during ``go infinite`` and while a ``go ponder``
ponders (until ``ponderhit``). With ``--endgame N`` the engine builds the endgame table of a
standard game's cards on a thread of its own once few pieces are left, and ``isready``
waits for it.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any, TextIO

from LudoGame.onitama import Action, BuiltinAI, EndgameTable, Onitama, PonderHit, SearchStop

#: Seconds a search takes when neither the ``go`` line nor the command line names a limit.
DEFAULT_TIME = 1.0

#: With ``--endgame N``, a table is built once a standard position has at most this many
#: pieces more than N (a search from there soon reaches the table's positions).
ENDGAME_MARGIN = 2

#: The most memory an endgame table's build may take, in bytes (``--endgame`` larger than
#: that is a usage error).
ENDGAME_MAX_BYTES = 4 << 30

#: A forced win whose winning ply is the k-th from now scores MATE - k (the engine's).
MATE = 30_000
#: Scores beyond this are forced wins or losses.
MATE_BOUND = MATE - 1_000

#: The words of the ``go`` line and the command line's limits.
LIMIT_WORDS = ("time", "depth", "nodes")


class ProtocolError(Exception):
    """A line the engine cannot act on: answered ``error <message>``."""


@dataclass(frozen=True)
class Limits:
    """What stops a search: seconds, plies, nodes (None: not limited by it)."""

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None
    #: ``go infinite``: no limit at all, until ``stop`` (or the ply horizon).
    infinite: bool = False

    def given(self) -> bool:
        return self.infinite or any(v is not None for v in (self.time, self.depth, self.nodes))

    def or_default(self) -> Limits:
        """These limits, or the default time when none is set."""
        return self if self.given() else Limits(time=DEFAULT_TIME)


def score_text(score: int) -> str:
    """The score for the side to move: ``cp N`` (the evaluation, 0 balanced or a tie), or
    ``mate N`` (a forced win in N of its own moves) / ``mate -N`` (a forced loss, the
    opponent winning on its N-th move), as in UCI."""
    if score > MATE_BOUND:
        return f"mate {(MATE - score + 1) // 2}"
    if score < -MATE_BOUND:
        return f"mate -{(MATE + score) // 2}"
    return f"cp {score}"


def parse_limits(words: list[str]) -> Limits:
    """``time S`` / ``depth N`` / ``nodes N`` pairs, in any order, or ``infinite`` alone."""
    if words == ["infinite"]:
        return Limits(infinite=True)
    if "infinite" in words:
        raise ProtocolError("infinite takes no other limit: 'go infinite' searches until 'stop'")
    if len(words) % 2:
        raise ProtocolError(f"a limit needs a value: {' '.join(words)!r}")
    values: dict[str, float | int] = {}
    for key, value in zip(words[::2], words[1::2], strict=True):
        if key not in LIMIT_WORDS:
            raise ProtocolError(f"unknown limit {key!r} (time, depth, nodes or infinite)")
        if key in values:
            raise ProtocolError(f"{key} is given twice")
        try:
            number: float | int = float(value) if key == "time" else int(value)
        except ValueError:
            kind = "a number of seconds" if key == "time" else "a whole number"
            raise ProtocolError(f"{key} must be {kind}, not {value!r}") from None
        if not 0 < number < float("inf"):  # also refuses nan
            need = "a number of seconds above 0" if key == "time" else "1 or more"
            raise ProtocolError(f"{key} must be {need}, not {value!r}")
        values[key] = number
    t = values.get("time")
    d = values.get("depth")
    n = values.get("nodes")
    return Limits(
        time=None if t is None else float(t),
        depth=None if d is None else int(d),
        nodes=None if n is None else int(n),
    )


def split_actions(game: Onitama, words: list[str]) -> list[str]:
    """Group the words of an action list into actions of the game's form: 3 words in
    standard Onitama (``1 e2 d3``), 4 in the wall variant (``1 e2 d3 u``); commas between
    actions are allowed."""
    words = [w for part in words for w in part.split(",") if w]
    size = 3 if game.rules == "standard" else 4
    if len(words) % size:
        form = "'1 e2 d3'" if size == 3 else "'1 e2 d3 u'"
        raise ProtocolError(
            f"{len(words)} words do not make whole actions: this game's actions are "
            f"{size} words, e.g. {form}"
        )
    return [" ".join(words[i : i + size]) for i in range(0, len(words), size)]


def one_line(e: BaseException) -> str:
    """An error's message on one line."""
    text = " ".join(str(e).split())
    return text or type(e).__name__


def pieces_on_board(game: Onitama) -> int:
    """The pieces on the board: masters (generals) and students (soldiers) of both sides."""
    return sum(row.count(c) for row in game.board for c in "AaBb")


class TableBuild:
    """An endgame table built on a thread of its own (on the engine's ``--threads``);
    ``table`` once it is done (None if it was stopped or failed, ``error`` then says why)."""

    def __init__(self, game: Onitama, pieces: int, threads: int) -> None:
        self.cards = frozenset(game.cards.values())
        self.stop = SearchStop()
        self.table: EndgameTable | None = None
        self.error: str | None = None
        self.thread = threading.Thread(
            target=self._run,
            args=(game.copy(), pieces, threads),
            name="onitama-endgame",
            daemon=True,
        )
        self.thread.start()

    def _run(self, game: Onitama, pieces: int, threads: int) -> None:
        try:
            self.table = EndgameTable.build(
                game, pieces, ENDGAME_MAX_BYTES, stop=self.stop, threads=threads
            )
        except Exception as e:  # a table too large or refused: searched without
            self.error = one_line(e)

    def wait(self) -> None:
        while self.thread.is_alive():  # short joins: Ctrl-C is seen at once
            self.thread.join(0.05)

    def end(self) -> None:
        self.stop.request()
        self.wait()


class Engine:
    """The state of one engine session: the position, the default limits, the threads a
    search runs on and the endgame tables."""

    def __init__(self, limits: Limits, threads: int = 1, endgame: int | None = None) -> None:
        self.limits = limits.or_default()
        self.threads = threads
        #: The most pieces of the endgame tables built (None: none are).
        self.endgame = endgame
        self.build: TableBuild | None = None
        self.game: Onitama | None = None
        # The AI of the last search and its limits: kept while the limits stay the same, so
        # that time-limited searches build on the table of the earlier ones.
        self.ai: tuple[Limits, BuiltinAI] | None = None
        #: The endgame table that AI searches with.
        self.ai_table: EndgameTable | None = None

    def table(self) -> EndgameTable | None:
        """The endgame table built (None: none yet, or being built)."""
        build = self.build
        return None if build is None or build.thread.is_alive() else build.table

    def prepare(self, game: Onitama) -> None:
        """Start building the endgame table of `game`'s cards if tables are wanted, the game
        is standard, few pieces are left and no table of its cards is built or being built."""
        if self.endgame is None or game.rules != "standard" or game.is_over():
            return
        if pieces_on_board(game) > self.endgame + ENDGAME_MARGIN:
            return
        if self.build is not None and self.build.cards == frozenset(game.cards.values()):
            return
        if self.build is not None:
            self.build.end()
        self.build = TableBuild(game, self.endgame, self.threads)

    def close(self) -> None:
        """Stop a table being built."""
        if self.build is not None and self.build.thread.is_alive():
            self.build.end()

    def answer(self, line: str) -> list[str] | None:
        """The answer lines to one input line (None: quit). Raises ProtocolError or the
        game's own errors for bad input; the position then stays as it was."""
        words = line.split()
        if not words:
            return []
        command, rest = words[0], words[1:]
        if command == "quit":
            return None
        if command == "isready":
            return ["readyok"]
        if command == "position":
            self.game = self.position(rest)
            self.prepare(self.game)
            return []
        if command == "go":
            return [self.go(parse_limits(rest) if rest else self.limits)]
        if command == "legal":
            return [" ".join(["legal", *(str(a) for a in self.current().legal_moves)])]
        if command == "notation":
            return [self.current().to_notation()]
        if "/" in command:  # a bare position: answer its best move at once
            game = self.position(words)
            self.prepare(game)
            found = self.go(self.limits, game)
            self.game = game
            return [found]
        raise ProtocolError(f"unknown command {command!r}")

    def current(self) -> Onitama:
        if self.game is None:
            raise ProtocolError("no position yet: send 'position <notation>' first")
        return self.game

    def position(self, words: list[str]) -> Onitama:
        """The game of ``position`` (a notation, ``setup ID`` or ``deal SEED [CARD_SET]``),
        then the actions after ``moves``."""
        if not words:
            raise ProtocolError("position needs a notation, 'setup ID' or 'deal SEED [CARD_SET]'")
        moves: list[str] = []
        if "moves" in words:
            cut = words.index("moves")
            words, moves = words[:cut], words[cut + 1 :]
        if words[0] == "setup" and len(words) == 2:
            game = Onitama.setup(words[1])
        elif words[0] == "deal":
            if len(words) not in (2, 3):
                raise ProtocolError("a deal is 'deal SEED' or 'deal SEED CARD_SET'")
            try:
                seed = int(words[1])
            except ValueError:
                raise ProtocolError(f"a deal's seed is a whole number, not {words[1]!r}") from None
            try:
                game = Onitama.standard(seed=seed, card_set=words[2] if len(words) == 3 else None)
            except (ValueError, TypeError) as e:
                raise ProtocolError(one_line(e)) from None
        else:
            game = Onitama.from_notation(" ".join(words))
        for k, text in enumerate(split_actions(game, moves), 1):
            if game.is_over():
                raise ProtocolError(f"move {k} ({text}) comes after the end of the game")
            try:
                game.play(text)
            except (ValueError, TypeError) as e:
                raise ProtocolError(f"move {k} ({text}): {one_line(e)}") from None
        return game

    def go(
        self, limits: Limits, game: Onitama | None = None, stop: SearchStop | None = None
    ) -> str:
        """The ``bestmove`` line of a search of the game (or the ``result`` line of a game
        that is over); `stop` ends the search early."""
        started = time.monotonic()
        found = self.search(limits, game, stop)
        return found if isinstance(found, str) else bestmove_line(found, time.monotonic() - started)

    def search(
        self,
        limits: Limits,
        game: Onitama | None = None,
        stop: SearchStop | None = None,
        ponder: PonderHit | None = None,
    ) -> dict[str, Any] | str:
        """What a search of the game finds (``BuiltinAI.analyse``'s dict), or the ``result``
        line of a game that is over; `stop` ends the search early, `ponder` makes it a
        pondering search (its time runs from ``ponder.request()``)."""
        game = game or self.current()
        if game.is_over():
            reason = game.result_reason
            winner = game.winner or "tie"
            return f"result {winner} {reason.value if reason is not None else ''}".rstrip()
        if self.ai is None or self.ai[0] != limits:
            ai = BuiltinAI(
                level=2,
                time=limits.time,
                nodes=limits.nodes,
                depth=limits.depth,
                threads=self.threads,
            )
            self.ai = (limits, ai)
            self.ai_table = None
        ai = self.ai[1]
        build = self.build
        if build is not None and limits.nodes is not None:
            # a node budget is deterministic: its search waits for the table being built
            while build.thread.is_alive() and not (stop is not None and stop.requested):
                build.thread.join(0.05)
        table = self.table()
        if self.ai_table is not table:
            ai.set_endgame(table)
            self.ai_table = table
        return ai.analyse(game, stop=stop, ponder=ponder)


def bestmove_line(info: dict[str, Any], took: float) -> str:
    """The ``bestmove`` line of a search's answer that took `took` seconds."""
    action: Action = info["action"]
    pv = " ".join(str(a) for a in info["pv"])
    return (
        f"bestmove {action} score {score_text(info['score'])} depth {info['depth']} "
        f"nodes {info['nodes']} time {took:.3f} pv {pv}"
    )


class Search:
    """A search running on its own thread; it writes its answer line when it ends, or, if it
    ponders (``go ponder``), once ``ponderhit`` or ``stop`` came."""

    def __init__(
        self, server: Server, engine: Engine, limits: Limits, game: Onitama, ponder: bool = False
    ) -> None:
        self.server = server
        self.infinite = limits.infinite
        self.stop = SearchStop()
        self.hit = PonderHit() if ponder else None
        #: When the clock started: the search's start, or the ponderhit.
        self.clock = time.monotonic()
        #: Set when the answer may be written (at once unless pondering).
        self.released = threading.Event()
        if not ponder:
            self.released.set()
        self.thread = threading.Thread(
            target=self._run, args=(engine, limits, game), name="onitama-search", daemon=True
        )
        self.thread.start()

    def _run(self, engine: Engine, limits: Limits, game: Onitama) -> None:
        try:
            found = engine.search(limits, game, self.stop, self.hit)
            self.released.wait()
            took = time.monotonic() - self.clock
            line = found if isinstance(found, str) else bestmove_line(found, took)
        except Exception as e:  # an engine error: one line, as for bad input
            line = f"error {one_line(e)}"
        self.server.write([line])

    def pondering(self) -> bool:
        """Is it a ``go ponder`` search before its ``ponderhit`` (or ``stop``)?"""
        return not self.released.is_set()

    def ponderhit(self) -> None:
        """The expected reply was played: its clock starts, it goes on as a normal search."""
        if self.hit is not None and not self.released.is_set():
            self.clock = time.monotonic()
            self.hit.request()
            self.released.set()

    def running(self) -> bool:
        return self.thread.is_alive()

    def end(self) -> None:
        """Stop the search and wait for its answer."""
        self.stop.request()
        self.released.set()
        self.wait()

    def wait(self) -> None:
        while self.thread.is_alive():  # short joins: Ctrl-C is seen at once
            self.thread.join(0.05)


class Server:
    """One session: commands read on the caller's thread, searches on their own."""

    def __init__(
        self, out: TextIO, limits: Limits, threads: int = 1, endgame: int | None = None
    ) -> None:
        self.out = out
        self.engine = Engine(limits, threads, endgame)
        self.search: Search | None = None
        self.lock = threading.Lock()
        #: Set on Ctrl-C: nothing more is written.
        self.silent = False

    def write(self, lines: list[str]) -> None:
        with self.lock:
            if self.silent:
                return
            for text in lines:
                self.out.write(text + "\n")
            self.out.flush()

    def busy(self) -> Search | None:
        """The running search, if any."""
        if self.search is not None and not self.search.running():
            self.search = None
        return self.search

    def handle(self, line: str) -> bool:
        """Act on one input line; False once the session ends (``quit``)."""
        words = line.split()
        command = words[0] if words else ""
        search = self.busy()
        if search is not None:
            if command == "stop":
                search.end()
                return True
            if command == "ponderhit":
                search.ponderhit()
                return True
            if command == "quit":
                search.end()
                return False
            if command == "isready":
                self.ready()
                return True
            if not command:
                return True
            if search.infinite:
                self.write(["error a search is running ('go infinite'): send 'stop' first"])
                return True
            if search.pondering():
                self.write(
                    ["error a search is pondering ('go ponder'): send 'ponderhit' or 'stop' first"]
                )
                return True
            search.wait()  # a search with a limit ends by itself: the command waits for it
            self.search = None
        if command in ("stop", "ponderhit"):  # no search to stop or to start the clock of
            return True
        try:
            if command == "isready":
                self.ready()
                return True
            if command == "go":
                ponder = words[1:2] == ["ponder"]
                rest = words[2:] if ponder else words[1:]
                limits = parse_limits(rest) if rest else self.engine.limits
                if ponder and limits.infinite:
                    raise ProtocolError(
                        "'go ponder' takes time, depth or nodes, not infinite: it ponders until "
                        "'ponderhit', then searches within its limits"
                    )
                self.start(limits, self.engine.current(), ponder)
                return True
            if "/" in command:  # a bare position: set it and search it at once
                game = self.engine.position(words)
                self.engine.game = game
                self.engine.prepare(game)
                self.start(self.engine.limits, game)
                return True
            answer = self.engine.answer(line)
        except (KeyboardInterrupt, SystemExit):
            raise
        except Exception as e:  # bad input: one line, and go on
            answer = [f"error {one_line(e)}"]
        if answer is None:
            return False
        self.write(answer)
        return True

    def ready(self) -> None:
        """``isready``: ``readyok`` once an endgame table being built is done."""
        build = self.engine.build
        if build is not None:
            build.wait()
        self.write(["readyok"])

    def start(self, limits: Limits, game: Onitama, ponder: bool = False) -> None:
        """A search of `game` on its own thread (a game that is over answers at once);
        `ponder`: a ``go ponder`` search."""
        if game.is_over():
            self.write([self.engine.go(limits, game)])
            return
        self.search = Search(self, self.engine, limits, game, ponder)

    def finish(self) -> None:
        """The end of the input: a running search ends (``go infinite`` and a pondering
        search are stopped) and answers; a table being built is stopped."""
        search = self.busy()
        if search is not None:
            if search.infinite or search.pondering():
                search.end()
            search.wait()
        self.engine.close()

    def interrupted(self) -> None:
        """Ctrl-C: nothing more is written; a running search is stopped."""
        with self.lock:
            self.silent = True
        search = self.search
        if search is not None:
            search.stop.request()
            search.released.set()
            search.thread.join(1.0)
        build = self.engine.build
        if build is not None:
            build.stop.request()
            build.thread.join(1.0)


def serve(
    inp: TextIO, out: TextIO, limits: Limits, threads: int = 1, endgame: int | None = None
) -> int:
    """Answer `inp`'s lines on `out` until ``quit`` or the end of the input; exit code 0.
    `threads`: the threads a search runs on; `endgame`: the most pieces of the endgame
    tables built (None: none). Ctrl-C (KeyboardInterrupt) is left to the caller, once a
    running search is stopped and nothing more is written."""
    server = Server(out, limits, threads, endgame)
    try:
        while True:
            line = inp.readline()
            if not line:
                server.finish()
                return 0
            if not server.handle(line):
                server.engine.close()
                return 0
    except BaseException:
        server.interrupted()
        raise
