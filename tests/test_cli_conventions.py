"""CLI conventions every command keeps: help text on every option, --version, a refused repeated
--option and --jobs below 1, no wrapping when piped, a UTF-8 byte-order mark accepted, empty record files not
"clean", Ctrl-C as one line with exit 130 and a partial summary where one exists."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tarneeb.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]


def _subparsers(p: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    out: dict[str, argparse.ArgumentParser] = {}
    for a in p._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, sp in a.choices.items():
                out[name] = sp
                out.update({f"{name} {k}": v for k, v in _subparsers(sp).items()})
    return out


def test_every_option_and_command_has_help() -> None:
    missing = []
    for name, sp in {"(top)": build_parser(), **_subparsers(build_parser())}.items():
        for a in sp._actions:
            if isinstance(a, argparse._HelpAction | argparse._SubParsersAction):
                continue
            if not a.help or a.help == argparse.SUPPRESS:
                missing.append(f"{name}: {'/'.join(a.option_strings) or a.dest}")
    assert not missing, "options without help text: " + ", ".join(missing)


def test_every_command_takes_json() -> None:
    leaves = {name: sp for name, sp in _subparsers(build_parser()).items()
              if not any(isinstance(a, argparse._SubParsersAction) for a in sp._actions)}
    assert len(leaves) >= 15
    missing = [name for name, sp in leaves.items() if not any("--json" in a.option_strings for a in sp._actions)]
    assert not missing, f"commands without --json: {missing}"


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["--version"])
    assert e.value.code == 0
    assert capsys.readouterr().out.startswith("tarneeb ")


def test_repeated_option_refused(capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(["simulate", "--ruleset", "classic", "--option", "egyptian=true", "--option", "egyptian=false",
               "--matches", "1"])
    err = capsys.readouterr().err
    assert rc == 2 and "given twice" in err and "egyptian" in err


@pytest.mark.parametrize("argv", [["verify", "x.jsonl", "--jobs", "0"], ["verify", "x.jsonl", "--jobs", "-1"],
                                  ["simulate", "--ruleset", "classic", "--matches", "0"]])
def test_counts_below_one_refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert "below the lowest allowed value" in capsys.readouterr().err


@pytest.mark.parametrize("headers_only", [False, True])
def test_no_hand_records_is_not_clean(tmp_path: Path, headers_only: bool, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "empty.jsonl"
    content = ""
    if headers_only:
        g = tmp_path / "g.jsonl"
        assert main(["record", "--ruleset", "classic", "--matches", "2", "--out", str(g)]) == 0
        content = "".join(x for x in g.read_text(encoding="utf-8").splitlines(keepends=True) if '"type":"match"' in x)
        assert content.count("\n") == 2
    f.write_text(content, encoding="utf-8")
    rc = main(["verify", str(f), "--jobs", "1"])
    cap = capsys.readouterr()
    assert rc == 2 and "no hand records" in cap.err
    assert "clean" not in cap.out


def test_byte_order_mark_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    plain = tmp_path / "g.jsonl"
    assert main(["record", "--ruleset", "card-kings-41", "--matches", "1", "--seed", "bom", "--out", str(plain)]) == 0
    bom = tmp_path / "bom.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + plain.read_bytes())
    capsys.readouterr()
    assert main(["verify", str(bom), "--jobs", "1"]) == 0, capsys.readouterr()
    sit = tmp_path / "s.toml"
    sit.write_bytes(b"\xef\xbb\xbf" + (ROOT / "spec/disputes/partner-negative.toml").read_bytes())
    assert main(["ruling", str(sit)]) == 0
    house = tmp_path / "club.toml"  # a house ruleset written by a Windows editor
    house.write_bytes(b"\xef\xbb\xbf" + (ROOT / "spec/house-rules/bsfyi-raised.toml").read_bytes())
    assert main(["show", str(house)]) == 0


def test_piped_output_is_not_wrapped() -> None:
    out = subprocess.run([sys.executable, "-m", "tarneeb.cli", "show", "classic"], capture_output=True, text=True,
                         check=True).stdout
    summary = next(line for line in out.splitlines() if line.startswith("Team auction"))
    assert len(summary) > 100  # one line, as written in the ruleset, not cut at 80 columns
    out = subprocess.run([sys.executable, "-m", "tarneeb.cli", "prove", "--ruleset", "eram-41", "--invariant", "config"],
                         capture_output=True, text=True, check=True).stdout
    assert any(line.startswith("mutants:") and line.rstrip().endswith("counterexample to it") for line in out.splitlines())


def _interrupt(argv: list[str], wait_for: bytes, cwd: Path, written: Path | None = None) -> tuple[int, str, str]:
    # its own process group, signalled as a whole: what Ctrl-C in a terminal does (engines started by the
    # command get the signal too, and must not print a traceback of their own either). Signalled once it has
    # printed ``wait_for``, or once ``written`` holds a whole line (the command at work, past its start), else
    # after 3 s
    p = subprocess.Popen([sys.executable, "-m", "tarneeb.cli", *argv], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         cwd=cwd, start_new_session=True)
    assert p.stdout is not None
    first = p.stdout.readline() if wait_for else b""
    if written is not None:
        end = time.monotonic() + 60
        while b"\n" not in (written.read_bytes() if written.exists() else b"") and time.monotonic() < end:
            time.sleep(0.02)
    elif not wait_for:
        time.sleep(3)
    os.killpg(p.pid, signal.SIGINT)
    out, err = p.communicate(timeout=60)
    return p.returncode, (first + out).decode(), err.decode()


@pytest.mark.slow
def test_ctrl_c_in_simulate_json_ends_with_an_interrupted_summary(tmp_path: Path) -> None:
    rc, out, err = _interrupt(["simulate", "--ruleset", "classic", "--matches", "100000", "--json"], b"{", tmp_path)
    assert rc == 130 and err.strip() == "interrupted", err
    last = json.loads(out.strip().splitlines()[-1])
    assert last["summary"] and last["interrupted"] and last["matches"] >= 1


@pytest.mark.slow
def test_ctrl_c_in_record_keeps_a_valid_file(tmp_path: Path) -> None:
    out = tmp_path / "g.jsonl"
    rc, _, err = _interrupt(["record", "--ruleset", "eram-41", "--matches", "100000", "--out", str(out)], b"",
                            tmp_path, written=out)
    assert rc == 130 and "Traceback" not in err and err.strip().endswith("interrupted"), err
    assert "interrupted: wrote" in err
    capture = subprocess.run([sys.executable, "-m", "tarneeb.cli", "verify", str(out), "--jobs", "1", "--json"],
                             capture_output=True, text=True)
    assert capture.returncode == 0, capture.stdout[-2000:] + capture.stderr
    assert json.loads(capture.stdout.splitlines()[-1])["matches"] >= 1


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["simulate", "--ruleset", "card-kings-41", "--matches", "100000"],
    ["vectors", "run", "--engine", f"{sys.executable} {ROOT / 'examples/mini_engine/mini_engine.py'}"],
    ["fuzz", "--engine", f"{sys.executable} {ROOT / 'examples/mini_engine/mini_engine.py'}", "--ruleset", "classic",
     "--hands", "100000"],
])
def test_ctrl_c_is_one_line_everywhere(argv: list[str], tmp_path: Path) -> None:
    rc, _, err = _interrupt(argv, b"", tmp_path)
    assert rc == 130, err
    assert "Traceback" not in err and err.strip().splitlines()[-1] == "interrupted", err


@pytest.mark.slow
def test_ctrl_c_in_prove_says_so_and_compares_nothing(tmp_path: Path) -> None:
    rc, out, err = _interrupt(["prove", "--ruleset", "classic"], b"", tmp_path)
    assert rc == 130 and "Traceback" not in err, err
    assert "interrupted after" in err and "manifest not compared" in err
    assert "mismatch" not in out + err


def test_an_interrupt_inside_a_finaliser_still_ends_prove() -> None:
    # what lost a Ctrl-C once in 13 tries: the garbage collector ran Z3's AstRef.__del__ just then, Python raised
    # KeyboardInterrupt inside it, printed "Exception ignored" and went on to the end
    from tarneeb.cli.interrupts import interrupts_never_lost

    class Finalised:
        def __del__(self) -> None:
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(10_000):  # bytecode, so the signal is handled while still in here
                pass

    reached_after = False
    with pytest.raises(KeyboardInterrupt), interrupts_never_lost() as interrupt:
        Finalised()  # dropped at once: its __del__ runs here
        for _ in range(10_000_000):  # the interrupt, raised again once out of __del__, ends this loop
            pass
        reached_after = True
    assert interrupt["pending"] and not reached_after


def _main_running(command: Any, monkeypatch: pytest.MonkeyPatch) -> int:
    """``tarneeb.cli.main([])`` with ``command`` as the only command."""
    import tarneeb.cli as cli

    def parser(command_name: str | None = None) -> argparse.ArgumentParser:
        p = argparse.ArgumentParser(prog="tarneeb")
        p.set_defaults(func=command)
        return p

    monkeypatch.setattr(cli, "build_parser", parser)
    rc: int = cli.main([])
    return rc


def test_every_command_keeps_an_interrupt_that_meets_a_finaliser(monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    # prove lost one Ctrl-C in CI while it was still building its checks (before its own guard began): main()
    # guards every command from the start, so a finaliser anywhere cannot swallow the interrupt
    class Finalised:
        def __del__(self) -> None:
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(10_000):
                pass

    def command(args: argparse.Namespace) -> int:
        Finalised()
        for _ in range(10_000_000):
            pass
        return 0

    assert _main_running(command, monkeypatch) == 130
    assert capsys.readouterr().err.strip() == "interrupted"


def test_an_interrupt_that_python_turns_into_another_error_is_still_interrupted(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # seen once in 30 Ctrl-C tries at 0.35 s: the interrupt came while dataclasses built the Mutant class, inside a
    # field's __set_name__, and Python raised "RuntimeError: Error calling __set_name__": a traceback and exit 1
    class Field:
        def __set_name__(self, owner: type, name: str) -> None:
            os.kill(os.getpid(), signal.SIGINT)
            for _ in range(10_000):  # bytecode, so the signal is handled while still in here
                pass

    def command(args: argparse.Namespace) -> int:
        type("Built", (), {"options": Field()})
        return 0

    assert _main_running(command, monkeypatch) == 130
    assert capsys.readouterr().err.strip() == "interrupted"


def test_an_interrupt_while_a_plugin_is_imported_waits_for_the_import_to_end(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # a Ctrl-C in the middle of an import leaves a half-built module (Z3's bindings among them); the command's
    # plug-in is imported whole, then the interrupt ends the command
    from importlib.metadata import EntryPoint

    from tarneeb.cli.interrupts import interrupts_never_lost
    from tarneeb.cli.registry import register_plugin

    (tmp_path / "slow_plugin.py").write_text(
        "import os, signal\nos.kill(os.getpid(), signal.SIGINT)\nfor _ in range(100_000):\n    pass\n"
        "COMPLETE = True\ndef register(subparsers):\n    pass\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    ep = EntryPoint("slow", "slow_plugin:register", "tarneeb.commands")
    with pytest.raises(KeyboardInterrupt), interrupts_never_lost() as interrupt:
        register_plugin(argparse.ArgumentParser().add_subparsers(), "slow", ep)
    assert interrupt["pending"]
    assert sys.modules.pop("slow_plugin").COMPLETE  # the whole module ran before the interrupt was raised


@pytest.mark.slow
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_ends_prove_at_any_point(jobs: str, tmp_path: Path) -> None:
    # many interrupt points at once (while importing, building the checks, inside Z3, inside the symbolic
    # executor, in a worker): each run ends with "interrupted", no traceback, none is swallowed
    delays = [0.3, 0.8, 1.3, 2.0, 2.7, 3.5, 4.5, 6.0]
    env = {**os.environ, "TARNEEB_PROVE_CACHE": "off"}
    procs = [subprocess.Popen([sys.executable, "-m", "tarneeb.cli", "prove", "--ruleset", "classic", "--jobs", jobs],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=tmp_path, env=env,
                              start_new_session=True) for _ in delays]
    t0 = time.perf_counter()
    for p, d in zip(procs, delays, strict=True):
        time.sleep(max(0.0, t0 + d - time.perf_counter()))
        os.killpg(p.pid, signal.SIGINT)
    for p, d in zip(procs, delays, strict=True):
        _, err = p.communicate(timeout=120)
        text = err.decode()
        # 130, or ended by the SIGINT itself after printing "interrupted" (a shell shows both as 130; seen when
        # the interrupt comes while z3 is still being imported)
        assert p.returncode in (130, -signal.SIGINT), f"interrupted at {d} s: exit {p.returncode}\n{text[-2000:]}"
        assert "Traceback" not in text and "Exception ignored" not in text, f"at {d} s:\n{text[-2000:]}"
        assert text.strip().splitlines()[-1].startswith("interrupted"), f"at {d} s:\n{text[-2000:]}"


@pytest.mark.parametrize("argv", [["simulate", "--ruleset", "eram-41", "--matches", "3"],
                                  ["stats", "eram-41", "--matches", "20"], ["stats", "classic", "--matches", "5"],
                                  ["stats", "bsfyi-41", "--policy", "random", "--batch", "--matches", "30"]])
def test_human_output_has_no_python_reprs(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    # counts by clause were printed as a dict ("decided by {'win.target': 20}"), an empty one as "0.0% ;"
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "{'" not in out and "'}" not in out and " ;" not in out and "None" not in out, out
    if "--batch" in argv:  # random play ends no individual game within the cap: said so, not an empty figure
        assert "30 stopped at the cap of 200 hands" in out and "n/a (no match finished)" in out, out
