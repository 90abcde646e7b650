"""`arbiter serve --witness URL VKEY`: each new checkpoint of each match submitted to the
witnesses the host named (c2sp.org/tlog-witness add-checkpoint), their cosignatures kept
beside the notes (domain.checkpoints) and served with them in every bundle.

Per witness and match, the old size sent is the largest checkpoint that witness cosigned here;
each checkpoint after it goes in order, with its consistency proof from that size. A witness
that answers 409 with a size this log signed is taken at its word (it cosigned that one,
through another path) and the next checkpoint is sent from there; any other refusal is logged
and tried again on a later pass, never dropped.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import httpx

from audit.checkpoints import leaves
from audit.cosign import add_checkpoint_body, cosigners
from audit.merkle import consistency_proof
from audit.notes import NoteError, VerifierKey, parse_note
from commands.service.arbiter import Arbiter

log = logging.getLogger("arbiter")
TIMEOUT = 5.0


@dataclass(frozen=True)
class WitnessEndpoint:
    url: str  # the submission prefix: the request goes to URL/add-checkpoint
    key: VerifierKey  # the witness's cosignature key (type 0x04)


def cosigned_by(note: dict[str, Any], key: VerifierKey) -> bool:
    return any(_signs(line, key) for line in note.get("cosignatures", []))


def _signs(line: str, key: VerifierKey) -> bool:
    try:
        signature = parse_note(f"x\n\n{line}").signatures[0]
    except NoteError:
        return False
    return (signature.name, signature.key_id) == (key.name, key.key_id)


class Cosigning:
    """Brings every match's checkpoints to every witness; `run` is the worker's loop."""

    def __init__(self, arbiter: Arbiter, witnesses: Iterable[WitnessEndpoint],
                 matches: Callable[[], list[str]],
                 post: Callable[..., httpx.Response] = httpx.post) -> None:
        self.arbiter = arbiter
        self.witnesses = list(witnesses)
        self.matches = matches
        self.post = post

    def run(self, stop: threading.Event, interval: float) -> None:
        while not stop.wait(interval):
            try:
                self.once()
            except Exception:  # a worker thread must outlive one bad pass
                log.exception("cosigning: a pass failed; trying again")

    def once(self) -> int:
        """One pass over every match; how many cosignatures were kept."""
        kept = 0
        for match_id in self.matches():
            notes = self.arbiter.cosigned_notes(match_id)
            for witness in self.witnesses:
                if any(not cosigned_by(n, witness.key) for n in notes):
                    kept += self._bring(match_id, notes, witness)
        return kept

    def _bring(self, match_id: str, notes: list[dict[str, Any]], witness: WitnessEndpoint,
               old: int | None = None) -> int:
        """Each checkpoint after `old` (by default the last the witness cosigned here)."""
        if old is None:
            old = max((n["size"] for n in notes if cosigned_by(n, witness.key)), default=0)
        data = leaves(r["entry"] for r in self.arbiter.match(match_id).records)
        kept = 0
        for note in [n for n in notes if n["size"] > old]:
            proof = consistency_proof(old, data[:note["size"]]) if old else []
            try:
                answer = self.post(f"{witness.url.rstrip('/')}/add-checkpoint", timeout=TIMEOUT,
                                   content=add_checkpoint_body(old, proof, note["note"]))
            except httpx.HTTPError as error:
                log.warning("cosigning: witness %s unreachable: %s", witness.url, error)
                return kept
            if answer.status_code == 409 and answer.headers.get("content-type", "") \
                    .startswith("text/x.tlog.size"):
                said = answer.text.strip()
                if said.isdigit() and int(said) in {n["size"] for n in notes} and \
                        int(said) != old:
                    return kept + self._bring(match_id, notes, witness, int(said))
            if answer.status_code != 200:
                log.warning("cosigning: witness %s refused %s at size %d: %d %s", witness.url,
                            match_id, note["size"], answer.status_code, answer.text.strip())
                return kept
            kept += self._keep(match_id, note, witness, answer.text)
            old = note["size"]
        return kept

    def _keep(self, match_id: str, note: dict[str, Any], witness: WitnessEndpoint,
              answer: str) -> int:
        """The answer's lines that are this witness's valid cosignatures of the note."""
        lines = [line + "\n" for line in answer.splitlines() if line]
        good = [line for line in lines if _signs(line, witness.key)]
        try:
            if not good or not cosigners(note["note"] + "".join(good), [witness.key]):
                raise NoteError("unverified", "no cosignature by the witness's key")
        except (NoteError, ValueError) as error:
            log.warning("cosigning: witness %s answered no valid cosignature: %s",
                        witness.url, error)
            return 0
        for line in good:
            self.arbiter.record_cosignature(match_id, note["size"], line)
        return len(good)
