"""The core CLI commands: rulesets, show, simulate, demo; errors without tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tarneeb.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def test_rulesets_json(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "rulesets", "--json")
    data = json.loads(out)
    assert rc == 0 and {d["id"] for d in data} == {"card-kings-41", "bsfyi-41", "eram-41", "tarneeb-400", "classic"}


def test_show_json_has_clauses_options_ambiguities(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "show", "bsfyi-41", "--json")
    d = json.loads(out)
    assert rc == 0
    assert any(c["id"] == "score.values" for c in d["clauses"])
    assert {o["name"] for o in d["options"]} == {"trump_source", "rising_min_bid", "bid_total_min", "made_bid_wins"}
    assert any(a["id"] == "raised-total" and a["reading"] == "fixed" for a in d["ambiguities"])


def test_show_human(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "show", "classic")
    assert rc == 0 and "Clauses" in out and "Options" in out and "kaboot" in out


def test_simulate_json_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("simulate", "--ruleset", "eram-41", "--matches", "3", "--seed", "9", "--json")
    rc, out1, _ = run(capsys, *args)
    _, out2, _ = run(capsys, *args)
    assert rc == 0 and out1 == out2
    lines = [json.loads(x) for x in out1.splitlines()]
    assert len(lines) == 4 and lines[-1]["summary"] is True and lines[-1]["matches"] == 3
    for m in lines[:3]:
        assert {"ruleset", "seed", "hands", "redeals", "final_scores", "winner"} <= set(m)
        assert len(m["final_scores"]) == 4 and m["winner"] in (0, 1, None)


def test_simulate_with_options_and_cap(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "simulate", "--ruleset", "classic", "--option", "egyptian=true", "--option",
                     "auction=continuous", "--policy", "random", "--max-hands", "2", "--matches", "2", "--json")
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 0 and rows[0]["options"]["egyptian"] is True and all(r["hands"] <= 2 for r in rows[:2])


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("simulate", "--ruleset", "classic", "--option", "kaboot=32"), "16, 26, double, none"),
        (("simulate", "--ruleset", "nope"), "valid: "),
        (("simulate", "--ruleset", "eram-41", "--option", "target=61"), "valid options: timer_weakest"),
        (("simulate", "--ruleset", "eram-41", "--option", "timer_weakest"), "name=value"),
        (("show", "nope"), "unknown ruleset"),
    ],
)
def test_bad_input_exits_2_with_a_located_message(capsys: pytest.CaptureFixture[str], args: tuple[str, ...],
                                                  needle: str) -> None:
    rc, out, err = run(capsys, *args)
    assert rc == 2 and needle in err and "Traceback" not in err


def test_demo_runs_every_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "demo", "--json")
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 0 and len(rows) == 5 and all(r["winner"] in (0, 1) for r in rows)


def test_console_script_entry_point() -> None:
    p = subprocess.run([sys.executable, "-m", "tarneeb.cli", "rulesets", "--json"], capture_output=True, text=True)
    assert p.returncode == 0 and "classic" in p.stdout


def test_engine_never_imports_z3() -> None:
    """The engine package imports neither z3 nor the proofs package (statically)."""
    import ast
    from pathlib import Path

    import tarneeb

    root = Path(tarneeb.__file__).parent
    for f in root.rglob("*.py"):
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for n in names:
                assert n.split(".")[0] not in ("z3", "tarneeb_proofs"), f"{f.name} imports {n}"


@pytest.mark.parametrize("args", [("--matches", "-2"), ("--matches", "0"), ("--max-hands", "x")])
def test_bad_counts_are_refused(args: tuple[str, str]) -> None:
    p = subprocess.run([sys.executable, "-m", "tarneeb.cli", "simulate", "--ruleset", "eram-41", *args],
                       capture_output=True, text=True)
    assert p.returncode == 2 and args[0] in p.stderr and "Traceback" not in p.stderr
