"""The records the tools are checked on: the steered matches (:mod:`tests.steered`) and seeded self-play matches,
each written in the record format of ``spec/records/README.md`` by :mod:`tarneeb.records.writer`."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import orjson
from tests.steered.runs import steered_matches
from tests.steered.terms import TermCache

from tarneeb.core.actions import Action, Bid, Deal
from tarneeb.core.match import HandRecord, Match, Phase
from tarneeb.core.spec import OptionValue, Rules, load_rules
from tarneeb.records import match_dicts

Options = tuple[tuple[str, OptionValue], ...]

def _v(**options: OptionValue) -> Mapping[str, OptionValue]:
    return MappingProxyType(options)


# the option variants checked per ruleset (the default first): the ones that change what the tools must follow
VARIANTS: Mapping[str, tuple[Mapping[str, OptionValue], ...]] = MappingProxyType({
    "classic": (_v(), _v(weak_redeal=True, play_on=10, must_trump=True, direction="cw"),
                _v(egyptian=True, auction="continuous", all_pass="dealer-forced", bid13="26", kaboot="double",
                   min_bid=8)),
    "bsfyi-41": (_v(), _v(rising_min_bid=True, made_bid_wins=10, bid_total_min=13, trump_source="revealed-suit")),
    "card-kings-41": (_v(),),
    "eram-41": (_v(),),
    "tarneeb-400": (_v(), _v(target=61)),
})
MATCHES = 3  # matches per ruleset and variant
MAX_DEALS = 25  # a match still going after this many deals is recorded unfinished
SEED = 22


def configurations() -> list[tuple[str, dict[str, OptionValue]]]:
    """Every (ruleset, options) of :data:`VARIANTS`, in order."""
    return [(rid, dict(v)) for rid, vs in VARIANTS.items() for v in vs]


def match_records(rules: Rules, n: int, seed: int) -> list[Match]:
    """``n`` seeded self-play matches under ``rules``: random legal actions and decks, from scores near the target.

    Beside the steered matches (:func:`recorded_matches`), this generator steers some deals simply: a run of
    cancelled deals at the start of a match (one, two or three in a row: every seat makes its lowest call, which cancels the deal when
    the ruleset allows it), a bid of 13 as the first call of the next deal, a weak hand after it (under
    ``weak_redeal``: a deck whose every fourth card is a ten or lower), and otherwise random calls that lean low;
    under play-on the match goes on past the first game won.
    """
    out = []
    for i in range(n):
        rng = random.Random(seed * 1000 + i)
        dealer = rng.randrange(4)
        lo, hi = rules.target - 8, rules.target - 1
        if i % 3 == 2:  # low scores (the lowest bids, which a rising minimum raises, can cancel a deal)
            scores = [rng.randint(-4, 12) for _ in range(4)]
            if not rules.individual:
                scores[2:] = scores[:2]
        elif rules.individual:
            scores = [rng.randint(lo, hi) if s % 2 == i % 2 else rng.randint(-4, 12) for s in range(4)]
        else:
            a, b = rng.randint(rules.target - 14, rules.target - 3), rng.randint(rules.target - 14, rules.target - 3)
            scores = [a, b, a, b]
        m = Match(rules, dealer, scores)
        cancel_run = (2, 1, 3)[i % 3]
        deals = 0
        plan = "cancel"
        while not m.is_over() and deals < MAX_DEALS:
            if m.phase is Phase.DEAL:
                deals += 1
                k = len(m.records)
                plan = "cancel" if k < cancel_run else ("weak" if rules.weak_redeal and k == cancel_run + 1 else
                                                        "bid13" if k == cancel_run else "play")
                m.apply(Deal(seeded_deck(rng, plan == "weak")))
                continue
            legal = list(m.legal_actions())
            if m.phase is Phase.BIDDING and plan == "cancel":
                m.apply(legal[0])  # the lowest bid, or a pass
            elif m.phase is Phase.BIDDING and plan == "bid13":
                m.apply(legal[-1])  # the first call of the first played deal: 13 (Egyptian: 13 no trump)
                plan = "play"
            else:
                m.apply(choose_action(m, legal, rng))
        out.append(m)
    return out


def choose_action(m: Match, legal: Sequence[Action], rng: random.Random) -> Action:
    """A random legal action; calls lean to a pass or one of the three lowest bids (so that bids are made and
    matches end), with now and then any legal call (a bid of 13)."""
    if m.phase is not Phase.BIDDING or rng.random() < 0.1:
        return rng.choice(legal)
    bids = [a for a in legal if isinstance(a, Bid) and a.n is not None]
    if not bids or (len(bids) < len(legal) and rng.random() < 0.45):
        return legal[0]  # a pass
    return rng.choice(bids[:3])


def seeded_deck(rng: random.Random, weak: bool) -> tuple[int, ...]:
    """A shuffled deck; with ``weak``, one whose every fourth card (one seat's hand) is a ten or lower."""
    deck = list(range(52))
    rng.shuffle(deck)
    if weak:  # cards 0, 4, 8, ... (one seat's hand) all ten or lower: ranks 2..10 are 0..8 of each suit
        low = [c for c in deck if c % 13 <= 8]
        rest = [c for c in deck if c not in low[:13]]
        deck = [low[j // 4] if j % 4 == 0 else rest.pop() for j in range(52)]
    return tuple(deck)



@dataclass
class Recorded:
    """One match as the engine played it and as its record lines (header first)."""

    name: str  # "match i (seed s)"
    m: Match
    lines: list[bytes]
    objs: list[dict[str, Any]]
    before: list[tuple[list[int], int]]  # the scores and the target in force before each deal
    actions: list[list[Action]]  # each deal's actions after its Deal


def recorded_matches(rules: Rules, cache: TermCache | None = None) -> list[tuple[str, Match]]:
    """The matches the tools are run on: the steered matches (every kind of transition of their coverage; those that
    start part-way into a match, with games already won or a target raised by play on, are left out: a record's
    header gives start scores, not those), then :func:`match_records`'s random ones. Raises
    :class:`tests.steered.kinds.MatchMismatch` when the engine disagrees with the encoding there."""
    out = [(f"steered match '{s.scenario}'", s.match) for s in steered_matches(rules, SEED, cache)
           if s.start.target is None and not s.start.games]
    out += [(f"match {i} (seed {SEED * 1000 + i})", m) for i, m in enumerate(match_records(rules, MATCHES, SEED))]
    return out


def record(rid: str, opts: Options, cache: TermCache | None = None) -> tuple[Recorded, ...]:
    """The matches of :func:`recorded_matches` under ``rid`` with ``opts``, each with its record lines, the scores
    and target before each deal and each deal's actions."""
    rules = load_rules(rid, dict(opts))
    out = []
    for i, (name, m) in enumerate(recorded_matches(rules, cache)):
        # a record starts at the first game (its header can give start scores, not games already won)
        assert not m.start_games, "the tools' matches start at the first game"
        objs = list(match_dicts(m, f"{rid}-{i}"))
        before: list[tuple[list[int], int]] = []
        scores, target = list(m.start_scores), rules.target
        for rec in m.records:
            before.append((scores, target))
            scores = list(rec.scores_after)
            if any(n.startswith("win.play-on") for n in rec.notes):
                target = rules.target + rules.play_on_raise
        acts: list[list[Action]] = []
        for a in m.history:
            if isinstance(a, Deal):
                acts.append([])
            else:
                acts[-1].append(a)
        out.append(Recorded(name, m, [orjson.dumps(o) for o in objs], objs, before, acts))
    return tuple(out)


class RecordBank:
    """The records of each configuration, made once (for a test session: ``tests/conftest.py``'s ``tool_records``;
    the records are the true engine's: a mutant of a tool does not change them, one of the engine gets a bank of
    its own)."""

    def __init__(self, cache: TermCache | None = None) -> None:
        self._cache = cache
        self._made: dict[tuple[str, Options], tuple[Recorded, ...]] = {}

    def get(self, rid: str, opts: Options) -> tuple[Recorded, ...]:
        """The records of ``rid`` with ``opts`` (:func:`record`)."""
        key = (rid, tuple(sorted(opts)))
        if key not in self._made:
            self._made[key] = record(rid, key[1], self._cache)
        return self._made[key]


def bids_of(rec: HandRecord) -> list[int]:
    """The individual bids of a deal, by seat."""
    bids = [0, 0, 0, 0]
    for seat, b in rec.bids:
        bids[seat] = b.n or 0
    return bids
