"""Progress on a terminal: the long commands (``prove`` by check, ``vectors run`` by category, ``stats`` and
``stats --batch`` by match and by deal in lock-step, ``fuzz`` and ``simulate``) show on standard error, only when
it is a terminal, that they are working; their output, and all of it when standard error is not a terminal, is
the same with or without."""

from __future__ import annotations

import io
import itertools
import sys
import time
from pathlib import Path

import pytest

from tarneeb import load_rules
from tarneeb.cli import main
from tarneeb.cli.common import progress_bar
from tarneeb.conformance import vectors as V
from tarneeb.conformance.protocol import Engine
from tarneeb.stats import collect_batch

MINI = f"{sys.executable} {Path(__file__).resolve().parents[1] / 'examples/mini_engine/mini_engine.py'}"


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_the_progress_bar_shows_on_a_terminal_only() -> None:
    for stream, shown in ((Terminal(), True), (io.StringIO(), False)):
        with progress_bar(stream) as bar:
            task = bar.add_task("counting", total=3)
            bar.advance(task, 2)
        text = stream.getvalue()
        assert ("counting" in text and "2/3" in text) is shown, text
        assert shown or text == ""


def test_what_is_printed_meanwhile_stays_on_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    stream = Terminal()
    with progress_bar(stream) as bar:
        bar.add_task("counting", total=1)
        print("a result")
    assert capsys.readouterr().out == "a result\n" and "a result" not in stream.getvalue()


def _cli(argv: list[str], stderr: io.StringIO, capsys: pytest.CaptureFixture[str],
         monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, str]:
    capsys.readouterr()
    with monkeypatch.context() as m:
        m.setattr(sys, "stderr", stderr)
        rc = main(argv)
    return rc, capsys.readouterr().out, stderr.getvalue()


def test_vectors_run_calls_back_as_each_category_starts() -> None:
    paths = V.vector_paths(V.default_dir(), "card-kings-41", ["deal", "outcome"])
    calls: list[tuple[int, str]] = []
    with Engine(MINI) as eng:
        rep = V.run_vectors(eng, paths, on_progress=lambda done, name: calls.append((done, name)))
    assert rep.passed > 0 and rep.failed == 0
    assert calls == [(0, "card-kings-41/outcome"), (1, "card-kings-41/deal")]  # in the order of a hand


def test_vectors_run_shows_its_category_on_a_terminal(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["vectors", "run", "--engine", MINI, "--ruleset", "card-kings-41", "--category", "deal",
            "--category", "outcome"]
    rc, out, err = _cli(argv, Terminal(), capsys, monkeypatch)
    rc_piped, out_piped, err_piped = _cli(argv, io.StringIO(), capsys, monkeypatch)
    assert rc == rc_piped == 0 and out == out_piped and out.endswith(" passed, 0 failed\n")
    assert "vectors card-kings-41/deal" in err and "1/2" in err, err
    assert err_piped == ""


def test_the_batch_calls_back_after_each_deal_in_lock_step() -> None:
    pytest.importorskip("numpy")
    from tarneeb.play import batch

    rules = load_rules("bsfyi-41", {})
    rounds: list[tuple[int, int]] = []
    res = batch.run(rules, 12, seed=3, max_hands=6, on_round=lambda k, on: rounds.append((k, on)))
    assert [k for k, _ in rounds] == list(range(1, len(rounds) + 1)) and len(rounds) >= 6
    assert rounds[-1][1] == 0 and all(a >= b for (_, a), (_, b) in itertools.pairwise(rounds))
    assert len(rounds) == int(res.deals.max())
    done: list[int] = []
    collect_batch(rules, 12, 3, 6, progress=done.append)
    assert done == [12 - on for _, on in rounds]


def test_stats_shows_the_matches_done_on_a_terminal(capsys: pytest.CaptureFixture[str],
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("numpy")
    for argv in (["stats", "bsfyi-41", "--policy", "random", "--batch", "--matches", "20", "--max-hands", "10"],
                 ["stats", "classic", "--matches", "3", "--compare", "min_bid=8", "--json"]):
        rc, out, err = _cli(argv, Terminal(), capsys, monkeypatch)
        rc_piped, out_piped, err_piped = _cli(argv, io.StringIO(), capsys, monkeypatch)
        assert rc == rc_piped == 0 and out == out_piped
        n = argv[argv.index("--matches") + 1]
        assert "matches done" in err and f"{n}/{n}" in err, err
        assert err_piped == ""


def test_prove_ticks_while_a_check_runs() -> None:
    """The line says the seconds spent even when no check finishes for a while (a cold proof can take minutes),
    and is cleared at the end; the thread stops."""
    from tarneeb_proofs.cli import Ticker

    now = [100.0]
    written: list[str] = []
    with Ticker(80, 100.0, written.append, clock=lambda: now[0], every=0.01) as ticker:
        ticker.check_done(3, "follow:classic:default")
        now[0] = 112.0  # 12 s pass with no check done
        deadline = time.monotonic() + 5
        while not any("12 s" in w for w in written) and time.monotonic() < deadline:
            time.sleep(0.01)
    assert "\r\x1b[Kprove: 3 of 80 checks, 0 s (follow:classic:default)" in written
    assert "\r\x1b[Kprove: 3 of 80 checks, 12 s (follow:classic:default)" in written
    assert written[-1] == "\r\x1b[K"
    assert ticker._thread is not None and not ticker._thread.is_alive()
    after = len(written)
    ticker.draw()  # as the thread would, had it woken just before the line was cleared
    time.sleep(0.05)
    assert len(written) == after  # nothing drawn once the line is cleared


def test_record_shows_its_matches_on_a_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["record", "--ruleset", "classic", "--matches", "3", "--seed", "1", "--out"]
    rc, out, err = _cli([*argv, str(tmp_path / "a.jsonl")], Terminal(), capsys, monkeypatch)
    rc_piped, out_piped, err_piped = _cli([*argv, str(tmp_path / "b.jsonl")], io.StringIO(), capsys, monkeypatch)
    assert rc == rc_piped == 0 and out == out_piped == ""
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert "recording classic" in err and "3/3" in err, err
    assert err_piped.startswith("record: wrote 3 whole matches")
