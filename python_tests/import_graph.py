"""The import graphs of the project's three languages, for the layering tests: which module
uses which, and the circles (strongly connected components) in them.

- Rust: a module per file under `src/`; an edge for every `use` and every path written
  out (`crate::`, `super::`, `self::`), resolved through `pub use` re-exports to the module
  that defines the name. Unit-test modules (`#[cfg(test)] mod ...`) do not count, and
  neither do edges between a module and its own descendants (declaring and re-exporting
  children is how Rust nests modules).
- Python: a module per file of the package; an edge for every import, at the top or in a
  function (a lazy import is still a dependency), except those under `if TYPE_CHECKING:`;
  a name imported from a package resolves through the package's own imports to the module
  that defines it.
- Page scripts: an edge for every static or dynamic `import` of another script.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from pathlib import Path

Graph = dict[str, set[str]]


def circles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def describe(graph: Graph, found: Iterable[list[str]]) -> str:
    """The circles with their edges, for an assertion message."""
    lines = []
    for comp in found:
        lines.append(" <-> ".join(comp))
        members = set(comp)
        for a in comp:
            for b in sorted(graph[a] & members):
                lines.append(f"    {a} -> {b}")
    return "\n".join(lines)


# ---- Rust ----

_TESTS = re.compile(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{")


def _rust_clean(text: str) -> str:
    text = _TESTS.split(text)[0]  # unit tests come last in a file
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r'"(\\.|[^"\\])*"', '""', text)


def _expand_use(body: str) -> list[str]:
    """`a::{b, c::{d, e}}` as the paths `a::b`, `a::c::d`, `a::c::e`."""
    body = re.sub(r"\s+", "", body)
    brace = body.find("{")
    if brace < 0:
        return [body.split("as")[0] if "::" in body else body]
    prefix, inner = body[:brace], body[brace + 1 : body.rfind("}")]
    items, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
            continue
        depth += (ch == "{") - (ch == "}")
        cur += ch
    items.append(cur)
    out = []
    for item in filter(None, items):
        for p in _expand_use(item):
            out.append(prefix.rstrip(":") if p == "self" else prefix + p)
    return out


def rust_graph(src: Path) -> Graph:
    """The module graph of the crate whose sources are in `src`."""
    files: dict[tuple[str, ...], Path] = {}
    for f in src.rglob("*.rs"):
        parts = list(f.relative_to(src).with_suffix("").parts)
        if parts[-1] in ("mod", "lib"):
            parts = parts[:-1]
        files[tuple(parts)] = f
    texts = {m: _rust_clean(f.read_text(encoding="utf-8")) for m, f in files.items()}

    def absolute(m: tuple[str, ...], path: str) -> list[str] | None:
        segs = path.split("::")
        if segs[0] == "crate":
            return segs[1:]
        if segs[0] in ("super", "self"):
            cur = list(m)
            while segs and segs[0] in ("super", "self"):
                if segs[0] == "super":
                    cur = cur[:-1]
                segs = segs[1:]
            return cur + segs
        # a relative path to a child module (`use board::X` in a parent)
        if (*m, segs[0]) in files:
            return [*m, *segs]
        return None

    reexports: dict[tuple[str, ...], dict[str, list[str]]] = {}
    for m, text in texts.items():
        names: dict[str, list[str]] = {}
        for u in re.finditer(r"\bpub(?:\([^)]*\))?\s+use\s+([^;]+);", text):
            for p in _expand_use(u.group(1)):
                target = absolute(m, p)
                if target:
                    names[target[-1]] = target
        reexports[m] = names

    def resolve(path: list[str], depth: int = 0) -> tuple[str, ...] | None:
        for k in range(len(path), -1, -1):
            m = tuple(path[:k])
            if m in files:
                nxt = reexports[m].get(path[k]) if k < len(path) else None
                if nxt and nxt != path[: k + 1] and depth < 10:
                    return resolve(nxt, depth + 1)
                return m
        return None

    graph: Graph = {"::".join(m): set() for m in files}
    for m, text in texts.items():
        paths = [p for u in re.finditer(r"\buse\s+([^;]+);", text) for p in _expand_use(u.group(1))]
        paths += re.findall(r"\b((?:crate|super|self)(?:::\w+)+)", text)
        for p in paths:
            target = absolute(m, p)
            t = resolve(target) if target else None
            if t and t != m and t[: len(m)] != m:  # () is the crate root: no edge
                graph["::".join(m)].add("::".join(t))
    return graph


# ---- Python ----


def _type_checking_lines(tree: ast.Module) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in node.body:
                for n in ast.walk(sub):
                    if hasattr(n, "lineno"):
                        lines.add(n.lineno)
    return lines


def python_graph(package: Path) -> Graph:
    """The module graph of the Python package in the folder `package`."""
    root = package.name
    modules: dict[str, Path] = {}
    for f in package.rglob("*.py"):
        parts = [root, *f.relative_to(package).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = f
    trees = {m: ast.parse(f.read_text(encoding="utf-8")) for m, f in modules.items()}

    def is_package(m: str) -> bool:
        return modules[m].name == "__init__.py"

    def where_defined(pkg: str, name: str, depth: int = 0) -> str:
        """The module a name imported from package `pkg` comes from."""
        if f"{pkg}.{name}" in modules:
            return f"{pkg}.{name}"
        if depth > 10 or pkg not in modules:
            return pkg
        for node in ast.walk(trees[pkg]):
            if isinstance(node, ast.ImportFrom) and any(
                (a.asname or a.name) == name for a in node.names
            ):
                src = absolute(pkg, node)
                if src and src in modules and src != pkg:
                    orig = next(a.name for a in node.names if (a.asname or a.name) == name)
                    return where_defined(src, orig, depth + 1) if is_package(src) else src
        return pkg

    def absolute(m: str, node: ast.ImportFrom) -> str | None:
        if node.level == 0:
            return node.module
        base = m.split(".") if is_package(m) else m.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        return ".".join([*base, node.module] if node.module else base)

    graph: Graph = {m: set() for m in modules}
    for m, tree in trees.items():
        skip = _type_checking_lines(tree)
        for node in ast.walk(tree):
            if getattr(node, "lineno", None) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                src = absolute(m, node)
                if not src:
                    continue
                if src in modules and is_package(src):
                    targets = [where_defined(src, a.name) for a in node.names]
                else:
                    targets = [src]
            for t in targets:
                while t and t not in modules:
                    t = t.rpartition(".")[0]
                # a module's own package (and its ancestors) are not dependencies
                if t and t != m and not m.startswith(t + "."):
                    graph[m].add(t)
    return graph


# ---- page scripts ----

_JS_IMPORT = re.compile(
    r"""(?:\bimport\s*(?:[\w*{}\s,]+\s*from\s*)?|\bimport\s*\(\s*|\bexport\s*[\w*{}\s,]+\s*from\s*)["']\./([\w.-]+\.js)["']"""
)


def js_graph(folder: Path) -> Graph:
    """The import graph of the page scripts (`*.js`) in `folder`."""
    graph: Graph = {}
    for f in folder.glob("*.js"):
        text = re.sub(r"//[^\n]*", "", f.read_text(encoding="utf-8"))
        graph[f.name] = {t for t in _JS_IMPORT.findall(text) if t != f.name}
    return graph
