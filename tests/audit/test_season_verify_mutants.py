"""verify of a season bundle: the cases mutation testing found untested, each worked out from
docs/audit.md ("Auditing a season", "`arbiter verify` of a season bundle") and the season's
rules (docs/architecture.md, "The season log"), on the story of tests/audit/test_season_bundle.py
and on a season played to its champion.
"""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path

import pytest

from audit import keys
from audit.any_bundle import verify_any
from audit.bundle import line
from audit.canonical import commitment, entry_hash
from audit.checkpoints import leaves
from audit.errors import AuditError
from audit.merkle import consistency_proof, inclusion_proof, root
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
    kind_of,
)
from audit.season_signing import MatchMark, extensions, parse_season_extensions
from audit.season_verify import SeasonAudit, verify_season
from audit.verify import Audit
from audit.witness import Seen
from commands.cli.matchfile import load, renamed, run
from commands.service.arbiter import Arbiter
from domain.envelope import season_entry_hash
from tests.audit.test_bundle import bundle_of, memory_app
from tests.audit.test_bundle import play as play_match
from tests.audit.test_season_bundle import (
    PLAYERS,
    SIGNER,
    bundle,
    entry_at,
    failure,
    played,
    replaced,
    values,
    verified,
    where,
)
from tests.test_season_flow import duel, play_totems

SEEDS = Path(__file__).resolve().parents[2] / "seeds"


@pytest.fixture(scope="module")
def story() -> Arbiter:
    return played()


@pytest.fixture(scope="module")
def public(story) -> list[bytes]:
    return bundle(story, PUBLIC)


@pytest.fixture(scope="module")
def full(story) -> list[bytes]:
    return bundle(story, FULL)


def nothing(_: object) -> None:
    """An edit's value, dropped: the helpers replace a line's value only when given one."""


def rehashed(lines: list[bytes], seq: int, edit) -> list[bytes]:
    """Season entry `seq` edited and hashed again (with the season prefix): the check under
    test is the first the edit meets, not the hash."""
    index = entry_at(lines, seq)
    entry = values(lines)[index]
    edit(entry)
    entry["hash"] = season_entry_hash(entry)
    return replaced(lines, index, entry)


# -- a season played to its champion ---------------------------------------------------------

@pytest.fixture(scope="module")
def crowned() -> dict[str, list[bytes]]:
    """Spring's seven players; the Totemic Might match (dee is its EC); gil named its DMO; the
    Death Match gil against dee, which dee wins, so gil leaves; ben, cal, eve and fin ruled out;
    the Final amy against dee, which dee wins: dee is the champion, amy the runner-up."""
    app = Arbiter("sqlite:///:memory:", signer=SIGNER)
    app.set_origin_prefix("games.example.org")
    play_totems(app)
    app.record_dmo("spring", "totems", "gil", "named by the winner")
    assert duel(app, "dm", "gil", "dee", from_match="totems")[1] == []
    for player in ("ben", "cal", "eve", "fin"):
        app.rule("spring", player, "season rule 4: not in the Final", status="eliminated")
    final = renamed(load(SEEDS / "tile_joust-fm-equaliser-tie.json"),
                    {"penzo": "amy", "jkitty": "dee"}).model_copy(
        update={"season": "spring", "match": "final"})
    assert run(app, final, final=True)[1] == []
    found = {kind: bundle(app, kind) for kind in (PUBLIC, FULL)}
    app.close()
    return found


def test_the_standings_of_a_season_played_to_its_champion(crowned):
    """The Final's winner is champion and the other finalist runner-up; the Death Match's
    loser is out in that match, the players ruled out are out by a ruling."""
    statuses = {"amy": ("runner_up", None), "dee": ("champion", None), "gil": ("out", "dm"),
                **{p: ("out", "a ruling") for p in ("ben", "cal", "eve", "fin")}}
    for kind in (PUBLIC, FULL):
        audit = verified(crowned[kind])
        rows = audit.standings()
        assert [r["player"] for r in rows] == ["amy", "ben", "cal", "dee", "eve", "fin", "gil"]
        assert {r["player"]: (r["status"], r["left_in"]) for r in rows} == statuses
        assert all(("garnets" in r) == (kind == FULL) for r in rows)
        report = audit.report()
        assert report[0] == f"{kind} bundle of season spring (games.example.org/season/spring):" \
            " 7 players, 3 matches"
        standings = [r for r in report if r.startswith("standing     ")]
        assert [s.split(",")[0] for s in standings] == [
            "standing     amy: runner_up", "standing     ben: out (a ruling)",
            "standing     cal: out (a ruling)", "standing     dee: champion",
            "standing     eve: out (a ruling)", "standing     fin: out (a ruling)",
            "standing     gil: out (dm)"]
        shape = r"standing     \w+: [a-z_]+( \([a-z ]+\))?, ToL \d+ Opal \d+ MoE \d+ EC \d+" + \
            (r" garnets \d+" if kind == FULL else "")
        assert all(re.fullmatch(shape, s) for s in standings), standings
        assert report[-1] == "verified"
        kinds = [v["kind"] for v in values(crowned[kind]) if kind_of(v) == ENTRY]
        assert kinds.count("Eliminated") == 1 and kinds.count("DmoRecorded") == 1
        assert kinds[-1] == "SeasonWon"


def test_the_rules_refuse_an_elimination_or_a_crown_they_did_not_make(crowned):
    """Re-run through the season's rules: gil, the Death Match's loser, is eliminated; naming
    dee instead is refused by the rules (she is no loser), and so is crowning amy, who lost
    the Final."""
    public = crowned[PUBLIC]
    seqs = {v["kind"]: v["seq"] for v in values(public) if kind_of(v) == ENTRY}
    out = rehashed(public, seqs["Eliminated"], lambda e: e["public"].update(player="dee"))
    assert failure(out)[1] == seqs["Eliminated"]
    crown = rehashed(public, seqs["SeasonWon"], lambda e: e["public"].update(player="amy"))
    assert failure(crown)[1] == seqs["SeasonWon"]


# -- the report -------------------------------------------------------------------------------

def test_the_report_of_the_story_line_by_line(story, public, full):
    """test_season_bundle's story: three players, one match, nobody out, no champion yet."""
    season = story.season("spring")
    n = season.version
    for lines in (public, full):
        audit = verified(lines)
        kind = FULL if lines is full else PUBLIC
        report = audit.report()
        assert report[0] == f"{kind} bundle of season spring (games.example.org/season/" \
            "spring): 3 players, 1 matches"
        assert report[1] == f"entries      {n}: every line canonical, every hash and chain " \
            "link holds"
        rest = report[3:] if kind == FULL else report[2:]
        cited = sum(1 for v in values(lines) if kind_of(v) == CITED)
        assert rest[0].startswith("matches      ") and rest[0].endswith(
            " signed match checkpoints, each extending the one before")
        assert rest[1] == f"citations    {cited} match entries the season rests on: {cited} " \
            "under their match's signed checkpoint"
        assert rest[2] == f"checkpoints  {len(audit.checkpoints)}, each extending the one " \
            f"before and signing the standings recomputed here; the last covers {n} of {n} " \
            "entries"
        assert rest[3] == f"signed by    {SIGNER.verifier_key()} (named by the header: pass " \
            "--key to pin the key the host published)"
        seen = "every entry" if kind == FULL else "every public entry (garnets are sealed)"
        assert rest[4] == f"rules        re-ran {seen} through the season's rules"
        assert [r.split(":")[1].split(",")[0] for r in rest[5:8]] == [" in"] * 3
        assert rest[8:] == ["verified"]
    pinned = verified(public, key=parse_verifier_key(SIGNER.verifier_key()))
    assert pinned.pinned and "(pinned with --key)" in pinned.report()[5]


def test_citations_not_yet_covered_are_reported_apart():
    """A match whose round 1 is still open: its genesis is under round 0's checkpoint, ann's
    hint (round 1) under none yet."""
    app = Arbiter("sqlite:///:memory:", signer=SIGNER)
    app.create_season("spring")
    app.register_all("spring", PLAYERS)
    app.grant("spring", "ann", "garnets", 5, "start")
    app.create_match(match_id="m1", season="spring", game="sealed_bid",
                     setup={"players": PLAYERS}, host_seed="s" * 40, salt_key="ab" * 32)
    app.submit("m1", "host", "open_match")
    app.submit("m1", "ann", "hint")
    report = verified(bundle(app, FULL)).report()
    assert "citations    2 match entries the season rests on: 1 under their match's signed " \
        "checkpoint, 1 after their match's last checkpoint (not yet signed)" in report
    app.close()


def test_a_season_never_signed_says_so():
    app = Arbiter("sqlite:///:memory:")
    app.create_season("spring")
    app.register_all("spring", PLAYERS)
    text = "".join(app.season_bundle("spring", PUBLIC, None))
    audit = verified([raw.encode() + b"\n" for raw in text.splitlines()])
    assert audit.checkpoints == [] and audit.signed_root is None
    assert "checkpoints  none: nothing in this bundle is signed" in audit.report()
    assert not any(r.startswith("signed by") for r in audit.report())
    app.close()


def test_an_audit_not_verified_has_no_season():
    header = json.loads(bundle(played(), PUBLIC)[0])[HEADER]
    from audit.season_bundle import SeasonHeader
    with pytest.raises(AssertionError):
        SeasonAudit(SeasonHeader.read(header)).rebuilt  # noqa: B018


# -- verify_any: told apart by the header's format --------------------------------------------

def test_verify_any_reads_a_match_bundle_as_one(public):
    app = memory_app()  # test_bundle's story, signed by test_bundle's key
    play_match(app)
    data = bundle_of(app, PUBLIC)
    progress = []
    audit = verify_any(io.BytesIO(data), progress=lambda done, total: progress.append(done))
    assert isinstance(audit, Audit) and audit.header.match == "m1" and progress
    assert isinstance(verify_any(iter(public)), SeasonAudit)
    stranger = parse_verifier_key(keys.generate("host.example").verifier_key())
    for lines in (data.splitlines(keepends=True), public):
        with pytest.raises(AuditError) as caught:
            verify_any(iter(lines), key=stranger)
        assert caught.value.code == "wrong_host_key"
    app.close()


@pytest.mark.parametrize("stream, code", [
    ([], "not_a_bundle"),                               # an empty file
    ([b"not json\n"], "not_a_bundle"),
    ([b"[1]\n"], "not_a_bundle"),                       # JSON, but no header
    ([b'{"header":5}\n'], "not_a_bundle"),
    ([b'{"header":{}}\n'], "malformed_header"),         # a header, of no season: the match's
])
def test_verify_any_sends_what_is_no_season_header_to_the_match_verifier(stream, code):
    with pytest.raises(AuditError) as caught:
        verify_any(iter(stream))
    assert caught.value.code == code


def test_a_season_header_of_a_match_bundle_format_is_read_as_a_match_bundle(public):
    header = values(public)[0]
    header[HEADER]["format"] = "arbiter-bundle/1"
    with pytest.raises(AuditError) as caught:
        verify_any(iter(replaced(public, 0, header)))
    assert caught.value.code == "malformed_header"  # a match header's fields are missing


# -- the order of lines (public story: entry 1 on line 2 after the one match's checkpoints) --

def index_of(lines: list[bytes], kind: str, number: int = 0) -> int:
    return [i for i, v in enumerate(values(lines)) if kind_of(v) == kind][number]


def cited_after(lines: list[bytes], seq: int) -> int:
    return next(i for i, v in enumerate(values(lines))
                if kind_of(v) == CITED and v[CITED]["seq"] == seq)


def line_edit(lines: list[bytes], index: int, kind: str, edit) -> list[bytes]:
    """Line `index`, a `kind` line, with its value edited in place, or replaced by what the
    edit returns."""
    value = values(lines)[index][kind]
    edited = edit(value)
    return replaced(lines, index, {kind: value if edited is None else edited})


def test_each_line_out_of_place_names_the_entry_it_follows(public):
    after_1 = entry_at(public, 1) + 1
    header, checkpoints = public[0], public[index_of(public, MATCH_CHECKPOINTS)]
    inserted = lambda raw: [*public[:after_1], raw, *public[after_1:]]  # noqa: E731
    assert failure(inserted(header)) == ("unexpected_line", 1)
    with pytest.raises(AuditError) as caught:
        verified(inserted(header))
    assert caught.value.line == after_1 + 1  # the bundle's line, counted from 1
    assert failure(inserted(line({"what": 1}).encode())) == ("malformed_line", 1)
    assert failure(inserted(checkpoints)) == ("unexpected_line", 1)
    assert failure(inserted(public[cited_after(public, 9)])) == ("unexpected_line", 1)
    # One match named, its checkpoints given twice before any entry.
    assert failure([header, checkpoints, *public[1:]]) == ("unexpected_line", None)
    # The first line must be the header; an empty bundle has none.
    assert failure(public[1:]) == ("malformed_header", None)
    assert failure([]) == ("malformed_header", None)


def test_every_match_the_header_names_has_its_checkpoints_before_the_entries(public):
    header = values(public)[0]
    header[HEADER]["matches"] = ["m1", "m2"]
    assert failure(replaced(public, 0, header)) == ("unexpected_line", None)
    header[HEADER]["matches"] = ["m0", "m1"]  # m0's line is due first
    assert failure(replaced(public, 0, header)) == ("malformed_checkpoint", None)


@pytest.mark.parametrize("edit", [
    lambda m: m.update(extra=1),
    lambda m: nothing(m.pop("notes")),
    lambda m: m.update(match="m2"),
    lambda m: m.update(notes="none"),
    lambda m: "m1",
    lambda m: m["notes"][1].update(extra=1),
    lambda m: nothing(m["notes"][1].pop("consistency")),
    lambda m: m["notes"][1].update(note=5),
    lambda m: m["notes"][1].update(consistency="none"),
    lambda m: m["notes"].__setitem__(1, "a note"),
    lambda m: m["notes"][1].update(consistency=["not base64"]),
])
def test_a_matchs_checkpoints_of_the_wrong_shape(public, edit):
    forged = line_edit(public, index_of(public, MATCH_CHECKPOINTS), MATCH_CHECKPOINTS, edit)
    assert failure(forged) == ("malformed_checkpoint", None)


def test_a_matchs_checkpoints_that_do_not_extend_each_other(public):
    index = index_of(public, MATCH_CHECKPOINTS)
    value = values(public)[index]
    notes = value[MATCH_CHECKPOINTS]["notes"]
    notes[0]["consistency"] = notes[1]["consistency"][:1]  # the first has no proof to give
    assert failure(replaced(public, index, value)) == ("inconsistent_checkpoints", None)
    value = values(public)[index]
    value[MATCH_CHECKPOINTS]["notes"][2]["consistency"] = []
    assert failure(replaced(public, index, value)) == ("inconsistent_checkpoints", None)
    value = values(public)[index]
    del value[MATCH_CHECKPOINTS]["notes"][1]  # the third does not extend the first
    assert failure(replaced(public, index, value)) == ("inconsistent_checkpoints", None)


def test_the_matches_signed_checkpoints_are_counted(public, full):
    notes = len(values(public)[index_of(public, MATCH_CHECKPOINTS)][MATCH_CHECKPOINTS]["notes"])
    assert notes == 3  # m1's rounds 0, 1 and its end
    for lines in (public, full):
        audit = verified(lines)
        assert audit.match_notes == 3
        assert "matches      3 signed match checkpoints, each extending the one before" in \
            audit.report()


# -- entries -----------------------------------------------------------------------------------

@pytest.mark.parametrize("seq, edit", [
    (2, lambda e: e.update(extra=1)),
    (2, lambda e: e.pop("at")),
    (2, lambda e: e.update(v=2)),
    (2, lambda e: e.update(season="autumn")),
    (2, lambda e: e.update(seals="none")),
    (2, lambda e: e.update(seals=[5])),
    (2, lambda e: e.update(seals=["0" * 63])),
    (2, lambda e: e.update(seals=["0" * 64])),                  # a public entry has none
    (2, lambda e: e.update(kind=5)),
    (2, lambda e: e.update(actor=None)),
    (2, lambda e: e.update(at=5)),
    (2, lambda e: e.update(public=[])),
    (5, lambda e: e.update(actor="host")),                      # sealed: only its commitment
    (5, lambda e: e.update(at="2026-12-01T20:02:00Z")),
    (5, lambda e: e.update(public={})),
    (5, lambda e: e.update(seals=[])),
    (5, lambda e: e.update(seals=e["seals"] * 2)),
])
def test_a_season_entry_of_the_wrong_envelope_is_malformed(public, seq, edit):
    assert failure(rehashed(public, seq, edit)) == ("malformed_entry", seq)


def test_a_public_season_entry_may_carry_no_time(public):
    # The envelope holds and the rules make the entry with no time; only the next entry's
    # link to it then breaks.
    assert failure(rehashed(public, 2, lambda e: e.update(at=None))) == ("broken_chain", 3)


def test_a_seq_that_is_no_integer_and_an_entry_past_the_header(public):
    assert failure(rehashed(public, 1, lambda e: e.update(seq=True))) == ("bad_seq", 1)
    header = values(public)[0]
    header[HEADER]["entries"] = 15
    assert failure(replaced(public, 0, header)) == ("unexpected_line", 16)


def test_a_season_entry_hash_that_is_no_text(public):
    index = entry_at(public, 2)
    assert failure(replaced(public, index, {**values(public)[index], "hash": 5})) == \
        ("bad_hash", 2)


# -- the season's rules, entry by entry ----------------------------------------------------------

@pytest.mark.parametrize("seq, edit, code", [
    (1, lambda e: e.update(kind="SeasonBegun"), "rerun_mismatch"),
    (2, lambda e: e.update(kind="PlayerInvited"), "rerun_mismatch"),      # no such change
    (3, lambda e: e["public"].update(player="ann"), "rerun_refused"),      # registered twice
    (2, lambda e: e["public"].pop("player"), "malformed_entry"),          # not readable
    (2, lambda e: e["public"].update(player=["ann"]), "rerun_refused"),
    (2, lambda e: e.update(actor="system"), "rerun_mismatch"),            # the rules say host
    (7, lambda e: e["public"].update(amount="2"), "rerun_refused"),
    (7, lambda e: e["public"].pop("reason"), "malformed_entry"),
])
def test_a_season_entry_the_rules_do_not_make(public, seq, edit, code):
    assert failure(rehashed(public, seq, edit)) == (code, seq)


# -- openings (full bundle: entry 5 is ann's sealed purse) --------------------------------------

def opening_of(lines: list[bytes], seq: int, edit) -> list[bytes]:
    index = next(i for i, v in enumerate(values(lines))
                 if kind_of(v) == OPENING and v[OPENING]["seq"] == seq)
    return line_edit(lines, index, OPENING, edit)


@pytest.mark.parametrize("edit, code", [
    (lambda o: o.update(extra=1), "missing_opening"),
    (lambda o: nothing(o.pop("salts")), "missing_opening"),
    (lambda o: o.update(seq=6), "missing_opening"),
    (lambda o: [o], "missing_opening"),
    (lambda o: o.update(parts="parts"), "bad_opening"),
    (lambda o: o.update(salts="salts"), "bad_opening"),
    (lambda o: o.update(parts=[], salts=[]), "bad_opening"),
    (lambda o: o.update(parts=o["parts"] * 2), "bad_opening"),
    (lambda o: o.update(salts=o["salts"] * 2), "bad_opening"),
    (lambda o: o.update(salts=["0" * 64]), "bad_salt"),
    (lambda o: o["parts"][0].update(extra=1), "bad_opening"),
    (lambda o: nothing(o["parts"][0].pop("at")), "bad_opening"),
    (lambda o: o["parts"][0].update(data=[]), "bad_opening"),
    (lambda o: o["parts"].__setitem__(0, "part"), "bad_opening"),
    (lambda o: o["parts"][0]["data"].update(amount=6), "bad_opening"),
])
def test_an_opening_of_the_wrong_shape(full, edit, code):
    assert failure(opening_of(full, 5, edit)) == (code, 5)


def test_an_opening_where_none_is_due(full, public):
    opening = full[index_of(full, OPENING)]
    at = entry_at(public, 5) + 1  # a public bundle opens nothing
    assert failure([*public[:at], opening, *public[at:]]) == ("unexpected_line", 5)
    assert failure([*full[:entry_at(full, 5)], *full[entry_at(full, 5) + 1:]]) == \
        ("unexpected_line", 4)  # entry 5 dropped: its opening follows entry 4, a public one
    dropped = [*full[:entry_at(full, 5) + 1], *full[entry_at(full, 5) + 2:]]
    assert failure(dropped) == ("missing_opening", 5)
    # Sealed, one part each: ann's and bob's purses, the trade, and four postings (ann's hint,
    # bob's and cy's missed bids in round 1, ann's in round 2).
    assert verified(full).opened == 7


# -- citations (public: entry 9 MatchAdded cites m1's genesis, 14 Posted its entry 19, 15
# MatchFinished its end, entry 21; full: also the sealed postings 10-13) ------------------------

def cited_edit(lines: list[bytes], seq: int, edit) -> list[bytes]:
    return line_edit(lines, cited_after(lines, seq), CITED, edit)


@pytest.mark.parametrize("edit", [
    lambda c: c.update(extra=1),
    lambda c: nothing(c.pop("opening")),
    lambda c: c.update(seq=10),
    lambda c: c.update(match="m2"),
    lambda c: c.update(entry="entry 1"),
    lambda c: c.update(proof="none"),
    lambda c: c.update(size="22"),
    lambda c: c.update(size=True) and None,
    lambda c: "cited",
    lambda c: c["entry"].update(round=1),                        # not as hashed
    lambda c: c["entry"].update(hash=5),
    lambda c: c.update(size=None),                               # signed: the proof is due
    lambda c: c.update(size=None, proof=[]),
])
def test_a_citation_of_the_wrong_shape(public, edit):
    assert failure(cited_edit(public, 9, edit)) == ("malformed_citation", 9)


def test_a_citation_of_another_entry_or_match(public, story):
    other = [r["entry"] for r in story.match("m1").records]
    assert failure(cited_edit(public, 9, lambda c: c.update(entry=other[1]))) == \
        ("malformed_citation", 9)
    renamed_match = {**other[0], "match": "m2"}
    renamed_match["hash"] = entry_hash(renamed_match)
    assert failure(cited_edit(public, 9, lambda c: c.update(entry=renamed_match))) == \
        ("malformed_citation", 9)


@pytest.mark.parametrize("edit", [
    lambda c: c.update(size=21),                                 # no checkpoint of that size
    lambda c: c.update(proof=c["proof"][1:]),
    lambda c: c.update(proof=[*c["proof"][:-1], c["proof"][0]]),
])
def test_a_citation_not_in_the_matchs_signed_log(public, edit):
    assert failure(cited_edit(public, 14, edit)) == ("not_in_match_log", 14)


def test_a_citation_whose_proof_is_not_base64(public):
    assert failure(cited_edit(public, 14, lambda c: c.update(proof=["not base64"]))) == \
        ("malformed_checkpoint", 14)


@pytest.mark.parametrize("seq, edit", [
    (9, lambda d: d.update(players=["bob", "ann", "cy"])),
    (9, lambda d: d.update(game="whispers")),
    (9, lambda d: d.update(genesis="0" * 64)),
    (14, lambda d: d["postings"][0].update(reason="runner-up")),
    (15, lambda d: d.update(outcome="abandoned")),
    (15, lambda d: d.update(winners=["bob"])),
])
def test_what_the_season_took_from_a_match_entry_must_be_what_it_says(public, seq, edit):
    assert failure(rehashed(public, seq, lambda e: edit(e["public"]))) == \
        ("citation_mismatch", seq)


def test_a_match_of_another_season_is_no_match_of_this_one(story):
    """MatchAdded's season must be the genesis entry's: a match created in another season
    cannot be added, even with its real genesis, players and game."""
    app = Arbiter("sqlite:///:memory:", signer=SIGNER)
    app.set_origin_prefix("games.example.org")
    for season in ("spring", "autumn"):
        app.create_season(season)
        app.register_all(season, PLAYERS)
    for season in ("spring", "autumn"):
        app.create_match(match_id=f"m-{season}", season=season, game="sealed_bid",
                         setup={"players": PLAYERS}, host_seed="s" * 40, salt_key="ab" * 32)
    lines = bundle(app, PUBLIC)
    autumn = app.match("m-autumn").records[0]["entry"]
    added = next(v["seq"] for v in values(lines) if kind_of(v) == ENTRY
                 and v["kind"] == "MatchAdded")
    forged = cited_edit(lines, added, lambda c: c.update(entry=autumn))
    assert failure(forged)[1] == added
    app.close()


# -- sealed postings cited in a full bundle (entry 10: ann's hint, cited with its part) ----------

@pytest.mark.parametrize("edit, code", [
    (lambda o: o.update(extra=1), "malformed_citation"),
    (lambda o: nothing(o.pop("salt")), "malformed_citation"),
    (lambda o: o.update(salt=5), "malformed_citation"),
    (lambda o: o.update(salt=o["salt"][:63]), "malformed_citation"),
    (lambda o: o.update(salt="z" * 64), "not_in_match_log"),
    (lambda o: o.update(salt="0" * 64), "not_in_match_log"),
    (lambda o: o["part"].update(extra=1), "bad_opening"),
    (lambda o: o["part"]["data"].update(extra=1), "not_in_match_log"),
])
def test_a_sealed_match_entry_cited_without_its_part(full, edit, code):
    assert failure(cited_edit(full, 10, lambda c: edit(c["opening"]))) == (code, 10)
    assert failure(cited_edit(full, 10, lambda c: c.update(opening=None))) == \
        ("malformed_citation", 10)


def test_a_sealed_posting_of_another_audience_is_not_the_seasons(full):
    """The cited part's postings count only when its audience is the season entry's."""
    def audience(c):
        c["opening"]["part"]["audience"] = ["bob"]
    assert failure(cited_edit(full, 10, audience))[0] == "not_in_match_log"  # sealed with ann



# -- season checkpoints (public story: after entries 1, 4, 7, 8, 9, 10, 12, 15 and 16) ---------

def checkpoint_edit(lines: list[bytes], number: int, edit) -> list[bytes]:
    return line_edit(lines, index_of(lines, CHECKPOINT, number), CHECKPOINT, edit)


@pytest.mark.parametrize("edit", [
    lambda c: c.update(extra=1),
    lambda c: nothing(c.pop("consistency")),
    lambda c: c.update(note=5),
    lambda c: c.update(consistency="none"),
    lambda c: "a note",
    lambda c: c.update(consistency=["not base64"]),
    lambda c: c.update(note="no note\n"),
])
def test_a_season_checkpoint_line_of_the_wrong_shape(public, edit):
    assert failure(checkpoint_edit(public, 1, edit)) == ("malformed_checkpoint", 4)


def test_the_header_announces_the_season_checkpoints(public):
    assert len(where(public, CHECKPOINT)) == 9
    header = values(public)[0]
    header[HEADER]["checkpoints"] = 8
    assert failure(replaced(public, 0, header)) == ("unexpected_line", 16)
    header[HEADER]["checkpoints"] = 10
    assert failure(replaced(public, 0, header)) == ("missing_checkpoint", 16)
    del header[HEADER]["checkpoints"]  # announced by none: every one is taken as it comes
    # One after each change: the start (1), the registrations (4), the grants (7), the trade
    # (8), the match added (9), ann's hint (10), round 1's two missed bids (12), round 2's
    # missed bid, the award and the end (15), the ruling (16).
    assert verified(replaced(public, 0, header)).checkpoints == [1, 4, 7, 8, 9, 10, 12, 15, 16]
    last = index_of(public, CHECKPOINT, 8)
    assert verified(replaced(public[:last], 0, header)).checkpoints[-1] == 15


def test_season_checkpoints_that_do_not_extend_each_other(public):
    second = values(public)[index_of(public, CHECKPOINT, 1)][CHECKPOINT]
    assert failure(checkpoint_edit(public, 0, lambda c: c.update(
        consistency=second["consistency"][:1]))) == ("inconsistent_checkpoints", 1)
    assert failure(checkpoint_edit(public, 1, lambda c: c.update(consistency=[]))) == \
        ("inconsistent_checkpoints", 4)


def resign(lines: list[bytes], number: int, *, root: bytes | None = None,
           standings: str | None = None, marks=None) -> list[bytes]:
    def edit(c):
        cp = parse_checkpoint(parse_note(c["note"]).text)
        close = parse_season_extensions(cp.extensions)
        c["note"] = SIGNER.sign_note(checkpoint_body(
            cp.origin, cp.size, cp.root if root is None else root,
            extensions(standings or close.standings,
                       list(close.matches) if marks is None else marks(close.matches))))
    return checkpoint_edit(lines, number, edit)


def test_a_season_checkpoint_re_signed_over_another_root_or_standings(public):
    assert verified(resign(public, 0)).entries == 16  # re-signed alike
    assert failure(resign(public, 0, root=bytes(32))) == ("root_mismatch", 1)
    assert failure(resign(public, 8, standings="0" * 64)) == ("standings_mismatch", 16)


def test_a_season_checkpoint_naming_a_match_checkpoint_the_host_did_not_sign(public):
    m1 = values(public)[index_of(public, MATCH_CHECKPOINTS)][MATCH_CHECKPOINTS]["notes"]
    first = parse_checkpoint(parse_note(m1[0]["note"]).text)
    mark = MatchMark("m1", first.size, base64.b64encode(first.root).decode())
    # Checkpoint 4 (after entry 9, m1 added) may name it; checkpoint 1 (entry 4) may not: m1
    # is no match of the season yet.
    assert verified(resign(public, 4, marks=lambda marks: [mark])).entries == 16
    assert failure(resign(public, 1, marks=lambda marks: [mark])) == \
        ("unknown_match_checkpoint", 4)
    other_root = mark._replace(root=base64.b64encode(bytes(32)).decode())
    assert failure(resign(public, 4, marks=lambda marks: [other_root])) == \
        ("unknown_match_checkpoint", 9)
    other_match = mark._replace(match="m2")
    assert failure(resign(public, 4, marks=lambda marks: [other_match])) == \
        ("unknown_match_checkpoint", 9)


def test_a_season_bundle_without_a_key_to_check_it_with(public):
    header = values(public)[0]
    header[HEADER]["host_key"] = None
    unkeyed = replaced(public, 0, header)
    assert failure(unkeyed) == ("no_host_key", None)  # m1's checkpoints come first
    audit = verified(unkeyed, key=parse_verifier_key(SIGNER.verifier_key()))
    assert audit.pinned and audit.signer is not None and audit.entries == 16


def test_the_last_signed_root_is_kept(public):
    last = values(public)[index_of(public, CHECKPOINT, 8)][CHECKPOINT]["note"]
    cp = parse_checkpoint(parse_note(last).text)
    audit = verified(public)
    assert (audit.checkpoints[-1], audit.signed_root) == (cp.size, cp.root) == (16, cp.root)
    assert audit.season is audit.rebuilt and audit.rebuilt.version == 16


# -- the witness: the largest season checkpoint seen before -----------------------------------

def seen_at(lines: list[bytes], number: int, root: bytes | None = None) -> Seen:
    note = values(lines)[index_of(lines, CHECKPOINT, number)][CHECKPOINT]["note"]
    cp = parse_checkpoint(parse_note(note).text)
    return Seen(cp.origin, SIGNER.verifier_key(), cp.size, cp.root if root is None else root)


def test_a_season_seen_before_must_be_extended_not_rewritten_nor_rolled_back(public):
    assert verify_season(iter(public), seen=seen_at(public, 1)).entries == 16
    assert verify_season(iter(public), seen=seen_at(public, 8)).entries == 16
    with pytest.raises(AuditError) as caught:
        verify_season(iter(public), seen=seen_at(public, 1, root=bytes(32)))
    assert (caught.value.code, caught.value.seq) == ("inconsistent_checkpoints", 4)
    # Seen signed at 16; a bundle whose last checkpoint is at 15 was rolled back.
    header = values(public)[0]
    header[HEADER]["checkpoints"] = 8
    older = replaced(public[:index_of(public, CHECKPOINT, 8)], 0, header)
    with pytest.raises(AuditError) as caught:
        verify_season(iter(older), seen=seen_at(public, 8))
    assert (caught.value.code, caught.value.seq) == ("rolled_back", 16)
    # No checkpoint at all covers 0 entries under a signature.
    header[HEADER]["checkpoints"] = 0
    bare = [line(header).encode(), *(raw for raw in public[1:]
                                      if kind_of(json.loads(raw)) != CHECKPOINT)]
    with pytest.raises(AuditError) as caught:
        verify_season(iter(bare), seen=seen_at(public, 0))
    assert (caught.value.code, caught.value.seq) == ("rolled_back", 16)


# -- the end ------------------------------------------------------------------------------------

def test_a_season_bundle_cut_names_what_is_missing(public, full):
    header = values(public)[0]
    cut = public[:entry_at(public, 15) + 1]  # entry 15 without its citation
    assert failure(cut) == ("truncated", 16)
    header[HEADER]["entries"] = 15
    assert failure(replaced(cut, 0, header)) == ("truncated", 15)
    header = values(full)[0]
    header[HEADER]["entries"] = 13
    sealed = full[:entry_at(full, 13) + 1]  # entry 13 without its opening
    assert failure(replaced(sealed, 0, header)) == ("truncated", 13)
    at_16 = public[:entry_at(public, 16) + 1]  # its checkpoint cut
    assert failure(at_16) == ("missing_checkpoint", 16)


def test_a_season_checkpoint_before_the_first_entry_is_misplaced(public):
    """A checkpoint of size 0 (the empty log's root), signed by the key the header names, put
    before entry 1: refused with a code, as every failure is, not a crash of the verifier."""
    note = SIGNER.sign_note(checkpoint_body("games.example.org/season/spring", 0, root([]),
                                            extensions("0" * 64, [])))
    first = entry_at(public, 1)
    forged = [*public[:first], line({CHECKPOINT: {"note": note, "consistency": []}}).encode(),
              *public[first:]]
    assert failure(forged) == ("checkpoint_misplaced", None)


def test_a_season_part_of_the_wrong_shape_that_opens_its_commitment(full):
    """Entry 5 (ann's purse) sealed again over a part of the wrong shape, its commitment and
    hash made anew: the part opens its seal, but a part is {audience, kind, actor, at, data}
    with `data` an object (`bad_opening`, entry 5)."""
    at = entry_at(full, 5)
    entry, opening = values(full)[at], values(full)[at + 1][OPENING]
    for bad in ({**opening["parts"][0], "extra": 1}, {**opening["parts"][0], "data": []}):
        sealed = {**entry, "seals": [commitment(bytes.fromhex(opening["salts"][0]), bad)]}
        sealed["hash"] = season_entry_hash(sealed)
        forged = replaced(replaced(full, at, sealed), at + 1, {OPENING: {**opening,
                                                                         "parts": [bad]}})
        assert failure(forged) == ("bad_opening", 5)


def test_a_citation_without_a_proof_where_a_signed_checkpoint_covers_it_exactly(story, public):
    """m1 signed at 6, 15 and 21 (its end, entry 21, then the last entry signed): the
    MatchFinished (season entry 15) cites entry 21, which the checkpoint of size 21 covers, so
    a citation with no size and no proof is refused (`malformed_citation`)."""
    entries = [r["entry"] for r in story.match("m1").records][:21]
    b64s = lambda hashes: [base64.b64encode(h).decode() for h in hashes]  # noqa: E731
    index = index_of(public, MATCH_CHECKPOINTS)
    value = values(public)[index]
    notes = value[MATCH_CHECKPOINTS]["notes"][:2]
    body = checkpoint_body("games.example.org/match/m1", 21, root(leaves(entries)),
                           extensions_of(notes[1]["note"]))
    notes.append({"note": SIGNER.sign_note(body),
                  "consistency": b64s(consistency_proof(15, leaves(entries)))})
    value[MATCH_CHECKPOINTS]["notes"] = notes
    lines = replaced(public, index, value)
    for seq, cited in ((9, 1), (14, 19), (15, 21)):  # each under the checkpoint of 21 now
        lines = cited_edit(lines, seq, lambda c, cited=cited: c.update(
            size=21, proof=b64s(inclusion_proof(cited - 1, leaves(entries)))))
    # All holds until the season checkpoint after entry 15, which names m1's checkpoint of 22.
    assert failure(lines) == ("unknown_match_checkpoint", 15)
    assert failure(cited_edit(lines, 15, lambda c: c.update(size=None, proof=[]))) == \
        ("malformed_citation", 15)


def extensions_of(note: str) -> list[str]:
    return list(parse_checkpoint(parse_note(note).text).extensions)


def test_an_abandoned_match_is_finished_on_its_match_abandoned_entry():
    """The host ends a match before its end: the season's MatchFinished (abandoned, no
    outcome, no winners) cites the match's MatchAbandoned entry, and both bundles verify."""
    app = Arbiter("sqlite:///:memory:", signer=SIGNER)
    app.create_season("spring")
    app.register_all("spring", PLAYERS)
    app.create_match(match_id="m1", season="spring", game="sealed_bid",
                     setup={"players": PLAYERS}, host_seed="s" * 40, salt_key="ab" * 32)
    app.submit("m1", "host", "open_match")
    app.submit("m1", "host", "end", {"reason": "the host's connection died"})
    for kind in (PUBLIC, FULL):
        lines = bundle(app, kind)
        cited = [v[CITED]["entry"]["kind"] for v in values(lines) if kind_of(v) == CITED]
        assert cited == ["MatchCreated", "MatchAbandoned"]
        finished = next(v for v in values(lines) if kind_of(v) == ENTRY
                        and v["kind"] == "MatchFinished")
        assert finished["public"]["abandoned"] is True
        assert verified(lines).cited == 2
    app.close()


@pytest.mark.parametrize("public_data", [{}, {"results": 5}, {"results": {"ranks": []}},
                                         {"results": {"details": 5}}])
def test_a_match_end_the_rules_cannot_read_is_a_citation_mismatch(story, public, public_data):
    """m1's log re-written by the key the header names (a forger's own key would do): its
    MatchEnded (entry 21) holds no readable results, entry 22 re-linked, the checkpoint of 22
    re-signed, every citation proven anew. What the season's MatchFinished (entry 15) took
    from that end cannot be what it says: `citation_mismatch`, not a crash of the verifier."""
    entries = [dict(r["entry"]) for r in story.match("m1").records]
    entries[20] = {**entries[20], "public": public_data}
    entries[20]["hash"] = entry_hash(entries[20])
    entries[21] = {**entries[21], "prev": entries[20]["hash"]}
    entries[21]["hash"] = entry_hash(entries[21])
    b64s = lambda hashes: [base64.b64encode(h).decode() for h in hashes]  # noqa: E731
    index = index_of(public, MATCH_CHECKPOINTS)
    value = values(public)[index]
    last = value[MATCH_CHECKPOINTS]["notes"][2]
    body = checkpoint_body("games.example.org/match/m1", 22, root(leaves(entries)),
                           extensions_of(last["note"]))
    last.update(note=SIGNER.sign_note(body),
                consistency=b64s(consistency_proof(15, leaves(entries))))
    lines = replaced(public, index, value)
    for seq, cited in ((9, 1), (14, 19), (15, 21)):
        lines = cited_edit(lines, seq, lambda c, cited=cited: c.update(
            entry=entries[cited - 1], proof=b64s(inclusion_proof(cited - 1, leaves(entries)))))
    assert failure(lines) == ("citation_mismatch", 15)
