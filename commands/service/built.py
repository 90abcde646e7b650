"""What anyone may ask for, built once per change: a match's public bundle, a season's, their
signed checkpoints. Building a bundle recomputes its proofs (a second for a season); asking
the store whether anything it rests on changed is one small query (`StoredVersions`).

`Builds.get(name, ids, build)` answers `build()`'s bytes for `name`, built again only when the
store's version of one of `ids` (the logs the answer rests on) is not what it was when they
were last built. One build at a time per name: strangers asking together wait for it rather
than each building it. The newest answers are kept, up to `KEPT_BYTES` in all.

A caller may accept an answer checked against the store less than `fresh_for` seconds ago
without asking the store again (the web answers so only strangers who had to wait their turn:
under their load each answer is checked once a second, not once per request).

The ETag is the bytes' digest: equal bytes, equal tag, in every worker process.

With a folder (`ARBITER_BUILT_DIR`, shared by every serve process and host of one store),
each answer is also a file named by the store's versions it rests on: another process, another
host or the same one after a restart reads it instead of building it again, and a finished
match's bundle is a file until a witness cosigns it anew. A name keeps its newest file alone;
a file is only read for the very versions it was built at, so a stale one is never served.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote
from uuid import UUID

KEPT_BYTES = 64 * 1024 * 1024  # answers kept per process, newest first
FOLDER_VARIABLE = "ARBITER_BUILT_DIR"


def built_folder() -> Path | None:
    """The folder of built answers the environment names, if any."""
    named = os.environ.get(FOLDER_VARIABLE)
    return Path(named) if named else None


@dataclass(frozen=True)
class Built:
    body: bytes
    etag: str  # a strong entity tag, quoted as HTTP writes it
    final: bool  # nothing will change it any more (a finished match's bundle)
    versions: tuple[int, ...]  # the store's versions of the logs it rests on, when built


def built(body: bytes, final: bool, versions: tuple[int, ...] = ()) -> Built:
    return Built(body, f'"{hashlib.sha256(body).hexdigest()[:32]}"', final, versions)


class Builds:
    def __init__(self, versions: Callable[[Sequence[UUID]], list[int]],
                 kept_bytes: int = KEPT_BYTES, folder: Path | None = None) -> None:
        self.versions, self.kept_bytes, self.folder = versions, kept_bytes, folder
        self._kept: OrderedDict[str, Built] = OrderedDict()
        self._checked: dict[str, float] = {}  # when each kept answer was last asked of the store
        self._held = 0
        self._lock = threading.Lock()  # the dict and the building locks
        self._building: dict[str, threading.Lock] = {}

    def get(self, name: str, ids: Sequence[UUID] | Callable[[], Sequence[UUID]],
            build: Callable[[], tuple[bytes, bool]], fresh_for: float = 0.0) -> Built:
        """`build()` -> (bytes, final) for `name`, or what it gave last while none of `ids`
        has changed in the store (or, with `fresh_for`, while it was found so less than that
        many seconds ago). A final answer is never asked of the store again. `ids` may be a
        function, called only when the store is asked (finding them may cost a read)."""
        found = self.kept(name, fresh_for)
        if found is not None:
            return found
        with self._lock:
            building = self._building.setdefault(name, threading.Lock())
        try:
            with building:
                found = self._kept_for(name)
                if found is not None and self._fresh(name, fresh_for):
                    return found  # built or checked while this one waited for the lock
                asked = time.monotonic()
                logs = ids() if callable(ids) else ids
                now = tuple(self.versions(logs))  # before building: a change during it rebuilds
                if found is not None and (found.final or found.versions == now):
                    self._checked[name] = asked
                    return found
                answer = self._filed(name, now)
                if answer is None:
                    body, final = build()
                    answer = built(body, final, now)
                    self._file(name, answer)
                self._keep(name, answer)
                self._checked[name] = asked
                return answer
        finally:
            with self._lock:
                if name not in self._kept:  # refused (an unknown match): nothing to wait for
                    self._building.pop(name, None)

    def kept(self, name: str, fresh_for: float = 0.0) -> Built | None:
        """The answer kept for `name` if it is final or was found current less than
        `fresh_for` seconds ago, without asking the store."""
        found = self._kept_for(name)
        if found is not None and (found.final or self._fresh(name, fresh_for)):
            return found
        return None

    def _fresh(self, name: str, fresh_for: float) -> bool:
        checked = self._checked.get(name)
        return checked is not None and time.monotonic() - checked < fresh_for

    def _path(self, name: str, versions: tuple[int, ...]) -> Path | None:
        if self.folder is None:
            return None
        return self.folder / quote(name, safe="") / "-".join(map(str, versions or (0,)))

    def _filed(self, name: str, versions: tuple[int, ...]) -> Built | None:
        """The answer another process (or this one before a restart) built at `versions`."""
        path = self._path(name, versions)
        if path is None:
            return None
        try:  # asked of the store again each time, as an answer built here would be
            return built(path.read_bytes(), False, versions)
        except FileNotFoundError:
            return None

    def _file(self, name: str, answer: Built) -> None:
        """Written whole and renamed into place; the name's older files removed."""
        path = self._path(name, answer.versions)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        writing = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
        writing.write_bytes(answer.body)
        writing.replace(path)
        for old in path.parent.iterdir():
            if old.name != path.name and not old.name.startswith("."):
                old.unlink(missing_ok=True)

    def _kept_for(self, name: str) -> Built | None:
        with self._lock:
            found = self._kept.get(name)
            if found is not None:
                self._kept.move_to_end(name)
            return found

    def _keep(self, name: str, answer: Built) -> None:
        with self._lock:
            old = self._kept.pop(name, None)
            self._held -= len(old.body) if old else 0
            self._kept[name] = answer
            self._held += len(answer.body)
            while self._held > self.kept_bytes and len(self._kept) > 1:
                gone, dropped = self._kept.popitem(last=False)
                self._held -= len(dropped.body)
                self._building.pop(gone, None)
                self._checked.pop(gone, None)
