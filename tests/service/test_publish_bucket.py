"""`arbiter publish ... s3://BUCKET/PREFIX` against a real S3-compatible server on the loopback
(tests.support.s3_server): the objects read back over plain HTTP by a client written from the
spec alone and by `arbiter verify`, each with the headers a web server would answer it with;
a growing log put again and again with no tile object put twice (the bucket keeps every
version), the bucket always the folder a publish from scratch makes; and what goes wrong said
in one line, with nothing half-named."""

from __future__ import annotations

import json
import socket
from hashlib import sha256
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from audit import keys
from commands.cli.main import cli
from commands.service.arbiter import Arbiter
from tests.support.s3_server import ENV, client, public_bucket, s3_server
from tests.support.staged import stages
from tests.support.tiles_client import SpecClient, rfc_mth

SIGNER = keys.generate("host.example")
SHORT_LIVED = ("checkpoint", "log.json")


@pytest.fixture(scope="module")
def endpoint():
    with s3_server() as url:
        yield url


@pytest.fixture
def store(tmp_path):
    db, key = f"sqlite:///{tmp_path}/arbiter.db", tmp_path / "host.key"
    keys.save(SIGNER, key)
    app = Arbiter(db, signer=SIGNER)
    yield {"db": db, "key": key, "app": app, "stages": stages(app)}
    app.close()


def publish(store, target: str, endpoint: str, env: dict[str, str | None] = ENV, *args: str):
    runner = CliRunner(env={"ARBITER_HOST_KEY": str(store["key"]),
                            "ARBITER_S3_ENDPOINT": endpoint, **env})
    return runner.invoke(cli, ["--db", store["db"], "publish", *args, target])


def ok(result) -> dict:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def objects(endpoint: str, bucket: str) -> dict[str, bytes]:
    s3 = client(endpoint)
    keys_ = [o["Key"] for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket)
             for o in page.get("Contents", [])]
    return {k.removeprefix("logs/"): s3.get_object(Bucket=bucket, Key=k)["Body"].read()
            for k in sorted(keys_)}


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def getter(prefix: str):
    """A GET over plain HTTP, no credentials: as anyone reads a public bucket."""
    return lambda path: httpx.get(f"{prefix}/{path}").raise_for_status().content


def verified(location: str) -> None:
    found = CliRunner().invoke(cli, ["verify", location, "--json"])
    assert found.exit_code == 0, found.output
    assert json.loads(found.stdout)["verified"] is True


def test_a_growing_log_in_a_bucket_reads_back_and_no_tile_is_put_twice(store, endpoint,
                                                                        tmp_path):
    bucket = public_bucket(endpoint, versioned=True)
    served = f"{endpoint}/{bucket}/logs"
    for stage, file in enumerate(store["stages"]):
        done = ok(publish(store, f"s3://{bucket}/logs", endpoint, ENV, "--all", "--json"))
        assert {row["id"] for row in done["logs"]} == {file.match, file.season}
        spec = SpecClient(getter(f"{served}/match/{file.match}"))
        _, size, root, _ = spec.checkpoint()
        entries = spec.all_entries(size)
        assert spec.root(size) == root == rfc_mth(entries)
        match = store["app"].match(file.match)
        assert [sha256(b"arbiter/event/v1\n" + e).hexdigest() for e in entries] == [
            r["entry"]["hash"] for r in match.records[:size]]
        verified(f"{served}/match/{file.match}")
        verified(f"{served}/season/{file.season}")
        fresh = tmp_path / f"fresh{stage}"
        ok(publish(store, str(fresh), endpoint, ENV, "--all", "--json"))
        assert objects(endpoint, bucket) == files(fresh)
    assert size == 360
    # every tile object was put once: only the two files each round replaces have versions
    versions = client(endpoint).list_object_versions(Bucket=bucket)
    put: dict[str, int] = {}
    for version in versions["Versions"]:
        put[version["Key"]] = put.get(version["Key"], 0) + 1
    again = sorted(k for k, n in put.items() if n > 1)
    assert again and all(k.endswith(SHORT_LIVED) for k in again)
    # what was removed is the partial tiles a full tile now holds, never a full tile
    removed = {m["Key"] for m in versions.get("DeleteMarkers", [])}
    assert removed and all(".p/" in k for k in removed)


def test_each_object_has_the_headers_a_web_server_gives_it(store, endpoint):
    file = list(store["stages"])[-1]  # the seed played to its end
    bucket = public_bucket(endpoint)
    ok(publish(store, f"s3://{bucket}/logs/", endpoint, ENV, file.match, "--json"))
    prefix = f"{endpoint}/{bucket}/logs/match/{file.match}"
    for path, kind, cache in (
            ("checkpoint", "text/plain; charset=utf-8", "public, max-age=5"),
            ("arbiter/log.json", "application/json", "public, max-age=5"),
            ("tile/0/000", "application/octet-stream", "public, max-age=31536000, immutable"),
            ("tile/entries/001.p/104", "application/octet-stream",
             "public, max-age=31536000, immutable"),
            ("tile/1/000.p/1", "application/octet-stream",
             "public, max-age=31536000, immutable")):
        answer = httpx.get(f"{prefix}/{path}")
        assert answer.status_code == 200, path
        assert (answer.headers["content-type"], answer.headers["cache-control"]) == (kind, cache)


def one_line(result, code: str) -> str:
    """The refusal: exit 2, one line `error: CODE: ...` in words, no traceback."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {code}: "), result.output
    return lines[0]


def test_a_bucket_that_is_not_there_or_cannot_be_reached_is_said_so(store, endpoint):
    next(store["stages"])
    missing = one_line(publish(store, "s3://no-such-bucket/logs", endpoint, ENV, "--all"),
                       "s3_no_bucket")
    assert "no-such-bucket" in missing
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        down = f"http://127.0.0.1:{probe.getsockname()[1]}"
    bucket = public_bucket(endpoint)
    line = one_line(publish(store, f"s3://{bucket}/logs", down, ENV, "--all"),
                    "s3_unreachable")
    assert down in line
    nameless = one_line(publish(store, "s3:///logs", endpoint, ENV, "--all"), "invalid_input")
    assert "names no bucket" in nameless
    assert objects(endpoint, bucket) == {}


def test_credentials_missing_or_refused_are_said_so(store, endpoint):
    from moto.core.authorization import enable_iam_authentication

    next(store["stages"])
    bucket = public_bucket(endpoint)
    none = {**ENV, "AWS_ACCESS_KEY_ID": None, "AWS_SECRET_ACCESS_KEY": None}
    line = one_line(publish(store, f"s3://{bucket}/logs", endpoint, none, "--all"),
                    "s3_denied")
    assert "no credentials" in line
    with enable_iam_authentication():  # the server now checks each request's key
        line = one_line(publish(store, f"s3://{bucket}/logs", endpoint, ENV, "--all"),
                        "s3_denied")
    assert "InvalidAccessKeyId" in line
    assert objects(endpoint, bucket) == {}


def test_a_publish_cut_short_leaves_the_checkpoint_naming_only_what_is_there(store, endpoint,
                                                                          tmp_path):
    """A key that may put every object but entry bundles: the new tiles are refused part way,
    so the checkpoint and log.json stay the last whole publish's, and the log verifies as it
    did; the next whole publish completes the log."""
    from moto.core.authorization import enable_iam_authentication

    bucket = public_bucket(endpoint)
    target = f"s3://{bucket}/logs"
    file = next(store["stages"])
    ok(publish(store, target, endpoint, ENV, file.match, "--json"))
    before = objects(endpoint, bucket)
    import boto3

    iam = boto3.client("iam", endpoint_url=endpoint, region_name="us-east-1",
                       aws_access_key_id="x", aws_secret_access_key="x")
    user = f"no-entries-{bucket}"
    iam.create_user(UserName=user)
    iam.put_user_policy(UserName=user, PolicyName="tiles-but-not-entries", PolicyDocument=(
        json.dumps({"Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Action": "s3:*", "Resource": "*"},
            {"Effect": "Deny", "Action": "s3:PutObject",
             "Resource": f"arn:aws:s3:::{bucket}/logs/*/tile/entries/*"}]})))
    made = iam.create_access_key(UserName=user)["AccessKey"]
    limited = {**ENV, "AWS_ACCESS_KEY_ID": made["AccessKeyId"],
               "AWS_SECRET_ACCESS_KEY": made["SecretAccessKey"]}
    next(store["stages"])
    next(store["stages"])  # past tile 0: new full tiles, new entry bundles
    with enable_iam_authentication():
        line = one_line(publish(store, target, endpoint, limited, file.match), "s3_denied")
    assert "AccessDenied" in line
    after = objects(endpoint, bucket)
    for name in (f"match/{file.match}/checkpoint", f"match/{file.match}/arbiter/log.json"):
        assert after[name] == before[name]
    assert set(after) > set(before)  # some hash tiles were put, which nothing names yet
    verified(f"{endpoint}/{bucket}/logs/match/{file.match}")
    ok(publish(store, target, endpoint, ENV, file.match, "--json"))
    fresh = tmp_path / "fresh"
    ok(publish(store, str(fresh), endpoint, ENV, file.match, "--json"))
    assert objects(endpoint, bucket) == files(fresh)
