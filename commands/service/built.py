"""What anyone may ask for, built once per change: a match's public bundle, a season's, their
signed checkpoints. Building a bundle recomputes its proofs (a second for a season); asking
the store whether anything it rests on changed is one small query (`StoredVersions`).

`Builds.get(name, ids, build)` answers `build()`'s bytes for `name`, built again only when the
store's version of one of `ids` (the logs the answer rests on) is not what it was when they
were last built. One build at a time per name: strangers asking together wait for it rather
than each building it. The newest answers are kept, up to `KEPT_BYTES` in all.

The ETag is the bytes' digest: equal bytes, equal tag, in every worker process.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from uuid import UUID

KEPT_BYTES = 64 * 1024 * 1024  # answers kept per process, newest first


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
                 kept_bytes: int = KEPT_BYTES) -> None:
        self.versions, self.kept_bytes = versions, kept_bytes
        self._kept: OrderedDict[str, Built] = OrderedDict()
        self._held = 0
        self._lock = threading.Lock()  # the dict and the building locks
        self._building: dict[str, threading.Lock] = {}

    def get(self, name: str, ids: Sequence[UUID], build: Callable[[], tuple[bytes, bool]]
            ) -> Built:
        """`build()` -> (bytes, final) for `name`, or what it gave last while none of `ids`
        has changed in the store. A final answer is never asked of the store again."""
        found = self._kept_for(name)
        if found is not None and found.final:
            return found
        with self._lock:
            building = self._building.setdefault(name, threading.Lock())
        try:
            with building:
                now = tuple(self.versions(ids))  # before building: a change during it rebuilds
                found = self._kept_for(name)
                if found is not None and (found.final or found.versions == now):
                    return found
                body, final = build()
                answer = built(body, final, now)
                self._keep(name, answer)
                return answer
        finally:
            with self._lock:
                if name not in self._kept:  # refused (an unknown match): nothing to wait for
                    self._building.pop(name, None)

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
