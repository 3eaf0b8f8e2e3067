"""The conformance vectors' reference answers (:mod:`tarneeb.conformance.vector_ref`) equal the engine's on the
states of the recorded matches (:mod:`tests.toolcheck.vectors`; bounded: a test, not a proof): the deal, whole hands,
runs of three deals from part-way, the end of the bidding, bid legality after every prefix of the calls (with the
engine's refusal clause), scores, outcomes, trick winners, the legality of all 52 cards at every play of a deal, perft
counts (**slow**: about a second per configuration)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.toolcheck.records import configurations
from tests.toolcheck.stages import tools_failure

pytestmark = pytest.mark.slow

CONFIGS = tuple(configurations())


@pytest.mark.parametrize(("rid", "opts"), CONFIGS, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CONFIGS)])
def test_the_vector_reference_equals_the_engine(rid: str, opts: dict[str, Any], tool_records: Any) -> None:
    w = tools_failure(rid, opts, ("vectors",), tool_records)
    assert w is None, w.text()
