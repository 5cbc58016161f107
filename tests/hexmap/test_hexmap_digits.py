"""The one reader of digit text (``hexmap.digits``): ASCII digits 0-9 only, at most
``max_digits`` of them, checked before ``int()``; and a reach read through it
(issue 23: a reach of 5,000 digits raised a bare ValueError, not a reach error)."""

from __future__ import annotations

import pytest

from hexmap import (
    MAX_DIGITS,
    MAX_REACH,
    HexmapError,
    Reach,
    is_digits,
    parse_digits,
    parse_signed_digits,
)


@pytest.mark.parametrize(("text", "value"), [("0", 0), ("7", 7), ("042", 42), ("9" * 9, 10**9 - 1)])
def test_ascii_digits_are_read(text: str, value: int) -> None:
    assert is_digits(text)
    assert parse_digits(text) == value


@pytest.mark.parametrize(
    "text",
    [
        "",
        "²",  # isdigit() passes it, int() refuses it
        "1²",
        "٣",  # Arabic-Indic three: int() would take it
        "１",  # a full-width one
        "+1",
        "-1",
        " 1",
        "1 ",
        "1_000",
        "1.0",
    ],
)
def test_anything_but_ascii_digits_is_no_number(text: str) -> None:
    assert not is_digits(text)
    assert parse_digits(text) is None


def test_more_digits_than_allowed_are_no_number_and_never_converted() -> None:
    assert parse_digits("1" * (MAX_DIGITS + 1)) is None
    assert parse_digits("1" * 5000) is None  # int() would refuse it (over 4,300 digits)
    assert parse_digits("123", max_digits=2) is None
    assert parse_digits("12", max_digits=2) == 12


def test_a_sign_is_read_in_front_of_the_digits() -> None:
    assert parse_signed_digits("+3") == 3
    assert parse_signed_digits("-12") == -12
    assert parse_signed_digits("7") == 7
    for text in ("", "+", "-", "--1", "+-1", "-²", "+" + "1" * 5000):
        assert parse_signed_digits(text) is None


def test_a_reach_of_thousands_of_digits_is_a_reach_error_of_one_short_line() -> None:
    text = "1" * 5000
    with pytest.raises(HexmapError) as caught:
        Reach.parse(text)
    message = str(caught.value)
    assert f"a distance of 5,000 digits is beyond {MAX_REACH}" in message
    assert len(message) < 200 and "\n" not in message
    with pytest.raises(HexmapError, match=f"beyond {MAX_REACH}"):
        Reach.parse(f"C-{text}")


@pytest.mark.parametrize("text", ["²", "1-²", "٣", "C,١"])
def test_a_reach_in_other_digits_is_refused(text: str) -> None:
    with pytest.raises(HexmapError, match="neither C nor a distance"):
        Reach.parse(text)


def test_reach_text_still_reads_as_before() -> None:
    assert Reach.parse("C-1") == Reach.of(0, 1)
    assert Reach.parse(" 1 , 3 - 4 ") == Reach.of(1, 3, 4)
    assert Reach.parse("007") == Reach.of(7)
    with pytest.raises(HexmapError, match="100 is beyond 99"):
        Reach.parse("100")
