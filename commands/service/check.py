"""`arbiter check`: the store proves itself.

Every stored event of every aggregate is read back and folded through the checks every load
makes (commands.store.stored: no missing event, each entry hashing to its hash, following the one
before and opening its commitments, each row authenticated by the store cipher); then each
match is exported in full, in memory, with its signed checkpoints and verified as an auditor
would (audit.verify: every checkpoint's signature, size and Merkle root against the log as
stored, every command re-run through the rules, every signed state root), each stored snapshot
is compared with the match replayed to it, and each season is verified the same way
(audit.season_verify: every entry re-run through the season's rules, so every balance is
re-derived from its history, every standing its checkpoints signed, every match entry it cites
under that match's signed checkpoint), and every posting its matches made is found in it.

The first failure is the answer, as a stable code: `missing_entry`, `forged_entry`,
`forged_snapshot`, `posting_mismatch`, or the code `arbiter verify` gives (docs/audit.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

from eventsourcing.domain import Snapshot

from audit.bundle import FULL, export
from audit.errors import AuditError
from audit.merkle import TreeBuilder
from audit.notes import NoteError, VerifierKey, parse_checkpoint, parse_note, verify_note
from audit.season_verify import verify_season
from audit.verify import note_failure, verify
from domain.checkpoints import MatchCheckpoints, SeasonCheckpoints
from domain.envelope import entry_bytes
from domain.errors import RuleViolation
from domain.frozen import thaw
from domain.integrity import ADVICE, admit, checked
from domain.match import Match
from domain.season import Season, season_headline

if TYPE_CHECKING:
    from commands.service.arbiter import Arbiter

FAILURES = ("missing_entry", "forged_entry")  # what a load of the store itself finds
THAWED = ("state", "window_state")  # a frozen match's game states


class StoreFault(Exception):
    """What `arbiter check` finds wrong with the store: a stable code and one line."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass
class StoreCheck:
    """What the store was found to hold, once every check passed."""

    matches: int = 0
    entries: int = 0
    seasons: int = 0
    season_entries: int = 0
    match_checkpoints: int = 0
    season_checkpoints: int = 0
    snapshots: int = 0
    postings: int = 0
    others: int = 0
    signer: str | None = None
    unsigned: list[str] = field(default_factory=list)
    encrypted: bool = False

    def findings(self) -> list[tuple[str, str]]:
        found = [
            ("matches", f"{self.matches}, {self.entries} entries: each hashes, follows the one "
                        "before and opens its commitments; every command re-run by the rules"),
            ("checkpoints", f"{self.match_checkpoints} of matches, {self.season_checkpoints} of "
                            "seasons: each signs its log as stored (size and Merkle root)"),
            ("seasons", f"{self.seasons}, {self.season_entries} entries: every balance "
                        f"re-derived from the log; the {self.postings} postings of its "
                        "matches all applied"),
            ("snapshots", f"{self.snapshots}, each the match replayed to it"),
            ("other", f"{self.others} aggregates, none missing an event"),
        ]
        found.append(("at rest", "every event, snapshot and view row encrypted with the "
                      "store key, each authenticated as it was read" if self.encrypted else
                      "in the clear: a reader of the database reads every secret in it "
                      "(`arbiter store encrypt`)"))
        if self.signer:
            found.append(("signed by", self.signer))
        if self.unsigned:
            found.append(("unsigned", f"{len(self.unsigned)} matches created unsigned: "
                                      f"{', '.join(self.unsigned)}"))
        return found


def check_store(app: Arbiter, key: VerifierKey | None) -> StoreCheck:
    """Check every aggregate of `app`'s store; StoreFault at the first failure. `key` is the
    host's verifier key, which must have signed every stored checkpoint."""
    report = StoreCheck(signer=str(key) if key else None,
                        encrypted=bool(getattr(app.mapper.cipher, "sealed", False)))
    kinds = stored_aggregates(app)
    names: dict[str, dict[UUID, Any]] = {"Match": {}, "Season": {}}
    try:
        for aggregate_id, kind in kinds.items():
            aggregate = _folded(app, aggregate_id)
            if kind in names:
                names[kind][aggregate_id] = aggregate
            else:
                report.others += kind not in ("MatchCheckpoints", "SeasonCheckpoints")
        for match in names["Match"].values():
            _check_match(app, match, key, report)
        for season in names["Season"].values():
            _check_season(app, season, key, report)
        for aggregate_id, kind in kinds.items():
            _check_owned(app, aggregate_id, kind, kinds)
    except RuleViolation as error:
        if error.code not in FAILURES:
            raise
        raise StoreFault(error.code, error.message.replace(f" ({ADVICE})", "")
                         .replace(f"; {ADVICE}", "")) from None
    return report


def stored_aggregates(app: Arbiter) -> dict[UUID, str]:
    """Every aggregate of the store, in the order it began, with its class's name: from the
    store's index, a step per aggregate, not from every stored event."""
    return {aggregate_id: topic.partition(":")[2].partition(".")[0]
            for aggregate_id, topic in app.stored_versions.logs()}


def _folded(app: Arbiter, aggregate_id: UUID) -> Any:
    """The aggregate from every one of its stored events (never a snapshot), each admitted."""
    return checked(None, app.repository.event_store.get(aggregate_id))


def _check_match(app: Arbiter, match: Match, key: VerifierKey | None,
                 report: StoreCheck) -> None:
    name = f"match {match.match_id}"
    checkpoints = _checkpoints(app, MatchCheckpoints.create_id(match.match_id))
    notes = [n["note"] for n in checkpoints.notes] if checkpoints else []
    _check_covered(name, [n["size"] for n in checkpoints.notes] if checkpoints else [],
                   match.version)
    _check_signed(name, notes, match.records, key)
    _check_snapshots(app, match, report)
    origin = checkpoints.origin if checkpoints else None
    lines = export(match, notes, FULL, str(key) if key else None, origin)
    _judged(name, lambda: verify((line.encode() for line in lines), key))
    report.matches += 1
    report.entries += match.version
    report.match_checkpoints += len(notes)
    if match.unsigned:
        report.unsigned.append(match.match_id)


def _check_season(app: Arbiter, season: Season, key: VerifierKey | None,
                  report: StoreCheck) -> None:
    name = f"season {season.name}"
    checkpoints = _checkpoints(app, SeasonCheckpoints.create_id(season.name))
    notes = [n["note"] for n in checkpoints.notes] if checkpoints else []
    _check_covered(name, [n["size"] for n in checkpoints.notes] if checkpoints else [],
                   season.version)
    _check_signed(name, notes, season.records, key)
    for match_id in season.matches:
        if Match.create_id(match_id) not in app.repository:
            raise StoreFault("missing_entry", f"{name} names match {match_id}, of which the "
                             f"store holds no entry")
        report.postings += _check_postings(app, season, match_id)
    matches = {m: app.match(m) for m in season.matches}
    match_notes = {m: [n["note"] for n in app.checkpoints(m).notes] for m in matches}
    from audit.season_bundle import export_season

    lines = export_season(season, notes, matches, match_notes, FULL, str(key) if key else None)
    _judged(name, lambda: verify_season((line.encode() for line in lines), key))
    report.seasons += 1
    report.season_entries += season.version
    report.season_checkpoints += len(notes)


def _checkpoints(app: Arbiter, aggregate_id: UUID) -> Any:
    """The log's checkpoints aggregate, or None (a store from before they were kept)."""
    return _folded(app, aggregate_id)


def _check_covered(name: str, sizes: list[int], version: int) -> None:
    """Every signed checkpoint covers entries the store holds, each more than the last."""
    last = 0
    for size in sizes:
        if size <= last:
            raise StoreFault("forged_entry", f"{name}: a signed checkpoint of {size} entries "
                             f"follows one of {last}")
        last = size
    if last > version:
        raise StoreFault("missing_entry", f"{name}: entry {version + 1} is missing from the "
                         f"store (a signed checkpoint covers {last} entries, the store holds "
                         f"{version})")


def _check_signed(name: str, notes: list[str], records: list[dict[str, Any]],
                  key: VerifierKey | None) -> None:
    """Each stored checkpoint is signed by the host's key and signs the log as stored: its
    first `size` entries have the Merkle root it signs."""
    if notes and key is None:
        raise AuditError("no_host_key", f"{name} has signed checkpoints: give the host's key "
                         "(its key file, or --key VKEY) to check them")
    tree = TreeBuilder()
    keys = [] if key is None else [key]  # no notes without a key (above)
    for note in notes:
        try:
            verify_note(note, keys)
            signed = parse_checkpoint(parse_note(note).text)
        except NoteError as error:
            raise StoreFault(note_failure(error, None).code, f"{name}: a stored checkpoint: "
                             f"{error.message}") from None
        held = tree.size  # the entries every checkpoint so far signs as stored
        while tree.size < signed.size:
            tree.append(entry_bytes(records[tree.size]["entry"]))
        if tree.root() != signed.root:
            raise StoreFault("root_mismatch", f"{name}: entries {held + 1} to {signed.size} "
                             f"as stored are not what the signed checkpoint of {signed.size} "
                             "entries signs: one was changed and the hashes after it "
                             "recomputed")


def _check_snapshots(app: Arbiter, match: Match, report: StoreCheck) -> None:
    """Each stored snapshot is the match replayed to its version, as plain JSON."""
    snapshots = {s.originator_version: s for s in _snapshots(app, match.id)}
    if not snapshots:
        return
    transcoder = app.mapper.transcoder
    replayed: Match | None = None
    for event in app.repository.event_store.get(match.id, lte=max(snapshots)):
        replayed = admit(replayed, event)
        stored = snapshots.get(replayed.version)
        if stored is not None and not _same_state(
                transcoder.decode(transcoder.encode(replayed.frozen())), stored.state):
            raise StoreFault("forged_snapshot", f"match {match.match_id}: the stored snapshot "
                             f"at entry {replayed.version} is not the match replayed to it")
    report.snapshots += len(snapshots)


def _same_state(replayed: dict[str, Any], stored: dict[str, Any]) -> bool:
    """Two frozen matches alike: game states compared as values (a set's JSON order is not
    the same in every process), everything else as JSON."""
    if replayed.keys() != stored.keys():
        return False
    try:
        return all(thaw(replayed[k]) == thaw(stored[k]) if k in THAWED else
                   replayed[k] == stored[k] for k in replayed)
    except (ValueError, TypeError, KeyError):  # a stored state that does not even read back
        return False


def _snapshots(app: Arbiter, aggregate_id: UUID) -> Iterator[Snapshot]:
    if app.snapshots is None:
        return iter(())
    return cast("Iterator[Snapshot]", app.snapshots.get(aggregate_id))  # holds only those


def _check_postings(app: Arbiter, season: Season, match_id: str) -> int:
    """Every posting a match entry made is in the season's log, and nothing else."""
    made = {r["entry"]["seq"]: r["postings"] for r in app.match(match_id).records
            if r["postings"]}
    applied = {}
    for record in season.records:
        head = season_headline(record)
        if head and head["kind"] == "Posted" and head["data"]["match"] == match_id:
            applied[head["data"]["seq"]] = head["data"]["postings"]
    for seq in sorted(made.keys() | applied.keys()):
        if made.get(seq) != applied.get(seq):
            raise StoreFault("posting_mismatch", f"season {season.name}: entry {seq} of match "
                             f"{match_id} posted {made.get(seq) or 'nothing'}, the season "
                             f"applied {applied.get(seq) or 'nothing'}")
    return len(made)


def _check_owned(app: Arbiter, aggregate_id: UUID, kind: str, kinds: dict[UUID, str]) -> None:
    """The checkpoints of a match or a season whose log the store no longer holds."""
    if kind not in ("MatchCheckpoints", "SeasonCheckpoints"):
        return
    checkpoints = _folded(app, aggregate_id)
    owner, name = (Match.create_id(checkpoints.match_id), f"match {checkpoints.match_id}") \
        if kind == "MatchCheckpoints" else \
        (Season.create_id(checkpoints.season), f"season {checkpoints.season}")
    if owner not in kinds:
        raise StoreFault("missing_entry", f"{name}: its signed checkpoints are stored, none of "
                         f"its entries")


def _judged(name: str, run: Any) -> None:
    """An auditor's verdict on a log as stored: a failure names the log."""
    try:
        run()
    except AuditError as error:
        if error.code == "no_host_key":
            raise AuditError("no_host_key", f"{name} has signed checkpoints: give the host's "
                             "key (its key file, or --key VKEY) to check them") from None
        where = f": entry {error.seq}" if error.seq is not None else ""
        raise StoreFault(error.code, f"{name}{where}: {error.detail}") from None
