"""What a verifier remembers of each log it has verified, as a witness would: the key that
signed it, and the largest checkpoint it has seen.

The first verify of an origin trusts the key its bundle names (trust on first use) unless
`--key` pins one; later bundles of that origin must be signed by the same key (else
`key_changed`) and must extend the largest checkpoint seen: one that ends before it is a
rollback (`rolled_back`), one whose first entries have another Merkle root is another history
(`inconsistent_checkpoints`).

The known-origins file holds one line per origin, in text a person can read and edit (to
forget an origin, or accept a host's new key, delete its line):

    <origin> <verifier key> <size> <base64 Merkle root>

`$ARBITER_KNOWN_KEYS` names it; by default `known_origins` in `$XDG_CONFIG_HOME/arbiter`
(~/.config/arbiter). It is written whole, mode 0600, each time a bundle verifies.
"""

from __future__ import annotations

import base64
import binascii
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from audit.errors import AuditError

VARIABLE = "ARBITER_KNOWN_KEYS"


@dataclass(frozen=True)
class Seen:
    """The largest checkpoint of a log verified before, and the key that signed it."""

    origin: str
    key: str
    size: int
    root: bytes


def known_origins_file() -> Path:
    named = os.environ.get(VARIABLE)
    if named:
        return Path(named)
    config = os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(config) / "arbiter" / "known_origins"


def load(path: Path) -> dict[str, Seen]:
    """Every origin the file remembers; a line that cannot be read is an error naming it."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    known: dict[str, Seen] = {}
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split(" ")
        try:
            origin, key, size, root = fields
            seen = Seen(origin, key, int(size), base64.b64decode(root, validate=True))
        except (ValueError, binascii.Error):
            raise AuditError("invalid_input", f"{path}, line {number}: expected ORIGIN KEY "
                             "SIZE ROOT (delete the line to forget that origin)") from None
        known[origin] = seen
    return known


def save(path: Path, known: dict[str, Seen]) -> None:
    """Write the file whole (a rename, so a reader never sees half of it), mode 0600."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    text = "".join(f"{s.origin} {s.key} {s.size} {base64.b64encode(s.root).decode()}\n"
                   for s in sorted(known.values(), key=lambda s: s.origin))
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".known_origins.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def remembered(known: dict[str, Seen], origin: str, key: str, size: int,
               root: bytes) -> dict[str, Seen]:
    """`known` with what a verified bundle showed: its key, and its last checkpoint when it
    is the largest seen."""
    before = known.get(origin)
    if before is not None and before.size >= size:
        size, root = before.size, before.root
    return {**known, origin: Seen(origin, key, size, root)}


def check_key(seen: Seen | None, key: str | None, source: str, path: Path) -> None:
    """A key for an origin that was verified before must be the key remembered for it."""
    if seen is not None and key is not None and key != seen.key:
        raise AuditError("key_changed", f"{source} is {key}, but {seen.origin} was signed by "
                         f"{seen.key} when first verified here ({path}; delete its line there "
                         "if the host really changed its key)")


def check_seen(seen: Seen, root: bytes, seq: int) -> None:
    """At the size of the largest checkpoint seen before: the same log."""
    if root != seen.root:
        raise AuditError("inconsistent_checkpoints", f"the first {seen.size} entries are not "
                         f"the log of {seen.origin} seen before under a signed checkpoint of "
                         "that size: the host signed two histories", seq)


def check_not_rolled_back(seen: Seen, last: int, entries: int) -> None:
    """The bundle's last signed checkpoint is not older than the largest seen before."""
    if last < seen.size:
        raise AuditError("rolled_back", f"a signed checkpoint of {seen.size} entries of "
                         f"{seen.origin} was verified here before; this bundle's last covers "
                         f"{last} (of its {entries} entries): it was rolled back to an older "
                         "checkpoint", entries)
