"""Replaying one hand line on the record's own claims, so that one divergence does not hide the next.

The replay runs the hand through the rule core's steps (:mod:`tarneeb.core.hand` and :mod:`tarneeb.core.rules`,
the functions :class:`~tarneeb.core.match.Match` calls). Where the record disagrees with the rules it is
reported, and the replay goes on from what the record claims: an illegal bid or card is taken as made, the
claimed trick winner leads the next trick, the claimed tricks are scored. A later check passes when the claim
agrees with the rules applied to the record's earlier claims, or with the rules alone (the record then only
mislabelled the earlier fact). A divergence that an earlier one makes unavoidable names it (``follows_line``,
``follows_field``); the others are independent.
"""

from __future__ import annotations

from typing import Any, Protocol

import tarneeb.records.diagnose as diagnose
from tarneeb.core import clauses as core_clauses
from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core.actions import Bid
from tarneeb.core.cards import FULL_DECK, NO_TRUMP, player_and_seat, strain_text, team_label
from tarneeb.core.spec import Rules
from tarneeb.records.fastpath import MatchState
from tarneeb.records.format import _CARD_TEXT, Divergence, HandLine, RecordProblem, Report, bid_text, contract_text

Contract = tuple[int, int, int | None] | None


def fmt_list(v: list[int | None] | list[int]) -> str:
    """A per-seat list as text, ``?`` for a value not known."""
    return "[" + ", ".join("?" if x is None else str(x) for x in v) + "]"


def team_list(rules: Rules, v: list[int]) -> list[int] | None:
    """A claimed per-seat list; team form [a, b] is accepted in the auction family."""
    if len(v) == 4:
        return v
    if not rules.individual:
        return [v[core_rules.team_of(0)], v[core_rules.team_of(1)], v[core_rules.team_of(2)], v[core_rules.team_of(3)]]
    return None


class Cites(Protocol):
    """What a hand replay needs of the verifier that runs it (:class:`tarneeb.records.verify.Verifier`)."""

    def cite(self, rules: Rules, clause: str) -> str:
        """The citation of ``clause`` in the ruleset of ``rules``."""
        ...


class HandReplay:
    """One hand line replayed from the match state; reports go to ``out``."""

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
        self.scores_before = list(st.scores)  # the scores the deal is played on (the bid total in force: bid.total)

    # -------------------------------------------------------------- reports
    def div(self, fld: str, claimed: object, expected: object, clause: str, trick: int | None = None,
            reason: str = "", follows: Divergence | None = None, causes: list[diagnose.Cause] | None = None,
            table: list[dict[str, Any]] | None = None) -> Divergence:
        """A divergence; ``causes``: the hypotheses that reproduce the claim of this hand (None: not diagnosed)."""
        h = self.h
        follows = follows or self.taint
        cause = diagnose.named_cause(causes)
        d = Divergence(h.file, h.line, self.mid, self.hand_no, trick, fld, str(claimed), str(expected), clause,
                       self.v.cite(self.rules, clause), reason,
                       None if follows is None else follows.line, None if follows is None else follows.field,
                       "" if cause is None else cause[0], "" if cause is None else cause[1], table,
                       self.rules.ruleset.id, None if causes is None else list(causes))
        self.out.append(d)
        return d

    def err(self, fld: str, msg: str, severity: str = "error") -> None:
        """Report a problem of this hand's line (an error unless ``severity`` says otherwise)."""
        self.out.append(RecordProblem(self.h.file, self.h.line, fld, msg, self.mid, self.hand_no, severity))

    def once(self, key: str, fld: str, msg: str) -> None:
        """A warning given once per match (the first place it applies)."""
        if key not in self.st.said:
            self.st.said.add(key)
            self.err(fld, msg + " (said once per match)", "warning")

    # -------------------------------------------------------------- the hand
    def run(self, dealer: int, deck: list[int]) -> bool:
        """Replay the hand; False when it could not be replayed (the caller then resynchronises)."""
        ok = self._run(dealer, deck)
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

    def _run(self, dealer: int, deck: list[int]) -> bool:
        rules, h = self.rules, self.h
        dealt = self._deal(dealer, deck)
        if dealt is None:
            return False
        hands, trump_rules, trump_claim, t_div = dealt
        if core_hand.weak_seats(rules, hands) and self._weak_cancels(dealer, hands):
            return self._weak_hand(dealer, hands)
        # ---- bidding
        bids: list[int | None] = [None, None, None, None]
        bid_div: list[Divergence | None] = [None, None, None, None]
        contract: Contract = None  # the individual family has none
        if h.bids is None:
            self.err("bids", "missing: the bids decide the hand, so they must be given")
            return False
        calls = self._calls(dealer)
        if rules.individual:
            ended = self._individual_bids(dealer, calls, bids, bid_div, trump_claim, trump_rules, t_div)
            if ended is not None:
                return ended
        else:
            got = self._auction(dealer, calls, bid_div)
            if isinstance(got, bool):
                return got
            contract, trump = got
            trump_rules = trump_claim = trump
        trump_claim = self._trump_check(trump_claim, trump_rules, t_div,
                                        next((d for d in bid_div if d), None) if rules.egyptian else None)
        rules_contract = contract
        c_div, contract = self._contract_check(contract, bid_div)
        if h.redeal:
            clause = core_clauses.known(rules, h.redeal, core_clauses.redeal_clause(rules))
            self.div("redeal", h.redeal, "null: the deal is played", clause,
                     follows=c_div or next((d for d in bid_div if d), None),
                     causes=diagnose.total_causes(rules, [b or 0 for b in bids], self.st.scores, False)
                     if rules.individual else None)
            return False
        # ---- play
        if h.tricks is None:
            self.err("tricks", "missing: a played deal needs its cards in play order")
            return False
        won = self._play(hands, core_hand.hand_leader(rules, dealer, contract), trump_claim, trump_rules, c_div or t_div)
        if won is None:
            return False
        self._scoring(dealer, bids, bid_div, contract, won, rules_contract, c_div)
        return True

    def _deal(self, dealer: int, deck: list[int]) -> tuple[list[int], int, int, Divergence | None] | None:
        """Check the deal and the revealed card; (the hands, trump by the rules, trump by the record's revealed
        card, the divergence that puts them apart), None when the deck is not 52 distinct cards."""
        rules, h = self.rules, self.h
        hands = core_rules.deal_hands(rules, dealer, deck)
        if len(set(deck)) != 52 or hands[0] | hands[1] | hands[2] | hands[3] != FULL_DECK:
            self.div("deck", f"a deal of {len(set(deck))} distinct cards", "52 distinct cards", "deal.deck",
                     reason="a deal must order all 52 distinct cards 0..51")
            return None
        hands = self._dealt_as_played(dealer, deck, hands)
        revealed, trump_rules = core_hand.deal_trump(rules, deck)
        trump_claim = trump_rules
        t_div: Divergence | None = None  # the divergence that puts the record's trump apart from the rules'
        if h.revealed is not None:
            if revealed is None:
                if h.revealed >= 0:
                    what = ("trump is fixed" if rules.trump_source == "fixed" else "the contract names trump")
                    self.once("revealed", "revealed", f"{_CARD_TEXT[h.revealed]}: no card is shown under {rules.id} "
                              f"({what}); the field is ignored")
            elif h.revealed != revealed:
                t_div = self.div("revealed", "none" if h.revealed < 0 else _CARD_TEXT[h.revealed],
                                 f"{_CARD_TEXT[revealed]} (the dealer's last card)", "trump.source",
                                 causes=None if h.revealed < 0 else diagnose.reveal_causes(rules, deck, dealer, h.revealed))
                if h.revealed >= 0:
                    trump_claim = core_rules.trump_from_reveal(rules, h.revealed)
        return hands, trump_rules, trump_claim, t_div

    def _dealt_as_played(self, dealer: int, deck: list[int], hands: list[int]) -> list[int]:
        """The hands the record's play shows were dealt: ``hands``, the rules' deal, unless some card is played by
        a seat the deck does not deal it to and one reading of the deal order (deal.order) deals every card played
        to its player; then one divergence at the deck names that reading, and the replay goes on from its hands
        (each card would otherwise be reported as not held)."""
        tricks = self.h.tricks
        if tricks is None or self.h.deck is None or any(t.leader is None for t in tricks):
            return hands
        so = core_rules.seat_order  # the seats of a trick by its leader, as core_hand.trick_turn takes them
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
        plays = [(core_hand.trick_turn(rules, t.leader, j), c) for t in tricks if t.leader is not None
                 for j, c in enumerate(t.cards[:4])]
        if all(hands[seat] >> card & 1 for seat, card in plays):
            return hands
        fits = diagnose.deal_causes(self.rules, dealer, deck, plays)
        if len(fits) != 1:
            return hands
        cause, dealt = fits[0]
        self.div("deck", "cards played by players it does not deal them to", "each card played by the player it "
                 "is dealt to", "deal.order", causes=[cause])
        return dealt

    def _weak_cancels(self, dealer: int, hands: list[int]) -> bool:
        """Whether a deal with a weak seat is cancelled (deal.weak-redeal): at once (reading automatic-next of
        ambiguity weak-hand), or when a weak seat asks (reading claimed): by the record's ``claims``, each checked
        against the weak seats in bidding order, or, not logged, by its ``redeal``."""
        h = self.h
        claimers = core_hand.weak_claimers(self.rules, dealer, hands)
        if not claimers:
            if h.claims:
                self.once("claims", "claims", "ignored: a weak hand cancels the deal at once under these rules (reading "
                          "automatic-next of ambiguity weak-hand; --reading weak-hand=claimed lets a weak seat choose)")
            return True
        if h.claims is None:  # not logged: the record's cancellation says whether a weak seat asked
            return h.redeal in ("deal.weak-redeal", "*")
        for i, (seat, ask) in enumerate(h.claims):
            said = f"{player_and_seat(seat)} {'asks for a redeal' if ask else 'keeps the hand'}"
            if i >= len(claimers):
                self.div(f"claims[{i}]", said, "no further choice: every weak seat has kept its hand", "deal.weak-redeal")
                return False
            if seat != claimers[i]:
                self.div(f"claims[{i}]", said, f"{player_and_seat(claimers[i])} to choose (the weak seats choose in "
                         "bidding order)", "deal.weak-redeal")
            if ask:
                if i + 1 < len(h.claims):
                    self.div(f"claims[{i + 1}]", f"{len(h.claims) - i - 1} more choice(s)", "none: the deal is "
                             "cancelled by the first to ask", "deal.weak-redeal")
                return True
        if len(h.claims) < len(claimers):
            self.div("claims", f"{len(h.claims)} choice(s)", f"{player_and_seat(claimers[len(h.claims)])} still to "
                     "choose", "deal.weak-redeal")
            return h.redeal in ("deal.weak-redeal", "*")  # go on from the record's own cancellation, if it claims one
        return False

    def _weak_hand(self, dealer: int, hands: list[int]) -> bool:
        """A weak hand is thrown in before the bidding (deal.weak-redeal): no call, no contract."""
        h = self.h
        played: Divergence | None = None  # the record bids on: the slip every other report here follows
        if h.bids:  # thrown in before the bidding: no call was made
            played = self.div("bids", f"{len(h.bids)} calls", "none: the deal is thrown in before the bidding",
                              "deal.weak-redeal", causes=diagnose.weak_causes(self.rules, dealer, hands))
        self._trump_check(-1, -1, None, played)
        if h.contract is not None:
            self.div("contract", f"{player_and_seat(h.contract[0])} bids {bid_text(h.contract[1])}",
                     "null: the deal is thrown in before the bidding", "deal.weak-redeal", follows=played)
        return self._cancelled(dealer, "deal.weak-redeal", played)

    def _individual_bids(self, dealer: int, calls: list[tuple[int | None, Bid]], bids: list[int | None],
                         bid_div: list[Divergence | None], trump_claim: int, trump_rules: int,
                         t_div: Divergence | None) -> bool | None:
        """Check the four individual bids in turn and legal at each bidder's score, into ``bids`` and ``bid_div`` by
        seat; None when the hand is played, else what :meth:`run` returns (a cancelled or unfinished bidding)."""
        rules, h, st = self.rules, self.h, self.st
        turn = core_clauses.turn_clause(rules)
        order = core_hand.bidding_order(rules, dealer)
        for i, (seat, bid) in enumerate(calls):
            if i >= 4:
                self.div(f"bids[{i}]", f"{player_and_seat(seat)} bids {bid_text(bid)}", "no further bid: the bidding is over",
                         turn)
                break
            to_move = order[i]
            if seat is not None and seat != to_move:
                self.div(f"bids[{i}].seat", player_and_seat(seat), player_and_seat(to_move), turn)
            bad = core_rules.bid_violation(rules, st.scores[to_move], bid.n, bid.strain)
            if bad is not None and st.alt_scores is not None and \
                    core_rules.bid_violation(rules, st.alt_scores[to_move], bid.n, bid.strain) is None:
                bad = None  # legal on the scores the rules gave the line before: its claimed ones were the slip
            if bad is not None:
                bid_div[to_move] = bd = self.div(f"bids[{i}]", f"{player_and_seat(to_move)} bids {bid_text(bid)}",
                                                 f"a legal bid ({bad[1]})", bad[0],
                                                 causes=diagnose.bid_causes(rules, st.scores[to_move], bid.n, bid.strain))
                if not bid.n and bid.strain is None:  # a pass, or a bid of 0: weighed on the whole deal
                    self.passes.append(bd)
            bids[to_move] = bid.n
        if len(calls) == 4:
            self.calls_made = list(bids)
        if len(calls) < 4:
            if h.redeal:
                return self._claimed_cancel_of_unfinished(dealer)
            self.div("bids", f"{len(calls)} bids, then the bidding ends", f"{player_and_seat(order[len(calls)])} still to bid",
                     turn)
            return False
        if not core_rules.hand_is_played(rules, [b or 0 for b in bids], st.scores):
            follows = next((d for d in bid_div if d is not None), None)
            if h.redeal == "" and h.tricks is not None:  # the record plays it: go on from its claim
                self.div("redeal", "null (the deal is played)", "bid.total", "bid.total", follows=follows,
                         causes=diagnose.total_causes(rules, [b or 0 for b in bids], st.scores, True))
            else:
                self._trump_check(trump_claim, trump_rules, t_div)
                return self._cancelled(dealer, "bid.total", follows)
        return None

    def _auction(self, dealer: int, calls: list[tuple[int | None, Bid]], bid_div: list[Divergence | None]
                 ) -> tuple[Contract, int] | bool:
        """Play the auction's calls through the core, each divergence into ``bid_div`` by seat; (the contract, trump)
        when a contract is reached, else what :meth:`run` returns (all passed, an unfinished auction, no trump)."""
        rules, h = self.rules, self.h
        turn = core_clauses.turn_clause(rules)
        a = core_hand.auction_start(rules, dealer)
        first_bad: Divergence | None = None  # an illegal call, taken as made, changes who speaks after it
        for i, (seat, bid) in enumerate(calls):
            if a.to_speak is None:
                self.div(f"bids[{i}]", f"{player_and_seat(seat)} bids {bid_text(bid)}", "no further bid: the bidding is over",
                         turn, follows=first_bad)
                break
            to_move = a.to_speak
            if seat is not None and seat != to_move:
                self.div(f"bids[{i}].seat", player_and_seat(seat), player_and_seat(to_move), turn,
                         follows=first_bad)
            bad = core_hand.auction_call(rules, a, bid.n, bid.strain, force=True)
            if bad is not None:
                bid_div[to_move] = self.div(f"bids[{i}]", f"{player_and_seat(to_move)} bids {bid_text(bid)}",
                                            f"a legal bid ({bad[1]})", bad[0])
                first_bad = first_bad or bid_div[to_move]
        if a.to_speak is not None:
            if h.redeal:
                return self._claimed_cancel_of_unfinished(dealer, first_bad)
            self.div("bids", f"{len(calls)} bids, then the bidding ends", f"{player_and_seat(a.to_speak)} still to bid", turn,
                     follows=first_bad)
            return False
        if a.top is None:
            self._trump_check(-1, -1, None)
            self._contract_check(None, bid_div)
            return self._cancelled(dealer, "auction.all-pass", next((d for d in bid_div if d), None))
        contract = (a.holder, a.top[0], a.top[1])
        if rules.egyptian and a.top[1] is not None:
            return contract, a.top[1]
        if h.trump is None:
            self.err("trump", "missing: the contract holder names trump, so the record must say which")
            return False
        if 0 <= h.trump < 4:
            return contract, h.trump
        if rules.egyptian:
            return contract, h.trump if h.trump >= 0 else NO_TRUMP
        self.div("trump", strain_text(h.trump) or "null", "one of the four suits", "trump.source",
                 reason="the contract holder names one of the four suits", follows=first_bad)
        return False

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

    def _contract_check(self, contract: Contract, bid_div: list[Divergence | None]
                        ) -> tuple[Divergence | None, Contract]:
        """Compare the claimed contract; (its divergence, the contract the hand goes on with)."""
        rules, h = self.rules, self.h
        if rules.individual or (h.contract is None and not h.no_contract):
            return None, contract
        claim = "null" if h.contract is None else f"{player_and_seat(h.contract[0])} bids {bid_text(h.contract[1])}"
        want = "null" if contract is None else f"{player_and_seat(contract[0])} bids {contract_text(contract)}"
        if claim == want:
            return None, contract
        d = self.div("contract", claim, want, core_clauses.contract_clause(rules, contract is None or h.contract is None),
                     follows=next((x for x in bid_div if x), None))
        if h.contract is not None and contract is not None:
            contract = (h.contract[0], h.contract[1].n or 0, h.contract[1].strain)
        return d, contract

    def _calls(self, dealer: int) -> list[tuple[int | None, Bid]]:
        """The calls in calling order: bids listed by seat are put in calling order (declared, or seen)."""
        rules, h, st = self.rules, self.h, self.st
        calls = list(h.bids or [])
        if len(calls) != 4:
            return calls
        order = core_hand.bidding_order(rules, dealer)
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

    def _claimed_cancel_of_unfinished(self, dealer: int, follows: Divergence | None = None) -> bool:
        clause = core_clauses.known(self.rules, self.h.redeal or "", core_clauses.redeal_clause(self.rules))
        self.div("redeal", self.h.redeal, "no cancellation: the bidding is not over", clause, follows=follows)
        return False

    def _cancelled(self, dealer: int, rule: str, follows: Divergence | None) -> bool:
        """The rules cancel the deal (``rule``); the record should say so and leave the scores alone."""
        rules, h, st = self.rules, self.h, self.st
        if h.redeal is not None and h.redeal not in ("*", rule):
            self.div("redeal", h.redeal or "null (the deal is played)", rule, rule, follows=follows)
            if not h.redeal:
                return False
        alt, st.alt_scores = st.alt_scores, None
        if h.scores is not None:
            sc = team_list(rules, h.scores)
            if sc is None:
                self.err("scores", "an individual ruleset needs four scores")
            else:
                if st.scores_known and sc != st.scores and sc != alt:  # (alt: the rules' scores of the line before)
                    self.div("scores", fmt_list(sc), f"{fmt_list(st.scores)} (unchanged by a cancelled deal)", rule)
                    st.alt_scores = list(st.scores)
                st.scores = list(sc)  # the next deal starts from what the record claims
                st.scores_known = True
        st.dealer = core_hand.next_dealer(rules, dealer, rule)
        st.dealer_clause = core_clauses.next_dealer_clause(rule)
        st.last_dealer, st.last_redeal = dealer, rule
        return True

    def _play(self, hands: list[int], leader: int, trump: int, trump_rules: int,
              taint: Divergence | None) -> list[int] | None:
        """Tricks won by seat as the record claims them, or None when the play is incomplete."""
        rules, h = self.rules, self.h
        if h.tricks is None:
            raise RuntimeError("a hand replayed without its tricks")
        hands = list(hands)
        played: dict[int, Divergence] = {}  # card -> the divergence at its first play, when that was illegal
        seen = 0  # the cards played so far (a card first played legally maps to no divergence)
        won = [0, 0, 0, 0]
        self.won_rules = won_rules = [0, 0, 0, 0]  # by the rules' winner of each trick (as the record played it)
        alt_leader = -1
        wrong_by: list[Divergence | None] = [None, None, None, None]  # each seat's first illegal card
        lead_div: Divergence | None = None
        legal = core_rules.legal_play_mask
        winner_of = core_hand.trick_winner_seat
        so = core_rules.seat_order
        orders = (so(rules, 0), so(rules, 1), so(rules, 2), so(rules, 3))
        for k, t in enumerate(h.tricks):
            if k >= 13:
                self.div("tricks", f"{len(h.tricks)} tricks", "13 tricks", "hand.tricks", k)
                break
            if t.leader is not None and t.leader != leader and t.leader == alt_leader:
                leader = t.leader  # the rules' winner of the trick before leads: the record mislabelled its winner
            elif t.leader is not None and t.leader != leader:
                lead_div = self.div(f"tricks[{k}].leader", player_and_seat(t.leader), player_and_seat(leader),
                                    core_clauses.lead_clause(k), k, follows=taint if k == 0 else None)
                leader = t.leader  # the record's leader plays first
            order = orders[leader]
            lead_taint = wrong_by[order[0]]  # the suit led comes from a seat already playing other cards
            trick_taint: Divergence | None = lead_taint
            cards = t.cards
            if len(cards) == 4 and core_hand.trick_legal(rules, hands, leader, cards, trump):
                # four legal cards (the usual case), each decided by the rules as in the loop below
                c0, c1, c2, c3 = cards
                s0, s1, s2, s3 = order
                hands[s0] &= ~(1 << c0)
                hands[s1] &= ~(1 << c1)
                hands[s2] &= ~(1 << c2)
                hands[s3] &= ~(1 << c3)
                seen |= 1 << c0 | 1 << c1 | 1 << c2 | 1 << c3
            else:
                led = -1
                for j, c in enumerate(cards):
                    seat = order[j]
                    hand = hands[seat]
                    if not (legal(rules, hand, led, trump) >> c) & 1 and not (
                            trump_rules != trump and (legal(rules, hand, led, trump_rules) >> c) & 1):
                        bad = core_rules.play_violation(rules, hand, led, trump, c)
                        if bad is None:
                            raise RuntimeError(f"card {c} is not legal, yet no clause is broken")
                        # a seat that played a wrong card before holds other cards now: this one follows from it
                        after = played.get(c) or wrong_by[seat] or lead_taint or lead_div
                        d = self.div(f"tricks[{k}].cards[{j}]", f"{player_and_seat(seat)} plays {_CARD_TEXT[c]}",
                                     f"a legal card ({bad[1]})", bad[0], k, follows=after,
                                     causes=None if after else diagnose.play_causes(rules, hand, led, trump, c))
                        if not seen >> c & 1:
                            played[c] = d
                        wrong_by[seat] = wrong_by[seat] or d
                        trick_taint = trick_taint or d
                        if j == 0:
                            lead_taint = lead_taint or d
                    seen |= 1 << c
                    hands[seat] = hand & ~(1 << c)
                    if j == 0:
                        led = c // 13
            w = winner_of(rules, leader, cards, trump)
            w_rules = winner_of(rules, leader, cards, trump_rules) if trump_rules != trump else w
            won_rules[w] += 1
            alt_leader = w
            if t.winner is not None and t.winner != w:
                if t.winner != w_rules:
                    self.div(f"tricks[{k}].winner", player_and_seat(t.winner), player_and_seat(w), "play.winner", k,
                             f"cards {' '.join(_CARD_TEXT[x] for x in t.cards)} led by {player_and_seat(leader)}",
                             follows=trick_taint,
                             causes=None if trick_taint else diagnose.winner_causes(rules, leader, t.cards, trump, t.winner))
                w = t.winner  # the record's winner leads next
            won[w] += 1
            leader = w
        if len(h.tricks) < 13:
            self.err("tricks", f"only {len(h.tricks)} of 13 tricks: the deal is incomplete")
            return None
        return won

    def _scoring(self, dealer: int, bids: list[int | None], bid_div: list[Divergence | None], contract: Contract,
                 won: list[int], rules_contract: Contract = None, prior: Divergence | None = None) -> None:
        """Score the hand on the record's claims (``contract``, its tricks); ``rules_contract``: the contract the
        rules gave, ``prior``: the divergence that put the claimed contract apart from it. A claimed change or
        winner passes too when it is what the rules give on their own contract and tricks (the record only
        mislabelled the earlier fact), and otherwise follows from that earlier divergence."""
        st = self.st
        tricks, prior = self._tricks_claim(won, prior)
        claimed_d, full, own = self._deltas_claim(bids, contract, won, tricks, rules_contract, prior)
        self.scored = (list(tricks), claimed_d)
        before = list(st.scores)
        claimed_scores, s_div, s_rules = self._scores_claim(before, claimed_d, full, contract, tricks)
        self._outcome(dealer, bids, contract, tricks, own, before, claimed_d if claimed_d is not None else full,
                      claimed_scores, prior, s_div, s_rules)

    def _tricks_claim(self, won: list[int], prior: Divergence | None) -> tuple[list[int], Divergence | None]:
        """Compare the claimed tricks won; (the tricks the hand is scored on: the record's own counts where they
        differ and add up to 13, the divergence the scoring follows from)."""
        rules, h, st = self.rules, self.h, self.st
        tricks = won
        if h.tricks_won is not None:
            tw = team_list(rules, h.tricks_won) if len(h.tricks_won) == 4 else None
            if tw is None and not rules.individual:
                team = list(core_rules.team_tricks(won))
                if h.tricks_won != team:
                    self.div("tricks_won", fmt_list(h.tricks_won), f"{fmt_list(team)} (by team)", "play.winner")
            elif tw is None:
                team = list(core_rules.team_tricks(won))
                if st.header.team_tricks:
                    if h.tricks_won != team:
                        self.div("tricks_won", fmt_list(h.tricks_won), f"{fmt_list(team)} (by team)", "play.winner")
                else:
                    self.err("tricks_won", "an individual ruleset needs the tricks of all four seats (declare "
                             "\"tricks_won_by_team\": true in the match header to give two team counts)")
            elif tw != won and tw != self.won_rules:
                prior = prior or self.div("tricks_won", fmt_list(tw), fmt_list(won), "play.winner")
                if sum(tw) == 13:
                    tricks = list(tw)  # scored on the record's own counts
            elif tw != won:
                tricks = list(tw)
        return tricks, prior

    def _deltas_claim(self, bids: list[int | None], contract: Contract, won: list[int], tricks: list[int],
                      rules_contract: Contract, prior: Divergence | None
                      ) -> tuple[list[int] | None, list[int] | None, list[tuple[Contract, list[int]]]]:
        """Compare the claimed change of each seat's score with the rules' on the record's bids, contract and tricks
        (``won``: the tricks by the rules' play); (the claimed changes, the rules' changes (None when a bid is not
        legal), the contracts and trick counts of the rules' own that a claim may also be right on)."""
        rules, h, st = self.rules, self.h, self.st
        # the rules' change of each seat's score, on the record's bids, contract and tricks
        ok_bids = [b if b is not None and 0 <= b < len(rules.values) else None for b in bids] if rules.individual else bids
        if rules.individual:
            rules_d: list[int | None] = [None if ok_bids[s] is None else core_rules.individual_delta(rules, ok_bids[s] or 0,
                                                                                           tricks[s])
                                         for s in range(4)]
        else:
            rules_d = list(core_hand.hand_deltas(rules, [0, 0, 0, 0], contract, tricks))
        full = None if None in rules_d else [x or 0 for x in rules_d]
        # the rules' changes on their own contract and trick counts, where the record claimed others
        own = [(c, t) for c in dict.fromkeys((rules_contract, contract)) for t in (won, self.won_rules)
               if (c, t) != (contract, tricks)] if prior is not None else []
        alts = [self._deltas_on(ok_bids, c, t) for c, t in own]
        claimed_d: list[int] | None = None
        if h.deltas is not None:
            claimed_d = team_list(rules, h.deltas)
            if claimed_d is None:
                self.err("deltas", "an individual ruleset needs the change of all four scores")
            else:
                bad = [s for s in range(4) if rules_d[s] is not None and claimed_d[s] != rules_d[s]]
                if (not bad and full is not None and contract is not None and prior is None
                        and (contract[1] == 13 or 13 in core_rules.team_tricks(tricks))):
                    st.weigh = (contract, list(tricks), full)  # a clean 13 the scoring hypotheses are weighed on
                if bad and claimed_d not in alts:
                    clause = core_clauses.deltas_clause(rules, None if rules.individual else contract, tricks, claimed_d, rules_d)
                    causes = None if full is None else diagnose.deltas_causes(rules, [b or 0 for b in bids], contract, tricks,
                                                                       claimed_d,
                                                                       st.scores if st.scores_known else None)
                    table = [{"seat": s, "bid": self._bid_of(s, bids, contract), "tricks": tricks[s],
                              "claimed": claimed_d[s], "rules": rules_d[s]} for s in range(4)]
                    self.div("deltas", fmt_list(claimed_d), fmt_list(rules_d), clause, causes=causes, table=table,
                             follows=prior)
        return claimed_d, full, own

    def _scores_claim(self, before: list[int], claimed_d: list[int] | None, full: list[int] | None,
                      contract: Contract, tricks: list[int]) -> tuple[list[int] | None, Divergence | None, list[int] | None]:
        """Compare the claimed scores after the hand with ``before`` and the changes; (the claimed scores, their
        divergence, the scores the rules make them when they diverge)."""
        rules, h, st = self.rules, self.h, self.st
        sclause = core_clauses.score_clause(rules, contract, tricks)
        alt, st.alt_scores = st.alt_scores, None  # the rules' scores where the line before claimed others
        basis_d = claimed_d if claimed_d is not None else full
        claimed_scores: list[int] | None = None
        s_div: Divergence | None = None  # this line's scores diverge: what the rules make them, for the outcome
        s_rules: list[int] | None = None
        if h.scores is not None:
            claimed_scores = team_list(rules, h.scores)
            if claimed_scores is None:
                self.err("scores", "an individual ruleset needs four scores")
            elif st.scores_known:
                want = [before[s] + basis_d[s] for s in range(4)] if basis_d is not None else None
                by_rules = [before[s] + full[s] for s in range(4)] if full is not None else None
                ok = [want, by_rules]
                if alt is not None:  # the line goes on from the scores the rules gave the line before
                    ok += [[alt[s] + x[s] for s in range(4)] for x in (basis_d, full) if x is not None]
                if want is not None and claimed_scores not in ok:
                    s_div = self.div("scores", fmt_list(claimed_scores), fmt_list(want), sclause,
                                     reason=f"scores before the deal {fmt_list(before)}"
                                            + (", with the record's own deltas" if claimed_d is not None else ""))
                    st.alt_scores = by_rules if by_rules is not None else want
                    s_rules = want
        return claimed_scores, s_div, s_rules

    def _outcome(self, dealer: int, bids: list[int | None], contract: Contract, tricks: list[int],
                 own: list[tuple[Contract, list[int]]], before: list[int], basis_d: list[int] | None,
                 claimed_scores: list[int] | None, prior: Divergence | None, s_div: Divergence | None,
                 s_rules: list[int] | None) -> None:
        """Compare the claimed outcome (judged on the record's own scores, no cascade), then advance the match: its
        scores, games, target and next dealer."""
        rules, h, st = self.rules, self.h, self.st
        if claimed_scores is not None:
            basis = claimed_scores
        elif basis_d is not None:
            basis = [before[s] + basis_d[s] for s in range(4)]
        else:
            basis = before
        judged = st.scores_known or claimed_scores is not None
        bids0 = [b or 0 for b in bids]
        given = judged and h.outcome_winner is not None
        claim_w = None if h.outcome_winner is None or h.outcome_winner < 0 else h.outcome_winner
        # the target in force (and the games won): as the record's claims left them, or, where the line before
        # claimed another winner, as the rules left them; the first the line's claims agree with is gone on from
        options = [(st.target, st.games)] + ([st.alt_target] if st.alt_target is not None else [])
        st.alt_target = None
        for target, games in options:
            win, rule = core_hand.hand_outcome(rules, basis, target, bids0, contract, tricks)
            if given and claim_w != win:
                for c, t in own:  # the claimed winner is the rules' on their own contract and tricks: go on from it
                    got = core_hand.hand_outcome(rules, basis, target, bids0, c, t)
                    if got[0] == claim_w:
                        win, rule = got
                        break
            over = core_hand.settle(rules, claim_w if given else win, target, games).winner is not None
            if (not given or claim_w == win) and (not judged or h.match_over is None or h.match_over == over):
                break
        else:
            target, games = options[0]
            win, rule = core_hand.hand_outcome(rules, basis, target, bids0, contract, tricks)
        w_div: Divergence | None = None
        if given and claim_w != win and s_div is not None and s_rules is not None:
            # the claimed scores are the slip, reported once: a winner right on the scores the rules give is right
            ruled_w, ruled_rule = core_hand.hand_outcome(rules, s_rules, target, bids0, contract, tricks)
            if ruled_w == claim_w:
                win, rule = ruled_w, ruled_rule
        settle_w = win
        if given:
            if claim_w != win:
                w_div = self.div("outcome.winner", "none" if claim_w is None else f"{team_label(claim_w)} (winner {claim_w})",
                         "none" if win is None else f"{team_label(win)} (winner {win})", rule, reason=f"scores {fmt_list(basis)}",
                         causes=diagnose.outcome_causes(rules, basis, target, bids0, contract, tricks, claim_w),
                         follows=prior or s_div)
                settle_w = claim_w  # the match goes on from the record's winner (a game won: its target) ...
                ruled = core_hand.settle(rules, win, target, games)
                st.alt_target = (ruled.target, list(ruled.games))  # ... or from the rules' (the next line's choice)
            elif win is not None and h.outcome_clause is not None and h.outcome_clause != rule:
                self.div("outcome.clause", h.outcome_clause, rule, rule)
        settled = core_hand.settle(rules, settle_w, target, games)
        over = settled.winner is not None
        if judged and h.match_over is not None and h.match_over != over:
            self.div("outcome.match_over", str(h.match_over).lower(), str(over).lower(), core_clauses.match_over_clause(rules, rule),
                     follows=w_div)
        st.scores = list(basis)
        st.scores_known = st.scores_known or claimed_scores is not None
        st.games = list(settled.games)
        st.target = settled.target
        st.dealer = core_hand.next_dealer(rules, dealer, None)
        st.dealer_clause = core_clauses.next_dealer_clause(None)
        st.last_dealer, st.last_redeal = dealer, None
        if over and h.match_over is not False:  # a record that goes on says the match is not over: it is judged on
            st.over_rule = rule

    def _deltas_on(self, ok_bids: list[int | None], contract: Contract, tricks: list[int]) -> list[int] | None:
        """The rules' change of every seat's score on these bids, contract and tricks (None: a bid is not legal)."""
        if not self.rules.individual:
            return list(core_hand.hand_deltas(self.rules, [0, 0, 0, 0], contract, tricks))
        if None in ok_bids:
            return None
        return list(core_hand.hand_deltas(self.rules, [b or 0 for b in ok_bids], None, tricks))

    def _bid_of(self, seat: int, bids: list[int | None], contract: Contract) -> str | None:
        if contract is None:
            b = bids[seat]
            return "pass" if b is None else str(b)
        return contract_text(contract) + (" (contract)" if seat == contract[0] else
                                          " (partner)" if seat == core_rules.partner(contract[0]) else "")


__all__ = ["HandReplay", "fmt_list", "team_list"]
