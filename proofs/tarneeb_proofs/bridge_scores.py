"""Family ``engine``, stages ``scoring`` and ``outcome``: the score tables and the match outcome.

See :mod:`tarneeb_proofs.bridge` for the method (enumeration, regions proved in Z3).
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from typing import Any

import z3

from tarneeb.core import rules as R

from .bridge import Compare, band, bor, cite, ints, mx, region_lemmas
from .encode import Encoding, Term
from .evaluate import Ev


# ================================================================ scoring
def scoring_parts(enc: Encoding) -> tuple[list[tuple[str, list[Term], Term]], list[Compare]]:
    r = enc.r
    if r.individual:
        b, t = z3.Int("bid"), z3.Int("tricks")
        ev = Ev([b, t], [enc.individual_delta(b, t)])
        ipts = [(x, k) for x in range(r.bid_min, r.bid_max + 1) for k in range(14)]
        return [], [Compare("individual_delta", ipts, lambda x, k: R.individual_delta(r, x, k), lambda x, k: ev(x, k)[0],
                            lambda p, g: "score.individual", lambda x, k: f"bid {x}, tricks taken {k}")]
    c, bt, tb = z3.Int("contract"), z3.Int("bidding_team"), z3.Int("bt_tricks")
    d0, d1 = enc.team_deltas(c, bt, tb)
    ev = Ev([c, bt, tb], [d0, d1, enc.bid13_wins(c, tb)])
    pts = [(x, team, k) for x in range(r.min_bid, 14) for team in (0, 1) for k in range(14)]

    def tricks(team: int, k: int) -> tuple[int, int]:
        return (k, 13 - k) if team == 0 else (13 - k, k)

    def clause(p: Sequence[Any], g: Any) -> str:
        x, _, k = p
        if x == 13 and "score.bid13" in r.ruleset.clauses:
            return "score.bid13"
        if k in (0, 13):
            return "score.kaboot"
        return cite(r, "score.standard" if r.score_style == "standard" else "score.bid-only", "score.standard")

    def show(x: int, team: int, k: int) -> str:
        return f"contract {x} by team {team}, tricks (team 0, team 1) {tricks(team, k)}"

    return [], [Compare("team_deltas", pts, lambda x, team, k: R.team_deltas(r, x, team, tricks(team, k)),
                        lambda x, team, k: tuple(ev(x, team, k)[:2]), clause, show),
                Compare("bid13_wins", [(x, k) for x in range(r.min_bid, 14) for k in range(14)],
                        lambda x, k: R.bid13_wins(r, x, k), lambda x, k: ev(x, 0, k)[2],
                        lambda p, g: cite(r, "score.bid13", "score.standard"),
                        lambda x, k: f"contract {x}, bidding team's tricks {k}")]


# ================================================================ outcome
def _win(o: Any) -> list[Term]:
    return [o.winner(), o.clause]


def outcome_parts(enc: Encoding) -> tuple[list[tuple[str, list[Term], Term]], list[Compare]]:
    r = enc.r
    T = r.target
    vals = [-1, 0, 1, T - 1, T, T + 1, T + 2, 2 * T]
    if not r.individual:
        return _auction_outcome_parts(enc)
    lemmas: list[tuple[str, list[Term], Term]] = []
    # team_qualifies: each partner against the target and against 0
    xs, ys = ints(2, "q"), ints(2, "p")

    def q_atoms(v: Sequence[Any]) -> list[Any]:
        return [v[0] >= T, v[0] > 0, v[1] >= T, v[1] > 0]

    qpts = list(itertools.product(vals, repeat=2))
    lemmas += region_lemmas("team_qualifies", xs, ys, lambda v: [], q_atoms, lambda v: [enc.team_qualifies(*v)], qpts,
                            extend=True)
    tq = Ev(xs, [enc.team_qualifies(*xs)])
    cmp = [Compare("team_qualifies", qpts, lambda a, b: R.team_qualifies(r, a, b), lambda a, b: tq(a, b)[0],
                   lambda p, g: "win.qualify", lambda a, b: f"partners' scores {a} and {b}",
                   lambda a, b: tuple(q_atoms((a, b))))]
    # individual_outcome: the qualification atoms of all four, and the tie keys against each other
    sx, sy = ints(4, "s"), ints(4, "u")

    def tie(v: Sequence[Any]) -> tuple[Any, Any]:
        if r.tie_rule == "combined":
            return v[0] + v[2], v[1] + v[3]
        return mx(v[0], v[2]), mx(v[1], v[3])

    def q(a: Any, b: Any) -> Any:
        return bor(band(a >= T, b > 0), band(b >= T, a > 0))

    def o_atoms(v: Sequence[Any]) -> list[Any]:
        k0, k1 = tie(v)
        both = band(q(v[0], v[2]), q(v[1], v[3]))
        return [a for i in range(4) for a in (v[i] >= T, v[i] > 0)] + [band(both, k0 > k1), band(both, k0 == k1)]

    opts = list(itertools.product(vals, repeat=4))
    lemmas += region_lemmas("individual_outcome", sx, sy, lambda v: [], o_atoms,
                            lambda v: _win(enc.individual_outcome(v)), opts, extend=True)
    io = Ev(sx, _win(enc.individual_outcome(sx)))

    def io_want(*s: int) -> tuple[int | None, str]:
        w, c = io(*s)
        return (None if w < 0 else w), c

    cmp.append(Compare("individual_outcome", opts, lambda *s: R.individual_outcome(r, list(s)), io_want,
                       lambda p, g: g[1] if g[1] in r.ruleset.clauses else "win.qualify",
                       lambda *s: f"scores {list(s)}", lambda *s: tuple(o_atoms(s))))
    if r.made_bid_wins:
        # with the hand's bids and tricks: per seat, bid x made / bid x failed / another bid
        x = r.made_bid_wins
        bx, tx = ints(4, "bb"), ints(4, "tt")
        by, ty = ints(4, "bc"), ints(4, "tc")
        seat_cases = [(x, x), (x, 13), (x, x - 1), (x - 1, 13), (x + 1, x)]
        spts = [(0, 0, 0, 0), (T, 1, 1, 1), (1, T, 1, 1), (T, 1, 1, T), (T, 5, 5, T)]
        mpts = [(*s, *[c[0] for c in cs], *[c[1] for c in cs]) for s in spts
                for cs in itertools.product(seat_cases, repeat=4)]

        def made(v: Sequence[Any]) -> list[Any]:
            return [a for i in range(4) for a in (v[4 + i] == x, v[8 + i] >= v[4 + i])]

        def any_made(v: Sequence[Any]) -> Any:
            return bor(*[band(v[4 + i] == x, v[8 + i] >= v[4 + i]) for i in range(4)])

        made_pts = [p for p in mpts if any_made(p)]
        # a seat made the winning bid: only the made atoms count; none did: the scores alone decide
        lemmas += region_lemmas("individual_outcome (made bid)", [*sx, *bx, *tx], [*sy, *by, *ty],
                                lambda v: [any_made(v)], made,
                                lambda v: _win(enc.individual_outcome(v[:4], v[4:8], v[8:])),
                                made_pts, extend=True)
        mpts = list(dict.fromkeys(mpts + made_pts))
        lemmas.append(("individual_outcome: when no seat made the winning bid, the scores alone decide",
                       [z3.Not(any_made([*sx, *bx, *tx]))],
                       z3.And([a == b for a, b in zip(_win(enc.individual_outcome(sx, bx, tx)),
                                                      _win(enc.individual_outcome(sx)), strict=True)])))
        im = Ev([*sx, *bx, *tx], _win(enc.individual_outcome(sx, bx, tx)))

        def im_want(*v: int) -> tuple[int | None, str]:
            w, c = im(*v)
            return (None if w < 0 else w), c

        def m_key(*v: int) -> Hashable:
            return ("made", *made(v)) if any_made(v) else ("none", *o_atoms(v[:4]))

        cmp.append(Compare("individual_outcome", mpts,
                           lambda *v: R.individual_outcome(r, list(v[:4]), list(v[4:8]), list(v[8:])), im_want,
                           lambda p, g: g[1] if g[1] in r.ruleset.clauses else "win.made-bid",
                           lambda *v: f"scores {list(v[:4])}, bids {list(v[4:8])}, tricks {list(v[8:])}",
                           m_key))
    return lemmas, cmp


def _auction_outcome_parts(enc: Encoding) -> tuple[list[tuple[str, list[Term], Term]], list[Compare]]:
    r = enc.r
    xs, ys = ints(3, "ao"), ints(3, "ap")  # team 0, team 1, target
    bt, b13 = z3.Int("bt"), z3.Bool("b13")
    targets = sorted({r.target, r.target + r.play_on_raise, 1})
    pts = [(s0, s1, t, team, won) for t in targets for s0 in (t - 1, t, t + 1, -1) for s1 in (t - 1, t, t + 1, -1)
           for team in (0, 1) for won in (False, True)]

    def atoms(v: Sequence[Any]) -> list[Any]:
        return [v[0] >= v[2], v[1] >= v[2]]

    lemmas = []
    for team in (0, 1):
        for won in (False, True):
            def outs(v: Sequence[Term], tm: int = team, w: bool = won) -> list[Term]:
                return _win(enc.auction_outcome(v[:2], v[2], tm, w))

            lemmas += region_lemmas(f"auction_outcome (bidding team {team}, bid 13 won {won})", xs, ys, lambda v: [],
                                    atoms, outs, [p[:3] for p in pts])
    ev = Ev([*xs, bt, b13], _win(enc.auction_outcome(xs[:2], xs[2], bt, b13)))

    def want(s0: int, s1: int, t: int, team: int, won: bool) -> tuple[int | None, str]:
        w, c = ev(s0, s1, t, team, won)
        return (None if w < 0 else w), c

    g = z3.Int("games")
    tf = Ev([g], [enc.target_in_force(g)])
    lemmas += region_lemmas("target_in_force", [g], [z3.Int("games2")], lambda v: [v[0] >= 0],
                            lambda v: [v[0] >= 1], lambda v: [enc.target_in_force(v[0])], [(0,), (1,)])
    return lemmas, [
        Compare("auction_outcome", pts, lambda s0, s1, t, team, won: R.auction_outcome(r, (s0, s1), t, team, won),
                want, lambda p, gv: gv[1] if gv[1] in r.ruleset.clauses else "win.target",
                lambda s0, s1, t, team, won: f"team scores {s0} / {s1}, target {t}, bidding team {team}, "
                                             f"bid 13 won {won}",
                lambda s0, s1, t, team, won: (*atoms((s0, s1, t)), team, won)),
        Compare("target_in_force", [(k,) for k in (0, 1, 2, 3, 50)], lambda k: R.target_in_force(r, k),
                lambda k: tf(k)[0], lambda p, gv: cite(r, "win.play-on", "win.target"), lambda k: f"games won {k}",
                lambda k: k >= 1)]
