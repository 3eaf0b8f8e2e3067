"""The web referee against a stranger's requests: no file of the host is opened because a
request named it, nothing one request loads is seen by another, and every bound gives a located 4xx in bounded
time; the command line gives the same one-line error with exit 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.serve_support import app_client

from tarneeb.core.spec import builtin_rulesets_only, resolve_ruleset
from tarneeb.errors import ConfigError

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

ROOT = Path(__file__).resolve().parents[1]
HOUSE = ROOT / "spec" / "house-rules" / "bsfyi-raised.toml"  # a valid house ruleset file on this host


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with app_client(max_upload=1024 * 1024) as c:
        yield c


def _situation(ruleset: object) -> str:
    return json.dumps({"ruleset": ruleset, "question": {"kind": "trump"}})


def _error(page: str) -> str:
    import html
    import re

    m = re.search(r'<div class="error" role="alert" id="error">(.*?)</div>', page, re.S)
    assert m, page[:2000]
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", m.group(1)))).strip()


def _names(tmp: Path) -> list[str]:
    link = tmp / "club.toml"
    link.symlink_to(HOUSE)
    home_rel = os.path.relpath(HOUSE, Path.home())
    return [str(HOUSE), str(ROOT / "pyproject.toml"), os.path.relpath(HOUSE, Path.cwd()), "spec/house-rules/bsfyi-raised.toml",
            "../" * 12 + str(HOUSE).lstrip("/"), "~/" + home_rel, f"file://{HOUSE}", str(link), "/etc/passwd",
            "/no/such/file.toml"]


def test_a_situation_naming_a_host_file_opens_nothing(client: TestClient, tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    real_open = Path.open

    def spy(self: Path, *a: object, **k: object) -> object:
        opened.append(str(self))
        return real_open(self, *a, **k)  # type: ignore[call-overload]

    answers = {}
    monkeypatch.setattr(Path, "open", spy)
    for name in _names(tmp_path):
        for ruleset in (name, [name], ["classic", name], {"id": name}):
            r = client.post("/en/ruling", data={"situation_text": _situation(ruleset)})
            assert r.status_code == 400, (name, r.status_code)
            err = _error(r.text)
            assert "unknown ruleset" in err and "build-system" not in err and "root:" not in err, err
            assert "path of a ruleset file" not in err, err  # the web takes built-in ids only
            answers[(name, json.dumps(ruleset))] = err.replace(name, "NAME")
    assert not [p for p in opened if p.endswith(".toml") and "spec/rulesets" not in p
                and "spec/disputes" not in p], opened
    # the answer is the same whether the named file exists, is a ruleset, a symlink or nothing at all
    assert len({err for (n, s), err in answers.items() if s == json.dumps(n)}) == 1, answers


def test_a_form_naming_a_host_file_is_refused(client: TestClient) -> None:
    r = client.post("/en/ruling", data={"ruleset": str(HOUSE), "kind": "trump"})
    assert r.status_code in (200, 400)
    assert "bsfyi-raised" not in r.text and "Raised" not in r.text  # the house file's id and name: never loaded


def test_a_file_loaded_in_this_process_is_not_seen_by_a_request(client: TestClient) -> None:
    rs = resolve_ruleset(str(HOUSE))  # the command line loaded it earlier in this process: known by its id here
    assert resolve_ruleset(rs.id) is rs
    with builtin_rulesets_only(), pytest.raises(ConfigError, match="unknown ruleset"):
        resolve_ruleset(rs.id)
    before = client.post("/en/ruling", data={"situation_text": _situation(rs.id)})
    assert before.status_code == 400 and "unknown ruleset" in _error(before.text)
    assert resolve_ruleset(rs.id) is rs  # and the scope took nothing away outside it


def test_a_record_header_naming_a_host_file_is_an_unknown_ruleset(client: TestClient, tmp_path: Path) -> None:
    header = {"type": "match", "format": "tarneeb-record", "version": 1, "match": "1:0", "ruleset": str(HOUSE),
              "options": {}, "first_dealer": 0}
    r = client.post("/en/records", data={"records_text": json.dumps(header) + "\n"})
    assert r.status_code in (200, 400), r.status_code  # a record with a problem line, reported on the page
    assert "unknown ruleset" in r.text and "Raised" not in r.text


def _deep_json(n: int) -> str:
    return '{"ruleset": "classic", "question": {"kind": "trump"}, "x": ' + "[" * n + "]" * n + "}"


def _deep_toml(n: int) -> str:
    return "ruleset = 'classic'\n[question]\nkind = 'trump'\n[x]\ny = " + "[" * n + "]" * n + "\n"


HOSTILE = {
    "JSON nested 100,000 deep": (_deep_json(100_000), "characters; a situation is at most"),
    "JSON nested 30,000 deep": (_deep_json(30_000), "(syntax): nested too deeply"),
    "TOML nested 30,000 deep": (_deep_toml(30_000), "(syntax): nested too deeply"),
    "JSON nested 20 deep": (_deep_json(20), "nested"),
    "a 5,000-digit number": ('{"ruleset": "classic", "dealer": ' + "9" * 5000 + ', "question": {"kind": "trump"}}',
                             "(syntax): a number of more than 4300 digits"),
    "a number out of range": ('{"ruleset": "classic", "dealer": 10000000, "question": {"kind": "trump"}}',
                              "dealer: 10000000: out of range"),
    "a ruleset listed 3,000 times": (_situation(["classic"] * 3000), "ruleset: a list of 3000 items; at most 200"),
    "a ruleset listed 40 times": (_situation(["classic"] * 40), "40 rulesets listed"),
    "a 1 MB situation": ('{"ruleset": "classic", "question": {"kind": "trump"}, "title": "' + "x" * 1_000_000 + '"}',
                         "characters; a situation is at most"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_situations_get_a_located_400_quickly(client: TestClient, name: str) -> None:
    text, expect = HOSTILE[name]
    t0 = time.perf_counter()
    r = client.post("/en/ruling", data={"situation_text": text})
    took = time.perf_counter() - t0
    assert r.status_code == 400, (name, r.status_code, r.text[-500:])
    err = _error(r.text)
    assert "(pasted): " in err and expect in err, err
    # the page gives the pasted text back once (to be corrected), nothing more: no amplification
    assert len(r.text) < len(text) + 100_000 and took < 10, (len(r.text), took)


def test_the_same_ruleset_listed_twice_is_asked_once(client: TestClient) -> None:
    once = client.post("/en/ruling", data={"situation_text": _situation(["classic"])})
    twice = client.post("/en/ruling", data={"situation_text": _situation(["classic", "classic"])})
    assert once.status_code == twice.status_code == 200
    assert twice.text.count('class="ruling-card') == once.text.count('class="ruling-card')


@pytest.mark.parametrize("name", ["JSON nested 100,000 deep", "TOML nested 30,000 deep", "a 5,000-digit number",
                                  "a ruleset listed 40 times"])
def test_the_command_line_gives_the_same_one_line_error(name: str, tmp_path: Path) -> None:
    text, expect = HOSTILE[name]
    f = tmp_path / ("s.toml" if name.startswith("TOML") else "s.json")
    f.write_text(text, encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "tarneeb.cli", "ruling", str(f)], capture_output=True, text=True,
                       timeout=60)
    assert p.returncode == 2, p.stderr[-2000:]
    assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1, p.stderr[-2000:]
    assert expect in p.stderr and str(f) in p.stderr, p.stderr


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_request_past_the_time_limit_gets_a_clear_page(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from tarneeb.serve import engine

    real_rule, real_check = engine.rule, engine.check_records

    def delayed(real: Any) -> Any:  # the same work, made to outlast the limit whatever the machine's speed
        def f(*a: Any) -> Any:
            time.sleep(1.0)
            return real(*a)
        return f

    monkeypatch.setattr(engine, "rule", delayed(real_rule))
    monkeypatch.setattr(engine, "check_records", delayed(real_check))
    with app_client(seconds=0.2) as slow:
        r = slow.post(f"/{lang}/ruling", data={"situation_text": _situation("all")})
        rec = slow.post(f"/{lang}/records", data={"records_text": '{"type": "match"}\n'})
    from tarneeb.serve.strings import STRINGS

    want = STRINGS[lang]["too_slow"].format(seconds="0.2")
    assert r.status_code == 503 and want in _error(r.text), r.text[-1500:]
    assert rec.status_code == 503 and want in _error(rec.text)



def test_a_pasted_text_is_held_to_the_request_limit_not_one_mib() -> None:
    # a 1.5 MB record pasted into the box was refused "Part exceeded maximum size of 1024KB" while the page says
    # the limit is 2 MiB; a paste is held to the request's limit, as an upload is
    big = ('{"type": "note", "x": "' + "y" * 1000 + '"}\n') * 1500  # about 1.5 MB, not records
    with app_client() as c:
        r = c.post("/en/records", files={"records_file": ("", b"")}, data={"records_text": big})
        over = c.post("/en/records", files={"records_file": ("", b"")}, data={"records_text": big * 2})
    assert r.status_code == 400 and "1024KB" not in r.text and "not a record file" in r.text.lower(), r.text[-800:]
    assert over.status_code == 413


def test_a_record_file_of_too_many_lines_gets_a_located_413(client: TestClient) -> None:
    from tarneeb.serve.engine import MAX_RECORD_LINES

    many = b'{"type": "hand"}\n' * (MAX_RECORD_LINES + 5)
    t0 = time.perf_counter()
    r = client.post("/en/records", files={"records_file": ("many.jsonl", many)})
    assert r.status_code == 413 and time.perf_counter() - t0 < 10, r.status_code
    assert f"many.jsonl:{MAX_RECORD_LINES + 1}: the file has {MAX_RECORD_LINES + 5} lines" in _error(r.text)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_a_page_lists_a_bounded_number_of_reports(client: TestClient, lang: str) -> None:
    """A file of broken lines within the limits (a 2 MiB upload of them gave a 29 MB page in 8 s): the page lists
    the first reports and says how many more the summary counts."""
    from tarneeb.serve.engine import MAX_RECORD_LINES, MAX_SHOWN

    n = MAX_RECORD_LINES - 10
    r = client.post(f"/{lang}/records", files={"records_file": ("broken.jsonl", b'{"type": "hand"}\n' * n)})
    assert r.status_code == 400 and len(r.text) < 200_000, (r.status_code, len(r.text))
    assert r.text.count('<li class="error">') == MAX_SHOWN
    assert f" {n - MAX_SHOWN} " in r.text.split('id="more-problems"')[1][:80]
