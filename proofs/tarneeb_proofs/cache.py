"""A cache of the engine family's proofs across runs, keyed by the code proved and the code that proves it.

A builder of :mod:`tarneeb_proofs.bridge` proved under the true rules is remembered with

* the digest of every piece of engine code its explorations ran (:meth:`ProofCache.code_digest`: the bytecode,
  names and constants of each function, method, nested function or comprehension, and the module-level data it
  reads), so an edit elsewhere in the engine leaves the proof standing and an edit there runs it again;
* the digest of the prover's code (:func:`prover_digest`: the source files of ``tarneeb_proofs`` a proof depends
  on: encodings, bridge, symbolic executor, obligations; and the versions of Python and Z3);
* the rule fields the proof read, with their values (a configuration with the same values gets the same proof:
  the code that ran read nothing else of the rules).

Any change to either code, or a mutant patched in where the proof runs, gives another digest: the proof runs
again (a mutant check takes from the cache only the builders whose code the mutant did not touch). A cache entry
holds only proofs: counterexamples and refusals are never cached. ``tarneeb prove --no-cache``
(``TARNEEB_PROVE_CACHE=off``) runs everything from scratch (the cold figure); ``TARNEEB_PROVE_CACHE`` sets the
folder otherwise (default
``$XDG_CACHE_HOME/tarneeb/prove`` or ``~/.cache/tarneeb/prove``). A cache that cannot be read or written is
ignored (the proofs run), never an error.

A run reads and writes the folder through its session's :class:`ProofCache`, which keeps the digests it computed
for the rest of the run.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib
import json
import os
import sys
import tempfile
import types
from pathlib import Path
from typing import Any

import z3


def enabled() -> bool:
    """Off with ``tarneeb prove --no-cache`` (which sets ``TARNEEB_PROVE_CACHE=off`` for its worker processes)."""
    return os.environ.get("TARNEEB_PROVE_CACHE", "") != "off"


def folder() -> Path:
    """The cache folder: ``TARNEEB_PROVE_CACHE``, else ``$XDG_CACHE_HOME/tarneeb/prove`` or ``~/.cache/tarneeb/prove``."""
    env = os.environ.get("TARNEEB_PROVE_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tarneeb" / "prove"


def prover_digest() -> str:
    """The prover's source, Python's version and Z3's (computed afresh: a run keeps it, :class:`ProofCache`)."""
    h = hashlib.sha256(f"{sys.version}|{z3.get_version_string()}".encode())
    here = Path(__file__).resolve().parent
    for name in PROVER_MODULES:
        h.update(name.encode() + (here / f"{name}.py").read_bytes())
    return h.hexdigest()


# the modules a proof of the engine family depends on (the catalogue of mutants, the registry, the other families
# and the command are not among them: editing them leaves the cached proofs standing)
PROVER_MODULES = ("symbolic", "symbolic_values", "symbolic_guards", "bridge", "bridge_play", "bridge_bids",
                  "bridge_scores", "encode", "encode_base", "encode_auction", "evaluate", "obligations", "session",
                  "engine_family", "cache", "witness", "refine", "refine_deal", "refine_bids", "refine_play",
                  "transition_family")

Code = tuple[types.CodeType, dict[str, Any]]  # a code object and the globals it runs with


# the fields of a ruleset that say where its file was read from and the name it was loaded by: never a rule, so
# never part of a cache key (a proof made in one clone is found in another)
WHERE_READ = ("path", "ref")


def value_text(v: Any) -> str:
    """A stable text of a rule field's value (a set sorted; a Ruleset by its digest)."""
    if isinstance(v, (frozenset, set)):
        return repr(sorted(v, key=repr))
    if isinstance(v, (int, str, bool, float, tuple)) or v is None:
        return repr(v)
    if dataclasses.is_dataclass(v) and not isinstance(v, type):  # a Ruleset: its content, not where it was read
        v = [(f.name, getattr(v, f.name)) for f in dataclasses.fields(v) if f.name not in WHERE_READ]
    return hashlib.sha256(repr(v).encode()).hexdigest()


class ProofCache:
    """The cache folder as one run sees it (a :class:`~tarneeb_proofs.session.Session` has one): the proofs it
    holds, by the code proved and the prover's code, and the digests of both, computed once for the run (the
    engine's code objects by id, with the module tables they read; each module's code objects as the module is
    now, so a function patched in by a mutant is found as patched)."""

    def __init__(self) -> None:
        self._prover: str | None = None
        self._digests: dict[tuple[int, int], tuple[types.CodeType, dict[str, Any], str]] = {}
        self._codes: dict[tuple[Any, ...], dict[str, list[Code]]] = {}

    # ------------------------------------------------------------------ digests
    def prover_digest(self) -> str:
        """:func:`prover_digest`, once for the run."""
        if self._prover is None:
            self._prover = prover_digest()
        return self._prover

    def code_digest(self, code: types.CodeType, g: dict[str, Any]) -> str:
        """What the code does, whatever line it sits on: its bytecode, names, constants (nested code by their
        digest) and the module-level data it reads by name (a table, a mask)."""
        hit = self._digests.get((id(code), id(g)))
        if hit is not None and hit[0] is code and hit[1] is g:
            return hit[2]
        h = hashlib.sha256(code.co_code)
        h.update(repr((code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars)).encode())
        for c in code.co_consts:
            h.update(self.code_digest(c, g).encode() if isinstance(c, types.CodeType) else repr(c).encode())
        for n in code.co_names:
            v = g.get(n)
            if isinstance(v, (int, str, bytes, bool, float, tuple, frozenset, list)) and not isinstance(v, type):
                h.update(f"{n}={v!r}".encode())
        out = h.hexdigest()
        self._digests[(id(code), id(g))] = (code, g, out)
        return out

    def code_digests(self, executed: dict[int, Code]) -> list[list[str]]:
        """[module, qualified name, digest] of each code object that ran, with the globals it ran with (a mutant
        patched in runs with its own module's, so an edited table shows)."""
        out = []
        for code, g in executed.values():
            out.append([str(g.get("__name__")), code.co_qualname, self.code_digest(code, g)])
        return sorted(out)

    def _codes_of(self, module: str) -> dict[str, list[Code]]:
        """Every code object of a module by qualified name (functions, methods, nested functions and
        comprehensions, a dataclass field's default factory), as the module is now (a patched function is found
        as patched). Several code objects may share a name (two lambdas of one class): each is listed."""
        mod = importlib.import_module(module)
        g = vars(mod)
        now = (module, *[id(v) for v in g.values()],
               *[id(x) for v in g.values() if isinstance(v, type) and v.__module__ == module for x in vars(v).values()])
        hit = self._codes.get(now)
        if hit is not None:
            return hit
        out = _code_objects(module, g)
        if len(self._codes) > 64:
            self._codes.clear()
        self._codes[now] = out
        return out

    def _current(self, module: str, qualname: str) -> set[str]:
        """The digests of the module's code objects of that name as it is now (empty when none is left)."""
        return {self.code_digest(code, g) for code, g in self._codes_of(module).get(qualname, [])}

    # ------------------------------------------------------------------ the engine family's proofs
    def _index(self, key: tuple[Any, ...]) -> Path:
        text = json.dumps([str(x) for x in key]) + self.prover_digest()
        return folder() / (hashlib.sha256(text.encode()).hexdigest()[:32] + ".json")

    def get(self, key: tuple[Any, ...], r: Any) -> list[dict[str, Any]] | None:
        """The facts of a proof of ``key`` (stage, functions) under rule values equal to ``r``'s, by engine code
        equal to what runs now (every code object the proof ran, compared by :meth:`code_digest`)."""
        if not enabled():
            return None
        try:
            entries = json.loads(self._index(key).read_text(encoding="utf-8"))
            for e in entries:
                if all(value_text(getattr(r, k)) == v for k, v in e["reads"].items()) and \
                        all(d in self._current(m, q) for m, q, d in e["code"]):
                    return list(e["facts"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            return None
        return None

    def put(self, key: tuple[Any, ...], reads: dict[str, Any], executed: dict[int, Code],
            facts: list[dict[str, Any]]) -> None:
        """Remember a proof of ``key`` that read the rule fields ``reads`` (with their values), ran the engine code
        ``executed`` and found ``facts`` (nothing when the cache is off or cannot be written)."""
        if not enabled():
            return
        try:
            path = self._index(key)
            path.parent.mkdir(parents=True, exist_ok=True)
            try:
                entries = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                entries = []
            entries.append({"reads": {k: value_text(v) for k, v in reads.items()},
                            "code": self.code_digests(executed), "facts": facts})
            fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(entries, f)
            os.replace(tmp, path)
        except OSError:
            pass

    # ------------------------------------------------------------------ proved formulas (the encodings' families)
    def _formula_path(self, key: str) -> Path:
        k = hashlib.sha256((self.prover_digest() + key).encode()).hexdigest()
        return folder() / "formulas" / k[:2] / k

    def formula_proved(self, key: str) -> bool:
        """Whether an obligation with this key (the sha256 of its exact SMT-LIB text and its vacuity mode) was
        proved by this prover's code under this Z3 (:func:`prover_digest`) in an earlier run."""
        return enabled() and self._formula_path(key).is_file()

    def formula_put(self, key: str) -> None:
        """Remember a proof (hypotheses satisfiable, every guard satisfiable with them, the claim's negation
        unsat)."""
        if not enabled():
            return
        try:
            path = self._formula_path(key)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.touch()
        except OSError:
            pass


def _code_objects(module: str, g: dict[str, Any]) -> dict[str, list[Code]]:
    """Every code object of the module whose globals are ``g``, by qualified name (see
    :meth:`ProofCache._codes_of`)."""
    out: dict[str, list[Code]] = {}
    seen: set[int] = set()

    def add(code: types.CodeType, fg: dict[str, Any]) -> None:
        if id(code) in seen:
            return
        seen.add(id(code))
        out.setdefault(code.co_qualname, []).append((code, fg))
        for c in code.co_consts:
            if isinstance(c, types.CodeType):
                add(c, fg)

    def visit(v: Any) -> None:
        if isinstance(v, types.FunctionType):
            add(v.__code__, v.__globals__)
        elif isinstance(v, (classmethod, staticmethod)):
            visit(v.__func__)
        elif isinstance(v, property):
            for f in (v.fget, v.fset):
                if f is not None:
                    visit(f)

    for v in list(g.values()):
        if isinstance(v, type) and v.__module__ == module:
            for x in vars(v).values():
                visit(x)
            for fld in getattr(v, "__dataclass_fields__", {}).values():  # field(default_factory=lambda: ...)
                visit(getattr(fld, "default_factory", None))
        elif getattr(v, "__module__", None) == module:
            visit(v)
    return out


__all__ = ["PROVER_MODULES", "ProofCache", "enabled", "folder", "prover_digest", "value_text"]
