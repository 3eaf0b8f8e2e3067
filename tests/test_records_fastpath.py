"""The verifier's fast path: it accepts every clean canonical hand, and on wrong records it agrees with the
full engine replay (it then steps aside, and the replay reports).

The auction is checked in the fast path with the engine's own pure functions
(``rules.auction_bid_violation``, ``rules.auction_next``), so these tests centre on auction records:
every auction option, wrong bids, seats, contracts, trumps and redeals, and matches started part-way.
"""

from __future__ import annotations

import json
import os
import random
from functools import cache
from typing import Any

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tarneeb import Deal, Match, Phase, load_rules, random_deck
from tarneeb.play.bots import POLICIES
from tarneeb.records import Verifier, match_dicts, verify_lines
from tarneeb.records.fastpath import fast_hand

FUZZ = settings(max_examples=int(os.environ.get("TARNEEB_FUZZ_EXAMPLES", "80")), deadline=None,
                suppress_health_check=[HealthCheck.too_slow])

AUCTION_SETS: list[dict[str, Any]] = [
    {},
    {"min_bid": 8, "must_trump": True},
    {"egyptian": True},
    {"egyptian": True, "auction": "continuous", "all_pass": "dealer-forced"},
    {"auction": "continuous", "play_on": 41, "target": 31},
    {"weak_redeal": True, "direction": "cw", "kaboot": "double", "bid13": "26", "scoring": "bid-only"},
    {"all_pass": "dealer-forced", "bid13": "normal", "kaboot": "none"},
]
INDIVIDUAL_SETS: list[tuple[str, dict[str, Any]]] = [("card-kings-41", {}), ("bsfyi-41", {"rising_min_bid": True}),
                                                     ("tarneeb-400", {}), ("eram-41", {})]


@cache
def records(rid: str, opts_key: str, start: tuple[int, ...] | None, seed: int) -> tuple[bytes, ...]:
    """A match (or its first 40 deals) as canonical lines; ``start`` starts it part-way."""
    rules = load_rules(rid, json.loads(opts_key))
    rng = random.Random(seed)
    m = Match(rules, rng.randrange(4), start)
    pol = POLICIES["random" if seed % 2 else "heuristic"]
    while not m.is_over() and len(m.records) < 40:
        m.apply(Deal(random_deck(rng)) if m.phase is Phase.DEAL else pol(m, rng))
    while m.phase is not Phase.DEAL and not m.is_over():  # finish a deal in progress
        m.apply(pol(m, rng))
    return tuple(orjson.dumps(d) for d in match_dicts(m, f"{rid}-{seed}"))


def _key(opts: dict[str, Any]) -> str:
    return json.dumps(opts, sort_keys=True)


def _fast_takes(lines: tuple[bytes, ...]) -> list[bool]:
    v = Verifier()
    assert v.feed_line(lines[0], len(lines[0]), "f", 1) == []
    taken = []
    for ln in lines[1:]:
        assert v.state is not None
        taken.append(fast_hand(v.state, orjson.loads(ln)))
    return taken


def test_fast_path_takes_every_clean_canonical_hand() -> None:
    """The fast path is not a formality: it alone accepts every hand of clean records (no engine replay)."""
    cases = [("classic", o) for o in AUCTION_SETS] + INDIVIDUAL_SETS
    for rid, opts in cases:
        for seed in (1, 2):
            for start in (None, (35, 38, 35, 38) if rid == "classic" else (36, 2, -3, 44)):
                lines = records(rid, _key(opts), start, seed)
                taken = _fast_takes(lines)
                assert taken and all(taken), (rid, opts, seed, start, taken.index(False) + 1)
                s, reps = verify_lines(lines)
                assert reps == [] and s.clean_hands == len(lines) - 1


def _agree(lines: list[bytes]) -> None:
    s, reps = verify_lines(lines)
    s_slow, reps_slow = verify_lines(lines, fast=False)
    assert reps == reps_slow and s.to_json() == s_slow.to_json()


BID_TEXTS = ["pass", "6", "7", "8", "9", "13", "14", "7C", "7H", "8S", "9N", "13N", "8X", "", 7, None, True]


@FUZZ
@given(st.data())
def test_fast_path_agrees_with_engine_on_wrong_auctions(data: st.DataObject) -> None:
    """Wrong bids, bidders, contracts, trumps and redeal claims in auction records: fast path and replay agree."""
    opts = data.draw(st.sampled_from(AUCTION_SETS))
    start = data.draw(st.sampled_from([None, (30, 38, 30, 38), (-5, 12, -5, 12)]))
    seed = data.draw(st.integers(1, 3))
    dicts = [orjson.loads(x) for x in records("classic", _key(opts), start, seed)]
    k = data.draw(st.integers(1, len(dicts) - 1))
    d = dicts[k]
    bids = d["bids"]
    what = data.draw(st.sampled_from(["bid", "seat", "drop", "insert", "contract", "trump", "redeal", "dealer"]))
    if what == "bid" and bids:
        i = data.draw(st.integers(0, len(bids) - 1))
        bids[i][1] = data.draw(st.sampled_from(BID_TEXTS))
    elif what == "seat" and bids:
        i = data.draw(st.integers(0, len(bids) - 1))
        bids[i][0] = data.draw(st.integers(0, 3))
    elif what == "drop" and bids:
        bids.pop(data.draw(st.integers(0, len(bids) - 1)))
    elif what == "insert":
        bids.insert(data.draw(st.integers(0, len(bids))), [data.draw(st.integers(0, 3)),
                                                          data.draw(st.sampled_from(BID_TEXTS))])
    elif what == "contract":
        d["contract"] = data.draw(st.sampled_from([None, {"seat": 0, "bid": "7"}, {"seat": 3, "bid": "13"},
                                                   {"seat": 1, "bid": "8H"}, {"seat": 2}]))
    elif what == "trump":
        d["trump"] = data.draw(st.sampled_from([None, "C", "D", "H", "S", "N", "Z"]))
    elif what == "redeal":
        d["redeal"] = data.draw(st.sampled_from([None, "auction.all-pass", "deal.weak-redeal", "bid.total"]))
    else:
        d["dealer"] = (d["dealer"] + data.draw(st.integers(1, 3))) % 4
    _agree([orjson.dumps(x) for x in dicts])


@FUZZ
@given(st.data())
def test_fast_path_agrees_with_engine_on_wrong_scores_and_play(data: st.DataObject) -> None:
    """Wrong cards, winners, deltas, scores and outcomes, in every family, part-way or not: the two agree."""
    rid, opts = data.draw(st.sampled_from([("classic", o) for o in AUCTION_SETS[:4]] + INDIVIDUAL_SETS))
    start = data.draw(st.sampled_from([None, (38, 40, 38, 40) if rid == "classic" else (40, 38, 0, 3)]))
    dicts = [orjson.loads(x) for x in records(rid, _key(opts), start, data.draw(st.integers(1, 2)))]
    k = data.draw(st.integers(1, len(dicts) - 1))
    d = dicts[k]
    if "tricks" in d:
        what = data.draw(st.sampled_from(["card", "winner", "leader", "deltas", "scores", "tricks_won", "outcome"]))
        t = d["tricks"][data.draw(st.integers(0, 12))]
        if what == "card":
            j, j2 = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3))
            t["cards"][j], t["cards"][j2] = t["cards"][j2], t["cards"][j]
            if j == j2:
                t["cards"][j] = data.draw(st.sampled_from(["AS", "2C", "TH", "QD", "10S", "ZZ"]))
        elif what in ("winner", "leader"):
            t[what] = data.draw(st.integers(0, 3))
        elif what == "outcome":
            d["outcome"] = {"winner": data.draw(st.sampled_from([None, 0, 1])),
                            "match_over": data.draw(st.booleans())}
        else:
            i = data.draw(st.integers(0, 3))
            d[what][i] += data.draw(st.sampled_from([-13, -1, 1, 2, 26]))
    else:
        d["scores"][data.draw(st.integers(0, 3))] += 1
    _agree([orjson.dumps(x) for x in dicts])


def test_unknown_fields_inside_tricks_and_contracts_warn() -> None:
    """Unknown fields nested in a trick or a contract are warned about (extension ``x-`` fields are not), both ways."""
    dicts = [orjson.loads(x) for x in records("classic", _key({}), None, 1)]
    k = next(i for i, d in enumerate(dicts) if d.get("contract"))
    dicts[k]["tricks"][3]["note"] = 1
    dicts[k]["tricks"][5]["x-time"] = 3
    dicts[k]["contract"]["by"] = "north"
    lines = [orjson.dumps(x) for x in dicts]
    _agree(lines)
    s, reps = verify_lines(lines)
    assert sorted(r.field for r in reps) == ["contract.by", "tricks[3].note"]
    assert s.warnings == 2 and s.divergences == 0 and s.clean_hands == len(dicts) - 1


def _deck_texts(deck: str) -> list[str]:
    """Wrong decks made from a canonical one: a card given twice (in the same hand: its bit would carry into the
    next card's; in another hand) and another missing, cards out of the pack, not canonical, not ASCII."""
    cards = [deck[i:i + 2] for i in range(0, 104, 2)]
    out = []
    for j in (4, 5, 51):  # card 0 again in the same hand (4), in another (5), as the dealer's last card (51)
        bad = list(cards)
        bad[j] = cards[0]
        out.append("".join(bad))
    for i, c in enumerate(cards):  # the card one up in the same suit, twice: a carry would make it look dealt
        up = "23456789TJQKA"["23456789TJQKA".index(c[0]) + 1] + c[1] if c[0] != "A" else None
        if up in cards and cards.index(up) % 4 == i % 4:
            bad = list(cards)
            bad[i] = up
            out.append("".join(bad))
            break
    return out + [deck[1] + deck[0] + deck[2:], "\u00c4" + deck[1:], "1" + deck[1:], deck[:-2] + "XS",
                  deck[:50] + "  " + deck[52:]]


def _lenient_decks(deck: str) -> list[str]:
    """Decks the reader reads with a warning: not canonical, so not for the fast path."""
    sym = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
    return [deck[:2].lower() + deck[2:], deck[:-1] + sym[deck[-1]], deck.lower()]


def test_wrong_decks_are_refused_by_both_paths() -> None:
    """A deck that repeats a card and misses another, or writes a card that is none, is never taken as clean:
    the fast path refuses it and the replay reports it (deal.deck or the unreadable card), as Match refuses it."""
    cases = []
    for rid, opts in [("classic", {}), ("card-kings-41", {}), ("classic", AUCTION_SETS[5]), ("bsfyi-41", {})]:
        for seed in (1, 2):
            dicts = [orjson.loads(x) for x in records(rid, _key(opts), None, seed)]
            played = next(i for i, d in enumerate(dicts) if "tricks" in d)
            cases.append((dicts, played))
            cancelled = next((i for i, d in enumerate(dicts) if d.get("redeal")), None)  # no play to catch it
            if cancelled is not None:
                cases.append((dicts, cancelled))
    assert len(cases) > 8  # a weak hand's redeal, bid.total
    for dicts, k in cases:
        wrong = _deck_texts(dicts[k]["deck"])
        for text in wrong + _lenient_decks(dicts[k]["deck"]):
            bad = [dict(d) for d in dicts]
            bad[k]["deck"] = text
            v = Verifier()
            for ln in bad[:k]:
                v.feed_line(orjson.dumps(ln), 0, "f", 1)
            assert v.state is not None and not fast_hand(v.state, bad[k]), text
            lines = [orjson.dumps(x) for x in bad]
            s, reps = verify_lines(lines)
            if text in wrong:
                assert s.clean_hands < len(lines) - 1, text
            else:
                assert s.clean_hands == len(lines) - 1 and s.warnings == len(reps) == 1, text
            _agree(lines)


def test_match_refuses_a_deck_with_a_card_twice() -> None:
    """The sum of a hand's card bits carries on a repeated card; the check after the deal still refuses it."""
    from tarneeb.errors import IllegalDeal

    deck = list(range(52))
    for bad in ([0, 1, 2, 3, 0, *range(5, 52)],  # card 0 twice in one hand, card 4 missing: 2**0 + 2**0 = 2**1
                [1, 0, 2, 3, 1, *range(5, 52)],  # card 1 twice in one hand (2**2), card 4 missing
                [*deck[:51], 0], [-60, *deck[1:]], [300, *deck[1:]], [3.0, *deck[1:]], [52, *deck[1:]]):
        m = Match(load_rules("classic"), first_dealer=0)
        try:
            m.apply(Deal(tuple(bad)))  # type: ignore[arg-type]
        except IllegalDeal as e:
            assert e.rule == "deal.deck"
        else:
            raise AssertionError(f"deal accepted: {bad[:6]}")


def test_bids_not_written_canonically_go_to_the_replay() -> None:
    """'PASS', 'p', '8h' are read by the reader with a warning: the fast path does not take them silently."""
    for rid, opts, alias in [("classic", {}, {"pass": "PASS", "7": " 7"}), ("classic", {"egyptian": True},
                                                                          {"pass": "p"}),
                             ("card-kings-41", {}, {"7": " 7", "8": "8 "})]:
        dicts = [orjson.loads(x) for x in records(rid, _key(opts), None, 1)]
        changed = 0
        for d in dicts[1:]:
            for x in d.get("bids", []):
                if x[1] in alias:
                    x[1] = alias[x[1]]
                    changed += 1
                    break
        if opts.get("egyptian"):
            for d in dicts[1:4]:  # a suit written in lower case
                for x in d.get("bids", []):
                    if x[1][-1:] in "CDHSN" and x[1] != "pass":
                        x[1] = x[1].lower()
                        changed += 1
        assert changed
        lines = [orjson.dumps(x) for x in dicts]
        assert not all(_fast_takes(tuple(lines)))
        s, reps = verify_lines(lines)
        assert s.warnings > 0 and s.divergences == 0
        _agree(lines)


@pytest.mark.parametrize("fn", ["auction_bid_violation", "auction_next", "next_seat"])
def test_the_fast_paths_auction_table_follows_a_patched_rule(monkeypatch: pytest.MonkeyPatch, fn: str) -> None:
    """The fast path steps each auction through the transition; a decider replaced afterwards (as a proof's mutant
    is) is used at once."""
    from tarneeb.core import rules as R

    lines = records("classic", _key({}), None, 1)
    v = Verifier()

    def fast_takes() -> list[bool]:  # the same verifier (its rules object), the match read again from its header
        assert v.feed_line(lines[0], len(lines[0]), "f", 1) == [] and v.state is not None
        return [fast_hand(v.state, orjson.loads(ln)) for ln in lines[1:]]

    assert all(fast_takes())  # the table is filled
    orig = getattr(R, fn)
    if fn == "auction_bid_violation":
        def bent(*a: Any) -> Any:
            return ("auction.raise", "bent") if a[-2] == 7 else orig(*a)
    elif fn == "auction_next":
        def bent(*a: Any) -> Any:
            return None
    else:
        def bent(*a: Any) -> Any:
            return (a[1] + 3) % 4
    monkeypatch.setattr(R, fn, bent)
    assert not all(fast_takes())
    _agree(list(lines))


def test_deal_hands_reads_any_sequence_of_card_numbers() -> None:
    """rules.deal_hands sums card bits from the card numbers, whatever sequence holds them (a list, a tuple, bytes,
    an array of 4-byte integers: its numbers, not its raw bytes); the same masks as one bit set per card."""
    import array

    from tarneeb.core import rules as R

    rules = load_rules("card-kings-41")
    rng = random.Random(4)
    for dealer in range(4):
        deck = list(random_deck(rng))
        want = [0, 0, 0, 0]
        for i, c in enumerate(deck):
            want[R.deal_order(rules, dealer)[i % 4]] |= 1 << c
        for seq in (deck, tuple(deck), bytes(deck), bytearray(deck), array.array("i", deck), array.array("q", deck)):
            assert R.deal_hands(rules, dealer, seq) == want, type(seq)
