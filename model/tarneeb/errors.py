"""A small taxonomy of errors, all ``ValueError`` subclasses (as python-chess).

Every message names the input, the state it met, and the id of the clause that
decides (``rule``), so a user never needs a traceback to see what went wrong.
"""

from __future__ import annotations


class TarneebError(ValueError):
    """Base of every error this package raises on bad input."""


class CardError(TarneebError):
    """A card or suit that cannot be read."""


class SpecError(TarneebError):
    """A ruleset or spec file that is malformed: names the file and the key."""

    def __init__(self, file: str, key: str, message: str) -> None:
        self.file = file
        self.key = key
        super().__init__(f"{file}: {key}: {message}")


class ConfigError(TarneebError):
    """Options that are unknown, ill-typed, or a combination that could get stuck."""

    def __init__(self, ruleset: str, key: str, message: str) -> None:
        self.ruleset = ruleset
        self.key = key
        super().__init__(f"ruleset {ruleset}: {key}: {message}")


class IllegalAction(TarneebError):
    """An action the rules do not allow here. ``rule`` is the deciding clause id."""

    def __init__(self, action: str, seat: int | None, rule: str, reason: str, state: str) -> None:
        self.action = action
        self.seat = seat
        self.rule = rule
        self.reason = reason
        self.state = state
        who = f"seat {seat}" if seat is not None else "chance"
        super().__init__(f"illegal {action} by {who}: {reason} [rule {rule}] (state: {state})")


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
