"""Answers built once for every process sharing a folder: a second process (or the same one
restarted) reads the file built at the store's versions of now, never one built at others."""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID, uuid4

from commands.service.built import Builds

LOG = uuid4()


class Store:
    """The store's version of each log, as `StoredVersions` answers it."""

    def __init__(self) -> None:
        self.version = 7

    def versions(self, ids: Sequence[UUID]) -> list[int]:
        return [self.version for _ in ids]


def building(made: list[str], text: str):
    def build() -> tuple[bytes, bool]:
        made.append(text)
        return text.encode(), False

    return build


def test_a_second_process_reads_the_file_the_first_built(tmp_path):
    store, made = Store(), []
    first = Builds(store.versions, folder=tmp_path).get("bundle/m", [LOG], building(made, "a"))
    second = Builds(store.versions, folder=tmp_path).get("bundle/m", [LOG],
                                                         building(made, "b"))
    assert made == ["a"]
    assert (second.body, second.etag) == (first.body, first.etag) == (b"a", first.etag)
    assert [p.name for p in (tmp_path / "bundle%2Fm").iterdir()] == ["7"]


def test_a_file_built_at_other_versions_is_built_again_and_replaced(tmp_path):
    store, made = Store(), []
    Builds(store.versions, folder=tmp_path).get("bundle/m", [LOG], building(made, "a"))
    store.version = 8  # a vote since
    again = Builds(store.versions, folder=tmp_path).get("bundle/m", [LOG], building(made, "b"))
    assert made == ["a", "b"] and again.body == b"b"
    assert [p.name for p in (tmp_path / "bundle%2Fm").iterdir()] == ["8"]
    store.version = 7  # a store put back to an older copy: the file of 7 is gone, built anew
    assert Builds(store.versions, folder=tmp_path).get(
        "bundle/m", [LOG], building(made, "c")).body == b"c"


def test_without_a_folder_each_process_builds_its_own(tmp_path):
    store, made = Store(), []
    for text in ("a", "b"):
        Builds(store.versions).get("bundle/m", [LOG], building(made, text))
    assert made == ["a", "b"] and not any(tmp_path.iterdir())
