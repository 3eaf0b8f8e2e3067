"""The house-rules page of the site: the example house files of ``spec/house-rules/``, each by what it changes.

A house file extends a built-in ruleset (:mod:`tarneeb.core.house`). The page shows, per file, its base, the
parameters it changes (base value and its own, from ``Ruleset.changed``) and every clause whose statement differs
from the base's (the file's own clauses and the base clauses its parameters reword), with the clause's source; the
whole sheet is one command away. The texts are generated from the files, so the page cannot drift from them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tarneeb.core.sources import cite
from tarneeb.core.spec import Ruleset, get_ruleset, spec_dir
from tarneeb.docgen import rulebook as docgen
from tarneeb.i18n.arabic import arabic_punct
from tarneeb.i18n.tables import clause_text, tr

HOUSE_DIR = "house-rules"


def house_files() -> list[Path]:
    d = spec_dir() / HOUSE_DIR
    return sorted(d.glob("*.toml")) if d.is_dir() else []


def _value(v: Any) -> str:
    return json.dumps(v, ensure_ascii=False)


def _rel(p: Path) -> str:
    return f"spec/{HOUSE_DIR}/{p.name}"


def changed_clauses(rs: Ruleset, lang: str) -> list[tuple[str, str, str]]:
    """(clause id, statement, citation) of every clause whose statement in ``lang`` is not its base's."""
    base = get_ruleset(rs.extends)
    out = []
    for cid, c in rs.clauses.items():
        text = clause_text(rs, cid, lang)
        if cid not in base.clauses or clause_text(base, cid, lang) != text:
            out.append((cid, text, cite(c.doc, c.heading, lang)))
    return out


def house_page(lang: str) -> str:
    """The page in ``lang`` (``en`` or ``ar``)."""
    return _page_ar() if lang != "en" else _page_en()


def _page_en() -> str:
    E, H = docgen.rst_escape, docgen.rst_heading
    lines = [".. _house-rules:", ""] + H("House rules", "=", over=True)
    lines += [":doc:`النسخة العربية (Arabic version) </generated/ar/house>`", ""]
    lines += ["A club's house rules are a small file that extends a built-in ruleset: it names its base, sets the "
              "parameters it changes and restates, with a source, each clause whose rule it changes. Everything "
              "runs it as it runs a built-in ruleset: ``tarneeb rules FILE`` prints its sheet, and ``verify``, "
              "``fuzz``, ``ruling`` and ``simulate`` take ``--ruleset FILE``, and ``tarneeb stats FILE`` shows "
              "what the file changes in self-play. "
              "``tarneeb new-ruleset --from RULESET --id my-club`` writes a file to start from, with every "
              "parameter and option, its value, its allowed values and its meaning. The examples below are the "
              f"files of ``spec/{HOUSE_DIR}/``; each section is generated from its file.", ""]
    for p in house_files():
        rs = get_ruleset(str(p))
        lines += H(f"{rs.name} ({rs.id})", "-")
        lines += [f"Extends :doc:`{rs.extends} </generated/en/{rs.extends}>`; file ``{_rel(p)}``. {E(rs.summary)}", ""]
        lines += [".. list-table::", "   :header-rows: 1", "", "   * - Parameter", "     - Base value",
                  "     - This file"]
        for k, (was, now) in rs.changed.items():
            lines += [f"   * - ``{k}``", f"     - ``{_value(was)}``", f"     - ``{_value(now)}``"]
        lines += ["", "Clauses whose statement changes:", ""]
        for cid, text, src in changed_clauses(rs, "en"):
            lines += [f"- **{cid}** {E(text)} (Source: {E(src)})"]
        lines += ["", f"The whole sheet: ``tarneeb rules {_rel(p)}``.", ""]
    return "\n".join(lines) + "\n"


def _page_ar() -> str:
    from tarneeb.docgen.pages_i18n import need, need_list

    def t(text: str) -> str:
        return docgen.rst_ltr(arabic_punct(text))

    def shown(v: object) -> str:  # a yes/no setting with its Arabic word beside it, as the option lists show it
        return t(docgen.value_text(v, "ar")) if isinstance(v, bool) else f":ltr:`{_value(v)}`"

    H = docgen.rst_heading
    lines = docgen.RST_LTR_ROLE + [".. _house-rules-ar:", ""]
    lines += H(docgen.rst_title(need("pages", "house_title")), "=", over=True)
    lines += [f":doc:`{need('pages', 'other_lang')} </generated/house>`", ""]
    lines += [t(need("pages", "house_intro").format(dir=f"spec/{HOUSE_DIR}/")), ""]
    header = need_list("house_params_header", 3)
    for p in house_files():
        rs = get_ruleset(str(p))
        lines += H(docgen.rst_title(f"{rs.name_ar or rs.name} ({rs.id})"), "-")
        base_name = tr("ar", "ruleset", str(rs.extends), "name") or str(rs.extends)
        lines += [f":doc:`{docgen.rst_title(base_name)} </generated/ar/{rs.extends}>`", "",
                  t(need("pages", "house_extends").format(base=rs.extends, file=_rel(p))), "",
                  t(rs.summary_ar or rs.summary), ""]
        lines += [".. list-table::", "   :header-rows: 1", ""] + [
            ("   * - " if i == 0 else "     - ") + h for i, h in enumerate(header)]
        for k, (was, now) in rs.changed.items():
            lines += [f"   * - :ltr:`{k}`", f"     - {shown(was)}", f"     - {shown(now)}"]
        lines += ["", t(need("pages", "house_clauses")), ""]
        for cid, text, src in changed_clauses(rs, "ar"):
            lines += [f"- :ltr:`{cid}` {t(text)} ({t(src)})"]
        lines += ["", t(need("pages", "house_whole").format(command=f"tarneeb rules {_rel(p)}")), ""]
    return "\n".join(lines) + "\n"


__all__ = ["changed_clauses", "house_files", "house_page"]
