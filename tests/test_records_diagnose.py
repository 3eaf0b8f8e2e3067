"""No masking and named causes: records from engines with planted bugs, several at once in the same hands."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest

from tarneeb import load_rules
from tarneeb.play.simulate import play_match
from tarneeb.records import Divergence, match_dicts, verify_lines, verify_paths
from tarneeb.records import diagnose as D
from tarneeb.records.verify import Summary
from tarneeb_proofs.mutants import applied

ENGINE = Path(__file__).resolve().parents[1] / "examples/mini_engine/mini_engine.py"


def _selfplay(mutants: str, rid: str, matches: int, seed: str, part_way: float, out: Path) -> None:
    subprocess.run([sys.executable, str(ENGINE), "--mutant", mutants, "selfplay", "--ruleset", rid, "--matches",
                    str(matches), "--seed", seed, "--part-way", str(part_way), "--out", str(out)],
                   check=True, timeout=120)


def _divs(path: Path) -> list[Divergence]:
    return _run(path)[1]


def _run(path: Path) -> tuple[Summary, list[Divergence]]:
    reps: list[Any] = []
    s = verify_paths([str(path)], jobs=1, on_report=reps.append)
    assert s.errors == 0, s.to_json()
    return s, [r for r in reps if isinstance(r, Divergence)]


def _named(s: Summary) -> dict[str, str]:
    """field -> the cause the file's evidence names (rows of status "cause" only)."""
    return {row["field"]: row["cause"] for row in s.diagnosis() if row["status"] == "cause"}


def _fits(d: Divergence) -> set[str]:
    return {f[0] for f in d.fits or []}


def test_several_bugs_in_the_same_hands_are_each_reported_once_with_their_cause(tmp_path: Path) -> None:
    out = tmp_path / "multi.jsonl"
    _selfplay("sorted-reveal,failed-pays,redeal-dealer,tie-team0", "card-kings-41", 30, "1", 1.0, out)
    summary, divs = _run(out)
    lines = out.read_bytes().splitlines()
    rules = load_rules("card-kings-41")
    per_line = Counter((d.line, d.field) for d in divs)
    assert max(per_line.values()) == 1  # one report per field per hand
    named = _named(summary)
    assert named["revealed"] == "sorted-hand-reveal", named
    assert named["deltas"] == "failed-bid-paid-to-opponents", named
    assert named["dealer"] == "wrong-redeal-dealer", named
    fits = Counter(x for d in divs if d.field == "outcome.winner" for x in _fits(d))
    assert fits["tie-to-team-0"] > 0, fits
    # no masking: every played hand where a bid failed carries the scoring report, whatever came before it
    by_line: dict[int, set[str]] = {}
    for d in divs:
        by_line.setdefault(d.line, set()).update(_fits(d))
    failed = highest = 0
    for n, raw in enumerate(lines, start=1):
        obj = orjson.loads(raw)
        if obj.get("type") != "hand" or obj.get("redeal") is not None:
            continue
        bids = {s: int(b) for s, b in obj["bids"]}
        if any(bids[s] > obj["tricks_won"][s] for s in range(4)):
            failed += 1
            assert "failed-bid-paid-to-opponents" in by_line.get(n, set()), (n, by_line.get(n))
        deck = obj["deck"]
        if rules.trump_source.startswith("revealed") and obj["revealed"] != deck[-2:]:
            highest += 1
            assert "sorted-hand-reveal" in by_line.get(n, set()), n
    assert failed > 5 and highest > 5
    # the correct engine's records give nothing
    clean = tmp_path / "clean.jsonl"
    _selfplay("", "card-kings-41", 5, "1", 1.0, clean)
    assert _divs(clean) == []


def _record(rid: str, mutant: str, seed: int, opts: dict[str, Any] | None = None,
            policy: str = "random") -> list[bytes]:
    with applied(mutant):
        m = play_match(load_rules(rid, opts or {}), "diag", seed, policy, 60).match
        return [orjson.dumps(d) for d in match_dicts(m, f"{mutant}:{seed}")]


def test_a_kaboot_ignored_is_ambiguous_with_the_bidders_only_reading_until_a_bidders_kaboot_diverges() -> None:
    """An engine that ignores kaboot scores the defenders' 13 tricks as the reading bidders-only of
    defender-kaboot would: until one of its own kaboots diverges the hands cannot tell the two apart, and the
    verifier says so instead of naming one; such a hand (a record whose bidders took 13, scored as usual) then
    names kaboot = none."""
    total = Summary()
    for seed in range(12):
        s, _ = verify_lines(_record("classic", "engine-kaboot-ignored", seed, {"kaboot": "26"},
                                    "heuristic" if seed % 2 else "random"))
        total.merge(s)
    (row,) = total.diagnosis()
    assert row["status"] == "ambiguous" and row["hands"] >= 1, row
    assert {f["cause"] for f in row["fits"] if f["hands"] == row["hands"]} == {
        "scored-as-kaboot-none", "reading-bidders-only-of-defender-kaboot"}, row
    # the bidders take all 13 tricks of a 7 and are scored 13, not 26: only kaboot = none fits that hand
    fits = D.deltas_causes(load_rules("classic", {"kaboot": "26"}), [0, 0, 0, 0], (0, 7, 0),
                           [7, 0, 6, 0], [13, 0, 13, 0])
    assert [c[0] for c in fits] == ["scored-as-kaboot-none"], fits


@pytest.mark.parametrize(("rid", "opts", "mutant", "cause"), [
    ("eram-41", {}, "engine-made-exactly-fails", "made-exactly-counts-as-failed"),
    ("card-kings-41", {}, "engine-redeal-dealer-swapped", "wrong-redeal-dealer"),
    ("bsfyi-41", {}, "engine-lower-trump-overtakes-last", "later-trump-wins"),
])
def test_engine_mutants_are_named(rid: str, opts: dict[str, Any], mutant: str, cause: str) -> None:
    """Records written by our own engine with one bug patched in: the verifier names the bug."""
    total = Summary()
    for seed in range(60):  # until the hands tell the cause apart (a defenders' 13 alone fits a reading as well)
        s, _ = verify_lines(_record(rid, mutant, seed, opts, "heuristic" if seed % 2 else "random"))
        total.merge(s)
        if cause in _named(total).values():
            break
    named = _named(total)
    assert cause in named.values(), total.diagnosis()
    assert set(named.values()) == {cause}, named  # never another cause named beside it


def test_an_illegal_bid_no_longer_hides_the_scoring_bug_after_it() -> None:
    # a clean record (the bug is not reached here)
    ds = [orjson.loads(x) for x in _record("bsfyi-41", "engine-hand-played-strict", 0)]
    i = next(k for k, d in enumerate(ds) if k and d.get("redeal") is None and d["outcome"]["winner"] is None)
    h = ds[i]
    seat_passing = h["bids"][1][0]
    h["bids"][1][1] = "pass"  # an illegal pass by the second bidder
    other = (seat_passing + 1) % 4
    h["deltas"][other] += 7  # and an unrelated slip in another seat's score
    for later in ds[i:]:
        later["scores"][other] += 7
    _, reps = verify_lines([orjson.dumps(d) for d in ds])
    divs = [d for d in reps if isinstance(d, Divergence) and d.line == i + 1]
    fields = [d.field for d in divs]
    assert "bids[1]" in fields and "deltas" in fields, [d.text() for d in divs]
    d = next(d for d in divs if d.field == "deltas")
    assert d.independent and d.table is not None
    row = d.table[other]
    assert row["claimed"] == row["rules"] + 7
    assert d.table[seat_passing]["rules"] is None  # the passing seat's change cannot be judged


def test_a_wrong_winner_does_not_hide_a_later_revoke() -> None:
    ds = [orjson.loads(x) for x in _record("classic", "engine-hand-played-strict", 1)]
    i = next(k for k, d in enumerate(ds) if k and d.get("redeal") is None)
    tricks = ds[i]["tricks"]
    tricks[2]["winner"] = (tricks[2]["winner"] + 2) % 4  # wrong, and the next trick still led by the true winner
    # a revoke in a later trick: a seat plays a card of another suit while holding the led suit
    for k in range(5, 13):
        t = tricks[k]
        led = t["cards"][0][1]
        for j in range(1, 4):
            seat = (t["leader"] + j) % 4
            later = [(k2, j2) for k2 in range(k + 1, 13) for j2 in range(4)
                     if (tricks[k2]["leader"] + j2) % 4 == seat and tricks[k2]["cards"][j2][1] != led]
            if t["cards"][j][1] == led and later:
                k2, j2 = later[0]
                t["cards"][j], tricks[k2]["cards"][j2] = tricks[k2]["cards"][j2], t["cards"][j]
                break
        else:
            continue
        break
    else:
        pytest.skip("no revoke to plant")
    _, reps = verify_lines([orjson.dumps(d) for d in ds])
    divs = [d for d in reps if isinstance(d, Divergence) and d.line == i + 1 and d.independent]
    fields = [d.field for d in divs]
    assert fields[0] == "tricks[2].winner" and f"tricks[{k}].cards[{j}]" in fields, fields


# mini engine mutant -> (ruleset, self-play matches, share started part-way, causes any of which names it)
MINI_CAUSES: dict[str, tuple[str, int, float, tuple[str, ...]]] = {
    "team-tricks": ("eram-41", 3, 0.5, ("team-tricks-to-each-partner",)),
    "failed-pays": ("bsfyi-41", 3, 0.5, ("failed-bid-paid-to-opponents",)),
    "failed-split": ("card-kings-41", 20, 1.0, ("failed-bid-split-between-opponents",)),
    "team-sum-wins": ("card-kings-41", 20, 1.0, ("team-sum-instead-of-qualification",)),
    "partner-nonneg": ("card-kings-41", 40, 1.0, ("partner-at-zero-qualifies",)),
    "tie-team0": ("card-kings-41", 40, 1.0, ("tie-to-team-0",)),
    "sorted-reveal": ("eram-41", 3, 0.0, ("sorted-hand-reveal",)),
    "redeal-dealer": ("card-kings-41", 3, 0.0, ("wrong-redeal-dealer",)),
}


@pytest.mark.parametrize("mutant", list(MINI_CAUSES))
def test_mini_engine_bugs_are_named(mutant: str, tmp_path: Path) -> None:
    rid, matches, part_way, names = MINI_CAUSES[mutant]
    out = tmp_path / "m.jsonl"
    _selfplay(mutant, rid, matches, "1", part_way, out)
    summary, divs = _run(out)
    named = _named(summary)
    # the file's evidence names the bug, and nothing else: never a coincidence stated as the cause
    assert set(named.values()) & set(names) and set(named.values()) <= set(names), summary.diagnosis()
    # every independent report of the field the bug touches fits it (a hand may fit another hypothesis as well)
    field = next(k for k, v in named.items() if v in names)
    assert all(_fits(d) & set(names) for d in divs if d.independent and d.field == field)


def _extra_tricks_delta(rules: Any, bid: int, tricks: int) -> int:
    v: int = rules.values[bid]
    return v + (tricks - bid) if tricks >= bid else -v  # a point per extra trick


def test_extra_tricks_scored_is_named() -> None:
    import tarneeb.core.rules as R

    total = Summary()
    orig = R.individual_delta
    for seed in range(6):
        R.individual_delta = _extra_tricks_delta
        try:
            m = play_match(load_rules("card-kings-41"), "extra", seed, "random", 40).match
            lines = [orjson.dumps(d) for d in match_dicts(m, f"x:{seed}")]
        finally:
            R.individual_delta = orig
        s, _ = verify_lines(lines)
        total.merge(s)
    [row] = [row for row in total.diagnosis() if row["field"] == "deltas"]
    assert (row["status"], row["cause"], row["clause"]) == ("cause", "extra-tricks-scored", "score.extra"), row


def test_two_scoring_bugs_in_the_same_hand_are_named_together(tmp_path: Path) -> None:
    out = tmp_path / "two.jsonl"
    _selfplay("team-tricks,failed-pays", "eram-41", 4, "2", 0.0, out)
    summary, divs = _run(out)
    fits = Counter(x for d in divs if d.field == "deltas" for x in _fits(d))
    assert fits["team-tricks-to-each-partner+failed-bid-paid-to-opponents"] > 0, fits
    assert all(_fits(d) for d in divs if d.field == "deltas")  # each hand: one slip or two, never unexplained


def test_one_hand_that_fits_two_bugs_names_neither_and_the_match_decides() -> None:
    """Bids 3/2/5/2, tricks 4/2/6/1, claimed [4, 2, 6, -2] against the rules' [3, 2, 5, -2]: a failed bid split
    between the opponents (half each, or either half first: the value 2 is even) and a made bid scoring the tricks
    taken all reproduce it; that hand alone names no cause, and a match whose other hands fit only the even split
    (a failed 3 split 1 and 1) names the split, with the other fits as evidence."""
    from tarneeb.records import diagnose as D

    rules = load_rules("card-kings-41")
    both = D.deltas_causes(rules, [3, 2, 5, 2], None, [4, 2, 6, 1], [4, 2, 6, -2])
    assert {c[0] for c in both} == {"failed-bid-split-between-opponents", "failed-bid-split-lower-half-first",
                                    "failed-bid-split-upper-half-first", "extra-tricks-scored"}
    assert D.named_cause(both) is None  # no cause from this hand alone
    only = D.deltas_causes(rules, [3, 2, 5, 3], None, [3, 2, 7, 1], [4, 2, 6, -3])  # seat 2 took 7: 7 is worth more
    assert [c[0] for c in only] == ["failed-bid-split-between-opponents"]
    s = Summary()
    for line, fits in ((3, both), (5, only), (7, only)):
        s.count(Divergence("g.jsonl", line, "1:0", line, None, "deltas", "[..]", "[..]", "score.individual", "",
                           fits=fits))
    [row] = s.diagnosis()
    assert (row["status"], row["cause"], row["hands"]) == ("cause", "failed-bid-split-between-opponents", 3)
    assert row["fits"] == [{"cause": "failed-bid-split-between-opponents", "hands": 3},
                           {"cause": "extra-tricks-scored", "hands": 1},
                           {"cause": "failed-bid-split-lower-half-first", "hands": 1},
                           {"cause": "failed-bid-split-upper-half-first", "hands": 1}]
    from tarneeb.cli.verify import diagnosis_text

    assert diagnosis_text(row).endswith("also fits: extra-tricks-scored on 1 of 3, failed-bid-split-lower-half-first "
                                        "on 1 of 3, failed-bid-split-upper-half-first on 1 of 3")
    assert [c["cause"] for c in s.causes()] == ["failed-bid-split-between-opponents"]


def test_a_claim_no_bug_reproduces_is_unexplained_with_its_table() -> None:
    ds = [orjson.loads(x) for x in _record("eram-41", "engine-hand-played-strict", 3)]
    played = [k for k, d in enumerate(ds) if k and d.get("redeal") is None and d["outcome"]["winner"] is None]
    for k in played[:3]:  # each seat 0 change made 37 larger: no recognised bug gives that
        ds[k]["deltas"][0] += 37
        for later in ds[k:]:
            later["scores"][0] += 37
    s, reps = verify_lines([orjson.dumps(d) for d in ds])
    divs = [d for d in reps if isinstance(d, Divergence) and d.field == "deltas"]
    assert len(divs) == 3 and all(d.fits == [] and d.table and not d.cause for d in divs)
    assert all("unexplained: no recognised bug reproduces the claim" in d.text() for d in divs)
    [row] = [row for row in s.diagnosis() if row["field"] == "deltas"]
    assert (row["status"], row["cause"], row["unexplained"], row["hands"]) == ("unexplained", None, 3, 3)
    assert {c["cause"] for c in s.causes()} == {"unexplained (deltas)"}
    assert s.to_json()["diagnosis"] == s.diagnosis() and len(s.to_json()["diagnosis_by_match"]) == 1
