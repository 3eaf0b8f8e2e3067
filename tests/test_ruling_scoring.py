"""The referee's idea of which score changes one hand can make (:class:`tarneeb.ruling.scoring.ScoreChanges`),
against core's scoring enumerated here by another road, and situations that turn on it.

Core is asked through the state machine (:class:`tarneeb.Match`: which calls a player may make, so which contracts
or bids a hand can be played at) and :func:`tarneeb.core.hand.hand_deltas` (what a hand scores), over every ruleset
built in, every option value its spec declares, and every reading of the register the ruleset can select. A
referee whose set misses a change core can make (a bidders' kaboot, a bid of 13, the tricks of one seat) refuses a
true situation as "a change no hand can make"; one whose set holds a change core cannot make accepts a false one.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from tarneeb import Match, load_rules
from tarneeb.cli import main
from tarneeb.core import hand as core_hand
from tarneeb.core.actions import PASS, Bid, Deal
from tarneeb.core.ambiguity import rules_under, selectable_readings, taken_for
from tarneeb.core.match import Phase
from tarneeb.core.spec import OptionValue, Rules, rulesets
from tarneeb.ruling import SituationError, parse_situation, rule_dict
from tarneeb.ruling.scoring import ScoreChanges, check_score_change

RULESETS = sorted(rulesets())


# ------------------------------------------------------------------ core's scoring, enumerated here


def _opening_calls(rules: Rules) -> set[tuple[int, int, int | None]]:
    """(seat, tricks, strain) of every bid the state machine lets a seat make with no bid before it, whoever deals:
    the first speaker, and each one after it once the earlier ones have passed (the dealer forced to bid, too)."""
    out: set[tuple[int, int, int | None]] = set()
    deck = list(range(52))
    random.Random(0).shuffle(deck)
    for dealer in range(4):
        m = Match(rules, dealer, [0, 0, 0, 0])
        m.apply(Deal(tuple(deck)))
        while m.phase is Phase.BIDDING:
            calls = [a for a in m.legal_actions() if isinstance(a, Bid)]
            out.update((m.to_move, a.n, a.strain) for a in calls if a.n is not None)
            if PASS not in calls:
                break
            m.apply(PASS)
    return out


def _hand_changes(rules: Rules) -> frozenset[tuple[int, ...]]:
    """Every change of the four seats' scores core scores for a hand at a contract the state machine allows, the
    bidding team taking any number of tricks (its holder all of them, the next seat the rest)."""
    out = set()
    for seat, n, strain in _opening_calls(rules):
        for took in range(14):
            tricks = [0, 0, 0, 0]
            tricks[seat], tricks[(seat + 1) % 4] = took, 13 - took
            out.add(tuple(core_hand.hand_deltas(rules, [0, 0, 0, 0], (seat, n, strain), tricks)))
    return frozenset(out)


def _legal_bids(rules: Rules, score: int) -> list[int]:
    """The bids the state machine lets the first bidder make on ``score`` (every seat on it)."""
    deck = list(range(52))
    random.Random(0).shuffle(deck)
    m = Match(rules, 0, [score] * 4)
    m.apply(Deal(tuple(deck)))
    return sorted(a.n for a in m.legal_actions() if isinstance(a, Bid) and a.n is not None)


def _bid_changes(rules: Rules, seat: int, bid: int) -> frozenset[int]:
    """Every change core scores for ``seat`` having bid ``bid``, whatever it took (the next seat the rest)."""
    out = set()
    for took in range(14):
        tricks = [0, 0, 0, 0]
        tricks[seat], tricks[(seat + 1) % 4] = took, 13 - took
        out.add(core_hand.hand_deltas(rules, [bid] * 4, None, tricks)[seat])
    return frozenset(out)


PROBE_SCORES = range(-12, 70)  # the scores a seat's bids are asked at: below zero to past every target


def _seat_changes(rules: Rules) -> dict[int, frozenset[int]]:
    """score before the hand -> every change core scores for a seat on it, over the bids it may make."""
    return {score: frozenset(d for b in _legal_bids(rules, score) for d in _bid_changes(rules, 0, b))
            for score in PROBE_SCORES}


def _core_changes(rules: Rules) -> object:
    return _seat_changes(rules) if rules.individual else _hand_changes(rules)


# ------------------------------------------------------------------ the variants: options and readings


def _option_values(rid: str) -> dict[str, tuple[OptionValue, ...]]:
    """Each declared option of ``rid`` and the values its spec allows (the ends of a range)."""
    return {o.name: o.allowed or ((o.range[0], o.range[1]) if o.range else (o.default,)) for o in rulesets()[rid].options}


def _scoring_options(rid: str) -> list[str]:
    """The options of ``rid`` whose values change what core scores, found by changing one at a time from the
    defaults."""
    values = _option_values(rid)
    at_default = _core_changes(load_rules(rid))
    return [name for name, vals in values.items()
            if any(_core_changes(load_rules(rid, {name: v})) != at_default for v in vals)]


def _variants(rid: str) -> list[tuple[str, Rules]]:
    """``rid`` under every combination of the values of its scoring options; each combination under every reading
    of the register the ruleset can select instead of its own, where core scores the two readings differently
    there; and each value of another option alone."""
    values = _option_values(rid)
    scoring = _scoring_options(rid)
    combos = [(f"{rid} {o}", load_rules(rid, o))
              for o in (dict(zip(scoring, c, strict=True)) for c in itertools.product(*(values[n] for n in scoring)))]
    out = list(combos)
    rs = rulesets()[rid]
    for aid, reading in ((a.id, r) for a in selectable_readings(rs) for r in a.params if r != taken_for(a, rs)):
        for label, rules in combos:
            other = rules_under(rules, {aid: reading})
            if _core_changes(other) != _core_changes(rules):
                out.append((f"{label} [{aid}={reading}]", other))
    for name, vals in values.items():
        if name not in scoring:
            out += [(f"{rid} {{{name!r}: {v!r}}}", load_rules(rid, {name: v})) for v in vals]
    return out


def _situation(rules: Rules, scores: list[int]) -> Any:
    """A situation asking who won, stating ``scores`` before the hand (and after it, set by the caller)."""
    return parse_situation({"ruleset": rules.ruleset.id, "scores": scores, "scores_after": scores,
                            "question": {"kind": "winner"}}, "case.toml")


def _accepts(rules: Rules, situation: Any, changes: ScoreChanges, after: list[int]) -> bool:
    try:
        check_score_change(rules, replace(situation, scores_after=after), changes)
    except SituationError:
        return False
    return True


def test_the_scoring_options_are_found() -> None:
    """The options found to change what core scores, which the comparison below combines: the lowest bid, the
    scoring style, the kaboot and the bid of 13 in the classic game; the rising minimum bid of bs.fyi's 41."""
    assert _scoring_options("classic") == ["min_bid", "scoring", "kaboot", "bid13"]
    assert _scoring_options("bsfyi-41") == ["rising_min_bid"]
    assert _scoring_options("card-kings-41") == [] and _scoring_options("tarneeb-400") == []


# the readings the comparison must find bearing on scoring somewhere, so that it runs under them
SCORING_READINGS = {
    "classic": {"defender-kaboot=bidders-only", "kaboot-double-defenders=usual", "kaboot-bid-only=no-kaboot",
                "bid13-vs-kaboot=kaboot-first"},
    "bsfyi-41": {"rising-min-threshold=above"}, "tarneeb-400": {"400-numbers=face-value", "rising-min-threshold=above"},
    "card-kings-41": set(), "eram-41": set(),
}


@pytest.mark.parametrize("rid", RULESETS)
def test_the_changes_the_referee_allows_are_cores(rid: str) -> None:
    """Under every variant, the referee's set of changes one hand can make is the set core scores, and the check
    of a stated change accepts exactly its members (every member, and the changes next to them that are not)."""
    variants = _variants(rid)
    assert {label.rpartition("[")[2].rstrip("]") for label, _ in variants if label.endswith("]")} == SCORING_READINGS[rid]
    for label, rules in variants:
        changes = ScoreChanges(rules)
        if rules.individual:
            want = _seat_changes(rules)
            for score, core_set in want.items():
                assert changes.seat(score, None) == core_set, (label, score)
            for b in range(14):
                assert changes.bid(b) == _bid_changes(rules, 2, b), (label, b)
            situation = _situation(rules, [0, 0, 0, 0])
            other = min(want[0])  # the other seats' change: one core makes
            for change in range(min(want[0]) - 2, max(want[0]) + 3):
                assert _accepts(rules, situation, changes, [change, other, other, other]) == (change in want[0]), \
                    (label, change)
            continue
        assert set(changes.contracts()) == _opening_calls(rules), label  # the contracts it scores: the seats too
        core_hands = _hand_changes(rules)
        assert changes.seats() == core_hands, (label, sorted(core_hands ^ changes.seats()))
        core_teams = {(d[0], d[1]) for d in core_hands}
        assert set(changes.teams()) == core_teams, label
        situation = _situation(rules, [10, 10])
        near = {(a + i, b + j) for a, b in core_teams for i in (-1, 0, 1) for j in (-1, 0, 1)}
        for a, b in near:
            assert _accepts(rules, situation, changes, [10 + a, 10 + b]) == ((a, b) in core_teams), (label, a, b)
        situation = _situation(rules, [10, 10, 10, 10])  # each player's score: the partners' changes too
        for hand in core_hands:
            assert _accepts(rules, situation, changes, [10 + x for x in hand]), (label, hand)
            for seat in range(4):  # one player's change one more: a change of the partners core never makes
                moved = [10 + x + (seat == k) for k, x in enumerate(hand)]
                assert _accepts(rules, situation, changes, moved) == (tuple(v - 10 for v in moved) in core_hands)


def test_a_score_changes_object_belongs_to_its_rules() -> None:
    """The changes found for one rules object are not taken for another's."""
    rules, other = load_rules("classic"), load_rules("classic", {"kaboot": "26"})
    with pytest.raises(ValueError, match="another rules object"):
        check_score_change(other, _situation(other, [10, 10]), ScoreChanges(rules))


# ------------------------------------------------------------------ a bidders' kaboot at the table

KABOOT: dict[str, Any] = {
    "title": "the bidders take all 13 tricks", "ruleset": "classic", "dealer": 3, "scores": [10, 5],
    "scores_after": [26, 5], "contract": {"seat": 0, "bid": 7, "trump": "S"},
    "tricks": {"0": 7, "1": 0, "2": 6, "3": 0},
}


def test_a_bidders_kaboot_is_scored() -> None:
    """Classic: player 1 holds 7 in spades and the bidding team takes every trick: it scores the kaboot's 16 (not
    its 13 tricks), the defenders nothing, and the stated scores after the hand are accepted."""
    out = rule_dict({**KABOOT, "question": {"kind": "score"}})
    x = out["rulings"][0]
    assert x["status"] == "ruled" and x["answer"]["deltas"] == [16, 0, 16, 0] and x["answer"]["scores"] == [26, 5]
    assert x["ruling"] == "Contract 7 by player 1: team 1 +16, team 2 0."
    assert x["clauses"][0]["id"] == "score.kaboot"
    ar = rule_dict({**KABOOT, "question": {"kind": "score"}}, lang="ar")["rulings"][0]
    assert "16" in ar["ruling_ar"] and "26" in ar["math_ar"] and "Contract" not in ar["ruling_ar"]


def test_a_bidders_kaboot_stated_as_scores_alone_is_a_change_a_hand_can_make() -> None:
    """The same kaboot given only as the scores before and after the hand (no contract, no tricks): who has won
    is judged on the scores after it, in English and in Arabic, under classic and each of its kaboot options."""
    raw = {"title": "a kaboot", "ruleset": "classic", "scores": [30, 5], "scores_after": [46, 5],
           "question": {"kind": "winner"}}
    x = rule_dict(raw)["rulings"][0]
    assert x["status"] == "ruled" and x["answer"]["winner"] == 0 and x["answer"]["scores"] == [46, 5], x["ruling"]
    ar = rule_dict(raw, lang="ar")["rulings"][0]
    assert "46" in ar["ruling_ar"] and "41" in ar["ruling_ar"]
    for kaboot, gain in (("16", 16), ("26", 26), ("double", 26)):
        o = {**raw, "ruleset": [{"id": "classic", "options": {"kaboot": kaboot}}], "scores_after": [30 + gain, 5]}
        assert rule_dict(o)["rulings"][0]["answer"]["winner"] == 0, kaboot


def test_a_bidders_kaboot_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    """``tarneeb ruling score --contract 1:7:S --tricks 7,0,6,0 --scores 10,5 --scores-after 26,5``, in English
    and with ``--lang ar``: ruled, exit 0, players counted from 1."""
    args = ["ruling", "score", "--ruleset", "classic", "--dealer", "4", "--contract", "1:7:S", "--tricks", "7,0,6,0",
            "--scores", "10,5", "--scores-after", "26,5"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "Contract 7 by player 1: team 1 +16, team 2 0." in out and "score.kaboot" in out
    assert main([*args, "--lang", "ar"]) == 0
    out = capsys.readouterr().out
    assert "16" in out and "score.kaboot" in out and "Contract" not in out


# ------------------------------------------------------------------ sanity of the enumeration here


def _all_splits() -> Iterator[tuple[int, int, int, int]]:
    for a in range(14):
        for b in range(14 - a):
            for c in range(14 - a - b):
                yield a, b, c, 13 - a - b - c


def test_the_tricks_of_a_team_are_what_core_scores() -> None:
    """The enumeration above gives a team's tricks to its contract holder and the rest to the next seat: core
    scores any other split of the same team totals alike (so nothing is missed by not trying every split)."""
    rules = load_rules("classic")
    for seat, n, strain in sorted(_opening_calls(rules), key=str)[:8]:
        by_team: dict[tuple[int, int], set[tuple[int, ...]]] = {}
        for split in _all_splits():
            d = core_hand.hand_deltas(rules, [0, 0, 0, 0], (seat, n, strain), split)
            by_team.setdefault((split[0] + split[2], split[1] + split[3]), set()).add(tuple(d))
        assert all(len(v) == 1 for v in by_team.values())
