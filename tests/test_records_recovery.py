"""The verifier after an unreadable hand line: the next hand is judged on its own claims.

A hand line that cannot be read (malformed JSON, not UTF-8, wrong types, cut short, too long)
gives one located error; the hand after it is checked from what it claims itself (its dealer,
its scores less its deltas, its deal number), so the lost line does not echo as divergences,
while a real fault in that next hand is still reported with its clause.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import orjson
import pytest

from tarneeb import load_rules
from tarneeb.play.simulate import play_match
from tarneeb.records import MAX_LINE, Divergence, RecordProblem, Report, Summary, match_dicts, verify_lines, verify_paths

SETS: list[tuple[str, dict[str, Any]]] = [
    ("classic", {}),
    ("classic", {"egyptian": True, "must_trump": True}),
    ("classic", {"weak_redeal": True, "auction": "continuous", "all_pass": "dealer-forced"}),
    ("card-kings-41", {}),
    ("bsfyi-41", {}),
    ("tarneeb-400", {}),
]
IDS = [f"{r}-{json.dumps(o)}" for r, o in SETS]


@cache
def _dicts(rid: str, opts_key: str) -> tuple[bytes, ...]:
    """A whole match with several hands, scores away from zero (a lost line would shift them)."""
    for seed in range(20):
        m = play_match(load_rules(rid, json.loads(opts_key)), "recovery", seed, "heuristic", 40).match
        if len(m.records) >= 6:
            return tuple(orjson.dumps(d) for d in match_dicts(m, f"{rid}-{seed}"))
    raise AssertionError(f"no match of 6 hands under {rid}")


def dicts(rid: str, opts: dict[str, Any]) -> list[dict[str, Any]]:
    return [orjson.loads(x) for x in _dicts(rid, json.dumps(opts, sort_keys=True))]


def lines_of(ds: list[dict[str, Any]]) -> list[bytes]:
    return [orjson.dumps(d) + b"\n" for d in ds]


def check(lines: list[bytes]) -> tuple[Summary, list[Report]]:
    """Verify with and without the fast path; both must give the same reports."""
    s, reps = verify_lines(lines)
    s_slow, reps_slow = verify_lines(lines, fast=False)
    assert reps == reps_slow and s.to_json() == s_slow.to_json()
    return s, reps


def no_divergence(reps: list[Report]) -> list[RecordProblem]:
    """The reports, all of them located errors and warnings (no divergence)."""
    errs = [r for r in reps if isinstance(r, RecordProblem)]
    assert len(errs) == len(reps), [r.text() for r in reps]
    return errs


def _set(key: str, value: Any) -> Callable[[bytes], bytes]:
    def f(line: bytes) -> bytes:
        d = orjson.loads(line)
        d[key] = value
        return orjson.dumps(d) + b"\n"
    return f


# each: (name, corruption, whether the line's deal number can still be read)
CORRUPTIONS: list[tuple[str, Callable[[bytes], bytes], bool]] = [
    ("truncated", lambda ln: ln[: len(ln) // 2] + b"\n", False),
    ("malformed-json", lambda ln: ln.replace(b'"deck":', b'"deck"', 1), False),
    ("not-utf8", lambda ln: ln.replace(b'"match":"', b'"match":"\xff\xfe', 1), False),
    ("not-an-object", lambda ln: b'["hand", 3]\n', False),
    ("too-long", lambda ln: ln[:-2] + b',"x-pad":"' + b"a" * MAX_LINE + b'"}\n', False),
    ("wrong-type-dealer", _set("dealer", "north"), True),
    ("wrong-type-deck", _set("deck", 52), True),
    ("wrong-type-scores", _set("scores", "ten"), True),
    ("wrong-type-hand", _set("hand", "two"), False),
]
CIDS = [c[0] for c in CORRUPTIONS]


def _played(ds: list[dict[str, Any]], i: int) -> bool:
    return ds[i].get("redeal") is None


def _positions(ds: list[dict[str, Any]]) -> list[int]:
    """Line indexes to corrupt: the first hand, one in the middle, the last but one (each followed by a hand)."""
    n = len(ds)
    return sorted({1, n // 2, n - 2})


@pytest.mark.parametrize(("name", "corrupt", "numbered"), CORRUPTIONS, ids=CIDS)
@pytest.mark.parametrize(("rid", "opts"), SETS, ids=IDS)
def test_one_unreadable_line_is_one_error(rid: str, opts: dict[str, Any], name: str,
                                          corrupt: Callable[[bytes], bytes], numbered: bool) -> None:
    ds = dicts(rid, opts)
    assert check(lines_of(ds))[0].exit_code() == 0  # the record is clean to begin with
    for i in _positions(ds):
        lines = lines_of(ds)
        lines[i] = corrupt(lines[i])
        s, reps = check(lines)
        where = f"{name} at line {i + 1}"
        assert not [r for r in reps if isinstance(r, Divergence)], (where, [r.text() for r in reps])
        errors = [r for r in reps if isinstance(r, RecordProblem) and r.severity == "error"]
        assert len(errors) == 1 and errors[0].line == i + 1, (where, [r.text() for r in reps])
        warnings = [r for r in reps if isinstance(r, RecordProblem) and r.severity == "warning"]
        if numbered:  # the error names the deal; the numbering shows no gap
            assert errors[0].hand == ds[i]["hand"] and not warnings, (where, [r.text() for r in warnings])
        else:  # the gap in the deal numbers: one warning, at the missing line, naming the missing deal
            assert len(warnings) == 1, (where, [r.text() for r in warnings])
            w = warnings[0]
            assert (w.line, w.hand, w.field) == (i + 1, ds[i]["hand"], "hand"), w.text()
            assert "could not be read" in w.message and f"deal {ds[i + 1]['hand']}" in w.message
        assert s.exit_code() == 2 and s.errors == 1 and s.divergences == 0
        assert s.hands == len(ds) - 2 and s.clean_hands == s.hands  # every other hand checked, and clean


def _revoke(d: dict[str, Any], step: int) -> tuple[int, int] | None:
    """Swap two cards of one player so that an earlier trick fails to follow suit: (trick, position)."""
    tricks = d["tricks"]
    seats = [(k, j, (t["leader"] + step * j) % 4, c) for k, t in enumerate(tricks) for j, c in enumerate(t["cards"])]
    for k, j, seat, c in seats:
        led = tricks[k]["cards"][0][-1]
        if j == 0 or c[-1] != led:
            continue
        for k2, j2, seat2, c2 in seats:
            if k2 > k and seat2 == seat and c2[-1] != led:
                tricks[k]["cards"][j], tricks[k2]["cards"][j2] = c2, c
                return k, j
    return None


def _pair(ds: list[dict[str, Any]]) -> int:
    """A hand line (not the last) followed by a played deal."""
    return next(i for i in range(len(ds) // 2, len(ds) - 1) if _played(ds, i + 1))


@pytest.mark.parametrize(("name", "corrupt", "numbered"), CORRUPTIONS[:2] + CORRUPTIONS[5:6], ids=CIDS[:2] + CIDS[5:6])
@pytest.mark.parametrize(("rid", "opts"), SETS, ids=IDS)
def test_fault_in_the_next_hand_is_still_reported(rid: str, opts: dict[str, Any], name: str,
                                                  corrupt: Callable[[bytes], bytes], numbered: bool) -> None:
    ds = dicts(rid, opts)
    i = _pair(ds)
    step = 3 if load_rules(rid, opts).step == 3 else 1

    def run(ds2: list[dict[str, Any]]) -> tuple[list[Divergence], list[RecordProblem]]:
        lines = lines_of(ds2)
        lines[i] = corrupt(lines[i])
        _, reps = check(lines)
        errors = [r for r in reps if isinstance(r, RecordProblem) and r.severity == "error"]
        assert len(errors) == 1 and errors[0].line == i + 1, [r.text() for r in reps]
        return [r for r in reps if isinstance(r, Divergence)], errors

    # a wrong trick winner in the next hand
    bad = [dict(d) for d in ds]
    bad[i + 1] = orjson.loads(orjson.dumps(ds[i + 1]))
    t = bad[i + 1]["tricks"][5]
    t["winner"] = (t["winner"] + 1) % 4
    divs, _ = run(bad)
    assert [(d.line, d.clause, d.field, d.trick) for d in divs] == [(i + 2, "play.winner", "tricks[5].winner", 5)]
    assert divs[0].source.startswith("play.winner (")

    # a card that does not follow suit in the next hand
    bad = [orjson.loads(orjson.dumps(d)) for d in ds]
    where = _revoke(bad[i + 1], step)
    assert where is not None
    divs, _ = run(bad)
    k, j = where
    assert [(d.line, d.field, d.trick) for d in divs if d.independent] == [(i + 2, f"tricks[{k}].cards[{j}]", k)]
    # the swapped card, played later, may be wrong too: that report names the first as its cause
    assert all((d.follows_line, d.follows_field) == (i + 2, f"tricks[{k}].cards[{j}]") for d in divs[1:])
    assert divs[0].clause in ("play.follow", "play.must-trump")  # the engine's clause for the refusal

    # a slip in the score change of the next hand, carried on by the implementation into its running scores
    bad = [orjson.loads(orjson.dumps(d)) for d in ds]
    bad[i + 1]["deltas"][1] += 1
    for later in bad[i + 1:]:
        later["scores"][1] += 1
        if not load_rules(rid, opts).individual:
            later["scores"][3] += 1
    if not load_rules(rid, opts).individual:
        bad[i + 1]["deltas"][3] += 1
    divs, _ = run(bad)
    # one cause, one report: the running scores agree with the record's own (wrong) deltas
    assert [d.field for d in divs if d.field in ("deltas", "scores")] == ["deltas"] and divs[0].line == i + 2
    assert divs[0].clause.startswith("score.") and divs[0].table is not None


def test_consecutive_unreadable_lines_and_a_wrong_jump() -> None:
    ds = dicts("classic", {})
    i = 2
    lines = lines_of(ds)
    lines[i] = b"{broken\n"
    lines[i + 1] = lines[i + 1][:30] + b"\n"
    lines.insert(i + 1, b"\n")  # a blank line between them is skipped, not an unreadable one
    lines[i + 3] = lines[i + 3][:-2] + b',"note":1}\n'  # the next readable line has a field of its own to warn of
    reps = no_divergence(check(lines)[1])
    assert [(r.line, r.severity, r.field) for r in reps] == [
        (i + 1, "error", "(json)"), (i + 3, "error", "(json)"), (i + 1, "warning", "hand"), (i + 4, "warning", "note")]
    assert reps[2].hand == ds[i]["hand"] and "and 1 more after it" in reps[2].message
    # a deal number further on than the lost lines explain: out of sequence, said once
    ds2 = [orjson.loads(orjson.dumps(d)) for d in ds]
    for later in ds2[i + 1:]:
        later["hand"] += 5
    lines = lines_of(ds2)
    lines[i] = b"{broken\n"
    reps = no_divergence(check(lines)[1])
    warn = [r for r in reps if r.severity == "warning"]
    assert len(warn) == 1 and warn[0].line == i + 2 and "out of sequence" in warn[0].message


def test_files_and_jobs(tmp_path: Path) -> None:
    """Through verify_paths: the same reports with one process and several; the missing line named in place."""
    ds = dicts("card-kings-41", {})
    n = len(ds)
    lines = lines_of(ds) * 8
    lost = [m * n + 2 + m % (n - 3) for m in range(8)]
    for k in lost:
        lines[k] = lines[k][:50] + b"\n"
    p = tmp_path / "r.jsonl"
    p.write_bytes(b"".join(lines))
    assert p.stat().st_size > 2 * (1 << 16)  # at least three chunks of 64 KiB
    one: list[Report] = []
    s1 = verify_paths([str(p)], jobs=1, on_report=one.append)
    two: list[Report] = []
    verify_paths([str(p)], jobs=2, on_report=two.append, chunk_bytes=3000)
    assert [r.text() for r in one] == [r.text() for r in two]
    assert s1.divergences == 0 and s1.errors == len(lost)
    assert [(r.line, r.severity) for r in no_divergence(one)] == [(k + 1, s) for k in lost
                                                                  for s in ("error", "warning")]


@pytest.mark.parametrize("rid", ["card-kings-41", "tarneeb-400", "eram-41", "classic"])
def test_one_tampered_scores_line_is_one_independent_divergence(rid: str, tmp_path: Path) -> None:
    # a scores line pushed over the target gave a second independent divergence: the outcome judged on the wrong
    # scores (win.qualify), or the next line's bid judged on them (bid.rising-min) though right on the rules' own
    import json

    from tarneeb.cli import main

    base = tmp_path / "base.jsonl"
    assert main(["record", "--ruleset", rid, "--matches", "2", "--seed", "3", "--out", str(base)]) == 0
    lines = base.read_text(encoding="utf-8").splitlines()
    cases = 0
    for i, ln in enumerate(lines):
        d = json.loads(ln)
        if d.get("type") != "hand" or d.get("redeal") or i % 3:
            continue
        for delta in (7, 40):
            t = json.loads(ln)
            t["scores"][1] += delta
            if rid == "classic":
                t["scores"][3] += delta  # partners share a team score
            out = tmp_path / "t.jsonl"
            out.write_text("\n".join([*lines[:i], json.dumps(t), *lines[i + 1:]]) + "\n", encoding="utf-8")
            reps: list[Any] = []
            verify_paths([str(out)], jobs=1, on_report=reps.append)
            independent = [r for r in reps if isinstance(r, Divergence) and r.follows_line is None]
            assert len(independent) == 1 and independent[0].line == i + 1, (i + 1, delta, [r.text() for r in reps])
            cases += 1
    assert cases >= 10
