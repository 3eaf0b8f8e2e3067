"""The commands of the README's ``sh`` blocks and the outputs it shows, for the tests that run them as a newcomer
would.

``tests/test_readme_commands.py`` runs every command as written from a folder laid out as a fresh clone, and
compares each output the README shows with what the commands print; ``tools/wheel_check.py`` runs, from the
installed wheel alone, those that need neither a file of the source tree nor an optional extra. Both skip only the
commands :data:`NOT_RUN` names, each with the reason and what tests it instead.

A shown output is a fenced ``text`` block right after a fenced ``sh`` block (blank lines only between): the
standard output of that block's commands, in order (a command whose ``>`` sends its output to a file adds
nothing), as a terminal would show it. It is compared line for line, trailing spaces ignored; a line that is
exactly :data:`ELISION` (``...``) stands for any number of lines, none included. A ``text`` block anywhere else is
an error, so that no shown output goes unchecked (use another fence, ``console`` or ``toml``, for text that is not
an output). A command that fails on purpose (it drives a planted bug, or checks records that hold one) says
``exits 1`` in its comment.
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path
from typing import NamedTuple

README = Path(__file__).resolve().parents[1] / "README.md"

# a command (a regular expression over the line as written) -> why no test runs it, and what tests it instead
NOT_RUN: dict[str, str] = {
    r"^python3 tools/dev\.py (demo|test)\b": "the set-up commands run everything (this test included); CI runs `test`",
    r"^\. \.venv/bin/activate\b": "a shell's own command: the tests put the venv's bin folder first on PATH, as it does",
    r"^\.venv/bin/pip install ": "an install into the venv: the test extra already holds every extra's packages",
    r"^\.venv/bin/python -m sphinx\b": "the docs build (minutes): tests/test_docs_build.py builds the same source with "
                                       "the same flags (-W: a warning fails it)",
    r"^tarneeb prove\b": "the proofs, run by `tools/dev.py demo` and `test`, by the wheel check (--ruleset) and by "
                         "tests/test_proofs.py, test_proof_engine_cli.py and the others of the proofs",
    r"^tarneeb serve\b": "a server that runs until Ctrl-C: tests/test_serve.py (HTTP) and test_serve_browser.py",
    r"^npm install ": "an install from the npm registry: .ci/run installs Pyodide so, for tests/test_offline_site.py",
    r"^tarneeb site\b": "needs Pyodide's npm files: tests/test_offline_site.py builds the site and drives it in Chromium",
    r"^python -m http\.server\b": "a server that runs until Ctrl-C: tests/test_offline_site.py serves the site so",
}
SILENT = ("mkdir",)  # commands that print nothing when they succeed (the others must say something)
TREE = ("spec/", "examples/", ".venv/", "docs", "tools/", "bench/")  # files of a clone, not of the wheel
ON_PURPOSE_EXIT = 1  # a command that drives a planted bug must find it: vectors run, fuzz and verify exit 1
ON_PURPOSE = re.compile(r"\s#\s.*\bexits 1\b")  # ... and says so in its comment: "# exits 1: the bug is found"
ELISION = "..."  # a line of a shown output standing for any number of lines


class Shown(NamedTuple):
    """An output the README shows: the ``text`` block at ``line``, what the commands at ``commands`` print."""

    line: int
    commands: tuple[int, ...]
    lines: tuple[str, ...]


def _blocks(text: str) -> list[tuple[str, int, int, list[str]]]:
    """The fenced blocks of ``text``: (language, line of the opening fence, of the closing one, body lines)."""
    out: list[tuple[str, int, int, list[str]]] = []
    fence: tuple[str, int] | None = None
    body: list[str] = []
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("```"):
            if fence is None:
                fence, body = (line[3:].strip(), n), []
            else:
                out.append((fence[0], fence[1], n, body))
                fence = None
            continue
        if fence is not None:
            body.append(line)
    return out


def _text(text: str | None) -> str:
    return README.read_text(encoding="utf-8") if text is None else text


def _commands(block: tuple[str, int, int, list[str]]) -> list[tuple[int, str]]:
    """The command lines of an ``sh`` block (comment lines left out), with their line numbers."""
    lang, start, _, body = block
    if lang != "sh":
        return []
    return [(start + i, line.strip()) for i, line in enumerate(body, 1)
            if line.strip() and not line.lstrip().startswith("#")]


def readme_commands(text: str | None = None) -> list[tuple[int, str]]:
    """Every command line of the README's ``sh`` blocks (comment lines left out), with its line number."""
    return [c for block in _blocks(_text(text)) for c in _commands(block)]


def shown_outputs(text: str | None = None) -> list[Shown]:
    """Every output the README shows (a ``text`` block right after an ``sh`` block), with the commands that print
    it. Raises ``ValueError`` naming the line of a ``text`` block that follows no ``sh`` block, or whose ``sh``
    block has no command."""
    text = _text(text)
    lines = text.splitlines()
    out: list[Shown] = []
    before: tuple[str, int, int, list[str]] | None = None
    for block in _blocks(text):
        if block[0] == "text":
            commands = tuple(n for n, _ in _commands(before)) if before is not None else ()
            between = lines[before[2]:block[1] - 1] if before is not None else []
            if before is None or before[0] != "sh" or any(g.strip() for g in between):
                raise ValueError(f"README.md:{block[1]}: a text block (a shown output) must follow an sh block, "
                                 "with only blank lines between")
            if not commands:
                raise ValueError(f"README.md:{block[1]}: the sh block above this output has no command")
            out.append(Shown(block[1], commands, tuple(block[3])))
        before = block
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


def from_the_wheel(text: str | None = None) -> list[tuple[int, str]]:
    """The README commands the installed wheel alone runs as written: those :func:`not_from_the_wheel` allows, less
    those that read a file only a command it cannot run writes (with ``--out`` or ``>``: an example engine's
    self-play, say)."""
    out: list[tuple[int, str]] = []
    unwritten: set[str] = set()
    for n, line in readme_commands(text):
        argv, to = argv_of(line)
        written = to or (argv[argv.index("--out") + 1] if "--out" in argv[:-1] else None)
        if not_from_the_wheel(line) is None and not unwritten & {os.path.normpath(a) for a in argv}:
            out.append((n, line))
            unwritten.discard(os.path.normpath(written or "."))
        elif written:
            unwritten.add(os.path.normpath(written))
    return out


def silent(line: str) -> bool:
    """Whether the command prints nothing when it succeeds (``mkdir -p``), so that saying nothing is no fault."""
    argv, _ = argv_of(line)
    return bool(argv) and argv[0] in SILENT


def fails_on_purpose(line: str) -> bool:
    """Whether the command's comment says it exits 1 (it drives or checks a planted bug)."""
    return ON_PURPOSE.search(line) is not None


def expected_exit(line: str, from_wheel: bool = False) -> int:
    """0, or 1 for a command whose comment says it exits 1 (a planted bug found); from the wheel, ``vectors
    generate`` without ``--out`` refuses to write into the installed package (2)."""
    argv, _ = argv_of(line)
    if from_wheel and argv[:3] == ["tarneeb", "vectors", "generate"] and "--out" not in argv:
        return 2
    return ON_PURPOSE_EXIT if fails_on_purpose(line) else 0
