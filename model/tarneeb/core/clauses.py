"""Which clause decides: the one place that picks the clause id cited for a fact of a hand.

The verifier, the conformance vectors, the fuzzer and the referee cite clauses when they report a fact or a
disagreement; they all ask here. Each function returns a clause id of the ruleset's spec
(``Rules.ruleset.clauses``); :func:`cite` gives its source (document and heading). Most take plain data;
the conformance choices :func:`legal_clause` and :func:`to_move_clause` read a
:class:`~tarneeb.core.match.Match` at the point where two engines disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarneeb.core import hand as core_hand
from tarneeb.core import rules as core_rules
from tarneeb.core.actions import Bid, Play, Redeal, parse_action
from tarneeb.core.cards import SUIT_MASKS
from tarneeb.core.match import HandRecord, Match, Phase
from tarneeb.core.rules import play_violation
from tarneeb.core.spec import Rules, Ruleset
from tarneeb.errors import IllegalAction


def cite(r: Rules | Ruleset, cid: str) -> str:
    """The clause id with its document and heading (the bare id when the ruleset has no such clause)."""
    rs = r if isinstance(r, Ruleset) else r.ruleset
    return rs.cite(cid) if cid in rs.clauses else cid


def known(rules: Rules, cid: str, fallback: str) -> str:
    """``cid`` when the ruleset has that clause, else ``fallback``."""
    return cid if cid in rules.ruleset.clauses else fallback


# ------------------------------------------------------------------ deal and trump


def trump_clause(rules: Rules) -> str:
    """The clause that fixes the trump of a hand: the Egyptian contract's strain, or trump.source."""
    return "auction.egyptian" if rules.egyptian else "trump.source"


def redeal_clause(rules: Rules) -> str:
    """The clause that decides whether a deal is played or thrown in after the bidding."""
    return "bid.total" if rules.individual else "auction.all-pass"


next_dealer_clause = core_hand.next_dealer_clause  # the clause that names the next dealer (core.hand decides it)


# ------------------------------------------------------------------ bidding


def turn_clause(rules: Rules) -> str:
    """The clause that says whose turn it is to bid."""
    if rules.individual:
        return "bid.turn"
    return "auction.continuous" if rules.auction_style == "continuous" else "auction.order"


def contract_clause(rules: Rules, either_none: bool) -> str:
    """The clause that decides the contract: all-pass when one side has no contract, else the auction style."""
    if either_none:
        return "auction.all-pass"
    return "auction.dealer-privilege" if rules.auction_style == "dealer-privilege" else "auction.continuous"


# ------------------------------------------------------------------ play


def lead_clause(trick_no: int) -> str:
    """Who leads trick ``trick_no`` (0-based): play.lead for the first, play.next-lead after."""
    return "play.lead" if trick_no == 0 else "play.next-lead"


def play_clause(rules: Rules, hand: int, led: int, trump: int) -> str:
    """The clause deciding which cards a hand may play: play.must-trump when it applies (void in the led suit,
    holding a trump, under must-trump), else play.follow."""
    if (rules.must_trump and led >= 0 and 0 <= trump < 4 and not hand & SUIT_MASKS[led]
            and hand & SUIT_MASKS[trump]):
        return "play.must-trump"
    return "play.follow"


# ------------------------------------------------------------------ scoring and outcome


def score_clause(rules: Rules, contract: tuple[int, int, int | None] | None, tricks_won: Sequence[int]) -> str:
    """The clause that scores a played hand (``contract`` None: individual bids)."""
    if contract is None:
        return "score.individual"
    if contract[1] == 13 and rules.bid13 != "normal":
        return "score.bid13"
    if 13 in (tricks_won[0] + tricks_won[2], tricks_won[1] + tricks_won[3]):
        return "score.kaboot"  # under every kaboot option, "no bonus" included: the clause names them all
    return "score.standard" if rules.score_style == "standard" else "score.bid-only"


def individual_bid_clause(rules: Rules, bid: int) -> str:
    """The clause that scores one seat's bid of ``bid``: score.values where the ruleset's table gives the bid
    another value than its number, else score.individual."""
    return "score.individual" if core_rules.bid_value(rules, bid) == bid else "score.values"


def individual_delta_clause(claimed: int, expected: int) -> str:
    """For a wrong individual delta: score.individual when the sign (made or not) is wrong, else score.values."""
    return "score.individual" if abs(claimed) == abs(expected) or claimed * expected <= 0 else "score.values"


def deltas_clause(rules: Rules, contract: tuple[int, int, int | None] | None, tricks_won: Sequence[int],
                  claimed: Sequence[int | None], expected: Sequence[int | None]) -> str:
    """The clause a wrong set of score changes breaks, the same for ``verify`` and ``fuzz``: individual bids by
    the first seat whose change differs (:func:`individual_delta_clause`), the auction by :func:`score_clause`."""
    if contract is None:
        for c, e in zip(claimed, expected, strict=True):
            if c is not None and e is not None and c != e:
                return individual_delta_clause(c, e)
    return score_clause(rules, contract, tricks_won)


def match_over_clause(rules: Rules, outcome_clause: str) -> str:
    """The clause that decides whether a hand ends the match: win.play-on when the ruleset plays on."""
    return "win.play-on" if rules.play_on_raise > 0 else outcome_clause


# ------------------------------------------------------------------ conformance (vectors, fuzz)


def legal_bid_clause(rules: Rules, n: int | None, matches_top: bool) -> str:
    """The clause that allows a legal bid (``n`` None: a pass; ``matches_top``: it equals the top bid so far)."""
    if rules.individual:
        return "bid.rising-min" if rules.rising_min and n is not None and n < 5 else "bid.range"
    if n is None:
        return "auction.order"
    return "auction.dealer-privilege" if matches_top else "auction.raise"


def perft_clause(rules: Rules) -> str:
    """The clause that decides how many ways a hand can be played on: the legality of every card."""
    return "play.must-trump" if rules.must_trump else "play.follow"


def result_clauses(rules: Rules, rec: HandRecord) -> dict[str, str]:
    """The clause deciding each field of a finished deal's result (redeal, next_dealer, deltas, winner, trump)."""
    if rec.redeal is not None:
        return {"redeal": rec.redeal, "next_dealer": next_dealer_clause(rec.redeal)}
    return {"redeal": redeal_clause(rules), "next_dealer": next_dealer_clause(None),
            "deltas": score_clause(rules, None if rules.individual else rec.contract, rec.tricks_won),
            "winner": rec.outcome_rule or ("win.qualify" if rules.individual else "win.target"),
            "trump": trump_clause(rules)}


def legal_clause(rules: Rules, m: Match, extra: Sequence[str], missing: Sequence[str]) -> str:
    """The clause deciding the first action two engines disagree about at ``m`` (``extra``: actions only the
    other engine allows, ``missing``: actions only ours allows; texts such as ``play:AS``, ``bid:7``)."""
    a = parse_action((list(extra) + list(missing))[0])
    if m.phase is Phase.WEAK_CLAIM or isinstance(a, Redeal):  # a weak seat's choice (ambiguity weak-hand)
        return "deal.weak-redeal"
    if m.phase is Phase.PLAY and isinstance(a, Play):
        hand = m.hands[m.to_move]
        v = play_violation(rules, hand, m.led, m.trump, a.card)
        if v is not None:
            return v[0]
        if m.led >= 0 and hand & SUIT_MASKS[m.led]:
            return "play.follow"
        return perft_clause(rules)
    if m.phase is Phase.BIDDING and isinstance(a, Bid):
        probe = m.copy()
        try:
            probe.apply(a)
        except IllegalAction as e:
            return e.rule
        if rules.individual:
            if rules.rising_min:
                return "bid.rising-min"
            return "bid.excluded" if a.n in rules.bid_excluded or "bid.excluded" in rules.ruleset.clauses else "bid.range"
        if a.n is None:
            return "auction.all-pass" if rules.all_pass == "dealer-forced" else "auction.order"
        top = m.auction_top
        if top is not None and top.key() == a.key():
            return contract_clause(rules, False)
        if a.strain is not None or rules.egyptian:
            return "auction.egyptian"
        return "auction.range" if a.n in (rules.min_bid, 13) else "auction.raise"
    return "trump.source"


def to_move_clause(rules: Rules, m: Match) -> str:
    """The clause that says who is to move at ``m``: the bidding turn, the contract holder naming trump, the
    leader of a trick, or the direction of play inside one."""
    if m.phase is Phase.BIDDING:
        return turn_clause(rules)
    if m.phase is Phase.TRUMP_CHOICE:
        return "trump.source"
    if m.phase is Phase.WEAK_CLAIM:
        return "deal.weak-redeal"
    if m.phase is Phase.PLAY:
        if m.trick:
            return "play.direction"
        return lead_clause(len(m.records[-1].winners if m.record is None else m.record.winners))
    return "hand.tricks"


# ------------------------------------------------------------------ referee (ruling)


def bid_legal_clauses(rules: Rules, forced: bool = False) -> tuple[str, ...]:
    """The clauses the referee cites on whether a bid is legal (a violated one is put first). Individual bids:
    the range, the excluded bids, the rising minimum when the ruleset has one, no passing; auction: the range,
    raising the top bid, how the auction runs (:func:`contract_clause`), the order of speaking; ``forced``
    (the dealer after three passes) puts auction.all-pass first under the dealer-forced rule."""
    if forced and not rules.individual and rules.all_pass == "dealer-forced":
        return ("auction.all-pass", "auction.range", "auction.order")
    if rules.individual:
        return ("bid.range", "bid.excluded") + (("bid.rising-min",) if rules.rising_min else ()) + ("bid.no-pass",)
    return ("auction.range", "auction.raise", contract_clause(rules, False), "auction.order")


def score_ruling_clauses(rules: Rules) -> tuple[str, ...]:
    """The clauses the referee cites for a hand's score. Individual bids: :func:`score_clause` with the values,
    extra and negative-score clauses; auction: the ruleset's own scoring clause (:func:`score_clause` of a hand
    with no bid of 13 and no kaboot), then the kaboot and bid-13 clauses that may override it."""
    if rules.individual:
        return (score_clause(rules, None, (0, 0, 0, 0)), "score.values", "score.extra", "score.negative")
    return (score_clause(rules, (0, 7, None), (7, 6, 0, 0)), "score.kaboot", "score.bid13")


# ------------------------------------------------------------------ irregularities

IRREGULARITIES: tuple[str, ...] = (
    "revoke", "bid-out-of-turn", "lead-out-of-turn", "exposed-card", "misdeal", "wrong-card-count",
)


def irregularity_clauses(rules: Rules, irregularity: str, trick_no: int = 0, must_trump: bool = False) -> tuple[str, ...]:
    """The clauses of ``rules`` that an irregularity breaks (none of them states a remedy): a revoke breaks
    play.follow (play.must-trump when that is what was broken), a bid out of turn the bidding order
    (:func:`turn_clause`), a lead out of turn :func:`lead_clause`, a misdeal or a wrong number of cards the
    deal (deal.order, hand.tricks). An exposed card breaks no clause: ``()``. Ids the ruleset lacks are left
    out."""
    ids: tuple[str, ...]
    if irregularity == "revoke":
        ids = ("play.must-trump", "play.follow") if must_trump else ("play.follow",)
    elif irregularity == "bid-out-of-turn":
        ids = (turn_clause(rules),)
    elif irregularity == "lead-out-of-turn":
        ids = (lead_clause(trick_no), "play.direction")
    elif irregularity in ("misdeal", "wrong-card-count"):
        ids = ("deal.order", "hand.tricks")
    elif irregularity == "exposed-card":
        ids = ()
    else:
        raise ValueError(f"unknown irregularity {irregularity!r}; valid: {', '.join(IRREGULARITIES)}")
    return tuple(c for c in ids if c in rules.ruleset.clauses)
