"""The service commands: `serve`, `projections run|rebuild`, `tokens host|issue`.

`register(cli)` adds them to the main group. docs/service.md describes the API, the tokens,
the projections, deadlines and deployment.
"""

from __future__ import annotations

import copy
import os
import signal
import sys
import threading
from contextlib import closing
from urllib.parse import quote

import click

from commands.app import Arbiter
from commands.http.service import INTERVAL_VARIABLE, PROJECTIONS_VARIABLE
from commands.http.tokens import Tokens
from commands.store import URL_VARIABLE, database_url, persistence_env
from domain.errors import RuleViolation
from projections import runner
from projections.projection import Ledger
from projections.tables import open_views


def register(cli: click.Group) -> None:
    for command in (serve, projections_group, tokens_group):
        cli.add_command(command)


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1),
              help="Worker processes (all against the one database).")
@click.option("--interval", default=1.0, show_default=True, type=click.FloatRange(0.05),
              help="Seconds between deadline checks.")
@click.option("--no-projections", is_flag=True,
              help="Leave the view tables to `arbiter projections run` elsewhere.")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, workers: int, interval: float,
          no_projections: bool) -> None:
    """Run the HTTP API (OpenAPI at /docs, /openapi.json) with uvicorn."""
    import uvicorn  # only this command needs the server

    os.environ[URL_VARIABLE] = database_url(ctx.obj["db"])
    os.environ[INTERVAL_VARIABLE] = str(interval)
    os.environ[PROJECTIONS_VARIABLE] = "0" if no_projections else "1"
    log_config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)  # and the service's own lines
    log_config["loggers"]["arbiter"] = {"handlers": ["default"], "level": "INFO"}
    uvicorn.run("commands.http.app:from_environment", factory=True, host=host, port=port,
                workers=workers, timeout_graceful_shutdown=5, log_config=log_config)


# -- projections ----------------------------------------------------------------------------

@click.group("projections")
def projections_group() -> None:
    """The view tables: public, player, host, standings and audit views."""


@projections_group.command("run")
@click.option("--interval", default=1.0, show_default=True, type=click.FloatRange(0.05),
              help="Seconds between looks at the log (SQLite) or at the lock (PostgreSQL).")
@click.pass_context
def projections_run(ctx: click.Context, interval: float) -> None:
    """Keep the view tables current until stopped, as `serve` does in its workers."""
    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    runner.run(persistence_env(database_url(ctx.obj["db"])), stop, interval=interval)


@projections_group.command("rebuild")
@click.pass_context
def projections_rebuild(ctx: click.Context) -> None:
    """Drop the view tables and rebuild them from the events, in one transaction."""
    with closing(Ledger(env=persistence_env(database_url(ctx.obj["db"])))) as ledger:
        views = open_views(ledger.recorder.datastore)
        total = ledger.recorder.max_notification_id() or 0
        with click.progressbar(length=total, label="rebuilding", file=sys.stderr) as bar:
            runner.rebuild(ledger, views, lambda done, _: bar.update(done - bar.pos))
            bar.update(total - bar.pos)  # the last events may be tokens, which no view shows
    click.echo(f"views rebuilt from {total} events")


# -- tokens ---------------------------------------------------------------------------------

@click.group("tokens")
def tokens_group() -> None:
    """Bearer tokens of the HTTP API (stored as SHA-256 digests only)."""


PUBLIC_URL = click.option(
    "--url", envvar="ARBITER_PUBLIC_URL", default="http://127.0.0.1:8000", show_default=True,
    help="Where `arbiter serve` is reached, for the personal link (env ARBITER_PUBLIC_URL).")


def link(url: str, path: str, token: str) -> str:
    """A personal link: the token rides in the fragment, which no server log ever sees."""
    return f"{url.rstrip('/')}{path}#{token}"


@tokens_group.command("host")
@PUBLIC_URL
@click.pass_context
def tokens_host(ctx: click.Context, url: str) -> None:
    """Make a new host token, replacing any other, and print it (once: keep it), then the
    dashboard's link."""
    with closing(Arbiter(ctx.obj["db"])) as app:
        token = Tokens(app).set_host()
    click.echo(f"{token}\n{link(url, '/host/join', token)}")


@tokens_group.command("issue")
@click.argument("match_id", metavar="MATCH")
@click.argument("player")
@PUBLIC_URL
@click.pass_context
def tokens_issue(ctx: click.Context, match_id: str, player: str, url: str) -> None:
    """Issue PLAYER's token for MATCH, replacing any earlier one, and print it, then the
    personal link to send the player by DM (it opens their page)."""
    with closing(Arbiter(ctx.obj["db"])) as app:
        if player not in app.match(match_id).players:
            raise RuleViolation("unknown_player", f"{player!r} does not play in {match_id}")
        token = Tokens(app).issue(match_id, player)
    click.echo(f"{token}\n{link(url, f'/m/{quote(match_id, safe=str())}/join', token)}")
