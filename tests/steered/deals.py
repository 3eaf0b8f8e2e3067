"""One deal: the deck, the weak-hand test and the weak seats' choice, the trump, the bids or the auction."""

from __future__ import annotations

from typing import Any

from tarneeb.core.actions import ASK, KEEP, PASS, PLAYS, Bid, Deal, NameTrump
from tarneeb.core.cards import card_str
from tarneeb.core.match import Match

from .driver_base import DriverBase
from .kinds import PlanError, cite
from .plan import Design
from .scenarios import DesignFn
from .terms import PASS_CALL, Call, St


class Deals(DriverBase):
    """A deal from its deck to the first card, every step compared with the encoding."""

    def deal(self, m: Match, design_fn: DesignFn) -> None:
        """The deal ``design_fn`` designs: the deck (and decks that are no pack refused), the hands, the weak-hand test,
        the trump, the bids or auction, then the play."""
        rules, ex, x = self.rules, self.ex, self.x
        self.wait_deal(m)
        self.ctx["dealer"] = str(x.dealer)
        self.ctx["scores"] = str(x.scores)
        self.ctx["target"] = str(x.target)
        dz = design_fn(self)
        self.ctx["deck"] = "deal:" + "".join(card_str(c) for c in dz.deck) + (f" ({dz.note})" if dz.note else "")
        if x.played + x.cancelled == 0:  # the first deal of a scenario: decks that are not one pack are refused
            d = list(dz.deck)
            for what, bad in (("a card twice", (d[1], *d[1:])), ("51 cards", tuple(d[:51])),
                              ("53 cards", (*d, d[0])), ("53 cards, the last one dealt twice", (*d, d[1])),
                              ("a card 52", (52, *d[1:])), ("a card -1", (-1, *d[1:]))):
                self.refuse(m, Deal(bad), f"Match._phase_deal: a deck with {what}", "deal.deck")
            for act in (PLAYS[d[0]], Bid(7), PASS, NameTrump(0)):  # an action of another phase
                self.refuse(m, act, f"Match.apply: {act} while waiting for a deal", "hand.tricks")
        self.accept(m, Deal(dz.deck), "Match._phase_deal: a deal of all 52 cards", "deal.deck")
        self.cov["deal"] += 1
        hands = ex.hands(x.dealer, dz.deck)
        self.same("Match._phase_deal: the hands dealt", list(m.hands), hands, "deal.order")
        weak = [s for s in range(4) if ex.weak(hands[s])] if rules.weak_redeal else []
        # reading claimed of weak-hand: the weak seats choose in bidding order instead of the deal ending at once
        claimers = [s for s in ex.order(ex.next(x.dealer)) if s in weak] if ex.enc.weak_claimed() else []
        cancelled = m.phase.value == "deal"
        self.same("Match._phase_deal: the weak-hand test (deal cancelled)",
                  f"cancelled ({m.records[-1].redeal})" if cancelled and m.records else "dealt on",
                  "cancelled (deal.weak-redeal)" if weak and not claimers else "dealt on", "deal.weak-redeal")
        if weak and not claimers:
            self.cov["weak"] += 1
            self.ctx["weak seats"] = str(weak)
            self.cancelled(m, "deal.weak-redeal")
            return
        if claimers and self.weak_claims(m, dz, claimers):
            return
        trump = -1
        revealed = dz.deck[51] if rules.trump_source.startswith("revealed") else None  # the dealer's last card
        self.same("Match._phase_trump_reveal: the card turned up", None if m.record is None else m.record.revealed,
                  revealed, "trump.source")
        if rules.trump_source != "contract":
            trump = ex.trump(dz.deck[51], 0)
            self.same("Match._phase_trump_reveal: the trump", m.trump, trump, "trump.source")
        elif m.record is not None:
            self.same("Match._phase_trump_reveal: no trump in the record before it is named", m.record.trump, None,
                      "trump.source")
        if rules.individual:
            res = self.individual_bids(m, dz)
            if res is None:
                return
            bids, holder, contract = res, -1, None
        else:
            got = self.auction(m, dz)
            if got is None:
                return
            holder, contract = got
            n, s = contract
            if rules.egyptian:
                trump = ex.trump(dz.deck[51], s)
            else:
                self.same("Match._end_auction: the seat naming trump", m.to_move, holder, "trump.source")
                self.same("Match._end_auction: the phase after the auction", m.phase.value, "trump-choice",
                          "trump.source")
                ok = ex.trump_ok()
                self.same("Match.legal_actions: the trumps the holder may name",
                          sorted(a.suit for a in m.legal_actions() if isinstance(a, NameTrump)), sorted(ok),
                          "trump.source")
                for t in sorted(set(range(-1, 6)) - ok):  # no trump, and numbers that are no strain
                    self.refuse(m, NameTrump(t), "Match._phase_trump_choice: an illegal trump named", "trump.source")
                self.accept(m, NameTrump(dz.named), "Match._phase_trump_choice: a legal trump named", "trump.source")
                trump = ex.trump(dz.deck[51], dz.named)
            self.same("Match._phase_trump_choice: the trump", m.trump, trump, "trump.source")
            bids = [0, 0, 0, 0]
        self.flush_run()
        self.play(m, dz, hands, trump, bids, holder, contract)

    def weak_claims(self, m: Match, dz: Design, claimers: list[int]) -> bool:
        """The weak seats choose in turn (reading claimed of weak-hand), as the design says: whether one asked and the
        deal was cancelled (deal.weak-redeal)."""
        self.ctx["weak seats"] = str(claimers)
        for i, seat in enumerate(claimers):
            self.same("Match._phase_weak_claim: the phase and the weak seat to choose", (m.phase.value, m.to_move),
                      ("weak-claim", seat), "deal.weak-redeal")
            self.same("Match.legal_actions: a weak seat's choices", [str(a) for a in m.legal_actions()],
                      ["redeal:ask", "redeal:keep"], "deal.weak-redeal")
            for act in (Bid(7), PASS, PLAYS[0], NameTrump(0), Deal(tuple(range(52)))):
                self.refuse(m, act, f"Match.apply: {act} while a weak seat chooses", "deal.weak-redeal")
            ask = dz.asks[i] if i < len(dz.asks) else False
            self.accept(m, ASK if ask else KEEP, f"Match._phase_weak_claim: seat {seat} "
                        + ("asks for a redeal" if ask else "keeps its hand"), "deal.weak-redeal")
            if ask:
                self.cov["weak"] += 1
                self.cov["weak-ask"] += 1
                self.cancelled(m, "deal.weak-redeal")
                return True
        self.cov["weak-keep"] += 1
        return False

    def individual_bids(self, m: Match, dz: Design) -> list[int] | None:
        """The four individual bids in turn (every illegal bid refused citing its clause); the bids, or None when the bid
        total cancels the deal."""
        rules, ex, x = self.rules, self.ex, self.x
        order = ex.order(ex.next(x.dealer))
        bids = [0, 0, 0, 0]
        said: list[str] = []
        for i, seat in enumerate(order):
            self.ctx["bids"] = ", ".join(said) or "none yet"
            self.same("Match._phase_bidding: the phase", m.phase.value, "bidding", "bid.turn")
            self.same("Match._phase_bidding: the seat to bid", m.to_move, seat, "bid.turn")
            legal = ex.legal_bids(x.scores[seat])
            acts = list(m.legal_actions())
            eng = sorted(-1 if not isinstance(a, Bid) or a.n is None or a.strain is not None else a.n for a in acts)
            want = sorted(legal)
            if eng != want:
                diff = sorted(set(eng) ^ set(want))
                raise self.bad(f"Match.legal_actions: the legal bids of seat {seat} at score {x.scores[seat]}",
                               eng, want, self._bid_clause(diff[0]))
            for b in sorted(set(range(15)) - legal):
                self.refuse(m, Bid(b), f"Match._phase_bidding: an illegal bid of {b} by seat {seat} (bid {i + 1})",
                            self._bid_clause(b))
            self.refuse(m, PASS, f"Match._phase_bidding: a pass by seat {seat}", "bid.no-pass")
            if i == 0:
                self.other_phases(m, "the bidding", (PLAYS[0], Deal(tuple(range(52))), NameTrump(0), ASK))
            auto = ex.timer_bid()
            if auto is not None:
                self.same("Match.timeout_action: the turn timer's bid", m.timeout_action(), Bid(auto),
                          "timer.auto-bid")
                self.cov["timer"] += 1
            b = dz.bids[i]
            if b not in legal:
                raise PlanError(f"the design bids {b}, not legal for seat {seat}")
            self.accept(m, Bid(b), f"Match._phase_bidding: a legal bid of {b} by seat {seat}", self._bid_clause(b))
            bids[seat] = b
            said.append(f"seat {seat} bids {b}")
        self.ctx["bids"] = ", ".join(said)
        total, need = sum(bids), ex.total(x.scores)
        self.cov["total<" if total < need else "total=" if total == need else "total>"] += 1
        if rules.total_min <= total < need:  # cancelled by a total the scores raised (ambiguity raised-total)
            self.cov["total-raised"] += 1
        played = ex.played(bids, x.scores)
        rec = m.records[-1] if m.phase.value == "deal" and m.records else None
        self.same("Match._phase_bidding: the bid total (bid.total)",
                  f"cancelled ({rec.redeal})" if rec is not None else f"played ({m.phase.value})",
                  "played (play)" if played else "cancelled (bid.total)", "bid.total")
        if not played:
            self.cancelled(m, "bid.total")
            return None
        return bids

    def _bid_clause(self, b: int) -> str:
        rules = self.rules
        if b < 0:
            return "bid.no-pass"
        if b in rules.bid_excluded:
            return cite(rules, "bid.excluded", "bid.range")
        if not rules.bid_min <= b <= rules.bid_max:
            return "bid.range"
        return cite(rules, "bid.rising-min", "bid.range")

    def auction(self, m: Match, dz: Design) -> tuple[int, Call] | None:
        """The auction call by call (every illegal call near the top refused citing its clause); (holder, contract), or
        None when all four passed."""
        rules, ex, x = self.rules, self.ex, self.x
        st = ex.start(x.dealer)
        said: list[str] = []
        assert dz.calls is not None
        forced = False
        while not st[0]:
            seat = st[9]
            self.ctx["calls"] = ", ".join(said) or "none yet"
            self.same("Match._auction_bid: the phase", m.phase.value, "bidding", "auction.order")
            self.same("Match._auction_bid: the seat to speak", m.to_move, seat, cite(rules, "auction.order"))
            legal = ex.legal_calls(st, x.dealer)
            eng = sorted(self._call_of(a) for a in m.legal_actions())
            want = sorted(legal)
            if eng != want:
                diff = sorted(set(eng) ^ set(want))
                raise self.bad(f"Match.legal_actions: the legal calls of seat {seat}", [self._call_text(c) for c in eng],
                               [self._call_text(c) for c in want], self._call_clause(diff[0], st, seat))
            if not said:
                self.other_phases(m, "the auction", (PLAYS[0], Deal(tuple(range(52))), NameTrump(0), KEEP))
            for c in self._near(st, legal):
                self.refuse(m, self._bid_of(c), f"Match._auction_bid: an illegal call {self._call_text(c)} by seat "
                                                f"{seat}", self._call_clause(c, st, seat))
            c = dz.calls(st, legal)
            if c not in legal:
                raise PlanError(f"the script calls {c}, not legal")
            if c != PASS_CALL and st[1] < 0 and st[7] == 3 and seat == x.dealer and rules.all_pass == "dealer-forced":
                forced = True
            self.accept(m, self._bid_of(c), f"Match._auction_bid: a legal call {self._call_text(c)} by seat {seat}",
                        self._call_clause(c, st, seat))
            said.append(f"seat {seat} {self._call_text(c)}")
            st = ex.step(st, c)
        self.ctx["calls"] = ", ".join(said)
        if st[1] < 0:
            rec = m.records[-1] if m.phase.value == "deal" and m.records else None
            self.same("Match._end_auction: all four passed", f"cancelled ({rec.redeal})" if rec else m.phase.value,
                      "cancelled (auction.all-pass)", "auction.all-pass")
            self.cov["all-pass"] += 1
            self.cancelled(m, "auction.all-pass")
            return None
        if forced:
            self.cov["forced"] += 1
        holder, (n, s) = st[2], ex.decode(st[1])
        rec = m.record
        self.same("Match._end_auction: the contract", None if rec is None else rec.contract,
                  (holder, n, s if rules.egyptian else None), "auction.order")
        self.ctx["contract"] = f"{self._call_text((n, s))} by seat {holder}"
        return holder, (n, s)

    def _call_of(self, a: Any) -> Call:
        if not isinstance(a, Bid):
            return (-9, -9)
        if a.n is None:
            return PASS_CALL if a.strain is None else (-1, -1)
        if a.strain is None:
            return (a.n, 0) if not self.rules.egyptian else (a.n, -1)
        return (a.n, a.strain) if self.rules.egyptian else (a.n, -2 - a.strain)

    def _bid_of(self, c: Call) -> Bid:
        if c == PASS_CALL:
            return PASS
        return Bid(c[0], c[1] if self.rules.egyptian else None)

    def _call_text(self, c: Call) -> str:
        if c == PASS_CALL:
            return "pass"
        if not self.rules.egyptian or c[1] < 0:
            return str(c[0]) if c[1] == 0 else f"{c}"
        return f"{c[0]}{'CDHSN'[c[1]]}"

    def _near(self, st: St, legal: frozenset[Call]) -> list[Call]:
        """The illegal calls tried at this state: a pass, and every bid from one trick below the top (or the
        minimum) to one above, 14 tricks and one below the minimum."""
        ex = self.ex
        top_n = ex.decode(st[1])[0] if st[1] >= 0 else self.rules.min_bid
        ns = {top_n - 1, top_n, top_n + 1, self.rules.min_bid - 1, 14}
        return [c for c in ex.calls if c not in legal and (c == PASS_CALL or c[0] in ns)]

    def _call_clause(self, c: Call, st: St, seat: int) -> str:
        """The clause a call by ``seat`` breaks when it is refused: a pass, the dealer forced to bid
        (auction.all-pass); a number out of range (auction.range); a bid not above the top: the dealer matching it
        where the auction is continuous (auction.continuous: "the dealer has no right to match"), the dealer
        bidding below it under the dealer's privilege (auction.dealer-privilege: what the dealer may do), any other
        seat (auction.raise)."""
        rules = self.rules
        if c == PASS_CALL:
            return cite(rules, "auction.all-pass", "auction.order")
        if not rules.min_bid <= c[0] <= 13:
            return cite(rules, "auction.range")
        if seat == self.x.dealer and st[1] >= 0:
            if self.ex.keys.get(c) == st[1] and rules.auction_style != "dealer-privilege":
                return cite(rules, "auction.continuous", "auction.raise")
            if rules.auction_style == "dealer-privilege":
                return cite(rules, "auction.dealer-privilege", "auction.raise")
        return cite(rules, "auction.raise")

