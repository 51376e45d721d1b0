"""The ``ludo check`` command: reports of `LudoGame.checker` at the terminal, as JSON, as a
table of a whole class (``--summary``), as an HTML page (``--html``), as grades (``--csv``,
Gradescope's ``--gradescope`` results.json, under ``--rubric``), and a Gradescope autograder
folder (``--autograder``)."""

from __future__ import annotations

import argparse
import concurrent.futures
import functools
import html
import json
import os
import sys
from dataclasses import dataclass
from typing import Any

from LudoGame import check_grade, sandbox
from LudoGame.check_student import AUTOGRADER_BUDGET, DEFAULT_TIMEOUT
from LudoGame.checker import (
    STUDENT_NAME,
    CheckUsageError,
    Report,
    check,
    check_seed,
    fresh_seed,
    read_submission,
    render,
    seed_text,
    student_path,
)
from LudoGame.untrusted import visible


@dataclass(frozen=True)
class Settings:
    """How every file of a run is checked (`LudoGame.checker.check`'s arguments): the
    games' `seed` (kept out of the reports when `secret`), `games` a file, `timeout` seconds
    a request, `budget` seconds a file (None: the default for the timeout), in the sandbox
    unless not `sandboxed`."""

    seed: int
    games: int = 200
    timeout: float = DEFAULT_TIMEOUT
    sandboxed: bool = True
    secret: bool = False
    budget: float | None = None

    @property
    def shown(self) -> int | None:
        """The seed the reports name."""
        return None if self.secret else self.seed


def _one(path: str, settings: Settings) -> Report:
    """Check one file; a file that cannot be checked becomes a report with its error, and
    a check that fails in any other way a report with that failure (one file never stops
    the others)."""
    file = student_path(path)
    try:
        return check(
            path,
            seed=settings.seed,
            secret_seed=settings.secret,
            games=settings.games,
            timeout=settings.timeout,
            sandboxed=settings.sandboxed,
            budget=settings.budget,
        )
    except CheckUsageError as e:
        error = str(e).removeprefix(f"{visible(file)}: ")
        return Report(path=file, seed=settings.shown, error=error)
    except Exception as e:  # noqa: BLE001 - reported on this file's line, the others go on
        return Report(path=file, seed=settings.shown, failure=_checker_failed(e))


def _checker_failed(e: BaseException) -> str:
    return f"the check of this file failed: {type(e).__name__}: {visible(e)}"[:500]


def _one_text(
    path: str, text: bytes, settings: Settings
) -> Report:  # pragma: no cover - runs on a Ray worker
    """A Ray task: check the file `path` whose bytes are `text` (written to a folder of the
    worker's own: the cluster's machines need not share files)."""
    import dataclasses
    import tempfile

    with tempfile.TemporaryDirectory(prefix="ludo-check-") as folder:
        copy = os.path.join(folder, STUDENT_NAME)
        with open(copy, "wb") as f:
            f.write(text)
        report = _one(copy, settings)
    return dataclasses.replace(report, path=path)


def run_all_ray(paths: list[str], settings: Settings, address: str) -> list[Report]:
    """The reports of every file, each checked by a Ray task (`address`: a cluster to
    join, "" for Ray on this machine), in the order given. The files are read here and
    sent with their tasks; one that cannot be read is reported here."""
    from LudoGame import _ray

    reports: list[Report | None] = []
    jobs: list[tuple[int, str, bytes]] = []
    for p in paths:
        file = student_path(p)
        try:
            jobs.append((len(reports), file, read_submission(file)))
            reports.append(None)
        except CheckUsageError:
            reports.append(_one(p, settings))  # says what is wrong
    with _ray.connected(address or None) as ray:
        task = _ray.remote(ray, _one_text).options(**_ray.task_options(1))
        calls = [functools.partial(task.remote, f, t, settings) for _, f, t in jobs]
        done = _ray.run_tasks(ray, calls, [f for _, f, _ in jobs], [1] * len(jobs), None, list)
    for (i, _, _), report in zip(jobs, done, strict=True):
        reports[i] = report
    return [r for r in reports if r is not None]


def run_all(paths: list[str], settings: Settings, jobs: int = 1) -> list[Report]:
    """The reports of every file, checked `jobs` at a time in separate processes; a file
    whose check fails (even its process in the pool) gets a report saying so, and the
    others are checked all the same."""
    if len(paths) == 1 or jobs <= 1:
        return [_one(p, settings) for p in paths]
    reports = []
    with concurrent.futures.ProcessPoolExecutor(min(jobs, len(paths))) as pool:
        futures = [pool.submit(_one, p, settings) for p in paths]
        for path, future in zip(paths, futures, strict=True):
            try:
                reports.append(future.result())
            except Exception as e:  # noqa: BLE001 - e.g. a worker process that died
                failed = _checker_failed(e)
                reports.append(Report(path=student_path(path), seed=settings.shown, failure=failed))
    return reports


def seed_line(reports: list[Report]) -> str:
    """The seed of a run, and how to play its games again."""
    seeds = {r.seed for r in reports}
    if seeds == {None}:
        return "secret seed: the same --seed-file plays these games again (each file its own)"
    if len(seeds) == 1:
        seed = seeds.pop()
        return f"seed {seed}: --seed {seed} plays these games again"
    return "seeds " + ", ".join(seed_text(s) for s in sorted(seeds, key=str))


def summary(
    reports: list[Report], rubric: check_grade.Rubric | None = None, strict: bool = False
) -> str:
    """One row per file: its score under `rubric` (the default one), the published cases
    passed, the games agreeing (allowed readings included unless `strict`), the decisions
    where it differs (a crash marked !; in brackets those it never answered without
    raising), the allowed readings it follows, its failure (the
    files' names and failures made visible, `LudoGame.untrusted.visible`); then the seed."""
    rubric = rubric or check_grade.Rubric()
    rows = [("file", "score", "cases", "games", "differs on", "readings", "failure")]
    for r in reports:
        tests = check_grade.grade(r, rubric, strict)
        score = f"{sum(t.score for t in tests):g}/{rubric.max_score:g}"
        counted = [d for d in r.differences if not d.open or strict]
        decisions = " ".join(
            [(d.decision or "?") + ("!" if d.weight == "crash" else "") for d in counted]
            + ([] if r.error or r.failure else [f"({k})" for k in check_grade.unanswered(r)])
        )
        agreeing = r.agreeing if not strict else r.checked - r.differing
        failure = visible(r.error or r.failure or "")
        rows.append(
            (
                visible(r.path),
                score,
                f"{r.cases_passed}/{r.cases}",
                f"{agreeing}/{r.checked}" if not r.error else "-",
                decisions or "-",
                " ".join(d.reading for d in r.differences if d.open) or "-",
                failure.split(" (")[0],
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(6)]
    table = "\n".join(
        (
            "  ".join(cell.ljust(w) for cell, w in zip(row[:6], widths, strict=True))
            + "  "
            + row[6]
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


def _exit_status(reports: list[Report], strict: bool = False) -> int:
    if any(r.error for r in reports) and len(reports) == 1:
        return 2
    return 0 if all(r.verdict(strict) for r in reports) else 1


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


def cmd_autograder(args: argparse.Namespace) -> int:
    """``ludo check --autograder DIR``: write a Gradescope autograder folder."""
    if args.files:
        print("ludo check: --autograder takes no files to check", file=sys.stderr)
        return 2
    if args.wheel is not None and not os.path.isfile(args.wheel):
        print(f"ludo check: no such wheel: {visible(args.wheel)}", file=sys.stderr)
        return 2
    seed = args.seed if args.seed is not None else fresh_seed()
    try:
        written = check_grade.write_autograder(
            args.autograder,
            args.wheel,
            args.rubric,
            seed,
            args.games,
            args.timeout,
            AUTOGRADER_BUDGET if args.budget is None else args.budget,
        )
    except (OSError, check_grade.RubricError) as e:
        print(f"ludo check: {visible(e)}", file=sys.stderr)
        return 2
    for path in written:
        print(visible(path))
    if args.wheel is None:
        print(
            "no --wheel given: put LudoGame's wheel for the image's Python into "
            f"{visible(os.path.join(args.autograder, 'wheels'))} (maturin build --release)",
            file=sys.stderr,
        )
    return 0


def cmd_check(args: argparse.Namespace) -> int:
    """``ludo check FILE...``: 0 all pass (allowed readings only; with --strict: all
    agree), 1 something differs, 2 bad use."""
    if args.autograder is not None:
        return cmd_autograder(args)
    if not args.files:
        print("ludo check: name the files to check (or --autograder DIR)", file=sys.stderr)
        return 2
    if args.gradescope is not None and len(args.files) != 1:
        print("ludo check: --gradescope grades one file", file=sys.stderr)
        return 2
    try:
        rubric = check_grade.read_rubric(args.rubric)
    except check_grade.RubricError as e:
        print(f"ludo check: {visible(e)}", file=sys.stderr)
        return 2
    strict = args.strict or rubric.strict
    sandboxed = not args.no_sandbox
    if sandboxed and not sandbox.available():
        why = (
            f"refusing to run untrusted code without a sandbox: "
            f"{sandbox.unavailable_reason()} (or use --no-sandbox)"
        )
        print(f"ludo check: {why}", file=sys.stderr)
        if args.gradescope is not None:  # Gradescope still gets a results.json
            report = Report(path=args.files[0], seed=None, error=why)
            check_grade.write_results(
                args.gradescope, check_grade.results_json(report, rubric, strict)
            )
        return 2
    if not args.timeout > 0:
        print("ludo check: --timeout must be positive", file=sys.stderr)
        return 2
    try:
        seed, secret = run_seed(args.seed, args.seed_file)
    except SeedFileError as e:
        print(f"ludo check: {visible(e)}", file=sys.stderr)
        return 2
    try:
        settings = Settings(
            seed, args.games, args.timeout, sandboxed, secret=secret, budget=args.budget
        )
        if args.ray is not None:
            reports = run_all_ray(args.files, settings, args.ray)
        else:
            reports = run_all(args.files, settings, args.jobs)
    except KeyboardInterrupt:  # the students' processes end with ours (and are killed)
        print("ludo check: interrupted", file=sys.stderr)
        return 130
    if args.gradescope is not None:
        try:
            check_grade.write_results(
                args.gradescope, check_grade.results_json(reports[0], rubric, strict)
            )
        except OSError as e:
            print(
                f"ludo check: cannot write {visible(args.gradescope)}: {e.strerror}",
                file=sys.stderr,
            )
            return 2
    if args.json:
        data: Any = [r.to_json() for r in reports]
        print(json.dumps(data if len(reports) > 1 else data[0], indent=2))
    elif args.summary:
        print(summary(reports, rubric, strict))
    else:
        colour = sys.stdout.isatty()
        for n, r in enumerate(reports):
            if n:
                print()
            out = sys.stderr if r.error and len(reports) == 1 else sys.stdout
            text = render(r, colour, strict)
            print(("ludo check: " if out is sys.stderr else "") + text, file=out)
    if args.html:
        with open(args.html, "w", encoding="utf-8") as f:
            f.write(to_html(reports))
    if args.csv:
        with open(args.csv, "w", encoding="utf-8", newline="") as f:
            f.write(check_grade.csv_text(reports, rubric, strict))
    return _exit_status(reports, strict)
