"""The `arbiter` command line: thin handlers over the application service.

Every command prints text for a person, or JSON with `--json`; input that cannot be used, or a
store that cannot be reached, is one line `error: CODE: message` on stderr and exit code 2.
docs/cli.md has the conventions. Commands import what they need when they run, so a command
that does not serve never loads the HTTP stack, nor PostgreSQL's driver for an SQLite store.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from commands import render
from commands.announce_cli import announce
from commands.audit_cli import register as register_audit
from commands.console import app_of, fail, one_line
from commands.games_cli import games_command
from commands.match_cli import register as register_match
from commands.service_cli import register as register_service
from commands.start_cli import register as register_start
from domain.decider import HOST


class Arbitrated(click.Group):
    """Turns expected failures into one line on stderr and exit code 2, usage errors too."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except Exception as error:
            line = one_line(error, ctx.obj["db"] if ctx.obj else None)
            if line is None:
                raise  # a bug: its traceback is the report
            fail(line)

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.UsageError as error:
            where = error.ctx.command_path if error.ctx else "arbiter"
            click.echo(f"error: invalid_usage: {error.format_message()} (see `{where} "
                       "--help`)", err=True)
            code = error.exit_code
        except click.ClickException as error:
            error.show()
            code = error.exit_code
        except click.Abort:
            click.echo("Aborted!", err=True)
            code = 1
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


@click.group(cls=Arbitrated, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--db", envvar="ARBITER_DATABASE_URL", default=None, metavar="URL",
              help="sqlite:///FILE (default sqlite:///arbiter.db) or postgresql://USER@HOST/DB "
                   "(also ARBITER_DATABASE_URL).")
@click.pass_context
def cli(ctx: click.Context, db: str | None) -> None:
    """Arbiter: run mind-game matches on an append-only, verifiable ledger.

    New here? `arbiter demo` plays the sample matches; `arbiter init` sets up a host (the
    store, the signing key, the HTTP token). README.md walks through a first match.
    """
    ctx.obj = {"db": db}


def standings(season: Any, viewer: str | None) -> dict[str, Any]:
    """The season's standings (imported when asked: --help need not load them)."""
    from projections.standings import standings as season_standings

    return season_standings(season, viewer)


# -- seasons ------------------------------------------------------------------------------

@cli.group()
def season() -> None:
    """Seasons: players and the garnets, ToLs and Opals they carry."""


@season.command("create")
@click.argument("name")
@click.pass_context
def season_create(ctx: click.Context, name: str) -> None:
    """Start a season."""
    app_of(ctx).create_season(name)
    click.echo(f"season {name} created")


@season.command("register")
@click.argument("season_name", metavar="SEASON")
@click.argument("players", nargs=-1, required=True)
@click.pass_context
def season_register(ctx: click.Context, season_name: str, players: tuple[str, ...]) -> None:
    """Register players in a season."""
    app = app_of(ctx)
    for player in players:
        app.register(season_name, player)
    click.echo(f"registered {', '.join(players)}")


@season.command("grant")
@click.argument("season_name", metavar="SEASON")
@click.argument("player")
@click.argument("amount", type=int)
@click.option("--asset", default="garnets", show_default=True)
@click.option("--reason", required=True, help="Why: it is recorded with the grant.")
@click.pass_context
def season_grant(ctx: click.Context, season_name: str, player: str, amount: int, asset: str,
                 reason: str) -> None:
    """Grant (or with a negative AMOUNT, take) an asset, with a reason."""
    app_of(ctx).grant(season_name, player, asset, amount, reason)
    click.echo(f"{player}: {amount:+d} {asset}")


@season.command("transfer")
@click.argument("season_name", metavar="SEASON")
@click.argument("giver")
@click.argument("receiver")
@click.argument("amount", type=int)
@click.option("--reason", default="trade", show_default=True)
@click.pass_context
def season_transfer(ctx: click.Context, season_name: str, giver: str, receiver: str,
                    amount: int, reason: str) -> None:
    """Trade garnets between two players."""
    app_of(ctx).transfer(season_name, giver, receiver, amount, reason)
    click.echo(f"{giver} -> {receiver}: {amount} garnets")


@season.command("show")
@click.argument("season_name", metavar="SEASON")
@click.option("--player", default=None, help="Show this player's garnets too.")
@click.option("--host", is_flag=True, help="Show everyone's garnets.")
@click.option("--json", "as_json", is_flag=True)
@click.pass_context
def season_show(ctx: click.Context, season_name: str, player: str | None, host: bool,
                as_json: bool) -> None:
    """Standings: ToLs, Opals, MoEs and EC history; garnets only to their owner or the host."""
    data = standings(app_of(ctx).season(season_name), HOST if host else player)
    render.emit(data, as_json, render.standings_text(data))


register_match(cli)
cli.add_command(games_command)
register_start(cli)
register_audit(cli)
register_service(cli)
cli.add_command(announce)


def main() -> None:
    cli(prog_name="arbiter")
