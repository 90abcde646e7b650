"""What a verifier remembers of each log (audit/witness.py): one line per origin,
`<origin> <verifier key> <size> <base64 root>`, in `$ARBITER_KNOWN_KEYS` or
`$XDG_CONFIG_HOME/arbiter/known_origins` (~/.config when unset), written whole, mode 0600;
the largest checkpoint seen is kept, a changed key, another root or an older checkpoint
refused."""

from __future__ import annotations

import base64
import stat
from dataclasses import FrozenInstanceError

import pytest

from audit.errors import AuditError
from audit.witness import (
    Seen,
    check_key,
    check_not_rolled_back,
    check_seen,
    known_origins_file,
    load,
    remembered,
    save,
)

R1, R2 = bytes(32), bytes(range(32))
B2 = base64.b64encode(R2).decode()


def code_of(call, *args) -> AuditError:
    with pytest.raises(AuditError) as caught:
        call(*args)
    return caught.value


def test_the_file_is_named_by_the_variable_else_under_the_config_folder(monkeypatch,
                                                                        tmp_path) -> None:
    monkeypatch.setenv("ARBITER_KNOWN_KEYS", str(tmp_path / "mine"))
    assert known_origins_file() == tmp_path / "mine"
    monkeypatch.setenv("ARBITER_KNOWN_KEYS", "")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    assert known_origins_file() == tmp_path / "cfg" / "arbiter" / "known_origins"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert known_origins_file() == tmp_path / "home" / ".config" / "arbiter" / "known_origins"


def test_a_missing_file_remembers_nothing(tmp_path) -> None:
    assert load(tmp_path / "none") == {}


def test_save_writes_one_sorted_line_per_origin_mode_0600(tmp_path) -> None:
    path = tmp_path / "config" / "arbiter" / "known_origins"  # neither folder exists yet
    known = {"b/match/2": Seen("b/match/2", "kb", 4, R2), "a/match/1": Seen("a/match/1", "ka",
                                                                              0, R1)}
    save(path, known)
    assert path.read_text() == (f"a/match/1 ka 0 {base64.b64encode(R1).decode()}\n"
                                f"b/match/2 kb 4 {B2}\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert load(path) == known
    assert [p.name for p in path.parent.iterdir()] == ["known_origins"]  # no temporary left
    save(path, {})  # again, into the folder that now exists
    assert path.read_text() == ""


def test_a_failed_write_leaves_no_temporary(tmp_path, monkeypatch) -> None:
    path = tmp_path / "known_origins"

    def fail(*_: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr("os.replace", fail)
    with pytest.raises(OSError):
        save(path, {"a": Seen("a", "k", 1, R1)})
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("line", ["a k 1", f"a k 1 {B2} x", f"a k one {B2}", "a k 1 AA!AA",
                                  f"a k 1.5 {B2}"])
def test_a_line_that_cannot_be_read_names_its_number(tmp_path, line: str) -> None:
    path = tmp_path / "known_origins"
    path.write_text(f"ok k 1 {B2}\n{line}\n")
    error = code_of(load, path)
    assert error.code == "invalid_input"
    assert f"{path}, line 2:" in error.detail


def test_the_largest_checkpoint_seen_is_kept_and_the_key_is_the_latest() -> None:
    known = {"o": Seen("o", "k1", 8, R1)}
    assert remembered(known, "o", "k2", 5, R2) == {"o": Seen("o", "k2", 8, R1)}
    assert remembered(known, "o", "k1", 8, R2) == {"o": Seen("o", "k1", 8, R1)}
    assert remembered(known, "o", "k1", 9, R2) == {"o": Seen("o", "k1", 9, R2)}
    assert remembered(known, "p", "kp", 1, R2) == {**known, "p": Seen("p", "kp", 1, R2)}
    assert known == {"o": Seen("o", "k1", 8, R1)}  # not changed in place


def test_a_changed_key_is_refused_naming_both(tmp_path) -> None:
    seen = Seen("o", "k1", 8, R1)
    check_key(seen, "k1", "the bundle's key", tmp_path)
    check_key(None, "k2", "the bundle's key", tmp_path)
    check_key(seen, None, "the bundle's key", tmp_path)
    error = code_of(check_key, seen, "k2", "the bundle's key", tmp_path)
    assert error.code == "key_changed"
    assert error.detail.startswith("the bundle's key is k2, but o was signed by k1")


def test_another_root_at_the_size_seen_is_another_history() -> None:
    seen = Seen("o", "k", 8, R1)
    check_seen(seen, R1, 8)
    error = code_of(check_seen, seen, R2, 8)
    assert (error.code, error.seq) == ("inconsistent_checkpoints", 8)


def test_a_bundle_ending_before_the_largest_checkpoint_seen_is_rolled_back() -> None:
    seen = Seen("o", "k", 8, R1)
    check_not_rolled_back(seen, 8, 10)
    check_not_rolled_back(seen, 9, 10)
    error = code_of(check_not_rolled_back, seen, 7, 10)
    assert (error.code, error.seq) == ("rolled_back", 10)
    assert "covers 7 (of its 10 entries)" in error.detail



def test_what_was_seen_is_not_changed_in_place() -> None:
    seen = Seen("o", "k", 8, R1)
    with pytest.raises(FrozenInstanceError):
        seen.size = 9  # type: ignore[misc]
