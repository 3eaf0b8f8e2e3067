"""Cheap concrete evaluation of the Z3 encodings, for the differential tests' volume.

``Encoding.eval_*`` asserts the inputs and runs a solver per call (about 60-120 ms); at
hundreds of examples per property, and an encoding query at every step of a match, that is
too slow for CI. Here each encoding term is built **once** with z3 variables for its inputs
(through the same ``Encoding`` builders the ``eval_*`` methods use) and then compiled, node by
node, into a Python function of those inputs: one statement per node of the term's DAG,
with z3's semantics (bit-vector widths and wrap-around, unsigned and signed comparisons,
Euclidean ``div``/``mod``). Evaluating the compiled function is the concrete evaluation of
the encoding's own term; nothing of the engine is used.

An operator this compiler does not know raises :class:`Unsupported` when the term is compiled
(never a silent fallback), and ``tests/test_differential.py::test_compiled_terms_agree`` checks
the compiled functions against ``z3.simplify`` and against ``eval_*`` (the solver) on boundary inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import z3

from tarneeb_proofs.encode import NO_LED, NO_TRUMP, AuctionState, Encoding

Term = Any
Fn = Callable[..., Any]


class Unsupported(Exception):
    """The term uses an operator the compiler does not implement."""


def _sdiv_euclid(a: int, b: int) -> int:
    """z3 integer ``div``: Euclidean (the remainder is never negative)."""
    q = a // b
    if a - q * b < 0:  # only for a negative divisor
        q += 1
    return q


def _signed(x: int, w: int) -> int:
    return x - (1 << w) if x >> (w - 1) & 1 else x


_K = z3  # shorthand for the op constants below

_NARY: dict[int, str] = {
    _K.Z3_OP_AND: " and ", _K.Z3_OP_OR: " or ", _K.Z3_OP_ADD: " + ", _K.Z3_OP_MUL: " * ",
}
_CMP: dict[int, str] = {
    _K.Z3_OP_LE: "<=", _K.Z3_OP_LT: "<", _K.Z3_OP_GE: ">=", _K.Z3_OP_GT: ">",
    _K.Z3_OP_ULEQ: "<=", _K.Z3_OP_ULT: "<", _K.Z3_OP_UGEQ: ">=", _K.Z3_OP_UGT: ">",
}
_SCMP: dict[int, str] = {_K.Z3_OP_SLEQ: "<=", _K.Z3_OP_SLT: "<", _K.Z3_OP_SGEQ: ">=", _K.Z3_OP_SGT: ">"}


def compile_terms(inputs: Sequence[Term], outs: Sequence[Term]) -> Fn:
    """A Python function ``f(*input values) -> [output values]`` evaluating ``outs`` (z3 terms over the
    z3 constants ``inputs``). Values: int for Int and bit-vectors (unsigned), bool, str for strings."""
    names: dict[int, str] = {}
    lines: list[str] = []
    for k, x in enumerate(inputs):
        if not z3.is_const(x) or z3.is_int_value(x) or z3.is_bv_value(x):
            raise ValueError(f"input {x} is not a z3 variable")
        names[x.get_id()] = f"i{k}"
        if z3.is_bv(x):  # normalise a bit-vector input to its width
            lines.append(f"    i{k} &= {(1 << x.size()) - 1}")
        elif z3.is_bool(x):
            lines.append(f"    i{k} = bool(i{k})")

    def name(x: Term) -> str:
        key = x.get_id()
        if key in names:
            return names[key]
        stack = [(x, False)]
        while stack:
            node, ready = stack.pop()
            nid = node.get_id()
            if nid in names:
                continue
            kids = node.children()
            if not ready:
                stack.append((node, True))
                stack.extend((c, False) for c in kids if c.get_id() not in names)
                continue
            v = f"v{len(names)}"
            lines.append(f"    {v} = {_expr(node, [names[c.get_id()] for c in kids])}")
            names[nid] = v
        return names[key]

    out_names = [name(o) for o in outs]
    src = "def _f(" + ", ".join(f"i{k}" for k in range(len(inputs))) + "):\n" + "\n".join(lines) + \
        "\n    return [" + ", ".join(out_names) + "]\n"
    env: dict[str, Any] = {"_ediv": _sdiv_euclid, "_signed": _signed}
    exec(compile(src, "<encoding term>", "exec"), env)  # noqa: S102 - source generated above from z3 terms
    fn: Fn = env["_f"]
    return fn


def _expr(node: Term, a: list[str]) -> str:  # noqa: C901 - one case per operator
    """Python source of one node, given the names of its children."""
    if z3.is_int_value(node):
        return str(node.as_long())
    if z3.is_bv_value(node):
        return str(node.as_long())
    if z3.is_true(node):
        return "True"
    if z3.is_false(node):
        return "False"
    if z3.is_string_value(node):
        return repr(node.as_string())
    k = node.decl().kind()
    w = node.size() if z3.is_bv(node) else 0
    mask = (1 << w) - 1 if w else 0
    if k == z3.Z3_OP_UNINTERPRETED and not a:
        raise Unsupported(f"free variable {node} not among the inputs")
    if k in _NARY:
        e = "(" + _NARY[k].join(a) + ")"
        return e
    if k == z3.Z3_OP_NOT:
        return f"(not {a[0]})"
    if k == z3.Z3_OP_IMPLIES:
        return f"((not {a[0]}) or {a[1]})"
    if k == z3.Z3_OP_XOR:
        return f"({a[0]} != {a[1]})"
    if k == z3.Z3_OP_ITE:
        return f"({a[1]} if {a[0]} else {a[2]})"
    if k == z3.Z3_OP_EQ:
        return f"({a[0]} == {a[1]})"
    if k == z3.Z3_OP_DISTINCT:
        return f"(len({{{', '.join(a)}}}) == {len(a)})"
    if k in _CMP:
        return f"({a[0]} {_CMP[k]} {a[1]})"
    if k in _SCMP:
        ws = node.children()[0].size()
        return f"(_signed({a[0]}, {ws}) {_SCMP[k]} _signed({a[1]}, {ws}))"
    if k == z3.Z3_OP_SUB:
        return "(" + " - ".join(a) + ")"
    if k == z3.Z3_OP_UMINUS:
        return f"(-{a[0]})"
    if k in (z3.Z3_OP_MOD, z3.Z3_OP_IDIV):
        q = f"_ediv({a[0]}, {a[1]})"
        return q if k == z3.Z3_OP_IDIV else f"({a[0]} - {a[1]} * {q})"
    # bit-vectors: every result is reduced to its width
    if k == z3.Z3_OP_BADD:
        return f"(({' + '.join(a)}) & {mask})"
    if k == z3.Z3_OP_BSUB:
        return f"(({' - '.join(a)}) & {mask})"
    if k == z3.Z3_OP_BMUL:
        return f"(({' * '.join(a)}) & {mask})"
    if k == z3.Z3_OP_BNEG:
        return f"((-{a[0]}) & {mask})"
    if k == z3.Z3_OP_BAND:
        return "(" + " & ".join(a) + ")"
    if k == z3.Z3_OP_BOR:
        return "(" + " | ".join(a) + ")"
    if k == z3.Z3_OP_BXOR:
        return "(" + " ^ ".join(a) + ")"
    if k == z3.Z3_OP_BNOT:
        return f"({a[0]} ^ {mask})"
    if k == z3.Z3_OP_BSHL:
        return f"(({a[0]} << {a[1]}) & {mask} if {a[1]} < {w} else 0)"
    if k == z3.Z3_OP_BLSHR:
        return f"({a[0]} >> {a[1]} if {a[1]} < {w} else 0)"
    if k == z3.Z3_OP_CONCAT:
        out, shift = [], 0
        for kid, nm in zip(reversed(node.children()), reversed(a), strict=True):
            out.append(f"({nm} << {shift})" if shift else nm)
            shift += kid.size()
        return "(" + " | ".join(out) + ")"
    if k == z3.Z3_OP_EXTRACT:
        hi, lo = node.params()
        return f"(({a[0]} >> {lo}) & {(1 << (hi - lo + 1)) - 1})"
    if k == z3.Z3_OP_ZERO_EXT:
        return a[0]
    raise Unsupported(f"operator {node.decl()} ({k}) in {str(node)[:80]}")


def _v(x: Any) -> Any:
    """Python value of a z3 value (for comparing compiled results with ``z3.simplify``)."""
    if z3.is_true(x):
        return True
    if z3.is_false(x):
        return False
    if z3.is_string_value(x):
        return x.as_string()
    return x.as_long()


def simplified(inputs: Sequence[Term], outs: Sequence[Term], values: Sequence[Any]) -> list[Any]:
    """The same evaluation by ``z3.substitute`` + ``z3.simplify`` (slower; the cross-check of the compiler)."""
    subs = []
    for x, v in zip(inputs, values, strict=True):
        if z3.is_bv(x):
            subs.append((x, z3.BitVecVal(v, x.size())))
        elif z3.is_bool(x):
            subs.append((x, z3.BoolVal(bool(v))))
        else:
            subs.append((x, z3.IntVal(v)))
    return [_v(z3.simplify(z3.substitute(o, *subs))) for o in outs]


class Fast:
    """The ``eval_*`` answers of one :class:`Encoding`, from terms compiled once.

    Each method has the argument and result conventions of the ``Encoding.eval_*`` method of the same name
    (and so of the engine function of that name in :mod:`tarneeb.core.rules`).
    ``terms[name]`` keeps (inputs, outputs) of every compiled term, for the cross-checks.
    """

    def __init__(self, enc: Encoding) -> None:
        self.e = enc
        self.terms: dict[str, tuple[list[Term], list[Term]]] = {}
        self._fns: dict[str, Fn] = {}

    def fn(self, name: str, build: Callable[[], tuple[list[Term], list[Term]]]) -> Fn:
        f = self._fns.get(name)
        if f is None:
            ins, outs = build()
            self.terms[name] = (ins, outs)
            f = self._fns[name] = compile_terms(ins, outs)
        return f

    def compiled(self, name: str) -> Fn:
        """The compiled function of a term built before (see ``terms``)."""
        return self._fns[name]

    # ------------------------------------------------------------ play
    def legal_mask(self, hand: int, led: int, trump: int) -> int:
        def b() -> tuple[list[Term], list[Term]]:
            h, ld, t = z3.BitVec("h", 52), z3.BitVec("led", 6), z3.BitVec("t", 6)
            return [h, ld, t], [self.e.legal_mask(h, ld, t)]
        return int(self.fn("legal_mask", b)(hand, NO_LED if led < 0 else led, NO_TRUMP if trump < 0 else trump)[0])

    def trick_winner(self, cards: Sequence[int], trump: int) -> int:
        def b() -> tuple[list[Term], list[Term]]:
            cs = [z3.BitVec(f"c{i}", 6) for i in range(4)]
            t = z3.BitVec("t", 6)
            return [*cs, t], [self.e.trick_winner(cs, t)]
        return int(self.fn("trick_winner", b)(*cards, NO_TRUMP if trump < 0 else trump)[0])

    def play_trick(self, hands: Sequence[int], leader: int, trump: int,
                   cards: Sequence[int]) -> tuple[bool, list[int], list[int], int]:
        """The encoding's trick relation: (all four plays legal, hands after, seat of each play, winner seat)."""
        def b() -> tuple[list[Term], list[Term]]:
            hs = [z3.BitVec(f"H{j}", 52) for j in range(4)]
            cs = [z3.BitVec(f"c{i}", 6) for i in range(4)]
            ld, t = z3.BitVec("L", 2), z3.BitVec("t", 6)
            ok, hist, seats, win, _ = self.e.play_trick(hs, ld, t, cs)
            return [*hs, ld, t, *cs], [ok, *hist[4], *seats, win]
        v = self.fn("play_trick", b)(*hands, leader, NO_TRUMP if trump < 0 else trump, *cards)
        return bool(v[0]), [int(x) for x in v[1:5]], [int(x) for x in v[5:9]], int(v[9])

    def next_seat(self, seat: int) -> int:
        def b() -> tuple[list[Term], list[Term]]:
            s = z3.Int("s")
            return [s], [self.e.next_seat(s)]
        return int(self.fn("next_seat", b)(seat)[0])

    def first_leader(self, dealer: int, holder: int) -> int:
        def b() -> tuple[list[Term], list[Term]]:
            d, h = z3.BitVec("d", 2), z3.BitVec("h", 2)
            return [d, h], [self.e.first_leader(d, h)]
        return int(self.fn("first_leader", b)(dealer, holder & 3)[0])

    def trump_from_reveal(self, card: int) -> int:
        def b() -> tuple[list[Term], list[Term]]:
            c = z3.BitVec("c", 6)
            return [c], [self.e.trump_from_reveal(c)]
        return int(self.fn("trump_from_reveal", b)(card)[0])

    def trump_ok(self, trump: int) -> bool:
        def b() -> tuple[list[Term], list[Term]]:
            t = z3.BitVec("t", 6)
            return [t], [self.e.trump_ok(t)]
        return bool(self.fn("trump_ok", b)(trump)[0])

    # ------------------------------------------------------------ individual bids
    def legal_bids(self, score: int) -> list[int]:
        def b() -> tuple[list[Term], list[Term]]:
            s = z3.Int("score")
            return [s], [self.e.legal_bid(s, z3.IntVal(i)) for i in range(14)]
        return [i for i, ok in enumerate(self.fn("legal_bids", b)(score)) if ok]

    def hand_played(self, bids: Sequence[int]) -> bool:
        def b() -> tuple[list[Term], list[Term]]:
            bs = [z3.Int(f"b{i}") for i in range(4)]
            return bs, [self.e.hand_played(bs)]
        return bool(self.fn("hand_played", b)(*bids)[0])

    def dealer_after_redeal(self, dealer: int) -> int:
        def b() -> tuple[list[Term], list[Term]]:
            d = z3.Int("d")
            return [d], [self.e.dealer_after_redeal(d)]
        return int(self.fn("dealer_after_redeal", b)(dealer)[0])

    # ------------------------------------------------------------ scoring and outcome
    def individual_delta(self, bid: int, tricks: int) -> int:
        def b() -> tuple[list[Term], list[Term]]:
            x, t = z3.Int("b"), z3.Int("t")
            return [x, t], [self.e.individual_delta(x, t)]
        return int(self.fn("individual_delta", b)(bid, tricks)[0])

    def team_deltas(self, contract: int, bidding_team: int, tricks: tuple[int, int]) -> tuple[int, int]:
        def b() -> tuple[list[Term], list[Term]]:
            c, bt, tb = z3.Int("c"), z3.Int("bt"), z3.Int("tb")
            return [c, bt, tb], list(self.e.team_deltas(c, bt, tb))
        d0, d1 = self.fn("team_deltas", b)(contract, bidding_team, tricks[bidding_team])
        return int(d0), int(d1)

    def bid13_wins(self, contract: int, team_tricks: int) -> bool:
        def b() -> tuple[list[Term], list[Term]]:
            c, t = z3.Int("c"), z3.Int("t")
            return [c, t], [self.e.bid13_wins(c, t)]
        return bool(self.fn("bid13_wins", b)(contract, team_tricks)[0])

    def individual_outcome(self, scores: Sequence[int], bids: Sequence[int] | None = None,
                           tricks: Sequence[int] | None = None) -> tuple[int | None, str]:
        with_bids = bids is not None and tricks is not None

        def b() -> tuple[list[Term], list[Term]]:
            s = [z3.Int(f"s{i}") for i in range(4)]
            if not with_bids:
                o = self.e.individual_outcome(s)
                return s, [o.winner(), o.clause]
            bs = [z3.Int(f"b{i}") for i in range(4)]
            ts = [z3.Int(f"t{i}") for i in range(4)]
            o = self.e.individual_outcome(s, bs, ts)
            return [*s, *bs, *ts], [o.winner(), o.clause]
        args = [*scores, *(bids or []), *(tricks or [])] if with_bids else list(scores)
        w, clause = self.fn("individual_outcome" + ("+bids" if with_bids else ""), b)(*args)
        return (None if w < 0 else int(w)), str(clause)

    def auction_outcome(self, team_scores: tuple[int, int], target: int, bidding_team: int,
                        bid13_won: bool) -> tuple[int | None, str]:
        def b() -> tuple[list[Term], list[Term]]:
            s = [z3.Int("s0"), z3.Int("s1")]
            t, bt, b13 = z3.Int("T"), z3.Int("bt"), z3.Bool("b13")
            o = self.e.auction_outcome(s, t, bt, b13)
            return [*s, t, bt, b13], [o.winner(), o.clause]
        w, clause = self.fn("auction_outcome", b)(team_scores[0], team_scores[1], target, bidding_team, bid13_won)
        return (None if w < 0 else int(w)), str(clause)

    def target_in_force(self, games_won: int) -> int:
        def b() -> tuple[list[Term], list[Term]]:
            g = z3.Int("g")
            return [g], [self.e.target_in_force(g)]
        return int(self.fn("target_in_force", b)(games_won)[0])

    # ------------------------------------------------------------ team auction
    def auction_start(self, dealer: int) -> tuple[Any, ...]:
        """The encoding's auction state as a tuple (ended, top, holder, active0..3, passes, spoken, to_move)."""
        def b() -> tuple[list[Term], list[Term]]:
            d = z3.Int("d")
            return [d], _state_terms(self.e.auction_start(d))
        return tuple(self.fn("auction_start", b)(dealer))

    def call_ok(self, state: tuple[Any, ...], dealer: int, n: int, s: int) -> bool:
        def b() -> tuple[list[Term], list[Term]]:
            st, ins = _state_vars()
            d, n_, s_ = z3.Int("d"), z3.Int("n"), z3.Int("s")
            return [*ins, d, n_, s_], [self.e.call_ok(st, d, n_, s_)]
        return bool(self.fn("call_ok", b)(*state, dealer, n, s)[0])

    def auction_step(self, state: tuple[Any, ...], n: int, s: int) -> tuple[Any, ...]:
        def b() -> tuple[list[Term], list[Term]]:
            st, ins = _state_vars()
            n_, s_ = z3.Int("n"), z3.Int("s")
            return [*ins, n_, s_], _state_terms(self.e.auction_step(st, n_, s_))
        return tuple(self.fn("auction_step", b)(*state, n, s))

    def key(self, n: int, s: int) -> int:
        def b() -> tuple[list[Term], list[Term]]:
            n_, s_ = z3.Int("n"), z3.Int("s")
            return [n_, s_], [self.e.key(n_, s_)]
        return int(self.fn("key", b)(n, s)[0])


def _state_vars() -> tuple[AuctionState, list[Term]]:
    ins = [z3.Bool("ended"), z3.Int("top"), z3.Int("holder"), *(z3.Bool(f"act{j}") for j in range(4)),
           z3.Int("passes"), z3.Int("spoken"), z3.Int("to_move")]
    return AuctionState(ins[0], ins[1], ins[2], ins[3:7], ins[7], ins[8], ins[9]), ins


def _state_terms(st: AuctionState) -> list[Term]:
    return [st.ended, st.top, st.holder, *st.active, st.passes, st.spoken, st.to_move]
