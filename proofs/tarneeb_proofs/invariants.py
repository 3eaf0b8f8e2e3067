"""Family ``invariants``: the design's invariants, each proved inductive on the specification's transition.

The family ``transition`` proves that the engine's :func:`tarneeb.core.transition.step` is the specification's
step for every state and action, with the rule functions it calls left as unknowns; the family ``engine`` proves
each of those functions equal to its encoding (:mod:`tarneeb_proofs.encode`). So the engine's transition is the
specification's transition with the encoding's rule functions, and an invariant proved inductive on that
transition (true where a match starts, kept by every step) holds in every state the engine can reach. Each part
below states its invariant from the ruleset's clauses (not from the encoding it checks) and proves it

* true where it starts (a trick with no card, the bidding just opened, a match not yet decided), and
* kept by every step of its phase, one obligation per shape of state (cards in the trick, bids made);

the steps of the other phases carry what the invariant speaks of unchanged (the family ``transition`` proves the
engine carries it: a step that changed it would be a counterexample there). The parts:

* ``follow`` (play.follow, play.must-trump): every card of the trick in progress after the first followed the
  led suit, or its player held none of it (nor, under must-trump, a trump when it discarded), and so every trick
  taken; and the step of a card the family ``transition`` proves the engine against is the encoding's
  :meth:`~tarneeb_proofs.encode.Encoding.play_step` (the link between the two families);
* ``bids`` (individual family; bid.range, bid.excluded, bid.turn, bid.total, redeal.dealer): every bid made was
  in range and not excluded, the seats bid in turn from the dealer's next, a hand in play has bids totalling at
  least the threshold in force, and a deal cancelled by the total is redealt by the documented dealer;
* ``outcome`` (win.qualify, tie.both-qualify, win.made-bid, win.target, score.bid13, win.play-on): the target
  in force is the ruleset's for the games won, and a decided match was won by a team the clauses name from the
  scores it ended on (the decided state takes no action: the family ``transition`` proves every action refused).

The fourth invariant of the design, a hand is 13 tricks, is the family ``tricks``, inductive on the same step.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from tarneeb.core.spec import get_ruleset, rulesets

from .bridge_play import LEGAL
from .encode import NO_LED, Encoding, Term, bv6, card_bit, seat2, suit_mask, suit_of, zmax
from .obligations import Check, Obligation, engine_reading_sets, ival, variants
from .refine import NONE_WON, TWS
from .witness import Witness, card_text, hand_text, seat_text

FAMILY = "invariants"


# ---------------------------------------------------------------------- witnesses
Show = tuple[str, Term, Callable[[int], str]]  # a row of a counterexample: label, term, how to print its value


def _witness(title: str, rows: Sequence[Show]) -> Callable[[Any], Witness]:
    def w(m: Any) -> Witness:
        out = Witness(title=title)
        for label, t, show in rows:
            out.add(label, show(ival(m, t)) if not z3.is_bool(t) else str(z3.is_true(m.eval(t, True))))
        return out
    return w


def _int(v: int) -> str:
    return str(v)


def _trump(t: int) -> str:
    return "no trump" if t == 4 else "CDHS"[t] if 0 <= t < 4 else f"? ({t})"


def _at(xs: Sequence[Term], i: Term) -> Term:
    """``xs[i]`` for a symbolic seat ``i`` (2 bits)."""
    out = xs[3]
    for j in (2, 1, 0):
        out = z3.If(i == j, xs[j], out)
    return out


# ---------------------------------------------------------------------- follow-suit
def _followed(enc: Encoding, hands: Sequence[Term], leader: Term, cards: Sequence[Term], trump: Term) -> Term:
    """Every card of ``cards`` (a trick from ``leader``) after the first followed suit, stated from the clauses:
    of the led suit, or its player (``hands``: as they are now) holds none of the led suit (play.follow); under
    must-trump a card neither of the led suit nor trump means its player holds no trump (play.must-trump)."""
    r = enc.r
    led = suit_of(cards[0])
    out: list[Term] = []
    for i in range(1, len(cards)):
        hand = _at(hands, leader + seat2(i * r.step % 4))  # play.direction, from the ruleset
        s = suit_of(cards[i])
        out.append(z3.Or(s == led, (hand & suit_mask(led)) == 0))
        if r.must_trump:
            out.append(z3.Implies(z3.And(s != led, z3.ULT(trump, 4), s != trump), (hand & suit_mask(trump)) == 0))
    return z3.And(out) if out else z3.BoolVal(True)


def follow_suit(enc: Encoding) -> list[Obligation]:
    """The trick in progress followed suit: kept by a card played with 1 and 2 cards in the trick; the fourth
    card completes a trick that followed suit (the trick taken); and the step is the one the family
    ``transition`` proves the engine against."""
    H = [z3.BitVec(f"hand{j}", 52) for j in range(4)]
    T = [z3.BitVec(f"trick{i}", 6) for i in range(3)]
    leader, trump, card = z3.BitVec("leader", 2), z3.BitVec("trump", 6), z3.BitVec("card", 6)
    obs: list[Obligation] = []
    for m in (1, 2, 3):
        st = enc.play_step(H, leader, seat2(m), T, trump, card)
        # with the family tricks' invariant (hands and the trick's cards disjoint) beside it
        apart = [(H[a] & H[b]) == 0 for a in range(4) for b in range(a + 1, 4)]
        apart += [(h & card_bit(t)) == 0 for h in H for t in T[:m]] + ([z3.Distinct(*T[:m])] if m > 1 else [])
        hyp = [enc.trump_ok(trump), z3.ULT(card, 52), *[z3.ULT(t, 52) for t in T[:m]], *apart,
               _followed(enc, H, leader, T[:m], trump), st.legal]
        claim = _followed(enc, st.hands, leader, [*T[:m], card], trump)
        rows: list[Show] = [("trump", trump, _trump), ("leader", leader, seat_text)]
        rows += [(f"seat {j} holds", H[j], hand_text) for j in range(4)]
        rows += [(f"trick card {i + 1}", T[i], card_text) for i in range(m)]
        rows += [("card played", card, card_text), ("by", st.seat, seat_text)]
        what = "completes a trick in which every card followed suit" if m == 3 else "keeps the trick following suit"
        obs.append(Obligation(f"a legal card played with {m} card(s) in the trick {what} (play.follow"
                              + (", play.must-trump)" if enc.r.must_trump else ")"), hyp, claim,
                              _witness("a card played", rows), guards="claim"))
    return obs + _play_link(enc)


def _play_link(enc: Encoding) -> list[Obligation]:
    """The specification's step of a card in :mod:`tarneeb_proofs.refine_play` (legal set and trick winner as
    unknowns), with the encoding's legal_mask and trick_winner_seat in their place, is ``play_step``."""
    from .refine_play import _Step  # the step the family transition proves the engine against

    h, ld, tr = z3.BitVec("h!", 52), z3.BitVec("led!", 6), z3.BitVec("tr!", 6)
    ld0, c = z3.BitVec("lead!", 2), [z3.BitVec(f"c{i}!", 6) for i in range(4)]
    # each unknown's definition, its arguments as the de Bruijn variables z3.substitute_funs binds them to
    legal_def = z3.substitute(enc.legal_mask(h, ld, tr), (h, z3.Var(0, h.sort())), (ld, z3.Var(1, ld.sort())),
                              (tr, z3.Var(2, tr.sort())))
    tws_def = enc.trick_winner_seat(c, tr, ld0)
    tws_def = z3.substitute(tws_def, (ld0, z3.Var(0, ld0.sort())), *[(c[i], z3.Var(1 + i, c[i].sort()))
                                                                        for i in range(4)], (tr, z3.Var(5, tr.sort())))
    obs = []
    for m in range(4):
        s = _Step(enc, m)
        spec = s.spec()

        def sub(t: Term) -> Term:
            return z3.substitute_funs(t, (LEGAL, legal_def), (TWS, tws_def))

        trick = [v.term for v in s.trick] + [bv6(NO_LED)] * (3 - m)
        hands = [v.term for v in s.hands]
        ps = enc.play_step(hands, s.leader.term, seat2(m), trick, s.trump.term, s.card.term)
        parts = [sub(spec.seat) == ps.seat, sub(spec.legal) == ps.legal]
        parts += [sub(a) == b for a, b in zip(spec.hands, ps.hands, strict=True)]
        if m == 3:
            parts.append(sub(spec.winner) == ps.leader)
        hyp = [enc.trump_ok(s.trump.term), *[z3.ULT(v.term, 52) for v in s.trick]]
        rows: list[Show] = [("trump", s.trump.term, _trump), ("leader", s.leader.term, seat_text),
                            ("card", s.card.term, card_text)]
        obs.append(Obligation(f"the transition's step of a card with {m} card(s) in the trick is the encoding's "
                              "play step (seat, legality, hands, next leader)", hyp, z3.And(parts),
                              _witness("a card played", rows)))
    return obs


# ---------------------------------------------------------------------- bids and the redeal (individual)
def _bid_ok(enc: Encoding, bid: Term) -> Term:
    """A bid as the clauses bound it, from the ruleset: in range (bid.range), not excluded (bid.excluded)."""
    r = enc.r
    return z3.And(bid >= r.bid_min, bid <= r.bid_max, *[bid != x for x in sorted(r.bid_excluded)])


def _needed(enc: Encoding, scores: Sequence[Term]) -> Term:
    """bid.total, from the ruleset: the least total, raised where a seat has reached a threshold of the raised
    table (reading rising of ambiguity raised-total)."""
    need: Term = z3.IntVal(enc.r.total_min)
    for threshold, total in enc.r.total_table:
        need = z3.If(z3.Or([x >= threshold for x in scores]), zmax(need, z3.IntVal(total)), need)
    return need


def _bidding_inv(enc: Encoding, dealer: Term, k: int, to_move: Term, bids: Sequence[Term]) -> Term:
    """The bidding after ``k`` bids: the seat to bid is the dealer's ``k + 1``-th successor (bid.turn), the seats
    that bid before it made bids within the clauses, the others none yet."""
    step = enc.r.step % 4
    parts = [to_move == dealer + seat2((k + 1) * step % 4)]
    for j in range(4):
        spoke = z3.Or([dealer + seat2((i + 1) * step % 4) == j for i in range(k)]) if k else z3.BoolVal(False)
        parts.append(z3.If(spoke, _bid_ok(enc, bids[j]), bids[j] == 0))
    return z3.And(parts)


def bid_total(enc: Encoding) -> list[Obligation]:
    """The bidding opens in its invariant and each bid keeps it; a hand reaches the play only with its bids
    totalling the threshold in force, each within the clauses; a deal the total cancels is redealt by the dealer
    redeal.dealer names, the scores unchanged (the cancelled deal's state carries the table)."""
    r = enc.r
    S = [z3.Int(f"score{j}") for j in range(4)]
    B = [z3.Int(f"bid{j}") for j in range(4)]
    n = z3.Int("bid")
    dealer, to_move = z3.BitVec("dealer", 2), z3.BitVec("to_move", 2)
    rows: list[Show] = [("dealer", dealer, seat_text), ("seat to bid", to_move, seat_text)]
    rows += [(f"score of seat {j}", S[j], _int) for j in range(4)] + [(f"bid of seat {j}", B[j], _int)
                                                                      for j in range(4)]
    rows.append(("bid made", n, _int))
    w = _witness("the bidding", rows)
    opened = enc.next_seat2(dealer)  # the transition's first bidder (refine_deal: the bidding opens)
    obs = [Obligation("the bidding opens in the invariant: the dealer's next seat to bid, no bids (bid.turn)", [],
                      _bidding_inv(enc, dealer, 0, opened, [z3.IntVal(0)] * 4), w)]
    for k in range(4):
        after = [z3.If(to_move == j, n, B[j]) for j in range(4)]
        hyp = [_bidding_inv(enc, dealer, k, to_move, B), enc.legal_bid(_at(S, to_move), n)]
        if k < 3:
            obs.append(Obligation(f"a legal bid after {k} keeps the bidding's invariant (bid.range, bid.turn)",
                                  hyp, _bidding_inv(enc, dealer, k + 1, enc.next_seat2(to_move), after), w))
            continue
        played = enc.hand_played(after, S)
        claim = z3.And(*[_bid_ok(enc, b) for b in after], z3.Sum(after) >= _needed(enc, S))
        obs.append(Obligation("the fourth bid starts the play only with four bids within the clauses totalling "
                              "the threshold in force (bid.total)", [*hyp, played], claim, w))
        same = r.redeal_same_dealer
        nxt = enc.dealer_after_redeal(dealer)
        want = dealer if same else dealer + seat2(r.step % 4)
        obs.append(Obligation("a deal the total cancels is redealt by "
                              + ("the same dealer" if same else "the next dealer") + " (redeal.dealer)",
                              [*hyp, z3.Not(played)], nxt == want, w))
    return obs


# ---------------------------------------------------------------------- the outcome of the match
def _target_at(enc: Encoding, games: Term) -> Term:
    """win.play-on, from the ruleset: the target after ``games`` games won (raised once, or after every game
    under reading repeated of ambiguity play-on-count)."""
    r = enc.r
    if r.play_on_raise <= 0:
        return z3.IntVal(r.target)
    raised = r.target + (r.play_on_raise * games if r.play_on_count == "repeated" else r.play_on_raise)
    return z3.If(games >= 1, raised, z3.IntVal(r.target))


@dataclass
class _Hand:
    """The last hand of a match, symbolic: its scores before, the changes (any, partners alike in the auction
    family), the bids and tricks (individual) or the contract and the bidders' tricks (auction)."""

    scores: list[Term]
    deltas: list[Term]
    bids: list[Term]
    tricks: list[Term]
    contract: Term
    team: Term
    taken: Term

    @classmethod
    def make(cls) -> _Hand:
        return cls([z3.Int(f"score{j}") for j in range(4)], [z3.Int(f"change{j}") for j in range(4)],
                   [z3.Int(f"bid{j}") for j in range(4)], [z3.Int(f"tricks{j}") for j in range(4)],
                   z3.Int("contract"), z3.Int("bidding_team"), z3.Int("bidders_tricks"))

    def domain(self, enc: Encoding) -> list[Term]:
        r = enc.r
        if r.individual:
            return [*[_bid_ok(enc, b) for b in self.bids], *[t >= 0 for t in self.tricks], z3.Sum(self.tricks) == 13]
        s, d = self.scores, self.deltas
        return [s[0] == s[2], s[1] == s[3], d[0] == d[2], d[1] == d[3], self.contract >= r.min_bid,
                self.contract <= 13, z3.Or(self.team == 0, self.team == 1), self.taken >= 0, self.taken <= 13]

    def after(self) -> list[Term]:
        return [s + d for s, d in zip(self.scores, self.deltas, strict=True)]

    def rows(self, individual: bool) -> list[Show]:
        out: list[Show] = [(f"score of seat {j} before the hand", s, _int) for j, s in enumerate(self.scores)]
        out += [(f"change of seat {j}", d, _int) for j, d in enumerate(self.deltas)]
        if individual:
            out += [(f"bid of seat {j}", b, _int) for j, b in enumerate(self.bids)]
            return out + [(f"tricks of seat {j}", t, _int) for j, t in enumerate(self.tricks)]
        return out + [("contract", self.contract, _int), ("bidding team", self.team, _int),
                      ("bidders' tricks", self.taken, _int)]


def _decided(enc: Encoding, hand: _Hand, target: Term, winner: Term, rule: Term) -> Term:
    """A decided match, from the clauses: ``winner`` (0 or 1) is the team the deciding ``rule`` names on the
    scores the match ended on and the target in force."""
    r = enc.r
    s = hand.after()
    names: dict[str, list[Term]] = {}  # deciding clause -> what it says of team 0, of team 1
    if r.individual:
        def qual(a: Term, b: Term) -> Term:  # win.qualify: the better partner at the target, the other above 0
            return z3.And(zmax(a, b) >= target, z3.If(a >= b, b, a) > 0)

        q = [qual(s[0], s[2]), qual(s[1], s[3])]
        key = [s[0] + s[2], s[1] + s[3]] if r.tie_rule == "combined" else [zmax(s[0], s[2]), zmax(s[1], s[3])]
        names["win.qualify"] = [z3.And(q[x], z3.Not(q[1 - x])) for x in (0, 1)]
        names["tie.both-qualify"] = [z3.And(q[0], q[1], key[x] > key[1 - x]) for x in (0, 1)]
        if r.made_bid_wins:  # win.made-bid (reading partner-positive of bid10-partner: the partner above 0)
            mk = [z3.And(hand.bids[j] == r.made_bid_wins, hand.tricks[j] >= hand.bids[j],
                         s[(j + 2) % 4] > 0 if r.made_bid_partner == "partner-positive" else z3.BoolVal(True))
                  for j in range(4)]
            names["win.made-bid"] = [z3.Or(mk[0], mk[2]), z3.Or(mk[1], mk[3])]
    else:
        team = [s[0], s[1]]
        names["win.target"] = [z3.And(team[x] >= target, team[1 - x] < target) for x in (0, 1)]
        names["tie.both-qualify"] = [z3.And(team[0] >= target, team[1] >= target, hand.team == x) for x in (0, 1)]
        if r.bid13 == "win":
            names["score.bid13"] = [z3.And(hand.contract == 13, hand.taken == 13, hand.team == x) for x in (0, 1)]
    parts = [z3.Or(winner == 0, winner == 1), z3.Or([rule == z3.StringVal(k) for k in names])]
    for k, says in names.items():
        parts.append(z3.Implies(rule == z3.StringVal(k), z3.If(winner == 0, says[0], says[1])))
    return z3.And(parts)


def match_outcome(enc: Encoding) -> list[Obligation]:
    """A match starts undecided at the ruleset's target; the end of every hand keeps the target in force the
    ruleset's for the games won, and ends the match only with a winner the clauses name, at a target that no
    longer rises (under reading repeated with a raise: no hand ends it)."""
    r = enc.r
    hand = _Hand.make()
    games, target = z3.Int("games_won"), z3.Int("target")
    e = copy.copy(enc)  # the encoding at the table's target (symbolic)
    e.target = target
    after = hand.after()
    if r.individual:
        o = e.individual_outcome(after, hand.bids, hand.tricks)
    else:
        o = e.auction_outcome([after[0], after[1]], target, hand.team, e.bid13_wins(hand.contract, hand.taken))
    win = z3.If(o.team0, z3.IntVal(0), z3.If(o.team1, z3.IntVal(1), z3.IntVal(NONE_WON)))
    raised = enc.target_in_force(games + 1)  # the transition's play-on (refine_play: the end of a hand)
    game_won = z3.And(win != NONE_WON, raised != target)
    ends = z3.And(win != NONE_WON, z3.Not(game_won))
    games2 = z3.If(win != NONE_WON, games + 1, games)
    target2 = z3.If(game_won, raised, target)
    hyp = [games >= 0, target == _target_at(enc, games), *hand.domain(enc)]
    rows: list[Show] = [("games won before", games, _int), ("target in force", target, _int), *hand.rows(r.individual),
                        ("winner (encoding, -1 none)", win, _int), ("the match ends", ends, _int)]
    w = _witness("the end of a hand", rows)
    obs = [Obligation("a match starts undecided at the ruleset's target (win.target)", [],
                      _target_at(enc, z3.IntVal(0)) == r.target, w),
           Obligation("a hand the match goes on after leaves the target in force the ruleset's for the games won "
                      "(win.play-on)", [*hyp, z3.Not(ends)], target2 == _target_at(enc, games2), w)]
    if r.play_on_raise > 0 and r.play_on_count == "repeated":
        return [*obs, Obligation("no hand ends the match: every game won raises the target again (win.play-on, "
                                 "reading repeated)", hyp, z3.Not(ends), w)]
    return [*obs, Obligation("a hand ends the match only with a winner the clauses name on the scores it ended on, "
                             "at a target that no longer rises (win.*, tie.both-qualify, win.play-on)",
                             [*hyp, ends], z3.And(_decided(enc, hand, target, win, o.clause),
                                                  _target_at(enc, games2) == target), w)]


# ---------------------------------------------------------------------- the family's table
@dataclass(frozen=True)
class Part:
    """An invariant of the family: its builder, the options its checks enumerate (individual family, auction
    family; None: not of that family), the ambiguities whose readings it runs under, the clauses it proves, and
    the encoding's broken rules (mutants) it must catch with the options they need."""

    name: str
    build: Callable[[Encoding], list[Obligation]]
    individual: tuple[str, ...] | None
    auction: tuple[str, ...] | None
    readings: tuple[str, ...]
    clauses: tuple[str, ...]
    mutants: tuple[tuple[str, tuple[tuple[str, Any], ...], bool | None], ...]  # id, options, family (None: both)


PARTS: tuple[Part, ...] = (
    Part("follow", follow_suit, ("trump_source", "direction"), ("must_trump", "direction"),
         ("turned-card-trump", "400-direction"), ("play.follow", "play.must-trump", "play.direction"),
         (("follow-not-enforced", (), None), ("must-trump-ignored", (("must_trump", True),), False),
          ("turn-step-2", (), None), ("next-lead-after-winner", (), None))),
    Part("bids", bid_total, ("rising_min_bid", "bid_total_min", "direction"), None,
         ("raised-total", "400-direction"), ("bid.range", "bid.excluded", "bid.turn", "bid.total", "redeal.dealer"),
         (("bid-below-min", (), True), ("redeal-dealer-swapped", (), True), ("turn-step-2", (), True))),
    Part("outcome", match_outcome, ("target", "made_bid_wins"), ("target", "play_on", "bid13"),
         ("bid10-partner", "play-on-count"),
         ("win.target", "win.qualify", "tie.both-qualify", "win.made-bid", "score.bid13", "win.play-on"),
         (("partner-geq-0", (), True), ("tie-to-team-0", (), True), ("tie-to-defenders", (), False),
          ("play-on-not-raised", (("play_on", 10),), False))),
)


def invariant_checks(refs: list[str] | None = None) -> list[Check]:
    """Every part x ruleset x option variant (and reading), and the part's mutants."""
    out: list[Check] = []
    for rid in refs if refs is not None else list(rulesets()):
        rs = get_ruleset(rid)
        individual = rs.params.get("family") == "individual"
        for part in PARTS:
            names = part.individual if individual else part.auction
            if names is None:
                continue
            clauses = tuple(c for c in part.clauses if c in rs.clauses)
            vs = variants(rid, names)
            if "play_on" in names:  # an integer option: the default and a raise
                vs = vs + [tuple(sorted((*v, ("play_on", 10)))) for v in vs]
            make = part.build
            out += [Check(FAMILY, rid, v, None, clauses, make, part.name) for v in vs]
            out += [Check(FAMILY, rid, v, None, clauses, make, part.name, rd)
                    for v, rd in engine_reading_sets(rid, vs, part.readings)]
            for mutant, opts, kind in part.mutants:
                if kind is not None and kind != individual:
                    continue
                base = dict(vs[0])
                base.update({k: x for k, x in opts if k in names})
                out.append(Check(FAMILY, rid, tuple(sorted(base.items())), mutant, clauses, make, part.name))
    return out


__all__ = ["FAMILY", "PARTS", "Part", "bid_total", "follow_suit", "invariant_checks", "match_outcome"]
