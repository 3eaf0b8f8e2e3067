"""``tarneeb site``: the offline site, built and opened in headless Chromium from a plain static server.

One Pyodide boot answers every dispute of ``spec/disputes/`` in English, then (the language link, in the page) in
Arabic, each exactly as ``tarneeb ruling --json`` answers it (every key of its JSON, and the lines the page shows
against the command's text); a ruling entered with the form round-trips through its share link; a record file
with a divergence is checked in the page as the verifier checks it; on a 390 px phone nothing scrolls sideways
and the Arabic page is right to left. Then the network is cut and a reload of a shared Arabic link still rules
(the service worker's cache). Screenshots (1280 and 390 px, both languages) go to ``tests/artifacts/offline/``
(or ``$TARNEEB_ARTIFACTS``); the first-load size and the time to the first ruling are printed.

The browser test needs Chromium and the npm package pyodide (``.ci/run`` installs both); without them it is
skipped off CI and fails on CI.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.browser_support import ARGS, CHROMIUM, need_chromium
from tests.pyodide_like import WITHOUT_EXTRAS

from tarneeb.offline import build as B
from tarneeb.offline.pages import share_fragment, situation_toml
from tarneeb.serve.form import situation_from_form

ROOT = Path(__file__).resolve().parents[1]
DISPUTES = sorted((ROOT / "spec" / "disputes").glob("*.toml"))
ARTIFACTS = Path(os.environ.get("TARNEEB_ARTIFACTS", ROOT / "tests" / "artifacts")) / "offline"
MAX_BYTES = 20_000_000  # the first visit's download (the target: 20 MB or less)


def _cli(*argv: str) -> str:
    from tarneeb.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) == 0, argv
    return out.getvalue()


# ------------------------------------------------------------------ without a browser


def test_a_situation_round_trips_through_its_toml() -> None:
    """The share link's TOML reads back to the same table: every dispute's, and the form's."""
    for p in DISPUTES:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
        assert tomllib.loads(situation_toml(raw)) == raw, p.name
    form = {"kind": "card-legal", "q_seat": "2", "q_card": "3c", "trick_leader": "1", "trick_cards": "KD 2d@3",
            "void_D": "1", "trump": "S", "history_leader0": "0", "history_cards0": "AS 2S 3S 4S",
            "options": "classic: must_trump=true", "score0": "-5", "score1": "x"}
    raw = situation_from_form(form, ["classic", "eram-41"], ["classic", "eram-41", "bsfyi-41"])
    assert tomllib.loads(situation_toml(raw)) == raw
    with pytest.raises(ValueError):
        situation_toml({"scores": [1.5, None]})


def test_the_engine_imports_without_orjson_z3_rich_or_starlette(tmp_path: Path) -> None:
    """Item 4: the ruling, the record check and the site's pages import and answer in a Python without orjson,
    z3, rich or Starlette (as in Pyodide), the same as with them."""
    code = WITHOUT_EXTRAS + r'''
from tarneeb.offline.pages import respond
ruling = json.loads(respond(json.dumps({"page": "ruling", "lang": "ar", "situation": sys.argv[1]})))
records = json.loads(respond(json.dumps({"page": "records", "lang": "en", "form": {"records_text": [sys.argv[2]]}})))
score = json.loads(respond(json.dumps({"page": "score", "lang": "ar", "request": sys.argv[3]})))
print(json.dumps({"report": ruling["report"], "summary": records["summary"], "score": score,
                  "modules": sorted(m for m, mod in sys.modules.items()  # loaded from a file: not a stand-in
                                    if m.split(".")[0] in ("orjson", "z3", "rich", "starlette", "anyio")
                                    and getattr(mod, "__file__", None))}))
'''
    from tests.serve_support import divergent_record

    record = divergent_record(tmp_path)[0].read_text(encoding="utf-8")
    situation = (ROOT / "spec" / "disputes" / "void-discard.toml").read_text(encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "model")}
    house = (ROOT / "spec" / "house-rules" / "card-kings-total-13.toml").read_text(encoding="utf-8")
    sheet = {"format": "tarneeb-score-sheet", "version": 1, "ruleset": "club.toml", "players": ["a", "b", "c", "d"],
             "first_dealer": 0, "hands": [{"bids": [3, 3, 3, 3]}, {"bids": [2, 2, 2, 10], "tricks_won": [10, 1, 1, 1]}]}
    score_request = json.dumps({"sheet": sheet, "house": {"name": "club.toml", "text": house}, "entry": {"hand": {}}})
    p = subprocess.run([sys.executable, "-c", code, situation, record, score_request], capture_output=True, text=True,
                       env=env, timeout=120)
    assert p.returncode == 0, p.stderr[-3000:]
    got = json.loads(p.stdout)
    assert got["modules"] == []
    from tarneeb.offline.pages import respond

    assert got["report"] == json.loads(respond(json.dumps({"page": "ruling", "lang": "ar", "situation": situation})))["report"]
    with_orjson = json.loads(respond(json.dumps({"page": "records", "lang": "en", "form": {"records_text": [record]}})))
    assert got["summary"] == with_orjson["summary"] and got["summary"]["divergences"] >= 1
    # the score sheet, a house file's included (read from a folder of its own, as Pyodide's file system holds it)
    assert got["score"] == json.loads(respond(json.dumps({"page": "score", "lang": "ar", "request": score_request})))
    assert got["score"]["outcome"]["why"]["clause"] == "win.made-bid" and got["score"]["rows"][0]["thrown_in"]
    assert got["score"]["outcome"]["text"].endswith("ربحوا المباراة.")  # in the page's language


def test_the_pages_answer_as_the_web_referee_answers(tmp_path: Path) -> None:
    """:func:`respond` (what the browser runs) gives the page ``tarneeb serve`` gives for the same form, pasted
    text, upload, bad input or record file, but for the links made relative to the page's folder; so does every
    page the site holds as a file."""
    import base64

    from starlette.testclient import TestClient
    from tests.serve_support import divergent_record

    from tarneeb.offline.pages import localize, respond, static_pages
    from tarneeb.serve import engine
    from tarneeb.serve.app import create_app

    client = TestClient(create_app())
    situation = (ROOT / "spec" / "disputes" / "revoke-found-later.toml").read_bytes()
    record = divergent_record(tmp_path)[0].read_bytes()
    winner = {"kind": ["winner"], "score0": ["41"], "score1": ["50"], "score2": ["10"], "score3": ["1"],
              "ruleset": ["card-kings-41", "classic"], "explain": ["1"]}
    cases: list[tuple[str, str, dict[str, list[Any]], dict[str, tuple[str, bytes]]]] = [
        ("ruling", "en", winner, {}),
        ("ruling", "ar", {**winner, "score3": ["x"]}, {}),  # bad input: the located line, status 400
        ("ruling", "ar", {"situation_text": [situation.decode()]}, {}),
        ("ruling", "en", {}, {"situation_file": ("mine.toml", situation)}),
        ("ruling", "en", {}, {"situation_file": ("mine.toml", b"\xff\xfe")}),  # not UTF-8
        ("records", "ar", {"records_text": [record.decode()]}, {}),
        ("records", "en", {}, {"records_file": ("games.jsonl", record)}),
        ("records", "en", {"records_text": ["  "]}, {}),
        ("records", "ar", {"records_text": ["{}\n" * (engine.MAX_RECORD_LINES + 1)]}, {}),  # too long: 413
    ]
    for page, lang, fields, files in cases:
        form = {**fields, **{k: [{"name": n, "data": base64.b64encode(d).decode()}] for k, (n, d) in files.items()}}
        got = json.loads(respond(json.dumps({"page": page, "lang": lang, "form": form})))
        sent = client.post(f"/{lang}/{page}", data=fields, files={k: v for k, v in files.items()} or None)
        assert (got["status"], got["html"]) == (sent.status_code, localize(sent.text, f"/{lang}/{page}")), (page, lang, fields)
    for path, html in static_pages().items():
        web = "/" + path.rstrip("/") if path.count("/") > 1 and not path.endswith("rules/") else "/" + path
        sent = client.get(web)
        assert sent.status_code == 200 and html == localize(sent.text, web), path


def test_a_missing_pyodide_names_the_npm_command(tmp_path: Path) -> None:
    with pytest.raises(B.PyodideMissing, match="npm install"):
        B.find_pyodide(tmp_path)
    # CI installs the version the site is tested with (its tarball from the npm registry, or npm itself)
    version = B.NPM_COMMAND.rsplit("@", 1)[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert f"pyodide_version={version}\n" in ci and '"pyodide@$pyodide_version"' in ci


# ------------------------------------------------------------------ in the browser


def _pyodide() -> Path:
    try:
        return B.find_pyodide(None, ROOT)
    except B.PyodideMissing as e:
        if os.environ.get("CI"):  # .ci/run installs it: missing there is a failure
            pytest.fail(str(e))
        pytest.skip(f"the npm package pyodide is missing ({B.NPM_COMMAND})")
    raise AssertionError  # unreachable


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_link_to_no_example_says_so(lang: str) -> None:
    """A link whose ?example= names no example (cut short or garbled) says so, in the page's language, instead of
    showing the empty form as if that were the ruling; a whole one still opens its example."""
    from tarneeb.offline.pages import respond

    out = json.loads(respond(json.dumps({"page": "ruling", "lang": lang, "example": "tie-equal-comb"})))
    named = "tie-equal-comb" if lang == "en" else "tie\u2011equal\u2011comb"  # kept on one line in Arabic
    assert out["status"] == 404 and 'id="error"' in out["html"] and named in out["html"]
    assert ("cut short" if lang == "en" else "قُطع الرابط") in out["html"]
    whole = json.loads(respond(json.dumps({"page": "ruling", "lang": lang, "example": "tie-equal-combined"})))
    assert whole["status"] == 200 and 'id="error"' not in whole["html"]


STUB_PYODIDE = "export function loadPyodide() { return new Promise(function () {}); }\n"  # an engine still loading


@pytest.mark.parametrize(("fragment", "broken"), [
    ("#s=%%%garbled", True), ("#s=", True), ("#s=c2NoZW1hID0gMQo", False), ("#s=4py", True),
    ("#s=4pyTx", True)])
def test_a_damaged_share_link_says_so_and_keeps_saying_it(fragment: str, broken: bool,
                                                          tmp_path: Path) -> None:
    """offline.js, in Chromium, on the referee page with an engine that is still loading: a #s= that is not a
    situation's base64url (garbled characters, empty, a length no base64 has, cut inside a letter) says the link is
    damaged or cut short, and that message stays; a whole one goes on to rule (it says "Ruling…")."""
    need_chromium()
    pw = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")
    (tmp_path / "en" / "ruling").mkdir(parents=True)
    (tmp_path / "pyodide").mkdir()
    (tmp_path / "pyodide" / "pyodide.mjs").write_text(STUB_PYODIDE)
    shutil.copy(ROOT / "model" / "tarneeb" / "offline" / "static" / "offline.js", tmp_path / "offline.js")
    (tmp_path / "en" / "ruling" / "index.html").write_text(
        '<!doctype html><html lang="en"><body><main><h1>Ruling</h1></main>'
        '<script src="../../offline.js" data-root="../../"></script></body></html>')
    with _served(tmp_path) as base, pw.sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page()
            page.goto(f"{base}en/ruling/{fragment}")
            page.wait_for_timeout(700)
            said = page.locator(".offline-status").inner_text()
        finally:
            browser.close()
    if broken:
        assert said.startswith("This link is damaged or cut short"), said
    else:
        assert said == "Ruling…" or said.startswith("Loading"), said


@contextlib.contextmanager
def _served(folder: Path) -> Iterator[str]:
    """``folder`` served by ``python -m http.server`` on a free port of 127.0.0.1, once it answers: its address."""
    with socket.socket() as sk:
        sk.bind(("127.0.0.1", 0))
        port = sk.getsockname()[1]
    srv = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory",
                            str(folder)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
                break
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}/"
    finally:
        srv.terminate()
        srv.wait(10)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, Any]]]:
    """The site built by ``tarneeb site`` and served by ``python -m http.server`` on 127.0.0.1, in a sub-folder of
    the host: (its address, what the build printed)."""
    need_chromium()
    pyodide = _pyodide()
    host = tmp_path_factory.mktemp("host")
    out = host / "tarneeb"  # published in a sub-folder of the host, as on GitHub Pages (/REPO/)
    built = json.loads(_cli("site", str(out), "--pyodide", str(pyodide), "--json"))
    with _served(host) as base:
        yield f"{base}tarneeb/", built


def _expected(path: Path, lang: str) -> tuple[dict[str, Any], list[str]]:
    """What ``tarneeb ruling`` says of a dispute: its JSON (``--json --lang``) and the lines of its text; or, where
    it refuses the dispute, ``{"error": its message}`` (the page must show the same)."""
    from tarneeb.serve.app import with_suits

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            rep = json.loads(_cli("ruling", str(path), "--json", "--lang", lang))
        except AssertionError:
            return {"error": err.getvalue().strip().removeprefix("tarneeb: error: ").replace(str(path), "(link)")}, []
    if lang == "ar":  # the command heads its Arabic text with the dispute's Arabic title (found by the file's
        rep["text_ar"] = rep["text_ar"].split("\n", 1)[1]  # name, which a link has not), as the web referee does not
        del rep["title_ar"]
    text = rep["text_ar"] if lang == "ar" else _cli("ruling", str(path))
    return rep, [with_suits(ln) for ln in text.splitlines() if ln.strip()]


def _answer(page: Any, before: int) -> dict[str, Any]:
    page.wait_for_function("n => window.tarneeb.answered > n || window.tarneeb.error", arg=before, timeout=60_000)
    state: dict[str, Any] = page.evaluate("() => ({last: window.tarneeb.last, error: window.tarneeb.error, "
                                          "answered: window.tarneeb.answered, times: window.tarneeb.times})")
    assert state["error"] is None, state["error"]
    return state


def _holds(got: Any, want: Any) -> bool:
    """``got`` says all ``want`` says: equal, but for keys the page adds to a table (a clause's citation in the
    page's language, a ruleset's name in it: :func:`tarneeb.serve.engine.rule`)."""
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and _holds(got[k], v) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(_holds, got, want))
    return bool(got == want and type(got) is type(want))


def _same_ruling(page: Any, path: Path, lang: str, state: dict[str, Any]) -> None:
    rep, lines = _expected(path, lang)
    got = state["last"]["report"]
    if "error" in rep:  # the command refuses it: so does the page, with the same message
        assert got is None and state["last"]["status"] == 400, (path.name, lang)
        assert page.inner_text("#error p[lang=en]") == rep["error"], (path.name, lang)
        return
    assert got is not None, (path.name, lang, page.inner_text("main")[:500])
    for key, value in rep.items():  # every key of the command's JSON, but its file name and its text (below);
        if key not in ("file", "text_ar"):  # the headline too: in Arabic both give the Arabic one
            assert _holds(got[key], value), (path.name, lang, key, got[key], value)
    if lang == "ar":
        assert got["text"] == rep["text_ar"], path.name
    shown = page.eval_on_selector_all("#answer p", "ps => ps.map(p => p.textContent)")
    assert shown == lines, (path.name, lang)
    labels = page.eval_on_selector_all("[data-ruleset]", "xs => xs.map(x => x.getAttribute('data-ruleset'))")
    assert sorted(labels) == sorted(r["label"] for r in rep["rulings"]), (path.name, lang)  # each ruleset's card
    if lang == "en":
        from tarneeb.serve.app import with_suits

        assert page.inner_text("#headline") == with_suits(rep["headline"]), path.name
    assert page.evaluate("document.documentElement.dir") == ("rtl" if lang == "ar" else "ltr")


def _no_sideways_scroll(page: Any, what: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"{what}: {width}px wide on a 390 px phone"


def _shots(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for width, height in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=False)
    page.set_viewport_size({"width": 390, "height": 844})


def test_the_site_rules_every_dispute_in_either_language_and_offline(site: tuple[str, dict[str, Any]], tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    from tarneeb.records import verify_lines

    base, built = site
    assert built["bytes"] <= MAX_BYTES, f"the first visit downloads {built['bytes']} bytes"
    first = DISPUTES[0]
    started = time.monotonic()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="allow")
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{base}en/ruling/#{share_fragment(first.read_text(encoding='utf-8'))}")
        state = _answer(page, 0)
        opened = state["times"]["firstAnswer"]
        print(f"\noffline site: {built['bytes'] / 1e6:.1f} MB on the first visit; first ruling shown "
              f"{opened / 1000:.1f} s after opening the link (Pyodide up at {state['times']['pyodide'] / 1000:.1f} s)")
        _same_ruling(page, first, "en", state)
        # the web referee's own scripts ran on the page the answer brought: the question's fields only, the picker
        assert page.locator("#situation-form fieldset.facts.not-asked").count() > 0
        assert page.locator("#picker").is_visible()
        _shots(page, "ruling-en")
        n = state["answered"]
        # every dispute once, half of them in each language (the Python under Pyodide is language-blind below the
        # words; the CLI's tests rule every dispute in both): in English the even ones, then the language link
        # rules the last of them again in Arabic, then the odd ones in Arabic
        english, arabic = DISPUTES[0::2], DISPUTES[1::2]
        for lang in ("en", "ar"):
            rest = english[1:]
            if lang == "ar":  # the language link: the same ruling in Arabic, in the same page (no second boot)
                page.click("a.lang")
                state = _answer(page, n)
                n = state["answered"]
                assert page.url.startswith(f"{base}ar/ruling/#s="), page.url
                _same_ruling(page, english[-1], "ar", state)
                _shots(page, "ruling-ar")
                rest = arabic
            for path in rest:
                page.evaluate("f => { location.hash = f; }", share_fragment(path.read_text(encoding="utf-8")))
                state = _answer(page, n)
                n = state["answered"]
                _same_ruling(page, path, lang, state)
                _no_sideways_scroll(page, f"{lang} {path.name}")
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1  # one page, one boot
        assert page.evaluate("window.tarneeb.answered") == len(DISPUTES) + 1  # each address answered once

        # the form, then its share link: the same ruling
        page.goto(f"{base}en/ruling/")
        page.wait_for_function("window.tarneeb.times.ready || window.tarneeb.error", timeout=60_000)
        page.select_option("#kind", "winner")
        for seat, score in enumerate((41, 50, 10, 1)):
            page.fill(f"#score{seat}", str(score))
        page.evaluate(
            "document.querySelectorAll('input[name=ruleset]').forEach(c => { c.checked = c.value === 'card-kings-41'; })")
        page.click("#get-ruling")
        state = _answer(page, 0)
        form_report = state["last"]["report"]
        cli = json.loads(_cli("ruling", "winner", "--scores", "41,50,10,1", "--ruleset", "card-kings-41", "--json"))
        assert _holds(form_report["rulings"], cli["rulings"])
        link = page.input_value("#share-link")
        assert link == page.url and "#s=" in link
        page.goto("about:blank")
        page.goto(link)
        state = _answer(page, 0)
        assert _holds(state["last"]["report"]["rulings"], cli["rulings"])

        # a record file with a divergence, pasted into the record check
        from tests.serve_support import divergent_record

        record_file = divergent_record(tmp_path)[0]
        data = record_file.read_bytes()
        summary = verify_lines(data.splitlines(), file="(pasted)")[0].to_json()
        page.goto(f"{base}ar/records/")
        page.fill("#records_text", data.decode("utf-8"))
        page.click("#check-records")
        state = _answer(page, 0)
        assert _holds(state["last"]["summary"], summary) and summary["divergences"] >= 1
        assert page.locator("article.divergence").count() == summary["divergences"]
        _no_sideways_scroll(page, "ar records")
        _shots(page, "records-ar")

        # offline: the service worker answers; a shared Arabic link still rules after a reload
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        context.set_offline(True)
        last = DISPUTES[-1]
        page.goto(f"{base}ar/ruling/#{share_fragment(last.read_text(encoding='utf-8'))}")
        page.reload()
        state = _answer(page, 0)
        _same_ruling(page, last, "ar", state)
        print(f"offline site: offline, a reload showed the ruling {state['times']['firstAnswer'] / 1000:.1f} s after opening")
        page.goto(base)  # the top of the site opens the start page (in the browser's language: English here)
        page.wait_for_url(f"{base}en/")
        assert page.locator(".tiles a").count() == 4
        # the score sheet, offline in Arabic: a hand entered is scored by the site's Python, kept over a reload
        page.goto(f"{base}ar/score/")
        cells, again = _score_one_hand(page)
        assert cells == _one_hand_scores() and again == cells, (cells, again)
        _shots(page, "score-ar-offline")
        page.goto(f"{base}ar/rules/classic/")
        assert page.locator("h1").count() == 1 and page.evaluate("document.documentElement.dir") == "rtl"
        _no_sideways_scroll(page, "ar rules offline")
        _shots(page, "rules-ar")
        assert not errors, errors
        browser.close()
    print(f"offline site: the browser part took {time.monotonic() - started:.1f} s; screenshots in {ARTIFACTS}")



def _score_one_hand(page: Any) -> tuple[list[int], list[int]]:
    """On a score page just opened: a card-kings-41 sheet for four names, one hand entered with the pad (each bids
    3; tricks 4, 3, 3, 3); the score cells shown, then shown again after a reload."""
    page.wait_for_function("document.getElementById('score-app').getAttribute('data-screen') === 'start'")
    page.select_option("#score-ruleset", "card-kings-41")
    for i, name in enumerate(["Rami", "Hala", "Sami", "Dina"], start=1):
        page.fill(f"#score-player-{i}", name)

    def tap(selector: str) -> None:
        n = int(page.get_attribute("#score-app", "data-answered") or 0)
        page.click(selector)
        page.wait_for_function("n => +document.getElementById('score-app').getAttribute('data-answered') > n", arg=n)

    tap("#score-begin")
    for _ in range(4):
        tap("#score-pad [data-value='3']")
    for took in (4, 3, 3, 3):
        tap(f"#score-pad [data-value='{took}']")
    tap("#score-add")
    cells = page.eval_on_selector_all("#score-table tbody td button.score", "bs => bs.map(b => +b.innerText)")
    page.reload()
    page.wait_for_function("+document.getElementById('score-app').getAttribute('data-answered') > 0")
    again = page.eval_on_selector_all("#score-table tbody td button.score", "bs => bs.map(b => +b.innerText)")
    return cells, again


def _one_hand_scores() -> list[int]:
    """What core scores for the hand :func:`_score_one_hand` enters."""
    from tarneeb.sheet import score_sheet, sheet_from_data

    return list(score_sheet(sheet_from_data({
        "format": "tarneeb-score-sheet", "version": 1, "ruleset": "card-kings-41",
        "players": ["Rami", "Hala", "Sami", "Dina"], "first_dealer": 0,
        "hands": [{"bids": [3, 3, 3, 3], "tricks_won": [4, 3, 3, 3]}]})).scores)


# a Pyodide whose respond is the real one run by the test (tarneeb.offline.pages.respond, the Python the site's
# Pyodide runs), reached from the page by a request the test answers: offline.js and score.js as they run on the site
STUB_PYODIDE_RESPONDS = """export function loadPyodide() {
  return Promise.resolve({
    unpackArchive: function () {}, runPython: function () {},
    pyimport: function () { return { respond: function (text) {
      return fetch("/__respond", { method: "POST", body: text }).then(function (r) { return r.text(); });
    } }; }
  });
}
"""


def test_the_offline_score_sheet_asks_the_site_s_python_and_keeps_its_sheets(tmp_path: Path) -> None:
    """The score page of the offline site (its HTML as ``tarneeb site`` writes it, offline.js, score.js), with a
    Pyodide whose answers are :func:`tarneeb.offline.pages.respond`'s: a hand of card-kings-41 entered with the pad
    is answered by the site's Python, never by a server (no request to a score API); reloaded, the sheet is there."""
    need_chromium()
    pw = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[test]')")
    from tarneeb.offline.pages import page_file, render, respond
    from tarneeb.serve.app import score_ctx

    for lang in ("en",):
        path = f"/{lang}/score/"
        html, _ = render(path, "score.html", **score_ctx(lang))
        target = tmp_path / page_file(path) / "index.html"
        target.parent.mkdir(parents=True)
        target.write_text(B._head(html, page_file(path)), encoding="utf-8")
    (tmp_path / "static").mkdir()
    for src in [*(ROOT / "model" / "tarneeb" / "serve" / "static").iterdir(),
                *(ROOT / "model" / "tarneeb" / "offline" / "static").iterdir()]:
        shutil.copy(src, tmp_path / "static" / src.name)
    (tmp_path / "pyodide").mkdir()
    (tmp_path / "pyodide" / "pyodide.mjs").write_text(STUB_PYODIDE_RESPONDS)
    (tmp_path / "engine.zip").write_bytes(b"")
    asked: list[str] = []
    with _served(tmp_path) as base, pw.sync_playwright() as play:
        browser = play.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.on("request", lambda r: asked.append(r.url))
            page.route("**/__respond", lambda route: route.fulfill(
                status=200, content_type="text/plain", body=respond(route.request.post_data or "")))
            page.goto(f"{base}en/score/")
            cells, again = _score_one_hand(page)
            status = page.inner_text(".offline-status") if page.locator(".offline-status").count() else ""
        finally:
            browser.close()
    assert cells == _one_hand_scores() and again == cells, (cells, again)
    assert not [u for u in asked if "/score/api" in u], asked
    assert sum("/__respond" in u for u in asked) >= 10 and "could not start" not in status
