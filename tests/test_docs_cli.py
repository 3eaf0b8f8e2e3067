"""``tarneeb rules``: the same generated rules in a terminal."""

from __future__ import annotations

import json

import pytest

from tarneeb.cli import main
from tarneeb.core.spec import rulesets
from tarneeb.docgen import rulebook as docgen
from tarneeb.i18n import tables


@pytest.mark.parametrize("rid", list(rulesets()))
@pytest.mark.parametrize("fmt", ["txt", "md"])
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_rules_prints_every_clause(rid: str, fmt: str, lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", rid, "--format", fmt, "--lang", lang]) == 0
    out = capsys.readouterr().out
    rs = rulesets()[rid]
    for cid in rs.clauses:
        assert cid in out
    first = next(iter(rs.clauses))
    if fmt == "md":
        assert tables.clause_text(rs, first, lang) in out
    for s in docgen.ruleset_doc(rid, lang).sections:
        assert s.title in out
    for o in rs.options:
        assert o.name in out


def test_rules_json_matches_the_generator(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "classic", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data.pop("numbering").startswith("seats 0-3")  # what its numbers count, as every --json says
    assert data == json.loads(json.dumps(docgen.ruleset_doc("classic", "en").to_json()))
    assert [c["id"] for s in data["sections"] for c in s["clauses"]] == docgen.ruleset_doc("classic").clause_ids()


def test_rules_unknown_ruleset_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "no-such-ruleset"]) == 2
    err = capsys.readouterr().err
    assert "unknown ruleset" in err and "card-kings-41" in err


_OPTIONS_HEADING = {"md": "## {}", "txt": "{}", "html": "<h2>{}</h2>"}


@pytest.mark.parametrize("fmt", ["md", "txt", "html"])
@pytest.mark.parametrize("lang", ["en", "ar"])
def test_rules_cite_a_source_once_above_the_clauses_that_share_it(fmt: str, lang: str,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """As on the docs pages: a source line above each run of clauses that share it, not under every clause (27
    times on one page); in Arabic the citation is the Arabic one (the html sheet wrote it in English)."""
    import html
    import re

    for rid in rulesets():
        assert main(["rules", rid, "--format", fmt, "--lang", lang]) == 0
        out = capsys.readouterr().out
        doc = docgen.ruleset_doc(rid, lang)
        options = doc.labels["options"]
        rules_part = out.split(_OPTIONS_HEADING[fmt].format(options.upper() if fmt == "txt" else options))[0]
        plain = html.unescape(re.sub(r"<[^>]+>|[\u2066-\u2069\u200f]", "", rules_part))
        runs = [src for s in doc.sections for src, _ in docgen.source_runs(doc, s)]
        assert plain.count(f"{doc.labels['source']}:") == len(runs) < len(doc.clause_ids()), rid
        if fmt != "txt":  # txt wraps a long citation over two lines
            assert all(src in plain for src in runs), rid
        if lang == "ar":
            assert 'section "' not in out and "قسم «" in out, rid
