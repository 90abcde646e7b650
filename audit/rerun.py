"""Re-running a match from its full bundle.

The same Match aggregate the service runs is configured from the opened setup and fed every
recorded command, with the garnet balances its context part recorded, so each entry it appends
can be compared with the bundle's, hash for hash: the random setup, every default and every
published result are re-derived rather than trusted. There is one implementation of the rules.
"""

from __future__ import annotations

from typing import Any

from audit.bundle import Header
from audit.errors import AuditError
from audit.state_root import state_root
from domain.decider import Command
from domain.errors import RuleViolation
from domain.match import Match
from domain.records import headline


def _record(entry: dict[str, Any], parts: list[dict[str, Any]]) -> dict[str, Any]:
    return {"entry": entry, "parts": parts}


def _describe(record: dict[str, Any]) -> str:
    head = headline(record)
    return f"{head['kind']} by {head['actor']}"


class Rerun:
    """Feed it the bundle's entries in order (with their opened parts); it keeps the rebuilt
    match in `match` and raises AuditError at the first entry the rules do not reproduce."""

    def __init__(self, header: Header) -> None:
        self.header = header
        self.match: Match | None = None
        self._genesis: dict[str, Any] | None = None

    @property
    def configured(self) -> Match:
        """The rebuilt match, once entry 2 configured it."""
        assert self.match is not None, "entry 2 configures the match"
        return self.match

    def state_root(self) -> str:
        """The state root of the rebuilt match as it stands (audit.state_root)."""
        return state_root(self.configured)

    def step(self, entry: dict[str, Any], parts: list[dict[str, Any]]) -> None:
        seq = entry["seq"]
        if seq == 1:
            self._genesis = entry
            return
        if self.match is None:
            genesis = self._genesis
            assert genesis is not None  # entry 1 came first: verify checks every seq
            self._configure(entry, parts, genesis["at"])
            self._compare(genesis, [])
        elif seq > self.match.version:
            self._run(entry, parts)
        self._compare(entry, parts)

    def finish(self, size: int) -> None:
        """At the end of the bundle: the rules must not go on past its last entry."""
        if self.match is not None and self.match.version > size:
            extra = self.match.records[size]
            raise AuditError("rerun_mismatch", f"the rules go on with {_describe(extra)}, "
                             "which the log does not hold", size + 1)

    def _configure(self, entry: dict[str, Any], parts: list[dict[str, Any]],
                   at: str | None) -> None:
        head = headline(_record(entry, parts)) if parts else {}
        data = head.get("data")
        if head.get("kind") != "SetupCommitted" or not isinstance(data, dict) or \
                set(data) != {"setup", "host_seed", "garnets"} or \
                not isinstance(data["setup"], dict) or not isinstance(data["garnets"], dict):
            raise AuditError("rerun_mismatch", "entry 2 must be the sealed SetupCommitted", 2)
        if data["host_seed"] != self.header.host_seed:
            raise AuditError("seed_mismatch", "the sealed setup's host seed is not the header's",
                             2)
        try:
            self.match = Match.configure(
                match_id=self.header.match, season=self.header.season,
                game_id=self.header.game, setup=data["setup"], host_seed=data["host_seed"],
                salt_key=self.header.secrets()[1], garnets=data["garnets"],
                at=at, allow_weak_seed=bool(self.header.weak_seed),
                unsigned=bool(self.header.unsigned))
        except RuleViolation as error:
            raise AuditError("rerun_refused", f"the rules refuse the setup: {error}", 2) from None

    def _run(self, entry: dict[str, Any], parts: list[dict[str, Any]]) -> None:
        seq = entry["seq"]
        record = _record(entry, parts)
        head = headline(record)
        if head["kind"] != "CommandAccepted":
            raise AuditError("rerun_mismatch", "the rules have appended nothing more, yet the "
                             f"log holds {_describe(record)}", seq)
        sent, context = head["data"], parts[-1]["data"]
        if not (isinstance(sent, dict) and set(sent) == {"name", "args"}
                and isinstance(sent["name"], str) and isinstance(sent["args"], dict)
                and isinstance(context, dict) and isinstance(context.get("garnets"), dict)):
            raise AuditError("malformed_entry", "a command entry needs its name, args and "
                             "the garnets of its context", seq)
        command = Command(sent["name"], head["actor"], sent["args"], context["garnets"])
        try:
            self.configured.handle(command, at=head["at"])
        except RuleViolation as error:
            raise AuditError("rerun_refused", f"the rules refuse {command.actor}'s "
                             f"{command.name}: {error.code}: {error.message}", seq) from None

    def _compare(self, entry: dict[str, Any], parts: list[dict[str, Any]]) -> None:
        seq = entry["seq"]
        ours = self.configured.records[seq - 1]
        if ours["entry"]["hash"] != entry["hash"]:
            raise AuditError("rerun_mismatch", f"the rules give {_describe(ours)}, the log "
                             f"holds {_describe(_record(entry, parts))}", seq)
