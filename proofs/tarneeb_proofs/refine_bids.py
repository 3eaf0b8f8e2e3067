"""The transition, bidding: an individual bid, a call of the auction and the naming of trump, in every state of
their phase, equal the specification's step.

* ``Bidding`` x ``Bid``: for each number of bids already made (0 to 3) and each kind of bid (a number of tricks,
  a pass, a number naming a strain), every table, bids so far and seat to bid: the bid refused with its clause
  (bid.range, bid.excluded, bid.rising-min, bid.no-pass, bid.meaning), or the next seat to bid, or after the fourth
  bid the play (the seat after the dealer leads: play.lead) or the deal cancelled by the bid total (bid.total) and
  the next dealer (redeal.dealer).
* ``Calling`` x ``Bid``: every auction state (no top bid or a top bid; the holder, passes, calls so far, seats still
  in, the seat to speak) and every call (a pass, a number, a number and a strain): the call refused with its clause
  (auction.*), or the auction going on, or ended: the contract (then trump named by the Egyptian strain and the
  play, or the holder to name it), or all passed (auction.all-pass) and the next dealer.
* ``Naming`` x ``NameTrump``: every contract and every integer named: refused unless a suit (trump.source), else
  the play, the holder leading.

What a step only carries (the hands, the dealer's card, trump before the auction names it) is an opaque object
(:class:`tarneeb_proofs.refine.Carried`): a step that read it would be refused by name. The rule functions are
stood in by their encodings (:func:`bid_stand_ins`), each proved by the family ``engine``.
"""

from __future__ import annotations

from typing import Any

import z3

from tarneeb.core import hand as core_hand
from tarneeb.core import state as S
from tarneeb.core.actions import Bid, NameTrump
from tarneeb.errors import IllegalBid, IllegalTrump

from .bridge import Case, Summary, Target, Var, as_int, boolvar, cite, ivar, value
from .bridge_bids import _call_parts, strain_ok
from .encode import Encoding, Term, seat2
from .encode_auction import AuctionState
from .refine import ANY, HAND, RULES, TRANSITION, Carried, SymTable, refused, same, seat_var

_HANDS: Any = Carried("the hands")
_REVEALED: Any = Carried("the dealer's card")
_TRUMP: Any = Carried("trump")
_CLAUSES = ("auction.all-pass", "auction.egyptian", "auction.range", "auction.raise", "auction.dealer-privilege",
            "auction.continuous")


def _at(xs: list[Term], i: Term) -> Term:
    """``xs[i]`` for a symbolic index ``i`` (a 2-bit seat)."""
    out = xs[3]
    for j in (2, 1, 0):
        out = z3.If(i == j, xs[j], out)
    return out


def _dealing(table: SymTable, dealer: Term, cancelled: bool) -> Any:
    """The specification's Table after a deal ended (cancelled or not) with ``dealer`` to deal next."""
    t = table
    return S.Table(dealer, tuple(t.scores_t()), t.target_term(), t.games, t.deals.term + 1,
                   t.played.term + (0 if cancelled else 1), t.redeals.term + (1 if cancelled else 0))


def _table_of(table: SymTable) -> Any:
    t = table
    return S.Table(t.dealer.term, tuple(t.scores_t()), t.target_term(), t.games, t.deals.term, t.played.term,
                   t.redeals.term)


# ---------------------------------------------------------------------- individual bids
class _Bid:
    """An individual bid with ``spoken`` bids made before it, of kind ``number``, ``pass`` or ``strain``."""

    def __init__(self, enc: Encoding, spoken: int, kind: str) -> None:
        r = enc.r
        self.enc, self.spoken, self.kind = enc, spoken, kind
        self.table = SymTable.make(r, None, ())
        self.to_move = seat_var("seat to bid")
        self.bids = [ivar(f"bid of seat {s} so far") for s in range(4)]
        self.n = ivar("tricks bid") if kind != "pass" else None
        self.strain = ivar("strain named") if kind == "strain" else None

    def vars(self) -> list[Var]:
        return [*self.table.vars(), self.to_move, *self.bids, *([self.n] if self.n else []),
                *([self.strain] if self.strain else [])]

    def domain(self) -> list[Term]:
        return self.table.domain(self.enc.r)

    def call(self, f: Any, vals: list[Any]) -> Any:
        it = iter(vals)
        table = self.table.engine([next(it) for _ in self.table.vars()])
        to_move = next(it)
        bids = tuple(next(it) for _ in range(4))
        n = next(it) if self.n else None
        strain = next(it) if self.strain else None
        state = S.Bidding(table, S.Deal(_HANDS, _REVEALED, _TRUMP), to_move, bids, self.spoken)
        return f(self.enc.r, state, Bid(n, strain))

    def ok(self) -> Term:
        if self.n is None or self.strain is not None:
            return z3.BoolVal(False)
        score = _at(self.table.scores_t(), self.to_move.term)
        return self.enc.legal_bid(score, self.n.term)

    def clause(self) -> Term:
        r = self.enc.r
        if self.n is None:
            return z3.StringVal("bid.no-pass")
        if self.strain is not None:
            return z3.StringVal("bid.meaning")
        b = self.n.term
        excluded = z3.Or([b == x for x in sorted(r.bid_excluded)]) if r.bid_excluded else z3.BoolVal(False)
        return z3.If(z3.Or(b < r.bid_min, b > r.bid_max), z3.StringVal("bid.range"),
                     z3.If(excluded, z3.StringVal("bid.excluded"), z3.StringVal("bid.rising-min")))

    def claim(self, res: Any) -> Term:
        enc, t = self.enc, self.table
        seat, n = self.to_move.term, self.n.term if self.n else z3.IntVal(0)
        bids = [z3.If(seat == j, n, self.bids[j].term) for j in range(4)]
        called = S.Called(seat, Bid(n, None))
        if not (isinstance(res, tuple) and len(res) == 2):
            return z3.BoolVal(False)
        got, events = res
        table = _table_of(t)
        if self.spoken < 3:
            want = S.Bidding(table, S.Deal(_HANDS, _REVEALED, _TRUMP), enc.next_seat2(seat), tuple(bids),
                             self.spoken + 1)
            return z3.And(self.ok(), same(got, want), same(events, (called,)))
        played = enc.hand_played(bids, t.scores_t())
        if type(got) is S.Playing:
            lead = enc.first_leader(t.dealer.term, seat2(0))
            want_p = S.Playing(S.Contracted(table, _TRUMP, tuple(bids), None), _HANDS, lead, lead, (),
                               (0, 0, 0, 0))
            return z3.And(self.ok(), played, same(got, want_p), same(events, (called, S.PlayStarted(lead))))
        nxt = enc.dealer_after_redeal(t.dealer.term)
        want_d = S.Dealing(_dealing(t, nxt, True))
        return z3.And(self.ok(), z3.Not(played), same(got, want_d),
                      same(events, (called, S.Cancelled("bid.total", ANY), S.NextDealer(nxt, "redeal.dealer"))))  # type: ignore[arg-type]

    def claim_error(self, err: BaseException) -> Term:
        return z3.And(z3.Not(self.ok()), refused(err, IllegalBid, self.to_move.term, self.clause()))


# ---------------------------------------------------------------------- the auction
class _Call:
    """A call of the auction: ``has_top`` whether a bid was made before, ``kind`` pass / number / strain."""

    def __init__(self, enc: Encoding, has_top: bool, kind: str) -> None:
        r = enc.r
        self.enc, self.has_top, self.kind = enc, has_top, kind
        self.table = SymTable.make(r, None, ())
        self.to_move = seat_var("seat to speak")
        self.holder = ivar("holder of the top bid")
        self.passes, self.spoken = ivar("passes"), ivar("calls so far")
        self.active = [boolvar(f"seat {j} still in") for j in range(4)]
        self.top = [ivar("top bid tricks")] + ([ivar("top bid strain")] if r.egyptian else []) if has_top else []
        self.n = ivar("tricks bid") if kind != "pass" else None
        self.strain = ivar("strain bid") if kind == "strain" else None

    def vars(self) -> list[Var]:
        return [*self.table.vars(), self.to_move, self.holder, self.passes, self.spoken, *self.active, *self.top,
                *([self.n] if self.n else []), *([self.strain] if self.strain else [])]

    def domain(self) -> list[Term]:
        """The auction's states: the seat to speak is still in; the holder of the top bid is another seat still in
        (or -1 before the first bid); passes 0-3 (every pass but the last leaves a seat to speak)."""
        r = self.enc.r
        seat, holder, active = self.to_move.term, self.holder.term, [a.term for a in self.active]
        out = self.table.domain(r) + [self.passes.term >= 0, self.passes.term <= 3, self.spoken.term >= 0,
                                      _at(active, seat)]
        if self.has_top:
            out += [holder >= 0, holder <= 3, z3.Or([z3.And(holder == j, active[j]) for j in range(4)]),
                    z3.BV2Int(seat) != holder, self.top[0].term >= r.min_bid, self.top[0].term <= 13]
            if r.egyptian:
                out += [self.top[1].term >= 0, self.top[1].term <= 4]
        else:
            out += [holder == -1]
        return out

    def call(self, f: Any, vals: list[Any]) -> Any:
        it = iter(vals)
        table = self.table.engine([next(it) for _ in self.table.vars()])
        to_move, holder, passes, spoken = next(it), next(it), next(it), next(it)
        active = tuple(next(it) for _ in range(4))
        top = Bid(next(it), next(it) if self.enc.r.egyptian else None) if self.has_top else None
        n = next(it) if self.n else None
        strain = next(it) if self.strain else None
        state = S.Calling(table, S.Deal(_HANDS, _REVEALED, _TRUMP), to_move, top, holder, passes, spoken, active)
        return f(self.enc.r, state, Bid(n, strain))

    def spec(self) -> tuple[AuctionState, Term, Term, Term, Term]:
        """(the state before, the call's n, strain, whether it is legal, the state after)."""
        enc = self.enc
        top_key = enc.key(self.top[0].term, self.top[1].term if enc.r.egyptian else z3.IntVal(0)) \
            if self.has_top else z3.IntVal(-1)
        st = AuctionState(z3.BoolVal(False), top_key, self.holder.term, [a.term for a in self.active],
                          self.passes.term, self.spoken.term, z3.BV2Int(self.to_move.term))
        en, es, shape_ok = _call_parts(enc, self.n.term if self.n else None, self.strain.term if self.strain else None)
        ok = z3.And(shape_ok, enc.call_ok(st, z3.BV2Int(self.table.dealer.term), en, es))
        return st, en, es, ok, enc.auction_step(st, en, es)

    def claim(self, res: Any) -> Term:
        enc, t, r = self.enc, self.table, self.enc.r
        st, en, es, ok, after = self.spec()
        seat = self.to_move.term
        bid = Bid(self.n.term, self.strain.term if self.strain else None) if self.n else Bid(None)
        called = S.Called(seat, bid)
        top = bid if self.n else (Bid(self.top[0].term, self.top[1].term if r.egyptian else None) if self.has_top
                                  else None)
        if not (isinstance(res, tuple) and len(res) == 2):
            return z3.BoolVal(False)
        got, events = res
        table = _table_of(t)
        if type(got) is S.Calling:
            want = S.Calling(table, S.Deal(_HANDS, _REVEALED, _TRUMP), after.to_move, top, after.holder,
                             after.passes, after.spoken, tuple(after.active))
            return z3.And(ok, z3.Not(after.ended), same(got, want), same(events, (called,)))
        if type(got) is S.Dealing:
            nxt = enc.next_seat2(t.dealer.term)  # the next seat deals after all four passed (auction.all-pass)
            want_d = S.Dealing(_dealing(t, nxt, True))
            return z3.And(ok, after.ended, after.top < 0, same(got, want_d),
                          same(events, (called, S.Cancelled("auction.all-pass", ANY),  # type: ignore[arg-type]
                                        S.NextDealer(nxt, "auction.all-pass"))))
        if top is None:
            return z3.BoolVal(False)
        contract = (after.holder, top.n, top.strain)
        made = S.ContractMade(contract)  # type: ignore[arg-type]
        if type(got) is S.Naming:
            return z3.And(ok, after.ended, after.top >= 0, z3.BoolVal(not r.egyptian),
                          same(got, S.Naming(table, S.Deal(_HANDS, _REVEALED, _TRUMP), contract)),  # type: ignore[arg-type]
                          same(events, (called, made)))
        if type(got) is not S.Playing or not r.egyptian:
            return z3.BoolVal(False)
        lead = seat2(z3.Int2BV(after.holder, 2)) if z3.is_int(after.holder) else after.holder
        want_p = S.Playing(S.Contracted(table, top.strain, (0, 0, 0, 0), contract), _HANDS, lead, lead, (),  # type: ignore[arg-type]
                           (0, 0, 0, 0))
        return z3.And(ok, after.ended, after.top >= 0, same(got, want_p),
                      same(events, (called, made, S.TrumpNamed(top.strain), S.PlayStarted(lead))))  # type: ignore[arg-type]

    def claim_error(self, err: BaseException) -> Term:
        enc = self.enc
        st, en, es, ok, _ = self.spec()
        why = enc.call_refusal(st, z3.BV2Int(self.table.dealer.term), en, es,
                               strain_ok(enc, self.strain.term if self.strain else None), self.n is None)
        return z3.And(z3.Not(ok), refused(err, IllegalBid, self.to_move.term, why))


# ---------------------------------------------------------------------- naming trump
class _Name:
    """The contract holder names trump."""

    def __init__(self, enc: Encoding) -> None:
        self.enc = enc
        self.table = SymTable.make(enc.r, None, ())
        self.holder, self.n, self.suit = seat_var("contract holder"), ivar("contract tricks"), ivar("suit named")

    def vars(self) -> list[Var]:
        return [*self.table.vars(), self.holder, self.n, self.suit]

    def domain(self) -> list[Term]:
        return self.table.domain(self.enc.r) + [self.n.term >= self.enc.r.min_bid, self.n.term <= 13]

    def call(self, f: Any, vals: list[Any]) -> Any:
        it = iter(vals)
        table = self.table.engine([next(it) for _ in self.table.vars()])
        holder, n, suit = next(it), next(it), next(it)
        return f(self.enc.r, S.Naming(table, S.Deal(_HANDS, _REVEALED, _TRUMP), (holder, n, None)), NameTrump(suit))

    def ok(self) -> Term:
        return z3.And(self.suit.term >= 0, self.suit.term < 4)

    def claim(self, res: Any) -> Term:
        if not (isinstance(res, tuple) and len(res) == 2):
            return z3.BoolVal(False)
        got, events = res
        holder, suit = self.holder.term, self.suit.term
        contract = (holder, self.n.term, None)
        want = S.Playing(S.Contracted(_table_of(self.table), suit, (0, 0, 0, 0), contract), _HANDS, holder, holder,
                         (), (0, 0, 0, 0))
        return z3.And(self.ok(), same(got, want), same(events, (S.TrumpNamed(suit), S.PlayStarted(holder))))

    def claim_error(self, err: BaseException) -> Term:
        return z3.And(z3.Not(self.ok()), refused(err, IllegalTrump, self.holder.term, "trump.source"))


# ---------------------------------------------------------------------- the rule functions, as their encodings
def bid_stand_ins(enc: Encoding) -> list[Summary]:
    """bid_violation, hand_is_played, bid_total and auction_call as their encodings, on the domains their own
    proofs cover (the family ``engine``, stages bids and auction)."""
    r = enc.r

    def whole(x: Any) -> bool:
        return type(x) is int or hasattr(x, "t")

    def bv_applies(rr: Any, score: Any, bid: Any, strain: Any = None) -> Term | None:
        return z3.BoolVal(True) if rr is r and whole(score) and (bid is None or whole(bid)) and (
            strain is None or whole(strain)) else None

    def bv_value(rr: Any, score: Any, bid: Any, strain: Any = None) -> Any:
        if strain is not None:
            return "bid.meaning", "(the reason)"
        if bid is None:
            return cite(r, "bid.no-pass", "bid.range"), "(the reason)"
        b = as_int(bid)
        if value(enc.legal_bid(as_int(score), b)):
            return None
        excluded = z3.Or([b == x for x in sorted(r.bid_excluded)]) if r.bid_excluded else z3.BoolVal(False)
        if value(z3.Or(b < r.bid_min, b > r.bid_max)):
            return "bid.range", "(the reason)"
        return ("bid.excluded" if value(excluded) else cite(r, "bid.rising-min", "bid.range")), "(the reason)"

    def four(x: Any) -> bool:
        return isinstance(x, (list, tuple)) and len(x) == 4 and all(whole(y) for y in x)

    def played_applies(rr: Any, bids: Any, scores: Any) -> Term | None:
        return z3.BoolVal(True) if rr is r and four(bids) and four(scores) else None

    def played_value(rr: Any, bids: Any, scores: Any) -> Any:
        return value(enc.hand_played([as_int(b) for b in bids], [as_int(s) for s in scores]))

    def total_value(rr: Any, bids: Any, scores: Any) -> Any:
        return value(z3.Sum([as_int(b) for b in bids])), value(enc.total_needed([as_int(s) for s in scores]))

    return [Summary("bid_violation", bv_applies, bv_value, RULES),
            Summary("hand_is_played", played_applies, played_value, RULES),
            Summary("bid_total", played_applies, total_value, RULES),
            Summary("auction_call", _auction_applies(enc), _auction_value(enc), HAND)]


def _auction_applies(enc: Encoding) -> Any:
    r = enc.r

    def applies(rr: Any, a: Any, n: Any, strain: Any, *, force: bool = False) -> Term | None:
        if rr is not r or force or type(a) is not core_hand.Auction or a.to_speak is None or len(a.active) != 4:
            return None
        seat, holder = as_int(a.to_speak), as_int(a.holder)
        active = [_truth(x) for x in a.active]
        out = [as_int(a.passes) >= 0, as_int(a.passes) <= 3, as_int(a.spoken) >= 0, as_int(a.dealer) >= 0,
               as_int(a.dealer) <= 3, seat >= 0, seat <= 3, z3.Or([z3.And(seat == j, active[j]) for j in range(4)])]
        if a.top is None:
            return z3.And(*out, holder == -1)
        tn = as_int(a.top[0])
        out += [holder >= 0, holder <= 3, holder != seat, z3.Or([z3.And(holder == j, active[j]) for j in range(4)]),
                tn >= r.min_bid, tn <= 13]
        if r.egyptian:
            if a.top[1] is None:
                return None
            out += [as_int(a.top[1]) >= 0, as_int(a.top[1]) <= 4]
        elif a.top[1] is not None:
            return None
        return z3.And(*out)

    return applies


def _truth(x: Any) -> Term:
    t = x.t if hasattr(x, "t") else z3.BoolVal(bool(x))
    return t if z3.is_bool(t) else t != 0


def _auction_value(enc: Encoding) -> Any:
    def value_of(rr: Any, a: Any, n: Any, strain: Any, *, force: bool = False) -> Any:
        top_key = z3.IntVal(-1) if a.top is None else enc.key(as_int(a.top[0]), z3.IntVal(0) if a.top[1] is None
                                                               else as_int(a.top[1]))
        st = AuctionState(z3.BoolVal(False), top_key, as_int(a.holder), [_truth(x) for x in a.active],
                          as_int(a.passes), as_int(a.spoken), as_int(a.to_speak))
        nt = None if n is None else as_int(n)
        stt = None if strain is None else as_int(strain)
        en, es, shape_ok = _call_parts(enc, nt, stt)
        ok = z3.And(shape_ok, enc.call_ok(st, as_int(a.dealer), en, es))
        if not value(ok):
            why = enc.call_refusal(st, as_int(a.dealer), en, es, strain_ok(enc, stt), n is None)
            for c in _CLAUSES:
                if value(why == z3.StringVal(c)):
                    return c, "(the reason)"
            raise AssertionError("the encoding's refusal names none of the auction's clauses")
        after = enc.auction_step(st, en, es)
        a.spoken, a.passes = value(after.spoken), value(after.passes)
        a.active = [value(x) for x in after.active]
        if n is not None:
            a.top, a.holder = (n, strain), value(after.holder)
        a.to_speak = None if value(after.ended) else value(after.to_move)
        return None

    return value_of


def step_of_a_bid(enc: Encoding) -> Target | None:
    """An individual bid, in every bidding state (see the module docstring); None in the auction family."""
    if not enc.r.individual:
        return None
    bids = [_Bid(enc, spoken, kind) for spoken in range(4) for kind in ("number", "pass", "strain")]
    cases = [Case(f"{b.spoken} bid(s) made, a {b.kind}", b.vars(), b.domain(), lambda f, v, b=b: b.call(f, list(v)),
                  b.claim, lambda ev: "the specification's step", "bid.range", claim_error=b.claim_error)
             for b in bids]
    return Target("step", cases, TRANSITION, "every bidding state x every bid (a number, a pass, a strain)",
                  uses=("bid_violation", "hand_is_played", "bid_total", "refuse"))


def step_of_a_call(enc: Encoding) -> Target | None:
    """A call of the auction, in every auction state; None in the individual family."""
    if enc.r.individual:
        return None
    calls = [_Call(enc, has_top, kind) for has_top in (False, True) for kind in ("pass", "number", "strain")]
    cases = [Case(f"{'a top bid' if c.has_top else 'no bid yet'}, a {c.kind}", c.vars(), c.domain(),
                  lambda f, v, c=c: c.call(f, list(v)), c.claim, lambda ev: "the specification's step",
                  "auction.order", claim_error=c.claim_error) for c in calls]
    return Target("step", cases, TRANSITION, "every auction state x every call (a pass, a number, a strain)",
                  uses=("auction_call", "refuse"))


def step_of_naming_trump(enc: Encoding) -> Target | None:
    """The holder names trump, for every contract and integer named; None where no one names it."""
    r = enc.r
    if r.individual or r.egyptian:
        return None
    nm = _Name(enc)
    return Target("step", [Case("the holder names trump", nm.vars(), nm.domain(), lambda f, v: nm.call(f, list(v)),
                                nm.claim, lambda ev: "the specification's step", "trump.source",
                                claim_error=nm.claim_error)], TRANSITION, "every contract x every integer named",
                  uses=("refuse",))


BID_TARGETS = (step_of_a_bid,)
AUCTION_TARGETS = (step_of_a_call, step_of_naming_trump)


__all__ = ["AUCTION_TARGETS", "BID_TARGETS", "bid_stand_ins", "step_of_a_bid", "step_of_a_call",
           "step_of_naming_trump"]

