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

import json
from collections.abc import Callable, Sequence
from typing import Any


class TarneebError(Exception):
    """Base of every error this package raises."""


# ------------------------------------------------------------------ bad input


class BadInput(TarneebError, ValueError):
    """Input that cannot be used: a file, a field, a text. The message says where."""


class CardError(BadInput):
    """A card or suit that cannot be read."""


class ActionError(BadInput):
    """An action text that cannot be read."""


class SpecError(BadInput):
    """A ruleset or spec file that is malformed: names the file and the key."""

    def __init__(self, file: str, key: str, message: str) -> None:
        self.file = file
        self.key = key
        self.reason = message
        super().__init__(f"{file}: {key}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.file, self.key, self.reason)


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
        super().__init__(f"{file}: {' / '.join(fields)}: {message}")

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.file, self.fields, self.message)


class SheetError(BadInput):
    """A score sheet file that cannot be used (not JSON, another format or version, a field of the wrong shape, a
    ruleset that cannot be loaded): names the file and the field."""

    def __init__(self, file: str, field: str, message: str) -> None:
        self.file = file
        self.field = field
        self.message = message
        super().__init__(f"{file}: {field}: {message}")

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
    "ActionError", "BadInput", "CardError", "ConfigError", "DocsBuildError", "EngineError", "EngineFailure",
    "EngineRejected", "IllegalAction", "IllegalBid", "IllegalDeal", "IllegalPlay", "IllegalTrump", "SheetError",
    "SituationError", "SpecError", "TarneebError", "WrongPhase",
]
