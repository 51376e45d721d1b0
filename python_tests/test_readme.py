"""Every Python example in README.md runs, and prints what the README shows.

Each ```python block is a doctest run with fresh globals, so the README cannot go stale.
A Python block without `>>>` prompts would go untested, so none is allowed.
"""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks() -> list[tuple[int, str]]:
    """The README's Python blocks, each with the line it starts on."""
    text = README.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in BLOCK.finditer(text)]


def test_readme_has_python_examples() -> None:
    assert len(python_blocks()) >= 5


@pytest.mark.parametrize(("line", "code"), python_blocks(), ids=lambda v: str(v)[:12])
def test_readme_example(line: int, code: str) -> None:
    assert ">>> " in code, f"README.md line {line}: a Python example without >>> is not tested"
    parser = doctest.DocTestParser()
    test = parser.get_doctest(code, {}, f"README.md:{line}", str(README), line)
    runner = doctest.DocTestRunner(
        optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False
    )
    out: list[str] = []
    runner.run(test, out=out.append)
    assert runner.failures == 0, "".join(out)
