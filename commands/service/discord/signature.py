"""Discord's request signature: Ed25519 over the timestamp followed by the raw body, with the
application's public key (headers X-Signature-Ed25519 and X-Signature-Timestamp).

A timestamp more than `MAX_AGE` seconds away from now is refused as well, so a request
recorded once cannot be sent again later (Discord signs each request when it sends it)."""

from __future__ import annotations

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

MAX_AGE = 300  # seconds between Discord's timestamp and our clock, either way


class Unsigned(Exception):
    """The request is not Discord's: a 401, and nothing else happens."""


def check_signature(public_key: str, signature: str | None, timestamp: str | None,
                    body: bytes, now: float) -> None:
    if not signature or not timestamp:
        raise Unsigned("the request carries no Discord signature")
    # ASCII digits only, and few: str.isdigit() takes '²', which int() refuses.
    if not (timestamp.isascii() and timestamp.isdigit() and len(timestamp) <= 12) \
            or abs(now - int(timestamp)) > MAX_AGE:
        raise Unsigned("the request's timestamp is stale")
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key))
        key.verify(bytes.fromhex(signature), timestamp.encode() + body)
    except (ValueError, InvalidSignature):
        raise Unsigned("the request's signature does not verify") from None
