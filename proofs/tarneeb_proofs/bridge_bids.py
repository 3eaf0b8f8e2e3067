"""Family ``engine``, stages ``bids`` (individual bids), ``auction`` and ``turn`` (the team auction).

Rule functions (:mod:`tarneeb.core.rules`): ``min_bid_for``, ``legal_bids``, ``bid_violation``, ``total_in_force``,
``bid_total``, ``hand_is_played``,
``dealer_after_redeal``, ``next_seat``, ``bid_key``, ``dealer_forced``, ``auction_bid_violation``,
``auction_next``; hand steps (:mod:`tarneeb.core.hand`): ``bidding_order``, ``bid_turn``, ``next_dealer``,
``auction_start``, ``auction_call``. Method: :mod:`tarneeb_proofs.bridge`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import z3

from tarneeb.core.hand import Auction

from .bridge import (
    HAND,
    Builder,
    Case,
    Summariser,
    Summary,
    Target,
    Var,
    as_int,
    between,
    boolvar,
    cite,
    eq,
    ivar,
    same,
    seat_after,
    term_of,
    value,
)
from .encode import Encoding, Term
from .encode_auction import AuctionState

STRAIN_TEXT = "CDHSN"


def _strain(s: Any) -> str:
    return STRAIN_TEXT[s] if type(s) is int and 0 <= s <= 4 else str(s)


# ================================================================ seats and dealers
def _seats(enc: Encoding) -> list[Target]:
    r = enc.r
    dv = ivar("dealer")
    d = dv.term
    dom = [between(d, 0, 3)]
    nxt, red = enc.next_seat(d), enc.dealer_after_redeal(d)
    out = [Target("next_seat", [Case("", [dv], dom, lambda f, v: f(r, v[0]), lambda res: eq(res, nxt),
                                     lambda ev: ev(nxt), "play.direction")], domain_text="the 4 seats"),
           Target("dealer_after_redeal", [Case("", [dv], dom, lambda f, v: f(r, v[0]), lambda res: eq(res, red),
                                               lambda ev: ev(red), cite(r, "redeal.dealer", "auction.all-pass"))],
                  domain_text="the 4 dealers")]
    # hand.next_dealer: the next seat after a played deal (deal.rotation); after a cancelled one by its cause:
    # bid.total by redeal.dealer, an all-pass auction and a weak hand the next seat (ambiguity weak-hand)
    causes: list[tuple[str | None, Term, str]] = [(None, nxt, "deal.rotation")]
    if r.individual:
        causes.append(("bid.total", red, cite(r, "redeal.dealer", "bid.total")))
    else:
        causes.append(("auction.all-pass", nxt, "auction.all-pass"))
    if r.weak_redeal:
        causes.append(("deal.weak-redeal", nxt, "deal.weak-redeal"))
    out.append(Target("next_dealer", [Case(f"after {cause or 'a played deal'}", [dv], dom,
                                           lambda f, v, cause=cause: f(r, v[0], cause),
                                           lambda res, want=want: eq(res, want), lambda ev, want=want: ev(want), cl)
                                      for cause, want, cl in causes], HAND, "the 4 dealers x every cause"))
    # hand.next_dealer_clause: the clause that names the next dealer, by the cause (the one its rule cites above)
    names = {None: "deal.rotation", "bid.total": "redeal.dealer", "auction.all-pass": "auction.all-pass",
             "deal.weak-redeal": "deal.weak-redeal"}
    out.append(Target("next_dealer_clause", [Case(f"after {cause or 'a played deal'}", [], [],
                                                  lambda f, v, cause=cause: f(cause),
                                                  lambda res, cause=cause: z3.BoolVal(res == names[cause]),
                                                  lambda ev, cause=cause: names[cause], names[cause])
                                             for cause, _, _ in causes], HAND, "every cause"))
    order = [seat_after(enc, d, k) for k in range(1, 5)]
    out.append(Target("bidding_order", [Case("", [dv], dom, lambda f, v: f(r, v[0]),
                                             lambda res: same(list(res), order) if isinstance(res, tuple)
                                             else z3.BoolVal(False), lambda ev: tuple(ev(o) for o in order),
                                             cite(r, "bid.turn", "auction.order"))], HAND, "the 4 dealers"))
    firsts = enc.first_dealers()  # rules.first_dealers: who may deal the first hand (no input but the ruleset)
    out.append(Target("first_dealers", [Case("no input but the ruleset", [], [], lambda f, v: f(r),
                                             lambda res: z3.BoolVal(isinstance(res, tuple) and list(res) == firsts),
                                             lambda ev: tuple(firsts), "deal.first-dealer")],
                      domain_text="the ruleset"))
    return out


def _bid_turn(enc: Encoding) -> list[Target]:
    """hand.bid_turn over every dealer and every sequence of distinct seats that have bid (bid.turn)."""
    r = enc.r
    cases = []
    for n in range(5):
        for done in itertools.permutations(range(4), n):
            dv = ivar("dealer")
            d = dv.term
            order = [seat_after(enc, d, k) for k in range(1, 5)]
            # the first seat of the bidding order that has not bid, and the first seat after it (in that order)
            # that has: one that bid out of turn
            nxt: Term = z3.IntVal(-1)
            early: Term = z3.IntVal(-1)
            for i in range(3, -1, -1):
                bid_i = z3.Or([order[i] == x for x in done]) if done else z3.BoolVal(False)
                later: Term = z3.IntVal(-1)
                for j in range(3, i, -1):
                    bid_j = z3.Or([order[j] == x for x in done]) if done else z3.BoolVal(False)
                    later = z3.If(bid_j, order[j], later)
                nxt = z3.If(z3.Not(bid_i), order[i], nxt)
                early = z3.If(z3.Not(bid_i), later, early)

            def claim(res: Any, nxt: Term = nxt, early: Term = early) -> Term:
                if not isinstance(res, tuple) or len(res) != 2:
                    return z3.BoolVal(False)
                a, b = res
                return z3.And(eq(-1 if a is None else a, nxt), eq(-1 if b is None else b, early))

            def want(ev: Any, nxt: Term = nxt, early: Term = early) -> Any:
                a, b = ev(nxt), ev(early)
                return (None if a < 0 else a, None if b < 0 else b)

            cases.append(Case(f"seats that have bid {list(done)}", [dv], [between(d, 0, 3)],
                              lambda f, v, done=done: f(r, v[0], list(done)), claim, want,
                              cite(r, "bid.turn", "auction.order")))
    return [Target("bid_turn", cases, HAND, "the 4 dealers x every sequence of distinct seats that have bid")]


# ================================================================ individual bids
def bids_summaries(enc: Encoding) -> list[Summary]:
    """min_bid_for as its encoding (every integer score), for legal_bids and bid_violation."""
    r = enc.r
    return [Summary("min_bid_for", lambda rr, score: z3.BoolVal(True) if rr is r else None,
                    lambda rr, score: value(enc.min_bid_for(as_int(score))))]


def _individual_bids(enc: Encoding) -> list[Target]:
    r = enc.r
    out: list[Target] = []
    sv = ivar("score")
    s = sv.term
    lo = enc.min_bid_for(s)
    rise = cite(r, "bid.rising-min", "bid.range")
    out.append(Target("min_bid_for", [Case("", [sv], [], lambda f, v: f(r, v[0]), lambda res: eq(res, lo),
                                           lambda ev: ev(lo), rise)], domain_text="every integer score"))
    legal = {b: enc.legal_bid(s, z3.IntVal(b)) for b in range(-1, 16)}

    def lclaim(res: Any) -> Term:
        if not isinstance(res, list) or any(type(b) is not int for b in res) or res != sorted(set(res)):
            return z3.BoolVal(False)
        if any(b not in legal for b in res):
            return z3.BoolVal(False)
        return z3.And([t == z3.BoolVal(b in res) for b, t in legal.items()])

    out.append(Target("legal_bids", [Case("", [sv], [], lambda f, v: f(r, v[0]), lclaim,
                                          lambda ev: [b for b, t in legal.items() if ev(t)], rise)],
                      domain_text="every integer score"))
    # bid_violation: every integer score x every integer bid, a pass, a bid naming a strain; non-integer bids
    bv = ivar("bid")
    b = bv.term
    ok = enc.legal_bid(s, b)
    in_range = z3.And(b >= r.bid_min, b <= r.bid_max)
    excluded = z3.Or([b == x for x in sorted(r.bid_excluded)]) if r.bid_excluded else z3.BoolVal(False)
    why = z3.If(z3.Not(in_range), z3.StringVal("bid.range"),
                z3.If(excluded, z3.StringVal("bid.excluded"), z3.StringVal("bid.rising-min")))

    def vclaim(res: Any) -> Term:
        if res is None:
            return ok
        if not isinstance(res, tuple) or not isinstance(res[0], str):
            return z3.BoolVal(False)
        return z3.And(z3.Not(ok), why == z3.StringVal(res[0]))

    def fixed(clause: str) -> Any:
        return lambda res: z3.BoolVal(isinstance(res, tuple) and res[0] == clause)

    cases = [Case("a number of tricks", [sv, bv], [], lambda f, v: f(r, v[0], v[1]), vclaim,
                  lambda ev: None if ev(ok) else (ev(why),), lambda res: res[0] if res else rise),
             Case("a pass", [sv], [], lambda f, v: f(r, v[0], None), fixed(cite(r, "bid.no-pass", "bid.range")),
                  lambda ev: (cite(r, "bid.no-pass", "bid.range"),), cite(r, "bid.no-pass", "bid.range"))]
    if "bid.meaning" in r.ruleset.clauses:
        stv = ivar("strain", _strain)
        cases.append(Case("a bid naming a strain", [sv, bv, stv], [], lambda f, v: f(r, v[0], v[1], v[2]),
                          fixed("bid.meaning"), lambda ev: ("bid.meaning",), "bid.meaning"))
    for odd in (7.0, 2.5, "7"):
        cases.append(Case(f"bid {odd!r} (not an integer)", [sv], [], lambda f, v, odd=odd: f(r, v[0], odd),
                          fixed("bid.range"), lambda ev: ("bid.range",), "bid.range"))
    out.append(Target("bid_violation", cases,
                      domain_text="every integer score x every integer bid, a pass, a strain; non-integer bids"))
    bs = [ivar(f"bid of seat {i}") for i in range(4)]
    ss = [ivar(f"score of seat {i}") for i in range(4)]  # before the deal: the total may rise with them
    need = enc.total_needed([v.term for v in ss])
    out.append(Target("total_in_force", [Case("", ss, [], lambda f, v: f(r, list(v)), lambda res: eq(res, need),
                                              lambda ev: ev(need), "bid.total")],
                      domain_text="every four integer scores"))
    total = (z3.Sum([v.term for v in bs]), need)
    out.append(Target("bid_total", [Case("", [*bs, *ss], [], lambda f, v: f(r, list(v[:4]), list(v[4:])),
                                         lambda res: same(list(res), list(total)) if isinstance(res, tuple)
                                         else z3.BoolVal(False), lambda ev: (ev(total[0]), ev(total[1])),
                                         "bid.total")], domain_text="every four integer bids x every four integer scores"))
    played = enc.hand_played([v.term for v in bs], [v.term for v in ss])
    out.append(Target("hand_is_played", [Case("", [*bs, *ss], [], lambda f, v: f(r, list(v[:4]), list(v[4:])),
                                              lambda res: eq(res, played), lambda ev: ev(played), "bid.total")],
                      domain_text="every four integer bids x every four integer scores"))
    return out


# ================================================================ the team auction
def _top_key(enc: Encoding, top: tuple[Any, Any] | None) -> Term:
    if top is None:
        return z3.IntVal(-1)
    n, s = top
    return enc.key(n, 0 if s is None else s)


def _state(top_key: Term, passes: Term, to_move: Term, holder: Term = None, active: Sequence[Term] | None = None,
           spoken: Term = None, ended: Term = None) -> AuctionState:
    return AuctionState(z3.BoolVal(False) if ended is None else ended, top_key,
                        z3.IntVal(-1) if holder is None else holder,
                        list(active) if active is not None else [z3.BoolVal(True)] * 4, passes,
                        z3.IntVal(0) if spoken is None else spoken, to_move)


def strain_ok(enc: Encoding, strain: Term | None) -> Term:
    """A bid names a strain (0..4) exactly in Egyptian bidding (auction.egyptian)."""
    shape = z3.BoolVal((strain is not None) == enc.r.egyptian)
    return shape if strain is None else z3.And(shape, strain >= 0, strain <= 4)


def _call_parts(enc: Encoding, n: Term | None, strain: Term | None) -> tuple[Term, Term, Term]:
    """(the encoding's n, its strain, whether the call has the shape the configuration allows): a pass is n = 0;
    a bid names a strain exactly in Egyptian bidding; 0 tricks is no bid."""
    if n is None:
        return z3.IntVal(0), z3.IntVal(0), z3.BoolVal(strain is None)
    return n, (z3.IntVal(0) if strain is None else strain), z3.And(strain_ok(enc, strain), n != 0)


def _auction_cases(enc: Encoding) -> list[tuple[str, list[Var], list[Term], tuple[bool, str], Any, Any]]:
    """Every shape of (top bid, call) with symbolic dealer, seat, passes, tricks and strains:
    (label, vars, domain, shape, the call's tricks term or None, its strain term or None)."""
    r = enc.r
    out = []
    for has_top in (False, True):
        for call in ("pass", "bid", "bid with strain"):
            dv, sv, pv = ivar("dealer"), ivar("seat to speak"), ivar("passes")
            vs = [dv, sv, pv]
            dom = [between(dv.term, 0, 3), between(sv.term, 0, 3), between(pv.term, 0, 3)]
            if has_top:
                tn = ivar("top bid tricks")
                vs.append(tn)
                dom.append(between(tn.term, r.min_bid, 13))
                if r.egyptian:
                    ts = ivar("top bid strain", _strain)
                    vs.append(ts)
                    dom.append(between(ts.term, 0, 4))
            n: Any = None
            strain: Any = None
            if call != "pass":
                nv = ivar("tricks bid")
                vs.append(nv)
                n = nv.term
                if call == "bid with strain":
                    stv = ivar("strain bid", _strain)
                    vs.append(stv)
                    strain = stv.term
            label = f"{'a top bid' if has_top else 'no bid yet'}, {call}"
            out.append((label, vs, dom, (has_top, call), n, strain))
    return out


def _unpack(enc: Encoding, shape: tuple[bool, str], v: Sequence[Any]) -> tuple[Any, Any, Any, Any, Any, Any]:
    """(dealer, seat, top, passes, n, strain) for the engine from the values in the order of _auction_cases."""
    has_top, call = shape
    dealer, seat, passes = v[0], v[1], v[2]
    i = 3
    top = None
    if has_top:
        if enc.r.egyptian:
            top = (v[3], v[4])
            i = 5
        else:
            top = (v[3], None)
            i = 4
    n = strain = None
    if call != "pass":
        n = v[i]
        if call == "bid with strain":
            strain = v[i + 1]
    return dealer, seat, top, passes, n, strain


def _auction_calls(enc: Encoding) -> list[Target]:
    r = enc.r
    out: list[Target] = []
    vcases = []
    fcases = []
    for label, vs, dom, shape, n, strain in _auction_cases(enc):
        terms = [v.term for v in vs]
        dealer, seat, top, passes, _, _ = _unpack(enc, shape, terms)
        st = _state(_top_key(enc, top), passes, seat)
        en, es, shape_ok = _call_parts(enc, n, strain)
        ok = z3.And(shape_ok, enc.call_ok(st, dealer, en, es))
        why = enc.call_refusal(st, dealer, en, es, strain_ok(enc, strain), n is None)  # the clause that refuses it

        def vclaim(res: Any, ok: Term = ok, why: Term = why) -> Term:
            if res is None:
                return ok
            if not isinstance(res, tuple) or not isinstance(res[0], str):
                return z3.BoolVal(False)
            return z3.And(z3.Not(ok), why == z3.StringVal(res[0]))

        vcases.append(Case(label, vs, dom, lambda f, v, shape=shape: f(r, *_unpack(enc, shape, v)), vclaim,
                           lambda ev, ok=ok, why=why: None if ev(ok) else (ev(why),),
                           lambda res: res[0] if isinstance(res, tuple) else "auction.raise"))
        if n is None and strain is None:  # dealer_forced: the dealer may not pass here (a pass refused)
            forced = z3.Not(ok)
            fcases.append(Case(label, vs, dom,
                               lambda f, v, shape=shape: f(r, *_unpack(enc, shape, v)[:4]),
                               lambda res, forced=forced: eq(res, forced), lambda ev, forced=forced: ev(forced),
                               "auction.all-pass"))
    out.append(Target("auction_bid_violation", vcases,
                      domain_text="every dealer x seat x passes x top bid x call (pass, any integer tricks, strains)"))
    out.append(Target("dealer_forced", fcases, domain_text="every dealer x seat x passes x top bid"))
    # bid_key: a pass is -1; a bid is ordered by tricks then strain
    nv, stv = ivar("tricks"), ivar("strain", _strain)
    k1, k2 = enc.key(nv.term, z3.IntVal(0)), enc.key(nv.term, stv.term)
    out.append(Target("bid_key", [
        Case("a pass", [], [], lambda f, v: f(None, None), lambda res: eq(res, z3.IntVal(-1)), lambda ev: -1,
             "auction.raise"),
        Case("tricks only", [nv], [between(nv.term, 1, 13)], lambda f, v: f(v[0], None), lambda res: eq(res, k1),
             lambda ev: ev(k1), "auction.raise"),
        Case("tricks and a strain", [nv, stv], [between(nv.term, 1, 13), between(stv.term, 0, 4)],
             lambda f, v: f(v[0], v[1]), lambda res: eq(res, k2), lambda ev: ev(k2), "auction.egyptian")],
        domain_text="a pass, 1-13 tricks x every strain"))
    return out


def _auction_call_targets(enc: Encoding) -> list[Target]:
    """hand.auction_start and hand.auction_call: one call applied to any auction state."""
    r = enc.r
    out: list[Target] = []
    dv = ivar("dealer")
    start = enc.auction_start(dv.term)

    def sclaim(res: Any) -> Term:
        if not isinstance(res, Auction) or res.top is not None or res.to_speak is None:
            return z3.BoolVal(False)
        return z3.And(eq(res.dealer, dv.term), eq(res.to_speak, start.to_move), eq(res.holder, z3.IntVal(-1)),
                      eq(res.passes, z3.IntVal(0)), eq(res.spoken, z3.IntVal(0)),
                      z3.And([eq(a, z3.BoolVal(True)) for a in res.active]))

    out.append(Target("auction_start", [Case("", [dv], [between(dv.term, 0, 3)], lambda f, v: f(r, v[0]), sclaim,
                                             lambda ev: f"Auction(dealer, to_speak={ev(start.to_move)})",
                                             "auction.order")], HAND, "the 4 dealers"))
    cases = []
    for force in (False, True):
        for label, vs0, dom0, shape, n, strain in _auction_cases(enc):
            has_top, call = shape
            hv, spv = ivar("holder"), ivar("calls so far")
            act = [boolvar(f"seat {j} still in") for j in range(4)]
            vs = [*vs0, hv, spv, *act]
            terms = [v.term for v in vs]
            dealer, seat, top, passes, _, _ = _unpack(enc, shape, terms[:len(vs0)])
            holder, spoken, active = hv.term, spv.term, [a.term for a in act]
            dom = dom0 + [spoken >= 0, z3.Or([z3.And(seat == j, active[j]) for j in range(4)])]  # the speaker is in
            if has_top:  # the holder of the top bid is a seat still in, and not the one to speak
                dom += [between(holder, 0, 3), z3.Or([z3.And(holder == j, active[j]) for j in range(4)]), holder != seat]
            else:
                dom += [holder == -1]
            st = _state(_top_key(enc, top), passes, seat, holder, active, spoken)
            en, es, shape_ok = _call_parts(enc, n, strain)
            ok = z3.And(shape_ok, enc.call_ok(st, dealer, en, es))
            after = enc.auction_step(st, en, es)

            if force:  # the verifier goes on from a record's call: well-formed, a bid of at least one trick
                dom = dom + [shape_ok] + ([n >= 1] if n is not None else [])

            def claim(res: Any, ok: Term = ok, after: AuctionState = after, st: AuctionState = st,
                      force: bool = force) -> Term:
                violation, state = res
                if violation is not None and not isinstance(violation, tuple):
                    return z3.BoolVal(False)
                legal_ok = z3.BoolVal(violation is None) == ok
                if force:  # applied whether legal or not
                    return z3.And(legal_ok, _state_eq(enc, state, after))
                return z3.And(legal_ok, z3.If(ok, _state_eq(enc, state, after), _state_eq(enc, state, st)))

            def call_fn(f: Any, v: Sequence[Any], shape: tuple[bool, str] = shape, k: int = len(vs0),
                        force: bool = force) -> Any:
                dealer_, seat_, top_, passes_, n_, strain_ = _unpack(enc, shape, v[:k])
                a = Auction(dealer_, seat_, top_, v[k], passes_, v[k + 1], list(v[k + 2:k + 6]))
                bad = f(r, a, n_, strain_, force=force)
                return bad, a

            cases.append(Case(f"{label}{', forced' if force else ''}", vs, dom, call_fn, claim,
                              lambda ev, ok=ok: "legal: the state advances" if ev(ok) else "refused",
                              lambda res: res[0][0] if isinstance(res, tuple) and res and res[0] else
                              cite(r, "auction.continuous", "auction.order")))
    out.append(Target("auction_call", cases, HAND,
                      "every auction state (dealer, seat, top bid, holder, passes, calls, seats in) x call, forced "
                      "or not", uses=("auction_next",)))
    # an auction that is over refuses every call
    over = Case("the auction is over", [], [], lambda f, v: f(r, Auction(0, None), 7, None),
                lambda res: z3.BoolVal(isinstance(res, tuple) and res[0] == "auction.order"),
                lambda ev: ("auction.order",), "auction.order")
    out[-1].cases.append(over)
    return out


def _state_eq(enc: Encoding, a: Auction, st: AuctionState) -> Term:
    """The engine's Auction ``a`` is the encoding's state ``st`` (to_speak None exactly when the auction is over)."""
    top = _top_key(enc, a.top) if a.top is None or isinstance(a.top, tuple) else None
    if top is None or len(a.active) != 4:
        return z3.BoolVal(False)
    speak = z3.Not(st.ended) if a.to_speak is not None else st.ended
    parts = [speak, eq(top, st.top), eq(a.passes, st.passes), eq(a.spoken, st.spoken),
             z3.And([eq(x, y) for x, y in zip(a.active, st.active, strict=True)])]
    if a.top is not None:
        parts.append(eq(a.holder, st.holder))
    if a.to_speak is not None:
        parts.append(eq(a.to_speak, st.to_move))
    return z3.And(parts)


def _next_case(enc: Encoding, bid: bool, has_top: bool, seat: Term, spoken: Term, holder: Term,
               active: Sequence[Term]) -> tuple[list[Term], AuctionState]:
    """The state auction_next is given after a call, and the encoding's step to it: (the domain of the case, the
    encoding's state after the call). ``bid``: the seat bid (it holds the top bid and is still in), else it passed
    (it is out; the top bid, if any, is another seat's, still in)."""
    r = enc.r
    dom = [between(seat, 0, 3), spoken >= 1]
    if bid:
        dom += [holder == seat, z3.Or([z3.And(seat == j, active[j]) for j in range(4)])]
    else:
        dom += [z3.Or([z3.And(seat == j, z3.Not(active[j])) for j in range(4)])]
        dom += ([between(holder, 0, 3), holder != seat, z3.Or([z3.And(holder == j, active[j]) for j in range(4)])]
                if has_top else [holder == -1])
    # the encoding's step from the state before the call: the seat in, one call fewer
    before = _state(z3.IntVal(enc.key(r.min_bid, 0)) if has_top and not bid else z3.IntVal(-1),
                    z3.IntVal(0), seat, holder if not bid else z3.IntVal(-1),
                    [z3.Or(a, seat == j) for j, a in enumerate(active)], spoken - 1)
    nxt = enc.auction_step(before, z3.IntVal(r.min_bid + (1 if has_top and not bid else 0)) if bid
                           else z3.IntVal(0), z3.IntVal(0))
    return dom, nxt


_NEXT_SHAPES = ((False, False), (False, True), (True, True))  # (the seat bid, there is a top bid)


def _auction_next(enc: Encoding) -> list[Target]:
    """auction_next after every call (the state the engine passes it)."""
    r = enc.r
    cases = []
    for bid, has_top in _NEXT_SHAPES:
        sv, spv, hv = ivar("seat that called"), ivar("calls so far"), ivar("holder")
        act = [boolvar(f"seat {j} still in") for j in range(4)]
        dom, nxt = _next_case(enc, bid, has_top, sv.term, spv.term, hv.term, [a.term for a in act])

        def claim(res: Any, nxt: AuctionState = nxt) -> Term:
            if res is None:
                return nxt.ended
            return z3.And(z3.Not(nxt.ended), eq(res, nxt.to_move))

        cases.append(Case(f"the seat {'bid' if bid else 'passed'}, {'a' if has_top else 'no'} top bid",
                          [sv, spv, *act, hv], dom,
                          lambda f, v, has_top=has_top: f(r, v[0], v[1], list(v[2:6]), has_top, v[6]), claim,
                          lambda ev, nxt=nxt: None if ev(nxt.ended) else ev(nxt.to_move),
                          "auction.continuous" if r.auction_style == "continuous" else "auction.order"))
    return [Target("auction_next", cases, domain_text="every seat x calls so far x seats still in x top bid holder")]


def auction_summaries(enc: Encoding) -> list[Summary]:
    """auction_next as its encoding, in the states its target covers (proved in the same stage), for
    auction_call: the seat to speak next, or None (a fork on whether the auction ended)."""
    r = enc.r
    # the cases by the ids of their arguments' terms (kept alive with them): a path is replayed from its start, and
    # calls the summary with the same terms again
    made: dict[tuple[Any, ...], tuple[list[Term], list[tuple[list[Term], AuctionState]]]] = {}

    def parts(seat: Any, spoken: Any, active: Any, has_top: Any, holder: Any
              ) -> list[tuple[list[Term], AuctionState]] | None:
        if type(has_top) is not bool or not isinstance(active, (list, tuple)) or len(active) != 4:
            return None
        args = [as_int(seat), as_int(spoken), as_int(holder), *(term_of(x) for x in active)]
        if not all(z3.is_bool(x) for x in args[3:]):
            return None
        key = (has_top, *(t.get_id() for t in args))
        hit = made.get(key)
        if hit is None:
            s, sp, h, act = args[0], args[1], args[2], args[3:]
            hit = made[key] = (args, [_next_case(enc, bid, top, s, sp, h, act) for bid, top in _NEXT_SHAPES
                                      if top == has_top])
        return hit[1]

    def applies(rr: Any, seat: Any, spoken: Any, active: Any, has_top: Any, holder: Any) -> Term | None:
        ps = parts(seat, spoken, active, has_top, holder) if rr is r else None
        return None if ps is None else z3.Or([z3.And(dom) for dom, _ in ps])

    def next_seat(rr: Any, seat: Any, spoken: Any, active: Any, has_top: Any, holder: Any) -> Any:
        ps = parts(seat, spoken, active, has_top, holder)
        assert ps is not None
        ended, to_move = ps[-1][1].ended, ps[-1][1].to_move
        for dom, nxt in ps[-2::-1]:
            ended, to_move = z3.If(z3.And(dom), nxt.ended, ended), z3.If(z3.And(dom), nxt.to_move, to_move)
        return None if value(ended) else value(to_move)

    return [Summary("auction_next", applies, next_seat)]


# this module's builders, in the order their obligations run within a stage, and its summarisers: explicit tables,
# read by tarneeb_proofs.engine_family (nothing registers itself when the module is imported)
_SEATS = ("next_seat", "dealer_after_redeal", "next_dealer", "next_dealer_clause", "bidding_order", "first_dealers")
BUILDERS: tuple[Builder, ...] = (
    Builder("bids", _SEATS, _seats),
    Builder("turn", _SEATS, _seats),
    Builder("bids", ("bid_turn",), _bid_turn),
    Builder("turn", ("bid_turn",), _bid_turn),
    Builder("bids", ("min_bid_for", "legal_bids", "bid_violation", "total_in_force", "bid_total", "hand_is_played"),
            _individual_bids),
    Builder("auction", ("auction_bid_violation", "dealer_forced", "bid_key"), _auction_calls),
    Builder("auction", ("auction_next",), _auction_next),
    Builder("auction", ("auction_start", "auction_call"), _auction_call_targets),
    Builder("turn", ("auction_next",), _auction_next),
)
SUMMARISERS: tuple[Summariser, ...] = (Summariser(("bids",), bids_summaries),
                                       Summariser(("auction",), auction_summaries))


__all__ = ["BUILDERS", "SUMMARISERS", "auction_summaries", "bids_summaries"]
