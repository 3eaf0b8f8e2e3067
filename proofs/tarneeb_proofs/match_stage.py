"""Family ``engine``, stage ``match``: the match machine steered through every kind of transition (**bounded**).

This stage is a test over the matches it steers, not a proof: it shows that on these matches, at every step, the
engine's state machine (:class:`tarneeb.core.match.Match`, with the steps of :mod:`tarneeb.core.hand`) does what the
encodings (:class:`tarneeb_proofs.encode.Encoding`, read through :class:`tarneeb_proofs.evaluate.Ev`) say. The
other engine stages prove the rule functions themselves.

**Steering.** A driver builds matches through ``Match.at`` (chosen dealer, scores, target and games) and applies
Deal, Bid, NameTrump and Play actions chosen on purpose, from *scenarios* (:func:`scenarios`): decks built for the
transition wanted (all 13 trumps to the bidder for a 13-trick hand, a seat with no card above 10 for a weak hand,
the top trumps to the seat that must make its bid), bids summed to just below, at or above the threshold, auctions
scripted (warm-up bids, the dealer matching, all four passing) and a card chooser that makes given seats or teams
win tricks (:class:`Chooser`). Under every option variant of every ruleset (:func:`variants`: every value of every
option of ``spec/rulesets/*.toml``, with the full product of the options that act together, see ``GROUPS``) the
scenarios reach: a deal cancelled by the bid total (below the threshold; played at and above it), all-pass in each
all-pass mode, the weak-hand redeal, 1, 2 and 3 cancelled deals in a row (each cause, and mixed causes), the
made-bid win, a bid of 13 made and failed, kaboot for each side, play on at each target, each tie rule (both
teams qualifying, level and not), the match's end.

**Compared at every step** with values the encoding gives (never :mod:`tarneeb.core.rules` or ``hand``): the hands
dealt (deal.order), the weak-hand test, the trump, the seat to move, its whole legal set (play: every card by
``legal_mask``; individual bidding: ``legal_bid`` for 0..14 and a pass; the auction: ``call_ok`` for every call
from the encoded auction state advanced by ``auction_step``; the trump named: ``trump_ok``), that the action taken
is accepted and that illegal ones are refused (every illegal held card, a card not held, every illegal bid, the
illegal calls near the top bid), the contract, the cause of a cancellation (``weak_hand``, ``hand_played``,
all-pass), the next dealer by cause (``next_seat`` / ``dealer_after_redeal``), the first leader
(``first_leader``), each trick's winner seat, the tricks won, the score changes, the scores carried, each
outcome, the target in force (``target_in_force``, play on), the games won and that the match is over exactly when
decided. A disagreement is a :class:`Counterexample` naming the transition, the input (the start, the deal and its
deck, the bids, the trick), what the engine gives, what the encoding gives and the clause.

**Coverage.** Each variant counts every kind of transition it reached (:data:`KINDS`); a zero where the
transition can occur under that variant is a counterexample ("transition X never reached under ruleset/variant");
a kind that cannot occur there is "n/a" with the reason (:func:`not_applicable`). The counts go back with the
check's result (``Result.data["coverage"]``) and ``tarneeb prove`` prints them (and ``--json`` carries them).

**Reductions used to read the encoding quickly** (each proved in Z3 by this stage, as a lemma obligation): the
legal set of a hand is the hand masked by the legal set of the hand with its suits filled up; the trick winner
depends only on the suits and the order of the four cards; a hand is weak iff each of its cards alone is.

:func:`steered_matches` gives the finished matches with their start states (for the tools that check records).
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import z3

from tarneeb.core import match as match_module
from tarneeb.core.actions import ASK, KEEP, PASS, PLAYS, Bid, Deal, NameTrump, Play
from tarneeb.core.cards import card_str, hand_str
from tarneeb.core.match import Match
from tarneeb.core.spec import Option, OptionValue, Rules, Ruleset, load_rules
from tarneeb.errors import ConfigError, IllegalAction

from .encode import SUIT_MASKS, AuctionState, Encoding, Term, holds, suit_of
from .evaluate import Ev
from .obligations import report
from .witness import Witness

MOD = "tarneeb.core.match"
NO_LED = 63  # the encoding's "nothing led yet" (encode.NO_LED)
NO_TRUMP = 4
PASS_CALL = (0, 0)  # the encoding's pass: n = 0
Call = tuple[int, int]  # (tricks, strain) in the encoding's terms: (0, 0) a pass; strain 0 when not Egyptian

# ====================================================================== results


@dataclass
class Counterexample:
    """The engine's match machine disagrees with the encoding (same shape as :class:`tarneeb_proofs.bridge.Mismatch`,
    plus the transition)."""

    transition: str  # e.g. "Match._phase_redeal: the next dealer after bid.total"
    inputs: str
    engine: str
    encoding: str
    clause: str
    fn: str = "Match"
    module: str = MOD

    def witness(self, rules: Rules) -> Witness:
        w = Witness(title=f"the engine's match machine disagrees with the encoding (bounded: a steered match) at "
                          f"{self.transition}")
        w.add("engine function", f"{self.module}.{self.fn}")
        w.add("transition", self.transition)
        w.add("input", self.inputs)
        w.add("engine returns", self.engine)
        w.add("encoding gives", self.encoding)
        w.add("clause", rules.ruleset.cite(self.clause))
        w.clauses = [self.clause]
        return w


class MatchMismatch(Exception):
    """Raised by :func:`steered_matches` when the engine disagrees with the encoding."""

    def __init__(self, cx: Counterexample) -> None:
        super().__init__(f"{cx.transition}: engine {cx.engine}, encoding {cx.encoding} ({cx.inputs})")
        self.cx = cx


class PlanError(Exception):
    """A scenario could not be built for a variant (a defect of this stage, never a pass)."""


class _Bad(Exception):
    def __init__(self, cx: Counterexample) -> None:
        super().__init__(cx.transition)
        self.cx = cx


def cite(rules: Rules, *ids: str) -> str:
    """The first of ``ids`` the ruleset has (rulesets word some rules under different clause ids)."""
    for c in ids:
        if c in rules.ruleset.clauses:
            return c
    return "hand.tricks"


# ====================================================================== kinds of transition


@dataclass(frozen=True)
class Kind:
    id: str  # the column label
    text: str
    clauses: tuple[str, ...]  # the clause cited when it is never reached (the first the ruleset has)


_CAUSES = (("bid.total", "T"), ("auction.all-pass", "A"), ("deal.weak-redeal", "W"))
KINDS: tuple[Kind, ...] = (
    Kind("deal", "deals dealt", ("deal.order",)),
    Kind("played", "hands played to the 13th trick", ("hand.tricks",)),
    Kind("total<", "a deal cancelled: the bids total below the threshold", ("bid.total",)),
    Kind("total=", "a hand played: the bids total exactly the threshold", ("bid.total",)),
    Kind("total>", "a hand played: the bids total above the threshold", ("bid.total",)),
    Kind("total-raised", "a deal cancelled below a raised total that the base total would play", ("bid.total",)),
    Kind("all-pass", "a deal cancelled: all four passed", ("auction.all-pass",)),
    Kind("forced", "the dealer forced to bid after three passes", ("auction.all-pass",)),
    Kind("weak", "a deal cancelled: a seat holds no card above 10", ("deal.weak-redeal",)),
    Kind("weak-ask", "a weak seat asks for a redeal (reading claimed of weak-hand)", ("deal.weak-redeal",)),
    Kind("weak-keep", "every weak seat keeps its hand: the bidding starts (reading claimed)", ("deal.weak-redeal",)),
    *(Kind(f"{k}x{c}", f"{k} cancelled deal(s) in a row, by {cause}", (cause,))
      for cause, c in _CAUSES for k in (1, 2, 3)),
    Kind("2xmix", "2 cancelled deals in a row, by different causes", ("auction.all-pass", "deal.weak-redeal")),
    Kind("3xmix", "3 cancelled deals in a row, by different causes", ("auction.all-pass", "deal.weak-redeal")),
    Kind("made", "a contract made", ("score.standard", "score.bid-only")),
    Kind("failed", "a contract failed", ("score.standard", "score.bid-only")),
    Kind("13made", "a bid of 13 made", ("score.bid13", "score.individual")),
    Kind("13failed", "a bid of 13 failed", ("score.bid13", "score.individual")),
    Kind("kaboot-bid", "the bidding team takes all 13 tricks", ("score.kaboot",)),
    Kind("kaboot-def", "the defenders take all 13 tricks", ("score.kaboot",)),
    Kind("madebid", "the made-bid win", ("win.made-bid",)),
    Kind("madebid-x", "the made-bid number bid and failed (no win)", ("win.made-bid",)),
    Kind("tie-level", "both teams qualify, level (individual: play on; auction: equal scores)", ("tie.both-qualify",)),
    Kind("tie-won", "both teams qualify, not level: decided", ("tie.both-qualify",)),
    Kind("alone", "one team qualifies alone and wins", ("win.qualify", "win.target")),
    Kind("play-on", "a game won before play-on: the target rises", ("win.play-on",)),
    Kind("won-raised", "the match decided at the raised target", ("win.play-on",)),
    Kind("over", "the match over", ("win.target", "win.qualify")),
    Kind("timer", "the turn timer's bid or card asked at a turn", ("timer.auto-play", "timer.auto-bid")),
    Kind("starts", "part-way starts, possible and impossible, tried", ("deal.first-dealer", "seats.partners")),
)
KIND_IDS = tuple(k.id for k in KINDS)
_KIND = {k.id: k for k in KINDS}
_INDIVIDUAL_ONLY = {"total<", "total=", "total>", "total-raised", "madebid", "madebid-x", "1xT", "2xT", "3xT"}
_AUCTION_ONLY = {"all-pass", "forced", "weak", "weak-ask", "weak-keep", "made", "failed", "kaboot-bid", "kaboot-def",
                 "play-on", "won-raised",
                 "1xA", "2xA", "3xA", "1xW", "2xW", "3xW", "2xmix", "3xmix"}


def _causes(rules: Rules) -> list[str]:
    """The causes of a cancelled deal that can occur under ``r`` (from its clauses and resolved options)."""
    cl = rules.ruleset.clauses
    out = []
    if rules.individual and "bid.total" in cl:
        out.append("bid.total")
    if not rules.individual and "auction.all-pass" in cl and rules.all_pass != "dealer-forced":
        out.append("auction.all-pass")
    if not rules.individual and "deal.weak-redeal" in cl and rules.weak_redeal:
        out.append("deal.weak-redeal")
    return out


def not_applicable(kind: str, rules: Rules) -> str | None:
    """Why the transition ``kind`` cannot occur under ``r``, or None when it can (so a zero count fails)."""
    cl = rules.ruleset.clauses
    fam = "individual" if rules.individual else "auction"
    if kind in _INDIVIDUAL_ONLY and not rules.individual:
        return f"the {fam} family has no {_KIND[kind].clauses[0]} clause"
    if kind in _AUCTION_ONLY and rules.individual:
        return f"the {fam} family has no {_KIND[kind].clauses[0]} clause"
    causes = _causes(rules)
    for cause, c in _CAUSES:
        if kind.endswith(f"x{c}") and cause not in causes:
            return _no_cause(rules, cause)
    if kind in ("2xmix", "3xmix") and len(causes) < 2:
        return "fewer than two causes of a cancelled deal under this variant"
    if kind in ("total<", "all-pass", "weak"):
        cause = {"total<": "bid.total", "all-pass": "auction.all-pass", "weak": "deal.weak-redeal"}[kind]
        if cause not in causes:
            return _no_cause(rules, cause)
    if kind == "total-raised" and not any(total > rules.total_min for _, total in rules.total_table):
        return ("the bid total does not rise with the scores (reading fixed of ambiguity raised-total)" if not
                rules.total_table else f"no raised total exceeds the total of {rules.total_min}")
    if kind in ("weak-ask", "weak-keep") and not (rules.weak_redeal and rules.weak_claim == "claimed"):
        return "a weak hand cancels the deal at once (reading automatic-next of weak-hand)" if rules.weak_redeal \
            else "weak_redeal = false (off)"
    if kind == "forced" and rules.all_pass != "dealer-forced":
        return f"all_pass = {rules.all_pass}: all four passing cancels the deal"
    if kind in ("kaboot-bid", "kaboot-def") and "score.kaboot" not in cl:
        return "no score.kaboot clause"
    if kind in ("madebid", "madebid-x") and ("win.made-bid" not in cl or not rules.made_bid_wins):
        return "no win.made-bid clause" if "win.made-bid" not in cl else "made_bid_wins = 0 (off)"
    if kind in ("play-on", "won-raised") and ("win.play-on" not in cl or rules.play_on_raise <= 0):
        return "no win.play-on clause" if "win.play-on" not in cl else "play_on = 0: the first game ends the match"
    if kind in ("won-raised", "over") and rules.play_on_count == "repeated" and rules.play_on_raise > 0:
        return "reading repeated of play-on-count: every game won raises the target again; no game decides the match"
    if kind in ("13made", "13failed") and rules.individual and rules.bid_max < 13:
        return f"bids stop at {rules.bid_max}"
    if kind in ("tie-level", "tie-won") and "tie.both-qualify" not in cl:
        return "no tie.both-qualify clause"
    if kind == "timer" and not ({"timer.auto-play", "timer.auto-bid"} & set(cl)):
        return "no turn timer (no timer.auto-play or timer.auto-bid clause)"
    return None


def _no_cause(rules: Rules, cause: str) -> str:
    if cause not in rules.ruleset.clauses:
        return f"no {cause} clause"
    if cause == "auction.all-pass":
        return "all_pass = dealer-forced: the dealer must bid, no deal is cancelled"
    return "weak_redeal = false (off)"


# ====================================================================== option variants

# options that act together: the stage runs the full product of each group's values (every other option at its
# default in that row; rows are shared between groups where they do not conflict, so every value of every option
# is run, and every combination within a group)
GROUPS: tuple[tuple[str, ...], ...] = (
    ("scoring", "kaboot", "bid13"),
    ("auction", "all_pass", "egyptian", "min_bid"),
    ("bid_total_min", "rising_min_bid", "made_bid_wins"),
    ("direction", "must_trump", "egyptian"),
    ("weak_redeal", "all_pass", "auction"),
    ("target", "play_on"),
    ("trump_source", "made_bid_wins"),
)
PLAY_ON_RAISES = (0, 10)  # the values of an integer option given by a range (play_on): off and a raise


def option_values(o: Option) -> tuple[OptionValue, ...]:
    if o.allowed:
        return tuple(o.allowed)
    if o.range is not None:
        lo, hi = o.range
        return tuple(sorted({max(lo, min(hi, v)) for v in PLAY_ON_RAISES}))
    return (o.default,)


def variants(rs: Ruleset, base: Mapping[str, OptionValue] | None = None) -> list[dict[str, OptionValue]]:
    """The option variants the stage runs for ``rs``: a covering of ``GROUPS`` (each group's full product) and of
    every other option's values, the rest of each row from ``base`` (default: the defaults)."""
    opts = {o.name: o for o in rs.options}
    base_v: dict[str, OptionValue] = {**rs.defaults(), **dict(base or {})}
    groups = [tuple(n for n in g if n in opts) for g in GROUPS]
    grouped = {n for g in groups for n in g}
    groups += [(n,) for n in opts if n not in grouped]
    groups = [g for g in groups if g]
    groups.sort(key=lambda g: -len(list(itertools.product(*[option_values(opts[n]) for n in g]))))
    rows: list[dict[str, OptionValue]] = []
    for g in groups:
        for combo in itertools.product(*[option_values(opts[n]) for n in g]):
            want = dict(zip(g, combo, strict=True))
            for row in rows:
                if all(row.get(k, v) == v for k, v in want.items()):
                    row.update(want)
                    break
            else:
                rows.append(dict(want))
    out: list[dict[str, OptionValue]] = []
    seen: set[tuple[tuple[str, str], ...]] = set()
    for row in rows or [{}]:
        full = {**base_v, **row}
        key = tuple(sorted((k, repr(v)) for k, v in full.items()))
        if key not in seen:
            seen.add(key)
            out.append(full)
    return out


def variant_label(rs: Ruleset, opts: Mapping[str, OptionValue]) -> str:
    """The options that differ from the defaults, ``k=v`` joined by commas, or "default"; then each reading of the
    register the ruleset follows over its own (``;reading ID=READING``, as check ids end)."""
    d = rs.defaults()
    diff = [f"{k}={_fmt(v)}" for k, v in sorted(opts.items()) if d.get(k) != v]
    return (",".join(diff) or "default") + "".join(f";reading {a}={x}" for a, x in sorted(rs.readings.items()))


def _fmt(v: object) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


# ====================================================================== the encoding's values


def _consts(terms: Sequence[Term]) -> set[int]:
    """The ids of the uninterpreted constants (the variables) occurring in ``terms``."""
    seen: set[int] = set()
    out: set[int] = set()
    todo = list(terms)
    while todo:
        t = todo.pop()
        i = t.get_id()
        if i in seen:
            continue
        seen.add(i)
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.add(i)
        elif z3.is_app(t):
            todo.extend(t.children())
    return out


def _packed(bools: Sequence[Term]) -> Term:
    """The Booleans as one bit-vector (bit i = bools[i]): one substitution for all of them."""
    bits = [z3.If(b, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1)) for b in reversed(bools)]
    return bits[0] if len(bits) == 1 else z3.Concat(*bits)


def _fill(hand: int) -> int:
    """The hand with every suit it holds filled up (the legal-set lemma's point)."""
    return sum(m for m in SUIT_MASKS if hand & m)


def _canon(cards: Sequence[int], trump: int) -> tuple[int, ...]:
    """The trick and trump with the suits renamed (the trump suit to spades, the others in order of first appearance)
    and each card's rank replaced by its order among the trick's cards of its suit: the winner lemma's point (the same
    suits equal to each other and to trump, the same order within a suit)."""
    names: dict[int, int] = {}
    if trump < 4:
        names[trump] = 3
    free = iter(s for s in range(4) if s not in names.values())
    for c in cards:
        if c // 13 not in names:
            names[c // 13] = next(free)
    out = list(cards)
    for s, t in names.items():
        idx = sorted((i for i in range(4) if cards[i] // 13 == s), key=lambda i: cards[i])
        for k, i in enumerate(idx):
            out[i] = t * 13 + k
    return (*out, 3 if trump < 4 else trump)


St = tuple[bool, int, int, bool, bool, bool, bool, int, int, int]  # ended, top, holder, active x4, passes, spoken, to_move
_INT_FIELDS = (1, 2, 7, 8, 9)  # the integer fields of St (the others are Booleans)


def _pack_state(fields: Sequence[Term]) -> Term:
    """An auction state (:data:`St` order) as one bit-vector: a bit per Boolean, 16 bits (two's complement) per integer,
    so that the encoding's next state is read with one substitution."""
    parts = [z3.Int2BV(f, 16) if i in _INT_FIELDS else z3.If(f, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1))
             for i, f in enumerate(fields)]
    return z3.Concat(*parts)


def _unpack_state(v: int) -> St:
    out: list[Any] = []
    shift = sum(16 if i in _INT_FIELDS else 1 for i in range(10))
    for i in range(10):
        w = 16 if i in _INT_FIELDS else 1
        shift -= w
        x = v >> shift & ((1 << w) - 1)
        out.append(x - (1 << 16) if w == 16 and x >> 15 else x if w == 16 else bool(x))
    return (out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7], out[8], out[9])


class _Reads:
    """A view of a :class:`Rules` that records the attributes read through it (see :func:`_built`)."""

    def __init__(self, rules: Rules, seen: dict[str, Any]) -> None:
        self._r = rules
        self._seen = seen

    def __getattr__(self, name: str) -> Any:
        v = getattr(self._r, name)
        self._seen["r." + name] = v
        return v


class _SpyEncoding(Encoding):
    """An :class:`Encoding` (a copy of one's state) that records the parameters its builders read (see :func:`_built`)."""

    def __getattribute__(self, name: str) -> Any:
        d = object.__getattribute__(self, "__dict__")
        if name in d and name not in ("r", "_suits", "_seen"):
            v = d[name]
            d["_seen"][name] = v.sexpr() if isinstance(v, z3.ExprRef) else v
        return object.__getattribute__(self, name)


def _spy(enc: Encoding) -> tuple[Encoding, dict[str, Any]]:
    seen: dict[str, Any] = {}
    spy = object.__new__(_SpyEncoding)
    spy.__dict__.update(enc.__dict__)
    spy.__dict__["_seen"] = seen
    spy.__dict__["r"] = _Reads(enc.r, seen)
    return spy, seen


def _param(enc: Encoding, key: str) -> Any:
    if key.startswith("r."):
        return getattr(enc.r, key[2:])
    v = getattr(enc, key)
    return v.sexpr() if isinstance(v, z3.ExprRef) else v


# name -> [(the parameters the build read, with their values; what it built)]
_BUILT: dict[str, list[tuple[tuple[tuple[str, Any], ...], Any]]] = {}


def _built(enc: Encoding, name: str, build: Callable[[Encoding], Any]) -> Any:
    """``build(enc)`` (terms from the encoding's builders), reused for a later configuration that gives every parameter
    the build read (attributes of the Encoding and of its Rules) the same value: the builders are functions of what
    they read, and building the terms costs more than the rest of a variant's run."""
    for reads, out in _BUILT.get(name, []):
        if all(_param(enc, k) == v for k, v in reads):
            return out
    spy, seen = _spy(enc)
    out = build(spy)
    _BUILT.setdefault(name, []).append((tuple(seen.items()), out))
    return out


def _ev(xs: Sequence[Term], outs: Sequence[Term]) -> tuple[list[Term], list[Term]]:
    return list(xs), list(outs)


class Expected:
    """Every value the stage compares with, from the encoding of one configuration (never from the engine)."""

    def __init__(self, enc: Encoding) -> None:
        r = self.r = enc.r
        self.enc = enc
        seat = z3.Int("mx_seat")
        d2, h2 = z3.BitVec("mx_dealer2", 2), z3.BitVec("mx_holder2", 2)
        cs = [z3.BitVec(f"mx_card{i}", 6) for i in range(4)]
        t = z3.BitVec("mx_trump", 6)
        h, led = z3.BitVec("mx_hand", 52), z3.BitVec("mx_led", 6)
        rev, named = z3.BitVec("mx_revealed", 6), z3.BitVec("mx_named", 6)
        g = z3.Int("mx_games")

        def E(name: str, build: Callable[[Encoding], tuple[list[Term], list[Term]]]) -> Ev:
            return Ev(*_built(enc, name, build))

        self._next = E("next", lambda e: _ev([seat], [e.next_seat(seat)]))
        self._redeal = E("redeal", lambda e: _ev([seat], [e.dealer_after_redeal(seat)]))
        self._lead = E("lead", lambda e: _ev([d2, h2], [e.first_leader(d2, h2)]))
        self._winner = E("winner", lambda e: _ev([*cs, t], [e.trick_winner(cs, t)]))
        self._mask = E("mask", lambda e: _ev([h, led, t], [e.legal_mask(h, led, t)]))
        self._weak = E("weak", lambda e: _ev([h], [e.weak_hand(h)]))

        def trump(e: Encoding) -> tuple[list[Term], list[Term]]:
            tr = e.trump_suit(rev, named)
            return _ev([x for x in (rev, named) if x.get_id() in _consts([tr])], [tr])

        self._trump = E("trump", trump)
        self._trump_ok = E("trump_ok", lambda e: _ev([t], [_packed([e.trump_ok(z3.BitVecVal(s, 6)) for s in range(5)])]))
        self._target = E("target", lambda e: _ev([g], [e.target_in_force(g)]))
        self._weak_card = [bool(self._weak(1 << c)[0]) for c in range(52)]
        if r.individual:
            sc = z3.Int("mx_score")
            b = [z3.Int(f"mx_bid{i}") for i in range(4)]
            tk = z3.Int("mx_tricks")
            self._bids = E("bids", lambda e: _ev([sc], [_packed([e.legal_bid(sc, z3.IntVal(x)) for x in range(15)])]))
            s4 = [z3.Int(f"mx_before{i}") for i in range(4)]
            self._played = E("played", lambda e: _ev(b + s4, [e.hand_played(b, s4)]))
            self._total = E("total", lambda e: _ev(s4, [e.total_needed(s4)]))
            self._delta = E("delta", lambda e: _ev([b[0], tk], [e.individual_delta(b[0], tk)]))

            def outcome(e: Encoding) -> tuple[list[Term], list[Term]]:
                e2 = Encoding(e.r, e.mutant)  # the outcome at the target in force: the encoding's target a variable
                target = z3.Int("mx_target")
                e2.target = target
                s = [z3.Int(f"mx_s{i}") for i in range(4)]
                tw = [z3.Int(f"mx_t{i}") for i in range(4)]
                o = e2.individual_outcome(s, b, tw)
                return _ev([*s, *b, *tw, target], [o.winner(), o.clause])

            self._ind_out = E("ind_outcome", outcome)
        else:
            self.calls: list[Call] = [PASS_CALL] + [(n, s) for n in range(1, 15) for s in range(enc.strains())]
            fs = [z3.Bool("mx_ended"), z3.Int("mx_top"), z3.Int("mx_holder"), *[z3.Bool(f"mx_in{j}") for j in range(4)],
                  z3.Int("mx_passes"), z3.Int("mx_spoken"), z3.Int("mx_to_move")]
            st = AuctionState(fs[0], fs[1], fs[2], fs[3:7], fs[7], fs[8], fs[9])
            dealer = z3.Int("mx_adealer")
            n_, s_ = z3.Int("mx_n"), z3.Int("mx_strain")
            calls = self.calls

            def ok(e: Encoding) -> tuple[list[Term], list[Term]]:
                # call_ok with the call symbolic, then at every call of the universe (a substitution of constants)
                one = e.call_ok(st, dealer, n_, s_)
                term = _packed([z3.substitute(one, (n_, z3.IntVal(n)), (s_, z3.IntVal(s))) for n, s in calls])
                return _ev([fs[1], fs[7], fs[9], dealer], [term])  # top, passes, to_move: what call_ok reads

            self._ok = E("call_ok", ok)

            def step(e: Encoding) -> tuple[list[Term], list[Term]]:
                st2 = e.auction_step(st, n_, s_)
                return _ev([*fs, n_, s_], [_pack_state([st2.ended, st2.top, st2.holder, *st2.active, st2.passes,
                                                        st2.spoken, st2.to_move])])

            self._step = E("step", step)

            def start(e: Encoding) -> tuple[list[Term], list[Term]]:
                st0 = e.auction_start(dealer)
                return _ev([dealer], [_pack_state([st0.ended, st0.top, st0.holder, *st0.active, st0.passes,
                                                   st0.spoken, st0.to_move])])

            self._start = E("start", start)
            key = E("key", lambda e: _ev([n_, s_], [e.key(n_, s_)]))
            self.keys = {c: int(key(*c)[0]) for c in self.calls[1:]}
            self._of_key = {v: c for c, v in self.keys.items()}
            n, bt, tt = z3.Int("mx_contract"), z3.Int("mx_bteam"), z3.Int("mx_btricks")
            self._team = E("team_deltas", lambda e: _ev([n, bt, tt], list(e.team_deltas(n, bt, tt))))
            self._b13 = E("bid13", lambda e: _ev([n, tt], [e.bid13_wins(n, tt)]))
            s0, s1, target, b13 = z3.Int("mx_ts0"), z3.Int("mx_ts1"), z3.Int("mx_atarget"), z3.Bool("mx_b13")

            def aout(e: Encoding) -> tuple[list[Term], list[Term]]:
                o = e.auction_outcome([s0, s1], target, bt, b13)
                return _ev([s0, s1, target, bt, b13], [o.winner(), o.clause])

            self._auc_out = E("auc_outcome", aout)

    # ------------------------------------------------------------ seats and deal
    def next(self, s: int) -> int:
        return int(self._next(s)[0])

    def order(self, first: int) -> list[int]:
        """Four seats in the direction of play from ``first``."""
        out = [first]
        for _ in range(3):
            out.append(self.next(out[-1]))
        return out

    def redeal_dealer(self, d: int) -> int:
        return int(self._redeal(d)[0])

    def lead(self, dealer: int, holder: int) -> int:
        return int(self._lead(dealer, max(holder, 0))[0])

    def hands(self, dealer: int, deck: Sequence[int]) -> list[int]:
        """deal.order: card i to the (i mod 4 + 1)-th seat after the dealer in the direction of play (or by the
        packets the encoding deals in: :meth:`Encoding.dealt_to`)."""
        seats = self.order(self.next(dealer))
        out = [0, 0, 0, 0]
        for i, c in enumerate(deck):
            out[seats[self.enc.dealt_to(i)[0]]] |= 1 << c
        return out

    def weak(self, hand: int) -> bool:
        """weak_hand, read card by card (lemma: a hand is weak iff each of its cards alone is)."""
        return all(self._weak_card[c] for c in range(52) if hand >> c & 1)

    def high(self, c: int) -> bool:
        return not self._weak_card[c]

    def trump(self, revealed: int, named: int) -> int:
        vals = {"mx_revealed": revealed, "mx_named": named}
        return int(self._trump(*[vals[str(x)] for x in self._trump.xs])[0])

    def trump_ok(self) -> frozenset[int]:
        bits = int(self._trump_ok(0)[0])
        return frozenset(s for s in range(5) if bits >> s & 1)

    def target(self, games: int) -> int:
        return int(self._target(games)[0])

    # ------------------------------------------------------------ play
    def mask(self, hand: int, led: int, trump: int) -> int:
        """legal_mask, read at the hand with its suits filled up (lemma: the legal set is the hand masked by it)."""
        return hand & int(self._mask(_fill(hand), NO_LED if led < 0 else led, NO_TRUMP if trump < 0 else trump)[0])

    def winner(self, cards: Sequence[int], trump: int) -> int:
        """trick_winner (index in play order), read at the trick's canonical form (lemma: which suits are equal, to
        each other and to trump, and the order within a suit decide)."""
        return int(self._winner(*_canon(cards, NO_TRUMP if trump < 0 else trump))[0])

    # ------------------------------------------------------------ individual bids
    def timer_bid(self) -> int | None:
        """timer.auto-bid: the bid the turn timer declares (None: the ruleset has no timer)."""
        return self.r.auto_bid if "timer.auto-bid" in self.r.ruleset.clauses and self.r.auto_bid else None

    def timer_card(self, legal: int, trump: int) -> int | None:
        """timer.auto-play, read as the ambiguity weakest-card's reading the option names: the lowest rank among the
        legal cards (lowest-non-trump: among those outside trump, when there is one), equal ranks in the order
        clubs, diamonds, hearts, spades. None: the ruleset has no timer."""
        if "timer.auto-play" not in self.r.ruleset.clauses or not self.r.auto_play:
            return None
        pool = legal
        if self.r.auto_play == "lowest-non-trump" and 0 <= trump < 4 and legal & ~SUIT_MASKS[trump]:
            pool = legal & ~SUIT_MASKS[trump]
        return next(13 * suit + rank for rank in range(13) for suit in range(4) if pool >> (13 * suit + rank) & 1)

    def legal_bids(self, score: int) -> frozenset[int]:
        bits = int(self._bids(score)[0])
        return frozenset(b for b in range(15) if bits >> b & 1)

    def played(self, bids: Sequence[int], scores: Sequence[int]) -> bool:
        """bid.total: whether a deal played on ``scores`` with ``bids`` is played."""
        return bool(self._played(*bids, *scores)[0])

    def total(self, scores: Sequence[int]) -> int:
        """bid.total: the threshold of a deal played on ``scores`` (raised-total: it may rise with them)."""
        return int(self._total(*scores)[0])

    def delta(self, bid: int, tricks: int) -> int:
        return int(self._delta(bid, tricks)[0])

    def ind_outcome(self, scores: Sequence[int], bids: Sequence[int], tricks: Sequence[int],
                    target: int) -> tuple[int | None, str]:
        w, c = self._ind_out(*scores, *bids, *tricks, target)
        return (None if w < 0 else int(w)), str(c)

    # ------------------------------------------------------------ auction
    def start(self, dealer: int) -> St:
        return _unpack_state(int(self._start(dealer)[0]))

    def legal_calls(self, st: St, dealer: int) -> frozenset[Call]:
        """call_ok for every call, read at the fields of the state it reads (the result would not reduce to a
        value, and :func:`tarneeb_proofs.evaluate.py_value` would refuse it, if it read another one)."""
        bits = int(self._ok(st[1], st[7], st[9], dealer)[0])
        return frozenset(c for i, c in enumerate(self.calls) if bits >> i & 1)

    def step(self, st: St, call: Call) -> St:
        return _unpack_state(int(self._step(*st, *call)[0]))

    def decode(self, top: int) -> Call:
        return self._of_key[top]

    def team_deltas(self, n: int, bt: int, tt: int) -> tuple[int, int]:
        d0, d1 = self._team(n, bt, tt)
        return int(d0), int(d1)

    def bid13(self, n: int, tt: int) -> bool:
        return bool(self._b13(n, tt)[0])

    def auc_outcome(self, s0: int, s1: int, target: int, bt: int, b13: bool) -> tuple[int | None, str]:
        w, c = self._auc_out(s0, s1, target, bt, b13)
        return (None if w < 0 else int(w)), str(c)


def lemmas(enc: Encoding) -> list[tuple[str, list[Term], Term]]:
    """The three reductions :class:`Expected` reads the encoding through, as Z3 obligations (hypotheses, claim)."""
    h, led, t = z3.BitVec("ml_hand", 52), z3.BitVec("ml_led", 6), z3.BitVec("ml_trump", 6)
    fill = z3.BitVecVal(0, 52)
    for m in SUIT_MASKS:
        fill = fill | z3.If((h & m) != 0, z3.BitVecVal(m, 52), z3.BitVecVal(0, 52))
    out: list[tuple[str, list[Term], Term]] = [
        ("match stage: the encoding's legal set of a hand is the hand masked by the legal set of the hand with its "
         "suits filled up", [], enc.legal_mask(h, led, t) == (h & enc.legal_mask(fill, led, t)))]
    a = [z3.BitVec(f"ml_a{i}", 6) for i in range(4)]
    b = [z3.BitVec(f"ml_b{i}", 6) for i in range(4)]
    ta, tb = z3.BitVec("ml_ta", 6), z3.BitVec("ml_tb", 6)
    sa, sb = [suit_of(x) for x in a], [suit_of(x) for x in b]
    hyp = [z3.ULT(x, 52) for x in a + b] + [z3.Distinct(*a), z3.Distinct(*b), z3.ULE(ta, 4), z3.ULE(tb, 4)]
    hyp += [(sa[i] == ta) == (sb[i] == tb) for i in range(4)]
    hyp += [(sa[i] == sa[j]) == (sb[i] == sb[j]) for i in range(4) for j in range(i + 1, 4)]
    hyp += [z3.Implies(sa[i] == sa[j], z3.ULT(a[i], a[j]) == z3.ULT(b[i], b[j]))
            for i in range(4) for j in range(4) if i != j]
    out.append(("match stage: the encoding's trick winner depends only on which cards' suits are equal, to each other "
                "and to trump, and on the order of cards of one suit", hyp,
                enc.trick_winner(a, ta) == enc.trick_winner(b, tb)))
    each = z3.And([z3.Implies(holds(h, z3.BitVecVal(c, 6)), enc.weak_hand(z3.BitVecVal(1 << c, 52)))
                   for c in range(52)])
    out.append(("match stage: the encoding's weak hand is a hand each of whose cards alone is weak", [],
                enc.weak_hand(h) == each))
    return out


def lemmas_of(enc: Encoding) -> list[tuple[str, list[Term], Term]]:
    """:func:`lemmas`, built once per distinct configuration of what they read (:func:`_built`)."""
    out: list[tuple[str, list[Term], Term]] = _built(enc, "lemmas", lemmas)
    return out


# ====================================================================== steering: decks, bids, calls, plays


def top_of(suit: int, k: int, skip: int = 0) -> list[int]:
    """The ``k`` highest cards of ``suit``, below its ``skip`` highest."""
    return [suit * 13 + 12 - skip - i for i in range(k)]


def low_of(suit: int, k: int, skip: int = 0) -> list[int]:
    """The ``k`` lowest cards of ``suit``, above its ``skip`` lowest."""
    return [suit * 13 + skip + i for i in range(k)]


def beats(c: int, best: int, trump: int) -> bool:
    """Steering heuristic (never compared with anything): does ``c`` top ``best`` in a trick with ``trump``."""
    if c // 13 == best // 13:
        return c > best
    return c // 13 == trump


_FULL = (1 << 52) - 1


def _played_mask(hands: Sequence[int]) -> int:
    """The cards no seat holds any more (played)."""
    return _FULL & ~(hands[0] | hands[1] | hands[2] | hands[3])


def _cards(mask: int) -> list[int]:
    """The cards of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Goal(NamedTuple):
    seats: frozenset[int]
    tricks: int  # the tricks these seats (together) must take, counted from the start of the hand


class Chooser:
    """Plays on purpose: the first goal not yet met names the seats that must win the trick; they play to win it
    (and to keep it from a later opponent), the others keep out of their way and lead into their strength. With no
    goal left, a card at random (seeded), so the legal sets met vary."""

    def __init__(self, goals: Sequence[Goal], rng: random.Random) -> None:
        self.goals = list(goals)
        self.rng = rng
        self.won = [0, 0, 0, 0]

    def current(self) -> frozenset[int] | None:
        for g in self.goals:
            if sum(self.won[s] for s in g.seats) < g.tricks:
                return g.seats
        return None

    def choose(self, ex: Expected, seat: int, legal: int, trick: Sequence[int], seats: Sequence[int],
               hands: Sequence[int], trump: int) -> int:
        cards = _cards(legal)
        g = self.current()
        if g is None:
            return self.rng.choice(cards)

        def low(cs: Iterable[int]) -> int:
            return min(cs, key=lambda c: (c // 13 == trump, c % 13, c))

        later = ex.order(seat)[1:4 - len(trick)]
        led = trick[0] // 13 if trick else -1

        def can_beat(y: int, best: int) -> bool:
            lm = ex.mask(hands[y], led if trick else best // 13, trump)
            s = best // 13
            if lm & SUIT_MASKS[s] & ~((2 << best) - 1):
                return True
            return s != trump and 0 <= trump < 4 and bool(lm & SUIT_MASKS[trump])

        if not trick:
            if seat in g:
                safe = [c for c in cards if not any(can_beat(y, c) for y in later if y not in g)]
                return max(safe or cards, key=lambda c: (c // 13 == trump, c % 13))
            into = [c for c in cards if any(can_beat(y, c) for y in later if y in g)]
            return low(into or cards)
        best_i = 0
        for i in range(1, len(trick)):
            if beats(trick[i], trick[best_i], trump):
                best_i = i
        best, best_seat = trick[best_i], seats[best_i]
        over = [c for c in cards if beats(c, best, trump)]
        under = [c for c in cards if not beats(c, best, trump)]
        if seat in g:
            if best_seat in g and not any(can_beat(y, best) for y in later if y not in g):
                return low(under or cards)
            safe = [c for c in over if not any(can_beat(y, c) for y in later if y not in g)]
            if safe or over:
                return min(safe or over, key=lambda c: (c // 13 == trump, c % 13))
            return low(cards)
        return low(under or cards)


class Design(NamedTuple):
    """One deal as built: the deck, how the seats bid or call, the suit named, how they play."""

    deck: tuple[int, ...]
    bids: tuple[int, ...] = ()  # individual: the bids in bidding order
    calls: Callable[[St, frozenset[Call]], Call] | None = None  # auction: the call for the seat to speak
    named: int = 0  # the trump the contract holder names (contract source, not Egyptian)
    goals: tuple[Goal, ...] = ()
    note: str = ""
    asks: tuple[bool, ...] = ()  # reading claimed of weak-hand: each weak seat in turn asks (True) or keeps (False)


class Plan:
    """Builds decks and bids for one configuration (reads the encoding only: planning, not checking)."""

    def __init__(self, ex: Expected, rng: random.Random) -> None:
        self.ex = ex
        self.r = ex.r
        self.rng = rng

    def trump_of(self, revealed: int, named: int = 0) -> int:
        return self.ex.trump(revealed, named)

    def fixed_trump(self) -> int | None:
        """The trump when no card or contract chooses it, else None."""
        if self.r.trump_source == "fixed":
            return self.trump_of(0)
        return None

    def pick_trump(self, avoid: Iterable[int] = ()) -> int:
        t = self.fixed_trump()
        if t is not None:
            return t
        return self.rng.choice([s for s in range(4) if s not in set(avoid)])

    def deck(self, dealer: int, fixed: Mapping[int, Iterable[int]] | None = None, weak: Iterable[int] = (),
             trump: int | None = None) -> tuple[int, ...]:
        """A deck dealing each seat the cards ``fixed`` gives it, no card above 10 to the ``weak`` seats, at least
        one to every other seat (where the weak-hand rule is on), and, where the dealer's last card shows trump,
        one showing ``trump``."""
        ex, rng = self.ex, self.rng
        hands: dict[int, list[int]] = {s: sorted(set((fixed or {}).get(s, ()))) for s in range(4)}
        taken = {c for h in hands.values() for c in h}
        if len(taken) != sum(len(h) for h in hands.values()) or any(len(h) > 13 for h in hands.values()):
            raise PlanError(f"overlapping or oversized hands {hands}")
        weak_s = set(weak)
        free = [c for c in range(52) if c not in taken]
        rng.shuffle(free)
        revealed: int | None = None
        shows = self.r.trump_source not in ("fixed", "contract")
        if shows and trump is not None:
            mine = [c for c in hands[dealer] if self.trump_of(c) == trump]
            if mine:
                revealed = mine[0]
            else:
                pool = [c for c in free if self.trump_of(c) == trump and (dealer not in weak_s or not ex.high(c))]
                if not pool or len(hands[dealer]) >= 13:
                    raise PlanError(f"no card left for the dealer to show trump {trump}")
                revealed = pool[0]
                free.remove(revealed)
                hands[dealer].append(revealed)
        for s in sorted(weak_s):
            if any(ex.high(c) for c in hands[s]):
                raise PlanError(f"seat {s} must be weak but is given a high card")
            lows = [c for c in free if not ex.high(c)][:13 - len(hands[s])]
            if len(lows) < 13 - len(hands[s]):
                raise PlanError("not enough low cards for the weak seats")
            for c in lows:
                free.remove(c)
            hands[s] += lows
        if self.r.weak_redeal:
            for s in range(4):
                if s not in weak_s and len(hands[s]) < 13 and not any(ex.high(c) for c in hands[s]):
                    c = next(c for c in free if ex.high(c))
                    free.remove(c)
                    hands[s].append(c)
        for s in range(4):
            while len(hands[s]) < 13:
                hands[s].append(free.pop())
        if self.r.weak_redeal:
            for s in range(4):
                if s not in weak_s and not any(ex.high(c) for c in hands[s]):
                    raise PlanError(f"seat {s} would be weak by accident")
        if revealed is None:
            revealed = hands[dealer][-1]
        deal = ex.order(ex.next(dealer))
        rest = [c for c in hands[dealer] if c != revealed]
        rng.shuffle(rest)
        hands[dealer] = [*rest, revealed]  # the dealer's last card is the 52nd dealt (deal.order)
        for s in range(4):
            if s != dealer:
                rng.shuffle(hands[s])
        deck = [0] * 52
        place = {ex.enc.dealt_to(i): i for i in range(52)}  # (k, j) -> the deck's place (deal.order)
        for p, s in enumerate(deal):
            for j, c in enumerate(hands[s]):
                deck[place[(p, j)]] = c
        if shows and trump is not None and self.trump_of(deck[51]) != trump:
            raise PlanError("the dealer's last card does not show the trump wanted")
        return tuple(deck)

    # ------------------------------------------------------------ individual bids
    def bids(self, dealer: int, scores: Sequence[int], want: Mapping[int, int] | None = None,
             total: int | None = None, first3: int | None = None, high_first: Iterable[int] = ()) -> tuple[int, ...]:
        """Legal bids in bidding order (seats after the dealer first): ``want`` fixes some seats' bids, ``total``
        the sum, ``first3`` the sum of the first three; the other seats bid low (``high_first``: high)."""
        order = self.ex.order(self.ex.next(dealer))
        legal = [sorted(b for b in self.ex.legal_bids(scores[s]) if b > 0) for s in order]
        want = dict(want or {})
        hi = set(high_first)
        opts = []
        for i, s in enumerate(order):
            if s in want:
                if want[s] not in legal[i]:
                    raise PlanError(f"bid {want[s]} is not legal for seat {s} at score {scores[s]}")
                opts.append([want[s]])
            else:
                opts.append(list(reversed(legal[i])) if s in hi else legal[i])
        lo_sum = [sum(min(o) for o in opts[i:]) for i in range(5)]
        hi_sum = [sum(max(o) for o in opts[i:]) for i in range(5)]

        def dfs(i: int, acc: int, got: list[int]) -> list[int] | None:
            if i == 4:
                return got if total is None or acc == total else None
            if i == 3 and first3 is not None and acc != first3:
                return None
            for b in opts[i]:
                a = acc + b
                if total is not None and not lo_sum[i + 1] <= total - a <= hi_sum[i + 1]:
                    continue
                if i < 3 and first3 is not None:
                    rest3 = first3 - a
                    if not sum(min(o) for o in opts[i + 1:3]) <= rest3 <= sum(max(o) for o in opts[i + 1:3]):
                        continue
                res = dfs(i + 1, a, [*got, b])
                if res is not None:
                    return res
            return None

        got = dfs(0, 0, [])
        if got is None:
            raise PlanError(f"no legal bids for scores {list(scores)} with total {total}, first three {first3}, "
                            f"fixed {want}")
        return tuple(got)

    # ------------------------------------------------------------ auction scripts
    def script(self, dealer: int, holder: int | None, final: Call | None, warm: Iterable[int] = (),
               match: bool = False) -> Callable[[St, frozenset[Call]], Call]:
        """Calls that end in ``final`` by ``holder`` (None: everyone passes; a forced dealer bids the lowest): the
        ``warm`` seats first bid the lowest legal bid below it, with ``match`` the seat before the dealer bids it and
        the dealer (the holder) matches."""
        ex = self.ex
        keys = ex.keys
        fk = keys[final] if final is not None else -1
        warmed: set[int] = set()
        warm_s = set(warm)
        before_dealer = ex.order(ex.next(dealer))[2]

        def policy(st: St, legal: frozenset[Call]) -> Call:
            seat, top, held = st[9], st[1], st[2]
            bids = sorted((c for c in legal if c != PASS_CALL), key=lambda c: keys[c])
            if final is not None:
                if seat == holder and final in legal and (top < fk or held != holder):
                    return final
                if match and seat == before_dealer and seat != holder and final in legal and top < fk:
                    return final
                if seat in warm_s and seat not in warmed and seat != holder and bids and keys[bids[0]] < fk:
                    warmed.add(seat)
                    return bids[0]
            if PASS_CALL in legal:
                return PASS_CALL
            return bids[0]

        return policy


# ====================================================================== scenarios


class Start(NamedTuple):
    """Where a steered match starts: ``Match.at(rules, dealer, scores, target, games)``."""

    dealer: int
    scores: tuple[int, int, int, int]
    target: int | None = None
    games: tuple[int, ...] | None = None


DesignFn = Callable[["Driver"], Design]


@dataclass
class Scenario:
    name: str
    start: Start
    deals: list[tuple[str, DesignFn]]  # (what the deal is for, its design)


def _ind_scenarios(rules: Rules, ex: Expected) -> list[Scenario]:
    T = rules.target

    def value(b: int) -> int:
        return ex.delta(b, 13)

    def cancel(i: int) -> DesignFn:
        def f(d: Driver) -> Design:
            p = d.plan
            mins = sum(min(b for b in ex.legal_bids(d.x.scores[s]) if b > 0) for s in range(4))
            want = max(mins, ex.total(d.x.scores) - 1 - i % 2)
            return Design(p.deck(d.x.dealer), p.bids(d.x.dealer, d.x.scores, total=want,
                                                     high_first=[ex.order(d.x.dealer)[i % 4]]),
                          note=f"bids total {want}")
        return f

    def at_threshold(d: Driver) -> Design:
        p = d.plan
        last = d.x.dealer
        lo = min(b for b in ex.legal_bids(d.x.scores[last]) if b > 0)
        return Design(p.deck(last), p.bids(last, d.x.scores, want={last: lo}, total=ex.total(d.x.scores)),
                      note="bids total the threshold")

    def all_trumps(d: Driver) -> tuple[int, int, tuple[int, ...]]:
        """(seat, trump, deck): a seat holding all 13 trumps, the first bidder, or the dealer where the dealer's
        last card shows trump in its own suit."""
        p = d.plan
        t = p.pick_trump()
        for x in (ex.next(d.x.dealer), d.x.dealer):
            try:
                return x, t, p.deck(d.x.dealer, {x: top_of(t, 13)}, trump=t)
            except PlanError:
                continue
        raise PlanError("no seat can hold every trump")

    def made13(d: Driver) -> Design:
        x, t, deck = all_trumps(d)
        return Design(deck, d.plan.bids(d.x.dealer, d.x.scores, want={x: 13}),
                      goals=(Goal(frozenset([x]), 13),), note=f"seat {x} bids 13 holding every trump")

    def failed13(d: Driver) -> Design:
        p = d.plan
        x, first = d.x.dealer, ex.next(d.x.dealer)
        t = p.pick_trump()
        deck = p.deck(d.x.dealer, {first: top_of(t, 1)}, trump=t)
        return Design(deck, p.bids(d.x.dealer, d.x.scores, want={x: 13}, first3=ex.total(d.x.scores) - 1),
                      goals=(Goal(frozenset([first]), 1),), note=f"seat {x} bids 13, seat {first} holds the top trump")

    def made_bid(unmade: bool) -> DesignFn:
        def f(d: Driver) -> Design:
            p = d.plan
            if unmade:
                x = ex.next(d.x.dealer)
                t = p.pick_trump()
                others = ex.order(ex.next(x))[:3]
                deck = p.deck(d.x.dealer, {others[0]: top_of(t, 2), others[1]: top_of(t, 1, 2),
                                           others[2]: top_of(t, 1, 3)}, trump=t)
            else:
                x, t, deck = all_trumps(d)
            return Design(deck, p.bids(d.x.dealer, d.x.scores, want={x: rules.made_bid_wins}),
                          goals=() if unmade else (Goal(frozenset([x]), 13),),
                          note=f"seat {x} bids {rules.made_bid_wins}" + (", the top four trumps elsewhere" if unmade else
                                                                        " holding every trump"))
        return f

    def tie(b0: int, b1: int) -> DesignFn:
        """Seats 0 and 1 make b0 and b1 (seat 1 with the top five of a side suit, seat 0 with the top five trumps);
        seats 2 and 3 bid more than the tricks left and fail."""
        def f(d: Driver) -> Design:
            p = d.plan
            t = p.pick_trump()
            s1, s2, s3 = [s for s in range(4) if s != t][:3] if p.rng.random() < 0.5 else \
                [s for s in range(4) if s != t][::-1][:3]
            fixed = {1: top_of(s1, 5) + low_of(s2, 4) + low_of(s3, 4),
                     0: top_of(t, 5) + low_of(s2, 4, 4) + low_of(s3, 4, 4)}
            deck = p.deck(d.x.dealer, fixed, trump=t)
            sc = d.x.scores
            fail = [min(b for b in ex.legal_bids(sc[s]) if b > 13 - b0 - b1) for s in (2, 3)]
            return Design(deck, p.bids(d.x.dealer, sc, want={0: b0, 1: b1, 2: fail[0], 3: fail[1]}),
                          goals=(Goal(frozenset([1]), b1), Goal(frozenset([0]), b0)),
                          note=f"seats 0 and 1 make {b0} and {b1}, seats 2 and 3 fail {fail}")
        return f

    def alone(d: Driver) -> Design:
        p = d.plan
        t = p.pick_trump()
        sc = d.x.scores
        b0 = min(b for b in ex.legal_bids(sc[0]) if b > 0)
        return Design(p.deck(d.x.dealer, {0: top_of(t, 4)}, trump=t),
                      p.bids(d.x.dealer, sc, want={0: b0, 1: 13, 3: 13}), goals=(Goal(frozenset([0]), b0),),
                      note=f"seat 0 makes {b0}, seats 1 and 3 fail 13")

    v4 = value(4)
    out = [
        Scenario("three deals in a row cancelled by the bid total", Start(0, (0, 0, 0, 0)),
                 [("cancel", cancel(0)), ("cancel", cancel(1)), ("cancel", cancel(2))]),
        Scenario("a cancelled deal, then a bid of 13 made", Start(1, (10, 0, 5, 0)),
                 [("cancel", cancel(3)), ("13 made", made13)]),
        Scenario("two cancelled deals, then a bid of 13 failed", Start(3, (0, 12, 0, 7), T),
                 [("cancel", cancel(1)), ("cancel", cancel(0)), ("13 failed", failed13)]),
        Scenario("the bids total exactly the threshold", Start(2, (3, 4, 5, 6)), [("at the threshold", at_threshold)]),
        Scenario("both teams qualify, level, then not level", Start(2, (T - v4, T - v4, T - 1, T - 1)),
                 [("level tie", tie(4, 4)), ("tie for team 1", tie(4, 5))]),
        Scenario("both teams qualify, team 0 ahead", Start(3, (T - v4, T - v4, T - 1, T - 1)),
                 [("tie for team 0", tie(5, 4))]),
        Scenario("team 0 qualifies alone", Start(3, (T - 2, 30, 29, 40)), [("alone", alone)]),
    ]
    for threshold, raised in rules.total_table:  # raised-total, reading rising: the total in force once a seat has threshold
        if raised > rules.total_min:
                out.append(Scenario(f"a raised total of {raised} from a score of {threshold}",
                                Start(1, (threshold, 2, 0, 3)),
                                [("below the raised total", cancel(0)), ("at the raised total", at_threshold)]))
    if rules.made_bid_wins:
        out.append(Scenario("the made-bid number failed, then made", Start(0, (20, 25, 0, 5)),
                            [("made-bid failed", made_bid(True)), ("made-bid win", made_bid(False))]))
    return out


def _auc_scenarios(rules: Rules, ex: Expected) -> list[Scenario]:
    T = rules.target
    lo = rules.min_bid
    strains = ex.enc.strains()

    def call(n: int, s: int) -> Call:
        return (n, s if strains > 1 else 0)

    def team_seats(team: int) -> frozenset[int]:
        return frozenset([team, team + 2])

    def all_pass(d: Driver) -> Design:
        return Design(d.plan.deck(d.x.dealer), calls=d.plan.script(d.x.dealer, None, None), note="all four pass")

    def weak(i: int) -> DesignFn:
        def f(d: Driver) -> Design:
            ws = [(d.x.dealer + i) % 4] + ([(d.x.dealer + i + 2) % 4] if i % 3 == 2 else [])
            # reading claimed of weak-hand: the deal is cancelled all the same, the first weak seat asking or, where
            # two are weak, every other design, the first keeping its hand and the second asking
            asks = (False, True) if len(ws) == 2 and i % 6 == 2 else (True,)
            return Design(d.plan.deck(d.x.dealer, weak=ws), calls=d.plan.script(d.x.dealer, None, None),
                          note=f"seat(s) {ws} hold no card above 10", asks=asks)
        return f

    def weak_kept(k: int) -> DesignFn:
        """Reading claimed of weak-hand: every weak seat keeps its hand (the k-th after the dealer; two when k is
        2), so the bidding starts; then all four pass."""
        def f(d: Driver) -> Design:
            ws = [(d.x.dealer + k) % 4] + ([(d.x.dealer + k + 2) % 4] if k == 2 else [])
            return Design(d.plan.deck(d.x.dealer, weak=ws), calls=d.plan.script(d.x.dealer, None, None),
                          note=f"seat(s) {ws} hold no card above 10 and keep their hands", asks=(False, False))
        return f

    def kaboot_bidders(d: Driver) -> Design:
        p, dl = d.plan, d.x.dealer
        x = dl
        nt = strains > 1  # Egyptian: a no-trump contract
        t = p.pick_trump()
        if nt:
            top = [c for s in range(4) for c in top_of(s, 3)] + top_of(t, 1, 3)
            fixed, final, named = {x: top}, call(lo, NO_TRUMP), 0
        else:
            fixed, final, named = {x: top_of(t, 13)}, call(lo if rules.auction_style != "continuous" else lo + 1, t), t
        match = rules.auction_style == "dealer-privilege"
        warm = [] if match else [ex.next(dl)]
        return Design(p.deck(dl, fixed), calls=p.script(dl, x, final, warm=warm, match=match), named=named,
                      goals=(Goal(team_seats(x % 2), 13),),
                      note=f"the dealer {x} " + ("matches and " if match else "") + "holds " +
                           ("the 13 top cards (no trump)" if nt else "every trump"))

    def kaboot_defenders(d: Driver) -> Design:
        p, dl = d.plan, d.x.dealer
        x = ex.next(dl)
        dfd = ex.next(x)
        t = p.pick_trump()
        return Design(p.deck(dl, {dfd: top_of(t, 13)}), calls=p.script(dl, x, call(lo, t)), named=t,
                      goals=(Goal(team_seats(dfd % 2), 13),), note=f"seat {x} bids {lo}, defender {dfd} holds every trump")

    def made13(d: Driver) -> Design:
        p, dl = d.plan, d.x.dealer
        order = ex.order(ex.next(dl))
        x = order[1]
        partner = ex.next(ex.next(x))
        t = p.pick_trump()
        side = [s for s in range(4) if s != t]
        fixed = {x: top_of(t, 12, 1) + top_of(side[0], 1), partner: top_of(t, 1)}
        return Design(p.deck(dl, fixed), calls=p.script(dl, x, call(13, t), warm=[order[0]]), named=t,
                      goals=(Goal(team_seats(x % 2), 13),), note=f"seat {x} bids 13, its partner holds the top trump")

    def failed13(d: Driver) -> Design:
        p, dl = d.plan, d.x.dealer
        order = ex.order(ex.next(dl))
        x = order[2]
        dfd = ex.next(x)
        t = p.pick_trump()
        return Design(p.deck(dl, {dfd: top_of(t, 1)}), calls=p.script(dl, x, call(13, t), warm=order[:2]), named=t,
                      goals=(Goal(team_seats(dfd % 2), 1),), note=f"seat {x} bids 13, defender {dfd} holds the top trump")

    def made(team: int, all13: bool = False) -> DesignFn:
        def f(d: Driver) -> Design:
            p, dl = d.plan, d.x.dealer
            x = next(s for s in ex.order(ex.next(dl)) if s % 2 == team)
            t = p.pick_trump()
            k = 13 if all13 else lo
            return Design(p.deck(dl, {x: top_of(t, k)}), calls=p.script(dl, x, call(lo, t)), named=t,
                          goals=(Goal(team_seats(team), k),), note=f"seat {x} bids {lo} holding the top {k} trumps")
        return f

    def forced(d: Driver) -> Design:
        return Design(d.plan.deck(d.x.dealer), calls=d.plan.script(d.x.dealer, None, None),
                      note="three pass, the dealer must bid")

    gain13 = ex.team_deltas(lo, 0, 13)[0]
    played: list[Scenario] = [
        Scenario("kaboot for the bidding team", Start(0, (0, 0, 0, 0)), [("kaboot, bidders", kaboot_bidders)]),
        Scenario("kaboot for the defenders", Start(1, (5, 3, 5, 3)), [("kaboot, defenders", kaboot_defenders)]),
        Scenario("a contract of 13 made", Start(2, (10, 20, 10, 20)), [("13 made", made13)]),
        Scenario("a contract of 13 failed", Start(3, (0, 10, 0, 10)), [("13 failed", failed13)]),
        Scenario("team 0 reaches the target", Start(0, (T - 1, 5, T - 1, 5), T),
                 [("to the target", made(0)), ("to the raised target", made(0))]),
        Scenario("both teams at the target, level (part-way start)",
                 Start(1, (T + 1 - gain13, T + 1, T + 1 - gain13, T + 1)), [("level at the target", made(0, True))]),
        Scenario("both teams at the target, the defenders higher (part-way start)",
                 Start(2, (T - 1, T + 20, T - 1, T + 20)), [("both at the target", made(0))]),
    ]
    if rules.play_on_raise > 0:
        raised = ex.target(1)
        played.append(Scenario("part-way at the raised target", Start(1, (10, raised - 1, 10, raised - 1), raised, (0,)),
                               [("at the raised target", made(1))]))
    if rules.all_pass == "dealer-forced":
        played.append(Scenario("the dealer forced to bid", Start(3, (0, 0, 0, 0)), [("forced", forced)]))
    extra: list[Scenario] = []
    if rules.weak_redeal and rules.weak_claim == "claimed":
        extra.append(Scenario("weak seats keep their hands (reading claimed of weak-hand)", Start(2, (0, 0, 0, 0)),
                              [("one weak seat keeps", weak_kept(1)), ("two weak seats keep", weak_kept(2))]))
    causes = _causes(rules)
    pats: list[str] = []
    if "auction.all-pass" in causes:
        pats += ["A", "AA", "AAA"]
    if "deal.weak-redeal" in causes:
        pats += ["W", "WW", "WWW"]
    if len(causes) > 1:
        pats += ["AW", "WAW"]
    n_weak = itertools.count()

    def prefix(pat: str) -> list[tuple[str, DesignFn]]:
        return [("all pass", all_pass) if c == "A" else ("weak hand", weak(next(n_weak))) for c in pat]

    for sc, pat in zip(played, pats, strict=False):
        sc.deals = prefix(pat) + sc.deals
        sc.name = f"{len(pat)} cancelled, then {sc.name}"
    out = list(played)
    for k, pat in enumerate(pats[len(played):]):
        out.append(Scenario(f"{len(pat)} deals cancelled in a row ({pat})", Start(k % 4, (0, 0, 0, 0)), prefix(pat)))
    return out + extra


def scenarios(rules: Rules, ex: Expected) -> list[Scenario]:
    """The steered scenarios for one configuration (see the module docstring)."""
    return _ind_scenarios(rules, ex) if rules.individual else _auc_scenarios(rules, ex)


# ====================================================================== the driver


@dataclass
class _X:
    """The expected state of the match, from the encoding alone."""

    dealer: int
    scores: list[int]
    target: int
    games: int
    decided: bool = False
    winner: int | None = None
    decided_by: str = ""  # the clause that decided the match (the outcome's)
    after: str = "start"  # what led to the deal awaited: start, played, or a cancellation's clause
    played: int = 0  # deals played in this match so far
    cancelled: int = 0  # deals cancelled so far


def _text_cards(cards: Iterable[int]) -> str:
    return " ".join(card_str(c) for c in cards)


def _trick_text(k: int, leader: int, cards: Sequence[int]) -> str:
    return f"{k + 1} led by seat {leader}: {_text_cards(cards) or 'nothing played yet'}"


def _hand_text(seat: int, hand: int) -> str:
    return f"seat {seat} holds [{hand_str(hand)}]"


class Driver:
    """Runs scenarios on the engine, comparing every step with the encoding (:class:`Expected`)."""

    def __init__(self, rules: Rules, ex: Expected, label: str, seed: int = 0) -> None:
        self.r, self.ex, self.label, self.seed = rules, ex, label, seed
        self.cov: Counter[str] = Counter()
        self.points = 0
        self.ctx: dict[str, str | Callable[[], str]] = {}
        self.run_causes: list[str] = []

    # ------------------------------------------------------------ comparisons
    def where(self) -> str:
        parts = []
        for k, v in self.ctx.items():
            text = v() if callable(v) else v  # the play's context is worded only for a counterexample
            if text:
                parts.append(f"{k} {text}" if k else text)
        return "; ".join(parts)

    def bad(self, transition: str, engine: Any, expected: Any, clause: str) -> _Bad:
        return _Bad(Counterexample(transition, self.where(), _show(engine), _show(expected), cite(self.r, clause)))

    def same(self, transition: str, engine: Any, expected: Any, clause: str) -> None:
        self.points += 1
        if engine != expected:
            raise self.bad(transition, engine, expected, clause)

    def accept(self, m: Match, action: Any, transition: str, clause: str,
               via: Callable[[Any], None] | None = None) -> None:
        """The engine must accept ``action`` (legal by the encoding), through ``via`` if given (as in refuse)."""
        try:
            (via or m.apply)(action)
        except Exception as e:  # noqa: BLE001 - any refusal or crash of the engine is the counterexample
            raise self.bad(transition, f"refuses {action}: {type(e).__name__}: {e}", f"{action} is legal",
                           clause) from None

    def refuse(self, m: Match, action: Any, transition: str, clause: str,
               via: Callable[[Any], None] | None = None) -> None:
        """The engine must refuse ``action`` (illegal by the encoding), citing ``clause`` (the clause the action
        breaks, by the encoding and the spec's clauses), and stay as it was; ``via``: the entry point that takes it
        (``Match.apply`` unless given, e.g. ``lambda a: m.play_card(a.card)``)."""
        self.points += 1
        try:
            (via or m.apply)(action)
        except IllegalAction as e:
            if e.rule != clause:
                raise self.bad(transition, f"refuses {action} citing {e.rule}", f"{action} refused citing {clause}",
                               clause) from None
            return
        except Exception as e:  # noqa: BLE001
            raise self.bad(transition, f"{type(e).__name__}: {e}", f"{action} refused as illegal", clause) from None
        raise self.bad(transition, f"accepts {action}", f"{action} is illegal", clause)

    # ------------------------------------------------------------ a scenario
    def run(self, sc: Scenario) -> Match:
        r, ex = self.r, self.ex
        st = sc.start
        self.rng = random.Random(f"{self.seed}:{r.ruleset.id}:{self.label}:{sc.name}")
        self.plan = Plan(ex, self.rng)
        self.ctx = {"": f"{r.ruleset.id} [{self.label}]", "scenario": f"'{sc.name}' (seed {self.seed})",
                    "start": f"Match.at(dealer {st.dealer}, scores {list(st.scores)}, target {st.target}, "
                             f"games {None if st.games is None else list(st.games)})"}
        games = len(st.games) if st.games is not None else 0
        try:
            m = Match.at(r, st.dealer, list(st.scores), st.target, None if st.games is None else list(st.games))
        except Exception as e:  # noqa: BLE001
            raise self.bad("Match.at: a part-way start", f"{type(e).__name__}: {e}", "a match waiting for a deal",
                           "win.play-on") from None
        self.x = _X(st.dealer, list(st.scores), ex.target(games), games)
        self.same("Match.at: the target in force", m.target, self.x.target, "win.play-on")
        self.same("Match.at: the scores", list(m.scores), self.x.scores, "seats.partners")
        self.run_causes = []
        for k, (what, design) in enumerate(sc.deals):
            if self.x.decided:
                break
            self.ctx = {key: v for key, v in self.ctx.items() if key in ("", "scenario", "start")}
            self.ctx["deal"] = f"{k} ({what})"
            self.deal(m, design)
        self.flush_run()
        # a copy (the referee's and the verifier's way to try an action) and a replay of the same actions reach
        # the same state
        self.same("Match.copy: the state of a copy of the match", _state(m.copy()), _state(m), "hand.tricks")
        if st.games is None and st.target is None:
            self.same("Match.replay: the state after replaying the match's actions",
                      _state(Match.replay(r, st.dealer, list(m.history), list(st.scores))), _state(m), "hand.tricks")
        if self.x.decided:
            self.same("Match.legal_actions: a decided match", list(m.legal_actions()), [], "win.target")
            self.refuse(m, Deal(tuple(range(52))), "Match.apply: a deal after the match was decided",
                        cite(r, self.x.decided_by, "win.target"))
        return m

    def other_phases(self, m: Match, phase: str, actions: Sequence[Any]) -> None:
        """Actions of another phase are refused as such (WrongPhase, citing hand.tricks) and change nothing."""
        for act in actions:
            self.refuse(m, act, f"Match.apply: {act} during {phase}", "hand.tricks")
            if isinstance(act, Play):  # the fast entry point of a card checks the phase too
                self.refuse(m, act, f"Match.play_card: {act} during {phase}", "hand.tricks",
                            lambda a: m.play_card(a.card))

    # ------------------------------------------------------------ part-way starts
    def starts(self) -> None:
        """``Match(rules, dealer, scores)`` and ``Match.at`` accept every start the spec allows and refuse the
        others citing the clause they break: a first dealer outside the four seats (deal.first-dealer); scores
        that are not four integers, or partners' scores that differ in the auction family (seats.partners); a
        target no number of games won can leave in force, or a game won by no team 0 or 1 (win.play-on). An
        accepted start waits for a deal by that dealer, at the scores given, with the target the encoding gives
        for the games won."""
        r, ex = self.r, self.ex
        self.ctx = {"": f"{r.ruleset.id} [{self.label}]", "scenario": "part-way starts",
                    "deal": "none yet (the match is being built)"}
        ok = [5, 9, 5, 9] if not r.individual else [5, 9, -3, 0]
        base = ex.target(0)
        raised = ex.target(1)
        # who may deal a match's first hand (ambiguity first-dealer): the others are refused at the start; a
        # part-way start (scores given, or Match.at) may wait for any dealer
        firsts = ex.enc.first_dealers()
        never = (-1, 4, *[d for d in range(4) if d not in firsts])
        refused: list[tuple[str, Callable[[], Match], str]] = [
            (f"Match(dealer {d})", functools.partial(Match, r, d), "deal.first-dealer") for d in never]
        refused += [(f"Match.at(dealer {d})", functools.partial(Match.at, r, d, ok), "deal.first-dealer")
                    for d in (-1, 4)]
        bad_scores: list[list[Any]] = [[1, 2, 3], [1, 2, 1, 2, 0], [1.5, 2, 1.5, 2]]
        for sc in bad_scores:
            refused.append((f"Match.at(scores {sc})", functools.partial(Match.at, r, 0, sc), "seats.partners"))
        if not r.individual:
            for sc in ([1, 2, 3, 2], [3, 2, 1, 2], [1, 2, 1, 3], [1, 3, 1, 2]):  # team 0's partners differ; team 1's
                refused.append((f"Match.at(partners' scores differ {sc})", functools.partial(Match.at, r, 0, sc),
                                "seats.partners"))
                refused.append((f"Match(partners' scores differ {sc})", functools.partial(Match, r, 0, sc),
                                "seats.partners"))
        for sc in bad_scores[:2]:  # a verifier going on from a record's claim: still four scores
            refused.append((f"Match.at(scores {sc}, partners_agree=False)",
                            functools.partial(Match.at, r, 0, sc, partners_agree=False), "seats.partners"))
        for t in sorted({base - 1, base + 1, raised + 1} - {base, raised}):
            refused.append((f"Match.at(target {t})", functools.partial(Match.at, r, 0, ok, t), "win.play-on"))
        refused.append(("Match.at(games [2])", lambda: Match.at(r, 0, ok, None, [2]), "win.play-on"))
        if raised != base:
            refused.append((f"Match.at(target {base}, games [1])", lambda: Match.at(r, 0, ok, base, [1]),
                            "win.play-on"))
            refused.append((f"Match.at(target {raised}, games [])", lambda: Match.at(r, 0, ok, raised, []),
                            "win.play-on"))
        for what, build, clause in refused:
            self.points += 1
            try:
                build()
            except IllegalAction as e:
                if e.rule != clause:
                    raise self.bad(f"{what}: an impossible start", f"refused citing {e.rule}",
                                   f"refused citing {clause}", clause) from None
                continue
            except Exception as e:  # noqa: BLE001
                raise self.bad(f"{what}: an impossible start", f"{type(e).__name__}: {e}", "refused as illegal",
                               clause) from None
            raise self.bad(f"{what}: an impossible start", "accepted", "refused as illegal", clause)
        accepted: list[tuple[str, Callable[[], Match], int, list[int], int, int]] = [
            ("Match(rules): the defaults", lambda: Match(r), 0, [0, 0, 0, 0], base, 0),
            ("Match.at(dealer 1): no scores given", lambda: Match.at(r, 1), 1, [0, 0, 0, 0], base, 0),
            ("Match(dealer 3, scores)", lambda: Match(r, 3, ok), 3, ok, base, 0),
            ("Match.at(dealer 2, scores)", lambda: Match.at(r, 2, ok), 2, ok, base, 0),
            ("Match.at(target in force)", lambda: Match.at(r, 1, ok, base), 1, ok, base, 0)]
        if not r.individual:  # a record's inconsistent claim, taken as it is by a verifier
            accepted.append(("Match.at(partners' scores differ, partners_agree=False)",
                             lambda: Match.at(r, 2, [1, 2, 3, 2], partners_agree=False), 2, [1, 2, 3, 2], base, 0))
        if raised != base:
            accepted += [("Match.at(the raised target)", lambda: Match.at(r, 0, ok, raised), 0, ok, raised, 1),
                         ("Match.at(games [1])", lambda: Match.at(r, 0, ok, None, [1]), 0, ok, raised, 1)]
        for what, build, dealer, scores, target, games in accepted:
            try:
                m = build()
            except Exception as e:  # noqa: BLE001
                raise self.bad(f"{what}: a possible start", f"refuses it: {type(e).__name__}: {e}", "accepted",
                               "win.play-on" if games else "deal.first-dealer") from None
            self.same(f"{what}: the state it waits in", (m.phase.value, m.dealer, list(m.scores), m.to_move),
                      ("deal", dealer, scores, -1), "deal.first-dealer")
            self.same(f"{what}: the target and the games", (m.target, len(m.games)), (target, games), "win.play-on")
            try:  # a copy (the referee's and the verifier's way to try an action) of every possible start
                copied = _state(m.copy())
            except Exception as e:  # noqa: BLE001
                raise self.bad(f"{what}: Match.copy of a possible start", f"refuses it: {type(e).__name__}: {e}",
                               "a copy in the same state", "seats.partners") from None
            self.same(f"{what}: Match.copy of a possible start", copied, _state(m), "seats.partners")
        # the chance move a simulation or fuzz run deals: one pack, every card once, whatever the seed
        for seed in range(8):
            deck = match_module.random_deck(random.Random(seed))  # looked up now: a patched engine's
            self.same(f"Match: the chance move random_deck deals (seed {seed}): a shuffled pack", sorted(deck),
                      list(range(52)), "deal.deck")
        self.cov["starts"] += 1

    def wait_deal(self, m: Match) -> None:
        x = self.x
        if x.after == "start":
            what, clause = "Match.at: the first dealer", "deal.first-dealer"
        elif x.after == "played":
            what, clause = "Match._phase_match_outcome: the next dealer after a played deal", "deal.rotation"
        else:
            what, clause = f"Match._phase_redeal: the next dealer after {x.after}", \
                {"bid.total": "redeal.dealer"}.get(x.after, x.after)
        self.same(what, m.dealer, x.dealer, clause)
        self.same("Match: the phase before a deal", m.phase.value, "deal", "deal.rotation")
        self.same("Match: no seat is to move before a deal", m.to_move, -1, "deal.rotation")
        self.same("Match.is_chance before a deal (the deal is chance's move)", m.is_chance(), True, "deal.rotation")
        self.same("Match: the deals played and cancelled so far", (m.hands_played, m.redeals),
                  (x.played, x.cancelled), "deal.rotation")
        teams = (x.scores[0] + x.scores[2], x.scores[1] + x.scores[3]) if self.r.individual else \
            (x.scores[0], x.scores[1])
        self.same("Match.team_scores before a deal", m.team_scores(), teams, "seats.partners")
        if x.after == "start":
            self.same("Match.at: no hand, trump, lead or auction before the first deal",
                      (list(m.hands), m.trump, m.led, m.trick_leader, m.auction_holder),
                      ([0, 0, 0, 0], -1, -1, -1, -1), "deal.rotation")
        self.same("Match: the scores carried to the deal", list(m.scores), x.scores, "score.negative")
        self.same("Match: the target in force", m.target, x.target, "win.play-on")
        self.same("Match: the games won before play-on", len(m.games), x.games, "win.play-on")
        self.same("Match.is_over before a deal", m.is_over(), False, "win.target")

    # ------------------------------------------------------------ one deal
    def deal(self, m: Match, design_fn: DesignFn) -> None:
        r, ex, x = self.r, self.ex, self.x
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
        weak = [s for s in range(4) if ex.weak(hands[s])] if r.weak_redeal else []
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
        revealed = dz.deck[51] if r.trump_source.startswith("revealed") else None  # the dealer's last card
        self.same("Match._phase_trump_reveal: the card turned up", None if m.record is None else m.record.revealed,
                  revealed, "trump.source")
        if r.trump_source != "contract":
            trump = ex.trump(dz.deck[51], 0)
            self.same("Match._phase_trump_reveal: the trump", m.trump, trump, "trump.source")
        elif m.record is not None:
            self.same("Match._phase_trump_reveal: no trump in the record before it is named", m.record.trump, None,
                      "trump.source")
        if r.individual:
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
            if r.egyptian:
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

    def cancelled(self, m: Match, cause: str) -> None:
        x, ex = self.x, self.ex
        rec = m.records[-1] if m.records else None
        self.same("Match._phase_redeal: the cause of the cancelled deal", None if rec is None else rec.redeal, cause,
                  cause)
        self.same("Match._phase_redeal: the phase after a cancelled deal", m.phase.value, "deal", cause)
        self.same("Match._phase_redeal: the scores after a cancelled deal",
                  (None if rec is None else list(rec.scores_after), list(m.scores)), (x.scores, x.scores), cause)
        self.same("HandRecord of a cancelled deal: no trick taken, no score changed",
                  None if rec is None else (list(rec.tricks_won), list(rec.deltas)), ([0] * 4, [0] * 4), cause)
        x.dealer = ex.redeal_dealer(x.dealer) if cause == "bid.total" else ex.next(x.dealer)
        x.after = cause
        x.cancelled += 1
        self.run_causes.append(cause)

    def flush_run(self) -> None:
        c = self.run_causes
        if c:
            if len(c) <= 3:
                short = dict(_CAUSES)
                self.cov[f"{len(c)}x{short[c[0]]}" if len(set(c)) == 1 else f"{len(c)}xmix"] += 1
            self.run_causes = []

    # ------------------------------------------------------------ bids
    def individual_bids(self, m: Match, dz: Design) -> list[int] | None:
        r, ex, x = self.r, self.ex, self.x
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
        if r.total_min <= total < need:  # cancelled by a total the scores raised (ambiguity raised-total)
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
        r = self.r
        if b < 0:
            return "bid.no-pass"
        if b in r.bid_excluded:
            return cite(r, "bid.excluded", "bid.range")
        if not r.bid_min <= b <= r.bid_max:
            return "bid.range"
        return cite(r, "bid.rising-min", "bid.range")

    def auction(self, m: Match, dz: Design) -> tuple[int, Call] | None:
        r, ex, x = self.r, self.ex, self.x
        st = ex.start(x.dealer)
        said: list[str] = []
        assert dz.calls is not None
        forced = False
        while not st[0]:
            seat = st[9]
            self.ctx["calls"] = ", ".join(said) or "none yet"
            self.same("Match._auction_bid: the phase", m.phase.value, "bidding", "auction.order")
            self.same("Match._auction_bid: the seat to speak", m.to_move, seat, cite(r, "auction.order"))
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
            if c != PASS_CALL and st[1] < 0 and st[7] == 3 and seat == x.dealer and r.all_pass == "dealer-forced":
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
                  (holder, n, s if r.egyptian else None), "auction.order")
        self.ctx["contract"] = f"{self._call_text((n, s))} by seat {holder}"
        return holder, (n, s)

    def _call_of(self, a: Any) -> Call:
        if not isinstance(a, Bid):
            return (-9, -9)
        if a.n is None:
            return PASS_CALL if a.strain is None else (-1, -1)
        if a.strain is None:
            return (a.n, 0) if not self.r.egyptian else (a.n, -1)
        return (a.n, a.strain) if self.r.egyptian else (a.n, -2 - a.strain)

    def _bid_of(self, c: Call) -> Bid:
        if c == PASS_CALL:
            return PASS
        return Bid(c[0], c[1] if self.r.egyptian else None)

    def _call_text(self, c: Call) -> str:
        if c == PASS_CALL:
            return "pass"
        if not self.r.egyptian or c[1] < 0:
            return str(c[0]) if c[1] == 0 else f"{c}"
        return f"{c[0]}{'CDHSN'[c[1]]}"

    def _near(self, st: St, legal: frozenset[Call]) -> list[Call]:
        """The illegal calls tried at this state: a pass, and every bid from one trick below the top (or the
        minimum) to one above, 14 tricks and one below the minimum."""
        ex = self.ex
        top_n = ex.decode(st[1])[0] if st[1] >= 0 else self.r.min_bid
        ns = {top_n - 1, top_n, top_n + 1, self.r.min_bid - 1, 14}
        return [c for c in ex.calls if c not in legal and (c == PASS_CALL or c[0] in ns)]

    def _call_clause(self, c: Call, st: St, seat: int) -> str:
        """The clause a call by ``seat`` breaks when it is refused: a pass, the dealer forced to bid
        (auction.all-pass); a number out of range (auction.range); a bid not above the top: the dealer matching it
        where the auction is continuous (auction.continuous: "the dealer has no right to match"), the dealer
        bidding below it under the dealer's privilege (auction.dealer-privilege: what the dealer may do), any other
        seat (auction.raise)."""
        r = self.r
        if c == PASS_CALL:
            return cite(r, "auction.all-pass", "auction.order")
        if not r.min_bid <= c[0] <= 13:
            return cite(r, "auction.range")
        if seat == self.x.dealer and st[1] >= 0:
            if self.ex.keys.get(c) == st[1] and r.auction_style != "dealer-privilege":
                return cite(r, "auction.continuous", "auction.raise")
            if r.auction_style == "dealer-privilege":
                return cite(r, "auction.dealer-privilege", "auction.raise")
        return cite(r, "auction.raise")

    # ------------------------------------------------------------ play
    def play(self, m: Match, dz: Design, hands: list[int], trump: int, bids: list[int], holder: int,
             contract: Call | None) -> None:
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
                self.ctx["trick"] = functools.partial(_trick_text, k, leader, tuple(cards))
                self.ctx["hand"] = functools.partial(_hand_text, seat, hands[seat])
                self.same("Match._phase_play: the seat to play" if j else
                          "Match._start_play: the first leader" if k == 0 else "Match._phase_play: the next leader",
                          m.to_move, seat, "play.direction" if j else "play.lead" if k == 0 else "play.next-lead")
                led = cards[0] // 13 if cards else -1
                legal = ex.mask(hands[seat], led, trump)
                # a server takes a player's card without asking for the legal set first (tricks 2, 6, 10: the
                # legal set is not asked, no timer, the card through play_card): the engine decides alone
                asked = k not in _UNASKED_TRICKS
                eng = 0
                for a in m.legal_actions() if asked else ():
                    eng |= 1 << a.card if isinstance(a, type(PLAYS[0])) else 1 << 52
                if asked and eng != legal:
                    raise self.bad(f"Match.legal_actions: the legal cards of seat {seat}", _mask_text(eng),
                                   _mask_text(legal), self._play_clause(hands[seat], led, trump))
                for c in _cards(hands[seat] & ~legal):
                    self.refuse(m, PLAYS[c], f"Match._phase_play: an illegal card {card_str(c)} by seat {seat}",
                                self._play_clause(hands[seat], led, trump))
                if k == 0 and j == 0:
                    self.other_phases(m, "the play", (Bid(7), PASS, Deal(tuple(range(52))), NameTrump(0), ASK))
                    self.same("Match.is_chance during the play", m.is_chance(), False, "deal.rotation")
                if j == 0 and k in (0, _UNASKED_TRICKS[0]):  # values that are no card, refused as not held
                    odd: Any
                    for odd in (-1, 52, 2.5, "AS"):
                        self.refuse(m, Play(odd), f"Match._phase_play: a play of {odd!r} (no card) by seat {seat}",
                                    "play.follow", None if asked else (lambda a: m.play_card(a.card)))
                away = _FULL & ~hands[seat] & ~_played_mask(hands)
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
            self.ctx["trick"] = functools.partial(_trick_text, k, leader, tuple(cards))
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
        if led >= 0 and not hand & SUIT_MASKS[led] and self.r.must_trump:
            return cite(self.r, "play.must-trump", "play.follow")
        return "play.follow"

    # ------------------------------------------------------------ scoring and outcome
    def scored(self, m: Match, bids: list[int], holder: int, contract: Call | None, won: list[int]) -> None:
        r, ex, x = self.r, self.ex, self.x
        rec = m.records[-1] if m.records else None
        self.same("Match._phase_hand_scoring: the hand scored", None if rec is None else len(rec.winners), 13,
                  "hand.tricks")
        assert rec is not None
        self.same("Match._phase_hand_scoring: the tricks won", list(rec.tricks_won), won, "play.winner")
        self.cov["played"] += 1
        if r.individual:
            deltas = [ex.delta(bids[s], won[s]) for s in range(4)]
            clause = cite(r, "score.individual", "score.values")
            for s in range(4):
                if bids[s] == 13:
                    self.cov["13made" if won[s] == 13 else "13failed"] += 1
                if r.made_bid_wins and bids[s] == r.made_bid_wins and won[s] < bids[s]:
                    self.cov["madebid-x"] += 1
        else:
            assert contract is not None
            n = contract[0]
            bt = holder % 2
            tt = won[bt] + won[bt + 2]
            d0, d1 = ex.team_deltas(n, bt, tt)
            deltas = [d0, d1, d0, d1]
            clause = cite(r, "score.bid13" if n == 13 else "score.kaboot" if tt in (0, 13) else
                          "score.standard" if r.score_style == "standard" else "score.bid-only", "score.standard")
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
        if r.individual:
            w, oc = ex.ind_outcome(x.scores, bids, won, x.target)
        else:
            assert contract is not None
            bt = holder % 2
            tt = won[bt] + won[bt + 2]
            w, oc = ex.auc_outcome(x.scores[0], x.scores[1], x.target, bt, ex.bid13(contract[0], tt))
        self.same(f"Match._phase_match_outcome: the outcome at target {x.target}", (rec.outcome, rec.outcome_rule),
                  (w, oc), cite(r, oc, "win.target"))
        if oc == "tie.both-qualify":
            level = w is None if r.individual else x.scores[0] == x.scores[1]
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
                  (x.decided, x.winner if x.decided else None), cite(r, oc, "win.target"))
        x.played += 1
        if not x.decided:
            x.dealer = ex.next(x.dealer)
            x.after = "played"
        else:
            self.same("Match: no seat is to move once the match is decided", m.to_move, -1, "win.target")


def _state(m: Match) -> tuple[Any, ...]:
    """What the stage compares of a copy or a replay with the match itself."""
    return (m.phase.value, m.dealer, list(m.scores), m.hands_played, m.redeals, m.to_move, len(m.history),
            list(m.games), m.target, list(m.hands), m.trump, [(r.redeal, list(r.winners)) for r in m.records])


# the tricks (0-based) whose cards the stage gives as a server would, without asking for the legal set first
_UNASKED_TRICKS = (1, 5, 9)


def _mask_text(mask: int) -> str:
    extra = " + a non-card action" if mask >> 52 else ""
    return f"[{hand_str(mask & ((1 << 52) - 1))}]" + extra


def _show(v: Any) -> str:
    return v if isinstance(v, str) else repr(v)


# ====================================================================== the stage


@dataclass
class SteerVariant:
    """The scenarios of one option variant, every step compared with the encoding, then the coverage."""

    rules: Rules
    label: str
    seed: int = 0
    fn: str = "Match"
    points: int = 0
    coverage: dict[str, int] = field(default_factory=dict)

    def run(self) -> Counterexample | None:
        rules = self.rules
        ex = Expected(Encoding(rules))
        drv = Driver(rules, ex, self.label, self.seed)
        names: list[str] = []
        try:
            drv.starts()
            for sc in scenarios(rules, ex):
                names.append(sc.name)
                drv.run(sc)
        except _Bad as b:
            self.points = drv.points
            return b.cx
        except PlanError as e:  # the stage could not steer here (a house ruleset it was not written for): a failure
            return Counterexample(f"steering: the scenario '{names[-1] if names else '?'}' cannot be built under "
                                  f"{rules.ruleset.id}/{self.label}", drv.where(), "no match steered", str(e), "hand.tricks")
        except Exception as e:  # noqa: BLE001 - the engine raised while the stage read its state: a counterexample
            self.points = drv.points
            return Counterexample(f"the engine raised {type(e).__name__} while its state was read", drv.where(),
                                  f"{type(e).__name__}: {e}", "no exception", "hand.tricks")
        self.points = drv.points
        self.coverage = {k: drv.cov.get(k, 0) for k in KIND_IDS}
        na = {k: why for k in KIND_IDS if (why := not_applicable(k, rules)) is not None}
        report("coverage", {"ruleset": rules.ruleset.id, "variant": self.label, "counts": dict(self.coverage), "na": na,
                            "steps": self.points})
        for k in KIND_IDS:
            if k not in na and self.coverage[k] == 0:
                return Counterexample(f"transition {k} ({_KIND[k].text}) never reached under {rules.ruleset.id}/{self.label}",
                                      f"{rules.ruleset.id} [{self.label}], scenarios: " + "; ".join(names),
                                      "0 times", "can occur under this variant (not n/a)", cite(rules, *_KIND[k].clauses))
        return None


def variant_runs(rules: Rules, seed: int = 0) -> list[SteerVariant]:
    """One :class:`SteerVariant` per option variant of ``r``'s ruleset (:func:`variants`, from ``r``'s options)."""
    rs = rules.ruleset
    out = []
    for opts in variants(rs, rules.option_map):
        try:
            rv = load_rules(rs, opts)
        except ConfigError:
            continue  # a combination the engine refuses to load is no variant (the registry reports it)
        out.append(SteerVariant(rv, variant_label(rs, opts), seed))
    return out


def match_parts(enc: Encoding) -> tuple[list[tuple[str, list[Term], Term]], list[Any]]:
    """The stage for the engine family (:mod:`tarneeb_proofs.engine_family`): the lemmas the reading of the encoding
    rests on (for every variant's encoding, each distinct formula once) and one run per option variant."""
    runs = variant_runs(enc.r)
    lem: list[tuple[str, list[Term], Term]] = []
    seen: set[tuple[int, ...]] = set()
    for v in runs:
        for name, hyp, claim in lemmas_of(Encoding(v.rules, enc.mutant)):
            key = (claim.get_id(), *(h.get_id() for h in hyp))
            if key not in seen:
                seen.add(key)
                lem.append((name, hyp, claim))
    return lem, runs


class Steered(NamedTuple):
    """A finished steered match: the scenario's name, where it started (``Match.at``) and the match itself (its
    ``records`` and ``history`` hold every deal, all complete)."""

    scenario: str
    start: Start
    match: Match


def steered_matches(rules: Rules, seed: int = 0) -> list[Steered]:
    """The steered matches of this stage under ``r`` (one configuration), each checked step by step as in
    ``tarneeb prove``. Every match ends at a deal boundary (waiting for a deal, or over), so its records are
    complete; rebuild one with ``Match.at(r, *start)`` and ``match.history``. Raises :class:`MatchMismatch` when the
    engine disagrees with the encoding."""
    ex = Expected(Encoding(rules))
    drv = Driver(rules, ex, variant_label(rules.ruleset, rules.option_map), seed)
    out = []
    for sc in scenarios(rules, ex):
        try:
            m = drv.run(sc)
        except _Bad as b:
            raise MatchMismatch(b.cx) from None
        out.append(Steered(sc.name, sc.start, m))
    return out


def run_rules(rules: Rules, seed: int = 0) -> tuple[Counterexample | None, list[SteerVariant]]:
    """Every variant of ``r``'s ruleset (as ``tarneeb prove`` runs them), stopping at the first counterexample."""
    runs = variant_runs(rules, seed)
    for v in runs:
        bad = v.run()
        if bad is not None:
            return bad, runs
    return None, runs


# ====================================================================== the coverage table


def coverage_rows(results: Iterable[Any]) -> list[dict[str, Any]]:
    """The coverage rows reported by the clean match-stage checks among ``results`` (``Result.data``)."""
    out: list[dict[str, Any]] = []
    for res in results:
        if getattr(res.check, "mutant", None) is None:
            out += list(res.data.get("coverage", []))
    return out


class CoverageTable(NamedTuple):
    """One family's coverage: a row per ruleset [variant], a column per kind of transition (counts, or "n/a:x"
    with the reason x in ``notes``)."""

    title: str
    columns: list[str]
    rows: list[list[str]]
    notes: list[str]


def coverage_tables(rows: Sequence[Mapping[str, Any]]) -> list[CoverageTable]:
    """The coverage rows (:func:`coverage_rows`) as one table per family (individual bids, team auction)."""
    out = []
    for fam, other in (("individual", _AUCTION_ONLY), ("auction", _INDIVIDUAL_ONLY)):
        mine = [x for x in rows if all(k in x["na"] for k in other)]
        if not mine:
            continue
        cols = [k for k in KIND_IDS if k not in other]
        reasons: dict[str, str] = {}
        body = []
        for x in mine:
            cells = [f"{x['ruleset']} [{x['variant']}]"]
            for k in cols:
                if k in x["na"]:
                    letter = reasons.setdefault(x["na"][k], "abcdefghijklmnopqrstuvwxyz"[len(reasons) % 26])
                    cells.append(f"n/a:{letter}")
                else:
                    cells.append(str(x["counts"].get(k, 0)))
            cells.append(str(x.get("steps", "")))
            body.append(cells)
        notes = [f"{letter}: {why}" for why, letter in reasons.items()]
        notes += [f"{k}: {_KIND[k].text}" for k in cols]
        out.append(CoverageTable(f"engine.match coverage, {fam} family (bounded: the transitions the steered matches "
                                 "reached; a 0 where one can occur fails the check)",
                                 ["ruleset [variant]", *cols, "steps"], body, notes))
    return out


__all__ = ["Counterexample", "Expected", "KINDS", "MatchMismatch", "Scenario", "Start", "Steered", "SteerVariant",
           "CoverageTable", "coverage_rows", "coverage_tables", "lemmas", "match_parts", "not_applicable", "run_rules", "scenarios",
           "steered_matches", "variant_runs", "variants"]
