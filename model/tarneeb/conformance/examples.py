"""Worked examples from the rule documents (``spec/examples.toml``), checked by the engine.

:func:`check_example` computes the engine's answer for an example's input and
returns it beside the document's expected result; tests and the docs build
both use it, so a wrong example (or a wrong engine) fails them.
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core.actions import Bid, Deal, parse_action
from tarneeb.core.cards import SUITS, parse_card
from tarneeb.core.match import Match, Phase
from tarneeb.core.spec import Rules, load_rules, spec_dir
from tarneeb.errors import IllegalAction, SpecError, echo

KINDS = ("value", "hand-score", "bid-legal", "redeal", "trump", "outcome", "team-score", "auction", "target",
         "deal", "timer", "weak-hand", "partners")


@dataclass(frozen=True, slots=True)
class Example:
    id: str
    ruleset: str
    options: dict[str, Any]
    doc: str
    heading: str
    kind: str
    input: dict[str, Any]
    expect: dict[str, Any]
    note: str = ""


@dataclass(slots=True)
class Checked:
    example: Example
    got: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """Whether the engine gives every value the example's document states."""
        return all(self.got.get(k) == v for k, v in self.example.expect.items())

    def mismatches(self) -> list[str]:
        """One line per stated value the engine contradicts: what the document says and what the engine gives."""
        return [f"{k}: document says {echo(v)}, engine gives {echo(self.got.get(k))}"
                for k, v in self.example.expect.items() if self.got.get(k) != v]


@cache
def _load(path: str) -> tuple[Example, ...]:
    try:
        raw = tomllib.loads(open(path, encoding="utf-8").read())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise SpecError(path, "(file)", str(e)) from None
    out = []
    seen = set()
    for i, x in enumerate(raw.get("example", [])):
        where = f"example[{i}]"
        for key in ("id", "ruleset", "doc", "heading", "kind", "input", "expect"):
            if key not in x:
                raise SpecError(path, f"{where}.{key}", "missing")
        if x["kind"] not in KINDS:
            raise SpecError(path, f"{where}.kind", f"{echo(x['kind'])}; valid: {', '.join(KINDS)}")
        if x["id"] in seen:
            raise SpecError(path, f"{where}.id", f"duplicate id {x['id']}")
        seen.add(x["id"])
        out.append(Example(x["id"], x["ruleset"], dict(x.get("options", {})), x["doc"], x["heading"], x["kind"],
                           dict(x["input"]), dict(x["expect"]), x.get("note", "")))
    return tuple(out)


def load_examples() -> tuple[Example, ...]:
    """The worked examples of ``spec/examples.toml``, read once."""
    return _load(str(spec_dir() / "examples.toml"))


def _winner(w: int | None) -> int | str:
    return "none" if w is None else w


def check_example(ex: Example) -> Checked:
    """Run one example through the engine."""
    rules = load_rules(ex.ruleset, ex.options)
    inp = ex.input
    got: dict[str, Any] = {}
    k = ex.kind
    if k == "value":
        got["value"] = core_rules.individual_delta(rules, inp["bid"], inp["bid"])
    elif k == "hand-score":
        got["played"] = core_rules.hand_is_played(rules, inp["bids"], inp.get("scores", [0, 0, 0, 0]))
        got["deltas"] = [core_rules.individual_delta(rules, b, t) for b, t in zip(inp["bids"], inp["tricks"], strict=True)]
    elif k == "bid-legal":
        bid = None if inp["bid"] == "pass" else int(inp["bid"])
        bad = core_rules.bid_violation(rules, inp["score"], bid)
        got["legal"] = bad is None
        if bad is not None:
            got["rule"] = bad[0]
    elif k == "redeal":
        got.update(_redeal(rules, inp["dealer"], inp["bids"]))
    elif k == "trump":
        card = parse_card(inp["revealed"])
        _, suit = core_hand.deal_trump(rules, [c for c in range(52) if c != card] + [card])  # the dealer's last card shows
        got["trump"] = SUITS[suit] if suit >= 0 else "none: the contract names it"
    elif k == "outcome":
        if rules.individual:
            w, rule = core_rules.individual_outcome(rules, inp["scores"], inp.get("bids"), inp.get("tricks"))
        else:
            s = inp["scores"]
            w, rule = core_rules.auction_outcome(rules, (s[0], s[1]), rules.target, inp["bidding_team"], False)
        got["winner"], got["rule"] = _winner(w), rule
    elif k == "team-score":
        tt = (inp["team_tricks"][0], inp["team_tricks"][1])
        got["deltas"] = list(core_rules.team_deltas(rules, inp["contract"], inp["bidding_team"], tt))
        got["game_won"] = core_rules.bid13_wins(rules, inp["contract"], tt[inp["bidding_team"]])
    elif k == "auction":
        got.update(_auction(rules, inp["dealer"], inp["calls"]))
    elif k == "target":
        got["target"] = core_rules.target_in_force(rules, inp["games_won"])
    elif k == "deal":
        deck = list(range(52))
        random.Random(ex.id).shuffle(deck)
        hands = core_rules.deal_hands(rules, inp["dealer"], deck)
        got["cards_each"] = min(h.bit_count() for h in hands) if len({h.bit_count() for h in hands}) == 1 else -1
        got["dealer_gets_last_card"] = bool(hands[inp["dealer"]] >> deck[51] & 1)
    elif k == "weak-hand":
        # drive a real deal: the given hand goes to the first seat dealt, the rest in order
        hand = [parse_card(c) for c in inp["hand"]]
        rest = [c for c in range(52) if c not in hand]
        deck = [c for i in range(13) for c in (hand[i], rest[3 * i], rest[3 * i + 1], rest[3 * i + 2])]
        hands = core_rules.deal_hands(rules, 0, deck)  # dealer 0: the first card goes to seat 1
        others_weak = any(core_rules.is_weak_hand(h) for s, h in enumerate(hands) if s != 1)
        m = Match(rules, first_dealer=0)
        m.apply(Deal(tuple(deck)))
        got["redeal"] = m.phase is Phase.DEAL and not others_weak
    elif k == "partners":
        seat = inp["seat"]
        got["partner"] = next(s for s in range(4) if s != seat and core_rules.team_of(s) == core_rules.team_of(seat))
        got["team"] = core_rules.team_of(seat)
    elif k == "timer":
        m = _match_at_bidding(rules, 0, [inp["score"]] * 4)
        a = m.timeout_action()
        got["bid"] = a.n if isinstance(a, Bid) else None
    return Checked(ex, got)


def _match_at_bidding(rules: Rules, dealer: int, scores: list[int] | None = None) -> Match:
    """A match at ``scores`` (zero by default) whose hand by ``dealer`` is dealt and waits for the first bid."""
    m = Match.at(rules, dealer, scores)
    deck = list(range(52))
    random.Random(0).shuffle(deck)
    if rules.weak_redeal:  # a deal in which every hand holds a high card
        deck = [c for s in range(13) for c in (s, 13 + s, 26 + s, 39 + s)]
    m.apply(Deal(tuple(deck)))
    if m.phase is not Phase.BIDDING:
        raise RuntimeError(f"{rules.id}: the example deal did not reach the bidding (phase {m.phase.value})")
    return m


def _redeal(rules: Rules, dealer: int, bids: list[int]) -> dict[str, Any]:
    """Bids given by seat; drive a real match through the bidding."""
    m = _match_at_bidding(rules, dealer)
    seat = m.to_move
    for _ in range(4):
        m.apply(Bid(bids[seat]))
        seat = core_rules.next_seat(rules, seat)
    if m.phase is Phase.PLAY:  # the hand is played: who deals after it (deal.rotation)
        return {"played": True, "next_dealer": core_hand.next_dealer(rules, m.dealer, None)}
    return {"played": False, "next_dealer": m.dealer}


def _auction(rules: Rules, dealer: int, calls: list[str]) -> dict[str, Any]:
    m = _match_at_bidding(rules, dealer)
    for c in calls:
        a = parse_action("bid:" + c)
        try:
            m.apply(a)
        except IllegalAction as e:
            return {"illegal_rule": e.rule}
    rec = m.records[-1] if m.phase is Phase.DEAL else m.record
    if rec is None:
        raise RuntimeError("the example's match has no deal in progress or finished")
    if rec.redeal is not None:
        return {"redeal": True, "next_dealer": m.dealer}
    if rec.contract is None:
        return {"unfinished": True}
    return {"contract_seat": rec.contract[0], "contract": rec.contract[1]}
