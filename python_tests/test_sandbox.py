"""The sandbox for untrusted code (LudoGame.sandbox), with plain Python as the untrusted
program: no network, none of the user's files, writes only to its private /tmp, its
limits, and a timeout that kills the whole process group. Skipped without bubblewrap (a
failure under LUDOGAME_REQUIRE_OCTAVE=1, as .ci/check sets)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

import matlab_support as ms
from LudoGame import sandbox

PYTHON = "/usr/bin/python3"


@pytest.fixture(autouse=True)
def _sandbox() -> None:
    ms.require_sandbox()
    if not os.path.exists(PYTHON):
        pytest.skip(f"no {PYTHON}")


def run(code: str, **kw: object) -> tuple[int, str]:
    box = sandbox.popen(
        [PYTHON, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        **kw,  # type: ignore[arg-type]
    )
    with box:
        out, _ = box.process.communicate(timeout=60)
        return box.process.returncode, out.decode()


def test_no_network_even_to_the_hosts_loopback() -> None:
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        port = server.getsockname()[1]
        code, out = run(
            "import socket\n"
            f"try: socket.create_connection(('127.0.0.1', {port}), timeout=2); print('REACHED')\n"
            "except OSError as e: print('refused', e)"
        )
        server.settimeout(0.2)
        with pytest.raises(OSError):
            server.accept()
    assert "REACHED" not in out and "refused" in out


def test_nothing_of_the_users_files_and_writes_only_to_its_tmp(tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRET", encoding="utf-8")
    code, out = run(
        "import os\n"
        f"print(sorted(os.listdir('/')), os.path.exists({str(secret)!r}),"
        f" os.path.exists({str(Path.home())!r}), os.path.exists({str(Path.cwd())!r}))\n"
        "open('/tmp/mine.txt', 'w').write('ok')\n"
        "for p in ('/usr/x', '/etc/x', '/x'):\n"
        "    try: open(p, 'w'); print('WROTE', p)\n"
        "    except OSError: print('refused', p)\n"
        "print(os.getcwd(), os.environ['HOME'], os.getuid())"
    )
    assert code == 0, out
    assert "SECRET" not in out and "WROTE" not in out and out.count("refused") == 3
    first = out.splitlines()[0]
    assert first.endswith("False False False"), first
    assert "home" not in first and "root" not in first
    assert out.splitlines()[-1].startswith("/tmp /tmp")


def test_read_only_folders_are_read_only(tmp_path: Path) -> None:
    (tmp_path / "ai.txt").write_text("hello", encoding="utf-8")
    code, out = run(
        "print(open('/ai/ai.txt').read())\n"
        "try: open('/ai/new.txt', 'w'); print('WROTE')\n"
        "except OSError: print('refused')",
        read_only={str(tmp_path): "/ai"},
    )
    assert out.split() == ["hello", "refused"] and not (tmp_path / "new.txt").exists()


def test_the_memory_cap() -> None:
    code, out = run(
        "try: x = bytearray(600 * 1024 * 1024); print('GOT')\nexcept MemoryError: print('capped')",
        limits=sandbox.Limits(memory_mb=300),
    )
    assert out.strip() == "capped"


@pytest.mark.parametrize("variant", range(len(sandbox._VARIANTS)))
def test_kill_ends_the_whole_group_at_once(variant: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # every variant the probe may pick (with a PID namespace or without one)
    monkeypatch.setattr(sandbox, "_probe", lambda: (sandbox._VARIANTS[variant], ""))
    # a duration no other process on the machine is likely to sleep for, so that pgrep
    # below finds only this test's sleepers
    nap = f"{60 + variant}.{os.getpid()}"
    box = sandbox.popen(
        ["/bin/sh", "-c", f"sleep {nap} & sleep {nap} & echo started; wait"],
        stdout=subprocess.PIPE,
    )
    assert box.process.stdout is not None
    assert box.process.stdout.readline() == b"started\n"
    t0 = time.monotonic()
    box.close()
    assert time.monotonic() - t0 < 5
    assert box.process.returncode is not None and not os.path.exists(box.tmp)
    done = subprocess.run(
        ["pgrep", "-f", f"^sleep {nap}$"], capture_output=True, text=True, check=False
    )
    assert done.stdout.strip() == "" or all(
        not Path(f"/proc/{pid}").exists() for pid in done.stdout.split()
    )


def test_refused_without_the_sandbox_unless_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox, "_probe", lambda: (None, "bubblewrap is not installed"))
    with pytest.raises(sandbox.SandboxUnavailableError, match="sandbox=False"):
        sandbox.popen([PYTHON, "-c", "pass"])
    code, out = run("import os; print(os.getcwd() != '/tmp')", sandbox=False)
    assert (code, out.strip()) == (0, "True")  # unsandboxed: its private folder, not /tmp


def test_describe_names_the_namespaces() -> None:
    assert "net" in sandbox.describe()
    assert sys.platform.startswith("linux")
