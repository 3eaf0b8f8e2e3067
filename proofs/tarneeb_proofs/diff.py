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
* ``unsat``: "no difference", proved for the encoded situation space;
* the two rulesets belong to different bidding families and the question has
  no shared form: "not comparable".

A ruleset is written ``ID`` or ``ID:option=value,option=value``.

For the documentation: :func:`row_witnesses` returns, for two rulesets, one
:class:`Witness` per comparison row (``ROWS``: row id -> check id, e.g.
``"tie rule" -> "tie-rule"``); :func:`diff` returns every check's result;
:meth:`Witness.to_json` gives ``{"check", "kind", "status", "summary",
"rulings": {label: text}, "situation": {...}, "engine_confirmed"}`` where
``situation`` can be written out as a TOML/JSON situation file and fed to
``tarneeb ruling``.

The encodings here are self-contained (they predate the shared encodings of
``tarneeb_proofs``); each one mirrors a function of :mod:`tarneeb.core.rules`, and
every witness is re-checked against the engine.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

import z3

from tarneeb.core.cards import SUIT_NAMES, SUITS, card_str
from tarneeb.core.spec import OptionValue, Rules, get_ruleset, load_rules
from tarneeb.errors import ConfigError
from tarneeb.ruling import KINDS, parse_situation, resolve, short_answer

Z: TypeAlias = z3.ArithRef
B: TypeAlias = z3.BoolRef

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
    spec: str
    rules: Rules
    options: dict[str, OptionValue]

    @property
    def label(self) -> str:
        return self.rules.label()

    def entry(self) -> dict[str, Any] | str:
        return {"id": self.rules.id, "options": dict(self.options)} if self.options else self.rules.id


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


# ------------------------------------------------------------------ helpers


def _table(index: Z, values: Sequence[int], default: int = 0) -> Z:
    """values[index] as a nested If."""
    out: Z = z3.IntVal(default)
    for i, v in enumerate(values):
        out = z3.If(index == i, v, out)
    return out


def _card_var(name: str, cons: list[B]) -> tuple[Z, Z]:
    """A card 0..51 as an Int with its suit as a second Int (card = 13 * suit + rank; no division for Z3)."""
    c, s, r = z3.Int(name), z3.Int(name + "_suit"), z3.Int(name + "_rank")
    cons += [s >= 0, s <= 3, r >= 0, r <= 12, c == 13 * s + r]
    return c, s


def _abs(x: Z) -> Z:
    return z3.If(x >= 0, x, -x)


def _trump_term(r: Rules, revealed_suit: Z, contract_trump: Z) -> Z:
    """rules.trump_from_reveal / fixed / contract: 0..3, 4 no trump; 5 = named at the auction (no contract)."""
    if r.trump_source == "fixed":
        return z3.IntVal(r.fixed_suit)
    if r.trump_source == "revealed-same-colour":
        return 3 - revealed_suit  # cards.SAME_COLOUR = (3, 2, 1, 0)
    if r.trump_source == "revealed-suit":
        return revealed_suit
    return contract_trump


def _min_bid(r: Rules, score: Z) -> Z:
    """rules.min_bid_for."""
    lo: Z = z3.IntVal(r.bid_min)
    if r.rising_min:
        for threshold, m in r.rising_table:
            lo = z3.If(z3.And(score >= threshold, lo < m), m, lo)
    return lo


def _legal_bid(r: Rules, score: Z, bid: Z) -> B:
    """rules.bid_violation is None (bid -1 = pass)."""
    conds = [bid >= r.bid_min, bid <= r.bid_max, bid >= _min_bid(r, score)]
    conds += [bid != x for x in sorted(r.bid_excluded)]
    return z3.And(*conds)


def _value(r: Rules, bid: Z) -> Z:
    return _table(bid, r.values)


def _delta(r: Rules, bid: Z, tricks: Z) -> Z:
    """rules.individual_delta."""
    v = _value(r, bid)
    return z3.If(tricks >= bid, v, -v)


def _qualifies(r: Rules, a: Z, b: Z) -> B:
    """rules.team_qualifies."""
    return z3.Or(z3.And(a >= r.target, b > 0), z3.And(b >= r.target, a > 0))


def _outcome(r: Rules, s: Sequence[Z], made10: Z) -> Z:
    """rules.individual_outcome: -1 no winner, else the team. made10: seat that bid 10 and made it, or -1."""
    q0, q1 = _qualifies(r, s[0], s[2]), _qualifies(r, s[1], s[3])
    if r.tie_rule == "combined":
        a, b = s[0] + s[2], s[1] + s[3]
    else:
        a = z3.If(s[0] >= s[2], s[0], s[2])
        b = z3.If(s[1] >= s[3], s[1], s[3])
    tie = z3.If(a == b, -1, z3.If(a > b, 0, 1))
    out = z3.If(z3.And(q0, q1), tie, z3.If(q0, 0, z3.If(q1, 1, -1)))
    if r.made_bid_wins == 10:
        out = z3.If(made10 >= 0, made10 % 2, out)
    elif r.made_bid_wins:
        raise NotImplementedError("made_bid_wins other than 10 is not encoded")
    return out


def _kaboot(r: Rules, usual: Z) -> Z:
    return {"16": z3.IntVal(16), "26": z3.IntVal(26), "double": 2 * usual, "none": usual}[r.kaboot]


def _team_deltas(r: Rules, n: Z, tb: Z) -> tuple[Z, Z]:
    """rules.team_deltas for bidding team 0 taking ``tb`` tricks: (bidders, defenders)."""
    made = tb >= n
    if r.score_style == "standard":
        d_bt: Z = z3.If(made, tb, -n)
        d_dt: Z = z3.If(made, 0, 13 - tb)
    else:
        d_bt = z3.If(made, n, -n)
        d_dt = z3.IntVal(0)
    if r.bid13 == "26":
        d_bt = z3.If(n == 13, z3.If(made, 26, -16), z3.If(tb == 13, _kaboot(r, d_bt), d_bt))
    elif r.bid13 == "win":
        d_bt = z3.If(z3.And(n == 13, made), d_bt, z3.If(tb == 13, _kaboot(r, d_bt), d_bt))
    else:
        d_bt = z3.If(tb == 13, _kaboot(r, d_bt), d_bt)
    if r.score_style == "standard":
        d_dt = z3.If(tb == 0, _kaboot(r, d_dt), d_dt)
    return d_bt, d_dt


# ------------------------------------------------------------------ witness


@dataclass
class Witness:
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

    def to_json(self) -> dict[str, Any]:
        return {"check": self.check, "kind": self.kind, "title": CHECK_TITLES[self.check], "a": self.a,
                "b": self.b, "status": self.status, "summary": self.summary, "rulings": self.rulings,
                "predicted": self.predicted, "situation": self.situation,
                "engine_confirmed": self.engine_confirmed, "minimal": self.minimal,
                "seconds": round(self.seconds, 3)}


class _NotComparable(Exception):
    pass


@dataclass
class _Problem:
    constraints: list[B]
    answer_a: list[Z]
    answer_b: list[Z]
    objective: Z
    build: Callable[[z3.ModelRef], tuple[dict[str, Any], str]]  # model -> (situation facts, description)
    answer: Callable[[Rules, z3.ModelRef, list[Z]], dict[str, Any]]  # predicted answer fields


def _ival(m: z3.ModelRef, x: Z) -> int:
    return int(m.eval(x, model_completion=True).as_long())


def _same_family(a: Rules, b: Rules) -> None:
    if a.individual != b.individual:
        raise _NotComparable("one ruleset has individual bids and the other a team auction; this question "
                             "has no common form")


# ------------------------------------------------------------------ encodings per check


def _p_trump(a: Rules, b: Rules, check: str) -> _Problem:
    ct = z3.Int("contract_trump")
    cons: list[B] = [ct == 5]  # no contract stated: auction rulesets answer "named at the auction"
    rv, rvs = _card_var("revealed", cons)
    ta, tb = _trump_term(a, rvs, ct), _trump_term(b, rvs, ct)

    def build(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
        c = _ival(m, rv)
        return {"dealer": 0, "revealed": card_str(c), "question": {"kind": "trump"}}, f"the dealer's turned card is {card_str(c)}"

    def answer(r: Rules, m: z3.ModelRef, terms: list[Z]) -> dict[str, Any]:
        v = _ival(m, terms[0])
        return {"trump": None if v == 5 else "CDHSN"[v]}

    return _Problem(cons, [ta], [tb], rv, build, answer)


def _p_bid(a: Rules, b: Rules, check: str) -> _Problem:
    bid, score = z3.Int("bid"), z3.Int("score")
    if a.individual and b.individual:
        cons = [bid >= 0, bid <= 13, score >= -60, score <= 60]

        def build(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
            n, s = _ival(m, bid), _ival(m, score)
            return ({"dealer": 0, "scores": [0, s, 0, 0], "question": {"kind": "bid-legal", "seat": 1, "bid": n}},
                    f"seat 1, on {s} points, bids {n}")

        def answer(r: Rules, m: z3.ModelRef, terms: list[Z]) -> dict[str, Any]:
            return {"legal": _ival(m, terms[0]) == 1}

        la = z3.If(_legal_bid(a, score, bid), 1, 0)
        lb = z3.If(_legal_bid(b, score, bid), 1, 0)
        return _Problem(cons, [la], [lb], _abs(score) + bid, build, answer)
    _same_family(a, b)
    if a.egyptian or b.egyptian:
        raise _NotComparable("Egyptian (suit-naming) bids are not encoded for this check")
    # Auction: the first speaker (no call yet), or the dealer after three calls of the first round.
    call, top, dealer_turn = z3.Int("call"), z3.Int("top"), z3.Bool("dealer_turn")
    cons = [z3.Or(call == -1, z3.And(call >= 1, call <= 13)), z3.Or(top == -1, z3.And(top >= 7, top <= 13)),
            z3.Implies(z3.Not(dealer_turn), top == -1)]
    cons += [z3.Or(top == -1, top >= r.min_bid) for r in (a, b)]  # the earlier calls were legal under both

    def legal(r: Rules) -> Z:
        forced = r.all_pass == "dealer-forced"
        privilege = r.auction_style == "dealer-privilege"
        pass_ok = z3.Not(z3.And(forced, dealer_turn, top == -1)) if forced else z3.BoolVal(True)
        raise_ok = z3.And(call >= r.min_bid, call <= 13,
                          z3.Or(call > top, z3.And(dealer_turn, z3.BoolVal(privilege), call == top)))
        return z3.If(z3.If(call == -1, pass_ok, raise_ok), 1, 0)

    def build_a(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
        c, t, d = _ival(m, call), _ival(m, top), bool(z3.is_true(m.eval(dealer_turn, model_completion=True)))
        calls = [] if not d else (["pass", "pass", "pass"] if t == -1 else ["pass", "pass", str(t)])
        what = "pass" if c == -1 else str(c)
        where = "first to speak" if not d else ("the dealer, after three passes" if t == -1
                                                 else f"the dealer, after a top bid of {t}")
        return ({"dealer": 0, "auction": calls, "question": {"kind": "bid-legal", "bid": what}},
                f"{where}, calls {what}")

    def answer_a(r: Rules, m: z3.ModelRef, terms: list[Z]) -> dict[str, Any]:
        return {"legal": _ival(m, terms[0]) == 1}

    return _Problem(cons, [legal(a)], [legal(b)], z3.If(call == -1, 0, call) + z3.If(dealer_turn, 1, 0),
                    build_a, answer_a)


def _p_score(a: Rules, b: Rules, check: str) -> _Problem:
    _same_family(a, b)
    if a.individual:
        bid, tr = z3.Int("bid"), z3.Int("tricks")
        zero = z3.IntVal(0)
        cons = [tr >= 0, tr <= 13, _legal_bid(a, zero, bid), _legal_bid(b, zero, bid)]
        filler = 4  # the other three seats bid 4: legal and worth 4 in every table here

        def build(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
            n, t = _ival(m, bid), _ival(m, tr)
            return ({"dealer": 3, "scores": [0, 0, 0, 0], "bids": [n, filler, filler, filler],
                     "tricks": [t, 13 - t, 0, 0], "question": {"kind": "score"}},
                    f"seat 0 bids {n} and takes {t} trick{'s' * (t != 1)} (the others bid {filler})")

        def answer(r: Rules, m: z3.ModelRef, terms: list[Z]) -> dict[str, Any]:
            return {"delta0": _ival(m, terms[0])}

        for r in (a, b):
            cons.append(bid + 3 * filler >= r.total_min)
            if any(x for x in (filler,) if x in r.bid_excluded or x < r.bid_min):
                raise _NotComparable(f"the filler bid {filler} is not legal under {r.label()}")
        return _Problem(cons, [_delta(a, bid, tr)], [_delta(b, bid, tr)], bid * 14 + tr, build, answer)
    n, tb = z3.Int("contract"), z3.Int("bidder_tricks")
    cons = [tb >= 0, tb <= 13, n >= max(a.min_bid, b.min_bid), n <= 13]
    da, db = _team_deltas(a, n, tb), _team_deltas(b, n, tb)

    def build_c(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
        c, t = _ival(m, n), _ival(m, tb)
        return ({"dealer": 3, "scores": [0, 0], "contract": {"seat": 0, "bid": c, "trump": "S"},
                 "tricks": [t, 13 - t, 0, 0], "question": {"kind": "score"}},
                f"seat 0 holds the contract at {c}; team 0 takes {t} trick{'s' * (t != 1)}")

    def answer_c(r: Rules, m: z3.ModelRef, terms: list[Z]) -> dict[str, Any]:
        return {"delta0": _ival(m, terms[0]), "delta1": _ival(m, terms[1])}

    return _Problem(cons, list(da), list(db), n * 14 + (13 - tb), build_c, answer_c)


def _p_redeal(a: Rules, b: Rules, check: str) -> _Problem:
    _same_family(a, b)
    if a.weak_redeal or b.weak_redeal:
        raise _NotComparable("not encoded: the weak-hand redeal depends on the whole deal")
    if not a.individual:
        # The only auction redeal encoded: all four pass (weak-hand redeals depend on the whole deal).
        def ans(r: Rules) -> list[Z]:
            if r.all_pass == "dealer-forced":
                return [z3.IntVal(-1), z3.IntVal(-1)]  # the fourth pass is not allowed
            return [z3.IntVal(1), z3.IntVal(r.step)]

        forced = "dealer-forced" in (a.all_pass, b.all_pass)

        def build_c(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
            if forced:
                return ({"dealer": 0, "auction": ["pass", "pass", "pass"],
                         "question": {"kind": "bid-legal", "bid": "pass"}},
                        "the first three players pass; the dealer wants to pass too")
            return ({"dealer": 0, "auction": ["pass"] * 4, "question": {"kind": "redeal"}}, "all four players pass")

        def answer_c(r: Rules, m: z3.ModelRef, terms: list[Z]) -> dict[str, Any]:
            if forced:
                return {"legal": _ival(m, terms[0]) == 1}
            return {"redeal": True, "dealer": _ival(m, terms[1]) % 4}

        return _Problem([], ans(a), ans(b), z3.IntVal(0), build_c, answer_c)
    bids = [z3.Int(f"bid{k}") for k in range(4)]
    zero = z3.IntVal(0)
    cons = [z3.And(_legal_bid(a, zero, x), _legal_bid(b, zero, x)) for x in bids]

    def ans_i(r: Rules) -> list[Z]:
        red = sum(bids) < r.total_min
        return [z3.If(red, 1, 0), z3.If(red, 0 if r.redeal_same_dealer else r.step, r.step)]

    if check == "redeal-dealer":
        cons += [sum(bids) < a.total_min, sum(bids) < b.total_min]

    def build(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
        bs = [_ival(m, x) for x in bids]
        return ({"dealer": 0, "bids": bs, "question": {"kind": "redeal"}},
                f"dealer seat 0; the bids are {', '.join(map(str, bs))} (total {sum(bs)})")

    def answer(r: Rules, m: z3.ModelRef, terms: list[Z]) -> dict[str, Any]:
        return {"redeal": _ival(m, terms[0]) == 1, "dealer": _ival(m, terms[1]) % 4}

    return _Problem(cons, ans_i(a), ans_i(b), sum(bids), build, answer)


def _p_winner(a: Rules, b: Rules, check: str) -> _Problem:
    _same_family(a, b)
    if a.individual:
        s = [z3.Int(f"before{k}") for k in range(4)]
        bids = [z3.Int(f"bid{k}") for k in range(4)]
        tr = [z3.Int(f"tricks{k}") for k in range(4)]
        cons: list[B] = [sum(tr) == 13]
        for k in range(4):
            cons += [tr[k] >= 0, s[k] >= -100, s[k] <= 100, _legal_bid(a, s[k], bids[k]),
                     _legal_bid(b, s[k], bids[k])]
        cons += [sum(bids) >= a.total_min, sum(bids) >= b.total_min]
        made10 = z3.Int("made10")
        cons.append(made10 == _first_made(bids, tr, 10))
        after_a = [s[k] + _delta(a, bids[k], tr[k]) for k in range(4)]
        after_b = [s[k] + _delta(b, bids[k], tr[k]) for k in range(4)]
        # Nobody had won before the hand (under either ruleset).
        cons += [_outcome(r, s, z3.IntVal(-1)) == -1 for r in (a, b)]
        if check == "tie-rule":
            cons += [after_a[k] == after_b[k] for k in range(4)]
            cons += [_qualifies(r, aft[0], aft[2]) for r, aft in ((a, after_a), (b, after_b))]
            cons += [_qualifies(r, aft[1], aft[3]) for r, aft in ((a, after_a), (b, after_b))]
            cons.append(made10 == -1)
        oa, ob = _outcome(a, after_a, made10), _outcome(b, after_b, made10)
        size = sum(_abs(x) for x in s) + sum(bids)

        def build(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
            sv, bv, tv = ([_ival(m, x) for x in xs] for xs in (s, bids, tr))
            return ({"dealer": 3, "scores": sv, "bids": bv, "tricks": tv, "question": {"kind": "winner"}},
                    f"scores before the hand {sv}; bids {bv}; tricks taken {tv}")

        def answer(r: Rules, m: z3.ModelRef, terms: list[Z]) -> dict[str, Any]:
            v = _ival(m, terms[0])
            return {"winner": None if v < 0 else v}

        return _Problem(cons, [oa], [ob], size, build, answer)
    if check == "tie-rule":
        raise _NotComparable("the auction family breaks every tie the same way (the bidding team wins)")
    x = [z3.Int("team0"), z3.Int("team1")]
    n, tb = z3.Int("contract"), z3.Int("bidder_tricks")
    cons = [tb >= 0, tb <= 13, n >= max(a.min_bid, b.min_bid), n <= 13, x[0] >= -100, x[1] >= -100,
            x[0] < min(a.target, b.target), x[1] < min(a.target, b.target)]

    def out(r: Rules) -> Z:
        d_bt, d_dt = _team_deltas(r, n, tb)
        a0, a1 = x[0] + d_bt, x[1] + d_dt
        won13 = z3.And(n == 13, tb == 13) if r.bid13 == "win" else z3.BoolVal(False)
        reach0, reach1 = a0 >= r.target, a1 >= r.target
        return z3.If(won13, 0, z3.If(z3.And(reach0, reach1), 0, z3.If(reach0, 0, z3.If(reach1, 1, -1))))

    def build_c(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
        xs, c, t = [_ival(m, v) for v in x], _ival(m, n), _ival(m, tb)
        return ({"dealer": 3, "scores": xs, "contract": {"seat": 0, "bid": c, "trump": "S"},
                 "tricks": [t, 13 - t, 0, 0], "question": {"kind": "winner"}},
                f"team scores before the hand {xs}; seat 0 holds the contract at {c}; team 0 takes {t}")

    def answer_c(r: Rules, m: z3.ModelRef, terms: list[Z]) -> dict[str, Any]:
        v = _ival(m, terms[0])
        return {"winner": None if v < 0 else v}

    return _Problem(cons, [out(a)], [out(b)], _abs(x[0]) + _abs(x[1]) + n, build_c, answer_c)


def _first_made(bids: Sequence[Z], tricks: Sequence[Z], n: int) -> Z:
    out: Z = z3.IntVal(-1)
    for k in (3, 2, 1, 0):
        out = z3.If(z3.And(bids[k] == n, tricks[k] >= n), k, out)
    return out


def _holds(hand: z3.BitVecRef, suit: Z) -> B:
    terms = []
    for s in range(4):
        mask = z3.BitVecVal(((1 << 13) - 1) << (13 * s), 52)
        terms.append(z3.And(suit == s, hand & mask != 0))
    return z3.Or(*terms)


def _p_card(a: Rules, b: Rules, check: str) -> _Problem:
    hand = z3.BitVec("hand", 52)
    led, ct = z3.Int("led"), z3.Int("contract_trump")
    cons: list[B] = [led >= 0, led <= 3, ct >= 0, ct <= 4]
    card, card_suit = _card_var("card", cons)
    rv, rvs = _card_var("revealed", cons)
    cons.append(rv != card)
    bit = z3.BitVecVal(1, 52) << z3.Int2BV(card, 52)
    cons.append(hand & bit != 0)
    cons.append(hand & (z3.BitVecVal(1, 52) << z3.Int2BV(rv, 52)) == 0)  # the turned card is the dealer's
    popcount = sum(z3.ZeroExt(6, z3.Extract(i, i, hand)) for i in range(52))
    cons.append(z3.ULE(popcount, 12))  # the asking seat has played no card yet this trick; one trick is gone
    asking = (1 + a.step) % 4
    dealer = 0 if asking != 0 else 2

    def legal(r: Rules) -> Z:
        trump = _trump_term(r, rvs, ct)
        ok = z3.Or(card_suit == led, z3.Not(_holds(hand, led)))
        if r.must_trump:
            ok = z3.And(ok, z3.Or(card_suit == led, trump > 3, card_suit == trump, z3.Not(_holds(hand, trump))))
        return z3.If(ok, 1, 0)

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
        return facts, (f"{card_str(lead_card)} is led; the next player holds {' '.join(cards)} (no "
                       f"{', '.join(SUIT_NAMES[SUITS.index(v)] for v in voids) or 'void'}) and plays {card_str(c)}")

    def answer(r: Rules, m: z3.ModelRef, terms: list[Z]) -> dict[str, Any]:
        return {"legal": _ival(m, terms[0]) == 1}

    # Direction changes whose turn it is; the witness puts the asking seat after the leader in both.
    if a.step != b.step:
        raise _NotComparable("the rulesets play in opposite directions, so the same trick reaches different "
                             "seats; compare them with the same direction option")
    return _Problem(cons, [legal(a)], [legal(b)], z3.BV2Int(popcount) * 64 + card, build, answer)


def _p_trick(a: Rules, b: Rules, check: str) -> _Problem:
    ct = z3.Int("contract_trump")
    cons: list[B] = [ct >= 0, ct <= 4]
    pairs = [_card_var(f"c{i}", cons) for i in range(4)]
    cs = [c for c, _ in pairs]
    rv, rvs = _card_var("revealed", cons)

    def winner(r: Rules) -> Z:
        trump = _trump_term(r, rvs, ct)
        best_i: Z = z3.IntVal(0)
        best_c, best_s = pairs[0]
        for i in range(1, 4):
            c, s = pairs[i]
            beats = z3.Or(z3.And(s == best_s, c > best_c), z3.And(s != best_s, s == trump))
            best_i = z3.If(beats, i, best_i)
            best_c = z3.If(beats, c, best_c)
            best_s = z3.If(beats, s, best_s)
        return (1 + r.step * best_i) % 4  # leader seat 1

    def build(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
        cards = [card_str(_ival(m, c)) for c in cs]
        t = _ival(m, ct)
        facts = {"dealer": 0, "revealed": card_str(_ival(m, rv)),
                 "contract": {"seat": 1, "bid": 7, "trump": "CDHSN"[t]},
                 "trick": {"leader": 1, "cards": cards}, "question": {"kind": "trick-winner"}}
        return facts, (f"dealer seat 0 turned {card_str(_ival(m, rv))}; seat 1 leads; the trick is "
                       f"{' '.join(cards)}")

    def answer(r: Rules, m: z3.ModelRef, terms: list[Z]) -> dict[str, Any]:
        return {"winner": _ival(m, terms[0])}

    cons += [z3.Distinct(rv, *cs)]
    return _Problem(cons, [winner(a)], [winner(b)], sum(cs) + rv, build, answer)


def _p_next_dealer(a: Rules, b: Rules, check: str) -> _Problem:
    cancelled = z3.Bool("cancelled")

    def nxt(r: Rules) -> Z:
        if r.individual and r.redeal_same_dealer:
            return z3.If(cancelled, 0, r.step)
        return z3.IntVal(r.step)

    def build(m: z3.ModelRef) -> tuple[dict[str, Any], str]:
        c = bool(z3.is_true(m.eval(cancelled, model_completion=True)))
        return ({"dealer": 0, "hand": "cancelled" if c else "played", "question": {"kind": "next-dealer"}},
                f"dealer seat 0; the hand was {'cancelled' if c else 'played'}")

    def answer(r: Rules, m: z3.ModelRef, terms: list[Z]) -> dict[str, Any]:
        return {"dealer": _ival(m, terms[0]) % 4}

    return _Problem([], [nxt(a)], [nxt(b)], z3.If(cancelled, 1, 0), build, answer)


_ENCODERS: dict[str, Callable[[Rules, Rules, str], _Problem]] = {
    "trump": _p_trump, "bid-legal": _p_bid, "score": _p_score, "redeal": _p_redeal, "redeal-dealer": _p_redeal,
    "winner": _p_winner, "tie-rule": _p_winner, "card-legal": _p_card, "trick-winner": _p_trick,
    "next-dealer": _p_next_dealer,
}


# ------------------------------------------------------------------ search


def _engine_answers(sit: dict[str, Any], a: Side, b: Side, kind: str) -> dict[str, dict[str, Any]] | None:
    """Rulings of the engine on the witness (via the dispute resolver), by label; None if it cannot rule."""
    from tarneeb.errors import TarneebError

    try:
        rep = resolve(parse_situation({**sit, "ruleset": [a.entry(), b.entry()]}, "(witness)"))
    except TarneebError:
        return None
    return {x.label: dict(x.answer, _text=x.text, _status=x.status) for x in rep.rulings}


def find(a: Side, b: Side, check: str, timeout_ms: int = 20000) -> Witness:
    """Search one check for a situation where ``a`` and ``b`` rule differently."""
    kind = CHECKS[check]
    t0 = time.perf_counter()
    try:
        p = _ENCODERS[check](a.rules, b.rules, check)
    except _NotComparable as e:
        return Witness(check, kind, a.label, b.label, "not comparable", str(e), seconds=time.perf_counter() - t0)
    differ = z3.Or(*[x != y for x, y in zip(p.answer_a, p.answer_b, strict=True)])
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*p.constraints, differ)
    res = solver.check()
    if res == z3.unsat:
        return Witness(check, kind, a.label, b.label, "no difference",
                       "no difference: Z3 proved that no situation of this form is ruled differently (unsat)",
                       seconds=time.perf_counter() - t0)
    if res != z3.sat:
        return Witness(check, kind, a.label, b.label, "unknown", f"Z3 gave up ({solver.reason_unknown()})",
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
    w = Witness(check, kind, a.label, b.label, "difference", desc, predicted={a.label: pa, b.label: pb},
                situation=situation, minimal=minimal)
    eng = _engine_answers(facts, a, b, situation["question"]["kind"])
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
         timeout_ms: int = 20000) -> list[Witness]:
    """One :class:`Witness` per check (all checks, or those named; a question kind names all its checks)."""
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


def row_witnesses(a: str, b: str, rows: Sequence[str] | None = None) -> dict[str, Witness]:
    """For the docs' comparison page: row name (``ROWS``) -> witness between rulesets ``a`` and ``b``."""
    names = list(rows or ROWS)
    for r in names:
        if r not in ROWS:
            raise ConfigError("(diff)", r, f"unknown comparison row; valid: {', '.join(ROWS)}")
    by_check = {w.check: w for w in diff(a, b, sorted({ROWS[r] for r in names}))}
    return {r: by_check[ROWS[r]] for r in names}


def witness_text(w: Witness) -> str:
    head = f"{w.check} ({CHECK_TITLES[w.check]}): "
    if w.status != "difference":
        return head + w.summary
    lines = [head + "DIFFERENCE" + ("" if w.minimal else " (witness not minimised: the optimiser timed out)"),
             f"  situation: {w.summary}"]
    for label, text in w.rulings.items():
        lines.append(f"  {label}: {text}")
    lines.append("  checked against the engine: " + ("yes, they differ as predicted" if w.engine_confirmed
                                                     else "NO (the engine does not confirm this witness)"))
    return "\n".join(lines)


__all__ = ["CHECKS", "CHECK_TITLES", "ROWS", "Side", "Witness", "diff", "find", "parse_side", "row_witnesses",
           "witness_text"]
