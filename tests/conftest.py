"""Shared test settings: a bounded Hypothesis profile so the suite fits CI on 2 cores, and a deep one for long runs.

* ``ci`` (CI sets ``HYPOTHESIS_PROFILE=ci``): 60 examples per property, derandomized (the same inputs on every
  run); the differential properties (``tests/test_differential*.py``) take at least 500 (``strategies.volume``).
* ``dev`` (the default off CI): as ``ci`` but random.
* ``deep``: 20,000 examples per property, differential ones included, random (unseeded), for long runs.

The proofs' cache (``tarneeb_proofs.cache``) is a fresh folder per test run, shared by the run's worker processes
(``pytest -n 2``): every proof is made once in the run, never taken from a user's cache or an earlier run.
``TARNEEB_PROVE_CACHE=off`` set by the caller turns it off for the run.

Each test works in a fresh, empty catalog of ruleset files (:mod:`tarneeb.core.context`): a house file one test
loads is not known to the next, and no test resets a registry by hand. The encodings' compiled terms are kept for
the run (``_compiled_terms``).

``TARNEEB_PURE=1`` is set for the run: the engine's pure source is what the tests check (:mod:`tarneeb.compiled`).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

# the tests run the engine's pure Python source whichever build is installed (they patch mutants into it, prove it,
# walk its code): tests/test_compiled.py compares a compiled build with it, in processes of its own. Set before
# the package is first imported (tarneeb/__init__.py reads it), and for the commands the tests start.
os.environ["TARNEEB_PURE"] = "1"

from tarneeb.core.context import Catalog, using  # noqa: E402

settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("deep", max_examples=20_000, deadline=None, derandomize=False,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


if os.environ.get("TARNEEB_PROVE_CACHE") != "off":
    _run = os.environ.get("PYTEST_XDIST_TESTRUNUID")  # the same in every worker of one run
    if _run:
        _folder = Path(tempfile.gettempdir()) / f"tarneeb-prove-cache-{_run}"
        _folder.mkdir(exist_ok=True)
    else:
        _folder = Path(tempfile.mkdtemp(prefix="tarneeb-prove-cache-"))
    os.environ["TARNEEB_PROVE_CACHE"] = str(_folder)


@pytest.fixture(autouse=True)
def _fresh_catalog() -> Any:
    """The ruleset files a test loads, and the sources they declare, live in its own catalog."""
    with using(Catalog()) as catalog:
        yield catalog


@pytest.fixture(scope="session", autouse=True)
def _compiled_terms() -> Any:
    """The encodings' evaluators compile each term set once for the whole run (as ``tarneeb prove`` does per run):
    a memo in force (:func:`tarneeb_proofs.evaluate.compiling`) for the tests that evaluate many encodings."""
    from tarneeb_proofs.evaluate import compiling

    with compiling() as memo:
        yield memo


@pytest.fixture(scope="session")
def steer_terms() -> Any:
    """The encoding's terms the steered matches read (:class:`tests.steered.terms.TermCache`), built once per
    distinct set of the parameters they read and shared by the session's tests."""
    from tests.steered.terms import TermCache

    return TermCache()


@pytest.fixture(scope="session")
def tool_records(steer_terms: Any) -> Any:
    """The records the tools are checked on (:class:`tests.toolcheck.records.RecordBank`), made once per
    configuration for the session: the true engine's matches (a test of an engine bug makes its own)."""
    from tests.toolcheck.records import RecordBank

    return RecordBank(steer_terms)


# A skip that hides a missing dependency is a defect: a test skipped because a module the package or its `test`
# extra declares cannot be imported fails instead (z3 is a core dependency; the rest are in the `test` extra, which
# the test command installs), and so does one skipped for a tool CI installs (node, Chromium) when run on CI.
DECLARED_MODULES = {"z3", "hypothesis", "jsonschema", "starlette", "uvicorn", "jinja2", "multipart", "httpx",
                    "playwright", "dask", "distributed", "fsspec", "matplotlib", "pyspiel", "numpy", "tarneeb",
                    "tarneeb_proofs"}
CI_TOOLS = ("node is not installed", "Chromium is not installed")


def hidden_dependency(reason: str, on_ci: bool) -> bool:
    """Whether a skip's reason is a missing declared dependency (or, on CI, a missing tool CI installs)."""
    import re

    m = re.search(r"could not import '([\w.]+)'", reason)
    if m is not None:
        return m.group(1).split(".")[0] in DECLARED_MODULES
    return "is not installed (pip install" in reason or (on_ci and any(t in reason for t in CI_TOOLS))


def _fail_hidden(rep: Any) -> None:
    if rep.skipped and not hasattr(rep, "wasxfail") and isinstance(rep.longrepr, tuple):
        reason = str(rep.longrepr[2])
        if hidden_dependency(reason, bool(os.environ.get("CI"))):
            rep.outcome = "failed"
            rep.longrepr = f"skipped for a missing dependency, which the test command installs: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: Any, call: Any) -> Any:
    outcome = yield
    _fail_hidden(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: Any) -> Any:
    outcome = yield
    _fail_hidden(outcome.get_result())


# Modules whose tests take seconds each (proofs, symbolic execution, engines over the protocol, a browser, the
# docs build, Dask, differential properties): marked `slow`, left out by `python3 tools/dev.py check` (the inner
# loop); `python3 tools/dev.py test` and CI run everything.
SLOW_MODULES = {
    "test_proofs", "test_proof_engine", "test_proof_engine_cli", "test_proof_references", "test_symbolic",
    "test_prove_cache", "test_mutants", "test_mutant_catalogue", "test_differential",
    "test_differential_auction", "test_differential_mutants", "test_differential_stateful", "test_serve_browser",
    "test_docs_build", "test_js_engine", "test_protocol", "test_vectors", "test_fuzz", "test_fuzz_batch",
    "test_fuzz_hands", "test_records_fuzz", "test_records_units", "test_openspiel", "test_no_rule_outside_core",
    "test_evaluate", "test_diff", "test_bench_minimal", "test_examples", "test_batch", "test_stats",
}


def pytest_configure(config: Any) -> None:
    config.addinivalue_line("markers", "slow: seconds per test; left out by `tools/dev.py check`")


# The order the two workers take the test files in (`tools/dev.py test` runs pytest-xdist with
# --no-loadscope-reorder, so files are handed out in collection order, not largest first): the whole prove of
# test_proofs first, which proves every engine function cold into the shared cache (in two processes of its own);
# then the files that prove nothing; last, the files that prove the engine again (a mutant patched in, the README's
# and other command lines), the largest first, when what they do not patch is cached. Largest first, test_proof_engine's 150 mutants
# came first and test_proofs late, and the two proved the true engine's functions cold side by side.
FIRST_MODULE = "test_proofs"
PROVING_MODULES = ["test_proof_engine", "test_readme_commands", "test_proof_engine_cli",
                   "test_house", "test_prove_cache", "test_cli_conventions",
                   "test_proof_references", "test_mutant_catalogue"]


def _order(item: Any) -> tuple[int, int]:
    name = _module_name(item)
    if name == FIRST_MODULE:
        return (0, 0)
    if name in PROVING_MODULES:
        return (2, PROVING_MODULES.index(name))
    return (1, 0)


def _module_name(item: Any) -> str:
    return item.module.__name__.rsplit(".", 1)[-1] if item.module is not None else ""


def pytest_collection_modifyitems(config: Any, items: list[Any]) -> None:
    for item in items:
        if _module_name(item) in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
    # a stable sort: each file's tests stay together and in their order
    items.sort(key=_order)
