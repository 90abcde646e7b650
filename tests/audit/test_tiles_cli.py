"""`arbiter publish` writes every log as static C2SP tiles, incrementally; `arbiter verify`
reads a log back from its tiles (a folder, or a URL a plain static web server answers) with
the checks and codes it runs on a bundle; a receipt is proven from the few tiles it needs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from audit import keys
from audit.canonical import canonical, entry_hash
from commands.cli.main import cli
from commands.cli.matchfile import load, prepare_season, run
from commands.service.arbiter import Arbiter
from tests.support.static_host import static_host as serving

SEED = Path(__file__).resolve().parents[2] / "seeds" / "amalgamation-winner-chooses-ec.json"
SIGNER = keys.generate("host.example")


def arbiter(db: str, key: Path, *args: str):
    return CliRunner(env={"ARBITER_HOST_KEY": str(key)}).invoke(cli, ["--db", db, *args])


def ok(result) -> str:
    assert result.exit_code == 0, result.output
    return result.stdout


def failed(result) -> str:
    """The FAILED line of a verify that found what is wrong (exit 1)."""
    assert result.exit_code == 1, result.output
    return result.output.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    """The amalgamation seed played and ended (360 entries: a full tile, partial ones), and a
    small match played through the CLI with a receipt, round 1 closed and round 2 open."""
    folder = tmp_path_factory.mktemp("store")
    db, key = f"sqlite:///{folder}/arbiter.db", folder / "host.key"
    keys.save(SIGNER, key)
    app = Arbiter(db, signer=SIGNER)
    file = load(SEED)
    prepare_season(app, file)
    assert run(app, file)[1] == []
    app.close()
    for args in (["match", "create", "m", "--season", file.season, "--game", "sealed_bid",
                  "--players", ",".join(file.players[:3]), "--setup", '{"rounds": 2}'],
                 ["match", "host", "m", "open_match"]):
        ok(arbiter(db, key, *args))
    bidder = file.players[1]
    (folder / "receipt.json").write_text(ok(arbiter(
        db, key, "match", "submit", "m", "bid", "amount=0", "--as", bidder, "--json")))
    ok(arbiter(db, key, "match", "close-round", "m", "--round", "1"))
    ok(arbiter(db, key, "match", "submit", "m", "bid", "amount=0", "--as", bidder))
    for args in (["match", "create", "u", "--season", file.season, "--game", "sealed_bid",
                  "--players", ",".join(file.players[:3]), "--setup", '{"rounds": 2}',
                  "--unsigned"],
                 ["match", "host", "u", "open_match"]):
        ok(arbiter(db, key, *args))
    return {"db": db, "key": key, "dir": folder, "match": file.match, "season": file.season,
            "players": file.players}


@pytest.fixture
def published(store, tmp_path):
    out = tmp_path / "logs"
    ok(arbiter(store["db"], store["key"], "publish", "--all", str(out)))
    return out


def verify_json(*args: str) -> dict:
    """What verify says, but how the key was chosen (first use, then remembered)."""
    found = json.loads(ok(CliRunner().invoke(cli, ["verify", *args, "--json"])))
    for how in ("key_source", "pinned"):
        found.pop(how)
    found["findings"].pop("signed by", None)
    return found


def test_a_published_log_verifies_as_its_bundle_does(store, published):
    for log, name in (("match", store["match"]), ("match", "m"), ("match", "u"),
                      ("season", store["season"])):
        bundle = store["dir"] / f"{name}.jsonl"
        export = ["export", "--public", "-o", str(bundle)]
        ok(arbiter(store["db"], store["key"], *export,
                   *(["--season", name] if log == "season" else [name])))
        from_tiles = verify_json(str(published / log / name))
        assert from_tiles == verify_json(str(bundle))
        assert from_tiles["verified"] is True


def test_the_live_match_has_its_unsigned_entries_in_log_json(store, published):
    prefix = published / "match" / "m"
    document = json.loads((prefix / "arbiter" / "log.json").read_text())
    signed = int((prefix / "checkpoint").read_text().split("\n")[1])
    app = Arbiter(store["db"])
    assert len(document["tail"]) == app.match("m").version - signed > 0
    assert document["tail"][0]["seq"] == signed + 1
    app.close()


def test_a_match_created_unsigned_has_no_checkpoint_and_no_tiles(store, published):
    prefix = published / "match" / "u"
    assert sorted(p.relative_to(prefix).as_posix() for p in prefix.rglob("*") if p.is_file()) \
        == ["arbiter/log.json"]
    document = json.loads((prefix / "arbiter" / "log.json").read_text())
    assert document["notes"] == [] and document["header"]["unsigned"] is True
    assert [e["seq"] for e in document["tail"]] == list(range(1, len(document["tail"]) + 1))


def test_a_partial_tile_a_full_one_holds_is_not_kept(store, published):
    prefix = published / "match" / store["match"]
    assert (prefix / "tile" / "0" / "000").is_file()
    assert not (prefix / "tile" / "0" / "000.p").exists()       # the rounds signed below 256
    assert not (prefix / "tile" / "entries" / "000.p").exists()
    app = Arbiter(store["db"])
    signed = [n["size"] for n in app.checkpoints(store["match"]).notes]
    app.close()
    # the rounds signed past 256 entries: each its partial tile, as the spec asks
    assert sorted(int(p.name) for p in (prefix / "tile" / "0" / "001.p").iterdir()) == [
        size - 256 for size in signed if size > 256]


def test_publishing_again_writes_only_what_is_new_and_never_rewrites_a_tile(store, published):
    again = json.loads(ok(arbiter(store["db"], store["key"], "publish", "--all",
                                  str(published), "--json")))
    assert {row["written"] for row in again["logs"]} == {0}
    # a log the folder holds as it stands is left alone, unread
    full = published / "match" / store["match"] / "tile" / "0" / "000"
    assert full.stat().st_size == 8192
    full.write_bytes(b"\0" * 8192)
    ok(arbiter(store["db"], store["key"], "publish", store["match"], str(published)))
    assert full.read_bytes() == b"\0" * 8192
    # a log grown by unsigned entries: only its log.json is written, no tile is read
    prefix = published / "match" / "m"
    size = int((prefix / "checkpoint").read_text().split("\n")[1])
    partial = prefix / "tile" / "0" / "000.p" / str(size)  # the right edge of m's tree
    partial.write_bytes(b"\0" * len(partial.read_bytes()))
    checkpoint = (prefix / "checkpoint").read_bytes()
    ok(arbiter(store["db"], store["key"], "match", "submit", "m", "bid", "amount=0", "--as",
               store["players"][2]))
    grown = json.loads(ok(arbiter(store["db"], store["key"], "publish", "m", str(published),
                                  "--json")))
    assert grown["logs"][0]["written"] == 0
    app = Arbiter(store["db"])
    entries = app.match("m").version
    app.close()
    tail = json.loads((prefix / "arbiter" / "log.json").read_text())["tail"]
    assert [e["seq"] for e in tail] == list(range(size + 1, entries + 1))
    # grown by a signed round: the new tiles rest on the edge, which must hash to the
    # checkpoint that names it
    ok(arbiter(store["db"], store["key"], "match", "close-round", "m", "--round", "2"))
    files = sorted(p for p in prefix.rglob("*") if p.is_file())
    refused = arbiter(store["db"], store["key"], "publish", "m", str(published))
    assert refused.exit_code == 2 and "tile_conflict" in refused.output
    assert (prefix / "checkpoint").read_bytes() == checkpoint
    assert sorted(p for p in prefix.rglob("*") if p.is_file()) == files  # nothing written


def test_publish_refuses_what_it_cannot_use(store, tmp_path):
    for args in ([str(tmp_path)], ["--all", "m", str(tmp_path)],
                 ["m", "--season", store["season"], str(tmp_path)]):
        refused = arbiter(store["db"], store["key"], "publish", *args)
        assert refused.exit_code == 2 and "invalid_input" in refused.output
    unknown = arbiter(store["db"], store["key"], "publish", "nope", str(tmp_path))
    assert unknown.exit_code == 2 and "unknown_match" in unknown.output
    assert not (tmp_path / "match").exists()


def tampered(published, name, tmp_path):
    copy = tmp_path / "tampered"
    shutil.copytree(published, copy)
    return copy / "match" / name


def test_tampered_tiles_fail_with_the_bundles_codes(store, published, tmp_path):
    """An entry changed in its tile fails as the bundle with the same change (and its hash
    recomputed, since tiles carry no hash) fails: the very line, the very code."""
    prefix = tampered(published, store["match"], tmp_path)
    tile = prefix / "tile" / "entries" / "000"
    data = tile.read_bytes()
    at = 0
    for _ in range(12):  # to entry 13
        at += 2 + int.from_bytes(data[at:at + 2], "big")
    where = data.index(b'"seals":["', at) + len(b'"seals":["')
    flipped = b"0" if data[where:where + 1] != b"0" else b"1"
    tile.write_bytes(data[:where] + flipped + data[where + 1:])
    from_tiles = failed(CliRunner().invoke(cli, ["verify", str(prefix)]))

    bundle = tmp_path / "bundle.jsonl"
    ok(arbiter(store["db"], store["key"], "export", "--public", "-o", str(bundle),
               store["match"]))
    lines = bundle.read_bytes().split(b"\n")
    entry = json.loads(lines[13])
    assert entry["seq"] == 13
    entry["seals"][0] = flipped.decode() + entry["seals"][0][1:]
    entry["hash"] = entry_hash(entry)
    lines[13] = canonical(entry)
    bundle.write_bytes(b"\n".join(lines))
    assert from_tiles == failed(CliRunner().invoke(cli, ["verify", str(bundle)]))
    assert from_tiles.startswith("FAILED broken_chain: seq 14")


def test_a_missing_or_short_tile_is_named(store, published, tmp_path):
    prefix = tampered(published, store["match"], tmp_path)
    (prefix / "tile" / "entries" / "001.p" / "104").unlink()
    line = failed(CliRunner().invoke(cli, ["verify", str(prefix)]))
    assert line.startswith("FAILED tile_missing") and "001.p/104" in line
    prefix = tampered(published, "m", tmp_path / "2")
    size = int((prefix / "checkpoint").read_text().split("\n")[1])
    tile = prefix / "tile" / "0" / "000.p" / str(size)  # what its consistency proofs read
    tile.write_bytes(tile.read_bytes()[:-1])
    assert "malformed_tile" in failed(CliRunner().invoke(cli, ["verify", str(prefix)]))


def test_a_checkpoint_dropped_from_log_json_is_missing(store, published, tmp_path):
    prefix = tampered(published, store["match"], tmp_path)
    document = json.loads((prefix / "arbiter" / "log.json").read_text())
    del document["notes"][2]
    (prefix / "arbiter" / "log.json").write_text(json.dumps(document))
    assert failed(CliRunner().invoke(cli, ["verify", str(prefix)])).startswith(
        "FAILED missing_checkpoint")


def test_a_checkpoint_the_log_does_not_list_is_refused(store, published, tmp_path):
    prefix = tampered(published, store["match"], tmp_path)
    other = (published / "match" / "m" / "checkpoint").read_text()
    (prefix / "checkpoint").write_text(other)
    assert failed(CliRunner().invoke(cli, ["verify", str(prefix)])).startswith(
        "FAILED inconsistent_checkpoints")


def test_lying_hash_tiles_fail_the_proofs_they_feed(store, published, tmp_path):
    prefix = tampered(published, store["match"], tmp_path)
    tile = prefix / "tile" / "0" / "000"
    data = bytearray(tile.read_bytes())
    data[0] ^= 1  # leaf 0's hash, used by every consistency proof from a size above 1
    tile.write_bytes(bytes(data))
    assert failed(CliRunner().invoke(cli, ["verify", str(prefix)])).startswith(
        "FAILED inconsistent_checkpoints")


@pytest.fixture
def static_host(published):
    """The published folder behind a plain static web server on the loopback."""
    with serving(published) as url:
        yield url


def test_a_log_on_a_static_web_server_verifies(store, published, static_host):
    url = f"{static_host}/season/{store['season']}"
    assert verify_json(url) == verify_json(str(published / "season" / store["season"]))
    gone = failed(CliRunner().invoke(cli, ["verify", f"{static_host}/match/nope"]))
    assert gone.startswith("FAILED tile_missing") and "404" in gone


def test_a_receipt_is_proven_from_the_tiles(store, published, static_host):
    receipt = str(store["dir"] / "receipt.json")
    for tiles in (str(published / "match" / "m"), f"{static_host}/match/m"):
        checked = ok(CliRunner().invoke(cli, ["receipt", "verify", receipt, "--tiles", tiles]))
        assert "is in the log under the checkpoint of round 1" in checked
    other = CliRunner().invoke(cli, ["receipt", "verify", receipt, "--tiles",
                                     str(published / "match" / store["match"])])
    assert "receipt_mismatch" in failed(other)
    both = CliRunner().invoke(cli, ["receipt", "verify", receipt, "--tiles", "x", "--bundle",
                                    receipt])
    assert both.exit_code == 2 and "invalid_input" in both.output


def test_a_season_names_its_matches_beside_it_and_nowhere_else(store, published, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(published, copy)
    prefix = copy / "season" / store["season"]
    document = json.loads((prefix / "arbiter" / "log.json").read_text())
    for elsewhere in ("https://elsewhere.example/match/x", "../../../../tmp/x", "/etc"):
        document["matches"][store["match"]] = elsewhere
        (prefix / "arbiter" / "log.json").write_text(json.dumps(document))
        assert failed(CliRunner().invoke(cli, ["verify", str(prefix)])).startswith(
            "FAILED malformed_header")
