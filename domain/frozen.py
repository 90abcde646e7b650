"""A match's state as plain JSON and back, for the store's snapshots: a long match is loaded
from its latest snapshot and the entries after it, not replayed from its first entry.

A game's state is a frozen dataclass (or a pydantic model) of plain values; pydantic writes it
as JSON and reads it back to an equal value (tests/test_snapshots.py checks every game at every
entry of its seed matches).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from eventsourcing.utils import get_topic, resolve_topic
from pydantic import TypeAdapter


@cache
def _adapter(topic: str) -> TypeAdapter[Any]:
    return TypeAdapter(resolve_topic(topic))


def freeze(value: Any) -> dict[str, Any] | None:
    """A game state (or None) as {"type": topic, "value": JSON}."""
    if value is None:
        return None
    topic = get_topic(type(value))
    return {"type": topic, "value": _adapter(topic).dump_python(value, mode="json")}


def thaw(frozen: dict[str, Any] | None) -> Any:
    return None if frozen is None else _adapter(frozen["type"]).validate_python(frozen["value"])
