"""One host key for the tests that play matches without testing the signing itself: every
match is signed as a host's would be (commands.service.arbiter refuses to close a signed match's
round without a key)."""

from __future__ import annotations

from audit import keys

SIGNER = keys.generate("test-host")
