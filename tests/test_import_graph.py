"""Layers point one way: the import graph of the packages, every import counted (also those inside functions).

``tarneeb_proofs`` has no cycle (issue 22, item 5). ``tarneeb`` still has the cycles listed in KNOWN_CYCLES (the
architecture clean-up's work); a new one fails, and so does a listed one that is gone (shrink the list)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# package -> the strongly connected groups of modules, each sorted (architecture debt, to remove)
KNOWN_CYCLES = {
    "tarneeb": [
        ["tarneeb.cli", "tarneeb.cli.registry"],
        # the spec <-> house cycle (resolve_ruleset loads a house file); the register joined it when a house
        # file's [readings] came to select readings of spec/ambiguities.toml
        ["tarneeb.core.ambiguity", "tarneeb.core.house", "tarneeb.core.prose", "tarneeb.core.rules",
         "tarneeb.core.sources", "tarneeb.core.spec"],
        ["tarneeb.docgen.site", "tarneeb.docgen.site_ar"],
        ["tarneeb.records.replay", "tarneeb.records.verify"],  # replay's annotations name the Verifier
        ["tarneeb.ruling", "tarneeb.ruling.arabic", "tarneeb.ruling.decision", "tarneeb.ruling.readings",
         "tarneeb.ruling.turns"],
    ],
    "tarneeb_proofs": [],
}


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
