"""Conformance vectors: a generated, deterministic suite under ``spec/vectors/``, and running an engine on it.

Each file ``spec/vectors/<ruleset>/<category>.json`` is a list of groups, one
per option set, in the manner of the JSON-Schema-Test-Suite::

    {"description": ..., "ruleset": ..., "options": {...}, "command": ...,
     "clauses": {field: clause id}, "tests": [
        {"description": ..., "clause": ..., "input": {...}, "expected": {...}}]}

``input`` is the body of the protocol request named by ``command`` (see
``spec/protocol/README.md``) and ``expected`` the fields of the answer. Every
expected value and clause is computed by the rule core (:mod:`tarneeb.conformance.vector_ref`);
:mod:`tarneeb.conformance.vector_gen` picks the inputs, edge cases first in every group, then
seeded random cases, and writes the files. This module reads them and drives an external engine
through them (:func:`run_vectors`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tarneeb.conformance.protocol import Engine
from tarneeb.conformance.vector_gen import generate, generated_files, write_all
from tarneeb.conformance.vector_ref import CATEGORIES, COMMAND, hand_result
from tarneeb.core.actions import Play
from tarneeb.core.cards import parse_card
from tarneeb.core.clauses import cite
from tarneeb.core.spec import rulesets, spec_dir
from tarneeb.errors import BadInput, EngineFailure, EngineRejected


def default_dir() -> Path:
    return spec_dir() / "vectors"


# ------------------------------------------------------------------ running against an engine

@dataclass
class Failure:
    ruleset: str
    options: dict[str, Any]
    category: str
    index: int
    description: str
    clause: str
    field: str
    expected: Any
    got: Any
    source: str

    def to_json(self) -> dict[str, Any]:
        return {"ruleset": self.ruleset, "options": self.options, "category": self.category, "test": self.index,
                "description": self.description, "clause": self.clause, "source": self.source,
                "field": self.field, "expected": self.expected, "got": self.got}


@dataclass
class RunReport:
    passed: int = 0
    failed: int = 0
    by_category: dict[str, list[int]] = field(default_factory=dict)  # [passed, failed]
    by_clause: dict[str, int] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)

    def to_json(self, limit: int = 50) -> dict[str, Any]:
        return {"passed": self.passed, "failed": self.failed, "by_category": self.by_category,
                "failures_by_clause": dict(sorted(self.by_clause.items(), key=lambda kv: -kv[1])),
                "failures": [f.to_json() for f in self.failures[:limit]]}


def load_vector_file(path: Path) -> list[dict[str, Any]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"{path}: cannot read: {e}") from None
    except json.JSONDecodeError as e:
        raise BadInput(f"{path}: line {e.lineno}: not JSON: {e.msg}") from None
    if not isinstance(data, list) or not all(isinstance(g, dict) and isinstance(g.get("tests"), list)
                                             for g in data):
        raise BadInput(f"{path}: a vector file is a list of groups, each with a 'tests' list")
    return data


def _cite(ruleset: str, cid: str) -> str:
    rs = rulesets().get(ruleset)
    return cid if rs is None else cite(rs, cid)


def _run_hand(eng: Engine, base: dict[str, Any], inp: dict[str, Any], perft_depth: int | None
              ) -> dict[str, Any]:
    """Start a hand, apply its actions, and collect the answer fields a hand or perft vector compares."""
    req = {"cmd": "start", **base, **{k: inp[k] for k in ("dealer", "scores", "target", "deck")}}
    st = eng.call(req)
    got: dict[str, Any] = {"hands": st.get("hands"), "trump": st.get("trump")}
    winners: list[Any] = []
    for a in inp.get("actions", []):
        ans = eng.request({"cmd": "apply", "action": a})
        if not ans["ok"]:
            got["refused"] = {"action": a, "error": ans.get("error")}
            return got
        st = ans
        if "trick_winner" in ans:
            winners.append(ans["trick_winner"])
    if perft_depth is not None:
        got["nodes"] = eng.call({"cmd": "perft", "depth": perft_depth}).get("nodes")
        return got
    got["trick_winners"] = winners
    for k in ("redeal", "tricks_won", "deltas", "scores", "winner", "next_dealer"):
        got[k] = st.get(k)
    if st.get("trump") is not None:
        got["trump"] = st.get("trump")
    return got


def run_vectors(eng: Engine, paths: Sequence[Path], on_progress: Callable[[int], None] | None = None
                ) -> RunReport:
    rep = RunReport()
    for path in paths:
        cat = path.stem
        groups = load_vector_file(path)
        for grp in groups:
            base = {"ruleset": grp.get("ruleset"), "options": grp.get("options", {})}
            gcl: dict[str, str] = grp.get("clauses", {})
            stats = rep.by_category.setdefault(f"{grp.get('ruleset')}/{cat}", [0, 0])
            for i, t in enumerate(grp["tests"]):
                inp, exp = t["input"], t["expected"]
                try:
                    if cat in ("hand", "perft", "deal"):
                        got = _run_hand(eng, base, {**inp, "actions": inp.get("actions", [])} if cat != "deal"
                                        else inp, inp.get("depth") if cat == "perft" else None)
                        if cat == "deal":
                            st = got
                            got = {"hands": st.get("hands"), "trump": st.get("trump")}
                            ans = eng.call({"cmd": "state"})
                            got["revealed"] = ans.get("revealed")
                            got["redeal"] = ans.get("phase") == "over" and bool(ans.get("redeal"))
                    else:
                        got = eng.call({"cmd": grp.get("command", COMMAND[cat]), **base, **inp})
                except EngineRejected as e:
                    got = {"refused": {"error": e.error}}
                bad = None
                if "refused" in got:
                    bad = ("(refused)", None, got["refused"])
                else:
                    for k, v in exp.items():
                        if cat == "deal" and k == "hands" and got.get(k) is not None:
                            gv = [sorted(h, key=parse_card) for h in got[k]] if isinstance(got[k], list) else got[k]
                        else:
                            gv = got.get(k)
                        if gv != v:
                            bad = (k, v, gv)
                            break
                if bad is None:
                    rep.passed += 1
                    stats[0] += 1
                    continue
                fld, ev, gv = bad
                cid = t.get("clauses", {}).get(fld) or gcl.get(fld) or t.get("clause", "")
                rep.failed += 1
                stats[1] += 1
                rep.by_clause[cid] = rep.by_clause.get(cid, 0) + 1
                rep.failures.append(Failure(str(grp.get("ruleset")), base["options"], cat, i, t.get("description", ""),
                                            cid, fld, ev, gv, _cite(str(grp.get("ruleset")), cid)))
            if on_progress:
                on_progress(len(grp["tests"]))
    return rep


def vector_paths(root: Path, ruleset: str | None = None, categories: Sequence[str] | None = None) -> list[Path]:
    if not root.is_dir():
        raise BadInput(f"{root}: no such vector folder (run `tarneeb vectors generate`)")
    out = []
    for d in sorted(p for p in root.iterdir() if p.is_dir()):
        if ruleset and d.name != ruleset:
            continue
        for cat in CATEGORIES:
            p = d / f"{cat}.json"
            if p.exists() and (not categories or cat in categories):
                out.append(p)
    if ruleset and not out:
        raise BadInput(f"{root}: no vectors for ruleset {ruleset!r}")
    return out

__all__ = ["CATEGORIES", "EngineFailure", "Failure", "RunReport", "default_dir", "generate", "generated_files",
           "hand_result", "load_vector_file", "run_vectors", "vector_paths", "write_all", "Play"]
