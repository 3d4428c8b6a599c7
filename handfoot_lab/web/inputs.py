"""What a request may bring to the web table, read strictly, and how it is refused.

Every refusal is :class:`Refused`: an HTTP status and one line of words, never longer than
:data:`MAX_ERROR` characters however much input it quotes.  A request body is JSON of bounded
size whose numbers are ordinary ones: an integer of more than :data:`MAX_DIGITS` digits, a
number too large for a float (``1e400``) and ``NaN`` / ``Infinity`` are refused while the body
is parsed, so that nothing later has to guess what a huge or infinite number means.
"""

from __future__ import annotations

import json
import math
import reprlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from starlette.requests import Request

MAX_ERROR = 240  # characters of an error line
MAX_DIGITS = 25  # of an integer in a body or a query (a seed needs 19)
BODY_LIMIT = 64 * 1024  # bytes of a request body (a new game's settings need a few hundred)

_QUOTE = reprlib.Repr()  # Python 3.11's Repr takes its limits as attributes
_QUOTE.maxstring = _QUOTE.maxother = _QUOTE.maxlong = 40
_QUOTE.maxlist = _QUOTE.maxdict = _QUOTE.maxtuple = _QUOTE.maxset = 6
_QUOTE.maxlevel = 3


class Refused(Exception):
    """A request the table cannot honour; ``status`` is the HTTP status to answer with, and the
    message is cut to one line of at most :data:`MAX_ERROR` characters."""

    def __init__(self, message: str, status: int = 400):
        super().__init__(one_line(message))
        self.status = status


def one_line(text: str, limit: int = MAX_ERROR) -> str:
    """``text`` on one line (whitespace runs made one space), cut to ``limit`` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quoted(value: Any) -> str:
    """``repr(value)`` shortened (``reprlib``): how much of the input an error may quote."""
    return _QUOTE.repr(value)


class _BadNumber(ValueError):
    pass


def _whole_number(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _BadNumber(f"a number in the request body has more than {MAX_DIGITS} digits")
    return int(text)


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise _BadNumber(f"a number in the request body is too large: {one_line(text, 30)}")
    return number


def _no_constant(name: str) -> None:
    raise _BadNumber(f"{name} is not a number a request may hold")


def parse_json(raw: bytes) -> dict[str, Any]:
    """The JSON object of a request body (an empty body is ``{}``), numbers checked."""
    try:
        data = json.loads(raw or b"{}", parse_int=_whole_number, parse_float=_finite, parse_constant=_no_constant)
    except _BadNumber as exc:
        raise Refused(str(exc)) from None
    except (ValueError, RecursionError):  # a JSONDecodeError, text that is not UTF-8, deep nesting
        raise Refused("the request body is not valid JSON (or nests too deeply)") from None
    if not isinstance(data, dict):
        raise Refused("the request body must be a JSON object")
    return data


async def read_body(request: Request, limit: int = BODY_LIMIT) -> dict[str, Any]:
    """The request's JSON object, refused (413) past ``limit`` bytes without reading further."""
    declared = request.headers.get("content-length", "")
    too_large = Refused(f"the request body is over {limit // 1024} KB, the most this request takes", 413)
    if declared.isascii() and declared.isdigit() and (len(declared) > 12 or int(declared) > limit):
        raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return parse_json(b"".join(chunks))


def small_whole_number(value: Any, what: str, most_digits: int = 3) -> int | None:
    """``value`` (an int, or its digits as text: a query or a form sends text) as an int, None
    when it is absent or empty; refused in words otherwise, its length checked before any
    conversion (Python refuses to convert more than 4,300 digits)."""
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= most_digits:
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 10**most_digits:
        return value
    raise Refused(f"{what} must be a whole number of at most {most_digits} digits, got {quoted(value)}")


__all__ = ["BODY_LIMIT", "MAX_DIGITS", "MAX_ERROR", "Refused", "one_line", "parse_json", "quoted", "read_body"]
