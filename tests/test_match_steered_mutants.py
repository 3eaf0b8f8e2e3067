"""Every mutant of stage ``test.match`` (the match machine in core/match.py, the hand steps in core/hand.py, the
clauses core/rules.py cites) is caught by the steered matches (**slow**).

Each is patched into the running engine (:func:`tarneeb_proofs.mutants.applied`) under the configuration where it
shows; every variant of its ruleset is then steered, and the first disagreement must be a counterexample naming the
match machine, the transition, the input (ruleset and variant, scenario, deal) and one clause of the ruleset.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.steered.runs import run_rules
from tests.steered.variants import configured_rules

from tarneeb_proofs.mutants import MUTANTS, applied

pytestmark = pytest.mark.slow

MATCH_MUTANTS = tuple(sorted(k for k, m in MUTANTS.items() if m.stage == "test.match"))


def test_the_catalogue_has_the_match_machine_bugs() -> None:
    assert len(MATCH_MUTANTS) >= 42
    modules = {MUTANTS[k].module for k in MATCH_MUTANTS}
    assert modules >= {"tarneeb.core.match", "tarneeb.core.hand", "tarneeb.core.transition", "tarneeb.core.rules"}
    assert {MUTANTS[k].kind for k in MATCH_MUTANTS} <= {"transition", "special-case", "boundary"}


@pytest.mark.parametrize("mid", MATCH_MUTANTS)
def test_match_mutant_is_caught(mid: str, steer_terms: Any) -> None:
    m = MUTANTS[mid]
    rules = configured_rules(m.ruleset, m.options, m.readings)  # under the readings it shows in
    with applied(mid):
        bad, _ = run_rules(rules, cache=steer_terms)
    assert bad is not None, f"{mid} ({m.text}) not caught under {m.ruleset} {m.options} {m.readings}"
    w = bad.witness(rules)
    facts = dict(w.rows)
    assert facts["engine function"] == "tarneeb.core.match.Match"
    assert facts["transition"].startswith("Match"), facts  # a transition of the machine, not a coverage gap
    assert facts["input"].startswith(f"{m.ruleset} [") and "scenario" in facts["input"] and "deal" in facts["input"]
    assert facts["engine returns"] != facts["encoding gives"]
    assert len(w.clauses) == 1 and w.clauses[0] in rules.ruleset.clauses
    assert facts["clause"] == rules.ruleset.cite(w.clauses[0])
    assert "bounded" in w.title
