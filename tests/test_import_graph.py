"""Layers point one way: the import graph of the packages, every import counted (also those inside functions).

``tarneeb_proofs`` has no cycle (issue 22, item 5). ``tarneeb`` still has the cycles listed in KNOWN_CYCLES (the
architecture clean-up's work); a new one fails, and so does a listed one that is gone (shrink the list).

Likewise the imports of ``tarneeb`` that cross its packages (``tarneeb.core``, ``tarneeb.records``, ...; a top-level
module such as ``tarneeb.stats`` is a package of its own) from inside a function (KNOWN_LAZY) and the private names
imported from another package (KNOWN_PRIVATE), issue 27 item 1."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# package -> the strongly connected groups of modules, each sorted (architecture debt, to remove)
KNOWN_CYCLES = {
    "tarneeb": [
        # the spec <-> house cycle (resolve_ruleset loads a house file); the register joined it when a house
        # file's [readings] came to select readings of spec/ambiguities.toml
        ["tarneeb.core.ambiguity", "tarneeb.core.house", "tarneeb.core.prose", "tarneeb.core.rules",
         "tarneeb.core.sources", "tarneeb.core.spec"],
    ],
    "tarneeb_proofs": [],
}

# (importing module, imported module) of the imports inside functions that cross packages, TYPE_CHECKING aside.
# A command module imports its package when the command runs, so that `tarneeb --help` and one command start
# without the others' packages (tests/test_startup.py): the tarneeb.cli entries are that, by design.
KNOWN_LAZY_CLI = {
    ("tarneeb.cli.demo", "tarneeb.core.cards"), ("tarneeb.cli.demo", "tarneeb.core.clauses"),
    ("tarneeb.cli.demo", "tarneeb.core.rules"), ("tarneeb.cli.demo", "tarneeb.play.simulate"),
    ("tarneeb.cli.fuzz", "tarneeb.conformance.fuzz"), ("tarneeb.cli.record", "tarneeb.play.simulate"),
    ("tarneeb.cli.ruling", "tarneeb.core.spec"), ("tarneeb.cli.ruling", "tarneeb.docgen.pages_i18n"),
    ("tarneeb.cli.ruling", "tarneeb.i18n.tables"),
    ("tarneeb.cli.ruling", "tarneeb.ruling"), ("tarneeb.cli.ruling", "tarneeb.ruling.arabic"),
    ("tarneeb.cli.ruling", "tarneeb.ruling.inputs"), ("tarneeb.cli.ruling", "tarneeb.ruling.situation"),
    ("tarneeb.cli.serve", "tarneeb.serve.app"), ("tarneeb.cli.show", "tarneeb.core.ambiguity"),
    ("tarneeb.cli.show", "tarneeb.i18n.arabic"), ("tarneeb.cli.show", "tarneeb.docgen.rulebook"),
    ("tarneeb.cli.simulate", "tarneeb.play.simulate"), ("tarneeb.cli.site", "tarneeb.offline.build"),
    ("tarneeb.cli.stats", "tarneeb.play.batch"), ("tarneeb.cli.stats", "tarneeb.stats"),
    ("tarneeb.cli.vectors", "tarneeb.conformance.protocol"), ("tarneeb.cli.vectors", "tarneeb.conformance.vectors"),
    ("tarneeb.cli.vectors", "tarneeb.core.spec"),
}
# the others, each to remove or to say why it stays: architecture debt (the docs generator reaching up into cli and
# play), or a heavy dependency loaded only when needed (numpy under play.batch, starlette under serve.app)
KNOWN_LAZY = KNOWN_LAZY_CLI | {
    ("tarneeb.docgen.site", "tarneeb.cli"), ("tarneeb.docgen.site", "tarneeb.conformance.examples"),
    ("tarneeb.docgen.site", "tarneeb.play.simulate"), ("tarneeb.docgen.site_ar", "tarneeb.conformance.examples"),
    ("tarneeb.docgen.stats_figures", "tarneeb.stats"), ("tarneeb.offline.pages", "tarneeb.serve.app"),
    ("tarneeb.ruling.inputs", "tarneeb.records.format"), ("tarneeb.ruling.inputs", "tarneeb.records.reader"),
    ("tarneeb.stats", "tarneeb.play.batch"),
}
# (importing module, module.name) of the private names imported from another package
KNOWN_PRIVATE: set[tuple[str, str]] = set()


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """module -> the modules of the package it imports anywhere in its source (``from X import name`` counts X,
    and X.name when that is a module)."""
    files = {".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p
             for p in (root / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for mod, path in files.items():
        here = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(here[:len(here) - node.level + 1] + [node.module or ""]).strip(".") if node.level \
                    else node.module or ""
                deps.add(base)
                deps.update(f"{base}.{a.name}" for a in node.names)
        graph[mod] = {d for d in deps if d in files and d != mod}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted, the list sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def test_the_graph_reader_sees_imports_inside_functions() -> None:
    g = import_graph(ROOT / "proofs", "tarneeb_proofs")
    assert "tarneeb_proofs.encode" in g["tarneeb_proofs.match_stage"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_proofs_package_has_no_import_cycle_and_the_engine_no_new_one() -> None:
    for root, package in ((ROOT / "proofs", "tarneeb_proofs"), (ROOT / "model", "tarneeb")):
        assert cycles(import_graph(root, package)) == KNOWN_CYCLES[package], package


def crossing_imports(root: Path, package: str) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """The imports that cross the package's packages (``package.X``): (importer, imported module) of those inside a
    function, and (importer, module.name) of the private names imported; imports under ``if TYPE_CHECKING`` aside."""
    files = {".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p
             for p in (root / package).rglob("*.py")}

    def layer(mod: str) -> str:
        return ".".join(mod.split(".")[:2])

    lazy: set[tuple[str, str]] = set()
    private: set[tuple[str, str]] = set()
    for mod, path in files.items():
        here = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
        # (node, inside a function, under if TYPE_CHECKING)
        todo: list[tuple[ast.AST, bool, bool]] = [(ast.parse(path.read_text(encoding="utf-8")), False, False)]
        while todo:
            node, in_function, type_checking = todo.pop()
            if isinstance(node, (ast.Import, ast.ImportFrom)) and not type_checking:
                if isinstance(node, ast.Import):
                    names: list[tuple[str, str | None]] = [(a.name, None) for a in node.names]
                else:
                    base = ".".join(here[:len(here) - node.level + 1] + [node.module or ""]).strip(".") \
                        if node.level else node.module or ""
                    names = [(base, a.name) for a in node.names]
                for base, name in names:
                    target = f"{base}.{name}" if name and f"{base}.{name}" in files else base
                    if target not in files or layer(target) == layer(mod):
                        continue
                    if in_function:
                        lazy.add((mod, target))
                    if name and name.startswith("_") and not name.startswith("__"):
                        private.add((mod, f"{base}.{name}"))
            for child in ast.iter_child_nodes(node):
                todo.append((child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)),
                             type_checking or (isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test))))
    return lazy, private


def test_imports_inside_functions_and_private_names_across_packages_are_the_known_ones() -> None:
    lazy, private = crossing_imports(ROOT / "model", "tarneeb")
    assert sorted(lazy - KNOWN_LAZY) == [], "a new import inside a function across packages"
    assert sorted(KNOWN_LAZY - lazy) == [], "gone: shrink KNOWN_LAZY"
    assert sorted(private - KNOWN_PRIVATE) == [], "a private name imported from another package"
    assert sorted(KNOWN_PRIVATE - private) == [], "gone: shrink KNOWN_PRIVATE"


def test_the_crossing_reader_sees_lazy_and_private_imports(tmp_path: Path) -> None:
    (tmp_path / "pkg" / "a").mkdir(parents=True)
    (tmp_path / "pkg" / "b").mkdir()
    for f in ("pkg/__init__.py", "pkg/a/__init__.py", "pkg/b/__init__.py", "pkg/b/low.py"):
        (tmp_path / f).write_text("")
    (tmp_path / "pkg" / "a" / "high.py").write_text(
        "from typing import TYPE_CHECKING\nfrom pkg.b.low import _hidden\nif TYPE_CHECKING:\n    from pkg.b import low\n"
        "def f():\n    from pkg.b import low\n    from pkg.a import high\n")
    lazy, private = crossing_imports(tmp_path, "pkg")
    assert lazy == {("pkg.a.high", "pkg.b.low")} and private == {("pkg.a.high", "pkg.b.low._hidden")}
