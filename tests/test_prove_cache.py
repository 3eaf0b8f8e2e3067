"""The proofs' cache (``tarneeb_proofs.cache``) takes a proof only for the code and formula it proved.

An engine builder's proof is reused exactly when every engine code object it ran is unchanged and the rule values
it read are the same; an edit of one engine function (a mutant of the catalogue, applied in this process) makes
the builders that ran it prove again, and only those. An obligation of the encodings' families is reused by its
exact formula. Each test has its own empty cache folder, and each run its own session (nothing kept in memory).
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("z3")

from tarneeb_proofs import obligations  # noqa: E402
from tarneeb_proofs.mutants import applied  # noqa: E402
from tarneeb_proofs.obligations import Check, Result, run_check  # noqa: E402
from tarneeb_proofs.registry import all_checks  # noqa: E402
from tarneeb_proofs.session import Session  # noqa: E402


@functools.cache
def _checks() -> dict[str, Check]:
    """prove's checks by id, built once for the module (a second of CPU a time; a Check is a frozen description,
    its rules loaded when it runs)."""
    return {c.id: c for c in all_checks()}


def _check(cid: str) -> Check:
    return _checks()[cid]


def _fresh(monkeypatch: pytest.MonkeyPatch, folder: Path) -> Session:
    """A new run: the cache in ``folder``, a new session (its memo empty)."""
    monkeypatch.setenv("TARNEEB_PROVE_CACHE", str(folder))
    return Session()


def _reused(res: Result) -> dict[str, bool]:
    return {f["function"]: bool(f["reused"]) for f in res.data.get("engine-functions", [])}


def test_an_engine_proof_is_reused_until_the_code_it_ran_changes(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    outcome, play = _check("engine.outcome:card-kings-41:default"), _check("engine.play:card-kings-41:default")
    session = _fresh(monkeypatch, tmp_path)
    first = run_check(outcome, session)
    assert first.status == "proved" and first.data["engine-functions"]
    assert not any(_reused(first).values())  # an empty cache: every builder proved
    assert run_check(play, session).status == "proved"
    session = _fresh(monkeypatch, tmp_path)  # a new run: the memo empty, the folder kept
    again = run_check(outcome, session)
    assert again.status == "proved" and all(_reused(again).values()) and _reused(again) == {
        k: True for k in _reused(first)}
    # an edit of team_qualifies: the builders that ran it prove again (and find the bug); the play stage is reused
    session = _fresh(monkeypatch, tmp_path)
    with applied("special-qualify-refuses-57"):
        bad = run_check(outcome, session)
        same = run_check(play, session)
    assert bad.status == "counterexample"
    assert bad.witness is not None
    facts = dict(bad.witness.rows)
    assert "tarneeb.core.rules.team_qualifies" in (facts["engine function"], *facts.get("engine code run", "").split(", "))
    assert same.status == "proved" and _reused(same) and all(_reused(same).values())


def test_an_encoding_obligation_is_reused_by_its_formula(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    check = _check("follow:card-kings-41:default")
    calls: list[Any] = []
    real = obligations.solve

    def counting(s: Any) -> Any:
        calls.append(s)
        return real(s)

    monkeypatch.setattr(obligations, "solve", counting)
    assert run_check(check, _fresh(monkeypatch, tmp_path)).status == "proved"
    cold = len(calls)
    assert cold > 0
    calls.clear()
    assert run_check(check, _fresh(monkeypatch, tmp_path)).status == "proved"
    assert not calls  # every obligation taken from the cache by its formula
    monkeypatch.setenv("TARNEEB_PROVE_CACHE", "off")  # --no-cache: all proved again
    assert run_check(check, Session()).status == "proved"
    assert len(calls) == cold


def test_a_ruleset_is_keyed_by_its_content_not_by_where_its_file_was_read() -> None:
    """A proof made in one clone is found in another: the key of a function that reads the whole ruleset holds its
    rules and words, not the path of its file nor the name it was loaded by; any other change is a new key."""
    import dataclasses

    from tarneeb.core.spec import get_ruleset
    from tarneeb_proofs.cache import value_text

    rs = get_ruleset("classic")
    elsewhere = dataclasses.replace(rs, path="/elsewhere/spec/rulesets/classic.toml", ref="./classic.toml")
    assert value_text(elsewhere) == value_text(rs)
    assert value_text(dataclasses.replace(rs, params={**rs.params, "target": 31})) != value_text(rs)
    assert value_text(dataclasses.replace(rs, summary=rs.summary + ".")) != value_text(rs)
