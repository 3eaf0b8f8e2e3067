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
from dataclasses import field as _field
from pathlib import Path
from typing import Any

from tarneeb.conformance.explain import clause_text, replay_story, value_text
from tarneeb.conformance.protocol import PROTOCOL_VERSION, Engine, engine_protocol
from tarneeb.conformance.vector_gen import generate, generated_files, write_all
from tarneeb.conformance.vector_ref import CATEGORIES, COMMAND, START_CATEGORIES, hand_result
from tarneeb.core import clauses as core_clauses
from tarneeb.core.actions import Deal, Play, parse_action
from tarneeb.core.cards import parse_card
from tarneeb.core.clauses import cite
from tarneeb.core.match import Match
from tarneeb.core.spec import load_rules, rulesets, spec_dir
from tarneeb.errors import BadInput, EngineFailure, EngineRejected, TarneebError, echo


def default_dir() -> Path:
    """The conformance vectors shipped with the spec (``spec/vectors``)."""
    return spec_dir() / "vectors"


def quickstart_file() -> tuple[Path, str]:
    """Where the quickstart transcript of the protocol lives, and its text from the reference engine."""
    from tarneeb.conformance.transcript import quickstart_text

    return spec_dir() / "protocol" / "quickstart.md", quickstart_text()


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
    file: str = ""  # vector file relative to the vector folder, e.g. card-kings-41/hand.json
    line: int | None = None  # line of the test in that file (one test per line)
    request: str = ""  # the request line(s) to send to reproduce it
    story: str = ""  # what the rules decided from (bids, tricks, scores), for start-based vectors
    requests: list[str] = _field(default_factory=list)  # every request line of the test (of the failing deal), in order
    since: int = 1  # the protocol version whose semantics the test checks

    @property
    def selector(self) -> str:
        """``FILE:LINE`` (or ``FILE:#N``, the N-th test of the file, for a file not one test a line) for ``--only``."""
        return f"{self.file}:{self.line}" if self.line is not None else f"{self.file}:#{self.index + 1}"

    def to_json(self) -> dict[str, Any]:
        """The failure as a JSON object: where, what was expected and what the engine gave."""
        return {"ruleset": self.ruleset, "options": self.options, "category": self.category, "test": self.index,
                "description": self.description, "clause": self.clause, "source": self.source,
                "field": self.field, "expected": self.expected, "got": self.got, "file": self.file,
                "line": self.line, "selector": self.selector, "request": self.request, "story": self.story,
                "requests": self.requests, "since": self.since}

    def text(self) -> str:
        """The failure in words: the test, the field expected and got with its clause, the request (and the deal)."""
        opts = ", ".join(f"{k}={json.dumps(v)}" for k, v in self.options.items())
        head = (f"{self.selector}: {self.category} under ruleset {self.ruleset}"
                + (f" with {opts}" if opts else "") + f" ({self.description})")
        if self.field == "(refused)":
            what = f"the engine refused the request ({self.got}); the rules give {value_text(self.expected)}"
        else:
            what = f"{self.field}: expected {value_text(self.expected)}, engine gave {value_text(self.got)}"
        lines = [f"{head}: {what} [{clause_text(self.clause, self.source)}]", f"  request: {self.request}"]
        if self.story:
            lines.append(f"  deal: {self.story}")
        return "\n".join(lines)


@dataclass
class RunReport:
    passed: int = 0
    failed: int = 0
    by_category: dict[str, list[int]] = field(default_factory=dict)  # [passed, failed]
    by_clause: dict[str, int] = field(default_factory=dict)
    failures: list[Failure] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)  # ruleset -> tests not run (not in hello.rulesets)
    protocol: int = PROTOCOL_VERSION  # the version the tests were run as (the engine's hello, or --protocol)
    newer: dict[int, int] = field(default_factory=dict)  # version -> tests of a newer version than that, not run
    results: list[tuple[str, str, str, Failure | None]] = field(default_factory=list)  # (group, name, selector, failure)

    def to_json(self, limit: int = 50) -> dict[str, Any]:
        """The run as a JSON object: counts by category and clause, and the first ``limit`` failures."""
        return {"passed": self.passed, "failed": self.failed, "by_category": self.by_category,
                "failures_by_clause": dict(sorted(self.by_clause.items(), key=lambda kv: -kv[1])),
                "failures": [f.to_json() for f in self.failures[:limit]], "skipped": self.skipped,
                "protocol": self.protocol, "newer_protocol_skipped": {str(k): v for k, v in self.newer.items()}}


def load_vector_file(path: Path) -> list[dict[str, Any]]:
    """The test groups of one vector file."""
    return _load(path)[0]


def _load(path: Path) -> tuple[list[dict[str, Any]], list[int] | None]:
    """The groups of a vector file, and the line (from 1) of each of its tests when it has one test a line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise BadInput(f"{path}: cannot read: {e}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise BadInput(f"{path}: line {e.lineno}: not JSON: {e.msg}") from None
    if not isinstance(data, list) or not all(isinstance(g, dict) and isinstance(g.get("tests"), list)
                                             for g in data):
        raise BadInput(f"{path}: a vector file is a list of groups, each with a 'tests' list")
    lines = [i + 1 for i, ln in enumerate(text.splitlines()) if ln.startswith("    {")]
    return data, lines if len(lines) == sum(len(g["tests"]) for g in data) else None


def cite_clause(ruleset: str, cid: str) -> str:
    """A clause a vector cites, with its source: a rule of the ruleset, or a definition of the protocol."""
    if cid.startswith("protocol."):  # a definition of the protocol (perft), not a rule of the game
        return f"{cid} (spec/protocol/README.md, {cid.split('.', 1)[1]})"
    rs = rulesets().get(ruleset)
    return cid if rs is None else cite(rs, cid)


def _line(req: dict[str, Any]) -> str:
    return json.dumps(req, separators=(",", ":"))


class _Refused(Exception):
    """The engine refused a request of a deal (``step``: the index of the refused action), or answered
    ``start`` with a trump other than the deal's (a wrong trump makes later actions look illegal)."""

    def __init__(self, fld: str, expected: Any, got: Any, step: int | None = None) -> None:
        self.fld, self.expected, self.got, self.step = fld, expected, got, step


def _start_req(base: dict[str, Any], dealer: Any, scores: Any, target: Any, deck: Any) -> dict[str, Any]:
    return {"cmd": "start", **base, "dealer": dealer, "scores": scores, "target": target, "deck": deck}


def _play_deal(eng: Engine, req: dict[str, Any], actions: Sequence[str], perft_depth: int | None = None,
               trump: str | None = None) -> dict[str, Any]:
    """Start a deal, apply its actions, and collect the answer fields a deal, hand or perft vector compares.

    ``hands`` and ``trump`` come from the answer to ``start``; ``trick_winners`` from the answers to
    ``apply`` that carry a ``trick_winner``; the rest from the last answer (``trump`` from it too when
    it is known there)."""
    try:
        st = eng.call(req)
    except EngineRejected as e:
        raise _Refused("(refused)", None, f"start: {e.error}") from None
    got: dict[str, Any] = {"hands": st.get("hands"), "trump": st.get("trump"), "revealed": st.get("revealed"),
                           "redeal_at_start": st.get("phase") == "over" and bool(st.get("redeal"))}
    if trump is not None and st.get("trump") not in (None, trump):
        raise _Refused("trump", trump, st.get("trump"))
    winners: list[Any] = []
    for i, a in enumerate(actions):
        ans = eng.request({"cmd": "apply", "action": a})
        if not ans["ok"]:
            raise _Refused(f"apply {a} (action {i})", f"{a} accepted", f"refused: {ans.get('error')}", i)
        st = ans
        if "trick_winner" in ans:
            winners.append(ans["trick_winner"])
    if perft_depth is not None:
        try:
            got["nodes"] = eng.call({"cmd": "perft", "depth": perft_depth}).get("nodes")
        except EngineRejected as e:
            raise _Refused("(refused)", None, f"perft: {e.error}") from None
        return got
    got["trick_winners"] = winners
    for k in ("redeal", "tricks_won", "deltas", "scores", "winner", "next_dealer"):
        got[k] = st.get(k)
    if st.get("trump") is not None:
        got["trump"] = st.get("trump")
    return got


def _first_difference(expected: dict[str, Any], got: dict[str, Any], prefix: str = "") -> tuple[str, Any, Any] | None:
    for k, v in expected.items():
        gv = got.get(k)
        if k == "hands" and isinstance(gv, list):  # hands are compared order-free
            try:
                gv = [sorted(h, key=parse_card) for h in gv]
            except (TarneebError, TypeError, AttributeError):
                pass
        if gv != v:
            return prefix + k, v, gv
    return None


def _deal_lines(req: dict[str, Any], actions: Sequence[str], depth: int | None = None) -> list[str]:
    """The request lines of a deal: start, one apply per action, then perft when asked."""
    lines = [_line(req)] + [_line({"cmd": "apply", "action": a}) for a in actions]
    return lines + ([_line({"cmd": "perft", "depth": depth})] if depth is not None else [])


def _failure_lines(cat: str, grp: dict[str, Any], base: dict[str, Any], t: dict[str, Any], fld: str) -> list[str]:
    """Every request line of a failed test (of its failing deal, for a match), ready to paste."""
    inp = t["input"]
    if cat not in START_CATEGORIES:
        return [_line({"cmd": grp.get("command", COMMAND[cat]), **base, **inp})]
    if cat != "match":
        req = _start_req(base, inp["dealer"], inp["scores"], inp["target"], inp["deck"])
        return _deal_lines(req, inp.get("actions", []), inp.get("depth") if cat == "perft" else None)
    k = int(fld[len("deals["):fld.index("]")]) if fld.startswith("deals[") else 0
    prev = t["expected"]["deals"][k - 1] if k else None
    dealer, scores = (prev["next_dealer"], prev["scores"]) if prev else (inp["dealer"], inp["scores"])
    deal = inp["deals"][k]
    return _deal_lines(_start_req(base, dealer, scores, inp["target"], deal["deck"]), deal["actions"])


def _run_test(eng: Engine, cat: str, grp: dict[str, Any], base: dict[str, Any], t: dict[str, Any],
              ) -> tuple[tuple[str, Any, Any] | None, str, str, dict[str, str]]:
    """Run one test: (first difference or None, request text, deal story, extra clauses by field)."""
    inp, exp = t["input"], t["expected"]
    cmd = grp.get("command", COMMAND[cat])
    if cat not in START_CATEGORIES:
        req = {"cmd": cmd, **base, **inp}
        try:
            got = eng.call(req)
        except EngineRejected as e:
            return ("(refused)", exp, e.error), _line(req), "", {}
        return _first_difference(exp, got), _line(req), "", {}
    if cat == "match":
        return _run_match(eng, base, inp, exp)
    req = _start_req(base, inp["dealer"], inp["scores"], inp["target"], inp["deck"])
    actions = inp.get("actions", [])
    text = _line(req) + ("" if not actions else " then apply, one per line: " + " ".join(actions))
    if cat == "perft":
        text += f' then {{"cmd":"perft","depth":{inp["depth"]}}}'
    try:
        got = _play_deal(eng, req, actions, inp.get("depth") if cat == "perft" else None, exp.get("trump"))
    except _Refused as r:
        diff: tuple[str, Any, Any] = (r.fld, exp if r.expected is None else r.expected, r.got)
        return diff, text, _story(base, inp, actions), _refusal_clause(base, inp, actions, r)
    if cat == "deal":
        got["redeal"] = got.pop("redeal_at_start")
    d = _first_difference(exp, got)
    return d, text, ("" if d is None or cat == "deal" else _story(base, inp, actions)), {}


def _story(base: dict[str, Any], inp: dict[str, Any], actions: Sequence[str]) -> str:
    try:
        rules = load_rules(str(base["ruleset"]), base["options"])
    except TarneebError:
        return ""
    return replay_story(rules, inp["dealer"], inp["scores"], inp.get("target"), inp["deck"], actions)


def _run_match(eng: Engine, base: dict[str, Any], inp: dict[str, Any], exp: dict[str, Any]
               ) -> tuple[tuple[str, Any, Any] | None, str, str, dict[str, str]]:
    """A whole match from part-way scores: each deal starts from the dealer and scores the engine
    answered at the end of the previous one (the driver carries them, as in a real match)."""
    dealer, scores, target = inp["dealer"], inp["scores"], inp["target"]
    text = ""
    for k, (deal, want) in enumerate(zip(inp["deals"], exp["deals"], strict=True)):
        req = _start_req(base, dealer, scores, target, deal["deck"])
        text = f"deal {k}: " + _line(req) + " then apply, one per line: " + " ".join(deal["actions"])
        d: tuple[str, Any, Any] | None
        here = {**inp, "dealer": dealer, "scores": scores, "deck": deal["deck"]}
        extra: dict[str, str] = {}
        try:
            got = _play_deal(eng, req, deal["actions"], None, want.get("trump"))
            d = _first_difference(want, got, f"deals[{k}].")
        except _Refused as r:
            d = (f"deals[{k}].{r.fld}", want if r.expected is None else r.expected, r.got)
            extra = {f"deals[{k}].{f}": c for f, c in _refusal_clause(base, here, deal["actions"], r).items()}
        if d is not None:
            story = _story(base, here, deal["actions"])
            return d, text, story, {**_match_clauses(base, inp, k), **extra}
        dealer, scores = got["next_dealer"], got["scores"]
    return None, text, "", {}


def _refusal_clause(base: dict[str, Any], inp: dict[str, Any], actions: Sequence[str], r: _Refused
                    ) -> dict[str, str]:
    """The clause of a refused action (the rule that makes it legal) or of a wrong trump at ``start``."""
    try:
        rules = load_rules(str(base["ruleset"]), base["options"])
        if r.step is None:
            return {r.fld: core_clauses.trump_clause(rules)} if r.fld == "trump" else {}
        m = Match.at(rules, inp["dealer"], inp["scores"], inp.get("target"))
        m.apply(Deal(tuple(parse_card(c) for c in inp["deck"])))
        for a in actions[:r.step]:
            m.apply(parse_action(a))
        return {r.fld: core_clauses.legal_clause(rules, m, [], [actions[r.step]])}
    except TarneebError:
        return {}


def _match_clauses(base: dict[str, Any], inp: dict[str, Any], k: int) -> dict[str, str]:
    """Clauses of the fields of deal ``k`` of a match vector, from the reference replay."""
    try:
        rules = load_rules(str(base["ruleset"]), base["options"])
        m = Match.at(rules, inp["dealer"], inp["scores"], inp["target"])
        for deal in inp["deals"][:k + 1]:
            m.apply(Deal(tuple(parse_card(c) for c in deal["deck"])))
            for a in deal["actions"]:
                m.apply(parse_action(a))
    except TarneebError:
        return {}
    cl = core_clauses.result_clauses(rules, m.records[-1])
    out = {f"deals[{k}].{f}": c for f, c in cl.items()}
    out[f"deals[{k}].trick_winners"] = "play.winner"
    out[f"deals[{k}].tricks_won"] = "hand.tricks"
    return out


def parse_selector(sel: str) -> tuple[str, int | None, int | None]:
    """``FILE:LINE`` or ``FILE:#N`` -> (FILE as ruleset/category.json, line, ordinal); FILE may be a longer path."""
    path, sep, where = sel.rpartition(":")
    if not sep or not path:
        raise BadInput(f"--only {sel}: expected FILE:LINE (e.g. card-kings-41/hand.json:12) or FILE:#N")
    rel = "/".join(Path(path).parts[-2:])
    try:
        if where.startswith("#"):
            return rel, None, int(where[1:])
        return rel, int(where), None
    except ValueError:
        raise BadInput(f"--only {sel}: {echo(where)} is not a line number (FILE:LINE) or #N") from None


def run_vectors(eng: Engine, paths: Sequence[Path], on_progress: Callable[[int, str], None] | None = None,
                only: Sequence[str] | None = None, protocol: int | None = None) -> RunReport:
    """Run the tests of ``paths`` against ``eng``; ``on_progress(done, name)`` is called as each file (a ruleset's
    category) starts, with the number of files done before it and its name (``card-kings-41/outcome``).

    Groups of a ruleset the engine does not list in its ``hello`` answer's ``rulesets`` are skipped and
    counted in :attr:`RunReport.skipped` (an engine that lists none is given every group). ``only``
    holds selectors (:func:`parse_selector`): then just those tests run. A test of a protocol version
    (its ``since``) newer than ``protocol`` (default: the version the engine's ``hello`` names) is not run,
    and counted in :attr:`RunReport.newer` by its version.
    """
    version = engine_protocol(eng.hello) if protocol is None else protocol
    if version > PROTOCOL_VERSION:
        raise BadInput(f"protocol {version}: newer than this tarneeb's ({PROTOCOL_VERSION}); see "
                       "spec/protocol/CHANGELOG.md")
    rep = RunReport(protocol=version)
    supported = eng.hello.get("rulesets")
    sel = [parse_selector(s) for s in only or []]
    for done, path in enumerate(paths):
        cat = path.stem
        rel = "/".join(path.parts[-2:])
        if on_progress:
            on_progress(done, f"{path.parent.name}/{cat}")
        groups, lines = _load(path)
        ordinal = 0
        for grp in groups:
            base = {"ruleset": grp.get("ruleset"), "options": grp.get("options", {})}
            rid = str(grp.get("ruleset"))
            gcl: dict[str, str] = grp.get("clauses", {})
            first = ordinal
            ordinal += len(grp["tests"])
            if isinstance(supported, list) and rid not in supported:
                rep.skipped[rid] = rep.skipped.get(rid, 0) + len(grp["tests"])
                continue
            stats = rep.by_category.setdefault(f"{rid}/{cat}", [0, 0])
            for i, t in enumerate(grp["tests"]):
                line = lines[first + i] if lines else None
                if sel and not any(f == rel and (ln == line if ln is not None else n == first + i + 1)
                                   for f, ln, n in sel):
                    continue
                since = int(t.get("since", 1))
                if since > version:
                    rep.newer[since] = rep.newer.get(since, 0) + 1
                    continue
                bad, request, story, extra = _run_test(eng, cat, grp, base, t)
                name = t.get("description", "") or f"test {first + i + 1}"
                where = f"{rel}:{line}" if line is not None else f"{rel}:#{first + i + 1}"
                if bad is None:
                    rep.passed += 1
                    stats[0] += 1
                    rep.results.append((f"{rid}/{cat}", name, where, None))
                    continue
                fld, ev, gv = bad
                cid = (extra.get(fld) or t.get("clauses", {}).get(fld) or gcl.get(fld.split(".")[-1])
                       or gcl.get(fld) or t.get("clause", ""))
                rep.failed += 1
                stats[1] += 1
                rep.by_clause[cid] = rep.by_clause.get(cid, 0) + 1
                rep.failures.append(Failure(rid, base["options"], cat, first + i, t.get("description", ""),
                                            cid, fld, ev, gv, cite_clause(rid, cid), rel, line, request, story,
                                            _failure_lines(cat, grp, base, t, fld), since))
                rep.results.append((f"{rid}/{cat}", name, where, rep.failures[-1]))
    if sel and not rep.passed + rep.failed and not rep.skipped:
        raise BadInput(f"--only {', '.join(only or [])}: no such test (FILE:LINE of a test line of a vector file)")
    return rep


def vector_paths(root: Path, ruleset: str | None = None, categories: Sequence[str] | None = None) -> list[Path]:
    """The vector files under ``root``, by ruleset folder then category (only ``ruleset``, ``categories`` if given)."""
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
        raise BadInput(f"{root}: no vectors for ruleset {echo(ruleset)}")
    return out

__all__ = ["CATEGORIES", "EngineFailure", "Failure", "RunReport", "default_dir", "generate", "generated_files",
           "hand_result", "load_vector_file", "run_vectors", "vector_paths", "write_all", "Play"]


def junit_xml(rep: RunReport, engine: str) -> str:
    """The run as a JUnit XML report: one ``testsuite`` per ruleset and category, one ``testcase`` per vector
    (named by its description, ``classname`` its FILE:LINE), a failure's message the field, both values and the
    clause, its text the request lines that reproduce it; tests of a newer protocol version as a suite of
    skipped cases' count."""
    from xml.sax.saxutils import escape, quoteattr

    suites: dict[str, list[tuple[str, str, Failure | None]]] = {}
    for group, name, where, fail in rep.results:
        suites.setdefault(group, []).append((name, where, fail))
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name={quoteattr("tarneeb vectors run: " + engine)} tests="{rep.passed + rep.failed}" '
           f'failures="{rep.failed}">']
    for group, cases in suites.items():
        fails = sum(f is not None for _, _, f in cases)
        out.append(f'  <testsuite name={quoteattr(group)} tests="{len(cases)}" failures="{fails}">')
        for name, where, fail in cases:
            head = f'    <testcase name={quoteattr(name)} classname={quoteattr(where)}'
            if fail is None:
                out.append(head + "/>")
                continue
            msg = (f"{fail.field}: expected {json.dumps(fail.expected)}, engine gave {json.dumps(fail.got)} "
                   f"[clause {fail.source}]")
            body = "\n".join(fail.requests or [fail.request]) + (f"\ndeal: {fail.story}" if fail.story else "")
            out.append(head + ">")
            out.append(f'      <failure message={quoteattr(msg)} type="divergence">{escape(body)}</failure>')
            out.append("    </testcase>")
        out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out) + "\n"
