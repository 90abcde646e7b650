"""The ledger's canonical JSON is RFC 8785 for every value it accepts."""

from __future__ import annotations

import pytest
import rfc8785
from hypothesis import given
from hypothesis import strategies as st

from domain.canonical import MAX_SAFE_INTEGER, NotCanonical, canonical

texts = st.text(alphabet=st.characters(codec="utf-8"), max_size=6)
values = st.recursive(
    st.none() | st.booleans() | st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER) | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=20,
)


@given(values)
def test_canonical_is_rfc8785(value):
    assert canonical(value) == rfc8785.dumps(value)


def test_keys_sort_by_utf16_code_units():
    # By code point U+FF61 comes first; by UTF-16 code unit (D83D DE00) the emoji does.
    value = {"\U0001f600": 1, "\uff61": 2}
    assert canonical(value) == rfc8785.dumps(value)
    assert canonical(value).index("\U0001f600".encode()) < canonical(value).index("\uff61".encode())


@pytest.mark.parametrize("value", [1.5, float("nan"), 2**53, -(2**53), {1: 2}, {"a": {1, 2}}])
def test_what_the_ledger_refuses(value):
    with pytest.raises(NotCanonical):
        canonical(value)
