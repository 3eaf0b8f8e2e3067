"""Realistic boundary bugs in the engine's rule functions (``tarneeb.core.rules``), for checking the checks.

Each mutant replaces one function of :mod:`tarneeb.core.rules` (and the alias :mod:`tarneeb.core.match`
binds at import, where there is one) by a copy with one boundary slip. ``patched(name)`` applies one for the
length of a ``with`` block; ``tests/test_differential_mutants.py`` asserts the differential properties catch them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from tarneeb.core import rules as R
from tarneeb.core.cards import SUIT_MASKS
from tarneeb.core.spec import Rules

_orig = {name: getattr(R, name) for name in dir(R) if not name.startswith("__")}
# the true functions, typed, for the mutants that wrap them
_individual_outcome = R.individual_outcome
_auction_outcome = R.auction_outcome
_auction_bid_violation = R.auction_bid_violation
_auction_next = R.auction_next


def _total_min_strict(r: Rules, bids: Sequence[int]) -> bool:
    return sum(bids) > r.total_min  # '>' for '>='


def _partner_at_zero(r: Rules, a: int, b: int) -> bool:
    return (a >= r.target and b >= 0) or (b >= r.target and a >= 0)  # '>= 0' for '> 0'


def _individual_tie_to_team_0(r: Rules, scores: Sequence[int], bids: Sequence[int] | None = None,
                              tricks: Sequence[int] | None = None) -> tuple[int | None, str]:
    win, rule = _individual_outcome(r, scores, bids, tricks)
    if win is None and rule == "tie.both-qualify":
        return 0, rule  # an exact tie goes to team 0
    return win, rule


def _auction_tie_to_team_0(r: Rules, team_scores: tuple[int, int], target: int, bidding_team: int,
                           bid13_won: bool) -> tuple[int | None, str]:
    win, rule = _auction_outcome(r, team_scores, target, bidding_team, bid13_won)
    return (0, rule) if rule == "tie.both-qualify" else (win, rule)


def _target_strict(r: Rules, team_scores: tuple[int, int], target: int, bidding_team: int,
                   bid13_won: bool) -> tuple[int | None, str]:
    return _auction_outcome(r, team_scores, target + 1, bidding_team, bid13_won)  # '>' for '>='


def _kaboot_ignored(r: Rules, usual: int) -> int:
    return usual


def _redeal_dealer_swapped(r: Rules, dealer: int) -> int:
    return R.next_seat(r, dealer) if r.redeal_same_dealer else dealer


def _rising_min_strict(r: Rules, score: int) -> int:
    lo = r.bid_min
    if r.rising_min:
        for threshold, m in r.rising_table:
            if score > threshold:  # '>' for '>='
                lo = max(lo, m)
    return lo


def _play_on_late(r: Rules, games_won: int) -> int:
    return r.target + r.play_on_raise if r.play_on_raise > 0 and games_won >= 2 else r.target  # 2 for 1


def _made_exactly_fails(r: Rules, bid: int, tricks: int) -> int:
    v = r.values[bid]
    return v if tricks > bid else -v  # '>' for '>='


def _bid13_needs_12(r: Rules, contract: int, team_tricks: int) -> bool:
    return r.bid13 == "win" and contract == 13 and team_tricks >= 12


def _must_trump_ignored(r: Rules, hand: int, led: int, trump: int) -> int:
    if led < 0:
        return hand
    follow = hand & SUIT_MASKS[led]
    return follow if follow else hand


def _lower_trump_overtakes(cards: Sequence[int], trump: int) -> int:
    best, best_card = 0, cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if c // 13 == trump:  # trump tested first: a lower trump takes a higher one
            best, best_card = i, c
        elif c // 13 == best_card // 13 and c > best_card:
            best, best_card = i, c
    return best


def _dealer_may_not_match(r: Rules, dealer: int, seat: int, top: tuple[int, int | None] | None, passes: int,
                          n: int | None, strain: int | None) -> tuple[str, str] | None:
    if n is not None and top is not None and seat == dealer and R.bid_key(n, strain) == R.bid_key(*top):
        return "auction.dealer-privilege", "mutant: the dealer may not match"
    return _auction_bid_violation(r, dealer, seat, top, passes, n, strain)


def _dealer_forced_may_pass(r: Rules, dealer: int, seat: int, top: tuple[int, int | None] | None, passes: int,
                            n: int | None, strain: int | None) -> tuple[str, str] | None:
    if n is None:
        return None  # the all-pass rule is not applied
    return _auction_bid_violation(r, dealer, seat, top, passes, n, strain)


def _continuous_holder_not_checked(r: Rules, seat: int, spoken: int, active: Sequence[bool], has_top: bool,
                                   holder: int) -> int | None:
    if r.auction_style == "continuous" and has_top and sum(active) == 2 and active[holder]:
        return None  # ends one pass too early: a single opponent still in is forgotten
    return _auction_next(r, seat, spoken, active, has_top, holder)


#: name -> (what is wrong, {function name in tarneeb.core.rules: replacement})
MUTANTS: dict[str, tuple[str, dict[str, Callable[..., Any]]]] = {
    "total-min-strict": ("bid.total: a hand is played only above total_min ('>' for '>=')",
                         {"hand_is_played": _total_min_strict}),
    "partner-at-zero": ("win.qualify: a partner at exactly 0 qualifies", {"team_qualifies": _partner_at_zero}),
    "individual-tie-team-0": ("tie.both-qualify: an exact tie of the keys goes to team 0",
                              {"individual_outcome": _individual_tie_to_team_0}),
    "auction-tie-team-0": ("tie.both-qualify: both teams over the target, team 0 wins (not the bidders)",
                           {"auction_outcome": _auction_tie_to_team_0}),
    "target-strict": ("win.target: the target must be passed, not reached", {"auction_outcome": _target_strict}),
    "kaboot-ignored": ("score.kaboot: all 13 tricks score as usual", {"_kaboot": _kaboot_ignored}),
    "redeal-dealer-swapped": ("redeal.dealer: same and next dealer swapped",
                              {"dealer_after_redeal": _redeal_dealer_swapped}),
    "rising-min-strict": ("bid.rising-min: the minimum rises above a threshold, not at it",
                          {"min_bid_for": _rising_min_strict}),
    "play-on-late": ("win.play-on: the target rises after the second game", {"target_in_force": _play_on_late}),
    "made-exactly-fails": ("score.individual: a bid made exactly counts as failed",
                           {"individual_delta": _made_exactly_fails}),
    "bid13-needs-12": ("score.bid13: a bid of 13 wins the game with 12 tricks", {"bid13_wins": _bid13_needs_12}),
    "must-trump-ignored": ("play.must-trump: a void player may discard holding a trump",
                           {"legal_play_mask": _must_trump_ignored}),
    "lower-trump-overtakes": ("play.winner: a later lower trump beats an earlier higher one",
                              {"trick_winner": _lower_trump_overtakes}),
    "dealer-may-not-match": ("auction.dealer-privilege: the dealer may not take the top bid at the same number",
                             {"auction_bid_violation": _dealer_may_not_match}),
    "dealer-forced-may-pass": ("auction.all-pass: the dealer may pass after three passes",
                               {"auction_bid_violation": _dealer_forced_may_pass}),
    "continuous-ends-early": ("auction.continuous: over while an opponent of the holder is still in",
                              {"auction_next": _continuous_holder_not_checked}),
}

@contextmanager
def patched(name: str) -> Iterator[None]:
    """Run the body with mutant ``name`` in place of the engine's function(s)."""
    swaps = MUTANTS[name][1]
    try:
        for fn, new in swaps.items():
            setattr(R, fn, new)
        yield
    finally:
        for fn in swaps:
            setattr(R, fn, _orig[fn])
