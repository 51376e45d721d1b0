"""The sandbox for untrusted code (LudoGame.sandbox), with plain Python (/usr/bin/python3)
as the hostile program: each attack of docs/check.md's list "What was tried against the
sandbox" and what contains it (a process count, a file not written, a connection refused,
a host process still alive, an error inside). Skipped without a working sandbox (a failure
under LUDOGAME_REQUIRE_OCTAVE=1, as .ci/check sets)."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

import matlab_support as ms
from LudoGame import checker, sandbox

PYTHON = "/usr/bin/python3"
HOSTILE = Path(__file__).resolve().parent / "data" / "check" / "hostile"

#: The host uid the sandboxed code runs as: nobody when we are root, else ours.
HOST_UID = sandbox.SANDBOX_UID if os.geteuid() == 0 else os.getuid()


@pytest.fixture(autouse=True)
def _sandbox() -> None:
    ms.require_sandbox()
    if not os.path.exists(PYTHON):
        pytest.skip(f"no {PYTHON}")


def token() -> str:
    """A word no other process on the machine has in its command line (also a number of
    seconds for sleep: 60.<15 random digits>)."""
    return f"60.{uuid.uuid4().int % 10**15:015d}"


#: The sandbox's own trusted stages (not counted as the program's processes).
STAGES = ("bwrap", "setpriv", "prlimit")


def running(word: str) -> list[int]:
    """The live host processes (not zombies) whose command line holds `word`: the
    program's, and the sandbox's own stages that run it (bubblewrap, ...)."""
    return [pid for pid, _ in _processes(word)]


def gone(word: str, patience: float = 30.0) -> bool:
    """Whether every process whose command line holds `word` is gone within `patience`
    seconds (the kernel kills a PID namespace's processes when its first one ends; a loaded
    machine may take a moment to finish them)."""
    deadline = time.monotonic() + patience
    while running(word):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


def programs(word: str) -> list[int]:
    """Those of `running` that are the program's (not the sandbox's own stages)."""
    return [pid for pid, comm in _processes(word) if comm not in STAGES]


def _processes(word: str) -> list[tuple[int, str]]:
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            comm = Path(f"/proc/{entry}/comm").read_text().strip()
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if word.encode() in cmdline and state != "Z":
            found.append((int(entry), comm))
    return found


def run(code: str, **kw: object) -> tuple[int, str]:
    """Run `code` sandboxed to its end: its exit status and its stdout and stderr."""
    box = sandbox.popen(
        [PYTHON, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        **kw,  # type: ignore[arg-type]
    )
    with box:
        out, _ = box.process.communicate(timeout=60)
        return box.process.returncode, out.decode()


@pytest.fixture
def host_sleeper() -> Iterator[tuple[int, str]]:
    """A host process of the sandbox's own host uid (nobody when we are root): its pid
    and the word in its command line."""
    word = token()
    extra = {"user": HOST_UID, "group": HOST_UID, "extra_groups": []} if os.geteuid() == 0 else {}
    proc = subprocess.Popen(  # type: ignore[call-overload]
        ["sleep", word],
        cwd="/",
        **extra,
    )
    try:
        yield proc.pid, word
    finally:
        proc.kill()
        proc.wait()


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


# ---------------------------------------------------------------- files and network


def test_no_network_even_to_the_hosts_loopback() -> None:
    abstract = f"\0ludogame-test-{os.getpid()}"
    with socket.socket() as server, socket.socket(socket.AF_UNIX) as unix:
        server.bind(("127.0.0.1", 0))
        server.listen()
        unix.bind(abstract)
        unix.listen()
        port = server.getsockname()[1]
        code, out = run(
            "import socket\n"
            f"try: socket.create_connection(('127.0.0.1', {port}), timeout=2); print('REACHED')\n"
            "except OSError as e: print('refused', e)\n"
            "s = socket.socket(socket.AF_UNIX)\n"
            f"try: s.connect({abstract!r}); print('REACHED unix')\n"
            "except OSError as e: print('refused', e)"
        )
        for s in (server, unix):
            s.settimeout(0.2)
            with pytest.raises(OSError):
                s.accept()
    lines = out.splitlines()
    assert "REACHED" not in out and [x.split()[0] for x in lines[:2]] == ["refused"] * 2, out


def test_nothing_of_the_users_files_and_writes_only_to_its_tmp(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET", encoding="utf-8")
    project = str(Path(__file__).resolve().parent.parent)
    seen = (str(secret), str(Path.home()), str(Path.cwd()), project, "/root", "/etc/shadow")
    code, out = run(
        "import os\n"
        f"print(sorted(os.listdir('/')), sorted(os.listdir('/etc')),"
        f" [os.path.exists(p) for p in {seen!r}])\n"
        "open('/tmp/mine.txt', 'w').write('ok')\n"
        f"for p in ('/usr/x', '/etc/x', '/x', '/dev/x', '/proc/x', '/proc/sys/kernel/hostname',"
        f" {str(tmp_path / 'out.txt')!r}):\n"
        "    try: open(p, 'w').write('x'); print('WROTE', p)\n"
        "    except OSError: print('refused', p)\n"
        "print(os.getcwd(), os.environ['HOME'], os.getuid())"
    )
    assert code == 0, out
    assert "SECRET" not in out and "WROTE" not in out and out.count("refused") == 7, out
    first = out.splitlines()[0]
    assert first.endswith(str([False] * len(seen))), first
    assert "home" not in first and "root" not in first and "shadow" not in first
    assert "passwd" not in first and "'dev'" in first
    assert not (tmp_path / "out.txt").exists()
    assert out.splitlines()[-1] == f"/tmp /tmp {sandbox.SANDBOX_UID}"


def test_read_only_folders_are_read_only(tmp_path: Path) -> None:
    (tmp_path / "ai.txt").write_text("hello", encoding="utf-8")
    tmp_path.chmod(0o755)
    code, out = run(
        "print(open('/ai/ai.txt').read())\n"
        "try: open('/ai/new.txt', 'w'); print('WROTE')\n"
        "except OSError: print('refused')",
        read_only={str(tmp_path): "/ai"},
    )
    assert out.split() == ["hello", "refused"] and not (tmp_path / "new.txt").exists()


def test_bad_read_only_paths_are_refused_before_the_start(tmp_path: Path) -> None:
    for where in ("/tmp/x", "/proc", "/dev/ai", "relative", "/"):
        with pytest.raises(ValueError, match="sandbox path"):
            sandbox.popen([PYTHON, "-c", "pass"], read_only={str(tmp_path): where})
    with pytest.raises(ValueError, match="no such file"):
        sandbox.popen([PYTHON, "-c", "pass"], read_only={str(tmp_path / "nope"): "/ai"})
    if os.geteuid() == 0:  # the sandbox runs as nobody: a private file is refused
        private = tmp_path / "private.txt"
        private.write_text("x", encoding="utf-8")
        private.chmod(0o600)
        with pytest.raises(ValueError, match="not readable by the sandbox's user"):
            sandbox.popen([PYTHON, "-c", "pass"], read_only={str(private): "/ai.txt"})


def test_the_tmp_folder_is_private_0700_bounded_and_gone_after() -> None:
    before = set(os.listdir(tempfile.gettempdir()))
    write = (
        "import os\n"
        "st = os.stat('/tmp'); print(oct(st.st_mode & 0o777), st.st_uid, os.listdir('/tmp'))\n"
        "open('/tmp/first.txt', 'w').write('x')\n"
        "try:\n"
        "    with open('/tmp/big', 'wb') as f:\n"
        "        for _ in range(64): f.write(bytes(1 << 20))\n"
        "    print('FILLED')\n"
        "except OSError as e: print('full', e.errno)\n"
    )
    limits = sandbox.Limits(tmp_mb=8)
    box = sandbox.popen([PYTHON, "-c", write], limits=limits, stdout=subprocess.PIPE)
    assert box.tmp is None  # in the sandbox's memory, no host folder
    out, _ = box.process.communicate(timeout=60)
    box.close()
    code, second = run("import os; print(os.listdir('/tmp'))")
    assert out.decode().split("\n")[:2] == [f"0o700 {sandbox.SANDBOX_UID} []", "full 28"]
    assert second.strip() == "[]"  # a new sandbox: nothing of the first one
    assert set(os.listdir(tempfile.gettempdir())) - before == set()


# ---------------------------------------------------------------- limits


def test_the_memory_cap_also_in_a_child() -> None:
    code, out = run(
        "import os, sys\n"
        "def hog(who):\n"
        "    try: x = bytearray(600 * 1024 * 1024); print(who, 'GOT')\n"
        "    except MemoryError: print(who, 'capped')\n"
        "hog('parent')\n"
        "sys.stdout.flush()\n"
        "if os.fork() == 0: hog('child'); sys.stdout.flush(); os._exit(0)\n"
        "os.wait()",
        limits=sandbox.Limits(memory_mb=300),
    )
    assert sorted(out.split("\n")[:2]) == ["child capped", "parent capped"], out


def test_a_fork_bomb_is_held_by_the_process_cap() -> None:
    word = token()
    bomb = (
        f"import os, sys, time  # {word}\n"
        "told = False\n"
        "while True:\n"
        "    try: os.fork()\n"
        "    except OSError:\n"
        "        if not told: os.write(1, b'capped\\n'); told = True\n"
        "        time.sleep(0.05)\n"
    )
    box = sandbox.popen(
        [PYTHON, "-c", bomb], limits=sandbox.Limits(processes=6), stdout=subprocess.PIPE
    )
    try:
        assert box.process.stdout is not None
        assert box.process.stdout.readline() == b"capped\n"
        count = len(programs(word))
        assert 2 <= count <= 6, count
    finally:
        box.close()
    assert running(word) == []


def test_the_process_cap_is_the_sandboxes_own(host_sleeper: tuple[int, str]) -> None:
    # two sandboxes at once and a host process of the same host uid: each sandbox still
    # gets its whole cap (a program forking children until refused)
    forks = (
        "import os, time\n"
        "n = 0\n"
        "while True:\n"
        "    try: pid = os.fork()\n"
        "    except OSError: break\n"
        "    if pid == 0: time.sleep(30); os._exit(0)\n"
        "    n += 1\n"
        "print(n, flush=True)\n"
    )
    boxes = [
        sandbox.popen(
            [PYTHON, "-c", forks], limits=sandbox.Limits(processes=5), stdout=subprocess.PIPE
        )
        for _ in range(2)
    ]
    try:
        counts = [b.process.stdout.readline() for b in boxes if b.process.stdout is not None]
    finally:
        for b in boxes:
            b.close()
    assert counts == [b"4\n", b"4\n"]  # the program and its 4 children: 5 processes
    assert alive(host_sleeper[0])


def test_a_cpu_spinner_is_killed_by_the_cpu_cap() -> None:
    code, out = run("while True: pass", limits=sandbox.Limits(cpu_seconds=1))
    # bubblewrap reports a command killed by a signal as 128 + the signal: SIGKILL at
    # the cap (soft and hard are the same), or SIGXCPU
    assert code in (128 + signal.SIGKILL, 128 + signal.SIGXCPU), (code, out)


def test_a_flood_of_output_is_held(tmp_path: Path) -> None:
    # to a file (as the Octave bridge keeps stderr): the file size cap
    with open(tmp_path / "err", "wb") as err:
        box = sandbox.popen(
            [PYTHON, "-c", "import os\nwhile True: os.write(2, b'x' * 65536)"],
            limits=sandbox.Limits(file_size_mb=2),
            stderr=err,
        )
        with box:
            assert box.process.wait(timeout=60) != 0
    assert (tmp_path / "err").stat().st_size == 2 * 1024 * 1024
    # to a pipe nobody reads: the writer blocks; close() ends it and everything it started
    word = token()
    box = sandbox.popen(
        [PYTHON, "-c", f"import os  # {word}\nos.fork()\nwhile True: os.write(1, b'y' * 65536)"],
        stdout=subprocess.PIPE,
    )
    assert box.process.stdout is not None
    assert box.process.stdout.read(1) == b"y"
    box.close()
    assert running(word) == []


# ---------------------------------------------------------------- processes


def test_a_daemon_dies_with_the_sandbox() -> None:
    word = token()
    daemon = (
        f"import os, sys, time  # {word}\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        time.sleep(60)\n"
        "    os._exit(0)\n"
        "os.wait()\n"
        "print('left a daemon', flush=True)\n"
        "sys.stdin.readline()\n"
    )
    box = sandbox.popen([PYTHON, "-c", daemon], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert box.process.stdout is not None and box.process.stdin is not None
    assert box.process.stdout.readline() == b"left a daemon\n"
    assert len(programs(word)) == 2  # the program and its daemon (in a session of its own)
    box.process.stdin.close()  # the program ends
    assert box.process.wait(timeout=60) == 0
    # the command ended: its PID namespace ends with it (no kill, no close yet)
    assert gone(word), running(word)
    box.close()


def test_kill_everything_reaches_nothing_outside(host_sleeper: tuple[int, str]) -> None:
    pid, _ = host_sleeper
    code, out = run(
        "import os, signal\n"
        "try: os.kill(-1, signal.SIGKILL)\n"
        "except OSError: pass\n"
        "for target in (os.getppid(), 1, " + str(pid) + ", " + str(os.getpid()) + "):\n"
        "    try: os.kill(target, signal.SIGKILL); print('sent', target)\n"
        "    except OSError as e: print('refused', target, type(e).__name__)\n"
        "print('still here', os.getppid())"
    )
    assert code == 0, out
    # the host processes of its own host uid and the test are out of its reach (the
    # numbers name none of its processes), and its own init ignores it
    assert alive(pid) and f"refused {pid} ProcessLookupError" in out
    assert f"refused {os.getpid()} ProcessLookupError" in out
    assert out.strip().endswith("still here 1"), out


def test_no_snooping_on_host_processes(host_sleeper: tuple[int, str]) -> None:
    pid, word = host_sleeper
    code, out = run(
        "import os\n"
        "pids = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())\n"
        "lines = [open(f'/proc/{p}/cmdline', 'rb').read() for p in pids]\n"
        f"word = {word[:4]!r} + {word[4:]!r}\n"  # not the word itself: its own command line
        f"print(pids, any(word.encode() in c for c in lines), os.path.exists('/proc/{pid}'))"
    )
    assert code == 0, out
    assert out.strip() == "[1, 2] False False", out  # bubblewrap's init and itself


def test_no_way_out_no_root_no_namespace_no_mount() -> None:
    code, out = run(
        "import ctypes, os\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "status = open('/proc/self/status').read().splitlines()\n"
        "print([s.split()[1] for s in status if s.startswith(('CapEff', 'NoNewPrivs'))])\n"
        "for name, call in (\n"
        "    ('setuid', lambda: os.setuid(0)),\n"
        "    ('chroot', lambda: os.chroot('/tmp')),\n"
        "    ('userns', lambda: libc.unshare(0x10000000) == 0 or 1 / 0),\n"
        "    ('mountns', lambda: libc.unshare(0x00020000) == 0 or 1 / 0),\n"
        "    ('mount', lambda: libc.mount(b'none', b'/tmp', b'tmpfs', 0, None) == 0 or 1/0),\n"
        "):\n"
        "    try: call(); print('DID', name)\n"
        "    except (OSError, ZeroDivisionError): print('refused', name)\n"
    )
    assert code == 0, out
    assert out.splitlines()[0] == "['0000000000000000', '1']"
    assert "DID" not in out and out.count("refused") == 5, out


def test_kill_ends_the_whole_group_at_once() -> None:
    word = token()
    box = sandbox.popen(
        ["/bin/sh", "-c", f"sleep {word} & sleep {word} & echo started; wait"],
        stdout=subprocess.PIPE,
    )
    assert box.process.stdout is not None
    assert box.process.stdout.readline() == b"started\n"
    assert len(programs(word)) == 3  # the shell and its two sleepers
    box.close()
    assert box.process.returncode is not None and running(word) == []


def test_it_dies_with_the_process_that_started_it() -> None:
    word = token()
    starter = (
        "import sys, time\n"
        "from LudoGame import sandbox\n"
        f"box = sandbox.popen(['/bin/sh', '-c', 'sleep {word}; true'])\n"
        "print('started', flush=True)\n"
        "time.sleep(60)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    proc = subprocess.Popen(
        [sys.executable, "-c", starter], stdout=subprocess.PIPE, env=env, cwd="/"
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"started\n"
        # until the sleeper runs (bubblewrap has armed its own parent-death signals: see
        # docs/check.md on the moment just after a start)
        deadline = time.monotonic() + 30
        while not _sleeping(word) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _sleeping(word)
    finally:
        proc.kill()  # the caller dies without a word: the sandbox follows it
        proc.wait()
    while running(word) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert running(word) == []


def _sleeping(word: str) -> bool:
    return any(comm == "sleep" for _, comm in _processes(word))


# ---------------------------------------------------------------- as an ordinary user


def test_an_ordinary_users_sandbox_holds_the_same_limits() -> None:
    """Started by a user who is not root (uid 12345 here when the tests run as root), the
    sandbox is one bubblewrap run as that user: the same uid inside and the same process
    cap. The module is standard library only: a copy of it is run on its own."""
    folder = Path(tempfile.mkdtemp(prefix="ludogame-test-"))  # a folder the user reaches
    shutil.copyfile(sandbox.__file__, folder / "sandbox.py")
    for p in (folder, folder / "sandbox.py"):
        p.chmod(0o755)
    script = (
        "import subprocess, sandbox\n"
        "assert sandbox.available(), sandbox.unavailable_reason()\n"
        "print(sandbox.describe())\n"
        "code = ('import os\\nn = 0\\nwhile True:\\n'\n"
        "        '    try: pid = os.fork()\\n    except OSError: break\\n'\n"
        "        '    if pid == 0: import time; time.sleep(30); os._exit(0)\\n    n += 1\\n'\n"
        "        'print(os.getuid(), n)')\n"
        "box = sandbox.popen(['/usr/bin/python3', '-c', code], stdout=subprocess.PIPE,\n"
        "                    limits=sandbox.Limits(processes=4))\n"
        "print(box.process.stdout.readline().decode().strip()); box.close()\n"
    )
    user = {"user": 12345, "group": 12345, "extra_groups": []} if os.geteuid() == 0 else {}
    try:
        done = subprocess.run(  # type: ignore[call-overload]
            [PYTHON, "-I", "-c", f"import sys; sys.path.insert(0, {str(folder)!r})\n{script}"],
            capture_output=True,
            text=True,
            timeout=60,
            cwd="/",
            env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
            check=False,
            **user,
        )
    finally:
        shutil.rmtree(folder)
    assert done.returncode == 0, done.stderr
    described, counted = done.stdout.splitlines()
    assert "yours" in described
    assert counted == f"{sandbox.SANDBOX_UID} 3"  # the program and 3 children: 4


# ---------------------------------------------------------------- refusing, opting out


def test_refused_without_the_sandbox_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "_probe", lambda: "bubblewrap is not installed")
    with pytest.raises(sandbox.SandboxUnavailableError, match="sandbox=False") as refused:
        sandbox.popen([PYTHON, "-c", "pass"])
    assert "\n" not in str(refused.value) and "bubblewrap is not installed" in str(refused.value)
    assert sandbox.describe() == "no sandbox: bubblewrap is not installed"


@pytest.mark.parametrize(
    ("first", "second", "said"),
    [
        ("echo 'bwrap: No permissions to create a new namespace' >&2; exit 1", "exit 1",
         "bubblewrap cannot make the sandbox here (bwrap: No permissions to create a new "
         "namespace): it needs user, PID and network namespaces for an unprivileged user"),
        ("echo 'bwrap: Unknown option --disable-userns' >&2; exit 1", "exit 1",
         "it needs bubblewrap 0.8 or newer"),
        ("echo 'sh: 0: Cannot fork' >&2; exit 2", "exit 2", "it needs Linux 5.14 or newer"),
        ("exit 0", "exit 0", "the sandbox's process cap does not hold here"),
    ],
)  # fmt: skip
def test_the_probe_names_what_is_missing(
    first: str, second: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the two runs of the probe (a fork under a cap of 2, then of 1) answered as a machine
    # without what the sandbox needs would
    answers = iter([first, second])
    monkeypatch.setattr(sandbox, "_command", lambda *a: ["/bin/sh", "-c", next(answers)])
    why = sandbox._try_sandbox()
    assert said in why and "\n" not in why


def test_missing_programs_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    assert sandbox._try_sandbox() == (
        "bwrap is not installed: install bubblewrap (apt-get install bubblewrap)"
    )


def test_unsandboxed_on_request_keeps_the_limits_and_a_private_folder() -> None:
    box = sandbox.popen(
        [
            PYTHON,
            "-c",
            "import os\n"
            "st = os.stat('.'); print(os.getcwd() == os.environ['HOME'], oct(st.st_mode & 0o777))\n"
            "try: x = bytearray(600 * 1024 * 1024); print('GOT')\n"
            "except MemoryError: print('capped')",
        ],
        sandbox=False,
        limits=sandbox.Limits(memory_mb=300),
        stdout=subprocess.PIPE,
    )
    with box:
        out, _ = box.process.communicate(timeout=60)
        assert box.tmp is not None and stat.S_IMODE(os.stat(box.tmp).st_mode) == 0o700
    assert out.decode().split("\n")[:2] == ["True 0o700", "capped"]
    assert not os.path.exists(box.tmp)


def test_describe_names_the_user_and_the_namespaces() -> None:
    described = sandbox.describe()
    assert "nobody" in described and "pid" in described and "net" in described
    assert sandbox.unavailable_reason() == "" and sandbox.available()


# ---------------------------------------------------------------- through ludo check


@pytest.mark.parametrize("name", ["fork_bomb.py", "daemon.py", "kills.py"])
def test_hostile_student_files_leave_nothing_behind(
    name: str, tmp_path: Path, host_sleeper: tuple[int, str]
) -> None:
    word = token()
    pid, _ = host_sleeper
    text = (HOSTILE / name).read_text(encoding="utf-8").replace("@TOKEN@", word)
    path = tmp_path / name
    path.write_text(text.replace("@HOST_PID@", str(pid)), encoding="utf-8")
    report = checker.check(str(path), games=12, timeout=2.0)
    assert report.failure is not None or report.differences, report
    assert running(word) == [] and alive(pid)
