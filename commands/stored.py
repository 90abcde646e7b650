"""What the store hands back is checked before anything uses it.

The repository folds every stored event through `domain.integrity.admit` (no missing event,
every entry hashing, chaining and opening its commitments), and the mapper names a row the
store cipher does not authenticate (commands.sealing) or that no longer parses. So no command
extends, and no view shows, a log that was changed outside Arbiter; `arbiter check`
(commands.check) goes further, against the signed checkpoints and the rules.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.application import Repository
from eventsourcing.persistence import Mapper, MapperDeserialisationError, StoredEvent

from domain.errors import RuleViolation
from domain.integrity import UnreadableRow, checked


class CheckedMapper(Mapper):
    """The library's mapper, saying which stored event it could not read, and why."""

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        from commands.sealing import SealError

        try:
            return super().to_domain_event(stored_event)
        except MapperDeserialisationError as error:
            cause = error.__cause__
            if isinstance(cause, SealError) and cause.code != "forged_entry":
                raise RuleViolation(cause.code, cause.why) from None  # the key, not a row
            why = cause.why if isinstance(cause, SealError) else \
                "cannot be read back: its stored bytes were changed"
            raise UnreadableRow(stored_event.originator_version, why) from None


class CheckedRepository(Repository):
    """The library's repository, folding every stored event through `admit`."""

    def get(self, aggregate_id: Any, *, projector_func: Any = checked, **options: Any) -> Any:
        return super().get(aggregate_id, projector_func=projector_func, **options)

