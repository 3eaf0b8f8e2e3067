"""The referee (:func:`tarneeb.ruling.decision.decide`) rules as the engine played the recorded matches
(:mod:`tests.toolcheck.referee`; bounded: a test, not a proof): whether a deal is played and who deals next, the
next dealer, the score, who wins, who leads the first and later tricks, three tricks' winners (first games only)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.toolcheck.records import configurations
from tests.toolcheck.stages import tools_failure

CONFIGS = tuple(configurations())


@pytest.mark.parametrize(("rid", "opts"), CONFIGS, ids=[f"{r}-{i}" for i, (r, _) in enumerate(CONFIGS)])
def test_the_referee_rules_as_the_engine_played(rid: str, opts: dict[str, Any], tool_records: Any) -> None:
    w = tools_failure(rid, opts, ("referee",), tool_records)
    assert w is None, w.text()
