"""Fuzzing the record reader and verifier: bad input gives located errors, never an exception."""

from __future__ import annotations

import json
import os
import random
from functools import cache
from pathlib import Path
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarneeb import Deal, Match, Phase, load_rules, random_deck
from tarneeb.play.bots import POLICIES
from tarneeb.play.simulate import play_match
from tarneeb.records import (
    MAX_LINE,
    Divergence,
    HandLine,
    MatchHeader,
    RecordProblem,
    match_lines,
    parse_line,
    verify_lines,
    verify_paths,
)

# TARNEEB_FUZZ_EXAMPLES raises the effort for a long local run; CI keeps the default.
FUZZ = settings(max_examples=int(os.environ.get("TARNEEB_FUZZ_EXAMPLES", "60")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


@cache
def valid_lines(rid: str = "classic") -> tuple[bytes, ...]:
    m = play_match(load_rules(rid), "fuzz", 0, "heuristic", 30).match
    return tuple(match_lines(m, "fz"))


def check_reports(reports: list[Any], n_lines: int) -> None:
    for r in reports:
        assert isinstance(r, Divergence | RecordProblem)
        assert 1 <= r.line <= n_lines, r
        assert r.file and r.field
        assert r.text()  # formats without error
        json.dumps(r.to_json())


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes_give_a_located_error(data: bytes) -> None:
    it = parse_line(data, "f.jsonl", 7)
    assert isinstance(it, RecordProblem | MatchHeader | HandLine)
    if isinstance(it, RecordProblem):
        assert it.line == 7 and it.file == "f.jsonl" and it.message


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, prefix + (i,))
    return out


@FUZZ
@given(st.data())
def test_mutated_fields_never_raise(data: st.DataObject) -> None:
    """Replace, delete or add a field anywhere in a valid record: a report or a clean pass, never an exception.

    The fast path and the full engine replay give the same reports.
    """
    rid = data.draw(st.sampled_from(["classic", "bsfyi-41", "tarneeb-400"]))
    lines = [json.loads(x) for x in valid_lines(rid)]
    k = data.draw(st.integers(0, len(lines) - 1))
    obj = lines[k]
    path = data.draw(st.sampled_from(_paths(obj)[1:]))
    parent = obj
    for p in path[:-1]:
        parent = parent[p]
    action = data.draw(st.sampled_from(["replace", "delete", "add"]))
    if action == "replace":
        parent[path[-1]] = data.draw(json_values)
    elif action == "delete":
        if isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent.pop(path[-1])
    elif isinstance(parent, dict):
        parent[data.draw(st.text(max_size=8))] = data.draw(json_values)
    raw = [orjson.dumps(x, option=orjson.OPT_NON_STR_KEYS) if i != k else json.dumps(x).encode()
           for i, x in enumerate(lines)]
    s, reps = verify_lines(raw, file="m.jsonl")
    check_reports(reps, len(raw))
    assert s.lines == len(raw)
    s_slow, reps_slow = verify_lines(raw, file="m.jsonl", fast=False)
    assert reps == reps_slow and s.to_json() == s_slow.to_json()


@FUZZ
@given(st.data())
def test_corrupted_bytes_are_located(data: st.DataObject) -> None:
    """Byte-level damage (cut, splice, non-UTF-8): the damaged line gets an error and later lines are still read."""
    lines = list(valid_lines("bsfyi-41"))
    k = data.draw(st.integers(1, len(lines) - 2))
    line = lines[k]
    a = data.draw(st.integers(0, len(line) - 2))
    b = data.draw(st.integers(a, len(line) - 1))
    junk = data.draw(st.binary(min_size=0, max_size=6) | st.just(b"\xff\xfe") | st.just(b"\xc3"))
    lines[k] = line[:a] + junk + line[b:]
    s, reps = verify_lines(lines, file="d.jsonl")
    check_reports(reps, len(lines))
    if lines[k].strip() and not isinstance(parse_line(lines[k]), MatchHeader | HandLine):
        assert any(isinstance(r, RecordProblem) and r.line == k + 1 for r in reps)
    # lines after the damage are still checked: every hand line but the damaged one is counted
    assert s.hands >= len(lines) - 2 or not lines[k].strip()


def test_non_utf8_is_named() -> None:
    line = valid_lines()[1]
    bad = line[:50] + b"\xff" + line[51:]
    it = parse_line(bad, "x", 2)
    assert isinstance(it, RecordProblem) and "UTF-8" in it.message


@FUZZ
@given(st.integers(min_value=1, max_value=5000))
def test_truncated_file(cut: int) -> None:
    blob = b"".join(valid_lines())
    lines = blob[:-cut].splitlines(keepends=True)
    s, reps = verify_lines(lines, file="t.jsonl")
    check_reports(reps, len(lines))
    if lines and not lines[-1].endswith(b"\n") and isinstance(parse_line(lines[-1]), RecordProblem):
        last = [r for r in reps if r.line == len(lines)]
        assert last and isinstance(last[0], RecordProblem) and "truncated" in last[0].message


def test_absurd_sizes(tmp_path: Path) -> None:
    """A line over the limit, huge numbers, deep nesting: located errors, and the next lines still verify."""
    good = list(valid_lines())
    head, rest = good[0], good[1:]
    p = tmp_path / "big.jsonl"
    with p.open("wb") as f:
        f.write(head)
        f.write(b'{"type":"hand","deck":"' + b"A" * (MAX_LINE + 10) + b'"}\n')
        f.write(b'{"type":"hand","dealer":' + b"9" * 400 + b"}\n")
        f.write(b"[" * 100000 + b"]" * 100000 + b"\n")
        f.write(b'{"type":"hand","tricks":' + json.dumps([[]] * 5000).encode() + b"}\n")
        f.writelines(rest)
    reps: list[Any] = []
    s = verify_paths([str(p)], on_report=reps.append)
    errs = [r for r in reps if isinstance(r, RecordProblem)]
    assert [e.line for e in errs] == [2, 3, 4, 5], [e.text() for e in errs]
    assert "longer than the limit" in errs[0].message
    assert s.hands == len(rest) and s.clean_hands == len(rest) and s.exit_code() == 2


def test_unknown_fields_warn_and_extension_fields_pass() -> None:
    lines = [json.loads(x) for x in valid_lines()]
    lines[1]["colour"] = "blue"
    lines[1]["x-engine-note"] = "kept silently"
    s, reps = verify_lines([json.dumps(x) for x in lines])
    assert [(r.field, r.severity) for r in reps if isinstance(r, RecordProblem)] == [("colour", "warning")]
    assert len(reps) == 1
    assert s.exit_code() == 0 and s.warnings == 1


def test_header_problems() -> None:
    lines = [json.loads(x) for x in valid_lines()]
    for bad, fld in ((dict(lines[0], version=2), "version"), (dict(lines[0], ruleset="nope"), "ruleset"),
                     (dict(lines[0], options={"target": 42}), "options.target"),
                     (dict(lines[0], first_dealer="north"), "first_dealer")):
        s, reps = verify_lines([json.dumps(bad)] + [json.dumps(x) for x in lines[1:]])
        assert reps and reps[0].field == fld and reps[0].line == 1, [r.text() for r in reps]
        assert s.hands == 0 and s.exit_code() == 2
        # one message for the header and one for the skipped hands, not one per line
        assert len(reps) == 2


@FUZZ
@given(st.data())
def test_fast_path_agrees_with_engine_on_swaps(data: st.DataObject) -> None:
    """Swap two values of the same kind (cards, seats, bids, numbers) inside a hand: fast and full replay agree."""
    rid = data.draw(st.sampled_from(["classic", "eram-41", "card-kings-41"]))
    lines = [json.loads(x) for x in valid_lines(rid)]
    k = data.draw(st.integers(1, len(lines) - 1))
    leaves = [p for p in _paths(lines[k])[1:] if not isinstance(_get(lines[k], p), dict | list)]
    a, b = data.draw(st.sampled_from(leaves)), data.draw(st.sampled_from(leaves))
    va, vb = _get(lines[k], a), _get(lines[k], b)
    _set(lines[k], a, vb)
    _set(lines[k], b, va)
    raw = [orjson.dumps(x) for x in lines]
    s, reps = verify_lines(raw)
    s_slow, reps_slow = verify_lines(raw, fast=False)
    assert reps == reps_slow and s.to_json() == s_slow.to_json()


def _get(obj: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        obj = obj[p]
    return obj


def _set(obj: Any, path: tuple[Any, ...], v: Any) -> None:
    _get(obj, path[:-1])[path[-1]] = v


def test_match_ids() -> None:
    """A hand of another match is reported; a header without an id accepts its hands' ids."""
    lines = [json.loads(x) for x in valid_lines()]
    other = dict(lines[2], match="someone-else")
    s, reps = verify_lines([json.dumps(x) for x in lines[:2] + [other] + lines[3:]])
    assert [(r.line, r.field) for r in reps] == [(3, "match")]
    head = {k: v for k, v in lines[0].items() if k != "match"}
    s, reps = verify_lines([json.dumps(head)] + [json.dumps(x) for x in lines[1:]])
    assert reps == [] and s.clean_hands == len(lines) - 1


def test_start_scores_and_header_warnings() -> None:
    """A match recorded part-way: the header's start_scores are the scores before its first hand."""
    rules = load_rules("bsfyi-41")
    m = Match(rules, 2, scores=[30, 12, 5, 38])
    rng = random.Random(9)
    while not m.is_over() and m.hands_played < 40:
        m.apply(Deal(random_deck(rng)) if m.phase is Phase.DEAL else POLICIES["heuristic"](m, rng))
    lines = list(match_lines(m, "late"))
    head = json.loads(lines[0])
    assert head["start_scores"] == [30, 12, 5, 38]
    s, reps = verify_lines(lines)
    assert reps == [] and s.clean_hands == len(m.records)
    head["start_scores"] = [0, 0, 0, 0]  # the same hands from zero scores diverge on the running scores
    head["colour"] = "red"
    s, reps = verify_lines([json.dumps(head).encode()] + lines[1:])
    first = reps[0]
    assert isinstance(first, RecordProblem) and first.field == "colour" and first.severity == "warning"
    assert first.line == 1
    assert any(isinstance(r, Divergence) and r.field == "scores" for r in reps)


def test_start_scores_in_the_auction_family() -> None:
    """Team form [a, b] is read as partners' equal scores; unequal partners are refused with a located error."""
    rules = load_rules("classic")
    m = Match(rules, 1, scores=[33, 38, 33, 38])
    rng = random.Random(4)
    while not m.is_over() and m.hands_played < 10:
        m.apply(Deal(random_deck(rng)) if m.phase is Phase.DEAL else POLICIES["heuristic"](m, rng))
    lines = list(match_lines(m, "late"))
    head = json.loads(lines[0])
    assert head["start_scores"] == [33, 38, 33, 38]
    s, reps = verify_lines(lines)
    assert reps == [] and s.clean_hands == len(m.records)
    head["start_scores"] = [33, 38]
    s, reps = verify_lines([json.dumps(head).encode()] + lines[1:])
    assert reps == [] and s.clean_hands == len(m.records)
    head["start_scores"] = [33, 38, 30, 38]
    s, reps = verify_lines([json.dumps(head).encode()] + lines[1:])
    first = reps[0]
    assert isinstance(first, RecordProblem) and first.field == "start_scores" and first.line == 1
    assert "partners" in first.message and s.hands == 0 and s.exit_code() == 2
