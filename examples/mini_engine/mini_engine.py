#!/usr/bin/env python3
"""A small, independent Tarneeb engine that speaks the line protocol of
``spec/protocol/README.md``.

It is written from the rule documents (``/work/shared/rulebooks``) and the
readings the project's ambiguity register takes, and deliberately shares no
code with the ``tarneeb`` package: it exists so that the project's checkers
(``tarneeb verify``, ``tarneeb vectors run``, ``tarneeb fuzz``) can be shown
to accept a correct engine and to catch a buggy one.

Usage::

    python mini_engine.py                 # serve the protocol on stdin/stdout
    python mini_engine.py --mutant NAME   # the same, with one deliberate rule bug
    python mini_engine.py selfplay --ruleset R --matches N --seed S --out FILE [--part-way SHARE]

The mutant can also be chosen with the environment variable
``MINI_ENGINE_MUTANT``. ``--list-mutants`` prints the names.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from dataclasses import dataclass, field
from typing import Any

# ----------------------------------------------------------------- mutants
MUTANTS: dict[str, str] = {
    "team-tricks": "41 family: each player is scored on the tricks of the whole team",
    "team-sum-wins": "41 family: a team wins when the sum of its two scores reaches the target",
    "partner-nonneg": "41 family: the partner needs a score >= 0 instead of > 0",
    "tie-team0": "41 family: when both teams qualify, team 0 always wins",
    "sorted-reveal": "revealed card: the highest card of the dealer's sorted hand, not the last card dealt",
    "redeal-dealer": "41 family: after a low bid total the dealer moves when it should stay (and the reverse)",
    "pass-41": "41 family: a pass is accepted as a bid of nothing",
    "failed-pays": "41 family: a failed bid's value is also paid to each opponent",
    "failed-split": "41 family: a failed bid's value is split between the two opponents (half each)",
    "failed-split-lower-first": "41 family: a failed bid's value is split between the two opponents, the lower half "
                                "to the one who plays after the bidder, the rest to the other",
    "failed-split-upper-first": "41 family: a failed bid's value is split between the two opponents, the upper half "
                                "to the one who plays after the bidder, the rest to the other",
    "failed-pays-not-charged": "41 family: a failed bid's value is paid to each opponent and not taken off the bidder",
    "total-10": "41 family: a deal is played from a bid total of 10 (one below the ruleset's)",
    "total-12": "41 family: a deal is played from a bid total of 12 (one above the ruleset's)",
    "total-13": "41 family: a deal is played from a bid total of 13 (two above the ruleset's)",
    "no-follow-void-trump": "must-trump option: a player holding no trump is not made to follow suit",
    "protocol-1": "written to protocol 1: hello names version 1, and perft counts only sequences of exactly "
                  "depth cards (0 where no card can be played)",
}

# ----------------------------------------------------------------- cards
# A card is the text "AS", "TH", "2C": rank letter then suit letter.
SUITS = "CDHS"
RANKS = "23456789TJQKA"
STRAINS = "CDHSN"


_SUIT_OF = {s: i for i, s in enumerate(SUITS)}
_RANK_OF = {r: i for i, r in enumerate(RANKS)}
_KEY_OF = {r + s: i * 13 + j for i, s in enumerate(SUITS) for j, r in enumerate(RANKS)}  # "AS" -> 51


def c_suit(card: str) -> int:
    return _SUIT_OF[card[1]]


def c_rank(card: str) -> int:
    return _RANK_OF[card[0]]


def c_key(card: str) -> int:
    return _KEY_OF[card]


def valid_card(card: Any) -> bool:
    return isinstance(card, str) and len(card) == 2 and card[0] in RANKS and card[1] in SUITS


# ----------------------------------------------------------------- rulesets
# What each document says (and the readings taken where it is silent).
FACE = {b: b for b in range(2, 14)}
TABLE_001 = {b: b * (1 if b <= 4 else 2 if b <= 8 else 3) for b in range(2, 14)}  # face, double, triple

BASE: dict[str, dict[str, Any]] = {
    # document 000 (Card Kings)
    "card-kings-41": dict(family="41", trump="colour", bids=[b for b in range(2, 14) if b != 6], total=11,
                          redeal_same=True, values=FACE, tie="sum", target=41, rising=False, bid10=False),
    # document 001 (bs.fyi)
    "bsfyi-41": dict(family="41", trump="hearts", bids=list(range(2, 14)), total=11, redeal_same=False,
                     values=TABLE_001, tie="top", target=41, rising=False, bid10=False),
    # document 003 (ERAM CARDS)
    "eram-41": dict(family="41", trump="colour", bids=list(range(2, 14)), total=11, redeal_same=False,
                    values=FACE, tie="sum", target=41, rising=False, bid10=False),
    # document 002, "Tarneeb 400" mode, numbers from 001
    "tarneeb-400": dict(family="41", trump="hearts", bids=list(range(2, 14)), total=11, redeal_same=False,
                        values=TABLE_001, tie="top", target=41, rising=True, bid10=False),
    # document 002, the auction game
    "classic": dict(family="auction", min_bid=7, style="privilege", all_pass="redeal", egyptian=False,
                    must_trump=False, weak=False, ccw=True, scoring="standard", kaboot="16", bid13="win",
                    target=41, play_on=0),
}
OPTIONS: dict[str, dict[str, tuple[str, Any]]] = {
    "card-kings-41": {},
    "bsfyi-41": {"trump_source": ("trump", {"fixed": "hearts", "revealed-suit": "own"}),
                 "rising_min_bid": ("rising", {True: True, False: False}),
                 "bid_total_min": ("total", {11: 11, 12: 12, 13: 13}),
                 "made_bid_wins": ("bid10", {0: False, 10: True})},
    "eram-41": {"timer_weakest": ("timer", {"lowest-non-trump": 1, "lowest-rank": 2})},
    "tarneeb-400": {"target": ("target", {41: 41, 61: 61})},
    "classic": {"min_bid": ("min_bid", {7: 7, 8: 8}),
                "auction": ("style", {"dealer-privilege": "privilege", "continuous": "continuous"}),
                "all_pass": ("all_pass", {"redeal-next": "redeal", "dealer-forced": "forced"}),
                "egyptian": ("egyptian", {True: True, False: False}),
                "must_trump": ("must_trump", {True: True, False: False}),
                "weak_redeal": ("weak", {True: True, False: False}),
                "direction": ("ccw", {"ccw": True, "cw": False}),
                "scoring": ("scoring", {"standard": "standard", "bid-only": "bid-only"}),
                "kaboot": ("kaboot", {"16": "16", "26": "26", "double": "double", "none": "none"}),
                "bid13": ("bid13", {"win": "win", "26": "26", "normal": "normal"}),
                "target": ("target", {31: 31, 41: 41, 61: 61}),
                "play_on": ("play_on", None)},
}


class EngineError(Exception):
    pass


def make_config(ruleset: Any, options: Any) -> dict[str, Any]:
    if ruleset not in BASE:
        raise EngineError(f"unknown ruleset {ruleset!r}")
    cfg = dict(BASE[ruleset])
    cfg["id"] = ruleset
    for name, value in (options or {}).items():
        if name not in OPTIONS[ruleset]:
            raise EngineError(f"unknown option {name!r} for {ruleset}")
        key, table = OPTIONS[ruleset][name]
        if table is None:
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 1000:
                raise EngineError(f"bad value {value!r} for option {name}")
            cfg[key] = value
        else:
            if value not in table or isinstance(value, bool) != isinstance(next(iter(table)), bool):
                raise EngineError(f"bad value {value!r} for option {name}")
            cfg[key] = table[value]
    cfg["step"] = 1 if cfg.get("ccw", True) else 3
    return cfg


# ----------------------------------------------------------------- rules
def mutant() -> str:
    return MUTANT


def on(name: str) -> bool:
    """Is the bug ``name`` switched on? ``--mutant`` takes one name or several separated by commas."""
    return name in MUTANT.split(",")


MUTANT = ""


def follow_ok(cfg: dict[str, Any], hand: list[str], trick: list[str], trump: int | None, card: str) -> bool:
    """Follow suit when you can; with must_trump, cut when void and holding trump."""
    return card in playable(cfg, hand, trick, trump)


def playable(cfg: dict[str, Any], hand: list[str], trick: list[str], trump: int | None) -> list[str]:
    """The cards of ``hand`` that may be played on ``trick`` (see :func:`follow_ok`), in the hand's order."""
    if not trick:
        return list(hand)
    suits = [_SUIT_OF[c[1]] for c in hand]
    led = _SUIT_OF[trick[0][1]]
    has_led = led in suits
    if cfg["family"] == "auction" and cfg["must_trump"] and trump is not None and trump < 4:
        has_trump = trump in suits
        if on("no-follow-void-trump") and not has_trump:
            return list(hand)
        if not has_led and has_trump:
            return [c for c, s in zip(hand, suits, strict=True) if s == trump]
    if has_led:
        return [c for c, s in zip(hand, suits, strict=True) if s == led]
    return list(hand)


def best_index(trick: list[str], trump: int | None) -> int:
    """Highest trump if any trump was played, else highest card of the led suit."""
    led = c_suit(trick[0])
    if trump is not None and trump < 4:
        trumps = [i for i, c in enumerate(trick) if c_suit(c) == trump]
        if trumps:
            return max(trumps, key=lambda i: c_rank(trick[i]))
    same = [i for i, c in enumerate(trick) if c_suit(c) == led]
    return max(same, key=lambda i: c_rank(trick[i]))


def lowest_bid(cfg: dict[str, Any], score: int) -> int:
    lo: int = min(cfg["bids"])
    if cfg["rising"]:
        if score >= 40:
            lo = 4
        elif score >= 30:
            lo = 3
    return lo


def score_41(cfg: dict[str, Any], bids: list[int], tricks: list[int]) -> list[int]:
    out = [0, 0, 0, 0]
    for s in range(4):
        took = tricks[s] + tricks[(s + 2) % 4] if on("team-tricks") else tricks[s]
        v = cfg["values"][bids[s]] if bids[s] in cfg["values"] else 0
        first, other = (s + cfg["step"]) % 4, (s + 4 - cfg["step"]) % 4  # the opponent who plays after s first
        if took >= bids[s]:
            out[s] += v
        else:
            out[s] -= v
            if on("failed-pays"):
                out[(s + 1) % 4] += v
                out[(s + 3) % 4] += v
            if on("failed-split"):
                out[(s + 1) % 4] += v // 2
                out[(s + 3) % 4] += v // 2
            if on("failed-split-lower-first"):
                out[first] += v // 2
                out[other] += v - v // 2
            if on("failed-split-upper-first"):
                out[first] += v - v // 2
                out[other] += v // 2
            if on("failed-pays-not-charged"):
                out[s] += v
                out[first] += v
                out[other] += v
    return out


def kaboot_points(cfg: dict[str, Any], usual: int) -> int:
    k = cfg["kaboot"]
    return {"16": 16, "26": 26, "double": 2 * usual, "none": usual}[k]


def score_auction(cfg: dict[str, Any], holder: int, n: int, tricks: list[int]) -> list[int]:
    bt = holder % 2
    team = [tricks[0] + tricks[2], tricks[1] + tricks[3]]
    own, other = team[bt], team[1 - bt]
    made = own >= n
    if cfg["scoring"] == "standard":
        gain_b = own if made else -n
        gain_d = 0 if made else other
    else:
        gain_b = n if made else -n
        gain_d = 0
    if n == 13 and cfg["bid13"] == "26":
        gain_b = 26 if made else -16
    elif n == 13 and cfg["bid13"] == "win" and made:
        pass
    elif own == 13:
        gain_b = kaboot_points(cfg, gain_b)
    if other == 13 and cfg["scoring"] == "standard":
        gain_d = kaboot_points(cfg, gain_d)
    res = [0, 0, 0, 0]
    for s in range(4):
        res[s] = gain_b if s % 2 == bt else gain_d
    return res


def winner_41(cfg: dict[str, Any], scores: list[int], bids: list[int] | None,
              tricks: list[int] | None) -> int | None:
    target = cfg["target"]
    if cfg["bid10"] and bids is not None and tricks is not None:
        for s in range(4):
            if bids[s] == 10 and tricks[s] >= 10:
                return s % 2

    def qualifies(t: int) -> bool:
        a, b = scores[t], scores[t + 2]
        if on("team-sum-wins"):
            return bool(a + b >= target)
        if on("partner-nonneg"):
            return (a >= target and b >= 0) or (b >= target and a >= 0)
        return (a >= target and b > 0) or (b >= target and a > 0)

    q = [qualifies(0), qualifies(1)]
    if q[0] and q[1]:
        if on("tie-team0"):
            return 0
        if cfg["tie"] == "sum":
            v = [scores[0] + scores[2], scores[1] + scores[3]]
        else:
            v = [max(scores[0], scores[2]), max(scores[1], scores[3])]
        if v[0] == v[1]:
            return None
        return 0 if v[0] > v[1] else 1
    if q[0]:
        return 0
    if q[1]:
        return 1
    return None


def winner_auction(cfg: dict[str, Any], scores: list[int], target: int, holder: int, n: int,
                   tricks: list[int]) -> int | None:
    bt = holder % 2
    if n == 13 and cfg["bid13"] == "win" and tricks[bt] + tricks[bt + 2] == 13:
        return bt
    r0, r1 = scores[0] >= target, scores[1] >= target
    if r0 and r1:
        return bt
    if r0:
        return 0
    if r1:
        return 1
    return None


def deal_out(cfg: dict[str, Any], dealer: int, deck: list[str]) -> list[list[str]]:
    """One card at a time, starting after the dealer in the direction of play."""
    hands: list[list[str]] = [[], [], [], []]
    seat = dealer
    for card in deck:
        seat = (seat + cfg["step"]) % 4
        hands[seat].append(card)
    return hands


def trump_of_reveal(cfg: dict[str, Any], card: str) -> int:
    s = c_suit(card)
    if cfg["trump"] == "colour":
        return {0: 3, 3: 0, 1: 2, 2: 1}[s]
    return s


def is_weak(hand: list[str]) -> bool:
    return all(c_rank(c) < RANKS.index("J") for c in hand)


# ----------------------------------------------------------------- bids
@dataclass
class Bid:
    n: int | None  # None = pass
    strain: int | None = None

    def key(self) -> int:
        return -1 if self.n is None else self.n * 5 + (self.strain or 0)

    def text(self) -> str:
        if self.n is None:
            return "bid:pass"
        return f"bid:{self.n}" + ("" if self.strain is None else STRAINS[self.strain])


def parse_bid(text: str) -> Bid:
    if not isinstance(text, str) or not text.startswith("bid:"):
        raise EngineError(f"not a bid: {text!r}")
    body = text[4:].upper()
    if body == "PASS":
        return Bid(None)
    strain = None
    if body and body[-1] in STRAINS:
        strain = STRAINS.index(body[-1])
        body = body[:-1]
    if not body.isdigit():
        raise EngineError(f"not a bid: {text!r}")
    return Bid(int(body), strain)


# ----------------------------------------------------------------- a hand
@dataclass
class Hand:
    cfg: dict[str, Any]
    dealer: int
    scores: list[int]
    target: int
    deck: list[str]
    hands: list[list[str]] = field(default_factory=list)
    phase: str = "bidding"
    to_move: int | None = None
    trump: int | None = None
    revealed: str | None = None
    bids: list[Bid | None] = field(default_factory=lambda: [None, None, None, None])
    said: list[tuple[int, Bid]] = field(default_factory=list)
    out: list[bool] = field(default_factory=lambda: [False] * 4)
    top: Bid | None = None
    holder: int | None = None
    trick: list[str] = field(default_factory=list)
    leader: int = 0
    tricks: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    winners: list[int] = field(default_factory=list)
    plays: list[str] = field(default_factory=list)
    redeal: bool = False
    deltas: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    winner: int | None = None
    next_dealer: int | None = None
    first_leader: int = 0

    @property
    def step(self) -> int:
        return int(self.cfg["step"])

    def nxt(self, seat: int) -> int:
        return (seat + self.step) % 4

    def begin(self) -> None:
        cfg = self.cfg
        self.hands = deal_out(cfg, self.dealer, self.deck)
        if cfg["family"] == "auction" and cfg["weak"] and any(is_weak(h) for h in self.hands):
            self.finish_redeal(self.nxt(self.dealer))
            return
        if cfg["family"] == "41":
            if cfg["trump"] == "hearts":
                self.trump = SUITS.index("H")
            else:
                if on("sorted-reveal"):
                    self.revealed = max(self.hands[self.dealer], key=c_key)
                else:
                    self.revealed = self.deck[51]
                self.trump = trump_of_reveal(cfg, self.revealed)
        self.phase = "bidding"
        self.to_move = self.nxt(self.dealer)

    def finish_redeal(self, next_dealer: int) -> None:
        self.phase = "over"
        self.redeal = True
        self.to_move = None
        self.next_dealer = next_dealer

    # ---- legality
    def pass_forbidden(self) -> bool:
        return (self.cfg["all_pass"] == "forced" and self.to_move == self.dealer and self.top is None
                and sum(1 for _, b in self.said if b.n is None) == 3)

    def bid_ok(self, b: Bid) -> bool:
        cfg = self.cfg
        seat = self.to_move
        assert seat is not None
        if cfg["family"] == "41":
            if b.strain is not None:
                return False
            if b.n is None:
                return on("pass-41")
            return b.n in cfg["bids"] and b.n >= lowest_bid(cfg, self.scores[seat])
        if b.n is None:
            return not self.pass_forbidden()
        if (b.strain is not None) != cfg["egyptian"]:
            return False
        if not cfg["min_bid"] <= b.n <= 13:
            return False
        if self.top is None:
            return True
        if b.key() > self.top.key():
            return True
        return cfg["style"] == "privilege" and seat == self.dealer and b.key() == self.top.key()

    def legal(self) -> list[str]:
        if self.phase == "bidding":
            cands = [Bid(None)]
            if self.cfg["family"] == "auction" and self.cfg["egyptian"]:
                cands += [Bid(n, s) for n in range(1, 14) for s in range(5)]
            else:
                cands += [Bid(n) for n in range(1, 14)]
            return [b.text() for b in cands if self.bid_ok(b)]
        if self.phase == "trump":
            return ["trump:" + s for s in SUITS]
        if self.phase == "play":
            assert self.to_move is not None
            h = self.hands[self.to_move]
            return ["play:" + c for c in sorted(playable(self.cfg, h, self.trick, self.trump), key=_KEY_OF.__getitem__)]
        return []

    # ---- moves
    def apply(self, action: str, legal: list[str] | None = None) -> dict[str, Any]:
        if not isinstance(action, str) or action not in (self.legal() if legal is None else legal):
            raise EngineError(f"illegal action {action!r}")
        info: dict[str, Any] = {}
        if self.phase == "bidding":
            self.bid(parse_bid(action))
        elif self.phase == "trump":
            self.trump = SUITS.index(action[-1])
            self.start_play(self.to_move or 0)
        else:
            w = self.play(action[5:])
            if w is not None:
                info["trick_winner"] = w
        return info

    def bid(self, b: Bid) -> None:
        cfg = self.cfg
        seat = self.to_move
        assert seat is not None
        self.said.append((seat, b))
        if cfg["family"] == "41":
            self.bids[seat] = b
            if len(self.said) < 4:
                self.to_move = self.nxt(seat)
                return
            total = sum(x.n or 0 for _, x in self.said)
            need = next((int(m[6:]) for m in MUTANT.split(",") if m.startswith("total-")), cfg["total"])
            if total < need:
                same = cfg["redeal_same"]
                if on("redeal-dealer"):
                    same = not same
                self.finish_redeal(self.dealer if same else self.nxt(self.dealer))
                return
            self.start_play(self.nxt(self.dealer))
            return
        if b.n is None:
            self.out[seat] = True
        else:
            self.top, self.holder = b, seat
        if cfg["style"] == "privilege":
            if len(self.said) < 4:
                self.to_move = self.nxt(seat)
                return
            self.end_auction()
            return
        active = [s for s in range(4) if not self.out[s]]
        if self.top is None and not active:
            self.end_auction()
            return
        if self.top is not None and active == [self.holder]:
            self.end_auction()
            return
        s = self.nxt(seat)
        while self.out[s]:
            s = self.nxt(s)
        self.to_move = s

    def end_auction(self) -> None:
        if self.top is None:
            self.finish_redeal(self.nxt(self.dealer))
            return
        assert self.holder is not None
        if self.cfg["egyptian"]:
            self.trump = self.top.strain
            self.start_play(self.holder)
        else:
            self.phase = "trump"
            self.to_move = self.holder

    def start_play(self, leader: int) -> None:
        self.first_leader = leader
        self.phase = "play"
        self.leader = leader
        self.to_move = leader

    def play(self, card: str) -> int | None:
        seat = self.to_move
        assert seat is not None
        self.hands[seat].remove(card)
        self.trick.append(card)
        self.plays.append(card)
        if len(self.trick) < 4:
            self.to_move = self.nxt(seat)
            return None
        i = best_index(self.trick, self.trump)
        w = (self.leader + i * self.step) % 4
        self.tricks[w] += 1
        self.winners.append(w)
        self.trick = []
        self.leader = w
        self.to_move = w
        if len(self.winners) == 13:
            self.score()
        return w

    def score(self) -> None:
        cfg = self.cfg
        if cfg["family"] == "41":
            bids = [b.n or 0 if b is not None else 0 for b in self.bids]
            self.deltas = score_41(cfg, bids, self.tricks)
            self.scores = [self.scores[s] + self.deltas[s] for s in range(4)]
            self.winner = winner_41(cfg, self.scores, bids, self.tricks)
        else:
            assert self.top is not None and self.top.n is not None and self.holder is not None
            self.deltas = score_auction(cfg, self.holder, self.top.n, self.tricks)
            self.scores = [self.scores[s] + self.deltas[s] for s in range(4)]
            self.winner = winner_auction(cfg, self.scores, self.target, self.holder, self.top.n, self.tricks)
        self.phase = "over"
        self.to_move = None
        self.next_dealer = self.nxt(self.dealer)

    # ---- reports
    def state(self) -> dict[str, Any]:
        st: dict[str, Any] = {"phase": self.phase, "to_move": self.to_move,
                              "trump": None if self.trump is None else STRAINS[self.trump],
                              "revealed": self.revealed}
        if self.top is not None and self.holder is not None and self.phase != "bidding":
            st["contract"] = {"seat": self.holder, "n": self.top.n,
                              "strain": None if self.top.strain is None else STRAINS[self.top.strain]}
        if self.phase == "over":
            st.update(redeal=self.redeal, tricks_won=self.tricks, deltas=self.deltas, scores=self.scores,
                      winner=self.winner, next_dealer=self.next_dealer)
        return st


def perft(h: Hand, depth: int) -> int:
    if depth == 0:
        return 1
    if h.phase != "play":
        return 0 if on("protocol-1") else 1  # protocol 2 counts a position with no card to play as a leaf
    total = 0
    for a in h.legal():
        seat = h.to_move
        saved = (list(h.trick), h.leader, list(h.tricks), list(h.winners), h.phase, h.to_move,
                 list(h.scores), h.next_dealer, h.winner, list(h.deltas))
        assert seat is not None
        hand_before = list(h.hands[seat])
        h.apply(a)
        total += perft(h, depth - 1)
        (h.trick, h.leader, h.tricks, h.winners, h.phase, h.to_move, h.scores, h.next_dealer, h.winner,
         h.deltas) = saved
        h.hands[seat] = hand_before
        h.plays.pop()
    return total


# ----------------------------------------------------------------- protocol
def _cards(v: Any, n: int | None = None) -> list[str]:
    if not isinstance(v, list) or not all(valid_card(c) for c in v) or (n is not None and len(v) != n):
        raise EngineError(f"bad card list {v!r}")
    return list(v)


def _seat(v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < 4:
        raise EngineError(f"bad seat {v!r}")
    return v


def _strain(v: Any) -> int | None:
    if v is None:
        return None
    if v not in list(STRAINS):
        raise EngineError(f"bad trump {v!r}")
    return STRAINS.index(v)


def _scores(v: Any) -> list[int]:
    if not isinstance(v, list) or len(v) != 4 or not all(isinstance(x, int) for x in v):
        raise EngineError(f"bad scores {v!r}")
    return list(v)


def replay_bids(cfg: dict[str, Any], req: dict[str, Any]) -> Hand:
    """A hand in the bidding phase after the given bids (no deck needed)."""
    h = Hand(cfg, _seat(req.get("dealer")), _scores(req.get("scores", [0, 0, 0, 0])),
             int(req.get("target", cfg["target"])), [])
    h.phase = "bidding"
    h.to_move = h.nxt(h.dealer)
    for text in req.get("bids", []):
        if h.phase != "bidding":
            raise EngineError("bids after the end of bidding")
        b = parse_bid(text)
        if not h.bid_ok(b):
            raise EngineError(f"illegal earlier bid {text!r}")
        h.bid(b)
    return h


class Server:
    def __init__(self) -> None:
        self.hand: Hand | None = None

    def handle(self, req: dict[str, Any]) -> dict[str, Any]:
        cmd = req.get("cmd")
        if cmd == "hello":
            return {"ok": True, "protocol": 1 if on("protocol-1") else 2,
                    "name": "mini-engine" + (f" [{MUTANT}]" if MUTANT else ""),
                    "rulesets": list(BASE)}
        if cmd == "quit":
            return {"ok": True}
        if cmd == "deal":  # batched: start a deal and apply every action, answering with each step's claims
            start = self.handle({**req, "cmd": "start"})
            steps: list[dict[str, Any]] = []
            actions = req.get("actions")
            if not isinstance(actions, list):
                raise EngineError("actions: a list of actions")
            for a in actions:
                h = self.hand
                assert h is not None
                acts = h.legal()
                legal = {"seat": h.to_move, "actions": acts}
                try:
                    info = h.apply(a, acts)
                except EngineError as e:
                    return {"ok": True, "start": start, "steps": steps,
                            "refused": {"step": len(steps), "legal": legal, "error": str(e)}}
                steps.append({"legal": legal, "after": {"ok": True, **info, **h.state()}})
            return {"ok": True, "start": start, "steps": steps}
        if cmd == "start":
            cfg = make_config(req.get("ruleset"), req.get("options"))
            deck = _cards(req.get("deck"), 52)
            if len(set(deck)) != 52:
                raise EngineError("the deck must hold 52 distinct cards")
            h = Hand(cfg, _seat(req.get("dealer")), _scores(req.get("scores", [0, 0, 0, 0])),
                     int(req.get("target", cfg["target"])), deck)
            h.begin()
            self.hand = h
            return {"ok": True, "hands": [sorted(x, key=c_key) for x in h.hands], **h.state()}
        if cmd in ("legal", "apply", "state", "perft"):
            if self.hand is None:
                raise EngineError("no hand started")
            h = self.hand
            if cmd == "legal":
                return {"ok": True, "seat": h.to_move, "actions": h.legal()}
            if cmd == "apply":
                info = h.apply(req.get("action"))  # type: ignore[arg-type]
                return {"ok": True, **info, **h.state()}
            if cmd == "state":
                return {"ok": True, **h.state()}
            d = req.get("depth")
            if not isinstance(d, int) or d < 0:
                raise EngineError("bad depth")
            return {"ok": True, "nodes": perft(h, d)}
        cfg = make_config(req.get("ruleset"), req.get("options"))
        if cmd == "play_legal":
            hand = _cards(req.get("hand"))
            return {"ok": True, "legal": follow_ok(cfg, hand, _cards(req.get("trick")), _strain(req.get("trump")),
                                                   req.get("card", ""))}
        if cmd == "trick_winner":
            trick = _cards(req.get("trick"), 4)
            i = best_index(trick, _strain(req.get("trump")))
            return {"ok": True, "winner": (_seat(req.get("leader")) + i * cfg["step"]) % 4}
        if cmd == "bid_legal":
            h = replay_bids(cfg, req)
            if h.phase != "bidding":
                raise EngineError("bidding is over")
            return {"ok": True, "legal": h.bid_ok(parse_bid(req.get("bid", "")))}
        if cmd == "bidding_end":
            h = replay_bids(cfg, req)
            if h.phase == "bidding":
                raise EngineError("bidding is not over")
            return {"ok": True, "redeal": h.redeal, "next_dealer": h.next_dealer if h.redeal else None}
        if cmd in ("score_hand", "outcome"):
            tricks = req.get("tricks")
            if not isinstance(tricks, list) or len(tricks) != 4 or sum(tricks) != 13:
                raise EngineError(f"bad tricks {tricks!r}")
            if cfg["family"] == "41":
                bids = req.get("bids")
                if not isinstance(bids, list) or len(bids) != 4:
                    raise EngineError(f"bad bids {bids!r}")
                if cmd == "score_hand":
                    return {"ok": True, "deltas": score_41(cfg, bids, tricks)}
                cfg = dict(cfg, target=int(req.get("target", cfg["target"])))
                return {"ok": True, "winner": winner_41(cfg, _scores(req.get("scores")), bids, tricks)}
            con = req.get("contract")
            if not isinstance(con, dict):
                raise EngineError(f"bad contract {con!r}")
            holder, n = _seat(con.get("seat")), int(con.get("n", 0))
            if cmd == "score_hand":
                return {"ok": True, "deltas": score_auction(cfg, holder, n, tricks)}
            return {"ok": True, "winner": winner_auction(cfg, _scores(req.get("scores")),
                                                         int(req.get("target", cfg["target"])), holder, n, tricks)}
        raise EngineError(f"unknown command {cmd!r}")


def serve() -> int:
    srv = Server()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
            if not isinstance(req, dict):
                raise EngineError("a request is a JSON object")
            resp = srv.handle(req)
        except (EngineError, ValueError, KeyError, TypeError) as e:
            resp = {"ok": False, "error": str(e)}
        sys.stdout.write(json.dumps(resp) + "\n")
        sys.stdout.flush()
        if isinstance(req, dict) and req.get("cmd") == "quit":
            break
    return 0


# ----------------------------------------------------------------- self-play records
def cautious(h: Hand, rng: random.Random) -> str:
    """Self-play policy: low bids (the last bidder tops the total up), otherwise random legal moves."""
    legal = h.legal()
    if rng.random() < 0.05:
        return rng.choice(legal)
    if h.phase == "bidding" and h.cfg["family"] == "41":
        nums = [a for a in legal if a != "bid:pass"]
        if not nums:
            return legal[0]
        want = rng.choice([2, 3, 3]) if rng.random() < 0.9 else rng.choice([4, 5])
        if len(h.said) == 3 and rng.random() < 0.7:  # else the deal may be cancelled (bid.total)
            want = max(2, h.cfg["total"] - sum(b.n or 0 for _, b in h.said))
        for a in nums:
            if int(a[4:]) >= want:
                return a
        return nums[-1]
    if h.phase == "play" and h.cfg["family"] == "41" and rng.random() < 0.9:
        seat = h.to_move
        assert seat is not None
        bid = h.bids[seat]
        need = bid is not None and bid.n is not None and h.tricks[seat] < bid.n

        def strength(a: str) -> int:
            c = a[5:]
            return c_rank(c) + (13 if c_suit(c) == h.trump else 0)

        return max(legal, key=strength) if need else min(legal, key=strength)
    return rng.choice(legal)


def part_way_scores(cfg: dict[str, Any], rng: random.Random) -> list[int]:
    """Scores for a match recorded part-way, close to the end: where the winning rules matter.

    41 family: each team is either close (one partner a few points short of the target, the other
    above zero) or waiting (one partner past the target, the other at or a little below zero), so
    that no team has won yet; both teams close, both waiting, or one of each. Auction family: both
    team scores a few points short of the target.
    """
    t = cfg["target"]
    if cfg["family"] == "auction":
        a, b = t - rng.randint(1, 8), t - rng.randint(1, 8)
        return [a, b, a, b]
    out = [0, 0, 0, 0]
    kinds = rng.choice((("close", "close"), ("waiting", "waiting"), ("close", "waiting"), ("waiting", "close")))
    for team in (0, 1):
        if kinds[team] == "close":
            hi, lo = t - rng.randint(1, 4), rng.randint(1, 10)
        else:
            hi, lo = t + rng.randint(2, 8), -rng.randint(0, 2)
        if rng.random() < 0.5:
            hi, lo = lo, hi
        out[team], out[team + 2] = hi, lo
    return out


def selfplay(ruleset: str, options: dict[str, Any], matches: int, seed: str, out: Any,
             max_hands: int = 150, part_way: float = 0.0) -> None:
    """Play whole matches with random legal moves and write game records (JSON Lines).

    A share ``part_way`` of the matches (seeded) start from :func:`part_way_scores` instead of zero;
    their records carry the starting scores in the header (``start_scores``).
    """
    from record_writer import write_match  # the record format lives in its own small module

    cfg = make_config(ruleset, options)
    deck0 = [r + s for s in SUITS for r in RANKS]
    for mi in range(matches):
        rng = random.Random(f"{seed}:{mi}")
        dealer = rng.randrange(4)
        first = dealer
        scores = part_way_scores(cfg, rng) if part_way > 0 and rng.random() < part_way else [0, 0, 0, 0]
        start = list(scores)
        target = cfg["target"]
        games: list[int] = []
        played: list[Hand] = []
        winner: int | None = None
        hands = 0
        while winner is None and hands < max_hands and len(played) < 10 * max_hands:
            deck = list(deck0)
            rng.shuffle(deck)
            h = Hand(cfg, dealer, list(scores), target, deck)
            h.begin()
            while h.phase != "over":
                h.apply(cautious(h, rng))
            played.append(h)
            if h.redeal:
                dealer = h.next_dealer if h.next_dealer is not None else dealer
                continue
            hands += 1
            scores = list(h.scores)
            dealer = h.next_dealer if h.next_dealer is not None else dealer
            if h.winner is not None:
                if cfg.get("play_on") and not games:
                    games.append(h.winner)
                    target += cfg["play_on"]
                else:
                    winner = h.winner
        write_match(out, ruleset, options, first, played, f"{seed}:{mi}", start)


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


def main(argv: list[str] | None = None) -> int:
    global MUTANT
    p = argparse.ArgumentParser(prog="mini_engine")
    p.add_argument("--mutant", default=os.environ.get("MINI_ENGINE_MUTANT", ""))
    p.add_argument("--list-mutants", action="store_true")
    sub = p.add_subparsers(dest="cmd")
    s = sub.add_parser("selfplay")
    s.add_argument("--ruleset", required=True)
    s.add_argument("--option", action="append", default=[], metavar="NAME=JSONVALUE")
    s.add_argument("--matches", type=int, default=1)
    s.add_argument("--seed", default="0")
    s.add_argument("--max-hands", type=int, default=150)
    s.add_argument("--part-way", type=float, default=0.0, metavar="SHARE",
                   help="share of the matches started close to the target (recorded with start_scores)")
    s.add_argument("--out", default="-")
    args = p.parse_args(argv)
    if args.list_mutants:
        for k, v in MUTANTS.items():
            print(f"{k}: {v}")
        return 0
    unknown = [m for m in args.mutant.split(",") if m and m not in MUTANTS]
    if unknown:
        print(f"mini_engine: unknown mutant {unknown[0]!r}; valid: {', '.join(MUTANTS)}", file=sys.stderr)
        return 2
    MUTANT = args.mutant
    if args.cmd == "selfplay":
        opts: dict[str, Any] = {}
        for item in args.option:
            k, _, v = item.partition("=")
            try:
                opts[k] = json.loads(v)
            except json.JSONDecodeError:
                opts[k] = v
        try:
            if args.out == "-":
                selfplay(args.ruleset, opts, args.matches, args.seed, sys.stdout, args.max_hands, args.part_way)
            else:
                with open(args.out, "w", encoding="utf-8") as f:
                    selfplay(args.ruleset, opts, args.matches, args.seed, f, args.max_hands, args.part_way)
        except EngineError as e:
            print(f"mini_engine: {e}", file=sys.stderr)
            return 2
        return 0
    return serve()


if __name__ == "__main__":
    sys.exit(main())
