"""The play of a deal's 13 tricks, then its score and the match's outcome."""

from __future__ import annotations

import functools
from typing import Any

from tarneeb.core.actions import ASK, PASS, PLAYS, Bid, Deal, NameTrump, Play
from tarneeb.core.cards import card_str, hand_str
from tarneeb.core.match import Match
from tarneeb_proofs.encode import SUIT_MASKS

from .driver_base import DriverBase, hand_text, trick_text
from .kinds import cite
from .plan import FULL, Chooser, Design, mask_cards, played_mask
from .terms import Call

# the tricks (0-based) whose cards the stage gives as a server would, without asking for the legal set first
UNASKED_TRICKS = (1, 5, 9)


def mask_text(mask: int) -> str:
    """A legal set as a counterexample shows it (the cards, and any action that is no card)."""
    extra = " + a non-card action" if mask >> 52 else ""
    return f"[{hand_str(mask & ((1 << 52) - 1))}]" + extra



class Plays(DriverBase):
    """The tricks, the score and the outcome of a played deal, every step compared with the encoding."""

    def play(self, m: Match, dz: Design, hands: list[int], trump: int, bids: list[int], holder: int,
             contract: Call | None) -> None:
        """The 13 tricks: the seat to play, its legal set, illegal cards refused, the timer's card, each trick's winner
        and the tricks won."""
        ex, x = self.ex, self.x
        hands = list(hands)
        leader = ex.lead(x.dealer, holder)
        chooser = Chooser(dz.goals, self.rng)
        won = [0, 0, 0, 0]
        seen: list[tuple[int, list[int], int]] = []  # each trick as the stage played it: leader, cards, winner
        self.same("Match._start_play: the phase", m.phase.value, "play", "play.lead")
        for k in range(13):
            cards: list[int] = []
            seats: list[int] = []
            seat = leader
            for j in range(4):
                self.ctx["trick"] = functools.partial(trick_text, k, leader, tuple(cards))
                self.ctx["hand"] = functools.partial(hand_text, seat, hands[seat])
                self.same("Match._phase_play: the seat to play" if j else
                          "Match._start_play: the first leader" if k == 0 else "Match._phase_play: the next leader",
                          m.to_move, seat, "play.direction" if j else "play.lead" if k == 0 else "play.next-lead")
                led = cards[0] // 13 if cards else -1
                legal = ex.mask(hands[seat], led, trump)
                # a server takes a player's card without asking for the legal set first (tricks 2, 6, 10: the
                # legal set is not asked, no timer, the card through play_card): the engine decides alone
                asked = k not in UNASKED_TRICKS
                eng = 0
                for a in m.legal_actions() if asked else ():
                    eng |= 1 << a.card if isinstance(a, type(PLAYS[0])) else 1 << 52
                if asked and eng != legal:
                    raise self.bad(f"Match.legal_actions: the legal cards of seat {seat}", mask_text(eng),
                                   mask_text(legal), self._play_clause(hands[seat], led, trump))
                for c in mask_cards(hands[seat] & ~legal):
                    self.refuse(m, PLAYS[c], f"Match._phase_play: an illegal card {card_str(c)} by seat {seat}",
                                self._play_clause(hands[seat], led, trump))
                if k == 0 and j == 0:
                    self.other_phases(m, "the play", (Bid(7), PASS, Deal(tuple(range(52))), NameTrump(0), ASK))
                    self.same("Match.is_chance during the play", m.is_chance(), False, "deal.rotation")
                if j == 0 and k in (0, UNASKED_TRICKS[0]):  # values that are no card, refused as not held
                    odd: Any
                    for odd in (-1, 52, 2.5, "AS"):
                        self.refuse(m, Play(odd), f"Match._phase_play: a play of {odd!r} (no card) by seat {seat}",
                                    "play.follow", None if asked else (lambda a: m.play_card(a.card)))
                away = FULL & ~hands[seat] & ~played_mask(hands)
                away = (away & SUIT_MASKS[led] if led >= 0 and away & SUIT_MASKS[led] else away) if j in (0, 3) else 0
                out = away.bit_length() - 1  # at the lead and the fourth card: a card another seat holds (led suit)
                if out >= 0:
                    self.refuse(m, PLAYS[out], f"Match._phase_play: a card not held ({card_str(out)}) by seat {seat}",
                                "play.follow")
                auto = ex.timer_card(legal, trump) if asked else None
                if auto is not None:
                    self.same("Match.timeout_action: the turn timer's card", m.timeout_action(), PLAYS[auto],
                              "timer.auto-play")
                    self.cov["timer"] += 1
                c = chooser.choose(ex, seat, legal, cards, seats, hands, trump)
                self.accept(m, PLAYS[c], f"Match._phase_play: a legal card {card_str(c)} by seat {seat}"
                            + ("" if asked else " (play_card, the legal set not asked)"), "play.follow",
                            None if asked else (lambda a: m.play_card(a.card)))
                hands[seat] &= ~(1 << c)
                cards.append(c)
                seats.append(seat)
                seat = ex.next(seat)
            w = seats[ex.winner(cards, trump)]
            seen.append((leader, list(cards), w))
            won[w] += 1
            chooser.won[w] += 1
            self.ctx["trick"] = functools.partial(trick_text, k, leader, tuple(cards))
            self.ctx.pop("hand", None)
            rec = m.record if m.record is not None else (m.records[-1] if m.records else None)
            self.same(f"Match._phase_play: the winner of trick {k + 1}",
                      None if rec is None or len(rec.winners) <= k else rec.winners[k], w, "play.winner")
            if k < 12:
                self.same(f"Match._phase_play: the tricks won after trick {k + 1}", list(m.tricks_won), won,
                          "play.winner")
            leader = w
        self.ctx.pop("trick", None)
        rec = m.records[-1] if m.records else None
        self.same("HandRecord.tricks: the record of the deal's tricks (leader, cards, winner)",
                  None if rec is None else [(t.leader, list(t.cards), t.winner) for t in rec.tricks], seen,
                  "hand.tricks")
        self.scored(m, bids, holder, contract, won)

    def _play_clause(self, hand: int, led: int, trump: int) -> str:
        if led >= 0 and not hand & SUIT_MASKS[led] and self.rules.must_trump:
            return cite(self.rules, "play.must-trump", "play.follow")
        return "play.follow"

    # ------------------------------------------------------------ scoring and outcome
    def scored(self, m: Match, bids: list[int], holder: int, contract: Call | None, won: list[int]) -> None:
        """The played deal's score changes, the scores carried, the outcome at the target in force, play on and the end
        of the match."""
        rules, ex, x = self.rules, self.ex, self.x
        rec = m.records[-1] if m.records else None
        self.same("Match._phase_hand_scoring: the hand scored", None if rec is None else len(rec.winners), 13,
                  "hand.tricks")
        assert rec is not None
        self.same("Match._phase_hand_scoring: the tricks won", list(rec.tricks_won), won, "play.winner")
        self.cov["played"] += 1
        if rules.individual:
            deltas = [ex.delta(bids[s], won[s]) for s in range(4)]
            clause = cite(rules, "score.individual", "score.values")
            for s in range(4):
                if bids[s] == 13:
                    self.cov["13made" if won[s] == 13 else "13failed"] += 1
                if rules.made_bid_wins and bids[s] == rules.made_bid_wins and won[s] < bids[s]:
                    self.cov["madebid-x"] += 1
        else:
            assert contract is not None
            n = contract[0]
            bt = holder % 2
            tt = won[bt] + won[bt + 2]
            d0, d1 = ex.team_deltas(n, bt, tt)
            deltas = [d0, d1, d0, d1]
            clause = cite(rules, "score.bid13" if n == 13 else "score.kaboot" if tt in (0, 13) else
                          "score.standard" if rules.score_style == "standard" else "score.bid-only", "score.standard")
            self.cov["made" if tt >= n else "failed"] += 1
            if n == 13:
                self.cov["13made" if tt == 13 else "13failed"] += 1
            if tt == 13:
                self.cov["kaboot-bid"] += 1
            if tt == 0:
                self.cov["kaboot-def"] += 1
        self.ctx["tricks won"] = str(won)
        self.same("Match._phase_hand_scoring: the score changes", list(rec.deltas), deltas, clause)
        x.scores = [a + b for a, b in zip(x.scores, deltas, strict=True)]
        self.same("Match._phase_hand_scoring: the scores carried", (list(rec.scores_after), list(m.scores)),
                  (x.scores, x.scores), clause)
        if rules.individual:
            w, oc = ex.ind_outcome(x.scores, bids, won, x.target)
        else:
            assert contract is not None
            bt = holder % 2
            tt = won[bt] + won[bt + 2]
            w, oc = ex.auc_outcome(x.scores[0], x.scores[1], x.target, bt, ex.bid13(contract[0], tt))
        self.same(f"Match._phase_match_outcome: the outcome at target {x.target}", (rec.outcome, rec.outcome_rule),
                  (w, oc), cite(rules, oc, "win.target"))
        if oc == "tie.both-qualify":
            level = w is None if rules.individual else x.scores[0] == x.scores[1]
            self.cov["tie-level" if level else "tie-won"] += 1
        elif oc == "win.made-bid":
            self.cov["madebid"] += 1
        elif w is not None and oc in ("win.qualify", "win.target"):
            self.cov["alone"] += 1
        if w is not None:
            nxt = ex.target(x.games + 1)
            if nxt != x.target:
                x.games += 1
                x.target = nxt
                self.cov["play-on"] += 1
            else:
                x.decided = True
                x.winner = w
                x.decided_by = oc
                self.cov["over"] += 1
                if x.games >= 1:
                    self.cov["won-raised"] += 1
        self.same("Match._phase_match_outcome: the target in force after the hand", m.target, x.target, "win.play-on")
        self.same("Match._phase_match_outcome: the games won so far", len(m.games), x.games + x.decided, "win.play-on")
        self.same("Match._phase_match_outcome: the match over", (m.is_over(), m.winner),
                  (x.decided, x.winner if x.decided else None), cite(rules, oc, "win.target"))
        x.played += 1
        if not x.decided:
            x.dealer = ex.next(x.dealer)
            x.after = "played"
        else:
            self.same("Match: no seat is to move once the match is decided", m.to_move, -1, "win.target")

