"""``tarneeb serve`` in a real browser: headless Chromium (Debian's ``chromium``) driven by Playwright.

A table director's paths: a winner dispute and a card-legality dispute entered with the form and the card
picker, the Arabic pages (right to left as whole pages), a record file with a divergence uploaded, a malformed
upload (the message in the page, the server still answering), and no horizontal scrolling on a 390 px phone.
Screenshots of the main pages (desktop and phone, English and Arabic) go to ``tests/artifacts/serve/`` (or
``$TARNEEB_ARTIFACTS``), printed at the end of the run; they are not checked in.

Skipped, with the reason, only where Chromium is not installed (``.ci/run`` installs it; under CI a missing
browser fails instead).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install -e '.[serve]')")
pytest.importorskip("playwright", reason="playwright is not installed (pip install -e '.[test]')")

from playwright.sync_api import Browser, Page, ViewportSize, expect  # noqa: E402
from tests.browser_support import (  # noqa: E402
    DESKTOP,
    PHONE,
    SERVE_ARTIFACTS,
    launched,
    skip_module_without_chromium,
)
from tests.serve_support import ROOT, Server, divergent_record, record_lines, running  # noqa: E402

from tarneeb.core.spec import rulesets  # noqa: E402
from tarneeb.docgen.rulebook import ruleset_doc  # noqa: E402
from tarneeb.serve.form import GROUP_KEYS, KIND_GROUPS  # noqa: E402

ARTIFACTS = SERVE_ARTIFACTS

skip_module_without_chromium()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with running() as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from launched()


# One page per kind of window for the whole module, each test starting with its own goto: a new context and
# page cost about 0.25 s of CPU each (a renderer started, the style and scripts fetched again), as much as the
# rest of a short test. No test leaves anything a goto does not reset (the app sets no cookie and stores nothing).


def _shared_page(browser: Browser, **options: Any) -> Iterator[Page]:
    ctx = browser.new_context(**options)
    yield ctx.new_page()
    ctx.close()


@pytest.fixture(scope="module")
def desktop(browser: Browser) -> Iterator[Page]:
    yield from _shared_page(browser, viewport=DESKTOP)


@pytest.fixture
def page(desktop: Page) -> Page:
    """The desktop window, back at 1280 px (a test may have narrowed it to a phone's width)."""
    desktop.set_viewport_size(DESKTOP)
    return desktop


@pytest.fixture(scope="module")
def phone(browser: Browser) -> Iterator[Page]:
    """A phone at 390 px with touch, at two device pixels a CSS pixel."""
    yield from _shared_page(browser, viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)


@pytest.fixture(scope="module")
def phone1x(browser: Browser) -> Iterator[Page]:
    """A phone at 390 px with touch, at one device pixel a CSS pixel (lighter screenshots)."""
    yield from _shared_page(browser, viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True)


@pytest.fixture(scope="module")
def shots() -> Iterator[list[Path]]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    taken: list[Path] = []
    yield taken
    if taken:
        print(f"\nscreenshots ({len(taken)}) in {ARTIFACTS}")


def shoot(pg: Page, shots: list[Path], name: str) -> None:
    path = ARTIFACTS / f"{name}.png"
    pg.screenshot(path=str(path), full_page=True)
    shots.append(path)


def shoot_part(pg: Page, selector: str, shots: list[Path], name: str) -> None:
    """One part of a long page (a phone's full page is too tall to look at)."""
    path = ARTIFACTS / f"{name}.png"
    pg.locator(selector).screenshot(path=str(path))
    shots.append(path)


def no_horizontal_scroll(pg: Page) -> None:
    width = pg.evaluate("document.documentElement.scrollWidth")
    size = pg.viewport_size  # not window.innerWidth: a mobile browser widens that to fit a page that overflows
    assert size is not None
    viewport = size["width"]
    assert width <= viewport, f"{pg.url}: the page is {width}px wide in a {viewport}px window"


def tick_only(pg: Page, rulesets: list[str]) -> None:
    for box in pg.locator('input[name="ruleset"]').all():
        box.set_checked(box.get_attribute("value") in rulesets)


def pick(pg: Page, target: str, *cards: str) -> None:
    """Choose the picker's target, then tap each card."""
    pg.locator(f'.target:has(input[value="{target}"])').click()
    for c in cards:
        pg.locator(f'button.card[data-card="{c}"]').click()


# ------------------------------------------------------------------ disputes


def test_a_winner_dispute(server: Server, page: Page, shots: list[Path]) -> None:
    page.goto(server.url + "en/ruling")
    page.select_option("#kind", "winner")
    expect(page.locator("#kind-hint")).to_have_text("Give: the scores; with the bids and all 13 tricks, the scores "
                                                    "before the hand.")
    for seat, score in enumerate(("45", "42", "10", "13")):
        page.fill(f"#score{seat}", score)
    page.click("#get-ruling")
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(page.locator("#error")).to_have_count(0)
    expect(result.locator(".agreement")).to_contain_text("team 1 wins under rulesets bsfyi-41 and tarneeb-400; "
                                                         "no winner yet under rulesets card-kings-41 and eram-41")
    ck = result.locator('article:has(h3 [data-ruleset="card-kings-41"])')
    expect(ck.locator(".verdict")).to_contain_text("no winner yet, another hand is played")
    expect(ck).to_contain_text("tie.both-qualify")
    expect(ck).to_contain_text('Card Kings, Tarneeb 41 rules page (untitled), section "How the game ends"')
    expect(result.locator('article:has(h3 [data-ruleset="bsfyi-41"]) .verdict')).to_contain_text("team 1 (player 1 and player 3) wins")
    expect(page.locator("#score0")).to_have_value("45")  # the form keeps what was entered
    shoot(page, shots, "ruling-winner-en-desktop")


def test_the_form_shows_the_question_first_and_only_its_fields(server: Server, page: Page, shots: list[Path]) -> None:
    """Choosing a question folds away the fields it does not read; a field holding a value stays; "Show every
    field" brings back the rest (the form was five phone screens of every field of every question)."""
    page.set_viewport_size(PHONE)
    page.goto(server.url + "en/ruling")
    page.select_option("#kind", "trump")
    for shown in ("#dealer", "#revealed", "#contract_seat", "#trump"):
        expect(page.locator(shown)).to_be_visible()
    for folded in ("#bid0", "#score0", "#tricks0", "#history_leader0", "#held", "#q_seat", "#trick_leader"):
        expect(page.locator(folded)).to_be_hidden()
    expect(page.locator('.target:has(input[value="revealed"]) input')).to_be_checked()  # the one target left
    shoot(page, shots, "ruling-form-trump-en-phone")
    page.select_option("#kind", "score")
    page.fill("#bid1", "5")
    page.select_option("#kind", "trump")
    expect(page.locator("#bid1")).to_be_visible()  # it holds a value: never folded away
    page.select_option("#kind", "irregularity")
    page.select_option("#irregularity", "misdeal")
    expect(page.locator("#dealer")).to_be_visible()
    expect(page.locator("#revealed")).to_be_hidden()
    page.click("#all-fields")
    for every in ("#revealed", "#score0", "#history_leader0", "#held", "#q_seat"):
        expect(page.locator(every)).to_be_visible()
    page.goto(server.url + "ar/ruling")
    page.select_option("#kind", "trump")
    expect(page.locator("#score0")).to_be_hidden()
    expect(page.locator("#all-fields")).to_have_text("أظهر كل الحقول")
    shoot(page, shots, "ruling-form-trump-ar-phone")


def test_a_card_legality_dispute_with_the_card_picker(server: Server, page: Page, shots: list[Path]) -> None:
    page.set_viewport_size(PHONE)
    page.goto(server.url + "en/ruling")
    tick_only(page, ["card-kings-41", "classic"])
    page.select_option("#kind", "card-legal")
    page.select_option("#dealer", "0")
    page.select_option("#q_seat", "2")
    page.select_option("#trick_leader", "1")
    pick(page, "trick_cards", "KD")
    pick(page, "held", "3C", "5D")
    pick(page, "q_card", "3C")
    expect(page.locator("#trick_cards")).to_have_value("KD")
    expect(page.locator("#held")).to_have_value("3C 5D")
    expect(page.locator("#q_card")).to_have_value("3C")
    expect(page.locator('button.card[data-card="3C"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator('button.card[data-card="KD"]')).to_have_class("card used")
    pick(page, "q_card", "5H")  # a red card chosen: white on the green, legible (it was red on green)
    red = page.locator('button.card[data-card="5H"]')
    expect(red).to_have_attribute("aria-pressed", "true")
    expect(red).to_have_css("color", "rgb(255, 255, 255)")
    pick(page, "q_card", "3C")
    expect(page.locator("#q_card")).to_have_value("3C")
    page.click("#get-ruling")
    for rid in ("card-kings-41", "classic"):
        art = page.locator(f'article:has(h3 [data-ruleset="{rid}"])')
        expect(art.locator(".verdict")).to_have_text("3♣ is not legal: the player holds the led suit and must follow it.")
        expect(art).to_contain_text("play.follow")
    no_horizontal_scroll(page)
    shoot(page, shots, "ruling-card-legal-en-phone")
    # tapping 5D again takes it out: now seat 2 shows no diamond, and is said to hold none
    pick(page, "held", "5D")
    expect(page.locator("#held")).to_have_value("3C")
    page.check('input[name="void_D"]')
    page.click("#get-ruling")
    expect(page.locator('article:has(h3 [data-ruleset="card-kings-41"]) .verdict')).to_contain_text("3\u2663 is legal")


def test_contradictory_facts_get_a_message_and_the_form_stays(server: Server, page: Page) -> None:
    page.goto(server.url + "en/ruling")
    page.select_option("#kind", "card-legal")
    page.select_option("#q_seat", "2")
    page.select_option("#trick_leader", "1")
    pick(page, "trick_cards", "KD")
    page.fill("#q_card", "KD")  # typed: the card already on the table
    page.click("#get-ruling")
    expect(page.locator("#error")).to_contain_text("(form): question.card / trick.cards[0]: KD was already played")
    expect(page.locator("#trick_cards")).to_have_value("KD")
    assert "Traceback" not in page.content()


# ------------------------------------------------------------------ Arabic


@pytest.mark.parametrize("path", ["", "ruling", "records", "rules/eram-41"])
def test_arabic_pages_are_right_to_left(server: Server, page: Page, path: str, shots: list[Path]) -> None:
    sizes: tuple[tuple[ViewportSize, str], ...] = ((DESKTOP, "desktop"), (PHONE, "phone"))
    pg = page
    for size, label in sizes:
        pg.set_viewport_size(size)
        pg.goto(server.url + "ar/" + path)
        where = f"{pg.url} ({label})"
        assert pg.evaluate("document.documentElement.dir") == "rtl", where
        assert pg.evaluate("document.documentElement.lang") == "ar", where
        for sel in ("body", "nav", "main"):
            assert pg.evaluate(f"getComputedStyle(document.querySelector('{sel}')).direction") == "rtl", (where, sel)
        # the navigation runs right to left: the first link (the app's name) is the rightmost
        brand = pg.locator("nav a.brand").bounding_box()
        switch = pg.locator("nav a.lang").bounding_box()
        assert brand is not None and switch is not None and brand["x"] > switch["x"]
        for code in pg.locator("main code bdi").all()[:5]:  # clause ids and card codes stay left to right
            assert code.evaluate("e => getComputedStyle(e.closest('code')).direction") == "ltr"
        no_horizontal_scroll(pg)
        shoot(pg, shots, f"{(path or 'home').replace('/', '-')}-ar-{label}")


def test_an_arabic_ruling(server: Server, page: Page, shots: list[Path]) -> None:
    page.set_viewport_size(PHONE)
    page.goto(server.url + "ar/ruling")
    tick_only(page, ["card-kings-41", "eram-41"])
    page.select_option("#kind", "winner")
    for seat, score in enumerate(("50", "1", "-4", "1")):
        page.fill(f"#score{seat}", score)
    page.click("#get-ruling")
    art = page.locator('article:has(h3 [data-ruleset="card-kings-41"])')
    expect(art).to_be_visible()
    qualify = {c.id: c.text for s in ruleset_doc("card-kings-41", "ar").sections for c in s.clauses}["win.qualify"]
    expect(art.locator('[data-member="card-kings-41"] li', has_text="win.qualify")).to_contain_text(qualify)
    assert art.evaluate("e => getComputedStyle(e).direction") == "rtl"
    # the verdict in Arabic, right to left, and its arithmetic in Arabic; the referee's English sentence folded
    # away at the card's end, left to right when opened
    assert art.locator(".verdict").evaluate("e => getComputedStyle(e).direction") == "rtl"
    expect(art.locator(".verdict")).to_contain_text("لسّا ما في فريق ربح")
    expect(art.locator(".math")).to_contain_text("الفريق الأول (1 و3)")
    expect(art.locator(".math")).not_to_contain_text("team")
    expect(art.locator(".verdict-en")).to_be_hidden()
    art.locator("details.english > summary").click()
    expect(art.locator(".verdict-en")).to_be_visible()
    assert art.locator(".verdict-en").evaluate("e => getComputedStyle(e).direction") == "ltr"
    no_horizontal_scroll(page)
    shoot(page, shots, "ruling-winner-ar-phone")


def cli_lines(path: Path, lang: str = "en", rulesets: list[str] | None = None) -> list[str]:
    """The lines ``tarneeb ruling PATH --lang LANG`` prints (the same report: rule_dict's text), the rulesets
    asked in the order given."""
    import tomllib

    from tarneeb.ruling import rule_dict
    from tarneeb.serve.app import with_suits

    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    # as the page shows them: cards with their suit's symbol
    return [with_suits(" ".join(ln.split())) for ln in rule_dict(raw, rulesets, lang)["text"].splitlines()
            if ln.strip()]


def answer_lines(pg: Page) -> list[str]:
    """The report's lines (folded under the headline: read as text, whether the fold is open or not)."""
    return [" ".join(t.split()) for t in pg.locator("#answer p").all_text_contents()]


def test_a_revoke_from_the_form_on_a_phone(server: Server, phone: Page, shots: list[Path]) -> None:
    """spec/disputes/revoke-found-later.toml entered on a phone: the irregularity chosen, the finished tricks
    tapped in with the card picker, the later card typed with its seat."""
    page = phone
    page.goto(server.url + "en/ruling")
    expect(page.locator("#irregularity-box")).to_be_hidden()  # shown only for an irregularity
    tick_only(page, ["card-kings-41", "eram-41", "classic"])
    page.select_option("#kind", "irregularity")
    expect(page.locator("#irregularity-box")).to_be_visible()
    page.select_option("#irregularity", "misdeal")
    expect(page.locator("#irregularity-hint")).to_have_text("Give: the dealer.")
    page.select_option("#irregularity", "revoke")
    expect(page.locator("#irregularity-hint")).to_contain_text("the player who revoked")
    page.select_option("#q_seat", "2")
    page.select_option("#dealer", "0")
    page.select_option("#contract_seat", "1")
    page.fill("#contract_bid", "7")
    page.select_option("#contract_trump", "S")
    pick(page, "revealed", "2S")
    for i, cards in enumerate((("KD", "3H", "4D", "5D"), ("AH", "4H", "5H", "6H"), ("QD",))):
        page.select_option(f"#history_leader{i}", "1")
        pick(page, f"history_cards{i}", *cards)
    page.fill("#history_cards2", "QD 7D@3 8D 9D")  # typed, the revoking player's later card tagged player 3
    pick(page, "history_cards2", "9D")  # a tap takes 9D out again and keeps the tag
    expect(page.locator("#history_cards2")).to_have_value("QD 7D@3 8D")
    pick(page, "history_cards2", "9D")
    expect(page.locator("#history_cards0")).to_have_value("KD 3H 4D 5D")
    page.click("#get-ruling")
    expect(page.locator("#error")).to_have_count(0)
    want = cli_lines(ROOT / "spec/disputes/revoke-found-later.toml",  # the rulesets in the page's order
                     rulesets=[r for r in rulesets() if r in ("card-kings-41", "eram-41", "classic")])
    shown = answer_lines(page)
    assert shown[0].split(" (")[0] == want[0].split(" (")[0] and shown[1:] == want[1:], (shown, want)
    art = page.locator('article:has(h3 [data-ruleset="classic"])')
    expect(page.locator("#headline")).to_be_visible()  # the answer in one sentence, at the top
    expect(page.locator("#headline")).to_contain_text("A revoke in trick 1 (3\u2665 played while holding 7\u2666)")
    expect(page.locator("#answer")).to_be_hidden()  # the report's text folded below it
    page.locator("details.answer-text > summary").click()
    expect(page.locator("#answer")).to_be_visible()
    expect(art.locator(".verdict")).to_contain_text("Player 3 revoked in trick 1.")
    expect(art.locator(".math")).to_contain_text("player 3 played 3♥ while holding a diamond (7♦)")
    no_horizontal_scroll(page)
    shoot(page, shots, "ruling-revoke-en-phone")
    shoot_part(page, "#result", shots, "ruling-revoke-en-phone-result")
    shoot_part(page, "fieldset:has(#history_leader0)", shots, "ruling-revoke-en-phone-tricks")


def test_an_arabic_ruling_text(server: Server, phone: Page, shots: list[Path]) -> None:
    """The Arabic page answers in Arabic (tarneeb ruling --lang ar), right to left, players counted from 1."""
    page = phone
    page.goto(server.url + "ar/ruling")
    page.select_option("#kind", "score")
    page.select_option("#q_seat", "2")
    expect(page.locator("#q_seat option:checked")).to_have_text("اللاعب 3")
    page.fill("#score2", "20")
    page.fill("#bid2", "5")
    page.fill("#tricks2", "6")
    page.click("#get-ruling")
    expect(page.locator("#error")).to_have_count(0)
    answer = page.locator("#answer")
    expect(answer).to_contain_text("اللاعب 3")
    assert answer.evaluate("e => getComputedStyle(e).direction") == "rtl"
    want = cli_lines(ROOT / "spec/disputes/one-seat-score.toml", "ar")
    shown = answer_lines(page)
    assert shown == want, (shown, want)
    expect(page.locator('article:has(h3 [data-ruleset="card-kings-41"]) .math')).to_contain_text("20 + 5 = 25")
    no_horizontal_scroll(page)
    shoot(page, shots, "ruling-score-ar-phone")
    shoot_part(page, "#result", shots, "ruling-score-ar-phone-result")


def test_the_arabic_examples_on_a_phone(server: Server, phone: Page, shots: list[Path]) -> None:
    """The examples under the Arabic paste box at 390 px: the disputes' Arabic titles, no file path; one opened and
    ruled."""
    from tarneeb.docgen.pages_i18n import page_text

    pg = phone
    pg.goto(server.url + "ar/ruling")
    pg.locator("details.paste > summary").click()
    example = pg.locator('.examples a[href$="example=cancelled-hand-dealer"]')
    expect(example).to_have_text(page_text("dispute", "cancelled-hand-dealer", "title"))
    expect(pg.locator("details.paste")).not_to_contain_text("spec/")
    no_horizontal_scroll(pg)
    shoot_part(pg, "details.paste", shots, "ruling-examples-ar-phone")
    example.click()
    expect(pg.locator("#situation_text")).to_contain_text("[question]")
    pg.click("#rule-pasted")
    from tarneeb.ruling.arabic import ruleset_ar

    for rid in ("bsfyi-41", "card-kings-41", "eram-41", "tarneeb-400"):  # the four rulesets it names, in Arabic
        expect(pg.locator("#headline")).to_contain_text(ruleset_ar(rid))
    expect(pg.locator("#headline bdi.id")).to_have_count(0)  # no id in the Arabic headline
    no_horizontal_scroll(pg)
    shoot_part(pg, "#headline", shots, "ruling-cancelled-hand-dealer-ar-phone-headline")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_question_menus_fit_a_phone(server: Server, phone1x: Page, lang: str) -> None:
    """At 390 px every choice of the question and irregularity menus shows whole in the closed menu (the
    irregularity question's long label was cut off)."""
    pg = phone1x
    pg.goto(server.url + f"{lang}/ruling")
    pg.select_option("#kind", "irregularity")
    cut = pg.evaluate("""() => {
        const ctx = document.createElement('canvas').getContext('2d');
        const out = [];
        for (const sel of document.querySelectorAll('#kind, #irregularity')) {
            const st = getComputedStyle(sel);
            ctx.font = `${st.fontWeight} ${st.fontSize} ${st.fontFamily}`;
            const arrow = 24;  // the menu's drop-down arrow
            const room = sel.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight) - arrow;
            for (const o of sel.options) {
                const w = ctx.measureText(o.text).width;
                if (w > room) out.push([sel.id, o.text, Math.round(w), Math.round(room)]);
            }
        }
        return out;
    }""")
    assert cut == [], f"menu choices wider than the menu at 390 px: {cut}"


def _one_dispute_per_kind() -> list[Path]:
    """The first dispute file of each question kind (an irregularity counts as its own kind)."""
    import tomllib

    seen: dict[str, Path] = {}
    for path in sorted((ROOT / "spec" / "disputes").glob("*.toml")):
        q = tomllib.loads(path.read_text(encoding="utf-8"))["question"]
        seen.setdefault(q["kind"] + (f":{q['irregularity']}" if "irregularity" in q else ""), path)
    return list(seen.values())


def shown_groups(pg: Page) -> dict[str, list[int]]:
    """The form's field groups that show, each with the places (0: its first element) of its elements that show,
    in one round trip; shown as Playwright's ``:visible`` (and ``expect(...).to_be_visible()``) counts it."""
    places: list[tuple[str, int]] = pg.locator("form [data-group]:visible").evaluate_all(
        """els => els.map(e => {
            const g = e.getAttribute('data-group');
            return [g, [...document.querySelectorAll('form [data-group]')].filter(o => o.getAttribute('data-group') === g)
                       .indexOf(e)];
        })""")
    out: dict[str, list[int]] = {}
    for group, place in places:
        out.setdefault(group, []).append(place)
    return out


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("path", _one_dispute_per_kind(), ids=lambda p: p.stem)
def test_every_question_kind_on_a_phone(server: Server, phone1x: Page, path: Path, lang: str,
                                        shots: list[Path]) -> None:
    """Each question kind at 390 px in both languages: its form (only its fields), then its dispute pasted: the
    one-sentence answer on top, the referee's lines as the command prints them, no sideways scrolling."""
    import tomllib

    question = tomllib.loads(path.read_text(encoding="utf-8"))["question"]
    page = phone1x
    page.goto(server.url + f"{lang}/ruling")
    page.select_option("#kind", question["kind"])
    key = question["kind"]
    if "irregularity" in question:  # its own fields (an exposed card: the player and the card)
        page.select_option("#irregularity", question["irregularity"])
        key += ":" + question["irregularity"]
    # only the question's fields; the page's script folds the others at once, on the menu's change event
    shown = shown_groups(page)
    hidden = [g for g in GROUP_KEYS if g in KIND_GROUPS[key] and 0 not in shown.get(g, [])]
    extra = {g: shown[g] for g in GROUP_KEYS if g not in KIND_GROUPS[key] and g in shown}
    assert hidden == [], f"{key} ({lang}): field groups it reads whose first element is hidden: {hidden}"
    assert extra == {}, f"{key} ({lang}): field groups it does not read shown (group: elements shown): {extra}"
    expect(page.locator("#kind-hint")).not_to_be_empty()
    no_horizontal_scroll(page)
    shoot(page, shots, f"form-{path.stem}-{lang}-phone")
    page.locator("details.paste > summary").click()
    page.fill("#situation_text", path.read_text(encoding="utf-8"))
    page.click("#rule-pasted")
    page.locator("#headline, #error").first.wait_for()  # the answer's page, not the form still shown
    errors = page.locator("#error").all_inner_texts()
    assert errors == [], f"{key} ({lang}): {path.name} answered with an error: {errors}"
    expect(page.locator("#headline")).to_be_visible()
    shown_lines, want = answer_lines(page)[1:], cli_lines(path, lang)[1:]
    assert shown_lines == want, f"{key} ({lang}): the page's lines differ from tarneeb ruling {path.name}"
    no_horizontal_scroll(page)
    broken = page.eval_on_selector_all("#result code, #result bdi.id",  # clause ids, a sentence's ruleset ids
                                       "els => els.filter(e => e.getClientRects().length > 1)"
                                       ".map(e => e.textContent)")
    assert broken == [], f"{key} ({lang}): ids broken across lines: {broken}"
    shoot_part(page, "#result", shots, f"ruling-{path.stem}-{lang}-phone-result")


# ------------------------------------------------------------------ records


def test_an_uploaded_record_with_a_divergence(server: Server, page: Page, tmp_path: Path, shots: list[Path]) -> None:
    path, line, hand = divergent_record(tmp_path)
    page.goto(server.url + "en/records")
    page.set_input_files("#records_file", str(path))
    page.click("#check-records")
    expect(page.locator("#summary")).to_contain_text("1 divergence,")
    div = page.locator("article.divergence")
    expect(div).to_have_count(1)
    expect(div.locator("h3")).to_contain_text(f"hand {hand + 1} · trick 1 · line {line}")  # both counted from 1
    expect(div).to_contain_text("tricks[0].winner")
    expect(div).to_contain_text("play.winner")
    shoot(page, shots, "records-divergence-en-desktop")
    page.set_viewport_size(PHONE)
    no_horizontal_scroll(page)
    shoot(page, shots, "records-divergence-en-phone")
    # the same upload on the Arabic page, on a phone: the claim and the rules' answer in Arabic words
    page.goto(server.url + "ar/records")
    page.set_input_files("#records_file", str(path))
    page.click("#check-records")
    div = page.locator("article.divergence")
    expect(div).to_have_count(1)
    expect(div.locator("h3")).to_contain_text(f"اليد {hand + 1} · اللمّة 1 · السطر {line}")
    expect(div.locator("dd").nth(2)).to_contain_text("اللاعب")
    expect(div.locator("dd").nth(3)).to_contain_text("بدأها اللاعب")
    no_horizontal_scroll(page)
    shoot(page, shots, "records-divergence-ar-phone")


def test_a_malformed_upload(server: Server, page: Page, tmp_path: Path, shots: list[Path]) -> None:
    bad = tmp_path / "photo.jsonl"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00IHDR")
    page.goto(server.url + "ar/records")
    page.set_input_files("#records_file", str(bad))
    page.click("#check-records")
    err = page.locator("#error")
    expect(err).to_contain_text("photo.jsonl:1")
    expect(err).to_contain_text("JSON")  # the format named in words, no folder of the source tree
    assert "Traceback" not in page.content()
    shoot(page, shots, "records-malformed-ar-desktop")
    status, _ = server.get("/en/")
    assert status == 200 and server.proc.poll() is None
    record_lines(tmp_path)  # then a good file, on the same page
    page.set_input_files("#records_file", str(tmp_path / "games.jsonl"))
    page.click("#check-records")
    expect(page.locator("#summary")).to_have_class("summary clean")
    expect(page.locator("#error")).to_have_count(0)


def test_a_malformed_situation_upload(server: Server, page: Page, tmp_path: Path) -> None:
    bad = tmp_path / "dispute.toml"
    bad.write_text("ruleset = 'all'\n[question\nkind = 'winner'\n", encoding="utf-8")
    page.goto(server.url + "en/ruling")
    page.click("details.paste summary")
    page.set_input_files("#situation_file", str(bad))
    page.click("#rule-pasted")
    expect(page.locator("#error")).to_contain_text("dispute.toml: (syntax): ")
    assert server.get("/en/ruling")[0] == 200


# ------------------------------------------------------------------ every page on a phone


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_main_pages_fit_a_phone(server: Server, phone: Page, lang: str, shots: list[Path]) -> None:
    pg = phone
    for path in ("", "ruling", "records", "rules/", "rules/classic"):
        pg.goto(server.url + f"{lang}/{path}")
        no_horizontal_scroll(pg)
        small = pg.evaluate("""() => [...document.querySelectorAll('button, select, input:not([type=radio]):not([type=checkbox])')]
            .filter(e => e.offsetParent !== null)
            .map(e => [e.id || e.getAttribute('data-card') || e.tagName, e.getBoundingClientRect().height])
            .filter(([, h]) => h < 40)""")
        assert small == [], f"{pg.url}: tap targets under 40px high: {small}"
        if lang == "en" or path in ("ruling", "rules/classic"):
            shoot(pg, shots, f"{(path.rstrip('/') or 'home').replace('/', '-')}-{lang}-phone")


def test_desktop_screenshots(server: Server, page: Page, shots: list[Path]) -> None:
    for lang in ("en", "ar"):
        for path in ("", "ruling", "rules/card-kings-41"):
            page.goto(server.url + f"{lang}/{path}")
            no_horizontal_scroll(page)
            shoot(page, shots, f"{(path or 'home').replace('/', '-')}-{lang}-desktop")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_is_this_card_legal_in_six_taps_on_a_phone(server: Server, phone: Page, lang: str, shots: list[Path]) -> None:
    """At 390 px, from the referee's page: player 2 led the king of diamonds, may player 3, who has no diamond,
    play the three of clubs? Each tap counted (a menu would be two: open, choose): the trick's leader (its player
    button turns the card picker to the trick), K♦, the player asked (the picker turns to the card asked), 3♣, no
    diamonds, "Get the ruling"."""
    taps: list[str] = []

    def tap(selector: str) -> None:
        phone.locator(selector).tap()
        taps.append(selector)

    phone.goto(server.url + f"{lang}/ruling")
    expect(phone.locator("#kind")).to_have_value("card-legal")  # the question the page opens on
    tap('select#trick_leader + .chips button[data-seat="1"]')
    tap('button.card[data-card="KD"]')
    tap('select#q_seat + .chips button[data-seat="2"]')
    tap('button.card[data-card="3C"]')
    tap('label.check:has(input[name="void_D"])')
    expect(phone.locator("#trick_leader")).to_have_value("1")
    expect(phone.locator("#trick_cards")).to_have_value("KD")
    expect(phone.locator("#q_seat")).to_have_value("2")
    expect(phone.locator("#q_card")).to_have_value("3C")
    shoot_part(phone, "#situation-form", shots, f"ruling-six-taps-form-{lang}-phone")
    tap("#get-ruling")
    assert len(taps) <= 6, taps
    result = phone.locator("#result")
    expect(result).to_be_visible()
    expect(phone.locator("#error")).to_have_count(0)
    expect(result.locator("#headline")).to_contain_text("بيقدر" if lang == "ar" else "Legal")
    expect(result.locator(".verdict").first).to_contain_text("ثلاثة السباتي" if lang == "ar" else "3♣")
    no_horizontal_scroll(phone)
    shoot_part(phone, "#result", shots, f"ruling-six-taps-result-{lang}-phone")


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_why_fold_gives_words_first_and_a_damaged_link_says_so(server: Server, page: Page, phone: Page,
                                                                  lang: str, shots: list[Path]) -> None:
    """A ruling's "why" fold is headed by words, each clause's own words first and its id after them in a small
    technical line; a link naming no example says so. At 1280 and 390 px."""
    for pg, size in ((page, "desktop"), (phone, "phone")):
        pg.goto(server.url + f"{lang}/ruling?example=tie-equal-combined")
        pg.click("#rule-pasted")  # the example's situation, in the paste box opened
        why = pg.locator("details.why").first
        expect(why.locator("summary")).not_to_contain_text("tie.")
        why.locator("summary").click()
        first = why.locator("ul.clauses li").first
        expect(first.locator("small.tech code")).to_be_visible()
        assert not first.inner_text().startswith(("tie.", "win.")), first.inner_text()
        no_horizontal_scroll(pg)
        shoot_part(pg, "#result", shots, f"ruling-why-{lang}-{size}")
        pg.goto(server.url + f"{lang}/ruling?example=tie-equal-comb")
        expect(pg.locator("#error")).to_contain_text("tie-equal-comb" if lang == "en" else "tie\u2011equal\u2011comb")
        no_horizontal_scroll(pg)
        shoot_part(pg, "main", shots, f"ruling-bad-example-{lang}-{size}") if size == "desktop" else \
            shoot_part(pg, "#error", shots, f"ruling-bad-example-{lang}-{size}")
