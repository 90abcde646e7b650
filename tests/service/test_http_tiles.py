"""`arbiter serve` hands every log out as c2sp.org/tlog-tiles: a client written from the spec
reads a played seed match back from /logs/ to its signed root, and the caching headers are
the spec's (tiles immutable, the checkpoint short-lived, an ETag on everything)."""

from __future__ import annotations

import base64
import json
import socket
from hashlib import sha256
from pathlib import Path

import pytest
from service_harness import Server

from audit.notes import parse_verifier_key, verify_note
from audit.tiles_bundle import TiledSource, bundle_lines
from audit.verify import verify
from commands.cli.matchfile import load, prepare_season, run
from commands.service.tiles import season_tiles
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


# What a HEAD must answer as its GET does: every header but the two the server stamps itself.
STAMPED = {"date", "server"}


def headers_of(answer) -> dict[str, str]:
    return {name: value for name, value in answer.headers.items() if name not in STAMPED}


def sent_after_head(url: str, path: str) -> bytes:
    """What the server sends after the headers of a HEAD, read off the socket to its end
    (an HTTP client would not read a body it knows a HEAD has none of)."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(f"HEAD {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
                     .encode())
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return answer.partition(b"\r\n\r\n")[2]


def head_as_get(served, url: str, sent: dict[str, str], status: int = 200):
    """HEAD `url` answers GET's status and headers, Content-Length the bytes GET sends, and no
    body; a HEAD with GET's ETag gets GET's 304. Returns the GET."""
    http = served.client().http
    get, head = http.get(url, headers=sent), http.head(url, headers=sent)
    assert (head.status_code, get.status_code) == (status, status)
    assert headers_of(head) == headers_of(get)
    assert int(head.headers["content-length"]) == get.num_bytes_downloaded > 0  # as sent
    assert sent_after_head(served.url, url) == b""
    if status == 200:
        again = http.head(url, headers={**sent, "If-None-Match": get.headers["etag"]})
        assert (again.status_code, again.content) == (304, b"")
        assert {name: again.headers[name] for name in ("etag", "cache-control")} == {
            "etag": get.headers["etag"], "cache-control": get.headers["cache-control"]}
    return get


@pytest.mark.parametrize("path, encoding, length", [
    ("tile/0/000", None, 8192),                   # a full hash tile: 256 hashes of 32 bytes
    ("tile/0/001.p/104", None, 104 * 32),         # the partial tile of the 360 signed entries
    ("tile/1/000.p/1", None, 32),                 # level 1: the root of the one full tile
    ("tile/entries/001.p/104", "identity", None),  # an entry bundle, plain
    ("tile/entries/000", "gzip", None),           # and gzipped
    ("checkpoint", None, None),
    ("arbiter/log.json", None, None),
])
def test_head_answers_a_match_log_as_get_does_without_a_body(server, path, encoding, length):
    served, match_id = server
    sent = {"Accept-Encoding": encoding or "gzip, identity"}
    get = head_as_get(served, f"/logs/match/{match_id}/{path}", sent)
    if length is not None:
        assert len(get.content) == length
    assert ("content-encoding" in get.headers) == (encoding == "gzip")


def test_head_answers_a_season_log_and_what_is_not_there_as_get_does(server):
    served, match_id = server
    prefix = f"/logs/season/{load(SEED).season}"
    size = int(served.client().http.get(f"{prefix}/checkpoint").text.split("\n")[1])
    assert 0 < size < 256  # a few entries: partial tiles only
    for path in ("checkpoint", "arbiter/log.json", f"tile/0/000.p/{size}",
                 f"tile/entries/000.p/{size}"):
        head_as_get(served, f"{prefix}/{path}", {})
    for url in (f"/logs/match/{match_id}/tile/0/002", "/logs/match/nope/checkpoint",
                f"{prefix}/tile/0/000"):
        head_as_get(served, url, {}, status=404)


def test_any_page_may_read_the_tiles_and_their_etag_and_nothing_else(server):
    served, match_id = server
    http = served.client().http
    other = {"Origin": "https://monitor.example"}
    prefix = f"/logs/match/{match_id}"
    tiles = [http.get(f"{prefix}/tile/0/000", headers=other),
             http.head(f"{prefix}/checkpoint", headers=other),
             http.get(f"{prefix}/tile/0/002", headers=other),          # a 404
             http.get(f"/logs/season/{load(SEED).season}/arbiter/log.json")]  # no Origin
    tiles.append(http.get(f"{prefix}/tile/0/000",
                          headers={**other, "If-None-Match": tiles[0].headers["etag"]}))
    assert [t.status_code for t in tiles] == [200, 200, 404, 200, 304]
    for answer in tiles:
        assert answer.headers["access-control-allow-origin"] == "*"
        assert answer.headers["access-control-expose-headers"] == "ETag"
    for path in (f"/matches/{match_id}", f"/matches/{match_id}/bundle",
                 f"/matches/{match_id}/checkpoints", f"/m/{match_id}", "/", "/openapi.json",
                 f"/seasons/{load(SEED).season}", "/static/audit.js", "/logs/", "/nothing"):
        answer = http.get(path, headers=other)
        assert answer.status_code in (200, 404), path
        assert not any(name.startswith("access-control-") for name in answer.headers), path


def test_a_seasons_log_json_is_worked_out_from_the_season_alone(server, monkeypatch):
    """Its header is the season bundle's first line, and no match of the season is loaded
    for it (a season of many long matches would load them all for one small file)."""
    served, _ = server
    app = served.service.arbiter
    season = load(SEED).season
    bundle_header = next(iter(app.season_bundle(season, "public",
                                                app.signer.verifier_key())))

    def no_match(*args, **kwargs):
        raise AssertionError("a match was loaded for the season's log.json")

    monkeypatch.setattr(app, "match", no_match)
    document = json.loads(season_tiles(app, season).document)
    expected = json.loads(bundle_header)["header"]
    del expected["entries"], expected["checkpoints"]
    assert document["header"] == expected
    assert set(document["matches"]) == set(expected["matches"]) and expected["matches"]
