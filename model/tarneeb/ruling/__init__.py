"""Dispute resolution: settle "what happens now?" from a situation file.

A *situation* (TOML or JSON, schema ``spec/disputes/schema.json``) states the
facts the players agree on (dealer, scores, hands or the relevant cards, bids,
tricks taken, the trick in progress) and one question. :func:`resolve` answers
the question under each ruleset asked, with

* the ruling, read from the one transition of a match
  (:func:`tarneeb.core.transition.step`): the facts are built into a state and
  the action asked about is stepped (:mod:`tarneeb.ruling.steps`); where they
  leave cards unknown, every completion of them is stepped; nothing here
  restates a rule or orders a hand's steps,
* the chain of clauses that decide it (chosen in :mod:`tarneeb.core.clauses`;
  id, our wording, source document and heading, from
  :attr:`tarneeb.core.spec.Ruleset.clauses`),
* a flag for each point of the ambiguity register that bears on the ruling,
  with the ruling under each reading (computed by the engine on the ruleset's
  parameters adjusted to that reading, or marked as not modelled),
* with several rulesets, a line saying where they disagree.

Question kinds (``question.kind``): ``card-legal``, ``trick-winner``,
``bid-legal``, ``redeal``, ``score``, ``winner``, ``next-dealer``, ``trump``,
``who-leads``, ``whose-turn``, ``irregularity`` (revoke, bid or lead out of
turn, exposed card, misdeal, wrong card count: the clause broken, then the
readings a club can adopt, since no rule document states a remedy).

Turn order is checked everywhere: a lead by the wrong seat (``play.lead`` /
``play.next-lead``), a card out of the direction of play, a bid out of the
bidding order (``bid.turn``, ``auction.order``) are ruled not legal, citing the
clause.

**Stable entry point for programs** (the web page, other tools)::

    rule_dict(situation: dict, rulesets: list[str] | str | None = None,
              lang: str = "en", explain: bool = False) -> dict

``situation`` is a situation table as in a file (``ruleset`` may be left out);
``rulesets`` overrides it (``"all"`` or a list of ids; ``None`` keeps the
situation's, else the club default, else all). The result is
:func:`report_json`'s dictionary plus ``"text"`` (the report for people in
``lang``, ``"en"`` or ``"ar"``; short, or the whole chain with ``explain``) and ``"headline"`` (the answer in
one sentence, in ``lang``; empty when no ruleset rules). Bad
or contradictory input raises :class:`SituationError` (``.file``, ``.fields``,
the message). The keys of :func:`report_json` are only ever added to.

Each ruling in :func:`report_json` has ``status`` (``ruled``, ``not-applicable``,
``undecided``, ``contradiction``: the facts contradict that ruleset alone,
``fields`` names them), ``answer``, ``ruling`` (one sentence), ``math`` (the
arithmetic, e.g. ``combined 41+10 = 51, 50+1 = 51: 51 = 51``), ``short`` (the one to
three lines printed by default), ``clauses`` (deciding clause first) and
``ambiguities``; with ``lang="ar"``, :func:`rule_dict` adds ``ruling_ar`` (the same
ruling as one Arabic sentence, players counted 1 to 4), ``ruling_ar_several`` (the same
said of several rulesets that rule alike: «هذه القوانين» is said of one and of several), ``math_ar``
(its arithmetic in Arabic) and, on each reading the engine rules, ``ruling_ar`` and
``ruling_ar_several``.

Contradictory facts (a card in two hands, too many cards, a trick holding a
card already played, a score change the ruleset's values cannot produce, ...)
raise :class:`SituationError` naming the file and the fields in conflict.
Missing facts raise it too when the ruleset was asked for by name; under
``ruleset = "all"`` a ruleset whose facts are missing is reported as
undecided, and one whose family the facts do not fit (individual bids against
an auction ruleset) as not applicable.

The package is split by concern:

* :mod:`tarneeb.ruling.situation` -- the situation file: parsing, checking, :class:`Situation`, the errors;
* :mod:`tarneeb.ruling.decision` -- deciding each question kind under one ruleset (:func:`decide`), over
  :mod:`~tarneeb.ruling.verdict` (the decision and its words), :mod:`~tarneeb.ruling.steps` (the states built from
  facts and the steps taken), :mod:`~tarneeb.ruling.facts` (the facts a question needs, checked),
  :mod:`~tarneeb.ruling.tricks`, :mod:`~tarneeb.ruling.bidding`, :mod:`~tarneeb.ruling.scoring` and
  :mod:`~tarneeb.ruling.turns` (turn order, sequences of deals, one seat's score, irregularities);
* :mod:`tarneeb.ruling.readings` -- the ambiguity readings, the ruling per ruleset, the report;
* :mod:`tarneeb.ruling.inputs` -- situations from flags, from a game record, and the club default ruleset;
* :mod:`tarneeb.ruling.arabic` -- the report in Arabic.
"""

from __future__ import annotations

from typing import Any

from tarneeb.errors import echo
from tarneeb.ruling.decision import decide
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
    short_lines,
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
from tarneeb.ruling.verdict import ClauseRef, Decision

__all__ = [
    "AMBIGUITY_READINGS", "AmbiguityFlag", "ClauseRef", "Contract", "Decision", "KEY_FIELDS", "KINDS",
    "KIND_QUESTIONS", "Question", "Reading", "Report", "Ruling", "Situation", "SituationError", "TrickInProgress",
    "decide", "load_situation", "matches_expected", "parse_situation", "report_json", "report_text", "resolve",
    "resolve_file", "rule_dict", "rule_one", "short_answer", "short_lines",
]


def rule_dict(situation: dict[str, Any], rulesets: list[str] | str | None = None, lang: str = "en",
              explain: bool = False, name: str = "(situation)") -> dict[str, Any]:
    """Rule on a situation table; JSON-ready (see the module docstring). Raises :class:`SituationError` located in
    ``name`` (the file or form the table came from)."""
    from tarneeb.ruling.inputs import with_rulesets

    if lang not in ("en", "ar"):
        raise SituationError(name, ["lang"], f"{echo(lang)}; valid: en, ar")
    rep = resolve(parse_situation(with_rulesets(situation, rulesets), name))
    out = report_json(rep)
    if lang == "ar":
        from tarneeb.ruling.arabic import add_sentences, headline_ar, report_text_ar

        out["text"] = report_text_ar(rep, explain)
        out["headline"] = headline_ar(rep)
        add_sentences(out, rep)  # each ruling's sentence in Arabic too
    else:
        out["text"] = report_text(rep, explain)
    out["lang"] = lang
    return out
