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
from typing import Any

from tarneeb.core.context import current
from tarneeb.core.paths import spec_dir
from tarneeb.errors import SpecError


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


@cache
def _table() -> dict[str, Source]:
    path = spec_dir() / "sources.toml"
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except OSError as exc:
        raise SpecError(str(path), "(file)", f"cannot read the sources table: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(str(path), "(file)", f"not valid TOML: {exc}") from None
    out: dict[str, Source] = {}
    for i, s in enumerate(raw.get("source", [])):
        where = f"source[{i}]"
        try:
            src = Source(s["id"], s["publisher"], s["title"], s["described_as"], s["published"])
        except KeyError as exc:
            raise SpecError(str(path), where, f"missing key {exc.args[0]!r}") from None
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
        raise SpecError(f"i18n/{lang}.toml", f"heading.{heading!r}", f"no {lang} rendering of this section heading")
    return f"{name}، قسم «{rendered}»"


def cite_ref(ref: str, lang: str = "en") -> str:
    """A ``"file: heading"`` reference (ambiguities, disputes) as :func:`cite` words it."""
    doc, sep, heading = ref.partition(": ")
    if not sep or doc not in sources():
        return ref
    return cite(doc, heading, lang)
