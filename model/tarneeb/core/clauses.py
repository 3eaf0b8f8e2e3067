"""Which clause decides: the one place that picks the clause id cited for a fact of a hand.

The verifier, the conformance vectors, the fuzzer and the referee cite clauses when they report a fact or a
disagreement; they all ask here. Each function returns a clause id of the ruleset's spec
(``Rules.ruleset.clauses``); :func:`cite` gives its source (document and heading).
"""

from __future__ import annotations

from collections.abc import Sequence

from tarneeb.core.cards import SUIT_MASKS
from tarneeb.core.spec import Rules


def cite(r: Rules, cid: str) -> str:
    """The clause id with its document and heading (the bare id when the ruleset has no such clause)."""
    return r.ruleset.cite(cid) if cid in r.ruleset.clauses else cid


def known(r: Rules, cid: str, fallback: str) -> str:
    """``cid`` when the ruleset has that clause, else ``fallback``."""
    return cid if cid in r.ruleset.clauses else fallback


# ------------------------------------------------------------------ deal and trump


def trump_clause(r: Rules) -> str:
    """The clause that fixes the trump of a hand: the Egyptian contract's strain, or trump.source."""
    return "auction.egyptian" if r.egyptian else "trump.source"


def redeal_clause(r: Rules) -> str:
    """The clause that decides whether a deal is played or thrown in after the bidding."""
    return "bid.total" if r.individual else "auction.all-pass"


def next_dealer_clause(redeal: str | None) -> str:
    """The clause that names the next dealer: deal.rotation after a played deal; after a cancelled one,
    redeal.dealer for a low bid total, else the clause that cancelled it."""
    if redeal is None:
        return "deal.rotation"
    return "redeal.dealer" if redeal == "bid.total" else redeal


# ------------------------------------------------------------------ bidding


def turn_clause(r: Rules) -> str:
    """The clause that says whose turn it is to bid."""
    if r.individual:
        return "bid.turn"
    return "auction.continuous" if r.auction_style == "continuous" else "auction.order"


def contract_clause(r: Rules, either_none: bool) -> str:
    """The clause that decides the contract: all-pass when one side has no contract, else the auction style."""
    if either_none:
        return "auction.all-pass"
    return "auction.dealer-privilege" if r.auction_style == "dealer-privilege" else "auction.continuous"


# ------------------------------------------------------------------ play


def lead_clause(trick_no: int) -> str:
    """Who leads trick ``trick_no`` (0-based): play.lead for the first, play.next-lead after."""
    return "play.lead" if trick_no == 0 else "play.next-lead"


def play_clause(r: Rules, hand: int, led: int, trump: int) -> str:
    """The clause deciding which cards a hand may play: play.must-trump when it applies (void in the led suit,
    holding a trump, under must-trump), else play.follow."""
    if (r.must_trump and led >= 0 and 0 <= trump < 4 and not hand & SUIT_MASKS[led]
            and hand & SUIT_MASKS[trump]):
        return "play.must-trump"
    return "play.follow"


# ------------------------------------------------------------------ scoring and outcome


def score_clause(r: Rules, contract: tuple[int, int, int | None] | None, tricks_won: Sequence[int]) -> str:
    """The clause that scores a played hand (``contract`` None: individual bids)."""
    if contract is None:
        return "score.individual"
    if contract[1] == 13 and r.bid13 != "normal":
        return "score.bid13"
    if 13 in (tricks_won[0] + tricks_won[2], tricks_won[1] + tricks_won[3]) and r.kaboot != "none":
        return "score.kaboot"
    return "score.standard" if r.score_style == "standard" else "score.bid-only"


def individual_delta_clause(claimed: int, expected: int) -> str:
    """For a wrong individual delta: score.individual when the sign (made or not) is wrong, else score.values."""
    return "score.individual" if abs(claimed) == abs(expected) or claimed * expected <= 0 else "score.values"


def match_over_clause(r: Rules, outcome_clause: str) -> str:
    """The clause that decides whether a hand ends the match: win.play-on when the ruleset plays on."""
    return "win.play-on" if r.play_on_raise > 0 else outcome_clause


# ------------------------------------------------------------------ conformance (vectors, fuzz)

# ------------------------------------------------------------------ referee (ruling)


def bid_legal_clauses(r: Rules) -> tuple[str, ...]:
    """The clauses the referee cites on whether a bid is legal (a violated one is put first). Individual bids:
    the range, the excluded bids, the rising minimum when the ruleset has one, no passing; auction: the range,
    raising the top bid, how the auction runs (:func:`contract_clause`), the order of speaking."""
    if r.individual:
        return ("bid.range", "bid.excluded") + (("bid.rising-min",) if r.rising_min else ()) + ("bid.no-pass",)
    return ("auction.range", "auction.raise", contract_clause(r, False), "auction.order")


def score_ruling_clauses(r: Rules) -> tuple[str, ...]:
    """The clauses the referee cites for a hand's score. Individual bids: :func:`score_clause` with the values,
    extra and negative-score clauses; auction: the ruleset's own scoring clause (:func:`score_clause` of a hand
    with no bid of 13 and no kaboot), then the kaboot and bid-13 clauses that may override it."""
    if r.individual:
        return (score_clause(r, None, (0, 0, 0, 0)), "score.values", "score.extra", "score.negative")
    return (score_clause(r, (0, 7, None), (7, 6, 0, 0)), "score.kaboot", "score.bid13")
