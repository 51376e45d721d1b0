"""The ``ludo check`` command: reports of `LudoGame.checker` at the terminal, as JSON, as a
table of a whole class (``--summary``) and as an HTML page (``--html``)."""

from __future__ import annotations

import argparse
import concurrent.futures
import html
import json
import os
import sys
from typing import Any

from LudoGame import sandbox
from LudoGame.checker import (
    STUDENT_NAME,
    CheckUsageError,
    Report,
    check,
    check_seed,
    fresh_seed,
    render,
    seed_text,
)
from LudoGame.untrusted import visible


def _one(
    path: str, seed: int, games: int, timeout: float, sandboxed: bool, secret: bool = False
) -> Report:
    """Check one file; a file that cannot be checked becomes a report with its error, and
    a check that fails in any other way a report with that failure (one file never stops
    the others)."""
    shown = None if secret else seed
    try:
        return check(
            path,
            seed=seed,
            secret_seed=secret,
            games=games,
            timeout=timeout,
            sandboxed=sandboxed,
        )
    except CheckUsageError as e:
        return Report(path=path, seed=shown, error=str(e).removeprefix(f"{visible(path)}: "))
    except Exception as e:  # noqa: BLE001 - reported on this file's line, the others go on
        return Report(path=path, seed=shown, failure=_checker_failed(e))


def _checker_failed(e: BaseException) -> str:
    return f"the check of this file failed: {type(e).__name__}: {visible(e)}"[:500]


def _one_text(
    path: str,
    text: bytes,
    seed: int,
    games: int,
    timeout: float,
    sandboxed: bool,
    secret: bool = False,
) -> Report:  # pragma: no cover - runs on a Ray worker
    """A Ray task: check the file `path` whose bytes are `text` (written to a folder of the
    worker's own: the cluster's machines need not share files)."""
    import dataclasses
    import tempfile

    with tempfile.TemporaryDirectory(prefix="ludo-check-") as folder:
        copy = os.path.join(folder, STUDENT_NAME)
        with open(copy, "wb") as f:
            f.write(text)
        report = _one(copy, seed, games, timeout, sandboxed, secret)
    return dataclasses.replace(report, path=path)


def run_all_ray(
    paths: list[str],
    seed: int,
    games: int,
    timeout: float,
    sandboxed: bool,
    address: str,
    secret: bool = False,
) -> list[Report]:
    """The reports of every file, each checked by a Ray task (`address`: a cluster to
    join, "" for Ray on this machine), in the order given. The files are read here and
    sent with their tasks; one that cannot be read is reported here."""
    from LudoGame import _ray

    reports: list[Report | None] = []
    jobs: list[tuple[int, str, bytes]] = []
    for p in paths:
        file = os.path.join(p, STUDENT_NAME) if os.path.isdir(p) else p
        try:
            with open(file, "rb") as f:
                jobs.append((len(reports), file, f.read()))
            reports.append(None)
        except OSError:
            reports.append(_one(p, seed, games, timeout, sandboxed, secret))  # says what is wrong
    with _ray.connected(address or None) as ray:
        task = _ray.remote(ray, _one_text).options(**_ray.task_options(1))
        refs = [task.remote(f, t, seed, games, timeout, sandboxed, secret) for _, f, t in jobs]
        done = _ray.run_tasks(ray, refs, [f for _, f, _ in jobs], [1] * len(jobs), None, list)
    for (i, _, _), report in zip(jobs, done, strict=True):
        reports[i] = report
    return [r for r in reports if r is not None]


def run_all(
    paths: list[str],
    seed: int,
    games: int,
    timeout: float,
    sandboxed: bool,
    jobs: int,
    secret: bool = False,
) -> list[Report]:
    """The reports of every file, checked `jobs` at a time in separate processes; a file
    whose check fails (even its process in the pool) gets a report saying so, and the
    others are checked all the same."""
    if len(paths) == 1 or jobs <= 1:
        return [_one(p, seed, games, timeout, sandboxed, secret) for p in paths]
    reports = []
    with concurrent.futures.ProcessPoolExecutor(min(jobs, len(paths))) as pool:
        futures = [pool.submit(_one, p, seed, games, timeout, sandboxed, secret) for p in paths]
        for path, future in zip(paths, futures, strict=True):
            try:
                reports.append(future.result())
            except Exception as e:  # noqa: BLE001 - e.g. a worker process that died
                failed = _checker_failed(e)
                reports.append(Report(path=path, seed=None if secret else seed, failure=failed))
    return reports


def seed_line(reports: list[Report]) -> str:
    """The seed of a run, and how to play its games again."""
    seeds = {r.seed for r in reports}
    if seeds == {None}:
        return "secret seed: the same --seed-file plays these games again"
    if len(seeds) == 1:
        seed = seeds.pop()
        return f"seed {seed}: --seed {seed} plays these games again"
    return "seeds " + ", ".join(seed_text(s) for s in sorted(seeds, key=str))


def summary(reports: list[Report]) -> str:
    """One row per file: cases passed, games agreed, the decisions where it differs (the
    files' names and failures made visible, `LudoGame.untrusted.visible`); then the seed."""
    rows = [("file", "cases", "games", "differs on", "failure")]
    for r in reports:
        decisions = sorted(
            {d for x in r.differences for d in x.decisions}, key=lambda d: int(d[1:])
        )
        failure = visible(r.error or r.failure or "")
        rows.append(
            (
                visible(r.path),
                f"{r.cases_passed}/{r.cases}",
                f"{r.checked - r.differing}/{r.checked}" if not r.error else "-",
                " ".join(decisions) or ("-" if r.differences == [] else "?"),
                failure.split(" (")[0],
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    table = "\n".join(
        (
            "  ".join(cell.ljust(w) for cell, w in zip(row[:4], widths, strict=True))
            + "  "
            + row[4]
        ).rstrip()
        for row in rows
    )
    return f"{table}\n\n{seed_line(reports)}"


def to_html(reports: list[Report]) -> str:
    """The reports as one HTML page (the texts made visible, then HTML-escaped)."""
    parts = ["<!doctype html><meta charset=utf-8><title>ludo check</title>", "<h1>ludo check</h1>"]
    parts.append("<pre>" + html.escape(summary(reports)) + "</pre>")
    for r in reports:
        parts.append(f"<h2>{html.escape(visible(r.path))}</h2><pre>{html.escape(render(r))}</pre>")
    return "\n".join(parts) + "\n"


def _exit_status(reports: list[Report]) -> int:
    if any(r.error for r in reports) and len(reports) == 1:
        return 2
    return 0 if all(r.agrees for r in reports) else 1


class SeedFileError(ValueError):
    """A ``--seed-file`` that cannot be read or written, or holds no seed (one line)."""


def run_seed(seed: int | None, seed_file: str | None) -> tuple[int, bool]:
    """The seed of a run and whether it is secret: `seed` if given; else the seed kept in
    `seed_file` (secret), which is drawn and written there (readable by its owner only) when
    the file does not exist yet; else a fresh seed."""
    if seed_file is None:
        return (fresh_seed() if seed is None else seed), False
    if seed is not None:
        raise SeedFileError("give --seed or --seed-file, not both")
    try:
        fd = os.open(seed_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        pass
    except OSError as e:
        raise SeedFileError(f"cannot write the seed file {seed_file!r}: {e.strerror}") from None
    else:
        seed = fresh_seed()
        with os.fdopen(fd, "w", encoding="ascii") as f:
            f.write(f"{seed}\n")
        return seed, True
    try:
        with open(seed_file, encoding="ascii") as f:
            text = f.read(100).strip()
    except (OSError, UnicodeDecodeError) as e:
        why = getattr(e, "strerror", None) or "not a seed"
        raise SeedFileError(f"cannot read the seed file {seed_file!r}: {why}") from None
    try:
        return check_seed(int(text)), True
    except (TypeError, ValueError):
        raise SeedFileError(
            f"the seed file {seed_file!r} holds no seed (a whole number from 0 to 2**64 - 1)"
        ) from None


def cmd_check(args: argparse.Namespace) -> int:
    """``ludo check FILE...``: 0 all agree, 1 something differs, 2 bad use."""
    sandboxed = not args.no_sandbox
    if sandboxed and not sandbox.available():
        print(
            f"ludo check: refusing to run untrusted code without a sandbox: "
            f"{sandbox.unavailable_reason()} (or use --no-sandbox)",
            file=sys.stderr,
        )
        return 2
    if args.timeout <= 0:
        print("ludo check: --timeout must be positive", file=sys.stderr)
        return 2
    try:
        seed, secret = run_seed(args.seed, args.seed_file)
    except SeedFileError as e:
        print(f"ludo check: {visible(e)}", file=sys.stderr)
        return 2
    try:
        if args.ray is not None:
            reports = run_all_ray(
                args.files, seed, args.games, args.timeout, sandboxed, args.ray, secret
            )
        else:
            reports = run_all(
                args.files, seed, args.games, args.timeout, sandboxed, args.jobs, secret
            )
    except KeyboardInterrupt:  # the students' processes end with ours (and are killed)
        print("ludo check: interrupted", file=sys.stderr)
        return 130
    if args.json:
        data: Any = [r.to_json() for r in reports]
        print(json.dumps(data if len(reports) > 1 else data[0], indent=2))
    elif args.summary:
        print(summary(reports))
    else:
        colour = sys.stdout.isatty()
        for n, r in enumerate(reports):
            if n:
                print()
            out = sys.stderr if r.error and len(reports) == 1 else sys.stdout
            print(("ludo check: " if out is sys.stderr else "") + render(r, colour), file=out)
    if args.html:
        with open(args.html, "w", encoding="utf-8") as f:
            f.write(to_html(reports))
    return _exit_status(reports)
