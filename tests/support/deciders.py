"""Helpers the games' decider tests share."""

from __future__ import annotations

import json
from typing import Any

from domain.decider import Event


def is_plain_json(value: Any) -> bool:
    """Only what the log can hold: texts, integers, booleans, null, lists, objects."""
    if value is None or isinstance(value, str | bool | int):
        return True
    if isinstance(value, list):
        return all(is_plain_json(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and is_plain_json(v) for k, v in value.items())
    return False


def from_storage(event: Event) -> Event:
    """As the store gives it back: canonical JSON, keys sorted, tuples turned into lists."""
    data = json.loads(json.dumps(event.data, sort_keys=True))
    return Event(event.kind, data, event.audience, event.actor, event.postings)
