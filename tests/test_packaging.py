"""The built distribution lists every package of the source tree (a subpackage left out breaks a non-editable install)
and carries every data file as package data (the rules of spec/, the web app's static files and templates)."""

from __future__ import annotations

import glob
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SETUPTOOLS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]


def test_every_package_folder_is_in_pyproject() -> None:
    """Exactly the Python packages (folders with ``__init__.py``), the proofs package and ``tarneeb.specdata`` (spec/
    mapped into the package by the build): data folders are data, not packages."""
    listed = set(SETUPTOOLS["packages"])
    found = {".".join(p.parent.relative_to(ROOT / "model").parts) for p in (ROOT / "model").rglob("__init__.py")}
    found |= {"tarneeb_proofs", "tarneeb.specdata"}
    assert (ROOT / "proofs/tarneeb_proofs/__init__.py").is_file()
    assert found == listed, f"missing from pyproject: {sorted(found - listed)}; not a package: {sorted(listed - found)}"
    # nothing taken implicitly: with include-package-data, setuptools warned about each data folder whose name is
    # an identifier ("Package 'tarneeb.specdata.rulesets' is absent from the `packages` configuration")
    assert SETUPTOOLS["include-package-data"] is False


def _declared(package: str, folder: Path) -> set[str]:
    return {m for pattern in SETUPTOOLS["package-data"][package]
            for m in glob.glob(pattern, root_dir=folder, recursive=True) if (folder / m).is_file()}


def test_every_data_file_is_declared_package_data() -> None:
    spec = ROOT / "spec"
    files = {p.relative_to(spec).as_posix() for p in spec.rglob("*") if p.is_file()}
    assert files and files == _declared("tarneeb.specdata", spec), sorted(files ^ _declared("tarneeb.specdata", spec))
    serve = ROOT / "model" / "tarneeb" / "serve"
    data = {p.relative_to(serve).as_posix() for folder in ("static", "templates") for p in (serve / folder).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}
    assert data and data == _declared("tarneeb.serve", serve), sorted(data ^ _declared("tarneeb.serve", serve))
