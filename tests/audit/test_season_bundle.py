"""Season bundles: what they hold, what the public one never holds, and tampering, each way
named by its failure code and the first bad seq.

Some forgeries are the host's own: every entry re-sealed and re-chained, every checkpoint
re-signed with the real key. Those the season's rules catch (a balance below zero), or the
matches' signed checkpoints (a posting the match never made).
"""

from __future__ import annotations

import copy
import json

import pytest

from audit import keys
from audit.any_bundle import verify_any
from audit.bundle import line
from audit.canonical import entry_hash
from audit.checkpoints import leaves
from audit.errors import AuditError
from audit.merkle import root
from audit.notes import checkpoint_body, parse_checkpoint, parse_note, parse_verifier_key
from audit.season_bundle import (
    CHECKPOINT,
    CITED,
    ENTRY,
    FULL,
    HEADER,
    MATCH_CHECKPOINTS,
    OPENING,
    PUBLIC,
    export_season,
    kind_of,
)
from audit.season_signing import extensions, parse_season_extensions, standings_hash
from audit.season_verify import ENVELOPE, verify_season
from commands.service.arbiter import Arbiter
from commands.service.outcomes import Grant
from domain.envelope import GENESIS_PREV, seal_season_entry, season_entry_hash
from domain.match import parse_salt_key
from domain.season import Season, public_standings

SIGNER = keys.generate("host.example")
PLAYERS = ["ann", "bob", "cy"]
AT = "2026-12-01T20:{:02d}:00Z"


def played() -> Arbiter:
    """A season with every kind of change: registrations, sealed garnet grants, a public ToL
    grant, a sealed trade, a match with sealed spends and penalties and a public ToL award, its
    end, and a host ruling."""
    app = Arbiter("sqlite:///:memory:", signer=SIGNER)
    app.set_origin_prefix("games.example.org")
    app.create_season("spring", at=AT.format(0))
    app.register_all("spring", PLAYERS, at=AT.format(1))
    app.grant_all("spring", [Grant("ann", 5, reason="CANARY-PURSE"),
                             Grant("bob", 1, reason="CANARY-PURSE"),
                             Grant("cy", 2, "tol", "season opener")], at=AT.format(2))
    app.transfer("spring", "ann", "cy", 1, "CANARY-TRADE", at=AT.format(3))
    app.create_match(match_id="m1", season="spring", game="sealed_bid",
                     setup={"players": PLAYERS}, host_seed="s" * 40, salt_key="ab" * 32,
                     at=AT.format(4))
    for minute, (actor, name, args) in enumerate([
            ("host", "open_match", {}), ("ann", "hint", {}), ("ann", "bid", {"amount": 3}),
            ("host", "close_round", {}), ("host", "close_round", {})], 5):
        app.submit("m1", actor, name, args, at=AT.format(minute))
    app.rule("spring", "cy", "spent a ToL to skip the vote", changes={"tol": -1},
             at=AT.format(20))
    return app


@pytest.fixture(scope="module")
def story() -> Arbiter:
    return played()


def bundle(app: Arbiter, kind: str) -> list[bytes]:
    text = "".join(app.season_bundle("spring", kind, SIGNER.verifier_key()))
    return [raw.encode() + b"\n" for raw in text.splitlines()]


@pytest.fixture(scope="module")
def public(story) -> list[bytes]:
    return bundle(story, PUBLIC)


@pytest.fixture(scope="module")
def full(story) -> list[bytes]:
    return bundle(story, FULL)


def verified(lines: list[bytes], key=None):
    return verify_season(iter(lines), key)


def failure(lines: list[bytes], **kwargs) -> tuple[str, int | None]:
    with pytest.raises(AuditError) as caught:
        verified(lines, **kwargs)
    return caught.value.code, caught.value.seq


def values(lines: list[bytes]) -> list[dict]:
    return [json.loads(raw) for raw in lines]


def where(lines: list[bytes], kind: str) -> list[int]:
    return [i for i, value in enumerate(values(lines)) if kind_of(value) == kind]


def entry_at(lines: list[bytes], seq: int) -> int:
    return next(i for i, v in enumerate(values(lines)) if kind_of(v) == ENTRY and v["seq"] == seq)


def replaced(lines: list[bytes], index: int, value) -> list[bytes]:
    return [*lines[:index], line(value).encode(), *lines[index + 1:]]


def seq_of(lines: list[bytes], kind: str, number: int = 0) -> int:
    return [v["seq"] for v in values(lines) if kind_of(v) == ENTRY and v["kind"] == kind][number]


# -- what a bundle holds ---------------------------------------------------------------------

def test_both_bundles_verify_and_recompute_the_standings(story, public, full):
    season = story.season("spring")
    for lines in (public, full):
        audit = verified(lines)
        assert audit.entries == season.version
        assert public_standings(audit.season) == public_standings(season)
        assert audit.checkpoints[-1] == season.version
    assert verified(full).season.balances == season.balances
    # ann 5 - 1 traded - 2 for the hint - 1 for no bid in round 2; bob 1 - 1 for no bid in
    # round 1; cy 0 + 1 traded - 1 for no bid in round 1.
    assert verified(full).season.garnets(PLAYERS) == {"ann": 1, "bob": 0, "cy": 0}
    # cy: 2 granted - 1 ruled; ann won round 1 and the match (bob and cy never scored): 1.
    assert [verified(public).season.balances[p]["tol"] for p in PLAYERS] == [1, 0, 1]


def test_a_public_bundle_shows_no_garnet_entry(public, full):
    data = b"".join(public)
    assert b"CANARY" not in data
    assert b"CANARY-PURSE" in b"".join(full)
    assert where(public, OPENING) == []
    # Only public entries cite: the sealed hint and penalties are not tied to the match log.
    cited = [v[CITED]["entry"]["kind"] for v in values(public) if kind_of(v) == CITED]
    assert cited == ["MatchCreated", "GameOver", "MatchEnded"]


def test_verify_tells_a_season_bundle_from_a_match_bundle(public, story):
    assert verify_any(iter(public)).header.season == "spring"
    assert "verified" in verify_any(iter(public)).report()


def test_a_posting_after_its_matchs_last_checkpoint_is_counted_not_proven():
    app = Arbiter("sqlite:///:memory:", signer=SIGNER)
    app.create_season("spring")
    app.register_all("spring", PLAYERS)
    app.grant("spring", "ann", "garnets", 5, "start")
    app.create_match(match_id="m1", season="spring", game="sealed_bid",
                     setup={"players": PLAYERS}, host_seed="s" * 40, salt_key="ab" * 32)
    app.submit("m1", "host", "open_match")
    app.submit("m1", "ann", "hint")  # round 1 is open: no checkpoint covers it yet
    audit = verified(bundle(app, FULL))
    assert (audit.cited, audit.uncovered) == (2, 1)  # round 0's checkpoint covers the genesis


def test_an_unsigned_match_in_a_signed_season_is_cited_with_no_checkpoint_of_its_own():
    """A match the host created unsigned signs nothing; the season's checkpoints still sign
    every change it posted, and its cited entries are counted, not proven."""
    app = Arbiter("sqlite:///:memory:", signer=SIGNER)
    app.create_season("spring")
    app.register_all("spring", PLAYERS)
    app.grant("spring", "ann", "garnets", 5, "start")
    app.create_match(match_id="m1", season="spring", game="sealed_bid",
                     setup={"players": PLAYERS}, host_seed="s" * 40, salt_key="ab" * 32,
                     unsigned=True)
    for actor, name, args in [("host", "open_match", {}), ("ann", "hint", {}),
                              ("ann", "bid", {"amount": 3}), ("host", "close_round", {}),
                              ("host", "close_round", {})]:
        app.submit("m1", actor, name, args)
    assert app.match("m1").ended and app.checkpoints("m1").notes == []
    public = bundle(app, PUBLIC)
    cited = [v[CITED]["entry"]["kind"] for v in values(public) if kind_of(v) == CITED]
    assert cited == ["MatchCreated", "GameOver", "MatchEnded"]  # as in the signed story
    full = bundle(app, FULL)
    cited_in_full = [v[CITED] for v in values(full) if kind_of(v) == CITED]
    assert len(cited_in_full) > len(cited)  # the full bundle cites the sealed postings too
    for lines in (public, full):
        audit = verified(lines)
        assert audit.match_notes == 0 and audit.uncovered == audit.cited == (
            len(cited) if lines is public else len(cited_in_full))
        assert audit.checkpoints[-1] == audit.entries  # the season's last change is signed


# -- one entry changed -----------------------------------------------------------------------

def changed(value):
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return ("0" if value[0] != "0" else "1") + value[1:]
    if isinstance(value, list):
        return [changed(value[0]), *value[1:]] if value else ["0" * 64]
    if value is None:
        return "x"
    key = sorted(value)[0]
    return {**value, key: changed(value[key])}


@pytest.mark.parametrize("field", sorted(ENVELOPE))
def test_a_change_in_any_field_of_an_entry_breaks_its_hash(public, field):
    seq = seq_of(public, "Granted")  # cy's public ToL grant: every field is set
    index = entry_at(public, seq)
    forged = {**values(public)[index], field: changed(values(public)[index][field])}
    assert failure(replaced(public, index, forged)) == ("bad_hash", seq)


def test_a_self_consistent_entry_that_does_not_follow_its_predecessor(public):
    index = entry_at(public, 6)
    entry = {**values(public)[index], "prev": "f" * 64}
    entry["hash"] = season_entry_hash(entry)
    assert failure(replaced(public, index, entry)) == ("broken_chain", 6)


def test_a_match_entry_hash_is_no_season_entry_hash(public):
    """The domain-separation prefix: an entry hashed as a match entry is refused."""
    index = entry_at(public, 2)
    entry = values(public)[index]
    entry["hash"] = entry_hash(entry)
    assert failure(replaced(public, index, entry)) == ("bad_hash", 2)


# -- entries dropped, inserted, moved, cut off -----------------------------------------------

def test_a_dropped_entry(public):
    index = entry_at(public, 3)
    assert failure([*public[:index], *public[index + 1:]]) == ("bad_seq", 3)


def test_an_inserted_entry(public):
    index = entry_at(public, 3)
    assert failure([*public[:index + 1], public[index], *public[index + 1:]]) == ("bad_seq", 4)


def test_an_inserted_forgery_that_links_to_its_predecessor(public):
    index = entry_at(public, 3)
    before = values(public)[index]
    forged = seal_season_entry(season="spring", seq=4, prev=before["hash"], salt_key=bytes(32),
                               public={"kind": "PlayerRegistered", "actor": "host", "at": None,
                                       "data": {"player": "mallory"}}, parts=[])
    lines = [*public[:index + 1], line(forged).encode(), *public[index + 1:]]
    assert failure(lines) == ("bad_seq", 5)


def test_two_entries_swapped(public):
    i, j = entry_at(public, 2), entry_at(public, 3)
    lines = list(public)
    lines[i], lines[j] = lines[j], lines[i]
    assert failure(lines) == ("bad_seq", 2)


@pytest.mark.parametrize("cut", ["lines", "mid-line", "newline", "before-citation"])
def test_a_truncated_bundle(full, cut):
    data = b"".join(full)
    last_cited = where(full, CITED)[-1]
    lines = {"lines": full[:-3], "mid-line": [data[:len(data) // 2]], "newline": [data[:-1]],
             "before-citation": full[:last_cited]}[cut]
    assert failure(lines)[0] == "truncated"


def test_a_missing_opening_and_a_missing_citation(full, public):
    opening = where(full, OPENING)[0]
    assert failure([*full[:opening], *full[opening + 1:]])[0] == "missing_opening"
    cited = where(public, CITED)[1]
    assert failure([*public[:cited], *public[cited + 1:]])[0] == "missing_citation"


def test_the_matches_checkpoints_come_first(public):
    index = where(public, MATCH_CHECKPOINTS)[0]
    assert failure([public[0], *public[index + 1:]])[0] == "unexpected_line"


# -- openings and the header -----------------------------------------------------------------

def test_a_replaced_plaintext_and_a_wrong_salt(full):
    index = where(full, OPENING)[0]
    opening = values(full)[index]
    opening[OPENING]["parts"][0]["data"]["amount"] = 50
    assert failure(replaced(full, index, opening))[0] == "bad_opening"
    opening = values(full)[index]
    opening[OPENING]["salts"][0] = "0" * 64
    assert failure(replaced(full, index, opening))[0] == "bad_salt"


@pytest.mark.parametrize("field, value, code", [
    ("season", "autumn", "malformed_header"),
    ("origin", "games.example.org/season/autumn", "malformed_header"),
    ("origin", "elsewhere.example/season/spring", "wrong_origin"),
    ("matches", [], "unexpected_line"),
    ("kind", "public", "malformed_header"),
    pytest.param("host_key", keys.generate("host.example").verifier_key(),
                 "wrong_host_key", id="host_key-another-wrong_host_key"),
    ("salt_key", "cd" * 32, "bad_salt"),
])
def test_a_header_that_does_not_tell_the_truth(full, field, value, code):
    header = values(full)[0]
    header[HEADER][field] = value
    assert failure(replaced(full, 0, header))[0] == code


# -- checkpoints -----------------------------------------------------------------------------

def test_a_season_checkpoint_re_signed_with_another_key(public):
    index = where(public, CHECKPOINT)[2]
    value = values(public)[index]
    text = parse_note(value[CHECKPOINT]["note"]).text
    other = keys.generate("host.example")
    forged = {CHECKPOINT: {**value[CHECKPOINT], "note": other.sign_note(text)}}
    assert failure(replaced(public, index, forged)) == ("wrong_host_key",
                                                        parse_checkpoint(text).size)
    # A header naming the other key: the key the host published, pinned, still refuses it.
    header = values(public)[0]
    header[HEADER]["host_key"] = other.verifier_key()
    lines = replaced(replaced(public, index, forged), 0, header)
    assert failure(lines, key=parse_verifier_key(SIGNER.verifier_key()))[0] == \
        "wrong_host_key"


def test_a_match_checkpoint_re_signed_with_another_key(public):
    index = where(public, MATCH_CHECKPOINTS)[0]
    value = values(public)[index]
    note = value[MATCH_CHECKPOINTS]["notes"][0]
    note["note"] = keys.generate("host.example").sign_note(parse_note(note["note"]).text)
    assert failure(replaced(public, index, value))[0] == "wrong_host_key"


def resigned(lines: list[bytes], number: int, edit) -> list[bytes]:
    """Season checkpoint `number` with its text changed by `edit`, signed by the host."""
    index = where(lines, CHECKPOINT)[number]
    value = values(lines)[index]
    text = edit(parse_note(value[CHECKPOINT]["note"]).text)
    return replaced(lines, index, {CHECKPOINT: {**value[CHECKPOINT],
                                                "note": SIGNER.sign_note(text)}})


def test_signed_standings_the_entries_do_not_add_up_to(public):
    def lie(text: str) -> str:
        close = parse_season_extensions(parse_checkpoint(text).extensions)
        return text.replace(close.standings, "0" * 64)

    assert failure(resigned(public, 3, lie))[0] == "standings_mismatch"


def test_a_season_checkpoint_naming_a_match_checkpoint_never_signed(public):
    last = len(where(public, CHECKPOINT)) - 1

    def lie(text: str) -> str:
        cp = parse_checkpoint(text)
        close = parse_season_extensions(cp.extensions)
        mark = close.matches[0]._replace(size=close.matches[0].size - 1)
        return checkpoint_body(cp.origin, cp.size, cp.root,
                               extensions(close.standings, [mark, *close.matches[1:]]))

    assert failure(resigned(public, last, lie))[0] == "unknown_match_checkpoint"


def test_a_checkpoint_out_of_its_place(public):
    index = where(public, CHECKPOINT)[1]
    lines = list(public)
    lines[index - 1], lines[index] = lines[index], lines[index - 1]
    assert failure(lines)[0] == "checkpoint_misplaced"


# -- citations -------------------------------------------------------------------------------

def test_a_cited_match_entry_that_is_not_the_one_the_match_signed(public):
    index = next(i for i in where(public, CITED)
                 if values(public)[i][CITED]["entry"]["kind"] == "GameOver")
    value = values(public)[index]
    entry = value[CITED]["entry"]
    entry["postings"][0]["amount"] = 3
    entry["hash"] = entry_hash(entry)
    assert failure(replaced(public, index, value))[0] == "not_in_match_log"


def test_a_sealed_citation_whose_part_does_not_open(full):
    index = next(i for i in where(full, CITED) if values(full)[i][CITED]["opening"])
    value = values(full)[index]
    value[CITED]["opening"]["part"]["postings"][0]["amount"] = -1
    assert failure(replaced(full, index, value))[0] == "not_in_match_log"


# -- the host's own forgeries: re-sealed, re-chained, re-signed ------------------------------

def reforged(story: Arbiter, edit) -> dict[str, list[bytes]]:
    """Both bundles after `edit(records)`, every entry re-sealed and re-linked and every season
    checkpoint re-signed by the host, standings and all, over the forged log."""
    season = copy.deepcopy(story.season("spring"))
    edit(season.records)
    key, prev = parse_salt_key(season.salt_key), GENESIS_PREV
    for record in season.records:
        e = record["entry"]
        public = None if e["kind"] is None else \
            {"kind": e["kind"], "actor": e["actor"], "at": e["at"], "data": e["public"]}
        record["entry"] = seal_season_entry(season="spring", seq=e["seq"], prev=prev,
                                            salt_key=key, public=public, parts=record["parts"])
        prev = record["entry"]["hash"]
    notes = []
    for stored in story.season_checkpoints("spring").notes:
        cp = parse_checkpoint(parse_note(stored["note"]).text)
        folded = Season(name="spring", salt_key=season.salt_key, record=season.records[0])
        for record in season.records[1:cp.size]:
            folded._apply(record)
        close = parse_season_extensions(cp.extensions)
        notes.append(SIGNER.sign_note(checkpoint_body(
            cp.origin, cp.size, root(leaves(r["entry"] for r in season.records[:cp.size])),
            extensions(standings_hash(public_standings(folded)), list(close.matches)))))
    matches = {"m1": story.match("m1")}
    match_notes = {"m1": [n["note"] for n in story.checkpoints("m1").notes]}
    return {kind: [raw.encode() + b"\n" for raw in "".join(export_season(
        season, notes, matches, match_notes, kind, SIGNER.verifier_key())).splitlines()]
        for kind in (PUBLIC, FULL)}


def record_of(records: list[dict], kind: str) -> dict:
    return next(r for r in records
                if (r["entry"]["kind"] or (r["parts"] or [{}])[0].get("kind")) == kind)


def test_the_host_cannot_take_more_than_a_player_has(story):
    def overdraw(records):
        # cy's public ToL grant becomes a fine of 3 ToLs she never had.
        grant = next(r for r in records if r["entry"]["kind"] == "Granted")
        grant["entry"]["public"]["amount"] = -3

    bundles = reforged(story, overdraw)
    assert failure(bundles[PUBLIC])[0] == "rerun_refused"


def test_a_forged_garnet_grant_is_caught_by_the_full_bundle(story):
    def overdraw(records):
        purse = record_of(records, "Granted")  # ann's purse, sealed to her
        purse["parts"][0]["data"]["amount"] = 1  # then her trade of 1 and a hint of 2 overdraw

    bundles = reforged(story, overdraw)
    assert verified(bundles[PUBLIC]).entries  # the public cannot see garnets
    # She trades her one garnet away; her hint's debit of 2 is then more than she has.
    hint = record_of(story.season("spring").records, "Posted")["entry"]["seq"]
    assert failure(bundles[FULL]) == ("rerun_refused", hint)


def test_a_posting_that_disagrees_with_its_matchs_signed_checkpoint(story):
    def inflate(records):
        posted = next(r for r in records if r["entry"]["kind"] == "Posted")
        posted["entry"]["public"]["postings"][0]["amount"] = 2  # the match awarded 1 ToL

    bundles = reforged(story, inflate)
    assert failure(bundles[PUBLIC])[0] == "citation_mismatch"


def test_a_sealed_posting_that_disagrees_with_its_match(story):
    def soften(records):
        hint = record_of(records, "Posted")  # ann's hint, sealed to her
        hint["parts"][0]["data"]["postings"][0]["amount"] = -1

    bundles = reforged(story, soften)
    assert verified(bundles[PUBLIC]).entries
    assert failure(bundles[FULL])[0] == "citation_mismatch"


def test_a_flipped_bit_anywhere_in_a_public_bundle_is_refused(public):
    """Every 29th byte of the whole bundle, its lowest bit flipped: verify refuses each."""
    data = b"".join(public)
    for position in range(0, len(data), 29):
        flipped = data[:position] + bytes([data[position] ^ 0x01]) + data[position + 1:]
        with pytest.raises(AuditError):
            verified(flipped.splitlines(keepends=True))
