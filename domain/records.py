"""Records: what the store keeps for each log entry, and who may read what.

A record is a plain dict (so the store can transcode it):
    entry     the hashed envelope (see domain.envelope), with its "hash"
    parts     plaintext of the sealed parts, in the order of entry["seals"]; each part is
              {"audience", "kind", "actor", "at", "data", "postings"}; audience is "host" or a
              player list
    postings  season postings the entry caused (also hashed: in the entry when public, in
              its first part when sealed)
    role      "meta" (the match's own bookkeeping), "command" (an accepted command, as sent)
              or "fact" (a rules event)
    batch     seq of the command entry that caused it (None for the genesis entry)
    command_id  the client's id of that command, if it gave one
"""

from __future__ import annotations

from typing import Any

from domain.decider import HOST, PUBLIC, Event, Posting


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
    return record["parts"][0]


def to_event(record: dict[str, Any]) -> Event:
    head = headline(record)
    audience = head["audience"]
    return Event(
        kind=head["kind"],
        data=head["data"],
        audience=audience if isinstance(audience, str) else tuple(audience),
        actor=head["actor"],
        postings=tuple(Posting(**p) for p in record["postings"]),
    )


def own_parts(record: dict[str, Any], viewer: str) -> list[int]:
    """Indexes of the sealed parts addressed to `viewer` (all of them for the host)."""
    return [i for i, part in enumerate(record["parts"])
            if viewer == HOST or (isinstance(part["audience"], list)
                                  and viewer in part["audience"])]


def may_see(record: dict[str, Any], viewer: str) -> bool:
    """The one gate every view passes through."""
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
