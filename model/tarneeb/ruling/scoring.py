"""Scoring and the outcome: the question kinds ``score`` and ``winner``, and the check that a stated score change
is one a hand can make (:class:`ScoreChanges`: the changes core's scoring gives over every contract or bid and
every split of the tricks).

Every rule is the transition's, stepped from the facts (:mod:`tarneeb.ruling.steps`): the stated bids or the
contract's auction stepped from a deal at the stated scores (a bid the transition refuses, a deal it cancels, is a
contradiction), and the hand's end after the stated tricks, whose events give the score changes (Scored) and the
outcome (Decided). With no hand to step, the outcome at the stated scores is core's single decision
(:func:`tarneeb.core.rules.auction_outcome`, :func:`tarneeb.core.rules.individual_outcome`); the comparisons a ruling
shows are core's too (:func:`tarneeb.core.rules.qualification`, :func:`tarneeb.core.rules.tie_keys`,
:func:`tarneeb.core.rules.target_reached`). The score changes one hand can make (:class:`ScoreChanges`) are core's
:func:`tarneeb.core.hand.hand_deltas` over every contract and split of the tricks. What is left here is the
arithmetic as the ruling states it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from typing import Any

import tarneeb.ruling.steps as steps
from tarneeb.core import clauses as core_clauses
from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core import transition
from tarneeb.core.actions import Bid
from tarneeb.core.cards import STRAINS, per_player, per_team, player_name, team_label
from tarneeb.core.spec import Rules
from tarneeb.core.state import Cancelled, Decided, Event, Playing, Scored
from tarneeb.errors import IllegalAction
from tarneeb.ruling.arithmetic import NONE, Math, math
from tarneeb.ruling.facts import (
    all_bids,
    check_individual_bids,
    contract_of,
    family_check,
    opened,
    outcome_scores,
    stated_bids,
    total_scores,
)
from tarneeb.ruling.situation import Missing, Situation
from tarneeb.ruling.verdict import Decision, fmt_delta, team_name

# ------------------------------------------------------------------ a hand's score


def _hand_tricks(situation: Situation) -> list[int]:
    if situation.tricks is None:
        raise Missing("tricks", "the tricks each player took are needed")
    if sum(situation.tricks) != 13:
        raise Missing("tricks", f"only {sum(situation.tricks)} of 13 tricks are accounted for; the hand is scored after "
                                "all 13")
    return situation.tricks


class Hand:
    """A played hand stepped to its end: the score changes by seat and the scores after it (Scored), the outcome
    (Decided: the winning team or None, and the clause)."""

    def __init__(self, events: tuple[Event, ...]) -> None:
        scored = next(e for e in events if type(e) is Scored)
        decided = next(e for e in events if type(e) is Decided)
        self.deltas = list(scored.deltas)
        self.scores = list(scored.scores)
        self.winner = decided.winner
        self.rule = decided.clause


def _team_table(situation: Situation) -> list[int] | None:
    """The seat scores of the table a team hand is played at: each team score carried by both partners."""
    if situation.scores is None:
        return None
    before = situation.scores
    return [before[0], before[1], before[0], before[1]]


def _auction_hand(rules: Rules, situation: Situation, tricks: list[int]) -> Hand:
    """The contract's hand stepped (:func:`tarneeb.ruling.steps.start_of_play`: an auction its holder wins at its bid,
    from a deal by the stated dealer, any where none is stated) to its end after ``tricks`` at the stated scores."""
    contract = contract_of(situation)
    if contract is None:
        raise Missing("contract", "the contract (its player and bid) decides the score")
    bad = _contract_range(rules, situation, contract[1])
    if bad is not None:
        raise situation.err(["contract.bid"], f"{contract[1]} is not a possible contract under {rules.label()} "
                                              f"({bad[1]}) [{bad[0]}]")
    try:
        state, _ = steps.start_of_play(rules, situation.dealer or 0, _team_table(situation), contract[2], contract)
    except IllegalAction as e:
        raise situation.err(["contract", "scores"], f"under {rules.label()} no hand is played in this contract at these "
                                                    f"scores: {e.reason} [{e.rule}]") from None
    if type(state) is not Playing:
        raise RuntimeError("the contract's auction did not reach the play")
    return Hand(steps.hand_end(rules, state.start, tricks))


def _contract_range(rules: Rules, situation: Situation, n: int) -> tuple[str, str] | None:
    """The transition's refusal of ``n`` tricks as the opening call of an auction (auction.range), None when it takes
    it; the strain is left aside (a suit where bids name one: the contract's trump may be the suit named after)."""
    state = opened(rules, situation, None, 0)[0]
    try:
        transition.step(rules, state, Bid(n, 0 if rules.egyptian else None))
    except IllegalAction as e:
        return e.rule, e.reason
    return None


def _individual_hand(rules: Rules, situation: Situation) -> tuple[list[int], Hand]:
    """The stated bids stepped in turn from a deal by the stated dealer (any, where none is stated) at the stated
    scores, then the hand to its end after the stated tricks: (the bids, the hand). A deal the bids cancel is a
    contradiction."""
    bids = all_bids(situation)
    check_individual_bids(rules, situation)
    scores = total_scores(rules, situation)
    state, events = steps.in_turn(rules, opened(rules, situation, scores)[0], stated_bids(situation))
    if any(type(e) is Cancelled for e in events):
        total, minimum = core_rules.bid_total(rules, bids, scores)
        raise situation.err(["bids", "tricks"], f"the bids total {total}, below {minimum}: under {rules.label()} the "
                                                f"hand is not played, so no tricks are taken [bid.total]")
    tricks = _hand_tricks(situation)
    if type(state) is not Playing:
        raise RuntimeError("four bids that neither cancel the deal nor start the play")
    return bids, Hand(steps.hand_end(rules, state.start, tricks))


def _check_after(rules: Rules, situation: Situation, after: list[int]) -> None:
    if situation.scores_after is None or not after:
        return
    given = situation.scores_after if rules.individual or len(situation.scores_after) == 2 else situation.scores_after[:2]
    for k, (a, b) in enumerate(zip(given, after, strict=True)):
        if a != b:
            raise situation.err(["scores_after", "scores", "bids", "tricks"],
                                f"under {rules.label()} the hand leaves "
                                f"{player_name(k) if rules.individual else team_label(k)} on {b}, not {a}")


def decide_score(rules: Rules, situation: Situation) -> Decision:
    """Question ``score``: the score changes of the hand (each seat's, or the two teams') and the scores after it."""
    family_check(rules, situation, uses_bids=True)
    before = situation.scores or [0, 0, 0, 0]
    if rules.individual:
        bids, hand = _individual_hand(rules, situation)
        deltas = hand.deltas
        after = hand.scores if len(before) == 4 else []
        _check_after(rules, situation, after)
        parts = [f"{player_name(k)} bid {bids[k]}, took {situation.tricks[k] if situation.tricks else 0}: {fmt_delta(deltas[k])}"
                 for k in range(4)]
        arith = math("changes", before=tuple(before), deltas=tuple(deltas), after=tuple(after)) if after else NONE
        return Decision({"deltas": deltas, "scores": after, "bids": bids, "tricks": list(situation.tricks or [0] * 4)},
                        "; ".join(parts) + ".", core_clauses.score_ruling_clauses(rules),
                        arith)
    tricks = _hand_tricks(situation)
    played = _auction_hand(rules, situation, tricks)
    d0, d1 = played.deltas[0], played.deltas[1]
    after2 = played.scores[:2]
    _check_after(rules, situation, after2)
    if situation.contract is None:
        raise RuntimeError("a contract's score without a contract")
    bt = core_rules.team_of(situation.contract.seat)
    took = core_rules.team_tricks(tricks)[bt]
    made = core_rules.bid_made(situation.contract.bid, took)
    arith = math("contract-score", team=bt, took=took, bid=situation.contract.bid, made=made,
                 before=(before[0], before[1]), deltas=(d0, d1), after=(after2[0], after2[1]))
    return Decision({"deltas": [d0, d1, d0, d1], "scores": after2,
                     "contract": {"seat": situation.contract.seat, "bid": situation.contract.bid}, "took": took},
                    f"Contract {situation.contract.bid} by {player_name(situation.contract.seat)}: {team_label(0)} {fmt_delta(d0)}, "
                    f"{team_label(1)} {fmt_delta(d1)}.",
                    tuple(dict.fromkeys((core_clauses.score_clause(rules, contract_of(situation), tricks),
                                         *core_clauses.score_ruling_clauses(rules)))),
                    arith)


# ------------------------------------------------------------------ a score change one hand can make


def _splits() -> Iterator[tuple[int, int, int, int]]:
    """Every split of a hand's 13 tricks among the four seats (560 of them)."""
    for a in range(14):
        for b in range(14 - a):
            for c in range(14 - a - b):
                yield a, b, c, 13 - a - b - c


class ScoreChanges:
    """Every score change one hand can make under one :class:`Rules` object, as core scores it: core's
    :func:`tarneeb.core.hand.hand_deltas` over every contract (:meth:`contracts`) and every split of the 13 tricks
    among the seats, for the auction family; :func:`tarneeb.core.rules.individual_delta` of a bid over every number
    of tricks a seat can take, for individual bids (which bids a seat may make is core's
    :func:`tarneeb.core.rules.legal_bids`).

    Each set is made the first time it is asked for and kept on this object, so a caller that rules several
    situations under one rules object makes one of these and passes it along (:func:`check_score_change`,
    :func:`tarneeb.ruling.decision.decide`); it goes with the caller, and nothing is kept between callers."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._seats: frozenset[tuple[int, ...]] | None = None
        self._teams: dict[tuple[int, int], tuple[int, ...]] = {}
        self._bids: dict[int, frozenset[int]] = {}

    def contracts(self) -> list[tuple[int, int, int | None]]:
        """Auction family: every contract (seat, tricks, strain) a hand can be played at: a call core lets the seat
        make with no bid before it, as the first call or as a dealer who speaks after three passes, whoever deals;
        every strain is tried, and none (core refuses a strain where bids name none, and no strain where they name
        one)."""
        out = []
        for seat in range(4):
            for n in range(14):
                for strain in (None, *range(len(STRAINS))):
                    if any(core_rules.auction_bid_violation(self.rules, dealer, seat, None, passes, n, strain) is None
                           for dealer in range(4) for passes in (0, 3)):
                        out.append((seat, n, strain))
        return out

    def seats(self) -> frozenset[tuple[int, ...]]:
        """Auction family: every change of the four seats' scores (players 1 to 4) one hand can make."""
        if self._seats is None:
            splits = list(_splits())
            self._seats = frozenset(tuple(core_hand.hand_deltas(self.rules, (0, 0, 0, 0), contract, split))
                                    for contract in self.contracts() for split in splits)
            self._teams = {(d[0], d[1]): d for d in sorted(self._seats)}
        return self._seats

    def teams(self) -> dict[tuple[int, int], tuple[int, ...]]:
        """Auction family: every (team 1's change, team 2's change) one hand can make, those of players 1 and 2, each
        with a change of the four seats' scores that gives it."""
        self.seats()
        return self._teams

    def bid(self, bid: int) -> frozenset[int]:
        """Individual bids: every change of the score of a seat that bid ``bid``, whatever it took."""
        if bid not in self._bids:
            self._bids[bid] = frozenset(core_rules.individual_delta(self.rules, bid, t) for t in range(14))
        return self._bids[bid]

    def seat(self, score: int, bid: int | None) -> frozenset[int]:
        """Individual bids: every change of the score of a seat on ``score`` before the hand that bid ``bid`` (None:
        any bid core lets it make on that score)."""
        bids = [bid] if bid is not None else core_rules.legal_bids(self.rules, score)
        return frozenset(d for b in bids for d in self.bid(b))


def check_score_change(rules: Rules, situation: Situation, changes: ScoreChanges | None = None) -> None:
    """scores -> scores_after must be a change one hand can make under ``rules`` (``changes``: the changes
    :class:`ScoreChanges` finds for the same rules object, made here when not given)."""
    if situation.scores is None or situation.scores_after is None:
        return
    if changes is None:
        changes = ScoreChanges(rules)
    elif changes.rules is not rules:
        raise ValueError("the score changes given were found for another rules object")
    if rules.individual:
        if len(situation.scores) != 4:
            return
        for seat in range(4):
            stated = situation.bids[seat] if situation.bids is not None else None
            possible = changes.seat(situation.scores[seat], stated)
            d = situation.scores_after[seat] - situation.scores[seat]
            if d not in possible:
                vals = sorted({abs(v) for v in possible})
                raise situation.err([f"scores.{seat}", f"scores_after.{seat}"] + (["bids"] if situation.bids else []),
                                    f"{player_name(seat)} goes from {situation.scores[seat]} to {situation.scores_after[seat]} "
                                    f"({fmt_delta(d)}), which no hand can do under {rules.label()}: a hand adds or "
                                    f"takes away the bid's value, one of {vals} [score.values]")
        return
    t0, t1 = (situation.scores[0], situation.scores[1])
    a0, a1 = (situation.scores_after[0], situation.scores_after[1])
    if (a0 - t0, a1 - t1) not in changes.teams():
        raise situation.err(["scores", "scores_after"],
                            f"team changes ({fmt_delta(a0 - t0)}, {fmt_delta(a1 - t1)}) cannot come from one hand under "
                            f"{rules.label()} [score.standard]")
    by_seat = tuple(a - b for a, b in zip(situation.scores_after, situation.scores, strict=True))
    if len(by_seat) == 4 and by_seat not in changes.seats():  # each player's score given: the partners' too
        like = changes.teams()[(a0 - t0, a1 - t1)]
        raise situation.err(["scores", "scores_after"],
                            f"players 1 to 4 change by ({', '.join(fmt_delta(d) for d in by_seat)}), which no hand "
                            f"gives under {rules.label()}; a hand that changes team 1 by {fmt_delta(a0 - t0)} and team 2 "
                            f"by {fmt_delta(a1 - t1)} changes them by ({', '.join(fmt_delta(d) for d in like)}) "
                            f"[score.standard]")


# ------------------------------------------------------------------ the outcome


def _first_target(rules: Rules) -> int:
    """The target in force at a match's first game (the table of :func:`tarneeb.core.transition.part_way`): the
    situation is of a first game."""
    return transition.part_way(rules, 0).table.target


def _decide_winner_individual(rules: Rules, situation: Situation) -> Decision:
    target = _first_target(rules)
    rt = rules if target == rules.target else dataclasses.replace(rules, target=target)  # as H.hand_outcome judges at a target
    bids: list[int] | None = None
    if situation.bids is not None and situation.tricks is not None:
        bids, hand = _individual_hand(rules, situation)
        if situation.scores is None:
            raise Missing("scores", "the scores before the hand are needed")
        after = hand.scores
        _check_after(rules, situation, after)
        win, rule = hand.winner, hand.rule
    else:
        after = outcome_scores(situation) or []
        if len(after) != 4:
            raise Missing("scores", "each player's score is needed")
        win, rule = core_rules.individual_outcome(rt, after)
    standing = f"scores: {per_player(after)}"
    chain: tuple[str, ...] = (rule,) + tuple(c for c in ("win.target", "win.qualify", "tie.both-qualify")
                                             if c != rule)
    if rule == "win.made-bid":
        if bids is None or situation.tricks is None:
            raise RuntimeError("a made-bid win without the bids and tricks")
        seat = core_rules.made_bid_winner(rules, bids, situation.tricks, after)
        if seat is None:
            raise RuntimeError("a made-bid win with no seat that made its bid")
        return Decision({"winner": win, "clause": rule, "reason": "made-bid", "bidder": seat,
                         "bid": bids[seat], "scores": list(after)},
                        f"{player_name(seat, True)} bid {bids[seat]} and made it: {team_name(win or 0)} wins at once "
                        f"({standing}).", chain)
    q0 = core_rules.team_qualifies(rt, after[0], after[2])
    q1 = core_rules.team_qualifies(rt, after[1], after[3])
    arith = _winner_math(rt, after, q0, q1)
    answer: dict[str, Any] = {"winner": win, "clause": rule, "scores": list(after), "target": target}
    if win is not None and rule == "tie.both-qualify":
        how = "combined score" if rules.tie_rule == "combined" else "top score"
        text = f"Both teams qualify; {team_name(win)} wins on the higher {how} ({standing})."
        answer.update(reason="higher", tie=rules.tie_rule)
    elif win is not None:
        text = f"{team_name(win)} qualifies and wins ({standing})."
        answer.update(reason="qualifies")
    elif q0 and q1:
        how = "combined scores" if rules.tie_rule == "combined" else "top scores"
        text = f"Both teams qualify with equal {how}: no winner yet, another hand is played ({standing})."
        answer.update(reason="equal", tie=rules.tie_rule)
    else:
        text = (f"No team has won: none has one partner at {target} or more with the other above zero "
                f"({standing}); another hand is played.")
        answer.update(reason="none-qualifies")
    return Decision(answer, text, chain, arith)


def _winner_math(rules: Rules, sc: Sequence[int], q0: bool, q1: bool) -> Math:
    """The comparison behind an individual-family outcome, e.g. "combined 45+10 = 55 = 42+13 = 55": the
    comparisons :func:`tarneeb.core.rules.qualification` makes (those of the higher partner: one partner at the
    target, the other above zero) and the keys of :func:`tarneeb.core.rules.tie_keys`."""
    def team(t: int, q: bool) -> tuple[int, bool, int, bool, bool]:
        a, b = sc[t], sc[core_rules.partner(t)]
        a_at, b_above, b_at, a_above = core_rules.qualification(rules, a, b)
        hi, lo, at, above = (a, b, a_at, b_above) if a >= b else (b, a, b_at, a_above)
        return hi, at, lo, above, q
    if q0 and q1:
        keys = core_rules.tie_keys(rules, sc)
        return math("combined" if rules.tie_rule == "combined" else "top", scores=tuple(sc), keys=tuple(keys))
    return math("qualify", teams=(team(0, q0), team(1, q1)), target=rules.target)


def decide_winner(rules: Rules, situation: Situation) -> Decision:
    """Question ``winner``: has a team won, after the hand when its bids (or contract) and tricks are given, else at
    the scores stated."""
    family_check(rules, situation, uses_bids=situation.bids is not None or situation.contract is not None)
    if rules.individual:
        return _decide_winner_individual(rules, situation)
    target = _first_target(rules)
    contract = contract_of(situation)
    if contract is not None and situation.tricks is not None:
        tricks = _hand_tricks(situation)
        played = _auction_hand(rules, situation, tricks)
        if situation.scores is None:
            raise Missing("scores", "the team scores before the hand are needed")
        after2 = (played.scores[0], played.scores[1])
        _check_after(rules, situation, list(after2))
        win, rule = played.winner, played.rule
    else:
        sc = outcome_scores(situation)
        if sc is None:
            raise Missing("scores", "the team scores are needed")
        after2 = (sc[0], sc[1])
        if contract is None and all(core_rules.target_reached(after2, target)):
            raise Missing("contract", "both teams reached the target; the bidding team decides")
        bt = core_rules.team_of(contract[0]) if contract is not None else 0
        win, rule = core_rules.auction_outcome(rules, after2, target, bt, False)
    chain = (rule,) + tuple(c for c in ("win.target", "tie.both-qualify", "score.bid13") if c != rule)
    reached = core_rules.target_reached(after2, target)  # the comparisons R.auction_outcome makes
    arith = math("reached", scores=(after2[0], after2[1]), reached=(reached[0], reached[1]), target=target)
    answer: dict[str, Any] = {"winner": win, "clause": rule, "scores": list(after2), "target": target}
    if win is None:
        text = f"No team has reached {target} (scores: {per_team(after2)}): play goes on."
        answer.update(reason="none-reached")
    elif rule == "score.bid13":
        text = f"{team_name(win)} bid 13 and took every trick: it wins on the spot."
        answer.update(reason="bid13")
    elif rule == "tie.both-qualify":
        text = f"Both teams reached {target}: the bidding team, {team_name(win)}, wins."
        answer.update(reason="bidding-team")
    else:
        text = f"{team_name(win)} reached {target} and wins (scores: {per_team(after2)})."
        answer.update(reason="reached")
    return Decision(answer, text, chain, arith)


__all__ = ["ScoreChanges", "check_score_change", "decide_score", "decide_winner"]
