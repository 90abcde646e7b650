"""Bundles: their layout, canonical lines, what a public bundle must never hold, state roots.

Also the helpers the other audit tests share: a signed sealed_bid match played through the
service, and its bundles as bytes.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
from dataclasses import dataclass, field

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from audit import canonical as audit_canonical
from audit import keys
from audit.bundle import CHECKPOINT, ENTRY, FULL, HEADER, OPENING, PUBLIC, export, kind_of
from audit.canonical import NotCanonical, canonical, entry_hash, loads, read_fast, salt
from audit.notes import parse_checkpoint, parse_note
from audit.signing import parse_extensions
from audit.state_root import state_root, to_json
from audit.verify import verify
from commands.service.arbiter import Arbiter
from domain import canonical as domain_canonical
from domain.errors import RuleViolation
from domain.match import parse_salt_key

PLAYERS = ["ann", "bob", "cy"]
SEED = "CANARY-SEED-" + "s" * 30
SALT_KEY = "ab" * 32
SIGNER = keys.generate("host.example")
STORY = [
    ("bob", "contribute", {"text": "bob's luck"}),
    ("host", "open_match", {}),
    ("ann", "bid", {"amount": 3, "note": "CANARY-ANN-NOTE"}),
    ("bob", "bid", {"amount": 5}),
    ("ann", "hint", {}),
    ("host", "close_round", {}),  # round 1: bob wins
    ("cy", "bid", {"amount": 2}),
    ("cy", "bid", {"amount": 9, "note": "CANARY-CY-NOTE"}),
    ("host", "correct", {"void": 22, "reason": "CANARY-REASON cy typed 9"}),  # seq 22: cy's 9
    ("ann", "bid", {"amount": 7}),
    ("host", "close_round", {}),  # round 2: ann wins, and the match ends
]


def memory_app(signer=SIGNER) -> Arbiter:
    return Arbiter("sqlite:///:memory:", signer=signer)


def start(app: Arbiter, match_id: str = "m1", garnets=(5, 1, 0), rounds: int = 2,
          season: str = "spring", unsigned: bool = False) -> None:
    """A season (if new) with the three players, and a sealed_bid match of `rounds` rounds."""
    try:
        app.create_season(season)
        for player, amount in zip(PLAYERS, garnets, strict=True):
            app.register(season, player)
            if amount:
                app.grant(season, player, "garnets", amount, "starting purse")
    except RuleViolation as error:
        if error.code != "season_exists":
            raise
    app.create_match(match_id=match_id, season=season, game="sealed_bid",
                     setup={"players": PLAYERS, "rounds": rounds}, host_seed=SEED,
                     salt_key=SALT_KEY, at="2026-11-21T20:00:00Z", unsigned=unsigned)


def play(app: Arbiter, steps=STORY, match_id: str = "m1", **kwargs) -> None:
    start(app, match_id, **kwargs)
    for number, (actor, name, args) in enumerate(steps):
        app.submit(match_id, actor, name, args, at=f"2026-11-21T20:{number + 1:02d}:00Z")


def bundle_of(app: Arbiter, kind: str, match_id: str = "m1", signer=SIGNER) -> bytes:
    notes = [n["note"] for n in app.checkpoints(match_id).notes]
    host_key = signer.verifier_key() if signer else None
    return "".join(export(app.match(match_id), notes, kind, host_key)).encode()


def verified(data: bytes, **kwargs):
    return verify(io.BytesIO(data), **kwargs)


def lines_of(data: bytes) -> list[dict]:
    return [json.loads(line) for line in data.splitlines()]


def played_story():
    """The story played once, in memory, for tests that only read its bundles (a module-scoped
    fixture named `story` wherever it is registered)."""
    app = memory_app()
    play(app)
    yield app
    app.close()


story_fixture = pytest.fixture(played_story, scope="module", name="story")


# -- canonical lines -------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.text()
    | st.integers(-audit_canonical.MAX_SAFE_INTEGER, audit_canonical.MAX_SAFE_INTEGER),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_a_canonical_line_reads_back_to_its_value(value):
    text = canonical(value).decode()
    assert loads(text) == value
    below = all(ord(char) < 0xE000 for char in text)  # where key orders agree
    assert read_fast(text.encode() + b"\n") == (value if below else None)


@pytest.mark.parametrize("text", [
    '{"b":1,"a":2}', '{"a": 1}', '{"a":1.0}', '{"a":9007199254740992}', '{"a":1,"a":1}',
    '{"a":"\\u0041"}', ' {"a":1}', '{"a":NaN}', '{"a":-0}', '{"a":1e2}', '{"a":1E2}',
    '{"a":-1.5e-7}', '{"a":18446744073709551616}', '{"a":-9007199254740992}', '[1,]',
    '{"a":"\\u001F"}', '{"a":"\\/"}', '{"a":[1,{"c":1,"b":2}]}', '{"a":1}\n'])
def test_a_line_that_is_not_its_canonical_text_is_refused(text):
    with pytest.raises(ValueError):  # NotCanonical, or JSONDecodeError for what is not JSON
        loads(text)
    assert read_fast(text.encode() + b"\n") is None


def test_keys_past_u_e000_go_the_exact_way_where_utf_16_order_differs():
    value = {"\ue000": 1, "\U0001f600": 2}  # UTF-16: D83D DE00 sorts before E000
    text = canonical(value)
    assert text.decode().index("\U0001f600") < text.decode().index("\ue000")
    assert read_fast(text + b"\n") is None and loads(text.decode()) == value
    by_code_point = '{"\ue000":1,"\U0001f600":2}'.encode()
    assert read_fast(by_code_point + b"\n") is None
    with pytest.raises(NotCanonical):
        loads(by_code_point.decode())


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=12))
def test_the_fast_reader_escapes_every_ascii_text_as_rfc_8785_does(text):
    line = canonical({"t": text}) + b"\n"
    assert read_fast(line) == {"t": text}
    assert read_fast(line.replace(b'"t"', b'"t" ')) is None


def test_audit_re_exports_the_ledgers_encoding_rather_than_a_copy():
    assert audit_canonical.canonical is domain_canonical.canonical
    assert audit_canonical.NotCanonical is domain_canonical.NotCanonical
    with pytest.raises(NotCanonical):
        loads('{"gold":9007199254740992}')
    assert loads('{"gold":9007199254740991}') == {"gold": 2**53 - 1}


def test_an_event_hash_is_reproducible_from_its_bundle_line_alone(story):
    for line in bundle_of(story, PUBLIC).decode().splitlines():
        value = json.loads(line)
        if kind_of(value) == ENTRY:
            without = {k: v for k, v in value.items() if k != "hash"}
            digest = hashlib.sha256(b"arbiter/event/v1\n" + rfc8785.dumps(without)).hexdigest()
            assert digest == value["hash"] == entry_hash(value)


# -- layout ----------------------------------------------------------------------------------

def test_a_bundle_holds_the_header_every_entry_and_the_checkpoints_in_order(db_url):
    app = Arbiter(db_url, signer=SIGNER)
    play(app)
    match = app.match("m1")
    notes = [n["note"] for n in app.checkpoints("m1").notes]
    for kind in (PUBLIC, FULL):
        data = bundle_of(app, kind)
        assert data.endswith(b"\n")
        for raw in data.decode().splitlines():
            assert loads(raw) is not None  # every line canonical
        values = lines_of(data)
        header = values[0][HEADER]
        assert header["kind"] == kind and header["entries"] == match.version
        assert header["host_key"] == SIGNER.verifier_key()
        assert header["setup_commitment"] == match.records[1]["entry"]["seals"][0]
        assert ("salt_key" in header) == ("host_seed" in header) == (kind == FULL)
        kinds = [kind_of(v) for v in values[1:]]
        entries = [v for v in values if kind_of(v) == ENTRY]
        assert entries == [r["entry"] for r in match.records]
        assert [v[CHECKPOINT]["note"] for v in values if kind_of(v) == CHECKPOINT] == notes
        for position, value in enumerate(values):
            if kind_of(value) == CHECKPOINT:  # right after the entry that made its size
                size = parse_checkpoint(parse_note(value[CHECKPOINT]["note"]).text).size
                before = [v for v in values[:position] if kind_of(v) == ENTRY]
                assert before[-1]["seq"] == size
        openings = kinds.count(OPENING)
        assert openings == (sum(1 for r in match.records if r["parts"]) if kind == FULL else 0)
    app.close()


def test_a_full_bundle_opens_every_sealed_part_with_its_salt(story):
    key = parse_salt_key(SALT_KEY)
    match = story.match("m1")
    values = lines_of(bundle_of(story, FULL))
    assert values[0][HEADER]["host_seed"] == SEED and values[0][HEADER]["salt_key"] == SALT_KEY
    for opening in (v[OPENING] for v in values if kind_of(v) == OPENING):
        record = match.records[opening["seq"] - 1]
        assert opening["parts"] == record["parts"]
        assert opening["salts"] == [salt(key, opening["seq"], i).hex()
                                    for i in range(len(record["parts"]))]


def canaries(match) -> list[bytes]:
    """Every secret the match holds: sealed plaintexts, each salt, the seed and salt key; but
    not the parts the rules have opened in public (SealOpened)."""
    key = parse_salt_key(SALT_KEY)
    found = [b"CANARY-ANN-NOTE", b"CANARY-CY-NOTE", b"CANARY-REASON", SEED.encode(),
             SALT_KEY.encode()]
    for record in match.records:
        seq = record["entry"]["seq"]
        if seq not in match.opened:
            found += [salt(key, seq, i).hex().encode() for i in range(len(record["parts"]))]
    return found


def test_a_public_bundle_never_holds_a_sealed_plaintext_a_salt_or_the_unrevealed_seed(app):
    # Play the story up to the last close: secrets planted in sealed parts, nothing revealed.
    play(app, STORY[:-1])
    match = app.match("m1")
    public = bundle_of(app, PUBLIC, signer=None)
    for canary in canaries(match):
        assert canary not in public, canary
    assert b"CANARY" not in public
    full = bundle_of(app, FULL, signer=None)
    assert all(canary in full for canary in canaries(match))

    # Once the match ends the seed is public (SeedRevealed); the rest stays sealed.
    app.submit("m1", "host", "close_round")
    match = app.match("m1")
    public = bundle_of(app, PUBLIC, signer=None)
    assert SEED.encode() in public
    for canary in canaries(match):
        assert canary == SEED.encode() or canary not in public, canary
    assert match.opened  # the secret number was opened, with its salt, and that is public


# -- state roots -----------------------------------------------------------------------------

class Kind(BaseModel):
    name: str
    weights: list[int]


@dataclass(frozen=True)
class Nested:
    seen: frozenset[str]
    pairs: tuple[tuple[str, str], ...]
    by_number: dict[int, str]
    model: Kind
    extra: dict[str, int] = field(default_factory=dict)


def test_any_decider_state_has_one_canonical_json_form():
    state = Nested(frozenset({"b", "a"}), (("x", "y"),), {10: "ten", 2: "two"},
                   Kind(name="k", weights=[3, 1]))
    assert to_json(state) == {"seen": ["a", "b"], "pairs": [["x", "y"]],
                              "by_number": [[10, "ten"], [2, "two"]],  # by canonical text
                              "model": {"name": "k", "weights": [3, 1]}, "extra": {}}
    with pytest.raises(NotCanonical):
        to_json(Nested(frozenset(), (), {}, Kind(name="k", weights=[]), {"odds": 0.5}))
    with pytest.raises(NotCanonical):
        to_json(object())


def test_the_state_root_is_keyed_by_the_salt_key_and_signed_each_round(story):
    match = story.match("m1")
    root = state_root(match)
    assert root == state_root(story.match("m1"))  # a replay reaches the same root
    other = dataclasses.replace(story.match("m1"), salt_key="cd" * 32)
    assert state_root(other) != root  # without the salt key no one can test a guess
    closes = [parse_extensions(parse_checkpoint(parse_note(n["note"]).text).extensions)
              for n in story.checkpoints("m1").notes]
    assert [c.round for c in closes] == [0, 1, 2]
    assert closes[-1].state_root == root
    assert verified(bundle_of(story, FULL)).marks[2].state_root == root
