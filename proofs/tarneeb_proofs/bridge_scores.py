"""Family ``engine``, stages ``scoring`` and ``outcome``: the score tables, the match outcome and the play-on.

Rule functions (:mod:`tarneeb.core.rules`): ``bid_made``, ``individual_delta``, ``team_deltas``, ``bid13_wins``,
``team_qualifies``, ``individual_outcome``, ``auction_outcome``, ``target_in_force``; hand steps
(:mod:`tarneeb.core.hand`): ``hand_deltas``, ``hand_outcome``, ``settle``. Method: :mod:`tarneeb_proofs.bridge`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import z3

from .bridge import (
    HAND,
    Builder,
    Case,
    Summariser,
    Summary,
    Target,
    Var,
    as_int,
    between,
    cite,
    eq,
    in_range,
    ivar,
    same,
    value,
)
from .encode import Encoding, Outcome, Term


def _legal_bid(r: Any, b: Term) -> Term:
    """A bid the range allows and the ruleset does not exclude (the domain of the score table)."""
    return z3.And(b >= r.bid_min, b <= r.bid_max, *[b != x for x in sorted(r.bid_excluded)])


def _tricks(names: Sequence[str]) -> tuple[list[Var], list[Term]]:
    """Tricks won by each seat: 0..13 each, 13 in all."""
    vs = [ivar(n) for n in names]
    ts = [v.term for v in vs]
    return vs, [*(between(t, 0, 13) for t in ts), z3.Sum(ts) == 13]


# ================================================================ summaries
def score_summaries(enc: Encoding) -> list[Summary]:
    """individual_delta, team_deltas, bid13_wins, team_qualifies and individual_outcome as their encodings, for the
    hand steps that call them (hand_deltas, hand_outcome), on the domains their own targets prove."""
    r = enc.r

    def legal(b: Any) -> Term:
        t = as_int(b)
        return z3.And(t >= r.bid_min, t <= r.bid_max, *[t != x for x in sorted(r.bid_excluded)])

    out = [
        Summary("individual_delta", lambda rr, b, t: z3.And(legal(b), in_range(t, 0, 13)) if rr is r else None,
                lambda rr, b, t: value(enc.individual_delta(as_int(b), as_int(t)))),
        Summary("bid13_wins", lambda rr, c, t: z3.And(in_range(c, r.min_bid, 13), in_range(t, 0, 13))
                if rr is r and not r.individual else None,
                lambda rr, c, t: value(enc.bid13_wins(as_int(c), as_int(t)))),
        Summary("team_qualifies", lambda rr, a, b: z3.BoolVal(True) if rr is r else None,
                lambda rr, a, b: value(enc.team_qualifies(as_int(a), as_int(b)))),
    ]
    if not r.individual:
        def td_applies(rr: Any, c: Any, bt: Any, tricks: Any) -> Term | None:
            if rr is not r or not isinstance(tricks, tuple) or len(tricks) != 2:
                return None
            return z3.And(in_range(c, r.min_bid, 13), in_range(bt, 0, 1), in_range(tricks[0], 0, 13),
                          as_int(tricks[0]) + as_int(tricks[1]) == 13)

        def td_value(rr: Any, c: Any, bt: Any, tricks: Any) -> Any:
            b = as_int(bt)
            d0, d1 = enc.team_deltas(as_int(c), b, z3.If(b == 0, as_int(tricks[0]), as_int(tricks[1])))
            return value(d0), value(d1)

        out.append(Summary("team_deltas", td_applies, td_value))
    else:
        def io_applies(rr: Any, scores: Any, bids: Any = None, tricks: Any = None) -> Term | None:
            if rr is not r or len(scores) != 4 or (bids is None) != (tricks is None):
                return None
            if bids is None:
                return z3.BoolVal(True)
            ts = [as_int(t) for t in tricks]
            return z3.And(*[legal(b) for b in bids], *[z3.And(t >= 0, t <= 13) for t in ts], z3.Sum(ts) == 13)

        def io_value(rr: Any, scores: Any, bids: Any = None, tricks: Any = None) -> Any:
            o = enc.individual_outcome([as_int(x) for x in scores], None if bids is None else
                                       [as_int(b) for b in bids], None if tricks is None else
                                       [as_int(t) for t in tricks])
            w = 0 if value(o.team0) else 1 if value(o.team1) else None  # a fork where the winner is open
            for clause in ("win.made-bid", "tie.both-qualify", "win.qualify"):
                if value(o.clause == z3.StringVal(clause)):
                    return w, clause
            raise AssertionError("the encoding's outcome clause is none of its three")

        out.append(Summary("individual_outcome", io_applies, io_value))
    return out


# ================================================================ scoring
def _scoring(enc: Encoding) -> list[Target]:
    r = enc.r
    out: list[Target] = []
    bv, tv = ivar("bid"), ivar("tricks")
    made = tv.term >= bv.term  # score.individual / score.standard: made with at least the tricks bid
    out.append(Target("bid_made", [Case("", [bv, tv], [], lambda f, v: f(v[0], v[1]), lambda res: eq(res, made),
                                        lambda ev: ev(made), cite(r, "score.individual", "score.standard"))],
                      domain_text="every integer bid x every integer number of tricks"))
    if r.individual:
        val = enc.value_of(bv.term)
        out.append(Target("bid_value", [Case("", [bv], [_legal_bid(r, bv.term)], lambda f, v: f(r, v[0]),
                                             lambda res: eq(res, val), lambda ev: ev(val), "score.values")],
                          domain_text="every legal bid"))
        d = enc.individual_delta(bv.term, tv.term)
        dom = [_legal_bid(r, bv.term), between(tv.term, 0, 13)]
        out.append(Target("individual_delta", [Case("", [bv, tv], dom, lambda f, v: f(r, v[0], v[1]),
                                                    lambda res: eq(res, d), lambda ev: ev(d),
                                                    cite(r, "score.values", "score.individual"))],
                          domain_text="every legal bid x 0-13 tricks"))
        bids = [ivar(f"bid of seat {s}") for s in range(4)]
        tvs, tdom = _tricks([f"tricks of seat {s}" for s in range(4)])
        ds = [enc.individual_delta(b.term, t) for b, t in zip(bids, (v.term for v in tvs), strict=True)]
        out.append(Target("hand_deltas", [Case("individual bids", [*bids, *tvs],
                                               [_legal_bid(r, b.term) for b in bids] + tdom,
                                               lambda f, v: f(r, list(v[:4]), None, list(v[4:])),
                                               lambda res: same(list(res), ds) if isinstance(res, list)
                                               else z3.BoolVal(False), lambda ev: [ev(x) for x in ds],
                                               cite(r, "score.values", "score.individual"))], HAND,
                          "every four legal bids x every split of the 13 tricks", uses=("individual_delta",)))
        return out
    cv, btv = ivar("contract"), ivar("bidding team")
    t0v, t1v = ivar("tricks of team 0"), ivar("tricks of team 1")
    c, bt, t0, t1 = cv.term, btv.term, t0v.term, t1v.term
    bt_tricks = z3.If(bt == 0, t0, t1)
    d0, d1 = enc.team_deltas(c, bt, bt_tricks)
    dom = [between(c, r.min_bid, 13), between(bt, 0, 1), between(t0, 0, 13), t0 + t1 == 13]
    style = cite(r, "score.standard" if r.score_style == "standard" else "score.bid-only", "score.standard")
    # the clause a mismatch cites: the bid-13 rule for a contract of 13, the kaboot rule where a team took all 13
    # tricks, else the scoring style's
    parts = [("a contract of 13", [c == 13], cite(r, "score.bid13", style)),
             ("all 13 tricks to a team", [c < 13, z3.Or(t0 == 13, t1 == 13)], cite(r, "score.kaboot", style)),
             ("", [c < 13, t0 < 13, t1 < 13], style)]
    out.append(Target("team_deltas", [Case(label, [cv, btv, t0v, t1v], dom + extra,
                                           lambda f, v: f(r, v[0], v[1], (v[2], v[3])),
                                           lambda res: same(list(res), [d0, d1]) if isinstance(res, tuple)
                                           else z3.BoolVal(False), lambda ev: (ev(d0), ev(d1)), clause)
                                      for label, extra, clause in parts],
                      domain_text="every contract x bidding team x split of the 13 tricks"))
    ttv = ivar("bidding team's tricks")
    w13 = enc.bid13_wins(c, ttv.term)
    out.append(Target("bid13_wins", [Case("", [cv, ttv], [between(c, r.min_bid, 13), between(ttv.term, 0, 13)],
                                          lambda f, v: f(r, v[0], v[1]), lambda res: eq(res, w13), lambda ev: ev(w13),
                                          cite(r, "score.bid13", "score.standard"))],
                      domain_text="every contract x 0-13 tricks"))
    # hand.hand_deltas: the holder's team is the bidding team; partners get their team's change
    hv = ivar("contract holder")
    tvs, tdom = _tricks([f"tricks of seat {s}" for s in range(4)])
    ts = [v.term for v in tvs]
    team = hv.term % 2
    tt = z3.If(team == 0, ts[0] + ts[2], ts[1] + ts[3])
    e0, e1 = enc.team_deltas(c, team, tt)
    sv_ = ivar("contract strain")  # the strain (none, or 0..4 under Egyptian bids) is carried, never scored
    strained = [("a contract", [], lambda v: None)] + ([("an Egyptian contract", [between(sv_.term, 0, 4)],
                                                         lambda v: v[-1])] if r.egyptian else [])
    out.append(Target("hand_deltas", [Case(label, [hv, cv, *tvs, *([sv_] if extra else [])],
                                           [between(hv.term, 0, 3), between(c, r.min_bid, 13)] + tdom + extra,
                                           lambda f, v, strain=strain: f(r, [0, 0, 0, 0], (v[0], v[1], strain(v)),
                                                                         list(v[2:6])),
                                           lambda res: same(list(res), [e0, e1, e0, e1]) if isinstance(res, list)
                                           else z3.BoolVal(False), lambda ev: [ev(e0), ev(e1), ev(e0), ev(e1)],
                                           style) for label, extra, strain in strained], HAND,
                      "every holder x contract (x strain) x split of the 13 tricks", uses=("team_deltas",)))
    return out


# ================================================================ outcome
def _outcome_claim(o: Outcome) -> Any:
    def claim(res: Any) -> Term:
        if not isinstance(res, tuple) or len(res) != 2 or not isinstance(res[1], str):
            return z3.BoolVal(False)
        w, clause = res
        if w is None:
            who = o.play_on
        elif type(w) is int:
            who = o.team0 if w == 0 else o.team1 if w == 1 else z3.BoolVal(False)
        else:  # a symbolic team number
            who = z3.Or(z3.And(eq(w, z3.IntVal(0)), o.team0), z3.And(eq(w, z3.IntVal(1)), o.team1))
        return z3.And(who, o.clause == z3.StringVal(clause))
    return claim


def _outcome_want(o: Outcome) -> Any:
    def want(ev: Any) -> Any:
        w = 0 if ev(o.team0) else 1 if ev(o.team1) else None
        return w, ev(o.clause)
    return want


def _play_on(enc: Encoding) -> list[Target]:
    r = enc.r
    gv = ivar("games won")
    tf = enc.target_in_force(gv.term)
    return [Target("target_in_force", [Case("", [gv], [gv.term >= 0], lambda f, v: f(r, v[0]),
                                            lambda res: eq(res, tf), lambda ev: ev(tf),
                                            cite(r, "win.play-on", "win.target"))],
                   domain_text="every number of games won >= 0"), _settle(enc)]


def _outcomes(enc: Encoding) -> list[Target]:
    r = enc.r
    out: list[Target] = []
    if not r.individual:
        return _auction_outcomes(enc)
    av, bv = ivar("partner a"), ivar("partner b")
    a, b = av.term, bv.term
    parts = [a >= enc.target, b > 0, b >= enc.target, a > 0]  # win.qualify's four comparisons
    out.append(Target("qualification", [Case("", [av, bv], [], lambda f, v: f(r, v[0], v[1]),
                                             lambda res: same(list(res), parts) if isinstance(res, tuple)
                                             else z3.BoolVal(False), lambda ev: tuple(ev(x) for x in parts),
                                             "win.qualify")], domain_text="every two integer scores"))
    q = enc.team_qualifies(av.term, bv.term)
    out.append(Target("team_qualifies", [Case("", [av, bv], [], lambda f, v: f(r, v[0], v[1]), lambda res: eq(res, q),
                                              lambda ev: ev(q), "win.qualify")],
                      domain_text="every two integer scores"))
    sv = [ivar(f"score of seat {s}") for s in range(4)]
    ss = [v.term for v in sv]
    keys = [enc.tie_key(ss[0], ss[2]), enc.tie_key(ss[1], ss[3])]
    out.append(Target("tie_keys", [Case("", sv, [], lambda f, v: f(r, list(v)),
                                        lambda res: same(list(res), keys) if isinstance(res, tuple)
                                        else z3.BoolVal(False), lambda ev: tuple(ev(k) for k in keys),
                                        "tie.both-qualify")], domain_text="every four integer scores"))
    mb = [ivar(f"bid of seat {s}") for s in range(4)]
    mt = [ivar(f"tricks of seat {s}") for s in range(4)]
    x = r.made_bid_wins
    positive = r.made_bid_partner == "partner-positive"  # ambiguity bid10-partner: the partner above zero too
    ms = [ivar(f"score of seat {s} after the hand") for s in range(4)] if positive else []
    made = [z3.And(z3.BoolVal(bool(x)), mb[s].term == x, mt[s].term >= mb[s].term,
                   ms[(s + 2) % 4].term > 0 if positive else z3.BoolVal(True)) for s in range(4)]
    first: Term = z3.IntVal(-1)
    for s_ in (3, 2, 1, 0):
        first = z3.If(made[s_], z3.IntVal(s_), first)
    out.append(Target("made_bid_winner", [Case("", [*mb, *mt, *ms], [],
                                               lambda f, v: f(r, list(v[:4]), list(v[4:8]), list(v[8:]) or None),
                                               lambda res: eq(-1 if res is None else res, first),
                                               lambda ev: None if ev(first) < 0 else ev(first),
                                               cite(r, "win.made-bid", "win.qualify"))],
                      domain_text="every four integer bids x four integer trick counts"))
    o = enc.individual_outcome(ss)
    cl = lambda res: res[1] if isinstance(res, tuple) and res[1] in r.ruleset.clauses else "win.qualify"  # noqa: E731
    cases = [Case("scores only", sv, [], lambda f, v: f(r, list(v)), _outcome_claim(o), _outcome_want(o), cl)]
    bids = [ivar(f"bid of seat {s}") for s in range(4)]
    tvs, tdom = _tricks([f"tricks of seat {s}" for s in range(4)])
    bdom = [_legal_bid(r, b.term) for b in bids] + tdom
    om = enc.individual_outcome(ss, [b.term for b in bids], [t.term for t in tvs])
    cases.append(Case("scores, bids and tricks", [*sv, *bids, *tvs], bdom,
                      lambda f, v: f(r, list(v[:4]), list(v[4:8]), list(v[8:])), _outcome_claim(om),
                      _outcome_want(om), cl))
    out.append(Target("individual_outcome", cases,
                      domain_text="every four integer scores (x every four legal bids x split of the tricks)"))
    # hand.hand_outcome at each target in force
    hcases = []
    for target in _targets_in_force(enc):
        save = enc.target
        enc.target = z3.IntVal(target)
        oh = enc.individual_outcome(ss, [b.term for b in bids], [t.term for t in tvs])
        enc.target = save
        hcases.append(Case(f"target {target}", [*sv, *bids, *tvs], bdom,
                           lambda f, v, target=target: f(r, list(v[:4]), target, list(v[4:8]), None, list(v[8:])),
                           _outcome_claim(oh), _outcome_want(oh), cl))
    out.append(Target("hand_outcome", hcases, HAND,
                      "every target in force x four integer scores x four legal bids x split of the tricks",
                      uses=("individual_outcome",)))
    return out


def _targets_in_force(enc: Encoding) -> list[int]:
    vals = {int(z3.simplify(enc.target_in_force(z3.IntVal(k))).as_long()) for k in range(3)}
    return sorted(vals)


def _auction_outcomes(enc: Encoding) -> list[Target]:
    r = enc.r
    s0v, s1v, tv, btv, wv = ivar("team 0"), ivar("team 1"), ivar("target"), ivar("bidding team"), \
        Var("bid 13 won", z3.Bool("bid_13_won"))
    s0, s1, t, bt, won = s0v.term, s1v.term, tv.term, btv.term, wv.term
    o = enc.auction_outcome([s0, s1], t, bt, won)
    reach = [s0 >= t, s1 >= t]  # win.target: at the target or more
    out0 = Target("target_reached", [Case("", [s0v, s1v, tv], [], lambda f, v: f((v[0], v[1]), v[2]),
                                          lambda res: same(list(res), reach) if isinstance(res, tuple)
                                          else z3.BoolVal(False), lambda ev: tuple(ev(x) for x in reach),
                                          "win.target")], domain_text="every two integer team scores x target")
    cl = lambda res: res[1] if isinstance(res, tuple) and res[1] in r.ruleset.clauses else "win.target"  # noqa: E731
    out = [out0, Target("auction_outcome", [Case("", [s0v, s1v, tv, btv, wv], [between(bt, 0, 1)],
                                           lambda f, v: f(r, (v[0], v[1]), v[2], v[3], v[4]), _outcome_claim(o),
                                           _outcome_want(o), cl)],
                  domain_text="every two integer team scores x every integer target x bidding team x bid 13 won")]
    # hand.hand_outcome: partners carry the team score; the holder's team is the bidding team
    hcases = []
    hv, cv = ivar("contract holder"), ivar("contract")
    tvs, tdom = _tricks([f"tricks of seat {s}" for s in range(4)])
    ts = [v.term for v in tvs]
    team = hv.term % 2
    tt = z3.If(team == 0, ts[0] + ts[2], ts[1] + ts[3])
    stv = ivar("contract strain")  # carried, never read: none, or 0..4 under Egyptian bids
    for target in _targets_in_force(enc):
        oh = enc.auction_outcome([s0, s1], z3.IntVal(target), team, enc.bid13_wins(cv.term, tt))
        for strained in ((False, True) if r.egyptian else (False,)):
            hcases.append(Case(f"target {target}" + (", an Egyptian contract" if strained else ""),
                               [s0v, s1v, hv, cv, *tvs, *([stv] if strained else [])],
                               [between(hv.term, 0, 3), between(cv.term, r.min_bid, 13)] + tdom
                               + ([between(stv.term, 0, 4)] if strained else []),
                               lambda f, v, target=target, strained=strained: f(
                                   r, [v[0], v[1], v[0], v[1]], target, [0, 0, 0, 0],
                                   (v[2], v[3], v[8] if strained else None), list(v[4:8])),
                               _outcome_claim(oh), _outcome_want(oh), cl))
    out.append(Target("hand_outcome", hcases, HAND,
                      "every target in force x two integer team scores x holder x contract x split of the tricks"))
    return out


def _settle(enc: Encoding) -> Target:
    """hand.settle: a hand's winner ends the match, unless winning this game raises the target in force
    (win.play-on): then play goes on at the new target. Every winner x target in force x games won before."""
    r = enc.r
    cases = []
    for target in _targets_in_force(enc):
        for n_games in range(3):
            for games in itertools.product((0, 1), repeat=n_games):
                for win in (None, 0, 1):
                    if win is None:
                        want: tuple[Any, ...] = (None, target, games, None)
                    else:
                        new = int(z3.simplify(enc.target_in_force(z3.IntVal(n_games + 1))).as_long())
                        want = (None, new, (*games, win), win) if new != target else \
                            (win, target, (*games, win), win)

                    def claim(res: Any, want: tuple[Any, ...] = want) -> Term:
                        if not isinstance(res, tuple) or len(res) != 4:
                            return z3.BoolVal(False)
                        return z3.BoolVal((res[0], res[1], tuple(res[2]), res[3]) == want)

                    cases.append(Case(f"winner {win}, target {target}, games {list(games)}", [], [],
                                      lambda f, v, win=win, target=target, games=games: f(r, win, target, games),
                                      claim, lambda ev, want=want: want, cite(r, "win.play-on", "win.target")))
    return Target("settle", cases, HAND, "every winner x target in force x games won before (0-2)")


# this module's builders, in the order their obligations run within a stage, and its summarisers: explicit tables,
# read by tarneeb_proofs.engine_family (nothing registers itself when the module is imported)
BUILDERS: tuple[Builder, ...] = (
    Builder("scoring", ("bid_made", "bid_value", "individual_delta", "team_deltas", "bid13_wins", "hand_deltas"),
            _scoring),
    Builder("outcome", ("target_in_force", "settle"), _play_on),
    Builder("outcome", ("qualification", "team_qualifies", "tie_keys", "made_bid_winner", "individual_outcome",
                        "target_reached", "auction_outcome", "hand_outcome"), _outcomes),
)
SUMMARISERS: tuple[Summariser, ...] = (Summariser(("scoring", "outcome"), score_summaries),)


__all__ = ["BUILDERS", "SUMMARISERS", "score_summaries"]
