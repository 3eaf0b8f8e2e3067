"""The team auction as Z3 terms: the layer of :class:`tarneeb_proofs.encode.Encoding` that writes the clauses
``auction.*`` of ``spec/rulesets/*.toml`` (order, raise, egyptian, dealer-privilege, continuous, all-pass, range).

An auction is a state (:class:`AuctionState`) advanced call by call: ``auction_start(dealer)``, then
``call_ok(state, dealer, n, strain)`` (may the seat to speak make that call?) and ``auction_step(state, n, strain)``
(the state after it); ``call_refusal`` names the clause that refuses a call. ``auction(dealer, n_steps)`` unrolls a
bounded symbolic auction (:class:`AuctionRun`). A call is (n, strain): n = 0 is a pass, strain 0 unless Egyptian.

The concrete evaluation of these terms (``eval_auction_start``, ``eval_call_ok``, ``eval_auction_step``,
``eval_key``, ``eval_auction``) mirrors the auction of :class:`tarneeb.Match`, as the other ``eval_*`` of
:class:`~tarneeb_proofs.encode.Encoding` mirror :mod:`tarneeb.core.rules`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from .encode_base import EncodingBase, Term


@dataclass
class AuctionState:
    """The auction after some calls (auction family)."""

    ended: Term  # Bool: the auction is over
    top: Term  # Int: top key, -1 = none
    holder: Term  # Int: seat holding the top bid, -1 = none
    active: list[Term]  # Bool per seat: not yet passed (continuous)
    passes: Term  # Int: passes so far
    spoken: Term  # Int: calls so far
    to_move: Term  # Int: the seat to speak


@dataclass
class AuctionRun:
    """A bounded symbolic auction (auction family): calls and the state after each one."""

    calls_n: list[Term]  # Int: 0 = pass, else the number of tricks
    calls_s: list[Term]  # Int: strain 0..4 (0 when not Egyptian)
    seat: list[Term]  # Int: who makes call i
    legal: list[Term]  # Bool: call i is legal (or the auction is already over)
    ended: list[Term]  # Bool: the auction is over after i calls (index 0..n)
    top: list[Term]  # Int: top key after i calls, -1 = none
    holder: list[Term]  # Int: seat holding the top bid
    active: list[list[Term]]  # Bool per seat: not yet passed (continuous)
    passes: list[Term]  # Int: passes so far
    dealer: Term
    made: list[Term]  # Bool: call i was actually made (auction not over before it)
    call_ok: list[Callable[[Term, Term], Term]]  # call_ok[i](n, s): would call (n, s) be legal at step i

    def is_bid(self, i: int) -> Term:
        """Call i was made and is a bid (not a pass)."""
        return z3.And(self.made[i], self.calls_n[i] > 0)

    def all_legal(self) -> Term:
        """Every call of the run is legal (a call after the auction ended counts as legal)."""
        return z3.And(self.legal)

    def contract(self) -> tuple[Term, Term, Term]:
        """(has contract, holder seat, top key) at the end."""
        return self.top[-1] >= 0, self.holder[-1], self.top[-1]


class AuctionEncoding(EncodingBase):
    """The team auction of one configuration as z3 terms, and their concrete evaluation (a layer of
    :class:`tarneeb_proofs.encode.Encoding`: build an ``Encoding``)."""

    def strains(self) -> int:
        """auction.egyptian: how many strains a bid may name (5 under Egyptian bids: C, D, H, S, N; else 1)."""
        return 5 if self.r.egyptian else 1

    def key(self, n: Term, s: Term) -> Term:
        """auction.raise / auction.egyptian: more tricks, then a higher strain (C<D<H<S<N)."""
        if self.m("strain-before-tricks"):
            return s * 14 + n
        return n * 5 + s

    def auction_bound(self) -> int:
        """Calls enough for any auction: every bid raises the top key, every seat passes at most once."""
        if self.r.auction_style == "dealer-privilege":
            return 4
        return (13 - self.r.min_bid + 1) * self.strains() + 4

    def auction_start(self, dealer: Term) -> AuctionState:
        """auction.order: nothing bid, everyone in, the seat after the dealer to speak."""
        return AuctionState(z3.BoolVal(False), z3.IntVal(-1), z3.IntVal(-1), [z3.BoolVal(True)] * 4,
                            z3.IntVal(0), z3.IntVal(0), self.next_seat(dealer))

    def call_ok(self, st: AuctionState, dealer: Term, n_: Term, s_: Term) -> Term:
        """Is the call (n_, s_) (n_ = 0: pass) legal for the seat to speak in state ``st``?"""
        r = self.r
        at_dealer = st.to_move == dealer
        may_match: Term = z3.BoolVal(False)
        if r.auction_style == "dealer-privilege" and not self.m("dealer-match-ignored"):
            may_match = at_dealer
        if self.m("anyone-may-match"):
            may_match = z3.BoolVal(True)
        forbid = z3.And(z3.BoolVal(r.all_pass == "dealer-forced" and not self.m("dealer-may-pass-forced")),
                        at_dealer, st.top < 0, st.passes == 3)
        if self.m("opener-must-bid"):
            forbid = z3.Or(forbid, z3.And(st.top < 0, st.passes == 0))  # nothing said yet: the first to speak
        beats = self.key(n_, 0 if self.m("same-level-strain-refused") else s_) > st.top
        # ambiguity forced-dealer-minimum, reading exactly: the forced dealer's one bid is the minimum
        exact = z3.And(z3.BoolVal(r.all_pass == "dealer-forced" and r.forced_bid == "exactly"), at_dealer, st.top < 0,
                       st.passes == 3)
        raises = [st.top < 0, beats, z3.And(may_match, self.key(n_, s_) == st.top)]
        # ambiguity egyptian-dealer-match, reading same-number-any-strain: the top's number (the reading is read
        # only where someone may match: it changes nothing in a continuous auction)
        if not z3.is_false(may_match) and r.dealer_match == "same-number-any-strain":
            raises.append(z3.And(may_match, n_ == st.top / 5))
        bid_ok = z3.And(n_ >= r.min_bid, n_ <= 13, s_ >= 0, s_ < self.strains(), z3.Or(raises),
                        z3.Implies(exact, n_ == r.min_bid))
        return z3.If(n_ == 0, z3.And(s_ == 0, z3.Not(forbid)), bid_ok)

    def call_refusal(self, st: AuctionState, dealer: Term, n_: Term, s_: Term, strain_ok: Term, is_pass: bool) -> Term:
        """The clause that refuses a call (n_, s_) the rules do not allow (a Z3 String): a pass only when the dealer
        must bid after three passes (auction.all-pass); a bid of the wrong shape (auction.egyptian: a strain named
        exactly under Egyptian bids), outside the range (auction.range), other than the minimum when the forced
        dealer must bid exactly it (auction.all-pass, reading exactly of ambiguity forced-dealer-minimum); a bid
        that does not beat the top bid: the dealer matching it where matching is not allowed in a continuous
        auction (auction.continuous), the dealer short of the top bid under the dealer's privilege
        (auction.dealer-privilege), anyone else (auction.raise). ``strain_ok``: the call names a strain exactly
        as the configuration's bids do."""
        r = self.r
        at_dealer = st.to_move == dealer
        forced = z3.And(z3.BoolVal(r.all_pass == "dealer-forced"), at_dealer, st.top < 0, st.passes == 3)
        privilege = z3.And(at_dealer, z3.BoolVal(r.auction_style == "dealer-privilege"))
        short = z3.If(z3.And(self.key(n_, s_) == st.top, at_dealer), z3.StringVal("auction.continuous"),
                      z3.If(privilege, z3.StringVal("auction.dealer-privilege"), z3.StringVal("auction.raise")))
        if is_pass:
            return z3.StringVal("auction.all-pass")
        return z3.If(z3.Not(strain_ok), z3.StringVal("auction.egyptian"),
                     z3.If(z3.Or(n_ < r.min_bid, n_ > 13), z3.StringVal("auction.range"),
                           z3.If(z3.And(forced, z3.BoolVal(r.forced_bid == "exactly"), n_ != r.min_bid),
                                 z3.StringVal("auction.all-pass"), short)))

    def auction_step(self, st: AuctionState, n_: Term, s_: Term) -> AuctionState:
        """The state after the seat to speak calls (n_, s_); a state already over stays as it is."""
        r = self.r
        live = z3.Not(st.ended)
        is_pass = n_ == 0
        to_move = st.to_move
        new_top = z3.If(z3.And(live, z3.Not(is_pass)), self.key(n_, s_), st.top)
        new_holder = z3.If(z3.And(live, z3.Not(is_pass)), to_move, st.holder)
        new_passes = z3.If(z3.And(live, is_pass), st.passes + 1, st.passes)
        new_spoken = z3.If(live, st.spoken + 1, st.spoken)
        if self.m("passed-may-reenter"):
            new_active = [z3.BoolVal(True)] * 4
        else:
            new_active = [z3.If(z3.And(live, is_pass, to_move == j), z3.BoolVal(False), st.active[j])
                          for j in range(4)]
        if r.auction_style == "dealer-privilege":
            new_ended = z3.Or(st.ended, new_spoken >= 4)
            nxt = self.next_seat(to_move)
        else:
            n_active = z3.Sum([z3.If(a, 1, 0) for a in new_active])
            holder_active = z3.Or([z3.And(new_holder == j, new_active[j]) for j in range(4)])
            over = z3.If(new_top < 0, n_active == 0, z3.And(n_active == 1, holder_active))
            if self.m("passed-may-reenter"):  # passes no longer take a seat out; four passes with no bid close
                over = z3.If(new_top < 0, new_passes >= 4, z3.BoolVal(False))
            new_ended = z3.Or(st.ended, over)
            s1 = self.next_seat(to_move)
            s2 = self.next_seat(s1)
            s3 = self.next_seat(s2)

            def act(x: Term) -> Term:
                return z3.Or([z3.And(x == j, new_active[j]) for j in range(4)])

            nxt = z3.If(act(s1), s1, z3.If(act(s2), s2, z3.If(act(s3), s3, to_move)))
        return AuctionState(new_ended, new_top, new_holder, new_active, new_passes, new_spoken,
                            z3.If(live, nxt, to_move))

    def auction(self, dealer: Term, n_steps: int | None = None, prefix: str = "a") -> AuctionRun:
        """A symbolic auction of ``n_steps`` calls (default :meth:`auction_bound`) from ``dealer``.

        The state after the auction ends is frozen (later calls are ignored).
        A call is (n, s): n = 0 is a pass; s is the strain (always 0 unless Egyptian).
        """
        n = self.auction_bound() if n_steps is None else n_steps
        cn = [z3.Int(f"{prefix}_n{i}") for i in range(n)]
        cs = [z3.Int(f"{prefix}_s{i}") for i in range(n)]
        st = self.auction_start(dealer)
        states = [st]
        seat: list[Term] = []
        legal: list[Term] = []
        made: list[Term] = []
        call_ok: list[Callable[[Term, Term], Term]] = []
        for i in range(n):
            def ok(n_: Term, s_: Term, st_: AuctionState = st) -> Term:
                return self.call_ok(st_, dealer, n_, s_)

            call_ok.append(ok)
            legal.append(z3.Or(st.ended, self.call_ok(st, dealer, cn[i], cs[i])))
            made.append(z3.Not(st.ended))
            seat.append(st.to_move)
            st = self.auction_step(st, cn[i], cs[i])
            states.append(st)
        return AuctionRun(cn, cs, seat, legal, [x.ended for x in states], [x.top for x in states],
                          [x.holder for x in states], [x.active for x in states], [x.passes for x in states],
                          dealer, made, call_ok)

    # ------------------------------------------------ concrete evaluation, call by call
    def eval_auction_start(self, dealer: int) -> tuple[Any, ...]:
        """The auction state as a tuple (ended, top, holder, active0..3, passes, spoken, to_move)."""
        def b() -> tuple[list[Term], list[Term]]:
            d = z3.Int("d")
            return [d], _state_terms(self.auction_start(d))
        return tuple(self._ev("auction_start", b)(dealer))

    def eval_call_ok(self, state: tuple[Any, ...], dealer: int, n: int, s: int) -> bool:
        """May the seat to speak in ``state`` call (n, s) (n = 0: a pass)?"""
        def b() -> tuple[list[Term], list[Term]]:
            st, ins = _state_vars()
            d, n_, s_ = z3.Int("d"), z3.Int("n"), z3.Int("s")
            return [*ins, d, n_, s_], [self.call_ok(st, d, n_, s_)]
        return bool(self._ev("call_ok", b)(*state, dealer, n, s)[0])

    def eval_auction_step(self, state: tuple[Any, ...], n: int, s: int) -> tuple[Any, ...]:
        """The state after the seat to speak calls (n, s)."""
        def b() -> tuple[list[Term], list[Term]]:
            st, ins = _state_vars()
            n_, s_ = z3.Int("n"), z3.Int("s")
            return [*ins, n_, s_], _state_terms(self.auction_step(st, n_, s_))
        return tuple(self._ev("auction_step", b)(*state, n, s))

    def eval_key(self, n: int, s: int) -> int:
        """The key of the bid (n, s) that orders bids (:meth:`key`)."""
        def b() -> tuple[list[Term], list[Term]]:
            n_, s_ = z3.Int("n"), z3.Int("s")
            return [n_, s_], [self.key(n_, s_)]
        return int(self._ev("key", b)(n, s)[0])

    def eval_auction(self, dealer: int, calls: Sequence[tuple[int, int]]) -> dict[str, Any]:
        """Run given calls ((0, 0) = pass, else (n, strain)) through the symbolic auction (:meth:`auction`).

        Returns ``{"legal": bool, "ended": bool, "contract": (seat, n, strain) | None, "calls_used": k}``
        where ``calls_used`` counts the calls made before the auction ended.
        """
        k = len(calls)

        def b() -> tuple[list[Term], list[Term]]:
            d = z3.Int("ed")
            run = self.auction(d, max(k, 1), prefix="e")
            outs = [z3.And(run.legal[:k]) if k else z3.BoolVal(True), run.ended[k], run.top[k], run.holder[k],
                    z3.Sum([z3.If(x, 1, 0) for x in run.made[:k]]) if k else z3.IntVal(0)]
            return [d, *run.calls_n, *run.calls_s], outs
        padded = list(calls) if calls else [(0, 0)]
        legal, ended, top, holder, used = self._ev(f"auction/{k}", b)(
            dealer, *(n for n, _ in padded), *(s for _, s in padded))
        contract = None
        if top >= 0:
            contract = (int(holder), top // 5, top % 5 if self.r.egyptian else -1)
        return {"legal": bool(legal), "ended": bool(ended), "contract": contract, "calls_used": int(used)}


def _state_vars() -> tuple[AuctionState, list[Term]]:
    """An auction state of fresh variables, and those variables in the order of :func:`_state_terms`."""
    ins = [z3.Bool("ended"), z3.Int("top"), z3.Int("holder"), *(z3.Bool(f"act{j}") for j in range(4)),
           z3.Int("passes"), z3.Int("spoken"), z3.Int("to_move")]
    return AuctionState(ins[0], ins[1], ins[2], ins[3:7], ins[7], ins[8], ins[9]), ins


def _state_terms(st: AuctionState) -> list[Term]:
    """A state's terms as a flat list: ended, top, holder, active0..3, passes, spoken, to_move."""
    return [st.ended, st.top, st.holder, *st.active, st.passes, st.spoken, st.to_move]

