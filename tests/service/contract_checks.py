"""A schemathesis check of our own, loaded with SCHEMATHESIS_HOOKS by the contract test: a
request the schema calls valid is refused only by a rule, with the rule's code, never for its
shape (`invalid_input`, `invalid_json`, `too_large`)."""

from __future__ import annotations

import schemathesis

SHAPE = {"invalid_input", "invalid_json", "too_large"}


@schemathesis.check
def refused_only_by_rules(ctx, response, case):
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code < 400:
        return None
    try:
        code = response.json().get("error")
    except ValueError:
        code = None
    if code in SHAPE:
        raise AssertionError(f"a request valid by the schema was refused for its shape: "
                             f"{response.status_code} {response.text[:300]}")
    return None
