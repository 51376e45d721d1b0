"""The suite's guard against silent skips: with LUDOGAME_NO_SKIPS=1 (as .ci/check runs it)
a skipped test fails the run, unless it is an opt-in test whose reason names the variable
that turns it on."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

TESTS = """
import pytest

def test_passes():
    pass

def test_opt_in():
    pytest.skip("set LUDOGAME_SOMETHING to run it")
"""


def run(folder: Path, no_skips: bool, *options: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "LUDOGAME_NO_SKIPS"}
    if no_skips:
        env["LUDOGAME_NO_SKIPS"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *options, str(folder)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


# .ci/check runs the suite on two pytest-xdist workers: the guard must hold there too (a
# worker's skips reach the controller, whose hooks count them)
@pytest.mark.slow
@pytest.mark.parametrize("options", [(), ("-n", "2", "--dist", "loadfile")], ids=["one", "xdist"])
def test_a_skip_fails_the_run_only_when_asked(tmp_path: Path, options: tuple[str, ...]) -> None:
    shutil.copy(HERE / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "test_some.py").write_text(TESTS)
    assert run(tmp_path, True, *options).returncode == 0, "an opt-in skip is allowed"
    (tmp_path / "test_more.py").write_text(
        'import pytest\nmissing = pytest.importorskip("no_such_module_here")\n'
    )
    (tmp_path / "test_inside.py").write_text(
        'import pytest\n\ndef test_skips():\n    pytest.skip("no browser here")\n'
    )
    if not options:  # (the same hooks decide with workers: one run less of them)
        assert run(tmp_path, False).returncode == 0
    strict = run(tmp_path, True, *options)
    assert strict.returncode == 1, strict.stdout
    assert "no_such_module_here" in strict.stdout
    assert "no browser here" in strict.stdout
