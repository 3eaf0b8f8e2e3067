"""The built distribution lists every package of the source tree (a subpackage left out breaks a non-editable install)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_folder_is_in_pyproject() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT / "model").parts) for p in (ROOT / "model").rglob("__init__.py")}
    found |= {"tarneeb_proofs", "tarneeb.specdata"}  # specdata: spec/ mapped into the package by the build
    assert (ROOT / "proofs/tarneeb_proofs/__init__.py").is_file()
    assert found == listed, f"missing from pyproject: {sorted(found - listed)}; not a package: {sorted(listed - found)}"
