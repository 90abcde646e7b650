"""The service commands: `serve`, `projections run|rebuild`, `tokens host|issue|issue-all`.

`register(cli)` adds them to the main group. docs/service.md describes the API, the tokens,
the projections, deadlines and deployment. The HTTP stack and the projection tables (with
PostgreSQL's driver) are imported inside the commands that use them.
"""

from __future__ import annotations

import copy
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager, nullcontext

import click

from commands.cli import render
from commands.cli.console import app_of, db_of, json_option


def register(cli: click.Group) -> None:
    for command in (serve, projections_group, tokens_group):
        cli.add_command(command)


@click.command("serve", short_help="Serve the pages and the HTTP API.")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1),
              help="Worker processes (all against the one database).")
@click.option("--interval", default=1.0, show_default=True, type=click.FloatRange(0.05),
              help="Seconds between deadline checks.")
@click.option("--no-projections", is_flag=True,
              help="Leave the view tables to `arbiter projections run` elsewhere.")
@click.option("--witness", "witnesses", multiple=True, nargs=2, metavar="URL VKEY",
              help="A witness to submit each new checkpoint to (c2sp.org/tlog-witness) and "
                   "its cosignature key; repeat for more (env ARBITER_WITNESSES: 'URL VKEY' "
                   "pairs, comma-separated).")
@click.pass_context
def serve(ctx: click.Context, host: str, port: int, workers: int, interval: float,
          no_projections: bool, witnesses: tuple[tuple[str, str], ...]) -> None:
    """Serve the pages (docs/pages.md) and the HTTP API (OpenAPI at /docs, /openapi.json)
    with uvicorn: players submit for themselves, everyone reads live views, deadlines close
    rounds (docs/service.md)."""
    import uvicorn  # only this command needs the server

    from commands.service.discord.settings import discord_settings
    from commands.store.settings import URL_VARIABLE, database_env, database_url
    from commands.web.worker import (
        INTERVAL_VARIABLE,
        PROJECTIONS_VARIABLE,
        PROXIES_VARIABLE,
        PUBLIC_URL_VARIABLE,
        WITNESSES_VARIABLE,
        witness_key,
    )

    discord_settings()  # a Discord setting that cannot be used stops serve here, in words
    url = database_url(db_of(ctx))
    beside = not no_projections and \
        database_env(url)["PERSISTENCE_MODULE"] == "eventsourcing.postgres"
    os.environ[URL_VARIABLE] = url
    os.environ[INTERVAL_VARIABLE] = str(interval)
    # Every link a page shows starts with the public URL, never a request's Host header.
    reached = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    os.environ.setdefault(PUBLIC_URL_VARIABLE, f"http://{reached}:{port}")
    os.environ[PROJECTIONS_VARIABLE] = "0" if no_projections or beside else "1"
    if witnesses:
        for _, vkey in witnesses:
            witness_key(vkey)  # refused here, in words, not in each worker
        os.environ[WITNESSES_VARIABLE] = ",".join(f"{url} {vkey}" for url, vkey in witnesses)
    prepare(url)
    log_config = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)  # and the service's own lines
    log_config["loggers"]["arbiter"] = {"handlers": ["default"], "level": "INFO"}
    # Only the proxies the host named may say who the client is, or that it came over https.
    trusted = os.environ.get(PROXIES_VARIABLE, "").strip()
    with projecting() if beside else nullcontext(), built_by_all(workers):
        uvicorn.run("commands.web.app:from_environment", factory=True, host=host, port=port,
                    workers=workers, timeout_graceful_shutdown=5, log_config=log_config,
                    proxy_headers=bool(trusted), forwarded_allow_ips=trusted or None)


@contextmanager
def built_by_all(workers: int) -> Iterator[None]:
    """With more than one worker and no ARBITER_BUILT_DIR, a folder of this serve's own for
    what anyone may read (bundles, checkpoints, pages), removed when it stops: each answer is
    then built once for all the workers, not once in each (docs/deploy.md)."""
    from commands.service.built import FOLDER_VARIABLE

    if workers == 1 or os.environ.get(FOLDER_VARIABLE):
        yield
        return
    with tempfile.TemporaryDirectory(prefix="arbiter-built-") as folder:
        os.environ[FOLDER_VARIABLE] = folder
        try:
            yield
        finally:
            del os.environ[FOLDER_VARIABLE]


PROJECTION_INTERVAL = 0.5  # seconds between the projection's looks at the lock


def prepare(url: str) -> None:
    """The store's tables and the view tables, made once before any worker or projection
    process starts: processes creating them together race on PostgreSQL's catalog (a
    deadlock, or a duplicate key in pg_type), and a worker that fails to start is lost."""
    from commands.service.arbiter import Arbiter
    from projections.tables import datastore_of, open_views

    app = Arbiter(url)
    try:
        open_views(datastore_of(app), app.mapper.cipher)
    finally:
        app.close()


@contextmanager
def projecting() -> Iterator[None]:
    """On PostgreSQL, `serve` keeps the views current from a process of its own beside the
    workers (`projections run`, started again if it ends), not from a thread in each worker.
    There its work held the worker's GIL in long stretches, and each thread of a command
    waited behind it at every answer from the database (one worker on two cores: 214 votes a
    second over HTTP against 305, with 100 context switches a vote against 28). It stops with
    `serve`, or once `serve` is gone. Like the workers, it finds the store's URL in the
    environment (never on a command line, which `ps` shows). SQLite's projection stays in the
    workers, woken after each command they record."""
    import logging
    import subprocess

    command = [sys.executable, "-c", "from commands.cli.main import main; main()", "projections",
               "run", "--interval", str(PROJECTION_INTERVAL), "--parent", str(os.getpid())]
    stopping, starting = threading.Event(), threading.Lock()
    running: list[subprocess.Popen[bytes]] = []

    def keep() -> None:
        while True:
            with starting:
                if stopping.is_set():
                    return
                running[:] = [subprocess.Popen(command)]
            code = running[0].wait()
            if not stopping.wait(PROJECTION_INTERVAL):
                logging.getLogger("arbiter.projections").warning(
                    "the projection process ended (exit %s); starting it again", code)

    keeping = threading.Thread(target=keep, daemon=True)
    keeping.start()
    try:
        yield
    finally:
        with starting:
            stopping.set()
            for process in running:
                process.terminate()
        keeping.join(timeout=30)


# -- projections ----------------------------------------------------------------------------

@click.group("projections", short_help="The view tables of the HTTP API.")
def projections_group() -> None:
    """The view tables: public, player, host, standings and audit views."""


@projections_group.command("run", short_help="Keep the view tables current.")
@click.option("--interval", default=1.0, show_default=True, type=click.FloatRange(0.05),
              help="Seconds between looks at the log (SQLite) or at the lock (PostgreSQL).")
@click.option("--parent", type=int, hidden=True, help="Stop once this process is gone.")
@click.pass_context
def projections_run(ctx: click.Context, interval: float, parent: int | None) -> None:
    """Keep the view tables current until stopped, as `serve` does."""
    from commands.store.settings import database_url, persistence_env
    from projections import runner

    stop = threading.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: stop.set())
    if parent is not None:  # serve's: killed with -9, it could not stop this one
        threading.Thread(target=orphaned, args=(parent, stop, interval), daemon=True).start()
    runner.run(persistence_env(database_url(db_of(ctx))), stop, interval=interval)


def orphaned(parent: int, stop: threading.Event, interval: float) -> None:
    while not stop.wait(interval):
        if os.getppid() != parent:
            stop.set()


@projections_group.command("rebuild", short_help="Rebuild the view tables from the events.")
@json_option
@click.pass_context
def projections_rebuild(ctx: click.Context, as_json: bool) -> None:
    """Drop the view tables and rebuild them from the events, in one transaction."""
    from commands.store.settings import database_url, persistence_env
    from projections import runner
    from projections.projection import Ledger
    from projections.tables import datastore_of, open_views

    with closing(Ledger(env=persistence_env(database_url(db_of(ctx))))) as ledger:
        views = open_views(datastore_of(ledger), ledger.mapper.cipher)
        total = ledger.recorder.max_notification_id() or 0
        with click.progressbar(length=total, label="rebuilding", file=sys.stderr) as bar:
            runner.rebuild(ledger, views, lambda done, _: bar.update(done - bar.pos))
            bar.update(total - bar.pos)  # the last events may be tokens, which no view shows
    render.show({"events": total}, as_json, lambda: [f"views rebuilt from {total} events"])


# -- tokens ---------------------------------------------------------------------------------

@click.group("tokens", short_help="Bearer tokens of the HTTP API.")
def tokens_group() -> None:
    """Bearer tokens of the HTTP API (stored as SHA-256 digests only)."""


PUBLIC_URL = click.option(
    "--url", envvar="ARBITER_PUBLIC_URL", default="http://127.0.0.1:8000", show_default=True,
    help="Where `arbiter serve` is reached, for the personal link (env ARBITER_PUBLIC_URL).")


@tokens_group.command("host", short_help="Make a new host token and print it, with its link.")
@PUBLIC_URL
@click.option("--link-only", is_flag=True,
              help="Only a new link for the host's pages: the API token stays as it is.")
@json_option
@click.pass_context
def tokens_host(ctx: click.Context, url: str, link_only: bool, as_json: bool) -> None:
    """Make a new host token, replacing any other, and print it (once: keep it), then the
    dashboard's link. The link holds a join code, which opens the host's pages and nothing
    else; a new one replaces the old, and signs out every browser that used it."""
    from commands.service.tokens import Tokens, host_link

    with closing(app_of(ctx, signing=False)) as app:
        tokens = Tokens(app)
        token = None if link_only else tokens.set_host()
        opens = host_link(url, tokens.set_host_join())
    render.emit({"token": token, "link": opens}, as_json,
                opens if token is None else f"{token}\n{opens}")


@tokens_group.command("issue", short_help="Issue a player's token and personal link.")
@click.argument("match_id", metavar="MATCH")
@click.argument("player")
@PUBLIC_URL
@json_option
@click.pass_context
def tokens_issue(ctx: click.Context, match_id: str, player: str, url: str,
                 as_json: bool) -> None:
    """Issue PLAYER's API token for MATCH, replacing any earlier one, and print it, then the
    personal link to send the player by DM (it opens their page). The link holds a join
    code, not the token: it opens the pages and nothing else, and this replaces it too."""
    from commands.service.tokens import Tokens, join_link
    from domain.logs import check_plays

    with closing(app_of(ctx, signing=False)) as app:
        check_plays(player, app.match(match_id).players, match_id)
        tokens = Tokens(app)
        token = tokens.issue(match_id, player)
        opens = join_link(url, match_id, tokens.issue_joins(match_id, [player])[player])
    render.emit({"match": match_id, "player": player, "token": token, "link": opens}, as_json,
                f"{token}\n{opens}")


@tokens_group.command("issue-all", short_help="Issue every player's token and link at once.")
@click.argument("match_id", metavar="MATCH")
@PUBLIC_URL
@json_option
@click.pass_context
def tokens_issue_all(ctx: click.Context, match_id: str, url: str, as_json: bool) -> None:
    """Issue every player's API token for MATCH at once, replacing earlier ones, and print
    each with its personal link (once: send each player theirs by DM; the link holds a join
    code, not the token). One line a player, each token and link whole, to copy."""
    from commands.service.tokens import Tokens, join_link

    with closing(app_of(ctx, signing=False)) as app:
        tokens = Tokens(app)
        players = app.match(match_id).players
        issued = tokens.issue_all(match_id, players)
        codes = tokens.issue_joins(match_id, players)
    rows = [{"match": match_id, "player": player, "token": token,
             "link": join_link(url, match_id, codes[player])} for player, token in issued.items()]
    width = max(len(player) for player in issued)
    render.emit(rows, as_json, "\n".join(
        f"{row['player']:<{width}}  {row['token']}  {row['link']}" for row in rows))
