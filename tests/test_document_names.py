"""A document is named as readers know it (its publisher: Card Kings, bs.fyi, the online table, ERAM CARDS), never
by its file number: no "as 000 says", "Assumption from 001", «كما تقول الوثيقة 000» in what a person reads.

The file numbers stay where they are ids: file names (``001_ca76...txt``), example ids (``001-value-2``) and
reading ids (``from-001``), which the pattern below leaves alone (a number joined to an id by ``_`` or ``-``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tarneeb.cli import build_parser, main
from tarneeb.core.spec import rulesets
from tarneeb.docgen.site import site_pages

ROOT = Path(__file__).resolve().parents[1]
HOUSE = sorted(str(p) for p in (ROOT / "spec" / "house-rules").glob("*.toml"))
RULESETS = [*rulesets(), *HOUSE]

# 000..003 standing alone: not part of a file name, an id, a path or a larger number (1,000)
BARE_NUMBER = re.compile(r"(?<![A-Za-z0-9_./,-])00[0-3](?![A-Za-z0-9_-])")
BIDI = re.compile("[\u200e\u200f\u2066-\u2069]")  # the direction marks and isolates around Latin runs


def bare_numbers(text: str) -> list[str]:
    plain = BIDI.sub("", text)
    return [plain[max(0, m.start() - 40):m.end() + 20] for m in BARE_NUMBER.finditer(plain)]


def test_the_pattern_finds_a_number_used_as_a_name_and_leaves_ids_alone() -> None:
    assert bare_numbers("Chance picks the first dealer (as 000 says explicitly).")
    assert bare_numbers("Assumption from 001's table: 2-4 at face value")
    assert bare_numbers("كما في الوثيقة 000 و003؟")
    assert bare_numbers("افتراض مأخوذ من الوثيقة \u2066001\u2069: الطلب")
    assert not bare_numbers("taken: ``from-001``; example 001-value-2; file 001_ca76ade5eedc2a7c.txt; 1,000 matches")


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("rid", RULESETS, ids=lambda r: Path(r).stem)
def test_show_and_rules_name_documents_by_publisher(rid: str, lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    assert main(["show", rid, "--lang", lang]) == 0
    outputs.append(("show", capsys.readouterr().out))
    for fmt in ("txt", "md", "rst", "html"):
        assert main(["rules", rid, "--lang", lang, "--format", fmt]) == 0
        outputs.append((f"rules --format {fmt}", capsys.readouterr().out))
    for what, out in outputs:
        assert out.strip(), what
        assert bare_numbers(out) == [], (what, lang)


def test_generated_doc_pages_name_documents_by_publisher() -> None:
    pages = site_pages(cli_parser=build_parser())
    assert any(rel.startswith("ar/") for rel in pages) and "disputes.rst" in pages
    found = {rel: bare_numbers(text) for rel, text in pages.items()}
    assert {rel: hits for rel, hits in found.items() if hits} == {}


def test_the_400_modes_borrowed_numbers_are_said_to_come_from_bs_fyi(capsys: pytest.CaptureFixture[str]) -> None:
    """Where the texts read "Assumption from 001" and «مأخوذ من الوثيقة 001» they name the publisher (in Arabic, as
    a player says it: «here we go by bs.fyi»)."""
    for lang, words in (("en", "Assumption from bs.fyi:"), ("ar", "هون منمشي على بي إس دوت فاي:")):
        assert main(["rules", "tarneeb-400", "--lang", lang]) == 0
        assert words in " ".join(BIDI.sub("", capsys.readouterr().out).split()), lang
