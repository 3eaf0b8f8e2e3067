"""Every single-field corruption of a line (:data:`tests.toolcheck.corruptions.CORRUPTIONS`) is reported on that
line, on the corrupted field, with the clause the table gives, on both paths of the verifier; every other divergence
on the line follows from an earlier one, and the next (correct) line reports nothing."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import orjson
import z3

from tarneeb.core.match import HandRecord
from tarneeb.core.spec import Rules
from tarneeb.records import Divergence, RecordProblem, Verifier
from tarneeb_proofs.encode import Encoding
from tarneeb_proofs.evaluate import Ev

from .corruptions import CORRUPTIONS, Corruption, Line, lines_to_corrupt
from .failure import Failure, field_fn, kind_text, rep_text, verify_lines, where
from .records import Recorded


class Outcomes:
    """The encoding's deciding clause of a hand's outcome (``Encoding.individual_outcome``, ``auction_outcome``)
    and its trick winner (``Encoding.trick_winner``)."""

    def __init__(self, enc: Encoding) -> None:
        i = [z3.Int(f"tc{k}") for k in range(12)]
        self.rules = enc.r
        b = [z3.BitVec(f"tw{k}", 6) for k in range(5)]
        self._winner = Ev(b, [enc.trick_winner(b[:4], b[4])])
        if enc.r.individual:
            o = enc.individual_outcome(i[:4], i[4:8], i[8:12])
            self.ev = Ev(i, [o.clause])
        else:
            bt, b13 = z3.Int("tbt"), z3.Bool("tb13")
            self.b13 = Ev(i[:2], [enc.bid13_wins(i[0], i[1])])
            a = enc.auction_outcome(i[:2], i[2], bt, b13)
            self.ev = Ev([*i[:3], bt, b13], [a.clause])

    def winner(self, cards: Sequence[int], trump: int) -> int:
        """The encoding's trick winner (index in play order) of ``cards`` under ``trump``."""
        return int(self._winner(*cards, trump)[0])

    def clause(self, rec: HandRecord, target: int) -> str:
        """The encoding's deciding clause of the outcome of the played deal ``rec`` at ``target``."""
        s, tw = rec.scores_after, rec.tricks_won
        if self.rules.individual:
            bids = [0, 0, 0, 0]
            for seat, b in rec.bids:
                bids[seat] = b.n or 0
            return str(self.ev(*s, *bids, *tw)[0])
        assert rec.contract is not None
        bt = rec.contract[0] % 2
        b13 = bool(self.b13(rec.contract[1], tw[bt] + tw[bt + 2])[0])
        return str(self.ev(s[0], s[1], target, bt, b13)[0])


def _snapshots(rec: Recorded, fast: bool) -> list[Any]:
    """The verifier's match state before each hand line of a clean record (copies), on one path."""
    v = Verifier(fast=fast)
    v.feed_line(rec.lines[0], len(rec.lines[0]), "record", 1)
    out = []
    for i, ln in enumerate(rec.lines[1:], start=2):
        out.append(copy_state(v.state))
        v.feed_line(ln, len(ln), "record", i)
    return out


def copy_state(st: Any) -> Any:
    """A copy of the verifier's match state (its lists and sets copied), or None."""
    return None if st is None else dataclasses.replace(st, lost=list(st.lost), said=set(st.said))  # (its Table: a value)


def corruption(rules: Rules, enc: Encoding, recs: Sequence[Recorded],
               table: Sequence[Corruption] = CORRUPTIONS) -> Failure | None:
    """The first corruption of ``table`` (on the lines :func:`tests.toolcheck.corruptions.lines_to_corrupt` picks)
    that ``verify`` does not report as the table says, on either path; None when every one is."""
    outcomes = Outcomes(enc)
    snaps = {(mi, fast): _snapshots(rec, fast) for mi, rec in enumerate(recs) for fast in (True, False)}
    for mi, k in lines_to_corrupt(recs):
        rec = recs[mi]
        hr = rec.m.records[k]
        x = Line(rules, hr, rec.m.records[k - 1] if k else None, rec.objs[k + 1], k,
                 "" if hr.redeal is not None else outcomes.clause(hr, rec.before[k][1]), outcomes.winner,
                 rec.objs[0])
        for cor in table:
            if cor.header and k != 0:
                continue
            got = cor.change(x)
            if got is None:
                continue
            obj, what = got
            line = k + 2

            def reports(fast: bool, obj: dict[str, Any] = obj, cor: Corruption = cor, mi: int = mi, k: int = k
                        ) -> list[Divergence | RecordProblem]:
                rec = recs[mi]
                if cor.header:  # the header changed: the match is read again from it, its first lines judged
                    return verify_lines([orjson.dumps(obj), *rec.lines[1:3]], fast)
                v = Verifier(fast=fast)
                v.state = copy_state(snaps[(mi, fast)][k])
                return verify_lines([orjson.dumps(obj), *rec.lines[k + 2:k + 3]], fast, v, k + 2)

            for fast in (True, False):
                bad = _judge(rules, cor, x, line, what, reports(fast))
                if bad is not None:
                    tool, want, clause = bad
                    # the fast path's fault when the replay alone reports the corruption as the table says
                    fn = "tarneeb.records.fastpath.fast_hand" if fast and _judge(
                        rules, cor, x, line, what, reports(False)) is None else field_fn(cor.report, hr.redeal is not None)
                    return Failure(fn, f"{where(rules, rec)}, line {line} (deal {k}, {kind_text(hr)}): {what}"
                                   f"{'' if fast else ' (fast path off)'}", tool, want, clause,
                                   "verify does not report a corrupted field as the table says")
    return None


def _judge(rules: Rules, cor: Corruption, x: Line, line: int, what: str, reps: Sequence[Divergence | RecordProblem]
           ) -> tuple[str, str, str] | None:
    """None when the reports are as the table says, else (what verify says, what the table says, the clause)."""
    want = cor.clauses(x)
    here = [d for d in reps if isinstance(d, Divergence) and d.line == line]
    shown = "; ".join(rep_text(d) for d in reps[:4]) or "no report"
    fld = what.split(" ", 1)[0] if cor.report == "tricks[" else cor.report  # "tricks[3].leader 1 -> 2": tricks[3]...
    hit = [d for d in here if d.field == fld and d.clause in want]
    expect = f"a divergence on line {line} at {fld}, clause {' or '.join(want)}"
    if not hit:
        return shown, expect, want[0]
    first = hit[0]
    for d in here:
        if d is first or d.follows_line == line or d.field in cor.same_line:
            continue
        return (rep_text(d), f"{expect}, and nothing else on that line but what follows from it", d.clause)
    later = [d for d in reps if d.line != line]
    if later:
        e = later[0]
        return (rep_text(e), f"no report on line {e.line}, a correct line after the corrupted one",
                e.clause if isinstance(e, Divergence) else want[0])
    return None

