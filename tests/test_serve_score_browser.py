"""The score sheet (/en/score/, /ar/score/) in a real browser: headless Chromium (Debian's ``chromium``) driven by
Playwright, on a 390 px phone, the page answered by ``tarneeb serve``.

Three whole matches are entered through the page, tap by tap, as players would: card-kings-41 in English (a deal
thrown in, a bid the rules refuse, undo, a past hand edited), tarneeb-400 in Arabic (a number typed in Arabic-Indic
digits) and classic in Arabic (the contract, four passes). Each is exported, and what the page shows (every
running score, every dealer, the winner) is what ``tarneeb score --json`` says of the exported file; reloaded, the
page shows the sheet again from the browser's storage. A whole hand of the 41 family takes at most 12 taps.
Screenshots at 390 and 1280 px in both languages go to ``tests/artifacts/serve/`` (or ``$TARNEEB_ARTIFACTS``).

Skipped, with the reason, only where Chromium is not installed (``.ci/run`` installs it; under CI a missing
browser fails instead).
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install -e '.[serve]')")
pytest.importorskip("playwright", reason="playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Browser, Page  # noqa: E402
from tests.browser_support import (  # noqa: E402
    DESKTOP,
    PHONE,
    SERVE_ARTIFACTS,
    launched,
    skip_module_without_chromium,
)
from tests.serve_support import ROOT, Server, running  # noqa: E402

from tarneeb.cli import main  # noqa: E402
from tarneeb.core.spec import rulesets  # noqa: E402

ARTIFACTS = SERVE_ARTIFACTS
NAMES = ["Rami", "Hala", "Sami", "Dina"]
MAX_TAPS = 12  # a whole hand of the 41 family

skip_module_without_chromium()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running() as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched()


# one page per window size for the module (a context and a page cost a renderer's start each); the sheets stay in
# the context's localStorage from test to test, as on a phone
@pytest.fixture(scope="module")
def phone(browser: Browser) -> Iterator[Page]:
    ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, accept_downloads=True)
    yield ctx.new_page()
    ctx.close()


@pytest.fixture(scope="module")
def desktop(browser: Browser) -> Iterator[Page]:
    ctx = browser.new_context(viewport=DESKTOP, accept_downloads=True)
    yield ctx.new_page()
    ctx.close()


def shoot(pg: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


# ------------------------------------------------------------------ driving the page


class Taps:
    """Taps on the page, each waiting for the rules' answer it asks for; counted."""

    def __init__(self, pg: Page) -> None:
        self.pg, self.n = pg, 0

    def answered(self) -> int:
        return int(self.pg.get_attribute("#score-app", "data-answered") or 0)

    def tap(self, selector: str) -> None:
        before = self.answered()
        self.pg.click(selector)
        self.n += 1
        self.pg.wait_for_function("n => +document.getElementById('score-app').getAttribute('data-answered') > n",
                                  arg=before)

    def key(self, value: object) -> None:
        self.tap(f"#score-pad [data-value='{value}']")

    def active(self) -> tuple[str, str]:
        """The entry the page asks for next: its field and the seat it is for (read from the page)."""
        step = self.pg.locator(".step.active")
        return str(step.get_attribute("data-key")), str(step.get_attribute("data-seat"))

    def individual_hand(self, bids: list[int | str], tricks: list[int] | None) -> int:
        """A hand of individual bids: each bid for the player the page asks (``bids`` by seat), then the tricks by
        seat where the hand is played, then Add. The taps it took."""
        start = self.n
        for _ in range(4):
            key, seat = self.active()
            assert key == "bids"
            self.key(bids[int(seat)])
        if tricks is not None:
            for _ in range(4):
                key, seat = self.active()
                assert key == "tricks_won"
                self.key(tricks[int(seat)])
        else:
            assert self.pg.locator(".step.active").count() == 0  # thrown in: no tricks asked
        self.tap("#score-add")
        return self.n - start


def new_sheet(pg: Page, url: str, ruleset: str, first: int) -> Taps:
    pg.goto(url)
    pg.wait_for_function("document.getElementById('score-app').getAttribute('data-screen')")
    if pg.get_attribute("#score-app", "data-screen") == "sheet":
        pg.click("#score-back")
    pg.select_option("#score-ruleset", ruleset)
    for i, name in enumerate(NAMES, start=1):
        pg.fill(f"#score-player-{i}", name)
    pg.select_option("#score-first", str(first))
    taps = Taps(pg)
    taps.tap("#score-begin")
    pg.wait_for_selector("#score-entry-title")
    return taps


def text(pg: Page, selector: str) -> str:
    """The text of an element as read, without the isolates around the names."""
    return "".join(ch for ch in pg.inner_text(selector) if not "\u2066" <= ch <= "\u2069")


def shown(pg: Page) -> dict[str, Any]:
    """What the page shows: the columns' seats, each row's dealer (the name shown) and running scores (the numbers
    shown), the winner."""
    got: dict[str, Any] = pg.evaluate("""() => ({
        seats: [...document.querySelectorAll('#score-table thead th[data-seat]')].map(th => +th.dataset.seat),
        rows: [...document.querySelectorAll('#score-table tbody tr')].map(tr => ({
            hand: +tr.querySelector('.hand-num').innerText,
            dealer: tr.querySelector('th .dealer').innerText.replace(/[\u2066-\u2069]/g, ''),
            scores: [...tr.querySelectorAll('td[data-seat] button.score')].map(b => +b.innerText)})),
        over: document.getElementById('score-outcome').dataset.over === '1',
        winner: document.getElementById('score-winner')
            ? document.getElementById('score-winner').innerText.replace(/[\u2066-\u2069]/g, '') : null})""")
    return got


def cli(path: Path) -> dict[str, Any]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        rc = main(["score", str(path), "--json"])
    assert rc == 0
    got: dict[str, Any] = json.loads(out.getvalue())
    return got


def team_words(lang: str, team: int) -> str:
    a, b = NAMES[team], NAMES[team + 2]
    return f"{a} and {b}" if lang == "en" else f"{a} و{b}"


def same_as_cli(pg: Page, path: Path, lang: str) -> dict[str, Any]:
    """The page shows what ``tarneeb score --json`` says of the exported file: scores, dealers, winner."""
    want, got = cli(path), shown(pg)
    assert [r["hand"] for r in got["rows"]] == [h["hand"] for h in want["hands"]]
    assert [r["dealer"] for r in got["rows"]] == [NAMES[h["dealer"]] for h in want["hands"]]
    assert [r["scores"] for r in got["rows"]] == [[h["scores"][s] for s in got["seats"]] for h in want["hands"]]
    assert got["over"] == want["outcome"]["match_over"]
    if want["outcome"]["match_over"]:
        assert team_words(lang, want["outcome"]["winner"]) in got["winner"]
    return want


def export(pg: Page, tmp: Path) -> Path:
    with pg.expect_download() as got:
        pg.click("#score-export")
    path = tmp / "exported.json"
    got.value.save_as(path)
    return path


def reloaded_same(pg: Page) -> None:
    before = shown(pg)
    pg.reload()
    pg.wait_for_function("+document.getElementById('score-app').getAttribute('data-answered') > 0")
    assert pg.get_attribute("#score-app", "data-screen") == "sheet" and shown(pg) == before


# ------------------------------------------------------------------ the matches


def test_a_card_kings_41_match_on_a_phone(server: Server, phone: Page, tmp_path: Path) -> None:
    pg = phone
    t = new_sheet(pg, server.url + "en/score/", "card-kings-41", 3)
    assert text(pg, "#score-entry-title") == "Hand 1 · Dina deals"
    assert t.individual_hand([2, 2, 2, 2], None) <= MAX_TAPS  # thrown in: bid.total
    # a bid the rules refuse (no 6 at this table): said, with the rule, and written again
    key, seat = t.active()
    t.key(6)
    assert pg.locator(".step.refused").count() == 1
    pg.click(".entry-error .why-link")
    said = pg.inner_text("#score-why")  # the rule by its name; its id only in the folded line
    assert "the excluded-bid rule" in said and "bid.excluded" not in said
    assert pg.text_content("#score-why details.technical bdi.id") == "bid.excluded"
    t.tap(".step.refused")  # tap the refused bid: written again
    for hand in range(4):
        taps = t.individual_hand([11, 2, 2, 2], [11, 0, 2, 0])
        assert taps <= MAX_TAPS, taps
        if hand == 0:
            t.tap("#score-undo")  # the hand back into writing, whole
            assert len(shown(pg)["rows"]) == 1 and pg.locator("#score-add").is_enabled()
            t.tap("#score-undo")  # its last entry taken off: Dina's tricks
            assert t.active() == ("tricks_won", "3") and not pg.locator("#score-add").is_enabled()
            t.key(0)
            t.tap("#score-add")
    # a past hand edited: hand 2's tricks, Hala 1 and Sami 1; the hands after it worked out again
    pg.click("tr[data-hand='2'] .hand-num")
    t.tap("#score-edit")
    t.tap(".step[data-key='tricks_won'][data-seat='1']")
    t.key(1)
    t.tap(".step[data-key='tricks_won'][data-seat='2']")
    t.key(1)
    t.tap("#score-add")
    pg.click("tr[data-hand='2'] td[data-seat='2'] button.score")
    assert text(pg, "#score-why .said") == "Sami bid 2 and took 1: failed, -2."
    assert "Card Kings" in pg.inner_text("#score-why .source")
    shoot(pg, "score-phone-en")
    want = same_as_cli(pg, export(pg, tmp_path), "en")
    assert want["outcome"]["winner"] == 0 and want["scores"][2] == 4  # Sami's 8 less the edit's 4
    reloaded_same(pg)


def test_a_tarneeb_400_match_in_arabic(server: Server, phone: Page, tmp_path: Path) -> None:
    pg = phone
    t = new_sheet(pg, server.url + "ar/score/", "tarneeb-400", 1)
    t.individual_hand([2, 2, 2, 2], None)
    for _ in range(2):
        start = t.n
        for _ in range(4):
            key, seat = t.active()
            bid = [9, 2, 3, 2][int(seat)]
            if seat == "0":  # Rami's 9 typed in Arabic-Indic digits
                pg.fill("#score-typed", "٩")
                t.tap("#score-typed-ok")
                t.n += 1
            else:
                t.key(bid)
        for _ in range(4):
            t.key([9, 0, 4, 0][int(t.active()[1])])
        t.tap("#score-add")
        assert t.n - start <= MAX_TAPS
    assert pg.get_attribute("html", "dir") == "rtl"
    pg.click("tr[data-hand='3'] td[data-seat='0'] button.score")
    said = text(pg, "#score-why .said")
    assert said == "Rami: الطلب 9 (طلب 9 بينحسب 27) واللمّات 9: الطلب انجاب، +27." \
        and "." not in pg.inner_text("#score-why .technical")
    pg.click("#score-why .technical summary")  # the fold open: the rule by its short name, its document, its id
    rule = text(pg, "#score-why .why-item p:nth-of-type(2)")
    assert rule.startswith("القاعدة: قاعدة قيمة الطلبات: ") and text(pg, "#score-why .source").startswith("وين مكتوبة:")
    shoot(pg, "score-phone-ar")
    same_as_cli(pg, export(pg, tmp_path), "ar")
    reloaded_same(pg)


def test_a_classic_match_in_arabic(server: Server, phone: Page, tmp_path: Path) -> None:
    pg = phone
    t = new_sheet(pg, server.url + "ar/score/", "classic", 1)
    shoot(pg, "score-phone-ar-classic-entry")
    t.tap("#score-all-pass")
    assert pg.locator(".entry-thrown").count() == 1 and pg.locator("#score-all-pass").count() == 0
    t.tap("#score-add")
    for holder, bid, took in ((2, 8, 9), (1, 13, 13)):
        t.key(holder)  # who took the bid, by name
        t.key(bid)
        t.key(took)
        t.tap("#score-add")
    assert pg.locator("#score-entry-title").count() == 0  # the match is over: no hand to write
    same_as_cli(pg, export(pg, tmp_path), "ar")


def test_an_exported_sheet_imported_on_a_desktop(server: Server, desktop: Page) -> None:
    """A whole example match imported from its file, in both languages at 1280 px: the same table as the command's."""
    pg = desktop
    for lang in ("en", "ar"):
        pg.goto(server.url + f"{lang}/score/")
        pg.wait_for_function("document.getElementById('score-app').getAttribute('data-screen')")
        if pg.get_attribute("#score-app", "data-screen") == "sheet":
            pg.click("#score-back")
        before = int(pg.get_attribute("#score-app", "data-answered") or 0)
        pg.set_input_files("#score-import", str(ROOT / "spec" / "sheets" / "examples" / "classic.json"))
        pg.wait_for_function("n => +document.getElementById('score-app').getAttribute('data-answered') > n + 1",
                             arg=before)
        same_as_cli(pg, ROOT / "spec" / "sheets" / "examples" / "classic.json", lang)
        pg.click("tr[data-hand='5'] td[data-seat='1'] button.score")
        shoot(pg, f"score-desktop-{lang}")


def test_a_house_rules_file_on_a_desktop(server: Server, desktop: Page, tmp_path: Path) -> None:
    """A sheet kept under the table's house file (card-kings-total-13: the bids must total 13): the file chosen at
    the start, a deal of 12 thrown in by its rule, the sheet exported with the file's text and the file beside it
    read by ``tarneeb score`` the same."""
    pg = desktop
    house = tmp_path / "club.toml"
    house.write_text((ROOT / "spec" / "house-rules" / "card-kings-total-13.toml").read_text(encoding="utf-8"),
                     encoding="utf-8")
    pg.goto(server.url + "en/score/")
    pg.wait_for_function("document.getElementById('score-app').getAttribute('data-screen')")
    if pg.get_attribute("#score-app", "data-screen") == "sheet":
        pg.click("#score-back")
    pg.set_input_files("#score-house", str(house))
    for i, name in enumerate(NAMES, start=1):
        pg.fill(f"#score-player-{i}", name)
    t = Taps(pg)
    t.tap("#score-begin")
    pg.wait_for_selector("#score-entry-title")
    assert "total of 13" in pg.inner_text("#score-head")
    t.individual_hand([3, 3, 3, 3], None)
    pg.click("tr[data-hand='1'] .hand-num")
    assert pg.text_content("#score-why details.technical bdi.id") == "bid.total"
    assert pg.is_visible("#score-house-file")
    exported = export(pg, tmp_path)
    assert json.loads(exported.read_text(encoding="utf-8"))["ruleset"] == "club.toml"
    same_as_cli(pg, exported, "en")


def test_several_sheets_are_kept_and_reopened(server: Server, phone: Page) -> None:
    """Two sheets started one after the other: both listed (by their players and rules), each reopens as it was."""
    pg = phone
    new_sheet(pg, server.url + "en/score/", "eram-41", 2)
    first = shown(pg)
    t = new_sheet(pg, server.url + "en/score/", "bsfyi-41", 0)
    t.individual_hand([3, 3, 3, 3], [4, 3, 3, 3])
    second = shown(pg)
    pg.click("#score-back")
    listed = pg.locator("#score-list .score-open")
    labels = [text(pg, f"#score-list li:nth-child({i + 1}) .score-open") for i in range(listed.count())]
    eram = next(i for i, label in enumerate(labels) if rulesets()["eram-41"].name in label)
    bsfyi = next(i for i, label in enumerate(labels) if rulesets()["bsfyi-41"].name in label)
    assert bsfyi < eram  # the latest first
    before = t.answered()
    listed.nth(eram).click()
    pg.wait_for_function("n => +document.getElementById('score-app').getAttribute('data-answered') > n", arg=before)
    assert shown(pg) == first and text(pg, "#score-entry-title") == "Hand 1 · Sami deals"
    pg.reload()
    pg.wait_for_function("+document.getElementById('score-app').getAttribute('data-answered') > 0")
    assert shown(pg) == first  # the sheet open when the tab closed opens again
    pg.click("#score-back")
    before = t.answered()
    pg.locator("#score-list .score-open", has_text=rulesets()["bsfyi-41"].name).click()
    pg.wait_for_function("n => +document.getElementById('score-app').getAttribute('data-answered') > n", arg=before)
    assert shown(pg) == second


def test_an_impossible_hand_in_an_imported_sheet_is_written_again(server: Server, desktop: Page,
                                                                  tmp_path: Path) -> None:
    """A sheet file whose second hand has a bid the rules refuse: the page says so with the rule, offers to write
    that hand again, and the hand written again, the hands after it are replayed (here the third)."""
    pg = desktop
    bad = {"format": "tarneeb-score-sheet", "version": 1, "ruleset": "card-kings-41", "players": NAMES,
           "first_dealer": 0, "hands": [{"bids": [2, 2, 2, 5], "tricks_won": [5, 3, 3, 2]},
                                        {"bids": [6, 2, 2, 2], "tricks_won": [6, 3, 2, 2]},
                                        {"bids": [2, 2, 2, 5], "tricks_won": [5, 3, 3, 2]}]}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    pg.goto(server.url + "en/score/")
    pg.wait_for_function("document.getElementById('score-app').getAttribute('data-screen')")
    if pg.get_attribute("#score-app", "data-screen") == "sheet":
        pg.click("#score-back")
    t = Taps(pg)
    before = t.answered()
    pg.set_input_files("#score-import", str(path))
    pg.wait_for_function("n => +document.getElementById('score-app').getAttribute('data-answered') > n + 1", arg=before)
    assert len(shown(pg)["rows"]) == 1 and "6" in text(pg, "#score-problem")
    t.tap("#score-fix")
    assert text(pg, "#score-entry-title").startswith("Hand 2")
    t.individual_hand([5, 2, 2, 2], [5, 3, 3, 2])
    assert pg.is_hidden("#score-problem") and len(shown(pg)["rows"]) == 3
    same_as_cli(pg, export(pg, tmp_path), "en")
