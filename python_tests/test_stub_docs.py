"""The stub's docstrings are the compiled module's own (written once, in `src/python/`)."""

from __future__ import annotations

import inspect
import types

import stub_docs
from LudoGame import _core

STUB_SAMPLE = '''class Thing:
    """Old words."""

    def run(self) -> None:
        """Old run words."""

    def __len__(self) -> int: ...
    @staticmethod
    def make() -> Thing:
        """Old make words."""
'''


def test_stub_docstrings_match_the_compiled_module() -> None:
    stale = stub_docs.edits(stub_docs.STUB.read_text(encoding="utf-8"), _core)
    assert not stale, (
        "stale docstrings in _core.pyi (run `python python_tests/stub_docs.py`): "
        + ", ".join(e.name for e in stale)
    )


def test_rewrite_takes_the_runtime_text_and_keeps_the_rest() -> None:
    class Thing:
        """New words.

        A second paragraph with "quotes" and a backslash \\ in it."""

        def run(self) -> None:
            """New run words."""

        def __len__(self) -> int:
            return 0

        @staticmethod
        def make() -> None:
            """New make words."""

    module = types.SimpleNamespace(Thing=Thing)
    out = stub_docs.rewrite(STUB_SAMPLE, module)
    assert '"""New run words."""' in out
    assert '"""New make words."""' in out  # a static method's own words, not staticmethod's
    assert "def __len__(self) -> int: ..." in out
    ns: dict[str, object] = {}
    exec(out, ns)  # the stub still parses, and its docstrings are the runtime's
    assert inspect.cleandoc(ns["Thing"].__doc__) == inspect.cleandoc(Thing.__doc__)  # type: ignore[attr-defined]
    assert stub_docs.edits(out, module) == []
