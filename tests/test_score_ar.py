"""``tarneeb score FILE --lang ar`` (tarneeb.cli.score_ar): the Arabic sheet carries every fact of the English one,
hand by hand (every number, every player's name, each made or failed bid, the rule that decides each line), names
the players by their names, keeps ids in its one technical line, and reads right-to-left."""

from __future__ import annotations

import json
import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tarneeb import load_rules
from tarneeb.cli import main
from tarneeb.i18n.arabic import FSI, LRI, PDI, RLI
from tarneeb.play.simulate import play_match
from tarneeb.sheet.words_ar import rule_name as rule_name_ar

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "spec" / "sheets" / "examples").glob("*.json"))
_ISOLATED = re.compile(f"[{FSI}{LRI}{RLI}][^{PDI}]*{PDI}")
_RULE_ID = re.compile(r"\brule \(([a-z0-9]+\.[a-z0-9.-]+)\)")  # "by the target rule (win.target)"
_NUMBER = re.compile(r"(?<![\d.])[-+]?\d+(?![\d.])")  # «بـ7»: a number after an Arabic letter counts
_TECH = "للمطوّرين:"


def _plain(text: str) -> str:
    return re.sub(f"[{FSI}{LRI}{RLI}{PDI}]", "", text)


def _blocks(lines: list[str], hand: re.Pattern[str]) -> list[list[str]]:
    """The head, the table, each hand (from its heading line) and the outcome, as lists of lines."""
    out: list[list[str]] = [[]]
    for ln in lines:
        if not ln.strip() or hand.match(ln):
            out.append([] if not ln.strip() else [ln])
        else:
            out[-1].append(ln)
    return [b for b in out if b]


def _numbers(text: str) -> Counter[str]:
    """The numbers a text states (a sign kept), words with a Latin letter aside (ids, files, option labels)."""
    return Counter(_NUMBER.findall(" ".join(w for w in text.split() if not re.search("[A-Za-z]", w))))


def sheet_ar_problems(en: str, ar: str, names: list[str]) -> list[str]:
    """What the Arabic sheet ``ar`` leaves out of the English ``en`` or says otherwise, block by block."""
    out: list[str] = []
    raw = [ln for ln in ar.splitlines() if ln.strip()]
    out += [f"not a right-to-left line: {ln!r}" for ln in raw if not (ln.startswith(RLI) and ln.endswith(PDI))]
    lines = [_plain(ln) for ln in ar.splitlines()]
    tech = [ln for ln in lines if ln.startswith(_TECH)]
    if len(tech) != 1 or lines[-1] != tech[0]:
        return out + [f"not one technical line at the end: {tech}"]
    out += [f"Latin outside a name, a file or the technical line: {ln!r}" for ln in ar.splitlines()[:-1]
            if re.search("[A-Za-z]", _ISOLATED.sub("", ln[1:-1] if ln.startswith(RLI) else ln))]
    en_blocks = _blocks(en.splitlines(), re.compile(r"Hand \d+, dealt by "))
    ar_blocks = _blocks(lines[:-1], re.compile(r"اليد \d+، الموزّع "))
    if len(en_blocks) != len(ar_blocks):
        return out + [f"{len(ar_blocks)} blocks, the English has {len(en_blocks)}"]
    for e, a in zip(en_blocks, ar_blocks, strict=True):
        where, e_text, a_text = e[0][:40], "\n".join(e), "\n".join(a)
        missing = _numbers(e_text) - _numbers(a_text)
        if missing:
            out.append(f"{where}: numbers missing: {sorted(missing.elements())}")
        for name in names:
            if e_text.count(name) != a_text.count(name):
                out.append(f"{where}: {name} said {a_text.count(name)} times, in English {e_text.count(name)}")
        said = {"made": ("الطلب انجاب", r": made\b"), "failed": ("الطلب ما انجاب", r": failed\b"),
                "thrown in": ("انلغت", r"\bthrown in\b")}
        for what, (word, pattern) in said.items():
            if len(re.findall(pattern, e_text)) != a_text.count(word):
                out.append(f"{where}: {what} said {a_text.count(word)} times, in English "
                           f"{len(re.findall(pattern, e_text))}")
        for rule, n in Counter(_RULE_ID.findall(e_text)).items():
            if a_text.count(f"حسب {rule_name_ar(rule)}") < n or rule not in tech[0]:
                out.append(f"{where}: the rule {rule} not named {n} times")
    return out


def _run(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[str, str]:
    assert main(["score", str(path)]) == 0
    en = capsys.readouterr().out
    assert main(["score", str(path), "--lang", "ar"]) == 0
    return en, capsys.readouterr().out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_each_example_in_arabic_carries_every_fact(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    en, ar = _run(capsys, path)
    assert sheet_ar_problems(en, ar, json.loads(path.read_text(encoding="utf-8"))["players"]) == []


def _sheet(rid: str, hands: list[dict[str, Any]], **head: Any) -> dict[str, Any]:
    return {"format": "tarneeb-score-sheet", "version": 1, "ruleset": rid, "players": ["Rami", "هالة", "Sami", "دينا"],
            "first_dealer": 3, "hands": hands, **head}


SHEETS = {
    # a kaboot, then a bid of 13 made: the game won on the spot
    "bid13": _sheet("classic", [{"contract": {"seat": 1, "bid": "8"}, "bidding_team_tricks": 13},
                                {"calls": ["pass", "pass", "13", "pass"], "trump": "H", "bidding_team_tricks": 13}]),
    # Egyptian contracts with their strains, a doubled kaboot, a failed 13 no trump, the other team's kaboot
    "egyptian": _sheet("classic", [{"calls": ["8H", "pass", "pass", "pass"], "bidding_team_tricks": 13},
                                   {"contract": {"seat": 3, "bid": "13N"}, "bidding_team_tricks": 12},
                                   {"contract": {"seat": 0, "bid": "7S"}, "bidding_team_tricks": 0}],
                       options={"kaboot": "double", "bid13": "26", "egyptian": True}),
    # all four pass, then the next dealer deals: no winner yet, the next dealer said
    "all-pass": _sheet("classic", [{"calls": ["pass", "pass", "pass", "pass"]},
                                   {"calls": ["7", "pass", "pass", "pass"], "trump": "C", "bidding_team_tricks": 6}]),
    # a made 10 wins at once; a bid worth more than its number
    "made-bid": _sheet("bsfyi-41", [{"bids": [5, 3, 2, 3], "tricks_won": [5, 1, 2, 5]},
                                    {"bids": [2, 3, 2, 10], "tricks_won": [10, 1, 1, 1]}], options={"made_bid_wins": 10}),
    # a low bid total under eram-41: the next dealer deals
    "low-total": _sheet("eram-41", [{"bids": [2, 2, 2, 2]}, {"bids": [3, 3, 3, 2], "tricks_won": [3, 3, 4, 3]}]),
}


@pytest.mark.parametrize("name", SHEETS)
def test_sheets_of_every_kind_in_arabic_carry_every_fact(name: str, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(SHEETS[name], ensure_ascii=False), encoding="utf-8")
    en, ar = _run(capsys, path)
    assert sheet_ar_problems(en, ar, SHEETS[name]["players"]) == []


@pytest.mark.parametrize(("rid", "options"), [("classic", {"egyptian": True, "play_on": 41}),
                                              ("classic", {"auction": "continuous", "scoring": "bid-only"}),
                                              ("tarneeb-400", {"target": 61}), ("card-kings-41", {})])
def test_seeded_matches_in_arabic_carry_every_fact(rid: str, options: dict[str, Any], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    from tests.sheet_support import sheet_of_match

    m = play_match(load_rules(rid, options), "sheet-ar-0", policy="random", max_hands=30).match
    sheet = sheet_of_match(m, contract_every=2)
    sheet["options"] = options
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(sheet), encoding="utf-8")
    en, ar = _run(capsys, path)
    assert sheet_ar_problems(en, ar, sheet["players"]) == []


def test_the_check_sees_an_omission(capsys: pytest.CaptureFixture[str]) -> None:
    """The check above on an Arabic sheet that drops a hand's line, changes a number, names the wrong rule, calls a
    player by a seat number, or leaves an id in a player's line."""
    path = ROOT / "spec" / "sheets" / "examples" / "tarneeb-400.json"
    en, ar = _run(capsys, path)
    names = ["Rami", "Hala", "Sami", "Dina"]
    assert sheet_ar_problems(en, ar, names) == []
    lines = ar.splitlines()
    at = next(i for i, ln in enumerate(lines) if "قاعدة قيمة الطلبات" in ln)
    assert any("numbers" in p for p in sheet_ar_problems(en, "\n".join(lines[:at] + lines[at + 1:]), names))
    assert any("numbers" in p for p in sheet_ar_problems(en, ar.replace("بينحسب 10", "بينحسب 11", 1), names))
    assert any("score.values" in p for p in sheet_ar_problems(en, ar.replace("قاعدة قيمة الطلبات", "قاعدة الهدف"),
                                                               names))
    assert any("Hala said" in p for p in sheet_ar_problems(en, ar.replace(f"{FSI}Hala{PDI}:", "اللاعب 2:", 1), names))
    assert any("Latin" in p for p in sheet_ar_problems(en, ar.replace("قاعدة الطلوع", "win.qualify"), names))
    assert any("failed" in p for p in sheet_ar_problems(en, ar.replace("الطلب ما انجاب", "الطلب انجاب", 1), names))


def test_every_rule_has_an_arabic_name() -> None:
    """Every clause of spec/names.toml has a name in spec/i18n/ar-sheet.toml [rule_names], so that any rule core
    cites reads in Arabic; a club's own clause is «a rule of this table»."""
    clauses = tomllib.loads((ROOT / "spec" / "names.toml").read_text(encoding="utf-8"))["clause"]
    ar = tomllib.loads((ROOT / "spec" / "i18n" / "ar-sheet.toml").read_text(encoding="utf-8"))["rule_names"]
    assert sorted(set(clauses) - set(ar)) == [] and sorted(set(ar) - set(clauses)) == []
    assert rule_name_ar("club.own-rule") == "قاعدة من قواعد هالطاولة"


def test_json_and_an_impossible_entry_are_the_same_in_arabic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--json is for machines and stays as it is; the line of an impossible entry too (file, hand, field, clause)."""
    path = EXAMPLES[0]
    assert main(["score", str(path), "--json"]) == 0
    en = capsys.readouterr().out
    assert main(["score", str(path), "--json", "--lang", "ar"]) == 0
    assert capsys.readouterr().out == en
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_sheet("card-kings-41", [{"bids": [6, 2, 2, 2], "tricks_won": [6, 2, 2, 3]}])))
    assert main(["score", str(bad)]) == 1
    err = capsys.readouterr().err
    assert main(["score", str(bad), "--lang", "ar"]) == 1
    assert capsys.readouterr().err == err and "bid.excluded" in err
