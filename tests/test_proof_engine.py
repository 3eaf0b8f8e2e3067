"""Family ``engine``: a bug put into any rule function of the running engine makes the proofs fail.

Each ``engine.*`` entry of the mutant catalogue (:data:`tarneeb_proofs.mutants.MUTANTS`: a source edit of
``tarneeb.core.rules``) is applied in this process (``mutants.applied``, no file edited); the engine family must
then end in a counterexample naming the function, an input and the clause, and ``tarneeb prove`` (run
in-process) must exit non-zero saying the same. ``tools/prove_mutants.py`` runs the real ``tarneeb prove`` on a
patched copy of the tree for each of them (proofs/MUTANTS.md).
"""

from __future__ import annotations

import collections
import functools
import inspect
import itertools
from typing import Any

import pytest
import z3

from tarneeb.core import hand as H  # noqa: E402
from tarneeb.core import rules as R  # noqa: E402
from tarneeb.core.spec import get_ruleset  # noqa: E402
from tarneeb_proofs.engine_family import BUILDERS  # noqa: E402
from tarneeb_proofs.mutants import MUTANTS, Mutant, applied  # noqa: E402
from tarneeb_proofs.obligations import Check, Result, run_check  # noqa: E402
from tarneeb_proofs.registry import all_checks  # noqa: E402


def _engine_functions(module: Any) -> set[str]:
    """Every function the module defines (public or private helper called by one), by introspection: a function
    added to core without a target in the engine family fails the test below."""
    return {n for n, v in vars(module).items() if inspect.isfunction(v) and v.__module__ == module.__name__}


# private helpers proved through the one public function that calls them (their own domain is that call's)
THROUGH_CALLER = {"_kaboot": "team_deltas"}


ENGINE_MUTANTS: dict[str, Mutant] = {k: m for k, m in MUTANTS.items() if m.stage.startswith("engine.")}


@functools.cache
def _all_checks() -> tuple[Check, ...]:
    """prove's checks, built once for the module's 125 mutants (0.7 s a time; a Check is a frozen description, its
    rules loaded when it runs)."""
    return tuple(all_checks())


def _engine_checks(m: Mutant) -> list[Check]:
    """The unmutated engine checks of the mutant's stage and ruleset, in the variants carrying its options."""
    out = []
    for c in _all_checks():
        if c.invariant != "engine" or c.mutant or f"engine.{c.stage}" != m.stage or c.ruleset != m.ruleset:
            continue
        opts = dict(c.options)
        if all(opts.get(k, v) == v for k, v in m.options.items()) and dict(c.readings) == m.readings:
            out.append(c)
    assert out, f"no engine check for {m.ruleset} / {m.stage} / {m.options} / {m.readings}"
    out.sort(key=lambda c: -sum(k in dict(c.options) for k in m.options))  # those that set its options first
    return out[:2]


def _facts(r: Result) -> dict[str, str]:
    assert r.witness is not None
    return dict(r.witness.rows)


def test_the_family_reaches_every_engine_rule_function() -> None:
    proved = {fn for b in BUILDERS for fn in b.fns}
    for module in (R, H):
        missing = _engine_functions(module) - proved - set(THROUGH_CALLER)
        assert not missing, f"functions of {module.__name__} no builder of the engine family proves: {sorted(missing)}"
    assert set(THROUGH_CALLER.values()) <= proved


# entries the engine family does not catch yet (strict: the test fails as soon as one is caught, to drop it here)
NOT_CAUGHT_YET: dict[str, str] = {}


@pytest.mark.parametrize("name", [pytest.param(k, marks=pytest.mark.xfail(strict=True, reason=NOT_CAUGHT_YET[k]))
                                  if k in NOT_CAUGHT_YET else k for k in sorted(ENGINE_MUTANTS)])
def test_engine_mutant_is_caught(name: str) -> None:
    m = ENGINE_MUTANTS[name]
    checks = _engine_checks(m)
    r: Result | None = None
    for c in checks:  # in order, up to the first that catches it (the assertions below are on that one)
        with applied(name):
            got = run_check(c)
        if got.status == "counterexample":
            r = got
            # the true engine passes the same check (so the failure is the mutant's)
            assert run_check(c).status == "proved", c.id
            break
    assert r is not None, f"{name} ({m.text}) not caught in {[c.id for c in checks]}"
    facts = _facts(r)
    fn, module = m.fn, m.module
    # the function whose proof failed is the edited one, or one that called it on the counterexample's input
    ran = facts.get("engine code run", "").split(", ")
    assert facts["engine function"] == f"{module}.{fn}" or f"{module}.{fn}" in ran, facts
    assert facts["input"] and facts["engine returns"] != facts["encoding gives"]
    assert r.witness is not None and len(r.witness.clauses) == 1
    clause = r.witness.clauses[0]
    assert facts["clause"] == get_ruleset(m.ruleset).cite(clause)
    # the obligation names the functions one builder proves together ("engine f, g equal the encoding ...")
    named = r.obligation.removeprefix("engine ").split(" equal ")[0].split(", ")
    assert fn in named, r.obligation


def test_the_engine_runs_under_every_set_of_readings_that_each_change_a_variant() -> None:
    """Readings are proved together, not one at a time only: for every stage, ruleset and variant, every set of
    two or more readings (of different ambiguities) that each change it alone is an engine check of its own."""
    checks = [c for c in _all_checks() if c.invariant == "engine" and not c.mutant]
    have = {(c.stage, c.ruleset, c.options, c.readings) for c in checks}
    singles: dict[tuple[Any, ...], set[tuple[str, str]]] = collections.defaultdict(set)
    for c in checks:
        if len(c.readings) == 1:
            singles[(c.stage, c.ruleset, c.options)].add(c.readings[0])
    sizes: collections.Counter[int] = collections.Counter()
    for (stage, rid, opts), rds in singles.items():
        for k in range(2, len(rds) + 1):
            for combo in itertools.combinations(sorted(rds), k):
                if len({a for a, _ in combo}) == k:
                    assert (stage, rid, opts, combo) in have, (stage, rid, opts, combo)
                    sizes[k] += 1
    assert sizes[2] > 100 and sizes[3] > 0, sizes
    assert not any(len({a for a, _ in c.readings}) < len(c.readings) for c in checks)  # one reading per ambiguity


def test_every_stage_and_ruleset_has_an_engine_mutant_in_the_manifest() -> None:
    stages: dict[str, set[str]] = collections.defaultdict(set)
    mutated: dict[str, set[str]] = collections.defaultdict(set)
    for c in _all_checks():
        if c.invariant == "engine":
            (mutated if c.mutant else stages)[c.ruleset].add(c.stage)
    assert stages and all(mutated[rid] for rid in stages)


def test_an_engine_caught_in_a_loop_is_a_counterexample_not_a_hang(monkeypatch: pytest.MonkeyPatch) -> None:
    # the whole mutation run of match.py found `k += 0` in Match.at's search of the target in force: prove hung
    # on it; now an engine run past ENGINE_CPU_S of CPU ends the check as a counterexample naming the obligation
    import time

    from tarneeb_proofs import obligations as O

    def forever(session: object) -> None:
        end = time.perf_counter() + 30  # "forever" for the test; without the limit the check ends proved, failing it
        while time.perf_counter() < end:
            pass

    check = O.Check("engine", "classic", (), None, ("win.play-on",),
                    lambda enc: [O.Obligation("Match.at finds the target in force", [], z3.BoolVal(True),
                                              run=forever)], "match")
    monkeypatch.setattr(O, "ENGINE_CPU_S", 0.5)
    t0 = time.perf_counter()
    res = O._run_check(check)
    assert time.perf_counter() - t0 < 10
    assert res.status == "counterexample" and res.obligation == "Match.at finds the target in force"
    assert res.witness is not None and "did not finish within" in res.witness.text()
