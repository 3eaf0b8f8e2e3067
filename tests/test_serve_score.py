"""The score sheet's questions (:mod:`tarneeb.serve.score`, ``POST /{lang}/score/api``, the offline site's
``respond``): what the page shows of a sheet is what ``tarneeb score --json`` says of it (every ruleset, a house
file, both languages); the hand being written is taken entry by entry as core takes it (the seats in bidding order,
the bids core takes, the deal thrown in, a refused entry with its clause); a rule changed in core changes the page;
a request the page cannot use is a 400 (or 413) with one sentence, never a 5xx, and quick."""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.sheet_support import EXAMPLE_MATCHES, EXAMPLES

from tarneeb.core import rules as R
from tarneeb.offline.pages import respond
from tarneeb.serve.score import MAX_HANDS, PageError, answer
from tarneeb.sheet import result_dict, score_sheet, sheet_from_data

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "spec" / "house-rules" / "card-kings-total-13.toml"
LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"


def _example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    return data


def _sheet(ruleset: str, hands: list[dict[str, Any]], first: int = 0, options: dict[str, Any] | None = None
           ) -> dict[str, Any]:
    return {"format": "tarneeb-score-sheet", "version": 1, "ruleset": ruleset, "options": options or {},
            "players": ["Rami", "Hala", "Sami", "Dina"], "first_dealer": first, "hands": hands}


def _house() -> dict[str, str]:
    return {"name": "club.toml", "text": HOUSE.read_text(encoding="utf-8")}


def _cli_json(data: dict[str, Any], tmp: Path, house: dict[str, str] | None = None) -> dict[str, Any]:
    """``tarneeb score --json`` on the sheet written to a file (the house file beside it)."""
    import contextlib
    import io

    from tarneeb.cli import main

    (tmp / "sheet.json").write_text(json.dumps(data), encoding="utf-8")
    if house is not None:
        (tmp / house["name"]).write_text(house["text"], encoding="utf-8")
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main(["score", str(tmp / "sheet.json"), "--json"])
    got: dict[str, Any] = json.loads(out.getvalue())
    return got


def _same_as_cli(page: dict[str, Any], cli: dict[str, Any]) -> None:
    """The page's table, dealers, outcome and next dealer are the command's."""
    assert len(page["rows"]) == len(cli["hands"])
    seats = [c["seat"] for c in page["columns"]]
    for row, h in zip(page["rows"], cli["hands"], strict=True):
        assert row["hand"] == h["hand"] and row["dealer"] == h["dealer"] and row["next_dealer"] == h["next_dealer"]
        assert [c["score"] for c in row["cells"]] == [h["scores"][s] for s in seats]
        assert row["thrown_in"] == (h["redeal"] is not None) and row["winner"] == h["outcome"]["winner"]
        clauses = {w["clause"] for c in row["cells"] if c["why"] for w in [c["why"]]} | {w["clause"] for w in row["whys"]}
        assert {r["clause"] for r in h["reasons"]} <= clauses  # every reason of the hand is one a tap shows
    assert page["scores"] == [cli["scores"][s] for s in seats]
    assert page["outcome"]["over"] == cli["outcome"]["match_over"] and page["outcome"]["winner"] == cli["outcome"]["winner"]
    assert page["next_dealer"] == cli["next_dealer"]
    assert (page["error"] is None) == (cli["error"] is None)


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("name", sorted(EXAMPLE_MATCHES))
def test_the_page_shows_what_the_score_command_says(name: str, lang: str, tmp_path: Path) -> None:
    data = _example(name)
    page = answer({"lang": lang, "sheet": data})
    _same_as_cli(page, _cli_json(data, tmp_path))
    assert page["outcome"]["over"] and page["outcome"]["why"]["clause"] == _cli_json(data, tmp_path)["outcome"]["clause"]
    if lang == "ar":  # the players' words, the names isolated, no clause id in a sentence
        texts = [c["why"]["text"] for r in page["rows"] for c in r["cells"] if c["why"]] + [page["outcome"]["text"]]
        assert all(FSI + "Rami" + PDI in t or FSI + "Hala" + PDI in t or FSI + "Sami" + PDI in t
                   or FSI + "Dina" + PDI in t for t in texts)
        assert not any(c in t for t in texts for c in ("score.", "win.", "tie.", "deal."))
        assert all(r["cells"][0]["why"] is None or r["cells"][0]["why"]["source"].startswith(("كارد", "طاولة", "موقع"))
                   for r in page["rows"])


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_house_file_the_page_keeps(lang: str, tmp_path: Path) -> None:
    """card-kings-total-13: bids totalling 12 are thrown in (bid.total of 13), a made 10 wins at once; the page
    reads the house file it keeps as the command reads the file beside the sheet."""
    data = _sheet("club.toml", [{"bids": [3, 3, 3, 3]}, {"bids": [2, 2, 2, 10], "tricks_won": [10, 1, 1, 1]}])
    page = answer({"lang": lang, "sheet": data, "house": _house()})
    cli = _cli_json(data, tmp_path, _house())
    _same_as_cli(page, cli)
    assert page["rows"][0]["thrown_in"] and page["outcome"]["why"]["clause"] == "win.made-bid" == cli["outcome"]["clause"]
    assert page["house"]["name"] == "club.toml"
    # exported with the file's text under x-house, the sheet reopens with it
    again = answer({"lang": lang, "sheet_text": json.dumps({**data, "x-house": _house()})})
    assert again["rows"] == page["rows"] and again["house"] == page["house"]


def test_a_house_file_extends_a_built_in_ruleset_only() -> None:
    text = HOUSE.read_text(encoding="utf-8").replace('extends = "card-kings-41"', 'extends = "/etc/other.toml"')
    with pytest.raises(PageError, match="extends a built-in ruleset"):
        answer({"sheet": _sheet("club.toml", []), "house": {"name": "club.toml", "text": text}})
    with pytest.raises(PageError, match="not TOML"):
        answer({"sheet": _sheet("club.toml", []), "house": {"name": "club.toml", "text": "id = ["}})
    with pytest.raises(PageError, match="neither a ruleset id nor the house file"):
        answer({"sheet": _sheet("other.toml", []), "house": _house()})


def test_a_sheet_naming_a_host_file_opens_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    real = Path.is_file
    def is_file(self: Path) -> bool:
        opened.append(str(self))
        return real(self)

    monkeypatch.setattr(Path, "is_file", is_file)
    with pytest.raises(PageError, match="unknown ruleset"):
        answer({"sheet": _sheet(str(HOUSE), [])})
    assert opened == []


# ------------------------------------------------------------------ the hand being written


def _entry(data: dict[str, Any], hand: dict[str, Any], lang: str = "en", at: int | None = None) -> dict[str, Any]:
    e: dict[str, Any] = answer({"lang": lang, "sheet": data, "entry": {
        "at": len(data["hands"]) if at is None else at, "hand": hand}})["entry"]
    return e


@pytest.mark.parametrize("name", ["card-kings-41", "tarneeb-400"])
def test_each_hand_is_written_in_core_s_bidding_order(name: str) -> None:
    """Every hand of the example, written again bid by bid over the hands before it: the seats the page asks in
    turn are the seats the replay gives the bids to, the bid written is one the pad marks as taken, the deal is
    thrown in or played as the replay says, and the hand to add is the sheet's."""
    data = _example(name)
    cli = result_dict(score_sheet(sheet_from_data(data)))
    for k, (hand, h) in enumerate(zip(data["hands"], cli["hands"], strict=True)):
        before = {**data, "hands": data["hands"][:k]}
        e = _entry(before, {"bids": []})
        assert e["dealer"] == h["dealer"]
        assert [s["seat"] for s in e["steps"]] == [s for s, _ in h["calls"]]
        for i, bid in enumerate(hand["bids"]):
            e = _entry(before, {"bids": hand["bids"][:i]})
            assert e["steps"][e["next"]]["seat"] == h["calls"][i][0]
            assert next(k for k in e["pad"] if k["value"] == bid)["ok"]
        e = _entry(before, {"bids": hand["bids"]})
        assert (e["thrown_in"] is not None) == (h["redeal"] is not None)
        assert [s["seat"] for s in e["steps"][4:]] == ([] if h["redeal"] else [0, 1, 2, 3])  # tricks in seat order
        done = _entry(before, hand)
        assert done["ready"] and done["hand"] == hand


def test_the_pad_marks_the_bids_core_takes() -> None:
    """card-kings-41 has no bid of 6 (bid.excluded) and bids from 2: the pad says so, and a 6 written anyway is
    refused with the clause, the player's name and, in Arabic, the player's words."""
    data = _sheet("card-kings-41", [])
    e = _entry(data, {"bids": []})
    assert [k["value"] for k in e["pad"] if k["ok"]] == [n for n in range(14) if n >= 2 and n != 6]
    second = e["steps"][1]["name"]  # the second to bid, by name
    e = _entry(data, {"bids": [2, 6]})
    assert e["error"]["field"] == "bids" and e["error"]["why"]["clause"] == "bid.excluded"
    assert f"{second}'s 6" in e["error"]["text"] and e["steps"][1]["refused"] and e["next"] == 1 and not e["ready"]
    ar = _entry(data, {"bids": [2, 6]}, "ar")
    assert ar["error"]["text"] == f"طلب 6 من {second} ما بيمشي هون."
    assert ar["error"]["why"]["statement"] == "ما في طلب 6 على هالطاولة."


def test_arabic_indic_digits_are_numbers() -> None:
    data = _sheet("card-kings-41", [])
    e = _entry(data, {"bids": ["٤", "٢", "۳", "٢"], "tricks_won": ["٦", "٣", "٢", "٢"]})
    assert e["ready"] and e["hand"] == {"bids": [4, 2, 3, 2], "tricks_won": [6, 3, 2, 2]}


def test_the_deal_thrown_in_and_tricks_that_do_not_make_13() -> None:
    data = _sheet("card-kings-41", [])
    e = _entry(data, {"bids": [2, 2, 2, 2]})
    assert e["thrown_in"]["why"]["clause"] == "bid.total" and e["ready"] and e["hand"] == {"bids": [2, 2, 2, 2]}
    thrown = _entry(data, {"bids": [2, 2, 2, 2]}, "ar")["thrown_in"]  # the bids' total and the total in force
    assert thrown["text"] == "انلغت التوزيعة: مجموع الطلبات 8، أقل من 11؛ وما في حساب." and thrown["why"]["rule"] == \
        "قاعدة مجموع الطلبات"
    # written, the hand says the same in the sheet's table
    assert answer({"lang": "ar", "sheet": _sheet("card-kings-41", [{"bids": [2, 2, 2, 2]}])})["rows"][0]["whys"][0] \
        == thrown["why"]
    e = _entry(data, {"bids": [5, 3, 3, 2], "tricks_won": [6, 3, 2, 1]})
    assert e["error"]["why"]["clause"] == "hand.tricks" and not e["ready"]
    assert "6 + 3 + 2 + 1 = 12" in _entry(data, {"bids": [5, 3, 3, 2], "tricks_won": [6, 3, 2, 1]}, "ar")["error"]["text"]


def test_the_classic_contract_then_the_team_s_tricks() -> None:
    """classic: who took the bid, the bid (the numbers an auction can end in), then the bidding team's tricks;
    Egyptian bids add the strain; four passes throw the deal in (auction.all-pass)."""
    data = _sheet("classic", [], first=1)
    e = _entry(data, {})
    assert [s["kind"] for s in e["steps"]] == ["holder", "contract"] and e["pad"][0]["value"] == 0
    assert {x["key"] for x in e["extras"]} == {"all_pass"}
    e = _entry(data, {"contract": {"seat": 2}})
    assert [k["value"] for k in e["pad"]] == list(range(7, 14))
    e = _entry(data, {"contract": {"seat": 2, "bid": 8}})
    assert e["steps"][-1]["kind"] == "team_tricks" and e["steps"][-1]["name"] == f"{FSI}Rami{PDI} and {FSI}Sami{PDI}"
    e = _entry(data, {"contract": {"seat": 2, "bid": "٨"}, "bidding_team_tricks": 9})
    assert e["ready"] and e["hand"] == {"contract": {"seat": 2, "bid": "8"}, "bidding_team_tricks": 9}
    e = _entry(data, {"calls": ["pass"] * 4})
    assert e["thrown_in"]["why"]["clause"] == "auction.all-pass" and e["ready"]
    egypt = _sheet("classic", [], options={"egyptian": True})
    e = _entry(egypt, {"contract": {"seat": 1, "bid": 9}})
    assert e["steps"][2]["kind"] == "strain" and [k["value"] for k in e["pad"]] == list("CDHSN")
    e = _entry(egypt, {"contract": {"seat": 1, "bid": 9, "strain": "N"}, "bidding_team_tricks": 9})
    assert e["ready"] and e["hand"]["contract"] == {"seat": 1, "bid": "9N"}


def test_a_hand_after_the_match_is_closed() -> None:
    data = _example("card-kings-41")
    e = _entry(data, {"bids": []})
    assert e["closed"] and e["error"]["field"] == "hand" and not e["steps"]
    edit = _entry(data, data["hands"][3], at=3)  # a past hand is written over the hands before it
    assert edit["ready"] and edit["number"] == 4


def test_the_page_follows_a_rule_changed_in_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """redeal.dealer, score.values and the excluded bids changed in core: the page's next dealer, scores and pad
    follow (the page works none of them out)."""
    data = _sheet("card-kings-41", [{"bids": [2, 2, 2, 2]}, {"bids": [5, 3, 3, 2], "tricks_won": [6, 3, 2, 2]}])
    before = answer({"sheet": data, "entry": {"at": 2, "hand": {}}})
    assert [r["dealer"] for r in before["rows"]] == [0, 0] and before["rows"][1]["cells"][2]["score"] == -3
    old_value, old_legal = R.bid_value, R.legal_bids
    monkeypatch.setattr(R, "dealer_after_redeal", lambda r, dealer: R.next_seat(r, dealer))
    monkeypatch.setattr(R, "bid_value", lambda r, bid: 7 if bid == 5 else old_value(r, bid))
    monkeypatch.setattr(R, "legal_bids", lambda r, score: [b for b in old_legal(r, score) if b != 9])
    after = answer({"sheet": data, "entry": {"at": 2, "hand": {}}})
    assert [r["dealer"] for r in after["rows"]] == [0, 1] and after["rows"][1]["cells"][2]["score"] == -7
    assert not next(k for k in after["entry"]["pad"] if k["value"] == 9)["ok"]


# ------------------------------------------------------------------ the endpoint


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    pytest.importorskip("starlette", reason="the serve extra is not installed (pip install -e '.[serve]')")
    from tests.serve_support import app_client

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with app_client() as c:
            yield c


def test_the_page_and_its_api(client: Any) -> None:
    for lang in ("en", "ar"):
        r = client.get(f"/{lang}/score/")
        assert r.status_code == 200 and 'id="score-app"' in r.text and "/static/score.js" in r.text
        assert client.get(f"/{lang}/score", follow_redirects=False).headers["location"] == f"/{lang}/score/"
        r = client.post(f"/{lang}/score/api", json={"sheet": _example("classic"), "entry": {"at": 31, "hand": {}}})
        assert r.status_code == 200 and r.json()["lang"] == lang and r.json()["outcome"]["over"]
    assert client.get("/fr/score/").status_code == 404
    assert client.post("/fr/score/api", json={}).status_code == 404


BAD: dict[str, tuple[Any, int, str]] = {
    "not JSON": (b"{nope", 400, "not JSON"),
    "not UTF-8": (b"\xff\xfe{}", 400, "not JSON"),
    "a list": ([1, 2], 400, "not a JSON object"),
    "no sheet": ({}, 400, "a score sheet is a JSON object"),
    "another format": ({"sheet": {"format": "x"}}, 400, "format"),
    "three players": ({"sheet": {**_sheet("classic", []), "players": ["a", "b", "c"]}}, 400, "players"),
    "a name of 1,000 letters": ({"sheet": {**_sheet("classic", []), "players": ["a" * 1000, "b", "c", "d"]}}, 400,
                                "at most 40 characters"),
    "an unknown ruleset": ({"sheet": _sheet("nosuch", [])}, 400, "unknown ruleset"),
    "a bad option": ({"sheet": _sheet("classic", [], options={"kaboot": "lots"})}, 400, "options"),
    "a hand of the wrong shape": ({"sheet": _sheet("classic", [{"bids": "many"}])}, 400, "hand 1: bids"),
    "too many hands": ({"sheet": _sheet("card-kings-41", [{"bids": [2, 2, 2, 2]}] * (MAX_HANDS + 1))}, 400,
                       f"at most {MAX_HANDS} hands"),
    "an entry out of the sheet": ({"sheet": _sheet("classic", []), "entry": {"at": 5, "hand": {}}}, 400, "entry.at"),
    "an entry of five bids": ({"sheet": _sheet("card-kings-41", []), "entry": {"at": 0, "hand": {"bids": [2] * 5}}},
                              400, "at most four bids"),
    "an entry of the other family": ({"sheet": _sheet("classic", []), "entry": {"at": 0, "hand": {"bids": [2]}}},
                                     400, "write calls or contract"),
    "a contract's holder of seat 7": ({"sheet": _sheet("classic", []), "entry": {"hand": {"contract": {"seat": 7}}}},
                                      400, "contract.seat"),
    "a strain that is none": ({"sheet": _sheet("classic", [], options={"egyptian": True}),
                               "entry": {"hand": {"contract": {"seat": 1, "bid": 8, "strain": "X"}}}}, 400, "strain"),
    "three players' tricks": ({"sheet": _sheet("card-kings-41", []),
                               "entry": {"hand": {"bids": [2, 3, 4, 5], "tricks_won": [13, None, 0]}}}, 400, "tricks_won"),
    "a hand of the other family in the sheet": ({"sheet": _sheet("classic", [{"bids": [2, 2, 2, 2]}])}, 400,
                                                "classic is played with an auction"),
    "an entry with a stray field": ({"sheet": _sheet("classic", []), "entry": {"hand": {"cards": 1}}}, 400,
                                    "unknown field cards"),
    "a 5,000-digit bid": (b'{"sheet": {"format": "tarneeb-score-sheet", "version": 1, "ruleset": "classic", '
                          b'"players": ["a","b","c","d"], "first_dealer": 0, "hands": [{"calls": [' + b"9" * 5000
                          + b"]}]}}", 400, "not JSON"),
    "nested 100,000 deep": (b'{"sheet": ' + b"[" * 100_000 + b"]" * 100_000 + b"}", 400, "not JSON"),
    "a sheet file nested deep": ({"sheet_text": "[" * 100_000 + "]" * 100_000}, 400, "nested too deeply"),
    "a house file of 1 MB": ({"sheet": _sheet("club.toml", []), "house": {"name": "club.toml", "text": "#" * 1_000_000}},
                             413, "too large"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_a_request_the_page_cannot_use_is_a_clear_4xx(client: Any, name: str) -> None:
    body, status, words = BAD[name]
    raw = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
    t0 = time.perf_counter()
    r = client.post("/en/score/api", content=raw, headers={"content-type": "application/json"})
    assert time.perf_counter() - t0 < 5
    assert r.status_code == status, (name, r.status_code, r.text[:300])
    err = r.json()["error"]
    assert words in err and "Traceback" not in err and len(err) < 400, err


def test_an_impossible_entry_is_an_answer_not_an_error(client: Any) -> None:
    data = _sheet("card-kings-41", [{"bids": [2, 6, 2, 2], "tricks_won": [4, 3, 3, 3]}])
    r = client.post("/en/score/api", json={"sheet": data})
    assert r.status_code == 200 and r.json()["error"]["why"]["clause"] == "bid.excluded" and r.json()["rows"] == []


def test_the_offline_site_answers_as_the_server(client: Any) -> None:
    """The offline site's respond (the Python Pyodide runs) gives the page the server's answer, and its 400."""
    body = {"sheet": _example("tarneeb-400"), "entry": {"at": 19, "hand": {}}}
    served = client.post("/ar/score/api", json=body).json()
    offline = json.loads(respond(json.dumps({"page": "score", "lang": "ar", "request": json.dumps(body)})))
    assert offline == served
    bad = json.loads(respond(json.dumps({"page": "score", "lang": "en", "request": "[1]"})))
    assert bad["status"] == 400 and "not a JSON object" in bad["error"]


@pytest.mark.parametrize("name", sorted(EXAMPLE_MATCHES))
def test_a_past_hand_opened_to_edit_is_the_hand_written(name: str) -> None:
    """Each hand of an example opened to edit (the row's ``written``, as the page loads it) is a whole hand the
    rules take, and saved as it is it gives the same scores and next dealer."""
    data = _example(name)
    page = answer({"sheet": data})
    for k, row in enumerate(page["rows"]):
        e = _entry(data, row["written"], at=k)
        assert e["ready"], (k, row["written"], e["error"])
        again = answer({"sheet": {**data, "hands": [*data["hands"][:k], e["hand"], *data["hands"][k + 1:]]}})
        assert again["rows"][k]["cells"] == row["cells"] and again["rows"][k]["next_dealer"] == row["next_dealer"]
