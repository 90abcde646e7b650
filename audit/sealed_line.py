"""The line of a sealed entry, known before it is read but for its hash and its commitments.

A sealed entry shows nothing but its place in the log and its SEALS commitments. So once a
verifier knows the entry before it, it knows every byte of the next sealed entry's canonical
line except that entry's own hash and commitments: holding a line to that expectation checks
that it is canonical, of its types and in its place, with no JSON parse. This is how verify
takes most lines of a bundle (audit/verify.py `_ordinary`); a line that does not match is
left to the general path, which says what is wrong with it.
"""

from __future__ import annotations

from domain.canonical import canonical
from domain.envelope import SEALS, VERSION

HEAD = b'{"actor":null,"at":null,"hash":"'  # the canonical order: actor, at, hash, kind, ...
_HASH = slice(len(HEAD), len(HEAD) + 64)
_LEAF_HEAD, _AFTER_HASH = HEAD[:-len(b'"hash":"')], _HASH.stop + len(b'",')
# What a line's commitments look like with each hex digit written x (and an x written -).
_HEX_AS_X = bytes.maketrans(b"0123456789abcdefx", b"x" * 16 + b"-")
_COMMITMENTS = b'","'.join([b"x" * 64] * SEALS)


class SealedLines:
    """The sealed entries of one match's log, round by round (`in_round` before `read`)."""

    after_prev: bytes
    commitments: slice

    def __init__(self, match_id: str) -> None:
        self.after_hash = (b'","kind":null,"match":' + canonical(match_id)
                           + b',"postings":null,"prev":"')
        self.tail = b'"],"seq":%%d,"v":%d}\n' % VERSION

    def in_round(self, round: int) -> None:
        """Expect the entries of `round` from now on."""
        self.after_prev = b'","public":null,"round":%d,"seals":["' % round
        start = _HASH.stop + len(self.after_hash) + 64 + len(self.after_prev)
        self.commitments = slice(start, start + len(_COMMITMENTS))

    def read(self, raw: bytes, seq: int, prev: bytes) -> tuple[bytes, bytes] | None:
        """The hash `raw` claims (its hex text) and the entry's Merkle leaf (the line without
        its hash), if `raw` is the line of a sealed entry at `seq` after the entry whose hash
        is `prev`, in the round expected; else None."""
        digest, commitments = raw[_HASH], raw[self.commitments]
        expected = b"".join((HEAD, digest, self.after_hash, prev, self.after_prev, commitments,
                             self.tail % seq))
        if expected != raw or commitments.translate(_HEX_AS_X) != _COMMITMENTS:
            return None
        return digest, _LEAF_HEAD + raw[_AFTER_HASH:-1]
