"""Realistic bugs in the engine's rule functions, for the ``engine`` family to catch.

Each mutant replaces one function of :mod:`tarneeb.core.rules` in the running
process (no file is edited): ``tarneeb prove`` runs some of them as the engine
family's mutant checks, ``tests/test_proof_engine.py`` runs all of them, one at
a time, through the family and through ``tarneeb prove``.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from tarneeb.core import rules as R
from tarneeb.core.cards import SUIT_MASKS
from tarneeb.core.spec import OptionValue, Rules

Fn = Callable[..., Any]


@dataclass(frozen=True)
class EngineMutant:
    fn: str  # the function of tarneeb.core.rules it replaces
    stage: str  # the engine stage that must catch it
    text: str
    make: Callable[[Fn], Fn]  # original function -> buggy replacement
    ruleset: str  # a ruleset (and option values) where the bug shows
    options: dict[str, OptionValue] = field(default_factory=dict)
    # also a mutant check of `tarneeb prove`: "all" rulesets, every ruleset of its "kind", its "own" ruleset only
    in_manifest: str = ""
    module: str = "tarneeb.core.rules"  # where ``fn`` lives (the match stage mutates the state machine)


def _trick_winner_no_trump(orig: Fn) -> Fn:
    def f(cards: Sequence[int], trump: int) -> int:
        best, best_card = 0, cards[0]
        for i in range(1, len(cards)):
            if cards[i] // 13 == best_card // 13 and cards[i] > best_card:
                best, best_card = i, cards[i]
        return best
    return f


def _trick_winner_first_trump(orig: Fn) -> Fn:
    def f(cards: Sequence[int], trump: int) -> int:  # a second, higher trump does not overtrump
        best, best_card = 0, cards[0]
        for i in range(1, len(cards)):
            c = cards[i]
            if c // 13 == best_card // 13 and c > best_card and best_card // 13 != trump:
                best, best_card = i, c
            elif c // 13 == trump and best_card // 13 != trump:
                best, best_card = i, c
        return best
    return f


def _trick_winner_rank(orig: Fn) -> Fn:
    def f(cards: Sequence[int], trump: int) -> int:  # the highest rank of any suit wins, trumps aside
        trumps = [i for i, c in enumerate(cards) if c // 13 == trump]
        pool = trumps or list(range(len(cards)))
        return max(pool, key=lambda i: (cards[i] % 13, -i))
    return f


def _mask_no_follow(orig: Fn) -> Fn:
    return lambda r, hand, led, trump: hand


def _mask_no_must_trump(orig: Fn) -> Fn:
    def f(r: Rules, hand: int, led: int, trump: int) -> int:
        if led < 0:
            return hand
        return hand & SUIT_MASKS[led] or hand
    return f


def _mask_must_trump_when_holding_led(orig: Fn) -> Fn:
    def f(r: Rules, hand: int, led: int, trump: int) -> int:
        if led < 0:
            return hand
        if r.must_trump and 0 <= trump < 4 and hand & SUIT_MASKS[trump]:
            return hand & SUIT_MASKS[trump] | hand & SUIT_MASKS[led]
        return hand & SUIT_MASKS[led] or hand
    return f


def _violation_void_free(orig: Fn) -> Fn:
    def f(r: Rules, hand: int, led: int, trump: int, card: int) -> tuple[str, str] | None:
        if hand >> card & 1 and led >= 0 and not hand & SUIT_MASKS[led]:
            return None  # a void player may play anything, must-trump or not
        return orig(r, hand, led, trump, card)  # type: ignore[no-any-return]
    return f


def _violation_not_in_hand(orig: Fn) -> Fn:
    def f(r: Rules, hand: int, led: int, trump: int, card: int) -> tuple[str, str] | None:
        if led < 0:
            return None  # the leader may lead any card, held or not
        return orig(r, hand, led, trump, card)  # type: ignore[no-any-return]
    return f


def _min_bid_strict(orig: Fn) -> Fn:
    def f(r: Rules, score: int) -> int:
        lo = r.bid_min
        if r.rising_min:
            for threshold, m in r.rising_table:
                if score > threshold:
                    lo = max(lo, m)
        return lo
    return f


def _bid_violation_below_min(orig: Fn) -> Fn:
    def f(r: Rules, score: int, bid: int | None, strain: int | None = None) -> tuple[str, str] | None:
        if strain is None and bid is not None and bid == R.min_bid_for(r, score) - 1 and bid >= 0:
            return None
        return orig(r, score, bid, strain)  # type: ignore[no-any-return]
    return f


def _bid_violation_pass(orig: Fn) -> Fn:
    return lambda r, score, bid, strain=None: None if bid is None and strain is None else orig(r, score, bid, strain)


def _legal_bids_no_13(orig: Fn) -> Fn:
    return lambda r, score: [b for b in orig(r, score) if b < 13]


def _legal_bids_excluded(orig: Fn) -> Fn:
    return lambda r, score: list(range(R.min_bid_for(r, score), r.bid_max + 1))


def _hand_played_strict(orig: Fn) -> Fn:
    return lambda r, bids: sum(bids) > r.total_min


def _hand_played_three(orig: Fn) -> Fn:
    return lambda r, bids: sum(bids[:3]) >= r.total_min


def _dealer_swapped(orig: Fn) -> Fn:
    return lambda r, dealer: R.next_seat(r, dealer) if r.redeal_same_dealer else dealer


def _next_seat_backwards(orig: Fn) -> Fn:
    return lambda r, seat: (seat - r.step) % 4


def _reveal_suit(orig: Fn) -> Fn:
    return lambda r, card: card // 13


def _weak_counts_ten(orig: Fn) -> Fn:
    return lambda mask: all(mask & (0b1111100000000 << (13 * s)) == 0 for s in range(4))


def _weak_ignores_aces(orig: Fn) -> Fn:
    return lambda mask: all(mask & (0b0111000000000 << (13 * s)) == 0 for s in range(4))


def _ind_delta_extra(orig: Fn) -> Fn:
    return lambda r, bid, tricks: r.values[bid] + max(0, tricks - bid) if tricks >= bid else -r.values[bid]


def _ind_delta_failed_scores(orig: Fn) -> Fn:
    return lambda r, bid, tricks: r.values[bid]


def _deltas_no_kaboot(orig: Fn) -> Fn:
    def f(r: Rules, contract: int, bidding_team: int, tricks: tuple[int, int]) -> tuple[int, int]:
        bt, dt = bidding_team, 1 - bidding_team
        made = tricks[bt] >= contract
        if r.score_style == "standard":
            d_bt, d_dt = (tricks[bt] if made else -contract), (0 if made else tricks[dt])
        else:
            d_bt, d_dt = (contract if made else -contract), 0
        if contract == 13 and r.bid13 == "26":
            d_bt = 26 if made else -16
        return (d_bt, d_dt) if bt == 0 else (d_dt, d_bt)
    return f


def _deltas_defenders_on_made(orig: Fn) -> Fn:
    def f(r: Rules, contract: int, bidding_team: int, tricks: tuple[int, int]) -> tuple[int, int]:
        d = list(orig(r, contract, bidding_team, tricks))
        dt = 1 - bidding_team
        if r.score_style == "standard" and tricks[bidding_team] >= contract and 0 < tricks[dt] < 13:
            d[dt] = tricks[dt]
        return d[0], d[1]
    return f


def _deltas_seat_order(orig: Fn) -> Fn:
    def f(r: Rules, contract: int, bidding_team: int, tricks: tuple[int, int]) -> tuple[int, int]:
        a, b = orig(r, contract, bidding_team, tricks)
        return (b, a) if bidding_team == 1 and tricks[1] >= contract else (a, b)  # unswapped for team 1's made bid
    return f


def _bid13_any(orig: Fn) -> Fn:
    return lambda r, contract, team_tricks: r.bid13 == "win" and contract == 13 and team_tricks >= 12


def _qualify_zero(orig: Fn) -> Fn:
    return lambda r, a, b: (a >= r.target and b >= 0) or (b >= r.target and a >= 0)


def _qualify_strict(orig: Fn) -> Fn:
    return lambda r, a, b: (a > r.target and b > 0) or (b > r.target and a > 0)


def _outcome_tie_team0(orig: Fn) -> Fn:
    def f(r: Rules, scores: Sequence[int], bids: Sequence[int] | None = None,
          tricks: Sequence[int] | None = None) -> tuple[int | None, str]:
        w, c = orig(r, scores, bids, tricks)
        return (0, c) if c == "tie.both-qualify" and w is None else (w, c)
    return f


def _outcome_tie_sum(orig: Fn) -> Fn:
    def f(r: Rules, scores: Sequence[int], bids: Sequence[int] | None = None,
          tricks: Sequence[int] | None = None) -> tuple[int | None, str]:
        if R.team_qualifies(r, scores[0], scores[2]) and R.team_qualifies(r, scores[1], scores[3]):
            a, b = scores[0] + scores[2], scores[1] + scores[3]  # always the combined score
            return (None if a == b else 0 if a > b else 1), "tie.both-qualify"
        return orig(r, scores, bids, tricks)  # type: ignore[no-any-return]
    return f


def _outcome_made_bid_failed(orig: Fn) -> Fn:
    def f(r: Rules, scores: Sequence[int], bids: Sequence[int] | None = None,
          tricks: Sequence[int] | None = None) -> tuple[int | None, str]:
        if r.made_bid_wins and bids is not None:
            for seat in range(4):
                if bids[seat] == r.made_bid_wins:  # bidding it is enough, made or not
                    return seat & 1, "win.made-bid"
        return orig(r, scores, bids, tricks)  # type: ignore[no-any-return]
    return f


def _auction_tie_defenders(orig: Fn) -> Fn:
    def f(r: Rules, team_scores: tuple[int, int], target: int, bidding_team: int,
          bid13_won: bool) -> tuple[int | None, str]:
        w, c = orig(r, team_scores, target, bidding_team, bid13_won)
        return (1 - bidding_team, c) if c == "tie.both-qualify" else (w, c)
    return f


def _auction_target_strict(orig: Fn) -> Fn:
    def f(r: Rules, team_scores: tuple[int, int], target: int, bidding_team: int,
          bid13_won: bool) -> tuple[int | None, str]:
        return orig(r, team_scores, target + 1, bidding_team, bid13_won)  # type: ignore[no-any-return]
    return f


def _target_not_raised(orig: Fn) -> Fn:
    return lambda r, games_won: r.target


def _target_raised_twice(orig: Fn) -> Fn:
    return lambda r, games_won: r.target + r.play_on_raise * games_won


def _auction_anyone_matches(orig: Fn) -> Fn:
    def f(r: Rules, dealer: int, seat: int, top: Any, passes: int, n: int | None,
          strain: int | None) -> tuple[str, str] | None:
        if n is not None and top is not None and (n, strain) == tuple(top) and r.min_bid <= n <= 13:
            return None
        return orig(r, dealer, seat, top, passes, n, strain)  # type: ignore[no-any-return]
    return f


def _auction_dealer_may_pass(orig: Fn) -> Fn:
    return lambda r, dealer, seat, top, passes, n, strain: None if n is None else \
        orig(r, dealer, seat, top, passes, n, strain)


def _auction_strain_first(orig: Fn) -> Fn:
    def f(r: Rules, dealer: int, seat: int, top: Any, passes: int, n: int | None,
          strain: int | None) -> tuple[str, str] | None:
        if n is not None and top is not None and r.egyptian and strain is not None and top[1] is not None \
                and strain > top[1] and r.min_bid <= n <= 13:
            return None  # a higher strain is a higher bid, whatever the tricks
        return orig(r, dealer, seat, top, passes, n, strain)  # type: ignore[no-any-return]
    return f


def _auction_min_off(orig: Fn) -> Fn:
    def f(r: Rules, dealer: int, seat: int, top: Any, passes: int, n: int | None,
          strain: int | None) -> tuple[str, str] | None:
        if n == r.min_bid - 1 and top is None and (strain is None) != r.egyptian:
            return None
        return orig(r, dealer, seat, top, passes, n, strain)  # type: ignore[no-any-return]
    return f


def _next_passed_reenter(orig: Fn) -> Fn:
    def f(r: Rules, seat: int, spoken: int, active: Sequence[bool], has_top: bool, holder: int) -> int | None:
        if r.auction_style == "dealer-privilege":
            return None if spoken >= 4 else R.next_seat(r, seat)
        if (not has_top and not any(active)) or (has_top and sum(active) == 1 and active[holder]):
            return None
        return R.next_seat(r, seat)  # a seat that passed speaks again
    return f


def _next_round_five(orig: Fn) -> Fn:
    def f(r: Rules, seat: int, spoken: int, active: Sequence[bool], has_top: bool, holder: int) -> int | None:
        if r.auction_style == "dealer-privilege":
            return None if spoken >= 5 else R.next_seat(r, seat)
        return orig(r, seat, spoken, active, has_top, holder)  # type: ignore[no-any-return]
    return f


C = "classic"
ENGINE_MUTANTS: dict[str, EngineMutant] = {m_name: m for m_name, m in [
    ("engine-trick-winner-ignores-trump", EngineMutant("trick_winner", "play", "a trump does not beat the led suit",
                                                       _trick_winner_no_trump, "bsfyi-41", {}, "all")),
    ("engine-trick-winner-no-overtrump", EngineMutant("trick_winner", "play", "a higher trump does not overtrump",
                                                      _trick_winner_first_trump, C)),
    ("engine-trick-winner-highest-rank", EngineMutant("trick_winner", "play", "the highest rank of any suit wins",
                                                      _trick_winner_rank, "eram-41")),
    ("engine-follow-not-enforced", EngineMutant("legal_play_mask", "play", "any card of the hand is legal",
                                                _mask_no_follow, C)),
    ("engine-must-trump-ignored", EngineMutant("legal_play_mask", "play", "a void player may discard holding a trump",
                                               _mask_no_must_trump, C, {"must_trump": True}, "own")),
    ("engine-must-trump-over-follow", EngineMutant("legal_play_mask", "play",
                                                   "under must-trump a trump may be played while holding the led suit",
                                                   _mask_must_trump_when_holding_led, C, {"must_trump": True})),
    ("engine-violation-void-free", EngineMutant("play_violation", "play", "a void player is never refused",
                                                _violation_void_free, C, {"must_trump": True})),
    ("engine-violation-lead-any-card", EngineMutant("play_violation", "play", "a leader may lead a card not held",
                                                    _violation_not_in_hand, "card-kings-41")),
    ("engine-next-seat-backwards", EngineMutant("next_seat", "bids", "the turn passes the wrong way",
                                                _next_seat_backwards, "tarneeb-400")),
    ("engine-reveal-suit", EngineMutant("trump_from_reveal", "play", "the revealed card's own suit is trump",
                                        _reveal_suit, "card-kings-41", {}, "own")),
    ("engine-weak-counts-ten", EngineMutant("is_weak_hand", "play", "a 10 counts as a high card", _weak_counts_ten,
                                            C, {}, "own")),
    ("engine-weak-ignores-aces", EngineMutant("is_weak_hand", "play", "an ace does not count as high",
                                              _weak_ignores_aces, C)),
    ("engine-rising-min-strict", EngineMutant("min_bid_for", "bids", "the rising minimum applies above the threshold",
                                              _min_bid_strict, "tarneeb-400", {}, "own")),
    ("engine-bid-below-min", EngineMutant("bid_violation", "bids", "a bid one below the minimum is accepted",
                                          _bid_violation_below_min, "eram-41", {}, "kind")),
    ("engine-bid-pass-allowed", EngineMutant("bid_violation", "bids", "a pass is accepted", _bid_violation_pass,
                                             "bsfyi-41")),
    ("engine-legal-bids-no-13", EngineMutant("legal_bids", "bids", "13 is missing from the legal bids",
                                             _legal_bids_no_13, "eram-41")),
    ("engine-legal-bids-excluded", EngineMutant("legal_bids", "bids", "the excluded bid is listed",
                                                _legal_bids_excluded, "card-kings-41", {}, "own")),
    ("engine-hand-played-strict", EngineMutant("hand_is_played", "bids", "the total must exceed the threshold",
                                               _hand_played_strict, "bsfyi-41")),
    ("engine-hand-played-three-bids", EngineMutant("hand_is_played", "bids", "the fourth bid is left out of the total",
                                                   _hand_played_three, "eram-41")),
    ("engine-redeal-dealer-swapped", EngineMutant("dealer_after_redeal", "bids", "same and next dealer swapped",
                                                  _dealer_swapped, "card-kings-41")),
    ("engine-redeal-dealer-swapped-auction", EngineMutant("dealer_after_redeal", "turn", "same and next dealer swapped",
                                                          _dealer_swapped, C)),
    ("engine-anyone-may-match", EngineMutant("auction_bid_violation", "auction", "any seat may match the top bid",
                                             _auction_anyone_matches, C, {}, "own")),
    ("engine-dealer-may-pass-forced", EngineMutant("auction_bid_violation", "auction",
                                                   "the dealer may pass after three passes under dealer-forced",
                                                   _auction_dealer_may_pass, C, {"all_pass": "dealer-forced"})),
    ("engine-strain-before-tricks", EngineMutant("auction_bid_violation", "auction",
                                                 "a higher strain beats more tricks", _auction_strain_first, C,
                                                 {"egyptian": True})),
    ("engine-auction-min-off-by-one", EngineMutant("auction_bid_violation", "auction",
                                                   "an opening bid one below the minimum is accepted",
                                                   _auction_min_off, C)),
    ("engine-passed-may-reenter", EngineMutant("auction_next", "turn", "a seat that passed speaks again",
                                               _next_passed_reenter, C, {"auction": "continuous"}, "own")),
    ("engine-round-of-five", EngineMutant("auction_next", "turn", "the one-round auction takes five calls",
                                          _next_round_five, C)),
    ("engine-next-seat-backwards-auction", EngineMutant("next_seat", "turn", "the turn passes the wrong way",
                                                        _next_seat_backwards, C)),
    ("engine-extra-tricks-count", EngineMutant("individual_delta", "scoring", "each trick above the bid scores one",
                                               _ind_delta_extra, "bsfyi-41", {}, "kind")),
    ("engine-failed-bid-scores", EngineMutant("individual_delta", "scoring", "a failed bid earns its value",
                                              _ind_delta_failed_scores, "eram-41")),
    ("engine-kaboot-ignored", EngineMutant("team_deltas", "scoring", "all 13 tricks score as usual",
                                           _deltas_no_kaboot, C, {}, "own")),
    ("engine-defenders-score-on-made", EngineMutant("team_deltas", "scoring",
                                                    "the defenders score their tricks on a made contract",
                                                    _deltas_defenders_on_made, C)),
    ("engine-deltas-team1-swapped", EngineMutant("team_deltas", "scoring",
                                                 "team 1's made contract is credited to team 0",
                                                 _deltas_seat_order, C)),
    ("engine-bid13-twelve", EngineMutant("bid13_wins", "scoring", "a bid of 13 wins with 12 tricks", _bid13_any, C)),
    ("engine-partner-at-zero", EngineMutant("team_qualifies", "outcome", "a partner at exactly 0 qualifies",
                                            _qualify_zero, "eram-41", {}, "kind")),
    ("engine-target-strict", EngineMutant("team_qualifies", "outcome", "the target must be passed, not reached",
                                          _qualify_strict, "bsfyi-41")),
    ("engine-tie-to-team-0", EngineMutant("individual_outcome", "outcome", "a level tie goes to team 0",
                                          _outcome_tie_team0, "tarneeb-400", {}, "kind")),
    ("engine-tie-always-combined", EngineMutant("individual_outcome", "outcome",
                                                "the tie is decided by the combined score under the top-score rule",
                                                _outcome_tie_sum, "bsfyi-41")),
    ("engine-made-bid-unmade", EngineMutant("individual_outcome", "outcome", "bidding the winning bid wins unmade",
                                            _outcome_made_bid_failed, "bsfyi-41", {"made_bid_wins": 10})),
    ("engine-tie-to-defenders", EngineMutant("auction_outcome", "outcome", "both at the target: the defenders win",
                                             _auction_tie_defenders, C, {}, "own")),
    ("engine-auction-target-strict", EngineMutant("auction_outcome", "outcome", "the target must be passed",
                                                  _auction_target_strict, C)),
    ("engine-play-on-not-raised", EngineMutant("target_in_force", "outcome", "the target never rises",
                                               _target_not_raised, C, {"play_on": 10})),
    ("engine-match-winner-ignores-trump", EngineMutant("trick_winner", "match",
                                                       "the trick winner ignores trump (whole matches)",
                                                       _trick_winner_no_trump, "eram-41", {}, "all")),
    ("engine-match-turn-backwards", EngineMutant("next_seat", "match",
                                                 "the deal and the bidding turn pass the wrong way (whole matches)",
                                                 _next_seat_backwards, "card-kings-41")),
    ("engine-play-on-raised-twice", EngineMutant("target_in_force", "outcome", "the target rises after every game",
                                                 _target_raised_twice, C, {"play_on": 10})),
]}


@contextmanager
def applied(name: str | None) -> Iterator[None]:
    """The engine with mutant ``name`` patched in (nothing when None), restored afterwards."""
    if name is None:
        yield
        return
    m = ENGINE_MUTANTS[name]
    mod = importlib.import_module(m.module)
    orig = getattr(mod, m.fn)
    setattr(mod, m.fn, m.make(orig))
    try:
        yield
    finally:
        setattr(mod, m.fn, orig)
