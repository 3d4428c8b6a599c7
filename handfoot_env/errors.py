"""Errors raised to users: each names what was wrong in words, never a deep traceback; and
the one-line wording of any exception for such messages."""

from __future__ import annotations


def first_line(exc: BaseException) -> str:
    """An exception in a few words for a one-line message (its name when it has no text)."""
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


class IllegalActionError(ValueError):
    """An action that the rules do not allow now.  The game state is left untouched.

    ``game``: the game of a batch it was played in (where the engine knows it); ``agent``: who
    played it, in words, where an agent at a table did (``Seating.play``), not the caller."""

    def __init__(self, action: int, description: str, reason: str, game: int | None = None, agent: str | None = None):
        self.action, self.description, self.reason = action, description, reason
        self.game, self.agent = game, agent
        message = f"illegal action {action} ({description}): {reason}"
        super().__init__(message if agent is None else f"{agent} played an {message}")

    def __reduce__(self):  # pickled whole (Ray workers), not from the message alone
        return (IllegalActionError, (self.action, self.description, self.reason, self.game, self.agent))


class RecordError(ValueError):
    """A game record that is truncated, corrupt or does not match its replay."""


class ScenarioError(ValueError):
    """A hand-written position that cannot be set up."""
