"""What the host signs at a round close: a C2SP checkpoint of the match log with two extension
lines, the round it closes and the state root as of then.

    <prefix>/match/<id>
    <size>
    <base64 Merkle root>
    round <n>
    state <hex state root>

Extension lines are allowed by c2sp.org/tlog-checkpoint; tlog tools that do not know them still
check the origin, size, root and signature. They are signed, so a party cannot later claim another
state for a round, and only a holder of the full bundle can recompute the state root.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, NamedTuple

from audit.checkpoints import origin
from audit.errors import AuditError
from audit.notes import checkpoint_body

if TYPE_CHECKING:  # the verifier reads extension lines without loading the match's rules
    from audit.keys import Signer
    from domain.match import Match, MatchSnapshot

_ROUND = re.compile(r"round (0|[1-9][0-9]{0,15})")
_STATE = re.compile(r"state ([0-9a-f]{64})")


class RoundClose(NamedTuple):
    """A checkpoint's extension lines: the round it closes and the state root at its end."""

    round: int
    state_root: str


def extensions(round: int, root_hex: str) -> list[str]:
    return [f"round {round}", f"state {root_hex}"]


def parse_extensions(lines: tuple[str, ...]) -> RoundClose:
    """Exactly the two lines `extensions` writes, or malformed_checkpoint."""
    if len(lines) == 2 and (r := _ROUND.fullmatch(lines[0])) and (s := _STATE.fullmatch(lines[1])):
        return RoundClose(int(r[1]), s[1])
    raise AuditError("malformed_checkpoint", "expected the extension lines 'round N' and "
                     f"'state HEX', got {list(lines)!r}")


def checkpoint_text(match: Match | MatchSnapshot, round: int, log_origin: str | None = None) -> str:
    """The checkpoint body for `match`'s log as it stands, closing `round`."""
    from audit.state_root import state_root

    return checkpoint_body(log_origin or origin(match.match_id), match.version,
                           match.log_root, extensions(round, state_root(match)))


def sign_round(signer: Signer, match: Match | MatchSnapshot, round: int,
               log_origin: str | None = None) -> str:
    """The signed note the host publishes when `round` closes (or the match ends)."""
    return signer.sign_note(checkpoint_text(match, round, log_origin))
