"""Family ``references`` of ``tarneeb prove``: the documents' worked examples against the encoding and the engine.

The point of the family: a wrong number in a ruleset file flows into the engine and the encoding alike, so
the other families stay green; here it must fail, naming the example and the document. The tests below edit
one number in a copy of ``spec/`` (``TARNEEB_SPEC_DIR``) and run the family in-process.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("z3")

from tarneeb.conformance import examples as examples_mod  # noqa: E402
from tarneeb.conformance.examples import KINDS, load_examples  # noqa: E402
from tarneeb.core import ambiguity, schema  # noqa: E402
from tarneeb.core import rules as R  # noqa: E402
from tarneeb.core.sources import cite, source
from tarneeb.core.spec import load_rules, rulesets, spec_dir  # noqa: E402
from tarneeb.errors import TarneebError  # noqa: E402
from tarneeb_proofs.obligations import Result, run_check  # noqa: E402
from tarneeb_proofs.references import FAMILY, MUTANTS, reference_checks  # noqa: E402
from tarneeb_proofs.registry import INVARIANTS  # noqa: E402

DOCS = {"000": "000_2bd9936ea71faec4.txt", "001": "001_ca76ade5eedc2a7c.txt", "002": "002_c70a79d442a05d28.txt",
        "003": "003_d3b0f84db4710d16.txt"}


def _clear_caches() -> None:
    schema._all_rulesets.cache_clear()
    examples_mod._load.cache_clear()
    ambiguity._load.cache_clear()


Edit = Callable[[str, str, str], None]


@pytest.fixture
def edit_spec(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Edit]:
    """A copy of spec/ in force for the test; ``edit(file, old, new)`` replaces one exact text in a ruleset file."""
    copy = tmp_path / "spec"
    shutil.copytree(spec_dir(), copy)
    monkeypatch.setenv("TARNEEB_SPEC_DIR", str(copy))
    _clear_caches()

    def edit(ruleset: str, old: str, new: str) -> None:
        p = copy / "rulesets" / f"{ruleset}.toml"
        text = p.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} is not once in {p.name}"
        p.write_text(text.replace(old, new), encoding="utf-8")
        _clear_caches()

    yield edit
    monkeypatch.undo()
    _clear_caches()


def _run(ruleset: str | None = None, stop_at_first: bool = False, first_kinds: tuple[str, ...] = ()) -> list[Result]:
    """The family's checks (no mutants), those of ``first_kinds`` first."""
    kind = {e.id: e.kind for e in load_examples()}
    checks = [c for c in reference_checks() if c.mutant is None and (ruleset is None or c.ruleset == ruleset)]
    checks.sort(key=lambda c: kind[c.stage] not in first_kinds)
    out: list[Result] = []
    for c in checks:
        out.append(run_check(c))
        if stop_at_first and not out[-1].ok:
            break
    return out


def _failures(ruleset: str | None = None) -> dict[str, Result]:
    return {r.check.stage: r for r in _run(ruleset) if not r.ok}


# ------------------------------------------------------------------ the true spec
def test_every_example_is_a_check_and_holds() -> None:
    exs = load_examples()
    checks = [c for c in reference_checks() if c.mutant is None]
    assert [c.stage for c in checks] == [e.id for e in exs]
    assert all(c.invariant == FAMILY for c in checks) and FAMILY in INVARIANTS
    assert {e.kind for e in exs} == set(KINDS), "every kind of example is checked, redeal and auction included"
    results = [run_check(c) for c in checks]
    bad = [(r.check.id, r.status, r.witness.text() if r.witness else r.detail) for r in results if r.status != "proved"]
    assert bad == []


def test_the_mutants_are_caught_with_the_encoding_named() -> None:
    mutants = [c for c in reference_checks() if c.mutant is not None]
    assert len(mutants) == len(MUTANTS)
    assert {c.ruleset for c in mutants} == set(rulesets())
    for c in mutants:
        r = run_check(c)
        assert r.status == "counterexample", c.id
        assert r.witness is not None
        facts = dict(r.witness.rows)
        assert facts["example"] == c.stage and facts["encoding"].startswith("differs"), c.id
        assert facts["engine"] == "agrees", c.id  # only the encoding was broken


def test_every_value_table_entry_is_pinned() -> None:
    """Each legal bid of each individual ruleset has a value example (card-kings-41's 6 is not a legal bid)."""
    for rid in rulesets():
        rules = load_rules(rid)
        if not rules.individual:
            continue
        pinned = {e.input["bid"] for e in load_examples() if e.kind == "value" and e.ruleset == rid and not e.options}
        assert pinned == set(R.legal_bids(rules, 0)), rid


# ------------------------------------------------------------------ a wrong number in a ruleset file
# (ruleset file, exact old text, new text, examples that must fail, the document they cite)
WRONG_NUMBERS = [
    pytest.param("bsfyi-41", "score.values = [2, 3, 4, 10,", "score.values = [2, 3, 4, 11,",
                 {"001-value-5", "001-example-hand", "001-missed-5-costs-10"}, "001", id="value-table-entry"),
    pytest.param("tarneeb-400", "16, 27, 30", "16, 26, 30", {"002-400-value-9"}, "001", id="value-table-entry-400"),
    pytest.param("eram-41", "score.values = [2, 3, 4, 5,", "score.values = [2, 3, 4, 4,",
                 {"003-value-5", "003-bid-5-take-7"}, "003", id="value-table-entry-face"),
    pytest.param("card-kings-41", "bid.total_min = 11", "bid.total_min = 10", {"000-total-10-same-dealer"}, "000",
                 id="bid-total-lower"),
    pytest.param("card-kings-41", "bid.total_min = 11", "bid.total_min = 12", {"000-total-11-played"}, "000",
                 id="bid-total-higher"),
    pytest.param("eram-41", "win.target = 41", "win.target = 40", {"003-forty-not-yet"}, "003", id="target-lower"),
    pytest.param("eram-41", "win.target = 41", "win.target = 42", {"003-both-qualify-combined"}, "003",
                 id="target-higher"),
    pytest.param("classic", 'default = "16"', 'default = "26"', {"002-kaboot-16"}, "002", id="kaboot-value"),
    pytest.param("bsfyi-41", "[[30, 3], [40, 4]]", "[[30, 3], [40, 5]]", {"001-house-rising-min-40-four"}, "001",
                 id="rising-min-row"),
    pytest.param("tarneeb-400", "[[30, 3], [40, 4]]", "[[31, 3], [40, 4]]", {"002-400-rising-min-30-2"}, "001",
                 id="rising-min-threshold-400"),
    pytest.param("classic", 'default = "win"', 'default = "normal"', {"002-bid-13-wins"}, "002", id="bid-13-option"),
    pytest.param("card-kings-41", "bid.excluded = [6]", "bid.excluded = [7]", {"000-bid-6-illegal", "000-bid-7-legal"},
                 "000", id="excluded-bid"),
    pytest.param("bsfyi-41", "bid.max = 13", "bid.max = 12", {"001-bid-13-legal", "001-value-13"}, "001",
                 id="bid-max"),
    pytest.param("tarneeb-400", "default = 41\nallowed = [41, 61]", "default = 40\nallowed = [40, 61]",
                 {"002-400-forty-not-yet"}, "002", id="target-option-400"),
    pytest.param("classic", "default = 41\nallowed = [31, 41, 61]", "default = 42\nallowed = [31, 42, 61]",
                 {"002-target-41"}, "002", id="target-option-classic"),
    pytest.param("bsfyi-41", "default = 11\nallowed = [11, 12, 13]", "default = 12\nallowed = [12, 13]",
                 {"001-total-11-played"}, "001", id="bid-total-option"),
    pytest.param("classic", "default = 7\nallowed = [7, 8]", "default = 8\nallowed = [7, 8]",
                 {"002-opening-7", "002-dealer-matches-8"}, "002", id="min-bid-option"),
]


@pytest.mark.parametrize(("ruleset", "old", "new", "must_fail", "doc"), WRONG_NUMBERS)
def test_a_wrong_number_fails_naming_example_and_document(edit_spec: Edit, ruleset: str, old: str, new: str,
                                                          must_fail: set[str], doc: str) -> None:
    if "bid.max" in old:  # a shorter range needs one value fewer in the table, or the file is refused
        edit_spec(ruleset, "36, 39]", "36]")
    edit_spec(ruleset, old, new)
    failed = _failures(ruleset)
    assert must_fail <= set(failed), f"still proved: {sorted(must_fail - set(failed))}"
    for eid in must_fail:
        r = failed[eid]
        assert r.status == "counterexample"
        assert eid in r.obligation and source(DOCS[doc]).name in r.obligation  # names example and document (as cited)
        assert r.witness is not None
        facts = dict(r.witness.rows)
        text = r.witness.text()
        ex = next(e for e in load_examples() if e.id == eid)
        assert facts["document"] == cite(ex.doc, ex.heading) and ex.heading in text
        assert facts["document says"] and facts["encoding gives"] and facts["engine gives"]
        # the number flows into both: each side is reported as differing from the document
        assert facts["encoding"].startswith("differs"), text
        assert facts["engine"].startswith("differs"), text


def test_a_wrong_number_fails_tarneeb_prove(edit_spec: Edit, capsys: pytest.CaptureFixture[str]) -> None:
    """The command itself: exit 1, the example id and the document in the output (table and JSON)."""
    from tarneeb.cli import main

    edit_spec("card-kings-41", "bid.total_min = 11", "bid.total_min = 10")
    assert main(["prove", "--invariant", "references", "--ruleset", "card-kings-41"]) == 1
    out = capsys.readouterr().out
    assert "000-total-10-same-dealer" in out and source(DOCS["000"]).name in out and "document says" in out
    assert main(["prove", "--invariant", "references", "--ruleset", "card-kings-41", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    bad = [r for r in data["results"] if r["result"] != r["expected"] and not r["mutant"]]
    assert [r["id"] for r in bad] == ["references.000-total-10-same-dealer:card-kings-41:default"]
    facts = bad[0]["witness"]["facts"]
    assert facts["document says"] == "played = false, next_dealer = 1"
    assert facts["encoding gives"] == "played = true, next_dealer = 2"
    assert facts["engine gives"] == "played = true, next_dealer = 2"


def test_refused_example_options_are_reported_not_a_crash(edit_spec: Edit) -> None:
    edit_spec("bsfyi-41", "allowed = [11, 12, 13]", "allowed = [11, 13, 14]")
    failed = _failures("bsfyi-41")
    assert set(failed) == {"001-house-total-12", "001-house-total-12-reached"}
    facts = dict(failed["001-house-total-12"].witness.rows)  # type: ignore[union-attr]
    assert "refuses" in facts["problem"] and "001-house-total-12" in failed["001-house-total-12"].obligation


def test_an_engine_alone_wrong_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine side has teeth of its own: extra tricks counted by the engine only."""
    true_delta = R.individual_delta
    monkeypatch.setattr(R, "individual_delta", lambda r, b, t: true_delta(r, b, t) + (t - b if t > b else 0))
    failed = _failures("eram-41")
    assert "003-bid-5-take-7" in failed
    facts = dict(failed["003-bid-5-take-7"].witness.rows)  # type: ignore[union-attr]
    assert facts["encoding"] == "agrees" and facts["engine"].startswith("differs")
    assert "deltas: document says the list 5, -4, 2, -2, engine gives the list 7, -4, 2, -2" in facts["engine"]


# ------------------------------------------------------------------ every number of the ruleset files, both sides
Edits = list[tuple[str, str]]
VALUE, LEGAL, REDEAL, OUTCOME = ("value", "hand-score"), ("bid-legal",), ("redeal",), ("outcome",)


def _numbers(rid: str) -> list[tuple[Edits, str, tuple[str, ...]]]:
    """(edits of the ruleset file, label, the kinds of example that should notice): each number of its
    [params] one up and one down (a value-table entry one up), the value table as long as the bid range needs."""
    rules = load_rules(rid)
    out: list[tuple[Edits, str, tuple[str, ...]]] = []
    for key, val, kinds in (("win.target", rules.target, OUTCOME), ("timer.auto_bid", rules.auto_bid, ("timer",))):
        if val:
            out += [([(f"{key} = {val}", f"{key} = {val + d}")], f"{key} {val}->{val + d}", kinds) for d in (-1, 1)]
    if not rules.individual:
        return out
    t = rules.total_min
    out += [([(f"bid.total_min = {t}", f"bid.total_min = {t + d}")], f"bid.total_min {t}->{t + d}", REDEAL)
            for d in (-1, 1)]
    vals = list(rules.values[rules.bid_min:])
    table = f"score.values = {vals}"
    out.append(([(table, f"score.values = {vals[1:]}"), (f"bid.min = {rules.bid_min}", f"bid.min = {rules.bid_min + 1}")],
                "bid.min one up", LEGAL))
    out.append(([(table, f"score.values = {[rules.bid_min - 1] + vals}"),
                 (f"bid.min = {rules.bid_min}", f"bid.min = {rules.bid_min - 1}")], "bid.min one down", LEGAL))
    out.append(([(table, f"score.values = {vals[:-1]}"), (f"bid.max = {rules.bid_max}", f"bid.max = {rules.bid_max - 1}")],
                "bid.max one down", LEGAL))
    # bid.max one up (14) is refused by the loader itself (a bid is at most 13 tricks): not this family's catch
    for i, v in enumerate(vals):
        if rules.bid_min + i in rules.bid_excluded:
            continue  # not a legal bid: the document gives no value for it
        wrong = vals[:i] + [v + 1] + vals[i + 1:]
        out.append(([(table, f"score.values = {wrong}")], f"value of a bid of {rules.bid_min + i}: {v} -> {v + 1}", VALUE))
    rows = [list(x) for x in rules.rising_table]
    for i in range(len(rows)):
        for j in (0, 1):
            for d in (-1, 1):
                wrong_rows = [list(x) for x in rows]
                wrong_rows[i][j] += d
                out.append(([(f"bid.rising_table = {rows}", f"bid.rising_table = {wrong_rows}")],
                            f"rising-minimum row {rows[i]} -> {wrong_rows[i]}", LEGAL))
    return out


@pytest.mark.parametrize("rid", ["card-kings-41", "bsfyi-41", "eram-41", "tarneeb-400"])
def test_every_number_is_pinned_from_both_sides(edit_spec: Edit, rid: str) -> None:
    """The bid range, the bid total, the target, the timer's bid and the rising-minimum rows one up and one
    down, each legal bid's value one up: every such edit of the ruleset file fails the family (or is refused
    by the loader outright, so that it cannot reach the engine or the encoding)."""
    path = spec_dir() / "rulesets" / f"{rid}.toml"
    assert path.is_relative_to(os.environ["TARNEEB_SPEC_DIR"]), "edits go to the copy only"
    base = path.read_text(encoding="utf-8")
    unpinned, caught, refused = [], 0, 0
    for edits, label, kinds in _numbers(rid):
        if any(base.count(old) != 1 for old, _ in edits):
            continue  # an option's value in this ruleset, not a parameter line (see WRONG_NUMBERS)
        text = base
        for old, new in edits:
            text = text.replace(old, new)
        path.write_text(text, encoding="utf-8")
        _clear_caches()
        try:
            load_rules(rid)
        except TarneebError:
            refused += 1
            continue
        if all(r.ok for r in _run(rid, stop_at_first=True, first_kinds=kinds)):
            unpinned.append(label)
        else:
            caught += 1
    path.write_text(base, encoding="utf-8")
    _clear_caches()
    assert unpinned == []
    assert caught >= 10 and refused <= 2, (caught, refused)
