"""The protocol reference (spec/protocol/) agrees with its schema, the vectors, the reference engine and the
example engines: every request the vector runner sends and every answer the vectors expect follows the schema;
the quickstart transcript is generated; the README's examples are what the engines answer."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tarneeb.conformance import vectors as V
from tarneeb.conformance.protocol import PROTOCOL_VERSION, Engine
from tarneeb.conformance.transcript import quickstart_text, transcript_pairs
from tarneeb.core.spec import spec_dir

jsonschema = pytest.importorskip("jsonschema")
import jsonschema_rs  # noqa: E402  (the test extra; compiled: the bulk of the vectors' messages in a fraction of a second)

ROOT = Path(__file__).resolve().parents[1]
PROTO = spec_dir() / "protocol"
MINI = f"{sys.executable} {ROOT / 'examples/mini_engine/mini_engine.py'}"
JS = f"node {ROOT / 'examples/js_engine/engine.js'}"
QUERY = {"play-legality", "trick-winner", "bid-legality", "bidding-end", "hand-scoring", "outcome"}


@pytest.fixture(scope="module")
def validator() -> Any:
    schema = json.loads((PROTO / "schema-v1.json").read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture(scope="module")
def fast_validator() -> Any:
    """The same schema in jsonschema-rs, a compiled validator of the same draft (2020-12), for the vectors' tens of
    thousands of messages; jsonschema says what is wrong with one it refuses."""
    return jsonschema_rs.Draft202012Validator(json.loads((PROTO / "schema-v1.json").read_text()))


def _messages(path: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """(where, message) for every request the runner sends for the tests of ``path`` and every answer their
    expectations describe, built from the protocol page (not from the runner's code)."""
    cat = path.stem
    for grp in json.loads(path.read_text()):
        base = {"ruleset": grp["ruleset"], "options": grp["options"]}
        for i, t in enumerate(grp["tests"]):
            where = f"{path.parent.name}/{path.name} group {grp['options']} test {i}"
            inp, exp = t["input"], t["expected"]
            if cat in QUERY:
                yield where, {"cmd": grp["command"], **base, **inp}
                yield where, {"ok": True, **exp}
                continue
            deals = inp["deals"] if cat == "match" else [inp]
            results = exp["deals"] if cat == "match" else [exp]
            dealer, scores = inp["dealer"], inp["scores"]
            for deal, res in zip(deals, results, strict=True):  # a match carries dealer and scores on
                yield where, {"cmd": "start", **base, "dealer": dealer, "scores": scores,
                              "target": inp["target"], "deck": deal["deck"]}
                dealer, scores = res.get("next_dealer"), res.get("scores")
                for a in deal.get("actions", []):
                    yield where, {"cmd": "apply", "action": a}
                if cat == "perft":
                    yield where, {"cmd": "perft", "depth": inp["depth"]}
                    yield where, {"ok": True, **res}
                    continue
                for w in res.get("trick_winners", []):
                    yield where, {"ok": True, "trick_winner": w}
                yield where, {"ok": True, **{f: v for f, v in res.items() if f != "trick_winners"}}


def test_every_vector_request_and_expected_answer_follows_the_schema(validator: Any, fast_validator: Any) -> None:
    n = 0
    seen: set[str] = set()
    for path in V.vector_paths(V.default_dir()):
        for where, msg in _messages(path):
            n += 1
            key = json.dumps(msg, sort_keys=True)
            if key in seen:  # the same apply line or trick winner: validated once
                continue
            seen.add(key)
            if fast_validator.is_valid(msg):
                continue
            err = jsonschema.exceptions.best_match(validator.iter_errors(msg))
            why = err.message if err else "refused by jsonschema-rs, not by jsonschema"
            pytest.fail(f"{where}: {why}: {json.dumps(msg)[:300]}")
    assert n > 100_000 and len(seen) > 10_000, (n, len(seen))


@pytest.mark.parametrize("msg", [
    # the three shapes of bids, swapped
    {"cmd": "score_hand", "ruleset": "card-kings-41", "options": {}, "bids": ["bid:4", "bid:2", "bid:3", "bid:5"],
     "tricks": [4, 1, 6, 2]},
    {"cmd": "bid_legal", "ruleset": "eram-41", "options": {}, "dealer": 0, "scores": [0, 0, 0, 0], "bids": [4, 2],
     "bid": "bid:3"},
    {"cmd": "bidding_end", "ruleset": "eram-41", "options": {}, "dealer": 0, "scores": [0, 0, 0, 0],
     "bids": [[1, "4"], [2, "2"], [3, "3"], [0, "5"]]},
    {"cmd": "outcome", "ruleset": "classic", "options": {}, "scores": [0, 0, 0, 0], "target": 41, "tricks": [3, 5, 2, 3],
     "bids": [7, 0, 0, 0], "contract": {"seat": 0, "n": 7, "strain": None}},
    {"cmd": "start", "ruleset": "classic", "options": {}, "dealer": 0, "scores": [0, 0, 0, 0], "target": 41,
     "deck": ["AS"] * 52},  # not 52 distinct cards
    {"cmd": "start", "ruleset": "classic", "options": {}, "dealer": 0, "scores": [0, 0, 0, 0], "target": 41,
     "deck": [], "actions": []},  # a vector's input sent as it is (actions not stripped)
    {"cmd": "apply", "action": "8H"},
    {"ok": True, "winner": 4},
    {"ok": True, "tricks_won": [14, 0, 0, 0]},
    {"ok": False},
])
def test_the_schema_refuses_confused_shapes(validator: Any, fast_validator: Any, msg: dict[str, Any]) -> None:
    assert not validator.is_valid(msg)
    assert not fast_validator.is_valid(msg)  # the compiled validator reads the schema alike


def test_quickstart_is_generated_from_the_reference_engine() -> None:
    assert (PROTO / "quickstart.md").read_text() == quickstart_text(), "run `tarneeb vectors generate`"


def _same(req: dict[str, Any], want: dict[str, Any], got: dict[str, Any]) -> str | None:
    """Why ``got`` differs from ``want`` as the protocol compares answers, or None."""
    if req["cmd"] == "hello":
        return None if got.get("protocol") == PROTOCOL_VERSION and isinstance(got.get("rulesets"), list) else "bad hello"
    for k, v in want.items():
        g = got.get(k)
        if k == "hands" and isinstance(g, list):
            g, v = [sorted(h) for h in g], [sorted(h) for h in v]
        if k == "actions" and isinstance(g, list):
            g, v = sorted(g), sorted(v)
        if g != v:
            return f"{k}: expected {json.dumps(v)}, got {json.dumps(g)}"
    return None


def _replay(engine: str, pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    with Engine(engine) as eng:
        for req, want in pairs:
            got = eng.request(req)
            why = _same(req, want, got)
            assert why is None, f"{json.dumps(req)[:200]}: {why}"


def _engines() -> list[Any]:
    return [MINI, pytest.param(JS, marks=pytest.mark.skipif(shutil.which("node") is None,
                                                            reason="node is not installed"))]


@pytest.mark.parametrize("engine", _engines())
def test_the_quickstart_transcript_is_what_the_example_engines_answer(validator: Any, engine: str) -> None:
    pairs = transcript_pairs((PROTO / "quickstart.md").read_text())
    assert [r["cmd"] for r, _ in pairs[:3]] == ["hello", "start", "legal"] and pairs[-1][0]["cmd"] == "state"
    assert pairs[-1][1]["phase"] == "over" and sum(r["cmd"] == "apply" for r, _ in pairs) == 56
    for req, ans in pairs:
        assert validator.is_valid(req) and validator.is_valid(ans), (req, ans)
    _replay(engine, pairs)


def test_the_readme_examples_follow_the_schema_and_the_engines() -> None:
    """Every example pair of the README is valid; legal/apply/state examples come from the quickstart; the others
    are what the mini engine answers (both engines for card-kings-41 requests)."""
    schema = json.loads((PROTO / "schema-v1.json").read_text())
    val = jsonschema.Draft202012Validator(schema)
    pairs = transcript_pairs((PROTO / "README.md").read_text())
    quick = [(json.dumps(r), json.dumps(a)) for r, a in transcript_pairs((PROTO / "quickstart.md").read_text())]
    cmds = {r["cmd"] for r, _ in pairs}
    assert cmds == {"hello", "start", "legal", "apply", "state", "perft", "quit", "play_legal", "trick_winner",
                    "bid_legal", "bidding_end", "score_hand", "outcome"}, cmds
    live: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for req, ans in pairs:
        assert val.is_valid(req) and val.is_valid(ans), (req, ans)
        if req["cmd"] in ("legal", "apply", "state"):
            assert (json.dumps(req), json.dumps(ans)) in quick, f"not in the quickstart: {req} {ans}"
        elif req["cmd"] != "quit":
            live.append((req, ans))
    _replay(MINI, live)
    if shutil.which("node"):
        _replay(JS, [(r, a) for r, a in live if r.get("ruleset", "card-kings-41") == "card-kings-41"
                     and r["cmd"] not in ("perft",)])


def _vectors_run(*extra: str, engine: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tarneeb.cli", "vectors", "run", "--engine", engine or MINI,
                           "--category", "perft", *extra], capture_output=True, text=True, timeout=300)


def test_an_engine_of_protocol_1_runs_clean_and_is_told_what_it_skipped() -> None:
    # an engine written to the first text (perft 0 where no card can be played) failed 3 vectors per perft group,
    # citing play.follow; now those are protocol 2's, skipped for it with what changed
    old = _vectors_run(engine=f"{MINI} --mutant protocol-1")
    assert old.returncode == 0, old.stdout[-3000:]
    line = next(ln for ln in old.stdout.splitlines() if "skipped: they test protocol 2" in ln)
    assert "perft's edge cases" in line and "hello names protocol 1" in line and "--protocol 2 runs them" in line
    forced = _vectors_run("--protocol", "2", "--json", engine=f"{MINI} --mutant protocol-1")
    rep = json.loads(forced.stdout)
    groups = sum(len(json.loads(f.read_text())) for f in (spec_dir() / "vectors").glob("*/perft.json"))
    assert forced.returncode == 1 and rep["failed"] == 3 * groups  # the three edge cases of version 2 a group
    assert {f["clause"] for f in rep["failures"]} == {"protocol.perft"} and {f["since"] for f in rep["failures"]} == {2}
    assert all("spec/protocol/README.md" in f["source"] for f in rep["failures"])
    current = _vectors_run("--json")  # the engine of this version: every test run, none skipped
    cur = json.loads(current.stdout)
    assert current.returncode == 0 and cur["protocol"] == 2 and not cur["newer_protocol_skipped"]
    assert cur["passed"] == rep["passed"] + rep["failed"]


def test_an_engine_of_a_newer_protocol_is_refused(tmp_path: Path) -> None:
    engine = tmp_path / "future.py"
    engine.write_text("import json, sys\nfor line in sys.stdin:\n"
                      "    print(json.dumps({'ok': True, 'protocol': 3, 'name': 'f', 'rulesets': []}), flush=True)\n")
    p = _vectors_run(engine=f"{sys.executable} {engine}")
    assert p.returncode == 2 and "protocol 3: newer than this tarneeb's (2)" in p.stderr, p.stderr


def test_vectors_run_writes_a_junit_report(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    out = tmp_path / "conformance.xml"
    p = _vectors_run("--protocol", "2", "--junit", str(out), engine=f"{MINI} --mutant protocol-1")
    assert p.returncode == 1
    root = ET.parse(out).getroot()
    suites = root.findall("testsuite")
    assert {s.get("name") for s in suites} == {f"{r}/perft" for r in ("bsfyi-41", "card-kings-41", "classic",
                                                                       "eram-41", "tarneeb-400")}
    cases = root.findall("testsuite/testcase")
    fails = root.findall("testsuite/testcase/failure")
    assert len(cases) == int(root.get("tests", "0")) and len(fails) == int(root.get("failures", "0")) > 0
    f = fails[0]
    assert "expected 1, engine gave 0" in f.get("message", "") and "protocol.perft" in f.get("message", "")
    assert '{"cmd":"perft"' in (f.text or "") and '{"cmd":"start"' in (f.text or "")  # the requests to replay it
    assert all(c.get("classname", "").count(":") == 1 for c in cases)  # FILE:LINE, as --only takes it
