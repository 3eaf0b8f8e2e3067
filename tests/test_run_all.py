"""How ``tarneeb prove --jobs N`` splits its checks between worker processes
(:func:`tarneeb_proofs.obligations.worker_plan`)."""

from __future__ import annotations

import pytest

pytest.importorskip("z3")

from tarneeb_proofs import manifest  # noqa: E402
from tarneeb_proofs.obligations import worker_plan  # noqa: E402
from tarneeb_proofs.registry import all_checks  # noqa: E402


def _stage(c: object) -> str:
    return f"{c.invariant}.{c.stage}"  # type: ignore[attr-defined]


def test_a_family_stage_runs_in_one_worker_in_order_and_the_workers_are_balanced() -> None:
    checks = all_checks()
    cost = manifest.expected_seconds()
    plan = worker_plan(checks, 2, cost)
    assert len(plan) == 2
    assert sorted(c.id for part in plan for c in part) == sorted(c.id for c in checks)  # each check once
    where = {_stage(c): i for i, part in enumerate(plan) for c in part}
    for i, part in enumerate(plan):  # what a stage's checks share is proved once, in one worker's memo
        assert all(where[_stage(c)] == i for c in part)
        pos = {c.id: k for k, c in enumerate(checks)}
        assert [pos[c.id] for c in part] == sorted(pos[c.id] for c in part)  # in the run's order
    loads = [sum(cost(c) for c in part) for part in plan]
    biggest = max(sum(cost(c) for c in checks if _stage(c) == s) for s in where)
    assert abs(loads[0] - loads[1]) <= biggest  # dealt largest first to the least loaded


def test_fewer_groups_than_jobs_and_no_cost_given() -> None:
    checks = [c for c in all_checks() if c.invariant == "tricks"]
    plan = worker_plan(checks, 4)
    assert len(plan) == len({_stage(c) for c in checks}) == 1 and plan[0] == checks
