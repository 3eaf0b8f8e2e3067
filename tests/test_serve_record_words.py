"""A record check on the Arabic page, in Arabic: what the record claims, what the rules give and
why, worded from the verifier's own sentence ("player 3 (seat 2) plays QD" as «اللاعب 3 (المقعد 2) يلعب QD»), the
data it quotes kept as written; the JSON and the command line keep the verifier's English. A diagnosis of one hand
record speaks of that one record ("on any of the 1 hand record" was wrong in both languages)."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.serve_support import app_client
from tests.test_serve import text_of

from tarneeb.serve import engine
from tarneeb.serve.records_words import said

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with app_client() as c:
        yield c


def _record(tmp_path: Path) -> bytes:
    """A card-kings-41 match with a trick given to the wrong player, a bid by the wrong seat and a score change
    off by 5 (three independent divergences)."""
    from tarneeb.cli import main

    out = tmp_path / "games.jsonl"
    assert main(["record", "--ruleset", "card-kings-41", "--matches", "1", "--seed", "1", "--out", str(out)]) == 0
    lines = [json.loads(ln) for ln in out.read_text(encoding="utf-8").splitlines()]
    played = [d for d in lines if d.get("type") == "hand" and d.get("tricks")]
    played[2]["tricks"][3]["winner"] = (played[2]["tricks"][3]["winner"] + 1) % 4
    played[3]["bids"][1][0] = (played[3]["bids"][1][0] + 2) % 4
    played[4]["scores"][0] += 5
    played[4]["deltas"][0] += 5
    return "".join(json.dumps(d) + "\n" for d in lines).encode("utf-8")


def _rows(page: str) -> list[dict[str, str]]:
    """Each divergence's rows (term -> the HTML of its value)."""
    arts = re.findall(r'<article class="divergence[^"]*" [^>]*>(.*?)</article>', page, re.S)
    return [dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", a, re.S)) for a in arts]


def test_an_arabic_record_check_says_the_claims_in_arabic(client: TestClient, tmp_path: Path) -> None:
    from tarneeb.serve.strings import AR

    page = client.post("/ar/records", files={"records_file": ("games.jsonl", _record(tmp_path))}).text
    rows = _rows(page)
    assert len(rows) >= 3, text_of(page)[-2000:]
    seen = 0
    for row in rows:
        for key in ("claimed", "expected"):
            value = text_of(row[AR[key]])
            assert not re.search(r"\b(player|seat|plays|bids|led by|scores before)\b", value), value
            seen += "اللاعب" in value
    assert seen >= 4  # a trick's winner and a bid's seat, each claimed and given, by player in Arabic
    winner = next(r for r in rows if "tricks[3].winner" in r[AR["field"]])
    assert re.search(r"اللاعب \d \(المقعد \d\) \(الأوراق .+، بدأها اللاعب \d \(المقعد \d\)\)", text_of(winner[AR["expected"]]))
    # the English page and the JSON keep the verifier's words
    english = client.post("/en/records", files={"records_file": ("games.jsonl", _record(tmp_path))}).text
    assert "player" in text_of(english) and "(seat" in text_of(english)
    check = engine.check_records(_record(tmp_path), "games.jsonl", "ar")
    assert any(re.fullmatch(r"player \d \(seat \d\)", d["claimed"]) for d in check.divergences)


def test_data_keeps_its_order_in_an_arabic_sentence() -> None:
    """A list or cards quoted in an Arabic sentence are one left-to-right run (no-break spaces, so the page sets
    them apart whole and a right-to-left line does not reverse "[7, 13, 7, 3]")."""
    text, lang = said("scores before the deal [7, 13, 7, 3], with the record's own deltas", "ar")
    assert lang == "ar" and "\u2066[7,\u00a013,\u00a07,\u00a03]\u2069" in text
    assert said("[7, 13, 7, 3]", "ar") == ("[7, 13, 7, 3]", "en")  # data alone stays data
    assert said("player 3 (seat 2) plays QD", "en") == ("player 3 (seat 2) plays QD", "en")
    # the English page says a list in the words of verify: by player (counted from 1), not as a list
    assert said("[7, 13, 7, 3]", "en") == ("player 1 7, player 2 13, player 3 7, player 4 3", "en")
    assert said("scores before the deal [7, 13, 7, 3]", "en")[0] == ("scores before the deal: player 1 7, player 2 13, "
                                                                     "player 3 7, player 4 3")
    assert said("a legal card (the player holds the led suit and must follow it)", "ar")[0].startswith("ورقة مسموحة (")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_diagnosis_of_one_hand_record_speaks_of_one(client: TestClient, tmp_path: Path, lang: str) -> None:
    page = client.post(f"/{lang}/records", files={"records_file": ("games.jsonl", _record(tmp_path))}).text
    diag = re.search(r'<section id="diagnosis">(.*?)</section>', page, re.S)
    assert diag is not None
    words = text_of(diag.group(1))
    assert "of the 1 hand" not in words and "of the 1 hand record" not in words, words
    assert "سجل يد واحد" not in words and "كل 1" not in words, words
    assert ("the one hand record" if lang == "en" else "سجل اليد الوحيد") in words, words


def test_the_english_page_shows_cards_with_their_suits(client: TestClient, tmp_path: Path) -> None:
    """'(cards 3C 9C KC 2C led by player 2 (seat 1))' on the page reads '(cards 3♣ 9♣ K♣ 2♣ ...)'; the JSON keeps
    the codes."""
    from tarneeb.serve.strings import EN

    page = client.post("/en/records", files={"records_file": ("games.jsonl", _record(tmp_path))}).text
    winner = next(r for r in _rows(page) if "tricks[3].winner" in r[EN["field"]])
    given = text_of(winner[EN["expected"]])
    assert re.search(r"\(cards (?:(?:10|[2-9JQKA])[♣♦♥♠] ?){4}led by player \d \(seat \d\)\)", given), given
    check = engine.check_records(_record(tmp_path), "games.jsonl", "en")
    assert any(re.search(r"cards (?:(?:T|[2-9JQKA])[CDHS] ?){4}led", d["reason"]) for d in check.divergences)


def test_the_winner_of_a_match_is_a_team_in_arabic_words() -> None:
    """The verifier's "team 2 (winner 1)" reads «الفريق الثاني (2 و4)» on an Arabic page, as the referee names a
    team; not the record's own field name in English, «(winner 1)»."""
    from tarneeb.ruling.arabic_words import team

    for n in (0, 1):
        text, lang = said(f"team {n + 1} (winner {n})", "ar")
        assert lang == "ar" and text == team(n), text
        assert "winner" not in text and f"{n + 1} و{n + 3}" in text
