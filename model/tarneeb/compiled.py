"""Which build of the engine's core runs here: compiled by mypyc, or pure Python.

``pip install`` (or a wheel from ``python -m build``) compiles the modules of :data:`MODULES` with mypyc where a C
compiler is present (``setup.py``); the ``.py`` sources are installed beside the compiled extensions. Compiled or
pure, it is the same source: on well-typed calls speed is the only difference (tests/test_compiled.py compares the
two, state by state). A value of the wrong type is refused differently: compiled code checks each argument against its
annotation and raises TypeError (``Play("QD")``), where the pure source takes it and refuses it with the rule's
error (``illegal play:<card 'QD'>``); the package's own callers pass the types ``mypy --strict`` holds them to.

The pure source runs instead when ``TARNEEB_PURE=1`` is set at build time (nothing is compiled) or at run time
(:func:`use_pure`, called by ``tarneeb/__init__.py``), and always for ``tarneeb prove`` and ``tarneeb diff``: the proofs
execute the engine's functions on symbolic values and digest their code objects, which compiled functions have not.
:func:`require_pure` is their guard: it refuses to go on when a compiled module is already loaded.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from tarneeb.errors import TarneebError

# the modules of the package that setup.py compiles: the engine's core (the states and events of state.py as native
# classes, the runs of core/runs.py) and the verifier's drivers of a hand line (records/driver.py and its subclasses:
# the fast path for clean lines, and the replay, which a compiled driver's subclass must be compiled to be)
COMPILED = ("core.actions", "core.cards", "core.hand", "core.match", "core.rules", "core.runs", "core.state",
            "core.transition", "records.driver", "records.fastpath", "records.hand_end", "records.replay")
MODULES = tuple(f"tarneeb.{m}" for m in COMPILED)


def pure_requested() -> bool:
    """``TARNEEB_PURE`` is set to something other than empty or 0."""
    return os.environ.get("TARNEEB_PURE", "") not in ("", "0")


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the modules of :data:`MODULES` as their ``.py`` files, never as the compiled extensions beside them."""

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in MODULES:
            return None
        base = fullname.rpartition(".")[2]
        for entry in path or ():
            source = Path(entry) / f"{base}.py"
            if source.is_file():
                return importlib.util.spec_from_file_location(fullname, source)
        return None


_FINDER = _SourceFinder()


def use_pure() -> None:
    """From now on this process imports the core's modules from their ``.py`` sources. Modules already imported
    stay as they are (see :func:`require_pure`)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def _is_compiled(origin: str | None) -> bool:
    return origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))


def compiled_loaded() -> list[str]:
    """The core modules this process has imported compiled."""
    return [m for m in MODULES if m in sys.modules and _is_compiled(getattr(sys.modules[m], "__file__", None))]


def compiled_installed() -> bool:
    """Compiled extensions of the core stand beside its sources (whether this process uses them or not)."""
    for m in MODULES:
        package, _, name = m.rpartition(".")
        spec = importlib.util.find_spec(package)
        places = spec.submodule_search_locations if spec is not None else None
        if any((Path(p) / f"{name}{suffix}").is_file()
               for p in places or () for suffix in importlib.machinery.EXTENSION_SUFFIXES):
            return True
    return False


class CompiledEngine(TarneebError):
    """A proof asked for while the compiled core is loaded in the process."""


def require_pure(what: str) -> None:
    """Raise :class:`CompiledEngine` when a compiled core module is loaded: ``what`` (the proofs, a mutant) needs
    the pure source."""
    loaded = compiled_loaded()
    if loaded:
        raise CompiledEngine(
            f"{what}: the engine's pure Python source is needed, but this process has loaded the compiled build of "
            f"{', '.join(loaded)} (set TARNEEB_PURE=1 before it starts)")


def _origin(module: str) -> str | None:
    """The file ``module`` was imported from, or would be now."""
    if module in sys.modules:
        return getattr(sys.modules[module], "__file__", None)
    spec = importlib.util.find_spec(module)
    return spec.origin if spec is not None else None


def build() -> str:
    """One line: which build of the core this process runs (or will run, when its modules are not imported yet)."""
    compiled = sum(_is_compiled(_origin(m)) for m in MODULES)
    if compiled == len(MODULES):
        return f"engine core compiled by mypyc ({len(MODULES)} modules)"
    if compiled:
        return f"engine core partly compiled by mypyc ({compiled} of {len(MODULES)} modules)"
    if compiled_installed():
        return "engine core pure Python (a compiled build is installed beside it, not used here)"
    return "engine core pure Python (no compiled build installed)"
