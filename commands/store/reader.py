"""What a command that only reads opens (`arbiter view`, `arbiter checkpoint`): the view tables
of a store on a connection of the command's own, with neither the event-sourcing library nor
the rules. The command opens the service only where the log must be read past the tables
(commands.service.reading).

An SQLite file is read by commands.store.sqlite_reader, a PostgreSQL database by
commands.store.postgres_reader: each store's driver is loaded for that store alone
(docs/architecture.md, "What a command loads").
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from uuid import UUID

from projections.reader import ViewsReader


class StoreReader(ViewsReader, ABC):
    """The view tables of a store on a connection of a command's own, with what a command asks
    the store's logs beside them."""

    @abstractmethod
    def stored_versions(self, ids: Sequence[UUID]) -> list[int]:
        """The store's version of each log (0 for none)."""

    @abstractmethod
    def store_kind(self) -> str | None:
        """How the store keeps its events (commands.store.sealing.store_kind)."""

    @abstractmethod
    def close(self) -> None:
        """Close the connection."""


def versions_query(table: str, logs: int, placeholder: str = "?") -> str:
    """One statement asking the store's version of each of `logs` logs (NULL for none): what a
    writer asks with its lock (commands.store.stored.StoredVersions) and a reader here."""
    latest = f"(SELECT MAX(originator_version) FROM {table} WHERE originator_id = {placeholder})"
    return "SELECT " + ", ".join(f"{latest} AS v{i}" for i in range(logs))
