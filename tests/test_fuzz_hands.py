"""fuzz compares the engine's hands after the deal card by card: the same cards in any order or spelling pass,
a wrong card is a divergence (deal.order)."""

from __future__ import annotations

import random
from typing import Any

from tarneeb import Match, load_rules, random_deck
from tarneeb.conformance.fuzz import DealTrace, lockstep_deal, scripted_chooser
from tarneeb.core import rules as R
from tarneeb.core.cards import card_str, cards_of


class _StartOnly:
    """An engine that answers 'start' with the given hands and nothing after it (a later check then stops)."""

    def __init__(self, hands: object) -> None:
        self.hands = hands

    def call(self, req: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        if req["cmd"] == "start":
            return {"ok": True, "hands": self.hands}
        return {"ok": True}

    def request(self, req: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        return {"ok": False, "error": "no"}


def _field(hands: object) -> str:
    rules = load_rules("eram-41")
    deck = random_deck(random.Random(3))
    m = Match(rules, 0)
    t = DealTrace(m.dealer, list(m.scores), m.target, deck)
    d = lockstep_deal(_StartOnly(hands), rules, m, deck, scripted_chooser([]), "s", t)  # type: ignore[arg-type]
    assert d is not None
    return d.field


def test_engine_hands_compared_card_by_card() -> None:
    rules = load_rules("eram-41")
    deck = random_deck(random.Random(3))
    ours = [[card_str(c) for c in cards_of(h)] for h in R.deal_hands(rules, 0, deck)]
    # the same cards: in another order, in another spelling ('10H', lower case) -> no divergence on the hands
    assert _field(ours) != "hands"
    assert _field([list(reversed(h)) for h in ours]) != "hands"
    assert _field([[c.replace("T", "10").lower() for c in h] for h in ours]) != "hands"
    # wrong: two seats' cards swapped, a card repeated in place of another, a hand short, not a list of cards
    swapped = [list(h) for h in ours]
    swapped[0][0], swapped[1][0] = swapped[1][0], swapped[0][0]
    repeated = [list(h) for h in ours]
    repeated[2][1] = repeated[2][0]
    short = [list(h) for h in ours]
    short[3].pop()
    twice = [list(h) for h in ours]
    twice[2].append(twice[2][0])  # the same set of cards, one of them given twice
    for bad in (swapped, repeated, short, twice, [ours[1], ours[0], ours[2], ours[3]], ours[:3],
                [[{"card": c} for c in h] for h in ours], "AS"):
        assert _field(bad) == "hands", bad
