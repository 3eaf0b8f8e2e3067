"""The referee's rulings under each ruleset asked, with the ambiguities that bear on them.

:func:`resolve` answers a :class:`~tarneeb.ruling.situation.Situation`'s question under each ruleset it names
(:func:`rule_one`: the :class:`~tarneeb.ruling.decision.Decision`, the clauses that decide it, the flags of the
ambiguity register that bear on it, each reading ruled by the engine on the ruleset's parameters adjusted to
that reading, or marked as not modelled), and with several rulesets says where they disagree.
:func:`report_text` / :func:`report_json` render the :class:`Report`.

Under ``ruleset = "all"`` a ruleset whose facts are missing is reported as undecided, and one whose family the
facts do not fit (individual bids against an auction ruleset) as not applicable; a ruleset asked for by name
with missing facts raises :class:`~tarneeb.ruling.situation.SituationError`.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tarneeb.core import rules as core_rules
from tarneeb.core import transition
from tarneeb.core.actions import PASS
from tarneeb.core.ambiguity import Ambiguity, ambiguities, rules_under, taken_for
from tarneeb.core.cards import JSON_NUMBERING, STRAINS, card_str, player_name, strain_name, team_label
from tarneeb.core.sources import cite, rule_words, topic_words
from tarneeb.core.spec import OptionValue, Rules
from tarneeb.core.state import Calling
from tarneeb.errors import IllegalBid
from tarneeb.ruling.arithmetic import NONE, Math
from tarneeb.ruling.arithmetic import line as math_line
from tarneeb.ruling.decision import decide
from tarneeb.ruling.facts import auction
from tarneeb.ruling.math_words import math_words
from tarneeb.ruling.situation import (
    KIND_QUESTIONS,
    Missing,
    NotApplicable,
    Situation,
    SituationError,
    load_situation,
    rules_for,
)
from tarneeb.ruling.verdict import ClauseRef, clause_refs, fmt_delta

# The answer fields compared when deciding whether rulesets agree.
KEY_FIELDS: dict[str, tuple[str, ...]] = {
    "card-legal": ("legal",), "trick-winner": ("winner",), "bid-legal": ("legal",),
    "redeal": ("redeal", "dealer"), "score": ("deltas", "delta"), "winner": ("winner",),
    "next-dealer": ("dealer",), "trump": ("trump",), "who-leads": ("leader",), "whose-turn": ("seat",),
    "irregularity": ("breaks", "revoke"),
}
# An irregularity (a question kind, or found by a card-legal / bid-legal ruling) -> the register entry whose
# readings say what a club can do about it (the rule documents are silent on every remedy).
IRREGULARITY_AMBIGUITY: dict[str, str] = {
    "revoke": "revoke-remedy", "bid-out-of-turn": "bid-out-of-turn", "lead-out-of-turn": "lead-out-of-turn",
    "exposed-card": "exposed-card", "misdeal": "misdeal", "wrong-card-count": "wrong-card-count",
}


@dataclass(frozen=True, slots=True)
class Reading:
    id: str
    text: str
    taken: bool
    answer: dict[str, Any] | None  # None when the engine cannot express the reading
    ruling: str


@dataclass(frozen=True, slots=True)
class AmbiguityFlag:
    id: str
    question: str
    sources: tuple[str, ...]
    readings: tuple[Reading, ...]

    @property
    def changes_ruling(self) -> bool:
        """Whether the readings of the ambiguity give different answers here."""
        answers = {json.dumps(r.answer, sort_keys=True) for r in self.readings if r.answer is not None}
        return len(answers) > 1


@dataclass(frozen=True, slots=True)
class Ruling:
    ruleset: str
    label: str
    name: str
    status: str  # "ruled", "not-applicable", "undecided", "contradiction" (the facts contradict this ruleset)
    answer: dict[str, Any]
    text: str
    clauses: tuple[ClauseRef, ...] = ()
    ambiguities: tuple[AmbiguityFlag, ...] = ()
    math: Math = NONE  # the arithmetic or comparison that decides (tarneeb.ruling.arithmetic)
    fields: tuple[str, ...] = ()  # for a contradiction: the fields in conflict

    def key(self, kind: str) -> str:
        """The answer's fields that decide a ruling of ``kind``, as a JSON text (rulings alike have the same key)."""
        return json.dumps({k: self.answer.get(k) for k in KEY_FIELDS[kind]}, sort_keys=True)


@dataclass(frozen=True, slots=True)
class Report:
    file: str
    title: str
    kind: str
    question: str
    rulings: tuple[Ruling, ...]
    agreement: str
    asked: dict[str, Any] = dataclasses.field(default_factory=dict)  # the question's seat, card, bid, irregularity


# -------------------------------------------------------------- ambiguities

# Each entry: ambiguity id -> (question kinds it bears on, when it is live under
# (rules, situation), reading id -> rules adjusted to that reading, or None when
# the engine has no parameter for the reading). A selectable reading needs no entry
# there: the rules that follow it are its parameters' (core.ambiguity.rules_under).
Variant = Callable[[Rules, Situation], Rules | None]


def _not_modelled(rules: Rules, situation: Situation) -> None:
    return None


def _team13(situation: Situation) -> bool:
    return situation.tricks is not None and 13 in core_rules.team_tricks(situation.tricks)


def _defenders13(situation: Situation) -> bool:
    if situation.contract is None or situation.tricks is None:
        return False
    return core_rules.team_tricks(situation.tricks)[1 - core_rules.team_of(situation.contract.seat)] == 13


_Live = Callable[[Rules, Situation], bool]
AMBIGUITY_READINGS: dict[str, tuple[tuple[str, ...], _Live, dict[str, Variant]]] = {
    "turned-card-trump": (("trump", "trick-winner"), lambda rules, situation: rules.trump_source.startswith("revealed"), {}),
    "raised-total": (("redeal", "next-dealer"), lambda rules, situation: rules.total_min != 11 or bool(rules.total_table), {}),
    "rising-min-threshold": (("bid-legal",), lambda rules, situation: rules.rising_min, {}),
    "bid10-partner": (("winner",), lambda rules, situation: rules.made_bid_wins == 10, {}),
    "400-numbers": (("score", "winner"), lambda rules, situation: True, {}),
    "defender-kaboot": (("score", "winner"), lambda rules, situation: _defenders13(situation), {}),
    "kaboot-double-defenders": (
        ("score", "winner"), lambda rules, situation: rules.kaboot == "double" and _defenders13(situation), {}),
    "kaboot-bid-only": (("score", "winner"), lambda rules, situation: rules.score_style == "bid-only" and _team13(situation), {}),
    "bid13-vs-kaboot": (
        ("score", "winner"),
        lambda rules, situation: situation.contract is not None and situation.contract.bid == 13 and _team13(situation), {}),
    "egyptian-dealer-match": (
        ("bid-legal",), lambda rules, situation: rules.egyptian and rules.auction_style == "dealer-privilege", {}),
    "forced-dealer-minimum": (("bid-legal",), lambda rules, situation: _forced_dealer_turn(rules, situation), {}),
}


def _forced_dealer_turn(rules: Rules, situation: Situation) -> bool:
    """The dealer speaks after three passes under the dealer-forced all-pass rule, with a bid above the minimum."""
    q, calls = situation.question.bid, situation.auction or []
    if situation.dealer is None or len(calls) != 3 or q is None or q.n is None or q.n <= rules.min_bid:
        return False
    try:
        state, _ = auction(rules, situation)
    except SituationError:
        return False
    if type(state) is not Calling:
        return False
    try:  # the seat to speak may not pass: the dealer forced to bid
        transition.step(rules, state, PASS)
    except IllegalBid:
        return True
    return False


def _flags(kind: str, rules: Rules, situation: Situation, answer: dict[str, Any] | None = None) -> tuple[AmbiguityFlag, ...]:
    out: list[AmbiguityFlag] = []
    irr = situation.question.irregularity if kind == "irregularity" else (answer or {}).get("irregularity")
    if kind == "irregularity" and answer is not None and False in (answer.get("revoke"), answer.get("out_of_turn")):
        irr = None  # the facts show no such irregularity: no remedy to choose
    remedy = IRREGULARITY_AMBIGUITY.get(str(irr))
    for a in ambiguities():
        if a.id == remedy:
            out.append(_silent_flag(a))
            continue
        if taken_for(a, rules.ruleset) is None or a.id not in AMBIGUITY_READINGS:
            continue
        kinds, live, variants = AMBIGUITY_READINGS[a.id]
        if kind not in kinds or not live(rules, situation):
            continue
        out.append(_flag(a, kind, rules, situation, variants))
    return tuple(out)


def _silent_flag(a: Ambiguity) -> AmbiguityFlag:
    """The readings a club can adopt where every document is silent (no ruleset takes one)."""
    return AmbiguityFlag(a.id, a.question, a.sources, tuple(
        Reading(rid, text, False, None, "a club's choice: no rule document says") for rid, text in a.readings))


def _flag(a: Ambiguity, kind: str, rules: Rules, situation: Situation, variants: dict[str, Variant]) -> AmbiguityFlag:
    readings = []
    for rid, text in a.readings:
        if rid in a.params:  # a selectable reading: the rules that follow it (whatever reading r follows now)
            variant: Rules | None = rules_under(rules, {a.id: rid})
        else:
            variant = variants.get(rid, _not_modelled)(rules, situation)
        if variant is None:
            readings.append(Reading(rid, text, taken_for(a, rules.ruleset) == rid, None,
                                    "not computed: the engine has no parameter for this reading"))
            continue
        try:
            d = decide(kind, variant, situation)
            readings.append(Reading(rid, text, taken_for(a, rules.ruleset) == rid, d.answer, d.text))
        except (Missing, SituationError, NotApplicable) as e:
            readings.append(Reading(rid, text, taken_for(a, rules.ruleset) == rid, None, f"no ruling: {e}"))
    return AmbiguityFlag(a.id, a.question, a.sources, tuple(readings))


# ------------------------------------------------------------------ resolve


def rule_one(situation: Situation, rid: str, options: dict[str, OptionValue]) -> Ruling:
    """The ruling under one ruleset; raises :class:`SituationError` on contradictions."""
    rules = rules_for(situation, rid, options)
    kind = situation.question.kind
    try:
        d = decide(kind, rules, situation)
    except NotApplicable as e:
        return Ruling(rid, rules.label(), rules.ruleset.name, "not-applicable", {}, f"Not applicable: {e}.")
    except Missing as e:
        if not situation.all_rulesets:
            raise situation.err([e.field], f"incomplete for {rules.label()}: {e.why}") from None
        return Ruling(rid, rules.label(), rules.ruleset.name, "undecided", {"missing": e.field},
                      f"Undecided, for want of {missing_words(e.field)} ({e.field}): {e.why}.")
    return Ruling(rid, rules.label(), rules.ruleset.name, "ruled", d.answer, d.text, clause_refs(rules, d.chain),
                  _flags(kind, rules, situation, d.answer), d.math)


def _agreement(kind: str, rulings: Sequence[Ruling]) -> str:
    ruled = [x for x in rulings if x.status == "ruled"]
    if len(ruled) < 2:
        return ""
    groups: dict[str, list[Ruling]] = {}
    for x in ruled:
        groups.setdefault(x.key(kind), []).append(x)
    if len(groups) == 1:
        return f"All {len(ruled)} rulesets that rule on this agree."
    parts = []
    for members in groups.values():
        labels = [m.label for m in members]  # the ids beside a word: "under rulesets bsfyi-41 and tarneeb-400"
        names = (f"ruleset {labels[0]}" if len(labels) == 1 else
                 f"rulesets {', '.join(labels[:-1])} and {labels[-1]}")
        parts.append(f"{short_answer(kind, members[0].answer)} under {names}")
    return "The rulesets disagree: " + "; ".join(parts) + "."


def headline(rep: Report) -> str:
    """The answer in one sentence, for the top of a page: the one ruling's verdict; what every ruleset that rules
    agrees on; or how they disagree. Empty when no ruleset rules."""
    ruled = [x for x in rep.rulings if x.status == "ruled"]
    if not ruled:
        return ""
    if len(ruled) == 1:
        return ruled[0].text
    if len({x.key(rep.kind) for x in ruled}) == 1:
        a = ruled[0].answer
        words = short_answer(rep.kind, a)
        if rep.kind == "irregularity" and a.get("revoke") and a.get("trick") is not None:
            words = (f"a revoke in trick {a['trick']} ({a.get('card')} played while holding {a.get('proof')}), "
                     f"which breaks {' and '.join(rule_words(b) for b in a.get('breaks') or [])}"
                     + ("; the documents are silent on what follows" if a.get("documents") == "silent" else ""))
        return f"{words[:1].upper()}{words[1:]}: all {len(ruled)} rulesets that rule on this agree."
    return _agreement(rep.kind, rep.rulings)


def short_answer(kind: str, answer: dict[str, Any]) -> str:
    """A few words for an answer, used where rulesets are compared."""
    if kind in ("card-legal", "bid-legal"):
        return "legal" if answer.get("legal") else "not legal"
    if kind == "trick-winner":
        return f"{player_name(answer.get('winner'))} wins"
    if kind == "redeal":
        if answer.get("redeal"):
            return f"redealt by {player_name(answer.get('dealer'))}"
        return f"played ({player_name(answer.get('dealer'))} deals next)"
    if kind == "score":
        if "delta" in answer:
            return f"{player_name(answer.get('seat'))} {fmt_delta(int(answer['delta']))}"
        return "changes " + ", ".join(fmt_delta(d) for d in answer.get("deltas", []))
    if kind == "winner":
        w = answer.get("winner")
        return "no winner yet" if w is None else f"{team_label(w)} wins"
    if kind == "next-dealer":
        return f"{player_name(answer.get('dealer'))} deals"
    if kind == "who-leads":
        return f"{player_name(answer.get('leader'))} leads"
    if kind == "whose-turn":
        return f"{player_name(answer.get('seat'))}'s turn"
    if kind == "irregularity":
        if answer.get("out_of_turn") is False:
            return f"no irregularity ({player_name(answer.get('turn'))}'s turn)"
        broken = " and ".join(rule_words(b) for b in answer.get("breaks") or []) or "no rule"
        return ("a revoke, " if answer.get("revoke") else "") + f"breaks {broken}"
    t = answer.get("trump")
    if t is None:
        return "trump named at the auction"
    return f"trump is {strain_name(STRAINS.index(t))}" + (", as stated" if answer.get("stated") else "")


def _contradiction(situation: Situation, rid: str, options: dict[str, OptionValue], e: SituationError) -> Ruling:
    rules = rules_for(situation, rid, options)
    msg = str(e).removeprefix(f"{e.file}: ").removeprefix(" / ".join(e.fields) + ": ")
    return Ruling(rid, rules.label(), rules.ruleset.name, "contradiction", {"fields": list(e.fields)},
                  f"Contradiction: {msg}.", fields=e.fields)


def resolve(situation: Situation) -> Report:
    """Rule on the situation under every ruleset it names. With several rulesets, facts that contradict one
    ruleset are reported for it alone (status ``contradiction``) and the others still rule; the error is raised
    when only one ruleset was asked or the facts contradict them all."""
    out: list[Ruling] = []
    errors: list[SituationError] = []
    for rid, o in situation.targets:
        try:
            out.append(rule_one(situation, rid, o))
        except SituationError as e:
            if len(situation.targets) == 1:
                raise
            errors.append(e)
            out.append(_contradiction(situation, rid, o, e))
    rulings = tuple(out)
    if errors and len(errors) == len(rulings):
        raise errors[0]
    if situation.all_rulesets and not any(x.status in ("ruled", "contradiction") for x in rulings):
        reasons = "; ".join(f"{x.label}: {x.text}" for x in rulings)
        raise situation.err(["question"], f"no ruleset can rule on these facts ({reasons})")
    q = situation.question
    asked: dict[str, Any] = {k: v for k, v in (
        ("seat", q.seat), ("card", None if q.card is None else card_str(q.card)),
        ("bid", None if q.bid is None else str(q.bid)), ("irregularity", q.irregularity)) if v is not None}
    return Report(situation.file, situation.title, situation.question.kind, KIND_QUESTIONS[situation.question.kind], rulings,
                  _agreement(situation.question.kind, rulings), asked)


def resolve_file(path: str | Path) -> Report:
    """The report of the situation file at ``path``: its ruling under each ruleset it names."""
    return resolve(load_situation(path))


_FACT_WORDS = {
    "scores": "the scores", "question.seat": "the player asked about", "question.card": "the card asked about",
    "dealer": "the dealer", "contract": "the contract", "auction": "the auction's calls", "tricks": "the tricks taken",
    "history": "the finished tricks", "hand": "what became of the hand", "revealed": "the dealer's turned card",
    "contract.trump": "the contract's trump", "bids": "the bids", "trump": "the trump",
}
_SEAT_FACT_WORDS = {"hands": "the cards {p} holds", "voids": "the suits {p} has none of", "bids": "{p}'s bid",
                    "tricks": "the tricks {p} took", "scores": "{p}'s score"}


def missing_words(field: str) -> str:
    """A fact the referee lacks (a situation's field: ``hands.2``, ``deals[1].hand``) in words, players counted 1 to
    4 (``the cards player 3 holds``); the field itself where it has no words here."""
    m = re.fullmatch(r"deals\[(\d+)\]\.(.+)", field)
    if m is not None:
        return f"{missing_words(m.group(2))} of deal {int(m.group(1)) + 1}"
    m = re.fullmatch(r"([a-z_]+)\.(\d)", field)
    if m is not None and m.group(1) in _SEAT_FACT_WORDS:
        return _SEAT_FACT_WORDS[m.group(1)].format(p=player_name(int(m.group(2))))
    return _FACT_WORDS.get(field, field)


def report_json(rep: Report) -> dict[str, Any]:
    """The report as a JSON object: the question, the agreement and each ruleset's ruling."""
    return {
        "numbering": JSON_NUMBERING,
        "file": rep.file, "title": rep.title, "kind": rep.kind, "question": rep.question,
        "agreement": rep.agreement, "headline": headline(rep), "asked": rep.asked,
        "rulings": [{
            "ruleset": x.ruleset, "label": x.label, "name": x.name, "status": x.status, "answer": x.answer,
            "ruling": x.text, "math": math_line(x.math), "math_words": math_words(x.math), "fields": list(x.fields),
            "short": short_lines(x, rep.kind),
            "clauses": [c.to_json() for c in x.clauses],
            "ambiguities": [{
                "id": a.id, "question": a.question, "sources": list(a.sources), "changes_ruling": a.changes_ruling,
                "readings": [{"id": rd.id, "text": rd.text, "taken": rd.taken, "answer": rd.answer,
                              "ruling": rd.ruling} for rd in a.readings],
            } for a in x.ambiguities],
        } for x in rep.rulings],
    }


def short_lines(x: Ruling, kind: str = "") -> list[str]:
    """One to three lines for a ruling: the ruling; the deciding clause with its source, and the arithmetic;
    an ambiguity whose readings rule differently (or, for an irregularity, the documents' silence)."""
    lines = [x.text]
    if x.status != "ruled":
        return lines
    why = []
    if x.clauses:
        c = x.clauses[0]
        why.append(f"{rule_words(c.id)}, from {cite(c.doc, c.heading)}")
    if x.math:
        why.append(math_words(x.math))
    if why:
        lines.append("; ".join(why))
    live = [a for a in x.ambiguities if a.changes_ruling]
    open_ = [a for a in x.ambiguities if not a.changes_ruling and any(r.taken for r in a.readings)
             and any(r.answer is None for r in a.readings)]
    silent = [a for a in x.ambiguities if not a.changes_ruling and all(r.answer is None for r in a.readings)]
    if live:
        lines.append("Ambiguous: " + "; ".join(
            f"{topic_words(a.id)}: {', '.join(f'{r.id}: {short_reading(r, kind)}' for r in a.readings)}" for a in live))
    elif open_:
        lines.append("Ambiguous: " + "; ".join(
            f"{topic_words(a.id)}: this ruling takes {next(r.id for r in a.readings if r.taken)}; under "
            + ", ".join(f"{r.id} ({r.text})" for r in a.readings if r.answer is None) + " it may differ"
            for a in open_))
    elif silent and kind == "irregularity":
        for a in silent:
            lines.append(f"The rule documents are silent on {topic_words(a.id)}; a club can adopt: "
                         + " | ".join(f"{r.id}: {r.text}" for r in a.readings))
    elif silent:
        lines.append("The rule documents are silent: " + "; ".join(
            f"{topic_words(a.id)}, a club can adopt " + " or ".join(f"{r.id} ({r.text})" for r in a.readings)
            for a in silent))
    return lines


def short_reading(r: Reading, kind: str = "") -> str:
    """A reading's answer in a few words ('not computed' when it has none)."""
    if r.answer is None:
        return "not computed"
    return short_answer(kind, r.answer) if kind in KEY_FIELDS else r.ruling.rstrip(".")


def _explain(rep: Report) -> list[str]:
    where = rep.file if rep.file.startswith("(") else f"({rep.file})"  # "(flags)" is bracketed already
    lines = [f"{rep.title} {where}", f"Question: {rep.question}", ""]
    for x in rep.rulings:
        lines.append(f"{x.name}, ruleset {x.label}")
        lines.append(f"  Ruling: {x.text}")
        if x.math:
            lines.append(f"  Arithmetic: {math_words(x.math)}")
        if x.clauses:
            lines.append("  Decided by:")
            for c in x.clauses:
                lines.append(f"    {rule_words(c.id)}: {c.text} [{cite(c.doc, c.heading)}]")
        for a in x.ambiguities:
            if all(rd.answer is None for rd in a.readings) and not any(rd.taken for rd in a.readings):
                lines.append(f"  The rule documents are silent on {topic_words(a.id)}: {a.question}")
                lines.append("    Readings a club can adopt:")
                for rd in a.readings:
                    lines.append(f"    - {rd.id}: {rd.text}")
                continue
            if not a.changes_ruling:
                missing = [rd for rd in a.readings if rd.answer is None]
                if missing:
                    lines.append(f"  Ambiguity, {topic_words(a.id)}: {a.question} (not computed by the engine: "
                                 + "; ".join(f"{rd.id}: {rd.text}" for rd in missing) + ")")
                    continue
                lines.append(f"  Ambiguity, {topic_words(a.id)}, bears on this, but every reading rules the same here.")
                continue
            lines.append(f"  AMBIGUOUS (the readings rule differently): {topic_words(a.id)}: {a.question}")
            for rd in a.readings:
                lines.append(f"    - {rd.id}{' (taken)' if rd.taken else ''}: {rd.ruling}")
        lines.append("")
    if rep.agreement:
        lines.append(rep.agreement)
    return lines


def report_text(rep: Report, explain: bool = False) -> str:
    """The report for people: short by default (one to three lines for one ruleset; with several, one line
    each and where they disagree), the whole chain of clauses and every reading with ``explain``."""
    if explain:
        return "\n".join(_explain(rep)).rstrip() + "\n"
    lines = [f"{rep.question} ({rep.title})"]
    if len(rep.rulings) == 1:
        x = rep.rulings[0]
        body = short_lines(x, rep.kind)
        lines.append(f"{x.name}, ruleset {x.label}: {body[0]}")
        lines += ["  " + ln for ln in body[1:]]
        return "\n".join(lines) + "\n"
    silent: dict[str, AmbiguityFlag] = {}
    for x in rep.rulings:
        why = ""
        if x.status == "ruled" and x.clauses and rule_words(x.clauses[0].id) not in x.text:
            why = f" [{rule_words(x.clauses[0].id)}" + (f"; {math_words(x.math)}" if x.math else "") + "]"
        elif x.math:
            why = f" [{math_words(x.math)}]"
        amb = [topic_words(a.id) for a in x.ambiguities if a.changes_ruling or (
            any(r.taken for r in a.readings) and any(r.answer is None for r in a.readings))]
        lines.append(f"{x.name}, ruleset {x.label}: {x.text}{why}" + (f"; ambiguous: {'; '.join(amb)}" if amb else ""))
        for a in x.ambiguities:
            if all(rd.answer is None and not rd.taken for rd in a.readings):
                silent[a.id] = a
    for a in silent.values():
        if rep.kind == "irregularity":
            lines.append(f"The rule documents are silent on {topic_words(a.id)}; a club can adopt:")
            lines += [f"  - {rd.id}: {rd.text}" for rd in a.readings]
        else:
            lines.append(f"The rule documents are silent on {topic_words(a.id)}; a club can adopt: "
                         + "; or ".join(f"{rd.id} ({rd.text})" for rd in a.readings))
    if rep.agreement:
        lines.append(rep.agreement)
    return "\n".join(lines) + "\n"


def matches_expected(rep: Report, expected: dict[str, dict[str, Any]]) -> list[str]:
    """Differences between a report and hand-written expected answers (label -> answer fields)."""
    by_label = {x.ruleset: x for x in rep.rulings} | {x.label: x for x in rep.rulings}
    problems = []
    for label, want in expected.items():
        x = by_label.get(label)
        if x is None:
            problems.append(f"{label}: no ruling under this ruleset")
            continue
        status = want.get("status", "ruled")
        if x.status != status:
            problems.append(f"{label}: status {x.status}, expected {status} ({x.text})")
            continue
        for k, v in want.items():
            if v == "none":  # TOML has no null: "none" stands for no value (no winner, no trump)
                v = None
            if k != "status" and x.answer.get(k) != v:
                problems.append(f"{label}: {k} = {x.answer.get(k)!r}, expected {v!r} ({x.text})")
    return problems


__all__ = [
    "AMBIGUITY_READINGS", "AmbiguityFlag", "KEY_FIELDS", "Reading", "Report", "Ruling", "matches_expected",
    "report_json", "report_text", "resolve", "resolve_file", "rule_one", "short_answer", "short_lines",
]
