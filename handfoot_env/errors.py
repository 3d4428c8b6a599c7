"""Errors raised to users: each names what was wrong in words, never a deep traceback."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that the rules do not allow now.  The game state is left untouched."""

    def __init__(self, action: int, description: str, reason: str):
        self.action = action
        self.reason = reason
        super().__init__(f"illegal action {action} ({description}): {reason}")


class RecordError(ValueError):
    """A game record that is truncated, corrupt or does not match its replay."""


class ScenarioError(ValueError):
    """A hand-written position that cannot be set up."""
