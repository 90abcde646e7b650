"""The players' router is asked first (a player's command is the commonest request), before
the public and tiles routers that used to come before it: that changes no answer only while
no route of theirs answers a path under a player's prefix. Every player's path and method is
tried against each of their routes."""

from __future__ import annotations

from starlette.routing import Match

from commands.web.routes import players, public, tiles

PREFIX = players.router.prefix


def test_no_route_asked_after_the_players_answers_a_path_under_a_players_prefix():
    ours = players.router.routes
    assert {r.path.removeprefix(PREFIX) for r in ours} >= {"/commands", "/spends", "/view"}
    others = [*public.router.routes, *tiles.router.routes]
    assert len(others) > 10
    for route in ours:
        path = route.path.replace("{match_id}", "kc-1").replace("{player}", "alice")
        for method in route.methods:
            scope = {"type": "http", "path": path, "method": method, "root_path": ""}
            assert route.matches(scope)[0] == Match.FULL
            taken = [o.path for o in others if o.matches(scope)[0] == Match.FULL]
            assert not taken, (method, path, taken)
    # and the check can fail: a public path of a match is not a player's
    scope = {"type": "http", "path": "/matches/kc-1", "method": "GET", "root_path": ""}
    assert any(o.matches(scope)[0] == Match.FULL for o in others)


def test_a_players_command_states_the_token_in_the_schema_as_the_other_routes_do():
    """The commands route reads who is asking from the request, not from the dependency that
    states the bearer scheme: the schema must say the same of it as of its neighbours."""
    from commands.web.app import create_app
    from commands.web.worker import Settings

    paths = create_app(Settings(url="sqlite:///:memory:")).openapi()["paths"]
    ours = paths[f"{PREFIX}/commands"]["post"]
    neighbour = paths[f"{PREFIX}/spends"]["post"]
    assert ours["security"] == neighbour["security"] == [{"HTTPBearer": []}]
    assert [p["name"] for p in ours["parameters"]] == ["match_id", "player"]
