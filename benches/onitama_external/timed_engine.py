"""Runs an ``onitama engine`` command and appends the time of each of its searches to a
log, as seen from outside (not part of the tests).

Usage::

    python benches/onitama_external/timed_engine.py --log ours.jsonl -- onitama engine

Lines pass through unchanged both ways. For every ``go`` whose answer is a ``bestmove``, one
JSON line ``{"s_total": seconds from sending go to reading the answer, "depth": D, "nodes":
N}`` is appended, so that the two sides of a match can be compared on the time they really
used (``maxb_engine.py --log`` writes the same fields for the other side).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time


def field(words: list[str], name: str) -> int:
    return int(words[words.index(name) + 1]) if name in words else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--log", required=True)
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- then the engine command")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    child = subprocess.Popen(
        command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    assert child.stdin is not None and child.stdout is not None
    sent_go: list[float] = []  # when the searches still unanswered were asked for
    log = open(args.log, "a", encoding="utf-8")  # noqa: SIM115

    def pump() -> None:  # the engine's answers, passed on; a bestmove is timed
        assert child.stdout is not None
        for answer in child.stdout:
            sys.stdout.write(answer)
            sys.stdout.flush()
            out = answer.split()
            if out[:1] in (["bestmove"], ["result"]) and sent_go:
                took = time.monotonic() - sent_go.pop(0)
                if out[0] == "bestmove":
                    record = {"s_total": took, "depth": field(out, "depth")}
                    record["nodes"] = field(out, "nodes")
                    log.write(json.dumps(record) + "\n")
                    log.flush()

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    for line in sys.stdin:
        if line.split()[:1] == ["go"]:
            sent_go.append(time.monotonic())
        child.stdin.write(line)
        child.stdin.flush()
        if line.split()[:1] == ["quit"]:
            break
    child.stdin.close()
    code = child.wait()
    reader.join(timeout=5)
    log.close()
    return code


if __name__ == "__main__":
    sys.exit(main())
