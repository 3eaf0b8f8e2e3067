"""The verifier's two paths on the recorded matches (:mod:`tests.toolcheck`; bounded: a test, not a proof).

On clean records the fast path (``tarneeb.records.fastpath.fast_hand``) takes every line and ``verify`` reports
nothing, the replay (fast path off) reports nothing, also with each deal given as the four hands; every single-field
corruption of the table (:data:`tests.toolcheck.corruptions.CORRUPTIONS`) is reported on its line, at its field,
citing the table's clause, on both paths, and nothing on the correct line after it. A failure names the verifier's
function, the input (configuration, match, line, what was changed) and the clause with its source."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from tests.toolcheck.corruption_check import corruption
from tests.toolcheck.corruptions import CORRUPTIONS
from tests.toolcheck.records import configurations
from tests.toolcheck.stages import tools_failure

from tarneeb.core.spec import load_rules
from tarneeb_proofs.encode import Encoding

CONFIGS = tuple(configurations())
IDS = tuple(f"{r}-{i}" for i, (r, _) in enumerate(CONFIGS))


@pytest.mark.parametrize(("rid", "opts"), CONFIGS, ids=IDS)
def test_the_fast_path_takes_every_line_of_clean_records(rid: str, opts: dict[str, Any], tool_records: Any) -> None:
    w = tools_failure(rid, opts, ("verify-fast",), tool_records)
    assert w is None, w.text()


@pytest.mark.parametrize(("rid", "opts"), CONFIGS, ids=IDS)
def test_the_replay_reports_nothing_on_clean_records(rid: str, opts: dict[str, Any], tool_records: Any) -> None:
    w = tools_failure(rid, opts, ("verify-replay",), tool_records)
    assert w is None, w.text()


@pytest.mark.parametrize(("rid", "opts"), CONFIGS, ids=IDS)
def test_every_corruption_is_reported_as_the_table_says(rid: str, opts: dict[str, Any], tool_records: Any) -> None:
    w = tools_failure(rid, opts, ("corruption",), tool_records)
    assert w is None, w.text()


def test_the_table_decides_the_clause_not_the_verifier(tool_records: Any) -> None:
    """A corruption whose report the verifier cites under another clause than the table's is a counterexample (the
    trick leader's clause swapped in the table)."""
    rules = load_rules("eram-41")
    recs = tool_records.get(rules.id, rules.options)
    swapped = tuple(dataclasses.replace(c, clauses=lambda x: ("play.winner",)) if c.name == "trick leader" else c
                    for c in CORRUPTIONS)
    bad = corruption(rules, Encoding(rules), recs, swapped)
    assert bad is not None
    w = bad.witness(rules)
    assert "leader" in dict(w.rows)["input"] and w.clauses == ["play.winner"]
    assert corruption(rules, Encoding(rules), recs) is None
