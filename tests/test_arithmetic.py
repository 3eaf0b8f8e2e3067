"""A ruling's arithmetic as a value (tarneeb.ruling.arithmetic.Math): made once by the deciding modules, rendered
from its terms as the line programs read (the JSON's ``math``), in English words (``math_words``) and in Arabic
(``math_ar``); each rendering states the same numbers and comparisons as the line, for every ruling of the
disputes and of the situations tests/test_arabic.py asks about."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

from tarneeb.core.spec import spec_dir
from tarneeb.ruling import load_situation, resolve
from tarneeb.ruling.arithmetic import NONE, SHAPES, Math, line, math
from tarneeb.ruling.math_words import math_words

DISPUTE_FILES = sorted((spec_dir() / "disputes").glob("*.toml"))

_CMP = re.compile(r"(?<![\d+(])(-?\d+) (>=|<=|<|>|!=) (-?\d+)(?![\d+])")
_WORDS = {">=": "is at least", "<=": "is at most", "<": "is below", ">": "is above", "!=": "is not"}
_CODE_LIKE = re.compile(r"\[\s*-?\d|>=|<=|!=| < | > | = player|\bleader = |\w+\(player \d\)")


def _numbers(text: str) -> Counter[str]:
    return Counter(re.findall(r"(?<![\w])-?\d+", re.sub(r"\b(?:10|[2-9TJQKA])[CDHS]\b", " ", text)))


def word_problems(m: Math) -> list[str]:
    """Where the English words of ``m`` do not say what its line says: a number missing, a comparison not in words
    (each ``a >= b`` of the line is ``a is at least b`` in the words), a sign or a bracketed list left."""
    said, words = line(m), math_words(m)
    out = []
    if _numbers(said) - _numbers(words):
        out.append(f"numbers missing: {sorted((_numbers(said) - _numbers(words)).elements())}")
    if m.shape not in ("range", "contract-score", "seat-score"):  # said as "between", "which is at least the bid of"
        out += [f"{a} {op} {b} not said" for a, op, b in _CMP.findall(said) if f"{a} {_WORDS[op]} {b}" not in words]
    if _CODE_LIKE.search(words):
        out.append(f"a sign or a list left: {words!r}")
    return out


def _arithmetics() -> Iterator[tuple[str, Math]]:
    """Every ruling's arithmetic of the disputes, and of each reading the engine rules."""
    for path in DISPUTE_FILES:
        for x in resolve(load_situation(path)).rulings:
            if x.math:
                yield f"{path.stem} {x.label}", x.math


def test_every_arithmetic_of_the_disputes_is_said_in_words() -> None:
    seen: set[str] = set()
    problems = []
    for where, m in _arithmetics():
        seen.add(m.shape)
        problems += [f"{where}: {m.shape}: {p}" for p in word_problems(m)]
    assert problems == []
    assert len(seen) >= 15, sorted(set(SHAPES) - seen)


QUALIFY = math("qualify", teams=((45, True, 0, False, False), (30, False, 12, True, False)), target=41)


def test_the_check_sees_a_comparison_said_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above on words that drop a number or say a comparison the other way round."""
    from tarneeb.ruling import math_words as mw

    assert word_problems(QUALIFY) == []
    assert line(QUALIFY) == "team 1: 45 >= 41 and 0 <= 0: does not qualify; team 2: 30 < 41 and 12 > 0: does not qualify"
    assert math_words(QUALIFY) == ("team 1 does not qualify: 45 is at least 41 and 0 is at most 0; "
                                   "team 2 does not qualify: 30 is below 41 and 12 is above 0")
    monkeypatch.setattr(mw, "_ge", lambda ok: "<" if ok else ">=")
    assert any("45 >= 41 not said" in p for p in word_problems(QUALIFY))
    monkeypatch.undo()
    monkeypatch.setattr(mw, "_is", lambda a, sign, b: f"{a} {b}")  # a number kept, the comparison dropped
    assert any("not said" in p for p in word_problems(QUALIFY))


def test_a_shape_is_known_and_none_is_empty() -> None:
    with pytest.raises(ValueError, match="unknown shape"):
        math("a sum", a=1)
    assert not NONE and line(NONE) == "" and math_words(NONE) == "" and str(NONE) == ""
    m: Any = math("leader", seat=1)
    assert m and str(m) == "leader = player 2" and math_words(m) == "player 2 leads" and m["seat"] == 1
