"""Where `arbiter publish` puts the logs' tiles (commands.service.publishing): a shelf holds
files by path (`match/ID/tile/0/000`), each written whole or not at all. A folder here; an
S3-compatible bucket in commands.store.bucket.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager
from pathlib import Path
from typing import NamedTuple, Protocol

from commands.store.flock import waited_for
from domain.errors import RuleViolation

# How long a publish waits for another to the same folder (a cron line's run outlasting its
# minute) before it gives up, writing nothing.
WAIT = 60.0


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

    def holding(self) -> AbstractContextManager[None]:
        """This publisher alone at the shelf, as far as the shelf can say."""


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

    @contextlib.contextmanager
    def holding(self) -> Iterator[None]:
        """The folder's own flock (no file of ours beside the tiles for a web server to
        serve): a second publish to it waits for the first, WAIT seconds at most, then
        `publish_busy` with nothing written. A folder not made yet is held by its parent's
        (a refused publish leaves no empty folder behind)."""
        held = next(p for p in (self.root, *self.root.parents) if p.is_dir())
        fd = os.open(held, os.O_RDONLY | os.O_DIRECTORY)
        try:
            if not waited_for(fd, WAIT):
                raise RuleViolation("publish_busy", f"another arbiter publish to {self.where} "
                                    f"ran for {WAIT:g} s; nothing was written: run this again "
                                    "once it ends")
            yield
        finally:
            os.close(fd)  # lets the lock go

    def remove(self, paths: Sequence[str]) -> None:
        for path in paths:
            file = self.root / path
            file.unlink(missing_ok=True)
            with contextlib.suppress(OSError):  # a partial tile's `.p/` folder, once empty
                file.parent.rmdir()
