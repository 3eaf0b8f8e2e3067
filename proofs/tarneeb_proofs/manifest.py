"""``proofs/manifest.json``: the expected result and last runtime of every check.

A run matches the manifest when every check in code has an entry, every entry
is a check in code, and every result equals the entry's expected result.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .checks import Check, Result

MANIFEST = Path(__file__).resolve().parents[1] / "manifest.json"


def load(path: Path = MANIFEST) -> dict[str, dict[str, Any]]:
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    entries: dict[str, dict[str, Any]] = data["checks"]
    return entries


def save(results: Sequence[Result], path: Path = MANIFEST) -> None:
    entries = {r.check.id: {"invariant": r.check.invariant, "ruleset": r.check.ruleset, "variant": r.check.variant,
                            "mutant": r.check.mutant, "expected": r.check.expected,
                            "runtime_s": round(r.runtime, 3)} for r in results}
    body = {"schema": 1, "note": "written by `tarneeb prove --write-manifest`; expected results are fixed by the "
                                 "check kind (proof: proved, mutant: counterexample)",
            "checks": dict(sorted(entries.items()))}
    path.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")


def problems(checks: Sequence[Check], results: Sequence[Result], entries: dict[str, dict[str, Any]],
             complete: bool) -> list[str]:
    """Differences between a run and the manifest. ``complete``: the run covered every check in code."""
    out: list[str] = []
    ids = {c.id for c in checks}
    for c in checks:
        if c.id not in entries:
            out.append(f"{c.id}: checked in code but missing from the manifest")
    if complete:
        for k in entries:
            if k not in ids:
                out.append(f"{k}: in the manifest but no longer checked")
    for r in results:
        e = entries.get(r.check.id)
        if e is not None and e["expected"] != r.status:
            out.append(f"{r.check.id}: manifest expects {e['expected']}, got {r.status}")
        if r.status != r.check.expected:
            out.append(f"{r.check.id}: expected {r.check.expected}, got {r.status}")
    return out
