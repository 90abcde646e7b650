"""An S3-compatible bucket as a shelf for `arbiter publish` (commands.store.shelves): AWS S3,
or MinIO, Cloudflare R2, Ceph and their kin at the endpoint given (`--s3-endpoint`, else
$ARBITER_S3_ENDPOINT, else boto3's own $AWS_ENDPOINT_URL or AWS itself).

The credentials are found as every AWS tool finds them (boto3: $AWS_ACCESS_KEY_ID and
$AWS_SECRET_ACCESS_KEY, $AWS_PROFILE and ~/.aws, a role). Each object is put with the
Cache-Control and Content-Type a web server would answer it with. What goes wrong is one
typed error in words (`s3_unreachable`, `s3_denied`, `s3_no_bucket`, `s3_error`), never a
traceback.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from commands.store.shelves import Placed
from domain.errors import RuleViolation

ENDPOINT = "ARBITER_S3_ENDPOINT"
SCHEME = "s3://"
WORKERS = 16  # objects put at once: each a round trip to the store
BATCH = 1000  # keys S3 removes in one request, at most
# What a store answers when the credentials are not good for the bucket.
DENIED = {"AccessDenied", "InvalidAccessKeyId", "SignatureDoesNotMatch", "ExpiredToken",
          "InvalidToken", "AllAccessDisabled", "AccountProblem", "Forbidden", "403"}


def is_bucket(target: str) -> bool:
    return target.startswith(SCHEME)


class Bucket:
    """`s3://BUCKET[/PREFIX]`: every path put under PREFIX in BUCKET."""

    def __init__(self, url: str, endpoint: str | None = None) -> None:
        bucket, _, prefix = url[len(SCHEME):].partition("/")
        if not bucket:
            raise RuleViolation("invalid_input", f"{url} names no bucket: give "
                                "s3://BUCKET or s3://BUCKET/PREFIX")
        try:
            import boto3
            from botocore.config import Config
        except ImportError:
            raise RuleViolation("s3_unavailable", "publishing to a bucket needs boto3: "
                                "pip install 'arbiter[s3]'") from None
        self.bucket, self.prefix = bucket, prefix.strip("/")
        self.endpoint = endpoint or None
        self.where = url + (f" at {endpoint}" if endpoint else "")
        config = Config(retries={"mode": "standard", "max_attempts": 3}, connect_timeout=5,
                        read_timeout=30, max_pool_connections=WORKERS)
        with self._said():
            self.client = boto3.session.Session().client(
                "s3", endpoint_url=self.endpoint, config=config)

    def key(self, path: str) -> str:
        return f"{self.prefix}/{path}" if self.prefix else path

    def get(self, path: str) -> bytes | None:
        with self._said():
            try:
                answer = self.client.get_object(Bucket=self.bucket, Key=self.key(path))
            except self.client.exceptions.NoSuchKey:
                return None
            data: bytes = answer["Body"].read()
            return data

    def put(self, files: Sequence[Placed]) -> None:
        if len(files) < 2:
            for file in files:
                self._put(file)
            return
        with ThreadPoolExecutor(min(WORKERS, len(files))) as pool:
            for _ in pool.map(self._put, files):  # the first error, once all have ended
                pass

    def _put(self, file: Placed) -> None:
        with self._said():
            self.client.put_object(Bucket=self.bucket, Key=self.key(file.path), Body=file.data,
                                   ContentType=file.media_type,
                                   CacheControl=file.cache_control)

    def remove(self, paths: Sequence[str]) -> None:
        for start in range(0, len(paths), BATCH):
            keys = [{"Key": self.key(p)} for p in paths[start:start + BATCH]]
            with self._said():
                answer = self.client.delete_objects(
                    Bucket=self.bucket, Delete={"Objects": keys, "Quiet": True})
            for error in answer.get("Errors", []):
                raise RuleViolation("s3_error", f"{self.where} did not remove {error['Key']}: "
                                    f"{error.get('Code')}: {error.get('Message')}")

    def holding(self) -> contextlib.nullcontext[None]:
        """A bucket has no lock every S3-compatible store keeps alike: one host publishes to
        it (docs/deploy.md)."""
        return contextlib.nullcontext()

    @contextlib.contextmanager
    def _said(self) -> Iterator[None]:
        """boto3's failures as one typed error in words."""
        from botocore import exceptions

        try:
            yield
        except exceptions.NoCredentialsError:
            raise RuleViolation("s3_denied", f"no credentials for {self.where}: set "
                                "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or AWS_PROFILE "
                                "(boto3 finds them as the aws command does)") from None
        except exceptions.ClientError as error:
            raise self._refused(error.response) from None
        except (exceptions.EndpointConnectionError, exceptions.ConnectTimeoutError,
                exceptions.ReadTimeoutError, exceptions.ConnectionClosedError) as error:
            raise RuleViolation("s3_unreachable", f"cannot reach {self.where}: "
                                f"{error}") from None
        except exceptions.BotoCoreError as error:
            raise RuleViolation("s3_error", f"{self.where}: {error}") from None

    def _refused(self, response: dict[str, Any]) -> RuleViolation:
        found = response.get("Error", {})
        code = str(found.get("Code", ""))
        said = f"{code}: {found.get('Message') or 'no reason given'}"
        if code == "NoSuchBucket":
            return RuleViolation("s3_no_bucket", f"there is no bucket {self.bucket} "
                                 f"({self.where}): create it first")
        if code in DENIED:
            return RuleViolation("s3_denied", f"{self.where} refused these credentials "
                                 f"({said})")
        return RuleViolation("s3_error", f"{self.where} answered {said}")
