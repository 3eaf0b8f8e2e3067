"""Human output of the self-play commands speaks as people do: right plurals, no internal field names."""

from __future__ import annotations

import re

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


# ------------------------------------------------------------------ words, not Python (demo, simulate, stats)

_REPR = re.compile(r"\[[^\]\n]*,[^\]\n]*\]|\{['\"]|\['|'\]|\(\s*'")  # a list, a dict, a quoted item of either


def _clause_ids() -> set[str]:
    from tarneeb.core.spec import rulesets

    return {c for rs in rulesets().values() for c in rs.clauses}


def _bare_ids(text: str) -> list[str]:
    """Clause ids shown without their words: every id must stand in brackets after its name."""
    return [cid for cid in _clause_ids() for m in re.finditer(re.escape(cid) + r"(?![\w-])", text)
            if text[m.start() - 1:m.start()] != "(" or text[m.end():m.end() + 1] != ")"]


def test_demo_says_hands_tricks_and_scores_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--max-hands", "30"]) == 0
    out = capsys.readouterr().out
    assert not _REPR.search(out), _REPR.search(out)
    assert not _bare_ids(out), _bare_ids(out)
    assert "tricks taken: player 1 " in out and "scores: team 1 " in out and " passed" in out, out
    assert ") (" not in out.split("\n", 2)[1], out  # "Tarneeb 41 (bs.fyi) (bsfyi-41)" read as two asides
    hands = [ln for ln in out.splitlines() if ln.startswith("    player ")]
    assert hands and all(" 10" not in ln and "S: " not in ln for ln in hands), hands  # cards as in the tricks: TD


def test_simulate_says_scores_by_player_or_team_and_the_deciding_rule_by_name(
        capsys: pytest.CaptureFixture[str]) -> None:
    for rid, scores in (("classic", "final scores team 1 "), ("card-kings-41", "final scores player 1 ")):
        assert main(["simulate", "--ruleset", rid, "--matches", "2"]) == 0
        out = capsys.readouterr().out
        assert not _REPR.search(out) and not _bare_ids(out), out
        assert scores in out and "decided: 2 matches by the " in out, out


def test_stats_names_the_pass_and_the_cancelling_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", "classic", "--matches", "2"]) == 0
    out = capsys.readouterr().out
    assert "\n  pass #" in out and "0 = pass" not in out, out
    assert main(["stats", "card-kings-41", "--matches", "3"]) == 0
    out = capsys.readouterr().out
    assert not _bare_ids(out) and "deals by the bid-total rule (bid.total)" in out, out


def test_stats_json_keys_the_pass_by_name_and_says_its_numbering(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["stats", "classic", "--matches", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    bids = out["configurations"][0]["bids"]
    assert "pass" in bids and "0" not in bids, bids
    assert out["numbering"].startswith("seats 0-3"), out


def test_show_names_the_ruleset_and_its_rules_by_name_and_its_json_says_its_numbering(
        capsys: pytest.CaptureFixture[str]) -> None:
    import json

    assert main(["show", "classic"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Classic Tarneeb (online table), ruleset classic, from "), out[:200]
    assert "the follow-suit rule (play.follow)" in out and "what happens after a revoke" not in out, out
    assert "who deals first (first-dealer)" in out.lower(), out
    assert '"dealer-privilege"' not in out and "│ must_trump  │ false " in out, out  # option defaults as written
    assert main(["show", "classic", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["numbering"].startswith("seats 0-3")
