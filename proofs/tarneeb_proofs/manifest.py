"""``proofs/tarneeb_proofs/manifest.json``: the expected result and last runtime of every check.

A run matches the manifest when every check in code has an entry, every entry
is a check in code, and every result equals the entry's expected result.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from tarneeb.errors import SpecError

from .obligations import Check, Result

MANIFEST = Path(__file__).resolve().parent / "manifest.json"  # package data: shipped in the wheel


def load(path: Path = MANIFEST, missing_ok: bool = False) -> dict[str, dict[str, Any]]:
    """The manifest's entries; a missing or unreadable manifest is a :class:`SpecError` saying so."""
    if not path.exists():
        if missing_ok:
            return {}
        raise SpecError(str(path), "(file)", "the proofs manifest is missing (it ships inside tarneeb_proofs; "
                        "reinstall the package, or run `tarneeb prove --write-manifest` to create one)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SpecError(str(path), "(file)", f"cannot read the proofs manifest: {exc}") from None
    entries: dict[str, dict[str, Any]] = data["checks"]
    return entries


def expected_seconds(path: Path = MANIFEST) -> Callable[[Check], float]:
    """A check's runtime as the manifest last recorded it (0.1 s for one it does not list): what
    :func:`tarneeb_proofs.obligations.run_all` deals work to its workers by."""
    runtimes = {cid: e["runtime_s"] for cid, e in load(path, missing_ok=True).items()}
    return lambda c: float(runtimes.get(c.id, 0.1))


def save(results: Sequence[Result], path: Path = MANIFEST, accept: bool = False) -> list[str]:
    """Write the manifest from a whole run; returns the refused changes (nothing is written then).

    Runtimes are refreshed freely. An expected result that would change (a
    result that differs from the manifest, or a check the manifest does not
    know whose result is not the kind's default) is refused unless ``accept``:
    flipping an expectation must be a deliberate edit.
    """
    old = load(path, missing_ok=True)
    refused = []
    for r in results:
        e = old.get(r.check.id)
        want = e["expected"] if e is not None else r.check.expected
        if r.status != want and not accept:
            refused.append(f"{r.check.id}: expected {want}, got {r.status} (use --accept to record it)")
        if r.status not in ("proved", "counterexample"):
            refused.append(f"{r.check.id}: {r.status} is never an expected result")
    if refused:
        return refused
    entries = {r.check.id: {"invariant": r.check.invariant, "ruleset": r.check.ruleset, "variant": r.check.variant,
                            "mutant": r.check.mutant, "expected": r.status,
                            "runtime_s": round(r.runtime, 3)} for r in results}
    body = {"schema": 1, "note": "written by `tarneeb prove --write-manifest`; runtimes are refreshed on every write, "
                                 "an expected result changes only with --accept",
            "checks": dict(sorted(entries.items()))}
    path.write_text(json.dumps(body, indent=1) + "\n", encoding="utf-8")
    return []


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
    return out
