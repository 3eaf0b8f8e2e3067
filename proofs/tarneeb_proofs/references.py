"""Family ``references``: the worked examples of the rule documents, checked against the encoding and the engine.

The invariant families prove the encoding against itself; both the engine and
the encoding read their numbers from ``spec/rulesets/*.toml``, so a wrong
number there (a bid value, the bid-total threshold, the target, a kaboot
value, a row of the rising-minimum table) would flow into both and every proof
would still hold. The references are independent of the ruleset files: every
example of ``spec/examples.toml`` gives an input and the result a rule document
gives for it (document and heading cited in the example).

One check per example (id ``references.<example id>:<ruleset>:<options>``),
with one obligation: the inputs are z3 constants (hypotheses), and the claim
says that each result the encoding computes for them (the term builders of
:class:`~tarneeb_proofs.encode.Encoding`) equals the document's value, and that
the engine (:func:`tarneeb.conformance.examples.check_example`, which drives
:mod:`tarneeb.core.rules` and :class:`tarneeb.Match`) gave the document's value
too (a ground fact computed before the query). A mismatch is a counterexample
whose witness names the example, the document and heading, the document's
value, the encoding's value (read from the model) and the engine's value.

Most kinds use an ``Encoding`` builder directly. Where the encoding has no
builder of its own (the deal order, the weak-hand test, the timer's bid, the
partner seat, the clause a refused call breaks), the term is written here from
the encoding's pieces (``next_seat``, ``team_of``, ``legal_bid``, the auction
state) and the resolved rule parameters, never from the engine.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import z3

from tarneeb.conformance.examples import Checked, Example, check_example, load_examples
from tarneeb.core.cards import STRAINS, SUITS, parse_card
from tarneeb.core.sources import cite
from tarneeb.core.spec import Rules, get_ruleset, load_rules
from tarneeb.errors import TarneebError

from .encode import Encoding, Term
from .obligations import Check, Obligation
from .witness import Witness

FAMILY = "references"

# the clauses each kind of example turns on (those a ruleset has are cited in a counterexample)
KIND_CLAUSES: dict[str, tuple[str, ...]] = {
    "value": ("score.values", "score.individual"),
    "hand-score": ("bid.total", "score.individual", "score.values", "score.extra"),
    "bid-legal": ("bid.range", "bid.excluded", "bid.rising-min", "bid.no-pass"),
    "redeal": ("bid.total", "redeal.dealer", "deal.rotation"),
    "trump": ("trump.source",),
    "outcome": ("win.target", "win.qualify", "tie.both-qualify", "win.made-bid"),
    "team-score": ("score.standard", "score.bid-only", "score.kaboot", "score.bid13"),
    "auction": ("auction.order", "auction.range", "auction.raise", "auction.dealer-privilege", "auction.continuous",
                "auction.all-pass", "auction.egyptian", "redeal.dealer"),
    "target": ("win.target", "win.play-on"),
    "deal": ("deal.order", "deal.deck"),
    "timer": ("timer.auto-bid",),
    "weak-hand": ("deal.weak-redeal",),
    "partners": ("seats.partners",),
}

# (example id, encoding mutant): the family must catch each (at least one per ruleset)
MUTANTS: tuple[tuple[str, str], ...] = (
    ("000-bid-6-illegal", "excluded-bid-allowed"),
    ("000-total-11-played", "redeal-threshold-plus-1"),
    ("000-total-10-same-dealer", "redeal-dealer-swapped"),
    ("001-extra-trick-nothing", "extra-tricks-count"),
    ("001-house-rising-min-30", "rising-min-ignored"),
    ("001-missed-5-costs-10", "failed-bid-scores"),
    ("003-partner-zero", "partner-geq-0"),
    ("003-exact-tie-extra-hand", "tie-to-team-0"),
    ("002-400-rising-min", "rising-min-ignored"),
    ("002-400-bid-1-illegal", "bid-below-min"),
    ("002-dealer-matches-8", "dealer-match-ignored"),
    ("002-continuous-no-match", "anyone-may-match"),
    ("002-egyptian-more-tricks", "strain-before-tricks"),
    ("002-bid-13-scores-26", "bid13-26-swapped"),
    ("002-bid-8-take-10", "defenders-score-on-made"),
    ("002-play-on-41-to-82", "play-on-not-raised"),
    ("002-both-reach-bidding-team", "tie-to-defenders"),
)

HIGH_CARDS = sum(0b1111000000000 << (13 * s) for s in range(4))  # jacks, queens, kings, aces (deal.weak-redeal)


class ReferenceCheck(Check):
    """A check of one worked example. When the ruleset refuses the example's options, the encoding is built
    from the defaults and the obligation reports the refusal (the run goes on)."""

    def rules(self) -> Rules:
        """The check's rules; where the ruleset refuses the example's options, the ruleset's defaults (the
        obligation reports the refusal)."""
        try:
            return super().rules()
        except TarneebError:
            return load_rules(self.ruleset)


def reference_checks() -> list[Check]:
    """One check per worked example, and the mutant checks of :data:`MUTANTS`."""
    out: list[Check] = []
    examples = load_examples()
    by_id = {ex.id: ex for ex in examples}
    for ex in examples:
        out.append(_check(ex, None))
    for eid, mutant in MUTANTS:
        if eid in by_id:
            out.append(_check(by_id[eid], mutant))
    return out


def _check(ex: Example, mutant: str | None) -> Check:
    present = set(get_ruleset(ex.ruleset).clauses)
    clauses = tuple(c for c in KIND_CLAUSES.get(ex.kind, ()) if c in present)
    options = tuple(sorted(ex.options.items()))
    return ReferenceCheck(FAMILY, ex.ruleset, options, mutant, clauses, functools.partial(_build, ex), ex.id)


# ------------------------------------------------------------------ values
def _const(key: str, v: Any) -> Term:
    """A document value as a z3 constant of the sort the encoding's result has."""
    if key == "winner":
        return z3.IntVal(-1 if v == "none" else int(v))
    if key == "trump":
        return z3.BitVecVal(SUITS.index(str(v)), 6)
    if isinstance(v, bool):
        return z3.BoolVal(v)
    if isinstance(v, int):
        return z3.IntVal(v)
    return z3.StringVal(str(v))


def _same(key: str, term: Term | list[Term] | None, want: Any) -> Term:
    if term is None:
        return z3.BoolVal(False)  # the encoding gives no value for this result: never a pass
    if isinstance(term, list):
        if not isinstance(want, list) or len(want) != len(term):
            return z3.BoolVal(False)
        return z3.And([t == _const(key, w) for t, w in zip(term, want, strict=True)])
    return term == _const(key, want)


def _read(m: Any, key: str, term: Term | list[Term] | None) -> Any:
    """The encoding's value of a result in a model, written as the example file writes it."""
    if term is None:
        return "(not encoded)"
    if isinstance(term, list):
        return [_read(m, key, t) for t in term]
    v = m.eval(term, model_completion=True)
    if z3.is_bool(v):
        return bool(z3.is_true(v))
    if z3.is_string_value(v):
        return v.as_string()
    n = int(v.as_long())
    if key == "winner":
        return "none" if n < 0 else n
    if key == "trump":
        return SUITS[n] if 0 <= n < 4 else f"(suit {n})"
    return n


def _text(v: Any) -> str:
    """A value as the example file writes it."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, list):
        return "[" + ", ".join(_text(x) for x in v) + "]"
    return str(v)


def _fmt(d: dict[str, Any]) -> str:
    return ", ".join(f"{k} = {_text(v)}" for k, v in d.items())


# ------------------------------------------------------------------ the obligation
def _build(ex: Example, enc: Encoding) -> list[Obligation]:
    name = f"{ex.id} ({cite(ex.doc, ex.heading)})"
    problem = ""
    try:
        load_rules(ex.ruleset, ex.options)
    except TarneebError as e:
        problem = f"the ruleset refuses the example's options: {e}"
    engine: Checked | None = None
    engine_error = ""
    try:
        engine = check_example(ex)
    except Exception as e:  # an engine that crashes on a worked example is a finding, reported here
        engine_error = f"{type(e).__name__}: {e}"
    hyp: list[Term] = []
    outs: dict[str, Term | list[Term]] = {}
    if not problem:
        try:
            hyp, outs = _encode(ex, enc)
        except (TarneebError, KeyError, ValueError, IndexError) as e:
            problem = f"the example cannot be encoded: {type(e).__name__}: {e}"
    engine_ok = engine is not None and engine.ok
    claim = z3.And([_same(k, outs.get(k), v) for k, v in ex.expect.items()] + [z3.BoolVal(engine_ok and not problem)])

    def witness(m: Any) -> Witness:
        w = Witness(f"worked example {ex.id} ({cite(ex.doc, ex.heading)}) does not hold")
        w.add("example", ex.id)
        w.add("document", cite(ex.doc, ex.heading))
        w.add("ruleset", ex.ruleset + (f" [{_fmt(ex.options)}]" if ex.options else ""))
        w.add("input", _fmt(ex.input))
        w.add("document says", _fmt(ex.expect))
        if problem:
            w.add("problem", problem)
        else:
            enc_got = {k: _read(m, k, outs.get(k)) for k in ex.expect}
            w.add("encoding gives", _fmt(enc_got))
            bad = [k for k in ex.expect if enc_got[k] != ex.expect[k]]
            w.add("encoding", "agrees" if not bad else "differs in " + ", ".join(bad))
        if engine is not None:
            w.add("engine gives", _fmt({k: engine.got.get(k) for k in ex.expect}))
            w.add("engine", "agrees" if engine.ok else "differs: " + "; ".join(engine.mismatches()))
        else:
            w.add("engine gives", "(no result)")
            w.add("engine", "differs: the engine raised " + engine_error)
        return w

    return [Obligation(name, hyp, claim, witness)]


# ------------------------------------------------------------------ the encoding's answer per kind
def _ints(prefix: str, values: Sequence[int]) -> tuple[list[Term], list[Term]]:
    xs = [z3.Int(f"{prefix}{i}") for i in range(len(values))]
    return xs, [x == v for x, v in zip(xs, values, strict=True)]


def _encode(ex: Example, enc: Encoding) -> tuple[list[Term], dict[str, Term | list[Term]]]:
    """Hypotheses (the example's input as constants) and the encoding's result terms, by result key."""
    r, inp, k = enc.r, ex.input, ex.kind
    if k == "value":
        b = z3.Int("bid")
        return [b == inp["bid"]], {"value": enc.individual_delta(b, b)}
    if k == "hand-score":
        bs, h1 = _ints("bid", inp["bids"])
        ts, h2 = _ints("tricks", inp["tricks"])
        zero = [z3.IntVal(x) for x in inp.get("scores", [0, 0, 0, 0])]
        return h1 + h2, {"played": enc.hand_played(bs, zero),
                         "deltas": [enc.individual_delta(b, t) for b, t in zip(bs, ts, strict=True)]}
    if k == "bid-legal":
        return _bid_legal(enc, inp)
    if k == "redeal":
        d = z3.Int("dealer")
        bs, h = _ints("bid", inp["bids"])
        played = enc.hand_played(bs, [z3.IntVal(x) for x in inp.get("scores", [0, 0, 0, 0])])
        return [d == inp["dealer"]] + h, {"played": played,
                                          "next_dealer": z3.If(played, enc.next_seat(d), enc.dealer_after_redeal(d))}
    if k == "trump":
        card = z3.BitVec("revealed", 6)
        hyp = [card == parse_card(inp["revealed"])]
        if r.trump_source == "fixed":  # every trump the encoding allows must be the document's
            t = z3.BitVec("trump", 6)
            return hyp + [enc.trump_ok(t)], {"trump": t}
        return hyp, {"trump": enc.trump_from_reveal(card)}
    if k == "outcome":
        return _outcome(enc, inp)
    if k == "team-score":
        c, bt, tb = z3.Int("contract"), z3.Int("bidding_team"), z3.Int("bidding_team_tricks")
        hyp = [c == inp["contract"], bt == inp["bidding_team"], tb == inp["team_tricks"][inp["bidding_team"]]]
        d0, d1 = enc.team_deltas(c, bt, tb)
        return hyp, {"deltas": [d0, d1], "game_won": enc.bid13_wins(c, tb)}
    if k == "target":
        g = z3.Int("games_won")
        return [g == inp["games_won"]], {"target": enc.target_in_force(g)}
    if k == "auction":
        return _auction(enc, inp)
    if k == "deal":
        return _deal(enc, inp)
    if k == "timer":
        s, b = z3.Int("score"), z3.Int("timer_bid")
        # the timer's bid is the ruleset's number, and the encoding must find it legal for that score
        return [s == inp["score"], b == r.auto_bid], {"bid": z3.If(enc.legal_bid(s, b), b, z3.IntVal(-1))}
    if k == "weak-hand":
        hand = z3.BitVec("hand", 52)
        mask = 0
        for c in inp["hand"]:
            mask |= 1 << parse_card(c)
        weak = (hand & z3.BitVecVal(HIGH_CARDS, 52)) == 0
        return [hand == mask], {"redeal": z3.And(z3.BoolVal(r.weak_redeal), weak)}
    if k == "partners":
        seat = z3.Int("seat")
        return [seat == inp["seat"]], {"partner": enc.next_seat(enc.next_seat(seat)), "team": enc.team_of(seat)}
    raise ValueError(f"kind {k!r} has no encoding")


def _bid_legal(enc: Encoding, inp: dict[str, Any]) -> tuple[list[Term], dict[str, Term | list[Term]]]:
    r = enc.r
    s, b = z3.Int("score"), z3.Int("bid")
    is_pass = inp["bid"] == "pass"
    hyp = [s == inp["score"], b == (0 if is_pass else int(inp["bid"]))]  # a pass is a call of no tricks
    legal = enc.legal_bid(s, b)
    if is_pass:
        why: Term = z3.StringVal("bid.no-pass")
    else:
        excluded = z3.Or([b == x for x in sorted(r.bid_excluded)]) if r.bid_excluded else z3.BoolVal(False)
        why = z3.If(z3.Or(b < r.bid_min, b > enc.bid_max()), z3.StringVal("bid.range"),
                    z3.If(excluded, z3.StringVal("bid.excluded"),
                          z3.If(b < enc.min_bid_for(s), z3.StringVal("bid.rising-min"), z3.StringVal("?"))))
    return hyp, {"legal": legal, "rule": z3.If(legal, z3.StringVal(""), why)}


def _outcome(enc: Encoding, inp: dict[str, Any]) -> tuple[list[Term], dict[str, Term | list[Term]]]:
    ss, hyp = _ints("score", inp["scores"])
    if enc.r.individual:
        bs = ts = None
        if "bids" in inp and "tricks" in inp:
            bs, h1 = _ints("bid", inp["bids"])
            ts, h2 = _ints("tricks", inp["tricks"])
            hyp += h1 + h2
        o = enc.individual_outcome(ss, bs, ts)
    else:  # team scores: seat 0 holds team 0's, seat 1 team 1's
        bt = z3.Int("bidding_team")
        hyp.append(bt == inp["bidding_team"])
        o = enc.auction_outcome([ss[0], ss[1]], enc.target, bt, z3.BoolVal(False))
    return hyp, {"winner": o.winner(), "rule": o.clause}


def _call(text: str) -> tuple[int, int]:
    """A call as the example file writes it ("pass", "8", "8H", "8N") as (tricks, strain); a pass is (0, 0)."""
    if text == "pass":
        return 0, 0
    if text[-1].upper() in STRAINS:
        return int(text[:-1]), STRAINS.index(text[-1].upper())
    return int(text), 0


def _auction(enc: Encoding, inp: dict[str, Any]) -> tuple[list[Term], dict[str, Term | list[Term]]]:
    r = enc.r
    calls = [_call(c) for c in inp["calls"]]
    dealer = z3.Int("dealer")
    run = enc.auction(dealer, len(calls), prefix="ref")
    hyp = [dealer == inp["dealer"]]
    for i, (n, s) in enumerate(calls):
        hyp += [run.calls_n[i] == n, run.calls_s[i] == s]

    def broken(i: int) -> Term:
        """The clause the refused call i breaks, read from the encoding's state before it."""
        n, s = run.calls_n[i], run.calls_s[i]
        at_dealer = run.seat[i] == dealer
        same = enc.key(n, s) == run.top[i]
        return z3.If(n == 0, z3.StringVal("auction.all-pass"),
               z3.If(z3.Or(s < 0, s >= enc.strains()), z3.StringVal("auction.egyptian"),
               z3.If(z3.Or(n < r.min_bid, n > 13), z3.StringVal("auction.range"),
               z3.If(z3.And(same, at_dealer), z3.StringVal("auction.continuous"),
               z3.If(z3.And(at_dealer, z3.BoolVal(r.auction_style == "dealer-privilege")),
                     z3.StringVal("auction.dealer-privilege"), z3.StringVal("auction.raise"))))))

    rule: Term = z3.StringVal("")
    for i in range(len(calls) - 1, -1, -1):  # the first refused call
        rule = z3.If(z3.Not(run.legal[i]), broken(i), rule)
    refused = z3.Or([z3.Not(x) for x in run.legal]) if calls else z3.BoolVal(False)
    k = len(calls)
    ended, top, holder = run.ended[k], run.top[k], run.holder[k]
    contract = z3.And(z3.Not(refused), ended, top >= 0)
    redeal = z3.And(z3.Not(refused), ended, top < 0)
    return hyp, {"illegal_rule": rule,
                 "contract_seat": z3.If(contract, holder, z3.IntVal(-1)),
                 "contract": z3.If(contract, top / 5, z3.IntVal(-1)),
                 "redeal": redeal,
                 "next_dealer": z3.If(redeal, enc.dealer_after_redeal(dealer), z3.IntVal(-1)),
                 "unfinished": z3.And(z3.Not(refused), z3.Not(ended))}


def _deal(enc: Encoding, inp: dict[str, Any]) -> tuple[list[Term], dict[str, Term | list[Term]]]:
    """deal.order: 52 cards one at a time, the first to the seat after the dealer in the direction of play."""
    dealer = z3.Int("dealer")
    seats: list[Term] = []
    cur: Term = dealer
    for _ in range(52):
        cur = enc.next_seat(cur)
        seats.append(cur)
    counts = [z3.Sum([z3.If(x == j, 1, 0) for x in seats]) for j in range(4)]
    even = z3.And([counts[j] == counts[0] for j in range(1, 4)])
    return [dealer == inp["dealer"]], {"cards_each": z3.If(even, counts[0], z3.IntVal(-1)),
                                       "dealer_gets_last_card": seats[51] == dealer}


__all__ = ["FAMILY", "KIND_CLAUSES", "MUTANTS", "ReferenceCheck", "reference_checks"]
