"""The batch path (:mod:`tarneeb.play.batch`) is a twin of the transition, checked state by state (OpenSpiel's
consistency test).

For every built-in ruleset, seeded batch games are logged and each is replayed through
:func:`tarneeb.core.transition.step` by :func:`tarneeb.play.batch.replay_check`, which compares at every point both
can show: the hands dealt, trump, the weak seats' claims, each bid or call and its seat, the cancellation and its
clause, the contract, the first leader, each trick's leader, seats, cards and winner, the tricks won, the score
changes and the scores after, the outcome and its clause, the target and the games won, the match's end, the next
dealer and its clause; and per game the deals, the hands played, the scores and the winner.

The configurations are derived from the spec, not listed by hand: the factors are the ruleset's declared options
(each allowed value; an integer range by its ends and the value after the lowest), the options a reading adds,
and each selectable ambiguity (:func:`tarneeb.core.ambiguity.selectable_readings`) with its readings. The values
:func:`tarneeb.play.batch.supported` refuses are checked apart (the batch refuses them and the statistics fall back
to the engine); over the others a pairwise covering array (every pair of values of two factors in some
configuration, starting from the ruleset as published) is played, each configuration from zero and from near the
target, so that games are won, play-on targets rise and matches end.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations
from typing import Any

import numpy as np
import pytest

from tarneeb.core import rules as core_rules
from tarneeb.core.ambiguity import rules_under, selectable_readings
from tarneeb.core.model import Option, OptionValue, Rules, Ruleset
from tarneeb.core.spec import load_rules, rulesets
from tarneeb.play import batch

Factor = tuple[str, str, tuple[OptionValue, ...]]  # ("option" or "reading", option name or ambiguity id, values)
Row = dict[int, int]  # factor index -> value index


def _values(o: Option) -> tuple[OptionValue, ...]:
    """An option's values to play: each allowed one; an integer range by its ends and the value after the lowest."""
    if o.range is None:
        return o.allowed
    lo, hi = o.range
    return tuple(sorted({lo, min(lo + 1, hi), hi}))


def factors(rs: Ruleset) -> list[Factor]:
    """The ruleset's options, the options a reading of it adds, and its selectable ambiguities with their readings;
    the first value of each is the ruleset's as published."""
    out: list[Factor] = []
    names = {o.name for o in rs.options}
    for o in rs.options:
        vals = _values(o)
        out.append(("option", o.name, (o.default, *[v for v in vals if v != o.default])))
    for a in selectable_readings(rs):
        taken = rs.readings.get(a.id) or next(a.taken[r] for r in (rs.lineage or (rs.id,)) if r in a.taken)
        out.append(("reading", a.id, (taken, *[r for r in a.params if r != taken])))
        for other in sorted(set(a.option_from.values())):
            if a.option not in names:
                names.add(a.option)
                o = rulesets()[other].option(a.option)
                out.append(("option", o.name, (o.default, *[v for v in _values(o) if v != o.default])))
    return out


def realise(rs: Ruleset, fs: list[Factor], row: Row) -> Rules:
    """The rules of a configuration: the readings chosen (an option whose value stands for a reading follows it,
    :func:`tarneeb.core.ambiguity.rules_under`), then the options, those a reading added included."""
    chosen = {fs[i][1]: str(fs[i][2][v]) for i, v in row.items() if fs[i][0] == "reading"}
    opts = {fs[i][1]: fs[i][2][v] for i, v in row.items() if fs[i][0] == "option"}
    own = {o.name for o in rs.options}
    rules = load_rules(rs, {k: v for k, v in opts.items() if k in own})
    if chosen:
        rules = rules_under(rules, chosen)
    now = {o.name for o in rules.ruleset.options}
    added = {k: v for k, v in opts.items() if k not in own and k in now}
    return load_rules(rules.ruleset, {**dict(rules.options), **added}) if added else rules


def _pair(f: int, v: int, g: int, w: int) -> tuple[int, int, int, int]:
    return (f, v, g, w) if f < g else (g, w, f, v)


def pairwise(levels: list[int]) -> list[Row]:
    """A covering array: rows (factor -> value index; ``levels[f]`` values of factor f) in which every pair of
    values of two factors occurs, the first row all first values (the ruleset as published). Greedy: each other
    row starts from the first pair not yet covered and gives every other factor the value covering most new
    pairs (the first such)."""
    k = len(levels)
    if k == 1:  # no pairs: each value once
        return [{0: v} for v in range(levels[0])]
    todo = {(i, a, j, b) for i, j in combinations(range(k), 2) for a in range(levels[i]) for b in range(levels[j])}
    rows: list[Row] = []
    row = dict.fromkeys(range(k), 0)
    while True:
        rows.append(row)
        todo -= {(i, row[i], j, row[j]) for i, j in combinations(range(k), 2)}
        if not todo:
            return rows
        i, a, j, b = min(todo)
        row = {i: a, j: b}
        for f in range(k):
            if f not in row:
                new = [sum(_pair(f, v, g, w) in todo for g, w in row.items()) for v in range(levels[f])]
                row[f] = new.index(max(new))


def configurations(rid: str) -> tuple[list[Rules], list[Rules]]:
    """The configurations of ruleset ``rid`` the batch plays (a pairwise covering array over the values it
    supports), and those it refuses (each unsupported value, the others as published)."""
    rs = rulesets()[rid]
    fs = factors(rs)
    refused: list[Rules] = []
    keep: list[list[int]] = []
    for i, (_, _, vals) in enumerate(fs):
        ok = []
        for v in range(len(vals)):
            rules = realise(rs, fs, {i: v})
            if batch.supported(rules):
                ok.append(v)
            else:
                refused.append(rules)
        keep.append(ok)
    assert all(0 in ok for ok in keep), f"{rid}: the batch refuses a value of the ruleset as published"
    rows = pairwise([len(ok) for ok in keep])
    played = [realise(rs, fs, {f: keep[f][v] for f, v in row.items()}) for row in rows]
    return played, refused


def near_target(rules: Rules, under: int) -> list[int]:
    """Seat scores about ``under`` points under the target (0: every seat at it, so both teams reach or qualify at
    once): hands from here win games, raise play-on targets, end matches, tie."""
    t = rules.target
    if under == 0:
        return [t] * 4
    return [t - under, t - under - 2] * 2 if not rules.individual else [t - under, t - under + 2, t - 3 * under, t - 4]


def weak_decks(rules: Rules, share: float = 0.25) -> Any:
    """Decks of which ``share`` give one seat (at random) only cards the core calls a weak hand (no card above 10,
    deal.weak-redeal), at the places the core deals that seat's cards from; the others uniform shuffles."""
    places = [np.array(p) for p in core_rules.deal_positions(rules)]
    low = np.array([c for c in range(52) if core_rules.is_weak_hand(1 << c)])

    def decks(rng: np.random.Generator, m: int) -> np.ndarray[Any, Any]:
        out = np.argsort(rng.random((m, 52)), axis=1)
        for j in np.flatnonzero(rng.random(m) < share):
            k = int(rng.integers(4))
            weak = rng.permutation(low)[:13]
            out[j, places[k]] = weak
            out[j, np.concatenate([places[i] for i in range(4) if i != k])] = rng.permutation(np.setdiff1d(
                np.arange(52), weak))
        return out

    return decks


def play_and_check(rules: Rules, seed: int, seen: Counter[str]) -> int:
    """Seeded batch games of ``rules``, every one logged and replayed through the transition: from zero with low
    bids and passes likelier and a weak hand in a quarter of the deals (cancelled deals, bid totals at the
    threshold, claims), from near the target under the random policy (games and matches won) and from the target
    with low bids again (both teams reach it or qualify at once: ties); returns the deals compared."""
    n = 0
    runs: list[tuple[list[int] | None, float, Any, int]] = [
        (None, 3.0, weak_decks(rules), 5), (near_target(rules, 4), 1.0, None, 5), (near_target(rules, 0), 3.0, None, 3)]
    for start, low, decks, games in runs:
        res = batch.run(rules, games, seed, max_hands=6, log_games=games, start_scores=start, low_bids=low, decks=decks)
        n += batch.replay_check(rules, res, seen=seen)
    return n


def _rid_params() -> Iterator[Any]:
    for rid in sorted(rulesets()):
        yield pytest.param(rid, id=rid)


@pytest.mark.parametrize("rid", list(_rid_params()))
def test_the_batch_is_the_transitions_twin_state_by_state(rid: str) -> None:
    played, _ = configurations(rid)
    seen: Counter[str] = Counter()
    deals = 0
    for k, rules in enumerate(played):
        try:
            deals += play_and_check(rules, 1000 + k, seen)
        except AssertionError as e:
            raise AssertionError(f"{rules.label()}: {e}") from None
    assert deals >= 40 * len(played), (deals, seen)
    assert seen["played"] and seen["match won tie.both-qualify"]
    assert seen["match won win.target" if not played[0].individual else "match won win.qualify"]
    if played[0].individual:
        assert seen["cancelled bid.total"] and seen["bid total at the threshold"], seen
    else:
        assert seen["cancelled auction.all-pass"] and seen["cancelled deal.weak-redeal"], seen
        assert seen["claim ask"] and seen["claim keep"] and any(key.startswith("game won") for key in seen), seen


def test_every_value_the_batch_refuses_is_refused_and_the_statistics_fall_back_to_the_engine(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The batch refuses each value it does not support (batch.run), the statistics play it with the engine
    (collect_batch gives collect's figures), and ``tarneeb stats --batch`` says so and goes on."""
    from tarneeb.cli import main
    from tarneeb.stats import collect, collect_batch

    refused = [r for rid in sorted(rulesets()) for r in configurations(rid)[1]]
    assert refused, "the batch refuses nothing: this test has nothing to hold"
    for rules in refused:
        why = batch.unsupported(rules)
        assert why is not None
        with pytest.raises(ValueError, match=f"the batch path does not cover {why}"):
            batch.run(rules, 2)
        got = collect_batch(rules, 3, 5, max_hands=3).summary()
        assert got == collect(rules, 3, 5, "random", 3).summary(), rules.label()
        options = [f"{k}={str(v).lower()}" for k, v in rules.options if rules.ruleset.option(k).default != v]
        assert not rules.ruleset.readings  # (a reading would be passed too)
        argv = ["stats", rules.id, "--policy", "random", "--batch", "--matches", "2", "--max-hands", "2", "--json"]
        assert main(argv + [a for o in options for a in ("--option", o)]) == 0
        err = capsys.readouterr().err
        assert f"--batch does not cover {rules.label()} ({why}): its matches are played by the engine" in err


def test_the_covering_array_covers_every_pair() -> None:
    levels = [2, 4, 3, 2, 3]
    rows = pairwise(levels)
    assert rows[0] == {f: 0 for f in range(5)}
    for i, j in combinations(range(5), 2):
        assert {(r[i], r[j]) for r in rows} == {(a, b) for a in range(levels[i]) for b in range(levels[j])}
    assert len(rows) <= 16
