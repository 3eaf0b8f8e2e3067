"""Local sphinx extension: generate the rule pages from ``spec/`` and mark Arabic pages right-to-left.

On ``builder-inited`` it calls :func:`tarneeb.docgen.site.generate_site`, which writes
``generated/`` in the source folder (only changed files are rewritten). Any error
there (a missing translation, an example the engine contradicts) fails the build.
The comparison page gets the ``tarneeb diff`` witnesses of every pair of rulesets
when ``tarneeb_proofs`` (z3) is installed; ``TARNEEB_DOCS_WITNESSES=off`` skips
that search. Pages under ``generated/ar/`` are Arabic: ``lang="ar" dir="rtl"`` on their ``<html>``
element and around their body, with ids and codes isolated left-to-right.
"""

from __future__ import annotations

import html as html_lib
import itertools
import os
import re
import time
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

logger = logging.getLogger(__name__)

RTL_PREFIX = "generated/ar/"
TIMEOUT_MS = 5000  # per diff check


Witnesses = dict[str, dict[str, str]]


def _clause(text: object) -> str:
    """A sentence as a clause of a longer one: its closing full stop dropped (so "; " never follows a ".")."""
    return str(text).strip().removesuffix(".")


def _witness_text(w: dict[str, Any]) -> str:
    """One witness as a sentence or two: the situation, then each ruleset's ruling. Every witness shown was
    re-checked with the engine (the page says so once); only one the engine does not confirm says so itself."""
    if w.get("status") != "difference":
        summary = str(w.get("summary", ""))
        status = str(w.get("status"))
        return summary if summary.startswith(status) else f"{status}: {summary}"
    summary = _clause(w.get("summary"))
    rulings = "; ".join(f"{label}: {_clause(text)}" for label, text in (w.get("rulings") or {}).items())
    text = f"{summary[:1].upper()}{summary[1:]}. {rulings}."
    if not w.get("engine_confirmed"):
        text += " The engine does NOT rule this way: the encoding and the engine disagree here."
    rests = "; ".join(_clause(x) for x in [*(w.get("assumptions") or []), *(w.get("readings") or [])])
    return text + (f" Rests on: {rests}." if rests else "")


def _witnesses() -> tuple[Witnesses | None, str, dict[str, str]]:
    """Diff witnesses for every pair of rulesets, when the formal layer (z3) is installed.

    The z3 import happens here, in the docs extension, never in the ``tarneeb`` engine package.
    """
    if os.environ.get("TARNEEB_DOCS_WITNESSES", "on").lower() in ("0", "off", "no", "false"):
        return None, "The witness search was switched off for this build (TARNEEB_DOCS_WITNESSES=off).", {}
    try:
        from tarneeb_proofs import diff as D
    except ImportError:
        return None, "", {}
    from tarneeb.core.spec import rulesets

    t0 = time.perf_counter()
    out: Witnesses = {}
    ids = list(rulesets())
    try:
        for a, b in itertools.combinations(ids, 2):
            for w in D.diff(a, b, timeout_ms=TIMEOUT_MS):
                j = w.to_json()
                out.setdefault(str(j["check"]), {})[f"{a} vs {b}"] = _witness_text(j)
    except Exception as e:  # the search is optional: the page says why it is missing
        logger.info("tarneeb: diff witness search failed: %s", e)
        return None, f"The witness search (tarneeb_proofs.diff) failed while these pages were built: {e!r}", {}
    logger.info("tarneeb: diff witnesses for %d pairs in %.1fs", len(ids) * (len(ids) - 1) // 2,
                time.perf_counter() - t0)
    titles = {k: str(v) for k, v in getattr(D, "CHECK_TITLES", {}).items()}
    return out, "", titles


def _generate(app: Sphinx) -> None:
    from tarneeb.cli import build_parser
    from tarneeb.docgen.site import generate_site
    from tarneeb.errors import TarneebError

    t0 = time.perf_counter()
    try:
        witnesses, note, titles = _witnesses()
        changed = generate_site(Path(app.srcdir) / "generated", witnesses, note, titles, build_parser())
    except TarneebError as e:
        raise ExtensionError(f"tarneeb docs: {e}") from e
    logger.info("tarneeb: generated pages in %.2fs (%d rewritten)", time.perf_counter() - t0, len(changed))


_HTML_TAG = re.compile(r"<html\b([^>]*)>")
_ATTR = re.compile(r'\s(?:lang|dir)="[^"]*"')


def _ltr_isolates(body: str) -> str:
    """Ids, option values and codes in an Arabic body keep their own left-to-right order (``dir="ltr"``)."""
    for cls in ("ltr", "ltrw"):
        body = body.replace(f'<span class="{cls}">', f'<span class="{cls}" dir="ltr">')
    return body.replace('<code class="docutils literal', '<code dir="ltr" class="docutils literal')


_TABLE = re.compile(r"<table\b.*?</table>", re.S)
_CELL = re.compile(r"<(t[hd])\b([^>]*)>(.*?)</\1>", re.S)


def cell_labels(body: str) -> str:
    """Every body cell of a table with a header row gets its column's header as ``data-label``: on a phone the
    stylesheet lays each row out as a card, each cell under its header (a table wider than the screen scrolled
    sideways, its last columns out of sight)."""
    def one(table: re.Match[str]) -> str:
        text = table.group(0)
        if "</thead>" not in text:
            return text
        head, rest = text.split("</thead>", 1)
        labels = [html_lib.escape(html_lib.unescape(re.sub(r"<[^>]+>", "", m.group(3)).strip()))
                  for m in _CELL.finditer(head)]
        return head + "</thead>" + "</tr>".join(_labelled(row, labels) for row in rest.split("</tr>"))

    return _TABLE.sub(one, body)


def _labelled(row: str, labels: list[str]) -> str:
    """One table row, its body cells labelled in order with ``labels``."""
    cells = iter(labels)
    return _CELL.sub(lambda m: m.group(0) if m.group(1) != "td" else
                     f'<td data-label="{next(cells, "")}"{m.group(2)}>{m.group(3)}</td>', row)


def _rtl(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    if pagename.startswith("generated/") and "body" in context:
        context["body"] = cell_labels(context["body"])
    if pagename.startswith(RTL_PREFIX) and "body" in context:
        context["language"] = "ar"
        context["body"] = f'<div class="tarneeb-rtl" dir="rtl" lang="ar">\n{_ltr_isolates(context["body"])}\n</div>'


def rtl_html_tag(html: str) -> str:
    """The page's ``<html>`` element marked Arabic and right-to-left, so the whole page (navigation too) flips."""
    def repl(m: re.Match[str]) -> str:
        return f'<html{_ATTR.sub("", m.group(1))} lang="ar" dir="rtl">'

    return _HTML_TAG.sub(repl, html, count=1)


# the theme's credit line in the footer ("Made with Sphinx and @pradyunsg's Furo"), whatever its spacing
_MADE_WITH = re.compile(r"Made with\s*(?:<a href=\"https://www\.sphinx-doc\.org/\">Sphinx</a>\s*and\s*)?"
                        r"(?:<a class=\"muted-link\" href=\"https://pradyunsg\.me\">@pradyunsg</a>'s\s*)?"
                        r"<a href=\"https://github\.com/pradyunsg/furo\">Furo</a>")


def _escaped(text: str) -> str:
    """``text`` as a literal in a regular expression's replacement."""
    return text.replace("\\", "\\\\")


def theme_words_ar(html: str, words: dict[str, str], made_with: str = "") -> str:
    """The theme's own words (Previous, Next, Search, ...) in Arabic: as text, placeholder, title or label; the
    footer's credit line as ``made_with`` (its ``{sphinx}`` and ``{furo}`` are the two links)."""
    if made_with:
        credit = made_with.format(sphinx='<a href="https://www.sphinx-doc.org/">Sphinx</a>',
                                  furo='<a href="https://github.com/pradyunsg/furo">Furo</a>')
        html = _MADE_WITH.sub(lambda m: credit, html)
    for en, ar in words.items():
        # the word alone between tags (spaces kept), and the footer's "Copyright (c) authors"
        html = re.sub(rf">(\s*){re.escape(en)}(\s*)<", rf">\g<1>{_escaped(ar)}\g<2><", html)
        html = re.sub(rf">(\s*){re.escape(en)} &#169; ", rf">\g<1>{_escaped(ar)} &#169; ", html)
        for attr in ("placeholder", "title", "aria-label"):
            html = html.replace(f'{attr}="{en}"', f'{attr}="{ar}"')
    return html


_CAPTION = re.compile(r'<p class="caption" role="heading"><span class="caption-text">([^<]*)</span></p>\s*')


def arabic_sidebar(html: str, keep: str, title: str, authors: str = "") -> str:
    """An Arabic page's chrome: the navigation keeps only the toctree captioned ``keep`` (the Arabic pages; the
    English groups lead to English pages), the site's title is ``title`` and its authors ``authors``."""
    if authors:
        html = html.replace("the Tarneeb reference model authors", authors)
    out, pos = [], 0
    for m in _CAPTION.finditer(html):
        if m.start() < pos:
            continue
        if m.group(1) == keep:
            continue
        out.append(html[pos:m.start()])
        pos = _end_of_list(html, m.end())  # the caption and its list, nested lists included
    html = "".join(out) + html[pos:]
    return html.replace(">Tarneeb reference model<", f">{title}<").replace(" - Tarneeb reference model</title>",
                                                                          f" - {title}</title>")


_RELATED = re.compile(r'\s*<a class="(?:next|prev)-page" href="(?P<href>[^"]*)">.*?</a>', re.S)


def arabic_related_pages(html: str) -> str:
    """An Arabic page's "previous" and "next" links only to Arabic pages: the first Arabic page's "previous" led to
    the English glossary, the last one's "next" to the English command line reference, their titles in English."""
    return _RELATED.sub(lambda m: "" if m.group("href").startswith(("../", "/", "http")) else m.group(0), html)


def _end_of_list(html: str, at: int) -> int:
    """The index just after the ``<ul>`` that starts at ``at`` (its nested lists included); ``at`` when none does."""
    if not html.startswith("<ul", at):
        return at
    depth, i = 0, at
    for m in re.compile(r"<(/?)ul\b[^>]*>").finditer(html, at):
        depth += -1 if m.group(1) else 1
        if depth == 0:
            return m.end()
        i = m.end()
    return i


def _rtl_pages(app: Sphinx, exception: Exception | None) -> None:
    """After an html build: every page under ``generated/ar/`` gets ``lang="ar" dir="rtl"`` on ``<html>``
    and the theme's words in Arabic (``[theme]`` of ``spec/i18n/ar_pages.toml``)."""
    if exception is not None or app.builder.format != "html":
        return
    from tarneeb.docgen.pages_i18n import pages_table

    table = pages_table()
    words = {str(k): str(v) for k, v in table.get("theme", {}).items()}
    chrome = table.get("chrome", {})
    folder = Path(app.outdir) / RTL_PREFIX
    for page in folder.rglob("*.html") if folder.is_dir() else []:
        text = page.read_text(encoding="utf-8")
        marked = theme_words_ar(rtl_html_tag(text), words, str(chrome.get("made_with", "")))
        marked = arabic_sidebar(marked, str(chrome["arabic_caption"]), str(chrome["site_title"]),
                                str(chrome["authors"]))
        marked = arabic_related_pages(marked)
        if marked != text:
            page.write_text(marked, encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("builder-inited", _generate)
    app.connect("html-page-context", _rtl)
    app.connect("build-finished", _rtl_pages)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
