"""Small modules and functions in the engine and the proofs: a module within 800 lines, a function within 100, so
that each reads in one sitting."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = [ROOT / "model" / "tarneeb", ROOT / "proofs" / "tarneeb_proofs"]
MODULE_LINES = 800
FUNCTION_LINES = 100


def _too_long(path: Path, root: Path = ROOT) -> list[str]:
    """What in the module at ``path`` is over its limit, each as "file[:line]: what (n lines)"."""
    src = path.read_text(encoding="utf-8")
    name = path.relative_to(root).as_posix()
    lines = src.count("\n")
    out = [f"{name}: the module ({lines} lines)"] if lines > MODULE_LINES else []
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno is not None:
            n = node.end_lineno - node.lineno + 1
            if n > FUNCTION_LINES:
                out.append(f"{name}:{node.lineno}: {node.name} ({n} lines)")
    return out


def test_every_module_and_function_is_within_its_limit() -> None:
    found = [x for pkg in PACKAGES for p in sorted(pkg.rglob("*.py")) for x in _too_long(p)]
    assert not found, f"over {MODULE_LINES} lines a module or {FUNCTION_LINES} a function:\n" + "\n".join(found)


def test_the_limits_count_lines_as_an_editor_does(tmp_path: Path) -> None:
    """A function of 100 lines in a module of 800 passes; one line more of each is reported."""
    def probe(fn_lines: int, module_lines: int) -> list[str]:
        body = "".join(f"    x{i} = {i}\n" for i in range(fn_lines - 1))
        src = f"def f() -> None:\n{body}" + "\n" * (module_lines - fn_lines)
        path = tmp_path / "probe.py"
        path.write_text(src)
        return _too_long(path, tmp_path)

    assert probe(FUNCTION_LINES, MODULE_LINES) == []
    assert probe(FUNCTION_LINES + 1, MODULE_LINES + 1) == [f"probe.py: the module ({MODULE_LINES + 1} lines)",
                                                           f"probe.py:1: f ({FUNCTION_LINES + 1} lines)"]
