"""The built distribution lists every package of the source tree (a subpackage left out breaks a non-editable install)."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_package_folder_is_in_pyproject() -> None:
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT / "model").parts) for p in (ROOT / "model").rglob("__init__.py")}
    found |= {"tarneeb_proofs", "tarneeb.specdata"}  # specdata: spec/ mapped into the package by the build
    # the folders of data are listed too (setuptools takes a data folder whose name is an identifier for a
    # package): each of spec/ under tarneeb.specdata, and each of a package's folders without Python
    for d in (ROOT / "spec").rglob("*"):
        if d.is_dir() and all(part.isidentifier() for part in d.relative_to(ROOT / "spec").parts):
            found.add("tarneeb.specdata." + ".".join(d.relative_to(ROOT / "spec").parts))
    for pkg in [p.parent for p in (ROOT / "model").rglob("__init__.py")]:
        for d in pkg.iterdir():
            if d.is_dir() and d.name.isidentifier() and d.name != "__pycache__" and not (d / "__init__.py").exists():
                found.add(".".join(d.relative_to(ROOT / "model").parts))
    assert (ROOT / "proofs/tarneeb_proofs/__init__.py").is_file()
    assert found == listed, f"missing from pyproject: {sorted(found - listed)}; not a package: {sorted(listed - found)}"
