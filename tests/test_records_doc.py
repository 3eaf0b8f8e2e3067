"""The record examples of spec/records/README.md (cancelled deals, partial logs) are what `tarneeb verify` says."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tarneeb.cli import main
from tarneeb.core.spec import spec_dir

BLOCK = re.compile(r'<!-- verify: exit (\d)(?:, "([^"]*)")? -->\n```jsonl\n(.*?)```', re.S)


def _blocks() -> list[tuple[int, str, str]]:
    text = (spec_dir() / "records" / "README.md").read_text()
    return [(int(code), msg or "", body) for code, msg, body in BLOCK.findall(text)]


def test_the_readme_has_the_examples() -> None:
    blocks = _blocks()
    assert len(blocks) >= 3
    assert any('"redeal":"deal.weak-redeal"' in b for _, _, b in blocks)
    assert any('"redeal":"bid.total"' in b for _, _, b in blocks)
    assert any('"redeal":"auction.all-pass"' in b for _, _, b in blocks)


@pytest.mark.parametrize("code,msg,body", _blocks())
def test_each_example_verifies_as_documented(code: int, msg: str, body: str, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "example.jsonl"
    f.write_text(body)
    assert main(["verify", str(f), "--jobs", "1"]) == code
    out = capsys.readouterr().out
    assert msg in out, out
