"""The student's side of `ludo check`: their ``LudoGame.py`` loaded in a sandboxed runner
process (`LudoGame._check_runner`), asked questions over a pipe, every reply read with limits
(`LudoGame.check_replies`). Nothing the process sends is trusted: a malformed reply is that
call's wrong answer; a flood, a hang or a crash ends only this file's check."""

from __future__ import annotations

import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any

from LudoGame import _check_runner, sandbox
from LudoGame import check_replies as replies

RUNNER_NAME = "ludo_check_runner.py"
STUDENT_NAME = "LudoGame.py"
#: Where the sandbox sees the runner and the student's file (read-only).
INSIDE = "/ludo-check"
#: The time limit of one request (more for a batch of games), in seconds.
DEFAULT_TIMEOUT = 5.0
#: A whole check of one file (every request, every process) may take at most this many
#: times the time limit of one request, by default: a file answering each request just in
#: time would otherwise hold the grader for as many limits as it is asked requests.
BUDGET_REQUESTS = 120
#: The budget a Gradescope autograder gives each submission, in seconds: under the
#: platform's default limit of 10 minutes a submission, with room for loading the file and
#: writing the results, so that a stalling file gets its ``budget:`` verdict, not the
#: platform's timeout.
AUTOGRADER_BUDGET = 420.0
#: The longest wait for a runner to load the student's file (at least the request's limit).
LOAD_SECONDS = 20.0


@dataclass(frozen=True)
class Budget:
    """The time a whole check of one file may take: `seconds` from its start, ending at
    `until` (`time.monotonic`)."""

    seconds: float
    until: float

    @staticmethod
    def starting(timeout: float, seconds: float | None = None) -> Budget:
        """A budget from now: `seconds`, by default `BUDGET_REQUESTS` times `timeout`."""
        seconds = BUDGET_REQUESTS * timeout if seconds is None else seconds
        return Budget(seconds, time.monotonic() + seconds)

    def spent(self) -> bool:
        """Whether the budget has run out."""
        return time.monotonic() >= self.until

    def text(self) -> str:
        """What a report says of a check that ran past this budget."""
        return f"budget: the check of this file ran past its {self.seconds:g} s in all (stalling?)"


class Student:
    """The student's file loaded in a sandboxed runner process."""

    def __init__(
        self,
        path: str,
        source: bytes,
        timeout: float,
        use_sandbox: bool = True,
        isolated: bool = False,
        budget: Budget | None = None,
    ) -> None:
        self.path = os.path.abspath(path)
        #: The file's bytes as the caller read them (`checker.read_submission`, once for all
        #: the processes of a check): the sandbox gets a copy of these.
        self.source = source
        self.timeout = timeout
        #: The whole check's budget, if it has one: no request is waited for past its end.
        self.budget = budget
        self.use_sandbox = use_sandbox
        self.isolated = isolated
        self.box: sandbox.Sandboxed | None = None
        self._buffer = bytearray()
        self._empty: str | None = None
        try:
            self.loaded = self._start()
        except BaseException:  # nothing is left behind: the folder, a started process
            self.close()
            raise

    def _start(self) -> dict[str, Any]:
        here = os.path.dirname(os.path.abspath(_check_runner.__file__))
        runner = os.path.join(here, "_check_runner.py")
        prefix = os.path.realpath(sys.base_prefix)
        python = os.path.realpath(sys.executable)
        if not python.startswith(prefix + os.sep):  # a venv of copies: its base's python
            python = os.path.join(prefix, "bin", f"python{sys.version_info[0]}")
        if self.use_sandbox:
            # the Python install, without its site-packages (an installed LudoGame stays
            # hidden: an empty folder is mounted over it)
            self._empty = tempfile.mkdtemp(prefix="ludo-check-empty-")
            os.chmod(self._empty, 0o755)
            read_only = {prefix: prefix}
            for k, folder in enumerate(_site_packages(prefix)):
                empty = os.path.join(self._empty, str(k))
                os.mkdir(empty)
                os.chmod(empty, 0o755)
                read_only[empty] = folder
            read_only[runner] = f"{INSIDE}/{RUNNER_NAME}"
            # a copy readable by the sandbox's user (nobody, when we are root), whatever
            # the mode of the student's file: the bytes the caller read
            copy = os.path.join(self._empty, STUDENT_NAME)
            with open(copy, "wb") as f:
                f.write(self.source)
            os.chmod(copy, 0o644)
            read_only[copy] = f"{INSIDE}/{STUDENT_NAME}"
            argv = [python, "-I", "-S", "-B", f"{INSIDE}/{RUNNER_NAME}", f"{INSIDE}/{STUDENT_NAME}"]
        else:
            read_only = {}
            argv = [python, "-I", "-S", "-B", runner, self.path]
        if self.isolated:
            argv.append(_check_runner.ISOLATED)
        limits = sandbox.Limits(memory_mb=512, cpu_seconds=600, processes=8)
        self.box = sandbox.popen(
            argv,
            read_only=read_only,
            limits=limits,
            sandbox=self.use_sandbox,
            stdin=-1,
            stdout=-1,
            stderr=-3,  # DEVNULL: the student's prints are dropped
        )
        wait = max(self.timeout, LOAD_SECONDS)
        got = self._read(wait, replies.LOAD_LINE_BYTES)
        if isinstance(got, tuple):
            why = {
                "timeout": f"loading it did not end within {wait:g} s",
                "died": f"its process ended while loading it (exit status {got[-1]})",
                "oversized": "its process sent a flood of bytes while loading it",
            }[got[0]]
            return {"load": "error", "message": why}
        return replies.load_reply(got)

    def _read(self, timeout: float, limit: int) -> Any:
        """One reply line from the runner, parsed (`LudoGame.check_replies.parse`: JSON or
        `Malformed`), or a failure: ``("timeout",)``, ``("died", code)``, or
        ``("oversized", limit)`` when no line ends within `limit` bytes (nothing longer is
        read: the runner is flooding)."""
        assert self.box is not None and self.box.process.stdout is not None
        fd = self.box.process.stdout.fileno()
        deadline = time.monotonic() + timeout
        buffer = self._buffer
        scanned = 0
        while (end := buffer.find(b"\n", scanned)) < 0:
            scanned = len(buffer)
            if scanned > limit:
                return ("oversized", limit)
            left = deadline - time.monotonic()
            if left <= 0:
                return ("timeout",)
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return ("died", self._exit_code())
            buffer += chunk
        if end > limit:
            return ("oversized", limit)
        line = bytes(buffer[:end])
        del buffer[: end + 1]
        return replies.parse(line)

    def ask(self, request: dict[str, Any], calls: int = 1, answers: int = 1) -> Any:
        """Send one request and wait for its reply (the time limit grows with `calls`, the
        size limit with `answers`, the number of answers asked for). The reply as
        `_read` gives it, or ``("budget",)`` when the check's budget ran out first; after a
        failure the runner is ended."""
        deadline = time.monotonic() + self.timeout * max(1, calls)  # to send and answer
        capped = self.budget is not None and self.budget.until < deadline
        if capped:
            assert self.budget is not None
            deadline = self.budget.until
        got = self._unasked()
        if got is None:
            got = self._write((json.dumps(request) + "\n").encode(), deadline)
        if got is None:
            got = self._read(deadline - time.monotonic(), replies.reply_limit(answers))
        if isinstance(got, tuple):
            if capped and got[0] == "timeout":
                got = ("budget",)
            self.close()
        return got

    def _unasked(self) -> tuple[Any, ...] | None:
        """``("unasked",)`` when the runner has written anything since its last reply (an
        honest one writes one line a request: lines written ahead could answer questions
        not yet asked, and a process that writes ahead and never reads would block the
        checker), ``("died", code)`` when it has ended, else None."""
        assert self.box is not None and self.box.process.stdout is not None
        if self._buffer:
            return ("unasked",)
        fd = self.box.process.stdout.fileno()
        if not select.select([fd], [], [], 0)[0]:
            return None
        if os.read(fd, 1):
            return ("unasked",)
        return ("died", self._exit_code())

    def _write(self, data: bytes, deadline: float) -> tuple[Any, ...] | None:
        """Send `data` to the runner by `deadline` (`time.monotonic`; a process that does not
        read its requests cannot block the checker): None when sent, else a failure."""
        assert self.box is not None and self.box.process.stdin is not None
        fd = self.box.process.stdin.fileno()
        os.set_blocking(fd, False)
        view = memoryview(data)
        while view:
            left = deadline - time.monotonic()
            if left <= 0:
                return ("timeout",)
            if not select.select([], [fd], [], left)[1]:
                continue
            try:
                view = view[os.write(fd, view) :]
            except BlockingIOError:
                continue
            except OSError:
                return ("died", self._exit_code())
        return None

    def _exit_code(self) -> int | None:
        """The runner's exit status, once its pipes have closed; a runner that closed them
        and lives on (which would block the checker's wait) is ended after 2 s."""
        assert self.box is not None
        try:
            return self.box.process.wait(timeout=2.0)
        except subprocess.TimeoutExpired:
            self.box.close()
            return self.box.process.poll()

    def close(self) -> None:
        """End the runner and remove its folder."""
        if self.box is not None:
            self.box.close()
        if self._empty is not None:
            shutil.rmtree(self._empty, ignore_errors=True)
            self._empty = None


def _site_packages(prefix: str) -> list[str]:
    """Every folder of installed packages the sandbox could see (the Python install's, and
    the system's under /usr), each to be hidden: the runner starts with ``-I -S``, but a
    student's file could put any such folder back on its path by hand and import the
    engine from it (the base Python's, when the grader's LudoGame is in a venv)."""
    import glob
    import site

    candidates = list(site.getsitepackages())
    for root in dict.fromkeys([prefix, "/usr", "/usr/local"]):
        candidates += glob.glob(os.path.join(root, "lib*", "python3*", "*-packages"))
    found: list[str] = []
    for folder in candidates:
        real = os.path.realpath(folder)
        mounted = real.startswith(prefix + os.sep) or real.startswith("/usr/")
        if os.path.isdir(real) and mounted and real not in found:
            found.append(real)
    return found


def failure_text(got: tuple[Any, ...], student: Student) -> str:
    """What a failed request of `student` (`Student.ask`'s tuple) says in a report."""
    timeout = student.timeout
    if got[0] == "budget" and student.budget is not None:
        return student.budget.text()
    if got[0] == "timeout":
        return (
            f"timeout: a call of the student's code ran past {timeout:g} s in a fresh process"
            " (an endless loop?)"
        )
    if got[0] == "died":
        return f"crash: the student's process ended (exit status {got[1]}) during a call"
    if got[0] == "unasked":
        return (
            "protocol: the student's process wrote to the checker's answer pipe before it "
            "was asked (it was ended)"
        )
    return (
        f"flood: the student's process sent a reply of more than {got[1]:,} bytes "
        "(it was ended unread)"
    )
