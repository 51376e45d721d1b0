"""Run untrusted code (a student's file, a MATLAB AI) in one sandbox: bubblewrap, an
unprivileged user and resource limits. There is one configuration; where it cannot be had,
untrusted code is refused (one line saying what is missing) unless ``sandbox=False``.

``popen(argv, ...)`` starts ``argv`` with:

- an unprivileged user: uid ``nobody`` (65534) in its own user namespace, no capabilities,
  no new privileges, and no further user namespaces (``--disable-userns``). Started by
  root, the whole sandbox runs as the host's ``nobody`` (see `_command`), never as root;
  started by another user, as that user;
- its own PID namespace with its own ``/proc`` (it sees only its own processes, and every
  process it starts dies with it), no network (its own network namespace), its own IPC and
  UTS namespaces;
- a private read-only view of the system: ``/usr``, the ``/lib*``, ``/bin``, ``/sbin``
  links or folders, a few files of ``/etc`` that shared libraries need, the devices
  ``null zero full random urandom`` only, and a read-only root (no file can be made
  anywhere but ``/tmp``). Nothing of the user's files: no home, no project, only the
  folders and files passed in ``read_only`` (mounted read-only);
- a private ``/tmp`` (its home and working folder): a new memory file system of mode
  0700 owned by the sandbox's user, ``Limits.tmp_mb`` large, gone with the sandbox;
- resource limits, set by util-linux ``prlimit`` (a trusted launcher that sets them and
  then runs the command; no ``preexec_fn``): address space (memory), CPU seconds, the
  size of a file it writes, no core files, and the number of processes (threads count),
  counted for this sandbox alone (its own user namespace) and held for root's sandboxes
  too, since they run as ``nobody``;
- its own session and process group; it dies with the process that started it
  (``--die-with-parent``), and `Sandboxed.kill` kills the whole group at once and waits
  until every process of the sandbox has ended.

`available()` says whether that sandbox works here (tried once per process, including
that a fork beyond the process limit fails); `unavailable_reason()` says why not. Where it
does not work, `popen` refuses with `SandboxUnavailableError`, unless ``sandbox=False`` is
given: then the command runs as the caller with the same limits (the process limit counts
all the caller's processes and does not hold for root), in a private 0700 folder and a
minimal environment, but it sees the whole file system and the network.
"""

from __future__ import annotations

import concurrent.futures
import errno
import os
import resource
import select
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any, cast

#: The defaults of every limit, in one place (the Octave bridge and the CLI use them).
DEFAULT_MEMORY_MB = 1024
DEFAULT_FILE_SIZE_MB = 64
DEFAULT_PROCESSES = 16
DEFAULT_CPU_SECONDS = 3600
DEFAULT_TMP_MB = 64

#: The user (and group) the sandboxed code runs as: ``nobody`` (``nogroup``).
SANDBOX_UID = 65534
SANDBOX_GID = 65534

#: How to get the programs the sandbox needs, in the message of a refused command.
INSTALL_HINT = "install bubblewrap (apt-get install bubblewrap)"
INSTALL_UTIL_LINUX = "install util-linux (apt-get install util-linux)"

#: The files of /etc a dynamically linked program may need (those that exist are mounted).
ETC_FILES = ("ld.so.cache", "ld.so.conf", "ld.so.conf.d", "alternatives", "localtime")

#: The devices a sandboxed program sees (/dev/fd and the std streams are links to /proc).
DEVICES = ("null", "zero", "full", "random", "urandom")

#: Where ``read_only`` may not mount: the sandbox's own /tmp, /proc and /dev.
_RESERVED = ("/tmp", "/proc", "/dev")


#: The largest file of an untrusted party's code (a student's LudoGame.py, a MATLAB AI) that
#: is read to go into a sandbox: a course's files are tens of kilobytes.
MAX_SOURCE_BYTES = 4 << 20

#: Why a symbolic link an untrusted party supplied is not followed.
LINK_REFUSED = "a symbolic link (not followed: put the file or folder itself in its place)"


class UntrustedFileError(ValueError):
    """A file an untrusted party supplied that is not read: a symbolic link, not a regular
    file, too large or unreadable. The message says which, without the file's name."""


def read_untrusted(path: str | os.PathLike[str]) -> bytes:
    """The bytes of `path`, a file an untrusted party supplied (a submission, an AI), read
    as the grader would not be fooled into reading: never through a symbolic link at its
    last step (a submission's link could name any file the grader may read, such as
    /etc/shadow for root), only a regular file (a FIFO or a device could block or never end)
    of at most `MAX_SOURCE_BYTES`. Raises `UntrustedFileError`."""
    flags = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise UntrustedFileError(LINK_REFUSED) from None
        raise UntrustedFileError(f"cannot be read ({e.strerror})") from None
    with os.fdopen(fd, "rb") as f:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UntrustedFileError("not a regular file")
        data = f.read(MAX_SOURCE_BYTES + 1)
    if len(data) > MAX_SOURCE_BYTES:
        raise UntrustedFileError(f"larger than {MAX_SOURCE_BYTES >> 20} MB")
    return data


class SandboxUnavailableError(RuntimeError):
    """The sandbox cannot run here: untrusted code is refused (``sandbox=False`` runs it
    unsandboxed)."""


@dataclass(frozen=True)
class Limits:
    """Resource limits of a sandboxed program (None: no limit). ``processes`` counts its
    processes and threads; ``tmp_mb`` is the size of its private /tmp (sandboxed only).
    Memory is a cap of each process's address space: a program may hold up to
    ``processes`` times ``memory_mb``."""

    memory_mb: int | None = DEFAULT_MEMORY_MB
    cpu_seconds: int | None = DEFAULT_CPU_SECONDS
    file_size_mb: int | None = DEFAULT_FILE_SIZE_MB
    processes: int | None = DEFAULT_PROCESSES
    tmp_mb: int = DEFAULT_TMP_MB

    def prlimit_args(self, nproc: int | None) -> list[str]:
        """The ``prlimit`` options for these limits, with ``nproc`` as the process cap
        (each limit lowered to the caller's hard limit, which cannot be raised)."""
        mb = 1024 * 1024
        args = []
        for option, kind, value in (
            ("--as", resource.RLIMIT_AS, None if self.memory_mb is None else self.memory_mb * mb),
            ("--cpu", resource.RLIMIT_CPU, self.cpu_seconds),
            (
                "--fsize",
                resource.RLIMIT_FSIZE,
                None if self.file_size_mb is None else self.file_size_mb * mb,
            ),
            ("--nproc", resource.RLIMIT_NPROC, nproc),
            ("--core", resource.RLIMIT_CORE, 0),
        ):
            if value is not None:
                _, hard = resource.getrlimit(kind)
                if hard != resource.RLIM_INFINITY:
                    value = min(value, hard)
                args.append(f"{option}={value}:{value}")
        return args


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


def _as_root() -> bool:
    """Whether we are root: then the sandbox drops to `SANDBOX_UID` on the host too."""
    return os.geteuid() == 0


def _tools() -> tuple[dict[str, str], str]:
    """The programs the sandbox runs (bwrap, prlimit, and setpriv when we are root) by
    path, or why one is missing. They must be under the system folders the sandbox sees."""
    found: dict[str, str] = {}
    for name, hint in (
        ("bwrap", INSTALL_HINT),
        ("prlimit", INSTALL_UTIL_LINUX),
        *((("setpriv", INSTALL_UTIL_LINUX),) if _as_root() else ()),
    ):
        path = shutil.which(name)
        if path is None:
            return {}, f"{name} is not installed: {hint}"
        if not path.startswith(("/usr/", "/bin/", "/sbin/")):
            return {}, f"{name} is at {path}, outside the system folders the sandbox sees"
        found[name] = path
    return found, ""


def _dirs_for(dests: Sequence[str]) -> list[str]:
    """bubblewrap arguments making each folder above the mount points `dests` (mode 0755:
    bubblewrap started by root would make them 0700, closed to the sandbox's user)."""
    args: list[str] = []
    made = {"/"}
    for dest in dests:
        parent = os.path.dirname(dest)
        chain = []
        while parent not in made:
            chain.append(parent)
            made.add(parent)
            parent = os.path.dirname(parent)
        for folder in reversed(chain):
            args += ["--perms", "0755", "--dir", folder]
    return args


def _system_binds() -> list[str]:
    """bubblewrap arguments for the read-only system: /usr, the /lib*, /bin, /sbin links
    (or folders), a few files of /etc and the links of /dev to /proc (the devices are
    `_devices`)."""
    args = ["--ro-bind", "/usr", "/usr"]
    for name in ("lib", "lib32", "lib64", "libx32", "bin", "sbin"):
        path = f"/{name}"
        if os.path.islink(path):
            args += ["--symlink", os.readlink(path), path]
        elif os.path.isdir(path):
            args += ["--ro-bind", path, path]
    etc = [f"/etc/{name}" for name in ETC_FILES if os.path.exists(f"/etc/{name}")]
    args += _dirs_for(etc)
    for path in etc:
        args += ["--ro-bind", path, path]
    args += _dirs_for(["/dev/fd"])
    args += ["--symlink", "/proc/self/fd", "/dev/fd"]
    for k, name in enumerate(("stdin", "stdout", "stderr")):
        args += ["--symlink", f"/proc/self/fd/{k}", f"/dev/{name}"]
    return args


def _devices() -> list[str]:
    """The devices (not a writable /dev: bubblewrap's --dev is a memory file system)."""
    args = _dirs_for(["/dev/null"])
    for name in DEVICES:
        args += ["--dev-bind", f"/dev/{name}", f"/dev/{name}"]
    return args


def _check_read_only(read_only: Mapping[str, str]) -> None:
    """ValueError for a path of `read_only` that is missing or a place the sandbox sees
    that is not allowed (relative, ``/``, or in its own /tmp, /proc, /dev)."""
    for src, dst in read_only.items():
        if not os.path.isabs(dst) or os.path.normpath(dst) == "/":
            raise ValueError(f"the sandbox path {dst!r} must be an absolute path below /")
        if any(os.path.normpath(dst) == r or dst.startswith(r + "/") for r in _RESERVED):
            raise ValueError(f"the sandbox path {dst!r} is the sandbox's own ({dst.split('/')[1]})")
        if not os.path.exists(src):
            raise ValueError(f"no such file or folder to show the sandbox: {src}")


def _read_only_binds(read_only: Mapping[str, str]) -> list[str]:
    """bubblewrap arguments mounting each host path of `read_only` read-only where the
    sandbox sees it (the folders above made 0755)."""
    _check_read_only(read_only)
    dests = [os.path.normpath(d) for d in read_only.values()]
    args = _dirs_for(dests)
    for src, dst in zip(read_only, dests, strict=True):
        args += ["--ro-bind", src, dst]
    return args


def _check_readable(read_only: Mapping[str, str]) -> None:
    """Started by root, the sandbox runs as nobody: each path of `read_only` must be
    readable by others (a folder also searchable), or it is refused here, before the
    start, rather than failing inside."""
    for src in read_only:
        mode = os.stat(src).st_mode
        need = 0o005 if stat.S_ISDIR(mode) else 0o004
        if mode & need != need:
            raise ValueError(
                f"{src} is not readable by the sandbox's user (nobody): make it readable "
                "by others (or show the sandbox a copy)"
            )


def _give_pipes(fds: Sequence[int]) -> None:
    """Started by root, the sandbox runs as nobody: the pipes among `fds` are given to
    nobody, so that the command can also reopen them by ``/dev/fd/N`` (as Octave's
    ``fopen`` does); a pipe is root's and mode 0600 when made."""
    for fd in fds:
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            os.fchown(fd, SANDBOX_UID, SANDBOX_GID)


#: The namespaces and process settings of the sandbox (the bubblewrap that runs the
#: command). No ``--new-session``: `popen` starts bubblewrap in a new session already (no
#: controlling terminal, so no TIOCSTI), and the command stays in its process group.
_INNER = (
    "--unshare-user", "--disable-userns", "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_GID),
    "--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
    "--remount-ro", "/", "--cap-drop", "ALL", "--die-with-parent", "--chdir", "/tmp",
)  # fmt: skip


def _command(
    tools: Mapping[str, str], argv: Sequence[str], read_only: Mapping[str, str], limits: Limits
) -> list[str]:
    """The command line that runs `argv` sandboxed.

    Started by a user, it is one bubblewrap: the mounts, a fresh /proc, the private /tmp,
    `_INNER`, then ``prlimit`` and `argv`. Started by root it is two: bubblewrap, as
    root, only mounts the files (root can open paths that nobody cannot, such as a Python
    under /root) and starts ``setpriv``, which drops to nobody (no capabilities, no new
    privileges) and runs the same inner bubblewrap as a user would, over that view.
    The process cap counts the command's processes plus bubblewrap's own init."""
    files = [*_system_binds(), *_read_only_binds(read_only)]
    inner = [
        "--proc", "/proc", *_devices(),
        "--size", str(limits.tmp_mb * 1024 * 1024), "--perms", "0700", "--tmpfs", "/tmp",
        *_INNER, "--",
        tools["prlimit"],
        *limits.prlimit_args(None if limits.processes is None else limits.processes + 1),
        "--", *argv,
    ]  # fmt: skip
    if not _as_root():
        return [tools["bwrap"], *files, *inner]
    return [
        tools["bwrap"], *files, *_devices(),
        # the inner bubblewrap mounts its own /proc: the kernel allows that only where a
        # whole /proc is mounted already (it is covered at once)
        "--perms", "0755", "--dir", "/tmp", "--perms", "0755", "--dir", "/proc",
        "--bind", "/proc", "/proc",
        "--unshare-pid", "--cap-drop", "ALL", "--cap-add", "CAP_SETUID",
        "--cap-add", "CAP_SETGID", "--die-with-parent", "--",
        tools["setpriv"], f"--reuid={SANDBOX_UID}", f"--regid={SANDBOX_GID}", "--clear-groups",
        "--no-new-privs", "--",
        tools["bwrap"], "--ro-bind", "/", "/", *inner,
    ]  # fmt: skip


_PROBED: list[str] = []


def _probe() -> str:
    """Why the sandbox does not work here ('' when it does), tried once."""
    if not _PROBED:
        _PROBED.append(_try_sandbox())
    return _PROBED[0]


def _try_sandbox() -> str:
    """Run ``sh -c 'true & wait'`` (one fork) in the sandbox twice: under a cap of two
    processes it must work (the sandbox runs, and counts its processes alone), under a cap
    of one it must fail (the cap holds)."""
    tools, why = _tools()
    if not tools:
        return why
    for processes, want_ok in ((2, True), (1, False)):
        argv = _command(tools, ["sh", "-c", "true & wait"], {}, Limits(processes=processes))
        try:
            done = subprocess.run(
                argv, capture_output=True, timeout=30, check=False, env={"PATH": "/usr/bin:/bin"}
            )
        except (OSError, subprocess.TimeoutExpired) as e:
            return f"bubblewrap does not work here ({e})"
        lines = done.stderr.decode(errors="replace").strip().splitlines()
        if want_ok and done.returncode != 0:
            last = lines[-1] if lines else f"exit code {done.returncode}"
            if "fork" in last.lower():
                return (
                    "the sandbox's process cap is not counted for the sandbox alone here "
                    f"({last}): it needs Linux 5.14 or newer"
                )
            need = "user, PID and network namespaces for an unprivileged user"
            if "Unknown option" in last or "unrecognized option" in last:
                need = "bubblewrap 0.8 or newer"
            return f"bubblewrap cannot make the sandbox here ({last}): it needs {need}"
        if not want_ok and done.returncode == 0:
            return "the sandbox's process cap does not hold here (a fork beyond it worked)"
    return ""


def available() -> bool:
    """Whether the sandbox works on this machine (all of it: see the module docs)."""
    return _probe() == ""


def unavailable_reason() -> str:
    """Why the sandbox does not work here, in one line ('' when it does)."""
    return _probe()


def describe() -> str:
    """The sandbox in words, or why there is none."""
    why = _probe()
    if why:
        return f"no sandbox: {why}"
    host = f"host uid {SANDBOX_UID}" if _as_root() else f"host uid {os.getuid()}, yours"
    return (
        f"bubblewrap: uid nobody ({host}), namespaces: user (no further ones), pid, net, "
        "ipc, uts; a read-only system, a private /tmp; limits by prlimit"
    )


def _child_of(pid: int) -> int | None:
    """The first child process of `pid` (bubblewrap's init), or None."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as f:
            children = f.read().split()
    except OSError:
        return None
    return int(children[0]) if children else None


def _watch(pid: int | None) -> int | None:
    """A descriptor that becomes readable when the process `pid` has ended (a pidfd),
    or None."""
    if pid is None or not hasattr(os, "pidfd_open"):
        return None
    try:
        return os.pidfd_open(pid)
    except OSError:
        return None


class Sandboxed:
    """A started sandboxed process (`popen`): its `process`, `kill` and `close`. `tmp` is
    the host folder of an unsandboxed command (None when sandboxed: its /tmp is in the
    sandbox's memory and ends with it)."""

    def __init__(self, process: subprocess.Popen[bytes], tmp: str | None) -> None:
        self.process = process
        self.tmp = tmp

    @property
    def pid(self) -> int:
        """The process id (of bubblewrap when sandboxed)."""
        return self.process.pid

    def kill(self) -> None:
        """Kill the whole process group at once (SIGKILL), reap it, and wait until every
        process of the sandbox has ended: they die with bubblewrap's init (its
        ``--die-with-parent``), also those that left the group, when the kernel ends its
        PID namespace; the init has ended only once they all have."""
        sandboxed = self.tmp is None
        init = None
        if sandboxed and self.process.poll() is None:
            init = _watch(_child_of(self.process.pid))
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
        if init is not None:
            try:
                select.select([init], [], [], 10)
            finally:
                os.close(init)

    def close(self) -> None:
        """Kill what is left and remove the private folder (unsandboxed)."""
        if self.process.poll() is None:
            self.kill()
        if self.tmp is not None:
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


def refusal(why: str) -> str:
    """The one line refusing untrusted code for the reason `why`, with the opt-out."""
    return (
        f"refusing to run untrusted code without a sandbox: {why} "
        "(or run it unsandboxed with --no-sandbox / sandbox=False)"
    )


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
    (without the sandbox they stay where they are: map them to themselves); started by
    root they must be readable by others. ``env`` is the command's whole environment
    besides ``HOME`` and ``TMPDIR`` (its private folder), with defaults it may override: a
    ``PATH`` of the system folders, ``LANG``, and one thread for the maths libraries.
    ``pass_fds`` stay open in the command (pipes among them are given to nobody when
    started by root). Raises `SandboxUnavailableError` when
    ``sandbox`` is asked for and cannot run here (or, also unsandboxed, prlimit is
    missing), ValueError for a bad ``read_only``.
    """
    limits = limits or Limits()
    read_only = dict(read_only or {})
    if sandbox:
        why = _probe()
        if why:
            raise SandboxUnavailableError(refusal(why))
    tools, why = _tools()
    if "prlimit" not in tools:
        raise SandboxUnavailableError(f"cannot set the limits: {why}")
    tmp: str | None = None
    if sandbox:
        _check_read_only(read_only)
        if _as_root():
            _check_readable(read_only)
            _give_pipes(pass_fds)
        cmd = _command(tools, argv, read_only, limits)
        home, cwd = "/tmp", "/"
    else:
        # the caller's processes count against its cap: it is theirs plus `processes`
        nproc = None if limits.processes is None else _user_processes() + limits.processes
        tmp = tempfile.mkdtemp(prefix="ludogame-sandbox-")  # 0700, the caller's
        cmd = [tools["prlimit"], *limits.prlimit_args(nproc), "--", *argv]
        home = cwd = tmp
    full_env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        # one thread for the maths libraries (OpenBLAS would start one per core: threads
        # count against the process cap)
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
        **(env or {}),
        "HOME": home,
        "TMPDIR": home,
    }
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
            cwd=cwd,
            pass_fds=tuple(pass_fds),
            start_new_session=True,
        )
    except BaseException:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        raise
    return Sandboxed(process, tmp)


__all__ = [
    "DEFAULT_CPU_SECONDS",
    "DEFAULT_FILE_SIZE_MB",
    "DEFAULT_MEMORY_MB",
    "DEFAULT_PROCESSES",
    "DEFAULT_TMP_MB",
    "LINK_REFUSED",
    "MAX_SOURCE_BYTES",
    "SANDBOX_GID",
    "SANDBOX_UID",
    "Limits",
    "Sandboxed",
    "SandboxUnavailableError",
    "UntrustedFileError",
    "available",
    "describe",
    "popen",
    "read_untrusted",
    "refusal",
    "unavailable_reason",
]
