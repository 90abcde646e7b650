"""`arbiter games`: the games Arbiter runs, and the commands each takes, drawn from the game's
`COMMANDS` (`domain.decider.CommandSpec`). `match submit|host MATCH --help` list them too."""

from __future__ import annotations

from typing import Any

import click

from commands.cli import render
from commands.cli.console import json_option
from commands.cli.inputs import spec_of


def commands_of(game: Any) -> dict[str, Any]:
    """The game's commands with their `CommandSpec`; none when it declares no list."""
    return {name: spec for name in getattr(game, "COMMANDS", None) or {}
            if (spec := spec_of(game, name)) is not None}


# How each kind of argument is written on the command line (docs/cli.md).
KIND_WORDS = {"int": "N", "bool": "true|false", "text": "TEXT", "player": "PLAYER",
              "object": "JSON"}


def usage(name: str, spec: Any) -> str:
    """`pick targets=PLAYER,... [note=TEXT]`: the command as it is typed."""
    words = [name]
    for arg_name, arg in spec.args.items():
        kind = (f"{KIND_WORDS.get(arg.items or 'text', 'X')},..." if arg.kind == "list"
                else KIND_WORDS.get(arg.kind, "X"))
        words.append(f"{arg_name}={kind}" if arg.required else f"[{arg_name}={kind}]")
    return " ".join(words)


def register(cli: click.Group) -> None:
    cli.add_command(games_command)


@click.command("games", short_help="The games, and the commands each takes.")
@click.argument("game_id", metavar="[GAME]", required=False)
@json_option
def games_command(game_id: str | None, as_json: bool) -> None:
    """The games Arbiter runs; with GAME, every command it takes, who sends it and its
    arguments (a list argument is written a,b)."""
    from domain.games import game_ids, get_game

    games = [get_game(game_id)] if game_id else [get_game(g) for g in game_ids()]
    data = {"games": [describe(game) for game in games]}
    render.show(data, as_json, lambda: games_text(data["games"], detailed=game_id is not None))


def describe(game: Any) -> dict[str, Any]:
    return {
        "game": game.GAME_ID, "rules_version": game.RULES_VERSION,
        "closes": list(getattr(game, "CLOSES", ())),
        "spends": dict(getattr(game, "SPENDS", {})),
        "commands": {name: {"actor": spec.actor, "label": spec.label, "usage": usage(name, spec),
                            "args": {arg_name: {"kind": arg.kind, "required": arg.required,
                                                "items": arg.items, "label": arg.label}
                                     for arg_name, arg in spec.args.items()}}
                     for name, spec in commands_of(game).items()},
    }


def games_text(games: list[dict[str, Any]], detailed: bool) -> list[Any]:
    if not detailed:
        table = render.new_table("game", "rules", "closes", "garnet spends")
        for g in games:
            table.add_row(g["game"], g["rules_version"], render.cell(g["closes"]),
                          render.cell(g["spends"]))
        return [table, "arbiter games GAME lists a game's commands; its rulebook is "
                       "docs/games/GAME.md"]
    (g,) = games
    lines: list[Any] = [f"{g['game']} ({g['rules_version']}): closes "
                        f"{render.cell(g['closes'])}; garnet spends {render.cell(g['spends'])}"]
    if not g["commands"]:
        lines.append(f"this game declares no command list: see docs/games/{g['game']}.md")
        return lines
    table = render.new_table("sent by", "command and arguments", "what it does")
    for spec in sorted(g["commands"].values(), key=lambda s: s["actor"] != "player"):
        table.add_row(spec["actor"], spec["usage"], spec["label"])
    lines.extend([table, "as the command line takes them: arbiter match submit MATCH --as "
                         "PLAYER COMMAND KEY=VALUE... (host: arbiter match host MATCH ...)"])
    return lines
