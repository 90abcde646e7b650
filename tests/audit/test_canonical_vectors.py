"""The shared RFC 8785 vectors: the canonicalizer the ledger relies on (`rfc8785`) writes each
one exactly, and the ledger itself refuses every float, since its values are integers only."""

import json
import struct

import pytest
import rfc8785

from domain.canonical import NotCanonical, canonical
from tests.vectors import VECTORS

JCS = VECTORS["rfc8785_jcs"]


@pytest.mark.parametrize("bits", JCS["numbers_ieee754_hex_to_text"])
def test_ieee754_numbers(bits: str) -> None:
    value = struct.unpack(">d", bytes.fromhex(bits))[0]
    expected = JCS["numbers_ieee754_hex_to_text"][bits]
    if expected.startswith("INVALID"):  # NaN and Infinity have no JSON form
        with pytest.raises(rfc8785.CanonicalizationError):
            rfc8785.dumps(value)
    else:
        assert rfc8785.dumps(value) == expected.encode()
    with pytest.raises(NotCanonical):  # the ledger takes no float at all
        canonical(value)


def test_structures() -> None:
    value = json.loads(JCS["structures_input"])
    assert rfc8785.dumps(value) == JCS["structures_output"].encode()
    with pytest.raises(NotCanonical):  # it holds 56.0
        canonical(value)
    # The same structure with its one float made an integer is canonical in the ledger too.
    assert canonical(json.loads(JCS["structures_input"].replace("56.0", "56"))) == \
        JCS["structures_output"].replace("56.0", "56").encode()
