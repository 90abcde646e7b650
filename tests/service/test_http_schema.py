"""A schemathesis run over the OpenAPI schema, with and without the host token, against the
live server on PostgreSQL: whatever it sends, no answer is a 500."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from service_harness import Server, database

EXAMPLES = 12


@pytest.fixture(scope="module")
def served(pg_server):
    with database(pg_server) as url, Server(url) as server:
        host = server.client(server.host_token())
        host.ok(host.post("/seasons", {"name": "spring"}))
        for player in ("ann", "bob", "cy"):
            host.ok(host.post("/seasons/spring/players", {"player": player}))
        host.ok(host.post("/matches", {"match": "m1", "season": "spring", "game": "sealed_bid",
                                       "players": ["ann", "bob", "cy"]}))
        yield server, host.http.headers["Authorization"]


def operations(server: Server):
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    # Streams never end; tests/service/test_http_streams.py covers them.
    return [result.ok() for result in schema.exclude(path_regex="/events$").get_all_operations()]


@pytest.mark.parametrize("authorization", ["host", "none"])
def test_no_input_gets_a_server_error(served, authorization):
    server, host = served
    headers = {"Authorization": host} if authorization == "host" else {}
    for operation in operations(server):

        @settings(max_examples=EXAMPLES, deadline=None, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(case=operation.as_strategy())
        def check(case):
            case.call_and_validate(base_url=server.url, headers=headers,
                                   checks=[not_a_server_error])

        check()
