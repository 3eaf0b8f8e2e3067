"""Family 3 of the proofs: bids and the redeal (``bids``): individual bids, the dealer's-privilege and the continuous auction.

The builders take an :class:`~tarneeb_proofs.encode.Encoding` and return the
obligations; :mod:`tarneeb_proofs.registry` registers them (and runs them). What
the family proves is written in ``proofs/README.md``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import z3

from .encode import Encoding, Term, zmax
from .encode_auction import AuctionRun, AuctionState
from .obligations import Obligation, bval, ival
from .witness import Witness, bids_text, seat_text


# ======================================================= 3. bids and the redeal
def _bids_individual(enc: Encoding) -> list[Obligation]:
    r = enc.r
    score, score2, bid = z3.Int("score"), z3.Int("score2"), z3.Int("bid")
    table_min: Term = z3.IntVal(r.bid_min)
    if r.rising_min:
        for threshold, mb in r.rising_table:
            table_min = z3.If(score >= threshold, zmax(table_min, z3.IntVal(mb)), table_min)
    legal = enc.legal_bid(score, bid)
    some_legal = z3.Or([enc.legal_bid(score, z3.IntVal(b)) for b in range(0, 14)])
    claim_l = z3.And(
        z3.Implies(legal, z3.And(bid >= table_min, bid <= r.bid_max, *[bid != x for x in sorted(r.bid_excluded)])),
        some_legal,
        z3.Implies(z3.And(score2 <= score, legal), enc.legal_bid(score2, bid)),
    )

    # permissions: every bid the documents allow is legal: from any score, each bid of the range that is not
    # excluded and reaches the (rising) minimum; from a score of zero, each bid of the range not excluded
    allowed = [bid >= table_min, bid <= r.bid_max, *[bid != x for x in sorted(r.bid_excluded)]]
    claim_p = z3.Implies(z3.And(allowed), legal)
    if all(threshold > 0 for threshold, _ in r.rising_table):
        claim_p = z3.And(claim_p, z3.Implies(z3.And(score == 0, bid >= r.bid_min, *allowed[1:]), legal))

    def w_l(m: Any) -> Witness:
        w = Witness(title="a bid")
        w.add("player's score", str(ival(m, score)))
        w.add("bid", str(ival(m, bid)))
        w.add("legal (encoding)", str(bval(m, legal)))
        w.add("legal bids (encoding)", str([b for b in range(14) if bval(m, enc.legal_bid(score, z3.IntVal(b)))]))
        return w

    # one bidding round as a relation: turns from the seat after the dealer
    dealer = z3.Int("dealer")
    scores = [z3.Int(f"s{j}") for j in range(4)]
    bt = [z3.Int(f"bt{i}") for i in range(4)]  # bids in turn order
    seats = []
    s = dealer
    for _ in range(4):
        s = enc.next_seat(s)
        seats.append(s)

    def score_of(seat: Term) -> Term:
        return z3.Sum([z3.If(seat == j, scores[j], 0) for j in range(4)])

    by_seat = [z3.Sum([z3.If(seats[i] == j, bt[i], 0) for i in range(4)]) for j in range(4)]
    hyp_r = [dealer >= 0, dealer <= 3] + [enc.legal_bid(score_of(seats[i]), bt[i]) for i in range(4)]
    played = enc.hand_played(by_seat, scores)
    next_dealer = z3.If(played, enc.next_seat(dealer), enc.dealer_after_redeal(dealer))
    want_redeal_dealer = dealer if r.redeal_same_dealer else (dealer + r.step) % 4
    # bid.total from the ruleset: the total reaches total_min and, under reading rising of raised-total, each
    # total of total_table whose score threshold some seat has reached
    reaches = [z3.Sum(bt) >= r.total_min] + [z3.Implies(z3.Or([x >= th for x in scores]), z3.Sum(bt) >= total)
                                            for th, total in r.total_table]
    claim_r = z3.And(
        *[z3.Sum([z3.If(seats[i] == j, 1, 0) for i in range(4)]) == 1 for j in range(4)],
        played == z3.And(reaches),
        z3.Implies(z3.Not(played), next_dealer == want_redeal_dealer),
        next_dealer >= 0, next_dealer <= 3,
    )

    def w_r(m: Any) -> Witness:
        w = Witness(title="a bidding round")
        d = ival(m, dealer)
        w.add("dealer", seat_text(d))
        w.add("scores", str([ival(m, x) for x in scores]))
        w.add("bids", bids_text([(ival(m, seats[i]), ival(m, bt[i])) for i in range(4)]))
        w.add("total / threshold", f"{sum(ival(m, x) for x in bt)} / {ival(m, enc.total_needed(scores))}")
        w.add("played (encoding)", str(bval(m, played)))
        w.add("next dealer (encoding)", seat_text(ival(m, next_dealer)))
        return w

    # no stuck state: the highest legal bids of the four seats reach the threshold, for any scores
    def best(sc: Term) -> Term:
        out: Term = z3.IntVal(-1000)
        for b in range(0, 14):
            out = z3.If(enc.legal_bid(sc, z3.IntVal(b)), z3.IntVal(b), out)
        return out

    bests = [best(x) for x in scores]
    claim_s = z3.And(*[b >= 0 for b in bests], enc.hand_played(bests, scores))

    def w_s(m: Any) -> Witness:
        w = Witness(title="a score state")
        w.add("scores", str([ival(m, x) for x in scores]))
        w.add("highest legal bids (encoding)", str([ival(m, b) for b in bests]))
        w.add("threshold", str(ival(m, enc.total_needed(scores))))
        return w

    return [
        Obligation("legal bids: in range, not excluded, rising minimum, never empty, shrinking with score",
                   [], claim_l, w_l),
        Obligation("permissions: every bid in range, not excluded and at the (rising) minimum is legal",
                   [], claim_p, w_l),
        Obligation("each seat bids once; played iff the total reaches the threshold; redeal dealer",
                   hyp_r, claim_r, w_r),
        Obligation("no stuck state: for any scores some legal bids get the hand played", [], claim_s, w_s),
    ]


def _bids_continuous(enc: Encoding) -> list[Obligation]:
    """The continuous auction, by induction over single calls with a ranking function (see proofs/README.md).

    No bound on the number of calls: every legal call strictly lowers the rank
    (seats still in, then the top bid's key, which only rises and is bounded),
    a player to speak always has a legal call, and a state where the auction
    is over is one contract or the all-pass rule.
    """
    r = enc.r
    dealer = z3.Int("dealer")
    st = AuctionState(z3.Bool("ended"), z3.Int("top"), z3.Int("holder"), [z3.Bool(f"in{j}") for j in range(4)],
                      z3.Int("passes"), z3.Int("spoken"), z3.Int("to_move"))
    n, s = z3.Int("n"), z3.Int("strain")
    tn, ts = z3.Int("top_n"), z3.Int("top_strain")
    strains = enc.strains()
    calls: list[tuple[int, int]] = [(0, 0)] + [(b, x) for b in range(r.min_bid, 14) for x in range(strains)]
    keys = [z3.simplify(enc.key(z3.IntVal(b), z3.IntVal(x))).as_long() for b, x in calls[1:]]
    lo_key, hi_key = min(keys), max(keys)
    inv = _continuous_invariant(enc, dealer, lo_key, hi_key)
    ok = enc.call_ok(st, dealer, n, s)
    nxt = enc.auction_step(st, n, s)
    step_hyp = [inv(st), z3.Not(st.ended), ok]
    rank_down = z3.Or(_seats_in(nxt) < _seats_in(st), z3.And(_seats_in(nxt) == _seats_in(st), nxt.top > st.top))
    bounded = z3.And(_seats_in(st) >= 0, st.top <= hi_key)
    raise_hyp = step_hyp + [n > 0, z3.Implies(st.top >= 0, z3.And(st.top == enc.key(tn, ts), tn >= r.min_bid,
                                                                   tn <= 13, ts >= 0, ts < strains))]
    raises = z3.And(z3.Or(st.top < 0, n > tn, z3.And(n == tn, s > ts)), nxt.holder == st.to_move)
    some_call = z3.Or([enc.call_ok(st, dealer, z3.IntVal(a), z3.IntVal(b)) for a, b in calls])
    result = z3.Or(z3.And(st.top >= 0, _seats_in(st) == 1, _is_in(st, st.holder)),
                   z3.And(st.top < 0, _seats_in(st) == 0, z3.BoolVal(r.all_pass == "redeal-next")))

    def w(m: Any) -> Witness:
        x = Witness(title="an auction in progress")
        x.add("dealer", seat_text(ival(m, dealer)))
        top = ival(m, st.top)
        x.add("top bid", "none" if top < 0 else f"key {top} held by {seat_text(ival(m, st.holder))}")
        x.add("seats still in", ", ".join(str(j) for j in range(4) if bval(m, st.active[j])) or "none")
        x.add("auction over", str(bval(m, st.ended)))
        x.add("to speak", seat_text(ival(m, st.to_move)))
        cn, cs = ival(m, n), ival(m, s)
        x.add("call", "pass" if cn == 0 else f"{cn}{'CDHSN'[cs] if r.egyptian and 0 <= cs < 5 else ''}")
        x.add("after the call: top / seats in / over",
              f"{ival(m, nxt.top)} / {ival(m, _seats_in(nxt))} / {bval(m, nxt.ended)}")
        return x

    # permissions (auction.continuous, auction.raise, auction.egyptian, auction.all-pass): a player to speak may
    # pass, unless the dealer is forced (three passes, no bid), and may make any bid above the top bid
    forced = z3.And(z3.BoolVal(r.all_pass == "dealer-forced"), st.to_move == dealer, st.top < 0, st.passes == 3)
    perm_hyp = [inv(st), z3.Not(st.ended), z3.Implies(st.top >= 0, z3.And(st.top == enc.key(tn, ts), tn >= r.min_bid,
                                                                         tn <= 13, ts >= 0, ts < strains))]
    perm_pass = z3.Implies(z3.Not(forced), enc.call_ok(st, dealer, z3.IntVal(0), z3.IntVal(0)))
    exact = z3.And(forced, z3.BoolVal(r.forced_bid == "exactly"))  # forced-dealer-minimum: the minimum only
    perms = z3.And(perm_pass, z3.Implies(z3.And(n >= r.min_bid, n <= 13, s >= 0, s < strains,
                                                z3.Or(st.top < 0, n > tn, z3.And(n == tn, s > ts)),
                                                z3.Implies(exact, n == r.min_bid)), ok))

    def w_perm(m: Any) -> Witness:
        x = w(m)
        cn, cs = ival(m, n), ival(m, s)
        bid = f"{cn}{'CDHSN'[cs] if r.egyptian and 0 <= cs < 5 else ''}"
        x.add("refused (encoding), though the rules allow it", bid if bval(m, perm_pass) else "pass")
        return x

    start = enc.auction_start(dealer)
    return [
        Obligation("the opening state (nothing bid, all in, first bidder to speak) satisfies the invariant",
                   [dealer >= 0, dealer <= 3], inv(start), w),
        Obligation("every legal call keeps the invariant", step_hyp, inv(nxt), w),
        Obligation("every legal call lowers the rank (seats still in, then the top bid rises; both bounded)",
                   step_hyp, z3.And(bounded, rank_down), w),
        Obligation("a player to speak is still in and has a legal call", [inv(st), z3.Not(st.ended)],
                   z3.And(_is_in(st, st.to_move), some_call), w),
        Obligation("an auction that is over has one contract (its holder the last seat in) or the all-pass rule",
                   [inv(st), st.ended], result, w),
        Obligation("a bid must beat the top bid (tricks, then strain) and takes the contract", raise_hyp, raises, w),
        Obligation("permissions: a pass (but the forced dealer's), any bid above the top at every level and strain",
                   perm_hyp, perms, w_perm),
    ]


def _seats_in(x: AuctionState) -> Term:
    """How many seats are still in the auction (have not passed)."""
    return z3.Sum([z3.If(a, 1, 0) for a in x.active])


def _is_in(x: AuctionState, seat: Term) -> Term:
    """Whether ``seat`` is still in the auction."""
    return z3.Or([z3.And(seat == j, x.active[j]) for j in range(4)])


def _continuous_invariant(enc: Encoding, dealer: Term, lo_key: int, hi_key: int) -> Callable[[AuctionState], Term]:
    """The inductive invariant of the continuous auction dealt by ``dealer``, stated from the ruleset (not from the
    mutable encoding): with no bid, the first ``passes`` seats to speak have passed and the next one speaks; with a
    bid, its key is a bid's, its holder is still in and every seat between the holder and the seat to speak has
    passed; the auction is over exactly when one seat is left holding a bid, or every seat passed."""
    r = enc.r
    rstep = r.step % 4  # the invariant is stated from the ruleset; 1 and 3 are their own inverses mod 4

    def dist(a: Term, b: Term) -> Term:  # seats from a to b in the direction of play
        return ((b - a) * rstep) % 4

    def inv(x: AuctionState) -> Term:
        over = z3.If(x.top < 0, _seats_in(x) == 0, z3.And(_seats_in(x) == 1, _is_in(x, x.holder)))
        pos = [(dist(dealer, z3.IntVal(j)) + 3) % 4 for j in range(4)]  # 0 = first to speak, 3 = the dealer
        no_bid = z3.And(x.holder == -1, *[x.active[j] == (pos[j] >= x.passes) for j in range(4)],
                        z3.Implies(z3.Not(x.ended), (dist(dealer, x.to_move) + 3) % 4 == x.passes),
                        # auction.all-pass (dealer-forced): the dealer never makes the fourth pass
                        x.passes <= 3 if r.all_pass == "dealer-forced" else z3.BoolVal(True))
        between = [z3.Implies(z3.And(dist(x.holder, z3.IntVal(j)) > 0,
                                     dist(x.holder, z3.IntVal(j)) < dist(x.holder, x.to_move)), z3.Not(x.active[j]))
                   for j in range(4)]
        a_bid = z3.And(x.top >= lo_key, x.top <= hi_key, x.holder >= 0, x.holder <= 3, _is_in(x, x.holder),
                       z3.Implies(z3.Not(x.ended), z3.And(x.to_move != x.holder, _is_in(x, x.to_move), *between)))
        return z3.And(dealer >= 0, dealer <= 3, x.to_move >= 0, x.to_move <= 3, x.passes == 4 - _seats_in(x),
                      x.ended == over, z3.If(x.top < 0, z3.And(x.top == -1, no_bid), a_bid))

    return inv


def _bids_auction(enc: Encoding) -> list[Obligation]:
    r = enc.r
    if r.auction_style == "continuous":
        return _bids_continuous(enc)
    # dealer's privilege: exactly four calls (one each), so four steps are the whole auction
    dealer = z3.Int("dealer")
    run = enc.auction(dealer)
    n = len(run.calls_n)
    hyp = [dealer >= 0, dealer <= 3, run.all_legal()]
    terminated = run.ended[n]
    # contract = the last bid made
    last_n: Term = z3.IntVal(0)
    last_s: Term = z3.IntVal(0)
    last_seat: Term = z3.IntVal(-1)
    for i in range(n):
        last_n = z3.If(run.is_bid(i), run.calls_n[i], last_n)
        last_s = z3.If(run.is_bid(i), run.calls_s[i], last_s)
        last_seat = z3.If(run.is_bid(i), run.seat[i], last_seat)
    has, holder, _top = run.contract()
    any_bid = z3.Or([run.is_bid(i) for i in range(n)])
    strains = enc.strains()
    calls: list[tuple[int, int]] = [(0, 0)] + [(b, s) for b in range(r.min_bid, 14) for s in range(strains)]
    never_stuck = z3.And([z3.Implies(z3.Not(run.ended[i]), z3.Or([run.call_ok[i](z3.IntVal(a), z3.IntVal(b))
                                                                   for a, b in calls])) for i in range(n)])
    result = z3.If(any_bid,
                   z3.And(has, holder == last_seat),
                   z3.And(z3.Not(has), run.passes[n] == 4, z3.BoolVal(r.all_pass == "redeal-next")))
    highest = z3.And([z3.Implies(run.is_bid(i), z3.Or(run.calls_n[i] < last_n,
                                                     z3.And(run.calls_n[i] == last_n, run.calls_s[i] <= last_s)))
                      for i in range(n)])
    if r.auction_style == "dealer-privilege":
        # only the dealer may match; if the dealer bids, the dealer holds the contract
        # (the dealer speaks last: the first call never has a top bid to beat)
        order = z3.And(
            run.seat[n - 1] == dealer,
            *[z3.Implies(z3.And(run.is_bid(i), run.top[i] >= 0),
                         z3.Or(enc.key(run.calls_n[i], run.calls_s[i]) > run.top[i],
                               z3.And(run.seat[i] == dealer, enc.key(run.calls_n[i], run.calls_s[i]) == run.top[i])))
              for i in range(1, n)],
            z3.Implies(run.is_bid(n - 1), holder == dealer))
    else:
        # every bid raises; a seat that passed never speaks again
        order = z3.And(
            *[z3.Implies(z3.And(run.is_bid(i), run.top[i] >= 0), enc.key(run.calls_n[i], run.calls_s[i]) > run.top[i])
              for i in range(n)],
            *[z3.Implies(z3.And(run.made[i], run.calls_n[i] == 0, run.made[j]), run.seat[j] != run.seat[i])
              for i in range(n) for j in range(i + 1, n)])

    perms, what, pn, ps = _auction_permissions(enc, run, dealer)

    def w_p(m: Any) -> Witness:
        w = w_a(m)
        i, kind = next((x for x, p in zip(what, perms, strict=True) if not bval(m, p)), (0, "?"))
        cn, cs = ival(m, pn), ival(m, ps)
        call = "pass" if kind == "pass" else f"{cn}{'CDHSN'[cs] if r.egyptian and 0 <= cs < 5 else ''}"
        w.add("refused (encoding), though the rules allow it",
              f"call {i + 1} by {seat_text(ival(m, run.seat[i]))}: {call}" + (" (matching)" if kind == "match" else ""))
        return w

    def w_a(m: Any) -> Witness:
        w = Witness(title="an auction")
        w.add("dealer", seat_text(ival(m, dealer)))
        calls_txt = []
        for i in range(n):
            if not bval(m, run.made[i]):
                break
            cn, cs = ival(m, run.calls_n[i]), ival(m, run.calls_s[i])
            txt = "pass" if cn == 0 else f"{cn}{'CDHSN'[cs] if r.egyptian else ''}"
            calls_txt.append(f"{seat_text(ival(m, run.seat[i]))}: {txt}")
        w.add("calls", ", ".join(calls_txt) or "(none)")
        w.add("auction over", str(bval(m, terminated)))
        w.add("contract holder (encoding)", seat_text(ival(m, holder)) if bval(m, has) else "none")
        return w

    return [
        Obligation(f"the auction ends within {n} calls", hyp, terminated, w_a),
        Obligation("a player to speak always has a legal call", hyp, never_stuck, w_a),
        Obligation("the auction ends in one contract (the last bid) or the all-pass rule", hyp + [terminated],
                   result, w_a),
        Obligation("the contract is the highest bid (tricks, then strain); raise and match rules", hyp,
                   z3.And(highest, order), w_a),
        Obligation("permissions: a pass (but the forced dealer's), any bid above the top at every level and strain, "
                   "the dealer's match", hyp, z3.And(perms), w_p),
    ]


def _auction_permissions(enc: Encoding, run: AuctionRun, dealer: Term) -> tuple[list[Term], list[tuple[int, str]], Term, Term]:
    """The permissions of a bounded auction, one term per permission, each with (the call's index, "pass" / "bid" /
    "match"), and the call (``call_n``, ``call_s``) they allow.

    auction.order, auction.raise, auction.egyptian, auction.dealer-privilege, auction.all-pass: at every call, a pass
    unless the dealer is forced; any bid (every level, every strain) above all bids so far; the dealer, speaking
    last, may match the top bid.
    """
    r = enc.r
    n = len(run.calls_n)
    strains = enc.strains()
    pn, ps = z3.Int("call_n"), z3.Int("call_s")
    in_range = [pn >= r.min_bid, pn <= 13, ps >= 0, ps < strains]
    perms: list[Term] = []
    what: list[tuple[int, str]] = []  # per permission: the call index, and "pass" / "bid" / "match"
    prev_n: Term = z3.IntVal(0)
    prev_s: Term = z3.IntVal(0)
    for i in range(n):
        forced = z3.And(z3.BoolVal(r.all_pass == "dealer-forced"), run.seat[i] == dealer, run.top[i] < 0,
                        run.passes[i] == 3)
        perms.append(z3.Implies(z3.And(run.made[i], z3.Not(forced)), run.call_ok[i](z3.IntVal(0), z3.IntVal(0))))
        what += [(i, "pass"), (i, "bid")]
        above = [z3.Implies(run.is_bid(j), z3.Or(pn > run.calls_n[j], z3.And(pn == run.calls_n[j], ps > run.calls_s[j])))
                 for j in range(i)]
        exact = z3.And(forced, z3.BoolVal(r.forced_bid == "exactly"))  # forced-dealer-minimum: the minimum only
        perms.append(z3.Implies(z3.And(run.made[i], *in_range, *above, z3.Implies(exact, pn == r.min_bid)),
                                run.call_ok[i](pn, ps)))
        if i == n - 1 and r.auction_style == "dealer-privilege":
            perms.append(z3.Implies(z3.And(run.made[i], run.top[i] >= 0, pn == prev_n, ps == prev_s),
                                    run.call_ok[i](pn, ps)))
            what.append((i, "match"))
        prev_n = z3.If(run.is_bid(i), run.calls_n[i], prev_n)
        prev_s = z3.If(run.is_bid(i), run.calls_s[i], prev_s)
    return perms, what, pn, ps
