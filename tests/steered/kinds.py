"""The steered matches' results and coverage: a counterexample, and the kinds of transition a variant must reach."""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from tarneeb.core.spec import Rules
from tarneeb_proofs.witness import Witness

MOD = "tarneeb.core.match"

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
        """The counterexample as a readable witness: the engine function, the transition, the input, both values
        and the clause with its source."""
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
    """Raised by :func:`tests.steered.runs.steered_matches` when the engine disagrees with the encoding."""

    def __init__(self, cx: Counterexample) -> None:
        super().__init__(f"{cx.transition}: engine {cx.engine}, encoding {cx.encoding} ({cx.inputs})")
        self.cx = cx


class PlanError(Exception):
    """A scenario could not be built for a variant (a defect of the steering, never a pass)."""


class Bad(Exception):
    """A step where the engine disagrees with the encoding: ends the variant's run with its counterexample."""

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
    """A kind of transition the steered matches count."""

    id: str  # the column label
    text: str
    clauses: tuple[str, ...]  # the clause cited when it is never reached (the first the ruleset has)


CAUSES = (("bid.total", "T"), ("auction.all-pass", "A"), ("deal.weak-redeal", "W"))
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
      for cause, c in CAUSES for k in (1, 2, 3)),
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
KIND = MappingProxyType({k.id: k for k in KINDS})
INDIVIDUAL_ONLY = frozenset({"total<", "total=", "total>", "total-raised", "madebid", "madebid-x", "1xT", "2xT", "3xT"})
AUCTION_ONLY = frozenset({"all-pass", "forced", "weak", "weak-ask", "weak-keep", "made", "failed", "kaboot-bid",
                          "kaboot-def", "play-on", "won-raised", "1xA", "2xA", "3xA", "1xW", "2xW", "3xW", "2xmix",
                          "3xmix"})


def causes(rules: Rules) -> list[str]:
    """The causes of a cancelled deal that can occur under ``rules`` (from its clauses and resolved options)."""
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
    """Why the transition ``kind`` cannot occur under ``rules``, or None when it can (so a zero count fails)."""
    why = _family_or_cause(kind, rules)
    if why is not None:
        return why
    cl = rules.ruleset.clauses
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


def _family_or_cause(kind: str, rules: Rules) -> str | None:
    """Why ``kind`` cannot occur in the ruleset's family, or without the cause of a cancelled deal it counts."""
    fam = "individual" if rules.individual else "auction"
    if kind in INDIVIDUAL_ONLY and not rules.individual:
        return f"the {fam} family has no {KIND[kind].clauses[0]} clause"
    if kind in AUCTION_ONLY and rules.individual:
        return f"the {fam} family has no {KIND[kind].clauses[0]} clause"
    here = causes(rules)
    for cause, c in CAUSES:
        if kind.endswith(f"x{c}") and cause not in here:
            return _no_cause(rules, cause)
    if kind in ("2xmix", "3xmix") and len(here) < 2:
        return "fewer than two causes of a cancelled deal under this variant"
    if kind in ("total<", "all-pass", "weak"):
        cause = {"total<": "bid.total", "all-pass": "auction.all-pass", "weak": "deal.weak-redeal"}[kind]
        if cause not in here:
            return _no_cause(rules, cause)
    return None


def _no_cause(rules: Rules, cause: str) -> str:
    if cause not in rules.ruleset.clauses:
        return f"no {cause} clause"
    if cause == "auction.all-pass":
        return "all_pass = dealer-forced: the dealer must bid, no deal is cancelled"
    return "weak_redeal = false (off)"
