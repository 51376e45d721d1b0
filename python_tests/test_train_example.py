"""examples/train_ludo.py runs as the README shows it, and its agent learns."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

# slow: run by CI, left out of a quick `pytest -m "not slow"`
pytestmark = pytest.mark.slow

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "train_ludo.py"


def test_the_training_example_learns_to_beat_random() -> None:
    # A shortened run: 300 updates of 256 games, then 2,000 evaluation games.
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), "--updates", "300", "--eval-games", "2000"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr
    untrained = float(re.search(r"untrained .*?: (0\.\d+)", out.stdout).group(1))
    m = re.search(r"trained policy vs random: .*?= (0\.\d+) \(95% interval (0\.\d+)-", out.stdout)
    assert m, out.stdout
    trained, low = float(m.group(1)), float(m.group(2))
    # Far above the untrained policy and above even chances, with room to spare.
    assert low > 0.65 and trained > untrained + 0.1, out.stdout


def test_the_training_example_refuses_bad_arguments() -> None:
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), "--updates", "many"], capture_output=True, text=True
    )
    assert out.returncode == 2 and "invalid int value" in out.stderr
