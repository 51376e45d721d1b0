"""The coursework's MATLAB AIs in our referee, through GNU Octave, sandboxed.

``matlab_ai("ais/AI123.m")`` is an AI for `LudoGame.onitama.play_match` and
``round_robin``: the function ``AI123`` of that file, called as the coursework's referee
(``AIvsAI.m``) calls it: ``[cardPicked, moveFrom, moveTo, wDir] = AI123(currentPlayer,
board, cardA1, cardA2, cardB1, cardB2, sideCard, turn)`` with 5x5 char matrices (B's cards
as B holds them, unrotated) and ``turn`` the plies left.

Each game gets a fresh ``octave-cli`` process per side (`MatlabAI.session`; ``play_match``
opens and closes them), so nothing carries over between games. The process runs a worker
script (``octave_worker/``) that reads requests on one pipe and writes answers on another,
so whatever the AI prints cannot corrupt them; the AI is called with ``feval``. Octave's
missing MATLAB functions that coursework AIs use come from ``octave_compat/`` (on the path
after Octave's own). The process runs in `LudoGame.sandbox` (no network, no user files,
1 GB of memory); an answer slower than ``move_time`` kills it and loses the game.

An error of the AI loses with the coursework's words (``Error in function AI123() at line
7.`` and the message); an invalid answer is judged by the referee as any AI's.

A server shares a bounded `OctavePool` among its games: at most ``size`` processes at once,
each playing one side of one game (never another game's), closed once idle or when its
game is released.
"""

from __future__ import annotations

import atexit
import os
import re
import secrets
import select
import shutil
import subprocess
import tempfile
import threading
import time
import weakref
from collections.abc import Callable, Hashable, Sequence
from pathlib import Path
from typing import IO, Any

from LudoGame import sandbox as _sandbox

#: The defaults of a course's tournament, in one place (the CLI and the docs use them).
DEFAULT_MOVE_TIME = 10.0
DEFAULT_MEMORY_MB = _sandbox.DEFAULT_MEMORY_MB
DEFAULT_QUALIFY_GAMES = 6
DEFAULT_QUALIFY_MAX_ERRORS = 2

#: The smallest memory cap Octave 7 starts under (it maps about 350 MB of address space).
MIN_MEMORY_MB = 512

#: Seconds Octave may take to start and load the worker (not counted as the AI's time).
STARTUP_TIME = 60.0

#: Extra seconds after ``move_time`` before the process is killed, so that the referee's
#: own clock (``time_budget``) has already seen the answer as late.
KILL_GRACE = 0.05

#: How many Octave processes a server's MATLAB AIs keep at most (`OctavePool`; ``ludo serve
#: --octave-workers``).
DEFAULT_POOL_SIZE = 4

#: Seconds an Octave process of an `OctavePool` may stay unused before it is closed.
POOL_IDLE = 60.0

#: The one line shown when Octave is missing.
INSTALL_OCTAVE = "install GNU Octave: apt-get install octave"

#: A MATLAB function name: a letter, then letters, digits and underscores (the SID part
#: of ``AI<SID>`` is ``[A-Za-z0-9_]+``).
NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")

HERE = Path(__file__).resolve().parent
WORKER_DIR = HERE / "octave_worker"
COMPAT_DIR = HERE / "octave_compat"

BLOCK = 4096
#: The longest line the worker may send (an honest answer is a few dozen bytes; the
#: worker cuts an error message to 2,000 characters, at most 6 bytes each once encoded): a
#: longer one ends the process unread.
MAX_LINE_BYTES = 16_384

#: The sessions open in this process (closed at exit if still open).
_LIVE: weakref.WeakSet[MatlabSession] = weakref.WeakSet()
atexit.register(lambda: _close_all())


class OctaveNotFoundError(RuntimeError):
    """GNU Octave is not installed."""

    def __init__(self) -> None:
        super().__init__(INSTALL_OCTAVE)


class MatlabError(Exception):
    """The MATLAB AI raised an error, gave no answer in time, or its Octave process
    ended: the message says which (the referee records it as the AI's failure)."""


class MatlabStartError(MatlabError):
    """Octave did not start the worker (before the AI was asked anything)."""


class MatlabTimeoutError(MatlabError):
    """The MATLAB AI gave no answer within its ``move_time`` (its process was killed)."""


class MatlabStoppedError(Exception):
    """A ply of an `OctavePool` was stopped from outside (its game released, or the pool
    closed) before the AI answered: not the AI's failure."""


class OctaveValue:
    """An output of the AI that is neither a char row nor a real number (the referee
    rejects it): its class and size."""

    def __init__(self, description: str) -> None:
        self.description = description

    def __repr__(self) -> str:
        return f"<Octave {self.description}>"


def octave_path() -> str:
    """The ``octave-cli`` program (or ``octave``), or `OctaveNotFoundError`."""
    found = shutil.which("octave-cli") or shutil.which("octave")
    if found is None:
        raise OctaveNotFoundError
    return found


def offered(path: Path) -> bool:
    """Whether `path` looks like a file `check_path` accepts, without reading it: a regular
    ``.m`` file (not a symbolic link) named as a MATLAB function, of at most
    `LudoGame.sandbox.MAX_SOURCE_BYTES` (a folder's AIs, as ``ludo serve --ai-dir`` lists
    them)."""
    try:
        size = path.lstat().st_size if path.is_file() and not path.is_symlink() else None
    except OSError:
        return False
    return (
        size is not None
        and size <= _sandbox.MAX_SOURCE_BYTES
        and path.suffix == ".m"
        and NAME_PATTERN.match(path.stem) is not None
    )


def check_path(path: str | os.PathLike[str]) -> Path:
    """A MATLAB AI file: an existing ``.m`` file whose name is a valid function name, a
    regular file (not a symbolic link) that `LudoGame.sandbox.read_untrusted` reads."""
    p = Path(path)
    if p.suffix != ".m":
        raise ValueError(f"{str(path)!r} is not a MATLAB file (.m)")
    if not NAME_PATTERN.match(p.stem):
        raise ValueError(
            f"{str(path)!r}: the file name must be a MATLAB function name such as "
            "AI<SID>.m (letters, digits, underscores)"
        )
    if not p.exists() and not p.is_symlink():
        raise ValueError(f"no MATLAB AI file {str(path)!r}")
    try:
        _sandbox.read_untrusted(p)
    except _sandbox.UntrustedFileError as e:
        raise ValueError(f"MATLAB AI file {str(path)!r}: {e}") from None
    return p


def _decode(word: str) -> Any:
    """One output value from the worker's encoding (`ludogame_enc`)."""
    kind, rest = word[:1], word[1:]
    if kind == "c":
        return _unhex(rest)
    if kind == "n":
        value = float(rest)
        return int(value) if value.is_integer() else value
    cls, _, size = rest.partition(".")
    return OctaveValue(f"{size.rstrip('x')} {cls}")


def _unhex(text: str) -> str:
    return "".join(chr(int(h, 16)) for h in text.split(".") if h)


def _request(current_player: str, board: Any, cards: tuple[Any, ...], turn: int) -> bytes:
    """A request block: 'ASK', the player, the board and the five cards row by row, the
    turns left, padded to `BLOCK` bytes."""
    text = "ASK" + str(current_player)[:1]
    for grid in (board, *cards):
        rows = [str(r) for r in grid]
        if len(rows) != 5 or any(len(r) != 5 for r in rows):
            raise ValueError(f"a board or card must be 5 rows of 5 characters, not {grid!r}")
        text += "".join(rows)
    text += f"{int(turn):<16d}"
    data = text.encode("latin-1")
    return data.ljust(BLOCK, b" ")


def _close_all() -> None:
    """At exit: end the sessions still open (their processes and temporary folders)."""
    for session in list(_LIVE):
        try:
            session.close()
        except Exception:  # pragma: no cover - best effort at exit
            pass


class MatlabSession:
    """One Octave process playing one MATLAB AI for one game (`MatlabAI.session`). Call it
    as an AI; `close` ends the process."""

    def __init__(self, ai: MatlabAI) -> None:
        self.ai = ai
        self.token = secrets.token_hex(8)
        self.calls = 0
        self._box: _sandbox.Sandboxed | None = None
        self._copy = tempfile.mkdtemp(prefix="ludogame-ai-")
        self._stderr: IO[bytes] | None = None
        self._to: IO[bytes] | None = None
        self._from: IO[bytes] | None = None
        self._buffer = b""
        self._ready = False
        #: held while the process is killed or closed (`kill` comes from other threads)
        self._killing = threading.Lock()
        _LIVE.add(self)
        try:
            self._start()
        except BaseException:
            self.close()
            raise

    def _start(self) -> None:
        ai = self.ai
        octave = octave_path()
        copy = os.path.join(self._copy, ai.path.name)
        try:
            source = _sandbox.read_untrusted(ai.path)
        except _sandbox.UntrustedFileError as e:  # changed since the AI was made
            raise MatlabError(f"the AI file {ai.path.name}: {e}") from None
        with open(copy, "wb") as f:
            f.write(source)
        os.chmod(copy, 0o644)  # readable by the sandbox's user (nobody, when we are root)
        os.chmod(self._copy, 0o755)
        sandboxed = ai.sandbox
        where = (
            {"ai": "/ludogame/ai", "worker": "/ludogame/worker", "compat": "/ludogame/compat"}
            if sandboxed
            else {"ai": self._copy, "worker": str(WORKER_DIR), "compat": str(COMPAT_DIR)}
        )
        read_only = {
            self._copy: where["ai"],
            str(WORKER_DIR): where["worker"],
            str(COMPAT_DIR): where["compat"],
        }
        req_r, req_w = os.pipe()
        ans_r, ans_w = os.pipe()
        self._stderr = tempfile.TemporaryFile()
        argv = [
            octave, "--no-gui", "--quiet", "--no-line-editing", "--norc", "--no-history",
            "--no-window-system", f"{where['worker']}/ludogame_worker.m",
            str(req_r), str(ans_w), self.token, where["ai"], where["compat"], ai.name,
        ]  # fmt: skip
        try:
            self._box = _sandbox.popen(
                argv,
                read_only=read_only,
                limits=_sandbox.Limits(memory_mb=ai.memory_mb),
                sandbox=sandboxed,
                pass_fds=(req_r, ans_w),
                stderr=self._stderr,
                env={"OCTAVE_HISTFILE": "/dev/null"},
            )
        finally:
            os.close(req_r)
            os.close(ans_w)
        self._to = os.fdopen(req_w, "wb", buffering=0)
        self._from = os.fdopen(ans_r, "rb", buffering=0)

    def wait_ready(self) -> None:
        """Wait until Octave has started and loaded the worker (at most `STARTUP_TIME`
        seconds); `play_match` waits for both sides before the first ply, so that the
        start is not counted as the AI's time."""
        if self._ready:
            return
        line = self._read_line(time.monotonic() + STARTUP_TIME)
        if line != f"{self.token} READY":
            why = self._why(line)
            self.close()
            raise MatlabStartError(f"Octave did not start the AI {self.ai.name}: {why}")
        self._ready = True

    def _why(self, line: str | None) -> str:
        """Why no answer came: the process's end and the last lines it wrote to stderr."""
        if line is None:
            return "no answer in time"
        tail = ""
        if self._stderr is not None:
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - 2000))
            tail = self._stderr.read().decode(errors="replace").strip()
        code = None
        if self._box is not None and line == "":  # it ended: wait a moment for its code
            try:
                code = self._box.process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                code = None
        what = "its Octave process ended" + ("" if code is None else f" (exit code {code})")
        if code is not None and code < 0:
            what += " (killed: out of memory or a limit)" if code == -9 else ""
        last = [t for t in tail.splitlines() if t.strip()][-6:]
        return what + (":\n" + "\n".join(last) if last else "")

    def _read_line(self, deadline: float) -> str | None:
        """The next line from the worker (None on timeout); '' when it ended;
        `MatlabError` when it is longer than `MAX_LINE_BYTES` (the process is ended)."""
        assert self._from is not None
        while b"\n" not in self._buffer[: MAX_LINE_BYTES + 1]:
            if len(self._buffer) > MAX_LINE_BYTES:
                self.kill()
                raise MatlabError(
                    f"the AI's answer is longer than {MAX_LINE_BYTES:,} bytes (it was ended unread)"
                )
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self._from], [], [], left)
            if not ready:
                return None
            chunk = os.read(self._from.fileno(), 65536)
            if not chunk:
                return ""
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("latin-1")

    def __call__(
        self,
        current_player: str,
        board: Any,
        cardA1: Any,  # noqa: N803 (the coursework's names)
        cardA2: Any,  # noqa: N803
        cardB1: Any,  # noqa: N803
        cardB2: Any,  # noqa: N803
        side_card: Any,
        turn: int,
        /,
    ) -> tuple[Any, Any, Any, Any]:
        """Ask the AI for its answer (the coursework's contract)."""
        if self._box is None or self._to is None:
            raise MatlabError(f"the AI {self.ai.name} is closed")
        self.wait_ready()
        request = _request(current_player, board, (cardA1, cardA2, cardB1, cardB2, side_card), turn)
        self.calls += 1
        try:
            self._to.write(request)
        except OSError:
            raise MatlabError(self._why("")) from None
        line = self._read_line(time.monotonic() + self.ai.move_time + KILL_GRACE)
        if line is None:
            self._box.kill()
            raise MatlabTimeoutError(
                f"Time limit exceeded: the AI gave no answer within {self.ai.move_time:g} s"
            )
        words = line.split(" ")
        if not line or words[0] != self.token:
            raise MatlabError(self._why(line))
        if words[1:2] == ["ERR"] and len(words) == 3:
            raise MatlabError(_unhex(words[2]))
        if words[1:2] == ["OK"] and len(words) == 6:
            card, move_from, move_to, wall = (_decode(w) for w in words[2:])
            return card, move_from, move_to, wall
        raise MatlabError(f"the worker's answer is garbled: {line[:200]!r}")

    @property
    def alive(self) -> bool:
        """Is the process still running?"""
        box = self._box
        return box is not None and box.process.poll() is None

    def kill(self) -> None:
        """Kill the process at once, from any thread: a call waiting for its answer then
        raises `MatlabError` (its thread then `close`s the session)."""
        with self._killing:
            box = self._box
            # (a process already reaped is not signalled: its id may be another's now)
            if box is not None and box.process.returncode is None:
                box.kill()

    def close(self) -> None:
        """End the process and remove its files."""
        if self._to is not None:
            try:
                self._to.write(b"BYE".ljust(BLOCK))
            except OSError:
                pass
        for f in (self._to, self._from, self._stderr):
            if f is not None:
                f.close()
        self._to = self._from = self._stderr = None
        with self._killing:
            if self._box is not None:
                self._box.close()
                self._box = None
        shutil.rmtree(self._copy, ignore_errors=True)
        _LIVE.discard(self)

    def __enter__(self) -> MatlabSession:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class MatlabAI:
    """A MATLAB AI file as an AI (see the module docs): `session` starts a fresh Octave
    process for a game; calling it directly uses one process kept until `close`. It
    pickles (by its settings), so that it can play on Ray workers."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        move_time: float = DEFAULT_MOVE_TIME,
        memory_mb: int = DEFAULT_MEMORY_MB,
        sandbox: bool = True,
    ) -> None:
        checked = check_path(path)  # the file itself, never a link's target
        self.path = checked.parent.resolve() / checked.name
        self.name = self.path.stem
        if not move_time > 0:
            raise ValueError(f"move_time must be positive, not {move_time}")
        if not memory_mb >= MIN_MEMORY_MB:
            raise ValueError(
                f"memory_mb must be at least {MIN_MEMORY_MB} (Octave itself maps about "
                f"350 MB, and under a smaller cap it spins instead of starting), not {memory_mb}"
            )
        self.move_time = float(move_time)
        self.memory_mb = int(memory_mb)
        self.sandbox = bool(sandbox)
        self._session: MatlabSession | None = None

    def session(self) -> MatlabSession:
        """A new Octave process for one game, starting (close it after: it is a context
        manager; `MatlabSession.wait_ready` waits for the start)."""
        return MatlabSession(self)

    def __call__(self, *args: Any) -> tuple[Any, Any, Any, Any]:
        if self._session is None:
            self._session = self.session()
            self._session.wait_ready()
        return self._session(*args)

    def close(self) -> None:
        """End the process that direct calls use, if any."""
        if self._session is not None:
            self._session.close()
            self._session = None

    def __reduce__(self) -> tuple[Any, ...]:
        return (MatlabAI, (str(self.path), self.move_time, self.memory_mb, self.sandbox))

    def __repr__(self) -> str:
        return (
            f"MatlabAI({str(self.path)!r}, move_time={self.move_time:g}, "
            f"memory_mb={self.memory_mb}, sandbox={self.sandbox})"
        )

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # pragma: no cover - at interpreter exit
            pass


#: Whom a process of an `OctavePool` plays for: one side of one game, ``(game, side)``.
Owner = tuple[Hashable, str]


class _Worker:
    """One process of an `OctavePool`: its AI's settings, its session (None until started),
    whether a ply (or its closing) holds it, when it was last given back, and whether it
    was stopped from outside."""

    __slots__ = ("settings", "session", "busy", "used", "stopped")

    def __init__(self, settings: tuple[Any, ...]) -> None:
        self.settings = settings
        self.session: MatlabSession | None = None
        self.busy = True
        self.used = time.monotonic()
        self.stopped = False


class _Waiter:
    """A ply waiting for a process of an `OctavePool` (cancelled by `release`)."""

    __slots__ = ("game", "cancelled")

    def __init__(self, game: Hashable) -> None:
        self.game = game
        self.cancelled = False


class OctavePool:
    """At most `size` Octave processes for the MATLAB AIs of many games (a web server's).

    A process plays one side of one game, its owner ``(game, side)``, and the side's next
    plies reuse it (its AI's ``persistent`` and global variables last as under a referee);
    it never plays for another game, so nothing carries over between games. A process
    unused for `idle` seconds is closed. When all `size` are open, a new owner takes the
    place of the least recently used idle one (closed first; its side's next ply starts a
    fresh process, which the coursework's contract allows: each call gets the whole
    position); when every process is thinking, a ply waits for one. `release` frees a
    game's processes at once, killing a ply in progress (which raises `MatlabStoppedError`);
    `close` ends them all. Plies run on threads: every method is thread-safe."""

    def __init__(self, size: int = DEFAULT_POOL_SIZE, idle: float = POOL_IDLE) -> None:
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"the Octave pool's size must be a whole number >= 1, not {size!r}")
        if not (isinstance(idle, (int, float)) and idle > 0):
            raise ValueError(f"the Octave pool's idle time must be positive, not {idle!r}")
        self.size = size
        self.idle = float(idle)
        self._cond = threading.Condition()
        self._workers: dict[Owner, _Worker] = {}
        self._waiters: set[_Waiter] = set()
        self._closed = False
        self._sweeper: threading.Thread | None = None
        #: the most processes that were open at once
        self.most = 0

    @property
    def open(self) -> int:
        """How many processes are open (starting, thinking or idle)."""
        with self._cond:
            return len(self._workers)

    @property
    def waiting(self) -> int:
        """How many plies wait for a process (every one is thinking)."""
        with self._cond:
            return len(self._waiters)

    def ask(
        self,
        owner: Owner,
        ai: MatlabAI,
        args: Sequence[Any],
        gone: Callable[[], bool] | None = None,
    ) -> tuple[Any, Any, Any, Any]:
        """The answer of `ai` to the coursework's arguments `args`, from the process of
        `owner` (started first if need be; the start is not the AI's time). An error, a
        timeout (`MatlabTimeoutError`) or an ended process raise `MatlabError` and close
        the process; `MatlabStoppedError` if the owner's game was released or the pool closed
        meanwhile, or if `gone()` (checked while waiting) says the game is gone."""
        worker, replaced = self._take(owner, ai, gone)
        try:
            if replaced is not None:  # (the process it replaces ends first)
                replaced.close()
            if worker.session is None:
                session = ai.session()
                with self._cond:
                    worker.session = session
                if worker.stopped:
                    raise MatlabStoppedError(f"the game of {ai.name} was released")
            worker.session.wait_ready()
            answer = worker.session(*args)
            if worker.stopped:
                raise MatlabStoppedError(f"the game of {ai.name} was released")
        except BaseException as e:
            self._drop(owner, worker)
            if worker.stopped and isinstance(e, MatlabError):
                raise MatlabStoppedError(f"the game of {ai.name} was released") from None
            raise
        with self._cond:
            worker.busy = False
            worker.used = time.monotonic()
            self._cond.notify_all()
        return answer

    def _take(
        self, owner: Owner, ai: MatlabAI, gone: Callable[[], bool] | None
    ) -> tuple[_Worker, MatlabSession | None]:
        """The worker of `owner`, held for a ply (a new one, without a session yet, if
        need be), and the session of an idle worker it replaces (to close before starting)."""
        settings = (str(ai.path), ai.move_time, ai.memory_mb, ai.sandbox)
        waiter = _Waiter(owner[0])
        with self._cond:
            self._waiters.add(waiter)
            try:
                while True:
                    if self._closed or waiter.cancelled or (gone is not None and gone()):
                        raise MatlabStoppedError(f"the game of {ai.name} was released")
                    worker = self._workers.get(owner)
                    if worker is not None and worker.busy:
                        self._cond.wait()
                        continue
                    if worker is not None:
                        worker.busy = True
                        live = worker.session is not None and worker.session.alive
                        if worker.settings == settings and live:
                            return worker, None
                        fresh = self._workers[owner] = _Worker(settings)
                        return fresh, worker.session
                    if len(self._workers) < self.size:
                        return self._add(owner, settings), None
                    idle = [(k, w) for k, w in self._workers.items() if not w.busy]
                    if idle:
                        key, victim = min(idle, key=lambda kw: kw[1].used)
                        del self._workers[key]
                        return self._add(owner, settings), victim.session
                    self._cond.wait()
            finally:
                self._waiters.discard(waiter)

    def _add(self, owner: Owner, settings: tuple[Any, ...]) -> _Worker:
        """A new worker for `owner` (the lock held), and the idle sweeper if none runs."""
        worker = self._workers[owner] = _Worker(settings)
        self.most = max(self.most, len(self._workers))
        if self._sweeper is None:
            self._sweeper = threading.Thread(
                target=self._sweep, name="ludogame-octave-pool", daemon=True
            )
            self._sweeper.start()
        return worker

    def _drop(self, owner: Owner, worker: _Worker) -> None:
        """Close `worker`'s process, then give its place up."""
        if worker.session is not None:
            worker.session.close()
        with self._cond:
            if self._workers.get(owner) is worker:
                del self._workers[owner]
            self._cond.notify_all()

    def _sweep(self) -> None:
        """Close the processes idle for `idle` seconds, until none is open."""
        with self._cond:
            while not self._closed and self._workers:
                now = time.monotonic()
                idle = [(k, w) for k, w in self._workers.items() if not w.busy]
                expired = [(k, w) for k, w in idle if now - w.used >= self.idle]
                if not expired:
                    soonest = min((w.used + self.idle for _, w in idle), default=now + self.idle)
                    self._cond.wait(max(0.01, soonest - now))
                    continue
                for _, w in expired:
                    w.busy = True
                self._cond.release()
                try:
                    for _, w in expired:
                        if w.session is not None:
                            w.session.close()
                finally:
                    self._cond.acquire()
                for k, w in expired:
                    if self._workers.get(k) is w:
                        del self._workers[k]
                self._cond.notify_all()
            self._sweeper = None

    def release(self, game: Hashable | None = None) -> None:
        """Free the processes of `game` (every game's with None) at once: an idle one is
        closed, a thinking one killed (its ply raises `MatlabStoppedError`), a ply waiting for a
        process stops waiting."""
        killing: list[MatlabSession] = []
        closing: list[tuple[Owner, _Worker]] = []
        with self._cond:
            for waiter in self._waiters:
                if game is None or waiter.game == game:
                    waiter.cancelled = True
            for owner, w in self._workers.items():
                if game is not None and owner[0] != game:
                    continue
                if w.busy:
                    w.stopped = True
                    if w.session is not None:
                        killing.append(w.session)
                else:
                    w.busy = w.stopped = True
                    closing.append((owner, w))
            self._cond.notify_all()
        for session in killing:
            session.kill()
        for owner, w in closing:
            self._drop(owner, w)

    def close(self) -> None:
        """End every process (killing the plies in progress) and refuse new plies."""
        with self._cond:
            self._closed = True
        self.release(None)


def matlab_ai(
    path: str | os.PathLike[str],
    move_time: float = DEFAULT_MOVE_TIME,
    memory_mb: int = DEFAULT_MEMORY_MB,
    sandbox: bool = True,
) -> MatlabAI:
    """The MATLAB AI in the file ``path`` (``AI<SID>.m``) as an AI for ``play_match`` and
    ``round_robin``: it runs in GNU Octave, one fresh process per game and side, in the
    sandbox unless ``sandbox=False`` (where bubblewrap is missing it is refused without
    that). An answer slower than ``move_time`` seconds loses; the process may use
    ``memory_mb`` of memory. Give ``play_match`` a ``time_budget`` of ``move_time`` so that
    a slow answer is recorded as a timeout."""
    ai = MatlabAI(path, move_time, memory_mb, sandbox)
    if sandbox and not _sandbox.available():
        raise _sandbox.SandboxUnavailableError(
            f"refusing to run the untrusted AI {ai.name} without a sandbox: "
            f"{_sandbox.unavailable_reason()} (or run it unsandboxed with --no-sandbox / "
            "sandbox=False)"
        )
    octave_path()
    return ai


def is_matlab_path(name: str) -> bool:
    """Whether an AI's name on the command line is a MATLAB file (ends with .m)."""
    return str(name).endswith(".m")


__all__ = [
    "COMPAT_DIR",
    "DEFAULT_MEMORY_MB",
    "DEFAULT_MOVE_TIME",
    "DEFAULT_POOL_SIZE",
    "DEFAULT_QUALIFY_GAMES",
    "DEFAULT_QUALIFY_MAX_ERRORS",
    "INSTALL_OCTAVE",
    "POOL_IDLE",
    "MatlabAI",
    "MatlabError",
    "MatlabSession",
    "MatlabStartError",
    "MatlabStoppedError",
    "MatlabTimeoutError",
    "OctaveNotFoundError",
    "OctavePool",
    "OctaveValue",
    "is_matlab_path",
    "matlab_ai",
    "octave_path",
    "offered",
]
