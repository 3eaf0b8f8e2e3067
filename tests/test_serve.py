"""``tarneeb serve`` without a browser: the pages over HTTP (in-process), the referee form, record checks, bad
input, and the command itself (its address, Ctrl-C, a busy port, the missing extra)."""

from __future__ import annotations

import asyncio
import html
import json
import re
import socket
import subprocess
import sys
import warnings
from collections.abc import Callable, Iterator, MutableMapping
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the serve extra is not installed (pip install -e '.[serve]')")

import markupsafe  # noqa: E402  (comes with jinja2)
from tests.serve_support import ROOT, app_client, divergent_record, follow_on_record, mutant_record, running, stop  # noqa: E402

from tarneeb.core.spec import rulesets  # noqa: E402
from tarneeb.docgen.rulebook import ruleset_doc  # noqa: E402
from tarneeb.ruling import load_situation, parse_situation, report_json, resolve  # noqa: E402
from tarneeb.serve import engine  # noqa: E402
from tarneeb.serve.app import create_app, with_isolates, with_red_suits, with_suits  # noqa: E402
from tarneeb.serve.form import situation_from_form  # noqa: E402
from tarneeb.serve.strings import AR  # noqa: E402

with warnings.catch_warnings():  # starlette names httpx's successor; the test client works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

DISPUTES = sorted((ROOT / "spec" / "disputes").glob("*.toml"))
ALL = list(rulesets())


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with app_client(max_upload=64 * 1024) as c:
        yield c


def esc(text: str) -> str:
    """``text`` as the templates escape it."""
    return str(markupsafe.escape(text))


def text_of(page: str) -> str:
    """The page's visible text, tags dropped and entities decoded, whitespace squeezed (an inline span, a red
    card's, or bdi, an id's, adds no space)."""
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?(?:span|bdi)\b[^>]*>", "", page))))


def ruling_cards(page: str) -> list[tuple[list[str], str]]:
    """Each ruling card of a result page, in order: (the rulesets its heading names, the card's HTML)."""
    out = []
    for body in re.findall(r'<article class="ruling status-[\w-]+"[^>]*>(.*?)</article>', page, re.S):
        head = re.search(r"<h3[^>]*>(.*?)</h3>", body, re.S)
        assert head is not None, body
        out.append(([html.unescape(x) for x in re.findall(r'data-ruleset="([^"]+)"', head.group(1))], body))
    return out


def card_of(page: str) -> dict[str, str]:
    """The card that shows each ruleset's ruling (one card for several rulesets that rule the same)."""
    return {label: body for labels, body in ruling_cards(page) for label in labels}


def error_of(page: str) -> str | None:
    m = re.search(r'<div class="error" role="alert" id="error">(.*?)</div>', page, re.S)
    return text_of(m.group(1)).strip() if m else None


# ------------------------------------------------------------------ pages


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("path", ["", "ruling", "records", "rules/", "rules/classic"])
def test_every_page_answers_in_both_languages(client: TestClient, lang: str, path: str) -> None:
    r = client.get(f"/{lang}/{path}")
    assert r.status_code == 200
    want_dir = "rtl" if lang == "ar" else "ltr"
    assert f'<html lang="{lang}" dir="{want_dir}">' in r.text
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in r.text
    other = "en" if lang == "ar" else "ar"
    assert f'href="/{other}/{path}"' in r.text  # the language switch keeps the page


def test_root_and_unknown_paths(client: TestClient) -> None:
    r = client.get("/", follow_redirects=False)
    assert r.status_code == 307 and r.headers["location"] == "/en/"
    for path in ("/xx/", "/en/nope", "/en/rules/no-such-ruleset", "/fr/ruling"):
        r = client.get(path)
        assert r.status_code == 404, path
        assert "There is no such page." in r.text and "Traceback" not in r.text
    for path in ("/ar/nope", "/ar/rules/no-such-ruleset", "/ar/ruling/x"):  # an Arabic path: an Arabic page
        r = client.get(path)
        assert r.status_code == 404 and '<html lang="ar" dir="rtl">' in r.text, path
        assert AR["not_found"] in r.text and "There is no such page." not in r.text, path


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("rid", ALL)
def test_rule_pages_show_every_clause_of_the_generator(client: TestClient, rid: str, lang: str) -> None:
    doc = ruleset_doc(rid, lang)
    page = client.get(f"/{lang}/rules/{rid}").text
    for s in doc.sections:
        for c in s.clauses:
            assert f'<li id="{c.id}"><code dir="ltr"><bdi>{c.id}</bdi></code> {esc(c.text)}' in page
    for a in doc.ambiguities:
        assert f'id="amb-{a.id}"' in page
    assert ".txt" not in text_of(page)  # citations name publisher and title, never the hashed file


# ------------------------------------------------------------------ rulings


@pytest.mark.parametrize("path", DISPUTES, ids=lambda p: p.stem)
def test_a_pasted_dispute_shows_the_referees_ruling(client: TestClient, path: Path) -> None:
    want = report_json(resolve(load_situation(path)))
    page = client.post("/en/ruling", data={"situation_text": path.read_text(encoding="utf-8")}).text
    assert error_of(page) is None
    shown = text_of(page)
    for r in want["rulings"]:
        assert f'data-ruleset="{esc(r["label"])}"' in page
        assert text_of(esc(with_suits(r["ruling"]))) in shown
        for c in r["clauses"]:
            assert c["id"] in shown
    if want["agreement"]:
        assert text_of(esc(want["agreement"])) in shown


def test_the_winner_dispute_from_the_form(client: TestClient) -> None:
    form = {"ruleset": ALL, "kind": "winner", "score0": "45", "score1": "42", "score2": "10", "score3": "13"}
    page = client.post("/en/ruling", data=form).text
    want = report_json(resolve(load_situation(ROOT / "spec/disputes/tie-equal-combined.toml")))
    articles = card_of(page)
    assert sorted(articles) == sorted(r["label"] for r in want["rulings"])
    for r in want["rulings"]:
        assert text_of(esc(r["ruling"])) in text_of(articles[r["label"]])
    assert "no winner yet under rulesets card-kings-41 and eram-41" in text_of(page)
    # the human citation, not the machine id
    assert 'Card Kings, Tarneeb 41 rules page (untitled), section "How the game ends"' in text_of(articles["card-kings-41"])


def test_the_form_states_the_same_facts_as_the_file() -> None:
    """void-discard.toml, entered field by field, is the same situation to the referee."""
    fields = {"kind": "card-legal", "q_seat": "2", "q_card": "3c", "held": "3C, 5S 7H", "void_D": "1", "dealer": "0",
              "revealed": "9C", "contract_seat": "1", "contract_bid": "7", "contract_trump": "S", "trick_leader": "1",
              "trick_cards": "KD"}
    chosen = ["card-kings-41", "bsfyi-41", "eram-41", "tarneeb-400", "classic"]
    from_form = report_json(resolve(parse_situation(situation_from_form(fields, chosen, ALL), "(form)")))
    from_file = report_json(resolve(load_situation(ROOT / "spec/disputes/void-discard.toml")))
    assert [r["answer"] for r in from_form["rulings"]] == [r["answer"] for r in from_file["rulings"][:5]]


def test_house_options_from_the_form(client: TestClient) -> None:
    """void-discard.toml's last ruling: the classic table with its must-trump option."""
    fields = {"ruleset": ["classic"], "options": "classic: must_trump=true", "kind": "card-legal", "q_seat": "2",
              "q_card": "3C", "held": "3C 5S 7H", "void_D": "1", "dealer": "0", "contract_seat": "1",
              "contract_bid": "7", "contract_trump": "S", "trick_leader": "1", "trick_cards": "KD"}
    page = client.post("/en/ruling", data=fields).text
    assert 'data-ruleset="classic [must_trump=true]"' in page and "play.must-trump" in page
    want = report_json(resolve(load_situation(ROOT / "spec/disputes/void-discard.toml")))["rulings"][-1]
    assert str(with_red_suits(want["ruling"])) in page
    for bad, message in (("classic must_trump", "(form): options: 'classic must_trump': write RULESET: NAME=VALUE"),
                         ("classic: must_trump=perhaps", "(form): options.classic: "),
                         ("nowhere: x=1", "(form): options.nowhere: unknown ruleset")):
        r = client.post("/en/ruling", data={**fields, "options": bad})
        err = error_of(r.text)
        assert r.status_code == 400 and err is not None and message in err, err


def test_a_card_legality_dispute_from_the_form(client: TestClient) -> None:
    form = {"ruleset": ["card-kings-41"], "kind": "card-legal", "q_seat": "2", "q_card": "3C", "held": "3C 5D",
            "trick_leader": "1", "trick_cards": "KD", "dealer": "0"}
    page = client.post("/en/ruling", data=form).text
    assert "3♣ is not legal: the player holds the led suit and must follow it." in text_of(page)
    assert "play.follow" in page
    form["held"] = "3C 5S"
    form["void_D"] = "1"
    assert "3♣ is legal" in text_of(client.post("/en/ruling", data=form).text)


def test_the_arabic_page_gives_clauses_in_arabic(client: TestClient) -> None:
    form = {"ruleset": ["card-kings-41"], "kind": "winner", "score0": "50", "score1": "1", "score2": "-4", "score3": "1"}
    page = client.post("/ar/ruling", data=form).text
    doc = ruleset_doc("card-kings-41", "ar")
    arabic = {c.id: c.text for s in doc.sections for c in s.clauses}
    # the clause's words first, its id after them in a small technical line; no id heads a fold
    assert f'<li>{esc(arabic["win.qualify"])} <cite' in page
    assert '<small class="tech">رمز القاعدة للمطوّرين: <code dir="ltr"><bdi>win.qualify</bdi></code></small>' in page
    for lang, p in (("ar", page), ("en", client.post("/en/ruling", data=form).text)):
        heads = re.findall(r"<(summary|h4)>(.*?)</\1>", p, re.S)
        assert heads and not [h for _, h in heads if "<code" in h or "win." in h], (lang, heads)
    english = client.post("/en/ruling", data=form).text  # its arithmetic in words, not signs
    assert "50 is at least 41 and -4 is at most 0" in english and "&gt;=" not in english
    assert '<details class="english">' in page  # the referee's English sentence, folded away
    assert '<p class="verdict-en" lang="en" dir="ltr">' in page


@pytest.mark.parametrize("path", [ROOT / "spec/disputes/cancelled-hand-dealer.toml",
                                  ROOT / "spec/disputes/tie-equal-combined.toml",
                                  ROOT / "spec/disputes/first-lead-out-of-turn.toml"], ids=lambda p: p.stem)
def test_each_rulesets_card_gives_its_verdict_in_arabic(client: TestClient, path: Path) -> None:
    """On the Arabic page every ruleset's card leads with the referee's Arabic sentence (players 1-4), the
    English original below it; the English page has no Arabic verdict."""
    from tarneeb.ruling.arabic import sentence, several

    rep = resolve(load_situation(path))
    page = client.post("/ar/ruling", data={"situation_text": path.read_text(encoding="utf-8")}).text
    assert error_of(page) is None
    articles = card_of(page)
    assert sorted(articles) == sorted(x.label for x in rep.rulings)
    for x in rep.rulings:
        body = articles[x.label]
        want = sentence(rep.kind, x, rep.asked)
        if list(articles.values()).count(body) > 1:  # a card several rulesets share says it of them all
            want = several(want)
        # the page shows cards with their suit's symbol (3♥), ids kept whole, the report's codes (3H) otherwise
        # unchanged
        assert f'<p class="verdict" lang="ar" dir="rtl">{with_isolates(want)}</p>' in body, x.label
        assert f'<p class="verdict-en" lang="en" dir="ltr">{with_red_suits(x.text)}</p>' in body, x.label
    english = client.post("/en/ruling", data={"situation_text": path.read_text(encoding="utf-8")}).text
    assert 'lang="ar" dir="rtl">' not in english.split('id="result"')[1]


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(("data", "files", "message"), [
    ({"situation_text": "ruleset = [1"}, None, "(pasted): (syntax): "),
    ({"situation_text": '{"ruleset": "all",'}, None, "(pasted): (syntax): "),
    ({"situation_text": "ruleset = 'all'\n[question]\nkind = 'who-knows'"}, None,
     "(pasted): question.kind: who-knows is not a question kind"),
    ({}, {"situation_file": ("x.toml", b"\xff\xfe\x00garbage", "application/octet-stream")}, "x.toml: not UTF-8"),
    ({}, {"situation_file": ("s.json", b"[1, 2]", "application/json")}, "s.json: (top): a situation is a table"),
    ({"ruleset": ALL, "kind": "winner", "score0": "x", "score1": "1", "score2": "1", "score3": "1"}, None,
     "(form): scores[0]: 'x' is not a whole number"),
    ({"ruleset": ["card-kings-41"], "kind": "card-legal", "q_seat": "2", "q_card": "KD", "trick_leader": "1",
      "trick_cards": "KD"}, None, "(form): question.card / trick.cards[0]: KD was already played"),
    ({"ruleset": ["card-kings-41"], "kind": "winner", "score0": "1", "score2": "3"}, None, "(form): scores[1] / scores[3]"),
    ({"kind": "winner"}, None, "(form): ruleset: tick at least one ruleset"),
    ({"ruleset": ["eram-41"], "kind": "trump", "dealer": "0"}, None, "(form): revealed: incomplete for eram-41"),
])
def test_bad_input_gets_one_located_line_in_the_page(client: TestClient, data: dict[str, Any],
                                                     files: dict[str, Any] | None, message: str) -> None:
    r = client.post("/en/ruling", data=data, files=files)
    assert r.status_code == 400
    err = error_of(r.text)
    assert err is not None and message in err, err
    assert "Traceback" not in r.text and 'id="situation-form"' in r.text  # the form is still there
    assert client.get("/en/ruling").status_code == 200


def test_an_upload_over_the_limit_is_refused(client: TestClient) -> None:
    r = client.post("/en/records", files={"records_file": ("big.jsonl", b"x" * (80 * 1024), "text/plain")})
    assert r.status_code == 413
    assert error_of(r.text) == "Cannot use this input: The upload is too large: at most 64 KiB per request."
    r = client.post("/en/ruling", data={"situation_text": "#" * (80 * 1024)})
    assert r.status_code == 413
    assert client.get("/en/records").status_code == 200


def test_a_body_sent_without_a_length_is_held_to_the_limit(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(20):
            yield b"x" * 8192

    r = client.post("/en/records", content=chunks(), headers={"content-type": "multipart/form-data; boundary=b"})
    assert "content-length" not in r.request.headers
    assert r.status_code == 413


def test_a_declared_length_over_the_limit_is_refused_unread() -> None:
    app = create_app(max_upload=1024)
    sent: list[MutableMapping[str, Any]] = []

    async def receive() -> MutableMapping[str, Any]:
        raise AssertionError("the body was read")

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/en/records", "raw_path": b"/en/records", "query_string": b"",
             "headers": [(b"content-length", b"1000000000"), (b"content-type", b"multipart/form-data; boundary=b")],
             "http_version": "1.1", "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1),
             "root_path": ""}
    asyncio.run(app(scope, receive, send))
    assert sent[0]["status"] == 413


def test_a_broken_form_body_and_a_wrong_method(client: TestClient) -> None:
    r = client.post("/en/records", content=b"garbage", headers={"content-type": "multipart/form-data; boundary=b"})
    assert r.status_code == 400
    assert "The request could not be read" in r.text and "Traceback" not in r.text
    assert client.put("/en/records").status_code == 405
    assert client.get("/ar/records").status_code == 200


def test_an_unexpected_error_gets_a_short_page(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> None:
        raise RuntimeError("a bug in the engine")

    monkeypatch.setattr(engine, "rule", broken)
    r = client.post("/en/ruling", data={"situation_text": "ruleset = 'all'"})
    assert r.status_code == 500
    assert "Something went wrong on our side" in r.text
    assert "Traceback" not in r.text and "a bug in the engine" not in r.text
    monkeypatch.undo()
    assert client.get("/en/").status_code == 200


# ------------------------------------------------------------------ records


def test_a_record_with_a_divergence(client: TestClient, tmp_path: Path) -> None:
    path, line, hand = divergent_record(tmp_path)
    r = client.post("/en/records", files={"records_file": ("edited.jsonl", path.read_bytes(), "application/jsonl")})
    assert r.status_code == 200
    arts = re.findall(r'<article class="divergence" [^>]*>(.*?)</article>', r.text, re.S)
    assert len(arts) == 1
    shown = text_of(arts[0])
    # hands and tricks counted from 1 alike (the record's "hand" and tricks[] count from 0); the field names the
    # place in the record
    assert f"hand {hand + 1} · trick 1 · line {line}" in shown and "(tricks[0])" not in shown
    assert "tricks[0].winner" in shown and "play.winner" in shown
    assert 'Card Kings, Tarneeb 41 rules page (untitled), section "Play"' in shown
    assert "1 divergence," in text_of(r.text) and "(s)" not in text_of(r.text)  # right plurals
    clean = client.post("/en/records", data={"records_text": (tmp_path / "games.jsonl").read_text(encoding="utf-8")})
    assert clean.status_code == 200 and "0 divergences" in text_of(clean.text) and "<article" not in clean.text


@pytest.mark.parametrize("payload", [b"garbage {\n", b"\x89PNG\r\n\x1a\n\x00\x00", b'{"type": "hand"}\n'])
def test_a_malformed_record_upload(client: TestClient, payload: bytes) -> None:
    r = client.post("/en/records", files={"records_file": ("bad.jsonl", payload, "application/octet-stream")})
    assert r.status_code == 400
    err = error_of(r.text)
    assert err is not None and "This is not a record file" in err and "bad.jsonl:1" in err
    assert "Traceback" not in r.text
    assert client.post("/en/records", data={"records_text": "  "}).status_code == 400
    assert client.get("/en/records").status_code == 200


# ------------------------------------------------------------------ the command


def test_serve_prints_its_address_and_ctrl_c_exits_130() -> None:
    with running() as srv:
        assert srv.url.startswith("http://127.0.0.1:")
        status, page = srv.get("/ar/")
        assert status == 200 and 'dir="rtl"' in page
        code, err = stop(srv)
    assert code == 130
    assert err.strip() == "interrupted"


def _workers(pid: int) -> set[int]:
    """The worker processes of the supervisor ``pid``: its children started by multiprocessing's spawn, read from
    /proc in full (``ps`` cuts its lines at 80 columns when piped, which in a longer checkout path cut
    "resource_tracker" off the tracker's command line and counted it as a third worker)."""
    found = set()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            status = (proc / "status").read_text()
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue  # it ended meanwhile
        ppid = re.search(r"^PPid:\s*(\d+)", status, re.M)
        if ppid and int(ppid.group(1)) == pid and "spawn_main" in cmdline:
            found.add(int(proc.name))
    return found


def _steady_workers(pid: int, wanted: Callable[[set[int]], bool], within: float = 60) -> set[int]:
    """The worker set once ``wanted`` holds for it on three looks 0.3 s apart (a killed worker may be listed for a
    moment beside its replacement), or the last set seen after ``within`` seconds."""
    import time as _time

    deadline, seen = _time.monotonic() + within, []
    while _time.monotonic() < deadline:
        seen.append(_workers(pid))
        if len(seen) >= 3 and all(s == seen[-1] and wanted(s) for s in seen[-3:]):
            break
        _time.sleep(0.3)
    return seen[-1]


@pytest.mark.slow
def test_serve_with_two_workers_answers_restarts_one_that_dies_and_stops_them_all() -> None:
    import os
    import signal as _signal

    with running("--workers", "2") as srv:
        first = _steady_workers(srv.proc.pid, lambda ws: len(ws) == 2)
        assert len(first) == 2, first
        assert all(srv.get("/healthz")[0] == 200 for _ in range(20))
        os.kill(next(iter(first)), _signal.SIGKILL)  # a worker dies: the supervisor starts another
        again = _steady_workers(srv.proc.pid, lambda ws: len(ws) == 2 and ws != first)
        assert len(again) == 2 and again != first, (first, again)
        assert all(srv.get("/en/")[0] == 200 for _ in range(10))
        code, err = stop(srv)
    assert code == 130 and err.strip() == "interrupted", err
    assert not any(Path(f"/proc/{w}").exists() for w in again)  # no worker left behind


@pytest.mark.parametrize("kind", ["one process", "a worker's own socket"])
def test_connections_to_the_servers_sockets_are_sent_without_delay(kind: str) -> None:
    # asyncio sets TCP_NODELAY only on a socket made for TCP by name: on the sockets serve made with protocol 0
    # every answer on a kept-alive connection waited for the client's delayed ACK, 43 ms each (at concurrency 16
    # /healthz answered 341 times a second; 8,300 with it)
    from tarneeb.cli import serve

    if kind == "one process":
        sock = serve._bind("127.0.0.1", 0)
    else:
        sock = serve.reuseport_socket(socket.AF_INET, ("127.0.0.1", 0))
    nodelay: list[int] = []

    async def main() -> None:
        def accepted(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            nodelay.append(writer.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(accepted, sock=sock)
        _, w = await asyncio.open_connection(*sock.getsockname()[:2])
        while not nodelay:
            await asyncio.sleep(0.01)
        w.close()
        server.close()

    asyncio.run(asyncio.wait_for(main(), 30))
    assert nodelay[0] != 0


def _listening(port: int) -> int:
    """How many sockets listen on ``port`` (IPv4, /proc/net/tcp: state 0A)."""
    rows = Path("/proc/net/tcp").read_text().splitlines()[1:]
    return sum(1 for r in rows if r.split()[1].endswith(f":{port:04X}") and r.split()[3] == "0A")


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="SO_REUSEPORT spreads connections on Linux")
def test_each_worker_listens_on_a_socket_of_its_own_and_a_second_server_is_refused_the_port() -> None:
    # one socket shared by the workers let the first to wake accept a whole burst of connections (16 of 16 in 4 of
    # 5 tries): each has its own on the port (SO_REUSEPORT), the supervisor none, and the port is still this
    # server's alone
    with running("--workers", "2") as srv:
        port = int(srv.url.rsplit(":", 1)[1].strip("/"))
        _steady_workers(srv.proc.pid, lambda ws: len(ws) == 2)
        assert srv.get("/healthz")[0] == 200
        assert _listening(port) == 2
        p = subprocess.run([sys.executable, "-m", "tarneeb.cli", "serve", "--port", str(port), "--workers", "2"],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 2 and "the port is in use" in p.stderr, p.stderr
        assert srv.get("/healthz")[0] == 200 and _listening(port) == 2


def test_serve_on_a_busy_port_says_so_in_one_line() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        port = s.getsockname()[1]
        p = subprocess.run([sys.executable, "-m", "tarneeb.cli", "serve", "--port", str(port)], capture_output=True,
                           text=True, timeout=60, cwd=ROOT)
    assert p.returncode == 2
    assert p.stderr.strip() == (f"tarneeb: error: --port {port}: the port is in use on 127.0.0.1; pass another, "
                                "or --port 0 for a free one")


def test_serve_without_the_extra_says_what_to_install(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    from tarneeb.cli import main

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "uvicorn" else real(name, *a))
    assert main(["serve"]) == 2
    err = capsys.readouterr().err
    assert err == "tarneeb: error: 'serve' needs the serve extra (uvicorn not installed): pip install 'tarneeb[serve]'\n"


def test_the_engine_never_imports_the_web_framework() -> None:
    code = ("import sys, tarneeb, tarneeb.ruling, tarneeb.records, tarneeb.docgen.rulebook, tarneeb.cli.registry; "
            "from tarneeb.cli import build_parser; build_parser(); "
            "print(sorted(m for m in ('starlette', 'uvicorn', 'jinja2', 'multipart', 'tarneeb.serve') if m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[]"


def test_both_languages_have_every_word_of_the_pages() -> None:
    from tarneeb.serve.strings import AR, EN

    assert set(AR) == set(EN)
    assert all(v.strip() for v in AR.values())
    for k in engine.KINDS:
        assert f"kind_{k}" in EN and f"needs_{k}" in EN
    templates = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "model/tarneeb/serve/templates").glob("*.html"))
    for key in re.findall(r"\bt\.(\w+)", templates):
        assert key in EN, key


# ------------------------------------------------------------------ the new question kinds, from the form


def answer_of(page: str) -> list[str]:
    """The lines of the report for people the page shows (its short answer, or the chain)."""
    m = re.search(r'<div class="answer" id="answer"[^>]*>\s*<h3>[^<]*</h3>(.*?)</div>', page, re.S)
    assert m is not None, error_of(page)
    return [text_of(p).strip() for p in re.findall(r"<p[^>]*>(.*?)</p>", m.group(1), re.S)]


def says(capsys: pytest.CaptureFixture[str], path: Path, *flags: str) -> list[str]:
    """What ``tarneeb ruling PATH FLAGS`` prints, line by line (whitespace squeezed as the page's text is)."""
    from tarneeb.cli import main

    capsys.readouterr()
    assert main(["ruling", str(path), *flags]) in (0, 1)
    # as the page shows it: cards with their suit's symbol (the command line writes the codes)
    return [with_suits(re.sub(r"\s+", " ", ln).strip()) for ln in capsys.readouterr().out.splitlines() if ln.strip()]


def same_ruling(page: str, cli: list[str], explain: bool = False) -> None:
    """The page's answer is the command's, line for line; but the first line, which names the situation's title
    (a form has its own) and, explained, the file."""
    shown = answer_of(page)
    if 'lang="ar"' in page.split(">", 2)[1] and cli and not cli[0].lstrip("\u2067").startswith("السؤال"):
        cli = cli[1:]  # the Arabic command heads its report with the dispute's title; the page names the question
    assert len(shown) == len(cli), (shown, cli)
    if explain:
        assert shown[0] == "Situation from the form"
    else:
        assert re.sub(r" \(.*\)$", "", shown[0]) == re.sub(r" \(.*\)$", "", cli[0])
    assert shown[1:] == cli[1:]


def situation_file(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "situation.toml"
    p.write_text(text, encoding="utf-8")
    return p


REVOKE_FORM = {"ruleset": ["card-kings-41", "eram-41", "classic"], "kind": "irregularity", "irregularity": "revoke",
               "q_seat": "2", "dealer": "0", "revealed": "2S", "contract_seat": "1", "contract_bid": "7",
               "contract_trump": "S", "history_leader0": "1", "history_cards0": "KD 3H 4D 5D",
               "history_leader1": "1", "history_cards1": "AH 4H 5H 6H", "history_leader2": "1",
               "history_cards2": "QD 7D@3 8D 9D"}  # 7D tagged player 3 (seat 2)


def test_whose_turn_from_the_form(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    page = client.post("/en/ruling", data={"ruleset": ALL, "kind": "whose-turn", "dealer": "0", "bid1": "3",
                                           "bid2": "4"}).text
    same_ruling(page, says(capsys, ROOT / "spec/disputes/whose-turn-bidding.toml"))
    assert "Player 4 bids next" in text_of(page)


def test_whose_turn_in_a_trick_from_the_form(client: TestClient, capsys: pytest.CaptureFixture[str],
                                             tmp_path: Path) -> None:
    form = {"ruleset": ["card-kings-41", "classic"], "kind": "whose-turn", "dealer": "0", "contract_seat": "1",
            "contract_bid": "7", "contract_trump": "S", "trick_leader": "1", "trick_cards": "KD 3D@3"}
    page = client.post("/en/ruling", data=form).text
    path = situation_file(tmp_path, 'schema = 1\nruleset = ["card-kings-41", "classic"]\ndealer = 0\n'
                          'contract = { seat = 1, bid = 7, trump = "S" }\n'
                          'trick = { leader = 1, cards = ["KD", { seat = 2, card = "3D" }] }\n'
                          '[question]\nkind = "whose-turn"\n')
    same_ruling(page, says(capsys, path))


def test_who_leads_from_the_form(client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    form = {"ruleset": ALL, "kind": "who-leads", "dealer": "1", "contract_seat": "3", "contract_bid": "7",
            "contract_trump": "S"}
    page = client.post("/en/ruling", data=form).text
    path = situation_file(tmp_path, 'schema = 1\nruleset = "all"\ndealer = 1\n'
                          'contract = { seat = 3, bid = 7, trump = "S" }\n[question]\nkind = "who-leads"\n')
    same_ruling(page, says(capsys, path))
    # after finished tricks, the winner of the last one leads
    form.update(history_leader0="3", history_cards0="KD 3D 4D 5D")
    page = client.post("/en/ruling", data=form).text
    path = situation_file(tmp_path, 'schema = 1\nruleset = "all"\ndealer = 1\n'
                          'contract = { seat = 3, bid = 7, trump = "S" }\n'
                          'history = [{ leader = 3, cards = ["KD", "3D", "4D", "5D"] }]\n'
                          '[question]\nkind = "who-leads"\n')
    same_ruling(page, says(capsys, path))


def test_a_revoke_from_the_form(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    page = client.post("/en/ruling", data=REVOKE_FORM).text
    same_ruling(page, says(capsys, ROOT / "spec/disputes/revoke-found-later.toml"))
    assert "Player 3 revoked in trick 1" in text_of(page)
    # the three rule alike: one card naming them, with the arithmetic once
    assert [(labels, [text_of(m).strip() for m in re.findall(r'<p class="math">(.*?)</p>', body, re.S)])
            for labels, body in ruling_cards(page)] == [
        (["card-kings-41", "eram-41", "classic"],
         ["Arithmetic: trick 1: diamond led, player 3 played 3♥ while holding a diamond (7♦)"])]


def test_explain_gives_the_whole_chain(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    page = client.post("/en/ruling", data={**REVOKE_FORM, "explain": "1"}).text
    chain = says(capsys, ROOT / "spec/disputes/revoke-found-later.toml", "--explain")
    same_ruling(page, chain, explain=True)
    assert len(chain) > len(says(capsys, ROOT / "spec/disputes/revoke-found-later.toml"))
    assert 'name="explain" value="1" checked' in page  # the toggle stays on


def test_the_arabic_revoke_numbers_players_from_one(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    """On the Arabic page as on the English one, a typed tag is a player number (1..4), as the reports count."""
    page = client.post("/ar/ruling", data=REVOKE_FORM).text
    same_ruling(page, says(capsys, ROOT / "spec/disputes/revoke-found-later.toml", "--lang", "ar"))
    assert "اللاعب 3 غلط باللمّة 1" in text_of(page)
    assert '<option value="2" selected>اللاعب 3</option>' in page  # the seat asked, shown as player 3


@pytest.mark.parametrize(("fields", "toml"), [
    ({"irregularity": "bid-out-of-turn", "dealer": "0", "bid1": "3", "q_seat": "3", "q_bid": "4"},
     'dealer = 0\nbids = { 1 = 3 }\n[question]\nkind = "irregularity"\nirregularity = "bid-out-of-turn"\nseat = 3\n'
     'bid = 4\n'),
    ({"irregularity": "lead-out-of-turn", "dealer": "1", "contract_seat": "3", "contract_bid": "7",
      "contract_trump": "S", "q_seat": "3", "q_card": "AS"},
     'dealer = 1\ncontract = { seat = 3, bid = 7, trump = "S" }\n[question]\nkind = "irregularity"\n'
     'irregularity = "lead-out-of-turn"\nseat = 3\ncard = "AS"\n'),
    ({"irregularity": "exposed-card", "q_seat": "1", "q_card": "AS"},
     '[question]\nkind = "irregularity"\nirregularity = "exposed-card"\nseat = 1\ncard = "AS"\n'),
    ({"irregularity": "misdeal", "dealer": "2"},
     'dealer = 2\n[question]\nkind = "irregularity"\nirregularity = "misdeal"\n'),
    ({"irregularity": "wrong-card-count", "dealer": "2", "q_seat": "0"},
     'dealer = 2\n[question]\nkind = "irregularity"\nirregularity = "wrong-card-count"\nseat = 0\n'),
], ids=lambda x: x["irregularity"] if isinstance(x, dict) else "")
def test_each_irregularity_from_the_form(client: TestClient, capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         fields: dict[str, str], toml: str) -> None:
    page = client.post("/en/ruling", data={"ruleset": ALL, "kind": "irregularity", **fields}).text
    same_ruling(page, says(capsys, situation_file(tmp_path, 'schema = 1\nruleset = "all"\n' + toml)))
    assert "silent" in text_of(page)


def test_a_stated_trump_from_the_form(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    page = client.post("/en/ruling", data={"ruleset": ALL, "kind": "trump", "dealer": "0", "revealed": "QH",
                                           "trump": "D"}).text
    same_ruling(page, says(capsys, ROOT / "spec/disputes/stated-trump.toml"))
    assert re.search(r'class="ruling status-contradiction">\s*<h3><span class="rs"><bdi dir="ltr" data-ruleset="bsfyi-41"',
                     page)


def test_one_seats_score_from_the_form(client: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    page = client.post("/en/ruling", data={"ruleset": ALL, "kind": "score", "q_seat": "2", "score2": "20",
                                           "bid2": "5", "tricks2": "6"}).text
    same_ruling(page, says(capsys, ROOT / "spec/disputes/one-seat-score.toml"))
    assert "20 + 5 = 25" in text_of(page) and "20 + 10 = 30" in text_of(page)
    # without a seat asked, the other three seats are still needed
    r = client.post("/en/ruling", data={"ruleset": ALL, "kind": "score", "score2": "20", "bid2": "5", "tricks2": "6"})
    assert r.status_code == 400 and "(form): scores[0] / scores[1] / scores[3]" in (error_of(r.text) or "")


@pytest.mark.parametrize(("fields", "message"), [
    ({"history_cards0": "KD 3H 4D 5D"}, "(form): history[0].leader: say which player led this finished trick"),
    ({"history_leader0": "1", "history_cards0": "KD 3H@7 4D 5D"}, "(form): history[0].cards[1]: '3H@7'"),
    ({"history_leader0": "1", "history_cards0": "KD 3H@2 4D 5D"}, "(form): history[0].cards[1].seat"),
])
def test_bad_finished_tricks_get_a_located_line(client: TestClient, fields: dict[str, str], message: str) -> None:
    r = client.post("/en/ruling", data={"ruleset": ["card-kings-41"], "kind": "irregularity",
                                        "irregularity": "revoke", "q_seat": "2", **fields})
    err = error_of(r.text)
    assert r.status_code == 400 and err is not None and message in err, err


# ------------------------------------------------------------------ records: causes, follow-ons, seat tables


def divergences_of(page: str) -> list[tuple[str, str]]:
    """(field, text) of each divergence shown, in page order."""
    return [(f, text_of(body)) for f, body in
            re.findall(r'<article class="divergence[^"]*" data-line="\d+" data-field="([^"]+)">(.*?)</article>',
                       page, re.S)]


def test_a_follow_on_divergence_names_the_one_it_follows(client: TestClient, tmp_path: Path) -> None:
    path, line = follow_on_record(tmp_path)
    want = [d for d in engine.check_records(path.read_bytes(), "f.jsonl").divergences]
    page = client.post("/en/records", files={"records_file": ("f.jsonl", path.read_bytes(), "text/plain")}).text
    shown = dict(divergences_of(page))
    assert sorted(shown) == sorted(d["field"] for d in want) == ["bids[0]", "deltas", "redeal"]
    assert f"Follows from the divergence at line {line}: bids[0]" in shown["redeal"]
    assert "Independent" in shown["bids[0]"] and "Follows" not in shown["bids[0]"]
    # the per-seat table of the scoring divergence: each seat's bid, tricks, the claim and the rules' number
    table = next(d["table"] for d in want if d["field"] == "deltas")
    for row in table:
        cells = " ".join("–" if row[c] is None else str(row[c]) for c in ("bid", "tricks", "claimed", "rules"))
        assert f"Player {row['seat'] + 1} {cells}" in shown["deltas"]
    assert '<tr class="wrong"><td>Player 2</td>' in page  # the seat whose score is wrong stands out
    summary = text_of(re.search(r'<table class="by-cause".*?</table>', page, re.S).group(0))  # type: ignore[union-attr]
    assert f"follow-on (bid.total) 1 f.jsonl:{line}" in summary and f"bid.range 1 f.jsonl:{line}" in summary
    assert "2 independent divergences;" in text_of(page)


def test_a_named_cause_and_the_summary_by_cause(tmp_path: Path) -> None:
    path = mutant_record(tmp_path)
    check = engine.check_records(path.read_bytes(), "m.jsonl")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TestClient(create_app()) as big:  # the default upload limit: the record is over the fixture's 64 KiB
            page = big.post("/ar/records", files={"records_file": ("m.jsonl", path.read_bytes(), "text/plain")}).text
    shown = divergences_of(page)
    assert len(shown) == len(check.divergences) > 0
    for (_, text), d in zip(shown, check.divergences, strict=True):
        assert f"{AR['fits_hand']} {d['cause']} {d['explanation']}" in text  # what fits this hand (one here)
    by = check.summary["by_cause"]
    assert [c["cause"] for c in by] == ["made-exactly-counts-as-failed"]
    summary = text_of(re.search(r'<table class="by-cause".*?</table>', page, re.S).group(0))  # type: ignore[union-attr]
    assert f"made-exactly-counts-as-failed · score.individual {by[0]['count']} {by[0]['first']}" in summary
    assert "اللاعب 1" in shown[0][1] and "اللاعب 0" not in page  # the Arabic table counts players from 1


def test_counted_nouns_take_their_right_form() -> None:
    from tarneeb.serve.strings import counted

    assert [counted("en", n, "match") for n in (0, 1, 2)] == ["0 matches", "1 match", "2 matches"]
    assert [counted("ar", n, "match") for n in (1, 2, 3, 10, 11, 100, 103)] == [
        "مباراة واحدة", "مباراتان", "3 مباريات", "10 مباريات", "11 مباراة", "100 مباراة", "103 مباريات"]


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_each_ambiguity_is_shown_once_with_who_takes_which_reading(client: TestClient, lang: str) -> None:
    # the ambiguity box was repeated under every ruleset's card, with reading ids and not what they mean
    text = (ROOT / "spec/disputes/defenders-kaboot.toml").read_text(encoding="utf-8")
    page = client.post(f"/{lang}/ruling", data={"situation_text": text}).text
    ids = re.findall(r'<div class="ambiguity[^"]*" id="ambiguity-([a-z0-9-]+)"', page)
    assert ids and len(ids) == len(set(ids)), ids  # once each
    assert "defender-kaboot" in ids
    box = page[page.index('id="ambiguity-defender-kaboot"'):]
    box = box[:box.index("</div>")]
    assert "either-team" in box and "bidders-only" in box and "classic" in box  # taken by classic
    from tarneeb.i18n.tables import ambiguity_text

    meaning = ambiguity_text(lang, "defender-kaboot", "either-team") or "Whichever team takes all 13 tricks"
    assert meaning in html.unescape(box)  # what the reading means, in the page's language where it is written


def test_the_arabic_pages_cite_the_documents_in_arabic(client: TestClient, tmp_path: Path) -> None:
    """A clause's source on an Arabic page is worded as the Arabic rule pages word it (core.sources.cite with
    lang "ar": the section in Arabic, the document's own title kept), on rulings, record checks and rule pages;
    the English pages keep the English citation."""
    from tarneeb.core.sources import cite

    text = (ROOT / "spec/disputes/revoke-found-later.toml").read_text(encoding="utf-8")
    rs = rulesets()["card-kings-41"]
    c = rs.clauses["play.follow"]
    ar, en = cite(c.doc, c.heading, "ar"), cite(c.doc, c.heading)
    page = client.post("/ar/ruling", data={"situation_text": text}).text
    assert f'<cite lang="ar">{esc(ar)}</cite>' in page and esc(en) not in page
    assert f'<cite lang="en">{esc(en)}</cite>' in client.post("/en/ruling", data={"situation_text": text}).text
    rec, _, _ = divergent_record(tmp_path)
    for lang in ("ar", "en"):
        page = client.post(f"/{lang}/records", files={"records_file": ("g.jsonl", rec.read_bytes())}).text
        cites = re.findall(r'<cite lang="(\w+)">([^<]*)</cite>', page)
        assert cites and all(x == lang for x, _ in cites), cites
        assert all(("، قسم «" in t) == (lang == "ar") for _, t in cites), cites
    page = client.get("/ar/rules/card-kings-41").text
    assert f'<cite lang="ar">{esc(ar)}</cite>' in page and esc(en) not in page


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_records_page_gives_the_diagnosis_with_its_evidence(client: TestClient, lang: str, tmp_path: Path) -> None:
    """The file's diagnosis (records.verify.Summary.diagnosis) on the page, in the page's language: the cause the
    evidence of every hand names, and the other hypotheses with the hands each fits."""
    from tarneeb.records import verify_lines
    from tarneeb.serve.strings import STRINGS

    out = tmp_path / "m.jsonl"
    subprocess.run([sys.executable, str(ROOT / "examples/mini_engine/mini_engine.py"), "--mutant", "team-sum-wins",
                    "selfplay", "--ruleset", "card-kings-41", "--matches", "40", "--seed", "1", "--part-way", "1.0",
                    "--out", str(out)], check=True, timeout=120)
    summary, _ = verify_lines(out.read_bytes().splitlines(), file="g.jsonl")
    [row] = summary.diagnosis()
    assert row["status"] == "cause" and len(row["fits"]) == 2, row
    page = client.post(f"/{lang}/records", files={"records_file": ("g.jsonl", out.read_bytes())}).text
    [item] = re.findall(r'<li class="diag-cause" data-field="outcome.winner">(.*?)</li>', page, re.S)
    t = STRINGS[lang]
    text = html.unescape(re.sub(r"<[^>]+>", "", item))
    assert t["diag_cause"].split("{")[0] in text and f"\u2068{row['cause']}\u2069" in text
    other = row["fits"][1]
    assert f"\u2068{other['cause']}\u2069 ({t['diag_of'].format(k=other['hands'], n=row['hands'])})" in text


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_records_page_gives_a_hint_for_a_cause_one_hand_fits(client: TestClient, lang: str, tmp_path: Path) -> None:
    """A file with one diverging hand that one hypothesis fits: a hint on the page, not a cause."""
    from tarneeb.records import verify_lines
    from tarneeb.records.verify import MIN_CAUSE_HANDS
    from tarneeb.serve.strings import STRINGS

    out = tmp_path / "m.jsonl"
    subprocess.run([sys.executable, str(ROOT / "examples/mini_engine/mini_engine.py"), "--mutant", "failed-pays",
                    "selfplay", "--ruleset", "card-kings-41", "--matches", "1", "--seed", "1", "--out", str(out)],
                   check=True, timeout=120)
    lines = out.read_bytes().splitlines()
    _, reps = verify_lines(lines)
    first = min(d.line for d in reps if getattr(d, "field", "") == "deltas")
    body = b"\n".join(lines[:first]) + b"\n"  # the match up to its first diverging hand
    summary, _ = verify_lines(body.splitlines(), file="g.jsonl")
    [row] = summary.diagnosis()
    assert (row["status"], row["hint"]) == ("hint", "failed-bid-paid-to-opponents"), row
    page = client.post(f"/{lang}/records", files={"records_file": ("g.jsonl", body)}).text
    [item] = re.findall(r'<li class="diag-hint" data-field="deltas">(.*?)</li>', page, re.S)
    t = STRINGS[lang]
    text = html.unescape(re.sub(r"<[^>]+>", "", item))
    assert t["diag_hint"].split("{")[0] in text and f"\u2068{row['hint']}\u2069" in text
    assert str(MIN_CAUSE_HANDS) in text


def test_each_question_shows_the_fields_its_facts_need(client: TestClient) -> None:
    """The form folds away the fields a question does not read (serve/form.KIND_GROUPS, applied by fields.js): every
    fact a dispute of that question gives is in a group the question shows, and the page marks every group."""
    import tomllib

    from tarneeb.serve.form import GROUP_KEYS, KIND_GROUPS

    for path in sorted((ROOT / "spec" / "disputes").glob("*.toml")):
        d = tomllib.loads(path.read_text(encoding="utf-8"))
        q = d["question"]
        key = q["kind"] + (f":{q['irregularity']}" if "irregularity" in q else "")
        facts = {k for k in d if k not in ("schema", "title", "description", "sources", "ruleset", "expected",
                                           "question", "options")}
        facts |= {f"question.{k}" for k in q if k not in ("kind", "irregularity")}
        shown = {k for g in KIND_GROUPS[key] for k in GROUP_KEYS[g]}
        assert facts <= shown, (path.name, sorted(facts - shown))
    page = client.get("/en/ruling").text
    marked = set(re.findall(r'data-group="([^"]+)"', page))
    assert marked == set(GROUP_KEYS), (sorted(marked ^ set(GROUP_KEYS)))
    assert {g for gs in KIND_GROUPS.values() for g in gs} <= marked
    kinds = set(re.findall(r'<option value="([a-z-]+)" data-needs=', page))  # question kinds and irregularities
    assert {k.removeprefix("irregularity:") for k in KIND_GROUPS} | {"irregularity"} == kinds, kinds
    m = re.search(r'data-kind-groups="([^"]+)"', page)
    assert m is not None and json.loads(html.unescape(m.group(1))) == {k: list(v) for k, v in KIND_GROUPS.items()}
    assert page.index('id="kind"') < page.index('name="ruleset"')  # the question first


def test_cards_on_the_page_carry_their_suit_symbol() -> None:
    assert with_suits("3H played while holding 7D; TD, AS and 10C") == "3♥ played while holding 7♦; 10♦, A♠ and 10♣"
    # a clause id, a card tagged with its player, a word: left as they are
    assert with_suits("play.follow 7D@3 ASK 2SH") == "play.follow 7D@3 ASK 2SH"


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_red_suits_are_red_on_a_ruling_page(client: TestClient, lang: str) -> None:
    """A red card (♥ ♦) in the headline, a verdict, the arithmetic and the report's lines is wrapped in the red
    class (red in style.css); a black card keeps the text colour. The command line and the JSON keep the codes."""
    def red(card: str) -> str:
        return f'<span class="red">{card}</span>'

    def result(name: str) -> str:
        page: str = client.post(f"/{lang}/ruling", data={"situation_text": (ROOT / "spec/disputes" / name).read_text(
            encoding="utf-8")}).text
        assert error_of(page) is None
        return page.split('id="result"')[1].split("</section>")[0]

    # the Arabic names a card in words (no code): a red one in words is red
    three_h, seven_d, ace_h, two_s = (("3♥", "7♦", "A♥", "2♠") if lang == "en" else
                                      ("ثلاثة الكبّة", "سبعة الديناري", "آس الكبّة", "اثنين البستوني"))
    revoke = result("revoke-found-later.toml")
    headline = re.search(r'<p class="headline"[^>]*>(.*?)</p>', revoke, re.S)
    assert headline is not None and red(three_h) in headline.group(1) and red(seven_d) in headline.group(1)
    math = re.search(r'<p class="math">(.*?)</p>', revoke, re.S)
    assert math is not None and red(three_h) in math.group(1)
    answer = re.search(r'<div class="answer"[^>]*>(.*?)</div>', revoke, re.S)
    assert answer is not None and red(seven_d) in answer.group(1)
    trick = result("trick-winner-trump.toml")
    verdicts = {label: re.findall(r'<p class="verdict"[^>]*>(.*?)</p>', body, re.S)[0]
                for label, body in card_of(trick).items()}
    assert red(ace_h) in verdicts["bsfyi-41"]
    assert two_s in verdicts["card-kings-41"] and "red" not in verdicts["card-kings-41"]
    assert not re.search(r'<span class="red">[^<]*[♠♣]', trick + revoke)  # black suits: text colour
    css = (ROOT / "model/tarneeb/serve/static/style.css").read_text(encoding="utf-8")
    assert re.search(r"span\.red\s*\{[^}]*color:\s*var\(--red\)", css)
    out = subprocess.run([sys.executable, "-m", "tarneeb.cli", "ruling", str(ROOT / "spec/disputes/revoke-found-later.toml"),
                          "--json"], capture_output=True, text=True, check=True).stdout
    assert "3H" in out and "♥" not in out and "span" not in out


def test_red_cards_and_red_suit_symbols_are_marked_and_the_rest_escaped() -> None:
    assert str(with_red_suits("3H beats 10D? <b> & AS, trump ♦")) == (
        '<span class="red">3♥</span> beats <span class="red">10♦</span>? &lt;b&gt; &amp; A♠, trump '
        '<span class="red">♦</span>')


def test_an_irregularity_ruling_names_it_and_words_an_unruled_reading_in_the_pages_language(client: TestClient) -> None:
    """The heading names the irregularity asked (not the question's list of them); a reading no document states
    (the referee's "a club's choice") is worded in the page's language."""
    text = (ROOT / "spec/disputes/exposed-card-before-bidding.toml").read_text(encoding="utf-8")
    en = html.unescape(client.post("/en/ruling", data={"situation_text": text}).text)
    ar = html.unescape(client.post("/ar/ruling", data={"situation_text": text}).text)
    assert "<h2>Ruling: Exposed card</h2>" in en and f"<h2>{AR['the_ruling']}: {AR['irr_exposed-card']}</h2>" in ar
    assert "a club's choice: no rule document says" in en
    assert AR["reading_unruled"] in ar and "a club's choice" not in ar


# ------------------------------------------------------------------ one card per ruling; the arithmetic in Arabic


def result_of(client: TestClient, lang: str, name: str) -> str:
    page: str = client.post(f"/{lang}/ruling", data={"situation_text": (ROOT / "spec/disputes" / name).read_text(
        encoding="utf-8")}).text
    assert error_of(page) is None
    return page.split('id="result"')[1].split("</section>")[0]


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_rulesets_that_rule_the_same_share_one_card(client: TestClient, lang: str) -> None:
    """Rulesets that give the same ruling are one card naming them all (the headline says they agree), each one's
    deciding clauses and citations kept, folded, under its name; rulesets that differ keep their own cards. An
    English sentence shared by them all is said once on the shared card."""
    from tarneeb.core.sources import cite

    same = result_of(client, lang, "lead-after-a-trumped-trick.toml")
    cards = ruling_cards(same)
    assert [labels for labels, _ in cards] == [ALL], [labels for labels, _ in cards]
    body = cards[0][1]
    assert body.count('<p class="verdict"') == 1 and body.count('<p class="math">') == 1
    for rid in ALL:  # each ruleset's own wording of the deciding clause and its document, under its name
        c = rulesets()[rid].clauses["play.next-lead"]
        assert esc(cite(c.doc, c.heading, lang)) in body, rid
    split = result_of(client, lang, "cancelled-hand-dealer.toml")
    assert [labels for labels, _ in ruling_cards(split)] == [["bsfyi-41", "eram-41", "tarneeb-400"],
                                                            ["card-kings-41"], ["classic"]]
    twelve = ruling_cards(result_of(client, lang, "twelve-cards.toml"))
    assert len(twelve) == 1 and twelve[0][0] == ALL
    english = re.search(r'<p class="verdict(?:-en)?" lang="en" dir="ltr">(.*?)</p>', twelve[0][1], re.S)
    assert english is not None
    assert "breaks the dealing rule (deal.order) and the thirteen-tricks rule (hand.tricks)." in \
        html.unescape(re.sub(r"<[^>]+>", "", english.group(1)))


def test_the_command_line_keeps_one_line_per_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    """Only the page groups the rulings: the command's report still gives every ruleset its line."""
    lines = says(capsys, ROOT / "spec/disputes/twelve-cards.toml")
    for rid in ALL:
        assert any(f", ruleset {rid}: A wrong number of cards in a hand breaks the dealing rule (deal.order) and the "
                   "thirteen-tricks rule (hand.tricks)." in ln for ln in lines), (rid, lines)


LATIN = re.compile(r"[A-Za-z]")
CARD_SHOWN = re.compile(r"(?:10|[2-9JQKA])[♠♥♦♣]")  # a card as the page shows it: its rank, then its suit


@pytest.mark.parametrize("path", DISPUTES, ids=lambda p: p.stem)
def test_the_arabic_arithmetic_is_arabic(client: TestClient, path: Path) -> None:
    """On an Arabic page each card's arithmetic is in Arabic (tarneeb.ruling.arabic.math_ar): no English word left,
    a card's rank aside (J♥, A♠); every ruling that has arithmetic shows it."""
    want = report_json(resolve(load_situation(path)))
    page = result_of(client, "ar", path.name)
    maths = [text_of(m).strip() for m in re.findall(r'<p class="math">(.*?)</p>', page, re.S)]
    for m in maths:
        assert m.startswith(AR["arithmetic"] + ":"), m
        assert not LATIN.search(CARD_SHOWN.sub("", m)), m
    for labels, body in ruling_cards(page):
        has = any(r["math"] for r in want["rulings"] if r["label"] in labels)
        assert ('<p class="math">' in body) == has, (labels, body)


def test_the_english_sentence_is_folded_on_an_arabic_page(client: TestClient) -> None:
    """The referee's English sentence is kept on an Arabic card, folded away under its own summary, after the
    Arabic verdict, its arithmetic and its clauses: not in the reading path."""
    body = ruling_cards(result_of(client, "ar", "lead-after-a-trumped-trick.toml"))[0][1]
    m = re.search(r'<details class="english">\s*<summary>(.*?)</summary>\s*<p class="verdict-en"', body, re.S)
    assert m is not None and text_of(m.group(1)).strip() == AR["english_text"]
    assert body.index('<p class="verdict"') < body.index('<p class="math">') < body.index('<details class="english">')


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_silent_ambiguity_is_headed_as_silent(client: TestClient, lang: str) -> None:
    """An ambiguity no reading of which the engine rules (the documents are silent: a club picks a reading) is
    headed as that, not as "every reading rules the same"; one whose readings all rule, the same, keeps that."""
    from tarneeb.serve.strings import STRINGS

    t = STRINGS[lang]

    def heading(name: str, amb: str) -> str:
        page = result_of(client, lang, name)
        box = page[page.index(f'id="ambiguity-{amb}"'):]
        m = re.search(r"<h4>(.*?)</h4>", box, re.S)
        assert m is not None
        return text_of(m.group(1))

    silent = heading("twelve-cards.toml", "wrong-card-count")
    assert t["ambiguity_silent"] in silent and t["ambiguity_same"] not in silent
    assert t["ambiguity_same"] in heading("bid-six.toml", "rising-min-threshold")
    # the forced dealer's minimum: both readings are ruled now (the reading "exactly" is selectable), and differ
    assert t["ambiguous"] in heading("forced-dealer-bid.toml", "forced-dealer-minimum")
    # some readings ruled alike, the others a club's choice: no dispute has one now; the state the heading reads
    mixed = {"changes_ruling": False, "readings": {"a": {"rulings": {"x": {"unruled": False}}},
                                                   "b": {"rulings": {"y": {"unruled": True}}}}}
    assert engine._state(mixed) == "open"


def test_what_each_reading_rules_is_in_arabic_on_an_arabic_page(client: TestClient) -> None:
    """An ambiguity's readings that the engine rules say what they rule in the referee's Arabic (the sentence built
    from that reading's answer), not in its English."""
    import dataclasses

    from tarneeb.ruling.arabic import sentence

    path = ROOT / "spec/disputes/bid-five-score.toml"
    rep = resolve(load_situation(path))
    page = result_of(client, "ar", path.name)
    box = page[page.index('id="ambiguity-400-numbers"'):]
    box = box[:box.index("</div>")]
    x = next(x for x in rep.rulings if x.label == "tarneeb-400")
    flag = next(a for a in x.ambiguities if a.id == "400-numbers")
    for reading in flag.readings:
        assert reading.answer is not None
        said = sentence(rep.kind, dataclasses.replace(x, answer=reading.answer), rep.asked)
        assert str(with_isolates(said)) in box, reading.id
        assert esc(with_suits(reading.ruling)) not in box, reading.id



# ------------------------------------------------------------------ the Arabic page: ids whole, facts, examples, several


def test_the_arabic_headline_keeps_each_ruleset_id_whole(client: TestClient) -> None:
    """Where the rulesets disagree, the Arabic headline names each ruleset by its Arabic name (no id: the ids are
    the technical line's); an id that does stand in an Arabic line is in a ``<bdi class="id">`` that style.css never
    breaks, wherever it stands on the page (a 390 px phone broke "bsfyi-41" at its hyphen)."""
    from tarneeb.ruling.arabic import ruleset_ar

    page = result_of(client, "ar", "cancelled-hand-dealer.toml")
    head = re.search(r'<p class="headline"[^>]*>(.*?)</p>', page, re.S)
    assert head is not None
    for rid in ("bsfyi-41", "card-kings-41", "eram-41", "tarneeb-400"):
        assert ruleset_ar(rid) in html.unescape(head.group(1)) and rid not in head.group(1), rid
    css = (ROOT / "model/tarneeb/serve/static/style.css").read_text(encoding="utf-8")
    assert re.search(r"(?:^|[,}]\s*)bdi\.id\s*[,{][^}]*white-space:\s*nowrap", css, re.M)  # not only in a card
    # a run of words (a citation's English title) is not held on one line
    assert str(with_isolates("(\u2066How to play\u2069)")) == "(\u2066How to play\u2069)"


def test_an_undecided_ruling_on_an_arabic_page_words_the_missing_fact(client: TestClient) -> None:
    """A ruleset that lacks a fact says which in Arabic, in the words of the form's field; the field's id is left
    to the folded English sentence."""
    page = client.post("/ar/ruling", data={"ruleset": ALL, "kind": "trick-winner", "trick_leader": "1",
                                           "trick_cards": "KD 3H 4D 5D"}).text
    assert error_of(page) is None
    cards = card_of(page)
    verdicts = {label: text_of(m.group(1)) for label, body in cards.items()
                if (m := re.search(r'<p class="verdict" lang="ar" dir="rtl">(.*?)</p>', body, re.S))}
    assert AR["contract_trump"] in verdicts["classic"] and "contract.trump" not in verdicts["classic"]
    assert AR["target_revealed"] in verdicts["card-kings-41"] and "revealed" not in verdicts["card-kings-41"]
    english = re.search(r'<p class="verdict-en"[^>]*>(.*?)</p>', cards["classic"], re.S)
    assert english is not None and "contract.trump" in english.group(1)  # folded away, in English


def test_the_arabic_missing_facts_are_the_forms_words() -> None:
    """The Arabic words of a missing fact (spec/i18n/ar-ruling.toml [ruling.facts]) are the form's labels of its
    field, so a player finds the field to fill."""
    from tarneeb.i18n.tables import i18n

    facts = i18n("ar")["ruling"]["facts"]
    for field, key in {"dealer": "dealer", "revealed": "target_revealed", "contract.trump": "contract_trump",
                       "trump": "stated_trump", "question.seat": "q_seat", "scores": "scores", "bids": "bids",
                       "tricks": "tricks"}.items():
        assert facts[field] == AR[key], field
    assert AR["history"].startswith(facts["history"]) and AR["auction"].startswith(facts["auction"])
    assert AR["contract_seat"] in facts["contract"] and AR["contract_bid"] in facts["contract"]
    assert AR["hand_played"] in facts["hand"] and AR["hand_cancelled"] in facts["hand"]


def test_the_arabic_examples_are_listed_by_their_arabic_titles(client: TestClient) -> None:
    """The examples under the paste box of an Arabic page are the disputes' Arabic titles (spec/i18n/ar_pages.toml),
    and no label of the page names a file path (spec/disputes)."""
    from tarneeb.docgen.pages_i18n import page_text

    page = client.get("/ar/ruling").text
    ul = re.search(r'<ul class="examples">(.*?)</ul>', page, re.S)
    assert ul is not None
    items = re.findall(r'<li><a href="/ar/ruling\?example=([\w-]+)"><bdi lang="ar" dir="rtl">(.*?)</bdi></a></li>',
                       ul.group(1))
    assert [name for name, _ in items] == [p.stem for p in DISPUTES]
    for name, title in items:
        assert html.unescape(title) == page_text("dispute", name, "title"), name
    assert "spec/" not in text_of(page)
    english = client.get("/en/ruling").text  # the English page keeps the files' own titles
    assert f'<bdi lang="en" dir="ltr">{esc(engine.examples()[0].title)}</bdi>' in english


def test_a_card_several_rulesets_share_speaks_of_them_all(client: TestClient) -> None:
    """On an Arabic card (or headline), a sentence about the rules says «هالقوانين», as players say it, of one
    ruleset and of several that rule alike; never «هذه المجموعة» (this set) or «هذه المجموعات»."""
    seen = []
    for name in ("exposed-card-before-bidding.toml", "stated-trump.toml"):
        page = result_of(client, "ar", name)
        head = re.search(r'<p class="headline"[^>]*>(.*?)</p>', page, re.S)
        assert head is not None and "المجموعة" not in head.group(1) and "المجموعات" not in head.group(1)
        for labels, body in ruling_cards(page):
            verdict = re.search(r'<p class="verdict" lang="ar" dir="rtl">(.*?)</p>', body, re.S)
            assert verdict is not None
            assert "المجموعة" not in verdict.group(1) and "المجموعات" not in verdict.group(1), labels
            if len(labels) > 1:
                seen.append("هالقوانين" in verdict.group(1))
            elif labels == ["classic"] and name == "stated-trump.toml":
                assert "بهالقوانين" in verdict.group(1)
    assert seen.count(True) == 3, seen  # exposed card: all five; stated trump: a contradiction and an agreement


@pytest.mark.parametrize("lang", ["en", "ar"])
@pytest.mark.parametrize("path", ["ruling", "records", "", "rules/", "rules/classic"])
def test_the_ruling_page_shows_no_file_path_or_command_line_word(client: TestClient, lang: str, path: str) -> None:
    """A player meets no developer's word: no folder of the source tree, no command, no command-line flag (the
    records page said 'spec/records/ format ... as the tarneeb record command writes them')."""
    page = client.get(f"/{lang}/{path}").text
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", page, flags=re.S))
    assert "spec/" not in text and "--" not in text.replace("&#8212;", ""), lang
    assert not re.search(r"\btarneeb (record|ruling|verify|serve|rules)\b", text), lang


def test_a_records_winning_team_is_named_as_the_referee_names_it() -> None:
    """A record check on an Arabic page names a team as the rulings do: «الفريق الأول (1 و3)», not «الفريق 1» nor
    the record's field «(winner 0)»."""
    from tarneeb.serve.records_words import said

    assert said("team 1 (winner 0)", "ar") == ("الفريق الأول (1 و3)", "ar")
    assert said("team 2 (winner 1)", "ar") == ("الفريق الثاني (2 و4)", "ar")


def test_the_arabic_ambiguity_box_lists_rulesets_with_the_arabic_comma(client: TestClient) -> None:
    """On an Arabic page the rulesets that take a reading, and those a reading's ruling is said of, are listed with
    «، » (each id isolated whole), not a Latin ", "; the English page keeps ", "."""
    labels = "|".join(re.escape(r) for r in rulesets())
    seen = {"en": 0, "ar": 0}
    for path in sorted((ROOT / "spec/disputes").glob("*.toml")):
        for lang in ("en", "ar"):
            page = client.post(f"/{lang}/ruling", data={"situation_text": path.read_text(encoding="utf-8")}).text
            for box in re.findall(r'<div class="ambiguity[^"]*" id="ambiguity-.*?</ul>', page, re.S):
                latin = re.findall(rf"(?:{labels})(?:</bdi>)?, (?:<bdi[^>]*>)?(?:{labels})", box)
                arabic = re.findall(rf"(?:{labels})(?:</bdi>)?، (?:<bdi[^>]*>)?(?:{labels})", box)
                assert not (latin if lang == "ar" else arabic), (path.name, lang, latin or arabic)
                seen[lang] += len(arabic if lang == "ar" else latin)
    assert seen["en"] and seen["ar"], seen  # some box lists several rulesets


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_link_to_no_example_says_so(client: TestClient, lang: str) -> None:
    """A referee link whose ?example= is cut short or garbled says so (404, in the page's language), instead of an
    empty form that looks like the answer; the whole link opens its example."""
    r = client.get(f"/{lang}/ruling?example=tie-equal-comb")
    named = "tie-equal-comb" if lang == "en" else "tie\u2011equal\u2011comb"  # kept on one line in Arabic
    assert r.status_code == 404 and 'id="error"' in r.text and named in r.text
    assert ("cut short" if lang == "en" else "قُطع الرابط") in r.text
    whole = client.get(f"/{lang}/ruling?example=tie-equal-combined")
    assert whole.status_code == 200 and 'id="error"' not in whole.text and "tie-equal-combined" in whole.text
