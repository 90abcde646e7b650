"""`arbiter verify` of a season bundle: the season log checked offline, every standing
recomputed, every match entry it rests on checked against that match's signed checkpoint.

One pass over the lines, stopping at the first failure with its stable code (docs/audit.md):
the header; each match's signed checkpoints (signature, origin, consistency); each season entry
(canonical, hash, seq, chain, envelope) re-run through the season's own rules
(domain.season.Season), which must append that very entry; each citation (the match entry, its
inclusion proof under the match's signed checkpoint, and what the season took from it); each
season checkpoint (signature, origin, consistency, root, the public standings it signs, the
match checkpoints it names). A full bundle also opens every sealed entry and re-runs it; a
public one re-runs what the public sees, which is every standing but garnets.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from hashlib import sha256
from typing import Any

from audit.bundle import b64
from audit.canonical import EVENT_PREFIX, commitment, entry_bytes, salt
from audit.errors import AuditError
from audit.merkle import TreeBuilder, leaf_hash, verify_consistency, verify_inclusion
from audit.notes import (
    VerifierKey,
)
from audit.season_bundle import (
    CHECKPOINT,
    CITED,
    ENTRY,
    FULL,
    HEADER,
    MATCH_CHECKPOINTS,
    OPENING,
    SeasonHeader,
    citation,
    kind_of,
)
from audit.season_signing import parse_season_extensions, standings_hash
from audit.verify import (
    _check_part,
    _parse,
    _unb64_hash,
    lines_found,
    read_header,
    signed_by,
    signed_checkpoint,
)
from audit.witness import Seen, check_not_rolled_back, check_seen
from domain.decider import PUBLIC
from domain.envelope import GENESIS_PREV, SEASON_PREFIX, VERSION
from domain.errors import RuleViolation
from domain.origins import match_origin
from domain.season import Season, ending, public_standings, season_headline

ENVELOPE = frozenset({"v", "season", "seq", "prev", "kind", "actor", "at", "public", "seals",
                      "hash"})
SEASON_PART = frozenset({"audience", "kind", "actor", "at", "data"})
BLIND_KEY = "00" * 32  # a public bundle's reader has no salt key; public entries need none


@dataclass
class SeasonAudit:
    """What a season bundle was found to hold, once every check passed."""

    header: SeasonHeader
    signer: VerifierKey | None = None
    pinned: bool = False
    key_source: str | None = None  # how the key was chosen, as the command line says it
    entries: int = 0
    opened: int = 0
    cited: int = 0
    uncovered: int = 0
    match_notes: int = 0
    checkpoints: list[int] = field(default_factory=list)
    signed_root: bytes | None = None  # the last checkpoint's Merkle root
    signed_note: str | None = None  # the last checkpoint's note, with any cosignature lines
    season: Season | None = None

    @property
    def rebuilt(self) -> Season:
        """The season its entries rebuilt (verify sets it before it returns)."""
        if self.season is None:
            raise AssertionError("not verified yet")
        return self.season

    def title(self) -> str:
        h = self.header
        return (f"{h.kind} bundle of season {h.season} ({h.origin}): "
                f"{len(self.rebuilt.players)} players, {len(h.matches)} matches")

    def findings(self) -> list[tuple[str, str]]:
        """What was checked and what it showed, as (what, finding) pairs."""
        h = self.header
        found = lines_found(h.kind, self.entries, self.opened)
        found.append(("matches", f"{self.match_notes} signed match checkpoints, each "
                      "extending the one before"))
        covered = f"{self.cited - self.uncovered} under their match's signed checkpoint"
        if self.uncovered:
            covered += f", {self.uncovered} after their match's last checkpoint (not yet signed)"
        found.append(("citations", f"{self.cited} match entries the season rests on: "
                      f"{covered}"))
        if self.checkpoints:
            found.append(("checkpoints", f"{len(self.checkpoints)}, each extending the one "
                          "before and signing the standings recomputed here; the last covers "
                          f"{self.checkpoints[-1]} of {self.entries} entries"))
            found.append(signed_by(self.signer, self.key_source, self.pinned))
        else:
            found.append(("checkpoints", "none: nothing in this bundle is signed"))
        seen = "every entry" if h.kind == FULL else "every public entry (garnets are sealed)"
        found.append(("rules", f"re-ran {seen} through the season's rules"))
        return found

    def standings(self) -> list[dict[str, Any]]:
        """Each player's standing as the bundle's entries recompute it (garnets only from a
        full bundle)."""
        season = self.rebuilt
        rows = []
        for row in public_standings(season)["players"]:
            player = row["player"]
            status = "out" if not row["in"] else "in" if season.champion is None else \
                "champion" if player == season.champion else "runner_up"
            left_in = season.out[player]["match"] or "a ruling" if status == "out" else None
            rows.append({"player": player, "status": status, "left_in": left_in,
                         **{a: row[a] for a in ("tol", "opal", "moe", "ec")},
                         **({"garnets": season.balances[player]["garnets"]}
                            if self.header.kind == FULL else {})})
        return rows

    def report(self) -> list[str]:
        """One screen: what was checked and what it showed, and each standing recomputed."""
        standings = []
        for row in self.standings():
            state = f"out ({row['left_in']})" if row["status"] == "out" else row["status"]
            garnets = f" garnets {row['garnets']}" if "garnets" in row else ""
            standings.append(f"standing     {row['player']}: {state}, ToL {row['tol']} Opal "
                             f"{row['opal']} MoE {row['moe']} EC {row['ec']}{garnets}")
        return [self.title(), *(f"{what:<12} {finding}" for what, finding in self.findings()),
                *standings, "verified"]


def verify_season(stream: Iterable[bytes], key: VerifierKey | None = None,
                  seen: Seen | None = None) -> SeasonAudit:
    """Verify the season bundle whose lines `stream` yields; AuditError at the first failure.
    `seen` is the largest checkpoint of this season verified before (audit.witness)."""
    return _SeasonVerifier(key, seen).run(stream)


class _SeasonVerifier:
    def __init__(self, key: VerifierKey | None, seen: Seen | None = None) -> None:
        self.seen = seen
        self.trusted = key
        self.keys: list[VerifierKey] = [key] if key else []
        self.audit: SeasonAudit | None = None
        self.line = 0
        self.size = 0
        self.prev = GENESIS_PREV
        self.tree = TreeBuilder()
        self.pending: dict[str, Any] | None = None  # a sealed entry awaiting its opening
        self.citing: dict[str, Any] | None = None  # an entry awaiting its cited line
        self.salt_key = b""
        self.season: Season | None = None
        self.matches: dict[str, dict[int, bytes]] = {}  # each match's signed sizes and roots
        self.previous: tuple[int, bytes] | None = None  # the last season checkpoint

    def run(self, stream: Iterable[bytes]) -> SeasonAudit:
        try:
            for raw in stream:
                self.line += 1
                self._line(_parse(raw, self.size))
            self._finish()
        except AuditError as error:
            error.line = error.line or self.line or None
            raise
        return self.started

    @property
    def started(self) -> SeasonAudit:
        """The audit the header began: every line after the first has one."""
        if self.audit is None:
            raise AssertionError("no header read yet")
        return self.audit

    @property
    def folded(self) -> Season:
        """The season its entries rebuild, from entry 1 on."""
        if self.season is None:
            raise AssertionError("no entry read yet")
        return self.season

    def _line(self, value: Any) -> None:
        if self.audit is None:
            self._header(value)
            return
        kind = kind_of(value)
        if self.pending is not None and kind != OPENING:
            raise AuditError("missing_opening", "a full bundle opens each sealed entry on the "
                             "line after it", self.pending["seq"])
        if self.citing is not None and kind != CITED:
            raise AuditError("missing_citation", "an entry that rests on a match entry is "
                             "followed by it and its proof", self.citing["entry"]["seq"])
        if kind == MATCH_CHECKPOINTS:
            self._match_checkpoints(value[MATCH_CHECKPOINTS])
            return
        if kind in (ENTRY, OPENING, CHECKPOINT, CITED) and \
                len(self.matches) < len(self.started.header.matches):
            raise AuditError("unexpected_line", "the matches' checkpoints come first, one line "
                             "per match the header names", self.size or None)
        if kind == ENTRY:
            self._entry(value)
        elif kind == OPENING:
            self._opening(value[OPENING])
        elif kind == CITED:
            self._cited(value[CITED])
        elif kind == CHECKPOINT:
            self._checkpoint(value[CHECKPOINT])
        elif kind == HEADER:
            raise AuditError("unexpected_line", "a second header", self.size or None)
        else:
            raise AuditError("malformed_line", "none of header, match checkpoints, entry, "
                             "opening, cited or checkpoint", self.size or None)

    # -- the header and the matches' checkpoints --------------------------------------------

    def _header(self, value: Any) -> None:
        if kind_of(value) != HEADER:
            raise AuditError("malformed_header", "the first line must be the header")
        header, signer = read_header(SeasonHeader, value[HEADER])
        self.keys = self.keys or ([signer] if signer else [])
        self.audit = SeasonAudit(header, signer=self.keys[0] if self.keys else None,
                                 pinned=self.trusted is not None)
        if header.salt_key is not None:  # a full bundle's (the header's validator)
            self.salt_key = bytes.fromhex(header.salt_key)

    def _match_checkpoints(self, m: Any) -> None:
        names = self.started.header.matches
        if self.size or len(self.matches) == len(names):
            raise AuditError("unexpected_line", "match checkpoints after the entries began, or "
                             "for more matches than the header names", self.size or None)
        expected = names[len(self.matches)]
        if not (isinstance(m, dict) and m.keys() == {"match", "notes"} and
                m["match"] == expected and isinstance(m["notes"], list)):
            raise AuditError("malformed_checkpoint", f"expected the checkpoints of {expected!r}: "
                             "{match, notes}")
        signed: dict[int, bytes] = {}
        previous: tuple[int, bytes] | None = None
        origin = match_origin(self.started.header.prefix, expected)
        for n in m["notes"]:
            if not (isinstance(n, dict) and n.keys() == {"note", "consistency"} and
                    isinstance(n["note"], str) and isinstance(n["consistency"], list)):
                raise AuditError("malformed_checkpoint", f"a checkpoint of {expected} is "
                                 "{note, consistency}")
            checkpoint = signed_checkpoint(n["note"], self.keys, origin, None)
            proof = [_unb64_hash(h, None) for h in n["consistency"]]
            if (previous is None and proof) or (previous is not None and not verify_consistency(
                    previous[0], checkpoint.size, previous[1], checkpoint.root, proof)):
                raise AuditError("inconsistent_checkpoints", f"a checkpoint of {expected} does "
                                 "not extend the one before")
            signed[checkpoint.size] = checkpoint.root
            previous = (checkpoint.size, checkpoint.root)
        self.started.match_notes += len(signed)
        self.matches[expected] = signed

    # -- entries ----------------------------------------------------------------------------

    def _entry(self, e: dict[str, Any]) -> None:
        seq = self.size + 1
        if e.keys() != ENVELOPE:
            raise AuditError("malformed_entry", f"a season entry has exactly the fields "
                             f"{sorted(ENVELOPE)}", seq)
        if sha256(SEASON_PREFIX + entry_bytes(e)).hexdigest() != e["hash"]:
            raise AuditError("bad_hash", "the hash is not SHA-256 of the entry's canonical "
                             "text with the season prefix", seq)
        if e["seq"] != seq or type(e["seq"]) is not int:
            raise AuditError("bad_seq", f"found seq {e['seq']!r} where seq {seq} is due: an "
                             "entry was dropped, inserted or moved", seq)
        if e["prev"] != self.prev:
            raise AuditError("broken_chain", "prev is not the hash of the entry before", seq)
        if seq > self.started.header.entries:
            raise AuditError("unexpected_line", f"the header announces "
                             f"{self.started.header.entries} entries", seq)
        self._check_envelope(e, seq)
        self.tree.append(entry_bytes(e))
        self.prev, self.size = e["hash"], seq
        if self.seen is not None and seq == self.seen.size:
            check_seen(self.seen, self.tree.root(), seq)
        if e["kind"] is None and self.started.header.kind == FULL:
            self.pending = e
        else:
            self._rerun(e, [])

    def _check_envelope(self, e: dict[str, Any], seq: int) -> None:
        seals = e["seals"]
        if e["v"] != VERSION or e["season"] != self.started.header.season or \
                type(seals) is not list or not all(type(s) is str and len(s) == 64
                                                   for s in seals):
            raise AuditError("malformed_entry", f"needs v {VERSION}, season "
                             f"{self.started.header.season!r} and hex commitments", seq)
        if e["kind"] is None:
            shaped = e["actor"] is None and e["at"] is None and e["public"] is None and \
                len(seals) == 1
        else:
            shaped = type(e["kind"]) is str and type(e["actor"]) is str and \
                (e["at"] is None or type(e["at"]) is str) and type(e["public"]) is dict and \
                not seals
        if not shaped:
            raise AuditError("malformed_entry", "a sealed entry shows only its commitment; a "
                             "public one its kind, actor, time and data", seq)

    def _opening(self, o: Any) -> None:
        e = self.pending
        if e is None:
            raise AuditError("unexpected_line", "an opening that follows no sealed entry of a "
                             "full bundle", self.size or None)
        seq = e["seq"]
        if not isinstance(o, dict) or o.keys() != {"seq", "parts", "salts"} or o["seq"] != seq:
            raise AuditError("missing_opening", "the line after a sealed entry must be its "
                             "opening: {seq, parts, salts}", seq)
        parts, salts = o["parts"], o["salts"]
        if not (isinstance(parts, list) and isinstance(salts, list)
                and len(parts) == len(salts) == len(e["seals"])):
            raise AuditError("bad_opening", "an opening has one part and one salt per seal", seq)
        for i, (part, given) in enumerate(zip(parts, salts, strict=True)):
            if given != salt(self.salt_key, seq, i).hex():
                raise AuditError("bad_salt", f"salt {i} is not HMAC-SHA256 of the salt key "
                                 f"over '{seq}|{i}'", seq)
            if not (isinstance(part, dict) and part.keys() == SEASON_PART and
                    isinstance(part["data"], dict)):
                raise AuditError("bad_opening", f"part {i} is not {{audience, kind, actor, at, "
                                 "data}", seq)
            if commitment(bytes.fromhex(given), part) != e["seals"][i]:
                raise AuditError("bad_opening", f"part {i} does not open its commitment", seq)
        self.started.opened += len(parts)
        self.pending = None
        self._rerun(e, parts)

    # -- the season's rules, entry by entry -------------------------------------------------

    def _rerun(self, e: dict[str, Any], parts: list[dict[str, Any]]) -> None:
        """The season's rules must append exactly this entry."""
        seq = e["seq"]
        record = {"entry": e, "parts": parts}
        head = season_headline(record)
        try:
            if seq == 1:
                self._start(e)
            elif head is None:  # sealed, and this reader may not open it
                self.folded._appended(record=record)
            else:
                self._decide(head)
        except AuditError:
            raise
        except RuleViolation as error:
            raise AuditError("rerun_refused", f"the season's rules refuse {head and head['kind']}: "
                             f"{error.code}: {error.message}", seq) from None
        except (KeyError, TypeError, AttributeError, ValueError) as error:
            raise AuditError("malformed_entry", f"{head and head['kind']} with data the rules "
                             f"cannot read: {error}", seq) from None
        ours = self.folded.records[-1]["entry"]
        if self.folded.version != seq or ours["hash"] != e["hash"]:
            raise AuditError("rerun_mismatch", f"the season's rules do not give this entry: "
                             f"{head and head['kind']} by {head and head['actor']}", seq)
        if citation(record) is not None and (e["kind"] is not None or parts):
            self.citing = record

    def _start(self, e: dict[str, Any]) -> None:
        h = self.started.header
        if e["kind"] != "SeasonStarted":
            raise AuditError("rerun_mismatch", "entry 1 must be SeasonStarted", 1)
        self.season = Season.start(name=h.season, origin_prefix=h.prefix,
                                   salt_key=h.salt_key or BLIND_KEY, at=e["at"])
        self.season.garnets_seen = h.kind == FULL

    def _decide(self, head: dict[str, Any]) -> None:
        s, d, at = self.folded, head["data"], head["at"]
        kind = head["kind"]
        if kind == "PlayerRegistered":
            s.register(d["player"], at=at)
        elif kind == "Granted":
            s.grant(d["player"], d["asset"], d["amount"], d["reason"], at=at)
        elif kind == "Transferred":
            s.transfer(d["giver"], d["receiver"], d["amount"], d["reason"], at=at)
        elif kind == "MatchAdded":
            s.add_match(d["match"], d["game"], d["kind"], d["players"], d["genesis"],
                        from_match=d["from"], ec=d["ec"], dmo=d["dmo"], at=at)
        elif kind == "Posted":
            s.post(d["match"], d["seq"], d["postings"], head["audience"], at=at)
        elif kind == "MatchFinished":
            s.finish_match(d["match"], d["seq"], abandoned=d["abandoned"], outcome=d["outcome"],
                           winners=d["winners"], loser=d["loser"], dmo=d["dmo"], at=at)
        elif kind == "DmoRecorded":
            s.record_dmo(d["match"], d["dmo"], d["reason"], ec=d["ec"], at=at)
        elif kind == "Eliminated":
            s.eliminate(d["player"], d["match"], at=at)
        elif kind == "Ruled":
            s.rule(d["player"], d["reason"], changes=d["changes"], status=d["status"], at=at)
        elif kind == "SeasonWon":
            s.crown(d["player"], d["match"], at=at)
        elif kind == "WitnessKeyRegistered":
            s.register_witness(d["player"], d["key"], at=at)
        else:
            raise AuditError("rerun_mismatch", f"the season's rules know no {kind!r}",
                             self.size)

    # -- citations --------------------------------------------------------------------------

    def _cited(self, c: Any) -> None:
        record, self.citing = self.citing, None
        if record is None:
            raise AuditError("unexpected_line", "a citation that follows no entry resting on a "
                             "match entry", self.size or None)
        seq = record["entry"]["seq"]
        head, found = season_headline(record), citation(record)
        assert head is not None and found is not None  # _rerun waits only for such an entry
        match_id, cited = found
        if not (isinstance(c, dict) and c.keys() == {"seq", "match", "entry", "proof", "size",
                                                     "opening"}
                and c["seq"] == seq and c["match"] == match_id and isinstance(c["entry"], dict)
                and isinstance(c["proof"], list) and
                (c["size"] is None or type(c["size"]) is int)):
            raise AuditError("malformed_citation", "a citation is {seq, match, entry, proof, "
                             "size, opening} for the entry before it", seq)
        entry = c["entry"]
        try:
            hashed = entry.get("hash") == sha256(EVENT_PREFIX + entry_bytes(entry)).hexdigest()
        except (TypeError, ValueError):
            hashed = False
        if not hashed or entry.get("match") != match_id or entry.get("seq") != cited:
            raise AuditError("malformed_citation", f"the cited entry is not entry {cited} of "
                             f"{match_id} with its hash", seq)
        self._check_included(c, match_id, cited, seq)
        self._check_cited(head, entry, c["opening"], seq)
        self.started.cited += 1

    def _check_included(self, c: dict[str, Any], match_id: str, cited: int, seq: int) -> None:
        signed = self.matches.get(match_id, {})
        if c["size"] is None:
            if c["proof"] or any(size >= cited for size in signed):
                raise AuditError("malformed_citation", f"{match_id} has a signed checkpoint "
                                 f"covering entry {cited}: the citation proves it", seq)
            self.started.uncovered += 1
            return
        proof = [_unb64_hash(h, seq) for h in c["proof"]]
        if c["size"] not in signed or not verify_inclusion(
                cited - 1, c["size"], leaf_hash(entry_bytes(c["entry"])), proof,
                signed[c["size"]]):
            raise AuditError("not_in_match_log", f"entry {cited} of {match_id} as cited is not "
                             f"in the log its signed checkpoint of size {c['size']} covers", seq)

    def _check_cited(self, head: dict[str, Any], entry: dict[str, Any], opening: Any,
                     seq: int) -> None:
        """What the season took from the match entry is what the entry says."""
        kind, data = head["kind"], head["data"]
        if kind == "MatchAdded":
            created = entry.get("public") or {}
            agrees = entry.get("kind") == "MatchCreated" and entry["hash"] == data["genesis"] \
                and created.get("players") == data["players"] and \
                created.get("game") == data["game"] and \
                created.get("season") == self.started.header.season
        elif kind == "Posted":
            agrees = self._postings_of(entry, opening, head, seq) == data["postings"]
        else:
            found = self.folded.matches[data["match"]]
            agrees = entry.get("kind") in ("MatchEnded", "MatchAbandoned") and \
                isinstance(entry.get("public"), dict) and \
                _ending(found, entry) == \
                {k: data[k] for k in ("abandoned", "outcome", "winners", "loser", "dmo")}
        if not agrees:
            raise AuditError("citation_mismatch", f"the season's {kind} disagrees with entry "
                             f"{entry.get('seq')} of {data['match']}", seq)

    def _postings_of(self, entry: dict[str, Any], opening: Any, head: dict[str, Any],
                     seq: int) -> Any:
        """A public match entry's postings, or a sealed one's from its opened part (whose
        audience must be the season entry's)."""
        if entry.get("kind") is not None:
            return entry.get("postings") if head["audience"] == PUBLIC else None
        if not (isinstance(opening, dict) and opening.keys() == {"part", "salt"} and
                isinstance(opening["salt"], str) and len(opening["salt"]) == 64):
            raise AuditError("malformed_citation", "a sealed match entry is cited with its "
                             "part and salt", seq)
        _check_part(opening["part"], seq, 0)
        try:
            opens = commitment(bytes.fromhex(opening["salt"]), opening["part"]) == \
                (entry.get("seals") or [None])[0]
        except ValueError:
            opens = False
        if not opens:
            raise AuditError("not_in_match_log", "the cited part does not open the match "
                             "entry's commitment", seq)
        part = opening["part"]
        return part["postings"] if part["audience"] == head["audience"] else None

    # -- season checkpoints -----------------------------------------------------------------

    def _checkpoint(self, c: Any) -> None:
        seq = self.size or None
        if not isinstance(c, dict) or c.keys() != {"note", "consistency"} or \
                not isinstance(c["note"], str) or not isinstance(c["consistency"], list):
            raise AuditError("malformed_checkpoint", "a checkpoint line is {note, consistency}",
                             seq)
        announced = self.started.header.checkpoints
        if announced is not None and len(self.started.checkpoints) >= announced:
            raise AuditError("unexpected_line", f"the header announces {announced} "
                             "checkpoints", seq)
        checkpoint = signed_checkpoint(c["note"], self.keys, self.started.header.origin, seq)
        close = parse_season_extensions(checkpoint.extensions)
        if checkpoint.size != self.size or not self.size:  # none before entry 1 (size 0)
            raise AuditError("checkpoint_misplaced", f"a checkpoint of size {checkpoint.size} "
                             f"must follow entry {checkpoint.size}, not entry {self.size}", seq)
        proof = [_unb64_hash(h, seq) for h in c["consistency"]]
        previous = self.previous
        consistent = verify_consistency(previous[0], checkpoint.size, previous[1],
                                        checkpoint.root, proof) if previous else not proof
        if not consistent:
            raise AuditError("inconsistent_checkpoints", "the checkpoint does not extend the "
                             f"one before (size {previous[0] if previous else 0})", seq)
        if checkpoint.root != self.tree.root():
            raise AuditError("root_mismatch", "the signed root is not the Merkle root of the "
                             f"first {checkpoint.size} entries", seq)
        if close.standings != standings_hash(public_standings(self.folded)):
            raise AuditError("standings_mismatch", "the signed standings are not the ones the "
                             "season's entries add up to", seq)
        for mark in close.matches:
            root = self.matches.get(mark.match, {}).get(mark.size)
            if mark.match not in self.folded.matches or root is None or \
                    b64(root) != mark.root:
                raise AuditError("unknown_match_checkpoint", f"the checkpoint names a "
                                 f"checkpoint of {mark.match} (size {mark.size}) the host did "
                                 "not sign", seq)
        self.previous = (checkpoint.size, checkpoint.root)
        self.started.checkpoints.append(checkpoint.size)
        self.started.signed_root = checkpoint.root
        self.started.signed_note = c["note"]

    # -- the end ----------------------------------------------------------------------------

    def _finish(self) -> None:
        if self.audit is None:
            raise AuditError("malformed_header", "the bundle is empty")
        expected = self.audit.header.entries
        if self.pending is not None or self.citing is not None or self.size < expected:
            raise AuditError("truncated", f"the bundle ends after {self.size} of the "
                             f"{expected} entries its header announces, or before an opening "
                             "or a citation", self.size + 1 if self.size < expected else
                             self.size)
        announced, held = self.audit.header.checkpoints, len(self.audit.checkpoints)
        if announced is not None and held < announced:
            raise AuditError("missing_checkpoint", f"the header announces {announced} "
                             f"checkpoints, the bundle holds {held}: the last were cut",
                             self.size)
        if self.seen is not None:
            check_not_rolled_back(self.seen, held and self.audit.checkpoints[-1], self.size)
        self.audit.entries = self.size
        self.audit.season = self.season


def _ending(found: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any] | None:
    """What the season takes from a cited match end, or None when the rules cannot read it
    (e.g. a MatchEnded without its results): a disagreement, never a crash."""
    try:
        return ending(found["game"], found["players"], entry["kind"], entry["public"])
    except (KeyError, TypeError, AttributeError):
        return None
