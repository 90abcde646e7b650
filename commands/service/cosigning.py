"""`arbiter serve --witness URL VKEY`: each new checkpoint of each match and each season
submitted to the witnesses the host named (c2sp.org/tlog-witness add-checkpoint), their
cosignatures kept beside the notes (domain.checkpoints) and served with them in every bundle.

Per witness and log, the old size sent is the largest checkpoint that witness cosigned here;
each checkpoint after it goes in order, with its consistency proof from that size. A witness
that answers 409 with a size this log signed is taken at its word (it cosigned that one,
through another path) and the next checkpoint is sent from there; any other refusal is logged
and tried again on a later pass, never dropped. One process at a time makes the passes, of
all the workers (and hosts) on the store.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import httpx

from audit.checkpoints import leaves
from audit.cosign import add_checkpoint_body, cosigners
from audit.merkle import consistency_proof
from audit.notes import NoteError, VerifierKey, parse_note
from commands.service.arbiter import Arbiter
from projections.sole import COSIGNING, sole

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


@dataclass(frozen=True)
class Log:
    """One signed log, as the passes see it: its notes with their cosignatures, its Merkle
    leaves (for the consistency proofs), and where a new cosignature is kept."""

    name: str
    notes: Callable[[], list[dict[str, Any]]]
    leaves: Callable[[], list[bytes]]
    keep: Callable[[int, str], None]


def match_log(arbiter: Arbiter, match_id: str) -> Log:
    return Log(f"match {match_id}", lambda: arbiter.cosigned_notes(match_id),
               lambda: leaves(r["entry"] for r in arbiter.match(match_id).records),
               lambda size, line: arbiter.record_cosignature(match_id, size, line))


def season_log(arbiter: Arbiter, name: str) -> Log:
    return Log(f"season {name}", lambda: arbiter.cosigned_season_notes(name),
               lambda: leaves(r["entry"] for r in arbiter.season(name).records),
               lambda size, line: arbiter.record_season_cosignature(name, size, line))


class Cosigning:
    """Brings every log's checkpoints to every witness; `run` is the worker's loop.
    `logs` lists the logs now (the views' matches and seasons)."""

    def __init__(self, arbiter: Arbiter, witnesses: Iterable[WitnessEndpoint],
                 logs: Callable[[], list[Log]],
                 post: Callable[..., httpx.Response] = httpx.post) -> None:
        self.arbiter = arbiter
        self.witnesses = list(witnesses)
        self.logs = logs
        self.post = post

    def run(self, env: Mapping[str, str], stop: threading.Event, interval: float) -> None:
        """A pass every `interval` seconds while this process holds the job (projections.sole:
        one of all the workers on the store, so a witness is asked each checkpoint once);
        otherwise an offer to take it over as often."""
        while not stop.wait(interval):
            try:
                with sole(env, COSIGNING) as held:
                    while held is not None:
                        held.check()  # a lost session lost the lock too: offer again
                        self.passing()
                        if stop.wait(interval):
                            return
            except Exception as error:  # a lost session or store: the thread goes on
                log.warning("cosigning: the lock was lost (%s); offering again",
                            " ".join(str(error).split())[:300])

    def passing(self) -> None:
        try:
            self.once()
        except Exception:  # a worker thread must outlive one bad pass
            log.exception("cosigning: a pass failed; trying again")

    def once(self) -> int:
        """One pass over every log; how many cosignatures were kept."""
        kept = 0
        for log_ in self.logs():
            notes = log_.notes()
            for witness in self.witnesses:
                if any(not cosigned_by(n, witness.key) for n in notes):
                    kept += self._bring(log_, notes, witness)
        return kept

    def _bring(self, log_: Log, notes: list[dict[str, Any]], witness: WitnessEndpoint,
               old: int | None = None) -> int:
        """Each checkpoint after `old` (by default the last the witness cosigned here)."""
        if old is None:
            old = max((n["size"] for n in notes if cosigned_by(n, witness.key)), default=0)
        data = log_.leaves()
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
                    return kept + self._bring(log_, notes, witness, int(said))
            if answer.status_code != 200:
                log.warning("cosigning: witness %s refused %s at size %d: %d %s", witness.url,
                            log_.name, note["size"], answer.status_code, answer.text.strip())
                return kept
            kept += self._keep(log_, note, witness, answer.text)
            old = note["size"]
        return kept

    def _keep(self, log_: Log, note: dict[str, Any], witness: WitnessEndpoint,
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
            log_.keep(note["size"], line)
        return len(good)
