"""The one mutant catalogue (``tarneeb_proofs.mutants``: the data of ``mutants.toml`` and ``held_out.toml``) is
sound as a catalogue: each entry is an edit anchored to a function that exists, its ``old`` text occurring exactly
once in that function; the edit changes that function and nothing else of its module; ``applied`` patches that one
function in and puts the engine back exactly as it was; ``patched_tree`` changes one file; a stale entry (its
function gone, its text edited away or duplicated) is refused naming the mutant, the function and the count, and
reported stale (by ``tarneeb prove`` and by ``tools/prove_mutants.py``), never skipped nor counted as caught. Fast:
no proof is run but one engine check."""

from __future__ import annotations

import ast
import dataclasses
import filecmp
import importlib
import importlib.util
import json
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from tarneeb_proofs import mutants as M

ROOT = Path(__file__).resolve().parents[1]
ALL = list(M.MUTANTS.values())
OURS = [m for m in ALL if not m.held_out]  # the held-out set is an outside reviewer's: its edits are as written


def _file(m: M.Mutant) -> Path:
    return ROOT / Path("model", *m.module.split(".")).with_suffix(".py")


def _segments(text: str) -> dict[str, list[str]]:
    """The source of every function, method and module constant of a module's source, by name."""
    return {name: [text[a:b] for a, b in found] for name, found in M.spans(text).items()}


@pytest.mark.parametrize("mid", sorted(M.MUTANTS))
def test_the_function_exists_and_the_old_text_occurs_once_in_it(mid: str) -> None:
    m = M.MUTANTS[mid]
    text = _file(m).read_text(encoding="utf-8")
    assert M.source_of(m.module) == text  # the in-process source is the file itself
    try:
        edited = M.edit(m, text)  # its function defined once, its old text once in that function
    except M.MutantError as e:
        pytest.fail(str(e), pytrace=False)
    assert m.old != m.new
    compile(edited, str(_file(m)), "exec")  # the edit leaves valid Python


@pytest.mark.parametrize("mid", sorted(M.MUTANTS))
def test_the_edit_changes_that_function_and_nothing_else(mid: str) -> None:
    """Every other function, method and constant of the module byte-identical, and the text between them too."""
    m = M.MUTANTS[mid]
    text = M.source_of(m.module)
    edited = M.mutated_source(m)
    a, b = M.function_span(m, text)
    assert edited.startswith(text[:a]) and edited.endswith(text[b:])
    before, after = _segments(text), _segments(edited)
    assert before.keys() == after.keys()
    assert [k for k in before if before[k] != after[k]] == [m.function]
    assert M.function_source(m, edited) == edited[a:len(edited) - (len(text) - b)]


@pytest.mark.parametrize("mid", sorted(m.id for m in OURS))
def test_the_old_text_holds_no_line_more_than_its_anchor_needs(mid: str) -> None:
    """A catalogue entry names the lines it changes and only as many unchanged lines around them as make its
    ``old`` unique in the function: engine code is not copied into the catalogue."""
    m = M.MUTANTS[mid]
    body = M.function_source(m)
    old, new = m.old.splitlines(keepends=True), m.new.splitlines(keepends=True)
    if len(old) < 2 or not new:
        return
    trimmed = ["".join(old[1:])] if old[0] == new[0] else []
    trimmed += ["".join(old[:-1])] if old[-1] == new[-1] else []
    for rest in trimmed:
        assert len(M.occurrences(body, rest)) != 1, f"{mid}: an unchanged line at an end of old is not needed to " \
                                                    f"anchor it in {m.function}"


def test_ids_are_unique_and_fields_are_known() -> None:
    ours, held = M.load(M.CATALOGUE), M.load(M.HELD_OUT, held_out=True)
    assert [m.id for m in ours + held] == list(M.MUTANTS)
    assert not {m.id for m in ours} & {m.id for m in held}  # the catalogue and the held-out set are disjoint
    for m in ALL:
        assert m.kind in M.KINDS and m.in_manifest in M.IN_MANIFEST, m.id
        assert m.text and m.stage and m.ruleset and m.function, m.id


def _entry(mid: str, **fields: str) -> str:
    body = {"id": mid, "module": "tarneeb.core.rules", "function": "next_seat", "old": "x", "new": "y", "text": "t",
            "stage": "engine.turn", "kind": "boundary", "ruleset": "classic", **fields}
    return "[[mutant]]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in body.items() if v) + "\n"


def test_the_loader_refuses_a_shared_id_and_a_malformed_entry(tmp_path: Path) -> None:
    ours, held = tmp_path / "mutants.toml", tmp_path / "held_out.toml"
    ours.write_text(_entry("a") + _entry("b"), encoding="utf-8")
    held.write_text(_entry("c", stage=""), encoding="utf-8")
    assert list(M.catalogue(ours, held)) == ["a", "b", "c"]
    held.write_text(_entry("b", stage=""), encoding="utf-8")
    with pytest.raises(M.MutantError, match="mutant b: given twice"):
        M.catalogue(ours, held)
    ours.write_text(_entry("a", function=""), encoding="utf-8")
    with pytest.raises(M.MutantError, match=r"mutants.toml, entry 1 \(a\): fields missing \['function'\]"):
        M.load(ours)
    ours.write_text(_entry("a", kind="typo"), encoding="utf-8")
    with pytest.raises(M.MutantError, match="kind 'typo'"):
        M.load(ours)


def test_the_held_out_set_spans_every_part_prove_claims_to_see() -> None:
    """The held-out set (held_out.toml) holds bugs in every kind of code the docs say a bug in makes prove fail."""
    held = [m for m in ALL if m.held_out]
    assert len(held) >= 40
    assert {m.module for m in held} >= {"tarneeb.core.rules", "tarneeb.core.hand", "tarneeb.core.match",
                                        "tarneeb.records.fastpath", "tarneeb.records.replay",
                                        "tarneeb.conformance.vector_ref"}
    assert all(m.stage == "held-out" and not m.in_manifest for m in held)
    assert not any(m.held_out for m in ALL if m.stage != "held-out")


def _snapshot(modname: str) -> dict[tuple[str, ...], Any]:
    """Every binding of the module (its functions, its constants), every attribute of its classes, and every binding
    of one of its functions in another loaded ``tarneeb`` module."""
    live = importlib.import_module(modname)
    snap: dict[tuple[str, ...], Any] = {}
    for name, v in vars(live).items():
        snap[(modname, name)] = v
        if isinstance(v, type) and v.__module__ == modname:
            for attr, x in vars(v).items():
                snap[(modname, name, attr)] = x
    for mn, mod in list(sys.modules.items()):
        if mod is not None and mn.startswith("tarneeb") and mod is not live:
            for name, v in vars(mod).items():
                if isinstance(v, types.FunctionType) and v.__module__ == modname:
                    snap[(mn, name)] = v
    return snap


# the held-out set is run only on patched copies (tools/prove_mutants.py)
@pytest.mark.parametrize("mid", sorted(m.id for m in OURS))
def test_applied_patches_that_function_alone_and_restores_the_module_exactly(mid: str) -> None:
    m = M.MUTANTS[mid]
    import tarneeb.core.match  # noqa: F401 - loaded, so its own bindings of the rule functions are swapped too
    import tarneeb.records  # noqa: F401

    before = _snapshot(m.module)
    key = (m.module, *m.function.split("."))
    orig = before[key]
    with M.applied(mid):
        inside = _snapshot(m.module)
        assert inside.keys() == before.keys()
        changed = {k for k in before if inside[k] is not before[k]}
        new = inside[key]
        if isinstance(orig, types.FunctionType):
            assert new.__code__ is not orig.__code__ and new.__globals__ is orig.__globals__
            # the function and every other binding of it (another module's, a module's alias), nothing else
            assert changed == {k for k, v in before.items() if v is orig}, sorted(changed)
        else:  # a module constant: its edited value
            assert new != orig and changed == {key}
    after = _snapshot(m.module)
    assert after.keys() == before.keys()
    assert all(after[k] is before[k] for k in before), [k for k in before if after[k] is not before[k]]


def test_an_edit_of_a_module_constant_is_seen_by_the_function_that_reads_it() -> None:
    from tarneeb.core import rules

    ten_of_clubs = 1 << 8
    m = M.MUTANTS["engine-weak-counts-ten"]
    assert m.function == "_HIGH_CARDS" and m.fn == "is_weak_hand"
    assert rules.is_weak_hand(ten_of_clubs)
    with M.applied(m):
        assert not rules.is_weak_hand(ten_of_clubs)
    assert rules.is_weak_hand(ten_of_clubs)


def test_applied_restores_after_an_exception() -> None:
    m = next(iter(M.MUTANTS.values()))
    before = _snapshot(m.module)
    with pytest.raises(RuntimeError), M.applied(m.id):
        raise RuntimeError("inside the block")
    after = _snapshot(m.module)
    assert all(after[k] is before[k] for k in before)


@pytest.mark.parametrize("mid", sorted({m.module: m.id for m in reversed(ALL)}.values()))
def test_a_patched_tree_differs_from_the_source_in_that_one_file(mid: str, tmp_path: Path) -> None:
    m = M.MUTANTS[mid]
    dest = M.patched_tree(m, ROOT, tmp_path / "tree")
    changed = []
    for part in ("model", "proofs", "spec"):
        cmp = filecmp.dircmp(ROOT / part, dest / part, ignore=["__pycache__"])
        todo = [(cmp, Path(part))]
        while todo:
            c, rel = todo.pop()
            assert not c.left_only and not c.right_only, (rel, c.left_only, c.right_only)
            _, mismatch, errors = filecmp.cmpfiles(ROOT / rel, dest / rel, c.common_files, shallow=False)
            assert not errors
            changed += [rel / f for f in mismatch]
            todo += [(sub, rel / name) for name, sub in c.subdirs.items()]
    assert changed == [_file(m).relative_to(ROOT)]
    assert (dest / changed[0]).read_text(encoding="utf-8") == M.mutated_source(m)


# ------------------------------------------------------------------ a stale entry
def _stale(m: M.Mutant) -> M.Mutant:
    return dataclasses.replace(m, old=m.old + "# a line that is not in the source\n")


def _harness() -> types.ModuleType:
    spec = importlib.util.spec_from_file_location("prove_mutants", ROOT / "tools" / "prove_mutants.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_a_stale_entry_is_refused_everywhere(tmp_path: Path) -> None:
    m = _stale(M.MUTANTS["engine-round-of-five"])
    with pytest.raises(M.MutantError, match="occurs 0 times"):
        M.mutated_source(m)
    with pytest.raises(M.MutantError, match="occurs 0 times"), M.applied(m):
        pass
    with pytest.raises(M.MutantError, match="occurs 0 times"):
        M.patched_tree(m, ROOT, tmp_path / "tree")
    h = _harness()
    assert "occurs 0 times" in h.stale_reason(m)
    row = h.run_one(m, None)
    assert row["status"] == "stale" and "occurs 0 times" in row["error"]


def _planted(m: M.Mutant, how: str) -> str:
    """``m``'s module source with a stale anchor planted: its function renamed, its old text edited away, edited
    away from the function but left elsewhere in the module, or duplicated in the function."""
    text = M.source_of(m.module)
    k = text.index(m.old)
    if how == "renamed":
        return text.replace(f"def {m.function}(", f"def {m.function}_renamed(")
    if how == "gone":
        return text[:k] + m.new + text[k + len(m.old):]
    if how == "elsewhere":
        return text[:k] + m.new + text[k + len(m.old):] + "#" + m.old
    return text[:k] + "#" + m.old + text[k:]  # duplicated: once more in a comment inside the function


@pytest.mark.parametrize(("how", "message"), [
    ("renamed", "mutant engine-round-of-five: the function tarneeb.core.rules.auction_next is defined 0 times, not once"),
    ("gone", "mutant engine-round-of-five: the text to replace occurs 0 times in tarneeb.core.rules.auction_next, not once"),
    ("elsewhere", "occurs 0 times in tarneeb.core.rules.auction_next"),
    ("duplicated", "mutant engine-round-of-five: the text to replace occurs 2 times in tarneeb.core.rules.auction_next, "
                   "not once"),
])
def test_a_planted_stale_anchor_is_refused_naming_the_mutant_the_function_and_the_count(
        how: str, message: str, tmp_path: Path) -> None:
    m = M.MUTANTS["engine-round-of-five"]
    planted = _planted(m, how)
    assert M.source_of(m.module).count(m.old) == 1
    assert planted.count(m.old) == {"renamed": 1, "gone": 0, "elsewhere": 1, "duplicated": 2}[how]
    ast.parse(planted)  # still a module: only the anchor is stale
    with pytest.raises(M.MutantError) as e:
        M.edit(m, planted)
    assert message in str(e.value)
    path = tmp_path / _file(m).relative_to(ROOT)  # and the harness, on a tree holding the planted file
    path.parent.mkdir(parents=True)
    path.write_text(planted, encoding="utf-8")
    assert message in _harness().stale_reason(m, tmp_path)


def test_prove_reports_a_stale_manifest_mutant_as_a_failure_not_a_catch(monkeypatch: pytest.MonkeyPatch) -> None:
    from tarneeb_proofs.obligations import run_check
    from tarneeb_proofs.registry import all_checks

    mid = "engine-passed-may-reenter"  # a mutant check of the manifest (classic, stage turn)
    check = next(c for c in all_checks() if c.mutant == mid)
    monkeypatch.setitem(M.MUTANTS, mid, _stale(M.MUTANTS[mid]))
    r = run_check(check)
    assert r.status == "vacuous" and not r.ok
    assert "stale mutant" in r.obligation and "occurs 0 times" in r.obligation


def test_the_harness_judges_prove_output() -> None:
    h = _harness()
    m = M.MUTANTS["engine-round-of-five"]
    w = {"facts": {"engine function": "tarneeb.core.rules.auction_next", "input": "seat 1, 4 calls"},
         "clauses": ["auction.order"]}
    stale = "engine.turn:classic:default:mutant=engine-passed-may-reenter"
    res: list[dict[str, Any]] = [{"id": stale, "mutant": "engine-passed-may-reenter",
            "expected": "counterexample", "result": "vacuous", "obligation": "stale mutant, it no longer applies: x",
            "witness": None},
           {"id": "engine.turn:classic:default", "mutant": None, "expected": "proved", "result": "counterexample",
            "obligation": "engine auction_next equals ...", "witness": w}]
    out = json.dumps({"summary": {"cpu_s": 1.0}, "results": res})
    row = h.judge(m, 1, out, "")
    assert row["status"] == "caught" and row["first_failing_check"] == "engine.turn:classic:default"
    assert row["named"] == "tarneeb.core.rules.auction_next" and row["clause"] == "auction.order"
    assert row["in_stage"] and row["stale_manifest_mutants"] == [res[0]["id"]]
    # prove failing only on a stale manifest mutant is not a catch
    row = h.judge(m, 1, json.dumps({"summary": {"cpu_s": 1.0}, "results": res[:1]}), "")
    assert row["status"] == "not caught"
    assert h.judge(m, 0, json.dumps({"summary": {"cpu_s": 1.0}, "results": []}), "")["status"] == "not caught"
    row = h.judge(m, 1, "", "Traceback ...\nValueError: boom\n")
    assert row["status"] == "error" and row["error"] == "ValueError: boom"


def test_the_stages_are_prove_s_or_the_tests_and_the_harness_knows_which() -> None:
    """A mutant's stage is an engine or transition stage of prove, a stage the tests catch (test.match, test.tools: prove does
    not run them), ruling (tests/test_no_rule_outside_core.py) or held-out; the harness runs the test files of a
    test stage on the patched copy instead of prove, and both for a held-out mutant."""
    from tarneeb_proofs.engine_family import STAGES
    from tarneeb_proofs.transition_family import STAGES as TRANSITION_STAGES

    h = _harness()
    known = ({f"engine.{s}" for s in STAGES} | {f"transition.{s.name}" for s in TRANSITION_STAGES} | set(h.BY_TESTS)
             | set(h.NOT_BY_PROVE) | {"held-out"})
    assert {m.stage for m in ALL} <= known
    assert set(h.BY_TESTS) == {"test.match", "test.tools"}
    assert all((ROOT / f).is_file() for files in h.BY_TESTS.values() for f in files)
    match = M.MUTANTS["match-second-redeal-next-seat"]
    assert h.command(match) == [] and h.test_files(match) == ["tests/test_match_steered_engine.py"]
    assert "pytest" in h.base_row(match)["command"] and "prove" not in h.base_row(match)["command"]
    held = next(m for m in ALL if m.held_out)
    assert "prove" in h.command(held) and set(h.test_files(held)) == {f for fs in h.BY_TESTS.values() for f in fs}
    assert h.test_files(M.MUTANTS["engine-round-of-five"]) == []


def test_the_harness_judges_test_output(tmp_path: Path) -> None:
    """A failing test of the patched copy caught the mutant: the row names it and what its counterexample names."""
    h = _harness()
    m = M.MUTANTS["fast-running-scores-unchecked"]
    junit = tmp_path / "junit.xml"
    junit.write_text(
        '<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">'
        '<testcase classname="tests.test_verify_tools" name="test_the_fast_path_takes_every_line_of_clean_records[eram-41-6]">'
        '<failure message="AssertionError: a tool disagrees with the engine or the table of clauses&#10;'
        '  tool function: tarneeb.records.fastpath.fast_hand&#10;[+3 more lines; full report in element text]">'
        '    assert w is None, w.text()&#10;E   AssertionError: a tool disagrees with the engine or the table&#10;'
        'E     tool function: tarneeb.records.fastpath.fast_hand&#10;E     input: eram-41 (default), match 0, line 3&#10;'
        'E     clause: score.individual: ...&#10;E     clauses: score.individual&#10;E   assert None is None</failure>'
        '</testcase><testcase classname="tests.test_referee_engine" name="test_ok"/></testsuite></testsuites>',
        encoding="utf-8")
    row = h.judge_tests(m, 1, junit, "")
    assert row["test_status"] == "caught" and row["tests_run"] == 2
    assert row["caught_by_tests"] == ["tests/test_verify_tools.py::test_the_fast_path_takes_every_line_of_clean_records"
                                      "[eram-41-6]"]
    assert row["named"] == "tarneeb.records.fastpath.fast_hand" and row["clause"] == "score.individual"
    assert row["input"] == "eram-41 (default), match 0, line 3"  # from the report's lines: the message is cut
    merged = h.merge(m, None, row)
    assert merged["status"] == "caught" and merged["caught_by"] == ["tests"]
    assert merged["first_failing_check"] == row["caught_by_tests"][0]
    assert h.merge(m, None, h.judge_tests(m, 0, junit, ""))["status"] == "not caught"
    assert h.judge_tests(m, 2, tmp_path / "none.xml", "ImportError: boom\n")["test_status"] == "error"
    # a held-out mutant prove missed and a test caught: caught, by the tests
    proved = {"status": "not caught", "first_failing_check": ""}
    assert h.merge(m, proved, row)["status"] == "caught"
    assert h.merge(m, {"status": "caught", "first_failing_check": "engine.play:x"}, row)["caught_by"] == ["prove", "tests"]
