"""Start-up of one command: ``tarneeb verify`` registers only itself and imports nothing the fast path does not need."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tarneeb import cli
from tarneeb.cli import build_parser
from tarneeb.cli import registry as reg


def test_the_builtin_names_are_the_registry_s() -> None:
    assert {n: f"tarneeb.cli.{m}" for n, m in cli._BUILTIN_NAMES.items()} == {
        n: f.__module__ for n, f in reg.BUILTIN.items()}


def _sub_help(p: object, name: str) -> str:
    sp = next(a for a in p._actions if a.dest == "command")  # type: ignore[attr-defined]
    return str(sp.choices[name].format_help())


@pytest.mark.parametrize("name", sorted(cli._BUILTIN_NAMES))
def test_one_command_parser_is_the_full_one_s(name: str) -> None:
    """The parser built for one command parses and helps exactly as the full parser's subcommand."""
    assert _sub_help(build_parser(name), name) == _sub_help(build_parser(), name)


def test_verify_imports_little(tmp_path: Path) -> None:
    from tarneeb import load_rules
    from tarneeb.play.simulate import simulate
    from tarneeb.records import write_match

    files = [tmp_path / "one.jsonl"]
    with open(files[0], "wb") as f:
        for res in simulate(load_rules("classic"), 1, "startup", "heuristic", 200):
            write_match(f, res.match, "m1")
    code = ("import sys; from tarneeb.cli import main; sys.stdout = open('/dev/null', 'w'); "
            f"rc = main(['verify', '--jobs', '2', {str(files[0])!r}]); sys.stdout = sys.__stdout__; "
            "print(rc, ' '.join(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[0] in ("0", "1")
    mods = set(out[1:])
    assert "tarneeb.records.verify" in mods  # it did verify
    heavy = {"z3", "tarneeb_proofs", "rich", "tarneeb.docgen", "tarneeb.ruling", "dask", "distributed", "multiprocessing.pool"}
    assert not {m for m in mods if m.split(".")[0] in heavy or m in heavy or m.startswith("tarneeb.docgen")
                or m.startswith("tarneeb.ruling")}
