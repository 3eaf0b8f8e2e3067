"""The web app's one door into the engine: every ruling, verification and rule page the pages show comes from here.

The web code never decides a rule. This module calls, and only calls:

* the referee's stable entry point :func:`tarneeb.ruling.rule_dict`: a situation (the schema of
  ``spec/disputes/schema.json``) is checked and answered in the page's language; the answer is the referee's
  own JSON (each ruling's sentence, ``math`` and ``short`` lines) plus ``text``, the report for people
  (English or Arabic; short, or the whole chain when asked to explain), with each citation worded by
  :func:`tarneeb.core.sources.cite`;
* the verifier (:func:`tarneeb.records.verify_lines`) for record files;
* the rule-page generator (:func:`tarneeb.docgen.rulebook.ruleset_doc`), and the Arabic titles of the disputes
  (:func:`tarneeb.docgen.pages_i18n.page_text`).

When the referee gains a new entry point, this is the one file to change.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tarneeb.core.cards import RANK_NAMES, SUIT_NAMES, SUIT_SYMBOLS, SUITS, card_str
from tarneeb.core.clauses import IRREGULARITIES
from tarneeb.core.sources import cite, cite_ref
from tarneeb.core.spec import builtin_rulesets_only, get_ruleset, rulesets, spec_dir
from tarneeb.docgen.pages_i18n import page_text
from tarneeb.docgen.rulebook import RulesetDoc, ruleset_doc
from tarneeb.errors import SituationError, TarneebError
from tarneeb.i18n.tables import LANGS, ambiguity_text, clause_text
from tarneeb.records import Divergence, verify_lines
from tarneeb.ruling import KIND_QUESTIONS, KINDS, rule_dict
from tarneeb.ruling.arabic import LRI, fact
from tarneeb.ruling.situation import decode_situation
from tarneeb.serve import records_words

__all__ = [
    "DECK", "IRREGULARITIES", "KINDS", "KIND_QUESTIONS", "LANGS", "MAX_RECORD_LINES", "MAX_SHOWN", "Example",
    "RecordCheck", "SituationError", "Suit", "TarneebError", "check_records", "cite", "cite_ref", "error_facts",
    "examples", "examples_folder", "parse_situation_text", "rule", "rule_page", "ruleset_list", "ruling_groups", "too_many_lines",
]



@dataclass(frozen=True, slots=True)
class Suit:
    letter: str  # as the referee reads it: S, H, D, C
    name: str
    symbol: str
    red: bool
    cards: tuple[tuple[str, str], ...]  # (code the referee reads, e.g. "10H"; rank as shown, e.g. "10"), ace first


# the 52 cards for the picker: spades, hearts, diamonds, clubs, each from the ace down
DECK: tuple[Suit, ...] = tuple(
    Suit(SUITS[s], SUIT_NAMES[s], SUIT_SYMBOLS[s], s in (1, 2),
         tuple((card_str(s * 13 + r), RANK_NAMES[r]) for r in range(12, -1, -1)))
    for s in (3, 2, 1, 0))


def ruleset_list(lang: str = "en") -> list[tuple[str, str]]:
    """(id, name in ``lang``) of every ruleset, in file order."""
    return [(rid, _name(rid, lang)) for rid in rulesets()]


@cache
def _name(rid: str, lang: str) -> str:
    return ruleset_doc(rid, lang).name


def parse_situation_text(text: str, name: str) -> dict[str, Any]:
    """A situation file's text (TOML, or JSON when ``name`` ends in .json or the text starts with ``{``) decoded;
    a syntax error is a :class:`SituationError` located in ``name``."""
    return decode_situation(text, name, name.lower().endswith(".json") or text.lstrip().startswith("{"))


def rule(raw: dict[str, Any], name: str = "(form)", lang: str = "en", explain: bool = False) -> dict[str, Any]:
    """The referee's report on a decoded situation (:func:`tarneeb.ruling.rule_dict`, in ``lang``, the chain
    when ``explain``); each clause gains ``source`` (the human citation) and ``text_lang`` (the clause in
    ``lang`` from the rule pages' texts), each ambiguity ``sources_cited``; ``lines`` is ``text`` split into
    its lines. Raises :class:`TarneebError` (a located one-line message, located in ``name``) on bad or
    contradictory facts."""
    with builtin_rulesets_only():  # a request names no file of the host and sees nothing of another's
        rep = rule_dict(raw, None, lang, explain, name=name)
    lines = [ln for ln in rep["text"].splitlines() if ln.strip()]
    if name.startswith("(") and lines and lines[0].endswith(f" {name}"):  # "(form)", "(pasted)": not a file
        lines[0] = lines[0][:-len(name) - 1]
    rep["lines"] = lines
    for r in rep["rulings"]:
        rs = get_ruleset(r["ruleset"])
        r["name_lang"] = _name(r["ruleset"], lang)
        for c in r["clauses"]:
            c["source"] = cite(c["doc"], c["heading"], lang)
            c["text_lang"] = clause_text(rs, c["id"], lang) if c["id"] in rs.clauses else c["text"]
        for a in r["ambiguities"]:
            a["sources_cited"] = [cite_ref(s, lang) for s in a["sources"]]
    rep["ambiguities_once"] = ambiguities_once(rep["rulings"], lang)
    rep["groups"] = ruling_groups(rep["rulings"], lang)
    return rep


def error_facts(e: TarneebError, lang: str) -> list[str]:
    """The facts a situation error names (its fields), in ``lang``'s words where the referee has them
    (:func:`tarneeb.ruling.arabic.fact`, the form's labels); [] in English (the error names its fields) or for an
    error that names none."""
    if lang != "ar" or not isinstance(e, SituationError):
        return []
    words = [fact(f) for f in e.fields]
    return list(dict.fromkeys(w for w in words if not w.startswith(LRI)))


def _own_label(label: str) -> re.Pattern[str]:
    """A ruleset's label where a sentence names it (not inside a longer id)."""
    return re.compile(rf"(?<![\w-]){re.escape(label)}(?![\w-])")


def ruling_groups(rulings: list[dict[str, Any]], lang: str = "en") -> list[dict[str, Any]]:
    """The rulings as the page shows them: rulesets that give the same ruling (the same status, sentence and
    arithmetic, in the page's language and in English) as one group, in the order of each group's first ruleset.
    A group has ``labels`` and ``members`` (its rulings, each with its own clauses and citations), ``status``,
    ``ruling`` (the sentence in the page's language), ``english`` (the referee's English sentence; one that names
    its ruleset, "breaks deal.order of classic", names every ruleset of the group; ``english_parts`` and
    ``ruling_parts`` are the two sentences split where they name them; an Arabic one of several rulesets is the
    referee's ``ruling_ar_several``, «هذه القوانين» said of one and of several alike), ``math`` (the arithmetic in the
    page's language: ``math_ar`` on an Arabic page), ``clause_ids`` and ``ambiguity_ids`` (its members', each
    once). Only the page groups: the referee's report keeps one line per ruleset."""
    mark = "\x00"
    out: dict[tuple[str, ...], dict[str, Any]] = {}
    for r in rulings:
        english = _own_label(r["label"]).sub(mark, r["ruling"])
        sentence = r.get("ruling_ar", english) if lang == "ar" else english
        math = (r.get("math_ar") or "") if lang == "ar" else r.get("math_words", r["math"])
        g = out.setdefault((r["status"], english, sentence, math),
                           {"status": r["status"], "ruling": sentence, "english": english, "math": math,
                            "labels": [], "members": [], "clause_ids": [], "ambiguity_ids": []})
        g["labels"].append(r["label"])
        g["members"].append(r)
        g["clause_ids"] += [c["id"] for c in r["clauses"] if c["id"] not in g["clause_ids"]]
        g["ambiguity_ids"] += [a["id"] for a in r["ambiguities"] if a["id"] not in g["ambiguity_ids"]]
    for g in out.values():  # the page sets each label apart (never broken at its hyphen): the parts between
        if lang == "ar" and len(g["members"]) > 1:  # the sentence said of several rulesets
            g["ruling"] = g["members"][0].get("ruling_ar_several", g["ruling"])
        names = ", ".join(g["labels"])
        for key in ("english", "ruling"):
            g[f"{key}_parts"] = g[key].split(mark)
            g[key] = g[key].replace(mark, names)
    return list(out.values())


def ambiguities_once(rulings: list[dict[str, Any]], lang: str = "en") -> list[dict[str, Any]]:
    """Each ambiguity the rulings meet, once: its question and sources, whether it changes any ruling, and each
    reading with what it means, what it rules under each ruleset, and which rulesets take it (the referee's own
    fields, regrouped for a page that shows it once, not under every ruleset), with its ``state`` (:func:`_state`:
    live, silent, open or same). A reading's ``rulings`` are
    ``{ruling, ruling_lang, unruled, who}``: the ruling in the page's language where the referee words it so,
    ``unruled`` where the engine cannot rule under that reading (a club's choice no document states; the page words
    that in its own language)."""
    out: dict[str, dict[str, Any]] = {}
    for r in rulings:
        for a in r["ambiguities"]:
            q = ambiguity_text(lang, a["id"], "question")
            one = out.setdefault(a["id"], {"id": a["id"], "question": q or a["question"], "question_lang": lang if q
                                           else "en", "changes_ruling": False, "sources_cited": a["sources_cited"],
                                           "readings": {}})
            one["changes_ruling"] |= bool(a["changes_ruling"])
            for rd in a["readings"]:
                said = ambiguity_text(lang, a["id"], rd["id"])
                x = one["readings"].setdefault(rd["id"], {"id": rd["id"], "text": said or rd.get("text", ""),
                                                          "text_lang": lang if said else "en", "taken_by": [],
                                                          "rulings": {}})
                if rd.get("taken"):
                    x["taken_by"].append(r["label"])
                said_ruling = rd.get("ruling_ar") if lang == "ar" else None  # the referee's Arabic, where it has one
                x["rulings"].setdefault(rd["ruling"], {"ruling": said_ruling or rd["ruling"],
                                                       "ruling_lang": "ar" if said_ruling else "en",
                                                       "several": rd.get("ruling_ar_several") if said_ruling else None,
                                                       "unruled": rd.get("answer") is None,
                                                       "who": []})["who"].append(r["label"])
    return [{**a, "state": _state(a), "readings": [{**rd, "rulings": [_said_of_all(x) for x in rd["rulings"].values()]}
                                                   for rd in a["readings"].values()]}
            for a in out.values()]


def _said_of_all(x: dict[str, Any]) -> dict[str, Any]:
    """A reading's ruling as the page shows it: said of several rulesets (the referee's ``ruling_ar_several``) when
    several rule it."""
    several = x.pop("several")
    return {**x, "ruling": several} if several and len(x["who"]) > 1 else x


def _state(a: dict[str, Any]) -> str:
    """How an ambiguity bears on the rulings: "live" (its readings rule differently), "silent" (the engine rules
    under none of its readings: the documents say nothing, a club picks one), "open" (some readings are ruled
    alike, the others are a club's choice) or "same" (every reading rules the same)."""
    unruled = [x["unruled"] for rd in a["readings"].values() for x in rd["rulings"].values()]
    if a["changes_ruling"]:
        return "live"
    return "silent" if all(unruled) else "open" if any(unruled) else "same"




@dataclass(frozen=True, slots=True)
class RecordCheck:
    """What the verifier found in one record file: its summary (every report counted) and the first
    :data:`MAX_SHOWN` divergences and problems; ``more_divergences`` and ``more_problems`` count the ones left out."""

    summary: dict[str, Any]
    divergences: list[dict[str, Any]]
    problems: list[dict[str, Any]]
    more_divergences: int = 0
    more_problems: int = 0


MAX_SHOWN = 200  # reports of each kind a page lists: a 2 MiB file of broken lines gave a 29 MB page in 8 s
MAX_RECORD_LINES = 20_000  # lines of one record file (170 classic matches, the upload limit, are about 3,700)


def too_many_lines(data: bytes, name: str) -> str | None:
    """The located line that refuses a record file of more than :data:`MAX_RECORD_LINES` lines; None when it has no
    more."""
    count = data.count(b"\n") + (0 if data.endswith(b"\n") else 1)
    if count <= MAX_RECORD_LINES:
        return None
    return (f"{name}:{MAX_RECORD_LINES + 1}: the file has {count} lines; check at most {MAX_RECORD_LINES} lines a "
            "request (split it)")


def check_records(data: bytes, name: str, lang: str = "en") -> RecordCheck:
    """Verify record lines (``spec/records/`` format, JSON lines) held in memory; each divergence gains
    ``citation``: its clause's source, in ``lang``, and ``shown``: its claim, the rules' answer and the reason as
    the page says them (:func:`tarneeb.serve.records_words.said`: (text, language)); each cause of the summary's
    table its ``shown`` too."""
    with builtin_rulesets_only():  # a record header naming a file of the host is an unknown ruleset
        summary, reports = verify_lines(data.splitlines(), file=name)
    divs = [r for r in reports if isinstance(r, Divergence)]
    probs = [r for r in reports if not isinstance(r, Divergence)]
    found = [r.to_json() for r in divs[:MAX_SHOWN] + probs[:MAX_SHOWN]]  # the ones the page lists
    for d in found:  # a divergence's "source" is "clause (citation)": the page shows the two apart
        d["shown"] = {k: records_words.said(str(d.get(k) or ""), lang) for k in ("claimed", "expected", "reason")}
        rs = rulesets().get(d.get("ruleset", ""))
        clause = rs.clauses.get(d.get("clause", "")) if rs is not None else None
        if clause is not None:
            d["citation"] = cite(clause.doc, clause.heading, lang)
        else:
            src, head = d.get("source", ""), f"{d.get('clause')} ("
            d["citation"] = src[len(head):-1] if src.startswith(head) and src.endswith(")") else src
    summary_json = summary.to_json()
    for c in summary_json.get("by_cause", []):
        c["shown"] = records_words.said(str(c["cause"]), lang)
    return RecordCheck(summary_json, [d for d in found if d["kind"] == "divergence"],
                       [d for d in found if d["kind"] != "divergence"],
                       max(0, len(divs) - MAX_SHOWN), max(0, len(probs) - MAX_SHOWN))


def rule_page(rid: str, lang: str) -> RulesetDoc:
    """The generated rules of one ruleset in ``lang`` (the same document as ``tarneeb rules`` and the docs)."""
    return ruleset_doc(rid, lang)


@dataclass(frozen=True, slots=True)
class Example:
    name: str  # file stem in spec/disputes/
    title: str  # the file's (English)
    text: str
    title_ar: str = ""  # the dispute's Arabic title (spec/i18n/ar_pages.toml [dispute.NAME]), "" when it has none

    def title_in(self, lang: str) -> tuple[str, str]:
        """(the title in ``lang`` where there is one, else the file's; the language it is in)."""
        return (self.title_ar, "ar") if lang == "ar" and self.title_ar else (self.title, "en")


def examples() -> list[Example]:
    """The table arguments of ``spec/disputes/`` (starting points for the paste box), read once per spec folder."""
    return list(_examples(examples_folder()))


def examples_folder() -> str:
    """The spec folder :func:`examples` reads (a page's list of them is made once for each)."""
    return str(spec_dir())


@cache
def _examples(folder: str) -> tuple[Example, ...]:
    out = []
    for p in sorted((Path(folder) / "disputes").glob("*.toml")):
        text = p.read_text(encoding="utf-8")
        try:
            title = str(tomllib.loads(text).get("title", p.stem))
        except tomllib.TOMLDecodeError:
            continue
        out.append(Example(p.stem, title, text, page_text("dispute", p.stem, "title")))
    return tuple(out)
