"""`arbiter serve --workers 2 --witness URL VKEY`: one process at a time brings the
checkpoints to the witnesses (projections.sole), so a witness is asked each checkpoint once,
not once per worker; when that process dies another takes over, and the cosignatures still
land in the store."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import psycopg
from click.testing import CliRunner
from service_harness import eventually
from test_cosigning import RunningWitness
from test_http_crash import workers
from test_http_workers import answers, free_port

from audit import cosign, keys
from audit.notes import VerifierKey, parse_checkpoint, parse_note, parse_verifier_key
from commands.cli.main import cli
from commands.cli.matchfile import MatchFile, load, play
from commands.service.arbiter import Arbiter
from commands.service.cosigning import cosigned_by
from commands.store.settings import database_url, persistence_env
from projections import sole
from tests.support.host_key import SIGNER

ROOT = Path(__file__).resolve().parents[2]
SEEDS = ROOT / "seeds"
DELAY = 0.2  # seconds the witness takes over each answer: two workers' passes would overlap


class Slow(cosign.Witness):
    """A witness that takes its time, and counts each checkpoint asked of it."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.asked: Counter[tuple[str, int]] = Counter()
        self.counting = threading.Lock()

    def add_checkpoint(self, body: bytes) -> cosign.Answer:
        time.sleep(DELAY)
        checkpoint = parse_checkpoint(parse_note(body.decode().split("\n\n", 1)[1]).text)
        with self.counting:
            self.asked[checkpoint.origin, checkpoint.size] += 1
        return super().add_checkpoint(body)


def checkpoints(app: Arbiter, files: list[MatchFile]) -> list[tuple[str, int, dict[str, Any]]]:
    """Every signed checkpoint of the matches and of their season: origin, size, note."""
    notes = [*(n for f in files for n in app.cosigned_notes(f.match)),
             *app.cosigned_season_notes(files[0].season)]
    return [(parse_checkpoint(parse_note(n["note"]).text).origin, n["size"], n)
            for n in notes]


def all_cosigned(app: Arbiter, files: list[MatchFile], key: VerifierKey) -> bool:
    return all(cosigned_by(note, key) for _, _, note in checkpoints(app, files))


def cosigner(db: str) -> int | None:
    """The process holding the cosigning lock: on PostgreSQL its session's application_name
    names it; on SQLite, /proc/locks names the holder of the lock file's flock."""
    env = persistence_env(database_url(db))
    if env["PERSISTENCE_MODULE"] == "eventsourcing.postgres":
        with psycopg.connect(db) as conn:
            row = conn.execute(
                "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
                "WHERE l.locktype = 'advisory' AND l.granted AND a.application_name LIKE %s",
                (f"{sole.APPLICATION_NAME.format(job=sole.COSIGNING, pid='')}%",)).fetchone()
        return None if row is None else int(row[0].rsplit(" ", 1)[1])
    path = sole.beside(env, f"{sole.COSIGNING}.lock")
    inode = os.stat(path).st_ino if path and os.path.exists(path) else None
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()  # 1: FLOCK ADVISORY WRITE 4242 fd:01:123456 0 EOF
        if fields[1] == "FLOCK" and int(fields[5].rsplit(":", 1)[1]) == inode:
            return int(fields[4])
    return None


def test_one_worker_at_a_time_asks_the_witness_each_checkpoint_once(db_url, tmp_path):
    first, second = (load(SEEDS / f"kings_court-{n}.json") for n in ("king-win", "team-win"))
    app = Arbiter(db_url, signer=SIGNER)
    play(app, first)
    origin = checkpoints(app, [first])[0][0]
    witness = RunningWitness(tmp_path, "witness.example/w1",
                             origin.removesuffix(f"/match/{first.match}"), kind=Slow)
    assert isinstance(witness.witness, Slow)
    asked = witness.witness.asked
    key = witness.endpoint.key
    keys.save(SIGNER, tmp_path / "host.key")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with (tmp_path / "serve.log").open("wb") as log:
        server = subprocess.Popen(
            [sys.executable, "-c", "from commands.cli.main import main; main()", "--db", db_url,
             "serve", "--port", str(port), "--workers", "2", "--witness", witness.url,
             str(key)],
            cwd=ROOT, env={**os.environ, "ARBITER_HOST_KEY": str(tmp_path / "host.key")},
            stdout=subprocess.DEVNULL, stderr=log)
    try:
        eventually(lambda: answers(url), timeout=60)
        eventually(lambda: len(workers(server)) == 2, timeout=60)
        eventually(lambda: all_cosigned(app, [first], key), timeout=120, every=0.5)
        signed = checkpoints(app, [first])
        assert {o for o, _, _ in signed} == {origin, origin.replace(
            f"/match/{first.match}", f"/season/{first.season}")}  # the match's and the season's
        assert asked == Counter((o, size) for o, size, _ in signed)  # each once

        holder = eventually(lambda: cosigner(db_url))
        assert holder in workers(server)
        os.kill(holder, signal.SIGKILL)
        play(app, second)  # new checkpoints, for whichever worker takes over
        eventually(lambda: all_cosigned(app, [first, second], key), timeout=120, every=0.5)
        signed = checkpoints(app, [first, second])
        assert asked == Counter((o, size) for o, size, _ in signed)
        assert eventually(lambda: cosigner(db_url)) not in (None, holder)
        bundle = httpx.get(f"{url}/matches/{second.match}/bundle", timeout=30).content
        last = app.cosigned_notes(second.match)[-1]
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)
        witness.close()
        app.close()
    assert witness.witness.state.latest[origin.replace(first.match, second.match)].size == \
        last["size"]
    (tmp_path / "bundle.jsonl").write_bytes(bundle)
    (tmp_path / "witnesses").write_text(f"{key}\n")
    verified = CliRunner().invoke(cli, ["verify", str(tmp_path / "bundle.jsonl"), "--key",
                                        str(parse_verifier_key(SIGNER.verifier_key())),
                                        "--witnesses", str(tmp_path / "witnesses"), "--json"])
    assert verified.exit_code == 0, verified.output
    assert json.loads(verified.stdout)["cosigned_by"] == ["witness.example/w1"]
