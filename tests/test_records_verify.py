"""The verifier's weighing of clean hands (Summary.refuted): done late, when the summary is read, and only where
the diagnosis asks (a file with divergences of the field the hands bear on), with the very counts weighing every
clean hand as it is checked gives."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

import tarneeb.records.verify as verify
from tarneeb import load_rules
from tarneeb.play.simulate import simulate
from tarneeb.records import match_dicts, write_match
from tarneeb.records.verify import Summary, Verifier

ENGINE = Path(__file__).resolve().parents[1] / "examples/mini_engine/mini_engine.py"


def _wrong_deltas(path: Path, matches: int, seed: str) -> None:
    """Classic matches (random play: many bids of 13 and sweeps, the clean hands the scoring hypotheses are
    weighed on) whose every third played deal claims one point too many for its first seat."""
    with open(path, "wb") as f:
        for res in simulate(load_rules("classic"), matches, seed, "random", 200):
            for d in match_dicts(res.match, f"classic:{res.seed}"):
                if d.get("type") == "hand" and "deltas" in d and d["hand"] % 3 == 1:
                    d["deltas"][0] += 1
                    d["scores"][0] += 1
                f.write(json.dumps(d).encode() + b"\n")


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """A clean file (auction and individual), one whose engine plays deals from a bid total of 10 (the bid total
    diverges), one with wrong score changes (the deltas diverge)."""
    tmp = tmp_path_factory.mktemp("weigh")
    clean, total, deltas = tmp / "clean.jsonl", tmp / "total.jsonl", tmp / "deltas.jsonl"
    with open(clean, "wb") as f:
        for rid in ("classic", "bsfyi-41"):
            for res in simulate(load_rules(rid), 6, f"weigh:{rid}", "heuristic", 200):
                write_match(f, res.match, f"{rid}:{res.seed}")
    subprocess.run([sys.executable, str(ENGINE), "--mutant", "total-10", "selfplay", "--ruleset", "bsfyi-41",
                    "--matches", "4", "--seed", "weigh", "--out", str(total)], check=True, timeout=120)
    _wrong_deltas(deltas, 2, "weigh:deltas")
    return [str(clean), str(total), str(deltas)]


def _summary(paths: list[str], whole_files: bool) -> Summary:
    v = Verifier(whole_files=whole_files)
    for path in paths:
        with open(path, "rb") as f:
            for n, line in enumerate(f, start=1):
                v.feed_line(line, len(line), path, n)
    return v.summary


def test_clean_hands_are_weighed_only_where_their_file_diverges(files: list[str]) -> None:
    every, late = _summary(files, False), _summary(files, True)
    asked = {(k[0], k[2]) for k in every.evidence}
    clean, total, deltas = files
    # not vacuous: each file has clean hands to weigh, and the diverging ones diverge on the field weighed
    assert {k[0] for k in every.refuted} == set(files)
    assert (total, "redeal") in asked and (deltas, "deltas") in asked and not any(f == clean for f, _ in asked)
    assert late.refuted == Counter({k: n for k, n in every.refuted.items() if (k[0], k[2]) in asked})
    assert not any(k[0] == clean for k in late.refuted)
    assert late.to_json() == every.to_json()
    assert late.to_json()["diagnosis"]  # the diagnosis the weighing serves is there


def test_the_hands_kept_are_weighed_past_the_bound(files: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    every = _summary(files, False)
    monkeypatch.setattr(verify, "LATE_MAX", 7)
    bounded = _summary(files, False)
    assert bounded.refuted == every.refuted
    assert _summary(files, True).to_json() == every.to_json()
