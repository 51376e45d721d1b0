"""examples/selfplay_ludo.py runs its tiny --quick self-play training and reports in its
format. (Only the format: a few seconds of training are no test of strength.)"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

# The example trains with PyTorch: `bash .ci/check-rl-tools` installs it and runs this.
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "selfplay_ludo.py"
BOTS = ("random", "cs162", "aggressive", "safe", "expectimax:1")


def test_the_quick_self_play_run_reports_every_figure(tmp_path: Path) -> None:
    weights = tmp_path / "policy.pt"
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), "--quick", "--save", str(weights)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    text = out.stdout
    # The curve: one table row per update of the quick run.
    rows = re.findall(
        r"^\|\s+(\d+) \|\s+[\d,]+ \|\s+\d+ \| (0\.\d+|1\.000) \([\d,]+\) \| "
        r"(0\.\d+|1\.000) \| (0\.\d+|1\.000) \|$",
        text,
        re.MULTILINE,
    )
    assert [int(r[0]) for r in rows] == [1, 2, 3], text
    m = re.search(r"training: ([\d,]+) learner steps in \d+ s = ([\d,]+) learner steps/s", text)
    assert m and int(m.group(1).replace(",", "")) > 0, text
    assert re.search(r"^rollouts \d+ s, PPO \d+ s, curve \d+ s$", text, re.MULTILINE), text
    assert "greedy policy" in text
    for bot in BOTS:
        m = re.search(
            rf"^vs {re.escape(bot)} +(\d+) wins in +(\d+) games = "
            r"(\d\.\d{3}) \((\d\.\d{3})-(\d\.\d{3})\)$",
            text,
            re.MULTILINE,
        )
        assert m, (bot, text)
        wins, games = int(m.group(1)), int(m.group(2))
        rate, low, high = (float(m.group(i)) for i in (3, 4, 5))
        assert games == 20 and 0 <= wins <= games
        assert abs(rate - wins / games) < 1e-3 and low <= rate <= high
    assert re.search(r"^evaluation time: \d+ s$", text, re.MULTILINE), text
    assert weights.stat().st_size > 0 and f"saved the policy's weights to {weights}" in text


def test_the_self_play_example_refuses_bad_arguments() -> None:
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), "--updates", "many"], capture_output=True, text=True
    )
    assert out.returncode == 2 and "invalid int value" in out.stderr
