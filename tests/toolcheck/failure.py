"""A tools check's counterexample (:class:`Failure`), and what it names: the input, the reports of ``verify``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tarneeb.conformance.vectors import cite_clause as V_cite
from tarneeb.core.match import HandRecord
from tarneeb.core.spec import Rules
from tarneeb.records import Divergence, RecordProblem, Verifier
from tarneeb_proofs.witness import Witness

from .records import Recorded


@dataclass
class Failure:
    """A tool disagrees with the engine or the table: the tool's function, the input, both answers, the clause."""

    fn: str  # the tool's function
    inputs: str
    tool: str  # what the tool says
    want: str  # what the engine or the table says
    clause: str
    title: str = "a tool disagrees with the engine or the table of clauses"

    def witness(self, rules: Rules) -> Witness:
        """The failure as a readable witness (the clause with its source)."""
        w = Witness(title=self.title)
        w.add("tool function", self.fn)
        w.add("input", self.inputs)
        w.add("tool says", self.tool)
        w.add("expected", self.want)
        w.add("clause", clause_text(rules, self.clause))
        w.clauses = [self.clause]
        return w


def clause_text(rules: Rules, cid: str) -> str:
    """A clause with its source, as the conformance vectors cite it (a clause of the ruleset, or the protocol's
    definition of the perft count); one this family names that the ruleset lacks is said so."""
    if cid in rules.ruleset.clauses or cid.startswith("protocol."):
        return V_cite(rules.ruleset.id, cid)
    return f"{cid} (named by this family; not a clause of {rules.id})"


def where(rules: Rules, rec: Recorded) -> str:
    """The configuration and the match of a record, as a failure's input names them."""
    opts = ",".join(f"{k}={v}" for k, v in rules.options if k in changed(rules)) or "default"
    return f"{rules.id} ({opts}), {rec.name}"


def changed(rules: Rules) -> set[str]:
    """The options of ``rules`` that differ from the ruleset's defaults."""
    return {k for k, v in rules.options if rules.ruleset.option(k).default != v}


def div_text(d: Divergence) -> str:
    """A divergence in one line of text."""
    f = "" if d.follows_line is None else f", follows line {d.follows_line} {d.follows_field}"
    return f"line {d.line} {d.field}: claims {d.claimed}, expects {d.expected} [{d.clause}{f}]"


CHECK_HAND = ("tarneeb.records.verify.Verifier.check_hand (the dealer and the end of the match, as the line before "
               "left them: tarneeb.records.replay.HandReplay)")


END_FIELDS = ("tricks_won", "deltas", "scores", "outcome.")  # the claims the end of a hand's replay checks


def field_fn(field: str, cancelled: bool = False) -> str:
    """The verifier's function that reports on ``field`` of a line (``cancelled``: of a cancelled deal, whose
    scores the replay's own step checks)."""
    if field in ("dealer", "hand"):
        return CHECK_HAND
    if field.startswith(END_FIELDS) and not (field == "scores" and cancelled):
        return "tarneeb.records.hand_end.HandEnd"
    return "tarneeb.records.replay.HandReplay"


def report_fn(d: Divergence | RecordProblem) -> str:
    """The verifier's function that made the report ``d``."""
    if isinstance(d, Divergence):
        return field_fn(d.field, "cancelled deal" in d.expected)
    return "tarneeb.records.replay.HandReplay" if d.field in ("dealer", "hand") else field_fn(d.field)



def verify_lines(lines: Sequence[bytes], fast: bool, v: Verifier | None = None, first: int = 1
            ) -> list[Divergence | RecordProblem]:
    """The reports of ``verify`` (fast path first when ``fast``) on ``lines``, numbered from ``first``."""
    v = v or Verifier(fast=fast)
    out: list[Divergence | RecordProblem] = []
    for i, ln in enumerate(lines, start=first):
        out += v.feed_line(ln, len(ln), "record", i)
    return out


def rep_text(d: Divergence | RecordProblem) -> str:
    """A report of ``verify`` in one line of text."""
    if isinstance(d, Divergence):
        return div_text(d)
    return f"line {d.line} {d.field}: {d.message} ({d.severity})"


def kind_text(rec: HandRecord) -> str:
    """What kind of deal ``rec`` is (played, or cancelled by a clause)."""
    return "a played deal" if rec.redeal is None else f"a deal cancelled by {rec.redeal}"


def kind_clause(rules: Rules, rec: HandRecord) -> str:
    """The clause a deal of that kind is judged by (its cancellation's, or the scoring clause)."""
    return rec.redeal or ("score.individual" if rules.individual else "score.standard")

