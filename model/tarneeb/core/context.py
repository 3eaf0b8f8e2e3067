"""The rulesets and sources a program has loaded beyond the built-in ones, in an explicit object: a :class:`Catalog`.

The built-in rulesets and the document table (``spec/``) are read once and never change. A ruleset file (a house
ruleset, a club's sheet) is loaded into a catalog, with the sources it declares, and is known there by its id and
its path afterwards. :func:`tarneeb.core.spec.resolve_ruleset` takes a catalog (``catalog=``) or the current one:
each thread or task has its own (:func:`current`), and :func:`using` sets one for a block. So two configurations
live side by side in one process: a web request works in a fresh catalog that names no file of the host, and
nothing one request loads is seen by another; each test starts with an empty one.

Below every other module of the core: it imports none of them (the types are named for the type checker only).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tarneeb.core.model import Ruleset
    from tarneeb.core.sources import Source


@dataclass
class Catalog:
    """Ruleset files loaded, the sources they declare, the files being loaded, and whether files may be opened."""

    files_allowed: bool = True  # False: built-in ids only, no file is opened whatever a name says
    rulesets: dict[str, Ruleset] = field(default_factory=dict)  # by id, by the path as given, by the absolute path
    sources: dict[str, Source] = field(default_factory=dict)  # the documents the loaded files declare (their own)
    loading: list[str] = field(default_factory=list)  # the files being loaded now (an extends cycle is refused)


_CURRENT: ContextVar[Catalog | None] = ContextVar("tarneeb_catalog", default=None)


def current() -> Catalog:
    """The catalog of this thread or task: the one :func:`using` set, else its own, made on first use."""
    catalog = _CURRENT.get()
    if catalog is None:
        catalog = Catalog()
        _CURRENT.set(catalog)
    return catalog


def fresh() -> Catalog:
    """Make a new, empty catalog the current one for the rest of this thread or task (within a :func:`using`
    block, until the block ends), as a fresh process has it."""
    catalog = Catalog()
    _CURRENT.set(catalog)
    return catalog


@contextlib.contextmanager
def using(catalog: Catalog) -> Iterator[Catalog]:
    """Within the block (this thread or task, and the threads it hands work to), ``catalog`` is the current one."""
    token = _CURRENT.set(catalog)
    try:
        yield catalog
    finally:
        _CURRENT.reset(token)


__all__ = ["Catalog", "current", "fresh", "using"]
