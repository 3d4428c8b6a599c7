"""The one-line wording of an exception in users' messages."""

from handfoot_env.errors import first_line


def test_first_line_keeps_the_first_line_of_the_text() -> None:
    assert first_line(ValueError("bad header\nat byte 12\n")) == "bad header"


def test_first_line_skips_leading_blank_lines() -> None:
    assert first_line(RuntimeError("\n  \nconnection refused\nretrying")) == "connection refused"


def test_first_line_names_an_exception_without_text() -> None:
    assert first_line(EOFError()) == "EOFError"
    assert first_line(ConnectionError("   ")) == "ConnectionError"
