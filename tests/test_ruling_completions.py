"""What a hand could have done: the referee's card-legal ruling from part of a hand agrees with core's legality over
every hand the facts allow, under every ruleset, option value and selectable reading of the spec.

The referee steps the transition from the hands the facts allow the seat to move (tarneeb.ruling.tricks). Here the
same question is put to core's single decision (:func:`tarneeb.core.rules.legal_play_mask`, the clause from
:func:`tarneeb.core.rules.play_violation`) over hands the test makes itself: for every set of suits, a hand holding
a card of each of them and none of the others as far as the facts let it, made up to the seat's count, and random
hands of that count; the seat's true hand among them. A ruling must be what every such hand gives (a card legal, or
refused by the same clause); a missing hand or trump only where two of them differ; a contradiction only where no
hand agrees with the facts.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.spec_variants import IDS, VARIANTS, variant_rules
from tests.walks import random_walk

from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core.cards import CARD_BITS, STRAINS, SUIT_MASKS, card_str, cards_of
from tarneeb.core.model import OptionValue
from tarneeb.core.spec import Rules
from tarneeb.core.state import Playing, Trick, TrickTaken
from tarneeb.errors import SituationError
from tarneeb.ruling import parse_situation
from tarneeb.ruling.decision import decide
from tarneeb.ruling.situation import Missing, rules_for


def _mid_play(rules: Rules, rng: random.Random) -> tuple[Playing, list[Trick]]:
    """A state of the play a random match reaches, at a random trick and card; and the tricks of its hand so far."""
    stop = rng.randrange(52)
    while True:
        dealer = rng.randrange(4) if rules.first_dealer != "seat0" else 0
        played = 0
        done: list[Trick] = []
        for state, _, _, events in random_walk(rules, rng, dealer, 400):
            if type(state) is Playing:
                if played == stop:
                    return state, done
                played += 1
            else:
                done = []
            done += [e.trick for e in events if isinstance(e, TrickTaken)]
        stop = rng.randrange(max(1, stop))


def _trumps(rules: Rules) -> list[int]:
    """Every trump a hand can have under ``rules``, from core: a fixed suit, any turned card's, or the contract's."""
    if rules.trump_source == "fixed":
        return [rules.fixed_suit]
    if rules.trump_source.startswith("revealed"):
        return sorted({core_rules.trump_from_reveal(rules, c) for c in range(52)})
    return [0, 1, 2, 3, 4] if rules.egyptian else [0, 1, 2, 3]


def _allowed_hands(rng: random.Random, must: int, allowed: int, size: int) -> list[int]:
    """Hands of ``size`` cards holding ``must`` and otherwise cards of ``allowed``: for each set of suits, one with a
    card of each and none of the others where it can be made up so, then random ones."""
    out = []
    pool = cards_of(allowed & ~must)
    for held in range(16):
        hand = must
        for s in range(4):
            if held >> s & 1 and not hand & SUIT_MASKS[s]:
                hand |= next((CARD_BITS[c] for c in pool if c // 13 == s), 0)
        extra = [c for c in pool if not hand >> c & 1 and (hand & SUIT_MASKS[c // 13])]
        need = size - hand.bit_count()
        if 0 <= need <= len(extra):
            out.append(hand | sum(CARD_BITS[c] for c in extra[:need]))
    need = size - must.bit_count()
    if 0 <= need <= len(pool):
        out += [must | sum(CARD_BITS[c] for c in rng.sample(pool, need)) for _ in range(20)]
    return out


def _case(rules: Rules, rid: str, options: dict[str, OptionValue], readings: dict[str, str],
          rng: random.Random) -> tuple[dict[str, Any], list[int], list[int], int, int]:
    """A card-legal situation at a random state of the play, with part of the seat to move's hand stated; and what
    the test needs to judge it: the hands it must check, the trumps, the led suit, the card."""
    state, done = _mid_play(rules, rng)
    for _ in range(30 if rules.must_trump else 0):  # where must-trump bears: void in the led suit, holding a trump
        t, h = state.start.trump, state.hands[state.to_move]
        if state.trick and not h & SUIT_MASKS[state.trick[0] // 13] and t < 4 and h & SUIT_MASKS[t] and rng.random() < 0.7:
            break
        state, done = _mid_play(rules, rng)
    seat, true = state.to_move, state.hands[state.to_move]
    start = state.start
    raw: dict[str, Any] = {"ruleset": rid, "dealer": start.table.dealer,
                           "history": [{"leader": t.leader, "cards": [card_str(c) for c in t.cards]} for t in done],
                           "trick": {"leader": state.leader, "cards": [card_str(c) for c in state.trick]}}
    if options:
        raw["options"] = {rid: options}
    if readings:
        raw["readings"] = readings
    trump_known = rng.random() < 0.7
    if trump_known:
        raw["trump"] = STRAINS[start.trump]
    if start.contract is not None:
        seat_c, n, _ = start.contract
        raw["contract"] = {"seat": seat_c, "bid": n, **({"trump": STRAINS[start.trump]} if trump_known else {})}
    listed = [c for c in cards_of(true) if rng.random() < rng.choice((0.0, 0.5, 1.0))]
    voids = [s for s in range(4) if not true & SUIT_MASKS[s] and rng.random() < 0.6]
    if listed or rng.random() < 0.5:
        raw["hands"] = {str(seat): [card_str(c) for c in listed]}
    if voids:
        raw["voids"] = {str(seat): ["CDHS"[s] for s in voids]}
    placed = sum(CARD_BITS[c] for t in done for c in t.cards) | sum(CARD_BITS[c] for c in state.trick)
    allowed = ((1 << 52) - 1) & ~placed & ~sum(SUIT_MASKS[s] for s in voids)
    led = state.trick[0] // 13 if state.trick else -1
    off = [c for c in cards_of(true) if c // 13 != led]  # a card that does not follow: legal or not, by what is held
    card = rng.choice(off) if off and rng.random() < 0.5 else rng.choice(cards_of(true)) if rng.random() < 0.85 \
        else rng.choice(cards_of(allowed))
    raw["question"] = {"kind": "card-legal", "seat": seat, "card": card_str(card)}
    must = sum(CARD_BITS[c] for c in listed) | CARD_BITS[card]
    hands = _allowed_hands(rng, must, allowed, true.bit_count()) + ([true] if true >> card & 1 else [])
    return raw, hands, ([start.trump] if trump_known else _trumps(rules)), led, card


def _core(rules: Rules, hand: int, led: int, trump: int, card: int) -> str | None:
    """Core's answer: None when ``card`` is legal from ``hand``, else the clause it breaks."""
    bad = core_rules.play_violation(rules, hand, led, trump, card)
    return None if bad is None else bad[0]


@pytest.mark.parametrize(("rid", "options", "readings"), VARIANTS, ids=IDS)
def test_a_card_ruled_from_part_of_a_hand_is_what_every_hand_the_facts_allow_gives(
        rid: str, options: dict[str, OptionValue], readings: dict[str, str]) -> None:
    rules = variant_rules(rid, options, readings)
    rng = random.Random(f"{rid}{sorted(options.items())}{sorted(readings.items())}")
    seen: set[str] = set()
    for _ in range(12):
        raw, hands, trumps, led, card = _case(rules, rid, options, readings, rng)
        s = parse_situation(raw, "case.toml")
        core = {(t, h): _core(rules, h, led, t, card) for h in hands for t in trumps}
        answers = set(core.values())
        try:
            d = decide("card-legal", rules_for(s, rid, options), s)
        except Missing as e:
            seen.add("missing " + e.field.split(".")[0])
            if e.field.startswith("hands."):  # two hands differ in some trump
                assert any(len({core[(t, h)] for h in hands}) > 1 for t in trumps), (raw, e, core)
            else:  # two trumps differ for some hand, or on who won the last trick (who leads now)
                assert e.field in ("revealed", "contract.trump"), (raw, e)
                last = s.history[-1] if s.history else None
                leads = {core_hand.trick_winner_seat(rules, last.leader, last.cards, t) for t in trumps} if last else set()
                assert len(leads) > 1 or any(len({core[(t, h)] for t in trumps}) > 1 for h in hands), (raw, e, core)
            continue
        except SituationError as e:
            seen.add("contradiction")
            assert not hands, (raw, e)
            continue
        assert "turn" not in d.answer, (raw, d.answer)  # the seat asked about is the one to move
        got = None if d.answer["legal"] else d.answer["clause"]
        seen.add("legal" if got is None else "not legal")
        assert answers == {got}, (raw, d.answer, core)
    assert seen
