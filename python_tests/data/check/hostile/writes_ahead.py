"""Writes replies ahead of the questions, into every pipe it may write, and never reads its
requests: a checker that kept sending them would block on a full pipe forever."""

import os
import stat
import threading
import time


def _flood() -> None:
    pipes = [fd for fd in range(3, 32) if _is_pipe(fd)]
    while True:
        for fd in pipes:
            try:
                os.write(fd, b"[]\n" * 1000)
            except OSError:
                pass


def _is_pipe(fd: int) -> bool:
    try:
        return stat.S_ISFIFO(os.fstat(fd).st_mode)
    except OSError:
        return False


class LudoGame:
    def __init__(self) -> None:
        threading.Thread(target=_flood, daemon=True).start()
        time.sleep(10**6)
