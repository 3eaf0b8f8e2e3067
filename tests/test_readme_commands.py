"""Every command of the README's ``sh`` blocks, run as written, in README order, from a folder laid out as a fresh
clone (``spec/`` and ``docs/`` copied, ``examples/`` and ``.venv/`` linked; ``TARNEEB_SPEC_DIR`` points at the copy,
so ``vectors generate`` rewrites the copy, not the tree): each exits as it should, prints no traceback and says
something, and every output the README shows (a ``text`` block after the commands) is what they print, line for
line, a ``...`` line standing for any lines (``tools/readme_commands.py`` says how the blocks are read). The few
commands no test can run are named there with the reason and what tests them instead. ``tools/wheel_check.py``
runs those that need no file of the source tree and no extra from the wheel alone.
"""

from __future__ import annotations

import difflib
import importlib.util
import json
import os
import shutil
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("readme_commands", ROOT / "tools" / "readme_commands.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


RC = _load()


def test_the_readme_blocks_are_found() -> None:
    text = "x\n```sh\ntarneeb rulesets   # ids\n\n# a comment\n```\n```toml\nkey = 1\n```\n```sh\ntarneeb show classic\n```\n"
    assert RC.readme_commands(text) == [(3, "tarneeb rulesets   # ids"), (11, "tarneeb show classic")]
    assert len(RC.readme_commands()) >= 12
    assert RC.argv_of("tarneeb new-ruleset --from x > club.toml   # c") == (["tarneeb", "new-ruleset", "--from", "x"],
                                                                        "club.toml")


def differs(shown: Sequence[str], printed: str) -> str | None:
    """None when ``printed`` is the output ``shown``: the same lines in order, trailing spaces ignored, a line
    ``...`` (``RC.ELISION``) matching any run of lines, none included; else a diff of the two."""
    want = [line.rstrip() for line in shown]
    got = [line.rstrip() for line in printed.splitlines()]
    parts: list[list[str]] = [[]]
    for line in want:
        if line == RC.ELISION:
            parts.append([])
        else:
            parts[-1].append(line)
    if len(parts) == 1:  # no elision: the whole output
        ok = got == want
    else:
        first, *middle, last = parts
        at, end = len(first), len(got) - len(last)
        ok = at <= end and got[:at] == first and got[end:] == last
        for part in middle:  # each in order, where it first occurs (the leftmost match leaves the most room)
            found = next((i for i in range(at, end - len(part) + 1) if got[i:i + len(part)] == part), None) if ok else None
            ok = found is not None
            at = found + len(part) if found is not None else at
    if ok:
        return None
    return "\n".join(difflib.unified_diff(want, got, "shown in README.md", "printed", lineterm="", n=2))


def test_a_shown_output_matches_line_for_line_with_elisions() -> None:
    printed = "clean: 1 file\n  a  \nb\nc\nsummary\n"
    assert differs(["clean: 1 file", "  a", "b", "c", "summary"], printed) is None  # trailing spaces ignored
    assert differs(["clean: 1 file", "...", "summary"], printed) is None
    assert differs(["...", "b", "...", "summary"], printed) is None
    assert differs(["clean: 1 file", "  a", "b", "c", "summary", "..."], printed) is None  # "..." may match nothing
    assert differs(["..."], printed) is None
    assert differs(["clean: 2 files", "...", "summary"], printed) is not None  # one character changed
    assert differs(["clean: 1 file", "...", "c", "b", "..."], printed) is not None  # out of order
    assert differs(["clean: 1 file", "  a", "b", "c"], printed) is not None  # a line missing at the end
    assert differs(["clean: 1 file", "...", "clean: 1 file"], "clean: 1 file\n") is not None  # one line, not two
    assert "+summary" in (differs(["clean: 1 file", "  a", "b", "c"], printed) or "")


def test_shown_outputs_are_read_with_their_commands() -> None:
    text = "```sh\ntarneeb a\n# c\ntarneeb b > f\n```\n\n```text\nout\n...\n```\n```toml\nk = 1\n```\n"
    assert RC.shown_outputs(text) == [RC.Shown(7, (2, 4), ("out", "..."))]
    for bad in ("```text\nx\n```\n", "```sh\ntarneeb a\n```\nprose\n```text\nx\n```\n",
                "```toml\nk = 1\n```\n```text\nx\n```\n", "```sh\n# only a comment\n```\n```text\nx\n```\n"):
        with pytest.raises(ValueError, match="README.md:"):
            RC.shown_outputs(bad)


def test_the_readme_shows_outputs_of_commands_the_test_runs() -> None:
    """Each user's first command shows its output, and only commands this test runs show one (a command no test
    runs would show an output nothing checks); a command that fails on purpose says so in its comment."""
    commands = dict(RC.readme_commands())
    shown = RC.shown_outputs()
    assert len(shown) >= 4
    for s in shown:
        assert not any(RC.not_run_reason(commands[n]) for n in s.commands), s
        assert any(line != RC.ELISION for line in s.lines), s
    for n, line in commands.items():
        if line.startswith("tarneeb ") and "--mutant" in line:
            assert RC.fails_on_purpose(line), f"README.md:{n}: a planted bug: say `# exits 1: ...` in its comment"


def test_the_examples_write_outside_the_clone() -> None:
    """A file or folder a README example writes (``>``, ``--out``, ``tarneeb site``'s folder) goes beside the
    clone, into the folder the set-up makes, never into the checkout (the docs build aside: its ``_build`` folder
    is the build's own, ignored by git)."""
    assert any(RC.argv_of(line)[0] == ["mkdir", "-p", "../tarneeb-out"] for _, line in RC.readme_commands())
    written = []
    for n, line in RC.readme_commands():
        argv, to = RC.argv_of(line)
        if "sphinx" in argv:
            continue
        outs = [to] + ([argv[argv.index("--out") + 1]] if "--out" in argv[:-1] else [])
        outs += [argv[2]] if argv[:2] == ["tarneeb", "site"] else []
        written += [(n, o) for o in outs if o is not None]
    assert len(written) >= 4, written
    assert all(o.startswith("../tarneeb-out/") for _, o in written), written


def test_no_readme_command_has_a_placeholder() -> None:
    """A command block holds commands a newcomer can paste: no ``...``, no HOST, no single-letter stand-in
    (``--match M``); a template belongs in the prose around it."""
    for n, line in RC.readme_commands():
        argv, _ = RC.argv_of(line)
        assert "..." not in argv and not any("HOST" in a or a in {"M", "N", "FILE"} for a in argv), (n, line)


def test_which_commands_the_wheel_alone_runs() -> None:
    wheel = [line for _, line in RC.from_the_wheel()]
    assert "tarneeb ruling winner" in " ".join(wheel) and "tarneeb new-ruleset" in " ".join(wheel) and len(wheel) >= 5
    assert all(RC.not_from_the_wheel(line) is None for line in wheel)
    text = ("```sh\npython examples/e.py selfplay --out theirs.jsonl\ntarneeb verify theirs.jsonl   # exits 1: bug\n"
            "tarneeb new-ruleset --from x > club.toml\ntarneeb rules ./club.toml\n```\n")
    assert [line for _, line in RC.from_the_wheel(text)] == ["tarneeb new-ruleset --from x > club.toml",
                                                             "tarneeb rules ./club.toml"]
    argvs = [" ".join(RC.argv_of(line)[0]) for line in wheel]
    assert not any("examples/" in a or "spec/" in a or a.startswith("tarneeb stats") for a in argvs)
    assert RC.expected_exit("tarneeb vectors generate   # regenerate", from_wheel=True) == 2
    assert RC.expected_exit("tarneeb vectors generate --out vec", from_wheel=True) == 0


def _layout(tmp: Path) -> Path:
    work = tmp / "clone"
    work.mkdir()
    shutil.copytree(ROOT / "spec", work / "spec")
    shutil.copytree(ROOT / "docs", work / "docs", ignore=shutil.ignore_patterns("_build", "generated", "__pycache__"))
    for name in ("examples", ".venv", "bench", "tools", "model", "proofs", "pyproject.toml"):
        (work / name).symlink_to(ROOT / name)
    return work


def _wrote(work: Path, argv: list[str]) -> bool:
    """Whether the command names an ``--out`` file and wrote something there (a silent engine's self-play)."""
    out = argv[argv.index("--out") + 1] if "--out" in argv[:-1] else None
    return out is not None and (work / out).is_file() and (work / out).stat().st_size > 0


@pytest.mark.slow
def test_every_readme_command_runs_as_written(tmp_path: Path) -> None:
    work = _layout(tmp_path)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env.update(PATH=f"{ROOT / '.venv' / 'bin'}{os.pathsep}{env.get('PATH', '')}",
               TARNEEB_SPEC_DIR=str(work / "spec"), COLUMNS="120")
    failures: list[str] = []
    ran: list[str] = []
    printed: dict[int, str] = {}  # a command's line -> what it printed on stdout (nothing when `>` took it)
    for n, line in RC.readme_commands():
        why = RC.not_run_reason(line)
        if why:
            ran.append(f"README.md:{n} not run ({why}): {line[:60]}")
            continue
        argv, out_file = RC.argv_of(line)
        t0 = time.perf_counter()
        p = subprocess.run(argv, cwd=work, env=env, capture_output=True, text=True, timeout=900)
        ran.append(f"README.md:{n} ({time.perf_counter() - t0:.1f} s): {line[:100]}")
        if out_file is not None:
            (work / out_file).write_text(p.stdout, encoding="utf-8")
        printed[n] = "" if out_file is not None else p.stdout
        expect = RC.expected_exit(line)
        where = f"README.md:{n}: {line}"
        if p.returncode != expect:
            failures.append(f"{where}\n  exit {p.returncode}, expected {expect}\n{p.stdout[-1500:]}\n{p.stderr[-1500:]}")
        elif "Traceback" in p.stderr:
            failures.append(f"{where}\n  printed a traceback\n{p.stderr[-2000:]}")
        elif not (p.stdout.strip() or p.stderr.strip() or _wrote(work, argv) or RC.silent(line)):
            failures.append(f"{where}\n  printed nothing and wrote no --out file")
        elif "--json" in argv and argv[:2] == ["tarneeb", "stats"]:
            for c in json.loads(p.stdout)["configurations"]:
                if not c["finished"]:  # an empty result: no match played out
                    failures.append(f"{where}\n  {c['label']}: 0 of {c['matches']} matches finished")
    for shown in RC.shown_outputs():
        if all(n in printed for n in shown.commands):
            diff = differs(shown.lines, "".join(printed[n] for n in shown.commands))
            if diff is not None:
                failures.append(f"README.md:{shown.line}: the output shown is not what the commands above print "
                                f"(a line {RC.ELISION} stands for any lines)\n{diff}")
        else:
            failures.append(f"README.md:{shown.line}: shows the output of commands no test runs")
    print("\n".join(ran))
    assert not failures, "\n\n".join(failures)
    assert sum(" not run " not in r for r in ran) >= 10
