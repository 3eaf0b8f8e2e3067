"""Generators of the conformance vectors under ``spec/vectors/`` (``tarneeb vectors generate``).

For every ruleset and option set of :data:`VARIANTS` and every category, a seeded generator picks inputs:
edge cases first, then seeded random cases, in the manner of the JSON-Schema-Test-Suite. The expected answer
and clause of each test come from :mod:`tarneeb.conformance.vector_ref` (the rule core). :func:`generate`,
:func:`dumps` and :func:`write_all` make the files; the output is byte for byte stable.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tarneeb.conformance.vector_ref import (
    CATEGORIES,
    COMMAND,
    FIELD_CLAUSES,
    bid_state,
    cs,
    legal_bid_texts,
    ref_bid_legal,
    ref_bidding_end,
    ref_deal,
    ref_hand,
    ref_match,
    ref_outcome,
    ref_perft,
    ref_play_legal,
    ref_score,
    ref_trick_winner,
)
from tarneeb.core import rules as core_rules
from tarneeb.core.actions import Action, Bid, Deal, NameTrump, parse_action
from tarneeb.core.cards import STRAINS, SUITS, card_str, parse_card
from tarneeb.core.match import Match, Phase
from tarneeb.core.spec import Rules, get_ruleset, load_rules, rulesets
from tarneeb.errors import ConfigError

# The live path (start/apply from running scores; whole matches from part-way scores): how many per ruleset.
HAND_LIVE = 150
MATCH_LIVE = 80
MATCH_DEALS = 5  # deals of a match vector at most (it starts close to the target, so most end sooner)
# (options, {category: count}) per ruleset; the first entry is the defaults and gets the full suite.
FULL = {"play-legality": 300, "trick-winner": 150, "bid-legality": 150, "bidding-end": 80, "hand-scoring": 150,
        "outcome": 150, "deal": 30, "hand": HAND_LIVE, "match": MATCH_LIVE, "perft": 4}
VARIANTS: dict[str, list[tuple[dict[str, Any], dict[str, int]]]] = {
    "card-kings-41": [({}, FULL)],
    "eram-41": [({}, FULL)],
    "tarneeb-400": [({}, FULL), ({"target": 61}, {"outcome": 80, "hand": 5})],
    "bsfyi-41": [
        ({}, FULL),
        ({"trump_source": "revealed-suit"}, {"deal": 20, "hand": 8, "play-legality": 40, "perft": 2}),
        ({"rising_min_bid": True}, {"bid-legality": 100, "bidding-end": 20, "hand": 5}),
        ({"bid_total_min": 12}, {"bidding-end": 40, "hand": 4}),
        ({"bid_total_min": 13}, {"bidding-end": 40, "hand": 4}),
        ({"made_bid_wins": 10}, {"outcome": 80, "hand": 5}),
    ],
    "classic": [
        ({}, FULL),
        ({"must_trump": True}, {"play-legality": 200, "hand": 10, "perft": 3}),
        ({"egyptian": True}, {"bid-legality": 120, "bidding-end": 40, "hand": 8, "trick-winner": 40}),
        ({"auction": "continuous"}, {"bid-legality": 100, "bidding-end": 40, "hand": 6}),
        ({"all_pass": "dealer-forced"}, {"bid-legality": 60, "bidding-end": 20, "hand": 4}),
        ({"auction": "continuous", "all_pass": "dealer-forced"}, {"bid-legality": 40, "bidding-end": 20}),
        ({"egyptian": True, "auction": "continuous"}, {"bid-legality": 40, "bidding-end": 10}),
        ({"min_bid": 8}, {"bid-legality": 40, "bidding-end": 10}),
        ({"scoring": "bid-only"}, {"hand-scoring": 60, "outcome": 20, "hand": 4}),
        ({"kaboot": "26"}, {"hand-scoring": 40}),
        ({"kaboot": "double"}, {"hand-scoring": 40}),
        ({"kaboot": "none"}, {"hand-scoring": 40}),
        ({"scoring": "bid-only", "kaboot": "double"}, {"hand-scoring": 30}),
        ({"bid13": "26"}, {"hand-scoring": 40, "outcome": 30}),
        ({"bid13": "normal"}, {"hand-scoring": 40, "outcome": 30}),
        ({"direction": "cw"}, {"trick-winner": 40, "deal": 10, "bid-legality": 30, "bidding-end": 10, "hand": 6,
                               "perft": 2}),
        ({"weak_redeal": True}, {"deal": 30, "hand": 4}),
        ({"target": 31}, {"outcome": 40}),
        ({"target": 61}, {"outcome": 40}),
    ],
}
PERFT_DEPTHS = (1, 2, 3, 4, 5)


# ------------------------------------------------------------------ generators

@dataclass
class Gen:
    rules: Rules
    rng: random.Random
    tests: list[dict[str, Any]] = field(default_factory=list)

    def add(self, desc: str, inp: dict[str, Any], expected: dict[str, Any], clause: str,
            clauses: dict[str, str] | None = None, since: int = 1) -> None:
        """Add one test: description, input, expected answer, deciding clause (and per-field clauses, protocol version)."""
        t: dict[str, Any] = {"description": desc, "clause": clause, "input": inp, "expected": expected}
        if clauses:
            t["clauses"] = clauses
        if since > 1:  # the protocol version whose semantics the test checks (spec/protocol/CHANGELOG.md)
            t["since"] = since
        self.tests.append(t)


def _hand_cards(rng: random.Random, n: int, exclude: set[int] | None = None) -> list[int]:
    pool = [c for c in range(52) if not exclude or c not in exclude]
    return sorted(rng.sample(pool, n))


def _trumps(rules: Rules) -> list[str]:
    if rules.trump_source == "fixed":
        return [SUITS[rules.fixed_suit]]
    if rules.individual:
        return list(SUITS)
    return list(STRAINS)


def gen_play_legality(g: Gen, n: int) -> None:
    """Tests of a card's legality: the edge cases of following and trumping, then ``n`` random hands."""
    rules, rng = g.rules, g.rng
    tr = _trumps(rules)
    def add(desc: str, hand: list[int], trick: list[int], trump: str, card: int) -> None:
        inp = {"hand": cs(hand), "trick": cs(trick), "trump": trump, "card": card_str(card)}
        exp, cid = ref_play_legal(rules, inp)
        g.add(desc, inp, exp, cid)
    P = parse_card
    # edge cases
    t0 = tr[0]
    hs = [P(c) for c in ("AS", "2S", "KH", "3D", "4C")]
    add("the leader may lead any card", hs, [], t0, P("3D"))
    add("holding the led suit: following is legal", hs, [P("QS")], t0, P("2S"))
    add("holding the led suit: another suit is illegal", hs, [P("QS")], t0, P("KH"))
    add("holding the led suit: a low card of it is legal", hs, [P("QS"), P("AH")], t0, P("2S"))
    add("a card not in the hand is illegal", hs, [P("QS")], t0, P("TS"))
    void = [P(c) for c in ("AS", "KS", "2H", "5D")]
    for t in tr:
        add(f"void in clubs, trump {t}: a spade discard", void, [P("9C")], t, P("KS"))
        add(f"void in clubs, trump {t}: a heart", void, [P("9C")], t, P("2H"))
        add(f"void in clubs, trump {t}: a diamond", void, [P("9C"), P("TC")], t, P("5D"))
        no_t = [c for c in void if t == "N" or c // 13 != SUITS.index(t)]
        add(f"void in clubs and in trump {t}: any card", no_t, [P("9C")], t, no_t[-1])
    add("trump led: must follow with trump when holding it", [P("2H"), P("AS")], [P("KH")], "H", P("AS"))
    add("trump led: following with trump", [P("2H"), P("AS")], [P("KH")], "H", P("2H"))
    add("last card of the hand is always playable when void", [P("AS")], [P("KH"), P("2H"), P("3H")], "D", P("AS"))
    while len(g.tests) < n:
        k = rng.randint(1, 13)
        hand = _hand_cards(rng, k)
        tl = rng.randint(0, 3)
        trick = _hand_cards(rng, tl, set(hand)) if tl else []
        rng.shuffle(trick)
        if trick and rng.random() < 0.3:  # make the hand void in the led suit
            led = trick[0] // 13
            hand = [c for c in hand if c // 13 != led] or _hand_cards(rng, 1, set(trick) | set(range(led * 13, led * 13 + 13)))
        card = rng.choice(hand) if rng.random() < 0.95 else rng.choice([c for c in range(52) if c not in hand and c not in trick])
        add("random position", hand, trick, rng.choice(tr), card)


def gen_trick_winner(g: Gen, n: int) -> None:
    """Tests of a trick's winner: trumps, the led suit, discards, no trump; then random tricks."""
    rules, rng = g.rules, g.rng
    tr = _trumps(rules)
    def add(desc: str, leader: int, trick: Sequence[str], trump: str) -> None:
        inp = {"leader": leader, "trick": list(trick), "trump": trump}
        exp, cid = ref_trick_winner(rules, inp)
        g.add(desc, inp, exp, cid)
    t = tr[0] if tr[0] != "N" else "S"
    other = SUITS[(SUITS.index(t) + 1) % 4]
    third = SUITS[(SUITS.index(t) + 2) % 4]
    for leader in range(4):
        add("a low trump beats the ace of the led suit", leader, ["A" + other, "2" + t, "K" + other, "Q" + other], t)
    add("the highest of several trumps wins", 0, ["A" + other, "2" + t, "J" + t, "9" + t], t)
    add("a high discard of a third suit never wins", 1, ["3" + other, "A" + third, "2" + other, "4" + other], t)
    add("no trump played: highest of the led suit", 2, ["T" + other, "J" + other, "A" + third, "9" + other], t)
    add("trump led: highest trump", 3, ["5" + t, "A" + other, "6" + t, "4" + t], t)
    add("the leader's card holds when nobody follows or trumps", 0, ["2" + other, "A" + third, "K" + third, "Q" + third], t)
    if "N" in tr:
        add("no trump: only the led suit counts", 0, ["2S", "AH", "AD", "3S"], "N")
        add("no trump: spades are not trump", 1, ["KD", "AS", "2D", "QD"], "N")
    while len(g.tests) < n:
        trick = rng.sample(range(52), 4)
        if rng.random() < 0.5:  # bias towards the led suit
            led = trick[0] // 13
            pool = [c for c in range(led * 13, led * 13 + 13) if c not in trick]
            for i in range(1, 4):
                if rng.random() < 0.5 and pool:
                    trick[i] = pool.pop(rng.randrange(len(pool)))
        add("random trick", rng.randrange(4), cs(trick), rng.choice(tr))


def _random_bids_individual(rules: Rules, rng: random.Random, scores: Sequence[int], k: int, dealer: int,
                            low: bool = False) -> list[str]:
    m = bid_state(rules, dealer, scores, [])
    out: list[str] = []
    for _ in range(k):
        legal = legal_bid_texts(m)
        b = legal[0] if low and rng.random() < 0.7 else rng.choice(legal)
        out.append(b)
        m.apply(parse_action(b))
    return out


def _random_auction(rules: Rules, rng: random.Random, dealer: int, k: int | None = None,
                    pass_bias: float = 0.6) -> list[str]:
    """A random legal auction prefix of ``k`` calls (or a complete auction when k is None)."""
    m = bid_state(rules, dealer, [0, 0, 0, 0], [])
    out: list[str] = []
    while m.phase is Phase.BIDDING and (k is None or len(out) < k):
        legal = legal_bid_texts(m)
        bids = [x for x in legal if x != "bid:pass"]
        if "bid:pass" in legal and (rng.random() < pass_bias or not bids):
            b = "bid:pass"
        else:
            b = bids[min(len(bids) - 1, int(rng.expovariate(0.7)))]
        out.append(b)
        m.apply(parse_action(b))
    return out


def _score_pool(rules: Rules) -> list[int]:
    t = rules.target
    return [-39, -10, -2, -1, 0, 1, 2, 5, 20, 29, 30, 31, 39, 40, t - 1, t, t + 1, t + 9]


def gen_bid_legality(g: Gen, n: int) -> None:
    """Tests of a bid's legality after the bids before it: the range, passes, outbidding, the dealer's rights; then random."""
    rules, rng = g.rules, g.rng
    def add(desc: str, dealer: int, scores: list[int], bids: list[str], bid: str) -> None:
        inp = {"dealer": dealer, "scores": scores, "bids": bids, "bid": bid}
        exp, cid = ref_bid_legal(rules, inp)
        g.add(desc, inp, exp, cid)
    z = [0, 0, 0, 0]
    if rules.individual:
        add("the first bidder may not pass", 0, z, [], "bid:pass")
        add("a bid of 1 is below the range", 0, z, [], "bid:1")
        add("a bid of 14 is above the range", 0, z, [], "bid:14")
        add("a bid of 0 is below the range", 1, z, [], "bid:0")
        for b in range(2, 14):
            add(f"a bid of {b} at a score of 0", 2, z, [], f"bid:{b}")
        add("bid 6 by the dealer after three bids", 3, z, ["bid:2", "bid:3", "bid:4"], "bid:6")
        add("the dealer may not pass", 3, z, ["bid:2", "bid:2", "bid:2"], "bid:pass")
        add("a bid need not beat earlier bids", 0, z, ["bid:9"], "bid:2")
        add("a bid naming a suit is not a personal bid", 0, z, [], "bid:5H")
        for sc in (-5, 0, 29, 30, 31, 39, 40, 41, 55):
            for b in (2, 3, 4):
                scores = [sc, 0, 0, 0]
                # seat 0 bids first when the dealer is 3 (ccw) or 1 (cw)
                dealer = core_rules.seat_order(rules, 0)[3]  # the seat before seat 0 in the direction of play
                add(f"a bid of {b} at a score of {sc}", dealer, scores, [], f"bid:{b}")
        while len(g.tests) < n:
            scores = [rng.choice(_score_pool(rules)) for _ in range(4)]
            dealer = rng.randrange(4)
            k = rng.randrange(4)
            prefix = _random_bids_individual(rules, rng, scores, k, dealer)
            bid = rng.choice(["bid:pass"] + [f"bid:{b}" for b in range(0, 15)])
            add("random bid", dealer, scores, prefix, bid)
        return
    E = rules.egyptian
    def bx(n: int, s: str = "S") -> str:
        return f"bid:{n}{s}" if E else f"bid:{n}"
    lo = rules.min_bid
    add("an opening bid at the minimum", 0, z, [], bx(lo))
    add("an opening bid below the minimum", 0, z, [], bx(lo - 1))
    add("an opening bid of 13", 0, z, [], bx(13))
    add("a bid of 14 is out of range", 0, z, [], bx(14))
    add("passing first", 0, z, [], "bid:pass")
    add("a bid equal to the top bid by a non-dealer", 0, z, [bx(lo)], bx(lo))
    add("a bid above the top bid", 0, z, [bx(lo)], bx(lo + 1))
    add("a bid below the top bid", 0, z, [bx(lo + 1)], bx(lo))
    add("the dealer matching the top bid", 0, z, [bx(lo + 1), "bid:pass", "bid:pass"], bx(lo + 1))
    add("the dealer raising the top bid", 0, z, [bx(lo + 1), "bid:pass", "bid:pass"], bx(lo + 2))
    add("the dealer passing after three passes", 0, z, ["bid:pass"] * 3, "bid:pass")
    add("the dealer bidding the minimum after three passes", 0, z, ["bid:pass"] * 3, bx(lo))
    add("a bid of 13 over 12", 2, z, [bx(12)], bx(13))
    if E:
        add("same number in a higher strain outbids", 0, z, ["bid:8H"], "bid:8S")
        add("same number in a lower strain does not", 0, z, ["bid:8H"], "bid:8D")
        add("no trump is the highest strain", 0, z, ["bid:8S"], "bid:8N")
        add("the dealer may take the exact top bid", 0, z, ["bid:8H", "bid:pass", "bid:pass"], "bid:8H")
        add("the dealer may not take the top number in a lower strain", 0, z, ["bid:8H", "bid:pass", "bid:pass"],
            "bid:8C")
        add("a bid without a strain under egyptian bidding", 0, z, [], f"bid:{lo}")
    else:
        add("a bid naming a suit without egyptian bidding", 0, z, [], f"bid:{lo}H")
    while len(g.tests) < n:
        dealer = rng.randrange(4)
        full = _random_auction(rules, rng, dealer)
        k = rng.randrange(len(full)) if full else 0
        prefix = full[:k]
        m = bid_state(rules, dealer, z, prefix)
        legal = legal_bid_texts(m)
        if rng.random() < 0.5:
            bid = rng.choice(legal)
        else:
            nn = rng.randint(lo - 1, 14)
            bid = rng.choice(["bid:pass", f"bid:{nn}{rng.choice(STRAINS)}" if E else f"bid:{nn}"])
        add("random auction", dealer, z, prefix, bid)


def gen_bidding_end(g: Gen, n: int) -> None:
    """Tests of how the bidding ends: a contract or a redeal, and the next dealer."""
    rules, rng = g.rules, g.rng
    def add(desc: str, dealer: int, scores: list[int], bids: list[str]) -> None:
        inp = {"dealer": dealer, "scores": scores, "bids": bids}
        exp, cid, cl = ref_bidding_end(rules, inp)
        g.add(desc, inp, exp, cid, cl)
    z = [0, 0, 0, 0]
    if rules.individual:
        t = core_rules.total_in_force(rules, z)
        for dealer in range(4):
            add(f"bids total {t - 1}, one below the threshold (dealer {dealer})", dealer, z,
                _split(t - 1, rules))
            add(f"bids total exactly {t} (dealer {dealer})", dealer, z, _split(t, rules))
        add("bids total 8, the lowest possible", 0, z, ["bid:2"] * 4)
        add("bids total 52", 1, z, ["bid:13"] * 4)
        while len(g.tests) < n:
            scores = [rng.choice(_score_pool(rules)) for _ in range(4)]
            dealer = rng.randrange(4)
            add("random bids", dealer, scores, _random_bids_individual(rules, rng, scores, 4, dealer, low=True))
        return
    for dealer in range(4):
        if rules.all_pass == "redeal-next":
            add(f"all four pass (dealer {dealer})", dealer, z, ["bid:pass"] * 4)
        lo = f"bid:{rules.min_bid}" + ("C" if rules.egyptian else "")
        add(f"three pass and the dealer bids (dealer {dealer})", dealer, z, ["bid:pass"] * 3 + [lo])
    while len(g.tests) < n:
        dealer = rng.randrange(4)
        add("random auction", dealer, z, _random_auction(rules, rng, dealer, pass_bias=0.8))


def _split(total: int, rules: Rules) -> list[str]:
    """Four legal bids summing to ``total`` (as evenly as possible, avoiding excluded bids)."""
    legal = core_rules.legal_bids(rules, 0)
    for a in range(2, 14):
        for b_ in range(2, 14):
            for c in range(2, 14):
                d = total - a - b_ - c
                bids = [a, b_, c, d]
                if all(x in legal for x in bids):
                    return [f"bid:{x}" for x in bids]
    raise ValueError(total)


def _tricks(rng: random.Random) -> list[int]:
    cuts = sorted(rng.choices(range(14), k=3))
    return [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]


def gen_hand_scoring(g: Gen, n: int) -> None:
    """Tests of a deal's score changes from the bids (or contract) and the tricks won."""
    rules, rng = g.rules, g.rng
    def add(desc: str, inp: dict[str, Any]) -> None:
        exp, cid = ref_score(rules, inp)
        g.add(desc, inp, exp, cid)
    if rules.individual:
        legal = core_rules.legal_bids(rules, 0)
        for b in legal:
            add(f"bid {b} made exactly", {"bids": [b, 2, 2, 2], "tricks": [b, 13 - b, 0, 0]})
            add(f"bid {b} failed by one", {"bids": [b, 2, 2, 2], "tricks": [b - 1, 14 - b, 0, 0]})
        add("extra tricks earn nothing", {"bids": [2, 2, 3, 4], "tricks": [9, 2, 1, 1]})
        add("zero tricks on a bid of 2", {"bids": [2, 2, 3, 4], "tricks": [0, 6, 4, 3]})
        add("a partner's tricks do not help", {"bids": [5, 2, 5, 2], "tricks": [3, 2, 7, 1]})
        add("bid 13 made", {"bids": [13, 2, 2, 2], "tricks": [13, 0, 0, 0]})
        add("bid 13 failed at 12", {"bids": [13, 2, 2, 2], "tricks": [12, 1, 0, 0]})
        add("three players fail", {"bids": [4, 4, 4, 5], "tricks": [3, 3, 3, 4]})
        while len(g.tests) < n:
            add("random hand", {"bids": [rng.choice(legal) for _ in range(4)], "tricks": _tricks(rng)})
        return
    for n_ in (rules.min_bid, 8, 10, 12, 13):
        for seat in (0, 1):
            for own in (n_, n_ - 1, 13, 0):
                if own < 0:
                    continue
                t = [0, 0, 0, 0]
                t[seat] = own
                t[1 - seat] = 13 - own
                add(f"contract {n_} by seat {seat}, bidders take {own}",
                    {"contract": {"seat": seat, "n": n_, "strain": None}, "tricks": t})
    add("bidders split tricks between partners", {"contract": {"seat": 2, "n": 7, "strain": None},
                                                 "tricks": [4, 3, 3, 3]})
    while len(g.tests) < n:
        nn = rng.choice(list(range(rules.min_bid, 14)) + [13, 13])
        t = _tricks(rng)
        if rng.random() < 0.15:
            side = rng.randrange(2)
            t = [0, 0, 0, 0]
            t[side] = rng.randint(0, 13)
            t[side + 2] = 13 - t[side]
        add("random hand", {"contract": {"seat": rng.randrange(4), "n": nn, "strain": None}, "tricks": t})


def gen_outcome(g: Gen, n: int) -> None:
    """Tests of the match's outcome after a deal: who wins, from the scores, the target, the bids and the tricks."""
    rules, rng = g.rules, g.rng
    T = rules.target
    def add(desc: str, inp: dict[str, Any]) -> None:
        exp, cid = ref_outcome(rules, inp)
        g.add(desc, inp, exp, cid)
    if rules.individual:
        bids, tricks = [2, 2, 2, 5], [3, 3, 3, 4]
        def ind(desc: str, scores: list[int], b: list[int] = bids, t: list[int] = tricks) -> None:
            add(desc, {"scores": scores, "target": T, "bids": b, "tricks": t})
        ind("one partner exactly at the target, the other at 1", [T, 0, 1, 0])
        ind("one partner at the target, the other at 0: not enough", [T, 5, 0, 5])
        ind("one partner at the target, the other negative", [T + 10, 5, -3, 5])
        ind("one below the target", [T - 1, 5, 30, 5])
        ind("the team sum reaches the target, no single player does", [30, 0, 30, 0])
        ind("the team sum is exactly the target, nobody is at it", [T - 1, 0, 1, 2])
        ind("team 1 qualifies", [3, T, 10, 1])
        ind("both partners over the target", [T, -5, T, -5])
        ind("nobody qualifies, all negative", [-10, -20, -5, -1])
        ind("all zero", [0, 0, 0, 0])
        ind("both qualify; team 0 higher sum and higher top", [T + 5, T, 10, 1])
        ind("both qualify; team 1 higher sum and higher top", [T, T + 5, 1, 10])
        ind("both qualify; equal sums and equal tops", [T, T, 5, 5])
        ind("both qualify; equal sums, team 0 has the higher top", [T + 4, T, 1, 5])
        ind("both qualify; equal tops, team 1 has the higher sum", [T, T, 1, 6])
        ind("both qualify; team 0 higher top, team 1 higher sum", [T + 2, T, 1, 10])
        ind("both qualify; team 1 higher top, team 0 higher sum", [T, T + 2, 10, 1])
        if rules.made_bid_wins:
            mb = rules.made_bid_wins
            ind(f"a made bid of {mb} wins at once", [5, 0, -3, 0], [mb, 2, 2, 2], [mb, 1, 1, 13 - mb - 2])
            ind(f"a failed bid of {mb} does not", [5, 0, -3, 0], [mb, 2, 2, 2], [mb - 1, 2, 1, 13 - mb - 2])
            ind(f"a made bid of {mb} by team 1 with team 0 qualified", [T, mb, 5, 0], [2, mb, 2, 2],
                [1, mb + 1, 1, 13 - mb - 3])
        legal = core_rules.legal_bids(rules, 0)
        pool = _score_pool(rules)
        while len(g.tests) < n:
            sc = [rng.choice(pool) if rng.random() < 0.7 else rng.randint(-40, T + 15) for _ in range(4)]
            ind("random scores", sc, [rng.choice(legal) for _ in range(4)], _tricks(rng))
        return
    def auc(desc: str, s0: int, s1: int, seat: int = 0, n_: int = 8, t: list[int] | None = None,
            target: int = T) -> None:
        tt = t or [5, 2, 4, 2]
        add(desc, {"scores": [s0, s1, s0, s1], "target": target, "contract": {"seat": seat, "n": n_, "strain": None},
                   "tricks": tt})
    auc("team 0 exactly at the target", T, 10)
    auc("team 0 one below the target", T - 1, 10)
    auc("team 1 reaches the target as defenders", 5, T + 2)
    auc("both reach the target: the bidding team 0 wins", T + 1, T + 5, 0)
    auc("both reach the target: the bidding team 1 wins", T + 5, T + 1, 1)
    auc("negative scores, nobody wins", -12, -3)
    auc("bid 13 made", 10, 20, 1, 13, [0, 7, 0, 6])
    auc("bid 13 made, bidders still far from the target", -20, 0, 0, 13, [7, 0, 6, 0])
    auc("bid 13 failed", 10, 20, 1, 13, [1, 6, 0, 6])
    auc("a raised target (play on)", T + 3, 0, 0, 8, None, 2 * T)
    while len(g.tests) < n:
        s = [rng.choice([T - 1, T, T + 1, rng.randint(-30, T + 20)]) for _ in range(2)]
        nn = rng.choice(list(range(rules.min_bid, 14)))
        t = _tricks(rng)
        if rng.random() < 0.2:
            side = rng.randrange(2)
            t = [0, 0, 0, 0]
            t[side] = 13
        auc("random scores", s[0], s[1], rng.randrange(4), nn, t)


def _deck(rng: random.Random) -> list[int]:
    d = list(range(52))
    rng.shuffle(d)
    return d


def gen_deal(g: Gen, n: int) -> None:
    """Tests of a deal: the hands each seat receives from a deck, the revealed card and trump, a redeal."""
    rules, rng = g.rules, g.rng
    def add(desc: str, dealer: int, deck: list[int]) -> None:
        inp = {"dealer": dealer, "scores": [0, 0, 0, 0], "target": rules.target, "deck": cs(deck)}
        exp, cid = ref_deal(rules, inp)
        g.add(desc, inp, exp, cid)
    for dealer in range(4):
        add(f"deck in order, dealer {dealer}", dealer, list(range(52)))
    add("deck in reverse, dealer 0", 0, list(range(51, -1, -1)))
    if rules.weak_redeal:
        add("one seat gets no card above 10", 0, _weak_deck(0, rules))
    while len(g.tests) < n:
        if rules.weak_redeal and rng.random() < 0.3:
            add("random deal with a weak hand", rng.randrange(4), _weak_deck(rng.randrange(4), rules, rng))
        else:
            add("random deal", rng.randrange(4), _deck(rng))


def _weak_deck(dealer: int, rules: Rules, rng: random.Random | None = None) -> list[int]:
    """A deck in which the first seat after the dealer holds no card above 10."""
    low = [c for c in range(52) if core_rules.is_weak_hand(1 << c)]  # 2 to 10
    rest = [c for c in range(52) if not core_rules.is_weak_hand(1 << c)]
    if rng:
        rng.shuffle(low)
    weak, others = low[:13], low[13:] + rest
    if rng:
        rng.shuffle(others)
    first = set(core_rules.deal_positions(rules)[0])  # the places of the first seat's cards (deal.order)
    deck: list[int] = []
    for i in range(52):
        deck.append(weak.pop() if i in first else others.pop())
    return deck


def _play_random(m: Match, rng: random.Random, low_bids: float = 0.3) -> list[str]:
    """Random legal actions until the hand is over; returns their text forms."""
    out: list[str] = []
    n0 = len(m.records)
    while len(m.records) == n0:
        legal = m.legal_actions()
        if m.phase is Phase.BIDDING and rng.random() < low_bids:
            a: Action = legal[0] if m.rules.individual or legal[0] != Bid(None) else rng.choice(legal)
        else:
            a = rng.choice(legal)
        out.append(str(a))
        m.apply(a)
    return out


def gen_hand(g: Gen, n: int) -> None:
    """Tests of whole deals: random decks from zero or running scores, played out at random, with the deal's result."""
    rules, rng = g.rules, g.rng
    T = rules.target
    pool = _score_pool(rules)
    def add(desc: str, dealer: int, scores: list[int], deck: list[int], actions: list[str]) -> None:
        inp = {"dealer": dealer, "scores": scores, "target": T, "deck": cs(deck), "actions": actions}
        exp, cid, cl = ref_hand(rules, inp)
        g.add(desc, inp, exp, cid, cl)
    i = 0
    while len(g.tests) < n:
        dealer = rng.randrange(4)
        if i % 3 == 0:
            scores = [0, 0, 0, 0]
        elif rules.individual:
            scores = [rng.choice(pool) for _ in range(4)]
        else:
            a, b = rng.choice(pool), rng.choice(pool)
            scores = [a, b, a, b]
        i += 1
        deck = _deck(rng)
        m = Match.at(rules, dealer, scores, T)
        m.apply(Deal(tuple(deck)))
        if m.phase is Phase.DEAL:
            add("a hand dealt again at once", dealer, scores, deck, [])
            continue
        actions = _play_random(m, rng, low_bids=0.5 if i % 2 else 0.0)
        add("a random hand" + (" from running scores" if any(scores) else ""), dealer, scores, deck, actions)


def gen_match(g: Gen, n: int) -> None:
    """Whole matches started part-way, from the near-target score states of ``tarneeb fuzz``, played by
    the heuristic bot (with some random actions) until a team wins or :data:`MATCH_DEALS` deals."""
    from tarneeb.conformance.fuzz import SCORE_STATES, interesting_scores, random_chooser

    rules, rng = g.rules, g.rng
    while len(g.tests) < n:
        kind = SCORE_STATES[len(g.tests) % len(SCORE_STATES)]
        scores = interesting_scores(rules, rng, kind)
        dealer = rng.randrange(4)
        choose = random_chooser(rng)
        m = Match.at(rules, dealer, scores, rules.target)
        deals: list[dict[str, Any]] = []
        while m.phase is not Phase.OVER and len(deals) < MATCH_DEALS:
            deck = _deck(rng)
            n0 = len(m.records)
            m.apply(Deal(tuple(deck)))
            actions: list[str] = []
            while len(m.records) == n0:
                a = choose(m, list(m.legal_actions()), len(actions))
                if a is None:
                    raise RuntimeError(f"{rules.id}: the vector's policy chose no action")
                actions.append(str(a))
                m.apply(a)
            deals.append({"deck": cs(deck), "actions": actions})
        inp = {"dealer": dealer, "scores": scores, "target": rules.target, "deals": deals}
        exp, cid = ref_match(rules, inp)
        won = exp["deals"][-1]["winner"]
        g.add(f"a match from {kind} scores {scores}: {len(deals)} deal(s), "
              + ("no winner yet" if won is None else f"team {won} wins"), inp, exp, cid)


def _perft_edges(g: Gen) -> None:
    """Edge cases of perft: depth 0, during bidding, a few cards before the end, after the deal is over."""
    rules = g.rules
    rng = random.Random(f"{rules.id}|{json.dumps(dict(rules.options), sort_keys=True)}|perft-edges")
    while True:  # a deal whose bidding is played out by random calls
        dealer, deck = rng.randrange(4), _deck(rng)
        m = Match.at(rules, dealer, [0, 0, 0, 0], rules.target)
        m.apply(Deal(tuple(deck)))
        actions: list[str] = []
        while m.phase in (Phase.BIDDING, Phase.TRUMP_CHOICE):
            a = rng.choice(m.legal_actions())
            actions.append(str(a))
            m.apply(a)
        if m.phase is Phase.PLAY and actions:
            break
    base = {"dealer": dealer, "scores": [0, 0, 0, 0], "target": rules.target, "deck": cs(deck)}

    def add(desc: str, acts: list[str], depth: int, since: int = 2) -> None:
        inp = {**base, "actions": list(acts), "depth": depth}
        exp, cid = ref_perft(rules, inp)
        g.add(desc, inp, exp, cid, since=since)

    # protocol 1 counted "the legal sequences of n cards from the play position": these edge cases are 2's
    add("perft during bidding (no card to play): 1", actions[:1], 3)
    add("perft depth 0 at the first lead: 1", actions, 0, since=1)  # the empty sequence, in both versions
    for _ in range(40):
        a = rng.choice(m.legal_actions())
        actions.append(str(a))
        m.apply(a)
    add("perft depth 14 with 12 cards left: each sequence ends with the deal", actions, 14)
    while m.phase is Phase.PLAY:
        a = rng.choice(m.legal_actions())
        actions.append(str(a))
        m.apply(a)
    add("perft depth 2 after the last card (the deal is over): 1", actions, 2)


def gen_perft(g: Gen, n: int) -> None:
    """Perft tests: how many legal action sequences of each depth follow a position of the play; and the edge cases."""
    rules, rng = g.rules, g.rng
    _perft_edges(g)
    made = 0
    while made < n:
        dealer = rng.randrange(4)
        deck = _deck(rng)
        m = Match.at(rules, dealer, [0, 0, 0, 0], rules.target)
        m.apply(Deal(tuple(deck)))
        if m.phase is not Phase.BIDDING:
            continue
        actions: list[str] = []
        while m.phase in (Phase.BIDDING, Phase.TRUMP_CHOICE):
            legal = m.legal_actions()
            phase: Phase = m.phase
            if rules.individual:
                a: Action = legal[min(len(legal) - 1, 3)]  # a bid of 5 or so: total 20, always played
            elif phase is Phase.TRUMP_CHOICE:
                a = NameTrump(rng.randrange(4))
            else:
                a = legal[-1] if m.to_move == m.dealer and m.auction_top is None else (
                    [x for x in legal if x != Bid(None)][0] if not m.record or not m.record.bids else Bid(None))
                if a not in legal:
                    a = legal[0]
            actions.append(str(a))
            m.apply(a)
        if m.phase is not Phase.PLAY:
            continue
        # a few cards into the hand too, so mid-trick positions are counted
        skip = rng.choice([0, 0, 2, 5])
        for _ in range(skip):
            a = rng.choice(m.legal_actions())
            actions.append(str(a))
            m.apply(a)
        for depth in PERFT_DEPTHS:
            inp = {"dealer": dealer, "scores": [0, 0, 0, 0], "target": rules.target, "deck": cs(deck),
                   "actions": list(actions), "depth": depth}
            exp, cid = ref_perft(rules, inp)
            g.add(f"perft depth {depth} after {len(actions)} actions", inp, exp, cid)
        made += 1


GENERATORS: dict[str, Callable[[Gen, int], None]] = {
    "play-legality": gen_play_legality, "trick-winner": gen_trick_winner, "bid-legality": gen_bid_legality,
    "bidding-end": gen_bidding_end, "hand-scoring": gen_hand_scoring, "outcome": gen_outcome, "deal": gen_deal,
    "hand": gen_hand, "match": gen_match, "perft": gen_perft,
}


def _opt_label(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items()) or "default options"


def house_variants(ref: str) -> list[tuple[dict[str, Any], dict[str, int]]]:
    """A ruleset file (house rules): the full set at its defaults, then its base's option variants that it
    still accepts (a variant setting an option to the file's own default is dropped)."""
    rs = get_ruleset(ref)
    base = next((VARIANTS[rid] for rid in rs.lineage if rid in VARIANTS), [])
    out: list[tuple[dict[str, Any], dict[str, int]]] = [({}, FULL)]
    for options, counts in base[1:]:
        if all(rs.option(k).default == v for k, v in options.items()):
            continue
        try:
            load_rules(rs, options)
        except ConfigError:
            continue
        out.append((options, counts))
    return out


def generate(ruleset: str) -> dict[str, list[dict[str, Any]]]:
    """All groups of one ruleset, by category."""
    out: dict[str, list[dict[str, Any]]] = {c: [] for c in CATEGORIES}
    for options, counts in VARIANTS.get(ruleset) or house_variants(ruleset):
        rules = load_rules(ruleset, options)
        for cat in CATEGORIES:
            n = counts.get(cat, 0)
            if not n:
                continue
            g = Gen(rules, random.Random(f"{ruleset}|{json.dumps(options, sort_keys=True)}|{cat}"))
            GENERATORS[cat](g, n)
            clauses = {k: v for k, v in FIELD_CLAUSES[cat].items()
                       if v in rules.ruleset.clauses or v.startswith("protocol.")}
            out[cat].append({
                "description": f"{cat} under {ruleset} ({_opt_label(options)})",
                "ruleset": ruleset, "options": options, "command": COMMAND[cat], "clauses": clauses,
                "tests": g.tests,
            })
    return {c: v for c, v in out.items() if v}


def dumps(groups: list[dict[str, Any]]) -> str:
    """Stable text: one group header per line block, one test per line."""
    parts = ["["]
    for gi, grp in enumerate(groups):
        head = {k: v for k, v in grp.items() if k != "tests"}
        parts.append("  {" + json.dumps(head, ensure_ascii=False, separators=(", ", ": "))[1:-1] + ', "tests": [')
        tests = grp["tests"]
        for ti, t in enumerate(tests):
            parts.append("    " + json.dumps(t, ensure_ascii=False, separators=(",", ":"))
                         + ("," if ti < len(tests) - 1 else ""))
        parts.append("  ]}" + ("," if gi < len(groups) - 1 else ""))
    parts.append("]")
    return "\n".join(parts) + "\n"


def generated_files(ruleset: str | None = None) -> Iterator[tuple[str, str]]:
    """(relative path, text) of every vector file, in a stable order (``ruleset``: that one only, also a
    ruleset file, written under its id)."""
    if ruleset is not None:
        rs = get_ruleset(ruleset)
        for cat, groups in generate(rs.name_ref).items():
            yield f"{rs.id}/{cat}.json", dumps(groups)
        return
    for rid in rulesets():
        if rid not in VARIANTS:
            continue
        for cat, groups in generate(rid).items():
            yield f"{rid}/{cat}.json", dumps(groups)


def write_all(out: Path, ruleset: str | None = None) -> dict[str, int]:
    """Write every vector file under ``out`` (one ruleset, or all); returns the number of tests per ruleset."""
    counts: dict[str, int] = {}
    for rel, text in generated_files(ruleset):
        p = out / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
        rid = rel.split("/")[0]
        counts[rid] = counts.get(rid, 0) + sum(len(g["tests"]) for g in json.loads(text))
    return counts

