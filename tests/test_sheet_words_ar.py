"""The one Arabic of a score sheet (tarneeb.sheet.words_ar): the command's lines (``tarneeb score FILE --lang ar``) and
the score page (/ar/score/, tarneeb.serve.score) say every reason of a hand in the same words and name its rule the
same way, and they name the teams the same way."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from tests.sheet_support import sheet_of_match
from tests.test_score_ar import SHEETS

from tarneeb import load_rules
from tarneeb.cli import main
from tarneeb.i18n.arabic import RLI
from tarneeb.i18n.tables import i18n
from tarneeb.play.simulate import play_match
from tarneeb.serve.score import answer

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "spec" / "sheets" / "examples").glob("*.json"))
# seeded matches: a game won then play-on to the match (classic), low bid totals thrown in, the dealer dealing
# again, the match won (eram-41), a long unfinished individual match (tarneeb-400)
SEEDED = [("classic", {"egyptian": True, "play_on": 41}), ("tarneeb-400", {"target": 61}), ("eram-41", {})]
# a deal thrown in for a weak hand, then a contract with its trump named
WEAK = {**SHEETS["bid13"], "options": {"weak_redeal": True}, "readings": {"weak-hand": "claimed"},
        "hands": [{"redeal": "deal.weak-redeal"}, {"contract": {"seat": 2, "bid": "9"}, "trump": "D",
                                                   "bidding_team_tricks": 8}]}


def _sheet_ar(t: str) -> str:
    return str(i18n("ar")["sheet"][t])


def _prefix(key: str) -> str:
    return _sheet_ar(key).split("{")[0]


def _cli_hands(text: str) -> tuple[list[str], list[list[str]]]:
    """The command's Arabic: its lines as read (the line's isolate taken off), and each hand's reason lines."""
    lines = [ln[1:-1] if ln.startswith(RLI) else ln for ln in text.splitlines()]
    head = re.compile(_sheet_ar("hand_head").split("{")[0] + r"\d+")
    other = tuple(_prefix(k) for k in ("scores", "bids", "calls"))
    hands: list[list[str]] = []
    for ln in lines:
        if head.match(ln):
            hands.append([])
        elif hands and ln.startswith("  ") and not ln.strip().startswith(other):
            hands[-1].append(ln.strip())
        elif hands and not ln.startswith("  "):
            break
    return lines, hands


def _page_line(why: dict[str, Any]) -> str:
    """A reason as the page shows it, written as the command's line: the sentence, by the rule the fold names."""
    return _sheet_ar("by").format(text=why["text"].removesuffix("."), rule=why["rule"])


def problems(page: dict[str, Any], cli: str) -> list[str]:
    """Where the page and the command say a sheet's reasons or teams otherwise."""
    lines, hands = _cli_hands(cli)
    out: list[str] = []
    if len(hands) != len(page["rows"]):
        return [f"{len(hands)} hands in the command, {len(page['rows'])} on the page"]
    no_winner = answer({"lang": "ar", "sheet": {**page["sheet"], "hands": []}})["outcome"]["text"]
    for row, said in zip(page["rows"], hands, strict=True):
        whys = [w for w in row["whys"] if w["text"] != no_winner]
        cells = list({json.dumps(c["why"], sort_keys=True): c["why"] for c in row["cells"] if c["why"]}.values())
        shown = Counter(_page_line(w) for w in cells + whys)
        if shown != Counter(said):
            out.append(f"hand {row['hand']}: the page says {sorted((shown - Counter(said)).elements())}, the command "
                       f"{sorted((Counter(said) - shown).elements())}")
    if page["outcome"]["over"]:
        last = page["outcome"]["why"]
        if _page_line(last) not in hands[-1]:
            out.append(f"the outcome {last['text']!r} is not a line of the command")
    elif page["outcome"]["text"].removesuffix(".") not in lines[-2]:
        out.append(f"no winner: {page['outcome']['text']!r} is not in the command's {lines[-2]!r}")
    out += [f"team {t!r} not in the command's head" for t in page["teams"] if t not in lines[1]]
    return out


def _both(data: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[dict[str, Any], str]:
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert main(["score", str(path), "--lang", "ar"]) == 0
    return answer({"lang": "ar", "sheet": data}), capsys.readouterr().out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_each_example_reads_the_same_on_the_page_and_in_the_command(
        path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page, cli = _both(json.loads(path.read_text(encoding="utf-8")), tmp_path, capsys)
    assert page["rows"] and problems(page, cli) == []


@pytest.mark.parametrize("name", [*SHEETS, "weak"])
def test_sheets_of_every_kind_read_the_same(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    page, cli = _both(WEAK if name == "weak" else SHEETS[name], tmp_path, capsys)
    assert page["rows"] and problems(page, cli) == []


@pytest.mark.parametrize(("rid", "options"), SEEDED)
def test_seeded_matches_read_the_same(rid: str, options: dict[str, Any], tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    m = play_match(load_rules(rid, options), "sheet-words-0", policy="heuristic", max_hands=40).match
    sheet = sheet_of_match(m, contract_every=2)
    sheet["options"] = options
    page, cli = _both(sheet, tmp_path, capsys)
    assert problems(page, cli) == []


def test_the_fold_names_the_rule_as_the_command_does(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The page's fold names the rule by its short Arabic name, then the document it is written in."""
    page, _ = _both(json.loads(EXAMPLES[0].read_text(encoding="utf-8")), tmp_path, capsys)
    why = page["rows"][0]["whys"][-1]
    assert why["rule"] == str(i18n("ar")["rule_names"][why["clause"]]) and why["source"]
    assert not re.search("[A-Za-z]", why["rule"] + why["source"])


def test_the_check_sees_a_difference(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The check above on a page that words one reason, one rule or one team otherwise than the command."""
    page, cli = _both(SHEETS["egyptian"], tmp_path, capsys)
    assert problems(page, cli) == []
    changes = [("text", "انجاب", "انجابت"), ("rule", "قاعدة طلب الـ13", "قاعدة الهدف"), ("text", "+", "")]
    for key, was, now in changes:  # hand 2's contract: failed, the other team's score up
        other = json.loads(json.dumps(page))
        why = {**page["rows"][1]["cells"][0]["why"]}
        assert was in why[key], (key, was)
        why[key] = why[key].replace(was, now, 1)
        other["rows"][1]["cells"][0]["why"] = other["rows"][1]["cells"][1]["why"] = why
        assert any(p.startswith("hand 2:") for p in problems(other, cli)), (key, was)
    other = json.loads(json.dumps(page))
    other["teams"][0] = other["teams"][0].replace("و", " و ")
    assert any("team" in p for p in problems(other, cli))
