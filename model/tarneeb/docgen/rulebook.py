"""Rule documentation generated from ``spec/``: one generator for the docs and the terminal.

:func:`ruleset_doc` turns a ruleset (and the ambiguity register) into a
:class:`RulesetDoc` with the clauses grouped in the order a hand is played;
:func:`render` writes it as reStructuredText (for sphinx), Markdown or plain
text (for ``tarneeb rules``). English texts come from the ruleset files,
Arabic texts from ``spec/i18n/ar.toml`` (or a clause's ``text_ar``).
:func:`comparison` builds the variation-point table from resolved
:class:`~tarneeb.core.spec.Rules`. Nothing here is hand-written per ruleset.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from tarneeb.core.ambiguity import ambiguities, taken_for
from tarneeb.core.sources import cite, cite_ref, rule_words, topic_words
from tarneeb.core.spec import Ruleset, get_ruleset, rulesets, spec_dir
from tarneeb.errors import SpecError
from tarneeb.i18n import arabic
from tarneeb.i18n.tables import LANGS, clause_text, i18n, tr

_T = TypeVar("_T")

FORMATS = ("rst", "md", "txt", "html")

# The order a hand is played; each clause goes to the first section whose test accepts its id.
SECTIONS: tuple[tuple[str, str], ...] = (
    ("seats-deal", "Seats and deal"),
    ("trump", "Trump"),
    ("bidding", "Bidding"),
    ("redeal", "Redeal"),
    ("play", "Play"),
    ("scoring", "Scoring"),
    ("winning", "Winning"),
    ("ties", "Ties"),
    ("timer", "Turn timer"),
    ("other", "Other rules"),
)

_REDEAL_IDS = ("bid.total", "auction.all-pass", "deal.weak-redeal")


def section_of(cid: str) -> str:
    """The section key of a clause id (see :data:`SECTIONS`)."""
    if cid in _REDEAL_IDS or cid.startswith("redeal."):
        return "redeal"
    if cid.startswith(("seats.", "deal.")) or cid == "play.direction":
        return "seats-deal"
    if cid.startswith("trump."):
        return "trump"
    if cid.startswith(("bid.", "auction.")):
        return "bidding"
    if cid.startswith(("play.", "hand.")):
        return "play"
    if cid.startswith("score."):
        return "scoring"
    if cid.startswith("win."):
        return "winning"
    if cid.startswith("tie."):
        return "ties"
    if cid.startswith("timer."):
        return "timer"
    return "other"


# Interface words; the Arabic ones live in spec/i18n/ar.toml [labels] under the same keys.
LABELS_EN: dict[str, str] = {
    "rules": "Rules in the order of a hand",
    "source": "Source",
    "document": "Document",
    "publisher": "Publisher",
    "options": "Options",
    "no_options": "This ruleset has no options.",
    "option": "Option",
    "default": "Default",
    "allowed": "Allowed values",
    "meaning": "Meaning",
    "ambiguities": "Ambiguities and the reading taken",
    "no_ambiguities": "No recorded ambiguity concerns this ruleset.",
    "question": "Question",
    "reading": "Reading taken",
    "other_readings": "Other readings",
    "selectable": "Selectable by option",
    "sources": "Sources",
    "generated": "Generated from the spec files; every statement is our own wording of the cited document.",
    "other_lang": "Arabic version",
    "int_range": "an integer from {lo} to {hi}",
    "technical": "For developers",
    "no_name": "(no name in this language yet)",
    "no_summary": "(no summary in this language yet)",
    "tech_clauses": "clauses in order",
    "tech_options": "options",
    "tech_readings": "ambiguities and readings",
}


def label(lang: str, key: str) -> str:
    return (tr(lang, "labels", key) if lang != "en" else "") or LABELS_EN[key]


def section_title(lang: str, key: str) -> str:
    return (tr(lang, "sections", key) if lang != "en" else "") or dict(SECTIONS)[key]


def _tr_rs(lang: str, kind: str, rs: Ruleset, key: str) -> str:
    """A translation of a ruleset's entry, or of the ruleset it extends (a house ruleset inherits them)."""
    for rid in rs.lineage or (rs.id,):
        text = tr(lang, kind, rid, key)
        if text:
            return text
    return ""


def missing_texts(lang: str) -> list[str]:
    """Every text without a ``lang`` version: ``ruleset:clause``, option meanings, names, ambiguity texts."""
    out: list[str] = []
    for rs in rulesets().values():
        for cid in rs.clauses:
            if not clause_text(rs, cid, lang).strip():
                out.append(f"{rs.id}:{cid}")
        if lang != "en":
            out.extend(f"{rs.id}:option {o.name}" for o in rs.options
                       if not tr(lang, "option", rs.id, o.name).strip())
            out.extend(f"{rs.id}:{key}" for key in ("name", "summary")
                       if not tr(lang, "ruleset", rs.id, key).strip())
    if lang != "en":
        for a in ambiguities():
            for key in ("question", *(r for r, _ in a.readings)):
                if not tr(lang, "ambiguity", a.id, key).strip():
                    out.append(f"ambiguity {a.id}:{key}")
        out.extend(f"section {k}" for k, _ in SECTIONS if not tr(lang, "sections", k).strip())
        out.extend(f"label {k}" for k in LABELS_EN if not tr(lang, "labels", k).strip())
        out.extend(f"option name {o.name}" for o in {o.name: o for rs in rulesets().values() for o in rs.options}.values()
                   if not option_name(lang, o.name).strip())
    return out


def unknown_texts(lang: str) -> list[str]:
    """Keys in the translation file that name no ruleset, clause, option or ambiguity (stale translations)."""
    out: list[str] = []
    table = i18n(lang)
    all_rs = rulesets()
    for kind in ("clause", "option", "ruleset"):
        for rid, entries in table.get(kind, {}).items():
            if rid not in all_rs:
                out.append(f"{kind}.{rid}")
                continue
            rs = all_rs[rid]
            names = set(rs.clauses) if kind == "clause" else (
                {o.name for o in rs.options} if kind == "option" else {"name", "summary"})
            out.extend(f"{kind}.{rid}.{k}" for k in entries if k not in names)
    ambs = {a.id: {"question", *(r for r, _ in a.readings)} for a in ambiguities()}
    for aid, entries in table.get("ambiguity", {}).items():
        if aid not in ambs:
            out.append(f"ambiguity.{aid}")
            continue
        out.extend(f"ambiguity.{aid}.{k}" for k in entries if k not in ambs[aid])
    return out


# ---------------------------------------------------------------- the document model

@dataclass(frozen=True, slots=True)
class ClauseItem:
    id: str
    text: str
    doc: str
    heading: str


@dataclass(frozen=True, slots=True)
class SectionItem:
    key: str
    title: str
    clauses: tuple[ClauseItem, ...]


@dataclass(frozen=True, slots=True)
class OptionItem:
    name: str
    default: str
    allowed: str
    meaning: str
    doc: str
    heading: str
    title: str = ""  # the option as a reader of the document's language calls it (its name in English)
    raw_default: str = ""  # the default as typed


@dataclass(frozen=True, slots=True)
class AmbiguityItem:
    id: str
    question: str
    reading: str
    reading_text: str
    others: tuple[tuple[str, str], ...]
    option: str
    sources: tuple[str, ...]
    selectable: tuple[str, ...] = ()  # the readings ``--reading`` may select instead


@dataclass(frozen=True, slots=True)
class RulesetDoc:
    id: str
    lang: str
    name: str
    summary: str
    document: str
    publisher: str
    sections: tuple[SectionItem, ...]
    options: tuple[OptionItem, ...]
    ambiguities: tuple[AmbiguityItem, ...]
    labels: dict[str, str] = field(default_factory=dict)

    def clause_ids(self) -> list[str]:
        return [c.id for s in self.sections for c in s.clauses]

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "lang": self.lang, "name": self.name, "summary": self.summary,
            "document": self.document, "publisher": self.publisher,
            "sections": [{"key": s.key, "title": s.title, "clauses": [
                {"id": c.id, "text": c.text, "doc": c.doc, "source": cite(c.doc, c.heading),
                 "citation": cite(c.doc, c.heading, self.lang)} for c in s.clauses]}
                for s in self.sections],
            "options": [{"name": o.name, "default": o.default, "allowed": o.allowed, "meaning": o.meaning,
                         "doc": o.doc, "source": cite(o.doc, o.heading),
                         "citation": cite(o.doc, o.heading, self.lang)} for o in self.options],
            "ambiguities": [{"id": a.id, "question": a.question, "reading": a.reading,
                             "reading_text": a.reading_text, "other_readings": dict(a.others),
                             "option": a.option, "sources": list(a.sources)} for a in self.ambiguities],
        }


def _fmt_value(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def value_text(v: object, lang: str) -> str:
    """An option value as a reader of ``lang`` says it: ``fixed`` in English, «ثابت» in Arabic (the value as typed
    goes to the technical line, :func:`technical_line`); a number as it is."""
    raw = _fmt_value(v)
    if lang == "en" or raw.lstrip("-").isdigit():
        return raw
    rendered = tr(lang, "values", raw)
    if not rendered:
        raise SpecError(str(spec_dir() / "i18n" / f"{lang}.toml"), f"values.{raw}", f"no {lang} rendering of this value")
    return rendered


def option_name(lang: str, name: str) -> str:
    """An option as a reader of ``lang`` calls it (``[option_names]`` of the translation table); its id in English."""
    return (tr(lang, "option_names", name) if lang != "en" else "") or name


def technical_parts(rid: str, clause_ids: Iterable[str], options: Iterable[tuple[str, str]],
                    readings: Iterable[tuple[str, str, Iterable[str]]]) -> list[str]:
    """The ids a rule writer looks for, for the one technical line of an Arabic page: the ruleset, its clauses in
    order, its options with their default values, each ambiguity with the reading taken and the command that
    selects another."""
    parts = [rid, " ".join(clause_ids)]
    opts = [f"{n}={v}" for n, v in options]
    if opts:
        parts.append(" ".join(opts))
    for aid, taken, others in readings:
        parts.append(" ".join([f"{aid}={taken}", *(f"--reading {aid}={r}" for r in others)]))
    return [p for p in parts if p]


def technical_line(lang: str, parts: list[str]) -> str:
    """One line holding every id of an Arabic page, after its label, in a first-strong isolate (FSI ... PDI) so the
    ids cannot reorder the Arabic around them."""
    return f"{label(lang, 'technical')}: {arabic.FSI}{' | '.join(parts)}{arabic.PDI}"


def technical_html(lang: str, parts: list[str]) -> str:
    """The technical line of an Arabic page as a folded block (``<details>``): closed, a reader sees its label only;
    each part isolated left-to-right (``<bdi>``)."""
    from html import escape as e

    def whole(part: str) -> str:  # an id is never broken at its hyphen; a line breaks between ids
        return " ".join(f'<span style="white-space:nowrap">{e(w)}</span>' for w in part.split(" "))

    body = "<br>".join(f'<bdi dir="ltr">{whole(p)}</bdi>' for p in parts)
    return (f'<details class="tarneeb-technical"><summary>{e(label(lang, "technical"))}</summary>'
            f'<p dir="ltr" style="font-family:monospace">{body}</p></details>')


def doc_technical(d: RulesetDoc) -> list[str]:
    return technical_parts(d.id, d.clause_ids(), [(o.name, o.raw_default) for o in d.options],
                           [(a.id, a.reading, a.selectable) for a in d.ambiguities])


def ruleset_doc(rid: str, lang: str = "en") -> RulesetDoc:
    """The generated rules of one ruleset in ``lang``; raises :class:`SpecError` if a text is missing."""
    rs = get_ruleset(rid)
    if lang not in LANGS:
        raise SpecError(str(spec_dir() / "i18n"), lang, f"unknown language; valid: {', '.join(LANGS)}")
    i18n_file = str(spec_dir() / "i18n" / f"{lang}.toml")
    groups: dict[str, list[ClauseItem]] = {k: [] for k, _ in SECTIONS}
    for cid, c in rs.clauses.items():
        text = clause_text(rs, cid, lang)
        if not text.strip():
            if rs.extends and (c.origin or rs.id) == rs.id:  # a house file's own clause: its text_ar is missing
                raise SpecError(rs.path, f"clause {cid}.text_{lang}", f"missing: the {lang} sheet needs this "
                                                                     "clause's statement (a template may name parameters)")
            raise SpecError(i18n_file, f"clause.{rs.id}.{cid}", f"no {lang} text for this clause")
        groups[section_of(cid)].append(ClauseItem(cid, text, c.doc, c.heading))
    sections = tuple(SectionItem(k, section_title(lang, k), tuple(groups[k])) for k, _ in SECTIONS if groups[k])
    options = []
    for o in rs.options:
        meaning = o.meaning if lang == "en" else _tr_rs(lang, "option", rs, o.name)
        if not meaning.strip():
            raise SpecError(i18n_file, f"option.{rs.id}.{o.name}", f"no {lang} meaning for this option")
        allowed = o.valid_text()
        default = _fmt_value(o.default)
        if lang != "en":
            allowed = (label(lang, "int_range").format(lo=o.range[0], hi=o.range[1]) if o.range is not None
                       else "، ".join(value_text(v, lang) for v in o.allowed))
            default = value_text(o.default, lang)
        options.append(OptionItem(o.name, default, allowed, meaning, o.doc, o.heading, option_name(lang, o.name),
                                  _fmt_value(o.default)))
    ambs = []
    for a in ambiguities():
        taken_ = taken_for(a, rs)
        if taken_ is None:
            continue
        taken = taken_

        def amb_tr(key: str, default: str, _a_id: str = a.id) -> str:
            return (tr(lang, "ambiguity", _a_id, key) if lang != "en" else "") or default

        ambs.append(AmbiguityItem(
            id=a.id, question=amb_tr("question", a.question), reading=taken,
            reading_text=amb_tr(taken, a.reading_text(taken)),
            others=tuple((r, amb_tr(r, t)) for r, t in a.readings if r != taken),
            option=a.option, sources=a.sources, selectable=tuple(r for r in a.params if r != taken),
        ))
    name, summary = rs.name, rs.summary
    if lang != "en":  # a sheet without its Arabic name or summary says so, in Arabic, rather than show the English
        name = tr(lang, "ruleset", rs.id, "name") or (rs.name_ar if lang == "ar" else "") or label(lang, "no_name")
        summary = (tr(lang, "ruleset", rs.id, "summary") or (rs.summary_ar if lang == "ar" else "")
                   or label(lang, "no_summary"))
    return RulesetDoc(
        id=rs.id, lang=lang, name=name, summary=summary, document=rs.document, publisher=rs.publisher,
        sections=sections, options=tuple(options), ambiguities=tuple(ambs),
        labels={k: label(lang, k) for k in LABELS_EN},
    )


# ---------------------------------------------------------------- renderers

def rst_escape(text: str) -> str:
    """Escape inline markup characters so spec text is shown as written."""
    out = []
    for ch in text:
        if ch in "\\*`_|":
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


def rst_heading(text: str, char: str, over: bool = False) -> list[str]:
    # Width counts code points; Arabic combining marks make the text look shorter, never longer.
    bar = char * max(len(text), 3)
    return ([bar] if over else []) + [text, bar, ""]


def clause_anchor(rid: str, cid: str, lang: str = "en") -> str:
    """The sphinx label of a clause on its ruleset page (``:ref:`` target)."""
    return f"rule-{lang}-{rid}-{cid.replace('.', '-')}"


def rst_ltr(text: str) -> str:
    """Arabic text for reStructuredText: escaped, with every left-to-right run in the ``ltr`` role.

    Pages using it start with :data:`RST_LTR_ROLE`; the html gets ``<span class="ltr">`` (or ``ltrw`` for a
    long run that may wrap), isolated left-to-right by the site's CSS and the sphinx extension.
    """
    out: list[str] = []
    last = 0
    for start, end in arabic.ltr_runs(text):
        before = text[start - 1] if start else " "
        after = text[end] if end < len(text) else " "
        pre = "" if before.isspace() or unicodedata.category(before)[0] == "P" else "\\ "
        post = "" if after.isspace() or unicodedata.category(after)[0] == "P" else "\\ "
        role = "ltr" if end - start <= LTR_NOWRAP else "ltrw"  # short runs never wrap (no break at hyphens)
        out += [rst_escape(text[last:start]), f"{pre}:{role}:`{text[start:end]}`{post}"]
        last = end
    out.append(rst_escape(text[last:]))
    return "".join(out)


RST_LTR_ROLE = [".. role:: ltr", ".. role:: ltrw", ""]
WJ = "\u2060"
NBSP = "\u00a0"
LTR_NOWRAP = 32  # runs up to this long (ids, option values, publishers) are kept on one line


def rst_title(text: str) -> str:
    """Arabic text for an rst title: Unicode isolates (titles are also shown as plain text, in the navigation)."""
    # a word joiner after each hyphen keeps ids such as bsfyi-41 whole in narrow navigation columns, and a short
    # run (Card Kings, Tarneeb 41) keeps its words together, so its brackets never land on different lines
    def keep(s: str) -> str:
        s = s.replace("-", "-" + WJ)
        return f"{arabic.LRI}{s.replace(' ', NBSP) if len(s) <= LTR_NOWRAP else s}{arabic.PDI}"

    return rst_escape(arabic.isolate(arabic.arabic_punct(text), keep))


def runs_by(items: Iterable[_T], key: Callable[[_T], str]) -> list[tuple[str, list[_T]]]:
    """``items`` in runs of neighbours with the same ``key``: a source cited once, above the run it covers."""
    runs: list[tuple[str, list[_T]]] = []
    for x in items:
        k = key(x)
        if runs and runs[-1][0] == k:
            runs[-1][1].append(x)
        else:
            runs.append((k, [x]))
    return runs


def grouped_by(items: Iterable[_T], key: Callable[[_T], str]) -> list[tuple[str, list[_T]]]:
    """``items`` grouped by ``key`` in the order each key first occurs (each group keeps its items' order): a source
    cited once for all it covers, wherever they stand in the list."""
    groups: dict[str, list[_T]] = {}
    for x in items:
        groups.setdefault(key(x), []).append(x)
    return list(groups.items())


def source_runs(d: RulesetDoc, s: SectionItem) -> list[tuple[str, list[ClauseItem]]]:
    """A section's clauses in runs that share one source, each with its citation in the document's language: every
    format cites a source once, above the run of clauses it covers, not under each clause."""
    return runs_by(s.clauses, lambda c: cite(c.doc, c.heading, d.lang))


def option_runs(d: RulesetDoc) -> list[tuple[str, list[OptionItem]]]:
    """The options in runs that share one source, as :func:`source_runs` the clauses."""
    return runs_by(d.options, lambda o: cite(o.doc, o.heading, d.lang))


class _Fmt:
    """How a renderer writes running text of the document's language in one format."""

    def __init__(self, lang: str, fmt: str) -> None:
        self.ar = lang != "en"
        self.fmt = fmt

    def __call__(self, text: str) -> str:
        if not self.ar:
            return rst_escape(text) if self.fmt == "rst" else text
        text = arabic.arabic_punct(text)
        if self.fmt == "rst":
            return rst_ltr(text)
        if self.fmt in ("md", "html"):
            return arabic.isolate(text)
        return text  # txt: isolated after wrapping, line by line

    def code(self, ident: str) -> str:
        """An id or option value as code, isolated left-to-right in Arabic Markdown."""
        if self.fmt == "rst":
            return f"``{ident}``"
        if self.fmt == "md":
            return f"{arabic.LRI}`{ident}`{arabic.PDI}" if self.ar else f"`{ident}`"
        return ident

    @property
    def sep(self) -> str:
        return "؛ " if self.ar else "; "


def _render_rst(d: RulesetDoc) -> str:
    L = d.labels
    f = _Fmt(d.lang, "rst")
    lines: list[str] = RST_LTR_ROLE.copy() if f.ar else []
    lines += [f".. _ruleset-{d.lang}-{d.id}:", ""]
    lines += rst_heading(rst_title(d.name) if f.ar else f(f"{d.name} ({d.id})"), "=", over=True)
    lines += [f(d.summary), ""]
    lines += [f"{L['document']}: {f(cite(d.document, '', d.lang))}", ""]  # a line (a field list set it apart)
    if f.ar:
        lines += [f(arabic.seat_convention('ar')), ""]
    lines += [".. container:: tarneeb-note", "", f"   {f(L['generated'])}", ""]
    lines += rst_heading(L["rules"], "-")
    for s in d.sections:
        lines += rst_heading(s.title, "~")
        for source, run in source_runs(d, s):
            lines += [".. container:: tarneeb-source", "", f"   *{L['source']}:* {f(source)}", ""]
            for c in run:
                lines += [
                    ".. container:: tarneeb-clause",
                    f"   :name: {clause_anchor(d.id, c.id, d.lang)}",
                    "",
                    f"   {f(c.text)}" if f.ar else f"   ``{c.id}`` — {f(c.text)}",  # Arabic: ids folded at the end
                    "",
                ]
    lines += rst_heading(L["options"], "-")
    if not d.options:
        lines += [L["no_options"], ""]
    else:
        # one block per option (a four-column table needed sideways scrolling on a phone), its source cited once
        # above the options that share it
        for source, opts in option_runs(d):
            lines += [".. container:: tarneeb-source", "", f"   *{L['source']}:* {f(source)}", ""]
            for o in opts:
                lines += [".. container:: tarneeb-clause tarneeb-option", "",
                          f"   **{rst_escape(o.title)}** — {f(o.meaning)}" if f.ar else f"   ``{o.name}`` — {f(o.meaning)}", "",
                          f"   *{L['default']}:* {f(o.default)}{f.sep}*{L['allowed']}:* {f(o.allowed)}", ""]
    lines += rst_heading(L["ambiguities"], "-")
    if not d.ambiguities:
        lines += [L["no_ambiguities"], ""]
    for a in d.ambiguities:
        if f.ar:  # the question and the readings in words; the ids are in the folded technical block
            lines += [".. container:: tarneeb-ambiguity", "", f"   {f(a.question)}", ""]
            lines += [f"   - {L['reading']}: {f(a.reading_text)}"]
            lines += [f"   - {L['other_readings']}: {f(t)}" for _, t in a.others]
            if a.option:
                lines += [f"   - {L['selectable']}: {rst_escape(option_name(d.lang, a.option))}"]
        else:
            lines += [".. container:: tarneeb-ambiguity", "", f"   **{a.id}** — {f(a.question)}", ""]
            lines += [f"   - {L['reading']}: ``{a.reading}`` — {f(a.reading_text)}"]
            for r, t in a.others:
                lines += [f"   - {L['other_readings']}: ``{r}`` — {f(t)}"]
            if a.option:
                lines += [f"   - {L['selectable']}: ``{a.option}``"]
        lines += [f"   - {L['sources']}: " + f.sep.join(f(cite_ref(s, d.lang)) for s in a.sources), ""]
    if f.ar:
        lines += [".. raw:: html", "", "   " + technical_html(d.lang, doc_technical(d)), ""]
    return "\n".join(lines)


def _md_line(line: str) -> str:
    """An Arabic Markdown line whose text starts right-to-left (after any list or heading marker); a table's
    separator row (``|---|---|``) is left as it is: a mark before it stops Markdown reading the table."""
    if re.fullmatch(r"\s*\|[\s:|-]*", line):
        return line
    m = re.match(r"^(\s*(?:#+ |- |\| )?)(.*)$", line)
    if m is None:  # (.*) matches any line without a newline
        raise RuntimeError(f"a Markdown line with a newline inside: {line!r}")
    head, rest = m.groups()
    if not rest.strip() or arabic.paragraph_direction(rest) == "R" or rest.startswith("<"):
        return line
    return head + arabic.RLM + rest


def _render_md(d: RulesetDoc) -> str:
    L = d.labels
    f = _Fmt(d.lang, "md")
    lines = [f"# {f(d.name)}" if f.ar else f"# {f(d.name)} ({f.code(d.id)})", "", f(d.summary), "",
             f"{L['document']}: {f(cite(d.document, '', d.lang))}", ""]
    if f.ar:
        lines += [f(arabic.seat_convention("ar")), ""]
    lines += [f"## {L['rules']}", ""]
    for s in d.sections:
        lines += [f"### {s.title}", ""]
        for source, run in source_runs(d, s):
            lines += [f"*{L['source']}:* {f(source)}", ""]
            lines += [f"- {f(c.text)}" if f.ar else f"- **{f.code(c.id)}** {f(c.text)}" for c in run] + [""]
    lines += [f"## {L['options']}", ""]
    if not d.options:
        lines += [L["no_options"], ""]
    else:
        lines += [f"| {L['option']} | {L['default']} | {L['allowed']} | {L['meaning']} |", "|---|---|---|---|"]
        lines += [f"| {o.title if f.ar else f.code(o.name)} | {f(o.default)} | {f(o.allowed)} | "
                  f"{f(o.meaning).replace('|', '/')} |" for o in d.options]
        lines += [""]
    lines += [f"## {L['ambiguities']}", ""]
    if not d.ambiguities:
        lines += [L["no_ambiguities"], ""]
    for a in d.ambiguities:
        if f.ar:  # in words; the ids are in the folded technical block
            lines += [f"- {f(a.question)}", f"  - {L['reading']}: {f(a.reading_text)}"]
            lines += [f"  - {L['other_readings']}: {f(t)}" for _, t in a.others]
            if a.option:
                lines += [f"  - {L['selectable']}: {option_name(d.lang, a.option)}"]
        else:
            lines += [f"- **{f.code(a.id)}**: {f(a.question)}",
                      f"  - {L['reading']}: {f.code(a.reading)}: {f(a.reading_text)}"]
            lines += [f"  - {L['other_readings']}: {f.code(r)}: {f(t)}" for r, t in a.others]
            if a.option:
                lines += [f"  - {L['selectable']}: {f.code(a.option)}"]
        lines += [f"  - {L['sources']}: " + f.sep.join(f(cite_ref(s, d.lang)) for s in a.sources)]
    if not f.ar:
        return "\n".join(lines) + "\n"
    # GitHub and most Markdown viewers honour dir on a block; the RLM keeps plain viewers right-to-left.
    return "\n".join([f'<div dir="rtl" lang="{d.lang}">', "", *(_md_line(ln) for ln in lines), "",
                      technical_html(d.lang, doc_technical(d)), "", "</div>"]) + "\n"


def wrap_at(text: str, indent: str, width: int = 100, keep_runs: bool = False, first: str | None = None) -> list[str]:
    """Lines of at most ``width``; ids such as ``auction.dealer-privilege`` are never split at their hyphens.

    With ``keep_runs`` (Arabic), a left-to-right run (``What you need``) is not split across lines either;
    ``first`` is the first line's indent (a bullet) when it differs from ``indent``.
    """
    import textwrap

    if keep_runs:
        text = arabic.isolate(text, lambda s: s.replace(" ", "\xa0"))
    lines = textwrap.wrap(text, width=width, initial_indent=indent if first is None else first, subsequent_indent=indent,
                          break_on_hyphens=False, break_long_words=False) or [indent]
    return [ln.replace("\xa0", " ") for ln in lines] if keep_runs else lines


_wrap_at = wrap_at  # the name tests/test_arabic.py calls


def txt_line(line: str) -> str:
    """A wrapped Arabic text line: Arabic punctuation, left-to-right runs isolated, right-to-left start."""
    return arabic.rtl_line(arabic.isolate(arabic.arabic_punct(line)))


def _render_txt(d: RulesetDoc) -> str:
    L = d.labels
    ar = d.lang != "en"

    def _wrap(text: str, indent: str, first: str | None = None) -> list[str]:
        return wrap_at(text, indent, keep_runs=ar, first=first)

    title = d.name if ar else f"{d.name}, ruleset {d.id}"  # English names its rules by their names
    lines = [title, "=" * len(title), *_wrap(d.summary, ""), f"{L['document']}: {cite(d.document, '', d.lang)}"]
    if ar:
        lines += _wrap(arabic.seat_convention("ar"), "")
    lines += ["", L["rules"].upper(), ""]
    for s in d.sections:
        lines += [s.title, "-" * len(s.title)]
        for source, run in source_runs(d, s):
            lines += _wrap(f"({L['source']}: {source})", "")
            for c in run:  # Arabic: a bullet of the statement; the ids are on the technical line at the end
                lines += _wrap(c.text, "    ", first="  • ") if ar else [f"[{rule_words(c.id)}]", *_wrap(c.text, "    ")]
        lines += [""]
    lines += [L["options"].upper(), ""]
    if not d.options:
        lines += ["  " + L["no_options"]]
    for o in d.options:
        lines += [*_wrap(f"{o.title if ar else o.name} = {o.default}   ({L['allowed']}: {o.allowed})", ""),
                  *_wrap(o.meaning, "    ")]
    lines += ["", L["ambiguities"].upper(), ""]
    if not d.ambiguities:
        lines += ["  " + L["no_ambiguities"]]
    for a in d.ambiguities:
        if ar:
            lines += [*_wrap(a.question, "    ", first="  • "), *_wrap(f"{L['reading']}: {a.reading_text}", "    ")]
            lines += [ln for _, t in a.others for ln in _wrap(f"{L['other_readings']}: {t}", "    ")]
            if a.option:
                lines += [f"    {L['selectable']}: {option_name(d.lang, a.option)}"]
        else:
            lines += [topic_words(a.id)[:1].upper() + topic_words(a.id)[1:], *_wrap(a.question, "    "),
                      *_wrap(f"{L['reading']}: {a.reading}: {a.reading_text}", "    ")]
            if a.option:
                lines += [f"    {L['selectable']}: {a.option}"]
    if ar:
        lines = [txt_line(ln) for ln in lines]
        lines += ["", arabic.rtl_line(technical_line(d.lang, doc_technical(d)))]
    return "\n".join(lines) + "\n"


# the standalone page's own style: readable on a phone (no sideways scroll), ids whole
_HTML_STYLE = ("body{font-family:system-ui,'Noto Naskh Arabic','Noto Sans Arabic','DejaVu Sans',sans-serif;"
               "line-height:1.6;max-width:46em;margin:0 auto;padding:0 1em}"
               "code,.keep{white-space:nowrap}small{color:#555}dd{margin-inline-start:1.5em;margin-bottom:.6em}"
               "table{display:block;overflow-x:auto;border-collapse:collapse}"
               "th,td{border:1px solid #ccc;padding:.3em .5em;vertical-align:top;text-align:start}"
               "[dir=rtl] em{font-style:normal;font-weight:600}")  # Arabic has no italics


def _render_html(d: RulesetDoc) -> str:
    """A standalone page (a club can print it or put it on its site); Arabic is right to left."""
    from html import escape as e

    L = d.labels
    f = _Fmt(d.lang, "html")

    def ltr_run(s: str) -> str:  # a left-to-right run of an Arabic page; a short one (an id) never breaks
        return f'<bdi dir="ltr" class="keep">{e(s)}</bdi>' if len(s) <= LTR_NOWRAP else f'<bdi dir="ltr">{e(s)}</bdi>'

    def t(text: str) -> str:  # running text: on Arabic pages Arabic punctuation, left-to-right runs isolated
        return e(text) if not f.ar else "".join(
            ltr_run(part[1:-1]) if part.startswith(arabic.LRI) else e(part)
            for part in re.split(f"({arabic.LRI}[^{arabic.PDI}]*{arabic.PDI})", f(text)))

    rtl = ' dir="rtl"' if d.lang == "ar" else ""
    out = [f'<!DOCTYPE html>\n<html lang="{d.lang}"{rtl}><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{e(d.name)}{'' if f.ar else f' ({e(d.id)})'}</title>", f"<style>{_HTML_STYLE}</style></head><body>",
           f"<h1>{t(d.name)}</h1>" if f.ar else f"<h1>{t(d.name)} (<code>{e(d.id)}</code>)</h1>", f"<p>{t(d.summary)}</p>",
           f"<p>{e(L['document'])}: {t(cite(d.document, '', d.lang))}</p>", f"<p><em>{t(L['generated'])}</em></p>",
           f"<h2>{e(L['rules'])}</h2>"]
    for s in d.sections:
        out += [f"<h3>{e(s.title)}</h3>"]
        for source, run in source_runs(d, s):
            out += [f"<p><small>{e(L['source'])}: {t(source)}</small></p>", "<dl>"]
            if f.ar:  # the statements as a list; the ids are in the folded technical block
                out[-1] = "<ul>"
                out += [f'<li id="{e(clause_anchor(d.id, c.id, d.lang))}">{t(c.text)}</li>' for c in run]
                out += ["</ul>"]
                continue
            for c in run:
                out += [f'<dt id="{e(clause_anchor(d.id, c.id, d.lang))}"><code>{e(c.id)}</code></dt>',
                        f"<dd>{t(c.text)}</dd>"]
            out += ["</dl>"]
    out += [f"<h2>{e(L['options'])}</h2>"]
    if not d.options:
        out += [f"<p>{e(L['no_options'])}</p>"]
    else:
        for source, opts in option_runs(d):  # as the clauses: the source once above its options
            out += [f"<p><small>{e(L['source'])}: {t(source)}</small></p>", "<dl>"]
            for o in opts:
                out += [f"<dt><strong>{e(o.title)}</strong></dt>" if f.ar else f"<dt><code>{e(o.name)}</code></dt>",
                        f"<dd>{t(o.meaning)}<br>{e(L['default'])}: {t(o.default)}{e(f.sep)}{e(L['allowed'])}: "
                        f"{t(o.allowed)}</dd>"]
            out += ["</dl>"]
    out += [f"<h2>{e(L['ambiguities'])}</h2>"]
    if not d.ambiguities:
        out += [f"<p>{e(L['no_ambiguities'])}</p>"]
    out += ["<ul>"] if d.ambiguities else []
    for a in d.ambiguities:
        if f.ar:  # in words; the ids are in the folded technical block
            out += [f"<li>{t(a.question)}<ul>", f"<li>{e(L['reading'])}: {t(a.reading_text)}</li>"]
            out += [f"<li>{e(L['other_readings'])}: {t(text)}</li>" for _, text in a.others]
            if a.option:
                out += [f"<li>{e(L['selectable'])}: {e(option_name(d.lang, a.option))}</li>"]
        else:
            out += [f"<li><strong>{e(a.id)}</strong>: {t(a.question)}<ul>",
                    f"<li>{e(L['reading'])}: <code>{e(a.reading)}</code>: {t(a.reading_text)}</li>"]
            out += [f"<li>{e(L['other_readings'])}: <code>{e(r)}</code>: {t(text)}</li>" for r, text in a.others]
            if a.option:
                out += [f"<li>{e(L['selectable'])}: <code>{e(a.option)}</code></li>"]
        out += [f"<li>{e(L['sources'])}: " + e(f.sep).join(t(cite_ref(s, d.lang)) for s in a.sources)
                + "</li></ul></li>"]
    out += ["</ul>"] if d.ambiguities else []
    if f.ar:
        out += [technical_html(d.lang, doc_technical(d))]
    return "\n".join(out + ["</body></html>"]) + "\n"


_RENDERERS: dict[str, Callable[[RulesetDoc], str]] = {"rst": _render_rst, "md": _render_md, "txt": _render_txt,
                                                      "html": _render_html}


def render(d: RulesetDoc, fmt: str) -> str:
    """The ruleset document as ``rst``, ``md``, ``txt`` or ``html``."""
    return _RENDERERS[fmt](d)


def rules_text(rid: str, fmt: str = "txt", lang: str = "en") -> str:
    """Shortcut used by ``tarneeb rules``."""
    return render(ruleset_doc(rid, lang), fmt)


# ---------------------------------------------------------------- comparison table

@dataclass(frozen=True, slots=True)
class CompareRow:
    key: str
    title: str
    params: tuple[str, ...]  # the spec parameters behind the row (option values shown beside them)
    values: dict[str, str]
