"""A tiles client in a browser page of another site, as a monitor's or a witness's web page
is: the spec's own client (tests/support/tiles_client.py) with every request a `fetch` from
a page on another origin (another port of the loopback), so Chromium holds the answers to
CORS. It reads the match back to its signed root, sees each tile's ETag and a missing tile's
404; the same page may read nothing else of the service."""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator
from hashlib import sha256
from typing import Any

import pytest
from service_harness import Server
from test_http_tiles import server  # noqa: F401 (the fixture: the Amalgamation seed, served)
from test_pages_browser import browser, waiting  # noqa: F401 (the fixture)

from tests.support.static_host import static_host
from tests.support.tiles_client import SpecClient, rfc_mth

pytestmark = pytest.mark.browser

# The page's fetch, answered as what its script may read: the status, the ETag and the body,
# or the error a fetch the browser refused throws.
FETCH = """
const [url, done] = arguments;
fetch(url).then(async answer => {
  const bytes = new Uint8Array(await answer.arrayBuffer());
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  done({status: answer.status, etag: answer.headers.get("ETag"), body: btoa(text)});
}, error => done({refused: String(error)}));
"""


@pytest.fixture(scope="module")
def elsewhere(browser: Any, server: tuple[Server, str],  # noqa: F811 (the fixtures)
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], Any]]:
    """A page of another site, and its fetch of a path of the service."""
    served, _ = server
    folder = tmp_path_factory.mktemp("monitor")
    (folder / "index.html").write_text("<!doctype html><title>a log monitor</title>")
    with static_host(folder) as site:
        browser.get(f"{site}/index.html")
        waiting(lambda: browser.title == "a log monitor")
        assert browser.execute_script("return location.origin") != served.url
        browser.set_script_timeout(30)
        yield lambda path: browser.execute_async_script(FETCH, served.url + path)


def test_a_page_of_another_site_reads_the_match_to_its_signed_root(server, elsewhere):  # noqa: F811
    served, match_id = server
    prefix = f"/logs/match/{match_id}"

    def get(path: str) -> bytes:
        answer = elsewhere(f"{prefix}/{path}")
        assert answer.get("status") == 200, (path, answer)
        return base64.b64decode(answer["body"])

    client = SpecClient(get)
    _, size, root, _ = client.checkpoint()
    entries = client.all_entries(size)
    assert size == len(entries) == 360
    assert [sha256(b"arbiter/event/v1\n" + e).hexdigest() for e in entries] == [
        r["entry"]["hash"] for r in served.service.arbiter.match(match_id).records]
    assert client.root(size) == root == rfc_mth(entries)


def test_the_page_sees_etags_and_404s_and_nothing_of_the_api(server, elsewhere):  # noqa: F811
    served, match_id = server
    http = served.client().http
    tile = f"/logs/match/{match_id}/tile/0/000"
    assert elsewhere(tile)["etag"] == http.get(tile).headers["etag"]
    missing = elsewhere(f"/logs/match/{match_id}/tile/0/002")
    assert missing["status"] == 404 and b"not_found" in base64.b64decode(missing["body"])
    for path in (f"/matches/{match_id}", f"/matches/{match_id}/bundle", "/openapi.json"):
        assert http.get(path).status_code == 200  # there, but not for another site's page
        assert elsewhere(path)["refused"].startswith("TypeError"), path
