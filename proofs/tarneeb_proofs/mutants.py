"""The one catalogue of engine mutants: realistic bugs written as edits of the engine's source.

A :class:`Mutant` is one edit of one module of the engine (``old`` -> ``new``, ``old`` occurring exactly once in
the module's source): a special case at one value, card, seat or trick, a boundary slip, a wrong transition, a
slip in a tool that checks other engines. Two ways to run one:

* :func:`applied` patches it into the running process: the module's edited source is compiled and executed as a
  fresh module, and its functions (and the methods of its classes) replace the live ones, on the module itself
  and wherever another loaded module of ``tarneeb`` holds the same function under a name; restored on exit.
  ``tarneeb prove``'s mutant checks and the tests use this.
* :func:`patched_tree` writes a copy of a source tree with the edit made in the file itself, so that the real
  ``tarneeb prove`` can be run on it in a fresh process (``tools/prove_mutants.py``, the published figures).

``stage`` names the prove family (and stage) that must catch the mutant, e.g. ``engine.play``, ``match``,
``tools``; ``ruleset`` and ``options`` where the bug shows; ``in_manifest``: also a mutant check of
``tarneeb prove`` in "all" rulesets, every ruleset of its "kind" (individual or auction family), its "own"
ruleset only, or "" (run by the tests and ``tools/prove_mutants.py`` only).
"""

from __future__ import annotations

import importlib
import inspect
import shutil
import sys
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tarneeb.core.spec import OptionValue


@dataclass(frozen=True)
class Mutant:
    id: str
    module: str  # e.g. "tarneeb.core.rules"
    old: str  # exact text, occurring once in the module's source
    new: str
    text: str  # the bug in words
    stage: str  # the prove family[.stage] that must catch it
    kind: str  # special-case | boundary | transition | tool
    ruleset: str  # a ruleset where the bug shows
    options: dict[str, OptionValue] = field(default_factory=dict)
    in_manifest: str = ""  # "all" | "kind" | "own" | ""

    @property
    def fn(self) -> str:
        """The function (or Class.method) the edit is in."""
        return function_at(self)


class MutantError(ValueError):
    """A mutant whose ``old`` text does not occur exactly once in its module (the catalogue is stale)."""


def source_of(module: str) -> str:
    mod = importlib.import_module(module)
    return inspect.getsource(mod)


def mutated_source(m: Mutant) -> str:
    src = source_of(m.module)
    n = src.count(m.old)
    if n != 1:
        raise MutantError(f"mutant {m.id}: the text to replace occurs {n} times in {m.module}, not once")
    return src.replace(m.old, m.new)


def function_at(m: Mutant) -> str:
    """The innermost def (``Class.method`` or ``function``) around the edit, read from the module's source."""
    import ast

    src = source_of(m.module)
    line = src[:src.index(m.old)].count("\n") + 1
    best = ""

    def walk(node: ast.AST, prefix: str) -> None:
        nonlocal best
        for ch in ast.iter_child_nodes(node):
            if isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                end = ch.end_lineno or ch.lineno
                if ch.lineno <= line <= end:
                    name = prefix + ch.name
                    if not isinstance(ch, ast.ClassDef):
                        best = name
                    walk(ch, name + ".")

    walk(ast.parse(src), "")
    return best or "<module>"


@contextmanager
def applied(mutant: str | Mutant | None) -> Iterator[None]:
    """The engine with ``mutant`` (an id of :data:`MUTANTS` or a :class:`Mutant`) patched in; nothing when None."""
    if mutant is None:
        yield
        return
    m = MUTANTS[mutant] if isinstance(mutant, str) else mutant
    live = importlib.import_module(m.module)
    fresh = types.ModuleType(m.module)
    fresh.__dict__.update({"__file__": live.__file__, "__package__": live.__package__, "__name__": m.module})
    code = compile(mutated_source(m), f"<mutant {m.id} of {live.__file__}>", "exec")
    exec(code, fresh.__dict__)  # noqa: S102 - the engine's own source, one edit made
    undo: list[tuple[Any, str, Any]] = []
    swaps: dict[int, Any] = {}  # id(old function) -> new function
    for name, new in list(fresh.__dict__.items()):
        old = live.__dict__.get(name)
        if isinstance(new, types.FunctionType) and new.__module__ == m.module and isinstance(old, types.FunctionType):
            undo.append((live, name, old))
            swaps[id(old)] = new
        elif isinstance(new, type) and isinstance(old, type) and new.__module__ == m.module:
            for attr, value in vars(new).items():
                if isinstance(value, (types.FunctionType, property, classmethod, staticmethod)):
                    undo.append((old, attr, vars(old).get(attr)))
    try:
        for obj, name, _ in undo:
            value = fresh.__dict__[name] if obj is live else vars(getattr(fresh, obj.__name__))[name]
            setattr(obj, name, value)
        # a module that took the function by name at import (``from tarneeb.core.rules import bid_key``) gets it too
        for modname, mod in list(sys.modules.items()):
            if mod is None or mod is live or not (modname == "tarneeb" or modname.startswith("tarneeb.")):
                continue
            for name, value in list(vars(mod).items()):
                if isinstance(value, types.FunctionType) and id(value) in swaps:
                    undo.append((mod, name, value))
                    setattr(mod, name, swaps[id(value)])
        yield
    finally:
        for obj, name, old_value in reversed(undo):
            if old_value is None:
                delattr(obj, name)
            else:
                setattr(obj, name, old_value)


def patched_tree(m: Mutant, src_root: Path, dest: Path) -> Path:
    """A copy of the source tree ``src_root`` (model/, proofs/, spec/) at ``dest`` with ``m``'s edit made in its file."""
    for part in ("model", "proofs", "spec"):
        shutil.copytree(src_root / part, dest / part, ignore=shutil.ignore_patterns("__pycache__"))
    rel = Path("model", *m.module.split(".")).with_suffix(".py")
    path = dest / rel
    text = path.read_text(encoding="utf-8")
    if text.count(m.old) != 1:
        raise MutantError(f"mutant {m.id}: the text to replace occurs {text.count(m.old)} times in {rel}, not once")
    path.write_text(text.replace(m.old, m.new), encoding="utf-8")
    return dest


def _m(id: str, module: str, old: str, new: str, text: str, stage: str, kind: str, ruleset: str,
       options: dict[str, OptionValue] | None = None, in_manifest: str = "") -> Mutant:
    return Mutant(id, module, old, new, text, stage, kind, ruleset, dict(options or {}), in_manifest)


RULES = "tarneeb.core.rules"
HAND = "tarneeb.core.hand"
MATCH = "tarneeb.core.match"

# ------------------------------------------------------------------ the catalogue
_ALL: list[Mutant] = [
    _m("rules-lone-led-card-need-not-follow", RULES,
       "    follow = hand & SUIT_MASKS[led]\n    if follow:\n",
       "    follow = hand & SUIT_MASKS[led]\n    if follow and follow & (follow - 1):\n",
       "a player holding a single card of the led suit need not follow with it", "engine.play", "special-case",
       "classic"),
]

MUTANTS: dict[str, Mutant] = {m.id: m for m in _ALL}
