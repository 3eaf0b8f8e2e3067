"""The part of orjson the engine uses, from the standard library's :mod:`json`: for a Python without orjson
(Pyodide, in the offline site ``tarneeb site`` builds). The record reader, verifier and writer import orjson when
it is installed (it is faster) and this otherwise; both read and write the same values and refuse the same lines
(only the wording of a JSON syntax error differs: json's own).

As orjson does, :func:`loads` refuses ``NaN`` and ``Infinity`` (not JSON) and bytes that are not UTF-8 with
:class:`JSONDecodeError`, and :func:`dumps` writes compact UTF-8 bytes (no spaces, no ``\\u`` escapes of
non-ASCII text).
"""

from __future__ import annotations

import json
from typing import Any

JSONDecodeError = json.JSONDecodeError
OPT_APPEND_NEWLINE = 1 << 10  # orjson's value of the flag (any bit works here: only this one is read)


class _NotJson(ValueError):
    pass


def _refuse(name: str) -> Any:
    raise _NotJson(name)


def loads(data: bytes | bytearray | memoryview | str) -> Any:
    """``data`` decoded from JSON; :class:`JSONDecodeError` when it is not JSON (``NaN`` included)."""
    try:
        text = bytes(data).decode("utf-8") if isinstance(data, bytes | bytearray | memoryview) else data
    except UnicodeDecodeError as u:
        raise JSONDecodeError(f"not UTF-8 (byte {u.start})", "", u.start) from None
    try:
        return json.loads(text, parse_constant=_refuse)
    except _NotJson as e:
        raise JSONDecodeError(f"{e} is not JSON", text, text.find(str(e))) from None


def dumps(obj: Any, option: int | None = None) -> bytes:
    """``obj`` as compact JSON in UTF-8 bytes; with ``option=OPT_APPEND_NEWLINE``, a newline after it."""
    out = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    return out + b"\n" if option and option & OPT_APPEND_NEWLINE else out
