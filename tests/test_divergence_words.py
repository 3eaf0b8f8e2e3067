"""What ``verify`` and ``fuzz`` print of a divergence, in words: no list syntax, every clause id beside its rule's
name, values by player (counted 1 to 4) or by team; the JSON keeps the record's own forms (seats 0-3, lists).

The records are the mini engine's, each mutant carrying one rule bug (as tests/test_mutants.py uses them), so
every kind of report a buggy engine draws is read here as a person reads it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tarneeb.cli import main
from tarneeb.core.sources import rule_name, rule_words
from tarneeb.records import Divergence, Report, verify_paths
from tarneeb.records.format import claim_words

ENGINE = Path(__file__).resolve().parents[1] / "examples/mini_engine/mini_engine.py"

# mutant -> (ruleset, options, self-play matches, share of them started part-way): a bug of each kind of field
# (scores, the turned card, the bidding, the play, the next dealer), each caught in a few matches
MUTANTS: dict[str, tuple[str, dict[str, Any], int, float]] = {
    "team-tricks": ("eram-41", {}, 3, 0.5),
    "failed-pays": ("bsfyi-41", {}, 6, 0.5),
    "sorted-reveal": ("eram-41", {}, 2, 0.0),
    "redeal-dealer": ("card-kings-41", {}, 3, 0.0),
    "pass-41": ("tarneeb-400", {}, 2, 0.0),
    "total-12": ("card-kings-41", {}, 1, 0.0),  # a redeal the rules do not make: the rules' value is none
    "no-follow-void-trump": ("classic", {"must_trump": True}, 2, 0.0),
}

# list syntax: "[5, 3, 6, -3]", "[7]", "[]", "['AS', 'KS']", "[[...", and the old "[clause ID ...]"; not a field's
# index ("tricks[4]") nor a citation in brackets ("[the trick-winner rule (play.winner), from ...]")
_ITEM = r"""(?:-?\d+|\?|'[^']*'|"[^"]*"|None)"""
LIST = re.compile(rf"\[clause |(?<![\w\]])\[(?:{_ITEM}(?:, {_ITEM})*)?\]|\[\[")
TOKEN = re.compile(r"(?<![\w.-])[a-z][a-z0-9_-]*(?:\.[a-z0-9_-]+)+(?![\w-])")


def bad_words(text: str) -> list[str]:
    """What a person should not read in ``text``: list syntax, JSON's null, and each clause id not beside its rule's name
    (a known id said as often as its ``rule_words`` are, else some occurrence stands alone)."""
    out = [m[0] for m in LIST.finditer(text)] + re.findall(r"\bnull\b", text)  # JSON's word for none
    for cid in sorted({m[0].rstrip(".") for m in TOKEN.finditer(text)}):
        if rule_name(cid) == f"rule {cid}":
            continue  # not a clause id (a file name such as games.jsonl)
        alone = len(re.findall(rf"(?<![\w.-]){re.escape(cid)}(?![\w-])", text)) - text.count(rule_words(cid))
        if alone:
            out.append(f"{cid} alone {alone} time(s)")
    return out


def _selfplay(mutant: str, rid: str, opts: dict[str, Any], matches: int, part_way: float, out: Path) -> None:
    args = [sys.executable, str(ENGINE), "--mutant", mutant, "selfplay", "--ruleset", rid, "--matches", str(matches),
            "--seed", "1", "--out", str(out), "--part-way", str(part_way)]
    args += [f"--option={k}={str(v).lower()}" for k, v in opts.items()]
    subprocess.run(args, check=True, timeout=120)


def test_the_check_finds_what_the_old_wording_said() -> None:
    """The check itself: the report as verify wrote it before (lists, a bare clause id) is refused."""
    old = ('theirs.jsonl:2: match 1:0 hand 1: deltas: record claims [5, 3, 6, -3], the rules give [2, 3, 3, -3] '
           '[clause score.individual (ERAM CARDS, Syrian Tarneeb 41 rules page (untitled), section "Scoring")]')
    assert bad_words(old) == ["[5, 3, 6, -3]", "[2, 3, 3, -3]", "[clause ", "score.individual alone 1 time(s)"]
    assert bad_words("hands: the record says [['AS', 'KS'], []]") == ["[[", "[]"]
    assert bad_words("deltas: cause failed-bid-paid-to-opponents [clause score.individual]: fits 15 of 15 hands")
    assert not bad_words(f"tricks[4].cards[1]: ... [{rule_words('score.individual')}, from ERAM CARDS, 41], games.jsonl")


@pytest.mark.parametrize("mutant", list(MUTANTS))
def test_verify_says_a_buggy_engines_records_in_words(mutant: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    rid, opts, matches, part_way = MUTANTS[mutant]
    out = tmp_path / "games.jsonl"
    _selfplay(mutant, rid, opts, matches, part_way, out)
    assert main(["verify", str(out)]) == 1
    text = capsys.readouterr().out.split("then verify under it with --ruleset FILE. The file:")[0]  # then TOML
    assert "divergences by cause" in text and not bad_words(text), (bad_words(text), text)
    reps: list[Report] = []
    verify_paths([str(out)], jobs=1, on_report=reps.append)
    divs = [r for r in reps if isinstance(r, Divergence)]
    assert divs and all(d.text().split("\n")[0] in text for d in divs), text
    for d in divs:  # a list by seat is said by player (counted from 1) or by team; the JSON keeps the list
        if d.claimed.startswith("["):
            assert claim_words(d.claimed).startswith(("player 1 ", "team 1 ")), d.text()
            assert f"the record says {claim_words(d.claimed)}, the rules give" in d.text()
            assert d.to_json()["claimed"] == d.claimed


@pytest.mark.parametrize("mutant", ["team-tricks", "sorted-reveal", "no-follow-void-trump"])
def test_fuzz_says_its_divergence_in_words(mutant: str, capsys: pytest.CaptureFixture[str]) -> None:
    rid, opts, *_ = MUTANTS[mutant]
    engine = f"{sys.executable} {ENGINE} --mutant {mutant}"
    assert main(["fuzz", "--engine", engine, "--ruleset", rid, "--hands", "400", "--seed", "0",
                 *[f"--option={k}={str(v).lower()}" for k, v in opts.items()]]) == 1
    report = capsys.readouterr().out.split("reproducer (game record")[0]  # then the record itself (JSON lines)
    assert "divergence after " in report and not bad_words(report), (bad_words(report), report)
