"""An S3-compatible server on the loopback: moto's, in server mode, which speaks S3's REST
protocol over HTTP as AWS, MinIO or R2 do (signed requests, XML errors, versioning, bucket
policies), so the bucket tests run against a real server, never a mock.

Its buckets live in this process (moto's backends): each test names its own bucket.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from uuid import uuid4

REGION = "us-east-1"
KEYS = {"AWS_ACCESS_KEY_ID": "publisher", "AWS_SECRET_ACCESS_KEY": "publisher-secret"}
# What an `arbiter publish` to the server is run with (click's runner: None unsets): the
# credentials in the environment, and nothing of the machine's own AWS set-up (no ~/.aws, no
# profile, no instance metadata, no other endpoint).
ENV: dict[str, str | None] = {
    **KEYS, "AWS_DEFAULT_REGION": REGION, "AWS_CONFIG_FILE": "/nonexistent",
    "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent", "AWS_EC2_METADATA_DISABLED": "true",
    "AWS_PROFILE": None, "AWS_SESSION_TOKEN": None, "AWS_ENDPOINT_URL": None,
    "AWS_ENDPOINT_URL_S3": None}


@contextmanager
def s3_server() -> Iterator[str]:
    """The server's endpoint, `http://127.0.0.1:PORT`, while it runs."""
    from moto.server import ThreadedMotoServer

    logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
    server.start()
    host, port = server.get_host_and_port()
    try:
        yield f"http://{host}:{port}"
    finally:
        server.stop()


def client(endpoint: str, keys: dict[str, str] = KEYS):
    import boto3

    return boto3.client("s3", endpoint_url=endpoint, region_name=REGION,
                        aws_access_key_id=keys["AWS_ACCESS_KEY_ID"],
                        aws_secret_access_key=keys["AWS_SECRET_ACCESS_KEY"])


def public_bucket(endpoint: str, versioned: bool = False) -> str:
    """A new bucket anyone may read (as a bucket behind a CDN is), its name."""
    name = f"logs-{uuid4().hex[:12]}"
    s3 = client(endpoint)
    s3.create_bucket(Bucket=name)
    s3.put_bucket_policy(Bucket=name, Policy=json.dumps({
        "Version": "2012-10-17", "Statement": [{
            "Effect": "Allow", "Principal": "*", "Action": "s3:GetObject",
            "Resource": f"arn:aws:s3:::{name}/*"}]}))
    if versioned:
        s3.put_bucket_versioning(Bucket=name, VersioningConfiguration={"Status": "Enabled"})
    return name
