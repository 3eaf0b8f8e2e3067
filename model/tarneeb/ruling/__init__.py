"""Dispute resolution: settle "what happens now?" from a situation file.

A *situation* (TOML or JSON, schema ``spec/disputes/schema.json``) states the
facts the players agree on (dealer, scores, hands or the relevant cards, bids,
tricks taken, the trick in progress) and one question. :func:`resolve` answers
the question under each ruleset asked, with

* the ruling, computed by the rule core (:mod:`tarneeb.core.rules`,
  :mod:`tarneeb.core.hand`, and :class:`tarneeb.Match` for auctions, built with
  :meth:`~tarneeb.core.match.Match.at`); nothing here restates a rule,
* the chain of clauses that decide it (chosen in :mod:`tarneeb.core.clauses`;
  id, our wording, source document and heading, from
  :attr:`tarneeb.core.spec.Ruleset.clauses`),
* a flag for each point of the ambiguity register that bears on the ruling,
  with the ruling under each reading (computed by the engine on the ruleset's
  parameters adjusted to that reading, or marked as not modelled),
* with several rulesets, a line saying where they disagree.

Question kinds (``question.kind``): ``card-legal``, ``trick-winner``,
``bid-legal``, ``redeal``, ``score``, ``winner``, ``next-dealer``, ``trump``.

Contradictory facts (a card in two hands, too many cards, a trick holding a
card already played, a score change the ruleset's values cannot produce, ...)
raise :class:`SituationError` naming the file and the fields in conflict.
Missing facts raise it too when the ruleset was asked for by name; under
``ruleset = "all"`` a ruleset whose facts are missing is reported as
undecided, and one whose family the facts do not fit (individual bids against
an auction ruleset) as not applicable.

The package is split by concern:

* :mod:`tarneeb.ruling.situation` -- the situation file: parsing, checking, :class:`Situation`, the errors;
* :mod:`tarneeb.ruling.decision` -- deciding each question kind under one ruleset (:func:`decide`);
* :mod:`tarneeb.ruling.readings` -- the ambiguity readings, the ruling per ruleset, the report.
"""

from __future__ import annotations

from tarneeb.ruling.decision import ClauseRef, Decision, decide
from tarneeb.ruling.readings import (
    AMBIGUITY_READINGS,
    KEY_FIELDS,
    AmbiguityFlag,
    Reading,
    Report,
    Ruling,
    matches_expected,
    report_json,
    report_text,
    resolve,
    resolve_file,
    rule_one,
    short_answer,
)
from tarneeb.ruling.situation import (
    KIND_QUESTIONS,
    KINDS,
    Contract,
    Question,
    Situation,
    SituationError,
    TrickInProgress,
    load_situation,
    parse_situation,
)

__all__ = [
    "AMBIGUITY_READINGS", "AmbiguityFlag", "ClauseRef", "Contract", "Decision", "KEY_FIELDS", "KINDS",
    "KIND_QUESTIONS", "Question", "Reading", "Report", "Ruling", "Situation", "SituationError", "TrickInProgress",
    "decide", "load_situation", "matches_expected", "parse_situation", "report_json", "report_text", "resolve",
    "resolve_file", "rule_one", "short_answer",
]
