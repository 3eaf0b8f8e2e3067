"""The referee's answers, read from the transition it steps, are what a match played under every ruleset, option
value and selectable reading of the spec does: whose turn to bid or play, who leads, who wins each trick, whether a
deal is cancelled and who deals next, the score and the outcome of a played hand, whether the seat to move may
play each card of its hand.

The match is stepped by :class:`tarneeb.Match` with random legal actions; the referee is given the facts a table
would state (the dealer, the bids or calls, the tricks, the trick in progress) and never the match.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.spec_variants import IDS, VARIANTS, variant_rules

from tarneeb import Match
from tarneeb.core.actions import Bid, Deal, Play
from tarneeb.core.cards import STRAINS, card_str
from tarneeb.core.match import HandRecord, Phase, random_deck
from tarneeb.core.spec import Rules
from tarneeb.ruling import parse_situation
from tarneeb.ruling.decision import decide
from tarneeb.ruling.situation import rules_for


def _ask(rid: str, options: dict[str, Any], readings: dict[str, str], raw: dict[str, Any],
         built: dict[tuple[str, ...], Rules]) -> dict[str, Any]:
    """The referee's answer to the situation ``raw`` under the variant. The rules the situation asks for
    (:func:`rules_for`: the ruleset, options and readings, the same in every situation of a test) are built for the
    test's first situation and kept in ``built``, by the situation's readings."""
    s = parse_situation({"ruleset": rid, **({"options": {rid: options}} if options else {}),
                         **({"readings": readings} if readings else {}), **raw}, "case.toml")
    key = tuple(sorted(f"{a}={r}" for a, r in s.readings.items()))
    if key not in built:
        built[key] = rules_for(s, rid, options)
    return decide(s.question.kind, built[key], s).answer


def _call(b: Bid) -> str:
    return "pass" if b.n is None else f"{b.n}{'' if b.strain is None else STRAINS[b.strain]}"


def _bidding(rules: Rules, rec: HandRecord) -> dict[str, Any]:
    if rules.individual:
        return {"bids": {str(s): b.n for s, b in rec.bids}}
    return {"auction": [_call(b) for _, b in rec.bids]}


@pytest.mark.parametrize(("rid", "options", "readings"), VARIANTS, ids=IDS)
def test_the_referee_rules_as_the_match_plays(rid: str, options: dict[str, Any], readings: dict[str, str]) -> None:
    rules = variant_rules(rid, options, readings)
    rng = random.Random(f"steps {rid}{sorted(options.items())}{sorted(readings.items())}")
    m = Match(rules, rng.choice([0] if rules.first_dealer == "seat0" else [0, 1, 2, 3]))

    built: dict[tuple[str, ...], Rules] = {}

    def ask(raw: dict[str, Any]) -> dict[str, Any]:
        return _ask(rid, options, readings, raw, built)

    played = 0
    while played < 2 and not m.is_over() and len(m.records) < 12:
        dealer, before = m.dealer, list(m.scores)
        m.apply(Deal(random_deck(rng)))
        while m.phase in (Phase.BIDDING, Phase.WEAK_CLAIM, Phase.TRUMP_CHOICE):
            if m.phase is Phase.BIDDING and rng.random() < 0.3:  # whose turn to bid, from the bids so far
                rec = m.record
                assert rec is not None
                assert ask({"dealer": dealer, "scores": before, **_bidding(rules, rec),
                            "question": {"kind": "whose-turn"}})["seat"] == m.to_move
            legal = list(m.legal_actions())
            m.apply(legal[rng.randrange(len(legal))] if rng.random() < 0.5 else legal[-1])
        rec = m.record if m.record is not None else m.records[-1]
        if rec.redeal != "deal.weak-redeal":
            got = ask({"dealer": dealer, "scores": before, **_bidding(rules, rec), "question": {"kind": "redeal"}})
            assert got["redeal"] == (rec.redeal is not None)
            if rec.redeal is not None:
                assert got["dealer"] == m.dealer
        if m.phase is not Phase.PLAY:
            got = ask({"dealer": dealer, "hand": "cancelled", "question": {"kind": "next-dealer"}})
            assert got["dealer"] == m.dealer
            continue
        trump = STRAINS[m.trump]
        lead: dict[str, Any] = {"dealer": dealer}
        if not rules.individual:
            seat, n, _ = rec.contract  # type: ignore[misc]
            lead["contract"] = {"seat": seat, "bid": n, "trump": trump}
        assert ask({**lead, "question": {"kind": "who-leads"}})["leader"] == m.to_move
        history: list[dict[str, Any]] = []
        while m.phase is Phase.PLAY:
            leader, cards = m.to_move, list[int]()
            for _ in range(4):
                trick = {"leader": leader, "cards": [card_str(c) for c in cards]}
                if cards:
                    assert ask({**lead, "trump": trump, "trick": trick, "question": {"kind": "whose-turn"}})["seat"] == m.to_move
                if rng.random() < 0.15:  # each card of the mover's whole hand
                    hand = [c for c in range(52) if m.hands[m.to_move] >> c & 1]
                    for c in hand:
                        got = ask({**lead, "trump": trump, "history": history, "trick": trick,
                                   "hands": {str(m.to_move): [card_str(x) for x in hand]},
                                   "question": {"kind": "card-legal", "seat": m.to_move, "card": card_str(c)}})
                        assert got["legal"] == bool(m.legal_play_mask() >> c & 1), (c, got)
                c = rng.choice([a.card for a in m.legal_actions() if isinstance(a, Play)])
                cards.append(c)
                m.play_card(c)
            history.append({"leader": leader, "cards": [card_str(c) for c in cards]})
            won = (m.records[-1] if m.record is None else m.record).winners[-1]
            assert ask({"trump": trump, "trick": history[-1], "question": {"kind": "trick-winner"}})["winner"] == won
            if m.phase is Phase.PLAY:
                assert ask({**lead, "trump": trump, "history": history, "question": {"kind": "who-leads"}})["leader"] \
                    == m.to_move
        played += 1
        rec = m.records[-1]
        first_game = rec.scores_after is not None and m.target == rules.target and not m.games
        tw = list(rec.tricks_won)
        if rules.individual:
            facts = {"scores": before, "bids": {str(s): b.n for s, b in rec.bids}, "tricks": tw}
        else:
            facts = {"scores": before[:2], "contract": lead["contract"], "tricks": tw}
        assert ask({**facts, "question": {"kind": "score"}})["deltas"] == rec.deltas
        if first_game:
            assert ask({**facts, "question": {"kind": "winner"}})["winner"] == rec.outcome
        if not m.is_over():
            assert ask({"dealer": dealer, "hand": "played", "question": {"kind": "next-dealer"}})["dealer"] == m.dealer
    assert played or m.is_over() or len(m.records) >= 12
