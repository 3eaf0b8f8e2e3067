"""The verifier: replays each hand line through the transition of a match (:mod:`tarneeb.records.driver`: the fast
path first, then the replay) and reports every divergence with its clause."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

try:
    import orjson
except ModuleNotFoundError:  # Pyodide (the offline site): the standard library's json, same values
    from tarneeb import purejson as orjson  # type: ignore[no-redef]

import tarneeb.records.diagnose as diagnose
from tarneeb.core import rules as core_rules
from tarneeb.core import transition
from tarneeb.core.ambiguity import with_readings
from tarneeb.core.cards import FULL_DECK, hand_str, player_and_seat
from tarneeb.core.spec import Rules, load_rules, resolve_ruleset
from tarneeb.core.state import Over
from tarneeb.errors import ConfigError, IllegalAction, TarneebError
from tarneeb.records.driver import MatchState
from tarneeb.records.fastpath import fast_hand
from tarneeb.records.format import _CANONICAL_BID, _CARD_TEXT, MAX_LINE, Divergence, HandLine, Item, MatchHeader, RecordProblem, Report
from tarneeb.records.reader import _item
from tarneeb.records.replay import HandReplay, fmt_list, team_list

# ------------------------------------------------------------------ verifier


@dataclass(slots=True)
class Summary:
    """Counts of a verification run; ``merge`` adds another run's counts."""

    files: int = 0
    unreadable_files: int = 0
    lines: int = 0
    matches: int = 0
    hands: int = 0  # hand records replayed
    clean_hands: int = 0
    divergences: int = 0
    errors: int = 0
    warnings: int = 0
    by_clause: Counter[str] = field(default_factory=Counter)
    independent: int = 0  # divergences that follow from no earlier one
    by_cause: Counter[str] = field(default_factory=Counter)  # the clause id of each divergence not diagnosed
    first_at: dict[str, tuple[str, int, str]] = field(default_factory=dict)  # cause -> (file, line, clause)
    # the independent divergences of the fields the verifier diagnoses: (file, match, field, clause, the names of
    # the hypotheses that reproduce the hand's claim) -> hands; the first line of each (file, field, clause, names)
    evidence: Counter[tuple[str, str, str, str, tuple[str, ...]]] = field(default_factory=Counter)
    evidence_first: dict[tuple[str, str, str, tuple[str, ...]], int] = field(default_factory=dict)
    fit_texts: dict[str, tuple[str, str]] = field(default_factory=dict)  # hypothesis -> (explanation, clause)
    # (file, match, field, hypothesis) -> the clean hands that contradict it (a clean bid of 13 or all 13 tricks to
    # a team, which the hypothesis would have scored otherwise: diagnose.refuted_causes); a verifier fed whole files
    # leaves out the files with no divergence of the field, which the diagnosis never asks about
    refuted: Counter[tuple[str, str, str, str]] = field(default_factory=Counter)
    extending: int = 0  # matches checked under the ruleset asked for, a house ruleset extending the header's

    def merge(self, other: Summary, line_offset: int = 0) -> None:
        """Add ``other``'s counts; ``line_offset`` shifts its first locations (a byte range merged after the
        lines before it)."""
        for k in ("files", "unreadable_files", "lines", "matches", "hands", "clean_hands", "divergences", "errors",
                  "warnings", "independent", "extending"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.by_clause.update(other.by_clause)
        self.by_cause.update(other.by_cause)
        for key, (f, ln, clause) in other.first_at.items():
            if key not in self.first_at:
                self.first_at[key] = (f, ln + line_offset if ln > 0 else ln, clause)
        self.evidence.update(other.evidence)
        self.refuted.update(other.refuted)
        for ek, ln in other.evidence_first.items():
            if ek not in self.evidence_first:
                self.evidence_first[ek] = ln + line_offset if ln > 0 else ln
        for name, texts in other.fit_texts.items():
            self.fit_texts.setdefault(name, texts)

    def count(self, d: Divergence) -> None:
        """Count one divergence: by clause, independent or following, and as evidence for the diagnosis."""
        self.divergences += 1
        self.by_clause[d.clause] += 1
        if d.follows_line is None:
            self.independent += 1
        if d.fits is not None and d.follows_line is None:  # weighed with every other hand (diagnosis)
            names = tuple(f[0] for f in d.fits)
            group = field_group(d.field)
            self.evidence[(d.file, d.match, group, d.clause, names)] += 1
            self.evidence_first.setdefault((d.file, group, d.clause, names), d.line)
            for name, text, clause in d.fits:
                self.fit_texts.setdefault(name, (text, clause))
            return
        key = d.clause if d.follows_line is None else f"follow-on ({d.clause})"
        self.by_cause[key] += 1
        if key not in self.first_at:
            self.first_at[key] = (d.file, d.line, d.clause)

    def diagnosis(self, per_match: bool = False) -> list[dict[str, Any]]:
        """What the hands of each file (``per_match``: of each match) say about the cause of each diagnosed field's
        divergences. A cause is named (``status`` "cause") only when its hypothesis reproduces the claim of every
        diverging hand of that field, no other hypothesis does and those hands are at least
        :data:`MIN_CAUSE_HANDS` (independent divergences: a follow-on is never evidence); "hint" when one hypothesis
        alone fits hands fewer than that (``hint``: its name, ``cause`` None); "ambiguous" when several do; "partial" when
        some hypotheses fit some hands only (the evidence: how many hands each fits); "unexplained" when none fits
        any. A hypothesis some clean hand contradicts (it would have scored that hand otherwise) is never named.
        Each row: file, match (per match), field, clause, hands, status, cause, explanation, fits (each
        hypothesis with the hands it fits), contradicted (each with the clean hands against it), unexplained
        (hands no hypothesis fits)."""
        against: dict[tuple[str, ...], Counter[str]] = {}
        for (file, match, grp, name), n in self.refuted.items():
            against.setdefault((file, match, grp) if per_match else (file, grp), Counter())[name] += n
        groups: dict[tuple[str, ...], dict[str, Any]] = {}
        for (file, match, grp, clause, names), n in self.evidence.items():
            key: tuple[str, ...] = (file, match, grp) if per_match else (file, grp)
            g = groups.setdefault(key, {"hands": 0, "fits": Counter(), "unexplained": 0, "clause": Counter()})
            g["hands"] += n
            g["clause"][clause] += n
            g["fits"].update({x: n for x in names})
            if not names:
                g["unexplained"] += n
        out = []
        for key, g in sorted(groups.items()):
            n, fits = g["hands"], g["fits"]
            no = against.get(key, Counter())
            full = sorted(x for x, c in fits.items() if c == n and not no[x])
            status = ("cause" if len(full) == 1 and n >= MIN_CAUSE_HANDS else "hint" if len(full) == 1
                      else "ambiguous" if full else "partial" if fits else "unexplained")
            cause = full[0] if status == "cause" else None
            hint = full[0] if status == "hint" else None
            named = cause or hint  # the one fit, stated as a cause or as a hint
            row: dict[str, Any] = {"file": key[0], **({"match": key[1]} if per_match else {}), "field": key[-1],
                                   "clause": g["clause"].most_common(1)[0][0], "hands": n, "status": status,
                                   "cause": cause, "hint": hint,
                                   "explanation": self.fit_texts[named][0] if named else "",
                                   "fits": [{"cause": x, "hands": c} for x, c in
                                            sorted(fits.items(), key=lambda kv: (-kv[1], kv[0]))],
                                   "contradicted": [{"cause": x, "clean_hands": no[x]} for x in sorted(fits) if no[x]],
                                   "unexplained": g["unexplained"]}
            if named:
                row["clause"] = self.fit_texts[named][1]
            out.append(row)
        return out

    def causes(self, diagnosis: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
        """Divergences grouped by cause, most frequent first: a diagnosed field's hands under the cause the file's
        evidence names (:meth:`diagnosis`) when they fit it, else "unexplained (field)" or its clause; every other
        divergence under its clause (follow-ons apart)."""
        verdict = {(row["file"], row["field"]): row for row in (self.diagnosis() if diagnosis is None else diagnosis)}
        count: Counter[str] = Counter(self.by_cause)
        first = {k: (f"{f}:{ln}", clause) for k, (f, ln, clause) in self.first_at.items()}
        for (file, _, grp, clause, names), n in self.evidence.items():
            row = verdict[(file, grp)]
            if row["cause"] is not None and row["cause"] in names:
                label, cl = row["cause"], row["clause"]
            elif not names:
                label, cl = f"unexplained ({grp})", clause
            else:
                label, cl = clause, clause
            count[label] += n
            at = f"{file}:{self.evidence_first[(file, grp, clause, names)]}"
            if label not in first or _loc_key(at) < _loc_key(first[label][0]):
                first[label] = (at, cl)
        return [{"cause": k, "count": n, "clause": first[k][1], "first": first[k][0]} for k, n in count.most_common()]

    def clause_counts(self, diagnosis: list[dict[str, Any]] | None = None) -> Counter[str]:
        """The divergences by clause, those a named cause explains (:meth:`diagnosis`) under its clause: one bug,
        one clause, whatever clause each of its hands cited on its own."""
        verdict = {(row["file"], row["field"]): row for row in (self.diagnosis() if diagnosis is None else diagnosis)}
        out = Counter(self.by_clause)
        for (file, _, grp, clause, names), n in self.evidence.items():
            row = verdict[(file, grp)]
            if row["cause"] is not None and row["cause"] in names and row["clause"] != clause:
                out[clause] -= n
                out[row["clause"]] += n
        return +out  # the clauses left with no divergence dropped

    def exit_code(self) -> int:
        """2 when some input could not be read, else 1 when divergences were found, else 0."""
        if self.unreadable_files or self.errors:
            return 2
        return 1 if self.divergences else 0

    def to_json(self) -> dict[str, Any]:
        """The summary as a JSON object: the counts, the diagnosis and the exit code."""
        rows = self.diagnosis()
        return {"kind": "summary", "files": self.files, "unreadable_files": self.unreadable_files,
                "lines": self.lines, "matches": self.matches, "hands": self.hands, "clean_hands": self.clean_hands,
                "divergences": self.divergences, "errors": self.errors, "warnings": self.warnings,
                "by_clause": dict(self.clause_counts(rows).most_common()), "independent": self.independent,
                "by_cause": self.causes(rows), "diagnosis": rows,
                "diagnosis_by_match": self.diagnosis(per_match=True), "exit": self.exit_code(),
                **({"matches_under_house_ruleset": self.extending} if self.extending else {})}


# The fewest independent diverging hands of a field on which a cause is stated as a fact: one hand may fit a
# hypothesis by chance, so a single hand names it only as a hint ("fits 1 hand").
MIN_CAUSE_HANDS = 2


def field_group(fld: str) -> str:
    """A report's field with any trick number left out (``tricks[3].winner`` -> ``tricks[].winner``): the hands
    whose divergences are weighed together."""
    return re.sub(r"\[\d+\]", "[]", fld)


def _loc_key(loc: str) -> tuple[str, int]:
    file, _, line = loc.rpartition(":")
    return (file, int(line)) if line.lstrip("-").isdigit() else (loc, 0)


# After 8 fast-path misses in a row the fast path is not tried for FAST_PAUSE lines, then for twice as many after
# each further miss, up to FAST_PAUSE_MAX, until it takes a line (the reports are the same either way).
FAST_PAUSE = 56
FAST_PAUSE_MAX = 1024

# The clean hands a verifier keeps unweighed at most (the hypotheses they contradict, Summary.refuted): past this
# many, the ones kept are weighed at once, which bounds the memory they take (a few hundred bytes each).
LATE_MAX = 1 << 17

# What a clean hand's weighing needs, kept until the summary is read (Verifier.summary): the facts of its
# contract's scoring (contract, tricks by seat, the changes claimed), and of its bid total (bids, scores before the
# deal, whether it was played)
_DeltasFact = tuple[tuple[int, int, int | None], list[int], list[int]]
_TotalFact = tuple[list[int] | tuple[int, ...], list[int] | tuple[int, ...], bool]
# the canonical texts of a bid of a number of tricks (digits), with that number
_DIGIT_BIDS = {t: int(t) for t in _CANONICAL_BID if t.isdigit()}


class Verifier:
    """Replays records through the engine and reports divergences.

    Feed it the items of :func:`read_records` in file order (:meth:`feed`);
    each call returns the reports for that item. ``ruleset`` (and
    ``options``, and ``readings``: ambiguity id -> reading), when given, override what match headers say.

    The clean hands the diagnosis weighs hypotheses on (Summary.refuted) are weighed when :attr:`summary` is read,
    not as they are checked. ``whole_files``: the caller feeds each file whole before it reads the summary (and
    reads it only then), so the hands of a file with no divergence of the field they bear on are not weighed at all
    (the diagnosis never asks about them); otherwise every clean hand is weighed.
    """

    def __init__(self, ruleset: str | None = None, options: dict[str, Any] | None = None, fast: bool = True,
                 readings: dict[str, str] | None = None, whole_files: bool = False) -> None:
        self.fast = fast
        self.ruleset = ruleset
        self.options = options
        self.readings = readings
        self._summary = Summary()
        self.state: MatchState | None = None
        self._skipping: tuple[str, int] | None = None  # (reason, first line) of lines skipped
        self._cites: dict[tuple[str, str], str] = {}
        self._rules_cache: dict[tuple[str, str], Rules] = {}
        self._fast_misses = 0  # fast path misses in a row
        self._fast_skip = 0  # lines for which the fast path is not tried
        self._fast_backoff = FAST_PAUSE  # lines not tried after the next miss (doubled at each miss after a pause)
        self.whole_files = whole_files
        # the clean hands not weighed yet: per match and file, (rules, file, match, their deltas facts, their
        # total facts); the lists of the last match and file, and how many facts are kept in all
        self._late: list[tuple[Rules, str, str, list[_DeltasFact], list[_TotalFact]]] = []
        self._late_at: tuple[MatchState, str] | None = None
        self._late_lists: tuple[list[_DeltasFact], list[_TotalFact]] = ([], [])
        self._late_n = 0
        self._individual = False  # the match of ``state`` is of the individual family

    @property
    def summary(self) -> Summary:
        """The counts so far, with the clean hands kept unweighed weighed first (see ``whole_files``)."""
        if self._late:
            self._settle(self.whole_files)
        return self._summary

    def _settle(self, only_needed: bool) -> None:
        """Weigh the clean hands kept (:meth:`_keep`): all of them, or (``only_needed``) only those of a file with
        an independent divergence of the field they bear on, the only ones the diagnosis asks about."""
        sm = self._summary
        need = {(k[0], k[2]) for k in sm.evidence} if only_needed else None
        for rules, file, match, deltas, totals in self._late:
            if deltas and (need is None or (file, "deltas") in need):
                for contract, tricks, changes in deltas:
                    for name in diagnose.refuted_causes(rules, contract, tricks, changes):
                        sm.refuted[(file, match, "deltas", name)] += 1
            if totals and (need is None or (file, "redeal") in need):
                for bids, before, played in totals:
                    for name in diagnose.refuted_total_causes(rules, bids, before, played):
                        sm.refuted[(file, match, "redeal", name)] += 1
        self._late = []
        self._late_at = None
        self._late_n = 0

    def _keep(self, st: MatchState, file: str) -> tuple[list[_DeltasFact], list[_TotalFact]]:
        """The lists the clean hands of ``st``'s match in ``file`` are kept in, to be weighed later (:meth:`_settle`)."""
        at = self._late_at
        if at is None or at[0] is not st or at[1] != file:
            lists: tuple[list[_DeltasFact], list[_TotalFact]] = ([], [])
            self._late.append((st.rules, file, st.header.match, lists[0], lists[1]))
            self._late_at = (st, file)
            self._late_lists = lists
        return self._late_lists

    # -------------------------------------------------------------- helpers
    def cite(self, rules: Rules, clause: str) -> str:
        """The citation of ``clause`` in the ruleset of ``rules`` (looked up once per ruleset and clause)."""
        key = (rules.id, clause)
        c = self._cites.get(key)
        if c is None:
            c = rules.ruleset.cite(clause) if clause in rules.ruleset.clauses else f"{clause} (not a clause of {rules.id})"
            self._cites[key] = c
        return c

    def _count(self, reports: list[Report]) -> list[Report]:
        s = self._summary
        for rep in reports:
            if isinstance(rep, Divergence):
                s.count(rep)
            elif rep.severity == "error":
                s.errors += 1
            else:
                s.warnings += 1
        return reports

    def _rules(self, h: MatchHeader) -> Rules | RecordProblem:
        rid = self.ruleset or h.ruleset
        if rid is None:
            return RecordProblem(h.file, h.line, "ruleset", "missing: name the ruleset in the header or with --ruleset",
                               h.match)
        opts = dict(h.options)
        if self.options:
            opts.update(self.options)
        chosen = {**h.readings, **(self.readings or {})}
        key = (rid, repr(sorted(opts.items())) + repr(sorted(chosen.items())))
        rules = self._rules_cache.get(key)
        if rules is None:
            try:
                rs = resolve_ruleset(rid, Path(h.file).parent)  # a file: beside the record too
                rules = load_rules(with_readings(rs, chosen, "readings."), opts)
            except ConfigError as e:
                fld = "ruleset" if e.key == "ruleset" else e.key if e.key.startswith("readings.") else f"options.{e.key}"
                return RecordProblem(h.file, h.line, fld, str(e), h.match)
            except TarneebError as e:
                return RecordProblem(h.file, h.line, "ruleset", str(e), h.match)
            self._rules_cache[key] = rules
        return rules

    # ----------------------------------------------------------------- feed
    def feed_line(self, data: bytes | None, n: int, file: str, line: int) -> list[Report]:
        """Read and check one raw line (``None``: a line over the size limit of ``n`` bytes).

        A canonical clean line is taken by the fast path. When it keeps missing (a record that diverges on
        nearly every line), it is not tried for a while, longer each time it misses again (up to 1,024 lines),
        until it takes a line: the reports are the same either way.
        """
        st = self.state
        obj: Any = None
        if (self.fast and data is not None and st is not None and st.over_rule is None and st.dealer is not None
                and st.scores_known and not st.header.deal_blocks and not st.header.bids_by_seat):
            if self._fast_skip > 0:
                self._fast_skip -= 1
            else:
                try:
                    obj = orjson.loads(data)
                except orjson.JSONDecodeError:
                    obj = None
                if type(obj) is dict and obj.get("type") == "hand":
                    before = st.table.scores
                    if fast_hand(st, obj):
                        if st.weigh is not None:
                            self._weigh(st, file)
                        if self._individual:
                            self._weigh_fast_total(st, obj, before, file)
                        self._fast_misses, self._fast_backoff = 0, FAST_PAUSE
                        sm = self._summary
                        sm.lines += 1
                        sm.hands += 1
                        sm.clean_hands += 1
                        return []
                    self._fast_misses += 1
                    if self._fast_misses >= 8:  # not tried for a while; one more miss after it, twice as long
                        self._fast_misses, self._fast_skip = 7, self._fast_backoff
                        self._fast_backoff = min(2 * self._fast_backoff, FAST_PAUSE_MAX)
        it = _item(data, n, file, line, MAX_LINE, obj if type(obj) is dict else None)
        return [] if it is None else self.feed(it)

    def feed(self, item: Item) -> list[Report]:
        """Verify one parsed item (header, hand line or unreadable line); returns its reports."""
        self._summary.lines += 1
        if isinstance(item, RecordProblem):
            if item.severity == "error" and self.state is not None:
                self._lost(self.state, item)
            return self._count([item])
        if isinstance(item, MatchHeader):
            return self._count(self._header(item))
        return self._count(self._hand(item))

    def _header(self, h: MatchHeader) -> list[Report]:
        out: list[Report] = [RecordProblem(h.file, h.line, f, msg, h.match, None, "warning") for f, msg in h.warnings]
        self._summary.matches += 1
        self._skipping = None
        rules = self._rules(h)
        if isinstance(rules, RecordProblem):
            self.state = None
            self._skipping = (f"its match header (line {h.line}) could not be used", h.line)
            return out + [rules]
        if self.ruleset and h.ruleset and h.ruleset in rules.ruleset.lineage[1:]:
            self._summary.extending += 1  # a house ruleset over the header's: said once, in the summary
        elif self.ruleset and h.ruleset and h.ruleset != self.ruleset:
            out.append(RecordProblem(h.file, h.line, "ruleset", f"the header names {h.ruleset}; checked under "
                                   f"{self.ruleset} as asked", h.match, severity="warning"))
        dealer = 0 if h.first_dealer is None else h.first_dealer
        table = transition.part_way(rules, dealer).table  # any seat may deal first a match read part-way
        if h.start_scores is not None:
            sc = team_list(rules, h.start_scores)
            why = None
            if sc is None:
                why = "an individual ruleset needs four scores"
            else:
                try:
                    table = transition.part_way(rules, dealer, sc).table  # the transition's own check of the start
                except IllegalAction as e:
                    why = f"{fmt_list(sc)}: {e.reason}"
            if why is not None:
                self.state = None
                self._skipping = (f"its match header (line {h.line}) could not be used", h.line)
                return out + [RecordProblem(h.file, h.line, "start_scores", why, h.match)]
        self.state = MatchState(h, rules, table, h.first_dealer is not None)
        self._individual = rules.individual
        return out + self._lenient(h.lenient, h.file, h.line, h.match, None)

    def _lenient(self, found: list[tuple[str, str, str]], file: str, line: int, match: str | None,
                 hand: int | None) -> list[Report]:
        """Warnings for what the reader took beyond the schema: each kind once per match (at its first line)."""
        st = self.state
        out: list[Report] = []
        for kind, fld, msg in found:
            key = "lenient:" + kind
            if st is not None:
                if key in st.said:
                    continue
                st.said.add(key)
                msg += " (said once per match)"
            out.append(RecordProblem(file, line, fld, msg, match, hand, "warning"))
        return out

    def _hand(self, h: HandLine) -> list[Report]:
        out: list[Report] = [RecordProblem(h.file, h.line, f, msg, h.match, h.hand, "warning") for f, msg in h.warnings]
        if h.lenient:
            out += self._lenient(h.lenient, h.file, h.line, h.match, h.hand)
        st = self.state
        if st is None:
            if self._skipping is None:
                self._skipping = ("no match header precedes it", 0)
            if self._skipping[1] >= 0:
                out.append(RecordProblem(h.file, h.line, "(line)", f"hand records not checked from here until the next "
                                       f"match header: {self._skipping[0]}", h.match, h.hand))
                self._skipping = (self._skipping[0], -1)
            return out
        if h.match is not None and st.header.named and h.match != st.header.match:
            out.append(RecordProblem(h.file, h.line, "match", f"{h.match!r} does not match the header's "
                                   f"{st.header.match!r} (line {st.header.line}); hand not checked", h.match, h.hand))
            self._resync(st, h)  # the next hand starts from what this line claims
            st.next_hand = (h.hand if h.hand is not None else st.next_hand) + 1
            st.lost.clear()
            return out
        self._summary.hands += 1
        lost = bool(st.lost)
        st.weigh = st.weigh_total = None
        out.extend(self.check_hand(st, h))
        if st.weigh is not None:
            self._weigh(st, h.file)
        if st.weigh_total is not None:
            bids, before, played = st.weigh_total
            st.weigh_total = None
            self._weigh_total(st, bids, before, played, h.file)
        if lost:  # a warning about a deal missing at an unreadable line before: reports stay in line order
            out.sort(key=lambda x: x.line)
        if not any(isinstance(x, Divergence) or x.severity == "error" for x in out):
            self._summary.clean_hands += 1
        return out

    def _weigh(self, st: MatchState, file: str) -> None:
        """Keep the clean hand ``st.weigh`` to count the hypotheses it contradicts (Summary.refuted, later)."""
        if st.weigh is None:
            raise RuntimeError("no clean hand to weigh")
        self._keep(st, file)[0].append(st.weigh)
        st.weigh = None
        self._late_n += 1
        if self._late_n >= LATE_MAX:
            self._settle(False)

    def _weigh_fast_total(self, st: MatchState, obj: dict[str, Any], before: tuple[int, ...], file: str) -> None:
        """Keep a clean line the fast path took to weigh the threshold hypotheses on (:meth:`_weigh_total`): its four
        bids, played or cancelled by their total (a deal thrown in for a weak hand says nothing about the total)."""
        redeal = obj.get("redeal")
        calls = obj.get("bids")
        if redeal not in (None, "bid.total") or type(calls) is not list or len(calls) != 4:
            return
        # each call's text is a canonical bid (the fast path took them): a bid of a number if it is made of digits
        n = _DIGIT_BIDS.get
        a, b, c, d = n(calls[0][1]), n(calls[1][1]), n(calls[2][1]), n(calls[3][1])
        if a is not None and b is not None and c is not None and d is not None:  # kept as _weigh_total keeps it
            self._keep(st, file)[1].append(((a, b, c, d), before, redeal is None))
            self._late_n += 1
            if self._late_n >= LATE_MAX:
                self._settle(False)

    def _weigh_total(self, st: MatchState, bids: list[int] | tuple[int, ...], before: list[int] | tuple[int, ...],
                     played: bool, file: str) -> None:
        """Keep a deal whose total the record settled as the rules do, to count the threshold hypotheses it
        contradicts (Summary.refuted, later)."""
        self._keep(st, file)[1].append((bids, before, played))
        self._late_n += 1
        if self._late_n >= LATE_MAX:
            self._settle(False)

    # ----------------------------------------------------------- one hand
    def check_hand(self, st: MatchState, h: HandLine) -> list[Report]:
        """Replay one hand from the match state ``st``; update ``st`` for the next one."""
        rules = st.rules
        out: list[Report] = []
        hand_no = h.hand if h.hand is not None else st.next_hand
        mid = st.header.match

        def div(fld: str, claimed: object, expected: object, clause: str, trick: int | None = None,
                reason: str = "", causes: list[diagnose.Cause] | None = None) -> Divergence:
            cause = diagnose.named_cause(causes)
            clause = diagnose.fits_clause(causes, clause)
            d = Divergence(h.file, h.line, mid, hand_no, trick, fld, str(claimed), str(expected), clause,
                           self.cite(rules, clause), reason, cause="" if cause is None else cause[0],
                           explanation="" if cause is None else cause[1], ruleset=rules.ruleset.id,
                           fits=None if causes is None else list(causes))
            out.append(d)
            return d

        def err(fld: str, msg: str, severity: str = "error") -> None:
            out.append(RecordProblem(h.file, h.line, fld, msg, mid, hand_no, severity))

        if st.lost:
            out.extend(self._after_lost(st, h, mid))
        elif h.hand is not None and h.hand != st.next_hand:
            err("hand", f"deal number {h.hand} out of sequence: {st.next_hand} expected", "warning")
        st.next_hand = hand_no + 1
        if st.over_rule is not None:
            if not st.over_reported:
                st.over_reported = True
                div("hand", "a further deal", "none: the match was already over", st.over_rule)
            return out
        dealer = rules_dealer = st.dealer
        alt_dealer, st.alt_dealer = st.alt_dealer, None
        dealer_div: Divergence | None = None
        if h.dealer is not None:
            # a line that goes on from the rules' dealer where the line before claimed another is not wrong again
            if dealer is not None and h.dealer != dealer and h.dealer != alt_dealer:
                dealer_div = div("dealer", player_and_seat(h.dealer), player_and_seat(dealer), st.dealer_clause,
                                 causes=diagnose.dealer_causes(rules, st.last_dealer, st.last_redeal, h.dealer, st.dealer_clause))
            dealer = h.dealer
        elif dealer is None:
            err("dealer", "missing, and the previous deal did not settle who deals next: hand not checked")
            self._resync(st, h)
            return out
        if not st.scores_known:  # after an unreadable line: the scores before this deal, from its own claims
            before = _claimed_before(rules, h)
            if before is not None:
                st.table = replace(st.table, scores=(before[0], before[1], before[2], before[3]))
                st.scores_known = True
        deck = h.deck
        hands_div: Divergence | None = None
        if deck is not None and st.header.deal_blocks:  # declared: 13 cards to each seat in turn
            deck = [deck[13 * k + i] for i in range(13) for k in range(4)]
        if deck is None:
            deck = self._deck_from_hands(rules, dealer, h, div, err)
            if deck is None:
                self._resync(st, h)
                return out
        elif h.hands is not None:  # a deck and the hands it deals, both claimed
            dealt = core_rules.deal_hands(rules, dealer, deck)
            claimed = [sum(1 << c for c in set(cards)) for cards in h.hands]
            if claimed != dealt and len(set(deck)) == 52:  # every later report of the line follows from it
                hands_div = div("hands", "; ".join(hand_str(x) for x in claimed), "; ".join(hand_str(x) for x in dealt),
                                "deal.order", reason="the hands the deck deals, seat 0 to 3")
        # with another dealer every seat holds other cards and speaks at another turn: the rest of the line follows
        if not HandReplay(self, st, h, hand_no, out, dealer_div or hands_div).run(dealer, deck):
            self._resync(st, h)
        elif dealer_div is not None and rules_dealer is not None:  # where the rules' dealer leads: the same end of
            ruled = replace(st.table, dealer=rules_dealer)  # the deal, dealt by the rules' dealer
            after, _ = (transition.settle_match(rules, ruled, None) if st.last_redeal is None
                        else transition.cancel(rules, ruled, st.last_redeal, ""))
            st.alt_dealer = after.table.dealer
        return out

    def _resync(self, st: MatchState, h: HandLine) -> None:
        """After a hand that could not be replayed: trust the record's own claims for what follows (its scores;
        a game it says was won, which raises the target under play-on)."""
        st.dealer_known = False
        st.alt_dealer = st.alt_scores = st.alt_target = None
        if h.outcome_winner is not None and h.outcome_winner in (0, 1):
            after, _ = transition.settle_match(st.rules, st.table, h.outcome_winner)
            if type(after) is not Over:  # a game won before play-on: the next deal is played to the raised target
                st.table = replace(st.table, target=after.table.target, games=after.table.games)
        if h.scores is not None:
            sc = team_list(st.rules, h.scores)
            if sc is not None:
                st.table = replace(st.table, scores=(sc[0], sc[1], sc[2], sc[3]))
                st.scores_known = True

    def _lost(self, st: MatchState, e: RecordProblem) -> None:
        """An unreadable line inside a match: what it said is unknown, so the next hand is judged on its claims."""
        st.dealer_known = False
        st.scores_known = False
        hand = e.hand if e.match is None or not st.header.named or e.match == st.header.match else None
        st.lost.append((e.file, e.line, hand))

    def _after_lost(self, st: MatchState, h: HandLine, mid: str) -> list[Report]:
        """The deal number of the first hand after unreadable lines: at most one warning.

        Deals the numbering shows missing are reported at the (first) unreadable line, which
        is where they were: the line number then stays right when reports are renumbered.
        """
        lost, st.lost = st.lost, []
        if h.hand is None:
            return []
        first = st.next_hand
        if first <= h.hand <= first + len(lost):
            known = {n for _, _, n in lost if n is not None}
            missing = [n for n in range(first, h.hand) if n not in known]
            if not missing:
                return []
            file, line, _ = next((x for x in lost if x[2] is None), lost[0])
            deals = f"deal {missing[0]}" if len(missing) == 1 else f"deals {missing[0]}..{missing[-1]}"
            more = len(lost) - 1
            these = "this line" + (f" and {more} more after it" if more else "")
            return [RecordProblem(file, line, "hand", f"{deals} not checked: {these} could not be read; deal {h.hand}, on "
                                f"the next readable line, is judged on its own claims (dealer, scores)", mid,
                                missing[0], "warning")]
        return [RecordProblem(h.file, h.line, "hand", f"deal number {h.hand} out of sequence: {first} expected, or up "
                            f"to {first + len(lost)} after {len(lost)} unreadable line(s) before it", mid, h.hand,
                            "warning")]

    def _deck_from_hands(self, rules: Rules, dealer: int, h: HandLine, div: Callable[..., object],
                         err: Callable[..., None]) -> list[int] | None:
        if h.hands is None:
            raise RuntimeError("a deck asked from a hand line without hands")
        masks = []
        for s, cards in enumerate(h.hands):
            mk = 0
            for c in cards:
                mk |= 1 << c
            if len(cards) != 13 or mk.bit_count() != 13:
                div(f"hands[{s}]", f"{len(cards)} cards ({mk.bit_count()} distinct)", "13 distinct cards",
                    "deal.deck")
                return None
            masks.append(mk)
        if masks[0] | masks[1] | masks[2] | masks[3] != FULL_DECK:
            div("hands", "hands sharing a card", "the 52 cards of the pack, each once", "deal.deck")
            return None
        dcards = list(h.hands[dealer])
        if rules.trump_source.startswith("revealed"):
            rv = h.revealed
            if rv is None or rv < 0:
                pick = [c for c in dcards if h.trump is not None and h.trump >= 0
                        and core_rules.trump_from_reveal(rules, c) == h.trump]
                if not pick:
                    err("revealed", "missing: with the deal given as hands, name the revealed card (or the trump)")
                    return None
                rv = pick[0]
            if rv not in dcards:
                div("revealed", _CARD_TEXT[rv], "a card of the dealer's hand (the last card dealt)", "trump.source")
                return None
            dcards.remove(rv)
            dcards.append(rv)  # the dealer's last card dealt is the one shown (core_rules.revealed_card)
        return core_rules.deck_of_hands(rules, dealer, [dcards if seat == dealer else h.hands[seat] for seat in range(4)])


def _claimed_before(rules: Rules, h: HandLine) -> list[int] | None:
    """The scores before a deal by the record's own claims: its scores minus its deltas (a cancelled deal: its
    scores); None when the line does not say."""
    if h.scores is None:
        return None
    sc = team_list(rules, h.scores)
    if sc is None:
        return None
    if h.deltas is None:
        return list(sc) if h.redeal else None
    dl = team_list(rules, h.deltas)
    return None if dl is None else [sc[s] - dl[s] for s in range(4)]
