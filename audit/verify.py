"""`arbiter verify`: check an audit bundle offline, with no database and no network.

One pass over the lines, in order, stopping at the first failure with its stable code
(docs/audit.md): every line canonical, every entry's hash and chain link, the header against
the genesis entry, every checkpoint's signature, its consistency proof from the one before and
its root against the entries themselves; in a full bundle also every salt and opening, the seed,
and the match re-run through its rules entry by entry, with each round's signed state root.

Memory stays flat as a bundle grows: lines are read in chunks, the Merkle root is kept as one
subtree root per bit of the size (audit.merkle.TreeBuilder), and per round only a few hashes are
kept. The exception is the re-run of a full bundle, which holds the match in memory as the
service itself does.

Speed: the ordinary entries of a public bundle, nearly all its lines, take a hot path
(`_Verifier._ordinary`) that makes the same checks with as little Python per line as it can;
every other line, and any line that fails there, goes the general way, which says what fails.
"""

from __future__ import annotations

import base64
import binascii
import gc
import json
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from hashlib import sha256
from itertools import islice
from typing import TYPE_CHECKING, Any, TypeVar

from audit.bundle import (
    CHECKPOINT,
    ENTRY,
    FULL,
    GENESIS_FLAGS,
    HEADER,
    OPENED,
    OPENING,
    Header,
    kind_of,
)
from audit.canonical import (
    EVENT_PREFIX,
    NotCanonical,
    commitment,
    entry_bytes,
    loads,
    read_fast,
    read_public_entry,
    salt,
)
from audit.errors import AuditError
from audit.headers import HeaderError, Strict
from audit.merkle import HASH_SIZE, TreeBuilder, leaf_hash, verify_consistency, verify_inclusion
from audit.notes import (
    Checkpoint,
    Note,
    NoteError,
    VerifierKey,
    parse_checkpoint,
    parse_note,
    parse_verifier_key,
    verify_parsed_note,
)
from audit.sealed_line import HEAD as SEALED
from audit.sealed_line import SealedLines
from audit.signing import parse_extensions
from audit.witness import Seen, check_not_rolled_back, check_seen

if TYPE_CHECKING:  # a full bundle's re-run loads the rules, and then only its game's
    from audit.rerun import Rerun
    from domain.match import Match
from domain.envelope import GENESIS_PREV, SEALS, VERSION
from domain.rng import match_seed, seed_commitment

CHUNK = 1024
ENVELOPE = frozenset({"v", "match", "seq", "round", "prev", "kind", "actor", "at", "public",
                      "postings", "seals", "hash"})
PART = frozenset({"audience", "kind", "actor", "at", "data", "postings"})
POSTING = frozenset({"player", "asset", "amount", "reason"})
_HASH_MEMBER = b'"hash":"'  # canonical key order puts it after "actor" and "at", both texts
_HASH_MEMBER_END = len(_HASH_MEMBER) + 64 + 2  # the quote and comma after the 64 hex digits
_HEX64 = re.compile(r"[0-9a-f]{64}")
_LAST_OF_HASH = frozenset("AEIMQUYcgkosw048")  # base64 digits whose two low bits are zero
_HEX64S = re.compile(r"(?:[0-9a-f]{64})*")
_HEX_DIGITS = b"0123456789abcdef"
_NOTE_ERRORS = {"unverified": "unsigned_checkpoint", "other_key": "wrong_host_key",
                "bad_signature": "bad_signature"}
# The public facts verify acts on (`_Verifier._public_fact`); its hot path leaves them alone.
_NOTED = frozenset({"SeedContributed", "SeedRevealed", "MatchEnded", "MatchAbandoned",
                    "SealOpened"})


@dataclass(frozen=True)
class RoundMark:
    """The log at the end of a round: its size, Merkle root and (when known) state root."""

    round: int
    size: int
    log_root: str
    state_root: str | None


@dataclass(frozen=True)
class SignedCheckpoint:
    round: int
    size: int
    root: bytes
    state_root: str
    note: str


@dataclass
class Audit:
    """What a bundle was found to hold, once every check passed."""

    header: Header
    signer: VerifierKey | None = None
    pinned: bool = False
    key_source: str | None = None  # how the key was chosen, as the command line says it
    entries: int = 0
    opened: int = 0
    checkpoints: list[SignedCheckpoint] = field(default_factory=list)
    marks: dict[int, RoundMark] = field(default_factory=dict)
    match: Match | None = None
    log: list[dict[str, Any]] | None = None
    results: dict[str, Any] | None = None
    seed_revealed: bool = False
    ended: bool = False

    @property
    def kept(self) -> list[dict[str, Any]]:
        """Every entry of the bundle, from a verify told to keep them (keep_log)."""
        if self.log is None:
            raise AssertionError("verified without keep_log")
        return self.log

    def title(self) -> str:
        h = self.header
        return (f"{h.kind} bundle of match {h.match}: {h.game} ({h.rules_version}), season "
                f"{h.season}, {len(h.players)} players")

    def findings(self) -> list[tuple[str, str]]:
        """What was checked and what it showed, as (what, finding) pairs."""
        h = self.header
        found = lines_found(h.kind, self.entries, self.opened)
        seed = "revealed at the end: it matches its commitment and re-derives the match seed" \
            if self.seed_revealed else "not revealed yet"
        if h.kind == FULL:
            seed = f"the header's host seed matches its commitment; {seed}"
        if h.weak_seed:
            seed += " (a weak seed, under 128 bits: the host allowed it)"
        found.append(("seed", seed))
        if self.checkpoints:
            last = self.checkpoints[-1]
            found.append(("checkpoints", f"{len(self.checkpoints)}, each extending the one "
                          f"before; the last (round {last.round}) covers {last.size} of "
                          f"{self.entries} entries"))
            found.append(signed_by(self.signer, self.key_source, self.pinned))
        elif h.unsigned:
            found.append(("checkpoints", "none: the host created this match unsigned (its "
                          "genesis entry says so): nothing in this bundle is signed"))
        else:
            found.append(("checkpoints", "none: nothing in this bundle is signed"))
        if self.match is not None:
            found.append(("rules", f"re-ran every command: all {self.entries} entries and "
                          f"{len(self.checkpoints)} signed state roots reproduced"))
        if self.results is not None:
            ranks = ", ".join(f"{p} {r}" for p, r in self.results.get("ranks", {}).items())
            found.append(("outcome", f"{self.results.get('outcome')}; ranks {ranks}"))
        elif not self.ended:
            found.append(("outcome", "the match has not ended"))
        return found

    def report(self) -> list[str]:
        """One screen: what was checked and what it showed."""
        return [self.title(), *(f"{what:<12} {finding}" for what, finding in self.findings()),
                "verified"]


def lines_found(kind: str, entries: int, opened: int) -> list[tuple[str, str]]:
    """The findings every verified bundle opens with."""
    found = [("entries", f"{entries}: every line canonical, every hash and chain link holds")]
    if kind == FULL:
        found.append(("openings", f"{opened} sealed parts open to their commitments with the "
                      "salts the salt key derives"))
    return found


def signed_by(signer: VerifierKey | None, key_source: str | None,
              pinned: bool) -> tuple[str, str]:
    source = key_source or ("pinned with --key" if pinned else "named by the header: pass "
                            "--key to pin the key the host published")
    return ("signed by", f"{signer} ({source})")


def verify(stream: Iterable[bytes], key: VerifierKey | None = None,
           progress: Callable[[int, int], None] | None = None,
           keep_log: bool = False, seen: Seen | None = None,
           complete: bool = True) -> Audit:
    """Verify the bundle whose lines (bytes, each ending in a newline) `stream` yields.

    Checkpoints are checked against `key` when given, else against the header's host key.
    `progress(entries_done, entries_total)` is called after each chunk; `keep_log` keeps every
    entry in `Audit.log` (for replay and receipts). `seen` is the largest checkpoint of this
    log verified before (audit.witness): the bundle must extend it. A signed match's bundle
    holds the checkpoint of every round that closed, unless `complete` is False (a log read
    from the store without its notes). Raises AuditError at the first failure.
    """
    return _Verifier(key, progress, keep_log, seen, complete).run(stream)


class _Verifier:
    def __init__(self, key: VerifierKey | None, progress: Callable[[int, int], None] | None,
                 keep_log: bool,
                 seen: Seen | None = None, complete: bool = True) -> None:
        self.trusted = key
        self.progress = progress
        self.keep_log = keep_log
        self.seen = seen
        self.complete = complete
        self.audit: Audit | None = None
        self.keys: list[VerifierKey] = [key] if key else []
        self.line = 0
        self.size = 0
        self.prev = GENESIS_PREV
        self.round = 0
        self.closed = -1  # the last round a checkpoint closed
        self.tree = TreeBuilder()
        self.pending: dict[str, Any] | None = None  # a sealed entry awaiting its opening
        self.seal_opened: dict[str, Any] | None = None  # a SealOpened awaiting its proof
        self.salt_key = b""
        self.rerun: Rerun | None = None
        self.contributions: dict[str, str] = {}
        self.sealed: SealedLines | None = None  # set by a header whose entries `_ordinary` takes
        self.seen_at = seen.size if seen is not None else 0

    # -- reading ---------------------------------------------------------------------------

    def run(self, stream: Iterable[bytes]) -> Audit:
        collecting = gc.isenabled()
        gc.disable()  # a streaming verify makes no cycles; collecting them costs a tenth
        try:
            for chunk in _chunks(stream):
                first, taken = self.line, 0
                while taken < len(chunk):
                    if self.sealed is not None:  # a run of ordinary entries, then one line
                        taken = self._ordinary(chunk, taken, self.sealed)
                        if taken == len(chunk):
                            break
                    raw = chunk[taken]
                    taken += 1
                    self.line = first + taken
                    value = read_fast(raw)
                    self._line(raw, _parse(raw, self.size) if value is None else value)
                self.line = first + len(chunk)
                if self.progress and self.audit:
                    self.progress(self.size, self.audit.header.entries)
            self._finish()
        except AuditError as error:
            error.line = error.line or self.line or None
            raise
        finally:
            if collecting:
                gc.enable()
        return self.started

    @property
    def started(self) -> Audit:
        """The audit the header began: every line after the first has one."""
        if self.audit is None:
            raise AssertionError("no header read yet")
        return self.audit

    def _line(self, raw: bytes, value: Any) -> None:
        if self.audit is None:
            self._header(value)
            return
        kind = kind_of(value)
        if self.pending is not None and kind != OPENING:
            raise AuditError("missing_opening", "a full bundle opens each sealed entry on the "
                             "line after it", self.pending["seq"])
        if self.seal_opened is not None and kind != OPENED:
            raise AuditError("missing_seal_proof", "a SealOpened entry is followed by the entry "
                             "it opens and its inclusion proof", self.seal_opened["seq"])
        if kind == ENTRY:
            self._entry(raw, value)
        elif kind == OPENING:
            self._opening(value[OPENING])
        elif kind == OPENED:
            self._seal_proof(value[OPENED])
        elif kind == CHECKPOINT:
            self._checkpoint(value[CHECKPOINT])
        elif kind == HEADER:
            raise AuditError("unexpected_line", "a second header", self.size or None)
        else:
            raise AuditError("malformed_line", "neither an entry, an opening nor a checkpoint",
                             self.size or None)

    # -- the header ------------------------------------------------------------------------

    def _header(self, value: Any) -> None:
        if kind_of(value) != HEADER:
            raise AuditError("malformed_header", "the first line must be the header")
        header, signer = read_header(Header, value[HEADER])
        self.keys = self.keys or ([signer] if signer else [])
        self.audit = Audit(header, signer=self.keys[0] if self.keys else None,
                           pinned=self.trusted is not None, log=[] if self.keep_log else None)
        if header.kind == FULL:
            host_seed, salt_key = header.secrets()
            if seed_commitment(host_seed) != header.seed_commitment:
                raise AuditError("seed_mismatch", "the header's host seed does not hash to its "
                                 "seed commitment")
            self.salt_key = bytes.fromhex(salt_key)
            from audit.rerun import Rerun

            self.rerun = Rerun(header)
        if self.rerun is None and not self.keep_log:
            self.sealed = SealedLines(header.match)

    # -- entries ---------------------------------------------------------------------------

    def _entry(self, raw: bytes, e: dict[str, Any]) -> None:
        """The hot path: everything here runs once per entry of a million-entry bundle."""
        seq = self.size + 1
        if e.keys() != ENVELOPE:
            raise AuditError("malformed_entry", f"an entry has exactly the fields "
                             f"{sorted(ENVELOPE)}", seq)
        digest = e["hash"]
        start = raw.find(_HASH_MEMBER)
        leaf = raw[:start] + raw[start + _HASH_MEMBER_END:-1]
        if type(digest) is not str or len(digest) != 64 or \
                sha256(EVENT_PREFIX + leaf).hexdigest() != digest:
            raise AuditError("bad_hash", "the hash is not SHA-256 of the entry's canonical text",
                             seq)
        if e["seq"] != seq or type(e["seq"]) is not int:
            raise AuditError("bad_seq", f"found seq {e['seq']!r} where seq {seq} is due: an "
                             "entry was dropped, inserted or moved", seq)
        if e["prev"] != self.prev:
            raise AuditError("broken_chain", "prev is not the hash of the entry before", seq)
        audit = self.started
        header = audit.header
        if seq > header.entries:
            raise AuditError("unexpected_line", f"the header announces {header.entries} "
                             "entries", seq)
        _check_envelope(e, header.match, seq)
        if seq <= 2:
            self._check_against_header(e)
        elif e["kind"] in _NOTED:
            self._public_fact(e)
        round = e["round"]
        if round < self.round or round <= self.closed:
            raise AuditError("bad_round", f"round {round} comes after round "
                             f"{max(self.round, self.closed)} was under way or closed", seq)
        if round > self.round:
            self._check_signed_close(seq - 1)
            self._round_ended(self.round)
            self.round = round
        self.tree.append(leaf)
        self.prev = digest
        self.size = seq
        if self.seen is not None and seq == self.seen.size:
            check_seen(self.seen, self.tree.root(), seq)
        if audit.log is not None:
            audit.log.append(e)
        if self.rerun is not None:
            if e["seals"]:
                self.pending = e
            else:
                self.rerun.step(e, [])

    def _ordinary(self, lines: list[bytes], taken: int, sealed: SealedLines) -> int:
        """The hot path of a public bundle: the ordinary entries of `lines` from index `taken`
        on (past the two the header names, no fact `_public_fact` notes, all of the round under
        way or, once a checkpoint closed it, of the next), each checked as `_entry` checks it:
        a sealed one against the line expected (audit.sealed_line), a public one read in C.
        Returns the index of the first line that is not one, with everything before it taken:
        `_line` takes that line, as it takes the rest of the entries, every other line, and
        every failure with its code."""
        if self.seal_opened is not None or self.size < 2:
            return taken
        round = self.round + (self.round == self.closed)  # `_entry` moves on past a closed round
        match, last = self.started.header.match, self.started.header.entries
        if self.size < self.seen_at:
            last = min(last, self.seen_at - 1)  # `_entry` checks the log as seen at that size
        sealed.in_round(round)
        leaves: list[bytes] = []
        digests: list[bytes] = []  # the hash each line claims, checked below all at once
        seq, prev = self.size, self.prev.encode()
        for raw in islice(lines, taken, None):
            seq += 1
            if seq > last:
                break
            if raw.startswith(SEALED):
                read = sealed.read(raw, seq, prev)
                if read is None:
                    break
                prev, leaf = read
            else:
                e = read_public_entry(raw)
                if e is None or e.seq != seq or e.prev.encode() != prev or e.round != round or \
                        e.v != VERSION or e.match != match or e.kind in _NOTED or \
                        len(e.seals) != (e.kind == "CommandAccepted") or \
                        (e.seals and "".join(e.seals).encode().translate(None, _HEX_DIGITS)):
                    break
                prev = e.hash.encode()
                start = raw.find(_HASH_MEMBER)
                leaf = raw[:start] + raw[start + _HASH_MEMBER_END:-1]
            leaves.append(leaf)
            digests.append(prev)
        hashed = b"".join([sha256(EVENT_PREFIX + leaf).digest() for leaf in leaves]).hex().encode()
        if hashed != b"".join(digests):  # the entry that does not hash to its hash is `_entry`'s
            del leaves[next(i for i, digest in enumerate(digests)
                            if hashed[64 * i:64 * i + 64] != digest):]
        if leaves:
            self.tree.extend(leaves)
            self.size += len(leaves)
            self.prev = digests[len(leaves) - 1].decode()
            self.round = round
        return taken + len(leaves)

    def _check_against_header(self, e: dict[str, Any]) -> None:
        h = self.started.header
        if e["seq"] == 1:
            genesis: dict[str, Any] = {
                "game": h.game, "rules_version": h.rules_version, "season": h.season,
                "players": h.players, "seed_commitment": h.seed_commitment}
            genesis |= {flag: True for flag in GENESIS_FLAGS if getattr(h, flag)}
            if e["kind"] != "MatchCreated" or e["public"] != genesis or e["round"] != 0:
                raise AuditError("header_mismatch", "the header's game, rules version, season, "
                                 "players, seed commitment, weak seed or unsigned flag differ "
                                 "from the genesis entry", 1)
        elif e["seals"][:1] != [h.setup_commitment]:
            raise AuditError("header_mismatch", "the header's setup commitment is not the "
                             "sealed setup's", 2)

    def _public_fact(self, e: dict[str, Any]) -> None:
        kind, data = e["kind"], e["public"]
        if kind == "SeedContributed" and isinstance(data.get("player"), str):
            self.contributions[data["player"]] = data.get("text")
        elif kind == "SeedRevealed":
            self._seed_revealed(data, e["seq"])
        elif kind == "MatchEnded":
            self.started.results = data.get("results")
            self.started.ended = True
        elif kind == "MatchAbandoned":
            self.started.ended = True
        elif kind == "SealOpened":
            self.seal_opened = e

    def _seed_revealed(self, data: dict[str, Any], seq: int) -> None:
        h = self.started.header
        host_seed = data.get("host_seed")
        if not isinstance(host_seed, str) or seed_commitment(host_seed) != h.seed_commitment:
            raise AuditError("seed_mismatch", "the revealed host seed does not hash to the "
                             "seed commitment", seq)
        if data.get("contributions") != self.contributions:
            raise AuditError("seed_mismatch", "the revealed contributions are not the ones "
                             "the log holds", seq)
        if data.get("seed") != match_seed(host_seed, [self.contributions.get(p)
                                                      for p in h.players]):
            raise AuditError("seed_mismatch", "the revealed match seed does not re-derive "
                             "from the host seed and the contributions", seq)
        self.started.seed_revealed = True

    def _round_ended(self, round: int) -> None:
        """Mark the end of `round` (unless its checkpoint did): the log before this entry."""
        if round not in self.started.marks:
            state = self.rerun.state_root() if self.rerun and self.rerun.match else None
            self.started.marks[round] = RoundMark(round, self.size, self.tree.root().hex(), state)

    # -- seals opened in public ------------------------------------------------------------

    def _seal_proof(self, o: Any) -> None:
        """The entry a SealOpened names is in the log (an inclusion proof against the tree so
        far) and the disclosed part and salt open its commitment."""
        opener, self.seal_opened = self.seal_opened, None
        if opener is None:
            raise AuditError("unexpected_line", "a seal proof that follows no SealOpened entry",
                             self.size or None)
        seq, claim = opener["seq"], opener["public"]
        if not (isinstance(o, dict) and o.keys() == {"seq", "entry", "proof"}
                and isinstance(claim, dict) and claim.keys() == {"seq", "index", "salt", "part"}
                and o["seq"] == claim["seq"] and type(o["seq"]) is int and 0 < o["seq"] < seq
                and isinstance(o["entry"], dict) and isinstance(o["proof"], list)
                and type(claim["index"]) is int and isinstance(claim["salt"], str)
                and _HEX64.fullmatch(claim["salt"])):
            raise AuditError("bad_seal_opening", "a SealOpened names {seq, index, salt, part} "
                             "and its proof line {seq, entry, proof}", seq)
        target = o["entry"]
        try:
            proof = [_unb64_hash(h, seq) for h in o["proof"]]
            included = target.get("seq") == o["seq"] and target.get("hash") == sha256(
                EVENT_PREFIX + entry_bytes(target)).hexdigest() and verify_inclusion(
                o["seq"] - 1, seq, leaf_hash(entry_bytes(target)), proof, self.tree.root())
        except (AuditError, NotCanonical, TypeError, ValueError):
            included = False
        if not included:
            raise AuditError("bad_seal_opening", f"entry {o['seq']} as given is not in the log",
                             seq)
        _check_part(claim["part"], seq, claim["index"])
        seals = target.get("seals") or []
        if not (0 <= claim["index"] < len(seals) and commitment(
                bytes.fromhex(claim["salt"]), claim["part"]) == seals[claim["index"]]):
            raise AuditError("bad_seal_opening", f"the disclosed part does not open seal "
                             f"{claim['index']} of entry {o['seq']}", seq)

    # -- openings (full bundles) -----------------------------------------------------------

    def _opening(self, o: Any) -> None:
        e = self.pending
        if e is None:
            raise AuditError("unexpected_line", "an opening that follows no sealed entry of a "
                             "full bundle", self.size or None)
        seq, seals = e["seq"], e["seals"]
        if not isinstance(o, dict) or o.keys() != {"seq", "parts", "salts"} or o["seq"] != seq:
            raise AuditError("missing_opening", "the line after a sealed entry must be its "
                             "opening: {seq, parts, salts}", seq)
        parts, salts = o["parts"], o["salts"]
        if not (isinstance(parts, list) and isinstance(salts, list)
                and len(parts) == len(salts) == len(seals)):
            raise AuditError("bad_opening", "an opening has one part and one salt per seal", seq)
        for i, (part, given) in enumerate(zip(parts, salts, strict=True)):
            if given != salt(self.salt_key, seq, i).hex():
                raise AuditError("bad_salt", f"salt {i} is not HMAC-SHA256 of the salt key "
                                 f"over '{seq}|{i}'", seq)
            _check_part(part, seq, i)
            if commitment(bytes.fromhex(given), part) != seals[i]:
                raise AuditError("bad_opening", f"part {i} does not open its commitment", seq)
        self.started.opened += len(parts)
        self.pending = None
        assert self.rerun is not None  # a sealed entry awaits its opening only in a re-run
        self.rerun.step(e, parts)

    # -- checkpoints -----------------------------------------------------------------------

    def _checkpoint(self, c: Any) -> None:
        seq = self.size or None
        if not isinstance(c, dict) or c.keys() != {"note", "consistency"} or \
                not isinstance(c["note"], str) or not isinstance(c["consistency"], list):
            raise AuditError("malformed_checkpoint", "a checkpoint line is {note, consistency}",
                             seq)
        if self.started.header.unsigned:
            raise AuditError("unexpected_line", "a checkpoint in the bundle of a match created "
                             "unsigned", seq)
        announced = self.started.header.checkpoints
        if announced is not None and len(self.started.checkpoints) >= announced:
            raise AuditError("unexpected_line", f"the header announces {announced} "
                             "checkpoints", seq)
        checkpoint = signed_checkpoint(c["note"], self.keys, self.started.header.origin, seq)
        close = parse_extensions(checkpoint.extensions)
        self._check_placement(checkpoint.size, seq)
        previous = self.started.checkpoints[-1] if self.started.checkpoints else None
        proof = [_unb64_hash(h, seq) for h in c["consistency"]]
        consistent = verify_consistency(previous.size, checkpoint.size, previous.root,
                                        checkpoint.root, proof) if previous else not proof
        if not consistent:
            raise AuditError("inconsistent_checkpoints", "the checkpoint does not extend the one "
                             f"before (size {previous.size if previous else 0}): its "
                             "consistency proof fails", seq)
        log_root = self.tree.root()
        if checkpoint.root != log_root:
            raise AuditError("root_mismatch", "the signed root is not the Merkle root of the "
                             f"first {checkpoint.size} entries", seq)
        if close.round != self.round:
            raise AuditError("bad_round", f"the checkpoint closes round {close.round}, but its "
                             f"last entry belongs to round {self.round}", seq)
        if self.rerun is not None and self.rerun.state_root() != close.state_root:
            raise AuditError("state_root_mismatch", f"the signed state root of round "
                             f"{close.round} is not the re-run's", seq)
        self.started.checkpoints.append(SignedCheckpoint(
            close.round, checkpoint.size, checkpoint.root, close.state_root, c["note"]))
        self.started.marks[close.round] = RoundMark(close.round, checkpoint.size, log_root.hex(),
                                                  close.state_root)
        self.closed = close.round

    def _check_placement(self, size: int, seq: int | None) -> None:
        if size != self.size:
            raise AuditError("checkpoint_misplaced", f"a checkpoint of size {size} must follow "
                             f"entry {size}, not entry {self.size}", seq)
        if self.rerun is not None and (self.rerun.match is None
                                       or self.rerun.match.version != size):
            raise AuditError("checkpoint_misplaced", "a checkpoint falls inside a command's "
                             "entries", seq)

    def _check_signed_close(self, last: int) -> None:
        """The host signs every round's close (and the end) of a signed match: a round over
        without its checkpoint is one dropped from the bundle."""
        if self.complete and not self.started.header.unsigned and self.closed < self.round:
            raise AuditError("missing_checkpoint", f"round {self.round} closed at entry {last} "
                             "without the checkpoint the host signs at every close: it was "
                             "left out of the bundle", last)

    # -- the end ---------------------------------------------------------------------------

    def _finish(self) -> None:
        if self.audit is None:
            raise AuditError("malformed_header", "the bundle is empty")
        expected = self.audit.header.entries
        if self.seal_opened is not None and self.size == expected:
            raise AuditError("missing_seal_proof", "the bundle ends before the proof of the "
                             "last SealOpened", self.seal_opened["seq"])
        if self.pending is not None or self.seal_opened is not None or self.size < expected:
            raise AuditError("truncated", f"the bundle ends after {self.size} of the "
                             f"{expected} entries its header announces"
                             + (" (and before an opening)" if self.pending else ""),
                             self.size + 1 if self.size < expected else self.size)
        if self.rerun is not None:
            self.rerun.finish(self.size)
            self.audit.match = self.rerun.match
        moved_on = self.audit.match is not None and self.audit.match.round > self.round
        if self.audit.ended or moved_on:  # the last round has closed, with or without a checkpoint
            self._check_signed_close(self.size)
            self._round_ended(self.round)
        self._check_checkpoints_announced()
        if self.seen is not None:
            last = self.audit.checkpoints[-1].size if self.audit.checkpoints else 0
            check_not_rolled_back(self.seen, last, self.size)
        self.audit.entries = self.size

    def _check_checkpoints_announced(self) -> None:
        announced, held = self.started.header.checkpoints, len(self.started.checkpoints)
        if announced is not None and held < announced:
            raise AuditError("missing_checkpoint", f"the header announces {announced} "
                             f"checkpoints, the bundle holds {held}: the last were cut",
                             self.size)


H = TypeVar("H", bound=Strict)


def read_header(model: type[H], value: Any) -> tuple[H, VerifierKey | None]:
    """A bundle's header and the host key it names, each in its one spelling."""
    try:
        header = model.read(value)
    except HeaderError as error:
        raise AuditError("malformed_header", str(error)) from None
    host_key = getattr(header, "host_key", None)
    if host_key is None:
        return header, None
    try:
        signer = parse_verifier_key(host_key)
    except NoteError as error:
        raise AuditError("malformed_header", f"host_key: {error}") from None
    if str(signer) != host_key:  # e.g. an upper-case key hash
        raise AuditError("malformed_header", "host_key is not in its one spelling")
    return header, signer


def signed_checkpoint(note: str, keys: list[VerifierKey], origin: str,
                      seq: int | None) -> Checkpoint:
    """The checkpoint a note signs, once its signature, spelling and origin hold."""
    if not keys:
        raise AuditError("no_host_key", "the header names no host key: pass --key", seq)
    try:
        parsed = parse_note(note)
        verify_parsed_note(parsed, keys)
        checkpoint = parse_checkpoint(parsed.text)
    except NoteError as error:
        raise note_failure(error, seq) from None
    if _respelled(parsed) != note:
        raise AuditError("malformed_checkpoint", "a signature line is not in its one "
                         "canonical spelling", seq)
    if checkpoint.origin != origin:
        raise AuditError("wrong_origin", f"the checkpoint is for {checkpoint.origin!r}, not "
                         f"{origin!r}", seq)
    return checkpoint


def note_failure(error: NoteError, seq: int | None) -> AuditError:
    """A signed note that does not hold, as its audit code: signed by another key than the
    host's (named), no signature, a bad one, or a note that cannot be read."""
    said = f"a checkpoint is {error.message}" if error.code == "other_key" else str(error)
    return AuditError(_NOTE_ERRORS.get(error.code, "malformed_checkpoint"), said, seq)


def _chunks(stream: Iterable[bytes]) -> Iterator[list[bytes]]:
    iterator = iter(stream)
    while chunk := list(islice(iterator, CHUNK)):
        yield chunk


def _parse(raw: bytes, after: int) -> Any:
    """One line's value; the errors say which entry the line follows, as it has no seq yet."""
    where = f" (the line after entry {after})"
    if not raw.endswith(b"\n"):
        raise AuditError("truncated", f"the last line has no newline: the bundle was cut{where}")
    try:
        return loads(raw[:-1].decode())
    except UnicodeDecodeError:
        raise AuditError("malformed_line", f"not UTF-8{where}") from None
    except json.JSONDecodeError as error:
        raise AuditError("malformed_line", f"not JSON: {error.msg}{where}") from None
    except NotCanonical as error:
        raise AuditError("not_canonical", f"{error}{where}") from None


def _check_envelope(e: dict[str, Any], match_id: str, seq: int) -> None:
    """A public entry shows kind, actor, time and data; a sealed one nothing but commitments.
    The number of commitments is fixed by what shows: SEALS for every sealed entry (so it says
    nothing of what the entry hides), one for a public command (its context), none for a
    public fact."""
    seals = e["seals"]
    if e["v"] != VERSION or e["match"] != match_id or type(e["round"]) is not int or \
            type(seals) is not list or not _are_commitments(seals):
        raise AuditError("malformed_entry", f"needs v {VERSION}, match {match_id!r}, an integer "
                         "round and hex commitments", seq)
    if e["kind"] is None:
        shaped = e["actor"] is None and e["at"] is None and e["public"] is None and \
            e["postings"] is None
    else:
        shaped = type(e["kind"]) is str and type(e["actor"]) is str and \
            (e["at"] is None or type(e["at"]) is str) and type(e["public"]) is dict and \
            _are_postings(e["postings"])
    if not shaped:
        raise AuditError("malformed_entry", "a sealed entry shows only its commitments; a "
                         "public one its kind, actor, time and data", seq)
    due = SEALS if e["kind"] is None else int(e["kind"] == "CommandAccepted")
    if len(seals) != due:
        raise AuditError("malformed_entry", f"{_what(e)} carries {due} commitments, not "
                         f"{len(seals)}", seq)


def _what(e: dict[str, Any]) -> str:
    if e["kind"] is None:
        return "a sealed entry"
    return "a public command" if e["kind"] == "CommandAccepted" else "a public fact"


def _are_commitments(seals: list[Any]) -> bool:
    """Hex SHA-256 texts, every one (one regex over them all: this runs once per entry)."""
    return all(type(s) is str and len(s) == 64 for s in seals) and \
        _HEX64S.fullmatch("".join(seals)) is not None


def _check_part(part: Any, seq: int, index: int) -> None:
    if not (isinstance(part, dict) and part.keys() == PART and isinstance(part["kind"], str)
            and isinstance(part["actor"], str) and isinstance(part["data"], dict)
            and _are_postings(part["postings"])
            and (part["at"] is None or isinstance(part["at"], str))
            and (part["audience"] == "host" or (isinstance(part["audience"], list) and all(
                isinstance(p, str) for p in part["audience"])))):
        raise AuditError("bad_opening", f"part {index} is not {{audience, kind, actor, at, data, "
                         "postings}", seq)


def _are_postings(postings: Any) -> bool:
    return type(postings) is list and all(
        isinstance(p, dict) and p.keys() == POSTING and isinstance(p["player"], str)
        and isinstance(p["asset"], str) and type(p["amount"]) is int
        and isinstance(p["reason"], str) for p in postings)


def _respelled(note: Note) -> str:
    """The note written back from its parts: a signature's base64 has one spelling only."""
    lines = "".join(f"\N{EM DASH} {s.name} {base64.b64encode(s.key_id + s.signature).decode()}\n"
                    for s in note.signatures)
    return f"{note.text}\n{lines}"


def _unb64_hash(text: Any, seq: int | None) -> bytes:
    """A SHA-256 hash in its one base64 spelling: 43 digits, the last with its two low bits
    zero, and one "="; decoded strictly. A checkpoint's proofs hold many."""
    if type(text) is str and len(text) == 44 and text[42] in _LAST_OF_HASH:
        try:
            raw = binascii.a2b_base64(text, strict_mode=True)
        except (binascii.Error, ValueError):  # a non-ASCII text is a ValueError
            raw = b""
        if len(raw) == HASH_SIZE:
            return raw
    raise AuditError("malformed_checkpoint", f"{text!r} is not a base64 SHA-256 hash", seq)
