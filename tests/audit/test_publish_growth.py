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
