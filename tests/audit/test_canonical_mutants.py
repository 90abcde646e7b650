"""Reading a bundle line back (audit/canonical.py): a line is accepted only as the RFC 8785
text of its value, integers within ±(2^53 − 1); the fast reader gives the same value or None,
never a value the strict reader would refuse."""

from __future__ import annotations

import json

import pytest

from audit.canonical import NotCanonical, loads, read_fast

LARGEST = 2**53 - 1


@pytest.mark.parametrize("text", [str(LARGEST), str(-LARGEST), "0", '{"a":[1,-2]}'])
def test_integers_within_the_safe_range_read_back(text: str) -> None:
    assert loads(text) == json.loads(text)
    assert read_fast(text.encode() + b"\n") == json.loads(text)


@pytest.mark.parametrize("text", [str(LARGEST + 1), str(-LARGEST - 1), "[1.5]", "1e2", "NaN",
                                  "-Infinity", '{"b":1,"a":2}', " 1", "[1, 2]", '"\\u0061"'])
def test_what_is_not_a_canonical_integers_only_line(text: str) -> None:
    with pytest.raises(NotCanonical):
        loads(text)
    assert read_fast(text.encode() + b"\n") is None


def test_the_fast_reader_wants_the_line_s_newline_and_nothing_more() -> None:
    assert read_fast(b"1\n") == 1
    assert read_fast(b"1 ") is None  # decodes to 1, whose text is the line minus its last byte
    assert read_fast(b"12") is None
    assert read_fast(b"1\n\n") is None


def test_keys_past_u_e000_go_to_the_strict_reader() -> None:
    # By code point U+E000 sorts before U+1F600; by UTF-16 code unit (D83D) after it.
    by_code_point = '{"\ue000":1,"\U0001f600":2}'
    assert read_fast(by_code_point.encode() + b"\n") is None
    with pytest.raises(NotCanonical):
        loads(by_code_point)
    by_unit = '{"\U0001f600":2,"\ue000":1}'
    assert loads(by_unit) == {"\U0001f600": 2, "\ue000": 1}
    assert read_fast(by_unit.encode() + b"\n") is None  # correct, but left to `loads`


def test_other_text_reads_fast() -> None:
    line = '{"a":"é","b":"\u4e2d"}'.encode() + b"\n"
    assert read_fast(line) == {"a": "é", "b": "\u4e2d"}
    assert read_fast(b'{"a":"\xff"}\n') is None  # not UTF-8
