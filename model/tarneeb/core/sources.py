"""The rule documents as people name them: publisher, title and section.

A clause's ``doc`` field is the document's file name; it stays the machine id
(JSON output, the record format). Everything a person reads cites through
:func:`cite`, e.g. ``Card Kings, Tarneeb 41 rules page (untitled), section
"Bidding"``. The table is ``spec/sources.toml``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tarneeb.core.context import current
from tarneeb.core.paths import spec_dir
from tarneeb.errors import SpecError, echo, os_error_words


@dataclass(frozen=True, slots=True)
class Source:
    id: str
    publisher: str
    title: str  # the document's own title; "" when it has none
    described_as: str
    published: str
    origin: str = ""  # the ruleset file that declared it ("" for spec/sources.toml)

    @property
    def name(self) -> str:
        """The document as a reader would look for it."""
        if self.title:
            return f'{self.publisher}, "{self.title}"'
        return f"{self.publisher}, {self.described_as} (untitled)"


def sources() -> dict[str, Source]:
    """The document table: ``spec/sources.toml`` and the sources declared by the ruleset files of the current
    catalog (:mod:`tarneeb.core.context`: a club's own rule sheet)."""
    declared = current().sources
    return {**_table(), **declared} if declared else _table()


def builtin_sources() -> dict[str, Source]:
    """The documents of ``spec/sources.toml`` alone."""
    return _table()


def _spec_toml(name: str, what: str) -> tuple[Path, dict[str, Any]]:
    """The spec's TOML file ``name`` (its path and content); ``what`` names it in an error."""
    path = spec_dir() / name
    try:
        return path, tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except OSError as exc:
        raise SpecError(str(path), "(file)", f"cannot read {what}: {os_error_words(exc)}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(str(path), "(file)", f"not valid TOML: {exc}") from None


@cache
def _table() -> dict[str, Source]:
    path, raw = _spec_toml("sources.toml", "the sources table")
    out: dict[str, Source] = {}
    for i, s in enumerate(raw.get("source", [])):
        where = f"source[{i}]"
        try:
            src = Source(s["id"], s["publisher"], s["title"], s["described_as"], s["published"])
        except KeyError as exc:
            raise SpecError(str(path), where, f"missing key {echo(exc.args[0])}") from None
        out[src.id] = src
    return out


def source(doc: str) -> Source:
    """The source named by a clause's ``doc``; an unknown id is a spec error."""
    found = sources().get(doc)
    if found is None:
        valid = ", ".join(sorted(sources()))
        raise SpecError("sources.toml", doc, f"document not in the sources table; known: {valid}")
    return found


@cache
def _translations(lang: str) -> dict[str, Any]:
    """The ``source``/``heading`` tables of ``spec/i18n/LANG.toml`` (``{}`` when absent)."""
    path = spec_dir() / "i18n" / f"{lang}.toml"
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except OSError:
        return {}
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(str(path), "(file)", f"not valid TOML: {exc}") from None
    return {"source": raw.get("source", {}), "heading": raw.get("heading", {})}


def heading_text(heading: str, lang: str = "en") -> str:
    """A document's section heading rendered in ``lang`` (``""`` when there is no rendering)."""
    if lang == "en":
        return heading
    return str(_translations(lang).get("heading", {}).get(heading, ""))


def cite(doc: str, heading: str, lang: str = "en") -> str:
    """``Card Kings, ... , section "Bidding"``: a citation a reader can follow.

    With ``lang="ar"``: the publisher, the document's title and the section heading as an Arabic reader names
    them (``publisher``, ``title`` and ``[heading]`` of ``spec/i18n/ar.toml``), e.g.
    ``بي إس دوت فاي، «طريقة لعب طرنيب 41»، قسم «الطلب»``: no Latin letter in a player's line (the English
    citation, with the document's own words, is the English output's).
    """
    src = source(doc)
    if lang == "en":
        name = src.name
        return f'{name}, section "{heading}"' if heading else name
    tr = _translations(lang).get("source", {}).get(doc, {})
    publisher = str(tr.get("publisher", src.publisher))
    if src.title:
        name = f"{publisher}، «{tr.get('title', src.title)}»"
    else:
        name = f"{publisher}، {tr.get('described_as', src.described_as)} (بلا عنوان)"
    if not heading:
        return name
    rendered = heading_text(heading, lang)
    if not rendered and doc not in _table():
        # a club's own rule sheet (declared by a ruleset file): its headings are cited as the club wrote them
        return f"{name}، قسم «{heading}»"
    if not rendered:
        raise SpecError(f"i18n/{lang}.toml", f"heading.{echo(heading)}", f"no {lang} rendering of this section heading")
    return f"{name}، قسم «{rendered}»"


def cite_ref(ref: str, lang: str = "en") -> str:
    """A ``"file: heading"`` reference (ambiguities, disputes) as :func:`cite` words it."""
    doc, sep, heading = ref.partition(": ")
    if not sep or doc not in sources():
        return ref
    return cite(doc, heading, lang)


# ------------------------------------------------------------------ names of clauses and ambiguities


@cache
def _names() -> dict[str, dict[str, str]]:
    """``spec/names.toml``: the short English name of each clause id and of each ambiguity id."""
    _, raw = _spec_toml("names.toml", "the names table")
    return {k: {str(i): str(n) for i, n in raw.get(k, {}).items()} for k in ("clause", "ambiguity")}


def rule_name(clause_id: str) -> str:
    """The clause's short name, ``the follow-suit rule``; a clause not in spec/names.toml (a club's own) is
    ``rule ID``."""
    return _names()["clause"].get(clause_id) or f"rule {clause_id}"


def rule_words(clause_id: str) -> str:
    """A clause as human output names it: its name with its id beside it, ``the follow-suit rule (play.follow)``."""
    name = _names()["clause"].get(clause_id)
    return f"{name} ({clause_id})" if name else f"rule {clause_id}"


def topic_words(ambiguity_id: str) -> str:
    """An ambiguity as human output names it: what it is about with its id beside it, ``what happens after a
    revoke (revoke-remedy)``."""
    name = _names()["ambiguity"].get(ambiguity_id)
    return f"{name} ({ambiguity_id})" if name else f"the question {ambiguity_id}"
