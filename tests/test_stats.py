"""tarneeb.stats and `tarneeb stats`: counts recounted from the engine's records, the option comparison, plots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarneeb import load_rules
from tarneeb.cli import main
from tarneeb.play.simulate import play_match
from tarneeb.stats import Stats, collect, compare


def _recount(rid: str, opts: dict[str, object], n: int, seed: str) -> dict[str, int]:
    """The same figures counted another way: from MatchResult fields and the records' own totals."""
    rules = load_rules(rid, opts)
    out = {"hands": 0, "redeals": 0, "finished": 0, "length_sum": 0, "dealer_team": 0, "calls": 0}
    for i in range(n):
        res = play_match(rules, seed, i)
        out["hands"] += res.hands
        out["redeals"] += res.redeals
        if res.winner is not None:
            out["finished"] += 1
            out["length_sum"] += res.hands
        for rec in res.match.records:
            out["calls"] += len(rec.bids)
            if rec.redeal is None:
                before = [a - d for a, d in zip(rec.scores_after, rec.deltas, strict=True)]
                gain = [rec.scores_after[s] - before[s] for s in range(4)]
                t = (gain[0] + gain[2], gain[1] + gain[3]) if rules.individual else (gain[0], gain[1])
                out["dealer_team"] += t[rec.dealer % 2] > t[1 - rec.dealer % 2]
    return out


@pytest.mark.parametrize("rid,opts", [("classic", {}), ("bsfyi-41", {}), ("classic", {"min_bid": 8})])
def test_counts_agree_with_a_recount(rid: str, opts: dict[str, object]) -> None:
    st = collect(load_rules(rid, opts), 12, "t")
    want = _recount(rid, opts, 12, "t")
    assert st.matches == 12 and st.hands == want["hands"] and st.cancelled == want["redeals"]
    assert st.deals == want["hands"] + want["redeals"]
    assert st.finished == want["finished"] == sum(st.length.values())
    assert sum(k * v for k, v in st.length.items()) == want["length_sum"]
    assert sum(st.bids.values()) == want["calls"]
    assert st.dealer_team_hands == want["dealer_team"]
    if rules_individual(rid):
        assert sum(st.contracts.values()) == st.hands and st.tried == 4 * st.hands
    else:
        assert sum(st.contracts.values()) == st.hands == st.tried


def rules_individual(rid: str) -> bool:
    return load_rules(rid).individual


def test_a_miscount_is_caught() -> None:
    """A realistic bug (the dealer's team read as the other team) makes the recount disagree."""
    class Swapped(Stats):
        __slots__ = ()

        def add_match(self, m: object, first_dealer: int) -> None:
            for rec in m.records:  # type: ignore[attr-defined]
                rec.dealer ^= 1
            Stats.add_match(self, m, first_dealer)

    st = Swapped("classic", "heuristic", False)
    rules = load_rules("classic")
    for i in range(12):
        res = play_match(rules, "t", i)
        st.add_match(res.match, res.first_dealer)
    assert st.dealer_team_hands != _recount("classic", {}, 12, "t")["dealer_team"]


def test_an_option_moves_the_figures() -> None:
    """min_bid=8 removes contracts of 7 and raises the mean contract (same seeds)."""
    a = collect(load_rules("classic"), 15, "o")
    b = collect(load_rules("classic", {"min_bid": 8}), 15, "o")
    assert 7 in a.contracts and 7 not in b.contracts
    assert compare(a, b)["mean_contract"] > 0


def test_cli_json_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "f.png"
    rc = main(["stats", "classic", "--matches", "6", "--compare", "min_bid=8", "--plot", str(png), "--json"])
    d = json.loads(capsys.readouterr().out)
    assert rc == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    assert [c["label"] for c in d["configurations"]] == ["classic", "classic [min_bid=8]"]
    assert d["configurations"][0]["policy"] == "heuristic" and "mean_contract" in d["change"]
    rc = main(["stats", "bsfyi-41", "--matches", "4"])
    out = capsys.readouterr().out
    assert rc == 0 and "bids" in out and "cancelled deals" in out and "#" in out


def test_cli_bad_option_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["stats", "classic", "--option", "nosuch=1", "--matches", "2"])
    err = capsys.readouterr().err
    assert rc == 2 and "nosuch" in err and "Traceback" not in err


def test_a_chart_with_nothing_to_show_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    """Random individual play stopped at the cap finishes no match: the match-length chart says so instead of a
    heading with nothing under it; the cap is reported in the summary line."""
    pytest.importorskip("numpy")
    rc = main(["stats", "bsfyi-41", "--policy", "random", "--batch", "--matches", "20", "--max-hands", "10"])
    out = capsys.readouterr().out
    assert rc == 0 and "0 finished (20 stopped at the cap of 10 hands" in out
    lines = out.splitlines()
    at = lines.index("match length (hands)")
    assert lines[at + 1].strip() == "none (no match finished)"
