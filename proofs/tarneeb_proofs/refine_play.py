"""The transition, play phase: a card played in every state of the play equals the specification's step.

For each number of cards already in the trick (0 to 3), the engine's :func:`tarneeb.core.transition.step` runs on
a symbolic :class:`tarneeb.core.state.Playing` (every four hands, leader, trump, cards of the trick so far, tricks
won, bids or contract, table) and a symbolic card (any 6-bit number: the 52 cards and 12 numbers that are none),
and must give what the specification gives (:meth:`tarneeb_proofs.encode.Encoding.play_step`, the scoring, the
outcome, play-on and the rotation of the deal): the refusal of an illegal card with its clause, the next state of
the play, the trick completed and its winner, or, on the thirteenth trick, the hand scored, its outcome and the
next deal or the end of the match; with the events, each with its values.

The domain is what every state of the play satisfies (the invariant the family ``invariants`` proves inductive):
the hands and the trick's cards are disjoint cards, the seat to move is the leader's ``m``-th successor, the tricks
won add up to at most 12, bids are legal bids (individual) or the contract a legal one (auction), partners carry
one team score (auction). The target in force and the games won before are enumerated as the proofs of
:func:`tarneeb.core.hand.settle` enumerate them.
"""

from __future__ import annotations

from typing import Any

import z3

from tarneeb.core import state as S
from tarneeb.core.actions import Play
from tarneeb.core.state import Playing
from tarneeb.errors import IllegalPlay

from .bridge import Case, Target, Var, bvar, cite, ivar
from .encode import NO_LED, Encoding, Term, bv6, card_bit, holds, seat2, suit_mask, suit_of
from .refine import (
    NONE_WON,
    TRANSITION,
    SymTable,
    at_target,
    card_var,
    hand_var,
    outcome_winner,
    refused,
    same,
    seat_var,
    table_claim,
)


def _play_clause(enc: Encoding, hand: Term, led: Term, trump: Term, card: Term) -> Term:
    """The clause that refuses ``card`` from ``hand`` (play.follow: not held, or the led suit held; else
    play.must-trump), as a Z3 String."""
    r = enc.r
    follow = z3.StringVal("play.follow")
    if not r.must_trump:
        return follow
    must = z3.StringVal(cite(r, "play.must-trump", "play.follow"))
    held = z3.And(z3.ULT(card, 52), holds(hand, card))
    return z3.If(z3.Or(z3.Not(held), led == NO_LED, (hand & suit_mask(led)) != 0), follow, must)


class _PlayCase:
    """One shape of the play: ``m`` cards in the trick, the table's target and games; its symbolic inputs."""

    def __init__(self, enc: Encoding, m: int, target: int, games: tuple[int, ...]) -> None:
        r = enc.r
        self.enc, self.m = enc, m
        self.table = SymTable.make(r, target, games)
        self.hands = [hand_var(f"hand of seat {s}") for s in range(4)]
        self.leader = seat_var("leader")
        self.trick = [card_var(f"trick card {i + 1}") for i in range(m)]
        self.trump = bvar("trump", 6, lambda t: "no trump" if t == 4 else "CDHS"[t] if 0 <= t < 4 else str(t))
        self.won = [ivar(f"tricks won by seat {s}") for s in range(4)]
        self.card = card_var("card")
        if r.individual:
            self.bids = [ivar(f"bid of seat {s}") for s in range(4)]
            self.contract: list[Var] = []
        else:
            self.bids = []
            self.contract = [seat_var("contract holder"), ivar("contract tricks")] + (
                [bvar("contract strain", 6)] if r.egyptian else [])

    def vars(self) -> list[Var]:
        return [*self.table.vars(), *self.hands, self.leader, *self.trick, self.trump, *self.won, *self.bids,
                *self.contract, self.card]

    def domain(self) -> list[Term]:
        enc, r, m = self.enc, self.enc.r, self.m
        hs = [v.term for v in self.hands]
        tr = [v.term for v in self.trick]
        won = [v.term for v in self.won]
        out = self.table.domain(r) + [enc.trump_ok(self.trump.term)]
        out += [(hs[a] & hs[b]) == 0 for a in range(4) for b in range(a + 1, 4)]
        out += [z3.ULT(c, 52) for c in tr] + ([z3.Distinct(*tr)] if m > 1 else [])
        out += [(h & card_bit(c)) == 0 for h in hs for c in tr]
        out += [w >= 0 for w in won] + [z3.Sum(won) <= 12]
        if r.individual:
            out += [z3.And(b >= r.bid_min, b <= r.bid_max, *[b != x for x in sorted(r.bid_excluded)])
                    for b in (v.term for v in self.bids)]
        else:
            n = self.contract[1].term
            out += [n >= r.min_bid, n <= 13]
            if r.egyptian:
                strain = self.contract[2].term
                out += [z3.ULE(strain, 4), self.trump.term == strain]
        return out

    def spec_start(self) -> S.Contracted:
        """The state's ``start`` with the specification's terms in its fields (for :func:`refine.same`)."""
        t = self.table
        table = S.Table(t.dealer.term, tuple(t.scores_t()), t.target, t.games, t.deals.term, t.played.term,  # type: ignore[arg-type]
                        t.redeals.term)
        if self.enc.r.individual:
            return S.Contracted(table, self.trump.term, tuple(v.term for v in self.bids), None)  # type: ignore[arg-type]
        c = self.contract
        return S.Contracted(table, self.trump.term, (0, 0, 0, 0),  # type: ignore[arg-type]
                            (c[0].term, c[1].term, c[2].term if self.enc.r.egyptian else None))

    def engine_state(self, vals: list[Any]) -> tuple[Playing, Any]:
        """The engine's state and action from the values of :meth:`vars`, in order."""
        it = iter(vals)
        table = self.table.engine([next(it) for _ in self.table.vars()])
        hands = tuple(next(it) for _ in range(4))
        leader = next(it)
        trick = tuple(next(it) for _ in range(self.m))
        trump = next(it)
        won = tuple(next(it) for _ in range(4))
        r = self.enc.r
        if r.individual:
            bids = tuple(next(it) for _ in range(4))
            contract = None
        else:
            bids = (0, 0, 0, 0)
            holder, n = next(it), next(it)
            contract = (holder, n, next(it) if r.egyptian else None)
        card = next(it)
        to_move = leader
        for _ in range(self.m):
            to_move = (to_move + r.step) % 4
        start = S.Contracted(table, trump, bids, contract)  # type: ignore[arg-type]
        return Playing(start, hands, to_move, leader, trick, won), Play(card)  # type: ignore[arg-type]


def _claim_play(pc: _PlayCase, res: Any) -> Term:
    """The engine's (state, events) after a legal card equals the specification's (see the module docstring)."""
    enc, r, m = pc.enc, pc.enc.r, pc.m
    hs = [v.term for v in pc.hands]
    tr = [v.term for v in pc.trick]
    trump, card, leader = pc.trump.term, pc.card.term, pc.leader.term
    pad = tr + [bv6(0)] * (3 - m)
    st = enc.play_step(hs, leader, seat2(m), pad[:3], trump, card)
    if not (isinstance(res, tuple) and len(res) == 2):
        return z3.BoolVal(False)
    got, events = res
    start = pc.spec_start()
    if m < 3:
        if type(got) is not Playing:
            return z3.BoolVal(False)
        return z3.And(same(got.start, start), same(got.hands, tuple(st.hands)), same(got.to_move, enc.next_seat2(st.seat)),
                      same(got.leader, leader), same(got.trick, (*tr, card)),
                      same(got.won, tuple(v.term for v in pc.won)),
                      same(events, (S.Played(st.seat, card),)))  # type: ignore[arg-type]
    # the fourth card: the trick to its winner, who leads next; the thirteenth trick ends the hand
    won = [v.term for v in pc.won]
    w = st.winner
    won2 = [won[j] + z3.If(w == j, z3.IntVal(1), z3.IntVal(0)) for j in range(4)]
    cards = (tr[0], tr[1], tr[2], card)
    trick_ev = S.TrickTaken(S.Trick(leader, cards, w))  # type: ignore[arg-type]
    played_ev = S.Played(st.seat, card)  # type: ignore[arg-type]
    last = z3.Sum(won) == 12
    if type(got) is Playing:
        return z3.And(z3.Not(last), same(got.start, start), same(got.hands, tuple(st.hands)), same(got.to_move, w),
                      same(got.leader, w), same(got.trick, ()), same(got.won, tuple(won2)),
                      same(events, (played_ev, trick_ev)))
    return z3.And(last, _claim_end(pc, st.hands, won2, got, events, played_ev, trick_ev))


def _claim_end(pc: _PlayCase, hands: list[Term], won: list[Term], got: Any, events: Any, *first: Any) -> Term:
    """The hand scored (score.*), its outcome (win.*, tie.*), play-on (win.play-on) and the next deal
    (deal.rotation) or the end of the match, as the specification gives them."""
    enc0, r, table = pc.enc, pc.enc.r, pc.table
    enc = at_target(enc0, table.target)
    sc = table.scores_t()
    if r.individual:
        bids = [v.term for v in pc.bids]
        deltas = [enc.individual_delta(bids[j], won[j]) for j in range(4)]
        after = [sc[j] + deltas[j] for j in range(4)]
        o = enc.individual_outcome(after, bids, won)
    else:
        holder, n = pc.contract[0].term, pc.contract[1].term
        bt = z3.BV2Int(holder) % 2
        bt_tricks = z3.If(bt == 0, won[0] + won[2], won[1] + won[3])
        d0, d1 = enc.team_deltas(n, bt, bt_tricks)
        deltas = [d0, d1, d0, d1]
        after = [sc[j] + deltas[j] for j in range(4)]
        o = enc.auction_outcome([after[0], after[1]], z3.IntVal(table.target), bt, enc.bid13_wins(n, bt_tricks))
    win = outcome_winner(o)
    g = len(table.games)
    raised = enc0.target_in_force(z3.IntVal(g + 1))  # the ruleset's own targets: win.play-on
    game_won = z3.And(win != NONE_WON, raised != table.target)
    over = z3.And(win != NONE_WON, z3.Not(game_won))
    target2 = z3.If(game_won, raised, z3.IntVal(table.target))
    d, deals, played, redeals = (table.dealer.term, table.deals.term, table.played.term, table.redeals.term)
    scored = S.Scored(tuple(won), tuple(deltas), tuple(after))  # type: ignore[arg-type]
    if not isinstance(events, tuple) or len(events) < 4:
        return z3.BoolVal(False)
    decided = events[3]
    if type(decided) is not S.Decided:
        return z3.BoolVal(False)
    head = z3.And(same(events[:3], (*first, scored)), same(decided.winner, None) if decided.winner is None
                  else z3.And(win != NONE_WON, same(decided.winner, win)),
                  z3.BoolVal(decided.winner is not None) == (win != NONE_WON), same(decided.clause, o.clause))
    rest = events[4:]
    games2 = (*table.games, decided.winner) if decided.winner is not None else table.games
    if type(got) is S.Over:
        if len(rest) != 1 or type(rest[0]) is not S.MatchWon:
            return z3.BoolVal(False)
        return z3.And(over, head, table_claim(got.table, d, after, target2, games2, deals + 1, played + 1, redeals),
                      same(got.winner, win), same(got.rule, o.clause), same(rest[0].team, win),
                      same(rest[0].clause, o.clause))
    if type(got) is not S.Dealing:
        return z3.BoolVal(False)
    nxt = enc.next_seat2(d)
    tail: list[Any] = []
    if game_won_events := [e for e in rest if type(e) is S.GameWon]:
        tail.append(z3.And(game_won, same(game_won_events[0], S.GameWon(win, target2))))  # type: ignore[arg-type]
    else:
        tail.append(z3.Not(game_won))
    if len(rest) != len(game_won_events) + 1 or type(rest[-1]) is not S.NextDealer:
        return z3.BoolVal(False)
    return z3.And(z3.Not(over), head, *tail, same(rest[-1], S.NextDealer(nxt, "deal.rotation")),  # type: ignore[arg-type]
                  table_claim(got.table, nxt, after, target2, games2, deals + 1, played + 1, redeals))


def play_targets(enc: Encoding) -> list[Target]:
    """The step of a card, for each shape of the play (see the module docstring)."""
    from .bridge_scores import _targets_in_force

    r = enc.r
    cases: list[Case] = []
    for m in range(4):
        shapes = [(t, g) for t in _targets_in_force(enc) for g in range(3)] if m == 3 else [(r.target, 0)]
        for target, g in shapes:
            pc = _PlayCase(enc, m, target, (0,) * g)
            def call(f: Any, vals: list[Any], pc: _PlayCase = pc) -> Any:
                state, action = pc.engine_state(list(vals))
                return f(r, state, action)

            def claim(res: Any, pc: _PlayCase = pc) -> Term:
                return z3.And(_legal(pc), _claim_play(pc, res))

            def claim_error(err: BaseException, pc: _PlayCase = pc) -> Term:
                hs = [v.term for v in pc.hands]
                st = pc.enc.play_step(hs, pc.leader.term, seat2(pc.m), ([v.term for v in pc.trick] +
                                                                         [bv6(0)] * 3)[:3], pc.trump.term, pc.card.term)
                led = bv6(NO_LED) if pc.m == 0 else suit_of(pc.trick[0].term)
                clause = _play_clause(pc.enc, st.hand, led, pc.trump.term, pc.card.term)
                return z3.And(z3.Not(_legal(pc)), refused(err, IllegalPlay, st.seat, clause))

            label = f"{m} card(s) in the trick" + (f", target {target}, {g} game(s) won before" if m == 3 else "")
            cases.append(Case(label, pc.vars(), pc.domain(), call, claim, lambda ev: "the specification's step",
                              "play.follow", claim_error=claim_error))
    return [Target("step", cases, TRANSITION, "every state of the play x every card (a 6-bit number)",
                   uses=("legal_play_mask", "trick_winner", "refuse", "individual_delta", "team_deltas",
                         "bid13_wins", "team_qualifies", "individual_outcome"))]


def _legal(pc: _PlayCase) -> Term:
    hs = [v.term for v in pc.hands]
    st = pc.enc.play_step(hs, pc.leader.term, seat2(pc.m), ([v.term for v in pc.trick] + [bv6(0)] * 3)[:3],
                          pc.trump.term, pc.card.term)
    return z3.And(z3.ULT(pc.card.term, 52), st.legal)


__all__ = ["play_targets"]
