"""tests/conftest.py turns a skip that hides a missing dependency into a failure (seen: with the hook removed,
both hidden skips below pass as skipped)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CASES = '''
import sys
import pytest


def test_a_declared_module_missing() -> None:
    sys.modules["matplotlib"] = None  # type: ignore[assignment]  (as if not installed)
    pytest.importorskip("matplotlib")


def test_an_undeclared_module_missing() -> None:
    pytest.importorskip("no_such_module_anywhere")


@pytest.mark.skipif(True, reason="node is not installed (CI installs Node 20)")
def test_a_tool_ci_installs() -> None:
    pass
'''


def _run(tmp: Path, ci: bool) -> str:
    (tmp / "conftest.py").write_text("from tests.conftest import pytest_make_collect_report, pytest_runtest_makereport"
                                     "  # noqa: F401\n")
    (tmp / "test_cases.py").write_text(CASES)
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{ROOT}{':' + str(ROOT / 'model')}", "TARNEEB_PROVE_CACHE": "off"}
    if ci:
        env["CI"] = "1"
    p = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", "-q", "-o", "addopts=",
                        "--rootdir", str(tmp), str(tmp / "test_cases.py")], capture_output=True, text=True, env=env,
                       cwd=tmp)
    return p.stdout


def test_a_skip_for_a_declared_dependency_fails(tmp_path: Path) -> None:
    out = _run(tmp_path, ci=False)
    assert "FAILED test_cases.py::test_a_declared_module_missing" in out, out
    assert "SKIPPED [1] test_cases.py" in out and "no_such_module_anywhere" in out, out  # not declared: a skip
    assert "1 failed" in out and "2 skipped" in out, out  # the tool: skipped off CI


def test_on_ci_a_skip_for_a_tool_ci_installs_fails(tmp_path: Path) -> None:
    out = _run(tmp_path, ci=True)
    # a skip mark is decided in setup: reported as an error there, a failure of the run all the same
    assert "ERROR test_cases.py::test_a_tool_ci_installs" in out and "1 failed, 1 skipped, 1 error" in out, out
