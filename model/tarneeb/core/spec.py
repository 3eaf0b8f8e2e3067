"""The rulesets a program works with: the built-in ones and the ruleset files it names, and :func:`load_rules`.

The one lookup of a ruleset name is :func:`resolve_ruleset`: a built-in id, a file loaded before, or the path of a
ruleset file, loaded into a :class:`~tarneeb.core.context.Catalog` (given, or the current one) by
:mod:`tarneeb.core.house`. The ruleset data and its validation are :mod:`tarneeb.core.model` and
:mod:`tarneeb.core.schema`; this module names their interface too, so that a program imports rulesets from one
place. The top of the core's loading layers: paths, context < sources < prose < model < rules < schema <
ambiguity < house < spec (tests/test_import_graph.py checks that the core's modules import only below them).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path

from tarneeb.core.context import Catalog, current, using
from tarneeb.core.house import load_file
from tarneeb.core.model import Clause, Option, OptionValue, Rules, Ruleset
from tarneeb.core.paths import spec_dir, spec_is_packaged
from tarneeb.core.schema import (
    CLAUSES_AUCTION,
    CLAUSES_COMMON,
    CLAUSES_INDIVIDUAL,
    PARAMS,
    READING_DEFAULTS,
    build_rules,
    config_problems,
    load_ruleset_file,
    min_levels,
    parse_option_args,
    read_toml,
    rulesets,
)
from tarneeb.errors import ConfigError, did_you_mean


def get_ruleset(rid: str, catalog: Catalog | None = None) -> Ruleset:
    """A built-in ruleset by id, or a ruleset file by path (see :func:`resolve_ruleset`)."""
    return resolve_ruleset(rid, catalog=catalog)


@contextlib.contextmanager
def builtin_rulesets_only() -> Iterator[Catalog]:
    """Within the block (this thread or task), a fresh catalog that takes the built-in ids only: it opens no file
    whatever a name says, and sees none loaded before in this process.

    For a service answering strangers (``tarneeb serve``): a request cannot make the host open one of its files,
    learn whether one exists, or change what another request's names mean."""
    with using(Catalog(files_allowed=False)) as catalog:
        yield catalog


def ruleset_files_allowed(catalog: Catalog | None = None) -> bool:
    """Whether a ruleset may be named by the path of its file here (False inside :func:`builtin_rulesets_only`)."""
    return (catalog or current()).files_allowed


def resolve_ruleset(ref: str, relative_to: str | Path | None = None, catalog: Catalog | None = None) -> Ruleset:
    """The one lookup of a ruleset name: a built-in id, the id of a ruleset file loaded before into ``catalog``
    (default: the current one), or the path of a ruleset file (``.toml``; tried as given, then inside
    ``relative_to``), loaded into ``catalog`` and known there afterwards by its id, the name given and its path.

    A file with ``extends = ...`` is a house ruleset (:mod:`tarneeb.core.house`); it is validated as the
    built-ins are, and its errors name the file, the key, the reason and the valid choices. In a catalog that
    allows no files (:func:`builtin_rulesets_only`), a built-in id only.
    """
    cat = catalog or current()
    all_rs = rulesets()
    if ref in all_rs:
        return all_rs[ref]
    if not cat.files_allowed:
        raise ConfigError(ref, "ruleset", f"unknown ruleset{did_you_mean(ref, all_rs)} (valid: {', '.join(all_rs)})")
    loaded = cat.rulesets
    if ref in loaded:
        return loaded[ref]
    looks_like_path = ref.endswith(".toml") or "/" in ref or os.sep in ref
    candidates = [Path(ref)]
    if relative_to is not None and not Path(ref).is_absolute():
        candidates.append(Path(relative_to) / ref)
    for path in candidates:
        key = str(path.resolve())
        if key in loaded:  # loaded before under another name: known by this one too (e.g. in a record header)
            found = loaded[key]
            loaded[ref] = found if found.ref == ref else replace(found, ref=ref)
            return loaded[ref]
        if path.is_file():
            rs = load_file(path, ref, cat, lambda base, where: resolve_ruleset(base, where, cat))
            for k in (rs.id, ref, key):
                loaded[k] = rs
            return rs
    if looks_like_path:
        raise ConfigError(ref, "ruleset", "no such ruleset file; give a built-in id ("
                          + ", ".join(all_rs) + ") or the path of a ruleset file")
    raise ConfigError(ref, "ruleset", f"unknown ruleset{did_you_mean(ref, all_rs)} (valid: {', '.join(all_rs)}, "
                                      "or the path of a ruleset file)")


def load_rules(rid: str | Ruleset, options: Mapping[str, object] | None = None,
               catalog: Catalog | None = None) -> Rules:
    """Resolve a ruleset (a :class:`Ruleset`, or a name for :func:`resolve_ruleset`) with option values into
    :class:`Rules`, validating the whole configuration."""
    return build_rules(rid if isinstance(rid, Ruleset) else get_ruleset(rid, catalog), options)


__all__ = [
    "CLAUSES_AUCTION", "CLAUSES_COMMON", "CLAUSES_INDIVIDUAL", "PARAMS", "READING_DEFAULTS", "Catalog", "Clause",
    "Option", "OptionValue", "Rules", "Ruleset", "build_rules", "builtin_rulesets_only", "config_problems",
    "get_ruleset", "load_rules", "load_ruleset_file", "min_levels", "parse_option_args", "read_toml",
    "resolve_ruleset", "rulesets", "ruleset_files_allowed", "spec_dir", "spec_is_packaged", "using",
]
