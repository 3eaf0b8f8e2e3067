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
    assert (f"  --reading 400-numbers=face-value: suggested: verified again under it, {f} loses {c.removes} of its "
            f"{c.before} divergences and gains none") in out
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
    assert (f"  --reading 400-numbers=face-value: not suggested: verified again under it, {f} loses {c.removes} of "
            f"its {c.before} divergences and gains {c.creates}") in out


# ------------------------------------------------------------------ house files (a rule a club's file can set)

MINI_ENGINE = Path(__file__).resolve().parents[1] / "examples/mini_engine/mini_engine.py"


def _mini(mutant: str, rid: str, out: Path, *more: str) -> None:
    """One match of the mini engine with bug ``mutant`` under ``rid`` (seed 2), its record at ``out``."""
    import subprocess
    import sys

    subprocess.run([sys.executable, str(MINI_ENGINE), "--mutant", mutant, "selfplay", "--ruleset", rid, *more,
                    "--matches", "1", "--seed", "2", "--out", str(out)], check=True, timeout=120)


def _verify_out(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    rc = main(["verify", *argv, "--jobs", "1"])
    return rc, capsys.readouterr().out


def _house_file_clears(f: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], base: str, sets: str,
                       cause: str) -> str:
    """verify on ``f`` prints the house file it offers, --write-house writes exactly that text (the --json field
    too), and the records verify clean under it, with no warning per match. The file's text."""
    rc, out = _verify_out(capsys, str(f))
    assert rc == 1
    offered = (f"  A house file extending {base} that sets {sets} (for the cause {cause}) is offered: verified again under it, "
               f"{f} loses ")
    assert offered in out and "divergences and gains none." in out, out[-3000:]
    printed = out.split("then verify under it with --ruleset FILE. The file:\n", 1)[1]
    text = "".join(ln[6:] + "\n" for ln in printed.splitlines())  # the file, as printed (indented by 6)
    house = tmp_path / "club.toml"
    rc, out = _verify_out(capsys, str(f), "--write-house", str(house))
    assert rc == 1 and f"  It is written to {house}: verify under it with --ruleset {house}." in out
    assert house.read_text(encoding="utf-8") == text
    rc, out = _verify_out(capsys, str(f), "--json")
    summary = orjson.loads(out.splitlines()[-1])
    assert summary["house_file"] == text and summary["house_files_checked"][0]["suggested"] is True
    rc, out = _verify_out(capsys, str(f), "--ruleset", str(house))
    assert rc == 0, out[-2000:]
    assert out.startswith("clean: ") and "; 0 divergences, 0 unreadable records, 0 warnings\n" in out, out[-2000:]
    assert "warning" not in out.split("\n", 1)[1] and out.count("\n") == 2, out  # one line says it, none per match
    return text


def test_records_of_a_failed_13_paying_double_get_the_house_file_that_clears_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The classic engine of a club that pays the defenders double on a failed 13 (a variant no rule document
    names): verify offers a complete house file on the first try, with its own [[source]] and the clause that
    states the variant, and the records are clean under it."""
    f = tmp_path / "f13.jsonl"
    _write(replace(load_rules("classic"), failed13_defenders="double"), range(8), f)
    text = _house_file_clears(f, tmp_path, capsys, "classic", 'score.failed13_defenders to "double"',
                              "failed-13-pays-defenders-double")
    assert '[params]\nscore.failed13_defenders = "double"\n' in text
    assert '[[clause]]\nid = "score.standard"\n' in text and 'source = "classic-house-sheet"' in text


def test_records_of_another_bid_total_threshold_get_the_house_file_that_clears_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The mini engine playing Card Kings' deals from a bid total of 12 (its rules say 11)."""
    f = tmp_path / "t12.jsonl"
    _mini("total-12", "card-kings-41", f)
    text = _house_file_clears(f, tmp_path, capsys, "card-kings-41", "bid.total_min to 12", "bid-total-threshold-12")
    assert "[params]\nbid.total_min = 12\n" in text


def test_a_look_alike_failed_bid_paying_double_gets_no_house_file(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Look-alike: an engine paying the defenders double on every failed bid, not only on 13. Its hands of 13 fit
    the variant a house file states, the others do not: no house file is offered."""
    from tarneeb.core import rules as R

    plain = R.team_deltas

    def doubled(rules: Rules, contract: int, bt: int, tricks: tuple[int, int]) -> tuple[int, int]:
        d = list(plain(rules, contract, bt, tricks))
        if tricks[bt] < contract:
            d[1 - bt] *= 2
        return d[0], d[1]

    f = tmp_path / "all.jsonl"
    R.team_deltas = doubled  # type: ignore[assignment]
    try:
        _write(load_rules("classic"), range(8), f)
    finally:
        R.team_deltas = plain
    rc, out = _verify_out(capsys, str(f), "--write-house", str(tmp_path / "club.toml"))
    assert rc == 1 and "failed-13-pays-defenders-double on " in out, out[-3000:]  # it fits some hands
    assert "house files for what the diagnosis names" not in out and "The file:" not in out
    assert f"Nothing was written to {tmp_path / 'club.toml'}: no house file is offered." in out
    assert not (tmp_path / "club.toml").exists()


def test_a_threshold_the_record_headers_contradict_gets_no_house_file(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Look-alike: bs.fyi records whose engine plays deals from a total of 12 while every header names option
    bid_total_min = 11. A house file's default cannot change what a header names: verified again under it, the
    records lose no divergence, so it is not offered, and verify says what would check them under 12."""
    f = tmp_path / "b12.jsonl"
    _mini("total-12", "bsfyi-41", f, "--option", "bid_total_min=11")
    assert orjson.loads(f.read_bytes().splitlines()[0])["options"] == {"bid_total_min": 11}
    rc, out = _verify_out(capsys, str(f))
    assert rc == 1 and "cause bid-total-threshold-12" in out, out[-3000:]
    assert ("  A house file extending bsfyi-41 that sets bid.total_min to 12 (for the cause bid-total-threshold-12) is not "
            f"offered: verified again under it, {f} loses no divergence and gains none; a record header that names an "
            "option's value overrides a house file's default; --option bid_total_min=12 would override it.") in out
    assert "The file:" not in out
    rc, out = _verify_out(capsys, str(f), "--option", "bid_total_min=12")
    assert rc == 0, out[-2000:]


def test_a_hint_of_one_hand_gets_the_house_file_too(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A single diverging hand names no cause, only a hint; the house file for it is tried and offered alike."""
    whole = tmp_path / "whole.jsonl"
    _write(replace(load_rules("classic"), failed13_defenders="double"), range(1), whole)
    lines = whole.read_bytes().splitlines()
    reps: list[Any] = []
    verify_paths([str(whole)], jobs=1, on_report=reps.append)
    first = min(r.line for r in reps if report_key(r) is not None)
    f = tmp_path / "one.jsonl"
    f.write_bytes(b"\n".join(lines[:first]) + b"\n")  # up to the first diverging hand
    rc, out = _verify_out(capsys, str(f))
    assert rc == 1 and "no cause named, a hint: failed-13-pays-defenders-double" in out, out[-2000:]
    assert ('that sets score.failed13_defenders to "double" (for the hint failed-13-pays-defenders-double) is '
            f"offered: verified again under it, {f} loses 1 of its 1 divergence and gains none.") in out
    house = tmp_path / "club.toml"
    assert _verify_out(capsys, str(f), "--write-house", str(house))[0] == 1
    assert _verify_out(capsys, str(f), "--ruleset", str(house))[0] == 0
