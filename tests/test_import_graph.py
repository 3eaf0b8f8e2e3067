"""Layers point one way: the import graph of the packages, every import counted (also those inside functions).

The layers of ``tarneeb``, lowest first (LAYERS below; a top-level module such as ``tarneeb.stats`` is a package
of its own). A package imports only packages of a lower layer, never one of its own layer or above, not even inside
a function (test_each_package_imports_only_packages_below_it):

1. ``tarneeb.errors``, ``tarneeb.purejson`` -- the exceptions; orjson's part the record check uses;
2. ``tarneeb.core`` -- the rules, once;
3. ``tarneeb`` -- the package's front door (the core's names, imported on first use);
4. ``tarneeb.i18n`` (texts in other languages), ``tarneeb.play`` (bots, self-play), ``tarneeb.records`` (game
   records and their verifier), ``tarneeb.openspiel_game``;
5. ``tarneeb.stats`` (over play), ``tarneeb.conformance`` (other engines; over play and records),
   ``tarneeb.ruling`` (the referee; over i18n and records), ``tarneeb.sheet`` (score sheets kept at a table; over
   i18n for their Arabic words, which the command and the page share);
6. ``tarneeb.docgen`` -- the rule pages and the site, which show examples, hands, statistics and rulings;
7. ``tarneeb.serve`` -- the web app;
8. ``tarneeb.offline`` -- the offline site, serve's pages;
9. ``tarneeb.cli`` -- the command line, over everything (the docs' CLI page is given its parser by the sphinx
   extension, above the package).

Neither ``tarneeb`` nor ``tarneeb_proofs`` has an import cycle (imports under ``if TYPE_CHECKING`` aside: names for
the type checker, never imported when the program runs), and inside ``tarneeb.core`` each module imports only the
modules of a lower row of CORE_LAYERS (test_the_core_modules_import_only_below_them).

Likewise the imports of ``tarneeb`` that cross its packages (``tarneeb.core``, ``tarneeb.records``, ...) from
inside a function (KNOWN_LAZY) and the private names imported from another package (KNOWN_PRIVATE)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# package -> the strongly connected groups of modules, each sorted (architecture debt, to remove)
KNOWN_CYCLES: dict[str, list[list[str]]] = {"tarneeb": [], "tarneeb_proofs": []}

# the modules of tarneeb.core, lowest first: each imports only modules of a lower row (even inside a function;
# names under TYPE_CHECKING aside). The data and its loading, then the rules, then the steps of a hand, the
# transition, the match that steps it and the clause each decision cites.
CORE_LAYERS: list[tuple[str, ...]] = [
    ("cards", "context", "paths", "prose"),  # cards as bits; the catalog of loaded files; where spec/ is; templates
    ("sources",),  # the documents cited
    ("model",),  # Option, Clause, Ruleset, Rules: the data
    ("rules",),  # every single rule decision, of Rules and plain data
    ("actions", "schema"),  # the actions' text forms; the parameters, the built-in rulesets, Rules validated
    ("ambiguity",),  # the register of readings, and selecting one
    ("house",),  # a club's ruleset file that extends another
    ("spec",),  # the one lookup of a ruleset name (a catalog of files loaded), load_rules
    ("hand", "state"),  # the steps of a hand; the states of a match and the events of a step
    ("transition",),  # the one transition of a match
    ("runs",),  # runs of bids and of tricks at once, for a verifier: what stepping the transition gives
    ("match",),  # a match: a state stepped by the transition, and the record of each deal
    ("clauses",),  # the clause a divergence or a ruling cites
]

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
    ("tarneeb.cli.serve", "tarneeb.serve.app"), ("tarneeb.cli.serve", "tarneeb.serve.slow"),
    ("tarneeb.cli.show", "tarneeb.core.ambiguity"),
    ("tarneeb.cli.show", "tarneeb.i18n.arabic"), ("tarneeb.cli.show", "tarneeb.docgen.rulebook"),
    ("tarneeb.cli.simulate", "tarneeb.play.simulate"), ("tarneeb.cli.site", "tarneeb.offline.build"),
    ("tarneeb.cli.stats", "tarneeb.play.batch"), ("tarneeb.cli.stats", "tarneeb.stats"),
    ("tarneeb.cli.vectors", "tarneeb.conformance.protocol"), ("tarneeb.cli.vectors", "tarneeb.conformance.vectors"),
    ("tarneeb.cli.vectors", "tarneeb.core.spec"), ("tarneeb.cli.score", "tarneeb.sheet"),
    ("tarneeb.cli.score", "tarneeb.core.sources"),
    ("tarneeb.cli", "tarneeb.compiled"),  # --version, and prove/diff made pure, import it only then
}
# the others, each a heavy optional dependency loaded only when needed: play.batch imports numpy (extra "stats"),
# serve.app starlette (extra "serve"); tarneeb.stats and the offline pages work without them until asked for that
KNOWN_LAZY = KNOWN_LAZY_CLI | {
    ("tarneeb.offline.pages", "tarneeb.serve.app"), ("tarneeb.stats", "tarneeb.play.batch"),
}
# (importing module, module.name) of the private names imported from another package
KNOWN_PRIVATE: set[tuple[str, str]] = set()


# the layers of tarneeb, lowest first (see the module docstring)
LAYERS: list[tuple[str, ...]] = [
    ("tarneeb.errors", "tarneeb.purejson"),
    ("tarneeb.core", "tarneeb.compiled"),  # the engine's core; which build of it runs (compiled or pure)
    ("tarneeb",),
    ("tarneeb.i18n", "tarneeb.play", "tarneeb.records", "tarneeb.openspiel_game"),
    ("tarneeb.stats", "tarneeb.conformance", "tarneeb.ruling", "tarneeb.sheet"),
    ("tarneeb.docgen",),
    ("tarneeb.serve",),
    ("tarneeb.offline",),
    ("tarneeb.cli",),
]


def layer_of(mod: str) -> str:
    """The package a module of ``tarneeb`` belongs to (``tarneeb.core.rules`` -> ``tarneeb.core``; ``tarneeb``)."""
    return ".".join(mod.split(".")[:2])


def import_graph(root: Path, package: str, type_checking: bool = True) -> dict[str, set[str]]:
    """module -> the modules of the package it imports anywhere in its source (``from X import name`` counts X,
    and X.name when that is a module); ``type_checking=False``: those under ``if TYPE_CHECKING`` aside (names
    for the type checker only, never imported when the program runs)."""
    files = {".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): p
             for p in (root / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for mod, path in files.items():
        here = mod.split(".") if path.name == "__init__.py" else mod.split(".")[:-1]
        deps: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if not type_checking:
            for node in ast.walk(tree):
                if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                    node.body = []
        for node in ast.walk(tree):
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
    assert "tarneeb_proofs.encode" in g["tarneeb_proofs.engine_family"]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_proofs_package_has_no_import_cycle_and_the_engine_no_new_one() -> None:
    for root, package in ((ROOT / "proofs", "tarneeb_proofs"), (ROOT / "model", "tarneeb")):
        assert cycles(import_graph(root, package, type_checking=False)) == KNOWN_CYCLES[package], package


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


def upward_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(importer, imported) of the imports of ``graph`` that name a package of the importer's layer or above."""
    rank = {pkg: i for i, names in enumerate(LAYERS) for pkg in names}
    return sorted((m, d) for m, deps in graph.items() for d in deps
                  if layer_of(d) != layer_of(m) and rank[layer_of(d)] >= rank[layer_of(m)])


def test_each_package_imports_only_packages_below_it() -> None:
    """Every import of a module of ``tarneeb`` (inside functions and under TYPE_CHECKING too) names a module of its
    own package or of a package in a lower layer of LAYERS; every package has its layer."""
    graph = import_graph(ROOT / "model", "tarneeb")
    assert {layer_of(m) for m in graph} == {pkg for names in LAYERS for pkg in names}, \
        "a package without a layer, or a layer without its package"
    assert upward_imports(graph) == [], "an import of a package of the same layer or above"


def test_the_layer_check_sees_an_upward_import() -> None:
    graph = {"tarneeb.ruling.facts": {"tarneeb.core.rules", "tarneeb.ruling.verdict", "tarneeb.docgen.rulebook"},
             "tarneeb.stats": {"tarneeb.play.batch", "tarneeb.ruling"}, "tarneeb.core.rules": {"tarneeb.errors"}}
    assert upward_imports(graph) == [("tarneeb.ruling.facts", "tarneeb.docgen.rulebook"),
                                     ("tarneeb.stats", "tarneeb.ruling")]


def test_the_core_modules_import_only_below_them() -> None:
    """Every module of ``tarneeb.core`` has its row in CORE_LAYERS and imports only modules of the core's lower rows
    (and, outside the core, only ``tarneeb.errors``): a maintainer changing one sees what it may use and what uses
    it."""
    graph = import_graph(ROOT / "model", "tarneeb", type_checking=False)
    row = {f"tarneeb.core.{m}": k for k, names in enumerate(CORE_LAYERS) for m in names}
    core = {m for m in graph if m.startswith("tarneeb.core.")}
    assert core == set(row), "a core module without its row, or a row without its module"
    up = sorted((m, d) for m in core for d in graph[m]
                if (d in row and row[d] >= row[m]) or (not d.startswith("tarneeb.core") and d != "tarneeb.errors"))
    assert up == [], "an import of a core module of the same row or above, or of a package above the core"

