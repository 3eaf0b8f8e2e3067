"""The translation tables of ``spec/i18n``: the texts of a ruleset, its clauses, options and ambiguities in a
language other than English (which lives in the ruleset files and the register).

``{lang}.toml`` holds them, with every ``{lang}-*.toml`` beside it merged in (``ar-ruling.toml``, the referee's
texts); :func:`tr` looks one up by its keys, :func:`clause_text` renders a clause's statement from its template.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

from tarneeb.core.prose import render_clause
from tarneeb.core.spec import Ruleset, spec_dir
from tarneeb.errors import SpecError

LANGS = ("en", "ar")


@cache
def load_table(path: str) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        return {}
    except tomllib.TOMLDecodeError as e:
        raise SpecError(path, "(toml)", str(e)) from None


def i18n(lang: str) -> dict[str, Any]:
    """The translation table of ``lang`` (``{}`` for English, which lives in the ruleset files)."""
    if lang == "en":
        return {}
    if lang not in LANGS:
        raise SpecError(str(spec_dir() / "i18n"), lang, f"unknown language; valid: {', '.join(LANGS)}")
    return _merged_i18n(str(spec_dir() / "i18n"), lang)


@cache
def _merged_i18n(folder: str, lang: str) -> dict[str, Any]:
    """``{lang}.toml`` with every ``{lang}-*.toml`` beside it merged in (e.g. ``ar-ruling.toml``, the
    referee's texts); a key defined twice is a spec error."""
    table = load_table(str(Path(folder) / f"{lang}.toml"))
    for extra in sorted(Path(folder).glob(f"{lang}-*.toml")):
        table = _merge(table, load_table(str(extra)), str(extra), "")
    return table


def _merge(a: dict[str, Any], b: dict[str, Any], file: str, where: str) -> dict[str, Any]:
    out = dict(a)
    for k, v in b.items():
        if k in out and isinstance(out[k], dict) and isinstance(v, dict):
            out[k] = _merge(out[k], v, file, f"{where}{k}.")
        elif k in out:
            raise SpecError(file, where + k, "already defined in another translation file")
        else:
            out[k] = v
    return out


def tr(lang: str, *keys: str) -> str:
    """The ``lang`` text at ``keys`` of the translation table (e.g. ``tr("ar", "option", ruleset, name)``); ``""``
    when there is none."""
    node: Any = i18n(lang)
    for k in keys:
        if not isinstance(node, dict) or k not in node:
            return ""
        node = node[k]
    return node if isinstance(node, str) else ""


def ambiguity_text(lang: str, aid: str, key: str) -> str:
    """The ``lang`` text of an ambiguity's question (``key`` "question") or of one of its readings (``key`` the
    reading id), from ``spec/i18n``; "" when there is none (English: always "", the register is English)."""
    return tr(lang, "ambiguity", aid, key) if lang != "en" else ""


def clause_text(rs: Ruleset, cid: str, lang: str) -> str:
    """A clause statement in ``lang``, rendered from its template; ``""`` when that language lacks it."""
    c = rs.clauses[cid]
    if lang == "en":
        return c.text
    origin = c.origin or rs.id
    template = tr(lang, "clause", origin, cid) or (c.text_ar if lang == "ar" else "")
    return render_clause(rs, cid, template, lang, str(spec_dir() / "i18n" / f"{lang}.toml"), f"clause.{origin}.{cid}")
