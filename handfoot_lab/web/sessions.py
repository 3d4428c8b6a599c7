"""The tables of the browser sessions, and who may open one.

A browser session (a cookie) sits at one table.  So that strangers cannot push a game in
progress out, no table is ever dropped to make room: tables are counted per client (its
address) and in all, and a new table past either limit is refused in one line, 429 for the
client over its own share, 503 when the server is full.  A table nobody has asked about for
``Limits.idle_minutes`` is closed, and a browser that opens a new table leaves its old one.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from handfoot_lab.web.inputs import Refused


@dataclass(frozen=True)
class Limits:
    """How many tables the server keeps: in all, per client address, and how long one idles."""

    tables: int = 128
    per_client: int = 8
    idle_minutes: float = 60.0

    def __post_init__(self):
        if self.tables < 1 or self.per_client < 1 or not self.idle_minutes > 0:
            raise ValueError(
                f"table limits must be positive: tables {self.tables}, per client {self.per_client}, "
                f"idle minutes {self.idle_minutes}"
            )


DEFAULT_LIMITS = Limits()


@dataclass
class _Seat:
    table: Any
    client: str
    last_used: float


class Tables:
    """The sessions' tables under :class:`Limits`; thread-safe."""

    def __init__(self, limits: Limits = DEFAULT_LIMITS, clock: Callable[[], float] = time.monotonic):
        self.limits = limits
        self.clock = clock
        self.by_session: dict[str, _Seat] = {}
        self.opening_now: Counter[str] = Counter()  # tables being built, per client
        self.lock = threading.Lock()

    def get(self, session: str | None):
        """The table of browser session ``session`` (its idle time starts again), or 404 in words."""
        with self.lock:
            seat = self.by_session.get(session) if session else None
            if session is not None and seat is not None and self._idle(seat):
                del self.by_session[session]
                seat = None
            if seat is None:
                raise Refused(
                    "no game for this browser session: start one (a table closes after "
                    f"{self.limits.idle_minutes:g} minutes without a request, or when the server stops)",
                    404,
                )
            seat.last_used = self.clock()
            return seat.table

    def table_of(self, session: str) -> Any:
        """The table of ``session`` as it is, for tests; KeyError when there is none."""
        return self.by_session[session].table

    def __len__(self) -> int:
        return len(self.by_session)

    @contextlib.contextmanager
    def opening(self, client: str, replacing: str | None = None) -> Iterator[Callable[[Any], str]]:
        """Room for one new table of ``client``, or :class:`Refused` (429, 503) at once; the
        body builds the table and calls the yielded function with it, which seats it and
        returns its new session.  ``replacing``: the browser's current session, whose table
        the new one replaces (it is closed only once the new one is seated)."""
        with self.lock:
            self._close_idle()
            old = self.by_session.get(replacing) if replacing else None
            mine = sum(seat.client == client for seat in self.by_session.values()) + self.opening_now[client]
            total = len(self.by_session) + sum(self.opening_now.values())
            if old is not None:
                total -= 1
                mine -= old.client == client
            if mine >= self.limits.per_client:
                raise Refused(
                    f"this address has {mine} tables open, the most one address may have: finish one, or "
                    f"wait until one has been left for {self.limits.idle_minutes:g} minutes",
                    429,
                )
            if total >= self.limits.tables:
                raise Refused(
                    f"the server is full ({total} tables in play): try again in a few minutes; games in "
                    "progress are kept",
                    503,
                )
            self.opening_now[client] += 1

        def seat(table: Any) -> str:
            session = secrets.token_urlsafe(16)
            with self.lock:
                if replacing:
                    self.by_session.pop(replacing, None)
                self.by_session[session] = _Seat(table, client, self.clock())
            return session

        try:
            yield seat
        finally:
            with self.lock:
                self.opening_now[client] -= 1
                if not self.opening_now[client]:
                    del self.opening_now[client]

    def _idle(self, seat: _Seat) -> bool:
        return self.clock() - seat.last_used > self.limits.idle_minutes * 60

    def _close_idle(self) -> None:
        for session in [session for session, seat in self.by_session.items() if self._idle(seat)]:
            del self.by_session[session]


__all__ = ["DEFAULT_LIMITS", "Limits", "Tables"]
