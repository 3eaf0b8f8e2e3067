"""The build's one step pyproject.toml cannot say: the engine's core compiled by mypyc (tarneeb/compiled.py).

Everything else of the build is in pyproject.toml. The modules of ``tarneeb.compiled.COMPILED`` are compiled into
C extensions installed beside their ``.py`` sources, for ``pip install .``, the sdist and the platform wheel of
``python -m build``. The package is built pure Python (a wheel for every platform) instead when

* ``TARNEEB_PURE=1`` is set at build time;
* no C compiler works here (a tiny C file is compiled to find out);
* the install is editable (``pip install -e``): the sources are run as they are edited, never a stale build.
"""

from __future__ import annotations

import ast
import os
import sys
import tempfile
from pathlib import Path

from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
# the setup.py commands that build the package (a PEP 517 build also runs it for its metadata and the sdist, which
# need no compiling: mypycify type-checks and generates the C code as soon as it is called)
BUILDS = {"bdist_wheel", "build", "build_ext", "install"}


def compiled_modules() -> list[str]:
    """The paths of the modules to compile, read from tarneeb/compiled.py (the one list, also read at run time)."""
    tree = ast.parse((HERE / "model/tarneeb/compiled.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets):
            return [f"model/tarneeb/{m.replace('.', '/')}.py" for m in ast.literal_eval(node.value)]
    raise SystemExit("setup.py: tarneeb/compiled.py has no COMPILED list")


def why_pure() -> str | None:
    """Why this build compiles nothing, or None when it compiles the core."""
    if os.environ.get("TARNEEB_PURE", "") not in ("", "0"):
        return "TARNEEB_PURE is set"
    if "editable_wheel" in sys.argv:
        return "an editable install runs its sources as they are"
    if not BUILDS.intersection(sys.argv):
        return "this step builds nothing (metadata, sdist)"
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.errors import CCompilerError, DistutilsError
    from setuptools._distutils.sysconfig import customize_compiler

    cc = new_compiler()
    customize_compiler(cc)
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.c"
        probe.write_text("int main(void) { return 0; }\n", encoding="utf-8")
        try:
            cc.compile([str(probe)], output_dir=tmp)
        except (CCompilerError, DistutilsError, OSError):
            return "no C compiler works here"
    return None


def ext_modules() -> list[Extension]:
    reason = why_pure()
    if reason is not None:
        if reason != "this step builds nothing (metadata, sdist)":
            print(f"setup.py: building the engine pure Python ({reason})", file=sys.stderr)
        return []
    from mypyc.build import mypycify

    print("setup.py: compiling the engine's core with mypyc", file=sys.stderr)
    # mypyc type-checks every module the compiled ones import; where a package they reach is not installed (an
    # isolated build has no orjson, no dask) it is taken as Any, and the ignores its absence leaves unused are not
    # errors here (the compiled modules use neither; `mypy` checks the tree with them installed)
    flags = ["--ignore-missing-imports", "--no-warn-unused-ignores"]
    return mypycify([*flags, *compiled_modules()], opt_level="3", group_name="tarneeb_core")


setup(ext_modules=ext_modules())
