"""The public test vectors (RFC 9162, C2SP signed notes and checkpoints, RFC 8785), kept as data
in tests/data/ so the suite needs nothing beside the checkout."""

from __future__ import annotations

import json
from pathlib import Path

VECTORS = json.loads((Path(__file__).parent / "data" / "merkle-vectors.json")
                     .read_text(encoding="utf-8"))
