"""``tarneeb ruling --lang ar`` names what it rules on, as the English output does: a dispute of spec/disputes/
by its Arabic title (spec/i18n/ar_pages.toml [dispute.NAME]), a hand of a record by its match and hand, the
quick flags as such."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

from tarneeb.cli import main
from tarneeb.core.spec import spec_dir
from tarneeb.docgen.pages_i18n import page_text

DISPUTES = sorted((spec_dir() / "disputes").glob("*.toml"))
MARKS = re.compile("[\u2066-\u2069\u200e\u200f]")


def _plain(text: str) -> str:
    return MARKS.sub("", text)


@pytest.mark.parametrize("path", DISPUTES, ids=lambda p: p.stem)
@pytest.mark.parametrize("explain", [False, True], ids=["short", "explain"])
def test_arabic_ruling_names_the_dispute_by_its_arabic_title(path: Path, explain: bool,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    title_ar = page_text("dispute", path.stem, "title")
    assert title_ar, f"spec/i18n/ar_pages.toml has no [dispute.{path.stem}] title"
    title_en = tomllib.loads(path.read_text(encoding="utf-8"))["title"]
    assert main(["ruling", str(path), "--lang", "ar", *(["--explain"] if explain else [])]) == 0
    out = _plain(capsys.readouterr().out)
    head = "\n".join(out.splitlines()[:2])
    assert title_ar in head, head
    assert title_en not in out  # the Arabic title, not the English one beside it


def test_arabic_ruling_json_carries_the_arabic_title(capsys: pytest.CaptureFixture[str]) -> None:
    path = spec_dir() / "disputes" / "tie-equal-combined.toml"
    assert main(["ruling", str(path), "--lang", "ar", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    title_ar = page_text("dispute", "tie-equal-combined", "title")
    assert out["title_ar"] == title_ar
    assert title_ar in _plain(out["text_ar"]).splitlines()[0]


def test_arabic_ruling_json_carries_the_arabic_headline(capsys: pytest.CaptureFixture[str]) -> None:
    """``--json --lang ar`` carries the Arabic headline, as the web referee's ``rule_dict`` gives it in Arabic."""
    from tarneeb.ruling import load_situation, resolve
    from tarneeb.ruling.arabic import headline_ar

    path = spec_dir() / "disputes" / "tie-equal-combined.toml"
    assert main(["ruling", str(path), "--lang", "ar", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["headline"] == headline_ar(resolve(load_situation(path))), out["headline"]


def test_arabic_ruling_from_flags_says_so_in_arabic(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ruling", "winner", "--scores", "41,50,10,1", "--ruleset", "card-kings-41", "--lang", "ar"]) == 0
    first = _plain(capsys.readouterr().out).splitlines()[0]
    assert "from the command line" not in first
    assert "سطر الأوامر" in first, first


def test_a_situation_file_of_ones_own_keeps_its_title(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file that is not one of the disputes (even under a dispute's name) keeps the title it was given."""
    src = (spec_dir() / "disputes" / "tie-equal-combined.toml").read_text(encoding="utf-8")
    mine = tmp_path / "tie-equal-combined.toml"
    mine.write_text(src.replace('title = "Both teams qualify: equal combined, different top scores"',
                                'title = "خلاف السهرة عند أبو سمير"'), encoding="utf-8")
    assert main(["ruling", str(mine), "--lang", "ar"]) == 0
    first = _plain(capsys.readouterr().out).splitlines()[0]
    assert "خلاف السهرة عند أبو سمير" in first, first
    assert page_text("dispute", "tie-equal-combined", "title") not in first
