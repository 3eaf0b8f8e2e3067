"""Every name proofs/README.md cites in backticks exists: modules, their attributes, and files of the repository.

A backticked span with no whitespace is checked when it is

* a dotted name starting ``tarneeb`` or ``tarneeb_proofs``: the longest prefix that imports is the module, the rest
  are attributes read with ``getattr`` one after another;
* a path (it contains ``/`` or ends in a file extension): relative to the repository root, a glob when it holds
  ``*``, which must match something.

Anything else in backticks (commands, options, clause ids, check ids, mutant names) is left alone, as are fenced
code blocks.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "proofs" / "README.md"
# files the README names that another branch adds (bench/prove.py writes bench/RESULTS.md); checked once they exist
PENDING = frozenset({"bench/RESULTS.md"})

_FENCE = re.compile(r"^```.*?^```[ \t]*$", re.M | re.S)
_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_DOTTED = re.compile(r"(?:tarneeb|tarneeb_proofs)(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_PATH = re.compile(r"[A-Za-z0-9_.][A-Za-z0-9_.*/-]*")
_EXTENSIONS = (".py", ".toml", ".json", ".md", ".txt")


def cited(text: str) -> tuple[list[str], list[str]]:
    """The dotted names and the paths cited in backticks in ``text`` (outside fenced blocks), in order."""
    names: list[str] = []
    paths: list[str] = []
    for span in _SPAN.findall(_FENCE.sub("", text)):
        if _DOTTED.fullmatch(span):
            names.append(span)
        elif _PATH.fullmatch(span) and ("/" in span or span.endswith(_EXTENSIONS)):
            paths.append(span)
    return names, paths


def resolve(name: str) -> str | None:
    """None when ``name`` is a module or an attribute of one, else what is missing."""
    parts = name.split(".")
    module: ModuleType | None = None
    i = len(parts)
    while i > 0:
        try:
            module = importlib.import_module(".".join(parts[:i]))
            break
        except ModuleNotFoundError:
            i -= 1
    if module is None:
        return f"{name}: no module {parts[0]}"
    obj: object = module
    for k in range(i, len(parts)):
        if not hasattr(obj, parts[k]):
            return f"{name}: {'.'.join(parts[:k])} has no attribute {parts[k]}"
        obj = getattr(obj, parts[k])
    return None


def missing_path(path: str) -> str | None:
    """None when ``path`` (relative to the repository root; a glob if it holds ``*``) exists, else a message."""
    if path in PENDING and not (ROOT / path).exists():
        return None
    rel = path.rstrip("/")
    found = any(ROOT.glob(rel)) if "*" in rel else (ROOT / rel).exists()
    return None if found else f"{path}: no such file or folder under {ROOT.name}/"


def test_the_parser_finds_names_and_paths_and_skips_the_rest() -> None:
    text = ("`tarneeb_proofs.chain.LINKS` `tarneeb.core.rules` `tests/x.py` `spec/*.toml` `proofs/README.md`\n"
            "`tarneeb prove --json` `--accept` `play.lead` `engine.play` `$HOME/x` `~/.cache/y` `Implies(g, c)`\n"
            "```sh\ntarneeb prove `tarneeb_proofs.nowhere`\n```\n")
    assert cited(text) == (["tarneeb_proofs.chain.LINKS", "tarneeb.core.rules"],
                           ["tests/x.py", "spec/*.toml", "proofs/README.md"])


def test_the_checks_see_a_bogus_name_and_path() -> None:
    assert resolve("tarneeb_proofs.chain.LINKS") is None
    assert resolve("tarneeb_proofs.chain.NO_SUCH_NAME") is not None
    assert resolve("tarneeb_proofs.no_such_module") is not None
    assert missing_path("proofs/tarneeb_proofs/mutants.toml") is None
    assert missing_path("tests/test_match_steered*.py") is None
    assert missing_path("proofs/no_such_file.toml") is not None
    assert missing_path("no_such_dir/*.toml") is not None


def test_every_cited_name_and_path_exists() -> None:
    pytest.importorskip("z3")
    names, paths = cited(README.read_text(encoding="utf-8"))
    assert names and paths, "the README cites no module or path in backticks: the parser is broken"
    problems = [p for p in (*map(resolve, names), *map(missing_path, paths)) if p is not None]
    assert not problems, "proofs/README.md cites what does not exist:\n" + "\n".join(problems)
