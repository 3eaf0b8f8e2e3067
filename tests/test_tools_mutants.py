"""Every mutant of stage ``test.tools`` (the verifier's fast path and replay, the vector reference, the referee) is
caught by the tools checks on the recorded matches (**slow**).

Each is patched into the running tools (:func:`tarneeb_proofs.mutants.applied`) under the configuration where it
shows; the checks must then end in a counterexample naming the tool's function (in the mutant's module), the input
(ruleset, match, line or deal) and the clause with its source; without it they pass.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.toolcheck.failure import clause_text
from tests.toolcheck.records import VARIANTS
from tests.toolcheck.stages import tools_failure

from tarneeb.conformance.protocol import PERFT_CLAUSE
from tarneeb.core.spec import get_ruleset, load_rules
from tarneeb_proofs.mutants import MUTANTS, applied

pytestmark = pytest.mark.slow

TOOL_MUTANTS = tuple(sorted(k for k, m in MUTANTS.items() if m.stage == "test.tools"))


def test_the_catalogue_has_the_tools_bugs() -> None:
    assert len(TOOL_MUTANTS) >= 25
    assert {MUTANTS[k].module for k in TOOL_MUTANTS} >= {
        "tarneeb.records.fastpath", "tarneeb.records.replay", "tarneeb.conformance.vector_ref"}
    assert {MUTANTS[k].ruleset for k in TOOL_MUTANTS} == set(VARIANTS)  # a mutant shown in every ruleset
    for k in TOOL_MUTANTS:  # each in a configuration the clean tests run
        m = MUTANTS[k]
        assert any(dict(v) == m.options for v in VARIANTS[m.ruleset]), k


@pytest.fixture(scope="module")
def clean() -> dict[tuple[str, str], Any]:
    """The tools checks' result on the true code, by configuration: run once for the mutants that share it."""
    return {}


@pytest.mark.parametrize("mid", TOOL_MUTANTS)
def test_every_tools_mutant_is_caught(mid: str, tool_records: Any, clean: dict[tuple[str, str], Any]) -> None:
    m = MUTANTS[mid]
    config = (m.ruleset, repr(sorted(m.options.items())))
    if config not in clean:  # without the mutant, the same checks pass
        clean[config] = tools_failure(m.ruleset, m.options, bank=tool_records)
    assert clean[config] is None
    with applied(mid):
        w = tools_failure(m.ruleset, m.options, bank=tool_records)
    assert w is not None, f"{mid} ({m.text}) is not caught"
    facts = dict(w.rows)
    assert m.module in facts["tool function"], (mid, facts["tool function"])
    assert m.ruleset in facts["input"] and ("line" in facts["input"] or "deal" in facts["input"])
    assert facts["tool says"] and facts["expected"]
    clauses = get_ruleset(m.ruleset).clauses
    assert len(w.clauses) == 1 and (w.clauses[0] in clauses or w.clauses[0] == PERFT_CLAUSE)
    assert facts["clause"] == clause_text(load_rules(m.ruleset, m.options), w.clauses[0])
    assert "not a clause" not in facts["clause"]
