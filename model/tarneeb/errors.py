"""Every exception the package raises, in one taxonomy (as python-chess keeps rule errors apart from I/O errors).

::

    TarneebError                      base: ``except TarneebError`` catches everything below
    +-- BadInput (also ValueError)    input that cannot be used; the message names its location
    |   +-- CardError                 a card or suit that cannot be read
    |   +-- ActionError               an action text that cannot be read
    |   +-- SpecError                 a spec file: names the file and the key
    |   +-- ConfigError               options unknown, ill-typed, or a combination that could get stuck
    |   +-- SituationError            a dispute situation: names the file and the fields
    |   +-- SheetError                a score sheet that cannot be used: names the file and the field
    |   +-- DocsBuildError            a generated page that cannot be built honestly
    +-- IllegalAction (also ValueError)   a rule violation: names the action, seat, state and deciding clause
    |   +-- IllegalBid, IllegalPlay, IllegalTrump, IllegalDeal, WrongPhase
    +-- EngineError                   another engine, spoken to over the line protocol, misbehaved
        +-- EngineFailure             timed out, crashed, went silent or wrote garbage (``kind`` says which)
        +-- EngineRejected            answered ``{"ok": false}`` to a request

Every message names the input, the state it met and, for a rule, the id of the clause that decides
(``rule``), so a user never needs a traceback. Engine errors are not ``ValueError``: the input we sent was
fine, the other side failed.
"""

from __future__ import annotations

import difflib
import errno
import json
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

# ------------------------------------------------------------------ the words of every error message
# One place each for what every message does alike: suggest the name meant (did_you_mean), shorten what it
# echoes of the input (shorten), and say what went wrong with a file (file_error, os_error_words).

SHORTEN_AT = 80  # characters of echoed input kept whole; a longer value is cut in the middle


def shorten(value: object, limit: int = SHORTEN_AT) -> str:
    """``value`` as an error echoes it: whole when short, else its start and end with the length between
    (``123456...(4,299 characters)...789``), so that a message stays a line however long the input was."""
    text = str(value)
    if len(text) <= limit:
        return text
    keep = max(limit // 2 - 10, 4)
    return f"{text[:keep]}...({len(text):,} characters)...{text[-keep:]}"


def echo(value: object) -> str:
    """A value of the input as an error message quotes it, in words rather than Python's: a text in quotes (cut
    when long, :func:`shorten`, a path aside), ``true``/``false``, ``nothing`` for a missing value, ``the list 1, 2``, ``a table of
    id, options``; a number as it is."""
    if isinstance(value, str):  # a path is never cut (as shorten_words): the file named must stay findable
        return "'" + (value if "/" in value else shorten(value)) + "'"
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return shorten(value)
    if isinstance(value, list | tuple):
        return "the list " + shorten(", ".join(echo(x) for x in value)) if value else "an empty list"
    if isinstance(value, dict):
        return "a table of " + shorten(", ".join(str(k) for k in value)) if value else "an empty table"
    return shorten(value)


_LONG_WORD = re.compile(r"[^\s,;:'\"()\[\]]{" + str(SHORTEN_AT + 1) + ",}")  # a value, without the punctuation around it


def shorten_words(message: str) -> str:
    """Every run of more than :data:`SHORTEN_AT` characters without a space in ``message`` shortened
    (:func:`shorten`), a path aside (it has a ``/``: the file a message names is never cut): the error classes
    below pass what they are given through it."""
    return _LONG_WORD.sub(lambda m: m.group(0) if "/" in m.group(0) else shorten(m.group(0)), message)


def close_names(word: str, choices: Iterable[str], aliases: Mapping[str, str] | None = None) -> list[str]:
    """The names of ``choices`` close to ``word`` (a misspelling), best first, at most three; ``aliases``
    maps other words people use to the name they mean (``who-wins`` -> ``winner``)."""
    names = list(dict.fromkeys(choices))
    aliases = dict(aliases or {})
    key = word.strip().lower()
    lowered = {n.lower(): n for n in names}
    for a, n in aliases.items():
        lowered.setdefault(a, n)
    scored = sorted(((difflib.SequenceMatcher(None, key, k).ratio(), k) for k in lowered), key=lambda rk: (-rk[0], rk[1]))
    best = scored[0][0] if scored else 0.0
    found = [k for r, k in scored if r >= 0.6 and r >= best - 0.05]  # only those nearly as close as the closest
    return list(dict.fromkeys(lowered[f] for f in found))[:3]


def did_you_mean(word: str, choices: Iterable[str], aliases: Mapping[str, str] | None = None) -> str:
    """``"; did you mean classic?"`` (or ``"; did you mean who-leads or whose-turn?"``) for a misspelt name,
    ``""`` when nothing is close: the one suggestion every message about an unknown name adds."""
    close = close_names(word, choices, aliases)
    if not close:
        return ""
    return "; did you mean " + (close[0] if len(close) == 1 else ", ".join(close[:-1]) + " or " + close[-1]) + "?"


_OS_WORDS = {
    errno.ENOENT: "there is no such file",
    errno.EACCES: "permission denied",
    errno.EPERM: "permission denied",
    errno.EISDIR: "it is a folder, not a file",
    errno.ENOTDIR: "a part of the path is not a folder",
    errno.ENOSPC: "the disk is full",
    errno.EROFS: "the file system is read-only",
    errno.ENAMETOOLONG: "the name is too long",
}


def os_error_words(e: BaseException) -> str:
    """What an operating-system or decoding error says, in words: never ``[Errno 2]``, never the path again
    (the message names the file itself)."""
    if isinstance(e, UnicodeDecodeError):
        return f"not UTF-8 text (byte {e.start + 1} cannot be read)"
    if isinstance(e, OSError):
        if e.errno in _OS_WORDS:
            return _OS_WORDS[e.errno]
        if e.strerror:
            return e.strerror[0].lower() + e.strerror[1:]
        return shorten_words(str(e.args[0]) if e.args else type(e).__name__)
    return shorten_words(str(e))


def file_error(file: str, reason: str, line: int | None = None, field: str | None = None) -> str:
    """One error about a file as every command words it: ``FILE: REASON`` for the file as a whole,
    ``FILE:LINE: FIELD: REASON`` for a place in it (``line`` counted from 1; none, or 0, is the whole file)."""
    where = file if not line else f"{file}:{line}"
    return f"{where}: {field}: {reason}" if field else f"{where}: {reason}"


class TarneebError(Exception):
    """Base of every error this package raises."""


# ------------------------------------------------------------------ bad input


class BadInput(TarneebError, ValueError):
    """Input that cannot be used: a file, a field, a text. The message says where; a long value it echoes is
    shortened (:func:`shorten_words`), however the message was built."""

    def __str__(self) -> str:
        return shorten_words(super().__str__())


class CardError(BadInput):
    """A card or suit that cannot be read."""


class ActionError(BadInput):
    """An action text that cannot be read."""


class SpecError(BadInput):
    """A ruleset or spec file that is malformed: names the file and the key (and, where it is known, the line of
    the file it is on, from 1)."""

    def __init__(self, file: str, key: str, message: str, line: int | None = None) -> None:
        self.file = file
        self.key = key
        self.reason = message
        self.line = line
        super().__init__(file_error(file, message, line, field=None if key == "(file)" else key))

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.file, self.key, self.reason, self.line)


class ConfigError(BadInput):
    """Options that are unknown, ill-typed, or a combination that could get stuck."""

    def __init__(self, ruleset: str, key: str, message: str) -> None:
        self.ruleset = ruleset
        self.key = key
        self.reason = message
        super().__init__(f"ruleset {ruleset}: {key}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.ruleset, self.key, self.reason)


class SituationError(BadInput):
    """A situation that is malformed, contradictory or incomplete; names the file and the fields."""

    def __init__(self, file: str, fields: Sequence[str], message: str) -> None:
        self.file = file
        self.fields = tuple(fields)
        self.message = message
        named = [f for f in self.fields if f != "(file)"]  # "(file)": the file as a whole, no field to name
        super().__init__(file_error(file, message, field=" / ".join(named) or None))

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.file, self.fields, self.message)


class SheetError(BadInput):
    """A score sheet file that cannot be used (not JSON, another format or version, a field of the wrong shape, a
    ruleset that cannot be loaded): names the file and the field."""

    def __init__(self, file: str, field: str, message: str) -> None:
        self.file = file
        self.field = field
        self.message = message
        super().__init__(file_error(file, message, field=field or None))

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.file, self.field, self.message)


class DocsBuildError(BadInput):
    """A generated page cannot be built honestly (e.g. an example the engine contradicts)."""


# ------------------------------------------------------------------ rule violations


class IllegalAction(TarneebError, ValueError):
    """An action the rules do not allow here. ``rule`` is the deciding clause id. ``state`` (the state in words) may
    be given as a function that says it, called when the message is first read: a caller that only needs the rule
    (a bot or a test trying actions) does not pay for the words."""

    def __init__(self, action: str, seat: int | None, rule: str, reason: str, state: str | Callable[[], str]) -> None:
        self.action = action
        self.seat = seat
        self.rule = rule
        self.reason = reason
        self._state = state
        super().__init__(action, seat, rule, reason)

    @property
    def state(self) -> str:
        """The state in words, as the message quotes it."""
        if not isinstance(self._state, str):
            self._state = self._state()
        return self._state

    @state.setter
    def state(self, words: str) -> None:
        self._state = words

    def __str__(self) -> str:
        # players counted 1 to 4 as in every human text, with the seat (0..3) the data holds; anything else as given
        seat = self.seat
        who = "chance" if seat is None else f"player {seat + 1} (seat {seat})" if 0 <= seat < 4 else f"seat {seat}"
        return f"illegal {self.action} by {who}: {self.reason} [rule {self.rule}] (state: {self.state})"

    def __reduce__(self) -> tuple[Any, ...]:  # whole through pickle (a proof worker's result, a Dask task)
        return type(self), (self.action, self.seat, self.rule, self.reason, self.state)


class IllegalBid(IllegalAction):
    pass


class IllegalPlay(IllegalAction):
    pass


class IllegalTrump(IllegalAction):
    pass


class IllegalDeal(IllegalAction):
    pass


class WrongPhase(IllegalAction):
    """An action of the wrong kind for the phase (a card during bidding, ...)."""


# ------------------------------------------------------------------ other engines


class EngineError(TarneebError):
    """Another engine, spoken to over the line protocol (``spec/protocol/``), misbehaved."""


class EngineFailure(EngineError):
    """The engine timed out, crashed, went silent or wrote garbage; ``kind`` says which."""

    def __init__(self, kind: str, command: str, message: str) -> None:
        self.kind = kind
        self.command = command
        self.message = message
        super().__init__(f"engine {command!r}: {kind}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.kind, self.command, self.message)


class EngineRejected(EngineError):
    """The engine answered ``{"ok": false, ...}`` to a request."""

    def __init__(self, request: dict[str, Any], error: str) -> None:
        self.request = request
        self.error = error
        super().__init__(f"the engine refused {json.dumps(request)[:200]}: {error}")

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.request, self.error)


__all__ = [
    "SHORTEN_AT", "close_names", "did_you_mean", "echo", "file_error", "os_error_words", "shorten", "shorten_words",
    "ActionError", "BadInput", "CardError", "ConfigError", "DocsBuildError", "EngineError", "EngineFailure",
    "EngineRejected", "IllegalAction", "IllegalBid", "IllegalDeal", "IllegalPlay", "IllegalTrump", "SheetError",
    "SituationError", "SpecError", "TarneebError", "WrongPhase",
]
