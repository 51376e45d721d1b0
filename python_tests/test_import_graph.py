"""No import circles: in the Rust crate, in the Python package and in the page scripts, no
module depends on itself through others (shared helpers live in their own module, shared
types below both users). The graphs are built by `import_graph` (see its docstring for
what counts as an edge)."""

from __future__ import annotations

from pathlib import Path

from import_graph import circles, describe, js_graph, python_graph, rust_graph

ROOT = Path(__file__).resolve().parent.parent


def test_the_rust_modules_have_no_circle() -> None:
    graph = rust_graph(ROOT / "src")
    assert len(graph) > 60, "the crate's modules were not found"
    assert sum(len(v) for v in graph.values()) > 150, "the crate's uses were not found"
    found = circles(graph)
    assert not found, "Rust modules in a circle:\n" + describe(graph, found)


def test_the_checker_finds_a_rust_circle(tmp_path: Path) -> None:
    """The check can fail: two sibling modules using each other are a circle, through a
    re-export or not; a parent using its child is not."""
    (tmp_path / "a").mkdir()
    (tmp_path / "lib.rs").write_text("pub mod a;\npub use a::b::Thing;\n")
    (tmp_path / "a" / "mod.rs").write_text("pub mod b;\npub mod c;\npub use c::Other;\n")
    (tmp_path / "a" / "b.rs").write_text("use super::Other;\npub struct Thing;\n")
    (tmp_path / "a" / "c.rs").write_text(
        "pub struct Other;\nfn f() -> crate::Thing { crate::Thing }\n"
        "#[cfg(test)]\nmod tests { use super::super::b; }\n"
    )
    graph = rust_graph(tmp_path)
    assert graph["a::b"] == {"a::c"} and graph["a::c"] == {"a::b"}
    assert circles(graph) == [["a::b", "a::c"]]
    (tmp_path / "a" / "c.rs").write_text("pub struct Other;\n")
    assert circles(rust_graph(tmp_path)) == []


def test_the_python_modules_have_no_circle() -> None:
    graph = python_graph(ROOT / "python" / "LudoGame")
    assert len(graph) > 20, "the package's modules were not found"
    assert graph["LudoGame.cli"], "the imports were not found"
    found = circles(graph)
    assert not found, "Python modules in a circle:\n" + describe(graph, found)


def test_the_checker_finds_a_python_circle(tmp_path: Path) -> None:
    """Lazy imports count; names imported from a package resolve to their module;
    imports under TYPE_CHECKING do not count."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from pkg.a import A\nfrom pkg.sub.c import C\n")
    (pkg / "a.py").write_text("A = 1\ndef f():\n    from pkg import C\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "c.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.b import B\n"
        "from .. import a\nC = 2\n"
    )
    (pkg / "b.py").write_text("from pkg.sub.c import C\nB = 3\n")
    graph = python_graph(pkg)
    assert graph["pkg.a"] == {"pkg.sub.c"} and graph["pkg.sub.c"] == {"pkg.a"}
    assert graph["pkg.b"] == {"pkg.sub.c"}
    assert circles(graph) == [["pkg.a", "pkg.sub.c"]]


def test_the_page_scripts_have_no_circle() -> None:
    graph = js_graph(ROOT / "python" / "LudoGame" / "web" / "static")
    assert {"app.js", "common.js", "ludo.js", "onitama.js", "live.js", "game-page.js"} <= set(graph)
    assert "ludo.js" in graph["app.js"], "the router's dynamic imports were not found"
    found = circles(graph)
    assert not found, "page scripts in a circle:\n" + describe(graph, found)


def test_the_checker_finds_a_page_script_circle(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\nexport const a = 1;\n')
    (tmp_path / "b.js").write_text('export const b = 2;\nconst a = await import("./a.js");\n')
    (tmp_path / "c.js").write_text('// import { a } from "./a.js";\nexport { b } from "./b.js";\n')
    graph = js_graph(tmp_path)
    assert graph == {"a.js": {"b.js"}, "b.js": {"a.js"}, "c.js": {"b.js"}}
    assert circles(graph) == [["a.js", "b.js"]]
