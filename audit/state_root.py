"""The state root: a keyed hash of a match's whole state, signed with each round's checkpoint.

Two parties who replay the same log to the end of a round must reach the same state root; the
first round where theirs differ is where a dispute is (`arbiter bisect`).

Keying: the state holds low-entropy secrets (a sealed bid is one of ten numbers, a role one of
three), so a plain hash published in a checkpoint would give them away to anyone who tries every
value. The root is HMAC-SHA256 under the match's salt key, the host secret that only the full
audit bundle reveals. Not the seed: the seed is public once the match ends, and the state keeps
secrets the rules never reveal.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
from collections.abc import Mapping
from enum import Enum
from typing import Any

from pydantic import BaseModel

from audit.canonical import NotCanonical, canonical
from domain.match import Reading, parse_salt_key

STATE_PREFIX = b"arbiter/state/v1\n"


def to_json(value: Any) -> Any:
    """A decider state (frozen dataclasses, pydantic models, tuples, sets, mappings) as a JSON
    value: objects by field name, sets sorted by their canonical text, mappings with non-text
    keys as sorted [key, value] pairs. Floats and unknown types are refused."""
    if value is None or isinstance(value, int | str):
        return value
    if isinstance(value, Enum):
        return to_json(value.value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, BaseModel):
        return {name: to_json(getattr(value, name)) for name in type(value).model_fields}
    if isinstance(value, Mapping):
        if all(isinstance(key, str) for key in value):
            return {key: to_json(item) for key, item in value.items()}
        return sorted(([to_json(k), to_json(v)] for k, v in value.items()), key=canonical)
    if isinstance(value, set | frozenset):
        return sorted((to_json(item) for item in value), key=canonical)
    if isinstance(value, list | tuple):
        return [to_json(item) for item in value]
    raise NotCanonical(f"{type(value).__name__} has no canonical form")


def match_state(match: Reading) -> dict[str, Any]:
    """What the match's next decision depends on besides its log: the game's state, the
    match's phase, the seed contributions and the voided submissions."""
    return {
        "phase": match.phase,
        "contributions": dict(match.contributions),
        "voided": sorted(match.voided),
        "game": to_json(match.state),
    }


def state_root(match: Reading) -> str:
    """HMAC-SHA256(salt key, "arbiter/state/v1\\n" + canonical state), in hex."""
    key = parse_salt_key(match.salt_key)
    return hmac.new(key, STATE_PREFIX + canonical(match_state(match)), hashlib.sha256).hexdigest()
