"""Season bundles: a season's log exported as JSON Lines, for `arbiter verify`.

Every line is canonical JSON (RFC 8785) ending in a newline, in this order:

    {"header":{...}}                                         format arbiter-season-bundle/1
    {"match_checkpoints":{"match":...,"notes":[{"consistency":[...],"note":"..."}]}}
                                                                  one line per match
    {"hash":...,"season":...,"seq":1,...}                         an entry of the season log
    {"opening":{"parts":[...],"salts":[...],"seq":4}}             full bundles only
    {"cited":{"entry":{...},"match":...,"proof":[...],"seq":9,"size":40,"opening":...}}
                                                                  after each entry that cites
                                                                  a match entry
    {"checkpoint":{"consistency":[...],"note":"..."}}             after the entry at its size

A season entry cites a match entry when it rests on one: `MatchAdded` the match's genesis,
`Posted` the entry whose postings it applies, `MatchFinished` the match's end. The `cited`
line carries that match entry and its RFC 9162 inclusion proof in the match's log of `size`
entries, the size of the match's latest signed checkpoint (an empty proof and `size` null when
no checkpoint covers it yet). A sealed citation of a full bundle also carries the match part's
plaintext and salt (`opening`), so its postings can be read. A public bundle cites only from
public entries: which match entry a sealed garnet entry rests on is the players' business.
docs/audit.md has the whole description.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from audit.bundle import b64, line
from audit.bundle import signed_sizes as checked_sizes
from audit.canonical import salt
from audit.checkpoints import leaves
from audit.headers import SeasonHeader as SeasonHeader  # read apart from the bundle's writing
from audit.merkle import Proofs
from audit.notes import parse_checkpoint, parse_note
from domain.match import Reading, parse_salt_key
from domain.season import Season, season_headline

FORMAT = "arbiter-season-bundle/1"
PUBLIC, FULL = "public", "full"
HEADER, MATCH_CHECKPOINTS, OPENING, CITED, CHECKPOINT, ENTRY = (
    "header", "match_checkpoints", "opening", "cited", "checkpoint", "entry")
TAGS = (HEADER, MATCH_CHECKPOINTS, OPENING, CITED, CHECKPOINT)
CITING = ("MatchAdded", "Posted", "MatchFinished")  # the season entries that rest on a match's


def kind_of(value: Any) -> str | None:
    if not isinstance(value, dict):
        return None
    tag: str = next(iter(value), "")
    if len(value) == 1 and tag in TAGS:
        return tag
    return ENTRY if "hash" in value else None


def citation(record: dict[str, Any]) -> tuple[str, int] | None:
    """The match entry a season entry rests on: (match, seq), or None."""
    head = season_headline(record)
    if head is None or head["kind"] not in CITING:
        return None
    data = head["data"]
    return data["match"], 1 if head["kind"] == "MatchAdded" else data["seq"]


def signed_sizes(notes: Sequence[str]) -> list[tuple[str, int]]:
    """Each signed note with the size of the log it signs."""
    return [(note, parse_checkpoint(parse_note(note).text).size) for note in notes]


def export_season(season: Season, notes: Sequence[str], matches: Mapping[str, Reading],
                  match_notes: Mapping[str, Sequence[str]], kind: str,
                  host_key: str | None) -> Iterator[str]:
    """The lines of `season`'s bundle with its signed checkpoint `notes` (oldest first); every
    match of the season in `matches`, with its signed checkpoint notes in `match_notes`.
    Every note is exported, or nothing (`missing_entry` before the first line, as a match's)."""
    checked_sizes(notes, season.version, f"season {season.name}")
    for match_id in season.matches:
        checked_sizes(match_notes.get(match_id, ()), matches[match_id].version,
                      f"match {match_id}")
    return _season_lines(season, notes, matches, match_notes, kind, host_key)


def season_header(season: Season, kind: str, host_key: str | None,
                  checkpoints: int) -> dict[str, Any]:
    """The header of the season's bundle, its log signed `checkpoints` times."""
    header: dict[str, Any] = {"format": FORMAT, "kind": kind, "season": season.name,
                              "origin": season.origin, "matches": list(season.matches),
                              "host_key": host_key, "entries": season.version,
                              "checkpoints": checkpoints}
    if kind == FULL:
        header["salt_key"] = season.salt_key
    return header


def header_line(season: Season, kind: str, host_key: str | None, checkpoints: int) -> str:
    """The first line of the season's bundle, from the season alone: what a log.json names
    (audit.tiles_bundle) without loading one of its matches."""
    return line({HEADER: season_header(season, kind, host_key, checkpoints)})


def _season_lines(season: Season, notes: Sequence[str], matches: Mapping[str, Reading],
                  match_notes: Mapping[str, Sequence[str]], kind: str,
                  host_key: str | None) -> Iterator[str]:
    yield header_line(season, kind, host_key, len(notes))
    latest: dict[str, int] = {}
    proofs = {match_id: Proofs(leaves(r["entry"] for r in matches[match_id].records))
              for match_id in season.matches}
    for match_id in season.matches:
        signed, previous = [], 0
        for note, size in signed_sizes(match_notes.get(match_id, ())):
            proof = proofs[match_id].consistency(previous, size) if previous else []
            signed.append({"note": note, "consistency": [b64(h) for h in proof]})
            previous = size
        latest[match_id] = previous
        yield line({MATCH_CHECKPOINTS: {"match": match_id, "notes": signed}})
    sizes = dict((size, note) for note, size in signed_sizes(notes))
    season_proofs = Proofs(leaves(r["entry"] for r in season.records))
    key = parse_salt_key(season.salt_key)
    previous = 0
    for record in season.records:
        seq = record["entry"]["seq"]
        yield line(record["entry"])
        if kind == FULL and record["parts"]:
            salts = [salt(key, seq, i).hex() for i in range(len(record["parts"]))]
            yield line({OPENING: {"seq": seq, "parts": record["parts"], "salts": salts}})
        cited = citation(record)
        if cited is not None and (kind == FULL or record["entry"]["kind"] is not None):
            yield line({CITED: cite(seq, matches[cited[0]], proofs[cited[0]], cited[1],
                                    latest[cited[0]], kind)})
        if seq in sizes:
            proof = season_proofs.consistency(previous, seq) if previous else []
            yield line({CHECKPOINT: {"note": sizes[seq],
                                     "consistency": [b64(h) for h in proof]}})
            previous = seq


def cite(seq: int, match: Reading, proofs: Proofs, cited: int, size: int,
         kind: str) -> dict[str, Any]:
    """The cited line of season entry `seq`: match entry `cited` and its inclusion proof in
    the match's log of `size` entries (its latest signed checkpoint), when that covers it."""
    record = match.records[cited - 1]
    covered = cited <= size
    proof = proofs.inclusion(cited - 1, size) if covered else []
    opening = None
    if kind == FULL and record["parts"]:
        opening = {"part": record["parts"][0],
                   "salt": salt(parse_salt_key(match.salt_key), cited, 0).hex()}
    return {"seq": seq, "match": match.match_id, "entry": record["entry"],
            "proof": [b64(h) for h in proof], "size": size if covered else None,
            "opening": opening}
