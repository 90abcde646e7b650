"""A player's inbox: what they alone (with the host) were told, and a receipt for each of
their commands, rebuilt from the log (docs/audit.md, Receipts)."""

from __future__ import annotations

from typing import Any

from domain.decider import PUBLIC
from domain.envelope import salt
from domain.match import Reading, parse_salt_key
from domain.records import headline, may_see, own_parts, shown


def sender(record: dict[str, Any], players: list[str]) -> str | None:
    """The player whose own command this entry is, if any."""
    actor = headline(record)["actor"]
    return actor if record["role"] == "command" and actor in players else None


def receipt(match: Reading, seq: int, actor: str) -> dict[str, Any]:
    """The entry of a command, with the salt and plaintext of each sealed part addressed to
    `actor`: the object `arbiter match submit --json` prints under "receipt"."""
    record = match.records[seq - 1]
    own = own_parts(record, actor)
    key = parse_salt_key(match.salt_key)
    return {"match": match.match_id, "seq": seq, "hash": record["entry"]["hash"],
            "entry": record["entry"],
            "salts": {str(i): salt(key, seq, i).hex() for i in own},
            "parts": {str(i): record["parts"][i] for i in own}}


def inbox(match: Reading, player: str) -> dict[str, Any]:
    return {
        "match": match.match_id,
        "player": player,
        "told": [shown(r) for r in match.records
                 if may_see(r, player) and not may_see(r, PUBLIC)],
        "receipts": [receipt(match, r["entry"]["seq"], player) for r in match.records
                     if sender(r, match.players) == player],
    }
