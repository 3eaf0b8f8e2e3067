"""Families 4-6: the scoring tables, win qualification and ties, configuration soundness (facts about the
encodings; what each proves is written in ``proofs/README.md``)."""

from __future__ import annotations

from typing import Any

import z3

from tarneeb.core.spec import Rules

from .encode import Encoding, Term, zmax
from .obligations import Obligation, bval, exactly_one, ival
from .witness import Witness, seat_text

# The scoring tables as the clause texts state them (score.values), per ruleset:
# (lowest bid, highest bid, multiplier of the face value).
DOC_TABLES: dict[str, tuple[tuple[int, int, int], ...]] = {
    "card-kings-41": ((2, 13, 1),),  # 000, Scoring: face value
    "eram-41": ((2, 13, 1),),  # 003, Scoring: the bid itself
    "bsfyi-41": ((2, 4, 1), (5, 8, 2), (9, 13, 3)),  # 001, The scoring table
    "tarneeb-400": ((2, 4, 1), (5, 8, 2), (9, 13, 3)),  # 001's table, assumed by 002
}


def doc_values(rules: Rules) -> dict[int, int]:
    """Bid -> value as its score.values clause states it: the document's table (a house ruleset that keeps the
    values inherits it); a house ruleset that sets its own values states them in its own clause, so the
    obligation then checks the encoding against the file's list (no document to compare with)."""
    rs = rules.ruleset
    if "score.values" not in rs.changed:
        for rid in rs.lineage or (rs.id,):
            if rid in DOC_TABLES:
                return {b: b * mult for lo, hi, mult in DOC_TABLES[rid] for b in range(lo, hi + 1)}
    return {b: rules.values[b] for b in range(rules.bid_min, rules.bid_max + 1)}


def _scoring_individual(enc: Encoding) -> list[Obligation]:
    r = enc.r
    bid, t, t2 = z3.Int("bid"), z3.Int("tricks"), z3.Int("tricks2")
    in_range = [bid >= r.bid_min, bid <= r.bid_max] + [bid != x for x in sorted(r.bid_excluded)]
    tr = [t >= 0, t <= 13, t2 >= 0, t2 <= 13]
    d = enc.individual_delta(bid, t)
    doc: Term = z3.IntVal(-1)
    for b, value in doc_values(r).items():
        doc = z3.If(bid == b, value, doc)
    claim_t = z3.And(z3.Implies(t >= bid, d == doc), z3.Implies(t < bid, d == -doc))
    claim_m = z3.And(z3.Implies(t >= bid, d > 0), z3.Implies(t < bid, d < 0))
    claim_x = z3.Implies(z3.And(t >= bid, t2 >= bid), d == enc.individual_delta(bid, t2))

    def w(m: Any) -> Witness:
        x = Witness(title="one player's hand")
        x.add("bid", str(ival(m, bid)))
        x.add("tricks taken", str(ival(m, t)))
        x.add("score change (encoding)", str(ival(m, d)))
        x.add("with " + str(ival(m, t2)) + " tricks (encoding)", str(ival(m, enc.individual_delta(bid, t2))))
        return x

    return [
        Obligation("the score change is the document's table (+value made, -value failed)", in_range + tr, claim_t, w),
        Obligation("a made bid never loses points; a failed one never gains", in_range + tr, claim_m, w),
        Obligation("tricks above the bid change nothing", in_range + tr, claim_x, w),
    ]


def _scoring_auction(enc: Encoding) -> list[Obligation]:
    r = enc.r
    c, bt, tb = z3.Int("contract"), z3.Int("bidding_team"), z3.Int("bt_tricks")
    hyp = [c >= r.min_bid, c <= 13, z3.Or(bt == 0, bt == 1), tb >= 0, tb <= 13]
    d0, d1 = enc.team_deltas(c, bt, tb)
    d_bt = z3.If(bt == 0, d0, d1)
    d_dt = z3.If(bt == 0, d1, d0)
    td = 13 - tb
    made = tb >= c

    def kab(usual: Term) -> Term:
        return {"16": z3.IntVal(16), "26": z3.IntVal(26), "double": 2 * usual, "none": usual}[r.kaboot]

    usual_bt = z3.If(made, tb, -c) if r.score_style == "standard" else z3.If(made, c, -c)
    usual_dt = z3.If(made, z3.IntVal(0), td) if r.score_style == "standard" else z3.IntVal(0)
    if r.score_style == "standard" and r.failed13_defenders == "double":  # a variant no document names
        usual_dt = z3.If(z3.And(c == 13, z3.Not(made)), 2 * td, usual_dt)
    # the bidders' kaboot: all 13 tricks, unless bid-only scoring is read as having no kaboot (kaboot-bid-only)
    bk = z3.And(tb == 13, z3.BoolVal(r.score_style == "standard" or r.bid_only_kaboot == "bidders-replace"))
    # a made 13 scored by its kaboot before the bid-13 rule (reading kaboot-first of bid13-vs-kaboot)
    kf = z3.And(made, bk, z3.BoolVal(r.bid13_kaboot == "kaboot-first"))
    special13 = z3.And(c == 13, z3.BoolVal(r.bid13 == "26"), z3.Not(kf))
    won13 = z3.And(c == 13, made, z3.BoolVal(r.bid13 == "win"), z3.Not(kf))
    # (a conjunct whose guard the options rule out is left out: its guard could never hold)
    claims = [z3.Implies(special13, d_bt == z3.If(made, z3.IntVal(26), z3.IntVal(-16)))] if r.bid13 == "26" else []
    if r.score_style == "standard" or r.bid_only_kaboot == "bidders-replace":  # else no bidders' kaboot at all
        claims.append(z3.Implies(z3.And(z3.Not(special13), bk, z3.Not(won13)), d_bt == kab(usual_bt)))
    claims += [
        z3.Implies(z3.And(z3.Not(special13), z3.Or(z3.Not(bk), won13)), d_bt == usual_bt),
        enc.bid13_wins(c, tb) == z3.And(z3.BoolVal(r.bid13 == "win"), c == 13, made),
    ]
    # the defenders' kaboot: under standard scoring, unless read as the bidders' only (defender-kaboot) or, under
    # kaboot double, as their usual points (kaboot-double-defenders)
    dk = r.score_style == "standard" and r.defender_kaboot == "either-team" and not (
        r.kaboot == "double" and r.kaboot_double_defenders == "usual")
    claims.append(z3.Implies(z3.Not(z3.And(td == 13, z3.BoolVal(dk))), d_dt == usual_dt))
    if dk:
        claims.append(z3.Implies(td == 13, d_dt == kab(usual_dt)))
    claim_m = z3.And(z3.Implies(made, z3.And(d_bt > 0, d_dt == 0)), z3.Implies(z3.Not(made), d_bt < 0))

    def w(m: Any) -> Witness:
        x = Witness(title="a scored auction hand")
        x.add("contract", f"{ival(m, c)} by team {ival(m, bt)}")
        x.add("tricks (bidders / defenders)", f"{ival(m, tb)} / {13 - ival(m, tb)}")
        x.add("score change team 0 / team 1 (encoding)", f"{ival(m, d0)} / {ival(m, d1)}")
        return x

    return [
        Obligation("the score change is the table of score.standard/bid-only, kaboot, bid13", hyp, z3.And(claims), w),
        Obligation("a made contract never loses points (defenders get nothing); a failed one never gains",
                   hyp, claim_m, w),
    ]


# ================================================= 5. win qualification, ties
def _outcome_individual(enc: Encoding) -> list[Obligation]:
    r = enc.r
    s = [z3.Int(f"score{j}") for j in range(4)]
    b = [z3.Int(f"bid{j}") for j in range(4)]
    t = [z3.Int(f"tricks{j}") for j in range(4)]
    hyp = [x >= r.bid_min for x in b] + [x <= r.bid_max for x in b] + [x >= 0 for x in t] + [z3.Sum(t) == 13]
    o = enc.individual_outcome(s, b, t)
    target = r.target

    def qual(a: Term, c: Term) -> Term:  # stated independently: the better partner at the target, the other above 0
        return z3.And(zmax(a, c) >= target, z3.If(a >= c, c, a) > 0)

    q = [qual(s[0], s[2]), qual(s[1], s[3])]
    made_any: Term = z3.BoolVal(False)
    made_team: list[Term] = [z3.BoolVal(False), z3.BoolVal(False)]
    if r.made_bid_wins:
        # ambiguity bid10-partner: under reading partner-positive the partner ends the hand above zero too
        mk = [z3.And(b[j] == r.made_bid_wins, t[j] >= b[j],
                     s[(j + 2) % 4] > 0 if r.made_bid_partner == "partner-positive" else z3.BoolVal(True))
              for j in range(4)]
        made_any = z3.Or(mk)
        made_team = [z3.Or(mk[0], mk[2]), z3.Or(mk[1], mk[3])]
    key = [s[0] + s[2], s[1] + s[3]] if r.tie_rule == "combined" else [zmax(s[0], s[2]), zmax(s[1], s[3])]
    wins = [o.team0, o.team1]
    claims = [exactly_one([o.team0, o.team1, o.play_on])]
    for x in (0, 1):
        y = 1 - x
        claims += [
            z3.Implies(z3.And(wins[x], z3.Not(made_any)), q[x]),
            z3.Implies(z3.And(q[x], z3.Not(q[y]), z3.Not(made_any)), wins[x]),
            z3.Implies(z3.And(q[0], q[1], z3.Not(made_any)), wins[x] == (key[x] > key[y])),
        ]
        if r.made_bid_wins:
            claims.append(z3.Implies(made_team[x], wins[x]))
    claims.append(z3.Implies(z3.And(q[0], q[1], z3.Not(made_any)), o.play_on == (key[0] == key[1])))
    claims.append(z3.Implies(z3.And(z3.Not(q[0]), z3.Not(q[1]), z3.Not(made_any)), o.play_on))

    def w(m: Any) -> Witness:
        x = Witness(title="scores after a hand")
        x.add("scores", str([ival(m, v) for v in s]))
        if r.made_bid_wins:
            x.add("bids / tricks", f"{[ival(m, v) for v in b]} / {[ival(m, v) for v in t]}")
        res = "team 0 wins" if bval(m, o.team0) else ""
        res += (" and " if res else "") + "team 1 wins" if bval(m, o.team1) else ""
        res += (" and " if res else "") + "play on" if bval(m, o.play_on) else ""
        x.add("result (encoding)", res or "nothing")
        return x

    return [Obligation("exactly one of team 0 / team 1 / play on; qualification; tie rule", hyp, z3.And(claims), w)]


def _outcome_auction(enc: Encoding) -> list[Obligation]:
    r = enc.r
    raise_ = z3.Int("play_on_raise")
    enc.play_on_raise = raise_
    sc = [z3.Int("team0"), z3.Int("team1")]
    games = z3.Int("games_won")
    c, bt, tb = z3.Int("contract"), z3.Int("bidding_team"), z3.Int("bt_tricks")
    hyp = [raise_ >= 0, raise_ <= 1000, games >= 0, games <= 1, c >= r.min_bid, c <= 13, z3.Or(bt == 0, bt == 1),
           tb >= 0, tb <= 13]
    T = enc.target_in_force(games)
    b13 = enc.bid13_wins(c, tb)
    o = enc.auction_outcome(sc, T, bt, b13)
    wins = [o.team0, o.team1]
    claims = [exactly_one([o.team0, o.team1, o.play_on]), z3.Implies(b13, z3.If(bt == 0, o.team0, o.team1))]
    for x in (0, 1):
        y = 1 - x
        claims += [
            z3.Implies(z3.And(wins[x], z3.Not(b13)), sc[x] >= T),
            z3.Implies(z3.And(sc[x] >= T, sc[y] < T, z3.Not(b13)), wins[x]),
            z3.Implies(z3.And(sc[0] >= T, sc[1] >= T, z3.Not(b13)), wins[x] == (bt == x)),
        ]
    claims.append(z3.Implies(z3.And(sc[0] < T, sc[1] < T, z3.Not(b13)), o.play_on))
    claims.append(z3.Implies(games == 0, T == r.target))
    claims.append(z3.Implies(games == 1, T == r.target + raise_))

    def w(m: Any) -> Witness:
        x = Witness(title="team scores after an auction hand")
        x.add("team scores", f"{ival(m, sc[0])} / {ival(m, sc[1])}")
        x.add("games already won / play-on raise", f"{ival(m, games)} / {ival(m, raise_)}")
        x.add("target in force (encoding)", str(ival(m, T)))
        x.add("contract", f"{ival(m, c)} by team {ival(m, bt)}, {ival(m, tb)} tricks")
        x.add("result (encoding)", {0: "team 0 wins", 1: "team 1 wins", -1: "play on"}[ival(m, o.winner())])
        return x

    return [Obligation("exactly one result; target and bidding-team rules; bid 13; play-on target", hyp,
                       z3.And(claims), w)]


# ======================================================= 6. configuration soundness
def _config_individual(enc: Encoding) -> list[Obligation]:
    """From any scores: a legal hand that is played, team 0 both gain, team 1 both lose (progress to a decision)."""
    s = [z3.Int(f"score{j}") for j in range(4)]

    def lowest(sc: Term) -> Term:
        out: Term = z3.IntVal(99)
        for b in range(13, -1, -1):
            out = z3.If(enc.legal_bid(sc, z3.IntVal(b)), z3.IntVal(b), out)
        return out

    def highest(sc: Term) -> Term:
        out: Term = z3.IntVal(-99)
        for b in range(0, 14):
            out = z3.If(enc.legal_bid(sc, z3.IntVal(b)), z3.IntVal(b), out)
        return out

    bids = [lowest(s[0]), highest(s[1]), lowest(s[2]), highest(s[3])]
    tricks = [13 - bids[2], z3.IntVal(0), bids[2], z3.IntVal(0)]
    deltas = [enc.individual_delta(bids[j], tricks[j]) for j in range(4)]
    o = enc.individual_outcome(s, bids, tricks)
    claim = z3.And(*[enc.legal_bid(s[j], bids[j]) for j in range(4)], enc.hand_played(bids, s),
                   bids[0] + bids[2] <= 13, bids[0] <= tricks[0],
                   deltas[0] >= 1, deltas[2] >= 1, deltas[1] <= -1, deltas[3] <= -1)
    # once team 0 qualifies and team 1 does not, the match is decided
    q0 = enc.team_qualifies(s[0], s[2])
    q1 = enc.team_qualifies(s[1], s[3])
    decided = z3.Implies(z3.And(q0, z3.Not(q1)), z3.Or(o.team0, o.team1))

    def w(m: Any) -> Witness:
        x = Witness(title="a score state")
        x.add("scores", str([ival(m, v) for v in s]))
        x.add("bids tried (encoding)", str([ival(m, v) for v in bids]))
        x.add("tricks", str([ival(m, v) for v in tricks]))
        x.add("score changes (encoding)", str([ival(m, v) for v in deltas]))
        return x

    return [Obligation("from any scores a legal played hand moves team 0 up and team 1 down", [], claim, w),
            Obligation("a team qualifying alone decides the match", [], decided, w)]


def _config_auction(enc: Encoding) -> list[Obligation]:
    """The auction can always produce a contract for the first speaker (bid the minimum, all others pass)."""
    r = enc.r
    dealer = z3.Int("dealer")
    run = enc.auction(dealer, 4)
    calls = [run.calls_n[0] == r.min_bid, run.calls_s[0] == 0] + \
        [z3.And(run.calls_n[i] == 0, run.calls_s[i] == 0) for i in range(1, 4)]
    has, holder, _ = run.contract()
    claim = z3.And(run.all_legal(), run.ended[4], has, holder == enc.next_seat(dealer))

    def w(m: Any) -> Witness:
        x = Witness(title="an auction")
        x.add("dealer", seat_text(ival(m, dealer)))
        x.add("calls", f"{r.min_bid}, pass, pass, pass")
        x.add("over / contract (encoding)", f"{bval(m, run.ended[4])} / {bval(m, has)}")
        return x

    return [Obligation("an auction can end in a contract from any dealer", [dealer >= 0, dealer <= 3] + calls,
                       claim, w)]


def _config_scoring(enc: Encoding) -> list[Obligation]:
    """Every contract made exactly scores > 0 for the bidders and 0 for the defenders."""
    r = enc.r
    c, bt = z3.Int("contract"), z3.Int("bidding_team")
    d0, d1 = enc.team_deltas(c, bt, c)
    claim = z3.And(z3.If(bt == 0, d0, d1) > 0, z3.If(bt == 0, d1, d0) == 0)

    def w(m: Any) -> Witness:
        x = Witness(title="a contract made exactly")
        x.add("contract", f"{ival(m, c)} by team {ival(m, bt)}")
        x.add("score change team 0 / team 1 (encoding)", f"{ival(m, d0)} / {ival(m, d1)}")
        return x

    return [Obligation("a made contract moves the bidders up and leaves the defenders",
                       [c >= r.min_bid, c <= 13, z3.Or(bt == 0, bt == 1)], claim, w)]

