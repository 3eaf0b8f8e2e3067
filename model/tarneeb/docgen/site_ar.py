"""The Arabic pages of the site beyond the rulesets: comparison, worked examples, disputes, glossary.

Written under ``docs/generated/ar/`` beside the ruleset pages, so the sphinx extension makes them
right-to-left as whole pages. Every fact comes from the same place as on the English pages (the
resolved rules, the engine's answers to the examples, the referee's rulings); only the wording
is Arabic, from ``spec/i18n/ar_pages.toml``, ``spec/i18n/ar.toml`` and ``spec/i18n/glossary.toml``.
Players are named as players count them (:func:`tarneeb.i18n.arabic.player_name`: seat 0 is
اللاعب 1).
"""

from __future__ import annotations

import json
import re
from typing import Any

from tarneeb.conformance.examples import check_example, load_examples
from tarneeb.core.sources import cite, cite_ref, heading_text
from tarneeb.core.spec import get_ruleset, rulesets
from tarneeb.docgen import rulebook as docgen
from tarneeb.docgen.compare import comparison, grouped
from tarneeb.docgen.disputes import facts_block, load_situation, situation_files
from tarneeb.docgen.pages_i18n import need, need_list, page_text
from tarneeb.i18n import arabic
from tarneeb.i18n.tables import tr
from tarneeb.ruling import report_json, resolve_file
from tarneeb.ruling.arabic import headline_ar, sentence

H = docgen.rst_heading
T = docgen.rst_ltr  # Arabic running text for rst: escaped, left-to-right runs isolated


def _t(text: str) -> str:
    return T(arabic.arabic_punct(text))


_th = docgen.rst_title  # titles: Unicode isolates, since the navigation shows them as plain text


def _head(anchor: str, title: str, english: str) -> list[str]:
    lines = docgen.RST_LTR_ROLE + [f".. _{anchor}:", ""] + H(_th(title), "=", over=True)
    return lines + [f":doc:`{need('pages', 'other_lang')} </generated/{english}>`", ""]


def _table(header: list[str], rows: list[list[str]], widths: list[int], wide: bool = True) -> list[str]:
    out = [".. list-table::", "   :header-rows: 1"] + (["   :class: tarneeb-wide"] if wide else [])
    out += ["   :widths: " + " ".join(str(w) for w in widths), ""]
    for row in [header, *rows]:
        out.append(f"   * - {row[0] or '..'}")
        out += [f"     - {c or '..'}" for c in row[1:]]
    return out + [""]


# ---------------------------------------------------------------- comparison

def comparison_page() -> str:
    ids = list(rulesets())
    rows = comparison(ids, "ar")
    lines = _head("comparison-ar", need("pages", "comparison_title"), "comparison")
    lines += [_t(need("pages", "comparison_intro")), "", _t(need("pages", "comparison_witnesses")), ""]
    for r in rows:
        lines += [f".. rubric:: {_t(r.title)}", "   :class: tarneeb-point", ""]
        lines += [f"- {'، '.join(f':doc:`{rid} </generated/ar/{rid}>`' for rid in rids)}: {_t(v)}"
                  for rids, v in grouped(r.values, ids)] + [""]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- worked examples

def _kv(d: dict[str, Any]) -> str:
    return "; ".join(f"{k} = {json.dumps(v, ensure_ascii=False)}" for k, v in d.items())


def examples_page() -> str:
    lines = _head("examples-ar", need("pages", "examples_title"), "examples")
    lines += [_t(need("pages", "examples_intro")), ""]
    _, _, given, says, engine, source_label = need_list("examples_header", 6)
    by_rs: dict[str, list[Any]] = {}
    for ex in load_examples():
        by_rs.setdefault(ex.ruleset, []).append(ex)
    for rid, exs in by_rs.items():
        name = tr("ar", "ruleset", rid, "name") or get_ruleset(rid).name
        lines += H(_th(f"{name} ({rid})"), "-")
        home = get_ruleset(rid).document
        lines += [need("pages", "examples_document") + ": " + _t(cite(home, "", "ar")), ""]

        def where(ex: Any, home: str = home) -> str:
            if ex.doc != home:
                return cite(ex.doc, ex.heading, "ar")
            return f"قسم «{heading_text(ex.heading, 'ar')}» ({ex.heading})"

        # one item per example, the source once above the examples it covers (as the English page)
        for src, run in docgen.grouped_by(exs, where):
            lines += [".. container:: tarneeb-source", "", f"   *{source_label}:* {_t(src)}", ""]
            for ex in run:
                c = check_example(ex)
                got = {k: c.got.get(k) for k in ex.expect}
                opts = f" ({need('pages', 'examples_options')}: ``{_kv(ex.options)}``)" if ex.options else ""
                note = page_text("example_note", ex.id) if ex.note else ""
                if ex.note and not note:
                    need("example_note", ex.id)
                verdict = need("pages", "engine_ok") + " ✓" if c.ok else need("pages", "engine_bad") + " ✗"
                lines += [f"- ``{ex.id}`` ({_t(need('kinds', ex.kind))}): {given}: ``{_kv(ex.input)}``{opts}؛ "
                          f"{says}: ``{_kv(ex.expect)}``؛ {engine}: ``{_kv(got)}`` {verdict}."
                          + (f" {_t(note)}" if note else "")]
            lines += [""]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- disputes

def _ambiguity_ar(a: Any, kind: str, x: Any, asked: dict[str, Any]) -> tuple[str, list[str]]:
    """What an ambiguity does to a ruling, in Arabic, and (when its readings rule differently) each reading's ruling
    in the referee's Arabic."""
    import dataclasses

    if a.changes_ruling:
        readings = []
        for r in a.readings:
            taken = f" ({need('pages', 'disputes_taken')})" if r.taken else ""
            said = (_plain(sentence(kind, dataclasses.replace(x, answer=r.answer), asked)) if r.answer is not None
                    else _plain(tr("ar", "ruling", "labels", "not_computed")))
            readings.append(f"``{r.id}``{taken}: {_t(said)}")
        return _t(need("pages", "disputes_differ")), readings
    if all(r.answer is None and not r.taken for r in a.readings):  # the club's choice: each reading in words
        return _t(need("pages", "disputes_silent")), [
            f"``{r.id}``: {_t(tr('ar', 'ambiguity', a.id, r.id) or r.text)}" for r in a.readings]
    if any(r.answer is None for r in a.readings):
        return (_t(need("pages", "disputes_not_computed")) + " "
                + "، ".join(f"``{r.id}``" for r in a.readings if r.answer is None)), []
    return _t(need("pages", "disputes_same")) + ".", []


def _plain(text: str) -> str:
    """The referee's Arabic without its terminal isolates (the page isolates Latin runs itself)."""
    return re.sub("[\u2066-\u2069\u200f]", "", text)


def disputes_page() -> str:
    """The disputes in Arabic, laid out as the English page: the facts as the file writes them, then the rulings as
    a list (one ruleset an item, with the clauses that decide it), then each ambiguity once with the rulesets it
    concerns; no table, so a phone shows a line of words, not a word a line."""
    lines = _head("disputes-ar", need("pages", "disputes_title"), "disputes")
    lines += [_t(need("pages", "disputes_intro")), ""]
    files = situation_files()
    for p in files:
        data = load_situation(p)
        lines += [f".. _dispute-ar-{p.stem}:", ""] + H(_th(need("dispute", p.stem, "title")), "-")
        lines += [_t(need("dispute", p.stem, "description")), ""]
        lines += [f"{need('pages', 'disputes_file')}: ``spec/disputes/{p.name}``", ""]
        if data.get("sources"):
            lines += [need("pages", "disputes_sources") + ": "
                      + "؛ ".join(_t(cite_ref(str(x), "ar")) for x in data["sources"]), ""]
        lines += [_t(need("pages", "disputes_facts")) + ":", ""] + facts_block(p, data) + [""]
        report = resolve_file(p)
        rep = report_json(report)
        question = tr("ar", "ruling", "questions", report.kind)
        lines += [f"{tr('ar', 'ruling', 'labels', 'question')}: {_t(question)}", ""]
        ambs: dict[tuple[str, str, tuple[str, ...]], list[str]] = {}
        for x, ruled in zip(rep.get("rulings", []), report.rulings, strict=True):
            rid = str(x.get("ruleset", ""))
            label = str(x.get("label", rid))
            # the referee's own Arabic wording
            said = _plain(sentence(report.kind, ruled, report.asked))
            rs = rulesets().get(rid)
            chain = "، ".join(
                f":ref:`{c['id']} <{docgen.clause_anchor(rid, c['id'], 'ar')}>`" if rs and c["id"] in rs.clauses
                else f"``{c['id']}``" for c in x.get("clauses", []))
            lines += [f"- ``{label}``: {_t(said)}", ""]
            if chain:
                lines += [f"  {need('pages', 'disputes_decided')}: {chain}.", ""]
            for a in ruled.ambiguities:
                what, readings = _ambiguity_ar(a, report.kind, ruled, report.asked)
                ambs.setdefault((a.id, what, tuple(readings)), []).append(label)
        headline = _plain(headline_ar(report))
        if headline and len(report.rulings) > 1:
            lines += [_t(headline), ""]  # not bold: rst parses no role (the Latin runs' :ltr:) inside **...**
        if ambs:
            lines += [need("pages", "disputes_ambiguities") + ":", ""]
            for (aid, what, shown), labels in ambs.items():
                lines += [f"- ``{aid}`` ({'، '.join(f'``{lb}``' for lb in labels)}): {what}", ""]
                lines += [f"  - {r}" for r in shown] + ([""] if shown else [])
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------- glossary

def glossary_page(raw: dict[str, Any]) -> str:
    regions = list(raw.get("regions", []))
    names = raw.get("region_names", {})
    lines = _head("glossary-ar", need("pages", "glossary_title"), "glossary")
    lines += [_t(str(raw.get("intro_ar", ""))), ""]
    for t in raw.get("term", []):
        latin = str(t["latin"]).replace(" (", ": ").removesuffix(")")  # «Talab: bid», not «Talab (bid)» in brackets
        lines += H(_th(f"{t['arabic']} ({latin})"), "-")
        lines += [_t(str(t["meaning_ar"])), ""]
        if t.get("doc"):
            lines += [f"*{need('pages', 'glossary_found')}:* {_t(cite(t['doc'], t['heading'], 'ar'))}", ""]
    lines += H(_th(need("pages", "glossary_regions_title")), "-")
    lines += [_t(str(raw.get("regions_note_ar", ""))), ""]
    header = [need("pages", "glossary_term")] + [names[r]["ar"] for r in regions]
    rows = [[t["arabic"]] + [_t(t.get("variants", {}).get(r, "")) for r in regions]
            for t in raw.get("term", []) if t.get("variants")]
    lines += _table(header, rows, [20] + [80 // len(regions)] * len(regions), wide=False)
    lines += H(_th(need("pages", "glossary_words_title")), "-")
    lines += [_t(need("pages", "glossary_words_intro")), ""]
    for w in arabic.words():
        if w.definition:
            lines += [f"- {_t(w.definition)}"]
    lines += [""] + H(_th(need("pages", "glossary_avoid_title")), "-")
    rows = [[_t(b.term or re.sub(r"\(\?<?[!=][^)]*\)", "", b.pattern.pattern if b.pattern else "")), _t(b.use),
             _t(b.why)] for b in arabic.banned()]
    lines += _table(need_list("glossary_avoid_header", 3), rows, [25, 40, 35], wide=False)
    lines += H(_th(need("pages", "glossary_seats_title")), "-")
    lines += [_t(arabic.seat_convention("ar")), ""]
    return "\n".join(lines) + "\n"
