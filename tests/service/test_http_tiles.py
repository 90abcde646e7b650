"""`arbiter serve` hands every log out as c2sp.org/tlog-tiles: a client written from the spec
reads a played seed match back from /logs/ to its signed root, and the caching headers are
the spec's (tiles immutable, the checkpoint short-lived, an ETag on everything)."""

from __future__ import annotations

import base64
from hashlib import sha256
from pathlib import Path

import pytest
from service_harness import Server

from audit.notes import parse_verifier_key, verify_note
from audit.tiles_bundle import TiledSource, bundle_lines
from audit.verify import verify
from commands.cli.matchfile import load, prepare_season, run
from tests.support.host_key import SIGNER
from tests.support.tiles_client import SpecClient, rfc_mth

SEED = Path(__file__).resolve().parents[2] / "seeds" / "amalgamation-winner-chooses-ec.json"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    url = f"sqlite:///{tmp_path_factory.mktemp('tiles')}/arbiter.db"
    with Server(url) as served:
        file = load(SEED)
        prepare_season(served.service.arbiter, file)
        assert run(served.service.arbiter, file)[1] == []
        yield served, file.match


def getter(server, prefix):
    client = server.client()

    def get(path: str) -> bytes:
        response = client.http.get(f"{prefix}/{path}")
        assert response.status_code == 200, (path, response.text)
        return response.content

    return get


def test_a_spec_client_reads_the_match_back_to_its_signed_root(server):
    served, match_id = server
    client = SpecClient(getter(served, f"/logs/match/{match_id}"))
    origin, size, root, note = client.checkpoint()
    assert origin.endswith(f"/match/{match_id}")
    assert verify_note(note, [parse_verifier_key(SIGNER.verifier_key())])
    match = served.service.arbiter.match(match_id)
    assert size == match.version == 360  # the seed's last round closes at its end
    entries = client.all_entries(size)
    # each entry is the exact text its hash covers: SHA-256 of it under the event prefix is
    # the hash the log holds for it
    assert [sha256(b"arbiter/event/v1\n" + e).hexdigest() for e in entries] == [
        r["entry"]["hash"] for r in match.records]
    assert client.root(size) == root == rfc_mth(entries)


def test_every_checkpointed_size_has_its_partial_tiles(server):
    served, match_id = server
    notes = served.service.arbiter.checkpoints(match_id).notes
    get = getter(served, f"/logs/match/{match_id}")
    for signed in notes:
        size = signed["size"]
        client = SpecClient(get)
        root = base64.b64decode(signed["note"].split("\n")[2])
        assert client.root(size) == root


def test_caching_headers_and_etags(server):
    served, match_id = server
    http = served.client().http
    prefix = f"/logs/match/{match_id}"
    full = http.get(f"{prefix}/tile/0/000")
    assert full.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert full.headers["content-type"] == "application/octet-stream"
    assert len(full.content) == 8192
    partial = http.get(f"{prefix}/tile/0/001.p/104")
    assert len(partial.content) == 104 * 32 and "immutable" in partial.headers["cache-control"]
    checkpoint = http.get(f"{prefix}/checkpoint")
    assert checkpoint.headers["cache-control"] == "public, max-age=5"
    assert checkpoint.headers["content-type"] == "text/plain; charset=utf-8"
    for answer in (full, partial, checkpoint):
        again = http.get(answer.url, headers={"If-None-Match": answer.headers["etag"]})
        assert (again.status_code, again.content) == (304, b"")
        assert again.headers["etag"] == answer.headers["etag"]
    gz = http.get(f"{prefix}/tile/entries/000", headers={"Accept-Encoding": "gzip"})
    assert gz.headers["content-encoding"] == "gzip" and gz.headers["vary"] == "Accept-Encoding"
    plain = http.get(f"{prefix}/tile/entries/000", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers and plain.content == gz.content
    assert plain.headers["etag"] != gz.headers["etag"]


@pytest.mark.parametrize("path, words", [
    ("tile/0/002", "cover the 360 entries"),      # past the end
    ("tile/0/001.p/105", "cover the 360 entries"),
    ("tile/0/x000/001", "x001/x234/067"),         # not the canonical spelling
    ("tile/1/000", "cover the 360 entries"),      # level 1 has only a partial tile
    ("nothing", "is served as checkpoint"),
])
def test_what_is_not_there_is_a_404_in_words(server, path, words):
    served, match_id = server
    answer = served.client().http.get(f"/logs/match/{match_id}/{path}")
    assert answer.status_code == 404
    assert answer.json()["error"] == "not_found" and words in answer.json()["message"]
    assert served.client().http.get("/logs/match/nope/checkpoint").json()["error"] == \
        "unknown_match"


def test_the_bundle_rebuilt_from_the_served_tiles_is_the_served_bundle(server):
    served, match_id = server
    http = served.client().http

    def fetch(path: str) -> bytes:
        return http.get(f"/logs/match/{match_id}/{path}").raise_for_status().content

    rebuilt = b"".join(bundle_lines(TiledSource(fetch, lambda ref: None)))
    assert rebuilt == http.get(f"/matches/{match_id}/bundle").content
    assert verify(rebuilt.splitlines(keepends=True)).entries == 360


def test_an_id_is_one_path_segment_in_a_url_and_in_a_folder():
    from commands.service.tiles import prefix_of, segment

    assert segment("kings-court_1.v2~x") == "kings-court_1.v2~x"
    assert [segment(i) for i in ("a b", "a/b", "..", ".hidden", "é")] == [
        "a%20b", "a%2Fb", "%2E.", "%2Ehidden", "%C3%A9"]
    assert prefix_of("season", "spring") == "season/spring"
