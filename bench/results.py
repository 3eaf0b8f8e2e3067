"""``bench/RESULTS.md``: each benchmark writes its own section, between markers of its name, and leaves the others.

A section says the command that gave it, the commit, the date and the machine (CPUs, load average), then the
figures as the benchmark printed them. Not a test: the figures are whatever the run measured.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "RESULTS.md"


def markers(name: str) -> tuple[str, str]:
    """The lines that open and close the section of the benchmark ``bench/{name}.py``."""
    return f"<!-- {name}: begin (bench/{name}.py writes this section) -->", f"<!-- {name}: end -->"


def header(argv: list[str] | None = None) -> str:
    """The line under a section's title: the command as run, the commit, the date, the CPUs and the load."""
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip() or "(no git)"
    command = " ".join(["python", *[a for a in (sys.argv if argv is None else argv)]])
    load = "{:.2f} {:.2f} {:.2f}".format(*os.getloadavg())
    return (f"`{command}` at {commit}, {time.strftime('%Y-%m-%d')}, {os.cpu_count()} CPUs, load average {load} "
            "before the run.")


def write_section(name: str, lines: list[str]) -> str:
    """Put ``lines`` (the section's text, title first) between the markers of ``name`` in bench/RESULTS.md,
    replacing what was there; returns the section."""
    begin, end = markers(name)
    section = "\n".join([begin, *lines, end])
    text = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n\nWritten by the benchmarks.\n"
    if begin in text and end in text:
        text = text[:text.index(begin)] + section + text[text.index(end) + len(end):]
    else:
        text = text.rstrip("\n") + "\n\n" + section + "\n"
    RESULTS.write_text(text)
    return section
