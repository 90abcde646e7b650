"""Reading a tiled log (c2sp.org/tlog-tiles, audit/tiles.py) from where it is published: a
folder `arbiter publish` wrote, or a URL `arbiter serve` or any static host answers.

A location is a log's prefix: `DIR/match/ID`, `https://host/logs/match/ID`. Anything else
`verify` is given is a bundle file.
"""

from __future__ import annotations

import posixpath
from pathlib import Path
from typing import TYPE_CHECKING

from audit.errors import AuditError

if TYPE_CHECKING:
    from audit.tiles_bundle import TiledSource

TIMEOUT = 30  # seconds for one resource


def is_tiled(location: str) -> bool:
    return location.startswith(("http://", "https://")) or Path(location).is_dir()


def tiled_source(location: str) -> TiledSource:
    """The log at `location`, each resource fetched when asked for."""
    from audit.tiles_bundle import TiledSource

    if location.startswith(("http://", "https://")):
        base = location.rstrip("/")
        return TiledSource(lambda path: _get(f"{base}/{path}"),
                           lambda ref: tiled_source(_joined(base, ref)))
    root = Path(location)
    return TiledSource(lambda path: _read(root, path),
                       lambda ref: tiled_source(str(Path(posixpath.normpath(
                           posixpath.join(root.as_posix(), ref))))))


def _joined(base: str, ref: str) -> str:
    from urllib.parse import urljoin

    return urljoin(base + "/", ref)


def _read(root: Path, path: str) -> bytes:
    try:
        return (root / path).read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        raise AuditError("tile_missing", f"{root / path} is missing") from None


def _get(url: str) -> bytes:
    import gzip
    from urllib.error import HTTPError, URLError
    from urllib.request import Request, urlopen

    request = Request(url, headers={"Accept-Encoding": "gzip, identity",
                                    "User-Agent": "arbiter-verify"})
    try:
        with urlopen(request, timeout=TIMEOUT) as response:
            data: bytes = response.read()
            if response.headers.get("Content-Encoding") == "gzip":
                data = gzip.decompress(data)
            return data
    except HTTPError as error:
        if error.code == 404:
            raise AuditError("tile_missing", f"{url} is not there (404)") from None
        raise AuditError("tiles_unreachable", f"{url} answered {error.code}") from None
    except (URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise AuditError("tiles_unreachable", f"cannot fetch {url}: {reason}") from None
