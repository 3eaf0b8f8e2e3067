"""The command table: plug-in commands through entry points, the stand-in when z3 is missing, Ctrl-C."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from tarneeb.cli import build_parser, main
from tarneeb.cli import registry as reg

PLUGIN_MODULES = ("tarneeb_proofs.cli", "tarneeb_proofs.diff_cli", "tarneeb_proofs.registry", "tarneeb_proofs.diff",
                  "tarneeb_proofs.encode", "tarneeb_proofs.manifest")


def hide_z3(monkeypatch: pytest.MonkeyPatch) -> None:
    """As if z3 were not installed: importing it raises ModuleNotFoundError(name='z3'), and the proof modules
    that import it are loaded afresh (monkeypatch puts the real ones back afterwards)."""
    monkeypatch.setitem(sys.modules, "z3", None)
    for mod in PLUGIN_MODULES:
        monkeypatch.delitem(sys.modules, mod, raising=False)


@pytest.fixture
def no_z3(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    hide_z3(monkeypatch)
    yield


def _commands(parser_help: str) -> list[str]:
    """The subcommand names in the order `tarneeb --help` lists them."""
    line = next(ln for ln in parser_help.splitlines() if ln.strip().startswith("{"))
    return line.strip().strip("{}").split(",")


# the order of `tarneeb --help` and of the generated CLI page (docs): changing it changes the docs
DOCUMENTED_ORDER = ["rulesets", "show", "simulate", "stats", "demo", "prove", "record", "verify", "vectors", "fuzz",
                    "rules", "ruling", "score", "diff", "new-ruleset", "serve", "site"]


def test_order_is_the_documented_one() -> None:
    assert _commands(build_parser().format_help()) == DOCUMENTED_ORDER


def test_proof_commands_come_from_entry_points() -> None:
    eps = reg.plugin_entry_points()
    assert {n: eps[n].value for n in ("prove", "diff")} == {"prove": "tarneeb_proofs.cli:register",
                                                          "diff": "tarneeb_proofs.diff_cli:register"}


def test_engine_never_imports_the_proofs_package() -> None:
    names_it = re.compile(r"(?:from|import)\s+tarneeb_proofs|[\"']tarneeb_proofs")
    for p in Path(reg.__file__).parent.glob("*.py"):
        assert not names_it.search(p.read_text(encoding="utf-8")), p.name


def test_without_z3_the_help_is_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("z3")
    with_z3 = build_parser().format_help()
    hide_z3(monkeypatch)
    with pytest.raises(ModuleNotFoundError):
        import tarneeb_proofs.registry  # noqa: F401  (z3 really is missing now)
    without = build_parser().format_help()
    # the same commands, order and one-line help: KNOWN_PLUGINS says what the plug-ins say
    assert without == with_z3


@pytest.mark.parametrize("argv", [["prove"], ["prove", "--ruleset", "classic", "--json"], ["prove", "--help"],
                                  ["diff", "eram-41", "classic", "--question", "trump"]])
def test_without_z3_a_proof_command_says_what_to_install(no_z3: None, argv: list[str],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    rc = main(argv)
    out, err = capsys.readouterr()
    assert rc == 2 and out == ""
    assert err == f"tarneeb: error: {argv[0]} needs z3 (z3 is not installed): pip install z3-solver\n"


def test_without_z3_the_other_commands_still_run(no_z3: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulesets", "--json"]) == 0
    assert "classic" in capsys.readouterr().out


def test_without_the_entry_points_the_proof_commands_still_listed(monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(reg, "plugin_entry_points", lambda: {})
    assert _commands(build_parser().format_help()) == DOCUMENTED_ORDER
    assert main(["diff", "a", "b"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "diff needs z3" in err and "entry point" in err and "reinstall" in err


def _plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, source: str) -> None:
    """Install a plug-in module ``<name>_plugin`` and make it the only ``tarneeb.commands`` entry point."""
    mod = f"{name.replace('-', '_')}_plugin"
    (tmp_path / f"{mod}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(reg, "plugin_entry_points",
                        lambda: {name: EntryPoint(name=name, value=f"{mod}:register", group=reg.GROUP)})


def test_another_plugin_comes_after_the_known_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    _plugin(tmp_path, monkeypatch, "hello", """
        def register(sub):
            s = sub.add_parser("hello", help="say hello")
            s.set_defaults(func=lambda args: print("hello") or 0)
    """)
    assert _commands(build_parser().format_help()) == [*DOCUMENTED_ORDER, "hello"]
    assert main(["hello"]) == 0 and capsys.readouterr().out == "hello\n"


def test_a_plugin_missing_a_third_party_module_gets_a_stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    _plugin(tmp_path, monkeypatch, "solve", "import no_such_solver_lib\n")
    assert "solve" in _commands(build_parser().format_help())
    assert main(["solve", "--x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "solve cannot run (no_such_solver_lib is not installed" in err


def test_a_plugin_missing_one_of_our_own_modules_is_a_bug_not_hidden(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _plugin(tmp_path, monkeypatch, "broken", "import tarneeb.no_such_module\n")
    with pytest.raises(ModuleNotFoundError, match="tarneeb.no_such_module"):
        build_parser()


def test_ctrl_c_in_a_command(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import tarneeb.play.simulate

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(tarneeb.play.simulate, "simulate", interrupted)
    rc = main(["simulate", "--ruleset", "classic", "--json"])
    assert rc == 130 and capsys.readouterr().err == "interrupted\n"


def test_ctrl_c_in_a_real_process() -> None:
    """SIGINT to a running `python -m tarneeb.cli simulate`: `interrupted`, exit 130, no traceback."""
    p = subprocess.Popen([sys.executable, "-m", "tarneeb.cli", "simulate", "--ruleset", "classic", "--matches",
                          "100000", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout is not None
        assert p.stdout.readline().startswith("{")  # it is inside the command, playing matches
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 130 and err == "interrupted\n"


@pytest.mark.slow  # imports distributed in a process of its own
def test_verify_on_a_cluster_it_cannot_reach_says_so_before_it_waits(tmp_path: Path) -> None:
    """The docs' cluster command (docs/guide/engines.rst) with a scheduler that is not there: a line saying what it
    is waiting for, then the one located error line (exit 2), never a traceback or a silent half-minute."""
    import os

    pytest.importorskip("distributed")
    rec = tmp_path / "games.jsonl"
    assert main(["record", "--ruleset", "classic", "--matches", "1", "--seed", "1", "--out", str(rec)]) == 0
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "1s"}
    p = subprocess.run([sys.executable, "-m", "tarneeb.cli", "verify", "--scheduler", "tcp://127.0.0.1:9", str(rec)],
                       capture_output=True, text=True, env=env, timeout=120)
    lines = p.stderr.strip().splitlines()
    assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
    assert lines[0] == "connecting to the Dask scheduler at tcp://127.0.0.1:9 ...", lines
    assert len(lines) == 2 and lines[1].startswith("tarneeb: error: --scheduler tcp://127.0.0.1:9: "), lines
