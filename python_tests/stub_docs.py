"""Keep the docstrings of `python/LudoGame/_core.pyi` equal to the compiled module's own.

A docstring of the compiled core is written once, as the Rust doc comment of its item in
`src/python/`; the stub's copy (which editors show) is generated from the built module:

    python python_tests/stub_docs.py          # rewrite the stub's docstrings
    python python_tests/stub_docs.py --check  # exit 1, naming each stale docstring

`test_stub_docs.py` runs the check. Items whose compiled form has no docstring (type
aliases, constants, dunder methods) keep whatever the stub says.
"""

from __future__ import annotations

import argparse
import ast
import inspect
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

STUB = Path(__file__).resolve().parent.parent / "python" / "LudoGame" / "_core.pyi"


@dataclass
class Edit:
    """The docstring of one stub item, where it is, and what the compiled module says."""

    name: str
    first: int  # 0-based line of the docstring's first line
    last: int  # 0-based line of its last line
    indent: str
    stub: str  # the stub's text (cleaned)
    runtime: str  # the compiled module's text (cleaned)


def _runtime_doc(owner: Any, name: str) -> str | None:
    if owner is None:
        return None
    if inspect.isclass(owner) and name not in owner.__dict__:
        return None  # inherited: its docs belong to the base
    obj = getattr(owner, name, None)  # a static method's function, not the staticmethod
    if obj is None:
        return None
    doc = obj.__doc__
    if not isinstance(doc, str) or not doc.strip():
        return None
    if inspect.isclass(obj):
        # a class without its own doc comment inherits the base's: not its own text
        base_docs = {b.__doc__ for b in obj.__mro__[1:]}
        if doc in base_docs:
            return None
    return inspect.cleandoc(doc)


def _walk(body: list[ast.stmt], owner: Any, prefix: str, out: list[tuple[str, Any, Any]]) -> None:
    for node in body:
        if isinstance(node, ast.ClassDef):
            runtime = getattr(owner, node.name, None) if owner is not None else None
            out.append((prefix + node.name, node, _runtime_doc(owner, node.name)))
            _walk(node.body, runtime, prefix + node.name + ".", out)
        elif isinstance(node, ast.FunctionDef):
            if node.name.startswith("__") and node.name.endswith("__"):
                continue
            out.append((prefix + node.name, node, _runtime_doc(owner, node.name)))


def edits(source: str, module: Any) -> list[Edit]:
    """Every stub docstring that differs from the compiled module's (or is missing)."""
    tree = ast.parse(source)
    lines = source.splitlines()
    items: list[tuple[str, Any, Any]] = []
    _walk(tree.body, module, "", items)
    found = []
    for name, node, runtime in items:
        if runtime is None:
            continue
        first_stmt = node.body[0]
        has_doc = (
            isinstance(first_stmt, ast.Expr)
            and isinstance(first_stmt.value, ast.Constant)
            and isinstance(first_stmt.value.value, str)
        )
        if not has_doc:
            raise SystemExit(
                f"{STUB.name}:{node.lineno}: {name} has no docstring to fill; "
                'give it one ("""...""") and run again'
            )
        stub_text = inspect.cleandoc(first_stmt.value.value)
        if stub_text == runtime:
            continue
        indent = lines[first_stmt.lineno - 1][: first_stmt.col_offset]
        found.append(
            Edit(
                name,
                first_stmt.lineno - 1,
                (first_stmt.end_lineno or first_stmt.lineno) - 1,
                indent,
                stub_text,
                runtime,
            )
        )
    return found


def render(text: str, indent: str) -> list[str]:
    """A docstring as stub lines, in the layout `ruff format` keeps."""
    text = text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    body = text.splitlines()
    if text.endswith('"'):
        body[-1] += " "
    if len(body) == 1:
        return [f'{indent}"""{body[0]}"""']
    out = [f'{indent}"""{body[0]}']
    out += [f"{indent}{line}" if line else "" for line in body[1:]]
    out.append(f'{indent}"""')
    return out


def rewrite(source: str, module: Any) -> str:
    """The stub with every docstring taken from the compiled module."""
    lines = source.splitlines()
    for e in sorted(edits(source, module), key=lambda e: e.first, reverse=True):
        lines[e.first : e.last + 1] = render(e.runtime, e.indent)
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="report, do not write")
    args = parser.parse_args()
    from LudoGame import _core

    source = STUB.read_text(encoding="utf-8")
    stale = edits(source, _core)
    if args.check:
        for e in stale:
            print(f"{STUB.name}:{e.first + 1}: {e.name}: the stub's docstring is not the module's")
        return 1 if stale else 0
    STUB.write_text(rewrite(source, _core), encoding="utf-8")
    print(f"{len(stale)} docstrings rewritten in {STUB}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
