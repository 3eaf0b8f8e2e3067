"""A ruling's arithmetic (its ``math``, as :mod:`tarneeb.ruling.decision` and :mod:`~tarneeb.ruling.turns` write it
for programs and as :mod:`tarneeb.ruling.arabic` reads it) in English words for people: ``team 1: 45 >= 41 and
0 <= 0: does not qualify`` reads ``team 1 does not qualify: 45 is at least 41 and 0 is at most 0``.

It says the same comparison, number for number, in words: comparison signs become words, ``player 4 != player 3``
says who is in turn, ``leader = player 2`` who leads, lists lose their brackets, arrows become "then". Sums stay
sums (``41+10 = 51``). The JSON keeps ``math`` as it was and adds these words as ``math_words``.
"""

from __future__ import annotations

import re

_NUM = r"-?\d+"
_CMP_WORDS = {">=": "is at least", "<=": "is at most", "!=": "is not", "<": "is below", ">": "is above"}


def _list(items: list[str]) -> str:
    """["1", "2", "3"] as "1, 2 and 3"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _then(seq: str) -> str:
    """"2 -> 3 -> 4" as "2, then 3, then 4"."""
    return ", then ".join(x.strip() for x in seq.split("->"))


def _comparisons(text: str) -> str:
    text = re.sub(rf"(?<![+\-\d])(?<![+\-] )({_NUM}) = ({_NUM})(?![+\-\d]| [+\-])", r"\1 equals \2", text)
    for sign, words in _CMP_WORDS.items():
        text = text.replace(f" {sign} ", f" {words} ")
    return text


def math_words(math: str) -> str:
    """``math`` in English words ("" for ""); see the module docstring."""
    if not math:
        return ""
    text = math
    text = re.sub(r"player (\d) != player (\d)", r"player \1 is not in turn: it is player \2's turn", text)
    text = re.sub(r"trick (\d+): leader = player (\d)", r"player \2 leads trick \1", text)
    text = re.sub(r"winner of the trick = player (\d)", r"player \1 wins the trick", text)
    text = re.sub(r"\bleader = player (\d)", r"player \1 leads", text)
    text = re.sub(r"(team \d): ([^;]*?): (qualifies|does not qualify)", r"\1 \3: \2", text)
    text = re.sub(r"\border players (\d(?: -> \d)+)", lambda m: "the bidding order is players " + _then(m.group(1)), text)
    text = re.sub(r"\bplayers (\d(?: -> \d)+)", lambda m: "the play goes to players " + _then(m.group(1)), text)
    text = re.sub(r"(deal \d+ by player \d(?: played| cancelled)?) -> (player \d)", r"\1, so \2 deals next", text)
    text = re.sub(r"turned (\S+) \(([a-z]+)s\) -> trump ([a-z ]+)", r"the turned card \1 is a \2, so trump is \3", text)
    text = re.sub(r"((?:\S+\(player \d\) ?)+):", lambda m: ", ".join(
        f"{c} by player {n}" for c, n in re.findall(r"(\S+)\(player (\d)\)", m.group(1))) + ":", text)
    text = re.sub(rf"^({_NUM}) <= ({_NUM}) <= ({_NUM})$", r"\2 is between \1 and \3", text)
    text = re.sub(rf"^score ({_NUM}): lowest bid (\d+);", r"with a score of \1 the lowest bid is \2;", text)
    text = re.sub(r"(team \d) took (\d+) (>=|<) (\d+);", lambda m: f"{m.group(1)} took {m.group(2)}, which "
                  f"{_CMP_WORDS[m.group(3)]} the bid of {m.group(4)};", text)
    text = re.sub(r"\[([^\]]*)\]", lambda m: _list([x.strip() for x in m.group(1).split(",") if x.strip()]) or "none",
                  text)
    text = re.sub(r"^combined ", "the combined scores are ", text)
    text = re.sub(r"^top score ", "the top score ", text)
    text = re.sub(r"\btook (\d+) (>=|<) bid (\d+)", lambda m: f"took {m.group(1)}, which {_CMP_WORDS[m.group(2)]} the "
                                                             f"bid of {m.group(3)}", text)
    text = re.sub(rf"\b(team \d) ({_NUM} [+-] )", r"\1: \2", text)
    text = _comparisons(text)
    return text.replace(" -> ", ", then ")


__all__ = ["math_words"]
