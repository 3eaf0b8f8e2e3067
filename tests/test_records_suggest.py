"""Readings suggested only when they help (tarneeb.records.suggest): a reading the diagnosis names is tried on the
files again before ``verify`` suggests ``--reading``, and suggested only when it removes divergences and creates none.
"""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import orjson
import pytest

from tarneeb import Deal, Match, Phase, load_rules, random_deck
from tarneeb.cli import main
from tarneeb.core.actions import Bid
from tarneeb.core.ambiguity import with_readings
from tarneeb.core.spec import Rules, get_ruleset
from tarneeb.play.bots import POLICIES
from tarneeb.play.simulate import play_match
from tarneeb.records import match_dicts, verify_paths
from tarneeb.records.suggest import check_readings, reading_of, report_key


def _write(rules: Rules, seeds: range, path: Path, low_or_high: bool = False) -> None:
    """Seeded random matches under ``rules`` (40 deals at most each), their headers naming no reading.
    ``low_or_high``: each deal's bids either all 5 or less, or with no 5 (2, 3, 4, 6 or 7)."""
    lines = []
    for seed in seeds:
        if low_or_high:
            m = _low_or_high(rules, seed)
        else:
            m = play_match(rules, "sg", seed, "random", 40).match
        for d in match_dicts(m, f"sg:{seed}"):
            d.pop("readings", None)
            lines.append(orjson.dumps(d))
    path.write_bytes(b"\n".join(lines) + b"\n")


def _low_or_high(rules: Rules, seed: int) -> Match:
    rng = random.Random(seed)
    m = Match(rules, seed % 4)
    low = True
    while not m.is_over() and (m.phase is not Phase.DEAL or len(m.records) < 40):
        if m.phase is Phase.DEAL:
            low = rng.random() < 0.5
            m.apply(Deal(random_deck(rng)))
        elif m.phase is Phase.BIDDING:
            legal = [a for a in m.legal_actions() if isinstance(a, Bid) and a.n is not None]
            pick = [a for a in legal if (a.n or 0) <= 5] if low else [a for a in legal if a.n in (2, 3, 4, 6, 7)]
            m.apply(rng.choice(pick))
        else:
            m.apply(POLICIES["random"](m, rng))
    return m


def _checks(path: Path) -> tuple[list[dict[str, Any]], Any]:
    keys: set[Any] = set()

    def keep(rep: Any) -> None:
        k = report_key(rep)
        if k is not None:
            keys.add(k)

    s = verify_paths([str(path)], jobs=1, on_report=keep)
    return s.diagnosis(), check_readings(s.diagnosis(), keys)


def test_a_reading_is_named_from_its_id() -> None:
    assert reading_of("reading-face-value-of-400-numbers") == ("400-numbers", "face-value")
    assert reading_of("reading-bidders-only-of-defender-kaboot") == ("defender-kaboot", "bidders-only")
    assert reading_of("reading-nope-of-400-numbers") is None and reading_of("failed-bid-not-deducted") is None


def test_the_reading_an_engine_follows_is_suggested_with_the_divergences_it_removes(tmp_path: Path,
                                                                                     capsys: pytest.CaptureFixture[str]
                                                                                     ) -> None:
    f = tmp_path / "face.jsonl"
    _write(load_rules(with_readings(get_ruleset("tarneeb-400"), {"400-numbers": "face-value"})), range(3), f)
    rows, checks = _checks(f)
    assert [row["cause"] for row in rows] == ["reading-face-value-of-400-numbers"], rows
    [c] = checks
    assert (c.ambiguity, c.reading, c.suggested, c.creates) == ("400-numbers", "face-value", True, 0)
    assert c.removes == c.before == rows[0]["hands"] > 0
    assert main(["verify", str(f), "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert (f"  --reading 400-numbers=face-value: suggested: verified again under it, {f} lose {c.removes} of their "
            f"{c.before} divergences and gain none") in out
    assert "pass --reading" not in out  # no report suggests it on its own hand


def test_a_reading_that_fits_the_diverging_hands_but_breaks_others_is_not_suggested(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An engine of the 400 mode that scores a bid of 5 at face value (5, not 10) and every other bid as bs.fyi
    does, its deals bid either all low or with no 5: each diverging hand fits the face-value reading, but under it
    every hand with a bid of 6 or more diverges: it is not suggested, and the check says how many it would
    create."""
    rules = load_rules("tarneeb-400")
    values = list(rules.values)
    values[5] = 5
    f = tmp_path / "five.jsonl"
    _write(replace(rules, values=tuple(values)), range(4), f, low_or_high=True)
    rows, checks = _checks(f)
    assert [row["cause"] for row in rows] == ["reading-face-value-of-400-numbers"], rows
    [c] = checks
    assert not c.suggested and c.creates > 0 and c.removes == c.before > 0, c
    assert main(["verify", str(f), "--jobs", "1", "--json"]) == 1
    summary = orjson.loads(capsys.readouterr().out.splitlines()[-1])
    assert summary["readings_checked"] == [c.to_json()] and not summary["readings_checked"][0]["suggested"]
    assert main(["verify", str(f), "--jobs", "1"]) == 1
    out = capsys.readouterr().out
    assert (f"  --reading 400-numbers=face-value: not suggested: verified again under it, {f} lose {c.removes} of "
            f"their {c.before} divergences and gain {c.creates}") in out
