"""Family ``engine``, stage ``play``: the deal, trump, follow-suit, the trick winner and the seats of a trick.

Rule functions (:mod:`tarneeb.core.rules`): ``trick_winner``, ``legal_play_mask``, ``play_violation``,
``trump_from_reveal``, ``is_weak_hand``, ``revealed_card``, ``deal_positions``, ``deal_hands``, ``deck_of_hands``,
``team_of``, ``seat_order``,
``deal_order``; hand steps (:mod:`tarneeb.core.hand`): ``deal_trump``, ``weak_seats``, ``weak_claimers``,
``hand_leader``,
``trick_legal``, ``trick_turn``, ``trick_winner_seat``. Method: :mod:`tarneeb_proofs.bridge`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import z3

from .bridge import (
    HAND,
    Builder,
    Case,
    Summariser,
    Summary,
    Target,
    Var,
    as_bv,
    as_int,
    between,
    bvar,
    card_show,
    cite,
    eq,
    in_range,
    ivar,
    same,
    seat_after,
    seats_after,
    value,
)
from .encode import NO_LED, Encoding, Term, bv6, card_bit, holds, seat2, suit_mask, suit_of
from .witness import hand_text, suit_text

LEDS = (-1, 0, 1, 2, 3)


def trumps(enc: Encoding) -> list[int]:
    """The trump values the configuration produces (encoding's trump.source), 4 = no trump."""
    return [t for t in range(6) if z3.is_true(z3.simplify(enc.trump_ok(bv6(t))))]


def _led(led: int) -> Term:
    return bv6(NO_LED if led < 0 else led)


def _led_text(led: int) -> str:
    return "none (leading)" if led < 0 else suit_text(led)


def _trump_var(enc: Encoding) -> Var:
    """The trump (6 bits; 4 = no trump), ranging over what the configuration's trump.source produces."""
    return bvar("trump", 6, suit_text)


def _hand(name: str) -> Var:
    return bvar(name, 52, lambda h: hand_text(int(h)))


def _card(name: str) -> Var:
    return bvar(name, 6, card_show)


def _seat_of(hands: Sequence[Term], seat: Term) -> Term:
    out = hands[3]
    for j in (2, 1, 0):
        out = z3.If(seat == j, hands[j], out)
    return out


def _follow_clause(r: Any) -> str:
    return cite(r, "play.must-trump", "play.follow") if r.must_trump else "play.follow"


def _trick_winner(enc: Encoding) -> list[Target]:
    """trick_winner: tricks of 1..4 distinct cards, every trump of the configuration."""
    cases = []
    for k in (4, 3, 2, 1):
        cv = [_card(f"card {i + 1}") for i in range(k)]
        tv = _trump_var(enc)
        cs, t = [v.term for v in cv], tv.term
        dom = [z3.ULT(c, 52) for c in cs] + ([z3.Distinct(*cs)] if k > 1 else []) + [enc.trump_ok(t)]

        def claim(res: Any, cs: list[Term] = cs, t: Term = t) -> Term:
            return z3.Or([z3.And(eq(res, z3.IntVal(i)), enc.is_winner(cs, t, i)) for i in range(len(cs))])

        def want(ev: Any, cs: list[Term] = cs, t: Term = t) -> Any:
            return next((i for i in range(len(cs)) if ev(enc.is_winner(cs, t, i))), None)

        cases.append(Case(f"{k} cards", [*cv, tv], dom, lambda f, v: f(list(v[:-1]), v[-1]), claim, want,
                          "play.winner"))
    return [Target("trick_winner", cases, domain_text="tricks of 1-4 distinct cards x every trump")]


def _follow(enc: Encoding) -> list[Target]:
    """legal_play_mask and play_violation: any 52-bit hand, every led suit (or leading) and trump."""
    r = enc.r
    follow_clause = _follow_clause(r)
    out: list[Target] = []
    hv, lv, tv = _hand("hand"), ivar("led suit", _led_text), _trump_var(enc)
    h, led, t = hv.term, lv.term, tv.term
    led6 = z3.If(led < 0, bv6(NO_LED), z3.Int2BV(led, 6))
    dom = [between(led, -1, 3), enc.trump_ok(t)]
    mask = enc.legal_mask(h, led6, t)
    out.append(Target("legal_play_mask", [Case("", [hv, lv, tv], dom, lambda f, v: f(r, *v), lambda res: eq(res, mask),
                                               lambda ev: ev(mask), follow_clause)],
                      domain_text="every 52-bit hand x led suit or leading x trump"))
    cv = ivar("card", card_show)
    c = cv.term
    c6 = z3.Int2BV(c, 6)
    held = z3.And(c >= 0, c < 52, holds(h, c6))
    legal = z3.And(held, enc.legal_play(h, led6, t, c6))
    must = z3.And(held, led >= 0, (h & suit_mask(led6)) == 0)  # held, void in the led suit, still refused

    def vclaim(res: Any) -> Term:
        if res is None:
            return legal
        if not isinstance(res, tuple) or len(res) != 2 or not isinstance(res[0], str):
            return z3.BoolVal(False)
        want_clause = z3.If(must, z3.StringVal("play.must-trump"), z3.StringVal("play.follow"))
        return z3.And(z3.Not(legal), want_clause == z3.StringVal(res[0]))

    def vwant(ev: Any) -> Any:
        return None if ev(legal) else ("play.must-trump" if ev(must) else "play.follow")

    vcases = [Case("", [hv, lv, tv, cv], dom, lambda f, v: f(r, *v), vclaim, vwant, follow_clause)]
    # cards that are no card number at all: refused as not held (the clause the engine cites)
    for odd in (2.5, "AS", None, True):
        vcases.append(Case(f"card {odd!r} (not an integer)", [hv, lv, tv], dom,
                           lambda f, v, odd=odd: f(r, *v, odd),
                           lambda res: z3.BoolVal(isinstance(res, tuple) and res[0] == "play.follow"),
                           lambda ev: ("play.follow", "the card is not in the player's hand"), "play.follow"))
    out.append(Target("play_violation", vcases,
                      domain_text="every 52-bit hand x every integer card x led suit x trump; non-integer cards"))
    return out


def _reveal_and_weak(enc: Encoding) -> list[Target]:
    """trump_from_reveal (revealed-card sources) and is_weak_hand (rulesets with the weak-hand redeal)."""
    r = enc.r
    out: list[Target] = []
    if r.trump_source.startswith("revealed"):
        cv = _card("revealed card")
        term = enc.trump_from_reveal(cv.term)
        out.append(Target("trump_from_reveal", [Case("", [cv], [z3.ULT(cv.term, 52)], lambda f, v: f(r, v[0]),
                                                      lambda res: eq(res, term), lambda ev: ev(term), "trump.source")],
                          domain_text="the 52 cards"))
    if "deal.weak-redeal" in r.ruleset.clauses:
        hv = _hand("hand")
        weak = enc.weak_hand(hv.term)
        out.append(Target("is_weak_hand", [Case("", [hv], [], lambda f, v: f(v[0]), lambda res: eq(res, weak),
                                                lambda ev: ev(weak), "deal.weak-redeal")],
                          domain_text="every 52-bit hand"))
    return out


def play_summaries(enc: Encoding) -> list[Summary]:
    """legal_play_mask and trick_winner as their encodings, for the hand steps that call them."""
    r = enc.r

    def mask_applies(rr: Any, hand: Any, led: Any, trump: Any) -> Term | None:
        if rr is not r:
            return None
        return z3.And(in_range(hand, 0, (1 << 52) - 1), in_range(led, -1, 3), in_range(trump, 0, 63),
                      enc.trump_ok(as_bv(trump, 6)))

    def mask_value(rr: Any, hand: Any, led: Any, trump: Any) -> Any:
        return value(LEGAL(as_bv(hand, 52), led6_of(led), as_bv(trump, 6)))

    def mask_definition(h: Term, led6: Term, t: Term) -> Term:
        return enc.legal_mask(h, led6, t)

    def tw_applies(cards: Any, trump: Any) -> Term | None:
        if not isinstance(cards, (list, tuple)) or not 1 <= len(cards) <= 4:
            return None
        cs = [as_bv(c, 6) for c in cards]
        return z3.And(*[in_range(c, 0, 51) for c in cards], *([z3.Distinct(*cs)] if len(cs) > 1 else []),
                      in_range(trump, 0, 63), enc.trump_ok(as_bv(trump, 6)))

    def tw_value(cards: Any, trump: Any) -> Any:
        cs = [as_bv(c, 6) for c in cards]
        t = as_bv(trump, 6)
        idx: Term = z3.IntVal(len(cs) - 1)
        for i in range(len(cs) - 2, -1, -1):
            idx = z3.If(enc.is_winner(cs, t, i), z3.IntVal(i), idx)
        return value(idx)

    return [Summary("legal_play_mask", mask_applies, mask_value, uf=LEGAL, definition=mask_definition,
                    lemma=lambda: _legal_bit_lemma(enc)),
            Summary("trick_winner", tw_applies, tw_value)]


# legal_play_mask as an uninterpreted function (hand, led suit (-1: leading), trump) -> legal set: the hand steps
# that call it are proved for every function in its place, so for the engine's own, which its target proves
# equal to the encoding's legal_mask (a counterexample is then looked for with that definition put back)
LEGAL = z3.Function("legal_play_mask", z3.BitVecSort(52), z3.BitVecSort(6), z3.BitVecSort(6), z3.BitVecSort(52))


def led6_of(led: Any) -> Term:
    """The engine's led suit (-1 when leading) as the encoding's 6-bit led suit (NO_LED when leading)."""
    if type(led) is int:
        return bv6(NO_LED if led < 0 else led)
    t = led.t if hasattr(led, "t") else led
    if z3.is_bv(t):
        return as_bv(led, 6)
    return z3.If(t < 0, bv6(NO_LED), z3.Int2BV(t, 6))


def suit6(card: Term) -> Term:
    """The suit of a 6-bit card as the engine computes it (card // 13), simplified as the explorer simplifies."""
    return z3.simplify(z3.UDiv(card, z3.BitVecVal(13, 6)))


def _bit(mask: Term, card: Term) -> Term:
    """Whether ``card`` (6 bits) is in the 52-bit set ``mask``."""
    return z3.Extract(0, 0, z3.LShR(mask, z3.ZeroExt(46, card))) == 1


def _legal_bit_lemma(enc: Encoding) -> tuple[list[Term], Term]:
    """The card is in the encoding's legal set exactly when the encoding's legal_play allows it, and a card's suit
    (encode.suit_of) is card // 13: what the claims of trick_legal and legal_trick_winner need, with the
    legal_play_mask in their claims replaced by its definition."""
    h, ld, t, c = z3.BitVec("lemma_hand", 52), z3.BitVec("lemma_led", 6), z3.BitVec("lemma_trump", 6), \
        z3.BitVec("lemma_card", 6)
    return ([z3.Or(ld == NO_LED, z3.ULT(ld, 4)), enc.trump_ok(t), z3.ULT(c, 52)],
            z3.And(_bit(enc.legal_mask(h, ld, t), c) == enc.legal_play(h, ld, t, c), suit_of(c) == suit6(c)))


def _deck() -> list[Var]:
    return [_card(f"deck[{i}]") for i in range(52)]


def _deck_domain(deck: Sequence[Var]) -> list[Term]:
    return [z3.ULT(v.term, 52) for v in deck]


def _dealer_last_position(enc: Encoding, dealer: int) -> int:
    """The position in the deck of the dealer's last card: cards go one at a time round the table from the seat
    after the dealer (deal.order), by the encoding's next_seat."""
    seat = dealer
    pos = -1
    for i in range(52):
        seat = int(z3.simplify(enc.next_seat(z3.IntVal(seat))).as_long())
        if seat == dealer:
            pos = i
    return pos


def _reveal(enc: Encoding) -> list[Target]:
    """revealed_card and hand.deal_trump: the dealer's last card (deal.order) and the trump it gives."""
    r = enc.r
    out: list[Target] = []
    pos = _dealer_last_position(enc, 0)
    deck = _deck()
    d51 = deck[pos].term
    out.append(Target("revealed_card", [Case("", deck, _deck_domain(deck), lambda f, v: f(list(v)),
                                             lambda res: eq(res, d51), lambda ev: ev(d51), "trump.source")],
                      domain_text="every deck of 52 cards"))
    src = r.trump_source

    def claim(res: Any) -> Term:
        if not isinstance(res, tuple) or len(res) != 2:
            return z3.BoolVal(False)
        card, trump = res
        if src == "fixed":
            return z3.And(z3.BoolVal(card is None), eq(trump, z3.IntVal(r.fixed_suit)))
        if src.startswith("revealed"):
            if card is None:
                return z3.BoolVal(False)
            return z3.And(eq(card, d51), eq(trump, enc.trump_suit(d51, bv6(0))))
        return z3.And(z3.BoolVal(card is None), eq(trump, z3.IntVal(-1)))  # named by the contract, later

    def want(ev: Any) -> Any:
        if src == "fixed":
            return (None, r.fixed_suit)
        if src.startswith("revealed"):
            return (ev(d51), ev(enc.trump_suit(d51, bv6(0))))
        return (None, -1)

    out.append(Target("deal_trump", [Case("", deck, _deck_domain(deck), lambda f, v: f(r, list(v)), claim, want,
                                          "trump.source")], HAND, "every deck of 52 cards"))
    return out


def _weak_seats(enc: Encoding) -> list[Target]:
    """hand.weak_seats: every four hands."""
    r = enc.r
    hv = [_hand(f"hand of seat {s}") for s in range(4)]
    weak = [enc.weak_hand(v.term) for v in hv]

    def wclaim(res: Any) -> Term:
        if not isinstance(res, list) or any(type(x) is not int for x in res) or res != sorted(set(res)):
            return z3.BoolVal(False)
        if not r.weak_redeal:
            return z3.BoolVal(res == [])
        return z3.And([w == z3.BoolVal(s in res) for s, w in enumerate(weak)])

    out = [Target("weak_seats", [Case("", hv, [], lambda f, v: f(r, list(v)), wclaim,
                                         lambda ev: [s for s in range(4) if r.weak_redeal and ev(weak[s])],
                                         "deal.weak-redeal" if r.weak_redeal else "deal.order")], HAND,
                  "every four 52-bit hands")]
    # hand.weak_claimers: under reading claimed of ambiguity weak-hand the weak seats in bidding order (the seats
    # after the dealer in the direction of play, the dealer last), else none
    claimed = enc.weak_claimed()
    cases = []
    for dealer in range(4):
        order = seats_after(enc, dealer)

        def cclaim(res: Any, order: list[int] = order) -> Term:
            if not isinstance(res, tuple) or any(type(x) is not int for x in res):
                return z3.BoolVal(False)
            if not claimed:
                return z3.BoolVal(res == ())
            if list(res) != [s for s in order if s in res]:  # in bidding order, each seat once
                return z3.BoolVal(False)
            return z3.And([w == z3.BoolVal(s in res) for s, w in enumerate(weak)])

        cases.append(Case(f"dealer {dealer}", hv, [], lambda f, v, dealer=dealer: f(r, dealer, list(v)), cclaim,
                          lambda ev, order=order: tuple(s for s in order if claimed and ev(weak[s])),
                          "deal.weak-redeal" if r.weak_redeal else "deal.order"))
    out.append(Target("weak_claimers", cases, HAND, "every dealer x every four 52-bit hands"))
    return out


def _deal_hands(enc: Encoding) -> list[Target]:
    r = enc.r
    # deal_positions: the deck's places of each recipient's cards, in the order it receives them (deal.order), from
    # the encoding's place -> (recipient, card) map
    places: list[list[int]] = [[0] * 13 for _ in range(4)]
    for place in range(52):
        k, i = enc.dealt_to(place)
        places[k][i] = place
    want_places = tuple(tuple(p) for p in places)
    out = [Target("deal_positions", [Case("no input but the ruleset", [], [], lambda f, v: f(r),
                                          lambda res: z3.BoolVal(res == want_places), lambda ev: want_places,
                                          "deal.order")], domain_text="no input but the ruleset")]
    # deal_hands: each card dealt to the seat whose turn it is, one at a time round the table from the seat after
    # the dealer, or packet by packet (deal.order); a hand is the sum of its cards' bits (the set of its cards, for
    # a deck of distinct cards: proved for every deck of cards 0..51, distinct or not)
    cases = []
    for dealer in range(4):
        deck = _deck()
        order = seats_after(enc, dealer)
        bits = [z3.ZeroExt(60, card_bit(v.term)) for v in deck]
        want_hands = []
        for seat in range(4):  # the sum of the bits of the cards dealt to the seat
            mine = [b for i, b in enumerate(bits) if order[enc.dealt_to(i)[0]] == seat]
            want_hands.append(z3.Sum(mine))

        def dclaim(res: Any, want_hands: list[Term] = want_hands) -> Term:
            return same(res, want_hands) if isinstance(res, list) else z3.BoolVal(False)

        def dparts(res: Any, want_hands: list[Term] = want_hands) -> list[tuple[Term, Term]]:
            return [(x.t if hasattr(x, "t") else z3.BitVecVal(x, 112), w) for x, w in zip(res, want_hands, strict=True)]

        cases.append(Case(f"dealer {dealer}", deck, _deck_domain(deck), lambda f, v, dealer=dealer: f(r, dealer, list(v)),
                          dclaim, lambda ev, want_hands=want_hands: [ev(h) for h in want_hands], "deal.order",
                          parts=dparts))
    # deck_of_hands: the deck that deals each seat its 13 cards in the order given; the i-th card of the k-th seat
    # to receive cards is the card at the place the encoding deals it to (4i + k one card at a time; deal.order)
    dv = ivar("dealer")
    hands = [[_card(f"card {i + 1} of seat {s}") for i in range(13)] for s in range(4)]
    order = [seat_after(enc, dv.term, k) for k in range(1, 5)]
    want: list[Term] = []
    for pos in range(52):
        k, i = enc.dealt_to(pos)
        w = hands[3][i].term
        for seat in (2, 1, 0):
            w = z3.If(order[k] == seat, hands[seat][i].term, w)
        want.append(w)
    flat = [v for h in hands for v in h]
    inverse = Case("", [dv, *flat], [between(dv.term, 0, 3)],
                   lambda f, v: f(r, v[0], [list(v[1 + 13 * s:14 + 13 * s]) for s in range(4)]),
                   lambda res: same(list(res), want) if isinstance(res, list) else z3.BoolVal(False),
                   lambda ev: [ev(w) for w in want], "deal.order")
    return [*out, Target("deal_hands", cases, domain_text="every deck of 52 cards 0..51 x every dealer"),
            Target("deck_of_hands", [inverse], domain_text="every dealer x every four sequences of 13 cards")]


def _seat_orders(enc: Encoding) -> list[Target]:
    """team_of, partner, team_tricks, seat_order, deal_order: the seats, their teams and orders (seats.partners)."""
    out: list[Target] = []
    pv = ivar("seat")
    p = pv.term

    def pclaim(res: Any) -> Term:  # the other seat of the same team
        return z3.And(between(as_int(res), 0, 3), as_int(res) != p, enc.team_of(as_int(res)) == enc.team_of(p))

    out.append(Target("partner", [Case("", [pv], [between(p, 0, 3)], lambda f, v: f(v[0]), pclaim,
                                       lambda ev: next(q for q in range(4) if q != ev(p) and q % 2 == ev(p) % 2),
                                       "seats.partners")], domain_text="the 4 seats"))
    tv = [ivar(f"tricks of seat {k}") for k in range(4)]
    teams = [z3.Sum([z3.If(enc.team_of(z3.IntVal(k)) == team, tv[k].term, 0) for k in range(4)]) for team in (0, 1)]
    out.append(Target("team_tricks", [Case("", tv, [], lambda f, v: f(list(v)),
                                           lambda res: same(list(res), teams) if isinstance(res, tuple)
                                           else z3.BoolVal(False), lambda ev: tuple(ev(t) for t in teams),
                                           "seats.partners")], domain_text="every four integer trick counts"))
    sv = ivar("seat")
    s = sv.term
    dom = [between(s, 0, 3)]
    out.append(Target("team_of", [Case("", [sv], dom, lambda f, v: f(v[0]), lambda res: eq(res, enc.team_of(s)),
                                       lambda ev: ev(enc.team_of(s)), "seats.partners")], domain_text="the 4 seats"))
    for fn, first in (("seat_order", 0), ("deal_order", 1)):
        order = [seat_after(enc, s, k) for k in range(first, first + 4)]
        out.append(Target(fn, [Case("", [sv], dom, lambda f, v: f(enc.r, v[0]),
                                    lambda res, order=order: same(list(res), order) if isinstance(res, tuple)
                                    else z3.BoolVal(False),
                                    lambda ev, order=order: tuple(ev(o) for o in order),
                                    "deal.order" if first else "play.direction")], domain_text="the 4 seats"))
    return out


def _leader(enc: Encoding) -> list[Target]:
    """hand.hand_leader: the seat after the dealer (individual bids) or the contract holder (auction)."""
    r = enc.r
    out: list[Target] = []
    # hand_leader: the seat after the dealer (individual bids) or the contract holder (auction)
    dv = bvar("dealer", 2)
    if r.individual:
        lead = enc.first_leader(dv.term, seat2(0))
        out.append(Target("hand_leader", [Case("individual bids", [dv], [], lambda f, v: f(r, v[0], None),
                                               lambda res: eq(res, lead), lambda ev: ev(lead), "play.lead")], HAND,
                          "the 4 dealers"))
    else:
        hv = bvar("contract holder", 2)
        lead = enc.first_leader(dv.term, hv.term)
        out.append(Target("hand_leader", [Case("a contract", [dv, hv], [],
                                               lambda f, v: f(r, v[0], (v[1], 7, 0)), lambda res: eq(res, lead),
                                               lambda ev: ev(lead), "play.lead")], HAND, "the 4 dealers x 4 holders"))
    return out


def _trick_turn(enc: Encoding) -> list[Target]:
    r = enc.r
    # trick_turn: the seat playing the n-th card of a trick led by leader (play.direction)
    lv, nv = bvar("leader", 2), ivar("cards already played")
    turn = seat2(0)
    for k in (3, 2, 1, 0):
        turn = z3.If(nv.term == k, lv.term + seat2((k * enc.step) % 4), turn)
    return [Target("trick_turn", [Case("", [lv, nv], [between(nv.term, 0, 3)], lambda f, v: f(r, v[0], v[1]),
                                          lambda res: eq(res, turn), lambda ev: ev(turn), "play.direction")], HAND,
                      "4 leaders x 0-3 cards played")]


def _trick_cards(enc: Encoding) -> tuple[Var, Var, list[Var], list[Term]]:
    """A trick's leader, trump and four cards, with their domain: four distinct cards, any leader, every trump."""
    lv, tv = bvar("leader", 2), _trump_var(enc)
    cv = [_card(f"card {i + 1}") for i in range(4)]
    cs = [v.term for v in cv]
    return lv, tv, cv, [z3.ULT(c, 52) for c in cs] + [enc.trump_ok(tv.term), z3.Distinct(*cs)]


def _trick_winner_seat(enc: Encoding) -> list[Target]:
    """hand.trick_winner_seat, with trick_winner by its summary (proved by its own target)."""
    r = enc.r
    lv, tv, cv, dom = _trick_cards(enc)
    win = enc.trick_winner_seat([v.term for v in cv], tv.term, lv.term)
    cases = [Case("", [lv, *cv, tv], dom, lambda f, v: f(r, v[0], list(v[1:5]), v[5]),
                  lambda res: eq(res, win), lambda ev: ev(win), "play.winner")]
    return [Target("trick_winner_seat", cases, HAND, "4 leaders x tricks of 4 distinct cards x every trump",
                   uses=("trick_winner",))]


def _legal_trick_winner(enc: Encoding) -> list[Target]:
    """hand.legal_trick_winner: with legal_play_mask as an uninterpreted function and trick_winner by its
    summary; the encoding's legal_play (which reads play.must-trump) only names a counterexample's answer."""
    r = enc.r
    lv, tv, cv, dom = _trick_cards(enc)
    cs, t = [v.term for v in cv], tv.term
    hv = [_hand(f"hand of seat {s}") for s in range(4)]
    hs = [v.term for v in hv]
    abstract = []
    for k in range(4):
        seat = lv.term + seat2((k * enc.step) % 4)
        # by legal_play_mask's summary (the led suit as card // 13: the lemma says it is encode.suit_of)
        abstract.append(_bit(LEGAL(_seat_of(hs, seat), bv6(NO_LED) if k == 0 else suit6(cs[0]), t), cs[k]))
    both = z3.If(z3.And(abstract), as_int(enc.trick_winner_seat(cs, t, lv.term)), z3.IntVal(-1))

    def answer(ev: Any) -> Any:  # the encoding's answer, built only to name a counterexample
        legal = [enc.legal_play(_seat_of(hs, lv.term + seat2((k * enc.step) % 4)),
                                bv6(NO_LED) if k == 0 else suit_of(cs[0]), t, cs[k]) for k in range(4)]
        return ev(z3.If(z3.And(legal), as_int(enc.trick_winner_seat(cs, t, lv.term)), z3.IntVal(-1)))

    cases = [Case("", [*hv, lv, *cv, tv], dom, lambda f, v: f(r, list(v[:4]), v[4], list(v[5:9]), v[9]),
                  lambda res: eq(res, both), answer, "play.winner")]
    return [Target("legal_trick_winner", cases, HAND,
                   "every four 52-bit hands x 4 leaders x 4 distinct cards x every trump",
                   uses=("trick_winner", "legal_play_mask"))]


# this module's builders, in the order their obligations run, and its summarisers: explicit tables, read by
# tarneeb_proofs.engine_family (nothing registers itself when the module is imported)
BUILDERS: tuple[Builder, ...] = (
    Builder("play", ("trick_winner",), _trick_winner),
    Builder("play", ("legal_play_mask", "play_violation"), _follow),
    Builder("play", ("trump_from_reveal", "is_weak_hand"), _reveal_and_weak),
    Builder("play", ("revealed_card", "deal_trump"), _reveal),
    Builder("play", ("weak_seats", "weak_claimers"), _weak_seats),
    Builder("play", ("deal_positions", "deal_hands", "deck_of_hands"), _deal_hands),
    Builder("play", ("team_of", "partner", "team_tricks", "seat_order", "deal_order"), _seat_orders),
    Builder("play", ("hand_leader",), _leader),
    Builder("play", ("trick_turn",), _trick_turn),
    Builder("play", ("trick_winner_seat",), _trick_winner_seat),
    Builder("play", ("legal_trick_winner",), _legal_trick_winner),
)
SUMMARISERS: tuple[Summariser, ...] = (Summariser(("play",), play_summaries),)


__all__ = ["BUILDERS", "SUMMARISERS", "play_summaries", "trumps"]
