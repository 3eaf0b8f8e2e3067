"""Replaying one hand line on the record's own claims, so that one divergence does not hide the next.

The replay is the driver of :mod:`tarneeb.records.driver`: the line's actions are stepped through
:mod:`tarneeb.core.transition`, and its claims compared with the events. Where the record disagrees with the rules it
is reported, and the replay goes on from what the record claims: an illegal bid, call or card is taken as made
(``step(..., force=True)``), the claimed leader plays first and the claimed trick winner leads the next trick (the
state with those fields replaced), a deal is played on the claimed contract and trump, or played at all where the
bid total cancels it (:func:`~tarneeb.core.transition.start_play`), the claimed tricks are scored and the outcome
judged on the claimed scores (:func:`~tarneeb.core.transition.end_hand`), and the match goes on from the claimed
winner (:func:`~tarneeb.core.transition.settle_match`). A later check passes when the claim agrees with the rules
applied to the record's earlier claims, or with the rules alone (the record then only mislabelled the earlier
fact). A divergence that an earlier one makes unavoidable names it (``follows_line``, ``follows_field``); the others
are independent.
"""

from __future__ import annotations

from dataclasses import replace

import tarneeb.records.diagnose as diagnose
from tarneeb.core import clauses as core_clauses
from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core import runs, transition
from tarneeb.core.actions import ASK, KEEP, PLAYS, Bid, Deal, NameTrump
from tarneeb.core.cards import NO_TRUMP, player_and_seat, strain_text
from tarneeb.core.state import (
    Bidding,
    BiddingOpened,
    Calling,
    Cancelled,
    Claiming,
    Contracted,
    Dealing,
    Dealt,
    Event,
    Naming,
    NextDealer,
    Playing,
    State,
    TrickTaken,
    Violation,
)
from tarneeb.errors import IllegalDeal, IllegalPlay
from tarneeb.records.driver import MatchState
from tarneeb.records.format import (
    _CARD_TEXT,
    Divergence,
    HandLine,
    Report,
    TrickLine,
    bid_text,
    contract_text,
)
from tarneeb.records.hand_end import Cites, Contract, HandEnd, _four, fmt_list, team_list


class HandReplay(HandEnd):
    """One hand line replayed from the match state through the driver; reports go to ``out``."""

    def __init__(self, v: Cites, st: MatchState, h: HandLine, hand_no: int, out: list[Report],
                 taint: Divergence | None = None) -> None:
        """``taint``: a divergence every report of this line follows from when it names no other (a wrong dealer:
        the cards and the turns all come from it)."""
        self.v, self.st, self.h, self.hand_no, self.out = v, st, h, hand_no, out
        self.taint = taint
        self.rules = st.rules
        self.mid = st.header.match
        self.won_rules = [0, 0, 0, 0]
        # the illegal passes (or bids of 0) of an individual deal and the calls made, weighed once the deal is
        # settled (diagnose.pass_causes); the tricks and claimed changes it was scored on, when it was
        self.passes: list[Divergence] = []
        self.calls_made: list[int | None] | None = None
        self.scored: tuple[list[int], list[int] | None] | None = None
        self.scores_before = list(st.table.scores)  # the scores the deal is played on (the bid total in force)
        # what the driver's hooks learn as the line goes on
        self.dealer = 0
        self.deck: list[int] = []
        self.table = st.table  # the table the deal is played from (its dealer the one the line claims)
        self.hands: list[int] = [0, 0, 0, 0]  # as the deal's step dealt them
        self.trump_rules = self.trump_claim = -1  # trump by the rules and by the record's revealed card
        self.t_div: Divergence | None = None  # the divergence that puts the record's trump apart from the rules'
        self.claims_done = 0  # the weak seats' claims stepped
        self.calls: list[tuple[int | None, Bid]] | None = None  # the line's calls in calling order
        self.called = 0  # the calls stepped
        self.bids: list[int | None] = [None, None, None, None]  # the individual bids made, by seat (None: a pass)
        self.bid_div: list[Divergence | None] = [None, None, None, None]  # each seat's illegal bid
        self.first_bad: Divergence | None = None  # the first illegal auction call (it changes who speaks after it)
        self.start: Contracted | None = None  # what the play goes on from: the claimed contract and trump
        self.rules_contract: Contract = None  # the contract the auction gave
        self.c_div: Divergence | None = None  # the divergence that puts the claimed contract apart from it
        self.d_div: Divergence | None = None  # the divergence of the claimed score changes, when they diverge
        self.lead_taint: Divergence | None = None  # the divergence the first trick's leader follows from
        # the play: the tricks done, the tricks won by the record's winners and by the rules' winners, the divergences
        # that later cards follow from
        self.k = 0
        self.won = [0, 0, 0, 0]
        self.alt_leader = -1
        self.lead_div: Divergence | None = None
        self.seen = 0  # the cards played so far (a card first played legally maps to no divergence)
        self.played: dict[int, Divergence] = {}  # card -> the divergence at its first play, when that was illegal
        self.wrong_by: list[Divergence | None] = [None, None, None, None]  # each seat's first illegal card

    # -------------------------------------------------------------- the hand
    def run(self, dealer: int, deck: list[int]) -> bool:
        """Replay the hand dealt by ``dealer``; False when it could not be replayed (the caller then
        resynchronises)."""
        self.dealer, self.deck = dealer, deck
        table = self.st.table
        self.table = table if table.dealer == dealer else replace(table, dealer=dealer)
        ok = self.drive(Dealing(self.table)) is not None
        if self.passes:
            self._pass_fits()
        return ok

    def _pass_fits(self) -> None:
        """What fits each illegal pass of the deal, weighed on the whole deal: whether it was counted and scored as
        a bid of 0 (none fits when the bidding was cut short)."""
        h = self.h
        if self.calls_made is None:
            return
        played = h.tricks is not None if h.redeal is None else not h.redeal
        tricks, claimed = self.scored if self.scored is not None else (None, None)
        fits = diagnose.pass_causes(self.rules, self.calls_made, played, tricks, claimed, self.scores_before)
        for d in self.passes:
            d.fits = list(d.fits or []) + [c for c in fits if all(c[0] != x[0] for x in d.fits or [])]
            cause = diagnose.named_cause(d.fits)
            d.cause, d.explanation = ("", "") if cause is None else cause[:2]

    # -------------------------------------------------------------- the deal
    def deal(self, state: Dealing) -> State | None:
        """Step the deck, check the deal and the revealed card; go on from the hands the record's play shows were
        dealt. A weak hand that cancels the deal at once ends it here."""
        rules, h, deck = self.rules, self.h, self.deck
        try:
            now, ev = transition.step(rules, state, Deal(tuple(deck)))
        except IllegalDeal:
            self.div("deck", f"a deal of {len(set(deck))} distinct cards", "52 distinct cards", "deal.deck",
                     reason="a deal must order all 52 distinct cards 0..51")
            return None
        dealt = ev[0]
        if type(dealt) is not Dealt:
            raise RuntimeError("a deal's step begins with its Dealt event")
        hands = list(dealt.hands)
        played = self._dealt_as_played(hands)
        revealed, trump_rules = self._shown(state, ev)
        if played is not hands:  # go on from the hands the play shows: the deck that deals them to these players
            hands = played
            order = [[c for c in deck if hands[s] >> c & 1] for s in range(4)]
            now, ev = transition.step(rules, state, Deal(tuple(core_rules.deck_of_hands(rules, self.dealer, order))))
        self.hands = hands
        trump_claim = trump_rules
        t_div: Divergence | None = None
        if h.revealed is not None:
            if revealed is None:
                if h.revealed >= 0:
                    what = ("trump is fixed" if rules.trump_source == "fixed" else "the contract names trump")
                    self.once("revealed", "revealed", f"{_CARD_TEXT[h.revealed]}: no card is shown under {rules.id} "
                              f"({what}); the field is ignored")
            elif h.revealed != revealed:
                t_div = self.div("revealed", "none" if h.revealed < 0 else _CARD_TEXT[h.revealed],
                                 f"{_CARD_TEXT[revealed]} (the dealer's last card)", "trump.source",
                                 causes=None if h.revealed < 0 else diagnose.reveal_causes(rules, deck, self.dealer,
                                                                                           h.revealed))
                if h.revealed >= 0:
                    trump_claim = core_rules.trump_from_reveal(rules, h.revealed)
        self.trump_rules, self.trump_claim, self.t_div = trump_rules, trump_claim, t_div
        if type(now) is Dealing:  # a weak hand cancels the deal at once (deal.weak-redeal, reading automatic-next)
            if h.claims:
                self.once("claims", "claims", "ignored: a weak hand cancels the deal at once under these rules (reading "
                          "automatic-next of ambiguity weak-hand; --reading weak-hand=claimed lets a weak seat choose)")
            return self._weak_hand(now, ev)
        return now

    def _shown(self, state: Dealing, ev: tuple[Event, ...]) -> tuple[int | None, int]:
        """(the card the dealer shows, trump by the rules: -1 when the contract names it) for the record's deck
        (trump.source): as the deal's step opened the bidding; where a weak hand stops the deal first, as the same
        rules without the weak-hand redeal open it."""
        opened = ev[1] if len(ev) > 1 else None
        if type(opened) is not BiddingOpened:
            rules = self.rules
            plain = rules.derived.get("without the weak-hand redeal", (), lambda: replace(rules, weak_redeal=False))
            _, ev = transition.step(plain, state, Deal(tuple(self.deck)))
            opened = ev[1]
            if type(opened) is not BiddingOpened:
                raise RuntimeError("a deal without the weak-hand redeal opens the bidding")
        return opened.revealed, opened.trump

    def _dealt_as_played(self, hands: list[int]) -> list[int]:
        """The hands the record's play shows were dealt: ``hands``, the rules' deal, unless some card is played by
        a seat the deck does not deal it to and one reading of the deal order (deal.order) deals every card played
        to its player; then one divergence at the deck names that reading, and the replay goes on from its hands
        (each card would otherwise be reported as not held)."""
        tricks = self.h.tricks
        if tricks is None or self.h.deck is None or any(t.leader is None for t in tricks):
            return hands
        so = core_rules.seat_order  # the seats of a trick by its leader, in the order they play (play.direction)
        rules = self.rules
        orders = (so(rules, 0), so(rules, 1), so(rules, 2), so(rules, 3))
        for t in tricks:  # the usual case, four cards each held by the seat that plays it: nothing to say
            cards = t.cards
            if len(cards) != 4 or t.leader is None:
                break
            a, b, c, d = orders[t.leader]
            if not (hands[a] >> cards[0] & hands[b] >> cards[1] & hands[c] >> cards[2] & hands[d] >> cards[3] & 1):
                break
        else:
            return hands
        plays = [(orders[t.leader][j], c) for t in tricks if t.leader is not None for j, c in enumerate(t.cards[:4])]
        if all(hands[seat] >> card & 1 for seat, card in plays):
            return hands
        fits = diagnose.deal_causes(self.rules, self.dealer, self.deck, plays)
        if len(fits) != 1:
            return hands
        cause, dealt = fits[0]
        self.div("deck", "cards played by players it does not deal them to", "each card played by the player it "
                 "is dealt to", "deal.order", causes=[cause])
        return dealt

    # -------------------------------------------------------------- a weak hand
    def claim(self, state: Claiming) -> State | None:
        """A weak seat chooses (deal.weak-redeal, reading claimed of ambiguity weak-hand): by the record's
        ``claims``, each checked against the seat the transition says is to choose, or, not logged, by its
        ``redeal`` (a weak seat asked when the record cancels the deal)."""
        h, i = self.h, self.claims_done
        claims = h.claims
        if claims is None or i >= len(claims):  # not logged, or the record's choices end with a weak seat to choose
            if claims is not None:
                self.div("claims", f"{len(claims)} choice(s)", f"{player_and_seat(state.to_move)} still to choose",
                         "deal.weak-redeal")
            if h.redeal in ("deal.weak-redeal", "*"):  # the record's own cancellation: the seat to choose asked
                return self._asked(state)
            now: State = state
            while type(now) is Claiming:  # the record bids: the weak seats kept their hands
                now, _ = transition.step(self.rules, now, KEEP)
            return now
        seat, ask = claims[i]
        said = f"{player_and_seat(seat)} {'asks for a redeal' if ask else 'keeps the hand'}"
        if seat != state.to_move:
            self.div(f"claims[{i}]", said, f"{player_and_seat(state.to_move)} to choose (the weak seats choose in "
                     "bidding order)", "deal.weak-redeal")
        self.claims_done = i + 1
        if ask:
            if i + 1 < len(claims):
                self.div(f"claims[{i + 1}]", f"{len(claims) - i - 1} more choice(s)", "none: the deal is "
                         "cancelled by the first to ask", "deal.weak-redeal")
            return self._asked(state)
        now, _ = transition.step(self.rules, state, KEEP)
        if type(now) is not Claiming and i + 1 < len(claims):  # every weak seat has kept its hand
            seat, ask = claims[i + 1]
            self.div(f"claims[{i + 1}]", f"{player_and_seat(seat)} {'asks for a redeal' if ask else 'keeps the hand'}",
                     "no further choice: every weak seat has kept its hand", "deal.weak-redeal")
        return now

    def _asked(self, state: Claiming) -> State | None:
        now, ev = transition.step(self.rules, state, ASK)
        return self._weak_hand(now, ev)

    def _weak_hand(self, now: State, ev: tuple[Event, ...]) -> State | None:
        """A weak hand is thrown in before the bidding (deal.weak-redeal): no call, no contract."""
        h = self.h
        played: Divergence | None = None  # the record bids on: the slip every other report here follows
        if h.bids:  # thrown in before the bidding: no call was made
            played = self.div("bids", f"{len(h.bids)} calls", "none: the deal is thrown in before the bidding",
                              "deal.weak-redeal", causes=diagnose.weak_causes(self.rules, self.dealer, self.hands))
        self._trump_check(-1, -1, None, played)
        if h.contract is not None:
            self.div("contract", f"{player_and_seat(h.contract[0])} bids {bid_text(h.contract[1])}",
                     "null: the deal is thrown in before the bidding", "deal.weak-redeal", follows=played)
        return self._cancelled(now, ev, played)

    # -------------------------------------------------------------- the bidding
    def call(self, state: Bidding | Calling) -> State | None:
        """Step the line's next call, taken as made when illegal (``force``); when the bidding ends, the transition's
        last step says how (a cancelled deal, the play, trump to name)."""
        h = self.h
        calls = self.calls
        if calls is None:
            if h.bids is None:
                self.err("bids", "missing: the bids decide the hand, so they must be given")
                return None
            calls = self.calls = self._calls()
        if isinstance(state, Calling):
            return self._call(state, calls)
        return self._bid(state, calls)

    def _bid(self, state: Bidding, calls: list[tuple[int | None, Bid]]) -> State | None:
        """An individual bid: by the seat to move, legal at its score; after the fourth, the bid total decides whether
        the hand is played."""
        rules, h, st = self.rules, self.h, self.st
        turn = core_clauses.turn_clause(rules)
        i = self.called
        to_move = state.to_move
        if i >= len(calls):  # the line's bids end before the fourth
            if h.redeal:
                self._claimed_cancel_of_unfinished()
                return None
            self.div("bids", f"{len(calls)} bids, then the bidding ends", f"{player_and_seat(to_move)} still to bid",
                     turn)
            return None
        seat, bid = calls[i]
        if seat is not None and seat != to_move:
            self.div(f"bids[{i}].seat", player_and_seat(seat), player_and_seat(to_move), turn)
        now, ev = transition.step(rules, state, bid, force=True)
        broken = ev[0]
        bad = (broken.clause, broken.why) if type(broken) is Violation else None
        if bad is not None and st.alt_scores is not None and \
                core_rules.bid_violation(rules, st.alt_scores[to_move], bid.n, bid.strain) is None:
            bad = None  # legal on the scores the rules gave the line before: its claimed ones were the slip
        if bad is not None:
            self.bid_div[to_move] = bd = self.div(f"bids[{i}]", f"{player_and_seat(to_move)} bids {bid_text(bid)}",
                                                  f"a legal bid ({bad[1]})", bad[0],
                                                  causes=diagnose.bid_causes(rules, self.scores_before[to_move], bid.n,
                                                                             bid.strain))
            if not bid.n and bid.strain is None:  # a pass, or a bid of 0: weighed on the whole deal
                self.passes.append(bd)
        self.bids[to_move] = bid.n
        self.called = i + 1
        if type(now) is Bidding:
            return now
        # the fourth bid: the bidding is over
        if len(calls) > 4:
            seat, bid = calls[4]
            self.div("bids[4]", f"{player_and_seat(seat)} bids {bid_text(bid)}", "no further bid: the bidding is over",
                     turn)
        else:
            self.calls_made = list(self.bids)
            if not any(self.bid_div) and ((type(now) is Dealing and h.redeal == "bid.total")
                                          or (type(now) is not Dealing and not h.redeal and h.tricks is not None)):
                st.weigh_total = ([b or 0 for b in self.bids], list(self.scores_before), type(now) is not Dealing)
        if type(now) is Dealing:  # the bid total cancels the deal (bid.total)
            follows = next((d for d in self.bid_div if d is not None), None)
            if h.redeal == "" and h.tricks is not None:  # the record plays it: go on from its claim
                self.div("redeal", "null (the deal is played)", "bid.total", "bid.total", follows=follows,
                         causes=diagnose.total_causes(rules, [b or 0 for b in self.bids], self.scores_before, True))
                bids = self.bids
                start = Contracted(state.table, state.deal.trump, (bids[0] or 0, bids[1] or 0, bids[2] or 0,
                                                                   bids[3] or 0), None)
                now, _ = transition.start_play(rules, start, state.deal.hands)
            else:
                self._trump_check(self.trump_claim, self.trump_rules, self.t_div)
                return self._cancelled(now, ev, follows)
        if type(now) is not Playing:
            raise RuntimeError("an individual deal is played or cancelled after its fourth bid")
        return self._bidding_over(now)

    def _call(self, state: Calling, calls: list[tuple[int | None, Bid]]) -> State | None:
        """A call of the team auction by the seat to speak, each divergence into ``bid_div`` by seat; when the auction
        ends: all passed, or the contract (its strain trump, or trump to name)."""
        rules, h = self.rules, self.h
        turn = core_clauses.turn_clause(rules)
        i = self.called
        if i >= len(calls):  # the line's calls end with the auction not over
            if h.redeal:
                self._claimed_cancel_of_unfinished(self.first_bad)
                return None
            self.div("bids", f"{len(calls)} bids, then the bidding ends", f"{player_and_seat(state.to_move)} still to "
                     "bid", turn, follows=self.first_bad)
            return None
        seat, bid = calls[i]
        to_move = state.to_move
        if seat is not None and seat != to_move:
            self.div(f"bids[{i}].seat", player_and_seat(seat), player_and_seat(to_move), turn, follows=self.first_bad)
        now, ev = transition.step(rules, state, bid, force=True)  # an illegal call, taken as made, changes who speaks
        broken = ev[0]
        if type(broken) is Violation:
            self.bid_div[to_move] = self.div(f"bids[{i}]", f"{player_and_seat(to_move)} bids {bid_text(bid)}",
                                             f"a legal bid ({broken.why})", broken.clause)
            self.first_bad = self.first_bad or self.bid_div[to_move]
        self.called = i + 1
        if type(now) is Calling:
            return now
        if i + 1 < len(calls):  # the auction is over
            seat, bid = calls[i + 1]
            self.div(f"bids[{i + 1}]", f"{player_and_seat(seat)} bids {bid_text(bid)}", "no further bid: the bidding "
                     "is over", turn, follows=self.first_bad)
        if type(now) is Dealing:  # all passed (auction.all-pass)
            self._trump_check(-1, -1, None)
            self._contract_check(None)
            return self._cancelled(now, ev, next((d for d in self.bid_div if d), None))
        if type(now) is Playing:  # an Egyptian contract: its strain is trump
            return self._bidding_over(now)
        return now

    def name(self, state: Naming) -> State | None:
        """The contract holder's trump, as the record names it (an Egyptian contract without a strain, made by a call
        taken as made: no trump when it names none)."""
        rules, h = self.rules, self.h
        if h.trump is None:
            self.err("trump", "missing: the contract holder names trump, so the record must say which")
            return None
        if 0 <= h.trump < 4:
            now, _ = transition.step(rules, state, NameTrump(h.trump))
        elif rules.egyptian:
            now, _ = transition.step(rules, state, NameTrump(h.trump if h.trump >= 0 else NO_TRUMP), force=True)
        else:
            self.div("trump", strain_text(h.trump) or "null", "one of the four suits", "trump.source",
                     reason="the contract holder names one of the four suits", follows=self.first_bad)
            return None
        if type(now) is not Playing:
            raise RuntimeError("the play starts once trump is named")
        return self._bidding_over(now)

    def _bidding_over(self, state: Playing) -> State | None:
        """The bidding is over and the transition starts the play: check the trump and contract claimed, and go on
        with them (the claimed contract's holder leads)."""
        rules, h = self.rules, self.h
        start = state.start
        contract = start.contract
        if rules.individual:
            trump_claim, trump_rules = self.trump_claim, self.trump_rules
        else:  # the contract's strain, or the trump its holder named
            trump_claim = trump_rules = self.trump_rules = start.trump
        trump_claim = self._trump_check(trump_claim, trump_rules, self.t_div,
                                        next((d for d in self.bid_div if d), None) if rules.egyptian else None)
        self.trump_claim = trump_claim
        self.rules_contract = contract
        c_div, contract = self._contract_check(contract)
        self.c_div = c_div
        if h.redeal:
            clause = core_clauses.known(rules, h.redeal, core_clauses.redeal_clause(rules))
            self.div("redeal", h.redeal, "null: the deal is played", clause,
                     follows=c_div or next((d for d in self.bid_div if d), None),
                     causes=diagnose.total_causes(rules, [b or 0 for b in self.bids], self.scores_before, False)
                     if rules.individual else None)
            return None
        if h.tricks is None:
            self.err("tricks", "missing: a played deal needs its cards in play order")
            return None
        if contract != start.contract or trump_claim != start.trump:  # the play goes on with the record's claims
            start = replace(start, contract=contract, trump=trump_claim)
            state, _ = transition.start_play(rules, start, state.hands)  # type: ignore[assignment]
        self.start = start
        self.lead_taint = c_div or self.t_div
        return state

    def _trump_check(self, trump_claim: int, trump_rules: int, t_div: Divergence | None,
                     cause: Divergence | None = None) -> int:
        """Compare the claimed trump; the trump the play goes on with (the record's, when it names one).
        ``cause``: the divergence the rules' trump comes from (an illegal call that made the Egyptian contract)."""
        h = self.h
        if h.trump is None:
            return trump_claim
        if h.trump != trump_claim and h.trump != trump_rules:
            self.div("trump", strain_text(h.trump) or "null", strain_text(trump_rules) or "null (not yet known)",
                     core_clauses.trump_clause(self.rules), follows=t_div if trump_claim != trump_rules else cause)
        return h.trump if h.trump >= 0 else trump_claim

    def _contract_check(self, contract: Contract) -> tuple[Divergence | None, Contract]:
        """Compare the claimed contract; (its divergence, the contract the hand goes on with)."""
        rules, h = self.rules, self.h
        if rules.individual or (h.contract is None and not h.no_contract):
            return None, contract
        claim = "null" if h.contract is None else f"{player_and_seat(h.contract[0])} bids {bid_text(h.contract[1])}"
        want = "null" if contract is None else f"{player_and_seat(contract[0])} bids {contract_text(contract)}"
        if claim == want:
            return None, contract
        d = self.div("contract", claim, want, core_clauses.contract_clause(rules, contract is None or h.contract is None),
                     follows=next((x for x in self.bid_div if x), None))
        if h.contract is not None and contract is not None:
            contract = (h.contract[0], h.contract[1].n or 0, h.contract[1].strain)
        return d, contract

    def _calls(self) -> list[tuple[int | None, Bid]]:
        """The calls in calling order: bids listed by seat are put in calling order (declared, or seen)."""
        rules, h, st = self.rules, self.h, self.st
        calls = list(h.bids or [])
        if len(calls) != 4:
            return calls
        order = core_hand.bidding_order(rules, self.dealer)
        if st.header.bids_by_seat:
            return [(s, calls[s][1]) for s in order]
        seats = [s for s, _ in calls]
        if (seats == [0, 1, 2, 3] and list(order) != seats
                and (rules.individual or rules.auction_style == "dealer-privilege")):
            self.once("bids_by_seat", "bids", "the bids are listed by seat (0, 1, 2, 3: players 1 to 4), not in "
                      f"calling order (here players {', '.join(str(s + 1) for s in order)}); read in calling order. "
                      "Declare \"bids_by_seat\": true in the match header to say so")
            return [calls[s] for s in order]
        return calls

    def _claimed_cancel_of_unfinished(self, follows: Divergence | None = None) -> None:
        clause = core_clauses.known(self.rules, self.h.redeal or "", core_clauses.redeal_clause(self.rules))
        self.div("redeal", self.h.redeal, "no cancellation: the bidding is not over", clause, follows=follows)

    def _cancelled(self, now: State, ev: tuple[Event, ...], follows: Divergence | None) -> State | None:
        """The transition cancelled the deal (``ev`` ends with its Cancelled and NextDealer events); the record
        should say so and leave the scores alone."""
        rules, h, st = self.rules, self.h, self.st
        cancelled, nxt = ev[-2], ev[-1]
        if type(now) is not Dealing or type(cancelled) is not Cancelled or type(nxt) is not NextDealer:
            raise RuntimeError("a cancelled deal's step ends with its cancellation and the next dealer")
        rule = cancelled.clause
        if h.redeal is not None and h.redeal not in ("*", rule):
            self.div("redeal", h.redeal or "null (the deal is played)", rule, rule, follows=follows)
            if not h.redeal:
                return None
        alt, st.alt_scores = st.alt_scores, None
        before = list(st.table.scores)
        table = now.table  # the next dealer by the clause that cancelled the deal
        if h.scores is not None:
            sc = team_list(rules, h.scores)
            if sc is None:
                self.err("scores", "an individual ruleset needs four scores")
            else:
                if st.scores_known and sc != before and sc != alt:  # (alt: the rules' scores of the line before)
                    self.div("scores", fmt_list(sc), f"{fmt_list(before)} (unchanged by a cancelled deal)", rule)
                    st.alt_scores = before
                table = replace(table, scores=_four(sc))  # the next deal starts from what the record claims
                st.scores_known = True
        st.table, st.dealer_known = table, True
        st.dealer_clause = nxt.clause
        st.last_dealer, st.last_redeal = self.dealer, rule
        return now

    # -------------------------------------------------------------- the play
    def trick(self, state: Playing) -> State | None:
        """The record's next trick: led by the seat it claims, its cards taken as played (an illegal one reported),
        won by the seat it claims, who then leads. After the thirteenth, the hand is scored on the claims."""
        rules, h = self.rules, self.h
        tricks = h.tricks
        if tricks is None or self.start is None:
            raise RuntimeError("a hand played without its tricks")
        k = self.k
        if k == 0 and len(tricks) == 13 and self.trump_claim == self.trump_rules:
            ruled = self._as_ruled(state, tricks)
            if ruled is not None:
                return ruled
        if k >= len(tricks):
            self.err("tricks", f"only {len(tricks)} of 13 tricks: the deal is incomplete")
            return None
        t = tricks[k]
        leader = state.leader
        if t.leader is not None and t.leader != leader and t.leader == self.alt_leader:
            leader = t.leader  # the rules' winner of the trick before leads: the record mislabelled its winner
        elif t.leader is not None and t.leader != leader:
            self.lead_div = self.div(f"tricks[{k}].leader", player_and_seat(t.leader), player_and_seat(leader),
                                     core_clauses.lead_clause(k), k, follows=self.lead_taint if k == 0 else None)
            leader = t.leader  # the record's leader plays first
        if leader != state.leader:
            state = replace(state, leader=leader, to_move=leader)
        wrong_by, played = self.wrong_by, self.played
        lead_taint = wrong_by[leader]  # the suit led comes from a seat already playing other cards
        trick_taint: Divergence | None = lead_taint
        cards = t.cards
        trump, trump_rules = self.trump_claim, self.trump_rules
        now: State = state
        ev: tuple[Event, ...] = ()
        try:  # four legal cards (the usual case)
            now, ev = transition.play_trick(rules, state, cards)
        except IllegalPlay:  # card by card below, each illegal one taken as played and reported
            pass
        if ev:
            for c in cards:
                self.seen |= 1 << c
        else:
            for j, c in enumerate(cards):
                before = now
                if type(before) is not Playing:
                    raise RuntimeError("a trick's cards are played in the play")
                seat, led, hand = before.to_move, before.led, before.hands[before.to_move]
                now, got = transition.step(rules, before, PLAYS[c], force=True)
                ev += got
                broken = got[0]
                if type(broken) is Violation and not (
                        trump_rules != trump and (core_rules.legal_play_mask(rules, hand, led, trump_rules) >> c) & 1):
                    # a seat that played a wrong card before holds other cards now: this one follows from it
                    after = played.get(c) or wrong_by[seat] or lead_taint or self.lead_div
                    d = self.div(f"tricks[{k}].cards[{j}]", f"{player_and_seat(seat)} plays {_CARD_TEXT[c]}",
                                 f"a legal card ({broken.why})", broken.clause, k, follows=after,
                                 causes=None if after else diagnose.play_causes(rules, hand, led, trump, c))
                    if not self.seen >> c & 1:
                        played[c] = d
                    wrong_by[seat] = wrong_by[seat] or d
                    trick_taint = trick_taint or d
                    if j == 0:
                        lead_taint = lead_taint or d
                self.seen |= 1 << c
        taken = ev[4] if len(ev) > 4 and type(ev[4]) is TrickTaken else next(e for e in ev if type(e) is TrickTaken)
        w = taken.trick.winner
        w_rules = self._winner_by_rules(state, cards) if trump_rules != trump else w
        self.won_rules[w] += 1
        self.alt_leader = w
        if t.winner is not None and t.winner != w:
            if t.winner != w_rules:
                self.div(f"tricks[{k}].winner", player_and_seat(t.winner), player_and_seat(w), "play.winner", k,
                         f"cards {' '.join(_CARD_TEXT[x] for x in t.cards)} led by {player_and_seat(leader)}",
                         follows=trick_taint,
                         causes=None if trick_taint else diagnose.winner_causes(rules, leader, t.cards, trump, t.winner))
            w = t.winner  # the record's winner leads next
        self.won[w] += 1
        self.k = k = k + 1
        if type(now) is Playing:
            return now if now.leader == w else replace(now, leader=w, to_move=w)
        if len(tricks) > 13:
            self.div("tricks", f"{len(tricks)} tricks", "13 tricks", "hand.tricks", 13)
        return self._scoring(self.won)

    def _as_ruled(self, state: Playing, tricks: list[TrickLine]) -> State | None:
        """The usual case in one go (:func:`~tarneeb.core.runs.trick_winners`): thirteen tricks of legal cards,
        each led and won by the seats the transition says (or left unsaid), on the rules' trump; then what the
        trick by trick replay leaves (nothing to report), and the scoring. None when some trick is otherwise."""
        played = runs.trick_winners(self.rules, state, [t.cards for t in tricks])
        if played is None:  # an illegal card: trick by trick
            return None
        seats = played[1]
        for k, t in enumerate(tricks):
            if (t.leader is not None and t.leader != seats[k]) or (t.winner is not None and t.winner != seats[k + 1]):
                return None
        won, won_rules = self.won, self.won_rules
        for w in seats[1:]:
            won[w] += 1
            won_rules[w] += 1
        self.seen = (1 << 52) - 1
        self.k = 13
        return self._scoring(self.won)

    def _winner_by_rules(self, state: Playing, cards: list[int]) -> int:
        """The seat that wins the trick ``cards`` from ``state`` under the rules' trump (the record claimed another)."""
        ruled = replace(state, start=replace(state.start, trump=self.trump_rules))
        _, ev = transition.play_trick(self.rules, ruled, cards, force=True)
        taken = next(e for e in ev if type(e) is TrickTaken)
        return taken.trick.winner


__all__ = ["HandReplay", "fmt_list", "team_list"]
