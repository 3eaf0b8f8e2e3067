"""Hypothesis strategies biased to the rules' boundaries, shared by the differential tests.

Bugs in a rule engine live on the edges: a bid total exactly at the threshold, a partner at
exactly 0, an exact tie, a kaboot, a bid one above the top bid. Uniform inputs hit those
rarely, so every strategy here mixes the boundary values (each threshold -1, 0, +1) with a
uniform range. Each takes the resolved :class:`~tarneeb.core.spec.Rules`, so the boundaries
are the ruleset's own (``total_min``, ``target``, the play-on target, ``rising_table``,
``min_bid``, ``values``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from functools import cache

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tarneeb.core import rules as R
from tarneeb.core.spec import Rules, load_rules, rulesets

Opts = tuple[tuple[str, object], ...]

#: examples per differential property in the ci (and dev) profile; the deep profile's own count when larger
DIFF_EXAMPLES = 500


def examples(n: int = DIFF_EXAMPLES) -> int:
    """At least ``n``; more when the loaded profile asks for more (the deep profile)."""
    profile = settings.default
    return max(n, profile.max_examples if profile is not None else 0)


def volume(n: int = DIFF_EXAMPLES) -> settings:
    """Settings of a differential property: at least ``n`` examples, more when the profile asks for more."""
    return settings(max_examples=examples(n), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


# ------------------------------------------------------------------ configurations

def _values(rid: str, name: str) -> list[object]:
    o = rulesets()[rid].option(name)
    if o.allowed:
        return list(o.allowed)
    assert o.range is not None
    return [o.range[0], 1, 10, o.range[1]]  # play_on: off, the smallest raise, a usual one, the largest


def configs(*options: str) -> list[tuple[str, Opts]]:
    """Every ruleset, with every combination of the named options it has (its other options at their defaults).

    A property lists the options its rules depend on, so each option variant that matters is run.
    """
    out: list[tuple[str, Opts]] = []
    for rid, rs in rulesets().items():
        names = [o.name for o in rs.options if o.name in options]
        for combo in itertools.product(*(_values(rid, n) for n in names)):
            out.append((rid, tuple(zip(names, combo, strict=True))))
    return out


@cache
def rules_of(rid: str, opts: Opts) -> Rules:
    return load_rules(rid, dict(opts))


def near(points: Iterable[int], lo: int, hi: int) -> st.SearchStrategy[int]:
    """An integer: one of ``points`` -1/0/+1 (half the time), or any in [lo, hi]."""
    edges = sorted({p + d for p in points for d in (-1, 0, 1)})
    return st.one_of(st.sampled_from(edges), st.integers(lo, hi))


# ------------------------------------------------------------------ individual bids

def score_edges(rules: Rules) -> list[int]:
    """The scores where a rule changes: 0 (partner above zero), the target, the rising-minimum thresholds, the
    thresholds of a rising bid total."""
    return [0, rules.target, *(t for t, _ in rules.rising_table), *(t for t, _ in rules.total_table)]


def scores(rules: Rules) -> st.SearchStrategy[int]:
    """One player's score, near a boundary of ``r``."""
    return near(score_edges(rules), -60, rules.target + 30)


@st.composite
def bids_with_total(draw: st.DrawFn, rules: Rules) -> list[int]:
    """Four legal bids (for a score of 0) whose total is, most of the time, ``total_min`` -1, 0 or +1."""
    legal = R.legal_bids(rules, 0)
    want = draw(near([rules.total_min, *(t for _, t in rules.total_table)], 4 * legal[0], 4 * legal[-1]))
    bids = [draw(st.sampled_from(legal)) for _ in range(4)]
    order = draw(st.permutations(range(4)))
    for _ in range(60):  # walk the bids towards the wanted total, one legal step at a time
        gap = want - sum(bids)
        if gap == 0:
            break
        for i in order:
            step = [b for b in legal if (b > bids[i] if gap > 0 else b < bids[i])]
            if step:
                nxt = min(step) if gap > 0 else max(step)
                if abs(want - (sum(bids) - bids[i] + nxt)) <= abs(gap) or len(step) == 1:
                    bids[i] = nxt
                    break
        else:
            break
    return bids


def bid_and_tricks(rules: Rules) -> st.SearchStrategy[tuple[int, int]]:
    """A legal bid and tricks taken: exactly the bid, one short, one over, none or all 13 most of the time."""
    def tricks(b: int) -> st.SearchStrategy[tuple[int, int]]:
        return st.tuples(st.just(b), st.one_of(st.sampled_from([x for x in (0, b - 1, b, b + 1, 13) if 0 <= x <= 13]),
                                               st.integers(0, 13)))
    return st.sampled_from(R.legal_bids(rules, 0)).flatmap(tricks)


def trick_split() -> st.SearchStrategy[list[int]]:
    """Tricks of the four seats, summing to 13 (one seat with all 13 now and then)."""
    def cut(c: list[int]) -> list[int]:
        c = sorted(c)
        return [c[0], c[1] - c[0], c[2] - c[1], 13 - c[2]]
    kaboot = st.integers(0, 3).map(lambda s: [13 if i == s else 0 for i in range(4)])
    return st.one_of(kaboot, st.lists(st.integers(0, 13), min_size=3, max_size=3).map(cut))


@st.composite
def seat_scores(draw: st.DrawFn, rules: Rules) -> list[int]:
    """Four seat scores: each near 0 / the target / a threshold, or an exact tie of the two teams' tie keys."""
    kind = draw(st.sampled_from(["free", "tie", "partner"]))
    s = [draw(scores(rules)) for _ in range(4)]
    if kind == "partner":  # one partner at the target +-1, the other at 0 +-1
        team = draw(st.integers(0, 1))
        hi, lo = draw(near([rules.target], rules.target - 1, rules.target + 1)), draw(st.integers(-1, 1))
        a, b = (hi, lo) if draw(st.booleans()) else (lo, hi)
        s[team], s[team + 2] = a, b
    elif kind == "tie":  # both teams qualify with equal keys (or one apart)
        d = draw(st.integers(-1, 1))
        top = draw(st.integers(rules.target, rules.target + 20))
        lo = draw(st.integers(1, 20))
        if rules.tie_rule == "combined":  # equal sums, split differently
            b0 = draw(st.integers(rules.target, top + lo - 1))
            s = [top, b0, lo, top + lo - b0 + d]
        else:  # equal top scores
            s = [top, top + d, lo, draw(st.integers(1, 20))]
        if draw(st.booleans()):
            s = [s[1], s[0], s[3], s[2]]
    return s


# ------------------------------------------------------------------ team scoring

def contract_and_tricks(rules: Rules) -> st.SearchStrategy[tuple[int, int, int]]:
    """(contract, bidding team, the bidding team's tricks): bid 13, kaboot (13 or 0 tricks), made by exactly 0/+-1."""
    def tricks(c: int) -> st.SearchStrategy[int]:
        return st.one_of(st.sampled_from([x for x in (0, c - 1, c, c + 1, 13) if 0 <= x <= 13]), st.integers(0, 13))
    contract = st.one_of(st.sampled_from([rules.min_bid, rules.min_bid + 1, 12, 13]), st.integers(rules.min_bid, 13))
    return contract.flatmap(lambda c: st.tuples(st.just(c), st.integers(0, 1), tricks(c)))


def team_score_pair(rules: Rules, target: int) -> st.SearchStrategy[tuple[int, int]]:
    """Team scores near ``target`` (each -1/0/+1), sometimes equal, sometimes far."""
    one = near([target, 0], -60, target + 40)
    return st.one_of(st.tuples(one, one), one.map(lambda x: (x, x)))


def targets(rules: Rules) -> list[int]:
    """The target in force before and after a game won (win.play-on)."""
    return sorted({R.target_in_force(rules, g) for g in range(3)})


# ------------------------------------------------------------------ play

@st.composite
def play_situation(draw: st.DrawFn) -> tuple[int, int, int]:
    """(hand, led suit or -1, trump 0..4): often void in the led suit, with or without a trump (must-trump)."""
    led = draw(st.integers(-1, 3))
    trump = draw(st.integers(0, 4))
    kind = draw(st.sampled_from(["any", "void-with-trump", "void-no-trump", "one-of-led"]))
    banned: set[int] = set()
    if kind.startswith("void") and led >= 0:
        banned.add(led)
    if kind == "void-no-trump" and trump < 4:
        banned.add(trump)
    pool = [c for c in range(52) if c // 13 not in banned]
    n = draw(st.integers(1, 13))
    cards = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=n, unique=True))
    if kind == "void-with-trump" and trump < 4 and trump != led:
        cards.append(draw(st.integers(13 * trump, 13 * trump + 12)))
    if kind == "one-of-led" and led >= 0:
        cards = [c for c in cards if c // 13 != led] + [draw(st.integers(13 * led, 13 * led + 12))]
    return sum(1 << c for c in set(cards)), led, trump


@st.composite
def tricks(draw: st.DrawFn) -> tuple[list[int], int]:
    """Four distinct cards and a trump: often several of the led suit, trumps over it, discards, no trump."""
    trump = draw(st.integers(0, 4))
    led = draw(st.integers(0, 3))
    suits = draw(st.lists(st.sampled_from([led, led, trump if trump < 4 else led, 0, 1, 2, 3]), min_size=3, max_size=3))
    first = draw(st.integers(13 * led, 13 * led + 12))
    cards = [first]
    for s in suits:
        cards.append(draw(st.integers(13 * s, 13 * s + 12).filter(lambda c: c not in cards)))
    return cards, trump


# ------------------------------------------------------------------ auction

#: how the next call is chosen among the legal ones: a pass, the top bid matched, one key above, the minimum, 13
CALL_KINDS = ("pass", "match", "one-above", "minimum", "thirteen", "any")


def call_picks(max_size: int = 40) -> st.SearchStrategy[list[tuple[str, int]]]:
    return st.lists(st.tuples(st.sampled_from(CALL_KINDS), st.integers(0, 10**6)), max_size=max_size)


def pick_call(kind: str, k: int, legal: Sequence[tuple[int | None, int | None]],
              top_key: int) -> tuple[int | None, int | None]:
    """The legal call of that kind if there is one, else the ``k``-th legal call."""
    def key(c: tuple[int | None, int | None]) -> int:
        return R.bid_key(*c)
    want = {
        "pass": [c for c in legal if c[0] is None],
        "match": [c for c in legal if c[0] is not None and key(c) == top_key],
        "one-above": sorted((c for c in legal if c[0] is not None and key(c) > top_key), key=key)[:1],
        "minimum": sorted((c for c in legal if c[0] is not None), key=key)[:1],
        "thirteen": [c for c in legal if c[0] == 13],
    }.get(kind, [])
    return want[k % len(want)] if want else legal[k % len(legal)]
