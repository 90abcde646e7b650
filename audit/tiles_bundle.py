"""A log's public bundle read back from its tiles, so `arbiter verify` checks a tiled log with
the very checks (and codes) it runs on a bundle.

Beside the C2SP resources (audit/tiles.py), each log's prefix holds `arbiter/log.json`, what
a bundle carries that no tile does:

    {"format": "arbiter-tiles/1",
     "header": {...},         the public bundle's header, without `entries` and `checkpoints`
     "notes": ["...", ...],   every signed checkpoint of the log, oldest first
     "tail": [{...}, ...],    the entries after the last signed one (no tile holds them yet)
     "matches": {"m": "../../match/m", ...}}   a season's only: where each match's prefix is

The tiles hold the log up to the size of the last note. A bundle is rebuilt line by line:
the header with the counts, each entry from its entry bundle with its hash (the bytes the
log hashed, and SHA-256 of them under the log's prefix), each proof a bundle carries (the
consistency proof before each checkpoint, a SealOpened's inclusion proof, a season's
citations) computed from the hash tiles, so lying tiles fail the proofs they feed.
"""

from __future__ import annotations

import base64
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from hashlib import sha256
from typing import Any

from audit.errors import AuditError
from audit.tiles import CHECKPOINT, Fetch, TileReader

FORMAT = "arbiter-tiles/1"
LOG_JSON = "arbiter/log.json"
MATCH_PREFIX = b"arbiter/event/v1\n"  # domain.envelope's, not imported: verify loads lightly
SEASON_PREFIX = b"arbiter/season/v1\n"
_KIND = b',"kind":'  # an entry's canonical text: "hash" sorts just before "kind"
# Where a season's log.json may say a match is: beside the season, never another host or folder.
_RELATIVE = re.compile(r"\.\./\.\./match/[A-Za-z0-9_~%-][A-Za-z0-9._~%-]*")


def log_document(header_line: str, notes: Sequence[str], tail: Sequence[dict[str, Any]],
                 matches: Mapping[str, str] | None = None) -> bytes:
    """`arbiter/log.json` for a log whose public bundle starts with `header_line`."""
    header = json.loads(header_line)["header"]
    header.pop("entries")
    header.pop("checkpoints")
    document: dict[str, Any] = {"format": FORMAT, "header": header, "notes": list(notes),
                                "tail": list(tail)}
    if matches is not None:
        document["matches"] = dict(matches)
    return _canonical(document)


class TiledSource:
    """One log's prefix: `fetch(path)` of its resources, and `resolve(ref)` the fetch of a
    prefix named relative to it (a season's matches)."""

    def __init__(self, fetch: Fetch, resolve: Callable[[str], TiledSource]) -> None:
        self.fetch = fetch
        self.resolve = resolve

    def document(self) -> tuple[dict[str, Any], TileReader]:
        """log.json, checked against the checkpoint served beside it, and a reader of the
        tiles up to its last note."""
        notes_first = self._checkpoint()
        raw = self.fetch(LOG_JSON)
        try:
            document = json.loads(raw)
            ok = (isinstance(document, dict) and document.get("format") == FORMAT
                  and isinstance(document.get("header"), dict)
                  and isinstance(document.get("notes"), list)
                  and all(isinstance(n, str) for n in document["notes"])
                  and isinstance(document.get("tail"), list)
                  and all(isinstance(e, dict) for e in document["tail"]))
        except ValueError:
            ok = False
        if not ok:
            raise AuditError("malformed_header", f"{LOG_JSON} is not an {FORMAT} document")
        notes = document["notes"]
        if notes_first is not None and notes_first not in notes:
            raise AuditError("inconsistent_checkpoints", "the log's checkpoint is not one of "
                             f"the signed checkpoints its {LOG_JSON} lists")
        if notes and notes_first is None:
            raise AuditError("tile_missing", "the log lists signed checkpoints but serves no "
                             "checkpoint")
        tail = [_canonical({k: v for k, v in e.items() if k != "hash"})
                for e in document["tail"]]
        return document, TileReader(self.fetch, _size(notes[-1]) if notes else 0, tail)

    def _checkpoint(self) -> str | None:
        try:
            return self.fetch(CHECKPOINT).decode()
        except AuditError as error:
            if error.code == "tile_missing":
                return None  # a match created unsigned: log.json says so
            raise
        except UnicodeDecodeError:
            raise AuditError("malformed_checkpoint", "the checkpoint is not UTF-8") from None


def bundle_lines(source: TiledSource) -> Iterator[bytes]:
    """The public bundle (a match's or a season's, as log.json's header says) the tiles hold."""
    document, reader = source.document()
    if document["header"].get("format") == "arbiter-season-bundle/1":
        return _season_lines(source, document, reader)
    return _match_lines(document, reader)


def _match_lines(document: dict[str, Any], reader: TileReader) -> Iterator[bytes]:
    notes = document["notes"]
    header = {**document["header"], "entries": reader.size + len(document["tail"]),
              "checkpoints": len(notes)}
    yield _line({"header": header})
    sizes = {_size(note): note for note in notes}
    previous = 0
    for seq, raw, data in _entries(reader, document["tail"], MATCH_PREFIX):
        yield raw
        if data.find(b'"kind":"SealOpened"') > 0:
            opened = _opened(reader, document["tail"], json.loads(data), seq)
            if opened is not None:
                yield _line({"opened": opened})
        if seq in sizes:
            yield _checkpoint_line(reader, sizes[seq], previous, seq)
            previous = seq


def _season_lines(source: TiledSource, document: dict[str, Any],
                  reader: TileReader) -> Iterator[bytes]:
    notes = document["notes"]
    header = {**document["header"], "entries": reader.size + len(document["tail"]),
              "checkpoints": len(notes)}
    yield _line({"header": header})
    where = document.get("matches")
    matches = header.get("matches")
    if not (isinstance(where, dict) and isinstance(matches, list)
            and all(isinstance(m, str) and isinstance(where.get(m), str)
                    and _RELATIVE.fullmatch(where[m]) for m in matches)):
        raise AuditError("malformed_header", f"{LOG_JSON} must name each match's prefix, "
                         "relative to the season's (../../match/ID): no other host or folder")
    logs: dict[str, tuple[dict[str, Any], TileReader]] = {}
    for match_id in matches:
        match_document, match_reader = source.resolve(where[match_id]).document()
        logs[match_id] = match_document, match_reader
        signed, previous = [], 0
        for note in match_document["notes"]:
            size = _size(note)
            proof = match_reader.consistency_proof(previous, size) if previous else []
            signed.append({"note": note, "consistency": [_b64(h) for h in proof]})
            previous = size
        yield _line({"match_checkpoints": {"match": match_id, "notes": signed}})
    sizes = {_size(note): note for note in notes}
    previous = 0
    for seq, raw, data in _entries(reader, document["tail"], SEASON_PREFIX):
        yield raw
        cited = _citation(data)
        if cited is not None and cited[0] in logs:
            yield _line({"cited": _cite(seq, cited, *logs[cited[0]])})
        if seq in sizes:
            yield _checkpoint_line(reader, sizes[seq], previous, seq)
            previous = seq


def _entries(reader: TileReader, tail: list[dict[str, Any]],
             prefix: bytes) -> Iterator[tuple[int, bytes, bytes]]:
    """Each entry's bundle line (its bytes with its hash spliced in) with its seq and bytes."""
    for index, data in enumerate(reader.entries(0, reader.size)):
        at = data.find(_KIND)
        if not data.startswith(b"{") or at < 0:
            raise AuditError("malformed_line", "an entry in the tiles is not an entry",
                             index + 1)
        digest = sha256(prefix + data).hexdigest().encode()
        yield index + 1, data[:at] + b',"hash":"' + digest + b'"' + data[at:] + b"\n", data
    for offset, entry in enumerate(tail):
        data = _canonical({k: v for k, v in entry.items() if k != "hash"})
        yield reader.size + offset + 1, _line(entry), data


def _opened(reader: TileReader, tail: list[dict[str, Any]], entry: Any,
            seq: int) -> dict[str, Any] | None:
    """The `opened` line a bundle carries after a SealOpened entry, or None when the entry
    names no earlier entry (verify then says what is wrong)."""
    target = entry.get("public", {}).get("seq") if isinstance(entry, dict) else None
    if not (type(target) is int and 0 < target < seq):
        return None
    return {"seq": target, "entry": _entry_at(reader, tail, target, MATCH_PREFIX),
            "proof": [_b64(h) for h in reader.inclusion_proof(target - 1, seq)]}


def _citation(data: bytes) -> tuple[str, int] | None:
    """The match entry a public season entry rests on (audit.season_bundle.citation)."""
    if not data or not any(f'"kind":"{k}"'.encode() in data
                           for k in ("MatchAdded", "Posted", "MatchFinished")):
        return None
    entry = json.loads(data)
    kind, body = entry.get("kind"), entry.get("public")
    if kind not in ("MatchAdded", "Posted", "MatchFinished") or not isinstance(body, dict):
        return None
    seq = 1 if kind == "MatchAdded" else body.get("seq")
    match_id = body.get("match")
    return (match_id, seq) if isinstance(match_id, str) and type(seq) is int else None


def _cite(seq: int, cited: tuple[str, int], document: dict[str, Any],
          reader: TileReader) -> dict[str, Any]:
    match_id, at = cited
    covered = 0 < at <= reader.size
    return {"seq": seq, "match": match_id,
            "entry": _entry_at(reader, document["tail"], at, MATCH_PREFIX),
            "proof": [_b64(h) for h in reader.inclusion_proof(at - 1, reader.size)]
            if covered else [],
            "size": reader.size if covered else None, "opening": None}


def _entry_at(reader: TileReader, tail: list[dict[str, Any]], seq: int,
              prefix: bytes) -> dict[str, Any]:
    if seq <= reader.size:
        data = reader.entry(seq - 1)
        entry: dict[str, Any] = json.loads(data)
        entry["hash"] = sha256(prefix + data).hexdigest()
        return entry
    offset = seq - reader.size - 1
    return tail[offset] if offset < len(tail) else {}


def _checkpoint_line(reader: TileReader, note: str, previous: int, size: int) -> bytes:
    proof = reader.consistency_proof(previous, size) if previous else []
    return _line({"checkpoint": {"note": note, "consistency": [_b64(h) for h in proof]}})


def _size(note: str) -> int:
    """The tree size a note signs (its second line); verify checks the rest."""
    lines = note.split("\n", 2)
    if len(lines) < 3 or not lines[1].isdigit():
        raise AuditError("malformed_checkpoint", "a listed checkpoint has no tree size")
    return int(lines[1])


def _line(value: Any) -> bytes:
    return _canonical(value) + b"\n"


def _canonical(value: Any) -> bytes:
    from audit.canonical import canonical

    return canonical(value)


def _b64(raw: bytes) -> str:
    return base64.b64encode(raw).decode()
