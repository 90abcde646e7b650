"""Where `arbiter publish` puts the logs' tiles (commands.service.publishing): a shelf holds
files by path (`match/ID/tile/0/000`), each written whole or not at all. A folder here; an
S3-compatible bucket in commands.store.bucket.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple, Protocol


class Placed(NamedTuple):
    """A file to put on a shelf, with the headers a web server or object store answers it
    with (a folder's web server sets them itself: docs/deploy.md)."""

    path: str
    data: bytes
    media_type: str
    cache_control: str


class Shelf(Protocol):
    where: str  # the folder or the bucket, as a person names it

    def get(self, path: str) -> bytes | None:
        """The file's bytes; None when the shelf has none at `path`."""

    def put(self, files: Sequence[Placed]) -> None:
        """Every file written whole (any there replaced) by the time it returns."""

    def remove(self, paths: Sequence[str]) -> None:
        """The files gone (a path with none is no error)."""


class Folder:
    """A folder any web server serves as it is: each file written beside its place, then
    renamed into it, so a reader finds the whole old file or the whole new one."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.where = str(root)

    def get(self, path: str) -> bytes | None:
        try:
            return (self.root / path).read_bytes()
        except (FileNotFoundError, NotADirectoryError):
            return None

    def put(self, files: Sequence[Placed]) -> None:
        for file in files:
            path = self.root / file.path
            path.parent.mkdir(parents=True, exist_ok=True)
            temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
            temporary.write_bytes(file.data)
            os.replace(temporary, path)

    def remove(self, paths: Sequence[str]) -> None:
        for path in paths:
            file = self.root / path
            file.unlink(missing_ok=True)
            with contextlib.suppress(OSError):  # a partial tile's `.p/` folder, once empty
                file.parent.rmdir()
