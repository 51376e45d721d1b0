"""Run untrusted code (a student's AI) in a sandbox: bubblewrap plus resource limits.

Used by the Octave bridge (`LudoGame.matlab`) and meant for any other runner of code the
user did not write. ``popen(argv, ...)`` starts ``argv`` with:

- no network (``--unshare-net``), its own PID, IPC and UTS namespaces, and no capabilities;
- a read-only view of the system (``/usr`` and the ``/lib*``, ``/bin`` links or folders,
  a few files of ``/etc`` that shared libraries need), a fresh ``/proc``, the devices
  ``null zero full random urandom`` only, and a read-only root (``--remount-ro /``: no
  file can be made outside ``/tmp``, not even in memory);
- nothing of the user's files: no home, no project, only the folders passed in
  ``read_only`` (mounted read-only where asked) and a private writable ``/tmp`` (a new
  empty folder, removed by `Sandboxed.close`), which is also its home and working folder;
- resource limits (``setrlimit`` in the child): address space (memory, 1 GB by default),
  CPU seconds, the size of a file it writes, the number of processes;
- its own session and process group (with every process it starts); it dies with its
  parent (``--die-with-parent``), and `Sandboxed.kill` kills the whole group at once.

`available()` says whether bubblewrap works here (it is tried once per process). Where it
does not, `popen` refuses with `SandboxUnavailableError` (one line saying what to install),
unless ``sandbox=False`` is given: then the command runs with the same limits, private
working folder and minimal environment, but sees the whole file system and the network.
"""

from __future__ import annotations

import concurrent.futures
import os
import resource
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, cast

#: The defaults of every limit, in one place (the Octave bridge and the CLI use them).
DEFAULT_MEMORY_MB = 1024
DEFAULT_FILE_SIZE_MB = 64
DEFAULT_PROCESSES = 64
DEFAULT_CPU_SECONDS = 3600

#: How to get bubblewrap, in the message of a refused command.
INSTALL_HINT = "install bubblewrap (apt-get install bubblewrap)"

#: The files of /etc a dynamically linked program may need (those that exist are mounted).
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime")

#: The devices a sandboxed program sees (/dev/fd and the std streams are links to /proc).
DEVICES = ("null", "zero", "full", "random", "urandom")


class SandboxUnavailableError(RuntimeError):
    """The sandbox cannot run here: untrusted code is refused (``sandbox=False`` runs it
    unsandboxed)."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of a sandboxed process (None: no limit)."""

    memory_mb: int | None = DEFAULT_MEMORY_MB
    cpu_seconds: int | None = DEFAULT_CPU_SECONDS
    file_size_mb: int | None = DEFAULT_FILE_SIZE_MB
    processes: int | None = DEFAULT_PROCESSES

    def apply(self, running: int = 0) -> None:
        """Set the limits on the calling process (in the child, before exec). The kernel
        counts every process of the user against RLIMIT_NPROC (and does not limit root),
        so the cap is the user's `running` processes plus `processes`."""
        mb = 1024 * 1024
        nproc = None if self.processes is None else running + self.processes
        for kind, value in (
            (resource.RLIMIT_AS, None if self.memory_mb is None else self.memory_mb * mb),
            (resource.RLIMIT_CPU, self.cpu_seconds),
            (resource.RLIMIT_FSIZE, None if self.file_size_mb is None else self.file_size_mb * mb),
            (resource.RLIMIT_NPROC, nproc),
            (resource.RLIMIT_CORE, 0),
        ):
            if value is not None:
                _, hard = resource.getrlimit(kind)
                if hard != resource.RLIM_INFINITY:
                    value = min(value, hard)  # a limit can be lowered, never raised
                resource.setrlimit(kind, (value, value))


def _user_processes() -> int:
    """How many processes (threads included: the kernel counts tasks) the user runs now."""
    uid = os.getuid()
    count = 0
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                st = os.stat(f"/proc/{entry}/task")
            except OSError:
                continue
            if st.st_uid == uid:
                count += st.st_nlink - 2
    return count


def _system_binds() -> list[str]:
    """bubblewrap arguments for the read-only system: /usr, the /lib*, /bin, /sbin links
    (or folders) and a few files of /etc."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("lib", "lib32", "lib64", "libx32", "bin", "sbin"):
        path = f"/{name}"
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    for name in ETC_FILES:
        path = f"/etc/{name}"
        if os.path.exists(path):
            args += ["--ro-bind", path, path]
    # a few devices, not a writable /dev (bubblewrap's --dev is a tmpfs in memory)
    for name in DEVICES:
        args += ["--dev-bind", f"/dev/{name}", f"/dev/{name}"]
    args += ["--symlink", "/proc/self/fd", "/dev/fd"]
    for k, name in enumerate(("stdin", "stdout", "stderr")):
        args += ["--symlink", f"/proc/self/fd/{k}", f"/dev/{name}"]
    return args


#: The namespaces and process settings of every sandbox, tried in this order: the first
#: that works here is used (some containers refuse a user namespace or a new /proc).
_VARIANTS: tuple[tuple[str, ...], ...] = (
    (
        "--unshare-user", "--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts",
        "--unshare-cgroup-try", "--uid", "65534", "--gid", "65534", "--proc", "/proc",
    ),
    ("--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--proc", "/proc"),
    ("--unshare-net", "--unshare-ipc", "--unshare-uts"),
)  # fmt: skip


#: How bubblewrap runs the command: it dies with bubblewrap, without capabilities. No
#: ``--new-session``: `popen` starts bubblewrap in a new session already (no controlling
#: terminal, so no TIOCSTI), and the command stays in bubblewrap's process group, so that
#: `Sandboxed.kill` reaches every process even without a PID namespace.
_PROCESS = ("--die-with-parent", "--cap-drop", "ALL")


_PROBED: list[tuple[tuple[str, ...] | None, str]] = []


def _probe() -> tuple[tuple[str, ...] | None, str]:
    """The working variant of `_VARIANTS` (None if none works) and why not, tried once."""
    if not _PROBED:
        _PROBED.append(_try_variants())
    return _PROBED[0]


def _try_variants() -> tuple[tuple[str, ...] | None, str]:
    """The first variant of `_VARIANTS` that runs `true` here, or None and why not."""
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return None, f"bubblewrap is not installed: {INSTALL_HINT}"
    why = ""
    for variant in _VARIANTS:
        argv = [bwrap, *_system_binds(), "--tmpfs", "/tmp", *variant, "--remount-ro", "/"]
        argv += [*_PROCESS, "--", "true"]
        try:
            done = subprocess.run(argv, capture_output=True, timeout=30, check=False)
        except (OSError, subprocess.TimeoutExpired) as e:
            why = str(e)
            continue
        if done.returncode == 0:
            return variant, ""
        lines = done.stderr.decode(errors="replace").strip().splitlines()
        why = lines[-1] if lines else f"exit code {done.returncode}"
    return None, f"bubblewrap does not work here ({why})"


def available() -> bool:
    """Whether the sandbox works on this machine (bubblewrap installed and able to make
    at least a network namespace)."""
    return _probe()[0] is not None


def unavailable_reason() -> str:
    """Why the sandbox does not work here ('' when it does)."""
    return _probe()[1]


def describe() -> str:
    """The sandbox in words: which namespaces, or why there is none."""
    variant, why = _probe()
    if variant is None:
        return f"no sandbox: {why}"
    spaces = [a[len("--unshare-") :] for a in variant if a.startswith("--unshare-")]
    return "bubblewrap (namespaces: " + ", ".join(s.removesuffix("-try") for s in spaces) + ")"


class Sandboxed:
    """A started sandboxed process (`popen`): its `process`, its private folder `tmp`
    (the host's view of the sandbox's /tmp), and `kill`/`close`."""

    def __init__(self, process: subprocess.Popen[bytes], tmp: str) -> None:
        self.process = process
        self.tmp = tmp

    @property
    def pid(self) -> int:
        """The process id (of bubblewrap when sandboxed)."""
        return self.process.pid

    def kill(self) -> None:
        """Kill the whole process group at once (SIGKILL) and reap it. Inside the sandbox
        the command dies with bubblewrap (``--die-with-parent``, and the end of its PID
        namespace)."""
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.process.kill()
        except ProcessLookupError:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process that will not die
            pass

    def close(self) -> None:
        """Kill what is left and remove the private folder."""
        if self.process.poll() is None:
            self.kill()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self) -> Sandboxed:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


_SPAWNER: concurrent.futures.ThreadPoolExecutor | None = None
_SPAWNER_LOCK = threading.Lock()


def _spawn_from_spawner(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
    """`subprocess.Popen` run on the module's spawner thread (made once, never ended)."""
    global _SPAWNER
    with _SPAWNER_LOCK:
        if _SPAWNER is None:
            _SPAWNER = concurrent.futures.ThreadPoolExecutor(
                1, thread_name_prefix="ludogame-sandbox-spawner"
            )
    started = _SPAWNER.submit(subprocess.Popen, *args, **kwargs)
    return cast("subprocess.Popen[bytes]", started.result())


def popen(
    argv: Sequence[str],
    *,
    read_only: Mapping[str, str] | None = None,
    limits: Limits | None = None,
    sandbox: bool = True,
    env: Mapping[str, str] | None = None,
    pass_fds: Sequence[int] = (),
    stdin: int | IO[Any] | None = subprocess.DEVNULL,
    stdout: int | IO[Any] | None = subprocess.DEVNULL,
    stderr: int | IO[Any] | None = subprocess.DEVNULL,
) -> Sandboxed:
    """Start `argv` sandboxed (see the module docs).

    ``read_only`` maps host folders (or files) to where the command sees them, read-only
    (without the sandbox they stay where they are: map them to themselves). ``env`` is the
    command's whole environment besides ``HOME``, ``TMPDIR`` (its private folder) and a
    ``PATH`` of the system folders. ``pass_fds`` stay open in the command. Raises
    `SandboxUnavailableError` when ``sandbox`` is asked for and cannot run here.
    """
    limits = limits or Limits()
    variant: tuple[str, ...] | None = None
    if sandbox:
        variant, why = _probe()
        if variant is None:
            raise SandboxUnavailableError(
                f"refusing to run untrusted code without a sandbox: {why} "
                "(or run it unsandboxed with --no-sandbox / sandbox=False)"
            )
    running = _user_processes()
    tmp = tempfile.mkdtemp(prefix="ludogame-sandbox-")
    os.chmod(tmp, 0o777)  # the sandbox's user (nobody in a user namespace) writes there
    home = "/tmp" if sandbox else tmp
    full_env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        **(env or {}),
        "HOME": home,
        "TMPDIR": home,
    }
    if sandbox:
        assert variant is not None
        bwrap = shutil.which("bwrap") or "bwrap"
        cmd = [bwrap, *_system_binds(), "--bind", tmp, "/tmp"]
        for src, dst in (read_only or {}).items():
            cmd += ["--ro-bind", src, dst]
        cmd += [*variant, "--remount-ro", "/", *_PROCESS]
        cmd += ["--chdir", "/tmp", "--", *argv]
    else:
        cmd = list(argv)
    spawn: Callable[..., subprocess.Popen[bytes]] = subprocess.Popen
    if threading.current_thread() is not threading.main_thread():
        # bubblewrap dies with the *thread* that started it (--die-with-parent is the
        # kernel's parent-death signal, which follows the thread): a short-lived thread
        # (a web request's) hands the start to one thread that lives as long as we do
        spawn = _spawn_from_spawner
    try:
        process = spawn(
            cmd,
            stdin=stdin,
            stdout=stdout,
            stderr=stderr,
            env=full_env,
            cwd=tmp,
            pass_fds=tuple(pass_fds),
            start_new_session=True,
            preexec_fn=lambda: limits.apply(running),  # the limits are set in the child
        )
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return Sandboxed(process, tmp)


__all__ = [
    "DEFAULT_CPU_SECONDS",
    "DEFAULT_FILE_SIZE_MB",
    "DEFAULT_MEMORY_MB",
    "DEFAULT_PROCESSES",
    "Limits",
    "Sandboxed",
    "SandboxUnavailableError",
    "available",
    "describe",
    "popen",
    "unavailable_reason",
]
