"""The shared RFC 8785 vectors against domain.canonical, which refuses every float by design."""

import json
import struct
from pathlib import Path

import pytest

from domain.canonical import NotCanonical, canonical

SHARED = Path(__file__).resolve().parents[2].parent / "shared"
VECTORS = json.loads((SHARED / "vectors" / "merkle-vectors.json").read_text(encoding="utf-8"))
JCS = VECTORS["rfc8785_jcs"]
FLOATS_REFUSED = "the ledger is integers-only, so RFC 8785 float formatting does not apply"


def assert_canonical_or_skip_float(value: object, expected: str) -> None:
    try:
        got = canonical(value)
    except NotCanonical as refused:
        pytest.skip(f"domain.canonical refused it ({refused}): {FLOATS_REFUSED}")
    assert got == expected.encode()


@pytest.mark.parametrize("bits", JCS["numbers_ieee754_hex_to_text"])
def test_ieee754_numbers(bits: str) -> None:
    value = struct.unpack(">d", bytes.fromhex(bits))[0]
    expected = JCS["numbers_ieee754_hex_to_text"][bits]
    if expected.startswith("INVALID"):  # NaN and Infinity have no JSON form
        with pytest.raises(NotCanonical):
            canonical(value)
    else:
        assert_canonical_or_skip_float(value, expected)


def test_structures() -> None:
    value = json.loads(JCS["structures_input"])
    assert_canonical_or_skip_float(value, JCS["structures_output"])
