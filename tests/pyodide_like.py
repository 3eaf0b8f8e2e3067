"""Python as the offline site runs it under Pyodide: a prelude that makes the heavy or native packages the
engine must do without (orjson, z3, rich, Starlette, uvicorn, numpy) unimportable, for a script a test runs in a
subprocess of its own."""

WITHOUT_EXTRAS = r'''
import importlib.abc, json, sys
class Absent(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split(".")[0] in ("orjson", "z3", "rich", "starlette", "anyio", "uvicorn", "numpy"):
            raise ModuleNotFoundError(name, name=name)
sys.meta_path.insert(0, Absent())
'''
