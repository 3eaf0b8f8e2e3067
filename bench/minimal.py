"""A minimal bitmask engine: the practical speed limit for random self-play in pure Python.

Not part of the package and never a source of rules: it exists to measure how far the engine is from the
least work the same checks need. It plays whole matches with the same random policy as ``bench/fair.py``
(``legal[rng.randrange(len(legal))]`` over legal lists in the engine's order), consuming the random generator
exactly as the engine's loop does, so :func:`check` can compare it with :class:`tarneeb.Match` deal by deal
(tricks won, scores after each deal, cancelled deals). It does the same checks as the engine on the path it
takes: the deal covers the pack, every bid is drawn from the legal bids (range, excluded bids, rising minimum;
in the auction family raise and dealer's privilege), every card from the legal cards (in hand, follow suit),
tricks, scores, the match outcome.

Supported: the four individual rulesets with their parameters, and the auction family with dealer's privilege,
all-pass redeal to the next dealer, plain bids (not Egyptian), no must-trump, no weak-hand redeal, standard
scoring with kaboot 16 and a winning bid of 13, no play-on (the ``classic`` defaults). :func:`supported` says.

    python bench/minimal.py --check 300      # compare 300 seeded matches per ruleset with the engine
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from typing import Any

SUIT = tuple(0x1FFF << (13 * s) for s in range(4))
SAME_COLOUR = (3, 2, 1, 0)
FULL = (1 << 52) - 1


def supported(r: Any) -> bool:
    if r.individual:
        return not r.made_bid_wins and r.tie_rule in ("combined", "top")
    return (r.auction_style == "dealer-privilege" and r.all_pass == "redeal-next" and not r.egyptian
            and not r.must_trump and not r.weak_redeal and r.score_style == "standard" and r.kaboot == "16"
            and r.bid13 == "win" and not r.play_on_raise and r.trump_source == "contract")


def _winner(cards: list[int], trump: int) -> int:
    best, bc = 0, cards[0]
    bs = bc // 13
    for i in (1, 2, 3):
        c = cards[i]
        s = c // 13
        if (s == bs and c > bc) or (s != bs and s == trump):
            best, bc, bs = i, c, s
    return best


def play_match(r: Any, rng: random.Random, max_hands: int, log: list[tuple[Any, ...]] | None = None,
               winner_fn: Any = _winner) -> tuple[int, int]:
    """One match; returns (played hands, deals). ``log`` gets (dealer, cancelled, tricks_won, scores) per deal."""
    step = r.step
    dealer = rng.randrange(4)
    deck = list(range(52))
    scores = [0, 0, 0, 0]
    hands_played = deals = 0
    indiv = r.individual
    while hands_played < max_hands:
        rng.shuffle(deck)
        deals += 1
        hands = [0, 0, 0, 0]
        for k in range(4):
            m = 0
            for c in deck[k::4]:
                m |= 1 << c
            hands[(dealer + step * (k + 1)) % 4] = m
        if hands[0] | hands[1] | hands[2] | hands[3] != FULL:
            raise ValueError("bad deal")
        if r.trump_source == "fixed":
            trump = r.fixed_suit
        elif r.trump_source == "revealed-same-colour":
            trump = SAME_COLOUR[deck[51] // 13]
        elif r.trump_source == "revealed-suit":
            trump = deck[51] // 13
        else:
            trump = -1
        first = (dealer + step) % 4
        bids = [0, 0, 0, 0]
        if indiv:
            for i in range(4):
                seat = (first + step * i) % 4
                lo = r.bid_min
                if r.rising_min:
                    for th, mb in r.rising_table:
                        if scores[seat] >= th:
                            lo = max(lo, mb)
                legal = [b for b in range(lo, r.bid_max + 1) if b not in r.bid_excluded]
                bids[seat] = legal[rng.randrange(len(legal))]
            if sum(bids) < r.total_min:
                if log is not None:
                    log.append((dealer, True, None, tuple(scores)))
                dealer = dealer if r.redeal_same_dealer else (dealer + step) % 4
                continue
            leader = first
        else:
            top, holder = 0, -1
            for i in range(4):
                seat = (first + step * i) % 4
                floor = top if seat == dealer else top + 1
                n_bids = [0] + list(range(max(r.min_bid, floor), 14))  # 0 is the pass, listed first
                call = n_bids[rng.randrange(len(n_bids))]
                if call:
                    top, holder = call, seat
            if holder < 0:
                if log is not None:
                    log.append((dealer, True, None, tuple(scores)))
                dealer = (dealer + step) % 4
                continue
            trump = rng.randrange(4)
            leader = holder
        won = [0, 0, 0, 0]
        for _ in range(13):
            cards = []
            seat = leader
            led = -1
            for i in range(4):
                h = hands[seat]
                mask = h & SUIT[led] if led >= 0 else h
                if not mask:
                    mask = h
                k = rng.randrange(mask.bit_count())
                while k:  # drop the k lowest cards
                    mask &= mask - 1
                    k -= 1
                card = (mask & -mask).bit_length() - 1
                if not (h >> card) & 1:
                    raise ValueError("card not in hand")
                hands[seat] = h ^ (1 << card)
                if i == 0:
                    led = card // 13
                cards.append(card)
                seat = (seat + step) % 4
            leader = (leader + step * winner_fn(cards, trump)) % 4
            won[leader] += 1
        hands_played += 1
        if indiv:
            for s in range(4):
                v = r.values[bids[s]]
                scores[s] += v if won[s] >= bids[s] else -v
            q = []
            for a, b in ((scores[0], scores[2]), (scores[1], scores[3])):
                q.append((a >= r.target and b > 0) or (b >= r.target and a > 0))
            win: int | None = None
            if q[0] and q[1]:
                if r.tie_rule == "combined":
                    a, b = scores[0] + scores[2], scores[1] + scores[3]
                else:
                    a, b = max(scores[0], scores[2]), max(scores[1], scores[3])
                win = None if a == b else (0 if a > b else 1)
            elif q[0] or q[1]:
                win = 0 if q[0] else 1
        else:
            bt = holder & 1
            tt = (won[0] + won[2], won[1] + won[3])
            made = tt[bt] >= top
            d_bt = tt[bt] if made else -top
            d_dt = 0 if made else tt[1 - bt]
            if not (top == 13 and made) and tt[bt] == 13:
                d_bt = 16
            if tt[1 - bt] == 13:
                d_dt = 16
            d = (d_bt, d_dt) if bt == 0 else (d_dt, d_bt)
            for s in range(4):
                scores[s] += d[s & 1]
            if top == 13 and made:
                win = bt
            else:
                reach = (scores[0] >= r.target, scores[1] >= r.target)
                win = bt if reach[0] and reach[1] else (0 if reach[0] else 1 if reach[1] else None)
        if log is not None:
            log.append((dealer, False, tuple(won), tuple(scores)))
        if win is not None:
            break
        dealer = (dealer + step) % 4
    return hands_played, deals


def bench(ruleset: str, seconds: float, seed: int, max_hands: int,
          rng_factory: Callable[[int], random.Random] = random.Random) -> dict[str, float]:
    from tarneeb import load_rules

    rules = load_rules(ruleset)
    rng = rng_factory(seed)
    hands = deals = 0
    deadline = time.perf_counter() + seconds
    c0 = time.process_time()  # CPU time, as bench/fair.py times the engines
    while time.perf_counter() < deadline:
        h, d = play_match(rules, rng, max_hands)
        hands += h
        deals += d
    elapsed = time.process_time() - c0
    return {"seconds": elapsed, "deals": deals, "hands": hands, "tricks": 13 * hands}


def engine_match(r: Any, rng: random.Random, max_hands: int) -> Any:
    """The same match played by :class:`tarneeb.Match` with the same random draws (the policy of
    ``bench/fair.py``), stopped after ``max_hands`` played hands: the :class:`~tarneeb.Match` itself."""
    from tarneeb import Deal, Match, Phase

    deck = list(range(52))
    m = Match(r, first_dealer=rng.randrange(4))
    while m.hands_played < max_hands and m.phase is not Phase.OVER:
        if m.phase is Phase.DEAL:
            rng.shuffle(deck)
            m.apply(Deal(tuple(deck)))
        else:
            legal = m.legal_actions()
            m.apply(legal[rng.randrange(len(legal))])
    return m


def engine_log(r: Any, rng: random.Random, max_hands: int) -> list[tuple[Any, ...]]:
    """:func:`engine_match`'s deals, logged like :func:`play_match`."""
    return [(h.dealer, h.redeal is not None, None if h.redeal else tuple(h.tricks_won), tuple(h.scores_after))
            for h in engine_match(r, rng, max_hands).records]


def check(ruleset: str, matches: int, max_hands: int = 50, winner_fn: Any = _winner) -> int:
    """Compare ``matches`` seeded matches deal by deal with the engine; returns the number compared, raises
    AssertionError at the first deal that differs."""
    from tarneeb import load_rules

    rules = load_rules(ruleset)
    if not supported(rules):
        raise ValueError(f"{ruleset}: not supported by the minimal engine")
    for i in range(matches):
        mine: list[tuple[Any, ...]] = []
        play_match(rules, random.Random(i), max_hands, mine, winner_fn)
        theirs = engine_log(rules, random.Random(i), max_hands)
        for k, (a, b) in enumerate(zip(mine, theirs, strict=False)):
            assert a == b, f"{ruleset} seed {i} deal {k}: minimal {a} != engine {b}"
        assert len(mine) == len(theirs), f"{ruleset} seed {i}: {len(mine)} deals != engine {len(theirs)}"
    return matches


if __name__ == "__main__":
    n = int(sys.argv[sys.argv.index("--check") + 1]) if "--check" in sys.argv else 100
    for rid in ("card-kings-41", "bsfyi-41", "eram-41", "tarneeb-400", "classic"):
        print(rid, "agrees on", check(rid, n), "matches")
