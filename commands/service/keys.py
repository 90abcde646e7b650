"""The host's key file, as every entry point finds it, and the check that a log's checkpoints
were signed by a published key.

The key file is a setting: a path given, else $ARBITER_HOST_KEY, else ./arbiter-host.key.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from audit.errors import AuditError

if TYPE_CHECKING:
    from audit.keys import Signer
    from audit.notes import VerifierKey

DEFAULT_KEY = "arbiter-host.key"
KEY_VARIABLE = "ARBITER_HOST_KEY"


def signer_from(path: str | None = None) -> Signer | None:
    """The host's signer from its key file: `path`, else $ARBITER_HOST_KEY, else the default.
    None when the default file does not exist (then no match can be created signed, and no
    round of a signed match closes); a key file named explicitly must exist."""
    from audit import keys

    named = path or os.environ.get(KEY_VARIABLE)
    file = Path(named or DEFAULT_KEY)
    if file.exists():
        return keys.load(file)
    if named:
        raise AuditError("no_host_key", f"no key file at {file}")
    return None


def check_signed_by(notes: list[str], key: VerifierKey) -> None:
    """A bundle names the key that signed its checkpoints, so refuse to name another."""
    from audit.notes import NoteError, verify_note

    for note in notes:
        try:
            verify_note(note, [key])
        except NoteError:
            raise AuditError("wrong_host_key", f"the checkpoints were not signed by "
                             f"{key}") from None
