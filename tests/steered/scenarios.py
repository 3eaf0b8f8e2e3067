"""The steered scenarios: where each match starts (``Match.at``) and the deals designed for the transitions wanted."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from tarneeb.core.spec import Rules

from .expected import Expected
from .kinds import PlanError, causes
from .plan import Design, Goal, low_of, top_of
from .terms import NO_TRUMP, Call

if TYPE_CHECKING:
    from .driver_base import DriverBase


class Start(NamedTuple):
    """Where a steered match starts: ``Match.at(rules, dealer, scores, target, games)``."""

    dealer: int
    scores: tuple[int, int, int, int]
    target: int | None = None
    games: tuple[int, ...] | None = None


DesignFn = Callable[["DriverBase"], Design]


@dataclass
class Scenario:
    """A steered match: its name, its start and its deals, each designed for the transition it is for."""

    name: str
    start: Start
    deals: list[tuple[str, DesignFn]]  # (what the deal is for, its design)


ScenarioFn = Callable[[Rules, Expected], list[Scenario]]


def scenarios(rules: Rules, ex: Expected) -> list[Scenario]:
    """The steered scenarios for one configuration (see :mod:`tests.steered`)."""
    return individual_scenarios(rules, ex) if rules.individual else auction_scenarios(rules, ex)


# ====================================================================== individual bids


class _Individual:
    """The deals designed for the individual family (bids summed to a total, bids of 13, the made-bid win, ties)."""

    def __init__(self, rules: Rules, ex: Expected) -> None:
        self.rules, self.ex = rules, ex

    def cancel(self, i: int) -> DesignFn:
        """Bids totalling one or two below the threshold (never below the lowest bids), seat ``i`` bidding high."""
        ex = self.ex

        def f(d: DriverBase) -> Design:
            p = d.plan
            mins = sum(min(b for b in ex.legal_bids(d.x.scores[s]) if b > 0) for s in range(4))
            want = max(mins, ex.total(d.x.scores) - 1 - i % 2)
            return Design(p.deck(d.x.dealer), p.bids(d.x.dealer, d.x.scores, total=want,
                                                     high_first=[ex.order(d.x.dealer)[i % 4]]),
                          note=f"bids total {want}")
        return f

    def at_threshold(self, d: DriverBase) -> Design:
        """Bids totalling exactly the threshold, the dealer bidding its lowest."""
        ex, p = self.ex, d.plan
        last = d.x.dealer
        lo = min(b for b in ex.legal_bids(d.x.scores[last]) if b > 0)
        return Design(p.deck(last), p.bids(last, d.x.scores, want={last: lo}, total=ex.total(d.x.scores)),
                      note="bids total the threshold")

    def all_trumps(self, d: DriverBase) -> tuple[int, int, tuple[int, ...]]:
        """(seat, trump, deck): a seat holding all 13 trumps, the first bidder, or the dealer where the dealer's
        last card shows trump in its own suit."""
        p = d.plan
        t = p.pick_trump()
        for x in (self.ex.next(d.x.dealer), d.x.dealer):
            try:
                return x, t, p.deck(d.x.dealer, {x: top_of(t, 13)}, trump=t)
            except PlanError:
                continue
        raise PlanError("no seat can hold every trump")

    def made13(self, d: DriverBase) -> Design:
        """A seat bids 13 holding every trump."""
        x, t, deck = self.all_trumps(d)
        return Design(deck, d.plan.bids(d.x.dealer, d.x.scores, want={x: 13}),
                      goals=(Goal(frozenset([x]), 13),), note=f"seat {x} bids 13 holding every trump")

    def failed13(self, d: DriverBase) -> Design:
        """The dealer bids 13, the first bidder holding the top trump."""
        ex, p = self.ex, d.plan
        x, first = d.x.dealer, ex.next(d.x.dealer)
        t = p.pick_trump()
        deck = p.deck(d.x.dealer, {first: top_of(t, 1)}, trump=t)
        return Design(deck, p.bids(d.x.dealer, d.x.scores, want={x: 13}, first3=ex.total(d.x.scores) - 1),
                      goals=(Goal(frozenset([first]), 1),), note=f"seat {x} bids 13, seat {first} holds the top trump")

    def made_bid(self, unmade: bool) -> DesignFn:
        """A seat bids the made-bid number, failing it (the top four trumps elsewhere) or making it."""
        ex, rules = self.ex, self.rules

        def f(d: DriverBase) -> Design:
            p = d.plan
            if unmade:
                x = ex.next(d.x.dealer)
                t = p.pick_trump()
                others = ex.order(ex.next(x))[:3]
                deck = p.deck(d.x.dealer, {others[0]: top_of(t, 2), others[1]: top_of(t, 1, 2),
                                           others[2]: top_of(t, 1, 3)}, trump=t)
            else:
                x, t, deck = self.all_trumps(d)
            return Design(deck, p.bids(d.x.dealer, d.x.scores, want={x: rules.made_bid_wins}),
                          goals=() if unmade else (Goal(frozenset([x]), 13),),
                          note=f"seat {x} bids {rules.made_bid_wins}" + (", the top four trumps elsewhere" if unmade else
                                                                        " holding every trump"))
        return f

    def tie(self, b0: int, b1: int) -> DesignFn:
        """Seats 0 and 1 make b0 and b1 (seat 1 with the top five of a side suit, seat 0 with the top five trumps);
        seats 2 and 3 bid more than the tricks left and fail."""
        ex = self.ex

        def f(d: DriverBase) -> Design:
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

    def alone(self, d: DriverBase) -> Design:
        """Seat 0 makes its lowest bid, seats 1 and 3 fail 13."""
        p = d.plan
        t = p.pick_trump()
        sc = d.x.scores
        b0 = min(b for b in self.ex.legal_bids(sc[0]) if b > 0)
        return Design(p.deck(d.x.dealer, {0: top_of(t, 4)}, trump=t),
                      p.bids(d.x.dealer, sc, want={0: b0, 1: 13, 3: 13}), goals=(Goal(frozenset([0]), b0),),
                      note=f"seat 0 makes {b0}, seats 1 and 3 fail 13")


def individual_scenarios(rules: Rules, ex: Expected) -> list[Scenario]:
    """The scenarios of the individual family."""
    T = rules.target
    ds = _Individual(rules, ex)
    cancel, tie = ds.cancel, ds.tie
    v4 = ex.delta(4, 13)
    out = [
        Scenario("three deals in a row cancelled by the bid total", Start(0, (0, 0, 0, 0)),
                 [("cancel", cancel(0)), ("cancel", cancel(1)), ("cancel", cancel(2))]),
        Scenario("a cancelled deal, then a bid of 13 made", Start(1, (10, 0, 5, 0)),
                 [("cancel", cancel(3)), ("13 made", ds.made13)]),
        Scenario("two cancelled deals, then a bid of 13 failed", Start(3, (0, 12, 0, 7), T),
                 [("cancel", cancel(1)), ("cancel", cancel(0)), ("13 failed", ds.failed13)]),
        Scenario("the bids total exactly the threshold", Start(2, (3, 4, 5, 6)), [("at the threshold", ds.at_threshold)]),
        Scenario("both teams qualify, level, then not level", Start(2, (T - v4, T - v4, T - 1, T - 1)),
                 [("level tie", tie(4, 4)), ("tie for team 1", tie(4, 5))]),
        Scenario("both teams qualify, team 0 ahead", Start(3, (T - v4, T - v4, T - 1, T - 1)),
                 [("tie for team 0", tie(5, 4))]),
        Scenario("team 0 qualifies alone", Start(3, (T - 2, 30, 29, 40)), [("alone", ds.alone)]),
    ]
    for threshold, raised in rules.total_table:  # raised-total, reading rising: the total in force once a seat has threshold
        if raised > rules.total_min:
            out.append(Scenario(f"a raised total of {raised} from a score of {threshold}",
                                Start(1, (threshold, 2, 0, 3)),
                                [("below the raised total", cancel(0)), ("at the raised total", ds.at_threshold)]))
    if rules.made_bid_wins:
        out.append(Scenario("the made-bid number failed, then made", Start(0, (20, 25, 0, 5)),
                            [("made-bid failed", ds.made_bid(True)), ("made-bid win", ds.made_bid(False))]))
    return out


# ====================================================================== the auction


class _Auction:
    """The deals designed for the auction family (all-pass, weak hands, kaboot, 13, contracts to the target)."""

    def __init__(self, rules: Rules, ex: Expected) -> None:
        self.rules, self.ex = rules, ex
        self.lo = rules.min_bid
        self.strains = ex.enc.strains()

    def call(self, n: int, s: int) -> Call:
        """The call of ``n`` tricks in strain ``s`` (strain 0 when not Egyptian)."""
        return (n, s if self.strains > 1 else 0)

    @staticmethod
    def team_seats(team: int) -> frozenset[int]:
        """The two seats of ``team``."""
        return frozenset([team, team + 2])

    @staticmethod
    def all_pass(d: DriverBase) -> Design:
        """All four pass."""
        return Design(d.plan.deck(d.x.dealer), calls=d.plan.script(d.x.dealer, None, None), note="all four pass")

    @staticmethod
    def weak(i: int) -> DesignFn:
        """A weak seat (two every third design), then all four pass."""
        def f(d: DriverBase) -> Design:
            ws = [(d.x.dealer + i) % 4] + ([(d.x.dealer + i + 2) % 4] if i % 3 == 2 else [])
            # reading claimed of weak-hand: the deal is cancelled all the same, the first weak seat asking or, where
            # two are weak, every other design, the first keeping its hand and the second asking
            asks = (False, True) if len(ws) == 2 and i % 6 == 2 else (True,)
            return Design(d.plan.deck(d.x.dealer, weak=ws), calls=d.plan.script(d.x.dealer, None, None),
                          note=f"seat(s) {ws} hold no card above 10", asks=asks)
        return f

    @staticmethod
    def weak_kept(k: int) -> DesignFn:
        """Reading claimed of weak-hand: every weak seat keeps its hand (the k-th after the dealer; two when k is
        2), so the bidding starts; then all four pass."""
        def f(d: DriverBase) -> Design:
            ws = [(d.x.dealer + k) % 4] + ([(d.x.dealer + k + 2) % 4] if k == 2 else [])
            return Design(d.plan.deck(d.x.dealer, weak=ws), calls=d.plan.script(d.x.dealer, None, None),
                          note=f"seat(s) {ws} hold no card above 10 and keep their hands", asks=(False, False))
        return f

    def kaboot_bidders(self, d: DriverBase) -> Design:
        """The dealer holds every trump (Egyptian: the 13 top cards at no trump) and takes all 13 tricks."""
        p, dl, ex, rules, lo = d.plan, d.x.dealer, self.ex, self.rules, self.lo
        x = dl
        nt = self.strains > 1  # Egyptian: a no-trump contract
        t = p.pick_trump()
        if nt:
            top = [c for s in range(4) for c in top_of(s, 3)] + top_of(t, 1, 3)
            fixed, final, named = {x: top}, self.call(lo, NO_TRUMP), 0
        else:
            fixed, final, named = {x: top_of(t, 13)}, self.call(lo if rules.auction_style != "continuous" else lo + 1, t), t
        match = rules.auction_style == "dealer-privilege"
        warm = [] if match else [ex.next(dl)]
        return Design(p.deck(dl, fixed), calls=p.script(dl, x, final, warm=warm, match=match), named=named,
                      goals=(Goal(self.team_seats(x % 2), 13),),
                      note=f"the dealer {x} " + ("matches and " if match else "") + "holds " +
                           ("the 13 top cards (no trump)" if nt else "every trump"))

    def kaboot_defenders(self, d: DriverBase) -> Design:
        """A defender holds every trump."""
        p, dl, ex = d.plan, d.x.dealer, self.ex
        x = ex.next(dl)
        dfd = ex.next(x)
        t = p.pick_trump()
        return Design(p.deck(dl, {dfd: top_of(t, 13)}), calls=p.script(dl, x, self.call(self.lo, t)), named=t,
                      goals=(Goal(self.team_seats(dfd % 2), 13),),
                      note=f"seat {x} bids {self.lo}, defender {dfd} holds every trump")

    def made13(self, d: DriverBase) -> Design:
        """A contract of 13, the partner holding the top trump."""
        p, dl, ex = d.plan, d.x.dealer, self.ex
        order = ex.order(ex.next(dl))
        x = order[1]
        partner = ex.next(ex.next(x))
        t = p.pick_trump()
        side = [s for s in range(4) if s != t]
        fixed = {x: top_of(t, 12, 1) + top_of(side[0], 1), partner: top_of(t, 1)}
        return Design(p.deck(dl, fixed), calls=p.script(dl, x, self.call(13, t), warm=[order[0]]), named=t,
                      goals=(Goal(self.team_seats(x % 2), 13),), note=f"seat {x} bids 13, its partner holds the top trump")

    def failed13(self, d: DriverBase) -> Design:
        """A contract of 13, a defender holding the top trump."""
        p, dl, ex = d.plan, d.x.dealer, self.ex
        order = ex.order(ex.next(dl))
        x = order[2]
        dfd = ex.next(x)
        t = p.pick_trump()
        return Design(p.deck(dl, {dfd: top_of(t, 1)}), calls=p.script(dl, x, self.call(13, t), warm=order[:2]),
                      named=t, goals=(Goal(self.team_seats(dfd % 2), 1),),
                      note=f"seat {x} bids 13, defender {dfd} holds the top trump")

    def made(self, team: int, all13: bool = False) -> DesignFn:
        """A seat of ``team`` bids the lowest holding the top trumps (all 13 with ``all13``)."""
        ex, lo = self.ex, self.lo

        def f(d: DriverBase) -> Design:
            p, dl = d.plan, d.x.dealer
            x = next(s for s in ex.order(ex.next(dl)) if s % 2 == team)
            t = p.pick_trump()
            k = 13 if all13 else lo
            return Design(p.deck(dl, {x: top_of(t, k)}), calls=p.script(dl, x, self.call(lo, t)), named=t,
                          goals=(Goal(self.team_seats(team), k),), note=f"seat {x} bids {lo} holding the top {k} trumps")
        return f

    @staticmethod
    def forced(d: DriverBase) -> Design:
        """Three pass and the dealer must bid."""
        return Design(d.plan.deck(d.x.dealer), calls=d.plan.script(d.x.dealer, None, None),
                      note="three pass, the dealer must bid")

    def played(self) -> list[Scenario]:
        """The scenarios that play hands: kaboot, 13, the target (raised), ties at the target, the forced dealer."""
        rules, ex, T, made = self.rules, self.ex, self.rules.target, self.made
        gain13 = ex.team_deltas(self.lo, 0, 13)[0]
        played: list[Scenario] = [
            Scenario("kaboot for the bidding team", Start(0, (0, 0, 0, 0)), [("kaboot, bidders", self.kaboot_bidders)]),
            Scenario("kaboot for the defenders", Start(1, (5, 3, 5, 3)), [("kaboot, defenders", self.kaboot_defenders)]),
            Scenario("a contract of 13 made", Start(2, (10, 20, 10, 20)), [("13 made", self.made13)]),
            Scenario("a contract of 13 failed", Start(3, (0, 10, 0, 10)), [("13 failed", self.failed13)]),
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
            played.append(Scenario("the dealer forced to bid", Start(3, (0, 0, 0, 0)), [("forced", self.forced)]))
        return played


def auction_scenarios(rules: Rules, ex: Expected) -> list[Scenario]:
    """The scenarios of the auction family: the played ones, each after a run of cancelled deals of its own (every
    run of one, two and three by each cause and by mixed causes), then the runs left over alone."""
    ds = _Auction(rules, ex)
    played = ds.played()
    extra: list[Scenario] = []
    if rules.weak_redeal and rules.weak_claim == "claimed":
        extra.append(Scenario("weak seats keep their hands (reading claimed of weak-hand)", Start(2, (0, 0, 0, 0)),
                              [("one weak seat keeps", ds.weak_kept(1)), ("two weak seats keep", ds.weak_kept(2))]))
    here = causes(rules)
    pats: list[str] = []
    if "auction.all-pass" in here:
        pats += ["A", "AA", "AAA"]
    if "deal.weak-redeal" in here:
        pats += ["W", "WW", "WWW"]
    if len(here) > 1:
        pats += ["AW", "WAW"]
    n_weak = itertools.count()

    def prefix(pat: str) -> list[tuple[str, DesignFn]]:
        return [("all pass", ds.all_pass) if c == "A" else ("weak hand", ds.weak(next(n_weak))) for c in pat]

    for sc, pat in zip(played, pats, strict=False):
        sc.deals = prefix(pat) + sc.deals
        sc.name = f"{len(pat)} cancelled, then {sc.name}"
    out = list(played)
    for k, pat in enumerate(pats[len(played):]):
        out.append(Scenario(f"{len(pat)} deals cancelled in a row ({pat})", Start(k % 4, (0, 0, 0, 0)), prefix(pat)))
    return out + extra
