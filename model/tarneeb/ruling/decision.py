"""Deciding one question of a situation under one ruleset: :func:`decide` gives a :class:`Decision`.

Every rule is the transition's (:func:`tarneeb.core.transition.step`): the facts are built into a state -- the match
at the stated dealer and scores, the bids, calls or cards stepped from it, the play part-way from the hands and the
trick (:mod:`tarneeb.ruling.steps`) -- and the action the question asks about is stepped; the answer is the state
after, the events (who won the trick, the score, the outcome, the next dealer) or the clause of a refusal. Where the
facts leave cards unknown, every completion of them is stepped and a ruling is given only when they agree. The
clause cited comes from :mod:`tarneeb.core.clauses`; the numbers a ruling shows (a bid total, a comparison with the
target) from :mod:`tarneeb.core.rules`. What is left here is the referee's own work: which facts a question needs
(:class:`~tarneeb.ruling.situation.Missing` when one is not given), whether the facts fit the ruleset's family
(:class:`~tarneeb.ruling.situation.NotApplicable`), the checks of stated facts against the ruleset, and the
wording of the ruling.

The work is split by what is decided, each module importing only those below it:

* :mod:`tarneeb.ruling.verdict` -- :class:`Decision`, :class:`ClauseRef` and the words every decision uses;
* :mod:`tarneeb.ruling.steps` -- the states built from facts, and the steps taken;
* :mod:`tarneeb.ruling.facts` -- the facts a question needs and their checks against the ruleset;
* :mod:`tarneeb.ruling.tricks` -- trump, a card's legality, a trick's winner;
* :mod:`tarneeb.ruling.bidding` -- a bid's legality, a cancelled deal, the next dealer;
* :mod:`tarneeb.ruling.scoring` -- a hand's score and the outcome;
* :mod:`tarneeb.ruling.turns` -- turn order, sequences of deals, one seat's score, irregularities;
* this module -- :func:`decide`, which checks the facts every question shares and picks the decider of the kind.
"""

from __future__ import annotations

from collections.abc import Callable

from tarneeb.core.spec import Rules
from tarneeb.ruling.bidding import decide_bid, decide_next_dealer, decide_redeal
from tarneeb.ruling.facts import check_history, check_stated_trump, family_check
from tarneeb.ruling.scoring import ScoreChanges, check_score_change, decide_score, decide_winner
from tarneeb.ruling.situation import Situation
from tarneeb.ruling.tricks import decide_card, decide_trick, decide_trump
from tarneeb.ruling.turns import DECIDERS as TURN_DECIDERS
from tarneeb.ruling.turns import decide_deal_sequence, decide_seat_score
from tarneeb.ruling.verdict import ClauseRef, Decision, clause_refs, fmt_delta, team_name


def _decider(kind: str) -> Callable[[Rules, Situation], Decision]:
    """The function that decides question ``kind``. The table is made at each call, so that it holds the functions
    the modules hold then (a mutant of ``tarneeb_proofs.mutants`` replaces a module's functions while it runs)."""
    deciders: dict[str, Callable[[Rules, Situation], Decision]] = {
        "card-legal": decide_card, "trick-winner": decide_trick, "bid-legal": decide_bid,
        "redeal": decide_redeal, "score": decide_score, "winner": decide_winner,
        "next-dealer": decide_next_dealer, "trump": decide_trump, **TURN_DECIDERS,
    }
    return deciders[kind]


def decide(kind: str, rules: Rules, situation: Situation, changes: ScoreChanges | None = None) -> Decision:
    """The engine's ruling on question ``kind`` under ``rules`` (raises on missing or contradictory facts).

    ``changes``: the score changes one hand can make under the same rules object, for a caller that rules several
    situations under it (found on first use and kept there); made for this call when not given."""
    if situation.trump is not None:
        check_stated_trump(rules, situation)
    if situation.history:
        check_history(rules, situation)
    if kind == "score" and situation.question.seat is not None:
        return decide_seat_score(rules, situation)
    if kind in ("score", "winner"):
        family_check(rules, situation, uses_bids=True)
        check_score_change(rules, situation, changes)
    if kind == "next-dealer" and situation.deals:
        return decide_deal_sequence(rules, situation)
    return _decider(kind)(rules, situation)


__all__ = ["ClauseRef", "Decision", "ScoreChanges", "clause_refs", "decide", "fmt_delta", "team_name"]
