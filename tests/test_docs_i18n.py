"""Every clause of every ruleset has an English and an Arabic statement; the generator groups them by phase."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tarneeb.core.spec import rulesets, spec_dir
from tarneeb.docgen import rulebook as docgen
from tarneeb.errors import SpecError
from tarneeb.i18n import tables

ARABIC = re.compile(r"[\u0600-\u06FF]")


@pytest.mark.parametrize("lang", tables.LANGS)
def test_no_clause_lacks_a_language(lang: str) -> None:
    assert docgen.missing_texts(lang) == []


def test_no_stale_translation_keys() -> None:
    assert docgen.unknown_texts("ar") == []


@pytest.mark.parametrize("rid", list(rulesets()))
def test_arabic_statements_are_arabic(rid: str) -> None:
    rs = rulesets()[rid]
    for cid in rs.clauses:
        text = tables.clause_text(rs, cid, "ar")
        letters = len(ARABIC.findall(text))
        latin = len(re.findall(r"[A-Za-z]", text))
        assert letters > latin, f"{rid}:{cid} is not mostly Arabic: {text!r}"
    for key, _ in docgen.SECTIONS:
        assert ARABIC.search(docgen.section_title("ar", key)), key
    for key in docgen.LABELS_EN:
        assert ARABIC.search(docgen.label("ar", key)), key


@pytest.mark.parametrize("rid", list(rulesets()))
@pytest.mark.parametrize("lang", tables.LANGS)
def test_doc_holds_every_clause_once_in_hand_order(rid: str, lang: str) -> None:
    d = docgen.ruleset_doc(rid, lang)
    ids = d.clause_ids()
    assert sorted(ids) == sorted(rulesets()[rid].clauses)
    order = [k for k, _ in docgen.SECTIONS]
    keys = [s.key for s in d.sections]
    assert keys == sorted(keys, key=order.index)
    assert "other" not in keys, "a clause id fell outside the phases of a hand"


def test_section_of_places_the_phases() -> None:
    assert docgen.section_of("seats.partners") == "seats-deal"
    assert docgen.section_of("bid.total") == "redeal"
    assert docgen.section_of("auction.all-pass") == "redeal"
    assert docgen.section_of("play.direction") == "seats-deal"
    assert docgen.section_of("tie.both-qualify") == "ties"
    assert docgen.section_of("something.new") == "other"


def test_missing_arabic_clause_is_a_located_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spec = tmp_path / "spec"
    shutil.copytree(spec_dir(), spec)
    ar = spec / "i18n" / "ar.toml"
    lines = ar.read_text(encoding="utf-8").splitlines()
    start = lines.index("[clause.eram-41]")
    drop = next(i for i in range(start, len(lines)) if lines[i].startswith('"bid.total"'))
    ar.write_text("\n".join(lines[:drop] + lines[drop + 1:]) + "\n", encoding="utf-8")
    monkeypatch.setenv("TARNEEB_SPEC_DIR", str(spec))
    assert docgen.missing_texts("ar") == ["eram-41:bid.total"]
    with pytest.raises(SpecError, match=r"clause\.eram-41\.bid\.total"):
        docgen.ruleset_doc("eram-41", "ar")
