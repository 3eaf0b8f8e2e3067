"""The one catalogue of engine mutants: realistic bugs, each one edit anchored to one function of the engine.

The catalogue is data, not code: ``mutants.toml`` beside this module, and the held-out set ``held_out.toml``, one
``[[mutant]]`` table an entry, loaded into :data:`MUTANTS`. A :class:`Mutant` names its ``module``, the
``function`` it edits (``name`` or ``Class.method``; for an edit of module data, the module constant's name) and
the edit ``old`` -> ``new``: ``old`` must occur exactly once in that function's source as it is today (its lines
as :mod:`ast` gives them, decorators included), and the edit is made there. A mutant whose function is gone, or
whose ``old`` occurs 0 or 2+ times in it, is refused with a :class:`MutantError` naming the mutant, the function
and the count: the catalogue is stale, and ``tarneeb prove`` and ``tools/prove_mutants.py`` report it so. Two ways
to run one:

* :func:`applied` patches it into the running process: the module's edited source is compiled and executed as a
  fresh module, and the edited function (a method: on its live class; a module constant: its value) replaces the
  live one, on the module itself and wherever another loaded module of ``tarneeb`` holds the same function under
  a name; restored on exit. ``tarneeb prove``'s mutant checks and the tests use this.
* :func:`patched_tree` writes a copy of a source tree with the edit made in the file itself, so that the real
  ``tarneeb prove`` can be run on it in a fresh process (``tools/prove_mutants.py``, the published figures).

``stage`` names what must catch the mutant: a prove family and stage, e.g. ``engine.play``; or bounded tests,
``test.match`` (the steered matches of the match machine, ``tests/test_match_steered_mutants.py``) and
``test.tools`` (the tools on recorded matches, ``tests/test_tools_mutants.py``), which ``tarneeb prove`` does not
run; ``ruleset`` and ``options`` where the bug shows; ``in_manifest``: also a mutant check of ``tarneeb prove`` in
"all" rulesets, every ruleset of its "kind" (individual or auction family), its "own" ruleset only, or "" (run by
the tests and ``tools/prove_mutants.py`` only); it means nothing for a ``test.*`` stage, which prove does not run.
The held-out set's stage is ``held-out``: no family is named in advance, ``tools/prove_mutants.py`` runs the whole
``tarneeb prove`` on each, and the tests do not run them in the process (only that each still applies).
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import itertools
import shutil
import sys
import tomllib
import types
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tarneeb.compiled import require_pure
from tarneeb.core.spec import OptionValue, rulesets

CATALOGUE = Path(__file__).with_name("mutants.toml")
HELD_OUT = Path(__file__).with_name("held_out.toml")
KINDS = frozenset({"special-case", "boundary", "transition", "tool"})
IN_MANIFEST = frozenset({"all", "kind", "own", ""})


@dataclass(frozen=True)
class Mutant:
    """One entry of the catalogue: the edit ``old`` -> ``new`` of ``function`` in ``module``, and what it is."""

    id: str
    module: str  # e.g. "tarneeb.core.rules"
    old: str  # exact text, occurring once in the source of ``function``
    new: str
    text: str  # the bug in words
    stage: str  # the prove family[.stage] that must catch it
    kind: str  # special-case | boundary | transition | tool
    ruleset: str  # a ruleset where the bug shows
    options: dict[str, OptionValue] = field(default_factory=dict)
    in_manifest: str = ""  # "all" | "kind" | "own" | ""
    readings: dict[str, str] = field(default_factory=dict)  # readings of the register under which the bug shows
    held_out: bool = False  # of the held-out set (held_out.toml): run only through the whole real prove
    function: str = ""  # the def the edit is anchored to: "name", "Class.method", or a module constant's name

    @property
    def fn(self) -> str:
        """The function (or ``Class.method``) the edit is in; for an edit of a module constant, the one function
        of the module that reads it (where the bug shows)."""
        return reader_of(self.module, self.function)


class MutantError(ValueError):
    """A mutant that does not apply to today's source (its function gone, its ``old`` text not exactly once in that
    function: the catalogue is stale), or a malformed entry of a data file."""


def source_of(module: str) -> str:
    """The source of ``module`` (a dotted name of the engine) as the running process loaded it."""
    return inspect.getsource(importlib.import_module(module))


def _anchors(text: str) -> Iterator[tuple[str, ast.stmt]]:
    """What a module's source offers an edit to be anchored to, by name: its functions, the methods of its classes
    (``Class.method``, nested classes too) and its module constants (a top-level assignment to one name)."""

    def walk(body: list[ast.stmt], prefix: str) -> Iterator[tuple[str, ast.stmt]]:
        for st in body:
            if isinstance(st, ast.ClassDef):
                yield from walk(st.body, f"{prefix}{st.name}.")
            elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield prefix + st.name, st
            elif not prefix and isinstance(st, (ast.Assign, ast.AnnAssign)):
                targets = st.targets if isinstance(st, ast.Assign) else [st.target]
                if len(targets) == 1 and isinstance(targets[0], ast.Name):
                    yield targets[0].id, st

    return walk(ast.parse(text).body, "")


def spans(text: str) -> dict[str, list[tuple[int, int]]]:
    """Where each function, method and module constant of a module's source lies in it, by name: the offsets of
    its first line (its first decorator's) and just past its last line's newline (a name defined twice: two)."""
    return {name: list(found) for name, found in _spans(text)}


@functools.lru_cache(maxsize=16)
def _spans(text: str) -> tuple[tuple[str, tuple[tuple[int, int], ...]], ...]:
    """:func:`spans` as a value, kept for the last sources asked (a function of the text alone: parsing a module
    is most of what applying a mutant costs, and the same few modules are asked again and again)."""
    ends = list(itertools.accumulate(len(line) + 1 for line in text.split("\n")))  # just past each line's newline
    out: dict[str, list[tuple[int, int]]] = {}
    for name, st in _anchors(text):
        first = min([st.lineno] + [d.lineno for d in getattr(st, "decorator_list", [])])
        last = st.end_lineno or st.lineno
        out.setdefault(name, []).append(((ends[first - 2] if first > 1 else 0), min(ends[last - 1], len(text))))
    return tuple((name, tuple(found)) for name, found in out.items())


def function_span(m: Mutant, text: str) -> tuple[int, int]:
    """Where ``m.function``'s source lies in ``text`` (the source of ``m.module``): see :func:`spans`. Refused unless
    exactly one def (or constant) has the name."""
    found = spans(text).get(m.function, [])
    if len(found) != 1:
        raise MutantError(f"mutant {m.id}: the function {m.module}.{m.function} is defined {len(found)} times, "
                          "not once")
    return found[0]


def function_source(m: Mutant, text: str | None = None) -> str:
    """The source of the function ``m`` edits, in ``text`` (by default: its module's source today)."""
    text = source_of(m.module) if text is None else text
    a, b = function_span(m, text)
    return text[a:b]


def occurrences(text: str, old: str) -> list[int]:
    """Where ``old`` starts in ``text``, overlapping occurrences counted too."""
    out: list[int] = []
    at = text.find(old)
    while at >= 0 and old:
        out.append(at)
        at = text.find(old, at + 1)
    return out


def edit(m: Mutant, text: str) -> str:
    """``text`` (the source of ``m.module``) with ``m``'s edit made in its function. Refused (:class:`MutantError`)
    when the function is not defined exactly once or ``old`` does not occur exactly once in it."""
    a, b = function_span(m, text)
    at = occurrences(text[a:b], m.old)
    if len(at) != 1:
        raise MutantError(f"mutant {m.id}: the text to replace occurs {len(at)} times in {m.module}.{m.function}, "
                          "not once")
    k = a + at[0]
    return text[:k] + m.new + text[k + len(m.old):]


def mutated_source(m: Mutant) -> str:
    """The source of ``m.module`` as the running process loaded it, with ``m``'s edit made."""
    return edit(m, source_of(m.module))


def reader_of(module: str, name: str) -> str:
    """``name`` when it is a function of ``module``; for a module constant, the one function (or method) of the
    module that reads it, where an edit of it shows (``name`` itself when no function or several do)."""
    anchors = list(_anchors(source_of(module)))
    if not any(n == name and isinstance(st, ast.Assign | ast.AnnAssign) for n, st in anchors):
        return name
    readers = [n for n, st in anchors if not isinstance(st, ast.Assign | ast.AnnAssign)
               and any(isinstance(x, ast.Name) and x.id == name for x in ast.walk(st))]
    return readers[0] if len(readers) == 1 else name


@contextmanager
def applied(mutant: str | Mutant | None) -> Iterator[None]:
    """The engine with ``mutant`` (an id of :data:`MUTANTS` or a :class:`Mutant`) patched in; nothing when None."""
    if mutant is None:
        yield
        return
    m = MUTANTS[mutant] if isinstance(mutant, str) else mutant
    require_pure(f"the mutant {m.id}")  # patched into the pure source: a compiled caller would never call it
    live = importlib.import_module(m.module)
    fresh = types.ModuleType(m.module)
    fresh.__dict__.update({"__file__": live.__file__, "__package__": live.__package__, "__name__": m.module})
    code = compile(mutated_source(m), f"<mutant {m.id} of {live.__file__}>", "exec")
    exec(code, fresh.__dict__)  # noqa: S102 - the engine's own source, one edit made
    undo: list[tuple[Any, str, Any]] = []
    try:
        _swap(m, live, fresh, undo)
        yield
    finally:
        for obj, name, old_value in reversed(undo):
            setattr(obj, name, old_value)


def _swap(m: Mutant, live: types.ModuleType, fresh: types.ModuleType, undo: list[tuple[Any, str, Any]]) -> None:
    """Put ``fresh``'s edited ``m.function`` in place of the live one, noting in ``undo`` what it replaced: a
    function on the module and wherever another loaded module of ``tarneeb`` took it by name (``from
    tarneeb.core.rules import bid_key``); a method on the live class; a module constant's value on the module."""
    *path, name = m.function.split(".")
    owner, edited = live, fresh
    for part in path:
        owner, edited = getattr(owner, part), getattr(edited, part)
    if name not in vars(owner) or name not in vars(edited):
        raise MutantError(f"mutant {m.id}: {m.module}.{m.function} is not in the running module")
    old, new = vars(owner)[name], vars(edited)[name]
    if isinstance(old, types.FunctionType) or (path and isinstance(old, (property, classmethod, staticmethod))):
        new = _in_module(new, live)
    elif path or callable(old) or callable(new) or isinstance(old, types.ModuleType):
        raise MutantError(f"mutant {m.id}: {m.module}.{m.function} ({type(old).__name__}) cannot be patched into "
                          "the running process")
    undo.append((owner, name, old))
    setattr(owner, name, new)
    if isinstance(old, types.FunctionType) and not path:  # its other names (the module's own aliases too)
        for modname, mod in list(sys.modules.items()):
            if mod is None or not (modname == "tarneeb" or modname.startswith("tarneeb.")):
                continue
            for alias, value in list(vars(mod).items()):
                if value is old:
                    undo.append((mod, alias, value))
                    setattr(mod, alias, new)


def _in_module(obj: Any, live: types.ModuleType) -> Any:
    """An edited function (or a method's function, wrapped as it was) that looks its names up in the live module,
    as the function it replaces does: a name the proofs stand in there (a summary) or another mutant's edit is seen
    by the edited code too."""
    if isinstance(obj, types.FunctionType):
        f = types.FunctionType(obj.__code__, live.__dict__, obj.__name__, obj.__defaults__, obj.__closure__)
        f.__kwdefaults__, f.__qualname__, f.__doc__ = obj.__kwdefaults__, obj.__qualname__, obj.__doc__
        f.__module__ = obj.__module__
        f.__dict__.update(obj.__dict__)
        return f
    if isinstance(obj, (classmethod, staticmethod)):
        return type(obj)(_in_module(obj.__func__, live))
    if isinstance(obj, property):
        fget, fset, fdel = (None if x is None else _in_module(x, live) for x in (obj.fget, obj.fset, obj.fdel))
        return property(fget, fset, fdel, obj.__doc__)
    return obj


def patched_tree(m: Mutant, src_root: Path, dest: Path) -> Path:
    """A copy of the source tree ``src_root`` (model/, proofs/, spec/) at ``dest`` with ``m``'s edit made in its file."""
    for part in ("model", "proofs", "spec"):
        shutil.copytree(src_root / part, dest / part, ignore=shutil.ignore_patterns("__pycache__"))
    path = dest / Path("model", *m.module.split(".")).with_suffix(".py")
    path.write_text(edit(m, path.read_text(encoding="utf-8")), encoding="utf-8")
    return dest


# ------------------------------------------------------------------ the data files
_REQUIRED = frozenset({"id", "module", "function", "old", "new", "text", "kind", "ruleset"})
_OPTIONAL = frozenset({"stage", "options", "readings", "in_manifest"})  # held_out.toml: options and shows


def _checked(e: dict[str, Any], where: str, held_out: bool) -> dict[str, Any]:
    """One ``[[mutant]]`` table, refused when a field is missing, unknown or of the wrong type."""
    required = _REQUIRED if held_out else _REQUIRED | {"stage"}
    allowed = _REQUIRED | ({"options", "shows"} if held_out else _OPTIONAL)
    if required - e.keys() or e.keys() - allowed:
        raise MutantError(f"{where}: fields missing {sorted(required - e.keys())}, unknown {sorted(e.keys() - allowed)}")
    bad = [k for k in e if k not in ("options", "readings") and not isinstance(e[k], str)]
    bad += [k for k in ("options", "readings") if not isinstance(e.get(k, {}), dict)]
    bad += [f"options.{k}" for k, v in e.get("options", {}).items() if not isinstance(v, (bool, int, str))]
    bad += [f"readings.{k}" for k, v in e.get("readings", {}).items() if not isinstance(v, str)]
    if bad:
        raise MutantError(f"{where}: fields of the wrong type: {bad}")
    if e["kind"] not in KINDS or e.get("in_manifest", "") not in IN_MANIFEST or not (e["text"] and e["ruleset"]):
        raise MutantError(f"{where}: kind {e['kind']!r} or in_manifest {e.get('in_manifest')!r} unknown, or no text "
                          "or ruleset")
    return e


def load(path: Path, held_out: bool = False) -> list[Mutant]:
    """The entries of one data file, in order: ``mutants.toml``; or ``held_out.toml`` with ``held_out`` (their
    stage ``held-out``, never in the manifest)."""
    entries = tomllib.loads(path.read_text(encoding="utf-8")).get("mutant", [])
    out = []
    for k, raw in enumerate(entries, 1):
        e = _checked(raw, f"{path.name}, entry {k} ({raw.get('id', 'no id')})", held_out)
        out.append(Mutant(e["id"], e["module"], e["old"], e["new"], e["text"], "held-out" if held_out else e["stage"],
                          e["kind"], e["ruleset"], dict(e.get("options", {})), e.get("in_manifest", ""),
                          dict(e.get("readings", {})), held_out=held_out, function=e["function"]))
    return out


def catalogue(path: Path = CATALOGUE, held_out: Path = HELD_OUT) -> dict[str, Mutant]:
    """The catalogue and then the held-out set, by id; an id given twice (in one file, or in both) is refused."""
    out: dict[str, Mutant] = {}
    for m in load(path) + load(held_out, held_out=True):
        if m.id in out:
            raise MutantError(f"mutant {m.id}: given twice ({path.name}, {held_out.name})")
        out[m.id] = m
    return out


MUTANTS: dict[str, Mutant] = catalogue()


def manifest_mutants(stage: str, rid: str, individual: bool, names: tuple[str, ...],
                     base: tuple[tuple[str, OptionValue], ...]) -> list[tuple[tuple[tuple[str, OptionValue], ...], str]]:
    """The catalogue's mutants of ``stage`` (``family.stage``) that ``prove`` runs on ruleset ``rid`` (``in_manifest``:
    every ruleset, those of the mutant's family kind, or its own), each with the option variant it runs under: ``base``
    with the mutant's options among ``names``."""
    out = []
    for mname, m in MUTANTS.items():
        if m.stage != stage or not m.in_manifest:
            continue
        same_kind = (rulesets()[m.ruleset].params.get("family") == "individual") == individual
        if not {"all": True, "kind": same_kind, "own": m.ruleset == rid}[m.in_manifest]:
            continue
        opts = dict(base)
        opts.update({k: x for k, x in m.options.items() if k in names})
        out.append((tuple(sorted(opts.items())), mname))
    return out
