"""Grades from `ludo check`'s reports: a rubric (TOML), Gradescope's ``results.json``, a CSV
row per file, and a Gradescope autograder folder that runs the check on each submission.

A rubric gives each test of ``results.json`` its points: the published cases (in proportion
to those passed), one test per decision D1-D12 (all its points unless a difference of that
decision was found), the random games (in proportion to those agreeing) and the crashes (in
proportion to the games where no call raised). A difference that is a reading the course
allows costs nothing unless the rubric (or ``--strict``) says ``strict = true``.
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import stat
from dataclasses import dataclass, field
from typing import Any

from LudoGame.check_student import AUTOGRADER_BUDGET
from LudoGame.checker import ASKED_OF_EVERY_GAME, DECISIONS, Difference, Report, render, seed_text
from LudoGame.untrusted import visible

#: Gradescope's visibility settings, for a test and for the whole result.
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")

#: The tests of results.json in order, with their default points (100 in all): the published
#: cases, each decision the games check, the random games, the crashes.
DEFAULT_POINTS: dict[str, float] = {
    "published": 30,
    "D1": 5,
    "D2": 3,
    "D3": 2,
    "D4": 5,
    "D5": 5,
    "D6": 3,
    "D7": 6,
    "D8": 6,
    "D9": 10,
    "D10": 3,
    "D11": 3,
    "D12": 4,
    "random": 10,
    "crashes": 5,
}

TEST_NAMES = {
    "published": "The course's published cases (the worked example and the instructor's cases)",
    "random": "Random games (2-4 players, up to 320 turns)",
    "crashes": "No call raises or answers malformed",
}
for _d in DEFAULT_POINTS:
    if _d in DECISIONS:
        TEST_NAMES[_d] = f"{_d}: {DECISIONS[_d][0]}"

DEFAULT_RUBRIC_TOML = (
    """# ludo check's rubric: the points of each test of Gradescope's results.json.
# visibility: of every test ("visible", "hidden", "after_due_date", "after_published");
# stdout_visibility: of what run_autograder prints; strict: an allowed reading of an open
# decision costs its decision's points too (false: it costs nothing, and is reported).
visibility = "visible"
stdout_visibility = "hidden"
strict = false

[points]
"""
    + "".join(f"{name} = {points:g}\n" for name, points in DEFAULT_POINTS.items())
    + """
# [test_visibility]  # a test's own visibility, e.g.
# random = "after_due_date"
"""
)


class RubricError(ValueError):
    """A rubric file that cannot be read or holds something else than a rubric (one line)."""


@dataclass
class Rubric:
    """Points and visibility of each test."""

    points: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_POINTS))
    visibility: str = "visible"
    stdout_visibility: str = "hidden"
    strict: bool = False
    test_visibility: dict[str, str] = field(default_factory=dict)

    @property
    def max_score(self) -> float:
        """The most a file can score."""
        return sum(self.points.values())


def read_rubric(path: str | None) -> Rubric:
    """The rubric in the TOML file `path` (None: the default, `DEFAULT_RUBRIC_TOML`). A test
    the file leaves out is worth nothing; an unknown test, a negative or non-number point, an
    unknown visibility is a `RubricError`."""
    if path is None:
        return Rubric()
    try:
        import tomllib
    except ImportError:  # Python 3.10
        try:
            import tomli as tomllib  # type: ignore[no-redef,import-not-found,unused-ignore]
        except ImportError:
            raise RubricError("reading a rubric needs Python 3.11 or the tomli package") from None
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise RubricError(f"cannot read the rubric {path!r}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise RubricError(f"the rubric {path!r} is not TOML: {e}") from None
    known = {"points", "visibility", "stdout_visibility", "strict", "test_visibility"}
    if unknown := sorted(set(data) - known):
        raise RubricError(f"the rubric {path!r} has unknown keys: {', '.join(unknown)}")
    points = data.get("points", {})
    if not isinstance(points, dict):
        raise RubricError(f"the rubric {path!r}: [points] must be a table")
    for name, value in points.items():
        if name not in DEFAULT_POINTS:
            raise RubricError(
                f"the rubric {path!r}: unknown test {name!r} (the tests: "
                f"{', '.join(DEFAULT_POINTS)})"
            )
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
            raise RubricError(f"the rubric {path!r}: the points of {name} must be a number >= 0")
    rubric = Rubric(points={k: float(points[k]) for k in DEFAULT_POINTS if k in points})
    for key in ("visibility", "stdout_visibility"):
        value = data.get(key, getattr(rubric, key))
        if value not in VISIBILITIES:
            raise RubricError(
                f"the rubric {path!r}: {key} must be one of {', '.join(VISIBILITIES)}"
            )
        setattr(rubric, key, value)
    strict = data.get("strict", False)
    if not isinstance(strict, bool):
        raise RubricError(f"the rubric {path!r}: strict must be true or false")
    rubric.strict = strict
    tests = data.get("test_visibility", {})
    if not isinstance(tests, dict) or any(
        k not in DEFAULT_POINTS or v not in VISIBILITIES for k, v in tests.items()
    ):
        raise RubricError(
            f"the rubric {path!r}: [test_visibility] maps tests to one of {', '.join(VISIBILITIES)}"
        )
    rubric.test_visibility = dict(tests)
    return rubric


@dataclass
class Test:
    """One test of a file's grade."""

    key: str
    name: str
    score: float
    max_score: float
    output: str


def _counted(d: Difference, strict: bool) -> bool:
    """Whether a difference costs its decision's points: a fixed rule, a crash on a turn
    of that decision (raising where unsure must not keep the points), or an allowed
    reading under `strict`."""
    return not d.open or strict


def _asked(report: Report) -> set[str]:
    """The decisions (D1-D12) a report's games asked about: those they reached, and those
    asked of every game."""
    return {d.split(".")[0] for d in report.reached} | set(ASKED_OF_EVERY_GAME)


def unanswered(report: Report) -> list[str]:
    """The decisions the games asked about (`_asked`) that the file never answered without
    raising (`Report.answered`): they are not graded as agreeing."""
    asked = _asked(report)
    return [k for k in DEFAULT_POINTS if k in DECISIONS and k in asked and k not in report.answered]


def grade(report: Report, rubric: Rubric, strict: bool | None = None) -> list[Test]:
    """The tests of one report under `rubric` (`strict` overrides the rubric's)."""
    strict = rubric.strict if strict is None else strict
    tests: list[Test] = []
    broken = report.error or report.failure
    missing = unanswered(report)
    asked = _asked(report)
    for key, points in rubric.points.items():
        name = TEST_NAMES[key]
        if broken:
            tests.append(Test(key, name, 0.0, points, visible(broken)))
            continue
        if key == "published":
            share = report.cases_passed / report.cases if report.cases else 1.0
            output = f"{report.cases_passed}/{report.cases} published cases pass"
            if report.cases_failed:
                output += "; failing: " + ", ".join(report.cases_failed)
                shown = [d.explain() for d in report.differences if d.source in report.cases_failed]
                if shown:
                    output += "\n\n" + "\n\n".join(shown)
        elif key == "random":
            total = report.random_games
            agreeing = report.random_agreeing if not strict else report.random_exact
            share = agreeing / total if total else 1.0
            output = f"{agreeing}/{total} random games agree"
        elif key == "crashes":
            share = 1 - report.crash_games / report.checked if report.checked else 1.0
            crashes = [d.explain() for d in report.differences if d.weight == "crash"]
            output = f"{report.crash_games} of {report.checked} games raised or answered malformed"
            if crashes:
                output += "\n\n" + "\n\n".join(crashes)
        else:
            mine = [d for d in report.differences if d.decision.split(".")[0] == key]
            counted = [d for d in mine if _counted(d, strict)]
            share = 0.0 if counted or key in missing else 1.0
            reached = "" if key in asked else " (no game reached it)"
            if counted:
                output = "\n\n".join(d.explain() for d in counted)
            elif key in missing:
                output = (
                    "not answered: every game that reached it raised or answered malformed "
                    "before (see the crash test)"
                )
            elif mine:
                output = "agrees, with an allowed reading (no points lost):\n\n" + "\n\n".join(
                    d.explain() for d in mine
                )
            else:
                output = f"agrees{reached}"
        tests.append(Test(key, name, round(points * share, 2), points, output))
    return tests


def results_json(
    report: Report, rubric: Rubric, strict: bool | None = None, seconds: float | None = None
) -> dict[str, Any]:
    """Gradescope's results.json for one report: a test per rubric entry (name, number,
    score, max_score, status, output, visibility), the total score, the execution time and
    an output for the whole submission (the report's text; the seed named only when it is
    not secret)."""
    tests = grade(report, rubric, strict)
    strict = rubric.strict if strict is None else strict
    return {
        "score": round(sum(t.score for t in tests), 2),
        "execution_time": round(report.seconds if seconds is None else seconds),
        "output": render(report, strict=strict),
        "visibility": rubric.visibility,
        "stdout_visibility": rubric.stdout_visibility,
        "tests": [
            {
                "name": t.name,
                "number": str(n),
                "score": t.score,
                "max_score": t.max_score,
                "status": "passed" if t.score >= t.max_score else "failed",
                "output": t.output,
                "visibility": rubric.test_visibility.get(t.key, rubric.visibility),
            }
            for n, t in enumerate(tests, 1)
        ],
    }


def write_results(path: str, data: dict[str, Any]) -> None:
    """Write results.json (its folder made if missing)."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")


CSV_COLUMNS = [
    "file",
    "score",
    "max_score",
    "verdict",
    "published_cases",
    "games_agreeing",
    "fixed_rule_differences",
    "crash_differences",
    "allowed_readings",
    "crash_games",
    "failure",
]


def csv_text(reports: list[Report], rubric: Rubric, strict: bool | None = None) -> str:
    """One CSV row per report: the score, the verdict, the kinds of difference by weight
    (their decisions), the readings, the games that crashed, the failure (every text of a
    student's made visible)."""
    strict_ = rubric.strict if strict is None else strict
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for r in reports:
        tests = grade(r, rubric, strict_)

        def decisions(weight: str, r: Report = r) -> str:
            return " ".join(d.decision or "-" for d in r.differences if d.weight == weight)

        verdict = (
            "error"
            if r.error
            else "agrees"
            if r.agrees
            else "passes"
            if r.verdict(strict_)
            else "differs"
        )
        writer.writerow(
            [
                visible(r.path),
                round(sum(t.score for t in tests), 2),
                rubric.max_score,
                verdict,
                f"{r.cases_passed}/{r.cases}",
                f"{r.agreeing}/{r.checked}",
                decisions("fixed rule"),
                decisions("crash"),
                " ".join(d.reading for d in r.differences if d.open),
                r.crash_games,
                visible(r.error or r.failure or ""),
            ]
        )
    return out.getvalue()


# ---------------------------------------------------------------- the autograder folder

SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image: it installs
# the sandbox's tools (bubblewrap, util-linux's prlimit and setpriv) and LudoGame from the
# wheel(s) in wheels/ (build one with `maturin build --release` for the image's Python).
set -euo pipefail
SOURCE="${AUTOGRADER_ROOT:-/autograder}/source"
apt-get install -y --no-install-recommends python3 python3-pip bubblewrap util-linux
WHEELS=(--no-index --find-links "$SOURCE/wheels")
python3 -m pip install "${WHEELS[@]}" ludogame \\
  || python3 -m pip install --break-system-packages "${WHEELS[@]}" ludogame
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission: ludo check on the student's LudoGame.py, with
# the seed kept secret in source/seed (named nowhere; each file plays games drawn from it and
# the file's bytes, so games one submission leaks serve no other),
# the rubric in source/rubric.toml, and results/results.json written whatever the file does.
# AUTOGRADER_ROOT replaces /autograder (to try it elsewhere); LUDO_PYTHON, python3.
set -u
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$ROOT/source"
mkdir -p "$ROOT/results"
"${LUDO_PYTHON:-python3}" -m LudoGame check "$ROOT/submission" \\
  --gradescope "$ROOT/results/results.json" \\
  --rubric "$SOURCE/rubric.toml" \\
  --seed-file "$SOURCE/seed" \\
  --games %(games)d --timeout %(timeout)g --budget %(budget)g
exit 0
"""

README = """A Gradescope autograder for the CS162 LudoGame assignment, written by
`ludo check --autograder`. Zip the files of this folder (not the folder) and upload the zip
as the assignment's autograder.

setup.sh        installs bubblewrap and LudoGame from wheels/ (once, when the image is built)
run_autograder  checks /autograder/submission/LudoGame.py, writes results/results.json
rubric.toml     the points of each test (edit it; `ludo check --rubric` reads it)
seed            the secret seed: each submission plays games drawn from it and the file's
                bytes (the same file, the same games); keep it private
wheels/         LudoGame's wheel for the image's Python (%(wheel)s)

The student's code runs in LudoGame's sandbox (as nobody, no network, no files of ours);
where the image cannot run the sandbox, results.json says so and gives no points. Try it:
  AUTOGRADER_ROOT=/tmp/ag ./run_autograder   (with /tmp/ag/source this folder and
  /tmp/ag/submission/LudoGame.py a student's file)
"""


def write_autograder(
    folder: str,
    wheel: str | None,
    rubric_path: str | None,
    seed: int,
    games: int,
    timeout: float,
    budget: float = AUTOGRADER_BUDGET,
) -> list[str]:
    """Write a Gradescope autograder folder: setup.sh, run_autograder (checking with
    `games`, `timeout` a request and `budget` seconds a submission), rubric.toml (the
    default, or a copy of `rubric_path`), the secret `seed` (mode 0600) and wheels/ (a copy
    of `wheel`). Returns the files written."""
    os.makedirs(os.path.join(folder, "wheels"), exist_ok=True)
    written = []

    def put(name: str, text: str, mode: int) -> None:
        path = os.path.join(folder, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(path, mode)
        written.append(path)

    executable = stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH
    put("setup.sh", SETUP_SH, executable)
    put(
        "run_autograder",
        RUN_AUTOGRADER % {"games": games, "timeout": timeout, "budget": budget},
        executable,
    )
    if rubric_path is None:
        put("rubric.toml", DEFAULT_RUBRIC_TOML, 0o644)
    else:
        read_rubric(rubric_path)  # refuse a bad one now, not on Gradescope
        with open(rubric_path, encoding="utf-8") as f:
            put("rubric.toml", f.read(), 0o644)
    put("seed", f"{seed}\n", 0o600)
    shown = "none yet: put the wheel here"
    if wheel is not None:
        target = os.path.join(folder, "wheels", os.path.basename(wheel))
        shutil.copyfile(wheel, target)
        written.append(target)
        shown = os.path.basename(wheel)
    put("README.txt", README % {"wheel": shown}, 0o644)
    return written


__all__ = [
    "DEFAULT_POINTS",
    "DEFAULT_RUBRIC_TOML",
    "Rubric",
    "RubricError",
    "csv_text",
    "grade",
    "read_rubric",
    "results_json",
    "seed_text",
    "write_autograder",
    "write_results",
]
