"""The sphinx site of ``docs/``, built once per test run for the tests that read it (the build, the browser).

The workers of one run (``pytest -n 2``) share one build: the first to ask builds it into a folder named after the
run, under a lock; the others wait for it and read the same pages (or the same failure). A run without workers
builds its own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def copy_docs(dest: Path) -> Path:
    """A copy of ``docs/`` in ``dest`` without what a build writes into it."""
    src = dest / "docs"
    shutil.copytree(DOCS, src, ignore=shutil.ignore_patterns("_build", "generated", "__pycache__"))
    return src


def sphinx(src: Path, out: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``sphinx -W`` (warnings are errors) from ``src`` to ``out``."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(src), str(out)],
                          capture_output=True, text=True, env=full_env, timeout=300)


def built_site() -> tuple[Path, str | None, float]:
    """(the built site's folder, the build's error output or None when it succeeded, the build's seconds, 0 when
    another worker built it)."""
    import fcntl  # POSIX: the test machines'

    run = os.environ.get("PYTEST_XDIST_TESTRUNUID")
    folder = (Path(tempfile.gettempdir()) / f"tarneeb-docs-{run}" if run
              else Path(tempfile.mkdtemp(prefix="tarneeb-docs-")))
    folder.mkdir(exist_ok=True)
    out, failed = folder / "html", folder / "failed.txt"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        elapsed = 0.0
        if not (folder / "done").exists():
            t0 = time.perf_counter()
            proc = sphinx(copy_docs(folder), out)
            elapsed = time.perf_counter() - t0
            if proc.returncode != 0:
                failed.write_text(f"docs build failed:\n{proc.stdout}\n{proc.stderr}")
            (folder / "done").touch()
        return out, (failed.read_text() if failed.exists() else None), elapsed
