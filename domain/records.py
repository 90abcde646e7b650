"""Records: what the store keeps for each log entry, and who may read what.

A record is a plain dict (so the store can transcode it):
    entry     the hashed envelope (see domain.envelope), with its "hash"
    parts     plaintext of the sealed parts, in the order of entry["seals"]; each part is
              {"audience", "kind", "actor", "at", "data", "postings"}; audience is "host" or a
              player list
    postings  season postings the entry caused (also hashed: in the entry when public, in
              its first part when sealed)
    role      "meta" (the match's own bookkeeping), "command" (an accepted command, as sent),
              "fact" (a rules event) or "padding" (an entry that holds nothing: it keeps the
              public shape of a sealed command's entries the same whatever they hide)
    batch     seq of the command entry that caused it (None for the genesis entry)
    command_id  the client's id of that command, if it gave one
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import TYPE_CHECKING, Any

from domain.audiences import HOST, PUBLIC, SYSTEM

if TYPE_CHECKING:
    from domain.decider import Event, Posting

PADDING = "padding"


def is_fact(record: dict[str, Any]) -> bool:
    """What a summary folds: the rules' facts and the match's own, not the commands as sent
    nor the padding."""
    return record["role"] in ("fact", "meta")


def padding_part() -> dict[str, Any]:
    """A sealed part that holds nothing, addressed to the host: what fills a sealed entry up to
    its SEALS commitments, and both parts of a padding entry."""
    return {"audience": HOST, "kind": "Padding", "actor": SYSTEM, "at": None, "data": {},
            "postings": []}


def padded(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A sealed entry's parts, filled up with padding parts to SEALS."""
    from domain.envelope import SEALS  # a writer's: a reader of records needs no hashing

    if not 0 < len(parts) <= SEALS:
        raise ValueError(f"a sealed entry holds 1 to {SEALS} parts, not {len(parts)}")
    return [*parts, *(padding_part() for _ in range(SEALS - len(parts)))]


def posting_dict(p: Posting) -> dict[str, Any]:
    return {"player": p.player, "asset": p.asset, "amount": p.amount, "reason": p.reason}


def audience_of(event: Event) -> str | list[str]:
    return list(event.audience) if isinstance(event.audience, tuple) else event.audience


def headline(record: dict[str, Any]) -> dict[str, Any]:
    """The record's kind, actor, time, audience and data, whether public or sealed."""
    entry = record["entry"]
    if entry["kind"] is not None:
        return {
            "kind": entry["kind"],
            "actor": entry["actor"],
            "at": entry["at"],
            "audience": PUBLIC,
            "data": entry["public"],
            "postings": entry["postings"],
        }
    sealed: dict[str, Any] = record["parts"][0]
    return sealed


def to_event(record: dict[str, Any]) -> Event:
    head = headline(record)
    return made_event(head["kind"], head["data"], head["audience"], head["actor"],
                      record["postings"])


def made_event(kind: str, data: Any, audience: str | list[str] | tuple[str, ...], actor: str,
               postings: Iterable[dict[str, Any]]) -> Event:
    """The event a fold reads, from a record's fields or a fact row's (projections.rows)."""
    event, posting = _fold_types()
    return event(kind=kind, data=data,
                 audience=audience if isinstance(audience, str) else tuple(audience),
                 actor=actor, postings=tuple(posting(**p) for p in postings))


@cache
def _fold_types() -> tuple[type[Event], type[Posting]]:
    """The rules' values, loaded by the first fold: a reader of a kept view needs none (an
    import in the function itself would cost every event half a microsecond)."""
    from domain.decider import Event, Posting

    return Event, Posting


def own_parts(record: dict[str, Any], viewer: str) -> list[int]:
    """Indexes of the sealed parts addressed to `viewer` (all of them for the host)."""
    return [i for i, part in enumerate(record["parts"])
            if viewer == HOST or (isinstance(part["audience"], list)
                                  and viewer in part["audience"])]


def may_see(record: dict[str, Any], viewer: str) -> bool:
    """The one gate every view passes through. A padding entry is nobody's to read: it holds
    nothing (the audit log still lists it, as it lists every entry)."""
    if record.get("role") == PADDING:
        return False
    if viewer == HOST:
        return True
    audience = headline(record)["audience"]
    return audience == PUBLIC or (isinstance(audience, list) and viewer in audience)


def shown(record: dict[str, Any]) -> dict[str, Any]:
    """A record as a viewer who may see it reads it: no hashes, no commitments."""
    head = headline(record)
    return {
        "seq": record["entry"]["seq"],
        "round": record["entry"]["round"],
        "kind": head["kind"],
        "actor": head["actor"],
        "at": head["at"],
        "audience": head["audience"],
        "data": head["data"],
    }
