"""`arbiter discord`: the slash commands registered with Discord, and who is who
(docs/discord.md). Discord's settings come from the environment, as `serve` reads them."""

from __future__ import annotations

from contextlib import closing

import click

from commands.cli import render
from commands.cli.console import app_of, json_option
from domain.errors import RuleViolation


def register(cli: click.Group) -> None:
    cli.add_command(discord_group)


@click.group("discord", short_help="Play on Discord: slash commands and linked players.")
def discord_group() -> None:
    """Discord's slash commands for every game, and the links of Discord users to season
    players (docs/discord.md)."""


@discord_group.command("register", short_help="Register the slash commands with Discord.")
@click.option("--guild", default=None, metavar="SERVER_ID",
              help="Register them for one server (they appear at once) instead of everywhere.")
@click.option("--print", "only_print", is_flag=True,
              help="Print the commands as Discord would receive them; register nothing.")
@json_option
def discord_register(guild: str | None, only_print: bool, as_json: bool) -> None:
    """Build the slash commands from every game's declared commands and register them
    through Discord's bulk overwrite (replacing the application's earlier ones)."""
    from commands.service.discord.rest import Rest
    from commands.service.discord.settings import discord_settings
    from commands.service.discord.slash import commands

    built = commands()
    if only_print:
        render.emit(built, True, "")
        return
    settings = discord_settings()
    if settings is None or not settings.application_id:
        raise RuleViolation("discord_off", "set ARBITER_DISCORD_APPLICATION_ID and "
                            "ARBITER_DISCORD_PUBLIC_KEY (docs/discord.md)")
    found = Rest(settings.api, settings.bot_token).overwrite_commands(
        settings.application_id, built, guild)
    where = f"server {guild}" if guild else "every server and DM (global commands may take " \
        "up to an hour to appear)"
    render.emit({"registered": [c["name"] for c in found], "guild": guild}, as_json,
                f"{len(found)} slash commands registered for {where}: "
                + ", ".join(f"/{c['name']}" for c in found))


@discord_group.command("link", short_help="Link a Discord user to a season player.")
@click.argument("season")
@click.argument("player")
@click.argument("user_id", metavar="USER_ID")
@json_option
@click.pass_context
def discord_link(ctx: click.Context, season: str, player: str, user_id: str,
                 as_json: bool) -> None:
    """Link the Discord user USER_ID (Discord: Copy User ID) to PLAYER of SEASON, or to the
    season's host with PLAYER `host`: their slash commands then act as that player."""
    from commands.service.discord.links import Links
    from domain.decider import HOST

    with closing(app_of(ctx, signing=False)) as app:
        found = app.season(season)
        if player != HOST:
            found.check_is_registered(player)
        Links(app).link(season, player, user_id, by="host")
    render.emit({"season": season, "player": player, "user": user_id}, as_json,
                f"Discord user {user_id} plays as {player} in {season}")


@discord_group.command("unlink", short_help="Undo a Discord user's link.")
@click.argument("season")
@click.argument("user_id", metavar="USER_ID")
@json_option
@click.pass_context
def discord_unlink(ctx: click.Context, season: str, user_id: str, as_json: bool) -> None:
    """Undo USER_ID's link in SEASON: their slash commands act for nobody there."""
    from commands.service.discord.links import Links

    with closing(app_of(ctx, signing=False)) as app:
        app.season(season)
        removed = Links(app).unlink(season, user_id)
    render.emit({"season": season, "user": user_id, "unlinked": removed}, as_json,
                f"Discord user {user_id} unlinked from {season}" if removed
                else f"Discord user {user_id} had no link in {season}")


@discord_group.command("links", short_help="Who is who in a season.")
@click.argument("season")
@json_option
@click.pass_context
def discord_links(ctx: click.Context, season: str, as_json: bool) -> None:
    """Every Discord user linked in SEASON, and the player each plays as."""
    from commands.service.discord.links import Links

    with closing(app_of(ctx, signing=False)) as app:
        app.season(season)
        found = Links(app).of(season)
    rows = [{"user": u, "player": p} for u, p in sorted(found.items(), key=lambda i: i[1])]
    render.emit(rows, as_json, "\n".join(f"{r['player']}  {r['user']}" for r in rows)
                or f"nobody is linked in {season}")
