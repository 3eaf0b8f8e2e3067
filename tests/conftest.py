"""Shared test settings: a bounded Hypothesis profile so the suite fits CI on 2 cores, and a deep one for long runs.

* ``ci`` (CI sets ``HYPOTHESIS_PROFILE=ci``): 60 examples per property, derandomized (the same inputs on every
  run); the differential properties (``tests/test_differential*.py``) take at least 500 (``strategies.volume``).
* ``dev`` (the default off CI): as ``ci`` but random.
* ``deep``: 20,000 examples per property, differential ones included, random (unseeded), for long runs.

The proofs' cache (``tarneeb_proofs.cache``) is a fresh folder per test run, shared by the run's worker processes
(``pytest -n 2``): every proof is made once in the run, never taken from a user's cache or an earlier run.
``TARNEEB_PROVE_CACHE=off`` set by the caller turns it off for the run.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings

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
