"""``tarneeb rules``: the same generated rules in a terminal."""

from __future__ import annotations

import json

import pytest

from tarneeb.cli import main
from tarneeb.core.spec import rulesets
from tarneeb.docgen import rulebook as docgen


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
        assert docgen.clause_text(rs, first, lang) in out
    for s in docgen.ruleset_doc(rid, lang).sections:
        assert s.title in out
    for o in rs.options:
        assert o.name in out


def test_rules_json_matches_the_generator(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "classic", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data == json.loads(json.dumps(docgen.ruleset_doc("classic", "en").to_json()))
    assert [c["id"] for s in data["sections"] for c in s["clauses"]] == docgen.ruleset_doc("classic").clause_ids()


def test_rules_unknown_ruleset_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "no-such-ruleset"]) == 2
    err = capsys.readouterr().err
    assert "unknown ruleset" in err and "card-kings-41" in err
