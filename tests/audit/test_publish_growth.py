"""`arbiter publish` into a folder, again after each stage of a growing log: only the new tiles
are written (no file already there is written again), and the folder is, file for file, the
folder a publish from scratch makes."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from audit import keys
from commands.cli.main import cli
from commands.service.arbiter import Arbiter
from tests.support.staged import stages

SIGNER = keys.generate("host.example")


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_folder_grown_stage_by_stage_is_the_folder_published_at_once(tmp_path):
    db, key = f"sqlite:///{tmp_path}/arbiter.db", tmp_path / "host.key"
    keys.save(SIGNER, key)
    runner = CliRunner(env={"ARBITER_HOST_KEY": str(key)})

    def publish(folder: Path) -> dict[str, dict]:
        done = runner.invoke(cli, ["--db", db, "publish", "--all", str(folder), "--json"])
        assert done.exit_code == 0, done.output
        return {row["id"]: row for row in json.loads(done.stdout)["logs"]}

    app = Arbiter(db, signer=SIGNER)
    grown = tmp_path / "grown"
    before: dict[Path, int] = {}
    for stage, file in enumerate(stages(app)):
        done = publish(grown)
        for path, inode in before.items():  # each file there before is the same file still
            if path.exists() and path.name not in ("checkpoint", "log.json"):
                assert path.stat().st_ino == inode, path
        before = {p: p.stat().st_ino for p in grown.rglob("*") if p.is_file()}
        fresh = tmp_path / f"fresh{stage}"
        publish(fresh)
        assert files(grown) == files(fresh)
        if stage == 2:
            # signed at 168 entries, now at 210, 252 and 294: tile 0 is full (and its entry
            # bundle), 294 has 38 entries in tile 1 and one hash at level 1; the partial tiles
            # of 26, 80, 126 and 168 go
            assert (done[file.match]["written"], done[file.match]["kept"]) == (5, 0)
            prefix = grown / "match" / file.match
            assert sorted(files(prefix)) == [
                "arbiter/log.json", "checkpoint", "tile/0/000", "tile/0/001.p/38",
                "tile/1/000.p/1", "tile/entries/000", "tile/entries/001.p/38"]
    app.close()


def test_a_key_that_did_not_sign_the_checkpoints_is_refused_before_anything_is_written(tmp_path):
    db, key, other = f"sqlite:///{tmp_path}/arbiter.db", tmp_path / "host.key", tmp_path / "o"
    keys.save(SIGNER, key)
    keys.save(keys.generate("host.example"), other)
    app = Arbiter(db, signer=SIGNER)
    grown = stages(app)
    file = next(grown)
    folder = tmp_path / "logs"

    def publish(key_file: Path):
        return CliRunner(env={"ARBITER_HOST_KEY": str(key_file)}).invoke(
            cli, ["--db", db, "publish", file.match, str(folder)])

    refused = publish(other)
    assert refused.exit_code == 2 and "wrong_host_key" in refused.output
    assert not folder.exists()
    assert publish(key).exit_code == 0
    # log.json one entry short, as if the log had grown by one unsigned entry since: no new
    # checkpoint to check, but the key is not the one the folder's checkpoints were put under
    document = folder / "match" / file.match / "arbiter" / "log.json"
    shorter = json.loads(document.read_bytes())
    shorter["tail"].pop()
    document.write_text(json.dumps(shorter))
    before = files(folder)
    refused = publish(other)
    assert refused.exit_code == 2 and "wrong_host_key" in refused.output
    assert files(folder) == before
    next(grown)  # more signed rounds: the checkpoints there were put under the host's key
    refused = publish(other)
    assert refused.exit_code == 2 and "wrong_host_key" in refused.output
    assert files(folder) == before
    app.close()


def test_a_second_publish_to_a_folder_waits_for_the_first_then_gives_up_writing_nothing(
        tmp_path, monkeypatch):
    """A cron run outlasting its minute: the next publish to the same folder waits while the
    folder is held (its flock, any process's), and past the wait is refused, writing nothing;
    once the folder is let go it publishes."""
    import fcntl
    import os

    from commands.store import shelves

    db, key = f"sqlite:///{tmp_path}/arbiter.db", tmp_path / "host.key"
    keys.save(SIGNER, key)
    app = Arbiter(db, signer=SIGNER)
    file = next(stages(app))
    app.close()
    folder = tmp_path / "logs"
    folder.mkdir()
    monkeypatch.setattr(shelves, "WAIT", 0.3)
    runner = CliRunner(env={"ARBITER_HOST_KEY": str(key)})
    held = os.open(folder, os.O_RDONLY)
    fcntl.flock(held, fcntl.LOCK_EX)  # the first publish, still running
    try:
        refused = runner.invoke(cli, ["--db", db, "publish", file.match, str(folder)])
        assert refused.exit_code == 2, refused.output
        assert f"error: publish_busy: another arbiter publish to {folder} ran for 0.3 s; " \
               "nothing was written" in refused.output
        assert list(folder.iterdir()) == []
    finally:
        os.close(held)
    done = runner.invoke(cli, ["--db", db, "publish", file.match, str(folder), "--json"])
    assert done.exit_code == 0, done.output
    assert (folder / "match" / file.match / "checkpoint").is_file()
