"""Steering: decks built for a transition, bids summed to a total, scripted auctions and a card chooser that makes
given seats win tricks. Planning reads the encoding (:class:`tests.steered.expected.Expected`) only; nothing here is
compared with the engine."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import NamedTuple

from tarneeb_proofs.encode import SUIT_MASKS

from .expected import Expected
from .kinds import PlanError
from .terms import PASS_CALL, Call, St


def top_of(suit: int, k: int, skip: int = 0) -> list[int]:
    """The ``k`` highest cards of ``suit``, below its ``skip`` highest."""
    return [suit * 13 + 12 - skip - i for i in range(k)]


def low_of(suit: int, k: int, skip: int = 0) -> list[int]:
    """The ``k`` lowest cards of ``suit``, above its ``skip`` lowest."""
    return [suit * 13 + skip + i for i in range(k)]


def beats(c: int, best: int, trump: int) -> bool:
    """Steering heuristic (never compared with anything): does ``c`` top ``best`` in a trick with ``trump``."""
    if c // 13 == best // 13:
        return c > best
    return c // 13 == trump


FULL = (1 << 52) - 1


def played_mask(hands: Sequence[int]) -> int:
    """The cards no seat holds any more (played)."""
    return FULL & ~(hands[0] | hands[1] | hands[2] | hands[3])


def mask_cards(mask: int) -> list[int]:
    """The cards of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Goal(NamedTuple):
    """The seats that (together) must take ``tricks`` tricks of the hand."""

    seats: frozenset[int]
    tricks: int  # the tricks these seats (together) must take, counted from the start of the hand


class Chooser:
    """Plays on purpose: the first goal not yet met names the seats that must win the trick; they play to win it
    (and to keep it from a later opponent), the others keep out of their way and lead into their strength. With no
    goal left, a card at random (seeded), so the legal sets met vary."""

    def __init__(self, goals: Sequence[Goal], rng: random.Random) -> None:
        self.goals = list(goals)
        self.rng = rng
        self.won = [0, 0, 0, 0]

    def current(self) -> frozenset[int] | None:
        """The seats of the first goal not yet met (None: every goal met)."""
        for g in self.goals:
            if sum(self.won[s] for s in g.seats) < g.tricks:
                return g.seats
        return None

    def choose(self, ex: Expected, seat: int, legal: int, trick: Sequence[int], seats: Sequence[int],
               hands: Sequence[int], trump: int) -> int:
        """The card ``seat`` plays from its ``legal`` set, to serve the current goal (steering only)."""
        cards = mask_cards(legal)
        g = self.current()
        if g is None:
            return self.rng.choice(cards)

        def low(cs: Iterable[int]) -> int:
            return min(cs, key=lambda c: (c // 13 == trump, c % 13, c))

        later = ex.order(seat)[1:4 - len(trick)]
        led = trick[0] // 13 if trick else -1

        def can_beat(y: int, best: int) -> bool:
            lm = ex.mask(hands[y], led if trick else best // 13, trump)
            s = best // 13
            if lm & SUIT_MASKS[s] & ~((2 << best) - 1):
                return True
            return s != trump and 0 <= trump < 4 and bool(lm & SUIT_MASKS[trump])

        if not trick:
            if seat in g:
                safe = [c for c in cards if not any(can_beat(y, c) for y in later if y not in g)]
                return max(safe or cards, key=lambda c: (c // 13 == trump, c % 13))
            into = [c for c in cards if any(can_beat(y, c) for y in later if y in g)]
            return low(into or cards)
        best_i = 0
        for i in range(1, len(trick)):
            if beats(trick[i], trick[best_i], trump):
                best_i = i
        best, best_seat = trick[best_i], seats[best_i]
        over = [c for c in cards if beats(c, best, trump)]
        under = [c for c in cards if not beats(c, best, trump)]
        if seat in g:
            if best_seat in g and not any(can_beat(y, best) for y in later if y not in g):
                return low(under or cards)
            safe = [c for c in over if not any(can_beat(y, c) for y in later if y not in g)]
            if safe or over:
                return min(safe or over, key=lambda c: (c // 13 == trump, c % 13))
            return low(cards)
        return low(under or cards)


class Design(NamedTuple):
    """One deal as built: the deck, how the seats bid or call, the suit named, how they play."""

    deck: tuple[int, ...]
    bids: tuple[int, ...] = ()  # individual: the bids in bidding order
    calls: Callable[[St, frozenset[Call]], Call] | None = None  # auction: the call for the seat to speak
    named: int = 0  # the trump the contract holder names (contract source, not Egyptian)
    goals: tuple[Goal, ...] = ()
    note: str = ""
    asks: tuple[bool, ...] = ()  # reading claimed of weak-hand: each weak seat in turn asks (True) or keeps (False)


class Plan:
    """Builds decks and bids for one configuration (reads the encoding only: planning, not checking)."""

    def __init__(self, ex: Expected, rng: random.Random) -> None:
        self.ex = ex
        self.rules = ex.rules
        self.rng = rng

    def trump_of(self, revealed: int, named: int = 0) -> int:
        """The trump the encoding gives for the card turned up and the strain named."""
        return self.ex.trump(revealed, named)

    def fixed_trump(self) -> int | None:
        """The trump when no card or contract chooses it, else None."""
        if self.rules.trump_source == "fixed":
            return self.trump_of(0)
        return None

    def pick_trump(self, avoid: Iterable[int] = ()) -> int:
        """The fixed trump, else a suit at random not in ``avoid``."""
        t = self.fixed_trump()
        if t is not None:
            return t
        return self.rng.choice([s for s in range(4) if s not in set(avoid)])

    def deck(self, dealer: int, fixed: Mapping[int, Iterable[int]] | None = None, weak: Iterable[int] = (),
             trump: int | None = None) -> tuple[int, ...]:
        """A deck dealing each seat the cards ``fixed`` gives it, no card above 10 to the ``weak`` seats, at least
        one to every other seat (where the weak-hand rule is on), and, where the dealer's last card shows trump,
        one showing ``trump``."""
        ex, rng = self.ex, self.rng
        hands: dict[int, list[int]] = {s: sorted(set((fixed or {}).get(s, ()))) for s in range(4)}
        taken = {c for h in hands.values() for c in h}
        if len(taken) != sum(len(h) for h in hands.values()) or any(len(h) > 13 for h in hands.values()):
            raise PlanError(f"overlapping or oversized hands {hands}")
        weak_s = set(weak)
        free = [c for c in range(52) if c not in taken]
        rng.shuffle(free)
        revealed: int | None = None
        shows = self.rules.trump_source not in ("fixed", "contract")
        if shows and trump is not None:
            mine = [c for c in hands[dealer] if self.trump_of(c) == trump]
            if mine:
                revealed = mine[0]
            else:
                pool = [c for c in free if self.trump_of(c) == trump and (dealer not in weak_s or not ex.high(c))]
                if not pool or len(hands[dealer]) >= 13:
                    raise PlanError(f"no card left for the dealer to show trump {trump}")
                revealed = pool[0]
                free.remove(revealed)
                hands[dealer].append(revealed)
        for s in sorted(weak_s):
            if any(ex.high(c) for c in hands[s]):
                raise PlanError(f"seat {s} must be weak but is given a high card")
            lows = [c for c in free if not ex.high(c)][:13 - len(hands[s])]
            if len(lows) < 13 - len(hands[s]):
                raise PlanError("not enough low cards for the weak seats")
            for c in lows:
                free.remove(c)
            hands[s] += lows
        if self.rules.weak_redeal:
            for s in range(4):
                if s not in weak_s and len(hands[s]) < 13 and not any(ex.high(c) for c in hands[s]):
                    c = next(c for c in free if ex.high(c))
                    free.remove(c)
                    hands[s].append(c)
        for s in range(4):
            while len(hands[s]) < 13:
                hands[s].append(free.pop())
        if self.rules.weak_redeal:
            for s in range(4):
                if s not in weak_s and not any(ex.high(c) for c in hands[s]):
                    raise PlanError(f"seat {s} would be weak by accident")
        if revealed is None:
            revealed = hands[dealer][-1]
        deal = ex.order(ex.next(dealer))
        rest = [c for c in hands[dealer] if c != revealed]
        rng.shuffle(rest)
        hands[dealer] = [*rest, revealed]  # the dealer's last card is the 52nd dealt (deal.order)
        for s in range(4):
            if s != dealer:
                rng.shuffle(hands[s])
        deck = [0] * 52
        place = {ex.enc.dealt_to(i): i for i in range(52)}  # (k, j) -> the deck's place (deal.order)
        for p, s in enumerate(deal):
            for j, c in enumerate(hands[s]):
                deck[place[(p, j)]] = c
        if shows and trump is not None and self.trump_of(deck[51]) != trump:
            raise PlanError("the dealer's last card does not show the trump wanted")
        return tuple(deck)

    # ------------------------------------------------------------ individual bids
    def bids(self, dealer: int, scores: Sequence[int], want: Mapping[int, int] | None = None,
             total: int | None = None, first3: int | None = None, high_first: Iterable[int] = ()) -> tuple[int, ...]:
        """Legal bids in bidding order (seats after the dealer first): ``want`` fixes some seats' bids, ``total``
        the sum, ``first3`` the sum of the first three; the other seats bid low (``high_first``: high)."""
        order = self.ex.order(self.ex.next(dealer))
        legal = [sorted(b for b in self.ex.legal_bids(scores[s]) if b > 0) for s in order]
        want = dict(want or {})
        hi = set(high_first)
        opts = []
        for i, s in enumerate(order):
            if s in want:
                if want[s] not in legal[i]:
                    raise PlanError(f"bid {want[s]} is not legal for seat {s} at score {scores[s]}")
                opts.append([want[s]])
            else:
                opts.append(list(reversed(legal[i])) if s in hi else legal[i])
        lo_sum = [sum(min(o) for o in opts[i:]) for i in range(5)]
        hi_sum = [sum(max(o) for o in opts[i:]) for i in range(5)]

        def dfs(i: int, acc: int, got: list[int]) -> list[int] | None:
            if i == 4:
                return got if total is None or acc == total else None
            if i == 3 and first3 is not None and acc != first3:
                return None
            for b in opts[i]:
                a = acc + b
                if total is not None and not lo_sum[i + 1] <= total - a <= hi_sum[i + 1]:
                    continue
                if i < 3 and first3 is not None:
                    rest3 = first3 - a
                    if not sum(min(o) for o in opts[i + 1:3]) <= rest3 <= sum(max(o) for o in opts[i + 1:3]):
                        continue
                res = dfs(i + 1, a, [*got, b])
                if res is not None:
                    return res
            return None

        got = dfs(0, 0, [])
        if got is None:
            raise PlanError(f"no legal bids for scores {list(scores)} with total {total}, first three {first3}, "
                            f"fixed {want}")
        return tuple(got)

    # ------------------------------------------------------------ auction scripts
    def script(self, dealer: int, holder: int | None, final: Call | None, warm: Iterable[int] = (),
               match: bool = False) -> Callable[[St, frozenset[Call]], Call]:
        """Calls that end in ``final`` by ``holder`` (None: everyone passes; a forced dealer bids the lowest): the
        ``warm`` seats first bid the lowest legal bid below it, with ``match`` the seat before the dealer bids it and
        the dealer (the holder) matches."""
        ex = self.ex
        keys = ex.keys
        fk = keys[final] if final is not None else -1
        warmed: set[int] = set()
        warm_s = set(warm)
        before_dealer = ex.order(ex.next(dealer))[2]

        def policy(st: St, legal: frozenset[Call]) -> Call:
            seat, top, held = st[9], st[1], st[2]
            bids = sorted((c for c in legal if c != PASS_CALL), key=lambda c: keys[c])
            if final is not None:
                if seat == holder and final in legal and (top < fk or held != holder):
                    return final
                if match and seat == before_dealer and seat != holder and final in legal and top < fk:
                    return final
                if seat in warm_s and seat not in warmed and seat != holder and bids and keys[bids[0]] < fk:
                    warmed.add(seat)
                    return bids[0]
            if PASS_CALL in legal:
                return PASS_CALL
            return bids[0]

        return policy

