"""The benchmarks' human headers in words (``machine: 2 CPUs, load before 0.52 0.40 0.30, ...``), not dict reprs;
``--json`` keeps the machine's dict as it is."""

from __future__ import annotations

from typing import Any


def value_words(v: Any) -> str:
    """A value as a header line says it: a list or tuple its items, a dict ``key value`` pairs, a float rounded."""
    if isinstance(v, dict):
        return ", ".join(f"{k.replace('_', ' ')} {value_words(x)}" for k, x in v.items())
    if isinstance(v, list | tuple):
        return " ".join(value_words(x) for x in v)
    if isinstance(v, float):
        return f"{v:.2f}"
    return str(v)


def machine_words(info: dict[str, Any]) -> str:
    """``machine: cpus 2, load avg before 0.52 0.40 0.30, python 3.11.7, ...``."""
    return "machine: " + value_words(info)
