"""The commands of the README's ``sh`` blocks, for the tests that run them as a newcomer would.

``tests/test_readme_commands.py`` runs every one of them as written from a folder laid out as a fresh clone;
``tools/wheel_check.py`` runs, from the installed wheel alone, those that need neither a file of the source tree nor
an optional extra. Both skip only the commands :data:`NOT_RUN` names, each with the reason and what tests it instead.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"

# a command (a regular expression over the line as written) -> why no test runs it, and what tests it instead
NOT_RUN: dict[str, str] = {
    r"^python3 tools/dev\.py (demo|test)\b": "the set-up commands run everything (this test included); CI runs `test`",
    r"^\.venv/bin/pip install ": "an install into the venv: the test extra already holds every extra's packages",
    r"^tarneeb prove\b": "the proofs, run by `tools/dev.py demo` and `test`, by the wheel check (--ruleset) and by "
                         "tests/test_proofs.py, test_proof_engine_cli.py and the others of the proofs",
    r"^tarneeb serve\b": "a server that runs until Ctrl-C: tests/test_serve.py (HTTP) and test_serve_browser.py",
    r"^\.venv/bin/python bench/": "a benchmark (minutes, and a quiet machine): bench/, tests/test_bench_minimal.py",
}
TREE = ("spec/", "examples/", ".venv/", "docs", "tools/", "bench/")  # files of a clone, not of the wheel
MUTANT_EXIT = 1  # a command that drives a planted bug must find it: vectors run and fuzz exit 1


def readme_commands(text: str | None = None) -> list[tuple[int, str]]:
    """Every command line of the README's ``sh`` blocks (comment lines left out), with its line number."""
    out: list[tuple[int, str]] = []
    fence: str | None = None
    for n, line in enumerate((README.read_text(encoding="utf-8") if text is None else text).splitlines(), 1):
        if line.startswith("```"):
            fence = line[3:].strip() if fence is None else None
            continue
        if fence == "sh" and line.strip() and not line.lstrip().startswith("#"):
            out.append((n, line.strip()))
    return out


def argv_of(line: str) -> tuple[list[str], str | None]:
    """A command line's arguments (its comment dropped) and the file a ``>`` sends its output to, if any."""
    argv = shlex.split(line, comments=True)
    if ">" in argv:
        at = argv.index(">")
        return argv[:at], argv[at + 1]
    return argv, None


def not_run_reason(line: str) -> str | None:
    return next((why for pattern, why in NOT_RUN.items() if re.search(pattern, line)), None)


def not_from_the_wheel(line: str) -> str | None:
    """Why the installed wheel alone cannot run ``line`` as written (a file of the source tree, an extra), or None."""
    why = not_run_reason(line)
    if why:
        return why
    argv, _ = argv_of(line)
    if any(a.startswith(TREE) or any(f" {t}" in a for t in TREE) for a in argv):  # "node examples/...": its engine
        return "a file of the source tree"
    if argv[0] == "python" or argv[:2] == ["tarneeb", "stats"]:
        return "an optional extra (stats, openspiel)"
    return None


def expected_exit(line: str, from_wheel: bool = False) -> int:
    """0, or 1 for a command that drives a planted bug; from the wheel, ``vectors generate`` without ``--out``
    refuses to write into the installed package (2), as the README says."""
    argv, _ = argv_of(line)
    if from_wheel and argv[:3] == ["tarneeb", "vectors", "generate"] and "--out" not in argv:
        return 2
    return MUTANT_EXIT if "--mutant" in line else 0
