"""The transition, the deal and the rest: a deck dealt, a weak seat's choice, every action of the wrong kind, and
the states a match starts from, each equal to the specification's.

* ``Dealing`` x ``Deal``: every table and every deck of 52 cards 0..51: the hands deal_hands gives (for every
  function in its place, so for the engine's own, proved equal to deal.order's by the family ``engine``), the deck
  refused unless they cover the pack (deal.deck), else handed to ``_dealt``; decks of 51 and 53 cards refused,
  whatever hands they would deal.
  ``_dealt``, for every dealer, deck and four hands: the dealer's card and trump (trump.source), a weak hand's redeal
  or its holder's choice (deal.weak-redeal), or the bidding opened by the seat after the dealer (bid.turn,
  auction.order). That hands covering the pack are 13 distinct cards each (a deck that is the pack once) is the
  counting fact the specification of the deal states; it is tested, not proved here.
* ``Claiming`` x ``Redeal``: for 1 to 4 weak seats still to choose: asking cancels the deal (the next seat deals),
  keeping passes the choice on or opens the bidding.
* Every state and every action of a kind its phase does not take: refused (a wrong phase), citing the clause that
  decided the match once it is over, deal.weak-redeal while a weak seat chooses, hand.tricks otherwise.
* ``start`` and ``part_way``: every first dealer (any integer) and every four scores; the start refused where the
  spec refuses it (deal.first-dealer, seats.partners, win.play-on), else the state before the first deal.
"""

from __future__ import annotations

import itertools
from typing import Any

import z3

from tarneeb.core import state as S
from tarneeb.core.actions import ASK, PASS, PLAYS, Deal, NameTrump, Redeal
from tarneeb.errors import IllegalDeal, WrongPhase

from .bridge import Case, Summary, Target, Var, as_bv, as_int, ivar, seats_after, value
from .bridge_scores import _targets_in_force
from .encode import Encoding, Term, card_bit, seat2
from .refine import ANY, HAND, RULES, TRANSITION, Carried, SymTable, card_var, hand_var, refused, same, seat_var

_HANDS: Any = Carried("the hands")
_REVEALED: Any = Carried("the dealer's card")
_TRUMP: Any = Carried("trump")


def _dealt_hands(enc: Encoding, dealer: int, deck: list[Term]) -> list[Term]:
    """deal.order: each seat's hand, the sum of the bits of the cards dealt to it (52 bits each)."""
    order = seats_after(enc, dealer)
    out = []
    for seat in range(4):
        mine = [card_bit(c) for i, c in enumerate(deck) if order[enc.dealt_to(i)[0]] == seat]
        out.append(z3.Sum(mine))
    return out


def _table_of(t: SymTable, dealer: Any = None, ended: int = 0, cancelled: int = 0) -> Any:
    return S.Table(t.dealer.term if dealer is None else dealer, tuple(t.scores_t()), t.target_term(), t.games,
                   t.deals.term + ended, t.played.term, t.redeals.term + cancelled)


def _opened(enc: Encoding, table: Any, deal: Any, dealer: Term) -> tuple[Any, Any]:
    """The specification's state and event when the bidding opens: the seat after the dealer speaks first."""
    first = enc.next_seat2(dealer)
    opened = S.BiddingOpened(deal.revealed, deal.trump, first)
    if enc.r.individual:
        return S.Bidding(table, deal, first, (0, 0, 0, 0), 0), opened
    return S.Calling(table, deal, first, None, -1, 0, 0, (True, True, True, True)), opened


# ---------------------------------------------------------------------- a deck dealt
# deal_hands in the proof of the deal's check as one uninterpreted function a seat (dealer and the 52 cards in, a
# 52-bit hand out): the check is proved for every function in deal_hands' place, so for the engine's own, which
# its proof shows equal to the encoding's (a hand is the sum of its cards' bits)
def _dealt_functions(n: int) -> list[Any]:
    return [z3.Function(f"dealt_{n}_to_seat_{s}", z3.BitVecSort(2), *[z3.BitVecSort(6)] * n, z3.BitVecSort(53))
            for s in range(4)]


_DEALT = {n: _dealt_functions(n) for n in (51, 52, 53)}  # a deck of 52 cards; 51 or 53 must be refused before
_TO_DEALT = "the deck dealt: _dealt is called"


class _Deal:
    """The deal's check (deal.deck): the hands deal_hands gives, the deck refused unless it is of 52 cards and they
    cover the pack, else handed to ``_dealt`` (a marker here, proved on its own)."""

    def __init__(self, enc: Encoding, n: int = 52) -> None:
        self.enc, self.n = enc, n
        self.table = SymTable.make(enc.r, None, ())
        self.deck = [card_var(f"card {i + 1} of the deck") for i in range(n)]

    def vars(self) -> list[Var]:
        return [*self.table.vars(), *self.deck]

    def domain(self) -> list[Term]:
        return self.table.domain(self.enc.r) + [z3.ULT(v.term, 52) for v in self.deck]

    def hands(self) -> list[Term]:
        d = self.table.dealer.term
        return [_DEALT[self.n][s](d, *[v.term for v in self.deck]) for s in range(4)]

    def legal(self) -> Term:
        """deal.deck: 52 cards, and the four hands they deal cover the pack (each of its 52 cards dealt)."""
        if self.n != 52:
            return z3.BoolVal(False)
        h = self.hands()
        return (h[0] | h[1] | h[2] | h[3]) == z3.BitVecVal((1 << 52) - 1, 53)

    def call(self, f: Any, vals: list[Any]) -> Any:
        n = len(self.table.vars())
        return f(self.enc.r, S.Dealing(self.table.engine(vals[:n])), Deal(tuple(vals[n:])))

    def claim(self, res: Any) -> Term:
        if not (isinstance(res, tuple) and len(res) == 5 and res[0] == _TO_DEALT):
            return z3.BoolVal(False)
        _, _, table, deck, hands = res
        return z3.And(self.legal(), same(table, _table_of(self.table)), same(deck, tuple(v.term for v in self.deck)),
                      same(hands, tuple(self.hands())))

    def claim_error(self, err: BaseException) -> Term:
        return z3.And(z3.Not(self.legal()), refused(err, IllegalDeal, None, "deal.deck"))


class _Dealt:
    """``_dealt``: every table (the dealer given), every deck of 52 cards 0..51 and every four hands: the dealer's
    card and trump, a weak hand's redeal or its holder's choice, or the bidding opened."""

    def __init__(self, enc: Encoding, dealer: int) -> None:
        self.enc, self.dealer = enc, dealer
        self.table = SymTable.make(enc.r, None, ())
        self.deck = [card_var(f"card {i + 1} of the deck") for i in range(52)]
        self.hands = [hand_var(f"hand of seat {s}") for s in range(4)]

    def vars(self) -> list[Var]:
        return [*self.table.vars()[1:], *self.deck, *self.hands]  # the dealer is the case's

    def domain(self) -> list[Term]:
        return self.table.domain(self.enc.r) + [z3.ULT(v.term, 52) for v in self.deck]

    def call(self, f: Any, vals: list[Any]) -> Any:
        n = len(self.table.vars()) - 1
        table = self.table.engine([self.dealer, *vals[:n]])
        return f(self.enc.r, table, tuple(vals[n:n + 52]), tuple(vals[n + 52:]))

    def claim(self, res: Any) -> Term:
        enc, r, t = self.enc, self.enc.r, self.table
        deck = [v.term for v in self.deck]
        hands = tuple(v.term for v in self.hands)
        if not (isinstance(res, tuple) and len(res) == 2 and isinstance(res[1], tuple) and res[1]):
            return z3.BoolVal(False)
        got, events = res
        dealer = seat2(self.dealer)
        revealed, trump = _reveal(enc, self.dealer, deck)
        deal = S.Deal(hands, revealed, trump)
        table = _table_of(t, dealer)
        dealt = S.Dealt(t.deals.term, dealer, tuple(deck), hands)
        weak = [enc.weak_hand(h) for h in hands] if r.weak_redeal else [z3.BoolVal(False)] * 4
        any_weak = z3.Or(weak)
        if type(got) is S.Claiming:
            order = seats_after(enc, self.dealer)
            if not enc.weak_claimed() or not isinstance(got.claimers, tuple) or \
                    list(got.claimers) != [s for s in order if s in got.claimers]:  # in bidding order
                return z3.BoolVal(False)
            return z3.And(same(got.table, table), same(got.deal, deal), same(events, (dealt,)),
                          *[weak[s] == z3.BoolVal(s in got.claimers) for s in range(4)])
        if type(got) is S.Dealing:
            nxt = enc.next_seat2(dealer)  # a weak hand: the next seat deals (deal.weak-redeal)
            return z3.And(any_weak, z3.BoolVal(not enc.weak_claimed()), same(got, S.Dealing(_table_of(t, nxt, 1, 1))),
                          same(events, (dealt, S.Cancelled("deal.weak-redeal", ANY),  # type: ignore[arg-type]
                                        S.NextDealer(nxt, "deal.weak-redeal"))))
        want_state, opened = _opened(enc, table, deal, dealer)
        return z3.And(z3.Not(any_weak), same(got, want_state), same(events, (dealt, opened)))


def _reveal(enc: Encoding, dealer: int, deck: list[Term]) -> tuple[Any, Any]:
    """trump.source: (the dealer's card or None, trump or -1) of a deck dealt by ``dealer``."""
    r = enc.r
    order = seats_after(enc, dealer)
    last = max(i for i in range(52) if order[enc.dealt_to(i)[0]] == dealer)
    if r.trump_source == "fixed":
        return None, r.fixed_suit
    if r.trump_source.startswith("revealed"):
        card = deck[last]
        return card, enc.trump_suit(card, card)
    return None, -1


def _deal_stand_ins(enc: Encoding) -> list[Summary]:
    """deal_hands as one uninterpreted function a seat (:data:`_DEALT`, with the encoding's hands as its definition),
    ``_dealt`` as a marker (proved on its own), and weak_seats and weak_claimers as their encodings (their proofs:
    the family ``engine``, stage play)."""
    r = enc.r

    def deck_ok(deck: Any) -> Term | None:
        if not isinstance(deck, (list, tuple)) or len(deck) not in _DEALT:
            return None
        return z3.And(*[z3.And(as_int(c) >= 0, as_int(c) <= 51) for c in deck])

    def hands_applies(rr: Any, dealer: Any, deck: Any) -> Term | None:
        ok = deck_ok(deck)
        return None if rr is not r or ok is None else z3.And(ok, as_int(dealer) >= 0, as_int(dealer) <= 3)

    def hands_value(rr: Any, dealer: Any, deck: Any) -> Any:
        # a deck of 51 or 53 cards: any hands at all (the step must refuse it whatever they are)
        d, cs = as_bv(dealer, 2), [as_bv(c, 6) for c in deck]
        return [value(_DEALT[len(deck)][s](d, *cs)) for s in range(4)]

    def four(hands: Any) -> bool:
        return isinstance(hands, (list, tuple)) and len(hands) == 4

    def weak_value(rr: Any, hands: Any) -> Any:
        if not r.weak_redeal:
            return []
        return [s for s in range(4) if value(enc.weak_hand(as_bv(hands[s], 52)))]

    def claimers_value(rr: Any, dealer: Any, hands: Any) -> Any:
        if not enc.weak_claimed():
            return ()
        return tuple(s for s in seats_after(enc, dealer) if value(enc.weak_hand(as_bv(hands[s], 52))))

    return [Summary("deal_hands", hands_applies, hands_value, RULES),
            Summary("_dealt", lambda *a: z3.BoolVal(True),
                    lambda rr, table, deck, hands: (_TO_DEALT, rr, table, deck, hands), TRANSITION),
            Summary("weak_seats", lambda rr, h: z3.BoolVal(True) if rr is r and four(h) else None, weak_value, HAND),
            Summary("weak_claimers", lambda rr, d, h: z3.BoolVal(True) if rr is r and type(d) is int and four(h)
                    else None, claimers_value, HAND)]


# ---------------------------------------------------------------------- a weak seat's choice
class _Claim:
    def __init__(self, enc: Encoding, left: int) -> None:
        self.enc, self.left = enc, left
        self.table = SymTable.make(enc.r, None, ())
        self.claimers = [seat_var(f"weak seat {i + 1} to choose") for i in range(left)]
        self.ask = Var("asks for a redeal", z3.Bool("asks"))

    def vars(self) -> list[Var]:
        return [*self.table.vars(), *self.claimers, self.ask]

    def domain(self) -> list[Term]:
        cs = [v.term for v in self.claimers]
        return self.table.domain(self.enc.r) + ([z3.Distinct(*cs)] if len(cs) > 1 else [])

    def call(self, f: Any, vals: list[Any]) -> Any:
        n = len(self.table.vars())
        table = self.table.engine(vals[:n])
        claimers = tuple(vals[n:n + self.left])
        return f(self.enc.r, S.Claiming(table, S.Deal(_HANDS, _REVEALED, _TRUMP), claimers), Redeal(vals[-1]))

    def claim(self, res: Any) -> Term:
        enc, t = self.enc, self.table
        seat, ask = self.claimers[0].term, self.ask.term
        if not (isinstance(res, tuple) and len(res) == 2):
            return z3.BoolVal(False)
        got, events = res
        deal = S.Deal(_HANDS, _REVEALED, _TRUMP)
        claimed = S.Claimed(seat, ask)
        if type(got) is S.Dealing:
            nxt = enc.next_seat2(t.dealer.term)
            return z3.And(ask, same(got, S.Dealing(_table_of(t, nxt, 1, 1))),
                          same(events, (claimed, S.Cancelled("deal.weak-redeal", ANY),  # type: ignore[arg-type]
                                        S.NextDealer(nxt, "deal.weak-redeal"))))
        if self.left > 1:
            rest = tuple(v.term for v in self.claimers[1:])
            return z3.And(z3.Not(ask), same(got, S.Claiming(_table_of(t), deal, rest)), same(events, (claimed,)))
        want, opened = _opened(enc, _table_of(t), deal, t.dealer.term)
        return z3.And(z3.Not(ask), same(got, want), same(events, (claimed, opened)))


# ---------------------------------------------------------------------- the wrong kind of action
def _wrong_phase_cases(enc: Encoding) -> list[Case]:
    """Every state type x every kind of action it does not take: refused as a wrong phase."""
    r = enc.r
    table = S.Table(0, (0, 0, 0, 0), 41, ())  # the target is only carried: any will do
    deal = S.Deal(_HANDS, _REVEALED, _TRUMP)
    start = S.Contracted(table, _TRUMP, (0, 0, 0, 0), None)
    states: list[tuple[str, Any, str, int | None]] = [
        ("waiting for a deal", S.Dealing(table), "hand.tricks", None),
        ("a weak seat choosing", S.Claiming(table, deal, (2,)), "deal.weak-redeal", 2),
        ("the bidding", S.Bidding(table, deal, 1, (0, 0, 0, 0), 0) if r.individual else
         S.Calling(table, deal, 1, None, -1, 0, 0, (True, True, True, True)), "hand.tricks", 1),
        ("the play", S.Playing(start, _HANDS, 3, 3, (), (0, 0, 0, 0)), "hand.tricks", 3),
        ("a decided match", S.Over(table, 1, "win.made-bid"), "win.made-bid", None),
        ("a decided match", S.Over(table, 0, "tie.both-qualify"), "tie.both-qualify", None)]
    if not r.individual:
        states.append(("trump to name", S.Naming(table, deal, (2, 8, None)), "hand.tricks", 2))
    takes = {S.Dealing: Deal, S.Claiming: Redeal, S.Bidding: type(PASS), S.Calling: type(PASS), S.Naming: NameTrump,
             S.Playing: type(PLAYS[0])}
    actions = [Deal(tuple(range(52))), ASK, PASS, NameTrump(2), PLAYS[7]]
    cases = []
    for (label, st, clause, seat), action in itertools.product(states, actions):
        if takes.get(type(st)) is type(action):
            continue
        def wrong(err: BaseException, clause: str = clause, seat: int | None = seat) -> Term:
            return refused(err, WrongPhase, seat, clause)

        cases.append(Case(f"{label}, {action}", [], [], lambda f, v, st=st, action=action: f(r, st, action),
                          lambda res: z3.BoolVal(False), lambda ev: "refused (a wrong phase)", clause, claim_error=wrong))
    return cases


# ---------------------------------------------------------------------- where a match starts
def _start_cases(enc: Encoding) -> list[Case]:
    """start(rules, first_dealer, scores): every integer first dealer, with no scores or four integer scores."""
    r = enc.r
    fd = ivar("first dealer")
    scores = [ivar(f"start score of seat {s}") for s in range(4)]
    sc = [v.term for v in scores]
    firsts = z3.Or([fd.term == d for d in enc.first_dealers()])
    seat = z3.And(fd.term >= 0, fd.term <= 3)
    partners = z3.BoolVal(True) if r.individual else z3.And(sc[0] == sc[2], sc[1] == sc[3])

    def ok_fresh(res: Any) -> Term:
        want = S.Dealing(S.Table(fd.term, (0, 0, 0, 0), r.target, ()))
        return z3.And(firsts, same(res, want))

    def ok_given(res: Any) -> Term:
        want = S.Dealing(S.Table(fd.term, tuple(sc), r.target, ()))
        return z3.And(seat, partners, same(res, want))

    return [Case("no scores", [fd], [], lambda f, v: f(r, v[0]), ok_fresh, lambda ev: "the state before the first deal",
                 "deal.first-dealer",
                 claim_error=lambda err: z3.And(z3.Not(firsts), refused(err, IllegalDeal, None, "deal.first-dealer"))),
            Case("four scores", [fd, *scores], [], lambda f, v: f(r, v[0], list(v[1:])), ok_given,
                 lambda ev: "the state before the first deal", "seats.partners",
                 claim_error=lambda err: z3.Or(z3.And(z3.Not(seat), refused(err, IllegalDeal, None, "deal.first-dealer")),
                                               z3.And(seat, z3.Not(partners),
                                                      refused(err, IllegalDeal, None, "seats.partners"))))]


def _part_way_cases(enc: Encoding) -> list[Case]:
    """part_way(rules, dealer, scores, target, games): every dealer and four integer scores, at each target in force
    (and one that is not), with the games given (0-2, or inferred)."""
    r = enc.r
    cases = []
    targets = _targets_in_force(enc)
    for target in [None, *targets, max(targets) + 1]:
        for games in (None, (), (0,), (1, 0), (2,)):
            dv = ivar("dealer")
            scores = [ivar(f"score of seat {s}") for s in range(4)]
            sc = [v.term for v in scores]
            seat = z3.And(dv.term >= 0, dv.term <= 3)
            partners = z3.BoolVal(True) if r.individual else z3.And(sc[0] == sc[2], sc[1] == sc[3])
            k = len(games) if games is not None else next(
                (g for g in range(3) if target is None or _in_force(enc, g) == target), None)
            bad_games = games is not None and any(g not in (0, 1) for g in games)
            want_target = None if k is None else _in_force(enc, k)
            target_ok = k is not None and not bad_games and (target is None or target == want_target)

            def claim(res: Any, dv: Var = dv, sc: list[Term] = sc, seat: Term = seat, partners: Term = partners,
                      k: int | None = k, target_ok: bool = target_ok, games: Any = games) -> Term:
                if not target_ok or k is None:
                    return z3.BoolVal(False)
                kept = tuple(games) if games is not None else (0,) * k
                want = S.Dealing(S.Table(dv.term, tuple(sc), _in_force(enc, k), kept))
                return z3.And(seat, partners, same(res, want))

            def claim_error(err: BaseException, seat: Term = seat, partners: Term = partners,
                            target_ok: bool = target_ok) -> Term:
                clause = z3.If(z3.Not(seat), z3.StringVal("deal.first-dealer"),
                               z3.If(z3.Not(partners), z3.StringVal("seats.partners"), z3.StringVal("win.play-on")))
                return z3.And(z3.Or(z3.Not(seat), z3.Not(partners), z3.BoolVal(not target_ok)),
                              refused(err, IllegalDeal, None, clause))

            cases.append(Case(f"target {target}, games {games}", [dv, *scores], [],
                              lambda f, v, target=target, games=games: f(r, v[0], list(v[1:]), target,
                                                                         None if games is None else list(games)),
                              claim, lambda ev: "the state part-way", "win.play-on", claim_error=claim_error))
    return cases


def _in_force(enc: Encoding, games: int) -> int:
    return int(z3.simplify(enc.target_in_force(z3.IntVal(games))).as_long())


def check_of_a_deck(enc: Encoding) -> Target:
    """The deal's check: every deck of 52 cards 0..51 (and of 51 and 53), handed to ``_dealt`` or refused."""
    deals = [_Deal(enc, n) for n in (52, 51, 53)]
    cases = [Case(f"a deck of {d.n} cards 0..51", d.vars(), d.domain(), lambda f, v, d=d: d.call(f, list(v)), d.claim,
                  lambda ev: "the specification's deal", "deal.deck", claim_error=d.claim_error) for d in deals]
    return Target("step", cases, TRANSITION, "every table x every deck of 52 cards 0..51; decks of 51 and 53",
                  uses=("deal_hands", "_dealt", "refuse"))


def deck_dealt(enc: Encoding) -> Target:
    """``_dealt``: every dealer, deck and four hands."""
    dealts = [_Dealt(enc, dealer) for dealer in range(4)]
    return Target("_dealt", [Case(f"dealer {x.dealer}", x.vars(), x.domain(), lambda f, v, x=x: x.call(f, list(v)),
                                  x.claim, lambda ev: "the specification's deal", "deal.order") for x in dealts],
                  TRANSITION, "every dealer x every deck of 52 cards 0..51 x every four hands",
                  uses=("weak_seats", "weak_claimers"))


def step_of_a_claim(enc: Encoding) -> Target | None:
    """A weak seat asks or keeps, for 1-4 weak seats to choose; None where no weak seat chooses."""
    if not enc.weak_claimed():
        return None
    claims = [_Claim(enc, n) for n in range(1, 5)]
    return Target("step", [Case(f"{c.left} weak seat(s) to choose", c.vars(), c.domain(),
                                lambda f, v, c=c: c.call(f, list(v)), c.claim,
                                lambda ev: "the specification's step", "deal.weak-redeal") for c in claims],
                  TRANSITION, "every table x 1-4 weak seats to choose x ask or keep", uses=("refuse",))


def wrong_phases(enc: Encoding) -> Target:
    """Every state kind and every action of another kind: a wrong phase."""
    return Target("step", _wrong_phase_cases(enc), TRANSITION, "every state kind x every action of another kind",
                  uses=("refuse",))


def starts(enc: Encoding) -> Target:
    """The target of ``transition.start``: every first dealer, no scores or four integer scores."""
    return Target("start", _start_cases(enc), TRANSITION, "every integer first dealer x no or four integer scores")


def starts_part_way(enc: Encoding) -> Target:
    """The target of ``transition.part_way``: every dealer, scores, target in force and games won."""
    return Target("part_way", _part_way_cases(enc), TRANSITION,
                  "every dealer x four integer scores x each target in force (and one not) x 0-2 games")


DEAL_TARGETS = (check_of_a_deck, deck_dealt, step_of_a_claim, wrong_phases, starts, starts_part_way)


def deal_stand_ins(enc: Encoding) -> list[Summary]:
    """The rule functions the deal calls, as their encodings."""
    return _deal_stand_ins(enc)


__all__ = ["DEAL_TARGETS", "check_of_a_deck", "deal_stand_ins", "deck_dealt", "starts", "starts_part_way",
           "step_of_a_claim", "wrong_phases"]
