"""What the proofs of the transition share: symbolic states of the engine and their specification's terms.

The family ``transition`` proves, for each phase and each kind of action, that the engine's
:func:`tarneeb.core.transition.step` gives the state and the events the specification's transition gives, for
every state of that phase and every action. The engine runs on a *symbolic state*: an object of the engine's own
state types (:mod:`tarneeb.core.state`) whose fields hold the symbolic values of :mod:`tarneeb_proofs.symbolic`;
:class:`SymTable` and friends make one, with the domain its fields range over and the terms the specification
reads. The rule functions the step calls are stood in by their encodings (:class:`tarneeb_proofs.bridge.Summary`,
each proved equal to the engine's own function by the stages of the family ``engine``), so the step's proof is the
proof of its sequencing: which function it asks, with what, in which order, and what it makes of the answers.

:func:`same` compares an engine value (a state, an event, a tuple, a number, symbolic or not) with the
specification's: a Z3 Bool.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import z3

from tarneeb.core import state as S
from tarneeb.core.spec import Rules

from .bridge import Summary, Var, as_bv, as_int, bvar, eq, in_range, ivar, value
from .encode import Encoding, Outcome, Term, seat2
from .symbolic import SymBool, SymInt, Unsupported
from .witness import card_text, hand_text

TRANSITION = "tarneeb.core.transition"
NONE_WON = -1  # the specification's "no winner yet"


def seat_show(v: Any) -> str:
    """A seat as a counterexample shows it."""
    return f"seat {v}"


def card_var(name: str) -> Var:
    """A symbolic card (6 bits), shown as the engine writes cards."""
    return bvar(name, 6, lambda c: card_text(int(c)) if 0 <= int(c) < 52 else str(c))


def hand_var(name: str) -> Var:
    """A symbolic hand (a 52-bit mask), shown as its cards."""
    return bvar(name, 52, lambda h: hand_text(int(h)))


def seat_var(name: str) -> Var:
    """A symbolic seat (2 bits)."""
    return bvar(name, 2, seat_show)


# ---------------------------------------------------------------------- what a step only carries
class Carried:
    """A part of a state that a step only carries (hands it on, never reads): any read of it is refused by name, so
    a proof that uses it holds for every value it could have."""

    __slots__ = ("_what",)

    def __init__(self, what: str) -> None:
        object.__setattr__(self, "_what", what)

    def __getattr__(self, name: str) -> Any:
        raise Unsupported(f"the step reads {name} of {object.__getattribute__(self, '_what')}, which its proof takes "
                          "as carried only")

    def __getitem__(self, i: Any) -> Any:
        raise Unsupported(f"the step reads an item of {self._what}, which its proof takes as carried only")

    def __iter__(self) -> Any:
        raise Unsupported(f"the step reads the items of {self._what}, which its proof takes as carried only")

    def __len__(self) -> int:
        raise Unsupported(f"the step reads the length of {self._what}, which its proof takes as carried only")

    def __bool__(self) -> bool:
        raise Unsupported(f"the step tests {self._what}, which its proof takes as carried only")

    def __repr__(self) -> str:
        return f"<{self._what}>"


# ---------------------------------------------------------------------- symbolic tables
@dataclass
class SymTable:
    """A symbolic :class:`tarneeb.core.state.Table`: dealer, scores and counters symbolic; the target in force and
    the games won before it concrete (the targets a ruleset can have in force and 0-2 games, as the proofs of
    :func:`tarneeb.core.hand.settle` enumerate them)."""

    dealer: Var
    scores: list[Var]
    deals: Var
    played: Var
    redeals: Var
    target: Any  # an int, or a Var where the step only carries it
    games: tuple[int, ...]

    @classmethod
    def make(cls, rules: Rules, target: int | None, games: tuple[int, ...]) -> SymTable:
        """``target`` None: any target (a step that only carries the table)."""
        return cls(seat_var("dealer"), [ivar(f"score of seat {s}") for s in range(4)], ivar("deals ended"),
                   ivar("hands played"), ivar("deals cancelled"), ivar("target") if target is None else target,
                   games)

    def target_term(self) -> Any:
        """The target in force as a term (or the concrete target)."""
        return self.target.term if isinstance(self.target, Var) else self.target

    def vars(self) -> list[Var]:
        """The table's symbolic variables, in a counterexample's order."""
        return [self.dealer, *self.scores, self.deals, self.played, self.redeals,
                *([self.target] if isinstance(self.target, Var) else [])]

    def domain(self, rules: Rules) -> list[Term]:
        """What a table of a match can hold: counters at least 0, partners' scores equal in the auction family."""
        sc = [v.term for v in self.scores]
        out = [self.deals.term >= 0, self.played.term >= 0, self.redeals.term >= 0]
        if not rules.individual:  # partners carry the team score (seats.partners)
            out += [sc[0] == sc[2], sc[1] == sc[3]]
        return out

    def engine(self, values: Sequence[Any]) -> S.Table:
        """The engine's Table from the values of :meth:`vars` (symbolic or plain)."""
        d, s0, s1, s2, s3, deals, played, redeals, *rest = values
        target = rest[0] if rest else self.target
        return S.Table(d, (s0, s1, s2, s3), target, self.games, deals, played, redeals)

    def scores_t(self) -> list[Term]:
        """The four scores as terms."""
        return [v.term for v in self.scores]


def table_claim(got: Any, dealer: Term, scores: Sequence[Term], target: Term | int, games: Sequence[Any],
                deals: Term, played: Term, redeals: Term) -> Term:
    """The engine's Table ``got`` holds these values."""
    if type(got) is not S.Table:
        return z3.BoolVal(False)
    if len(got.games) != len(games):
        return z3.BoolVal(False)
    return z3.And(eq(got.dealer, dealer), *[eq(got.scores[j], scores[j]) for j in range(4)],
                  eq(got.target, target if not isinstance(target, int) else z3.IntVal(target)),
                  *[same(g, w) for g, w in zip(got.games, games, strict=True)],
                  eq(got.deals, deals), eq(got.played, played), eq(got.redeals, redeals))


# ---------------------------------------------------------------------- comparing values
class _Any:
    """A value the comparison does not look at (the words of a cancelled deal's reason)."""

    def __repr__(self) -> str:
        return "(anything)"


ANY = _Any()


def same(got: Any, want: Any) -> Term:
    """An engine value equals the specification's: numbers (plain or symbolic, or Z3 terms on the right), None,
    strings, tuples and lists element by element, engine states and events field by field; :data:`ANY` matches
    anything, and a :class:`Carried` part only itself."""
    if want is ANY:
        return z3.BoolVal(True)
    if isinstance(want, Carried) or isinstance(got, Carried):
        return z3.BoolVal(got is want)
    if want is None or got is None:
        return z3.BoolVal(got is None and want is None)
    if isinstance(want, str) or isinstance(got, str):
        if isinstance(want, str) and isinstance(got, str):
            return z3.BoolVal(got == want)
        if isinstance(got, str) and z3.is_expr(want):
            return want == z3.StringVal(got)
        return z3.BoolVal(False)
    if isinstance(want, (tuple, list)):
        if not isinstance(got, (tuple, list)) or len(got) != len(want):
            return z3.BoolVal(False)
        return z3.And(*[same(g, w) for g, w in zip(got, want, strict=True)]) if want else z3.BoolVal(True)
    if dataclasses.is_dataclass(want) and not isinstance(want, type):
        if type(got) is not type(want):
            return z3.BoolVal(False)
        return z3.And(*[same(getattr(got, f.name), getattr(want, f.name)) for f in dataclasses.fields(want)])
    if isinstance(got, (int, bool, SymInt, SymBool)) and (z3.is_expr(want) or isinstance(want, (int, bool))):
        w = want if z3.is_expr(want) else (z3.BoolVal(want) if isinstance(want, bool) else z3.IntVal(want))
        return eq(got, w)
    return z3.BoolVal(False)


def guarded(alternatives: Sequence[tuple[Term, Any]], got: Any) -> Term:
    """The engine's ``got`` is the alternative whose condition holds (the conditions are exclusive)."""
    return z3.And(*[z3.Implies(cond, same(got, want)) for cond, want in alternatives])


# ---------------------------------------------------------------------- the words of a refusal
def refusal_summary() -> Summary:
    """:func:`tarneeb.core.transition.refuse` with its words left out: the error of the same kind, for the same
    seat and clause (what the proofs compare). The words are for people and are not proved."""

    def applies(*args: Any) -> Term:
        return z3.BoolVal(True)

    def make(kind: Any, action: Any, seat: Any, clause: Any, reason: Any, state: Any) -> Any:
        e = Exception.__new__(kind)
        e.action, e.seat, e.rule, e.reason, e.state = "(the action)", seat, clause, "(the reason)", "(the state)"
        e.args = (f"illegal action [rule {clause}]",)
        return e

    return Summary("refuse", applies, make, module=TRANSITION)


def refused(err: BaseException, kind: type, seat: Any, clause: Term | str) -> Term:
    """The engine raised ``kind`` for ``seat`` (None: chance) citing ``clause`` (a Z3 String or a str)."""
    if type(err) is not kind:
        return z3.BoolVal(False)
    rule = getattr(err, "rule", None)
    if not isinstance(rule, str):
        return z3.BoolVal(False)
    ok = z3.StringVal(rule) == clause if z3.is_expr(clause) else z3.BoolVal(rule == clause)
    got_seat = getattr(err, "seat", None)
    return z3.And(ok, same(got_seat, seat))


# ---------------------------------------------------------------------- the hand steps the transition calls
HAND = "tarneeb.core.hand"
RULES = "tarneeb.core.rules"

# The rule functions and hand steps the transition's sequencing calls, as uninterpreted functions: the transition is
# proved for every function in their place, so for the engine's own, which the family ``engine`` proves equal to
# the encodings (legal_play_mask's ``LEGAL`` is the one its own proof uses).
_I = z3.IntSort()
TWS = z3.Function("trick_winner_seat", z3.BitVecSort(2), *[z3.BitVecSort(6)] * 4, z3.BitVecSort(6), z3.BitVecSort(2))
DELTA = [z3.Function(f"score_change_of_seat_{s}", *[_I] * 10, _I) for s in range(4)]  # bids, holder, n, tricks
WINNER = z3.Function("hand_winner", *[_I] * 15, _I)  # scores, target, bids, holder, n, tricks -> 0, 1, or none
CLAUSE = z3.Function("hand_outcome_clause", *[_I] * 15, _I)  # -> the index of the deciding clause
OUTCOME_CLAUSES = ("win.qualify", "tie.both-qualify", "win.made-bid", "win.target", "score.bid13")


def contract_ints(contract: Any) -> tuple[Term, Term]:
    """(holder, tricks) of a contract as the uninterpreted functions take them: (-1, 0) without one."""
    if contract is None:
        return z3.IntVal(-1), z3.IntVal(0)
    return as_int(contract[0]), as_int(contract[1])


def deltas_of(bids: Sequence[Any], contract: Any, tricks: Sequence[Any]) -> list[Term]:
    """Each seat's score change as the uninterpreted stand-in for hand_deltas gives it."""
    holder, n = contract_ints(contract)
    args = [as_int(b) for b in bids] + [holder, n] + [as_int(t) for t in tricks]
    return [DELTA[s](*args) for s in range(4)]


def outcome_of(scores: Sequence[Any], target: Any, bids: Sequence[Any], contract: Any,
               tricks: Sequence[Any]) -> tuple[Term, Term]:
    """(the winner's term, the clause index's term) of a hand's outcome."""
    holder, n = contract_ints(contract)
    args = [as_int(x) for x in scores] + [as_int(target)] + [as_int(b) for b in bids] + [holder, n] + \
        [as_int(t) for t in tricks]
    return WINNER(*args), CLAUSE(*args)


def outcome_clause(index: Term) -> Term:
    """The clause (a Z3 String) of a clause index: the last one for any index past them."""
    out = z3.StringVal(OUTCOME_CLAUSES[-1])
    for k in range(len(OUTCOME_CLAUSES) - 2, -1, -1):
        out = z3.If(index == k, z3.StringVal(OUTCOME_CLAUSES[k]), out)
    return out


def transition_summaries() -> list[Summary]:
    """legal_play_mask, trick_winner_seat, hand_deltas and hand_outcome as uninterpreted functions, and the words of
    a refusal left out (:func:`refusal_summary`)."""
    from .bridge_play import LEGAL, led6_of

    def four(xs: Any) -> bool:
        return isinstance(xs, (list, tuple)) and len(xs) == 4

    def mask_applies(rr: Any, hand: Any, led: Any, trump: Any) -> Term:
        return z3.And(in_range(hand, 0, (1 << 52) - 1), in_range(led, -1, 3), in_range(trump, 0, 63))

    def mask_value(rr: Any, hand: Any, led: Any, trump: Any) -> Any:
        return value(LEGAL(as_bv(hand, 52), led6_of(led), as_bv(trump, 6)))

    def tws_applies(rr: Any, leader: Any, cards: Any, trump: Any) -> Term | None:
        if not four(cards):
            return None
        return z3.And(in_range(leader, 0, 3), *[in_range(c, 0, 63) for c in cards], in_range(trump, 0, 63))

    def tws_value(rr: Any, leader: Any, cards: Any, trump: Any) -> Any:
        return value(TWS(as_bv(leader, 2), *[as_bv(c, 6) for c in cards], as_bv(trump, 6)))

    def deltas_applies(rr: Any, bids: Any, contract: Any, tricks: Any) -> Term | None:
        return z3.BoolVal(True) if four(bids) and four(tricks) else None

    def deltas_value(rr: Any, bids: Any, contract: Any, tricks: Any) -> Any:
        return [value(d) for d in deltas_of(bids, contract, tricks)]

    def outcome_applies(rr: Any, scores: Any, target: Any, bids: Any, contract: Any, tricks: Any) -> Term | None:
        return z3.BoolVal(True) if four(scores) and four(bids) and four(tricks) else None

    def outcome_value(rr: Any, scores: Any, target: Any, bids: Any, contract: Any, tricks: Any) -> Any:
        w, c = outcome_of(scores, target, bids, contract, tricks)
        winner = 0 if value(w == 0) else 1 if value(w == 1) else None  # forks: the winner and the clause
        clause = next((name for k, name in enumerate(OUTCOME_CLAUSES[:-1]) if value(c == k)), OUTCOME_CLAUSES[-1])
        return winner, clause

    return [Summary("legal_play_mask", mask_applies, mask_value, RULES),
            Summary("trick_winner_seat", tws_applies, tws_value, HAND),
            Summary("hand_deltas", deltas_applies, deltas_value, HAND),
            Summary("hand_outcome", outcome_applies, outcome_value, HAND),
            refusal_summary()]


# ---------------------------------------------------------------------- encodings at a table's target
def at_target(enc: Encoding, target: int) -> Encoding:
    """The encoding with ``target`` in force (win.play-on raises it; the clauses are the ruleset's)."""
    if target == enc.r.target:
        return enc
    e = copy.copy(enc)
    e.target = z3.IntVal(target)
    e._evs = {}
    return e


def outcome_winner(o: Outcome) -> Term:
    """0, 1 or :data:`NONE_WON`."""
    return z3.If(o.team0, z3.IntVal(0), z3.If(o.team1, z3.IntVal(1), z3.IntVal(NONE_WON)))


def as_engine(t: Term) -> Any:
    """A term as an engine value (a plain value where it simplifies to one)."""
    return value(t)


def bv2(t: Term) -> Term:
    """A seat as a 2-bit term (an int made one; a term kept)."""
    return seat2(t) if isinstance(t, int) else t


def int_of(x: Any) -> Term:
    """An engine value as a Z3 integer (:func:`tarneeb_proofs.bridge.as_int`)."""
    return as_int(x)


__all__ = ["ANY", "NONE_WON", "TRANSITION", "Carried", "SymTable", "at_target", "card_var", "guarded", "hand_var", "outcome_winner",
           "refusal_summary", "refused", "same", "seat_var", "table_claim"]
