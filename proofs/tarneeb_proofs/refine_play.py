"""The transition, play phase: a card played in every state of the play equals the specification's step.

Two targets:

* ``step`` on a :class:`tarneeb.core.state.Playing` and a ``Play``: for each number of cards already in the trick
  (0 to 3), every four hands, leader, trump, cards of the trick so far and tricks won, and every card (a 6-bit
  number: the 52 cards and 12 numbers that are none), the engine gives what
  :meth:`tarneeb_proofs.encode.Encoding.play_step` gives: the refusal of an illegal card with its seat and clause,
  the next state of the play, or the trick completed, its winner leading the next; after the thirteenth trick it
  hands the state and events over to ``_end_hand``, which is stood in by a marker here and proved on its own.
  What the step only carries (the table, the bids or contract) is an opaque object: a step that read it would be
  refused by name.
* ``_end_hand`` on the state after the thirteenth trick: the hand scored (score.*), its outcome (win.*, tie.*),
  play-on (win.play-on) and the next deal (deal.rotation) or the end of the match, with the events, at each target
  in force and 0-2 games won before (as the proofs of :func:`tarneeb.core.hand.settle` enumerate them).

The domain is what every state of the play satisfies (the invariant the family ``invariants`` proves inductive):
the hands and the trick's cards are disjoint cards, the seat to move is the leader's ``m``-th successor, the tricks
won add up to at most 12 (13 after the last trick), bids are legal bids (individual) or the contract a legal one
(auction), partners carry one team score (auction).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import z3

from tarneeb.core import state as S
from tarneeb.core.actions import Play
from tarneeb.core.state import Playing
from tarneeb.errors import IllegalPlay

from .bridge import Case, Summary, Target, Var, bvar, ivar
from .bridge_play import LEGAL
from .encode import NO_LED, Encoding, Term, bv6, card_bit, holds, seat2, suit_mask
from .refine import (
    NONE_WON,
    TRANSITION,
    TWS,
    Carried,
    SymTable,
    card_var,
    deltas_of,
    hand_var,
    outcome_clause,
    outcome_of,
    refused,
    same,
    seat_var,
    table_claim,
)

# what the step only carries, and the marker of the end of a hand (module constants: the same objects on every run
# of the explorer, so a result is compared with them by identity)
_TABLE: Any = Carried("the table")
_BIDS: Any = Carried("the bids")
_CONTRACT: Any = Carried("the contract")
_FIRST: Any = Carried("the events of the last card")
_STRAIN: Any = Carried("the contract's strain")
_END = "the hand is over: _end_hand is called"


def _trump_var() -> Var:
    return bvar("trump", 6, lambda t: "no trump" if t == 4 else "CDHS"[t] if 0 <= t < 4 else str(t))


def _play_clause(hand: Term, led: Term, card: Term) -> Term:
    """The clause that refuses ``card`` from ``hand``, as a Z3 String: play.follow for a card not held or while
    holding the led suit; play.must-trump for a held card refused to a player void in the led suit."""
    held = z3.And(z3.ULT(card, 52), holds(hand, card))
    return z3.If(z3.Or(z3.Not(held), led == NO_LED, (hand & suit_mask(led)) != 0), z3.StringVal("play.follow"),
                 z3.StringVal("play.must-trump"))


@dataclass
class _Spec:
    """The specification's step of a card: the seat to play, its hand, the led suit, whether the card is legal
    (the legal set is legal_play_mask's, any function in its place), the hands after, the trick's winner."""

    seat: Term
    hand: Term
    led: Term
    legal: Term
    hands: list[Term]
    winner: Term


class _Step:
    """The step of a card with ``m`` cards in the trick: its symbolic inputs, domain and specification."""

    def __init__(self, enc: Encoding, m: int) -> None:
        self.enc, self.m = enc, m
        self.hands = [hand_var(f"hand of seat {s}") for s in range(4)]
        self.leader = seat_var("leader")
        self.trick = [card_var(f"trick card {i + 1}") for i in range(m)]
        self.trump = _trump_var()
        self.won = [ivar(f"tricks won by seat {s}") for s in range(4)]
        self.card = card_var("card")

    def vars(self) -> list[Var]:
        return [*self.hands, self.leader, *self.trick, self.trump, *self.won, self.card]

    def domain(self) -> list[Term]:
        """Every state of the play (see the module docstring); and that a legal set is part of the hand it is of,
        the whole hand when leading (the family ``follow`` proves both of the encoding, the family ``engine`` the
        engine's legal_play_mask equal to the encoding's)."""
        enc, m = self.enc, self.m
        hs = [v.term for v in self.hands]
        tr = [v.term for v in self.trick]
        won = [v.term for v in self.won]
        led = self._led()
        out = [enc.trump_ok(self.trump.term)]
        out += [(hs[a] & hs[b]) == 0 for a in range(4) for b in range(a + 1, 4)]
        out += [z3.ULT(c, 52) for c in tr] + ([z3.Distinct(*tr)] if m > 1 else [])
        out += [(h & card_bit(c)) == 0 for h in hs for c in tr]
        if m == 0:  # any card held may be led
            out += [LEGAL(h, led, self.trump.term) == h for h in hs]
        else:
            out += [(LEGAL(h, led, self.trump.term) & ~h) == 0 for h in hs]
        return out + [w >= 0 for w in won] + [z3.Sum(won) <= 12]

    def _led(self) -> Term:
        """The led suit as legal_play_mask takes it: nothing led yet, or the first card's suit (card // 13)."""
        return bv6(NO_LED) if self.m == 0 else z3.UDiv(self.trick[0].term, z3.BitVecVal(13, 6))

    def call(self, f: Any, vals: list[Any]) -> Any:
        it = iter(vals)
        hands = tuple(next(it) for _ in range(4))
        leader = next(it)
        trick = tuple(next(it) for _ in range(self.m))
        trump = next(it)
        won = tuple(next(it) for _ in range(4))
        card = next(it)
        to_move = leader
        for _ in range(self.m):
            to_move = (to_move + self.enc.r.step) % 4
        start = S.Contracted(_TABLE, trump, _BIDS, _CONTRACT)
        return f(self.enc.r, Playing(start, hands, to_move, leader, trick, won), Play(card))

    def spec(self) -> _Spec:
        hs = [v.term for v in self.hands]
        card, trump = self.card.term, self.trump.term
        seat = self.leader.term + seat2(self.m * self.enc.r.step % 4)  # play.direction
        hand = hs[3]
        for j in (2, 1, 0):
            hand = z3.If(seat == j, hs[j], hand)
        led = self._led()
        legal = z3.And(z3.ULT(card, 52), z3.Extract(0, 0, z3.LShR(LEGAL(hand, led, trump), z3.ZeroExt(46, card))) == 1)
        after = [z3.If(seat == j, hs[j] & ~card_bit(card), hs[j]) for j in range(4)]
        tr = [v.term for v in self.trick] + [card]
        winner = TWS(self.leader.term, *tr, trump) if self.m == 3 else seat2(0)
        return _Spec(seat, hand, led, legal, after, winner)

    def legal(self) -> Term:
        return self.spec().legal

    def start_claim(self, got: Any) -> Term:
        return z3.BoolVal(type(got) is S.Contracted and got.table is _TABLE and got.bids is _BIDS
                          and got.contract is _CONTRACT) if type(got) is S.Contracted else z3.BoolVal(False)

    def claim(self, res: Any) -> Term:
        """After a legal card: the next state of the play, or the trick to its winner, or the end of the hand."""
        m, st = self.m, self.spec()
        tr, card, leader = [v.term for v in self.trick], self.card.term, self.leader.term
        won = [v.term for v in self.won]
        if not (isinstance(res, tuple) and len(res) in (2, 3)):
            return z3.BoolVal(False)
        played = S.Played(st.seat, card)
        if m < 3:  # the next seat in the direction of play moves
            got, events = res
            if type(got) is not Playing:
                return z3.BoolVal(False)
            return z3.And(self.legal(), self.start_claim(got.start), z3.BoolVal(got.start.trump is not None),
                          same(got.start.trump, self.trump.term), same(got.hands, tuple(st.hands)),
                          same(got.to_move, self.enc.next_seat2(st.seat)), same(got.leader, leader),
                          same(got.trick, (*tr, card)), same(got.won, tuple(won)), same(events, (played,)))
        w = st.winner
        won2 = [won[j] + z3.If(w == j, z3.IntVal(1), z3.IntVal(0)) for j in range(4)]
        taken = S.TrickTaken(S.Trick(leader, (tr[0], tr[1], tr[2], card), w))
        last = z3.Sum(won) == 12
        after = res[1] if res[0] == _END else res[0]
        if type(after) is not Playing:
            return z3.BoolVal(False)
        state_ok = z3.And(self.start_claim(after.start), same(after.start.trump, self.trump.term),
                          same(after.hands, tuple(st.hands)), same(after.to_move, w), same(after.leader, w),
                          same(after.trick, ()), same(after.won, tuple(won2)))
        events = res[2] if res[0] == _END else res[1]
        return z3.And(self.legal(), state_ok, same(events, (played, taken)),
                      last if res[0] == _END else z3.Not(last))

    def claim_error(self, err: BaseException) -> Term:
        st = self.spec()
        clause = _play_clause(st.hand, st.led, self.card.term)
        return z3.And(z3.Not(st.legal), refused(err, IllegalPlay, st.seat, clause))


def _end_stand_in() -> Summary:
    """``_end_hand`` in the proof of the step: a marker with the state and events it was handed."""
    return Summary("_end_hand", lambda *a: z3.BoolVal(True), lambda rules, after, events: (_END, after, events),
                   module=TRANSITION)


class _End:
    """``_end_hand`` at a target in force and a number of games won before: symbolic table, bids or contract,
    tricks won (13 in all)."""

    def __init__(self, enc: Encoding, target: int, games: tuple[int, ...]) -> None:
        r = enc.r
        self.enc, self.table = enc, SymTable.make(r, target, games)
        self.won = [ivar(f"tricks won by seat {s}") for s in range(4)]
        self.bids = [ivar(f"bid of seat {s}") for s in range(4)] if r.individual else []
        self.contract = [] if r.individual else [seat_var("contract holder"), ivar("contract tricks")]  # any

    def vars(self) -> list[Var]:
        return [*self.table.vars(), *self.won, *self.bids, *self.contract]

    def domain(self) -> list[Term]:
        """The state after the thirteenth trick: 13 tricks won in all (the bids, the contract and the scores any:
        the scoring and the outcome are any functions in their place)."""
        won = [v.term for v in self.won]
        out = self.table.domain(self.enc.r) + [w >= 0 for w in won] + [z3.Sum(won) == 13]
        return out

    def call(self, f: Any, vals: list[Any]) -> Any:
        it = iter(vals)
        table = self.table.engine([next(it) for _ in self.table.vars()])
        won = tuple(next(it) for _ in range(4))
        r = self.enc.r
        if r.individual:
            bids, contract = tuple(next(it) for _ in range(4)), None
        else:
            holder, n = next(it), next(it)
            bids, contract = (0, 0, 0, 0), (holder, n, _STRAIN)  # the strain is only carried
        start = S.Contracted(table, Carried("trump"), bids, contract)  # type: ignore[arg-type]
        after = Playing(start, Carried("the hands"), Carried("the seat to move"), Carried("the leader"), (), won)  # type: ignore[arg-type]
        return f(r, after, (_FIRST,))

    def claim(self, res: Any) -> Term:
        """The hand scored (each seat's change, hand_deltas's, any function in its place), its outcome
        (hand_outcome's, likewise), play-on (win.play-on) and the next deal (deal.rotation) or the end of the
        match."""
        enc0, r, table = self.enc, self.enc.r, self.table
        sc = table.scores_t()
        won = [v.term for v in self.won]
        if r.individual:
            bids: list[Term] = [v.term for v in self.bids]
            contract = None
        else:
            bids = [z3.IntVal(0)] * 4
            contract = (z3.BV2Int(self.contract[0].term), self.contract[1].term, None)
        deltas = deltas_of(bids, contract, won)
        after = [sc[j] + deltas[j] for j in range(4)]
        w, c = outcome_of(after, z3.IntVal(table.target), bids, contract, won)
        clause = outcome_clause(c)
        if not (isinstance(res, tuple) and len(res) == 2 and isinstance(res[1], tuple) and len(res[1]) >= 4):
            return z3.BoolVal(False)
        got, events = res
        win = z3.If(z3.Or(w == 0, w == 1), w, z3.IntVal(NONE_WON))
        raised = enc0.target_in_force(z3.IntVal(len(table.games) + 1))  # the ruleset's own targets: win.play-on
        game_won = z3.And(win != NONE_WON, raised != table.target)
        over = z3.And(win != NONE_WON, z3.Not(game_won))
        target2 = z3.If(game_won, raised, z3.IntVal(table.target))
        d, deals, played, redeals = table.dealer.term, table.deals.term, table.played.term, table.redeals.term
        decided = events[2]
        if events[0] is not _FIRST or type(decided) is not S.Decided:
            return z3.BoolVal(False)
        scored = S.Scored(tuple(won), tuple(deltas), tuple(after))
        head = z3.And(same(events[1], scored), z3.BoolVal(decided.winner is not None) == (win != NONE_WON),
                      z3.BoolVal(True) if decided.winner is None else same(decided.winner, win),
                      same(decided.clause, clause))
        rest = events[3:]
        games2 = table.games if decided.winner is None else (*table.games, decided.winner)
        if type(got) is S.Over:
            if len(rest) != 1 or type(rest[0]) is not S.MatchWon:
                return z3.BoolVal(False)
            return z3.And(over, head, table_claim(got.table, d, after, target2, games2, deals + 1, played + 1,
                                                  redeals),
                          same(got.winner, win), same(got.rule, clause), same(rest[0].team, win),
                          same(rest[0].clause, clause))
        if type(got) is not S.Dealing or not rest or type(rest[-1]) is not S.NextDealer:
            return z3.BoolVal(False)
        nxt = enc0.next_seat2(d)
        raised_ev = [e for e in rest if type(e) is S.GameWon]
        if len(rest) != len(raised_ev) + 1:
            return z3.BoolVal(False)
        raised_ok = same(raised_ev[0], S.GameWon(win, target2)) if raised_ev else z3.BoolVal(True)
        return z3.And(z3.Not(over), head, game_won if raised_ev else z3.Not(game_won), raised_ok,
                      same(rest[-1], S.NextDealer(nxt, "deal.rotation")),
                      table_claim(got.table, nxt, after, target2, games2, deals + 1, played + 1, redeals))


def step_of_a_card(enc: Encoding) -> Target:
    """The step of a card, for each shape of the play (see the module docstring)."""
    steps = [_Step(enc, m) for m in range(4)]
    cases = [Case(f"{s.m} card(s) in the trick", s.vars(), s.domain(), lambda f, v, s=s: s.call(f, list(v)),
                  s.claim, lambda ev: "the specification's step", "play.follow", claim_error=s.claim_error)
             for s in steps]
    return Target("step", cases, TRANSITION, "every state of the play x every card (a 6-bit number)",
                  uses=("legal_play_mask", "trick_winner_seat", "refuse", "_end_hand"))


def end_of_a_hand(enc: Encoding) -> Target:
    """``_end_hand`` at each target in force and 0-2 games won before (see the module docstring)."""
    from .bridge_scores import _targets_in_force

    ends = [_End(enc, t, (0,) * g) for t in _targets_in_force(enc) for g in range(3)]
    cases = [Case(f"target {e.table.target}, {len(e.table.games)} game(s) won before", e.vars(), e.domain(),
                  lambda f, v, e=e: e.call(f, list(v)), e.claim, lambda ev: "the specification's end of a hand",
                  "score.values" if enc.r.individual else "score.standard") for e in ends]
    return Target("_end_hand", cases, TRANSITION,
                  "every table x bids or contract x split of the 13 tricks, at each target in force x 0-2 games",
                  uses=("hand_deltas", "hand_outcome"))


PLAY_TARGETS = (step_of_a_card, end_of_a_hand)


def play_stand_ins() -> list[Summary]:
    """What the proof of the step stands in for beside the rule functions: ``_end_hand`` (proved on its own)."""
    return [_end_stand_in()]


__all__ = ["PLAY_TARGETS", "end_of_a_hand", "play_stand_ins", "step_of_a_card"]
