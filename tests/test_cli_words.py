"""Human output of the self-play commands speaks as people do: right plurals, no internal field names (issue 25)."""

from __future__ import annotations

import pytest

from tarneeb.cli import main


def test_one_match_is_one_match_and_one_redeal_is_one_redeal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--ruleset", "classic", "--matches", "1", "--seed", "x"]) == 0
    out = capsys.readouterr().out
    assert "1 match," in out and "1 matches" not in out, out
    assert " 1 redeals" not in out and " 1 hands" not in out, out


def test_compare_says_what_changed_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "classic", "--matches", "20", "--compare", "kaboot=26"]) == 0
    line = next(ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("change: "))
    assert "_" not in line and "hands per match" in line and "points" in line, line
