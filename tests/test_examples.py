"""Every worked example from the rule documents, checked against the engine."""

from __future__ import annotations

import pytest

from tarneeb.conformance.examples import check_example, load_examples
from tarneeb.core.spec import get_ruleset

EXAMPLES = load_examples()


@pytest.mark.parametrize("ex", EXAMPLES, ids=[e.id for e in EXAMPLES])
def test_example(ex) -> None:  # type: ignore[no-untyped-def]
    checked = check_example(ex)
    assert checked.ok, f"{ex.id} ({ex.doc}: {ex.heading}): " + "; ".join(checked.mismatches())


def test_examples_cite_real_documents_and_rulesets() -> None:
    for ex in EXAMPLES:
        rs = get_ruleset(ex.ruleset)
        assert ex.doc[:3] in ("000", "001", "002", "003")
        assert rs.id == ex.ruleset


def test_required_examples_present() -> None:
    ids = {e.id for e in EXAMPLES}
    for required in ("001-example-hand", "001-fifty-partner-minus-four", "003-bid-5-take-7", "002-bid-8-take-10",
                     "002-bid-9-take-7", "002-dealer-matches-8", "002-play-on-41-to-82", "002-bid-13-wins",
                     "002-kaboot-16"):
        assert required in ids
    values = {e.input["bid"]: e.expect["value"] for e in EXAMPLES if e.kind == "value"}
    assert sorted(values) == list(range(2, 14)), "001's table: every bid 2..13 has an example"
    for rid in ("card-kings-41", "eram-41"):
        trumps = {e.input["revealed"][-1] for e in EXAMPLES if e.kind == "trump" and e.ruleset == rid}
        assert trumps == {"C", "D", "H", "S"}, f"{rid}: trump mapping for each suit"


def test_a_wrong_expectation_is_caught() -> None:
    """The checker has teeth: alter one expected value and it must fail."""
    from dataclasses import replace

    ex = next(e for e in EXAMPLES if e.id == "001-example-hand")
    wrong = replace(ex, expect={"played": True, "deltas": [3, 2, 5, -2]})  # partner's 5 at face value
    assert not check_example(wrong).ok
