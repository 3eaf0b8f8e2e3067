"""``tarneeb diff A B``: where two rulesets rule differently, found by Z3.

For each *check* (a question kind of :mod:`tarneeb.ruling`, sometimes narrowed
to one aspect, e.g. the tie rule inside "has a team won?") both rulesets'
rulings are encoded as Z3 terms over one shared situation, built only from the
resolved parameters (:func:`tarneeb.core.spec.load_rules`). Z3 then looks for a
situation where the two rulings differ, minimising a size measure of the
situation with ``z3.Optimize``:

* ``sat``: the smallest witness found is turned into a situation file (the
  format of ``spec/disputes/``) and checked with the engine through
  :func:`tarneeb.ruling.resolve`: both rulesets must really rule differently
  on it, and as the encoding predicts;
* ``unsat``: "no difference", proved for the encoded situation space (said to a
  reader as "no situation of this form tells them apart");
* the two rulesets belong to different bidding families and the question has
  no shared form: "not comparable".

A ruleset is written ``ID`` or ``ID:option=value,option=value``.

For the documentation: :func:`row_witnesses` returns, for two rulesets, one
:class:`Comparison` per comparison row (``ROWS``: row id -> check id, e.g.
``"tie rule" -> "tie-rule"``); :func:`diff` returns every check's result;
:meth:`Comparison.to_json` gives ``{"check", "kind", "status", "summary",
"rulings": {label: text}, "situation": {...}, "engine_confirmed"}`` where
``situation`` can be written out as a TOML/JSON situation file and fed to
``tarneeb ruling``.

Every rule term comes from the shared :class:`tarneeb_proofs.encode.Encoding`
(built from the spec data only, the same builders the proofs check); this
module only states each check's situation space, its size measure and how a
model becomes a situation file. Every witness is re-checked against the engine.

A witness's description counts players 1 to 4 and teams 1 and 2 as every human text does
(:func:`tarneeb.core.cards.player_name`, :func:`~tarneeb.core.cards.team_label`); its situation
file keeps the seats 0..3 and teams 0 and 1.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from tarneeb.core.cards import SUIT_NAMES, SUITS, card_str, player_name, team_label
from tarneeb.core.spec import OptionValue, Rules, get_ruleset, load_rules
from tarneeb.errors import ConfigError
from tarneeb.ruling import KINDS, parse_situation, resolve, short_answer

from .encode import Encoding, Term, holds, popcount52, seat2
from .encode_auction import AuctionState

# check id -> question kind
CHECKS: dict[str, str] = {
    "trump": "trump",
    "bid-legal": "bid-legal",
    "score": "score",
    "redeal": "redeal",
    "redeal-dealer": "redeal",
    "winner": "winner",
    "tie-rule": "winner",
    "card-legal": "card-legal",
    "trick-winner": "trick-winner",
    "next-dealer": "next-dealer",
}
CHECK_TITLES: dict[str, str] = {
    "trump": "what is trump",
    "bid-legal": "is this bid legal (bid range, excluded bids, rising minimum, auction rules)",
    "score": "what a hand scores (bid values, scoring style, kaboot)",
    "redeal": "is the hand redealt, and who deals",
    "redeal-dealer": "who deals after a cancelled hand",
    "winner": "has a team won (target, qualifying, house rules)",
    "tie-rule": "both teams qualify: who wins",
    "card-legal": "is this card legal (follow suit, must trump)",
    "trick-winner": "who wins this trick (trump, direction)",
    "next-dealer": "who deals next",
}
# Rows of the docs' comparison page -> check id.
ROWS: dict[str, str] = {
    "trump": "trump",
    "bid range": "bid-legal",
    "bid values": "score",
    "scoring": "score",
    "redeal threshold and dealer": "redeal",
    "redeal dealer": "redeal-dealer",
    "must-trump": "card-legal",
    "trick winner": "trick-winner",
    "target": "winner",
    "win condition": "winner",
    "tie rule": "tie-rule",
    "deal rotation": "next-dealer",
}


# ------------------------------------------------------------------ rulesets


@dataclass(frozen=True)
class Side:
    """One side of a comparison: a ruleset with some of its options set, as written on the command line (``spec``)
    and resolved (``rules``)."""

    spec: str
    rules: Rules
    options: dict[str, OptionValue]

    @property
    def label(self) -> str:
        """The side's name for a reader (:meth:`tarneeb.core.spec.Rules.label`)."""
        return self.rules.label()

    def entry(self) -> dict[str, Any] | str:
        """The side as a witness situation names it: the ruleset's reference, with its options when it has some."""
        ref = self.rules.ruleset.name_ref  # a ruleset file by its path, so the witness situation loads it
        return {"id": ref, "options": dict(self.options)} if self.options else ref


def parse_side(spec: str) -> Side:
    """``ID`` or ``ID:opt=val,opt=val`` -> :class:`Side` (raises ConfigError)."""
    rid, _, rest = spec.partition(":")
    rs = get_ruleset(rid.strip())
    opts: dict[str, OptionValue] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        if "=" not in item:
            raise ConfigError(rs.id, item, "an option is written name=value")
        k, v = item.split("=", 1)
        opts[k.strip()] = rs.option(k.strip()).coerce(rs.id, v.strip())
    return Side(spec, load_rules(rs, opts), opts)


# ------------------------------------------------------------------ helpers (situation space only: no rule here)

NAMED = 5  # the trump answer "named at the auction" (no contract stated); 0..3 a suit, 4 no trump


def _card(name: str, cons: list[Term]) -> Term:
    """A card 0..51 as a 6-bit vector, suit * 13 + rank (the play sort of :mod:`tarneeb_proofs.encode`)."""
    c = z3.BitVec(name, 6)
    cons.append(z3.ULT(c, 52))
    return c


def _n(x: Term) -> Term:
    """A bit-vector as an unsigned Int, for the size measures."""
    return z3.BV2Int(x)


def _abs(x: Term) -> Term:
    return z3.If(x >= 0, x, -x)


def _flag(b: Term) -> Term:
    return z3.If(b, 1, 0)


DEALER = z3.IntVal(0)  # the dealer of the auction situations
PASS = z3.IntVal(0)  # a pass, as encode's auction writes it (and the only strain without Egyptian bids)


def _opening_ok(e: Encoding, n: Term) -> Term:
    """A bid (not a pass) of ``n`` is a legal first call of the auction, so a possible contract."""
    return z3.And(n > 0, e.call_ok(e.auction_start(DEALER), DEALER, n, PASS))


def _dealer_turn(e: Encoding, top: Term) -> tuple[AuctionState, list[Term]]:
    """The auction at the dealer's first turn after pass, pass and a bid of ``top`` (-1: a third pass),
    with the legality of those three calls."""
    st = e.auction_start(DEALER)
    ok: list[Term] = []
    for n_ in (PASS, PASS, z3.If(top == -1, 0, top)):
        ok.append(e.call_ok(st, DEALER, n_, PASS))
        st = e.auction_step(st, n_, PASS)
    return st, ok


# ------------------------------------------------------------------ witness


@dataclass
class Comparison:
    """The outcome of one check between two sides: a difference (with its witness situation and each side's
    ruling), no difference, not comparable, or unknown (Z3 gave no answer in time)."""

    check: str
    kind: str
    a: str
    b: str
    status: str  # "difference", "no difference", "not comparable", "unknown"
    summary: str
    rulings: dict[str, str] = field(default_factory=dict)
    predicted: dict[str, Any] = field(default_factory=dict)  # label -> answer fields predicted by Z3
    situation: dict[str, Any] = field(default_factory=dict)
    engine_confirmed: bool | None = None
    seconds: float = 0.0
    minimal: bool = False  # True when z3.Optimize finished: smallest by the check's size measure
    # What the witness's rulings rest on besides the documents' words: clauses marked as assumptions (numbers
    # borrowed from another document) and the readings of the ambiguity register the rulings take.
    assumptions: list[str] = field(default_factory=list)
    readings: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The comparison as JSON (``tarneeb diff --json``)."""
        return {"check": self.check, "kind": self.kind, "title": CHECK_TITLES[self.check], "a": self.a,
                "b": self.b, "status": self.status, "summary": self.summary, "rulings": self.rulings,
                "predicted": self.predicted, "situation": self.situation,
                "engine_confirmed": self.engine_confirmed, "minimal": self.minimal,
                "seconds": round(self.seconds, 3), "assumptions": self.assumptions, "readings": self.readings}


class _NotComparable(Exception):
    pass


@dataclass
class _Problem:
    constraints: list[Term]
    answer_a: list[Term]
    answer_b: list[Term]
    objective: Term
    build: Callable[[z3.ModelRef], tuple[dict[str, Any], str]]  # model -> (situation facts, description)
    answer: Callable[[Rules, z3.ModelRef, list[Term]], dict[str, Any]]  # predicted answer fields


def _ival(m: z3.ModelRef, x: Term) -> int:
    return int(m.eval(x, model_completion=True).as_long())


def _same_family(a: Rules, b: Rules) -> None:
    if a.individual != b.individual:
        raise _NotComparable("one ruleset has individual bids and the other a team auction; this question "
                             "has no common form")


# ------------------------------------------------------------------ encodings per check


def _p_trump(a: Encoding, b: Encoding, check: str) -> _Problem:
    cons: list[Term] = []
    rv = _card("revealed", cons)
    # No contract stated: auction rulesets answer "named at the auction".
    ta, tb = (e.trump_suit(rv, NAMED) for e in (a, b))

    def build(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
        c = _ival(m, rv)
        return {"dealer": 0, "revealed": card_str(c), "question": {"kind": "trump"}}, f"the dealer's turned card is {card_str(c)}"

    def answer(rules: Rules, m: z3.ModelRef, terms: list[Term]) -> dict[str, Any]:
        v = _ival(m, terms[0])
        return {"trump": None if v == NAMED else "CDHSN"[v]}

    return _Problem(cons, [ta], [tb], _n(rv), build, answer)


def _p_bid(a: Encoding, b: Encoding, check: str) -> _Problem:
    bid, score = z3.Int("bid"), z3.Int("score")
    if a.r.individual and b.r.individual:
        cons = [bid >= 0, bid <= 13, score >= -60, score <= 60]

        def build(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
            n, s = _ival(m, bid), _ival(m, score)
            return ({"dealer": 0, "scores": [0, s, 0, 0], "question": {"kind": "bid-legal", "seat": 1, "bid": n}},
                    f"{player_name(1)}, on {s} points, bids {n}")

        def answer(rules: Rules, m: z3.ModelRef, terms: list[Term]) -> dict[str, Any]:
            return {"legal": _ival(m, terms[0]) == 1}

        la, lb = (_flag(e.legal_bid(score, bid)) for e in (a, b))
        # Stay off the ambiguous edges: a score exactly at a rising-minimum threshold ("3 from 30") is ruled
        # differently by the two readings of rising-min-threshold, so such a witness costs more.
        edges = sorted({th for e in (a, b) if e.r.rising_min for th, _ in e.r.rising_table})
        penalty = z3.Sum([z3.If(score == th, 1000, 0) for th in edges]) if edges else z3.IntVal(0)
        return _Problem(cons, [la], [lb], _abs(score) + bid + penalty, build, answer)
    _same_family(a.r, b.r)
    if a.r.egyptian or b.r.egyptian:
        raise _NotComparable("Egyptian (suit-naming) bids are not encoded for this check")
    # Auction: the first speaker (no call yet), or the dealer after three calls of the first round.
    call, top, dealer_turn = z3.Int("call"), z3.Int("top"), z3.Bool("dealer_turn")
    cons = [z3.Or(call == -1, z3.And(call >= 1, call <= 13)), z3.Or(top == -1, z3.And(top >= 1, top <= 13)),
            z3.Implies(z3.Not(dealer_turn), top == -1)]
    n_ = z3.If(call == -1, PASS, call)

    def legal(e: Encoding) -> Term:
        st, earlier = _dealer_turn(e, top)
        cons.extend(earlier)  # the earlier calls were legal under both
        return _flag(z3.If(dealer_turn, e.call_ok(st, DEALER, n_, PASS),
                           e.call_ok(e.auction_start(DEALER), DEALER, n_, PASS)))

    def build_a(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
        c, t, d = _ival(m, call), _ival(m, top), bool(z3.is_true(m.eval(dealer_turn, model_completion=True)))
        calls = [] if not d else (["pass", "pass", "pass"] if t == -1 else ["pass", "pass", str(t)])
        what = "pass" if c == -1 else str(c)
        where = "first to speak" if not d else ("the dealer, after three passes" if t == -1
                                                 else f"the dealer, after a top bid of {t}")
        return ({"dealer": 0, "auction": calls, "question": {"kind": "bid-legal", "bid": what}},
                f"{where}, calls {what}")

    def answer_a(rules: Rules, m: z3.ModelRef, terms: list[Term]) -> dict[str, Any]:
        return {"legal": _ival(m, terms[0]) == 1}

    la, lb = legal(a), legal(b)
    return _Problem(cons, [la], [lb], z3.If(call == -1, 0, call) + z3.If(dealer_turn, 1, 0), build_a, answer_a)


def _p_score(a: Encoding, b: Encoding, check: str) -> _Problem:
    _same_family(a.r, b.r)
    if a.r.individual:
        bid, tr = z3.Int("bid"), z3.Int("tricks")
        zero = z3.IntVal(0)
        filler = 4  # the other three seats bid 4: legal and worth 4 in every table here
        cons = [tr >= 0, tr <= 13, a.legal_bid(zero, bid), b.legal_bid(zero, bid)]

        def build(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
            n, t = _ival(m, bid), _ival(m, tr)
            return ({"dealer": 3, "scores": [0, 0, 0, 0], "bids": [n, filler, filler, filler],
                     "tricks": [t, 13 - t, 0, 0], "question": {"kind": "score"}},
                    f"{player_name(0)} bids {n} and takes {t} trick{'s' * (t != 1)} (the others bid {filler})")

        def answer(rules: Rules, m: z3.ModelRef, terms: list[Term]) -> dict[str, Any]:
            return {"delta0": _ival(m, terms[0])}

        for e in (a, b):
            cons.append(e.hand_played([bid] + [z3.IntVal(filler)] * 3, [zero] * 4))
            if not z3.is_true(z3.simplify(e.legal_bid(zero, z3.IntVal(filler)))):
                raise _NotComparable(f"the filler bid {filler} is not legal under {e.r.label()}")
        return _Problem(cons, [a.individual_delta(bid, tr)], [b.individual_delta(bid, tr)], bid * 14 + tr,
                        build, answer)
    n, tb = z3.Int("contract"), z3.Int("bidder_tricks")
    cons = [tb >= 0, tb <= 13, _opening_ok(a, n), _opening_ok(b, n)]
    da, db = (list(e.team_deltas(n, z3.IntVal(0), tb)) for e in (a, b))  # team 0 holds the contract

    def build_c(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
        c, t = _ival(m, n), _ival(m, tb)
        return ({"dealer": 3, "scores": [0, 0], "contract": {"seat": 0, "bid": c, "trump": "S"},
                 "tricks": [t, 13 - t, 0, 0], "question": {"kind": "score"}},
                f"{player_name(0)} holds the contract at {c}; {team_label(0)} takes {t} trick{'s' * (t != 1)}")

    def answer_c(rules: Rules, m: z3.ModelRef, terms: list[Term]) -> dict[str, Any]:
        return {"delta0": _ival(m, terms[0]), "delta1": _ival(m, terms[1])}

    return _Problem(cons, da, db, n * 14 + (13 - tb), build_c, answer_c)


def _p_redeal(a: Encoding, b: Encoding, check: str) -> _Problem:
    _same_family(a.r, b.r)
    if a.r.weak_redeal or b.r.weak_redeal:
        raise _NotComparable("not encoded: the weak-hand redeal depends on the whole deal")
    if not a.r.individual:
        # The only auction redeal encoded: all four pass (weak-hand redeals depend on the whole deal).
        def ans(e: Encoding) -> list[Term]:
            st, _ = _dealer_turn(e, z3.IntVal(-1))  # three passes
            ok = e.call_ok(st, DEALER, PASS, PASS)  # may the dealer pass too?
            after = e.auction_step(st, PASS, PASS)
            redealt = z3.And(after.ended, after.top < 0)
            return [z3.If(ok, _flag(redealt), -1), z3.If(ok, e.dealer_after_redeal(DEALER), -1)]

        forced = "dealer-forced" in (a.r.all_pass, b.r.all_pass)

        def build_c(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
            if forced:
                return ({"dealer": 0, "auction": ["pass", "pass", "pass"],
                         "question": {"kind": "bid-legal", "bid": "pass"}},
                        "the first three players pass; the dealer wants to pass too")
            return ({"dealer": 0, "auction": ["pass"] * 4, "question": {"kind": "redeal"}}, "all four players pass")

        def answer_c(rules: Rules, m: z3.ModelRef, terms: list[Term]) -> dict[str, Any]:
            if forced:
                return {"legal": _ival(m, terms[0]) >= 0}
            return {"redeal": _ival(m, terms[0]) == 1, "dealer": _ival(m, terms[1]) % 4}

        return _Problem([], ans(a), ans(b), z3.IntVal(0), build_c, answer_c)
    bids = [z3.Int(f"bid{k}") for k in range(4)]
    zero = z3.IntVal(0)
    cons = [z3.And(a.legal_bid(zero, x), b.legal_bid(zero, x)) for x in bids]

    def ans_i(e: Encoding) -> list[Term]:
        red = z3.Not(e.hand_played(bids, [zero] * 4))
        return [_flag(red), z3.If(red, e.dealer_after_redeal(DEALER), e.next_seat(DEALER))]

    if check == "redeal-dealer":
        cons += [z3.Not(a.hand_played(bids, [zero] * 4)), z3.Not(b.hand_played(bids, [zero] * 4))]

    def build(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
        bs = [_ival(m, x) for x in bids]
        # the scores the encodings played the deal on, where a ruleset's bid total depends on them (raised-total)
        at = {"scores": [0, 0, 0, 0]} if a.r.total_table or b.r.total_table else {}
        return ({"dealer": 0, "bids": bs, **at, "question": {"kind": "redeal"}},
                f"{player_name(0)} deals; the bids are {', '.join(map(str, bs))} (total {sum(bs)})")

    def answer(rules: Rules, m: z3.ModelRef, terms: list[Term]) -> dict[str, Any]:
        return {"redeal": _ival(m, terms[0]) == 1, "dealer": _ival(m, terms[1]) % 4}

    return _Problem(cons, ans_i(a), ans_i(b), sum(bids), build, answer)


def _p_winner(a: Encoding, b: Encoding, check: str) -> _Problem:
    _same_family(a.r, b.r)
    if a.r.individual:
        s = [z3.Int(f"before{k}") for k in range(4)]
        bids = [z3.Int(f"bid{k}") for k in range(4)]
        tr = [z3.Int(f"tricks{k}") for k in range(4)]
        cons: list[Term] = [sum(tr) == 13]
        for k in range(4):
            cons += [tr[k] >= 0, s[k] >= -100, s[k] <= 100, a.legal_bid(s[k], bids[k]), b.legal_bid(s[k], bids[k])]
        cons += [a.hand_played(bids, s), b.hand_played(bids, s)]
        after_a = [s[k] + a.individual_delta(bids[k], tr[k]) for k in range(4)]
        after_b = [s[k] + b.individual_delta(bids[k], tr[k]) for k in range(4)]
        # Nobody had won before the hand (under either ruleset).
        cons += [a.individual_outcome(s).play_on, b.individual_outcome(s).play_on]
        if check == "tie-rule":
            cons += [after_a[k] == after_b[k] for k in range(4)]
            for e, aft in ((a, after_a), (b, after_b)):
                cons += [e.team_qualifies(aft[0], aft[2]), e.team_qualifies(aft[1], aft[3])]
                cons.append(z3.Not(z3.Or(e.made_bid_win(bids, tr))))  # the tie rule decides, not a made bid
        oa = a.individual_outcome(after_a, bids, tr).winner()
        ob = b.individual_outcome(after_b, bids, tr).winner()
        size = sum(_abs(x) for x in s) + sum(bids)

        def build(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
            sv, bv, tv = ([_ival(m, x) for x in xs] for xs in (s, bids, tr))
            return ({"dealer": 3, "scores": sv, "bids": bv, "tricks": tv, "question": {"kind": "winner"}},
                    f"players 1 to 4: scores before the hand {sv}; bids {bv}; tricks taken {tv}")

        def answer(rules: Rules, m: z3.ModelRef, terms: list[Term]) -> dict[str, Any]:
            v = _ival(m, terms[0])
            return {"winner": None if v < 0 else v}

        return _Problem(cons, [oa], [ob], size, build, answer)
    if check == "tie-rule":
        raise _NotComparable("the auction family breaks every tie the same way (the bidding team wins)")
    x = [z3.Int("team0"), z3.Int("team1")]
    n, tb = z3.Int("contract"), z3.Int("bidder_tricks")
    team0, first_game = z3.IntVal(0), z3.IntVal(0)  # team 0 holds the contract; no game won yet
    cons = [tb >= 0, tb <= 13, _opening_ok(a, n), _opening_ok(b, n), x[0] >= -100, x[1] >= -100]
    # Nobody had won before the hand (under either ruleset).
    cons += [e.auction_outcome(x, e.target_in_force(first_game), team0, z3.BoolVal(False)).play_on for e in (a, b)]

    def out(e: Encoding) -> Term:
        d0, d1 = e.team_deltas(n, team0, tb)
        return e.auction_outcome([x[0] + d0, x[1] + d1], e.target_in_force(first_game), team0,
                                 e.bid13_wins(n, tb)).winner()

    def build_c(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
        xs, c, t = [_ival(m, v) for v in x], _ival(m, n), _ival(m, tb)
        return ({"dealer": 3, "scores": xs, "contract": {"seat": 0, "bid": c, "trump": "S"},
                 "tricks": [t, 13 - t, 0, 0], "question": {"kind": "winner"}},
                f"before the hand {team_label(0)} has {xs[0]} points and {team_label(1)} {xs[1]}; {player_name(0)} "
                f"holds the contract at {c}; {team_label(0)} takes {t} trick{'s' * (t != 1)}")

    def answer_c(rules: Rules, m: z3.ModelRef, terms: list[Term]) -> dict[str, Any]:
        v = _ival(m, terms[0])
        return {"winner": None if v < 0 else v}

    return _Problem(cons, [out(a)], [out(b)], _abs(x[0]) + _abs(x[1]) + n, build_c, answer_c)


def _p_card(a: Encoding, b: Encoding, check: str) -> _Problem:
    hand = z3.BitVec("hand", 52)
    led, ct = z3.BitVec("led", 6), z3.BitVec("contract_trump", 6)
    cons: list[Term] = [z3.ULT(led, 4), z3.ULE(ct, 4)]
    card, rv = _card("card", cons), _card("revealed", cons)
    cons += [rv != card, holds(hand, card), z3.Not(holds(hand, rv))]  # the turned card is the dealer's
    popcount = popcount52(hand)
    cons.append(z3.ULE(popcount, 12))  # the asking seat has played no card yet this trick; one trick is gone
    asking = (1 + a.r.step) % 4
    dealer = 0 if asking != 0 else 2

    def legal(e: Encoding) -> Term:
        return _flag(e.legal_play(hand, led, e.trump_suit(rv, ct), card))

    def build(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
        h = _ival(m, z3.BV2Int(hand))
        c, lv, t = _ival(m, card), _ival(m, led), _ival(m, ct)
        cards = [card_str(x) for x in range(52) if h >> x & 1]
        voids = [SUITS[s] for s in range(4) if not any(x // 13 == s for x in range(52) if h >> x & 1)]
        lead_card = next(x for x in range(52 - 1, -1, -1) if x // 13 == lv and not h >> x & 1 and x != _ival(m, rv))
        facts = {"dealer": dealer, "revealed": card_str(_ival(m, rv)),
                 "contract": {"seat": 1, "bid": 7, "trump": "CDHSN"[t]}, "hands": {str(asking): cards},
                 "voids": {str(asking): voids}, "trick": {"leader": 1, "cards": [card_str(lead_card)]},
                 "question": {"kind": "card-legal", "card": card_str(c)}}
        return facts, (f"{player_name(1)} leads {card_str(lead_card)}; {player_name(asking)}, next to play, holds "
                       f"{' '.join(cards)} (no "
                       f"{', '.join(SUIT_NAMES[SUITS.index(v)] for v in voids) or 'void'}) and plays {card_str(c)}")

    def answer(rules: Rules, m: z3.ModelRef, terms: list[Term]) -> dict[str, Any]:
        return {"legal": _ival(m, terms[0]) == 1}

    # Direction changes whose turn it is; the witness puts the asking seat after the leader in both.
    if a.r.step != b.r.step:
        raise _NotComparable("the rulesets play in opposite directions, so the same trick reaches different "
                             "players; compare them with the same direction option")
    return _Problem(cons, [legal(a)], [legal(b)], _n(popcount) * 64 + _n(card), build, answer)


def _p_trick(a: Encoding, b: Encoding, check: str) -> _Problem:
    ct = z3.BitVec("contract_trump", 6)
    cons: list[Term] = [z3.ULE(ct, 4)]
    cs = [_card(f"c{i}", cons) for i in range(4)]
    rv = _card("revealed", cons)

    def winner(e: Encoding) -> Term:
        return e.trick_winner_seat(cs, e.trump_suit(rv, ct), seat2(1))  # seat 1 leads

    def build(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
        cards = [card_str(_ival(m, c)) for c in cs]
        t = _ival(m, ct)
        facts = {"dealer": 0, "revealed": card_str(_ival(m, rv)),
                 "contract": {"seat": 1, "bid": 7, "trump": "CDHSN"[t]},
                 "trick": {"leader": 1, "cards": cards}, "question": {"kind": "trick-winner"}}
        return facts, (f"the dealer, {player_name(0)}, turned {card_str(_ival(m, rv))}; {player_name(1)} leads; "
                       f"the trick is {' '.join(cards)}")

    def answer(rules: Rules, m: z3.ModelRef, terms: list[Term]) -> dict[str, Any]:
        return {"winner": _ival(m, terms[0])}

    cons += [z3.Distinct(rv, *cs)]
    return _Problem(cons, [winner(a)], [winner(b)], z3.Sum([z3.ZeroExt(4, c) for c in (*cs, rv)]), build, answer)


def _p_next_dealer(a: Encoding, b: Encoding, check: str) -> _Problem:
    cancelled = z3.Bool("cancelled")

    def nxt(e: Encoding) -> Term:
        return z3.If(cancelled, e.dealer_after_redeal(DEALER), e.next_seat(DEALER))

    def build(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
        c = bool(z3.is_true(m.eval(cancelled, model_completion=True)))
        return ({"dealer": 0, "hand": "cancelled" if c else "played", "question": {"kind": "next-dealer"}},
                f"{player_name(0)} dealt; the hand was {'cancelled' if c else 'played'}")

    def answer(rules: Rules, m: z3.ModelRef, terms: list[Term]) -> dict[str, Any]:
        return {"dealer": _ival(m, terms[0]) % 4}

    return _Problem([], [nxt(a)], [nxt(b)], z3.If(cancelled, 1, 0), build, answer)


_ENCODERS: dict[str, Callable[[Encoding, Encoding, str], _Problem]] = {
    "trump": _p_trump, "bid-legal": _p_bid, "score": _p_score, "redeal": _p_redeal, "redeal-dealer": _p_redeal,
    "winner": _p_winner, "tie-rule": _p_winner, "card-legal": _p_card, "trick-winner": _p_trick,
    "next-dealer": _p_next_dealer,
}


# ------------------------------------------------------------------ search


def _engine_answers(sit: dict[str, Any], a: Side, b: Side, kind: str) -> tuple[dict[str, dict[str, Any]], Any] | None:
    """Rulings of the engine on the witness (via the dispute resolver), by label, and the report; None if it
    cannot rule."""
    from tarneeb.errors import TarneebError

    try:
        rep = resolve(parse_situation({**sit, "ruleset": [a.entry(), b.entry()]}, "(witness)"))
    except TarneebError:
        return None
    return {x.label: dict(x.answer, _text=x.text, _status=x.status) for x in rep.rulings}, rep


def rests_on(rep: Any) -> tuple[list[str], list[str]]:
    """(assumptions, readings) the rulings of a report rest on: deciding clauses whose own wording marks them as
    an assumption (a number borrowed from another document), and the reading each ruling takes of every
    ambiguity that bears on it (noting when another reading would rule differently)."""
    assumptions: list[str] = []
    readings: list[str] = []
    for x in rep.rulings:
        for c in x.clauses:
            if c.text.lower().startswith("assumption"):
                assumptions.append(f"{x.label}: {c.id} ({c.text})")
        for a in x.ambiguities:
            taken = [r.id for r in a.readings if r.taken]
            if not taken:
                continue
            note = ("; another reading rules differently" if a.changes_ruling else
                    "; another reading is not computed" if any(r.answer is None for r in a.readings) else "")
            readings.append(f"{x.label}: {a.id} read as {taken[0]}{note}")
    return assumptions, readings


def find(a: Side, b: Side, check: str, timeout_ms: int = 20000) -> Comparison:
    """Search one check for a situation where ``a`` and ``b`` rule differently."""
    kind = CHECKS[check]
    t0 = time.perf_counter()
    try:
        p = _ENCODERS[check](Encoding(a.rules), Encoding(b.rules), check)
    except _NotComparable as e:
        return Comparison(check, kind, a.label, b.label, "not comparable", str(e), seconds=time.perf_counter() - t0)
    differ = z3.Or(*[x != y for x, y in zip(p.answer_a, p.answer_b, strict=True)])
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*p.constraints, differ)
    res = solver.check()
    if res == z3.unsat:
        return Comparison(check, kind, a.label, b.label, "no difference",
                       "no difference: no situation of this form tells them apart (Z3 proved it)",
                       seconds=time.perf_counter() - t0)
    if res != z3.sat:
        return Comparison(check, kind, a.label, b.label, "unknown",
                          "the search gave up before finding a situation that tells them apart or proving there "
                          f"is none (Z3: {solver.reason_unknown()})",
                       seconds=time.perf_counter() - t0)
    m = solver.model()
    minimal = False
    opt = z3.Optimize()
    opt.set("timeout", timeout_ms)
    opt.add(*p.constraints, differ)
    opt.minimize(p.objective)
    if opt.check() == z3.sat:
        m, minimal = opt.model(), True
    facts, desc = p.build(m)
    pa, pb = p.answer(a.rules, m, p.answer_a), p.answer(b.rules, m, p.answer_b)
    situation = {"title": f"{a.label} vs {b.label}: {CHECK_TITLES[check]}", "ruleset": [a.entry(), b.entry()],
                 **facts}
    w = Comparison(check, kind, a.label, b.label, "difference", desc, predicted={a.label: pa, b.label: pb},
                situation=situation, minimal=minimal)
    got = _engine_answers(facts, a, b, situation["question"]["kind"])
    eng = None if got is None else got[0]
    if got is not None:
        w.assumptions, w.readings = rests_on(got[1])
    if eng is not None and a.label in eng and b.label in eng:
        qk = situation["question"]["kind"]
        w.rulings = {a.label: str(eng[a.label]["_text"]), b.label: str(eng[b.label]["_text"])}
        w.engine_confirmed = (_agrees(qk, pa, eng[a.label]) and _agrees(qk, pb, eng[b.label])
                              and short_answer(qk, eng[a.label]) != short_answer(qk, eng[b.label]))
    else:
        w.engine_confirmed = False
    w.seconds = time.perf_counter() - t0
    return w


def _agrees(kind: str, predicted: dict[str, Any], engine: dict[str, Any]) -> bool:
    if engine.get("_status") != "ruled":
        return False
    for k, v in predicted.items():
        if k == "delta0":
            if engine["deltas"][0] != v:
                return False
        elif k == "delta1":
            if engine["deltas"][1] != v:
                return False
        elif engine.get(k) != v:
            return False
    return True


def diff(a: str | Side, b: str | Side, checks: Sequence[str] | None = None,
         timeout_ms: int = 20000) -> list[Comparison]:
    """One :class:`Comparison` per check (all checks, or those named; a question kind names all its checks)."""
    sa = a if isinstance(a, Side) else parse_side(a)
    sb = b if isinstance(b, Side) else parse_side(b)
    wanted: list[str] = []
    for c in checks or list(CHECKS):
        if c in CHECKS:
            wanted.append(c)
        elif c in KINDS:
            wanted += [k for k, v in CHECKS.items() if v == c]
        else:
            raise ConfigError("(diff)", c, f"unknown question; valid: {', '.join(dict.fromkeys([*KINDS, *CHECKS]))}")
    return [find(sa, sb, c, timeout_ms) for c in dict.fromkeys(wanted)]


def row_witnesses(a: str, b: str, rows: Sequence[str] | None = None) -> dict[str, Comparison]:
    """For the docs' comparison page: row name (``ROWS``) -> witness between rulesets ``a`` and ``b``."""
    names = list(rows or ROWS)
    for r in names:
        if r not in ROWS:
            raise ConfigError("(diff)", r, f"unknown comparison row; valid: {', '.join(ROWS)}")
    by_check = {w.check: w for w in diff(a, b, sorted({ROWS[r] for r in names}))}
    return {r: by_check[ROWS[r]] for r in names}


def witness_text(w: Comparison) -> str:
    """A comparison for a reader: the verdict, and for a difference its situation, rulings and what they rest on."""
    head = f"{w.check} ({CHECK_TITLES[w.check]}): "
    if w.status != "difference":
        return head + w.summary
    lines = [head + "DIFFERENCE" + ("" if w.minimal else " (witness not minimised: the optimiser timed out)"),
             f"  situation: {w.summary}"]
    for label, text in w.rulings.items():
        lines.append(f"  {label}: {text}")
    lines.append("  checked against the engine: " + ("yes, they differ as predicted" if w.engine_confirmed
                                                     else "NO (the engine does not confirm this witness)"))
    lines.append("  rests on: " + ("; ".join(w.assumptions + w.readings) or
                                   "the documents' own words (no assumption, no ambiguity reading)"))
    return "\n".join(lines)


__all__ = ["CHECKS", "CHECK_TITLES", "ROWS", "Side", "Comparison", "diff", "find", "parse_side", "row_witnesses",
           "witness_text"]
